//! The kit's [`Language`], the words the program prints itself in it (from
//! `templates/<lang>/strings.yaml`), and every template file (compiled in by build.rs, so
//! a fresh machine needs nothing else).

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::palette::Colour;

pub use matchbox_templates::{Id, id};

/// The language of every word printed in the kit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    /// English, the default.
    #[default]
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

/// The strings of one language.
pub struct Strings {
    map: BTreeMap<String, String>,
}

/// A template file by its path under templates/, e.g. `en/games/GAME/rules.md`.
pub fn template_file(path: &str) -> Option<&'static str> {
    let files = matchbox_templates::files();
    files
        .binary_search_by(|(name, _)| name.cmp(&path))
        .ok()
        .map(|i| files[i].1)
}

/// The template files under a folder of templates/ (`en/games/GAME/`), with their paths
/// relative to it.
pub fn template_folder(folder: &str) -> impl Iterator<Item = (&'static str, &'static str)> + '_ {
    matchbox_templates::files()
        .iter()
        .filter_map(move |(name, text)| Some((name.strip_prefix(folder)?, *text)))
}

/// The strings.yaml text of each language.
pub fn strings_source(language: Language) -> &'static str {
    template_file(&format!("{}/strings.yaml", language.code())).unwrap_or_default()
}

/// Each game's own strings.yaml in a language (preset names, words of its cut-outs),
/// as (game, text).
fn game_strings(language: Language) -> Vec<(&'static str, &'static str)> {
    let folder = format!("{}/games/", language.code());
    template_folder(&folder)
        .filter_map(|(path, text)| Some((path.strip_suffix("/strings.yaml")?, text)))
        .collect()
}

/// The strings of a language (its strings.yaml and every game's), parsed once.
pub fn strings(language: Language) -> &'static Strings {
    static CELLS: [OnceLock<Strings>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let i = Language::ALL
        .iter()
        .position(|l| *l == language)
        .unwrap_or(0);
    CELLS[i].get_or_init(|| {
        // The files are part of the program and checked by tests; an unreadable one
        // leaves the keys themselves showing rather than stopping a teacher's build.
        let mut map: BTreeMap<String, String> =
            serde_saphyr::from_str(strings_source(language)).unwrap_or_default();
        for (_, text) in game_strings(language) {
            map.extend(
                serde_saphyr::from_str::<BTreeMap<String, String>>(text).unwrap_or_default(),
            );
        }
        Strings { map }
    })
}

impl Strings {
    /// The text of a message (its key if missing: tests make sure none is).
    pub fn get(&self, id: Id) -> &str {
        let key = id.key();
        self.map.get(key).map_or(key, String::as_str)
    }

    /// The text of a message with its `{name}` placeholders filled in.
    pub fn fill(&self, id: Id, values: &[(&str, &str)]) -> String {
        fill(self.get(id), values)
    }

    /// Every key, sorted.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.map.keys().map(String::as_str)
    }

    /// Every message as (its key, its text), sorted by the key: the whole store, for
    /// whoever hands a part of it on (the page's words) or checks it.
    pub fn entries(&self) -> impl Iterator<Item = (&str, &str)> {
        self.map
            .iter()
            .map(|(key, text)| (key.as_str(), text.as_str()))
    }

    /// A bead colour's name: translated for the default colours, as written otherwise.
    pub fn colour_name(&self, colour: &Colour) -> String {
        self.translated(|(name, _)| name, colour)
            .unwrap_or_else(|| colour.name.clone())
    }

    /// The letter printed beside an arrow of this colour.
    pub fn colour_code(&self, colour: &Colour) -> String {
        self.translated(|(_, code)| code, colour)
            .unwrap_or_else(|| {
                colour
                    .name
                    .chars()
                    .next()
                    .map(|c| c.to_uppercase().collect())
                    .unwrap_or_default()
            })
    }

    /// The letter of a bead of this colour beside a picture that shows `drawn` letters
    /// itself: its usual letter, or, when that is one of them, the first two letters of
    /// its name (orange's `O` beside noughts becomes `Or`).
    pub fn bead_code(&self, colour: &Colour, drawn: &[&str]) -> String {
        let code = self.colour_code(colour);
        if !drawn.contains(&code.as_str()) {
            return code;
        }
        let name = self.colour_name(colour);
        let mut letters = name.chars().filter(|c| c.is_alphabetic());
        letters
            .next()
            .into_iter()
            .flat_map(char::to_uppercase)
            .chain(letters.next())
            .collect()
    }

    fn translated(&self, word: fn((Id, Id)) -> Id, colour: &Colour) -> Option<String> {
        let id = word(colour_words(&colour.name)?);
        Some(self.get(id).to_string())
    }
}

