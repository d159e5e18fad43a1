//! Command-line parsing and dispatch: each command reads a kit, hands it to the libraries
//! (the engine, the print shop, `matchbox-report`, `matchbox-play`, the server) and
//! prints what came back. No logic of its own.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use clap::{Args, Parser, Subcommand, ValueEnum};

use matchbox_engine::boxes::BoxSet;
use matchbox_engine::game::{Descriptor, Notation};
use matchbox_engine::i18n::{Language, Messages, id};
use matchbox_engine::kit::{Kit, MAX_KIT_BYTES};
use matchbox_engine::rule::Rule;
use matchbox_engine::simulate::{self, OpponentKind, Setup, state, verify};
use matchbox_engine::with_game;
use matchbox_engine::{Error, problem};
use matchbox_files::{check_file_path, kit_folder, write_atomic};

use matchbox_play as play;
use matchbox_report as report;

use crate::progress::{KitProgress, progress_bar};

/// What `matchbox --version` prints after the name: the release and the commit it was
/// built from (build.rs), so that a bug report names the exact program.
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("MATCHBOX_COMMIT"),
    ")"
);

/// Printable classroom kits for matchbox learning machines.
#[derive(Parser, Debug)]
#[command(name = "matchbox", version = VERSION, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Where the kit comes from.
#[derive(Args, Debug, Clone)]
pub struct KitChoice {
    /// The kit file [default: ./kit.yaml].
    #[arg(long, value_name = "FILE", conflicts_with = "preset")]
    kit: Option<PathBuf>,
    /// The kit file, as a teacher types it (`matchbox kit my-kit.yaml`): the same as --kit.
    #[arg(value_name = "KIT", conflicts_with_all = ["kit", "preset"])]
    file: Option<PathBuf>,
    /// A built-in kit instead of a file (see `matchbox presets`).
    #[arg(long, value_name = "NAME")]
    preset: Option<String>,
}

impl KitChoice {
    /// Reads and checks the chosen kit, showing its warnings on stderr.
    pub fn load(&self) -> Result<Kit, Error> {
        let kit = self.read()?;
        for warning in &kit.warnings {
            eprintln!("matchbox: {warning}");
        }
        Ok(kit)
    }

    /// Loads the kit and runs `command` on it, its mistakes said in the kit's language.
    fn with<T>(&self, command: impl FnOnce(&Kit) -> Result<T, Error>) -> Result<T, Error> {
        let kit = self.load()?;
        command(&kit).map_err(|e| e.in_language(kit.language))
    }

    fn read(&self) -> Result<Kit, Error> {
        match (self.kit.as_ref().or(self.file.as_ref()), &self.preset) {
            (_, Some(name)) => Kit::from_preset(name),
            (Some(path), None) => read_kit(path),
            (None, None) => {
                let path = PathBuf::from("kit.yaml");
                if !path.exists() {
                    return Err(english()
                        .message(id::ERROR_NO_KIT, &[])
                        .hint(problem::Command::Presets, id::PROBLEM_HINT_SEE)
                        .into());
                }
                read_kit(&path)
            }
        }
    }
}

/// Reads a kit file of at most [`MAX_KIT_BYTES`].
fn read_kit(path: &std::path::Path) -> Result<Kit, Error> {
    use std::io::Read;
    let shown = path.display().to_string();
    let mut bytes = Vec::new();
    // One byte past the limit tells a long file (or /dev/zero) at once.
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_KIT_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| {
            let why = e.to_string();
            let said = |id| english().message(id, &[("file", &shown), ("why", &why)]);
            match e.kind() {
                std::io::ErrorKind::IsADirectory => said(id::ERROR_KIT_IS_FOLDER),
                _ => said(id::ERROR_KIT_UNREADABLE),
            }
        })?;
    // A kit whose `language:` names none of the kit languages is told so in the
    // terminal's: the teacher who wrote `language: de` reads the choices in words they know.
    Kit::from_bytes(bytes, &shown, terminal_language().unwrap_or_default())
}

/// The kit language the terminal's locale names, if any (POSIX order: the first of
/// `LC_ALL`, `LC_MESSAGES`, `LANG` that is set decides).
fn terminal_language() -> Option<Language> {
    let locale = ["LC_ALL", "LC_MESSAGES", "LANG"]
        .into_iter()
        .filter_map(|name| std::env::var(name).ok())
        .find(|value| !value.is_empty())?;
    let code = locale.split(['_', '.', '@']).next()?;
    Language::ALL.into_iter().find(|l| l.code() == code)
}

