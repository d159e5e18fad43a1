//! The kit: what a teacher writes in kit.yaml, the built-in presets, and validation that
//! points at the file, line and column of every mistake.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, DeserializeOwned, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_saphyr::{Location, Spanned};

use crate::Error;
use crate::game::{AnyGame, GAMES, Side};
use crate::media::{LABEL_SIZES, LabelSize, Paper, STICKER_SHEETS, StickerSheet, sticker_sheet};
use crate::palette::{self, Colour};

/// The learning rule applied after each game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rule {
    /// Gardner: on a loss remove the bead of the last move.
    Gardner,
    /// Gardner, and on a win add a bead of each move used.
    GardnerReward,
    /// Michie: beads added or taken in every box used, by the result.
    Menace,
    /// The relay automaton: fixed order of moves, losing moves unwired.
    Relay,
}

impl Rule {
    /// Every rule, in the order the help lists them.
    pub const ALL: [Rule; 4] = [
        Rule::Gardner,
        Rule::GardnerReward,
        Rule::Menace,
        Rule::Relay,
    ];

    /// The kit.yaml name.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Gardner => "gardner",
            Rule::GardnerReward => "gardner-reward",
            Rule::Menace => "menace",
            Rule::Relay => "relay",
        }
    }
}

/// Beads added (or taken, if negative) per box used, by the game's result (`menace` rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct Reward {
    /// After a win.
    pub win: i32,
    /// After a draw.
    pub draw: i32,
    /// After a loss.
    pub loss: i32,
}

/// The most beads a fresh box holds for one move.
pub const MAX_START_BEADS: u32 = 100;

/// The most beads a result may add or (negative) take per box used.
pub const MAX_REWARD: i32 = 100;

impl Reward {
    /// The results, by their names in kit.yaml.
    pub const RESULTS: [&'static str; 3] = ["win", "draw", "loss"];

    /// The beads for the result named `which` (one of [`Reward::RESULTS`]).
    pub fn get(&self, which: &str) -> i32 {
        match which {
            "win" => self.win,
            "draw" => self.draw,
            _ => self.loss,
        }
    }

    /// The first result whose beads are beyond [`MAX_REWARD`] either way.
    pub fn out_of_range(&self) -> Option<&'static str> {
        Reward::RESULTS
            .into_iter()
            .find(|which| !(-MAX_REWARD..=MAX_REWARD).contains(&self.get(which)))
    }
}

impl Default for Reward {
    fn default() -> Reward {
        Reward {
            win: 3,
            draw: 1,
            loss: -1,
        }
    }
}

/// The language of every word printed in the kit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    /// English.
    En,
    /// Polish.
    Pl,
    /// Russian.
    Ru,
}

impl Language {
    /// Every language, in order.
    pub const ALL: [Language; 3] = [Language::En, Language::Pl, Language::Ru];

    /// The two-letter code.
    pub fn code(self) -> &'static str {
        match self {
            Language::En => "en",
            Language::Pl => "pl",
            Language::Ru => "ru",
        }
    }
}

/// What the tag under each label counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tags {
    /// Move numbers of the whole game (Gardner's labels: 2, 4, 6).
    GameMove,
    /// Which of the machine's own moves it is (the Bachet article: I, II–III).
    MachineMove,
}

/// How the tags are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Numerals {
    /// 1, 2, 3.
    Arabic,
    /// I, II, III.
    Roman,
}

/// What `label:` names: a label size cut from plain paper, or a sticker sheet.
#[derive(Clone, Copy, Debug, PartialEq)]
enum LabelChoice {
    /// Labels of this size, printed edge to edge and cut apart.
    Cut(LabelSize),
    /// A die-cut sheet of self-adhesive labels; `paper` of a custom sheet is the kit's.
    Sticker(StickerSheet),
}

/// The fields of a label size or a custom sticker sheet in kit.yaml.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LabelFields {
    width_mm: f32,
    height_mm: f32,
    across: Option<u32>,
    down: Option<u32>,
    left_mm: Option<f32>,
    top_mm: Option<f32>,
    pitch_x_mm: Option<f32>,
    pitch_y_mm: Option<f32>,
    corner_mm: Option<f32>,
}

impl<'de> Deserialize<'de> for LabelChoice {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct LabelVisitor;
        impl<'de> Visitor<'de> for LabelVisitor {
            type Value = LabelChoice;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a label size (`matchbox`, `craft-small`), a sticker sheet (`L7160`, `5160`, ...: see `matchbox labels`), {width_mm, height_mm}, or a custom sticker sheet")
            }
            fn visit_str<E: de::Error>(self, name: &str) -> Result<LabelChoice, E> {
                if let Some((_, size)) = LABEL_SIZES.iter().find(|(n, _)| *n == name) {
                    return Ok(LabelChoice::Cut(*size));
                }
                sticker_sheet(name).map(LabelChoice::Sticker).ok_or_else(|| {
                    let codes: Vec<&str> = STICKER_SHEETS.iter().map(|s| s.code).collect();
                    E::custom(format!(
                        "unknown label `{name}`: use matchbox (52 x 36 mm), craft-small (35 x 15 mm), a sticker sheet ({}), or {{width_mm, height_mm}}",
                        codes.join(", ")
                    ))
                })
            }
            fn visit_u64<E: de::Error>(self, code: u64) -> Result<LabelChoice, E> {
                // Avery's US codes are plain numbers: `label: 5160`.
                self.visit_str(&code.to_string())
            }
            fn visit_i64<E: de::Error>(self, code: i64) -> Result<LabelChoice, E> {
                self.visit_str(&code.to_string())
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<LabelChoice, A::Error> {
                let f = LabelFields::deserialize(de::value::MapAccessDeserializer::new(map))?;
                let label = LabelSize {
                    width_mm: f.width_mm,
                    height_mm: f.height_mm,
                };
                let (Some(across), Some(down)) = (f.across, f.down) else {
                    return match (f.across, f.down, f.left_mm, f.top_mm) {
                        (None, None, None, None) => Ok(LabelChoice::Cut(label)),
                        _ => Err(de::Error::custom(
                            "a custom sticker sheet needs across, down, left_mm and top_mm (pitch_x_mm, pitch_y_mm and corner_mm are optional)",
                        )),
                    };
                };
                let (Some(left_mm), Some(top_mm)) = (f.left_mm, f.top_mm) else {
                    return Err(de::Error::custom(
                        "a custom sticker sheet needs left_mm and top_mm: where the first label's corner is",
                    ));
                };
                Ok(LabelChoice::Sticker(StickerSheet {
                    code: "custom",
                    paper: Paper::A4,
                    label,
                    across,
                    down,
                    left_mm,
                    top_mm,
                    pitch_x_mm: f.pitch_x_mm.unwrap_or(label.width_mm),
                    pitch_y_mm: f.pitch_y_mm.unwrap_or(label.height_mm),
                    corner_mm: f.corner_mm.unwrap_or(0.0),
                }))
            }
        }
        deserializer.deserialize_any(LabelVisitor)
    }
}

