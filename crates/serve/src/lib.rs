//! `matchbox serve`: the machine live in a browser, for the classroom's projector.
//!
//! One page (embedded in the binary) and its JSON API over HTTP, served by axum. The
//! API's answers are the classroom's ([`matchbox_classroom`], which the static site's
//! engine answers alike in the browser); this crate carries them: the routes, the
//! teacher's token, the state file, and a thread that drives training and watching.
//!
//! Anyone may look; only a request carrying the token printed at start may change
//! anything. The bead state is saved to the `play --state` file after every game.
//!
//! The server is meant to stay up for a whole lesson with a room of tablets on it, one
//! of which may be hostile: a request's head must arrive within [`HEADER_TIMEOUT`] and
//! the whole request within [`REQUEST_TIMEOUT`], a body announced over [`BODY_LIMIT`] is
//! refused before it is read, a connection lasts at most [`CONNECTION_LIFETIME`], one
//! computer holds at most [`PER_CLIENT`] connections, there are never more connections
//! than file descriptors allow (with [`RESERVE`] of them kept for computers that hold
//! few), and a Host header that names something other than an address is refused (a DNS
//! rebinding page cannot read it). A connection over a cap is accepted and reset at
//! once rather than left in the system's queue, where it would stand in front of the
//! teacher's.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Request as HttpRequest, State};
use axum::http::{HeaderMap, Method, StatusCode, Uri, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use matchbox_classroom::{ApiError, Body, Lesson, Problem, Reply, Request, Store};
use matchbox_engine::Error;
use matchbox_engine::i18n::{Language, Messages, id};
use matchbox_engine::kit::Kit;
use matchbox_engine::rule::Rule;
use matchbox_files::lock::StateLock;
use matchbox_files::write_atomic;

mod platform;

/// The header that carries the teacher's token.
pub const TOKEN_HEADER: &str = "x-matchbox-token";
/// The largest request body accepted, in bytes: a move is a few dozen.
pub const BODY_LIMIT: usize = 4096;
/// The port when none is given.
pub const DEFAULT_PORT: u16 = 8080;
/// Time a client has to send a request's head (its first line and headers), and an idle
/// connection has before its next one.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(5);
/// Time a request has, from its head to the answer (a body sent a byte at a time is
/// cut off here).
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(20);
/// A connection is closed after this long, once its request in progress is answered
/// (a page simply opens another): idle connections cannot pile up.
pub const CONNECTION_LIFETIME: Duration = Duration::from_secs(30);
/// Connections at most, whatever the file descriptors allow.
pub const MAX_CONNECTIONS: usize = 4000;
/// Connections open at once from one computer (an IPv4 address, or an IPv6 /64): a
/// browser opens six to a server, a page and its requests a few more.
pub const PER_CLIENT: usize = 32;
/// Connections let in over the cap for computers that hold fewer than [`FEW`], so that
/// the teacher's laptop gets in when many hostile addresses have taken every other slot.
pub const RESERVE: usize = 64;
/// Connections a computer may hold and still be let into the [`RESERVE`].
pub const FEW: usize = 8;
/// File descriptors kept for the rest of the program (the state file, the runtime).
const RESERVED_FILES: usize = 32;
/// The exit status after Ctrl-C or SIGTERM, once the beads are saved: 0, as the README
/// promises, since that is how a teacher ends a lesson (a save that fails exits 1 or 2).
pub const STOPPED: i32 = 0;

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
                Messages(Language::En).message(id::ERROR_LISTEN_ADDRESS, &[("text", text)])
            })?,
    };
    if let Some(port) = port {
        addr.set_port(port);
    }
    Ok(addr)
}

/// Writes a line for the teacher's terminal. A failed write is let go: stderr may be a
/// file on the disk that just filled up, and `eprintln!` would then end the server.
pub fn tell(line: std::fmt::Arguments) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "matchbox: {line}");
}

/// The `--state` file, written whole after every game.
struct StateFile(PathBuf);