/// The words of a bead colour the store translates, by its kit.yaml name: its name
/// (`colour.red`) and the letter printed beside its arrows (`code.red`).
fn colour_words(name: &str) -> Option<(Id, Id)> {
    Some(match name {
        "red" => (id::COLOUR_RED, id::CODE_RED),
        "blue" => (id::COLOUR_BLUE, id::CODE_BLUE),
        "yellow" => (id::COLOUR_YELLOW, id::CODE_YELLOW),
        "green" => (id::COLOUR_GREEN, id::CODE_GREEN),
        "black" => (id::COLOUR_BLACK, id::CODE_BLACK),
        "orange" => (id::COLOUR_ORANGE, id::CODE_ORANGE),
        "purple" => (id::COLOUR_PURPLE, id::CODE_PURPLE),
        "pink" => (id::COLOUR_PINK, id::CODE_PINK),
        "brown" => (id::COLOUR_BROWN, id::CODE_BROWN),
        "grey" => (id::COLOUR_GREY, id::CODE_GREY),
        "sky" => (id::COLOUR_SKY, id::CODE_SKY),
        "turquoise" => (id::COLOUR_TURQUOISE, id::CODE_TURQUOISE),
        "white" => (id::COLOUR_WHITE, id::CODE_WHITE),
        "navy" => (id::COLOUR_NAVY, id::CODE_NAVY),
        "lime" => (id::COLOUR_LIME, id::CODE_LIME),
        "maroon" => (id::COLOUR_MAROON, id::CODE_MAROON),
        "beige" => (id::COLOUR_BEIGE, id::CODE_BEIGE),
        "olive" => (id::COLOUR_OLIVE, id::CODE_OLIVE),
        _ => return None,
    })
}

/// `template` (a message of the store) with its `{name}` placeholders filled in, in order.
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = template.to_string();
    for (name, value) in values {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}

/// A word the store has for every game, preset and kit.yaml key, found by its name:
/// the one lookup by a key made at run time, for the words each game's own strings.yaml
/// adds (a test proves that every game, preset and key has its words in every language).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Named {
    /// A game's kit name when kit.yaml gives none (`name.GAME`).
    KitName,
    /// A preset's name (`preset.PRESET`).
    Preset,
    /// What a kit.yaml key takes (`problem.takes.KEY`).
    Takes,
}

impl Named {
    /// The id of this word for the game, preset or key `name`, if the store has it.
    pub fn id(self, name: &str) -> Option<Id> {
        let section = match self {
            Named::KitName => "name.",
            Named::Preset => "preset.",
            Named::Takes => "problem.takes.",
        };
        Id::find(&format!("{section}{name}"))
    }
}

impl Strings {
    /// The word `word` for the game, preset or key `name` (the name itself if the store
    /// lacks it: a test proves none does).
    pub fn named(&self, word: Named, name: &str) -> String {
        word.id(name)
            .map_or_else(|| name.to_string(), |id| self.get(id).to_string())
    }
}

/// `n` and the right form of a word: `one` for 1, `few` and `many` as the language's
/// plural rules say (Polish and Russian have three forms, English two).
pub fn plural(language: Language, n: i64, one: &str, few: &str, many: &str) -> String {
    format!(
        "{} {}",
        number(language, n),
        plural_form(language, n, one, few, many)
    )
}

/// The form of a word that goes with `n` (see [`plural`]).
pub fn plural_form<'a>(
    language: Language,
    n: i64,
    one: &'a str,
    few: &'a str,
    many: &'a str,
) -> &'a str {
    let (last, last_two) = (n.abs() % 10, n.abs() % 100);
    let few_ending = (2..=4).contains(&last) && !(12..=14).contains(&last_two);
    match language {
        Language::En => {
            if n == 1 {
                one
            } else {
                many
            }
        }
        Language::Pl => {
            if n == 1 {
                one
            } else if few_ending {
                few
            } else {
                many
            }
        }
        Language::Ru => {
            if last == 1 && last_two != 11 {
                one
            } else if few_ending {
                few
            } else {
                many
            }
        }
    }
}

