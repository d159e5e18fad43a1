//! The exact figures the teacher's sheet quotes, solved side by side.

use serde::Serialize;

use super::Refusal;
use super::chain::{Distribution, distribution_over};
use super::numbers::Figure;
use super::teaching::{Besides, Principle, Teaching};
use crate::game::{Notation, Rules};
use crate::machine::{Learner, Machine, Tree};
use matchbox_machine::OpponentKind;

/// The exact path's three problems: the chains against a perfect opponent and against
/// the one-move teacher, and what every opponent can do (the fastest teacher).
pub struct Solved {
    /// Against a perfect opponent.
    pub perfect: Distribution,
    /// Against the one-move-lookahead teacher.
    pub teacher: Distribution,
    /// Every opponent's worst and the fastest teacher.
    pub teaching: Teaching,
}

impl Solved {
    /// The three problems, independent, solved side by side on the cores; a refusal is
    /// the first in the order perfect, teacher, teaching. The two chains are in rationals
    /// where their states are few enough, if `rationals`, else in proven bounds; what
    /// else the caller needs of the fastest teacher is worked out beside it.
    pub fn all<G: Rules>(
        tree: &Tree<G>,
        machine: &Machine,
        rationals: bool,
        besides: Besides,
    ) -> Result<Solved, Refusal> {
        // The fastest teacher's problem, the largest, begins at once on this core; the
        // chains go to a core that is free.
        let (teaching, (perfect, teacher)) = crate::parallel::join(
            || Teaching::solve_with(tree, machine, besides),
            || {
                crate::parallel::join(
                    || distribution_over(tree, machine, OpponentKind::Perfect, true, rationals),
                    || distribution_over(tree, machine, OpponentKind::Teacher, true, rationals),
                )
            },
        );
        Ok(Solved {
            perfect: perfect?,
            teacher: teacher?,
            teaching: teaching?,
        })
    }
}

/// What the teacher's sheet quotes of the exact figures: whole numbers, so that every
/// language can print them as it writes numbers.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SheetFigures {
    /// Against a perfect opponent: losses and their chance in whole percent.
    pub perfect: Vec<(u32, u32)>,
    /// Mean games to learn against a perfect opponent, rounded.
    pub perfect_games: u32,
    /// Mean games against the one-move-lookahead teacher, rounded.
    pub teacher_games: u32,
    /// Mean games against the fastest teacher, rounded.
    pub fastest_games: u32,
    /// The losses under the fastest teacher, when they are always the same.
    pub fastest_losses: Option<u32>,
    /// Whether the fastest teacher makes the machine lose no more games than the luckiest
    /// machine loses against a perfect opponent.
    pub fewest_losses: bool,
    /// The fastest teacher's first moves from fresh beads, when it moves first, in the
    /// kit's words (as a page says them).
    pub first_moves: Vec<String>,
    /// The positions those first moves lead to, in the game's
    /// position notation (for a game whose move words are English, such as the stones left).
    pub first_positions: Vec<String>,
    /// Whether those first moves are all the first moves there are.
    pub any_first_move: bool,
    /// What the fastest teacher does, the principle the sheet words.
    pub principle: Principle,
    /// Most losses any opponent can inflict, draws as unlucky as can be.
    pub worst_losses: u32,
}

impl SheetFigures {
    /// The sheet's figures of a small kit, its moves in `words`' language, or `None`
    /// when the exact path does not apply.
    pub fn of<G: Notation>(
        game: &G,
        tree: &Tree<G>,
        machine: &Machine,
        words: &crate::i18n::Strings,
    ) -> Option<SheetFigures> {
        let Solved {
            perfect,
            teacher,
            teaching,
        } = Solved::all(tree, machine, false, Besides::Nothing).ok()?;
        let fastest = teaching.fastest();
        let rounded = |f: Option<&Figure>| f.map(|f| f.to_f64().round() as u32);
        let mut openings: Vec<(String, String)> = Vec::new();
        if tree.to_move(0) != machine.side {
            let fresh = Learner::new(machine);
            for child in teaching.moves(tree, 0, &fresh).ok()? {
                if let Some(m) = tree.move_to(0, child) {
                    openings.push((
                        game.say_move(&tree.positions[0], m, words),
                        game.format_position(&tree.positions[child as usize]),
                    ));
                }
            }
            openings.sort();
        }
        let any_first_move = !openings.is_empty() && openings.len() == tree.children(0).len();
        let (first_moves, first_positions) = openings.into_iter().unzip();
        Some(SheetFigures {
            perfect: perfect
                .losses
                .iter()
                .map(|(k, f)| (*k, (f.to_f64() * 100.0).round() as u32))
                .collect(),
            perfect_games: rounded(perfect.mean_games.as_ref())?,
            teacher_games: rounded(teacher.mean_games.as_ref())?,
            fastest_games: rounded(fastest.mean_games.as_ref())?,
            fastest_losses: (fastest.min_losses() == fastest.max_losses())
                .then(|| fastest.min_losses())
                .flatten(),
            fewest_losses: fastest.max_losses() <= perfect.min_losses(),
            first_moves,
            first_positions,
            any_first_move,
            principle: teaching.principle().clone(),
            worst_losses: teaching.worst_losses(),
        })
    }
}
