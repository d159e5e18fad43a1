//! How hexapawn is drawn: the board with its pawns and the machine's arrows, and the
//! board and pawns a class cuts out.

use matchbox_engine::game::hexapawn::{Board, Hexapawn, Step};
use matchbox_engine::game::{Rules, Side};
use matchbox_engine::i18n::Strings;
use matchbox_engine::i18n::{Id, id};

use super::{CAPTION, CUT};
use super::{DrawnMove, Picture, disc_centres};
use crate::draw::scene::{
    Anchor, INK, Rect, Scene, Shape, Stroke, TextStyle, WHITE, legible_radius, pt,
};

impl Picture for Hexapawn {
    fn bead_line(&self) -> [Id; 2] {
        [id::LABEL_BEADS_HEXAPAWN, id::LABEL_BEADS_SHORT_ARROW]
    }

    fn picture_size(&self, cell: f32) -> (f32, f32) {
        (cell * f32::from(self.cols()), cell * f32::from(self.rows()))
    }

    /// The empty board to play on, and the starting position again, whose occupied
    /// squares are cut out as the pieces.
    fn cut_outs(&self, width: f32, max_height: f32, words: &Strings) -> Scene {
        let (r, c) = (f32::from(self.rows()), f32::from(self.cols()));
        // The page's heading and a few lines of text take about 45 mm above.
        let cell = (width / c)
            .min((max_height - 45.0) / (2.0 * r + 0.5))
            .min(30.0);
        let (w, h) = (cell * c, cell * r);
        let mut scene = Scene::new(width, 2.0 * h + cell * 0.5 + 8.0);
        let left = (width - w) / 2.0;
        let board = Rect {
            x: left,
            y: 0.0,
            w,
            h,
        };
        let empty = Board {
            white: 0,
            black: 0,
            to_move: Side::First,
        };
        self.draw(&empty, &[], board, &mut scene);
        let pieces = Rect {
            y: h + cell * 0.5,
            ..board
        };
        self.draw(&self.start(), &[], pieces, &mut scene);
        for row in [0.0, r - 1.0] {
            for col in 0..self.cols() {
                let square = Rect {
                    x: left + f32::from(col) * cell,
                    y: pieces.y + row * cell,
                    w: cell,
                    h: cell,
                };
                scene.rect(square, None, Some(CUT));
            }
        }
        let names = format!(
            "{} / {}",
            words.get(id::BOARD_BLACK),
            words.get(id::BOARD_WHITE)
        );
        let style = TextStyle::new(CAPTION).anchored(Anchor::Middle);
        scene.styled_text(pt(width / 2.0, pieces.y + h + 5.5), names, style);
        scene
    }

    /// The square the pawn stands on, then the square it goes to.
    fn move_spots(&self, _position: &Board, mv: Step, area: Rect) -> Vec<Rect> {
        let squares = Squares::of(self, area);
        vec![squares.square(mv.from), squares.square(mv.to)]
    }

    /// Every square: the notation names them (`b1-b2`).
    fn named_squares(&self, area: Rect) -> Vec<Rect> {
        let squares = Squares::of(self, area);
        (0..self.rows() * self.cols())
            .map(|sq| squares.square(sq))
            .collect()
    }