/// How many beads go in a box for each of its moves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum BeadSchedule {
    /// The same number in every box.
    Each(u32),
    /// By the earliest move number at which the box's position can arise; a move number
    /// not listed takes the value of the last listed one before it.
    ByMoveNumber(BTreeMap<u32, u32>),
}

impl BeadSchedule {
    /// Beads per move in a box whose earliest move number is `move_number`.
    pub fn beads_at(&self, move_number: u32) -> Option<u32> {
        match self {
            BeadSchedule::Each(n) => Some(*n),
            BeadSchedule::ByMoveNumber(map) => {
                map.range(..=move_number).next_back().map(|(_, n)| *n)
            }
        }
    }
}

impl<'de> Deserialize<'de> for BeadSchedule {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct BeadsVisitor;
        impl<'de> Visitor<'de> for BeadsVisitor {
            type Value = BeadSchedule;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number of beads per move, or a map from move number to beads per move, e.g. {1: 4, 3: 3, 5: 2, 7: 1}")
            }
            // Custom errors keep the value's place (serde's invalid_value gets the key's).
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<BeadSchedule, E> {
                u32::try_from(n)
                    .map(BeadSchedule::Each)
                    .map_err(|_| E::custom(beads_expected(n)))
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<BeadSchedule, E> {
                u64::try_from(n)
                    .map_err(|_| E::custom(beads_expected(n)))
                    .and_then(|n| self.visit_u64(n))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<BeadSchedule, A::Error> {
                let mut out = BTreeMap::new();
                while let Some((k, v)) = map.next_entry::<u32, u32>()? {
                    out.insert(k, v);
                }
                Ok(BeadSchedule::ByMoveNumber(out))
            }
        }
        deserializer.deserialize_any(BeadsVisitor)
    }
}

/// What `beads:` takes, and the number found instead.
fn beads_expected(n: impl fmt::Display) -> String {
    format!(
        "expected {}, found `{n}`",
        allowed("beads").unwrap_or_else(|| "a number of beads".into())
    )
}

/// One colour of a palette in kit.yaml.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PaletteEntry {
    name: String,
    rgb: String,
}

/// A complete, checked kit: everything the other stages need.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Kit {
    /// Printed at the top of every sheet.
    pub name: String,
    /// The game and its settings.
    pub game: AnyGame,
    /// Which side the matchboxes play.
    pub machine: Side,
    /// Merge positions under the board's symmetries.
    pub symmetry: bool,
    /// Leave out positions where the machine has one legal move.
    pub skip_forced: bool,
    /// Beads per move in each box.
    pub beads: BeadSchedule,
    /// Bead colours, handed out in order.
    pub palette: Vec<Colour>,
    /// The learning rule.
    pub rule: Rule,
    /// Beads per result under the `menace` rule.
    pub reward: Reward,
    /// Language of the printed words.
    pub language: Language,
    /// Paper size.
    pub paper: Paper,
    /// Label size, edge to edge (a sticker's die-cut size).
    pub label: LabelSize,
    /// The sticker sheet the labels are printed on, or `None` for plain paper cut apart.
    pub stickers: Option<StickerSheet>,
    /// The first label slot of the first sheet to print on (1 = the first), so that a
    /// part-used sheet of stickers can be used up.
    pub start_at: u32,
    /// A coloured edge on each label, one colour and pattern per move number.
    pub move_colours: bool,
    /// What the tag under each label counts.
    pub tags: Tags,
    /// How tags are written.
    pub numerals: Numerals,
    /// Print the starting beads per colour on each label.
    pub show_beads: bool,
    /// Write a PNG preview of every label.
    pub previews: bool,
    /// Where the kit file gives each key, for checks made after reading.
    #[serde(skip)]
    pub places: Places,
    /// What the kit file overrides in its preset that the user should know of, a line
    /// each with its place; shown on stderr, never an error.
    #[serde(skip)]
    pub warnings: Vec<String>,
}

/// Where a kit file gives each key: later checks (the boxes, the palette, the labels)
/// point their errors at the setting that caused them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Places {
    source: String,
    keys: BTreeMap<&'static str, Location>,
}

impl Places {
    /// Whether the kit file itself gives `key` (not its preset, not a default).
    pub fn gives(&self, key: &str) -> bool {
        self.keys.contains_key(key)
    }

    /// An input error pointing at the first of `keys` that the kit file gives; without
    /// a place when it gives none (a preset, a default).
    pub fn error(&self, keys: &[&str], message: impl fmt::Display) -> Error {
        match keys.iter().find_map(|k| self.keys.get(k)) {
            Some(loc) => located(&self.source, loc, message),
            None => Error::Input(message.to_string()),
        }
    }
}

/// A preset: its name, one line about it, and its kit.yaml text.
pub struct Preset {
    /// Name for `--preset` and `preset:`.
    pub name: &'static str,
    /// One line for `matchbox presets`.
    pub about: &'static str,
    /// The settings, as kit.yaml.
    pub yaml: &'static str,
}

/// Every game's presets, in the order `matchbox presets` lists them.
pub fn presets() -> impl Iterator<Item = &'static Preset> {
    GAMES.iter().flat_map(|game| game.presets.iter())
}

/// A part of kit.yaml read with the place of every key: the kit's own keys, or one
/// game's (see [`settings_file!`]).
pub trait SettingsFile: DeserializeOwned + Default {
    /// Its keys, in the order of the struct.
    const KEYS: &'static [&'static str];
    /// The fields of `top`, and of `self` where `top` leaves them out.
    fn overlay(self, top: Self) -> Self;
    /// Where each key given in the file is written.
    fn places(&self) -> BTreeMap<&'static str, Location>;
}

/// Declares a part of kit.yaml once: a struct with every field optional and with its
/// place, and how a file overrides a preset.
macro_rules! settings_file {
    ($(#[$meta:meta])* $vis:vis $name:ident { $($field:ident: $ty:ty),* $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Default, serde::Deserialize)]
        $vis struct $name {
            $(
                #[doc = concat!("`", stringify!($field), "`, where it is written.")]
                #[serde(default)]
                $vis $field: Option<serde_saphyr::Spanned<$ty>>,
            )*
        }

        impl $crate::kit::SettingsFile for $name {
            const KEYS: &'static [&'static str] = &[$(stringify!($field)),*];

            fn overlay(self, top: $name) -> $name {
                $name { $($field: top.$field.or(self.$field),)* }
            }

            fn places(&self) -> std::collections::BTreeMap<&'static str, serde_saphyr::Location> {
                let mut places = std::collections::BTreeMap::new();
                $(if let Some(f) = &self.$field {
                    places.insert(stringify!($field), f.referenced);
                })*
                places
            }
        }
    };
}
pub(crate) use settings_file;

settings_file! {
    /// kit.yaml's own keys as written (each game reads its own keys beside them).
    KitFile {
        preset: String,
        name: String,
        game: String,
        machine: Side,
        symmetry: bool,
        skip_forced: bool,
        beads: BeadSchedule,
        palette: Vec<PaletteEntry>,
        rule: Rule,
        reward: Reward,
        language: Language,
        paper: Paper,
        label: LabelChoice,
        start_at: i64,
        move_colours: bool,
        tags: Tags,
        numerals: Numerals,
        show_beads: bool,
        previews: bool,
    }
}