/// The words of a mistake made before a kit names its language.
fn english() -> Messages {
    Messages(Language::En)
}

/// Where the machine's beads are kept between runs (`play` and `serve` share the file).
#[derive(Args, Debug, Clone)]
pub struct StateChoice {
    /// Keep the machine's beads in this JSON file between games and runs.
    #[arg(long, value_name = "FILE")]
    state: Option<PathBuf>,
    /// Read a --state file although it was changed by hand since matchbox saved it.
    #[arg(long, requires = "state")]
    accept_edited_state: bool,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List the built-in kits.
    Presets,
    /// List the label sizes and sticker sheets a kit can print on.
    Labels,
    /// List every box of a kit: position, move numbers, moves, colours, beads.
    Boxes {
        #[command(flatten)]
        kit: KitChoice,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Write the printable kit: labels.pdf, kit.pdf and a PNG preview of every label.
    Kit {
        #[command(flatten)]
        kit: KitChoice,
        #[command(flatten)]
        args: KitArgs,
    },
    /// Find the box for a position written as `boxes` prints it, in any orientation.
    Find {
        /// The position as `matchbox boxes` prints it, e.g. `BBB/.W./W.W`, `X.O/.X./...` or `5`.
        position: String,
        #[command(flatten)]
        kit: KitChoice,
    },
    /// Train the machine by simulation: many fresh machines until each can no longer
    /// lose (--runs), or one machine over many games (--games).
    Simulate {
        #[command(flatten)]
        kit: KitChoice,
        #[command(flatten)]
        args: SimulateArgs,
    },
    /// Check a kit before printing it, then train it and compare with the articles' claims.
    Verify {
        #[command(flatten)]
        kit: KitChoice,
        #[command(flatten)]
        args: VerifyArgs,
    },
    /// Play against the machine in the terminal; moves are read line by line from stdin.
    Play {
        #[command(flatten)]
        kit: KitChoice,
        #[command(flatten)]
        args: PlayArgs,
    },
    /// Serve the machine as a web page for the classroom's screen, until Ctrl-C.
    Serve {
        #[command(flatten)]
        kit: KitChoice,
        #[command(flatten)]
        args: ServeArgs,
    },
}

/// When to colour the beads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Colour {
    /// On a terminal, unless NO_COLOR is set.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// A parser for one of the library's values by its name: the library stays free of clap.
fn by_name<T: Copy + Send + Sync + 'static>(
    all: &'static [T],
    name: fn(T) -> &'static str,
) -> impl clap::builder::TypedValueParser<Value = T> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(all.iter().map(|&v| name(v))).map(move |chosen| {
        *all.iter()
            .find(|&&v| name(v) == chosen)
            .expect("clap checked the name against the same list")
    })
}

/// The flags of `simulate`.
#[derive(Args, Debug, Clone)]
pub struct SimulateArgs {
    /// The learning rule [default: the kit's].
    #[arg(long, value_parser = by_name(&Rule::ALL, Rule::name))]
    rule: Option<Rule>,
    /// Who the machine plays.
    #[arg(long, value_parser = by_name(&OpponentKind::ALL, OpponentKind::name), default_value = "perfect")]
    opponent: OpponentKind,
    /// Seed of the random draws: the same seed gives the same figures.
    #[arg(long, default_value_t = simulate::EXPECTATION_SEED)]
    seed: u64,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    /// Train this many fresh machines, each until it can no longer lose.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..), conflicts_with = "games", required_unless_present = "games")]
    runs: Option<u32>,
    /// With --runs: games after which a machine that can still lose counts as unfinished.
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u32).range(1..), conflicts_with = "games")]
    max_games: u32,
    /// Follow one machine over this many games.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    games: Option<u32>,
    /// With --games: write every game to this CSV file.
    #[arg(long, value_name = "FILE", conflicts_with = "runs")]
    csv: Option<PathBuf>,
    /// With --games: draw the learning curve into this .svg or .png file.
    #[arg(long, value_name = "FILE", conflicts_with = "runs")]
    plot: Option<PathBuf>,
}

