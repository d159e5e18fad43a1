//! Every exact position of a game reachable from its start, numbered, with its moves,
//! children and minimax value: what the machine is compiled onto.

use rustc_hash::FxHashMap;

use crate::Error;
use crate::game::{Outcome, Rules, Side, score};
use crate::kit::Kit;
use matchbox_words::i18n::id;

/// More exact positions than this and a game is not played through: the largest
/// canonical enumeration ([`crate::boxes::POSITION_BUDGET`]) times the largest board
/// symmetry group (8).
pub const TREE_BUDGET: usize = 8 * crate::boxes::POSITION_BUDGET;

/// A game refused by [`Tree::build`]: more than [`TREE_BUDGET`] exact positions.
#[derive(Debug)]
pub struct TooManyPositions {
    /// The game's name in kit.yaml.
    game: &'static str,
}

impl TooManyPositions {
    /// The refusal as a mistake of `kit`, at the keys that set its game's size and in
    /// its language.
    fn in_kit(self, kit: &Kit) -> Error {
        let say = kit.places.messages;
        kit.places.error(
            &kit.game_keys(),
            say.message(
                id::PROBLEM_TOO_MANY_POSITIONS_TO_PLAY,
                &[
                    ("game", self.game),
                    ("most", &say.number(TREE_BUDGET as i64)),
                ],
            ),
        )
    }
}

/// The value of every position for its side to move (1 win, 0 draw, -1 loss) by
/// minimax, worked backwards from the ends of the game in topological order, without
/// recursion. `children` of `i` are `children[child_start[i]..child_start[i + 1]]`.
fn solve<G: Rules>(
    game: &G,
    positions: &[G::Position],
    child_start: &[u32],
    children: &[Node],
) -> Vec<i8> {
    let n = positions.len();
    let kids = |i: usize| &children[child_start[i] as usize..child_start[i + 1] as usize];
    // Every position before its children (games end), so values go backwards.
    let order = crate::boxes::topological_order(n, children, kids);
    let mut value = vec![0i8; n];
    for &i in order.iter().rev() {
        let position = &positions[i];
        value[i] = match game.outcome(position) {
            Some(outcome) => score(outcome, game.to_move(position)),
            None => kids(i)
                .iter()
                .map(|&c| -value[c as usize])
                .max()
                .unwrap_or(-1),
        };
    }
    value
}

/// A position index in a [`Tree`]; 0 is the start.
pub type Node = u32;

/// Every exact position reachable from the start, numbered, with its moves, its
/// children and its value under exact minimax.
pub struct Tree<G: Rules> {
    /// The positions, in breadth-first order from the start.
    pub positions: Vec<G::Position>,
    to_move: Vec<Side>,
    outcome: Vec<Option<Outcome>>,
    /// Children of node `i` are `children[child_start[i]..child_start[i + 1]]`, in the
    /// order the game lists its legal moves; `moves` holds the move to each.
    child_start: Vec<u32>,
    children: Vec<Node>,
    moves: Vec<G::Move>,
    /// Value for the side to move: 1 win, 0 draw, -1 loss.
    value: Vec<i8>,
    /// The children of best value for the side to move, flat like `children`.
    best_start: Vec<u32>,
    best: Vec<Node>,
}

impl<G: Rules> Tree<G> {
    /// [`Tree::build`] of `kit`'s game, a game too large to play through refused as a
    /// mistake of the kit.
    pub fn of_kit(game: &G, kit: &Kit) -> Result<Tree<G>, Error> {
        Tree::build(game).map_err(|e| e.in_kit(kit))
    }