/// The keys of a kit file, each with its place and the place of its value, in order.
struct TopKeys(Vec<(Spanned<String>, Location)>);

impl<'de> Deserialize<'de> for TopKeys {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Keys;
        impl<'de> Visitor<'de> for Keys {
            type Value = TopKeys;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list of `key: value` settings")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<TopKeys, A::Error> {
                let mut keys = Vec::new();
                while let Some(key) = map.next_key::<Spanned<String>>()? {
                    let value: Spanned<IgnoredAny> = map.next_value()?;
                    keys.push((key, value.referenced));
                }
                Ok(TopKeys(keys))
            }
        }
        deserializer.deserialize_map(Keys)
    }
}

/// The kit's text as a game reads its own keys from it: a preset's text (when the file
/// keeps the preset's game), then the file's, with the file's places for errors.
pub struct KitText<'a> {
    src: &'a Source<'a>,
    layers: Vec<&'a str>,
    places: &'a Places,
}

impl KitText<'_> {
    /// The keys of `F` as the file and its preset give them, the file's over the preset's.
    pub fn settings<F: SettingsFile>(&self) -> Result<F, Error> {
        let mut merged = F::default();
        for layer in &self.layers {
            merged = merged.overlay(self.src.parse(layer)?);
        }
        Ok(merged)
    }

    /// Where the kit file gives its keys.
    pub fn places(&self) -> &Places {
        self.places
    }

    /// An input error pointing at a value of the kit.
    pub fn at<T>(&self, spanned: &Spanned<T>, message: impl fmt::Display) -> Error {
        self.src.at(spanned, message)
    }

    /// A whole number of the kit, checked to be from `low` to `high`.
    pub fn ranged<T: TryFrom<i64>>(
        &self,
        value: &Spanned<i64>,
        what: &str,
        low: i64,
        high: i64,
    ) -> Result<T, Error> {
        ranged(self.src, value, what, low, high)
    }

    /// An input error pointing at the first of `keys` that the file gives.
    pub fn error(&self, keys: &[&str], message: impl fmt::Display) -> Error {
        self.places.error(keys, message)
    }
}

/// Where a kit's text came from, for error messages.
pub struct Source<'a> {
    name: &'a str,
}

impl Source<'_> {
    /// An input error pointing at a place in the kit text.
    fn at_location(&self, loc: &Location, message: impl fmt::Display) -> Error {
        located(self.name, loc, message)
    }

    /// An input error pointing at a value of the kit.
    fn at<T>(&self, spanned: &Spanned<T>, message: impl fmt::Display) -> Error {
        self.at_location(&spanned.referenced, message)
    }

    fn parse<T: DeserializeOwned>(&self, text: &str) -> Result<T, Error> {
        // A tag (`!foo 3`) would otherwise be dropped in silence: a kit has no use for one.
        let options = serde_saphyr::options! {
            reject_unsupported_tags: true,
            reject_tagged_field_names: true,
        };
        match serde_saphyr::from_str_with_options::<Option<T>>(text, options) {
            Ok(Some(file)) => Ok(file),
            Ok(None) => Err(Error::Input(format!(
                "{}:1:1: the kit is empty: write at least {} or `preset: NAME` ({})",
                self.name,
                game_choices(),
                preset_names()
            ))),
            Err(e) => Err(self.explain(text, &e)),
        }
    }

    /// A YAML error in the user's words: the key, what it allows, what was found.
    fn explain(&self, text: &str, error: &serde_saphyr::Error) -> Error {
        use serde_saphyr::Error as E;
        // The error itself, without the source snippet and alias wrappers around it.
        let mut error = error.without_snippet();
        while let E::AliasError { error: inner, .. } = error {
            error = inner.without_snippet();
        }
        let Some(loc) = error.location().filter(|l| l.line() > 0) else {
            return Error::Input(format!("{}: {}", self.name, whole_file_problem(error)));
        };
        let key = key_at(text, loc.line());
        let found = found_at(text, &loc, key);
        let expected = |key: &str| {
            let allowed = allowed(key).unwrap_or_else(|| "another value".into());
            format!("{key}: expected {allowed}, found {found}")
        };
        let message = match (error, key) {
            (E::SerdeUnknownField { field, .. }, Some(key)) if key != field => {
                format!(
                    "{key}: unknown key `{field}`; {key} takes {}",
                    allowed(key).unwrap_or_else(|| "other keys".into())
                )
            }
            (E::SerdeUnknownField { field, .. }, _) => format!(
                "unknown key `{field}`: a kit's keys are {}",
                KitFile::KEYS.join(", ")
            ),
            // Our own visitors' words (labels, sticker sheets).
            (E::Message { msg, .. }, Some(key)) => format!("{key}: {}", first_line(msg)),
            (E::DuplicateMappingKey { key: Some(k), .. }, _) => {
                format!("`{k}` is given twice: keep one")
            }
            (E::DuplicateMappingKey { key: None, .. }, _) => {
                "a key is given twice: keep one".into()
            }
            (E::SerdeMissingField { field, .. }, Some(key)) => format!(
                "{key}: `{field}` is missing; {key} takes {}",
                allowed(key).unwrap_or_else(|| "more".into())
            ),
            (E::UnsupportedTag { tag, .. } | E::TaggedStructFieldName { tag, .. }, _) => {
                format!("`{tag}` is a YAML tag, which no kit setting takes: write the value alone")
            }
            (E::ExternalMessage { msg, .. }, _) => {
                if let Some((line, column, message)) = unclosed_bracket(text, &loc) {
                    return placed(self.name, line, column, message);
                }
                // The parser blames the end of the line before a tab that indents.
                if let Some((line, column)) = first_tab(text, &loc).filter(|_| msg.contains("tab"))
                {
                    return placed(self.name, line, column, not_yaml(msg, text, &loc));
                }
                not_yaml(msg, text, &loc)
            }
            (E::MultipleDocuments { .. } | E::Budget { .. } | E::Eof { .. }, _)
            | (
                E::AliasReplayCounterOverflow { .. }
                | E::AliasReplayLimitExceeded { .. }
                | E::AliasExpansionLimitExceeded { .. }
                | E::AliasReplayStackDepthExceeded { .. },
                _,
            ) => whole_file_problem(error),
            (_, Some(key)) => expected(key),
            (_, None) => format!(
                "a kit is a list of `key: value` settings, one a line, such as `machine: second`; found {found}"
            ),
        };
        self.at_location(&loc, message)
    }
}

