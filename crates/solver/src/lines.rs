//! The lines of play of one game from one bead state: the machine's draws with their
//! chances, the opponent's moves (as a rule-following opponent plays them, or free to
//! choose), and the bead state each end of the game leads to.
//!
//! A walk is done for every state, often several times, so its steps go to flat arrays
//! that are cleared and refilled ([`Lines`], [`Walker`]): a walk allocates nothing once
//! its buffers have grown to the largest game.

use std::borrow::Cow;

use rustc_hash::FxHashMap;

use super::Refusal;
use super::numbers::{Number, one, zero};
use super::packed::Packing;
use crate::game::Rules;
use crate::i18n::{Said, id};
use crate::machine::{Beads, Draw, End, Learning, Machine, Node, Tree};
use matchbox_machine::{OpponentKind, teacher_moves};

/// Most steps in the lines of play of one game from one state, a bound on memory (a game
/// of noughts and crosses from fresh beads has some 550,000).
pub const MAX_STEPS: usize = 5_000_000;

/// Most steps of lines of play walked over all the bead states of one problem: the games
/// of some kits grow with every state (Bachet's game of 12 stones has 61,888 states and
/// 12 million steps), and past this the exact path gives way to sampling within a moment
/// instead of seconds. HER's states take 1.3 million; Marienbad's first 4,752 states,
/// where [`super::MAX_COUNTS`] stops them, 4.8 million.
pub const MAX_WALKED: usize = 5_000_000;

/// The steps of lines of play walked so far over the states of one problem, bounded by
/// [`MAX_WALKED`].
#[derive(Default)]
pub(super) struct Budget(usize);

impl Budget {
    /// Counts the steps of `lines`, refused once they are more than [`MAX_WALKED`].
    pub(super) fn spend(&mut self, lines: &Lines) -> Result<(), Refusal> {
        self.0 += lines.steps.len();
        if self.0 > MAX_WALKED {
            return Err(Refusal(
                Said::new(id::CLI_VERIFY_REFUSAL_WALKED).number("n", MAX_WALKED as i64),
            ));
        }
        Ok(())
    }

    /// The steps spent so far.
    pub(super) fn spent(&self) -> usize {
        self.0
    }
}

/// No step yet, in [`Walker`]'s memories of the ends met.
const NO_STEP: u32 = u32::MAX;

/// Where a step's parts are in [`Lines::parts`]. Packed to six bytes, so that a
/// [`Step`] takes eight: HER's kept lines are some 1.3 million steps.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, packed(2))]
pub(super) struct Span {
    pub(super) start: u32,
    len: u16,
}

/// One step of the lines of play of a single game from one bead state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Step {
    /// The game is over; the machine's beads are now those of `state`.
    End {
        /// The state after the rule was applied.
        state: u32,
        /// Whether the machine lost (or resigned).
        loss: bool,
        /// Whether it won.
        won: bool,
    },
    /// A random choice: a bead drawn, or a rule-following opponent's move among equals,
    /// as `(weight, step)` parts.
    Chance(Span),
    /// An opponent free to choose, as `(move, step)` parts.
    Choice(Span),
}

// Eight bytes a step, as [`Span`] says.
const _: () = assert!(std::mem::size_of::<Step>() == 8);

/// Every line of play of one game: steps stored children first, so the root is the last.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Lines {
    pub(super) steps: Vec<Step>,
    /// The parts of every chance and choice, each step's together.
    pub(super) parts: Vec<(u32, u32)>,
}

impl Lines {
    /// The parts of a chance or a choice.
    pub(super) fn parts(&self, span: Span) -> &[(u32, u32)] {
        let start = span.start as usize;
        &self.parts[start..start + usize::from(span.len)]
    }

    fn clear(&mut self) {
        self.steps.clear();
        self.parts.clear();
    }

    fn push(&mut self, step: Step) -> u32 {
        self.steps.push(step);
        self.steps.len() as u32 - 1
    }
}

/// How the opponent moves on a walk: as a rule-following opponent, or free.
#[derive(Clone, Copy)]
pub(super) enum Mover {
    Follows(OpponentKind),
    Free,
}