/// The flags of `kit`.
#[derive(Args, Debug, Clone)]
pub struct KitArgs {
    // The help's words, not HTML: `<kit name>` is what `--help` prints.
    #[allow(rustdoc::invalid_html_tags)]
    /// Folder to write into [default: out/<kit name>].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Resolution of the PNG previews.
    #[arg(long, default_value_t = matchbox_print::make::DEFAULT_DPI)]
    dpi: f32,
    /// Print what was written as JSON.
    #[arg(long)]
    json: bool,
}

/// The flags of `verify`.
#[derive(Args, Debug, Clone)]
pub struct VerifyArgs {
    /// Who the machine learns against: its figures, and the claim, are against it.
    #[arg(long, value_parser = by_name(&OpponentKind::VERIFIABLE, OpponentKind::name), default_value = "perfect")]
    opponent: OpponentKind,
    /// Fresh machines to train.
    #[arg(long, default_value_t = verify::VERIFY_RUNS, value_parser = clap::value_parser!(u32).range(1..))]
    runs: u32,
    /// Games after which a machine that can still lose counts as unfinished.
    #[arg(long, default_value_t = simulate::EXPECTATION_MAX_GAMES, value_parser = clap::value_parser!(u32).range(1..))]
    max_games: u32,
    /// Seed of the random draws.
    #[arg(long, default_value_t = simulate::EXPECTATION_SEED)]
    seed: u64,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// The flags of `play`.
#[derive(Args, Debug, Clone)]
pub struct PlayArgs {
    /// The learning rule [default: the kit's].
    #[arg(long, value_parser = by_name(&Rule::ALL, Rule::name))]
    rule: Option<Rule>,
    #[command(flatten)]
    state: StateChoice,
    /// Seed of the machine's draws [default: from the clock].
    #[arg(long)]
    seed: Option<u64>,
    /// Colour the beads: auto (on a terminal, unless NO_COLOR is set), always, never.
    #[arg(long, value_enum, default_value_t = Colour::Auto)]
    colour: Colour,
}

/// The flags of `serve`.
#[derive(Args, Debug, Clone)]
pub struct ServeArgs {
    #[command(flatten)]
    state: StateChoice,
    /// The port [default: 8080, or the port in --listen; 0 picks a free one].
    #[arg(long)]
    port: Option<u16>,
    /// The address to listen on; 0.0.0.0 lets tablets on the network watch.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    listen: String,
    /// The learning rule [default: the kit's].
    #[arg(long, value_parser = by_name(&Rule::ALL, Rule::name))]
    rule: Option<Rule>,
    /// Seed of the machine's draws [default: from the clock].
    #[arg(long)]
    seed: Option<u64>,
}

/// Runs the command line and returns the exit status.
pub fn main() -> i32 {
    let cli = Cli::parse();
    // `serve` stops on Ctrl-C or SIGTERM by itself: it ends a training run, saves, and
    // exits 130.
    if !matches!(cli.command, Command::Serve { .. }) {
        matchbox_files::clean_up_on_signals();
    }
    match run(cli) {
        Ok(status) => status,
        Err(e) => {
            eprintln!("matchbox: {e}");
            e.exit_code()
        }
    }
}

/// Exit status of `verify` when a check fails or a claim does not hold (1 and 2 are
/// internal failures and input mistakes).
const NOT_HOLDING: i32 = 3;

/// Runs the command given, returning the exit status: the kit loaded, then the command's
/// own function, one short arm each, so the commands read side by side.
fn run(cli: Cli) -> Result<i32, Error> {
    match cli.command {
        Command::Presets => print(&report::presets_text())?,
        Command::Labels => print(&report::label_stocks())?,
        Command::Boxes { kit, json } => kit.with(|kit| {
            print(&with_game!(&kit.game, |game| boxes_command(
                game, kit, json
            ))?)
        })?,
        Command::Find { kit, position } => kit.with(|kit| {
            print(&with_game!(&kit.game, |game| find_command(
                game, kit, &position
            ))?)
        })?,
        Command::Kit { kit, args } => kit_command(&kit, args)?,
        Command::Simulate { kit, args } => {
            kit.with(|kit| with_game!(&kit.game, |game| simulate_command(game, kit, &args)))?
        }
        Command::Verify { kit, args } => return kit.with(|kit| verify_command(kit, &args)),
        Command::Play { kit, args } => {
            kit.with(|kit| with_game!(&kit.game, |game| play_command(game, kit, &args)))?
        }
        Command::Serve { kit, args } => return kit.with(|kit| serve_command(kit, args)),
    }
    Ok(0)
}

/// `matchbox kit`: the kit's files written into its folder, then what was written.
fn kit_command(kit: &KitChoice, args: KitArgs) -> Result<(), Error> {
    // A kit folder left in the crash window by a killed run is put back first, whether
    // or not this run then succeeds.
    match &args.out {
        Some(dir) => matchbox_files::restore(dir),
        None => matchbox_files::restore_all(Path::new(kit_folder::OUT)),
    }
    kit.with(|kit| {
        let dir = args.out.unwrap_or_else(|| kit_folder::default_dir(kit));
        let progress = KitProgress::new(kit.language);
        let written = kit_folder::write_kit(kit, &dir, args.dpi, &progress)?;
        if let Some(bar) = progress.bar.get() {
            bar.finish_and_clear();
        }
        print(&if args.json {
            to_json(&written)?
        } else {
            report::kit_text(kit, &dir, &written)
        })
    })
}

/// `matchbox verify`: the kit checked, trained and held to the articles' claims; the
/// exit status says whether it passes.
fn verify_command(kit: &Kit, args: &VerifyArgs) -> Result<i32, Error> {
    let bar = progress_bar(u64::from(args.runs));
    let progress = |n| bar.inc(n);
    let verdict = with_game!(&kit.game, |game| {
        // A kit that `kit` cannot print does not pass either, for the same reason.
        matchbox_print::make::check_printable(game, kit)?;
        verify::verify(
            game,
            kit,
            args.opponent,
            args.runs,
            args.max_games,
            args.seed,
            &progress,
        )
    })?;
    bar.finish_and_clear();
    print(&if args.json {
        to_json(&verdict)?
    } else {
        report::verdict_text(kit, &verdict)
    })?;
    if !verdict.all_hold() {
        eprintln!("matchbox: the kit does not pass: see above");
        return Ok(NOT_HOLDING);
    }
    Ok(0)
}

/// `matchbox serve`: the classroom screen, until Ctrl-C; its exit status.
fn serve_command(kit: &Kit, args: ServeArgs) -> Result<i32, Error> {
    let options = matchbox_serve::Options {
        state: args.state.state,
        accept_edited_state: args.state.accept_edited_state,
        listen: matchbox_serve::listen_address(Some(&args.listen), args.port)?,
        rule: args.rule,
        seed: args.seed.unwrap_or_else(clock_seed),
    };
    matchbox_serve::serve(kit, &options)
}

/// A seed from the clock, for draws that need not be repeatable.
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

fn to_json(value: &impl serde::Serialize) -> Result<String, Error> {
    Ok(serde_json::to_string_pretty(value)? + "\n")
}

/// Writes to stdout; a closed pipe (`| head`) is not an error.
fn print(text: &str) -> Result<(), Error> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(Error::Internal(format!("cannot write to stdout: {e}")))
        }
        _ => Ok(()),
    }
}

