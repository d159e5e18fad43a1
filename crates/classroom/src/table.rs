//! The machine on the classroom screen, for any game: the game in progress, the beads,
//! the games played, and what the page shows of them.
//!
//! A game in progress is kept as the human's moves only. The machine's moves are
//! replayed from them with the game's own random stream, so what the page shows is
//! always what [`play_game`] did, and a game is never half-applied to the beads.

use std::sync::{Arc, OnceLock};

use rand::RngExt;
use serde::Serialize;

use super::board::{self, Spot};
use super::settings::{self, Risks};
use super::{ApiError, Problem, Store};
use matchbox_engine::Error;
use matchbox_engine::i18n::{Strings, strings};
use matchbox_engine::kit::Kit;
use matchbox_engine::machine::{Beads, Draw, End, Learner, Node, SimRng, Tree, rng_for};
use matchbox_engine::palette::hex;
use matchbox_engine::simulate::OpponentKind;
use matchbox_engine::simulate::state::{self, Saved, Settings};
use matchbox_engine::simulate::{Opponent, Setup, Turn, play_game};
use matchbox_print::draw::svg::to_svg;
use matchbox_print::label::{TagSize, draw_label, drawn_moves};
use matchbox_print::pictures::Game;

/// What changes only when the teacher applies new settings (and then is made anew).
pub struct Fixed<G: Game> {
    /// The rules.
    pub game: G,
    /// The kit, its boxes filled as the settings say.
    pub kit: Kit,
    /// The kit as kit.yaml gives it, with its own settings.
    pub own: Kit,
    /// Its boxes compiled for play (with the rival machine when the kit allows one).
    pub setup: Setup<G>,
    /// Seed of the machine's draws: game `n` draws from stream `n`.
    pub seed: u64,
    /// Where the beads are saved after every game, if anywhere.
    pub store: Option<Arc<dyn Store>>,
    /// How soon each opponent empties this machine's first box, worked out when the
    /// settings panel first asks.
    pub risks: OnceLock<Result<Risks, String>>,
}

impl<G: Game> Fixed<G> {
    /// The page's words in the kit's language.
    pub fn words(&self) -> &'static Strings {
        strings(self.kit.language)
    }

    /// Keeps the beads and the score as the state file's text, if they are kept anywhere.
    pub fn save(&self, saved: &Saved) -> Result<(), Error> {
        let Some(store) = &self.store else {
            return Ok(());
        };
        store.save(&state::to_json(&self.game, &self.kit, &self.setup, saved)?)
    }

    /// Keeps the beads somewhere else when the store itself cannot (see
    /// [`Store::rescue`]), and says where.
    pub fn rescue(&self, saved: &Saved) -> Option<String> {
        let text = state::to_json(&self.game, &self.kit, &self.setup, saved).ok()?;
        self.store.as_ref()?.rescue(&text)
    }

    /// Every box's position with its coloured moves, as small as the page likes: the
    /// memory drawn as the class built it. They never change while the server runs.
    pub fn pictures(&self) -> Vec<String> {
        let words = self.words();
        self.setup
            .set
            .boxes
            .iter()
            .map(|mbox| {
                let moves = drawn_moves::<G>(&self.kit, words, mbox);
                to_svg(&board::picture_with(&self.game, &mbox.position, &moves))
            })
            .collect()
    }

    /// How soon each opponent empties this machine's first box, worked out the first
    /// time it is asked for (without the live lock: it takes a while); `None` if the
    /// trial runs failed.
    pub fn risks(&self) -> Option<Risks> {
        let worked = self.risks.get_or_init(|| settings::risks(&self.setup));
        worked.as_ref().ok().cloned()
    }

    /// The machine made anew under other `settings`: the kit's boxes filled as they say,
    /// everything else as it is.
    pub fn remade(&self, settings: &Settings) -> Result<Fixed<G>, Error> {
        let kit = settings.kit(&self.own);
        let setup = super::setup(&self.game, &kit, settings.rule)?;
        Ok(Fixed {
            game: self.game.clone(),
            kit,
            own: self.own.clone(),
            setup,
            seed: self.seed,
            store: self.store.clone(),
            risks: OnceLock::new(),
        })
    }

    /// A move in the game's notation and in the kit's words.
    fn said(&self, position: &G::Position, mv: G::Move) -> Said {
        Said {
            mv: self.game.format_move(position, mv),
            words: self.game.say_move(position, mv, self.words()),
        }
    }

    fn colour(&self, colour: usize) -> BeadColour {
        let c = &self.kit.palette[colour];
        let words = self.words();
        BeadColour {
            name: words.colour_name(c),
            code: words.bead_code(c, G::DRAWN_LETTERS),
            rgb: hex(c.rgb),
        }
    }
}

