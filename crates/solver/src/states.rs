//! The machine's bead states, numbered as they are met, with the beads that can no
//! longer matter dropped (states with the same future lumped into one).

use super::Refusal;
use super::lines::{After, Budget, Lines, MAX_WALKED, Mover, Resolve, Step, Walker};
use super::packed::{Numbered, Packing};
use crate::game::Rules;
use crate::i18n::{Said, id};
use crate::machine::{Beads, Draw, LossMemo, Machine, Node, Tree};

/// Most bead states the exact path enumerates before it gives way to sampling.
pub const MAX_STATES: usize = 1_000_000;

/// Most entries held per move per state over all states (each state keeps, per move, the
/// state a game lost by that move leads to): 20 MB. It also bounds the time spent
/// finding out that a machine of many moves has too many states: every state found costs
/// a walk through one game, so Marienbad's 1,052 beads give up after some 4,750 states
/// (HER needs 65,536 states of 45 beads, under 3 million).
pub const MAX_COUNTS: usize = 5_000_000;

/// Most bead states whose figures are worked out in rationals; past it, the rationals'
/// numerators and denominators run to thousands of digits, and [`crate::Bounds`] take over.
pub const RATIONAL_STATES: usize = 4096;

/// Which boxes the machine can still reach, worked out once for the positions: from the
/// start and after each move of a box, the positions where it next uses a box, whatever
/// the opponent plays and with its forced moves played.
#[derive(Clone)]
struct Reach {
    /// The positions with a box, as `(box, entry of its first slot)`.
    places: Vec<(u32, u32)>,
    /// The places met first from the start.
    starts: Vec<u32>,
    /// The places after slot `k` of place `p`:
    /// `next[next_start[entry]..next_start[entry + 1]]`, `entry` being `p`'s first + `k`.
    next_start: Vec<u32>,
    next: Vec<u32>,
    /// The same as bit masks, when there are at most 64 places and 64 boxes (see
    /// [`Masks`]). A walk over them is one pass over the places, a few operations each.
    masks: Option<Masks>,
}

/// [`Reach`] in bit masks of places and of boxes, the places ranked so that each leads
/// only to places ranked after it: one pass in that order meets every place reached.
#[derive(Clone)]
struct Masks {
    /// The places met first from the start, by rank.
    start: u64,
    /// Per entry, the places in rank order: where its count sits in a packed state, as
    /// `(word, bits)`, and the places after it, by rank.
    ways: Vec<(u32, u64, u64)>,
    /// Per place by rank, its entries' first: `ways[place_ways[r]..place_ways[r + 1]]`.
    place_ways: Vec<u32>,
    /// Per place by rank, its box as a mask of boxes.
    place_box: Vec<u64>,
    /// Per slot, the places by rank whose box holds it, each with the places after it
    /// there: `slot_ways[slot_ways_start[slot]..slot_ways_start[slot + 1]]`.
    slot_ways: Vec<(u32, u64)>,
    slot_ways_start: Vec<u32>,
    /// Per place by rank, the ways into it, as the rank of the place they leave and where
    /// the count of their move sits, `(rank, word, bits)`:
    /// `into[into_start[r]..into_start[r + 1]]`.
    into: Vec<(u32, u32, u64)>,
    into_start: Vec<u32>,
    /// Per place by rank, the places after it by any of its moves.
    after_any: Vec<u64>,
    /// Per box, the places that hold it, by rank.
    box_places: Vec<u64>,
}

impl Masks {
    /// The places reached with the beads packed in `key`, by rank, and their boxes: one
    /// pass over the places in rank order, without a branch on the places reached.
    fn reached(&self, key: &[u64]) -> (u64, u64) {
        // All ones where reached, else 0.
        let (mut places, mut boxes) = (self.start, 0u64);
        for (r, &place_box) in self.place_box.iter().enumerate() {
            let here = 0u64.wrapping_sub((places >> r) & 1);
            boxes |= place_box & here;
            let ways = self.place_ways[r] as usize..self.place_ways[r + 1] as usize;
            for &(word, bits, next) in &self.ways[ways] {
                let live = 0u64.wrapping_sub(u64::from(key[word as usize] & bits != 0));
                places |= next & here & live;
            }
        }
        (places, boxes)
    }

