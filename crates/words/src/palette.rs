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
/// The last seven serve machines with many moves in one box (Marienbad's heaps).
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
    ("turquoise", [0x10, 0xb0, 0xb8]),
    ("white", [0xff, 0xff, 0xff]),
    ("navy", [0x1a, 0x26, 0x66]),
    ("lime", [0x9c, 0xd0, 0x2c]),
    ("maroon", [0x7a, 0x1c, 0x2c]),
    ("beige", [0xe3, 0xcc, 0x9a]),
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
}