    /// Enumerates every position reachable from the start, breadth first, and solves
    /// the game backwards from its ends; refuses a game of more than [`TREE_BUDGET`]
    /// positions.
    pub fn build(game: &G) -> Result<Tree<G>, TooManyPositions> {
        let start = game.start();
        let mut ids: FxHashMap<G::Position, Node> = FxHashMap::default();
        ids.insert(start.clone(), 0);
        let mut positions = vec![start];
        let mut child_start = vec![0u32];
        let (mut children, mut moves, mut legal) = (Vec::new(), Vec::new(), Vec::new());
        let mut next = 0;
        while next < positions.len() {
            let position = positions[next].clone();
            legal.clear();
            game.legal_moves(&position, &mut legal);
            for &mv in &legal {
                let child = game.play(&position, mv);
                let id = match ids.get(&child) {
                    Some(&id) => id,
                    None => {
                        if positions.len() >= TREE_BUDGET {
                            return Err(TooManyPositions { game: G::NAME });
                        }
                        ids.insert(child.clone(), positions.len() as Node);
                        positions.push(child);
                        (positions.len() - 1) as Node
                    }
                };
                children.push(id);
                moves.push(mv);
            }
            child_start.push(children.len() as u32);
            next += 1;
        }
        let value = solve(game, &positions, &child_start, &children);
        let mut best_start = vec![0u32];
        let mut best = Vec::new();
        for i in 0..positions.len() {
            let kids = &children[child_start[i] as usize..child_start[i + 1] as usize];
            let top = kids.iter().map(|&c| -value[c as usize]).max();
            best.extend(kids.iter().filter(|&&c| Some(-value[c as usize]) == top));
            best_start.push(best.len() as u32);
        }
        Ok(Tree {
            to_move: positions.iter().map(|p| game.to_move(p)).collect(),
            outcome: positions.iter().map(|p| game.outcome(p)).collect(),
            positions,
            child_start,
            children,
            moves,
            value,
            best_start,
            best,
        })
    }

    /// How many positions there are.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Whether the tree is empty (never: it holds the start).
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// Whose turn it is at `node`.
    pub fn to_move(&self, node: Node) -> Side {
        self.to_move[node as usize]
    }

    /// The result if the game is over at `node`.
    pub fn outcome(&self, node: Node) -> Option<Outcome> {
        self.outcome[node as usize]
    }

    /// The positions one move after `node`, in the game's order of legal moves.
    pub fn children(&self, node: Node) -> &[Node] {
        let i = node as usize;
        &self.children[self.child_start[i] as usize..self.child_start[i + 1] as usize]
    }

    /// Every node's children, one after another (each node's are [`Tree::children`]).
    pub fn all_children(&self) -> &[Node] {
        &self.children
    }

    /// The legal moves at `node`, in the same order as [`Tree::children`].
    pub fn moves(&self, node: Node) -> &[G::Move] {
        let i = node as usize;
        &self.moves[self.child_start[i] as usize..self.child_start[i + 1] as usize]
    }

    /// The move that leads from `node` to its child `child`.
    pub fn move_to(&self, node: Node, child: Node) -> Option<G::Move> {
        let at = self.children(node).iter().position(|&c| c == child)?;
        Some(self.moves(node)[at])
    }

    /// The value of `node` under exact minimax for the side to move: 1, 0 or -1.
    pub fn value(&self, node: Node) -> i8 {
        self.value[node as usize]
    }

    /// The children of best value for the side to move at `node`.
    pub fn best_children(&self, node: Node) -> &[Node] {
        let i = node as usize;
        &self.best[self.best_start[i] as usize..self.best_start[i + 1] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_too_large_to_play_through_is_a_mistake_at_its_keys_in_the_kits_language() {
        let kit = Kit::from_yaml("game: nim\nheaps: [3, 3]\nlanguage: pl\n", "kit.yaml").unwrap();
        let Error::Kit(problem) = (TooManyPositions { game: "nim" }).in_kit(&kit) else {
            panic!("a kit's mistake");
        };
        let message = problem.to_string();
        assert!(
            message.starts_with(
                "kit.yaml:2:8: gra nim w tej wersji ma ponad 8\u{202f}000\u{202f}000 sytuacji"
            ),
            "{message}"
        );
    }
}