    /// The places reached once `slot`'s count has fallen to 0 in `key`, `before` being the
    /// places reached while it held beads: only the places after that move can lose their
    /// way in, and then the places after them; each, in rank order, stays reached while a
    /// place still reached leads into it by a move that holds beads.
    fn reached_without(&self, key: &[u64], slot: u32, before: u64) -> u64 {
        let ways = self.slot_ways_start[slot as usize] as usize
            ..self.slot_ways_start[slot as usize + 1] as usize;
        let mut doubtful = 0u64;
        for &(r, next) in &self.slot_ways[ways] {
            doubtful |= next & 0u64.wrapping_sub((before >> r) & 1);
        }
        let mut now = before;
        doubtful &= now & !self.start;
        while doubtful != 0 {
            let q = doubtful.trailing_zeros() as usize;
            doubtful &= doubtful - 1;
            let into = &self.into[self.into_start[q] as usize..self.into_start[q + 1] as usize];
            let held = into
                .iter()
                .any(|&(p, word, bits)| (now >> p) & 1 != 0 && key[word as usize] & bits != 0);
            if !held {
                now &= !(1 << q);
                doubtful |= self.after_any[q] & now & !self.start;
            }
        }
        now
    }

    /// The boxes of the places `gone` (by rank) that no place of `still` holds.
    fn boxes_left(&self, gone: u64, still: u64) -> u64 {
        let (mut gone, mut boxes) = (gone, 0u64);
        while gone != 0 {
            let q = gone.trailing_zeros() as usize;
            gone &= gone - 1;
            let b = self.place_box[q].trailing_zeros() as usize;
            if self.box_places[b] & still == 0 {
                boxes |= self.place_box[q];
            }
        }
        boxes
    }
}

/// A walk over [`Reach`]: places and boxes marked with the walk's number.
#[derive(Clone, Default)]
struct ReachScratch {
    walk: u32,
    seen: Vec<u32>,
    reached: Vec<u32>,
    stack: Vec<u32>,
}

/// Buffers to look states up with: the beads looked up last, packed, the places they
/// reach by rank when worked out on the way (see [`States::places`]), and a walk over
/// [`Reach`].
#[derive(Clone, Default)]
pub(super) struct LookUp {
    key: Vec<u64>,
    places: Option<u64>,
    reach: ReachScratch,
}

impl Reach {
    fn new<G: Rules>(tree: &Tree<G>, machine: &Machine, packing: &Packing) -> Reach {
        let fresh = machine.fresh_beads();
        let mut place_of = vec![u32::MAX; tree.len()];
        let mut places = Vec::new();
        let mut entries = 0;
        for node in 0..tree.len() as Node {
            if let Some(b) = machine.box_at(node) {
                place_of[node as usize] = places.len() as u32;
                places.push((b, entries));
                entries += machine.slots(b).len() as u32;
            }
        }
        let mut memo: Vec<Option<Vec<Node>>> = vec![None; tree.len()];
        let places_at = |nodes: Vec<Node>| -> Vec<u32> {
            nodes.iter().map(|&n| place_of[n as usize]).collect()
        };
        let starts = places_at(Reach::frontier(tree, machine, &fresh, 0, &mut memo));
        let (mut next_start, mut next) = (vec![0], Vec::new());
        for node in (0..tree.len() as Node).filter(|&n| place_of[n as usize] != u32::MAX) {
            let b = machine.box_at(node).expect("a place has a box");
            for slot in machine.slots(b) {
                let child = machine.child(node, slot);
                let after = Reach::frontier(tree, machine, &fresh, child, &mut memo);
                next.extend(places_at(after));
                next_start.push(next.len() as u32);
            }
        }
        let mut reach = Reach {
            places,
            starts,
            next_start,
            next,
            masks: None,
        };
        if reach.places.len() <= 64 && machine.box_count() <= 64 {
            reach.masks = reach.ranked(machine, packing);
        }
        reach
    }

    /// The places after entry `entry`.
    fn after(&self, entry: usize) -> &[u32] {
        &self.next[self.next_start[entry] as usize..self.next_start[entry + 1] as usize]
    }

