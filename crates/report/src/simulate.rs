//! What `simulate` prints: fresh machines trained until they learn (`--runs`), or one
//! machine followed over many games (`--games`).

use matchbox_engine::kit::Kit;
use matchbox_engine::rule::Rule;
use matchbox_engine::simulate::{OpponentKind, Session, Training};

use crate::words::Words;

/// What `simulate --runs` prints.
pub fn training_text(
    kit: &Kit,
    rule: Rule,
    opponent: OpponentKind,
    seed: u64,
    max_games: u32,
    t: &Training,
) -> String {
    let words = Words::of(kit);
    let mut out = words.fill(
        "trained",
        &[
            ("name", &kit.name),
            ("runs", &words.count(t.runs, "fresh_machine")),
            ("opponent", &words.opponent(opponent)),
            ("rule", &words.rule(rule)),
            ("seed", &seed.to_string()),
        ],
    );
    out.push('\n');
    if t.side_loses {
        out.push_str(&format!(
            "  {}\n",
            words.fill("side_loses", &[("side", &words.side(kit))])
        ));
    }
    let games = words.number(max_games);
    let learnt = words.number(t.runs - t.unfinished);
    out.push_str(&format!("  {}", words.fill("learnt", &[("n", &learnt)])));
    if t.gave_up > 0 || t.side_loses {
        let (gave_up, still) = (
            words.number(t.gave_up),
            words.number(t.unfinished - t.gave_up),
        );
        out.push_str(&words.fill(
            "gave_up",
            &[
                ("gave_up", &gave_up),
                ("box", &words.first_move_box(kit)),
                ("games", &games),
                ("still", &still),
            ],
        ));
    } else {
        let unfinished = words.number(t.unfinished);
        out.push_str(&words.fill("unfinished", &[("games", &games), ("n", &unfinished)]));
    }
    out.push('\n');
    if let (Some(games), Some(wins)) = (&t.games_to_give_up, &t.wins_before_giving_up) {
        for (key, stats) in [("games_to_give_up", games), ("wins_to_give_up", wins)] {
            let stats = words.stats(stats);
            out.push_str(&format!("  {}\n", words.fill(key, &[("stats", &stats)])));
        }
    }
    if !t.side_loses {
        out.push_str(&learning_words(words, t));
    }
    out
}

/// The losses and games to learn, with the histogram of losses, in the kit's words.
pub(crate) fn learning_words(words: Words, t: &Training) -> String {
    match (&t.losses_to_learn, &t.games_to_learn) {
        (Some(losses), Some(games)) => format!(
            "  {}\n{}  {}\n",
            words.fill("losses_to_learn", &[("stats", &words.stats(losses))]),
            words.histogram(losses, 40),
            words.fill("games_to_learn", &[("stats", &words.stats(games))]),
        ),
        _ => format!("  {}\n", words.fill("none_learnt", &[])),
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
            "results",
            &[("won", &won), ("drew", &drew), ("lost", &lost)],
        )
    };
    let mut out = format!(
        "{}\n  {}\n",
        words.fill(
            "session",
            &[
                ("name", &kit.name),
                ("games", &words.count(s.games, "game")),
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
                "last_games",
                &[
                    ("from", &words.number(from.game + 1)),
                    ("to", &words.number(last.game)),
                    ("results", &tail),
                ],
            ),
            words.fill("first_box", &[("start", &start), ("end", &end)])
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
}
