//! The games of matchbox and their traits: each game's rules, notation and kit.yaml keys.
//!
//! Each game behind three traits here (rules, notation, descriptor; its picture is the
//! print crate's `Picture`), so the rest of the program is written once.
//!
//! A new game is one module here plus its line in the `games!` list below; nothing
//! outside this folder names a game.

#![warn(missing_docs)]

pub mod hexapawn;
pub mod kayles;
pub mod nim;
pub mod tictactoe;

use std::fmt::Debug;
use std::hash::Hash;

use serde::Serialize;

use crate::i18n::{Id, Named, Said, Strings, id};
use crate::rule::{BeadSchedule, Rule};
use crate::settings::{Kind, KitText, Places, Preset, Range, SettingsFile};
use matchbox_words::{Error, i18n, rule, settings};

/// One of the two players.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The player who makes move 1.
    First,
    /// The player who makes move 2.
    Second,
}

impl Side {
    /// The opponent of this side.
    pub fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// `first` or `second`, as in kit.yaml.
    pub fn name(self) -> &'static str {
        match self {
            Side::First => "first",
            Side::Second => "second",
        }
    }

    /// The side as a message about a kit says it (`problem.side.*`: `pierwsza`, `первой`).
    pub fn said(self, say: crate::i18n::Messages) -> String {
        crate::i18n::strings(say.0).get(self.key()).to_string()
    }

    /// The word store's key for the side (`problem.side.first`).
    pub fn key(self) -> Id {
        match self {
            Side::First => id::PROBLEM_SIDE_FIRST,
            Side::Second => id::PROBLEM_SIDE_SECOND,
        }
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// This side won.
    Win(Side),
    /// Nobody won.
    Draw,
}

/// An element of a game's symmetry group, as an index into its list; 0 is the identity.
pub type Symmetry = usize;

/// What a claim bounds the losses to learn by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Bound {
    /// No run loses more games than this.
    AtMost(u32),
    /// Every run loses exactly this many games.
    Exactly(u32),
}

/// A claim of the source articles about how many games a machine loses while learning.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Claim {
    /// Where it is claimed: a key of the word store (`cli.verify.source.*`).
    pub source: Said,
    /// The claim, a key of the word store (`cli.verify.claim.*`): data about a historic
    /// source, said in the kit's language and kept in English in `--json`.
    pub text: Said,
    /// The bound on the losses to learn.
    pub bound: Bound,
    /// A claim about the games a thinking opponent needs to teach the machine, if any.
    pub games: Option<GamesClaim>,
    /// Another source's stricter bound on the same losses, judged on its own, if any.
    pub stricter: Option<StricterClaim>,
}

/// A second source's bound on the losses to learn, stricter than the claim's own.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StricterClaim {
    /// Where it is claimed: a key of the word store (`cli.verify.source.*`).
    pub source: Said,
    /// The claim, a key of the word store (`cli.verify.claim.*`).
    pub text: Said,
    /// The bound on the losses to learn.
    pub bound: Bound,
}

/// A claim about how many games it takes to teach the machine.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GamesClaim {
    /// Where it is claimed: a key of the word store (`cli.verify.source.*`).
    pub source: Said,
    /// The claim, a key of the word store (`cli.verify.claim.*`): data about a historic
    /// source, said in the kit's language and kept in English in `--json`.
    pub text: Said,
    /// The number of games claimed.
    pub games: u32,
}

/// A machine that the articles describe: its name for a sentence of history on the
/// sheets, and what they claim about its learning, if anything.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Historic {
    /// `her`, `him`, `bachet`, `relay`, `menace`: the templates' `history`.
    pub name: &'static str,
    /// The articles' claim, for a machine set up as they describe it.
    pub claim: Option<Claim>,
    /// The articles' claim that rewarding wins makes the machine lose fewer games early
    /// on, for their machine under `gardner` or `gardner-reward`.
    pub reward_claim: Option<RewardClaim>,
    /// What the articles say of a machine they describe but claim no figure for (a key
    /// of the word store, `cli.verify.described.*`).
    pub described: Option<Said>,
}

