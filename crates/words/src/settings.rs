//! kit.yaml read with the place of every key: the text in layers (a preset's, then the
//! file's), each part of it read by a struct of its own ([`settings_file!`]: the kit's
//! keys, each game's), and every YAML error in the kit writer's words at
//! `file:line:column`. The games read their keys through [`KitText`]; what each key takes
//! comes from the kit, above the games ([`Vocabulary`]).

use std::collections::BTreeMap;
use std::fmt;

use serde::de::DeserializeOwned;
use serde_saphyr::{Location, Spanned};

use crate::i18n::{Id, Language, Messages, id};
use crate::{Error, Message, Place, Position, Problem};

/// Where a kit file gives each key: later checks (the boxes, the palette, the labels)
/// point their errors at the setting that caused them, in the kit's language.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Places {
    /// The file's name, as messages name it.
    pub source: String,
    /// Where each key is written.
    pub keys: BTreeMap<&'static str, Location>,
    /// The language the messages about the kit are said in.
    pub messages: Messages,
}

impl Places {
    /// Whether the kit file itself gives `key` (not its preset, not a default).
    pub fn gives(&self, key: &str) -> bool {
        self.keys.contains_key(key)
    }

    /// An input error pointing at the first of `keys` that the kit file gives; without
    /// a place when it gives none (a preset, a default).
    pub fn error(&self, keys: &[&str], message: Message) -> Error {
        let given = keys.iter().find_map(|k| Some((*k, self.keys.get(k)?)));
        let place = given.map(|(_, loc)| Place {
            file: self.source.clone(),
            at: Some(Position::of(loc)),
        });
        // Shown at the key the file gives, else the first the problem is about.
        let key = given.map(|(k, _)| k).or(keys.first().copied());
        Error::Kit(Box::new(Problem {
            place,
            key: key.map(str::to_string),
            keys: keys.iter().map(|k| k.to_string()).collect(),
            ..Problem::new(message)
        }))
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
    /// How each key's value is written, from its type, in the order of the struct.
    fn kinds() -> Vec<(&'static str, Kind)>;
}

/// How a key's value is written, as a form edits it: found from the value's type by
/// asking it to read itself from a reader that only notes what it was asked for.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Kind {
    /// A line of text.
    Text,
    /// A whole number.
    Number,
    /// true or false.
    Flag,
    /// One of the names.
    Choice {
        /// The names, as kit.yaml writes them.
        choices: Vec<&'static str>,
    },
    /// A list of whole numbers.
    List,
    /// Whole numbers, each with a list of whole numbers.
    Map,
    /// A value of a shape of its own, found so from its type; the kit names each of its
    /// own such keys' shapes below (the kit crate's `describe_keys`).
    Own,
    /// The beads of a box: one number, or move numbers with beads.
    Beads,
    /// The bead colours: names with `#rrggbb`.
    Palette,
    /// A label size by name, a sticker sheet, or a width and height in millimetres.
    Label,
    /// Beads added or taken after a win, a draw, a loss.
    Reward,
}

/// The whole numbers a key takes (the key's number, or each number of its list, map or
/// triple), named as a form's number field names its bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Range {
    /// The least.
    pub min: i64,
    /// The most.
    pub max: i64,
}

impl Range {
    /// From `min` to `max`, both taken.
    pub const fn new(min: i64, max: i64) -> Range {
        Range { min, max }
    }
}

impl Kind {
    /// The kind of a key whose value is a `T`.
    pub fn of<'de, T: serde::Deserialize<'de>>() -> Kind {
        match T::deserialize(Probe) {
            Err(Probed(kind)) => kind,
            Ok(_) => Kind::Own,
        }
    }
}

/// The reader that notes what it was asked for ([`Kind::of`]).
struct Probe;

/// What [`Probe`] was asked for.
#[derive(Debug)]
struct Probed(Kind);

impl fmt::Display for Probed {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{:?}", self.0)
    }
}

impl std::error::Error for Probed {}

