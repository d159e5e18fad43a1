//! The classroom page in a real browser: Debian's headless Chromium, driven through
//! WebDriver (chromedriver) with plain HTTP from this test. Screenshots of the main
//! screens go to `target/serve-screens/`.
//!
//! Without chromium and chromedriver the tests are skipped with a message, except on CI
//! (`CI` set), where they fail: `.ci/run` installs both.

mod support;

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::{Server, request};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// A chromedriver process and one browser session in it.
struct Browser {
    driver: Child,
    base: String,
    session: String,
    _profile: PathBuf,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = request(
            &self.base,
            "DELETE",
            &format!("/session/{}", self.session),
            "",
            None,
        );
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Whether the browser is here; on CI its absence is a failure.
fn browser_present() -> bool {
    let here = Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists();
    if !here {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI: {CHROMIUM} and {CHROMEDRIVER} are needed (apt-get install chromium chromium-driver)"
        );
        eprintln!("skipped: no {CHROMIUM} or {CHROMEDRIVER} on this machine");
    }
    here
}

impl Browser {
    fn start(name: &str) -> Browser {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let driver = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let base = format!("http://127.0.0.1:{port}");
        let profile = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("chromium-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&profile);
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": CHROMIUM,
                "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                    "--window-size=1600,1200",
                    format!("--user-data-dir={}", profile.display())],
            }
        }}});
        let deadline = Instant::now() + Duration::from_secs(20);
        let session = loop {
            let answer = std::panic::catch_unwind(|| {
                request(
                    &base,
                    "POST",
                    "/session",
                    "",
                    Some(&capabilities.to_string()),
                )
            });
            if let Ok((200, body)) = answer {
                let value: Value = serde_json::from_str(&body).unwrap();
                break value["value"]["sessionId"].as_str().unwrap().to_string();
            }
            assert!(
                Instant::now() < deadline,
                "chromedriver gave no session: {answer:?}"
            );
            std::thread::sleep(Duration::from_millis(200));
        };
        Browser {
            driver,
            base,
            session,
            _profile: profile,
        }
    }

    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let path = format!("/session/{}{path}", self.session);
        let body = body.map(|b| b.to_string());
        let (status, text) = request(&self.base, method, &path, "", body.as_deref());
        let value: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(status, 200, "{method} {path}: {value}");
        value["value"].clone()
    }

    fn open(&self, url: &str) {
        self.call("POST", "/url", Some(json!({ "url": url })));
        self.wait("document.body.dataset.ready === 'yes'");
    }

    fn script(&self, script: &str) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({ "script": script, "args": [] })),
        )
    }

    /// Waits until the JavaScript expression is true.
    fn wait(&self, expression: &str) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while self.script(&format!("return !!({expression});")) != json!(true) {
            assert!(Instant::now() < deadline, "waited in vain for {expression}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn find(&self, css: &str) -> String {
        let found = self.call(
            "POST",
            "/element",
            Some(json!({ "using": "css selector", "value": css })),
        );
        found
            .as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .unwrap()
            .to_string()
    }

    fn click(&self, css: &str) {
        let id = self.find(css);
        self.call("POST", &format!("/element/{id}/click"), Some(json!({})));
    }

    fn text(&self, css: &str) -> String {
        let id = self.find(css);
        self.call("GET", &format!("/element/{id}/text"), None)
            .as_str()
            .unwrap()
            .to_string()
    }

    fn version(&self) -> u64 {
        self.script("return Number(document.body.dataset.version);")
            .as_u64()
            .unwrap()
    }

    /// Clicks and waits for the page to show the server's next change.
    fn click_and_wait(&self, css: &str) {
        let before = self.version();
        self.click(css);
        self.wait(&format!("Number(document.body.dataset.version) > {before}"));
    }

    fn screenshot(&self, name: &str) {
        let data = self.call("GET", "/screenshot", None);
        let png = base64(data.as_str().unwrap());
        assert!(png.starts_with(b"\x89PNG"));
        let dir = screens();
        std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
    }
}

