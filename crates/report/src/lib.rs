//! What `boxes`, `find` and `labels` print: a box set as text for people (the engine
//! writes it as JSON for programs); the label sizes and sticker sheets a kit can print on.

use crate::kit_folder::KitReport;
use matchbox_engine::boxes::{BoxSet, MatchBox};
use matchbox_engine::game::Notation;
use matchbox_engine::i18n::{
    Messages, Said, Strings, count, figure, figure_count, figures, number, strings,
};
use matchbox_engine::kit::Kit;
use matchbox_engine::rule::Rule;
use matchbox_engine::simulate::exact::{
    Arithmetic, Distribution, Figure, GivingUp, Measure, RATIONAL_STATES,
};
use matchbox_engine::simulate::stats::{Estimate, Stats};
use matchbox_engine::simulate::verify::{CannotLearn, Proof, RewardCheck, Verdict};
use matchbox_engine::simulate::watch::{STREAK, Watch};
use matchbox_engine::simulate::{OpponentKind, Session, Training};

/// A position as an indented board, one row a line, squares spaced apart, each piece
/// drawn as the kit's language draws it (`play.square.LETTER`: ○ and ● for a Polish
/// hexapawn, whose reader would take B for *biały*, white). `find` reads it back.
pub fn board_text<G: Notation>(game: &G, kit: &Kit, position: &G::Position) -> String {
    let s = strings(kit.language);
    let mut out = String::new();
    for row in game.format_position(position).split('/') {
        out.push_str("    ");
        let squares: Vec<String> = row
            .chars()
            .map(|c| {
                let key = format!("play.square.{c}");
                match s.get(&key) {
                    piece if piece != key => piece.to_string(),
                    _ => c.to_string(),
                }
            })
            .collect();
        out.push_str(&squares.join(" "));
        out.push('\n');
    }
    out
}

/// The words `boxes`, `find` and `simulate` print, in the kit's language: `cli.*` of the
/// engine's word store, with numbers written as the language writes them.
#[derive(Clone, Copy)]
pub struct Words {
    strings: &'static Strings,
    say: Messages,
}

impl Words {
    /// The words of `kit`'s language.
    pub fn of(kit: &Kit) -> Words {
        Words {
            strings: strings(kit.language),
            say: Messages(kit.language),
        }
    }

    /// `cli.KEY` with its placeholders filled in.
    fn fill(self, key: &str, values: &[(&str, &str)]) -> String {
        self.strings.fill(&format!("cli.{key}"), values)
    }

    /// `n` and a noun in its form for `n` (`problem.count.KEY`).
    fn count(self, n: impl Into<i64>, key: &str) -> String {
        count(self.say.0, n.into(), key)
    }

    /// A whole number as the language writes it in running text (`100,000`, `1720`).
    fn number(self, n: impl Into<i64>) -> String {
        number(self.say.0, n.into())
    }

    /// A figure with at most `places` decimals, none needless, and the language's
    /// decimal mark.
    fn decimals(self, x: f64, places: usize) -> String {
        figure(self.say.0, x, places)
    }

    /// A number as a share in per cent, as the language writes it (`39%`, `39 %`).
    fn percent(self, number: &str) -> String {
        self.fill("percent", &[("n", number)])
    }

    /// The opponent as the text names it: `a perfect opponent`, `the fastest teacher`.
    fn opponent(self, opponent: OpponentKind) -> String {
        self.fill(&format!("opponent.{}", opponent.name()), &[])
    }

    /// The learning rule as the text names it: `rule gardner`, `reguła Gardnera`.
    pub fn rule(self, rule: Rule) -> String {
        self.say.rule(rule.name())
    }

    /// The box whose emptying makes a machine give up: box 1 when it plays first, one of
    /// several when it plays second.
    fn first_move_box(self, kit: &Kit) -> String {
        self.fill(&format!("first_move_box.{}", kit.machine.name()), &[])
    }

    /// The side the machine plays: `first`, `second`.
    fn side(self, kit: &Kit) -> String {
        self.say.say(&format!("side.{}", kit.machine.name()), &[])
    }

    /// What `find` answers: the box, and how the position lies against its label
    /// (`symmetry`, a key of the word store such as `symmetry.as_drawn`).
    pub fn found(self, id: impl std::fmt::Display, symmetry: &str) -> String {
        let symmetry = self.strings.get(symmetry);
        self.fill("found", &[("id", &id.to_string()), ("symmetry", symmetry)])
    }