/// A number with one decimal as the language writes it: `6.5` in English, `6,5` in
/// Polish and Russian.
pub fn decimal(language: Language, x: f64) -> String {
    decimals(language, x, 1)
}

/// `x` with `places` decimals and the language's decimal mark (`0.93`, `0,93`).
pub fn decimals(language: Language, x: f64, places: usize) -> String {
    let text = format!("{x:.places$}");
    match language {
        Language::En => text,
        Language::Pl | Language::Ru => text.replace('.', ","),
    }
}

/// A whole number in running text as the language writes it: grouped by threes with a
/// comma in English (`1,720`, `100,000`); in Polish and Russian, whose typography leaves
/// four digits together, from five digits on and with a narrow no-break space (`1720`,
/// `19 648`).
pub fn number(language: Language, n: i64) -> String {
    match language {
        Language::Pl | Language::Ru if n.abs() < 10_000 => n.to_string(),
        _ => grouped(language, n),
    }
}

/// `n` and the noun `problem.count.KEY` in the form its number takes, the number as
/// [`number`] writes it in running text (`100,000 games`, `19 648 партий`).
pub fn count(language: Language, n: i64, noun_id: Id) -> String {
    format!("{} {}", number(language, n), noun(language, n, noun_id))
}

/// A figure and the noun `problem.count.KEY` (`noun_id`) in the form its value takes: a
/// whole figure as [`count`] says it, one with decimals followed by `fraction.KEY`
/// (`fraction`: Russian and Polish take the genitive singular after a fraction: `12,01
/// партии`).
pub fn figure_count(
    language: Language,
    x: f64,
    places: usize,
    noun_id: Id,
    fraction: Id,
) -> String {
    let text = figure(language, x, places);
    let mark = match language {
        Language::En => '.',
        Language::Pl | Language::Ru => ',',
    };
    if text.contains(mark) {
        format!("{text} {}", strings(language).get(fraction))
    } else {
        format!("{text} {}", noun(language, x.round() as i64, noun_id))
    }
}

/// The form for `n` of the noun `problem.count.KEY`, whose forms for one, a few and
/// many are parted by `|` (`kolor|kolory|kolorów`).
fn noun(language: Language, n: i64, noun_id: Id) -> String {
    let forms = strings(language).get(noun_id);
    let mut parts = forms.split('|');
    let one = parts.next().unwrap_or_default();
    let few = parts.next().unwrap_or(one);
    let many = parts.next().unwrap_or(few);
    plural_form(language, n, one, few, many).to_string()
}

/// A measured figure with at most `places` decimals and the language's decimal mark,
/// its whole part grouped as [`number`] groups it, its trailing zeros dropped (`25%`,
/// `10.25`, `7,538.8`): a figure is shown to the
/// precision it has, never padded to a column's.
pub fn figure(language: Language, x: f64, places: usize) -> String {
    figures(language, &[x], places).remove(0)
}

/// Figures read together (an estimate and its interval) as [`figure`] writes them, but
/// all with as many decimals as the one that needs most (`9.02 (8.94 to 9.10)`, never
/// `9.1`), so that their precision reads alike.
pub fn figures(language: Language, xs: &[f64], places: usize) -> Vec<String> {
    let needed = |x: &f64| {
        let text = format!("{x:.places$}");
        let decimals = text.split_once('.').map_or("", |(_, d)| d);
        decimals.trim_end_matches('0').len()
    };
    let places = xs.iter().map(needed).max().unwrap_or(0);
    xs.iter()
        .map(|x| {
            let text = format!("{x:.places$}");
            // A figure that rounds to nothing is 0, never -0.
            let text = if text
                .trim_start_matches('-')
                .chars()
                .all(|c| c == '0' || c == '.')
            {
                text.trim_start_matches('-').to_string()
            } else {
                text
            };
            let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
            // The whole part grouped as a count in running text is (`7,538.8`).
            let whole = match whole.parse::<i64>() {
                Ok(n) if !whole.starts_with('-') || n != 0 => number(language, n),
                _ => whole.to_string(),
            };
            let mark = match language {
                Language::En => ".",
                Language::Pl | Language::Ru => ",",
            };
            if fraction.is_empty() {
                whole
            } else {
                format!("{whole}{mark}{fraction}")
            }
        })
        .collect()
}