    /// [`Masks`] of these places, ranked in an order of the game (Kahn's); `None` if no
    /// order fits, which no game's positions allow.
    fn ranked(&self, machine: &Machine, packing: &Packing) -> Option<Masks> {
        let n = self.places.len();
        let entries = |p: usize| {
            let (b, first) = self.places[p];
            (first as usize..).zip(machine.slots(b))
        };
        let mut before = vec![0u32; n];
        for p in 0..n {
            for (entry, _) in entries(p) {
                self.after(entry)
                    .iter()
                    .for_each(|&q| before[q as usize] += 1);
            }
        }
        let mut order: Vec<usize> = (0..n).filter(|&p| before[p] == 0).collect();
        let mut done = 0;
        while done < order.len() {
            let p = order[done];
            done += 1;
            for (entry, _) in entries(p) {
                for &q in self.after(entry) {
                    before[q as usize] -= 1;
                    if before[q as usize] == 0 {
                        order.push(q as usize);
                    }
                }
            }
        }
        if order.len() < n {
            return None;
        }
        let mut rank = vec![0u32; n];
        order
            .iter()
            .enumerate()
            .for_each(|(r, &p)| rank[p] = r as u32);
        let mask = |places: &[u32]| places.iter().fold(0u64, |m, &p| m | 1 << rank[p as usize]);
        let (mut ways, mut place_ways) = (Vec::new(), vec![0]);
        let mut by_slot = vec![Vec::new(); packing.slots()];
        let mut into = vec![Vec::new(); n];
        let mut box_places = vec![0u64; machine.box_count()];
        for (r, &p) in order.iter().enumerate() {
            for (entry, slot) in entries(p) {
                let (word, bits) = packing.bits(slot);
                let next = mask(self.after(entry));
                ways.push((word as u32, bits, next));
                by_slot[slot as usize].push((r as u32, next));
                for &q in self.after(entry) {
                    into[rank[q as usize] as usize].push((r as u32, word as u32, bits));
                }
            }
            place_ways.push(ways.len() as u32);
            box_places[self.places[p].0 as usize] |= 1 << r;
        }
        let after_any = (0..n)
            .map(|r| {
                let ways = &ways[place_ways[r] as usize..place_ways[r + 1] as usize];
                ways.iter().fold(0, |m, w| m | w.2)
            })
            .collect();
        let (slot_ways, slot_ways_start) = flatten(by_slot);
        let (into, into_start) = flatten(into);
        Some(Masks {
            start: mask(&self.starts),
            ways,
            place_ways,
            place_box: order.iter().map(|&p| 1 << self.places[p].0).collect(),
            slot_ways,
            slot_ways_start,
            into,
            into_start,
            after_any,
            box_places,
        })
    }

    /// The positions with a box where the machine moves next from `node`, whatever the
    /// opponent plays: `node` itself when it has a box.
    fn frontier<G: Rules>(
        tree: &Tree<G>,
        machine: &Machine,
        fresh: &Beads,
        node: Node,
        memo: &mut Vec<Option<Vec<Node>>>,
    ) -> Vec<Node> {
        if let Some(known) = &memo[node as usize] {
            return known.clone();
        }
        let mut found = Vec::new();
        if tree.outcome(node).is_some() {
        } else if tree.to_move(node) != machine.side {
            for &child in tree.children(node) {
                found.extend(Reach::frontier(tree, machine, fresh, child, memo));
            }
            found.sort_unstable();
            found.dedup();
        } else if machine.box_at(node).is_some() {
            found.push(node);
        } else {
            let mut forced = Vec::new();
            machine.draws(fresh, node, |draw, _, _| {
                if let Draw::Forced { child } = draw {
                    forced.push(child);
                }
            });
            for child in forced {
                found.extend(Reach::frontier(tree, machine, fresh, child, memo));
            }
        }
        memo[node as usize] = Some(found.clone());
        found
    }

    /// Sets to 0 the beads of every box that no line of play can reach any more, in the
    /// state packed as `key`: the opponent making any move, the machine any move that
    /// still has a bead (a relay's later wiring too). They can never matter: a move
    /// without beads never gets one back (a rule adds beads only to moves played), so
    /// those boxes stay out of reach, and the machine's play, its losses and the "can no
    /// longer lose" test never look at them.
    /// Returns the places reached, by rank, with [`Masks`].
    fn drop_unreachable(
        &self,
        packed: (&Machine, &Packing),
        key: &mut [u64],
        scratch: &mut ReachScratch,
    ) -> Option<u64> {
        let (machine, packing) = packed;
        // The entries of a place's moves that still have beads.
        let live_key = &*key;
        let ways = |p: u32| {
            let (b, first) = self.places[p as usize];
            let key = live_key;
            let live = machine.slots(b).enumerate().filter(move |&(_, slot)| {
                let (word, bits) = packing.bits(slot);
                key[word] & bits != 0
            });
            live.map(move |(k, _)| first as usize + k)
        };
        if let Some(masks) = &self.masks {
            let (places, reached) = masks.reached(key);
            let out = !reached & (u64::MAX >> (64 - machine.box_count().max(1)));
            Reach::drop_boxes(packed, key, out);
            return Some(places);
        }
        scratch.walk += 1;
        let walk = scratch.walk;
        scratch.reached.resize(machine.box_count(), 0);
        scratch.seen.resize(self.places.len(), 0);
        scratch.stack.clear();
        scratch.stack.extend_from_slice(&self.starts);
        while let Some(p) = scratch.stack.pop() {
            if std::mem::replace(&mut scratch.seen[p as usize], walk) == walk {
                continue;
            }
            scratch.reached[self.places[p as usize].0 as usize] = walk;
            for entry in ways(p) {
                let (from, to) = (self.next_start[entry], self.next_start[entry + 1]);
                let next = &self.next[from as usize..to as usize];
                scratch.stack.extend_from_slice(next);
            }
        }
        for b in 0..machine.box_count() as u32 {
            if scratch.reached[b as usize] != walk {
                Reach::drop_box(packed, key, b);
            }
        }
        None
    }

