//! A problem with a kit (a mistake or a warning) as data: where it is ([`Place`]), the
//! keys it is about, its message ([`Message`]: a typed id with its values) and its hints
//! ([`Hint`]: the commands it points to), so that each front end says it in its own way
//! and none reads a sentence back. The command line says it as it always has.

use std::fmt;

use serde::Serialize;
use serde::ser::SerializeMap;

use crate::i18n::{Id, Language, Messages, Said, fill, id, printable, strings};

/// A command of the command line that a problem points to (`matchbox labels` lists the
/// label sizes): the command line names it in the sentence, a page offers its own way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// `matchbox boxes`: a kit's boxes.
    Boxes,
    /// `matchbox labels`: the label sizes and sticker sheets.
    Labels,
    /// `matchbox presets`: the presets.
    Presets,
}

impl Command {
    /// The command as a user types it.
    pub fn line(self) -> &'static str {
        match self {
            Command::Boxes => "matchbox boxes",
            Command::Labels => "matchbox labels",
            Command::Presets => "matchbox presets",
        }
    }
}

/// A pointer from a message to another command: the command, and the words that point
/// to it (`problem.hint.*`, with `{command}`), which fill the message's `{hint}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hint {
    /// The command pointed to.
    pub command: Command,
    /// How the sentence points to it.
    pub words: Id,
}

/// The value of a placeholder of a [`Message`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    /// Words already said: a name, a number as the language writes it, the kit's text.
    Text(String),
    /// Another message, said inside this one (what a key takes), with its own hints.
    Message(Message),
}

/// A message about a kit not yet made a sentence: its id in the word store, the values
/// of its placeholders, and its hint, said in `language`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// The message.
    pub id: Id,
    /// Each placeholder and its value, in order.
    pub args: Vec<(String, Arg)>,
    /// The command the message points to, said at its `{hint}`.
    pub hint: Option<Hint>,
    /// The language it is said in.
    pub language: Language,
}

impl Messages {
    /// The message `id` with the values of its `{name}` placeholders, in this language.
    pub fn message(self, id: Id, values: &[(&str, &str)]) -> Message {
        Message {
            id,
            args: values
                .iter()
                .map(|(name, value)| (name.to_string(), Arg::Text(value.to_string())))
                .collect(),
            hint: None,
            language: self.0,
        }
    }

    /// The sentence `said` as a message in this language, its values said in it.
    pub fn said(self, said: &Said) -> Message {
        let values = said.values_in(self.0);
        let values: Vec<(&str, &str)> = values.iter().map(|(n, v)| (*n, v.as_str())).collect();
        self.message(said.key, &values)
    }
}

impl Message {
    /// The same message said in `language`, the messages in it too.
    pub fn in_language(mut self, language: Language) -> Message {
        self.set_language(language);
        self
    }

    fn set_language(&mut self, language: Language) {
        self.language = language;
        for (_, arg) in &mut self.args {
            if let Arg::Message(inner) = arg {
                inner.set_language(language);
            }
        }
    }

    /// With the placeholder `name` filled by `arg`.
    pub fn with_arg(mut self, name: &str, arg: Arg) -> Message {
        self.args.push((name.to_string(), arg));
        self
    }

    /// With the placeholder `name` filled by another message.
    pub fn with(self, name: &str, message: Message) -> Message {
        self.with_arg(name, Arg::Message(message))
    }

    /// With a hint: `command`, pointed to by the words `words`.
    pub fn hint(mut self, command: Command, words: Id) -> Message {
        self.hint = Some(Hint { command, words });
        self
    }

    /// The sentence for the field of its key: without its hints, which a front end
    /// offers its own way, and without the key its words open with (`{key}: ` at the head
    /// of the message in the word store), which the field names already.
    pub fn text(&self) -> String {
        self.said(false)
    }

    /// The hints of this message and of the messages in it, in order.
    pub fn hints(&self) -> Vec<Hint> {
        let mut hints: Vec<Hint> = self.hint.into_iter().collect();
        for (_, arg) in &self.args {
            if let Arg::Message(inner) = arg {
                hints.extend(inner.hints());
            }
        }
        hints
    }

    /// The sentence as the command line says it (`for_cli`), or as [`Message::text`]
    /// does. The kit's own text in it is [`printable`].
    fn said(&self, for_cli: bool) -> String {
        let words = strings(self.language);
        let hint = match self.hint {
            Some(Hint {
                command,
                words: hint,
            }) if for_cli => words.fill(hint, &[("command", command.line())]),
            _ => String::new(),
        };
        // The hint first, as the words were when it was written in the sentence.
        let mut values = vec![("hint", hint)];
        for (name, arg) in &self.args {
            let value = match arg {
                Arg::Text(text) => printable(text),
                Arg::Message(inner) => inner.said(for_cli),
            };
            values.push((name, value));
        }
        let values: Vec<(&str, &str)> = values.iter().map(|(n, v)| (*n, v.as_str())).collect();
        let template = words.get(self.id);
        match template.strip_prefix("{key}: ") {
            Some(rest) if !for_cli => fill(rest, &values),
            _ => fill(template, &values),
        }
    }
}

/// The sentence as the command line says it, hints and all.
impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.said(true))
    }
}