/// One finished game, as a row of the score sheet.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Row {
    /// Its number, counting every game the beads have played.
    pub game: u64,
    /// `win`, `draw`, `loss` or `resigned`, for the machine.
    pub end: &'static str,
    /// Beads added (+) or taken out (-) by the rule; `None` for a training game.
    pub change: Option<i64>,
    /// The machine's losses so far, counted from the first game of the score kept.
    pub losses: u64,
}

/// A finished game as it started: replaying it shows it again.
struct Finished {
    beads: Beads,
    games: u64,
    human: Vec<Node>,
}

/// The board a move is meant for, as the page last saw it; either part may be left out.
#[derive(Clone, Copy, Debug, Default)]
pub struct Board {
    /// The game's number.
    pub game: Option<u64>,
    /// Moves made so far in it.
    pub ply: Option<usize>,
}

/// What changes: the beads, the games, the game in progress.
///
/// `R` is the run that holds the machine while it plays on its own (the training's
/// `train::Run`): the table needs to know only whether there is one, so that it stays
/// below the training, which plays its games on the table.
pub struct Live<R> {
    /// The beads now, the games they have played and the score, as the state file keeps
    /// them.
    pub saved: Saved,
    /// The human's moves in the game in progress, as tree nodes reached.
    human: Vec<Node>,
    /// The game just finished, shown until the next one starts.
    finished: Option<Finished>,
    /// Bumped at every change, so a watching page knows when to fetch again.
    pub version: u64,
    /// The training run under way, if any.
    pub training: Option<R>,
    /// Why the last save failed, while the state file is behind the page.
    unsaved: Option<Error>,
    /// Games the beads had played at the last save that succeeded (or as opened): the
    /// state file holds them, whatever came after.
    saved_games: u64,
    /// The panel the teacher shows, which the view-only screens follow.
    panel: &'static str,
    /// Times the machine was made anew with other settings since the server started.
    pub machine: u64,
}

/// The page's panels; the first is the game.
pub const PANELS: [&str; 5] = ["game", "memory", "score", "train", "settings"];

/// A bead colour as the page paints it.
#[derive(Clone, Debug, Serialize)]
pub struct BeadColour {
    /// Its name in the kit's language.
    pub name: String,
    /// The letter printed beside its arrows.
    pub code: String,
    /// `#rrggbb`.
    pub rgb: String,
}

/// A move in the game's notation, which requests use, and in the kit's words, which the
/// page shows (the same for a game whose notation is squares, `b1-b2`).
#[derive(Debug, Serialize)]
pub struct Said {
    /// In the game's notation, as `play` and `find` write it.
    #[serde(rename = "move")]
    pub mv: String,
    /// In the words of the kit's language.
    pub words: String,
}

/// One move of a box with its beads.
#[derive(Debug, Serialize)]
pub struct BeadCount {
    /// The bead colour.
    pub colour: BeadColour,
    /// Beads of it in the box.
    pub count: u32,
    /// Beads of it a fresh box holds.
    pub start: u32,
    /// Beads of it before the latest change (a game, a training run, an undo).
    pub before: u32,
    /// The move it means, as the board stands (for a box of the game in progress) or
    /// as the label is drawn.
    #[serde(flatten)]
    pub said: Said,
}

/// One box for the box index.
#[derive(Debug, Serialize)]
pub struct BoxSummary {
    /// Its printed id.
    pub id: usize,
    /// Its printed tag (move numbers).
    pub tag: String,
    /// The earliest move number at which its position arises, for grouping.
    pub move_number: u32,
    /// Beads in it now.
    pub beads: u32,
    /// Beads in a fresh box.
    pub start: u32,
    /// Per move: the colour and its count now.
    pub moves: Vec<BeadCount>,
}

/// One box in full: the summary and its printed label.
#[derive(Debug, Serialize)]
pub struct BoxView {
    /// The counts.
    #[serde(flatten)]
    pub summary: BoxSummary,
    /// The position on the label, in the game's notation.
    pub position: String,
    /// The printed label as SVG.
    pub label: String,
}

/// One turn of the game in progress.
#[derive(Debug, Serialize)]
#[serde(tag = "who", rename_all = "lowercase")]
pub enum TurnView {
    /// The human moved.
    Human {
        /// The move.
        #[serde(flatten)]
        said: Said,
    },
    /// The machine moved, resigned, or played its only move without a box.
    Machine {
        /// The box found, by printed id; `None` when it had no box (a forced move).
        #[serde(rename = "box")]
        box_id: Option<usize>,
        /// How the label is turned to match the board, in the kit's words.
        turn: Option<String>,
        /// The beads in the box, each with its move as the board stands.
        beads: Vec<BeadCount>,
        /// Index into `beads` of the bead drawn; `None` if it resigned or was forced.
        drawn: Option<usize>,
        /// The move played in the game's notation; `None` if it resigned.
        #[serde(rename = "move")]
        mv: Option<String>,
        /// The move played in the kit's words; `None` if it resigned.
        words: Option<String>,
        /// The board it faced, in the game's notation.
        position: String,
    },
}

