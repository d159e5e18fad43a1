//! The one typeface of every kit, DejaVu Sans (regular and bold, from the `dejavu` crate:
//! Latin, Polish and Cyrillic), and text measurement with its real glyph widths.

use std::sync::OnceLock;

use super::scene::Weight;

/// The font file of a weight.
pub fn font_data(weight: Weight) -> &'static [u8] {
    match weight {
        Weight::Regular => dejavu::sans::regular(),
        Weight::Bold => dejavu::sans::bold(),
    }
}

/// The family name the SVG output uses, matching the embedded font.
pub const FAMILY: &str = "DejaVu Sans";

struct Metrics {
    units_per_em: f32,
    /// Advance widths of the first 1,280 code points (Latin, Greek, Cyrillic), by char.
    advances: Vec<u16>,
    fallback: u16,
}

fn metrics(weight: Weight) -> &'static Metrics {
    static CELLS: [OnceLock<Metrics>; 2] = [OnceLock::new(), OnceLock::new()];
    let i = match weight {
        Weight::Regular => 0,
        Weight::Bold => 1,
    };
    CELLS[i].get_or_init(|| {
        let face = ttf_parser::Face::parse(font_data(weight), 0).ok();
        let advance = |c: char| -> Option<u16> {
            let face = face.as_ref()?;
            face.glyph_hor_advance(face.glyph_index(c)?)
        };
        let fallback = advance('0').unwrap_or(1300);
        Metrics {
            units_per_em: face
                .as_ref()
                .map_or(2048.0, |f| f32::from(f.units_per_em())),
            advances: (0..1280u32)
                .map(|c| char::from_u32(c).and_then(advance).unwrap_or(fallback))
                .collect(),
            fallback,
        }
    })
}

/// Whether both weights of the embedded font have a glyph for `c`: anything else would
/// print as an empty box.
pub fn printable(c: char) -> bool {
    static FACES: OnceLock<[Option<ttf_parser::Face<'static>>; 2]> = OnceLock::new();
    let faces = FACES.get_or_init(|| {
        [Weight::Regular, Weight::Bold].map(|w| ttf_parser::Face::parse(font_data(w), 0).ok())
    });
    c == ' '
        || faces
            .iter()
            .all(|f| f.as_ref().is_some_and(|f| f.glyph_index(c).is_some()))
}

/// The width in mm of `text` set at `size` mm.
pub fn text_width(text: &str, size: f32, weight: Weight) -> f32 {
    let m = metrics(weight);
    let units: u32 = text
        .chars()
        .map(|c| u32::from(*m.advances.get(c as usize).unwrap_or(&m.fallback)))
        .sum();
    units as f32 / m.units_per_em * size
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
    fn fit_shrinks_only_what_overflows() {
        assert_eq!(fit("I", 4.0, Weight::Bold, 50.0), 4.0);
        let size = fit("II-III-IV-V-VI-VII", 4.0, Weight::Bold, 10.0);
        assert!(size < 4.0);
        assert!((text_width("II-III-IV-V-VI-VII", size, Weight::Bold) - 10.0).abs() < 0.01);
    }
}