/// `matchbox boxes`: every box, as text or JSON.
fn boxes_command<G: Notation + Descriptor>(
    game: &G,
    kit: &Kit,
    json: bool,
) -> Result<String, Error> {
    let set = BoxSet::build(game, kit)?;
    Ok(if json {
        let value = matchbox_engine::boxes::boxes_json(game, kit, &set);
        serde_json::to_string_pretty(&value)? + "\n"
    } else {
        report::boxes_text(game, kit, &set)
    })
}

/// `matchbox find`: the box for a position in the game's notation.
fn find_command<G: Notation + Descriptor>(
    game: &G,
    kit: &Kit,
    text: &str,
) -> Result<String, Error> {
    let set = BoxSet::build(game, kit)?;
    let (i, symmetry) = set.find_notation(game, text, kit.language)?;
    Ok(report::found_text(game, kit, &set.boxes[i], symmetry))
}

/// `matchbox simulate`: trains machines (`--runs`) or plays games (`--games`).
fn simulate_command<G: Notation + Descriptor>(
    game: &G,
    kit: &Kit,
    a: &SimulateArgs,
) -> Result<(), Error> {
    let rule = a.rule.unwrap_or(kit.rule);
    for path in a.csv.iter().chain(&a.plot) {
        check_file_path(path)?;
    }
    if let Some(path) = &a.plot {
        plot_format(path)?;
    }
    let mut setup = Setup::new(game, kit, rule, a.opponent == OpponentKind::Machine)?;
    if a.opponent == OpponentKind::OptimalTeacher {
        setup.solve_teaching()?;
    }
    if let Some(runs) = a.runs {
        let bar = progress_bar(u64::from(runs));
        let training = simulate::train(&setup, a.opponent, runs, a.max_games, a.seed, &|n| {
            bar.inc(n)
        })?;
        bar.finish_and_clear();
        return print(&if a.json {
            to_json(&training)?
        } else {
            report::training_text(kit, rule, a.opponent, a.seed, &training)
        });
    }
    let games = a.games.unwrap_or(1);
    let bar = progress_bar(u64::from(games));
    let session = simulate::play_games(
        game,
        &setup,
        a.opponent,
        games,
        a.seed,
        a.csv.is_some(),
        &|n| bar.inc(n),
    )?;
    bar.finish_and_clear();
    if let (Some(path), Some(rows)) = (&a.csv, &session.csv) {
        write_atomic(path, rows.as_bytes())?;
    }
    if let Some(path) = &a.plot {
        let title = report::plot_title(kit, games, a.opponent, rule);
        write_plot(
            path,
            &matchbox_print::plot::curve_scene(&title, &session.curve),
        )?;
    }
    print(&if a.json {
        to_json(&session)?
    } else {
        report::session_text(kit, rule, a.opponent, a.seed, &session)
    })
}