impl serde::de::Error for Probed {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Probed(Kind::Own)
    }
}

/// `deserialize_NAME` methods of [`Probe`] that answer `kind`.
macro_rules! probe_as {
    ($kind:expr => $($method:ident),*) => {
        $(fn $method<V: serde::de::Visitor<'de>>(self, _: V) -> Result<V::Value, Probed> {
            Err(Probed($kind))
        })*
    };
}

impl<'de> serde::Deserializer<'de> for Probe {
    type Error = Probed;
    probe_as!(Kind::Own => deserialize_any);
    probe_as!(Kind::Number => deserialize_i8, deserialize_i16, deserialize_i32, deserialize_i64,
        deserialize_u8, deserialize_u16, deserialize_u32, deserialize_u64);
    probe_as!(Kind::Flag => deserialize_bool);
    probe_as!(Kind::Text => deserialize_str, deserialize_string);
    probe_as!(Kind::List => deserialize_seq);
    probe_as!(Kind::Map => deserialize_map);

    fn deserialize_enum<V: serde::de::Visitor<'de>>(
        self,
        _: &'static str,
        variants: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Probed> {
        Err(Probed(Kind::Choice {
            choices: variants.to_vec(),
        }))
    }

    serde::forward_to_deserialize_any! {
        i128 u128 f32 f64 char bytes byte_buf option unit unit_struct newtype_struct tuple
        tuple_struct struct identifier ignored_any
    }
}

/// Declares a part of kit.yaml once: a struct with every field optional and with its
/// place, and how a file overrides a preset.
#[macro_export]
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

            fn kinds() -> Vec<(&'static str, $crate::settings::Kind)> {
                vec![$((stringify!($field), $crate::settings::Kind::of::<$ty>())),*]
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
pub use crate::settings_file;

/// The keys of a game that has none of its own (noughts and crosses).
#[derive(Debug, Default, serde::Deserialize)]
pub struct NoKeys {}

impl SettingsFile for NoKeys {
    const KEYS: &'static [&'static str] = &[];

    fn overlay(self, _top: NoKeys) -> NoKeys {
        NoKeys {}
    }

    fn places(&self) -> BTreeMap<&'static str, Location> {
        BTreeMap::new()
    }

    fn kinds() -> Vec<(&'static str, Kind)> {
        Vec::new()
    }
}

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
    pub fn at<T>(&self, spanned: &Spanned<T>, message: Message) -> Error {
        self.src.at(spanned, message)
    }

    /// A whole number of the kit's `key`, checked to be from `low` to `high`.
    pub fn ranged<T: TryFrom<i64>>(
        &self,
        value: &Spanned<i64>,
        key: &str,
        low: i64,
        high: i64,
    ) -> Result<T, Error> {
        ranged(self.src, value, key, low, high)
    }

    /// The language the messages about the kit are said in.
    pub fn messages(&self) -> Messages {
        self.src.messages
    }

    /// An input error pointing at the first of `keys` that the file gives.
    pub fn error(&self, keys: &[&str], message: Message) -> Error {
        self.places.error(keys, message)
    }
}

/// Where a kit's text came from, what its keys take and the language of the kit, for
/// error messages.
pub struct Source<'a> {
    /// The file's name (or the preset's), as messages name it.
    pub name: &'a str,
    /// What the keys take.
    pub vocabulary: &'a Vocabulary,
    /// The language the messages are said in.
    pub messages: Messages,
}

/// What the keys of kit.yaml take, for the messages: the kit's own keys and every game's.
/// Only the kit, above the games, knows them all; it hands them down with the text.
pub struct Vocabulary {
    /// kit.yaml's own keys.
    pub keys: &'static [&'static str],
    /// What a key takes, in the messages' language, if it is a key of kit.yaml or of
    /// one of its games.
    pub allowed: fn(&str, Messages) -> Option<Message>,
    /// The message for an empty kit: what to write in it.
    pub empty: fn(Messages) -> Message,
}