/// A move the human may make now.
#[derive(Debug, Serialize)]
pub struct Choice {
    /// The move.
    #[serde(flatten)]
    pub said: Said,
    /// The places on the board picture that the move changes: clicking them all plays it.
    pub spots: Vec<Spot>,
}

/// What the rule did after a game: one line per move whose beads changed.
#[derive(Debug, Serialize)]
pub struct Change {
    /// The box's printed id.
    #[serde(rename = "box")]
    pub box_id: usize,
    /// The bead colour.
    pub colour: BeadColour,
    /// The move, as the label shows it.
    #[serde(flatten)]
    pub said: Said,
    /// Beads before the game.
    pub before: u32,
    /// Beads after the rule.
    pub after: u32,
}

/// The game in progress, or just finished.
#[derive(Debug, Serialize)]
pub struct GameView {
    /// Its number, from 1.
    pub number: u64,
    /// Moves made so far by both sides; a move request may name it to be sure it is
    /// meant for this board.
    pub ply: usize,
    /// The board now, in the game's notation.
    pub position: String,
    /// The board now as SVG, drawn as the labels draw it.
    pub board: String,
    /// Every turn so far.
    pub turns: Vec<TurnView>,
    /// The human's legal moves; empty when the game is over.
    pub moves: Vec<Choice>,
    /// Where the machine's latest move changed the board (as a move's `spots`), for the
    /// page to mark; empty before it moved.
    pub last: Vec<Spot>,
    /// `win`, `draw`, `loss` or `resigned` for the machine, once the game is over.
    pub end: Option<&'static str>,
    /// Whether the machine won because the class has no move left (rather than by a
    /// row, a line or the last stone).
    pub blocked: bool,
    /// What the rule changed, once the game is over.
    pub changes: Vec<Change>,
    /// The rule's name.
    pub rule: &'static str,
    /// The change counter (see [`Live::version`]).
    pub version: u64,
    /// Whether the game ended before anyone moved, the machine's first box being
    /// empty: it is not counted, and a new game would end the same way.
    pub stuck: bool,
    /// Why the state file could not be saved (`full`, `denied` or `other`), while the
    /// page is ahead of it.
    pub unsaved: Option<&'static str>,
    /// The panel the teacher shows.
    pub panel: &'static str,
    /// Times the machine was made anew with other settings (see [`Live::machine`]): its
    /// labels, which print the starting beads, change then.
    pub machine: u64,
}

/// The score sheet: totals, the latest rows, and the curve.
#[derive(Debug, Serialize)]
pub struct Score {
    /// Games the beads have played.
    pub games: u64,
    /// Over the score kept (see [`state::History`]): wins, draws, losses (resignations included).
    pub wins: u64,
    /// See `wins`.
    pub draws: u64,
    /// See `wins`.
    pub losses: u64,
    /// The latest rows, oldest first.
    pub rows: Vec<Row>,
    /// `[game, losses so far]`, at most [`CURVE_POINTS`] points from the first game of
    /// the score kept (see [`state::History`]) to the last.
    pub curve: Vec<[u64; 2]>,
    /// Whether there is a game to undo.
    pub can_undo: bool,
}

/// Rows shown on the score sheet.
const SCORE_ROWS: usize = 12;
/// Points on the curve at most.
const CURVE_POINTS: usize = 200;

/// What a step of the machine playing on its own came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Auto {
    /// A move was made, or a new game set up.
    Moved,
    /// A game ended and was counted.
    Ended,
    /// The machine cannot start a game: its first box is empty.
    Stuck,
}

/// An automatic opponent drawing from its own stream, its moves written down so the
/// game can be replayed as a class game.
struct Recorded<'a, O> {
    them: &'a mut O,
    rng: &'a mut SimRng,
    moves: Vec<Node>,
}

impl<G: Game, O: Opponent<G>> Opponent<G> for Recorded<'_, O> {
    fn choose(
        &mut self,
        tree: &Tree<G>,
        node: Node,
        machine: &Learner,
        _rng: &mut SimRng,
    ) -> Result<Option<Node>, Error> {
        let chosen = self.them.choose(tree, node, machine, self.rng)?;
        self.moves.extend(chosen);
        Ok(chosen)
    }

    fn finish(&mut self, end: End) {
        self.them.finish(end);
    }
}

/// The human, replaying the moves made so far and then waiting.
struct Script<'a> {
    moves: &'a [Node],
    next: usize,
    waiting: bool,
}

