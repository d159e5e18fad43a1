//! The classroom page in a real browser: Debian's headless Chromium, driven through
//! WebDriver (chromedriver) with plain HTTP from this test. Screenshots of the main
//! screens go to `target/serve-screens/`; the figures measured (where the bead drawn
//! is, how tall the page is) are printed (`-- --nocapture`).
//!
//! Without chromium and chromedriver the tests are skipped with a message, except on CI
//! (`CI` set), where they fail: `.ci/run` installs both.

mod support;

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Value, json};
use support::browser::{Browser, browser_present};
use support::classroom::{Lcg, click_first_move, fits_one_screen, place, play_by_clicking};
use support::{Server, wait_for};

/// Every box's beads as the memory panel shows them (the teacher's screen shows it first).
fn index_beads(browser: &Browser) -> Value {
    if browser.script("return !document.getElementById('tab-memory').disabled;") == json!(true) {
        browser.click("#tab-memory");
    }
    browser.wait("!document.getElementById('panel-memory').hidden && document.querySelector('.tile') !== null");
    browser.script("return [...document.querySelectorAll('.tile')].map(b => [b.id, b.dataset.beads, b.className]);")
}

fn journeys(preset: &str) {
    if !browser_present() {
        return;
    }
    let state = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("browser-{preset}.json"));
    let _ = std::fs::remove_file(&state);
    let server = Server::start(&["--preset", preset], Some(&state));
    let browser = Browser::start(preset);
    let teacher = format!("{}/?token={}", server.base, server.token);
    browser.open(&teacher);
    browser.screenshot(&format!("{preset}-start"));

    // A whole game by clicking: the machine's box and bead are shown.
    let mut rng = Lcg(1);
    let game = play_by_clicking(&browser, &|| server.game(), &mut rng);
    let machine_turn = game["turns"]
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .find(|t| t["who"] == "machine" && !t["box"].is_null())
        .expect("the machine moved from a box");
    let shown_box = browser.text("#machine-box");
    assert!(
        shown_box.contains(&machine_turn["box"].to_string()),
        "{shown_box}"
    );
    browser.wait("document.querySelector('#machine-label svg') !== null");
    // The game is over: the end shows in place of the bead drawn, which stays in the
    // page (and was said to a screen reader).
    let drawn = browser.script("return document.getElementById('drawn').textContent;");
    let drawn = drawn.as_str().unwrap();
    if let Some(mv) = machine_turn["move"].as_str() {
        assert!(drawn.contains(mv), "{drawn} names the move {mv}");
    }
    assert!(browser.text("#end").len() > 5);
    browser.screenshot(&format!("{preset}-game"));

    // Until the machine loses: then the index shows the box that lost beads.
    let mut last = game;
    for _ in 0..40 {
        if last["end"] == "loss" || last["end"] == "resigned" {
            break;
        }
        browser.click_and_wait("#new-game");
        last = play_by_clicking(&browser, &|| server.game(), &mut rng);
    }
    assert!(
        last["end"] == "loss" || last["end"] == "resigned",
        "the machine never lost"
    );
    let change = last["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["after"].as_u64() < c["before"].as_u64())
        .expect("a bead was taken out");
    let id = change["box"].as_u64().unwrap();
    let (_, shown) = server.anyone("GET", &format!("/api/boxes/{id}"), None);
    index_beads(&browser);
    let at = shown["moves"]
        .as_array()
        .unwrap()
        .iter()
        // The change names the move as played; the box, as on its label: the colour
        // is the same.
        .position(|m| m["colour"]["name"] == change["colour"]["name"])
        .unwrap();
    assert_eq!(shown["moves"][at]["count"], change["after"]);
    let tile = browser.script(&format!(
        "const b = document.getElementById('box-{id}'); return [b.dataset.beads, b.dataset.counts, b.className];"
    ));
    assert_eq!(tile[0], shown["beads"].to_string());
    let counts: Vec<&str> = tile[1].as_str().unwrap().split(',').collect();
    assert_eq!(
        counts[at],
        change["after"].to_string(),
        "the index shows the bead taken out"
    );
    let class = tile[2].as_str().unwrap();
    assert!(
        class.contains("used"),
        "a box of the last game is marked: {class}"
    );
    let lost = browser.script(&format!(
        "return document.querySelector('#box-{id} .lost').textContent;"
    ));
    assert!(lost.as_str().unwrap().contains('−'), "{lost}");
    browser.screenshot(&format!("{preset}-memory"));
    browser.click(&format!("#box-{id}"));
    browser.wait("!document.getElementById('box-view').hidden && document.querySelector('#box-view-label svg')");
    browser.screenshot(&format!("{preset}-box"));
    // Escape closes it, and so does a click on the backdrop.
    let escape = json!({ "actions": [{ "type": "key", "id": "keys", "actions": [
        { "type": "keyDown", "value": "\u{e00c}" }, { "type": "keyUp", "value": "\u{e00c}" }] }] });
    browser.call("POST", "/actions", Some(escape));
    browser.wait("document.getElementById('box-view').hidden");
    browser.click(&format!("#box-{id}"));
    browser.wait("!document.getElementById('box-view').hidden");
    browser.click_at(3.0, 3.0);
    browser.wait("document.getElementById('box-view').hidden");
    browser.click("#tab-game");
    assert!(browser.text("#changes").contains(&format!("{id}")));

    // Train 200 games and see the curve grow.
    let (_, score) = server.anyone("GET", "/api/score", None);
    let games = score["games"].as_u64().unwrap();
    browser.click("#tab-train");
    browser.script("document.getElementById('train-games').value = '200'; return 0;");
    browser.click("#train-start");
    // A machine that now resigns at an empty first box adds that game at once.
    let now = wait_for("the training run's end", Duration::from_secs(60), || {
        let (_, progress) = server.anyone("GET", "/api/train", None);
        let now = server.anyone("GET", "/api/score", None).1["games"]
            .as_u64()
            .unwrap();
        (progress["running"] == false && now >= games + 200).then_some(now)
    });
    assert!(
        now == games + 200 || now == games + 201,
        "{games} then {now}"
    );
    browser.wait(&format!(
        "document.getElementById('score-totals').textContent.includes('{now}')"
    ));
    browser.wait("Number(document.getElementById('curve-svg').dataset.points) > 100");
    browser.screenshot(&format!("{preset}-curve"));

    // Reload: everything as it was.
    let before = (
        index_beads(&browser),
        browser.text("#score-totals"),
        browser.text("#game-title"),
    );
    browser.open(&teacher);
    let after = (
        index_beads(&browser),
        browser.text("#score-totals"),
        browser.text("#game-title"),
    );
    assert_eq!(before, after);
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    assert_eq!(saved["games"].as_u64(), Some(now));

    // The view-only page shows the same, and cannot move.
    browser.open_view_only(&server.base);
    assert_eq!(index_beads(&browser), before.0);
    assert_eq!(
        browser.script("return document.querySelectorAll('#moves button').length;"),
        json!(0)
    );
    assert_eq!(
        browser.script("return document.querySelector('.train-controls').hidden && document.getElementById('typed').hidden;"),
        json!(true)
    );
    // Back to the game on every screen: a pupil's click on the board does nothing.
    server.teacher("POST", "/api/panel", Some("{\"panel\": \"game\"}"));
    browser.wait("!document.getElementById('panel-game').hidden");
    let version = browser.version();
    if let Some(spot) = browser
        .script("const s = document.querySelector('rect.spot'); return s && s.dataset.spot;")
        .as_str()
    {
        browser.click(&format!("rect.spot[data-spot=\"{spot}\"]"));
    }
    let refused = browser.call(
        "POST",
        "/execute/async",
        Some(json!({ "script": "const done = arguments[0]; fetch('/api/game/new', {method: 'POST'}).then(r => done(r.status));", "args": [] })),
    );
    // Refused, so nothing changed: the server's version is the page's still.
    assert_eq!(refused, json!(403));
    assert_eq!(server.game()["version"], json!(version));
    assert_eq!(
        browser.version(),
        version,
        "the view-only page changed nothing"
    );
    browser.screenshot(&format!("{preset}-view-only"));

    // It follows the teacher: a new game started and a move made elsewhere appear on
    // it within its polling interval.
    server.teacher("POST", "/api/game/new", None);
    let (_, game) = server.anyone("GET", "/api/game", None);
    if let Some(mv) = game["moves"][0]["move"].as_str() {
        let body = json!({ "move": mv }).to_string();
        assert_eq!(server.teacher("POST", "/api/game/move", Some(&body)).0, 200);
    }
    let (_, game) = server.anyone("GET", "/api/game", None);
    assert!(game["version"].as_u64().unwrap() > version, "{game}");
    browser.wait(&format!(
        "Number(document.body.dataset.version) === {}",
        game["version"]
    ));
    assert_eq!(
        browser.script("return document.querySelectorAll('#turns li').length;"),
        json!(game["turns"].as_array().unwrap().len())
    );
}

