//! The engine of matchbox: the one door to the crates that compute a kit and its
//! machine, so that the print shop, the classroom, the browser's engine and the binary
//! name everything by one path (`matchbox_engine::kit::Kit`), as ripgrep's `grep` crate
//! is the door to its searchers. It holds no code of its own.
//!
//! The crates, bottom to top (each uses only those below it): `matchbox-words` (the
//! kit's words, kit.yaml's text, colours, learning rules, the problems every layer
//! reports: [`i18n`], [`settings`], [`palette`], [`rule`], [`Error`]);
//! `matchbox-games` (every game's rules and notation behind its traits: [`game`]);
//! `matchbox-kit` (a whole kit checked, its paper and font, its boxes: [`kit`],
//! [`media`], [`glyphs`], [`boxes`]); `matchbox-machine` (the tree, the beads, the
//! learner, the opponents, what a run measures: [`machine`], [`parallel`]);
//! `matchbox-solver` (the exact figures: [`simulate::exact`]); `matchbox-simulate`
//! (training, the learning curve, watching, verify: [`simulate`]); `matchbox-savefile`
//! (the state file's format: [`simulate::state`]). None uses a file system, network or
//! clock, so that the engine builds for WebAssembly too.

#![warn(missing_docs)]

pub use matchbox_games::{self as game, with_game};
pub use matchbox_kit::{self as kit, boxes, glyphs, media};
pub use matchbox_machine::{self as machine, parallel};
pub use matchbox_words::{Error, Place, Problem, i18n, palette, problem, rule, settings};

/// Simulation, the exact figures (`exact`), verify and the state file's format
/// (`state`), under the paths the other crates have always named them by.
pub mod simulate {
    pub use matchbox_savefile as state;
    pub use matchbox_simulate::*;
}
