//! How nim is drawn: the heaps with the machine's takes, and the stones a class cuts out.

use matchbox_engine::game::Rules;
use matchbox_engine::game::nim::{Nim, Pile, Take};
use matchbox_engine::i18n::Strings;
use matchbox_engine::i18n::{Id, id};

use super::{CAPTION, CUT};
use super::{DrawnMove, Picture, disc_centres};
use crate::draw::fonts::fit;
use crate::draw::scene::{
    Anchor, GREY, INK, Pt, Rect, Scene, Stroke, TextStyle, Weight, legible_radius, pt,
};

/// The row of stones of a single heap as drawn in `area`.
struct StoneRow {
    first: crate::draw::scene::Pt,
    pitch: f32,
    radius: f32,
}

impl StoneRow {
    /// The row of `stones` stones, if they fit legibly (a larger pile is drawn as its
    /// number alone).
    fn of(stones: u16, area: Rect) -> Option<StoneRow> {
        let unit = area.h.min(area.w * 0.8);
        let y = StoneRow::top(area);
        let radius = (area.w * 0.9 / (f32::from(stones.max(1)) * 2.5)).min(unit * 0.035);
        let pitch = radius * 2.5;
        let centre_x = area.x + area.w / 2.0;
        (radius > unit * 0.012).then(|| StoneRow {
            first: pt(
                centre_x - (f32::from(stones) - 1.0) * pitch / 2.0,
                y + radius,
            ),
            pitch,
            radius,
        })
    }

    /// The top of the row, as `draw` places it: below the circle with the count.
    fn top(area: Rect) -> f32 {
        let unit = area.h.min(area.w * 0.8);
        let circle_r = unit * 0.15;
        area.y + circle_r + unit * 0.01 + circle_r + unit * 0.02
    }

    /// The centre of stone `i`, from the left.
    fn centre(&self, i: u16) -> crate::draw::scene::Pt {
        pt(self.first.x + f32::from(i) * self.pitch, self.first.y)
    }
}

impl Picture for Nim {
    /// The first stone the move takes (on several heaps, as a label marks it): on one
    /// heap, "take this stone and those to its right", the whole column of the stone.
    /// A pile drawn by its number alone has no stones to touch: its moves are the
    /// places below the number where a label's arrows end, left to right.
    fn move_spots(&self, position: &Pile, mv: Take, area: Rect) -> Vec<Rect> {
        if self.several() {
            let rows = self.rows(area);
            let left = position.heaps[usize::from(mv.heap)];
            let centre = rows.stone(area, usize::from(mv.heap), left - mv.count);
            let half = rows.pitch / 2.0;
            return vec![Rect {
                x: centre.x - half,
                y: centre.y - half,
                w: rows.pitch,
                h: rows.pitch,
            }];
        }
        if let Some(row) = StoneRow::of(position.stones(), area) {
            let centre = row.centre(position.stones() - mv.count);
            return vec![Rect {
                x: centre.x - row.pitch / 2.0,
                y: centre.y - row.pitch / 2.0,
                w: row.pitch,
                h: row.pitch * 2.0,
            }];
        }
        let mut moves = Vec::new();
        self.legal_moves(position, &mut moves);
        let slot = area.w / moves.len().max(1) as f32;
        let i = moves.iter().position(|&m| m == mv).unwrap_or(0);
        let top = StoneRow::top(area);
        vec![Rect {
            x: area.x + slot * i as f32,
            y: top,
            w: slot,
            h: area.y + area.h - top,
        }]
    }

    /// An arrow per move on one heap, a coloured stone on several.
    fn bead_line(&self) -> [Id; 2] {
        if self.several() {
            [id::LABEL_BEADS_NIM_HEAPS, id::LABEL_BEADS_SHORT_STONE]
        } else {
            [id::LABEL_BEADS_NIM, id::LABEL_BEADS_SHORT_ARROW]
        }
    }

    const EXAMPLE_CELL_MM: f32 = 8.0;

    /// A pile is drawn wider than high; heaps as rows of stones.
    fn picture_size(&self, cell: f32) -> (f32, f32) {
        if self.several() {
            let most = self.heaps().iter().copied().max().unwrap_or(1);
            (
                cell * (f32::from(most) + 1.5),
                cell * self.heaps().len() as f32,
            )
        } else {
            (cell * 5.0, cell * 3.6)
        }
    }