#[test]
fn her_in_the_browser() {
    journeys("hexapawn");
}

#[test]
fn menace_in_the_browser() {
    journeys("menace");
}

/// A kit file for a preset in a language, in the test's scratch folder.
fn kit_file(preset: &str, language: &str) -> PathBuf {
    let path =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("browser-{preset}-{language}.yaml"));
    std::fs::write(&path, format!("preset: {preset}\nlanguage: {language}\n")).unwrap();
    path
}

#[test]
fn the_game_is_one_screen_in_every_language_at_both_sizes() {
    if !browser_present() {
        return;
    }
    let browser = Browser::start("one-screen");
    for (preset, language) in [
        ("hexapawn", "en"),
        ("menace", "en"),
        ("bachet", "en"),
        ("hexapawn", "pl"),
        ("menace", "pl"),
        ("bachet", "pl"),
        ("hexapawn", "ru"),
        ("menace", "ru"),
        ("bachet", "ru"),
        // Fourteen moves in a box: their beads and the class's moves still fit.
        ("marienbad", "pl"),
        ("marienbad", "ru"),
    ] {
        let kit = kit_file(preset, language);
        let server = Server::start(&["--kit", kit.to_str().unwrap()], None);
        browser.resize(1280, 720);
        browser.open(&format!("{}/?token={}", server.base, server.token));
        // The token has left the address bar, and the tab still acts as the teacher.
        let href = browser.script("return location.href;");
        assert!(!href.as_str().unwrap().contains("token"), "{href}");
        // A game the machine finishes, move by move.
        for _ in 0..2 {
            let (_, game) = server.anyone("GET", "/api/game", None);
            if game["end"].is_null() {
                click_first_move(&browser, &|| server.game());
            }
        }
        for (width, height) in [(1280, 720), (1920, 1080)] {
            let what = format!("{preset} {language} teacher");
            fits_one_screen(&browser, width, height, &what);
            browser.screenshot(&format!("{preset}-{language}-teacher-{width}x{height}"));
        }
        // Played to its end: the result and what the rule did are in view too.
        loop {
            let (_, game) = server.anyone("GET", "/api/game", None);
            if !game["end"].is_null() {
                break;
            }
            click_first_move(&browser, &|| server.game());
        }
        for (width, height) in [(1920, 1080), (1280, 720)] {
            let what = format!("{preset} {language} end");
            fits_one_screen(&browser, width, height, &what);
            let end = place(&browser, "#end");
            assert!(end[1] <= f64::from(height), "{end:?}");
            // The board, the changes and the last box's label are read without
            // scrolling: the board keeps most of the height, the label a good part of
            // it, and no list scrolls in its frame.
            let seen = browser.script(
                "const high = (css) => document.querySelector(css)?.getBoundingClientRect().height ?? 0;
                 const scrolled = [...document.querySelectorAll('#changes, #end, .under-board')]
                   .filter(e => e.scrollHeight > e.clientHeight + 1).map(e => e.id || e.className);
                 return { board: high('#board svg'), label: high('#machine-label svg'), scrolled };",
            );
            eprintln!("{what} at {width}x{height}: {seen}");
            let high = |part: &str| seen[part].as_f64().unwrap() / f64::from(height);
            assert!(high("board") >= 0.6, "{what}: {seen}");
            assert!(high("label") >= 0.18, "{what}: {seen}");
            assert_eq!(seen["scrolled"], json!([]), "{what}");
            browser.screenshot(&format!("{preset}-{language}-end-{width}x{height}"));
        }
        browser.open_view_only(&server.base);
        for (width, height) in [(1280, 720), (1920, 1080)] {
            fits_one_screen(
                &browser,
                width,
                height,
                &format!("{preset} {language} pupil"),
            );
            browser.screenshot(&format!("{preset}-{language}-pupil-{width}x{height}"));
        }
    }
}

