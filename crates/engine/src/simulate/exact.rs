//! Exact learning figures: instead of training machines at random, every bead state the
//! machine can reach is enumerated, the next game from each state is worked out exactly
//! over the game tree, and the resulting Markov chain (or, where the opponent chooses its
//! moves to a purpose, Markov decision problem) is solved in rational arithmetic.
//!
//! A state is the machine's beads. The same compiled [`Machine`] draws the beads
//! ([`Machine::draws`], the exact counterpart of its random draw) and the same
//! [`Rule::apply`] changes them after each game, so the exact path and the simulation
//! cannot disagree on the rules. Under `gardner` a game changes the beads only when it is
//! lost, and then takes a bead away; under `relay` a loss unwires at least one move. So a
//! game either leaves the beads as they were or leads to a state with fewer beads: the
//! states form a finite graph without cycles (apart from "nothing changed"), which is
//! solved backwards from the states with fewest beads. The rules that add beads
//! (`gardner-reward`, `menace`) have no such bound, and their kits are left to sampling.

mod giving_up;
mod horizon;

use std::collections::BTreeMap;
use std::fmt;

use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use rustc_hash::FxHashMap;
use serde::{Serialize, Serializer};

use super::{OpponentKind, teacher_moves};
use crate::Error;
use crate::game::{Notation, Rules};
use crate::machine::{Beads, Draw, End, Learner, Machine, Node, Tree};
use crate::rule::Rule;

pub use giving_up::{GIVE_UP_BY, GivingUp, giving_up};
pub use horizon::losses_in_first;

/// An exact probability or expectation.
pub type Q = BigRational;

/// Most bead states the exact path enumerates before it gives way to sampling.
pub const MAX_STATES: usize = 1_000_000;

/// Most bead counts held over all states (a count per move per state): 20 MB. It also
/// bounds the time spent finding out that a machine of many moves has too many states:
/// every state found costs a walk through one game, so Marienbad's 1,052 beads give up
/// after some 4,750 states (HER needs 65,536 states of 45 beads, under 3 million).
pub const MAX_COUNTS: usize = 5_000_000;

/// Most steps in the lines of play of one game from one state, a bound on memory (a game
/// of noughts and crosses from fresh beads has some 550,000).
pub const MAX_STEPS: usize = 5_000_000;

/// Why a kit's figures cannot be computed exactly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal(pub String);

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// An exact fraction, written `p/q` in JSON.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Fraction(pub Q);

impl Fraction {
    /// The fraction as a floating-point number, for printing.
    pub fn to_f64(&self) -> f64 {
        self.0.to_f64().unwrap_or(f64::NAN)
    }
}

impl fmt::Display for Fraction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.0.numer(), self.0.denom())
    }
}

impl Serialize for Fraction {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// The arithmetic of a solution: exact rationals, or intervals of floating-point numbers
/// that are proven to hold the exact value (used where rationals grow too long).
pub trait Number: Clone + fmt::Debug + Send + Sync {
    /// The number nearest to `q` (exactly `q` for rationals).
    fn of(q: &Q) -> Self;
    /// `num / den`, without building a rational on the way.
    fn ratio(num: u32, den: u32) -> Self;
    /// `self + other`.
    fn add(&self, other: &Self) -> Self;
    /// `self - other`.
    fn sub(&self, other: &Self) -> Self;
    /// `self * other`.
    fn mul(&self, other: &Self) -> Self;
    /// `self / other`.
    fn div(&self, other: &Self) -> Self;
    /// Orders two numbers (intervals that overlap are equal).
    fn order(&self, other: &Self) -> std::cmp::Ordering;
    /// The number as a figure for the output.
    fn figure(&self) -> Figure;
}

/// 0 in any arithmetic.
fn zero<N: Number>() -> N {
    N::ratio(0, 1)
}

/// 1 in any arithmetic.
fn one<N: Number>() -> N {
    N::ratio(1, 1)
}

impl Number for Q {
    fn of(q: &Q) -> Self {
        q.clone()
    }
    fn ratio(num: u32, den: u32) -> Self {
        Q::new(num.into(), den.into())
    }
    fn add(&self, other: &Self) -> Self {
        self + other
    }
    fn sub(&self, other: &Self) -> Self {
        self - other
    }
    fn mul(&self, other: &Self) -> Self {
        self * other
    }
    fn div(&self, other: &Self) -> Self {
        self / other
    }
    fn order(&self, other: &Self) -> std::cmp::Ordering {
        self.cmp(other)
    }
    fn figure(&self) -> Figure {
        Figure::Exact(Fraction(self.clone()))
    }
}

/// A closed interval of floating-point numbers holding an exact value that is never
/// negative: each operation rounds its ends outwards by one unit in the last place, so
/// the exact result always stays inside.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    /// The lower end.
    pub low: f64,
    /// The upper end.
    pub high: f64,
}

impl Bounds {
    fn outwards(low: f64, high: f64) -> Bounds {
        // A result of exactly 0 from values that are never negative is exact.
        Bounds {
            low: low.next_down().max(0.0),
            high: if high == 0.0 { 0.0 } else { high.next_up() },
        }
    }
}

impl Number for Bounds {
    fn of(q: &Q) -> Self {
        let x = q.to_f64().unwrap_or(f64::INFINITY);
        if q.is_zero() {
            Bounds {
                low: 0.0,
                high: 0.0,
            }
        } else {
            Bounds::outwards(x, x)
        }
    }
    fn ratio(num: u32, den: u32) -> Self {
        let x = f64::from(num) / f64::from(den);
        if num.is_multiple_of(den) {
            Bounds { low: x, high: x }
        } else {
            Bounds::outwards(x, x)
        }
    }
    fn add(&self, other: &Self) -> Self {
        Bounds::outwards(self.low + other.low, self.high + other.high)
    }
    fn sub(&self, other: &Self) -> Self {
        Bounds::outwards(self.low - other.high, self.high - other.low)
    }
    fn mul(&self, other: &Self) -> Self {
        Bounds::outwards(self.low * other.low, self.high * other.high)
    }
    fn div(&self, other: &Self) -> Self {
        Bounds::outwards(self.low / other.high, self.high / other.low)
    }
    fn order(&self, other: &Self) -> std::cmp::Ordering {
        // Overlapping bounds may hold the same number: they count as equal.
        if self.high < other.low {
            std::cmp::Ordering::Less
        } else if other.high < self.low {
            std::cmp::Ordering::Greater
        } else {
            std::cmp::Ordering::Equal
        }
    }
    fn figure(&self) -> Figure {
        Figure::Bounded(*self)
    }
}

