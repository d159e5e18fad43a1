//! matchbox: printable classroom kits for matchbox learning machines, and a simulator
//! to check them.
//!
//! The data flows one way: [`kit`] (kit.yaml) -> [`game`] rules -> [`boxes`]
//! (enumeration) -> [`draw`] (one display list per label) -> outputs; the simulation
//! uses the same boxes.

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

use std::fmt;

/// What went wrong, split by whose mistake it is.
#[derive(Debug)]
pub enum Error {
    /// A mistake in the user's input (kit, flags, positions): exit status 2.
    Input(String),
    /// A failure of the program or the machine (disk full, a bug): exit status 1.
    Internal(String),
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

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Input(m) | Error::Internal(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for Error {}
