//! The static site (web/dist, built by `bash web/build.sh`) served by a plain file server
//! and driven in headless Chromium: the kits the page makes are the native binary's byte
//! for byte, a bad kit gets the CLI's message, the designer's downloads, the page in
//! every language at both screen sizes (screenshots in `target/serve-screens/web-*`),
//! the lesson (the classroom page over the in-page engine: a game clicked, its state
//! file read by `matchbox play`, its beads kept over a reload, one screen in every
//! language), and a reload with the server gone. Figures (site size, MENACE's time,
//! load time) are printed (`-- --nocapture`).
//!
//! Without a built site or a browser the tests are skipped with a message, except on CI
//! (`CI` set), where `.ci/run` builds the site first and a missing one is a failure.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, MutexGuard, PoisonError};

use serde_json::{Value, json};
use support::browser::{Browser, base64, browser_present};
use support::classroom::{Lcg, click_first_move, fits_one_screen, place, play_by_clicking};
use support::files::{FileServer, built_site};
use support::{matchbox, scratch};

/// One browser at a time: five at once on two cores would wait past the timeouts.
static ONE_BROWSER: Mutex<()> = Mutex::new(());

/// The built site, if it is there (and on CI it must be), and the browser to oneself.
fn site() -> Option<(PathBuf, MutexGuard<'static, ()>)> {
    let dist = built_site()?;
    let alone = ONE_BROWSER.lock().unwrap_or_else(PoisonError::into_inner);
    browser_present().then_some((dist, alone))
}

/// The page opened from a file server, ready.
fn open(name: &str, server: &FileServer) -> Browser {
    let browser = Browser::start(name);
    browser.open(&format!("{}/", server.base));
    browser
}

/// The JavaScript that turns bytes into base64 for the trip back through WebDriver.
const B64: &str = "const b64 = (bytes) => { let s = ''; for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000)); return btoa(s); };";

/// `matchbox.kit(yaml)` in the page: every file by name, or the error's message.
fn kit_in_page(browser: &Browser, yaml: &str) -> Result<Vec<(String, Vec<u8>)>, String> {
    let answer = browser.script_async(&format!(
        "const done = arguments[arguments.length - 1]; {B64}
         matchbox.kit({yaml}).then(
           (files) => done({{ files: Object.entries(files).map(([n, b]) => [n, b64(b)]) }}),
           (e) => done({{ error: e.message }}));",
        yaml = json!(yaml)
    ));
    match answer["error"].as_str() {
        Some(message) => Err(message.to_string()),
        None => Ok(answer["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                (
                    f[0].as_str().unwrap().to_string(),
                    base64(f[1].as_str().unwrap()),
                )
            })
            .collect()),
    }
}

/// `matchbox kit --kit kit.yaml` in a fresh folder: every file it wrote, by its path in
/// the kit's folder, or its stderr.
fn kit_native(what: &str, yaml: &str) -> Result<Vec<(String, Vec<u8>)>, String> {
    let dir = scratch(what);
    std::fs::write(dir.join("kit.yaml"), yaml).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_matchbox"))
        .current_dir(&dir)
        .args(["kit", "--kit", "kit.yaml", "--out", "kit"])
        .output()
        .unwrap();
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let mut files = Vec::new();
    for name in ["labels.pdf", "kit.pdf"] {
        files.push((
            name.to_string(),
            std::fs::read(dir.join("kit").join(name)).unwrap(),
        ));
    }
    if let Ok(previews) = std::fs::read_dir(dir.join("kit/previews")) {
        let mut names: Vec<_> = previews.map(|e| e.unwrap().file_name()).collect();
        names.sort();
        for name in names {
            let bytes = std::fs::read(dir.join("kit/previews").join(&name)).unwrap();
            files.push((format!("previews/{}", name.to_string_lossy()), bytes));
        }
    }
    Ok(files)
}

fn same_files(page: &[(String, Vec<u8>)], native: &[(String, Vec<u8>)], what: &str) {
    let names =
        |files: &[(String, Vec<u8>)]| files.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    let mut sorted = page.to_vec();
    sorted.sort();
    let mut expected = native.to_vec();
    expected.sort();
    assert_eq!(names(&sorted), names(&expected), "{what}: the same files");
    for ((name, bytes), (_, want)) in sorted.iter().zip(&expected) {
        assert!(
            bytes == want,
            "{what}: {name} differs from the native binary's ({} bytes, not {})",
            bytes.len(),
            want.len()
        );
    }
}

#[test]
fn the_page_makes_the_native_kits_byte_for_byte() {
    let Some((dist, _alone)) = site() else {
        return;
    };
    let size: u64 = std::fs::read_dir(&dist)
        .unwrap()
        .map(|e| e.unwrap().metadata().unwrap().len())
        .sum();
    println!("site: {size} bytes");
    assert!(size < 8_000_000, "the site is {size} bytes, over 8 MB");
    let server = FileServer::start(&dist);
    let browser = open("web-kits", &server);
    println!(
        "page ready after {} ms",
        browser.script("return document.body.dataset.readyMs;")
    );
    // MENACE's labels and pages, no previews: timed in a fresh page once it is idle.
    browser.wait("document.querySelectorAll('.card .picture[src]').length === document.querySelectorAll('.card .picture').length");
    let ms = browser.script_async(
        "const done = arguments[arguments.length - 1]; const t = performance.now();
         matchbox.kit('preset: menace\\npreviews: false\\n').then(() => done(performance.now() - t));",
    );
    println!(
        "MENACE kit (304 labels, no previews) in the page: {ms:.0} ms",
        ms = ms.as_f64().unwrap()
    );
    for preset in ["hexapawn", "menace", "bachet"] {
        for language in ["en", "pl"] {
            let yaml = format!("preset: {preset}\nlanguage: {language}\n");
            let what = format!("{preset} in {language}");
            let page = kit_in_page(&browser, &yaml).unwrap_or_else(|e| panic!("{what}: {e}"));
            let native = kit_native(&format!("web-{preset}-{language}"), &yaml).unwrap();
            same_files(&page, &native, &what);
        }
    }
}

