//! Why a state file is refused: below every layer, so that [`crate::Error`] can carry
//! it; the save file's crate (`matchbox-savefile`) says when.

use std::fmt;

use crate::rule::{MAX_BEADS, Rule};

/// The layout of the file this program writes: 2 adds the score, 3 the checksum, 4 the
/// settings; it reads 1 to 3 as well.
pub const VERSION: u32 = 4;

/// A state file refused: the command line says why with its flags (this type's
/// `Display`), the static site with its own buttons, from [`Refusal`].
#[derive(Debug)]
pub struct Refused {
    /// The file, as messages name it.
    pub file: String,
    /// Why it is refused.
    pub why: Refusal,
}

/// Why a state file is refused.
#[derive(Debug)]
pub enum Refusal {
    /// Not text: UTF-8, or UTF-16 with its byte order mark.
    NotText,
    /// Not a state file's JSON: the line and column where it breaks, or none when it
    /// ends too early.
    Damaged(Option<(usize, usize)>),
    /// Another format, or a version this program does not read.
    Version {
        /// What its `format` says.
        format: String,
        /// What its `version` says.
        version: u32,
    },
    /// The beads of another kit.
    Foreign {
        /// The name of the kit it was saved with.
        kit: String,
        /// What differs, in the command line's words.
        detail: String,
    },
    /// More beads for a move than a box can hold.
    TooManyBeads,
    /// A line of the score that is no game (its first 40 characters).
    ScoreLine(String),
    /// The games before the score and in it do not add up to the beads' games.
    ScoreSum {
        /// Games before the score.
        from: u64,
        /// Games in it.
        listed: usize,
        /// Games the beads have played.
        games: u64,
    },
    /// Undo steps that fit neither the boxes nor the games.
    Undo,
    /// Its own settings cannot make this kit's machine (why, in the command line's
    /// words).
    Unfit(String),
    /// A rule asked for on the command line other than the file's.
    Rule {
        /// The file's rule.
        file: Rule,
        /// The rule asked for.
        asked: Rule,
    },
    /// Changed by hand since the program saved it: a count the machine's rule never
    /// leaves, if one is found; otherwise only the checksum tells.
    Edited(Option<Impossible>),
}

/// A bead count a machine's rule never leaves in a box.
#[derive(Clone, Debug)]
pub struct Impossible {
    /// The box's number.
    pub box_id: usize,
    /// The colour of the move.
    pub colour: crate::palette::Colour,
    /// Its beads in the file.
    pub beads: u32,
    /// The machine's rule.
    pub rule: Rule,
    /// The beads the move starts with.
    pub start: u32,
    /// The most beads the rule can leave it after the file's games (`start` under a rule
    /// that never adds one).
    pub most: u64,
    /// The games the file says were played.
    pub games: u64,
}

impl fmt::Display for Impossible {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let (id, colour, beads, rule) =
            (self.box_id, &self.colour.name, self.beads, self.rule.name());
        if self.most == u64::from(self.start) {
            write!(
                f,
                "box {id}, {colour}: {beads} beads, but under `{rule}` a move never holds more than the {} it starts with",
                self.start
            )
        } else {
            write!(
                f,
                "box {id}, {colour}: {beads} beads, but under `{rule}` a move starting with {} holds at most {} after {} games",
                self.start, self.most, self.games
            )
        }
    }
}

/// What most refusals end with on the command line.
const KEEP: &str = "it was left as it is: move it away or choose another --state file";

/// A refusal shown on a terminal: the file's own words in it (another kit's name, a
/// score line) are [`printable`](crate::i18n::printable), so a state file cannot send the
/// terminal commands either.
impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&crate::i18n::printable(&Words(self).to_string()))
    }
}

/// A refusal's words as they are.
struct Words<'a>(&'a Refused);

impl fmt::Display for Words<'_> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let Words(refused) = self;
        let file = &refused.file;
        match &refused.why {
            Refusal::NotText => write!(
                f,
                "{file} is not a matchbox state file (it is not UTF-8 text, nor UTF-16 with its byte order mark); {KEEP}"
            ),
            Refusal::Damaged(place) => {
                let place = match place {
                    None => "it ends too early".to_string(),
                    Some((line, column)) => format!("at line {line}, column {column}"),
                };
                write!(
                    f,
                    "{file} is not a matchbox state file, or it is damaged ({place}); {KEEP}"
                )
            }
            Refusal::Version { format, version } => write!(
                f,
                "{file} is not a matchbox state file of version {VERSION} (it says {format} version {version}); {KEEP}"
            ),
            Refusal::Foreign { detail, .. } => write!(
                f,
                "{file} holds the beads of another kit ({detail}); {KEEP}"
            ),
            Refusal::TooManyBeads => write!(
                f,
                "{file}: more than {} beads for a move; {KEEP}",
                MAX_BEADS
            ),
            Refusal::ScoreLine(line) => write!(
                f,
                "{file}: `{line}` in the score is not a game such as `loss -1`; {KEEP}"
            ),
            Refusal::ScoreSum {
                from,
                listed,
                games,
            } => write!(
                f,
                "{file}: the score does not add up: {from} games before it and {listed} in it, but the beads have played {games}; {KEEP}"
            ),
            Refusal::Undo => write!(
                f,
                "{file}: the undo steps do not fit the boxes or the games; {KEEP}"
            ),
            Refusal::Unfit(why) => write!(
                f,
                "{file}: its settings cannot make this kit's machine: {why}; {KEEP}"
            ),
            Refusal::Rule { file: made, asked } => write!(
                f,
                "{file} was made with rule {}, not {}: its beads were learnt under that rule; leave out --rule to go on with the file, or choose another --state file",
                made.name(),
                asked.name()
            ),
            Refusal::Edited(Some(why)) => write!(
                f,
                "{file} was changed by hand: {why}; it was left as it is: pass --accept-edited-state to read it anyway, or choose another --state file"
            ),
            Refusal::Edited(None) => write!(
                f,
                "{file} was changed since matchbox saved it (its checksum does not match); it was left as it is: pass --accept-edited-state to read it as it is, or choose another --state file"
            ),
        }
    }
}