impl<G: Game> Opponent<G> for Script<'_> {
    fn choose(
        &mut self,
        _tree: &Tree<G>,
        _node: Node,
        _machine: &Learner,
        _rng: &mut SimRng,
    ) -> Result<Option<Node>, Error> {
        let mv = self.moves.get(self.next).copied();
        self.next += 1;
        // Out of moves: stop the replay here (the game counts as resigned, but the
        // replay's beads are thrown away).
        self.waiting = mv.is_none();
        Ok(mv)
    }
}

/// The game in progress replayed: every turn, where it stands, and how it ended.
struct Replay {
    turns: Vec<Turn>,
    node: Node,
    /// The end and the beads after the rule, once the game is over.
    over: Option<(End, Beads)>,
}

impl<R> Live<R> {
    /// A fresh screen with these beads and this score.
    pub fn new(saved: Saved) -> Live<R> {
        Live {
            saved_games: saved.games,
            saved,
            human: Vec::new(),
            finished: None,
            version: 0,
            training: None,
            unsaved: None,
            panel: PANELS[0],
            machine: 0,
        }
    }

    /// Shows a panel on every screen.
    pub fn show(&mut self, panel: &str) -> Result<(), ApiError> {
        let found = PANELS
            .iter()
            .find(|p| **p == panel)
            .ok_or(ApiError::bad(Problem::Panel))?;
        if self.panel != *found {
            self.panel = found;
            self.version += 1;
        }
        Ok(())
    }

    /// Saves the beads, or remembers why it failed: the page then says so until a save
    /// succeeds, and keeps every game meanwhile (a save is tried again at each change
    /// and each time a page looks).
    pub fn save<G: Game>(&mut self, fixed: &Fixed<G>) {
        match fixed.save(&self.saved) {
            Ok(()) => {
                self.saved_games = self.saved.games;
                if self.unsaved.take().is_some() {
                    self.version += 1;
                }
            }
            Err(e) => {
                if self.unsaved.is_none() {
                    if let Some(store) = &fixed.store {
                        store.failed(&e);
                    }
                    self.version += 1;
                }
                self.unsaved = Some(e);
            }
        }
    }

    /// Tries again to save, if the last save failed.
    pub fn retry_save<G: Game>(&mut self, fixed: &Fixed<G>) {
        if self.unsaved.is_some() {
            self.save(fixed);
        }
    }

    /// The last save's failure, if the state file is behind, with the games the state
    /// file holds.
    pub fn unsaved(&self) -> Option<(&Error, u64)> {
        self.unsaved.as_ref().map(|e| (e, self.saved_games))
    }

    /// The game on the board: the one just finished, or the one in progress. Its beads
    /// at the start, its number of games before it, and the human's moves.
    fn on_board(&self) -> (&Beads, u64, &[Node]) {
        match &self.finished {
            Some(f) => (&f.beads, f.games, &f.human),
            None => (&self.saved.beads, self.saved.games, &self.human),
        }
    }

    fn replay<G: Game>(&self, fixed: &Fixed<G>) -> Result<Replay, Error> {
        let (beads, games, human) = self.on_board();
        let mut me = Learner::with_beads(&fixed.setup.machine, beads.clone());
        let mut script = Script {
            moves: human,
            next: 0,
            waiting: false,
        };
        let mut turns = Vec::new();
        let mut rng = rng_for(fixed.seed, games);
        let played = play_game(&fixed.setup.tree, &mut me, &mut script, &mut rng, |t| {
            turns.push(t)
        })?;
        Ok(Replay {
            over: (!script.waiting).then_some((played.end, me.beads)),
            node: played.last,
            turns,
        })
    }

    /// Counts games finished elsewhere (training) into the beads and the score;
    /// `remember` keeps the state before them for undo (a training run remembers only
    /// before its first games, so that one undo takes it all back).
    pub fn record(&mut self, beads: Beads, ends: &[End], change: Option<i64>, remember: bool) {
        if remember {
            self.saved.remember();
        }
        for &end in ends {
            self.saved.record(end, change);
        }
        self.saved.beads = beads;
        self.human.clear();
        self.finished = None;
        self.version += 1;
    }

    /// Fails if a training run holds the machine.
    pub fn idle(&self) -> Result<(), ApiError> {
        match self.training {
            Some(_) => Err(ApiError::conflict(Problem::Training)),
            None => Ok(()),
        }
    }

