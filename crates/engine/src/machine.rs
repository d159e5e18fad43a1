//! The simulated machine: the kit's boxes with bead counts, the draw of a bead, and the
//! learning rules applied after a game.
//!
//! Everything is compiled once into flat arrays over the exact positions of the game
//! ([`Tree`]), so that a move during training is an array index and a weighted draw,
//! with no hashing and no allocation.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use rustc_hash::FxHashMap;

use crate::Error;
use crate::boxes::BoxSet;
use crate::game::{Notation, Outcome, Rules, Side, score};
use crate::rule::{Reward, Rule};

/// The random number generator of the simulation.
pub type SimRng = ChaCha8Rng;

/// The generator for run `run` of a simulation seeded with `seed`: each run has its own
/// stream, so results do not depend on which thread plays which run.
pub fn rng_for(seed: u64, run: u64) -> SimRng {
    let mut rng = SimRng::seed_from_u64(seed);
    rng.set_stream(run);
    rng
}

/// More exact positions than this and a game is not played through: the largest
/// canonical enumeration ([`crate::boxes::POSITION_BUDGET`]) times the largest board
/// symmetry group (8).
pub const TREE_BUDGET: usize = 8 * crate::boxes::POSITION_BUDGET;

/// The value of every position for its side to move (1 win, 0 draw, -1 loss) by
/// minimax, worked backwards from the ends of the game in topological order, without
/// recursion. `children` of `i` are `children[child_start[i]..child_start[i + 1]]`.
fn solve<G: Rules>(
    game: &G,
    positions: &[G::Position],
    child_start: &[u32],
    children: &[Node],
) -> Vec<i8> {
    let n = positions.len();
    let kids = |i: usize| &children[child_start[i] as usize..child_start[i + 1] as usize];
    // Every position before its children (games end), so values go backwards.
    let order = crate::boxes::topological_order(n, children, kids);
    let mut value = vec![0i8; n];
    for &i in order.iter().rev() {
        let position = &positions[i];
        value[i] = match game.outcome(position) {
            Some(outcome) => score(outcome, game.to_move(position)),
            None => kids(i)
                .iter()
                .map(|&c| -value[c as usize])
                .max()
                .unwrap_or(-1),
        };
    }
    value
}

/// A position index in a [`Tree`]; 0 is the start.
pub type Node = u32;

/// Every exact position reachable from the start, numbered, with its moves, its
/// children and its value under exact minimax.
pub struct Tree<G: Rules> {
    /// The positions, in breadth-first order from the start.
    pub positions: Vec<G::Position>,
    to_move: Vec<Side>,
    outcome: Vec<Option<Outcome>>,
    /// Children of node `i` are `children[child_start[i]..child_start[i + 1]]`, in the
    /// order the game lists its legal moves; `moves` holds the move to each.
    child_start: Vec<u32>,
    children: Vec<Node>,
    moves: Vec<G::Move>,
    /// Value for the side to move: 1 win, 0 draw, -1 loss.
    value: Vec<i8>,
    /// The children of best value for the side to move, flat like `children`.
    best_start: Vec<u32>,
    best: Vec<Node>,
}