/// What the YAML parser found wrong, in a kit writer's words rather than the parser's.
fn not_yaml(msg: &str, text: &str, loc: &Location) -> String {
    let msg = msg.to_lowercase();
    let here = text
        .lines()
        .nth(
            usize::try_from(loc.line())
                .unwrap_or(usize::MAX)
                .saturating_sub(1),
        )
        .and_then(|l| {
            l.chars().nth(
                usize::try_from(loc.column())
                    .unwrap_or(usize::MAX)
                    .saturating_sub(1),
            )
        });
    if msg.contains("tab") {
        "a tab character: indent a kit with spaces, never tabs".into()
    } else if msg.contains("recursion") || msg.contains("depth") {
        "the kit is nested far deeper than any kit: a kit is a short list of `key: value` settings"
            .into()
    } else if msg.contains("quoted") {
        "a quoted value that never ends: close it with the same quote mark".into()
    } else if let Some(c) = here.filter(|c| c.is_control() || msg.contains("unexpected character"))
    {
        format!(
            "the character U+{:04X} cannot stand here: remove it, or put the value in quotes",
            u32::from(c)
        )
    } else {
        "this line is not a `key: value` setting: check its indentation, colons, quotes and brackets".into()
    }
}

/// The line and column of the first tab at or after `from`.
fn first_tab(text: &str, from: &Location) -> Option<(u64, u64)> {
    (1u64..)
        .zip(text.lines())
        .skip_while(|(n, _)| *n < from.line())
        .find_map(|(n, line)| {
            let column = line.chars().position(|c| c == '\t')?;
            Some((n, column as u64 + 1))
        })
}

/// The quote mark, `[` or `{` that the parse stopped in without its closing mark, with a
/// message for it: the parser itself blames a later line, in its own words.
fn unclosed_bracket(text: &str, stop: &Location) -> Option<(u64, u64, String)> {
    let mut open: Vec<(u64, u64, char)> = Vec::new();
    for (number, line) in (1u64..).zip(text.lines()) {
        if number > stop.line() {
            break;
        }
        let mut quote: Option<(u64, char)> = None;
        for (column, c) in (1u64..).zip(line.chars()) {
            match (quote, c) {
                (Some((_, q)), c) if c == q => quote = None,
                (Some(_), _) => {}
                (None, '"' | '\'') => quote = Some((column, c)),
                (None, '#') => break,
                (None, '[' | '{') => open.push((number, column, c)),
                (None, ']' | '}') => {
                    open.pop();
                }
                _ => {}
            }
        }
        // A kit's values fit on one line each.
        if let Some((column, mark)) = quote {
            return Some((
                number,
                column,
                format!("this {mark} is never closed: end the value with {mark} on the same line"),
            ));
        }
    }
    // A list left open on an earlier line: flow lists in a kit fit on one line.
    let &(line, column, bracket) = open.first().filter(|(line, ..)| *line < stop.line())?;
    let close = if bracket == '[' { ']' } else { '}' };
    Some((
        line,
        column,
        format!("this `{bracket}` is never closed: end it with `{close}` on the same line"),
    ))
}

/// The one way a kit error names its place: `file:line:column: message`.
fn located(source: &str, loc: &Location, message: impl fmt::Display) -> Error {
    placed(source, loc.line(), loc.column(), message)
}

impl Source<'_> {
    /// `file:line:column: `, the way a message names a place.
    fn place(&self, loc: &Location) -> String {
        format!("{}:{}:{}: ", self.name, loc.line(), loc.column())
    }
}

/// [`located`] at a line and column.
fn placed(source: &str, line: u64, column: u64, message: impl fmt::Display) -> Error {
    Error::Input(format!("{source}:{line}:{column}: {message}"))
}

/// What is wrong with a kit file as a whole, for errors that are not about one key.
fn whole_file_problem(error: &serde_saphyr::Error) -> String {
    use serde_saphyr::Error as E;
    match error {
        E::InvalidUtf8Input => "the kit is not UTF-8 text: save it as UTF-8".into(),
        E::MultipleDocuments { .. } => {
            "the file holds more than one kit (a second document after `---`): keep one".into()
        }
        E::Eof { .. } => "the kit ends in the middle of a value".into(),
        E::Budget { .. }
        | E::AliasReplayCounterOverflow { .. }
        | E::AliasReplayLimitExceeded { .. }
        | E::AliasExpansionLimitExceeded { .. }
        | E::AliasReplayStackDepthExceeded { .. } => {
            "the kit is far larger or deeper than any kit (too many values, aliases or levels): a kit is a short list of settings".into()
        }
        other => format!("the kit cannot be read ({})", first_line(&other.without_snippet().to_string())),
    }
}

/// What each of kit.yaml's own keys takes, in the words of the error messages (each
/// game says the same of its own keys; `game` lists the games).
const ALLOWED: [(&str, &str); 19] = [
    ("preset", "the name of a preset (see `matchbox presets`)"),
    ("name", "a line of text"),
    ("game", ""),
    ("machine", "first or second"),
    ("symmetry", "true or false"),
    ("skip_forced", "true or false"),
    (
        "beads",
        "a whole number from 1 to 100, or move numbers with beads, e.g. {1: 4, 3: 3, 5: 2, 7: 1}",
    ),
    (
        "palette",
        "a list of colours, each {name: NAME, rgb: \"#rrggbb\"}",
    ),
    ("rule", "gardner, gardner-reward, menace or relay"),
    (
        "reward",
        "{win: N, draw: N, loss: N} with whole numbers of beads",
    ),
    ("language", "en, pl or ru"),
    ("paper", "a4 or letter"),
    (
        "label",
        "matchbox, craft-small, a sticker sheet (see `matchbox labels`) or {width_mm: W, height_mm: H} in millimetres",
    ),
    (
        "start_at",
        "a whole number from 1 to the labels on a sheet: the first slot to print on",
    ),
    ("move_colours", "true or false"),
    ("tags", "game-move or machine-move"),
    ("numerals", "arabic or roman"),
    ("show_beads", "true or false"),
    ("previews", "true or false"),
];

/// The games' names as a choice: `a, b or c`.
fn game_names() -> String {
    or_list(GAMES.iter().map(|g| g.name.to_string()).collect())
}

/// The ways a kit names its game: `` `game: a`, `game: b` or `game: c` ``.
fn game_choices() -> String {
    or_list(
        GAMES
            .iter()
            .map(|g| format!("`game: {}`", g.name))
            .collect(),
    )
}

