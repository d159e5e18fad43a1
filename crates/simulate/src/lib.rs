//! Simulation: the machine plays opponents game after game and learns by its rule.
//!
//! [`Setup`] compiles a kit once; [`train`] trains many fresh machines until each can no
//! longer lose, spread over all cores; [`play_games`] follows one machine game by game
//! for the learning curve; `matchbox-play` lets a person play it; [`verify`] checks a kit.

#![warn(missing_docs)]

// `with_game!` for the tests.
#[cfg(test)]
#[macro_use]
extern crate matchbox_games;

pub use matchbox_machine::stats;
pub use matchbox_solver as exact;
pub mod verify;
pub mod watch;

use crate::parallel::prelude::*;
use rand::RngExt;
use serde::Serialize;

use matchbox_games as game;
use matchbox_kit::{self as kit, boxes};
use matchbox_machine::{self as machine, parallel};
use matchbox_words::i18n::{Messages, id};
use matchbox_words::{Error, Message, i18n, rule};

use crate::boxes::BoxSet;
use crate::game::{Descriptor, Notation, Rules};
use crate::kit::Kit;
use crate::machine::{Beads, Draw, End, Learner, LossCheck, Machine, Node, SimRng, Tree, rng_for};
use crate::rule::Rule;
use exact::Teaching;
pub use matchbox_machine::{OpponentKind, Training, teacher_moves};
pub use stats::{Estimate, Stats};

/// The machine's opponent in a game.
pub trait Opponent<G: Rules> {
    /// The position after the opponent's move at `node`, or `None` if it resigns.
    /// `machine` is the machine it plays, as it stands.
    fn choose(
        &mut self,
        tree: &Tree<G>,
        node: Node,
        machine: &Learner,
        rng: &mut SimRng,
    ) -> Result<Option<Node>, Error>;

    /// Told how the game ended for the opponent, after it ended.
    fn finish(&mut self, _end: End) {}
}

/// The opponents that need no person.
pub enum Automatic<'m> {
    /// See [`OpponentKind::Random`].
    Random,
    /// See [`OpponentKind::Perfect`].
    Perfect,
    /// See [`OpponentKind::Teacher`].
    Teacher,
    /// See [`OpponentKind::Machine`].
    Machine(Learner<'m>),
    /// See [`OpponentKind::OptimalTeacher`].
    OptimalTeacher(&'m Teaching),
}

impl<'m> Automatic<'m> {
    /// A fresh opponent of this kind; `rival` is the other side's machine, needed for
    /// [`OpponentKind::Machine`], and `teaching` the solved strategy, needed for
    /// [`OpponentKind::OptimalTeacher`].
    pub fn new(
        kind: OpponentKind,
        rival: Option<&'m Machine>,
        teaching: Option<&'m Teaching>,
    ) -> Result<Automatic<'m>, Error> {
        Ok(match kind {
            OpponentKind::OptimalTeacher => {
                Automatic::OptimalTeacher(teaching.ok_or_else(|| {
                    Error::Internal("the optimal teacher's strategy was not computed".into())
                })?)
            }
            OpponentKind::Random => Automatic::Random,
            OpponentKind::Perfect => Automatic::Perfect,
            OpponentKind::Teacher => Automatic::Teacher,
            OpponentKind::Machine => {
                Automatic::Machine(Learner::new(rival.ok_or_else(|| {
                    Error::Internal("the opposing machine was not built".into())
                })?))
            }
            OpponentKind::Human => {
                return Err(english().message(id::ERROR_HUMAN_IN_SIMULATION, &[]).into());
            }
        })
    }
}

/// A uniformly random element of a non-empty slice.
fn pick(nodes: &[Node], rng: &mut SimRng) -> Node {
    nodes[rng.random_range(0..nodes.len())]
}

impl<G: Rules> Opponent<G> for Automatic<'_> {
    fn choose(
        &mut self,
        tree: &Tree<G>,
        node: Node,
        machine: &Learner,
        rng: &mut SimRng,
    ) -> Result<Option<Node>, Error> {
        Ok(Some(match self {
            Automatic::Random => pick(tree.children(node), rng),
            Automatic::Perfect => pick(tree.best_children(node), rng),
            Automatic::Teacher => pick(
                &teacher_moves(tree, node, machine.machine, &machine.beads),
                rng,
            ),
            Automatic::OptimalTeacher(teaching) => pick(&teaching.moves(tree, node, machine)?, rng),
            Automatic::Machine(rival) => match rival.choose(node, rng) {
                Draw::Bead { child, .. } | Draw::Forced { child } => child,
                Draw::Resign { .. } => return Ok(None),
            },
        }))
    }

    fn finish(&mut self, end: End) {
        if let Automatic::Machine(rival) = self {
            rival.finish(end);
        }
    }
}

/// One turn of a game, for whoever watches it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// The machine, at `node`, did `draw`.
    Machine {
        /// Where it moved from.
        node: Node,
        /// What it did.
        draw: Draw,
    },
    /// The opponent moved from `node` to `child`.
    Opponent {
        /// Where it moved from.
        node: Node,
        /// Where it moved to.
        child: Node,
    },
}

