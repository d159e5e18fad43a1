//! The machine playing on its own, in a background thread, while the page watches:
//!
//! - **training**: N games against an automatic opponent as fast as it can, with the
//!   simulator's own game loop; its games are counted in every [`FLUSH`], so the curve
//!   and the memory move while it runs;
//! - **watching**: game after game at a pace the teacher sets ([`PACES`], from a move
//!   every two seconds to a thousand games a second), each game on the board as a class
//!   game would be, with pause and step.
//!
//! Either may be cancelled; its games so far are kept.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;

use super::table::Auto;
use super::{ApiError, Problem, Shared};
use matchbox_engine::Error;
use matchbox_engine::machine::{End, Learner, rng_for};
use matchbox_engine::simulate::{Automatic, OpponentKind, play_game};
use matchbox_print::pictures::Game;

/// Games one run may ask for at most.
pub const MAX_GAMES: u32 = 1_000_000;
/// How often a training run counts its games in.
const FLUSH: Duration = Duration::from_millis(250);
/// How often watching saves the beads when games come faster than one a second.
const SAVE_EVERY: Duration = Duration::from_secs(1);
/// The slice of time a fast pace plays its games in.
const TICK: Duration = Duration::from_millis(100);
/// The opponent's draws when watching come from their own streams, so that the
/// machine's draws are those a replay of the game makes.
const OPPONENT_STREAMS: u64 = 0x6f70_706f_6e65_6e74;

/// A pace of watching.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Pace {
    /// A move of the opponent's (and the machine's answer) every so many milliseconds.
    Move(u64),
    /// So many games a second, the board showing each game's end.
    Games(u32),
}

/// The paces the page offers, slowest first.
pub const PACES: [Pace; 10] = [
    Pace::Move(2000),
    Pace::Move(1000),
    Pace::Move(500),
    Pace::Move(200),
    Pace::Games(2),
    Pace::Games(10),
    Pace::Games(50),
    Pace::Games(200),
    Pace::Games(500),
    Pace::Games(1000),
];

/// What the teacher steers while watching.
#[derive(Default)]
pub struct Controls {
    /// Index into [`PACES`].
    pub pace: AtomicUsize,
    /// Whether the games wait.
    pub paused: AtomicBool,
    /// Moves asked for one at a time while paused.
    pub steps: AtomicU32,
}

/// A run under way.
pub struct Run {
    /// Games asked for; `None` while watching, which goes on until cancelled.
    pub total: Option<u32>,
    /// The opponent.
    pub opponent: OpponentKind,
    /// Games played so far.
    pub done: Arc<AtomicU32>,
    /// Set to stop the run after the game (or move) being played.
    pub cancel: Arc<AtomicBool>,
    /// The teacher's pace, pause and steps, while watching.
    pub controls: Option<Arc<Controls>>,
}

/// A run's progress, for the page.
#[derive(Debug, Serialize)]
pub struct Progress {
    /// Whether a run is under way.
    pub running: bool,
    /// Games played so far in it.
    pub done: u32,
    /// Games asked for (0 while watching).
    pub total: u32,
    /// Its opponent's name.
    pub opponent: Option<&'static str>,
    /// Whether it is a watching run.
    pub watching: bool,
    /// Its pace, as an index into [`PACES`].
    pub pace: usize,
    /// Whether it is paused.
    pub paused: bool,
}

impl Run {
    /// The progress of this run, or of none.
    pub fn progress(run: Option<&Run>) -> Progress {
        let controls = run.and_then(|r| r.controls.as_deref());
        Progress {
            running: run.is_some(),
            done: run.map_or(0, |r| r.done.load(Ordering::Relaxed)),
            total: run.and_then(|r| r.total).unwrap_or(0),
            opponent: run.map(|r| r.opponent.name()),
            watching: controls.is_some(),
            pace: controls.map_or(0, |c| c.pace.load(Ordering::Relaxed)),
            paused: controls.is_some_and(|c| c.paused.load(Ordering::Relaxed)),
        }
    }
}

