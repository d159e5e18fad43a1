//! The display list: what one label or page looks like, in millimetres, for every output.

use std::sync::Arc;

/// A point in millimetres; x to the right, y downwards from the top-left corner.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pt {
    /// Millimetres from the left edge.
    pub x: f32,
    /// Millimetres from the top edge.
    pub y: f32,
}

/// Shorthand for a point.
pub fn pt(x: f32, y: f32) -> Pt {
    Pt { x, y }
}

/// A rectangle in millimetres.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// Left edge.
    pub x: f32,
    /// Top edge.
    pub y: f32,
    /// Width.
    pub w: f32,
    /// Height.
    pub h: f32,
}

impl Rect {
    /// The centre point.
    pub fn centre(&self) -> Pt {
        pt(self.x + self.w / 2.0, self.y + self.h / 2.0)
    }
}

/// An sRGB colour.
pub type Rgb = [u8; 3];

/// Black ink.
pub const INK: Rgb = [0x1a, 0x1a, 0x1a];
/// Grey ink for cut lines and secondary text.
pub const GREY: Rgb = [0x90, 0x90, 0x90];
/// White.
pub const WHITE: Rgb = [0xff, 0xff, 0xff];

/// How a line or outline is stroked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stroke {
    /// Colour.
    pub colour: Rgb,
    /// Width in mm.
    pub width: f32,
    /// Dash length in mm, if dashed.
    pub dash: Option<f32>,
}

impl Stroke {
    /// A solid stroke.
    pub fn solid(colour: Rgb, width: f32) -> Stroke {
        Stroke {
            colour,
            width,
            dash: None,
        }
    }
}

/// Where a text's anchor point sits on its baseline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// The text starts at the point.
    Start,
    /// The text is centred on the point.
    Middle,
    /// The text ends at the point.
    End,
}

impl Anchor {
    /// Where a text `width` mm wide starts when anchored at `x`.
    pub fn start(self, x: f32, width: f32) -> f32 {
        match self {
            Anchor::Start => x,
            Anchor::Middle => x - width / 2.0,
            Anchor::End => x - width,
        }
    }
}

/// Which face of the typeface: regular, bold, oblique (the slanted regular, for the
/// titles of works), or monospaced (for commands and kit.yaml's keys).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Weight {
    /// Regular.
    Regular,
    /// Bold.
    Bold,
    /// Oblique.
    Oblique,
    /// Monospaced: DejaVu Sans Mono.
    Mono,
}

impl Weight {
    /// Every face, in the order of the engine's font files.
    pub const ALL: [Weight; 4] = [Weight::Regular, Weight::Bold, Weight::Oblique, Weight::Mono];
}

/// One drawing instruction.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// An open polyline.
    Line {
        /// Points in order.
        points: Vec<Pt>,
        /// Its stroke.
        stroke: Stroke,
    },
    /// A closed polygon.
    Polygon {
        /// Corners in order.
        points: Vec<Pt>,
        /// Fill colour, if filled.
        fill: Option<Rgb>,
        /// Outline, if any.
        stroke: Option<Stroke>,
    },
    /// A circle.
    Circle {
        /// Centre.
        centre: Pt,
        /// Radius in mm.
        radius: f32,
        /// Fill colour, if filled.
        fill: Option<Rgb>,
        /// Outline, if any.
        stroke: Option<Stroke>,
    },
    /// One line of text; `at` is on the baseline.
    Text {
        /// Anchor point on the baseline.
        at: Pt,
        /// Font size in mm (the em height).
        size: f32,
        /// The words.
        text: String,
        /// Colour.
        colour: Rgb,
        /// Alignment about `at`.
        anchor: Anchor,
        /// Weight.
        weight: Weight,
    },
    /// Another scene drawn inside this one, its origin at `at` (see [`Scene::place`]).
    Group {
        /// Where the placed scene's top-left corner goes.
        at: Pt,
        /// The scene placed.
        scene: Arc<Scene>,
    },
}

/// The height of the typeface's capitals as a share of its size (DejaVu Sans).
pub const CAP_HEIGHT: f32 = 0.729;
/// How far the typeface's descenders (p, у, ę) reach below the baseline, as a share of
/// its size (DejaVu Sans).
pub const DESCENT: f32 = 0.236;
/// The smallest letter a pupil can read on a label: its capitals' height, in mm.
pub const SMALLEST_LETTER_MM: f32 = 1.2;

