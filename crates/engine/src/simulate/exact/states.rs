//! The machine's bead states, numbered as they are met, with the beads that can no
//! longer matter dropped (states with the same future lumped into one).

use rustc_hash::FxHashMap;

use super::Refusal;
use super::lines::{Lines, Mover};
use crate::game::Rules;
use crate::machine::{Beads, Draw, Machine, Node, Tree};

/// Most bead states the exact path enumerates before it gives way to sampling.
pub const MAX_STATES: usize = 1_000_000;

/// Most bead counts held over all states (a count per move per state): 20 MB. It also
/// bounds the time spent finding out that a machine of many moves has too many states:
/// every state found costs a walk through one game, so Marienbad's 1,052 beads give up
/// after some 4,750 states (HER needs 65,536 states of 45 beads, under 3 million).
pub const MAX_COUNTS: usize = 5_000_000;

/// Most bead states whose figures are worked out in rationals; past it, the rationals'
/// numerators and denominators run to thousands of digits, and [`Bounds`] take over.
pub const RATIONAL_STATES: usize = 4096;

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
pub(super) struct States {
    /// Whether states with the same future are one: beads out of reach dropped (see
    /// [`drop_unreachable`]). Off only to test that lumping changes no figure.
    pub(super) lump: bool,
    pub(super) beads: Vec<Beads>,
    pub(super) index: FxHashMap<Beads, u32>,
    /// Whether the machine can no longer lose in that state (the simulator's test).
    pub(super) learnt: Vec<bool>,
    /// Per state, the state a lost game leads to by its last move, as far as the walks
    /// met them (see [`super::lines`]): later walks of the state need not build and
    /// look up those beads again.
    pub(super) after_loss: Vec<Vec<(u32, u32)>>,
}

impl States {
    pub(super) fn new<G: Rules>(tree: &Tree<G>, machine: &Machine, lump: bool) -> States {
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
    pub(super) fn lumped<G: Rules>(
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

    pub(super) fn add<G: Rules>(&mut self, tree: &Tree<G>, machine: &Machine, beads: Beads) -> u32 {
        let id = self.beads.len() as u32;
        self.learnt.push(machine.cannot_lose(tree, &beads));
        self.after_loss.push(Vec::new());
        self.index.insert(beads.clone(), id);
        self.beads.push(beads);
        id
    }

    /// The number of the state standing for `beads` (see [`States::lumped`]), added if
    /// it is new.
    pub(super) fn intern<G: Rules>(
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
    pub(super) fn rational(&self) -> bool {
        self.beads.len() <= RATIONAL_STATES
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
    pub(super) fn find<G: Rules>(
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
    pub(super) fn levels(&self) -> Vec<Vec<u32>> {
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
    pub(super) fn backwards(&self) -> Vec<u32> {
        let total = |b: &Beads| b.counts().iter().map(|&n| u64::from(n)).sum::<u64>();
        let mut order: Vec<u32> = (0..self.beads.len() as u32).collect();
        order.sort_by_cached_key(|&s| total(&self.beads[s as usize]));
        order
    }
}