/// How a game went for the machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// The result for the machine.
    pub end: End,
    /// Whether the rule took some move's last bead.
    pub emptied: bool,
    /// The position the game ended in.
    pub last: Node,
}

/// Plays one game from the start, tells `watch` every turn, then applies the rule to the
/// machine (and to the opponent, if it learns).
pub fn play_game<G: Rules, O: Opponent<G>>(
    tree: &Tree<G>,
    me: &mut Learner,
    opponent: &mut O,
    rng: &mut SimRng,
    mut watch: impl FnMut(Turn),
) -> Result<Played, Error> {
    let mut node: Node = 0;
    let end = loop {
        if let Some(outcome) = tree.outcome(node) {
            break End::of(outcome, me.machine.side);
        }
        if tree.to_move(node) == me.machine.side {
            let draw = me.choose(node, rng);
            watch(Turn::Machine { node, draw });
            match draw {
                Draw::Bead { child, .. } | Draw::Forced { child } => node = child,
                Draw::Resign { .. } => break End::Resigned,
            }
        } else {
            match opponent.choose(tree, node, me, rng)? {
                Some(child) => {
                    watch(Turn::Opponent { node, child });
                    node = child;
                }
                None => break End::Won,
            }
        }
    };
    opponent.finish(match end {
        // The opponent's own resignation is its loss.
        End::Won if tree.outcome(node).is_none() => End::Resigned,
        other => other.other(),
    });
    let emptied = me.finish(end);
    Ok(Played {
        end,
        emptied,
        last: node,
    })
}

/// A move whose beads a game changed ([`Setup::changes`]).
pub struct BeadChange<'a, G: Rules> {
    /// The index of its box in the kit's boxes.
    pub box_index: u32,
    /// Its box.
    pub matchbox: &'a boxes::MatchBox<G::Position, G::Move>,
    /// The move in its box.
    pub entry: &'a boxes::BoxMove<G::Move>,
    /// Its beads before the game.
    pub before: u32,
    /// Its beads after the rule.
    pub after: u32,
}

/// A kit compiled for simulation: every exact position, and the machine's boxes on them.
pub struct Setup<G: Rules> {
    /// Every position reachable from the start.
    pub tree: Tree<G>,
    /// The kit's boxes.
    pub set: BoxSet<G>,
    /// The machine.
    pub machine: Machine,
    /// The other side's machine, built from the same kit with `machine` flipped, when the
    /// opponent is [`OpponentKind::Machine`].
    pub rival: Option<Machine>,
    /// The fastest teacher's strategy, when the opponent is [`OpponentKind::OptimalTeacher`]
    /// (see [`Setup::solve_teaching`]).
    pub teaching: Option<Teaching>,
    /// The boxes of the machine's first move that the class refills when one runs empty
    /// (see [`refill`]).
    pub refilled: Vec<u32>,
}

impl<G: Rules> Setup<G> {
    /// Builds the boxes and compiles them under `rule`; with `rival`, also the machine
    /// for the other side.
    pub fn new(game: &G, kit: &Kit, rule: Rule, rival: bool) -> Result<Setup<G>, Error>
    where
        G: Notation + Descriptor,
    {
        if rule == Rule::Relay && kit.rule != Rule::Relay {
            let words = Messages(kit.language);
            return Err(words
                .message(id::ERROR_RELAY_RULE, &[("rule", kit.rule.name())])
                .into());
        }
        Setup::compile(
            game,
            kit,
            rule,
            BoxSet::build(game, kit)?,
            Tree::of_kit(game, kit)?,
            rival,
        )
    }

    /// Each move whose beads differ from `before` to `after`, in the order of the
    /// machine's slots: what the rule changed after a game, as the terminal and the
    /// classroom screen tell it.
    pub fn changes<'a>(
        &'a self,
        before: &'a Beads,
        after: &'a Beads,
    ) -> impl Iterator<Item = BeadChange<'a, G>> + 'a {
        (0u32..)
            .zip(before.counts().iter().zip(after.counts()))
            .filter(|(_, (old, new))| old != new)
            .map(|(slot, (&before, &after))| {
                let box_index = self.machine.box_of(slot);
                let matchbox = &self.set.boxes[box_index as usize];
                let entry = &matchbox.moves[(slot - self.machine.slots(box_index).start) as usize];
                BeadChange {
                    box_index,
                    matchbox,
                    entry,
                    before,
                    after,
                }
            })
    }

    /// [`Setup::new`] from boxes and a tree already built.
    pub fn compile(
        game: &G,
        kit: &Kit,
        rule: Rule,
        set: BoxSet<G>,
        tree: Tree<G>,
        rival: bool,
    ) -> Result<Setup<G>, Error>
    where
        G: Notation,
    {
        let machine = Machine::compile(game, &tree, &set, rule, kit.reward, kit.skip_forced)?;
        let rival = if rival {
            let flipped = Kit {
                machine: kit.machine.other(),
                ..kit.clone()
            };
            let other = BoxSet::enumerate(game, &flipped).map_err(|e| {
                let say = Messages(kit.language);
                let machine = flipped.machine.said(say);
                say.message(id::ERROR_OPPOSING_MACHINE, &[("machine", &machine)])
                    .with_arg("why", e.arg())
            })?;
            Some(Machine::compile(
                game,
                &tree,
                &other,
                rule,
                kit.reward,
                kit.skip_forced,
            )?)
        } else {
            None
        };
        let refilled = refilled_boxes(&tree, &machine);
        Ok(Setup {
            tree,
            set,
            machine,
            rival,
            teaching: None,
            refilled,
        })
    }

    /// Computes the optimal teacher's strategy for this machine, so that it can play;
    /// refused for a kit too large for the exact path.
    pub fn solve_teaching(&mut self) -> Result<(), Error> {
        let teaching = exact::Teaching::solve(&self.tree, &self.machine)
            .map_err(|refusal| optimal_teacher(english().said(&refusal.0)))?;
        self.teaching = Some(teaching);
        Ok(())
    }
}