#[test]
fn a_bad_kit_gets_the_clis_message_and_boxes_the_clis_json() {
    let Some((dist, _alone)) = site() else {
        return;
    };
    let server = FileServer::start(&dist);
    let browser = open("web-errors", &server);
    for (i, yaml) in [
        "preset: menace\nbeads: 0\n",
        "preset: bachet\nstones: 8\nheaps: [1, 2]\n",
        "game: hexapawn\nrows: [3\n",
        "preset: hexapawn\nlabel: L9999\n",
        "presett: menace\n",
    ]
    .iter()
    .enumerate()
    {
        let native = kit_native(&format!("web-bad-{i}"), yaml).unwrap_err();
        let page = kit_in_page(&browser, yaml).unwrap_err();
        assert_eq!(format!("matchbox: {page}\n"), native, "{yaml}");
        assert!(page.starts_with("kit.yaml:"), "{page}");
    }
    let dir = scratch("web-boxes");
    for preset in ["hexapawn", "marienbad", "menace-second"] {
        let out = Command::new(env!("CARGO_BIN_EXE_matchbox"))
            .current_dir(&dir)
            .args(["boxes", "--json", "--preset", preset])
            .output()
            .unwrap();
        let native: Value = serde_json::from_slice(&out.stdout).unwrap();
        let page = browser.script_async(&format!(
            "const done = arguments[arguments.length - 1]; matchbox.boxes('preset: {preset}\\n').then(done);"
        ));
        assert_eq!(page, native, "boxes of {preset}");
    }
}

/// Keeps what the page would save instead of saving it: file name -> base64.
const CAPTURE: &str = "window.saved = {}; const b64 = (bytes) => { let s = ''; for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000)); return btoa(s); };
  HTMLAnchorElement.prototype.click = function () {
    const name = this.download;
    fetch(this.href).then((r) => r.arrayBuffer()).then((b) => { window.saved[name] = b64(new Uint8Array(b)); });
  }; return 0;";

/// Types into a field as a person would, and waits for the page's next design or problem.
fn type_into(browser: &Browser, css: &str, text: &str) {
    redesigned(browser, || {
        let id = browser.find(css);
        browser.call("POST", &format!("/element/{id}/clear"), Some(json!({})));
        browser.call(
            "POST",
            &format!("/element/{id}/value"),
            Some(json!({ "text": text })),
        );
    });
}

/// Does `change` to the designer's form and waits until the page has answered it with a
/// new design or a new problem.
fn redesigned(browser: &Browser, change: impl FnOnce()) {
    let before = browser.script(
        "return [document.body.dataset.designs, document.body.dataset.problems].join('/');",
    );
    change();
    browser.wait(&format!(
        "[document.body.dataset.designs, document.body.dataset.problems].join('/') !== {before}"
    ));
}

fn saved(browser: &Browser, name: &str) -> Vec<u8> {
    browser.wait(&format!("window.saved[{}] !== undefined", json!(name)));
    base64(
        browser
            .script(&format!("return window.saved[{}];", json!(name)))
            .as_str()
            .unwrap(),
    )
}

