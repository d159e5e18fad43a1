//! `matchbox serve`'s JSON API over plain HTTP: bad requests are refused with a JSON
//! error in the kit's language and change nothing; concurrent clients never lose a game.

mod support;

use serde_json::Value;
use support::{Server, request};

/// The game and the score, to check that a refused request changed nothing.
fn snapshot(server: &Server) -> (Value, Value) {
    (
        server.anyone("GET", "/api/game", None).1,
        server.anyone("GET", "/api/score", None).1,
    )
}

fn first_move(game: &Value) -> String {
    game["moves"][0]["move"].as_str().unwrap().to_string()
}

/// Plays the first legal move until the game ends.
fn finish_game(server: &Server) -> Value {
    loop {
        let (_, game) = server.anyone("GET", "/api/game", None);
        if !game["end"].is_null() {
            return game;
        }
        let body = serde_json::json!({ "move": first_move(&game) }).to_string();
        let (status, _) = server.teacher("POST", "/api/game/move", Some(&body));
        assert_eq!(status, 200);
    }
}

/// A bad request: the status expected, method, path, body, whether it carries the
/// token, and words the error must contain.
type Case<'a> = (u16, &'a str, &'a str, Option<String>, bool, &'a str);

#[test]
fn every_bad_request_is_a_4xx_with_a_json_error_and_changes_nothing() {
    let dir = tempdir();
    let state = dir.join("her.json");
    let server = Server::start(&["--preset", "hexapawn"], Some(&state));
    let before = snapshot(&server);
    let legal = first_move(&before.0);
    let legal_body = serde_json::json!({ "move": legal }).to_string();
    let cases: Vec<Case> = vec![
        (
            400,
            "POST",
            "/api/game/move",
            Some("{\"move\": ".into()),
            true,
            "not the JSON",
        ),
        (
            400,
            "POST",
            "/api/game/move",
            Some("{\"mov\": \"a1-a2\"}".into()),
            true,
            "not the JSON",
        ),
        (
            400,
            "POST",
            "/api/game/move",
            Some("{\"move\": \"a1-a4\"}".into()),
            true,
            "not a legal move",
        ),
        (
            403,
            "POST",
            "/api/game/move",
            Some(legal_body.clone()),
            false,
            "no valid token",
        ),
        (403, "POST", "/api/undo", None, false, "no valid token"),
        (403, "POST", "/api/reset", None, false, "no valid token"),
        (
            403,
            "POST",
            "/api/train",
            Some("{\"games\": 5, \"opponent\": \"random\"}".into()),
            false,
            "token",
        ),
        (
            409,
            "POST",
            "/api/game/move",
            Some(format!("{{\"move\": \"{legal}\", \"ply\": 3}}")),
            true,
            "moved first",
        ),
        (404, "GET", "/api/boxes/0", None, true, "no box 0"),
        (404, "GET", "/api/boxes/20", None, true, "numbered 1 to 19"),
        (404, "GET", "/api/boxes/x", None, true, "no box x"),
        (
            413,
            "POST",
            "/api/game/move",
            Some(format!("{{\"move\": \"{}\"}}", "a".repeat(10_000))),
            true,
            "too large",
        ),
        (404, "GET", "/../../etc/passwd", None, false, "nothing at"),
        (404, "GET", "/api/nothing", None, false, "nothing at"),
        (
            405,
            "DELETE",
            "/api/game",
            None,
            true,
            "that kind of request",
        ),
        (
            400,
            "POST",
            "/api/train",
            Some("{\"games\": 0, \"opponent\": \"random\"}".into()),
            true,
            "from 1 to",
        ),
        (
            400,
            "POST",
            "/api/train",
            Some("{\"games\": 5, \"opponent\": \"god\"}".into()),
            true,
            "not an opponent",
        ),
        (409, "POST", "/api/train/cancel", None, true, "No training"),
        (409, "POST", "/api/undo", None, true, "no game to undo"),
    ];
    for (status, method, path, body, with_token, words) in cases {
        let (got, value) = if with_token {
            server.teacher(method, path, body.as_deref())
        } else {
            server.anyone(method, path, body.as_deref())
        };
        assert_eq!(got, status, "{method} {path}: {value}");
        let error = value["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{method} {path}: {value}"));
        assert!(error.contains(words), "{method} {path}: {error}");
        assert_eq!(
            snapshot(&server),
            before,
            "{method} {path} changed the state"
        );
    }
    // A wrong token is no token.
    let wrong = support::request(
        &server.base,
        "POST",
        "/api/game/move",
        "x-matchbox-token: 0123\r\n",
        Some(&legal_body),
    );
    assert_eq!(wrong.0, 403);
    assert!(!state.exists(), "nothing was saved: no game was played");

    // A move after the end of the game, then the state file after it.
    let over = finish_game(&server);
    let (status, value) = server.teacher("POST", "/api/game/move", Some(&legal_body));
    assert_eq!(status, 409, "{value}");
    assert!(value["error"].as_str().unwrap().contains("game is over"));
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    assert_eq!(saved["format"], "matchbox-state");
    assert_eq!(saved["games"], 1);
    let changed = &over["changes"];
    if over["end"] == "loss" {
        assert_eq!(changed.as_array().unwrap().len(), 1, "{over}");
    }
}