/// Whether the learning curve goes into an SVG file (else PNG), by the file's extension.
fn plot_format(path: &Path) -> Result<bool, Error> {
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match extension.as_deref() {
        Some("svg") => Ok(true),
        Some("png") => Ok(false),
        _ => Err(english()
            .message(
                id::ERROR_PLOT_EXTENSION,
                &[("file", &path.display().to_string())],
            )
            .into()),
    }
}

/// Writes the learning curve as SVG or PNG, by the file's extension.
fn write_plot(path: &Path, scene: &matchbox_print::draw::scene::Scene) -> Result<(), Error> {
    let bytes = if plot_format(path)? {
        matchbox_print::draw::svg::to_svg(scene).into_bytes()
    } else {
        matchbox_print::draw::png::to_png(scene, PLOT_DPI)?
    };
    write_atomic(path, &bytes)
}

/// Resolution of a PNG learning curve: sharp on screen and in print.
const PLOT_DPI: f32 = 150.0;

/// `matchbox play`: games against the machine in the terminal, its beads kept in the
/// `--state` file. `--rule`, if given, is the rule: a state file's own rule otherwise,
/// else the kit's.
fn play_command<G: Notation + Descriptor>(
    game: &G,
    kit: &Kit,
    args: &PlayArgs,
) -> Result<(), Error> {
    let state = args.state.state.as_deref();
    if let Some(path) = state {
        check_file_path(path)?;
    }
    // Held to the end, so that a `serve` on the same file cannot overwrite these games.
    let _lock = state
        .map(matchbox_files::lock::StateLock::take)
        .transpose()?;
    let state::Opened {
        kit,
        setup,
        saved,
        notes,
    } = state::open_machine(
        game,
        kit,
        state.map(|path| (path, std::fs::read(path))),
        args.rule,
        |kit, rule| Setup::new(game, kit, rule, false),
        args.state.accept_edited_state,
    )?;
    for note in notes {
        eprintln!("matchbox: {note}");
    }
    let save = |now: &state::Saved| match state {
        Some(path) => {
            let text = state::to_json(game, &kit, &setup, now)?;
            write_atomic(path, text.as_bytes())
        }
        None => Ok(()),
    };
    let options = play::Options {
        colour: play::use_colour(
            match args.colour {
                Colour::Auto => None,
                Colour::Always => Some(true),
                Colour::Never => Some(false),
            },
            std::io::stdout().is_terminal(),
            std::env::var("NO_COLOR").ok().as_deref(),
        ),
        seed: args.seed.unwrap_or_else(clock_seed),
        echo: !std::io::stdin().is_terminal(),
    };
    let console = play::Console {
        input: std::io::stdin().lock(),
        output: std::io::stdout().lock(),
    };
    play::session(game, &kit, &setup, saved, &options, console, save).map(drop)
}
