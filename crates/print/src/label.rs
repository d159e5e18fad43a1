//! One matchbox label as a scene: the position with the machine's moves as coloured,
//! lettered arrows (drawn by the game), the move-number tag, the box id and the beads.

use crate::draw::fonts::{fit, text_width};
use crate::draw::scene::{
    Anchor, CAP_HEIGHT, Rect, Rgb, SMALLEST_LETTER_MM, Scene, Shape, TextStyle, Weight, pt,
    readable,
};
use crate::pictures::{DrawnMove, Game};
use crate::sheet::{MOVE_EDGE_WIDEST, label_drawing, move_edge};
use matchbox_engine::boxes::{BoxSet, MatchBox, TAG_SEPARATOR, short_tag, tag};
use matchbox_engine::game::Side;
use matchbox_engine::i18n::{Id, Strings, id, plural_form, strings};
use matchbox_engine::kit::{Kit, Tags};
use matchbox_engine::rule::BeadSchedule;
use std::sync::Arc;

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
/// I, II"), in `style` at most and fitted to `width`, with its size: every move number
/// where the list fits at that size, else runs of three or more moves in a row by their
/// ends (II–IV; "4–16, even" where the numbers count the game's moves, which go up by
/// two), shrunk only then (a box of a long game can be reached at a hundred move
/// numbers). A pupil finds move VII in a list more easily than between IV and XI, so
/// the list stays while it fits.
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
    let separator = text_width(TAG_SEPARATOR, size, weight);
    let numbers: f32 = full
        .split(TAG_SEPARATOR)
        .map(|number| text_width(number, size, weight) + separator)
        .sum();
    if text_width(&words(""), size, weight) + numbers - separator <= width {
        let text = words(&full);
        if text_width(&text, size, weight) <= width {
            return (text, size);
        }
    }
    let short = short_tag(&b.move_numbers, kit.machine, kit.tags, kit.numerals);
    // A run of the game's move numbers skips the opponent's: the words say which.
    let short = if kit.tags == Tags::GameMove && short != full {
        let key = match kit.machine {
            Side::First => id::LABEL_TAG_ODD,
            Side::Second => id::LABEL_TAG_EVEN,
        };
        strings(kit.language).fill(key, &[("tag", &short)])
    } else {
        short
    };
    let text = words(&short);
    let short_size = fit(&text, size, weight, width);
    (text, short_size)
}

/// The words a move-number tag stands in, in the kit's language: "move 4", "moves
/// II, III" (`index.move`, `index.moves`), so that a label's tag is never read as part of
/// the bead line beside it.
pub fn tag_words<P, M>(kit: &Kit, b: &MatchBox<P, M>) -> impl Fn(&str) -> String {
    let key = if b.move_numbers.len() > 1 {
        id::INDEX_MOVES
    } else {
        id::INDEX_MOVE
    };
    let s = strings(kit.language);
    move |numbers: &str| s.fill(key, &[("tag", numbers)])
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

/// The size of the smallest letters a pupil can read, in mm (capitals
/// [`SMALLEST_LETTER_MM`] high).
fn least_readable_size() -> f32 {
    SMALLEST_LETTER_MM / CAP_HEIGHT
}

/// A kit's bead line as every one of its labels sets it: which wording, the size and
/// where. It depends on the kit alone (the label's size, the language, the game, the
/// beads a box starts with), never on one box's tag or id, so that every label says it
/// alike.
#[derive(Clone, Copy, Debug, PartialEq)]
struct BeadLine {
    /// The message: the full wording or the short one.
    key: Id,
    /// Its size in mm.
    size: f32,
    /// On a row of its own above the tag and the id, across the label (a stacked
    /// label whose foot has no room for the full wording beside them).
    own_row: bool,
}

/// Where a kit's bead line may go, in order of preference: in full or short, the
/// width it is given there, and whether that is a row of its own.
type BeadPlaces = [(BeadWording, f32, bool)];

/// The bead line's full sentence, or its short form for a label too small for it.
#[derive(Clone, Copy)]
enum BeadWording {
    Full,
    Short,
}

impl BeadLine {
    /// The line for a kit at `size` at most, in the first of `places` where it fits:
    /// in full at the smallest text size at least, short with its letters still
    /// readable; `None` where none does (or the kit shows no beads). Measured with
    /// every number of beads a box of the kit starts with: the number and the form of
    /// the word it takes both change the line's width.
    fn of<G: Game>(game: &G, kit: &Kit, size: f32, places: &BeadPlaces) -> Option<BeadLine> {
        if !kit.show_beads {
            return None;
        }
        let counts: Vec<u32> = match &kit.beads {
            BeadSchedule::Each(n) => vec![*n],
            BeadSchedule::ByMoveNumber(by_move) => by_move.values().copied().collect(),
        };
        let [full, short] = game.bead_line();
        places.iter().find_map(|&(wording, width, own_row)| {
            let (key, least) = match wording {
                BeadWording::Full => (full, SMALLEST_TEXT_MM),
                BeadWording::Short => (short, least_readable_size()),
            };
            let line = BeadLine {
                key,
                size: 0.0,
                own_row,
            };
            let size = counts
                .iter()
                .map(|&n| fit(&line.text(kit, n), size, Weight::Regular, width))
                .fold(size, f32::min);
            (size >= least).then_some(BeadLine { size, ..line })
        })
    }

    /// The line of a box whose moves each start with `beads`: its number and the word
    /// `label.bead` in the form that number takes ("1 bead", "po 2 koraliki").
    fn text(&self, kit: &Kit, beads: u32) -> String {
        let s = strings(kit.language);
        let forms: Vec<&str> = s.get(id::LABEL_BEAD).split('|').collect();
        let [one, few, many] = [0, 1, 2].map(|i| forms[i.min(forms.len() - 1)]);
        let bead = plural_form(kit.language, i64::from(beads), one, few, many);
        s.fill(self.key, &[("n", &beads.to_string()), ("bead", bead)])
    }
}

/// The words on a label (the box id, the move-number tag and the bead line) and the
/// label's size and margin, as both layouts need them.
struct LabelWords<'a, P, M> {
    kit: &'a Kit,
    b: &'a MatchBox<P, M>,
    id: String,
    /// The bead line's text, as the kit's [`BeadLine`] words it for this box, and how
    /// it is set.
    beads: Option<(String, BeadLine)>,
    w: f32,
    h: f32,
    pad: f32,
}

