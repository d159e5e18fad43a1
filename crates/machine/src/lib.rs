//! The machine, and who it plays: a kit's boxes with bead counts, the draw of a bead, and
//! the learning rules applied after a game; its opponents' kinds and the teacher's
//! moves ([`opponent`]); the statistics a run measures ([`stats`]); and work on every
//! core or on one ([`parallel`]).
//!
//! Everything is compiled once into flat arrays over the exact positions of the game
//! ([`Tree`]), so that a move during training is an array index and a weighted draw,
//! with no hashing and no allocation. Bottom to top: [`tree`] (the exact positions),
//! [`compiled`] (the boxes compiled onto them: [`Machine`]), [`loss`] (whether the
//! machine can still lose, kept from game to game), [`learner`] (the beads and the
//! learning rules), [`opponent`]. The exact solver (`matchbox-solver`) and the
//! simulation (`matchbox-simulate`) stand on this crate.

#![warn(missing_docs)]

pub mod compiled;
pub mod learner;
pub mod loss;
pub mod opponent;
pub mod parallel;
pub mod stats;
pub mod tree;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

use matchbox_games as game;
use matchbox_kit::{self as kit, boxes};
use matchbox_words::{Error, rule};

use crate::game::{Outcome, Side};
pub use compiled::{Beads, Draw, MAX_BEADS, Machine};
pub use learner::{Learner, Learning, Suspended};
pub use loss::{LossCheck, LossMemo};
pub use opponent::{OpponentKind, teacher_moves};
pub use stats::{Estimate, Stats, Training};
pub use tree::{Node, TREE_BUDGET, TooManyPositions, Tree};

/// The random number generator of the simulation.
pub type SimRng = ChaCha8Rng;

/// The generator for run `run` of a simulation seeded with `seed`: each run has its own
/// stream, so results do not depend on which thread plays which run.
pub fn rng_for(seed: u64, run: u64) -> SimRng {
    let mut rng = SimRng::seed_from_u64(seed);
    rng.set_stream(run);
    rng
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::boxes::BoxSet;
    use crate::game::Notation;
    use crate::kit::fixtures::{self, HER, Stones};
    use crate::rule::{Reward, Rule};

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
    fn a_rule_that_says_a_loss_takes_one_bead_takes_one_bead_of_the_last_move_only() {
        let rules = [
            Rule::Gardner,
            Rule::GardnerReward,
            Rule::Menace,
            Rule::Relay,
        ];
        for rule in rules.into_iter().filter(|r| r.loss_takes_one_bead()) {
            let (_, _, _, machine) = nim_machine("bachet", rule);
            let fresh = machine.fresh_beads();
            for end in [End::Lost, End::Resigned] {
                let mut beads = fresh.clone();
                apply(rule, &machine, &mut beads, &[0, 4], end);
                let mut one_taken = fresh.clone();
                one_taken.set(&machine, 4, fresh.count(4) - 1);
                assert_eq!(beads, one_taken, "{rule:?}");
            }
        }
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
}