impl Store for StateFile {
    fn save(&self, text: &str) -> Result<(), Error> {
        write_atomic(&self.0, text.as_bytes())
    }

    fn name(&self) -> Option<String> {
        Some(self.0.display().to_string())
    }

    fn failed(&self, e: &Error) {
        tell(format_args!(
            "{e}: the file is as it was, the games since are kept in memory and shown on the page, and saved as soon as the file can be written"
        ));
    }

    /// The system's temporary folder, often another disk than the state file's.
    fn rescue(&self, text: &str) -> Option<String> {
        let name = self.0.file_name()?.to_string_lossy();
        let place =
            std::env::temp_dir().join(format!("matchbox-rescued-{}-{name}", std::process::id()));
        write_atomic(&place, text.as_bytes()).ok()?;
        Some(place.display().to_string())
    }
}

/// What a request handler reaches: the lesson, the teacher's token, and the driver's
/// thread, woken after every request (a run started, paused or cancelled takes at once).
struct Server {
    lesson: Arc<dyn Lesson>,
    token: String,
    driver: std::thread::Thread,
}

impl Server {
    /// Whether a request carries the teacher's token.
    fn teacher(&self, headers: &HeaderMap) -> bool {
        let given = headers
            .get(TOKEN_HEADER)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        // Compare every byte, so the time taken does not tell how much was right.
        given.len() == self.token.len()
            && given
                .bytes()
                .zip(self.token.bytes())
                .fold(0u8, |acc, (a, b)| acc | (a ^ b))
                == 0
    }

    /// A refusal of the server's own, in the kit's language.
    fn refuse(&self, status: StatusCode, problem: Problem) -> Response {
        respond(self.lesson.refuse(ApiError::new(status.as_u16(), problem)))
    }
}

/// The classroom's answer as an HTTP response.
fn respond(reply: Reply) -> Response {
    let status = StatusCode::from_u16(reply.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        reply.json,
    )
        .into_response()
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

/// Whether a request's Content-Length announces more than [`BODY_LIMIT`] (one that is
/// not a number is left to hyper, which refuses it).
fn announced_too_big(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
        .is_some_and(|length| length > BODY_LIMIT as u64)
}

/// Refuses a request whose Host header names something other than an address, one
/// whose body is announced too big, and one that does not arrive whole within
/// [`REQUEST_TIMEOUT`].
async fn guard(State(s): State<Arc<Server>>, request: HttpRequest, next: Next) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .map(|h| h.to_str().unwrap_or("?"));
    if !host_allowed(host) {
        let host = host.unwrap_or_default().chars().take(60).collect();
        return s.refuse(StatusCode::MISDIRECTED_REQUEST, Problem::Host { host });
    }
    if announced_too_big(request.headers()) {
        // Refused before a byte of the body is read, and the connection closed: the
        // rest of the body is never waited for.
        let mut refused = s.refuse(
            StatusCode::PAYLOAD_TOO_LARGE,
            Problem::TooBig { limit: BODY_LIMIT },
        );
        refused.headers_mut().insert(
            header::CONNECTION,
            header::HeaderValue::from_static("close"),
        );
        return refused;
    }
    match tokio::time::timeout(REQUEST_TIMEOUT, next.run(request)).await {
        Ok(response) => response,
        Err(_) => s.refuse(
            StatusCode::REQUEST_TIMEOUT,
            Problem::Timeout {
                seconds: REQUEST_TIMEOUT.as_secs(),
            },
        ),
    }
}

/// The thread that goes on with training and watching while the server answers: it
/// steps the lesson when the step asks, or when a request wakes it.
struct Driver {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
    /// Its thread, to wake.
    waker: std::thread::Thread,
}

