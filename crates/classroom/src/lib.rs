//! The classroom screen's machine, for any game: the requests the page sends (a method,
//! a path, a JSON body) and their JSON answers, with no network, thread or clock, so
//! that `matchbox serve` answers them over HTTP and the static site's engine answers
//! them in the browser, alike.
//!
//! Everything here works for any game through [`Game`]: the page gets the moves in the
//! game's notation and where to click them, the board and labels as SVG of the same
//! scenes the printed kit uses, and its words from `templates/<lang>/strings.yaml`.
//! Every change happens under one lock, and the beads are kept (a [`Store`]) after
//! every game. Training and watching go on in steps the host calls ([`Lesson::step`]).

#![warn(missing_docs)]

mod board;
mod settings;
mod table;
mod train;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError, RwLock};
use std::time::Duration;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use matchbox_engine::Error;
use matchbox_engine::i18n::{Id, Messages, Strings, id};
use matchbox_engine::kit::Kit;
use matchbox_engine::rule::Rule;
use matchbox_engine::simulate::Setup;
use matchbox_engine::simulate::state::{self, Unfit};
use matchbox_print::pictures::Game;
use table::Fixed;
use train::Live;

/// Where the beads are kept after every game: the server's state file, the browser's
/// storage. What is kept is the text of the `play --state` file.
pub trait Store: Send + Sync {
    /// Keeps the state file's text.
    fn save(&self, text: &str) -> Result<(), Error>;
    /// Its name (a file's path), for the page's message when it cannot be saved.
    fn name(&self) -> Option<String>;
    /// Told once when saving starts failing (the page says so too).
    fn failed(&self, _error: &Error) {}
    /// Keeps the text somewhere else when [`Store::save`] cannot, as the lesson ends, and
    /// says where; `None` where there is nowhere else.
    fn rescue(&self, _text: &str) -> Option<String> {
        None
    }
}

/// What goes wrong with a request, in words the page's user reads.
#[derive(Debug)]
pub enum Problem {
    /// The body is not the JSON asked for.
    Json {
        /// An example of the JSON asked for.
        example: &'static str,
    },
    /// A Host header that names neither this server's address, localhost, nor an IP
    /// address (a page of another site reaching here by DNS rebinding).
    Host {
        /// The host named.
        host: String,
    },
    /// A request that did not arrive whole in time.
    Timeout {
        /// The time it had.
        seconds: u64,
    },
    /// A changing request without the teacher's token.
    Token,
    /// A move that is not legal on the board.
    Illegal {
        /// What was asked.
        mv: String,
        /// The legal moves, separated by semicolons (a move's words may hold a comma).
        legal: String,
    },
    /// A move meant for another board (another tab moved first).
    NotYourTurn,
    /// A move after the end of the game.
    GameOver,
    /// A box id that no box has.
    NoBox {
        /// What was asked.
        id: String,
        /// How many boxes there are.
        count: usize,
    },
    /// A body over the transport's limit.
    TooBig {
        /// The limit, in bytes.
        limit: usize,
    },
    /// A path that is neither the page nor the API.
    NotFound {
        /// The path asked for.
        path: String,
    },
    /// A method the path does not take.
    Method,
    /// A change while the machine trains.
    Training,
    /// A cancel with no training under way.
    NotTraining,
    /// A game count out of range.
    Games,
    /// An opponent the page cannot choose.
    Opponent {
        /// What was asked.
        name: String,
    },
    /// Undo with nothing to undo.
    NoUndo,
    /// Taking back a move with no move of the class's to take back.
    NoMove,
    /// A pace of watching out of range.
    Pace {
        /// The fastest pace's number.
        max: usize,
    },
    /// A panel the page does not have.
    Panel,
    /// A setting that cannot make the kit's machine.
    Setting(Unfit),
    /// A rule the page does not know.
    Rule {
        /// What was asked.
        name: String,
    },
    /// The program failed (a file could not be saved, a bug).
    Internal(String),
}

/// A refused request: its HTTP status and why.
#[derive(Debug)]
pub struct ApiError {
    status: u16,
    problem: Problem,
}

impl ApiError {
    /// A refusal with this HTTP status.
    pub fn new(status: u16, problem: Problem) -> ApiError {
        ApiError { status, problem }
    }

    /// 400: the request itself is wrong.
    pub fn bad(problem: Problem) -> ApiError {
        ApiError::new(400, problem)
    }

    /// 409: the request does not fit the game as it stands.
    pub fn conflict(problem: Problem) -> ApiError {
        ApiError::new(409, problem)
    }

    /// 404: nothing there.
    pub fn not_found(problem: Problem) -> ApiError {
        ApiError::new(404, problem)
    }

    /// 500: the program failed.
    pub fn internal(message: String) -> ApiError {
        ApiError::new(500, Problem::Internal(message))
    }

