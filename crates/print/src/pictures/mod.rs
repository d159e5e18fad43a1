//! How each game is drawn, behind one trait: positions with the machine's moves on
//! labels and pages, and the board and pieces a class cuts out. The games' rules are the
//! engine's; a new game adds its picture here beside the others.

mod hexapawn;
mod kayles;
mod nim;
mod tictactoe;

use matchbox_engine::game::{Descriptor, Notation, Rules};
use matchbox_engine::i18n::{Id, Strings};

use crate::draw::scene::{GREY, Pt, Rect, Scene, Stroke, pt};

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
    /// The messages of a label's bead line, which names what marks a move: in
    /// full (`beads: 1 per arrow`) and short (`beads: 1/arrow`), for a label too small
    /// for the full one.
    fn bead_line(&self) -> [Id; 2];
    /// Where a pupil touches the position drawn in `area` (without arrows) to make `mv`,
    /// in the drawing's own coordinates and in the order touched: one place where one
    /// touch makes the move (a square to mark, a stone to take from), the piece and then
    /// the square it goes to where it takes two. The classroom screen's click areas;
    /// each legal move of a position is reached by its own places, and two places of a
    /// position are one or apart (see the classroom's board).
    fn move_spots(&self, position: &Self::Position, mv: Self::Move, area: Rect) -> Vec<Rect>;
    /// The squares of a board whose notation names them by column letter and row number
    /// (`b1-b2`), as drawn in `area`, for the classroom screen to write those names
    /// beside; none for a game not played on named squares.
    fn named_squares(&self, _area: Rect) -> Vec<Rect> {
        Vec::new()
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

/// Where the bead discs of arrows go, each given as its start, its end, the share of
/// the way along where its disc would best sit, and the disc's radius: each disc at the
/// nearest place along its arrow (from a fifth to 0.85 of the way) that keeps it clear
/// of the other discs, so that crossing arrows never hide one letter under another;
/// where the arrow has no such place (discs large beside the board's squares, on a
/// small label), beside the arrow inside `within`, still touching it. The discs are
/// placed one after another, each at its first clear place; when that leaves two
/// meeting, again with one disc first at each of its places in turn (crossing arrows
/// whose discs must both leave the crossing). Where no arrangement keeps them all
/// clear, the one whose closest two are farthest apart.
pub fn disc_centres(arrows: &[(Pt, Pt, f32, f32)], within: Rect) -> Vec<Pt> {
    let places: Vec<Vec<Pt>> = arrows
        .iter()
        .map(|&(from, to, best, radius)| disc_places(from, to, best, radius, within))
        .collect();
    let mut best: (Vec<Pt>, f32) = (Vec::new(), f32::MIN);
    // The plain order first: the first disc at its best place.
    for first in 0..arrows.len() {
        for &start in &places[first] {
            let (centres, clear) = placed_after(arrows, &places, first, start);
            if clear >= 0.0 {
                return centres;
            }
            if clear > best.1 {
                best = (centres, clear);
            }
        }
    }
    best.0
}

/// A gap between discs a little wider than their outlines, as a share of a radius,
/// so that they read as two.
const DISC_GAP: f32 = 0.15;

/// The places a disc of `radius` may take on the arrow from `from` to `to`, best first:
/// outwards from `best` of the way in steps of a twentieth, alternately after and
/// before it; on the arrow first, then beside it where that stays inside `within`.
fn disc_places(from: Pt, to: Pt, best: f32, radius: f32, within: Rect) -> Vec<Pt> {
    let length = (to.x - from.x).hypot(to.y - from.y).max(1e-3);
    // The unit normal to the arrow, for a disc beside it.
    let (nx, ny) = ((from.y - to.y) / length, (to.x - from.x) / length);
    let along: Vec<f32> = (0..=26)
        .map(|i| {
            let step = (i + 1) / 2;
            let sign = if i % 2 == 1 { 1.0 } else { -1.0 };
            best + sign * step as f32 * 0.05
        })
        .filter(|t| (0.2..=0.85).contains(t))
        .collect();
    let inside = |p: &Pt| {
        p.x - radius >= within.x
            && p.y - radius >= within.y
            && p.x + radius <= within.x + within.w
            && p.y + radius <= within.y + within.h
    };
    [0.0, 0.9, -0.9]
        .into_iter()
        .flat_map(|aside: f32| {
            along.iter().map(move |&t| {
                pt(
                    from.x + (to.x - from.x) * t + nx * aside * radius,
                    from.y + (to.y - from.y) * t + ny * aside * radius,
                )
            })
        })
        .enumerate()
        .filter(|(i, p)| *i < along.len() || inside(p))
        .map(|(_, p)| p)
        .collect()
}

/// The discs with disc `first` at `start` and the others after it in order, each at
/// its first place clear of those placed, else its clearest; with how far the closest
/// two are from touching (negative where two meet).
fn placed_after(
    arrows: &[(Pt, Pt, f32, f32)],
    places: &[Vec<Pt>],
    first: usize,
    start: Pt,
) -> (Vec<Pt>, f32) {
    let radius = |i: usize| arrows[i].3;
    let mut centres = vec![start; arrows.len()];
    let mut done = vec![first];
    let mut closest = f32::MAX;
    for i in (0..arrows.len()).filter(|&i| i != first) {
        let clearance = |p: Pt| {
            done.iter()
                .map(|&j| {
                    let q = centres[j];
                    let r = radius(i).max(radius(j));
                    (p.x - q.x).hypot(p.y - q.y) - radius(i) - radius(j) - DISC_GAP * r
                })
                .fold(f32::MAX, f32::min)
        };
        let mut choice = (places[i][0], f32::MIN);
        for &p in &places[i] {
            let clear = clearance(p);
            if clear >= 0.0 {
                choice = (p, clear);
                break;
            }
            if clear > choice.1 {
                choice = (p, clear);
            }
        }
        centres[i] = choice.0;
        closest = closest.min(choice.1);
        done.push(i);
    }
    (centres, closest)
}