/// The optimal teacher refused, and why, in the language of why.
pub fn optimal_teacher(why: Message) -> Error {
    Messages(why.language)
        .message(id::ERROR_OPTIMAL_TEACHER, &[])
        .with("why", why)
        .into()
}

/// The words of a mistake made without the kit, which the caller that has it says in
/// the kit's language ([`Error::in_language`]).
fn english() -> Messages {
    Messages(i18n::Language::En)
}

/// Whether the machine's side loses the game against best play: then no training can
/// make it stop losing against a perfect opponent (HIM, octapawn's second player).
pub fn side_loses<G: Rules>(tree: &Tree<G>, side: crate::game::Side) -> bool {
    // The tree values each position for the side to move there.
    let value = tree.value(0);
    if tree.to_move(0) == side {
        value < 0
    } else {
        value > 0
    }
}

/// The positions where the machine makes its first move, as far as `opponent` can open
/// the game: once each of their boxes is empty, the machine gives up at its first move in
/// every game, and nothing changes any more under any rule.
fn first_moves<G: Rules>(tree: &Tree<G>, machine: &Machine, opponent: OpponentKind) -> Vec<Node> {
    let mut found = Vec::new();
    let mut queue = vec![0 as Node];
    while let Some(node) = queue.pop() {
        if tree.outcome(node).is_some() || found.contains(&node) {
            continue;
        }
        if tree.to_move(node) == machine.side {
            found.push(node);
            continue;
        }
        // The teacher plays as `perfect` until it is losing, and then some of its moves;
        // the other opponents may open with any move.
        queue.extend_from_slice(match opponent {
            OpponentKind::Perfect => tree.best_children(node),
            OpponentKind::Teacher if tree.value(node) >= 0 => tree.best_children(node),
            _ => tree.children(node),
        });
    }
    found
}

/// The boxes of the machine's first move, whichever the opponent's opening, that the
/// teacher's page has the class refill when one runs empty ([`Machine::refills`]): by the
/// rule alone, whatever the kit (a machine whose side loses is refilled too, and so never
/// gives up for good); none under another rule.
fn refilled_boxes<G: Rules>(tree: &Tree<G>, machine: &Machine) -> Vec<u32> {
    if !machine.refills() {
        return Vec::new();
    }
    let mut boxes: Vec<u32> = first_moves(tree, machine, OpponentKind::Random)
        .into_iter()
        .filter_map(|node| machine.box_at(node))
        .collect();
    boxes.sort_unstable();
    boxes.dedup();
    boxes
}

/// Refills, as the teacher's page says, each box of the machine's first move that the
/// last game emptied; returns whether one was. The figures the pages quote are those of
/// the machine the class keeps going this way.
pub fn refill<G: Rules>(setup: &Setup<G>, me: &mut Learner) -> bool {
    let mut any = false;
    for &b in &setup.refilled {
        if me.beads.total(b) == 0 {
            me.beads.refill_box(&setup.machine, b);
            any = true;
        }
    }
    any
}

/// Whether the machine gives up at its first move in every game: each of its `first`
/// positions has a box, and an empty one.
fn gave_up(machine: &Machine, beads: &Beads, first: &[Node]) -> bool {
    first
        .iter()
        .all(|&node| machine.box_at(node).is_some_and(|b| beads.total(b) == 0))
}

/// How one training run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Run {
    /// The machine could no longer lose, after these losses, games and draws.
    Learnt { losses: u32, games: u32, draws: u32 },
    /// It gave up at its first move for good, after these games, wins and draws.
    GaveUp { games: u32, wins: u32, draws: u32 },
    /// It could still lose after the last game allowed, having drawn these.
    Unfinished { draws: u32 },
}

impl Run {
    /// The games played and the draws among them.
    fn games_and_draws(self, max_games: u32) -> (u32, u32) {
        match self {
            Run::Learnt { games, draws, .. } | Run::GaveUp { games, draws, .. } => (games, draws),
            Run::Unfinished { draws } => (max_games, draws),
        }
    }
}

/// Whether any game on the tree ends in a draw.
fn can_draw<G: Rules>(tree: &Tree<G>) -> bool {
    (0..tree.len() as Node).any(|n| tree.outcome(n) == Some(crate::game::Outcome::Draw))
}

