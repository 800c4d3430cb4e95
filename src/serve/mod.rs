//! `tally serve`: a local web server with a browser app to play and
//! analyse every variant against Tally, the points in view.
//!
//! What lives here: the options ([`ServeOptions`]), the HTTP server (its
//! connection cap and timeouts), the routes, and the guard that refuses
//! foreign `Host` and `Origin` headers. The rest is split by concern:
//!
//! - [`protocol`]: every message and the game state, as types;
//! - [`game`]: one game as a model (setup, record, clocks);
//! - `room`: a game with the server's bookkeeping around it (its searches,
//!   its pages, its clock's timer) and its WebSocket;
//! - `search`: Tally's moves, hints, the analyse view and reports, each
//!   on its own thread with a stop flag;
//! - `store`: `--save`;
//! - `assets`: the page (`assets/`, compiled in).
//!
//! Bounds: connections ([`MAX_CONNECTIONS`]), games open
//! ([`ServeOptions::max_games`]), searches at once
//! ([`ServeOptions::max_searches`]), Threads and Hash per search (the
//! server's flags), request bodies ([`MAX_BODY_BYTES`], read within
//! [`BODY_TIMEOUT`]), request headers (read within [`HEADER_TIMEOUT`]),
//! WebSocket messages ([`MAX_MESSAGE_BYTES`]) and writes to a page
//! ([`SEND_TIMEOUT`]). The server never reads a file path from a request;
//! only `--save` writes, under the directory it names.

mod assets;
mod contest;
pub mod game;
pub mod protocol;
mod room;
mod search;
mod store;

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::{Path, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Serialize;
use serde_json::json;
use tokio::sync::Semaphore;

use crate::engine::Engine;
use crate::rules::Variant;
use game::{ServedGame, SetupRequest};
use protocol::{Catalogue, SpecialInfo, VariantInfo};
use room::Slot;

/// The port `tally serve` listens on by default.
pub const DEFAULT_PORT: u16 = 8960;
/// The largest request body accepted (a setup).
pub const MAX_BODY_BYTES: usize = 256 * 1024;
/// The largest WebSocket message answered; up to four times as large is
/// read and refused with an error, past that the socket is closed (1009).
pub const MAX_MESSAGE_BYTES: usize = 256 * 1024;
/// Connections open at once at most; more are closed as they come.
pub const MAX_CONNECTIONS: usize = 256;
/// How long a request's headers may take to arrive (an idle connection
/// between requests included).
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a request's body may take to arrive.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);
/// How long one message to a page may take to be written; a page that
/// reads nothing for longer is dropped.
pub const SEND_TIMEOUT: Duration = Duration::from_secs(10);

/// Settings of `tally serve`.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// Address to bind (127.0.0.1 by default).
    pub host: IpAddr,
    /// Port (0: a free one).
    pub port: u16,
    /// Where games are saved as PGN after every move, if anywhere.
    pub save: Option<PathBuf>,
    /// Search threads per search.
    pub threads: usize,
    /// Hash per search, MiB.
    pub hash_mb: usize,
    /// Games open at most.
    pub max_games: usize,
    /// Searches running at once at most.
    pub max_searches: usize,
    /// The longest an analysis of the Analyse view runs.
    pub max_analysis_time: Duration,
}

impl Default for ServeOptions {
    fn default() -> ServeOptions {
        ServeOptions {
            host: IpAddr::from([127, 0, 0, 1]),
            port: DEFAULT_PORT,
            save: None,
            threads: 1,
            hash_mb: 16,
            max_games: 100,
            max_searches: 2,
            max_analysis_time: Duration::from_secs(60),
        }
    }
}

/// The server's state.
struct App {
    options: ServeOptions,
    /// The bound address (the port really used).
    addr: SocketAddr,
    games: Mutex<HashMap<String, Arc<Slot>>>,
    /// The contests, by id.
    contests: Mutex<HashMap<String, Arc<Mutex<contest::ServedContest>>>>,
    /// Engines not searching now, reused.
    engines: Mutex<Vec<Engine>>,
    permits: Arc<Semaphore>,
    /// Searches running now.
    searching: AtomicUsize,
    ids: AtomicU64,
}

