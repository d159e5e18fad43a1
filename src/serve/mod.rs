//! `matchbox serve`: the machine live in a browser, for the classroom's projector.
//!
//! One page (embedded in the binary) and a small JSON API over it, served by axum.
//! Everything here works for any game through [`Game`]: the page gets the moves in the
//! game's notation and where to click them, the board and labels as SVG of the same
//! scenes the printed kit uses, and its words from `templates/<lang>/strings.yaml`.
//!
//! Anyone may look; only a request carrying the token printed at start may change
//! anything. Every change happens under one lock, and the bead state is saved to the
//! `play --state` file after every game.

mod board;
mod table;
mod train;

use std::collections::BTreeMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{HeaderMap, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::Error;
use crate::game::Game;
use crate::game::GameVisitor;
use crate::i18n::Strings;
use crate::kit::{Kit, Rule};
use crate::simulate::{Setup, state};
use table::{Fixed, Live};

/// The header that carries the teacher's token.
pub const TOKEN_HEADER: &str = "x-matchbox-token";
/// The largest request body accepted, in bytes: a move is a few dozen.
pub const BODY_LIMIT: usize = 4096;
/// The port when none is given.
pub const DEFAULT_PORT: u16 = 8080;

/// How the server is set up.
pub struct Options {
    /// The `play --state` file to load at start and save after every game.
    pub state: Option<PathBuf>,
    /// Read the state file although it was changed by hand.
    pub accept_edited_state: bool,
    /// Where to listen.
    pub listen: SocketAddr,
    /// The learning rule.
    pub rule: Rule,
    /// Seed of the machine's draws.
    pub seed: u64,
}

/// The address to listen on: `--listen` as an address with or without a port,
/// `--port` (which wins), 127.0.0.1 and [`DEFAULT_PORT`] by default.
pub fn listen_address(listen: Option<&str>, port: Option<u16>) -> Result<SocketAddr, Error> {
    let mut addr = match listen {
        None => SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), DEFAULT_PORT),
        Some(text) => text
            .parse::<SocketAddr>()
            .or_else(|_| {
                text.parse::<IpAddr>()
                    .map(|ip| SocketAddr::new(ip, DEFAULT_PORT))
            })
            .map_err(|_| {
                Error::Input(format!(
                    "--listen {text}: give an address such as 127.0.0.1 or 0.0.0.0:8080"
                ))
            })?,
    };
    if let Some(port) = port {
        addr.set_port(port);
    }
    Ok(addr)
}

/// What goes wrong with a request, in words the page's user reads.
#[derive(Debug)]
pub enum Problem {
    /// The body is not the JSON asked for.
    Json {
        /// The parser's words.
        why: String,
    },
    /// A changing request without the teacher's token.
    Token,
    /// A move that is not legal on the board.
    Illegal {
        /// What was asked.
        mv: String,
        /// The legal moves, comma-separated.
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
    /// A body over [`BODY_LIMIT`].
    TooBig,
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
    /// The program failed (a file could not be saved, a bug).
    Internal(String),
}

/// A refused request: its HTTP status and why.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    problem: Problem,
}

impl ApiError {
    /// 400: the request itself is wrong.
    pub fn bad(problem: Problem) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            problem,
        }
    }

    /// 409: the request does not fit the game as it stands.
    pub fn conflict(problem: Problem) -> ApiError {
        ApiError {
            status: StatusCode::CONFLICT,
            problem,
        }
    }

    /// 404: nothing there.
    pub fn not_found(problem: Problem) -> ApiError {
        ApiError {
            status: StatusCode::NOT_FOUND,
            problem,
        }
    }

    /// 500: the program failed.
    pub fn internal(message: String) -> ApiError {
        ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            problem: Problem::Internal(message),
        }
    }

    /// The message in the kit's language.
    fn message(&self, words: &Strings) -> String {
        let fill = |key: &str, values: &[(&str, &str)]| words.fill(key, values);
        match &self.problem {
            Problem::Json { why } => fill("api.json", &[("why", why)]),
            Problem::Token => fill("api.token", &[]),
            Problem::Illegal { mv, legal } => {
                fill("api.illegal", &[("move", mv), ("moves", legal)])
            }
            Problem::NotYourTurn => fill("api.not_your_turn", &[]),
            Problem::GameOver => fill("api.game_over", &[]),
            Problem::NoBox { id, count } => {
                fill("api.no_box", &[("id", id), ("count", &count.to_string())])
            }
            Problem::TooBig => fill("api.too_big", &[("limit", &BODY_LIMIT.to_string())]),
            Problem::NotFound { path } => fill("api.not_found", &[("path", path)]),
            Problem::Method => fill("api.method", &[]),
            Problem::Training => fill("api.training", &[]),
            Problem::NotTraining => fill("api.not_training", &[]),
            Problem::Games => fill("api.games", &[("max", &train::MAX_GAMES.to_string())]),
            Problem::Opponent { name } => fill("api.opponent", &[("name", name)]),
            Problem::NoUndo => fill("api.no_undo", &[]),
            Problem::Internal(m) => m.clone(),
        }
    }

    fn respond(&self, words: &Strings) -> Response {
        let body = serde_json::json!({ "error": self.message(words) });
        (self.status, axum::Json(body)).into_response()
    }
}

