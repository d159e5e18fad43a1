//! The lines of play of one game from one bead state: the machine's draws with their
//! chances, the opponent's moves (as a rule-following opponent plays them, or free to
//! choose), and the bead state each end of the game leads to.

use rustc_hash::FxHashMap;

use super::Refusal;
use super::numbers::{Number, one, zero};
use crate::game::Rules;
use crate::machine::{Beads, Draw, End, Machine, Node, Tree};
use crate::simulate::{OpponentKind, teacher_moves};

/// Most steps in the lines of play of one game from one state, a bound on memory (a game
/// of noughts and crosses from fresh beads has some 550,000).
pub const MAX_STEPS: usize = 5_000_000;

/// The beads a game left, given to a walk's `intern`, and whether it took some move's last
/// bead (only then can a box fall out of reach: see [`States::lump`]).
type Intern<'a> = dyn FnMut(Beads, bool) -> Result<u32, Refusal> + 'a;

/// One step of the lines of play of a single game from one bead state.
pub(super) enum Step {
    /// The game is over; the machine's beads are now those of `state`.
    End {
        /// The state after the rule was applied.
        state: u32,
        /// Whether the machine lost (or resigned).
        loss: bool,
        /// Whether it won.
        won: bool,
    },
    /// A random choice: a bead drawn, or a rule-following opponent's move among equals.
    Chance(Vec<(u32, u32)>),
    /// An opponent free to choose, with each move and the step it leads to.
    Choice(Vec<(Node, u32)>),
}

/// Every line of play of one game: steps stored children first, so the root is the last.
pub(super) struct Lines {
    pub(super) steps: Vec<Step>,
    /// The state a lost game leads to by its last move, for each last move met.
    pub(super) after_loss: Vec<(u32, u32)>,
}

/// How the opponent moves on a walk: as a rule-following opponent, or free.
#[derive(Clone, Copy)]
pub(super) enum Mover {
    Follows(OpponentKind),
    Free,
}

/// Walks the game from `node` with the machine's beads as in `state`, the slots `used`
/// played so far, and the opponent as `mover`; `intern` numbers the beads after a game.
struct Walk<'a, G: Rules> {
    tree: &'a Tree<G>,
    machine: &'a Machine,
    mover: Mover,
    beads: &'a Beads,
    state: u32,
    used: Vec<u32>,
    steps: Vec<Step>,
    ends: FxHashMap<(u32, bool, bool), u32>,
    /// The state after a lost game, by its last move, for a rule that looks at no other
    /// (see [`Rule::learns_from_last_move`]): a kit of many boxes meets the same few
    /// bead changes at millions of ends, and builds and numbers each only once.
    after_loss: FxHashMap<u32, u32>,
}

