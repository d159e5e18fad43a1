//! The save file: the machine's beads kept between runs of `matchbox play` in a JSON file.
//!
//! The file names every box by its position and every move by its words, so a file of
//! another kit is recognised and refused instead of being read into the wrong boxes. It
//! ends with a checksum of everything above it, so that a file changed by hand is told
//! from the program's own save: refused, unless the user says it was on purpose.
//!
//! The file also keeps the [`Settings`] its beads were made with (starting beads, rule,
//! rewards, the page's opponent), which `serve`'s page may change without touching
//! kit.yaml: reading a file is therefore in two steps, [`read`] for its settings, which
//! build the machine, then [`Stored::into_saved`] for the beads in it. Why a file is
//! refused ([`Refused`]) is the words crate's, so that the engine's `Error` can carry it.

#![warn(missing_docs)]

use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};

use matchbox_games as game;
use matchbox_kit::{self as kit, boxes};
use matchbox_machine as machine;
use matchbox_simulate as simulate;
use matchbox_words::i18n::{Language, Messages, id};
use matchbox_words::{Error, rule, settings};

use crate::boxes::BoxSet;
use crate::game::{Notation, Rules, Side};
use crate::kit::Kit;
use crate::machine::{Beads, End, Machine};
use crate::rule::{BeadSchedule, MAX_REWARD, MAX_START_BEADS, Reward, Rule};
use crate::settings::Places;
use crate::simulate::{OpponentKind, Setup};
use matchbox_words::refusal::VERSION;
pub use matchbox_words::refusal::{Impossible, Refusal, Refused};

/// What the first field of every state file says.
const FORMAT: &str = "matchbox-state";

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StateFile {
    format: String,
    version: u32,
    kit: String,
    game: serde_json::Value,
    machine: Side,
    /// Missing in a file from before settings were kept: the kit's are used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    settings: Option<Settings>,
    games: u64,
    boxes: Vec<StateBox>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    score: Option<ScoreFile>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    undo: Vec<UndoFile>,
    /// `crc32:` and the CRC32 of the file's text written without this field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    checksum: Option<String>,
}

impl StateFile {
    /// The checksum of this file's fields but the checksum: the CRC32 of their text as
    /// the program writes it, so that a change of layout alone (spaces, line breaks)
    /// is no edit.
    fn checksum(&self) -> Result<String, Error> {
        let text = serde_json::to_string_pretty(&StateFile {
            checksum: None,
            ..self.clone()
        })?;
        Ok(format!("crc32:{:08x}", crc32fast::hash(text.as_bytes())))
    }
}

/// An undo step as the file writes it, oldest first: the games played before the
/// change, and the bead counts that differ from the state after it, as
/// `[move's place in the file's order, count]`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct UndoFile {
    games: u64,
    beads: Vec<[u32; 2]>,
}

/// The score as the file writes it: a game a line, `loss -1`, `win 0`, or `win` alone
/// for a training game, whose beads are not counted.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ScoreFile {
    from: u64,
    games: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StateBox {
    id: usize,
    position: String,
    moves: Vec<StateMove>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StateMove {
    #[serde(rename = "move")]
    mv: String,
    colour: String,
    beads: u32,
}

/// What a teacher may change without touching kit.yaml, kept in the state file with the
/// beads made with them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// Beads per move in a fresh box.
    pub beads: BeadSchedule,
    /// The learning rule.
    pub rule: Rule,
    /// Beads per result under the `menace` rule.
    pub reward: Reward,
    /// Whom the machine plays when it plays on its own (`serve`'s training and watching).
    pub opponent: OpponentKind,
}

/// Why settings cannot make a kit's machine, by the setting at fault.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unfit {
    /// Starting beads out of 1 to [`MAX_START_BEADS`], at this move number (`None`: the
    /// one number for every box).
    Beads(Option<u32>),
    /// Beads given for a move number at which the machine has no box.
    MoveNumber(u32),
    /// No beads for the move number of the machine's first box.
    FirstBox(u32),
    /// The relay rule, for a kit whose boxes are not wired for it.
    Relay,
    /// Beads for this result (`win`, `draw` or `loss`) beyond [`MAX_REWARD`] either way.
    Reward(&'static str),
}

impl fmt::Display for Unfit {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Unfit::Beads(Some(n)) => write!(
                f,
                "the starting beads at move {n} must be from 1 to {MAX_START_BEADS}"
            ),
            Unfit::Beads(None) => write!(f, "the starting beads must be from 1 to {MAX_START_BEADS}"),
            Unfit::MoveNumber(n) => write!(f, "beads are given for move {n}, where the machine has no box"),
            Unfit::FirstBox(n) => write!(f, "no beads are given for move {n}, the machine's first box"),
            Unfit::Relay => f.write_str(
                "the relay rule applies only to a kit built for the relay automaton (`rule: relay` in kit.yaml)",
            ),
            Unfit::Reward(which) => write!(
                f,
                "the beads after a {which} must be from -{MAX_REWARD} to {MAX_REWARD}"
            ),
        }
    }
}

impl Settings {
    /// The kit's own settings, under `rule`, with the random opponent (which never empties
    /// a fresh MENACE's first box in a page's default run).
    pub fn of_kit(kit: &Kit, rule: Rule) -> Settings {
        Settings {
            beads: kit.beads.clone(),
            rule,
            reward: kit.reward,
            opponent: OpponentKind::Random,
        }
    }

    /// The kit as these settings fill its boxes; everything printed stays the kit's.
    pub fn kit(&self, kit: &Kit) -> Kit {
        // Other beads than kit.yaml's: a message about them must not point into it.
        let places = if self.beads == kit.beads {
            kit.places.clone()
        } else {
            Places::default()
        };
        Kit {
            beads: self.beads.clone(),
            reward: self.reward,
            places,
            ..kit.clone()
        }
    }

