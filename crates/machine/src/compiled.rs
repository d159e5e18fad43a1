//! A kit's boxes compiled onto a [`Tree`]: which box each position uses, the position
//! each bead leads to, the starting beads, and the draw of a bead.

use rand::RngExt;

use super::{Node, SimRng, Tree};
use crate::Error;
use crate::boxes::BoxSet;
use crate::game::{Notation, Rules, Side};
use crate::rule::{Reward, Rule};

/// What the machine has at one node: nothing (the opponent moves or the game is over),
/// a forced move played without a box, or a box. `first` indexes `slot_child`: the child
/// reached by the forced move, or by the box's first slot.
#[derive(Clone, Copy, Debug)]
pub(super) enum Seat {
    /// The machine does not move here.
    Other,
    /// The machine's only legal move, played without a box.
    Forced { first: u32 },
    /// The machine draws a bead from a box.
    Box { index: u32, first: u32 },
}

/// A kit's boxes compiled for one side of a [`Tree`]: which box each position uses, the
/// position reached by each bead, the starting beads and the rule.
pub struct Machine {
    /// The side the boxes play.
    pub side: Side,
    /// The learning rule.
    pub rule: Rule,
    /// Beads per result under [`Rule::Menace`].
    pub reward: Reward,
    pub(super) seats: Vec<Seat>,
    pub(super) slot_child: Vec<Node>,
    /// Slots of box `b` are `slot_start[b]..slot_start[b + 1]`, in the box's move order.
    slot_start: Vec<u32>,
    slot_box: Vec<u32>,
    pub(super) initial: Vec<u32>,
    /// For each box, its slots in the order a relay machine tries them.
    relay_order: Vec<u32>,
    /// For each slot, the boxes the opponent can reach with one reply after it.
    pub(super) feeds_start: Vec<u32>,
    pub(super) feeds: Vec<u32>,
}

/// What the machine does at its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Draw {
    /// A bead (or, for a relay, the first wired move) of `slot` in box `box_index`.
    Bead {
        /// Index of the box in the kit.
        box_index: u32,
        /// Flat slot index (see [`Machine::slots`]).
        slot: u32,
        /// The position after the move.
        child: Node,
    },
    /// No box: the only legal move, played without one (`skip_forced`).
    Forced {
        /// The position after the move.
        child: Node,
    },
    /// The box is empty: the machine resigns.
    Resign {
        /// Index of the empty box.
        box_index: u32,
    },
}

/// The boxes' moves as flat slots, box after box: which box each is in, its starting
/// beads, the order a relay tries them in, and the boxes one reply after it can reach.
struct Slots {
    start: Vec<u32>,
    boxes: Vec<u32>,
    initial: Vec<u32>,
    relay_order: Vec<u32>,
    feeds_start: Vec<u32>,
    feeds: Vec<u32>,
}

impl Slots {
    /// The slots of every box of `set`.
    fn of<G: Rules>(game: &G, set: &BoxSet<G>) -> Slots {
        let mut slot_start = vec![0u32];
        let (mut slot_box, mut initial, mut relay_order) = (Vec::new(), Vec::new(), Vec::new());
        let (mut feeds_start, mut feeds) = (vec![0u32], Vec::new());
        let mut replies = Vec::new();
        for (b, mbox) in set.boxes.iter().enumerate() {
            let first = initial.len() as u32;
            let mut order: Vec<u32> = (0..mbox.moves.len() as u32).collect();
            order.sort_by_key(|&k| game.relay_order(mbox.moves[k as usize].mv));
            relay_order.extend(order.iter().map(|k| first + k));
            for m in &mbox.moves {
                slot_box.push(b as u32);
                initial.push(m.beads);
                // The boxes the opponent can send the machine to with one reply.
                let after = game.play(&mbox.position, m.mv);
                replies.clear();
                game.legal_moves(&after, &mut replies);
                let from = feeds.len();
                for &r in &replies {
                    if let Some((fed, _)) = set.locate(game, &game.play(&after, r))
                        && !feeds[from..].contains(&(fed as u32))
                    {
                        feeds.push(fed as u32);
                    }
                }
                feeds_start.push(feeds.len() as u32);
            }
            slot_start.push(initial.len() as u32);
        }
        Slots {
            start: slot_start,
            boxes: slot_box,
            initial,
            relay_order,
            feeds_start,
            feeds,
        }
    }
}

