//! The drawings of the instruction pages: the starting position, an example game, a
//! sample label, the score sheet's table and chart, the board and pieces to cut out,
//! and the rows of the box index.

use std::sync::Arc;

use super::ScoreSheet;
use super::layout::{NO_BREAK_SPACE, wrap};
use crate::draw::fonts::text_width;
use crate::draw::scene::{Anchor, GREY, INK, Rect, Scene, Stroke, TextStyle, Weight, pt};
use crate::label::{TagSize, draw_label, draw_move_edge, drawn_moves, fitted_tag, tag_words};
use crate::pictures::{CAPTION, DrawnMove, Game};
use matchbox_engine::Error;
use matchbox_engine::boxes::{BoxSet, MatchBox, tag};
use matchbox_engine::game::{Outcome, Side};
use matchbox_engine::i18n::{Id, id};
use matchbox_engine::i18n::{Language, strings};
use matchbox_engine::kit::{Kit, Tags};
use matchbox_engine::rule::Rule;

const INDEX_ACROSS: usize = 6;
/// The longest example game drawn.
const EXAMPLE_MOVES: usize = 30;
const INDEX_ROW_MM: f32 = 31.0;
/// The fewest rows of the score table's first part, under the page's text.
const FIRST_SCORE_ROWS: u32 = 10;
/// Height of one row of the score table, in mm.
const SCORE_ROW_MM: f32 = 6.4;
/// The learning curve's least height, in mm: under a short table it fills the rest of the
/// page, and a page of its own when less than this is left.
const CHART_MM: f32 = 78.0;

/// A drawing of the instruction pages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Figure {
    /// The starting position (`figure("start")` in a template).
    Start,
    /// A short example game, move by move (`figure("example")`).
    Example,
    /// One label of the kit, full size (`figure("label")`).
    Label,
    /// One part of the score sheet's table, from 0: the first under the page's text,
    /// each further one a page of its own.
    ScoreTable(usize),
    /// The score sheet's empty learning-curve chart.
    ScoreChart,
    /// The board and pieces to cut out.
    Board,
    /// One row of the box index, from 0.
    IndexRow(usize),
}

/// The example game: a short game in which each side takes a win when it sees one, avoids handing
/// the opponent a win at once, and otherwise plays its first move.
pub(super) fn example_line<G: Game>(game: &G) -> Vec<(G::Position, G::Move)> {
    let mut position = game.start();
    let mut line = Vec::new();
    let mut moves = Vec::new();
    // Every game ends (the tree is finite); the bound only guards a game that
    // repeats itself.
    while game.outcome(&position).is_none() && line.len() < EXAMPLE_MOVES {
        moves.clear();
        game.legal_moves(&position, &mut moves);
        let me = game.to_move(&position);
        let wins = |m: &G::Move| game.outcome(&game.play(&position, *m)) == Some(Outcome::Win(me));
        let safe = |m: &G::Move| {
            let next = game.play(&position, *m);
            let mut replies = Vec::new();
            game.legal_moves(&next, &mut replies);
            !replies
                .iter()
                .any(|r| game.outcome(&game.play(&next, *r)) == Some(Outcome::Win(me.other())))
        };
        // Of the safe moves, the one that leaves the fewest replies: a short game with
        // moves of every size (Marienbad's first safe move takes one stone, and a game
        // of those is sixteen moves alike).
        let replies = |m: &G::Move| {
            let mut replies = Vec::new();
            game.legal_moves(&game.play(&position, *m), &mut replies);
            replies.len()
        };
        let Some(&mv) = moves
            .iter()
            .find(|m| wins(m))
            .or_else(|| moves.iter().filter(|m| safe(m)).min_by_key(|m| replies(m)))
            .or(moves.first())
        else {
            break;
        };
        line.push((position.clone(), mv));
        position = game.play(&position, mv);
    }
    line
}