impl Driver {
    fn start(lesson: Arc<dyn Lesson>, started: Instant) -> Driver {
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            let clock = || started.elapsed();
            while !stopped.load(Ordering::Relaxed) {
                match lesson.step(&clock) {
                    Ok(Some(wait)) if wait.is_zero() => {}
                    Ok(Some(wait)) => std::thread::park_timeout(wait),
                    // No run: until a request (a wake that came first is kept).
                    Ok(None) => std::thread::park(),
                    Err(e) => tell(format_args!("{e}")),
                }
            }
        });
        Driver {
            stop,
            waker: thread.thread().clone(),
            thread: Some(thread),
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.waker.unpark();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
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
    lesson: Arc<dyn Lesson>,
    started: Instant,
    driver: Driver,
    /// The state file's lock, released when the app is dropped.
    _lock: Option<StateLock>,
}

impl App {
    /// Stops a training run under way (its games so far are kept) and saves the beads.
    pub fn close(self) -> Result<(), Error> {
        let App {
            lesson,
            started,
            driver,
            ..
        } = self;
        drop(driver);
        lesson.close(&|| started.elapsed())
    }
}

/// Builds the app for a kit: compiles the machine and loads the state file (a damaged
/// one is refused here, before anything is served).
pub fn app(kit: &Kit, options: &Options) -> Result<App, Error> {
    // Before the file is read: another program may be about to write it.
    let lock = options.state.as_deref().map(StateLock::take).transpose()?;
    let (lesson, notes) = matchbox_classroom::open(
        kit,
        matchbox_classroom::Options {
            rule: options.rule,
            seed: options.seed,
            store: options
                .state
                .clone()
                .map(|path| Arc::new(StateFile(path)) as Arc<dyn Store>),
            state: options
                .state
                .as_deref()
                .map(|path| (path, std::fs::read(path))),
            accept_edited_state: options.accept_edited_state,
        },
    )?;
    for note in notes {
        tell(format_args!("{note}"));
    }
    let token = format!("{:032x}", rand::random::<u128>());
    let started = Instant::now();
    let driver = Driver::start(Arc::clone(&lesson), started);
    let server = Arc::new(Server {
        lesson: Arc::clone(&lesson),
        token: token.clone(),
        driver: driver.waker.clone(),
    });
    Ok(App {
        router: router(server),
        token,
        name: kit.name.clone(),
        driver,
        lesson,
        started,
        _lock: lock,
    })
}

fn router(server: Arc<Server>) -> Router {
    Router::new()
        .route("/", get(page_html))
        .route("/app.js", get(page_js))
        .route("/transport.js", get(page_transport))
        .route("/page.js", get(page_shared))
        .route("/style.css", get(page_css))
        .route("/favicon.svg", get(page_icon))
        .route("/favicon.ico", get(page_icon))
        .fallback(api)
        .method_not_allowed_fallback(wrong_method)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&server),
            guard,
        ))
        .with_state(server)
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

async fn page_transport() -> Response {
    asset(
        "text/javascript; charset=utf-8",
        include_str!("assets/transport.js"),
    )
}

/// The module app.js shares with the static site's designer (page.js).
async fn page_shared() -> Response {
    asset(
        "text/javascript; charset=utf-8",
        include_str!("assets/page.js"),
    )
}

async fn page_css() -> Response {
    asset("text/css; charset=utf-8", include_str!("assets/style.css"))
}

async fn page_icon() -> Response {
    asset("image/svg+xml", include_str!("assets/favicon.svg"))
}

async fn wrong_method(State(s): State<Arc<Server>>) -> Response {
    s.refuse(StatusCode::METHOD_NOT_ALLOWED, Problem::Method)
}

