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
use matchbox_engine::Error;
use matchbox_engine::i18n::{Language, Messages, id};

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
    let mut pixmap = Pixmap::new(w, h).ok_or_else(|| {
        let (width, height) = (w.to_string(), h.to_string());
        // Said in English: the caller that has the kit says it in its language.
        Messages(Language::En).message(
            id::ERROR_PICTURE_TOO_LARGE,
            &[("width", &width), ("height", &height)],
        )
    })?;
    pixmap.fill(Color::WHITE);
    let mm = Transform::from_scale(w as f32 / scene.width, h as f32 / scene.height);
    scene.paint(&mut |shape| draw(&mut pixmap, shape, mm));
    encode(&pixmap, dpi)
}

/// The pixels as a PNG: indexed when the picture has at most 256 colours, as labels of
/// flat colours on white do with their anti-aliased edges, and RGB otherwise. Either way
/// every pixel is kept exactly; on white every pixel is opaque, so there is no alpha
/// channel. Rows go unfiltered: long runs of equal pixels deflate as they are, while row
/// filters turn every edge into noise. Deflate is zlib-rs at level 3: on MENACE's 304
/// previews 1.74 MB, and on octapawn's 2,791 (nearly all RGB) 21.3 MB, 6% more than
/// miniz_oxide's level 2 in two thirds of the time (level 2: 22.3 MB; resvg's RGBA
/// previews were 2.95 MB for MENACE).
///
/// The resolution goes in the pHYs chunk, so that a preview prints at its real size.
fn encode(pixmap: &Pixmap, dpi: f32) -> Result<Vec<u8>, Error> {
    let (palette, pixels) = match indexed(pixmap.data()) {
        Some((palette, indices)) => (Some(palette), indices),
        None => (
            None,
            pixmap
                .data()
                .chunks_exact(4)
                .flat_map(|px| [px[0], px[1], px[2]])
                .collect(),
        ),
    };
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    encoder.set_depth(png::BitDepth::Eight);
    match palette {
        Some(palette) => {
            encoder.set_color(png::ColorType::Indexed);
            encoder.set_palette(palette);
        }
        None => encoder.set_color(png::ColorType::Rgb),
    }
    encoder.set_deflate_compression(png::DeflateCompression::Level(3));
    encoder.set_filter(png::Filter::NoFilter);
    let per_metre = (dpi / 0.0254).round() as u32;
    encoder.set_pixel_dims(Some(png::PixelDimensions {
        xppu: per_metre,
        yppu: per_metre,
        unit: png::Unit::Meter,
    }));
    encoder
        .write_header()
        .and_then(|mut writer| writer.write_image_data(&pixels))
        .map_err(|e| Error::Internal(format!("cannot encode PNG: {e}")))?;
    Ok(out)
}

/// The picture's colours in the order they first appear (RGB triples) and each pixel's
/// colour number, or `None` when it has more than 256 colours.
fn indexed(rgba: &[u8]) -> Option<(Vec<u8>, Vec<u8>)> {
    let mut numbers: FxHashMap<[u8; 3], u8> = FxHashMap::default();
    let mut palette = Vec::new();
    let mut indices = Vec::with_capacity(rgba.len() / 4);
    let mut last: Option<([u8; 3], u8)> = None;
    for px in rgba.chunks_exact(4) {
        let colour = [px[0], px[1], px[2]];
        // Runs of one colour are the rule: look up only where the colour changes.
        let number = match last {
            Some((c, n)) if c == colour => n,
            _ => {
                let n = match numbers.get(&colour) {
                    Some(&n) => n,
                    None => {
                        let n = u8::try_from(numbers.len()).ok()?;
                        numbers.insert(colour, n);
                        palette.extend_from_slice(&colour);
                        n
                    }
                };
                last = Some((colour, n));
                n
            }
        };
        indices.push(number);
    }
    Some((palette, indices))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The RGB pixels a PNG decodes to.
    fn decoded(bytes: &[u8]) -> (png::ColorType, Vec<u8>) {
        let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        decoder.set_transformations(png::Transformations::EXPAND);
        let mut reader = decoder.read_info().unwrap();
        let colour = reader.info().color_type;
        let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
        let frame = reader.next_frame(&mut pixels).unwrap();
        pixels.truncate(frame.buffer_size());
        (colour, pixels)
    }

    #[test]
    fn a_preview_says_its_resolution() {
        let scene = Scene::new(25.4, 12.7);
        let bytes = to_png(&scene, 300.0).unwrap();
        let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        let reader = decoder.read_info().unwrap();
        let info = reader.info();
        assert_eq!((info.width, info.height), (300, 150));
        let dims = info.pixel_dims.unwrap();
        assert_eq!(dims.unit, png::Unit::Meter);
        // 300 pixels per inch, 11,811 per metre: an inch prints an inch wide.
        assert_eq!((dims.xppu, dims.yppu), (11_811, 11_811));
    }

    fn rgb(pixmap: &Pixmap) -> Vec<u8> {
        let px = pixmap.data().chunks_exact(4);
        px.flat_map(|p| [p[0], p[1], p[2]]).collect()
    }

    #[test]
    fn every_pixel_is_kept_indexed_or_not() {
        // Few colours: indexed.
        let mut few = Pixmap::new(40, 30).unwrap();
        few.fill(Color::WHITE);
        let mut path = PathBuilder::new();
        path.push_circle(20.0, 15.0, 9.3);
        let circle = path.finish().unwrap();
        few.fill_path(
            &circle,
            &paint([200, 30, 40]),
            FillRule::Winding,
            Transform::identity(),
            None,
        );
        let (colour, pixels) = decoded(&encode(&few, 96.0).unwrap());
        assert_eq!(colour, png::ColorType::Indexed);
        assert_eq!(pixels, rgb(&few));
        // A gradient of 600 colours: RGB.
        let mut many = Pixmap::new(600, 2).unwrap();
        for (i, px) in many.data_mut().chunks_exact_mut(4).enumerate() {
            let x = (i % 600) as u16;
            px.copy_from_slice(&[(x % 256) as u8, (x / 256) as u8, 7, 255]);
        }
        let (colour, pixels) = decoded(&encode(&many, 96.0).unwrap());
        assert_eq!(colour, png::ColorType::Rgb);
        assert_eq!(pixels, rgb(&many));
    }
}