/// Numbers the bead states the games end in: the states met so far, and what a walk
/// learns about them on the way.
pub(super) trait Resolve {
    /// The state a game lost from `state` by the last move `last` leads to, if known.
    fn known(&self, state: u32, last: u32) -> Option<u32>;
    /// The number of the state standing for the beads `after` a game.
    fn intern(&mut self, after: After) -> Result<u32, Refusal>;
    /// Keeps that a game lost from `state` by `last` leads to `to`.
    fn remember(&mut self, state: u32, last: u32, to: u32);
}

/// The beads after a game, to be numbered.
#[derive(Clone, Copy)]
pub(super) enum After<'b> {
    /// These beads (`true`: some move lost its last bead in the game).
    Beads(&'b Beads, bool),
    /// Those of the state `state` with one bead taken from the move `last`, which holds
    /// some: a loss under a rule that does nothing else ([`crate::rule::Rule::loss_takes_one_bead`]).
    LostOne { state: u32, last: u32 },
}

/// Walks games: the lines of play of one game at a time into a [`Lines`], with the
/// buffers kept from one walk to the next.
pub(super) struct Walker<'a, G: Rules> {
    tree: &'a Tree<G>,
    machine: &'a Machine,
    mover: Mover,
    /// The slots played so far in the game walked.
    used: Vec<u32>,
    /// The parts of the chances and choices being walked, innermost last.
    stack: Vec<(u32, u32)>,
    /// The ends met by the lines being walked: the game's, then (innermost last) those of
    /// the positions below walked for the memo; `depth` of them in use past the first.
    met: Vec<Met>,
    depth: usize,
    /// The lines below positions walked for the memo, innermost last.
    below: Vec<Lines>,
    /// The beads after a game, worked out in place.
    after: Beads,
    emptied: Vec<u32>,
    memo: Option<Memo>,
}

/// The ends met by one walk's lines, each stored once.
struct Met {
    /// Each end met, as `(state, loss, won)`, with its step.
    ends: FxHashMap<(u32, bool, bool), u32>,
    /// The step of each end met that the last move alone decides, by that move's slot
    /// ([`NO_STEP`] if not met yet): most ends of a walk are met many times.
    after_last: Vec<u32>,
    /// The step of each end met that leaves the beads as they were, by `(loss, won)`.
    unchanged: [u32; 4],
}

impl Met {
    fn new(slots: usize) -> Met {
        Met {
            ends: FxHashMap::default(),
            after_last: vec![NO_STEP; slots],
            unchanged: [NO_STEP; 4],
        }
    }

    fn clear(&mut self) {
        self.ends.clear();
        self.after_last.fill(NO_STEP);
        self.unchanged = [NO_STEP; 4];
    }

    /// Where the step of an end met is kept: by the last move (`Some`), for an end that
    /// move alone decides, or by `(loss, won)` (`None`), for one that leaves the beads as
    /// they were.
    fn memory(&mut self, last: Option<u32>, loss: bool, won: bool) -> &mut u32 {
        match last {
            Some(last) => &mut self.after_last[last as usize],
            None => &mut self.unchanged[usize::from(loss) * 2 + usize::from(won)],
        }
    }

    /// The step of the end `(state, loss, won)`, stored in `lines` when first met.
    fn step(&mut self, (state, loss, won): (u32, bool, bool), lines: &mut Lines) -> u32 {
        *self
            .ends
            .entry((state, loss, won))
            .or_insert_with(|| lines.push(Step::End { state, loss, won }))
    }
}

/// An end's state on a walk with a [`Memo`], until the walk's last step: the state the
/// game began in (a lost game's state is its last move's slot instead).
const SAME: u32 = u32::MAX;

/// Most steps the lines kept in a [`Memo`] hold: the fastest teacher's walks of HER keep
/// some 2,000.
const MAX_MEMO_STEPS: usize = 2_000_000;

