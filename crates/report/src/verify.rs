//! What `verify` prints: the checks, then the articles' claim beside the exact figures
//! or the machines trained, then the reward claim.

use matchbox_engine::i18n::{figures, id};
use matchbox_engine::kit::Kit;
use matchbox_engine::rule::Rule;
use matchbox_engine::simulate::exact::{
    Arithmetic, Distribution, GivingUp, Measure, RATIONAL_STATES,
};
use matchbox_engine::simulate::verify::{
    CannotLearn, ClaimCheck, Proof, RewardCheck, StricterCheck, Verdict,
};
use matchbox_engine::simulate::watch::{STREAK, Watch};
use matchbox_engine::simulate::{EXPECTATION_RUNS, EXPECTATION_SEED, OpponentKind, Training};

use crate::simulate::learning_words;
use crate::words::{GAMES_PLACES, LOSSES_PLACES, Words};

/// What `verify` prints, in the kit's language: the checks, then the claim beside the
/// measurement, then the reward claim.
pub fn verdict_text(kit: &Kit, verdict: &Verdict) -> String {
    let words = Words::of(kit);
    let mut out = verdict_body(words, kit, verdict);
    if let Some(r) = &verdict.reward {
        out.push_str(&reward_text(words, r));
        out.push_str(&format!("  {}\n", run_text(words, verdict, true)));
    }
    out
}

/// Which run the sampled figures are: the booklet's own, whose figures they reproduce
/// (`opponent_matches`: against the booklet's opponents), or another, labelled as such.
fn run_text(words: Words, verdict: &Verdict, opponent_matches: bool) -> String {
    let runs = words.number(EXPECTATION_RUNS);
    let seed = EXPECTATION_SEED.to_string();
    let booklet = [("runs", runs.as_str()), ("seed", seed.as_str())];
    if verdict.booklet_run && opponent_matches {
        words.fill(id::CLI_VERIFY_BOOKLET_RUN, &booklet)
    } else {
        words.fill(id::CLI_VERIFY_OTHER_RUN, &booklet)
    }
}

/// The reward claim's table: the losses in the first games under each rule.
fn reward_text(words: Words, r: &RewardCheck) -> String {
    let mut out = format!(
        "\n{}\n  {}\n  {}\n",
        words.fill(
            id::CLI_VERIFY_REWARD,
            &[("source", &words.said(&r.claim.source))]
        ),
        words.fill(
            id::CLI_VERIFY_CLAIMED,
            &[("text", &words.said(&r.claim.text))]
        ),
        words.fill(id::CLI_VERIFY_REWARD_ROWS, &[]),
    );
    for row in &r.rows {
        let fewer = match row.fewer {
            Some(true) => id::CLI_VERIFY_REWARD_FEWER,
            Some(false) => id::CLI_VERIFY_REWARD_MORE,
            None => id::CLI_VERIFY_REWARD_TOO_CLOSE,
        };
        out.push_str(&format!(
            "  {}\n",
            words.fill(
                id::CLI_VERIFY_REWARD_ROW,
                &[
                    ("opponent", &words.opponent(row.opponent)),
                    ("games", &row.games.to_string()),
                    ("without", &words.measure(&row.gardner, 1.0, false)),
                    ("with", &words.measure(&row.gardner_reward, 1.0, false)),
                    ("fewer", &words.fill(fewer, &[])),
                ],
            )
        ));
    }
    let holds = match r.holds {
        Some(true) => id::CLI_VERIFY_REWARD_HOLDS,
        Some(false) => id::CLI_VERIFY_REWARD_FAILS,
        None => id::CLI_VERIFY_REWARD_UNDECIDED,
    };
    out.push_str(&format!(
        "  {}\n  {}\n",
        words.fill(id::CLI_VERIFY_REWARD_FIGURES, &[]),
        words.fill(holds, &[])
    ));
    out
}

/// The checks, then the claim beside the measurement: exact, or sampled.
fn verdict_body(words: Words, kit: &Kit, verdict: &Verdict) -> String {
    let mut out = checks_text(words, kit, verdict);
    if let Some(proof) = &verdict.exact {
        out.push_str(&proof_text(words, kit.rule, verdict, proof));
        return out;
    }
    if let Some(c) = &verdict.cannot_learn {
        out.push_str(&cannot_learn_text(words, c));
        if verdict.measured.is_none() {
            return out;
        }
    }
    match &verdict.measured {
        Some(measured) => out.push_str(&sampled_text(words, kit, verdict, measured)),
        None => out.push_str(&format!(
            "\n{}\n",
            words.fill(id::CLI_VERIFY_NOT_TRAINED, &[])
        )),
    }
    out
}

