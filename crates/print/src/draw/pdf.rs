//! Scenes as the pages of a PDF (krilla): vector shapes, and text in DejaVu Sans embedded
//! as a subset. The output depends only on the scenes, byte for byte.

use std::sync::OnceLock;

use krilla::Document;
use krilla::color::rgb;
use krilla::geom::{PathBuilder, Point, Transform};
use krilla::page::PageSettings;
use krilla::paint::{Fill, LineCap, LineJoin, Stroke as PdfStroke, StrokeDash};
use krilla::surface::Surface;
use krilla::text::{Font, GlyphId, KrillaGlyph};

use super::fonts::{self, font_data};
use super::scene::{Pt, Rgb, Scene, Shape, Stroke, Weight};
use matchbox_engine::Error;

const PT_PER_MM: f32 = 72.0 / 25.4;

fn colour(c: Rgb) -> krilla::paint::Paint {
    rgb::Color::new(c[0], c[1], c[2]).into()
}

fn fill(c: Option<Rgb>) -> Option<Fill> {
    c.map(|c| Fill {
        paint: colour(c),
        ..Fill::default()
    })
}

fn stroke(s: Option<Stroke>) -> Option<PdfStroke> {
    s.map(|s| PdfStroke {
        paint: colour(s.colour),
        width: s.width,
        line_cap: LineCap::Round,
        line_join: LineJoin::Round,
        dash: s.dash.map(|d| StrokeDash {
            array: vec![d, d],
            offset: 0.0,
        }),
        ..PdfStroke::default()
    })
}

fn polyline(points: &[Pt], close: bool) -> Option<krilla::geom::Path> {
    let mut pb = PathBuilder::new();
    let (first, rest) = points.split_first()?;
    pb.move_to(first.x, first.y);
    for p in rest {
        pb.line_to(p.x, p.y);
    }
    if close {
        pb.close();
    }
    pb.finish()
}

fn circle(centre: Pt, r: f32) -> Option<krilla::geom::Path> {
    // Four cubic arcs; k places the control points of a quarter circle.
    let k = 0.552_284_8 * r;
    let (x, y) = (centre.x, centre.y);
    let mut pb = PathBuilder::new();
    pb.move_to(x + r, y);
    pb.cubic_to(x + r, y + k, x + k, y + r, x, y + r);
    pb.cubic_to(x - k, y + r, x - r, y + k, x - r, y);
    pb.cubic_to(x - r, y - k, x - k, y - r, x, y - r);
    pb.cubic_to(x + k, y - r, x + r, y - k, x + r, y);
    pb.close();
    pb.finish()
}

fn draw(surface: &mut Surface, shape: &Shape, faces: &[Font; 4]) {
    let (path, f, s) = match shape {
        Shape::Line { points, stroke: st } => (polyline(points, false), None, Some(*st)),
        Shape::Polygon {
            points,
            fill: f,
            stroke: st,
        } => (polyline(points, true), *f, *st),
        Shape::Circle {
            centre,
            radius,
            fill: f,
            stroke: st,
        } => (circle(*centre, *radius), *f, *st),
        Shape::Text {
            at,
            size,
            text,
            colour: c,
            anchor,
            weight,
        } => {
            let shaped = fonts::shape(text, *weight);
            let width = shaped.width(*size);
            let x = anchor.start(at.x, width);
            let font = faces[fonts::index(*weight)].clone();
            // The glyphs the layout measured, not shaped again by the PDF writer.
            let glyphs: Vec<KrillaGlyph> = shaped
                .glyphs
                .into_iter()
                .map(|g| {
                    KrillaGlyph::new(
                        GlyphId::new(u32::from(g.id)),
                        g.advance,
                        g.x_offset,
                        g.y_offset,
                        0.0,
                        g.text,
                        None,
                    )
                })
                .collect();
            surface.set_fill(fill(Some(*c)));
            surface.set_stroke(None);
            surface.draw_glyphs(Point::from_xy(x, at.y), &glyphs, font, text, *size, false);
            return;
        }
        // `Scene::paint` opens every group.
        Shape::Group { .. } => return,
    };
    if let Some(path) = path {
        surface.set_fill(fill(f));
        surface.set_stroke(stroke(s));
        if f.is_some() || s.is_some() {
            surface.draw_path(&path);
        }
    }
}

/// The four faces as krilla reads them, read once for every PDF a run makes and straight
/// from the embedded bytes, not from a copy (1.4 MB) per PDF.
fn pdf_fonts() -> Result<&'static [Font; 4], Error> {
    static FONTS: OnceLock<Option<[Font; 4]>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let load = |weight| Font::new(font_data(weight).into(), 0);
            let [regular, bold, oblique, mono] = Weight::ALL.map(load);
            Some([regular?, bold?, oblique?, mono?])
        })
        .as_ref()
        .ok_or_else(|| Error::Internal("the embedded font cannot be read".into()))
}

/// The scenes as the pages of one PDF document, each page the size of its scene.
pub fn to_pdf(pages: &[Scene]) -> Result<Vec<u8>, Error> {
    let fonts = pdf_fonts()?;
    let mut document = Document::new();
    for scene in pages {
        let settings = PageSettings::from_wh(scene.width * PT_PER_MM, scene.height * PT_PER_MM)
            .ok_or_else(|| Error::Internal("a page has no size".into()))?;
        let mut page = document.start_page_with(settings);
        let mut surface = page.surface();
        surface.push_transform(&Transform::from_scale(PT_PER_MM, PT_PER_MM));
        scene.paint(&mut |shape| draw(&mut surface, shape, fonts));
        surface.pop();
        surface.finish();
        page.finish();
    }
    let pdf = document
        .finish()
        .map_err(|e| Error::Internal(format!("cannot write the PDF: {e:?}")))?;
    print_unscaled(pdf)
}

/// Asks PDF viewers to print at 100% (`/ViewerPreferences << /PrintScaling /None >>`),
/// so that labels land on a sticker sheet's die cuts and the board keeps its size.
///
/// krilla has no setting for it, and writes the catalogue as the last object before
/// a classic cross-reference table: the entry goes into the catalogue's dictionary, and
/// only `startxref` moves with it.
fn print_unscaled(mut pdf: Vec<u8>) -> Result<Vec<u8>, Error> {
    let unexpected = || Error::Internal("the PDF writer's catalogue is not where expected".into());
    let find_last =
        |hay: &[u8], needle: &[u8]| hay.windows(needle.len()).rposition(|w| w == needle);
    let xref = find_last(&pdf, b"\nxref\n").ok_or_else(unexpected)?;
    let catalogue_end = xref - b">>\nendobj".len();
    let start = find_last(&pdf[..catalogue_end], b"/Type/Catalog").ok_or_else(unexpected)?;
    if &pdf[catalogue_end..xref] != b">>\nendobj" || pdf[start..catalogue_end].contains(&b'>') {
        return Err(unexpected());
    }
    let entry: &[u8] = b"/ViewerPreferences<</PrintScaling/None>>";
    pdf.splice(catalogue_end..catalogue_end, entry.iter().copied());
    let tail = find_last(&pdf, b"startxref\n").ok_or_else(unexpected)? + b"startxref\n".len();
    let digits = pdf[tail..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    let offset: usize = std::str::from_utf8(&pdf[tail..tail + digits])
        .ok()
        .and_then(|d| d.parse().ok())
        .ok_or_else(unexpected)?;
    pdf.splice(
        tail..tail + digits,
        (offset + entry.len()).to_string().into_bytes(),
    );
    Ok(pdf)
}
