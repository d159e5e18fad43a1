//! The command line's reports, in the kit's words: what `boxes`, `find`, `simulate`,
//! `verify`, `kit` and `labels` print for people (the engine writes the same findings as
//! JSON for programs). One job: wording what the engine found; it works nothing out.
//!
//! The modules import one way: `words` knows the word store and how numbers are
//! written; `boxes`, `simulate` and `kit` word their findings with it; `verify` uses
//! `simulate`'s learning figures too.

#![warn(missing_docs)]

mod boxes;
mod kit;
mod simulate;
mod verify;
mod words;

pub use boxes::{board_text, box_text, boxes_text, found_text, label_turn};
pub use kit::{KitReport, kit_text, label_stocks, presets_text};
pub use simulate::{plot_title, session_text, training_text};
pub use verify::verdict_text;
pub use words::Words;
