//! `matchbox serve` against one pupil's laptop that floods it: 2,000 connections that
//! send nothing or half a request's head, and come back as soon as the server closes
//! them, from one address or from 20 (loopback has all of 127.0.0.0/8); the teacher's
//! requests, from an address of their own, are answered within a second all the while.
//! And a body announced at 10^15 bytes is refused at once. The figures measured are
//! printed (`cargo test --test serve_flood -- --nocapture`).

// The floods raise the file limit with setrlimit, which Windows has not.
#![cfg(unix)]

mod support;

use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use support::{Server, wait_for};

/// The floods raise the whole test process's file limit: one test at a time.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Hostile connections held at once.
const FLOOD: usize = 2000;
/// How long the teacher goes on asking during a flood: past the server's header timeout
/// (5 s), so that the held connections are cut and come back meanwhile.
const TEACHING: Duration = Duration::from_secs(8);

/// The file limit (`ulimit -n`) raised to `files` for as long as it lives, then put back;
/// `matchbox serve` started meanwhile inherits it.
struct FileLimit(libc::rlimit);

impl FileLimit {
    fn raised(files: u64) -> FileLimit {
        let mut old = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit and setrlimit read and write only the structs given.
        unsafe {
            assert_eq!(libc::getrlimit(libc::RLIMIT_NOFILE, &raw mut old), 0);
            assert!(
                old.rlim_max >= files,
                "the hard limit allows {}",
                old.rlim_max
            );
            let raised = libc::rlimit {
                rlim_cur: files.max(old.rlim_cur),
                rlim_max: old.rlim_max,
            };
            assert_eq!(libc::setrlimit(libc::RLIMIT_NOFILE, &raw const raised), 0);
        }
        FileLimit(old)
    }
}

impl Drop for FileLimit {
    fn drop(&mut self) {
        // SAFETY: as above.
        unsafe {
            libc::setrlimit(libc::RLIMIT_NOFILE, &raw const self.0);
        }
    }
}

/// A flood under way: `connections` held at once from `sources` in turn, each opened
/// again as soon as it is closed, half of them with half a request's head sent.
struct Flood {
    stop: Arc<AtomicBool>,
    /// Connections tried so far, made or not.
    tried: Arc<AtomicUsize>,
    /// Connections made so far.
    made: Arc<AtomicUsize>,
    /// Connections open now.
    open: Arc<AtomicUsize>,
    /// The most open at once.
    most: Arc<AtomicUsize>,
    thread: Option<JoinHandle<()>>,
}

impl Flood {
    fn start(server: SocketAddr, sources: Vec<Ipv4Addr>, connections: usize) -> Flood {
        let stop = Arc::new(AtomicBool::new(false));
        let tried = Arc::new(AtomicUsize::new(0));
        let made = Arc::new(AtomicUsize::new(0));
        let open = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let thread = std::thread::spawn({
            let (stop, tried, made, open, most) = (
                Arc::clone(&stop),
                Arc::clone(&tried),
                Arc::clone(&made),
                Arc::clone(&open),
                Arc::clone(&most),
            );
            move || {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .unwrap();
                runtime.block_on(async move {
                    let tasks: Vec<_> = (0..connections)
                        .map(|i| {
                            let source = sources[i % sources.len()];
                            let (stop, tried, made, open, most) = (
                                Arc::clone(&stop),
                                Arc::clone(&tried),
                                Arc::clone(&made),
                                Arc::clone(&open),
                                Arc::clone(&most),
                            );
                            tokio::spawn(async move {
                                while !stop.load(Ordering::Relaxed) {
                                    let stream = connect(source, server).await;
                                    tried.fetch_add(1, Ordering::Relaxed);
                                    let Some(stream) = stream else {
                                        // No port or no answer: again a moment later
                                        // (the flood's pace, not a wait for the server).
                                        tokio::time::sleep(Duration::from_millis(20)).await;
                                        continue;
                                    };
                                    made.fetch_add(1, Ordering::Relaxed);
                                    let now = open.fetch_add(1, Ordering::Relaxed) + 1;
                                    most.fetch_max(now, Ordering::Relaxed);
                                    if i % 2 == 1 {
                                        let _ =
                                            stream.try_write(b"GET /api/game HTTP/1.1\r\nx-slow: ");
                                    }
                                    held(&stream, &stop).await;
                                    open.fetch_sub(1, Ordering::Relaxed);
                                }
                            })
                        })
                        .collect();
                    for task in tasks {
                        let _ = task.await;
                    }
                });
            }
        });
        Flood {
            stop,
            tried,
            made,
            open,
            most,
            thread: Some(thread),
        }
    }
}

