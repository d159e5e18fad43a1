//! Each game's own kit.yaml keys, checked where they are written and read into its
//! settings: the games' tests that need the kit which holds them.

use matchbox_games::Side;

use crate::game::AnyGame;
use crate::{Kit, input_error as err};

#[test]
fn hexapawns_keys_are_checked_where_they_are_written() {
    assert!(
        err("game: hexapawn\nrows: 2\n")
            .starts_with("kit.yaml:2:7: rows must be from 3 to 8, not 2")
    );
    let wrong_type = err("game: hexapawn\nrows: three\n");
    assert!(
        wrong_type.starts_with("kit.yaml:2:7: rows: expected a whole number from 3 to 8"),
        "{wrong_type}"
    );
    assert!(err("game: hexapawn\nstones: 8\n").contains("does not apply to hexapawn"));
}

#[test]
fn pins_are_checked_where_they_are_written() {
    let wrong = err("game: kayles\npins: 13\n");
    assert!(
        wrong.starts_with("kit.yaml:2:7: pins must be from 1 to 12"),
        "{wrong}"
    );
    let kit = Kit::from_preset("kayles").unwrap();
    assert_eq!(
        serde_json::to_value(&kit.game).unwrap(),
        serde_json::json!({"kind": "kayles", "pins": 7})
    );
}

#[test]
fn nims_keys_are_checked_where_they_are_written() {
    assert!(
        err("game: nim\nstones: 0\n").starts_with("kit.yaml:2:9: stones must be from 1 to 1000")
    );
    assert!(err("game: nim\ntake: []\n").starts_with("kit.yaml:2:7:"));
    assert!(err("game: nim\ntake: [0, 1]\n").contains("from 1 to 1000, not 0"));
    assert!(err("game: nim\nheaps: [1, 2]\nstones: 3\n").starts_with("kit.yaml:2:8: give either"));
    assert!(
        err("game: nim\nheaps: [1, 2, 3, 4, 5, 6]\n")
            .starts_with("kit.yaml:2:8: heaps: from 1 to 5 heaps")
    );
    assert!(
        err("game: nim\nheaps: [1, 0]\n").contains("every heap must hold from 1 to 1000, not 0")
    );
    assert!(
        err("game: nim\nheaps: [2, 3]\ntake: [4]\n")
            .contains("more than the 3 stones of the largest heap")
    );
    assert!(err("game: nim\nheaps: [2, 3]\nallowed: {3: [1]}\n").contains("one heap"));
    let wrong = err("game: nim\nheaps: three\n");
    assert!(
        wrong.starts_with("kit.yaml:2:8: heaps: expected a list of 1 to 5"),
        "{wrong}"
    );
}

#[test]
fn the_marienbad_preset_is_the_films_game() {
    let kit = Kit::from_preset("marienbad").unwrap();
    let AnyGame::Nim(game) = &kit.game else {
        panic!("{:?}", kit.game)
    };
    assert!(game.is_marienbad());
    assert_eq!(kit.machine, Side::Second);
    assert_eq!(
        serde_json::to_value(&kit.game).unwrap(),
        serde_json::json!({"kind": "nim", "heaps": [1, 3, 5, 7], "take": [1, 2, 3, 4, 5, 6, 7], "last_stone": "loses"})
    );
}