    /// The message in the kit's language.
    fn message(&self, words: &Strings) -> String {
        let fill = |key: Id, values: &[(&str, &str)]| words.fill(key, values);
        match &self.problem {
            Problem::Json { example } => fill(id::API_JSON, &[("why", example)]),
            Problem::Host { host } => fill(id::API_HOST, &[("host", host)]),
            Problem::Timeout { seconds } => {
                fill(id::API_TIMEOUT, &[("seconds", &seconds.to_string())])
            }
            Problem::Token => fill(id::API_TOKEN, &[]),
            Problem::Illegal { mv, legal } => {
                fill(id::API_ILLEGAL, &[("move", mv), ("moves", legal)])
            }
            Problem::NotYourTurn => fill(id::API_NOT_YOUR_TURN, &[]),
            Problem::GameOver => fill(id::API_GAME_OVER, &[]),
            Problem::NoBox { id, count } => {
                fill(id::API_NO_BOX, &[("id", id), ("count", &count.to_string())])
            }
            Problem::TooBig { limit } => fill(id::API_TOO_BIG, &[("limit", &limit.to_string())]),
            Problem::NotFound { path } => fill(id::API_NOT_FOUND, &[("path", path)]),
            Problem::Method => fill(id::API_METHOD, &[]),
            Problem::Training => fill(id::API_TRAINING, &[]),
            Problem::NotTraining => fill(id::API_NOT_TRAINING, &[]),
            Problem::Games => fill(
                id::API_GAMES,
                &[(
                    "max",
                    &grouped(u64::from(train::MAX_GAMES), words.get(id::PAGE_DIGIT_GROUP)),
                )],
            ),
            Problem::Opponent { name } => fill(id::API_OPPONENT, &[("name", name)]),
            Problem::NoUndo => fill(id::API_NO_UNDO, &[]),
            Problem::NoMove => fill(id::PAGE_NO_MOVE_BACK, &[]),
            Problem::Pace { max } => fill(id::API_PACE, &[("max", &max.to_string())]),
            Problem::Panel => fill(id::API_PANEL, &[("panels", &table::PANELS.join(", "))]),
            Problem::Setting(unfit) => settings::message(unfit, words),
            Problem::Rule { name } => fill(
                id::API_RULE,
                &[
                    ("name", name),
                    ("rules", &settings::rule_names().join(", ")),
                ],
            ),
            Problem::Internal(m) => m.clone(),
        }
    }

    /// The setting a page shows the message at, if the problem is one setting's.
    fn field(&self) -> Option<String> {
        match &self.problem {
            Problem::Setting(unfit) => Some(settings::field(unfit)),
            Problem::Rule { .. } => Some("rule".into()),
            Problem::Opponent { .. } => Some("opponent".into()),
            _ => None,
        }
    }
}

impl From<Error> for ApiError {
    fn from(e: Error) -> ApiError {
        ApiError::internal(e.to_string())
    }
}

/// A number with its thousands grouped by `separator` (`page.digit_group`: `1,000,000`,
/// `1 000 000`).
pub fn grouped(n: u64, separator: &str) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push_str(separator);
        }
        out.push(c);
    }
    out
}

/// A request's body as the transport could read it.
#[derive(Clone, Copy, Debug)]
pub enum Body<'a> {
    /// The bytes sent.
    Read(&'a [u8]),
    /// Over the transport's limit, in bytes.
    TooBig(usize),
    /// Not read whole (the connection broke).
    Unreadable,
}

/// A request of the page's, whatever carried it.
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    /// `GET` or `POST`.
    pub method: &'a str,
    /// The path, such as `/api/game`.
    pub path: &'a str,
    /// The body (only a `POST` reads it).
    pub body: Body<'a>,
    /// Whether it comes from the teacher, who alone may change anything.
    pub teacher: bool,
}

/// An answer: an HTTP status and a JSON text (`{"error": "..."}` when refused).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// 200, or the refusal's status.
    pub status: u16,
    /// The JSON text.
    pub json: String,
}

/// The host's time: a duration since an instant fixed for the lesson's life.
pub type Clock<'a> = &'a dyn Fn() -> Duration;

/// A lesson under way, whatever its game: what a transport calls.
pub trait Lesson: Send + Sync {
    /// Answers one of the page's requests.
    fn handle(&self, request: &Request) -> Reply;
    /// A refusal of the transport's own (a bad Host header, a timeout), in the kit's
    /// language.
    fn refuse(&self, error: ApiError) -> Reply;
    /// Goes on with the training or watching under way: the host calls it again after
    /// the time it gives (or at once after a request of the page's), until it gives
    /// `None` (no run under way).
    fn step(&self, clock: Clock) -> Result<Option<Duration>, Error>;
    /// Ends the run under way, keeping its games, and saves; an error if the beads could
    /// not be kept.
    fn close(&self, clock: Clock) -> Result<(), Error>;
}

/// How a lesson is set up.
pub struct Options<'a> {
    /// The learning rule asked for (`--rule`); the state file's own otherwise, else the
    /// kit's.
    pub rule: Option<Rule>,
    /// Seed of the machine's draws.
    pub seed: u64,
    /// Where the beads are kept after every game, if anywhere.
    pub store: Option<Arc<dyn Store>>,
    /// The state file to start from: its name (for messages) and what reading it gave;
    /// a missing file is a fresh machine.
    pub state: Option<(&'a Path, std::io::Result<Vec<u8>>)>,
    /// Read the state file although it was changed by hand.
    pub accept_edited_state: bool,
}

