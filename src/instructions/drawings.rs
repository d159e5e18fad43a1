//! The drawings of the instruction pages: the starting position, an example game, a
//! sample label, the score sheet's table and chart, the board and pieces to cut out,
//! and the rows of the box index.

use super::layout::wrap;
use crate::Error;
use crate::boxes::{BoxSet, MatchBox, tag};
use crate::draw::label::{draw_label, draw_move_edge, drawn_moves};
use crate::draw::scene::{Anchor, GREY, INK, Rect, Scene, Stroke, TextStyle, WHITE, Weight, pt};
use crate::game::{DrawnMove, Game, Outcome};
use crate::i18n::strings;
use crate::kit::{GameSpec, Kit};

const CAPTION: f32 = 3.2;
const INDEX_ACROSS: usize = 6;
const INDEX_ROW_MM: f32 = 31.0;
const SCORE_ROWS: usize = 20;

/// Draws the figures of one kit's instructions.
pub struct Figures<'a, G: Game> {
    game: &'a G,
    kit: &'a Kit,
    set: &'a BoxSet<G>,
    width: f32,
}

impl<'a, G: Game> Figures<'a, G> {
    /// Figures for a kit, at most `width` mm wide (the text column).
    pub fn new(game: &'a G, kit: &'a Kit, set: &'a BoxSet<G>, width: f32) -> Self {
        Figures {
            game,
            kit,
            set,
            width,
        }
    }

    /// Rows of the box index.
    pub fn index_rows(&self) -> usize {
        self.set.boxes.len().div_ceil(INDEX_ACROSS)
    }

    /// The figure called `name`, at most `max_height` mm tall.
    pub fn draw(&self, name: &str, max_height: f32) -> Result<Scene, Error> {
        match name {
            "start" => Ok(self.start()),
            "example" => Ok(self.example()),
            "label" => Ok(self.label()),
            "score-table" => Ok(self.score_table()),
            "score-chart" => Ok(self.score_chart()),
            "board" => Ok(self.board(max_height)),
            _ => name
                .strip_prefix("index-")
                .and_then(|row| row.parse::<usize>().ok())
                .filter(|row| *row < self.index_rows())
                .map(|row| self.index_row(row))
                .ok_or_else(|| {
                    Error::Internal(format!("a template asks for an unknown figure `{name}`"))
                }),
        }
    }

    fn caption(&self, scene: &mut Scene, at_y: f32, text: &str) {
        let style = TextStyle::new(CAPTION)
            .anchored(Anchor::Middle)
            .coloured([0x55, 0x55, 0x55]);
        scene.fitted_text(pt(scene.width / 2.0, at_y), text, style, scene.width);
    }

    /// The size a position is drawn at: boards by their cells, a nim pile wider.
    fn picture_size(&self, cell: f32) -> (f32, f32) {
        match &self.kit.game {
            GameSpec::Hexapawn { rows, cols } => (cell * f32::from(*cols), cell * f32::from(*rows)),
            GameSpec::Nim { .. } => (cell * 5.0, cell * 3.6),
            GameSpec::TicTacToe => (cell * 3.0, cell * 3.0),
        }
    }

    fn start(&self) -> Scene {
        let cell = (self.width * 0.45 / 8.0).clamp(9.0, 14.0);
        let (w, h) = self.picture_size(cell);
        let mut scene = Scene::new(self.width, h + CAPTION * 2.2);
        let area = Rect {
            x: (self.width - w) / 2.0,
            y: 0.0,
            w,
            h,
        };
        self.game.draw(&self.game.start(), &[], area, &mut scene);
        let text = strings(self.kit.language).get("figure.start").to_string();
        self.caption(&mut scene, h + CAPTION * 1.6, &text);
        scene
    }