    /// An estimate with its 95% confidence interval, scaled, a percentage when
    /// `percent`, with one decimal at most, alike in the three figures.
    fn estimate(self, e: &Estimate, scale: f64, percent: bool) -> String {
        self.interval([e.mean, e.low, e.high].map(|x| x * scale), 1, percent)
    }

    /// A figure and its bounds or interval (`mean`, `low`, `high`) with at most `places`
    /// decimals, alike in the three, as percentages when `percent`.
    fn interval(self, [mean, low, high]: [f64; 3], places: usize, percent: bool) -> String {
        let texts = figures(self.say.0, &[mean, low, high], places);
        let [mean, low, high] = [0, 1, 2].map(|i| self.unit(&texts[i], percent));
        self.fill(
            "interval",
            &[("mean", &mean), ("low", &low), ("high", &high)],
        )
    }

    /// A figure's text, as a percentage when `percent`.
    fn unit(self, text: &str, percent: bool) -> String {
        if percent {
            self.percent(text)
        } else {
            text.to_string()
        }
    }

    /// `min 4, max 11, mean 7.9, median 8`: the mean and median of whole counts to a
    /// tenth.
    fn stats(self, s: &Stats) -> String {
        self.fill(
            "stats",
            &[
                ("min", &self.number(s.min)),
                ("max", &self.number(s.max)),
                ("mean", &self.decimals(s.mean, 1)),
                ("median", &self.decimals(s.median, 1)),
            ],
        )
    }

    /// The histogram as rows of `#`, the longest `width` wide, each with its share of
    /// the runs and that share's 95% confidence interval.
    fn histogram(self, s: &Stats, width: usize) -> String {
        s.histogram_with(width, |share| self.estimate(share, 100.0, true))
    }
}

/// One box as a text block: id, move numbers, the board, the moves.
pub fn box_text<G: Notation>(game: &G, kit: &Kit, b: &MatchBox<G::Position, G::Move>) -> String {
    let words = Words::of(kit);
    let numbers: Vec<String> = b.move_numbers.iter().map(u32::to_string).collect();
    let key = if numbers.len() == 1 {
        "box"
    } else {
        "box_many"
    };
    // The move numbers as the label writes them ("moves 2, 4"), never a tag's dashes.
    let mut out = words.fill(
        key,
        &[("id", &b.id.to_string()), ("moves", &numbers.join(", "))],
    );
    out.push('\n');
    out.push_str(&board_text(game, kit, &b.position));
    let moves: Vec<String> = b
        .moves
        .iter()
        .map(|m| game.say_move(&b.position, m.mv, words.strings))
        .collect();
    let colours: Vec<String> = b
        .moves
        .iter()
        .map(|m| words.strings.colour_name(&kit.palette[m.colour]))
        .collect();
    // Columns as wide as the longest move and colour name, so that the beads stay in line.
    let width = moves.iter().map(|m| m.chars().count()).fold(22, usize::max);
    let colour_width = colours
        .iter()
        .map(|c| c.chars().count())
        .fold(10, usize::max);
    for ((m, said), colour) in b.moves.iter().zip(&moves).zip(&colours) {
        out.push_str(&format!(
            "  {said:<width$} {colour:<colour_width$} {}\n",
            words.count(m.beads, "bead")
        ));
    }
    out
}

/// Every box as text, then the totals.
pub fn boxes_text<G: Notation>(game: &G, kit: &Kit, set: &BoxSet<G>) -> String {
    let words = Words::of(kit);
    let mut out = words.fill("plays", &[("name", &kit.name), ("side", &words.side(kit))]);
    out.push_str("\n\n");
    for b in &set.boxes {
        out.push_str(&box_text(game, kit, b));
        out.push('\n');
    }
    let summary = set.summary(kit);
    let totals = [
        ("boxes", words.count(summary.boxes as i64, "box")),
        ("beads", words.count(summary.beads, "bead")),
    ];
    let totals: Vec<(&str, &str)> = totals.iter().map(|(k, v)| (*k, v.as_str())).collect();
    out.push_str(&words.fill("totals", &totals));
    out.push('\n');
    let per_move: Vec<String> = summary
        .per_move
        .iter()
        .map(|(k, v)| {
            words.fill(
                "by_move_item",
                &[("n", &k.to_string()), ("count", &words.number(*v as i64))],
            )
        })
        .collect();
    out.push_str(&words.fill("by_move", &[("list", &per_move.join(", "))]));
    out.push('\n');
    let colours: Vec<String> = summary
        .colours
        .iter()
        .map(|c| {
            let name = words.strings.colour_name(&kit.palette[c.colour]);
            format!("{name} {}", words.number(c.beads))
        })
        .collect();
    out.push_str(&words.fill("by_colour", &[("list", &colours.join(", "))]));
    out.push('\n');
    out
}

