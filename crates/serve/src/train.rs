//! Training on the screen: the machine plays N games against an automatic opponent in
//! a background thread, with the simulator's own game loop, while the page watches the
//! progress and may cancel. The games count only when the run ends, all at once.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use serde::Serialize;

use super::{ApiError, Problem, Shared};
use matchbox_engine::Error;
use matchbox_engine::machine::{End, Learner, rng_for};
use matchbox_engine::simulate::{Automatic, OpponentKind, play_game};
use matchbox_print::pictures::Game;

/// Games one run may ask for at most.
pub const MAX_GAMES: u32 = 1_000_000;

/// A training run under way.
pub struct Run {
    /// Games asked for.
    pub total: u32,
    /// The opponent.
    pub opponent: OpponentKind,
    /// Games played so far.
    pub done: Arc<AtomicU32>,
    /// Set to stop the run after the game being played.
    pub cancel: Arc<AtomicBool>,
}

/// A run's progress, for the page.
#[derive(Debug, Serialize)]
pub struct Progress {
    /// Whether a run is under way.
    pub running: bool,
    /// Games played so far in it.
    pub done: u32,
    /// Games asked for.
    pub total: u32,
    /// Its opponent's name.
    pub opponent: Option<&'static str>,
}

impl Run {
    /// The progress of this run, or of none.
    pub fn progress(run: Option<&Run>) -> Progress {
        Progress {
            running: run.is_some(),
            done: run.map_or(0, |r| r.done.load(Ordering::Relaxed)),
            total: run.map_or(0, |r| r.total),
            opponent: run.map(|r| r.opponent.name()),
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

/// Starts a run of `games` games in the background; the beads and the score take its
/// games when it ends, cancelled or not, and the state file is saved.
pub fn start<G: Game>(
    shared: &Arc<Shared<G>>,
    games: u32,
    opponent: OpponentKind,
) -> Result<(), ApiError> {
    if !(1..=MAX_GAMES).contains(&games) {
        return Err(ApiError::bad(Problem::Games));
    }
    let done = Arc::new(AtomicU32::new(0));
    let cancel = Arc::new(AtomicBool::new(false));
    let (beads, first) = {
        let mut live = shared.lock();
        live.idle()?;
        live.training = Some(Run {
            total: games,
            opponent,
            done: Arc::clone(&done),
            cancel: Arc::clone(&cancel),
        });
        live.version += 1;
        (live.saved.beads.clone(), live.saved.games)
    };
    let shared = Arc::clone(shared);
    tokio::task::spawn_blocking(move || {
        let fixed = &shared.fixed;
        let setup = &fixed.setup;
        let mut me = Learner::with_beads(&setup.machine, beads);
        let mut ends: Vec<End> = Vec::with_capacity(games as usize);
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
            }
            Ok::<(), Error>(())
        });
        let mut live = shared.lock();
        live.training = None;
        if played.is_ok() {
            live.record(me.beads, &ends, None);
        }
        live.version += 1;
        let saved = played
            .and_then(|()| fixed.save(&live.saved))
            .and_then(|()| live.settle(fixed));
        if let Err(e) = saved {
            eprintln!("matchbox: training: {e}");
        }
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
