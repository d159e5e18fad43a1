//! Setting blocks on pages: lines broken by the font's real glyph widths inside the
//! margins, words bound by each language's rules (a one-letter word to the next, a
//! number to its noun), drawings placed between paragraphs, and page breaks that never
//! leave a heading, a paragraph's first or last line, or two lines alone on a page.

use std::collections::BTreeSet;
use std::sync::Arc;

use super::drawings::Figure;
use super::markdown::{Block, Span};
use crate::draw::fonts::text_width;
use crate::draw::scene::{Scene, TextStyle, Weight, pt};
use crate::sheet::{Page, SHEET_HEADER_MM, SHEET_MARGIN_MM, blank};
use matchbox_engine::Error;
use matchbox_engine::i18n::Language;
use matchbox_engine::kit::Kit;

/// Draws a named figure, given the room its page has left, in mm.
pub type DrawFigure<'a> = dyn Fn(Figure, f32) -> Result<Scene, Error> + 'a;

/// Body text size in mm (10.5 pt).
pub const BODY: f32 = 3.7;
/// Left and right margin of text pages, in mm.
pub const SIDE: f32 = 20.0;
const LEADING: f32 = 1.38;
const INDENT: f32 = 6.0;
/// The fewest lines a page may hold unless it ends its section (a drawing counts as
/// a full page's worth).
pub const FEWEST_LINES: usize = 3;

/// The space that joins two words that must not be parted.
pub const NO_BREAK_SPACE: char = '\u{a0}';
/// The narrow space that joins a number's groups of digits and a number to its `%`
/// in Polish and Russian.
pub const NARROW_NO_BREAK_SPACE: char = '\u{202f}';

/// Whether a line may break at `c`: at white space, but not at a no-break space.
fn breaks_at(c: char) -> bool {
    c.is_whitespace() && !matches!(c, NO_BREAK_SPACE | NARROW_NO_BREAK_SPACE | '\u{2007}')
}

fn heading_size(level: u8) -> f32 {
    match level {
        1 => 6.2,
        2 => 4.6,
        _ => 4.0,
    }
}

/// A word with the pieces it is made of (a bold word followed by a comma is one word;
/// so are words bound by a no-break space).
struct Word {
    pieces: Vec<(String, Weight)>,
    width: f32,
}

impl Word {
    fn text(&self) -> String {
        self.pieces.iter().map(|(p, _)| p.as_str()).collect()
    }

    /// The face the word begins or ends in.
    fn weight_at(&self, end: bool) -> Weight {
        let piece = if end {
            self.pieces.last()
        } else {
            self.pieces.first()
        };
        piece.map_or(Weight::Regular, |(_, w)| *w)
    }
}

/// The face of the space between two words: theirs when they share it (a space inside
/// a bold phrase or a title is bold or oblique too), else regular.
fn space_weight(before: &Word, after: &Word) -> Weight {
    let weight = before.weight_at(true);
    if weight == after.weight_at(false) {
        weight
    } else {
        Weight::Regular
    }
}