impl<G: Rules> Tree<G> {
    /// Enumerates every position reachable from the start, breadth first, and solves
    /// the game backwards from its ends; refuses a game of more than [`TREE_BUDGET`]
    /// positions.
    pub fn build(game: &G) -> Result<Tree<G>, Error> {
        let start = game.start();
        let mut ids: FxHashMap<G::Position, Node> = FxHashMap::default();
        ids.insert(start.clone(), 0);
        let mut positions = vec![start];
        let mut child_start = vec![0u32];
        let (mut children, mut moves, mut legal) = (Vec::new(), Vec::new(), Vec::new());
        let mut next = 0;
        while next < positions.len() {
            let position = positions[next].clone();
            legal.clear();
            game.legal_moves(&position, &mut legal);
            for &mv in &legal {
                let child = game.play(&position, mv);
                let id = match ids.get(&child) {
                    Some(&id) => id,
                    None => {
                        if positions.len() >= TREE_BUDGET {
                            return Err(Error::Input(format!(
                                "this {} game has more than {TREE_BUDGET} positions to play through: too many to simulate; choose a smaller game",
                                G::NAME
                            )));
                        }
                        ids.insert(child.clone(), positions.len() as Node);
                        positions.push(child);
                        (positions.len() - 1) as Node
                    }
                };
                children.push(id);
                moves.push(mv);
            }
            child_start.push(children.len() as u32);
            next += 1;
        }
        let value = solve(game, &positions, &child_start, &children);
        let mut best_start = vec![0u32];
        let mut best = Vec::new();
        for i in 0..positions.len() {
            let kids = &children[child_start[i] as usize..child_start[i + 1] as usize];
            let top = kids.iter().map(|&c| -value[c as usize]).max();
            best.extend(kids.iter().filter(|&&c| Some(-value[c as usize]) == top));
            best_start.push(best.len() as u32);
        }
        Ok(Tree {
            to_move: positions.iter().map(|p| game.to_move(p)).collect(),
            outcome: positions.iter().map(|p| game.outcome(p)).collect(),
            positions,
            child_start,
            children,
            moves,
            value,
            best_start,
            best,
        })
    }

    /// How many positions there are.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Whether the tree is empty (never: it holds the start).
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// Whose turn it is at `node`.
    pub fn to_move(&self, node: Node) -> Side {
        self.to_move[node as usize]
    }

    /// The result if the game is over at `node`.
    pub fn outcome(&self, node: Node) -> Option<Outcome> {
        self.outcome[node as usize]
    }

    /// The positions one move after `node`, in the game's order of legal moves.
    pub fn children(&self, node: Node) -> &[Node] {
        let i = node as usize;
        &self.children[self.child_start[i] as usize..self.child_start[i + 1] as usize]
    }

    /// Every node's children, one after another (each node's are [`Tree::children`]).
    pub fn all_children(&self) -> &[Node] {
        &self.children
    }

    /// The legal moves at `node`, in the same order as [`Tree::children`].
    pub fn moves(&self, node: Node) -> &[G::Move] {
        let i = node as usize;
        &self.moves[self.child_start[i] as usize..self.child_start[i + 1] as usize]
    }

    /// The move that leads from `node` to its child `child`.
    pub fn move_to(&self, node: Node, child: Node) -> Option<G::Move> {
        let at = self.children(node).iter().position(|&c| c == child)?;
        Some(self.moves(node)[at])
    }

    /// The value of `node` under exact minimax for the side to move: 1, 0 or -1.
    pub fn value(&self, node: Node) -> i8 {
        self.value[node as usize]
    }

    /// The children of best value for the side to move at `node`.
    pub fn best_children(&self, node: Node) -> &[Node] {
        let i = node as usize;
        &self.best[self.best_start[i] as usize..self.best_start[i + 1] as usize]
    }
}

/// How a game ended, seen from one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// This player won.
    Won,
    /// Nobody won.
    Drew,
    /// The other player won.
    Lost,
    /// This player found an empty box and gave up (a loss).
    Resigned,
}

impl End {
    /// The end of a finished game for `side`.
    pub fn of(outcome: Outcome, side: Side) -> End {
        match outcome {
            Outcome::Draw => End::Drew,
            Outcome::Win(s) if s == side => End::Won,
            Outcome::Win(_) => End::Lost,
        }
    }

    /// The same end seen from the other player (a resignation is their win).
    pub fn other(self) -> End {
        match self {
            End::Won => End::Lost,
            End::Drew => End::Drew,
            End::Lost | End::Resigned => End::Won,
        }
    }

    /// Whether this player lost, by the board or by resigning.
    pub fn is_loss(self) -> bool {
        matches!(self, End::Lost | End::Resigned)
    }

    /// `win`, `draw`, `loss` or `resigned`.
    pub fn name(self) -> &'static str {
        match self {
            End::Won => "win",
            End::Drew => "draw",
            End::Lost => "loss",
            End::Resigned => "resigned",
        }
    }
}