    /// The game in progress as the page shows it.
    pub fn game<G: Game>(&self, fixed: &Fixed<G>) -> Result<GameView, Error> {
        let replay = self.replay(fixed)?;
        let (game, tree) = (&fixed.game, &fixed.setup.tree);
        let (beads, games, _) = self.on_board();
        let turns = replay
            .turns
            .iter()
            .map(|t| turn_view(fixed, beads, *t))
            .collect();
        let position = &tree.positions[replay.node as usize];
        let moves = match replay.over {
            Some(_) => Vec::new(),
            None => tree
                .moves(replay.node)
                .iter()
                .map(|&mv| Choice {
                    said: fixed.said(position, mv),
                    spots: board::spots(game, position, mv),
                })
                .collect(),
        };
        let (end, changes) = match &replay.over {
            Some((end, after)) => (
                Some(end.name()),
                changes(fixed, beads, after, &replay.turns),
            ),
            None => (None, Vec::new()),
        };
        let blocked = matches!(replay.over, Some((End::Won, _))) && game.no_move_left(position);
        let last = replay
            .turns
            .iter()
            .rev()
            .find_map(|t| match *t {
                Turn::Machine {
                    node,
                    draw: Draw::Bead { child, .. } | Draw::Forced { child },
                } => {
                    let mv = tree.move_to(node, child)?;
                    Some(board::spots(game, &tree.positions[node as usize], mv))
                }
                _ => None,
            })
            .unwrap_or_default();
        Ok(GameView {
            number: games + 1,
            blocked,
            last,
            ply: replay.turns.len(),
            position: game.format_position(position),
            board: to_svg(&board::board(game, position)),
            turns,
            moves,
            end,
            changes,
            rule: fixed.setup.machine.rule.name(),
            version: self.version,
            stuck: replay.over.is_some() && self.finished.is_none(),
            unsaved: self.unsaved.as_ref().map(save_problem),
            panel: self.panel,
            machine: self.machine,
        })
    }
}

/// A failed save as the page names it. The messages are the program's own (the
/// server's state file is written by `matchbox_files::write_atomic`); the page says
/// them in the kit's language.
fn save_problem(e: &Error) -> &'static str {
    let text = e.to_string();
    if text.contains("the disk is full") {
        "full"
    } else if text.contains("is not writable") || text.contains("does not exist") {
        "denied"
    } else {
        "other"
    }
}

/// One turn as the page shows it; `held` are the machine's beads at the start of the game.
fn turn_view<G: Game>(fixed: &Fixed<G>, held: &Beads, turn: Turn) -> TurnView {
    let (game, setup) = (&fixed.game, &fixed.setup);
    let tree = &setup.tree;
    let (node, draw) = match turn {
        Turn::Opponent { node, child } => {
            let mv = tree.move_to(node, child);
            return TurnView::Human {
                said: mv.map_or_else(
                    || Said {
                        mv: String::new(),
                        words: String::new(),
                    },
                    |m| fixed.said(&tree.positions[node as usize], m),
                ),
            };
        }
        Turn::Machine { node, draw } => (node, draw),
    };
    let position = &tree.positions[node as usize];
    let played = match draw {
        Draw::Bead { child, .. } | Draw::Forced { child } => {
            tree.move_to(node, child).map(|m| fixed.said(position, m))
        }
        Draw::Resign { .. } => None,
    };
    let mut view = TurnView::Machine {
        box_id: None,
        turn: None,
        beads: Vec::new(),
        drawn: None,
        mv: played.as_ref().map(|p| p.mv.clone()),
        words: played.map(|p| p.words),
        position: game.format_position(position),
    };
    let (
        Some((b, symmetry)),
        TurnView::Machine {
            box_id,
            turn,
            beads,
            drawn,
            ..
        },
    ) = (setup.set.locate(game, position), &mut view)
    else {
        return view;
    };
    let mbox = &setup.set.boxes[b];
    let back = game.inverse(symmetry);
    let slots = setup.machine.slots(b as u32);
    *box_id = Some(mbox.id);
    // The page's own words, one instruction for the box in the hand, for any picture
    // (the labels of some games have arrows, others dots).
    let instruction = game.describe_symmetry(symmetry).instruction();
    *turn = Some(fixed.words().get(instruction).to_string());
    *beads = mbox
        .moves
        .iter()
        .zip(slots.clone())
        .map(|(m, slot)| BeadCount {
            colour: fixed.colour(m.colour),
            count: held.count(slot),
            start: m.beads,
            before: held.count(slot),
            said: fixed.said(position, game.transform_move(m.mv, back)),
        })
        .collect();
    if let Draw::Bead { slot, .. } = draw {
        *drawn = Some((slot - slots.start) as usize);
    }
    view
}

