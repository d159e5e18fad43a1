//! matchbox: printable classroom kits for matchbox learning machines, and a simulator
//! to check them.
//!
//! The data flows one way: [`kit`] (kit.yaml) -> [`game`] rules -> [`boxes`]
//! (enumeration) -> [`draw`] (one display list per label) -> outputs; the simulation
//! uses the same boxes.

#![warn(missing_docs)]

pub mod boxes;
pub mod cli;
pub mod draw;
pub mod game;
pub mod i18n;
pub mod instructions;
pub mod kit;
pub mod machine;
pub mod make;
pub mod output;
pub mod palette;
pub mod report;
pub mod serve;
pub mod sheet;
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
            Error::Input(_) => 2,
            Error::Internal(_) => 1,
        }
    }
}