/// A whole number grouped by threes: with a comma in English (`2,791`), with a narrow
/// no-break space in Polish and Russian (`2 791`).
pub fn grouped(language: Language, n: i64) -> String {
    let separator = match language {
        Language::En => ",",
        Language::Pl | Language::Ru => "\u{202f}",
    };
    let digits = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push_str(separator);
        }
        out.push(digit);
    }
    if n < 0 {
        out.insert(0, '-');
    }
    out
}

/// `text` safe to show on a terminal: a control character (ESC, BEL, a line break, the
/// C1 controls) or a mark that turns the direction of the text around is written as its
/// escape (`\u{1b}`), never sent, so a kit's text quoted in a message can neither run
/// terminal commands nor hide or reorder the words around it.
pub fn printable(text: &str) -> String {
    let hidden = |c: char| {
        c.is_control()
            || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    };
    if !text.chars().any(hidden) {
        return text.to_string();
    }
    text.chars()
        .map(|c| {
            if hidden(c) {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// The messages about a teacher's kit (its mistakes and its warnings) in the kit's
/// language: the `problem.*` strings, with the numbers in them written as the language
/// writes them. Every message about a kit goes through it, from kit.yaml's reading to the
/// label sheets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Messages(pub Language);

impl Messages {
    /// A message about a kit (`problem.KEY`) with its `{name}` placeholders filled in.
    pub fn say(self, id: Id, values: &[(&str, &str)]) -> String {
        let shown: Vec<(&str, String)> = values
            .iter()
            .map(|(name, value)| (*name, printable(value)))
            .collect();
        let shown: Vec<(&str, &str)> = shown.iter().map(|(n, v)| (*n, v.as_str())).collect();
        strings(self.0).fill(id, &shown)
    }

    /// A whole number in a message about a kit: as kit.yaml writes it in English (the
    /// message quotes the kit's own values), else as [`number`] writes it.
    pub fn number(self, n: impl Into<i64>) -> String {
        let n = n.into();
        match self.0 {
            Language::En => n.to_string(),
            language => number(language, n),
        }
    }

    /// `x` with `places` decimals and the language's decimal mark (`0.93`, `0,93`).
    pub fn decimals(self, x: f64, places: usize) -> String {
        decimals(self.0, x, places)
    }

    /// A length in millimetres as a person writes it: `52`, `66.7` (`66,7` in Polish and
    /// Russian), never `66.674995`.
    pub fn millimetres(self, mm: f32) -> String {
        let text = self.decimals(f64::from(mm), 1);
        match text.strip_suffix(".0").or_else(|| text.strip_suffix(",0")) {
            Some(whole) => whole.to_string(),
            None => text,
        }
    }

    /// `n` and a noun in the form its number takes: `problem.count.KEY` holds the
    /// forms for one, a few and many, parted by `|` (`kolor|kolory|kolorów`).
    pub fn count(self, n: impl Into<i64>, noun_id: Id) -> String {
        let n = n.into();
        format!("{} {}", self.number(n), noun(self.0, n, noun_id))
    }

    /// A learning rule ([`crate::rule::Rule::word_key`]) as the language names it in a
    /// sentence: `Gardner's rule`, `reguła Gardnera`, `правило Гарднера`.
    pub fn rule(self, rule: Id) -> String {
        strings(self.0).get(rule).to_string()
    }

    /// A choice as the language lists it: `a, b or c`.
    pub fn or_list(self, items: &[String]) -> String {
        match items.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => self.say(
                id::PROBLEM_OR,
                &[("some", &rest.join(", ")), ("last", last)],
            ),
            None => String::new(),
        }
    }
}

/// A sentence of the word store not yet said in any language: its key and the values of
/// its placeholders, so that one finding is printed in the kit's language and kept in
/// English as data (`--json`, where it serializes as its English text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Said {
    /// The message.
    pub key: Id,
    /// Each placeholder and its value.
    pub values: Vec<(&'static str, Value)>,
}

/// The value of a placeholder: words the same in every language (a box number, a
/// position), or a count said with its noun in the form its number takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// Said as it is.
    Text(String),
    /// `n` and the noun, one of `problem.count.*`.
    Count(i64, Id),
    /// A word of the store (`problem.side.first`).
    Word(Id),
    /// A whole number, as the language writes it in running text (`4,752`, `4752`).
    Number(i64),
}

impl Said {
    /// The sentence `key`, its placeholders not yet filled.
    pub fn new(key: Id) -> Said {
        Said {
            key,
            values: Vec::new(),
        }
    }

    /// With `{name}` filled by `text`.
    pub fn with(mut self, name: &'static str, text: impl ToString) -> Said {
        self.values.push((name, Value::Text(text.to_string())));
        self
    }

    /// With `{name}` filled by the whole number `n`, grouped as the language groups it.
    pub fn number(mut self, name: &'static str, n: impl Into<i64>) -> Said {
        self.values.push((name, Value::Number(n.into())));
        self
    }

    /// With `{name}` filled by `n` and the noun, one of `problem.count.*`.
    pub fn counting(mut self, name: &'static str, n: impl Into<i64>, noun: Id) -> Said {
        self.values.push((name, Value::Count(n.into(), noun)));
        self
    }

    /// With `{name}` filled by a word of the store.
    pub fn word(mut self, name: &'static str, key: Id) -> Said {
        self.values.push((name, Value::Word(key)));
        self
    }

    /// Each placeholder and its value, said in `language`.
    pub fn values_in(&self, language: Language) -> Vec<(&'static str, String)> {
        self.values
            .iter()
            .map(|(name, value)| {
                let text = match value {
                    Value::Text(text) => text.clone(),
                    Value::Count(n, noun) => count(language, *n, *noun),
                    Value::Word(key) => strings(language).get(*key).to_string(),
                    Value::Number(n) => number(language, *n),
                };
                (*name, text)
            })
            .collect()
    }

    /// The sentence in `language`.
    pub fn in_language(&self, language: Language) -> String {
        let values = self.values_in(language);
        let values: Vec<(&str, &str)> = values.iter().map(|(k, v)| (*k, v.as_str())).collect();
        strings(language).fill(self.key, &values)
    }
}

/// In English, the language of data.
impl std::fmt::Display for Said {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.in_language(Language::En))
    }
}