/// The language of a kit's messages: its `language:` key, read line by line before the
/// YAML parser reads the file, so that a mistake anywhere in the kit (even one that stops
/// the parser, or one on a line above the key) is said in it; English when the key is
/// missing, and `otherwise` (the reader's language, where a front end knows it) when it
/// names no kit language.
pub fn messages_for(text: &str, otherwise: Language) -> Messages {
    // The line's language, where its key is `language` or, failing that, a slip of it
    // (`languge: pl`), so that the message about the slip is said in Polish too.
    let declared = |close: bool| {
        text.lines().find_map(|line| {
            let (key, value) = line.split_once(':')?;
            let key = key.trim_end();
            let fits = key == "language"
                || (close
                    && !key.starts_with(' ')
                    && strsim::damerau_levenshtein(key, "language") <= 2);
            if !fits {
                return None;
            }
            let value = value.split('#').next()?.trim();
            let value = value.trim_matches(|c| c == '"' || c == '\'');
            Language::ALL.into_iter().find(|l| l.code() == value)
        })
    };
    // A `language:` line naming none of the kit languages: the reader's own, if known.
    let names_another = text.lines().any(|line| {
        line.split_once(':')
            .is_some_and(|(key, _)| key.trim_end() == "language")
    });
    Messages(
        declared(false)
            .or_else(|| declared(true))
            .unwrap_or(if names_another {
                otherwise
            } else {
                Language::default()
            }),
    )
}

/// Marks a message that a deserializer of a kit value hands serde, which carries text
/// only: a message's id and its values, said in the kit's language by [`Source::parse`],
/// which knows the language and the key being read.
const DEFERRED: char = '\u{1e}';
/// Parts a deferred message's key, names and values.
const PART: char = '\u{1f}';

/// A message of a kit value's deserializer, to be said in the kit's language once its
/// key is known: `message` with `values`, and `{key}` and `{takes}` of the key read.
pub fn deferred(message: Id, values: &[(&str, &str)]) -> String {
    let mut out = format!("{DEFERRED}{message}");
    for (name, value) in values {
        out.push(PART);
        out.push_str(name);
        out.push(PART);
        out.push_str(value);
    }
    out
}

/// A [`deferred`] message's id and values, if `message` is one.
fn undefer(message: &str) -> Option<(Id, Vec<(&str, &str)>)> {
    let mut parts = message.strip_prefix(DEFERRED)?.split(PART);
    let key = Id::find(parts.next()?)?;
    let mut values = Vec::new();
    while let (Some(name), Some(value)) = (parts.next(), parts.next()) {
        values.push((name, value));
    }
    Some((key, values))
}