    /// [`Reach::drop_unreachable`] once `slot`'s count has fallen to 0 in `key`, the state
    /// it came from reaching the places `before` (by rank, with [`Masks`] only): the
    /// places after that move looked at again, not every place.
    fn drop_after_loss(
        &self,
        packed: (&Machine, &Packing),
        key: &mut [u64],
        (slot, before): (u32, Option<u64>),
        scratch: &mut ReachScratch,
    ) -> Option<u64> {
        match (&self.masks, before) {
            (Some(masks), Some(before)) => {
                let now = masks.reached_without(key, slot, before);
                Reach::drop_boxes(packed, key, masks.boxes_left(before & !now, now));
                Some(now)
            }
            _ => self.drop_unreachable(packed, key, scratch),
        }
    }

    /// Sets to 0 the beads of the boxes in the mask `boxes` (with [`Masks`]: boxes 0 to
    /// 63).
    fn drop_boxes(packed: (&Machine, &Packing), key: &mut [u64], boxes: u64) {
        let mut boxes = boxes;
        while boxes != 0 {
            let b = boxes.trailing_zeros();
            boxes &= boxes - 1;
            Reach::drop_box(packed, key, b);
        }
    }

    /// Sets to 0 the beads of box `b`.
    fn drop_box((machine, packing): (&Machine, &Packing), key: &mut [u64], b: u32) {
        for slot in machine.slots(b) {
            let (word, bits) = packing.bits(slot);
            key[word] &= !bits;
        }
    }
}

/// Lists one after another, with where each begins (and, last, where the last ends).
fn flatten<T>(lists: Vec<Vec<T>>) -> (Vec<T>, Vec<u32>) {
    let mut starts = vec![0];
    starts.extend(lists.iter().scan(0, |n, list| {
        *n += list.len() as u32;
        Some(*n)
    }));
    (lists.into_iter().flatten().collect(), starts)
}

/// No state known yet, in [`States::after_loss`].
const UNKNOWN: u32 = u32::MAX;

/// The machine's bead states met so far, numbered from 0 (the kit's fresh beads).
pub(super) struct States {
    /// Whether states with the same future are one: beads out of reach dropped (see
    /// [`Reach::drop_unreachable`]). Off only to test that lumping changes no figure.
    lump: bool,
    reach: Reach,
    scratch: LookUp,
    /// A new state's beads, unpacked to judge whether the machine has learnt.
    unpacked: Beads,
    /// How the states' beads are packed into the words of `index`, the only copy of
    /// them: a walk unpacks the beads it needs ([`States::unpack`]) on its own core.
    /// Keeping them unpacked too cost two allocations a state, made on one core as the
    /// states were numbered, on pages the kernel had to zero.
    packing: Packing,
    index: Numbered,
    /// Whether the machine can no longer lose in that state (the simulator's test).
    pub(super) learnt: Vec<bool>,
    /// Per state and slot, the state a game lost by that last move leads to, as far as
    /// the walks met them ([`UNKNOWN`] otherwise): later walks of the state need not
    /// build and look up those beads again.
    after_loss: Vec<u32>,
    /// Slots per state in `after_loss`.
    slots: usize,
    /// The lines of play of a state's game, kept from the walk that found the states
    /// after it while they fit in [`MAX_KEPT_STEPS`], for the problems solved over them.
    kept: Vec<Option<Lines>>,
    kept_steps: usize,
    memo: LossMemo,
    /// The beads in each state, all boxes together.
    totals: Vec<u64>,
    /// Per state, the places its machine can reach, by rank (with [`Masks`] only): a loss
    /// that empties a move looks again only at the places after it.
    places: Vec<u64>,
    /// [`States::levels`], once worked out (until a state is added).
    levels: std::sync::OnceLock<Vec<Vec<u32>>>,
}

/// Most steps of lines of play kept over all states (some 20 bytes each): HER's 19,648
/// states take 1.3 million.
const MAX_KEPT_STEPS: usize = 2_000_000;

impl States {
    pub(super) fn new<G: Rules>(tree: &Tree<G>, machine: &Machine, lump: bool) -> States {
        let packing = Packing::new(machine);
        let mut states = States {
            lump,
            reach: Reach::new(tree, machine, &packing),
            scratch: LookUp::default(),
            unpacked: machine.fresh_beads(),
            index: Numbered::new(packing.words),
            packing,
            learnt: Vec::new(),
            after_loss: Vec::new(),
            slots: machine.fresh_beads().counts().len(),
            kept: Vec::new(),
            kept_steps: 0,
            memo: LossMemo::default(),
            totals: Vec::new(),
            places: Vec::new(),
            levels: std::sync::OnceLock::new(),
        };
        let mut scratch = LookUp::default();
        let fresh = After::Beads(&machine.fresh_beads(), true);
        states.look_up(machine, fresh, &mut scratch);
        states
            .add_judged(tree, machine, &scratch)
            .expect("the first state is within every bound");
        states
    }