/// The header (the kit, its side and rule), then the checks, a line each.
fn checks_text(words: Words, kit: &Kit, verdict: &Verdict) -> String {
    let mut out = format!(
        "{}\n\n{}\n",
        words.fill(
            id::CLI_VERIFY_HEADER,
            &[
                ("name", &kit.name),
                ("side", &words.side(kit)),
                ("rule", &words.rule(kit.rule)),
            ],
        ),
        words.fill(id::CLI_VERIFY_CHECKS, &[])
    );
    // The status words in a column of their own, clear of the sentence after them.
    let width = [id::CLI_VERIFY_OK, id::CLI_VERIFY_FAILED]
        .map(|key| words.fill(key, &[]).chars().count())
        .into_iter()
        .max()
        .unwrap_or_default()
        + 1;
    for c in &verdict.checks {
        let ok = words.fill(
            if c.ok {
                id::CLI_VERIFY_OK
            } else {
                id::CLI_VERIFY_FAILED
            },
            &[],
        );
        out.push_str(&format!(
            "  {ok:<width$} {}: {}\n",
            words.said(&c.what),
            words.said(&c.detail)
        ));
    }
    out
}

/// What `verify` prints on the sampled path: why it is not exact, the claim beside the
/// machines trained, what they took to learn, and what a teacher can watch.
fn sampled_text(words: Words, kit: &Kit, verdict: &Verdict, measured: &Training) -> String {
    let mut out = String::new();
    if let Some(why) = &verdict.not_exact {
        let intervals = verdict.intervals.as_ref().map(|i| words.said(i));
        out.push_str(&format!(
            "\n{}\n",
            words.fill(
                id::CLI_VERIFY_METHOD_SAMPLED,
                &[
                    (
                        "runs",
                        &words.count(measured.runs, id::PROBLEM_COUNT_MACHINE),
                    ),
                    ("why", &words.said(why)),
                    ("intervals", &intervals.unwrap_or_default()),
                ],
            )
        ));
    }
    out.push_str(&claim_beside_text(words, verdict, measured));
    out.push_str(&format!(
        "  {}\n",
        run_text(words, verdict, verdict.opponent == OpponentKind::Perfect)
    ));
    out.push_str(&gave_up_text(words, kit, measured));
    out.push_str(&learning_words(words, measured));
    out.push_str(&mean_intervals_text(words, measured));
    if let Some(c) = &verdict.claim {
        out.push_str(&holds_text(words, c.holds, verdict.opponent));
        if let Some(s) = &c.stricter {
            out.push_str(&stricter_text(words, s, verdict.opponent));
        }
    }
    if let Some(w) = &verdict.watch {
        out.push_str(&watch_text(words, w));
    }
    out
}

/// The claim (or that there is none) beside the machines trained and those unfinished.
fn claim_beside_text(words: Words, verdict: &Verdict, measured: &Training) -> String {
    let trained = words.fill(
        id::CLI_VERIFY_TRAINED,
        &[
            ("runs", &words.number(measured.runs)),
            ("opponent", &words.opponent(verdict.opponent)),
            ("seed", &verdict.seed.to_string()),
            ("unfinished", &words.number(measured.unfinished)),
            (
                "share",
                &words.estimate(&measured.unfinished_share, 100.0, true),
            ),
        ],
    );
    match &verdict.claim {
        Some(c) => format!(
            "\n{}\n  {}\n  {}\n",
            words.fill(
                id::CLI_VERIFY_CLAIM,
                &[("source", &words.said(&c.claim.source))]
            ),
            words.fill(
                id::CLI_VERIFY_CLAIMED_BESIDE,
                &[("text", &words.said(&c.claim.text))]
            ),
            words.fill(id::CLI_VERIFY_MEASURED, &[("trained", &trained)]),
        ),
        None => format!("\n{}\n  {trained}\n", no_claim_text(words, verdict)),
    }
}

