//! `matchbox verify`: checks a kit before it is printed, then trains it and sets what
//! the source articles claim beside what the simulation measures.

use serde::Serialize;

use crate::Error;
use crate::boxes::BoxSet;
use crate::exact::{self, Distribution, Figure, GivingUp, Measure};
use crate::game::{Bound, Claim, Descriptor, Notation, RewardClaim, Rules, StricterClaim};
use crate::i18n::{Id, Messages, Said, id};
use crate::kit::Kit;
use crate::machine::{Node, Tree};
use crate::rule::Rule;
use crate::watch::{Watch, watch};
use crate::{
    EXPECTATION_MAX_GAMES, EXPECTATION_RUNS, EXPECTATION_SEED, OpponentKind, Setup, Training,
    optimal_teacher, side_loses, train,
};

/// One check of the kit's boxes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Check {
    /// What is checked.
    pub what: Said,
    /// Whether it holds.
    pub ok: bool,
    /// How many things were checked, or the first that failed.
    pub detail: Said,
}

/// The checks: every box reachable, every arrow legal, a box for every position the
/// machine can face (but forced ones with `skip_forced`), beads as the schedule says.
pub fn checks<G: Notation>(game: &G, kit: &Kit, set: &BoxSet<G>, tree: &Tree<G>) -> Vec<Check> {
    let check = |what, failure: Option<Said>, count: usize, noun| Check {
        what: Said::new(what),
        ok: failure.is_none(),
        detail: failure
            .unwrap_or_else(|| Said::new(id::CLI_VERIFY_CHECKED).counting("n", count as i64, noun)),
    };
    let failed = |key, i: usize| Said::new(key).with("id", set.boxes[i].id);

    let (reached, faced, missing) = positions_faced(game, kit, set, tree);
    let unreached = reached
        .iter()
        .position(|r| !r)
        .map(|i| failed(id::CLI_VERIFY_UNREACHED, i));
    let (arrows, illegal, wrong_beads) = moves_checked(game, kit, set, failed);
    vec![
        check(
            id::CLI_VERIFY_REACHABLE,
            unreached,
            set.boxes.len(),
            id::PROBLEM_COUNT_BOX,
        ),
        {
            let (legal, noun) = game.move_marks();
            check(legal, illegal, arrows, noun)
        },
        check(
            // Where the kit skips forced moves, only a choice needs a box.
            if kit.skip_forced {
                id::CLI_VERIFY_FACED_CHOICE
            } else {
                id::CLI_VERIFY_FACED
            },
            missing,
            faced,
            id::PROBLEM_COUNT_POSITION,
        ),
        check(
            id::CLI_VERIFY_BEADS,
            wrong_beads,
            set.boxes.iter().map(|b| b.beads()).sum::<u32>() as usize,
            id::PROBLEM_COUNT_BEAD,
        ),
    ]
}

/// Which boxes the positions of play from the start land in, how many positions the
/// machine faces that need a box (not a forced move, where the kit skips them), and the
/// first of those that has none.
fn positions_faced<G: Notation>(
    game: &G,
    kit: &Kit,
    set: &BoxSet<G>,
    tree: &Tree<G>,
) -> (Vec<bool>, usize, Option<Said>) {
    let mut reached = vec![false; set.boxes.len()];
    let mut faced = 0;
    let mut missing = None;
    for node in 0..tree.len() as Node {
        let position = &tree.positions[node as usize];
        if tree.to_move(node) != kit.machine || tree.outcome(node).is_some() {
            continue;
        }
        if kit.skip_forced && tree.children(node).len() == 1 {
            if let Some((b, _)) = set.locate(game, position) {
                reached[b] = true;
            }
            continue;
        }
        faced += 1;
        match set.locate(game, position) {
            Some((b, _)) => reached[b] = true,
            None => {
                missing.get_or_insert_with(|| {
                    Said::new(id::CLI_VERIFY_NO_BOX)
                        .with("position", game.format_position(position))
                });
            }
        }
    }
    (reached, faced, missing)
}