/// Opens a lesson with a kit: compiles the machine under the settings (the state
/// file's own, else the kit's) and reads the state file (a damaged one is refused
/// here). What to tell the teacher: the file's own settings, an edited file read anyway.
pub fn open(kit: &Kit, options: Options) -> Result<(Arc<dyn Lesson>, Vec<String>), Error> {
    matchbox_engine::with_game!(&kit.game, |game| {
        Classroom::open(game, kit, options)
            .map(|(lesson, notes)| (Arc::new(lesson) as Arc<dyn Lesson>, notes))
    })
}

/// The kit's machine under `rule`, with a second machine to train against when the kit
/// can be built for the other side.
fn setup<G: Game>(game: &G, kit: &Kit, rule: Rule) -> Result<Setup<G>, Error> {
    Setup::new(game, kit, rule, true).or_else(|_| Setup::new(game, kit, rule, false))
}

/// The lesson for one game: the machine as the settings make it, and the live state
/// behind its lock.
struct Classroom<G: Game> {
    /// Replaced whole when the teacher applies new settings, under the live lock.
    fixed: RwLock<Arc<Fixed<G>>>,
    live: Mutex<Live>,
    /// Held by a step, so that two hosts' steps never play the same run at once.
    stepping: Mutex<()>,
}

/// Locks a mutex. A panic while it was held cannot leave the state half-changed (every
/// change is made whole after the checks), so a poisoned lock is used as is.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The routes, each with what the page sends.
enum Route {
    Kit,
    Game,
    Now,
    Move,
    NewGame,
    TakeBack,
    Boxes,
    OneBox(String),
    Pictures,
    Score,
    Undo,
    Reset,
    Progress,
    Train,
    Cancel,
    Watch,
    Steer,
    Panel,
    State,
    Settings,
    ApplySettings,
}

impl Route {
    /// The route of a method and path; a `POST` is a change, which only the teacher may
    /// ask for.
    fn find(method: &str, path: &str) -> Result<Route, ApiError> {
        use Route::*;
        let (get, post) = match path {
            "/api/kit" => (Some(Kit), None),
            "/api/game" => (Some(Game), None),
            "/api/now" => (Some(Now), None),
            "/api/game/move" => (None, Some(Move)),
            "/api/game/new" => (None, Some(NewGame)),
            "/api/game/back" => (None, Some(TakeBack)),
            "/api/boxes" => (Some(Boxes), None),
            "/api/pictures" => (Some(Pictures), None),
            "/api/score" => (Some(Score), None),
            "/api/undo" => (None, Some(Undo)),
            "/api/reset" => (None, Some(Reset)),
            "/api/train" => (Some(Progress), Some(Train)),
            "/api/train/cancel" => (None, Some(Cancel)),
            "/api/watch" => (None, Some(Watch)),
            "/api/watch/steer" => (None, Some(Steer)),
            "/api/panel" => (None, Some(Panel)),
            "/api/state" => (Some(State), None),
            "/api/settings" => (Some(Settings), Some(ApplySettings)),
            _ => match path.strip_prefix("/api/boxes/") {
                Some(id) if !id.is_empty() && !id.contains('/') => {
                    (Some(OneBox(id.to_string())), None)
                }
                _ => {
                    return Err(ApiError::not_found(Problem::NotFound {
                        path: path.chars().take(100).collect(),
                    }));
                }
            },
        };
        match method {
            "GET" | "HEAD" => get,
            "POST" => post,
            _ => None,
        }
        .ok_or(ApiError::new(405, Problem::Method))
    }
}

/// Reads a JSON body, refusing one too large or malformed; `example` shows the JSON
/// asked for (the parser's own words are English and name Rust types).
fn body<T: DeserializeOwned>(body: Body, example: &'static str) -> Result<T, ApiError> {
    match body {
        Body::Read(bytes) => {
            serde_json::from_slice(bytes).map_err(|_| ApiError::bad(Problem::Json { example }))
        }
        Body::TooBig(limit) => Err(ApiError::new(413, Problem::TooBig { limit })),
        Body::Unreadable => Err(ApiError::bad(Problem::Json { example })),
    }
}

/// An answer's JSON text.
fn json<T: Serialize>(value: &T) -> Result<String, ApiError> {
    serde_json::to_string(value).map_err(|e| ApiError::internal(e.to_string()))
}

/// The kit, for the page's heading, words and choices.
#[derive(Serialize)]
struct KitView {
    name: String,
    game: &'static str,
    language: &'static str,
    machine: &'static str,
    rule: &'static str,
    boxes: usize,
    opponents: Vec<&'static str>,
    /// The games one training run may play, least and most.
    train_games: [u32; 2],
    /// Every rule by name, with what it reads of the settings.
    rule_uses: BTreeMap<&'static str, settings::RuleUses>,
    /// The paces of watching, slowest first.
    paces: [train::Pace; train::PACES.len()],
    /// The state file's name, for the page's message when it cannot be saved.
    state: Option<String>,
    words: BTreeMap<&'static str, &'static str>,
}

/// The strings the page uses: its own and the score sheet's.
const PAGE_KEYS: [&str; 2] = ["page.", "score."];

/// Everything the page shows, seen at one moment under the lock: requests of their
/// own could each see another moment (a training run's end between them).
#[derive(Serialize)]
struct Now {
    game: table::GameView,
    boxes: Vec<table::BoxSummary>,
    score: table::Score,
    train: train::Progress,
}

