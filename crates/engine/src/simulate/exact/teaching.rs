//! What every opponent can do: the worst case, the most expected losses and the fastest
//! teacher's strategy, with the principle of that strategy.

use rustc_hash::FxHashMap;
use serde::Serialize;

use super::Refusal;
use super::chain::{Distribution, finite_rule, shrinking, solve_chain};
use super::decision::{Goal, Work, decide, most_losses};
use super::lines::{Lines, Mover, Step, lines_fit};
use super::numbers::{Arithmetic, Bounds, Figure, Number, Rational};
use super::states::States;
use crate::Error;
use crate::game::Rules;
use crate::machine::{Learner, Machine, Node, Tree};
use crate::simulate::OpponentKind;

/// Every state's worth to the fastest teacher, in the arithmetic it was solved in.
enum Worths {
    Rational(Vec<Rational>),
    Interval(Vec<Bounds>),
}

/// What every opponent can do: the worst cases, and the fastest teacher's strategy.
pub struct Teaching {
    pub(super) states: States,
    /// Expected games to learn from each state under the fastest teacher.
    games: Worths,
    /// The most losses from the fresh beads, draws and opponent both against the machine.
    pub(super) worst: u32,
    /// The fastest teacher's figures from the fresh beads.
    pub(super) fastest: Distribution,
    /// The most expected losses, when worked out with the rest.
    most: Option<Result<Figure, Refusal>>,
    /// The principle of the fastest teacher's strategy, when worked out with the rest.
    principle: Option<Result<Principle, Refusal>>,
}

/// What is worked out beside the fastest teacher, side by side on the cores, when the
/// caller will ask for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Besides {
    /// Nothing more.
    Nothing,
    /// The most expected losses ([`Teaching::most_expected_losses`]).
    MostLosses,
    /// The principle of its strategy ([`Teaching::principle`]).
    Principle,
}

impl Teaching {
    /// Enumerates every bead state any opponent can bring the machine to and solves the
    /// decision problems over them.
    pub fn solve<G: Rules>(tree: &Tree<G>, machine: &Machine) -> Result<Teaching, Refusal> {
        Teaching::solve_over(tree, machine, true, Besides::Nothing)
    }

    /// [`Teaching::solve`] with `besides` worked out side by side on the cores.
    pub fn solve_with<G: Rules>(
        tree: &Tree<G>,
        machine: &Machine,
        besides: Besides,
    ) -> Result<Teaching, Refusal> {
        Teaching::solve_over(tree, machine, true, besides)
    }

    /// [`Teaching::solve_with`] over lumped states or, with `lump` off, over all of them.
    pub(super) fn solve_over<G: Rules>(
        tree: &Tree<G>,
        machine: &Machine,
        lump: bool,
        besides: Besides,
    ) -> Result<Teaching, Refusal> {
        finite_rule(machine)?;
        lines_fit(tree, machine, Mover::Free)?;
        let shrinks = |s, lines: &Lines| shrinking(s, lines.end_steps());
        let (mut states, lines) = States::discover(tree, machine, Mover::Free, lump, shrinks)?;
        // The ends of the games whose lines are too many to keep, for the worst case.
        let mut unkept = FxHashMap::default();
        for (s, walk) in lines.into_iter().enumerate() {
            if let Some(walk) = walk.and_then(|walk| states.keep(s as u32, walk)) {
                unkept.insert(s as u32, walk.end_steps().collect());
            }
        }
        /// The decision problems, then the fastest teacher's chain beside its principle
        /// (if `principle`), in the arithmetic `N`.
        fn solved<G: Rules, N: Number>(
            game: (&Tree<G>, &Machine),
            states: &States,
            (arithmetic, keep): (Arithmetic, fn(Vec<N>) -> Worths),
            principle: bool,
        ) -> Solution {
            let (games, next) = decide::<G, N>(game, states)?;
            let games = keep(games);
            let (fastest, principle) = crate::parallel::join(
                || solve_chain(states, &next, OpponentKind::OptimalTeacher, arithmetic),
                || principle.then(|| principle_over(game, states, &games)),
            );
            Ok((games, fastest, principle))
        }
        let game = (tree, machine);
        // The worst case needs no decision: it is worked out beside them.
        let (solution, (most, worst)) = crate::parallel::join(
            || {
                let principle = besides == Besides::Principle;
                if states.rational() {
                    let exact = (Arithmetic::Rational, Worths::Rational as fn(_) -> _);
                    solved::<G, Rational>(game, &states, exact, principle)
                } else {
                    let bounded = (Arithmetic::Interval, Worths::Interval as fn(_) -> _);
                    solved::<G, Bounds>(game, &states, bounded, principle)
                }
            },
            || {
                crate::parallel::join(
                    || (besides == Besides::MostLosses).then(|| most_expected(game, &states)),
                    || worst_losses(&states, &unkept),
                )
            },
        );
        let (games, fastest, principle) = solution?;
        Ok(Teaching {
            worst,
            states,
            games,
            fastest,
            most,
            principle,
        })
    }

