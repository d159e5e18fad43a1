//! The words of the printed kit: a game's partials fit the grammatical slots of the
//! shared pages (templates/README.md, "Grammatical slots"), the shared pages name no game
//! or historic machine, and a kit whose side loses says so.

use matchbox_engine::boxes::BoxSet;
use matchbox_engine::game::{Descriptor, Notation};
use matchbox_engine::i18n::Language;
use matchbox_engine::i18n::template_folder;
use matchbox_engine::kit::{Kit, presets};
use matchbox_engine::simulate::Setup;
use matchbox_engine::simulate::side_loses;
use matchbox_engine::with_game;
use matchbox_print::instructions::{Findings, GivesUp, SECTIONS, TemplateContext, render};
use matchbox_print::pictures::Game;

fn kit(preset: &str, language: Language) -> Kit {
    Kit::from_yaml(
        &format!("preset: {preset}\nlanguage: {}\n", language.code()),
        "test",
    )
    .unwrap()
}

/// Every section of a kit, rendered with `findings`.
fn sections<G: Game>(game: &G, kit: &Kit, findings: &Findings) -> Vec<String> {
    let set = BoxSet::build(game, kit).unwrap();
    let ctx = TemplateContext::new(game, kit, &set, findings);
    SECTIONS
        .iter()
        .map(|s| render(kit.language, game.name(), s, &ctx).unwrap())
        .collect()
}

