//! A plain static file server on 127.0.0.1, as a school's web space would be: GET a file
//! of one folder, nothing else. Stopped when dropped.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;

/// A file server serving one folder.
pub struct FileServer {
    /// `http://127.0.0.1:PORT`
    pub base: String,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("wasm") => "application/wasm",
        Some("webmanifest") => "application/manifest+json",
        _ => "application/octet-stream",
    }
}

fn answer(mut stream: TcpStream, root: &Path) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut first = String::new();
    if reader.read_line(&mut first).is_err() {
        return;
    }
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
            break;
        }
    }
    let path = first.split(' ').nth(1).unwrap_or("/");
    let path = path.split(['?', '#']).next().unwrap_or("/");
    let file: PathBuf = match path.trim_start_matches('/') {
        "" => root.join("index.html"),
        p if p.split('/').any(|part| part == "..") => root.join("\0"),
        p => root.join(p),
    };
    let response = match std::fs::read(&file) {
        Ok(body) => {
            let head = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: {}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                content_type(&file),
                body.len()
            );
            [head.into_bytes(), body].concat()
        }
        Err(_) => {
            b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n".to_vec()
        }
    };
    let _ = stream.write_all(&response);
}

impl FileServer {
    /// Serves `root` on a free port.
    pub fn start(root: &Path) -> FileServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let stop = Arc::new(AtomicBool::new(false));
        let (root, stopping) = (root.to_path_buf(), Arc::clone(&stop));
        let thread = std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stopping.load(Ordering::SeqCst) {
                    break;
                }
                if let Ok(stream) = stream {
                    let root = root.clone();
                    std::thread::spawn(move || answer(stream, &root));
                }
            }
        });
        FileServer {
            base,
            stop,
            thread: Some(thread),
        }
    }
}

impl Drop for FileServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wakes the accept loop, which then sees the flag and closes the port.
        let _ = TcpStream::connect(self.base.trim_start_matches("http://"));
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The static site `bash web/build.sh` wrote (`web/dist`), or `None` where it was not
/// built: the test is then skipped, but on CI the site must be there.
pub fn built_site() -> Option<std::path::PathBuf> {
    let dist = Path::new(env!("CARGO_MANIFEST_DIR")).join("web/dist");
    if dist.join("index.html").exists() {
        return Some(dist);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI: build the site first (bash web/build.sh)"
    );
    eprintln!("skipped: no site in {} (bash web/build.sh)", dist.display());
    None
}