#[test]
fn errors_are_in_the_kits_language() {
    let dir = tempdir();
    let kit = dir.join("kit.yaml");
    std::fs::write(&kit, "preset: hexapawn\nlanguage: pl\n").unwrap();
    let server = Server::start(&["--kit", kit.to_str().unwrap()], None);
    let (status, value) = server.teacher("POST", "/api/game/move", Some("{\"move\": \"z9\"}"));
    assert_eq!(status, 400);
    assert!(
        value["error"]
            .as_str()
            .unwrap()
            .contains("nie jest tu dozwolonym ruchem"),
        "{value}"
    );
    let (_, kit) = server.anyone("GET", "/api/kit", None);
    assert_eq!(kit["words"]["page.new_game"], "Nowa partia");
    // No parser's English: the JSON asked for is shown instead.
    for body in ["{\"move\": ", "{\"mov\": \"a1-a2\"}", "[1]"] {
        let (status, value) = server.teacher("POST", "/api/game/move", Some(body));
        let error = value["error"].as_str().unwrap();
        assert_eq!(status, 400, "{error}");
        assert!(
            error.starts_with("Żądanie nie jest oczekiwanym JSON-em"),
            "{error}"
        );
        assert!(error.contains(r#"{"move": "#), "{error}");
        for english in [
            "expected",
            "line",
            "column",
            "struct",
            "EOF",
            "unknown field",
        ] {
            assert!(!error.contains(english), "{error}");
        }
    }
    let (_, value) = server.teacher(
        "POST",
        "/api/train",
        Some("{\"games\": 0, \"opponent\": \"random\"}"),
    );
    let error = value["error"].as_str().unwrap();
    assert!(error.contains("1\u{a0}000\u{a0}000"), "{error}");
}

/// Every `words` and `turn` text in a JSON value.
fn shown_words(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                match (key.as_str(), v) {
                    ("words" | "turn", Value::String(text)) => out.push(text.clone()),
                    _ => shown_words(v, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| shown_words(v, out)),
        _ => {}
    }
}

#[test]
fn polish_and_russian_screens_say_moves_and_turns_in_their_language() {
    let dir = tempdir();
    let english = [
        "top", "left", "right", "bottom", "centre", "take", "leave", "drawn", "mirrored", "turned",
        "swap",
    ];
    for (preset, language) in [
        ("menace", "pl"),
        ("menace", "ru"),
        ("bachet", "pl"),
        ("bachet", "ru"),
    ] {
        let kit = dir.join(format!("{preset}-{language}.yaml"));
        std::fs::write(&kit, format!("preset: {preset}\nlanguage: {language}\n")).unwrap();
        let server = Server::start(&["--kit", kit.to_str().unwrap()], None);
        let mut words = Vec::new();
        for _ in 0..3 {
            loop {
                let (_, game) = server.anyone("GET", "/api/game", None);
                shown_words(&game, &mut words);
                if !game["end"].is_null() {
                    break;
                }
                // The kit's words name a move as well as its notation does.
                let said = game["moves"][0]["words"].as_str().unwrap();
                let body = serde_json::json!({ "move": said }).to_string();
                let (status, answer) = server.teacher("POST", "/api/game/move", Some(&body));
                assert_eq!(status, 200, "{said}: {answer}");
            }
            assert_eq!(server.teacher("POST", "/api/game/new", None).0, 200);
        }
        shown_words(&server.anyone("GET", "/api/boxes", None).1, &mut words);
        shown_words(&server.anyone("GET", "/api/boxes/1", None).1, &mut words);
        assert!(words.iter().any(|w| !w.is_empty()), "{preset} {language}");
        for text in &words {
            let lower = text.to_lowercase();
            for word in english {
                assert!(
                    !lower.contains(word),
                    "{preset} {language}: `{word}` in `{text}`"
                );
            }
        }
    }
}

#[test]
fn a_damaged_state_file_is_refused_at_start() {
    let dir = tempdir();
    let state = dir.join("bad.json");
    std::fs::write(&state, "{ not json").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_matchbox"))
        .args(["serve", "--preset", "hexapawn", "--port", "0", "--state"])
        .arg(&state)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("damaged"));
    assert_eq!(std::fs::read_to_string(&state).unwrap(), "{ not json");
}

#[test]
fn undo_reset_and_training_keep_the_beads_and_the_file_in_step() {
    let dir = tempdir();
    let state = dir.join("menace.json");
    let server = Server::start(&["--preset", "menace"], Some(&state));
    finish_game(&server);
    let (status, score) = server.teacher("POST", "/api/undo", None);
    assert_eq!((status, score["games"].as_u64()), (200, Some(0)), "{score}");
    let (status, progress) = server.teacher(
        "POST",
        "/api/train",
        Some("{\"games\": 300, \"opponent\": \"random\"}"),
    );
    assert_eq!(status, 200, "{progress}");
    assert_eq!(progress["total"], 300);
    let score = wait_for_games(&server, 300);
    assert_eq!(score["rows"].as_array().unwrap().len(), 12);
    assert!(score["curve"].as_array().unwrap().len() > 100);
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    assert_eq!(saved["games"], 300);
    let (status, score) = server.teacher("POST", "/api/reset", None);
    assert_eq!((status, score["games"].as_u64()), (200, Some(0)));
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    assert_eq!(saved["games"], 0);
}

/// The score and the beads.
fn score_kept(server: &Server) -> Value {
    let (_, score) = server.anyone("GET", "/api/score", None);
    serde_json::json!([score, server.anyone("GET", "/api/boxes", None).1])
}

#[test]
fn the_score_the_curve_and_undo_survive_a_restart() {
    let dir = tempdir();
    let state = dir.join("her.json");
    let (two, three) = {
        let server = Server::start(&["--preset", "hexapawn"], Some(&state));
        let mut kept = Vec::new();
        for _ in 0..3 {
            finish_game(&server);
            assert_eq!(server.teacher("POST", "/api/game/new", None).0, 200);
            kept.push(score_kept(&server));
        }
        (kept[1].clone(), kept[2].clone())
    };
    assert_eq!(three[0]["games"], 3);
    assert_eq!(three[0]["rows"].as_array().unwrap().len(), 3, "{three}");
    assert_eq!(three[0]["curve"].as_array().unwrap().len(), 4, "{three}");
    assert_eq!(three[0]["can_undo"], true);
    // Started again from the file: the same score sheet, curve and beads.
    let server = Server::start(&["--preset", "hexapawn"], Some(&state));
    assert_eq!(score_kept(&server), three);
    // A fourth game, taken back: the score is as it was, in the file too.
    finish_game(&server);
    assert_eq!(score_kept(&server)[0]["games"], 4);
    let (status, _) = server.teacher("POST", "/api/undo", None);
    assert_eq!(status, 200);
    assert_eq!(score_kept(&server), three);
    drop(server);
    // The third game, played before the restart, can be taken back after it.
    let server = Server::start(&["--preset", "hexapawn"], Some(&state));
    assert_eq!(score_kept(&server), three);
    assert_eq!(server.teacher("POST", "/api/undo", None).0, 200);
    assert_eq!(score_kept(&server), two);
    drop(server);

    // A file written before the score was kept: its games count, the score starts there.
    let mut saved: Value = serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    let object = saved.as_object_mut().unwrap();
    object.remove("score");
    object.remove("undo");
    object.insert("version".into(), 1.into());
    std::fs::write(&state, saved.to_string()).unwrap();
    let server = Server::start(
        &["--preset", "hexapawn", "--accept-edited-state"],
        Some(&state),
    );
    let score = &score_kept(&server)[0];
    assert_eq!(score["games"], 2);
    assert_eq!(score["rows"], serde_json::json!([]));
    assert_eq!(score["curve"], serde_json::json!([[2, 0]]));
}

#[test]
fn a_machine_that_cannot_start_says_so_and_counts_no_game() {
    let dir = tempdir();
    let state = dir.join("menace.json");
    {
        let server = Server::start(&["--preset", "menace"], Some(&state));
        finish_game(&server);
    }
    // Empty box 1, the machine's first move: every game now ends as it starts.
    let mut saved: Value = serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    for m in saved["boxes"][0]["moves"].as_array_mut().unwrap() {
        m["beads"] = 0.into();
    }
    std::fs::write(&state, saved.to_string()).unwrap();
    let server = Server::start(
        &["--preset", "menace", "--accept-edited-state"],
        Some(&state),
    );
    let (_, game) = server.anyone("GET", "/api/game", None);
    assert_eq!(game["end"], "resigned", "{game}");
    assert_eq!(game["stuck"], true, "{game}");
    assert_eq!(game["turns"][0]["box"], 1, "{game}");
    // New game after New game: no loss is added, the page keeps saying why.
    for _ in 0..3 {
        let (status, game) = server.teacher("POST", "/api/game/new", None);
        assert_eq!(
            (status, &game["stuck"]),
            (200, &Value::Bool(true)),
            "{game}"
        );
        assert_eq!(server.anyone("GET", "/api/score", None).1["games"], 1);
    }
    // Undo brings the beads of the last game back: the machine can start again.
    assert_eq!(server.teacher("POST", "/api/undo", None).0, 200);
    let (_, game) = server.anyone("GET", "/api/game", None);
    assert_eq!(game["stuck"], false, "{game}");
}

fn wait_for_games(server: &Server, games: u64) -> Value {
    support::wait_for(
        &format!("{games} games trained"),
        std::time::Duration::from_secs(60),
        || {
            let (_, score) = server.anyone("GET", "/api/score", None);
            (score["games"].as_u64() == Some(games)).then_some(score)
        },
    )
}

#[test]
fn eight_clients_and_a_thousand_requests_lose_no_game() {
    let dir = tempdir();
    let state = dir.join("her.json");
    let server = Server::start(&["--preset", "hexapawn"], Some(&state));
    let fresh: u64 = beads(&server);
    // The games seen ended, by number: two clients sending the same move for the same
    // board are both answered with the game it made (a double click is no mistake).
    let finished = std::sync::Mutex::new(std::collections::BTreeSet::new());
    std::thread::scope(|scope| {
        for client in 0..8 {
            let (server, finished) = (&server, &finished);
            scope.spawn(move || {
                for i in 0..125 {
                    let (_, game) = server.anyone("GET", "/api/game", None);
                    if !game["end"].is_null() {
                        server.teacher("POST", "/api/game/new", None);
                        continue;
                    }
                    let moves = game["moves"].as_array().unwrap();
                    let mv = &moves[(client + i) % moves.len()]["move"];
                    let body = serde_json::json!({ "move": mv, "game": game["number"], "ply": game["ply"] }).to_string();
                    let (status, after) = server.teacher("POST", "/api/game/move", Some(&body));
                    match status {
                        200 if !after["end"].is_null() => {
                            finished.lock().unwrap().insert(after["number"].as_u64());
                        }
                        // Another client moved first, or ended the game.
                        200 | 409 => {}
                        _ => panic!("{status}: {after}"),
                    }
                }
            });
        }
    });
    let finished = finished.into_inner().unwrap().len() as u64;
    let (_, score) = server.anyone("GET", "/api/score", None);
    assert!(finished > 10, "{finished}");
    assert_eq!(score["games"].as_u64(), Some(finished));
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    assert_eq!(saved["games"].as_u64(), Some(finished));
    let in_file: u64 = saved["boxes"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|b| b["moves"].as_array().unwrap())
        .map(|m| m["beads"].as_u64().unwrap())
        .sum();
    let now = beads(&server);
    assert_eq!(in_file, now, "the file holds the beads the server shows");
    let (_, score) = server.anyone("GET", "/api/score", None);
    let losses = score["losses"].as_u64().unwrap();
    // Gardner's rule: a loss takes out at most one bead, nothing else changes them.
    assert!(
        fresh - now <= losses && now <= fresh,
        "{fresh} {now} {losses}"
    );
}

/// The starting beads of every move of the first box, and every box's beads now.
fn first_box_and_totals(server: &Server) -> (Vec<u64>, Vec<u64>) {
    let (_, boxes) = server.anyone("GET", "/api/boxes", None);
    let boxes = boxes.as_array().unwrap();
    let starts = boxes[0]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["start"].as_u64().unwrap())
        .collect();
    let totals = boxes.iter().map(|b| b["beads"].as_u64().unwrap()).collect();
    (starts, totals)
}