    /// [`States::add`] for the beads just looked up into `scratch`, judged at once
    /// whether the machine can no longer lose with them.
    fn add_judged<G: Rules>(
        &mut self,
        tree: &Tree<G>,
        machine: &Machine,
        scratch: &LookUp,
    ) -> Result<u32, Refusal> {
        self.packing
            .unpack(machine, &scratch.key, &mut self.unpacked);
        let learnt = machine.cannot_lose_with(tree, &self.unpacked, &mut self.memo);
        self.add((&scratch.key, scratch.places), learnt)
    }

    /// Adds the beads packed as `key` as a new state, refused past [`MAX_STATES`] (or
    /// [`MAX_COUNTS`]); `learnt` is whether the machine can no longer lose with them, and
    /// `places` the places they reach, if known.
    fn add(&mut self, (key, places): (&[u64], Option<u64>), learnt: bool) -> Result<u32, Refusal> {
        let most = self.most();
        if self.len() >= most {
            return Err(Refusal(
                Said::new(id::CLI_VERIFY_REFUSAL_STATES).number("n", most as i64),
            ));
        }
        let id = self.len() as u32;
        self.levels.take();
        self.learnt.push(learnt);
        self.after_loss
            .extend(std::iter::repeat_n(UNKNOWN, self.slots));
        self.index.add(key);
        self.totals.push(self.packing.total(key));
        if let Some(masks) = &self.reach.masks {
            self.places
                .push(places.unwrap_or_else(|| masks.reached(key).0));
        }
        Ok(id)
    }

    /// How many states there are.
    pub(super) fn len(&self) -> usize {
        self.learnt.len()
    }

    /// The beads of `state`, into `beads` (any of `machine`'s).
    pub(super) fn unpack(&self, machine: &Machine, state: u32, beads: &mut Beads) {
        self.packing.unpack(machine, self.index.key(state), beads);
    }

    /// Most states before the exact path gives up: a state holds an entry per move, so a
    /// kit of many moves reaches the memory bound long before the state bound.
    fn most(&self) -> usize {
        MAX_STATES.min(MAX_COUNTS / self.slots.max(1))
    }

    /// How many states the next round of [`States::discover`] walks, `walked` walked so
    /// far for `spent` steps: at most [`ROUND`], and no more than the walks so far say
    /// can be done before the states or the steps reach their bound (the walks after a
    /// refusal are done in vain: a chain of Marienbad's meets 100 new states a walk).
    fn round_size(&self, walked: usize, spent: usize) -> usize {
        let walks = walked.max(1);
        let (per_walk, steps_per_walk) = (self.len().div_ceil(walks), spent.div_ceil(walks));
        let states_room = self.most().saturating_sub(self.len()) / per_walk.max(1);
        let steps_room = MAX_WALKED.saturating_sub(spent) / steps_per_walk.max(1);
        ROUND.min(states_room.min(steps_room) + 1)
    }

    /// Packs into `scratch.key` the state standing for the beads `after` a game, those of
    /// boxes fallen out of reach dropped; returns the number of that state, if known.
    fn look_up(&self, machine: &Machine, after: After, scratch: &mut LookUp) -> Option<u32> {
        let packed = (machine, &self.packing);
        scratch.places = None;
        match after {
            After::Beads(beads, emptied) => {
                scratch.key.resize(self.packing.words, 0);
                self.packing.pack(beads, &mut scratch.key);
                if self.lump && emptied {
                    scratch.places =
                        (self.reach).drop_unreachable(packed, &mut scratch.key, &mut scratch.reach);
                }
            }
            // The state's words with one taken from a count: no beads copied or packed.
            After::LostOne { state, last } => {
                scratch.key.clear();
                scratch.key.extend_from_slice(self.index.key(state));
                let before = self.places.get(state as usize).copied();
                if !self.packing.take_one(&mut scratch.key, last) {
                    // Every move that held beads still does: the same places reached.
                    scratch.places = before;
                } else if self.lump {
                    scratch.places = (self.reach).drop_after_loss(
                        packed,
                        &mut scratch.key,
                        (last, before),
                        &mut scratch.reach,
                    );
                }
            }
        }
        self.index.get(&scratch.key)
    }