/// The height a bead line at `size` on a row of its own takes from a stacked label's
/// picture, under which the tag and the id stand at `text_size`.
fn bead_row(text_size: f32, size: f32) -> f32 {
    size * 1.25 + text_size * 0.1
}

/// The bead line's ink: a grey dark enough to survive a photocopier (4.9:1 against white,
/// over the 4.5:1 small print needs), yet lighter than the picture's black ink, so that
/// it reads as the label's secondary text.
const BEAD_INK: Rgb = [0x70, 0x70, 0x70];

/// The bead line's look at `size`.
fn bead_style(size: f32) -> TextStyle {
    TextStyle::new(size).coloured(BEAD_INK)
}

/// The margin of every label of a kit: a twentieth of its height within 0.8 to 2 mm,
/// and the widest move edge where `move_colours` draws them (the bead line is measured
/// with it, so that a box whose edge is thinner sets it alike).
fn kit_pad(kit: &Kit, h: f32) -> f32 {
    let base = (h * 0.05).clamp(0.8, 2.0);
    if kit.move_colours {
        base + 0.4 + MOVE_EDGE_WIDEST
    } else {
        base
    }
}

/// The share of a stacked label's foot the bead line may take at most: the tag and the
/// id share the rest.
const BEADS_SHARE: f32 = 0.42;

/// The size every tag of a kit's labels is set at, in mm: the one that the label whose
/// tag has least room can take, so that no label's tag reads as smaller than another's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TagSize(f32);

impl TagSize {
    /// The tag size of the labels of `set`: each label laid out with its tag as large
    /// as its room allows, the smallest of those.
    pub fn of<G: Game>(game: &G, kit: &Kit, set: &BoxSet<G>) -> TagSize {
        let own = |b| laid_label(game, kit, b, f32::INFINITY).1;
        TagSize(set.boxes.iter().map(own).fold(f32::INFINITY, f32::min))
    }
}

/// The label of one box, drawn at [`label_drawing`] size, origin at its top-left
/// corner: the picture in its own proportions, as large as it can be, with the words
/// beside it (a strip) or beneath it, whichever leaves it larger. The picture is a
/// scene of its own placed in the label, so that what the game drew can be told from
/// the words around it.
/// Every tag is set at `tags`.
pub fn draw_label<G: Game>(
    game: &G,
    kit: &Kit,
    tags: TagSize,
    b: &MatchBox<G::Position, G::Move>,
) -> Scene {
    laid_label(game, kit, b, tags.0).0
}