#[test]
fn errors_stay_until_the_next_action_or_a_dismiss() {
    if !browser_present() {
        return;
    }
    let (server, browser) = teacher("hexapawn", "errors");
    browser.script("document.getElementById('typed-move').value = 'c3-c1'; return 0;");
    browser.click("#send");
    browser.wait("!document.getElementById('error').hidden");
    let said = browser.text("#error-text");
    assert!(said.contains("c3-c1") && said.contains("; "), "{said}");
    // Through two of the page's looks at the game: it stays.
    let looks = "performance.getEntriesByType('resource').filter((e) => e.name.endsWith('/api/game')).length";
    let seen = browser
        .script(&format!("return {looks};"))
        .as_u64()
        .unwrap();
    browser.wait(&format!("{looks} >= {}", seen + 2));
    assert_eq!(browser.text("#error-text"), said);
    browser.screenshot("error-stays");
    browser.click("#error-close");
    browser.wait("document.getElementById('error').hidden");
    // The next action clears it (and a good move shows no error).
    browser.script("document.getElementById('typed-move').value = 'zz'; return 0;");
    browser.click("#send");
    browser.wait("!document.getElementById('error').hidden");
    click_first_move(&browser, &|| server.game());
    assert_eq!(
        browser.script("return document.getElementById('error').hidden;"),
        json!(true)
    );
}

#[test]
fn whole_squares_and_nim_stones_are_clicked() {
    if !browser_present() {
        return;
    }
    let browser = Browser::start("clicks");
    browser.resize(1280, 720);
    // Hexapawn: the corners of the pawn's square and of its target.
    let server = Server::start(&["--preset", "hexapawn"], None);
    browser.open(&format!("{}/?token={}", server.base, server.token));
    let (_, game) = server.anyone("GET", "/api/game", None);
    let chosen = &game["moves"][0];
    let movable = browser.script("return document.querySelectorAll('rect.spot.movable').length;");
    assert_eq!(
        movable,
        json!(3),
        "the three pawns that can move are marked"
    );
    let before = browser.version();
    for spot in chosen["spots"].as_array().unwrap() {
        let key = format!(
            "{},{}",
            spot[0].as_f64().unwrap(),
            spot[1].as_f64().unwrap()
        );
        let at = place(&browser, &format!("rect.spot[data-spot=\"{key}\"]"));
        // Near the top-left corner, far from the pawn drawn in the middle.
        browser.click_at(at[2] + 4.0, at[0] + 4.0);
    }
    browser.wait(&format!("Number(document.body.dataset.version) > {before}"));
    let (_, after) = server.anyone("GET", "/api/game", None);
    assert_eq!(after["turns"][0]["move"], chosen["move"]);
    let coordinates = browser.script(
        "return [...document.querySelectorAll('#board svg text')].map(t => t.textContent).join('');",
    );
    assert_eq!(coordinates, json!("abc123"));
    drop(server);

    // Bachet: a stone is "take this one and those to its right", one click.
    let server = Server::start(&["--preset", "bachet"], None);
    browser.open(&format!("{}/?token={}", server.base, server.token));
    let (_, game) = server.anyone("GET", "/api/game", None);
    let moves = game["moves"].as_array().unwrap();
    let largest = moves.last().unwrap();
    let spot = &largest["spots"][0];
    let key = format!(
        "{},{}",
        spot[0].as_f64().unwrap(),
        spot[1].as_f64().unwrap()
    );
    let at = place(&browser, &format!("rect.spot[data-spot=\"{key}\"]"));
    let before = browser.version();
    browser.click_at(at[3] - 2.0, at[1] - 2.0);
    browser.wait(&format!("Number(document.body.dataset.version) > {before}"));
    let (_, after) = server.anyone("GET", "/api/game", None);
    assert_eq!(after["turns"][0]["move"], largest["move"]);
}

