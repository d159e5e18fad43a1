//! `matchbox kit`: the boxes drawn as labels, laid out on sheets, and made in memory as
//! labels.pdf, kit.pdf and one PNG preview per box (the binary writes them).

use std::sync::Arc;

use matchbox_engine::parallel::prelude::*;

use crate::draw::scene::{SMALLEST_LETTER_MM, Scene, readable_letter};
use crate::draw::{pdf, png};
use crate::instructions::{Expected, Findings, GivesUp, RewardLosses, Slow, instruction_pages};
use crate::label::{TagSize, draw_label, smallest_letter};
use crate::pictures::Game;
use crate::sheet::{self, Page};
use matchbox_engine::Error;
use matchbox_engine::boxes::BoxSet;
use matchbox_engine::i18n::{decimal, id, strings};
use matchbox_engine::kit::{Kit, Numerals};
use matchbox_engine::machine::Tree;
use matchbox_engine::palette::Colour;
use matchbox_engine::problem::Command;
use matchbox_engine::rule::Rule;
use matchbox_engine::simulate::exact::{self, GivingUp, Measure, SheetFigures};
use matchbox_engine::simulate::verify::{REWARD_GAMES, VERIFY_RUNS, losses_early};
use matchbox_engine::simulate::watch::watch;
use matchbox_engine::simulate::{
    EXPECTATION_MAX_GAMES, EXPECTATION_RUNS, EXPECTATION_SEED, OpponentKind, Setup,
    expected_losses, side_loses, train,
};

/// Preview resolution unless told otherwise.
pub const DEFAULT_DPI: f32 = 150.0;

/// The kit's files, made in memory before anything is written.
pub struct KitFiles {
    /// labels.pdf.
    pub labels_pdf: Vec<u8>,
    /// kit.pdf.
    pub kit_pdf: Vec<u8>,
    /// Pages of each.
    pub pages: (usize, usize),
    /// (file name, PNG) per box, empty when previews are off or [`Progress::preview`]
    /// took them.
    pub previews: Vec<(String, Vec<u8>)>,
    /// Number of boxes.
    pub boxes: usize,
}

/// What [`make_files_telling`] tells as it goes, for a progress bar.
pub trait Progress: Sync {
    /// The boxes are found: `labels` labels to draw, and as many previews to make when
    /// `previews`.
    fn boxes_found(&self, _labels: usize, _previews: bool) {}
    /// One more label drawn or preview made.
    fn step(&self) {}
    /// A preview made, named `name`: kept in [`KitFiles::previews`], unless taken here
    /// (the binary writes each to disk at once, while the rest of the kit is made).
    fn preview(&self, name: String, png: Vec<u8>) -> Option<(String, Vec<u8>)> {
        Some((name, png))
    }
}

/// Nothing told.
impl Progress for () {}

/// [`make_files_telling`] for the kit's game.
fn build<G: Game>(
    game: &G,
    kit: &Kit,
    dpi: Option<f32>,
    progress: &dyn Progress,
) -> Result<KitFiles, Error> {
    // The one compiled machine: boxes, the exact positions and the beads on them,
    // for the labels, the pages and the figures alike.
    let (set, label_sheets) = checked_labels(game, kit, |boxes| {
        progress.boxes_found(boxes, dpi.is_some());
        progress
    })?;
    let (labels, sheets) = (&label_sheets.labels, &label_sheets.sheets);
    let label_pages = sheets.len();
    let setup = Setup::compile(game, kit, kit.rule, set, Tree::of_kit(game, kit)?, false)?;
    let set = &setup.set;
    // The three PDF and PNG writers and the figures share the cores: labels.pdf and
    // the previews need only the labels, kit.pdf needs the figures too. The previews
    // begin here, so that their files are written (and synced) while the figures are
    // worked out; the figures begin at once on the other core.
    let ((labels_pdf, previews), kit) = matchbox_engine::parallel::join(
        || {
            matchbox_engine::parallel::join(
                || label_sheets.pdf(kit),
                || previews(labels, set, dpi, progress),
            )
        },
        || -> Result<(Vec<u8>, usize), Error> {
            let findings = findings(game, kit, &setup)?;
            let mut kit_pages = instruction_pages(game, kit, set, &findings)?;
            kit_pages.extend(sheets.iter().cloned());
            let kit_pages = sheet::finish(kit, kit_pages);
            Ok((pdf::to_pdf(&kit_pages)?, kit_pages.len()))
        },
    );
    let (kit_pdf, kit_pages) = kit?;
    Ok(KitFiles {
        labels_pdf: labels_pdf?,
        kit_pdf,
        pages: (label_pages, kit_pages),
        previews: previews?,
        boxes: set.boxes.len(),
    })
}

