//! What every opponent can do: the worst case, the most expected losses and the fastest
//! teacher's strategy, with the principle of that strategy.

use rustc_hash::FxHashMap;
use serde::Serialize;

use super::Refusal;
use super::chain::{Distribution, finite_rule, shrinking, solve_chain};
use super::decision::{Goal, Work, decide, most_losses};
use super::lines::{Lines, Mover, Step, Transitions, lines_fit};
use super::numbers::{Arithmetic, Bounds, Figure, Number, Rational};
use super::states::States;
use crate::Error;
use crate::game::Rules;
use crate::machine::{Learner, Machine, Node, Tree};
use matchbox_machine::OpponentKind;

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
    /// The principle of the fastest teacher's strategy.
    principle: Principle,
}

/// What is worked out beside the fastest teacher, side by side on the cores, when the
/// caller will ask for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Besides {
    /// Nothing more.
    Nothing,
    /// The most expected losses ([`Teaching::most_expected_losses`]).
    MostLosses,
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
        /// The decision problem, then the fastest teacher's play from the fresh beads
        /// and its chain, in the arithmetic `N`.
        fn solved<G: Rules, N: Number>(
            game: (&Tree<G>, &Machine),
            states: &States,
            (arithmetic, keep): (Arithmetic, fn(Vec<N>) -> Worths),
        ) -> Solution {
            let games = decide::<G, N>(game, states)?;
            let (next, principle) = fastest_play(game, states, &games)?;
            let fastest = solve_chain(states, &next, OpponentKind::OptimalTeacher, arithmetic);
            Ok((keep(games), fastest, principle))
        }
        let game = (tree, machine);
        // The worst case needs no decision: it is worked out beside them.
        let (solution, (most, worst)) = crate::parallel::join(
            || {
                if states.rational() {
                    let exact = (Arithmetic::Rational, Worths::Rational as fn(_) -> _);
                    solved::<G, Rational>(game, &states, exact)
                } else {
                    let bounded = (Arithmetic::Interval, Worths::Interval as fn(_) -> _);
                    solved::<G, Bounds>(game, &states, bounded)
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
        self.states.len()
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
            .map_err(|r| Error::Internal(r.to_string()))?;
        let Some(&Step::Choice(span)) = lines.steps.last() else {
            return Err(Error::Internal(
                "the teacher was asked at the machine's turn".into(),
            ));
        };
        let mut picks = match &self.games {
            Worths::Rational(games) => fastest_picks(&lines, state, games, &mut Work::default()),
            Worths::Interval(games) => fastest_picks(&lines, state, games, &mut Work::default()),
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
    let mut worst = vec![0u32; states.len()];
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

impl Principle {
    /// Adds `other`'s counts to these.
    fn add(&mut self, other: &Principle) {
        self.chances_to_win += other.chances_to_win;
        self.wins_taken += other.wins_taken;
        self.chances_to_teach += other.chances_to_teach;
        self.steered += other.steered;
        self.nothing_to_teach += other.nothing_to_teach;
    }

    /// The decisions of one game, the lines of play `lines`, where the fastest teacher
    /// picks `picks` (see [`fastest_picks`]).
    fn of_game<G: Rules>(tree: &Tree<G>, lines: &Lines, picks: &[Vec<u32>]) -> Principle {
        let mut principle = Principle::default();
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
                Step::End { .. } => {}
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
        principle
    }
}

impl Teaching {
    /// The principle of the fastest teacher's strategy (see [`Principle`]).
    pub fn principle(&self) -> &Principle {
        &self.principle
    }
}

/// The decision problems' figures and the fastest teacher's, with its principle.
type Solution = Result<(Worths, Distribution, Principle), Refusal>;

/// The fastest teacher's play over `states`, worth `games` to it: the one-game
/// transitions of every state it can bring the machine to from the fresh beads (left
/// empty for the others, which its chain never meets), and the principle of its strategy
/// over those states. The states are met group by group, the most beads first (a game
/// leads only to fewer beads, or back to its own state), each group on every core.
fn fastest_play<G: Rules, N: Number>(
    (tree, machine): (&Tree<G>, &Machine),
    states: &States,
    games: &[N],
) -> Result<(Vec<Transitions<N>>, Principle), Refusal> {
    use crate::parallel::prelude::*;
    let n = states.len();
    let mut next: Vec<Transitions<N>> = (0..n).map(|_| Vec::new()).collect();
    let mut principle = Principle::default();
    let mut met = vec![false; n];
    met[0] = true;
    for level in states.levels().iter().rev() {
        let met_now = &met;
        let played = level
            .par_iter()
            .filter(|&&s| met_now[s as usize] && !states.learnt[s as usize])
            .map_init(Work::default, |work, &state| {
                // The lines kept from the walk that found the states, or walked again.
                let lines = match states.kept(state) {
                    Some(kept) => std::borrow::Cow::Borrowed(kept),
                    None => std::borrow::Cow::Owned(states.lines(tree, machine, state, 0, &[])?),
                };
                let picks = fastest_picks(&lines, state, games, work);
                let (ends, _) = lines.ends(
                    &mut |i, moves, picked| {
                        picked.extend(picks[i].iter().map(|&k| moves[k as usize].1));
                    },
                    &mut work.reach,
                    Some(&work.ratios),
                );
                Ok((state, ends, Principle::of_game(tree, &lines, &picks)))
            })
            .collect::<Result<Vec<_>, Refusal>>()?;
        for (state, ends, counted) in played {
            ends.iter().for_each(|&(t, _, _)| met[t as usize] = true);
            principle.add(&counted);
            next[state as usize] = ends;
        }
    }
    Ok((next, principle))
}

/// The fastest teacher's equally good moves at every free choice of `lines` (empty at the
/// other steps), by their place among the choice's moves, the game played from `state`;
/// leaves in `work` the steps' worths and the chances' ratios.
fn fastest_picks<N: Number>(
    lines: &Lines,
    state: u32,
    games: &[N],
    work: &mut Work<N>,
) -> Vec<Vec<u32>> {
    let value = &games[state as usize];
    lines.affine((state, games), Goal::FewestGames, Some(value), work);
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