/// Trains one fresh machine until it can no longer lose, gives up at its first move for
/// good (its `first` positions: see [`first_moves`]), or has played `max_games` games.
fn train_one<G: Rules>(
    setup: &Setup<G>,
    opponent: OpponentKind,
    max_games: u32,
    first: &[Node],
    mut rng: SimRng,
) -> Result<Run, Error> {
    let (machine, tree) = (&setup.machine, &setup.tree);
    let mut me = Learner::new(machine);
    let mut check = LossCheck::new(machine, tree, &me.beads);
    if check.cannot_lose() {
        return Ok(Run::Learnt {
            losses: 0,
            games: 0,
            draws: 0,
        });
    }
    let mut them = Automatic::new(opponent, setup.rival.as_ref(), setup.teaching.as_ref())?;
    let (mut losses, mut wins, mut draws) = (0, 0, 0);
    for game in 1..=max_games {
        let played = play_game(tree, &mut me, &mut them, &mut rng, |_| {})?;
        refill(setup, &mut me);
        losses += u32::from(played.end.is_loss());
        wins += u32::from(played.end == End::Won);
        draws += u32::from(played.end == End::Drew);
        // Only losing a move's last bead changes what the machine may play; with no
        // losses after that, it keeps every move it has.
        if played.emptied {
            if check.update(machine, tree, &me.beads, me.emptied()) {
                return Ok(Run::Learnt {
                    losses,
                    games: game,
                    draws,
                });
            }
            if gave_up(machine, &me.beads, first) {
                return Ok(Run::GaveUp {
                    games: game,
                    wins,
                    draws,
                });
            }
        }
    }
    Ok(Run::Unfinished { draws })
}