/// A server for a preset and a browser on its teacher's page at 1280x720.
fn teacher(preset: &str, name: &str) -> (Server, Browser) {
    let server = Server::start(&["--preset", preset], None);
    let browser = Browser::start(name);
    browser.resize(1280, 720);
    browser.open(&format!("{}/?token={}", server.base, server.token));
    (server, browser)
}

/// Starts the machine playing on its own at `pace` from the teacher's page, and waits
/// for the game panel with the strip's buttons.
fn start_watching(browser: &Browser, pace: usize) {
    browser.click("#tab-train");
    browser.script(&format!(
        "const p = document.getElementById('pace'); p.value = {pace}; p.dispatchEvent(new Event('input')); return 0;"
    ));
    browser.click("#watch-start");
    browser.wait("!document.getElementById('panel-game').hidden && document.getElementById('strip-pause') !== null");
}

#[test]
fn watching_the_machine_learn_runs_and_pauses() {
    if !browser_present() {
        return;
    }
    let (server, browser) = teacher("menace", "watch");
    start_watching(&browser, 5);
    let games = |server: &Server| {
        server.anyone("GET", "/api/score", None).1["games"]
            .as_u64()
            .unwrap()
    };
    wait_for("five games watched", Duration::from_secs(60), || {
        (games(&server) >= 5).then_some(())
    });
    // The page follows it: the score in the bar grows.
    browser.wait("/[1-9]/.test(document.getElementById('totals').textContent)");
    browser.screenshot("menace-watching");
    fits_one_screen(&browser, 1280, 720, "menace watching");
    browser.click("#strip-pause");
    browser.wait("document.getElementById('strip-pause') && document.getElementById('strip-pause').textContent !== ''");
    // The server is paused (the classroom's own tests show, on a clock they drive,
    // that a paused run plays nothing however long it waits).
    wait_for("the run paused", Duration::from_secs(30), || {
        (server.anyone("GET", "/api/train", None).1["paused"] == true).then_some(())
    });
    let version = server.anyone("GET", "/api/game", None).1["version"].clone();
    browser.click("#strip-step");
    wait_for("a step's move", Duration::from_secs(30), || {
        (server.anyone("GET", "/api/game", None).1["version"] != version).then_some(())
    });
    browser.click("#strip-stop");
    browser.wait("document.getElementById('watch-strip').hidden");
}

#[test]
fn a_machine_with_an_empty_first_box_says_what_to_do() {
    if !browser_present() {
        return;
    }
    let state = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-stuck.json");
    let _ = std::fs::remove_file(&state);
    {
        let server = Server::start(&["--preset", "menace"], Some(&state));
        loop {
            let (_, game) = server.anyone("GET", "/api/game", None);
            if !game["end"].is_null() {
                break;
            }
            let body = json!({ "move": game["moves"][0]["move"] }).to_string();
            server.teacher("POST", "/api/game/move", Some(&body));
        }
    }
    let mut saved: Value = serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    for m in saved["boxes"][0]["moves"].as_array_mut().unwrap() {
        m["beads"] = 0.into();
    }
    std::fs::write(&state, saved.to_string()).unwrap();
    let server = Server::start(
        &["--preset", "menace", "--accept-edited-state"],
        Some(&state),
    );
    let browser = Browser::start("stuck");
    browser.resize(1280, 720);
    browser.open(&format!("{}/?token={}", server.base, server.token));
    browser.wait("!document.getElementById('stuck').hidden");
    let said = browser.text("#stuck");
    assert!(
        said.contains("box 1") && said.contains("not counted"),
        "{said}"
    );
    assert_eq!(
        browser.script("return document.getElementById('new-game');"),
        json!(null)
    );
    browser.screenshot("menace-stuck");
    fits_one_screen(&browser, 1280, 720, "menace stuck");
    assert_eq!(server.anyone("GET", "/api/score", None).1["games"], 1);
    // "Reset to fresh boxes" asks, then resets: the games are forgotten.
    browser.click("#stuck-reset");
    browser.wait("document.getElementById('stuck-reset-yes') !== null");
    assert_eq!(server.anyone("GET", "/api/score", None).1["games"], 1);
    browser.click("#stuck-reset-yes");
    browser.wait("document.getElementById('stuck').hidden");
    assert_eq!(server.anyone("GET", "/api/score", None).1["games"], 0);
}

/// Sets a field of the settings form as the teacher types it.
fn type_into(browser: &Browser, id: &str, value: &str) {
    browser.script(&format!(
        "const f = document.getElementById('{id}'); f.value = '{value}';
         f.dispatchEvent(new Event('input', {{ bubbles: true }})); return 0;"
    ));
}