/// A claim that rewarding wins (`gardner-reward`) makes the machine lose fewer of its
/// first games than punishing losses alone (`gardner`), though it learns later.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RewardClaim {
    /// Where it is claimed: a key of the word store (`cli.verify.source.*`).
    pub source: Said,
    /// The claim, a key of the word store (`cli.verify.claim.*`): data about a historic
    /// source, said in the kit's language and kept in English in `--json`.
    pub text: Said,
}

/// What a game's historic claims and box checks read of a kit besides the game: its
/// machine's settings, handed down by the kit (which holds the game, above it).
#[derive(Clone, Copy, Debug)]
pub struct MachineSettings<'a> {
    /// Which side the matchboxes play.
    pub machine: Side,
    /// Positions merged under the board's symmetries.
    pub symmetry: bool,
    /// Positions with one legal move left out.
    pub skip_forced: bool,
    /// Beads per move in each box.
    pub beads: &'a BeadSchedule,
    /// The learning rule.
    pub rule: Rule,
    /// Where the kit file gives its keys, for errors.
    pub places: &'a Places,
}

/// Whether a kit's machine is set up as the articles describe theirs: playing second,
/// mirror images merged, a box for every position.
pub fn as_in_the_articles(kit: &MachineSettings) -> bool {
    kit.machine == Side::Second && kit.symmetry && !kit.skip_forced
}

/// Whether every box starts with one bead per move, as in the articles.
pub fn one_bead_each(kit: &MachineSettings) -> bool {
    *kit.beads == BeadSchedule::Each(1)
}

/// The rules of a two-player game that a matchbox machine can learn.
///
/// Positions carry the side to move, so one position is one situation of the game.
/// A game is a small owned value, so a server can keep it for as long as it runs.
pub trait Rules: Clone + Send + Sync + 'static {
    /// The game's name: after `game:` in kit.yaml, and in messages.
    const NAME: &'static str;
    /// A position of the game, including whose turn it is.
    type Position: Clone + Eq + Hash + Ord + Debug + Send + Sync;
    /// A move from some position.
    type Move: Copy + Eq + Hash + Ord + Debug + Send + Sync;

    /// The starting position.
    fn start(&self) -> Self::Position;
    /// Whose turn it is.
    fn to_move(&self, position: &Self::Position) -> Side;
    /// Appends every legal move to `out` (nothing if the game is over).
    fn legal_moves(&self, position: &Self::Position, out: &mut Vec<Self::Move>);
    /// The position after a legal move.
    fn play(&self, position: &Self::Position, mv: Self::Move) -> Self::Position;
    /// The result if the game is over in this position.
    fn outcome(&self, position: &Self::Position) -> Option<Outcome>;
    /// Why a game is over in this position, said of whoever made the last move.
    fn end_reason(&self, position: &Self::Position) -> Ending;
    /// Whether the game is over because the side to move has no move left (a blocked
    /// pawn), rather than by a row, a line or the last stone: the classroom screen
    /// says so. No game ends that way unless it says otherwise.
    fn no_move_left(&self, _position: &Self::Position) -> bool {
        false
    }

    /// How many symmetries the board has, the identity included.
    fn symmetry_count(&self) -> usize;
    /// The image of a position under a symmetry.
    fn transform(&self, position: &Self::Position, symmetry: Symmetry) -> Self::Position;
    /// The image of a move under a symmetry.
    fn transform_move(&self, mv: Self::Move, symmetry: Symmetry) -> Self::Move;
    /// The symmetry that undoes `symmetry`: itself unless a game says otherwise, as a
    /// mirror undoes itself (a quarter turn or an order of heaps does not).
    fn inverse(&self, symmetry: Symmetry) -> Symmetry {
        symmetry
    }

    /// Whether the kit wires this move into the machine's box (the relay automaton
    /// leaves some moves out); every legal move unless a game says otherwise.
    fn wired(&self, _position: &Self::Position, _mv: Self::Move) -> bool {
        true
    }
    /// A fixed bead-colour slot for this kind of move, or `None` to colour moves by
    /// their order within the box, as every game does unless it says otherwise (the same
    /// pawn step or pin is another move in another position).
    fn colour_slot(&self, _position: &Self::Position, _mv: Self::Move) -> Option<usize> {
        None
    }
    /// The order in which a relay machine tries moves: lower first.
    fn relay_order(&self, mv: Self::Move) -> u32;
}