impl<G: Rules> Walk<'_, G> {
    fn push(&mut self, step: Step) -> u32 {
        self.steps.push(step);
        self.steps.len() as u32 - 1
    }

    fn end(&mut self, end: End, intern: &mut Intern) -> Result<u32, Refusal> {
        let rule = self.machine.rule;
        let last = self.used.last().copied();
        let known = last.filter(|_| rule.learns_from_last_move() && end.is_loss());
        let state = if !rule.may_change(self.machine, &self.used, end) {
            self.state
        } else if let Some(&state) = known.and_then(|last| self.after_loss.get(&last)) {
            state
        } else {
            let (mut after, mut emptied) = (self.beads.clone(), Vec::new());
            rule.apply(self.machine, &mut after, &self.used, end, &mut emptied);
            let state = if after == *self.beads {
                self.state
            } else {
                intern(after, !emptied.is_empty())?
            };
            if let Some(last) = known {
                self.after_loss.insert(last, state);
            }
            state
        };
        let (loss, won) = (end.is_loss(), end == End::Won);
        if let Some(&step) = self.ends.get(&(state, loss, won)) {
            return Ok(step);
        }
        let step = self.push(Step::End { state, loss, won });
        self.ends.insert((state, loss, won), step);
        Ok(step)
    }

    fn walk(&mut self, node: Node, intern: &mut Intern) -> Result<u32, Refusal> {
        let (tree, machine) = (self.tree, self.machine);
        if let Some(outcome) = tree.outcome(node) {
            return self.end(End::of(outcome, machine.side), intern);
        }
        if self.steps.len() > MAX_STEPS {
            return Err(Refusal(format!(
                "a game from one bead state has more than {MAX_STEPS} lines of play"
            )));
        }
        let mut parts = Vec::new();
        if tree.to_move(node) == machine.side {
            let mut draws = Vec::new();
            machine.draws(self.beads, node, |draw, weight, _| {
                draws.push((draw, weight))
            });
            for (draw, weight) in draws {
                let step = match draw {
                    Draw::Bead { slot, child, .. } => {
                        self.used.push(slot);
                        let step = self.walk(child, intern);
                        self.used.pop();
                        step?
                    }
                    Draw::Forced { child } => self.walk(child, intern)?,
                    Draw::Resign { .. } => self.end(End::Resigned, intern)?,
                };
                parts.push((weight, step));
            }
        } else {
            let moves = match self.mover {
                Mover::Follows(kind) => opponent_moves(kind, tree, node, machine, self.beads),
                Mover::Free => {
                    let mut choice = Vec::new();
                    for &child in tree.children(node) {
                        choice.push((child, self.walk(child, intern)?));
                    }
                    return Ok(self.push(Step::Choice(choice)));
                }
            };
            for child in moves {
                parts.push((1, self.walk(child, intern)?));
            }
        }
        Ok(match parts[..] {
            [(_, only)] => only,
            _ => self.push(Step::Chance(parts)),
        })
    }
}

/// Refuses at once a kit whose first game, from the fresh beads, has more lines of play
/// than a walk may hold: counting them over the positions costs a moment, where the walk
/// would take seconds to fill [`MAX_STEPS`] and give up.
pub(super) fn lines_fit<G: Rules>(
    tree: &Tree<G>,
    machine: &Machine,
    mover: Mover,
) -> Result<(), Refusal> {
    let beads = machine.fresh_beads();
    // Per node: a lower bound on the steps a walk from it stores (its choices and random
    // draws; the game ends, which it stores once each, are left out).
    let mut steps = vec![0u64; tree.len()];
    let order = crate::boxes::topological_order(tree.len(), tree.all_children(), |i| {
        tree.children(i as Node)
    });
    for &node in order.iter().rev() {
        let node = node as Node;
        if tree.outcome(node).is_some() {
            continue;
        }
        let below = |child: Node| steps[child as usize];
        let (mut sum, mut ways) = (0u64, 0u64);
        if tree.to_move(node) == machine.side {
            machine.draws(&beads, node, |draw, _, _| {
                ways += 1;
                if let Draw::Bead { child, .. } | Draw::Forced { child } = draw {
                    sum = sum.saturating_add(below(child));
                }
            });
        } else {
            let moves = match mover {
                Mover::Follows(kind) => opponent_moves(kind, tree, node, machine, &beads),
                Mover::Free => tree.children(node).to_vec(),
            };
            ways = moves.len() as u64;
            sum = moves.iter().fold(0u64, |s, &c| s.saturating_add(below(c)));
            // A free opponent's choice is stored even when it has one move.
            ways += u64::from(matches!(mover, Mover::Free));
        }
        steps[node as usize] = sum.saturating_add(u64::from(ways >= 2));
    }
    // A walk gives up on entering a position with more than MAX_STEPS steps stored; at the
    // last position it enters, all but its own and its ancestors' are.
    if steps[0] > (MAX_STEPS + tree.len()) as u64 {
        return Err(Refusal(format!(
            "a game from one bead state has more than {MAX_STEPS} lines of play"
        )));
    }
    Ok(())
}