/// Trains `runs` fresh machines against `opponent`, each until it can no longer lose or
/// until `max_games` games. Run `i` draws from its own stream of `seed`, and runs are
/// spread over the threads of the current rayon pool with results kept in run order, so
/// the figures do not depend on the number of threads. `progress` is told of each run
/// finished.
pub fn train<G: Rules>(
    setup: &Setup<G>,
    opponent: OpponentKind,
    runs: u32,
    max_games: u32,
    seed: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Training, Error> {
    let first = first_moves(&setup.tree, &setup.machine, opponent);
    let results: Vec<Run> = (0..runs)
        .into_par_iter()
        .map(|run| {
            let result = train_one(
                setup,
                opponent,
                max_games,
                &first,
                rng_for(seed, u64::from(run)),
            );
            progress(1);
            result
        })
        .collect::<Result<_, _>>()?;
    // Each machine's share of draws, over the machines that played a game, in a game
    // that has draws.
    let shares: Vec<f64> = if can_draw(&setup.tree) {
        results
            .iter()
            .filter_map(|run| {
                let (games, draws) = run.games_and_draws(max_games);
                (games > 0).then(|| f64::from(draws) / f64::from(games))
            })
            .collect()
    } else {
        Vec::new()
    };
    let drawn_share = Estimate::mean_of(shares.into_iter()).map(|share| share.within(0.0, 1.0));
    let (mut losses, mut games, mut gave_up) = (Vec::new(), Vec::new(), Vec::new());
    for run in results {
        match run {
            Run::Learnt {
                losses: l,
                games: g,
                ..
            } => {
                losses.push(l);
                games.push(g);
            }
            Run::GaveUp {
                games: g,
                wins,
                draws,
            } => gave_up.push([g, wins, draws]),
            Run::Unfinished { .. } => {}
        }
    }
    let unfinished = runs - losses.len() as u32;
    let [give_up_games, wins, draws] =
        [0, 1, 2].map(|i| gave_up.iter().map(|run| run[i]).collect::<Vec<u32>>());
    Ok(Training {
        runs,
        max_games,
        unfinished,
        unfinished_share: Estimate::share(unfinished, runs),
        losses_to_learn: Stats::of(&losses),
        games_to_learn: Stats::of(&games),
        side_loses: side_loses(&setup.tree, setup.machine.side),
        gave_up: gave_up.len() as u32,
        games_to_give_up: Stats::of(&give_up_games),
        wins_before_giving_up: Stats::of(&wins),
        draws_before_giving_up: Stats::of(&draws),
        drawn_share,
    })
}

/// The mean number of games fresh machines lose among their first `games[i]` games
/// against `opponent` (`games` ascending), over `runs` machines, each with its own stream
/// of `seed`, with Student's t interval.
pub fn losses_in_first<G: Rules>(
    setup: &Setup<G>,
    opponent: OpponentKind,
    games: &[u32],
    runs: u32,
    seed: u64,
) -> Result<Vec<Estimate>, Error> {
    let last = games.last().copied().unwrap_or(0);
    let counted: Vec<Vec<u32>> = (0..runs)
        .into_par_iter()
        .map(|run| {
            let mut rng = rng_for(seed, u64::from(run));
            let mut me = Learner::new(&setup.machine);
            let mut them = Automatic::new(opponent, setup.rival.as_ref(), setup.teaching.as_ref())?;
            let (mut losses, mut at) = (0, Vec::with_capacity(games.len()));
            for game in 1..=last {
                let played = play_game(&setup.tree, &mut me, &mut them, &mut rng, |_| {})?;
                refill(setup, &mut me);
                losses += u32::from(played.end.is_loss());
                if games.contains(&game) {
                    at.push(losses);
                }
            }
            Ok(at)
        })
        .collect::<Result<_, Error>>()?;
    Ok(games
        .iter()
        .enumerate()
        .filter_map(|(i, &n)| {
            Estimate::mean_of(counted.iter().map(|at| f64::from(at[i])))
                .map(|e| e.within(0.0, f64::from(n)))
        })
        .collect())
}

/// Runs the instruction sheets print as "what to expect" by default.
pub const EXPECTATION_RUNS: u32 = 200;
/// The seed of those runs, so every printing of a kit says the same.
pub const EXPECTATION_SEED: u64 = 1962;
/// Games after which a machine of those runs counts as unfinished: far more than a
/// class plays, so such a machine is no classroom expectation anyway.
pub const EXPECTATION_MAX_GAMES: u32 = 10_000;

/// What a class can expect: `runs` fresh machines of the kit, under the kit's rule,
/// trained against a `perfect` opponent until each can no longer lose, each run with its
/// own stream of [`EXPECTATION_SEED`]. When `unfinished` is not 0 the figures cover only
/// the machines that learnt, and a sheet should not quote them as what to expect.
///
/// Cost: each run stops when its machine has learnt, so HER and Bachet machines play a
/// few dozen to a few hundred games each, and 1000 runs take milliseconds in a release
/// build. A machine that never gets there plays all [`EXPECTATION_MAX_GAMES`] games:
/// MENACE is one, since a perfect opponent never plays into the lines where MENACE's
/// later boxes would be taught, so MENACE costs `runs` x 10,000 games: about 0.4 ms per
/// run per core in a release build (its drawn games against `perfect` run at some 25
/// million a second), 0.4 s of one core for 1000 runs, all of them unfinished.
///
/// `None`, without training, when the machine's side loses under perfect play: such a
/// machine can never stop losing to a perfect opponent (HIM, octapawn's second player).
/// `None` too when the first run does not learn: a sheet quotes the figures only when
/// every run learnt, and the runs are independent, so the others need not be played
/// (MENACE then costs one run instead of `runs`).
pub fn expected_losses<G: Rules>(
    kit: &Kit,
    setup: &Setup<G>,
    runs: u32,
) -> Result<Option<Training>, Error> {
    if side_loses(&setup.tree, kit.machine) {
        return Ok(None);
    }
    let first = train_one(
        setup,
        OpponentKind::Perfect,
        EXPECTATION_MAX_GAMES,
        &first_moves(&setup.tree, &setup.machine, OpponentKind::Perfect),
        rng_for(EXPECTATION_SEED, 0),
    )?;
    if !matches!(first, Run::Learnt { .. }) {
        return Ok(None);
    }
    train(
        setup,
        OpponentKind::Perfect,
        runs,
        EXPECTATION_MAX_GAMES,
        EXPECTATION_SEED,
        &|_| {},
    )
    .map(Some)
}

/// Running totals after some game, for the learning curve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CurvePoint {
    /// Games played.
    pub game: u32,
    /// Games won so far.
    pub wins: u32,
    /// Games drawn so far.
    pub draws: u32,
    /// Games lost so far (resignations included).
    pub losses: u32,
    /// Beads in box 1 after that game.
    pub first_box_beads: u32,
}

/// One machine followed over many games.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Session {
    /// Games played.
    pub games: u32,
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost (resignations included).
    pub losses: u32,
    /// Running totals at regular steps, from game 0 to the last.
    pub curve: Vec<CurvePoint>,
    /// Every game as a CSV row, when asked for.
    #[serde(skip)]
    pub csv: Option<String>,
}

/// How soon `opponent` empties a fresh machine's first box, the box it cannot do without:
/// in each of `runs` fresh machines (run `i` drawing from stream `i` of `seed`) playing
/// at most `games` games, the number of the game after which the box was first empty,
/// `None` where it never was.
pub fn first_box_emptied<G: Rules>(
    setup: &Setup<G>,
    opponent: OpponentKind,
    runs: u32,
    games: u32,
    seed: u64,
) -> Result<Vec<Option<u32>>, Error> {
    if setup.machine.box_count() == 0 {
        return Ok(vec![None; runs as usize]);
    }
    (0..runs)
        .into_par_iter()
        .map(|run| {
            let followed = follow_first_box(setup, opponent, seed, run, games, |_| {}, true)?;
            Ok(followed.emptied)
        })
        .collect()
}

/// A fresh machine followed through its games, as [`follow_first_box`] leaves it.
struct Followed<'m> {
    /// The machine after its last game.
    machine: Learner<'m>,
    /// The game after which its first box was first empty, if it ever was.
    emptied: Option<u32>,
}