/// Where the screenshots go.
fn screens() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .join("serve-screens");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let digits: Vec<u8> = text
        .bytes()
        .filter(|&c| c != b'=' && c != b'\n')
        .map(value)
        .collect();
    digits
        .chunks(4)
        .flat_map(|c| {
            let n = c.iter().fold(0u32, |n, &d| n << 6 | u32::from(d)) << (6 * (4 - c.len()));
            let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
            bytes[..c.len() - 1].to_vec()
        })
        .collect()
}

/// A small generator for the class's choice of moves, so runs repeat.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// Plays one game by clicking the board's spots, a random legal move each turn; returns
/// the finished game as the API reports it.
fn play_by_clicking(browser: &Browser, server: &Server, rng: &mut Lcg) -> Value {
    loop {
        let (_, game) = server.anyone("GET", "/api/game", None);
        if !game["end"].is_null() {
            return game;
        }
        let moves = game["moves"].as_array().unwrap();
        let chosen = &moves[rng.below(moves.len())];
        let spots = chosen["spots"].as_array().unwrap();
        let before = browser.version();
        for spot in spots {
            let key = format!(
                "{},{}",
                spot[0].as_f64().unwrap(),
                spot[1].as_f64().unwrap()
            );
            browser.click(&format!("rect.spot[data-spot=\"{key}\"]"));
        }
        browser.wait(&format!("Number(document.body.dataset.version) > {before}"));
        let (_, after) = server.anyone("GET", "/api/game", None);
        let mine = &after["turns"][game["ply"].as_u64().unwrap() as usize];
        assert_eq!(
            mine["move"], chosen["move"],
            "the clicks played the move chosen"
        );
    }
}

/// Every box's beads as the box index shows them.
fn index_beads(browser: &Browser) -> Value {
    browser.script("return [...document.querySelectorAll('.box')].map(b => [b.id, b.dataset.beads, b.className]);")
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
    let game = play_by_clicking(&browser, &server, &mut rng);
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
    let drawn = browser.text("#drawn");
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
        last = play_by_clicking(&browser, &server, &mut rng);
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
    let at = shown["moves"]
        .as_array()
        .unwrap()
        .iter()
        .position(|m| m["move"] == change["move"])
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
    if shown["beads"].as_u64() < shown["start"].as_u64() {
        let class = tile[2].as_str().unwrap();
        assert!(class.contains("lost") || class.contains("empty"), "{class}");
    }
    assert!(browser.text("#changes").contains(&format!("{id}")));
    browser.screenshot(&format!("{preset}-loss"));
    browser.click(&format!("#box-{id}"));
    browser.wait("!document.getElementById('box-view').hidden && document.querySelector('#box-view-label svg')");
    browser.screenshot(&format!("{preset}-box"));
    browser.click("#box-view-close");

    // Train 200 games and see the curve grow.
    let (_, score) = server.anyone("GET", "/api/score", None);
    let games = score["games"].as_u64().unwrap();
    browser.script("document.getElementById('train-games').value = '200'; return 0;");
    browser.click("#train-start");
    // A machine that now resigns at an empty first box adds that game at once.
    let mut now = games;
    for _ in 0..400 {
        let (_, progress) = server.anyone("GET", "/api/train", None);
        now = server.anyone("GET", "/api/score", None).1["games"]
            .as_u64()
            .unwrap();
        if progress["running"] == false && now >= games + 200 {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
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
    browser.open(&server.base);
    assert_eq!(index_beads(&browser), before.0);
    let version = browser.version();
    assert_eq!(
        browser.script("return document.querySelectorAll('#moves button').length;"),
        json!(0)
    );
    assert_eq!(
        browser.script("return document.getElementById('teacher').hidden;"),
        json!(true)
    );
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
    assert_eq!(refused, json!(403));
    std::thread::sleep(Duration::from_millis(300));
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
