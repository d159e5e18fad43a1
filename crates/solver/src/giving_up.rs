//! What a machine that can never stop losing does instead. Its side loses the game
//! against best play (HIM, octapawn's second player), so no bead state is one where it
//! can no longer lose; under `gardner` and `relay` every loss still takes something away,
//! until the boxes of its first move are empty and it gives up there in every game,
//! which changes nothing any more. The chain is the one of [`super::distribution`], its
//! end being that state instead of "can no longer lose".

use std::collections::BTreeMap;

use serde::Serialize;

use super::Refusal;
use super::chain::following;
use super::lines::{Lines, Transitions};
use super::numbers::{Bounds, Figure, Measure, Number, Rational, one, zero};
use super::states::States;
use crate::game::Rules;
use crate::machine::{Machine, Tree};
use matchbox_machine::{Estimate, OpponentKind, Training};

/// The games after which the chance that the machine has given up is told.
pub const GIVE_UP_BY: [u32; 4] = [10, 20, 50, 100];

/// When a machine that can never stop losing gives up at its first move for good: from
/// then on it loses every game at once.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GivingUp {
    /// The opponent.
    pub opponent: OpponentKind,
    /// Bead states the machine can reach against it, when worked out exactly.
    pub states: Option<usize>,
    /// Games played -> the chance that the machine has given up by then.
    pub by_game: BTreeMap<u32, Measure>,
    /// The chance that it never gives up (sampled: that it had not within the games
    /// allowed).
    pub never: Measure,
    /// The mean number of games until it gives up, when it does for sure.
    pub mean_games: Option<Measure>,
    /// The mean number of those games it wins.
    pub mean_wins: Option<Measure>,
}

impl GivingUp {
    /// The same figures from machines trained until they gave up (or the games allowed
    /// ran out).
    pub fn sampled(opponent: OpponentKind, t: &Training) -> GivingUp {
        let by = |n: u32| {
            t.games_to_give_up.as_ref().map_or(0, |s| {
                s.histogram.range(..=n).map(|(_, &runs)| runs).sum::<u32>()
            })
        };
        let all = t.gave_up == t.runs;
        let mean = |s: &Option<matchbox_machine::Stats>| {
            s.as_ref()
                .filter(|_| all)
                .map(|s| Measure::Sampled(s.mean_interval.clone()))
        };
        GivingUp {
            opponent,
            states: None,
            by_game: GIVE_UP_BY
                .iter()
                .map(|&n| (n, Measure::Sampled(Estimate::share(by(n), t.runs))))
                .collect(),
            never: Measure::Sampled(Estimate::share(t.runs - t.gave_up, t.runs)),
            mean_games: mean(&t.games_to_give_up),
            mean_wins: mean(&t.wins_before_giving_up),
        }
    }
}

/// When the machine gives up against a rule-following `opponent`, worked out exactly over
/// every bead state it can reach: in rationals up to [`super::RATIONAL_STATES`] states,
/// in proven bounds beyond (the chances by game always in bounds, as they are summed
/// game by game).
pub fn giving_up<G: Rules>(
    tree: &Tree<G>,
    machine: &Machine,
    opponent: OpponentKind,
) -> Result<GivingUp, Refusal> {
    let (states, lines) = following(tree, machine, opponent, true)?;
    let (never, mean_games, mean_wins) = if states.rational() {
        backwards::<Rational>(&states, &lines)
    } else {
        backwards::<Bounds>(&states, &lines)
    };
    Ok(GivingUp {
        opponent,
        states: Some(states.len()),
        by_game: by_game(&states, &lines),
        never: Measure::Exact(never.within(0.0, 1.0)),
        mean_games: mean_games.map(|g| Measure::Exact(g.within(0.0, f64::INFINITY))),
        mean_wins: mean_wins.map(|w| Measure::Exact(w.within(0.0, f64::INFINITY))),
    })
}

/// Whether the machine has given up in `state`: every game from it is lost and leaves
/// the beads as they were.
fn given_up(state: usize, next: &Transitions<impl Number>) -> bool {
    next.iter().all(|t| t.0 as usize == state && t.1)
}

/// One game from each state in the arithmetic `N`: its ends, and the chance of a win.
fn games<N: Number>(lines: &[Option<Lines>]) -> Vec<(Transitions<N>, N)> {
    let mut reach = Vec::new();
    lines
        .iter()
        .map(|l| {
            l.as_ref().map_or_else(
                || (Vec::new(), zero()),
                |l| l.ends(&mut |_, _, _| {}, &mut reach, None),
            )
        })
        .collect()
}