/// The settings panel at `width` x `height`: nothing scrolls, nothing spills out of its
/// box; prints how much room it leaves.
fn settings_fit(browser: &Browser, width: u32, height: u32, what: &str) {
    browser.resize(width, height);
    let sizes = browser.script(
        "const d = document.documentElement, p = document.getElementById('panel-settings');
         const bottom = Math.max(...[...p.querySelectorAll('*')].filter(e => e.offsetParent !== null)
             .map(e => e.getBoundingClientRect().bottom));
         return [d.scrollWidth, d.scrollHeight, p.scrollHeight, p.clientHeight, p.scrollWidth, p.clientWidth, Math.ceil(bottom)];",
    );
    let spills = browser.script(
        "return [...document.querySelectorAll('#bar, #panel-settings *')]
            .filter(e => e.offsetParent !== null && e.tagName !== 'SELECT' && e.scrollWidth > e.clientWidth + 1)
            .map(e => e.tagName + '.' + (e.className || e.id));",
    );
    let n = |i: usize| sizes[i].as_u64().unwrap();
    eprintln!(
        "{what} at {width}x{height}: the panel's last line ends at y {}",
        n(6)
    );
    assert!(
        n(0) <= u64::from(width) && n(1) <= u64::from(height),
        "{what}: {sizes}"
    );
    assert!(
        n(2) <= n(3) && n(4) <= n(5),
        "{what}: the panel scrolls: {sizes}"
    );
    assert!(n(6) <= u64::from(height), "{what}: {sizes}");
    assert_eq!(spills, json!([]), "{what}");
    // Every select shows its whole choice.
    let cut = browser.script(
        "return [...document.querySelectorAll('#panel-settings select')]
            .filter(s => s.offsetParent !== null && s.scrollWidth > s.clientWidth + 1).map(s => s.id);",
    );
    assert_eq!(cut, json!([]), "{what}");
}

#[test]
fn the_teacher_changes_the_beads_in_settings_and_the_memory_shows_them() {
    if !browser_present() {
        return;
    }
    let state = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-settings.json");
    let _ = std::fs::remove_file(&state);
    let server = Server::start(&["--preset", "menace"], Some(&state));
    let browser = Browser::start("settings");
    browser.resize(1280, 720);
    browser.open(&format!("{}/?token={}", server.base, server.token));
    click_first_move(&browser, &|| server.game());
    browser.click("#tab-settings");
    browser.wait("document.getElementById('beads-1') !== null && !document.getElementById('panel-settings').hidden");
    assert_eq!(
        browser.script("return document.getElementById('beads-1').value;"),
        json!("4")
    );
    type_into(&browser, "beads-1", "7");
    browser.click("#settings-apply");
    browser.wait("!document.getElementById('settings-confirm').hidden");
    browser.screenshot("settings-confirm");
    settings_fit(&browser, 1280, 720, "menace en confirm");
    // Nothing changed before the confirmation.
    let (_, boxes) = server.anyone("GET", "/api/boxes", None);
    assert_eq!(boxes[0]["moves"][0]["start"], 4);
    browser.click("#settings-yes");
    browser.wait("document.getElementById('settings-done').textContent !== ''");
    let (_, boxes) = server.anyone("GET", "/api/boxes", None);
    assert_eq!(boxes[0]["moves"][0]["start"], 7);
    assert_eq!(server.anyone("GET", "/api/score", None).1["games"], 0);
    // The memory shows the fresh boxes: box 1 holds 7 beads of each move.
    let tiles = index_beads(&browser);
    let first = &tiles[0];
    assert_eq!(first[0], "box-1");
    let counts = browser.script("return document.getElementById('box-1').dataset.counts;");
    let counts = counts.as_str().unwrap();
    assert!(
        !counts.is_empty() && counts.split(',').all(|c| c == "7"),
        "{counts}"
    );
    browser.screenshot("settings-memory");

    // A bad value: refused at its field, in words, and nothing changes.
    browser.click("#tab-settings");
    browser.wait("!document.getElementById('panel-settings').hidden");
    type_into(&browser, "beads-3", "0");
    browser.click("#settings-apply");
    browser.click("#settings-yes");
    browser.wait("!document.querySelector('.field-error[data-field=\"beads.3\"]').hidden");
    let said = browser.text(".field-error[data-field=\"beads.3\"]");
    assert!(said.contains("from 1 to 100"), "{said}");
    assert_eq!(
        browser.script("return document.getElementById('beads-3').classList.contains('wrong');"),
        json!(true)
    );
    assert_eq!(
        browser.script("return document.getElementById('error').hidden;"),
        json!(true)
    );
    browser.screenshot("settings-refused");
    let (_, boxes) = server.anyone("GET", "/api/boxes", None);
    assert_eq!(boxes[0]["moves"][0]["start"], 7);

    // A pupil's screen follows the teacher's panel, with the settings as words only.
    browser.open_view_only(&server.base);
    browser.wait("!document.getElementById('panel-settings').hidden && document.getElementById('settings-view').textContent !== ''");
    let controls = browser.script(
        "return [...document.querySelectorAll('#panel-settings input, #panel-settings select, #panel-settings button')]
            .filter(e => e.offsetParent !== null).length;",
    );
    assert_eq!(controls, json!(0));
    let shown = browser.text("#settings-view");
    assert!(shown.contains("move 1: 7"), "{shown}");
    browser.screenshot("settings-view-only");
}

