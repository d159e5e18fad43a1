//! The kit: what a teacher writes in kit.yaml, the built-in presets, and validation that
//! points at the file, line and column of every mistake (`keys`: which keys a kit may
//! hold; `resolve`: the settings made into a kit, one concern at a time); what it is
//! printed on ([`media`]) and in ([`glyphs`]); and its boxes ([`boxes`]): every position
//! the machine can face.

#![warn(missing_docs)]

// `with_game!` for the tests.
#[cfg(test)]
#[macro_use]
extern crate matchbox_games;

pub mod boxes;
#[cfg(test)]
mod game_keys;
pub mod glyphs;
mod keys;
pub mod media;
pub use keys::{KeyDescription, KeyWords, describe_keys, key_on_line};
mod resolve;

use serde::{Deserialize, Serialize};

use matchbox_games as game;
use matchbox_words::{i18n, palette, rule, settings};

use crate::game::{AnyGame, GAMES, MachineSettings, Side};
use crate::i18n::{Language, Messages, id};
use crate::media::{LABEL_SIZES, LabelSize, Paper, StickerSheet};
use crate::palette::Colour;
use crate::rule::{BeadSchedule, Reward, Rule};
use crate::settings::{
    KitText, Places, Preset, SettingsFile, Source, messages_for, placed, settings_file,
};
use keys::{VOCABULARY, check_keys, game_names, no_game, unknown_preset};
use matchbox_words::{Command, Error, Message, Place, Problem};
use resolve::{LabelChoice, PaletteEntry};
pub use resolve::{MAX_NAME_CHARS, without_controls};

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
    pub warnings: Vec<Problem>,
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

/// The largest kit file read: a kit is a few dozen lines.
pub const MAX_KIT_BYTES: u64 = 1 << 20;

/// Looks a preset up by name.
pub fn preset(name: &str) -> Option<&'static Preset> {
    presets().find(|p| p.name == name)
}

impl Kit {
    /// How many labels one of its sheets holds: `start_at` is from 1 to this.
    pub fn labels_per_sheet(&self) -> u32 {
        media::labels_per_sheet(self.paper, self.label, self.stickers.as_ref())
    }