/// What the rule changed from `before` to `after`, one line per move; each move named
/// as it was on the board when its box was used in the game of `turns`.
fn changes<G: Game>(
    fixed: &Fixed<G>,
    before: &Beads,
    after: &Beads,
    turns: &[Turn],
) -> Vec<Change> {
    let (game, setup) = (&fixed.game, &fixed.setup);
    let tree = &setup.tree;
    // Box index -> the board it was used on in this game, and how its label was turned.
    let faced: Vec<(u32, &G::Position, usize)> = turns
        .iter()
        .filter_map(|t| match t {
            Turn::Machine { node, .. } => {
                let position = &tree.positions[*node as usize];
                let (b, symmetry) = setup.set.locate(game, position)?;
                Some((b as u32, position, symmetry))
            }
            Turn::Opponent { .. } => None,
        })
        .collect();
    setup
        .changes(before, after)
        .map(|change| {
            let (b, mbox, m) = (change.box_index, change.matchbox, change.entry);
            let said = match faced.iter().find(|f| f.0 == b) {
                Some(&(_, position, symmetry)) => {
                    fixed.said(position, game.transform_move(m.mv, game.inverse(symmetry)))
                }
                None => fixed.said(&mbox.position, m.mv),
            };
            Change {
                box_id: mbox.id,
                colour: fixed.colour(m.colour),
                said,
                before: change.before,
                after: change.after,
            }
        })
        .collect()
}

