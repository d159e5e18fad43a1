//! The words of a kit and what its settings take, below every other crate of matchbox:
//! the kit's words in every language ([`i18n`]), kit.yaml's text read with the place of
//! every key ([`settings`]), the beads' colours ([`palette`]) and the learning rules
//! ([`rule`]), and the problems every layer reports ([`Error`], a kit's [`problem`] as
//! data, and a state file's [`refusal`]). A module imports only modules below it, in that
//! order from `palette` up.

#![warn(missing_docs)]

pub mod i18n;
pub mod palette;
pub mod problem;
pub mod refusal;
pub mod rule;
pub mod settings;

pub use problem::{Arg, Command, Hint, Message, Place, Position, Problem};

/// What went wrong, split by whose mistake it is.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A mistake in the user's input other than a kit's (flags, files and folders, a
    /// position or a move typed): a message of the word store (`error.*`) with its
    /// values, so that each front end says it in its own way; exit status 2.
    #[error("{0}")]
    Input(Box<Message>),
    /// A mistake in a teacher's kit, with its place and key as values (exit status 2),
    /// so that a page can show it at its field without reading the sentence back.
    #[error("{0}")]
    Kit(Box<Problem>),
    /// A failure of the program or the machine (disk full, a bug): exit status 1.
    #[error("{0}")]
    Internal(String),
    /// A state file refused (exit status 2), with why, for each front end to say in
    /// its own words; shown in the command line's.
    #[error("{0}")]
    StateFile(Box<refusal::Refused>),
}

/// JSON is written only from the program's own values: failing to is a bug.
impl From<serde_json::Error> for Error {
    fn from(e: serde_json::Error) -> Error {
        Error::Internal(e.to_string())
    }
}

/// A message as the user's mistake ([`Error::Input`]).
impl From<Message> for Error {
    fn from(message: Message) -> Error {
        Error::Input(Box::new(message))
    }
}

impl Error {
    /// The same error, its message said in `language`: for a caller that knows the kit's
    /// language where the error was made without it (a file, a folder, a flag).
    pub fn in_language(self, language: i18n::Language) -> Error {
        match self {
            Error::Input(message) => (*message).in_language(language).into(),
            other => other,
        }
    }

    /// The error as the value of a placeholder of another message: its message where it
    /// has one of its own, else its words.
    pub fn arg(&self) -> Arg {
        match self {
            Error::Input(message) => Arg::Message((**message).clone()),
            other => Arg::Text(other.to_string()),
        }
    }

    /// The process exit status for this error.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Input(_) | Error::Kit(_) | Error::StateFile(_) => 2,
            Error::Internal(_) => 1,
        }
    }
}