#[test]
fn the_designer_shows_errors_at_their_field_and_downloads_the_kit() {
    let Some((dist, _alone)) = site() else {
        return;
    };
    let server = FileServer::start(&dist);
    let browser = open("web-designer", &server);
    browser.script(CAPTURE);
    let designs = browser
        .script("return Number(document.body.dataset.designs);")
        .as_u64()
        .unwrap();
    browser.click(".card[data-preset=bachet]");
    browser.wait(&format!(
        "Number(document.body.dataset.designs) > {designs}"
    ));
    assert_eq!(
        browser.script("return document.querySelectorAll('#boxes tbody tr').length;"),
        json!(7)
    );
    // A number's field has the engine's range as its bounds (the description's).
    assert_eq!(
        browser.script("const i = document.getElementById('input-stones'); return [i.min, i.max];"),
        json!(["1", "1000"])
    );

    // A wrong value: the engine's own words, at the field.
    type_into(&browser, "#input-stones", "0");
    assert!(
        browser.script(
            "return document.getElementById('field-stones').classList.contains('invalid');"
        ) == json!(true)
    );
    let at_field = browser.text("#error-stones");
    assert_eq!(at_field, "stones must be from 1 to 1000, not 0");
    // The kit's language follows the page's: the same mistake in its words, at the field.
    for (language, words) in [
        ("pl", "wartość musi wynosić od 1 do 1000, a nie 0"),
        ("ru", "значение должно быть от 1 до 1000, а не 0"),
        ("en", "stones must be from 1 to 1000, not 0"),
    ] {
        browser.click(&format!("[data-language={language}]"));
        browser.wait(&format!(
            "document.getElementById('error-stones').textContent === {}",
            json!(words)
        ));
    }

    // A right one: 9 stones, and the kit made from what the page says kit.yaml is (few
    // stones: kit.pdf's exact figures take seconds from 11 on, natively too).
    type_into(&browser, "#input-stones", "9");
    assert!(browser.script("return document.getElementById('problem').hidden;") == json!(true));
    browser.click("[data-file='kit.yaml']");
    let yaml = String::from_utf8(saved(&browser, "kit.yaml")).unwrap();
    assert!(yaml.contains("stones: 9\n"), "{yaml}");
    browser.click("[data-file='kit.pdf']");
    let pdf = saved(&browser, "kit.pdf");
    let native = kit_native("web-designer", &yaml).unwrap();
    assert!(
        pdf == native[1].1,
        "the designer's kit.pdf is the native one for its kit.yaml"
    );
    browser.click("[data-file='labels.pdf']");
    assert!(
        saved(&browser, "labels.pdf") == native[0].1,
        "the designer's labels.pdf (made without kit.pdf's figures) is the native one"
    );
    browser.click("[data-file='previews.zip']");
    let zip = saved(&browser, "previews.zip");
    assert!(zip.starts_with(b"PK\x03\x04"));
    for (name, png) in native.iter().filter(|(n, _)| n.starts_with("previews/")) {
        let name = &name["previews/".len()..];
        let at = zip
            .windows(name.len())
            .position(|w| w == name.as_bytes())
            .unwrap_or_else(|| panic!("{name} in the zip"));
        assert_eq!(
            &zip[at + name.len()..at + name.len() + png.len()],
            png.as_slice(),
            "{name} stored whole"
        );
    }

    // A label too small to read is said at the label at once, not when kit.pdf is
    // asked for.
    redesigned(&browser, || {
        browser.script(
            "const s = document.getElementById('input-label'); s.value = 'craft-small'; s.dispatchEvent(new Event('change'));",
        );
    });
    assert_eq!(
        browser.script("return document.getElementById('error-label').hidden;"),
        json!(false)
    );
    let at_label = browser.text("#error-label");
    assert!(
        at_label.starts_with("at 35 x 15 mm the letters"),
        "{at_label}"
    );
    // The page lists the label sizes itself: no pointer to a command.
    assert!(!at_label.contains("`matchbox"), "{at_label}");
    // The field says what to expect of a long pile.
    let hint = browser.text("#field-stones .hint");
    assert!(
        hint.starts_with("From 1 to 1,000.") && hint.contains("12"),
        "{hint}"
    );
    // The first free sticker goes up to the labels on one sheet, which the design says.
    let most = browser.script("return document.getElementById('input-start_at').max;");
    let most: u32 = most.as_str().unwrap().parse().unwrap();
    assert!(most > 1, "{most}");
}

#[test]
fn a_big_kit_is_made_with_progress_and_can_be_cancelled_while_the_page_goes_on() {
    let Some((dist, _alone)) = site() else {
        return;
    };
    let server = FileServer::start(&dist);
    let browser = open("web-making", &server);
    browser.script(CAPTURE);
    // The cards drawn first: the designs wait for none of them.
    browser.wait("document.querySelectorAll('.card .picture[src]').length === document.querySelectorAll('.card .picture').length");
    let designs = browser
        .script("return Number(document.body.dataset.designs);")
        .as_u64()
        .unwrap();
    browser.click(".card[data-preset=octapawn]");
    browser.wait(&format!(
        "Number(document.body.dataset.designs) > {designs}"
    ));
    // Octapawn's 2,791 labels and their pictures: the drawings are counted as they go.
    browser.click("[data-file='previews.zip']");
    browser.wait("document.getElementById('status-text').textContent.includes('of 2,791')");
    assert_eq!(
        browser.script("return document.getElementById('cancel').hidden;"),
        json!(false)
    );
    // Meanwhile the page shows the kit as it changes: another label; and Cancel stops
    // the kit. (Watched from inside the page: WebDriver's own calls are slow while both
    // cores draw, and the kit would be made before they are done.)
    let meanwhile = browser.script_async(
        "const done = arguments[arguments.length - 1];
         const before = Number(document.body.dataset.designs);
         const making = () => document.body.classList.contains('making');
         const stopped = () => making() ? setTimeout(stopped, 10) : done([true, document.getElementById('status-text').textContent]);
         const look = () => {
           if (Number(document.body.dataset.designs) === before) return setTimeout(look, 10);
           if (!making()) return done([false, 'made before the next label was shown']);
           document.getElementById('cancel').click();
           stopped();
         };
         document.getElementById('box-next').click();
         look();",
    );
    assert_eq!(
        meanwhile,
        json!([true, "Stopped: previews.zip was not made."]),
        "the label changed while the kit was being made, and Cancel stopped it"
    );
    assert_eq!(
        browser.script("return Object.keys(window.saved);"),
        json!([])
    );
    browser.click(".card[data-preset=bachet]");
    browser.click("[data-file='labels.pdf']");
    assert!(saved(&browser, "labels.pdf").starts_with(b"%PDF"));
}

#[test]
fn every_language_fits_both_screens() {
    let Some((dist, _alone)) = site() else {
        return;
    };
    let server = FileServer::start(&dist);
    let browser = open("web-screens", &server);
    for (width, height) in [(1280, 720), (1920, 1080)] {
        browser.resize(width, height);
        for language in ["en", "pl", "ru"] {
            let designs = browser
                .script("return Number(document.body.dataset.designs);")
                .as_u64()
                .unwrap();
            browser.click(&format!("[data-language={language}]"));
            browser.wait(&format!(
                "Number(document.body.dataset.designs) > {designs}"
            ));
            browser.wait("document.querySelectorAll('.card .picture[src]').length === document.querySelectorAll('.card .picture').length");
            assert_eq!(
                browser.script("return document.documentElement.lang;"),
                json!(language)
            );
            let wide = browser.script("return document.documentElement.scrollWidth <= innerWidth;");
            assert_eq!(
                wide,
                json!(true),
                "{language} at {width}x{height} runs off the side"
            );
            let cut = browser.script(
                "return [...document.querySelectorAll('.card')].filter((c) => c.scrollWidth > c.clientWidth).map((c) => c.textContent);",
            );
            assert_eq!(
                cut,
                json!([]),
                "{language} at {width}x{height}: a card's words run out of it"
            );
            // HER fits on one sheet: the word agrees with the number.
            let sheets = browser.script("return document.querySelector('#figures').textContent;");
            let one_sheet = [
                ("en", "1sheet of labels"),
                ("pl", "1arkusz z"),
                ("ru", "1лист с"),
            ];
            let want = one_sheet.iter().find(|(l, _)| *l == language).unwrap().1;
            assert!(
                sheets.as_str().unwrap().contains(want),
                "{language}: {sheets}"
            );
            browser.screenshot(&format!("web-designer-{language}-{width}x{height}"));
        }
    }
}