/// Why a game ended, in the words `play` says after the line that names the winner
/// (`play.won`, `play.lost`), of either side as the last mover: as the winner, already
/// named, where the last move wins (`play.end.machine.line`: "by making three in a row",
/// Polish "ułożyła trzy w rzędzie"), or named where it loses (Marienbad's last stone:
/// "because you took the last stone"), so that no language says the winner twice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ending {
    /// Said when the player made the last move.
    pub you: Id,
    /// Said when the machine made it.
    pub machine: Id,
}

/// How a position lies against its box's label: the board's image under one of the
/// game's symmetries, as a pupil turns the box to match it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Orientation {
    /// As the label draws it.
    AsDrawn,
    /// The label turned a quarter clockwise.
    QuarterClockwise,
    /// The label turned half a turn.
    HalfTurn,
    /// The label turned a quarter anticlockwise.
    QuarterAnticlockwise,
    /// The label mirrored left to right.
    MirrorLeftRight,
    /// The label mirrored along the diagonal from top left to bottom right.
    MirrorDiagonal,
    /// The label mirrored top to bottom.
    MirrorTopBottom,
    /// The label mirrored along the diagonal from top right to bottom left.
    MirrorAntidiagonal,
    /// The same heaps in another order.
    HeapsReordered,
}

impl Orientation {
    /// Its words beside a box in the command line's answers (`symmetry.*`).
    pub fn said(self) -> Id {
        match self {
            Orientation::AsDrawn => id::SYMMETRY_AS_DRAWN,
            Orientation::QuarterClockwise => id::SYMMETRY_QUARTER_CLOCKWISE,
            Orientation::HalfTurn => id::SYMMETRY_HALF_TURN,
            Orientation::QuarterAnticlockwise => id::SYMMETRY_QUARTER_ANTICLOCKWISE,
            Orientation::MirrorLeftRight => id::SYMMETRY_MIRROR_LEFT_RIGHT,
            Orientation::MirrorDiagonal => id::SYMMETRY_MIRROR_DIAGONAL,
            Orientation::MirrorTopBottom => id::SYMMETRY_MIRROR_TOP_BOTTOM,
            Orientation::MirrorAntidiagonal => id::SYMMETRY_MIRROR_ANTIDIAGONAL,
            Orientation::HeapsReordered => id::SYMMETRY_HEAPS_REORDERED,
        }
    }

    /// The classroom page's instruction for the box in the hand (`page.turn.*`).
    pub fn instruction(self) -> Id {
        match self {
            Orientation::AsDrawn => id::PAGE_TURN_AS_DRAWN,
            Orientation::QuarterClockwise => id::PAGE_TURN_QUARTER_CLOCKWISE,
            Orientation::HalfTurn => id::PAGE_TURN_HALF_TURN,
            Orientation::QuarterAnticlockwise => id::PAGE_TURN_QUARTER_ANTICLOCKWISE,
            Orientation::MirrorLeftRight => id::PAGE_TURN_MIRROR_LEFT_RIGHT,
            Orientation::MirrorDiagonal => id::PAGE_TURN_MIRROR_DIAGONAL,
            Orientation::MirrorTopBottom => id::PAGE_TURN_MIRROR_TOP_BOTTOM,
            Orientation::MirrorAntidiagonal => id::PAGE_TURN_MIRROR_ANTIDIAGONAL,
            Orientation::HeapsReordered => id::PAGE_TURN_HEAPS_REORDERED,
        }
    }
}

/// How positions and moves are written: by `boxes` and `find`, and typed in `play`.
pub trait Notation: Rules {
    /// What a label marks each move with, so that the checks name what the label shows:
    /// the words of the check (`cli.verify.legal`) and of its count (`problem.count.arrow`).
    fn move_marks(&self) -> (Id, Id) {
        (id::CLI_VERIFY_LEGAL, id::PROBLEM_COUNT_ARROW)
    }

