//! The classroom screen's machine in the browser: the lesson page (`matchbox serve`'s
//! own page) sends the very requests it sends the server, and the classroom
//! ([`matchbox_classroom`]) answers them alike. The beads are handed back as the state
//! file's text whenever the classroom keeps them (after every game), for the page to
//! keep in the browser's storage; the page's worker calls [`step`] while a run goes on.

use std::cell::RefCell;
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use matchbox_classroom::{Body, Lesson, Request, Store};
use matchbox_engine::Error;
use matchbox_engine::i18n::{id, strings};
use matchbox_engine::kit::Kit;
use matchbox_engine::simulate::state::{Refusal, Refused};

use crate::{Part, read_kit};

/// The name the state file has in messages (a file the teacher opens, or the one the
/// browser kept).
pub const STATE_FILE: &str = "state.json";

/// The state file's latest text, until the page takes it.
#[derive(Default)]
struct Kept(Mutex<Option<String>>);

impl Store for Kept {
    fn save(&self, text: &str) -> Result<(), Error> {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = Some(text.to_string());
        Ok(())
    }

    fn name(&self) -> Option<String> {
        None
    }
}

/// The lesson open in this page.
struct Open {
    lesson: Arc<dyn Lesson>,
    kept: Arc<Kept>,
}

impl Open {
    /// The state file's text to keep, as a part, if the classroom saved since it was
    /// last taken.
    fn kept(&self) -> Option<Part> {
        let text = self
            .kept
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        text.map(|t| (STATE_FILE.into(), t.into_bytes()))
    }
}

thread_local! {
    static OPEN: RefCell<Option<Open>> = const { RefCell::new(None) };
}

/// The page's time, in the host's clock (`performance.now()`); natively, since the
/// first look (for the tests).
fn now() -> Duration {
    #[cfg(target_arch = "wasm32")]
    {
        unsafe extern "C" {
            /// `performance.now()`, in milliseconds: the worker gives it to the module.
            fn matchbox_now() -> f64;
        }
        // SAFETY: the import takes nothing and gives a number.
        Duration::from_secs_f64(unsafe { matchbox_now() }.max(0.0) / 1000.0)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
        START.get_or_init(std::time::Instant::now).elapsed()
    }
}

/// Opens the lesson for a kit, with the beads of a state file (its name and text) if
/// given. The answer's JSON: `notes`, what the server would tell the terminal (the
/// file's own settings); or, for a file of another kit, a damaged one or one changed
/// by hand (unless `accept_edited`), `refused` (why, in the kit's language and the
/// page's terms) and `edited` (whether opening it anyway would do), and the lesson
/// open before stays.
pub fn open(
    yaml: &str,
    state: Option<(&str, &str)>,
    seed: u64,
    accept_edited: bool,
) -> Result<Vec<Part>, Error> {
    let kit = read_kit(yaml)?;
    let kept = Arc::new(Kept::default());
    let opened = matchbox_classroom::open(
        &kit,
        matchbox_classroom::Options {
            rule: None,
            seed,
            store: Some(Arc::clone(&kept) as Arc<dyn Store>),
            state: state.map(|(name, text)| (Path::new(name), Ok(text.as_bytes().to_vec()))),
            accept_edited_state: accept_edited,
        },
    );
    let (lesson, notes) = match opened {
        Err(Error::StateFile(refused)) => {
            let edited = matches!(refused.why, Refusal::Edited(_));
            return Ok(vec![crate::json_part(&serde_json::json!({
                "refused": refusal(&kit, &refused),
                "edited": edited,
            }))?]);
        }
        other => other?,
    };
    OPEN.with_borrow_mut(|open| {
        // The run of the lesson before ends with it.
        if let Some(before) = open.take() {
            let _ = before.lesson.close(&now);
        }
        *open = Some(Open { lesson, kept });
    });
    Ok(vec![crate::json_part(
        &serde_json::json!({ "notes": notes }),
    )?])
}

/// Why a state file is refused, in the kit's language and in the page's terms: where
/// the command line names its flags, the page offers a button (see [`open`]).
fn refusal(kit: &Kit, refused: &Refused) -> String {
    let words = strings(kit.language);
    let file = refused.file.as_str();
    match &refused.why {
        Refusal::Foreign { kit: theirs, .. } => {
            words.fill(id::PAGE_FILE_FOREIGN, &[("file", file), ("kit", theirs)])
        }
        Refusal::Edited(impossible) => {
            let why = impossible.as_ref().map_or_else(String::new, |count| {
                // A rule that adds beads is held to what the file's games can add.
                let key = if count.most == u64::from(count.start) {
                    id::PAGE_FILE_IMPOSSIBLE
                } else {
                    id::PAGE_FILE_IMPOSSIBLE_AFTER
                };
                words.fill(
                    key,
                    &[
                        ("box", &count.box_id.to_string()),
                        ("colour", &words.colour_name(&count.colour)),
                        ("beads", &count.beads.to_string()),
                        ("start", &count.start.to_string()),
                        ("most", &count.most.to_string()),
                        ("games", &count.games.to_string()),
                    ],
                )
            });
            words.fill(id::PAGE_FILE_EDITED, &[("file", file), ("why", &why)])
        }
        // Damaged, of another layout, settings that cannot make this machine (the page
        // asks for no rule of its own, so no other refusal arises here).
        _ => words.fill(id::PAGE_FILE_UNREADABLE, &[("file", file)]),
    }
}

