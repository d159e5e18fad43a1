//! A scene rendered to PNG through its SVG (resvg and tiny-skia), with only the embedded
//! fonts, so the pixels are the same on every machine.

use std::sync::{Arc, OnceLock};

use super::fonts::font_data;
use super::scene::{Scene, Weight};
use super::svg::to_svg;
use crate::Error;

fn font_database() -> Arc<resvg::usvg::fontdb::Database> {
    static DB: OnceLock<Arc<resvg::usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = resvg::usvg::fontdb::Database::new();
        for weight in [Weight::Regular, Weight::Bold] {
            db.load_font_data(font_data(weight).to_vec());
        }
        Arc::new(db)
    })
    .clone()
}

/// The scene as PNG bytes at `dpi` pixels per inch, on white.
pub fn to_png(scene: &Scene, dpi: f32) -> Result<Vec<u8>, Error> {
    let options = resvg::usvg::Options {
        fontdb: font_database(),
        ..Default::default()
    };
    let tree = resvg::usvg::Tree::from_str(&to_svg(scene), &options)
        .map_err(|e| Error::Internal(format!("cannot render a drawing: {e}")))?;
    let px_per_mm = dpi / 25.4;
    let (w, h) = (
        (scene.width * px_per_mm).round().max(1.0) as u32,
        (scene.height * px_per_mm).round().max(1.0) as u32,
    );
    let mut pixmap = resvg::tiny_skia::Pixmap::new(w, h)
        .ok_or_else(|| Error::Input(format!("a {w} x {h} pixel picture is too large")))?;
    pixmap.fill(resvg::tiny_skia::Color::WHITE);
    let scale = resvg::tiny_skia::Transform::from_scale(
        w as f32 / tree.size().width(),
        h as f32 / tree.size().height(),
    );
    resvg::render(&tree, scale, &mut pixmap.as_mut());
    pixmap
        .encode_png()
        .map_err(|e| Error::Internal(format!("cannot encode PNG: {e}")))
}
