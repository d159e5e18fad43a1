//! Shared by the tests: the `matchbox` binary, a scratch folder per test, and for the
//! `serve` tests the server as a child process and plain HTTP/1.1 over a socket (nothing
//! to download, nothing to build).

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

pub mod browser;
pub mod classroom;
pub mod files;
mod http;
pub use http::request;

/// How often [`wait_until`] asks again: often enough that a test waits little longer
/// than the program takes, seldom enough that asking does not slow a busy machine.
const ASK_EVERY: std::time::Duration = std::time::Duration::from_millis(20);

/// What `probe` finds once it finds something (asked again until then), or `None` if
/// it has found nothing after `limit`. The one way the tests wait for the program: for
/// a condition, with a deadline, never for a guessed time.
pub fn wait_until<T>(limit: std::time::Duration, probe: impl FnMut() -> Option<T>) -> Option<T> {
    wait_until_every(ASK_EVERY, limit, probe)
}

/// [`wait_until`], asking every `every`: more often where the moment it is found is
/// what a test varies (a run killed as its first file appears).
pub fn wait_until_every<T>(
    every: std::time::Duration,
    limit: std::time::Duration,
    mut probe: impl FnMut() -> Option<T>,
) -> Option<T> {
    let deadline = std::time::Instant::now() + limit;
    loop {
        if let Some(found) = probe() {
            return Some(found);
        }
        if std::time::Instant::now() >= deadline {
            return None;
        }
        std::thread::sleep(every);
    }
}

/// [`wait_until`], failing the test with `what` (what was waited for) at the deadline.
pub fn wait_for<T>(what: &str, limit: std::time::Duration, probe: impl FnMut() -> Option<T>) -> T {
    wait_until(limit, probe).unwrap_or_else(|| panic!("waited {limit:?} in vain for {what}"))
}

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

/// A connection to `to` (`127.0.0.1:PORT`) from the loopback address `from`: another
/// computer, to the server (loopback has all of 127.0.0.0/8). An error where the server
/// resets it at once (a computer over its cap) before the connection is made.
pub fn connect_from(from: std::net::Ipv4Addr, to: &str) -> std::io::Result<std::net::TcpStream> {
    let to: std::net::SocketAddr = to.parse().unwrap();
    let socket = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None)?;
    socket.bind(&std::net::SocketAddr::from((from, 0)).into())?;
    socket.connect(&to.into())?;
    Ok(socket.into())
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
        Server::start_in(Command::new(env!("CARGO_BIN_EXE_matchbox")), args, state)
    }

    /// [`Server::start`] with `command` as the program (a shell that sets limits and
    /// runs `matchbox` as its `$0`).
    pub fn start_in(mut command: Command, args: &[&str], state: Option<&Path>) -> Server {
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

    /// The game in progress, as the API gives it.
    pub fn game(&self) -> serde_json::Value {
        self.anyone("GET", "/api/game", None).1
    }
}

impl Server {
    /// Sends Ctrl-C (SIGINT) and waits for the server to stop.
    pub fn interrupt(&mut self) -> std::process::ExitStatus {
        self.signal("INT")
    }

    /// Sends a signal (`INT`, `TERM`) and waits for the server to stop.
    pub fn signal(&mut self, name: &str) -> std::process::ExitStatus {
        let sent = Command::new("kill")
            .args([&format!("-{name}"), &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        self.child.wait().unwrap()
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Whether the server is still running.
    pub fn running(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
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
