//! Command-line parsing and printing: each command reads a kit, calls the library and
//! prints what came back. No logic of its own.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::Error;
use crate::boxes::BoxSet;
use crate::game::Game;
use crate::kit::{GameVisitor, Kit, PRESETS};
use crate::report;

/// Printable classroom kits for matchbox learning machines.
#[derive(Parser, Debug)]
#[command(name = "matchbox", version, about, long_about = None)]
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
    /// A built-in kit instead of a file (see `matchbox presets`).
    #[arg(long, value_name = "NAME")]
    preset: Option<String>,
}

impl KitChoice {
    /// Reads and checks the chosen kit.
    pub fn load(&self) -> Result<Kit, Error> {
        match (&self.kit, &self.preset) {
            (_, Some(name)) => Kit::from_preset(name),
            (Some(path), None) => Kit::from_file(path),
            (None, None) => {
                let path = PathBuf::from("kit.yaml");
                if !path.exists() {
                    return Err(Error::Input(
                        "no kit.yaml in this folder: pass --kit FILE or --preset NAME (see `matchbox presets`)".into(),
                    ));
                }
                Kit::from_file(&path)
            }
        }
    }
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List the built-in kits.
    Presets,
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
        /// Folder to write into [default: out/<kit name>].
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Resolution of the PNG previews.
        #[arg(long, default_value_t = crate::make::DEFAULT_DPI)]
        dpi: f32,
        /// Print what was written as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Find the box for a position written as `boxes` prints it, in any orientation.
    Find {
        #[command(flatten)]
        kit: KitChoice,
        /// The position, e.g. `BBB/.W./W.W` (hexapawn), `X.O/.X./...` or `5` (nim).
        position: String,
    },
}

/// Runs the command line and returns the exit status.
pub fn main() -> i32 {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("matchbox: {e}");
            e.exit_code()
        }
    }
}

fn run(cli: Cli) -> Result<(), Error> {
    match cli.command {
        Command::Presets => {
            let width = PRESETS.iter().map(|p| p.name.len()).max().unwrap_or(0);
            let mut out = String::new();
            for p in &PRESETS {
                out.push_str(&format!("{:<width$}  {}\n", p.name, p.about));
            }
            print(&out)
        }
        Command::Boxes { kit, json } => {
            let kit = kit.load()?;
            print(&kit.visit(BoxesCommand { kit: &kit, json })?)
        }
        Command::Kit {
            kit,
            out,
            dpi,
            json,
        } => {
            let kit = kit.load()?;
            let dir = out.unwrap_or_else(|| crate::make::default_dir(&kit));
            let report = crate::make::write_kit(&kit, &dir, dpi)?;
            if json {
                let text = serde_json::to_string_pretty(&report)
                    .map_err(|e| Error::Internal(e.to_string()))?;
                return print(&(text + "\n"));
            }
            let pages = |n: usize| format!("{n} page{}", if n == 1 { "" } else { "s" });
            let mut text = format!(
                "{}: {} boxes\n  {}  ({})\n  {}  ({})\n",
                kit.name,
                report.boxes,
                dir.join("labels.pdf").display(),
                pages(report.label_pages),
                dir.join("kit.pdf").display(),
                pages(report.kit_pages)
            );
            if report.previews > 0 {
                text.push_str(&format!(
                    "  {}  ({} previews)\n",
                    dir.join("previews").display(),
                    report.previews
                ));
            }
            print(&text)
        }
        Command::Find { kit, position } => {
            let kit = kit.load()?;
            print(&kit.visit(FindCommand {
                kit: &kit,
                text: &position,
            })?)
        }
    }
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

struct BoxesCommand<'a> {
    kit: &'a Kit,
    json: bool,
}

impl GameVisitor for BoxesCommand<'_> {
    type Output = Result<String, Error>;
    fn visit<G: Game>(self, game: &G) -> Self::Output {
        let set = BoxSet::build(game, self.kit)?;
        Ok(if self.json {
            let value = report::boxes_json(game, self.kit, &set);
            serde_json::to_string_pretty(&value).map_err(|e| Error::Internal(e.to_string()))? + "\n"
        } else {
            report::boxes_text(game, self.kit, &set)
        })
    }
}

struct FindCommand<'a> {
    kit: &'a Kit,
    text: &'a str,
}

impl GameVisitor for FindCommand<'_> {
    type Output = Result<String, Error>;
    fn visit<G: Game>(self, game: &G) -> Self::Output {
        let set = BoxSet::build(game, self.kit)?;
        let (i, symmetry) = set.find_notation(game, self.text)?;
        let b = &set.boxes[i];
        Ok(format!(
            "box {}, {}\n\n{}",
            b.id,
            game.describe_symmetry(symmetry),
            report::box_text(game, self.kit, b)
        ))
    }
}
