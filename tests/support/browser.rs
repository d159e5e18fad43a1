//! Debian's headless Chromium driven through WebDriver (chromedriver) with plain HTTP:
//! the classroom page's tests and the static site's.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

use super::{request, wait_for, wait_until};

pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// A chromedriver process and one browser session in it.
pub struct Browser {
    driver: Child,
    base: String,
    /// The WebDriver session's id.
    pub session: String,
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
pub fn browser_present() -> bool {
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
    pub fn start(name: &str) -> Browser {
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
        // Listening first: a request before would fail (and print its panic).
        wait_for("chromedriver to listen", Duration::from_secs(60), || {
            std::net::TcpStream::connect(("127.0.0.1", port))
                .ok()
                .map(drop)
        });
        let session = wait_for(
            "a session of chromedriver's",
            Duration::from_secs(60),
            || {
                let answer = std::panic::catch_unwind(|| {
                    request(
                        &base,
                        "POST",
                        "/session",
                        "",
                        Some(&capabilities.to_string()),
                    )
                });
                let Ok((200, body)) = answer else {
                    return None;
                };
                let value: Value = serde_json::from_str(&body).unwrap();
                Some(value["value"]["sessionId"].as_str().unwrap().to_string())
            },
        );
        Browser {
            driver,
            base,
            session,
            _profile: profile,
        }
    }

    pub fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let path = format!("/session/{}{path}", self.session);
        let body = body.map(|b| b.to_string());
        let (status, text) = request(&self.base, method, &path, "", body.as_deref());
        let value: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(status, 200, "{method} {path}: {value}");
        value["value"].clone()
    }

    pub fn open(&self, url: &str) {
        self.call("POST", "/url", Some(json!({ "url": url })));
        self.wait("document.body.dataset.ready === 'yes'");
    }

    pub fn script(&self, script: &str) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({ "script": script, "args": [] })),
        )
    }

    /// Runs a script that calls its last argument with the result, and waits for it
    /// (up to two minutes: a big kit takes seconds).
    pub fn script_async(&self, script: &str) -> Value {
        self.call("POST", "/timeouts", Some(json!({ "script": 120_000 })));
        self.call(
            "POST",
            "/execute/async",
            Some(json!({ "script": script, "args": [] })),
        )
    }

    /// Waits until the JavaScript expression is true.
    pub fn wait(&self, expression: &str) {
        let script = format!("return !!({expression});");
        wait_for(expression, Duration::from_secs(30), || {
            (self.script(&script) == json!(true)).then_some(())
        });
    }

    /// The WCAG 2.1 A and AA violations that axe-core (vendored, tests/support/axe)
    /// finds on the page as it is now: each with its rule id and the elements it names.
    pub fn axe_violations(&self) -> Vec<Value> {
        let axe = include_str!("axe/axe.min.js");
        self.script(&format!("{axe}\n;return 0;"));
        let result = self.script_async(
            "const done = arguments[arguments.length - 1];
             axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })
               .then((r) => done(r.violations.map((v) => ({ id: v.id, help: v.help,
                 nodes: v.nodes.map((n) => n.target.join(' ')) }))), (e) => done([{ id: 'axe-failed', help: String(e) }]));",
        );
        result.as_array().cloned().unwrap_or_default()
    }

    pub fn find(&self, css: &str) -> String {
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

    /// Asks something of an element (`what`: `click`, `text`), found again if the page
    /// redrew it meanwhile (the board is redrawn at every change it is told of).
    fn on_element(&self, css: &str, method: &str, what: &str) -> Value {
        let body = (method == "POST").then_some("{}");
        for _ in 0..3 {
            let id = self.find(css);
            let path = format!("/session/{}/element/{id}/{what}", self.session);
            let (status, text) = request(&self.base, method, &path, "", body);
            if status == 200 {
                let value: Value = serde_json::from_str(&text).unwrap();
                return value["value"].clone();
            }
            assert!(text.contains("stale element"), "{what} of {css}: {text}");
        }
        panic!("{css} kept being redrawn");
    }

    /// Clicks an element.
    pub fn click(&self, css: &str) {
        self.on_element(css, "POST", "click");
    }

    /// The text of an element.
    pub fn text(&self, css: &str) -> String {
        self.on_element(css, "GET", "text")
            .as_str()
            .unwrap()
            .to_string()
    }

    pub fn version(&self) -> u64 {
        self.script("return Number(document.body.dataset.version);")
            .as_u64()
            .unwrap()
    }

    /// Clicks and waits for the page to show the server's next change.
    pub fn click_and_wait(&self, css: &str) {
        let before = self.version();
        self.click(css);
        self.wait(&format!("Number(document.body.dataset.version) > {before}"));
    }

    /// Sets the browser's viewport to this size (the window, less what its frame takes).
    pub fn resize(&self, width: u32, height: u32) {
        let set = |w: i64, h: i64| {
            self.call(
                "POST",
                "/window/rect",
                Some(json!({ "width": w, "height": h })),
            );
        };
        let (width, height) = (i64::from(width), i64::from(height));
        let before = self.script("return [outerWidth, outerHeight];");
        set(width, height);
        // The window takes its size a moment after the answer (or had it already).
        let _ = wait_until(Duration::from_secs(2), || {
            let outer = self.script("return [outerWidth, outerHeight];");
            (outer != before || outer == json!([width, height])).then_some(())
        });
        let inner = self.script("return [innerWidth, innerHeight];");
        let (w, h) = (inner[0].as_i64().unwrap(), inner[1].as_i64().unwrap());
        if (w, h) != (width, height) {
            set(2 * width - w, 2 * height - h);
        }
        self.wait(&format!(
            "innerWidth === {width} && innerHeight === {height}"
        ));
    }

    /// Clicks at a point of the viewport, in CSS pixels.
    pub fn click_at(&self, x: f64, y: f64) {
        let actions = json!({ "actions": [{
            "type": "pointer", "id": "mouse", "parameters": { "pointerType": "mouse" },
            "actions": [
                { "type": "pointerMove", "duration": 0, "origin": "viewport", "x": x.round() as i64, "y": y.round() as i64 },
                { "type": "pointerDown", "button": 0 },
                { "type": "pointerUp", "button": 0 },
            ],
        }]});
        self.call("POST", "/actions", Some(actions));
    }

    /// Opens the page as a pupil's screen: the token the tab kept is forgotten first.
    pub fn open_view_only(&self, base: &str) {
        self.script("sessionStorage.clear(); return 0;");
        self.open(base);
    }

    pub fn screenshot(&self, name: &str) {
        let data = self.call("GET", "/screenshot", None);
        let png = base64(data.as_str().unwrap());
        assert!(png.starts_with(b"\x89PNG"));
        let dir = screens();
        std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
    }
}

/// Where the screenshots go.
pub fn screens() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .join("serve-screens");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn base64(text: &str) -> Vec<u8> {
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
