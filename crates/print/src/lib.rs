//! The print shop of matchbox: what the engine computes, drawn. Each label becomes one
//! display list ([`draw::scene`]) that the PDF, PNG and SVG writers all read; [`sheet`]
//! places labels on pages, [`instructions`] lays out the teacher's and the pupils'
//! pages, and [`make`] makes every file of a kit in memory (the binary writes them).
//!
//! The layers, bottom to top: [`draw`] (scene, fonts, writers), [`pictures`] (each game
//! drawn), [`sheet`] and [`plot`], [`label`] (one box's label), [`instructions`],
//! [`make`]; a module imports only modules below it. It reads the engine and never
//! files, the network or the clock, so that it builds for WebAssembly too.

#![warn(missing_docs)]

pub mod draw;
pub mod instructions;
pub mod label;
pub mod make;
pub mod pictures;
pub mod plot;
pub mod sheet;

/// The media a kit is printed on (paper, label sizes, sticker sheets): the engine's, which
/// checks a kit's settings against them.
pub use matchbox_engine::media;
