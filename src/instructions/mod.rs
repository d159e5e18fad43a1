//! The instruction pages of kit.pdf: templates (Markdown with minijinja variables, in
//! `templates/<language>/`) filled with this kit's figures, parsed and set on pages with
//! the drawings between paragraphs.

pub mod drawings;
pub mod layout;
pub mod markdown;

use minijinja::{Environment, UndefinedBehavior, Value};
use serde::Serialize;
use serde_json::json;

use crate::Error;
use crate::boxes::BoxSet;
use crate::game::{Game, Side};
use crate::i18n::{plural, strings};
use crate::kit::{BeadSchedule, GameSpec, Kit, Language, Rule};
use crate::make::colours_used;
use crate::sheet::Page;
use layout::Typesetter;
use markdown::{Block, blocks, figure_marker};

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
    /// The exact figures and the fastest teacher, for a kit small enough.
    pub exact: Option<crate::simulate::exact::SheetFigures>,
}

impl Expected {
    /// The figures of a training against `perfect`, or `None` when some machine had not
    /// learnt by the end: then no sheet quotes them.
    pub fn from_training(training: &crate::simulate::Training) -> Option<Expected> {
        let losses = training.losses_to_learn.as_ref()?;
        (training.unfinished == 0).then(|| Expected {
            opponent: "perfect".into(),
            runs: training.runs,
            min: losses.min,
            max: losses.max,
            mean: losses.mean,
            median: losses.median,
            exact: None,
        })
    }
}

macro_rules! templates {
    ($($lang:ident => $dir:literal),*) => {
        /// The Markdown template of a section in a language (compiled in).
        pub fn template_source(language: Language, section: &str) -> Option<&'static str> {
            Some(match (language, section) {
                $(
                    (Language::$lang, "overview") => include_str!(concat!("../../templates/", $dir, "/overview.md")),
                    (Language::$lang, "rules") => include_str!(concat!("../../templates/", $dir, "/rules.md")),
                    (Language::$lang, "operator") => include_str!(concat!("../../templates/", $dir, "/operator.md")),
                    (Language::$lang, "teacher") => include_str!(concat!("../../templates/", $dir, "/teacher.md")),
                    (Language::$lang, "score") => include_str!(concat!("../../templates/", $dir, "/score.md")),
                    (Language::$lang, "board") => include_str!(concat!("../../templates/", $dir, "/board.md")),
                    (Language::$lang, "index") => include_str!(concat!("../../templates/", $dir, "/index.md")),
                )*
                _ => return None,
            })
        }
    };
}

templates!(En => "en", Pl => "pl", Ru => "ru");

/// Which historic machine a kit is, for a sentence of history.
fn history(kit: &Kit) -> Option<&'static str> {
    match &kit.game {
        GameSpec::Hexapawn { rows: 3, cols: 3 } => Some(match kit.machine {
            Side::First => "him",
            Side::Second => "her",
        }),
        GameSpec::Nim {
            stones: 8, take, ..
        } if take == &[1, 2, 3] => Some(if kit.rule == Rule::Relay {
            "relay"
        } else {
            "bachet"
        }),
        GameSpec::TicTacToe => Some("menace"),
        _ => None,
    }
}

