//! Which keys a kit file may hold and what each takes, for the messages: the kit's own
//! and every game's, a misspelt key, a key of another game, a kit that names no game.

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;
use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_saphyr::{Location, Spanned};

use super::{Kit, KitFile, presets};
use crate::Error;
use crate::game::{AnyGame, Field, GAMES, KitBound};
use crate::i18n::{Id, Language, Messages, Named, id, number, strings};
use crate::rule::{MAX_REWARD, MAX_START_BEADS, Rule};
use crate::settings::{self, Kind, Range, SettingsFile, Source, Vocabulary, placed};
use crate::{Command, Message};

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

/// The games' names as a choice: `a, b or c`.
pub(super) fn game_names(say: Messages) -> Message {
    let names: Vec<&str> = GAMES.iter().map(|g| g.name).collect();
    let (last, some) = names.split_last().expect("the list of games is not empty");
    say.message(
        id::PROBLEM_OR,
        &[("some", &some.join(", ")), ("last", last)],
    )
}

/// The ways a kit names its game: `` `game: a`, `game: b` or `game: c` ``.
fn game_choices(say: Messages) -> String {
    say.or_list(
        &GAMES
            .iter()
            .map(|g| format!("`game: {}`", g.name))
            .collect::<Vec<_>>(),
    )
}

/// Whether `key` is a key of kit.yaml or of one of its games.
fn is_key(key: &str) -> bool {
    KitFile::KEYS.contains(&key) || GAMES.iter().any(|g| g.keys.contains(&key))
}

/// What `key` takes, if it is a key of kit.yaml or of one of its games.
/// (`problem.takes.KEY` of the strings, in the kit's and the games' files), with the
/// command that lists the choices where there is one.
pub(super) fn allowed(key: &str, say: Messages) -> Option<Message> {
    if key == "game" {
        return Some(game_names(say));
    }
    let takes = say.message(Named::Takes.id(key).filter(|_| is_key(key))?, &[]);
    Some(match key {
        "preset" => takes.hint(Command::Presets, id::PROBLEM_HINT_SEE),
        "label" => takes.hint(Command::Labels, id::PROBLEM_HINT_SEE),
        _ => takes,
    })
}

/// What kit.yaml's keys take, for the messages of the text read below the games.
pub(super) const VOCABULARY: Vocabulary = Vocabulary {
    keys: KitFile::KEYS,
    allowed,
    empty: |say| {
        say.message(
            id::PROBLEM_EMPTY,
            &[("games", &game_choices(say)), ("presets", &preset_names())],
        )
    },
};

/// The presets' names, for messages.
fn preset_names() -> String {
    presets().map(|p| p.name).collect::<Vec<_>>().join(", ")
}

/// The message for a preset that is none of the presets.
pub(super) fn unknown_preset(name: &str, say: Messages) -> Message {
    say.message(
        id::PROBLEM_UNKNOWN_PRESET,
        &[("name", name), ("presets", &preset_names())],
    )
}

/// Why a kit that names no game cannot be read, at the place that says so: a misspelt
/// key (`préset`), a `game` or `preset` with no value, or no such key at all.
pub(super) fn no_game(src: &Source, text: &str) -> Error {
    let keys = match src.parse::<TopKeys>(text) {
        Ok(TopKeys(keys)) => keys,
        Err(e) => return e,
    };
    let say = src.messages;
    for (key, value_at) in &keys {
        let name = key.value.as_str();
        let takes = match name {
            "game" => Some(game_names(say)),
            "preset" => Some(say.message(id::PROBLEM_ONE_OF, &[("names", &preset_names())])),
            _ => None,
        };
        if let Some(takes) = takes {
            return src.at_location(
                value_at,
                say.message(id::PROBLEM_EXPECTED_NOTHING, &[("key", name)])
                    .with("takes", takes),
            );
        }
        if !is_key(name) {
            let every = KitFile::KEYS
                .iter()
                .chain(GAMES.iter().flat_map(|g| g.keys.iter()))
                .copied();
            return src.at(key, settings::unknown_key(name, every, say));
        }
    }
    placed(
        src.name,
        1,
        1,
        say.message(
            id::PROBLEM_NO_GAME,
            &[("games", &game_choices(say)), ("presets", &preset_names())],
        ),
    )
}