/// Everything but the page's files: the classroom's requests (and a path that is
/// nothing, which the classroom refuses too). Answered off the thread that takes the
/// connections: an answer may take a moment (a new machine, the settings' trial runs).
async fn api(
    State(s): State<Arc<Server>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Response {
    let teacher = s.teacher(&headers);
    let lesson = Arc::clone(&s.lesson);
    let driver = s.driver.clone();
    let answered = tokio::task::spawn_blocking(move || {
        let body = match &raw {
            Ok(bytes) => Body::Read(bytes),
            Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => Body::TooBig(BODY_LIMIT),
            Err(_) => Body::Unreadable,
        };
        let reply = lesson.handle(&Request {
            method: method.as_str(),
            path: uri.path(),
            body,
            teacher,
        });
        driver.unpark();
        reply
    })
    .await;
    match answered {
        Ok(reply) => respond(reply),
        Err(e) => s.refuse(
            StatusCode::INTERNAL_SERVER_ERROR,
            Problem::Internal(e.to_string()),
        ),
    }
}

/// Serves the page until Ctrl-C or SIGTERM, printing the teacher's and the viewers'
/// addresses first; then stops training, saves, and gives the exit status
/// ([`STOPPED`]).
pub fn serve(kit: &Kit, options: &Options) -> Result<i32, Error> {
    let app = app(kit, options)?;
    // Over a file-size limit a save then fails (and the page says so) instead of the
    // signal ending the lesson with the games since the last save.
    matchbox_files::ignore_file_size_signal();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::Internal(format!("cannot start the server: {e}")))?;
    let router = app.router.clone();
    let served = runtime.block_on(async {
        let listener = listen(options.listen)
            .map_err(|e| {
                let (address, why) = (options.listen.to_string(), e.to_string());
                Messages(Language::En).message(id::ERROR_CANNOT_LISTEN, &[("address", &address), ("why", &why)])
            })?;
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
    served.and(closed).map(|()| STOPPED)
}

/// Connections the system may hold for the server before it takes them (the system
/// caps it, at 4,096 on a recent Linux). A connection that finds the queue full is not
/// refused but ignored, and its computer tries again a second later: the queue must
/// hold a flood's connections and the teacher's behind them.
const BACKLOG: u32 = 4096;

/// A listener on `address` with a [`BACKLOG`] of connections.
fn listen(address: SocketAddr) -> std::io::Result<tokio::net::TcpListener> {
    let socket = if address.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    // As the standard bind does: a server restarted at once gets its port back.
    socket.set_reuseaddr(true)?;
    socket.bind(address)?;
    socket.listen(BACKLOG)
}

/// Resolves at Ctrl-C (SIGINT) or SIGTERM (on Windows, the console closed or the system
/// shutting down); never if neither can be watched.
async fn stopped() {
    let interrupted = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    tokio::select! {
        () = interrupted => {}
        () = platform::terminated() => {}
    }
}

/// Connections at most: the file descriptors the process may open, less those the rest
/// of the program needs and the [`RESERVE`], so that running out of them never stops
/// the server.
fn connection_cap() -> usize {
    platform::open_files()
        .saturating_sub(RESERVED_FILES + RESERVE)
        .clamp(8, MAX_CONNECTIONS)
}

/// The computer a connection comes from: its IPv4 address (also when it reaches an IPv6
/// listener), or its IPv6 address's /64, all of which one computer may use.
fn computer(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V4(_) => address,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(Ipv6Addr::from(u128::from(v6) & !(u64::MAX as u128))),
        },
    }
}

/// The connections open, in all and by computer, against the caps.
struct Tally {
    /// Connections at most, before the [`RESERVE`].
    cap: usize,
    open: Mutex<(usize, HashMap<IpAddr, usize>)>,
}

impl Tally {
    fn new(cap: usize) -> Arc<Tally> {
        Arc::new(Tally {
            cap,
            open: Mutex::new((0, HashMap::new())),
        })
    }

    /// Counts a connection from `address` in, if the caps leave room for it: at most
    /// [`PER_CLIENT`] from one computer, and `cap` in all, or `cap` and [`RESERVE`] for
    /// a computer holding fewer than [`FEW`]. It is counted out when the answer is dropped.
    fn admit(self: &Arc<Tally>, address: IpAddr) -> Option<Admitted> {
        let computer = computer(address);
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        let (total, by_computer) = &mut *open;
        let held = by_computer.get(&computer).copied().unwrap_or(0);
        let room = if held < FEW {
            self.cap + RESERVE
        } else {
            self.cap
        };
        if held >= PER_CLIENT || *total >= room {
            return None;
        }
        *total += 1;
        *by_computer.entry(computer).or_default() += 1;
        Some(Admitted {
            tally: Arc::clone(self),
            computer,
        })
    }
}