/// [`draw_label`] with its tag at `most` at most, and the size its tag is set at.
fn laid_label<G: Game>(
    game: &G,
    kit: &Kit,
    b: &MatchBox<G::Position, G::Move>,
    most: f32,
) -> (Scene, f32) {
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
    let (unit_w, unit_h) = game.picture_size(1.0);
    let scale = |area: Rect| (area.w / unit_w).min(area.h / unit_h);
    let text_size = (h * 0.1).clamp(2.2, 4.5);
    let widest = kit_pad(kit, h);
    let stacked_line = stacked_bead_line(game, kit, w - 2.0 * widest, text_size);
    let row = stacked_line
        .filter(|line| line.own_row)
        .map_or(0.0, |line| bead_row(text_size, line.size));
    let below = Rect {
        x: pad,
        y: pad,
        w: w - 2.0 * pad,
        h: h - 2.0 * pad - text_size * 1.35 - row,
    };
    // A strip keeps at least a third of its width for the words.
    let picture_w = |pad: f32| ((h - 2.0 * pad) * unit_w / unit_h).min((w - 3.0 * pad) * 0.66);
    let beside = Rect {
        x: pad,
        y: pad,
        w: picture_w(pad),
        h: h - 2.0 * pad,
    };
    let strip = (w / h >= STRIP_ASPECT || unit_h > unit_w) && scale(beside) > scale(below);
    let bead_line = if strip {
        // Beside the picture, in the room the widest margin leaves.
        let width = w - 3.0 * widest - picture_w(widest);
        let places = [
            (BeadWording::Full, width, false),
            (BeadWording::Short, width, false),
        ];
        BeadLine::of(game, kit, h * 0.14, &places)
    } else {
        stacked_line
    };
    let words = LabelWords {
        kit,
        b,
        id: s.fill(id::LABEL_BOX, &[("id", &b.id.to_string())]),
        beads: bead_line
            .zip(b.moves.first())
            .map(|(line, first)| (line.text(kit, first.beads), line)),
        w,
        h,
        pad,
    };
    let mut picture = Scene::new(w, h);
    let tag_size = if strip {
        game.draw(&b.position, &moves, beside, &mut picture);
        draw_strip_words(&mut scene, &words, pad * 2.0 + beside.w, most)
    } else {
        game.draw(&b.position, &moves, below, &mut picture);
        draw_stacked_words(&mut scene, &words, text_size, most)
    };
    scene.place(Arc::new(picture), 0.0, 0.0);
    (scene, tag_size)
}

/// The bead line of a stacked label whose foot is `width` wide inside the widest margin
/// (measured there, so that every label of the kit says it alike), its tag's words
/// `text_size`: beside the tag and the id in full where it can, else in full on a row of
/// its own (the picture a little smaller), else short beside them.
fn stacked_bead_line<G: Game>(game: &G, kit: &Kit, width: f32, text_size: f32) -> Option<BeadLine> {
    let beside_tag = width * BEADS_SHARE;
    let places = [
        (BeadWording::Full, beside_tag, false),
        (BeadWording::Full, width, true),
        (BeadWording::Short, beside_tag, false),
    ];
    BeadLine::of(game, kit, text_size * 0.72 * 0.85, &places)
}

/// Strip: the id at the top of a column at the right from `left`, the tag at its foot
/// (`most` at most), and the bead line between them. Gives the tag's size.
fn draw_strip_words<P, M>(
    scene: &mut Scene,
    words: &LabelWords<P, M>,
    left: f32,
    most: f32,
) -> f32 {
    let LabelWords { h, pad, .. } = *words;
    let width = words.w - left - pad;
    let centre = left + width / 2.0;
    let (tag_text, tag_size) = fitted_tag(
        words.kit,
        words.b,
        tag_words(words.kit, words.b),
        TextStyle::new(h * 0.3).bold(),
        width,
    );
    let tag_size = tag_size.min(most);
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
    if let Some((text, BeadLine { size, .. })) = &words.beads {
        // Centred between the id and the tag.
        let bottom = tag_baseline - tag_size * 0.9;
        let baseline = (top + bottom) / 2.0 + size * 0.3;
        let style = bead_style(*size).anchored(Anchor::Middle);
        scene.styled_text(pt(centre, baseline), text.clone(), style);
    }
    tag_size
}

