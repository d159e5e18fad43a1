//! `matchbox verify`: checks a kit before it is printed, then trains it and sets what
//! the source articles claim beside what the simulation measures.

use serde::Serialize;

use crate::Error;
use crate::boxes::BoxSet;
use crate::game::{Bound, Claim, Game};
use crate::kit::Kit;
use crate::machine::{Node, Tree};
use crate::simulate::{OpponentKind, Setup, Training, train};

/// One check of the kit's boxes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Check {
    /// What is checked.
    pub what: &'static str,
    /// Whether it holds.
    pub ok: bool,
    /// How many things were checked, or the first that failed.
    pub detail: String,
}

/// The checks: every box reachable, every arrow legal, a box for every position the
/// machine can face (but forced ones with `skip_forced`), beads as the schedule says.
pub fn checks<G: Game>(game: &G, kit: &Kit, set: &BoxSet<G>, tree: &Tree<G>) -> Vec<Check> {
    let check = |what, failure: Option<String>, count: usize, unit: &str| Check {
        what,
        ok: failure.is_none(),
        detail: failure.unwrap_or_else(|| format!("{count} {unit}")),
    };
    let label = |i: usize| format!("box {}", set.boxes[i].id);

    // A box is reachable when some exact position of play from the start lands in it.
    let mut reached = vec![false; set.boxes.len()];
    let mut faced = 0;
    let mut missing = None;
    for node in 0..tree.len() as Node {
        let position = &tree.positions[node as usize];
        if tree.to_move(node) != kit.machine || tree.outcome(node).is_some() {
            continue;
        }
        faced += 1;
        match set.locate(game, position) {
            Some((b, _)) => reached[b] = true,
            None if kit.skip_forced && tree.children(node).len() == 1 => {}
            None => {
                missing.get_or_insert_with(|| {
                    format!("no box for {}", game.format_position(position))
                });
            }
        }
    }
    let unreached = reached
        .iter()
        .position(|r| !r)
        .map(|i| format!("{} cannot be reached", label(i)));

    let mut legal = Vec::new();
    let mut illegal = None;
    let mut wrong_beads = None;
    let mut arrows = 0;
    for (i, b) in set.boxes.iter().enumerate() {
        legal.clear();
        game.legal_moves(&b.position, &mut legal);
        let schedule = b.move_numbers.first().and_then(|&n| kit.beads.beads_at(n));
        for m in &b.moves {
            arrows += 1;
            if !legal.contains(&m.mv) {
                illegal.get_or_insert_with(|| {
                    format!(
                        "{}: {} is not legal",
                        label(i),
                        game.format_move(&b.position, m.mv)
                    )
                });
            }
            if Some(m.beads) != schedule {
                wrong_beads.get_or_insert_with(|| {
                    format!(
                        "{}: {} beads where the schedule says {schedule:?}",
                        label(i),
                        m.beads
                    )
                });
            }
        }
    }
    vec![
        check(
            "every box is reachable",
            unreached,
            set.boxes.len(),
            "boxes",
        ),
        check("every arrow is a legal move", illegal, arrows, "arrows"),
        check(
            "every position the machine can face has a box",
            missing,
            faced,
            "positions",
        ),
        check(
            "the beads match the schedule",
            wrong_beads,
            set.boxes.iter().map(|b| b.beads()).sum::<u32>() as usize,
            "beads",
        ),
    ]
}

/// The claim about this kit's machine, if the articles make one: the game's own answer.
pub fn claim_for<G: Game>(game: &G, kit: &Kit) -> Option<Claim> {
    game.historic(kit).and_then(|h| h.claim)
}

/// A claim and whether the measured losses bear it out.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClaimCheck {
    /// The claim.
    pub claim: Claim,
    /// Whether every run learnt within the bound.
    pub holds: bool,
}

/// Everything `verify` found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Verdict {
    /// The checks of the boxes.
    pub checks: Vec<Check>,
    /// The claim about this kit, checked, if there is one.
    pub claim: Option<ClaimCheck>,
    /// The opponent trained against.
    pub opponent: OpponentKind,
    /// The seed of the runs.
    pub seed: u64,
    /// What training measured, if the checks passed.
    pub measured: Option<Training>,
}

impl Verdict {
    /// Whether every check passed and the claim, if any, holds.
    pub fn all_hold(&self) -> bool {
        self.checks.iter().all(|c| c.ok)
            && self.measured.is_some()
            && self.claim.as_ref().is_none_or(|c| c.holds)
    }
}