/// Whether the machine's side loses its game against best play.
fn side_loses_in<G: Notation + Descriptor>(game: &G, kit: &Kit) -> bool {
    let setup = Setup::new(game, kit, kit.rule, false).unwrap();
    side_loses(&setup.tree, kit.machine)
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Gender {
    Feminine,
    NotFeminine,
}

/// The words of the pl and ru partials whose gender shows: quantifiers and adjectives
/// (by their endings) and the nouns they may come before (by their stems).
fn modifier(word: &str) -> Option<Gender> {
    const FEMININE: [&str; 9] = [
        "każda",
        "każdej",
        "każdą",
        "kolorowa",
        "kolorowej",
        "kolorową",
        "каждая",
        "каждую",
        "цветную",
    ];
    const NOT_FEMININE: [&str; 11] = [
        "każdy",
        "każdego",
        "każdym",
        "każde",
        "kolorowy",
        "kolorowego",
        "kolorowym",
        "каждый",
        "каждого",
        "цветного",
        "цветный",
    ];
    if FEMININE.contains(&word) || word == "каждой" || word == "цветная" {
        Some(Gender::Feminine)
    } else if NOT_FEMININE.contains(&word) {
        Some(Gender::NotFeminine)
    } else {
        None
    }
}

fn noun(word: &str) -> Option<Gender> {
    let feminine = ["strzałk", "strzałc", "kropk", "kropc", "стрелк", "точк"];
    let not_feminine = [
        "kamyk",
        "kamycz",
        "pudeł",
        "камеш",
        "кружок",
        "кружк",
        "коробок",
    ];
    if feminine.iter().any(|s| word.starts_with(s)) {
        Some(Gender::Feminine)
    } else if not_feminine.iter().any(|s| word.starts_with(s)) {
        Some(Gender::NotFeminine)
    } else {
        None
    }
}

/// The places where a quantifier or adjective does not agree with the noun after it.
fn disagreements(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    let mut found = Vec::new();
    // A quantifier agrees with a noun of its own phrase: punctuation ends the phrase
    // (`każdy — strzałką`: each move, drawn as an arrow).
    for phrase in lower.split(|c: char| !c.is_alphabetic() && !c.is_whitespace()) {
        let words: Vec<&str> = phrase.split_whitespace().collect();
        for (i, word) in words.iter().enumerate() {
            let Some(gender) = modifier(word) else {
                continue;
            };
            // The noun is the first word after the quantifier that is not a modifier.
            let next = words[i + 1..].iter().find(|w| modifier(w).is_none());
            if let Some(next) = next
                && let Some(of_noun) = noun(next)
                && of_noun != gender
            {
                found.push(format!("{word} … {next}"));
            }
        }
    }
    found
}

#[test]
fn the_agreement_check_finds_the_errors_it_is_for() {
    assert_eq!(
        disagreements("Każda kolorowy kamyk ma literę; dla każdej kolorowego kamyka"),
        ["każda … kamyk", "każdej … kamyka"]
    );
    assert!(disagreements("Każdy kolorowy kamyk; на каждую цветную точку").is_empty());
    assert!(disagreements("все ходы, каждый — стрелкой своего цвета").is_empty());
    assert_eq!(disagreements("на каждый точку"), ["каждый … точку"]);
}

#[test]
fn polish_and_russian_partials_agree_with_the_pages_around_them() {
    for preset in presets() {
        for language in [Language::Pl, Language::Ru] {
            let kit = kit(preset.name, language);
            for loses in [false, true] {
                let findings = Findings {
                    loses,
                    ..Findings::default()
                };
                for page in with_game!(&kit.game, |game| sections(game, &kit, &findings)) {
                    let wrong = disagreements(&page);
                    assert!(wrong.is_empty(), "{} {language:?}: {wrong:?}", preset.name);
                }
            }
        }
    }
}

#[test]
fn the_shared_pages_name_no_game_and_no_historic_machine() {
    for language in Language::ALL {
        let folder = format!("{}/", language.code());
        for (path, text) in template_folder(&folder).filter(|(p, _)| !p.contains('/')) {
            for word in ["history ==", "HER", "HIM", "Igoshev", "Игошев", "Igoszew"] {
                assert!(
                    !text.contains(word),
                    "{folder}{path} names `{word}`: that belongs in a game's partial"
                );
            }
        }
    }
}

#[test]
fn every_game_gives_every_partial_the_shared_pages_include() {
    for language in Language::ALL {
        let code = language.code();
        let shared: String = template_folder(&format!("{code}/"))
            .filter(|(path, _)| !path.contains('/'))
            .map(|(_, text)| text)
            .collect();
        // Every `{% include "game/NAME" %}` of the shared pages.
        let included: std::collections::BTreeSet<&str> = shared
            .split("\"game/")
            .skip(1)
            .filter_map(|rest| rest.split('"').next())
            .collect();
        assert!(included.contains("teacher-notes.md"), "{included:?}");
        let files: Vec<&str> = template_folder(&format!("{code}/games/"))
            .map(|(path, _)| path)
            .collect();
        let games: std::collections::BTreeSet<&str> = files
            .iter()
            .filter_map(|p| p.split_once('/'))
            .map(|(game, _)| game)
            .collect();
        for game in games {
            for name in &included {
                assert!(
                    files.contains(&format!("{game}/{name}").as_str()),
                    "{code}/games/{game}/ has no {name}"
                );
            }
        }
    }
}

#[test]
fn a_kit_whose_side_loses_says_what_happens() {
    for (preset, loses) in [
        ("hexapawn", false),
        ("hexapawn-first", true),
        ("bachet", false),
        ("bachet-relay", false),
        ("menace-second", false),
    ] {
        let kit = kit(preset, Language::En);
        assert_eq!(
            with_game!(&kit.game, |game| side_loses_in(game, &kit)),
            loses,
            "{preset}"
        );
    }
    for (language, says, figures) in [
        (
            Language::En,
            "gives up at its first move",
            "for good after 12 games on average; against one who plays at random, after 43 games on average, of which the machine itself wins about 28.",
        ),
        (
            Language::Pl,
            "poddaje się już przy pierwszym ruchu",
            "na dobre przy pierwszym ruchu średnio po 12 partiach, a z graczem losowym (grającym na chybił trafił) – średnio po 43 partiach, z których sama maszyna wygrywa około 28.",
        ),
        (
            Language::Ru,
            "сдаётся уже на первом ходу",
            "окончательно сдаётся на первом ходу в среднем после 12 партий, а против соперника, который ходит наугад, — в среднем после 43 партий, из которых сама машина выигрывает около 28.",
        ),
    ] {
        let kit = kit("hexapawn-first", language);
        let findings = Findings {
            loses: true,
            gives_up: Some(GivesUp {
                exact: true,
                perfect_games: 12,
                random_games: Some(43),
                random_wins: Some(28),
            }),
            ..Findings::default()
        };
        let teacher = &with_game!(&kit.game, |game| sections(game, &kit, &findings))[3];
        assert!(teacher.contains(says), "{language:?}:\n{teacher}");
        let flat = teacher.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains(figures), "{language:?}:\n{flat}");
        // Nothing promises that a strong opponent teaches it fastest.
        assert!(!teacher.contains("fastest"), "{teacher}");
    }
}
