//! The media a kit is printed on: paper sizes, label sizes, and the catalogue of die-cut
//! sticker sheets, with the plain-paper grid they give. Plain figures, no drawing: the
//! kit's settings are checked against them as kit.yaml is read; the print crate's sheets
//! place labels by them.

use serde::{Deserialize, Serialize};

use crate::Message;
use crate::i18n::{Messages, id};

/// The printed size of one label.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct LabelSize {
    /// Width in mm.
    pub width_mm: f32,
    /// Height in mm.
    pub height_mm: f32,
}

/// Named label sizes: the top of a common matchbox, and the front of the small craft
/// boxes sold in packs for 304-box MENACE builds.
pub const LABEL_SIZES: [(&str, LabelSize); 2] = [
    (
        "matchbox",
        LabelSize {
            width_mm: 52.0,
            height_mm: 36.0,
        },
    ),
    (
        "craft-small",
        LabelSize {
            width_mm: 35.0,
            height_mm: 15.0,
        },
    ),
];

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

    /// The paper's name as printers call it.
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

/// A sheet of self-adhesive labels, die-cut to a grid: its maker's template figures.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct StickerSheet {
    /// Product code, as written in kit.yaml (`custom` for one given by its figures).
    pub code: &'static str,
    /// Paper the sheet is cut from.
    pub paper: Paper,
    /// One label.
    pub label: LabelSize,
    /// Labels across a sheet.
    pub across: u32,
    /// Labels down a sheet.
    pub down: u32,
    /// From the left edge of the paper to the first column, in mm.
    pub left_mm: f32,
    /// From the top edge of the paper to the first row, in mm.
    pub top_mm: f32,
    /// From one column's left edge to the next one's, in mm.
    pub pitch_x_mm: f32,
    /// From one row's top edge to the next one's, in mm.
    pub pitch_y_mm: f32,
    /// Radius of the label's rounded corners, in mm.
    pub corner_mm: f32,
}

const INCH: f32 = 25.4;

/// Common sticker sheets, from the figures their makers publish for their templates.
pub const STICKER_SHEETS: [StickerSheet; 6] = [
    sticker(
        "L7160",
        Paper::A4,
        (63.5, 38.1),
        (3, 7),
        (7.2, 15.15),
        (66.0, 38.1),
        1.8,
    ),
    sticker(
        "L7159",
        Paper::A4,
        (63.5, 33.9),
        (3, 8),
        (7.2, 12.9),
        (66.0, 33.9),
        1.8,
    ),
    sticker(
        "L7163",
        Paper::A4,
        (99.1, 38.1),
        (2, 7),
        (4.65, 15.15),
        (101.6, 38.1),
        1.8,
    ),
    sticker(
        "L7651",
        Paper::A4,
        (38.1, 21.2),
        (5, 13),
        (4.75, 10.7),
        (40.6, 21.2),
        1.8,
    ),
    sticker(
        "5160",
        Paper::Letter,
        (2.625 * INCH, 1.0 * INCH),
        (3, 10),
        (0.1875 * INCH, 0.5 * INCH),
        (2.75 * INCH, 1.0 * INCH),
        0.0625 * INCH,
    ),
    sticker(
        "5163",
        Paper::Letter,
        (4.0 * INCH, 2.0 * INCH),
        (2, 5),
        (0.15625 * INCH, 0.5 * INCH),
        (4.1875 * INCH, 2.0 * INCH),
        0.0625 * INCH,
    ),
];

const fn sticker(
    code: &'static str,
    paper: Paper,
    (width_mm, height_mm): (f32, f32),
    (across, down): (u32, u32),
    (left_mm, top_mm): (f32, f32),
    (pitch_x_mm, pitch_y_mm): (f32, f32),
    corner_mm: f32,
) -> StickerSheet {
    StickerSheet {
        code,
        paper,
        label: LabelSize {
            width_mm,
            height_mm,
        },
        across,
        down,
        left_mm,
        top_mm,
        pitch_x_mm,
        pitch_y_mm,
        corner_mm,
    }
}

