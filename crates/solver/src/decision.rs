//! The decision problems over the bead states, where the opponent chooses its moves to a
//! purpose (fewest games, most losses): each state solved by policy iteration over the
//! opponent's choices in one game, the states with fewer beads first.

use super::Refusal;
use super::lines::{Lines, Mover, Span, Step, Walker};
use super::numbers::{Number, one, zero};
use super::states::States;
use crate::game::Rules;
use crate::machine::{Machine, Node, Tree};

impl Lines {
    /// Each step's worth to an opponent pursuing `goal`, as `a + b x` where `x` stands
    /// for the worth of this game's own state `state` and `values` holds every other
    /// state's, into `work.steps`. At a free choice the opponent takes the move best for
    /// `goal` when `x` is `guess` (infinite when `guess` is `None`); the moves taken go
    /// to `work.taken`.
    pub(super) fn affine<N: Number>(
        &self,
        (state, values): (u32, &[N]),
        goal: Goal,
        guess: Option<&N>,
        work: &mut Work<N>,
    ) {
        work.steps.clear();
        work.taken.clear();
        // Only the chances' parts are read, each written below first: the ratios of the
        // game solved before need not be cleared.
        work.ratios.resize(self.parts.len(), zero::<N>());
        // Each arm pushes its own worth: one pushed after the match went through the
        // stack, its flag written as a byte and read back as a word, a stall that took a
        // third of this loop's samples in a profile.
        for step in &self.steps {
            match *step {
                Step::End {
                    state: to, loss, ..
                } if to == state => work.steps.push(Affine {
                    a: goal.reward(loss),
                    b: one::<N>(),
                    leaves: false,
                }),
                Step::End {
                    state: to, loss, ..
                } => work.steps.push(Affine {
                    a: goal.reward::<N>(loss).add(&values[to as usize]),
                    b: zero::<N>(),
                    leaves: true,
                }),
                Step::Chance(span) => {
                    let parts = self.parts(span);
                    let total: u32 = parts.iter().map(|p| p.0).sum();
                    for (k, &(weight, _)) in parts.iter().enumerate() {
                        work.ratios[span.start as usize + k] = N::ratio(weight, total);
                    }
                    let sum = self.chance(span, &work.steps, &work.ratios);
                    work.steps.push(sum);
                }
                Step::Choice(span) => {
                    let best = goal.best(self.parts(span), &work.steps, guess);
                    work.taken.push(best as u32);
                    let taken = work.steps[self.parts(span)[best].1 as usize].clone();
                    work.steps.push(taken);
                }
            }
        }
    }

    /// [`Lines::affine`] again under a new `guess`, `work` holding the last round: only
    /// the choices are looked at again, and the worths above a choice that changed
    /// worked out anew (the same operations on the same numbers give the same worths, so
    /// the others stay as they are). Returns whether any choice changed.
    fn affine_again<N: Number>(&self, goal: Goal, guess: &N, work: &mut Work<N>) -> bool {
        work.changed.clear();
        work.changed.resize(self.steps.len(), false);
        let (mut choice, mut any) = (0, false);
        for (i, step) in self.steps.iter().enumerate() {
            match *step {
                Step::End { .. } => {}
                Step::Chance(span) => {
                    if self.parts(span).iter().any(|p| work.changed[p.1 as usize]) {
                        work.steps[i] = self.chance(span, &work.steps, &work.ratios);
                        work.changed[i] = true;
                    }
                }
                Step::Choice(span) => {
                    let moves = self.parts(span);
                    let best = goal.best(moves, &work.steps, Some(guess));
                    let was = std::mem::replace(&mut work.taken[choice], best as u32);
                    choice += 1;
                    let to = moves[best].1 as usize;
                    if was != best as u32 || work.changed[to] {
                        any |= was != best as u32;
                        work.steps[i] = work.steps[to].clone();
                        work.changed[i] = true;
                    }
                }
            }
        }
        any
    }