    /// Every bead state the machine can reach against `mover`, numbered as walking one
    /// state's game after another meets them, with the lines of one game from each state
    /// that has not learnt (`None` for the others). `check` sees each state's lines as
    /// soon as they are numbered, in the order of the states, and may refuse them.
    ///
    /// The states are walked in rounds: the next [`ROUND`] states met and not yet walked,
    /// side by side on the cores, against the states known when the round began; the new
    /// states they meet are numbered after the round, in the order of the states walked
    /// and then of their walks. So the numbers are those of one walk after another, on any
    /// number of cores.
    pub(super) fn discover<G: Rules>(
        tree: &Tree<G>,
        machine: &Machine,
        mover: Mover,
        lump: bool,
        check: impl Fn(u32, &Lines) -> Result<(), Refusal>,
    ) -> Result<(States, Vec<Option<Lines>>), Refusal> {
        use crate::parallel::prelude::*;
        let mut states = States::new(tree, machine, lump);
        let mut lines: Vec<Option<Lines>> = Vec::new();
        let mut budget = Budget::default();
        // Each core's walker, its memo warm from one round to the next, and buffers.
        let walkers = crate::parallel::Pool::new();
        let walker = || {
            let buffers = (LossMemo::default(), Lines::default(), machine.fresh_beads());
            (Walker::with_memo(tree, machine, mover), buffers)
        };
        while lines.len() < states.len() {
            let size = states.round_size(lines.len(), budget.spent());
            let end = states.len().min(lines.len() + size);
            let round: Vec<u32> = (lines.len() as u32..end as u32).collect();
            let core = || {
                let round = Round {
                    states: &states,
                    machine,
                    scratch: LookUp::default(),
                    after_loss: vec![UNKNOWN; states.slots],
                    new: Numbered::new(states.packing.words),
                    new_places: Vec::new(),
                };
                (walkers.take(walker), round)
            };
            let walks: Vec<Walk> = round
                .par_iter()
                .map_init(core, |(walker, round), &s| {
                    let (walker, (memo, lines, beads)) = &mut **walker;
                    states.unpack(machine, s, beads);
                    if machine.cannot_lose_with(tree, beads, memo) {
                        return Walk::Learnt;
                    }
                    round.after_loss.fill(UNKNOWN);
                    round.new.take();
                    round.new_places.clear();
                    // Walked in buffers that have grown to the largest game, kept in a
                    // copy of the size of this one.
                    match walker.walk(lines, beads, s, 0, &[], round) {
                        Ok(()) => Walk::Walked {
                            lines: lines.clone(),
                            new: (round.new.take(), std::mem::take(&mut round.new_places)),
                            after_loss: round.after_loss.clone(),
                        },
                        Err(refusal) => Walk::Refused(refusal),
                    }
                })
                .collect();
            for (s, walk) in round.into_iter().zip(walks) {
                let walked = states.number(s, walk, &mut budget)?;
                walked.as_ref().map_or(Ok(()), |walked| check(s, walked))?;
                lines.push(walked);
            }
        }
        Ok((states, lines))
    }

    /// Numbers the new states one round's walk of `s` met, in the order met, and its
    /// lines' ends with them: the lines of `s`'s game, if it has not learnt.
    fn number(
        &mut self,
        s: u32,
        walk: Walk,
        budget: &mut Budget,
    ) -> Result<Option<Lines>, Refusal> {
        let (mut lines, (new, places), after_loss) = match walk {
            Walk::Learnt => {
                self.learnt[s as usize] = true;
                return Ok(None);
            }
            Walk::Refused(refusal) => return Err(refusal),
            Walk::Walked {
                lines,
                new,
                after_loss,
            } => (lines, new, after_loss),
        };
        self.learnt[s as usize] = false;
        let mut ids = Vec::with_capacity(new.len());
        for (key, places) in new.chunks_exact(self.packing.words.max(1)).zip(places) {
            let id = match self.index.get(key) {
                Some(id) => id,
                // Judged when its own round walks it.
                None => self.add((key, places), false)?,
            };
            ids.push(id);
        }
        let id = |to: u32| {
            if to >= NEW {
                ids[(to - NEW) as usize]
            } else {
                to
            }
        };
        for step in &mut lines.steps {
            if let Step::End { state, .. } = step {
                *state = id(*state);
            }
        }
        let row = s as usize * self.slots;
        for (last, to) in after_loss.into_iter().enumerate() {
            if to != UNKNOWN {
                self.after_loss[row + last] = id(to);
            }
        }
        budget.spend(&lines)?;
        Ok(Some(lines))
    }