/// `a, b or c`.
fn or_list(items: Vec<String>) -> String {
    match items.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// What `key` takes, if it is a key of kit.yaml or of one of its games.
fn allowed(key: &str) -> Option<String> {
    if key == "game" {
        return Some(game_names());
    }
    ALLOWED
        .iter()
        .chain(GAMES.iter().flat_map(|g| g.keys))
        .find(|(k, _)| *k == key)
        .map(|(_, a)| (*a).to_string())
}

/// The top-level key whose value holds line `line` (the last `key:` at the start of a
/// line at or before it), if it is a key of kit.yaml.
fn key_at(text: &str, line: u64) -> Option<&str> {
    text.lines()
        .take(usize::try_from(line).unwrap_or(usize::MAX))
        .filter(|l| l.starts_with(|c: char| c.is_ascii_alphabetic() || c == '"' || c == '\''))
        .filter_map(|l| l.split_once(':'))
        .map(|(k, _)| k.trim().trim_matches(|c| c == '"' || c == '\''))
        .last()
        .filter(|k| allowed(k).is_some())
}

/// The value written at `loc` (when `loc` is at `key:` itself, the value after it),
/// quoted and shortened for a message.
fn found_at(text: &str, loc: &Location, key: Option<&str>) -> String {
    let index = |n: u64| usize::try_from(n).unwrap_or(usize::MAX).saturating_sub(1);
    let line = text.lines().nth(index(loc.line())).unwrap_or("");
    let from: String = line.chars().skip(index(loc.column())).collect();
    let from = key
        .and_then(|k| from.strip_prefix(k))
        .and_then(|v| v.strip_prefix(':'))
        .unwrap_or(&from);
    let rest: String = from
        .chars()
        .take_while(|c| !matches!(c, ',' | ']' | '}' | '#'))
        .collect();
    let value = rest.trim();
    if value.is_empty() {
        return "nothing".into();
    }
    const SHOWN: usize = 30;
    let shown: String = value
        .chars()
        .filter(|c| !c.is_control())
        .take(SHOWN)
        .collect();
    let more = if value.chars().count() > SHOWN {
        "…"
    } else {
        ""
    };
    format!("`{shown}{more}`")
}

/// The message of a YAML error without the location the parser appends.
fn first_line(text: &str) -> String {
    let line = text.lines().next().unwrap_or(text).trim();
    match line.rfind(" at line ") {
        Some(i) => line[..i].to_string(),
        None => line.to_string(),
    }
}

/// The largest kit file read: a kit is a few dozen lines.
pub const MAX_KIT_BYTES: u64 = 1 << 20;

/// Looks a preset up by name.
pub fn preset(name: &str) -> Option<&'static Preset> {
    presets().find(|p| p.name == name)
}

/// The presets' names, for messages.
fn preset_names() -> String {
    presets().map(|p| p.name).collect::<Vec<_>>().join(", ")
}

fn unknown_preset(name: &str) -> String {
    format!("unknown preset `{name}`: choose one of {}", preset_names())
}

impl Kit {
    /// A built-in preset as a kit.
    pub fn from_preset(name: &str) -> Result<Kit, Error> {
        let preset = preset(name).ok_or_else(|| Error::Input(unknown_preset(name)))?;
        let kit = Kit::from_yaml(
            &format!("preset: {}\n", preset.name),
            &format!("preset {name}"),
        )?;
        // No file to point at.
        Ok(Kit {
            places: Places::default(),
            ..kit
        })
    }

    /// Reads a kit file's bytes, named `shown` in messages; more than [`MAX_KIT_BYTES`]
    /// (the reader stops one byte past it) is refused as the wrong file.
    pub fn from_bytes(bytes: Vec<u8>, shown: &str) -> Result<Kit, Error> {
        if bytes.len() as u64 > MAX_KIT_BYTES {
            return Err(Error::Input(format!(
                "{shown}: the file is larger than 1 MiB, far larger than any kit: is it the right file?"
            )));
        }
        let text = String::from_utf8(bytes).map_err(|e| {
            let before = &e.as_bytes()[..e.utf8_error().valid_up_to()];
            let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
            let column = before.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
            Error::Input(format!(
                "{shown}:{line}:{column}: the kit is not UTF-8 text: save it as UTF-8"
            ))
        })?;
        Kit::from_yaml(&text, shown)
    }

    /// Reads kit.yaml text; `source` names it in error messages.
    pub fn from_yaml(text: &str, source: &str) -> Result<Kit, Error> {
        let src = Source { name: source };
        let file: KitFile = src.parse(text)?;
        let mut places = Places {
            source: source.to_string(),
            keys: file.places(),
        };
        let mut layers = Vec::new();
        let mut preset_rule = None;
        let merged = match &file.preset {
            Some(name) => {
                let preset =
                    preset(&name.value).ok_or_else(|| src.at(name, unknown_preset(&name.value)))?;
                let base: KitFile = Source { name: preset.name }.parse(preset.yaml)?;
                if let (Some(own), Some(theirs)) = (&file.game, &base.game)
                    && own.value != theirs.value
                {
                    return Err(src.at(
                        own,
                        format!(
                            "game: `{}` is not the game of `preset: {}`, which is {}: leave out `preset` to start a {} kit, or `game`",
                            own.value, preset.name, theirs.value, own.value
                        ),
                    ));
                }
                layers.push(preset.yaml);
                preset_rule = base.rule.as_ref().map(|r| r.value);
                base.overlay(file)
            }
            None => file,
        };
        layers.push(text);
        let Some(game_name) = &merged.game else {
            return Err(no_game(&src, text));
        };
        places
            .keys
            .extend(check_keys(&src, text, &game_name.value)?);
        let kit_text = KitText {
            src: &src,
            layers,
            places: &places,
        };
        let game = AnyGame::read(&game_name.value, &kit_text).ok_or_else(|| {
            src.at(
                game_name,
                format!(
                    "game: expected {}, found `{}`",
                    game_names(),
                    game_name.value
                ),
            )
        })??;
        merged.resolve(&src, game, places, preset_rule)
    }

    /// Every setting of the kit as kit.yaml writes it, key by key in the file's order:
    /// read back, they make the same kit (the kit designer's form, a kit file written out).
    pub fn settings(&self) -> Vec<(&'static str, serde_json::Value)> {
        use serde_json::{Value, json};
        let label = match &self.stickers {
            Some(sheet) if sheet.code == "custom" => json!({
                "width_mm": sheet.label.width_mm,
                "height_mm": sheet.label.height_mm,
                "across": sheet.across,
                "down": sheet.down,
                "left_mm": sheet.left_mm,
                "top_mm": sheet.top_mm,
                "pitch_x_mm": sheet.pitch_x_mm,
                "pitch_y_mm": sheet.pitch_y_mm,
                "corner_mm": sheet.corner_mm,
            }),
            Some(sheet) => json!(sheet.code),
            None => LABEL_SIZES
                .iter()
                .find(|(_, size)| *size == self.label)
                .map_or_else(|| json!(self.label), |(name, _)| json!(name)),
        };
        let palette: Vec<Value> = self
            .palette
            .iter()
            .map(|c| json!({"name": c.name, "rgb": c.hex()}))
            .collect();
        let mut out = vec![
            ("name", json!(self.name)),
            ("game", json!(self.game.name())),
            ("machine", json!(self.machine)),
            ("symmetry", json!(self.symmetry)),
            ("skip_forced", json!(self.skip_forced)),
            ("beads", json!(self.beads)),
            ("palette", Value::Array(palette)),
            ("rule", json!(self.rule)),
        ];
        // `reward` is refused under any other rule.
        if self.rule == Rule::Menace {
            out.push(("reward", json!(self.reward)));
        }
        out.extend([
            ("language", json!(self.language)),
            ("paper", json!(self.paper)),
            ("label", label),
            ("start_at", json!(self.start_at)),
            ("move_colours", json!(self.move_colours)),
            ("tags", json!(self.tags)),
            ("numerals", json!(self.numerals)),
            ("show_beads", json!(self.show_beads)),
            ("previews", json!(self.previews)),
        ]);
        out.extend(self.game.settings());
        out
    }