/// The variables every template sees (see templates/README.md).
pub fn context<G: Game>(
    kit: &Kit,
    set: &BoxSet<G>,
    expected: Option<&Expected>,
) -> serde_json::Value {
    let s = strings(kit.language);
    let summary = set.summary(kit);
    let adds_beads = matches!(kit.rule, Rule::GardnerReward | Rule::Menace);
    let colours: Vec<serde_json::Value> = colours_used(kit, set)
        .into_iter()
        .map(|c| {
            let beads = summary.colours.get(&c.name).and_then(|v| v.as_u64()).unwrap_or(0);
            // Reward rules add beads: half as many again is a small reserve.
            let reserve = if adds_beads { beads.div_ceil(2) } else { 0 };
            json!({"name": s.colour_name(c), "code": s.colour_code(c), "beads": beads, "buy": beads + reserve})
        })
        .collect();
    let reserve: u64 = colours
        .iter()
        .map(|c| c["buy"].as_u64().unwrap_or(0) - c["beads"].as_u64().unwrap_or(0))
        .sum();
    let first_move = set.boxes.first().map_or(1, |b| b.move_numbers[0]);
    let schedule: Vec<serde_json::Value> = match &kit.beads {
        BeadSchedule::Each(n) => vec![json!({"move": first_move, "beads": n})],
        BeadSchedule::ByMoveNumber(map) => map
            .iter()
            .map(|(m, n)| json!({"move": m, "beads": n}))
            .collect(),
    };
    let mut ctx = json!({
        "name": kit.name,
        "game": kit.game.name(),
        "machine": kit.machine,
        "symmetry": kit.symmetry,
        "skip_forced": kit.skip_forced,
        "rule": kit.rule.name(),
        "reward": kit.reward,
        "tags": kit.tags,
        "boxes": summary.boxes,
        "beads": summary.beads,
        "reserve": reserve,
        "colours": colours,
        "per_move": summary.per_move.iter().map(|(m, n)| json!({"move": m, "boxes": n})).collect::<Vec<_>>(),
        "first_move": first_move,
        "max_arrows": set.boxes.iter().map(|b| b.moves.len()).max().unwrap_or(0),
        "expected": expected,
        "exact": expected.and_then(|e| e.exact.as_ref()),
        "history": history(kit),
        "schedule": schedule,
    });
    match &kit.game {
        GameSpec::Hexapawn { rows, cols } => {
            ctx["rows"] = json!(rows);
            ctx["cols"] = json!(cols);
        }
        GameSpec::Nim {
            stones,
            take,
            last_stone,
        } => {
            ctx["stones"] = json!(stones);
            ctx["take"] = json!(take);
            ctx["last_stone_wins"] = json!(*last_stone == crate::kit::LastStone::Wins);
        }
        GameSpec::TicTacToe => {}
    }
    ctx
}

/// Renders one section's template for a kit; an unknown variable is an error.
pub fn render(language: Language, section: &str, ctx: &serde_json::Value) -> Result<String, Error> {
    let source = template_source(language, section)
        .ok_or_else(|| Error::Internal(format!("no {section} template for {}", language.code())))?;
    let mut env = Environment::new();
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    let syntax = minijinja::syntax::SyntaxConfig::builder()
        .trim_blocks(true)
        .lstrip_blocks(true)
        .build()
        .map_err(|e| Error::Internal(format!("template syntax: {e}")))?;
    env.set_syntax(syntax);
    env.add_function(
        "plural",
        move |n: i64, one: String, few: String, many: String| {
            plural(language, n, &one, &few, &many)
        },
    );
    env.add_function("figure", |name: String| figure_marker(&name));
    let name = format!("{}/{section}.md", language.code());
    env.add_template(&name, source)
        .and_then(|()| {
            env.get_template(&name)?
                .render(Value::from(minijinja::value::Serde(ctx)))
        })
        .map_err(|e| Error::Internal(format!("template {name}: {e:#}")))
}

/// The instruction pages, in the order of kit.pdf, ready for the label sheets to follow.
pub fn instruction_pages<G: Game>(
    game: &G,
    kit: &Kit,
    set: &BoxSet<G>,
    expected: Option<&Expected>,
) -> Result<Vec<Page>, Error> {
    let ctx = context(kit, set, expected);
    let mut setter = Typesetter::new(kit);
    let figures = drawings::Figures::new(game, kit, set, setter.column_width());
    for section in SECTIONS {
        let markdown = render(kit.language, section, &ctx)?;
        let mut section_blocks: Vec<Block> = blocks(&markdown);
        // The drawn parts of the last three pages follow their few lines of text.
        match section {
            "score" => section_blocks
                .extend(["score-table", "score-chart"].map(|f| Block::Figure(f.into()))),
            "board" => section_blocks.push(Block::Figure("board".into())),
            "index" => section_blocks
                .extend((0..figures.index_rows()).map(|row| Block::Figure(format!("index-{row}")))),
            _ => {}
        }
        let height = setter.column_height();
        setter.section(&section_blocks, &|name: &str| figures.draw(name, height))?;
    }
    Ok(setter.finish())
}
