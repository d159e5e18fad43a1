//! The kit: what a teacher writes in kit.yaml, the built-in presets, and validation that
//! points at the file, line and column of every mistake.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_saphyr::{Location, Spanned};

use crate::Error;
use crate::game::hexapawn::Hexapawn;
use crate::game::nim::Nim;
use crate::game::tictactoe::TicTacToe;
use crate::game::{Game, Side};
use crate::palette::{self, Colour};
use crate::sheet::{Paper, STICKER_SHEETS, StickerSheet, sticker_sheet};

/// The game a kit is for, with its settings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum GameSpec {
    /// Hexapawn on `rows` x `cols`.
    Hexapawn {
        /// Rows, 3 to 8.
        rows: u8,
        /// Columns, 3 to 8.
        cols: u8,
    },
    /// Bachet's game.
    Nim {
        /// Stones at the start, 1 to 1000.
        stones: u16,
        /// The counts a player may take, smallest first.
        take: Vec<u16>,
        /// Whether taking the last stone wins or loses.
        last_stone: LastStone,
    },
    /// Noughts and crosses.
    #[serde(rename = "tictactoe")]
    TicTacToe,
}

/// Code that works for any game: [`GameSpec::visit`] calls it with the kit's game.
pub trait GameVisitor {
    /// What the visit returns.
    type Output;
    /// Runs with the concrete game.
    fn visit<G: Game>(self, game: &G) -> Self::Output;
}

impl GameSpec {
    /// Builds the game, with `wiring` of the machine's boxes (nim), and hands it to
    /// `visitor`. This is where a new game is registered.
    pub fn visit<V: GameVisitor>(&self, wiring: &BTreeMap<u16, Vec<u16>>, visitor: V) -> V::Output {
        match self {
            GameSpec::Hexapawn { rows, cols } => visitor.visit(&Hexapawn::new(*rows, *cols)),
            GameSpec::Nim {
                stones,
                take,
                last_stone,
            } => visitor.visit(
                &Nim::new(*stones, take.clone(), *last_stone == LastStone::Wins)
                    .with_wiring(wiring.clone()),
            ),
            GameSpec::TicTacToe => visitor.visit(&TicTacToe),
        }
    }

    /// The kit.yaml name of the game.
    pub fn name(&self) -> &'static str {
        match self {
            GameSpec::Hexapawn { .. } => "hexapawn",
            GameSpec::Nim { .. } => "nim",
            GameSpec::TicTacToe => "tictactoe",
        }
    }
}

/// Which game kit.yaml names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum GameName {
    Hexapawn,
    Nim,
    Tictactoe,
}

/// Whether taking the last stone wins or loses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LastStone {
    /// Whoever takes the last stone wins.
    Wins,
    /// Whoever takes the last stone loses.
    Loses,
}

/// The learning rule applied after each game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, clap::ValueEnum)]
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
    /// Which of the machine's own moves it is (the Bachet article: I, II-III).
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

/// The printed size of one label.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct LabelSize {
    /// Width in mm.
    pub width_mm: f32,
    /// Height in mm.
    pub height_mm: f32,
}