/// Refuses keys that are no kit's (at the key) and keys of another game (at the value);
/// gives where the file writes each of the game's own keys.
pub(super) fn check_keys(
    src: &Source,
    text: &str,
    game: &str,
) -> Result<BTreeMap<&'static str, Location>, Error> {
    let mut places = BTreeMap::new();
    let Some(entry) = AnyGame::entry(game) else {
        return Ok(places);
    };
    let TopKeys(keys) = src.parse(text)?;
    let say = src.messages;
    for (key, value_at) in keys {
        let name = key.value.as_str();
        if KitFile::KEYS.contains(&name) {
            continue;
        }
        if let Some(own) = entry.keys.iter().find(|k| **k == name) {
            places.insert(*own, value_at);
            continue;
        }
        if is_key(name) {
            return Err(src.at_location(
                &value_at,
                say.message(
                    id::PROBLEM_ANOTHER_GAMES_KEY,
                    &[("field", name), ("game", game)],
                ),
            ));
        }
        let keys = KitFile::KEYS.iter().chain(entry.keys).copied();
        let message = match settings::nearest(name, keys.clone()) {
            Some(near) => say.message(
                id::PROBLEM_UNKNOWN_KEY_NEAR,
                &[("field", name), ("near", near)],
            ),
            None => say.message(
                id::PROBLEM_UNKNOWN_GAME_KEY,
                &[
                    ("field", name),
                    ("game", game),
                    ("keys", &keys.collect::<Vec<_>>().join(", ")),
                ],
            ),
        };
        return Err(src.at(&key, message));
    }
    Ok(places)
}

/// The top-level key written on or above `line` of a kit's text (the key whose value
/// holds that line), for a problem placed on a line to be shown at its key.
pub fn key_on_line(text: &str, line: u64) -> Option<String> {
    let TopKeys(keys) = serde_saphyr::from_str(text).ok()?;
    keys.into_iter()
        .take_while(|(key, _)| key.referenced.line() <= line)
        .last()
        .map(|(key, _)| key.value)
}

/// A key a kit can take, as a form is built from it: how it is written and what it
/// takes, where it goes, which games and presets use it, what a kit of each game has
/// without it, and its words in every language.
#[derive(Clone, Debug, serde::Serialize)]
pub struct KeyDescription {
    /// The key as kit.yaml writes it.
    pub name: &'static str,
    /// How its value is written (a key of choices lists them here).
    #[serde(flatten)]
    pub kind: Kind,
    /// The whole numbers it takes, for a key of numbers.
    pub range: Option<Range>,
    /// How many numbers it takes, for a key of a list.
    pub count: Option<Range>,
    /// What bounds it that depends on the rest of the kit (`start_at`, the sheet).
    pub bound: Option<KitBound>,
    /// The part of the form it belongs to: `game`, `paper`, `beads` or `look`.
    pub section: &'static str,
    /// The games whose kits take it.
    pub games: Vec<&'static str>,
    /// The presets whose text gives it.
    pub presets: Vec<&'static str>,
    /// What a kit of each game (by name) that does not give it has.
    pub defaults: BTreeMap<&'static str, serde_json::Value>,
    /// The key and value it applies under, when only one (`reward` under `rule: menace`).
    pub applies: Option<(&'static str, &'static str)>,
    /// Its words in each language, by the language's code.
    pub words: BTreeMap<&'static str, KeyWords>,
}

/// A key's words in one language, as the form shows them.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct KeyWords {
    /// Its name in the form ([`Field::name`]).
    pub name: String,
    /// What more the form says of it ([`Field::hint`]), with its range's figures.
    pub hint: Option<String>,
    /// Each of its choices' words (`designer.value.CHOICE`), for a key of choices.
    pub choices: BTreeMap<&'static str, String>,
}

impl KeyWords {
    /// The words of `field`, whose value is `kind`, in `language`.
    fn of(field: &Field, kind: &Kind, language: Language) -> KeyWords {
        let words = strings(language);
        let choices = match kind {
            Kind::Choice { choices } => choices
                .iter()
                .map(|&c| {
                    let said = Id::find(&format!("designer.value.{c}"));
                    (c, said.map_or(c.into(), |id| words.get(id).to_string()))
                })
                .collect(),
            _ => BTreeMap::new(),
        };
        // A hint's figures are its field's, said as the language writes numbers.
        let figures = |range: Option<Range>, low, high| {
            range.into_iter().flat_map(move |r| {
                [(low, r.min), (high, r.max)].map(|(name, n)| (name, number(language, n)))
            })
        };
        let bound_min = field
            .bound
            .map(|KitBound::LabelsPerSheet { min }| ("min", min));
        let values: Vec<(&str, String)> = figures(field.range, "min", "max")
            .chain(figures(field.count, "fewest", "most"))
            .chain(bound_min.map(|(name, n)| (name, number(language, n))))
            .collect();
        let values: Vec<(&str, &str)> = values.iter().map(|(k, v)| (*k, v.as_str())).collect();
        KeyWords {
            name: words.get(field.name).to_string(),
            hint: field.hint.map(|hint| words.fill(hint, &values)),
            choices,
        }
    }
}

