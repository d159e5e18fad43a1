//! The board on the screen, and where to click it, for any game.
//!
//! The board is the game's own label drawing of the position, without arrows. Where a
//! move can be clicked is found by drawing the position before and after the move: the
//! shapes that differ (the pawn that leaves, the square it reaches, the mark that
//! appears) are the move's spots; on a board of squares a spot is the whole square it
//! falls in, so that a pupil may click anywhere on it. A new game needs nothing here.

use matchbox_print::draw::fonts::text_width;
use matchbox_print::draw::scene::{Anchor, Rect, Scene, Shape, TextStyle, pt};
use matchbox_print::pictures::{DrawnMove, Game};

/// Side of the board picture, in mm (the SVG's own units; the page scales it).
const SIDE_MM: f32 = 100.0;
/// The board's margin, where a board of squares has its coordinates.
const MARGIN_MM: f32 = 8.0;

/// A place on the board picture, in its units: `[x, y, width, height]`.
pub type Spot = [f32; 4];

/// The position drawn as on a label, without arrows, inside the board's margin.
pub fn picture<G: Game>(game: &G, position: &G::Position) -> Scene {
    let mut scene = Scene::new(SIDE_MM, SIDE_MM);
    game.draw(position, &[], picture_area(), &mut scene);
    scene
}

/// The board picture with the coordinates of its squares in the margin, columns a, b,
/// c from the left and rows 1, 2, 3 from the bottom, as the notation of the games
/// played on squares (`b1-b2`) names them.
pub fn board<G: Game>(game: &G, position: &G::Position) -> Scene {
    let mut scene = picture(game, position);
    let squares = squares(&flat(&scene));
    let size = MARGIN_MM * 0.6;
    let style = TextStyle::new(size).bold().anchored(Anchor::Middle);
    let mut columns: Vec<f32> = squares.iter().map(|s| s[0] + s[2] / 2.0).collect();
    let mut rows: Vec<f32> = squares.iter().map(|s| s[1] + s[3] / 2.0).collect();
    for line in [&mut columns, &mut rows] {
        line.sort_by(f32::total_cmp);
        line.dedup_by(|a, b| (*a - *b).abs() < 0.5);
    }
    let bottom = squares.iter().map(|s| s[1] + s[3]).fold(0.0, f32::max);
    let left = squares.iter().map(|s| s[0]).fold(SIDE_MM, f32::min);
    for (i, &x) in columns.iter().enumerate() {
        let name = char::from(b'a' + (i as u8).min(25)).to_string();
        scene.styled_text(pt(x, bottom + size * 1.1), name, style);
    }
    for (i, &y) in rows.iter().rev().enumerate() {
        let name = (i + 1).to_string();
        scene.styled_text(pt(left - size * 0.8, y + size * 0.35), name, style);
    }
    scene
}

/// A box's position with its moves drawn in their bead colours, on the whole picture:
/// the memory panel's small labels.
pub fn picture_with<G: Game>(
    game: &G,
    position: &G::Position,
    moves: &[DrawnMove<G::Move>],
) -> Scene {
    let mut scene = Scene::new(SIDE_MM, SIDE_MM);
    let whole = Rect {
        x: 0.0,
        y: 0.0,
        w: SIDE_MM,
        h: SIDE_MM,
    };
    game.draw(position, moves, whole, &mut scene);
    scene
}

/// The board inside its margin.
fn picture_area() -> Rect {
    Rect {
        x: MARGIN_MM,
        y: MARGIN_MM,
        w: SIDE_MM - 2.0 * MARGIN_MM,
        h: SIDE_MM - 2.0 * MARGIN_MM,
    }
}

/// The squares of a board drawn as filled squares all of one size (a game whose board
/// is lines or stones has none).
fn squares(shapes: &[Shape]) -> Vec<Spot> {
    let found: Vec<Spot> = shapes
        .iter()
        .filter_map(|shape| match shape {
            Shape::Polygon {
                points,
                fill: Some(_),
                ..
            } if points.len() == 4 => {
                let s = bounds(shape);
                let square = (s[2] - s[3]).abs() < 0.01 && s[2] > 1.0;
                let axis_aligned = points.iter().all(|p| {
                    ((p.x - s[0]).abs() < 0.01 || (p.x - s[0] - s[2]).abs() < 0.01)
                        && ((p.y - s[1]).abs() < 0.01 || (p.y - s[1] - s[3]).abs() < 0.01)
                });
                (square && axis_aligned).then_some(s)
            }
            _ => None,
        })
        .collect();
    let side = found.first().map_or(0.0, |s| s[2]);
    if found.len() >= 4 && found.iter().all(|s| (s[2] - side).abs() < 0.01) {
        found
    } else {
        Vec::new()
    }
}

/// The bounding box of a shape.
fn bounds(shape: &Shape) -> Spot {
    let around = |xs: &mut dyn Iterator<Item = (f32, f32)>| {
        let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
        for (x, y) in xs {
            (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
        }
        [x0, y0, x1 - x0, y1 - y0]
    };
    match shape {
        Shape::Line { points, .. } | Shape::Polygon { points, .. } => {
            around(&mut points.iter().map(|p| (p.x, p.y)))
        }
        Shape::Circle { centre, radius, .. } => [
            centre.x - radius,
            centre.y - radius,
            2.0 * radius,
            2.0 * radius,
        ],
        Shape::Text {
            at,
            size,
            text,
            anchor,
            weight,
            ..
        } => {
            let w = text_width(text, *size, *weight);
            let left = anchor.start(at.x, w);
            [left, at.y - size * 0.8, w, *size]
        }
        // Never met: the shapes come from `Scene::paint`, which opens groups.
        Shape::Group { at, .. } => [at.x, at.y, 0.0, 0.0],
    }
}

fn overlap(a: &Spot, b: &Spot) -> bool {
    a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3]
}

