//! What a teacher can watch of a machine that never reaches "can no longer lose" (MENACE
//! against a perfect opponent): sampled over many fresh machines, each figure with a 95%
//! confidence interval.

use crate::parallel::prelude::*;
use serde::Serialize;

pub use super::stats::Estimate;
use super::{OpponentKind, Setup, Stats, first_box_beads, follow_first_box};
use crate::Error;
use crate::game::Rules;
use crate::machine::{End, Learner};

/// The windows of games whose share of draws is reported.
pub const WINDOWS: [(u32, u32); 4] = [(1, 20), (21, 50), (51, 100), (101, 200)];

/// Games in a row without a loss that count as "it has stopped losing".
pub const STREAK: u32 = 20;

/// The share of drawn games in one window of games.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Window {
    /// The first game of the window.
    pub from: u32,
    /// The last game.
    pub to: u32,
    /// The machines' mean share of draws there (a mean over the machines).
    pub draws: Estimate,
}

/// The watchable figures of `runs` fresh machines, each playing the last window's games.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Watch {
    /// The opponent (`perfect` unless `verify --opponent` chose another).
    pub opponent: OpponentKind,
    /// Machines followed.
    pub runs: u32,
    /// Games each machine played.
    pub games: u32,
    /// The share of draws in each window; none for a game that cannot end in a draw.
    pub windows: Vec<Window>,
    /// Games in a row without a loss that count as having stopped losing.
    pub streak: u32,
    /// The game after which the machine did not lose for [`STREAK`] games in a row, over
    /// the machines that got there within the games played.
    pub stopped_losing: Option<Estimate>,
    /// Machines that got there.
    pub stopped_runs: u32,
    /// Their share of the machines followed.
    pub stopped_share: Estimate,
    /// Beads in the first box at the start.
    pub first_box_start: u32,
    /// Beads in the first box after the last game.
    pub first_box: Option<Estimate>,
    /// Machines whose first box ran empty within the games played: from then on they
    /// give up at their first move, for good, unless the class refills it.
    pub gave_up_runs: u32,
    /// Whether a first box that ran empty was refilled, as the teacher's page says under
    /// this rule (see [`crate::refill`]).
    pub refilled: bool,
    /// The games after which their first box was empty, over those machines.
    pub gave_up_after: Option<Stats>,
}

/// Follows `runs` fresh machines against `opponent` for 200 games each; run `i` draws
/// from stream `i` of `seed`, so the figures do not depend on the threads.
pub fn watch<G: Rules>(
    setup: &Setup<G>,
    opponent: OpponentKind,
    runs: u32,
    seed: u64,
) -> Result<Watch, Error> {
    let games = WINDOWS[WINDOWS.len() - 1].1;
    let first_box = |me: &Learner| first_box_beads(setup, me);
    // Each run's games, the beads left in its first box, and the game after which that
    // box was first empty.
    let played: Vec<(Vec<End>, u32, Option<u32>)> = (0..runs)
        .into_par_iter()
        .map(|run| {
            let mut ends = Vec::with_capacity(games as usize);
            let followed = follow_first_box(
                setup,
                opponent,
                seed,
                run,
                games,
                |end| ends.push(end),
                false,
            )?;
            Ok((ends, first_box(&followed.machine), followed.emptied))
        })
        .collect::<Result<_, Error>>()?;
    // Shares of draws only for a game in which a draw can happen at all.
    let can_draw = super::can_draw(&setup.tree);
    let windows = WINDOWS
        .iter()
        .filter(|_| can_draw)
        .filter_map(|&(from, to)| {
            let shares: Vec<f64> = played
                .iter()
                .map(|(ends, ..)| {
                    let window = &ends[from as usize - 1..to as usize];
                    window.iter().filter(|e| **e == End::Drew).count() as f64 / window.len() as f64
                })
                .collect();
            Estimate::mean_of(shares.into_iter()).map(|draws| Window {
                from,
                to,
                draws: draws.within(0.0, 1.0),
            })
        })
        .collect();
    // The game after which the next STREAK games were not lost: at most the last such.
    let last = f64::from(games - STREAK);
    let stopped: Vec<f64> = played
        .iter()
        .filter_map(|(ends, ..)| {
            (0..=ends.len() - STREAK as usize)
                .find(|&g| ends[g..g + STREAK as usize].iter().all(|e| !e.is_loss()))
                .map(|g| g as f64)
        })
        .collect();
    let gave_up: Vec<u32> = played.iter().filter_map(|p| p.2).collect();
    Ok(Watch {
        opponent,
        runs,
        games,
        windows,
        streak: STREAK,
        stopped_share: Estimate::share(stopped.len() as u32, runs),
        stopped_runs: stopped.len() as u32,
        stopped_losing: Estimate::mean_of(stopped.into_iter()).map(|e| e.within(0.0, last)),
        first_box_start: first_box(&Learner::new(&setup.machine)),
        first_box: Estimate::mean_of(played.iter().map(|p| f64::from(p.1)))
            .map(|e| e.within(0.0, f64::INFINITY)),
        gave_up_runs: gave_up.len() as u32,
        refilled: !setup.refilled.is_empty(),
        gave_up_after: Stats::of(&gave_up),
    })
}