/// A move request.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    /// In the game's notation.
    #[serde(rename = "move")]
    mv: String,
    /// The number of the game the move is meant for.
    game: Option<u64>,
    /// The moves made so far in that game.
    ply: Option<usize>,
}

/// A training request.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TrainRequest {
    /// Games to play.
    games: u32,
    /// `random`, `perfect`, `teacher` or `machine`.
    opponent: String,
}

/// A request to watch the machine play.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WatchRequest {
    /// `random`, `perfect`, `teacher` or `machine`.
    opponent: String,
    /// The pace, as an index into the kit's `paces`.
    pace: usize,
}

/// Steering a watching run: any of a new pace, pause or go on, one move.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SteerRequest {
    pace: Option<usize>,
    paused: Option<bool>,
    #[serde(default)]
    step: bool,
}

/// The panel the teacher shows.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PanelRequest {
    panel: String,
}

impl<G: Game> Classroom<G> {
    fn open(game: &G, kit: &Kit, options: Options) -> Result<(Classroom<G>, Vec<String>), Error> {
        let state::Opened {
            kit: filled,
            setup,
            saved,
            notes,
        } = state::open_machine(
            game,
            kit,
            options.state,
            options.rule,
            |filled, rule| setup(game, filled, rule),
            options.accept_edited_state,
        )?;
        let classroom = Classroom {
            fixed: RwLock::new(Arc::new(Fixed {
                game: game.clone(),
                kit: filled,
                own: kit.clone(),
                setup,
                seed: options.seed,
                store: options.store,
                risks: OnceLock::new(),
            })),
            live: Mutex::new(Live::new(saved)),
            stepping: Mutex::new(()),
        };
        // A machine that plays first may resign before anyone moves (an empty box 1).
        let (mut live, fixed) = classroom.locked();
        live.settle(&fixed)?;
        drop(live);
        Ok((classroom, notes))
    }

    /// The machine as the settings make it now. Whoever also holds the live lock takes
    /// this after it, so that the two agree (settings change under the live lock).
    fn fixed(&self) -> Arc<Fixed<G>> {
        Arc::clone(&self.fixed.read().unwrap_or_else(PoisonError::into_inner))
    }

    /// The live state, locked, and the machine it belongs to.
    fn locked(&self) -> (MutexGuard<'_, Live>, Arc<Fixed<G>>) {
        let live = lock(&self.live);
        (live, self.fixed())
    }

