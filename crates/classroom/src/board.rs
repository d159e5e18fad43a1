//! The board on the screen, and where to click it, for any game.
//!
//! The board is the game's own label drawing of the position, without arrows. Where a
//! move is clicked is what the game's picture declares beside its drawing
//! (`Picture::move_spots`): the square a mark goes on, the stone a take starts at, the
//! pawn and then the square it goes to. A new game needs nothing here.

use matchbox_print::draw::scene::{Anchor, Rect, Scene, TextStyle, pt};
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
    let squares: Vec<Spot> = game
        .named_squares(picture_area())
        .iter()
        .map(|r| [r.x, r.y, r.w, r.h])
        .collect();
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

/// Where a pupil touches the board to make `mv`, in the order touched, as the game's
/// picture declares them.
pub fn spots<G: Game>(game: &G, position: &G::Position, mv: G::Move) -> Vec<Spot> {
    game.move_spots(position, mv, picture_area())
        .into_iter()
        .map(|r| rounded([r.x, r.y, r.w, r.h]))
        .collect()
}

/// A spot to a tenth of a unit, for short JSON.
fn rounded(spot: Spot) -> Spot {
    spot.map(|v| (v * 10.0).round() / 10.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use matchbox_engine::game::GAMES;
    use matchbox_engine::kit::{Kit, presets};
    use matchbox_engine::machine::tree::Tree;
    use matchbox_engine::with_game;
    use matchbox_print::draw::scene::Shape;

    /// Whether a point is on a spot, edges included, as the page's `inside`.
    fn inside(p: [f32; 2], s: &Spot) -> bool {
        p[0] >= s[0] && p[0] <= s[0] + s[2] && p[1] >= s[1] && p[1] <= s[1] + s[3]
    }

    /// Whether two spots do not overlap, touching allowed (they are rounded).
    fn apart(a: &Spot, b: &Spot) -> bool {
        let a = [a[0] + 0.15, a[1] + 0.15, a[2] - 0.3, a[3] - 0.3];
        a[0] >= b[0] + b[2] || b[0] >= a[0] + a[2] || a[1] >= b[1] + b[3] || b[1] >= a[1] + a[3]
    }

    /// The move the page plays after `clicks` on the centres of spots, from nothing
    /// picked, with the index of the click that played it: app.js's `clickSpot` and
    /// `candidates`, so that what is proven here is what a pupil gets.
    fn played(moves: &[Vec<Spot>], clicks: &[Spot]) -> Option<(usize, usize)> {
        let candidates = |points: &[[f32; 2]]| -> Vec<usize> {
            (0..moves.len())
                .filter(|&m| {
                    points.len() <= moves[m].len()
                        && points
                            .iter()
                            .all(|&p| moves[m].iter().any(|s| inside(p, s)))
                })
                .collect()
        };
        let mut picked: Vec<[f32; 2]> = Vec::new();
        for (i, spot) in clicks.iter().enumerate() {
            let centre = [spot[0] + spot[2] / 2.0, spot[1] + spot[3] / 2.0];
            if picked.iter().any(|&p| inside(p, spot)) {
                picked.clear();
            } else {
                picked.push(centre);
                if candidates(&picked).is_empty() {
                    picked = if candidates(&[centre]).is_empty() {
                        Vec::new()
                    } else {
                        vec![centre]
                    };
                }
            }
            let complete: Vec<usize> = candidates(&picked)
                .into_iter()
                .filter(|&m| moves[m].len() == picked.len())
                .collect();
            if let [only] = complete[..] {
                return Some((only, i));
            }
        }
        None
    }

    /// Every legal move of every position the game can reach under `kit` has its
    /// spots on the picture; two spots of a position are one or apart; and clicking a
    /// move's spots in order plays that move, at its last click. How many positions
    /// and moves were checked.
    fn every_move_has_its_spots<G: Game>(game: &G, kit: &Kit) -> (usize, usize) {
        let tree = Tree::of_kit(game, kit).expect("a preset's tree");
        let mut checked = 0;
        for (node, position) in tree.positions.iter().enumerate() {
            let moves = tree.moves(node as u32);
            let all: Vec<Vec<Spot>> = moves.iter().map(|&mv| spots(game, position, mv)).collect();
            let said = |i: usize| {
                let (p, m) = (game.format_position(position), moves[i]);
                format!("{} {p}: {}", kit.name, game.format_move(position, m))
            };
            let every: Vec<(usize, &Spot)> = all
                .iter()
                .enumerate()
                .flat_map(|(i, s)| s.iter().map(move |s| (i, s)))
                .collect();
            for (n, &(i, a)) in every.iter().enumerate() {
                let on_picture =
                    a[0] >= 0.0 && a[1] >= 0.0 && a[0] + a[2] <= SIDE_MM && a[1] + a[3] <= SIDE_MM;
                assert!(
                    on_picture && a[2] >= 1.0 && a[3] >= 1.0,
                    "{}: {a:?}",
                    said(i)
                );
                for &(j, b) in &every[n + 1..] {
                    assert!(
                        a == b || apart(a, b),
                        "{} / {}: {a:?} {b:?}",
                        said(i),
                        said(j)
                    );
                }
            }
            for (i, own) in all.iter().enumerate() {
                assert!(!own.is_empty(), "{} has no spot", said(i));
                let got = played(&all, own);
                assert_eq!(got, Some((i, own.len() - 1)), "{}: {all:?}", said(i));
            }
            checked += moves.len();
        }
        (tree.positions.len(), checked)
    }

    #[test]
    fn every_move_of_every_game_is_clicked_on_spots_of_its_own() {
        for game in GAMES {
            assert!(!game.presets.is_empty(), "{} has a preset", game.name);
        }
        for preset in presets() {
            let kit = Kit::from_preset(preset.name).unwrap();
            let (positions, moves) =
                with_game!(&kit.game, |game| every_move_has_its_spots(game, &kit));
            assert!(positions > 1 && moves > 1, "{}", preset.name);
        }
    }

    /// The names of the squares of `game`'s board, if its notation names them: letters
    /// from the left under the board, numbers from the bottom beside it, one per column
    /// and per row of squares.
    fn names_are_beside_their_squares<G: Game>(game: &G, preset: &str) {
        let squares = game.named_squares(picture_area());
        // What the board writes beside the picture.
        let drawn = flat(&picture(game, &game.start())).len();
        let names: Vec<(String, f32, f32)> = flat(&board(game, &game.start()))
            .into_iter()
            .skip(drawn)
            .filter_map(|s| match s {
                Shape::Text { text, at, .. } => Some((text, at.x, at.y)),
                _ => None,
            })
            .collect();
        let (columns, rows): (Vec<_>, Vec<_>) = names
            .iter()
            .partition(|(t, ..)| t.chars().all(char::is_alphabetic));
        assert_eq!(columns.len() * rows.len(), squares.len(), "{preset}");
        let bottom = squares.iter().map(|s| s.y + s.h).fold(0.0, f32::max);
        let left = squares.iter().map(|s| s.x).fold(SIDE_MM, f32::min);
        for (i, (text, x, y)) in columns.iter().enumerate() {
            assert_eq!(*text, char::from(b'a' + i as u8).to_string());
            assert!(*y > bottom, "{preset}: {text}");
            let over = squares.iter().filter(|s| s.x < *x && *x < s.x + s.w);
            assert_eq!(over.count(), rows.len(), "{preset}: {text}");
        }
        for (i, (text, x, y)) in rows.iter().enumerate() {
            assert_eq!(*text, (i + 1).to_string());
            assert!(*x < left, "{preset}: {text}");
            let beside = squares.iter().filter(|s| s.y < *y && *y < s.y + s.h);
            assert_eq!(beside.count(), columns.len(), "{preset}: {text}");
        }
    }

    #[test]
    fn the_named_squares_have_their_names_beside_them() {
        for preset in presets() {
            let kit = Kit::from_preset(preset.name).unwrap();
            with_game!(&kit.game, |game| names_are_beside_their_squares(
                game,
                preset.name
            ));
        }
    }

    /// Every shape a scene paints, groups opened.
    fn flat(scene: &Scene) -> Vec<Shape> {
        let mut shapes = Vec::new();
        scene.paint(&mut |s| shapes.push(s.clone()));
        shapes
    }
}
