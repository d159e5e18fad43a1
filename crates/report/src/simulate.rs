//! What `simulate` prints: fresh machines trained until they learn (`--runs`), or one
//! machine followed over many games (`--games`).

use matchbox_engine::game::Descriptor;
use matchbox_engine::i18n::id;
use matchbox_engine::kit::Kit;
use matchbox_engine::rule::Rule;
use matchbox_engine::simulate::{OpponentKind, Session, Training};
use matchbox_engine::with_game;

use crate::words::Words;

/// What `simulate --runs` prints.
pub fn training_text(
    kit: &Kit,
    rule: Rule,
    opponent: OpponentKind,
    seed: u64,
    t: &Training,
) -> String {
    let words = Words::of(kit);
    // "Each trained until it learns" only where one did.
    let header = if t.unfinished == t.runs {
        id::CLI_TRAINED_NONE_LEARNT
    } else {
        id::CLI_TRAINED
    };
    let mut out = words.fill(
        header,
        &[
            ("name", &kit.name),
            (
                "runs",
                &words.count(t.runs, id::PROBLEM_COUNT_FRESH_MACHINE),
            ),
            ("opponent", &words.opponent(opponent)),
            ("rule", &words.rule(rule)),
            ("seed", &seed.to_string()),
        ],
    );
    out.push('\n');
    if t.side_loses {
        out.push_str(&format!(
            "  {}\n",
            words.fill(id::CLI_SIDE_LOSES, &[("side", &words.side(kit))])
        ));
    }
    let games = words.number(t.max_games);
    let learnt = words.number(t.runs - t.unfinished);
    out.push_str(&format!(
        "  {}",
        words.fill(id::CLI_LEARNT, &[("n", &learnt)])
    ));
    if t.gave_up > 0 || t.side_loses {
        let (gave_up, still) = (
            words.number(t.gave_up),
            words.number(t.unfinished - t.gave_up),
        );
        out.push_str(&words.fill(
            id::CLI_GAVE_UP,
            &[
                ("gave_up", &gave_up),
                ("box", &words.first_move_box(kit)),
                ("games", &games),
                ("still", &still),
            ],
        ));
    } else {
        let unfinished = words.number(t.unfinished);
        out.push_str(&words.fill(id::CLI_UNFINISHED, &[("games", &games), ("n", &unfinished)]));
    }
    out.push('\n');
    if let Some(share) = &t.drawn_share {
        out.push_str(&format!(
            "  {}\n",
            words.fill(
                id::CLI_DRAWN,
                &[("share", &words.estimate(share, 100.0, true))]
            )
        ));
    }
    if let Some(games) = &t.games_to_give_up {
        let stats = words.stats(games);
        out.push_str(&format!(
            "  {}\n",
            words.fill(id::CLI_GAMES_TO_GIVE_UP, &[("stats", &stats)])
        ));
        out.push_str(&results_before_giving_up(kit, words, t));
    }
    if !t.side_loses {
        out.push_str(&learning_words(words, t));
    }
    out
}

/// What the machines that gave up got from their games until then: the draws in a game
/// that has them, the wins in one that has none (a perfect opponent leaves a machine
/// neither), said in words where no machine got one.
fn results_before_giving_up(kit: &Kit, words: Words, t: &Training) -> String {
    let can_draw = with_game!(&kit.game, |game| game.can_draw());
    let (results, stats, none) = if can_draw {
        (
            id::CLI_DRAWS_TO_GIVE_UP,
            &t.draws_before_giving_up,
            id::CLI_NONE_DRAWN_BEFORE_GIVING_UP,
        )
    } else {
        (
            id::CLI_WINS_TO_GIVE_UP,
            &t.wins_before_giving_up,
            id::CLI_NONE_WON_BEFORE_GIVING_UP,
        )
    };
    match stats {
        Some(s) if s.max > 0 => {
            format!("  {}\n", words.fill(results, &[("stats", &words.stats(s))]))
        }
        Some(_) => format!("  {}\n", words.fill(none, &[])),
        None => String::new(),
    }
}

/// The losses and games to learn, with the histogram of losses, in the kit's words.
pub(crate) fn learning_words(words: Words, t: &Training) -> String {
    match (&t.losses_to_learn, &t.games_to_learn) {
        (Some(losses), Some(games)) => format!(
            "  {}\n{}  {}\n",
            words.fill(id::CLI_LOSSES_TO_LEARN, &[("stats", &words.stats(losses))]),
            words.histogram(losses, 40),
            words.fill(id::CLI_GAMES_TO_LEARN, &[("stats", &words.stats(games))]),
        ),
        _ => format!(
            "  {}\n",
            words.fill(
                id::CLI_NONE_LEARNT,
                &[
                    ("games", &words.count(t.max_games, id::PROBLEM_COUNT_GAME)),
                    ("n", &words.number(t.max_games)),
                ],
            )
        ),
    }
}