    /// How a pupil turns a label to match a board that is this symmetry's image of it.
    fn describe_symmetry(&self, symmetry: Symmetry) -> Orientation;
    /// The position in one line of text (rows separated by `/`), as `boxes` prints it.
    fn format_position(&self, position: &Self::Position) -> String;
    /// Reads the text notation; `to_move` is used where the board does not tell.
    fn parse_position(&self, text: &str, to_move: Side) -> Result<Self::Position, Said>;
    /// A move in words a pupil can follow, e.g. `b1-b2` or `take 2`.
    fn format_move(&self, position: &Self::Position, mv: Self::Move) -> String;
    /// The move in the words of `words`' language, for a page to show; the notation
    /// unless a game's moves are words (`centre`, `take 2`).
    fn say_move(&self, position: &Self::Position, mv: Self::Move, _words: &Strings) -> String {
        self.format_move(position, mv)
    }

    /// The machine's move as a statement of what it did (`The machine takes 2, leaving
    /// 5`), for `play` to say after its draw: [`Notation::say_move`]'s words are an
    /// instruction to the pupil. `The machine's move:` and those words unless a game's
    /// moves are verbs of its own.
    fn say_machine_move(
        &self,
        position: &Self::Position,
        mv: Self::Move,
        words: &Strings,
    ) -> String {
        words.fill(
            id::PLAY_MOVED_ANY,
            &[("move", &self.say_move(position, mv, words))],
        )
    }

    /// The pieces of the text notation that a language writes in letters of its own, each
    /// with the id of its letter (hexapawn's `W` is `B` in Polish, *białe*): none unless a
    /// game says so (MENACE's X and O are the same in every language).
    fn pieces(&self) -> &'static [(char, Id)] {
        &[]
    }

    /// What the board's letters and the moves' notation mean, in `words`' language, said
    /// once where a teacher first meets them; none where the moves are words.
    fn explain_notation(&self, _words: &Strings) -> Option<String> {
        None
    }

    /// Which of `moves` (legal at `position`) `text` names: the move's words, or its
    /// words before the comma (`take 2`), whatever the case and spacing.
    fn read_move(
        &self,
        position: &Self::Position,
        moves: &[Self::Move],
        text: &str,
    ) -> Option<usize> {
        let words = |t: &str| {
            t.split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .to_lowercase()
        };
        let wanted = words(text);
        moves.iter().position(|&m| {
            let said = words(&self.format_move(position, m));
            said == wanted || said.split(',').next() == Some(wanted.as_str())
        })
    }
}

/// What the kit knows of a game: its name and keys in kit.yaml, its presets, and what
/// follows from its settings (the default rule and name, its history, its template words).
///
/// A game's settings are one struct, the game itself: its `Serialize` writes kit.yaml's
/// keys as the game holds them, which is the game's JSON (a state file keeps it), its
/// keys written back ([`Descriptor::settings`]) and its template variables, unless the
/// game says otherwise; its `File` reads the same keys with their places and kinds.
pub trait Descriptor: Rules + KeyFields + Serialize + PartialEq + Debug {
    /// The part of kit.yaml that holds its own keys: how each is written ([`Kind`]).
    type File: SettingsFile;
    /// Its own keys in kit.yaml, the file's unless the game orders them otherwise (the
    /// first the kit gives is where an error about the game's size points); what each
    /// takes, in the words of error messages, is `problem.takes.KEY` of its strings.yaml.
    const KEYS: &'static [&'static str] = <Self::File as SettingsFile>::KEYS;
    /// Its built-in kits.
    const PRESETS: &'static [Preset];

    /// Reads and checks its keys from the kit's text (a preset's, then the file's).
    fn read(text: &KitText) -> Result<Self, Error>;
    /// The learning rule of a kit that names none.
    fn default_rule(&self) -> Rule;
    /// The kit's name when kit.yaml gives none, in the kit's language.
    fn default_name(&self, words: &Strings) -> String {
        words.named(Named::KitName, Self::NAME)
    }
    /// Refuses settings that name positions the machine never faces (`faced` are its
    /// boxes' positions).
    fn check_boxes(&self, _kit: &MachineSettings, _faced: &[Self::Position]) -> Result<(), Error> {
        Ok(())
    }
    /// The historic machine this kit is, if it is one the articles describe.
    fn historic(&self, kit: &MachineSettings) -> Option<Historic>;
    /// Whether a game can end in a draw (the sheets then say what to do after one).
    fn can_draw(&self) -> bool;
    /// The game's settings as template variables, for its own partials: its keys.
    fn template_vars(&self) -> minijinja::Value {
        written_vars(self)
    }
    /// Its own keys in kit.yaml with this game's values, in [`Self::KEYS`]' order (a key
    /// whose default gives the same game may be left out): read back, the same game.
    fn settings(&self) -> Vec<(&'static str, serde_json::Value)> {
        written_keys(self)
    }
}