    /// Refuses settings that cannot make `kit`'s machine, whose boxes come at
    /// `move_numbers` (every move number of every box, the first box's first; none: the
    /// schedule's move numbers are left to the building of the boxes).
    pub fn check(&self, kit: &Kit, move_numbers: &[u32]) -> Result<(), Unfit> {
        let fits = |n: u32| (1..=MAX_START_BEADS).contains(&n);
        match &self.beads {
            BeadSchedule::Each(n) if !fits(*n) => return Err(Unfit::Beads(None)),
            BeadSchedule::Each(_) => {}
            BeadSchedule::ByMoveNumber(map) => {
                if let Some((&at, _)) = map.iter().find(|(_, n)| !fits(**n)) {
                    return Err(Unfit::Beads(Some(at)));
                }
                if let Some(&stray) = map
                    .keys()
                    .find(|k| !move_numbers.is_empty() && !move_numbers.contains(k))
                {
                    return Err(Unfit::MoveNumber(stray));
                }
                if let Some(&first) = move_numbers.first()
                    && self.beads.beads_at(first).is_none()
                {
                    return Err(Unfit::FirstBox(first));
                }
            }
        }
        if self.rule == Rule::Relay && kit.rule != Rule::Relay {
            return Err(Unfit::Relay);
        }
        match self.reward.out_of_range() {
            Some(which) => Err(Unfit::Reward(which)),
            None => Ok(()),
        }
    }

    /// The settings in a few words, for the terminal.
    fn summary(&self) -> String {
        let beads = match &self.beads {
            BeadSchedule::Each(n) => n.to_string(),
            BeadSchedule::ByMoveNumber(map) => map
                .iter()
                .map(|(at, n)| format!("{n} at move {at}"))
                .collect::<Vec<_>>()
                .join(", "),
        };
        let reward = if self.rule == Rule::Menace {
            let r = self.reward;
            format!(", rewards win {} draw {} loss {}", r.win, r.draw, r.loss)
        } else {
            String::new()
        };
        format!("rule {}, beads per move {beads}{reward}", self.rule.name())
    }
}

/// The settings to build the machine with, and a note for the terminal when they are
/// not the kit's: a state file's own (a `rule` given on the command line that differs
/// is refused: the beads were made under the file's), else the kit's, under `rule` if
/// given.
pub fn settings_for(
    stored: Option<&Stored>,
    kit: &Kit,
    rule: Option<Rule>,
) -> Result<(Settings, Option<String>), Error> {
    let Some((settings, shown)) = stored.and_then(|s| Some((s.file.settings.clone()?, &s.shown)))
    else {
        return Ok((Settings::of_kit(kit, rule.unwrap_or(kit.rule)), None));
    };
    if let Some(rule) = rule
        && rule != settings.rule
    {
        return Err(refused(
            shown,
            Refusal::Rule {
                file: settings.rule,
                asked: rule,
            },
        ));
    }
    let own = Settings {
        opponent: settings.opponent,
        ..Settings::of_kit(kit, kit.rule)
    };
    let note = (settings != own).then(|| {
        format!(
            "{shown} keeps the settings it was made with ({}), not the kit's ({}): they are used; to start from the kit's, choose another --state file",
            settings.summary(),
            own.summary()
        )
    });
    Ok((settings, note))
}

/// The machine's beads, how many games it has played, its score, and the settings it
/// was made with.
#[derive(Clone, Debug, PartialEq)]
pub struct Saved {
    /// The beads.
    pub beads: Beads,
    /// Games played so far with these beads.
    pub games: u64,
    /// The games behind the score sheet and the learning curve.
    pub history: History,
    /// The states before the latest changes, oldest first, for undo.
    pub undo: Vec<Step>,
    /// The settings the boxes were filled with and the rule learns by.
    pub settings: Settings,
}

/// The beads and the games played before a change (a game, a training run), for undo.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The beads before it.
    pub beads: Beads,
    /// The games played before it.
    pub games: u64,
}

/// Undo steps kept: far more than a lesson needs.
pub const UNDO_STEPS: usize = 200;

impl Saved {
    /// A machine with the starting beads of `settings` (which `machine` was built
    /// with) and no games.
    pub fn fresh(machine: &Machine, settings: Settings) -> Saved {
        Saved {
            beads: machine.fresh_beads(),
            games: 0,
            history: History::default(),
            undo: Vec::new(),
            settings,
        }
    }

    /// Remembers the beads and games now, before a change, for [`Saved::undo`].
    pub fn remember(&mut self) {
        if self.undo.len() == UNDO_STEPS {
            self.undo.remove(0);
        }
        self.undo.push(Step {
            beads: self.beads.clone(),
            games: self.games,
        });
    }

    /// Goes back to before the latest change remembered; `false` if there is none.
    pub fn undo(&mut self) -> bool {
        let Some(step) = self.undo.pop() else {
            return false;
        };
        self.take_back(step.beads, step.games);
        true
    }

    /// Counts one more game: `change` is the beads the rule added (+) or took (-), `None`
    /// when they were not counted (a training game).
    pub fn record(&mut self, end: End, change: Option<i64>) {
        self.games = self.games.saturating_add(1);
        let history = &mut self.history;
        history.games.push((end, change));
        // Dropped a tenth at a time, so that long training stays linear.
        if history.games.len() > HISTORY_GAMES + HISTORY_GAMES / 10 {
            let drop = history.games.len() - HISTORY_GAMES;
            history.games.drain(..drop);
            history.from += drop as u64;
        }
    }

    /// Takes back the games after the `games`-th: the beads become `beads`.
    fn take_back(&mut self, beads: Beads, games: u64) {
        let history = &mut self.history;
        history.from = history.from.min(games);
        history.games.truncate((games - history.from) as usize);
        self.beads = beads;
        self.games = games;
    }
}

/// Games the score keeps at most, the latest: a learning curve of any length a class
/// plays or trains, in a file of about 1.5 MB at most.
pub const HISTORY_GAMES: usize = 100_000;

/// The games kept for the score sheet and the learning curve: the last ones the beads
/// have played, up to [`HISTORY_GAMES`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct History {
    /// Games the beads had played before the first game kept (a file written before the
    /// score was kept starts there).
    pub from: u64,
    /// Each game kept, in order: how it ended, and the beads the rule added (+) or took
    /// (-), `None` when they were not counted (a training game).
    pub games: Vec<(End, Option<i64>)>,
}

