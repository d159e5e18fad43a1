//! The losses in a machine's first games, worked out exactly: the chance of each bead
//! state carried forward game by game. A horizon keeps the states finite under any rule,
//! also those that add beads (`gardner-reward`), as long as they stay few enough.

use super::Refusal;
use super::chain::finite_rule;
use super::lines::{Budget, Lines, Mover, Transitions, Walker, lines_fit};
use super::numbers::{Bounds, Figure, Number, one, zero};
use super::states::States;
use crate::game::Rules;
use crate::machine::{Machine, Tree};
use matchbox_machine::OpponentKind;

/// Most bead states a horizon meets under a rule that adds beads before it gives way to
/// sampling.
pub const REWARD_STATES: usize = 1_000;

/// The mean number of games the machine loses among its first `games[i]` games against a
/// rule-following `opponent` (`games` ascending), in proven bounds. A machine that can
/// no longer lose never loses again under any rule (a win or a draw adds beads only to
/// moves that cannot lose), so its states are left behind. When the states grow past
/// what the exact path holds, the horizons reached so far are returned, the others not.
pub fn losses_in_first<G: Rules>(
    tree: &Tree<G>,
    machine: &Machine,
    opponent: OpponentKind,
    games: &[u32],
) -> Result<Vec<Figure>, Refusal> {
    lines_fit(tree, machine, Mover::Follows(opponent))?;
    let last = games.last().copied().unwrap_or(0);
    let met = Met::find(tree, machine, opponent, last);
    Ok(met.carry(games))
}

/// The states met in the first games, numbered as the games meet them, each with one
/// game's ends and the chance that it is lost.
struct Met {
    states: States,
    /// Per state met and walked: one game's ends and the chance that it is lost.
    walked: Vec<Option<(Transitions<Bounds>, Bounds)>>,
    /// The games carried forward in full: all asked for, or those before the states grew
    /// too many.
    games: u32,
}

impl Met {
    /// The states the machine can be in during its first `last` games, met game by game
    /// in the order of their numbers: the numbers, and so the order in which the chances
    /// are summed, are those of a pass that carries the chances along (see
    /// [`Met::carry`]), since a state can be in a game exactly when some chance reaches it.
    fn find<G: Rules>(tree: &Tree<G>, machine: &Machine, opponent: OpponentKind, last: u32) -> Met {
        // A rule that adds beads makes new states game after game (HER under
        // `gardner-reward` meets over 100,000 in its first 20 games): it is given up on
        // early.
        let most = if finite_rule(machine).is_ok() {
            usize::MAX
        } else {
            REWARD_STATES
        };
        let mut met = Met {
            states: States::new(tree, machine, true),
            walked: Vec::new(),
            games: last,
        };
        // The walker remembers the lines below positions, as the walks that find the
        // states do: HER's first 20 games against a perfect opponent took a fifth less.
        let (mut walker, mut lines, mut reach) = (
            Walker::with_memo(tree, machine, Mover::Follows(opponent)),
            Lines::default(),
            Vec::new(),
        );
        let (mut now, mut beads) = (vec![true], machine.fresh_beads());
        let mut budget = Budget::default();
        for game in 1..=last {
            // Once every state met has been walked, the games meet no other (nor, the
            // states being few enough, give up on them).
            let walked = met.walked.iter().filter(|w| w.is_some()).count();
            let learnt = met.states.learnt.iter().filter(|&&l| l).count();
            let all = walked + learnt == met.states.len();
            if game > 1 && all && met.states.len() <= most {
                break;
            }
            let mut next = vec![false; now.len()];
            for (s, &here) in now.iter().enumerate() {
                if !here || met.states.learnt[s] {
                    continue;
                }
                if met.states.len() > most {
                    met.games = game - 1;
                    return met;
                }
                met.walked.resize_with(met.states.len(), || None);
                if met.walked[s].is_none() {
                    met.states.unpack(machine, s as u32, &mut beads);
                    let mut interning = met.states.interning(tree, machine);
                    let walked = walker.walk(&mut lines, &beads, s as u32, 0, &[], &mut interning);
                    if walked.and_then(|()| budget.spend(&lines)).is_err() {
                        met.games = game - 1;
                        return met;
                    }
                    let (ends, _) = lines.ends::<Bounds>(&mut |_, _, _| {}, &mut reach, None);
                    let loss = ends
                        .iter()
                        .filter(|t| t.1)
                        .fold(zero::<Bounds>(), |sum, t| sum.add(&t.2));
                    met.walked[s] = Some((ends, loss));
                }
                next.resize(met.states.len(), false);
                for &(t, _, _) in met.walked[s].iter().flat_map(|w| &w.0) {
                    next[t as usize] = true;
                }
            }
            now = next;
        }
        met
    }

