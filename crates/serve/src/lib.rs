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
//!
//! The server is meant to stay up for a whole lesson with a room of tablets on it: a
//! request's head must arrive within [`HEADER_TIMEOUT`] and the whole request within
//! [`REQUEST_TIMEOUT`], a connection lasts at most [`CONNECTION_LIFETIME`], there are
//! never more connections than file descriptors allow, and a Host header that names
//! something other than an address is refused (a DNS rebinding page cannot read it).

mod board;
mod settings;
mod table;
mod train;

use std::collections::BTreeMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError, RwLock};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, Request, State};
use axum::http::{HeaderMap, StatusCode, Uri, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use matchbox_engine::Error;
use matchbox_engine::i18n::Strings;
use matchbox_engine::kit::Kit;
use matchbox_engine::rule::Rule;
use matchbox_engine::simulate::{Setup, state};
use matchbox_files::lock::StateLock;
use matchbox_print::pictures::Game;
use state::Unfit;
use table::{Fixed, Live};

/// The header that carries the teacher's token.
pub const TOKEN_HEADER: &str = "x-matchbox-token";
/// The largest request body accepted, in bytes: a move is a few dozen.
pub const BODY_LIMIT: usize = 4096;
/// The port when none is given.
pub const DEFAULT_PORT: u16 = 8080;
/// Time a client has to send a request's head (its first line and headers).
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// Time a request has, from its head to the answer (a body sent a byte at a time is
/// cut off here).
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(20);
/// A connection is closed after this long, once its request in progress is answered
/// (a page simply opens another): idle connections cannot pile up.
pub const CONNECTION_LIFETIME: Duration = Duration::from_secs(30);
/// Connections at most, whatever the file descriptors allow.
pub const MAX_CONNECTIONS: usize = 1000;
/// File descriptors kept for the rest of the program (the state file, the runtime).
const RESERVED_FILES: usize = 32;
/// The exit status after Ctrl-C or SIGTERM, as for the other commands.
pub const INTERRUPTED: i32 = 130;

/// How the server is set up.
pub struct Options {
    /// The `play --state` file to load at start and save after every game.
    pub state: Option<PathBuf>,
    /// Read the state file although it was changed by hand.
    pub accept_edited_state: bool,
    /// Where to listen.
    pub listen: SocketAddr,
    /// `--rule`, if given: the state file's own rule otherwise, else the kit's.
    pub rule: Option<Rule>,
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
    Timeout,
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
            Problem::Json { example } => fill("api.json", &[("why", example)]),
            Problem::Host { host } => fill("api.host", &[("host", host)]),
            Problem::Timeout => fill(
                "api.timeout",
                &[("seconds", &REQUEST_TIMEOUT.as_secs().to_string())],
            ),
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
            Problem::Games => fill(
                "api.games",
                &[(
                    "max",
                    &grouped(u64::from(train::MAX_GAMES), words.get("page.digit_group")),
                )],
            ),
            Problem::Opponent { name } => fill("api.opponent", &[("name", name)]),
            Problem::NoUndo => fill("api.no_undo", &[]),
            Problem::Pace { max } => fill("api.pace", &[("max", &max.to_string())]),
            Problem::Panel => fill("api.panel", &[("panels", &table::PANELS.join(", "))]),
            Problem::Setting(unfit) => settings::message(unfit, words),
            Problem::Rule { name } => fill(
                "api.rule",
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

    fn respond(&self, words: &Strings) -> Response {
        let mut body = serde_json::json!({ "error": self.message(words) });
        if let Some(field) = self.field() {
            body["field"] = field.into();
        }
        (self.status, axum::Json(body)).into_response()
    }
}

impl From<Error> for ApiError {
    fn from(e: Error) -> ApiError {
        ApiError::internal(e.to_string())
    }
}

/// Writes a line for the teacher's terminal. A failed write is let go: stderr may be a
/// file on the disk that just filled up, and `eprintln!` would then end the server.
pub fn tell(line: std::fmt::Arguments) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "matchbox: {line}");
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

/// Everything a request handler reaches: the machine as the settings make it, and the
/// live state behind its lock.
pub struct Shared<G: Game> {
    /// Replaced whole when the teacher applies new settings, under the live lock.
    fixed: RwLock<Arc<Fixed<G>>>,
    live: Mutex<Live>,
    token: String,
}

impl<G: Game> Shared<G> {
    /// The live state, locked. A panic while it was held cannot leave it half-changed
    /// (every change is made whole after the checks), so a poisoned lock is used as is.
    fn lock(&self) -> MutexGuard<'_, Live> {
        self.live.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The machine as the settings make it now. Whoever also holds the live lock takes
    /// this after it, so that the two agree (settings change under the live lock).
    fn fixed(&self) -> Arc<Fixed<G>> {
        Arc::clone(&self.fixed.read().unwrap_or_else(PoisonError::into_inner))
    }

    /// The live state, locked, and the machine it belongs to.
    fn locked(&self) -> (MutexGuard<'_, Live>, Arc<Fixed<G>>) {
        let live = self.lock();
        (live, self.fixed())
    }

    fn words(&self) -> &'static Strings {
        self.fixed().words()
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

/// Reads a JSON body, refusing one too large or malformed; `example` shows the JSON
/// asked for (the parser's own words are English and name Rust types).
fn body<T: DeserializeOwned>(
    body: Result<Bytes, BytesRejection>,
    example: &'static str,
) -> Result<T, ApiError> {
    let bytes = body.map_err(|e| match e.status() {
        StatusCode::PAYLOAD_TOO_LARGE => ApiError {
            status: StatusCode::PAYLOAD_TOO_LARGE,
            problem: Problem::TooBig,
        },
        _ => ApiError::bad(Problem::Json { example }),
    })?;
    serde_json::from_slice(&bytes).map_err(|_| ApiError::bad(Problem::Json { example }))
}

/// Whether a Host header may reach the page: an IP address (the listen address among
/// them), `localhost`, or none at all. Any other name may be a rebinding attacker's.
fn host_allowed(host: Option<&str>) -> bool {
    let Some(host) = host else {
        return true;
    };
    let name = match host.strip_prefix('[') {
        // `[::1]:8080`
        Some(v6) => {
            return v6
                .split(']')
                .next()
                .is_some_and(|ip| ip.parse::<IpAddr>().is_ok());
        }
        None => host.rsplit_once(':').map_or(host, |(name, port)| {
            if port.bytes().all(|b| b.is_ascii_digit()) {
                name
            } else {
                host
            }
        }),
    };
    name.eq_ignore_ascii_case("localhost") || name.parse::<IpAddr>().is_ok()
}

/// Refuses a request whose Host header names something other than an address, and
/// one that does not arrive whole within [`REQUEST_TIMEOUT`].
async fn guard<G: Game>(State(s): State<Arc<Shared<G>>>, request: Request, next: Next) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .map(|h| h.to_str().unwrap_or("?"));
    if !host_allowed(host) {
        let host = host.unwrap_or_default().chars().take(60).collect();
        return ApiError {
            status: StatusCode::MISDIRECTED_REQUEST,
            problem: Problem::Host { host },
        }
        .respond(s.words());
    }
    match tokio::time::timeout(REQUEST_TIMEOUT, next.run(request)).await {
        Ok(response) => response,
        Err(_) => ApiError {
            status: StatusCode::REQUEST_TIMEOUT,
            problem: Problem::Timeout,
        }
        .respond(s.words()),
    }
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
    /// The state file's lock, released when the app is dropped.
    _lock: Option<StateLock>,
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
    matchbox_engine::with_game!(&kit.game, |game| build(game, kit, options))
}

/// [`app`] for the kit's game.
fn build<G: Game>(game: &G, kit: &Kit, options: &Options) -> Result<App, Error> {
    // Before the file is read: another program may be about to write it.
    let lock = options.state.as_deref().map(StateLock::take).transpose()?;
    let state::Opened {
        kit: filled,
        setup,
        saved,
        notes,
    } = state::open_machine(
        game,
        kit,
        options
            .state
            .as_deref()
            .map(|path| (path, std::fs::read(path))),
        options.rule,
        |filled, rule| setup(game, filled, rule),
        options.accept_edited_state,
    )?;
    for note in notes {
        tell(format_args!("{note}"));
    }
    let token = format!("{:032x}", rand::random::<u128>());
    let shared = Arc::new(Shared {
        fixed: RwLock::new(Arc::new(Fixed {
            game: game.clone(),
            kit: filled,
            own: kit.clone(),
            setup,
            seed: options.seed,
            state: options.state.clone(),
            risks: OnceLock::new(),
        })),
        live: Mutex::new(Live::new(saved)),
        token: token.clone(),
    });
    // A machine that plays first may resign before anyone moves (an empty box 1).
    let (mut live, fixed) = shared.locked();
    live.settle(&fixed)?;
    drop(live);
    let closing = Arc::clone(&shared);
    Ok(App {
        router: router(shared),
        token,
        name: kit.name.clone(),
        close: Box::new(move || close(&closing)),
        _lock: lock,
    })
}

/// The kit's machine under `rule`, with a second machine to train against when the kit
/// can be built for the other side.
fn setup<G: Game>(game: &G, kit: &Kit, rule: Rule) -> Result<Setup<G>, Error> {
    Setup::new(game, kit, rule, true).or_else(|_| Setup::new(game, kit, rule, false))
}

/// Cancels training, waits for it to hand back its games, and saves.
fn close<G: Game>(shared: &Shared<G>) -> Result<(), Error> {
    loop {
        {
            let (mut live, fixed) = shared.locked();
            match &live.training {
                Some(run) => run.cancel.store(true, Ordering::Relaxed),
                None => {
                    live.save(&fixed);
                    return match live.unsaved() {
                        Some(e) => Err(Error::Internal(format!(
                            "{e}; the games since the last save are lost"
                        ))),
                        None => Ok(()),
                    };
                }
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
        .route("/favicon.svg", get(page_icon))
        .route("/favicon.ico", get(page_icon))
        .route("/api/kit", get(get_kit::<G>))
        .route("/api/game", get(get_game::<G>))
        .route("/api/game/move", post(post_move::<G>))
        .route("/api/game/new", post(post_new_game::<G>))
        .route("/api/boxes", get(get_boxes::<G>))
        .route("/api/boxes/{id}", get(get_box::<G>))
        .route("/api/pictures", get(get_pictures::<G>))
        .route("/api/score", get(get_score::<G>))
        .route("/api/undo", post(post_undo::<G>))
        .route("/api/reset", post(post_reset::<G>))
        .route("/api/train", get(get_train::<G>).post(post_train::<G>))
        .route("/api/train/cancel", post(post_cancel::<G>))
        .route("/api/watch", post(post_watch::<G>))
        .route("/api/watch/steer", post(post_steer::<G>))
        .route("/api/panel", post(post_panel::<G>))
        .route(
            "/api/settings",
            get(settings::get_settings::<G>).post(settings::post_settings::<G>),
        )
        .fallback(not_found::<G>)
        .method_not_allowed_fallback(wrong_method::<G>)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&shared),
            guard::<G>,
        ))
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

async fn page_icon() -> Response {
    asset("image/svg+xml", include_str!("assets/favicon.svg"))
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
    /// The paces of watching, slowest first.
    paces: [train::Pace; train::PACES.len()],
    /// The state file's name, for the page's message when it cannot be saved.
    state: Option<String>,
    words: BTreeMap<&'static str, &'static str>,
}

/// The strings the page uses: its own and the score sheet's.
const PAGE_KEYS: [&str; 2] = ["page.", "score."];

async fn get_kit<G: Game>(State(s): State<Arc<Shared<G>>>) -> Response {
    let fixed = s.fixed();
    let (kit, setup) = (&fixed.kit, &fixed.setup);
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
        paces: train::PACES,
        state: fixed.state.as_ref().map(|p| p.display().to_string()),
        words: words
            .keys()
            .filter(|k| PAGE_KEYS.iter().any(|p| k.starts_with(p)))
            .map(|k| (k, words.get(k)))
            .collect(),
    };
    s.reply(Ok(view))
}

async fn get_game<G: Game>(State(s): State<Arc<Shared<G>>>) -> Response {
    let (mut live, fixed) = s.locked();
    // Pages look every second or so: a failed save is tried again at that pace.
    live.retry_save(&fixed);
    let view = live.game(&fixed).map_err(ApiError::from);
    s.reply(view)
}

async fn get_pictures<G: Game>(State(s): State<Arc<Shared<G>>>) -> Response {
    s.reply(Ok(s.fixed().pictures()))
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
        let request: MoveRequest = body(raw, r#"{"move": "b1-b2", "game": 1, "ply": 0}"#)?;
        let (mut live, fixed) = s.locked();
        let board = table::Board {
            game: request.game,
            ply: request.ply,
        };
        live.play(&fixed, &request.mv, board)?;
        Ok(live.game(&fixed)?)
    });
    s.reply(result)
}

