//! The losses in a machine's first games, worked out exactly: the chance of each bead
//! state carried forward game by game. A horizon keeps the states finite under any rule,
//! also those that add beads (`gardner-reward`), as long as they stay few enough.

use super::Refusal;
use super::chain::finite_rule;
use super::lines::{Lines, Mover, Transitions, Walker, lines_fit};
use super::numbers::{Bounds, Figure, Number, one, zero};
use super::states::States;
use crate::game::Rules;
use crate::machine::{Machine, Tree};
use crate::simulate::OpponentKind;

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
    let mover = Mover::Follows(opponent);
    lines_fit(tree, machine, mover)?;
    // A rule that adds beads makes new states game after game (HER under `gardner-reward`
    // meets over 100,000 in its first 20 games): it is given up on early.
    let most = if finite_rule(machine).is_ok() {
        usize::MAX
    } else {
        REWARD_STATES
    };
    let mut states = States::new(tree, machine, true);
    let (mut walker, mut lines, mut reach) = (
        Walker::new(tree, machine, mover),
        Lines::default(),
        Vec::new(),
    );
    // Per state met: one game's ends and the chance that it is lost, once walked.
    let mut walked: Vec<Option<(Transitions<Bounds>, Bounds)>> = Vec::new();
    let mut now: Vec<Bounds> = vec![one()];
    let (mut lost, mut found) = (zero::<Bounds>(), Vec::new());
    for game in 1..=games.last().copied().unwrap_or(0) {
        let mut next: Vec<Bounds> = Vec::new();
        for s in 0..now.len() {
            if now[s].high == 0.0 || states.learnt[s] {
                continue;
            }
            if states.beads.len() > most {
                return Ok(found);
            }
            walked.resize_with(states.beads.len(), || None);
            if walked[s].is_none() {
                let beads = states.beads[s].clone();
                let mut interning = states.interning(tree, machine);
                if walker
                    .walk(&mut lines, &beads, s as u32, 0, &[], &mut interning)
                    .is_err()
                {
                    return Ok(found);
                }
                let (ends, _) = lines.ends::<Bounds>(&mut |_, _| {}, &mut reach);
                let loss = ends
                    .iter()
                    .filter(|t| t.1)
                    .fold(zero::<Bounds>(), |sum, t| sum.add(&t.2));
                walked[s] = Some((ends, loss));
            }
            let Some((ends, loss)) = &walked[s] else {
                continue;
            };
            lost = lost.add(&now[s].mul(loss));
            next.resize(states.beads.len(), zero());
            for (t, _, p) in ends {
                let t = *t as usize;
                next[t] = next[t].add(&now[s].mul(p));
            }
        }
        now = next;
        if games.contains(&game) {
            found.push(lost.figure().within(0.0, f64::from(game)));
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::fixtures::{self, HER};
    use crate::rule::Rule;
    use crate::simulate::{Setup, losses_in_first as sampled};

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
