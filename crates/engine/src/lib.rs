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
    /// A failure of the program or the machine (disk full, a bug): exit status 1.
    #[error("{0}")]
    Internal(String),
    /// A state file refused (exit status 2), with why, for each front end to say in
    /// its own words; shown in the command line's.
    #[error("{0}")]
    StateFile(Box<simulate::state::Refused>),
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
            Error::Input(_) | Error::StateFile(_) => 2,
            Error::Internal(_) => 1,
        }
    }
}
