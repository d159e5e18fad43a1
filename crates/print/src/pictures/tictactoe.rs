//! How noughts and crosses is drawn: the grid with the machine's moves, and the grid a
//! class cuts out.

use matchbox_engine::game::Rules;
use matchbox_engine::game::tictactoe::{Grid, TicTacToe};
use matchbox_engine::i18n::Strings;
use matchbox_engine::i18n::{Id, id};

use super::CUT;
use super::{DrawnMove, Picture};
use crate::draw::scene::{INK, Rect, Scene, Stroke, WHITE, legible_radius, pt};

impl Picture for TicTacToe {
    // The Latin and the Cyrillic O and X.
    const DRAWN_LETTERS: &'static [&'static str] = &["O", "X", "\u{41e}", "\u{425}"];

    fn bead_line(&self) -> [Id; 2] {
        [id::LABEL_BEADS_TICTACTOE, id::LABEL_BEADS_SHORT_DOT]
    }

    fn picture_size(&self, cell: f32) -> (f32, f32) {
        (cell * 3.0, cell * 3.0)
    }

    /// The grid, and five crosses and four noughts to cut out.
    fn cut_outs(&self, width: f32, max_height: f32, _words: &Strings) -> Scene {
        let side = width.min(max_height - 60.0).min(120.0);
        let mut scene = Scene::new(width, side + 45.0);
        let left = (width - side) / 2.0;
        let grid = Rect {
            x: left,
            y: 0.0,
            w: side,
            h: side,
        };
        self.draw(&self.start(), &[], grid, &mut scene);
        let piece = 28.0;
        let total = 9.0 * piece;
        let scale = (width / total).min(1.0);
        let piece = piece * scale;
        let x0 = (width - 9.0 * piece) / 2.0;
        let mark = Stroke::solid(INK, piece * 0.08);
        for i in 0..9 {
            let r = Rect {
                x: x0 + i as f32 * piece,
                y: side + 8.0,
                w: piece,
                h: piece,
            };
            scene.rect(r, Some(WHITE), Some(CUT));
            let c = r.centre();
            let k = piece * 0.3;
            if i < 5 {
                scene.line(pt(c.x - k, c.y - k), pt(c.x + k, c.y + k), mark);
                scene.line(pt(c.x - k, c.y + k), pt(c.x + k, c.y - k), mark);
            } else {
                scene.circle(c, k, None, Some(mark));
            }
        }
        scene
    }

    /// The whole square the mark goes on, as `draw` places its squares.
    fn move_spots(&self, _position: &Grid, mv: u8, area: Rect) -> Vec<Rect> {
        let (left, top, cell) = grid_in(area);
        vec![Rect {
            x: left + f32::from(mv % 3) * cell,
            y: top + f32::from(mv / 3) * cell,
            w: cell,
            h: cell,
        }]
    }

    fn draw(&self, position: &Grid, moves: &[DrawnMove<u8>], area: Rect, scene: &mut Scene) {
        let (left, top, cell) = grid_in(area);
        let side = area.w.min(area.h);
        let grid = Stroke::solid(INK, side * 0.02);
        for i in 1..3 {
            let d = cell * i as f32;
            scene.line(pt(left + d, top), pt(left + d, top + side), grid);
            scene.line(pt(left, top + d), pt(left + side, top + d), grid);
        }
        let mark = Stroke::solid(INK, side * 0.035);
        for sq in 0..9u8 {
            let c = pt(
                left + (f32::from(sq % 3) + 0.5) * cell,
                top + (f32::from(sq / 3) + 0.5) * cell,
            );
            let r = cell * 0.3;
            if position.x & (1 << sq) != 0 {
                scene.line(pt(c.x - r, c.y - r), pt(c.x + r, c.y + r), mark);
                scene.line(pt(c.x - r, c.y + r), pt(c.x + r, c.y - r), mark);
            } else if position.o & (1 << sq) != 0 {
                scene.circle(c, r, None, Some(mark));
            } else if let Some(m) = moves.iter().find(|m| m.mv == sq) {
                // Large enough for its letters to be read, within the square.
                let r = (cell * 0.3).max(legible_radius(&m.code)).min(cell * 0.45);
                scene.bead_tag(c, r, m.colour, &m.code);
            }
        }
    }
}

/// The grid drawn in `area`: its left and top edges and the side of a square.
fn grid_in(area: Rect) -> (f32, f32, f32) {
    let side = area.w.min(area.h);
    (
        area.x + (area.w - side) / 2.0,
        area.y + (area.h - side) / 2.0,
        side / 3.0,
    )
}