#[test]
fn the_settings_panel_fits_one_screen_in_every_language() {
    if !browser_present() {
        return;
    }
    let browser = Browser::start("settings-fit");
    // MENACE's rule shows the rewards; octapawn has the most move numbers (eight).
    for preset in ["menace", "octapawn"] {
        for language in ["en", "pl", "ru"] {
            let kit = kit_file(preset, language);
            let server = Server::start(&["--kit", kit.to_str().unwrap()], None);
            browser.resize(1280, 720);
            browser.open(&format!("{}/?token={}", server.base, server.token));
            browser.click("#tab-settings");
            browser.wait("!document.getElementById('panel-settings').hidden && document.querySelector('#beads-fields input') !== null");
            // The fullest panel: MENACE's rewards, the confirmation, a refusal, a warning.
            browser.script(
                "const r = document.getElementById('settings-rule'); r.value = 'menace';
                 r.dispatchEvent(new Event('input', { bubbles: true }));
                 const o = document.getElementById('settings-opponent'); o.value = 'perfect';
                 o.dispatchEvent(new Event('input', { bubbles: true })); return 0;",
            );
            type_into(&browser, "reward-loss", "-500");
            browser.click("#settings-apply");
            browser.click("#settings-yes");
            browser
                .wait("!document.querySelector('.field-error[data-field=\"reward.loss\"]').hidden");
            browser.click("#settings-apply");
            browser.wait("!document.getElementById('settings-confirm').hidden");
            for (width, height) in [(1280, 720), (1920, 1080)] {
                let what = format!("{preset} {language} settings");
                settings_fit(&browser, width, height, &what);
                browser.screenshot(&format!("{preset}-{language}-settings-{width}x{height}"));
            }
            // Training MENACE against the perfect player is warned of, with figures, and
            // the panel still fits.
            if preset != "menace" {
                continue;
            }
            browser.click("#tab-train");
            browser.script(
                "const o = document.getElementById('train-opponent'); o.value = 'perfect';
                 o.dispatchEvent(new Event('input', { bubbles: true })); return 0;",
            );
            browser.wait("!document.getElementById('train-warning').hidden");
            let warned = browser.text("#train-warning");
            assert!(warned.contains("20"), "{warned}");
            browser.resize(1280, 720);
            let spills = browser.script(
                "const p = document.getElementById('panel-train');
                 return [p.scrollHeight <= p.clientHeight, document.documentElement.scrollHeight <= innerHeight];",
            );
            browser.screenshot(&format!("{preset}-{language}-train-warning"));
            assert_eq!(spills, json!([true, true]), "{preset} {language} training");
        }
    }
}

/// Clicks the element twice in quick succession, as a double click or a tap repeated
/// on a whiteboard does.
fn double_click(browser: &Browser, css: &str) {
    let at = place(browser, css);
    let (x, y) = ((at[2] + at[3]) / 2.0, (at[0] + at[1]) / 2.0);
    let actions = json!({ "actions": [{
        "type": "pointer", "id": "mouse", "parameters": { "pointerType": "mouse" },
        "actions": [
            { "type": "pointerMove", "duration": 0, "origin": "viewport", "x": x.round() as i64, "y": y.round() as i64 },
            { "type": "pointerDown", "button": 0 }, { "type": "pointerUp", "button": 0 },
            { "type": "pointerDown", "button": 0 }, { "type": "pointerUp", "button": 0 },
        ],
    }]});
    browser.call("POST", "/actions", Some(actions));
}

#[test]
fn a_double_click_plays_one_move_and_one_move_is_taken_back() {
    if !browser_present() {
        return;
    }
    let (server, browser) = teacher("bachet", "forgiving");
    let start = server.game();
    double_click(&browser, "#moves button.move");
    // The class's move and the machine's answer shown, and no request on its way.
    browser.wait("document.querySelectorAll('#turns li').length >= 2 && document.body.dataset.sending === undefined");
    let after = server.game();
    assert_eq!(
        after["ply"], 2,
        "one move and the machine's answer: {after}"
    );
    assert_eq!(after["turns"][0]["move"], start["moves"][0]["move"]);
    assert_eq!(
        browser.script("return document.getElementById('error').hidden;"),
        json!(true),
        "{}",
        browser.text("#error")
    );
    // Taken back: the board as it was, one move at a time, until none is left.
    // The next click comes later than a double click's second (the browser counts
    // clicks within half a second as one series, and the page plays only the first):
    // a pupil's pace, not a wait for the program.
    std::thread::sleep(Duration::from_millis(700));
    let mut last = after;
    while last["end"].is_null() {
        click_first_move(&browser, &|| server.game());
        last = server.game();
    }
    let games = server.anyone("GET", "/api/score", None).1["games"].clone();
    assert_eq!(games, 1);
    while browser.script("return document.getElementById('take-back').hidden;") == json!(false) {
        let ply = server.game()["ply"].as_u64().unwrap();
        browser.click_and_wait("#take-back");
        assert!(server.game()["ply"].as_u64().unwrap() < ply);
    }
    let back = server.game();
    assert_eq!(back["position"], start["position"]);
    assert_eq!(back["ply"], start["ply"]);
    assert_eq!(server.anyone("GET", "/api/score", None).1["games"], 0);
    browser.wait("document.querySelector('#moves button.move') !== null");
}

#[test]
fn after_stop_in_watch_mode_the_class_has_a_clean_game() {
    if !browser_present() {
        return;
    }
    let (server, browser) = teacher("hexapawn", "stop-watching");
    start_watching(&browser, 0);
    wait_for("a watched move", Duration::from_secs(60), || {
        (server.game()["ply"].as_u64() != Some(0)).then_some(())
    });
    browser.click("#strip-stop");
    browser.wait("document.getElementById('watch-strip').hidden");
    let game = server.game();
    assert_eq!(
        (&game["ply"], &game["end"]),
        (&json!(0), &Value::Null),
        "{game}"
    );
    browser.wait("document.querySelectorAll('#turns li').length === 0 && document.querySelector('#moves button.move, rect.spot.movable') !== null");
}