/// A figure of the output: an exact fraction, or bounds proven to hold it.
#[derive(Clone, Debug, PartialEq)]
pub enum Figure {
    /// Exactly this.
    Exact(Fraction),
    /// Somewhere in these bounds.
    Bounded(Bounds),
}

impl Figure {
    /// The figure as one floating-point number (the middle of bounds).
    pub fn to_f64(&self) -> f64 {
        match self {
            Figure::Exact(f) => f.to_f64(),
            Figure::Bounded(b) => (b.low + b.high) / 2.0,
        }
    }

    /// The figure with its bounds cut to `low..=high`, where the exact value is known to
    /// lie (a probability never above 1): rounding outwards may overshoot them.
    pub fn within(self, low: f64, high: f64) -> Figure {
        match self {
            Figure::Bounded(b) => Figure::Bounded(Bounds {
                low: b.low.clamp(low, high),
                high: b.high.clamp(low, high),
            }),
            exact => exact,
        }
    }
}

impl Serialize for Figure {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Figure::Exact(f) => f.serialize(s),
            Figure::Bounded(b) => b.serialize(s),
        }
    }
}

impl Serialize for Bounds {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(2))?;
        map.serialize_entry("low", &self.low)?;
        map.serialize_entry("high", &self.high)?;
        map.end()
    }
}

/// A figure worked out exactly, or sampled with its 95% confidence interval.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Measure {
    /// Exactly, or in proven bounds.
    Exact(Figure),
    /// Sampled.
    Sampled(super::Estimate),
}

impl Measure {
    /// The figure as one floating-point number.
    pub fn to_f64(&self) -> f64 {
        match self {
            Measure::Exact(f) => f.to_f64(),
            Measure::Sampled(e) => e.mean,
        }
    }
}

/// Most bead states whose figures are worked out in rationals; past it, the rationals'
/// numerators and denominators run to thousands of digits, and [`Bounds`] take over.
pub const RATIONAL_STATES: usize = 4096;

/// How a solution was computed, as the output states it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Arithmetic {
    /// Exact rational arithmetic.
    Rational,
    /// Floating-point intervals rounded outwards: each figure's bounds are proven.
    Interval,
}

/// The beads a game left, given to a walk's `intern`, and whether it took some move's last
/// bead (only then can a box fall out of reach: see [`States::lump`]).
type Intern<'a> = dyn FnMut(Beads, bool) -> Result<u32, Refusal> + 'a;

/// Sets to 0 the beads of every box that no line of play can reach any more: the opponent
/// making any move, the machine any move that still has a bead (a relay's later wiring
/// too). They can never matter: a move without beads never gets one back (a rule adds beads
/// only to moves played), so those boxes stay out of reach, and the machine's play, its
/// losses and the "can no longer lose" test never look at them.
fn drop_unreachable<G: Rules>(tree: &Tree<G>, machine: &Machine, beads: &mut Beads) {
    let mut seen = vec![false; tree.len()];
    let mut reached = vec![false; machine.box_count()];
    let mut stack: Vec<Node> = vec![0];
    while let Some(node) = stack.pop() {
        if std::mem::replace(&mut seen[node as usize], true) || tree.outcome(node).is_some() {
            continue;
        }
        if tree.to_move(node) != machine.side {
            stack.extend_from_slice(tree.children(node));
            continue;
        }
        match machine.box_at(node) {
            Some(b) => {
                reached[b as usize] = true;
                for slot in machine.slots(b).filter(|&s| beads.count(s) > 0) {
                    stack.push(machine.child(node, slot));
                }
            }
            None => machine.draws(beads, node, |draw, _, _| {
                if let Draw::Forced { child } = draw {
                    stack.push(child);
                }
            }),
        }
    }
    for b in (0..machine.box_count() as u32).filter(|&b| !reached[b as usize]) {
        for slot in machine.slots(b) {
            beads.set(machine, slot, 0);
        }
    }
}

/// The machine's bead states met so far, numbered from 0 (the kit's fresh beads).
struct States {
    /// Whether states with the same future are one: beads out of reach dropped (see
    /// [`drop_unreachable`]). Off only to test that lumping changes no figure.
    lump: bool,
    beads: Vec<Beads>,
    index: FxHashMap<Beads, u32>,
    /// Whether the machine can no longer lose in that state (the simulator's test).
    learnt: Vec<bool>,
    /// Per state, the state a lost game leads to by its last move, as far as the walks
    /// met them (see [`Walk::after_loss`]): later walks of the state need not build and
    /// look up those beads again.
    after_loss: Vec<Vec<(u32, u32)>>,
}

impl States {
    fn new<G: Rules>(tree: &Tree<G>, machine: &Machine, lump: bool) -> States {
        let mut states = States {
            lump,
            beads: Vec::new(),
            index: FxHashMap::default(),
            learnt: Vec::new(),
            after_loss: Vec::new(),
        };
        let fresh = states.lumped(tree, machine, machine.fresh_beads(), true);
        states.add(tree, machine, fresh);
        states
    }

    /// `beads` as the state that stands for them: with the beads out of reach dropped
    /// when lumping and some move lost its last bead (`emptied`), or as they are.
    fn lumped<G: Rules>(
        &self,
        tree: &Tree<G>,
        machine: &Machine,
        mut beads: Beads,
        emptied: bool,
    ) -> Beads {
        if self.lump && emptied {
            drop_unreachable(tree, machine, &mut beads);
        }
        beads
    }

    fn add<G: Rules>(&mut self, tree: &Tree<G>, machine: &Machine, beads: Beads) -> u32 {
        let id = self.beads.len() as u32;
        self.learnt.push(machine.cannot_lose(tree, &beads));
        self.after_loss.push(Vec::new());
        self.index.insert(beads.clone(), id);
        self.beads.push(beads);
        id
    }

    /// The number of the state standing for `beads` (see [`States::lumped`]), added if
    /// it is new.
    fn intern<G: Rules>(
        &mut self,
        tree: &Tree<G>,
        machine: &Machine,
        beads: Beads,
        emptied: bool,
    ) -> Result<u32, Refusal> {
        let beads = self.lumped(tree, machine, beads, emptied);
        if let Some(&id) = self.index.get(&beads) {
            return Ok(id);
        }
        // A state holds a count per move: a kit of many moves reaches the memory bound
        // long before the state bound.
        let most = MAX_STATES.min(MAX_COUNTS / beads.counts().len().max(1));
        if self.beads.len() >= most {
            return Err(Refusal(format!(
                "the machine has more than {most} bead states"
            )));
        }
        Ok(self.add(tree, machine, beads))
    }

    /// Whether the figures over these states are worked out in rationals (see
    /// [`RATIONAL_STATES`]).
    fn rational(&self) -> bool {
        self.beads.len() <= RATIONAL_STATES
    }

