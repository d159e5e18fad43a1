//! The exact solver: a machine's learning figures worked out exactly rather than sampled.
//!
//! Exact learning figures: instead of training machines at random, every bead state the
//! machine can reach is enumerated, the next game from each state is worked out exactly
//! over the game tree, and the resulting Markov chain (or, where the opponent chooses its
//! moves to a purpose, Markov decision problem) is solved in rational arithmetic.
//!
//! A state is the machine's beads. The same compiled
//! [`Machine`](matchbox_machine::Machine) draws the beads
//! ([`Machine::draws`](matchbox_machine::Machine::draws), the exact counterpart of its
//! random draw) and the same [`Learning::apply`](matchbox_machine::Learning::apply) of
//! its rule changes them after each game, so the exact path and the simulation
//! cannot disagree on the rules. Under `gardner` a game changes the beads only when it is
//! lost, and then takes a bead away; under `relay` a loss unwires at least one move. So a
//! game either leaves the beads as they were or leads to a state with fewer beads: the
//! states form a finite graph without cycles (apart from "nothing changed"), which is
//! solved backwards from the states with fewest beads. The rules that add beads
//! (`gardner-reward`, `menace`) have no such bound, and their kits are left to sampling.

//! The rooms, bottom to top: `numbers` (rationals and intervals, the printed figures),
//! `packed` (a bead state in machine words), `lines` (the lines of play of one game from
//! one state, and the memo of the lines below positions), `states` (the bead states, lumped, found in rounds), `chain` (against a rule-following opponent), `decision` (the decision
//! problems where the opponent chooses), `teaching` (every opponent's worst and the
//! fastest teacher), `sheet` (what the teacher's sheet quotes); and on top of them
//! `horizon` (the losses in the first games) and `giving_up` (a machine that can never
//! stop losing).

#![warn(missing_docs)]

mod chain;
mod decision;
mod giving_up;
mod horizon;
mod lines;
mod numbers;
mod packed;
mod sheet;
mod states;
mod teaching;

use std::fmt;

use matchbox_games as game;
#[cfg(test)]
use matchbox_kit as kit;
use matchbox_kit::boxes;
use matchbox_machine::{self as machine, parallel};
use matchbox_words::{Error, i18n, rule};

pub use chain::{Distribution, distribution, distribution_bounded};
pub use giving_up::{GIVE_UP_BY, GivingUp, giving_up};
pub use horizon::losses_in_first;
pub use lines::{MAX_STEPS, MAX_WALKED};
pub use numbers::{Arithmetic, Bounds, Figure, Fraction, Measure, Number, Q, Rational};
pub use sheet::{SheetFigures, Solved};
pub use states::{MAX_COUNTS, MAX_STATES, RATIONAL_STATES};
pub use teaching::{Besides, Principle, Teaching};

