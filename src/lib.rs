//! matchbox: printable classroom kits for matchbox learning machines, and a simulator
//! to check them. This is the binary's own layer: the command line ([`cli`]: parsing,
//! and each command dispatched to the libraries) and the progress bars ([`progress`]).
//! The work is in the crates below it: `matchbox-engine` (rules, boxes, machine,
//! simulation), `matchbox-print` (labels, sheets, pages, PDF and PNG in memory),
//! `matchbox-files` (files written whole or not at all, and the kit folder),
//! `matchbox-report` (the reports in the kit's words), `matchbox-play` (a game at the
//! terminal) and `matchbox-serve` (the classroom screen).

#![warn(missing_docs)]

pub mod cli;
pub mod progress;

pub use matchbox_engine::Error;
