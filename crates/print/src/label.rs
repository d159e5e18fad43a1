//! One matchbox label as a scene: the position with the machine's moves as coloured,
//! lettered arrows (drawn by the game), the move-number tag, the box id and the beads.

use crate::draw::fonts::{fit, text_width};
use crate::draw::scene::{
    Anchor, CAP_HEIGHT, GREY, Rect, Scene, Shape, TextStyle, Weight, pt, readable,
};
use crate::pictures::{DrawnMove, Game};
use crate::sheet::{label_drawing, move_edge};
use matchbox_engine::boxes::{MatchBox, short_tag, tag};
use matchbox_engine::i18n::{Strings, strings};
use matchbox_engine::kit::Kit;

/// Labels at least this much wider than high are laid out as a strip: the position on
/// the left, the words on the right (the small craft boxes of MENACE builds). So is a
/// picture taller than wide on any label: beneath the words it would leave most of the
/// label empty (a board of 8 rows and 3 columns).
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
                code: strings.bead_code(colour, G::DRAWN_LETTERS),
            }
        })
        .collect()
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

/// The smallest text on a label: 5 pt, in mm.
pub const SMALLEST_TEXT_MM: f32 = 5.0 * 25.4 / 72.0;

/// The height of the smallest capital letter in a scene, in mm (`None` without text).
pub fn smallest_letter(scene: &Scene) -> Option<f32> {
    let mut smallest: Option<f32> = None;
    scene.paint(&mut |shape| {
        if let Shape::Text { size, text, .. } = shape
            && text.chars().any(char::is_alphanumeric)
        {
            let height = size * CAP_HEIGHT;
            smallest = Some(smallest.map_or(height, |s: f32| s.min(height)));
        }
    });
    smallest
}

/// The tag of box `b` as `words` put it (the label's tag alone, the index's "moves
/// I–II"), in `style` at most and fitted to `width`, with its size: every move number
/// where they fit at half that size and at least the smallest text size, else runs of
/// moves in a row shortened (a box of a long game can be reached at a hundred move
/// numbers). A pupil finds move VII in a list more easily than between IV and XI, so
/// the list stays while it can be read.
pub fn fitted_tag<P, M>(
    kit: &Kit,
    b: &MatchBox<P, M>,
    words: impl Fn(&str) -> String,
    style: TextStyle,
    width: f32,
) -> (String, f32) {
    let (size, weight) = (style.size, style.weight);
    let full = tag(&b.move_numbers, kit.machine, kit.tags, kit.numerals);
    // Measured first number by number, each shaped once per kit: shaping a list of a
    // hundred numbers on every label would cost more than drawing the labels.
    let dash = text_width("–", size, weight);
    let numbers: f32 = full
        .split('–')
        .map(|number| text_width(number, size, weight) + dash)
        .sum();
    if text_width(&words(""), size, weight) + numbers - dash <= width * 2.0 {
        let text = words(&full);
        let full_size = fit(&text, size, weight, width);
        if full_size >= SMALLEST_TEXT_MM.max(size / 2.0) {
            return (text, full_size);
        }
    }
    let text = words(&short_tag(
        &b.move_numbers,
        kit.machine,
        kit.tags,
        kit.numerals,
    ));
    let short_size = fit(&text, size, weight, width);
    (text, short_size)
}

/// Text fitted to `width` on one line, or on two (broken at its last space) when one
/// line would set it smaller than `least`; `None` when two lines do not reach it
/// either. Gives the lines and their size.
fn fitted_lines(
    text: &str,
    style: TextStyle,
    width: f32,
    least: f32,
) -> Option<(Vec<String>, f32)> {
    let one = fit(text, style.size, style.weight, width);
    if one >= least {
        return Some((vec![text.to_string()], one));
    }
    let (first, second) = text.rsplit_once(' ')?;
    let size = [first, second]
        .iter()
        .map(|t| fit(t, style.size, style.weight, width))
        .fold(style.size, f32::min);
    (size >= least).then(|| (vec![first.to_string(), second.to_string()], size))
}

/// Draws lines of text, the last one's baseline at `baseline`, each a line-height
/// above the next.
fn text_lines(scene: &mut Scene, x: f32, baseline: f32, lines: &[String], style: TextStyle) {
    let count = lines.len();
    for (i, line) in lines.iter().enumerate() {
        let y = baseline - (count - 1 - i) as f32 * style.size * 1.15;
        scene.styled_text(pt(x, y), line.clone(), style);
    }
}