/// `{"id": "problem.range", "args": {"key": "stones", …}}`, a message in an argument as
/// an object of its own.
impl Serialize for Message {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        struct Args<'a>(&'a [(String, Arg)]);
        impl Serialize for Args<'_> {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let mut map = serializer.serialize_map(Some(self.0.len()))?;
                for (name, arg) in self.0 {
                    match arg {
                        Arg::Text(text) => map.serialize_entry(name, text)?,
                        Arg::Message(message) => map.serialize_entry(name, message)?,
                    }
                }
                map.end()
            }
        }
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("id", self.id.key())?;
        map.serialize_entry("args", &Args(&self.args))?;
        map.end()
    }
}

/// Where in a kit file a problem is: the file's name as messages show it, and where in
/// it, unless the problem is the whole file's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Place {
    /// The file's name as messages show it (`kit.yaml`).
    pub file: String,
    /// The line and column, where the problem has them.
    #[serde(flatten)]
    pub at: Option<Position>,
}

/// A line and column of a kit file, and the bytes of the value there where the reader
/// knows them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Position {
    /// The line, from 1.
    pub line: u64,
    /// The column, from 1.
    pub column: u64,
    /// The value's bytes in the text, from its first to past its last.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub span: Option<(u64, u64)>,
}

/// A mistake or a warning about a kit: shown as `file:line:column: message` where it has
/// a place, else as the message alone, exactly as the command line has always said it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Where the file says what is wrong; none when a preset or a default does.
    pub place: Option<Place>,
    /// The kit.yaml key a page shows the problem at, where the engine knows it.
    pub key: Option<String>,
    /// Every key the problem is about, where the engine knows them.
    pub keys: Vec<String>,
    /// What is wrong.
    pub message: Message,
    /// A warning, which lets the kit be made, rather than a mistake.
    pub warning: bool,
}

impl Problem {
    /// A mistake with `message`, placed nowhere and about no key yet.
    pub fn new(message: Message) -> Problem {
        Problem {
            place: None,
            key: None,
            keys: Vec::new(),
            message,
            warning: false,
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if let Some(Place { file, at }) = &self.place {
            match at {
                Some(Position { line, column, .. }) => write!(f, "{file}:{line}:{column}: ")?,
                None => write!(f, "{file}: ")?,
            }
        }
        if self.warning {
            let message = self.message.to_string();
            f.write_str(
                &strings(self.message.language).fill(id::PROBLEM_WARNING, &[("message", &message)]),
            )
        } else {
            write!(f, "{}", self.message)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Id;

    #[test]
    fn a_pointer_to_a_command_is_only_in_a_hints_words_in_every_language() {
        let hints: Vec<Id> = Id::all()
            .iter()
            .copied()
            .filter(|id| id.key().starts_with("problem.hint."))
            .collect();
        assert_eq!(hints.len(), 3);
        for language in Language::ALL {
            let words = strings(language);
            for hint in &hints {
                let hint_words = words.get(*hint);
                assert!(
                    hint_words.contains("`{command}`") || hint_words.contains("«{command}»"),
                    "{hint}"
                );
            }
            for id in Id::all()
                .iter()
                .filter(|id| id.key().starts_with("problem."))
            {
                let said = words.get(*id);
                // A sentence points to another command through `{hint}`, never by itself.
                assert!(
                    !said.contains("`matchbox ") && !said.contains("«matchbox "),
                    "{language:?}: {id}: {said}"
                );
                let english = strings(Language::En).get(*id);
                assert_eq!(said.contains("{hint}"), english.contains("{hint}"), "{id}");
            }
        }
    }

    #[test]
    fn a_users_mistake_is_said_again_in_the_kits_language_with_the_messages_in_it() {
        let english = Messages(Language::En);
        let error: crate::Error = english
            .message(id::ERROR_FOREIGN, &[("path", "out/x"), ("folder", "out")])
            .with("why", english.message(id::ERROR_FOREIGN_CHANGED, &[]))
            .into();
        let said = error.to_string();
        assert!(
            said.starts_with("out/x was changed after matchbox wrote it: "),
            "{said}"
        );
        let polish = error.in_language(Language::Pl);
        let crate::Error::Input(message) = &polish else {
            panic!("{polish:?}");
        };
        let crate::Arg::Message(why) = &message.args[2].1 else {
            panic!("{message:?}");
        };
        assert_eq!(why.language, Language::Pl);
        assert!(
            polish.to_string().starts_with("out/x został zmieniony"),
            "{polish}"
        );
        // Inside another message it stays a message, to be said in its language.
        assert!(matches!(polish.arg(), crate::Arg::Message(m) if m.id == id::ERROR_FOREIGN));
    }

    #[test]
    fn a_message_is_said_with_its_hints_and_without_them() {
        for language in Language::ALL {
            let takes = Messages(language)
                .message(id::PROBLEM_TAKES_PRESET, &[])
                .hint(Command::Presets, id::PROBLEM_HINT_SEE);
            let message = Messages(language)
                .message(id::PROBLEM_EXPECTED, &[("key", "preset"), ("found", "`3`")])
                .with("takes", takes);
            let pointer =
                strings(language).fill(id::PROBLEM_HINT_SEE, &[("command", "matchbox presets")]);
            assert_eq!(message.hints().len(), 1);
            assert_eq!(message.hints()[0].command, Command::Presets);
            assert!(message.to_string().contains(&pointer), "{message}");
            let cli = message.to_string().replace(&pointer, "");
            assert_eq!(cli, format!("preset: {}", message.text()));
            let json = serde_json::to_value(&message).unwrap();
            assert_eq!(json["id"], "problem.expected");
            assert_eq!(json["args"]["takes"]["id"], "problem.takes.preset");
            assert_eq!(json["args"]["found"], "`3`");
        }
    }
}
