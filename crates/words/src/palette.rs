//! Bead colours: the kit's palette and the default one of common craft-bead colours.

use serde::Serialize;

/// A bead colour: its name (as written in kit.yaml) and how it is printed.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Colour {
    /// Name in kit.yaml; the default colours are translated on the sheets.
    pub name: String,
    /// Printed colour.
    #[serde(serialize_with = "serialize_hex")]
    pub rgb: [u8; 3],
}

impl Colour {
    /// `#rrggbb`.
    pub fn hex(&self) -> String {
        hex(self.rgb)
    }
}

/// A colour as `#rrggbb`: the one way the program writes one (kit.yaml, SVG, JSON).
pub fn hex([r, g, b]: [u8; 3]) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

fn serialize_hex<S: serde::Serializer>(rgb: &[u8; 3], s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&hex(*rgb))
}

/// Craft-bead colours that stay distinct in print, in the order they are handed out.
/// The first three (Bachet's game), the first four (HER) and the first nine (MENACE)
/// were chosen to be told apart also by pupils with red-green colour blindness,
/// helped by the letter printed beside every arrow.
/// The last seven serve machines with many moves in one box (Marienbad's heaps, whose
/// first box has all sixteen): no two of the sixteen are closer than 30 in CIE L*a*b*,
/// and no two of their letters can be taken for each other in any language (the
/// tests say what that means).
pub const DEFAULT_PALETTE: [(&str, [u8; 3]); 16] = [
    ("red", [0xd7, 0x26, 0x1e]),
    ("blue", [0x1f, 0x5f, 0xc4]),
    ("yellow", [0xf2, 0xb8, 0x00]),
    ("green", [0x1e, 0x93, 0x4a]),
    ("black", [0x22, 0x22, 0x22]),
    ("orange", [0xf0, 0x78, 0x10]),
    ("purple", [0x7d, 0x3c, 0xa8]),
    ("pink", [0xf2, 0x7c, 0xc0]),
    ("brown", [0x8a, 0x55, 0x22]),
    // Not grey: Marienbad draws the stones that carry no bead in grey.
    ("sky", [0x7c, 0xc4, 0xf2]),
    // Greener than sky blue, so that the two light blues are not taken for each other.
    ("turquoise", [0x00, 0xa8, 0x9c]),
    ("white", [0xff, 0xff, 0xff]),
    ("navy", [0x1a, 0x26, 0x66]),
    ("lime", [0x9c, 0xd0, 0x2c]),
    ("maroon", [0x7a, 0x1c, 0x2c]),
    // Not beige: it was near white, and its letter (Be, Бж) made a third B beside the
    // white and brown ones in Polish and Russian.
    ("olive", [0x5c, 0x6b, 0x14]),
];

/// The default palette as colours.
pub fn default_palette() -> Vec<Colour> {
    DEFAULT_PALETTE
        .iter()
        .map(|(name, rgb)| Colour {
            name: (*name).to_string(),
            rgb: *rgb,
        })
        .collect()
}

/// An sRGB channel as linear light, 0 to 1: what a colour's luminance (a contrast
/// ratio) and its shade (CIE L*a*b*) are measured from.
pub fn linear(channel: u8) -> f64 {
    let c = f64::from(channel) / 255.0;
    if c <= 0.040_45 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// A colour's relative luminance (WCAG's, and CIE Y), 0 for black to 1 for white.
pub fn luminance([r, g, b]: [u8; 3]) -> f64 {
    0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
}

/// Reads `#rrggbb`.
pub fn parse_hex(text: &str) -> Option<[u8; 3]> {
    let digits = text.strip_prefix('#')?;
    if digits.len() != 6 || !digits.is_ascii() {
        return None;
    }
    let byte = |i: usize| u8::from_str_radix(&digits[i..i + 2], 16).ok();
    Some([byte(0)?, byte(2)?, byte(4)?])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips() {
        for colour in default_palette() {
            assert_eq!(parse_hex(&colour.hex()), Some(colour.rgb));
        }
        assert_eq!(parse_hex("#12345"), None);
        assert_eq!(parse_hex("123456"), None);
        assert_eq!(parse_hex("#gg0000"), None);
    }

    #[test]
    fn default_names_are_distinct() {
        let mut names: Vec<_> = DEFAULT_PALETTE.iter().map(|c| c.0).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), DEFAULT_PALETTE.len());
    }

    /// The colour's CIE L*a*b* (D65), from its sRGB.
    fn lab(rgb: [u8; 3]) -> [f64; 3] {
        let [r, g, b] = rgb.map(linear);
        let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.950_47;
        let y = luminance(rgb);
        let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.088_83;
        let f = |t: f64| {
            if t > 0.008_856 {
                t.cbrt()
            } else {
                7.787 * t + 16.0 / 116.0
            }
        };
        [
            116.0 * f(y) - 16.0,
            500.0 * (f(x) - f(y)),
            200.0 * (f(y) - f(z)),
        ]
    }

    #[test]
    fn no_two_default_colours_are_near_in_shade() {
        for (i, (a, rgb_a)) in DEFAULT_PALETTE.iter().enumerate() {
            for (b, rgb_b) in &DEFAULT_PALETTE[i + 1..] {
                let [la, lb] = [lab(*rgb_a), lab(*rgb_b)];
                let distance = la
                    .iter()
                    .zip(lb)
                    .map(|(p, q)| (p - q).powi(2))
                    .sum::<f64>()
                    .sqrt();
                assert!(distance >= 30.0, "{a} and {b}: {distance:.1}");
            }
        }
    }

    /// Whether a pupil could take one colour's letters for the other's, when both are
    /// on one label: the same letters; a code that is the start of the other's and could
    /// as well stand for the other's name (Polish C for czarny beside Cz for czerwony).
    fn confusable((code_a, name_a): (&str, &str), (code_b, name_b): (&str, &str)) -> bool {
        let lower = |t: &str| t.to_lowercase();
        let stands_for = |code: &str, name: &str| lower(name).starts_with(&lower(code));
        code_a == code_b
            || (code_b.starts_with(code_a) && stands_for(code_b, name_a))
            || (code_a.starts_with(code_b) && stands_for(code_a, name_b))
    }

    #[test]
    fn no_two_default_colours_are_confusable_by_their_letters_in_any_language() {
        use crate::i18n::{Language, strings};
        for language in Language::ALL {
            let s = strings(language);
            let colours: Vec<(String, String)> = default_palette()
                .iter()
                .map(|c| (s.colour_code(c), s.colour_name(c)))
                .collect();
            let pair = |i: usize| (colours[i].0.as_str(), colours[i].1.as_str());
            for i in 0..colours.len() {
                for j in i + 1..colours.len() {
                    assert!(
                        !confusable(pair(i), pair(j)),
                        "{:?} and {:?}",
                        pair(i),
                        pair(j)
                    );
                }
                // A capital shared by three codes leaves a pupil reading the small
                // second letters (Polish Bi, Bo, Br; Russian Бе, Би, Бо).
                let first = |code: &str| code.chars().next();
                let sharing = colours
                    .iter()
                    .filter(|(code, _)| first(code) == first(&colours[i].0))
                    .count();
                assert!(sharing <= 2, "{language:?}: {:?}", colours[i]);
            }
        }
        let red = ("Cz", "czerwony");
        assert!(confusable(("C", "czarny"), red));
        assert!(!confusable(("K", "czarny"), red));
        assert!(!confusable(("B", "blue"), ("Br", "brown")));
    }
}