/// The words on a label (the box id, the move-number tag and the bead line) and the
/// label's size and margin, as both layouts need them.
struct LabelWords<'a, P, M> {
    kit: &'a Kit,
    b: &'a MatchBox<P, M>,
    id: String,
    beads: Option<String>,
    w: f32,
    h: f32,
    pad: f32,
}

/// The bead line's look at `size`.
fn bead_style(size: f32) -> TextStyle {
    TextStyle::new(size).coloured(GREY)
}

/// The label of one box, drawn at [`label_drawing`] size, origin at its top-left
/// corner: the picture in its own proportions, as large as it can be, with the words
/// beside it (a strip) or beneath it, whichever leaves it larger.
pub fn draw_label<G: Game>(game: &G, kit: &Kit, b: &MatchBox<G::Position, G::Move>) -> Scene {
    let s = strings(kit.language);
    let size = label_drawing(kit);
    let (w, h) = (size.width_mm, size.height_mm);
    let mut scene = Scene::new(w, h);
    let moves = drawn_moves::<G>(kit, s, b);
    let frame = Rect {
        x: 0.0,
        y: 0.0,
        w,
        h,
    };
    let pad = (h * 0.05).clamp(0.8, 2.0) + draw_move_edge(&mut scene, kit, &b.move_numbers, frame);
    let words = LabelWords {
        kit,
        b,
        id: s.fill("label.box", &[("id", &b.id.to_string())]),
        // Per arrow, per dot: each game names what marks a move on its labels.
        beads: kit
            .show_beads
            .then(|| b.moves.first())
            .flatten()
            .map(|first| s.fill(game.bead_line(), &[("n", &first.beads.to_string())])),
        w,
        h,
        pad,
    };

    let (unit_w, unit_h) = game.picture_size(1.0);
    let scale = |area: Rect| (area.w / unit_w).min(area.h / unit_h);
    let text_size = (h * 0.1).clamp(2.2, 4.5);
    let below = Rect {
        x: pad,
        y: pad,
        w: w - 2.0 * pad,
        h: h - 2.0 * pad - text_size * 1.35,
    };
    // A strip keeps at least a third of its width for the words.
    let picture_w = ((h - 2.0 * pad) * unit_w / unit_h).min((w - 3.0 * pad) * 0.66);
    let beside = Rect {
        x: pad,
        y: pad,
        w: picture_w,
        h: h - 2.0 * pad,
    };
    let strip = w / h >= STRIP_ASPECT || unit_h > unit_w;
    if strip && scale(beside) > scale(below) {
        game.draw(&b.position, &moves, beside, &mut scene);
        draw_strip_words(&mut scene, &words, pad * 2.0 + picture_w);
    } else {
        draw_stacked_words(&mut scene, &words, text_size, below.y + below.h);
        game.draw(&b.position, &moves, below, &mut scene);
    }
    scene
}

/// Strip: the id at the top of a column at the right from `left`, the tag at its foot,
/// and the bead line between them when there is room for it.
fn draw_strip_words<P, M>(scene: &mut Scene, words: &LabelWords<P, M>, left: f32) {
    let LabelWords { h, pad, .. } = *words;
    let width = words.w - left - pad;
    let centre = left + width / 2.0;
    let (tag_text, tag_size) = fitted_tag(
        words.kit,
        words.b,
        str::to_string,
        TextStyle::new(h * 0.3).bold(),
        width,
    );
    let tag_baseline = h - pad - tag_size * 0.15;
    let tag_style = TextStyle::new(tag_size).bold().anchored(Anchor::Middle);
    scene.styled_text(pt(centre, tag_baseline), tag_text, tag_style);
    let id_style = TextStyle::new(h * 0.24).anchored(Anchor::Middle);
    let mut top = pad;
    if let Some((lines, size)) = fitted_lines(&words.id, id_style, width, SMALLEST_TEXT_MM) {
        let baseline = pad + size * 0.9 + (lines.len() - 1) as f32 * size * 1.15;
        text_lines(
            scene,
            centre,
            baseline,
            &lines,
            TextStyle { size, ..id_style },
        );
        top = baseline + size * 0.35;
    }
    let room = tag_baseline - tag_size * 0.9 - top;
    if let Some(text) = &words.beads {
        let style = bead_style(h * 0.14).anchored(Anchor::Middle);
        if let Some((lines, size)) = fitted_lines(text, style, width, SMALLEST_TEXT_MM)
            && lines.len() as f32 * size * 1.15 + size * 0.3 <= room
        {
            let baseline = top + (room + lines.len() as f32 * size * 1.15) / 2.0 - size * 0.2;
            text_lines(scene, centre, baseline, &lines, TextStyle { size, ..style });
        }
    }
}

