//! The engine of matchbox in the browser: the static site's pages (web/) send their
//! requests here, built for WebAssembly. Each request is one JSON object naming a
//! command; each answer is a list of named parts (a JSON text, a PDF, a PNG), so that
//! files cross as bytes, not as text. The same kit gives the same bytes as the native
//! `matchbox kit`: both call [`matchbox_print::make::make_files`]. The lesson page's
//! requests are the classroom's ([`lesson`]), answered as `matchbox serve` answers them.
//!
//! The interface is four plain functions ([`abi`]) rather than a binding generator: the
//! page needs a handful of calls, and the build needs nothing but cargo. The module
//! imports two functions: `env.matchbox_now` (the page's clock, `performance.now()`) and
//! `env.matchbox_progress` (how far a kit is, for the page's progress bar).

#![warn(missing_docs)]

pub mod abi;
pub mod lesson;
pub mod problem;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde::Deserialize;
use serde_json::{Value, json};

use matchbox_engine::Error;
use matchbox_engine::boxes::{BoxSet, boxes_json};
use matchbox_engine::game::GAMES;
use matchbox_engine::i18n::{Language, strings};
use matchbox_engine::kit::{KeyDescription, Kit, describe_keys, presets};
use matchbox_engine::media::{LABEL_SIZES, STICKER_SHEETS};
use matchbox_engine::palette::default_palette;
use matchbox_engine::rule::Rule;
use matchbox_print::draw::png::to_png;
use matchbox_print::instructions::{Findings, TemplateContext};
use matchbox_print::label::{TagSize, draw_label};
use matchbox_print::make::{
    DEFAULT_DPI, LabelSheets, Progress, legible, make_files_telling, previews,
};
use matchbox_print::pictures::Game;

/// The name a kit's text has in messages: what the CLI shows for `--kit kit.yaml`, so
/// that a bad kit gives the page the CLI's very words.
pub const KIT_FILE: &str = "kit.yaml";

/// One named piece of an answer.
pub type Part = (String, Vec<u8>);

/// What the page asks.
#[derive(Debug, Deserialize)]
#[serde(tag = "command", rename_all = "kebab-case")]
pub enum Request {
    /// The choices the kit designer offers: games, presets, label sizes, sticker sheets.
    Catalogue,
    /// A kit's settings, figures and boxes, and one of its labels as a PNG.
    Design {
        /// kit.yaml's text.
        yaml: String,
        /// The box whose label is drawn, counted from 0 in the box list.
        #[serde(default, rename = "box")]
        box_index: usize,
        /// The label's resolution.
        dpi: f32,
    },
    /// The kit's files, as `matchbox kit` writes them.
    Kit {
        /// kit.yaml's text.
        yaml: String,
        /// Whether to draw the previews; the kit's own `previews` when left out (the
        /// designer's PDFs need none).
        previews: Option<bool>,
    },
    /// labels.pdf and, if asked for and the kit has them, the previews: the very bytes
    /// of [`Request::Kit`]'s, without the figures of kit.pdf, which take minutes for
    /// some kits (Bachet's game from about a dozen stones).
    Labels {
        /// kit.yaml's text.
        yaml: String,
        /// Whether to draw the previews.
        previews: bool,
    },
    /// The box list, as `matchbox boxes --json` prints it.
    Boxes {
        /// kit.yaml's text.
        yaml: String,
    },
    /// Opens the lesson for a kit (see [`lesson::open`]).
    Lesson {
        /// kit.yaml's text.
        yaml: String,
        /// The state file's text to start from; fresh boxes without.
        state: Option<String>,
        /// The state file's name in messages; [`lesson::STATE_FILE`] without.
        name: Option<String>,
        /// Seed of the machine's draws.
        seed: u64,
        /// Read a state file changed by hand all the same (the teacher said so).
        #[serde(default)]
        accept_edited: bool,
    },
    /// One of the classroom page's requests (see [`lesson::request`]).
    Api {
        /// `GET` or `POST`.
        method: String,
        /// Such as `/api/game`.
        path: String,
        /// The JSON body, if any.
        #[serde(default)]
        body: String,
    },
    /// Goes on with the lesson's training or watching (see [`lesson::step`]).
    Step,
}

/// Reads a kit's text as the CLI reads `--kit kit.yaml`.
pub(crate) fn read_kit(yaml: &str) -> Result<Kit, Error> {
    Kit::from_bytes(
        yaml.as_bytes().to_vec(),
        KIT_FILE,
        matchbox_engine::i18n::Language::En,
    )
}

/// A JSON value as the one part of an answer.
pub(crate) fn json_part(value: &Value) -> Result<Part, Error> {
    Ok(("json".into(), serde_json::to_vec(value)?))
}