    /// A short game in which each side takes a win when it sees one, avoids handing
    /// the opponent a win at once, and otherwise plays its first move.
    fn example_line(&self) -> Vec<(G::Position, G::Move)> {
        let game = self.game;
        let mut position = game.start();
        let mut line = Vec::new();
        let mut moves = Vec::new();
        while game.outcome(&position).is_none() && line.len() < 10 {
            moves.clear();
            game.legal_moves(&position, &mut moves);
            let me = game.to_move(&position);
            let wins =
                |m: &G::Move| game.outcome(&game.play(&position, *m)) == Some(Outcome::Win(me));
            let safe = |m: &G::Move| {
                let next = game.play(&position, *m);
                let mut replies = Vec::new();
                game.legal_moves(&next, &mut replies);
                !replies
                    .iter()
                    .any(|r| game.outcome(&game.play(&next, *r)) == Some(Outcome::Win(me.other())))
            };
            let Some(&mv) = moves
                .iter()
                .find(|m| wins(m))
                .or_else(|| moves.iter().find(|m| safe(m)))
                .or(moves.first())
            else {
                break;
            };
            line.push((position.clone(), mv));
            position = game.play(&position, mv);
        }
        line
    }

    fn example(&self) -> Scene {
        let s = strings(self.kit.language);
        let line = self.example_line();
        let frames = line.len() + 1;
        let gap = 5.0;
        // As large as allowed, but small enough for the game to take two rows at most.
        let largest: f32 = match self.kit.game {
            GameSpec::Nim { .. } => 8.0,
            _ => 7.5,
        };
        let (unit_w, _) = self.picture_size(1.0);
        let per_row = frames.div_ceil(2) as f32;
        let cell = largest.min(((self.width + gap) / per_row - gap) / unit_w);
        let (w, h) = self.picture_size(cell);
        let across = ((self.width + gap) / (w + gap)).floor().max(1.0) as usize;
        let rows = frames.div_ceil(across);
        let row_h = h + CAPTION * 2.4;
        let mut scene = Scene::new(self.width, CAPTION * 2.0 + rows as f32 * row_h);
        let title = TextStyle::new(CAPTION * 1.1).bold();
        scene.styled_text(pt(0.0, CAPTION), s.get("figure.example"), title);
        let last = line.last().map(|(p, m)| self.game.play(p, *m));
        for i in 0..frames {
            let (x, y) = (
                (i % across) as f32 * (w + gap),
                CAPTION * 2.0 + (i / across) as f32 * row_h,
            );
            let area = Rect { x, y, w, h };
            let caption = match line.get(i) {
                Some((position, mv)) => {
                    let arrow = DrawnMove {
                        mv: *mv,
                        colour: INK,
                        code: String::new(),
                    };
                    self.game.draw(position, &[arrow], area, &mut scene);
                    s.fill("figure.move", &[("n", &(i + 1).to_string())])
                }
                None => {
                    if let Some(end) = &last {
                        self.game.draw(end, &[], area, &mut scene);
                    }
                    "✓".to_string()
                }
            };
            let style = TextStyle::new(CAPTION).anchored(Anchor::Middle);
            scene.fitted_text(
                pt(x + w / 2.0, y + h + CAPTION * 1.4),
                caption,
                style,
                w + gap,
            );
        }
        scene
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
            let label = draw_label(self.game, self.kit, b);
            let x = (self.width - lw) / 2.0;
            scene.place(&label, x, 0.0);
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
        let text = strings(self.kit.language).get("figure.label").to_string();
        self.caption(&mut scene, lh + CAPTION * 1.6, &text);
        scene
    }

