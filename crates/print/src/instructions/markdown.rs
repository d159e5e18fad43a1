//! The Markdown of a rendered template as blocks to set: headings, paragraphs, list
//! items and figure markers (pulldown-cmark does the parsing). `**strong**` is set in
//! bold, `*emphasis*` (the titles of works) in oblique.

use pulldown_cmark::{Event, HeadingLevel, Parser, Tag, TagEnd};

use super::drawings::Figure;
use crate::draw::scene::Weight;
use matchbox_engine::glyphs::monospaced;

/// A run of text in one face.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    /// The words.
    pub text: String,
    /// The face it is set in.
    pub weight: Weight,
}

/// One block of a page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Block {
    /// A heading of level 1 to 3.
    Heading(u8, Vec<Span>),
    /// A paragraph.
    Paragraph(Vec<Span>),
    /// A list item with its marker (`•` or `3.`) and nesting depth from 0.
    Item(String, usize, Vec<Span>),
    /// A drawing: one that a template places with `figure("name")`, or one the page
    /// adds after its text.
    Figure(Figure),
}

/// How a template's figure is marked in rendered Markdown: alone on its line.
pub fn figure_marker(figure: Figure) -> String {
    format!("%%figure:{}%%", figure.name())
}

fn as_figure(spans: &[Span]) -> Option<Figure> {
    let text: String = spans.iter().map(|s| s.text.as_str()).collect();
    Figure::named(text.trim().strip_prefix("%%figure:")?.strip_suffix("%%")?)
}