/// That no article makes a claim about the kit, or what they say of a machine they
/// describe without a figure.
fn no_claim_text(words: Words, verdict: &Verdict) -> String {
    match &verdict.described {
        Some(described) => words.said(described),
        None => words.fill(id::CLI_VERIFY_NO_CLAIM, &[]),
    }
}

/// How many machines emptied their first box and gave up, and after how many games;
/// nothing when none did.
fn gave_up_text(words: Words, kit: &Kit, measured: &Training) -> String {
    let Some(games) = measured
        .games_to_give_up
        .as_ref()
        .filter(|_| measured.gave_up > 0)
    else {
        return String::new();
    };
    // How many machines emptied box 1 and gave up, measured, never a figure of ours.
    let share = 100.0 * f64::from(measured.gave_up) / f64::from(measured.runs);
    format!(
        "  {}\n",
        words.fill(
            id::CLI_VERIFY_GAVE_UP,
            &[
                ("n", &words.number(measured.gave_up)),
                ("runs", &words.number(measured.runs)),
                ("share", &words.figure(share, true)),
                ("box", &words.first_move_box(kit)),
                ("stats", &words.stats(games)),
            ],
        )
    )
}

/// The confidence intervals of the mean losses and games to learn; nothing when no
/// machine learnt.
fn mean_intervals_text(words: Words, measured: &Training) -> String {
    let (Some(losses), Some(games)) = (&measured.losses_to_learn, &measured.games_to_learn) else {
        return String::new();
    };
    let (l, g) = (&losses.mean_interval, &games.mean_interval);
    // Each interval's two ends with the same decimals.
    let ends = |low: f64, high: f64, places| figures(words.say.0, &[low, high], places);
    let range = |texts: Vec<String>| words.range(&texts[0], &texts[1]);
    format!(
        "  {}\n",
        words.fill(
            id::CLI_VERIFY_MEAN_INTERVALS,
            &[
                ("losses", &range(ends(l.low, l.high, LOSSES_PLACES))),
                ("games", &range(ends(g.low, g.high, GAMES_PLACES))),
                ("learnt", &words.number(measured.runs - measured.unfinished)),
            ],
        )
    )
}

/// What a machine that can never learn does instead, exactly or sampled; a machine whose
/// first box the class refills never gives up, and is said to.
fn cannot_learn_text(words: Words, c: &CannotLearn) -> String {
    let why = words.fill(
        id::CLI_VERIFY_CANNOT_LEARN_LINE,
        &[("why", &words.said(&c.why))],
    );
    let Some(g) = &c.instead else {
        return format!(
            "\n{why}\n  {}\n",
            words.fill(id::CLI_VERIFY_REFILLED_NEVER_GIVES_UP, &[])
        );
    };
    let how = match g.states {
        Some(states) => words.fill(
            id::CLI_VERIFY_EXACT_STATES,
            &[("states", &words.number(states as i64))],
        ),
        None => words.fill(id::CLI_VERIFY_SAMPLED, &[]),
    };
    format!(
        "\n{why}\n{}\n{}",
        words.fill(
            id::CLI_VERIFY_INSTEAD,
            &[("opponent", &words.opponent(g.opponent)), ("how", &how)],
        ),
        giving_up_text(words, g)
    )
}

/// When a machine that can never learn gives up at its first move.
fn giving_up_text(words: Words, g: &GivingUp) -> String {
    // A chance said as the one before it (100% once every machine has given up) would
    // only repeat it: the list stops at the first game that reaches it.
    let chances: Vec<(u32, String)> = g
        .by_game
        .iter()
        .map(|(n, m)| (*n, words.measure(m, 100.0, true)))
        .collect();
    let shown = chances
        .windows(2)
        .position(|pair| pair[0].1 == pair[1].1)
        .map_or(chances.len(), |i| i + 1);
    let by: Vec<String> = chances[..shown]
        .iter()
        .map(|(n, chance)| {
            words.fill(
                id::CLI_VERIFY_BY_GAME,
                &[("n", &words.number(*n)), ("chance", chance)],
            )
        })
        .collect();
    let mut out = format!(
        "  {}\n  {}\n",
        words.fill(id::CLI_VERIFY_GIVES_UP, &[]),
        words.fill(id::CLI_VERIFY_CHANCE_BY, &[("list", &by.join(", "))])
    );
    let last = match (&g.mean_games, &g.mean_wins) {
        (Some(games), Some(wins)) => words.fill(
            id::CLI_VERIFY_ON_AVERAGE,
            &[
                ("games", &words.games(games)),
                ("wins", &words.measure(wins, 1.0, false)),
            ],
        ),
        _ => words.fill(
            id::CLI_VERIFY_MAY_NEVER,
            &[("chance", &words.measure(&g.never, 100.0, true))],
        ),
    };
    out.push_str(&format!("  {last}\n"));
    out
}