    fn score_table(&self) -> Scene {
        let s = strings(self.kit.language);
        let row = 6.4;
        let widths = [0.12, 0.26, 0.34, 0.28].map(|f| f * self.width);
        let mut scene = Scene::new(self.width, row * (SCORE_ROWS as f32 + 1.6));
        let head = row * 1.6;
        let rule = Stroke::solid(GREY, 0.25);
        let heads = ["score.game", "score.winner", "score.change", "score.losses"];
        let mut x = 0.0;
        for (key, w) in heads.iter().zip(widths) {
            // Two lines at most; a longer heading is shrunk to fit.
            let style = TextStyle::new(2.7).bold();
            let lines = wrap(s.get(key), style.size, Weight::Bold, w - 2.4);
            let (first, second) = match lines.as_slice() {
                [one] => (None, one.clone()),
                [one, rest @ ..] => (Some(one.clone()), rest.join(" ")),
                [] => (None, String::new()),
            };
            if let Some(first) = first {
                scene.fitted_text(pt(x + 1.2, head - 5.0), first, style, w - 2.4);
            }
            scene.fitted_text(pt(x + 1.2, head - 1.8), second, style, w - 2.4);
            x += w;
        }
        for i in 0..=SCORE_ROWS {
            let y = head + i as f32 * row;
            scene.line(pt(0.0, y), pt(self.width, y), rule);
            if i < SCORE_ROWS {
                let style = TextStyle::new(3.0).coloured(GREY);
                scene.styled_text(pt(1.2, y + row - 1.8), (i + 1).to_string(), style);
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

    fn score_chart(&self) -> Scene {
        let s = strings(self.kit.language);
        let (games, losses) = (40, 20);
        let height = 78.0;
        let mut scene = Scene::new(self.width, height);
        let title = TextStyle::new(3.1).bold();
        scene.fitted_text(pt(0.0, 3.2), s.get("score.chart"), title, self.width);
        let plot = Rect {
            x: 9.0,
            y: 7.0,
            w: self.width - 12.0,
            h: height - 18.0,
        };
        let faint = Stroke::solid([0xcc, 0xcc, 0xcc], 0.15);
        let axis = Stroke::solid(INK, 0.35);
        let label = TextStyle::new(2.4).anchored(Anchor::Middle);
        for g in 0..=games {
            let x = plot.x + plot.w * g as f32 / games as f32;
            scene.line(pt(x, plot.y), pt(x, plot.y + plot.h), faint);
            if g % 5 == 0 {
                scene.styled_text(pt(x, plot.y + plot.h + 3.2), g.to_string(), label);
            }
        }
        for l in 0..=losses {
            let y = plot.y + plot.h - plot.h * l as f32 / losses as f32;
            scene.line(pt(plot.x, y), pt(plot.x + plot.w, y), faint);
            if l % 2 == 0 {
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
            pt(plot.x + plot.w, height - 1.0),
            s.get("score.axis_games"),
            axis_text,
        );
        scene.styled_text(
            pt(plot.x + 1.5, plot.y - 1.2),
            s.get("score.axis_losses"),
            TextStyle::new(2.8),
        );
        scene
    }

    fn board(&self, max_height: f32) -> Scene {
        let s = strings(self.kit.language);
        let cut = Stroke {
            colour: GREY,
            width: 0.2,
            dash: Some(1.2),
        };
        match &self.kit.game {
            GameSpec::Hexapawn { rows, cols } => {
                let (r, c) = (f32::from(*rows), f32::from(*cols));
                // The empty board to play on, and the starting position again, whose
                // occupied squares are cut out as the pieces.
                // The page's heading and a few lines of text take about 45 mm above.
                let cell = (self.width / c)
                    .min((max_height - 45.0) / (2.0 * r + 0.5))
                    .min(30.0);
                let (w, h) = (cell * c, cell * r);
                let mut scene = Scene::new(self.width, 2.0 * h + cell * 0.5 + 8.0);
                let left = (self.width - w) / 2.0;
                let board = Rect {
                    x: left,
                    y: 0.0,
                    w,
                    h,
                };
                self.game
                    .draw(&self.empty_position(), &[], board, &mut scene);
                let pieces = Rect {
                    y: h + cell * 0.5,
                    ..board
                };
                self.game.draw(&self.game.start(), &[], pieces, &mut scene);
                for row in [0.0, r - 1.0] {
                    for col in 0..*cols {
                        let square = Rect {
                            x: left + f32::from(col) * cell,
                            y: pieces.y + row * cell,
                            w: cell,
                            h: cell,
                        };
                        scene.rect(square, None, Some(cut));
                    }
                }
                let names = format!("{} / {}", s.get("board.black"), s.get("board.white"));
                let style = TextStyle::new(CAPTION).anchored(Anchor::Middle);
                scene.styled_text(pt(self.width / 2.0, pieces.y + h + 5.5), names, style);
                scene
            }
            GameSpec::TicTacToe => {
                let side = self.width.min(max_height - 60.0).min(120.0);
                let mut scene = Scene::new(self.width, side + 45.0);
                let left = (self.width - side) / 2.0;
                let grid = Rect {
                    x: left,
                    y: 0.0,
                    w: side,
                    h: side,
                };
                self.game.draw(&self.game.start(), &[], grid, &mut scene);
                // Five crosses and four noughts to cut out.
                let piece = 28.0;
                let total = 9.0 * piece;
                let scale = (self.width / total).min(1.0);
                let piece = piece * scale;
                let x0 = (self.width - 9.0 * piece) / 2.0;
                let mark = Stroke::solid(INK, piece * 0.08);
                for i in 0..9 {
                    let r = Rect {
                        x: x0 + i as f32 * piece,
                        y: side + 8.0,
                        w: piece,
                        h: piece,
                    };
                    scene.rect(r, Some(WHITE), Some(cut));
                    let c = r.centre();
                    let k = piece * 0.3;
                    if i < 5 {
                        scene.line(pt(c.x - k, c.y - k), pt(c.x + k, c.y + k), mark);
                        scene.line(pt(c.x - k, c.y + k), pt(c.x + k, c.y - k), mark);
                    } else {
                        scene.circle(c, k, None, Some(mark));
                    }
                }
                scene
            }
            GameSpec::Nim { stones, .. } => {
                // At most 60 stones are drawn; a bigger pile is better played with coins.
                let n = usize::from(*stones).min(60);
                let size = 18.0;
                let across = (self.width / size).floor() as usize;
                let rows = n.div_ceil(across);
                let mut scene = Scene::new(self.width, rows as f32 * size + 10.0);
                let x0 = (self.width - across.min(n) as f32 * size) / 2.0;
                for i in 0..n {
                    let r = Rect {
                        x: x0 + (i % across) as f32 * size,
                        y: (i / across) as f32 * size,
                        w: size,
                        h: size,
                    };
                    scene.rect(r, None, Some(cut));
                    scene.circle(
                        r.centre(),
                        size * 0.38,
                        Some([0xb8, 0xb8, 0xb8]),
                        Some(Stroke::solid(INK, 0.3)),
                    );
                }
                let text = s.fill("board.stones", &[("n", &stones.to_string())]);
                let style = TextStyle::new(CAPTION).anchored(Anchor::Middle);
                scene.fitted_text(
                    pt(self.width / 2.0, rows as f32 * size + 6.0),
                    text,
                    style,
                    self.width,
                );
                scene
            }
        }
    }

    /// The board with no pieces, as drawn by the game: every position has the pieces,
    /// so the empty board is the start with every piece lifted off.
    fn empty_position(&self) -> G::Position {
        let text: String = self
            .game
            .format_position(&self.game.start())
            .chars()
            .map(|c| if c == '/' { '/' } else { '.' })
            .collect();
        self.game
            .parse_position(&text, self.kit.machine)
            .unwrap_or_else(|_| self.game.start())
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
        s: &crate::i18n::Strings,
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
        let id = s.fill("label.box", &[("id", &b.id.to_string())]);
        let centre = x + cell_w / 2.0;
        let style = TextStyle::new(2.8).bold().anchored(Anchor::Middle);
        scene.fitted_text(pt(centre, picture + 3.6), id, style, cell_w - 2.0);
        let numbers = tag(
            &b.move_numbers,
            self.kit.machine,
            self.kit.tags,
            self.kit.numerals,
        );
        let moves_text = s.fill("index.moves", &[("tag", &numbers)]);
        let style = TextStyle::new(2.4)
            .anchored(Anchor::Middle)
            .coloured([0x55, 0x55, 0x55]);
        scene.fitted_text(pt(centre, picture + 7.0), moves_text, style, cell_w - 2.0);
    }
}
