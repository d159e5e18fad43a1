//! Each game's value under best play, as the tree works it out: the games' tests that
//! need the machine's tree.

use matchbox_games::kayles::Kayles;
use matchbox_games::nim::Nim;
use matchbox_games::tictactoe::TicTacToe;

use crate::Tree;

#[test]
fn the_first_player_wins_any_row_by_splitting_it_in_two_equal_rows() {
    for pins in 1..=9 {
        let tree = Tree::build(&Kayles::new(pins)).unwrap();
        assert_eq!(tree.value(0), 1, "{pins} pins");
    }
}

#[test]
fn eight_stones_is_lost_for_the_first_player() {
    let value = |stones| {
        let game = Nim::new(vec![stones], vec![1, 2, 3], true);
        Tree::build(&game).unwrap().value(0)
    };
    assert_eq!(value(8), -1);
    assert_eq!(value(9), 1);
    let marienbad = Tree::build(&Nim::new(vec![1, 3, 5, 7], Vec::new(), false)).unwrap();
    assert_eq!(marienbad.value(0), -1, "the nim-sum of 1, 3, 5 and 7 is 0");
}

#[test]
fn noughts_and_crosses_is_a_draw() {
    let tree = Tree::build(&TicTacToe).unwrap();
    assert_eq!(tree.value(0), 0);
}