/// The lines of play below positions, walked once for the beads below them and copied
/// into every later walk that meets the same: the games of two states differ only below
/// the box that lost a bead, and most positions' lines are met again and again.
///
/// Kept only where a loss takes one bead of the last move and nothing else, and a state
/// is one word: then the lines below a position depend on that word's bits of the boxes
/// below it and on the last move before it alone, and their ends are named by the move
/// that lost (each standing for its own state in any one game), to be numbered once the
/// walk is done, in the order a walk without the memo would meet them.
pub(super) struct Memo {
    packing: Packing,
    /// Per position where the opponent moves: the bits of the moves of every box below
    /// it (0 elsewhere, and where no box is below).
    below: Vec<u64>,
    /// The lines below a position, by the position, the last slot played before it
    /// ([`SAME`]: none) and the bits of the beads below it; their ends' states as
    /// [`SAME`] or a lost game's last slot.
    lines: FxHashMap<(Node, u32, u64), Lines>,
    steps: usize,
}

impl Memo {
    /// A memo for `machine`'s games, if its rule and states allow one.
    pub(super) fn new<G: Rules>(tree: &Tree<G>, machine: &Machine) -> Option<Memo> {
        let rule = machine.rule;
        let packing = Packing::new(machine);
        if !(rule.learns_from_last_move() && rule.loss_takes_one_bead()) || packing.words != 1 {
            return None;
        }
        let order = crate::boxes::topological_order(tree.len(), tree.all_children(), |i| {
            tree.children(i as Node)
        });
        let mut bits = vec![0u64; tree.len()];
        for &node in order.iter().rev() {
            let here = machine.box_at(node as Node).map_or(0, |b| {
                machine.slots(b).fold(0, |m, slot| m | packing.bits(slot).1)
            });
            let children = tree.children(node as Node);
            bits[node] = children.iter().fold(here, |m, &c| m | bits[c as usize]);
        }
        for (node, bits) in bits.iter_mut().enumerate() {
            let node = node as Node;
            if tree.outcome(node).is_some() || tree.to_move(node) == machine.side {
                *bits = 0;
            }
        }
        Some(Memo {
            packing,
            below: bits,
            lines: FxHashMap::default(),
            steps: 0,
        })
    }
}

/// One walk's fixed inputs.
struct Game<'b> {
    beads: &'b Beads,
    state: u32,
    /// The beads packed, when the walk keeps a [`Memo`].
    key: u64,
}

impl<'a, G: Rules> Walker<'a, G> {
    /// A walker of `machine`'s games against `mover`.
    pub(super) fn new(tree: &'a Tree<G>, machine: &'a Machine, mover: Mover) -> Self {
        let slots = machine.fresh_beads().counts().len();
        Walker {
            tree,
            machine,
            mover,
            used: Vec::new(),
            stack: Vec::new(),
            met: vec![Met::new(slots)],
            depth: 0,
            below: Vec::new(),
            after: machine.fresh_beads(),
            emptied: Vec::new(),
            memo: None,
        }
    }

    /// [`Walker::new`] with a [`Memo`] where the rule allows one: for walks of many
    /// states, one after another.
    pub(super) fn with_memo(tree: &'a Tree<G>, machine: &'a Machine, mover: Mover) -> Self {
        Walker {
            memo: Memo::new(tree, machine),
            ..Walker::new(tree, machine, mover)
        }
    }