impl Source<'_> {
    /// An input error pointing at a place in the kit text.
    pub fn at_location(&self, loc: &Location, message: Message) -> Error {
        located(self.name, loc, message)
    }

    /// An input error pointing at a value of the kit.
    pub fn at<T>(&self, spanned: &Spanned<T>, message: Message) -> Error {
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
            Ok(None) => Err(placed(
                self.name,
                1,
                1,
                (self.vocabulary.empty)(self.messages),
            )),
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
        let say = self.messages;
        let Some(loc) = error.location().filter(|l| l.line() > 0) else {
            return Error::Kit(Box::new(Problem {
                place: Some(Place {
                    file: self.name.to_string(),
                    at: None,
                }),
                ..Problem::new(whole_file_problem(error, say))
            }));
        };
        let allowed = self.vocabulary.allowed;
        let key = key_at(text, loc.line(), allowed);
        let found = found_at(text, &loc, key);
        // `key_at` finds only keys that say what they take.
        let takes = |key: &str| allowed(key, say).expect("`key_at` finds only such keys");
        let expected = |key: &str| match &found {
            Some(found) => say
                .message(id::PROBLEM_EXPECTED, &[("key", key), ("found", found)])
                .with("takes", takes(key)),
            None => say
                .message(id::PROBLEM_EXPECTED_NOTHING, &[("key", key)])
                .with("takes", takes(key)),
        };
        let message = match (error, key) {
            (E::SerdeUnknownField { field, .. }, Some(key)) if key != field => say
                .message(
                    id::PROBLEM_UNKNOWN_INNER_KEY,
                    &[("key", key), ("field", field)],
                )
                .with("takes", takes(key)),
            (E::SerdeUnknownField { field, .. }, _) => {
                unknown_key(field, self.vocabulary.keys.iter().copied(), say)
            }
            (E::Message { msg, .. }, Some(key)) => {
                visitor_message(msg, key, takes(key), say, || expected(key))
            }
            (E::DuplicateMappingKey { key: Some(k), .. }, _) => {
                say.message(id::PROBLEM_TWICE, &[("key", k)])
            }
            (E::DuplicateMappingKey { key: None, .. }, _) => {
                say.message(id::PROBLEM_TWICE_UNNAMED, &[])
            }
            (E::SerdeMissingField { field, .. }, Some(key)) => say
                .message(id::PROBLEM_MISSING, &[("key", key), ("field", field)])
                .with("takes", takes(key)),
            (E::UnsupportedTag { tag, .. } | E::TaggedStructFieldName { tag, .. }, _) => {
                say.message(id::PROBLEM_TAG, &[("tag", tag)])
            }
            (E::ExternalMessage { msg, .. }, _) => {
                if let Some((line, column, message)) = unclosed_bracket(text, &loc, say) {
                    return placed(self.name, line, column, message);
                }
                // The parser blames the end of the line before a tab that indents.
                if let Some((line, column)) = first_tab(text, &loc).filter(|_| msg.contains("tab"))
                {
                    return placed(self.name, line, column, not_yaml(msg, text, &loc, say));
                }
                not_yaml(msg, text, &loc, say)
            }
            (E::MultipleDocuments { .. } | E::Budget { .. } | E::Eof { .. }, _)
            | (
                E::AliasReplayCounterOverflow { .. }
                | E::AliasReplayLimitExceeded { .. }
                | E::AliasExpansionLimitExceeded { .. }
                | E::AliasReplayStackDepthExceeded { .. },
                _,
            ) => whole_file_problem(error, say),
            (_, Some(key)) => expected(key),
            (_, None) => match &found {
                Some(found) => say.message(id::PROBLEM_NOT_A_LIST, &[("found", found)]),
                None => say.message(id::PROBLEM_NOT_A_LIST_EMPTY, &[]),
            },
        };
        self.at_location(&loc, message)
    }
}

/// A deserializer's message about `key`: our own visitors' words (labels, sticker
/// sheets, beads), in the kit's language. Another deserializer's message is serde's own
/// English: kept as it is in an English kit, said as what the key takes in any other.
fn visitor_message(
    msg: &str,
    key: &str,
    takes: Message,
    say: Messages,
    expected: impl FnOnce() -> Message,
) -> Message {
    let line = first_line(msg);
    match undefer(&line) {
        Some((problem, mut values)) => {
            values.push(("key", key));
            say.message(problem, &values).with("takes", takes)
        }
        None if say.0 == Language::En => {
            say.message(id::PROBLEM_READER_SAYS, &[("key", key), ("why", &line)])
        }
        None => expected(),
    }
}