    /// The lines of one game with the beads of `state`, from `node` with the slots `used`
    /// played so far; every state the game can end in must be known.
    fn lines<G: Rules>(
        &self,
        tree: &Tree<G>,
        machine: &Machine,
        state: u32,
        node: Node,
        used: &[u32],
    ) -> Result<Lines, Refusal> {
        let outside = || Refusal("the machine's beads left the solved states".into());
        Lines::walk(
            tree,
            machine,
            Mover::Free,
            &self.beads[state as usize],
            state,
            node,
            used,
            &self.after_loss[state as usize],
            &mut |b, emptied| self.find(tree, machine, b, emptied).ok_or_else(outside),
        )
    }

    /// The number of the state standing for `beads`, if it is known.
    fn find<G: Rules>(
        &self,
        tree: &Tree<G>,
        machine: &Machine,
        beads: Beads,
        emptied: bool,
    ) -> Option<u32> {
        let beads = self.lumped(tree, machine, beads, emptied);
        self.index.get(&beads).copied()
    }

    /// The states in [`States::backwards`] order, in groups of equal beads: no game
    /// leads from a state to another of its group, so a group's states can be solved
    /// side by side once the groups before it are.
    fn levels(&self) -> Vec<Vec<u32>> {
        let total = |s: u32| {
            self.beads[s as usize]
                .counts()
                .iter()
                .map(|&n| u64::from(n))
                .sum::<u64>()
        };
        self.backwards()
            .chunk_by(|&a, &b| total(a) == total(b))
            .map(<[u32]>::to_vec)
            .collect()
    }

    /// State numbers with fewer beads first: every game that changes the beads leads to a
    /// state earlier in this order.
    fn backwards(&self) -> Vec<u32> {
        let total = |b: &Beads| b.counts().iter().map(|&n| u64::from(n)).sum::<u64>();
        let mut order: Vec<u32> = (0..self.beads.len() as u32).collect();
        order.sort_by_cached_key(|&s| total(&self.beads[s as usize]));
        order
    }
}

/// One step of the lines of play of a single game from one bead state.
enum Step {
    /// The game is over; the machine's beads are now those of `state`.
    End {
        /// The state after the rule was applied.
        state: u32,
        /// Whether the machine lost (or resigned).
        loss: bool,
        /// Whether it won.
        won: bool,
    },
    /// A random choice: a bead drawn, or a rule-following opponent's move among equals.
    Chance(Vec<(u32, u32)>),
    /// An opponent free to choose, with each move and the step it leads to.
    Choice(Vec<(Node, u32)>),
}

/// Every line of play of one game: steps stored children first, so the root is the last.
struct Lines {
    steps: Vec<Step>,
    /// The state a lost game leads to by its last move, for each last move met.
    after_loss: Vec<(u32, u32)>,
}

/// How the opponent moves on a walk: as a rule-following opponent, or free.
#[derive(Clone, Copy)]
enum Mover {
    Follows(OpponentKind),
    Free,
}

/// Walks the game from `node` with the machine's beads as in `state`, the slots `used`
/// played so far, and the opponent as `mover`; `intern` numbers the beads after a game.
struct Walk<'a, G: Rules> {
    tree: &'a Tree<G>,
    machine: &'a Machine,
    mover: Mover,
    beads: &'a Beads,
    state: u32,
    used: Vec<u32>,
    steps: Vec<Step>,
    ends: FxHashMap<(u32, bool, bool), u32>,
    /// The state after a lost game, by its last move, for a rule that looks at no other
    /// (see [`Rule::learns_from_last_move`]): a kit of many boxes meets the same few
    /// bead changes at millions of ends, and builds and numbers each only once.
    after_loss: FxHashMap<u32, u32>,
}

impl<G: Rules> Walk<'_, G> {
    fn push(&mut self, step: Step) -> u32 {
        self.steps.push(step);
        self.steps.len() as u32 - 1
    }

    fn end(&mut self, end: End, intern: &mut Intern) -> Result<u32, Refusal> {
        let rule = self.machine.rule;
        let last = self.used.last().copied();
        let known = last.filter(|_| rule.learns_from_last_move() && end.is_loss());
        let state = if !rule.may_change(self.machine, &self.used, end) {
            self.state
        } else if let Some(&state) = known.and_then(|last| self.after_loss.get(&last)) {
            state
        } else {
            let (mut after, mut emptied) = (self.beads.clone(), Vec::new());
            rule.apply(self.machine, &mut after, &self.used, end, &mut emptied);
            let state = if after == *self.beads {
                self.state
            } else {
                intern(after, !emptied.is_empty())?
            };
            if let Some(last) = known {
                self.after_loss.insert(last, state);
            }
            state
        };
        let (loss, won) = (end.is_loss(), end == End::Won);
        if let Some(&step) = self.ends.get(&(state, loss, won)) {
            return Ok(step);
        }
        let step = self.push(Step::End { state, loss, won });
        self.ends.insert((state, loss, won), step);
        Ok(step)
    }

    fn walk(&mut self, node: Node, intern: &mut Intern) -> Result<u32, Refusal> {
        let (tree, machine) = (self.tree, self.machine);
        if let Some(outcome) = tree.outcome(node) {
            return self.end(End::of(outcome, machine.side), intern);
        }
        if self.steps.len() > MAX_STEPS {
            return Err(Refusal(format!(
                "a game from one bead state has more than {MAX_STEPS} lines of play"
            )));
        }
        let mut parts = Vec::new();
        if tree.to_move(node) == machine.side {
            let mut draws = Vec::new();
            machine.draws(self.beads, node, |draw, weight, _| {
                draws.push((draw, weight))
            });
            for (draw, weight) in draws {
                let step = match draw {
                    Draw::Bead { slot, child, .. } => {
                        self.used.push(slot);
                        let step = self.walk(child, intern);
                        self.used.pop();
                        step?
                    }
                    Draw::Forced { child } => self.walk(child, intern)?,
                    Draw::Resign { .. } => self.end(End::Resigned, intern)?,
                };
                parts.push((weight, step));
            }
        } else {
            let moves = match self.mover {
                Mover::Follows(kind) => opponent_moves(kind, tree, node, machine, self.beads),
                Mover::Free => {
                    let mut choice = Vec::new();
                    for &child in tree.children(node) {
                        choice.push((child, self.walk(child, intern)?));
                    }
                    return Ok(self.push(Step::Choice(choice)));
                }
            };
            for child in moves {
                parts.push((1, self.walk(child, intern)?));
            }
        }
        Ok(match parts[..] {
            [(_, only)] => only,
            _ => self.push(Step::Chance(parts)),
        })
    }
}