    /// A built-in preset as a kit.
    pub fn from_preset(name: &str) -> Result<Kit, Error> {
        // A preset named on the command line: no kit, so no language but English.
        let preset = preset(name).ok_or_else(|| {
            Error::Kit(Box::new(Problem::new(unknown_preset(
                name,
                Messages::default(),
            ))))
        })?;
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
    /// (the reader stops one byte past it) is refused as the wrong file. A `language:`
    /// the kit cannot take has its mistakes said in `reader`'s language.
    pub fn from_bytes(bytes: Vec<u8>, shown: &str, reader: Language) -> Result<Kit, Error> {
        // Said in the kit's language where its `language:` line can be read at all.
        let say = |bytes: &[u8]| messages_for(&String::from_utf8_lossy(bytes), reader);
        if bytes.len() as u64 > MAX_KIT_BYTES {
            let message = say(&bytes).message(id::PROBLEM_FILE_TOO_LARGE, &[]);
            let place = Place {
                file: shown.to_string(),
                at: None,
            };
            return Err(Error::Kit(Box::new(Problem {
                place: Some(place),
                ..Problem::new(message)
            })));
        }
        let text = String::from_utf8(bytes).map_err(|e| {
            let before = &e.as_bytes()[..e.utf8_error().valid_up_to()];
            let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
            let column = before.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
            let message = say(e.as_bytes()).message(id::PROBLEM_NOT_UTF8, &[]);
            placed(shown, line as u64, column as u64, message)
        })?;
        Kit::read(&text, shown, reader)
    }

    /// Reads kit.yaml text; `source` names it in error messages.
    pub fn from_yaml(text: &str, source: &str) -> Result<Kit, Error> {
        Kit::read(text, source, Language::En)
    }

    /// Reads kit.yaml text, its mistakes said in `reader`'s language where its own
    /// `language:` names none of the kit languages.
    fn read(text: &str, source: &str, reader: Language) -> Result<Kit, Error> {
        let say = messages_for(text, reader);
        let src = Source {
            name: source,
            vocabulary: &VOCABULARY,
            messages: say,
        };
        let file: KitFile = src.parse(text)?;
        let mut places = Places {
            source: source.to_string(),
            keys: file.places(),
            messages: say,
        };
        let mut layers = Vec::new();
        let mut preset_rule = None;
        let merged = match &file.preset {
            Some(name) => {
                let preset = preset(&name.value)
                    .ok_or_else(|| src.at(name, unknown_preset(&name.value, say)))?;
                let base: KitFile = Source {
                    name: preset.name,
                    vocabulary: &VOCABULARY,
                    messages: say,
                }
                .parse(preset.yaml)?;
                if let (Some(own), Some(theirs)) = (&file.game, &base.game)
                    && own.value != theirs.value
                {
                    return Err(src.at(
                        own,
                        say.message(
                            id::PROBLEM_NOT_THE_PRESETS_GAME,
                            &[
                                ("key", "game"),
                                ("game", &own.value),
                                ("preset", preset.name),
                                ("presets_game", &theirs.value),
                            ],
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
                say.message(
                    id::PROBLEM_EXPECTED,
                    &[
                        ("key", "game"),
                        ("found", &format!("`{}`", game_name.value)),
                    ],
                )
                .with("takes", game_names(say)),
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
        self.own_game_keys().chain(["game", "preset"]).collect()
    }

    /// The game's own keys in kit.yaml.
    pub fn own_game_keys(&self) -> impl Iterator<Item = &'static str> {
        let own = AnyGame::entry(self.game.name()).map_or(&[][..], |g| g.keys);
        own.iter().copied()
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
        Err(Error::Kit(problem)) => problem.to_string(),
        other => panic!("expected an input error, got {other:?}"),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::keys::allowed;
    use super::*;

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
            let Some(key) = other.map(|g| g.keys[0]) else {
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
    fn every_key_says_what_it_takes_in_every_language() {
        let every = KitFile::KEYS
            .iter()
            .chain(GAMES.iter().flat_map(|g| g.keys));
        for key in every {
            for language in Language::ALL {
                let takes = allowed(key, Messages(language))
                    .map(|takes| takes.to_string())
                    .unwrap_or_default();
                assert!(
                    !takes.is_empty() && !takes.starts_with("problem."),
                    "{language:?}: {key} takes {takes}"
                );
            }
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
    fn mistakes_are_said_in_the_language_the_kit_gives_wherever_it_gives_it() {
        // Above the mistake, below it, quoted, with a comment; a parse that stops early.
        for yaml in [
            "language: pl\ngame: hexapawn\nrows: 9\n",
            "game: hexapawn\nrows: 9\nlanguage: \"pl\" # polski\n",
            "game: hexapawn\nrows: [9\nlanguage: pl\n",
        ] {
            let message = err(yaml);
            assert!(
                message.contains("rows: wartość") || message.contains("nawias"),
                "{message}"
            );
        }
        let ru = err("game: nim\nstones: 0\nlanguage: ru\n");
        assert_eq!(
            ru,
            "kit.yaml:2:9: stones: значение должно быть от 1 до 1000, а не 0"
        );
        // No language, or none of the kit's: English.
        assert!(err("game: hexapawn\nrows: 9\n").contains("rows must be from 3 to 8"));
        let french = err("game: hexapawn\nrows: 9\nlanguage: fr\n");
        assert!(
            french.contains("expected en (English), pl (polski) or ru (русский)"),
            "{french}"
        );
        // The language of a kit read without it: its warnings, its later checks.
        let kit = Kit::from_yaml(
            "preset: bachet-relay\nrule: gardner\nlanguage: ru\n",
            "kit.yaml",
        )
        .unwrap();
        assert!(
            kit.warnings[0]
                .to_string()
                .starts_with("kit.yaml:2:7: предупреждение:")
        );
        assert_eq!(kit.places.messages, Messages(Language::Ru));
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