/// What `simulate --games` prints.
pub fn session_text(
    kit: &Kit,
    rule: Rule,
    opponent: OpponentKind,
    seed: u64,
    s: &Session,
) -> String {
    let words = Words::of(kit);
    let results = |won: u32, drew: u32, lost: u32| {
        let [won, drew, lost] = [won, drew, lost].map(|n| words.number(n));
        words.fill(
            id::CLI_RESULTS,
            &[("won", &won), ("drew", &drew), ("lost", &lost)],
        )
    };
    let mut out = format!(
        "{}\n  {}\n",
        words.fill(
            id::CLI_SESSION,
            &[
                ("name", &kit.name),
                ("games", &words.count(s.games, id::PROBLEM_COUNT_GAME)),
                ("opponent", &words.opponent(opponent)),
                ("rule", &words.rule(rule)),
                ("seed", &seed.to_string()),
            ],
        ),
        results(s.wins, s.draws, s.losses)
    );
    if let (Some(first), Some(last)) = (s.curve.first(), s.curve.last()) {
        // The last tenth of the curve shows what the machine has become.
        let from = s
            .curve
            .iter()
            .rev()
            .find(|p| p.game <= last.game - last.game / 10)
            .unwrap_or(first);
        let tail = results(
            last.wins - from.wins,
            last.draws - from.draws,
            last.losses - from.losses,
        );
        let (start, end) = (
            words.number(first.first_box_beads),
            words.number(last.first_box_beads),
        );
        out.push_str(&format!(
            "  {}\n  {}\n",
            words.fill(
                id::CLI_LAST_GAMES,
                &[
                    ("from", &words.number(from.game + 1)),
                    ("to", &words.number(last.game)),
                    ("results", &tail),
                ],
            ),
            words.fill(id::CLI_FIRST_BOX, &[("start", &start), ("end", &end)])
        ));
    }
    out
}

/// The title of the learning curve that `simulate --games --plot` draws (in English, as
/// the plot has always been titled: the kit's name, the games, the opponent, the rule).
pub fn plot_title(kit: &Kit, games: u32, opponent: OpponentKind, rule: Rule) -> String {
    format!(
        "{}: {} games against a {} opponent, rule {}",
        kit.name,
        games,
        opponent.name(),
        rule.name()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use matchbox_engine::i18n::Language;
    use matchbox_engine::simulate::stats::{Estimate, Stats};

    #[test]
    fn the_plot_is_titled_by_the_kit_games_opponent_and_rule() {
        let kit = Kit::from_preset("bachet-relay").unwrap();
        let title = plot_title(&kit, 300, OpponentKind::Random, Rule::Relay);
        assert!(
            title.starts_with(&format!(
                "{}: 300 games against a random opponent, rule relay",
                kit.name
            )),
            "{title}"
        );
    }

    /// Ten machines that all gave up after 30 games, with these wins and draws each.
    fn gave_up(wins: u32, draws: u32) -> Training {
        Training {
            runs: 10,
            max_games: 100,
            unfinished: 10,
            unfinished_share: Estimate::share(10, 10),
            losses_to_learn: None,
            games_to_learn: None,
            side_loses: false,
            gave_up: 10,
            games_to_give_up: Stats::of(&[30; 10]),
            wins_before_giving_up: Stats::of(&[wins; 10]),
            draws_before_giving_up: Stats::of(&[draws; 10]),
            drawn_share: None,
        }
    }

    #[test]
    fn machines_that_gave_up_are_told_by_their_draws_or_wins_and_none_in_words() {
        for (language, preset, t, said) in [
            (
                Language::En,
                "menace",
                gave_up(0, 4),
                "games drawn until then: min 4",
            ),
            (
                Language::En,
                "menace",
                gave_up(3, 0),
                "none of them drew a game before",
            ),
            (
                Language::En,
                "hexapawn-first",
                gave_up(2, 0),
                "games won until then: min 2",
            ),
            (
                Language::Pl,
                "hexapawn-first",
                gave_up(0, 0),
                "żadna z nich nie wygrała",
            ),
            (
                Language::Ru,
                "menace",
                gave_up(0, 0),
                "ни одна из них не сыграла вничью",
            ),
        ] {
            let yaml = format!("preset: {preset}\nlanguage: {}\n", language.code());
            let kit = Kit::from_yaml(&yaml, "kit.yaml").unwrap();
            let text = training_text(&kit, kit.rule, OpponentKind::Perfect, 1, &t);
            // Words apart as a reader sees them, whatever spaces line them up.
            let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
            assert!(words.contains(said), "{said}\n{text}");
            // None learnt: the header says they played, not that each was trained to the end.
            for wrong in ["trained against", "uczona do skutku", "обучается до конца"]
            {
                assert!(!text.contains(wrong), "{text}");
            }
        }
    }
}
