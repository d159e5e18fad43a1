//! Whether the machine can still lose, kept from game to game.

use super::compiled::Seat;
use super::{Beads, End, Machine, Node, Tree};
use crate::game::Rules;
use crate::rule::Rule;

/// What [`Machine::cannot_lose_with`] knows of each position while it looks.
#[derive(Clone, Default)]
pub struct LossMemo(Vec<Safety>);

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Safety {
    Unknown,
    Safe,
    Unsafe,
}

impl Machine {
    /// Whether the machine can no longer lose: over every line of play from the start,
    /// with the opponent free to make any legal move and the machine making any move that
    /// still has a bead (a relay: the move it would play), it never loses and never meets
    /// an empty box.
    pub fn cannot_lose<G: Rules>(&self, tree: &Tree<G>, beads: &Beads) -> bool {
        self.cannot_lose_with(tree, beads, &mut LossMemo::default())
    }

    /// [`Machine::cannot_lose`] with a buffer kept from one call to the next, for a
    /// caller that asks of many bead states.
    pub fn cannot_lose_with<G: Rules>(
        &self,
        tree: &Tree<G>,
        beads: &Beads,
        memo: &mut LossMemo,
    ) -> bool {
        memo.0.clear();
        memo.0.resize(tree.len(), Safety::Unknown);
        self.safe(tree, beads, 0, &mut memo.0)
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