/// What the machine has at every node of `tree`, and the child each slot of a seat leads
/// to (see [`Seat`]).
fn seats<G: Notation>(
    game: &G,
    tree: &Tree<G>,
    set: &BoxSet<G>,
    skip_forced: bool,
) -> Result<(Vec<Seat>, Vec<Node>), Error> {
    let mut seats = Vec::with_capacity(tree.len());
    let mut slot_child = Vec::new();
    for node in 0..tree.len() as Node {
        let position = &tree.positions[node as usize];
        if tree.to_move(node) != set.machine || tree.outcome(node).is_some() {
            seats.push(Seat::Other);
            continue;
        }
        let first = slot_child.len() as u32;
        match set.locate(game, position) {
            Some((b, symmetry)) => {
                let back = game.inverse(symmetry);
                for m in &set.boxes[b].moves {
                    let real = game.transform_move(m.mv, back);
                    let at = tree
                        .moves(node)
                        .iter()
                        .position(|&x| x == real)
                        .ok_or_else(|| {
                            Error::Internal(format!(
                                "box {}: its move {} is not legal on the board {}",
                                set.boxes[b].id,
                                game.format_move(&set.boxes[b].position, m.mv),
                                game.format_position(position)
                            ))
                        })?;
                    slot_child.push(tree.children(node)[at]);
                }
                seats.push(Seat::Box {
                    index: b as u32,
                    first,
                });
            }
            None if skip_forced && tree.children(node).len() == 1 => {
                slot_child.push(tree.children(node)[0]);
                seats.push(Seat::Forced { first });
            }
            None => {
                return Err(Error::Internal(format!(
                    "the machine can face {} but no box holds it",
                    game.format_position(position)
                )));
            }
        }
    }
    Ok((seats, slot_child))
}

impl Machine {
    /// Compiles `set` for play on `tree`: every position where `set.machine` moves must
    /// have a box, or a single legal move when the kit skips forced positions.
    pub fn compile<G: Notation>(
        game: &G,
        tree: &Tree<G>,
        set: &BoxSet<G>,
        rule: Rule,
        reward: Reward,
        skip_forced: bool,
    ) -> Result<Machine, Error> {
        let slots = Slots::of(game, set);
        let (seats, slot_child) = seats(game, tree, set, skip_forced)?;
        Ok(Machine {
            side: set.machine,
            rule,
            reward,
            seats,
            slot_child,
            slot_start: slots.start,
            slot_box: slots.boxes,
            initial: slots.initial,
            relay_order: slots.relay_order,
            feeds_start: slots.feeds_start,
            feeds: slots.feeds,
        })
    }

    /// Whether the teacher's page has the class refill a box for the machine's first
    /// move that runs empty: under Michie's rule when a loss takes beads.
    pub fn refills(&self) -> bool {
        self.rule == Rule::Menace && self.reward.loss < 0
    }

    /// Number of boxes.
    pub fn box_count(&self) -> usize {
        self.slot_start.len() - 1
    }

    /// The flat slot indices of box `box_index`, one per move in the kit's order.
    pub fn slots(&self, box_index: u32) -> std::ops::Range<u32> {
        self.slot_start[box_index as usize]..self.slot_start[box_index as usize + 1]
    }

    /// The box a flat slot belongs to.
    pub fn box_of(&self, slot: u32) -> u32 {
        self.slot_box[slot as usize]
    }

    /// The box used at `node`, if the machine moves there with a box.
    pub fn box_at(&self, node: Node) -> Option<u32> {
        match self.seats[node as usize] {
            Seat::Box { index, .. } => Some(index),
            Seat::Other | Seat::Forced { .. } => None,
        }
    }