    /// The worth of a chance: its parts' worths weighted by `ratios`. Inlined, so that
    /// the worth goes straight where it is stored (see [`Lines::affine`]).
    #[inline(always)]
    fn chance<N: Number>(&self, span: Span, steps: &[Affine<N>], ratios: &[N]) -> Affine<N> {
        let mut sum = Affine {
            a: zero::<N>(),
            b: zero::<N>(),
            leaves: false,
        };
        for (k, &(_, s)) in self.parts(span).iter().enumerate() {
            let w = &ratios[span.start as usize + k];
            let part = &steps[s as usize];
            sum.a = sum.a.add(&w.mul(&part.a));
            sum.b = sum.b.add(&w.mul(&part.b));
            sum.leaves |= part.leaves;
        }
        sum
    }

    /// The moves of a free choice that are best, equally, for the fastest teacher when its
    /// own state is worth `value`, by their place among `moves`, into `picked`: `steps`
    /// from [`Lines::affine`], `worth` a buffer.
    pub(super) fn fastest<N: Number>(
        steps: &[Affine<N>],
        moves: &[(Node, u32)],
        value: &N,
        (picked, worth): (&mut Vec<u32>, &mut Vec<N>),
    ) {
        worth.clear();
        worth.extend(moves.iter().map(|m| {
            let s = &steps[m.1 as usize];
            s.a.add(&s.b.mul(value))
        }));
        let best = worth
            .iter()
            .reduce(|x, y| if y.order(x).is_lt() { y } else { x });
        if let Some(best) = best {
            let equal = |k: &usize| worth[*k].order(best).is_eq();
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

impl<N: Number> Affine<N> {
    /// The worth when the unknown is `x`.
    fn at(&self, x: &N) -> N {
        self.a.add(&self.b.mul(x))
    }
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
    /// The move of `moves` best for the goal when the unknown is `guess`: the first of the
    /// best, as [`Goal::prefers`] compares them one after the other.
    fn best<N: Number>(
        self,
        moves: &[(Node, u32)],
        steps: &[Affine<N>],
        guess: Option<&N>,
    ) -> usize {
        let step = |k: usize| &steps[moves[k].1 as usize];
        let mut best = 0;
        match guess {
            Some(v) => {
                let mut top = step(0).at(v);
                for k in 1..moves.len() {
                    let here = step(k).at(v);
                    if self.prefers(here.order(&top), step(k), step(best)) {
                        (best, top) = (k, here);
                    }
                }
            }
            None => {
                for k in 1..moves.len() {
                    let (y, x) = (step(k), step(best));
                    // An infinite unknown: leaving the state at all, then its chance, decide.
                    let order = x
                        .leaves
                        .cmp(&y.leaves)
                        .then_with(|| y.b.order(&x.b))
                        .then_with(|| y.a.order(&x.a));
                    if self.prefers(order, y, x) {
                        best = k;
                    }
                }
            }
        }
        best
    }

    /// Whether `y` is strictly better than `x`, `order` being how `y`'s worth compares to
    /// `x`'s.
    fn prefers<N>(self, order: std::cmp::Ordering, y: &Affine<N>, x: &Affine<N>) -> bool {
        match (self, order) {
            // Between equals, the one that leaves the state: an opponent that only stays
            // would make no progress, and its worth is no ratio at all.
            (_, std::cmp::Ordering::Equal) => y.leaves && !x.leaves,
            (Goal::FewestGames, order) => order.is_lt(),
            (Goal::MostLosses, order) => order.is_gt(),
        }
    }

    /// What one game ending with or without a loss is worth.
    fn reward<N: Number>(self, loss: bool) -> N {
        N::ratio(u32::from(self == Goal::FewestGames || loss), 1)
    }

    /// The worth of `state` when the opponent plays its best: policy iteration over the
    /// opponent's choices in this one game until its choices stop changing. Leaves in
    /// `work.steps` every step's worth (see [`Lines::affine`]) under the choices it
    /// settled on.
    pub(super) fn solve<N: Number>(
        self,
        lines: &Lines,
        context: (u32, &[N]),
        work: &mut Work<N>,
    ) -> N {
        // The opponent that leaves soonest first, so the first worth is finite.
        let first = match self {
            Goal::FewestGames => None,
            Goal::MostLosses => Some(zero::<N>()),
        };
        lines.affine(context, self, first.as_ref(), work);
        let mut value = work.worth();
        for _ in 1..MAX_ROUNDS {
            // The same choices as the round before give the same worths, so this round's
            // guess was `value` itself: the steps are those of the settled choices.
            if !lines.affine_again(self, &value, work) {
                return value;
            }
            value = work.worth();
        }
        lines.affine_again(self, &value, work);
        value
    }
}

/// One core's buffers for solving states one after another.
pub(super) struct Work<N> {
    /// Every step's worth.
    pub(super) steps: Vec<Affine<N>>,
    /// The move taken at each choice, in step order.
    taken: Vec<u32>,
    /// Each part's weight among its chance's.
    pub(super) ratios: Vec<N>,
    /// Whether a step's worth changed in the round.
    changed: Vec<bool>,
    /// The chance of reaching each step.
    pub(super) reach: Vec<Option<N>>,
    /// The worths of a choice's moves.
    pub(super) worth: Vec<N>,
}

impl<N: Number> Work<N> {
    /// The state's worth from its game's first step, `a / (1 - b)`: a game that can only
    /// stay where it is (no loss, no progress) is worth nothing more to the opponent.
    fn worth(&self) -> N {
        let root = self.steps.last().expect("a game has a first step");
        if root.leaves {
            root.a.div(&one::<N>().sub(&root.b))
        } else {
            zero::<N>()
        }
    }
}

impl<N> Default for Work<N> {
    fn default() -> Self {
        Work {
            steps: Vec::new(),
            taken: Vec::new(),
            ratios: Vec::new(),
            changed: Vec::new(),
            reach: Vec::new(),
            worth: Vec::new(),
        }
    }
}

/// The worth of every state to an opponent pursuing `goal`, in the arithmetic `N`, each
/// state that has not learnt solved by [`Goal::solve`]. A state's worth needs only those
/// of states with fewer beads, so each group of equal beads is solved on every core, with
/// the same result in any order.
fn by_levels<G: Rules, N: Number>(
    (tree, machine): (&Tree<G>, &Machine),
    states: &States,
    goal: Goal,
) -> Result<Vec<N>, Refusal> {
    use crate::parallel::prelude::*;
    let mut worths = vec![zero::<N>(); states.len()];
    let core = || {
        let walker = Walker::new(tree, machine, Mover::Free);
        (
            walker,
            states.known(machine),
            (Lines::default(), machine.fresh_beads()),
            Work::default(),
        )
    };
    for level in states.levels() {
        let worths_now = &worths;
        let solved = level
            .par_iter()
            .filter(|&&s| !states.learnt[s as usize])
            .map_init(core, |(walker, known, (walked, beads), work), &id| {
                let lines = match states.kept(id) {
                    Some(kept) => kept,
                    None => {
                        states.unpack(machine, id, beads);
                        walker.walk(walked, beads, id, 0, &[], known)?;
                        walked
                    }
                };
                Ok((id as usize, goal.solve(lines, (id, worths_now), work)))
            })
            .collect::<Result<Vec<_>, Refusal>>()?;
        for (s, worth) in solved {
            worths[s] = worth;
        }
    }
    Ok(worths)
}

/// The fastest teacher's worth of every state (the expected games until the machine has
/// learnt), in the arithmetic `N`.
pub(super) fn decide<G: Rules, N: Number>(
    game: (&Tree<G>, &Machine),
    states: &States,
) -> Result<Vec<N>, Refusal> {
    by_levels(game, states, Goal::FewestGames)
}

/// The most expected losses from the fresh beads, the opponent maximising them, in the
/// arithmetic `N`.
pub(super) fn most_losses<G: Rules, N: Number>(
    game: (&Tree<G>, &Machine),
    states: &States,
) -> Result<N, Refusal> {
    Ok(by_levels(game, states, Goal::MostLosses)?.swap_remove(0))
}