/// From the fresh beads: the chance of never giving up, and the mean games and wins until
/// the machine does, when it does for sure. Solved backwards as the learning chain is.
fn backwards<N: Number>(
    states: &States,
    lines: &[Option<Lines>],
) -> (Figure, Option<Figure>, Option<Figure>) {
    let next = games::<N>(lines);
    let n = states.len();
    let mut gives_up: Vec<N> = vec![zero(); n];
    let mut games: Vec<Option<N>> = vec![None; n];
    let mut wins: Vec<Option<N>> = vec![None; n];
    for s in states.backwards() {
        let s = s as usize;
        // A state that can no longer lose never gives up; none is met when the side loses.
        if states.learnt[s] {
            continue;
        }
        let (ends, won) = &next[s];
        if given_up(s, ends) {
            gives_up[s] = one();
            games[s] = Some(zero());
            wins[s] = Some(zero());
            continue;
        }
        let leave = ends
            .iter()
            .filter(|t| t.0 as usize != s)
            .fold(zero::<N>(), |sum, t| sum.add(&t.2));
        // Settled where it still wins now and then: it never gives up.
        if leave.order(&zero()).is_eq() {
            continue;
        }
        let (mut p, mut g, mut w) = (zero::<N>(), Some(one::<N>()), Some(won.clone()));
        for (t, _, q) in ends.iter().filter(|t| t.0 as usize != s) {
            let t = *t as usize;
            p = p.add(&q.mul(&gives_up[t]));
            g = g.zip(games[t].as_ref()).map(|(g, x)| g.add(&q.mul(x)));
            w = w.zip(wins[t].as_ref()).map(|(w, x)| w.add(&q.mul(x)));
        }
        gives_up[s] = p.div(&leave);
        games[s] = g.map(|g| g.div(&leave));
        wins[s] = w.map(|w| w.div(&leave));
    }
    (
        one::<N>().sub(&gives_up[0]).figure(),
        games[0].as_ref().map(Number::figure),
        wins[0].as_ref().map(Number::figure),
    )
}

/// The chance that the machine has given up after each of [`GIVE_UP_BY`] games, the
/// distribution of its beads carried forward game by game in proven bounds.
fn by_game(states: &States, lines: &[Option<Lines>]) -> BTreeMap<u32, Measure> {
    let next = games::<Bounds>(lines);
    let n = states.len();
    let mut now: Vec<Bounds> = vec![zero(); n];
    now[0] = one();
    let mut by = BTreeMap::new();
    for game in 1..=GIVE_UP_BY[GIVE_UP_BY.len() - 1] {
        let mut after: Vec<Bounds> = vec![zero(); n];
        for (s, p) in now.iter().enumerate() {
            if p.high == 0.0 {
                continue;
            }
            let (ends, _) = &next[s];
            if ends.is_empty() {
                // Learnt: it stays.
                after[s] = after[s].add(p);
            }
            for (t, _, q) in ends {
                after[*t as usize] = after[*t as usize].add(&p.mul(q));
            }
        }
        now = after;
        if GIVE_UP_BY.contains(&game) {
            let given: Bounds = (0..n)
                .filter(|&s| !next[s].0.is_empty() && given_up(s, &next[s].0))
                .fold(zero(), |sum, s| sum.add(&now[s]));
            by.insert(game, Measure::Exact(given.figure().within(0.0, 1.0)));
        }
    }
    by
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::fixtures::{self, HIM};
    use matchbox_simulate::{Setup, train};

    #[test]
    fn him_gives_up_as_often_as_sampled_machines_do() {
        let (game, kit) = fixtures::pawns(HIM);
        let s = Setup::new(&game, &kit, kit.rule, false).unwrap();
        for opponent in [OpponentKind::Perfect, OpponentKind::Random] {
            let exact = giving_up(&s.tree, &s.machine, opponent).unwrap();
            let t = train(&s, opponent, 2000, 10_000, 7, &|_| {}).unwrap();
            assert_eq!((t.gave_up, t.side_loses), (2000, true));
            let sampled = GivingUp::sampled(opponent, &t);
            assert!(exact.never.to_f64() < 1e-9, "{opponent:?}");
            let pairs = [
                (&exact.mean_games, &sampled.mean_games),
                (&exact.mean_wins, &sampled.mean_wins),
            ];
            let by = GIVE_UP_BY.map(|n| {
                (
                    Some(exact.by_game[&n].clone()),
                    Some(sampled.by_game[&n].clone()),
                )
            });
            for (e, m) in pairs
                .into_iter()
                .map(|(e, m)| (e.clone(), m.clone()))
                .chain(by)
            {
                let (Some(e), Some(Measure::Sampled(m))) = (e, m) else {
                    panic!("{opponent:?}: {exact:?} {sampled:?}")
                };
                let e = e.to_f64();
                assert!(m.low <= e && e <= m.high, "{opponent:?}: {e} outside {m:?}");
            }
        }
    }
}