/// Whether training bears the bound out: every run learnt, within it.
fn bears_out(bound: Bound, measured: &Training) -> bool {
    let Some(losses) = &measured.losses_to_learn else {
        return false;
    };
    measured.unfinished == 0
        && match bound {
            Bound::AtMost(n) => losses.max <= n,
            Bound::Exactly(n) => losses.min == n && losses.max == n,
        }
}

/// Checks the kit, then trains `runs` machines against a perfect opponent under the
/// kit's rule and checks the articles' claim about it.
pub fn verify<G: Game>(
    game: &G,
    kit: &Kit,
    runs: u32,
    max_games: u32,
    seed: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Verdict, Error> {
    let set = BoxSet::build(game, kit)?;
    let tree = Tree::build(game);
    let checks = checks(game, kit, &set, &tree);
    let opponent = OpponentKind::Perfect;
    let measured = if checks.iter().all(|c| c.ok) {
        let setup = Setup::compile(game, kit, kit.rule, set, tree, false)?;
        Some(train(&setup, opponent, runs, max_games, seed, progress)?)
    } else {
        None
    };
    let claim = claim_for(game, kit).map(|claim| ClaimCheck {
        holds: measured.as_ref().is_some_and(|m| bears_out(claim.bound, m)),
        claim,
    });
    Ok(Verdict {
        checks,
        claim,
        opponent,
        seed,
        measured,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Side;
    use crate::game::hexapawn::Hexapawn;
    use crate::kit::GameVisitor;
    use crate::simulate::Stats;

    struct ClaimOf<'a>(&'a Kit);

    impl GameVisitor for ClaimOf<'_> {
        type Output = Option<Bound>;
        fn visit<G: Game>(self, game: &G) -> Option<Bound> {
            claim_for(game, self.0).map(|c| c.bound)
        }
    }

    #[test]
    fn claims_belong_to_the_machines_the_articles_describe() {
        let claim = |yaml: &str| {
            let kit = Kit::from_yaml(yaml, "kit.yaml").unwrap();
            kit.visit(ClaimOf(&kit))
        };
        assert_eq!(
            claim("preset: hexapawn\nlanguage: pl\n"),
            Some(Bound::AtMost(11))
        );
        assert_eq!(claim("preset: bachet\n"), Some(Bound::AtMost(12)));
        assert_eq!(claim("preset: bachet-relay\n"), Some(Bound::Exactly(6)));
        assert_eq!(claim("preset: hexapawn\nrule: gardner-reward\n"), None);
        assert_eq!(claim("preset: bachet\nstones: 9\n"), None);
        assert_eq!(claim("preset: hexapawn-first\n"), None);
        assert_eq!(claim("preset: menace\n"), None);
    }

    #[test]
    fn a_bound_holds_only_if_every_run_learnt_within_it() {
        let training = |values: &[u32], unfinished| Training {
            runs: values.len() as u32 + unfinished,
            unfinished,
            losses_to_learn: Stats::of(values),
            games_to_learn: Stats::of(values),
        };
        assert!(bears_out(Bound::AtMost(11), &training(&[5, 11], 0)));
        assert!(!bears_out(Bound::AtMost(11), &training(&[5, 12], 0)));
        assert!(!bears_out(Bound::AtMost(11), &training(&[5], 1)));
        assert!(bears_out(Bound::Exactly(6), &training(&[6, 6], 0)));
        assert!(!bears_out(Bound::Exactly(6), &training(&[5, 6], 0)));
        assert!(!bears_out(Bound::Exactly(6), &training(&[], 2)));
    }

    #[test]
    fn the_checks_catch_wrong_beads_and_a_missing_box() {
        let kit = Kit::from_preset("hexapawn").unwrap();
        let game = Hexapawn::new(3, 3);
        let tree = Tree::build(&game);
        let mut set = BoxSet::build(&game, &kit).unwrap();
        assert!(checks(&game, &kit, &set, &tree).iter().all(|c| c.ok));
        set.boxes[2].moves[0].beads = 5;
        let failed: Vec<&str> = checks(&game, &kit, &set, &tree)
            .iter()
            .filter(|c| !c.ok)
            .map(|c| c.what)
            .collect();
        assert_eq!(failed, ["the beads match the schedule"]);
        // The same boxes checked as if they played first: none of them fits.
        let first = Kit {
            machine: Side::First,
            ..kit
        };
        let failed: Vec<&str> = checks(&game, &first, &set, &tree)
            .iter()
            .filter(|c| !c.ok)
            .map(|c| c.what)
            .collect();
        assert!(
            failed.contains(&"every position the machine can face has a box"),
            "{failed:?}"
        );
    }
}