/// What `verify` prints, in the kit's language: the checks, then the claim beside the
/// measurement, then the reward claim.
pub fn verdict_text(kit: &Kit, verdict: &Verdict) -> String {
    let words = Words::of(kit);
    let mut out = verdict_body(words, kit, verdict);
    if let Some(r) = &verdict.reward {
        out.push_str(&reward_text(words, r));
    }
    out
}

impl Words {
    /// `cli.verify.KEY` with its placeholders filled in.
    fn verify(self, key: &str, values: &[(&str, &str)]) -> String {
        self.fill(&format!("verify.{key}"), values)
    }

    /// A finding of the engine's (a check, a claim, a reason) in the kit's language.
    fn said(self, said: &Said) -> String {
        said.in_language(self.say.0)
    }

    /// `x` as a percentage with one decimal at most when `percent`, else with two.
    fn figure(self, x: f64, percent: bool) -> String {
        self.unit(&self.decimals(x, places(percent)), percent)
    }

    /// A mean number of games and its noun (`12 games`, `98,1 партии`), to a tenth as
    /// every mean of games is, or, when it is not known closely, its bounds or interval
    /// and the noun.
    fn games(self, m: &Measure) -> String {
        match m {
            Measure::Exact(Figure::Exact(f)) => {
                figure_count(self.say.0, f.to_f64(), GAMES_PLACES, "game")
            }
            Measure::Exact(Figure::Bounded(b)) if b.high - b.low < 0.005 => {
                figure_count(self.say.0, (b.low + b.high) / 2.0, GAMES_PLACES, "game")
            }
            other => format!(
                "{} {}",
                self.measure(other, 1.0, false),
                self.strings.get("fraction.game")
            ),
        }
    }

    /// An exact or sampled figure, scaled, with its bounds or interval.
    fn measure(self, m: &Measure, scale: f64, percent: bool) -> String {
        let figure = |x: f64| self.figure(x * scale, percent);
        match m {
            Measure::Exact(Figure::Exact(f)) => figure(f.to_f64()),
            Measure::Exact(Figure::Bounded(b)) if (b.high - b.low) * scale < 0.005 => {
                figure((b.low + b.high) / 2.0)
            }
            Measure::Exact(Figure::Bounded(b)) => {
                let texts = figures(
                    self.say.0,
                    &[b.low * scale, b.high * scale],
                    places(percent),
                );
                let [low, high] = [0, 1].map(|i| self.unit(&texts[i], percent));
                self.verify("range", &[("low", &low), ("high", &high)])
            }
            Measure::Sampled(e) => self.interval(
                [e.mean, e.low, e.high].map(|x| x * scale),
                places(percent),
                percent,
            ),
        }
    }

    /// A figure as a percentage with one decimal at most, e.g. `52%`, `14.8%`.
    fn share(self, f: &Figure) -> String {
        self.percent(&self.decimals(f.to_f64() * 100.0, 1))
    }

    /// A mean with `places` decimals at most, or that the machine may never learn.
    fn mean(self, f: Option<&Figure>, places: usize) -> String {
        f.map_or_else(
            || self.verify("infinite", &[]),
            |f| self.decimals(f.to_f64(), places),
        )
    }
}

/// Decimals of a mean number of games: a tenth of a game is as close as a class reads it.
const GAMES_PLACES: usize = 1;

/// Decimals of a mean number of losses: two, since a class compares losses that differ
/// by less than one (`10.25` beside `9`).
const LOSSES_PLACES: usize = 2;

/// Decimals of a figure: one for a percentage, two for a mean count of losses.
fn places(percent: bool) -> usize {
    if percent { 1 } else { LOSSES_PLACES }
}