#[test]
fn the_page_works_again_with_the_server_gone() {
    let Some((dist, _alone)) = site() else {
        return;
    };
    let server = FileServer::start(&dist);
    let browser = open("web-offline", &server);
    let base = server.base.clone();
    let url = format!("{base}/");
    // The service worker keeps the site once it controls the page.
    browser.wait("navigator.serviceWorker.controller !== null");
    drop(server);
    browser.open(&url);
    let boxes = browser.script_async(
        "const done = arguments[arguments.length - 1]; matchbox.boxes('preset: hexapawn\\n').then((b) => done(b.boxes.length), (e) => done(e.message));",
    );
    assert_eq!(boxes, json!(19));
    // The lesson too.
    open_afresh(&browser, &lesson_url(&base, "preset: bachet\n"));
    assert_eq!(lesson_api(&browser, "GET", "/api/kit")["game"], "nim");
}

/// The lesson page of a kit, as the designer's link writes its address: `lesson.html#`
/// and kit.yaml's text.
fn lesson_url(base: &str, yaml: &str) -> String {
    let encoded: String = yaml
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect();
    format!("{base}/lesson.html#{encoded}")
}

/// Opens a page afresh (a page that differs only after its `#` would not load again).
fn open_afresh(browser: &Browser, url: &str) {
    browser.call("POST", "/url", Some(json!({ "url": "about:blank" })));
    browser.open(url);
}

/// The lesson page of `kit` served from `dist`, open in a browser named `name` at
/// 1280x720: the file server (kept while the page is used), the browser and the kit's
/// words.
fn lesson_at_1280x720(dist: &Path, name: &str, kit: &str) -> (FileServer, Browser, Value) {
    let server = FileServer::start(dist);
    let browser = Browser::start(name);
    browser.resize(1280, 720);
    open_afresh(&browser, &lesson_url(&server.base, kit));
    let words = lesson_api(&browser, "GET", "/api/kit")["words"].clone();
    (server, browser, words)
}

/// A request of the lesson page's, through its transport: the answer's JSON.
fn lesson_api(browser: &Browser, method: &str, path: &str) -> Value {
    browser.script_async(&format!(
        "const done = arguments[arguments.length - 1]; matchbox.api({}, {}).then(done, (e) => done({{ refused: e.message }}));",
        json!(method),
        json!(path)
    ))
}