/// What a teacher can watch of a machine that may never stop losing.
fn watch_text(words: Words, w: &Watch) -> String {
    let shares = if w.windows.is_empty() {
        String::new()
    } else {
        words.fill(id::CLI_VERIFY_WATCH_SHARES, &[])
    };
    let mut out = format!(
        "\n{}\n",
        words.fill(
            id::CLI_VERIFY_WATCH,
            &[
                ("runs", &words.number(w.runs)),
                ("games", &words.number(w.games)),
                ("opponent", &words.opponent(w.opponent)),
                ("shares", &shares),
            ],
        )
    );
    for win in &w.windows {
        out.push_str(&format!(
            "  {}\n",
            words.fill(
                id::CLI_VERIFY_DRAWS,
                &[
                    ("from", &words.number(win.from)),
                    ("to", &words.number(win.to)),
                    ("share", &words.estimate(&win.draws, 100.0, true)),
                ],
            )
        ));
    }
    let streak = STREAK.to_string();
    let stopped = match &w.stopped_losing {
        Some(e) => words.fill(
            id::CLI_VERIFY_STOPPED,
            &[
                ("streak", &streak),
                ("game", &words.estimate(e, 1.0, false)),
                ("n", &words.number(w.stopped_runs)),
                ("runs", &words.number(w.runs)),
                ("share", &words.estimate(&w.stopped_share, 100.0, true)),
            ],
        ),
        None => words.fill(id::CLI_VERIFY_NEVER_STOPPED, &[("streak", &streak)]),
    };
    out.push_str(&format!("  {stopped}\n"));
    if let Some(after) = w.gave_up_after.as_ref().filter(|_| w.refilled) {
        out.push_str(&format!(
            "  {}\n",
            words.fill(
                id::CLI_VERIFY_REFILLED,
                &[
                    ("n", &words.number(w.gave_up_runs)),
                    ("runs", &words.number(w.runs)),
                    ("stats", &words.stats(after)),
                ],
            )
        ));
    }
    if let Some(e) = &w.first_box {
        out.push_str(&format!(
            "  {}\n",
            words.fill(
                id::CLI_VERIFY_FIRST_BOX,
                &[
                    ("start", &words.number(w.first_box_start)),
                    ("end", &words.estimate(e, 1.0, false)),
                ],
            )
        ));
    }
    out
}

/// Whether the claim holds, and against whom when it is not the perfect opponent the
/// articles mean.
fn holds_text(words: Words, holds: bool, opponent: OpponentKind) -> String {
    let verdict = words.fill(
        if holds {
            id::CLI_VERIFY_HOLDS
        } else {
            id::CLI_VERIFY_FAILS
        },
        &[],
    );
    match opponent {
        OpponentKind::Perfect => format!("  {verdict}\n"),
        other => format!(
            "  {}\n",
            words.fill(
                id::CLI_VERIFY_HOLDS_AGAINST,
                &[("verdict", &verdict), ("opponent", &words.opponent(other))],
            )
        ),
    }
}

/// One exact distribution: the chance of each number of losses and the means.
fn distribution_text(words: Words, d: &Distribution) -> String {
    let mut out: String = d
        .losses
        .iter()
        .map(|(k, f)| {
            format!(
                "    {}\n",
                words.fill(
                    id::CLI_VERIFY_LOSSES_CHANCE,
                    &[("n", &words.number(*k)), ("chance", &words.share(f))],
                )
            )
        })
        .collect();
    if !d.certain() {
        out.push_str(&format!(
            "    {}\n",
            words.fill(
                id::CLI_VERIFY_NEVER_LEARNS,
                &[("chance", &words.share(&d.never))]
            )
        ));
    }
    let arithmetic = match d.arithmetic {
        Arithmetic::Rational => id::CLI_VERIFY_RATIONAL,
        Arithmetic::Interval => id::CLI_VERIFY_INTERVAL_ARITHMETIC,
    };
    out.push_str(&format!(
        "    {}\n",
        words.fill(
            id::CLI_VERIFY_MEANS,
            &[
                ("losses", &words.mean(d.mean_losses.as_ref(), LOSSES_PLACES)),
                ("games", &words.mean(d.mean_games.as_ref(), GAMES_PLACES)),
                ("states", &words.number(d.states as i64)),
                ("arithmetic", &words.fill(arithmetic, &[])),
            ],
        )
    ));
    out
}

