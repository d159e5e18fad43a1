//! One matchbox label as a scene: the position with the machine's moves as coloured,
//! lettered arrows (drawn by the game), the move-number tag, the box id and the beads.

use super::scene::{Anchor, GREY, Rect, Rgb, Scene, Stroke, TextStyle, pt};
use crate::boxes::{MatchBox, machine_move, tag};
use crate::game::{DrawnMove, Game};
use crate::i18n::{Strings, strings};
use crate::kit::Kit;
use crate::sheet::label_drawing;

/// Labels at least this much wider than high are laid out as a strip: the position on
/// the left, the words on the right (the small craft boxes of MENACE builds).
const STRIP_ASPECT: f32 = 1.8;

/// The moves of a box as the game draws them: colour and the colour's letter.
pub fn drawn_moves<G: Game>(
    kit: &Kit,
    strings: &Strings,
    b: &MatchBox<G::Position, G::Move>,
) -> Vec<DrawnMove<G::Move>> {
    b.moves
        .iter()
        .map(|m| {
            let colour = &kit.palette[m.colour];
            DrawnMove {
                mv: m.mv,
                colour: colour.rgb,
                code: strings.colour_code(colour),
            }
        })
        .collect()
}

/// The edges that tell move numbers apart with `move_colours`, by the machine's own
/// move (its first, second, ...): each differs from the others in colour and also in
/// width or dash, so that a grey-scale print keeps them apart. Dashes are longer than
/// the line is wide, so that the round caps leave a visible gap.
const MOVE_EDGES: [(Rgb, f32, Option<f32>); 6] = [
    ([0x1f, 0x4e, 0xb4], 1.1, None),
    ([0xe0, 0x7b, 0x00], 1.1, Some(4.0)),
    ([0x2e, 0x8b, 0x3e], 1.1, Some(2.2)),
    ([0x8e, 0x24, 0xaa], 0.5, None),
    ([0xc6, 0x28, 0x28], 0.5, Some(3.0)),
    ([0x6d, 0x4c, 0x41], 0.5, Some(1.8)),
];

/// How many of the machine's moves `move_colours` can tell apart.
pub const MOVE_EDGE_COUNT: usize = MOVE_EDGES.len();

// `move_colours` is refused for a kit of more machine moves than the edges tell apart.
const _: () = assert!(MOVE_EDGE_COUNT == crate::boxes::MOVE_EDGE_KINDS);

/// The edge of a box whose earliest move number is `move_number`: thinner on small
/// labels, so that it frames the drawing without crowding it.
pub fn move_edge(kit: &Kit, move_number: u32) -> Stroke {
    let ordinal = machine_move(move_number, kit.machine).max(1) as usize - 1;
    let (colour, width, dash) = MOVE_EDGES[ordinal % MOVE_EDGES.len()];
    let scale = (label_drawing(kit).height_mm / 30.0).clamp(0.5, 1.0);
    Stroke {
        colour,
        width: width * scale,
        dash: dash.map(|d| d * scale),
    }
}

/// With `move_colours`, draws the edge of a box that can occur at `move_numbers` just
/// inside `frame`, and returns how much room it takes from the frame's sides (0
/// without).
pub fn draw_move_edge(scene: &mut Scene, kit: &Kit, move_numbers: &[u32], frame: Rect) -> f32 {
    let Some(&first) = move_numbers.first().filter(|_| kit.move_colours) else {
        return 0.0;
    };
    // Inside the frame by a little, so that a cut a hair off still leaves it whole.
    let edge = move_edge(kit, first);
    let inset = 0.4 + edge.width / 2.0;
    scene.rect(
        Rect {
            x: frame.x + inset,
            y: frame.y + inset,
            w: frame.w - 2.0 * inset,
            h: frame.h - 2.0 * inset,
        },
        None,
        Some(edge),
    );
    0.4 + edge.width
}

/// The label of one box, drawn at [`label_drawing`] size, origin at its top-left
/// corner.
pub fn draw_label<G: Game>(game: &G, kit: &Kit, b: &MatchBox<G::Position, G::Move>) -> Scene {
    let s = strings(kit.language);
    let size = label_drawing(kit);
    let (w, h) = (size.width_mm, size.height_mm);
    let mut scene = Scene::new(w, h);
    let moves = drawn_moves::<G>(kit, s, b);
    let tag_text = tag(&b.move_numbers, kit.machine, kit.tags, kit.numerals);
    let frame = Rect {
        x: 0.0,
        y: 0.0,
        w,
        h,
    };
    let pad = (h * 0.05).clamp(0.8, 2.0) + draw_move_edge(&mut scene, kit, &b.move_numbers, frame);

    if w / h >= STRIP_ASPECT {
        // Strip: the board as large as the height allows; id and tag beside it.
        let side = h - 2.0 * pad;
        let board = Rect {
            x: pad,
            y: pad,
            w: side,
            h: side,
        };
        game.draw(&b.position, &moves, board, &mut scene);
        let left = pad * 2.0 + side;
        let width = w - left - pad;
        let centre = left + width / 2.0;
        let size = h * 0.3;
        let id = s.fill("label.box_short", &[("id", &b.id.to_string())]);
        let style = TextStyle::new(size).anchored(Anchor::Middle);
        let id_style = TextStyle {
            size: size * 0.8,
            ..style
        };
        scene.fitted_text(pt(centre, pad + size * 0.9), id, id_style, width);
        scene.fitted_text(
            pt(centre, h - pad - size * 0.15),
            tag_text,
            style.bold(),
            width,
        );
        return scene;
    }

    // Stacked: the position above; beads, tag and id along the bottom.
    let text_size = (h * 0.1).clamp(2.2, 4.5);
    let small = text_size * 0.72;
    let baseline = h - pad - text_size * 0.2;
    let third = (w - 2.0 * pad) / 3.0;
    let tag_style = TextStyle::new(text_size).bold().anchored(Anchor::Middle);
    scene.fitted_text(pt(w / 2.0, baseline), tag_text, tag_style, third);
    let id = s.fill("label.box", &[("id", &b.id.to_string())]);
    let id_style = TextStyle::new(small).anchored(Anchor::End);
    scene.fitted_text(pt(w - pad, baseline), id, id_style, third * 0.95);
    if kit.show_beads
        && let Some(first) = b.moves.first()
    {
        // Per arrow, per dot: each game names what marks a move on its labels.
        let beads = s.fill(game.bead_line(), &[("n", &first.beads.to_string())]);
        let bead_style = TextStyle::new(small * 0.85).coloured(GREY);
        scene.fitted_text(pt(pad, baseline), beads, bead_style, third * 0.95);
    }
    let area = Rect {
        x: pad,
        y: pad,
        w: w - 2.0 * pad,
        h: h - 2.0 * pad - text_size * 1.35,
    };
    game.draw(&b.position, &moves, area, &mut scene);
    scene
}
