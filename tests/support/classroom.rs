//! The classroom page's checks, shared by the server's browser tests and the static
//! site's lesson (the same page over two transports): a game played by clicking the
//! board, and the game on one screen.

use serde_json::{Value, json};

use super::browser::Browser;

/// A small generator for the class's choice of moves, so runs repeat.
pub struct Lcg(pub u64);

impl Lcg {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// Clicks the spots of a move (one of the game's `moves`), then waits for the page to
/// show the machine's answer.
fn click_move(browser: &Browser, mv: &Value) {
    let before = browser.version();
    for spot in mv["spots"].as_array().unwrap() {
        let key = format!(
            "{},{}",
            spot[0].as_f64().unwrap(),
            spot[1].as_f64().unwrap()
        );
        browser.click(&format!("rect.spot[data-spot=\"{key}\"]"));
    }
    browser.wait(&format!("Number(document.body.dataset.version) > {before}"));
}

/// Plays one game by clicking the board's spots, a random legal move each turn; `game`
/// is the game in progress as the API gives it. Returns the finished game.
pub fn play_by_clicking(browser: &Browser, game: &dyn Fn() -> Value, rng: &mut Lcg) -> Value {
    loop {
        let now = game();
        if !now["end"].is_null() {
            return now;
        }
        let moves = now["moves"].as_array().unwrap();
        let chosen = &moves[rng.below(moves.len())];
        click_move(browser, chosen);
        let mine = &game()["turns"][now["ply"].as_u64().unwrap() as usize];
        assert_eq!(
            mine["move"], chosen["move"],
            "the clicks played the move chosen"
        );
    }
}

/// Clicks the first legal move of `game` (as [`play_by_clicking`] takes it).
pub fn click_first_move(browser: &Browser, game: &dyn Fn() -> Value) {
    click_move(browser, &game()["moves"][0]);
}

/// Where an element is in the viewport: `[top, bottom, left, right]`.
pub fn place(browser: &Browser, css: &str) -> Vec<f64> {
    let found = browser.script(&format!(
        "const r = document.querySelector('{css}').getBoundingClientRect(); return [r.top, r.bottom, r.left, r.right];"
    ));
    found
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect()
}

/// The page at `width` x `height`: nothing scrolls, nothing spills out of its box, and
/// the bead drawn is in view; prints where it is.
pub fn fits_one_screen(browser: &Browser, width: u32, height: u32, what: &str) {
    browser.resize(width, height);
    browser.wait("document.getElementById('drawn') !== null");
    let page = browser.script(
        "const d = document.documentElement; return [d.scrollWidth, d.scrollHeight, document.body.scrollHeight];",
    );
    let drawn = place(browser, "#drawn");
    // Every panel of the game and every step keeps its text inside it.
    let spills = browser.script(
        "return [...document.querySelectorAll('#bar, .step, .end, .stuck, .under-board, .turns-box, .watch-strip')]
            .filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)
            .map(e => e.className || e.id);",
    );
    eprintln!(
        "{what} at {width}x{height}: page {}x{} px, the bead drawn at y {:.0}-{:.0}",
        page[0], page[1], drawn[0], drawn[1]
    );
    assert!(page[0].as_u64() <= Some(u64::from(width)), "{what}: {page}");
    assert!(
        page[1].as_u64() <= Some(u64::from(height)),
        "{what}: {page}"
    );
    assert!(
        drawn[0] >= 0.0 && drawn[1] <= f64::from(height),
        "{what}: {drawn:?}"
    );
    assert_eq!(spills, json!([]), "{what}");
    // Nor below the screen's edge or out of its step: the page never scrolls, so what
    // runs off is cut off.
    let cut = browser.script(
        "return [...document.querySelectorAll('#bar, #banners, .step, .end, .stuck, .under-board, #moves button, .turns-box, .watch-strip, #drawn')]
            .filter(e => e.offsetParent !== null)
            .filter(e => e.getBoundingClientRect().bottom > innerHeight + 0.5
                || e.classList.contains('step') && e.scrollHeight > e.clientHeight + 1)
            .map(e => e.id || e.className);",
    );
    assert_eq!(cut, json!([]), "{what}: cut off at the bottom");
    // Large type: the bead drawn is read from the back of the room.
    let size = browser
        .script("return parseFloat(getComputedStyle(document.getElementById('drawn')).fontSize);");
    assert!(
        size.as_f64().unwrap() >= 0.035 * f64::from(height),
        "{what}: {size}px"
    );
}
