//! The Markov chain of the bead states against a rule-following opponent, solved
//! backwards from the states with fewest beads: the distribution of losses and the mean
//! games before the machine has learnt.

use std::collections::BTreeMap;

use serde::Serialize;

use super::Refusal;
use super::lines::{Lines, Mover, Transitions, lines_fit};
use super::numbers::{Arithmetic, Bounds, Figure, Number, Rational, one, zero};
use super::states::States;
use crate::game::Rules;
use crate::i18n::{Said, id};
use crate::machine::{Machine, Tree};
use crate::rule::Rule;
use matchbox_machine::OpponentKind;

/// The exact figures against one opponent: how many games the machine loses, and plays,
/// before it can no longer lose.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Distribution {
    /// The opponent.
    pub opponent: OpponentKind,
    /// Bead states the machine can reach against it.
    pub states: usize,
    /// How the figures were computed.
    pub arithmetic: Arithmetic,
    /// Losses before the machine has learnt -> the chance of exactly that many.
    pub losses: BTreeMap<u32, Figure>,
    /// The chance that the machine never learns (it stays where the opponent never
    /// punishes it).
    pub never: Figure,
    /// The mean number of losses, when the machine learns for sure.
    pub mean_losses: Option<Figure>,
    /// The mean number of games, when the machine learns for sure.
    pub mean_games: Option<Figure>,
}

impl Distribution {
    /// The fewest losses with a chance above 0.
    pub fn min_losses(&self) -> Option<u32> {
        self.losses.keys().next().copied()
    }

    /// The most losses with a chance above 0.
    pub fn max_losses(&self) -> Option<u32> {
        self.losses.keys().next_back().copied()
    }

    /// Whether the machine learns for sure.
    pub fn certain(&self) -> bool {
        self.mean_games.is_some()
    }
}

/// The Markov chain of the states in `states` under `next`, solved backwards in the
/// arithmetic `N`: each group of states with equal beads on every core, once the
/// groups with fewer beads are solved (no game leads from a state to one of its group).
pub(super) fn solve_chain<N: Number>(
    states: &States,
    next: &[Transitions<N>],
    opponent: OpponentKind,
    arithmetic: Arithmetic,
) -> Distribution {
    use crate::parallel::prelude::*;
    let n = states.len();
    let mut solved: Vec<Learning<N>> = vec![Learning::default(); n];
    for level in states.levels() {
        let before = &solved;
        let learnt: Vec<Learning<N>> = level
            .par_iter()
            .map(|&s| Learning::of(s, states.learnt[s as usize], &next[s as usize], before))
            .collect();
        for (&s, learning) in level.iter().zip(learnt) {
            solved[s as usize] = learning;
        }
    }
    let fresh = &solved[0];
    Distribution::of(
        opponent,
        (n, arithmetic),
        &fresh.losses,
        &fresh.never,
        fresh.games.as_ref(),
    )
}

/// What the machine goes on to learn from one bead state.
#[derive(Clone)]
struct Learning<N> {
    /// The chance of each number of losses before it has learnt.
    losses: Vec<N>,
    /// The chance that it never learns.
    never: N,
    /// The mean number of games before it has learnt (`None` when it may never learn).
    games: Option<N>,
}

impl<N: Number> Default for Learning<N> {
    fn default() -> Self {
        Learning {
            losses: Vec::new(),
            never: zero::<N>(),
            games: None,
        }
    }
}

impl<N: Number> Learning<N> {
    /// From state `s` (`learnt`: the machine can no longer lose there), whose game leads
    /// as `next` says, the states it leads to solved in `solved`.
    fn of(s: u32, learnt: bool, next: &Transitions<N>, solved: &[Learning<N>]) -> Learning<N> {
        let mut here = Learning::default();
        if learnt {
            here.losses = vec![one::<N>()];
            here.games = Some(zero::<N>());
            return here;
        }
        if next.iter().all(|t| t.0 == s) {
            here.never = one::<N>();
            return here;
        }
        let leave = next
            .iter()
            .filter(|t| t.0 != s)
            .fold(zero::<N>(), |sum, t| sum.add(&t.2));
        let (mut lost, mut mean) = (zero::<N>(), Some(one::<N>().div(&leave)));
        for (t, loss, p) in next.iter().filter(|t| t.0 != s) {
            // The chance of going to `t`, given that the game leaves this state.
            let p = p.div(&leave);
            let t = &solved[*t as usize];
            let shift = usize::from(*loss);
            if here.losses.len() < t.losses.len() + shift {
                here.losses.resize(t.losses.len() + shift, zero::<N>());
            }
            for (k, q) in t.losses.iter().enumerate() {
                here.losses[k + shift] = here.losses[k + shift].add(&p.mul(q));
            }
            lost = lost.add(&p.mul(&t.never));
            mean = mean.zip(t.games.as_ref()).map(|(m, g)| m.add(&p.mul(g)));
        }
        here.never = lost;
        here.games = mean;
        here
    }
}