    fn draw(&self, position: &Board, moves: &[DrawnMove<Step>], area: Rect, scene: &mut Scene) {
        let squares = Squares::of(self, area);
        let (cell, centre) = (squares.cell, |sq: u8| squares.centre(sq));
        let light = [0xf4, 0xf1, 0xe8];
        let dark = [0xd9, 0xd2, 0xc0];
        for row in 0..self.rows() {
            for col in 0..self.cols() {
                let shade = if (row + col) % 2 == 0 { dark } else { light };
                scene.rect(squares.square(row * self.cols() + col), Some(shade), None);
            }
        }
        let frame = Rect {
            x: squares.left,
            y: squares.top,
            w: cell * f32::from(self.cols()),
            h: cell * f32::from(self.rows()),
        };
        scene.rect(frame, None, Some(Stroke::solid(INK, cell * 0.03)));
        for sq in 0..self.rows() * self.cols() {
            let bit = 1u64 << sq;
            if position.white & bit != 0 {
                draw_pawn(scene, centre(sq), cell, WHITE);
            } else if position.black & bit != 0 {
                draw_pawn(scene, centre(sq), cell, INK);
            }
        }
        let radius = |code: &str| (cell * 0.17).max(legible_radius(code)).min(cell * 0.36);
        let mut arrows = Vec::with_capacity(moves.len());
        for m in moves {
            let (from, to) = (centre(m.mv.from), centre(m.mv.to));
            // Start the arrow on the pawn's head and stop short of the target's centre.
            let start = pt(
                from.x + (to.x - from.x) * 0.18,
                from.y + (to.y - from.y) * 0.18,
            );
            let end = pt(
                from.x + (to.x - from.x) * 0.9,
                from.y + (to.y - from.y) * 0.9,
            );
            scene.arrow(start, end, m.colour, cell * 0.075);
            arrows.push((from, to, 0.55, radius(&m.code)));
        }
        // The discs after every arrow, so that no arrow is drawn over a letter.
        let discs = disc_centres(&arrows, frame);
        for ((m, at), (_, _, _, r)) in moves.iter().zip(discs).zip(arrows) {
            scene.bead_tag(at, r, m.colour, &m.code);
        }
    }
}

/// The board's squares as drawn in an area: the one layout of the pictures and of the
/// places a move is touched.
struct Squares {
    /// The board's left edge.
    left: f32,
    /// The board's top edge.
    top: f32,
    /// The side of a square.
    cell: f32,
    /// The board's rows and columns.
    rows: u8,
    cols: u8,
}

impl Squares {
    /// The board of `game`, as large as fits in `area` and centred in it.
    fn of(game: &Hexapawn, area: Rect) -> Squares {
        let (rows, cols) = (game.rows(), game.cols());
        let cell = (area.w / f32::from(cols)).min(area.h / f32::from(rows));
        Squares {
            left: area.x + (area.w - cell * f32::from(cols)) / 2.0,
            top: area.y + (area.h - cell * f32::from(rows)) / 2.0,
            cell,
            rows,
            cols,
        }
    }

    /// Square `sq`'s row from the bottom and column from the left.
    fn row_col(&self, sq: u8) -> (u8, u8) {
        (sq / self.cols, sq % self.cols)
    }

    /// Square `sq`, row 0 at the bottom.
    fn square(&self, sq: u8) -> Rect {
        let (row, col) = self.row_col(sq);
        Rect {
            x: self.left + f32::from(col) * self.cell,
            y: self.top + f32::from(self.rows - 1 - row) * self.cell,
            w: self.cell,
            h: self.cell,
        }
    }

    /// The centre of square `sq`.
    fn centre(&self, sq: u8) -> crate::draw::scene::Pt {
        let (row, col) = self.row_col(sq);
        pt(
            self.left + (f32::from(col) + 0.5) * self.cell,
            self.top + (f32::from(self.rows - 1 - row) + 0.5) * self.cell,
        )
    }
}

/// A pawn silhouette: a round head on a flared base, so the two sides differ by fill
/// alone and print well in grey.
fn draw_pawn(scene: &mut Scene, centre: crate::draw::scene::Pt, cell: f32, fill: [u8; 3]) {
    let s = cell * 0.36;
    let outline = Some(Stroke::solid(INK, cell * 0.035));
    let base = vec![
        pt(centre.x - s * 0.75, centre.y + s * 0.85),
        pt(centre.x + s * 0.75, centre.y + s * 0.85),
        pt(centre.x + s * 0.3, centre.y - s * 0.05),
        pt(centre.x - s * 0.3, centre.y - s * 0.05),
    ];
    scene.push(Shape::Polygon {
        points: base,
        fill: Some(fill),
        stroke: outline,
    });
    scene.circle(
        pt(centre.x, centre.y - s * 0.4),
        s * 0.42,
        Some(fill),
        outline,
    );
}