    /// The chance of each state carried forward game by game and the losses summed, for
    /// the `games` asked for that [`Met::find`] reached. A state's chance after a game is
    /// summed over the states before it in the order of their numbers, so each state's
    /// sum can be worked out on its own, on any core.
    fn carry(&self, games: &[u32]) -> Vec<Figure> {
        use crate::parallel::prelude::*;
        let n = self.states.len();
        let learnt = &self.states.learnt;
        // Per state that has not learnt: the states that have not learnt whose games end
        // in it, with the chance, in the order of their numbers and of their ends, as
        // `into[into_start[t]..into_start[t + 1]]`. A state that has learnt is never
        // live: its chance is never read, and it passes none on.
        let ends = |s: usize| self.walked.get(s).into_iter().flatten().flat_map(|w| &w.0);
        let mut into_start = vec![0u32; n + 1];
        for s in (0..n).filter(|&s| !learnt[s]) {
            for &(t, _, _) in ends(s).filter(|e| !learnt[e.0 as usize]) {
                into_start[t as usize + 1] += 1;
            }
        }
        for t in 0..n {
            into_start[t + 1] += into_start[t];
        }
        let mut filled = into_start.clone();
        let mut into = vec![(0u32, zero::<Bounds>()); into_start[n] as usize];
        for s in (0..n).filter(|&s| !learnt[s]) {
            for &(t, _, p) in ends(s).filter(|e| !learnt[e.0 as usize]) {
                into[filled[t as usize] as usize] = (s as u32, p);
                filled[t as usize] += 1;
            }
        }
        let mut now: Vec<Bounds> = vec![zero(); n];
        now[0] = one();
        // Whether a state's chance counts: some chance reaches it and it has not learnt.
        let mut live: Vec<bool> = (0..n).map(|s| s == 0 && !learnt[0]).collect();
        let (mut lost, mut found) = (zero::<Bounds>(), Vec::new());
        for game in 1..=self.games {
            for s in (0..n).filter(|&s| live[s]) {
                if let Some((_, loss)) = &self.walked[s] {
                    lost = lost.add(&now[s].mul(loss));
                }
            }
            let (before, was) = (&now, &live);
            let next: Vec<(Bounds, bool)> = (0..n)
                .into_par_iter()
                .map(|t| {
                    let from = &into[into_start[t] as usize..into_start[t + 1] as usize];
                    let mut sum: Option<Bounds> = None;
                    for &(s, p) in from.iter().filter(|(s, _)| was[*s as usize]) {
                        let part = before[s as usize].mul(&p);
                        sum = Some(sum.unwrap_or_else(zero).add(&part));
                    }
                    (sum.unwrap_or_else(zero), sum.is_some())
                })
                .collect();
            for (t, (p, reached)) in next.into_iter().enumerate() {
                now[t] = p;
                live[t] = reached && !learnt[t];
            }
            if games.contains(&game) {
                found.push(lost.figure().within(0.0, f64::from(game)));
            }
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::fixtures::{self, HER};
    use crate::rule::Rule;
    use matchbox_simulate::{Setup, losses_in_first as sampled};

    #[test]
    fn the_exact_losses_in_the_first_games_agree_with_sampled_machines() {
        let (game, kit) = fixtures::pawns(HER);
        // Under `gardner` the states are finite: every horizon is exact. Rewards make new
        // states game after game: only the first games are.
        for (rule, exactly) in [(Rule::Gardner, 2), (Rule::GardnerReward, 1)] {
            let s = Setup::new(&game, &kit, rule, false).unwrap();
            let exact =
                losses_in_first(&s.tree, &s.machine, OpponentKind::Perfect, &[2, 20]).unwrap();
            assert_eq!(exact.len(), exactly, "{rule:?}");
            let m = sampled(&s, OpponentKind::Perfect, &[2, 20], 40_000, 3).unwrap();
            for (e, m) in exact.iter().zip(&m) {
                let e = e.to_f64();
                assert!(m.low <= e && e <= m.high, "{rule:?}: {e} outside {m:?}");
            }
        }
    }
}
