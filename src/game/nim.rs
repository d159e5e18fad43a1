//! Bachet's game, a one-pile nim: take one of the allowed counts of stones in turn.
//!
//! With `last_stone: wins` whoever takes the last stone wins; with `loses` they lose.
//! A player who cannot take any allowed count (fewer stones left than the smallest
//! count) has no move and loses.

use std::collections::BTreeMap;

/// The built-in kits of this game: Bachet's game: the matchbox machine and the relay automaton.
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "bachet",
        about: "Bachet's game: 8 stones, take 1 to 3, last stone wins; 7 boxes, tags I to IV",
        yaml: "game: nim\nstones: 8\ntake: [1, 2, 3]\nlast_stone: wins\nmachine: second\nbeads: 1\nrule: gardner\ntags: machine-move\nnumerals: roman\n",
    },
    Preset {
        name: "bachet-relay",
        about: "the relay automaton for Bachet's game: only some moves wired (7: 1 or 3, 6: 1 or 2, 5: 1)",
        yaml: "game: nim\nstones: 8\ntake: [1, 2, 3]\nlast_stone: wins\nmachine: second\nbeads: 1\nrule: relay\ntags: machine-move\nnumerals: roman\nallowed: {7: [1, 3], 6: [1, 2], 5: [1]}\n",
    },
];

use super::{
    Bound, Claim, DrawnMove, Game, Historic, Outcome, Side, Symmetry, as_in_the_articles,
    one_bead_each,
};
use crate::draw::scene::{Anchor, GREY, INK, Rect, Scene, Stroke, TextStyle, pt};
use crate::i18n::Strings;
use crate::instructions::drawings::{CAPTION, CUT};
use crate::kit::{Kit, Preset, Rule};

/// A one-pile nim game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nim {
    stones: u16,
    take: Vec<u16>,
    last_stone_wins: bool,
    wiring: BTreeMap<u16, Vec<u16>>,
}

/// A nim position: stones left and whose turn it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pile {
    /// Stones left (ordered first, so more stones sort after fewer).
    pub stones: u16,
    /// Whose turn it is.
    pub to_move: Side,
}

impl Nim {
    /// A pile of `stones` with the allowed counts `take` (positive, checked by the kit).
    pub fn new(stones: u16, mut take: Vec<u16>, last_stone_wins: bool) -> Nim {
        take.sort_unstable();
        take.dedup();
        Nim {
            stones,
            take,
            last_stone_wins,
            wiring: BTreeMap::new(),
        }
    }

    /// The same game with the machine's boxes wired for only some moves: stones left ->
    /// counts the box may take (the relay automaton).
    pub fn with_wiring(mut self, wiring: BTreeMap<u16, Vec<u16>>) -> Nim {
        self.wiring = wiring;
        self
    }

    /// The allowed counts, smallest first.
    pub fn take(&self) -> &[u16] {
        &self.take
    }
}

impl Game for Nim {
    type Position = Pile;
    type Move = u16;

