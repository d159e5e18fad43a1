//! The instruction pages of kit.pdf: templates (Markdown with minijinja variables, in
//! `templates/<language>/`) filled with this kit's figures, parsed and set on pages with
//! the drawings between paragraphs.

pub mod drawings;
pub mod layout;
pub mod markdown;

use minijinja::{Environment, UndefinedBehavior, Value};
use serde::Serialize;

use crate::pictures::Game;
use crate::sheet::Page;
pub use drawings::{ExampleEnd, Figure};
use layout::{Booklet, Typesetter};
use markdown::{Block, blocks, figure_marker};
use matchbox_engine::Error;
use matchbox_engine::boxes::{BoxSet, ColourBeads, tag};
use matchbox_engine::game::Side;
use matchbox_engine::i18n::Language;
use matchbox_engine::i18n::{number, plural, strings, template_file, template_folder};
use matchbox_engine::kit::{Kit, Tags};
use matchbox_engine::rule::{BeadSchedule, Reward, Rule};

/// The sections of the instructions, in the order of kit.pdf.
pub const SECTIONS: [&str; 7] = [
    "overview", "rules", "operator", "teacher", "score", "board", "index",
];

/// How many lost games a machine needed to learn, measured by simulation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Expected {
    /// The opponent it trained against (`perfect`).
    pub opponent: String,
    /// Machines trained.
    pub runs: u32,
    /// Fewest losses.
    pub min: u32,
    /// Most losses.
    pub max: u32,
    /// Mean losses.
    pub mean: f64,
    /// Median losses.
    pub median: f64,
    /// Mean games played until then.
    pub games_mean: f64,
    /// The games nine machines in ten had learnt by: the score sheet's rows.
    pub games_90: u32,
}

/// What the sheets may quote of the simulations and of the exact analysis.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Findings {
    /// The measured losses to learn, when every simulated machine learnt.
    pub expected: Option<Expected>,
    /// The exact figures and the fastest teacher, for a kit small enough.
    pub exact: Option<matchbox_engine::simulate::exact::SheetFigures>,
    /// What to watch of a machine that never stops losing (MENACE).
    pub watch: Option<matchbox_engine::simulate::watch::Watch>,
    /// The machine's side loses the game against best play, so no training can make it
    /// stop losing against a faultless opponent (HIM).
    pub loses: bool,
    /// For such a machine, when it gives up at its first move for good.
    pub gives_up: Option<GivesUp>,
    /// The articles' reward claim in figures, when they make one.
    pub reward_losses: Option<RewardLosses>,
    /// What a training said of a machine that learns too slowly for every simulated
    /// machine to finish (Marienbad), where `expected` says nothing.
    pub slow: Option<Slow>,
}

/// The figures of a training against a faultless opponent in which some machines had not
/// learnt by the last game allowed: what the teacher's page says a class will see.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Slow {
    /// Machines trained.
    pub runs: u32,
    /// Games each was allowed.
    pub games: u32,
    /// Machines that could no longer lose by then.
    pub learnt: u32,
    /// Fewest losses of those that learnt.
    pub min: u32,
    /// Most losses of those that learnt.
    pub max: u32,
    /// Games they played until then, the median, in whole games.
    pub games_median: u32,
}

impl Slow {
    /// The figures of a training against a faultless opponent in which some machine had
    /// not learnt (none when all did: `expected` quotes them then).
    pub fn from_training(
        training: &matchbox_engine::simulate::Training,
        games: u32,
    ) -> Option<Slow> {
        let losses = training.losses_to_learn.as_ref()?;
        let played = training.games_to_learn.as_ref()?;
        (training.unfinished > 0).then(|| Slow {
            runs: training.runs,
            games,
            learnt: training.runs - training.unfinished,
            min: losses.min,
            max: losses.max,
            games_median: played.median.round() as u32,
        })
    }
}

