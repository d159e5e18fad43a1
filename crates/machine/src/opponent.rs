//! Who the machine plays against ([`OpponentKind`]), and the moves the teacher picks
//! from ([`teacher_moves`]): what the exact solver follows and the simulation plays.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::compiled::{Beads, Machine};
use crate::game::Rules;
use crate::tree::{Node, Tree};

/// Who the machine plays against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OpponentKind {
    /// A uniformly random legal move.
    Random,
    /// A uniformly random move among those of best value under exact minimax.
    Perfect,
    /// Like `perfect` while it can win or draw; when every move loses, it steers to where
    /// the machine's beads are most likely to blunder.
    Teacher,
    /// A second matchbox machine for the other side, learning by the same rule.
    Machine,
    /// The opponent that teaches the machine in the fewest games on average, computed
    /// exactly over the machine's bead states (small kits only).
    #[serde(rename = "optimal-teacher")]
    OptimalTeacher,
    /// A person at the keyboard (`matchbox play`).
    Human,
}

impl OpponentKind {
    /// Every kind, in the order the help lists them.
    pub const ALL: [OpponentKind; 6] = [
        OpponentKind::Random,
        OpponentKind::Perfect,
        OpponentKind::Teacher,
        OpponentKind::Machine,
        OpponentKind::OptimalTeacher,
        OpponentKind::Human,
    ];

    /// The opponents `verify` works out figures against: those that play by a rule or by
    /// a computed strategy, whose every game the exact path can follow.
    pub const VERIFIABLE: [OpponentKind; 4] = [
        OpponentKind::Perfect,
        OpponentKind::Random,
        OpponentKind::Teacher,
        OpponentKind::OptimalTeacher,
    ];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            OpponentKind::Random => "random",
            OpponentKind::Perfect => "perfect",
            OpponentKind::Teacher => "teacher",
            OpponentKind::Machine => "machine",
            OpponentKind::OptimalTeacher => "optimal-teacher",
            OpponentKind::Human => "human",
        }
    }
}

/// The moves among which `teacher` picks at `node` against a machine with `beads`: the
/// best ones while it can win or draw; when every move loses against perfect play, those
/// where the machine is likeliest to blunder.
pub fn teacher_moves<'t, G: Rules>(
    tree: &'t Tree<G>,
    node: Node,
    machine: &Machine,
    beads: &Beads,
) -> Cow<'t, [Node]> {
    if tree.value(node) >= 0 {
        return Cow::Borrowed(tree.best_children(node));
    }
    let chances: Vec<f64> = tree
        .children(node)
        .iter()
        .map(|&c| machine.blunder_chance(tree, beads, c))
        .collect();
    let top = chances.iter().copied().fold(0.0, f64::max);
    tree.children(node)
        .iter()
        .zip(&chances)
        .filter(|(_, p)| **p == top)
        .map(|(c, _)| *c)
        .collect()
}
