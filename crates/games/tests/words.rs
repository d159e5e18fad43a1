//! Every game and preset has the words that the code written once for every game asks
//! for by the game's or the preset's name.

use matchbox_games::GAMES;
use matchbox_words::i18n::{Language, strings};

#[test]
fn every_game_and_preset_has_the_words_the_generic_code_asks_for() {
    // Keys built from a game's or a preset's name: the classroom screen's prompt,
    // the default kit names.
    for language in Language::ALL {
        let s = strings(language);
        for game in GAMES {
            let keys = [
                format!("page.your_move.{}", game.name),
                format!("name.{}", game.name),
            ]
            .into_iter()
            .chain(game.presets.iter().map(|p| format!("preset.{}", p.name)));
            for key in keys {
                assert!(s.keys().any(|k| k == key), "{language:?}: {key}");
            }
        }
    }
}