/// How the example game ends, as the pages and the figure's last caption say it: who
/// won, a draw, or `none` where the figure cuts a long game short.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ExampleEnd {
    /// The machine won the example game.
    Machine,
    /// The machine's opponent won it.
    Opponent,
    /// Nobody won.
    Draw,
    /// The game goes on past the moves drawn.
    None,
}

impl ExampleEnd {
    /// How the example game of `game` ends for a machine playing `machine`.
    pub fn of<G: Game>(game: &G, machine: Side) -> ExampleEnd {
        let line = example_line(game);
        let last = line
            .last()
            .map_or_else(|| game.start(), |(p, m)| game.play(p, *m));
        ExampleEnd::at(game, &last, machine)
    }

    /// How a game that has come to `last` ends for a machine playing `machine`.
    fn at<G: Game>(game: &G, last: &G::Position, machine: Side) -> ExampleEnd {
        match game.outcome(last) {
            Some(Outcome::Win(side)) if side == machine => ExampleEnd::Machine,
            Some(Outcome::Win(_)) => ExampleEnd::Opponent,
            Some(Outcome::Draw) => ExampleEnd::Draw,
            None => ExampleEnd::None,
        }
    }
}

impl Figure {
    /// The figures a template may place, by the name it uses.
    const NAMED: [(&str, Figure); 3] = [
        ("start", Figure::Start),
        ("example", Figure::Example),
        ("label", Figure::Label),
    ];

    /// The figure a template names, if there is one of that name.
    pub fn named(name: &str) -> Option<Figure> {
        Self::NAMED
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, f)| *f)
    }

    /// The name a template uses for this figure (`""` for those placed by the pages).
    pub fn name(self) -> &'static str {
        Self::NAMED
            .iter()
            .find(|(_, f)| *f == self)
            .map_or("", |(n, _)| *n)
    }
}

/// Where a picture drawn from the top of `scene` into a room `room` mm tall really ends:
/// no lower than its room, higher if it leaves the foot of it empty.
fn drawn_bottom(scene: &Scene, room: f32) -> f32 {
    scene.lowest().map_or(room, |lowest| lowest.min(room))
}

/// For an axis of `0..=top` drawn `length` mm long: the step of its faint lines (at
/// least 1.5 mm apart) and of its numbers (at least 7 mm apart), the one a multiple of
/// the other.
fn steps(top: u32, length: f32) -> (u32, u32) {
    let per_unit = length / top.max(1) as f32;
    let fits = |step: u32, mm: f32| step as f32 * per_unit >= mm;
    let nice = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];
    let numbers = nice.into_iter().find(|&s| fits(s, 7.0)).unwrap_or(1000);
    let grid = nice
        .into_iter()
        .find(|&s| fits(s, 1.5) && numbers % s == 0)
        .unwrap_or(numbers);
    (grid, numbers)
}

/// The score sheet's column headings in `widths` (less a margin), each on two lines at
/// most and every one at the same size: the largest from 2.7 mm down at which every
/// heading wraps into two lines that fit, so that a long heading is wrapped before the
/// row is shrunk, and no heading is set in two sizes. Gives the size and each heading's
/// lines.
fn score_headings(
    headings: &[String],
    widths: &[f32],
    language: Language,
) -> (f32, Vec<Vec<String>>) {
    let lines_at = |size: f32| -> Vec<Vec<String>> {
        headings
            .iter()
            .zip(widths)
            .map(|(heading, &w)| wrap(heading, size, Weight::Bold, w - 2.4, language))
            .collect()
    };
    let fits = |size: f32, lines: &[Vec<String>]| {
        lines.iter().zip(widths).all(|(lines, &w)| {
            lines.len() <= 2
                && lines
                    .iter()
                    .all(|l| text_width(l, size, Weight::Bold) <= w - 2.4)
        })
    };
    // In steps of a twentieth of a millimetre down to half the size: no heading of the
    // kit's words comes near it, and a shorter one is a better fix than smaller print.
    let smallest = 1.35;
    (0..27)
        .map(|step| 2.7 - step as f32 * 0.05)
        .map(|size| (size, lines_at(size)))
        .find(|(size, lines)| fits(*size, lines))
        .unwrap_or_else(|| (smallest, lines_at(smallest)))
}