/// Whether capitals `height` mm high can be read: at least [`SMALLEST_LETTER_MM`] (5
/// micrometres spared for rounding).
pub fn readable_letter(height: f32) -> bool {
    height >= SMALLEST_LETTER_MM - 0.005
}

/// Whether text of `size` mm can be read (see [`readable_letter`]).
pub fn readable(size: f32) -> bool {
    readable_letter(size * CAP_HEIGHT)
}

/// The size of a bead's letters on a disc of `radius`: at most 1.4 times the radius,
/// and no wider than 1.6 times it.
fn letter_size(code: &str, radius: f32) -> f32 {
    let em = super::fonts::text_width(code, 1.0, Weight::Bold).max(0.01);
    radius * 1.4f32.min(1.6 / em)
}

/// The radius a bead's disc needs for its letters to be [`SMALLEST_LETTER_MM`] high.
pub fn legible_radius(code: &str) -> f32 {
    SMALLEST_LETTER_MM / CAP_HEIGHT / letter_size(code, 1.0)
}

/// A drawing of a given size: one label, one page.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Scene {
    /// Width in mm.
    pub width: f32,
    /// Height in mm.
    pub height: f32,
    /// Shapes, painted in order.
    pub shapes: Vec<Shape>,
}

impl Scene {
    /// An empty scene of this size.
    pub fn new(width: f32, height: f32) -> Scene {
        Scene {
            width,
            height,
            shapes: Vec::new(),
        }
    }

    /// Adds a shape.
    pub fn push(&mut self, shape: Shape) {
        self.shapes.push(shape);
    }

    /// Adds a straight line.
    pub fn line(&mut self, from: Pt, to: Pt, stroke: Stroke) {
        self.push(Shape::Line {
            points: vec![from, to],
            stroke,
        });
    }

    /// Adds a rectangle.
    pub fn rect(&mut self, r: Rect, fill: Option<Rgb>, stroke: Option<Stroke>) {
        let points = vec![
            pt(r.x, r.y),
            pt(r.x + r.w, r.y),
            pt(r.x + r.w, r.y + r.h),
            pt(r.x, r.y + r.h),
        ];
        self.push(Shape::Polygon {
            points,
            fill,
            stroke,
        });
    }

    /// Adds a circle.
    pub fn circle(&mut self, centre: Pt, radius: f32, fill: Option<Rgb>, stroke: Option<Stroke>) {
        self.push(Shape::Circle {
            centre,
            radius,
            fill,
            stroke,
        });
    }

    /// Adds text in the regular weight and ink colour.
    pub fn text(&mut self, at: Pt, size: f32, text: impl Into<String>, anchor: Anchor) {
        self.push(Shape::Text {
            at,
            size,
            text: text.into(),
            colour: INK,
            anchor,
            weight: Weight::Regular,
        });
    }

    /// Draws another scene inside this one, its top-left corner at (dx, dy). The scene
    /// is shared, not copied: a label placed on a sheet and in a preview is one drawing.
    pub fn place(&mut self, other: Arc<Scene>, dx: f32, dy: f32) {
        self.push(Shape::Group {
            at: pt(dx, dy),
            scene: other,
        });
    }

    /// Every shape to paint, in order, with the scenes placed inside this one opened and
    /// their shapes moved into place (so `paint` never yields a [`Shape::Group`]).
    pub fn paint(&self, f: &mut dyn FnMut(&Shape)) {
        for shape in &self.shapes {
            match shape {
                Shape::Group { at, scene } => scene.paint(&mut |inner| f(&inner.moved(at.x, at.y))),
                other => f(other),
            }
        }
    }

    /// The lowest point any shape reaches, strokes and descenders included (`None` for
    /// an empty scene): where a drawing really ends, above the room it was given.
    pub fn lowest(&self) -> Option<f32> {
        let mut lowest: Option<f32> = None;
        self.paint(&mut |shape| {
            let bottom = match shape {
                Shape::Line { points, stroke } => max_y(points).map(|y| y + stroke.width / 2.0),
                Shape::Polygon { points, stroke, .. } => {
                    max_y(points).map(|y| y + stroke.map_or(0.0, |s| s.width / 2.0))
                }
                Shape::Circle {
                    centre,
                    radius,
                    stroke,
                    ..
                } => Some(centre.y + radius + stroke.map_or(0.0, |s| s.width / 2.0)),
                Shape::Text { at, size, .. } => Some(at.y + size * DESCENT),
                Shape::Group { .. } => None,
            };
            lowest = match (lowest, bottom) {
                (Some(a), Some(b)) => Some(a.max(b)),
                (a, b) => a.or(b),
            };
        });
        lowest
    }
}