/// Fresh machine number `run` (drawing from stream `run` of `seed`) playing at most
/// `games` games against `opponent`, each game's end handed to `each`: the machine at the
/// end, and the game after which its first box (where it has one) was first empty, the
/// run stopping there when `stop_when_emptied`. [`first_box_emptied`] and the watch's
/// figures are the same runs.
fn follow_first_box<'m, G: Rules>(
    setup: &'m Setup<G>,
    opponent: OpponentKind,
    seed: u64,
    run: u32,
    games: u32,
    mut each: impl FnMut(End),
    stop_when_emptied: bool,
) -> Result<Followed<'m>, Error> {
    let mut rng = rng_for(seed, u64::from(run));
    let mut machine = Learner::new(&setup.machine);
    let mut them = Automatic::new(opponent, setup.rival.as_ref(), setup.teaching.as_ref())?;
    let mut emptied = None;
    for game in 1..=games {
        each(play_game(&setup.tree, &mut machine, &mut them, &mut rng, |_| {})?.end);
        let refilled = refill(setup, &mut machine);
        if emptied.is_none()
            && setup.machine.box_count() > 0
            && (refilled || machine.beads.total(0) == 0)
        {
            emptied = Some(game);
            if stop_when_emptied {
                break;
            }
        }
    }
    Ok(Followed { machine, emptied })
}

/// Beads in the machine's first box, 0 for a machine of no box.
fn first_box_beads<G: Rules>(setup: &Setup<G>, machine: &Learner) -> u32 {
    if setup.machine.box_count() > 0 {
        machine.beads.total(0)
    } else {
        0
    }
}

/// A game as a row of `--csv`: its number, how it ended, the totals after it, and its
/// moves (`line`, each a node and its child) in the game's notation.
fn csv_row<G: Notation>(
    game: &G,
    tree: &Tree<G>,
    end: End,
    point: &CurvePoint,
    line: &[(Node, Node)],
) -> String {
    let moves: Vec<String> = line
        .iter()
        .filter_map(|&(n, c)| {
            tree.move_to(n, c)
                .map(|m| game.format_move(&tree.positions[n as usize], m))
        })
        .collect();
    format!(
        "{},{},{},{},{},{},\"{}\"\n",
        point.game,
        end.name(),
        point.wins,
        point.draws,
        point.losses,
        point.first_box_beads,
        moves.join(" ").replace('"', "\"\"")
    )
}

/// Points on a learning curve at most: enough for a smooth line in a small file.
const CURVE_POINTS: u32 = 200;