    /// The keys that set the game's size, where errors about the number of positions or
    /// boxes point.
    pub fn game_keys(&self) -> Vec<&'static str> {
        let own = AnyGame::entry(self.game.name()).map_or(&[][..], |g| g.keys);
        own.iter()
            .map(|(k, _)| *k)
            .chain(["game", "preset"])
            .collect()
    }
}

/// Why a kit that names no game cannot be read, at the place that says so: a misspelt
/// key (`préset`), a `game` or `preset` with no value, or no such key at all.
fn no_game(src: &Source, text: &str) -> Error {
    let keys = match src.parse::<TopKeys>(text) {
        Ok(TopKeys(keys)) => keys,
        Err(e) => return e,
    };
    for (key, value_at) in &keys {
        let name = key.value.as_str();
        match name {
            "game" => {
                return src.at_location(
                    value_at,
                    format!("game: expected {}, found nothing", game_names()),
                );
            }
            "preset" => {
                return src.at_location(
                    value_at,
                    format!("preset: expected one of {}, found nothing", preset_names()),
                );
            }
            _ => {}
        }
        let known = KitFile::KEYS.contains(&name)
            || GAMES.iter().any(|g| g.keys.iter().any(|(k, _)| *k == name));
        if !known {
            return src.at(key, format!("unknown key `{name}`{}", did_you_mean(name)));
        }
    }
    Error::Input(format!(
        "{}:1:1: say which game the kit is for: {}, or start from `preset: NAME` ({})",
        src.name,
        game_choices(),
        preset_names()
    ))
}

/// `: did you mean `preset`?` when a key of kit.yaml or of a game is a letter or two
/// away from `name`; otherwise the kit's own keys.
fn did_you_mean(name: &str) -> String {
    let every = KitFile::KEYS
        .iter()
        .chain(GAMES.iter().flat_map(|g| g.keys.iter().map(|(k, _)| k)));
    let closest = every
        .map(|k| (strsim::damerau_levenshtein(name, k), *k))
        .min()
        .filter(|(d, _)| *d <= 2);
    match closest {
        Some((_, key)) => format!(": did you mean `{key}`?"),
        None => format!(": a kit's keys are {}", KitFile::KEYS.join(", ")),
    }
}

/// Refuses keys that are no kit's (at the key) and keys of another game (at the value);
/// gives where the file writes each of the game's own keys.
fn check_keys(
    src: &Source,
    text: &str,
    game: &str,
) -> Result<BTreeMap<&'static str, Location>, Error> {
    let mut places = BTreeMap::new();
    let Some(entry) = AnyGame::entry(game) else {
        return Ok(places);
    };
    let TopKeys(keys) = src.parse(text)?;
    for (key, value_at) in keys {
        let name = key.value.as_str();
        if KitFile::KEYS.contains(&name) {
            continue;
        }
        if let Some((own, _)) = entry.keys.iter().find(|(k, _)| *k == name) {
            places.insert(*own, value_at);
            continue;
        }
        if GAMES.iter().any(|g| g.keys.iter().any(|(k, _)| *k == name)) {
            return Err(src.at_location(&value_at, format!("`{name}` does not apply to {game}")));
        }
        let keys: Vec<&str> = KitFile::KEYS
            .iter()
            .copied()
            .chain(entry.keys.iter().map(|(k, _)| *k))
            .collect();
        return Err(src.at(
            &key,
            format!(
                "unknown key `{name}`: a {game} kit's keys are {}",
                keys.join(", ")
            ),
        ));
    }
    Ok(places)
}

fn ranged<T: TryFrom<i64>>(
    src: &Source,
    value: &Spanned<i64>,
    what: &str,
    low: i64,
    high: i64,
) -> Result<T, Error> {
    if value.value < low || value.value > high {
        return Err(src.at(
            value,
            format!("{what} must be from {low} to {high}, not {}", value.value),
        ));
    }
    T::try_from(value.value).map_err(|_| src.at(value, format!("{what} is out of range")))
}