/// The mean losses in a machine's first games against a perfect opponent without and with
/// rewards, as the teacher's page quotes them beside the variant (`verify` gives them with
/// their bounds).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RewardLosses {
    /// The games counted.
    pub games: u32,
    /// Mean losses under `gardner`, one decimal, as the language writes it.
    pub without: String,
    /// Mean losses under `gardner-reward`.
    pub with: String,
}

/// When a machine that can never stop losing gives up at its first move for good, in
/// whole games, as the teacher's page quotes it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GivesUp {
    /// Worked out exactly (else sampled over [`matchbox_engine::simulate::EXPECTATION_RUNS`]
    /// machines).
    pub exact: bool,
    /// Mean games until it gives up against a perfect opponent.
    pub perfect_games: u32,
    /// Mean games until it gives up against a random opponent, worked out exactly, when it
    /// does for sure.
    pub random_games: Option<u32>,
    /// Mean games it wins until then.
    pub random_wins: Option<u32>,
}

impl GivesUp {
    /// The page's figures from those against `perfect` and `random` (the latter quoted
    /// only when worked out exactly), or `None` when the machine may never give up
    /// against a perfect opponent.
    pub fn of(
        perfect: &matchbox_engine::simulate::exact::GivingUp,
        random: Option<&matchbox_engine::simulate::exact::GivingUp>,
    ) -> Option<GivesUp> {
        let rounded = |m: &Option<matchbox_engine::simulate::exact::Measure>| {
            m.as_ref().map(|m| m.to_f64().round() as u32)
        };
        let random = random.filter(|r| r.states.is_some());
        Some(GivesUp {
            exact: perfect.states.is_some(),
            perfect_games: rounded(&perfect.mean_games)?,
            random_games: random.and_then(|r| rounded(&r.mean_games)),
            random_wins: random.and_then(|r| rounded(&r.mean_wins)),
        })
    }
}

impl Expected {
    /// The figures of a training against `perfect`, or `None` when some machine had not
    /// learnt by the end: then no sheet quotes them.
    pub fn from_training(training: &matchbox_engine::simulate::Training) -> Option<Expected> {
        let losses = training.losses_to_learn.as_ref()?;
        let games = training.games_to_learn.as_ref()?;
        (training.unfinished == 0).then(|| Expected {
            games_mean: games.mean,
            games_90: quantile(games, 0.9),
            opponent: "perfect".into(),
            runs: training.runs,
            min: losses.min,
            max: losses.max,
            mean: losses.mean,
            median: losses.median,
        })
    }
}

/// The smallest count that `share` of the runs had at most (the 90th percentile for
/// 0.9), from the runs' histogram.
fn quantile(stats: &matchbox_engine::simulate::stats::Stats, share: f64) -> u32 {
    let runs: u32 = stats.histogram.values().sum();
    let mut seen = 0;
    for (&count, &n) in &stats.histogram {
        seen += n;
        if f64::from(seen) >= share * f64::from(runs) {
            return count;
        }
    }
    stats.max
}

/// The size of the score sheet, from the kit's own figures: rows enough for the games
/// nine machines in ten need against a faultless opponent (the mean would leave nearly
/// half the classes past the last row: HER's mean is 99 games, its slowest 400), a
/// chart as high as the losses can climb.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ScoreSheet {
    /// Rows of the table, one per game, and the chart's last game.
    pub games: u32,
    /// The top of the chart's losses axis.
    pub losses: u32,
}

impl ScoreSheet {
    /// Rows and axes when the kit has no figures of its own.
    const PLAIN: ScoreSheet = ScoreSheet {
        games: 40,
        losses: 20,
    };

    /// The most rows a class is given: two hundred games are weeks of lessons (HER's
    /// nine in ten need 164), and a kit whose machine needs thousands (Marienbad, nim
    /// with 1,000 stones) is trained by `simulate`, not by hand; its sheet would
    /// otherwise run to 60 pages. The sheet says what to do past its last row.
    const MOST_GAMES: u32 = 200;