/// One connection counted in, and out when dropped.
struct Admitted {
    tally: Arc<Tally>,
    computer: IpAddr,
}

impl Drop for Admitted {
    fn drop(&mut self) {
        let mut open = self
            .tally
            .open
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let (total, by_computer) = &mut *open;
        *total -= 1;
        if let Entry::Occupied(mut held) = by_computer.entry(self.computer) {
            *held.get_mut() -= 1;
            if *held.get() == 0 {
                held.remove();
            }
        }
    }
}

/// Takes connections until `stop`, within the caps of [`Tally`], each with the timeouts
/// of the module's doc. A connection over a cap is accepted and reset at once: left in
/// the system's queue, it would keep every later one (the teacher's) waiting behind it.
/// A failed accept (no file descriptor left) is retried a moment later.
async fn accept(
    listener: tokio::net::TcpListener,
    router: Router,
    cap: usize,
    stop: impl Future<Output = ()>,
) {
    let tally = Tally::new(cap);
    let mut stop = std::pin::pin!(stop);
    let pause = Duration::from_millis(50);
    loop {
        let (stream, peer) = tokio::select! {
            () = &mut stop => return,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(_) => {
                    tokio::time::sleep(pause).await;
                    continue;
                }
            },
        };
        let Some(admitted) = tally.admit(peer.ip()) else {
            // A reset leaves no TIME_WAIT behind, however often the client comes back.
            let _ = stream.set_zero_linger();
            continue;
        };
        let service = hyper_util::service::TowerToHyperService::new(router.clone());
        tokio::spawn(async move {
            let _admitted = admitted;
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
    fn one_computer_holds_at_most_its_share_and_the_reserve_lets_a_new_one_in() {
        let tally = Tally::new(40);
        let hostile: IpAddr = "10.0.0.9".parse().unwrap();
        let held: Vec<Admitted> = (0..PER_CLIENT)
            .map(|_| tally.admit(hostile).expect("within its share"))
            .collect();
        assert!(tally.admit(hostile).is_none(), "over its share");
        // Another computer fills the rest of the cap.
        let other: IpAddr = "10.0.0.10".parse().unwrap();
        let rest: Vec<Admitted> = (PER_CLIENT..40)
            .map(|_| tally.admit(other).expect("within the cap"))
            .collect();
        assert!(
            tally.admit(other).is_none(),
            "{} held: no reserve",
            rest.len()
        );
        // A third, holding nothing, gets in through the reserve, up to FEW.
        let teacher: IpAddr = "10.0.0.11".parse().unwrap();
        let teachers: Vec<Admitted> = (0..FEW)
            .map(|_| tally.admit(teacher).expect("in the reserve"))
            .collect();
        assert!(tally.admit(teacher).is_none(), "FEW held");
        // Closed connections make room again.
        drop(held);
        assert!(tally.admit(hostile).is_some());
        drop(teachers);
        assert_eq!(tally.open.lock().unwrap().1.get(&teacher), None);
    }

    #[test]
    fn an_ipv6_computer_is_its_64() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::2".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(computer(a), computer(b));
        assert_ne!(computer(a), computer(c));
        let mapped: IpAddr = "::ffff:192.0.2.7".parse().unwrap();
        assert_eq!(computer(mapped), "192.0.2.7".parse::<IpAddr>().unwrap());
    }

    #[test]
    fn the_cap_leaves_files_for_the_rest() {
        let cap = connection_cap();
        assert!((8..=MAX_CONNECTIONS).contains(&cap), "{cap}");
    }
}
