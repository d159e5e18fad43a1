//! Every label is laid out, never overprinted: measured from the labels' display lists
//! (in mm) over every preset, language, label size and sticker sheet, and kits at the
//! limits. No two bead discs meet, no two of a label's words (the bead line, the tag,
//! the box id) meet, and no word meets the picture; the bead line is one line, on every
//! label of a kit alike.

use matchbox_engine::boxes::BoxSet;
use matchbox_engine::kit::{Kit, presets};
use matchbox_engine::media::STICKER_SHEETS;
use matchbox_print::draw::fonts::text_width;
use matchbox_print::draw::scene::{GREY, Scene, Shape, readable_letter};
use matchbox_print::label::{TagSize, draw_label, smallest_letter};
use matchbox_print::pictures::Game;
use std::sync::Arc;

/// Where a text's ink reaches above and below its baseline, as shares of its size:
/// DejaVu Sans' ascenders (b, ł, d) and descenders (ę, y, р).
const ASCENT: f32 = 0.76;
const DESCENT: f32 = 0.24;
/// Two shapes closer than this overlap by less than a printer's dot: taken as touching.
const TOUCH: f32 = 0.01;

/// A box in mm: left, top, right, bottom.
#[derive(Clone, Copy, Debug)]
struct Area(f32, f32, f32, f32);

impl Area {
    fn meets(&self, other: &Area) -> bool {
        self.0 < other.2 - TOUCH
            && other.0 < self.2 - TOUCH
            && self.1 < other.3 - TOUCH
            && other.1 < self.3 - TOUCH
    }

    fn joined(self, other: Area) -> Area {
        Area(
            self.0.min(other.0),
            self.1.min(other.1),
            self.2.max(other.2),
            self.3.max(other.3),
        )
    }
}

/// The area a shape's ink covers.
fn area(shape: &Shape) -> Option<Area> {
    match shape {
        Shape::Text {
            at,
            size,
            text,
            anchor,
            weight,
            ..
        } => {
            let width = text_width(text, *size, *weight);
            let left = anchor.start(at.x, width);
            Some(Area(
                left,
                at.y - size * ASCENT,
                left + width,
                at.y + size * DESCENT,
            ))
        }
        Shape::Circle {
            centre,
            radius,
            stroke,
            ..
        } => {
            let r = radius + stroke.map_or(0.0, |s| s.width / 2.0);
            Some(Area(centre.x - r, centre.y - r, centre.x + r, centre.y + r))
        }
        Shape::Line { points, stroke } => bounds(points, stroke.width / 2.0),
        Shape::Polygon { points, stroke, .. } => {
            bounds(points, stroke.map_or(0.0, |s| s.width / 2.0))
        }
        Shape::Group { .. } => None,
    }
}

fn bounds(points: &[matchbox_print::draw::scene::Pt], half: f32) -> Option<Area> {
    points
        .iter()
        .map(|p| Area(p.x - half, p.y - half, p.x + half, p.y + half))
        .reduce(Area::joined)
}

/// A bead disc: its centre and the radius its outline reaches.
struct Disc {
    x: f32,
    y: f32,
    r: f32,
    letter: String,
}

/// What a label is made of: its words (the top level's texts), the picture's extent
/// (the group placed in it) and the picture's bead discs (a circle with its letter on
/// it, as `Scene::bead_tag` draws one).
struct Parts {
    words: Vec<(String, Area)>,
    picture: Option<Area>,
    discs: Vec<Disc>,
}

fn parts(label: &Scene) -> Parts {
    let mut parts = Parts {
        words: Vec::new(),
        picture: None,
        discs: Vec::new(),
    };
    for shape in &label.shapes {
        match shape {
            Shape::Text { text, .. } => parts.words.push((text.clone(), area(shape).unwrap())),
            Shape::Group { scene, .. } => {
                let mut shapes = Vec::new();
                scene.paint(&mut |s| shapes.push(s.clone()));
                parts.picture = shapes.iter().filter_map(area).reduce(Area::joined);
                for pair in shapes.windows(2) {
                    if let [
                        Shape::Circle {
                            centre,
                            radius,
                            stroke,
                            ..
                        },
                        Shape::Text { at, text, .. },
                    ] = pair
                        && (at.x - centre.x).abs() < 1e-4
                    {
                        parts.discs.push(Disc {
                            x: centre.x,
                            y: centre.y,
                            r: radius + stroke.map_or(0.0, |s| s.width / 2.0),
                            letter: text.clone(),
                        });
                    }
                }
            }
            _ => {}
        }
    }
    parts
}

/// The sizes of a label's bead line, a size per line: the words set in grey.
fn bead_lines(label: &Scene) -> Vec<f32> {
    label
        .shapes
        .iter()
        .filter_map(|shape| match shape {
            Shape::Text { size, colour, .. } if *colour == GREY => Some(*size),
            _ => None,
        })
        .collect()
}

/// What is wrong with one label, if anything.
fn overprinted(label: &Scene) -> Vec<String> {
    let parts = parts(label);
    let mut wrong = Vec::new();
    if parts.picture.is_none() {
        wrong.push("no picture placed as a group".to_string());
    }
    for (i, a) in parts.discs.iter().enumerate() {
        for b in &parts.discs[i + 1..] {
            let apart = (a.x - b.x).hypot(a.y - b.y);
            if apart < a.r + b.r - TOUCH {
                wrong.push(format!(
                    "discs {} and {} overlap by {:.2} mm",
                    a.letter,
                    b.letter,
                    a.r + b.r - apart
                ));
            }
        }
    }
    for (i, (text, at)) in parts.words.iter().enumerate() {
        for (other, other_at) in &parts.words[i + 1..] {
            if at.meets(other_at) {
                wrong.push(format!("«{text}» meets «{other}»"));
            }
        }
        if let Some(picture) = parts.picture
            && at.meets(&picture)
        {
            wrong.push(format!("«{text}» meets the picture"));
        }
        if at.0 < -TOUCH || at.2 > label.width + TOUCH || at.3 > label.height + TOUCH {
            wrong.push(format!("«{text}» leaves the label"));
        }
    }
    wrong
}

