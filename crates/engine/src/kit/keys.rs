//! Which keys a kit file may hold and what each takes, for the messages: the kit's own
//! and every game's, a misspelt key, a key of another game, a kit that names no game.

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;
use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_saphyr::{Location, Spanned};

use super::{KitFile, presets};
use crate::Error;
use crate::game::{AnyGame, GAMES};
use crate::rule::BEADS_TAKE;
use crate::settings::{SettingsFile, Source, Vocabulary};

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
pub(super) const ALLOWED: [(&str, &str); 19] = [
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
pub(super) fn game_names() -> String {
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
pub(super) fn allowed(key: &str) -> Option<String> {
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
pub(super) const VOCABULARY: Vocabulary = Vocabulary {
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

/// The presets' names, for messages.
fn preset_names() -> String {
    presets().map(|p| p.name).collect::<Vec<_>>().join(", ")
}

pub(super) fn unknown_preset(name: &str) -> String {
    format!("unknown preset `{name}`: choose one of {}", preset_names())
}

/// Why a kit that names no game cannot be read, at the place that says so: a misspelt
/// key (`préset`), a `game` or `preset` with no value, or no such key at all.
pub(super) fn no_game(src: &Source, text: &str) -> Error {
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
