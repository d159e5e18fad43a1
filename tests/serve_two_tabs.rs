//! `matchbox serve` open in two tabs (the projector's and the teacher's laptop): one
//! server, so one machine. Both train at once and in turns, and every game is in the
//! score and in the state file. (The static site's tabs are tests/web_two_tabs.rs's.)

mod support;

use std::time::{Duration, Instant};

use serde_json::Value;
use support::{Server, scratch};

/// Trains `games` games from one tab: started as soon as the other tab's run lets it
/// (409 meanwhile), then followed to its end.
fn train(server: &Server, games: u64) {
    let deadline = Instant::now() + Duration::from_secs(60);
    let body = format!("{{\"games\": {games}, \"opponent\": \"perfect\"}}");
    loop {
        let (status, answer) = server.teacher("POST", "/api/train", Some(&body));
        if status == 200 {
            break;
        }
        assert_eq!(status, 409, "{answer}");
        assert!(Instant::now() < deadline, "the other tab's run never ended");
        std::thread::yield_now();
    }
    while server.anyone("GET", "/api/train", None).1["running"] == Value::Bool(true) {
        assert!(Instant::now() < deadline, "the run never ended");
        std::thread::yield_now();
    }
}

#[test]
fn two_tabs_on_one_server_train_one_machine() {
    let dir = scratch("serve-two-tabs");
    let state = dir.join("her.json");
    let server = Server::start(&["--preset", "hexapawn"], Some(&state));
    // In turns, as the run did in the static site: 300, 10 and 50 games.
    train(&server, 300);
    train(&server, 10);
    train(&server, 50);
    // And at once, from two threads: one run waits for the other.
    std::thread::scope(|s| {
        s.spawn(|| train(&server, 40));
        s.spawn(|| train(&server, 60));
    });
    assert_eq!(server.anyone("GET", "/api/score", None).1["games"], 460);
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    assert_eq!(saved["games"], 460, "every game is in the state file");
}