/// Which of the moves at `node` `wanted` names: as `play` reads it, or the kit's words
/// for it, whatever the case and spacing; refused with the legal moves otherwise.
fn find_move<G: Game>(fixed: &Fixed<G>, node: Node, wanted: &str) -> Result<usize, ApiError> {
    let tree = &fixed.setup.tree;
    let position = &tree.positions[node as usize];
    let moves = tree.moves(node);
    let legal: Vec<Said> = moves.iter().map(|&m| fixed.said(position, m)).collect();
    let words = |t: &str| {
        t.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    let found = fixed.game.read_move(position, moves, wanted).or_else(|| {
        let wanted = words(wanted);
        legal.iter().position(|m| words(&m.words) == wanted)
    });
    found.ok_or_else(|| {
        let words: Vec<&str> = legal.iter().map(|m| m.words.as_str()).collect();
        ApiError::bad(Problem::Illegal {
            mv: wanted.chars().take(40).collect(),
            legal: words.join("; "),
        })
    })
}

impl<R> Live<R> {
    /// Plays the human's move, given in the game's notation or the kit's words, and the
    /// machine's answer.
    /// `board`, if given, must be the game's number and its count of moves so far, so
    /// that a move meant for another board is refused. When the move ends the game the
    /// rule is applied and the beads saved.
    pub fn play<G: Game>(
        &mut self,
        fixed: &Fixed<G>,
        text: &str,
        board: Board,
    ) -> Result<(), ApiError> {
        self.idle()?;
        let replay = self.replay(fixed)?;
        let (_, games, _) = self.on_board();
        let tree = &fixed.setup.tree;
        let wanted = text.trim();
        // The same move sent again for the board it was played on (a double click, a
        // tap repeated on a whiteboard): already done, so nothing changes and nothing
        // is refused.
        let played_at = board
            .ply
            .filter(|_| board.game.is_none_or(|g| g == games + 1))
            .and_then(|p| replay.turns.get(p));
        if let Some(&Turn::Opponent { node, child }) = played_at
            && let Ok(at) = find_move(fixed, node, wanted)
            && tree.children(node)[at] == child
        {
            return Ok(());
        }
        let stale = board.game.is_some_and(|g| g != games + 1)
            || board.ply.is_some_and(|p| p != replay.turns.len());
        if replay.over.is_some() || stale {
            return Err(ApiError::conflict(if replay.over.is_some() {
                Problem::GameOver
            } else {
                Problem::NotYourTurn
            }));
        }
        let at = find_move(fixed, replay.node, wanted)?;
        self.human.push(tree.children(replay.node)[at]);
        self.version += 1;
        Ok(self.settle(fixed)?)
    }

    /// Counts the game on the board if it is over: the rule's beads are kept, the game
    /// stays shown until the next starts, and the beads are saved. A game can end
    /// without a move of the human's: a machine that plays first resigns at an empty
    /// first box.
    pub fn settle<G: Game>(&mut self, fixed: &Fixed<G>) -> Result<(), Error> {
        if self.count_game(fixed)? {
            self.save(fixed);
        }
        Ok(())
    }

    /// [`Live::settle`] without the save: whether a game was counted.
    fn count_game<G: Game>(&mut self, fixed: &Fixed<G>) -> Result<bool, Error> {
        if self.finished.is_some() {
            return Ok(false);
        }
        let Replay {
            over: Some((end, after)),
            turns,
            ..
        } = self.replay(fixed)?
        else {
            return Ok(false);
        };
        // Resigned before anyone moved: the first box is empty. Not a game the class
        // played, and counting it would add a loss at every New game.
        if self.human.is_empty() && end == End::Resigned && turns.len() == 1 {
            return Ok(false);
        }
        let change = i64::from(after.counts().iter().sum::<u32>())
            - i64::from(self.saved.beads.counts().iter().sum::<u32>());
        let finished = Finished {
            beads: self.saved.beads.clone(),
            games: self.saved.games,
            human: std::mem::take(&mut self.human),
        };
        self.record(after, &[end], Some(change), true);
        self.finished = Some(finished);
        Ok(true)
    }

    /// One step of a game the machine plays on its own: the next game once the last is
    /// over, else the opponent's move (drawn with `rng`) and the machine's answer.
    pub fn auto_move<G: Game, O: Opponent<G>>(
        &mut self,
        fixed: &Fixed<G>,
        them: &mut O,
        rng: &mut SimRng,
    ) -> Result<Auto, Error> {
        if self.finished.take().is_some() {
            self.version += 1;
            self.settle(fixed)?;
            return Ok(if self.finished.is_some() {
                Auto::Ended
            } else {
                Auto::Moved
            });
        }
        let replay = self.replay(fixed)?;
        if replay.over.is_some() {
            return Ok(Auto::Stuck);
        }
        let setup = &fixed.setup;
        let me = Learner::with_beads(&setup.machine, self.saved.beads.clone());
        let child = match them.choose(&setup.tree, replay.node, &me, rng)? {
            Some(child) => child,
            // A second machine out of beads here plays at random, so the game goes on.
            None => {
                let children = setup.tree.children(replay.node);
                children[rng.random_range(0..children.len())]
            }
        };
        self.human.push(child);
        self.version += 1;
        self.settle(fixed)?;
        match self.saved.history.games.last() {
            Some(&(end, _)) if self.finished.is_some() => {
                them.finish(end.other());
                Ok(Auto::Ended)
            }
            _ => Ok(Auto::Moved),
        }
    }

    /// A whole game the machine plays on its own against `them` (whose draws come from
    /// `rng`), counted as a class game is, and left on the board; the beads are not
    /// saved (the caller saves now and then).
    pub fn auto_game<G: Game, O: Opponent<G>>(
        &mut self,
        fixed: &Fixed<G>,
        them: &mut O,
        rng: &mut SimRng,
    ) -> Result<Auto, Error> {
        let setup = &fixed.setup;
        self.finished = None;
        self.human.clear();
        let mut me = Learner::with_beads(&setup.machine, self.saved.beads.clone());
        let mut recorded = Recorded {
            them,
            rng,
            moves: Vec::new(),
        };
        // The machine draws from the game's own stream, as the replay does.
        let mut own = rng_for(fixed.seed, self.saved.games);
        play_game(&setup.tree, &mut me, &mut recorded, &mut own, |_| {})?;
        self.human = recorded.moves;
        self.version += 1;
        Ok(match self.count_game(fixed)? {
            true => Auto::Ended,
            false if self.replay(fixed)?.over.is_some() => Auto::Stuck,
            false => Auto::Moved,
        })
    }

    /// Starts the next game once the last one is over (the machine moves first if it
    /// plays first). A game in progress is left as it is, so that a second tab asking
    /// for a new game a moment late does not restart it.
    pub fn new_game<G: Game>(&mut self, fixed: &Fixed<G>) -> Result<(), ApiError> {
        self.idle()?;
        if self.finished.take().is_some() {
            self.version += 1;
        }
        Ok(self.settle(fixed)?)
    }

    /// Takes back the last game finished (or training run), and abandons the game in
    /// progress.
    pub fn undo<G: Game>(&mut self, fixed: &Fixed<G>) -> Result<(), ApiError> {
        self.idle()?;
        if !self.saved.undo() {
            return Err(ApiError::conflict(Problem::NoUndo));
        }
        self.human.clear();
        self.finished = None;
        self.version += 1;
        self.save(fixed);
        Ok(self.settle(fixed)?)
    }

    /// Takes back the class's last move and the machine's answer to it. A finished game
    /// is taken back into play: the rule's beads come out again and it is no longer
    /// counted. The machine's moves are replayed from the game's own stream, so the
    /// board and the beads are as they were before the move.
    pub fn take_back<G: Game>(&mut self, fixed: &Fixed<G>) -> Result<(), ApiError> {
        self.idle()?;
        match self.finished.take() {
            // A finished game was the latest change remembered (a record, an undo or a
            // reset forgets it): undoing that change takes its beads back.
            Some(mut f) if !f.human.is_empty() && self.saved.undo() => {
                f.human.pop();
                self.human = f.human;
            }
            Some(f) => {
                self.finished = Some(f);
                return Err(ApiError::conflict(Problem::NoMove));
            }
            None => {
                if self.human.pop().is_none() {
                    return Err(ApiError::conflict(Problem::NoMove));
                }
            }
        }
        self.version += 1;
        self.save(fixed);
        Ok(self.settle(fixed)?)
    }

    /// Clears the board for a new game of the class's: a game the machine played on its
    /// own, finished or not, is not the class's to go on with (its moves are counted
    /// if it was finished, and a half game changed no bead).
    pub fn clear_board<G: Game>(&mut self, fixed: &Fixed<G>) -> Result<(), Error> {
        if self.finished.take().is_some() || !self.human.is_empty() {
            self.human.clear();
            self.version += 1;
        }
        self.settle(fixed)
    }

    /// Keeps another opponent for training and watching; the boxes stay as they are.
    pub fn choose_opponent<G: Game>(&mut self, fixed: &Fixed<G>, opponent: OpponentKind) {
        self.saved.settings.opponent = opponent;
        self.version += 1;
        self.save(fixed);
    }

    /// Refills every box as new and forgets the games.
    pub fn reset<G: Game>(&mut self, fixed: &Fixed<G>) -> Result<(), ApiError> {
        let settings = self.saved.settings.clone();
        self.refill(fixed, settings)
    }

    /// Fills every box as new under `settings`, which `fixed` is made with, and forgets
    /// the games.
    pub fn refill<G: Game>(
        &mut self,
        fixed: &Fixed<G>,
        settings: Settings,
    ) -> Result<(), ApiError> {
        self.idle()?;
        self.saved = Saved::fresh(&fixed.setup.machine, settings);
        self.human.clear();
        self.finished = None;
        self.version += 1;
        self.save(fixed);
        Ok(self.settle(fixed)?)
    }

    /// Every box with its beads now.
    pub fn boxes<G: Game>(&self, fixed: &Fixed<G>) -> Vec<BoxSummary> {
        (0..fixed.setup.set.boxes.len())
            .map(|b| self.summary(fixed, b))
            .collect()
    }

    fn summary<G: Game>(&self, fixed: &Fixed<G>, b: usize) -> BoxSummary {
        let (kit, setup) = (&fixed.kit, &fixed.setup);
        let mbox = &setup.set.boxes[b];
        // The beads before the latest change: the last undo step's.
        let before = self
            .saved
            .undo
            .last()
            .map_or(&self.saved.beads, |s| &s.beads);
        BoxSummary {
            id: mbox.id,
            tag: matchbox_engine::boxes::tag(
                &mbox.move_numbers,
                kit.machine,
                kit.tags,
                kit.numerals,
            ),
            move_number: mbox.move_numbers.first().copied().unwrap_or(1),
            beads: self.saved.beads.total(b as u32),
            start: mbox.beads(),
            moves: mbox
                .moves
                .iter()
                .zip(setup.machine.slots(b as u32))
                .map(|(m, slot)| BeadCount {
                    colour: fixed.colour(m.colour),
                    count: self.saved.beads.count(slot),
                    start: m.beads,
                    before: before.count(slot),
                    said: fixed.said(&mbox.position, m.mv),
                })
                .collect(),
        }
    }

    /// The box with printed id `id`, with its label.
    pub fn one_box<G: Game>(&self, fixed: &Fixed<G>, id: usize) -> Result<BoxView, ApiError> {
        let boxes = &fixed.setup.set.boxes;
        let b = boxes
            .iter()
            .position(|m| m.id == id)
            .ok_or(ApiError::not_found(Problem::NoBox {
                id: id.to_string(),
                count: boxes.len(),
            }))?;
        let mbox = &boxes[b];
        Ok(BoxView {
            summary: self.summary(fixed, b),
            position: fixed.game.format_position(&mbox.position),
            label: to_svg(&draw_label(
                &fixed.game,
                &fixed.kit,
                TagSize::of(&fixed.game, &fixed.kit, &fixed.setup.set),
                mbox,
            )),
        })
    }

    /// The score sheet and the curve.
    pub fn score(&self) -> Score {
        let history = &self.saved.history;
        let mut losses = 0;
        let rows: Vec<Row> = history
            .games
            .iter()
            .zip(history.from + 1..)
            .map(|(&(end, change), game)| {
                losses += u64::from(end.is_loss());
                Row {
                    game,
                    end: end.name(),
                    change,
                    losses,
                }
            })
            .collect();
        let count = |end: End| history.games.iter().filter(|g| g.0 == end).count() as u64;
        let step = rows.len().div_ceil(CURVE_POINTS).max(1);
        let mut curve = vec![[history.from, 0]];
        curve.extend(
            rows.iter()
                .enumerate()
                .filter(|(i, _)| (i + 1) % step == 0 || i + 1 == rows.len())
                .map(|(_, r)| [r.game, r.losses]),
        );
        Score {
            games: self.saved.games,
            wins: count(End::Won),
            draws: count(End::Drew),
            losses,
            rows: rows[rows.len().saturating_sub(SCORE_ROWS)..].to_vec(),
            curve,
            can_undo: !self.saved.undo.is_empty(),
        }
    }
}
