//! Setting blocks on pages: lines broken by the font's real glyph widths inside the
//! margins, drawings placed between paragraphs, and page breaks that never leave a
//! heading alone at the foot of a page.

use std::sync::Arc;

use super::drawings::Figure;
use super::markdown::{Block, Span};
use crate::draw::fonts::text_width;
use crate::draw::scene::{Scene, TextStyle, Weight, pt};
use crate::sheet::{Page, SHEET_HEADER_MM, SHEET_MARGIN_MM, blank};
use matchbox_engine::Error;
use matchbox_engine::kit::Kit;

/// Body text size in mm (10.5 pt).
pub const BODY: f32 = 3.7;
/// Left and right margin of text pages, in mm.
pub const SIDE: f32 = 20.0;
const LEADING: f32 = 1.38;
const INDENT: f32 = 6.0;

fn heading_size(level: u8) -> f32 {
    match level {
        1 => 6.2,
        2 => 4.6,
        _ => 4.0,
    }
}

/// A word with the pieces it is made of (a bold word followed by a comma is one word).
struct Word {
    pieces: Vec<(String, Weight)>,
    width: f32,
}

fn words(spans: &[Span], size: f32, force_bold: bool) -> Vec<Word> {
    let mut out: Vec<Word> = Vec::new();
    let mut glued = false;
    for span in spans {
        let weight = if span.bold || force_bold {
            Weight::Bold
        } else {
            Weight::Regular
        };
        let mut rest = span.text.as_str();
        while !rest.is_empty() {
            if rest.starts_with(char::is_whitespace) {
                rest = rest.trim_start();
                glued = false;
                continue;
            }
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            let piece = &rest[..end];
            let width = text_width(piece, size, weight);
            match out.last_mut() {
                Some(word) if glued => {
                    word.pieces.push((piece.to_string(), weight));
                    word.width += width;
                }
                _ => out.push(Word {
                    pieces: vec![(piece.to_string(), weight)],
                    width,
                }),
            }
            glued = true;
            rest = &rest[end..];
        }
    }
    out
}