/// `matchbox play` on a state file: `games` games of HER from a pipe, the first move
/// listed each time; its status and stderr.
fn play_on(dir: &Path, kit: &str, state: &Path, games: usize) -> (Option<i32>, String) {
    use std::io::Write;
    std::fs::write(dir.join("kit.yaml"), kit).unwrap();
    let mut child = matchbox()
        .args(["play", "--seed", "1", "--kit"])
        .arg(dir.join("kit.yaml"))
        .arg("--state")
        .arg(state)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut moves = "1\n".repeat(8);
    for _ in 1..games {
        moves.push_str("y\n");
        moves.push_str(&"1\n".repeat(8));
    }
    moves.push_str("n\n");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(moves.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Chooses a file in the lesson's "Open a beads file".
fn choose_file(browser: &Browser, path: &Path) {
    let input = browser.find("#import");
    browser.call(
        "POST",
        &format!("/element/{input}/value"),
        Some(json!({ "text": path.to_str().unwrap() })),
    );
}

/// The error the page shows, in the page's words: never the command line's flags.
fn page_error(browser: &Browser, starts: &str, ends: &str) {
    let shown = browser.text("#error-text");
    assert!(
        shown.starts_with(starts) && shown.ends_with(ends),
        "{shown}"
    );
    assert!(!shown.contains("--"), "no command-line flags: {shown}");
}

/// Games the state file says the beads have played.
fn games_in(state: &Path) -> Value {
    let file: Value = serde_json::from_str(&std::fs::read_to_string(state).unwrap()).unwrap();
    file["games"].clone()
}

#[test]
fn a_lesson_clicked_in_the_page_keeps_its_beads_and_play_reads_its_file() {
    let Some((dist, _alone)) = site() else {
        return;
    };
    let server = FileServer::start(&dist);
    let browser = open("web-lesson", &server);
    // From the designer: the lesson of the kit on the screen.
    let designs = browser
        .script("return Number(document.body.dataset.designs);")
        .as_u64()
        .unwrap();
    browser.click(".card[data-preset=hexapawn]");
    browser.wait(&format!(
        "Number(document.body.dataset.designs) > {designs}"
    ));
    let link = browser.script("return document.getElementById('lesson').href;");
    let link = link.as_str().unwrap();
    assert!(
        link.starts_with(&format!("{}/lesson.html#", server.base)),
        "{link}"
    );
    browser.open(link);
    let kit = browser.script("return decodeURIComponent(location.hash.slice(1));");
    let kit = kit.as_str().unwrap().to_string();
    assert!(kit.contains("preset: hexapawn"), "{kit}");
    assert_eq!(lesson_api(&browser, "GET", "/api/kit")["game"], "hexapawn");

    // A game clicked on the board, as in the classroom.
    let game = || lesson_api(&browser, "GET", "/api/game");
    let finished = play_by_clicking(&browser, &game, &mut Lcg(5));
    assert!(finished["end"].is_string(), "{finished}");
    let score = lesson_api(&browser, "GET", "/api/score");
    assert_eq!(score["games"], 1);
    let boxes = lesson_api(&browser, "GET", "/api/boxes");

    // Its beads as the state file, which `matchbox play --state` goes on with.
    browser.script(CAPTURE);
    browser.click("#tab-train");
    browser.click("#export");
    let exported = saved(&browser, "state.json");
    let dir = scratch("web-lesson");
    let state = dir.join("state.json");
    std::fs::write(&state, &exported).unwrap();
    assert_eq!(games_in(&state), 1);
    let (status, stderr) = play_on(&dir, &kit, &state, 1);
    assert_eq!(status, Some(0), "{stderr}");
    assert_eq!(games_in(&state), 2, "play went on from the page's game");

    // Kept in the browser: a reload finds the same beads and score.
    browser.call("POST", "/refresh", Some(json!({})));
    browser.wait("document.body.dataset.ready === 'yes'");
    assert_eq!(lesson_api(&browser, "GET", "/api/boxes"), boxes);
    assert_eq!(lesson_api(&browser, "GET", "/api/score")["games"], 1);

    // The file play wrote, opened in the page: its two games.
    choose_file(&browser, &state);
    browser.wait("document.getElementById('totals').textContent.includes('2')");
    assert_eq!(lesson_api(&browser, "GET", "/api/score")["games"], 2);
    // A file of another kit is refused at once, and the beads stay.
    let bachet = dir.join("bachet.json");
    let (status, stderr) = play_on(&dir, "preset: bachet\n", &bachet, 1);
    assert_eq!(status, Some(0), "{stderr}");
    choose_file(&browser, &bachet);
    browser.wait("!document.getElementById('error').hidden");
    page_error(
        &browser,
        "bachet.json holds the beads of another kit",
        "It was not opened: the beads on the screen stay as they are.",
    );
    assert_eq!(lesson_api(&browser, "GET", "/api/score")["games"], 2);
    // One changed by hand: the page asks, and opens it when told to, with a note.
    let text = std::fs::read_to_string(&state).unwrap();
    let edited = dir.join("edited.json");
    std::fs::write(
        &edited,
        text.replacen("\"checksum\": \"crc32:", "\"checksum\": \"crc32:0", 1),
    )
    .unwrap();
    browser.click("#error-close");
    choose_file(&browser, &edited);
    browser.wait("!document.getElementById('error-action').hidden");
    page_error(
        &browser,
        "edited.json was changed by hand since matchbox saved it",
        "Open it anyway?",
    );
    browser.click("#error-action");
    browser.wait("document.getElementById('error').classList.contains('note')");
    assert_eq!(
        browser.text("#error-text"),
        "edited.json was opened as it is, although it was changed by hand."
    );
    assert_eq!(lesson_api(&browser, "GET", "/api/score")["games"], 2);
    // The file opened is what the browser keeps now.
    browser.call("POST", "/refresh", Some(json!({})));
    browser.wait("document.body.dataset.ready === 'yes'");
    assert_eq!(lesson_api(&browser, "GET", "/api/score")["games"], 2);
}

#[test]
fn the_lesson_is_one_screen_in_every_language_at_both_sizes() {
    let Some((dist, _alone)) = site() else {
        return;
    };
    let server = FileServer::start(&dist);
    let browser = Browser::start("web-lesson-screens");
    for language in ["en", "pl", "ru"] {
        let kit = format!("preset: menace\nlanguage: {language}\n");
        browser.resize(1280, 720);
        open_afresh(&browser, &lesson_url(&server.base, &kit));
        assert_eq!(
            browser.script("return document.documentElement.lang;"),
            json!(language)
        );
        // The way back to the designer, in the bar.
        let designer = browser.script(
            "const a = document.getElementById('designer'); return [a.hidden, a.getAttribute('href'), a.textContent];",
        );
        assert_eq!(designer[0], json!(false), "{designer}");
        assert_eq!(designer[1], json!("index.html"), "{designer}");
        let game = || lesson_api(&browser, "GET", "/api/game");
        click_first_move(&browser, &game);
        for (width, height) in [(1280, 720), (1920, 1080)] {
            let what = format!("lesson menace {language}");
            fits_one_screen(&browser, width, height, &what);
            browser.screenshot(&format!("web-lesson-{language}-{width}x{height}"));
        }
        while game()["end"].is_null() {
            click_first_move(&browser, &game);
        }
        for (width, height) in [(1920, 1080), (1280, 720)] {
            fits_one_screen(
                &browser,
                width,
                height,
                &format!("lesson menace {language} end"),
            );
            let end = place(&browser, "#end");
            assert!(end[1] <= f64::from(height), "{end:?}");
            browser.screenshot(&format!("web-lesson-{language}-end-{width}x{height}"));
        }
        // The machine's panel, with the beads' file buttons, fits too.
        browser.click("#tab-train");
        if language == "en" {
            // Training in the page's worker, for performance.md.
            let ms = browser.script_async(
                "const done = arguments[arguments.length - 1]; const t = performance.now();
                 const look = () => matchbox.api('GET', '/api/train').then((p) => p.running ? setTimeout(look, 20) : done(performance.now() - t));
                 matchbox.api('POST', '/api/train', { games: 100000, opponent: 'random' }).then(look);",
            );
            println!(
                "100,000 MENACE training games in the page: {:.0} ms",
                ms.as_f64().unwrap()
            );
            assert_eq!(lesson_api(&browser, "GET", "/api/score")["games"], 100_001);
            // Watching goes on at its pace while the page looks, until stopped.
            let watched = browser.script_async(
                "const done = arguments[arguments.length - 1];
                 const look = () => matchbox.api('GET', '/api/train').then((p) => p.done >= 20
                   ? matchbox.api('POST', '/api/train/cancel').then(() => done(p)) : setTimeout(look, 50));
                 matchbox.api('POST', '/api/watch', { opponent: 'random', pace: 6 }).then(look);",
            );
            assert_eq!(watched["watching"], true, "{watched}");
            browser.wait("document.getElementById('watch-start').hidden === false");
            let games = lesson_api(&browser, "GET", "/api/score")["games"]
                .as_u64()
                .unwrap();
            assert!(games >= 100_021, "{games}");
        }
        for (width, height) in [(1280, 720), (1920, 1080)] {
            browser.resize(width, height);
            let fits = browser.script(
                "const p = document.getElementById('panel-train');
                 return [p.scrollHeight <= p.clientHeight, document.documentElement.scrollHeight <= innerHeight,
                         document.documentElement.scrollWidth <= innerWidth, !document.getElementById('import-button').hidden];",
            );
            browser.screenshot(&format!("web-lesson-{language}-train-{width}x{height}"));
            assert_eq!(
                fits,
                json!([true, true, true, true]),
                "{language} at {width}x{height}"
            );
        }
        browser.click("#tab-game");
    }
}

/// Fills the browser's storage for the page's site to the last byte, with entries named
/// `other…`, as other kits' beads would.
fn fill_storage(browser: &Browser) {
    let filled = browser.script(
        "let n = 0, full = null;
         for (const size of [100000, 1000, 10]) {
           for (;;) {
             try { localStorage.setItem('other' + n, 'x'.repeat(size)); n += 1; } catch (e) { full = e.name; break; }
           }
         }
         return full;",
    );
    assert_eq!(filled, json!("QuotaExceededError"));
}

#[test]
fn a_full_browser_storage_is_said_in_the_kits_language_until_the_beads_are_kept() {
    let Some((dist, _alone)) = site() else {
        return;
    };
    let (_server, browser, words) =
        lesson_at_1280x720(&dist, "web-storage", "preset: menace\nlanguage: pl\n");
    // The browser's storage filled up by something else (other kits' beads).
    fill_storage(&browser);
    let game = || lesson_api(&browser, "GET", "/api/game");
    let mut rng = Lcg(3);
    play_by_clicking(&browser, &game, &mut rng);
    browser.wait("!document.getElementById('unsaved').hidden");
    assert_eq!(
        json!(browser.text("#unsaved")),
        words["page.save.browser"],
        "said in the kit's language"
    );
    // The picture first, so that a screen that does not fit can be looked at.
    browser.screenshot("web-lesson-storage-full");
    fits_one_screen(&browser, 1280, 720, "lesson with the storage full");
    // It stays through the next action, and goes when the beads are kept again.
    browser.click_and_wait("#new-game");
    assert_eq!(
        browser.script("return document.getElementById('unsaved').hidden;"),
        json!(false)
    );
    browser.script(
        "Object.keys(localStorage).filter((k) => k.startsWith('other')).forEach((k) => localStorage.removeItem(k)); return 0;",
    );
    play_by_clicking(&browser, &game, &mut rng);
    browser.wait("document.getElementById('unsaved').hidden");
    let kept = browser.script(
        "return JSON.parse(localStorage.getItem('matchbox-beads:' + decodeURIComponent(location.hash.slice(1)))).games;",
    );
    assert_eq!(kept, json!(2));
}

#[test]
fn a_browser_that_keeps_nothing_is_told_apart_from_a_full_one() {
    let Some((dist, _alone)) = site() else {
        return;
    };
    let (_server, browser, words) = lesson_at_1280x720(
        &dist,
        "web-storage-blocked",
        "preset: hexapawn\nlanguage: ru\n",
    );
    // As a browser that blocks site data answers every write.
    browser.script(
        "Storage.prototype.setItem = function () { throw new DOMException('The operation is insecure.', 'SecurityError'); }; return 0;",
    );
    let game = || lesson_api(&browser, "GET", "/api/game");
    play_by_clicking(&browser, &game, &mut Lcg(5));
    browser.wait("!document.getElementById('unsaved').hidden");
    assert_eq!(
        json!(browser.text("#unsaved")),
        words["page.save.browser_blocked"],
        "blocked, not full, in the kit's language"
    );
    assert_ne!(
        words["page.save.browser_blocked"],
        words["page.save.browser"]
    );
    fits_one_screen(&browser, 1280, 720, "lesson with the storage blocked");
    browser.screenshot("web-lesson-storage-blocked");
}

/// The folders of the pages' own files, which the engine describes every game, rule and
/// range to: the designer's (and the static site's lesson transport), and the classroom
/// screen's, which is the static site's lesson too.
const PAGE_FOLDERS: &[&str] = &["web/src", "crates/serve/src/assets"];

/// Every page file (HTML, JavaScript, CSS) in the page folders, by its path.
fn page_files() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for folder in PAGE_FOLDERS {
        for entry in std::fs::read_dir(root.join(folder)).unwrap() {
            let path = entry.unwrap().path();
            if path
                .extension()
                .is_some_and(|e| ["html", "js", "css"].contains(&e.to_str().unwrap()))
            {
                let text = std::fs::read_to_string(&path).unwrap();
                files.push((
                    format!("{folder}/{}", path.file_name().unwrap().display()),
                    text,
                ));
            }
        }
    }
    files.sort();
    files
}

/// Whether `text` holds `word` whole: not inside a longer name (`nim` in `animation`).
fn holds_word(text: &str, word: &str) -> bool {
    let part = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(part) && !after.is_some_and(part)
    })
}