/// The moves a rule-following opponent picks from uniformly: the same sets as the
/// simulation's [`super::Automatic`] opponents.
fn opponent_moves<G: Rules>(
    kind: OpponentKind,
    tree: &Tree<G>,
    node: Node,
    machine: &Machine,
    beads: &Beads,
) -> Vec<Node> {
    match kind {
        OpponentKind::Perfect => tree.best_children(node).to_vec(),
        OpponentKind::Teacher => teacher_moves(tree, node, machine, beads).into_owned(),
        _ => tree.children(node).to_vec(),
    }
}

impl Lines {
    /// The lines of one game from `node`, with `used` played so far in it.
    /// `after_loss` holds the states lost games lead to, by their last move, already
    /// known (see [`Walk::after_loss`]).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn walk<G: Rules>(
        tree: &Tree<G>,
        machine: &Machine,
        mover: Mover,
        beads: &Beads,
        state: u32,
        node: Node,
        used: &[u32],
        after_loss: &[(u32, u32)],
        intern: &mut Intern,
    ) -> Result<Lines, Refusal> {
        let mut walk = Walk {
            tree,
            machine,
            mover,
            beads,
            state,
            used: used.to_vec(),
            steps: Vec::new(),
            ends: FxHashMap::default(),
            after_loss: after_loss.iter().copied().collect(),
        };
        walk.walk(node, intern)?;
        let mut after_loss: Vec<(u32, u32)> = walk.after_loss.into_iter().collect();
        after_loss.sort_unstable();
        Ok(Lines {
            steps: walk.steps,
            after_loss,
        })
    }

    /// Every end of the game as `(state, loss)`: each can happen, since the machine draws
    /// only beads it has.
    pub(super) fn end_steps(&self) -> Vec<(u32, bool)> {
        self.steps
            .iter()
            .filter_map(|step| match *step {
                Step::End { state, loss, .. } => Some((state, loss)),
                _ => None,
            })
            .collect()
    }

    /// The chance of each end of the game, the opponent's free choices made by `choose`
    /// (which returns the steps it picks from uniformly): `(state, loss, chance)`; and
    /// the chance that the machine wins.
    pub(super) fn ends<N: Number>(&self, choose: &Picker<'_>) -> (Transitions<N>, N) {
        let mut reach: Vec<Option<N>> = vec![None; self.steps.len()];
        let root = self.steps.len() - 1;
        reach[root] = Some(one());
        let (mut ends, mut wins) = (Vec::new(), zero::<N>());
        let add = |reach: &mut Vec<Option<N>>, step: u32, p: N| {
            let at = &mut reach[step as usize];
            *at = Some(match at.take() {
                Some(q) => q.add(&p),
                None => p,
            });
        };
        // Children come before their parents, so walking backwards meets every step after
        // all the ways into it.
        for i in (0..=root).rev() {
            let Some(here) = reach[i].take() else {
                continue;
            };
            match &self.steps[i] {
                Step::End { state, loss, won } => {
                    if *won {
                        wins = wins.add(&here);
                    }
                    ends.push((*state, *loss, here));
                }
                Step::Chance(parts) => {
                    let total: u32 = parts.iter().map(|p| p.0).sum();
                    for &(weight, step) in parts {
                        add(&mut reach, step, here.mul(&N::ratio(weight, total)));
                    }
                }
                Step::Choice(moves) => {
                    let picked = choose(moves);
                    let share = here.mul(&N::ratio(1, picked.len() as u32));
                    for step in picked {
                        add(&mut reach, step, share.clone());
                    }
                }
            }
        }
        (ends, wins)
    }
}

/// One game from a state: every way it can end, `(state, loss, chance)`.
pub(super) type Transitions<N> = Vec<(u32, bool, N)>;

/// How an opponent free to choose picks among `(move, step)`: the steps it picks from
/// uniformly.
type Picker<'a> = dyn Fn(&[(Node, u32)]) -> Vec<u32> + 'a;
