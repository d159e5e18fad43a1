//! The decision problems over the bead states, where the opponent chooses its moves to a
//! purpose (fewest games, most losses): each state solved by policy iteration over the
//! opponent's choices in one game, the states with fewer beads first.

use super::Refusal;
use super::lines::{Lines, Mover, Step, Transitions, Walker};
use super::numbers::{Number, one, zero};
use super::states::States;
use crate::game::Rules;
use crate::machine::{Machine, Node, Tree};

impl Lines {
    /// Each step's worth to an opponent pursuing `goal`, as `a + b x` where `x` stands
    /// for the worth of this game's own state `state` and `values` holds every other
    /// state's, into `out`. At a free choice the opponent takes the move best for `goal`
    /// when `x` is `guess` (infinite when `guess` is `None`); the moves taken go to
    /// `taken`.
    pub(super) fn affine<N: Number>(
        &self,
        (state, values): (u32, &[N]),
        goal: Goal,
        guess: Option<&N>,
        out: &mut Vec<Affine<N>>,
        taken: &mut Vec<u32>,
    ) {
        out.clear();
        taken.clear();
        for step in &self.steps {
            let value = match *step {
                Step::End {
                    state: to, loss, ..
                } if to == state => Affine {
                    a: goal.reward(loss),
                    b: one::<N>(),
                    leaves: false,
                },
                Step::End {
                    state: to, loss, ..
                } => Affine {
                    a: goal.reward::<N>(loss).add(&values[to as usize]),
                    b: zero::<N>(),
                    leaves: true,
                },
                Step::Chance(span) => {
                    let parts = self.parts(span);
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
                Step::Choice(span) => {
                    let moves = self.parts(span);
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
    }

    /// The moves of a free choice that are best, equally, for the fastest teacher when its
    /// own state is worth `value`, by their place among `moves`, into `picked`: `steps`
    /// from [`Lines::affine`].
    pub(super) fn fastest<N: Number>(
        steps: &[Affine<N>],
        moves: &[(Node, u32)],
        value: &N,
        picked: &mut Vec<u32>,
    ) {
        let at = |step: u32| {
            let s = &steps[step as usize];
            s.a.add(&s.b.mul(value))
        };
        let best = moves
            .iter()
            .map(|m| at(m.1))
            .reduce(|x, y| if y.order(&x).is_lt() { y } else { x });
        if let Some(best) = best {
            let equal = |k: &usize| at(moves[*k].1).order(&best).is_eq();
            picked.extend((0..moves.len()).filter(equal).map(|k| k as u32));
        }
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
    /// opponent's choices in this one game until its choices stop changing. Leaves in
    /// `work.steps` every step's worth (see [`Lines::affine`]) under the choices it
    /// settled on.
    pub(super) fn solve<N: Number>(
        self,
        lines: &Lines,
        (state, values): (u32, &[N]),
        work: &mut Work<N>,
    ) -> N {
        let mut guess = match self {
            // The opponent that leaves soonest first, so the first worth is finite.
            Goal::FewestGames => None,
            Goal::MostLosses => Some(zero::<N>()),
        };
        let mut first = true;
        for _ in 0..MAX_ROUNDS {
            let context = (state, values);
            lines.affine(
                context,
                self,
                guess.as_ref(),
                &mut work.steps,
                &mut work.taken,
            );
            let root = work.steps.last().expect("a game has a first step");
            // A game that can only stay where it is (no loss, no progress) is worth
            // nothing more to the opponent that wants losses.
            let value = if root.leaves {
                root.a.div(&one::<N>().sub(&root.b))
            } else {
                zero::<N>()
            };
            // The same choices as the round before give the same worths, so this round's
            // guess was `value` itself: `steps` are those of the settled choices.
            if !first && work.before == work.taken {
                return value;
            }
            first = false;
            std::mem::swap(&mut work.before, &mut work.taken);
            guess = Some(value);
        }
        let value = guess.unwrap_or_else(zero::<N>);
        let context = (state, values);
        lines.affine(
            context,
            self,
            Some(&value),
            &mut work.steps,
            &mut work.taken,
        );
        value
    }
}

/// One core's buffers for solving states one after another.
pub(super) struct Work<N> {
    /// Every step's worth.
    pub(super) steps: Vec<Affine<N>>,
    taken: Vec<u32>,
    before: Vec<u32>,
    /// The chance of reaching each step.
    pub(super) reach: Vec<Option<N>>,
}

impl<N> Default for Work<N> {
    fn default() -> Self {
        Work {
            steps: Vec::new(),
            taken: Vec::new(),
            before: Vec::new(),
            reach: Vec::new(),
        }
    }
}

/// The fastest teacher's worth of every state and its one-game transitions.
type Decided<N> = (Vec<N>, Vec<Transitions<N>>);

/// A decision problem solved for every state that has not learnt, in the arithmetic `N`:
/// `solve` gets a state's number, its lines of play, the worths of the states solved
/// before and buffers, and returns its worth and what else it finds. A state's worth
/// needs only those of states with fewer beads, so each group of equal beads is solved
/// on every core, with the same result in any order.
fn by_levels<G: Rules, N: Number, T: Send>(
    (tree, machine): (&Tree<G>, &Machine),
    states: &States,
    solve: impl Fn(u32, &Lines, &[N], &mut Work<N>) -> (N, T) + Sync,
) -> Result<(Vec<N>, Vec<Option<T>>), Refusal> {
    use crate::parallel::prelude::*;
    let n = states.beads.len();
    let mut worths = vec![zero::<N>(); n];
    let mut found: Vec<Option<T>> = (0..n).map(|_| None).collect();
    let core = || {
        let walker = Walker::new(tree, machine, Mover::Free);
        (
            walker,
            states.known(machine),
            Lines::default(),
            Work::default(),
        )
    };
    for level in states.levels() {
        let worths_now = &worths;
        let solved = level
            .par_iter()
            .filter(|&&s| !states.learnt[s as usize])
            .map_init(core, |(walker, known, lines, work), &id| {
                let beads = &states.beads[id as usize];
                walker.walk(lines, beads, id, 0, &[], known)?;
                let (worth, more) = solve(id, lines, worths_now, work);
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
pub(super) fn decide<G: Rules, N: Number>(
    game: (&Tree<G>, &Machine),
    states: &States,
) -> Result<Decided<N>, Refusal> {
    let (games, next) = by_levels(game, states, |id, lines, games: &[N], work| {
        let value = Goal::FewestGames.solve(lines, (id, games), work);
        // The fastest teacher picks uniformly among its equally good moves.
        let steps = &work.steps;
        let (next, _) = lines.ends(
            &mut |moves, picked| {
                Lines::fastest(steps, moves, &value, picked);
                picked.iter_mut().for_each(|k| *k = moves[*k as usize].1);
            },
            &mut work.reach,
        );
        (value, next)
    })?;
    Ok((
        games,
        next.into_iter().map(Option::unwrap_or_default).collect(),
    ))
}

/// The most expected losses from the fresh beads, the opponent maximising them, in the
/// arithmetic `N`.
pub(super) fn most_losses<G: Rules, N: Number>(
    game: (&Tree<G>, &Machine),
    states: &States,
) -> Result<N, Refusal> {
    let (mut most, _) = by_levels(game, states, |id, lines, most: &[N], work| {
        (Goal::MostLosses.solve(lines, (id, most), work), ())
    })?;
    Ok(most.swap_remove(0))
}