/// A game of the score as the file writes it.
fn score_line((end, change): &(End, Option<i64>)) -> String {
    match change {
        Some(c) => format!("{} {c}", end.name()),
        None => end.name().to_string(),
    }
}

/// A game of the score read back, or `None` if the line is not one.
fn read_score_line(line: &str) -> Option<(End, Option<i64>)> {
    let mut words = line.split(' ');
    let name = words.next()?;
    let end = [End::Won, End::Drew, End::Lost, End::Resigned]
        .into_iter()
        .find(|e| e.name() == name)?;
    let change = match words.next() {
        Some(c) => Some(c.parse().ok()?),
        None => None,
    };
    words.next().is_none().then_some((end, change))
}

fn describe<G: Notation>(
    game: &G,
    kit: &Kit,
    set: &BoxSet<G>,
    machine: &Machine,
    beads: &Beads,
) -> Vec<StateBox> {
    set.boxes
        .iter()
        .enumerate()
        .map(|(b, mbox)| StateBox {
            id: mbox.id,
            position: game.format_position(&mbox.position),
            moves: mbox
                .moves
                .iter()
                .zip(machine.slots(b as u32))
                .map(|(m, slot)| StateMove {
                    mv: game.format_move(&mbox.position, m.mv),
                    colour: kit.palette[m.colour].name.clone(),
                    beads: beads.count(slot),
                })
                .collect(),
        })
        .collect()
}

/// The undo steps as the file writes them: each step's counts that differ from the
/// state after it.
fn undo_steps(saved: &Saved) -> Vec<UndoFile> {
    let mut after = &saved.beads;
    let mut steps: Vec<UndoFile> = saved
        .undo
        .iter()
        .rev()
        .map(|step| {
            let counts = step.beads.counts().iter().zip(after.counts());
            let beads = (0u32..)
                .zip(counts)
                .filter(|(_, (was, is))| was != is)
                .map(|(slot, (&was, _))| [slot, was])
                .collect();
            after = &step.beads;
            UndoFile {
                games: step.games,
                beads,
            }
        })
        .collect();
    steps.reverse();
    steps
}

/// The undo steps read back, newest last; `None` if one names a move that is not there,
/// too many beads, or games out of order.
fn read_undo(
    machine: &Machine,
    beads: &Beads,
    games: u64,
    steps: &[UndoFile],
) -> Option<Vec<Step>> {
    let mut after = (beads.clone(), games);
    let mut undo = Vec::with_capacity(steps.len());
    for step in steps.iter().rev() {
        let mut counts = after.0.counts().to_vec();
        for &[slot, count] in &step.beads {
            *counts.get_mut(slot as usize)? = count;
        }
        if step.games > after.1 {
            return None;
        }
        let back = Step {
            beads: Beads::from_counts(machine, counts)?,
            games: step.games,
        };
        after = (back.beads.clone(), back.games);
        undo.push(back);
    }
    undo.reverse();
    Some(undo)
}

/// The file's text for these beads.
pub fn to_json<G: Notation>(
    game: &G,
    kit: &Kit,
    setup: &Setup<G>,
    saved: &Saved,
) -> Result<String, Error> {
    let (set, machine) = (&setup.set, &setup.machine);
    let mut file = StateFile {
        format: FORMAT.into(),
        version: VERSION,
        kit: kit.name.clone(),
        game: serde_json::to_value(&kit.game)?,
        machine: kit.machine,
        settings: Some(saved.settings.clone()),
        games: saved.games,
        boxes: describe(game, kit, set, machine, &saved.beads),
        score: Some(ScoreFile {
            from: saved.history.from,
            games: saved.history.games.iter().map(score_line).collect(),
        }),
        undo: undo_steps(saved),
        checksum: None,
    };
    file.checksum = Some(file.checksum()?);
    Ok(serde_json::to_string_pretty(&file)? + "\n")
}

/// The most beads one game under the machine's rule can add to a move: a box is met at
/// most once a game, and a move gains at most its rule's best reward then (Gardner's
/// rule and the relay's never add one).
fn most_gained(machine: &Machine) -> u64 {
    match machine.rule {
        Rule::Gardner | Rule::Relay => 0,
        Rule::GardnerReward => 1,
        Rule::Menace => {
            let r = machine.reward;
            u64::try_from(r.win.max(r.draw).max(r.loss)).unwrap_or(0)
        }
    }
}

/// The first count in `beads` that no `games` games under the machine's rule can leave,
/// named by its box and colour: a move never holds more than it starts with and what
/// each game can add ([`most_gained`]).
fn impossible_count<G: Notation>(
    kit: &Kit,
    set: &BoxSet<G>,
    machine: &Machine,
    beads: &Beads,
    games: u64,
) -> Option<Impossible> {
    let fresh = machine.fresh_beads();
    let gained = most_gained(machine).saturating_mul(games);
    let most = |slot| u64::from(fresh.count(slot)).saturating_add(gained);
    set.boxes.iter().enumerate().find_map(|(b, mbox)| {
        mbox.moves
            .iter()
            .zip(machine.slots(b as u32))
            .find(|(_, slot)| u64::from(beads.count(*slot)) > most(*slot))
            .map(|(m, slot)| Impossible {
                box_id: mbox.id,
                colour: kit.palette[m.colour].clone(),
                beads: beads.count(slot),
                rule: machine.rule,
                start: fresh.count(slot),
                most: most(slot),
                games,
            })
    })
}

/// A state file read back, and a warning to show when it was read although changed by
/// hand.
pub type Loaded = (Saved, Option<String>);

/// A state file's text read, before its beads are put in boxes: its settings say how
/// to build them (see [`settings_for`]).
#[derive(Debug)]
pub struct Stored {
    file: StateFile,
    /// The file's path as messages show it.
    shown: String,
}

/// The error of a state file refused.
fn refused(file: &str, why: Refusal) -> Error {
    Error::StateFile(Box::new(Refused {
        file: file.to_string(),
        why,
    }))
}