/// Every box's arrows counted, the first that is not a legal move, and the first whose
/// beads are not the schedule's.
fn moves_checked<G: Notation>(
    game: &G,
    kit: &Kit,
    set: &BoxSet<G>,
    failed: impl Fn(Id, usize) -> Said,
) -> (usize, Option<Said>, Option<Said>) {
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
                    failed(id::CLI_VERIFY_ILLEGAL, i)
                        .with("move", game.format_move(&b.position, m.mv))
                });
            }
            if Some(m.beads) != schedule {
                // A box past the schedule's last move is told by `-`: none is due there.
                wrong_beads.get_or_insert_with(|| {
                    failed(id::CLI_VERIFY_WRONG_BEADS, i)
                        .counting("beads", m.beads, id::PROBLEM_COUNT_BEAD)
                        .with("schedule", schedule.map_or("-".into(), |n| n.to_string()))
                });
            }
        }
    }
    (arrows, illegal, wrong_beads)
}

/// The claim about this kit's machine, if the articles make one: the game's own answer.
pub fn claim_for<G: Descriptor>(game: &G, kit: &Kit) -> Option<Claim> {
    game.historic(&kit.machine_settings()).and_then(|h| h.claim)
}

/// A claim and whether the figures bear it out.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClaimCheck {
    /// The claim.
    pub claim: Claim,
    /// Whether it holds against [`Verdict::opponent`] (`perfect` unless asked otherwise):
    /// exactly, or in every sampled run.
    pub holds: bool,
    /// Whether the bound holds against every opponent, the machine's draws as unlucky as
    /// can be (known only on the exact path).
    pub holds_against_every_opponent: Option<bool>,
    /// Another source's stricter bound, judged on its own.
    pub stricter: Option<StricterCheck>,
    /// Whether the claim of games holds: the fastest trainer teaches the machine in no
    /// more games on average than claimed (known only on the exact path).
    pub games_hold: Option<bool>,
}

/// A stricter bound of another source, judged on its own against the same figures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StricterCheck {
    /// The claim.
    pub claim: StricterClaim,
    /// The chance that a machine keeps to it (known only on the exact path).
    pub share: Option<f64>,
    /// Whether every machine keeps to it.
    pub holds: bool,
}

/// How `verify` got its figures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// Every bead state enumerated and the chains solved (see [`exact`]).
    Exact,
    /// Machines trained at random.
    Sampled,
}

/// The exact figures of a small kit.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Proof {
    /// Against the opponent `verify` was asked for (`--opponent`, `perfect` by default):
    /// the same figures as one of the others, or, for `random`, its own.
    pub against: Distribution,
    /// Against a perfect opponent.
    pub perfect: Distribution,
    /// Against the one-move-lookahead `teacher`.
    pub teacher: Distribution,
    /// Against the fastest teacher (`optimal-teacher`).
    pub fastest_teacher: Distribution,
    /// Bead states any opponent can bring the machine to.
    pub states: usize,
    /// The most losses before learning over every game: the opponent and the machine's
    /// draws both as unlucky for the machine as possible.
    pub worst_losses: u32,
    /// The most expected losses, the draws random and the opponent maximising them.
    pub most_expected_losses: Figure,
}

/// Fresh machines `verify` trains by default, where it samples: the booklet's own runs,
/// so that with the default seed `verify` repeats the figures the pages quote.
pub const VERIFY_RUNS: u32 = EXPECTATION_RUNS;

/// The games after which the reward claim's losses are counted.
pub const REWARD_GAMES: [u32; 3] = [20, 50, 100];

/// One row of the reward claim: the mean losses in the first games under each rule.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RewardRow {
    /// The opponent.
    pub opponent: OpponentKind,
    /// The games counted.
    pub games: u32,
    /// Mean losses in them under `gardner` (losses punished).
    pub gardner: Measure,
    /// Mean losses in them under `gardner-reward` (wins rewarded too).
    pub gardner_reward: Measure,
    /// Whether rewards lose fewer, when the bounds or intervals do not overlap.
    pub fewer: Option<bool>,
}

/// The articles' claim about rewarding wins, set beside the figures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RewardCheck {
    /// The claim.
    pub claim: RewardClaim,
    /// Against `perfect` and `random`, after each of [`REWARD_GAMES`] games.
    pub rows: Vec<RewardRow>,
    /// Whether the claim holds: rewards lose fewer of the first 20 games against both
    /// opponents (`None` when some interval overlaps, undecided).
    pub holds: Option<bool>,
}

/// The ends of a figure: its bounds, or its confidence interval.
fn ends(m: &Measure) -> (f64, f64) {
    match m {
        Measure::Exact(Figure::Exact(f)) => (f.to_f64(), f.to_f64()),
        Measure::Exact(Figure::Bounded(b)) => (b.low, b.high),
        Measure::Sampled(e) => (e.low, e.high),
    }
}