/// As its English text, so that `--json` keeps the sentence programs have always read.
impl Serialize for Said {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_kits_control_characters_are_shown_escaped_in_messages() {
        let said = Messages(Language::En).say(
            id::PROBLEM_EXPECTED,
            &[
                ("key", "game"),
                ("takes", "hexapawn"),
                ("found", "\u{1b}[2Jchess\u{7}\u{9b}"),
            ],
        );
        assert!(!said.chars().any(char::is_control), "{said:?}");
        assert!(said.contains("\\u{1b}[2Jchess\\u{7}\\u{9b}"), "{said}");
        assert_eq!(printable("Машина\u{202e}"), "Машина\\u{202e}");
        assert_eq!(printable("plain, café"), "plain, café");
    }

    use super::*;
    use crate::palette::default_palette;

    #[test]
    fn every_language_has_the_same_keys() {
        // So no language has a key English lacks, which would have no id.
        let english: Vec<&str> = strings(Language::En).keys().collect();
        assert!(english.len() > 40);
        for language in Language::ALL {
            let keys: Vec<&str> = strings(language).keys().collect();
            assert_eq!(keys, english, "{language:?}");
        }
    }

    #[test]
    fn every_id_has_its_words_in_every_language() {
        // The ids are generated from the English files by the templates' build script,
        // reading them line by line: they must be exactly the keys YAML finds there.
        let english: Vec<&str> = strings(Language::En).keys().collect();
        let ids: Vec<&str> = Id::all().iter().map(|id| id.key()).collect();
        assert_eq!(ids, english);
        for language in Language::ALL {
            let s = strings(language);
            for id in Id::all() {
                assert!(s.map.contains_key(id.key()), "{language:?}: {id}");
            }
        }
        assert_eq!(Id::find("cli.verify.header"), Some(id::CLI_VERIFY_HEADER));
        assert_eq!(Id::find("cli.verify.no_such_message"), None);
    }

    #[test]
    fn no_two_files_give_the_same_key() {
        for language in Language::ALL {
            let mut keys: Vec<String> = Vec::new();
            let files = std::iter::once(strings_source(language))
                .chain(game_strings(language).into_iter().map(|(_, text)| text));
            for text in files {
                let map: BTreeMap<String, String> = serde_saphyr::from_str(text).unwrap();
                keys.extend(map.into_keys());
            }
            let all = keys.len();
            keys.sort();
            keys.dedup();
            assert_eq!(keys.len(), all, "{language:?}");
        }
    }