    /// Bead states any opponent can bring the machine to.
    pub fn states(&self) -> usize {
        self.states.beads.len()
    }

    /// The most losses before the machine has learnt, its draws and the opponent both as
    /// unlucky for it as possible: a bound over every game.
    pub fn worst_losses(&self) -> u32 {
        self.worst
    }

    /// The most expected losses before the machine has learnt, its draws random and the
    /// opponent choosing every move to maximise them: a decision problem of its own over
    /// the same states, solved when asked (or before, by [`Teaching::solve_with`]).
    pub fn most_expected_losses<G: Rules>(
        &self,
        tree: &Tree<G>,
        machine: &Machine,
    ) -> Result<Figure, Refusal> {
        match &self.most {
            Some(most) => most.clone(),
            None => most_expected((tree, machine), &self.states),
        }
    }

    /// The fastest teacher's figures from fresh beads.
    pub fn fastest(&self) -> &Distribution {
        &self.fastest
    }

    /// The moves the fastest teacher picks from, uniformly, at `node` in a game against
    /// `learner` as it stands.
    pub fn moves<G: Rules>(
        &self,
        tree: &Tree<G>,
        node: Node,
        learner: &Learner,
    ) -> Result<Vec<Node>, Error> {
        let state = self
            .states
            .find(learner.machine, &learner.beads, &mut Default::default())
            .ok_or_else(|| Error::Internal("the machine's beads left the solved states".into()))?;
        let lines = self
            .states
            .lines(tree, learner.machine, state, node, learner.used())
            .map_err(|r| Error::Internal(r.0))?;
        let Some(&Step::Choice(span)) = lines.steps.last() else {
            return Err(Error::Internal(
                "the teacher was asked at the machine's turn".into(),
            ));
        };
        let mut picks = match &self.games {
            Worths::Rational(games) => fastest_picks(&lines, state, games),
            Worths::Interval(games) => fastest_picks(&lines, state, games),
        };
        let best = picks.pop().unwrap_or_default();
        let moves = lines.parts(span);
        Ok(best.into_iter().map(|k| moves[k as usize].0).collect())
    }
}

/// The most losses from the fresh beads, draws and opponent both against the machine:
/// the most over each game's ends, states with fewer beads first. `unkept` holds the ends
/// of the games whose lines `states` did not keep.
fn worst_losses(states: &States, unkept: &FxHashMap<u32, Vec<(u32, bool)>>) -> u32 {
    let mut worst = vec![0u32; states.beads.len()];
    let mut ends = Vec::new();
    for s in states.backwards() {
        ends.clear();
        match states.kept(s) {
            Some(lines) => ends.extend(lines.end_steps()),
            None => ends.extend(unkept.get(&s).into_iter().flatten()),
        }
        let s = s as usize;
        for &(t, loss) in &ends {
            if t as usize != s {
                worst[s] = worst[s].max(u32::from(loss) + worst[t as usize]);
            }
        }
    }
    worst[0]
}

/// The most expected losses from the fresh beads over `states` (see
/// [`Teaching::most_expected_losses`]).
fn most_expected<G: Rules>(game: (&Tree<G>, &Machine), states: &States) -> Result<Figure, Refusal> {
    Ok(if states.rational() {
        most_losses::<G, Rational>(game, states)?.figure()
    } else {
        most_losses::<G, Bounds>(game, states)?.figure()
    })
}

/// What the fastest teacher does, counted over every decision it meets with some chance,
/// in every game from every bead state it can bring the machine to: the principle of its
/// strategy, as the teacher's sheet words it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Principle {
    /// Decisions after a mistake of the machine, where the teacher can force a win.
    pub chances_to_win: u32,
    /// Of those, the ones where every move it picks wins.
    pub wins_taken: u32,
    /// Decisions where it cannot force a win, and some move leaves the machine a chance
    /// to lose this game (a box ahead still holds a losing bead).
    pub chances_to_teach: u32,
    /// Of those, the ones where every move it picks leaves the machine that chance.
    pub steered: u32,
    /// Decisions where no move leaves the machine any chance to lose this game: whatever
    /// the teacher plays, the machine wins (or draws).
    pub nothing_to_teach: u32,
}