    /// The sheet for what the kit's pages quote.
    pub fn of(findings: &Findings) -> ScoreSheet {
        let up = |n: f64, step: u32| (n.ceil().max(1.0) as u32).div_ceil(step) * step;
        let exact = findings.exact.as_ref();
        if let Some(e) = &findings.expected {
            // Games: the slowest teacher the pages quote, a faultless opponent, by the
            // machines it trained, not by their mean.
            let games = f64::from(e.games_90);
            // Losses: no opponent can inflict more than the worst case worked out.
            let losses = exact.map_or(e.max, |x| x.worst_losses.max(e.max));
            let rows = up(games, 10).clamp(20, Self::MOST_GAMES);
            return ScoreSheet {
                games: rows,
                losses: up(f64::from(losses), 2).clamp(10, rows),
            };
        }
        // A machine that cannot stop losing (HIM) loses every game to a faultless
        // opponent, one that learns over thousands of games (Marienbad) nearly every
        // game a class can play: the losses axis climbs as far as the games.
        if let Some(slow) = &findings.slow {
            // Thousands of games: no sheet reaches the end, so the usual number of rows.
            let games = Self::PLAIN.games;
            return ScoreSheet {
                games,
                losses: games.min(up(f64::from(slow.min), 5)),
            };
        }
        if findings.loses {
            // Until it gives up against either opponent the page quotes.
            let games = findings.gives_up.as_ref().map_or(Self::PLAIN.games, |g| {
                let quoted = g.perfect_games.max(g.random_games.unwrap_or(0));
                up(f64::from(quoted), 10).clamp(Self::PLAIN.games, Self::MOST_GAMES)
            });
            return ScoreSheet {
                games,
                losses: games,
            };
        }
        let Some(w) = &findings.watch else {
            return ScoreSheet::PLAIN;
        };
        // Until the run without a loss the page quotes typically ends, or the games
        // watched.
        let last = w.windows.last().map_or(Self::PLAIN.games, |w| w.to);
        let games = w
            .stopped_losing
            .as_ref()
            .map_or(f64::from(last), |s| s.mean + f64::from(w.streak))
            .min(f64::from(last));
        let games = up(games, 10).clamp(20, Self::MOST_GAMES);
        // Every game may be lost: an axis up to the machines' mean losses would leave
        // half the classes above its top.
        ScoreSheet {
            games,
            losses: games,
        }
    }
}

/// One bead colour on the overview: its name and letter, and how many to buy.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ColourLine {
    /// The colour's name in the kit's language.
    pub name: String,
    /// Its letter on the labels.
    pub code: String,
    /// Beads of it in the boxes at the start.
    pub beads: u32,
    /// Beads of it to buy, the reserve included.
    pub buy: u32,
}

/// How many boxes can be needed at one move number.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveBoxes {
    /// The move number.
    #[serde(rename = "move")]
    pub move_number: u32,
    /// Boxes whose position can arise at it.
    pub boxes: usize,
    /// The move as the labels' tags write it (`4`, or the machine's own `II`).
    pub tag: String,
}

/// Beads per move in the boxes first needed from one move number on.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScheduleStep {
    /// The move number.
    #[serde(rename = "move")]
    pub move_number: u32,
    /// Beads per move.
    pub beads: u32,
    /// The move as the labels' tags write it.
    pub tag: String,
    /// The machine's last move before the next step, as a tag, when the step covers
    /// more than one of its moves.
    pub until: Option<String>,
}