/// At most this many boxes of a kit are drawn: every box of a smaller kit; of a larger
/// one, the boxes with the longest tags (the most move numbers), the last (the longest
/// ids), and every n-th box between, always the same ones.
const SAMPLE: usize = 120;

fn sample<P, M>(boxes: &[matchbox_engine::boxes::MatchBox<P, M>]) -> Vec<usize> {
    if boxes.len() <= SAMPLE {
        return (0..boxes.len()).collect();
    }
    let mut by_tag: Vec<usize> = (0..boxes.len()).collect();
    by_tag.sort_by_key(|&i| (std::cmp::Reverse(boxes[i].move_numbers.len()), i));
    let step = boxes.len() / (SAMPLE / 2);
    let mut chosen: Vec<usize> = by_tag[..SAMPLE / 4]
        .iter()
        .copied()
        .chain(boxes.len() - SAMPLE / 8..boxes.len())
        .chain((0..boxes.len()).step_by(step))
        .collect();
    chosen.sort_unstable();
    chosen.dedup();
    chosen
}

/// Every label of the kit that `matchbox kit` would print (none where it refuses the
/// kit at this size as illegible), each with what is wrong with it.
fn check<G: Game>(game: &G, kit: &Kit, at: &str, alike: bool, wrong: &mut Vec<String>) -> usize {
    let set = BoxSet::build(game, kit).unwrap();
    let chosen = sample(&set.boxes);
    let tags = TagSize::of(game, kit, &set);
    let labels: Vec<Arc<Scene>> = chosen
        .iter()
        .map(|&i| Arc::new(draw_label(game, kit, tags, &set.boxes[i])))
        .collect();
    // As `matchbox kit` refuses a kit whose smallest letter cannot be read.
    let legible = labels
        .iter()
        .filter_map(|label| smallest_letter(label))
        .all(readable_letter);
    if !legible {
        return 0;
    }
    for (label, &i) in labels.iter().zip(&chosen) {
        for problem in overprinted(label) {
            wrong.push(format!("{at}, box {}: {problem}", set.boxes[i].id));
        }
    }
    // The bead line (the label's grey words): one line on every label or on none, at
    // one size throughout the kit (with `alike`: a kit at the limits drops it where a
    // tag needs the label's whole foot).
    let lines: Vec<Vec<f32>> = labels.iter().map(|label| bead_lines(label)).collect();
    if lines.iter().any(|l| l.len() > 1) {
        wrong.push(format!("{at}: a bead line on two lines"));
    }
    let first = lines.first().cloned().unwrap_or_default();
    if alike && lines.iter().any(|l| l.len() != first.len()) {
        wrong.push(format!("{at}: a bead line on some labels only"));
    }
    if lines
        .iter()
        .flatten()
        .any(|size| (size - first[0]).abs() > 1e-4)
    {
        wrong.push(format!("{at}: bead lines of different sizes"));
    }
    labels.len()
}

fn run(yaml: &str, alike: bool, wrong: &mut Vec<String>) -> usize {
    let kit = Kit::from_yaml(yaml, "kit.yaml").unwrap_or_else(|e| panic!("{yaml}: {e}"));
    let at = yaml.trim_end().replace('\n', ", ");
    matchbox_engine::with_game!(&kit.game, |game| check(game, &kit, &at, alike, wrong))
}

/// The label sizes and sticker sheets of the matrix, as kit.yaml's `label:` takes them.
fn sizes() -> Vec<String> {
    ["matchbox", "craft-small"]
        .into_iter()
        .map(str::to_string)
        // The smallest label a kit may ask for, and a large one.
        .chain(
            [
                "{width_mm: 20, height_mm: 12}",
                "{width_mm: 90, height_mm: 60}",
            ]
            .map(String::from),
        )
        .chain(STICKER_SHEETS.iter().map(|s| s.code.to_string()))
        .collect()
}

#[test]
fn no_label_of_any_preset_language_or_size_is_overprinted() {
    let mut wrong = Vec::new();
    let mut drawn = 0;
    for size in sizes() {
        for preset in presets() {
            for language in ["en", "pl", "ru"] {
                let yaml = format!(
                    "preset: {}\nlanguage: {language}\nlabel: {size}\n",
                    preset.name
                );
                drawn += run(&yaml, true, &mut wrong);
            }
        }
    }
    assert!(drawn > 10_000, "only {drawn} labels drawn");
    assert!(
        wrong.is_empty(),
        "{} problems:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn no_label_of_a_kit_at_the_limits_is_overprinted() {
    let mut wrong = Vec::new();
    for size in ["matchbox", "craft-small", "L7651"] {
        for language in ["en", "pl", "ru"] {
            for kit in [
                // The longest tags: a box met at any of a hundred move numbers, said in
                // roman numerals by the machine's own move.
                "preset: bachet\nstones: 1000\nnumerals: roman\ntags: machine-move\n",
                "preset: bachet\nstones: 300\nnumerals: roman\n",
                "preset: marienbad\nnumerals: roman\n",
                "preset: hexapawn\nrows: 8\ncols: 3\n",
                "preset: hexapawn\nmove_colours: true\n",
                "preset: menace\nmove_colours: true\nbeads: 100\n",
            ] {
                run(
                    &format!("{kit}language: {language}\nlabel: {size}\n"),
                    false,
                    &mut wrong,
                );
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} problems:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
