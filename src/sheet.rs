//! Pages: labels placed in a grid with cut lines and a colour legend, and the header
//! (kit name, page n of m, title) that every page of a kit carries.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::draw::scene::{Anchor, GREY, Rect, Scene, Stroke, TextStyle, pt};
use crate::i18n::strings;
use crate::kit::Kit;
use crate::palette::Colour;

/// Paper margin around the label grid, in mm.
pub const SHEET_MARGIN_MM: f32 = 10.0;
/// Height of the header line on every sheet, in mm.
pub const SHEET_HEADER_MM: f32 = 12.0;
/// Height of the colour legend at the foot of every label sheet, in mm.
pub const SHEET_LEGEND_MM: f32 = 12.0;

/// Paper size of the printed sheets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Paper {
    /// 210 x 297 mm.
    A4,
    /// 8.5 x 11 in.
    Letter,
}

impl Paper {
    /// Width and height in mm.
    pub fn size_mm(self) -> (f32, f32) {
        match self {
            Paper::A4 => (210.0, 297.0),
            Paper::Letter => (215.9, 279.4),
        }
    }

    /// The name printed in messages.
    pub fn name(self) -> &'static str {
        match self {
            Paper::A4 => "A4",
            Paper::Letter => "Letter",
        }
    }
}

/// Width and height of the part of a sheet that holds labels, inside the margins,
/// header and legend.
pub fn label_area(paper: Paper) -> (f32, f32) {
    let (w, h) = paper.size_mm();
    (
        w - 2.0 * SHEET_MARGIN_MM,
        h - 2.0 * SHEET_MARGIN_MM - SHEET_HEADER_MM - SHEET_LEGEND_MM,
    )
}

/// A page body and the title its header shows.
#[derive(Clone, Debug)]
pub struct Page {
    /// Title printed at the top right of the page.
    pub title: String,
    /// The page, header left empty.
    pub scene: Scene,
}

/// An empty page of the kit's paper.
pub fn blank(kit: &Kit) -> Scene {
    let (w, h) = kit.paper.size_mm();
    Scene::new(w, h)
}

/// How many labels fit across and down a page.
pub fn grid(kit: &Kit) -> (usize, usize) {
    let (w, h) = label_area(kit.paper);
    let across = (w / kit.label.width_mm).floor() as usize;
    let down = (h / kit.label.height_mm).floor() as usize;
    (across.max(1), down.max(1))
}

/// The label sheets: labels in id order, edge to edge so that one cut separates two,
/// thin grey cut lines round each, and the bead colours explained at the foot.
pub fn label_pages(kit: &Kit, labels: &[Arc<Scene>], colours: &[&Colour]) -> Vec<Page> {
    let s = strings(kit.language);
    let (across, down) = grid(kit);
    let (pw, ph) = kit.paper.size_mm();
    let (lw, lh) = (kit.label.width_mm, kit.label.height_mm);
    let left = (pw - across as f32 * lw) / 2.0;
    let top = SHEET_MARGIN_MM + SHEET_HEADER_MM;
    let cut = Stroke {
        colour: GREY,
        width: 0.15,
        dash: None,
    };
    labels
        .chunks(across * down)
        .map(|chunk| {
            let mut scene = blank(kit);
            for (i, label) in chunk.iter().enumerate() {
                let (x, y) = (
                    left + (i % across) as f32 * lw,
                    top + (i / across) as f32 * lh,
                );
                scene.place(Arc::clone(label), x, y);
                scene.rect(Rect { x, y, w: lw, h: lh }, None, Some(cut));
            }
            legend(
                &mut scene,
                kit,
                colours,
                ph - SHEET_MARGIN_MM - SHEET_LEGEND_MM + 4.0,
            );
            Page {
                title: s.get("sheet.labels").to_string(),
                scene,
            }
        })
        .collect()
}

/// The bead colours with their letters and names, wrapping onto a second line.
fn legend(scene: &mut Scene, kit: &Kit, colours: &[&Colour], y: f32) {
    let s = strings(kit.language);
    let (pw, _) = kit.paper.size_mm();
    let size = 3.0;
    let title = s.get("sheet.legend");
    let style = TextStyle::new(size);
    scene.styled_text(pt(SHEET_MARGIN_MM, y), title, style.bold());
    let start =
        SHEET_MARGIN_MM + crate::draw::fonts::text_width(title, size, style.bold().weight) + 3.0;
    let (mut x, mut line_y) = (start, y);
    for colour in colours {
        let name = s.colour_name(colour);
        let width = 5.0 + crate::draw::fonts::text_width(&name, size, style.weight) + 4.0;
        if x + width > pw - SHEET_MARGIN_MM && x > start {
            x = start;
            line_y += size * 1.6;
        }
        scene.bead_tag(
            pt(x + 1.8, line_y - size * 0.35),
            1.8,
            colour.rgb,
            &s.colour_code(colour),
        );
        scene.styled_text(pt(x + 4.5, line_y), name, style);
        x += width;
    }
}

/// Puts the header on every page: kit name and page n of m at the left, the page's
/// title at the right, a rule beneath.
pub fn finish(kit: &Kit, pages: Vec<Page>) -> Vec<Scene> {
    let s = strings(kit.language);
    let total = pages.len().to_string();
    pages
        .into_iter()
        .enumerate()
        .map(|(i, page)| {
            let mut scene = page.scene;
            let (w, _) = (scene.width, scene.height);
            let y = SHEET_MARGIN_MM + 4.0;
            let header = s.fill(
                "sheet.header",
                &[
                    ("name", &kit.name),
                    ("page", &(i + 1).to_string()),
                    ("pages", &total),
                ],
            );
            let half = (w - 2.0 * SHEET_MARGIN_MM) / 2.0 - 2.0;
            let style = TextStyle::new(3.4);
            scene.fitted_text(pt(SHEET_MARGIN_MM, y), header, style.bold(), half);
            scene.fitted_text(
                pt(w - SHEET_MARGIN_MM, y),
                page.title,
                style.anchored(Anchor::End),
                half,
            );
            scene.line(
                pt(SHEET_MARGIN_MM, y + 2.0),
                pt(w - SHEET_MARGIN_MM, y + 2.0),
                Stroke::solid(GREY, 0.2),
            );
            scene
        })
        .collect()
}