/// Breaks words into lines no wider than `width` (a single longer word keeps a line).
fn break_lines(words: Vec<Word>, width: f32, space: f32) -> Vec<Vec<Word>> {
    let mut lines: Vec<Vec<Word>> = Vec::new();
    let mut line: Vec<Word> = Vec::new();
    let mut used = 0.0;
    for word in words {
        let extra = if line.is_empty() {
            word.width
        } else {
            space + word.width
        };
        if !line.is_empty() && used + extra > width {
            lines.push(std::mem::take(&mut line));
            used = word.width;
        } else {
            used += extra;
        }
        line.push(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// Plain text broken into lines no wider than `width` (for table headings and the like).
pub fn wrap(text: &str, size: f32, weight: Weight, width: f32) -> Vec<String> {
    let span = Span {
        text: text.to_string(),
        bold: weight == Weight::Bold,
    };
    let space = text_width(" ", size, weight);
    break_lines(words(&[span], size, false), width, space)
        .into_iter()
        .map(|line| {
            line.iter()
                .map(|w| w.pieces.iter().map(|(p, _)| p.as_str()).collect::<String>())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

/// Lays out sections, each starting on a new page, onto pages of the kit's paper.
pub struct Typesetter<'a> {
    kit: &'a Kit,
    pages: Vec<Page>,
    scene: Scene,
    title: String,
    y: f32,
    top: f32,
    bottom: f32,
    width: f32,
}

impl<'a> Typesetter<'a> {
    /// An empty document for a kit.
    pub fn new(kit: &'a Kit) -> Typesetter<'a> {
        let (w, h) = kit.paper.size_mm();
        let top = SHEET_MARGIN_MM + SHEET_HEADER_MM + 2.0;
        Typesetter {
            kit,
            pages: Vec::new(),
            scene: blank(kit),
            title: String::new(),
            y: top,
            top,
            bottom: h - SHEET_MARGIN_MM - 5.0,
            width: w - 2.0 * SIDE,
        }
    }

    /// The width of the text column in mm: the widest a drawing may be.
    pub fn column_width(&self) -> f32 {
        self.width
    }

    /// The height of a page's text area in mm: the tallest a drawing may be.
    pub fn column_height(&self) -> f32 {
        self.bottom - self.top
    }

    fn new_page(&mut self) {
        let scene = std::mem::replace(&mut self.scene, blank(self.kit));
        self.pages.push(Page::new(self.title.clone(), scene));
        self.y = self.top;
    }

    fn at_top(&self) -> bool {
        self.y <= self.top + 0.01
    }

    /// The height a block needs (for a figure, its drawing's height).
    fn height(
        &self,
        block: &Block,
        figure: &dyn Fn(Figure) -> Result<Scene, Error>,
    ) -> Result<f32, Error> {
        Ok(match block {
            Block::Figure(f) => figure(*f)?.height,
            Block::Heading(level, spans) => {
                let size = heading_size(*level);
                let lines = break_lines(words(spans, size, true), self.width, size * 0.3).len();
                lines as f32 * size * 1.25 + size
            }
            Block::Paragraph(spans) | Block::Item(_, _, spans) => {
                let lines = break_lines(words(spans, BODY, false), self.width, BODY * 0.3).len();
                lines as f32 * BODY * LEADING
            }
        })
    }

    /// Sets one section: a new page, then its blocks; `figure` draws a named figure.
    pub fn section(
        &mut self,
        blocks: &[Block],
        figure: &dyn Fn(Figure) -> Result<Scene, Error>,
    ) -> Result<(), Error> {
        if !self.at_top() || !self.scene.shapes.is_empty() {
            self.new_page();
        }
        self.title = blocks
            .iter()
            .find_map(|b| match b {
                Block::Heading(1, spans) => Some(spans.iter().map(|s| s.text.as_str()).collect()),
                _ => None,
            })
            .unwrap_or_default();
        self.blocks(blocks, figure)
    }

    /// Sets blocks from the current position on.
    fn blocks(
        &mut self,
        blocks: &[Block],
        figure: &dyn Fn(Figure) -> Result<Scene, Error>,
    ) -> Result<(), Error> {
        for (i, block) in blocks.iter().enumerate() {
            match block {
                Block::Heading(level, spans) => {
                    let size = heading_size(*level);
                    // Keep a heading with at least two lines of what follows it.
                    let next = match blocks.get(i + 1) {
                        Some(b @ Block::Figure(_)) => self.height(b, figure)?,
                        Some(b) => self.height(b, figure)?.min(2.0 * BODY * LEADING),
                        None => 0.0,
                    };
                    let before = if self.at_top() { 0.0 } else { size * 0.8 };
                    if self.y + before + self.height(block, figure)? + next > self.bottom
                        && !self.at_top()
                    {
                        self.new_page();
                    } else {
                        self.y += before;
                    }
                    self.lines(spans, size, true, SIDE, None);
                    self.y += size * 0.45;
                }
                Block::Paragraph(spans) => {
                    self.lines(spans, BODY, false, SIDE, None);
                    self.y += BODY * 0.6;
                }
                Block::Item(marker, depth, spans) => {
                    let left = SIDE + INDENT * (*depth as f32 + 1.0);
                    self.lines(spans, BODY, false, left, Some(marker));
                    self.y += BODY * 0.3;
                }
                Block::Figure(f) => {
                    let drawing = figure(*f)?;
                    self.drawing(drawing);
                }
            }
        }
        Ok(())
    }

    /// Places a drawing centred in the column, on a new page if it does not fit here.
    pub fn drawing(&mut self, drawing: Scene) {
        if self.y + drawing.height > self.bottom && !self.at_top() {
            self.new_page();
        }
        let (w, _) = self.kit.paper.size_mm();
        let (x, height) = ((w - drawing.width) / 2.0, drawing.height);
        self.scene.place(Arc::new(drawing), x, self.y);
        self.y += height + BODY * 0.8;
    }

    fn lines(&mut self, spans: &[Span], size: f32, bold: bool, left: f32, marker: Option<&str>) {
        let space = text_width(" ", size, Weight::Regular);
        let width = self.width - (left - SIDE);
        let lines = break_lines(words(spans, size, bold), width, space);
        let step = size * if bold { 1.25 } else { LEADING };
        for (n, line) in lines.into_iter().enumerate() {
            if self.y + step > self.bottom {
                self.new_page();
            }
            let baseline = self.y + size * 0.95;
            if let (0, Some(m)) = (n, marker) {
                let style = TextStyle::new(size);
                self.scene
                    .styled_text(pt(left - INDENT * 0.8, baseline), m, style);
            }
            // Consecutive pieces of one weight become one run of text.
            let run_style = |weight| TextStyle {
                weight,
                ..TextStyle::new(size)
            };
            let mut x = left;
            let mut run = String::new();
            let mut run_weight = Weight::Regular;
            let mut run_x = x;
            for (i, word) in line.iter().enumerate() {
                if i > 0 {
                    if !run.is_empty() {
                        run.push(' ');
                    }
                    x += space;
                }
                for (piece, weight) in &word.pieces {
                    if *weight != run_weight && !run.is_empty() {
                        let text = std::mem::take(&mut run);
                        self.scene.styled_text(
                            pt(run_x, baseline),
                            text.trim_end(),
                            run_style(run_weight),
                        );
                    }
                    if run.is_empty() {
                        run_x = x;
                    }
                    run_weight = *weight;
                    run.push_str(piece);
                    x += text_width(piece, size, *weight);
                }
            }
            if !run.is_empty() {
                self.scene
                    .styled_text(pt(run_x, baseline), run, run_style(run_weight));
            }
            self.y += step;
        }
    }

    /// The finished pages, each with the title of its section.
    pub fn finish(mut self) -> Vec<Page> {
        if !self.scene.shapes.is_empty() {
            self.new_page();
        }
        self.pages
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(text: &str) -> Span {
        Span {
            text: text.into(),
            bold: false,
        }
    }

    #[test]
    fn lines_never_exceed_the_column() {
        let text = "The machine cannot think: all it has is a memory made of beads. ".repeat(8);
        let lines = break_lines(words(&[span(&text)], BODY, false), 60.0, BODY * 0.3);
        assert!(lines.len() > 5);
        for line in &lines {
            let w: f32 =
                line.iter().map(|w| w.width).sum::<f32>() + (line.len() - 1) as f32 * BODY * 0.3;
            assert!(w <= 60.0 + 1e-3, "{w}");
        }
    }

    #[test]
    fn a_heading_near_the_foot_moves_to_the_next_page_with_its_text() {
        let kit = Kit::from_preset("octapawn").unwrap();
        let blocks = [
            Block::Heading(2, vec![span("A heading")]),
            Block::Paragraph(vec![span(&"Beads and boxes. ".repeat(12))]),
        ];
        let no_figures = |_: Figure| Err(Error::Internal("no figures".into()));
        // Room for the heading's line but not for the first line after it.
        for room in [9.0, 11.0, 13.0, 15.0] {
            let mut setter = Typesetter::new(&kit);
            setter.scene.text(
                pt(SIDE, setter.top),
                BODY,
                "filler",
                crate::draw::scene::Anchor::Start,
            );
            setter.y = setter.bottom - room;
            setter.blocks(&blocks, &no_figures).unwrap();
            let pages = setter.finish();
            assert_eq!(pages.len(), 2, "room {room}");
            let first = &pages[0].scene.shapes;
            assert_eq!(first.len(), 1, "room {room}: the heading stayed behind");
        }
    }

    #[test]
    fn a_bold_word_and_its_comma_stay_together() {
        let spans = [
            Span {
                text: "bold".into(),
                bold: true,
            },
            span(", then more"),
        ];
        let w = words(&spans, BODY, false);
        assert_eq!(w.len(), 3);
        assert_eq!(w[0].pieces.len(), 2);
    }
}