/// Answers one request.
pub fn answer(request: &[u8]) -> Result<Vec<Part>, Error> {
    let request: Request = serde_json::from_slice(request).map_err(|e| {
        Error::Internal(format!(
            "the page sent a request the engine cannot read: {e}"
        ))
    })?;
    match request {
        Request::Catalogue => Ok(vec![json_part(&catalogue())?]),
        Request::Design {
            yaml,
            box_index,
            dpi,
        } => {
            let kit = read_kit(&yaml)?;
            matchbox_engine::with_game!(&kit.game, |game| design(game, &kit, &yaml, box_index, dpi))
        }
        Request::Kit { yaml, previews } => {
            let kit = read_kit(&yaml)?;
            // As `matchbox kit` at its default resolution.
            let previews = previews.unwrap_or(kit.previews) && kit.previews;
            let files =
                make_files_telling(&kit, previews.then_some(DEFAULT_DPI), &Telling::default())?;
            let mut parts = vec![
                ("labels.pdf".to_string(), files.labels_pdf),
                ("kit.pdf".to_string(), files.kit_pdf),
            ];
            parts.extend(
                files
                    .previews
                    .into_iter()
                    .map(|(name, png)| (format!("previews/{name}"), png)),
            );
            Ok(parts)
        }
        Request::Labels { yaml, previews } => {
            let kit = read_kit(&yaml)?;
            let dpi = (previews && kit.previews).then_some(DEFAULT_DPI);
            matchbox_engine::with_game!(&kit.game, |game| labels(game, &kit, dpi))
        }
        Request::Boxes { yaml } => {
            let kit = read_kit(&yaml)?;
            let value = matchbox_engine::with_game!(&kit.game, |game| {
                BoxSet::build(game, &kit).map(|set| boxes_json(game, &kit, &set))
            })?;
            // The CLI's very text: pretty, with its closing newline.
            let text = serde_json::to_string_pretty(&value)? + "\n";
            Ok(vec![("boxes.json".into(), text.into_bytes())])
        }
        Request::Lesson {
            yaml,
            state,
            name,
            seed,
            accept_edited,
        } => {
            let name = name.as_deref().unwrap_or(lesson::STATE_FILE);
            let state = state.as_deref().map(|text| (name, text));
            lesson::open(&yaml, state, seed, accept_edited)
        }
        Request::Api { method, path, body } => lesson::request(&method, &path, &body),
        Request::Step => lesson::step(),
    }
}

/// The kit's text a request carries, if it carries one: for its problems' keys.
pub fn request_yaml(request: &[u8]) -> Option<String> {
    #[derive(Deserialize)]
    struct WithYaml {
        yaml: Option<String>,
    }
    serde_json::from_slice::<WithYaml>(request).ok()?.yaml
}

/// The page's own words in every language: the designer's (`designer.*` of the strings,
/// without the prefix) but those of the `described` keys, which their description
/// carries; the colours' names (`colour.*`); and the words both pages show
/// (`page.update.*`, engine.js's new-version bar, which the lesson has with its own).
fn words(described: &[KeyDescription]) -> Value {
    let of_a_key = |name: &str| {
        name.strip_prefix("field.").is_some_and(|field| {
            let key = field.strip_suffix(".hint").unwrap_or(field);
            described.iter().any(|k| k.name == key)
        })
    };
    let by_language: serde_json::Map<String, Value> = Language::ALL
        .iter()
        .map(|&language| {
            let words = strings(language);
            let said: serde_json::Map<String, Value> = words
                .entries()
                .filter_map(|(key, text)| {
                    let name = key
                        .strip_prefix("designer.")
                        .or(["colour.", "page.update."]
                            .iter()
                            .any(|shared| key.starts_with(shared))
                            .then_some(key))?;
                    (!of_a_key(name)).then(|| (name.to_string(), Value::from(text)))
                })
                .collect();
            (language.code().to_string(), Value::Object(said))
        })
        .collect();
    Value::Object(by_language)
}

/// The choices of the kit designer: games and presets, every key a kit can take
/// ([`describe_keys`]), label sizes and sticker sheets, and the page's words.
fn catalogue() -> Value {
    let games: Vec<Value> = GAMES
        .iter()
        .map(|g| {
            json!({
                "name": g.name,
                "presets": g.presets.iter().map(|p| json!({"name": p.name, "about": p.about})).collect::<Vec<_>>(),
            })
        })
        .collect();
    let labels: Vec<Value> = LABEL_SIZES
        .iter()
        .map(|(name, size)| json!({"name": name, "width_mm": size.width_mm, "height_mm": size.height_mm}))
        .collect();
    let keys = describe_keys();
    json!({
        "games": games,
        "presets": presets().map(|p| p.name).collect::<Vec<_>>(),
        "labels": labels,
        "stickers": STICKER_SHEETS,
        "rules": Rule::ALL.map(Rule::name),
        "languages": Language::ALL.map(Language::code),
        "palette": default_palette(),
        "words": words(&keys),
        "keys": keys,
    })
}

