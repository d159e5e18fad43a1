//! `matchbox serve` through a lesson's accidents: a room of connections under a low file
//! limit (the floods of a hostile laptop are serve_flood.rs's), a client that sends a byte a second, SIGTERM during training, a disk that
//! fills up, a second program on the same state file, a page reached by another name.
//! The figures measured are printed (`cargo test --test serve_robust -- --nocapture`).

mod support;

use std::io::{Read, Write};
use std::net::{Ipv4Addr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;
use support::{Server, request, wait_for};

/// A fresh folder under the target directory for one test.
fn tempdir(what: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("serve-robust-{what}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A shell that sets `limits` (`ulimit -n 256`) and runs `matchbox` as `$0`. Under a
/// file-size limit `serve` ignores SIGXFSZ itself: a write over it fails with EFBIG, as
/// on a full disk.
fn limited(limits: &str) -> Command {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(format!("{limits}; exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_matchbox"));
    command
}

fn host(server: &Server) -> String {
    server.base.trim_start_matches("http://").to_string()
}

#[test]
fn a_flood_of_idle_connections_under_a_low_file_limit_is_outlasted() {
    let mut server = Server::start_in(limited("ulimit -n 256"), &["--preset", "hexapawn"], None);
    // 600 connections that send nothing, from one other computer: more than the 256
    // file descriptors allow.
    let idle: Vec<TcpStream> = (0..600)
        // A connection the server resets while it is being made is one it did not hold.
        .filter_map(|_| support::connect_from(Ipv4Addr::new(127, 0, 0, 2), &host(&server)).ok())
        .collect();
    assert!(
        idle.len() >= 32,
        "the flood reached the server: {}",
        idle.len()
    );
    // A real request from this computer is answered at once: the server took at most
    // its share from the other one and reset the rest, so none waits in front of it.
    let started = Instant::now();
    let (status, _) = request(&server.base, "GET", "/api/game", "", None);
    let waited = started.elapsed();
    eprintln!("600 idle connections at ulimit -n 256: a new request answered after {waited:.1?}");
    assert_eq!(status, 200);
    assert!(waited < Duration::from_secs(1), "{waited:?}");
    assert!(server.running(), "the server is still up");
    // The idle ones are all closed by the server, the last of them at the header
    // timeout: reading gives the end of the stream or a reset.
    let mut open = idle;
    let deadline = Instant::now() + Duration::from_secs(15);
    let mut held_at_first = None;
    while !open.is_empty() && Instant::now() < deadline {
        open.retain_mut(|s| {
            s.set_read_timeout(Some(Duration::from_millis(5))).unwrap();
            let mut byte = [0u8; 1];
            match s.read(&mut byte) {
                Ok(0) => false,
                Err(e) => matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ),
                Ok(_) => true,
            }
        });
        held_at_first.get_or_insert(open.len());
    }
    let held_at_first = held_at_first.unwrap_or(0);
    eprintln!(
        "idle connections the server held: {held_at_first} of 600, all closed after {:.1?}",
        started.elapsed()
    );
    assert!(held_at_first <= 32, "{held_at_first}");
    assert!(open.is_empty(), "{} still open", open.len());
    assert_eq!(server.interrupt().code(), Some(0));
}

#[test]
fn a_client_sending_a_byte_a_second_is_cut_off() {
    let server = Server::start(&["--preset", "hexapawn"], None);
    // The head a byte a second: cut off at the header timeout.
    let slow_head = std::thread::spawn({
        let host = host(&server);
        move || {
            let mut s = TcpStream::connect(&host).unwrap();
            let started = Instant::now();
            for b in format!("GET /api/game HTTP/1.1\r\nhost: {host}\r\nx-slow: ")
                .bytes()
                .cycle()
            {
                if s.write_all(&[b]).is_err() {
                    break;
                }
                // The slow client's pace: the behaviour under test.
                std::thread::sleep(Duration::from_secs(1));
                if started.elapsed() > Duration::from_secs(40) {
                    break;
                }
            }
            started.elapsed()
        }
    });
    // The head at once, the body a byte a second: answered 408 at the request timeout.
    let slow_body = std::thread::spawn({
        let host = host(&server);
        move || {
            let mut s = TcpStream::connect(&host).unwrap();
            s.set_read_timeout(Some(Duration::from_secs(1))).unwrap();
            let started = Instant::now();
            write!(
                s,
                "POST /api/game/move HTTP/1.1\r\nhost: {host}\r\ncontent-length: 100\r\n\r\n"
            )
            .unwrap();
            let mut answer = String::new();
            while started.elapsed() < Duration::from_secs(40) {
                let _ = s.write_all(b" ");
                let mut buffer = [0u8; 512];
                match s.read(&mut buffer) {
                    Ok(0) => break,
                    Ok(n) => answer.push_str(&String::from_utf8_lossy(&buffer[..n])),
                    Err(_) => {}
                }
                if answer.contains("\r\n\r\n") {
                    break;
                }
            }
            (started.elapsed(), answer)
        }
    });
    let head = slow_head.join().unwrap();
    let (body, answer) = slow_body.join().unwrap();
    eprintln!("slow head cut off after {head:.1?}; slow body answered after {body:.1?}");
    assert!(head < Duration::from_secs(15), "{head:?}");
    assert!(body < Duration::from_secs(25), "{body:?}");
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    // Meanwhile everyone else was served.
    assert_eq!(request(&server.base, "GET", "/api/game", "", None).0, 200);
}

#[test]
fn ctrl_c_or_sigterm_stops_a_run_saves_and_exits_0() {
    for signal in ["INT", "TERM"] {
        let dir = tempdir(&format!("signal-{signal}"));
        let state = dir.join("menace.json");
        let mut server = Server::start(&["--preset", "menace"], Some(&state));
        // Watching goes on until it is stopped, so the signal always finds it running
        // (a training run of a million games can end first: MENACE plays millions a second).
        let body = "{\"opponent\": \"random\", \"pace\": 9}";
        assert_eq!(server.teacher("POST", "/api/watch", Some(body)).0, 200);
        // The games are counted in while the run goes on.
        let counted = wait_for("watched games counted in", Duration::from_secs(60), || {
            let (_, score) = server.anyone("GET", "/api/score", None);
            score["games"].as_u64().filter(|&games| games > 0)
        });
        let (_, progress) = server.anyone("GET", "/api/train", None);
        assert_eq!(
            progress["running"],
            Value::Bool(true),
            "{signal}: {progress}"
        );
        let status = server.signal(signal);
        assert_eq!(status.code(), Some(0), "{signal}");
        let saved: Value = serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
        let games = saved["games"].as_u64().unwrap();
        assert!(games >= counted, "{signal}: {counted} {games}");
        assert!(
            !dir.join("menace.json.lock").exists(),
            "{signal}: the lock is released"
        );
    }
}

#[test]
fn a_full_disk_while_serving_is_said_and_loses_no_game() {
    let dir = tempdir("full");
    let state = dir.join("her.json");
    // Files of at most 1 KiB (a soft limit, lifted later): the state file (about 4 KiB)
    // cannot be written.
    let mut server = Server::start_in(
        limited("ulimit -S -f 2"),
        &["--preset", "hexapawn"],
        Some(&state),
    );
    let games = 3;
    play_games(&mut server, games);
    let (_, game) = server.anyone("GET", "/api/game", None);
    assert_eq!(game["unsaved"], "full", "{game}");
    assert!(!state.exists(), "nothing half-written");
    assert_eq!(server.anyone("GET", "/api/score", None).1["games"], games);
    // Space again: the next look saves every game, and the page stops warning.
    let lifted = Command::new("prlimit")
        .args(["--pid", &server.pid().to_string(), "--fsize=unlimited"])
        .status()
        .unwrap();
    assert!(lifted.success());
    let (_, game) = server.anyone("GET", "/api/game", None);
    assert!(game["unsaved"].is_null(), "{game}");
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    assert_eq!(saved["games"], games);
    assert_eq!(server.interrupt().code(), Some(0));
}

#[test]
fn a_state_file_in_use_is_refused_until_it_is_free() {
    let dir = tempdir("lock");
    let state = dir.join("her.json");
    let mut first = Server::start(&["--preset", "hexapawn"], Some(&state));
    for args in [
        vec!["serve", "--preset", "hexapawn", "--port", "0", "--state"],
        vec!["play", "--preset", "hexapawn", "--state"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_matchbox"))
            .args(&args)
            .arg(&state)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        let message = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {message}");
        assert!(message.contains("in use by another"), "{message}");
        assert_eq!(message.lines().count(), 1, "{message}");
    }
    assert_eq!(first.interrupt().code(), Some(0));
    assert!(!dir.join("her.json.lock").exists());
    // Free again; a lock file left by a crash does not hold it either.
    std::fs::write(dir.join("her.json.lock"), "4000000").unwrap();
    let second = Server::start(&["--preset", "hexapawn"], Some(&state));
    assert_eq!(second.anyone("GET", "/api/game", None).0, 200);
}

#[test]
fn a_page_reached_by_another_name_is_refused() {
    let server = Server::start(&["--preset", "hexapawn"], None);
    let port = server.base.rsplit(':').next().unwrap().to_string();
    let ask = |name: &str| {
        let host = name.replace("PORT", &port);
        let stream = TcpStream::connect(support_host(&server)).unwrap();
        raw_status(stream, &host)
    };
    assert_eq!(ask("localhost:PORT"), 200);
    assert_eq!(ask("127.0.0.1:PORT"), 200);
    assert_eq!(ask("[::1]:PORT"), 200);
    assert_eq!(ask("attacker.example:PORT"), 421);
    let (status, body) = request(&server.base, "GET", "/favicon.svg", "", None);
    assert_eq!(status, 200);
    assert!(body.starts_with("<svg"), "{body}");
}

fn support_host(server: &Server) -> String {
    host(server)
}

/// The status of `GET /` sent with this Host header.
fn raw_status(mut stream: TcpStream, host: &str) -> u16 {
    write!(
        stream,
        "GET /api/kit HTTP/1.1\r\nhost: {host}\r\nconnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer.split(' ').nth(1).unwrap().parse().unwrap()
}

#[test]
fn watching_plays_pauses_steps_and_stops() {
    let dir = tempdir("watch");
    let state = dir.join("menace.json");
    let server = Server::start(&["--preset", "menace"], Some(&state));
    let start = "{\"opponent\": \"random\", \"pace\": 9}";
    let (status, progress) = server.teacher("POST", "/api/watch", Some(start));
    assert_eq!(
        (status, &progress["watching"]),
        (200, &Value::Bool(true)),
        "{progress}"
    );
    let games = |server: &Server| {
        server.anyone("GET", "/api/score", None).1["games"]
            .as_u64()
            .unwrap()
    };
    // The server steps the run: its games come (how many a tick, the classroom's own
    // tests show on a clock they drive).
    let started = Instant::now();
    wait_for("a hundred watched games", Duration::from_secs(60), || {
        (games(&server) >= 100).then_some(())
    });
    eprintln!(
        "watching at the fastest pace: 100 games within {:.1?}",
        started.elapsed()
    );
    // A move by hand is refused while the machine plays.
    let (_, game) = server.anyone("GET", "/api/game", None);
    assert_eq!(
        game["end"].is_null(),
        game["moves"].as_array().is_some_and(|m| !m.is_empty())
    );
    let (status, _) = server.teacher("POST", "/api/game/new", None);
    assert_eq!(status, 409);
    // Paused: nothing moves; a step makes one move.
    let pause = "{\"paused\": true}";
    assert_eq!(
        server.teacher("POST", "/api/watch/steer", Some(pause)).0,
        200
    );
    // Paused once answered: the run plays only under the lock the answer took (the
    // classroom's own tests show, on a clock they drive, that it then plays nothing).
    let (_, progress) = server.anyone("GET", "/api/train", None);
    assert_eq!(progress["paused"], true, "{progress}");
    let paused = server.anyone("GET", "/api/game", None).1;
    assert_eq!(
        server
            .teacher("POST", "/api/watch/steer", Some("{\"step\": true}"))
            .0,
        200
    );
    wait_for("a step's move", Duration::from_secs(30), || {
        let stepped = server.anyone("GET", "/api/game", None).1;
        (stepped["version"].as_u64() > paused["version"].as_u64()).then_some(())
    });
    // Slowly: a move every 2 s, shown on the board.
    let slow = "{\"paused\": false, \"pace\": 0}";
    assert_eq!(
        server.teacher("POST", "/api/watch/steer", Some(slow)).0,
        200
    );
    let (status, _) = server.teacher("POST", "/api/watch/steer", Some("{\"pace\": 99}"));
    assert_eq!(status, 400);
    assert_eq!(server.teacher("POST", "/api/train/cancel", None).0, 200);
    wait_for("the run's end", Duration::from_secs(30), || {
        (server.anyone("GET", "/api/train", None).1["running"] == false).then_some(())
    });
    let total = games(&server);
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    assert_eq!(
        saved["games"].as_u64(),
        Some(total),
        "every game watched is saved"
    );
}

/// Plays `n` games with the first move listed, each to its end, the server outliving
/// every move (a save that fails must not end it).
fn play_games(server: &mut Server, n: usize) {
    for _ in 0..n {
        loop {
            let (_, game) = server.anyone("GET", "/api/game", None);
            if !game["end"].is_null() {
                break;
            }
            let body = serde_json::json!({ "move": game["moves"][0]["move"] }).to_string();
            assert_eq!(server.teacher("POST", "/api/game/move", Some(&body)).0, 200);
            assert!(server.running(), "the server outlives a save that fails");
        }
        assert_eq!(server.teacher("POST", "/api/game/new", None).0, 200);
    }
}

#[test]
fn stopped_with_the_state_file_behind_it_says_which_games_and_where_they_are() {
    let dir = tempdir("behind");
    // The state file cannot be written at all (files of at most 1 KiB), nor anything
    // else: the games are said lost, by number.
    let err = dir.join("limited.txt");
    let mut server = Server::start_in(
        limited(&format!("ulimit -S -f 2; exec 2>'{}'", err.display())),
        &["--preset", "hexapawn"],
        Some(&dir.join("limited.json")),
    );
    play_games(&mut server, 2);
    assert_eq!(server.signal("TERM").code(), Some(2));
    let said = std::fs::read_to_string(&err).unwrap();
    assert!(
        said.contains(
            "the state file holds none of this lesson's games; the games after game 0 are lost"
        ),
        "{said}"
    );
    // The state file's folder gone after the first game: the beads go to the temporary
    // folder, and the message says which games the state file lacks and where they are.
    let folder = dir.join("gone");
    std::fs::create_dir_all(&folder).unwrap();
    let temp = dir.join("tmp");
    std::fs::create_dir_all(&temp).unwrap();
    let err = dir.join("gone.txt");
    let mut command = limited(&format!("exec 2>'{}'", err.display()));
    command.env("TMPDIR", &temp);
    let mut server = Server::start_in(
        command,
        &["--preset", "hexapawn"],
        Some(&folder.join("her.json")),
    );
    play_games(&mut server, 1);
    std::fs::remove_dir_all(&folder).unwrap();
    play_games(&mut server, 2);
    assert_eq!(server.signal("TERM").code(), Some(2));
    let said = std::fs::read_to_string(&err).unwrap();
    assert!(
        said.contains("the state file holds the beads after game 1, not games 2 to 3; the beads after game 3 are saved in"),
        "{said}"
    );
    let rescued: Vec<_> = std::fs::read_dir(&temp)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().contains("matchbox-rescued-"))
        .collect();
    assert_eq!(rescued.len(), 1, "{rescued:?}");
    assert!(said.contains(&rescued[0].display().to_string()), "{said}");
    let kept: Value = serde_json::from_str(&std::fs::read_to_string(&rescued[0]).unwrap()).unwrap();
    assert_eq!(kept["games"], 3);
}