/// What the machine has at one node: nothing (the opponent moves or the game is over),
/// a forced move played without a box, or a box. `first` indexes `slot_child`: the child
/// reached by the forced move, or by the box's first slot.
#[derive(Clone, Copy, Debug)]
enum Seat {
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
    seats: Vec<Seat>,
    slot_child: Vec<Node>,
    /// Slots of box `b` are `slot_start[b]..slot_start[b + 1]`, in the box's move order.
    slot_start: Vec<u32>,
    slot_box: Vec<u32>,
    initial: Vec<u32>,
    /// For each box, its slots in the order a relay machine tries them.
    relay_order: Vec<u32>,
    /// For each slot, the boxes the opponent can reach with one reply after it.
    feeds_start: Vec<u32>,
    feeds: Vec<u32>,
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
        Ok(Machine {
            side: set.machine,
            rule,
            reward,
            seats,
            slot_child,
            slot_start,
            slot_box,
            initial,
            relay_order,
            feeds_start,
            feeds,
        })
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
    fn relay_slot(&self, beads: &Beads, box_index: u32) -> Option<u32> {
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
                // Walk the slots until the drawn bead's number is passed.
                let mut r = rng.random_range(0..total);
                let mut s = self.slot_start[b as usize];
                while r >= beads.counts[s as usize] {
                    r -= beads.counts[s as usize];
                    s += 1;
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

    /// Whether the machine can no longer lose: over every line of play from the start,
    /// with the opponent free to make any legal move and the machine making any move that
    /// still has a bead (a relay: the move it would play), it never loses and never meets
    /// an empty box.
    pub fn cannot_lose<G: Rules>(&self, tree: &Tree<G>, beads: &Beads) -> bool {
        let mut memo = vec![Safety::Unknown; tree.len()];
        self.safe(tree, beads, 0, &mut memo)
    }

    fn safe<G: Rules>(
        &self,
        tree: &Tree<G>,
        beads: &Beads,
        node: Node,
        memo: &mut [Safety],
    ) -> bool {
        match memo[node as usize] {
            Safety::Safe => return true,
            Safety::Unsafe => return false,
            Safety::Unknown => {}
        }
        let safe = self.safe_here(tree, beads, node, |c| self.safe(tree, beads, c, memo));
        memo[node as usize] = if safe { Safety::Safe } else { Safety::Unsafe };
        safe
    }

    /// Whether the machine cannot lose from `node`, given `child`: whether it cannot from
    /// a child (asked only of the children that decide it).
    fn safe_here<G: Rules>(
        &self,
        tree: &Tree<G>,
        beads: &Beads,
        node: Node,
        mut child: impl FnMut(Node) -> bool,
    ) -> bool {
        if let Some(outcome) = tree.outcome(node) {
            return End::of(outcome, self.side) != End::Lost;
        }
        match self.seats[node as usize] {
            Seat::Other => tree.children(node).iter().all(|&c| child(c)),
            Seat::Forced { first } => child(self.slot_child[first as usize]),
            Seat::Box { index: b, .. } if self.rule == Rule::Relay => self
                .relay_slot(beads, b)
                .is_some_and(|s| child(self.child(node, s))),
            Seat::Box { index: b, .. } => {
                beads.totals[b as usize] > 0
                    && self
                        .slots(b)
                        .all(|s| beads.counts[s as usize] == 0 || child(self.child(node, s)))
            }
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Safety {
    Unknown,
    Safe,
    Unsafe,
}

/// Whether the machine can still lose, kept from game to game: the simulator's test after
/// every game that emptied a move ([`Machine::cannot_lose`] answers it from scratch).
/// Whether a position is safe depends only on which moves still have beads, so after a
/// game only the positions of the boxes it emptied, and those above them, are looked at
/// again.
pub struct LossCheck {
    /// Per node: whether the machine cannot lose from there with its beads now.
    safe: Vec<bool>,
    /// The positions one move above node `n`: `parents[parent_start[n]..parent_start[n + 1]]`.
    parent_start: Vec<u32>,
    parents: Vec<Node>,
    /// The positions where box `b` is used: `box_nodes[box_start[b]..box_start[b + 1]]`.
    box_start: Vec<u32>,
    box_nodes: Vec<Node>,
    /// Positions to look at again.
    queue: Vec<Node>,
}

/// Groups `(key, node)` pairs by key, as offsets and nodes (compressed rows).
fn grouped(keys: usize, pairs: impl Iterator<Item = (u32, Node)> + Clone) -> (Vec<u32>, Vec<Node>) {
    let mut start = vec![0u32; keys + 1];
    for (k, _) in pairs.clone() {
        start[k as usize + 1] += 1;
    }
    for k in 0..keys {
        start[k + 1] += start[k];
    }
    let mut next = start.clone();
    let mut nodes = vec![0; start[keys] as usize];
    for (k, node) in pairs {
        nodes[next[k as usize] as usize] = node;
        next[k as usize] += 1;
    }
    (start, nodes)
}

impl LossCheck {
    /// The check for a machine with `beads`, every position worked out once.
    pub fn new<G: Rules>(machine: &Machine, tree: &Tree<G>, beads: &Beads) -> LossCheck {
        let n = tree.len();
        let edges = (0..n as Node).flat_map(|p| tree.children(p).iter().map(move |&c| (c, p)));
        let (parent_start, parents) = grouped(n, edges);
        let seats = (0..n as Node).filter_map(|node| machine.box_at(node).map(|b| (b, node)));
        let (box_start, box_nodes) = grouped(machine.box_count(), seats);
        let mut safe = vec![false; n];
        let order =
            crate::boxes::topological_order(n, tree.all_children(), |i| tree.children(i as Node));
        for &node in order.iter().rev() {
            safe[node] = machine.safe_here(tree, beads, node as Node, |c| safe[c as usize]);
        }
        LossCheck {
            safe,
            parent_start,
            parents,
            box_start,
            box_nodes,
            queue: Vec::new(),
        }
    }

    /// Whether the machine can no longer lose (see [`Machine::cannot_lose`]).
    pub fn cannot_lose(&self) -> bool {
        self.safe[0]
    }

    /// Brings the check up to `beads`, which differ from the beads it last saw only in
    /// that the moves `emptied` lost their last bead; returns [`LossCheck::cannot_lose`].
    pub fn update<G: Rules>(
        &mut self,
        machine: &Machine,
        tree: &Tree<G>,
        beads: &Beads,
        emptied: &[u32],
    ) -> bool {
        for &slot in emptied {
            let b = machine.box_of(slot) as usize;
            let nodes = &self.box_nodes[self.box_start[b] as usize..self.box_start[b + 1] as usize];
            self.queue.extend_from_slice(nodes);
        }
        // A position is looked at again whenever one below it changed, so the values
        // settle where a check from scratch would put them.
        while let Some(node) = self.queue.pop() {
            let now = machine.safe_here(tree, beads, node, |c| self.safe[c as usize]);
            if now != self.safe[node as usize] {
                self.safe[node as usize] = now;
                let i = node as usize;
                let above =
                    &self.parents[self.parent_start[i] as usize..self.parent_start[i + 1] as usize];
                self.queue.extend_from_slice(above);
            }
        }
        self.safe[0]
    }
}

/// Most beads one move can hold: far more than a box does, and small enough that a box
/// of up to 4,000 moves never overflows its total.
pub const MAX_BEADS: u32 = 1_000_000;

/// The beads in every box: what the machine has learnt.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Beads {
    counts: Vec<u32>,
    /// Beads per box, kept in step with `counts` so a draw needs no sum.
    totals: Vec<u32>,
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
        let totals = (0..machine.box_count() as u32)
            .map(|b| machine.slots(b).map(|s| counts[s as usize]).sum())
            .collect();
        Some(Beads { counts, totals })
    }
}

impl Rule {
    /// Whether [`Rule::apply`] may change any bead after a game that ended as `end` with
    /// the slots `used` played: when not, the beads need not even be copied.
    pub fn may_change(self, machine: &Machine, used: &[u32], end: End) -> bool {
        !used.is_empty()
            && match self {
                Rule::Gardner | Rule::Relay => end.is_loss(),
                Rule::GardnerReward => end.is_loss() || end == End::Won,
                Rule::Menace => menace_beads(machine, end) != 0,
            }
    }

    /// Whether the beads after a lost game depend only on its last move (given the beads
    /// before it), so that games lost after the same move leave the same beads.
    pub fn learns_from_last_move(self) -> bool {
        matches!(self, Rule::Gardner | Rule::Relay)
    }

    /// Applies the rule after a game in which the machine played the slots `used`, in
    /// order, and ended as `end`. Adds to `emptied` every move that lost its last bead,
    /// the only way the machine's possible play changes.
    pub fn apply(
        self,
        machine: &Machine,
        beads: &mut Beads,
        used: &[u32],
        end: End,
        emptied: &mut Vec<u32>,
    ) {
        let mut set = |beads: &mut Beads, slot: u32, count: u32| {
            if beads.set(machine, slot, count) {
                emptied.push(slot);
            }
        };
        match self {
            Rule::Gardner | Rule::GardnerReward => {
                // On a resignation the empty box has no bead to take: the move before it
                // is the last one recorded.
                if end.is_loss()
                    && let Some(&last) = used.last()
                {
                    set(beads, last, beads.count(last).saturating_sub(1));
                }
                if self == Rule::GardnerReward && end == End::Won {
                    for &s in used {
                        set(beads, s, beads.count(s).saturating_add(1));
                    }
                }
            }
            Rule::Menace => {
                let delta = menace_beads(machine, end);
                for &s in used {
                    let count = i64::from(beads.count(s)) + i64::from(delta);
                    set(beads, s, count.clamp(0, i64::from(u32::MAX)) as u32);
                }
            }
            Rule::Relay => {
                if end.is_loss()
                    && let Some(&last) = used.last()
                    && beads.set(machine, last, 0)
                {
                    emptied.push(last);
                    relay_cascade(machine, beads, emptied);
                }
            }
        }
    }
}

/// The beads Michie's rule adds to (or, negative, takes from) each box used in a game
/// that ended as `end`.
fn menace_beads(machine: &Machine, end: End) -> i32 {
    match end {
        End::Won => machine.reward.win,
        End::Drew => machine.reward.draw,
        End::Lost | End::Resigned => machine.reward.loss,
    }
}

/// The relay's wiring: a move after which the opponent can reach an empty box with one
/// reply is unwired, until nothing changes.
fn relay_cascade(machine: &Machine, beads: &mut Beads, emptied: &mut Vec<u32>) {
    loop {
        let mut changed = false;
        for slot in 0..machine.initial.len() as u32 {
            let fed = &machine.feeds[machine.feeds_start[slot as usize] as usize
                ..machine.feeds_start[slot as usize + 1] as usize];
            if beads.count(slot) > 0 && fed.iter().any(|&b| beads.total(b) == 0) {
                beads.set(machine, slot, 0);
                emptied.push(slot);
                changed = true;
            }
        }
        if !changed {
            return;
        }
    }
}

/// A machine with its beads, playing and learning game after game.
#[derive(Clone)]
pub struct Learner<'m> {
    /// The compiled boxes.
    pub machine: &'m Machine,
    /// The beads now.
    pub beads: Beads,
    /// The slots played in the current game, in order.
    used: Vec<u32>,
    /// The slots the last game's rule emptied.
    emptied: Vec<u32>,
}

impl<'m> Learner<'m> {
    /// A machine with the kit's starting beads.
    pub fn new(machine: &'m Machine) -> Learner<'m> {
        Learner::with_beads(machine, machine.fresh_beads())
    }

    /// A machine with these beads.
    pub fn with_beads(machine: &'m Machine, beads: Beads) -> Learner<'m> {
        Learner {
            machine,
            beads,
            used: Vec::with_capacity(32),
            emptied: Vec::new(),
        }
    }

    /// Chooses the move at `node` and remembers the slot for the rule.
    pub fn choose(&mut self, node: Node, rng: &mut SimRng) -> Draw {
        let draw = self.machine.choose(&self.beads, node, rng);
        if let Draw::Bead { slot, .. } = draw {
            self.used.push(slot);
        }
        draw
    }

    /// The slots played so far in the current game, in order.
    pub fn used(&self) -> &[u32] {
        &self.used
    }

    /// Applies the rule after the game and gets ready for the next; returns whether
    /// some move lost its last bead.
    pub fn finish(&mut self, end: End) -> bool {
        self.emptied.clear();
        self.machine.rule.apply(
            self.machine,
            &mut self.beads,
            &self.used,
            end,
            &mut self.emptied,
        );
        self.used.clear();
        !self.emptied.is_empty()
    }

    /// The moves that lost their last bead after the last game.
    pub fn emptied(&self) -> &[u32] {
        &self.emptied
    }

    /// The beads and the game in progress, apart from the machine: kept between calls
    /// by a caller that plays a game a move at a time (the classroom screen's second
    /// machine), and taken up again by [`Learner::resume`].
    pub fn suspend(self) -> Suspended {
        Suspended {
            beads: self.beads,
            used: self.used,
        }
    }

    /// A machine with the beads and the game in progress of [`Learner::suspend`].
    pub fn resume(machine: &'m Machine, suspended: Suspended) -> Learner<'m> {
        Learner {
            machine,
            beads: suspended.beads,
            used: suspended.used,
            emptied: Vec::new(),
        }
    }
}

/// A [`Learner`] without its machine: its beads and the slots of its game in progress.
#[derive(Clone, Debug)]
pub struct Suspended {
    beads: Beads,
    used: Vec<u32>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Notation;
    use crate::kit::fixtures::{self, HER, Stones};

    pub(crate) fn nim_machine(
        preset: &str,
        rule: Rule,
    ) -> (Stones, Tree<Stones>, BoxSet<Stones>, Machine) {
        let (game, kit) = fixtures::stones(preset);
        let tree = Tree::build(&game).unwrap();
        let set = BoxSet::build(&game, &kit).unwrap();
        let machine = Machine::compile(&game, &tree, &set, rule, kit.reward, false).unwrap();
        (game, tree, set, machine)
    }

    /// The rule applied: the moves it emptied.
    fn apply(rule: Rule, machine: &Machine, beads: &mut Beads, used: &[u32], end: End) -> Vec<u32> {
        let mut emptied = Vec::new();
        rule.apply(machine, beads, used, end, &mut emptied);
        emptied
    }

    /// The node of `stones` left with the machine (second) to move, and its box.
    fn at(tree: &Tree<Stones>, machine: &Machine, stones: u16) -> (Node, u32) {
        let node = tree
            .positions
            .iter()
            .position(|p| *p == fixtures::heap(stones, Side::Second))
            .unwrap() as Node;
        (node, machine.box_at(node).unwrap())
    }

    fn slot_taking(tree: &Tree<Stones>, machine: &Machine, stones: u16, take: u16) -> u32 {
        let (node, b) = at(tree, machine, stones);
        machine
            .slots(b)
            .find(|&s| tree.positions[machine.child(node, s) as usize].stones() == stones - take)
            .unwrap()
    }

    #[test]
    fn draws_follow_the_bead_counts() {
        let (_, tree, _, machine) = nim_machine("bachet", Rule::Gardner);
        let mut beads = machine.fresh_beads();
        let (node, b) = at(&tree, &machine, 7);
        let take2 = slot_taking(&tree, &machine, 7, 2);
        for s in machine.slots(b) {
            beads.set(&machine, s, if s == take2 { 3 } else { 1 });
        }
        let mut rng = rng_for(7, 0);
        let mut hits = 0;
        for _ in 0..5000 {
            if let Draw::Bead { slot, .. } = machine.choose(&beads, node, &mut rng) {
                hits += u32::from(slot == take2);
            }
        }
        // 3 beads of 5: about 3000 of 5000 draws.
        assert!((2800..3200).contains(&hits), "{hits}");
        beads.set(&machine, take2, 0);
        for _ in 0..200 {
            let draw = machine.choose(&beads, node, &mut rng);
            assert!(
                !matches!(draw, Draw::Bead { slot, .. } if slot == take2),
                "{draw:?}"
            );
        }
    }

    #[test]
    fn an_empty_box_resigns() {
        let (_, tree, _, machine) = nim_machine("bachet", Rule::Gardner);
        let mut beads = machine.fresh_beads();
        let (node, b) = at(&tree, &machine, 4);
        for s in machine.slots(b) {
            beads.set(&machine, s, 0);
        }
        assert_eq!(
            machine.choose(&beads, node, &mut rng_for(1, 0)),
            Draw::Resign { box_index: b }
        );
    }

    #[test]
    fn gardner_takes_the_last_bead_on_a_loss_only() {
        let (_, _, _, machine) = nim_machine("bachet", Rule::Gardner);
        let mut beads = machine.fresh_beads();
        let used = [0, 4, 8];
        assert_eq!(
            apply(Rule::Gardner, &machine, &mut beads, &used, End::Won),
            [0u32; 0]
        );
        assert_eq!(beads, machine.fresh_beads());
        assert_eq!(
            apply(Rule::Gardner, &machine, &mut beads, &used, End::Lost),
            [8]
        );
        assert_eq!(beads.count(8), 0);
        assert_eq!(beads.count(4), 1);
        // Resigning punishes the move before the empty box: the last one recorded.
        apply(
            Rule::Gardner,
            &machine,
            &mut beads,
            &used[..2],
            End::Resigned,
        );
        assert_eq!(beads.count(4), 0);
        // A resignation at the first box has nothing to punish.
        let before = beads.clone();
        assert_eq!(
            apply(Rule::Gardner, &machine, &mut beads, &[], End::Resigned),
            [0u32; 0]
        );
        assert_eq!(beads, before);
    }

    #[test]
    fn gardner_reward_adds_a_bead_to_every_move_of_a_won_game() {
        let (_, _, _, machine) = nim_machine("bachet", Rule::GardnerReward);
        let mut beads = machine.fresh_beads();
        apply(Rule::GardnerReward, &machine, &mut beads, &[0, 4], End::Won);
        assert_eq!((beads.count(0), beads.count(4), beads.count(1)), (2, 2, 1));
        assert_eq!(
            beads.total(machine.box_of(0)),
            machine.fresh_beads().total(machine.box_of(0)) + 1
        );
        apply(
            Rule::GardnerReward,
            &machine,
            &mut beads,
            &[0, 4],
            End::Lost,
        );
        assert_eq!((beads.count(0), beads.count(4)), (2, 1));
    }

    #[test]
    fn menace_rewards_every_box_used_and_never_goes_below_zero() {
        let (_, _, _, mut machine) = nim_machine("bachet", Rule::Menace);
        machine.reward = Reward {
            win: 3,
            draw: 1,
            loss: -2,
        };
        let mut beads = machine.fresh_beads();
        apply(Rule::Menace, &machine, &mut beads, &[0, 4], End::Won);
        assert_eq!((beads.count(0), beads.count(4)), (4, 4));
        apply(Rule::Menace, &machine, &mut beads, &[0, 4], End::Drew);
        assert_eq!((beads.count(0), beads.count(4)), (5, 5));
        apply(Rule::Menace, &machine, &mut beads, &[0, 8], End::Resigned);
        assert_eq!((beads.count(0), beads.count(8)), (3, 0));
        let b = machine.box_of(8);
        assert_eq!(
            beads.total(b),
            machine.slots(b).map(|s| beads.count(s)).sum::<u32>()
        );
    }

    #[test]
    fn the_relay_plays_its_first_wired_move_and_unwires_on_a_loss() {
        let (_, tree, _, machine) = nim_machine("bachet-relay", Rule::Relay);
        let mut beads = machine.fresh_beads();
        let (node, b) = at(&tree, &machine, 3);
        let take = |beads: &Beads| match machine.choose(beads, node, &mut rng_for(0, 0)) {
            Draw::Bead { child, .. } => 3 - tree.positions[child as usize].stones(),
            other => panic!("{other:?}"),
        };
        assert_eq!(take(&beads), 1, "fewest stones first");
        let take1 = slot_taking(&tree, &machine, 3, 1);
        apply(Rule::Relay, &machine, &mut beads, &[take1], End::Lost);
        assert_eq!(take(&beads), 2);
        assert!(machine.slots(b).len() == 3);
    }

    #[test]
    fn the_relay_unwires_the_moves_that_let_the_opponent_reach_an_empty_box() {
        let (_, tree, _, machine) = nim_machine("bachet-relay", Rule::Relay);
        let mut beads = machine.fresh_beads();
        let (_, four) = at(&tree, &machine, 4);
        let slots: Vec<u32> = machine.slots(four).collect();
        for (i, &s) in slots.iter().enumerate() {
            let emptied = apply(Rule::Relay, &machine, &mut beads, &[s], End::Lost);
            assert_eq!(emptied[0], s);
            let still_wired =
                |stones, take| beads.count(slot_taking(&tree, &machine, stones, take)) > 0;
            // Until the box for 4 runs out, the moves leading to it stay.
            assert_eq!(still_wired(7, 1), i < 2);
            assert_eq!(still_wired(6, 1), i < 2);
            assert!(still_wired(7, 3) && still_wired(6, 2) && still_wired(5, 1));
        }
    }

    #[test]
    fn a_machine_with_only_winning_moves_cannot_lose() {
        let (_, tree, _, machine) = nim_machine("bachet", Rule::Gardner);
        let mut beads = machine.fresh_beads();
        assert!(!machine.cannot_lose(&tree, &beads));
        for b in 0..machine.box_count() as u32 {
            let (node, _) = (0..tree.len() as Node)
                .find(|&n| machine.box_at(n) == Some(b))
                .map(|n| (n, b))
                .unwrap();
            for s in machine.slots(b) {
                let child = machine.child(node, s);
                // Keep a move only if it leaves the opponent lost.
                if tree.value(child) != -1 {
                    beads.set(&machine, s, 0);
                }
            }
        }
        assert!(machine.cannot_lose(&tree, &beads));
        // The box for 4 stones is lost whatever it does: it is empty now, and
        // unreachable, so it does not matter.
        let (_, four) = at(&tree, &machine, 4);
        assert_eq!(beads.total(four), 0);
    }

    #[test]
    fn bead_counts_stay_within_bounds() {
        let (_, _, _, machine) = nim_machine("bachet", Rule::GardnerReward);
        let mut beads = machine.fresh_beads();
        beads.set(&machine, 0, u32::MAX);
        assert_eq!(beads.count(0), MAX_BEADS);
        apply(Rule::GardnerReward, &machine, &mut beads, &[0], End::Won);
        assert_eq!(beads.count(0), MAX_BEADS);
        let mut counts = machine.fresh_beads().counts().to_vec();
        assert!(Beads::from_counts(&machine, counts.clone()).is_some());
        counts[0] = MAX_BEADS + 1;
        assert!(Beads::from_counts(&machine, counts.clone()).is_none());
        counts.pop();
        assert!(Beads::from_counts(&machine, counts).is_none());
    }

    #[test]
    fn a_suspended_learner_learns_from_its_whole_game() {
        let (_, tree, _, machine) = nim_machine("bachet", Rule::Gardner);
        let (node, _) = at(&tree, &machine, 7);
        let mut rng = rng_for(3, 0);
        let mut whole = Learner::new(&machine);
        let mut parts = Learner::new(&machine);
        let draw = whole.choose(node, &mut rng);
        let mut rng = rng_for(3, 0);
        assert_eq!(parts.choose(node, &mut rng), draw);
        let mut parts = Learner::resume(&machine, parts.suspend());
        assert_eq!(parts.used(), whole.used());
        whole.finish(End::Lost);
        parts.finish(End::Lost);
        assert_eq!(parts.beads, whole.beads);
        assert_ne!(whole.beads, machine.fresh_beads(), "the loss took a bead");
    }

    #[test]
    fn the_tree_holds_every_exact_position_and_its_value() {
        let (game, _) = fixtures::pawns(HER);
        let tree = Tree::build(&game).unwrap();
        assert_eq!(tree.value(0), -1, "White loses on 3 x 3");
        // Every opening of White is equally lost, so all are best.
        assert_eq!(tree.best_children(0).len(), 3);
        assert_eq!(tree.children(0).len(), 3);
        let c = tree.children(0)[1];
        assert_eq!(
            game.format_move(&tree.positions[0], tree.move_to(0, c).unwrap()),
            "b1-b2"
        );
    }
}
