//! The static site's lesson open twice in one browser (two tabs of one profile, sharing
//! its storage) on one kit, in headless Chromium: games trained and clicked in both go
//! into one machine and none is lost; each tab says which keeps the beads; when the
//! keeping tab closes, the other takes over with every game. And a browser that keeps
//! nothing is said at once, before any game, while the page still works. Needs the
//! built site (`bash web/build.sh`); skipped without it or without the browser, as
//! tests/web_site.rs.

mod support;

use std::path::Path;
use std::sync::{Mutex, PoisonError};

use serde_json::{Value, json};
use support::browser::{Browser, browser_present};
use support::classroom::{Lcg, play_by_clicking};
use support::files::FileServer;

/// One browser at a time (two cores).
static ONE_BROWSER: Mutex<()> = Mutex::new(());

/// The kit: HER in Polish, so that the page's words are the kit's language.
const KIT: &str = "preset: hexapawn\nlanguage: pl\n";

/// The lesson's address for [`KIT`], as the designer's link writes it.
fn lesson(server: &FileServer) -> String {
    format!(
        "{}/lesson.html#{}",
        server.base,
        KIT.replace(' ', "%20").replace('\n', "%0A")
    )
}

/// The built site and a browser, or `None` (skipped) as tests/web_site.rs does.
fn site() -> Option<std::path::PathBuf> {
    let dist = Path::new(env!("CARGO_MANIFEST_DIR")).join("web/dist");
    if !dist.join("matchbox.wasm").exists() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI: build the site first (bash web/build.sh)"
        );
        eprintln!("skipped: no site in {} (bash web/build.sh)", dist.display());
        return None;
    }
    browser_present().then_some(dist)
}

/// A request of the page's, through its transport, in the tab in front.
fn api(browser: &Browser, method: &str, path: &str, body: Value) -> Value {
    browser.script_async(&format!(
        "const done = arguments[arguments.length - 1]; transport.api({}, {}, {}).then(done, (e) => done({{ refused: e.message }}));",
        json!(method),
        json!(path),
        if body.is_null() { "undefined".to_string() } else { body.to_string() }
    ))
}

/// Trains `games` games against the perfect player from the tab in front, to the end.
fn train(browser: &Browser, games: u64) {
    let started = api(
        browser,
        "POST",
        "/api/train",
        json!({ "games": games, "opponent": "perfect" }),
    );
    assert_eq!(started["running"], json!(true), "{started}");
    browser.wait(
        "window.trained = window.trained || null, transport.api('GET', '/api/train').then((t) => { window.trained = t; }), window.trained && !window.trained.running",
    );
    browser.script("window.trained = null; return 0;");
}

/// Games the machine has played, as the tab in front sees it.
fn games(browser: &Browser) -> Value {
    api(browser, "GET", "/api/score", Value::Null)["games"].clone()
}

/// Games in the beads this browser keeps for the kit.
fn kept(browser: &Browser) -> Value {
    browser.script(&format!(
        "return JSON.parse(localStorage.getItem({})).games;",
        json!(format!("matchbox-beads:{KIT}"))
    ))
}

/// Brings the tab `handle` to the front.
fn switch(browser: &Browser, handle: &str) {
    browser.call("POST", "/window", Some(json!({ "handle": handle })));
}

/// What the tab in front says about the tabs (its line under the kit's name).
fn said(browser: &Browser) -> Value {
    browser.script(
        "const line = document.getElementById('view-only'); return line.hidden ? null : line.textContent;",
    )
}