fn union(a: &Spot, b: &Spot) -> Spot {
    let (x0, y0) = (a[0].min(b[0]), a[1].min(b[1]));
    let (x1, y1) = (
        (a[0] + a[2]).max(b[0] + b[2]),
        (a[1] + a[3]).max(b[1] + b[3]),
    );
    [x0, y0, x1 - x0, y1 - y0]
}

/// Every shape a scene paints, groups opened.
fn flat(scene: &Scene) -> Vec<Shape> {
    let mut shapes = Vec::new();
    scene.paint(&mut |s| shapes.push(s.clone()));
    shapes
}

/// The shapes of `a` that `b` does not have, each matched at most once.
fn missing<'a>(a: &'a [Shape], b: &[Shape]) -> Vec<&'a Shape> {
    let mut used = vec![false; b.len()];
    a.iter()
        .filter(|s| {
            let found = b.iter().zip(used.iter_mut()).find(|(t, u)| !**u && t == s);
            match found {
                Some((_, u)) => {
                    *u = true;
                    false
                }
                None => true,
            }
        })
        .collect()
}

/// Where the picture changes when `mv` is played: one spot per separate change, in
/// picture order (what leaves first, then what arrives).
pub fn spots<G: Game>(game: &G, position: &G::Position, mv: G::Move) -> Vec<Spot> {
    if let Some(r) = game.move_spot(position, mv, picture_area()) {
        return vec![rounded([r.x, r.y, r.w, r.h])];
    }
    let before = flat(&picture(game, position));
    let after = flat(&picture(game, &game.play(position, mv)));
    let squares = squares(&before);
    let mut spots: Vec<Spot> = Vec::new();
    for shape in missing(&before, &after)
        .into_iter()
        .chain(missing(&after, &before))
    {
        let mut spot = bounds(shape);
        // The whole square the change is on.
        let centre = [spot[0] + spot[2] / 2.0, spot[1] + spot[3] / 2.0];
        if let Some(square) = squares
            .iter()
            .find(|s| overlap(s, &[centre[0], centre[1], 0.0, 0.0]))
        {
            spot = *square;
        }
        // Merge with every spot it touches, until none does.
        while let Some(i) = spots.iter().position(|s| overlap(s, &spot)) {
            spot = union(&spots.swap_remove(i), &spot);
        }
        spots.push(spot);
    }
    spots.into_iter().map(rounded).collect()
}

/// A spot to a tenth of a unit, for short JSON.
fn rounded(spot: Spot) -> Spot {
    spot.map(|v| (v * 10.0).round() / 10.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use matchbox_engine::game::{Notation, Rules};
    use matchbox_engine::kit::fixtures::{self, HER};

    #[test]
    fn a_pawn_move_has_two_spots_and_a_mark_one() {
        let (game, _) = fixtures::pawns(HER);
        let start = game.start();
        let mut moves = Vec::new();
        game.legal_moves(&start, &mut moves);
        for &mv in &moves {
            let s = spots(&game, &start, mv);
            assert_eq!(s.len(), 2, "{}", game.format_move(&start, mv));
            // The pawn leaves one square and reaches the next: whole squares, a square apart.
            let side = (SIDE_MM - 2.0 * MARGIN_MM) / 3.0;
            assert!((s[0][1] - s[1][1]).abs() > side * 0.99, "{s:?}");
            assert!(s.iter().all(|r| (r[2] - side).abs() < 0.1), "{s:?}");
        }
        let coordinates: Vec<String> = flat(&board(&game, &start))
            .iter()
            .filter_map(|s| match s {
                Shape::Text { text, .. } => Some(text.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(coordinates, ["a", "b", "c", "1", "2", "3"]);
        let (ttt, _) = fixtures::grid("menace");
        let start = ttt.start();
        let mut marks = Vec::new();
        ttt.legal_moves(&start, &mut marks);
        let all: Vec<Vec<Spot>> = marks.iter().map(|&m| spots(&ttt, &start, m)).collect();
        assert!(all.iter().all(|s| s.len() == 1));
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert!(apart(&a[0], &b[0]), "squares do not overlap");
            }
        }
    }

    /// Whether two spots do not overlap, touching allowed (they are rounded).
    fn apart(a: &Spot, b: &Spot) -> bool {
        !overlap(&[a[0] + 0.15, a[1] + 0.15, a[2] - 0.3, a[3] - 0.3], b)
    }

    #[test]
    fn a_move_on_heaps_is_one_stone_to_click() {
        for preset in ["marienbad", "bachet"] {
            let (game, _) = fixtures::stones(preset);
            let start = game.start();
            let mut moves = Vec::new();
            game.legal_moves(&start, &mut moves);
            let all: Vec<Vec<Spot>> = moves.iter().map(|&m| spots(&game, &start, m)).collect();
            assert!(all.iter().all(|s| s.len() == 1));
            for (i, a) in all.iter().enumerate() {
                assert!(
                    a[0][0] >= 0.0 && a[0][0] + a[0][2] <= SIDE_MM + 0.1,
                    "{a:?}"
                );
                for b in &all[i + 1..] {
                    assert!(apart(&a[0], &b[0]), "stones do not overlap: {a:?} {b:?}");
                }
            }
            if preset == "bachet" {
                // Take this stone and those to its right: taking more starts further left.
                let x: Vec<f32> = all.iter().map(|s| s[0][0]).collect();
                assert!(x.windows(2).all(|w| w[0] > w[1]), "{x:?}");
            }
        }
    }
}