/// The variables every template sees (see templates/README.md).
#[derive(Clone, Debug, Serialize)]
pub struct TemplateContext {
    /// The kit's name.
    pub name: String,
    /// The side the matchboxes play.
    pub machine: Side,
    /// Positions merged under the board's symmetries.
    pub symmetry: bool,
    /// Positions with one legal move have no box.
    pub skip_forced: bool,
    /// The learning rule.
    pub rule: Rule,
    /// Beads per result under the `menace` rule.
    pub reward: Reward,
    /// What the tag under each label counts.
    pub tags: Tags,
    /// Number of boxes.
    pub boxes: usize,
    /// Beads in all boxes at the start.
    pub beads: u32,
    /// Extra beads to buy for a rule that adds beads.
    pub reserve: u32,
    /// Each bead colour used.
    pub colours: Vec<ColourLine>,
    /// Boxes per move number.
    pub per_move: Vec<MoveBoxes>,
    /// The move number of the machine's first move.
    pub first_move: u32,
    /// Most arrows on one label.
    pub max_arrows: usize,
    /// What the simulations and the exact analysis found (each a variable of its own).
    #[serde(flatten)]
    pub findings: Findings,
    /// Which historic machine the kit is, if any.
    pub history: Option<&'static str>,
    /// Beads per move from each listed move number on.
    pub schedule: Vec<ScheduleStep>,
    /// Whether the game can end in a draw.
    pub draws: bool,
    /// How the example game ends: `machine` or `opponent` (who won), `draw`, or `none`
    /// where the drawing stops before the end.
    pub example_end: ExampleEnd,
    /// The game's own variables (its settings), for its partials; set beside the others.
    #[serde(skip)]
    pub game: Value,
    /// The paper the kit is printed on: `A4` or `Letter`.
    pub paper: &'static str,
    /// The sticker sheet's product code, or none for labels cut from paper.
    pub stickers: Option<&'static str>,
    /// Sheets the labels fill, slots skipped by `start_at` included.
    pub label_sheets: usize,
    /// Length of the calibration bar at the foot of each label sheet, in mm.
    pub calibration_mm: u32,
    /// The score sheet's rows and chart, sized from the kit's figures.
    pub score_sheet: ScoreSheet,
}

impl TemplateContext {
    /// The variables for a kit, its boxes and what its sheet may quote of a simulation.
    pub fn new<G: Game>(
        game: &G,
        kit: &Kit,
        set: &BoxSet<G>,
        findings: &Findings,
    ) -> TemplateContext {
        let summary = set.summary(kit);
        let colours = colour_lines::<G>(kit, &summary.colours);
        let first_move = set.boxes.first().map_or(1, |b| b.move_numbers[0]);
        TemplateContext {
            name: kit.name.clone(),
            machine: kit.machine,
            symmetry: kit.symmetry,
            skip_forced: kit.skip_forced,
            rule: kit.rule,
            reward: kit.reward,
            tags: kit.tags,
            boxes: summary.boxes,
            beads: summary.beads,
            reserve: colours.iter().map(|c| c.buy - c.beads).sum(),
            colours,
            per_move: summary
                .per_move
                .iter()
                .map(|(&move_number, &boxes)| MoveBoxes {
                    move_number,
                    boxes,
                    tag: move_tag(kit, move_number),
                })
                .collect(),
            first_move,
            max_arrows: set.boxes.iter().map(|b| b.moves.len()).max().unwrap_or(0),
            findings: findings.clone(),
            history: game.historic(&kit.machine_settings()).map(|h| h.name),
            schedule: bead_schedule(kit, first_move),
            draws: game.can_draw(),
            example_end: ExampleEnd::of(game, kit.machine),
            game: game.template_vars(),
            paper: kit.paper.name(),
            stickers: kit.stickers.map(|s| s.code),
            label_sheets: crate::sheet::sheet_count(kit, set.boxes.len()),
            calibration_mm: crate::sheet::CALIBRATION_MM as u32,
            score_sheet: ScoreSheet::of(findings),
        }
    }
}

/// A move number as the labels' tags write it: every page writes a move so (the Bachet
/// kit: I, II).
fn move_tag(kit: &Kit, move_number: u32) -> String {
    tag(&[move_number], kit.machine, kit.tags, kit.numerals)
}