    /// The stones to cut out: at most 60 are drawn; a bigger pile is better played
    /// with coins.
    fn cut_outs(&self, width: f32, _max_height: f32, words: &Strings) -> Scene {
        let n = usize::from(self.stones()).min(60);
        let size = 18.0;
        let across = (width / size).floor() as usize;
        let rows = n.div_ceil(across);
        let mut scene = Scene::new(width, rows as f32 * size + 10.0);
        let x0 = (width - across.min(n) as f32 * size) / 2.0;
        for i in 0..n {
            let r = Rect {
                x: x0 + (i % across) as f32 * size,
                y: (i / across) as f32 * size,
                w: size,
                h: size,
            };
            scene.rect(r, None, Some(CUT));
            scene.circle(
                r.centre(),
                size * 0.38,
                Some([0xb8, 0xb8, 0xb8]),
                Some(Stroke::solid(INK, 0.3)),
            );
        }
        let text = words.fill(id::BOARD_STONES, &[("n", &self.stones().to_string())]);
        let style = TextStyle::new(CAPTION).anchored(Anchor::Middle);
        scene.fitted_text(
            pt(width / 2.0, rows as f32 * size + 6.0),
            text,
            style,
            width,
        );
        scene
    }

    /// One heap: the stones left, circled at the top, with a row of stones beneath; then
    /// one arrow per move fanning out, marked with the count taken and pointing at the
    /// count left. Several heaps: see `Nim::draw_heaps`.
    fn draw(&self, position: &Pile, moves: &[DrawnMove<Take>], area: Rect, scene: &mut Scene) {
        if self.several() {
            return self.draw_heaps(position, moves, area, scene);
        }
        let stones = position.stones();
        let unit = area.h.min(area.w * 0.8);
        let centre_x = area.x + area.w / 2.0;
        let circle_r = unit * 0.15;
        let top = pt(centre_x, area.y + circle_r + unit * 0.01);
        scene.circle(top, circle_r, None, Some(Stroke::solid(INK, unit * 0.022)));
        let count = stones.to_string();
        // Two digits fill the circle; more are set smaller to stay inside it.
        let size = fit(&count, circle_r * 1.3, Weight::Bold, circle_r * 1.85);
        scene.styled_text(
            pt(top.x, top.y + size * 0.36),
            count,
            TextStyle::new(size).bold().anchored(Anchor::Middle),
        );

        // A row of stones when they fit legibly; a larger pile is shown by its number alone.
        let mut y = top.y + circle_r + unit * 0.02;
        if let Some(row) = StoneRow::of(stones, area) {
            for i in 0..stones {
                scene.circle(
                    row.centre(i),
                    row.radius,
                    Some(GREY),
                    Some(Stroke::solid(INK, row.radius * 0.2)),
                );
            }
            y += row.radius * 2.0;
        }

        let left_size = unit * 0.13;
        let start = pt(centre_x, y + unit * 0.04);
        let end_y = area.y + area.h - left_size * 1.15;
        let slot = area.w / moves.len().max(1) as f32;
        let tag_r = (unit * 0.06).min(slot * 0.16);
        // Large enough for its letters to be read, while the arrows stay apart.
        let tag_r = |code: &str| tag_r.max(legible_radius(code)).min(slot * 0.3);
        let arrows: Vec<_> = moves
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let end = pt(area.x + slot * (i as f32 + 0.5), end_y);
                (start, end, 0.42, tag_r(&m.code))
            })
            .collect();
        let discs = disc_centres(&arrows, area);
        for (i, m) in moves.iter().enumerate() {
            let x = area.x + slot * (i as f32 + 0.5);
            let end = pt(x, end_y);
            scene.arrow(start, end, m.colour, unit * 0.022);
            let along = |t: f32| pt(start.x + (x - start.x) * t, start.y + (end_y - start.y) * t);
            let (corner, anchor) = count_corner(start, end, along(0.72), centre_x, unit);
            scene.styled_text(
                corner,
                format!("−{}", m.mv.count),
                TextStyle::new(unit * 0.11)
                    .bold()
                    .coloured(m.colour)
                    .anchored(anchor),
            );
            scene.styled_text(
                pt(x, end_y + left_size * 1.05),
                (stones - m.mv.count).to_string(),
                TextStyle::new(left_size).anchored(Anchor::Middle),
            );
        }
        // The discs after every arrow, so that no arrow is drawn over a letter.
        for ((m, at), (_, _, _, r)) in moves.iter().zip(discs).zip(arrows) {
            scene.bead_tag(at, r, m.colour, &m.code);
        }
    }
}