impl KitFile {
    /// The kit these settings make; `preset_rule` is the rule of the preset they
    /// override, if any.
    fn resolve(
        self,
        src: &Source,
        game: AnyGame,
        places: Places,
        preset_rule: Option<Rule>,
    ) -> Result<Kit, Error> {
        let beads = self
            .beads
            .as_ref()
            .map_or(BeadSchedule::Each(1), |b| b.value.clone());
        if let Some(b) = &self.beads {
            let check = |n: u32| {
                if (1..=MAX_START_BEADS).contains(&n) {
                    Ok(())
                } else {
                    Err(src.at(
                        b,
                        format!("beads per move must be from 1 to {MAX_START_BEADS}, not {n}"),
                    ))
                }
            };
            match &b.value {
                BeadSchedule::Each(n) => check(*n)?,
                BeadSchedule::ByMoveNumber(map) if map.is_empty() => {
                    return Err(src.at(b, "the bead schedule lists no move numbers"));
                }
                BeadSchedule::ByMoveNumber(map) => {
                    for n in map.values() {
                        check(*n)?;
                    }
                }
            }
        }

        let palette = match &self.palette {
            None => palette::default_palette(),
            Some(p) => {
                if p.value.is_empty() {
                    return Err(src.at(p, "the palette needs at least one colour"));
                }
                let mut colours: Vec<Colour> = Vec::new();
                for entry in &p.value {
                    let rgb = palette::parse_hex(&entry.rgb).ok_or_else(|| {
                        src.at(
                            p,
                            format!(
                                "colour `{}`: rgb must be written #rrggbb, not `{}`",
                                entry.name, entry.rgb
                            ),
                        )
                    })?;
                    check_printable(src, p, "palette", &entry.name)?;
                    if colours.iter().any(|c| c.name == entry.name) {
                        return Err(src.at(p, format!("colour `{}` is listed twice", entry.name)));
                    }
                    colours.push(Colour {
                        name: entry.name.clone(),
                        rgb,
                    });
                }
                colours
            }
        };

        let choice = self
            .label
            .as_ref()
            .map_or(LabelChoice::Cut(LABEL_SIZES[0].1), |v| v.value);
        let paper = match (choice, &self.paper) {
            (LabelChoice::Sticker(sheet), Some(p))
                if sheet.code != "custom" && p.value != sheet.paper =>
            {
                return Err(src.at(
                    p,
                    format!(
                        "the {} sticker sheet is {} paper: leave `paper` out, or choose a sheet for {} paper (see `matchbox labels`)",
                        sheet.code,
                        sheet.paper.name(),
                        p.value.name()
                    ),
                ));
            }
            (LabelChoice::Sticker(sheet), None) if sheet.code != "custom" => sheet.paper,
            (_, p) => p.as_ref().map_or(Paper::A4, |v| v.value),
        };
        let (label, stickers) = match choice {
            LabelChoice::Cut(size) => (size, None),
            LabelChoice::Sticker(sheet) => (sheet.label, Some(StickerSheet { paper, ..sheet })),
        };
        if let Some(l) = &self.label {
            if let Some(why) = stickers.as_ref().and_then(StickerSheet::misfit) {
                return Err(src.at(l, format!("this sticker sheet cannot be: {why}")));
            }
            let (aw, ah) = crate::media::label_area(paper);
            let drawn = match &stickers {
                Some(sheet) => {
                    let inset = 2.0 * crate::media::safe_margin_mm(sheet);
                    LabelSize {
                        width_mm: label.width_mm - inset,
                        height_mm: label.height_mm - inset,
                    }
                }
                None => label,
            };
            if !(drawn.width_mm >= 20.0 && drawn.height_mm >= 12.0) {
                return Err(src.at(
                    l,
                    format!(
                        "a label of {} x {} mm is too small to draw legibly: at least 20 x 12 mm{}",
                        label.width_mm,
                        label.height_mm,
                        if stickers.is_some() {
                            " inside its safe margin"
                        } else {
                            ""
                        }
                    ),
                ));
            }
            if stickers.is_none() && (label.width_mm > aw || label.height_mm > ah) {
                return Err(src.at(l, format!(
                    "a label of {} x {} mm does not fit on {} paper: at most {aw} x {ah} mm inside the margins",
                    label.width_mm,
                    label.height_mm,
                    paper.name()
                )));
            }
        }
        let per_sheet = match &stickers {
            Some(sheet) => sheet.across * sheet.down,
            None => {
                let (across, down) = crate::media::cut_grid(paper, label);
                (across * down) as u32
            }
        };
        let start_at = self.start_at.as_ref().map_or(Ok(1), |v| {
            ranged(src, v, "start_at", 1, i64::from(per_sheet))
        })?;

        let language = self.language.as_ref().map_or(Language::En, |v| v.value);
        let words = crate::i18n::strings(language);
        let name = match (&self.name, &self.preset) {
            (Some(n), _) => {
                let name = without_controls(&n.value).trim().to_string();
                if name.chars().count() > MAX_NAME_CHARS {
                    return Err(src.at(
                        n,
                        format!(
                            "name: at most {MAX_NAME_CHARS} characters, found {}; it is printed at the top of every sheet",
                            name.chars().count()
                        ),
                    ));
                }
                check_printable(src, n, "name", &name)?;
                name
            }
            (None, Some(p)) => words.get(&format!("preset.{}", p.value)).to_string(),
            (None, None) => game.default_name(words),
        };
        if name.is_empty() {
            return Err(src.at(
                self.name.as_ref().expect("name given"),
                "the kit's name is empty",
            ));
        }
        let rule = self
            .rule
            .as_ref()
            .map_or_else(|| game.default_rule(), |v| v.value);
        let mut warnings = Vec::new();
        if let (Some(own), Some(preset)) = (&self.rule, preset_rule)
            && preset == Rule::Relay
            && own.value != Rule::Relay
        {
            warnings.push(format!(
                "{}warning: rule {} replaces the preset's relay: each wired move becomes a bead, and the boxes keep only the wired moves",
                src.place(&own.referenced),
                own.value.name()
            ));
        }
        if let Some(reward) = &self.reward
            && rule != Rule::Menace
        {
            return Err(src.at(
                reward,
                format!(
                    "reward: beads per result apply under `rule: menace` only; this kit's rule is {}: leave `reward` out, or set `rule: menace`",
                    rule.name()
                ),
            ));
        }
        if let Some(reward) = &self.reward
            && let Some(which) = reward.value.out_of_range()
        {
            return Err(src.at(
                reward,
                format!(
                    "reward: beads per result must be from -{MAX_REWARD} to {MAX_REWARD}; {which} is {}",
                    reward.value.get(which)
                ),
            ));
        }
        Ok(Kit {
            name,
            game,
            machine: self.machine.as_ref().map_or(Side::Second, |v| v.value),
            symmetry: self.symmetry.as_ref().is_none_or(|v| v.value),
            skip_forced: self.skip_forced.as_ref().is_some_and(|v| v.value),
            beads,
            palette,
            rule,
            reward: self
                .reward
                .as_ref()
                .map_or_else(Reward::default, |v| v.value),
            language,
            paper,
            label,
            stickers,
            start_at,
            move_colours: self.move_colours.as_ref().is_some_and(|v| v.value),
            tags: self.tags.as_ref().map_or(Tags::GameMove, |v| v.value),
            numerals: self.numerals.as_ref().map_or(Numerals::Arabic, |v| v.value),
            show_beads: self.show_beads.as_ref().is_none_or(|v| v.value),
            previews: self.previews.as_ref().is_none_or(|v| v.value),
            places,
            warnings,
        })
    }
}

/// The longest kit name, in characters: it heads every sheet.
pub const MAX_NAME_CHARS: usize = 200;

/// Whether `c` is a bidirectional formatting character: in a name it would reorder the
/// program's own text around it (U+202E turns a header backwards).
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// `text` without control and bidirectional formatting characters, which a printed
/// name or a terminal echo must never carry.
pub fn without_controls(text: &str) -> String {
    text.chars()
        .filter(|&c| !c.is_control() && !is_bidi_control(c))
        .collect()
}

/// Whether `c` prints as nothing (a zero-width joiner, a soft hyphen, a word joiner):
/// in a name it would only hide a difference between two names that look the same.
fn is_invisible(c: char) -> bool {
    matches!(c, '\u{00AD}' | '\u{180E}' | '\u{200B}'..='\u{200D}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}')
}

/// Refuses text the embedded font cannot print, rather than printing empty boxes.
fn check_printable<T>(src: &Source, at: &Spanned<T>, key: &str, text: &str) -> Result<(), Error> {
    if let Some(c) = text.chars().find(|&c| is_invisible(c)) {
        return Err(src.at(
            at,
            format!(
                "{key}: the invisible character U+{:04X} would print as nothing: remove it",
                u32::from(c)
            ),
        ));
    }
    match text.chars().find(|&c| !crate::glyphs::printable(c)) {
        None => Ok(()),
        Some(c) => Err(src.at(
            at,
            format!(
                "{key}: `{c}` (U+{:04X}) cannot be printed: the kit's font has Latin letters (with Polish ones), Cyrillic, digits and common punctuation",
                u32::from(c)
            ),
        )),
    }
}