/// Presses keys as the keyboard does (WebDriver's codes: Tab `\u{e004}`, Enter `\u{e007}`,
/// Escape `\u{e00c}`, arrow up `\u{e013}`).
fn press(browser: &Browser, keys: &[&str]) {
    let actions: Vec<Value> = keys
        .iter()
        .flat_map(|k| {
            [
                json!({ "type": "keyDown", "value": k }),
                json!({ "type": "keyUp", "value": k }),
            ]
        })
        .collect();
    let body = json!({ "actions": [{ "type": "key", "id": "keys", "actions": actions }] });
    browser.call("POST", "/actions", Some(body));
}

/// The id of the element with the keyboard's focus (`BODY` when it has none).
fn focused(browser: &Browser) -> String {
    browser
        .script("const a = document.activeElement; return a.id || a.tagName;")
        .as_str()
        .unwrap()
        .to_string()
}

/// axe-core's WCAG 2.1 A and AA check finds nothing on the page as it is.
fn no_violations(browser: &Browser, what: &str) {
    let found = browser.axe_violations();
    assert!(found.is_empty(), "{what}: {found:#?}");
}

#[test]
fn a_whole_game_by_keyboard_with_the_focus_kept_and_no_axe_violations() {
    if !browser_present() {
        return;
    }
    let (server, browser) = teacher("hexapawn", "keyboard");
    no_violations(&browser, "start");
    // Tab to the board, then Enter on a pawn and Enter on where it goes, turn after turn.
    for _ in 0..40 {
        if focused(&browser) == "board" {
            break;
        }
        press(&browser, &["\u{e004}"]);
    }
    assert_eq!(focused(&browser), "board");
    let mut moves = 0;
    while server.game()["end"].is_null() {
        let before = browser.version();
        press(&browser, &["\u{e007}"]);
        // The pawn is picked and the keyboard is on its first square to go to.
        browser.wait("document.querySelector('rect.spot.picked') !== null");
        press(&browser, &["\u{e007}"]);
        browser.wait(&format!("Number(document.body.dataset.version) > {before}"));
        moves += 1;
        if moves == 1 {
            no_violations(&browser, "mid-game");
        }
        if server.game()["end"].is_null() {
            assert_eq!(
                focused(&browser),
                "board",
                "the focus stays on the board after a move"
            );
        }
    }
    // The screen reader is told what the machine drew and played, and the result.
    let said = browser.text("#said");
    let game = server.game();
    assert!(said.contains(&browser.text("#end .result")), "{said}");
    if let Some(turn) = game["turns"]
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .find(|t| t["who"] == "machine")
    {
        assert!(
            said.contains(turn["words"].as_str().unwrap_or("")),
            "{said}"
        );
    }
    no_violations(&browser, "end of game");
    // The game over, the focus is on New game: Enter starts the next.
    assert_eq!(focused(&browser), "new-game");
    let before = browser.version();
    press(&browser, &["\u{e007}"]);
    browser.wait(&format!("Number(document.body.dataset.version) > {before}"));
    assert_eq!(server.game()["ply"], 0);
    assert_ne!(focused(&browser), "BODY");
    // A move clicked keeps the focus on a move button, not the page's top.
    browser.click_and_wait("#moves button.move");
    assert_ne!(focused(&browser), "BODY");

    for tab in ["memory", "score", "train", "settings"] {
        browser.click(&format!("#tab-{tab}"));
        browser.wait(&format!("!document.getElementById('panel-{tab}').hidden"));
        if tab == "settings" {
            browser.wait("document.querySelector('#beads-fields input') !== null");
        }
        no_violations(&browser, tab);
    }
    // The box dialog: opened from a tile by keyboard, the focus stays in it, and Escape
    // gives it back to the tile.
    browser.click("#tab-memory");
    browser.wait("document.querySelector('.tile') !== null");
    browser.script("document.querySelector('.tile').focus(); return 0;");
    let tile = focused(&browser);
    press(&browser, &["\u{e007}"]);
    browser.wait("!document.getElementById('box-view').hidden && document.querySelector('#box-view-label svg')");
    no_violations(&browser, "the box dialog");
    press(&browser, &["\u{e004}", "\u{e004}", "\u{e004}"]);
    assert!(
        browser
            .script("return document.getElementById('box-view').contains(document.activeElement);")
            == json!(true),
        "the focus stays in the dialog: {}",
        focused(&browser)
    );
    press(&browser, &["\u{e00c}"]);
    browser.wait("document.getElementById('box-view').hidden");
    assert_eq!(focused(&browser), tile);
    // An error.
    browser.click("#tab-game");
    browser.script("document.getElementById('typed-move').value = 'c3-c1'; return 0;");
    browser.click("#send");
    browser.wait("!document.getElementById('error').hidden");
    no_violations(&browser, "an error");
}

/// The computed font size of every visible element `css` finds, in px.
fn font_sizes(browser: &Browser, css: &str) -> Vec<f64> {
    let sizes = browser.script(&format!(
        "return [...document.querySelectorAll('{css}')].filter(e => e.offsetParent !== null)
            .map(e => parseFloat(getComputedStyle(e).fontSize));"
    ));
    sizes
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect()
}

/// The font size whose capital letters are 16′ of arc high from 8 m, on a picture 2 m
/// wide shown by `width` px: 8 m × tan(16′) ≈ 37.2 mm, a capital of DejaVu Sans is
/// 0.729 of the font size (1493 of 2048 units), as ISO 9241-3 measures a character.
fn sixteen_minutes(width: u32) -> f64 {
    let seen = 8000.0 * (16.0_f64 / 60.0).to_radians().tan();
    seen / 2000.0 * f64::from(width) / (1493.0 / 2048.0)
}