/// Named label sizes: the top of a common matchbox, and the front of the small craft
/// boxes sold in packs for 304-box MENACE builds.
pub const LABEL_SIZES: [(&str, LabelSize); 2] = [
    (
        "matchbox",
        LabelSize {
            width_mm: 52.0,
            height_mm: 36.0,
        },
    ),
    (
        "craft-small",
        LabelSize {
            width_mm: 35.0,
            height_mm: 15.0,
        },
    ),
];

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
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<BeadSchedule, E> {
                u32::try_from(n)
                    .map(BeadSchedule::Each)
                    .map_err(|_| E::custom("too many beads"))
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<BeadSchedule, E> {
                u64::try_from(n)
                    .map_err(|_| E::custom("beads cannot be negative"))
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
    pub game: GameSpec,
    /// Which side the matchboxes play.
    pub machine: Side,
    /// Merge positions under the board's symmetries.
    pub symmetry: bool,
    /// Leave out positions where the machine has one legal move.
    pub skip_forced: bool,
    /// Beads per move in each box.
    pub beads: BeadSchedule,
    /// Nim only: the moves wired into given boxes, by stones left.
    pub allowed: BTreeMap<u16, Vec<u16>>,
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

/// The built-in presets.
pub const PRESETS: [Preset; 7] = [
    Preset {
        name: "hexapawn",
        about: "Gardner's HER (1962): hexapawn 3 x 3, the machine plays Black, second",
        yaml: "game: hexapawn\nrows: 3\ncols: 3\nmachine: second\nbeads: 1\nrule: gardner\n",
    },
    Preset {
        name: "hexapawn-first",
        about: "Gardner's HIM: the same machine playing White, first",
        yaml: "game: hexapawn\nrows: 3\ncols: 3\nmachine: first\nbeads: 1\nrule: gardner\n",
    },
    Preset {
        name: "octapawn",
        about: "hexapawn on 4 x 4 (octapawn), the machine plays second",
        yaml: "game: hexapawn\nrows: 4\ncols: 4\nmachine: second\nbeads: 1\nrule: gardner\n",
    },
    Preset {
        name: "bachet",
        about: "Bachet's game: 8 stones, take 1 to 3, last stone wins; 7 boxes, tags I to IV",
        yaml: "game: nim\nstones: 8\ntake: [1, 2, 3]\nlast_stone: wins\nmachine: second\nbeads: 1\nrule: gardner\ntags: machine-move\nnumerals: roman\n",
    },
    Preset {
        name: "bachet-relay",
        about: "the relay automaton for Bachet's game: only some moves wired (7: 1 or 3, 6: 1 or 2, 5: 1)",
        yaml: "game: nim\nstones: 8\ntake: [1, 2, 3]\nlast_stone: wins\nmachine: second\nbeads: 1\nrule: relay\ntags: machine-move\nnumerals: roman\nallowed: {7: [1, 3], 6: [1, 2], 5: [1]}\n",
    },
    Preset {
        name: "menace",
        about: "Michie's MENACE (1961): noughts and crosses, plays X first, beads 4/3/2/1, 304 boxes",
        yaml: "game: tictactoe\nmachine: first\nbeads: {1: 4, 3: 3, 5: 2, 7: 1}\nskip_forced: true\nrule: menace\n",
    },
    Preset {
        name: "menace-second",
        about: "a MENACE that plays O, second; beads 4/3/2/1 at moves 2/4/6/8",
        yaml: "game: tictactoe\nmachine: second\nbeads: {2: 4, 4: 3, 6: 2, 8: 1}\nskip_forced: true\nrule: menace\n",
    },
];

/// Declares the fields of kit.yaml once: the file struct and how a file overrides a preset.
macro_rules! kit_fields {
    ($($field:ident: $ty:ty),* $(,)?) => {
        /// kit.yaml as written: every field optional and with its position.
        #[derive(Debug, Default, Deserialize)]
        #[serde(deny_unknown_fields)]
        struct KitFile {
            $(#[serde(default)] $field: Option<Spanned<$ty>>,)*
        }

        impl KitFile {
            /// The fields of `top`, and of `self` where `top` leaves them out.
            fn overlay(self, top: KitFile) -> KitFile {
                KitFile { $($field: top.$field.or(self.$field),)* }
            }
        }
    };
}

kit_fields! {
    preset: String,
    name: String,
    game: GameName,
    rows: i64,
    cols: i64,
    stones: i64,
    take: Vec<i64>,
    last_stone: LastStone,
    machine: Side,
    symmetry: bool,
    skip_forced: bool,
    beads: BeadSchedule,
    allowed: BTreeMap<i64, Vec<i64>>,
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

/// Where a kit's text came from, for error messages.
struct Source<'a> {
    name: &'a str,
}

impl Source<'_> {
    /// An input error pointing at a place in the kit text.
    fn at_location(&self, loc: &Location, message: impl fmt::Display) -> Error {
        Error::Input(format!(
            "{}:{}:{}: {message}",
            self.name,
            loc.line(),
            loc.column()
        ))
    }

    /// An input error pointing at a value of the kit.
    fn at<T>(&self, spanned: &Spanned<T>, message: impl fmt::Display) -> Error {
        self.at_location(&spanned.referenced, message)
    }

    fn parse(&self, text: &str) -> Result<KitFile, Error> {
        serde_saphyr::from_str::<Option<KitFile>>(text)
            .map(Option::unwrap_or_default)
            .map_err(|e| {
                let plain = e.without_snippet();
                let message = first_line(&plain.to_string());
                match plain.location() {
                    Some(loc) => self.at_location(&loc, message),
                    None => Error::Input(format!("{}: {message}", self.name)),
                }
            })
    }
}

/// The message of a YAML error without the location the parser appends.
fn first_line(text: &str) -> String {
    let line = text.lines().next().unwrap_or(text).trim();
    match line.rfind(" at line ") {
        Some(i) => line[..i].to_string(),
        None => line.to_string(),
    }
}

/// Looks a preset up by name.
pub fn preset(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name == name)
}

fn unknown_preset(name: &str) -> String {
    let names: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
    format!(
        "unknown preset `{name}`: choose one of {}",
        names.join(", ")
    )
}

impl Kit {
    /// Runs `visitor` with this kit's game.
    pub fn visit<V: GameVisitor>(&self, visitor: V) -> V::Output {
        self.game.visit(&self.allowed, visitor)
    }

    /// A built-in preset as a kit.
    pub fn from_preset(name: &str) -> Result<Kit, Error> {
        let preset = preset(name).ok_or_else(|| Error::Input(unknown_preset(name)))?;
        Kit::from_yaml(
            &format!("preset: {}\n", preset.name),
            &format!("preset {name}"),
        )
    }

    /// Reads a kit file.
    pub fn from_file(path: &std::path::Path) -> Result<Kit, Error> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error::Input(format!("{}: cannot read the kit: {e}", path.display())))?;
        Kit::from_yaml(&text, &path.display().to_string())
    }

    /// Reads kit.yaml text; `source` names it in error messages.
    pub fn from_yaml(text: &str, source: &str) -> Result<Kit, Error> {
        let src = Source { name: source };
        let file = src.parse(text)?;
        let merged = match &file.preset {
            Some(name) => {
                let preset =
                    preset(&name.value).ok_or_else(|| src.at(name, unknown_preset(&name.value)))?;
                let mut base = Source { name: preset.name }.parse(preset.yaml)?;
                if file.game.is_some() {
                    // A different game: the preset's game settings no longer apply.
                    base = KitFile {
                        name: base.name,
                        ..KitFile::default()
                    };
                }
                base.overlay(file)
            }
            None => file,
        };
        merged.resolve(&src)
    }
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
    fn resolve(self, src: &Source) -> Result<Kit, Error> {
        let Some(game_name) = &self.game else {
            return Err(Error::Input(format!(
                "{}: say which game the kit is for: `game: hexapawn`, `game: nim` or `game: tictactoe`, or start from `preset: NAME` ({})",
                src.name,
                PRESETS
                    .iter()
                    .map(|p| p.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        };
        let kind = game_name.value;
        // Settings of one game given for another are mistakes worth pointing at.
        let settings: [(&str, Option<Location>, GameName); 6] = [
            (
                "rows",
                self.rows.as_ref().map(|f| f.referenced),
                GameName::Hexapawn,
            ),
            (
                "cols",
                self.cols.as_ref().map(|f| f.referenced),
                GameName::Hexapawn,
            ),
            (
                "stones",
                self.stones.as_ref().map(|f| f.referenced),
                GameName::Nim,
            ),
            (
                "take",
                self.take.as_ref().map(|f| f.referenced),
                GameName::Nim,
            ),
            (
                "last_stone",
                self.last_stone.as_ref().map(|f| f.referenced),
                GameName::Nim,
            ),
            (
                "allowed",
                self.allowed.as_ref().map(|f| f.referenced),
                GameName::Nim,
            ),
        ];
        for (field, loc, owner) in settings {
            if let (Some(loc), true) = (loc, owner != kind) {
                return Err(src.at_location(
                    &loc,
                    format!("`{field}` does not apply to {}", game_label(kind)),
                ));
            }
        }

        let game = match kind {
            GameName::Hexapawn => GameSpec::Hexapawn {
                rows: self
                    .rows
                    .as_ref()
                    .map_or(Ok(3), |v| ranged(src, v, "rows", 3, 8))?,
                cols: self
                    .cols
                    .as_ref()
                    .map_or(Ok(3), |v| ranged(src, v, "cols", 3, 8))?,
            },
            GameName::Nim => {
                let stones = self
                    .stones
                    .as_ref()
                    .map_or(Ok(8), |v| ranged(src, v, "stones", 1, 1000))?;
                let take = match &self.take {
                    None => vec![1, 2, 3],
                    Some(t) if t.value.is_empty() => {
                        return Err(src.at(t, "take needs at least one count, e.g. [1, 2, 3]"));
                    }
                    Some(t) => {
                        let mut out = Vec::new();
                        for &n in &t.value {
                            if !(1..=1000).contains(&n) {
                                return Err(src.at(
                                    t,
                                    format!("every count in take must be from 1 to 1000, not {n}"),
                                ));
                            }
                            out.push(n as u16);
                        }
                        out.sort_unstable();
                        out.dedup();
                        out
                    }
                };
                GameSpec::Nim {
                    stones,
                    take,
                    last_stone: self
                        .last_stone
                        .as_ref()
                        .map_or(LastStone::Wins, |v| v.value),
                }
            }
            GameName::Tictactoe => GameSpec::TicTacToe,
        };

        let mut allowed = BTreeMap::new();
        if let (Some(a), GameSpec::Nim { stones, take, .. }) = (&self.allowed, &game) {
            for (&at, moves) in &a.value {
                if at < 1 || at > i64::from(*stones) {
                    return Err(src.at(
                        a,
                        format!("allowed: {at} stones cannot occur in a game of {stones}"),
                    ));
                }
                let mut wired = Vec::new();
                for &m in moves {
                    if m < 1 || m > at || !take.contains(&(m as u16)) {
                        return Err(src.at(
                            a,
                            format!("allowed: at {at} stones, taking {m} is not a legal move"),
                        ));
                    }
                    wired.push(m as u16);
                }
                if wired.is_empty() {
                    return Err(src.at(
                        a,
                        format!("allowed: the box for {at} stones needs at least one move"),
                    ));
                }
                wired.sort_unstable();
                wired.dedup();
                allowed.insert(at as u16, wired);
            }
        }

        let beads = self
            .beads
            .as_ref()
            .map_or(BeadSchedule::Each(1), |b| b.value.clone());
        if let Some(b) = &self.beads {
            let check = |n: u32| {
                if (1..=100).contains(&n) {
                    Ok(())
                } else {
                    Err(src.at(b, format!("beads per move must be from 1 to 100, not {n}")))
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
            let (aw, ah) = crate::sheet::label_area(paper);
            let drawn = match &stickers {
                Some(sheet) => {
                    let inset = 2.0 * crate::sheet::safe_margin_mm(sheet);
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
                let (across, down) = crate::sheet::cut_grid(paper, label);
                (across * down) as u32
            }
        };
        let start_at = self.start_at.as_ref().map_or(Ok(1), |v| {
            ranged(src, v, "start_at", 1, i64::from(per_sheet))
        })?;

        let default_rule = match game {
            GameSpec::TicTacToe => Rule::Menace,
            _ => Rule::Gardner,
        };
        let language = self.language.as_ref().map_or(Language::En, |v| v.value);
        let words = crate::i18n::strings(language);
        let name = match (&self.name, &self.preset) {
            (Some(n), _) => n.value.trim().to_string(),
            (None, Some(p)) => words.get(&format!("preset.{}", p.value)).to_string(),
            (None, None) => words.get(&format!("name.{}", game_label(kind))).to_string(),
        };
        if name.is_empty() {
            return Err(src.at(
                self.name.as_ref().expect("name given"),
                "the kit's name is empty",
            ));
        }
        Ok(Kit {
            name,
            game,
            machine: self.machine.as_ref().map_or(Side::Second, |v| v.value),
            symmetry: self.symmetry.as_ref().is_none_or(|v| v.value),
            skip_forced: self.skip_forced.as_ref().is_some_and(|v| v.value),
            beads,
            allowed,
            palette,
            rule: self.rule.as_ref().map_or(default_rule, |v| v.value),
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
        })
    }
}

fn game_label(kind: GameName) -> &'static str {
    match kind {
        GameName::Hexapawn => "hexapawn",
        GameName::Nim => "nim",
        GameName::Tictactoe => "tictactoe",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(yaml: &str) -> String {
        match Kit::from_yaml(yaml, "kit.yaml") {
            Err(Error::Input(m)) => m,
            other => panic!("expected an input error, got {other:?}"),
        }
    }

    #[test]
    fn every_preset_resolves() {
        for p in &PRESETS {
            let kit = Kit::from_preset(p.name).unwrap();
            assert!(!kit.name.is_empty());
        }
    }

    #[test]
    fn a_file_overrides_its_preset() {
        let kit = Kit::from_yaml("preset: bachet\nstones: 12\nlanguage: ru\n", "kit.yaml").unwrap();
        assert_eq!(kit.language, Language::Ru);
        assert_eq!(kit.tags, Tags::MachineMove);
        match kit.game {
            GameSpec::Nim { stones, .. } => assert_eq!(stones, 12),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn changing_the_game_drops_the_presets_game_settings() {
        let kit = Kit::from_yaml("preset: hexapawn\ngame: nim\n", "kit.yaml").unwrap();
        assert_eq!(kit.game.name(), "nim");
    }

    #[test]
    fn mistakes_name_the_line_and_column() {
        assert!(
            err("game: hexapawn\nrows: 2\n")
                .starts_with("kit.yaml:2:7: rows must be from 3 to 8, not 2")
        );
        assert!(
            err("game: nim\nstones: 0\n")
                .starts_with("kit.yaml:2:9: stones must be from 1 to 1000")
        );
        assert!(err("game: nim\ntake: []\n").starts_with("kit.yaml:2:7:"));
        assert!(err("game: nim\ntake: [0, 1]\n").contains("from 1 to 1000, not 0"));
        let unknown = err("game: hexapawn\ncolour: red\n");
        assert!(unknown.starts_with("kit.yaml:2:1:"), "{unknown}");
        assert!(unknown.contains("colour"), "{unknown}");
        let game = err("game: chess\n");
        assert!(
            game.starts_with("kit.yaml:1:7:") && game.contains("hexapawn"),
            "{game}"
        );
        let preset = err("preset: chess\n");
        assert!(
            preset.starts_with("kit.yaml:1:9:") && preset.contains("menace"),
            "{preset}"
        );
        let wrong_type = err("game: hexapawn\nrows: three\n");
        assert!(wrong_type.starts_with("kit.yaml:2:7:"), "{wrong_type}");
        assert!(err("game: hexapawn\nstones: 8\n").contains("does not apply to hexapawn"));
        assert!(
            err("game: tictactoe\ntake: [1]\n")
                .starts_with("kit.yaml:2:7: `take` does not apply to tictactoe")
        );
        assert!(err("language: fr\ngame: nim\n").contains("pl"));
    }

    #[test]
    fn a_label_larger_than_the_paper_is_refused() {
        let m = err("game: nim\nlabel: {width_mm: 300, height_mm: 40}\n");
        assert!(
            m.starts_with("kit.yaml:2:8:") && m.contains("does not fit"),
            "{m}"
        );
    }

    #[test]
    fn nothing_in_the_file_is_an_error_not_a_panic() {
        assert!(err("").contains("say which game"));
        assert!(err("[1, 2]").starts_with("kit.yaml"));
        assert!(err("game: nim\nbeads: -1\n").contains("negative"));
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