impl App {
    fn new(options: ServeOptions, addr: SocketAddr) -> App {
        App {
            permits: Arc::new(Semaphore::new(options.max_searches.max(1))),
            addr,
            games: Mutex::new(HashMap::new()),
            contests: Mutex::new(HashMap::new()),
            engines: Mutex::new(Vec::new()),
            searching: AtomicUsize::new(0),
            ids: AtomicU64::new(0),
            options,
        }
    }

    fn slot(&self, id: &str) -> Option<Arc<Slot>> {
        lock(&self.games).get(id).cloned()
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A JSON answer with the security headers every answer carries.
fn json_response(status: StatusCode, body: &impl Serialize) -> Response {
    let text = serde_json::to_string(body).unwrap_or_else(|_| "{}".to_owned());
    (
        status,
        [(header::CONTENT_TYPE, "application/json; charset=utf-8")],
        text,
    )
        .into_response()
}

fn error(status: StatusCode, message: impl Into<String>) -> Response {
    json_response(status, &json!({ "error": message.into() }))
}

/// Starts the server and runs it until the process ends; `ready` gets
/// the address it listens on.
///
/// # Errors
///
/// A message when the address cannot be bound or the runtime not started.
pub fn run(options: ServeOptions, ready: impl FnOnce(SocketAddr)) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server runtime: {e}"))?;
    let served = runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind((options.host, options.port))
            .await
            .map_err(|e| format!("cannot listen on {}:{}: {e}", options.host, options.port))?;
        let addr = listener
            .local_addr()
            .map_err(|e| format!("cannot read the bound address: {e}"))?;
        let app = Arc::new(App::new(options, addr));
        store::load(&app);
        // One engine made before the first game needs it (its table and
        // threads take a while to set up).
        let warm = app.clone();
        tokio::task::spawn_blocking(move || {
            let engine = search::new_engine(&warm, Variant::Chess);
            lock(&warm.engines).push(engine);
        });
        ready(addr);
        // Ctrl-C ends the server at once: not after the pages' sockets
        // close or the searches under way reach their limits (saved games
        // are whole files, renamed into place).
        tokio::select! {
            served = serve(listener, router(app)) => served,
            _ = tokio::signal::ctrl_c() => Ok(()),
        }
    });
    // Searches run on blocking threads, which a runtime's drop would wait
    // for; the process ends with them.
    runtime.shutdown_timeout(SHUTDOWN_WAIT);
    served
}

/// How long a stopping server waits for its tasks.
const SHUTDOWN_WAIT: Duration = Duration::from_millis(200);

/// Accepts connections, at most [`MAX_CONNECTIONS`] at once, each served
/// over HTTP/1.1 with [`HEADER_TIMEOUT`] (WebSocket upgrades included).
async fn serve(listener: tokio::net::TcpListener, router: Router) -> Result<(), String> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    use hyper_util::service::TowerToHyperService;
    let open = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    loop {
        let (stream, _) = match listener.accept().await {
            Ok(c) => c,
            // A failed accept (no file descriptors left, a connection
            // reset before it was taken) loses that connection only.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let Ok(permit) = open.clone().try_acquire_owned() else {
            drop(stream);
            continue;
        };
        let service = TowerToHyperService::new(router.clone());
        tokio::spawn(async move {
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT)
                .max_buf_size(64 * 1024);
            let _ = http
                .serve_connection(TokioIo::new(stream), service)
                .with_upgrades()
                .await;
            drop(permit);
        });
    }
}

fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/assets/{*path}", get(asset))
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
        .route("/api/status", get(status))
        .route("/api/variants", get(catalogue))
        .route("/api/games", get(list_games).post(create_game))
        .route("/api/games/{id}", get(game_state))
        .route("/api/games/{id}/rematch", post(rematch))
        .route("/api/games/{id}/pgn", get(game_pgn))
        .route("/api/games/{id}/report", get(game_report))
        .route("/api/games/{id}/ws", get(game_socket))
        .route("/api/contests/{id}", get(contest::get))
        .route("/api/contests/{id}/next", post(contest::next))
        .route("/api/contests/{id}/pgn", get(contest::pgn))
        .route("/api/analyse/ws", get(search::analyse_socket))
        .fallback(|| async { error(StatusCode::NOT_FOUND, "no such page or API route") })
        .layer(middleware::from_fn_with_state(app.clone(), guard))
        .with_state(app)
}

/// The Content-Security-Policy of the app's pages: only its own script,
/// style and connections; no framing.
const APP_POLICY: &str = "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'";

async fn index() -> Response {
    page(assets::INDEX_HTML, "text/html; charset=utf-8")
}

async fn asset(Path(path): Path<String>) -> Response {
    match assets::find(&path) {
        Some(a) => page(a.body, a.kind),
        None => error(StatusCode::NOT_FOUND, "no such asset"),
    }
}

fn page(text: &'static str, kind: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(kind)),
            (
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_static(APP_POLICY),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
        text,
    )
        .into_response()
}

/// Whether `authority` (a `Host` header, or an origin's authority) names
/// this server, written exactly: `localhost`, an IPv4 literal or a
/// bracketed IPv6 literal that is loopback or the bound address, then `:`
/// and the bound port in plain digits (no sign, no leading zero); without
/// a port only when the server is on HTTP's 80, which browsers leave out.
/// Names other than `localhost` are refused (a DNS rebinding attack uses
/// one).
fn own_authority(addr: SocketAddr, authority: &str) -> bool {
    let (name, port) = if let Some(rest) = authority.strip_prefix('[') {
        // [v6] or [v6]:port
        let Some((ip, after)) = rest.split_once(']') else {
            return false;
        };
        let port = match after {
            "" => None,
            p => match p.strip_prefix(':') {
                Some(p) => Some(p),
                None => return false,
            },
        };
        let Ok(ip) = ip.parse::<std::net::Ipv6Addr>() else {
            return false;
        };
        (Some(IpAddr::V6(ip)), port)
    } else {
        let (name, port) = match authority.split_once(':') {
            Some((n, p)) => (n, Some(p)),
            None => (authority, None),
        };
        if name.eq_ignore_ascii_case("localhost") {
            (None, port)
        } else {
            match name.parse::<std::net::Ipv4Addr>() {
                Ok(ip) => (Some(IpAddr::V4(ip)), port),
                Err(_) => return false,
            }
        }
    };
    let port_ok = match port {
        None => addr.port() == 80,
        Some(p) => {
            let plain = !p.is_empty()
                && p.bytes().all(|b| b.is_ascii_digit())
                && (p == "0" || !p.starts_with('0'));
            plain && p.parse::<u16>() == Ok(addr.port())
        }
    };
    port_ok
        && name.is_none_or(|ip| ip.is_loopback() || ip == addr.ip() || addr.ip().is_unspecified())
}

async fn guard(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
    let mut response = match check(&app, &request) {
        Some(refusal) => refusal,
        None => {
            let method = request.method().clone();
            let response = next.run(request).await;
            // The framework's own refusals are plain text or empty: the
            // page reads JSON.
            if response.status() == StatusCode::METHOD_NOT_ALLOWED {
                error(
                    StatusCode::METHOD_NOT_ALLOWED,
                    format!(
                        "{} is not a method this address takes",
                        crate::text::printable(method.as_str())
                    ),
                )
            } else {
                response
            }
        }
    };
    let h = response.headers_mut();
    // No other site may frame any page of the app (and so drive it), and
    // no answer is read as another type than it says.
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    response
}