    /// The position reached at `node` by the move of `slot` (a slot of the node's box).
    pub fn child(&self, node: Node, slot: u32) -> Node {
        let (b, first) = self.box_seat(node);
        self.slot_child_of(b, first, slot)
    }

    /// The box at `node` and where its slot children start; only for nodes with a box.
    fn box_seat(&self, node: Node) -> (u32, u32) {
        match self.seats[node as usize] {
            Seat::Box { index, first } => (index, first),
            seat => unreachable!("node {node} has no box: {seat:?}"),
        }
    }

    /// The child reached by `slot` of box `b`, whose slot children start at `first`.
    fn slot_child_of(&self, b: u32, first: u32, slot: u32) -> Node {
        self.slot_child[(first + slot - self.slot_start[b as usize]) as usize]
    }

    /// The forced move at `node`, if the machine plays one there without a box.
    fn forced(&self, node: Node) -> Option<Draw> {
        match self.seats[node as usize] {
            Seat::Forced { first } => Some(Draw::Forced {
                child: self.slot_child[first as usize],
            }),
            Seat::Box { .. } | Seat::Other => None,
        }
    }

    /// A fresh set of beads, as the kit fills the boxes.
    pub fn fresh_beads(&self) -> Beads {
        let totals = (0..self.box_count() as u32)
            .map(|b| self.slots(b).map(|s| self.initial[s as usize]).sum())
            .collect();
        Beads {
            counts: self.initial.clone(),
            totals,
        }
    }

    /// The slot a relay machine plays in a box: the first move still wired.
    pub(super) fn relay_slot(&self, beads: &Beads, box_index: u32) -> Option<u32> {
        let range = self.slots(box_index);
        self.relay_order[range.start as usize..range.end as usize]
            .iter()
            .copied()
            .find(|&s| beads.counts[s as usize] > 0)
    }

    /// What the machine does at `node` with these beads: the slot it plays, as the rule
    /// draws it, or resignation at an empty box.
    pub fn choose(&self, beads: &Beads, node: Node, rng: &mut SimRng) -> Draw {
        if let Some(forced) = self.forced(node) {
            return forced;
        }
        let (b, first) = self.box_seat(node);
        let slot = if self.rule == Rule::Relay {
            self.relay_slot(beads, b)
        } else {
            let total = beads.totals[b as usize];
            (total > 0).then(|| {
                // The slot of the drawn bead: the first whose beads, counted from the
                // box's first slot, pass the bead's number. Counted without a branch on
                // the draw, which the processor could only guess wrong half the time.
                let bead = rng.random_range(0..total);
                let slots = self.slots(b);
                let counts = &beads.counts[slots.start as usize..slots.end as usize - 1];
                let mut passed = 0;
                let mut s = slots.start;
                for &count in counts {
                    passed += count;
                    s += u32::from(bead >= passed);
                }
                s
            })
        };
        self.draw(b, first, slot)
    }

    /// Every draw [`Machine::choose`] can make at `node` with these beads, each with its
    /// chance as `weight` out of `total`: the exact counterpart of the random draw.
    pub fn draws(&self, beads: &Beads, node: Node, mut each: impl FnMut(Draw, u32, u32)) {
        if let Some(forced) = self.forced(node) {
            return each(forced, 1, 1);
        }
        let (b, first) = self.box_seat(node);
        if self.rule == Rule::Relay {
            return each(self.draw(b, first, self.relay_slot(beads, b)), 1, 1);
        }
        let total = beads.totals[b as usize];
        if total == 0 {
            return each(self.draw(b, first, None), 1, 1);
        }
        for slot in self.slots(b) {
            let weight = beads.counts[slot as usize];
            if weight > 0 {
                each(self.draw(b, first, Some(slot)), weight, total);
            }
        }
    }

    /// The draw of `slot` of box `b`, or resignation without one.
    fn draw(&self, b: u32, first: u32, slot: Option<u32>) -> Draw {
        match slot {
            Some(slot) => Draw::Bead {
                box_index: b,
                slot,
                child: self.slot_child_of(b, first, slot),
            },
            None => Draw::Resign { box_index: b },
        }
    }

