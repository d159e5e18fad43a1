//! The decision problems over the bead states, where the opponent chooses its moves to a
//! purpose (fewest games, most losses): each state solved by policy iteration over the
//! opponent's choices in one game, the states with fewer beads first.

use super::Refusal;
use super::lines::{Lines, Step, Transitions};
use super::numbers::{Number, one, zero};
use super::states::States;
use crate::machine::Node;

impl Lines {
    /// Each step's worth to an opponent pursuing `goal`, as `a + b x` where `x` stands
    /// for the worth of this game's own state `state` and `values` holds every other
    /// state's. At a free choice the opponent takes the move best for `goal` when `x` is
    /// `guess` (infinite when `guess` is `None`); the moves taken are returned too.
    pub(super) fn affine<N: Number>(
        &self,
        state: u32,
        values: &[N],
        goal: Goal,
        guess: Option<&N>,
    ) -> (Vec<Affine<N>>, Vec<u32>) {
        let mut out: Vec<Affine<N>> = Vec::with_capacity(self.steps.len());
        let mut taken = Vec::new();
        for step in &self.steps {
            let value = match step {
                Step::End {
                    state: to, loss, ..
                } if *to == state => Affine {
                    a: goal.reward(*loss),
                    b: one::<N>(),
                    leaves: false,
                },
                Step::End {
                    state: to, loss, ..
                } => Affine {
                    a: goal.reward::<N>(*loss).add(&values[*to as usize]),
                    b: zero::<N>(),
                    leaves: true,
                },
                Step::Chance(parts) => {
                    let total: u32 = parts.iter().map(|p| p.0).sum();
                    let mut sum = Affine {
                        a: zero::<N>(),
                        b: zero::<N>(),
                        leaves: false,
                    };
                    for &(weight, s) in parts {
                        let w = N::ratio(weight, total);
                        let part = &out[s as usize];
                        sum.a = sum.a.add(&w.mul(&part.a));
                        sum.b = sum.b.add(&w.mul(&part.b));
                        sum.leaves |= part.leaves;
                    }
                    sum
                }
                Step::Choice(moves) => {
                    let mut best = 0;
                    for (k, &(_, s)) in moves.iter().enumerate() {
                        let here = &out[s as usize];
                        if goal.prefers(here, &out[moves[best].1 as usize], guess) {
                            best = k;
                        }
                    }
                    taken.push(best as u32);
                    out[moves[best].1 as usize].clone()
                }
            };
            out.push(value);
        }
        (out, taken)
    }

    /// The steps of a free choice that are best, equally, for the fastest teacher when its
    /// own state is worth `value`: `steps` from [`Lines::affine`].
    pub(super) fn fastest<N: Number>(
        steps: &[Affine<N>],
        moves: &[(Node, u32)],
        value: &N,
    ) -> Vec<usize> {
        let at = |step: u32| {
            let s = &steps[step as usize];
            s.a.add(&s.b.mul(value))
        };
        let worth: Vec<N> = moves.iter().map(|m| at(m.1)).collect();
        let best = worth
            .iter()
            .reduce(|x, y| if y.order(x).is_lt() { y } else { x });
        (0..moves.len())
            .filter(|&k| best.is_some_and(|b| worth[k].order(b).is_eq()))
            .collect()
    }
}

/// A step's worth `a + b x`, and whether the game can leave its state from there.
#[derive(Clone, Debug)]
pub(super) struct Affine<N> {
    a: N,
    b: N,
    leaves: bool,
}

/// What the opponent of a decision problem wants.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Goal {
    /// As few games as possible until the machine has learnt.
    FewestGames,
    /// As many losses of the machine as possible before it has learnt.
    MostLosses,
}

/// Rounds of policy iteration in one state at most: a guard for floating point, where two
/// equal choices could otherwise swap for ever (exact rounds end long before).
const MAX_ROUNDS: usize = 64;

impl Goal {
    /// Whether `y` is strictly better than `x` when the unknown is `guess`.
    fn prefers<N: Number>(self, y: &Affine<N>, x: &Affine<N>, guess: Option<&N>) -> bool {
        let order = match guess {
            Some(v) => y.a.add(&y.b.mul(v)).order(&x.a.add(&x.b.mul(v))),
            // An infinite unknown: leaving the state at all, then its chance, decide.
            None => x
                .leaves
                .cmp(&y.leaves)
                .then_with(|| y.b.order(&x.b))
                .then_with(|| y.a.order(&x.a)),
        };
        match (self, order) {
            // Between equals, the one that leaves the state: an opponent that only stays
            // would make no progress, and its worth is no ratio at all.
            (_, std::cmp::Ordering::Equal) => y.leaves && !x.leaves,
            (Goal::FewestGames, order) => order.is_lt(),
            (Goal::MostLosses, order) => order.is_gt(),
        }
    }