/// Why a kit's figures cannot be computed exactly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal(pub crate::i18n::Said);

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::chain::distribution_over;
    use super::decision::{decide, most_losses};
    use super::lines::{Lines, Mover, Walker, lines_fit};
    use super::*;
    use crate::kit::fixtures::{self, HER, Pawns, Stones};
    use matchbox_simulate::OpponentKind;
    use matchbox_simulate::{Estimate, Setup, Stats, train};

    fn her() -> Setup<Pawns> {
        let (game, kit) = fixtures::pawns(HER);
        Setup::new(&game, &kit, kit.rule, false).unwrap()
    }

    fn nim_setup(preset: &str) -> Setup<Stones> {
        let (game, kit) = fixtures::stones(preset);
        Setup::new(&game, &kit, kit.rule, false).unwrap()
    }

    fn exact(n: u32, d: u32) -> Figure {
        Figure::Exact(Fraction(Q::new(n.into(), d.into())))
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
        let full = Teaching::solve_over(&s.tree, &s.machine, false, Besides::Nothing).unwrap();
        let lumped = Teaching::solve(&s.tree, &s.machine).unwrap();
        assert_eq!((full.states(), lumped.states()), (65_536, 19_648));
        same_figures(full.fastest(), lumped.fastest());
        assert_eq!(full.worst_losses(), lumped.worst_losses());
        let mut counts = Vec::new();
        for opponent in [OpponentKind::Perfect, OpponentKind::Teacher] {
            let full = distribution_over(&s.tree, &s.machine, opponent, false, true).unwrap();
            let lumped = distribution(&s.tree, &s.machine, opponent).unwrap();
            same_figures(&full, &lumped);
            counts.push(("hexapawn", opponent, full.states, lumped.states));
        }
        for preset in ["bachet", "bachet-relay"] {
            let s = nim_setup(preset);
            for opponent in [OpponentKind::Perfect, OpponentKind::Teacher] {
                let full = distribution_over(&s.tree, &s.machine, opponent, false, true).unwrap();
                let lumped = distribution(&s.tree, &s.machine, opponent).unwrap();
                same_figures(&full, &lumped);
                counts.push((preset, opponent, full.states, lumped.states));
            }
            let full = Teaching::solve_over(&s.tree, &s.machine, false, Besides::Nothing).unwrap();
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
        // The limit grouped as English writes a count (`5,000,000`).
        let too_many = format!(
            "a game from one bead state has more than {} lines of play",
            crate::i18n::number(crate::i18n::Language::En, MAX_STEPS as i64)
        );
        for opponent in [OpponentKind::Perfect, OpponentKind::Random] {
            let refusal = distribution(&s.tree, &s.machine, opponent).unwrap_err();
            assert_eq!(refusal.to_string(), too_many);
        }
        assert_eq!(
            Teaching::solve(&s.tree, &s.machine)
                .err()
                .unwrap()
                .to_string(),
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
        // HER: it wins at every mistake, and otherwise always leaves the machine a chance
        // to go wrong, until no box ahead holds a losing bead.
        let s = her();
        let t = Teaching::solve(&s.tree, &s.machine).unwrap();
        let p = t.principle();
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
        let p = t.principle();
        assert!(0 < p.wins_taken && p.wins_taken < p.chances_to_win, "{p:?}");
    }

    #[test]
    fn rationals_and_bounds_give_the_same_figures() {
        let s = nim_setup("bachet");
        let t = Teaching::solve(&s.tree, &s.machine).unwrap();
        assert_eq!(t.worst_losses(), 12);
        let (tree, machine, states) = (&s.tree, &s.machine, &t.states);
        assert_eq!(t.most_expected_losses(tree, machine).unwrap(), exact(12, 1));
        let game = (tree, machine);
        let rational = decide::<_, Rational>(game, states).unwrap();
        let bounds = decide::<_, Bounds>(game, states).unwrap();
        let most = most_losses::<_, Bounds>(game, states).unwrap();
        let games = rational[0].figure().to_f64();
        assert!(bounds[0].low <= games && games <= bounds[0].high);
        assert!(most.low <= 12.0 && 12.0 <= most.high);
        assert_eq!(t.fastest().mean_games, Some(rational[0].figure()));
        // Here the one-move teacher is already as fast as can be.
        let teacher = distribution(tree, machine, OpponentKind::Teacher).unwrap();
        let slow = teacher.mean_games.unwrap().to_f64();
        assert!(games <= slow, "{games} {slow}");
    }

    #[test]
    fn walks_that_copy_the_lines_below_positions_give_the_lines_of_walks_that_do_not() {
        // Every state any opponent can bring HER to, and every state of Bachet's (whose
        // states are words too) against each opponent.
        let her = her();
        let bachet = nim_setup("bachet");
        fn same_lines<G: crate::game::Rules>(s: &Setup<G>, mover: Mover) -> usize {
            let (tree, machine) = (&s.tree, &s.machine);
            assert!(super::lines::Memo::new(tree, machine).is_some());
            let states = super::states::States::discover(tree, machine, mover, true, |_, _| Ok(()))
                .unwrap()
                .0;
            let mut copying = Walker::with_memo(tree, machine, mover);
            let mut walking = Walker::new(tree, machine, mover);
            let (mut copied, mut walked) = (Lines::default(), Lines::default());
            let (mut compared, mut beads) = (0, machine.fresh_beads());
            for state in 0..states.len() as u32 {
                if states.learnt[state as usize] {
                    continue;
                }
                states.unpack(machine, state, &mut beads);
                let mut known = states.known(machine);
                copying
                    .walk(&mut copied, &beads, state, 0, &[], &mut known)
                    .unwrap();
                walking
                    .walk(&mut walked, &beads, state, 0, &[], &mut known)
                    .unwrap();
                assert_eq!(copied, walked, "state {state}");
                compared += 1;
            }
            compared
        }
        assert!(same_lines(&her, Mover::Free) > 19_000);
        for opponent in [
            OpponentKind::Perfect,
            OpponentKind::Teacher,
            OpponentKind::Random,
        ] {
            assert!(same_lines(&her, Mover::Follows(opponent)) > 500);
            assert!(same_lines(&bachet, Mover::Follows(opponent)) > 500);
        }
        assert!(same_lines(&bachet, Mover::Free) > 500);
    }
}