impl Teaching {
    /// The principle of the fastest teacher's strategy (see [`Principle`]), worked out
    /// when asked (or before, by [`Teaching::solve_with`]).
    pub fn principle<G: Rules>(
        &self,
        tree: &Tree<G>,
        machine: &Machine,
    ) -> Result<Principle, Refusal> {
        match &self.principle {
            Some(principle) => principle.clone(),
            None => principle_over((tree, machine), &self.states, &self.games),
        }
    }
}

/// The decision problems' figures and the fastest teacher's, with its principle if asked.
type Solution = Result<(Worths, Distribution, Option<Result<Principle, Refusal>>), Refusal>;

/// The principle of the fastest teacher's strategy over `states`, worth `games` to it.
fn principle_over<G: Rules>(
    (tree, machine): (&Tree<G>, &Machine),
    states: &States,
    games: &Worths,
) -> Result<Principle, Refusal> {
    let mut principle = Principle::default();
    let mut seen = vec![false; states.beads.len()];
    seen[0] = true;
    let mut queue = vec![0u32];
    while let Some(state) = queue.pop() {
        if states.learnt[state as usize] {
            continue;
        }
        // The lines kept from the walk that found the states, or walked again.
        let lines = match states.kept(state) {
            Some(kept) => std::borrow::Cow::Borrowed(kept),
            None => std::borrow::Cow::Owned(states.lines(tree, machine, state, 0, &[])?),
        };
        let picks = match games {
            Worths::Rational(games) => fastest_picks(&lines, state, games),
            Worths::Interval(games) => fastest_picks(&lines, state, games),
        };
        // Whether the machine can still lose from each step (children come first).
        let mut can_lose: Vec<bool> = Vec::with_capacity(lines.steps.len());
        for step in &lines.steps {
            let here = match *step {
                Step::End { loss, .. } => loss,
                Step::Chance(span) | Step::Choice(span) => {
                    lines.parts(span).iter().any(|p| can_lose[p.1 as usize])
                }
            };
            can_lose.push(here);
        }
        let mut reached = vec![false; lines.steps.len()];
        reached[lines.steps.len() - 1] = true;
        for i in (0..lines.steps.len()).rev() {
            if !reached[i] {
                continue;
            }
            match lines.steps[i] {
                Step::End { state: next, .. } => {
                    if !seen[next as usize] {
                        seen[next as usize] = true;
                        queue.push(next);
                    }
                }
                Step::Chance(span) => lines
                    .parts(span)
                    .iter()
                    .for_each(|p| reached[p.1 as usize] = true),
                Step::Choice(span) => {
                    let moves = lines.parts(span);
                    let picked = &picks[i];
                    let best = moves.iter().map(|m| -tree.value(m.0)).max();
                    let all = |f: &dyn Fn(&(Node, u32)) -> bool| {
                        picked.iter().all(|&k| f(&moves[k as usize]))
                    };
                    if best.is_some_and(|b| b > 0) {
                        principle.chances_to_win += 1;
                        let wins = all(&|m| Some(-tree.value(m.0)) == best);
                        principle.wins_taken += u32::from(wins);
                    } else if moves.iter().any(|m| can_lose[m.1 as usize]) {
                        principle.chances_to_teach += 1;
                        principle.steered += u32::from(all(&|m| can_lose[m.1 as usize]));
                    } else {
                        principle.nothing_to_teach += 1;
                    }
                    picked
                        .iter()
                        .for_each(|&k| reached[moves[k as usize].1 as usize] = true);
                }
            }
        }
    }
    Ok(principle)
}

/// The fastest teacher's equally good moves at every free choice of `lines` (empty at the
/// other steps), by their place among the choice's moves, the game played from `state`.
fn fastest_picks<N: Number>(lines: &Lines, state: u32, games: &[N]) -> Vec<Vec<u32>> {
    let value = &games[state as usize];
    let mut work = Work::default();
    lines.affine((state, games), Goal::FewestGames, Some(value), &mut work);
    lines
        .steps
        .iter()
        .map(|step| {
            let mut picked = Vec::new();
            if let Step::Choice(span) = *step {
                let moves = lines.parts(span);
                Lines::fastest(&work.steps, moves, value, (&mut picked, &mut work.worth));
            }
            picked
        })
        .collect()
}