    /// The states numbered as the walks meet them, new ones added.
    pub(super) fn interning<'s, G: Rules>(
        &'s mut self,
        tree: &'s Tree<G>,
        machine: &'s Machine,
    ) -> Interning<'s, G> {
        Interning {
            states: self,
            tree,
            machine,
        }
    }

    /// The states as they are: a walk that ends in another is refused.
    pub(super) fn known<'s>(&'s self, machine: &'s Machine) -> Known<'s> {
        Known {
            states: self,
            machine,
            scratch: LookUp::default(),
        }
    }

    /// Whether the figures over these states are worked out in rationals (see
    /// [`RATIONAL_STATES`]).
    pub(super) fn rational(&self) -> bool {
        self.len() <= RATIONAL_STATES
    }

    /// The lines of one game with the beads of `state`, from `node` with the slots `used`
    /// played so far; every state the game can end in must be known.
    pub(super) fn lines<G: Rules>(
        &self,
        tree: &Tree<G>,
        machine: &Machine,
        state: u32,
        node: Node,
        used: &[u32],
    ) -> Result<Lines, Refusal> {
        let (mut lines, mut beads) = (Lines::default(), machine.fresh_beads());
        self.unpack(machine, state, &mut beads);
        Walker::new(tree, machine, Mover::Free).walk(
            &mut lines,
            &beads,
            state,
            node,
            used,
            &mut self.known(machine),
        )?;
        Ok(lines)
    }

    /// The number of the state standing for `beads` (some move of which may have lost
    /// its last bead), if it is known.
    pub(super) fn find(
        &self,
        machine: &Machine,
        beads: &Beads,
        scratch: &mut LookUp,
    ) -> Option<u32> {
        self.look_up(machine, After::Beads(beads, true), scratch)
    }

    /// Keeps the lines of `state`'s game if they fit; if not, gives them back.
    pub(super) fn keep(&mut self, state: u32, lines: Lines) -> Option<Lines> {
        self.kept_steps += lines.steps.len();
        if self.kept_steps > MAX_KEPT_STEPS {
            return Some(lines);
        }
        self.kept.resize_with(self.len(), || None);
        self.kept[state as usize] = Some(lines);
        None
    }

    /// The lines of `state`'s game, if kept.
    pub(super) fn kept(&self, state: u32) -> Option<&Lines> {
        self.kept.get(state as usize)?.as_ref()
    }

    fn known_after(&self, state: u32, last: u32) -> Option<u32> {
        let to = self.after_loss[state as usize * self.slots + last as usize];
        (to != UNKNOWN).then_some(to)
    }
    /// The states in [`States::backwards`] order, in groups of equal beads: no game
    /// leads from a state to another of its group, so a group's states can be solved
    /// side by side once the groups before it are. Worked out once for the problems
    /// solved over the same states.
    pub(super) fn levels(&self) -> &[Vec<u32>] {
        self.levels.get_or_init(|| {
            let total = |s: &u32| self.totals[*s as usize];
            // A stable sort: within a group, the states in their own order.
            let mut order: Vec<u32> = (0..self.len() as u32).collect();
            order.sort_by_key(total);
            order
                .chunk_by(|a, b| total(a) == total(b))
                .map(<[u32]>::to_vec)
                .collect()
        })
    }

    /// State numbers with fewer beads first: every game that changes the beads leads to a
    /// state earlier in this order.
    pub(super) fn backwards(&self) -> impl Iterator<Item = u32> + '_ {
        self.levels().iter().flatten().copied()
    }
}

/// The states, new ones added as the walks meet them.
pub(super) struct Interning<'s, G: Rules> {
    states: &'s mut States,
    tree: &'s Tree<G>,
    machine: &'s Machine,
}

impl<G: Rules> Resolve for Interning<'_, G> {
    fn known(&self, state: u32, last: u32) -> Option<u32> {
        self.states.known_after(state, last)
    }

    fn intern(&mut self, after: After) -> Result<u32, Refusal> {
        let (states, machine) = (&mut *self.states, self.machine);
        let mut scratch = std::mem::take(&mut states.scratch);
        let known = states.look_up(machine, after, &mut scratch);
        let id = match known {
            Some(id) => Ok(id),
            None => states.add_judged(self.tree, machine, &scratch),
        };
        states.scratch = scratch;
        id
    }

    fn remember(&mut self, state: u32, last: u32, to: u32) {
        let slots = self.states.slots;
        self.states.after_loss[state as usize * slots + last as usize] = to;
    }
}

/// The states as they are, for walks of states already met (on any core).
pub(super) struct Known<'s> {
    states: &'s States,
    machine: &'s Machine,
    scratch: LookUp,
}

impl Resolve for Known<'_> {
    fn known(&self, state: u32, last: u32) -> Option<u32> {
        self.states.known_after(state, last)
    }

    fn intern(&mut self, after: After) -> Result<u32, Refusal> {
        let (states, machine) = (self.states, self.machine);
        states
            .look_up(machine, after, &mut self.scratch)
            .ok_or_else(|| Refusal(Said::new(id::CLI_VERIFY_REFUSAL_LEFT_STATES)))
    }

    fn remember(&mut self, _: u32, _: u32, _: u32) {}
}

/// Most states a round of [`States::discover`] walks before their new states are
/// numbered. Any number gives the same numbers; a small one bounds the walks done in
/// vain when a problem is refused for too many states or steps (Marienbad gives up after
/// 4,752 states of about 1,000 steps each), a large one the rounds' waits.
const ROUND: usize = 256;

/// The first number a round of [`States::discover`] gives beads that no state known when
/// it began stands for: far past [`MAX_STATES`].
const NEW: u32 = 1 << 31;

