//! Every game has every partial the pages include, in every language: a missing one is
//! found here, not when a kit of that game and language is rendered.

use matchbox_engine::game::GAMES;
use matchbox_engine::i18n::{Language, template_file, template_folder};

/// The partials (`game/NAME.md`) that a language's own pages include.
fn partials_included(language: Language) -> Vec<String> {
    let mut names: Vec<String> = template_folder(&format!("{}/", language.code()))
        .filter(|(path, _)| !path.contains('/') && path.ends_with(".md"))
        .flat_map(|(_, text)| text.split("\"game/").skip(1))
        .filter_map(|rest| Some(rest.split_once('"')?.0.to_string()))
        .collect();
    names.sort();
    names.dedup();
    names
}

#[test]
fn every_game_has_every_partial_in_every_language() {
    for language in Language::ALL {
        let partials = partials_included(language);
        assert!(partials.len() > 10, "{language:?}: {partials:?}");
        for game in GAMES {
            for partial in &partials {
                let path = format!("{}/games/{}/{partial}", language.code(), game.name);
                assert!(template_file(&path).is_some(), "{path} is missing");
            }
        }
    }
}