/// The opponents a page may choose, by name.
pub fn opponent(name: &str, rival: bool) -> Result<OpponentKind, ApiError> {
    let kind = match name {
        "random" => OpponentKind::Random,
        "perfect" => OpponentKind::Perfect,
        "teacher" => OpponentKind::Teacher,
        "machine" if rival => OpponentKind::Machine,
        _ => {
            return Err(ApiError::bad(Problem::Opponent {
                name: name.chars().take(40).collect(),
            }));
        }
    };
    Ok(kind)
}

/// Registers a run, if the machine is free; gives its counter and cancel flag.
fn register<G: Game>(
    shared: &Shared<G>,
    total: Option<u32>,
    opponent: OpponentKind,
    controls: Option<Arc<Controls>>,
) -> Result<(Arc<AtomicU32>, Arc<AtomicBool>), ApiError> {
    let done = Arc::new(AtomicU32::new(0));
    let cancel = Arc::new(AtomicBool::new(false));
    let mut live = shared.lock();
    live.idle()?;
    live.training = Some(Run {
        total,
        opponent,
        done: Arc::clone(&done),
        cancel: Arc::clone(&cancel),
        controls,
    });
    live.version += 1;
    Ok((done, cancel))
}

/// Ends a run: it no longer holds the machine, the beads are saved, and the next game
/// is set up.
fn finish<G: Game>(shared: &Shared<G>, result: Result<(), Error>) {
    let (mut live, fixed) = shared.locked();
    live.training = None;
    live.version += 1;
    live.save(&fixed);
    if let Err(e) = result.and_then(|()| live.settle(&fixed)) {
        super::tell(format_args!("{e}"));
    }
}

/// Starts a run of `games` games in the background, as fast as it goes; its games are
/// counted in as it plays them, and the beads saved at its end.
pub fn start<G: Game>(
    shared: &Arc<Shared<G>>,
    games: u32,
    opponent: OpponentKind,
) -> Result<(), ApiError> {
    if !(1..=MAX_GAMES).contains(&games) {
        return Err(ApiError::bad(Problem::Games));
    }
    let (done, cancel) = register(shared, Some(games), opponent, None)?;
    let (beads, first) = {
        let live = shared.lock();
        (live.saved.beads.clone(), live.saved.games)
    };
    let shared = Arc::clone(shared);
    tokio::task::spawn_blocking(move || {
        // The settings cannot change while the run holds the machine.
        let fixed = shared.fixed();
        let fixed = &*fixed;
        let setup = &fixed.setup;
        let mut me = Learner::with_beads(&setup.machine, beads);
        let mut ends: Vec<End> = Vec::new();
        let mut remember = true;
        let mut count_in = |me: &Learner, ends: &mut Vec<End>| {
            shared.lock().record(me.beads.clone(), ends, None, remember);
            remember = false;
            ends.clear();
        };
        let mut flushed = Instant::now();
        // The page offers no optimal teacher (its strategy is not computed here).
        let played = Automatic::new(opponent, setup.rival.as_ref(), None).and_then(|mut them| {
            for g in 0..u64::from(games) {
                if cancel.load(Ordering::Relaxed) {
                    break;
                }
                let mut rng = rng_for(fixed.seed, first + g);
                let played = play_game(&setup.tree, &mut me, &mut them, &mut rng, |_| {})?;
                ends.push(played.end);
                done.fetch_add(1, Ordering::Relaxed);
                if flushed.elapsed() >= FLUSH {
                    count_in(&me, &mut ends);
                    flushed = Instant::now();
                }
            }
            Ok::<(), Error>(())
        });
        if played.is_ok() && !ends.is_empty() {
            count_in(&me, &mut ends);
        }
        finish(&shared, played);
    });
    Ok(())
}