/// Stacked: beads, tag and id along the bottom, under a picture that ends at
/// `picture_foot`: the tag in the middle, the id and the bead line each in the room
/// beside it.
fn draw_stacked_words<P, M>(
    scene: &mut Scene,
    words: &LabelWords<P, M>,
    text_size: f32,
    picture_foot: f32,
) {
    let LabelWords { w, h, pad, .. } = *words;
    let small = text_size * 0.72;
    let baseline = h - pad - text_size * 0.2;
    let tag_style = TextStyle::new(text_size).bold().anchored(Anchor::Middle);
    // A long tag (Marienbad's 4–6–8–10–12–14–16) takes what the id leaves it.
    let id_w = text_width(
        &words.id,
        SMALLEST_TEXT_MM.max(small * 0.8),
        Weight::Regular,
    ) + text_size * 0.5;
    let tag_in = |room: f32| {
        let style = TextStyle::new(text_size).bold();
        fitted_tag(words.kit, words.b, str::to_string, style, room)
    };
    let (mut tag_text, mut tag_size) = tag_in(w - 2.0 * (pad + id_w));
    let mut tag_x = w / 2.0;
    let tag_w = |text: &str, size: f32| text_width(text, size, Weight::Bold);
    // Room for the id (right) and the bead line (left), beside the tag.
    let (mut id_room, mut beads_room) = {
        let side = (w - 2.0 * pad - tag_w(&tag_text, tag_size)) / 2.0 - text_size * 0.5;
        (side, side)
    };
    // A tag too small to read in the middle takes the room left of the id as well (a long
    // game's tag beside a long box word: nim's box 765 of 1,000 stones in Polish), the
    // bead line giving way.
    if !readable(tag_size) {
        let room = w - 2.0 * pad - id_w;
        (tag_text, tag_size) = tag_in(room);
        tag_x = pad + room / 2.0;
        let half = tag_w(&tag_text, tag_size) / 2.0;
        id_room = w - pad - (tag_x + half) - text_size * 0.5;
        beads_room = tag_x - half - pad - text_size * 0.5;
    }
    scene.styled_text(
        pt(tag_x, baseline),
        tag_text,
        TextStyle {
            size: tag_size,
            ..tag_style
        },
    );
    let id_style = TextStyle::new(small).anchored(Anchor::End);
    scene.fitted_text(pt(w - pad, baseline), words.id.as_str(), id_style, id_room);
    if let Some(text) = &words.beads
        && let Some((lines, size)) =
            fitted_lines(text, bead_style(small * 0.85), beads_room, SMALLEST_TEXT_MM)
        // Two lines only where they stay clear of the picture.
        && baseline - (lines.len() as f32 - 1.0) * size * 1.15 - size * CAP_HEIGHT >= picture_foot
    {
        text_lines(
            scene,
            pad,
            baseline,
            &lines,
            TextStyle {
                size,
                ..bead_style(small)
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::fonts::text_width;
    use crate::draw::scene::readable_letter;
    use crate::sheet::{LABEL_SIZES, STICKER_SHEETS};
    use matchbox_engine::boxes::BoxSet;
    use matchbox_engine::game::hexapawn::Hexapawn;
    use std::sync::Arc;

    /// The smallest letter on any label of a kit, and whether `matchbox kit` takes the
    /// kit at that size.
    fn smallest<G: Game>(game: &G, kit: &Kit) -> (f32, bool) {
        let set = BoxSet::build(game, kit).unwrap();
        let labels: Vec<Arc<Scene>> = set
            .boxes
            .iter()
            .map(|b| Arc::new(draw_label(game, kit, b)))
            .collect();
        let smallest = labels
            .iter()
            .filter_map(|l| smallest_letter(l))
            .fold(f32::MAX, f32::min);
        let taken = crate::make::legible(kit, &set, &labels).is_ok();
        (smallest, taken)
    }

    /// The words of a label, in the order drawn, with where each starts.
    fn words(label: &Scene) -> Vec<(String, f32)> {
        let mut words = Vec::new();
        label.paint(&mut |shape| {
            if let Shape::Text {
                at,
                size,
                text,
                anchor,
                weight,
                ..
            } = shape
            {
                let start = anchor.start(at.x, text_width(text, *size, *weight));
                words.push((text.clone(), start));
            }
        });
        words
    }

    #[test]
    fn the_largest_kits_are_legible_on_the_matchbox_label() {
        // A heap of 1,000 stones, whose last box the machine meets at any of its moves
        // 167 to 500, and a board of 8 rows and 3 columns; in Polish and Russian the box
        // word is longer, and a long tag moves aside for it.
        for yaml in [
            "preset: bachet\nstones: 1000\n",
            "preset: bachet\nstones: 1000\nlanguage: pl\n",
            "preset: bachet\nstones: 1000\nlanguage: ru\n",
            "preset: hexapawn\nrows: 8\ncols: 3\n",
        ] {
            let kit = Kit::from_yaml(yaml, "kit.yaml").unwrap();
            let (smallest, taken) =
                matchbox_engine::with_game!(&kit.game, |game| smallest(game, &kit));
            assert!(taken, "{yaml}: {smallest:.2} mm");
        }
    }

    #[test]
    fn a_tag_too_long_to_read_gives_its_runs_of_moves_by_their_ends() {
        let kit = Kit::from_yaml("preset: bachet\nstones: 1000\n", "kit.yaml").unwrap();
        let game = matchbox_engine::game::nim::Nim::new(vec![1000], vec![1, 2, 3], true);
        let set = BoxSet::build(&game, &kit).unwrap();
        let tag_of = |id: usize| {
            let label = draw_label(&game, &kit, &set.boxes[id - 1]);
            words(&label)
                .into_iter()
                .map(|(text, _)| text)
                .find(|t| t.contains(['I', 'V', 'X', 'L', 'C', 'D']) && !t.contains(' '))
                .unwrap()
        };
        assert_eq!(tag_of(1), "I");
        assert_eq!(tag_of(7), "II–III–IV");
        assert_eq!(tag_of(999), "CLXVII–…–D");
    }

    #[test]
    fn a_board_taller_than_wide_stands_beside_the_words() {
        let kit = Kit::from_yaml("preset: hexapawn\nrows: 8\ncols: 3\n", "kit.yaml").unwrap();
        let game = Hexapawn::new(8, 3);
        let set = BoxSet::build(&game, &kit).unwrap();
        let b = &set.boxes[0];
        let label = draw_label(&game, &kit, b);
        let mut board_right = 0.0f32;
        let mut board_height = 0.0f32;
        label.paint(&mut |shape| {
            if let Shape::Polygon { points, .. } = shape {
                board_right = points.iter().map(|p| p.x).fold(board_right, f32::max);
                let ys = points.iter().map(|p| p.y);
                let (top, bottom) = ys.fold((f32::MAX, 0.0f32), |(t, b), y| (t.min(y), b.max(y)));
                board_height = board_height.max(bottom - top);
            }
        });
        // The bead letters on the board's arrows aside.
        let codes: Vec<String> = drawn_moves::<Hexapawn>(&kit, strings(kit.language), b)
            .into_iter()
            .map(|m| m.code)
            .collect();
        let words: Vec<_> = words(&label)
            .into_iter()
            .filter(|(text, _)| !codes.contains(text))
            .collect();
        assert_eq!(
            words.len(),
            3,
            "the tag, the id and the bead line: {words:?}"
        );
        assert!(
            words.iter().all(|(_, start)| *start > board_right),
            "{words:?}"
        );
        // Beneath the words the board would be at most 36 mm less the words' line.
        assert!(board_height > 30.0, "{board_height:.1} mm");
    }

    #[test]
    fn every_letter_is_legible_at_every_size_taken_and_the_usual_sizes_are_taken() {
        let sizes = LABEL_SIZES
            .iter()
            .map(|(name, _)| *name)
            .chain(STICKER_SHEETS.iter().map(|s| s.code));
        for size in sizes {
            for preset in matchbox_engine::kit::presets() {
                for language in ["en", "pl", "ru"] {
                    let yaml = format!(
                        "preset: {}\nlabel: {size}\nlanguage: {language}\n",
                        preset.name
                    );
                    let kit = Kit::from_yaml(&yaml, "kit.yaml").unwrap();
                    let (smallest, taken) =
                        matchbox_engine::with_game!(&kit.game, |game| smallest(game, &kit));
                    let at = format!("{} on {size} in {language}: {smallest:.2} mm", preset.name);
                    assert_eq!(taken, readable_letter(smallest), "{at}");
                    // The matchbox label takes every kit; MENACE, built from craft boxes
                    // and stickers, every size.
                    if size == "matchbox" || preset.name.starts_with("menace") {
                        assert!(taken, "{at}");
                    }
                }
            }
        }
    }
}