#[test]
fn no_page_names_a_game_preset_rule_game_key_or_range() {
    use matchbox_engine::game::GAMES;
    use matchbox_engine::kit::{describe_keys, presets};
    use matchbox_engine::rule::Rule;
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("web/src");
    let every_game = GAMES.len();
    let mut names: Vec<String> = GAMES.iter().map(|g| g.name.to_string()).collect();
    names.extend(presets().map(|p| p.name.to_string()));
    names.extend(Rule::ALL.map(|r| r.name().to_string()));
    // A game's own keys: a page that names one, as a string or a property (`'rows'`,
    // `rows:`), has a form written for that game; the English words (the rows of a
    // table) may stand in its prose and code.
    let own_keys: Vec<String> = describe_keys()
        .into_iter()
        .filter(|k| k.games.len() < every_game)
        .flat_map(|k| {
            let key = k.name;
            [
                format!("'{key}'"),
                format!("\"{key}\""),
                format!("`{key}`"),
                format!("{key}:"),
            ]
        })
        .collect();
    assert!(
        names.len() > every_game && !own_keys.is_empty(),
        "{names:?}"
    );
    let files = page_files();
    assert!(
        files.len() > 10,
        "{:?}",
        files.iter().map(|f| &f.0).collect::<Vec<_>>()
    );
    let mut found = Vec::new();
    for (file, text) in &files {
        for name in &names {
            if holds_word(text, name) {
                found.push(format!("{file}: {name}"));
            }
        }
        for key in &own_keys {
            if holds_word(text, key) || text.contains(&format!("{{ {key}")) {
                found.push(format!("{file}: {key}"));
            }
        }
        // A range is the engine's to check: no bounds and no limits of its own.
        for bound in ["min:", "max:", "MAX_", "MIN_", "min=", "max="] {
            if text.contains(bound) {
                found.push(format!("{file}: {bound}"));
            }
        }
    }
    assert_eq!(found, Vec::<String>::new(), "the page names these itself");
    assert!(
        !src.join("words.js").exists(),
        "the page's words are the engine's (templates/*/strings.yaml)"
    );
}