    /// The lines of one game into `lines`, with the machine's beads `beads` (of state
    /// `state`), from `node` with the slots `used` played so far; `resolve` numbers the
    /// states the game ends in.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn walk(
        &mut self,
        lines: &mut Lines,
        beads: &Beads,
        state: u32,
        node: Node,
        used: &[u32],
        resolve: &mut dyn Resolve,
    ) -> Result<(), Refusal> {
        lines.clear();
        self.met[0].clear();
        self.depth = 0;
        self.used.clear();
        self.used.extend_from_slice(used);
        self.stack.clear();
        let key = self.memo.as_ref().map_or(0, |memo| {
            let mut key = [0];
            memo.packing.pack(beads, &mut key);
            key[0]
        });
        let game = Game { beads, state, key };
        // The game's own first position is walked: its lines are never met again.
        match self.tree.outcome(node) {
            Some(_) => self.step(&game, node, lines, resolve)?,
            None => self.parts(&game, node, lines, resolve)?,
        };
        if self.memo.is_some() {
            // The ends' states, numbered in the order the steps met them.
            for step in &mut lines.steps {
                if let Step::End { state, .. } = step {
                    *state = match *state {
                        SAME => game.state,
                        last => lost_one(&game, last, resolve)?,
                    };
                }
            }
        }
        Ok(())
    }

    fn end(
        &mut self,
        game: &Game,
        end: End,
        lines: &mut Lines,
        resolve: &mut dyn Resolve,
    ) -> Result<u32, Refusal> {
        let (machine, rule) = (self.machine, self.machine.rule);
        let (loss, won) = (end.is_loss(), end == End::Won);
        let changes = rule.may_change(machine, &self.used, end);
        let last = self.used.last().copied();
        let by_last = last.filter(|_| changes && loss && rule.learns_from_last_move());
        let met = &mut self.met[self.depth];
        // Ends decided by the last move or leaving the beads alone are kept; others not.
        let kept = (by_last.is_some() || !changes).then_some(by_last);
        let known = kept.map_or(NO_STEP, |last| *met.memory(last, loss, won));
        if known != NO_STEP {
            return Ok(known);
        }
        let state = if self.memo.is_some() {
            // Numbered once the walk is done (see [`Memo`]).
            match by_last {
                Some(last) if changes => last,
                _ => SAME,
            }
        } else if !changes {
            game.state
        } else if let Some(last) = by_last.filter(|_| rule.loss_takes_one_bead()) {
            lost_one(game, last, resolve)?
        } else if let Some(state) = by_last.and_then(|last| resolve.known(game.state, last)) {
            state
        } else {
            self.after.clone_from(game.beads);
            self.emptied.clear();
            rule.apply(machine, &mut self.after, &self.used, end, &mut self.emptied);
            let state = if self.after == *game.beads {
                game.state
            } else {
                resolve.intern(After::Beads(&self.after, !self.emptied.is_empty()))?
            };
            if let Some(last) = by_last {
                resolve.remember(game.state, last, state);
            }
            state
        };
        let step = met.step((state, loss, won), lines);
        if let Some(last) = kept {
            *met.memory(last, loss, won) = step;
        }
        Ok(step)
    }

    /// The step at `node`: its parts walked first, then stored.
    fn step(
        &mut self,
        game: &Game,
        node: Node,
        lines: &mut Lines,
        resolve: &mut dyn Resolve,
    ) -> Result<u32, Refusal> {
        if let Some(outcome) = self.tree.outcome(node) {
            return self.end(game, End::of(outcome, self.machine.side), lines, resolve);
        }
        if lines.steps.len() > MAX_STEPS {
            return Err(Refusal(
                Said::new(id::CLI_VERIFY_REFUSAL_STEPS).number("n", MAX_STEPS as i64),
            ));
        }
        if let Some(memo) = &self.memo {
            let below = memo.below[node as usize];
            if below != 0 {
                let last = self.used.last().copied().unwrap_or(SAME);
                return self.remembered(game, (node, last, game.key & below), lines, resolve);
            }
        }
        self.parts(game, node, lines, resolve)
    }

    /// The step at the position of `key` (see [`Memo::lines`]), its lines copied from the
    /// memo, walked into it first if not there yet.
    fn remembered(
        &mut self,
        game: &Game,
        key: (Node, u32, u64),
        lines: &mut Lines,
        resolve: &mut dyn Resolve,
    ) -> Result<u32, Refusal> {
        let memo = self.memo.as_ref().expect("a walk with a memo");
        if !memo.lines.contains_key(&key) {
            if memo.steps > MAX_MEMO_STEPS {
                return self.parts(game, key.0, lines, resolve);
            }
            // Walked on their own, their ends met afresh.
            self.depth += 1;
            if self.met.len() <= self.depth {
                self.met.push(Met::new(self.met[0].after_last.len()));
                self.below.push(Lines::default());
            }
            self.met[self.depth].clear();
            let mut below = std::mem::take(&mut self.below[self.depth - 1]);
            below.clear();
            let walked = self.parts(game, key.0, &mut below, resolve);
            self.depth -= 1;
            walked?;
            let memo = self.memo.as_mut().expect("a walk with a memo");
            memo.steps += below.steps.len();
            memo.lines.insert(key, below.clone());
            self.below[self.depth] = below;
        }
        let memo = self.memo.as_ref().expect("a walk with a memo");
        let below = &memo.lines[&key];
        let (met, stack) = (&mut self.met[self.depth], &mut self.stack);
        let mark = stack.len();
        // Each step of the lines below as stored here (`stack` holds the numbers).
        for step in &below.steps {
            let here = match *step {
                Step::End { state, loss, won } => {
                    let last = (state != SAME).then_some(state);
                    match *met.memory(last, loss, won) {
                        NO_STEP => {
                            let here = met.step((state, loss, won), lines);
                            *met.memory(last, loss, won) = here;
                            here
                        }
                        known => known,
                    }
                }
                Step::Chance(span) | Step::Choice(span) => {
                    let start = lines.parts.len() as u32;
                    let parts = below.parts(span).iter();
                    let at = |p: &(u32, u32)| (p.0, stack[mark + p.1 as usize].1);
                    lines.parts.extend(parts.map(at));
                    let span = Span { start, ..span };
                    lines.push(match step {
                        Step::Chance(_) => Step::Chance(span),
                        _ => Step::Choice(span),
                    })
                }
            };
            stack.push((0, here));
        }
        let root = stack.last().expect("lines have a first step").1;
        stack.truncate(mark);
        Ok(root)
    }

    /// The step at `node`, a position where the game goes on: its parts walked, then
    /// stored.
    fn parts(
        &mut self,
        game: &Game,
        node: Node,
        lines: &mut Lines,
        resolve: &mut dyn Resolve,
    ) -> Result<u32, Refusal> {
        let (tree, machine) = (self.tree, self.machine);
        let mark = self.stack.len();
        let mut free = false;
        if tree.to_move(node) == machine.side {
            let mut failed = None;
            machine.draws(game.beads, node, |draw, weight, _| {
                if failed.is_some() {
                    return;
                }
                let step = match draw {
                    Draw::Bead { slot, child, .. } => {
                        self.used.push(slot);
                        let step = self.step(game, child, lines, resolve);
                        self.used.pop();
                        step
                    }
                    Draw::Forced { child } => self.step(game, child, lines, resolve),
                    Draw::Resign { .. } => self.end(game, End::Resigned, lines, resolve),
                };
                match step {
                    Ok(step) => self.stack.push((weight, step)),
                    Err(refusal) => failed = Some(refusal),
                }
            });
            if let Some(refusal) = failed {
                return Err(refusal);
            }
        } else {
            let moves = match self.mover {
                Mover::Follows(kind) => opponent_moves(kind, tree, node, machine, game.beads),
                Mover::Free => Cow::Borrowed(tree.children(node)),
            };
            free = matches!(self.mover, Mover::Free);
            for &child in moves.iter() {
                let step = self.step(game, child, lines, resolve)?;
                // A free opponent's part is its move, a rule-following one's a weight.
                self.stack.push((if free { child } else { 1 }, step));
            }
        }
        let parts = &self.stack[mark..];
        // A chance of one part is no chance: the step is that part's.
        let step = match (free, parts) {
            (false, [(_, only)]) => *only,
            _ => {
                let span = Span {
                    start: lines.parts.len() as u32,
                    len: u16::try_from(parts.len()).map_err(|_| {
                        Refusal(Said::new(id::CLI_VERIFY_REFUSAL_MOVES).number("n", u16::MAX))
                    })?,
                };
                lines.parts.extend_from_slice(parts);
                lines.push(if free {
                    Step::Choice(span)
                } else {
                    Step::Chance(span)
                })
            }
        };
        self.stack.truncate(mark);
        Ok(step)
    }
}