/// [`Request::Design`] for the kit's game.
fn design<G: Game>(
    game: &G,
    kit: &Kit,
    yaml: &str,
    box_index: usize,
    dpi: f32,
) -> Result<Vec<Part>, Error> {
    if !(dpi.is_finite() && (36.0..=1200.0).contains(&dpi)) {
        return Err(Error::Internal(format!("label resolution {dpi} dpi")));
    }
    let set = BoxSet::build(game, kit)?;
    set.check_label_count(kit)?;
    // Letters too small to read are refused as the kit is made, from every label
    // drawn; up to a thousand labels that is quick, so the designer says it at once.
    let tags = TagSize::of(game, kit, &set);
    if set.boxes.len() <= LEGIBLE_AT_ONCE {
        let labels: Vec<_> = set
            .boxes
            .iter()
            .map(|b| Arc::new(draw_label(game, kit, tags, b)))
            .collect();
        legible(kit, &set, &labels)?;
    }
    let figures = TemplateContext::new(game, kit, &set, &Findings::default());
    let summary = set.summary(kit);
    // The colours in the figures' order, as their beads are printed.
    let rgb: Vec<String> = summary
        .colours
        .iter()
        .map(|c| kit.palette[c.colour].hex())
        .collect();
    let settings: serde_json::Map<String, Value> = kit
        .settings()
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    let value = json!({
        "settings": settings,
        "warnings": kit
            .warnings
            .iter()
            .map(|w| problem::problem_json(w, Some(yaml)))
            .collect::<Vec<_>>(),
        "figures": figures,
        "colour_rgb": rgb,
        "label_mm": [kit.label.width_mm, kit.label.height_mm],
        // The figure a key's `bound` names (`KitBound::LabelsPerSheet`).
        "labels_per_sheet": kit.labels_per_sheet(),
        "boxes": boxes_json(game, kit, &set),
    });
    let mut parts = vec![json_part(&value)?];
    if let Some(b) = set.boxes.get(box_index) {
        parts.push((
            "label.png".into(),
            to_png(&draw_label(game, kit, tags, b), dpi)?,
        ));
    }
    Ok(parts)
}

/// The most labels [`Request::Design`] draws to check that their letters can be read.
const LEGIBLE_AT_ONCE: usize = 1000;

/// [`Request::Labels`] for the kit's game: the first half of `matchbox kit`.
fn labels<G: Game>(game: &G, kit: &Kit, dpi: Option<f32>) -> Result<Vec<Part>, Error> {
    let telling = Telling::default();
    let set = BoxSet::build(game, kit)?;
    set.check_label_count(kit)?;
    telling.boxes_found(set.boxes.len(), dpi.is_some());
    let sheets = LabelSheets::draw(game, kit, &set, &telling);
    legible(kit, &set, &sheets.labels)?;
    let mut parts = vec![("labels.pdf".to_string(), sheets.pdf(kit)?)];
    parts.extend(
        previews(&sheets.labels, &set, dpi, &telling)?
            .into_iter()
            .map(|(name, png)| (format!("previews/{name}"), png)),
    );
    Ok(parts)
}

/// Tells the page how far a kit is: the labels and previews drawn of all there are
/// (kit.pdf's figures and pages come after them, untold).
#[derive(Default)]
struct Telling {
    total: AtomicUsize,
    done: AtomicUsize,
}

impl Progress for Telling {
    fn boxes_found(&self, labels: usize, previews: bool) {
        let total = labels * if previews { 2 } else { 1 };
        self.total.store(total, Ordering::Relaxed);
        tell_progress(0, total);
    }

    fn step(&self) {
        let done = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        tell_progress(done, self.total.load(Ordering::Relaxed));
    }
}

/// Hands the page's worker the progress (`env.matchbox_progress`); natively, nothing.
fn tell_progress(done: usize, total: usize) {
    #[cfg(target_arch = "wasm32")]
    {
        unsafe extern "C" {
            /// The worker passes it on to the page.
            fn matchbox_progress(done: u32, total: u32);
        }
        // SAFETY: the import takes two numbers and gives nothing.
        unsafe { matchbox_progress(done as u32, total as u32) }
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (done, total);
}

/// The parts as one buffer: for each, the length of its name (4 bytes, little-endian),
/// the name, the length of its bytes, the bytes.
pub fn frame(parts: &[Part]) -> Vec<u8> {
    let mut out = Vec::with_capacity(parts.iter().map(|(n, b)| 8 + n.len() + b.len()).sum());
    for (name, bytes) in parts {
        for piece in [name.as_bytes(), bytes] {
            out.extend_from_slice(&(piece.len() as u32).to_le_bytes());
            out.extend_from_slice(piece);
        }
    }
    out
}
