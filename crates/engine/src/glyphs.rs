//! Which characters the kit's one typeface (DejaVu Sans, regular and bold) can print, so
//! that a name or a colour that would print as empty boxes is refused as kit.yaml is read.
//! Only the fonts' character maps are read here; shaping and drawing are the print crate's.

use std::sync::OnceLock;

use ttf_parser::Face;

/// The font files, regular and bold, for every crate that reads them. Never inlined: the
/// `dejavu` crate's functions are small enough to be inlined into each caller, and each
/// copy of them would embed its own 1.5 MB of fonts in the binary.
#[inline(never)]
pub fn font_files() -> [&'static [u8]; 2] {
    [dejavu::sans::regular(), dejavu::sans::bold()]
}

/// The character maps of the regular and bold fonts, parsed once per process.
fn faces() -> &'static [Option<Face<'static>>; 2] {
    static FACES: OnceLock<[Option<Face<'static>>; 2]> = OnceLock::new();
    FACES.get_or_init(|| font_files().map(|font| Face::parse(font, 0).ok()))
}

/// Whether both weights of the embedded font have a glyph for `c`: anything else would
/// print as an empty box.
pub fn printable(c: char) -> bool {
    c == ' '
        || faces()
            .iter()
            .all(|face| face.as_ref().is_some_and(|f| f.glyph_index(c).is_some()))
}
