//! One matchbox label as a scene: the position with the machine's moves as coloured,
//! lettered arrows (drawn by the game), the move-number tag, the box id and the beads.

use super::scene::{Anchor, GREY, Rect, Scene, TextStyle, pt};
use crate::boxes::{MatchBox, tag};
use crate::game::{DrawnMove, Game};
use crate::i18n::{Strings, strings};
use crate::kit::Kit;

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

/// The label of one box, `kit.label` in size, origin at its top-left corner.
pub fn draw_label<G: Game>(game: &G, kit: &Kit, b: &MatchBox<G::Position, G::Move>) -> Scene {
    let s = strings(kit.language);
    let (w, h) = (kit.label.width_mm, kit.label.height_mm);
    let mut scene = Scene::new(w, h);
    let moves = drawn_moves::<G>(kit, s, b);
    let tag_text = tag(&b.move_numbers, kit.machine, kit.tags, kit.numerals);
    let pad = (h * 0.05).clamp(0.8, 2.0);

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
        let beads = s.fill("label.beads", &[("n", &first.beads.to_string())]);
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