impl Drop for Flood {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// A connection from `source`, or none within a second.
async fn connect(source: Ipv4Addr, server: SocketAddr) -> Option<tokio::net::TcpStream> {
    let socket = tokio::net::TcpSocket::new_v4().ok()?;
    socket.bind(SocketAddr::new(IpAddr::V4(source), 0)).ok()?;
    tokio::time::timeout(Duration::from_secs(1), socket.connect(server))
        .await
        .ok()?
        .ok()
}

/// Holds a connection until the server closes it or the flood stops.
async fn held(stream: &tokio::net::TcpStream, stop: &AtomicBool) {
    let mut buffer = [0u8; 512];
    while !stop.load(Ordering::Relaxed) {
        tokio::select! {
            ready = stream.readable() => {
                if ready.is_err() {
                    return;
                }
                match stream.try_read(&mut buffer) {
                    Ok(0) => return,
                    Ok(_) => {}
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                    Err(_) => return,
                }
            }
            // A look at the flood's own stop flag every so often, not a wait for the
            // server.
            () = tokio::time::sleep(Duration::from_millis(100)) => {}
        }
    }
}

/// One request of the teacher's with the token, from 127.0.0.1: how long its answer took,
/// or what went wrong (nothing within 5 s is wrong too).
fn teacher(server: &Server, method: &str, path: &str) -> Result<Duration, String> {
    let address: SocketAddr = server.base.trim_start_matches("http://").parse().unwrap();
    let started = Instant::now();
    let mut stream = TcpStream::connect_timeout(&address, Duration::from_secs(5))
        .map_err(|e| format!("connect: {e}"))?;
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nhost: {address}\r\nx-matchbox-token: {}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n",
        server.token
    )
    .map_err(|e| format!("write: {e}"))?;
    let mut answer = Vec::new();
    stream
        .read_to_end(&mut answer)
        .map_err(|e| format!("no answer after {:.1?}: {e}", started.elapsed()))?;
    let took = started.elapsed();
    let answer = String::from_utf8_lossy(&answer);
    if answer.starts_with("HTTP/1.1 200") {
        Ok(took)
    } else {
        Err(format!(
            "after {took:.1?}: {}",
            answer.lines().next().unwrap_or("")
        ))
    }
}

/// The teacher's requests through a flood from `sources`: each answered within a second.
fn teacher_answered_through_a_flood_from(sources: Vec<Ipv4Addr>) {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(PoisonError::into_inner);
    // The flood's 2,000 sockets here and as many in the server.
    let _limit = FileLimit::raised(8192);
    let mut server = Server::start(&["--preset", "hexapawn"], None);
    let address: SocketAddr = server.base.trim_start_matches("http://").parse().unwrap();
    let count = sources.len();
    let flood = Flood::start(address, sources, FLOOD);
    // The flood is on once it has tried all its connections and holds each address's
    // share of the server. The rest are reset by the server, often before `connect`
    // returns (a try, not a connection made), so how many count as made is a race.
    let share = FLOOD.min(matchbox_serve::PER_CLIENT * count);
    wait_for(
        "the flood's first 2,000 tries, each address's share made",
        Duration::from_secs(60),
        || {
            (flood.tried.load(Ordering::Relaxed) >= FLOOD
                && flood.made.load(Ordering::Relaxed) >= share)
                .then_some(())
        },
    );
    let started = Instant::now();
    let mut took = Vec::new();
    let mut wrong = Vec::new();
    while started.elapsed() < TEACHING {
        for (method, path) in [("POST", "/api/game/new"), ("GET", "/api/game")] {
            match teacher(&server, method, path) {
                Ok(t) => took.push(t),
                Err(e) => wrong.push(format!("{method} {path}: {e}")),
            }
        }
        // The teacher's pace, not a wait for the server.
        std::thread::sleep(Duration::from_millis(50));
    }
    let tried = flood.tried.load(Ordering::Relaxed);
    let made = flood.made.load(Ordering::Relaxed);
    let open = flood.open.load(Ordering::Relaxed);
    let most = flood.most.load(Ordering::Relaxed);
    drop(flood);
    took.sort();
    let worst = took.last().copied().unwrap_or_default();
    let median = took.get(took.len() / 2).copied().unwrap_or_default();
    eprintln!(
        "{FLOOD} connections from {count} address(es): {tried} tried and {made} made in all, {most} open at most, {open} open at the end; \
         the teacher's {} requests answered in {median:.1?} (median), {worst:.1?} at worst; {} failed",
        took.len(),
        wrong.len()
    );
    assert!(wrong.is_empty(), "{wrong:#?}");
    assert!(took.len() >= 20, "{}", took.len());
    assert!(worst < Duration::from_secs(1), "{worst:?}");
    assert!(server.running(), "the server is still up");
    assert_eq!(server.interrupt().code(), Some(0));
}

#[test]
fn the_teacher_is_answered_within_a_second_while_one_address_floods() {
    teacher_answered_through_a_flood_from(vec![Ipv4Addr::new(127, 0, 0, 2)]);
}

#[test]
fn the_teacher_is_answered_within_a_second_while_twenty_addresses_flood() {
    teacher_answered_through_a_flood_from((2..22).map(|i| Ipv4Addr::new(127, 0, 0, i)).collect());
}

#[test]
fn a_body_announced_at_ten_to_the_fifteen_bytes_is_refused_at_once() {
    let server = Server::start(&["--preset", "hexapawn"], None);
    let address = server.base.trim_start_matches("http://");
    for path in ["/api/game/move", "/api/train", "/"] {
        let mut stream = TcpStream::connect(address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        let started = Instant::now();
        write!(
            stream,
            "POST {path} HTTP/1.1\r\nhost: {address}\r\nx-matchbox-token: {}\r\ncontent-length: 1000000000000000\r\n\r\n{{\"move\"",
            server.token
        )
        .unwrap();
        let mut answer = Vec::new();
        let read = stream.read_to_end(&mut answer);
        let took = started.elapsed();
        let answer = String::from_utf8_lossy(&answer);
        eprintln!("POST {path} with content-length 10^15: answered in {took:.1?}");
        assert!(
            read.is_ok(),
            "{path}: no answer within 5 s, the connection held open"
        );
        assert!(answer.starts_with("HTTP/1.1 413"), "{path}: {answer}");
        assert!(answer.contains("at most 4096 bytes"), "{path}: {answer}");
        assert!(took < Duration::from_secs(1), "{path}: {took:?}");
    }
}
