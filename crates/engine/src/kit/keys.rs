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
use crate::i18n::Messages;
use crate::settings::{self, SettingsFile, Source, Vocabulary, placed};

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
pub(super) fn game_names(say: Messages) -> String {
    say.or_list(&GAMES.iter().map(|g| g.name.to_string()).collect::<Vec<_>>())
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
/// (`problem.takes.KEY` of the strings, in the kit's and the games' files).
pub(super) fn allowed(key: &str, say: Messages) -> Option<String> {
    if key == "game" {
        return Some(game_names(say));
    }
    is_key(key).then(|| say.say(&format!("takes.{key}"), &[]))
}

/// What kit.yaml's keys take, for the messages of the text read below the games.
pub(super) const VOCABULARY: Vocabulary = Vocabulary {
    keys: KitFile::KEYS,
    allowed,
    empty: |say| {
        say.say(
            "empty",
            &[("games", &game_choices(say)), ("presets", &preset_names())],
        )
    },
};

/// The presets' names, for messages.
fn preset_names() -> String {
    presets().map(|p| p.name).collect::<Vec<_>>().join(", ")
}

/// The message for a preset that is none of the presets.
pub(super) fn unknown_preset(name: &str, say: Messages) -> String {
    say.say(
        "unknown_preset",
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
            "preset" => Some(say.say("one_of", &[("names", &preset_names())])),
            _ => None,
        };
        if let Some(takes) = takes {
            return src.at_location(
                value_at,
                say.say("expected_nothing", &[("key", name), ("takes", &takes)]),
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
        say.say(
            "no_game",
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
                say.say("another_games_key", &[("field", name), ("game", game)]),
            ));
        }
        let keys = KitFile::KEYS.iter().chain(entry.keys).copied();
        let message = match settings::nearest(name, keys.clone()) {
            Some(near) => say.say("unknown_key_near", &[("field", name), ("near", near)]),
            None => say.say(
                "unknown_game_key",
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
