//! The engine of matchbox: what a kit is and what its machine does, with no drawing, no
//! files, no network and no clock, so that it builds for WebAssembly too.
//!
//! The layers, bottom to top: [`palette`], [`glyphs`], [`parallel`], [`i18n`] (the kit's
//! words) and [`media`] (paper and label sizes); [`settings`] (kit.yaml read with the
//! place of every key) and [`rule`] (the learning rules); [`game`] (the rules and
//! notation of every game, and the one list of games); [`kit`] (a whole kit, checked);
//! [`boxes`] (enumeration); [`machine`] (the tree, the beads, the learner); [`simulate`]
//! (training, exact figures, verify, the state file format). A module imports only
//! modules below it. The print crate draws what this one computes; the binary reads and
//! writes the files.

#![warn(missing_docs)]

// First, so that `with_game!` is in scope for the modules below.
#[macro_use]
pub mod game;

pub mod boxes;
pub mod glyphs;
pub mod i18n;
pub mod kit;
pub mod machine;
pub mod media;
pub mod palette;
pub mod parallel;
pub mod rule;
pub mod settings;
pub mod simulate;

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
    StateFile(Box<simulate::state::Refused>),
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