/// One machine plays `games` games against `opponent` (seeded with stream 0 of `seed`);
/// with `csv`, every game is also written out as a row with its moves.
pub fn play_games<G: Notation>(
    game: &G,
    setup: &Setup<G>,
    opponent: OpponentKind,
    games: u32,
    seed: u64,
    csv: bool,
    progress: &dyn Fn(u64),
) -> Result<Session, Error> {
    let tree = &setup.tree;
    let mut rng = rng_for(seed, 0);
    let mut me = Learner::new(&setup.machine);
    let mut them = Automatic::new(opponent, setup.rival.as_ref(), setup.teaching.as_ref())?;
    let mut point = CurvePoint {
        game: 0,
        wins: 0,
        draws: 0,
        losses: 0,
        first_box_beads: first_box_beads(setup, &me),
    };
    let mut curve = vec![point];
    let step = (games / CURVE_POINTS).max(1);
    let mut rows =
        csv.then(|| String::from("game,result,wins,draws,losses,first_box_beads,moves\n"));
    let mut line: Vec<(Node, Node)> = Vec::new();
    for g in 1..=games {
        line.clear();
        let played = play_game(tree, &mut me, &mut them, &mut rng, |turn| {
            if rows.is_some() {
                match turn {
                    Turn::Machine {
                        node,
                        draw: Draw::Bead { child, .. } | Draw::Forced { child },
                    }
                    | Turn::Opponent { node, child } => line.push((node, child)),
                    Turn::Machine { .. } => {}
                }
            }
        })?;
        refill(setup, &mut me);
        match played.end {
            End::Won => point.wins += 1,
            End::Drew => point.draws += 1,
            End::Lost | End::Resigned => point.losses += 1,
        }
        point.game = g;
        point.first_box_beads = first_box_beads(setup, &me);
        if let Some(rows) = rows.as_mut() {
            rows.push_str(&csv_row(game, tree, played.end, &point, &line));
        }
        if g % step == 0 || g == games {
            progress(u64::from(g - curve[curve.len() - 1].game));
            curve.push(point);
        }
    }
    Ok(Session {
        games,
        wins: point.wins,
        draws: point.draws,
        losses: point.losses,
        curve,
        csv: rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::fixtures::{self, HER, Pawns};

    fn pawns_setup(preset: &str, rival: bool) -> (Pawns, Setup<Pawns>) {
        let (game, kit) = fixtures::pawns(preset);
        let setup = Setup::new(&game, &kit, kit.rule, rival).unwrap();
        (game, setup)
    }

    #[test]
    fn her_learns_against_a_perfect_opponent() {
        let (_, setup) = pawns_setup(HER, false);
        let t = train(&setup, OpponentKind::Perfect, 200, 10_000, 5, &|_| {}).unwrap();
        assert_eq!(t.unfinished, 0);
        let losses = t.losses_to_learn.unwrap();
        assert!(losses.min >= 1 && losses.max <= 30, "{losses:?}");
        assert_eq!(losses.histogram.values().sum::<u32>(), 200);
    }

    #[test]
    #[cfg(feature = "rayon")]
    fn the_same_seed_gives_the_same_figures_whatever_the_threads() {
        let (_, setup) = pawns_setup(HER, false);
        let run = |threads| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| train(&setup, OpponentKind::Random, 300, 10_000, 42, &|_| {}).unwrap())
        };
        let one = run(1);
        assert_eq!(one, run(2));
        assert_eq!(one, run(3));
        let other_seed = train(&setup, OpponentKind::Random, 300, 10_000, 43, &|_| {}).unwrap();
        assert_ne!(one, other_seed);
    }

    /// Plays `games` games against a random opponent and asks, after each, the kept loss
    /// check and a check from scratch.
    fn loss_checks_agree<G: Notation + Descriptor>(
        game: &G,
        kit: &Kit,
        rule: Rule,
        games: u32,
    ) -> u32 {
        let setup = Setup::new(game, kit, rule, false).unwrap();
        let (tree, machine) = (&setup.tree, &setup.machine);
        let mut me = Learner::new(machine);
        let mut check = LossCheck::new(machine, tree, &me.beads);
        let (mut rng, mut learnt) = (rng_for(3, 0), 0);
        for game in 0..games {
            play_game(tree, &mut me, &mut Automatic::Random, &mut rng, |_| {}).unwrap();
            let kept = check.update(machine, tree, &me.beads, me.emptied());
            assert_eq!(kept, machine.cannot_lose(tree, &me.beads), "game {game}");
            learnt += u32::from(kept);
            if me.beads.counts().iter().all(|&n| n == 0) {
                me = Learner::new(machine);
                check = LossCheck::new(machine, tree, &me.beads);
            }
        }
        learnt
    }

    #[test]
    fn the_kept_loss_check_agrees_with_one_from_scratch_after_every_game() {
        let (her, kit) = fixtures::pawns(HER);
        assert!(loss_checks_agree(&her, &kit, Rule::Gardner, 400) > 0);
        loss_checks_agree(&her, &kit, Rule::GardnerReward, 400);
        let (bachet, kit) = fixtures::stones("bachet");
        assert!(loss_checks_agree(&bachet, &kit, Rule::Gardner, 400) > 0);
        let (relay, kit) = fixtures::stones("bachet-relay");
        assert!(loss_checks_agree(&relay, &kit, Rule::Relay, 400) > 0);
        let (menace, kit) = fixtures::grid("menace");
        loss_checks_agree(&menace, &kit, Rule::Menace, 400);
    }

    #[test]
    fn a_random_opponent_plays_every_legal_move() {
        let (game, kit) = fixtures::grid("menace");
        let setup = Setup::new(&game, &kit, kit.rule, false).unwrap();
        let me = Learner::new(&setup.machine);
        let start_reply = setup.tree.children(0)[4]; // X in the centre; O has 8 replies
        let mut seen = std::collections::BTreeSet::new();
        let mut rng = rng_for(1, 0);
        for _ in 0..400 {
            let c = Automatic::Random
                .choose(&setup.tree, start_reply, &me, &mut rng)
                .unwrap()
                .unwrap();
            seen.insert(c);
        }
        assert_eq!(seen.len(), 8);
    }

    #[test]
    fn a_perfect_opponent_never_throws_a_game_away() {
        let (game, kit) = fixtures::grid("menace");
        let setup = Setup::new(&game, &kit, kit.rule, false).unwrap();
        let tree = &setup.tree;
        let me = Learner::new(&setup.machine);
        let mut rng = rng_for(2, 0);
        for node in 0..tree.len() as Node {
            if tree.to_move(node) == setup.machine.side || tree.outcome(node).is_some() {
                continue;
            }
            let c = Automatic::Perfect
                .choose(tree, node, &me, &mut rng)
                .unwrap()
                .unwrap();
            assert_eq!(-tree.value(c), tree.value(node));
        }
        // Against it, a fresh MENACE never wins.
        let mut me = Learner::new(&setup.machine);
        for _ in 0..300 {
            let played =
                play_game(tree, &mut me, &mut Automatic::Perfect, &mut rng, |_| {}).unwrap();
            assert_ne!(played.end, End::Won);
        }
    }

    #[test]
    fn the_teacher_wins_when_it_can_and_otherwise_aims_at_a_blunder() {
        let (game, kit) = fixtures::stones("bachet");
        let setup = Setup::new(&game, &kit, kit.rule, false).unwrap();
        let tree = &setup.tree;
        let mut me = Learner::new(&setup.machine);
        // Teach the boxes for 7 and 5 stones their winning move; leave 6 untaught.
        for stones in [7u16, 5] {
            let node = tree.children(0)[usize::from(8 - stones - 1)];
            let b = setup.machine.box_at(node).unwrap();
            for s in setup.machine.slots(b) {
                let left = tree.positions[setup.machine.child(node, s) as usize].stones();
                if left != 4 {
                    me.beads.set(&setup.machine, s, 0);
                }
            }
        }
        let mut rng = rng_for(3, 0);
        for _ in 0..50 {
            // At 8 every move loses: the teacher leaves 6, the untaught box.
            let c = Automatic::Teacher
                .choose(tree, 0, &me, &mut rng)
                .unwrap()
                .unwrap();
            assert_eq!(tree.positions[c as usize].stones(), 6);
        }
        // With 5 stones left and its turn, it takes 1 and wins (leaves 4).
        let five = tree
            .positions
            .iter()
            .position(|p| p.stones() == 5 && p.to_move == crate::game::Side::First)
            .unwrap();
        let c = Automatic::Teacher
            .choose(tree, five as Node, &me, &mut rng)
            .unwrap()
            .unwrap();
        assert_eq!(tree.positions[c as usize].stones(), 4);
    }

    #[test]
    fn two_machines_learn_against_each_other() {
        let (_, setup) = pawns_setup(HER, true);
        let session_a = play_games(
            &fixtures::pawns(HER).0,
            &setup,
            OpponentKind::Machine,
            500,
            9,
            false,
            &|_| {},
        )
        .unwrap();
        assert_eq!(session_a.wins + session_a.losses, 500);
        // The 3 x 3 pawn game is won by the second player: HER ends up winning nearly every game.
        let last = session_a.curve[session_a.curve.len() - 1];
        let before = session_a.curve[session_a.curve.len() - 11];
        assert_eq!(last.losses, before.losses, "no losses in the last games");
        let mut them = Automatic::new(OpponentKind::Machine, None, None);
        assert!(matches!(them, Err(Error::Internal(_))));
        them = Automatic::new(OpponentKind::Human, None, None);
        assert!(matches!(them, Err(Error::Input(_))));
    }

    #[test]
    fn a_session_keeps_running_totals_and_every_game_in_csv() {
        let (game, setup) = pawns_setup(HER, false);
        let s = play_games(&game, &setup, OpponentKind::Random, 50, 1, true, &|_| {}).unwrap();
        assert_eq!(s.curve.len(), 51);
        assert_eq!(s.curve[0].first_box_beads, setup.set.boxes[0].beads());
        assert_eq!(s.wins + s.draws + s.losses, 50);
        let csv = s.csv.unwrap();
        let rows: Vec<&str> = csv.lines().collect();
        assert_eq!(rows.len(), 51);
        assert!(rows[1].starts_with("1,"), "{}", rows[1]);
        assert!(rows[1].contains("1-"), "the moves are written: {}", rows[1]);
    }

    #[test]
    fn michies_rule_refills_the_first_box_whatever_the_kit() {
        // HIM's side loses; a custom kit of it under Michie's rule is refilled all the same,
        // as its teacher's page says, so no machine gives up for good.
        let kit = Kit::from_yaml("preset: hexapawn-first\nrule: menace\n", "kit.yaml").unwrap();
        let (refilled, t) = with_game!(&kit.game, |game| {
            let setup = Setup::new(game, &kit, kit.rule, false).unwrap();
            let t = train(&setup, OpponentKind::Perfect, 20, 200, 1, &|_| {}).unwrap();
            (setup.refilled.clone(), t)
        });
        assert_eq!(refilled, [0]);
        assert!(t.side_loses);
        assert_eq!((t.gave_up, t.unfinished), (0, 20));
        // Under the punish-only rule the same machine gives up for good.
        let (_, him) = pawns_setup(crate::kit::fixtures::HIM, false);
        assert!(him.refilled.is_empty());
        let t = train(&him, OpponentKind::Perfect, 20, 200, 1, &|_| {}).unwrap();
        assert_eq!(t.gave_up, 20);
    }

    #[test]
    fn training_measures_draws_only_in_a_game_that_has_them() {
        let (game, kit) = fixtures::grid("menace");
        let setup = Setup::new(&game, &kit, kit.rule, false).unwrap();
        let t = train(&setup, OpponentKind::Perfect, 10, 300, 1, &|_| {}).unwrap();
        let drawn = t.drawn_share.expect("MENACE draws");
        assert!(drawn.mean > 0.3 && drawn.mean < 1.0, "{drawn:?}");
        let (_, setup) = pawns_setup(HER, false);
        let t = train(&setup, OpponentKind::Perfect, 10, 300, 1, &|_| {}).unwrap();
        assert_eq!(t.drawn_share, None);
    }

    #[test]
    fn expectations_for_the_sheets_are_cheap_for_small_kits() {
        let (game, kit) = fixtures::stones("bachet");
        let setup = Setup::new(&game, &kit, kit.rule, false).unwrap();
        let t = expected_losses(&kit, &setup, 100)
            .unwrap()
            .expect("Bachet's second player can learn");
        assert_eq!((t.runs, t.unfinished), (100, 0));
        assert!(t.losses_to_learn.unwrap().max <= 12);
    }
}