/// Stacked: beads, tag and id along the bottom, under the picture: the bead line at
/// the left (or on its row above, across the label), the id at the right, the tag in the middle of the label where it fits
/// there, else in the middle of the room between them. A tag too small to read there
/// takes the bead line's room as well (a long game's tag: nim's box 765 of 1,000
/// stones, CXXVIII–CCCLXXXIII), the bead line giving way on that label alone. The tag
/// is set at `most` at most; gives its size.
fn draw_stacked_words<P, M>(
    scene: &mut Scene,
    words: &LabelWords<P, M>,
    text_size: f32,
    most: f32,
) -> f32 {
    let LabelWords { w, h, pad, .. } = *words;
    let small = text_size * 0.72;
    let baseline = h - pad - text_size * 0.2;
    let gap = text_size * 0.5;
    let id_w = |size: f32| text_width(&words.id, size, Weight::Regular);
    // The tag and the id between `left` and the label's right margin: the id as large
    // as it can be up to `small`, the tag given what is left.
    let foot = |left: f32| {
        let rest = w - pad - left;
        let id_size = fit(&words.id, small, Weight::Regular, rest / 2.0 - gap)
            .max(least_readable_size().min(small));
        let right = w - pad - id_w(id_size) - gap;
        let (tag, tag_size) = fitted_tag(
            words.kit,
            words.b,
            tag_words(words.kit, words.b),
            TextStyle::new(text_size).bold(),
            right - left,
        );
        (id_size, right, tag, tag_size)
    };
    let mut left = pad;
    let (own_row, mut beads): (Vec<_>, Vec<_>) =
        words.beads.iter().partition(|(_, line)| line.own_row);
    for (text, line) in own_row {
        // Above the tag and the id, clear of their letters and of the picture.
        let at = pt(w / 2.0, baseline - text_size * 0.95 - line.size * 0.3);
        let style = bead_style(line.size).anchored(Anchor::Middle);
        scene.styled_text(at, text.clone(), style);
    }
    if let Some((text, line)) = beads.first() {
        left += text_width(text, line.size, Weight::Regular) + gap;
    }
    let mut laid = foot(left);
    if !beads.is_empty() && !readable(laid.3) {
        beads.clear();
        left = pad;
        laid = foot(left);
    }
    let (id_size, right, tag_text, tag_size) = laid;
    let tag_size = tag_size.min(most);
    if let Some((text, line)) = beads.first() {
        scene.styled_text(pt(pad, baseline), text.clone(), bead_style(line.size));
    }
    let id_style = TextStyle::new(id_size).anchored(Anchor::End);
    scene.styled_text(pt(w - pad, baseline), words.id.as_str(), id_style);
    let half = text_width(&tag_text, tag_size, Weight::Bold) / 2.0;
    // A tag that fills its room exactly (shrunk to it) is centred in the room.
    let tag_x = (w / 2.0).min(right - half).max(left + half);
    let tag_style = TextStyle::new(tag_size).bold().anchored(Anchor::Middle);
    scene.styled_text(pt(tag_x, baseline), tag_text, tag_style);
    tag_size
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::fonts::text_width;
    use crate::draw::scene::{INK, readable_letter};
    use crate::sheet::{LABEL_SIZES, STICKER_SHEETS};
    use matchbox_engine::boxes::BoxSet;
    use matchbox_engine::game::hexapawn::Hexapawn;
    use std::sync::Arc;

    /// The smallest letter on any label of a kit, and whether `matchbox kit` takes the
    /// kit at that size.
    fn smallest<G: Game>(game: &G, kit: &Kit) -> (f32, bool) {
        let set = BoxSet::build(game, kit).unwrap();
        let tags = TagSize::of(game, kit, &set);
        let labels: Vec<Arc<Scene>> = set
            .boxes
            .iter()
            .map(|b| Arc::new(draw_label(game, kit, tags, b)))
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

    /// The contrast of `colour` against white paper (WCAG's ratio, 1 to 21).
    fn contrast_on_white(colour: Rgb) -> f64 {
        1.05 / (matchbox_engine::palette::luminance(colour) + 0.05)
    }

    #[test]
    fn the_bead_line_survives_a_photocopier_and_stays_lighter_than_the_picture() {
        let bead = contrast_on_white(BEAD_INK);
        assert!(bead >= 4.5, "{bead:.2}:1");
        // Visibly secondary: at most half the contrast of the picture's ink.
        assert!(bead <= contrast_on_white(INK) / 2.5, "{bead:.2}:1");
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
    fn a_tag_too_long_for_its_room_gives_its_runs_of_moves_by_their_ends() {
        let kit = Kit::from_yaml("preset: bachet\nstones: 1000\n", "kit.yaml").unwrap();
        let game = matchbox_engine::game::nim::Nim::new(vec![1000], vec![1, 2, 3], true);
        let set = BoxSet::build(&game, &kit).unwrap();
        let tags = TagSize::of(&game, &kit, &set);
        let tag_of = |id: usize| {
            let label = draw_label(&game, &kit, tags, &set.boxes[id - 1]);
            words(&label)
                .into_iter()
                .map(|(text, _)| text)
                .find_map(|t| {
                    t.strip_prefix("moves ")
                        .or_else(|| t.strip_prefix("move "))
                        .map(str::to_string)
                })
                .unwrap()
        };
        assert_eq!(tag_of(1), "I");
        assert_eq!(tag_of(7), "II–IV");
        assert_eq!(tag_of(999), "CLXVII–D");
    }

    #[test]
    fn a_board_taller_than_wide_stands_beside_the_words() {
        let kit = Kit::from_yaml("preset: hexapawn\nrows: 8\ncols: 3\n", "kit.yaml").unwrap();
        let game = Hexapawn::new(8, 3);
        let set = BoxSet::build(&game, &kit).unwrap();
        let b = &set.boxes[0];
        let label = draw_label(&game, &kit, TagSize::of(&game, &kit, &set), b);
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

    /// Every preset's kit in every language on every label size and sticker sheet, with
    /// the size's name, the preset's name and the language.
    fn every_kit_on_every_size(mut check: impl FnMut(&str, &str, &str, &Kit)) {
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
                    check(size, preset.name, language, &kit);
                }
            }
        }
    }

    #[test]
    fn every_letter_is_legible_at_every_size_taken_and_the_usual_sizes_are_taken() {
        every_kit_on_every_size(|size, preset, language, kit| {
            let (smallest, taken) =
                matchbox_engine::with_game!(&kit.game, |game| smallest(game, kit));
            let at = format!("{preset} on {size} in {language}: {smallest:.2} mm");
            assert_eq!(taken, readable_letter(smallest), "{at}");
            // The matchbox label takes every kit; MENACE, built from craft boxes
            // and stickers, every size.
            if size == "matchbox" || preset.starts_with("menace") {
                assert!(taken, "{at}");
            }
        });
    }

    /// Every label's tag (the bold words that open with the move word) and its size.
    fn tags<G: Game>(game: &G, kit: &Kit) -> Vec<(String, f32)> {
        let set = BoxSet::build(game, kit).unwrap();
        let tags = TagSize::of(game, kit, &set);
        let s = strings(kit.language);
        let words = [id::INDEX_MOVE, id::INDEX_MOVES].map(|key| s.fill(key, &[("tag", "")]));
        let mut found = Vec::new();
        for b in &set.boxes {
            draw_label(game, kit, tags, b).paint(&mut |shape| {
                if let Shape::Text {
                    text, size, weight, ..
                } = shape
                    && *weight == Weight::Bold
                    && words.iter().any(|w| text.starts_with(w.as_str()))
                {
                    found.push((text.clone(), *size));
                }
            });
        }
        found
    }

    #[test]
    fn every_label_of_a_kit_sets_its_tag_at_one_size_its_long_tags_by_their_runs() {
        every_kit_on_every_size(|size, preset, language, kit| {
            let found = matchbox_engine::with_game!(&kit.game, |game| tags(game, kit));
            let sizes: Vec<f32> = found.iter().map(|(_, size)| *size).collect();
            assert!(
                sizes.windows(2).all(|two| two[0] == two[1]),
                "{preset} on {size} in {language}: {found:?}"
            );
        });
        let tag_texts = |yaml: &str| {
            let kit = Kit::from_yaml(yaml, "kit.yaml").unwrap();
            matchbox_engine::with_game!(&kit.game, |game| tags(game, &kit))
                .into_iter()
                .map(|(text, _)| text)
                .collect::<Vec<_>>()
        };
        assert!(tag_texts("preset: bachet\n").contains(&"moves II–IV".to_string()));
        let marienbad = tag_texts("preset: marienbad\nlanguage: pl\n");
        assert!(
            marienbad.iter().any(|t| t.starts_with("ruchy parzyste ")),
            "{marienbad:?}"
        );
    }
}