/// Looks a sticker sheet up by its product code, in any case (`l7160` is `L7160`); the
/// Avery codes also answer to their `Avery`/`Zweckform` prefixes.
pub fn sticker_sheet(code: &str) -> Option<StickerSheet> {
    let code = code.trim().to_ascii_uppercase();
    let bare = ["AVERY-", "AVERY ", "ZWECKFORM-", "ZWECKFORM "]
        .iter()
        .find_map(|p| code.strip_prefix(p))
        .unwrap_or(&code);
    STICKER_SHEETS.iter().find(|s| s.code == bare).copied()
}

impl StickerSheet {
    /// Why the grid cannot be cut from its paper, if it cannot, said as `say` says it:
    /// every label must lie on the page, and no two may overlap.
    pub fn misfit(&self, say: Messages) -> Option<Message> {
        let (pw, ph) = self.paper.size_mm();
        let l = self.label;
        let right = self.left_mm + (self.across - 1) as f32 * self.pitch_x_mm + l.width_mm;
        let bottom = self.top_mm + (self.down - 1) as f32 * self.pitch_y_mm + l.height_mm;
        let positive = [l.width_mm, l.height_mm, self.pitch_x_mm, self.pitch_y_mm];
        if positive.iter().any(|v| !(v.is_finite() && *v > 0.0))
            || !(self.left_mm >= 0.0 && self.top_mm >= 0.0 && self.corner_mm >= 0.0)
        {
            return Some(say.message(id::PROBLEM_SHEET_NOT_POSITIVE, &[]));
        }
        if self.across == 0 || self.down == 0 {
            return Some(say.message(id::PROBLEM_SHEET_NO_LABELS, &[]));
        }
        let mm = |x: f32| say.millimetres(x);
        if self.pitch_x_mm + 0.01 < l.width_mm || self.pitch_y_mm + 0.01 < l.height_mm {
            return Some(say.message(
                id::PROBLEM_SHEET_OVERLAP,
                &[
                    ("pitch_x", &mm(self.pitch_x_mm)),
                    ("pitch_y", &mm(self.pitch_y_mm)),
                    ("width", &mm(l.width_mm)),
                    ("height", &mm(l.height_mm)),
                ],
            ));
        }
        if right > pw + 0.01 || bottom > ph + 0.01 {
            return Some(say.message(
                id::PROBLEM_SHEET_PAST_PAGE,
                &[
                    ("right", &mm(right)),
                    ("bottom", &mm(bottom)),
                    ("page_width", &mm(pw)),
                    ("page_height", &mm(ph)),
                ],
            ));
        }
        if 2.0 * self.corner_mm > l.width_mm.min(l.height_mm) {
            return Some(say.message(id::PROBLEM_SHEET_CORNER, &[]));
        }
        None
    }
}

/// How far label content keeps from a sticker's die-cut edge: a die cut may be up to
/// a millimetre off, and rounded corners take more.
pub fn safe_margin_mm(sheet: &StickerSheet) -> f32 {
    SAFE_MARGIN_MM.max(sheet.corner_mm)
}

/// The least margin kept from a die-cut edge, for square corners.
pub const SAFE_MARGIN_MM: f32 = 1.5;

/// How many labels one sheet holds: a sticker sheet's, or as many of `label` size as
/// fit on plain `paper` (`start_at` is from 1 to this).
pub fn labels_per_sheet(paper: Paper, label: LabelSize, stickers: Option<&StickerSheet>) -> u32 {
    match stickers {
        Some(sheet) => sheet.across * sheet.down,
        None => {
            let (across, down) = cut_grid(paper, label);
            (across * down) as u32
        }
    }
}

/// How many labels of `label` size fit across and down plain `paper`, edge to edge
/// between the margins, the header and the legend.
pub fn cut_grid(paper: Paper, label: LabelSize) -> (usize, usize) {
    let (w, h) = label_area(paper);
    let across = (w / label.width_mm).floor() as usize;
    let down = (h / label.height_mm).floor() as usize;
    (across.max(1), down.max(1))
}
