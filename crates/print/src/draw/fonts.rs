//! The one typeface of every kit, DejaVu Sans (regular, bold and oblique, cut down by the engine
//! to Latin, Greek, Cyrillic and their punctuation), and text shaped with it (rustybuzz:
//! glyphs, kerning).
//!
//! Layout, the PDF and the PNG previews all place the glyphs [`shape`] returns, so a
//! text is as wide on paper and in a preview as the layout measured it.

use std::cell::RefCell;
use std::ops::Range;
use std::sync::{Mutex, OnceLock};

use rustc_hash::FxHashMap;
use rustybuzz::{Direction, Face, Script, ShapePlan, UnicodeBuffer};

use super::scene::Weight;

/// The font file of a weight (the engine's, which reads the same files' character maps).
pub fn font_data(weight: Weight) -> &'static [u8] {
    matchbox_engine::glyphs::font_files()[index(weight)]
}

/// The family name the SVG output uses, matching the embedded font.
pub const FAMILY: &str = "DejaVu Sans";

/// The family name of the monospaced face in the SVG output.
pub const MONO_FAMILY: &str = "DejaVu Sans Mono";

/// Where a face's file is among the engine's font files, and so among every per-face table.
pub fn index(weight: Weight) -> usize {
    match weight {
        Weight::Regular => 0,
        Weight::Bold => 1,
        Weight::Oblique => 2,
        Weight::Mono => 3,
    }
}

/// The parsed face of a weight, parsed once per process.
pub fn face(weight: Weight) -> Option<&'static Face<'static>> {
    static FACES: OnceLock<[Option<Face<'static>>; 4]> = OnceLock::new();
    FACES.get_or_init(|| Weight::ALL.map(|w| Face::from_slice(font_data(w), 0)))[index(weight)]
        .as_ref()
}

/// Whether all three faces of the embedded font have a glyph for `c` (the engine checks
/// kit.yaml's text with it).
pub use matchbox_engine::glyphs::printable;

/// One glyph of a shaped text; lengths in em (font units over units per em).
#[derive(Clone, Debug, PartialEq)]
pub struct Glyph {
    /// The glyph's id in the font.
    pub id: u16,
    /// How far the pen moves after it (kerning included).
    pub advance: f32,
    /// Shift right from the pen position.
    pub x_offset: f32,
    /// Shift up from the baseline.
    pub y_offset: f32,
    /// The bytes of the text it draws.
    pub text: Range<usize>,
}

/// A line of text shaped in one weight, left to right.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Shaped {
    /// The glyphs in drawing order.
    pub glyphs: Vec<Glyph>,
}

impl Shaped {
    /// The width in mm when set at `size` mm.
    pub fn width(&self, size: f32) -> f32 {
        self.glyphs.iter().map(|g| g.advance).sum::<f32>() * size
    }
}

thread_local! {
    /// Shaping plans by weight and script. Building a plan costs far more than shaping
    /// one short text with it; each thread keeps its own, as plans are not shared.
    static PLANS: RefCell<Vec<(Weight, Script, ShapePlan)>> = const { RefCell::new(Vec::new()) };
}

/// Texts already shaped, per weight, shared by every thread: a kit sets the same words
/// and numbers on label after label, fitting a text to its room measures it, and the
/// two PDFs and the previews place it again, each maybe on another thread. Shaping is
/// deterministic, so which thread shaped a text first does not matter.
static SHAPED: Mutex<[Option<ShapedTexts>; 4]> = Mutex::new([None, None, None, None]);

/// Shaped texts by their text.
type ShapedTexts = FxHashMap<Box<str>, Shaped>;

/// Most texts kept shaped; past it the store starts again (a long `serve`).
const MAX_SHAPED: usize = 50_000;

/// `text` shaped in `weight`: glyphs and their positions, with the font's kerning.
pub fn shape(text: &str, weight: Weight) -> Shaped {
    let store = || {
        SHAPED
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    };
    let known = store()[index(weight)]
        .as_ref()
        .and_then(|shaped| shaped.get(text).cloned());
    if let Some(shaped) = known {
        return shaped;
    }
    let shaped = shape_anew(text, weight);
    let mut store = store();
    let texts = store[index(weight)].get_or_insert_with(FxHashMap::default);
    if texts.len() >= MAX_SHAPED {
        texts.clear();
    }
    texts.insert(text.into(), shaped.clone());
    shaped
}