/// What `verify` prints on the exact path: the states worked through, the claim against
/// the exact figures, then how fast each teacher teaches.
fn proof_text(words: Words, rule: Rule, verdict: &Verdict, p: &Proof) -> String {
    format!(
        "\n{}\n{}{}",
        words.fill(
            id::CLI_VERIFY_METHOD_EXACT,
            &[
                ("states", &words.number(p.states as i64)),
                ("rational", &words.number(RATIONAL_STATES as i64)),
            ],
        ),
        exact_claim_text(words, rule, verdict, p),
        teaching_text(words, verdict, p)
    )
}

/// The claim (or that there is none) beside the exact losses against the opponent, the
/// worst case, and whether the claim holds.
fn exact_claim_text(words: Words, rule: Rule, verdict: &Verdict, p: &Proof) -> String {
    let mut out = match &verdict.claim {
        Some(c) => format!(
            "\n{}\n  {}\n",
            words.fill(
                id::CLI_VERIFY_CLAIM,
                &[("source", &words.said(&c.claim.source))]
            ),
            words.fill(
                id::CLI_VERIFY_CLAIMED,
                &[("text", &words.said(&c.claim.text))]
            ),
        ),
        None => format!("\n{}\n", no_claim_text(words, verdict)),
    };
    out.push_str(&format!(
        "  {}\n",
        words.fill(
            id::CLI_VERIFY_AGAINST,
            &[("opponent", &words.opponent(verdict.opponent))]
        )
    ));
    out.push_str(&distribution_text(words, &p.against));
    if rule == Rule::Relay {
        // The relay draws nothing at random: its worst case is the opponent's alone.
        out.push_str(&format!(
            "  {}\n",
            words.fill(
                id::CLI_VERIFY_WORST_FIXED,
                &[(
                    "losses",
                    &words.count(p.worst_losses, id::PROBLEM_COUNT_LOSS)
                )]
            )
        ));
    } else {
        out.push_str(&format!(
            "  {}\n  {}\n",
            words.fill(
                id::CLI_VERIFY_WORST_MOST,
                &[("n", &words.number(p.worst_losses))]
            ),
            words.fill(
                id::CLI_VERIFY_WORST_MEAN,
                &[(
                    "mean",
                    &words.mean(Some(&p.most_expected_losses), LOSSES_PLACES)
                )]
            )
        ));
    }
    if let Some(c) = &verdict.claim {
        out.push_str(&holds_text(words, c.holds, verdict.opponent));
        if let Some(every) = c.holds_against_every_opponent.filter(|_| c.holds) {
            let key = if every {
                id::CLI_VERIFY_EVERY
            } else {
                id::CLI_VERIFY_NOT_EVERY
            };
            out.push_str(&format!("  {}\n", words.fill(key, &[])));
        }
        if let Some(s) = &c.stricter {
            out.push_str(&stricter_text(words, s, verdict.opponent));
        }
    }
    out
}

/// Another source's stricter claim, judged on its own: whether every machine keeps to
/// it, or in what share of them it holds.
fn stricter_text(words: Words, s: &StricterCheck, opponent: OpponentKind) -> String {
    let judged = match s.share.filter(|_| !s.holds) {
        Some(share) if share > 0.0 => words.fill(
            id::CLI_VERIFY_HOLDS_PARTLY,
            &[("share", &words.figure(100.0 * share, true))],
        ),
        _ => holds_text(words, s.holds, opponent).trim().to_string(),
    };
    format!(
        "\n{}\n  {}\n  {judged}\n",
        words.fill(
            id::CLI_VERIFY_CLAIM,
            &[("source", &words.said(&s.claim.source))]
        ),
        words.fill(
            id::CLI_VERIFY_CLAIMED,
            &[("text", &words.said(&s.claim.text))]
        ),
    )
}

