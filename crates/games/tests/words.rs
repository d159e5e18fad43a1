//! Every game and preset has the words that the code written once for every game asks
//! for by the game's or the preset's name.

use matchbox_games::GAMES;
use matchbox_words::i18n::{Id, Named};

#[test]
fn every_game_and_preset_has_the_words_the_generic_code_asks_for() {
    // Words found by a game's or a preset's name: the classroom screen's prompt, the
    // default kit names, the preset names. Every id is in every language (the words
    // crate's `every_id_has_its_words_in_every_language`).
    for game in GAMES {
        let your_move = format!("page.your_move.{}", game.name);
        assert!(Id::find(&your_move).is_some(), "{your_move}");
        assert!(Named::KitName.id(game.name).is_some(), "{}", game.name);
        for preset in game.presets {
            assert!(Named::Preset.id(preset.name).is_some(), "{}", preset.name);
        }
    }
}