/// The kit's boxes and their labels on sheets, or what makes the kit unprintable: more
/// labels than the sheets can hold, or letters too small to read. `found` is told how
/// many boxes there are and gives what to tell of the drawing.
fn checked_labels<'p, G: Game>(
    game: &G,
    kit: &Kit,
    found: impl FnOnce(usize) -> &'p dyn Progress,
) -> Result<(BoxSet<G>, LabelSheets), Error> {
    let set = BoxSet::build(game, kit)?;
    set.check_label_count(kit)?;
    let progress = found(set.boxes.len());
    let label_sheets = LabelSheets::draw(game, kit, &set, progress);
    legible(kit, &set, &label_sheets.labels)?;
    Ok((set, label_sheets))
}

/// Refuses a kit that `matchbox kit` would refuse for its labels (too many for the
/// sheets, letters too small to read), with the same message: for `verify`, so that the
/// kit it passes can be printed.
pub fn check_printable<G: Game>(game: &G, kit: &Kit) -> Result<(), Error> {
    checked_labels(game, kit, |_| &()).map(drop)
}

/// What the teacher's pages quote: the simulated expectation and the exact figures,
/// worked out side by side, or what to watch when the machine never stops losing.
pub fn findings<G: Game>(game: &G, kit: &Kit, setup: &Setup<G>) -> Result<Findings, Error> {
    // A machine whose side loses never learns: what it does instead.
    let loses = side_loses(&setup.tree, kit.machine);
    // The reward claim's figures side by side with the others.
    let (found, reward_losses) = matchbox_engine::parallel::join(
        || -> Result<_, Error> {
            if loses {
                return Ok((None, None, gives_up(setup)?, None));
            }
            let (exact, expected) = matchbox_engine::parallel::join(
                || SheetFigures::of(game, &setup.tree, &setup.machine, strings(kit.language)),
                // Quoted only when every simulated machine learnt.
                || expected_losses(kit, setup, EXPECTATION_RUNS),
            );
            let training = expected?;
            Ok((
                training.as_ref().and_then(Expected::from_training),
                exact,
                None,
                training
                    .as_ref()
                    .and_then(|t| Slow::from_training(t, EXPECTATION_MAX_GAMES)),
            ))
        },
        || reward_losses(game, kit),
    );
    let (expected, exact, gives_up, slow) = found?;
    // A machine that never stops losing gets figures to watch instead.
    let watch = if expected.is_none() && kit.rule == Rule::Menace {
        Some(watch(
            setup,
            OpponentKind::Perfect,
            EXPECTATION_RUNS,
            EXPECTATION_SEED,
        )?)
    } else {
        None
    };
    Ok(Findings {
        expected,
        exact,
        watch,
        loses,
        gives_up,
        reward_losses: reward_losses?,
        slow,
    })
}

/// The articles' reward claim in figures for the teacher's page: the losses in the first
/// 20 games against a perfect opponent under each rule, as `verify` works them out with its
/// default runs and seed.
fn reward_losses<G: Game>(game: &G, kit: &Kit) -> Result<Option<RewardLosses>, Error> {
    if game
        .historic(&kit.machine_settings())
        .and_then(|h| h.reward_claim)
        .is_none()
    {
        return Ok(None);
    }
    let games = REWARD_GAMES[0];
    let sampling = (VERIFY_RUNS, EXPECTATION_SEED);
    let early = |rule| losses_early(game, kit, rule, OpponentKind::Perfect, &[games], sampling);
    let (without, with) =
        matchbox_engine::parallel::join(|| early(Rule::Gardner), || early(Rule::GardnerReward));
    let said = |m: Vec<Measure>| m.first().map(|m| decimal(kit.language, m.to_f64()));
    Ok(said(without?)
        .zip(said(with?))
        .map(|(without, with)| RewardLosses {
            games,
            without,
            with,
        }))
}

/// When a machine whose side loses gives up at its first move, against a perfect and a
/// random opponent (never, where its first box is refilled): exactly where the bead
/// states allow, else (against a perfect opponent only, since against a random one it
/// can take thousands of games) over the sheet's simulated machines.
fn gives_up<G: Game>(setup: &Setup<G>) -> Result<Option<GivesUp>, Error> {
    // A machine whose first box the class refills never gives up for good.
    if setup.machine.refills() {
        return Ok(None);
    }
    let exactly = |opponent| exact::giving_up(&setup.tree, &setup.machine, opponent).ok();
    // A random opponent reaches more states than a perfect one: where the perfect one's
    // are too many, so are its, and the attempt would only cost time.
    let perfect = exactly(OpponentKind::Perfect);
    let random = perfect.as_ref().and_then(|_| exactly(OpponentKind::Random));
    let perfect = match perfect {
        Some(p) => p,
        None => {
            let trained = train(
                setup,
                OpponentKind::Perfect,
                EXPECTATION_RUNS,
                EXPECTATION_MAX_GAMES,
                EXPECTATION_SEED,
                &|_| {},
            )?;
            GivingUp::sampled(OpponentKind::Perfect, &trained)
        }
    };
    Ok(GivesUp::of(&perfect, random.as_ref()))
}