/// The refusal of a request from elsewhere, if it is one: exactly one
/// `Host` naming this server, an absolute-form target naming it too, and
/// an `Origin`, when sent, of this server.
fn check(app: &App, request: &Request) -> Option<Response> {
    let headers: &HeaderMap = request.headers();
    let mut hosts = headers.get_all(header::HOST).iter();
    let host = hosts.next().and_then(|h| h.to_str().ok()).unwrap_or("");
    let refused = |what: String| Some(error(StatusCode::FORBIDDEN, what));
    if hosts.next().is_some() {
        return refused("refused: a request names one Host, not several".to_owned());
    }
    if !own_authority(app.addr, host) {
        return refused(format!(
            "refused: the Host header '{}' is not this server's address (http://{})",
            crate::text::printable(host),
            app.addr
        ));
    }
    if let Some(authority) = request.uri().authority()
        && !own_authority(app.addr, authority.as_str())
    {
        return refused(format!(
            "refused: the request names another server '{}'",
            crate::text::printable(authority.as_str())
        ));
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let text = origin.to_str().unwrap_or("");
        let ok = text
            .strip_prefix("http://")
            .is_some_and(|a| own_authority(app.addr, a));
        if !ok {
            return refused(format!(
                "refused: requests from the origin '{}' are not allowed; open http://{} itself",
                crate::text::printable(text),
                app.addr
            ));
        }
    }
    None
}

async fn status(State(app): State<Arc<App>>) -> Response {
    let games = lock(&app.games).len();
    json_response(
        StatusCode::OK,
        &json!({
            "games": games,
            "max_games": app.options.max_games,
            "searching": app.searching.load(Ordering::SeqCst),
            "max_searches": app.options.max_searches,
            "saving": app.options.save.is_some(),
        }),
    )
}

/// Every variant with its rules card and special actions.
static CATALOGUE: std::sync::LazyLock<Catalogue> = std::sync::LazyLock::new(|| {
    let tables = crate::scoring::Tables::default();
    Catalogue {
        variants: Variant::ALL
            .iter()
            .map(|&v| VariantInfo {
                id: v.id(),
                card: crate::scoring::dump::card(&tables, v),
                specials: v
                    .special_actions()
                    .iter()
                    .filter_map(|a| {
                        Some(SpecialInfo {
                            action: a.special_word()?,
                            help: a.special_help()?,
                        })
                    })
                    .collect(),
                resignation_loses: crate::referee::resignation_loses(v),
            })
            .collect(),
        min_elo: crate::search::skill::MIN_ELO,
        max_elo: crate::search::skill::MAX_ELO,
        default_variant: Variant::Stylish.id(),
    }
});

async fn catalogue() -> Response {
    json_response(StatusCode::OK, &*CATALOGUE)
}

async fn list_games(State(app): State<Arc<App>>) -> Response {
    let slots: Vec<Arc<Slot>> = lock(&app.games).values().cloned().collect();
    let mut list: Vec<(std::time::Instant, game::Summary)> = slots
        .iter()
        .map(|s| {
            let r = lock(&s.room);
            (r.live.touched, r.game.summary())
        })
        .collect();
    list.sort_by_key(|b| std::cmp::Reverse(b.0));
    let list: Vec<game::Summary> = list.into_iter().map(|(_, v)| v).collect();
    json_response(StatusCode::OK, &list)
}

fn new_id(app: &App) -> String {
    use std::hash::{BuildHasher, Hasher};
    let n = app.ids.fetch_add(1, Ordering::SeqCst);
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(n);
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    format!("{:012x}", h.finish() & 0xffff_ffff_ffff)
}