/// kit.yaml's own keys: the part of the form each goes in, the shape of those of a
/// shape of their own, and the field of each, whose numbers are the same for every
/// kit; a key of a game goes with the game. `preset` and `game` are chosen by the kit
/// itself, not edited as a value, and are not described.
const KIT_KEYS: &[(&str, &str, Option<Kind>, Field)] = &[
    (
        "name",
        "game",
        None,
        Field::named(id::DESIGNER_FIELD_NAME).hint(id::DESIGNER_FIELD_NAME_HINT),
    ),
    (
        "machine",
        "game",
        None,
        Field::named(id::DESIGNER_FIELD_MACHINE),
    ),
    (
        "symmetry",
        "look",
        None,
        Field::named(id::DESIGNER_FIELD_SYMMETRY),
    ),
    (
        "skip_forced",
        "look",
        None,
        Field::named(id::DESIGNER_FIELD_SKIP_FORCED),
    ),
    (
        "beads",
        "beads",
        Some(Kind::Beads),
        Field::named(id::DESIGNER_FIELD_BEADS)
            .hint(id::DESIGNER_FIELD_BEADS_HINT)
            .range(1, MAX_START_BEADS as i64),
    ),
    (
        "palette",
        "beads",
        Some(Kind::Palette),
        Field::named(id::DESIGNER_FIELD_PALETTE),
    ),
    ("rule", "beads", None, Field::named(id::DESIGNER_FIELD_RULE)),
    (
        "reward",
        "beads",
        Some(Kind::Reward),
        Field::named(id::DESIGNER_FIELD_REWARD).range(-MAX_REWARD as i64, MAX_REWARD as i64),
    ),
    (
        "language",
        "paper",
        None,
        Field::named(id::DESIGNER_FIELD_LANGUAGE),
    ),
    (
        "paper",
        "paper",
        None,
        Field::named(id::DESIGNER_FIELD_PAPER),
    ),
    (
        "label",
        "paper",
        Some(Kind::Label),
        Field::named(id::DESIGNER_FIELD_LABEL),
    ),
    (
        "start_at",
        "paper",
        None,
        Field::named(id::DESIGNER_FIELD_START_AT)
            .hint(id::DESIGNER_FIELD_START_AT_HINT)
            .bound(KitBound::LabelsPerSheet { min: 1 }),
    ),
    (
        "move_colours",
        "look",
        None,
        Field::named(id::DESIGNER_FIELD_MOVE_COLOURS),
    ),
    ("tags", "look", None, Field::named(id::DESIGNER_FIELD_TAGS)),
    (
        "numerals",
        "look",
        None,
        Field::named(id::DESIGNER_FIELD_NUMERALS),
    ),
    (
        "show_beads",
        "look",
        None,
        Field::named(id::DESIGNER_FIELD_SHOW_BEADS),
    ),
    (
        "previews",
        "look",
        None,
        Field::named(id::DESIGNER_FIELD_PREVIEWS),
    ),
];

/// A key of one or more games as the form takes it.
struct GameKey {
    name: &'static str,
    kind: Kind,
    field: Field,
    games: Vec<&'static str>,
}