/// Each bead colour of a kit with its name, its letter and how many beads to buy.
fn colour_lines<G: Game>(kit: &Kit, colours: &[ColourBeads]) -> Vec<ColourLine> {
    let s = strings(kit.language);
    let adds_beads = kit.rule.adds_beads();
    colours
        .iter()
        .map(|c| {
            let colour = &kit.palette[c.colour];
            // Reward rules add beads: half as many again is a small reserve.
            let reserve = if adds_beads { c.beads.div_ceil(2) } else { 0 };
            ColourLine {
                name: s.colour_name(colour),
                code: s.bead_code(colour, G::DRAWN_LETTERS),
                beads: c.beads,
                buy: c.beads + reserve,
            }
        })
        .collect()
}

/// The beads a new box gets per move, as steps from a move number until the machine's
/// last move before the next step.
fn bead_schedule(kit: &Kit, first_move: u32) -> Vec<ScheduleStep> {
    let steps: Vec<(u32, u32)> = match &kit.beads {
        BeadSchedule::Each(n) => vec![(first_move, *n)],
        BeadSchedule::ByMoveNumber(map) => map.iter().map(|(&m, &b)| (m, b)).collect(),
    };
    steps
        .iter()
        .enumerate()
        .map(|(i, &(move_number, beads))| {
            // The machine's last move before the next step: one of its own parity.
            let until = steps.get(i + 1).map(|&(next, _)| {
                let last = next - 1;
                last - (last + first_move) % 2
            });
            ScheduleStep {
                move_number,
                beads,
                tag: move_tag(kit, move_number),
                until: until.filter(|&u| u > move_number).map(|u| move_tag(kit, u)),
            }
        })
        .collect()
}

/// Renders one section's template for a kit; an unknown variable is an error. The
/// shared templates of the language are `<section>.md`; the game's own partials,
/// `templates/<language>/games/<game>/<name>.md`, are included as `game/<name>.md`.
pub fn render(
    language: Language,
    game: &str,
    section: &str,
    ctx: &TemplateContext,
) -> Result<String, Error> {
    let code = language.code();
    let folder = format!("{code}/games/{game}/");
    let partials: Vec<(String, &str)> = template_folder(&folder)
        .map(|(name, source)| (format!("game/{name}"), source))
        .collect();
    let name = format!("{code}/{section}.md");
    let source = template_file(&name)
        .ok_or_else(|| Error::Internal(format!("no {section} template for {code}")))?;
    let mut env = Environment::new();
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    let syntax = minijinja::syntax::SyntaxConfig::builder()
        .trim_blocks(true)
        .lstrip_blocks(true)
        .build()
        .map_err(|e| Error::Internal(format!("template syntax: {e}")))?;
    env.set_syntax(syntax);
    // Whole numbers are written as the language writes them in running text.
    env.set_formatter(move |out, state, value| match value.as_i64() {
        Some(n) if value.is_integer() => out
            .write_str(&number(language, n))
            .map_err(minijinja::Error::from),
        _ => minijinja::escape_formatter(out, state, value),
    });
    env.add_function(
        "plural",
        move |n: i64, one: String, few: String, many: String| {
            plural(language, n, &one, &few, &many)
        },
    );
    env.add_function("figure", |name: String| {
        Figure::named(&name).map(figure_marker).ok_or_else(|| {
            minijinja::Error::new(
                minijinja::ErrorKind::InvalidOperation,
                format!("no figure is called `{name}`"),
            )
        })
    });
    for (partial, source) in &partials {
        env.add_template(partial, source)
            .map_err(|e| Error::Internal(format!("template {folder}{partial}: {e:#}")))?;
    }
    env.add_template(&name, source)
        .and_then(|()| {
            env.get_template(&name)?.render(minijinja::context! {
                ..Value::from(minijinja::value::Serde(ctx)),
                ..ctx.game.clone()
            })
        })
        .map_err(|e| Error::Internal(format!("template {name}: {e:#}")))
}