/// Refuses at once a kit whose first game, from the fresh beads, has more lines of play
/// than a walk may hold: counting them over the positions costs a moment, where the walk
/// would take seconds to fill [`MAX_STEPS`] and give up.
fn lines_fit<G: Rules>(tree: &Tree<G>, machine: &Machine, mover: Mover) -> Result<(), Refusal> {
    let beads = machine.fresh_beads();
    // Per node: a lower bound on the steps a walk from it stores (its choices and random
    // draws; the game ends, which it stores once each, are left out).
    let mut steps = vec![0u64; tree.len()];
    let order = crate::boxes::topological_order(tree.len(), tree.all_children(), |i| {
        tree.children(i as Node)
    });
    for &node in order.iter().rev() {
        let node = node as Node;
        if tree.outcome(node).is_some() {
            continue;
        }
        let below = |child: Node| steps[child as usize];
        let (mut sum, mut ways) = (0u64, 0u64);
        if tree.to_move(node) == machine.side {
            machine.draws(&beads, node, |draw, _, _| {
                ways += 1;
                if let Draw::Bead { child, .. } | Draw::Forced { child } = draw {
                    sum = sum.saturating_add(below(child));
                }
            });
        } else {
            let moves = match mover {
                Mover::Follows(kind) => opponent_moves(kind, tree, node, machine, &beads),
                Mover::Free => tree.children(node).to_vec(),
            };
            ways = moves.len() as u64;
            sum = moves.iter().fold(0u64, |s, &c| s.saturating_add(below(c)));
            // A free opponent's choice is stored even when it has one move.
            ways += u64::from(matches!(mover, Mover::Free));
        }
        steps[node as usize] = sum.saturating_add(u64::from(ways >= 2));
    }
    // A walk gives up on entering a position with more than MAX_STEPS steps stored; at the
    // last position it enters, all but its own and its ancestors' are.
    if steps[0] > (MAX_STEPS + tree.len()) as u64 {
        return Err(Refusal(format!(
            "a game from one bead state has more than {MAX_STEPS} lines of play"
        )));
    }
    Ok(())
}

/// The moves a rule-following opponent picks from uniformly: the same sets as the
/// simulation's [`super::Automatic`] opponents.
fn opponent_moves<G: Rules>(
    kind: OpponentKind,
    tree: &Tree<G>,
    node: Node,
    machine: &Machine,
    beads: &Beads,
) -> Vec<Node> {
    match kind {
        OpponentKind::Perfect => tree.best_children(node).to_vec(),
        OpponentKind::Teacher => teacher_moves(tree, node, machine, beads).into_owned(),
        _ => tree.children(node).to_vec(),
    }
}

impl Lines {
    /// The lines of one game from `node`, with `used` played so far in it.
    /// `after_loss` holds the states lost games lead to, by their last move, already
    /// known (see [`Walk::after_loss`]).
    #[allow(clippy::too_many_arguments)]
    fn walk<G: Rules>(
        tree: &Tree<G>,
        machine: &Machine,
        mover: Mover,
        beads: &Beads,
        state: u32,
        node: Node,
        used: &[u32],
        after_loss: &[(u32, u32)],
        intern: &mut Intern,
    ) -> Result<Lines, Refusal> {
        let mut walk = Walk {
            tree,
            machine,
            mover,
            beads,
            state,
            used: used.to_vec(),
            steps: Vec::new(),
            ends: FxHashMap::default(),
            after_loss: after_loss.iter().copied().collect(),
        };
        walk.walk(node, intern)?;
        let mut after_loss: Vec<(u32, u32)> = walk.after_loss.into_iter().collect();
        after_loss.sort_unstable();
        Ok(Lines {
            steps: walk.steps,
            after_loss,
        })
    }

    /// Every end of the game as `(state, loss)`: each can happen, since the machine draws
    /// only beads it has.
    fn end_steps(&self) -> Vec<(u32, bool)> {
        self.steps
            .iter()
            .filter_map(|step| match *step {
                Step::End { state, loss, .. } => Some((state, loss)),
                _ => None,
            })
            .collect()
    }

    /// The chance of each end of the game, the opponent's free choices made by `choose`
    /// (which returns the steps it picks from uniformly): `(state, loss, chance)`; and
    /// the chance that the machine wins.
    fn ends<N: Number>(&self, choose: &Picker<'_>) -> (Transitions<N>, N) {
        let mut reach: Vec<Option<N>> = vec![None; self.steps.len()];
        let root = self.steps.len() - 1;
        reach[root] = Some(one());
        let (mut ends, mut wins) = (Vec::new(), zero::<N>());
        let add = |reach: &mut Vec<Option<N>>, step: u32, p: N| {
            let at = &mut reach[step as usize];
            *at = Some(match at.take() {
                Some(q) => q.add(&p),
                None => p,
            });
        };
        // Children come before their parents, so walking backwards meets every step after
        // all the ways into it.
        for i in (0..=root).rev() {
            let Some(here) = reach[i].take() else {
                continue;
            };
            match &self.steps[i] {
                Step::End { state, loss, won } => {
                    if *won {
                        wins = wins.add(&here);
                    }
                    ends.push((*state, *loss, here));
                }
                Step::Chance(parts) => {
                    let total: u32 = parts.iter().map(|p| p.0).sum();
                    for &(weight, step) in parts {
                        add(&mut reach, step, here.mul(&N::ratio(weight, total)));
                    }
                }
                Step::Choice(moves) => {
                    let picked = choose(moves);
                    let share = here.mul(&N::ratio(1, picked.len() as u32));
                    for step in picked {
                        add(&mut reach, step, share.clone());
                    }
                }
            }
        }
        (ends, wins)
    }