/// Every key a kit can take, kit.yaml's own in the file's order, then each game's.
pub fn describe_keys() -> Vec<KeyDescription> {
    let defaults: Vec<(&str, BTreeMap<&str, serde_json::Value>)> = GAMES
        .iter()
        .map(|g| {
            let kit = Kit::from_yaml(&format!("game: {}\n", g.name), "kit.yaml");
            let settings = kit.map(|k| k.settings().into_iter().collect());
            (g.name, settings.unwrap_or_default())
        })
        .collect();
    let described = |section, key: GameKey| {
        let GameKey {
            name,
            kind,
            field,
            games,
        } = key;
        let presets = presets()
            .filter(|p| {
                serde_saphyr::from_str::<TopKeys>(p.yaml)
                    .is_ok_and(|TopKeys(keys)| keys.iter().any(|(k, _)| k.value == name))
            })
            .map(|p| p.name)
            .collect();
        let defaults = defaults
            .iter()
            .filter(|(game, _)| games.contains(game))
            .filter_map(|(game, settings)| Some((*game, settings.get(name)?.clone())))
            .collect();
        let applies = (name == "reward").then_some(("rule", Rule::Menace.name()));
        let words = Language::ALL
            .iter()
            .map(|&language| (language.code(), KeyWords::of(&field, &kind, language)))
            .collect();
        KeyDescription {
            name,
            kind,
            range: field.range,
            count: field.count,
            bound: field.bound,
            section,
            games,
            presets,
            defaults,
            applies,
            words,
        }
    };
    let every_game: Vec<&str> = GAMES.iter().map(|g| g.name).collect();
    let kinds = KitFile::kinds();
    let mut keys: Vec<KeyDescription> = KIT_KEYS
        .iter()
        .map(|(name, section, own, field)| {
            let (name, probed) = kinds
                .iter()
                .find(|(k, _)| k == name)
                .expect("every described key is kit.yaml's")
                .clone();
            let kind = own.clone().unwrap_or(probed);
            let games = every_game.clone();
            described(
                section,
                GameKey {
                    name,
                    kind,
                    field: *field,
                    games,
                },
            )
        })
        .collect();
    // A key two games share is one field, for both.
    let mut game_keys: Vec<GameKey> = Vec::new();
    for game in GAMES {
        for (name, kind) in (game.kinds)() {
            let (_, field) = game
                .fields
                .iter()
                .find(|(k, _)| *k == name)
                .unwrap_or_else(|| panic!("{}: {name} has no field", game.name));
            match game_keys.iter_mut().find(|k| k.name == name) {
                Some(shared) => shared.games.push(game.name),
                None => game_keys.push(GameKey {
                    name,
                    kind,
                    field: *field,
                    games: vec![game.name],
                }),
            }
        }
    }
    keys.extend(game_keys.into_iter().map(|key| described("game", key)));
    keys
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_says_what_it_takes() {
        // `game` lists the games instead (see `allowed`).
        for key in KitFile::KEYS
            .iter()
            .chain(GAMES.iter().flat_map(|g| g.keys))
        {
            if *key != "game" {
                assert!(Named::Takes.id(key).is_some(), "problem.takes.{key}");
            }
        }
    }

    #[test]
    fn every_key_a_kit_can_take_is_described_once_with_its_shape() {
        let keys = describe_keys();
        let names: Vec<&str> = keys.iter().map(|k| k.name).collect();
        let mut every: Vec<&str> = KitFile::KEYS
            .iter()
            .chain(GAMES.iter().flat_map(|g| g.keys))
            .copied()
            .filter(|k| !["preset", "game"].contains(k))
            .collect();
        every.sort();
        every.dedup();
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(sorted, every, "each key once, and no other");
        assert!(
            keys.iter().all(|k| k.kind != Kind::Own),
            "every shape named"
        );
        let kind = |name: &str| keys.iter().find(|k| k.name == name).unwrap().kind.clone();
        assert_eq!(kind("stones"), Kind::Number);
        assert_eq!(kind("heaps"), Kind::List);
        assert_eq!(kind("allowed"), Kind::Map);
        assert_eq!(kind("show_beads"), Kind::Flag);
        assert_eq!(kind("name"), Kind::Text);
        assert_eq!(
            kind("last_stone"),
            Kind::Choice {
                choices: vec!["wins", "loses"]
            }
        );
        assert_eq!(
            kind("rule"),
            Kind::Choice {
                choices: Rule::ALL.map(Rule::name).to_vec()
            }
        );
        let rows = keys.iter().find(|k| k.name == "rows").unwrap();
        assert_eq!(rows.games, ["hexapawn"]);
        assert_eq!(rows.defaults["hexapawn"], serde_json::json!(3));
        assert!(rows.presets.contains(&"octapawn"), "{:?}", rows.presets);
        assert_eq!(rows.range, Some(Range::new(3, 8)));
    }

    #[test]
    fn every_key_of_every_game_is_described_with_its_range_or_choices() {
        let keys = describe_keys();
        for game in GAMES {
            for &name in game.keys {
                let key = keys
                    .iter()
                    .find(|k| k.name == name)
                    .unwrap_or_else(|| panic!("{}: {name} not described", game.name));
                assert!(key.games.contains(&game.name), "{name}: {:?}", key.games);
                match (&key.kind, key.range) {
                    (Kind::Choice { choices }, None) => assert!(choices.len() > 1, "{name}"),
                    (_, Some(range)) => {
                        assert!(range.min <= range.max, "{name}: {range:?}");
                        // The range told is the one the kit refuses beyond.
                        let beyond = match key.kind {
                            Kind::Number => format!("{}", range.max + 1),
                            Kind::Map => format!("{{{}: [1]}}", range.max + 1),
                            _ => format!("[{}]", range.max + 1),
                        };
                        let kit = format!("game: {}\n{name}: {beyond}\n", game.name);
                        let refused = Kit::from_yaml(&kit, "kit.yaml").map(|_| ());
                        assert!(refused.is_err(), "{kit}");
                    }
                    (kind, None) => panic!("{}: {name} ({kind:?}) has no range", game.name),
                }
            }
        }
    }

    #[test]
    fn every_described_key_has_its_words_in_every_language() {
        for key in describe_keys() {
            let mut codes: Vec<&str> = key.words.keys().copied().collect();
            codes.sort();
            let mut every = Language::ALL.map(Language::code).to_vec();
            every.sort();
            assert_eq!(codes, every, "{}", key.name);
            for (code, words) in &key.words {
                assert!(!words.name.is_empty(), "{code}: {}", key.name);
                assert!(!words.name.contains("designer."), "{code}: {}", key.name);
            }
            if let Kind::Choice { choices } = &key.kind {
                for choice in choices {
                    let value = format!("designer.value.{choice}");
                    assert!(Id::find(&value).is_some(), "{}: {value}", key.name);
                }
            }
        }
    }

    #[test]
    fn a_hint_takes_its_figures_from_its_range() {
        let keys = describe_keys();
        let fields = KIT_KEYS
            .iter()
            .map(|(name, _, _, field)| (*name, *field))
            .chain(GAMES.iter().flat_map(|g| g.fields.iter().copied()));
        for (name, field) in fields {
            let (Some(hint), Some(range)) = (field.hint, field.range) else {
                continue;
            };
            let described = keys.iter().find(|k| k.name == name).unwrap();
            for language in Language::ALL {
                let written = strings(language).get(hint);
                // The most is said by the field, never written in the words.
                let most = range.max.to_string();
                let spelt = written
                    .split(|c: char| !c.is_ascii_digit())
                    .any(|figure| figure == most);
                assert!(!spelt, "{name}'s hint writes {most}: {written}");
                let said = described.words[language.code()].hint.as_ref().unwrap();
                assert!(!said.contains('{'), "{name}: {said}");
                if written.contains("{max}") {
                    assert!(said.contains(&number(language, range.max)), "{said}");
                }
            }
        }
        let heaps = keys.iter().find(|k| k.name == "heaps").unwrap();
        assert_eq!(heaps.count, Some(Range::new(1, 5)));
        let pins = &keys.iter().find(|k| k.name == "pins").unwrap().words["en"];
        assert!(pins.hint.as_ref().unwrap().starts_with("From 1 to 12."));
    }

    #[test]
    fn start_at_is_bounded_by_the_labels_on_a_sheet() {
        let keys = describe_keys();
        let start_at = keys.iter().find(|k| k.name == "start_at").unwrap();
        assert_eq!(start_at.bound, Some(KitBound::LabelsPerSheet { min: 1 }));
        let hint = start_at.words["en"].hint.as_ref().unwrap();
        assert!(hint.starts_with("From 1 to the stickers"), "{hint}");
        for label in ["L7160", "matchbox"] {
            let kit = |start: u32| {
                let yaml = format!("game: nim\nlabel: {label}\nstart_at: {start}\n");
                Kit::from_yaml(&yaml, "kit.yaml")
            };
            let most = kit(1).unwrap().labels_per_sheet();
            assert!(most > 1, "{label}");
            assert_eq!(kit(most).unwrap().start_at, most, "{label}");
            assert!(kit(most + 1).is_err(), "{label}: {}", most + 1);
        }
    }
}