/// The instruction pages, in the order of kit.pdf, ready for the label sheets to follow.
pub fn instruction_pages<G: Game>(
    game: &G,
    kit: &Kit,
    set: &BoxSet<G>,
    findings: &Findings,
) -> Result<Vec<Page>, Error> {
    Ok(typeset(game, kit, set, findings)?.pages)
}

/// The instruction pages as set, with what each page holds and every line's text.
pub fn typeset<G: Game>(
    game: &G,
    kit: &Kit,
    set: &BoxSet<G>,
    findings: &Findings,
) -> Result<Booklet, Error> {
    let ctx = TemplateContext::new(game, kit, set, findings);
    let mut setter = Typesetter::new(kit);
    let score = ScoreSheet::of(findings);
    let sections = SECTIONS
        .iter()
        .map(|section| {
            Ok((
                *section,
                blocks(&render(kit.language, game.name(), section, &ctx)?),
            ))
        })
        .collect::<Result<Vec<_>, Error>>()?;
    // The score table's first part fills the page under the score page's text.
    let score_text = sections
        .iter()
        .find(|(name, _)| *name == "score")
        .map_or(0.0, |(_, b)| setter.text_height(b));
    let height = setter.column_height();
    // A little to spare: the text is measured as set loosely.
    let rooms = (height - score_text - 8.0, height - 2.0);
    let figures = drawings::Figures::new(game, kit, set, setter.column_width(), score, rooms);
    for (section, mut section_blocks) in sections {
        // The drawn parts of the last three pages follow their few lines of text.
        match section {
            "score" => section_blocks.extend(
                (0..figures.score_parts())
                    .map(Figure::ScoreTable)
                    .chain([Figure::ScoreChart])
                    .map(Block::Figure),
            ),
            "board" => section_blocks.push(Block::Figure(Figure::Board)),
            "index" => section_blocks
                .extend((0..figures.index_rows()).map(|row| Block::Figure(Figure::IndexRow(row)))),
            _ => {}
        }
        setter.section(&section_blocks, &|figure, room| {
            figures.draw(figure, height, room)
        })?;
    }
    Ok(setter.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expected(games_mean: f64, games_90: u32, max: u32) -> Findings {
        Findings {
            expected: Some(Expected {
                opponent: "perfect".into(),
                runs: 200,
                min: max,
                max,
                mean: f64::from(max),
                median: f64::from(max),
                games_mean,
                games_90,
            }),
            ..Findings::default()
        }
    }

    #[test]
    fn the_score_sheet_has_rows_for_the_games_nine_classes_in_ten_play() {
        // HER: a mean of 99 games, but one machine in ten needs more than 164.
        let her = ScoreSheet::of(&expected(99.2, 164, 11));
        assert_eq!((her.games, her.losses), (170, 12));
        // Bachet's machine: a mean of 25 games, nine in ten by 35; 12 losses.
        let bachet = ScoreSheet::of(&expected(25.2, 35, 12));
        assert_eq!((bachet.games, bachet.losses), (40, 12));
        // Nim with 1,000 stones: 2,258 games and 2,244 losses would be 60 pages of rows.
        let long = ScoreSheet::of(&expected(2258.0, 2400, 2244));
        assert_eq!((long.games, long.losses), (200, 200));
    }

    #[test]
    fn nine_runs_in_ten_had_at_most_the_90th_percentile() {
        let runs: Vec<u32> = (1..=200).collect();
        let stats = matchbox_engine::simulate::stats::Stats::of(&runs).unwrap();
        assert_eq!(quantile(&stats, 0.9), 180);
        // Ties: the count itself where it takes the 90th run.
        let tied = [5, 5, 5, 5, 5, 5, 5, 5, 5, 9];
        let stats = matchbox_engine::simulate::stats::Stats::of(&tied).unwrap();
        assert_eq!(quantile(&stats, 0.9), 5);
    }
}