/// How a form shows one of a kit's keys: the whole numbers it takes, how many of them
/// (a list's), what bounds it by the rest of the kit, and its words as typed ids, so
/// that a word missing from the store does not compile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// The whole numbers it takes (a key of choices has its choices instead).
    pub range: Option<Range>,
    /// How many numbers its list takes.
    pub count: Option<Range>,
    /// What bounds it that depends on the rest of the kit.
    pub bound: Option<KitBound>,
    /// Its name in the form (`designer.field.KEY`).
    pub name: Id,
    /// What more the form says of it (`designer.field.KEY.hint`), whose `{min}` and
    /// `{max}` are its range's (or its bound's least), `{fewest}` and `{most}` its
    /// count's.
    pub hint: Option<Id>,
}

impl Field {
    /// A key called `name` in the form, with nothing more to say of it.
    pub const fn named(name: Id) -> Field {
        Field {
            range: None,
            count: None,
            bound: None,
            name,
            hint: None,
        }
    }

    /// With `hint` said under it.
    pub const fn hint(self, hint: Id) -> Field {
        Field {
            hint: Some(hint),
            ..self
        }
    }

    /// Taking the whole numbers from `min` to `max`.
    pub const fn range(self, min: i64, max: i64) -> Field {
        Field {
            range: Some(Range::new(min, max)),
            ..self
        }
    }

    /// Taking a list of `min` to `max` numbers.
    pub const fn count(self, min: i64, max: i64) -> Field {
        Field {
            count: Some(Range::new(min, max)),
            ..self
        }
    }

    /// Bounded by `bound`, from the rest of the kit.
    pub const fn bound(self, bound: KitBound) -> Field {
        Field {
            bound: Some(bound),
            ..self
        }
    }
}

/// A range of a key whose most depends on the rest of the kit, named (`max_from`) as
/// the page finds that figure in each kit it makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "max_from", rename_all = "snake_case")]
pub enum KitBound {
    /// From `min` to the labels on one sheet of the kit's paper and label.
    LabelsPerSheet {
        /// The least.
        min: i64,
    },
}

/// How a form shows each of a game's keys (`game_settings!` writes it, with the bounds
/// `read` checks).
pub trait KeyFields {
    /// Each of its keys, in [`Descriptor::KEYS`]' order, with its field.
    const FIELDS: &'static [(&'static str, Field)];
}

/// The keys the game's `Serialize` writes, in [`Descriptor::KEYS`]' order.
pub fn written_keys<G: Descriptor>(game: &G) -> Vec<(&'static str, serde_json::Value)> {
    let Ok(serde_json::Value::Object(mut json)) = serde_json::to_value(game) else {
        // A game of no keys writes none.
        return Vec::new();
    };
    G::KEYS
        .iter()
        .filter_map(|&key| Some((key, json.remove(key)?)))
        .collect()
}

/// The keys the game's `Serialize` writes, as template variables.
pub fn written_vars<G: Descriptor>(game: &G) -> minijinja::Value {
    let keys = written_keys(game);
    minijinja::Value::from_pairs(
        keys.into_iter()
            .map(|(key, value)| (key, minijinja::Value::from(minijinja::value::Serde(value)))),
    )
}