    fn name(&self) -> &'static str {
        "nim"
    }

    fn start(&self) -> Pile {
        Pile {
            stones: self.stones,
            to_move: Side::First,
        }
    }

    fn to_move(&self, position: &Pile) -> Side {
        position.to_move
    }

    fn legal_moves(&self, position: &Pile, out: &mut Vec<u16>) {
        if self.outcome(position).is_none() {
            out.extend(self.take.iter().filter(|&&t| t <= position.stones));
        }
    }

    fn play(&self, position: &Pile, mv: u16) -> Pile {
        Pile {
            stones: position.stones - mv,
            to_move: position.to_move.other(),
        }
    }

    fn outcome(&self, position: &Pile) -> Option<Outcome> {
        let mover = position.to_move;
        if position.stones == 0 {
            // The player who just moved took the last stone.
            let taker = mover.other();
            let winner = if self.last_stone_wins { taker } else { mover };
            return Some(Outcome::Win(winner));
        }
        if self.take[0] > position.stones {
            return Some(Outcome::Win(mover.other()));
        }
        None
    }

    fn symmetry_count(&self) -> usize {
        1
    }

    fn transform(&self, position: &Pile, _symmetry: Symmetry) -> Pile {
        *position
    }

    fn transform_move(&self, mv: u16, _symmetry: Symmetry) -> u16 {
        mv
    }

    fn inverse(&self, symmetry: Symmetry) -> Symmetry {
        symmetry
    }

    fn describe_symmetry(&self, _symmetry: Symmetry) -> &'static str {
        "symmetry.as_drawn"
    }

    fn format_position(&self, position: &Pile) -> String {
        position.stones.to_string()
    }

    fn parse_position(&self, text: &str, to_move: Side) -> Result<Pile, String> {
        let stones: u16 = text.trim().parse().map_err(|_| {
            format!(
                "a nim position is the number of stones left, from 0 to {}",
                self.stones
            )
        })?;
        if stones > self.stones {
            return Err(format!(
                "this game starts with {} stones, so {stones} cannot occur",
                self.stones
            ));
        }
        Ok(Pile { stones, to_move })
    }

    fn format_move(&self, position: &Pile, mv: u16) -> String {
        format!("take {mv}, leave {}", position.stones - mv)
    }

    fn say_move(&self, position: &Pile, mv: u16, words: &Strings) -> String {
        let (take, leave) = (mv.to_string(), (position.stones - mv).to_string());
        words.fill("move.nim", &[("take", &take), ("leave", &leave)])
    }

    fn wired(&self, position: &Pile, mv: u16) -> bool {
        self.wiring
            .get(&position.stones)
            .is_none_or(|counts| counts.contains(&mv))
    }

    fn colour_slot(&self, _position: &Pile, mv: u16) -> Option<usize> {
        self.take.iter().position(|&t| t == mv)
    }

    fn relay_order(&self, mv: u16) -> u32 {
        u32::from(mv)
    }

    /// Bachet's game of 8 stones, taking 1 to 3: the matchbox machine of the Russian
    /// article, or its relay automaton.
    fn historic(&self, kit: &Kit) -> Option<Historic> {
        if self.stones != 8 || self.take != [1, 2, 3] {
            return None;
        }
        let described = self.last_stone_wins && as_in_the_articles(kit);
        let source = "the Russian magazine article on Bachet's game";
        Some(if kit.rule == Rule::Relay {
            let wiring = BTreeMap::from([(7, vec![1, 3]), (6, vec![1, 2]), (5, vec![1])]);
            Historic {
                name: "relay",
                claim: (described && self.wiring == wiring).then_some(Claim {
                    source,
                    text: "the relay automaton learns after exactly 6 lost games",
                    bound: Bound::Exactly(6),
                    games: None,
                }),
            }
        } else {
            let matchboxes = kit.rule == Rule::Gardner && one_bead_each(kit);
            Historic {
                name: "bachet",
                claim: (described && matchboxes && self.wiring.is_empty()).then_some(Claim {
                    source,
                    text: "the 8-stone Bachet machine loses at most 12 games",
                    bound: Bound::AtMost(12),
                    games: None,
                }),
            }
        })
    }

    fn can_draw(&self) -> bool {
        false
    }

    fn template_vars(&self) -> minijinja::Value {
        minijinja::context! {
            stones => self.stones,
            take => self.take.clone(),
            last_stone_wins => self.last_stone_wins,
        }
    }

    const EXAMPLE_CELL_MM: f32 = 8.0;

    /// A pile is drawn wider than high.
    fn picture_size(&self, cell: f32) -> (f32, f32) {
        (cell * 5.0, cell * 3.6)
    }

    /// The stones to cut out: at most 60 are drawn; a bigger pile is better played
    /// with coins.
    fn cut_outs(&self, width: f32, _max_height: f32, words: &Strings) -> Scene {
        let n = usize::from(self.stones).min(60);
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
        let text = words.fill("board.stones", &[("n", &self.stones.to_string())]);
        let style = TextStyle::new(CAPTION).anchored(Anchor::Middle);
        scene.fitted_text(
            pt(width / 2.0, rows as f32 * size + 6.0),
            text,
            style,
            width,
        );
        scene
    }

    /// The stones left, circled at the top, with a row of stones beneath; then one arrow
    /// per move fanning out, marked with the count taken and pointing at the count left.
    fn draw(&self, position: &Pile, moves: &[DrawnMove<u16>], area: Rect, scene: &mut Scene) {
        let unit = area.h.min(area.w * 0.8);
        let centre_x = area.x + area.w / 2.0;
        let circle_r = unit * 0.15;
        let top = pt(centre_x, area.y + circle_r + unit * 0.01);
        scene.circle(top, circle_r, None, Some(Stroke::solid(INK, unit * 0.022)));
        let count = position.stones.to_string();
        let size = circle_r * if count.len() > 2 { 0.95 } else { 1.3 };
        scene.styled_text(
            pt(top.x, top.y + size * 0.36),
            count,
            TextStyle::new(size).bold().anchored(Anchor::Middle),
        );

        // A row of stones when they fit legibly; a larger pile is shown by its number alone.
        let mut y = top.y + circle_r + unit * 0.02;
        let stone_r = (area.w * 0.9 / (f32::from(position.stones.max(1)) * 2.5)).min(unit * 0.035);
        if stone_r > unit * 0.012 {
            let pitch = stone_r * 2.5;
            let first = centre_x - (f32::from(position.stones) - 1.0) * pitch / 2.0;
            for i in 0..position.stones {
                let c = pt(first + f32::from(i) * pitch, y + stone_r);
                scene.circle(
                    c,
                    stone_r,
                    Some(GREY),
                    Some(Stroke::solid(INK, stone_r * 0.2)),
                );
            }
            y += stone_r * 2.0;
        }

        let left_size = unit * 0.13;
        let start = pt(centre_x, y + unit * 0.04);
        let end_y = area.y + area.h - left_size * 1.15;
        let slot = area.w / moves.len().max(1) as f32;
        let tag_r = (unit * 0.06).min(slot * 0.16);
        for (i, m) in moves.iter().enumerate() {
            let x = area.x + slot * (i as f32 + 0.5);
            let end = pt(x, end_y);
            scene.arrow(start, end, m.colour, unit * 0.022);
            let along = |t: f32| pt(start.x + (x - start.x) * t, start.y + (end_y - start.y) * t);
            scene.bead_tag(along(0.42), tag_r, m.colour, &m.code);
            // The count taken sits beside the arrow's lower part, on its outer side.
            let low = along(0.8);
            let (at_x, anchor) = if x < centre_x - 0.1 {
                (low.x - unit * 0.05, Anchor::End)
            } else {
                (low.x + unit * 0.05, Anchor::Start)
            };
            scene.styled_text(
                pt(at_x, low.y + unit * 0.03),
                format!("−{}", m.mv),
                TextStyle::new(unit * 0.11)
                    .bold()
                    .coloured(m.colour)
                    .anchored(anchor),
            );
            scene.styled_text(
                pt(x, end_y + left_size * 1.05),
                (position.stones - m.mv).to_string(),
                TextStyle::new(left_size).anchored(Anchor::Middle),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_the_allowed_counts_that_fit() {
        let game = Nim::new(8, vec![3, 1, 2, 2], true);
        let mut out = Vec::new();
        game.legal_moves(
            &Pile {
                stones: 2,
                to_move: Side::First,
            },
            &mut out,
        );
        assert_eq!(out, [1, 2]);
        assert_eq!(game.take(), [1, 2, 3]);
    }

    #[test]
    fn taking_the_last_stone_wins_or_loses() {
        let empty = Pile {
            stones: 0,
            to_move: Side::Second,
        };
        let wins = Nim::new(8, vec![1, 2, 3], true);
        assert_eq!(wins.outcome(&empty), Some(Outcome::Win(Side::First)));
        let loses = Nim::new(8, vec![1, 2, 3], false);
        assert_eq!(loses.outcome(&empty), Some(Outcome::Win(Side::Second)));
    }

    #[test]
    fn a_player_who_cannot_take_loses() {
        let game = Nim::new(8, vec![2, 3], true);
        let one = Pile {
            stones: 1,
            to_move: Side::First,
        };
        assert_eq!(game.outcome(&one), Some(Outcome::Win(Side::Second)));
    }

    #[test]
    fn eight_stones_is_lost_for_the_first_player() {
        let game = Nim::new(8, vec![1, 2, 3], true);
        let mut memo = Default::default();
        assert_eq!(
            super::super::solve::value(&game, &game.start(), &mut memo),
            -1
        );
        let nine = Nim::new(9, vec![1, 2, 3], true);
        let mut memo = Default::default();
        assert_eq!(
            super::super::solve::value(&nine, &nine.start(), &mut memo),
            1
        );
    }
}