fn shape_anew(text: &str, weight: Weight) -> Shaped {
    let Some(face) = face(weight) else {
        return Shaped::default();
    };
    let mut buffer = UnicodeBuffer::new();
    buffer.push_str(text);
    buffer.guess_segment_properties();
    // Every script the font prints (Latin, Cyrillic) runs left to right.
    buffer.set_direction(Direction::LeftToRight);
    let script = buffer.script();
    let output = PLANS.with_borrow_mut(|plans| {
        let at = match plans
            .iter()
            .position(|(w, s, _)| *w == weight && *s == script)
        {
            Some(at) => at,
            None => {
                let plan = ShapePlan::new(face, Direction::LeftToRight, Some(script), None, &[]);
                plans.push((weight, script, plan));
                plans.len() - 1
            }
        };
        rustybuzz::shape_with_plan(face, &plans[at].2, buffer)
    });
    let em = face.units_per_em() as f32;
    let infos = output.glyph_infos();
    let glyphs = infos
        .iter()
        .zip(output.glyph_positions())
        .enumerate()
        .map(|(i, (info, pos))| {
            let start = info.cluster as usize;
            // A cluster ends where the next one starts.
            let end = infos[i..]
                .iter()
                .find(|next| next.cluster != info.cluster)
                .map_or(text.len(), |next| next.cluster as usize);
            Glyph {
                id: u16::try_from(info.glyph_id).unwrap_or(0),
                advance: pos.x_advance as f32 / em,
                x_offset: pos.x_offset as f32 / em,
                y_offset: pos.y_offset as f32 / em,
                text: start..end,
            }
        })
        .collect();
    Shaped { glyphs }
}

/// The width in mm of `text` set at `size` mm.
pub fn text_width(text: &str, size: f32, weight: Weight) -> f32 {
    shape(text, weight).width(size)
}

/// The largest size up to `size` at which `text` fits in `width` mm.
pub fn fit(text: &str, size: f32, weight: Weight, width: f32) -> f32 {
    let w = text_width(text, size, weight);
    if w <= width || w == 0.0 {
        size
    } else {
        size * width / w
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_grow_with_text_and_weight() {
        let a = text_width("box 7", 3.0, Weight::Regular);
        assert!(a > 5.0 && a < 12.0, "{a}");
        assert!(text_width("box 77", 3.0, Weight::Regular) > a);
        assert!(text_width("box 7", 3.0, Weight::Bold) > a);
        assert!(text_width("Żółw ёжик", 3.0, Weight::Regular) > 10.0);
    }

    #[test]
    fn latin_polish_and_cyrillic_print_and_chinese_does_not() {
        assert!("Żółw ёжик, MENACE: 1-2 …".chars().all(printable));
        assert!(!printable('中') && !printable('🎲'));
    }

    #[test]
    fn the_subset_fonts_set_text_as_the_whole_fonts_do_kerning_included() {
        let whole = [
            dejavu::sans::regular(),
            dejavu::sans::bold(),
            dejavu::sans::oblique(),
            dejavu::sans_mono::regular(),
        ];
        for (weight, whole) in Weight::ALL.into_iter().zip(whole) {
            let whole = Face::from_slice(whole, 0).unwrap();
            for text in [
                "AVATAR Type LT, To Wo Ya ff fi",
                "Żółw w Łodzi, „cytat” – 1 000",
                "Ёжик, «Гардинер»: ход № 7 — ГАДЮКА",
                "Ελληνικά, Việt, 3 × 4 − 5 ≈ 6 → ✓",
            ] {
                let mut buffer = UnicodeBuffer::new();
                buffer.push_str(text);
                buffer.guess_segment_properties();
                let output = rustybuzz::shape(&whole, &[], buffer);
                let em = whole.units_per_em() as f32;
                let advances: Vec<f32> = output
                    .glyph_positions()
                    .iter()
                    .map(|p| p.x_advance as f32 / em)
                    .collect();
                let ours: Vec<f32> = shape(text, weight)
                    .glyphs
                    .iter()
                    .map(|g| g.advance)
                    .collect();
                assert_eq!(ours, advances, "{text}");
            }
        }
    }

    #[test]
    fn fit_shrinks_only_what_overflows() {
        assert_eq!(fit("I", 4.0, Weight::Bold, 50.0), 4.0);
        let size = fit("II-III-IV-V-VI-VII", 4.0, Weight::Bold, 10.0);
        assert!(size < 4.0);
        assert!((text_width("II-III-IV-V-VI-VII", size, Weight::Bold) - 10.0).abs() < 0.01);
    }
}