    /// Each step's worth to an opponent pursuing `goal`, as `a + b x` where `x` stands
    /// for the worth of this game's own state `state` and `values` holds every other
    /// state's. At a free choice the opponent takes the move best for `goal` when `x` is
    /// `guess` (infinite when `guess` is `None`); the moves taken are returned too.
    fn affine<N: Number>(
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
    fn fastest<N: Number>(steps: &[Affine<N>], moves: &[(Node, u32)], value: &N) -> Vec<usize> {
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
struct Affine<N> {
    a: N,
    b: N,
    leaves: bool,
}

/// What the opponent of a decision problem wants.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Goal {
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
    fn reward<N: Number>(self, loss: bool) -> N {
        N::ratio(u32::from(self == Goal::FewestGames || loss), 1)
    }

    /// The worth of `state` when the opponent plays its best: policy iteration over the
    /// opponent's choices in this one game until its choices stop changing. Also every
    /// step's worth (see [`Lines::affine`]) under the choices it settled on.
    fn solve<N: Number>(self, lines: &Lines, state: u32, values: &[N]) -> (N, Vec<Affine<N>>) {
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

/// One game from a state: every way it can end, `(state, loss, chance)`.
type Transitions<N> = Vec<(u32, bool, N)>;

/// How an opponent free to choose picks among `(move, step)`: the steps it picks from
/// uniformly.
type Picker<'a> = dyn Fn(&[(Node, u32)]) -> Vec<u32> + 'a;

/// The lines of play of one game from a state, by its number.
type LinesOf<'a> = dyn Fn(usize) -> Result<Lines, Refusal> + Sync + 'a;

/// The fastest teacher's worth of every state and its one-game transitions.
type Decided<N> = (Vec<N>, Vec<Transitions<N>>);

/// The Markov chain of the states in `states` under `next`, solved backwards in the
/// arithmetic `N`.
fn solve_chain<N: Number>(
    states: &States,
    next: &[Transitions<N>],
    opponent: OpponentKind,
    arithmetic: Arithmetic,
) -> Distribution {
    let n = states.beads.len();
    // Per state: the chance of each number of losses to learn, of never learning, and
    // the mean number of games (None when it may never learn).
    let mut losses: Vec<Vec<N>> = vec![Vec::new(); n];
    let mut never: Vec<N> = vec![zero::<N>(); n];
    let mut games: Vec<Option<N>> = vec![None; n];
    for s in states.backwards() {
        let s = s as usize;
        if states.learnt[s] {
            losses[s] = vec![one::<N>()];
            games[s] = Some(zero::<N>());
            continue;
        }
        if next[s].iter().all(|t| t.0 as usize == s) {
            never[s] = one::<N>();
            continue;
        }
        let leave = next[s]
            .iter()
            .filter(|t| t.0 as usize != s)
            .fold(zero::<N>(), |sum, t| sum.add(&t.2));
        let mut dist: Vec<N> = Vec::new();
        let (mut lost, mut mean) = (zero::<N>(), Some(one::<N>().div(&leave)));
        for (t, loss, p) in next[s].iter().filter(|t| t.0 as usize != s) {
            // The chance of going to `t`, given that the game leaves this state.
            let p = p.div(&leave);
            let t = *t as usize;
            let shift = usize::from(*loss);
            if dist.len() < losses[t].len() + shift {
                dist.resize(losses[t].len() + shift, zero::<N>());
            }
            for (k, q) in losses[t].iter().enumerate() {
                dist[k + shift] = dist[k + shift].add(&p.mul(q));
            }
            lost = lost.add(&p.mul(&never[t]));
            mean = mean.zip(games[t].as_ref()).map(|(m, g)| m.add(&p.mul(g)));
        }
        losses[s] = dist;
        never[s] = lost;
        games[s] = mean;
    }
    let fresh: BTreeMap<u32, N> = losses[0]
        .iter()
        .enumerate()
        .filter(|(_, q)| q.order(&zero::<N>()).is_gt())
        .map(|(k, q)| (k as u32, q.clone()))
        .collect();
    // The bounds a figure is known to keep: the fewest and most losses with a chance.
    let fewest = fresh.keys().next().map_or(0.0, |&k| f64::from(k));
    let most = fresh.keys().next_back().map_or(0.0, |&k| f64::from(k));
    let mean_losses = games[0].is_some().then(|| {
        fresh
            .iter()
            .map(|(k, q)| N::ratio(*k, 1).mul(q))
            .fold(zero::<N>(), |sum, x| sum.add(&x))
            .figure()
            .within(fewest, most)
    });
    Distribution {
        opponent,
        states: n,
        arithmetic,
        losses: fresh
            .iter()
            .map(|(k, q)| (*k, q.figure().within(0.0, 1.0)))
            .collect(),
        never: never[0].figure().within(0.0, 1.0),
        mean_losses,
        // A game lost is a game played.
        mean_games: games[0]
            .as_ref()
            .map(|g| g.figure().within(fewest, f64::INFINITY)),
    }
}

/// Refuses the rules whose bead states are not finite and shrinking.
fn finite_rule(machine: &Machine) -> Result<(), Refusal> {
    match machine.rule {
        Rule::Gardner | Rule::Relay => Ok(()),
        rule => Err(Refusal(format!(
            "the rule {} adds beads, so the machine's bead states have no bound",
            rule.name()
        ))),
    }
}

/// A loss that leaves the beads as they were (an empty box at the machine's first move)
/// repeats for ever: the losses have no bound, and the exact path does not cover it.
fn shrinking(state: u32, ends: &[(u32, bool)]) -> Result<(), Refusal> {
    if ends.iter().any(|t| t.0 == state && t.1) {
        return Err(Refusal(
            "the machine can lose without a bead being taken (an empty box at its first move)"
                .into(),
        ));
    }
    Ok(())
}

/// Every bead state the machine can reach against a rule-following `opponent`, with the
/// lines of one game from each state that has not learnt.
fn following<G: Rules>(
    tree: &Tree<G>,
    machine: &Machine,
    opponent: OpponentKind,
    lump: bool,
) -> Result<(States, Vec<Option<Lines>>), Refusal> {
    finite_rule(machine)?;
    lines_fit(tree, machine, Mover::Follows(opponent))?;
    let mut states = States::new(tree, machine, lump);
    let mut lines: Vec<Option<Lines>> = Vec::new();
    let mut s = 0;
    while s < states.beads.len() {
        lines.push(if states.learnt[s] {
            None
        } else {
            let beads = states.beads[s].clone();
            Some(Lines::walk(
                tree,
                machine,
                Mover::Follows(opponent),
                &beads,
                s as u32,
                0,
                &[],
                &[],
                &mut |b, emptied| states.intern(tree, machine, b, emptied),
            )?)
        });
        s += 1;
    }
    Ok((states, lines))
}

/// The exact distribution of losses and games to learn against a rule-following opponent
/// (`random`, `perfect` or `teacher`): in rationals when the states are at most
/// [`RATIONAL_STATES`], in proven bounds otherwise.
pub fn distribution<G: Rules>(
    tree: &Tree<G>,
    machine: &Machine,
    opponent: OpponentKind,
) -> Result<Distribution, Refusal> {
    distribution_over(tree, machine, opponent, true)
}

/// [`distribution`] over lumped states or, with `lump` off, over all of them.
fn distribution_over<G: Rules>(
    tree: &Tree<G>,
    machine: &Machine,
    opponent: OpponentKind,
    lump: bool,
) -> Result<Distribution, Refusal> {
    let (states, lines) = following(tree, machine, opponent, lump)?;
    for (s, walk) in lines.iter().enumerate() {
        if let Some(walk) = walk {
            shrinking(s as u32, &walk.end_steps())?;
        }
    }
    fn chain<N: Number>(
        states: &States,
        lines: &[Option<Lines>],
        opponent: OpponentKind,
        arithmetic: Arithmetic,
    ) -> Distribution {
        let next: Vec<Transitions<N>> = lines
            .iter()
            .map(|l| {
                l.as_ref()
                    .map_or_else(Vec::new, |l| l.ends(&|_| Vec::new()).0)
            })
            .collect();
        solve_chain(states, &next, opponent, arithmetic)
    }
    Ok(if states.rational() {
        chain::<Q>(&states, &lines, opponent, Arithmetic::Rational)
    } else {
        chain::<Bounds>(&states, &lines, opponent, Arithmetic::Interval)
    })
}

/// Every state's worth to the fastest teacher, in the arithmetic it was solved in.
enum Worths {
    Rational(Vec<Q>),
    Interval(Vec<Bounds>),
}

/// What every opponent can do: the worst cases, and the fastest teacher's strategy.
pub struct Teaching {
    states: States,
    /// Expected games to learn from each state under the fastest teacher.
    games: Worths,
    /// The most losses from the fresh beads, draws and opponent both against the machine.
    worst: u32,
    /// The fastest teacher's figures from the fresh beads.
    fastest: Distribution,
}

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
fn decide<N: Number>(states: &States, lines_of: &LinesOf) -> Result<Decided<N>, Refusal> {
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
fn most_losses<N: Number>(states: &States, lines_of: &LinesOf) -> Result<N, Refusal> {
    let (mut most, _) = by_levels(states, lines_of, |id, lines, most: &[N]| {
        (Goal::MostLosses.solve(lines, id, most).0, ())
    })?;
    Ok(most.swap_remove(0))
}

impl Teaching {
    /// Enumerates every bead state any opponent can bring the machine to and solves the
    /// decision problems over them.
    pub fn solve<G: Rules>(tree: &Tree<G>, machine: &Machine) -> Result<Teaching, Refusal> {
        Teaching::solve_over(tree, machine, true)
    }

    /// [`Teaching::solve`] over lumped states or, with `lump` off, over all of them.
    fn solve_over<G: Rules>(
        tree: &Tree<G>,
        machine: &Machine,
        lump: bool,
    ) -> Result<Teaching, Refusal> {
        finite_rule(machine)?;
        lines_fit(tree, machine, Mover::Free)?;
        let mut states = States::new(tree, machine, lump);
        let mut worst_ends: Vec<Vec<(u32, bool)>> = Vec::new();
        let mut s = 0;
        while s < states.beads.len() {
            let mut ends = Vec::new();
            if !states.learnt[s] {
                let beads = states.beads[s].clone();
                let lines = Lines::walk(
                    tree,
                    machine,
                    Mover::Free,
                    &beads,
                    s as u32,
                    0,
                    &[],
                    &[],
                    &mut |b, emptied| states.intern(tree, machine, b, emptied),
                )?;
                ends = lines.end_steps();
                shrinking(s as u32, &ends)?;
                states.after_loss[s] = lines.after_loss;
            }
            worst_ends.push(ends);
            s += 1;
        }
        let order = states.backwards();
        let mut worst = vec![0u32; states.beads.len()];
        for &s in &order {
            let s = s as usize;
            for &(t, loss) in &worst_ends[s] {
                if t as usize != s {
                    worst[s] = worst[s].max(u32::from(loss) + worst[t as usize]);
                }
            }
        }
        drop(worst_ends);
        let lines_of = |s: usize| states.lines(tree, machine, s as u32, 0, &[]);
        /// The decision problems and the fastest teacher's chain, in the arithmetic `N`.
        fn solved<N: Number>(
            states: &States,
            lines_of: &LinesOf,
            arithmetic: Arithmetic,
            keep: fn(Vec<N>) -> Worths,
        ) -> Result<(Worths, Distribution), Refusal> {
            let (games, next) = decide::<N>(states, lines_of)?;
            let fastest = solve_chain(states, &next, OpponentKind::OptimalTeacher, arithmetic);
            Ok((keep(games), fastest))
        }
        let (games, fastest) = if states.rational() {
            solved::<Q>(&states, &lines_of, Arithmetic::Rational, Worths::Rational)?
        } else {
            solved::<Bounds>(&states, &lines_of, Arithmetic::Interval, Worths::Interval)?
        };
        Ok(Teaching {
            worst: worst[0],
            states,
            games,
            fastest,
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
    /// the same states, solved when asked.
    pub fn most_expected_losses<G: Rules>(
        &self,
        tree: &Tree<G>,
        machine: &Machine,
    ) -> Result<Figure, Refusal> {
        let states = &self.states;
        let lines_of = |s: usize| states.lines(tree, machine, s as u32, 0, &[]);
        Ok(if states.rational() {
            most_losses::<Q>(states, &lines_of)?.figure()
        } else {
            most_losses::<Bounds>(states, &lines_of)?.figure()
        })
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
        let beads = learner.beads.clone();
        let state = self
            .states
            .find(tree, learner.machine, beads, true)
            .ok_or_else(|| Error::Internal("the machine's beads left the solved states".into()))?;
        let lines = self
            .states
            .lines(tree, learner.machine, state, node, learner.used())
            .map_err(|r| Error::Internal(r.0))?;
        let Some(Step::Choice(moves)) = lines.steps.last() else {
            return Err(Error::Internal(
                "the teacher was asked at the machine's turn".into(),
            ));
        };
        let mut picks = match &self.games {
            Worths::Rational(games) => fastest_picks(&lines, state, games),
            Worths::Interval(games) => fastest_picks(&lines, state, games),
        };
        let best = picks.pop().unwrap_or_default();
        Ok(best.into_iter().map(|k| moves[k].0).collect())
    }
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
    /// The principle of the fastest teacher's strategy (see [`Principle`]).
    pub fn principle<G: Rules>(
        &self,
        tree: &Tree<G>,
        machine: &Machine,
    ) -> Result<Principle, Refusal> {
        let mut principle = Principle::default();
        let mut seen = vec![false; self.states.beads.len()];
        seen[0] = true;
        let mut queue = vec![0u32];
        while let Some(state) = queue.pop() {
            if self.states.learnt[state as usize] {
                continue;
            }
            let lines = self.states.lines(tree, machine, state, 0, &[])?;
            let picks = match &self.games {
                Worths::Rational(games) => fastest_picks(&lines, state, games),
                Worths::Interval(games) => fastest_picks(&lines, state, games),
            };
            // Whether the machine can still lose from each step (children come first).
            let mut can_lose: Vec<bool> = Vec::with_capacity(lines.steps.len());
            for step in &lines.steps {
                let here = match step {
                    Step::End { loss, .. } => *loss,
                    Step::Chance(parts) => parts.iter().any(|p| can_lose[p.1 as usize]),
                    Step::Choice(moves) => moves.iter().any(|m| can_lose[m.1 as usize]),
                };
                can_lose.push(here);
            }
            let mut reached = vec![false; lines.steps.len()];
            reached[lines.steps.len() - 1] = true;
            for i in (0..lines.steps.len()).rev() {
                if !reached[i] {
                    continue;
                }
                match &lines.steps[i] {
                    Step::End { state: next, .. } => {
                        if !seen[*next as usize] {
                            seen[*next as usize] = true;
                            queue.push(*next);
                        }
                    }
                    Step::Chance(parts) => parts.iter().for_each(|p| reached[p.1 as usize] = true),
                    Step::Choice(moves) => {
                        let picked = &picks[i];
                        let best = moves.iter().map(|m| -tree.value(m.0)).max();
                        let all =
                            |f: &dyn Fn(&(Node, u32)) -> bool| picked.iter().all(|&k| f(&moves[k]));
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
                            .for_each(|&k| reached[moves[k].1 as usize] = true);
                    }
                }
            }
        }
        Ok(principle)
    }
}

/// The fastest teacher's equally good moves at every free choice of `lines` (empty at the
/// other steps), the game played from `state`.
fn fastest_picks<N: Number>(lines: &Lines, state: u32, games: &[N]) -> Vec<Vec<usize>> {
    let value = &games[state as usize];
    let (steps, _) = lines.affine(state, games, Goal::FewestGames, Some(value));
    lines
        .steps
        .iter()
        .map(|step| match step {
            Step::Choice(moves) => Lines::fastest(&steps, moves, value),
            _ => Vec::new(),
        })
        .collect()
}

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
    /// the first in the order perfect, teacher, teaching.
    pub fn all<G: Rules>(tree: &Tree<G>, machine: &Machine) -> Result<Solved, Refusal> {
        let ((perfect, teacher), teaching) = crate::parallel::join(
            || {
                crate::parallel::join(
                    || distribution(tree, machine, OpponentKind::Perfect),
                    || distribution(tree, machine, OpponentKind::Teacher),
                )
            },
            || Teaching::solve(tree, machine),
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
        } = Solved::all(tree, machine).ok()?;
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
            principle: teaching.principle(tree, machine).ok()?,
            worst_losses: teaching.worst_losses(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::fixtures::{self, HER, Pawns, Stones};
    use crate::simulate::{Estimate, Setup, Stats, train};

    fn her() -> Setup<Pawns> {
        let (game, kit) = fixtures::pawns(HER);
        Setup::new(&game, &kit, kit.rule, false).unwrap()
    }

    fn nim_setup(preset: &str) -> Setup<Stones> {
        let (game, kit) = fixtures::stones(preset);
        Setup::new(&game, &kit, kit.rule, false).unwrap()
    }

    fn exact(n: u32, d: u32) -> Figure {
        Q::new(n.into(), d.into()).figure()
    }

    #[test]
    fn her_loses_9_10_or_11_games_against_a_perfect_opponent() {
        let s = her();
        let d = distribution(&s.tree, &s.machine, OpponentKind::Perfect).unwrap();
        assert_eq!(d.arithmetic, Arithmetic::Rational);
        assert_eq!(
            d.losses,
            BTreeMap::from([(9, exact(1, 4)), (10, exact(1, 4)), (11, exact(1, 2))])
        );
        assert_eq!(d.mean_losses, Some(exact(41, 4)));
        assert_eq!(d.never, exact(0, 1));
    }

    #[test]
    fn her_loses_11_1727761622_games_on_average_to_a_random_opponent() {
        let s = her();
        let d = distribution(&s.tree, &s.machine, OpponentKind::Random).unwrap();
        let Some(Figure::Bounded(mean)) = d.mean_losses else {
            panic!("{:?}", d.mean_losses)
        };
        for end in [mean.low, mean.high] {
            assert_eq!(format!("{end:.10}"), "11.1727761622");
        }
        assert_eq!((d.min_losses(), d.max_losses()), (Some(9), Some(16)));
        // Probabilities in proven bounds, none of them above 1.
        for f in d.losses.values().chain([&d.never]) {
            let Figure::Bounded(b) = f else {
                panic!("{f:?}")
            };
            assert!(0.0 <= b.low && b.low <= b.high && b.high <= 1.0, "{b:?}");
        }
    }

    /// Two figures agree: exactly, or their proven bounds overlap.
    fn agree(x: &Figure, y: &Figure) -> bool {
        match (x, y) {
            (Figure::Exact(a), Figure::Exact(b)) => a == b,
            (Figure::Bounded(a), Figure::Bounded(b)) => a.low <= b.high && b.low <= a.high,
            _ => false,
        }
    }

    fn same_figures(x: &Distribution, y: &Distribution) {
        assert_eq!(
            x.losses.keys().collect::<Vec<_>>(),
            y.losses.keys().collect::<Vec<_>>()
        );
        for (a, b) in x
            .losses
            .values()
            .zip(y.losses.values())
            .chain([(&x.never, &y.never)])
        {
            assert!(agree(a, b), "{a:?} {b:?}");
        }
        for (a, b) in [
            (&x.mean_losses, &y.mean_losses),
            (&x.mean_games, &y.mean_games),
        ] {
            assert!(a.iter().zip(b).all(|(a, b)| agree(a, b)), "{a:?} {b:?}");
            assert_eq!(a.is_some(), b.is_some());
        }
    }

    #[test]
    fn lumped_states_give_the_figures_of_all_states() {
        // HER's 65,536 bead states any opponent can bring about are 19,648 once the
        // beads out of reach are dropped, as two independent solvers count them.
        let s = her();
        let full = Teaching::solve_over(&s.tree, &s.machine, false).unwrap();
        let lumped = Teaching::solve(&s.tree, &s.machine).unwrap();
        assert_eq!((full.states(), lumped.states()), (65_536, 19_648));
        same_figures(full.fastest(), lumped.fastest());
        assert_eq!(full.worst_losses(), lumped.worst_losses());
        let mut counts = Vec::new();
        for opponent in [OpponentKind::Perfect, OpponentKind::Teacher] {
            let full = distribution_over(&s.tree, &s.machine, opponent, false).unwrap();
            let lumped = distribution(&s.tree, &s.machine, opponent).unwrap();
            same_figures(&full, &lumped);
            counts.push(("hexapawn", opponent, full.states, lumped.states));
        }
        for preset in ["bachet", "bachet-relay"] {
            let s = nim_setup(preset);
            for opponent in [OpponentKind::Perfect, OpponentKind::Teacher] {
                let full = distribution_over(&s.tree, &s.machine, opponent, false).unwrap();
                let lumped = distribution(&s.tree, &s.machine, opponent).unwrap();
                same_figures(&full, &lumped);
                counts.push((preset, opponent, full.states, lumped.states));
            }
            let full = Teaching::solve_over(&s.tree, &s.machine, false).unwrap();
            let lumped = Teaching::solve(&s.tree, &s.machine).unwrap();
            same_figures(full.fastest(), lumped.fastest());
            assert_eq!(full.worst_losses(), lumped.worst_losses());
            counts.push((
                preset,
                OpponentKind::OptimalTeacher,
                full.states(),
                lumped.states(),
            ));
        }
        // Against a rule-following opponent fewer boxes fall out of reach; Bachet's never
        // do (every count of stones can come up whatever the machine plays).
        use OpponentKind::{OptimalTeacher, Perfect, Teacher};
        assert_eq!(
            counts,
            [
                ("hexapawn", Perfect, 2048, 1664),
                ("hexapawn", Teacher, 976, 736),
                ("bachet", Perfect, 960, 960),
                ("bachet", Teacher, 616, 616),
                ("bachet", OptimalTeacher, 960, 960),
                ("bachet-relay", Perfect, 24, 24),
                ("bachet-relay", Teacher, 9, 9),
                ("bachet-relay", OptimalTeacher, 24, 24),
            ]
        );
    }

    #[test]
    fn bachet_always_loses_12_and_the_relay_6() {
        let s = nim_setup("bachet");
        let d = distribution(&s.tree, &s.machine, OpponentKind::Perfect).unwrap();
        assert_eq!(d.losses, BTreeMap::from([(12, exact(1, 1))]));
        let s = nim_setup("bachet-relay");
        let d = distribution(&s.tree, &s.machine, OpponentKind::Perfect).unwrap();
        assert_eq!(d.losses, BTreeMap::from([(6, exact(1, 1))]));
    }

    #[test]
    fn a_game_of_too_many_lines_is_refused_before_any_walk() {
        let kit = crate::kit::Kit::from_yaml("preset: bachet\nstones: 1000\n", "test").unwrap();
        let crate::game::AnyGame::Nim(game) = &kit.game else {
            panic!("a nim kit")
        };
        let s = Setup::new(game, &kit, kit.rule, false).unwrap();
        let too_many =
            format!("a game from one bead state has more than {MAX_STEPS} lines of play");
        for opponent in [OpponentKind::Perfect, OpponentKind::Random] {
            let refusal = distribution(&s.tree, &s.machine, opponent).unwrap_err();
            assert_eq!(refusal.0, too_many);
        }
        assert_eq!(
            Teaching::solve(&s.tree, &s.machine).err().unwrap().0,
            too_many
        );
        // The small kits fit.
        let s = her();
        for mover in [Mover::Free, Mover::Follows(OpponentKind::Teacher)] {
            assert!(lines_fit(&s.tree, &s.machine, mover).is_ok());
        }
    }

    #[test]
    fn the_exact_distribution_agrees_with_10000_sampled_runs() {
        let s = her();
        let d = distribution(&s.tree, &s.machine, OpponentKind::Perfect).unwrap();
        let t = train(&s, OpponentKind::Perfect, 10_000, 10_000, 12, &|_| {}).unwrap();
        let sampled: Stats = t.losses_to_learn.unwrap();
        assert_eq!(t.unfinished, 0);
        // Every number of losses either side saw: a chance the sampling never met must
        // be small enough for its interval from 0 hits.
        let counts: std::collections::BTreeSet<u32> = d
            .losses
            .keys()
            .chain(sampled.histogram.keys())
            .copied()
            .collect();
        for k in counts {
            let hits = sampled.histogram.get(&k).copied().unwrap_or(0);
            let e = Estimate::share(hits, 10_000);
            let p = d.losses.get(&k).map_or(0.0, Figure::to_f64);
            assert!(e.low <= p && p <= e.high, "{k} losses: {p} outside {e:?}");
        }
        for (exact, sampled) in [
            (&d.mean_losses, &sampled.mean_interval),
            (&d.mean_games, &t.games_to_learn.unwrap().mean_interval),
        ] {
            let mean = exact.as_ref().unwrap().to_f64();
            assert!(
                sampled.low <= mean && mean <= sampled.high,
                "{mean} outside {sampled:?}"
            );
        }
    }

    #[test]
    fn the_fastest_teachers_principle_is_read_off_its_strategy() {
        let principle = |s: &Setup<_>| {
            let t = Teaching::solve(&s.tree, &s.machine).unwrap();
            t.principle(&s.tree, &s.machine).unwrap()
        };
        // HER: it wins at every mistake, and otherwise always leaves the machine a chance
        // to go wrong, until no box ahead holds a losing bead.
        let p = principle(&her());
        assert!(
            p.chances_to_win > 0 && p.wins_taken == p.chances_to_win,
            "{p:?}"
        );
        assert!(
            p.chances_to_teach > 0 && p.steered == p.chances_to_teach,
            "{p:?}"
        );
        assert!(p.nothing_to_teach > 0, "{p:?}");
        // The relay unwires the move that lost: winning later, at a second mistake, is as
        // fast as winning at the first, so it does not always win at once.
        let s = nim_setup("bachet-relay");
        let t = Teaching::solve(&s.tree, &s.machine).unwrap();
        let p = t.principle(&s.tree, &s.machine).unwrap();
        assert!(0 < p.wins_taken && p.wins_taken < p.chances_to_win, "{p:?}");
    }

    #[test]
    fn rationals_and_bounds_give_the_same_figures() {
        let s = nim_setup("bachet");
        let t = Teaching::solve(&s.tree, &s.machine).unwrap();
        assert_eq!(t.worst_losses(), 12);
        let (tree, machine, states) = (&s.tree, &s.machine, &t.states);
        assert_eq!(t.most_expected_losses(tree, machine).unwrap(), exact(12, 1));
        let lines_of = |i: usize| states.lines(tree, machine, i as u32, 0, &[]);
        let (rational, _) = decide::<Q>(states, &lines_of).unwrap();
        let (bounds, _) = decide::<Bounds>(states, &lines_of).unwrap();
        let most = most_losses::<Bounds>(states, &lines_of).unwrap();
        let games = rational[0].to_f64().unwrap();
        assert!(bounds[0].low <= games && games <= bounds[0].high);
        assert!(most.low <= 12.0 && 12.0 <= most.high);
        assert_eq!(t.fastest().mean_games, Some(rational[0].figure()));
        // Here the one-move teacher is already as fast as can be.
        let teacher = distribution(tree, machine, OpponentKind::Teacher).unwrap();
        let slow = teacher.mean_games.unwrap().to_f64();
        assert!(games <= slow, "{games} {slow}");
    }
}