/// Starts watching: the machine plays `opponent` game after game at the pace of
/// `controls`, every game counted as a class game is, until cancelled or until the
/// machine cannot start a game (its first box empty).
pub fn watch<G: Game>(
    shared: &Arc<Shared<G>>,
    opponent: OpponentKind,
    controls: Arc<Controls>,
) -> Result<(), ApiError> {
    let (done, cancel) = register(shared, None, opponent, Some(Arc::clone(&controls)))?;
    let first = shared.lock().saved.games;
    let shared = Arc::clone(shared);
    tokio::task::spawn_blocking(move || {
        // The settings cannot change while the run holds the machine.
        let fixed = shared.fixed();
        let fixed = &*fixed;
        let mut rng = rng_for(fixed.seed ^ OPPONENT_STREAMS, first);
        let mut saved = Instant::now();
        let played =
            Automatic::new(opponent, fixed.setup.rival.as_ref(), None).and_then(|mut them| {
                while !cancel.load(Ordering::Relaxed) {
                    let paused = controls.paused.load(Ordering::Relaxed);
                    let stepped = paused
                        && controls
                            .steps
                            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |s| {
                                s.checked_sub(1)
                            })
                            .is_ok();
                    let pace = PACES[controls.pace.load(Ordering::Relaxed).min(PACES.len() - 1)];
                    let started = Instant::now();
                    let auto = match (paused, stepped, pace) {
                        (true, false, _) => {
                            std::thread::sleep(Duration::from_millis(50));
                            continue;
                        }
                        (true, true, _) | (false, _, Pace::Move(_)) => {
                            shared.lock().auto_move(fixed, &mut them, &mut rng)?
                        }
                        (false, _, Pace::Games(per_second)) => {
                            let mut live = shared.lock();
                            let mut last = Auto::Moved;
                            for _ in 0..(per_second / 10).max(1) {
                                last = live.auto_game(fixed, &mut them, &mut rng)?;
                                if last != Auto::Moved {
                                    done.fetch_add(1, Ordering::Relaxed);
                                }
                                if last == Auto::Stuck {
                                    break;
                                }
                            }
                            if saved.elapsed() >= SAVE_EVERY {
                                live.save(fixed);
                                saved = Instant::now();
                            }
                            last
                        }
                    };
                    match auto {
                        Auto::Stuck => break,
                        Auto::Ended if matches!(pace, Pace::Move(_)) || paused => {
                            done.fetch_add(1, Ordering::Relaxed);
                        }
                        _ => {}
                    }
                    let wait = match pace {
                        Pace::Move(ms) => Duration::from_millis(ms),
                        Pace::Games(per_second) if per_second < 10 => {
                            Duration::from_millis(1000 / u64::from(per_second))
                        }
                        Pace::Games(_) => TICK,
                    };
                    // Slept in short slices, so that pause, pace and cancel take at once.
                    while !paused
                        && started.elapsed() < wait
                        && !cancel.load(Ordering::Relaxed)
                        && !controls.paused.load(Ordering::Relaxed)
                        && PACES[controls.pace.load(Ordering::Relaxed).min(PACES.len() - 1)] == pace
                    {
                        std::thread::sleep(Duration::from_millis(20));
                    }
                }
                Ok::<(), Error>(())
            });
        finish(&shared, played);
    });
    Ok(())
}

/// Asks the run under way to stop after its current game.
pub fn cancel<G: Game>(shared: &Shared<G>) -> Result<(), ApiError> {
    let live = shared.lock();
    let run = live
        .training
        .as_ref()
        .ok_or(ApiError::conflict(Problem::NotTraining))?;
    run.cancel.store(true, Ordering::Relaxed);
    Ok(())
}

/// Changes the pace, pauses or goes on, or asks for one move, while watching.
pub fn steer<G: Game>(
    shared: &Shared<G>,
    pace: Option<usize>,
    paused: Option<bool>,
    step: bool,
) -> Result<(), ApiError> {
    let live = shared.lock();
    let controls = live
        .training
        .as_ref()
        .and_then(|r| r.controls.as_ref())
        .ok_or(ApiError::conflict(Problem::NotTraining))?;
    steer_controls(controls, pace, paused, step)
}

/// Sets the controls of a watching run (see [`steer`]).
pub fn steer_controls(
    controls: &Controls,
    pace: Option<usize>,
    paused: Option<bool>,
    step: bool,
) -> Result<(), ApiError> {
    if let Some(pace) = pace {
        if pace >= PACES.len() {
            return Err(ApiError::bad(Problem::Pace {
                max: PACES.len() - 1,
            }));
        }
        controls.pace.store(pace, Ordering::Relaxed);
    }
    if let Some(paused) = paused {
        controls.paused.store(paused, Ordering::Relaxed);
    }
    if step {
        controls.paused.store(true, Ordering::Relaxed);
        controls.steps.fetch_add(1, Ordering::Relaxed);
    }
    Ok(())
}