/// Whether `y` is smaller than `x` beyond doubt, larger beyond doubt, or neither.
fn smaller(y: &Measure, x: &Measure) -> Option<bool> {
    let ((y_low, y_high), (x_low, x_high)) = (ends(y), ends(x));
    if y_high < x_low {
        Some(true)
    } else if y_low > x_high {
        Some(false)
    } else {
        None
    }
}

/// The losses in the first `games` games (ascending) of fresh machines of the kit under
/// `rule` against `opponent`: exactly where the bead states allow, the rest sampled over
/// `runs` machines.
pub fn losses_early<G: Notation + Descriptor>(
    game: &G,
    kit: &Kit,
    rule: Rule,
    opponent: OpponentKind,
    games: &[u32],
    (runs, seed): (u32, u64),
) -> Result<Vec<Measure>, Error> {
    let setup = Setup::new(game, kit, rule, false)?;
    let exact =
        exact::losses_in_first(&setup.tree, &setup.machine, opponent, games).unwrap_or_default();
    let mut found: Vec<Measure> = exact.into_iter().map(Measure::Exact).collect();
    let rest = &games[found.len()..];
    if !rest.is_empty() {
        let sampled = crate::losses_in_first(&setup, opponent, rest, runs, seed)?;
        found.extend(sampled.into_iter().map(Measure::Sampled));
    }
    Ok(found)
}

/// The reward claim of the kit's articles, if they make one, checked against a perfect
/// and a random opponent.
pub fn reward_check<G: Notation + Descriptor>(
    game: &G,
    kit: &Kit,
    runs: u32,
    seed: u64,
) -> Result<Option<RewardCheck>, Error> {
    let Some(claim) = game
        .historic(&kit.machine_settings())
        .and_then(|h| h.reward_claim)
    else {
        return Ok(None);
    };
    // Each opponent's rows under each rule, all four side by side.
    let early =
        |opponent, rule| losses_early(game, kit, rule, opponent, &REWARD_GAMES, (runs, seed));
    let both = |opponent| {
        crate::parallel::join(
            || early(opponent, Rule::Gardner),
            || early(opponent, Rule::GardnerReward),
        )
    };
    let (perfect, random) = crate::parallel::join(
        || both(OpponentKind::Perfect),
        || both(OpponentKind::Random),
    );
    let mut rows = Vec::new();
    for (opponent, (punished, rewarded)) in [
        (OpponentKind::Perfect, perfect),
        (OpponentKind::Random, random),
    ] {
        for ((games, gardner), gardner_reward) in REWARD_GAMES.iter().zip(punished?).zip(rewarded?)
        {
            rows.push(RewardRow {
                opponent,
                games: *games,
                fewer: smaller(&gardner_reward, &gardner),
                gardner,
                gardner_reward,
            });
        }
    }
    let first: Vec<Option<bool>> = rows
        .iter()
        .filter(|r| r.games == REWARD_GAMES[0])
        .map(|r| r.fewer)
        .collect();
    let holds = if first.contains(&Some(false)) {
        Some(false)
    } else if first.contains(&None) {
        None
    } else {
        Some(true)
    };
    Ok(Some(RewardCheck { claim, rows, holds }))
}

/// A kit whose machine can never learn: why, and what it does instead.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CannotLearn {
    /// Why it cannot learn.
    pub why: Said,
    /// When it gives up at its first move for good, against [`Verdict::opponent`]; `None`
    /// where the class refills its first box (see [`crate::refill`]), so it never does.
    pub instead: Option<GivingUp>,
}

/// Everything `verify` found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Verdict {
    /// The checks of the boxes.
    pub checks: Vec<Check>,
    /// The claim about this kit, checked against [`Verdict::opponent`], if there is one.
    pub claim: Option<ClaimCheck>,
    /// The articles' claim about rewarding wins, checked, if they make one.
    pub reward: Option<RewardCheck>,
    /// How the figures were obtained.
    pub method: Method,
    /// Why the exact path was not taken, on the sampled path.
    pub not_exact: Option<Said>,
    /// How the sampled figures' confidence intervals are computed, on the sampled path.
    pub intervals: Option<Said>,
    /// The exact figures of a machine that can learn, on the exact path.
    pub exact: Option<Proof>,
    /// For a machine that can never stop losing to a perfect opponent (its side loses the
    /// game), what happens instead; `exact` and `measured` say nothing of learning then.
    pub cannot_learn: Option<CannotLearn>,
    /// The opponent the figures are against: trained against on the sampled path, the
    /// exact path's [`Proof::against`].
    pub opponent: OpponentKind,
    /// The seed of the runs.
    pub seed: u64,
    /// What training measured, on the sampled path, if the checks passed.
    pub measured: Option<Training>,
    /// What a teacher can watch instead, on the sampled path: draws, the end of losing,
    /// the first box.
    pub watch: Option<Watch>,
    /// Whether the sampled figures are the booklet's own run: its machines, seed and
    /// games (the booklet's are against a perfect opponent, and for the reward claim a
    /// random one too).
    pub booklet_run: bool,
    /// What the articles say of the machine when they claim no figure for it.
    pub described: Option<Said>,
}