/// Clicks a preset's card and waits for its design.
fn choose_preset(browser: &Browser, preset: &str) {
    redesigned(browser, || {
        browser.click(&format!(".card[data-preset='{preset}']"))
    });
}

/// Presses a key (WebDriver's code for it) on the element that has the focus.
fn press(browser: &Browser, key: char) {
    let active = browser.call("GET", "/element/active", None);
    let id = active
        .as_object()
        .unwrap()
        .values()
        .next()
        .unwrap()
        .as_str()
        .unwrap()
        .to_string();
    browser.call(
        "POST",
        &format!("/element/{id}/value"),
        Some(json!({ "text": key.to_string() })),
    );
}

#[test]
fn the_designer_has_no_accessibility_violation_in_any_state() {
    let Some((dist, _alone)) = site() else {
        return;
    };
    let server = FileServer::start(&dist);
    let browser = open("web-designer-axe", &server);
    browser.script(CAPTURE);
    let clean = |state: &str| {
        let violations = browser.axe_violations();
        assert_eq!(
            violations,
            Vec::<Value>::new(),
            "axe-core on the designer, {state}"
        );
    };
    clean("at the start");
    let presets: Vec<String> = serde_json::from_value(browser.script(
        "return [...document.querySelectorAll('.card[data-preset]')].map((c) => c.dataset.preset);",
    ))
    .unwrap();
    assert!(presets.len() >= 8, "{presets:?}");
    for preset in &presets {
        choose_preset(&browser, preset);
        clean(&format!("with {preset}"));
    }
    // Every checkbox and every field has words a screen reader says.
    let unnamed = browser.script(
        "return [...document.querySelectorAll('#form input, #form select')].filter((c) => !c.labels.length && !c.getAttribute('aria-label') && !c.getAttribute('aria-labelledby')).map((c) => c.id || c.outerHTML);",
    );
    assert_eq!(unnamed, json!([]));
    let bare = browser.script(
        "return [...document.querySelectorAll('#form input[type=checkbox]')].filter((c) => !c.labels[0] || !c.labels[0].textContent.trim()).map((c) => c.id);",
    );
    assert_eq!(bare, json!([]), "a checkbox with no words");

    // An error at its field: said there, and kit.pdf greyed while the kit cannot be made.
    choose_preset(&browser, "bachet");
    type_into(&browser, "#input-stones", "0");
    assert_eq!(
        browser.text("#error-stones"),
        "stones must be from 1 to 1000, not 0"
    );
    assert_eq!(
        browser.script("return document.querySelector('[data-file=\"kit.pdf\"]').disabled;"),
        json!(true)
    );
    clean("with a mistake at a field");
    type_into(&browser, "#input-stones", "5");
    assert_eq!(
        browser.script("return document.querySelector('[data-file=\"kit.pdf\"]').disabled;"),
        json!(false)
    );
    browser.click("[data-file='labels.pdf']");
    assert!(saved(&browser, "labels.pdf").starts_with(b"%PDF"));
    browser.wait("!document.body.classList.contains('making')");
    clean("with a download made");

    // In Polish: sticker sizes to 0.1 mm with a decimal comma, the colours' names and
    // the aria-labels in the page's words.
    redesigned(&browser, || browser.click("[data-language=pl]"));
    let sheets = browser.script(
        "return [...document.querySelectorAll('#input-label option')].map((o) => o.textContent).join(' | ');",
    );
    let sheets = sheets.as_str().unwrap();
    assert!(sheets.contains("63,5 × 38,1 mm"), "{sheets}");
    assert!(!sheets.contains("38.09"), "{sheets}");
    let colours = browser
        .script("return [...document.querySelectorAll('.colour-name')].map((i) => i.value);");
    assert_eq!(colours[0], json!("czerwony"), "{colours}");
    assert_eq!(
        browser.script("return document.getElementById('languages').getAttribute('aria-label');"),
        json!("Język strony")
    );
    clean("in Polish");
    browser.screenshot("web-designer-pl-axe");
}

