//! kit.yaml read with the place of every key: the text in layers (a preset's, then the
//! file's), each part of it read by a struct of its own ([`settings_file!`]: the kit's
//! keys, each game's), and every YAML error in the kit writer's words at
//! `file:line:column`. The games read their keys through [`KitText`]; what each key takes
//! comes from the kit, above the games ([`Vocabulary`]).

use std::collections::BTreeMap;
use std::fmt;

use serde::de::DeserializeOwned;
use serde_saphyr::{Location, Spanned};

use crate::Error;

/// Where a kit file gives each key: later checks (the boxes, the palette, the labels)
/// point their errors at the setting that caused them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Places {
    /// The file's name, as messages name it.
    pub source: String,
    /// Where each key is written.
    pub keys: BTreeMap<&'static str, Location>,
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

        impl $crate::settings::SettingsFile for $name {
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

/// The kit's text as a game reads its own keys from it: a preset's text (when the file
/// keeps the preset's game), then the file's, with the file's places for errors.
pub struct KitText<'a> {
    /// Where the text came from.
    pub src: &'a Source<'a>,
    /// The preset's text (if the file keeps its game), then the file's.
    pub layers: Vec<&'a str>,
    /// Where the file gives its keys.
    pub places: &'a Places,
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

/// Where a kit's text came from, and what its keys take, for error messages.
pub struct Source<'a> {
    /// The file's name (or the preset's), as messages name it.
    pub name: &'a str,
    /// What the keys take.
    pub vocabulary: &'a Vocabulary,
}

/// What the keys of kit.yaml take, for the messages: the kit's own keys and every game's.
/// Only the kit, above the games, knows them all; it hands them down with the text.
pub struct Vocabulary {
    /// kit.yaml's own keys.
    pub keys: &'static [&'static str],
    /// What a key takes, if it is a key of kit.yaml or of one of its games.
    pub allowed: fn(&str) -> Option<String>,
    /// What to write in an empty kit.
    pub empty: fn() -> String,
}

impl Source<'_> {
    /// An input error pointing at a place in the kit text.
    pub fn at_location(&self, loc: &Location, message: impl fmt::Display) -> Error {
        located(self.name, loc, message)
    }

    /// An input error pointing at a value of the kit.
    pub fn at<T>(&self, spanned: &Spanned<T>, message: impl fmt::Display) -> Error {
        self.at_location(&spanned.referenced, message)
    }

    /// The text read as `T`, its errors in the kit writer's words.
    pub fn parse<T: DeserializeOwned>(&self, text: &str) -> Result<T, Error> {
        // A tag (`!foo 3`) would otherwise be dropped in silence: a kit has no use for one.
        let options = serde_saphyr::options! {
            reject_unsupported_tags: true,
            reject_tagged_field_names: true,
        };
        match serde_saphyr::from_str_with_options::<Option<T>>(text, options) {
            Ok(Some(file)) => Ok(file),
            Ok(None) => Err(Error::Input(format!(
                "{}:1:1: the kit is empty: write {}",
                self.name,
                (self.vocabulary.empty)()
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
        let allowed = self.vocabulary.allowed;
        let key = key_at(text, loc.line(), allowed);
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
                self.vocabulary.keys.join(", ")
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
pub fn located(source: &str, loc: &Location, message: impl fmt::Display) -> Error {
    placed(source, loc.line(), loc.column(), message)
}

impl Source<'_> {
    /// `file:line:column: `, the way a message names a place.
    pub fn place(&self, loc: &Location) -> String {
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

/// The top-level key whose value holds line `line` (the last `key:` at the start of a
/// line at or before it), if it is a key of kit.yaml.
fn key_at(text: &str, line: u64, allowed: fn(&str) -> Option<String>) -> Option<&str> {
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

/// A whole number of the kit, checked to be from `low` to `high`.
pub fn ranged<T: TryFrom<i64>>(
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