impl Verdict {
    /// Whether every check passed and the claim, if any, holds.
    pub fn all_hold(&self) -> bool {
        self.checks.iter().all(|c| c.ok)
            && (self.measured.is_some() || self.exact.is_some() || self.cannot_learn.is_some())
            && self.claim.as_ref().is_none_or(|c| c.holds)
            && self.reward.as_ref().is_none_or(|r| r.holds != Some(false))
    }
}

/// Whether training bears the bound out: every run learnt, within it.
fn bears_out(bound: Bound, measured: &Training) -> bool {
    let Some(losses) = &measured.losses_to_learn else {
        return false;
    };
    measured.unfinished == 0 && within(bound, losses.min, losses.max)
}

/// Whether losses from `min` to `max` keep within the bound.
fn within(bound: Bound, min: u32, max: u32) -> bool {
    match bound {
        Bound::AtMost(n) => max <= n,
        Bound::Exactly(n) => min == n && max == n,
    }
}

/// Whether the exact figures bear the bound out against their opponent: the machine
/// learns for sure, and every number of losses with a chance keeps within the bound.
fn proves(bound: Bound, d: &Distribution) -> bool {
    d.certain()
        && d.min_losses()
            .zip(d.max_losses())
            .is_some_and(|(min, max)| within(bound, min, max))
}

/// The chance that a machine keeps within the bound, by the exact figures.
fn chance_within(bound: Bound, d: &Distribution) -> f64 {
    d.losses
        .iter()
        .filter(|&(&k, _)| within(bound, k, k))
        .map(|(_, chance)| chance.to_f64())
        .sum()
}

/// The exact figures, against `opponent` too, or why there are none.
pub fn prove<G: Rules>(
    tree: &Tree<G>,
    machine: &crate::machine::Machine,
    opponent: OpponentKind,
) -> Result<Proof, exact::Refusal> {
    // Only `random` is none of the three problems solved anyway.
    let (solved, random) = crate::parallel::join(
        || exact::Solved::all(tree, machine, true, exact::Besides::MostLosses),
        || {
            (opponent == OpponentKind::Random)
                .then(|| exact::distribution(tree, machine, opponent))
                .transpose()
        },
    );
    let exact::Solved {
        perfect,
        teacher,
        teaching,
    } = solved?;
    let fastest_teacher = teaching.fastest().clone();
    let worst_losses = teaching.worst_losses();
    Ok(Proof {
        against: match (opponent, random?) {
            (_, Some(random)) => random,
            (OpponentKind::Teacher, None) => teacher.clone(),
            (OpponentKind::OptimalTeacher, None) => fastest_teacher.clone(),
            _ => perfect.clone(),
        },
        perfect,
        teacher,
        fastest_teacher,
        states: teaching.states(),
        worst_losses,
        most_expected_losses: teaching
            .most_expected_losses(tree, machine)?
            .within(0.0, f64::from(worst_losses)),
    })
}

/// Why the machine can never learn to stop losing, when its side loses against best
/// play; `None` when it can.
fn cannot_learn_why<G: Notation>(kit: &Kit, setup: &Setup<G>) -> Option<Said> {
    side_loses(&setup.tree, kit.machine)
        .then(|| Said::new(id::CLI_VERIFY_CANNOT_LEARN).word("side", kit.machine.key()))
}