impl From<Error> for ApiError {
    fn from(e: Error) -> ApiError {
        ApiError::internal(e.to_string())
    }
}

/// Everything a request handler reaches: the fixed kit and the live state behind its lock.
pub struct Shared<G: Game> {
    fixed: Fixed<G>,
    live: Mutex<Live>,
    token: String,
}

impl<G: Game> Shared<G> {
    /// The live state, locked. A panic while it was held cannot leave it half-changed
    /// (every change is made whole after the checks), so a poisoned lock is used as is.
    fn lock(&self) -> MutexGuard<'_, Live> {
        self.live.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn words(&self) -> &'static Strings {
        self.fixed.words()
    }

    /// A JSON answer, or the error in the kit's language.
    fn reply<T: Serialize>(&self, result: Result<T, ApiError>) -> Response {
        match result {
            Ok(value) => axum::Json(value).into_response(),
            Err(e) => e.respond(self.words()),
        }
    }

    /// Refuses a changing request without the teacher's token.
    fn teacher(&self, headers: &HeaderMap) -> Result<(), ApiError> {
        let given = headers
            .get(TOKEN_HEADER)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        // Compare every byte, so the time taken does not tell how much was right.
        let same = given.len() == self.token.len()
            && given
                .bytes()
                .zip(self.token.bytes())
                .fold(0u8, |acc, (a, b)| acc | (a ^ b))
                == 0;
        if same {
            Ok(())
        } else {
            Err(ApiError {
                status: StatusCode::FORBIDDEN,
                problem: Problem::Token,
            })
        }
    }
}

/// Reads a JSON body, refusing one too large or malformed.
fn body<T: DeserializeOwned>(body: Result<Bytes, BytesRejection>) -> Result<T, ApiError> {
    let bytes = body.map_err(|e| match e.status() {
        StatusCode::PAYLOAD_TOO_LARGE => ApiError {
            status: StatusCode::PAYLOAD_TOO_LARGE,
            problem: Problem::TooBig,
        },
        _ => ApiError::bad(Problem::Json { why: e.body_text() }),
    })?;
    serde_json::from_slice(&bytes).map_err(|e| ApiError::bad(Problem::Json { why: e.to_string() }))
}

/// A running server's app: its routes, its token, and how to close it.
pub struct App {
    /// The page and the API.
    pub router: Router,
    /// The teacher's token.
    pub token: String,
    /// The kit's name, for the banner.
    pub name: String,
    close: Box<dyn FnOnce() -> Result<(), Error> + Send>,
}

impl App {
    /// Stops a training run under way (its games so far are kept) and saves the beads.
    pub fn close(self) -> Result<(), Error> {
        (self.close)()
    }
}

/// Builds the app for a kit: compiles the machine and loads the state file (a damaged
/// one is refused here, before anything is served).
pub fn app(kit: &Kit, options: &Options) -> Result<App, Error> {
    kit.visit(Build { kit, options })
}

struct Build<'a> {
    kit: &'a Kit,
    options: &'a Options,
}

impl GameVisitor for Build<'_> {
    type Output = Result<App, Error>;
    fn visit<G: Game>(self, game: &G) -> Self::Output {
        let (kit, options) = (self.kit, self.options);
        // A second machine to train against, when the kit can be built for the other side.
        let setup = Setup::new(game, kit, options.rule, true)
            .or_else(|_| Setup::new(game, kit, options.rule, false))?;
        let saved = match &options.state {
            Some(path) => {
                let (saved, warning) =
                    state::load(path, game, kit, &setup, options.accept_edited_state)?;
                if let Some(warning) = warning {
                    eprintln!("matchbox: {warning}");
                }
                saved
            }
            None => state::Saved::fresh(&setup.machine),
        };
        let token = format!("{:032x}", rand::random::<u128>());
        let shared = Arc::new(Shared {
            fixed: Fixed {
                game: game.clone(),
                kit: kit.clone(),
                setup,
                seed: options.seed,
                state: options.state.clone(),
            },
            live: Mutex::new(Live::new(saved)),
            token: token.clone(),
        });
        // A machine that plays first may resign before anyone moves (an empty box 1).
        shared.lock().settle(&shared.fixed)?;
        let closing = Arc::clone(&shared);
        Ok(App {
            router: router(shared),
            token,
            name: kit.name.clone(),
            close: Box::new(move || close(&closing)),
        })
    }
}