/// The games and losses each teacher takes to teach the machine, beside the articles'
/// claim of games if they make one, then the fastest teacher's losses.
fn teaching_text(words: Words, verdict: &Verdict, p: &Proof) -> String {
    let mut out = format!("\n{}\n", words.fill(id::CLI_VERIFY_TEACHING, &[]));
    if let Some(g) = verdict.claim.as_ref().and_then(|c| c.claim.games.as_ref()) {
        out.push_str(&format!(
            "  {}\n",
            words.fill(
                id::CLI_VERIFY_CLAIMED_BY,
                &[
                    ("source", &words.said(&g.source)),
                    ("text", &words.said(&g.text)),
                ],
            )
        ));
    }
    for (name, d) in [
        (id::CLI_VERIFY_TEACHER_PERFECT, &p.perfect),
        (id::CLI_VERIFY_TEACHER_TEACHER, &p.teacher),
        (id::CLI_VERIFY_TEACHER_OPTIMAL_TEACHER, &p.fastest_teacher),
    ] {
        out.push_str(&format!(
            "  {}\n",
            words.fill(
                id::CLI_VERIFY_TEACHING_ROW,
                &[
                    ("name", &words.fill(name, &[])),
                    ("games", &words.mean(d.mean_games.as_ref(), GAMES_PLACES)),
                    ("losses", &words.mean(d.mean_losses.as_ref(), LOSSES_PLACES)),
                ],
            )
        ));
    }
    if let Some(c) = &verdict.claim {
        out.push_str(&games_verdict_text(words, c, p));
    }
    out.push_str(&format!(
        "  {}\n",
        words.fill(id::CLI_VERIFY_FASTEST_LOSSES, &[])
    ));
    out.push_str(&distribution_text(words, &p.fastest_teacher));
    out
}

/// Whether the articles' claim of games holds: the fastest trainer's mean beside the
/// games claimed, and the perfect opponent's, who does not set out to teach.
fn games_verdict_text(words: Words, c: &ClaimCheck, p: &Proof) -> String {
    let (Some(claimed), Some(holds)) = (&c.claim.games, c.games_hold) else {
        return String::new();
    };
    let mean = |d: &Distribution| {
        d.mean_games.clone().map_or_else(
            || words.fill(id::CLI_VERIFY_INFINITE, &[]),
            |games| words.games(&Measure::Exact(games)),
        )
    };
    format!(
        "  {}\n",
        words.fill(
            if holds {
                id::CLI_VERIFY_GAMES_HOLD
            } else {
                id::CLI_VERIFY_GAMES_FAIL
            },
            &[
                ("claimed", &words.number(claimed.games)),
                ("fastest", &mean(&p.fastest_teacher)),
                ("perfect", &mean(&p.perfect)),
            ],
        )
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use matchbox_engine::kit::fixtures;
    use matchbox_engine::simulate::verify::verify;

    /// Where each of `parts` first starts in `text`, which must hold them all.
    fn starts(text: &str, parts: &[&str]) -> Vec<usize> {
        parts
            .iter()
            .map(|p| text.find(p).unwrap_or_else(|| panic!("no {p:?} in {text}")))
            .collect()
    }

    #[test]
    fn the_exact_path_says_its_parts_in_order() {
        let (game, kit) = fixtures::stones("bachet");
        let verdict = verify(&game, &kit, OpponentKind::Perfect, 10, 1_000, 1, &|_| {}).unwrap();
        let text = verdict_text(&kit, &verdict);
        let at = starts(
            &text,
            &[
                "A matchbox machine for Bachet",
                "\n\nChecks\n  ok ",
                "\n\nMethod: exact",
                "\n\nClaim (",
                "  against a perfect opponent",
                "    12 losses: 100%",
                "  worst case: no opponent",
                "  the claim holds\n  and it holds against every opponent\n",
                "\n\nTeaching:",
                "  the fastest trainer’s losses:\n    12 losses: 100%\n",
            ],
        );
        assert!(at.windows(2).all(|w| w[0] < w[1]), "{text}");
        // The fastest trainer's means close it.
        let last = text.lines().last().unwrap_or_default();
        assert!(
            !text.contains("Measured") && last.starts_with("    mean: 12 losses, 16.3 games"),
            "{text}"
        );
    }
}