/// The articles' claim about the kit, if they make one, checked against the exact
/// `proof` or else the `measured` training.
fn claim_check<G: Descriptor>(
    game: &G,
    kit: &Kit,
    proof: Option<&Proof>,
    measured: Option<&Training>,
) -> Option<ClaimCheck> {
    let holds = |bound| match (proof, measured) {
        (Some(p), _) => proves(bound, &p.against),
        (None, Some(m)) => bears_out(bound, m),
        (None, None) => false,
    };
    claim_for(game, kit).map(|claim| ClaimCheck {
        holds: holds(claim.bound),
        holds_against_every_opponent: proof.map(|p| match claim.bound {
            Bound::AtMost(n) | Bound::Exactly(n) => p.worst_losses <= n,
        }),
        stricter: claim.stricter.clone().map(|s| StricterCheck {
            share: proof.map(|p| chance_within(s.bound, &p.against)),
            holds: holds(s.bound),
            claim: s,
        }),
        games_hold: claim.games.as_ref().zip(proof).and_then(|(g, p)| {
            p.fastest_teacher
                .mean_games
                .as_ref()
                .map(|mean| mean.to_f64() <= f64::from(g.games))
        }),
        claim,
    })
}

/// Checks the kit, then works out its learning figures against `opponent` exactly, or,
/// for a kit too large for that, trains `runs` machines at random, and checks the
/// articles' claim about it.
#[allow(clippy::too_many_arguments)]
pub fn verify<G: Notation + Descriptor>(
    game: &G,
    kit: &Kit,
    opponent: OpponentKind,
    runs: u32,
    max_games: u32,
    seed: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Verdict, Error> {
    let set = BoxSet::build(game, kit)?;
    set.check_label_count(kit)?;
    let tree = Tree::of_kit(game, kit)?;
    let checks = checks(game, kit, &set, &tree);
    let figures = if checks.iter().all(|c| c.ok) {
        let setup = Setup::compile(game, kit, kit.rule, set, tree, false)?;
        learning_figures(game, kit, &setup, opponent, runs, max_games, seed, progress)?
    } else {
        Figures::default()
    };
    let (proof, measured) = (figures.exact, figures.measured);
    let claim = claim_check(game, kit, proof.as_ref(), measured.as_ref());
    Ok(Verdict {
        checks,
        claim,
        reward: figures.reward,
        method: if proof.is_some() || (figures.cannot_learn.is_some() && measured.is_none()) {
            Method::Exact
        } else {
            Method::Sampled
        },
        intervals: measured
            .is_some()
            .then(|| Said::new(id::CLI_VERIFY_INTERVALS)),
        not_exact: figures.not_exact,
        exact: proof,
        cannot_learn: figures.cannot_learn,
        opponent,
        seed,
        measured,
        watch: figures.watch,
        booklet_run: (runs, seed, max_games)
            == (EXPECTATION_RUNS, EXPECTATION_SEED, EXPECTATION_MAX_GAMES),
        described: game
            .historic(&kit.machine_settings())
            .and_then(|h| h.described),
    })
}

/// What `verify` works out of a kit whose checks pass (the fields of [`Verdict`] of the
/// same names); nothing for a kit that fails them.
#[derive(Default)]
struct Figures {
    reward: Option<RewardCheck>,
    not_exact: Option<Said>,
    exact: Option<Proof>,
    cannot_learn: Option<CannotLearn>,
    measured: Option<Training>,
    watch: Option<Watch>,
}

/// The learning figures of a kit whose checks pass, against `opponent`: exact where the
/// exact path can work them out, else `runs` machines trained at random and watched; and
/// the articles' reward claim checked beside them.
#[allow(clippy::too_many_arguments)]
fn learning_figures<G: Notation + Descriptor>(
    game: &G,
    kit: &Kit,
    setup: &Setup<G>,
    opponent: OpponentKind,
    runs: u32,
    max_games: u32,
    seed: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Figures, Error> {
    let mut figures = Figures::default();
    let cannot = cannot_learn_why(kit, setup);
    // Nothing the fastest teacher could teach: it has no strategy.
    if let Some(why) = cannot
        .as_ref()
        .filter(|_| opponent == OpponentKind::OptimalTeacher)
    {
        return Err(optimal_teacher(Messages(kit.language).said(why)));
    }
    // The articles' reward claim is worked out side by side with the figures.
    let (exactly, rewarded) = crate::parallel::join(
        || match &cannot {
            Some(why) => exact::giving_up(&setup.tree, &setup.machine, opponent).map(|g| {
                figures.cannot_learn = Some(CannotLearn {
                    why: why.clone(),
                    instead: Some(g),
                });
            }),
            None => prove(&setup.tree, &setup.machine, opponent).map(|p| figures.exact = Some(p)),
        },
        || reward_check(game, kit, runs, seed),
    );
    figures.reward = rewarded?;
    match exactly {
        Ok(()) => {}
        // The fastest teacher's strategy is the exact path's: without it there is
        // nothing to train against.
        Err(refusal) if opponent == OpponentKind::OptimalTeacher => {
            return Err(optimal_teacher(Messages(kit.language).said(&refusal.0)));
        }
        Err(refusal) => {
            figures.not_exact = Some(refusal.0);
            let trained = train(setup, opponent, runs, max_games, seed, progress)?;
            figures.cannot_learn = cannot.map(|why| CannotLearn {
                why,
                instead: setup
                    .refilled
                    .is_empty()
                    .then(|| GivingUp::sampled(opponent, &trained)),
            });
            figures.measured = Some(trained);
            figures.watch = Some(watch(setup, opponent, runs, seed)?);
        }
    }
    Ok(figures)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Side;
    use crate::kit::fixtures::{self, HER, HIM};
    use crate::{Estimate, Stats};

    #[test]
    fn what_to_watch_speaks_of_draws_only_in_a_game_that_can_draw() {
        let mut sampled = 0;
        for preset in crate::kit::presets() {
            let kit = Kit::from_preset(preset.name).unwrap();
            let verdict = with_game!(&kit.game, |game| verify(
                game,
                &kit,
                OpponentKind::Perfect,
                4,
                20,
                1,
                &|_| {}
            ))
            .unwrap();
            let Some(watch) = verdict.watch else {
                continue;
            };
            sampled += 1;
            let can_draw = with_game!(&kit.game, |game| game.can_draw());
            assert_eq!(!watch.windows.is_empty(), can_draw, "{}", preset.name);
            assert_eq!(watch.games, 200, "{}", preset.name);
        }
        assert!(sampled >= 2, "{sampled}");
    }

    #[test]
    fn claims_belong_to_the_machines_the_articles_describe() {
        let claim = |yaml: &str| {
            let kit = Kit::from_yaml(yaml, "kit.yaml").unwrap();
            with_game!(&kit.game, |game| claim_for(game, &kit).map(|c| c.bound))
        };
        assert_eq!(
            claim(&format!("preset: {HER}\nlanguage: pl\n")),
            Some(Bound::AtMost(11))
        );
        assert_eq!(claim("preset: bachet\n"), Some(Bound::AtMost(12)));
        assert_eq!(claim("preset: bachet-relay\n"), Some(Bound::Exactly(6)));
        assert_eq!(
            claim(&format!("preset: {HER}\nrule: gardner-reward\n")),
            None
        );
        assert_eq!(claim("preset: bachet\nstones: 9\n"), None);
        assert_eq!(claim(&format!("preset: {HIM}\n")), None);
        assert_eq!(claim("preset: menace\n"), None);
    }

    #[test]
    fn a_bound_holds_only_if_every_run_learnt_within_it() {
        let training = |values: &[u32], unfinished| Training {
            runs: values.len() as u32 + unfinished,
            max_games: 100,
            unfinished,
            unfinished_share: Estimate::share(unfinished, values.len() as u32 + unfinished),
            losses_to_learn: Stats::of(values),
            games_to_learn: Stats::of(values),
            side_loses: false,
            gave_up: 0,
            games_to_give_up: None,
            wins_before_giving_up: None,
            draws_before_giving_up: None,
            drawn_share: None,
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
        let (game, kit) = fixtures::pawns(HER);
        let tree = Tree::build(&game).unwrap();
        let mut set = BoxSet::build(&game, &kit).unwrap();
        assert!(checks(&game, &kit, &set, &tree).iter().all(|c| c.ok));
        set.boxes[2].moves[0].beads = 5;
        let failed: Vec<crate::i18n::Id> = checks(&game, &kit, &set, &tree)
            .iter()
            .filter(|c| !c.ok)
            .map(|c| c.what.key)
            .collect();
        assert_eq!(failed, [id::CLI_VERIFY_BEADS]);
        // The same boxes checked as if they played first: none of them fits.
        let first = Kit {
            machine: Side::First,
            ..kit
        };
        let failed: Vec<crate::i18n::Id> = checks(&game, &first, &set, &tree)
            .iter()
            .filter(|c| !c.ok)
            .map(|c| c.what.key)
            .collect();
        assert!(failed.contains(&id::CLI_VERIFY_FACED), "{failed:?}");
    }
}