/// An axis of at least `0..=top` drawn `length` mm long: its top raised to its next
/// numbered step, so that the top line carries its number (an axis to 122 numbered every
/// 10 reads as stopping at 120), with its [`steps`].
fn chart_axis(top: u32, length: f32) -> (u32, u32, u32) {
    let mut top = top.max(1);
    loop {
        let (grid, numbers) = steps(top, length);
        if top.is_multiple_of(numbers) {
            return (top, grid, numbers);
        }
        top = top.next_multiple_of(numbers);
    }
}

/// Draws the figures of one kit's instructions.
pub struct Figures<'a, G: Game> {
    game: &'a G,
    kit: &'a Kit,
    set: &'a BoxSet<G>,
    width: f32,
    score: ScoreSheet,
    /// Rows of the score table's first part, and of each further one.
    score_rows: (u32, u32),
}

impl<'a, G: Game> Figures<'a, G> {
    /// Figures for a kit, at most `width` mm wide (the text column), with its score
    /// sheet's size; the score table's first part fills `first_room` mm under its
    /// page's text, each further part a page `page_room` mm high.
    pub fn new(
        game: &'a G,
        kit: &'a Kit,
        set: &'a BoxSet<G>,
        width: f32,
        score: ScoreSheet,
        (first_room, page_room): (f32, f32),
    ) -> Self {
        let rows =
            |room: f32| ((room / SCORE_ROW_MM - 1.6).floor().max(0.0) as u32).max(FIRST_SCORE_ROWS);
        Figures {
            game,
            kit,
            set,
            width,
            score,
            score_rows: (rows(first_room), rows(page_room)),
        }
    }

    /// Parts of the score table: as many as its rows need.
    pub fn score_parts(&self) -> usize {
        let (first, each) = self.score_rows;
        1 + self.score.games.saturating_sub(first).div_ceil(each) as usize
    }

    /// The games (from 1) of a part of the score table.
    fn score_rows(&self, part: usize) -> std::ops::RangeInclusive<u32> {
        let (first_rows, each) = self.score_rows;
        let first = match part {
            0 => 1,
            _ => first_rows + 1 + (part as u32 - 1) * each,
        };
        let last = match part {
            0 => first_rows,
            _ => first + each - 1,
        };
        first..=last.min(self.score.games)
    }

    /// Rows of the box index.
    pub fn index_rows(&self) -> usize {
        self.set.boxes.len().div_ceil(INDEX_ACROSS)
    }

    /// A figure, at most `max_height` mm tall, where its page has `left` mm left.
    pub fn draw(&self, figure: Figure, max_height: f32, left: f32) -> Result<Scene, Error> {
        Ok(match figure {
            Figure::Start => self.start(),
            Figure::Example => self.example(),
            Figure::Label => self.label(),
            Figure::ScoreTable(part) => self.score_table(part),
            Figure::ScoreChart => self.score_chart(left, max_height),
            Figure::Board => self
                .game
                .cut_outs(self.width, max_height, strings(self.kit.language)),
            Figure::IndexRow(row) if row < self.index_rows() => self.index_row(row),
            Figure::IndexRow(row) => {
                return Err(Error::Internal(format!("the box index has no row {row}")));
            }
        })
    }

    fn caption(&self, scene: &mut Scene, at_y: f32, text: &str) {
        let style = TextStyle::new(CAPTION)
            .anchored(Anchor::Middle)
            .coloured([0x55, 0x55, 0x55]);
        scene.fitted_text(pt(scene.width / 2.0, at_y), text, style, scene.width);
    }

