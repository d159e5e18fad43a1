//! The beads in every box and the learning rules that change them after a game.

use super::{Beads, Draw, End, Machine, Node, SimRng};
use crate::rule::Rule;

/// The learning rules at work on a machine's beads: [`Rule`] is the words crate's, which
/// knows no machine, so what a rule does to the beads is said here.
pub trait Learning: Copy {
    /// Whether [`Learning::apply`] may change any bead after a game that ended as `end`
    /// with the slots `used` played.
    fn may_change(self, machine: &Machine, used: &[u32], end: End) -> bool;
    /// Whether the beads after a lost game depend only on its last move.
    fn learns_from_last_move(self) -> bool;
    /// Whether, after a lost game, [`Learning::apply`] only takes one bead from the last
    /// move.
    fn loss_takes_one_bead(self) -> bool;
    /// Applies the rule after a game in which the machine played the slots `used`.
    fn apply(
        self,
        machine: &Machine,
        beads: &mut Beads,
        used: &[u32],
        end: End,
        emptied: &mut Vec<u32>,
    );
}

impl Learning for Rule {
    /// Whether [`Rule::apply`] may change any bead after a game that ended as `end` with
    /// the slots `used` played: when not, the beads need not even be copied.
    fn may_change(self, machine: &Machine, used: &[u32], end: End) -> bool {
        !used.is_empty()
            && match self {
                Rule::Gardner | Rule::Relay => end.is_loss(),
                Rule::GardnerReward => end.is_loss() || end == End::Won,
                Rule::Menace => menace_beads(machine, end) != 0,
            }
    }

    /// Whether the beads after a lost game depend only on its last move (given the beads
    /// before it), so that games lost after the same move leave the same beads.
    fn learns_from_last_move(self) -> bool {
        matches!(self, Rule::Gardner | Rule::Relay)
    }

    /// Whether, after a lost game, [`Rule::apply`] does nothing but take one bead from the
    /// last move (which holds some: it was drawn), so that the beads after a loss can be
    /// worked out without copying the machine's.
    fn loss_takes_one_bead(self) -> bool {
        matches!(self, Rule::Gardner | Rule::GardnerReward)
    }

    /// Applies the rule after a game in which the machine played the slots `used`, in
    /// order, and ended as `end`. Adds to `emptied` every move that lost its last bead,
    /// the only way the machine's possible play changes.
    fn apply(
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