/// Reads a state file's text far enough to know its settings, refusing a damaged file
/// and one of another layout; `path` names it in messages.
pub fn read(text: &str, path: &Path) -> Result<Stored, Error> {
    let shown = path.display().to_string();
    // serde's own words ("expected struct StateFile") mean nothing to a user: say where.
    let file: StateFile = serde_json::from_str(text).map_err(|e| {
        let place = (!e.is_eof()).then(|| (e.line(), e.column()));
        refused(&shown, Refusal::Damaged(place))
    })?;
    if file.format != FORMAT || !(1..=VERSION).contains(&file.version) {
        return Err(refused(
            &shown,
            Refusal::Version {
                format: file.format,
                version: file.version,
            },
        ));
    }
    Ok(Stored { file, shown })
}

impl Stored {
    /// The beads of the file, checked against the machine that `kit` and `setup` make
    /// with `settings` (from [`settings_for`]): a file of another kit is refused, and one
    /// changed by hand since the program saved it (unless `accept_edited`: then it is
    /// read as it is, with a warning).
    pub fn into_saved<G: Notation>(
        self,
        game: &G,
        kit: &Kit,
        setup: &Setup<G>,
        settings: Settings,
        accept_edited: bool,
    ) -> Result<Loaded, Error> {
        let Stored { file, shown } = self;
        let (set, machine) = (&setup.set, &setup.machine);
        let edited = file.edited()?;
        let beads = file.beads_for(&shown, game, kit, set, machine)?;
        let history = file.history(&shown)?;
        let undo = read_undo(machine, &beads, file.games, &file.undo)
            .ok_or_else(|| refused(&shown, Refusal::Undo))?;
        // The program's own save may hold what another rule did; any other file is held
        // to what this machine's rule can do.
        let vouched = file.checksum.is_some() && !edited;
        let impossible = if vouched {
            None
        } else {
            impossible_count(kit, set, machine, &beads, file.games)
        };
        let warning = edited_warning(&shown, edited, impossible, accept_edited)?;
        let saved = Saved {
            beads,
            games: file.games,
            history,
            undo,
            settings,
        };
        Ok((saved, warning))
    }
}

impl StateFile {
    /// Whether the file was changed since the program saved it: a file of this version
    /// without its checksum was changed too; an older one had none, and is held to what
    /// its rule can do. A file holding what its version never wrote (the score or undo
    /// before 2, a checksum before 3, settings before 4) claims an older version than it
    /// is, to shed its checksum: changed too.
    fn edited(&self) -> Result<bool, Error> {
        let newer = (self.version < 2 && (self.score.is_some() || !self.undo.is_empty()))
            || (self.version < 3 && self.checksum.is_some())
            || (self.version < 4 && self.settings.is_some());
        if newer {
            return Ok(true);
        }
        Ok(match &self.checksum {
            Some(sum) => *sum != self.checksum()?,
            None => self.version >= 3,
        })
    }

    /// The file's bead counts as the machine `kit` and `set` make holds them, refused
    /// when the file is of another kit: another game or side, or other boxes or moves.
    fn beads_for<G: Notation>(
        &self,
        shown: &str,
        game: &G,
        kit: &Kit,
        set: &BoxSet<G>,
        machine: &Machine,
    ) -> Result<Beads, Error> {
        let foreign = |detail: String| {
            refused(
                shown,
                Refusal::Foreign {
                    kit: self.kit.clone(),
                    detail,
                },
            )
        };
        let game_here = serde_json::to_value(&kit.game)?;
        if self.game != game_here || self.machine != kit.machine {
            return Err(foreign(format!(
                "the kit `{}`, machine playing {}",
                self.kit,
                self.machine.name()
            )));
        }
        let expected = describe(game, kit, set, machine, &machine.fresh_beads());
        if self.boxes.len() != expected.len() {
            return Err(foreign(format!(
                "{} boxes, not {}",
                self.boxes.len(),
                expected.len()
            )));
        }
        let mut counts = Vec::with_capacity(machine.fresh_beads().counts().len());
        for (theirs, ours) in self.boxes.iter().zip(&expected) {
            let same_moves = theirs.moves.len() == ours.moves.len()
                && theirs
                    .moves
                    .iter()
                    .zip(&ours.moves)
                    .all(|(t, o)| t.mv == o.mv && t.colour == o.colour);
            if theirs.id != ours.id || theirs.position != ours.position || !same_moves {
                return Err(foreign(format!("box {} differs", ours.id)));
            }
            counts.extend(theirs.moves.iter().map(|m| m.beads));
        }
        Beads::from_counts(machine, counts).ok_or_else(|| refused(shown, Refusal::TooManyBeads))
    }

    /// The games the file's score keeps, refused when a line is no game or the score does
    /// not add up to the games the beads have played.
    fn history(&self, shown: &str) -> Result<History, Error> {
        let Some(score) = &self.score else {
            // A file from before the score was kept: the score starts now.
            return Ok(History {
                from: self.games,
                games: Vec::new(),
            });
        };
        let games = score
            .games
            .iter()
            .map(|line| {
                read_score_line(line).ok_or_else(|| {
                    refused(shown, Refusal::ScoreLine(line.chars().take(40).collect()))
                })
            })
            .collect::<Result<Vec<_>, Error>>()?;
        if score.from.checked_add(games.len() as u64) != Some(self.games) {
            return Err(refused(
                shown,
                Refusal::ScoreSum {
                    from: score.from,
                    listed: games.len(),
                    games: self.games,
                },
            ));
        }
        Ok(History {
            from: score.from,
            games,
        })
    }
}

/// The warning to show for a file changed by hand (`edited`, or holding a count its
/// rule cannot leave) that is read anyway, or its refusal unless `accept_edited`.
fn edited_warning(
    shown: &str,
    edited: bool,
    impossible: Option<Impossible>,
    accept_edited: bool,
) -> Result<Option<String>, Error> {
    match (edited, impossible) {
        (false, None) => Ok(None),
        (_, why) if !accept_edited => Err(refused(shown, Refusal::Edited(why))),
        (_, why) => Ok(Some(format!(
            "warning: {shown} was changed by hand since matchbox saved it{}; read as it is (--accept-edited-state)",
            why.map_or_else(String::new, |w| format!(" ({w})"))
        ))),
    }
}

