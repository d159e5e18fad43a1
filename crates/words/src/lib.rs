//! The words of a kit and what its settings take, below every other crate of matchbox:
//! the kit's words in every language ([`i18n`]), kit.yaml's text read with the place of
//! every key ([`settings`]), the beads' colours ([`palette`]) and the learning rules
//! ([`rule`]), and the problems every layer reports ([`Error`], [`Problem`], and a state
//! file's [`refusal`]). A module imports only modules below it, in that order from
//! `palette` up.

#![warn(missing_docs)]

pub mod i18n;
pub mod palette;
pub mod refusal;
pub mod rule;
pub mod settings;

/// What went wrong, split by whose mistake it is.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A mistake in the user's input (kit, flags, positions): exit status 2.
    #[error("{0}")]
    Input(String),
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

/// Where in a kit file a problem is: its name as messages show it, line and column from 1.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Place {
    /// The file's name as messages show it (`kit.yaml`).
    pub file: String,
    /// The line, from 1.
    pub line: u64,
    /// The column, from 1.
    pub column: u64,
}

/// A mistake or a warning about a kit: shown as `file:line:column: message` where it has
/// a place, else as the message alone, exactly as the command line has always said it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Problem {
    /// Where the file says what is wrong; none when a preset or a default does.
    pub place: Option<Place>,
    /// The kit.yaml key the problem is about, where the engine knows it.
    pub key: Option<String>,
    /// The message in the kit's language, without the place.
    pub message: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        if let Some(Place { file, line, column }) = &self.place {
            write!(f, "{file}:{line}:{column}: ")?;
        }
        f.write_str(&self.message)
    }
}

/// JSON is written only from the program's own values: failing to is a bug.
impl From<serde_json::Error> for Error {
    fn from(e: serde_json::Error) -> Error {
        Error::Internal(e.to_string())
    }
}

impl Error {
    /// The process exit status for this error.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Input(_) | Error::Kit(_) | Error::StateFile(_) => 2,
            Error::Internal(_) => 1,
        }
    }
}