    #[test]
    fn colour_letters_are_distinct_and_names_translated() {
        for language in Language::ALL {
            let s = strings(language);
            let mut codes: Vec<String> =
                default_palette().iter().map(|c| s.colour_code(c)).collect();
            codes.sort();
            codes.dedup();
            assert_eq!(codes.len(), default_palette().len(), "{language:?}");
            for colour in default_palette() {
                assert!(s.map.contains_key(&format!("colour.{}", colour.name)));
            }
        }
        assert_eq!(
            strings(Language::Pl).colour_name(&default_palette()[0]),
            "czerwony"
        );
    }

    #[test]
    fn a_bead_letter_never_looks_like_a_letter_the_picture_draws() {
        let orange = default_palette()
            .into_iter()
            .find(|c| c.name == "orange")
            .unwrap();
        // The letters noughts and crosses draws, Latin and Cyrillic.
        let drawn = ["O", "X", "\u{41e}", "\u{425}"];
        let custom = Colour {
            name: "ochre".to_string(),
            ..orange.clone()
        };
        assert_eq!(strings(Language::En).bead_code(&custom, &[]), "O");
        assert_eq!(strings(Language::En).bead_code(&custom, &drawn), "Oc");
        for language in Language::ALL {
            let s = strings(language);
            let mut codes: Vec<String> = default_palette()
                .iter()
                .map(|c| s.bead_code(c, &drawn))
                .collect();
            // A default colour has one letter in every game: none is a drawn letter.
            let usual: Vec<String> = default_palette().iter().map(|c| s.colour_code(c)).collect();
            assert_eq!(codes, usual, "{language:?}");
            codes.sort();
            codes.dedup();
            assert_eq!(codes.len(), default_palette().len(), "{language:?}");
        }
    }

    #[test]
    fn plural_forms() {
        let pl = |n| plural(Language::Pl, n, "koralik", "koraliki", "koralików");
        assert_eq!(pl(1), "1 koralik");
        assert_eq!(pl(2), "2 koraliki");
        assert_eq!(pl(5), "5 koralików");
        assert_eq!(pl(12), "12 koralików");
        assert_eq!(pl(22), "22 koraliki");
        assert_eq!(pl(21), "21 koralików");
        let ru = |n| plural(Language::Ru, n, "бусинка", "бусинки", "бусинок");
        assert_eq!(ru(1), "1 бусинка");
        assert_eq!(ru(2), "2 бусинки");
        assert_eq!(ru(5), "5 бусинок");
        assert_eq!(ru(11), "11 бусинок");
        assert_eq!(ru(21), "21 бусинка");
        assert_eq!(ru(104), "104 бусинки");
        assert_eq!(plural(Language::En, 1, "bead", "beads", "beads"), "1 bead");
        assert_eq!(plural(Language::En, 0, "bead", "beads", "beads"), "0 beads");
        assert_eq!(
            plural(Language::Ru, 27_901, "бусинка", "бусинки", "бусинок"),
            "27\u{202f}901 бусинка"
        );
    }

    #[test]
    fn thousands_are_grouped_as_each_language_writes_them() {
        assert_eq!(grouped(Language::En, 2791), "2,791");
        assert_eq!(grouped(Language::En, 1_000_000), "1,000,000");
        assert_eq!(grouped(Language::Pl, 2791), "2\u{202f}791");
        assert_eq!(grouped(Language::Ru, 999), "999");
        assert_eq!(grouped(Language::Ru, -12_345), "-12\u{202f}345");
    }

    #[test]
    fn numbers_in_running_text_are_grouped_as_each_language_writes_them() {
        assert_eq!(number(Language::En, 1720), "1,720");
        assert_eq!(number(Language::En, 100_000), "100,000");
        assert_eq!(number(Language::Pl, 1720), "1720");
        assert_eq!(number(Language::Ru, 19_648), "19\u{202f}648");
        assert_eq!(
            plural(Language::Pl, 1720, "koralik", "koraliki", "koralików"),
            "1720 koralików"
        );
    }

