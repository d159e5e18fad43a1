//! Which characters the kit's one typeface (DejaVu Sans, regular, bold and oblique) can print, so
//! that a name or a colour that would print as empty boxes is refused as kit.yaml is read;
//! and which its monospaced face (DejaVu Sans Mono, for commands and keys) can.
//! Only the fonts' character maps are read here; shaping and drawing are the print crate's.

use std::sync::OnceLock;

use ttf_parser::Face;

/// DejaVu Sans 2.37, regular, bold and oblique (for titles of works), cut down to the characters of fonts/unicodes.txt
/// by fonts/subset.sh: a sixth of the whole fonts' 2.1 MB, which the site's engine
/// would otherwise carry. Statics, so that each is in the binary once.
static REGULAR: &[u8] = include_bytes!("../fonts/DejaVuSans.ttf");
static BOLD: &[u8] = include_bytes!("../fonts/DejaVuSans-Bold.ttf");
static OBLIQUE: &[u8] = include_bytes!("../fonts/DejaVuSans-Oblique.ttf");
/// DejaVu Sans Mono 2.37, cut alike: the booklet's commands and kit.yaml's keys.
static MONO: &[u8] = include_bytes!("../fonts/DejaVuSansMono.ttf");

/// The font files, regular, bold, oblique and monospaced, for every crate that reads them.
pub fn font_files() -> [&'static [u8]; 4] {
    [REGULAR, BOLD, OBLIQUE, MONO]
}

/// The character maps of the four fonts, parsed once per process: the three faces of
/// running text first, the monospaced one last.
fn faces() -> &'static [Option<Face<'static>>; 4] {
    static FACES: OnceLock<[Option<Face<'static>>; 4]> = OnceLock::new();
    FACES.get_or_init(|| font_files().map(|font| Face::parse(font, 0).ok()))
}

/// Whether the monospaced face has a glyph for `c` (it lacks some of what the text faces
/// print: a code span holding such a character is set in the regular face).
pub fn monospaced(c: char) -> bool {
    c == ' ' || faces()[3].as_ref().is_some_and(|f| draws(f, c))
}

/// Whether all three faces of running text have a glyph for `c`: anything else would
/// print as an empty box. The fonts hold the characters of fonts/unicodes.txt, so these
/// are what a kit can print.
pub fn printable(c: char) -> bool {
    c == ' '
        || faces()[..3]
            .iter()
            .all(|face| face.as_ref().is_some_and(|f| draws(f, c)))
}

/// Whether `face` maps `c` to a glyph of its own: glyph 0 is the empty box itself, which
/// a cut-down font's character map may name for U+FFFF.
fn draws(face: &Face, c: char) -> bool {
    face.glyph_index(c).is_some_and(|g| g.0 != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ranges of fonts/unicodes.txt.
    fn listed() -> Vec<(u32, u32)> {
        ranges(include_str!("../fonts/unicodes.txt"))
    }

    /// The ranges of a list of characters, as fonts/unicodes.txt and unicodes-mono.txt
    /// write them.
    fn ranges(list: &str) -> Vec<(u32, u32)> {
        list.lines()
            .map(|line| line.split('#').next().unwrap_or(""))
            .filter_map(|line| line.split_whitespace().next())
            .map(|range| {
                let (first, last) = range.split_once('-').unwrap_or((range, range));
                let hex = |h: &str| u32::from_str_radix(h, 16).expect("hex in unicodes.txt");
                (hex(first), hex(last))
            })
            .collect()
    }

    fn whole_faces() -> [Face<'static>; 4] {
        [
            dejavu::sans::regular(),
            dejavu::sans::bold(),
            dejavu::sans::oblique(),
            dejavu::sans_mono::regular(),
        ]
        .map(|f| Face::parse(f, 0).unwrap())
    }

    #[test]
    fn printable_is_exactly_what_unicodes_txt_lists_and_dejavu_draws() {
        let listed = listed();
        assert!(listed.len() > 10, "{listed:?}");
        let mono_listed = ranges(include_str!("../fonts/unicodes-mono.txt"));
        let whole = whole_faces();
        let mut count = 0;
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            let in_list = listed.iter().any(|&(a, b)| (a..=b).contains(&(c as u32)));
            let drawn = whole[..3].iter().all(|f| draws(f, c));
            let expected = c == ' ' || (in_list && drawn);
            assert_eq!(printable(c), expected, "U+{:04X} {c}", c as u32);
            let in_mono_list = mono_listed
                .iter()
                .any(|&(a, b)| (a..=b).contains(&(c as u32)));
            let mono = c == ' ' || (in_mono_list && draws(&whole[3], c));
            assert_eq!(
                monospaced(c),
                mono,
                "U+{:04X} {c} in the monospaced face",
                c as u32
            );
            count += usize::from(expected);
        }
        // Latin, Greek, Cyrillic and the punctuation of all three: some hundreds.
        assert!(count > 900, "{count} printable characters");
    }

    #[test]
    fn the_subsets_keep_every_glyph_as_wide_as_the_whole_fonts() {
        for (subset, whole) in faces().iter().zip(whole_faces()) {
            let subset = subset.as_ref().unwrap();
            assert_eq!(subset.units_per_em(), whole.units_per_em());
            for c in (0..=0xFFFF)
                .filter_map(char::from_u32)
                .filter(|&c| printable(c) && draws(subset, c))
            {
                let advance = |f: &Face| f.glyph_index(c).and_then(|g| f.glyph_hor_advance(g));
                assert_eq!(advance(subset), advance(&whole), "U+{:04X}", c as u32);
            }
        }
    }

    #[test]
    fn every_code_span_of_the_templates_is_set_in_the_monospaced_face() {
        // The pages (strings.yaml's words are the program's messages, where a backtick
        // is only a mark).
        for (name, text) in matchbox_templates::files()
            .iter()
            .filter(|(name, _)| name.ends_with(".md"))
        {
            // What stands between backticks: Markdown's code spans, the commands and keys.
            for span in text.split('`').skip(1).step_by(2) {
                assert!(span.chars().all(monospaced), "{name}: `{span}`");
            }
        }
    }

    #[test]
    fn every_template_in_every_language_prints() {
        for (name, text) in matchbox_templates::files() {
            let missing: String = text
                .chars()
                .filter(|&c| !c.is_control() && !printable(c))
                .collect();
            assert!(
                missing.is_empty(),
                "{name}: {missing:?} would print as boxes"
            );
        }
    }
}
