//! The kit: what a teacher writes in kit.yaml, the built-in presets, and validation that
//! points at the file, line and column of every mistake.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_saphyr::{Location, Spanned};

use crate::Error;
use crate::game::{AnyGame, GAMES, MachineSettings, Side};
use crate::i18n::Language;
use crate::media::{LABEL_SIZES, LabelSize, Paper, STICKER_SHEETS, StickerSheet, sticker_sheet};
use crate::palette::{self, Colour};
use crate::rule::{BEADS_TAKE, BeadSchedule, MAX_REWARD, MAX_START_BEADS, Reward, Rule};
use crate::settings::{
    KitText, Places, Preset, SettingsFile, Source, Vocabulary, ranged, settings_file,
};

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

/// Every game's presets, in the order `matchbox presets` lists them.
pub fn presets() -> impl Iterator<Item = &'static Preset> {
    GAMES.iter().flat_map(|game| game.presets.iter())
}

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

/// What each of kit.yaml's own keys takes, in the words of the error messages (each
/// game says the same of its own keys; `game` lists the games).
const ALLOWED: [(&str, &str); 19] = [
    ("preset", "the name of a preset (see `matchbox presets`)"),
    ("name", "a line of text"),
    ("game", ""),
    ("machine", "first or second"),
    ("symmetry", "true or false"),
    ("skip_forced", "true or false"),
    ("beads", BEADS_TAKE),
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

/// What kit.yaml's keys take, for the messages of the text read below the games.
const VOCABULARY: Vocabulary = Vocabulary {
    keys: KitFile::KEYS,
    allowed,
    empty: || {
        format!(
            "at least {} or `preset: NAME` ({})",
            game_choices(),
            preset_names()
        )
    },
};

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
        let src = Source {
            name: source,
            vocabulary: &VOCABULARY,
        };
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
                let base: KitFile = Source {
                    name: preset.name,
                    vocabulary: &VOCABULARY,
                }
                .parse(preset.yaml)?;
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

    /// What the game's historic claims and box checks read of the kit.
    pub fn machine_settings(&self) -> MachineSettings<'_> {
        MachineSettings {
            machine: self.machine,
            symmetry: self.symmetry,
            skip_forced: self.skip_forced,
            beads: &self.beads,
            rule: self.rule,
            places: &self.places,
        }
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

/// The games of the presets, for the tests of modules outside the games' folder (and of
/// the other crates), which name no game.
#[doc(hidden)]
pub mod fixtures {
    use super::Kit;
    use crate::game::{AnyGame, Side, hexapawn, nim, tictactoe};

    /// The game of HER, HIM and octapawn.
    pub type Pawns = hexapawn::Hexapawn;
    /// The game of Bachet's machines and Marienbad.
    pub type Stones = nim::Nim;
    /// MENACE's game.
    pub type Grid = tictactoe::TicTacToe;
    /// A position of [`Stones`].
    pub type Heaps = nim::Pile;

    /// The preset of Gardner's HER.
    pub const HER: &str = "hexapawn";
    /// The preset of Gardner's HIM.
    pub const HIM: &str = "hexapawn-first";

    /// A preset's kit and its game, which must be `G`.
    fn preset<G>(name: &str, game: impl Fn(&AnyGame) -> Option<&G>) -> (G, Kit)
    where
        G: Clone,
    {
        let kit = Kit::from_preset(name).expect("a preset");
        let game = game(&kit.game).expect("the preset's game").clone();
        (game, kit)
    }

    /// A preset of [`Pawns`].
    pub fn pawns(name: &str) -> (Pawns, Kit) {
        preset(name, |g| match g {
            AnyGame::Hexapawn(g) => Some(g),
            _ => None,
        })
    }

    /// A preset of [`Stones`].
    pub fn stones(name: &str) -> (Stones, Kit) {
        preset(name, |g| match g {
            AnyGame::Nim(g) => Some(g),
            _ => None,
        })
    }

    /// A preset of [`Grid`].
    pub fn grid(name: &str) -> (Grid, Kit) {
        preset(name, |g| match g {
            AnyGame::TicTacToe(g) => Some(g),
            _ => None,
        })
    }

    /// One heap of `stones` with `to_move` to move.
    pub fn heap(stones: u16, to_move: Side) -> Heaps {
        let mut heaps = [0; nim::MAX_HEAPS];
        heaps[0] = stones;
        Heaps { heaps, to_move }
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