    fn start(&self) -> Scene {
        let cell = (self.width * 0.45 / 8.0).clamp(9.0, 14.0);
        let (w, h) = self.game.picture_size(cell);
        let mut scene = Scene::new(self.width, h + CAPTION * 2.2);
        let area = Rect {
            x: (self.width - w) / 2.0,
            y: 0.0,
            w,
            h,
        };
        self.game.draw(&self.game.start(), &[], area, &mut scene);
        // A picture may end above its room (a pile without arrows): the caption follows
        // the picture, not the room.
        let bottom = drawn_bottom(&scene, h);
        scene.height = bottom + CAPTION * 2.2;
        let text = strings(self.kit.language).get(id::FIGURE_START).to_string();
        self.caption(&mut scene, bottom + CAPTION * 1.6, &text);
        scene
    }

    fn example(&self) -> Scene {
        let s = strings(self.kit.language);
        let line = example_line(self.game);
        let frames = line.len() + 1;
        let gap = 5.0;
        // As large as allowed, but small enough for the game to take two rows at most
        // (three for a long one).
        let largest = G::EXAMPLE_CELL_MM;
        let (unit_w, _) = self.game.picture_size(1.0);
        let per_row = frames.div_ceil(if frames > 12 { 3 } else { 2 }) as f32;
        let cell = largest.min(((self.width + gap) / per_row - gap) / unit_w);
        let last = line.last().map(|(p, m)| self.game.play(p, *m));
        // A game cut short (a long nim heap) ends in "…", a game over in an end mark and
        // who won: a black square, as a tick under the machine's loss would read as "right".
        let end = last.as_ref().map_or(ExampleEnd::None, |l| {
            ExampleEnd::at(self.game, l, self.kit.machine)
        });
        let result = match end {
            ExampleEnd::Machine => format!("■ {}", s.get(id::EXAMPLE_WON_MACHINE)),
            ExampleEnd::Opponent => format!("■ {}", s.get(id::EXAMPLE_WON_OPPONENT)),
            ExampleEnd::Draw => format!("■ {}", s.get(id::EXAMPLE_DRAW)),
            ExampleEnd::None => "…".to_string(),
        };
        let captions: Vec<String> = (0..frames)
            .map(|i| match line.get(i) {
                Some((position, _)) => self.move_caption(position, i as u32 + 1),
                None => result.clone(),
            })
            .collect();
        // Each frame as wide as its picture, or as its caption at full size where that
        // is wider (a long game's pictures are small, "opponent" is not); the picture
        // then grows into the room its caption makes.
        let widest = captions
            .iter()
            .map(|c| text_width(c, CAPTION, Weight::Regular))
            .fold(0.0, f32::max);
        let cell = cell.max(largest.min(widest / unit_w));
        let (w, h) = self.game.picture_size(cell);
        let slot = w.max(widest);
        let across = ((self.width + gap) / (slot + gap)).floor().max(1.0) as usize;
        let frame_x = |i: usize| (i % across) as f32 * (slot + gap) + (slot - w) / 2.0;
        let frame = |i: usize, y: f32, scene: &mut Scene| {
            let area = Rect {
                x: frame_x(i),
                y,
                w,
                h,
            };
            match line.get(i) {
                Some((position, mv)) => {
                    let arrow = DrawnMove {
                        mv: *mv,
                        colour: INK,
                        code: String::new(),
                    };
                    self.game.draw(position, &[arrow], area, scene);
                }
                None => {
                    if let Some(end) = &last {
                        self.game.draw(end, &[], area, scene);
                    }
                }
            }
        };
        // How tall each row's pictures are drawn: a row of pictures that end above their
        // room (a last pile without arrows) has its captions right under them.
        let drawn: Vec<f32> = (0..frames.div_ceil(across))
            .map(|row| {
                let mut pictures = Scene::new(self.width, h);
                (row * across..frames.min((row + 1) * across))
                    .for_each(|i| frame(i, 0.0, &mut pictures));
                drawn_bottom(&pictures, h)
            })
            .collect();
        let row_top = |row: usize| {
            CAPTION * 2.0 + drawn[..row].iter().map(|d| d + CAPTION * 2.4).sum::<f32>()
        };
        let mut scene = Scene::new(self.width, row_top(drawn.len()));
        let title = TextStyle::new(CAPTION * 1.1).bold();
        scene.styled_text(pt(0.0, CAPTION), s.get(id::FIGURE_EXAMPLE), title);
        for (i, caption) in captions.into_iter().enumerate() {
            let (row, x) = (i / across, frame_x(i));
            let y = row_top(row);
            frame(i, y, &mut scene);
            let style = TextStyle::new(CAPTION).anchored(Anchor::Middle);
            scene.fitted_text(
                pt(x + w / 2.0, y + drawn[row] + CAPTION * 1.4),
                caption,
                style,
                slot + gap,
            );
        }
        scene
    }