/// The lesson open, or the page's mistake of asking before opening one.
fn with_open<T>(work: impl FnOnce(&Open) -> Result<T, Error>) -> Result<T, Error> {
    OPEN.with_borrow(|open| match open {
        Some(open) => work(open),
        None => Err(Error::Internal(
            "the page asked the lesson before opening it".into(),
        )),
    })
}

/// One of the page's requests, answered as the server answers it: its status, its
/// JSON, and the state file's text if the beads were kept meanwhile.
pub fn request(method: &str, path: &str, body: &str) -> Result<Vec<Part>, Error> {
    with_open(|open| {
        let reply = open.lesson.handle(&Request {
            method,
            path,
            body: Body::Read(body.as_bytes()),
            // The page in this browser is the teacher's: nobody else reaches it.
            teacher: true,
        });
        let mut parts = vec![
            ("status".into(), reply.status.to_string().into_bytes()),
            ("json".into(), reply.json.into_bytes()),
        ];
        parts.extend(open.kept());
        Ok(parts)
    })
}

/// Goes on with the run under way: `next`, the milliseconds until the worker should
/// call again, while one is; and the state file's text if the beads were kept.
pub fn step() -> Result<Vec<Part>, Error> {
    with_open(|open| {
        let next = open.lesson.step(&now)?;
        let mut parts: Vec<Part> = open.kept().into_iter().collect();
        if let Some(wait) = next {
            parts.push(("next".into(), wait.as_millis().to_string().into_bytes()));
        }
        Ok(parts)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn part<'p>(parts: &'p [Part], name: &str) -> Option<&'p str> {
        parts
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, b)| std::str::from_utf8(b).unwrap())
    }

    fn ask(method: &str, path: &str, body: &str) -> (Vec<Part>, u16, Value) {
        let parts = request(method, path, body).unwrap();
        let status = part(&parts, "status").unwrap().parse().unwrap();
        let json = serde_json::from_str(part(&parts, "json").unwrap()).unwrap();
        (parts, status, json)
    }

    #[test]
    fn a_lesson_in_the_page_keeps_its_beads_and_opens_them_again() {
        let kit = "preset: bachet\n";
        open(kit, None, 3, false).unwrap();
        // A game by hand: every game's end hands the page the state file to keep.
        let mut kept = None;
        loop {
            let (_, _, game) = ask("GET", "/api/game", "");
            if !game["end"].is_null() {
                break;
            }
            let mv = game["moves"][0]["move"].to_string();
            let (parts, status, _) = ask("POST", "/api/game/move", &format!("{{\"move\": {mv}}}"));
            assert_eq!(status, 200);
            kept = part(&parts, STATE_FILE).map(str::to_string).or(kept);
        }
        let kept = kept.expect("the finished game's beads are handed back");
        assert!(kept.contains("matchbox-state"), "{kept}");
        // Training goes on in steps until the worker is told to stop calling.
        let (_, status, _) = ask(
            "POST",
            "/api/train",
            r#"{"games": 30, "opponent": "random"}"#,
        );
        assert_eq!(status, 200);
        let mut trained = None;
        loop {
            let parts = step().unwrap();
            trained = part(&parts, STATE_FILE).map(str::to_string).or(trained);
            if part(&parts, "next").is_none() {
                break;
            }
        }
        let (_, _, score) = ask("GET", "/api/score", "");
        assert_eq!(score["games"], 31);
        // Opened again from what the page kept: the same beads and score.
        let trained = trained.expect("the run's beads are handed back");
        let (_, _, boxes) = ask("GET", "/api/boxes", "");
        open(kit, Some((STATE_FILE, &trained)), 4, false).unwrap();
        assert_eq!(ask("GET", "/api/boxes", "").2, boxes);
        assert_eq!(ask("GET", "/api/score", "").2["games"], 31);
        // A file of another kit is refused in the page's words, and the lesson open
        // stays.
        let refused = |parts: Vec<Part>| -> Value {
            serde_json::from_str(part(&parts, "json").unwrap()).unwrap()
        };
        let other = refused(
            open(
                "preset: hexapawn\n",
                Some(("beads.json", &trained)),
                4,
                false,
            )
            .unwrap(),
        );
        let message = other["refused"].as_str().unwrap();
        assert!(
            message.starts_with("beads.json holds the beads of another kit"),
            "{other}"
        );
        assert!(!message.contains("--"), "no flags in the page: {message}");
        assert_eq!(other["edited"], false);
        assert_eq!(ask("GET", "/api/score", "").2["games"], 31);
        // One changed by hand is refused until the teacher opens it all the same.
        let edited = trained.replacen("\"checksum\": \"crc32:", "\"checksum\": \"crc32:0", 1);
        assert_ne!(edited, trained);
        let asked = refused(open(kit, Some(("beads.json", &edited)), 4, false).unwrap());
        assert_eq!(asked["edited"], true, "{asked}");
        let message = asked["refused"].as_str().unwrap();
        assert!(
            message.starts_with("beads.json was changed by hand"),
            "{message}"
        );
        assert!(!message.contains("--"), "no flags in the page: {message}");
        let opened = refused(open(kit, Some(("beads.json", &edited)), 4, true).unwrap());
        assert!(opened["refused"].is_null(), "{opened}");
        assert_eq!(ask("GET", "/api/score", "").2["games"], 31);
        // The server's own refusals, in the kit's language.
        let (_, status, refused) = ask("POST", "/api/game/move", "{}");
        assert_eq!(status, 400);
        assert!(
            refused["error"].as_str().unwrap().contains("JSON"),
            "{refused}"
        );
    }
}