/// Where the count taken sits beside its arrow from `start` to `end`: by the arrow's
/// lower part (`low`), on its outer side and above it. The text's lower inner corner is
/// set off the arrow square to it, so that the whole text stays clear of the arrow and
/// its head; beside a straight-down arrow, to its right.
fn count_corner(start: Pt, end: Pt, low: Pt, centre_x: f32, unit: f32) -> (Pt, Anchor) {
    let (dx, dy) = (end.x - start.x, end.y - start.y);
    let length = dx.hypot(dy).max(f32::EPSILON);
    let off = unit * 0.045;
    if end.x < centre_x - 0.1 {
        (
            pt(low.x - dy / length * off, low.y + dx / length * off),
            Anchor::End,
        )
    } else if end.x > centre_x + 0.1 {
        (
            pt(low.x + dy / length * off, low.y - dx / length * off),
            Anchor::Start,
        )
    } else {
        (pt(low.x + unit * 0.05, low.y + unit * 0.03), Anchor::Start)
    }
}

/// How several heaps are laid out in an area: a row per heap, its count at the left.
struct Rows {
    /// Height of a row.
    height: f32,
    /// Width of the counts' column.
    count_w: f32,
    /// From one stone's centre to the next.
    pitch: f32,
}

impl Rows {
    /// The centre of stone `i` (from the left) of row `heap`.
    fn stone(&self, area: Rect, heap: usize, i: u16) -> crate::draw::scene::Pt {
        pt(
            area.x + self.count_w + self.pitch * (f32::from(i) + 0.5),
            area.y + self.height * (heap as f32 + 0.5),
        )
    }
}

/// The layout of several heaps, which only their pictures need.
trait HeapRows {
    fn rows(&self, area: Rect) -> Rows;
    fn draw_heaps(&self, position: &Pile, moves: &[DrawnMove<Take>], area: Rect, scene: &mut Scene);
}

impl HeapRows for Nim {
    /// The rows of several heaps in `area`, sized for the largest heap at the start.
    fn rows(&self, area: Rect) -> Rows {
        let most = f32::from(self.heaps().iter().copied().max().unwrap_or(1));
        let height = area.h / self.heaps().len() as f32;
        let count_w = height.min(area.w * 0.16);
        Rows {
            height,
            count_w,
            pitch: ((area.w - count_w) / most).min(height * 1.1),
        }
    }