    /// The caption of a move of the example: its number as the labels write it. Where
    /// the labels count the machine's own moves (I, II), the machine's moves carry that
    /// tag and the opponent's none.
    fn move_caption(&self, position: &G::Position, n: u32) -> String {
        let s = strings(self.kit.language);
        if self.kit.tags == Tags::GameMove {
            return s.fill(id::FIGURE_MOVE, &[("n", &n.to_string())]);
        }
        if self.game.to_move(position) == self.kit.machine {
            let tag = tag(&[n], self.kit.machine, self.kit.tags, self.kit.numerals);
            s.fill(id::EXAMPLE_MACHINE, &[("tag", &tag)])
        } else {
            s.get(id::EXAMPLE_OPPONENT).to_string()
        }
    }

    /// The box with the most arrows, as printed, as a worked example.
    fn label(&self) -> Scene {
        let sample = self
            .set
            .boxes
            .iter()
            .max_by_key(|b| (b.moves.len(), std::cmp::Reverse(b.id)));
        let size = crate::sheet::label_drawing(self.kit);
        let (lw, lh) = (size.width_mm, size.height_mm);
        let mut scene = Scene::new(self.width, lh + CAPTION * 2.2);
        if let Some(b) = sample {
            let label = draw_label(
                self.game,
                self.kit,
                TagSize::of(self.game, self.kit, self.set),
                b,
            );
            let x = (self.width - lw) / 2.0;
            scene.place(Arc::new(label), x, 0.0);
            scene.rect(
                Rect {
                    x,
                    y: 0.0,
                    w: lw,
                    h: lh,
                },
                None,
                Some(Stroke::solid(GREY, 0.2)),
            );
        }
        let text = strings(self.kit.language).get(id::FIGURE_LABEL).to_string();
        self.caption(&mut scene, lh + CAPTION * 1.6, &text);
        scene
    }