/// Parses Markdown into blocks; soft line breaks become spaces.
pub fn blocks(markdown: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut spans: Vec<Span> = Vec::new();
    let mut bold = 0usize;
    let mut emphasis = 0usize;
    // Each open list: the next number, or None for bullets.
    let mut lists: Vec<Option<u64>> = Vec::new();
    let mut item_marker: Option<(String, usize)> = None;
    let push_text = |spans: &mut Vec<Span>, text: &str, weight: Weight| match spans.last_mut() {
        Some(last) if last.weight == weight => last.text.push_str(text),
        _ => spans.push(Span {
            text: text.to_string(),
            weight,
        }),
    };
    // Strong inside emphasis stays bold: the kit has no bold oblique.
    let weight = |bold: usize, emphasis: usize| match (bold, emphasis) {
        (0, 0) => Weight::Regular,
        (0, _) => Weight::Oblique,
        _ => Weight::Bold,
    };
    // A later paragraph of the same list item is indented but has no marker.
    let flush =
        |out: &mut Vec<Block>, spans: &mut Vec<Span>, item: &mut Option<(String, usize)>| {
            if spans.iter().all(|s| s.text.trim().is_empty()) {
                spans.clear();
                return;
            }
            let taken = std::mem::take(spans);
            out.push(match (as_figure(&taken), item) {
                (Some(figure), _) => Block::Figure(figure),
                (None, Some((marker, depth))) => Block::Item(std::mem::take(marker), *depth, taken),
                (None, None) => Block::Paragraph(taken),
            });
        };
    for event in Parser::new(markdown) {
        match event {
            Event::Start(Tag::Heading { .. }) | Event::Start(Tag::Paragraph) => {
                flush(&mut out, &mut spans, &mut item_marker);
            }
            Event::End(TagEnd::Heading(level)) => {
                let level = match level {
                    HeadingLevel::H1 => 1,
                    HeadingLevel::H2 => 2,
                    _ => 3,
                };
                out.push(Block::Heading(level, std::mem::take(&mut spans)));
            }
            Event::End(TagEnd::Paragraph) => flush(&mut out, &mut spans, &mut item_marker),
            Event::Start(Tag::List(start)) => {
                flush(&mut out, &mut spans, &mut item_marker);
                lists.push(start);
            }
            Event::End(TagEnd::List(_)) => {
                flush(&mut out, &mut spans, &mut item_marker);
                lists.pop();
                item_marker = None;
            }
            Event::Start(Tag::Item) => {
                flush(&mut out, &mut spans, &mut item_marker);
                let depth = lists.len().saturating_sub(1);
                let marker = match lists.last_mut() {
                    Some(Some(n)) => {
                        *n += 1;
                        format!("{}.", *n - 1)
                    }
                    _ => "•".to_string(),
                };
                item_marker = Some((marker, depth));
            }
            Event::End(TagEnd::Item) => flush(&mut out, &mut spans, &mut item_marker),
            Event::Start(Tag::Strong) => bold += 1,
            Event::End(TagEnd::Strong) => bold = bold.saturating_sub(1),
            Event::Start(Tag::Emphasis) => emphasis += 1,
            Event::End(TagEnd::Emphasis) => emphasis = emphasis.saturating_sub(1),
            Event::Text(text) => push_text(&mut spans, &text, weight(bold, emphasis)),
            // A command or a key in the monospaced face, unless it holds a character the
            // face lacks (a kit's own name in a script it does not draw).
            Event::Code(text) => {
                let face = if text.chars().all(monospaced) {
                    Weight::Mono
                } else {
                    weight(bold, emphasis)
                };
                push_text(&mut spans, &text, face)
            }
            Event::SoftBreak | Event::HardBreak => {
                push_text(&mut spans, " ", weight(bold, emphasis))
            }
            _ => {}
        }
    }
    flush(&mut out, &mut spans, &mut item_marker);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(text: &str, bold: bool) -> Span {
        Span {
            text: text.into(),
            weight: if bold { Weight::Bold } else { Weight::Regular },
        }
    }

    #[test]
    fn headings_paragraphs_lists_bold_and_figures() {
        let md = "# Title\n\nSome **bold** words\nwrapped.\n\n- one\n- **two** too\n\n1. first\n2. second\n\n%%figure:start%%\n";
        let b = blocks(md);
        assert_eq!(b[0], Block::Heading(1, vec![span("Title", false)]));
        assert_eq!(
            b[1],
            Block::Paragraph(vec![
                span("Some ", false),
                span("bold", true),
                span(" words wrapped.", false)
            ])
        );
        assert_eq!(b[2], Block::Item("•".into(), 0, vec![span("one", false)]));
        assert_eq!(
            b[3],
            Block::Item("•".into(), 0, vec![span("two", true), span(" too", false)])
        );
        assert_eq!(
            b[4],
            Block::Item("1.".into(), 0, vec![span("first", false)])
        );
        assert_eq!(
            b[5],
            Block::Item("2.".into(), 0, vec![span("second", false)])
        );
        assert_eq!(b[6], Block::Figure(Figure::Start));
        assert_eq!(b.len(), 7);
    }

    /// That a one-paragraph text's words are `expected`, each in its face.
    fn assert_faces(text: &str, expected: &[(&str, Weight)]) {
        let b = blocks(text);
        let Block::Paragraph(spans) = &b[0] else {
            panic!("{b:?}")
        };
        let faces: Vec<(&str, Weight)> =
            spans.iter().map(|s| (s.text.as_str(), s.weight)).collect();
        assert_eq!(faces, expected);
    }

    #[test]
    fn emphasis_is_oblique_and_strong_within_it_bold() {
        assert_faces(
            "In *Last Year at Marienbad*, *a **b** c*.\n",
            &[
                ("In ", Weight::Regular),
                ("Last Year at Marienbad", Weight::Oblique),
                (", ", Weight::Regular),
                ("a ", Weight::Oblique),
                ("b", Weight::Bold),
                (" c", Weight::Oblique),
                (".", Weight::Regular),
            ],
        );
    }

    #[test]
    fn code_spans_are_monospaced_unless_the_face_lacks_a_letter() {
        assert_faces(
            "Type `matchbox kit` or set `machine: first`, not `中`.\n",
            &[
                ("Type ", Weight::Regular),
                ("matchbox kit", Weight::Mono),
                (" or set ", Weight::Regular),
                ("machine: first", Weight::Mono),
                (", not 中.", Weight::Regular),
            ],
        );
    }

    #[test]
    fn loose_list_items_keep_their_markers() {
        let b = blocks("1. a\n\n   more\n\n2. b\n");
        assert!(matches!(&b[0], Block::Item(m, 0, _) if m == "1."));
        assert!(matches!(&b[1], Block::Item(m, 0, _) if m.is_empty()));
        assert!(matches!(&b[2], Block::Item(m, 0, _) if m == "2."));
    }
}