async fn post_new_game<G: Game>(State(s): State<Arc<Shared<G>>>, headers: HeaderMap) -> Response {
    let result = s.teacher(&headers).and_then(|()| {
        let (mut live, fixed) = s.locked();
        live.new_game(&fixed)?;
        Ok(live.game(&fixed)?)
    });
    s.reply(result)
}

async fn get_boxes<G: Game>(State(s): State<Arc<Shared<G>>>) -> Response {
    let (live, fixed) = s.locked();
    let boxes = live.boxes(&fixed);
    s.reply(Ok(boxes))
}

async fn get_box<G: Game>(State(s): State<Arc<Shared<G>>>, Path(id): Path<String>) -> Response {
    let (live, fixed) = s.locked();
    // An id that is no number finds no box either.
    let view = live.one_box(&fixed, id.parse().unwrap_or(0));
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
        let (mut live, fixed) = s.locked();
        live.undo(&fixed)?;
        Ok(live.score())
    });
    s.reply(result)
}

async fn post_reset<G: Game>(State(s): State<Arc<Shared<G>>>, headers: HeaderMap) -> Response {
    let result = s.teacher(&headers).and_then(|()| {
        let (mut live, fixed) = s.locked();
        live.reset(&fixed)?;
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
        let request: TrainRequest = body(raw, r#"{"games": 200, "opponent": "random"}"#)?;
        let opponent = train::opponent(&request.opponent, s.fixed().setup.rival.is_some())?;
        train::start(&s, request.games, opponent)?;
        Ok(train::Run::progress(s.lock().training.as_ref()))
    });
    s.reply(result)
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

async fn post_watch<G: Game>(
    State(s): State<Arc<Shared<G>>>,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Response {
    let result = s.teacher(&headers).and_then(|()| {
        let request: WatchRequest = body(raw, r#"{"opponent": "random", "pace": 3}"#)?;
        let opponent = train::opponent(&request.opponent, s.fixed().setup.rival.is_some())?;
        let controls = Arc::new(train::Controls::default());
        train::steer_controls(&controls, Some(request.pace), None, false)?;
        train::watch(&s, opponent, controls)?;
        Ok(train::Run::progress(s.lock().training.as_ref()))
    });
    s.reply(result)
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

async fn post_steer<G: Game>(
    State(s): State<Arc<Shared<G>>>,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Response {
    let result = s.teacher(&headers).and_then(|()| {
        let request: SteerRequest = body(raw, r#"{"pace": 3, "paused": true, "step": true}"#)?;
        train::steer(&s, request.pace, request.paused, request.step)?;
        Ok(train::Run::progress(s.lock().training.as_ref()))
    });
    s.reply(result)
}

/// The panel the teacher shows.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PanelRequest {
    panel: String,
}

async fn post_panel<G: Game>(
    State(s): State<Arc<Shared<G>>>,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Response {
    let result = s.teacher(&headers).and_then(|()| {
        let request: PanelRequest = body(raw, r#"{"panel": "memory"}"#)?;
        s.lock().show(&request.panel)?;
        Ok(serde_json::json!({ "panel": request.panel }))
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

/// Serves the page until Ctrl-C or SIGTERM, printing the teacher's and the viewers'
/// addresses first; then stops training, saves, and gives the exit status
/// ([`INTERRUPTED`]).
pub fn serve(kit: &Kit, options: &Options) -> Result<i32, Error> {
    let app = app(kit, options)?;
    // Over a file-size limit a save then fails (and the page says so) instead of the
    // signal ending the lesson with the games since the last save.
    // SAFETY: ignoring a signal installs no handler; nothing else here handles SIGXFSZ.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
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
        accept(listener, router, connection_cap(), stopped()).await;
        Ok(())
    });
    let closed = app.close();
    served.and(closed).map(|()| INTERRUPTED)
}

/// Resolves at Ctrl-C (SIGINT) or SIGTERM; never if neither can be watched.
async fn stopped() {
    let interrupted = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
        Ok(mut terminated) => tokio::select! {
            () = interrupted => {}
            _ = terminated.recv() => {}
        },
        Err(_) => interrupted.await,
    }
}

/// Connections at most: the file descriptors the process may open, less those the rest
/// of the program needs, so that running out of them never stops the server.
fn connection_cap() -> usize {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit only writes the struct it is given, which lives across the call.
    let read = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &raw mut limit) } == 0;
    let files = if read {
        usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX)
    } else {
        1024
    };
    files
        .saturating_sub(RESERVED_FILES)
        .clamp(8, MAX_CONNECTIONS)
}

/// One connection counted in, and out when dropped.
struct Counted(Arc<AtomicUsize>);

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Takes connections until `stop`, at most `cap` open at once, each with the timeouts
/// of the module's doc. A connection over the cap waits in the system's queue until one
/// closes; a failed accept (no file descriptor left) is retried a moment later.
async fn accept(
    listener: tokio::net::TcpListener,
    router: Router,
    cap: usize,
    stop: impl Future<Output = ()>,
) {
    let open = Arc::new(AtomicUsize::new(0));
    let mut stop = std::pin::pin!(stop);
    let pause = Duration::from_millis(50);
    loop {
        if open.load(Ordering::Relaxed) >= cap {
            tokio::select! {
                () = &mut stop => return,
                () = tokio::time::sleep(pause) => continue,
            }
        }
        let stream = tokio::select! {
            () = &mut stop => return,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(_) => {
                    tokio::time::sleep(pause).await;
                    continue;
                }
            },
        };
        open.fetch_add(1, Ordering::Relaxed);
        let counted = Counted(Arc::clone(&open));
        let service = hyper_util::service::TowerToHyperService::new(router.clone());
        tokio::spawn(async move {
            let _counted = counted;
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT);
            let connection = http.serve_connection(hyper_util::rt::TokioIo::new(stream), service);
            let mut connection = std::pin::pin!(connection);
            if tokio::time::timeout(CONNECTION_LIFETIME, connection.as_mut())
                .await
                .is_err()
            {
                connection.as_mut().graceful_shutdown();
                let _ = tokio::time::timeout(REQUEST_TIMEOUT, connection).await;
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_that_are_addresses_pass() {
        for host in [
            "127.0.0.1:8080",
            "192.168.1.20",
            "localhost:8080",
            "LOCALHOST",
            "[::1]:8080",
            "[fe80::1]",
        ] {
            assert!(host_allowed(Some(host)), "{host}");
        }
        assert!(host_allowed(None));
        for host in [
            "evil.example:8080",
            "example.com",
            "[nonsense]:80",
            "127.0.0.1.nip.io",
        ] {
            assert!(!host_allowed(Some(host)), "{host}");
        }
    }

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(grouped(1_000_000, ","), "1,000,000");
        assert_eq!(grouped(999, ","), "999");
        assert_eq!(grouped(21_000, "\u{a0}"), "21\u{a0}000");
    }

    #[test]
    fn the_cap_leaves_files_for_the_rest() {
        let cap = connection_cap();
        assert!((8..=MAX_CONNECTIONS).contains(&cap), "{cap}");
    }
}