#[test]
fn two_tabs_on_one_kit_train_in_both_and_lose_no_game() {
    let Some(dist) = site() else {
        return;
    };
    let _alone = ONE_BROWSER.lock().unwrap_or_else(PoisonError::into_inner);
    let server = FileServer::start(&dist);
    let browser = Browser::start("web-two-tabs");
    browser.resize(1280, 720);
    browser.open(&lesson(&server));
    let first = browser.call("GET", "/window", None);
    let first = first.as_str().unwrap().to_string();
    let words = api(&browser, "GET", "/api/kit", Value::Null)["words"].clone();
    // The teacher opens the lesson again in a second tab (the projector's and their own).
    let second = browser.call("POST", "/window/new", Some(json!({ "type": "tab" })));
    let second = second["handle"].as_str().unwrap().to_string();
    switch(&browser, &second);
    browser.open(&lesson(&server));
    assert_eq!(
        said(&browser),
        words["page.tabs.follows"],
        "the second tab says it follows"
    );
    // Training in both, in turns, as the run did: 300, 10 and 50 games.
    train(&browser, 300);
    switch(&browser, &first);
    assert_eq!(
        games(&browser),
        json!(300),
        "the first tab sees the second's games"
    );
    train(&browser, 10);
    switch(&browser, &second);
    train(&browser, 50);
    // And a game clicked on the board of each.
    let mut rng = Lcg(11);
    let game = || api(&browser, "GET", "/api/game", Value::Null);
    api(&browser, "POST", "/api/game/new", Value::Null);
    play_by_clicking(&browser, &game, &mut rng);
    switch(&browser, &first);
    api(&browser, "POST", "/api/game/new", Value::Null);
    play_by_clicking(&browser, &game, &mut rng);
    assert_eq!(
        said(&browser),
        words["page.tabs.keeps"],
        "the first tab says it keeps the beads"
    );
    browser.screenshot("web-two-tabs-keeper");
    for handle in [&first, &second] {
        switch(&browser, handle);
        assert_eq!(games(&browser), json!(362), "both tabs show one machine");
    }
    browser.screenshot("web-two-tabs-follower");
    assert_eq!(kept(&browser), json!(362), "the browser keeps every game");
    // The keeping tab is closed: the other takes over with every game, and says so.
    switch(&browser, &first);
    browser.call("DELETE", "/window", None);
    switch(&browser, &second);
    browser.wait(&format!(
        "document.getElementById('view-only').textContent === {}",
        words["page.tabs.took_over"]
    ));
    assert_eq!(games(&browser), json!(362));
    train(&browser, 5);
    assert_eq!(games(&browser), json!(367));
    assert_eq!(kept(&browser), json!(367));
    // A tab opened now follows this one.
    let third = browser.call("POST", "/window/new", Some(json!({ "type": "tab" })));
    switch(&browser, third["handle"].as_str().unwrap());
    browser.open(&lesson(&server));
    assert_eq!(said(&browser), words["page.tabs.follows"]);
    assert_eq!(games(&browser), json!(367));
}

#[test]
fn a_browser_that_keeps_nothing_is_said_at_once_and_the_lesson_works() {
    let Some(dist) = site() else {
        return;
    };
    let _alone = ONE_BROWSER.lock().unwrap_or_else(PoisonError::into_inner);
    let server = FileServer::start(&dist);
    let browser = Browser::start("web-keeps-nothing");
    browser.resize(1280, 720);
    // Site data blocked: every write refused, from before the page's first script.
    browser.call(
        "POST",
        "/goog/cdp/execute",
        Some(json!({
            "cmd": "Page.addScriptToEvaluateOnNewDocument",
            "params": { "source": "Storage.prototype.setItem = function () { throw new DOMException('The operation is insecure.', 'SecurityError'); };" },
        })),
    );
    browser.open(&lesson(&server));
    let words = api(&browser, "GET", "/api/kit", Value::Null)["words"].clone();
    browser.wait("!document.getElementById('unsaved').hidden");
    assert_eq!(
        json!(browser.text("#unsaved")),
        words["page.save.browser_blocked"],
        "said before any game, in the kit's language"
    );
    // The lesson goes on in memory.
    let game = || api(&browser, "GET", "/api/game", Value::Null);
    play_by_clicking(&browser, &game, &mut Lcg(2));
    assert_eq!(games(&browser), json!(1));
    browser.screenshot("web-lesson-keeps-nothing-at-start");
}
