//! The learning curve as a drawing: running wins, draws and losses against games played,
//! and the beads in box 1 on a second scale, after Michie's figure of MENACE learning.

use crate::draw::scene::{
    Anchor, GREY, INK, Pt, Rect, Rgb, Scene, Shape, Stroke, TextStyle, Weight, pt,
};
use matchbox_engine::simulate::CurvePoint;

/// Width of the figure in mm.
pub const WIDTH_MM: f32 = 180.0;
/// Height of the figure in mm.
pub const HEIGHT_MM: f32 = 110.0;

const WINS: Rgb = [0x1e, 0x93, 0x4a];
const DRAWS: Rgb = [0x1f, 0x5f, 0xc4];
const LOSSES: Rgb = [0xd7, 0x26, 0x1e];
const BEADS: Rgb = [0x8a, 0x55, 0x22];
const TEXT_MM: f32 = 3.0;
/// Space kept clear at each side of the title, in mm.
const TITLE_MARGIN_MM: f32 = 5.0;

/// One curve: its legend, colour, value at a point, and whether it uses the right scale.
type Series = (&'static str, Rgb, fn(&CurvePoint) -> u32, bool);

/// A step of 1, 2 or 5 times a power of ten that cuts `0..=max` into at most `ticks` parts.
fn tick_step(max: f64, ticks: f64) -> f64 {
    let raw = (max / ticks).max(1.0);
    let power = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * power)
}

/// One vertical scale: its top value (a whole number of steps) and its step.
struct Scale {
    top: f64,
    step: f64,
}

impl Scale {
    fn new(max: f64) -> Scale {
        let step = tick_step(max, 5.0);
        Scale {
            top: ((max / step).ceil() * step).max(step),
            step,
        }
    }

    fn values(&self) -> impl Iterator<Item = f64> + '_ {
        (0..=(self.top / self.step).round() as u32).map(|i| f64::from(i) * self.step)
    }
}

/// The plotting area and its three scales: games played along the bottom, wins, draws
/// and losses on the left, the beads in box 1 on the right.
struct Axes {
    area: Rect,
    games: Scale,
    left: Scale,
    right: Scale,
}

impl Axes {
    fn new(curve: &[CurvePoint]) -> Axes {
        let games = curve.last().map_or(1, |p| p.game).max(1);
        let counts = curve
            .iter()
            .map(|p| p.wins.max(p.draws).max(p.losses))
            .max()
            .unwrap_or(0);
        let beads = curve.iter().map(|p| p.first_box_beads).max().unwrap_or(0);
        Axes {
            area: Rect {
                x: 20.0,
                y: 22.0,
                w: WIDTH_MM - 42.0,
                h: HEIGHT_MM - 38.0,
            },
            games: Scale::new(f64::from(games)),
            left: Scale::new(f64::from(counts)),
            right: Scale::new(f64::from(beads)),
        }
    }

    /// Where `value` on `scale` after `game` games lies on the figure.
    fn at(&self, game: u32, value: f64, scale: &Scale) -> Pt {
        let area = self.area;
        pt(
            area.x + area.w * (f64::from(game) / self.games.top) as f32,
            area.y + area.h * (1.0 - value / scale.top) as f32,
        )
    }
}

/// The learning curve of a session, titled `title`.
pub fn curve_scene(title: &str, curve: &[CurvePoint]) -> Scene {
    let mut scene = Scene::new(WIDTH_MM, HEIGHT_MM);
    // A kit's name can be long (HER's is "HER, the Hexapawn Educable Robot"): shrunk to
    // the figure's width rather than cut off at both sides.
    scene.fitted_text(
        pt(WIDTH_MM / 2.0, 9.0),
        title,
        TextStyle::new(4.5).bold().anchored(Anchor::Middle),
        WIDTH_MM - 2.0 * TITLE_MARGIN_MM,
    );
    let axes = Axes::new(curve);
    draw_axes(&mut scene, &axes);
    draw_series(&mut scene, &axes, curve);
    scene.push(Shape::Text {
        at: pt(4.0, axes.area.y - 3.0),
        size: TEXT_MM * 0.9,
        text: "games".into(),
        colour: GREY,
        anchor: Anchor::Start,
        weight: Weight::Regular,
    });
    scene
}

/// The grid, the three scales' numbers, the frame and the bottom scale's name.
fn draw_axes(scene: &mut Scene, axes: &Axes) {
    let Axes {
        area,
        games,
        left,
        right,
    } = axes;
    let grid = Stroke {
        colour: [0xdd, 0xdd, 0xdd],
        width: 0.2,
        dash: None,
    };
    for v in left.values() {
        let y = axes.at(0, v, left).y;
        scene.line(pt(area.x, y), pt(area.x + area.w, y), grid);
        label(scene, pt(area.x - 1.5, y + 1.0), v, Anchor::End, INK);
    }
    for v in right.values() {
        let y = axes.at(0, v, right).y;
        label(
            scene,
            pt(area.x + area.w + 1.5, y + 1.0),
            v,
            Anchor::Start,
            BEADS,
        );
    }
    for v in games.values() {
        let x = area.x + area.w * (v / games.top) as f32;
        scene.line(
            pt(x, area.y + area.h),
            pt(x, area.y + area.h + 1.2),
            Stroke::solid(INK, 0.25),
        );
        label(scene, pt(x, area.y + area.h + 4.5), v, Anchor::Middle, INK);
    }
    scene.rect(*area, None, Some(Stroke::solid(INK, 0.3)));
    scene.text(
        pt(area.x + area.w / 2.0, HEIGHT_MM - 3.5),
        TEXT_MM,
        "games played",
        Anchor::Middle,
    );
}