    #[test]
    fn a_fraction_takes_the_genitive_singular_in_russian() {
        assert_eq!(
            figure_count(
                Language::Ru,
                12.01,
                2,
                id::PROBLEM_COUNT_GAME,
                id::FRACTION_GAME
            ),
            "12,01 партии"
        );
        assert_eq!(
            figure_count(
                Language::Ru,
                12.0,
                2,
                id::PROBLEM_COUNT_GAME,
                id::FRACTION_GAME
            ),
            "12 партий"
        );
        assert_eq!(
            figure_count(
                Language::En,
                12.01,
                2,
                id::PROBLEM_COUNT_GAME,
                id::FRACTION_GAME
            ),
            "12.01 games"
        );
        assert_eq!(
            figure_count(
                Language::Pl,
                12.01,
                2,
                id::PROBLEM_COUNT_GAME,
                id::FRACTION_GAME
            ),
            "12,01 partii"
        );
    }

    #[test]
    fn figures_carry_no_needless_decimals() {
        assert_eq!(figure(Language::En, 25.0, 4), "25");
        assert_eq!(figure(Language::En, 10.25, 4), "10.25");
        assert_eq!(figure(Language::Ru, 98.004_4, 4), "98,0044");
        assert_eq!(figure(Language::Pl, 842.0, 2), "842");
        assert_eq!(figure(Language::En, 7_538.75, 1), "7,538.8");
        assert_eq!(figure(Language::Pl, 7_538.75, 1), "7538,8");
        assert_eq!(figure(Language::Ru, 19_648.5, 1), "19\u{202f}648,5");
        assert_eq!(figure(Language::En, -0.001, 1), "0");
        assert_eq!(
            figure_count(
                Language::En,
                1_234.0,
                1,
                id::PROBLEM_COUNT_GAME,
                id::FRACTION_GAME
            ),
            "1,234 games"
        );
        assert_eq!(figure(Language::En, 100.0, 1), "100");
        assert_eq!(figure(Language::En, -0.000_01, 2), "0");
        assert_eq!(
            figures(Language::En, &[9.02, 8.94, 9.1], 2),
            ["9.02", "8.94", "9.10"]
        );
        assert_eq!(figures(Language::Pl, &[842.0, 842.0], 2), ["842", "842"]);
    }

    #[test]
    fn messages_about_a_kit_write_numbers_as_the_language_does() {
        let (en, pl, ru) = (
            Messages(Language::En),
            Messages(Language::Pl),
            Messages(Language::Ru),
        );
        assert_eq!(en.number(1_000_000), "1000000");
        assert_eq!(pl.number(1000), "1000");
        assert_eq!(pl.number(20_000), "20\u{202f}000");
        assert_eq!(en.millimetres(66.674_995), "66.7");
        assert_eq!(ru.millimetres(66.674_995), "66,7");
        assert_eq!(pl.millimetres(52.0), "52");
        assert_eq!(en.count(1, id::PROBLEM_COUNT_STONE), "1 stone");
        assert_eq!(pl.count(3, id::PROBLEM_COUNT_STONE), "3 kamyki");
        assert_eq!(pl.count(8, id::PROBLEM_COUNT_STONE), "8 kamyków");
        assert_eq!(ru.count(21, id::PROBLEM_COUNT_STONE), "21 камешек");
        let items = ["a".to_string(), "b".to_string(), "c".to_string()];
        assert_eq!(en.or_list(&items), "a, b or c");
        assert_eq!(pl.or_list(&items), "a, b albo c");
        assert_eq!(ru.or_list(&items[..1]), "a");
    }

    #[test]
    fn every_count_of_a_message_has_its_three_forms() {
        for language in Language::ALL {
            let s = strings(language);
            let counts: Vec<(&str, &str)> = s
                .entries()
                .filter(|(k, _)| k.starts_with("problem.count."))
                .collect();
            assert!(counts.len() >= 4, "{language:?}");
            for (key, text) in counts {
                let forms: Vec<&str> = text.split('|').collect();
                assert!(
                    forms.len() == 3 && forms.iter().all(|f| !f.trim().is_empty()),
                    "{language:?} {key}"
                );
            }
        }
    }

    #[test]
    fn placeholders_are_filled() {
        let s = strings(Language::En);
        assert_eq!(s.fill(id::LABEL_BOX, &[("id", "7")]), "box 7");
    }
}
