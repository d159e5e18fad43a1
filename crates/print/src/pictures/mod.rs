//! How each game is drawn, behind one trait: positions with the machine's moves on
//! labels and pages, and the board and pieces a class cuts out. The games' rules are the
//! engine's; a new game adds its picture here beside the others.

mod hexapawn;
mod nim;
mod tictactoe;

use matchbox_engine::game::{Descriptor, Notation, Rules};
use matchbox_engine::i18n::Strings;

use crate::draw::scene::{GREY, Rect, Scene, Stroke};

/// Size of a caption under a drawing, in mm (the cut-out pieces' names, and the
/// instruction pages' drawings).
pub const CAPTION: f32 = 3.2;
/// The dashed line along which a piece is cut out.
pub const CUT: Stroke = Stroke {
    colour: GREY,
    width: 0.2,
    dash: Some(1.2),
};

/// A move as a label shows it: where the arrow goes and in which bead colour.
#[derive(Clone, Debug)]
pub struct DrawnMove<M> {
    /// The move, in the label's orientation.
    pub mv: M,
    /// Bead colour of the arrow.
    pub colour: crate::draw::scene::Rgb,
    /// The colour's letter in the kit's language, printed beside the arrow.
    pub code: String,
}

/// How the game is drawn: positions with the machine's moves on labels and pages, and
/// the board and pieces a class cuts out.
pub trait Picture: Rules {
    /// Draws the position and the machine's moves into `area` of a label.
    fn draw(
        &self,
        position: &Self::Position,
        moves: &[DrawnMove<Self::Move>],
        area: Rect,
        scene: &mut Scene,
    );
    /// The largest square of the example game's pictures, in mm.
    const EXAMPLE_CELL_MM: f32 = 7.5;
    /// Letters the game's own pictures show (noughts and crosses): a bead's letter
    /// that looks like one of them is written otherwise.
    const DRAWN_LETTERS: &'static [&'static str] = &[];
    /// The size a position is drawn at on the instruction pages, for squares of `cell` mm.
    fn picture_size(&self, cell: f32) -> (f32, f32);
    /// The board and pieces to cut out, `width` mm wide and at most `max_height` tall.
    fn cut_outs(&self, width: f32, max_height: f32, words: &Strings) -> Scene;
    /// The strings key of a label's bead line, which names what marks a move
    /// (`beads: 1 per arrow`).
    fn bead_line(&self) -> &'static str;
    /// Where the classroom screen takes a click for `mv` on the position as drawn in
    /// `area`, when one place says it better than what the move changes in the picture.
    fn move_spot(&self, _position: &Self::Position, _mv: Self::Move, _area: Rect) -> Option<Rect> {
        None
    }
}

/// A game in full: its rules, notation, pictures and description.
pub trait Game: Rules + Notation + Picture + Descriptor {
    /// Short name of the game, as in kit.yaml.
    fn name(&self) -> &'static str {
        Self::NAME
    }
}

impl<G: Rules + Notation + Picture + Descriptor> Game for G {}