#[test]
fn applied_settings_give_fresh_boxes_and_survive_a_restart() {
    let dir = tempdir();
    let state = dir.join("menace.json");
    let kit = dir.join("kit.yaml");
    std::fs::write(&kit, "preset: menace\n").unwrap();
    let args = ["--kit", kit.to_str().unwrap()];
    let server = Server::start(&args, Some(&state));
    finish_game(&server);
    let (status, settings) = server.anyone("GET", "/api/settings", None);
    assert_eq!(status, 200, "{settings}");
    let kits_own = serde_json::json!({
        "beads": [
            {"move_number": 1, "beads": 4},
            {"move_number": 3, "beads": 3},
            {"move_number": 5, "beads": 2},
            {"move_number": 7, "beads": 1}
        ],
        "rule": "menace",
        "reward": {"win": 3, "draw": 1, "loss": -1},
        "opponent": "random"
    });
    assert_eq!(settings["now"], kits_own);
    assert_eq!(settings["kit"], kits_own);
    assert_eq!(
        settings["rules"],
        serde_json::json!(["gardner", "gardner-reward", "menace"])
    );
    // The fields' ranges, which the page knows only from here.
    assert_eq!(settings["beads_range"], serde_json::json!([1, 100]));
    assert_eq!(settings["reward_range"], serde_json::json!([-100, 100]));
    // The warning's trial runs: the perfect player empties a fresh MENACE's first box
    // in some runs, the random player (the page's default) in none.
    let emptied = &settings["risks"]["emptied"];
    assert!(
        !emptied["perfect"].as_array().unwrap().is_empty(),
        "{settings}"
    );
    assert_eq!(emptied["random"], serde_json::json!([]), "{settings}");

    let asked = r#"{"beads": {"1": 6, "3": 5, "5": "2", "7": 1}, "rule": "menace",
        "reward": {"win": 2, "draw": 0, "loss": -2}, "opponent": "teacher"}"#;
    let (status, applied) = server.teacher("POST", "/api/settings", Some(asked));
    assert_eq!(status, 200, "{applied}");
    assert_eq!(applied["fresh"], true);
    let (starts, totals) = first_box_and_totals(&server);
    assert!(starts.iter().all(|&n| n == 6), "{starts:?}");
    assert_eq!(totals[0], 6 * starts.len() as u64);
    let (_, score) = server.anyone("GET", "/api/score", None);
    assert_eq!(
        (score["games"].as_u64(), &score["can_undo"]),
        (Some(0), &Value::Bool(false))
    );
    let (_, now) = server.anyone("GET", "/api/settings", None);
    assert_eq!(
        now["now"]["beads"][0],
        serde_json::json!({"move_number": 1, "beads": 6})
    );
    assert_eq!(
        now["now"]["reward"],
        serde_json::json!({"win": 2, "draw": 0, "loss": -2})
    );
    assert_eq!(now["now"]["opponent"], "teacher");
    assert_eq!(now["kit"], kits_own, "kit.yaml's own stay as they are");
    // The state file keeps them; kit.yaml is untouched.
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    assert_eq!(saved["version"], 4);
    assert_eq!(
        saved["settings"],
        serde_json::json!({
            "beads": {"1": 6, "3": 5, "5": 2, "7": 1},
            "rule": "menace",
            "reward": {"win": 2, "draw": 0, "loss": -2},
            "opponent": "teacher"
        })
    );
    assert_eq!(std::fs::read_to_string(&kit).unwrap(), "preset: menace\n");
    // The opponent alone changes no bead.
    finish_game(&server);
    let played = first_box_and_totals(&server);
    let (status, applied) =
        server.teacher("POST", "/api/settings", Some(r#"{"opponent": "perfect"}"#));
    assert_eq!(
        (status, &applied["fresh"]),
        (200, &Value::Bool(false)),
        "{applied}"
    );
    assert_eq!(first_box_and_totals(&server), played);
    drop(server);

    // Started again on the file: the same settings and beads.
    let server = Server::start(&args, Some(&state));
    let (_, again) = server.anyone("GET", "/api/settings", None);
    assert_eq!(again["now"]["beads"], now["now"]["beads"]);
    assert_eq!(again["now"]["opponent"], "perfect");
    assert_eq!(first_box_and_totals(&server), played);
    // The kit's own settings again: fresh boxes of 4.
    let own = r#"{"beads": {"1": 4, "3": 3, "5": 2, "7": 1}, "reward": {"win": 3, "draw": 1, "loss": -1}}"#;
    assert_eq!(server.teacher("POST", "/api/settings", Some(own)).0, 200);
    assert!(first_box_and_totals(&server).0.iter().all(|&n| n == 4));
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    assert_eq!(
        saved["settings"]["beads"],
        serde_json::json!({"1": 4, "3": 3, "5": 2, "7": 1})
    );
}

#[test]
fn play_and_serve_on_a_file_keep_its_settings() {
    let dir = tempdir();
    let state = dir.join("her.json");
    {
        let server = Server::start(&["--preset", "hexapawn"], Some(&state));
        let asked = r#"{"beads": {"2": 3, "4": 2, "6": 2}, "rule": "gardner-reward"}"#;
        assert_eq!(server.teacher("POST", "/api/settings", Some(asked)).0, 200);
    }
    let play = |extra: &[&str]| {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_matchbox"));
        command
            .args(["play", "--preset", "hexapawn", "--seed", "1", "--state"])
            .arg(&state)
            .args(extra)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap()
    };
    // Another --rule than the file's: refused, and the file left as it is.
    let before = std::fs::read_to_string(&state).unwrap();
    let out = play(&["--rule", "gardner"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("was made with rule gardner-reward, not gardner"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&state).unwrap(), before);
    // Without --rule: the file's settings, said on the terminal.
    let out = play(&[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stderr.contains("keeps the settings it was made with (rule gardner-reward, beads per move 3 at move 2, 2 at move 4)"), "{stderr}");
    assert!(stdout.contains("the punish-and-reward rule"), "{stdout}");
}

#[test]
fn bad_settings_are_refused_at_their_field_and_change_nothing() {
    let dir = tempdir();
    let state = dir.join("her.json");
    let server = Server::start(&["--preset", "hexapawn"], Some(&state));
    let before = (
        snapshot(&server),
        server.anyone("GET", "/api/settings", None).1,
    );
    let cases = [
        (
            r#"{"beads": {"2": 0, "4": 1, "6": 1}}"#,
            "beads.2",
            "a whole number from 1 to 100",
        ),
        (r#"{"beads": {"2": -3}}"#, "beads.2", "from 1 to 100"),
        (
            r#"{"beads": {"2": 1, "4": "two"}}"#,
            "beads.4",
            "from 1 to 100",
        ),
        (r#"{"beads": {"2": 1.5}}"#, "beads.2", "from 1 to 100"),
        (
            r#"{"beads": {"2": 1, "3": 1}}"#,
            "beads",
            "no box at move 3",
        ),
        (r#"{"beads": {"4": 2}}"#, "beads.2", "first box is there"),
        (
            r#"{"rule": "relay"}"#,
            "rule",
            "relay rule fits only a kit built for it",
        ),
        (r#"{"rule": "michie"}"#, "rule", "not a rule here"),
        (
            r#"{"reward": {"loss": -1000}}"#,
            "reward.loss",
            "from −100 to 100",
        ),
        (r#"{"opponent": "god"}"#, "opponent", "not an opponent"),
    ];
    for (body, field, words) in cases {
        let (status, value) = server.teacher("POST", "/api/settings", Some(body));
        assert_eq!(status, 400, "{body}: {value}");
        assert_eq!(value["field"], field, "{body}: {value}");
        let error = value["error"].as_str().unwrap();
        assert!(error.contains(words), "{body}: {error}");
    }
    let (status, value) = server.anyone("POST", "/api/settings", Some(r#"{"beads": {"2": 2}}"#));
    assert_eq!(status, 403, "{value}");
    let (status, value) = server.teacher("POST", "/api/settings", Some(r#"{"bead": 2}"#));
    assert_eq!((status, value.get("field")), (400, None), "{value}");
    let after = (
        snapshot(&server),
        server.anyone("GET", "/api/settings", None).1,
    );
    assert_eq!(after, before);
    assert!(!state.exists(), "nothing was saved");
    drop(server);

    // In the kit's language, never the library's words.
    let kit = dir.join("kit.yaml");
    std::fs::write(&kit, "preset: hexapawn\nlanguage: ru\n").unwrap();
    let server = Server::start(&["--kit", kit.to_str().unwrap()], None);
    let (_, value) = server.teacher("POST", "/api/settings", Some(r#"{"beads": {"2": 0}}"#));
    let error = value["error"].as_str().unwrap();
    assert_eq!(error, "Начальное число бусинок: целое число от 1 до 100.");
}

fn beads(server: &Server) -> u64 {
    let (_, boxes) = server.anyone("GET", "/api/boxes", None);
    boxes
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["beads"].as_u64().unwrap())
        .sum()
}

/// A fresh folder under the target directory for one test.
fn tempdir() -> std::path::PathBuf {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("serve-api-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The modules the page imports from `from`, by their paths (`import … from './x.js'`).
fn imports(from: &str) -> Vec<String> {
    from.split("from './")
        .skip(1)
        .map(|rest| format!("/{}", &rest[..rest.find('\'').unwrap()]))
        .collect()
}

#[test]
fn the_page_and_every_module_it_imports_are_served() {
    let server = Server::start(&["--preset", "hexapawn"], None);
    let (status, page) = request(&server.base, "GET", "/", "", None);
    assert_eq!(status, 200);
    assert!(
        page.contains(r#"<script type="module" src="app.js">"#),
        "{page}"
    );
    let mut wanted = vec!["/app.js".to_string()];
    let mut served = Vec::new();
    while let Some(path) = wanted.pop() {
        if served.contains(&path) {
            continue;
        }
        let (status, text) = request(&server.base, "GET", &path, "", None);
        assert_eq!(status, 200, "{path}");
        wanted.extend(imports(&text));
        served.push(path);
    }
    served.sort();
    assert_eq!(served, ["/app.js", "/page.js", "/transport.js"]);
    // What the page knows of each rule comes with the kit: the relay draws no beads,
    // MENACE's rule alone reads the rewards.
    let (_, kit) = server.anyone("GET", "/api/kit", None);
    let uses = &kit["rule_uses"];
    assert_eq!(uses["relay"]["beads"], false, "{kit}");
    assert_eq!(
        uses["menace"],
        serde_json::json!({"beads": true, "reward": true})
    );
    assert_eq!(uses["gardner"]["reward"], false, "{kit}");
    assert_eq!(kit["train_games"], serde_json::json!([1, 1_000_000]));
}