impl Distribution {
    /// The figures of the fresh beads, from their chance of each number of losses
    /// (`losses`, by number), of never learning and their mean games, over `states`
    /// solved in `arithmetic`.
    fn of<N: Number>(
        opponent: OpponentKind,
        (states, arithmetic): (usize, Arithmetic),
        losses: &[N],
        never: &N,
        games: Option<&N>,
    ) -> Distribution {
        let fresh: BTreeMap<u32, N> = losses
            .iter()
            .enumerate()
            .filter(|(_, q)| q.order(&zero::<N>()).is_gt())
            .map(|(k, q)| (k as u32, q.clone()))
            .collect();
        // The bounds a figure is known to keep: the fewest and most losses with a chance.
        let fewest = fresh.keys().next().map_or(0.0, |&k| f64::from(k));
        let most = fresh.keys().next_back().map_or(0.0, |&k| f64::from(k));
        let mean_losses = games.is_some().then(|| {
            fresh
                .iter()
                .map(|(k, q)| N::ratio(*k, 1).mul(q))
                .fold(zero::<N>(), |sum, x| sum.add(&x))
                .figure()
                .within(fewest, most)
        });
        Distribution {
            opponent,
            states,
            arithmetic,
            losses: fresh
                .iter()
                .map(|(k, q)| (*k, q.figure().within(0.0, 1.0)))
                .collect(),
            never: never.figure().within(0.0, 1.0),
            mean_losses,
            // A game lost is a game played.
            mean_games: games.map(|g| g.figure().within(fewest, f64::INFINITY)),
        }
    }
}

/// Refuses the rules whose bead states are not finite and shrinking.
pub(super) fn finite_rule(machine: &Machine) -> Result<(), Refusal> {
    match machine.rule {
        Rule::Gardner | Rule::Relay => Ok(()),
        rule => Err(Refusal(
            Said::new(id::CLI_VERIFY_REFUSAL_RULE_ADDS).word("rule", rule.word_key()),
        )),
    }
}

/// A loss that leaves the beads as they were (an empty box at the machine's first move)
/// repeats for ever: the losses have no bound, and the exact path does not cover it.
pub(super) fn shrinking(
    state: u32,
    mut ends: impl Iterator<Item = (u32, bool)>,
) -> Result<(), Refusal> {
    if ends.any(|t| t.0 == state && t.1) {
        return Err(Refusal(Said::new(id::CLI_VERIFY_REFUSAL_EMPTY_FIRST_BOX)));
    }
    Ok(())
}

/// Every bead state the machine can reach against a rule-following `opponent`, with the
/// lines of one game from each state that has not learnt.
pub(super) fn following<G: Rules>(
    tree: &Tree<G>,
    machine: &Machine,
    opponent: OpponentKind,
    lump: bool,
) -> Result<(States, Vec<Option<Lines>>), Refusal> {
    finite_rule(machine)?;
    lines_fit(tree, machine, Mover::Follows(opponent))?;
    States::discover(tree, machine, Mover::Follows(opponent), lump, |_, _| Ok(()))
}

/// The exact distribution of losses and games to learn against a rule-following opponent
/// (`random`, `perfect` or `teacher`): in rationals when the states are at most
/// [`crate::RATIONAL_STATES`], in proven bounds otherwise.
pub fn distribution<G: Rules>(
    tree: &Tree<G>,
    machine: &Machine,
    opponent: OpponentKind,
) -> Result<Distribution, Refusal> {
    distribution_over(tree, machine, opponent, true, true)
}

/// [`distribution`] in proven bounds however few the states: what a figure rounded for a
/// page needs, without the rationals' thousands of digits.
pub fn distribution_bounded<G: Rules>(
    tree: &Tree<G>,
    machine: &Machine,
    opponent: OpponentKind,
) -> Result<Distribution, Refusal> {
    distribution_over(tree, machine, opponent, true, false)
}

/// [`distribution`] over lumped states or, with `lump` off, over all of them; in
/// rationals where the states are few enough and `rationals` allows.
pub(super) fn distribution_over<G: Rules>(
    tree: &Tree<G>,
    machine: &Machine,
    opponent: OpponentKind,
    lump: bool,
    rationals: bool,
) -> Result<Distribution, Refusal> {
    let (states, lines) = following(tree, machine, opponent, lump)?;
    for (s, walk) in lines.iter().enumerate() {
        if let Some(walk) = walk {
            shrinking(s as u32, walk.end_steps())?;
        }
    }
    pub(super) fn chain<N: Number>(
        states: &States,
        lines: &[Option<Lines>],
        opponent: OpponentKind,
        arithmetic: Arithmetic,
    ) -> Distribution {
        let mut reach = Vec::new();
        let next: Vec<Transitions<N>> = lines
            .iter()
            .map(|l| {
                l.as_ref()
                    .map_or_else(Vec::new, |l| l.ends(&mut |_, _, _| {}, &mut reach, None).0)
            })
            .collect();
        solve_chain(states, &next, opponent, arithmetic)
    }
    Ok(if rationals && states.rational() {
        chain::<Rational>(&states, &lines, opponent, Arithmetic::Rational)
    } else {
        chain::<Bounds>(&states, &lines, opponent, Arithmetic::Interval)
    })
}