/// The reward claim's table: the losses in the first games under each rule.
fn reward_text(words: Words, r: &RewardCheck) -> String {
    let mut out = format!(
        "\n{}\n  {}\n  {}\n",
        words.verify("reward", &[("source", &words.said(&r.claim.source))]),
        words.verify("claimed", &[("text", &words.said(&r.claim.text))]),
        words.verify("reward_rows", &[]),
    );
    for row in &r.rows {
        let fewer = match row.fewer {
            Some(true) => "fewer",
            Some(false) => "more",
            None => "too_close",
        };
        out.push_str(&format!(
            "  {}\n",
            words.verify(
                "reward_row",
                &[
                    ("opponent", &words.opponent(row.opponent)),
                    ("games", &row.games.to_string()),
                    ("without", &words.measure(&row.gardner, 1.0, false)),
                    ("with", &words.measure(&row.gardner_reward, 1.0, false)),
                    ("fewer", &words.verify(&format!("reward_{fewer}"), &[])),
                ],
            )
        ));
    }
    let holds = match r.holds {
        Some(true) => "reward_holds",
        Some(false) => "reward_fails",
        None => "reward_undecided",
    };
    out.push_str(&format!(
        "  {}\n  {}\n",
        words.verify("reward_figures", &[]),
        words.verify(holds, &[])
    ));
    out
}

/// The checks, then the claim beside the measurement.
fn verdict_body(words: Words, kit: &Kit, verdict: &Verdict) -> String {
    let mut out = format!(
        "{}\n\n{}\n",
        words.verify(
            "header",
            &[
                ("name", &kit.name),
                ("side", &words.side(kit)),
                ("rule", &words.rule(kit.rule)),
            ],
        ),
        words.verify("checks", &[])
    );
    // The status words in a column of their own, clear of the sentence after them.
    let width = ["ok", "failed"]
        .map(|key| words.verify(key, &[]).chars().count())
        .into_iter()
        .max()
        .unwrap_or_default()
        + 1;
    for c in &verdict.checks {
        let ok = words.verify(if c.ok { "ok" } else { "failed" }, &[]);
        out.push_str(&format!(
            "  {ok:<width$} {}: {}\n",
            words.said(&c.what),
            words.said(&c.detail)
        ));
    }
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
    let Some(measured) = &verdict.measured else {
        out.push_str(&format!("\n{}\n", words.verify("not_trained", &[])));
        return out;
    };
    if let Some(why) = &verdict.not_exact {
        let intervals = verdict.intervals.as_ref().map(|i| words.said(i));
        out.push_str(&format!(
            "\n{}\n",
            words.verify(
                "method_sampled",
                &[
                    ("why", &words.said(why)),
                    ("intervals", &intervals.unwrap_or_default()),
                ],
            )
        ));
    }
    let trained = words.verify(
        "trained",
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
        Some(c) => out.push_str(&format!(
            "\n{}\n  {}\n  {}\n",
            words.verify("claim", &[("source", &words.said(&c.claim.source))]),
            words.verify("claimed_beside", &[("text", &words.said(&c.claim.text))]),
            words.verify("measured", &[("trained", &trained)]),
        )),
        None => out.push_str(&format!(
            "\n{}\n  {trained}\n",
            words.verify("no_claim", &[])
        )),
    }
    if let Some(games) = measured
        .games_to_give_up
        .as_ref()
        .filter(|_| measured.gave_up > 0)
    {
        // How many machines emptied box 1 and gave up, measured, never a figure of ours.
        let share = 100.0 * f64::from(measured.gave_up) / f64::from(measured.runs);
        out.push_str(&format!(
            "  {}\n",
            words.verify(
                "gave_up",
                &[
                    ("n", &words.number(measured.gave_up)),
                    ("runs", &words.number(measured.runs)),
                    ("share", &words.figure(share, true)),
                    ("box", &words.first_move_box(kit)),
                    ("stats", &words.stats(games)),
                ],
            )
        ));
    }
    out.push_str(&learning_words(words, measured));
    if let (Some(losses), Some(games)) = (&measured.losses_to_learn, &measured.games_to_learn) {
        let (l, g) = (&losses.mean_interval, &games.mean_interval);
        // Each interval's two ends with the same decimals.
        let ends = |low: f64, high: f64, places| figures(words.say.0, &[low, high], places);
        let (losses, games) = (
            ends(l.low, l.high, LOSSES_PLACES),
            ends(g.low, g.high, GAMES_PLACES),
        );
        out.push_str(&format!(
            "  {}\n",
            words.verify(
                "mean_intervals",
                &[
                    ("losses_low", &losses[0]),
                    ("losses_high", &losses[1]),
                    ("games_low", &games[0]),
                    ("games_high", &games[1]),
                    ("learnt", &words.number(measured.runs - measured.unfinished)),
                ],
            )
        ));
    }
    if let Some(c) = &verdict.claim {
        out.push_str(&holds_text(words, c.holds, verdict.opponent));
    }
    if let Some(w) = &verdict.watch {
        out.push_str(&watch_text(words, w));
    }
    out
}

