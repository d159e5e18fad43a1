//! Shared by the tests: the `matchbox` binary, a scratch folder per test, and for the
//! `serve` tests the server as a child process and plain HTTP/1.1 over a socket (nothing
//! to download, nothing to build).

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

/// The `matchbox` binary, to be run from the project folder.
pub fn matchbox() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_matchbox"));
    command.current_dir(env!("CARGO_MANIFEST_DIR"));
    command
}

/// `matchbox ARGS`, run to its end.
pub fn run(args: &[&str]) -> Output {
    matchbox().args(args).output().expect("runs")
}

/// A fresh, empty folder for one test, `matchbox-WHAT-PID` in the temporary folder
/// (tests run at once: each names its own).
pub fn scratch(what: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("matchbox-{what}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `matchbox serve` on an ephemeral port, killed when dropped.
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`
    pub base: String,
    /// The teacher's token.
    pub token: String,
}

impl Server {
    /// Starts `matchbox serve` with these extra arguments and reads its banner.
    pub fn start(args: &[&str], state: Option<&Path>) -> Server {
        let mut command = Command::new(env!("CARGO_BIN_EXE_matchbox"));
        command
            .args(["serve", "--port", "0", "--seed", "7"])
            .args(args);
        if let Some(path) = state {
            command.arg("--state").arg(path);
        }
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("matchbox serve starts");
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let mut base = None;
        let mut token = None;
        while token.is_none() {
            let line = lines
                .next()
                .expect("the server prints its addresses")
                .unwrap();
            if let Some(at) = line.find("?token=") {
                token = Some(line[at + 7..].trim().to_string());
                let start = line.find("http://").unwrap();
                base = Some(line[start..at].trim_end_matches('/').to_string());
            }
        }
        Server {
            child,
            base: base.unwrap(),
            token: token.unwrap(),
        }
    }

    /// A request with the teacher's token.
    pub fn teacher(
        &self,
        method: &str,
        path: &str,
        body: Option<&str>,
    ) -> (u16, serde_json::Value) {
        let header = format!("x-matchbox-token: {}\r\n", self.token);
        json(request(&self.base, method, path, &header, body))
    }

    /// A request without a token.
    pub fn anyone(&self, method: &str, path: &str, body: Option<&str>) -> (u16, serde_json::Value) {
        json(request(&self.base, method, path, "", body))
    }
}

impl Server {
    /// Sends Ctrl-C (SIGINT) and waits for the server to stop.
    pub fn interrupt(&mut self) -> std::process::ExitStatus {
        let sent = Command::new("kill")
            .args(["-INT", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        self.child.wait().unwrap()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn json((status, body): (u16, String)) -> (u16, serde_json::Value) {
    let value = serde_json::from_str(&body).unwrap_or(serde_json::Value::String(body));
    (status, value)
}

/// One HTTP/1.1 request on a fresh connection: the status and the body.
pub fn request(
    base: &str,
    method: &str,
    path: &str,
    headers: &str,
    body: Option<&str>,
) -> (u16, String) {
    let host = base.trim_start_matches("http://");
    let mut stream = TcpStream::connect(host).expect("connect");
    let body = body.unwrap_or("");
    let head = format!(
        "{method} {path} HTTP/1.1\r\nhost: {host}\r\nconnection: close\r\ncontent-type: application/json\r\n{headers}content-length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    // A server may refuse a body that is too large before reading it all.
    let _ = stream.write_all(body.as_bytes());
    // Read the head, then as many bytes as it announces: a WebDriver server may keep
    // the connection open whatever the request asked.
    let mut reader = BufReader::new(stream);
    let mut head = String::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
            break;
        }
        head.push_str(&line);
    }
    let status = head
        .split(' ')
        .nth(1)
        .expect("an HTTP answer")
        .parse()
        .unwrap();
    let lower = head.to_ascii_lowercase();
    let length = lower
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .map(|n| n.trim().parse::<usize>().unwrap());
    let mut raw = Vec::new();
    match length {
        Some(n) => {
            raw.resize(n, 0);
            reader.read_exact(&mut raw).unwrap();
        }
        None => {
            let _ = reader.read_to_end(&mut raw);
        }
    }
    let rest = String::from_utf8_lossy(&raw).into_owned();
    let chunked = lower.contains("transfer-encoding: chunked");
    (status, if chunked { unchunk(&rest) } else { rest })
}

fn unchunk(mut rest: &str) -> String {
    let mut out = String::new();
    while let Some((size, after)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&after[..n]);
        rest = &after[n + 2..];
    }
    out
}
