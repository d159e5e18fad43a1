//! Pages: labels placed in a grid with cut lines and a colour legend, and the header
//! (kit name, page n of m, title) that every page of a kit carries.

use crate::draw::scene::{Anchor, GREY, Rect, Scene, Stroke, TextStyle, pt};
use crate::i18n::strings;
use crate::kit::{Kit, SHEET_HEADER_MM, SHEET_LEGEND_MM, SHEET_MARGIN_MM};
use crate::palette::Colour;

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
    let (w, h) = kit.paper.size_mm();
    let across = ((w - 2.0 * SHEET_MARGIN_MM) / kit.label.width_mm).floor() as usize;
    let down = ((h - 2.0 * SHEET_MARGIN_MM - SHEET_HEADER_MM - SHEET_LEGEND_MM)
        / kit.label.height_mm)
        .floor() as usize;
    (across.max(1), down.max(1))
}

/// The label sheets: labels in id order, edge to edge so that one cut separates two,
/// thin grey cut lines round each, and the bead colours explained at the foot.
pub fn label_pages(kit: &Kit, labels: &[Scene], colours: &[&Colour]) -> Vec<Page> {
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
                scene.place(label, x, y);
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

/// The most characters of a kit's name in a header; a longer name ends in an ellipsis.
const HEADER_NAME_CHARS: usize = 60;

/// The kit's name as a header shows it.
fn shortened(name: &str) -> String {
    if name.chars().count() <= HEADER_NAME_CHARS {
        return name.to_string();
    }
    let short: String = name.chars().take(HEADER_NAME_CHARS - 1).collect();
    format!("{}…", short.trim_end())
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
                    ("name", &shortened(&kit.name)),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_name_ends_in_an_ellipsis_in_headers() {
        assert_eq!(shortened("HER"), "HER");
        let long = shortened(&"Машина ".repeat(30));
        assert_eq!(long.chars().count(), HEADER_NAME_CHARS);
        assert!(long.ends_with("Маш…"), "{long}");
    }
}