/// What the YAML parser found wrong, in a kit writer's words rather than the parser's.
fn not_yaml(msg: &str, text: &str, loc: &Location, say: Messages) -> Message {
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
        say.message(id::PROBLEM_TAB, &[])
    } else if msg.contains("recursion") || msg.contains("depth") {
        say.message(id::PROBLEM_TOO_DEEP, &[])
    } else if msg.contains("quoted") {
        say.message(id::PROBLEM_QUOTE_NEVER_ENDS, &[])
    } else if let Some(c) = here.filter(|c| c.is_control() || msg.contains("unexpected character"))
    {
        say.message(id::PROBLEM_STRAY_CHARACTER, &[("code", &code_point(c))])
    } else {
        say.message(id::PROBLEM_NOT_A_SETTING, &[])
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

/// `U+200D`: a character as a message names it.
pub fn code_point(c: char) -> String {
    format!("U+{:04X}", u32::from(c))
}

/// The quote mark, `[` or `{` that the parse stopped in without its closing mark, with a
/// message for it: the parser itself blames a later line, in its own words.
fn unclosed_bracket(text: &str, stop: &Location, say: Messages) -> Option<(u64, u64, Message)> {
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
                say.message(
                    id::PROBLEM_QUOTE_NEVER_CLOSED,
                    &[("mark", &mark.to_string())],
                ),
            ));
        }
    }
    // A list left open on an earlier line: flow lists in a kit fit on one line.
    let &(line, column, bracket) = open.first().filter(|(line, ..)| *line < stop.line())?;
    let close = if bracket == '[' { ']' } else { '}' };
    Some((
        line,
        column,
        say.message(
            id::PROBLEM_BRACKET_NEVER_CLOSED,
            &[
                ("open", &bracket.to_string()),
                ("close", &close.to_string()),
            ],
        ),
    ))
}

/// The one way a kit error names its place: `file:line:column: message`.
pub fn located(source: &str, loc: &Location, message: Message) -> Error {
    at_position(source, Position::of(loc), message)
}

/// A mistake at `position` of the file `source`.
fn at_position(source: &str, position: Position, message: Message) -> Error {
    Error::Kit(Box::new(Problem {
        place: Some(Place {
            file: source.to_string(),
            at: Some(position),
        }),
        ..Problem::new(message)
    }))
}

impl Source<'_> {
    /// The place of `loc` in this text, as a problem names it.
    pub fn place(&self, loc: &Location) -> Place {
        Place {
            file: self.name.to_string(),
            at: Some(Position::of(loc)),
        }
    }
}

/// [`located`] at a line and column.
pub fn placed(source: &str, line: u64, column: u64, message: Message) -> Error {
    let position = Position {
        line,
        column,
        span: None,
    };
    at_position(source, position, message)
}

impl Position {
    /// The position of `loc`, with the bytes of the value there where the reader counted
    /// them.
    pub fn of(loc: &Location) -> Position {
        let span = loc.span();
        let bytes = span.byte_offset().zip(span.byte_len());
        Position {
            line: loc.line(),
            column: loc.column(),
            span: bytes
                .filter(|(_, len)| *len > 0)
                .map(|(start, len)| (start, start + len)),
        }
    }
}

/// What is wrong with a kit file as a whole, for errors that are not about one key.
fn whole_file_problem(error: &serde_saphyr::Error, say: Messages) -> Message {
    use serde_saphyr::Error as E;
    match error {
        E::InvalidUtf8Input => say.message(id::PROBLEM_NOT_UTF8, &[]),
        E::MultipleDocuments { .. } => say.message(id::PROBLEM_TWO_KITS, &[]),
        E::Eof { .. } => say.message(id::PROBLEM_ENDS_IN_A_VALUE, &[]),
        E::Budget { .. }
        | E::AliasReplayCounterOverflow { .. }
        | E::AliasReplayLimitExceeded { .. }
        | E::AliasExpansionLimitExceeded { .. }
        | E::AliasReplayStackDepthExceeded { .. } => say.message(id::PROBLEM_TOO_LARGE, &[]),
        // The parser's own words, for a failure no kit writer has met yet.
        other => say.message(
            id::PROBLEM_UNREADABLE,
            &[("why", &first_line(&other.without_snippet().to_string()))],
        ),
    }
}

/// The top-level key whose value holds line `line` (the last `key:` at the start of a
/// line at or before it), if it is a key of kit.yaml.
fn key_at(text: &str, line: u64, allowed: fn(&str, Messages) -> Option<Message>) -> Option<&str> {
    text.lines()
        .take(usize::try_from(line).unwrap_or(usize::MAX))
        .filter(|l| l.starts_with(|c: char| c.is_ascii_alphabetic() || c == '"' || c == '\''))
        .filter_map(|l| l.split_once(':'))
        .map(|(k, _)| k.trim().trim_matches(|c| c == '"' || c == '\''))
        .last()
        .filter(|k| allowed(k, Messages::default()).is_some())
}