    fn score_table(&self, part: usize) -> Scene {
        let s = strings(self.kit.language);
        let row = SCORE_ROW_MM;
        let games = self.score_rows(part);
        let count = games.clone().count();
        // A game that can be drawn keeps its draws in a column of their own: against a
        // faultless opponent a draw is the best MENACE can do, and the draws are what a
        // class watches grow.
        // A rule that never adds beads gets a column for the beads taken out alone.
        let change = if self.kit.rule.adds_beads() {
            id::SCORE_CHANGE
        } else {
            id::SCORE_TAKEN
        };
        let (mut heads, mut widths): (Vec<Id>, Vec<f32>) = if self.game.can_draw() {
            (
                vec![
                    id::SCORE_GAME,
                    id::SCORE_WINNER,
                    change,
                    id::SCORE_LOSSES,
                    id::SCORE_DRAWS,
                ],
                vec![0.08, 0.17, 0.45, 0.15, 0.15],
            )
        } else {
            (
                vec![id::SCORE_GAME, id::SCORE_WINNER, change, id::SCORE_LOSSES],
                vec![0.1, 0.22, 0.46, 0.22],
            )
        };
        // The beads column is the widest: one MENACE game can change four boxes ("1 K +3,
        // 7 Or +3, 52 P +3, 210 Br +3"), while the others hold a word or a running total.
        // Where the page says to refill a first move's box that runs empty (Michie's rule
        // taking beads on a loss), the class notes the refill beside the game: the other
        // columns give it a share of their width.
        if self.kit.rule == Rule::Menace && self.kit.reward.loss < 0 {
            const REFILLED: f32 = 0.12;
            widths.iter_mut().for_each(|w| *w *= 1.0 - REFILLED);
            heads.push(id::SCORE_REFILLED);
            widths.push(REFILLED);
        }
        let widths: Vec<f32> = widths.iter().map(|f| f * self.width).collect();
        let mut scene = Scene::new(self.width, row * (count as f32 + 1.6));
        let head = row * 1.6;
        let rule = Stroke::solid(GREY, 0.25);
        // A sign in brackets belongs to the word before it ("added (+)").
        let headings: Vec<String> = heads
            .iter()
            .map(|key| s.get(*key).replace(" (", &format!("{NO_BREAK_SPACE}(")))
            .collect();
        let (size, lines) = score_headings(&headings, &widths, self.kit.language);
        let style = TextStyle::new(size).bold();
        let mut x = 0.0;
        for (lines, &w) in lines.into_iter().zip(&widths) {
            // The last line on the lower baseline, a first one above it.
            for (line, baseline) in lines.into_iter().rev().zip([head - 1.8, head - 5.0]) {
                scene.styled_text(pt(x + 1.2, baseline), line, style);
            }
            x += w;
        }
        for (i, game) in (0..=count).zip(games.map(Some).chain([None])) {
            let y = head + i as f32 * row;
            scene.line(pt(0.0, y), pt(self.width, y), rule);
            if let Some(game) = game {
                let style = TextStyle::new(3.0).coloured(GREY);
                scene.styled_text(pt(1.2, y + row - 1.8), game.to_string(), style);
            }
        }
        let mut x = 0.0;
        for w in std::iter::once(0.0).chain(widths) {
            x += w;
            scene.line(pt(x, 0.0), pt(x, scene.height), rule);
        }
        scene.line(pt(0.0, 0.0), pt(self.width, 0.0), rule);
        scene
    }

    /// The learning curve: it fills what its page has left, or a page of its own
    /// (`page` mm) when that is less than [`CHART_MM`]; never taller than wide, so that
    /// pupils plot on cells large enough to hit.
    fn score_chart(&self, left: f32, page: f32) -> Scene {
        let s = strings(self.kit.language);
        let games = self.score.games;
        // A game that can be drawn has its draws marked on the chart too, and they can
        // climb with every game: the chart names both and its axis reaches the games.
        let (chart, axis_name, losses) = if self.game.can_draw() {
            (id::SCORE_CHART_DRAWS, id::SCORE_AXIS_LOSSES_DRAWS, games)
        } else {
            (id::SCORE_CHART, id::SCORE_AXIS_LOSSES, self.score.losses)
        };
        // A little under what is left, so that rounding cannot push it onto the next page.
        let room = if left - 0.5 >= CHART_MM {
            left - 0.5
        } else {
            page
        };
        let height = room.min(self.width).max(CHART_MM);
        let mut scene = Scene::new(self.width, height);
        let title = TextStyle::new(3.1).bold();
        scene.fitted_text(pt(0.0, 3.2), s.get(chart), title, self.width);
        // Under the chart, what a class does past the sheet's last game.
        let note_style = TextStyle::new(2.8);
        let note = wrap(
            &s.fill(id::SCORE_PAST, &[("games", &games.to_string())]),
            note_style.size,
            Weight::Regular,
            self.width,
            self.kit.language,
        );
        let note_line = note_style.size * 1.3;
        let note_h = note.len() as f32 * note_line + 1.5;
        for (i, line) in note.iter().enumerate() {
            let baseline = height - note_h + 1.5 + (i as f32 + 0.8) * note_line;
            scene.styled_text(pt(0.0, baseline), line.clone(), note_style);
        }
        // The plot starts low enough for the losses axis's name to clear the title.
        let plot = Rect {
            x: 9.0,
            y: 9.0,
            w: self.width - 12.0,
            h: height - 20.0 - note_h,
        };
        let faint = Stroke::solid([0xcc, 0xcc, 0xcc], 0.15);
        let axis = Stroke::solid(INK, 0.35);
        let label = TextStyle::new(2.4).anchored(Anchor::Middle);
        // A faint line for every game and loss while they stay 1.5 mm apart or more;
        // a number at every step that keeps them readable.
        let (games, game_grid, game_step) = chart_axis(games, plot.w);
        for g in (0..=games).filter(|g| g % game_grid == 0) {
            let x = plot.x + plot.w * g as f32 / games as f32;
            scene.line(pt(x, plot.y), pt(x, plot.y + plot.h), faint);
            if g % game_step == 0 {
                scene.styled_text(pt(x, plot.y + plot.h + 3.2), g.to_string(), label);
            }
        }
        let (losses, loss_grid, loss_step) = chart_axis(losses, plot.h);
        for l in (0..=losses).filter(|l| l % loss_grid == 0) {
            let y = plot.y + plot.h - plot.h * l as f32 / losses as f32;
            scene.line(pt(plot.x, y), pt(plot.x + plot.w, y), faint);
            if l % loss_step == 0 {
                scene.styled_text(pt(plot.x - 2.5, y + 0.9), l.to_string(), label);
            }
        }
        scene.line(pt(plot.x, plot.y), pt(plot.x, plot.y + plot.h), axis);
        scene.line(
            pt(plot.x, plot.y + plot.h),
            pt(plot.x + plot.w, plot.y + plot.h),
            axis,
        );
        let axis_text = TextStyle::new(2.8).anchored(Anchor::End);
        scene.styled_text(
            pt(plot.x + plot.w, plot.y + plot.h + 10.0),
            s.get(id::SCORE_AXIS_GAMES),
            axis_text,
        );
        scene.styled_text(
            pt(plot.x + 1.5, plot.y - 1.2),
            s.get(axis_name),
            TextStyle::new(2.8),
        );
        scene
    }