fn max_y(points: &[Pt]) -> Option<f32> {
    points.iter().map(|p| p.y).reduce(f32::max)
}

impl Shape {
    /// The same shape moved by (dx, dy).
    fn moved(&self, dx: f32, dy: f32) -> Shape {
        let mut shape = self.clone();
        let shift = |p: &mut Pt| {
            p.x += dx;
            p.y += dy;
        };
        match &mut shape {
            Shape::Line { points, .. } | Shape::Polygon { points, .. } => {
                points.iter_mut().for_each(shift);
            }
            Shape::Circle { centre: p, .. }
            | Shape::Text { at: p, .. }
            | Shape::Group { at: p, .. } => shift(p),
        }
        shape
    }
}

impl Scene {
    /// Adds an arrow from `from` to `to` with a filled head, in one colour.
    pub fn arrow(&mut self, from: Pt, to: Pt, colour: Rgb, width: f32) {
        let (dx, dy) = (to.x - from.x, to.y - from.y);
        let len = (dx * dx + dy * dy).sqrt().max(1e-3);
        let (ux, uy) = (dx / len, dy / len);
        let head = (width * 3.2).min(len * 0.6);
        let base = pt(to.x - ux * head, to.y - uy * head);
        let half = head * 0.55;
        self.line(from, base, Stroke::solid(colour, width));
        self.push(Shape::Polygon {
            points: vec![
                to,
                pt(base.x - uy * half, base.y + ux * half),
                pt(base.x + uy * half, base.y - ux * half),
            ],
            fill: Some(colour),
            stroke: None,
        });
    }

    /// Adds a bead: a disc in the bead's colour with the colour's letter on it, so the
    /// colour can be named without seeing it (colour blindness, grey-scale printers).
    /// An empty `code` draws nothing: a plain arrow (the example game's moves).
    pub fn bead_tag(&mut self, centre: Pt, radius: f32, colour: Rgb, code: &str) {
        if code.is_empty() {
            return;
        }
        self.circle(
            centre,
            radius,
            Some(colour),
            Some(Stroke::solid(INK, radius * 0.12)),
        );
        // As large as the disc allows: longer letters are set smaller.
        let size = letter_size(code, radius);
        // Relative luminance decides between white and black letters.
        let [r, g, b] = colour.map(|c| f32::from(c) / 255.0);
        let light = 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.5;
        self.push(Shape::Text {
            at: pt(centre.x, centre.y + size * 0.36),
            size,
            text: code.to_string(),
            colour: if light { INK } else { WHITE },
            anchor: Anchor::Middle,
            weight: Weight::Bold,
        });
    }
}

/// How a piece of text is set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TextStyle {
    /// Font size in mm.
    pub size: f32,
    /// Regular, bold, oblique or monospaced.
    pub weight: Weight,
    /// Alignment about the anchor point.
    pub anchor: Anchor,
    /// Colour.
    pub colour: Rgb,
}

impl TextStyle {
    /// Regular ink text of a size, starting at its point.
    pub fn new(size: f32) -> TextStyle {
        TextStyle {
            size,
            weight: Weight::Regular,
            anchor: Anchor::Start,
            colour: INK,
        }
    }

    /// The same, bold.
    pub fn bold(self) -> TextStyle {
        TextStyle {
            weight: Weight::Bold,
            ..self
        }
    }

    /// The same, aligned differently.
    pub fn anchored(self, anchor: Anchor) -> TextStyle {
        TextStyle { anchor, ..self }
    }

    /// The same, in another colour.
    pub fn coloured(self, colour: Rgb) -> TextStyle {
        TextStyle { colour, ..self }
    }
}

impl Scene {
    /// Adds text in a style.
    pub fn styled_text(&mut self, at: Pt, text: impl Into<String>, style: TextStyle) {
        self.push(Shape::Text {
            at,
            size: style.size,
            text: text.into(),
            colour: style.colour,
            anchor: style.anchor,
            weight: style.weight,
        });
    }

    /// Adds text, shrunk if needed so that it is never wider than `width`.
    pub fn fitted_text(&mut self, at: Pt, text: impl Into<String>, style: TextStyle, width: f32) {
        let text = text.into();
        let size = super::fonts::fit(&text, style.size, style.weight, width);
        self.styled_text(at, text, TextStyle { size, ..style });
    }
}
