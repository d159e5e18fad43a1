//! A scene rendered to PNG with tiny-skia, painted shape by shape; text as the outlines
//! of the glyphs [`fonts::shape`] placed, from the embedded fonts only, so the pixels are
//! the same on every machine.

use std::cell::RefCell;

use rustc_hash::FxHashMap;
use rustybuzz::ttf_parser::{GlyphId, OutlineBuilder};
use tiny_skia::{
    Color, FillRule, LineCap, LineJoin, Paint, Path, PathBuilder, Pixmap, Stroke as SkStroke,
    StrokeDash, Transform,
};

use super::fonts;
use super::scene::{Pt, Rgb, Scene, Shape, Stroke, Weight};
use crate::Error;

/// A glyph's outline, in font units, as a tiny-skia path.
struct Outline(PathBuilder);

impl OutlineBuilder for Outline {
    fn move_to(&mut self, x: f32, y: f32) {
        self.0.move_to(x, y);
    }
    fn line_to(&mut self, x: f32, y: f32) {
        self.0.line_to(x, y);
    }
    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        self.0.quad_to(x1, y1, x, y);
    }
    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        self.0.cubic_to(x1, y1, x2, y2, x, y);
    }
    fn close(&mut self) {
        self.0.close();
    }
}

thread_local! {
    /// Glyph outlines by weight and glyph id: a kit prints a few dozen glyphs thousands
    /// of times. Each thread keeps its own, so no thread waits for another.
    static OUTLINES: RefCell<FxHashMap<(Weight, u16), Option<Path>>> =
        RefCell::new(FxHashMap::default());
}

fn outline(weight: Weight, id: u16) -> Option<Path> {
    OUTLINES.with_borrow_mut(|cache| {
        cache
            .entry((weight, id))
            .or_insert_with(|| {
                let mut builder = Outline(PathBuilder::new());
                fonts::face(weight)?.outline_glyph(GlyphId(id), &mut builder)?;
                builder.0.finish()
            })
            .clone()
    })
}

fn paint(c: Rgb) -> Paint<'static> {
    let mut paint = Paint::default();
    paint.set_color_rgba8(c[0], c[1], c[2], 255);
    paint.anti_alias = true;
    paint
}

fn stroke_style(s: Stroke) -> SkStroke {
    SkStroke {
        width: s.width,
        line_cap: LineCap::Round,
        line_join: LineJoin::Round,
        dash: s.dash.and_then(|d| StrokeDash::new(vec![d, d], 0.0)),
        ..SkStroke::default()
    }
}

fn polyline(points: &[Pt], close: bool) -> Option<Path> {
    let (first, rest) = points.split_first()?;
    let mut pb = PathBuilder::new();
    pb.move_to(first.x, first.y);
    for p in rest {
        pb.line_to(p.x, p.y);
    }
    if close {
        pb.close();
    }
    pb.finish()
}

/// Paints one shape (in mm) onto the pixmap through `mm`, the mm-to-pixel transform.
fn draw(pixmap: &mut Pixmap, shape: &Shape, mm: Transform) {
    let (path, fill, stroke) = match shape {
        Shape::Line { points, stroke } => (polyline(points, false), None, Some(*stroke)),
        Shape::Polygon {
            points,
            fill,
            stroke,
        } => (polyline(points, true), *fill, *stroke),
        Shape::Circle {
            centre,
            radius,
            fill,
            stroke,
        } => (
            PathBuilder::from_circle(centre.x, centre.y, *radius),
            *fill,
            *stroke,
        ),
        Shape::Text {
            at,
            size,
            text,
            colour,
            anchor,
            weight,
        } => {
            let shaped = fonts::shape(text, *weight);
            let width = shaped.width(*size);
            let mut x = anchor.start(at.x, width);
            let paint = paint(*colour);
            let em = fonts::face(*weight).map_or(2048.0, |f| f.units_per_em() as f32);
            for g in &shaped.glyphs {
                if let Some(path) = outline(*weight, g.id) {
                    // Font units, y up, to mm on the baseline, y down.
                    let place = mm
                        .pre_translate(x + g.x_offset * size, at.y - g.y_offset * size)
                        .pre_scale(size / em, -size / em);
                    pixmap.fill_path(&path, &paint, FillRule::Winding, place, None);
                }
                x += g.advance * size;
            }
            return;
        }
        // `Scene::paint` opens every group.
        Shape::Group { .. } => return,
    };
    let Some(path) = path else { return };
    if let Some(f) = fill {
        pixmap.fill_path(&path, &paint(f), FillRule::Winding, mm, None);
    }
    if let Some(s) = stroke {
        pixmap.stroke_path(&path, &paint(s.colour), &stroke_style(s), mm, None);
    }
}

/// The scene as PNG bytes at `dpi` pixels per inch, on white.
pub fn to_png(scene: &Scene, dpi: f32) -> Result<Vec<u8>, Error> {
    let px_per_mm = dpi / 25.4;
    let (w, h) = (
        (scene.width * px_per_mm).round().max(1.0) as u32,
        (scene.height * px_per_mm).round().max(1.0) as u32,
    );
    let mut pixmap = Pixmap::new(w, h)
        .ok_or_else(|| Error::Input(format!("a {w} x {h} pixel picture is too large")))?;
    pixmap.fill(Color::WHITE);
    let mm = Transform::from_scale(w as f32 / scene.width, h as f32 / scene.height);
    scene.paint(&mut |shape| draw(&mut pixmap, shape, mm));
    encode(&pixmap)
}

/// The pixels as an RGB PNG: on white every pixel is opaque, so an alpha channel would
/// only add a quarter to what deflate reads. Measured on MENACE's 304 previews (one
/// thread): resvg's RGBA at deflate level 6 with adaptive filters took about 0.6 s for
/// 2.95 MB; RGB, no row filter and level 2 takes 0.25 s for 2.61 MB. Labels are flat
/// colours on white, long runs of equal pixels that deflate matches as they are, while
/// row filters turn every edge into noise.
fn encode(pixmap: &Pixmap) -> Result<Vec<u8>, Error> {
    let rgb: Vec<u8> = pixmap
        .data()
        .chunks_exact(4)
        .flat_map(|px| [px[0], px[1], px[2]])
        .collect();
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_deflate_compression(png::DeflateCompression::Level(2));
    encoder.set_filter(png::Filter::NoFilter);
    encoder
        .write_header()
        .and_then(|mut writer| writer.write_image_data(&rgb))
        .map_err(|e| Error::Internal(format!("cannot encode PNG: {e}")))?;
    Ok(out)
}