    /// Several heaps: one row of stones per heap, its count at the left. A move is a
    /// stone in the bead's colour, with the bead's letter: take that stone and every
    /// stone to its right.
    fn draw_heaps(
        &self,
        position: &Pile,
        moves: &[DrawnMove<Take>],
        area: Rect,
        scene: &mut Scene,
    ) {
        let rows = self.rows(area);
        let r = rows.pitch * 0.42;
        for (heap, &left) in position.heaps[..self.heaps().len()].iter().enumerate() {
            let y = area.y + rows.height * (heap as f32 + 0.5);
            scene.styled_text(
                pt(area.x + rows.count_w * 0.5, y + rows.height * 0.18),
                left.to_string(),
                TextStyle::new(rows.height * 0.5)
                    .bold()
                    .anchored(Anchor::Middle),
            );
            for i in 0..left {
                let centre = rows.stone(area, heap, i);
                let taken_from_here = moves
                    .iter()
                    .find(|m| usize::from(m.mv.heap) == heap && m.mv.count == left - i);
                match taken_from_here {
                    // The example game's move has no letter: a stone in its colour.
                    Some(m) if m.code.is_empty() => scene.circle(
                        centre,
                        r * 0.8,
                        Some(m.colour),
                        Some(Stroke::solid(INK, r * 0.12)),
                    ),
                    Some(m) => scene.bead_tag(centre, r, m.colour, &m.code),
                    None => scene.circle(
                        centre,
                        r * 0.8,
                        Some(GREY),
                        Some(Stroke::solid(INK, r * 0.12)),
                    ),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::fonts::text_width;
    use crate::draw::scene::{SMALLEST_LETTER_MM, Shape};
    use crate::label::smallest_letter;
    use matchbox_engine::game::Side;

    /// One heap of `stones` with the machine's three takes, drawn on a matchbox label's
    /// picture area.
    fn heap(stones: u16) -> Scene {
        let game = Nim::new(vec![1000], vec![1, 2, 3], true);
        let pile = Pile {
            heaps: [stones, 0, 0, 0, 0],
            to_move: Side::Second,
        };
        let moves: Vec<DrawnMove<Take>> = [("R", [0xd0, 0x30, 0x30]), ("B", [0x30, 0x60, 0xc0])]
            .iter()
            .chain(&[("Y", [0xf0, 0xc0, 0x20])])
            .zip(1..)
            .map(|(&(code, colour), count)| DrawnMove {
                mv: Take { heap: 0, count },
                colour,
                code: code.to_string(),
            })
            .collect();
        let area = Rect {
            x: 0.0,
            y: 0.0,
            w: 48.4,
            h: 27.5,
        };
        let mut scene = Scene::new(area.w, area.h);
        game.draw(&pile, &moves, area, &mut scene);
        scene
    }

    /// Whether two places do not overlap (touching allowed).
    fn apart(a: &Rect, b: &Rect) -> bool {
        let e = 1e-3;
        a.x + a.w <= b.x + e || b.x + b.w <= a.x + e || a.y + a.h <= b.y + e || b.y + b.h <= a.y + e
    }

    #[test]
    fn every_take_of_a_heap_drawn_or_not_is_touched_at_a_place_of_its_own() {
        let area = Rect {
            x: 8.0,
            y: 8.0,
            w: 84.0,
            h: 84.0,
        };
        for (stones, drawn) in [(8, true), (30, true), (100, false), (1000, false)] {
            let game = Nim::new(vec![stones], vec![1, 2, 3, 7], true);
            let pile = Pile {
                heaps: [stones, 0, 0, 0, 0],
                to_move: Side::First,
            };
            assert_eq!(StoneRow::of(stones, area).is_some(), drawn, "{stones}");
            let mut moves = Vec::new();
            game.legal_moves(&pile, &mut moves);
            let spots: Vec<Rect> = moves
                .iter()
                .flat_map(|&mv| game.move_spots(&pile, mv, area))
                .collect();
            assert_eq!(spots.len(), 4, "{stones}: one place per take");
            // Drawn, a take is "this stone and those to its right": more starts further left.
            let x: Vec<f32> = spots.iter().map(|s| s.x).collect();
            assert!(
                x.windows(2).all(|w| (w[0] > w[1]) == drawn),
                "{stones}: {x:?}"
            );
            for (i, a) in spots.iter().enumerate() {
                let inside = a.x >= area.x
                    && a.y >= area.y
                    && a.x + a.w <= area.x + area.w + 1e-3
                    && a.y + a.h <= area.y + area.h + 1e-3;
                assert!(inside && a.w > 1.0 && a.h > 1.0, "{stones}: {a:?}");
                for b in &spots[i + 1..] {
                    assert!(apart(a, b), "{stones}: {a:?} {b:?}");
                }
            }
        }
    }

    #[test]
    fn a_heap_too_long_for_its_stones_is_its_count_inside_the_circle() {
        for (stones, stones_drawn) in [(12, 12), (100, 0), (999, 0), (1000, 0)] {
            let scene = heap(stones);
            let circles: Vec<f32> = scene
                .shapes
                .iter()
                .filter_map(|s| match s {
                    Shape::Circle { radius, .. } => Some(*radius),
                    _ => None,
                })
                .collect();
            // The count's circle, a disc per move, and the stones that fit.
            assert_eq!(circles.len(), 1 + 3 + stones_drawn, "{stones} stones");
            let count = scene
                .shapes
                .iter()
                .find_map(|s| match s {
                    Shape::Text {
                        text, size, weight, ..
                    } if *text == stones.to_string() => Some(text_width(text, *size, *weight)),
                    _ => None,
                })
                .unwrap();
            assert!(count < circles[0] * 1.9, "{stones}: {count:.2} mm wide");
            let smallest = smallest_letter(&scene).unwrap();
            assert!(smallest >= SMALLEST_LETTER_MM, "{stones}: {smallest:.2} mm");
        }
    }
}