/// The value written at `loc` (when `loc` is at `key:` itself, the value after it),
/// quoted and shortened for a message; `None` when nothing is written there.
fn found_at(text: &str, loc: &Location, key: Option<&str>) -> Option<String> {
    let index = |n: u64| usize::try_from(n).unwrap_or(usize::MAX).saturating_sub(1);
    let line = text.lines().nth(index(loc.line())).unwrap_or("");
    let from: String = line.chars().skip(index(loc.column())).collect();
    let from = key
        .and_then(|k| from.strip_prefix(k))
        .and_then(|v| v.strip_prefix(':'))
        .unwrap_or(&from);
    let rest = value_text(from);
    let value = rest.trim();
    if value.is_empty() {
        return None;
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
    Some(format!("`{shown}{more}`"))
}

/// The message for a key that is none of `keys`: the key it was surely meant to be
/// (`did you mean `language`?`), or else every key.
pub fn unknown_key<'a>(
    name: &str,
    keys: impl Iterator<Item = &'a str> + Clone,
    say: Messages,
) -> Message {
    match nearest(name, keys.clone()) {
        Some(near) => say.message(
            id::PROBLEM_UNKNOWN_KEY_NEAR,
            &[("field", name), ("near", near)],
        ),
        None => say.message(
            id::PROBLEM_UNKNOWN_KEY,
            &[
                ("field", name),
                ("keys", &keys.collect::<Vec<_>>().join(", ")),
            ],
        ),
    }
}

/// The key of `keys` a misspelt `name` was meant to be: one a letter or two away
/// (`languge`, `préset`), or one it spells out in full (`columns` for `cols`); none when
/// no key is that close, so that a stranger's key is not guessed at.
pub fn nearest<'a>(name: &str, keys: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let spelt_out = |key: &str| {
        let mut letters = name.chars();
        key.chars().count() >= 3
            && key.chars().next() == name.chars().next()
            && key.chars().all(|c| letters.any(|l| l == c))
    };
    keys.filter_map(|key| {
        let distance = strsim::damerau_levenshtein(name, key);
        (distance <= 2 || spelt_out(key)).then_some((distance, key))
    })
    .min()
    .map(|(_, key)| key)
}

/// The value at the start of `from`: a list or a mapping whole, to its closing bracket
/// (`[0,0,0,0]`, never `[0`), a plain value to the comma, bracket or comment that ends it.
fn value_text(from: &str) -> String {
    let from = from.trim_start();
    if !from.starts_with(['[', '{']) {
        return from
            .chars()
            .take_while(|c| !matches!(c, ',' | ']' | '}' | '#'))
            .collect();
    }
    let mut depth = 0usize;
    let mut out = String::new();
    for c in from.chars() {
        out.push(c);
        match c {
            '[' | '{' => depth += 1,
            ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if depth == 0 {
            break;
        }
    }
    out
}

/// The message of a YAML error without the location the parser appends.
fn first_line(text: &str) -> String {
    let line = text.lines().next().unwrap_or(text).trim();
    match line.rfind(" at line ") {
        Some(i) => line[..i].to_string(),
        None => line.to_string(),
    }
}

/// A whole number of the kit's `key`, checked to be from `low` to `high`.
pub fn ranged<T: TryFrom<i64>>(
    src: &Source,
    value: &Spanned<i64>,
    key: &str,
    low: i64,
    high: i64,
) -> Result<T, Error> {
    let say = src.messages;
    let out_of_range = || {
        src.at(
            value,
            say.message(
                id::PROBLEM_RANGE,
                &[
                    ("key", key),
                    ("low", &say.number(low)),
                    ("high", &say.number(high)),
                    ("found", &say.number(value.value)),
                ],
            ),
        )
    };
    if value.value < low || value.value > high {
        return Err(out_of_range());
    }
    T::try_from(value.value).map_err(|_| out_of_range())
}