/// What a machine that can never learn does instead, exactly or sampled.
fn cannot_learn_text(words: Words, c: &CannotLearn) -> String {
    let g = &c.instead;
    let how = match g.states {
        Some(states) => words.verify("exact_states", &[("states", &words.number(states as i64))]),
        None => words.verify("sampled", &[]),
    };
    format!(
        "\n{}\n{}\n{}",
        words.verify("cannot_learn_line", &[("why", &words.said(&c.why))]),
        words.verify(
            "instead",
            &[("opponent", &words.opponent(g.opponent)), ("how", &how)],
        ),
        giving_up_text(words, g)
    )
}

/// When a machine that can never learn gives up at its first move.
fn giving_up_text(words: Words, g: &GivingUp) -> String {
    let by: Vec<String> = g
        .by_game
        .iter()
        .map(|(n, m)| {
            words.verify(
                "by_game",
                &[
                    ("n", &words.number(*n)),
                    ("chance", &words.measure(m, 100.0, true)),
                ],
            )
        })
        .collect();
    let mut out = format!(
        "  {}\n  {}\n",
        words.verify("gives_up", &[]),
        words.verify("chance_by", &[("list", &by.join(", "))])
    );
    let last = match (&g.mean_games, &g.mean_wins) {
        (Some(games), Some(wins)) => words.verify(
            "on_average",
            &[
                ("games", &words.games(games)),
                ("wins", &words.measure(wins, 1.0, false)),
            ],
        ),
        _ => words.verify(
            "may_never",
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
        words.verify("watch_shares", &[])
    };
    let mut out = format!(
        "\n{}\n",
        words.verify(
            "watch",
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
            words.verify(
                "draws",
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
        Some(e) => words.verify(
            "stopped",
            &[
                ("streak", &streak),
                ("game", &words.estimate(e, 1.0, false)),
                ("n", &words.number(w.stopped_runs)),
                ("runs", &words.number(w.runs)),
                ("share", &words.estimate(&w.stopped_share, 100.0, true)),
            ],
        ),
        None => words.verify("never_stopped", &[("streak", &streak)]),
    };
    out.push_str(&format!("  {stopped}\n"));
    if let Some(e) = &w.first_box {
        out.push_str(&format!(
            "  {}\n",
            words.verify(
                "first_box",
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
    let verdict = words.verify(if holds { "holds" } else { "fails" }, &[]);
    match opponent {
        OpponentKind::Perfect => format!("  {verdict}\n"),
        other => format!(
            "  {}\n",
            words.verify(
                "holds_against",
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
                words.verify(
                    "losses_chance",
                    &[("n", &words.number(*k)), ("chance", &words.share(f))],
                )
            )
        })
        .collect();
    if !d.certain() {
        out.push_str(&format!(
            "    {}\n",
            words.verify("never_learns", &[("chance", &words.share(&d.never))])
        ));
    }
    let arithmetic = match d.arithmetic {
        Arithmetic::Rational => "rational",
        Arithmetic::Interval => "interval_arithmetic",
    };
    out.push_str(&format!(
        "    {}\n",
        words.verify(
            "means",
            &[
                ("losses", &words.mean(d.mean_losses.as_ref(), LOSSES_PLACES)),
                ("games", &words.mean(d.mean_games.as_ref(), GAMES_PLACES)),
                ("states", &words.number(d.states as i64)),
                ("arithmetic", &words.verify(arithmetic, &[])),
            ],
        )
    ));
    out
}

/// What `verify` prints on the exact path.
fn proof_text(words: Words, rule: Rule, verdict: &Verdict, p: &Proof) -> String {
    let mut out = format!(
        "\n{}\n",
        words.verify(
            "method_exact",
            &[
                ("states", &words.number(p.states as i64)),
                ("rational", &words.number(RATIONAL_STATES as i64)),
            ],
        )
    );
    match &verdict.claim {
        Some(c) => out.push_str(&format!(
            "\n{}\n  {}\n",
            words.verify("claim", &[("source", &words.said(&c.claim.source))]),
            words.verify("claimed", &[("text", &words.said(&c.claim.text))]),
        )),
        None => out.push_str(&format!("\n{}\n", words.verify("no_claim", &[]))),
    }
    out.push_str(&format!(
        "  {}\n",
        words.verify(
            "against",
            &[("opponent", &words.opponent(verdict.opponent))]
        )
    ));
    out.push_str(&distribution_text(words, &p.against));
    if rule == Rule::Relay {
        // The relay draws nothing at random: its worst case is the opponent's alone.
        out.push_str(&format!(
            "  {}\n",
            words.verify(
                "worst_fixed",
                &[("losses", &words.count(p.worst_losses, "loss"))]
            )
        ));
    } else {
        out.push_str(&format!(
            "  {}\n  {}\n",
            words.verify("worst_most", &[("n", &words.number(p.worst_losses))]),
            words.verify(
                "worst_mean",
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
            let key = if every { "every" } else { "not_every" };
            out.push_str(&format!("  {}\n", words.verify(key, &[])));
        }
    }
    out.push_str(&format!("\n{}\n", words.verify("teaching", &[])));
    if let Some(g) = verdict.claim.as_ref().and_then(|c| c.claim.games.as_ref()) {
        out.push_str(&format!(
            "  {}\n",
            words.verify(
                "claimed_by",
                &[
                    ("source", &words.said(&g.source)),
                    ("text", &words.said(&g.text)),
                ],
            )
        ));
    }
    for (name, d) in [
        ("perfect", &p.perfect),
        ("teacher", &p.teacher),
        ("optimal-teacher", &p.fastest_teacher),
    ] {
        out.push_str(&format!(
            "  {}\n",
            words.verify(
                "teaching_row",
                &[
                    ("name", &words.verify(&format!("teacher.{name}"), &[])),
                    ("games", &words.mean(d.mean_games.as_ref(), GAMES_PLACES)),
                    ("losses", &words.mean(d.mean_losses.as_ref(), LOSSES_PLACES)),
                ],
            )
        ));
    }
    out.push_str(&format!("  {}\n", words.verify("fastest_losses", &[])));
    out.push_str(&distribution_text(words, &p.fastest_teacher));
    out
}

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
fn learning_words(words: Words, t: &Training) -> String {
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

/// What `matchbox kit` wrote, as it tells the user: the files and their pages.
pub fn kit_text(kit: &Kit, dir: &std::path::Path, report: &KitReport) -> String {
    let words = Words::of(kit);
    let pages = |n: usize| words.count(n as i64, "page");
    let boxes = words.count(report.boxes as i64, "box");
    let mut text = format!(
        "{}\n  {}  ({})\n  {}  ({})\n",
        words.fill("kit", &[("name", &kit.name), ("boxes", &boxes)]),
        dir.join("labels.pdf").display(),
        pages(report.label_pages),
        dir.join("kit.pdf").display(),
        pages(report.kit_pages)
    );
    if report.previews > 0 {
        text.push_str(&format!(
            "  {}  ({})\n",
            dir.join("previews").display(),
            words.count(report.previews as i64, "preview")
        ));
    }
    text
}

/// The label sizes and sticker sheets `label:` accepts, a line each, as `matchbox labels`
/// prints them.
pub fn label_stocks() -> String {
    use matchbox_print::sheet::LABEL_SIZES;
    use matchbox_print::sheet::{Paper, STICKER_SHEETS, cut_grid};
    let mut out =
        String::from("Labels cut from plain paper (label: NAME, or {width_mm, height_mm}):\n");
    for (name, size) in LABEL_SIZES {
        let per = |paper| {
            let (across, down) = cut_grid(paper, size);
            format!(
                "{} per {} ({across} x {down})",
                across * down,
                Paper::name(paper)
            )
        };
        out.push_str(&format!(
            "  {name:<12} {:>5} x {:<5} mm  {}, {}\n",
            size.width_mm,
            size.height_mm,
            per(Paper::A4),
            per(Paper::Letter)
        ));
    }
    out.push_str("Sticker sheets (label: CODE; print at 100%, no scaling):\n");
    for sheet in STICKER_SHEETS {
        out.push_str(&format!(
            "  {:<12} {:>5.1} x {:<5.1} mm  {} per {} ({} x {}), pitch {:.2} x {:.2} mm, first label at {:.2}, {:.2} mm\n",
            sheet.code,
            sheet.label.width_mm,
            sheet.label.height_mm,
            sheet.across * sheet.down,
            sheet.paper.name(),
            sheet.across,
            sheet.down,
            sheet.pitch_x_mm,
            sheet.pitch_y_mm,
            sheet.left_mm,
            sheet.top_mm,
        ));
    }
    out.push_str("A custom sheet: label: {width_mm, height_mm, across, down, left_mm, top_mm, pitch_x_mm, pitch_y_mm, corner_mm}\n");
    out
}