/// One PNG per label at `dpi` (none when `None`), named by box id, on all cores, each
/// handed to `progress` as it is made and kept unless taken there; the order, and so
/// every byte, does not depend on the number of threads.
pub fn previews<G: Game>(
    labels: &[Arc<Scene>],
    set: &BoxSet<G>,
    dpi: Option<f32>,
    progress: &dyn Progress,
) -> Result<Vec<(String, Vec<u8>)>, Error> {
    let Some(dpi) = dpi else {
        return Ok(Vec::new());
    };
    let width = set.boxes.len().to_string().len();
    labels
        .par_iter()
        .zip(&set.boxes)
        .map(|(label, b)| {
            let png = png::to_png(label, dpi)?;
            progress.step();
            Ok(progress.preview(format!("box-{:0width$}.png", b.id), png))
        })
        .collect::<Result<Vec<_>, Error>>()
        .map(|kept| kept.into_iter().flatten().collect())
}

/// The labels of a kit on their sheets: the first half of `matchbox kit`.
pub struct LabelSheets {
    /// Every box's label, in id order.
    pub labels: Vec<Arc<Scene>>,
    /// The label sheets, headers not yet drawn (kit.pdf ends with them too).
    pub sheets: Vec<Page>,
}

impl LabelSheets {
    /// Draws every label (on all cores) and lays them out on sheets.
    pub fn draw<G: Game>(
        game: &G,
        kit: &Kit,
        set: &BoxSet<G>,
        progress: &dyn Progress,
    ) -> LabelSheets {
        let tags = TagSize::of(game, kit, set);
        let labels: Vec<_> = set
            .boxes
            .par_iter()
            .map(|b| {
                let label = Arc::new(draw_label(game, kit, tags, b));
                progress.step();
                label
            })
            .collect();
        let sheets = sheet::label_pages(kit, &labels, &legend(kit, set));
        LabelSheets { labels, sheets }
    }

    /// labels.pdf: the sheets with their headers.
    pub fn pdf(&self, kit: &Kit) -> Result<Vec<u8>, Error> {
        pdf::to_pdf(&sheet::finish(kit, self.sheets.clone()))
    }
}

/// Refuses a label size at which some letter of some label would be smaller than a
/// pupil can read ([`SMALLEST_LETTER_MM`]).
pub fn legible<G: Game>(kit: &Kit, set: &BoxSet<G>, labels: &[Arc<Scene>]) -> Result<(), Error> {
    let smallest = labels
        .iter()
        .zip(&set.boxes)
        .filter_map(|(label, b)| Some((smallest_letter(label)?, b.id)))
        .min_by(|a, b| a.0.total_cmp(&b.0));
    match smallest {
        Some((height, id)) if !readable_letter(height) => {
            let say = kit.places.messages;
            // Roman move numbers of a long game take most of a label's foot.
            let problem = match kit.numerals {
                Numerals::Roman => id::PROBLEM_LABEL_ILLEGIBLE_ROMAN,
                Numerals::Arabic => id::PROBLEM_LABEL_ILLEGIBLE,
            };
            Err(kit.places.error(
                &["label"],
                say.message(
                    problem,
                    &[
                        ("key", "label"),
                        ("width", &say.millimetres(kit.label.width_mm)),
                        ("height", &say.millimetres(kit.label.height_mm)),
                        ("letter", &say.decimals(f64::from(height), 2)),
                        ("box", &say.number(id as i64)),
                        ("least", &say.millimetres(SMALLEST_LETTER_MM)),
                    ],
                )
                .hint(Command::Labels, id::PROBLEM_HINT_LISTS),
            ))
        }
        _ => Ok(()),
    }
}

/// What the foot of the label sheets explains for this set of boxes.
pub fn legend<'k, G: Game>(kit: &'k Kit, set: &BoxSet<G>) -> sheet::Legend<'k> {
    let mut moves: Vec<u32> = Vec::new();
    if kit.move_colours {
        moves = set
            .boxes
            .iter()
            .filter_map(|b| b.move_numbers.first().copied())
            .collect();
        moves.sort_unstable();
        moves.dedup();
    }
    sheet::Legend {
        colours: colours_used(kit, set),
        moves,
        drawn_letters: G::DRAWN_LETTERS,
    }
}

/// The palette colours that some box uses, in palette order.
pub fn colours_used<'k, G: Game>(kit: &'k Kit, set: &BoxSet<G>) -> Vec<&'k Colour> {
    let mut used = vec![false; kit.palette.len()];
    for b in &set.boxes {
        for m in &b.moves {
            used[m.colour] = true;
        }
    }
    kit.palette
        .iter()
        .zip(used)
        .filter(|(_, u)| *u)
        .map(|(c, _)| c)
        .collect()
}

/// Makes the kit's files in memory; `dpi` is the preview resolution, `None` for none.
pub fn make_files(kit: &Kit, dpi: Option<f32>) -> Result<KitFiles, Error> {
    make_files_telling(kit, dpi, &())
}

/// [`make_files`], telling `progress` how far it is.
pub fn make_files_telling(
    kit: &Kit,
    dpi: Option<f32>,
    progress: &dyn Progress,
) -> Result<KitFiles, Error> {
    matchbox_engine::with_game!(&kit.game, |game| build(game, kit, dpi, progress))
}