/// The one-line input error a kit text gives, for the tests of every game's keys.
#[cfg(test)]
pub(crate) fn input_error(yaml: &str) -> String {
    match Kit::from_yaml(yaml, "kit.yaml") {
        Err(Error::Input(m)) => m,
        other => panic!("expected an input error, got {other:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::game::GAMES;

    fn err(yaml: &str) -> String {
        input_error(yaml)
    }

    #[test]
    fn every_preset_resolves() {
        for p in presets() {
            let kit = Kit::from_preset(p.name).unwrap();
            assert!(!kit.name.is_empty());
        }
    }

    #[test]
    fn a_kits_settings_read_back_make_the_same_kit() {
        let custom = [
            "game: nim\nheaps: [2, 3]\ntake: [1, 2]\nlanguage: pl\nlabel: {width_mm: 40, height_mm: 30}\n",
            "game: hexapawn\nrows: 4\ncols: 3\nlabel: L7160\nstart_at: 5\nmove_colours: true\n",
            "game: tictactoe\nlabel: {width_mm: 50, height_mm: 30, across: 3, down: 8, left_mm: 10, top_mm: 12}\n",
            "preset: menace\nreward: {win: 2, draw: 0, loss: -2}\npalette: [{name: ink, rgb: \"#102030\"}, {name: sky, rgb: \"#a0c0ff\"}]\n",
        ];
        let texts = presets()
            .map(|p| format!("preset: {}\n", p.name))
            .chain(custom.iter().map(|t| t.to_string()));
        for text in texts {
            let kit = Kit::from_yaml(&text, "kit.yaml").unwrap();
            // JSON is YAML: each value as JSON after its key.
            let written: String = kit
                .settings()
                .iter()
                .map(|(key, value)| format!("{key}: {value}\n"))
                .collect();
            let again = Kit::from_yaml(&written, "kit.yaml")
                .unwrap_or_else(|e| panic!("{text} written as\n{written}is refused: {e}"));
            assert_eq!(again.settings(), kit.settings(), "{text}");
            assert_eq!(again.game, kit.game, "{text}");
        }
    }

    #[test]
    fn a_file_overrides_its_preset() {
        let kit = Kit::from_yaml("preset: bachet\nstones: 12\nlanguage: ru\n", "kit.yaml").unwrap();
        assert_eq!(kit.language, Language::Ru);
        assert_eq!(kit.tags, Tags::MachineMove);
        assert_eq!(serde_json::to_value(&kit.game).unwrap()["stones"], 12);
    }

    #[test]
    fn a_game_that_is_not_the_presets_is_refused_at_game() {
        let (from, to) = (&GAMES[0], &GAMES[1]);
        let yaml = format!("preset: {}\ngame: {}\n", from.presets[0].name, to.name);
        let message = err(&yaml);
        assert!(message.starts_with("kit.yaml:2:7: game:"), "{message}");
        // The preset's own game, written out, changes nothing.
        let yaml = format!("preset: {}\ngame: {}\n", from.presets[0].name, from.name);
        let same = Kit::from_yaml(&yaml, "kit.yaml").unwrap();
        let preset = Kit::from_preset(from.presets[0].name).unwrap();
        assert_eq!((same.name, same.game), (preset.name, preset.game));
    }

    #[test]
    fn a_kit_without_a_game_names_the_key_at_fault() {
        assert!(
            err("game: ~\n").starts_with("kit.yaml:1:"),
            "{}",
            err("game: ~\n")
        );
        assert!(err("preset:\n").contains("preset: expected one of"));
        let misspelt = err("name: x\npréset: bachet\n");
        assert!(
            misspelt.starts_with("kit.yaml:2:1: unknown key `préset`: did you mean `preset`?"),
            "{misspelt}"
        );
        assert!(err("label2: x\n").contains("unknown key `label2`"));
    }

    #[test]
    fn nonsense_beside_a_preset_is_refused_at_its_key() {
        let reward = err("preset: hexapawn\nreward: {win: 3}\n");
        assert!(reward.starts_with("kit.yaml:2:9: reward:"), "{reward}");
        let joiner = err("preset: bachet\nname: \"a\u{200d}b\"\n");
        assert!(joiner.contains("U+200D"), "{joiner}");
        let tag = err("preset: bachet\nname: !foo x\n");
        assert!(tag.contains("`!foo` is a YAML tag"), "{tag}");
    }

    #[test]
    fn the_yaml_parsers_own_words_never_reach_the_user() {
        let tab = err("preset: bachet\n\tname: x\n");
        assert!(tab.contains("a tab character"), "{tab}");
        let open = err("game: nim\nheaps: [1, 3, 5\nname: x\n");
        assert!(
            open.starts_with("kit.yaml:2:8: this `[` is never closed"),
            "{open}"
        );
        let nul = err("name: \u{0}x\n");
        assert!(nul.contains("U+0000"), "{nul}");
        let deep = err(&format!("a: {}{}\n", "[".repeat(300), "]".repeat(300)));
        assert!(deep.contains("nested far deeper"), "{deep}");
        for message in [tab, open, nul, deep] {
            assert!(
                !message.contains('('),
                "no parser words in brackets: {message}"
            );
        }
    }

    #[test]
    fn mistakes_name_the_line_and_column() {
        let unknown = err("preset: menace\ncolour: red\n");
        assert!(unknown.starts_with("kit.yaml:2:1:"), "{unknown}");
        assert!(unknown.contains("colour"), "{unknown}");
        let game = err("game: chess\n");
        assert!(
            game.starts_with("kit.yaml:1:7:") && GAMES.iter().all(|g| game.contains(g.name)),
            "{game}"
        );
        let preset = err("preset: chess\n");
        assert!(
            preset.starts_with("kit.yaml:1:9:") && preset.contains("menace"),
            "{preset}"
        );
        assert!(err("language: fr\npreset: bachet\n").contains("pl"));
    }

    #[test]
    fn a_key_of_another_game_is_pointed_at() {
        for game in GAMES {
            let other = GAMES
                .iter()
                .find(|g| !g.keys.is_empty() && g.name != game.name);
            let Some((key, _)) = other.map(|g| g.keys[0]) else {
                continue;
            };
            let m = err(&format!("game: {}\n{key}: 3\n", game.name));
            let at = format!(
                "kit.yaml:2:{}: `{key}` does not apply to {}",
                key.len() + 3,
                game.name
            );
            assert!(m.starts_with(&at), "{m}");
        }
    }

    #[test]
    fn every_key_says_what_it_takes() {
        for key in KitFile::KEYS {
            assert!(allowed(key).is_some(), "{key}");
        }
        assert_eq!(ALLOWED.len(), KitFile::KEYS.len());
        for game in GAMES {
            assert!(game.keys.iter().all(|(_, takes)| !takes.is_empty()));
        }
    }

    #[test]
    fn a_label_larger_than_the_paper_is_refused() {
        let m = err("preset: bachet\nlabel: {width_mm: 300, height_mm: 40}\n");
        assert!(
            m.starts_with("kit.yaml:2:8:") && m.contains("does not fit"),
            "{m}"
        );
    }

    #[test]
    fn nothing_in_the_file_is_an_error_not_a_panic() {
        assert!(err("").starts_with("kit.yaml:1:1: the kit is empty"));
        assert!(err("name: HER\n").contains("say which game"));
        assert!(err("[1, 2]").starts_with("kit.yaml:1:1:"));
        assert!(
            err("preset: bachet\nbeads: -1\n")
                .starts_with("kit.yaml:2:8: beads: expected a whole number from 1 to 100")
        );
    }

    #[test]
    fn the_bead_schedule_falls_back_to_the_last_listed_move() {
        let schedule = BeadSchedule::ByMoveNumber(BTreeMap::from([(1, 4), (3, 3), (5, 2), (7, 1)]));
        assert_eq!(schedule.beads_at(1), Some(4));
        assert_eq!(schedule.beads_at(4), Some(3));
        assert_eq!(schedule.beads_at(9), Some(1));
        let late = BeadSchedule::ByMoveNumber(BTreeMap::from([(2, 4)]));
        assert_eq!(late.beads_at(1), None);
    }
}