/// Declares a game whose settings are whole numbers of kit.yaml, each with its default,
/// its range and its [`Field`] (whose range it sets), one line a key: the game's struct (its `Serialize` is then its JSON,
/// its keys written back and its template variables, see [`Descriptor`]), the part of
/// kit.yaml they are read from with their places (`$file`, by [`settings_file!`]), and
/// `read_keys`, which reads them in order and refuses one out of its range at its place.
macro_rules! game_settings {
    (
        $(#[$meta:meta])* $vis:vis $name:ident in $file:ident {
            $($(#[$doc:meta])* $key:ident: $ty:ty = $default:expr, from $low:expr, to $high:expr,
                $field:expr;)*
        }
    ) => {
        $(#[$meta])*
        $vis struct $name {
            $($(#[$doc])* $key: $ty,)*
        }

        $crate::settings::settings_file! {
            #[doc = concat!("The keys of [`", stringify!($name), "`] as kit.yaml writes them.")]
            $vis $file { $($key: i64,)* }
        }

        impl $name {
            /// Its keys read from the kit's text (a preset's, then the file's), each
            /// checked to be in its range, or its default where neither gives it.
            fn read_keys(text: &$crate::settings::KitText) -> Result<$name, $crate::Error> {
                let file: $file = text.settings()?;
                Ok($name {
                    $($key: match &file.$key {
                        Some(value) => text.ranged(value, stringify!($key), $low, $high)?,
                        None => $default,
                    },)*
                })
            }
        }

        impl $crate::KeyFields for $name {
            const FIELDS: &'static [(&'static str, $crate::Field)] =
                &[$((stringify!($key), $field.range($low, $high)),)*];
        }
    };
}
pub(crate) use game_settings;

/// A game as the kit knows it before it is built: its kit.yaml name, keys and presets.
pub struct GameEntry {
    /// The name after `game:` in kit.yaml.
    pub name: &'static str,
    /// Its own keys in kit.yaml (what each takes is `problem.takes.KEY` of its strings).
    pub keys: &'static [&'static str],
    /// Its built-in kits.
    pub presets: &'static [Preset],
    /// How each of its keys is written.
    pub kinds: fn() -> Vec<(&'static str, Kind)>,
    /// How a form shows each of its keys.
    pub fields: &'static [(&'static str, Field)],
}

/// Declares the games: the one list where a game is registered.
macro_rules! games {
    // `$d` is a `$` for the macro this one writes.
    ($d:tt $($variant:ident($ty:ty)),* $(,)?) => {
        /// One of the games, with its settings.
        #[derive(Clone, Debug, PartialEq, Serialize)]
        #[serde(tag = "kind", rename_all = "lowercase")]
        pub enum AnyGame {
            $(#[doc = concat!("A kit for ", stringify!($variant), ".")] $variant($ty),)*
        }

        /// Every game, in the order `matchbox presets` lists them.
        pub const GAMES: &[GameEntry] = &[$(GameEntry {
            name: <$ty as Rules>::NAME,
            keys: <$ty as Descriptor>::KEYS,
            presets: <$ty as Descriptor>::PRESETS,
            kinds: <<$ty as Descriptor>::File as SettingsFile>::kinds,
            fields: <$ty as KeyFields>::FIELDS,
        },)*];

        /// Evaluates `body` with `game` bound to the concrete game of an [`AnyGame`]
        /// (`with_game!(&kit.game, |game| boxes(game, kit))`): the one dispatch from a kit
        /// to the code written once for every game, which asks for the traits it uses.
        #[macro_export]
        macro_rules! with_game {
            ($d any:expr, |$d game:ident| $d body:expr) => {
                match $d any {
                    $($d crate::AnyGame::$variant($d game) => $d body,)*
                }
            };
        }

        impl AnyGame {

            /// Reads the settings of the game named `name` from the kit's text; `None`
            /// if no game has that name.
            pub fn read(name: &str, text: &KitText) -> Option<Result<AnyGame, Error>> {
                $(if name == <$ty as Rules>::NAME {
                    return Some(<$ty as Descriptor>::read(text).map(AnyGame::$variant));
                })*
                None
            }
        }
    };
}

games! { $
    Hexapawn(hexapawn::Hexapawn),
    Nim(nim::Nim),
    TicTacToe(tictactoe::TicTacToe),
    Kayles(kayles::Kayles),
}

/// The kit.yaml name of `G`.
fn name_of<G: Rules>(_game: &G) -> &'static str {
    G::NAME
}

impl AnyGame {
    /// The kit.yaml name of the game.
    pub fn name(&self) -> &'static str {
        with_game!(self, |game| name_of(game))
    }

    /// The kit's name when kit.yaml gives none: the game's own, in `words`' language.
    pub fn default_name(&self, words: &Strings) -> String {
        with_game!(self, |game| game.default_name(words))
    }

    /// The learning rule of a kit that names none: the game's own.
    pub fn default_rule(&self) -> Rule {
        with_game!(self, |game| game.default_rule())
    }

    /// The game's own keys in kit.yaml with their values (see [`Descriptor::settings`]).
    pub fn settings(&self) -> Vec<(&'static str, serde_json::Value)> {
        with_game!(self, |game| game.settings())
    }

    /// The entry of the game named `name`.
    pub fn entry(name: &str) -> Option<&'static GameEntry> {
        GAMES.iter().find(|g| g.name == name)
    }
}