/// One core's walks in a round of [`States::discover`]: the states known when the round
/// began looked up, the other beads met numbered from [`NEW`] in the order met.
struct Round<'s> {
    states: &'s States,
    machine: &'s Machine,
    scratch: LookUp,
    /// Per slot, the state a game of the walked state lost by that last move leads to.
    after_loss: Vec<u32>,
    /// The beads met that no known state stands for, packed and numbered in the order
    /// met, and the places each reaches, if known.
    new: Numbered,
    new_places: Vec<Option<u64>>,
}

/// What a round found of one state.
enum Walk {
    /// The machine can no longer lose with its beads: not walked.
    Learnt,
    /// Its game's lines and what the walk met, numbered as in [`Round`].
    Walked {
        lines: Lines,
        new: (Vec<u64>, Vec<Option<u64>>),
        after_loss: Vec<u32>,
    },
    Refused(Refusal),
}

impl Resolve for Round<'_> {
    fn known(&self, _: u32, last: u32) -> Option<u32> {
        let to = self.after_loss[last as usize];
        (to != UNKNOWN).then_some(to)
    }

    fn intern(&mut self, after: After) -> Result<u32, Refusal> {
        let (states, machine) = (self.states, self.machine);
        if let Some(id) = states.look_up(machine, after, &mut self.scratch) {
            return Ok(id);
        }
        let key = &self.scratch.key;
        let k = match self.new.get(key) {
            Some(k) => k,
            None => {
                self.new_places.push(self.scratch.places);
                self.new.add(key)
            }
        };
        Ok(NEW + k)
    }

    fn remember(&mut self, _: u32, last: u32, to: u32) {
        self.after_loss[last as usize] = to;
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::kit::fixtures::{self, HER};
    use matchbox_simulate::Setup;

    proptest! {
        #[test]
        fn one_pass_over_the_ranked_places_or_the_places_after_a_move_drops_what_a_walk_drops(
            emptied in prop::collection::vec(prop::bool::weighted(0.3), 64),
        ) {
            let (game, kit) = fixtures::pawns(HER);
            let her = Setup::new(&game, &kit, kit.rule, false).unwrap();
            let machine = &her.machine;
            let packing = Packing::new(machine);
            let ranked = Reach::new(&her.tree, machine, &packing);
            prop_assert!(ranked.masks.is_some());
            let walked = Reach {
                masks: None,
                ..ranked.clone()
            };
            let mut beads = machine.fresh_beads();
            for (slot, &emptied) in (0..beads.counts().len() as u32).zip(&emptied) {
                if emptied {
                    beads.set(machine, slot, 0);
                }
            }
            let mut key = vec![0; packing.words];
            packing.pack(&beads, &mut key);
            let (mut once, mut walking) = (key.clone(), key.clone());
            let mut scratch = ReachScratch::default();
            ranked.drop_unreachable((machine, &packing), &mut once, &mut scratch);
            walked.drop_unreachable((machine, &packing), &mut walking, &mut scratch);
            prop_assert_eq!(&once, &walking);
            // Dropping only ever takes beads away.
            prop_assert!(once.iter().zip(&key).all(|(after, before)| after & !before == 0));
            // Each move that still holds beads emptied in turn: the places after it looked
            // at again drop what one pass over all places drops.
            let masks = ranked.masks.as_ref().unwrap();
            let before = masks.reached(&once).0;
            for slot in 0..packing.slots() as u32 {
                let (word, bits) = packing.bits(slot);
                if once[word] & bits == 0 {
                    continue;
                }
                let mut emptied = once.clone();
                emptied[word] &= !bits;
                let (mut again, mut all) = (emptied.clone(), emptied);
                let packed = (machine, &packing);
                ranked.drop_after_loss(packed, &mut again, (slot, Some(before)), &mut scratch);
                ranked.drop_unreachable(packed, &mut all, &mut scratch);
                prop_assert_eq!(&again, &all, "slot {}", slot);
            }
        }
    }

    #[test]
    fn emptying_the_first_box_drops_every_box_after_it() {
        let (game, kit) = fixtures::pawns(HER);
        let her = Setup::new(&game, &kit, kit.rule, false).unwrap();
        let machine = &her.machine;
        let packing = Packing::new(machine);
        let reach = Reach::new(&her.tree, machine, &packing);
        // Every move of the boxes met first emptied: no later box can be reached.
        let mut beads = machine.fresh_beads();
        for &p in &reach.starts {
            let b = reach.places[p as usize].0;
            machine.slots(b).for_each(|slot| {
                beads.set(machine, slot, 0);
            });
        }
        let mut key = vec![0; packing.words];
        packing.pack(&beads, &mut key);
        reach.drop_unreachable((machine, &packing), &mut key, &mut ReachScratch::default());
        assert!(key.iter().all(|&w| w == 0), "{key:?}");
    }
}
