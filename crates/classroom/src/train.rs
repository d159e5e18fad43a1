//! The machine playing on its own while the page watches:
//!
//! - **training**: N games against an automatic opponent as fast as it can, with the
//!   simulator's own game loop; its games are counted in after every [`SLICE`] of play,
//!   so the curve and the memory move while it runs;
//! - **watching**: game after game at a pace the teacher sets ([`PACES`], from a move
//!   every two seconds to a thousand games a second), each game on the board as a class
//!   game would be, with pause and step.
//!
//! Either may be cancelled; its games so far are kept. A run goes on in steps
//! ([`crate::Lesson::step`]) that the host calls as often as they ask: the server from
//! a thread of its own, the browser's engine from its worker's timer. The host also
//! gives the time, so that nothing here needs a clock.

use std::ops::RangeInclusive;
use std::time::Duration;

use serde::Serialize;

use super::table::{Auto, Fixed};
use super::{ApiError, Problem};
use matchbox_engine::Error;
use matchbox_engine::machine::{End, Learner, SimRng, Suspended, rng_for};
use matchbox_engine::simulate::{Automatic, OpponentKind, play_game};
use matchbox_print::pictures::Game;

/// The table as the lesson holds it: with the run that may hold its machine.
pub type Live = super::table::Live<Run>;

/// Games one run may ask for at most.
pub const MAX_GAMES: u32 = 1_000_000;
/// Games one run may ask for, least and most.
pub const GAMES: RangeInclusive<u32> = 1..=MAX_GAMES;
/// How long a step of training plays before its games are counted in (the page sees
/// them, and the host's other requests get their turn).
pub const SLICE: Duration = Duration::from_millis(50);
/// How often watching saves the beads when games come faster than one a second.
const SAVE_EVERY: Duration = Duration::from_secs(1);
/// The slice of time a fast pace plays its games in.
const TICK: Duration = Duration::from_millis(100);
/// How long a paused run waits before it looks again (a change of the teacher's makes
/// the host step at once).
const PAUSED_LOOK: Duration = Duration::from_secs(1);
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

/// What the teacher steers while watching, and where the games stand.
struct Watching {
    /// Index into [`PACES`].
    pace: usize,
    /// Whether the games wait.
    paused: bool,
    /// Moves asked for one at a time while paused.
    steps: u32,
    /// The opponent's draws, one stream for the whole run.
    rng: SimRng,
    /// When the next move or games are due, in the host's time; `None`: at once.
    due: Option<Duration>,
    /// When the beads were last saved, in the host's time.
    saved: Duration,
}

/// A run under way.
pub struct Run {
    /// Games asked for; `None` while watching, which goes on until cancelled.
    total: Option<u32>,
    /// The opponent.
    opponent: OpponentKind,
    /// Games played so far.
    done: u32,
    /// Set to stop the run at its next step; its games so far are kept.
    cancelled: bool,
    /// The second machine, when it is the opponent: its beads and its game in progress.
    rival: Option<Suspended>,
    /// The teacher's controls, while watching.
    watching: Option<Watching>,
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
        let watching = run.and_then(|r| r.watching.as_ref());
        Progress {
            running: run.is_some(),
            done: run.map_or(0, |r| r.done),
            total: run.and_then(|r| r.total).unwrap_or(0),
            opponent: run.map(|r| r.opponent.name()),
            watching: watching.is_some(),
            pace: watching.map_or(0, |w| w.pace),
            paused: watching.is_some_and(|w| w.paused),
        }
    }
}

/// The run's opponent as it stands, to play with; [`keep_opponent`] keeps what it learnt.
fn take_opponent<'f, G: Game>(
    fixed: &'f Fixed<G>,
    kind: OpponentKind,
    rival: &mut Option<Suspended>,
) -> Result<Automatic<'f>, Error> {
    match (rival.take(), fixed.setup.rival.as_ref()) {
        (Some(rival), Some(machine)) => Ok(Automatic::Machine(Learner::resume(machine, rival))),
        _ => Automatic::new(kind, fixed.setup.rival.as_ref(), None),
    }
}

/// Keeps the second machine's beads and game in progress until the next step.
fn keep_opponent(rival: &mut Option<Suspended>, opponent: Automatic) {
    if let Automatic::Machine(machine) = opponent {
        *rival = Some(machine.suspend());
    }
}

/// Registers a run, if the machine is free.
fn register(live: &mut Live, run: Run) -> Result<(), ApiError> {
    live.idle()?;
    live.training = Some(run);
    live.version += 1;
    Ok(())
}