#[test]
fn the_skip_link_takes_the_keyboard_from_the_cards_to_the_downloads() {
    let Some((dist, _alone)) = site() else {
        return;
    };
    let server = FileServer::start(&dist);
    let browser = open("web-designer-skip", &server);
    // From the page's top, the first Tab reaches the skip link (after the languages).
    browser.script("document.querySelector('.skip').focus(); return 0;");
    assert!(
        browser.script("return document.activeElement.getBoundingClientRect().width > 0;")
            == json!(true),
        "the skip link is seen when it has the focus"
    );
    press(&browser, '\u{E007}');
    press(&browser, '\u{E004}');
    assert_eq!(
        browser.script(
            "return document.activeElement.dataset.file || document.activeElement.outerHTML;"
        ),
        json!("kit.pdf"),
        "Enter on the skip link, then Tab: kit.pdf"
    );
    // And its focus is seen: an outline of its own.
    let outline = browser.script("return getComputedStyle(document.activeElement).outlineStyle;");
    assert_ne!(outline, json!("none"));
}

#[test]
fn the_designer_starts_and_works_with_the_browsers_storage_full() {
    let Some((dist, _alone)) = site() else {
        return;
    };
    let server = FileServer::start(&dist);
    let browser = open("web-designer-storage", &server);
    assert_eq!(
        browser.script("return document.getElementById('storage').hidden;"),
        json!(true),
        "nothing said while the browser keeps the choices"
    );
    // The storage filled up by something else, then the page opened again in Russian.
    browser.script("localStorage.clear(); return 0;");
    fill_storage(&browser);
    browser.open(&format!("{}/", server.base));
    redesigned(&browser, || browser.click("[data-language=ru]"));
    browser.wait("!document.getElementById('storage').hidden");
    let said = browser.text("#storage");
    assert!(
        said.contains("kit.yaml") && said.contains("браузер"),
        "{said}"
    );
    // It works all the same.
    choose_preset(&browser, "bachet");
    assert_eq!(
        browser.script("return document.querySelectorAll('#boxes tbody tr').length;"),
        json!(7)
    );
    browser.screenshot("web-designer-storage-full");
}

#[test]
fn both_pages_install_as_an_app() {
    let Some((dist, _alone)) = site() else {
        return;
    };
    let server = FileServer::start(&dist);
    let browser = open("web-install", &server);
    let lesson = lesson_url(&server.base, "preset: hexapawn\n");
    for page in [format!("{}/", server.base), lesson] {
        open_afresh(&browser, &page);
        // Chromium's own verdict: what stops the page installing (manifest, icons,
        // start address), as its install button would see it.
        let answer = browser.call(
            "POST",
            "/goog/cdp/execute",
            Some(json!({"cmd": "Page.getInstallabilityErrors", "params": {}})),
        );
        assert_eq!(
            answer["installabilityErrors"],
            json!([]),
            "{page}: {answer}"
        );
    }
}

#[test]
fn a_new_version_waits_until_the_page_says_so_and_reload_puts_it_in_place() {
    let Some((dist, _alone)) = site() else {
        return;
    };
    // A copy of the site, so that a new version can be put on its server.
    let copy = scratch("web-update");
    for entry in std::fs::read_dir(&dist).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, copy.join(path.file_name().unwrap())).unwrap();
    }
    let server = FileServer::start(&copy);
    let browser = open("web-update", &server);
    browser.wait("navigator.serviceWorker.controller !== null");
    let first = browser.script("return navigator.serviceWorker.controller.scriptURL;");
    assert!(
        browser
            .script("return document.getElementById('matchbox-update') === null;")
            .as_bool()
            .unwrap(),
        "the first visit has nothing to replace"
    );
    // The next version: another service worker (build.sh changes it with any file).
    let sw = copy.join("sw.js");
    let text = std::fs::read_to_string(&sw).unwrap();
    std::fs::write(&sw, text.replacen("matchbox-", "matchbox-next-", 1)).unwrap();
    browser.script("navigator.serviceWorker.getRegistration().then((r) => r.update()); return 0;");
    browser.wait("document.getElementById('matchbox-update') !== null");
    // In the page's words, from the word store (templates/en/strings.yaml).
    assert_eq!(
        browser.script("return document.getElementById('matchbox-update').textContent;"),
        "A new version of matchbox is ready.Reload"
    );
    // The page keeps the old version until told.
    assert_eq!(
        browser.script("return navigator.serviceWorker.controller.scriptURL;"),
        first
    );
    browser.script("window.beforeReload = true; return 0;");
    browser.click("#matchbox-update button");
    browser.wait("window.beforeReload === undefined && document.body.dataset.ready === 'yes'");
    browser.wait("navigator.serviceWorker.controller !== null");
    let cache = browser
        .script_async("const done = arguments[arguments.length - 1]; caches.keys().then(done);");
    assert!(
        cache
            .as_array()
            .unwrap()
            .iter()
            .all(|name| name.as_str().unwrap().starts_with("matchbox-next-")),
        "the old version's cache is gone: {cache}"
    );
}