/// Reads a request body of at most [`MAX_BODY_BYTES`] within
/// [`BODY_TIMEOUT`]; the refusal otherwise (the connection then closes).
async fn read_body(request: Request) -> Result<axum::body::Bytes, Response> {
    let close = |mut r: Response| {
        r.headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
        r
    };
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY_BYTES as u64) {
        return Err(close(error(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the request is larger than {MAX_BODY_BYTES} bytes"),
        )));
    }
    let body = request.into_body();
    match tokio::time::timeout(BODY_TIMEOUT, axum::body::to_bytes(body, MAX_BODY_BYTES)).await {
        Ok(Ok(bytes)) => Ok(bytes),
        Ok(Err(_)) => Err(close(error(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the request is larger than {MAX_BODY_BYTES} bytes, or broken off"),
        ))),
        Err(_) => Err(close(error(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "the request's body did not arrive within {} s",
                BODY_TIMEOUT.as_secs()
            ),
        ))),
    }
}

async fn create_game(State(app): State<Arc<App>>, request: Request) -> Response {
    let body = match read_body(request).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let request: SetupRequest = match serde_json::from_slice(&body) {
        Ok(r) => r,
        Err(e) => return error(StatusCode::BAD_REQUEST, format!("bad game setup: {e}")),
    };
    let setup = match request.check() {
        Ok(s) => s,
        Err(e) => return error(StatusCode::BAD_REQUEST, format!("bad game setup: {e}")),
    };
    match request.contest_rules(setup.variant) {
        Ok(None) => open_game(&app, setup),
        Ok(Some(rules)) => match crate::contest::Contest::new(rules) {
            Ok(c) => contest::start(&app, c, &setup),
            Err(e) => error(StatusCode::BAD_REQUEST, format!("bad game setup: {e}")),
        },
        Err(e) => error(StatusCode::BAD_REQUEST, format!("bad game setup: {e}")),
    }
}

/// Opens a new game of `setup` and answers its state.
fn open_game(app: &Arc<App>, setup: game::Setup) -> Response {
    let id = new_id(app);
    let game = match ServedGame::new(id.clone(), setup) {
        Ok(g) => g,
        Err(e) => return error(StatusCode::BAD_REQUEST, format!("bad game setup: {e}")),
    };
    let slot = Arc::new(Slot::new(game));
    match open_slot(app, id, slot.clone()) {
        Ok(()) => json_response(StatusCode::OK, &slot.state()),
        Err(r) => *r,
    }
}

/// Keeps `slot` as game `id`, dropping the game idle longest when the
/// server is full; the refusal (503) when nothing can be dropped. A game
/// nobody has played in is not saved: its first move saves it.
fn open_slot(app: &Arc<App>, id: String, slot: Arc<Slot>) -> Result<(), Box<Response>> {
    let mut games = lock(&app.games);
    if games.len() >= app.options.max_games && !drop_idle(app, &mut games) {
        return Err(Box::new(error(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "{} games are open, the most this server keeps (--max-games)",
                games.len()
            ),
        )));
    }
    games.insert(id, slot);
    Ok(())
}

/// A new game of the same setup with the person's colour reversed (the
/// same start position, a random Chess960 one included).
async fn rematch(State(app): State<Arc<App>>, Path(id): Path<String>) -> Response {
    let Some(slot) = app.slot(&id) else {
        return no_game(&id);
    };
    let setup = lock(&slot.room).game.rematch_setup();
    open_game(&app, setup)
}

/// Drops the game idle longest that nobody watches, and its saved file;
/// whether one was.
fn drop_idle(app: &App, games: &mut HashMap<String, Arc<Slot>>) -> bool {
    let victim = games
        .iter()
        .filter_map(|(id, s)| {
            let r = lock(&s.room);
            (r.live.watchers == 0 && !r.live.thinking).then(|| (r.live.touched, id.clone()))
        })
        .min()
        .map(|(_, id)| id);
    let Some(id) = victim else {
        return false;
    };
    if let Some(slot) = games.remove(&id) {
        lock(&slot.room).bump();
        store::remove(app, &id);
    }
    true
}

fn no_game(id: &str) -> Response {
    error(
        StatusCode::NOT_FOUND,
        format!("no game '{}' on this server", crate::text::printable(id)),
    )
}