/// Starts a run of `games` games, as fast as it goes; its games are counted in as it
/// plays them, and the beads saved at its end.
pub fn start(live: &mut Live, games: u32, opponent: OpponentKind) -> Result<(), ApiError> {
    if !GAMES.contains(&games) {
        return Err(ApiError::bad(Problem::Games));
    }
    register(
        live,
        Run {
            total: Some(games),
            opponent,
            done: 0,
            cancelled: false,
            rival: None,
            watching: None,
        },
    )
}

/// Starts watching: the machine plays `opponent` game after game at `pace`, every game
/// counted as a class game is, until cancelled or until the machine cannot start a
/// game (its first box empty).
pub fn watch<G: Game>(
    fixed: &Fixed<G>,
    live: &mut Live,
    opponent: OpponentKind,
    pace: usize,
) -> Result<(), ApiError> {
    check_pace(pace)?;
    let rng = rng_for(fixed.seed ^ OPPONENT_STREAMS, live.saved.games);
    register(
        live,
        Run {
            total: None,
            opponent,
            done: 0,
            cancelled: false,
            rival: None,
            watching: Some(Watching {
                pace,
                paused: false,
                steps: 0,
                rng,
                due: None,
                saved: Duration::ZERO,
            }),
        },
    )
}

fn check_pace(pace: usize) -> Result<(), ApiError> {
    if pace >= PACES.len() {
        return Err(ApiError::bad(Problem::Pace {
            max: PACES.len() - 1,
        }));
    }
    Ok(())
}

/// Asks the run under way to stop at its next step.
pub fn cancel(live: &mut Live) -> Result<(), ApiError> {
    let run = live
        .training
        .as_mut()
        .ok_or(ApiError::conflict(Problem::NotTraining))?;
    run.cancelled = true;
    Ok(())
}

/// Changes the pace, pauses or goes on, or asks for one move, while watching; the next
/// step comes at once.
pub fn steer(
    live: &mut Live,
    pace: Option<usize>,
    paused: Option<bool>,
    step: bool,
) -> Result<(), ApiError> {
    let watching = live
        .training
        .as_mut()
        .and_then(|r| r.watching.as_mut())
        .ok_or(ApiError::conflict(Problem::NotTraining))?;
    if let Some(pace) = pace {
        check_pace(pace)?;
        watching.pace = pace;
    }
    if let Some(paused) = paused {
        watching.paused = paused;
    }
    if step {
        watching.paused = true;
        watching.steps += 1;
    }
    watching.due = None;
    Ok(())
}

/// What a training step takes from the run to play without the lock.
pub struct Slice<'f> {
    /// The machine, with the beads as they stand.
    me: Learner<'f>,
    /// Its opponent.
    them: Automatic<'f>,
    /// Games the beads had played before the slice.
    first: u64,
    /// Games left to play in the run.
    left: u32,
}

/// The training run's next slice to play, if a training run is under way and not
/// cancelled; the run stays registered (and the machine busy) meanwhile.
pub fn slice<'f, G: Game>(
    fixed: &'f Fixed<G>,
    live: &mut Live,
) -> Result<Option<Slice<'f>>, Error> {
    let Some(run) = live.training.as_mut() else {
        return Ok(None);
    };
    let (Some(total), false) = (run.total, run.cancelled) else {
        return Ok(None);
    };
    Ok(Some(Slice {
        me: Learner::with_beads(&fixed.setup.machine, live.saved.beads.clone()),
        them: take_opponent(fixed, run.opponent, &mut run.rival)?,
        first: live.saved.games,
        left: total - run.done,
    }))
}

impl Slice<'_> {
    /// Plays games until `more` says stop (asked after each game) or the run's games
    /// are all played; the ends of the games, in order.
    pub fn play<G: Game>(
        &mut self,
        fixed: &Fixed<G>,
        mut more: impl FnMut() -> bool,
    ) -> Result<Vec<End>, Error> {
        let mut ends = Vec::new();
        while (ends.len() as u32) < self.left {
            let mut rng = rng_for(fixed.seed, self.first + ends.len() as u64);
            let played = play_game(
                &fixed.setup.tree,
                &mut self.me,
                &mut self.them,
                &mut rng,
                |_| {},
            )?;
            ends.push(played.end);
            if !more() {
                break;
            }
        }
        Ok(ends)
    }

    /// Counts the slice's games in (with the state before the run's first remembered
    /// for undo, so that one undo takes the whole run back); ends the run when all its
    /// games are played.
    pub fn count_in<G: Game>(
        self,
        fixed: &Fixed<G>,
        live: &mut Live,
        ends: &[End],
    ) -> Result<(), Error> {
        let Some(run) = live.training.as_mut() else {
            return Ok(());
        };
        let first = run.done == 0;
        run.done += ends.len() as u32;
        keep_opponent(&mut run.rival, self.them);
        let over = run.total == Some(run.done);
        if !ends.is_empty() {
            live.record(self.me.beads, ends, None, first);
        }
        if over { finish(fixed, live) } else { Ok(()) }
    }
}