    fn index_row(&self, row: usize) -> Scene {
        let s = strings(self.kit.language);
        let cell_w = self.width / INDEX_ACROSS as f32;
        let mut scene = Scene::new(self.width, INDEX_ROW_MM);
        let boxes = self
            .set
            .boxes
            .iter()
            .skip(row * INDEX_ACROSS)
            .take(INDEX_ACROSS);
        for (i, b) in boxes.enumerate() {
            let x = i as f32 * cell_w;
            self.index_cell(&mut scene, b, x, cell_w, s);
        }
        scene
    }

    fn index_cell(
        &self,
        scene: &mut Scene,
        b: &MatchBox<G::Position, G::Move>,
        x: f32,
        cell_w: f32,
        s: &matchbox_engine::i18n::Strings,
    ) {
        let frame = Rect {
            x: x + 0.5,
            y: 0.0,
            w: cell_w - 1.0,
            h: INDEX_ROW_MM - 0.5,
        };
        let edge = draw_move_edge(scene, self.kit, &b.move_numbers, frame);
        let picture = INDEX_ROW_MM - 9.5 - edge;
        let area = Rect {
            x: x + 1.5 + edge,
            y: 0.5 + edge,
            w: cell_w - 3.0 - 2.0 * edge,
            h: picture - edge,
        };
        let moves = drawn_moves::<G>(self.kit, s, b);
        self.game.draw(&b.position, &moves, area, scene);
        let id = s.fill(id::LABEL_BOX, &[("id", &b.id.to_string())]);
        let centre = x + cell_w / 2.0;
        let style = TextStyle::new(2.8).bold().anchored(Anchor::Middle);
        scene.fitted_text(pt(centre, picture + 3.6), id, style, cell_w - 2.0);
        let style = TextStyle::new(2.4)
            .anchored(Anchor::Middle)
            .coloured([0x55, 0x55, 0x55]);
        let (moves_text, size) =
            fitted_tag(self.kit, b, tag_words(self.kit, b), style, cell_w - 2.0);
        scene.styled_text(
            pt(centre, picture + 7.0),
            moves_text,
            TextStyle { size, ..style },
        );
    }
}