/// The four curves (wins, draws, losses, beads in box 1), each with its legend above
/// the plotting area.
fn draw_series(scene: &mut Scene, axes: &Axes, curve: &[CurvePoint]) {
    let series: [Series; 4] = [
        ("wins", WINS, |p| p.wins, false),
        ("draws", DRAWS, |p| p.draws, false),
        ("losses", LOSSES, |p| p.losses, false),
        (
            "beads in box 1 (right scale)",
            BEADS,
            |p| p.first_box_beads,
            true,
        ),
    ];
    let mut legend_x = axes.area.x;
    for (name, colour, value, on_right) in series {
        let scale = if on_right { &axes.right } else { &axes.left };
        let stroke = Stroke {
            colour,
            width: 0.5,
            dash: on_right.then_some(1.2),
        };
        let points: Vec<Pt> = curve
            .iter()
            .map(|p| axes.at(p.game, f64::from(value(p)), scale))
            .collect();
        scene.push(Shape::Line { points, stroke });
        scene.line(pt(legend_x, 16.0), pt(legend_x + 6.0, 16.0), stroke);
        scene.push(Shape::Text {
            at: pt(legend_x + 7.5, 17.0),
            size: TEXT_MM,
            text: name.to_string(),
            colour: INK,
            anchor: Anchor::Start,
            weight: Weight::Regular,
        });
        legend_x += 12.0 + name.len() as f32 * TEXT_MM * 0.5;
    }
}

fn label(scene: &mut Scene, at: Pt, value: f64, anchor: Anchor, colour: Rgb) {
    scene.push(Shape::Text {
        at,
        size: TEXT_MM * 0.9,
        text: format!("{value}"),
        colour,
        anchor,
        weight: Weight::Regular,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(game: u32, wins: u32, losses: u32, beads: u32) -> CurvePoint {
        CurvePoint {
            game,
            wins,
            draws: 0,
            losses,
            first_box_beads: beads,
        }
    }

    #[test]
    fn ticks_are_round_numbers() {
        assert_eq!(tick_step(1000.0, 5.0), 200.0);
        assert_eq!(tick_step(37.0, 5.0), 10.0);
        assert_eq!(tick_step(3.0, 5.0), 1.0);
        assert_eq!(Scale::new(37.0).top, 40.0);
        assert_eq!(Scale::new(0.0).top, 1.0);
    }

    #[test]
    fn the_curves_span_the_plot_and_stay_inside_it() {
        let curve = [
            point(0, 0, 0, 4),
            point(50, 30, 20, 9),
            point(100, 75, 25, 12),
        ];
        let scene = curve_scene("HER", &curve);
        let lines: Vec<&Vec<Pt>> = scene
            .shapes
            .iter()
            .filter_map(|s| match s {
                Shape::Line { points, stroke } if points.len() == 3 && stroke.width == 0.5 => {
                    Some(points)
                }
                _ => None,
            })
            .collect();
        assert_eq!(lines.len(), 4, "wins, draws, losses and beads");
        for line in &lines {
            for p in line.iter() {
                assert!(
                    p.x >= 20.0 && p.x <= WIDTH_MM - 22.0 && p.y >= 22.0 && p.y <= HEIGHT_MM - 16.0,
                    "{p:?}"
                );
            }
        }
        // The wins climb: the last point is higher on the page (smaller y) than the first.
        assert!(lines[0][2].y < lines[0][0].y);
        let texts: Vec<&str> = scene
            .shapes
            .iter()
            .filter_map(|s| match s {
                Shape::Text { text, .. } => Some(text.as_str()),
                _ => None,
            })
            .collect();
        assert!(texts.contains(&"HER") && texts.contains(&"losses") && texts.contains(&"100"));
    }

    #[test]
    fn a_long_title_is_shrunk_to_the_figure() {
        let title = "HER, the Hexapawn Educable Robot: one machine, 300 games against a perfect opponent, rule gardner (seed 1962)";
        let scene = curve_scene(title, &[point(0, 0, 0, 3), point(10, 5, 5, 1)]);
        let (size, weight) = scene
            .shapes
            .iter()
            .find_map(|s| match s {
                Shape::Text {
                    text, size, weight, ..
                } if text == title => Some((*size, *weight)),
                _ => None,
            })
            .expect("the title is drawn");
        assert!(size < 4.5, "shrunk from 4.5 mm, drawn at {size} mm");
        let width = crate::draw::fonts::text_width(title, size, weight);
        assert!(
            width <= WIDTH_MM - 2.0 * TITLE_MARGIN_MM + 0.01,
            "{width} mm wide"
        );
    }
}