/// Cancels training, waits for it to hand back its games, and saves.
fn close<G: Game>(shared: &Shared<G>) -> Result<(), Error> {
    loop {
        {
            let live = shared.lock();
            match &live.training {
                Some(run) => run.cancel.store(true, std::sync::atomic::Ordering::Relaxed),
                None => return shared.fixed.save(&live.saved),
            }
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn router<G: Game>(shared: Arc<Shared<G>>) -> Router {
    Router::new()
        .route("/", get(page_html))
        .route("/app.js", get(page_js))
        .route("/style.css", get(page_css))
        .route("/api/kit", get(get_kit::<G>))
        .route("/api/game", get(get_game::<G>))
        .route("/api/game/move", post(post_move::<G>))
        .route("/api/game/new", post(post_new_game::<G>))
        .route("/api/boxes", get(get_boxes::<G>))
        .route("/api/boxes/{id}", get(get_box::<G>))
        .route("/api/score", get(get_score::<G>))
        .route("/api/undo", post(post_undo::<G>))
        .route("/api/reset", post(post_reset::<G>))
        .route("/api/train", get(get_train::<G>).post(post_train::<G>))
        .route("/api/train/cancel", post(post_cancel::<G>))
        .fallback(not_found::<G>)
        .method_not_allowed_fallback(wrong_method::<G>)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(shared)
}

fn asset(kind: &'static str, text: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        text,
    )
        .into_response()
}

async fn page_html() -> Response {
    asset(
        "text/html; charset=utf-8",
        include_str!("assets/index.html"),
    )
}

async fn page_js() -> Response {
    asset(
        "text/javascript; charset=utf-8",
        include_str!("assets/app.js"),
    )
}

async fn page_css() -> Response {
    asset("text/css; charset=utf-8", include_str!("assets/style.css"))
}

async fn not_found<G: Game>(State(s): State<Arc<Shared<G>>>, uri: Uri) -> Response {
    let path: String = uri.path().chars().take(100).collect();
    ApiError::not_found(Problem::NotFound { path }).respond(s.words())
}

async fn wrong_method<G: Game>(State(s): State<Arc<Shared<G>>>) -> Response {
    ApiError {
        status: StatusCode::METHOD_NOT_ALLOWED,
        problem: Problem::Method,
    }
    .respond(s.words())
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
    max_train_games: u32,
    words: BTreeMap<&'static str, &'static str>,
}

/// The strings the page uses: its own and the score sheet's.
const PAGE_KEYS: [&str; 2] = ["page.", "score."];

async fn get_kit<G: Game>(State(s): State<Arc<Shared<G>>>) -> Response {
    let (kit, setup) = (&s.fixed.kit, &s.fixed.setup);
    let words = s.words();
    let mut opponents = vec!["perfect", "random", "teacher"];
    if setup.rival.is_some() {
        opponents.push("machine");
    }
    let view = KitView {
        name: kit.name.clone(),
        game: kit.game.name(),
        language: kit.language.code(),
        machine: kit.machine.name(),
        rule: setup.machine.rule.name(),
        boxes: setup.set.boxes.len(),
        opponents,
        max_train_games: train::MAX_GAMES,
        words: words
            .keys()
            .filter(|k| PAGE_KEYS.iter().any(|p| k.starts_with(p)))
            .map(|k| (k, words.get(k)))
            .collect(),
    };
    s.reply(Ok(view))
}

async fn get_game<G: Game>(State(s): State<Arc<Shared<G>>>) -> Response {
    let view = s.lock().game(&s.fixed).map_err(ApiError::from);
    s.reply(view)
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

async fn post_move<G: Game>(
    State(s): State<Arc<Shared<G>>>,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Response {
    let result = s.teacher(&headers).and_then(|()| {
        let request: MoveRequest = body(raw)?;
        let mut live = s.lock();
        let board = table::Board {
            game: request.game,
            ply: request.ply,
        };
        live.play(&s.fixed, &request.mv, board)?;
        Ok(live.game(&s.fixed)?)
    });
    s.reply(result)
}

async fn post_new_game<G: Game>(State(s): State<Arc<Shared<G>>>, headers: HeaderMap) -> Response {
    let result = s.teacher(&headers).and_then(|()| {
        let mut live = s.lock();
        live.new_game(&s.fixed)?;
        Ok(live.game(&s.fixed)?)
    });
    s.reply(result)
}

async fn get_boxes<G: Game>(State(s): State<Arc<Shared<G>>>) -> Response {
    let boxes = s.lock().boxes(&s.fixed);
    s.reply(Ok(boxes))
}

async fn get_box<G: Game>(State(s): State<Arc<Shared<G>>>, Path(id): Path<String>) -> Response {
    let view = s.lock().one_box(
        &s.fixed,
        // An id that is no number finds no box either.
        id.parse().unwrap_or(0),
    );
    s.reply(view.map_err(|e| match e.problem {
        Problem::NoBox { count, .. } => ApiError::not_found(Problem::NoBox {
            id: id.chars().take(20).collect(),
            count,
        }),
        _ => e,
    }))
}

async fn get_score<G: Game>(State(s): State<Arc<Shared<G>>>) -> Response {
    let score = s.lock().score();
    s.reply(Ok(score))
}

async fn post_undo<G: Game>(State(s): State<Arc<Shared<G>>>, headers: HeaderMap) -> Response {
    let result = s.teacher(&headers).and_then(|()| {
        let mut live = s.lock();
        live.undo(&s.fixed)?;
        Ok(live.score())
    });
    s.reply(result)
}

async fn post_reset<G: Game>(State(s): State<Arc<Shared<G>>>, headers: HeaderMap) -> Response {
    let result = s.teacher(&headers).and_then(|()| {
        let mut live = s.lock();
        live.reset(&s.fixed)?;
        Ok(live.score())
    });
    s.reply(result)
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

async fn get_train<G: Game>(State(s): State<Arc<Shared<G>>>) -> Response {
    let progress = train::Run::progress(s.lock().training.as_ref());
    s.reply(Ok(progress))
}

async fn post_train<G: Game>(
    State(s): State<Arc<Shared<G>>>,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Response {
    let result = s.teacher(&headers).and_then(|()| {
        let request: TrainRequest = body(raw)?;
        let opponent = train::opponent(&request.opponent, s.fixed.setup.rival.is_some())?;
        train::start(&s, request.games, opponent)?;
        Ok(train::Run::progress(s.lock().training.as_ref()))
    });
    s.reply(result)
}

async fn post_cancel<G: Game>(State(s): State<Arc<Shared<G>>>, headers: HeaderMap) -> Response {
    let result = s
        .teacher(&headers)
        .and_then(|()| train::cancel(&s))
        .map(|()| train::Run::progress(s.lock().training.as_ref()));
    s.reply(result)
}

/// Serves the page until Ctrl-C, printing the teacher's and the viewers' addresses first;
/// then stops training and saves.
pub fn serve(kit: &Kit, options: &Options) -> Result<(), Error> {
    let app = app(kit, options)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()
        .map_err(|e| Error::Internal(format!("cannot start the server: {e}")))?;
    let router = app.router.clone();
    let served = runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(options.listen)
            .await
            .map_err(|e| Error::Input(format!("cannot listen on {}: {e}", options.listen)))?;
        let addr = listener
            .local_addr()
            .map_err(|e| Error::Internal(e.to_string()))?;
        let mut banner = format!(
            "{}: serving on http://{addr}/\n  teacher (moves, training): http://{addr}/?token={}\n  view only:                 http://{addr}/\n",
            app.name, app.token
        );
        if addr.ip().is_unspecified() {
            banner.push_str("  (on the local network, put this computer's address in place of 0.0.0.0)\n");
        }
        banner.push_str("Ctrl-C stops the server; the beads are saved after every game.\n");
        print!("{banner}");
        use std::io::Write;
        std::io::stdout()
            .flush()
            .map_err(|e| Error::Internal(format!("cannot write to stdout: {e}")))?;
        axum::serve(listener, router)
            .with_graceful_shutdown(async {
                // If the signal cannot be watched, serve until killed.
                if tokio::signal::ctrl_c().await.is_err() {
                    std::future::pending::<()>().await;
                }
            })
            .await
            .map_err(|e| Error::Internal(format!("the server stopped: {e}")))
    });
    let closed = app.close();
    served.and(closed)
}