/// The canonical form of a position under the enabled symmetries, and the symmetry
/// that takes the position there.
pub fn canonical<G: Rules>(
    game: &G,
    position: &G::Position,
    symmetries: usize,
) -> (G::Position, Symmetry) {
    let mut best = (position.clone(), 0);
    for s in 1..symmetries {
        let image = game.transform(position, s);
        if image < best.0 {
            best = (image, s);
        }
    }
    best
}

/// The text notation of the board games: rows top first, separated by `/`.
pub mod notation {
    /// A board of `rows` x `cols` as text; `mark(row from the top, column)` gives each square.
    pub fn write(rows: usize, cols: usize, mark: impl Fn(usize, usize) -> char) -> String {
        (0..rows)
            .map(|r| (0..cols).map(|c| mark(r, c)).collect::<String>())
            .collect::<Vec<_>>()
            .join("/")
    }

    /// A board typed in a kit's language, in the notation's own letters: a piece as the
    /// language writes it (a Polish `C`, *czarne*) becomes the notation's letter (`B`), in
    /// either case; any other mark is left as typed, so that the notation's own letters
    /// are read too where the language gives them no other meaning (`W` in a Polish kit,
    /// whose `B` is White).
    pub fn typed_letters(
        pieces: &[(char, crate::i18n::Id)],
        words: &crate::i18n::Strings,
        text: &str,
    ) -> String {
        let upper = |s: &str| s.to_uppercase();
        text.chars()
            .map(|c| {
                let typed = upper(&c.to_string());
                pieces
                    .iter()
                    .find(|(_, letter)| upper(words.get(*letter)) == typed)
                    .map_or(c, |(piece, _)| *piece)
            })
            .collect()
    }

    /// A board in the notation's letters as a kit's language writes it: each piece in
    /// its letter there (hexapawn's `B` is a Polish `C`), any other mark as it is.
    pub fn shown_letters(
        pieces: &[(char, crate::i18n::Id)],
        words: &crate::i18n::Strings,
        text: &str,
    ) -> String {
        text.chars()
            .map(|c| {
                pieces
                    .iter()
                    .find(|(piece, _)| *piece == c)
                    .map_or(c.to_string(), |(_, letter)| words.get(*letter).to_string())
            })
            .collect()
    }

    /// Reads a board of `rows` x `cols`: the mark of every square as typed (a game reads
    /// it upper-cased, and quotes it as typed when it is none of its marks), rows from
    /// the top. Rows are separated by `/` or spaces, or run together; `example` shows a
    /// correct board in error messages.
    pub fn read(
        text: &str,
        rows: usize,
        cols: usize,
        example: &str,
    ) -> Result<Vec<Vec<char>>, crate::i18n::Said> {
        let mut lines: Vec<Vec<char>> = text
            .split(|c: char| c == '/' || c.is_whitespace())
            .filter(|r| !r.is_empty())
            .map(|r| r.chars().collect())
            .collect();
        if lines.len() == 1 && lines[0].len() == rows * cols {
            lines = lines[0].chunks(cols).map(<[char]>::to_vec).collect();
        }
        if lines.len() != rows || lines.iter().any(|l| l.len() != cols) {
            // Each count with its noun, which takes its own plural form (`3 rzędy i 5 kolumn`).
            return Err(crate::i18n::Said::new(crate::i18n::id::CLI_POSITION_BOARD)
                .counting("rows", rows as i64, crate::i18n::id::PROBLEM_COUNT_ROW)
                .counting("cols", cols as i64, crate::i18n::id::PROBLEM_COUNT_COLUMN)
                .with("example", example));
        }
        Ok(lines)
    }
}

/// An outcome scored for `side`: 1 win, 0 draw, -1 loss.
pub fn score(outcome: Outcome, side: Side) -> i8 {
    match outcome {
        Outcome::Draw => 0,
        Outcome::Win(s) if s == side => 1,
        Outcome::Win(_) => -1,
    }
}