    fn words(&self) -> &'static Strings {
        self.fixed().words()
    }

    fn kit(&self) -> KitView {
        let fixed = self.fixed();
        let (kit, setup) = (&fixed.kit, &fixed.setup);
        let words = self.words();
        let mut opponents = vec!["perfect", "random", "teacher"];
        if setup.rival.is_some() {
            opponents.push("machine");
        }
        KitView {
            name: kit.name.clone(),
            game: kit.game.name(),
            language: kit.language.code(),
            machine: kit.machine.name(),
            rule: setup.machine.rule.name(),
            boxes: setup.set.boxes.len(),
            opponents,
            train_games: [*train::GAMES.start(), *train::GAMES.end()],
            rule_uses: settings::rule_uses(),
            paces: train::PACES,
            state: fixed.store.as_ref().and_then(|s| s.name()),
            words: words
                .entries()
                .filter(|(k, _)| PAGE_KEYS.iter().any(|p| k.starts_with(p)))
                .collect(),
        }
    }

    /// `GET /api/settings`: the settings panel.
    fn settings(&self) -> settings::SettingsView {
        let (now, fixed) = {
            let (live, fixed) = self.locked();
            (live.saved.settings.clone(), fixed)
        };
        // Worked out once per machine, without the live lock.
        let risks = fixed.risks();
        settings::view(&fixed.setup, &fixed.own, &now, risks)
    }

    /// `POST /api/settings` (the teacher's): applies the settings asked for: a new
    /// machine with fresh boxes when the beads, the rule or the rewards change; the
    /// opponent alone is only kept.
    fn apply_settings(
        &self,
        request: &settings::SettingsRequest,
    ) -> Result<settings::Applied, ApiError> {
        let (mut live, fixed) = self.locked();
        live.idle()?;
        let now = live.saved.settings.clone();
        let asked = settings::checked(&fixed.setup, &fixed.own, &now, request)?;
        if asked == now {
            return Ok(settings::Applied { fresh: false });
        }
        let opponent_only = state::Settings {
            opponent: asked.opponent,
            ..now
        } == asked;
        if opponent_only {
            live.choose_opponent(&fixed, asked.opponent);
            return Ok(settings::Applied { fresh: false });
        }
        let made = Arc::new(fixed.remade(&asked)?);
        live.refill(&made, asked)?;
        live.machine += 1;
        *self.fixed.write().unwrap_or_else(PoisonError::into_inner) = made;
        Ok(settings::Applied { fresh: true })
    }

    /// The answer to a route, as JSON text; one match with a short arm per route (read
    /// what was sent, call the room). Long because there are twenty-one routes: kept
    /// whole so that they read side by side, as the page's API does ([`Route::find`]).
    fn answer(&self, route: Route, sent: Body) -> Result<String, ApiError> {
        let (mut live, fixed) = self.locked();
        let fixed = &*fixed;
        let rival = fixed.setup.rival.is_some();
        let progress = |live: &Live| json(&train::Run::progress(live.training.as_ref()));
        match route {
            Route::Kit => json(&self.kit()),
            Route::Game => {
                // Pages look every second or so: a failed save is tried again at that pace.
                live.retry_save(fixed);
                json(&live.game(fixed)?)
            }
            Route::Now => {
                live.retry_save(fixed);
                json(&Now {
                    game: live.game(fixed)?,
                    boxes: live.boxes(fixed),
                    score: live.score(),
                    train: train::Run::progress(live.training.as_ref()),
                })
            }
            Route::Move => {
                let request: MoveRequest = body(sent, r#"{"move": "b1-b2", "game": 1, "ply": 0}"#)?;
                let board = table::Board {
                    game: request.game,
                    ply: request.ply,
                };
                live.play(fixed, &request.mv, board)?;
                json(&live.game(fixed)?)
            }
            Route::NewGame => {
                live.new_game(fixed)?;
                json(&live.game(fixed)?)
            }
            Route::TakeBack => {
                live.take_back(fixed)?;
                json(&live.game(fixed)?)
            }
            Route::Boxes => json(&live.boxes(fixed)),
            Route::OneBox(id) => {
                // An id that is no number finds no box either.
                let view = live.one_box(fixed, id.parse().unwrap_or(0));
                json(&view.map_err(|e| match e.problem {
                    Problem::NoBox { count, .. } => ApiError::not_found(Problem::NoBox {
                        id: id.chars().take(20).collect(),
                        count,
                    }),
                    _ => e,
                })?)
            }
            Route::Pictures => json(&fixed.pictures()),
            Route::Score => json(&live.score()),
            Route::Undo => {
                live.undo(fixed)?;
                json(&live.score())
            }
            Route::Reset => {
                live.reset(fixed)?;
                json(&live.score())
            }
            Route::Progress => progress(&live),
            Route::Train => {
                let request: TrainRequest = body(sent, r#"{"games": 200, "opponent": "random"}"#)?;
                let opponent = settings::opponent(&request.opponent, rival)?;
                train::start(&mut live, request.games, opponent)?;
                progress(&live)
            }
            Route::Cancel => {
                train::cancel(&mut live)?;
                progress(&live)
            }
            Route::Watch => {
                let request: WatchRequest = body(sent, r#"{"opponent": "random", "pace": 3}"#)?;
                let opponent = settings::opponent(&request.opponent, rival)?;
                train::watch(fixed, &mut live, opponent, request.pace)?;
                progress(&live)
            }
            Route::Steer => {
                let request: SteerRequest =
                    body(sent, r#"{"pace": 3, "paused": true, "step": true}"#)?;
                train::steer(&mut live, request.pace, request.paused, request.step)?;
                progress(&live)
            }
            Route::Panel => {
                let request: PanelRequest = body(sent, r#"{"panel": "memory"}"#)?;
                live.show(&request.panel)?;
                json(&serde_json::json!({ "panel": request.panel }))
            }
            Route::State => {
                let text = state::to_json(&fixed.game, &fixed.kit, &fixed.setup, &live.saved)?;
                json(&serde_json::json!({ "text": text }))
            }
            // The settings take the lock themselves: their trial runs go without it.
            Route::Settings => {
                drop(live);
                json(&self.settings())
            }
            Route::ApplySettings => {
                drop(live);
                let request = body(sent, settings::EXAMPLE)?;
                json(&self.apply_settings(&request)?)
            }
        }
    }
}

impl<G: Game> Lesson for Classroom<G> {
    fn handle(&self, request: &Request) -> Reply {
        let answer = Route::find(request.method, request.path).and_then(|route| {
            if request.method == "POST" && !request.teacher {
                return Err(ApiError::new(403, Problem::Token));
            }
            self.answer(route, request.body)
        });
        match answer {
            Ok(json) => Reply { status: 200, json },
            Err(e) => self.refuse(e),
        }
    }

    fn refuse(&self, error: ApiError) -> Reply {
        let mut body = serde_json::json!({ "error": error.message(self.words()) });
        if let Some(field) = error.field() {
            body["field"] = field.into();
        }
        Reply {
            status: error.status,
            json: body.to_string(),
        }
    }

    fn step(&self, clock: Clock) -> Result<Option<Duration>, Error> {
        let _alone = lock(&self.stepping);
        let now = clock();
        // The settings cannot change while a run holds the machine.
        let (mut live, fixed) = self.locked();
        let fixed = &*fixed;
        let next = train::step(fixed, &mut live, now)?;
        let Some(mut slice) = train::slice(fixed, &mut live)? else {
            return Ok(next);
        };
        // The games are played without the lock: the pages look meanwhile, and every
        // change waits for the run's end (the machine is busy).
        drop(live);
        let played = slice.play(fixed, || clock() < now + train::SLICE);
        let mut live = lock(&self.live);
        match played {
            Ok(ends) => {
                slice.count_in(fixed, &mut live, &ends)?;
                Ok(live.training.is_some().then_some(Duration::ZERO))
            }
            Err(e) => train::finish(fixed, &mut live).and(Err(e)),
        }
    }

    fn close(&self, clock: Clock) -> Result<(), Error> {
        // No run to cancel is as good: the beads are saved all the same.
        let _ = train::cancel(&mut lock(&self.live));
        while self.step(clock)?.is_some() {}
        let (mut live, fixed) = self.locked();
        live.save(&fixed);
        let Some((e, kept)) = live.unsaved() else {
            return Ok(());
        };
        // Which games the file lacks, and where they are if anywhere: a teacher stopping
        // on a full disk must know what the class's last games became.
        let games = live.saved.games;
        let say = Messages(fixed.kit.language);
        let (kept_n, games_n) = (kept.to_string(), games.to_string());
        let behind = match (kept, games - kept) {
            (0, _) => say.message(id::ERROR_UNSAVED_NONE, &[]),
            (_, 1) => say.message(
                id::ERROR_UNSAVED_ONE,
                &[("kept", &kept_n), ("games", &games_n)],
            ),
            _ => say.message(
                id::ERROR_UNSAVED_SOME,
                &[
                    ("kept", &kept_n),
                    ("first", &(kept + 1).to_string()),
                    ("games", &games_n),
                ],
            ),
        };
        let rescued = match fixed.rescue(&live.saved) {
            Some(place) => say.message(
                id::ERROR_UNSAVED_RESCUED,
                &[("games", &games_n), ("place", &place)],
            ),
            None => say.message(id::ERROR_UNSAVED_LOST, &[("kept", &kept_n)]),
        };
        let said = say
            .message(id::ERROR_UNSAVED, &[])
            .with_arg("why", e.arg())
            .with("behind", behind)
            .with("rescued", rescued);
        Err(said.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    use serde_json::{Value, json};

    /// The state file's texts as they are kept.
    #[derive(Default)]
    struct Kept(Mutex<Vec<String>>);

    impl Store for Arc<Kept> {
        fn save(&self, text: &str) -> Result<(), Error> {
            lock(&self.0).push(text.to_string());
            Ok(())
        }

        fn name(&self) -> Option<String> {
            None
        }
    }

    fn lesson(preset: &str, kept: Option<&Arc<Kept>>, state: Option<&str>) -> Arc<dyn Lesson> {
        let kit = Kit::from_preset(preset).unwrap();
        let options = Options {
            rule: None,
            seed: 7,
            store: kept.map(|k| Arc::new(Arc::clone(k)) as Arc<dyn Store>),
            state: state.map(|text| (Path::new("state.json"), Ok(text.as_bytes().to_vec()))),
            accept_edited_state: false,
        };
        open(&kit, options).unwrap().0
    }

    /// A request of the teacher's; its status and JSON.
    fn ask(lesson: &dyn Lesson, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        let sent = body.map(|b| b.to_string()).unwrap_or_default();
        let reply = lesson.handle(&Request {
            method,
            path,
            body: Body::Read(sent.as_bytes()),
            teacher: true,
        });
        (reply.status, serde_json::from_str(&reply.json).unwrap())
    }

    /// A whole number in the answer to `GET path`.
    fn number(lesson: &dyn Lesson, path: &str, key: &str) -> u64 {
        ask(lesson, "GET", path, None).1[key].as_u64().unwrap()
    }

    /// Starts watching the machine play `opponent` at the pace numbered `pace`.
    fn watch(lesson: &dyn Lesson, opponent: &str, pace: usize) {
        let body = json!({"opponent": opponent, "pace": pace});
        assert_eq!(ask(lesson, "POST", "/api/watch", Some(body)).0, 200);
    }

    /// Steers the watching under way (`{"paused": true}`, `{"step": true}`).
    fn steer(lesson: &dyn Lesson, body: Value) {
        assert_eq!(ask(lesson, "POST", "/api/watch/steer", Some(body)).0, 200);
    }

    /// Steps the run under way to its end, the clock moving `tick` at every look.
    fn run_out(lesson: &dyn Lesson, tick: Duration) -> usize {
        let now = Cell::new(Duration::ZERO);
        let clock = || {
            now.set(now.get() + tick);
            now.get()
        };
        let mut steps = 0;
        while lesson.step(&clock).unwrap().is_some() {
            steps += 1;
        }
        steps
    }

    #[test]
    fn training_in_slices_of_any_size_learns_the_same() {
        let mut seen = Vec::new();
        for tick in [
            Duration::ZERO,
            Duration::from_millis(7),
            Duration::from_secs(1),
        ] {
            let her = lesson("hexapawn", None, None);
            let (status, progress) = ask(
                &*her,
                "POST",
                "/api/train",
                Some(json!({"games": 300, "opponent": "machine"})),
            );
            assert_eq!((status, &progress["running"]), (200, &json!(true)));
            // A change waits for the run's end.
            assert_eq!(ask(&*her, "POST", "/api/reset", None).0, 409);
            let steps = run_out(&*her, tick);
            assert_eq!(ask(&*her, "GET", "/api/score", None).1["games"], 300);
            assert_eq!(ask(&*her, "GET", "/api/train", None).1["running"], false);
            seen.push((steps, ask(&*her, "GET", "/api/boxes", None).1));
        }
        // One slice, slices of seven games, a game a slice: the same beads.
        assert!(
            seen[0].0 < seen[1].0 && seen[1].0 < seen[2].0,
            "{:?}",
            seen.iter().map(|s| s.0).collect::<Vec<_>>()
        );
        assert_eq!(seen[0].1, seen[1].1);
        assert_eq!(seen[0].1, seen[2].1);
    }

    #[test]
    fn watching_keeps_its_pace_pauses_and_steps() {
        let her = lesson("hexapawn", None, None);
        let now = Cell::new(Duration::ZERO);
        let clock = || now.get();
        let ply = || number(&*her, "/api/game", "ply");
        watch(&*her, "machine", 0);
        // A move of the opponent's and the machine's answer, then two seconds' wait.
        assert_eq!(her.step(&clock).unwrap(), Some(Duration::from_secs(2)));
        assert_eq!(ply(), 2);
        now.set(Duration::from_millis(500));
        assert_eq!(her.step(&clock).unwrap(), Some(Duration::from_millis(1500)));
        assert_eq!(ply(), 2);
        // Paused, it waits; one move asked for is played at once.
        steer(&*her, json!({"paused": true}));
        her.step(&clock).unwrap();
        assert_eq!(ply(), 2);
        steer(&*her, json!({"step": true}));
        her.step(&clock).unwrap();
        assert!(ply() == 4 || ask(&*her, "GET", "/api/game", None).1["end"] != Value::Null);
        let (_, progress) = ask(&*her, "POST", "/api/train/cancel", None);
        assert_eq!(progress["paused"], true);
        assert_eq!(her.step(&clock).unwrap(), None);
        assert_eq!(ask(&*her, "GET", "/api/train", None).1["running"], false);
    }

    #[test]
    fn the_fastest_pace_plays_its_games_a_tick_at_a_time_and_a_pause_holds() {
        let menace = lesson("menace", None, None);
        let now = Cell::new(Duration::ZERO);
        let clock = || now.get();
        let games = || number(&*menace, "/api/score", "games");
        watch(&*menace, "random", train::PACES.len() - 1);
        // A thousand games a second: a hundred every tenth of a second, and nothing
        // between (MENACE's first box does not run empty against chance this soon).
        assert_eq!(
            menace.step(&clock).unwrap(),
            Some(Duration::from_millis(100))
        );
        assert_eq!(games(), 100);
        now.set(Duration::from_millis(60));
        assert_eq!(
            menace.step(&clock).unwrap(),
            Some(Duration::from_millis(40))
        );
        assert_eq!(games(), 100);
        now.set(Duration::from_millis(100));
        menace.step(&clock).unwrap();
        assert_eq!(games(), 200);
        // Paused: however long the host steps, nothing is played.
        steer(&*menace, json!({"paused": true}));
        let version = ask(&*menace, "GET", "/api/game", None).1["version"].clone();
        for second in 1..=60 {
            now.set(Duration::from_secs(second));
            menace.step(&clock).unwrap();
        }
        assert_eq!(games(), 200);
        assert_eq!(
            ask(&*menace, "GET", "/api/game", None).1["version"],
            version
        );
    }

    #[test]
    fn the_beads_are_kept_after_every_game_and_read_back() {
        let kept = Arc::new(Kept::default());
        let bachet = lesson("bachet", Some(&kept), None);
        ask(
            &*bachet,
            "POST",
            "/api/train",
            Some(json!({"games": 40, "opponent": "random"})),
        );
        run_out(&*bachet, Duration::from_millis(20));
        let saved = lock(&kept.0).last().cloned().unwrap();
        let (_, exported) = ask(&*bachet, "GET", "/api/state", None);
        assert_eq!(exported["text"], saved.as_str());
        let again = lesson("bachet", None, Some(&saved));
        assert_eq!(
            ask(&*again, "GET", "/api/boxes", None),
            ask(&*bachet, "GET", "/api/boxes", None)
        );
        assert_eq!(ask(&*again, "GET", "/api/score", None).1["games"], 40);
    }

    #[test]
    fn now_is_the_game_boxes_score_and_run_of_one_moment() {
        let her = lesson("hexapawn", None, None);
        ask(
            &*her,
            "POST",
            "/api/train",
            Some(json!({"games": 30, "opponent": "random"})),
        );
        run_out(&*her, Duration::from_millis(5));
        let (status, now) = ask(&*her, "GET", "/api/now", None);
        assert_eq!(status, 200);
        for (part, path) in [
            ("game", "/api/game"),
            ("boxes", "/api/boxes"),
            ("score", "/api/score"),
            ("train", "/api/train"),
        ] {
            assert_eq!(now[part], ask(&*her, "GET", path, None).1, "{part}");
        }
        assert_eq!(now["score"]["games"], 30);
    }

    #[test]
    fn only_the_teacher_changes_and_unknown_paths_are_not_found() {
        let her = lesson("hexapawn", None, None);
        let pupil = |method, path| {
            her.handle(&Request {
                method,
                path,
                body: Body::Read(b"{}"),
                teacher: false,
            })
            .status
        };
        assert_eq!(pupil("GET", "/api/game"), 200);
        assert_eq!(pupil("POST", "/api/reset"), 403);
        assert_eq!(pupil("POST", "/api/nothing"), 404);
        assert_eq!(pupil("DELETE", "/api/game"), 405);
        assert_eq!(pupil("GET", "/api/boxes/1/2"), 404);
    }

    /// Plays the first legal move on the board as the page last saw it.
    fn first_move(lesson: &dyn Lesson, game: &Value) -> (u16, Value) {
        let body =
            json!({"move": game["moves"][0]["move"], "game": game["number"], "ply": game["ply"]});
        ask(lesson, "POST", "/api/game/move", Some(body))
    }

    #[test]
    fn a_move_sent_twice_is_played_once_and_a_stale_one_is_explained() {
        let her = lesson("hexapawn", None, None);
        let (_, start) = ask(&*her, "GET", "/api/game", None);
        let (status, once) = first_move(&*her, &start);
        assert_eq!(status, 200);
        // The second click of a double click: the same move for the same board.
        let (status, twice) = first_move(&*her, &start);
        assert_eq!(status, 200, "{twice}");
        assert_eq!(twice, once);
        assert_eq!(ask(&*her, "GET", "/api/game", None).1, once);
        // Another move for that board is stale: said so, without "reload".
        let other = json!({"move": start["moves"][1]["move"], "game": 1, "ply": 0});
        let (status, refused) = ask(&*her, "POST", "/api/game/move", Some(other));
        assert_eq!(status, 409);
        let said = refused["error"].as_str().unwrap();
        assert!(
            said.contains("moved first") && !said.contains("eload"),
            "{said}"
        );
        // A repeat of the move that ended a game changes nothing either.
        let mut last = once;
        while last["end"].is_null() {
            last = first_move(&*her, &last).1;
        }
        let score = ask(&*her, "GET", "/api/score", None).1;
        let turns = last["turns"].as_array().unwrap();
        let ply = turns.iter().rposition(|t| t["who"] == "human").unwrap();
        let again = json!({"move": turns[ply]["move"], "game": last["number"], "ply": ply});
        assert_eq!(ask(&*her, "POST", "/api/game/move", Some(again)).0, 200);
        assert_eq!(ask(&*her, "GET", "/api/score", None).1, score);
    }

    #[test]
    fn a_move_taken_back_leaves_the_board_and_the_beads_as_they_were() {
        for preset in ["hexapawn", "menace", "bachet"] {
            let lesson = lesson(preset, None, None);
            // The last game's beads in the boxes, so that taking back undoes a rule's work.
            let mut boards = Vec::new();
            for _ in 0..2 {
                let mut game = ask(&*lesson, "GET", "/api/game", None).1;
                boards.clear();
                while game["end"].is_null() {
                    boards.push((game.clone(), ask(&*lesson, "GET", "/api/boxes", None).1));
                    game = first_move(&*lesson, &game).1;
                }
                if ask(&*lesson, "GET", "/api/score", None).1["games"] == 1 {
                    ask(&*lesson, "POST", "/api/game/new", None);
                }
            }
            assert_eq!(ask(&*lesson, "GET", "/api/score", None).1["games"], 2);
            while let Some((game, boxes)) = boards.pop() {
                let (status, back) = ask(&*lesson, "POST", "/api/game/back", None);
                assert_eq!(status, 200, "{preset}: {back}");
                let strip = |g: &Value| {
                    let mut g = g.clone();
                    g["version"] = Value::Null;
                    g
                };
                assert_eq!(strip(&back), strip(&game), "{preset}");
                // The beads before the game the move was in; the finished game before it
                // stays counted.
                let now = ask(&*lesson, "GET", "/api/boxes", None).1;
                let counts = |b: &Value| {
                    b.as_array()
                        .unwrap()
                        .iter()
                        .map(|x| x["beads"].clone())
                        .collect::<Vec<_>>()
                };
                assert_eq!(counts(&now), counts(&boxes), "{preset}");
                assert_eq!(ask(&*lesson, "GET", "/api/score", None).1["games"], 1);
            }
            let (status, none) = ask(&*lesson, "POST", "/api/game/back", None);
            assert_eq!(status, 409, "{preset}: {none}");
            assert!(
                none["error"].as_str().unwrap().contains("take back"),
                "{none}"
            );
        }
    }

    #[test]
    fn stopping_the_watched_games_gives_the_class_a_clean_game() {
        let her = lesson("hexapawn", None, None);
        let now = Cell::new(Duration::ZERO);
        let clock = || now.get();
        ask(
            &*her,
            "POST",
            "/api/watch",
            Some(json!({"opponent": "random", "pace": 0})),
        );
        her.step(&clock).unwrap();
        let (_, watched) = ask(&*her, "GET", "/api/game", None);
        assert_eq!(watched["ply"], 2);
        ask(&*her, "POST", "/api/train/cancel", None);
        assert_eq!(her.step(&clock).unwrap(), None);
        let (_, game) = ask(&*her, "GET", "/api/game", None);
        assert_eq!(
            (&game["ply"], &game["end"]),
            (&json!(0), &Value::Null),
            "{game}"
        );
        assert_eq!(game["number"], watched["number"]);
        assert!(!game["moves"].as_array().unwrap().is_empty());
        assert_eq!(first_move(&*her, &game).0, 200);
    }

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(grouped(1_000_000, ","), "1,000,000");
        assert_eq!(grouped(999, ","), "999");
        assert_eq!(grouped(21_000, "\u{a0}"), "21\u{a0}000");
    }
}