    /// The chance that the machine, to move at `node` with these beads, throws away the
    /// best result it could still get: it resigns, or draws a move of lower value.
    pub fn blunder_chance<G: Rules>(&self, tree: &Tree<G>, beads: &Beads, node: Node) -> f64 {
        let Some(b) = self.box_at(node) else {
            // The game is over, or the machine's only move is played for it.
            return 0.0;
        };
        let best = tree.value(node);
        let worse = |s: u32| -tree.value(self.child(node, s)) < best;
        if self.rule == Rule::Relay {
            return self.relay_slot(beads, b).is_none_or(worse) as u8 as f64;
        }
        let total = beads.total(b);
        if total == 0 {
            return 1.0;
        }
        let lost: u32 = self
            .slots(b)
            .filter(|&s| worse(s))
            .map(|s| beads.count(s))
            .sum();
        f64::from(lost) / f64::from(total)
    }
}

pub use crate::rule::MAX_BEADS;

/// The beads in every box: what the machine has learnt.
#[derive(Clone, Debug, Eq)]
pub struct Beads {
    pub(super) counts: Vec<u32>,
    /// Beads per box, kept in step with `counts` so a draw needs no sum.
    pub(super) totals: Vec<u32>,
}

// The totals follow from the counts: comparing the counts alone is enough.
impl PartialEq for Beads {
    fn eq(&self, other: &Beads) -> bool {
        self.counts == other.counts
    }
}

impl Beads {
    /// Beads of one slot.
    pub fn count(&self, slot: u32) -> u32 {
        self.counts[slot as usize]
    }

    /// Beads in one box.
    pub fn total(&self, box_index: u32) -> u32 {
        self.totals[box_index as usize]
    }

    /// Every slot's beads, in flat slot order.
    pub fn counts(&self) -> &[u32] {
        &self.counts
    }

    /// Sets a slot's beads (at most [`MAX_BEADS`]); returns whether the move lost its
    /// last bead.
    pub fn set(&mut self, machine: &Machine, slot: u32, count: u32) -> bool {
        let count = count.min(MAX_BEADS);
        let old = self.counts[slot as usize];
        let b = machine.box_of(slot) as usize;
        self.totals[b] = self.totals[b] - old + count;
        self.counts[slot as usize] = count;
        old > 0 && count == 0
    }

    /// Beads of a machine's kit from saved counts, refused if they do not fit its boxes.
    pub fn from_counts(machine: &Machine, counts: Vec<u32>) -> Option<Beads> {
        if counts.len() != machine.initial.len() || counts.iter().any(|&n| n > MAX_BEADS) {
            return None;
        }
        let mut beads = Beads {
            counts,
            totals: Vec::new(),
        };
        beads.sum_boxes(machine);
        Some(beads)
    }

    /// These beads given `counts` (one per slot of `machine`, each at most
    /// [`MAX_BEADS`]), in the buffers they already hold.
    pub fn refill(&mut self, machine: &Machine, counts: impl IntoIterator<Item = u32>) {
        self.counts.clear();
        self.counts.extend(counts);
        debug_assert!(self.counts.len() == machine.initial.len());
        self.sum_boxes(machine);
    }

    /// Puts the kit's starting beads back into box `box_index`, as a class refills a box.
    pub fn refill_box(&mut self, machine: &Machine, box_index: u32) {
        for slot in machine.slots(box_index) {
            self.set(machine, slot, machine.initial[slot as usize]);
        }
    }

    /// The boxes' totals worked out from the counts: a box's slots are one run of them.
    fn sum_boxes(&mut self, machine: &Machine) {
        let counts = &self.counts;
        self.totals.clear();
        self.totals.extend(
            (machine.slot_start.windows(2))
                .map(|run| counts[run[0] as usize..run[1] as usize].iter().sum::<u32>()),
        );
    }
}