/// A state file's bytes as text: UTF-8, with or without a byte order mark, or UTF-16
/// with its byte order mark (as an editor may save it, "Unicode" in Notepad); what a
/// browser reads as text the same way, so that the page and the command line open the
/// same files.
fn decoded(bytes: Vec<u8>) -> Option<String> {
    let utf16 = |bytes: &[u8], unit: fn([u8; 2]) -> u16| {
        let (units, odd) = bytes.as_chunks::<2>();
        if !odd.is_empty() {
            return None;
        }
        String::from_utf16(&units.iter().map(|&u| unit(u)).collect::<Vec<_>>()).ok()
    };
    match bytes.as_slice() {
        [0xef, 0xbb, 0xbf, rest @ ..] => String::from_utf8(rest.to_vec()).ok(),
        [0xff, 0xfe, rest @ ..] => utf16(rest, u16::from_le_bytes),
        [0xfe, 0xff, rest @ ..] => utf16(rest, u16::from_be_bytes),
        _ => String::from_utf8(bytes).ok(),
    }
}

/// Reads the state file at `path` as [`read`] does, from what reading it gave
/// (`std::fs::read`: the caller does the file system); `None` when there is none yet (a
/// fresh machine).
pub fn open(path: &Path, contents: std::io::Result<Vec<u8>>) -> Result<Option<Stored>, Error> {
    let shown = path.display();
    match contents {
        Ok(bytes) => {
            let text =
                decoded(bytes).ok_or_else(|| refused(&shown.to_string(), Refusal::NotText))?;
            read(&text, path).map(Some)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => {
            let (shown, why) = (shown.to_string(), e.to_string());
            // Said in English: the caller that has the kit says it in its language.
            let said = Messages(Language::En).message(
                id::ERROR_STATE_UNREADABLE,
                &[("path", &shown), ("why", &why)],
            );
            Err(said.into())
        }
    }
}

/// A machine as a state file (if any) and the kit make it: the settings to use, the kit
/// they fill, its compiled machine, and the beads.
pub struct Opened<G: Rules> {
    /// The kit with the settings' beads and rewards.
    pub kit: Kit,
    /// Its machine under the settings' rule.
    pub setup: Setup<G>,
    /// The beads, the games and the settings.
    pub saved: Saved,
    /// What to tell on the terminal: the file's own settings, an edited file read anyway.
    pub notes: Vec<String>,
}

/// Opens the state file (if given: its path, and what reading it gave) for `kit`'s
/// machine: [`open`], then [`settings_for`] with `rule` from the command line, the
/// machine built by `build` (as [`Setup::new`] for a kit and a rule) under the settings
/// (a file's settings that cannot make it are refused), then [`Stored::into_saved`].
pub fn open_machine<G: Notation>(
    game: &G,
    kit: &Kit,
    state: Option<(&Path, std::io::Result<Vec<u8>>)>,
    rule: Option<Rule>,
    build: impl FnOnce(&Kit, Rule) -> Result<Setup<G>, Error>,
    accept_edited: bool,
) -> Result<Opened<G>, Error> {
    let stored = match state {
        Some((path, contents)) => open(path, contents)?,
        None => None,
    };
    let (settings, note) = settings_for(stored.as_ref(), kit, rule)?;
    let filled = settings.kit(kit);
    // Only a file's own settings can be unfit: the kit's were checked with the kit.
    let unfit = |why: Error| match (&stored, &note) {
        (Some(stored), Some(_)) => refused(&stored.shown, Refusal::Unfit(why.to_string())),
        _ => why,
    };
    // The kit's own settings unfit would be a bug.
    settings
        .check(kit, &[])
        .map_err(|why| unfit(Error::Internal(why.to_string())))?;
    let setup = build(&filled, settings.rule).map_err(unfit)?;
    let mut notes: Vec<String> = note.into_iter().collect();
    let saved = match stored {
        Some(stored) => {
            let (saved, warning) =
                stored.into_saved(game, &filled, &setup, settings, accept_edited)?;
            notes.extend(warning);
            saved
        }
        None => Saved::fresh(&setup.machine, settings),
    };
    Ok(Opened {
        kit: filled,
        setup,
        saved,
        notes,
    })
}

/// Every move number at which one of the boxes is used, the first box's first: the
/// move numbers a bead schedule may name.
pub fn move_numbers<G: Rules>(set: &BoxSet<G>) -> Vec<u32> {
    let mut numbers: Vec<u32> = set
        .boxes
        .iter()
        .flat_map(|b| b.move_numbers.iter().copied())
        .collect();
    let first = numbers.first().copied();
    numbers.sort_unstable();
    numbers.dedup();
    if let Some(first) = first {
        numbers.retain(|&n| n != first);
        numbers.insert(0, first);
    }
    numbers
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::fixtures::{self, HER, HIM, Pawns};

    fn compiled(preset: &str) -> (Pawns, Kit, Setup<Pawns>) {
        let (game, kit) = fixtures::pawns(preset);
        let setup = Setup::new(&game, &kit, kit.rule, false).unwrap();
        (game, kit, setup)
    }

    /// The kit's own settings.
    fn own(kit: &Kit) -> Settings {
        Settings::of_kit(kit, kit.rule)
    }

    /// The file of a fresh machine with the kit's own settings.
    fn fresh_text(game: &Pawns, kit: &Kit, setup: &Setup<Pawns>) -> String {
        to_json(game, kit, setup, &Saved::fresh(&setup.machine, own(kit))).unwrap()
    }

    /// A state file's text read back for the kit's machine, with the file's settings.
    fn from_json(
        text: &str,
        path: &Path,
        game: &Pawns,
        kit: &Kit,
        setup: &Setup<Pawns>,
        accept_edited: bool,
    ) -> Result<Loaded, Error> {
        let stored = read(text, path)?;
        let (settings, _) = settings_for(Some(&stored), kit, None)?;
        stored.into_saved(game, kit, setup, settings, accept_edited)
    }

    /// `text` with the first `from` in its boxes (after the settings) made `to`.
    fn in_boxes(text: &str, from: &str, to: &str) -> String {
        let at = text.find("\"boxes\"").unwrap();
        format!("{}{}", &text[..at], text[at..].replacen(from, to, 1))
    }

    /// The text of a file of `version` as the program wrote it then: without the
    /// settings, with its own checksum from version 3 on.
    fn older(text: &str, version: u32) -> String {
        let mut file: StateFile = serde_json::from_str(text).unwrap();
        file.version = version;
        file.settings = None;
        file.checksum = None;
        if version >= 3 {
            file.checksum = Some(file.checksum().unwrap());
        }
        serde_json::to_string_pretty(&file).unwrap()
    }

    #[test]
    fn a_hand_edit_is_not_laundered_by_claiming_an_older_version() {
        let (game, mut kit) = fixtures::pawns(HER);
        kit.rule = Rule::Menace;
        let setup = Setup::new(&game, &kit, kit.rule, false).unwrap();
        let path = Path::new("s.json");
        let mut saved = Saved::fresh(&setup.machine, own(&kit));
        saved.record(End::Won, Some(3));
        saved.record(End::Won, Some(3));
        let text = to_json(&game, &kit, &setup, &saved).unwrap();
        let read = |t: &str| from_json(t, path, &game, &kit, &setup, false);
        let refusal = |t: &str| match read(t) {
            Err(e @ Error::StateFile(_)) => e.to_string(),
            other => panic!("accepted: {other:?}"),
        };
        // The program's own version 2 file (no checksum, no settings) is read.
        let old = older(&text, 2);
        assert_eq!(read(&old).unwrap().1, None);
        // MENACE's rule adds beads, but no more than 3 a game: 2 games leave at most 7.
        let raised = in_boxes(&old, "\"beads\": 1", "\"beads\": 99");
        let message = refusal(&raised);
        assert!(message.contains("99 beads"), "{message}");
        assert!(message.contains("at most 7 after 2 games"), "{message}");
        assert!(message.contains("--accept-edited-state"), "{message}");
        let (saved, warning) = from_json(&raised, path, &game, &kit, &setup, true).unwrap();
        assert_eq!(saved.beads.count(0), 99);
        assert!(warning.unwrap().contains("changed by hand"));
        // What a version never wrote, kept under its number: an edit.
        let claims = |version: u32, keep_settings: bool, keep_checksum: bool| {
            let mut file: StateFile = serde_json::from_str(&text).unwrap();
            file.version = version;
            if !keep_settings {
                file.settings = None;
            }
            if !keep_checksum {
                file.checksum = None;
            }
            serde_json::to_string_pretty(&file).unwrap()
        };
        for (version, settings, checksum) in [(3, true, false), (2, false, true), (2, true, false)]
        {
            let message = refusal(&claims(version, settings, checksum));
            assert!(
                message.contains("was changed since"),
                "{version}: {message}"
            );
        }
    }

    #[test]
    fn a_file_with_a_byte_order_mark_or_in_utf16_is_read_as_the_page_reads_it() {
        let (game, kit, setup) = compiled(HER);
        let text = fresh_text(&game, &kit, &setup);
        let path = Path::new("s.json");
        let shown = |bytes: Vec<u8>| match open(path, Ok(bytes)) {
            Ok(Some(stored)) => format!("{:?}", stored.file),
            Ok(None) => "none".into(),
            Err(e) => e.to_string(),
        };
        let plain = shown(text.clone().into_bytes());
        assert!(plain.contains("matchbox-state"), "{plain}");
        let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
        for marked in [
            [&[0xef, 0xbb, 0xbf][..], text.as_bytes()].concat(),
            [&[0xff, 0xfe][..], &le].concat(),
            [&[0xfe, 0xff][..], &be].concat(),
        ] {
            assert_eq!(shown(marked), plain);
        }
        // Without its mark, UTF-16 is refused, as the page refuses it (read as UTF-8, its
        // every other byte is a NUL).
        let unmarked = shown(le);
        assert!(
            unmarked.contains("is not a matchbox state file"),
            "{unmarked}"
        );
    }

    #[test]
    fn beads_round_trip() {
        let (game, kit, setup) = compiled(HER);
        let machine = &setup.machine;
        let mut beads = machine.fresh_beads();
        beads.set(machine, 3, 0);
        beads.set(machine, 5, 7);
        let mut saved = Saved {
            beads: beads.clone(),
            games: 12,
            history: History {
                from: 9,
                games: vec![(End::Lost, Some(-1)), (End::Won, None), (End::Won, Some(0))],
            },
            undo: Vec::new(),
            settings: own(&kit),
        };
        // Two more games remembered for undo: a bead out, then nothing changed.
        saved.remember();
        saved.record(End::Lost, Some(-1));
        saved.beads.set(machine, 5, 6);
        saved.remember();
        saved.record(End::Won, Some(0));
        let text = to_json(&game, &kit, &setup, &saved).unwrap();
        assert!(text.contains("\"loss -1\""), "{text}");
        let (back, warning) =
            from_json(&text, Path::new("s.json"), &game, &kit, &setup, false).unwrap();
        assert_eq!(warning, None);
        assert_eq!(back, saved);
        // Undone after reading: the beads and the score as before the two games.
        let mut back = back;
        assert!(back.undo() && back.undo() && !back.undo());
        assert_eq!((back.beads.count(5), back.games), (7, 12));
        assert_eq!(back.history.games.len(), 3);
    }

    #[test]
    fn the_score_keeps_the_latest_games_and_takes_games_back() {
        let (_, kit, setup) = compiled(HER);
        let mut saved = Saved::fresh(&setup.machine, own(&kit));
        let total = HISTORY_GAMES as u64 * 2;
        for g in 0..total {
            let end = if g % 2 == 0 { End::Won } else { End::Lost };
            saved.record(end, None);
        }
        let history = &saved.history;
        assert!((HISTORY_GAMES..=HISTORY_GAMES * 11 / 10).contains(&history.games.len()));
        assert_eq!(history.from + history.games.len() as u64, total);
        assert_eq!(history.games.last(), Some(&(End::Lost, None)));
        let beads = setup.machine.fresh_beads();
        saved.take_back(beads.clone(), total - 3);
        assert_eq!(
            saved.history.from + saved.history.games.len() as u64,
            total - 3
        );
        // Back beyond the games kept: the score starts there.
        saved.take_back(beads, 5);
        assert_eq!((saved.games, saved.history.from), (5, 5));
        assert!(saved.history.games.is_empty());
    }

    #[test]
    fn a_file_from_before_the_score_is_read_with_its_score_starting_now() {
        let (game, kit, setup) = compiled(HER);
        let mut saved = Saved::fresh(&setup.machine, own(&kit));
        saved.games = 7;
        saved.history.from = 7;
        let text = to_json(&game, &kit, &setup, &saved).unwrap();
        let mut file: StateFile = serde_json::from_str(&text).unwrap();
        file.score = None;
        let old = older(&serde_json::to_string(&file).unwrap(), 1);
        assert!(!old.contains("score"), "{old}");
        let (back, _) = from_json(&old, Path::new("s.json"), &game, &kit, &setup, false).unwrap();
        assert_eq!(back, saved);
    }

    #[test]
    fn damaged_and_foreign_files_are_refused() {
        let (game, kit, setup) = compiled(HER);
        let path = Path::new("s.json");
        let fresh = |setup: &Setup<Pawns>| Saved::fresh(&setup.machine, own(&kit));
        let text = to_json(&game, &kit, &setup, &fresh(&setup)).unwrap();
        let err = |t: &str| match from_json(t, path, &game, &kit, &setup, false) {
            Err(e @ Error::StateFile(_)) => e.to_string(),
            Err(other) => panic!("{other:?}"),
            Ok(_) => panic!("accepted {t}"),
        };
        assert!(err(&text[..text.len() / 2]).contains("damaged"));
        assert!(err("[]").contains("not a matchbox state file"));
        assert!(err("[]").contains("at line 1, column 2"), "{}", err("[]"));
        assert!(!err("[]").contains("StateFile"), "{}", err("[]"));
        assert!(err("").contains("it ends too early"), "{}", err(""));
        assert!(err(&text.replace("matchbox-state", "other")).contains("version 4"));
        assert!(err(&text.replace("\"version\": 4", "\"version\": 5")).contains("version 4"));
        let mut played = fresh(&setup);
        played.record(End::Lost, Some(-1));
        let text = to_json(&game, &kit, &setup, &played).unwrap();
        assert!(err(&text.replace("loss -1", "lost -1")).contains("`lost -1` in the score"));
        assert!(
            err(&text.replace("\"games\": 1,", "\"games\": 2,"))
                .contains("the score does not add up")
        );
        let mut changed = fresh(&setup);
        changed.remember();
        changed.beads.set(&setup.machine, 0, 0);
        changed.record(End::Lost, Some(-1));
        let text = to_json(&game, &kit, &setup, &changed).unwrap();
        assert!(text.contains("\"undo\""), "{text}");
        let far = text.replace(
            "[\n          0,\n          1\n",
            "[\n          999,\n          1\n",
        );
        assert!(err(&far).contains("undo steps"), "{far}");
        assert!(err(&text.replace("\"second\"", "\"first\"")).contains("another kit"));
        assert!(err(&text.replacen("BBB/W../.WW", "BBB/.W./W.W", 1)).contains("box 1 differs"));
        let (_, him, him_setup) = compiled(HIM);
        let first = to_json(&game, &him, &him_setup, &fresh(&him_setup)).unwrap();
        assert!(err(&first).contains("another kit"));
    }

    #[test]
    fn a_file_changed_by_hand_is_told_from_the_programs_save() {
        let (game, kit, setup) = compiled(HER);
        let path = Path::new("s.json");
        let text = fresh_text(&game, &kit, &setup);
        let read = |t: &str, accept: bool| from_json(t, path, &game, &kit, &setup, accept);
        let refusal = |t: &str| match read(t, false) {
            Err(e @ Error::StateFile(_)) => e.to_string(),
            other => panic!("accepted: {other:?}"),
        };
        // Spaces and line breaks are no edit.
        let compact =
            serde_json::to_string(&serde_json::from_str::<serde_json::Value>(&text).unwrap())
                .unwrap();
        assert_eq!(read(&compact, false).unwrap().1, None);
        // A count that Gardner's rule never leaves: named by box and colour.
        let more = in_boxes(&text, "\"beads\": 1", "\"beads\": 7");
        let message = refusal(&more);
        assert!(message.contains("box 1, "), "{message}");
        assert!(message.contains("7 beads"), "{message}");
        assert!(message.contains("--accept-edited-state"), "{message}");
        // Any other edit: the checksum.
        let renamed = text.replacen(&kit.name, "Our machine", 1);
        assert!(refusal(&renamed).contains("checksum does not match"));
        // The settings too.
        let other = "\"opponent\": \"perfect\"";
        let rival = text.replacen("\"opponent\": \"random\"", other, 1);
        assert!(rival.contains(other) && refusal(&rival).contains("checksum does not match"));
        let (saved, warning) = read(&more, true).unwrap();
        assert_eq!(saved.beads.count(0), 7);
        assert!(warning.unwrap().contains("changed by hand"));
        // A version 2 file had no checksum: read when its counts can arise.
        let old = older(&text, 2);
        assert!(!old.contains("checksum"), "{old}");
        assert_eq!(read(&old, false).unwrap().1, None);
        assert!(refusal(&in_boxes(&old, "\"beads\": 1", "\"beads\": 7")).contains("7 beads"));
    }

    /// HER with other settings than its kit's: 3 beads a move, rewarded wins, played
    /// against the perfect player.
    fn changed(kit: &Kit) -> Settings {
        let settings = Settings {
            beads: BeadSchedule::Each(3),
            rule: Rule::GardnerReward,
            reward: Reward::default(),
            opponent: OpponentKind::Perfect,
        };
        assert_ne!(settings, own(kit));
        settings
    }

    #[test]
    fn a_file_keeps_the_settings_it_was_made_with() {
        let (game, kit, _) = compiled(HER);
        let settings = changed(&kit);
        let filled = settings.kit(&kit);
        let setup = Setup::new(&game, &filled, settings.rule, false).unwrap();
        assert_eq!(setup.machine.fresh_beads().count(0), 3);
        let mut saved = Saved::fresh(&setup.machine, settings.clone());
        saved.record(End::Won, Some(2));
        let text = to_json(&game, &filled, &setup, &saved).unwrap();
        assert!(text.contains("\"rule\": \"gardner-reward\""), "{text}");
        let stored = read(&text, Path::new("s.json")).unwrap();
        // Read back with the kit's own settings in hand: the file's are used, and said.
        let (back, note) = settings_for(Some(&stored), &kit, None).unwrap();
        assert_eq!(back, settings);
        let note = note.unwrap();
        assert!(
            note.contains("rule gardner-reward, beads per move 3"),
            "{note}"
        );
        assert!(note.contains("rule gardner, beads per move 1"), "{note}");
        let (loaded, warning) = stored
            .into_saved(&game, &filled, &setup, back, false)
            .unwrap();
        assert_eq!((loaded, warning), (saved, None));
        // Only the opponent of the kit's own: no note.
        let opponent_only = Saved::fresh(
            &Setup::new(&game, &kit, kit.rule, false).unwrap().machine,
            Settings {
                opponent: OpponentKind::Teacher,
                ..own(&kit)
            },
        );
        let text = to_json(&game, &kit, &compiled(HER).2, &opponent_only).unwrap();
        let stored = read(&text, Path::new("s.json")).unwrap();
        let (back, note) = settings_for(Some(&stored), &kit, None).unwrap();
        assert_eq!((back.opponent, note), (OpponentKind::Teacher, None));
    }

    #[test]
    fn a_rule_given_against_the_files_own_is_refused() {
        let (game, kit, _) = compiled(HER);
        let settings = changed(&kit);
        let filled = settings.kit(&kit);
        let setup = Setup::new(&game, &filled, settings.rule, false).unwrap();
        let text = to_json(
            &game,
            &filled,
            &setup,
            &Saved::fresh(&setup.machine, settings),
        )
        .unwrap();
        let stored = read(&text, Path::new("s.json")).unwrap();
        match settings_for(Some(&stored), &kit, Some(Rule::Menace)) {
            Err(e @ Error::StateFile(_)) => {
                let m = e.to_string();
                assert!(
                    m.starts_with("s.json was made with rule gardner-reward, not menace"),
                    "{m}"
                );
                assert!(m.contains("leave out --rule"), "{m}");
            }
            other => panic!("{other:?}"),
        }
        // The file's own rule, given again, is no contradiction.
        assert!(settings_for(Some(&stored), &kit, Some(Rule::GardnerReward)).is_ok());
    }

    #[test]
    fn a_file_from_before_the_settings_is_read_with_the_kits() {
        let (game, kit, setup) = compiled(HER);
        let mut saved = Saved::fresh(&setup.machine, own(&kit));
        saved.record(End::Lost, Some(-1));
        let old = older(&to_json(&game, &kit, &setup, &saved).unwrap(), 3);
        assert!(!old.contains("settings"), "{old}");
        let stored = read(&old, Path::new("s.json")).unwrap();
        // With --rule, as the file was played before: that rule, no note.
        let (settings, note) = settings_for(Some(&stored), &kit, Some(Rule::Menace)).unwrap();
        assert_eq!((settings.rule, note), (Rule::Menace, None));
        let (settings, _) = settings_for(Some(&stored), &kit, None).unwrap();
        assert_eq!(settings, own(&kit));
        let (back, warning) = stored
            .into_saved(&game, &kit, &setup, settings, false)
            .unwrap();
        assert_eq!((back, warning), (saved, None));
    }

    #[test]
    fn settings_that_cannot_make_the_machine_name_the_setting() {
        let (_, kit, setup) = compiled(HER);
        let numbers = move_numbers(&setup.set);
        assert_eq!(numbers, [2, 4, 6]);
        let with = |beads: BeadSchedule, rule: Rule, reward: Reward| {
            Settings {
                beads,
                rule,
                reward,
                ..own(&kit)
            }
            .check(&kit, &numbers)
        };
        let by_move =
            |pairs: &[(u32, u32)]| BeadSchedule::ByMoveNumber(pairs.iter().copied().collect());
        let gardner = Rule::Gardner;
        let reward = Reward::default();
        assert_eq!(
            with(BeadSchedule::Each(0), gardner, reward),
            Err(Unfit::Beads(None))
        );
        assert_eq!(
            with(by_move(&[(2, 3), (4, 0)]), gardner, reward),
            Err(Unfit::Beads(Some(4)))
        );
        assert_eq!(
            with(by_move(&[(2, 3), (5, 1)]), gardner, reward),
            Err(Unfit::MoveNumber(5))
        );
        assert_eq!(
            with(by_move(&[(4, 3)]), gardner, reward),
            Err(Unfit::FirstBox(2))
        );
        assert_eq!(
            with(BeadSchedule::Each(2), Rule::Relay, reward),
            Err(Unfit::Relay)
        );
        let greedy = Reward { win: 101, ..reward };
        assert_eq!(
            with(BeadSchedule::Each(2), Rule::Menace, greedy),
            Err(Unfit::Reward("win"))
        );
        assert_eq!(
            with(by_move(&[(2, 4), (6, 1)]), Rule::Menace, reward),
            Ok(())
        );
        assert!(
            Unfit::Beads(Some(4))
                .to_string()
                .contains("at move 4 must be from 1 to 100")
        );
    }
}