fn words(spans: &[Span], size: f32, force_bold: bool) -> Vec<Word> {
    let mut out: Vec<Word> = Vec::new();
    let mut glued = false;
    for span in spans {
        let weight = if force_bold {
            Weight::Bold
        } else {
            span.weight
        };
        let mut rest = span.text.as_str();
        while !rest.is_empty() {
            if rest.starts_with(breaks_at) {
                rest = rest.trim_start_matches(breaks_at);
                glued = false;
                continue;
            }
            let end = rest.find(breaks_at).unwrap_or(rest.len());
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

/// A word's letters and digits, without the quotes and brackets that open it.
fn core(word: &str) -> &str {
    word.trim_start_matches(['(', '[', '«', '„', '"', '\'', '‚', '“', '‘'])
}

fn is_number(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_digit())
        && text.ends_with(|c: char| c.is_ascii_digit())
        && text
            .chars()
            .all(|c| c.is_ascii_digit() || ",.–-".contains(c) || c == NARROW_NO_BREAK_SPACE)
}

/// Whether a word must not end a line: in Polish and Russian a one-letter word
/// («w», «i», «в», «с»); in every language an initial (`D.`) and a number before
/// its noun or unit.
fn binds_to_next(word: &str, language: Language) -> bool {
    let core = core(word);
    let mut chars = core.chars();
    let (first, second, third) = (chars.next(), chars.next(), chars.next());
    let one_letter = first.is_some_and(char::is_alphabetic) && second.is_none();
    let initial = first.is_some_and(char::is_uppercase) && second == Some('.') && third.is_none();
    (one_letter && language != Language::En) || initial || is_number(core)
}

/// Whether a word must not start a line: a dash, a lone `%`, or a number that ends
/// its sentence (`about 22.` would read as item 22 of a list).
fn binds_to_previous(word: &str) -> bool {
    let number_ends = word
        .trim_end_matches(['.', ',', ';', ':', '!', '?', ')', '»', '"', '”'])
        .len()
        < word.len()
        && is_number(core(word.trim_end_matches([
            '.', ',', ';', ':', '!', '?', ')', '»', '"', '”',
        ])));
    matches!(word, "—" | "–" | "%" | "‰") || number_ends
}

/// Joins the words that the language's rules keep on one line, with a no-break space;
/// never into a word wider than `width`, which could not be set.
fn bind(words: Vec<Word>, language: Language, size: f32, width: f32) -> Vec<Word> {
    let mut out: Vec<Word> = Vec::new();
    let mut to_next = false;
    for word in words {
        let text = word.text();
        let to_previous = binds_to_previous(&text);
        match out.last_mut() {
            Some(last) if (to_next || to_previous) && last.width + word.width < width => {
                let weight = space_weight(last, &word);
                let space = NO_BREAK_SPACE.to_string();
                last.width += text_width(&space, size, weight) + word.width;
                last.pieces.push((space, weight));
                last.pieces.extend(word.pieces);
            }
            _ => out.push(word),
        }
        to_next = binds_to_next(&text, language);
    }
    out
}

/// The space between two words, as it is drawn.
fn gap(before: &Word, after: &Word, size: f32) -> f32 {
    text_width(" ", size, space_weight(before, after))
}

/// Breaks words into lines no wider than `width` (a single longer word keeps a line).
fn break_lines(words: Vec<Word>, width: f32, size: f32) -> Vec<Vec<Word>> {
    let mut lines: Vec<Vec<Word>> = Vec::new();
    let mut line: Vec<Word> = Vec::new();
    let mut used = 0.0;
    for word in words {
        let extra = match line.last() {
            None => word.width,
            Some(last) => gap(last, &word, size) + word.width,
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

/// Text as the language writes it before it is set: in Russian a number and its `%`
/// joined by a narrow no-break space (`25 %`, `100 %`), however the template wrote them.
fn typeset_text(text: &str, language: Language) -> String {
    if language != Language::Ru {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(c);
        if c.is_ascii_digit() {
            let mut spaces = String::new();
            while let Some(&s) = chars.peek().filter(|s| s.is_whitespace()) {
                spaces.push(s);
                chars.next();
            }
            if chars.peek() == Some(&'%') {
                out.push(NARROW_NO_BREAK_SPACE);
            } else {
                out.push_str(&spaces);
            }
        }
    }
    out
}

/// Spans broken into lines of words for a column `width` wide.
fn set_lines(
    spans: &[Span],
    size: f32,
    bold: bool,
    width: f32,
    language: Language,
) -> Vec<Vec<Word>> {
    let spans: Vec<Span> = spans
        .iter()
        .map(|s| Span {
            text: typeset_text(&s.text, language),
            weight: s.weight,
        })
        .collect();
    let words = bind(words(&spans, size, bold), language, size, width);
    break_lines(words, width, size)
}

/// Plain text broken into lines no wider than `width` (for table headings and the like).
pub fn wrap(text: &str, size: f32, weight: Weight, width: f32, language: Language) -> Vec<String> {
    let span = Span {
        text: text.to_string(),
        weight,
    };
    set_lines(&[span], size, false, width, language)
        .into_iter()
        .map(|line| line.iter().map(Word::text).collect::<Vec<_>>().join(" "))
        .collect()
}

/// The runs of one line as they are drawn: each a text in one weight and its x from
/// the line's start. A space takes the weight of the words either side when they share
/// it, so that it is measured as it is drawn.
fn runs(line: &[Word], size: f32) -> Vec<(f32, String, Weight)> {
    let mut runs: Vec<(f32, String, Weight)> = Vec::new();
    let mut x = 0.0;
    for (i, word) in line.iter().enumerate() {
        let mut pieces: Vec<(&str, Weight)> = Vec::new();
        if i > 0 {
            let weight = space_weight(&line[i - 1], word);
            // A space between weights belongs to neither run: it only moves the pen.
            if runs.last().is_some_and(|r| r.2 == weight) {
                pieces.push((" ", weight));
            } else {
                x += text_width(" ", size, weight);
            }
        }
        pieces.extend(word.pieces.iter().map(|(p, w)| (p.as_str(), *w)));
        for (piece, weight) in pieces {
            match runs.last_mut() {
                Some((_, run, w)) if *w == weight => run.push_str(piece),
                _ => runs.push((x, piece.to_string(), weight)),
            }
            x += text_width(piece, size, weight);
        }
    }
    runs
}

/// What one page of the instructions holds: enough to check that no page is left
/// nearly empty in the middle of its section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fill {
    /// Lines of text, headings included.
    pub lines: usize,
    /// Drawings.
    pub drawings: usize,
    /// Whether it is the last page of its section.
    pub ends_section: bool,
}

/// The instruction pages as set, with what each holds and every line's text.
pub struct Booklet {
    /// The pages, each with the title of its section.
    pub pages: Vec<Page>,
    /// What each page holds, in the order of `pages`.
    pub fills: Vec<Fill>,
    /// Every line set, its words joined by spaces (a no-break space inside a word).
    pub lines: Vec<String>,
}

/// One line of text or one drawing as set: its page, and the block and line it is.
#[derive(Clone, Debug)]
struct Placed {
    page: usize,
    block: usize,
    line: usize,
    /// Lines of its block.
    of: usize,
    /// The line's words, or `None` for a drawing.
    text: Option<String>,
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
    /// Everything set so far.
    placed: Vec<Placed>,
    /// The first page of each section.
    section_starts: Vec<usize>,
    /// Lines (block, line) of the section being set that must start a page.
    breaks: BTreeSet<(usize, usize)>,
    /// Closer spacing, to keep a section from running a few lines onto a page.
    tight: bool,
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
            placed: Vec::new(),
            section_starts: Vec::new(),
            breaks: BTreeSet::new(),
            tight: false,
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

    /// A gap between blocks: closer when the section is set tight.
    fn spacing(&self, gap: f32) -> f32 {
        if self.tight { gap * 0.4 } else { gap }
    }

    fn lines_of(&self, spans: &[Span], size: f32, bold: bool, left: f32) -> Vec<Vec<Word>> {
        let width = self.width - (left - SIDE);
        set_lines(spans, size, bold, width, self.kit.language)
    }

    /// The height a block needs (for a figure, its drawing's height).
    fn height(&self, block: &Block, figure: &DrawFigure) -> Result<f32, Error> {
        Ok(match block {
            Block::Figure(f) => figure(*f, self.bottom - self.y)?.height,
            Block::Heading(level, spans) => {
                let size = heading_size(*level);
                let lines = self.lines_of(spans, size, true, SIDE).len();
                lines as f32 * size * 1.25 + size
            }
            Block::Paragraph(spans) => {
                self.lines_of(spans, BODY, false, SIDE).len() as f32 * BODY * LEADING
            }
            Block::Item(_, depth, spans) => {
                let left = SIDE + INDENT * (*depth as f32 + 1.0);
                self.lines_of(spans, BODY, false, left).len() as f32 * BODY * LEADING
            }
        })
    }

    /// The height blocks of text take, their spacing included (no figures).
    pub fn text_height(&self, blocks: &[Block]) -> f32 {
        let no_figures = |_: Figure, _: f32| Err(Error::Internal("no figures".into()));
        blocks
            .iter()
            .map(|b| {
                let gap = match b {
                    Block::Heading(level, _) => heading_size(*level) * 1.25,
                    Block::Paragraph(_) => BODY * 0.6,
                    Block::Item(..) => BODY * 0.3,
                    Block::Figure(_) => 0.0,
                };
                self.height(b, &no_figures).unwrap_or(0.0) + gap
            })
            .sum()
    }

    /// Sets one section: a new page, then its blocks; `figure` draws a named figure.
    /// A paragraph split with one line alone on a page, or a page of fewer than
    /// [`FEWEST_LINES`] lines before the section's end, is set again with an earlier
    /// page break; a section that runs a few lines onto a last page is tried with
    /// closer spacing, kept when it saves that page.
    pub fn section(&mut self, blocks: &[Block], figure: &DrawFigure) -> Result<(), Error> {
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
        let start = self.pages.len();
        self.section_starts.push(start);
        self.set_section(start, blocks, figure, false)?;
        let last = self.pages.len();
        let (lines, drawings) = self.fill_of(last);
        // A last page of a few lines: fewer than three times the fewest a page may hold.
        if last > start && drawings == 0 && lines < FEWEST_LINES * 3 {
            self.set_section(start, blocks, figure, true)?;
            if self.pages.len() >= last {
                self.set_section(start, blocks, figure, false)?;
            }
        }
        Ok(())
    }

    /// Sets a section from its first page, again with one more page break each time a
    /// break falls badly.
    fn set_section(
        &mut self,
        start: usize,
        blocks: &[Block],
        figure: &DrawFigure,
        tight: bool,
    ) -> Result<(), Error> {
        let mut breaks = BTreeSet::new();
        loop {
            self.pages.truncate(start);
            self.scene = blank(self.kit);
            self.y = self.top;
            self.placed.retain(|p| p.page < start);
            self.tight = tight;
            self.breaks = breaks.clone();
            self.blocks(blocks, figure)?;
            match self.bad_break(start, blocks) {
                Some(at) if breaks.insert(at) => {}
                _ => return Ok(()),
            }
        }
    }

    /// Lines and drawings on a page.
    fn fill_of(&self, page: usize) -> (usize, usize) {
        let on = self.placed.iter().filter(|p| p.page == page);
        let drawings = on.clone().filter(|p| p.text.is_none()).count();
        (on.count() - drawings, drawings)
    }

    /// The line that should start a page, if a break of the section from `start` falls
    /// badly: a paragraph's first or last line alone on a page, or a page of the section
    /// before its last with fewer than [`FEWEST_LINES`] lines.
    fn bad_break(&self, start: usize, blocks: &[Block]) -> Option<(usize, usize)> {
        let section: Vec<&Placed> = self.placed.iter().filter(|p| p.page >= start).collect();
        // A heading goes with the first line of what follows it.
        let with_heading = |block: usize, line: usize| match block.checked_sub(1) {
            Some(before) if line == 0 && matches!(blocks[before], Block::Heading(..)) => {
                (before, 0)
            }
            _ => (block, line),
        };
        for pair in section.windows(2) {
            let (before, after) = (pair[0], pair[1]);
            if after.text.is_none() || after.line == 0 || before.page == after.page {
                continue;
            }
            // Split after `split` lines of `of`: keep two either side, or move it all.
            let (split, of) = (after.line, after.of);
            let at = if split < 2 {
                0
            } else if of - split < 2 {
                of.saturating_sub(2)
            } else {
                continue;
            };
            let at = if at < 2 { 0 } else { at };
            return Some(with_heading(after.block, at));
        }
        for page in start..self.pages.len() {
            let (lines, drawings) = self.fill_of(page);
            let Some(first) = section.iter().position(|p| p.page == page) else {
                continue;
            };
            let wanted = FEWEST_LINES.saturating_sub(lines);
            if drawings > 0 || wanted == 0 || first < wanted {
                continue;
            }
            // Lines of the page before, if they are text all the way down.
            let moved = &section[first - wanted..first];
            if moved.iter().all(|p| p.text.is_some() && p.page + 1 == page) {
                return Some(with_heading(moved[0].block, moved[0].line));
            }
        }
        None
    }

    /// Sets blocks from the current position on.
    fn blocks(&mut self, blocks: &[Block], figure: &DrawFigure) -> Result<(), Error> {
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
                    let before = if self.at_top() {
                        0.0
                    } else {
                        self.spacing(size * 0.8)
                    };
                    let breaks_here = self.breaks.contains(&(i, 0));
                    if (breaks_here
                        || self.y + before + self.height(block, figure)? + next > self.bottom)
                        && !self.at_top()
                    {
                        self.new_page();
                    } else {
                        self.y += before;
                    }
                    self.lines(i, spans, size, true, SIDE, None);
                    self.y += size * 0.45;
                }
                Block::Paragraph(spans) => {
                    self.lines(i, spans, BODY, false, SIDE, None);
                    self.y += self.spacing(BODY * 0.6);
                }
                Block::Item(marker, depth, spans) => {
                    let left = SIDE + INDENT * (*depth as f32 + 1.0);
                    self.lines(i, spans, BODY, false, left, Some(marker));
                    self.y += self.spacing(BODY * 0.3);
                }
                Block::Figure(f) => {
                    let drawing = figure(*f, self.bottom - self.y)?;
                    self.drawing(i, drawing);
                }
            }
        }
        Ok(())
    }

    /// Places a drawing centred in the column, on a new page if it does not fit here.
    fn drawing(&mut self, block: usize, drawing: Scene) {
        if self.y + drawing.height > self.bottom && !self.at_top() {
            self.new_page();
        }
        let (w, _) = self.kit.paper.size_mm();
        let (x, height) = ((w - drawing.width) / 2.0, drawing.height);
        self.scene.place(Arc::new(drawing), x, self.y);
        self.y += height + BODY * 0.8;
        self.placed.push(Placed {
            page: self.pages.len(),
            block,
            line: 0,
            of: 1,
            text: None,
        });
    }

    fn lines(
        &mut self,
        block: usize,
        spans: &[Span],
        size: f32,
        bold: bool,
        left: f32,
        marker: Option<&str>,
    ) {
        let lines = self.lines_of(spans, size, bold, left);
        let step = size * if bold { 1.25 } else { LEADING };
        let of = lines.len();
        for (n, line) in lines.into_iter().enumerate() {
            let forced = self.breaks.contains(&(block, n));
            if (self.y + step > self.bottom || forced) && !self.at_top() {
                self.new_page();
            }
            let baseline = self.y + size * 0.95;
            if let (0, Some(m)) = (n, marker) {
                let style = TextStyle::new(size);
                self.scene
                    .styled_text(pt(left - INDENT * 0.8, baseline), m, style);
            }
            for (x, text, weight) in runs(&line, size) {
                let style = TextStyle {
                    weight,
                    ..TextStyle::new(size)
                };
                self.scene.styled_text(pt(left + x, baseline), text, style);
            }
            self.placed.push(Placed {
                page: self.pages.len(),
                block,
                line: n,
                of,
                text: Some(line.iter().map(Word::text).collect::<Vec<_>>().join(" ")),
            });
            self.y += step;
        }
    }

    /// The finished pages, each with the title of its section, and what each holds.
    pub fn finish(mut self) -> Booklet {
        if !self.scene.shapes.is_empty() {
            self.new_page();
        }
        let count = self.pages.len();
        let fills = (0..count)
            .map(|page| {
                let (lines, drawings) = self.fill_of(page);
                Fill {
                    lines,
                    drawings,
                    ends_section: page + 1 == count || self.section_starts.contains(&(page + 1)),
                }
            })
            .collect();
        Booklet {
            pages: self.pages,
            fills,
            lines: self.placed.into_iter().filter_map(|p| p.text).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(text: &str) -> Span {
        Span {
            text: text.into(),
            weight: Weight::Regular,
        }
    }

    fn texts(lines: &[Vec<Word>]) -> Vec<String> {
        lines
            .iter()
            .map(|l| l.iter().map(Word::text).collect::<Vec<_>>().join(" "))
            .collect()
    }

    #[test]
    fn lines_never_exceed_the_column() {
        let text = "The machine cannot think: all it has is a memory made of beads. ".repeat(8);
        let lines = set_lines(&[span(&text)], BODY, false, 60.0, Language::En);
        assert!(lines.len() > 5);
        let space = text_width(" ", BODY, Weight::Regular);
        for line in &lines {
            let w: f32 =
                line.iter().map(|w| w.width).sum::<f32>() + (line.len() - 1) as f32 * space;
            assert!(w <= 60.0 + 1e-3, "{w}");
        }
    }

    #[test]
    fn a_one_letter_word_never_ends_a_polish_or_russian_line() {
        let polish = "Maszyna z pudełek gra w kółko i krzyżyk, a w każdym pudełku są koraliki. ";
        let russian =
            "Машина из коробков играет в крестики-нолики, и в каждом коробке с бусинками. ";
        for (language, text) in [(Language::Pl, polish), (Language::Ru, russian)] {
            for width in [40.0, 47.0, 55.0, 63.0, 71.0] {
                let lines = texts(&set_lines(
                    &[span(&text.repeat(6))],
                    BODY,
                    false,
                    width,
                    language,
                ));
                for line in &lines[..lines.len() - 1] {
                    let last = line.rsplit(' ').next().unwrap();
                    let last = last.rsplit(NO_BREAK_SPACE).next().unwrap();
                    assert!(last.chars().count() > 1, "{language:?} {width}: {line}");
                }
            }
        }
        // English keeps its one-letter words free.
        let english = set_lines(&[span("a b c d")], BODY, false, 100.0, Language::En);
        assert_eq!(english[0].len(), 4);
    }

    #[test]
    fn initials_numbers_and_dashes_stay_with_their_neighbours() {
        let lines = set_lines(
            &[span(
                "D. Komski liczy 45 koralików — około 22. Razem 2\u{202f}791 pudełek.",
            )],
            BODY,
            false,
            200.0,
            Language::Pl,
        );
        let words: Vec<String> = lines[0].iter().map(Word::text).collect();
        assert_eq!(
            words,
            [
                "D.\u{a0}Komski",
                "liczy",
                "45\u{a0}koralików\u{a0}—",
                "około\u{a0}22.",
                "Razem",
                "2\u{202f}791\u{a0}pudełek."
            ]
        );
    }

    #[test]
    fn russian_percent_signs_are_set_alike() {
        assert_eq!(
            typeset_text("25 % и 100%", Language::Ru),
            "25\u{202f}% и 100\u{202f}%"
        );
        assert_eq!(typeset_text("25 % i 100%", Language::Pl), "25 % i 100%");
    }

    #[test]
    fn a_bold_run_of_words_is_measured_with_bold_spaces() {
        let spans = [
            Span {
                text: "Put the bead on top of the box".into(),
                weight: Weight::Bold,
            },
            span(", close it"),
        ];
        let lines = set_lines(&spans, BODY, false, 500.0, Language::En);
        let runs = runs(&lines[0], BODY);
        let bold = text_width("Put the bead on top of the box", BODY, Weight::Bold);
        assert_eq!(runs[0].1, "Put the bead on top of the box");
        assert_eq!(runs[1].1, ", close it");
        assert!((runs[1].0 - bold).abs() < 0.05, "{} vs {bold}", runs[1].0);
    }

    #[test]
    fn a_heading_near_the_foot_moves_to_the_next_page_with_its_text() {
        let kit = Kit::from_preset("octapawn").unwrap();
        let blocks = [
            Block::Heading(2, vec![span("A heading")]),
            Block::Paragraph(vec![span(&"Beads and boxes. ".repeat(12))]),
        ];
        let no_figures = |_: Figure, _: f32| Err(Error::Internal("no figures".into()));
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
            let pages = setter.finish().pages;
            assert_eq!(pages.len(), 2, "room {room}");
            let first = &pages[0].scene.shapes;
            assert_eq!(first.len(), 1, "room {room}: the heading stayed behind");
        }
    }

    #[test]
    fn a_paragraph_never_leaves_one_line_alone_on_a_page() {
        let kit = Kit::from_preset("octapawn").unwrap();
        let no_figures = |_: Figure, _: f32| Err(Error::Internal("no figures".into()));
        // Paragraphs of growing length run over the foot of the first page at every
        // line; no page may start or end with a lone line of a paragraph.
        for extra in 0..12 {
            let mut blocks = vec![Block::Heading(1, vec![span("Title")])];
            blocks
                .extend((0..8).map(|_| {
                    Block::Paragraph(vec![span(&"Beads and boxes. ".repeat(20 + extra))])
                }));
            let mut setter = Typesetter::new(&kit);
            setter.section(&blocks, &no_figures).unwrap();
            let placed = setter.placed.clone();
            let booklet = setter.finish();
            for pair in placed.windows(2) {
                let (a, b) = (&pair[0], &pair[1]);
                if a.page != b.page && a.block == b.block {
                    assert!(
                        b.line >= 2 && b.of - b.line >= 2,
                        "extra {extra}: split {} of {}",
                        b.line,
                        b.of
                    );
                }
            }
            for fill in &booklet.fills {
                assert!(
                    fill.ends_section || fill.lines >= FEWEST_LINES,
                    "extra {extra}"
                );
            }
        }
    }

    #[test]
    fn a_bold_word_and_its_comma_stay_together() {
        let spans = [
            Span {
                text: "bold".into(),
                weight: Weight::Bold,
            },
            span(", then more"),
        ];
        let w = words(&spans, BODY, false);
        assert_eq!(w.len(), 3);
        assert_eq!(w[0].pieces.len(), 2);
    }
}