    /// What one game ending with or without a loss is worth.
    pub(super) fn reward<N: Number>(self, loss: bool) -> N {
        N::ratio(u32::from(self == Goal::FewestGames || loss), 1)
    }

    /// The worth of `state` when the opponent plays its best: policy iteration over the
    /// opponent's choices in this one game until its choices stop changing. Also every
    /// step's worth (see [`Lines::affine`]) under the choices it settled on.
    pub(super) fn solve<N: Number>(
        self,
        lines: &Lines,
        state: u32,
        values: &[N],
    ) -> (N, Vec<Affine<N>>) {
        let mut guess = match self {
            // The opponent that leaves soonest first, so the first worth is finite.
            Goal::FewestGames => None,
            Goal::MostLosses => Some(zero::<N>()),
        };
        let mut before = None;
        for _ in 0..MAX_ROUNDS {
            let (steps, taken) = lines.affine(state, values, self, guess.as_ref());
            let root = steps.last().expect("a game has a first step");
            // A game that can only stay where it is (no loss, no progress) is worth
            // nothing more to the opponent that wants losses.
            let value = if root.leaves {
                root.a.div(&one::<N>().sub(&root.b))
            } else {
                zero::<N>()
            };
            // The same choices as the round before give the same worths, so this round's
            // guess was `value` itself: `steps` are those of the settled choices.
            if before.as_ref() == Some(&taken) {
                return (value, steps);
            }
            before = Some(taken);
            guess = Some(value);
        }
        let value = guess.unwrap_or_else(zero::<N>);
        let (steps, _) = lines.affine(state, values, self, Some(&value));
        (value, steps)
    }
}

/// The lines of play of one game from a state, by its number.
pub(super) type LinesOf<'a> = dyn Fn(usize) -> Result<Lines, Refusal> + Sync + 'a;

/// The fastest teacher's worth of every state and its one-game transitions.
type Decided<N> = (Vec<N>, Vec<Transitions<N>>);

/// A decision problem solved for every state that has not learnt, in the arithmetic `N`:
/// `solve` gets a state's number, its lines of play and the worths of the states solved
/// before, and returns its worth and what else it finds. A state's worth needs only those
/// of states with fewer beads, so each group of equal beads is solved on every core, with
/// the same result in any order.
fn by_levels<N: Number, T: Send>(
    states: &States,
    lines_of: &LinesOf,
    solve: impl Fn(u32, &Lines, &[N]) -> (N, T) + Sync,
) -> Result<(Vec<N>, Vec<Option<T>>), Refusal> {
    use crate::parallel::prelude::*;
    let n = states.beads.len();
    let mut worths = vec![zero::<N>(); n];
    let mut found: Vec<Option<T>> = (0..n).map(|_| None).collect();
    for level in states.levels() {
        let solved = level
            .par_iter()
            .filter(|&&s| !states.learnt[s as usize])
            .map(|&id| {
                let (worth, more) = solve(id, &lines_of(id as usize)?, &worths);
                Ok((id as usize, worth, more))
            })
            .collect::<Result<Vec<_>, Refusal>>()?;
        for (s, worth, more) in solved {
            worths[s] = worth;
            found[s] = Some(more);
        }
    }
    Ok((worths, found))
}

/// The fastest teacher's worth of every state and its one-game transitions, in the
/// arithmetic `N`.
pub(super) fn decide<N: Number>(
    states: &States,
    lines_of: &LinesOf,
) -> Result<Decided<N>, Refusal> {
    let (games, next) = by_levels(states, lines_of, |id, lines, games: &[N]| {
        let (value, steps) = Goal::FewestGames.solve(lines, id, games);
        // The fastest teacher picks uniformly among its equally good moves.
        let (next, _) = lines.ends(&|moves| {
            Lines::fastest(&steps, moves, &value)
                .into_iter()
                .map(|k| moves[k].1)
                .collect()
        });
        (value, next)
    })?;
    Ok((
        games,
        next.into_iter().map(Option::unwrap_or_default).collect(),
    ))
}

/// The most expected losses from the fresh beads, the opponent maximising them, in the
/// arithmetic `N`.
pub(super) fn most_losses<N: Number>(states: &States, lines_of: &LinesOf) -> Result<N, Refusal> {
    let (mut most, _) = by_levels(states, lines_of, |id, lines, most: &[N]| {
        (Goal::MostLosses.solve(lines, id, most).0, ())
    })?;
    Ok(most.swap_remove(0))
}