/// The state a game lost from `game`'s state by the last move `last` leads to, under a
/// rule whose loss takes one bead of that move and does nothing else.
fn lost_one(game: &Game, last: u32, resolve: &mut dyn Resolve) -> Result<u32, Refusal> {
    if let Some(state) = resolve.known(game.state, last) {
        return Ok(state);
    }
    let lost = After::LostOne {
        state: game.state,
        last,
    };
    let state = resolve.intern(lost)?;
    resolve.remember(game.state, last, state);
    Ok(state)
}

/// Refuses at once a kit whose first game, from the fresh beads, has more lines of play
/// than a walk may hold: counting them over the positions costs a moment, where the walk
/// would take seconds to fill [`MAX_STEPS`] and give up.
pub(super) fn lines_fit<G: Rules>(
    tree: &Tree<G>,
    machine: &Machine,
    mover: Mover,
) -> Result<(), Refusal> {
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
                Mover::Free => Cow::Borrowed(tree.children(node)),
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
        return Err(Refusal(
            Said::new(id::CLI_VERIFY_REFUSAL_STEPS).number("n", MAX_STEPS as i64),
        ));
    }
    Ok(())
}

/// The moves a rule-following opponent picks from uniformly: the same sets as the
/// simulation's `Automatic` opponents.
fn opponent_moves<'t, G: Rules>(
    kind: OpponentKind,
    tree: &'t Tree<G>,
    node: Node,
    machine: &Machine,
    beads: &Beads,
) -> Cow<'t, [Node]> {
    match kind {
        OpponentKind::Perfect => Cow::Borrowed(tree.best_children(node)),
        OpponentKind::Teacher => teacher_moves(tree, node, machine, beads),
        _ => Cow::Borrowed(tree.children(node)),
    }
}