async fn game_state(State(app): State<Arc<App>>, Path(id): Path<String>) -> Response {
    match app.slot(&id) {
        Some(s) => {
            room::flag_if_out(&app, &s).await;
            json_response(StatusCode::OK, &s.state())
        }
        None => no_game(&id),
    }
}

async fn game_pgn(State(app): State<Arc<App>>, Path(id): Path<String>) -> Response {
    let Some(s) = app.slot(&id) else {
        return no_game(&id);
    };
    let (pgn, name) = {
        let r = lock(&s.room);
        (
            r.game.pgn(),
            format!("tally-{}-{}.pgn", r.game.setup.variant.id(), r.game.id),
        )
    };
    Response::builder()
        .header(
            header::CONTENT_TYPE,
            "application/x-chess-pgn; charset=utf-8",
        )
        .header(
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"{name}\""),
        )
        .body(Body::from(pgn))
        .unwrap_or_else(|_| {
            error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "cannot build the response",
            )
        })
}

async fn game_report(State(app): State<Arc<App>>, Path(id): Path<String>) -> Response {
    let Some(s) = app.slot(&id) else {
        return no_game(&id);
    };
    let (variant, pgn) = {
        let r = lock(&s.room);
        (r.game.setup.variant, r.game.pgn())
    };
    match search::report(&app, variant, pgn).await {
        Ok(html) => (
            [
                (header::CONTENT_TYPE, "text/html; charset=utf-8"),
                (
                    header::CONTENT_SECURITY_POLICY,
                    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'",
                ),
            ],
            html,
        )
            .into_response(),
        Err(e) => error(StatusCode::BAD_REQUEST, e),
    }
}

/// The answer to a plain request at a WebSocket's address.
fn not_a_socket(why: &impl std::fmt::Display) -> Response {
    error(
        StatusCode::BAD_REQUEST,
        format!("this address takes a WebSocket connection: {why}"),
    )
}

/// A WebSocket upgrade with the server's message bounds.
fn upgrade(ws: WebSocketUpgrade) -> WebSocketUpgrade {
    ws.max_message_size(MAX_MESSAGE_BYTES * 4)
        .max_frame_size(MAX_MESSAGE_BYTES * 4)
}

async fn game_socket(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    let Some(slot) = app.slot(&id) else {
        return no_game(&id);
    };
    let ws = match ws {
        Ok(ws) => ws,
        Err(why) => return not_a_socket(&why.body_text()),
    };
    upgrade(ws).on_upgrade(move |socket| room::watch(app, slot, socket))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_own_authorities_are_accepted() {
        let addr: SocketAddr = "127.0.0.1:8960".parse().unwrap();
        assert!(own_authority(addr, "127.0.0.1:8960"));
        assert!(own_authority(addr, "localhost:8960"));
        assert!(own_authority(addr, "LOCALHOST:8960"));
        assert!(own_authority(addr, "[::1]:8960"));
        for bad in [
            "127.0.0.1:8961",
            "evil.example:8960",
            "127.0.0.1",
            "10.0.0.1:8960",
            // The port written exactly: no sign, no leading zero, no
            // unbracketed IPv6.
            "127.0.0.1:+8960",
            "127.0.0.1:08960",
            "::1:8960",
            "[::1]8960",
            "127.0.0.1:8960:8960",
            "127.0.0.1:",
            "localhost.:8960",
            "127.1:8960",
        ] {
            assert!(!own_authority(addr, bad), "{bad}");
        }
        let any: SocketAddr = "0.0.0.0:80".parse().unwrap();
        assert!(own_authority(any, "10.0.0.1:80"));
        assert!(!own_authority(any, "rebind.example:80"));
        // On port 80 a browser writes no port.
        let http: SocketAddr = "127.0.0.1:80".parse().unwrap();
        for host in ["127.0.0.1", "localhost", "[::1]", "127.0.0.1:80"] {
            assert!(own_authority(http, host), "{host}");
        }
        for host in ["", "evil.example", "127.0.0.1:8080", "[::1]:81"] {
            assert!(!own_authority(http, host), "{host}");
        }
    }
}