/// One step of the run under way, at `now` in the host's time: a cancelled run ends,
/// watching plays its next move or games once they are due, a training run's slices
/// are left to the caller ([`slice`]). How long until the next step is due; `None` when
/// no run is under way any more.
pub fn step<G: Game>(
    fixed: &Fixed<G>,
    live: &mut Live,
    now: Duration,
) -> Result<Option<Duration>, Error> {
    let Some(mut run) = live.training.take() else {
        return Ok(None);
    };
    if run.cancelled {
        // Back in place for `finish` to see what kind of run ends.
        live.training = Some(run);
        return finish(fixed, live).map(|()| None);
    }
    let wait = watch_step(fixed, live, &mut run, now);
    live.training = Some(run);
    match wait {
        Ok(Some(wait)) => Ok(Some(wait)),
        // The machine cannot start a game: its first box is empty.
        Ok(None) => finish(fixed, live).map(|()| None),
        Err(e) => finish(fixed, live).and(Err(e)),
    }
}

/// [`step`] for a run taken out of `live`: watching's next move or games if they are
/// due, and how long until the next step; `None` when the machine is stuck.
fn watch_step<G: Game>(
    fixed: &Fixed<G>,
    live: &mut Live,
    run: &mut Run,
    now: Duration,
) -> Result<Option<Duration>, Error> {
    let Some(watching) = run.watching.as_mut() else {
        // Training: its slices are the caller's.
        return Ok(Some(Duration::ZERO));
    };
    if let Some(due) = watching.due.filter(|due| *due > now) {
        return Ok(Some(due - now));
    }
    let stepped = watching.paused && watching.steps > 0;
    if watching.paused && !stepped {
        watching.due = Some(now + PAUSED_LOOK);
        return Ok(Some(PAUSED_LOOK));
    }
    watching.steps -= u32::from(stepped);
    let pace = PACES[watching.pace];
    let mut them = take_opponent(fixed, run.opponent, &mut run.rival)?;
    let rng = &mut watching.rng;
    let mut ended = 0;
    let played = match (stepped, pace) {
        (true, _) | (false, Pace::Move(_)) => {
            let auto = live.auto_move(fixed, &mut them, rng);
            ended += u32::from(matches!(auto, Ok(Auto::Ended)));
            auto
        }
        (false, Pace::Games(per_second)) => {
            let mut last = Ok(Auto::Moved);
            for _ in 0..(per_second / 10).max(1) {
                last = live.auto_game(fixed, &mut them, rng);
                match last {
                    Ok(Auto::Moved) => {}
                    Ok(Auto::Ended) => ended += 1,
                    Ok(Auto::Stuck) | Err(_) => break,
                }
            }
            if now >= watching.saved + SAVE_EVERY {
                live.save(fixed);
                watching.saved = now;
            }
            last
        }
    };
    run.done += ended;
    keep_opponent(&mut run.rival, them);
    let wait = match pace {
        // One move asked for while paused: the next step comes at once, and waits.
        _ if watching.paused => Duration::ZERO,
        Pace::Move(ms) => Duration::from_millis(ms),
        Pace::Games(per_second) if per_second < 10 => {
            Duration::from_millis(1000 / u64::from(per_second))
        }
        Pace::Games(_) => TICK,
    };
    watching.due = Some(now + wait);
    Ok((played? != Auto::Stuck).then_some(wait))
}

/// Ends a run: it no longer holds the machine, the beads are saved, and the next game
/// is set up (after watching, a clean one for the class: the automatic opponent's game
/// is not theirs to go on with).
pub fn finish<G: Game>(fixed: &Fixed<G>, live: &mut Live) -> Result<(), Error> {
    let watched = live
        .training
        .take()
        .is_some_and(|run| run.watching.is_some());
    live.version += 1;
    live.save(fixed);
    if watched {
        live.clear_board(fixed)
    } else {
        live.settle(fixed)
    }
}