/// One game from a state: every way it can end, `(state, loss, chance)`.
pub(super) type Transitions<N> = Vec<(u32, bool, N)>;

/// How an opponent free to choose picks among `(move, step)` at the choice that is step
/// `i`: the steps it picks from uniformly, written to the buffer given.
pub(super) type Picker<'a> = dyn FnMut(usize, &[(Node, u32)], &mut Vec<u32>) + 'a;

impl Lines {
    /// Every end of the game as `(state, loss)`: each can happen, since the machine draws
    /// only beads it has.
    pub(super) fn end_steps(&self) -> impl Iterator<Item = (u32, bool)> + '_ {
        self.steps.iter().filter_map(|step| match *step {
            Step::End { state, loss, .. } => Some((state, loss)),
            _ => None,
        })
    }

    /// The chance of each end of the game, the opponent's free choices made by `choose`:
    /// `(state, loss, chance)`; and the chance that the machine wins. `reach` is a buffer;
    /// `ratios`, if given, holds each chance's part's weight among its chance's.
    pub(super) fn ends<N: Number>(
        &self,
        choose: &mut Picker<'_>,
        reach: &mut Vec<Option<N>>,
        ratios: Option<&[N]>,
    ) -> (Transitions<N>, N) {
        reach.clear();
        reach.resize(self.steps.len(), None);
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
        let mut picked = Vec::new();
        // Children come before their parents, so walking backwards meets every step after
        // all the ways into it.
        for i in (0..=root).rev() {
            let Some(here) = reach[i].take() else {
                continue;
            };
            match self.steps[i] {
                Step::End { state, loss, won } => {
                    if won {
                        wins = wins.add(&here);
                    }
                    ends.push((state, loss, here));
                }
                Step::Chance(span) => {
                    let parts = self.parts(span);
                    match ratios {
                        Some(ratios) => {
                            let ratios = &ratios[span.start as usize..];
                            for (&(_, step), ratio) in parts.iter().zip(ratios) {
                                add(reach, step, here.mul(ratio));
                            }
                        }
                        None => {
                            let total: u32 = parts.iter().map(|p| p.0).sum();
                            for &(weight, step) in parts {
                                add(reach, step, here.mul(&N::ratio(weight, total)));
                            }
                        }
                    }
                }
                Step::Choice(span) => {
                    picked.clear();
                    choose(i, self.parts(span), &mut picked);
                    let share = here.mul(&N::ratio(1, picked.len() as u32));
                    for &step in &picked {
                        add(reach, step, share.clone());
                    }
                }
            }
        }
        (ends, wins)
    }
}