#[test]
fn what_the_class_reads_is_16_minutes_of_arc_from_the_back_row() {
    if !browser_present() {
        return;
    }
    let browser = Browser::start("back-row");
    let least = sixteen_minutes(1280);
    assert!((32.5..33.0).contains(&least), "{least}");
    for (preset, language) in [("menace", "en"), ("menace", "pl"), ("hexapawn", "ru")] {
        let kit = kit_file(preset, language);
        let server = Server::start(&["--kit", kit.to_str().unwrap()], None);
        browser.resize(1280, 720);
        browser.open(&format!("{}/?token={}", server.base, server.token));
        click_first_move(&browser, &|| server.game());
        let what = format!("{preset} {language}");
        let mut read = vec![];
        for css in ["#prompt", "#drawn", "#totals"] {
            read.push((css, font_sizes(&browser, css)));
        }
        while server.game()["end"].is_null() {
            click_first_move(&browser, &|| server.game());
        }
        browser.wait("!document.getElementById('end').hidden");
        // The end takes the place of the last draw: its result and changes are read.
        for css in ["#end .result", "#changes li", "#totals"] {
            read.push((css, font_sizes(&browser, css)));
        }
        eprintln!("{what} at 1280x720, in px (at least {least:.1}): {read:?}");
        for (css, sizes) in &read {
            assert!(
                !sizes.is_empty() || *css == "#changes li",
                "{what}: {css} is shown"
            );
            for size in sizes {
                assert!(*size >= least, "{what}: {css} is {size} px");
            }
        }
        browser.screenshot(&format!("back-row-{preset}-{language}-1280x720"));
        fits_one_screen(&browser, 1280, 720, &what);
    }
}

/// The page at `width` x `height` without zooming out, clipping or overlapping: nothing
/// is wider than the screen, no block spills out of its box, the game's blocks do not
/// overlap, and the board and the label take most of the width of an upright screen.
fn fits_any_screen(browser: &Browser, width: u32, height: u32, what: &str) {
    browser.resize(width, height);
    let found = browser.script(
        "const visible = (e) => e.offsetParent !== null && e.getClientRects().length > 0;
         const all = [...document.querySelectorAll('body *')].filter(visible).filter(e => !e.closest('.sr-only, svg *'));
         const wide = all.filter(e => e.getBoundingClientRect().right > innerWidth + 1).map(e => e.id || e.className || e.tagName);
         const spills = [...document.querySelectorAll('#bar, .tabs, .step, .end, .stuck, .under-board, .turns-box, .moves, .beads, .changes, #error')]
           .filter(visible).filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.id || e.className);
         const blocks = ['#bar', '#board svg', '.under-board', '.step.box', '.step.turn', '.step.beads-step', '.step.draw', '.turns-box']
           .map(css => [css, document.querySelector(css)]).filter(([, e]) => e && visible(e))
           .map(([css, e]) => [css, e.getBoundingClientRect()]);
         const overlaps = [];
         for (const [i, [a, r]] of blocks.entries()) for (const [b, s] of blocks.slice(i + 1))
           if (r.left < s.right - 1 && s.left < r.right - 1 && r.top < s.bottom - 1 && s.top < r.bottom - 1) overlaps.push(a + ' / ' + b);
         const size = (css) => { const e = document.querySelector(css); return e && visible(e) ? e.getBoundingClientRect().width : null; };
         return { scroll: document.documentElement.scrollWidth, wide, spills, overlaps,
           board: size('#board svg'), label: size('#machine-label svg'), scale: visualViewport.scale };",
    );
    eprintln!("{what} at {width}x{height}: {found}");
    browser.screenshot(&what.replace(' ', "-"));
    assert_eq!(found["scale"], json!(1), "{what}: zoomed");
    assert!(
        found["scroll"].as_u64() <= Some(u64::from(width)),
        "{what}: {found}"
    );
    assert_eq!(found["wide"], json!([]), "{what}: past the right edge");
    assert_eq!(found["spills"], json!([]), "{what}: spills out of its box");
    assert_eq!(found["overlaps"], json!([]), "{what}: overlapping");
    if width < height {
        let least = 0.6 * f64::from(width);
        for part in ["board", "label"] {
            if let Some(w) = found[part].as_f64() {
                assert!(
                    w >= least.min(0.55 * f64::from(height)),
                    "{what}: the {part} is {w} px wide"
                );
            }
        }
    }
}

#[test]
fn the_lesson_fits_a_phone_and_a_tablet_both_ways_in_every_language() {
    if !browser_present() {
        return;
    }
    let browser = Browser::start("any-screen");
    for language in ["en", "pl", "ru"] {
        let kit = kit_file("menace", language);
        let server = Server::start(&["--kit", kit.to_str().unwrap()], None);
        browser.resize(1280, 720);
        browser.open(&format!("{}/?token={}", server.base, server.token));
        click_first_move(&browser, &|| server.game());
        for (width, height) in [(390, 844), (844, 390), (768, 1024), (1024, 768)] {
            let what = format!("menace {language} teacher {width}x{height}");
            fits_any_screen(&browser, width, height, &what);
        }
        while server.game()["end"].is_null() {
            click_first_move(&browser, &|| server.game());
        }
        browser.open_view_only(&server.base);
        for (width, height) in [(390, 844), (844, 390), (768, 1024), (1024, 768)] {
            let what = format!("menace {language} pupil {width}x{height}");
            fits_any_screen(&browser, width, height, &what);
        }
    }
}
