//! `tally serve`: a local web server with a browser app to play and
//! analyse every variant against Tally, the points in view.
//!
//! What lives here: the options ([`ServeOptions`]), the HTTP routes and
//! WebSocket protocol (documented in `docs/serve.md`), the guard that
//! refuses foreign `Host` and `Origin` headers, and the searches (run on
//! their own threads, never on the async runtime, each with a stop flag).
//! The game model is [`game`]; the page is in `assets/`, compiled in.
//!
//! Bounds: games open ([`ServeOptions::max_games`]), searches at once
//! ([`ServeOptions::max_searches`]), Threads and Hash per search (the
//! server's flags), request bodies ([`MAX_BODY_BYTES`]) and WebSocket
//! messages ([`MAX_MESSAGE_BYTES`]). The server never reads a file path
//! from a request; only `--save` writes, under the directory it names.

pub mod game;
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
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, Path, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::{Value, json};
use tokio::sync::{Semaphore, broadcast};

use crate::engine::Engine;
use crate::rules::Variant;
use game::{ServedGame, SetupRequest};

/// The port `tally serve` listens on by default.
pub const DEFAULT_PORT: u16 = 8960;
/// The largest request body accepted (a setup, a PGN to analyse).
pub const MAX_BODY_BYTES: usize = 256 * 1024;
/// The largest WebSocket message accepted.
pub const MAX_MESSAGE_BYTES: usize = 256 * 1024;

const INDEX_HTML: &str = include_str!("assets/index.html");
const APP_CSS: &str = include_str!("assets/app.css");
const APP_JS: &str = include_str!("assets/app.js");

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
        }
    }
}

/// One game with its channel to the pages watching it.
struct Slot {
    game: Mutex<ServedGame>,
    tx: broadcast::Sender<String>,
    /// Held while the game is saved (one save at a time).
    saving: Mutex<()>,
}

impl Slot {
    fn new(game: ServedGame, tx: broadcast::Sender<String>) -> Slot {
        Slot {
            game: Mutex::new(game),
            tx,
            saving: Mutex::new(()),
        }
    }
}

/// The server's state.
struct App {
    options: ServeOptions,
    /// The bound address (the port really used).
    addr: SocketAddr,
    games: Mutex<HashMap<String, Arc<Slot>>>,
    /// Engines not searching now, reused.
    engines: Mutex<Vec<Engine>>,
    permits: Arc<Semaphore>,
    /// Searches running now.
    searching: AtomicUsize,
    ids: AtomicU64,
}

impl App {
    fn slot(&self, id: &str) -> Option<Arc<Slot>> {
        lock(&self.games).get(id).cloned()
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn error(status: StatusCode, message: impl Into<String>) -> Response {
    let body = json!({ "error": message.into() }).to_string();
    (
        status,
        [(header::CONTENT_TYPE, "application/json; charset=utf-8")],
        body,
    )
        .into_response()
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
        let app = Arc::new(App {
            permits: Arc::new(Semaphore::new(options.max_searches.max(1))),
            addr,
            games: Mutex::new(HashMap::new()),
            engines: Mutex::new(Vec::new()),
            searching: AtomicUsize::new(0),
            ids: AtomicU64::new(0),
            options,
        });
        store::load(&app);
        // One engine made before the first game needs it (its table and
        // threads take a while to set up).
        let warm = app.clone();
        tokio::task::spawn_blocking(move || {
            let engine = search::new_engine(&warm, crate::rules::Variant::Chess);
            lock(&warm.engines).push(engine);
        });
        ready(addr);
        // Ctrl-C ends the server at once: not after the pages' sockets
        // close or the searches under way reach their limits (saved games
        // are whole files, renamed into place).
        tokio::select! {
            served = axum::serve(listener, router(app)) => {
                served.map_err(|e| format!("server error: {e}"))
            }
            _ = tokio::signal::ctrl_c() => Ok(()),
        }
    });
    // Searches run on blocking threads, which a runtime's drop would wait
    // for; the process ends with them.
    runtime.shutdown_timeout(SHUTDOWN_WAIT);
    served
}

/// How long a stopping server waits for its tasks.
const SHUTDOWN_WAIT: std::time::Duration = std::time::Duration::from_millis(200);

fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(index))
        .route(
            "/app.css",
            get(|| asset(APP_CSS, "text/css; charset=utf-8")),
        )
        .route(
            "/app.js",
            get(|| asset(APP_JS, "text/javascript; charset=utf-8")),
        )
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
        .route("/api/status", get(status))
        .route("/api/games", get(list_games).post(create_game))
        .route("/api/games/{id}", get(game_state))
        .route("/api/games/{id}/pgn", get(game_pgn))
        .route("/api/games/{id}/report", get(game_report))
        .route("/api/games/{id}/ws", get(game_socket))
        .route("/api/analyse/ws", get(search::analyse_socket))
        .fallback(|| async { error(StatusCode::NOT_FOUND, "no such page or API route") })
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(middleware::from_fn_with_state(app.clone(), guard))
        .with_state(app)
}

/// The page, its variant choices filled in from [`Variant::ALL`] (the one
/// list of them; stylish chosen) where `<!-- variants -->` stands, and the
/// strength's bounds from the search's where `MIN_ELO` and `MAX_ELO` stand.
static PAGE: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    let options: String = Variant::ALL
        .iter()
        .map(|v| {
            let chosen = if *v == Variant::Stylish {
                " selected"
            } else {
                ""
            };
            format!("<option value=\"{0}\"{chosen}>{0}</option>", v.id())
        })
        .collect();
    INDEX_HTML
        .replace("<!-- variants -->", &options)
        .replace(
            "\"MIN_ELO\"",
            &format!("\"{}\"", crate::search::skill::MIN_ELO),
        )
        .replace(
            "\"MAX_ELO\"",
            &format!("\"{}\"", crate::search::skill::MAX_ELO),
        )
});

async fn index() -> Response {
    asset(PAGE.as_str(), "text/html; charset=utf-8").await
}

async fn asset(text: &'static str, kind: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(kind)),
            (
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_static(
                    "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'",
                ),
            ),
            // No other site may frame the app (and so drive it).
            (header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY")),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
        text,
    )
        .into_response()
}

/// Whether `host` (a `Host` header, or an origin's authority) names this
/// server: `localhost` or an IP literal that is loopback or the bound
/// address, with the bound port (none written is HTTP's 80, which browsers
/// leave out). Names other than `localhost` are refused (a DNS rebinding
/// attack uses one).
fn own_authority(addr: SocketAddr, host: &str) -> bool {
    let (name, port) = match host.rsplit_once(':') {
        Some((n, p)) if !n.is_empty() && !p.contains(']') => (n, p.parse::<u16>().ok()),
        _ => (host, Some(80)),
    };
    if port != Some(addr.port()) {
        return false;
    }
    if name.eq_ignore_ascii_case("localhost") {
        return true;
    }
    let ip = name.trim_start_matches('[').trim_end_matches(']');
    match ip.parse::<IpAddr>() {
        Ok(ip) => ip.is_loopback() || ip == addr.ip() || addr.ip().is_unspecified(),
        Err(_) => false,
    }
}

async fn guard(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
    let headers: &HeaderMap = request.headers();
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    if !own_authority(app.addr, host) {
        return error(
            StatusCode::FORBIDDEN,
            format!(
                "refused: the Host header '{}' is not this server's address (http://{})",
                crate::text::printable(host),
                app.addr
            ),
        );
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let text = origin.to_str().unwrap_or("");
        let ok = text
            .strip_prefix("http://")
            .is_some_and(|a| own_authority(app.addr, a));
        if !ok {
            return error(
                StatusCode::FORBIDDEN,
                format!(
                    "refused: requests from the origin '{}' are not allowed; open http://{} itself",
                    crate::text::printable(text),
                    app.addr
                ),
            );
        }
    }
    let method = request.method().clone();
    let response = next.run(request).await;
    // The framework's own refusals are plain text or empty: the page
    // reads JSON.
    match response.status() {
        StatusCode::PAYLOAD_TOO_LARGE => error(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the request is larger than {MAX_BODY_BYTES} bytes"),
        ),
        StatusCode::METHOD_NOT_ALLOWED => error(
            StatusCode::METHOD_NOT_ALLOWED,
            format!(
                "{} is not a method this address takes",
                crate::text::printable(method.as_str())
            ),
        ),
        _ => response,
    }
}

async fn status(State(app): State<Arc<App>>) -> Response {
    let games = lock(&app.games).len();
    axum::Json(json!({
        "games": games,
        "max_games": app.options.max_games,
        "searching": app.searching.load(Ordering::SeqCst),
        "max_searches": app.options.max_searches,
        "saving": app.options.save.is_some(),
    }))
    .into_response()
}

async fn list_games(State(app): State<Arc<App>>) -> Response {
    let slots: Vec<Arc<Slot>> = lock(&app.games).values().cloned().collect();
    let mut list: Vec<(std::time::Instant, Value)> = slots
        .iter()
        .map(|s| {
            let g = lock(&s.game);
            (
                g.touched,
                json!({
                    "id": g.id,
                    "variant": g.setup.variant.id(),
                    "plies": g.game().actions().len(),
                    "status": if g.is_over() { "over" } else { "playing" },
                }),
            )
        })
        .collect();
    list.sort_by_key(|b| std::cmp::Reverse(b.0));
    axum::Json(Value::Array(list.into_iter().map(|(_, v)| v).collect())).into_response()
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

async fn create_game(State(app): State<Arc<App>>, body: axum::body::Bytes) -> Response {
    let request: SetupRequest = match serde_json::from_slice(&body) {
        Ok(r) => r,
        Err(e) => return error(StatusCode::BAD_REQUEST, format!("bad game setup: {e}")),
    };
    let setup = match request.check() {
        Ok(s) => s,
        Err(e) => return error(StatusCode::BAD_REQUEST, format!("bad game setup: {e}")),
    };
    let id = new_id(&app);
    let game = match ServedGame::new(id.clone(), setup) {
        Ok(g) => g,
        Err(e) => return error(StatusCode::BAD_REQUEST, format!("bad game setup: {e}")),
    };
    let state = game.state_json();
    {
        let mut games = lock(&app.games);
        if games.len() >= app.options.max_games && !drop_idle(&mut games) {
            return error(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "{} games are open, the most this server keeps (--max-games)",
                    games.len()
                ),
            );
        }
        let (tx, _) = broadcast::channel(64);
        games.insert(id.clone(), Arc::new(Slot::new(game, tx)));
    }
    store::save(&app, &id);
    axum::Json(state).into_response()
}

/// Drops the game idle longest that nobody watches; whether one was.
fn drop_idle(games: &mut HashMap<String, Arc<Slot>>) -> bool {
    let victim = games
        .iter()
        .filter_map(|(id, s)| {
            let g = lock(&s.game);
            (g.watchers == 0 && !g.thinking).then(|| (g.touched, id.clone()))
        })
        .min()
        .map(|(_, id)| id);
    victim.is_some_and(|id| games.remove(&id).is_some())
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
            flag_if_out(&app, &s);
            axum::Json(lock(&s.game).state_json()).into_response()
        }
        None => no_game(&id),
    }
}

async fn game_pgn(State(app): State<Arc<App>>, Path(id): Path<String>) -> Response {
    let Some(s) = app.slot(&id) else {
        return no_game(&id);
    };
    let (pgn, name) = {
        let g = lock(&s.game);
        (
            g.pgn(),
            format!("tally-{}-{}.pgn", g.setup.variant.id(), g.id),
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
        let g = lock(&s.game);
        (g.setup.variant, g.pgn())
    };
    match search::report(&app, variant, pgn).await {
        Ok(html) => (
            [
                (header::CONTENT_TYPE, "text/html; charset=utf-8"),
                (
                    header::CONTENT_SECURITY_POLICY,
                    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:",
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
    ws.max_message_size(MAX_MESSAGE_BYTES * 4)
        .max_frame_size(MAX_MESSAGE_BYTES * 4)
        .on_upgrade(move |socket| watch(app, slot, socket))
}

fn state_message(g: &ServedGame) -> String {
    json!({ "type": "state", "game": g.state_json() }).to_string()
}

fn error_message(text: impl Into<String>) -> String {
    json!({ "type": "error", "message": text.into() }).to_string()
}

/// Sends the game's state to every page watching it.
fn publish(slot: &Slot) {
    let text = state_message(&lock(&slot.game));
    let _ = slot.tx.send(text);
}

/// A page's connection to one game: its messages in, the game's updates
/// out. When the last page goes, a running search stops.
async fn watch(app: Arc<App>, slot: Arc<Slot>, mut socket: WebSocket) {
    let mut updates = slot.tx.subscribe();
    lock(&slot.game).watchers += 1;
    flag_if_out(&app, &slot);
    let first = state_message(&lock(&slot.game));
    if socket.send(Message::Text(first.into())).await.is_err() {
        leave(&slot);
        return;
    }
    search::engine_turn(&app, &slot);
    clock_watch(&app, &slot);
    loop {
        tokio::select! {
            incoming = socket.recv() => {
                let reply = match incoming {
                    Some(Ok(Message::Text(text))) => handle(&app, &slot, text.as_str()),
                    Some(Ok(Message::Binary(_))) => Some(error_message("send JSON text messages, not binary")),
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(_)) => None,
                };
                if let Some(r) = reply
                    && socket.send(Message::Text(r.into())).await.is_err()
                {
                    break;
                }
            }
            update = updates.recv() => {
                match update {
                    Ok(text) => {
                        if socket.send(Message::Text(text.into())).await.is_err() {
                            break;
                        }
                    }
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        let text = state_message(&lock(&slot.game));
                        if socket.send(Message::Text(text.into())).await.is_err() {
                            break;
                        }
                    }
                    Err(broadcast::error::RecvError::Closed) => break,
                }
            }
        }
    }
    leave(&slot);
}

/// A page left: the last one leaving stops Tally's search (it starts
/// again when a page comes back).
fn leave(slot: &Slot) {
    let mut g = lock(&slot.game);
    g.watchers = g.watchers.saturating_sub(1);
    if g.watchers == 0 && g.thinking {
        g.bump();
    }
}

/// One message from a page; the direct reply, if any (updates go to
/// every page through the channel).
fn handle(app: &Arc<App>, slot: &Arc<Slot>, text: &str) -> Option<String> {
    if text.len() > MAX_MESSAGE_BYTES {
        return Some(error_message(format!(
            "message too large: {} bytes, at most {MAX_MESSAGE_BYTES}",
            text.len()
        )));
    }
    let message: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => return Some(error_message(format!("bad JSON: {e}"))),
    };
    let kind = message.get("type").and_then(Value::as_str).unwrap_or("");
    let was_over = lock(&slot.game).is_over();
    let result = match kind {
        "play" => match message.get("action").and_then(Value::as_str) {
            Some(a) if a.len() <= 16 => lock(&slot.game).play(a, false).map(|_| ()),
            Some(_) => Err("an action is a UCI move or a special word".to_owned()),
            None => Err("a play message needs \"action\" (e.g. \"e2e4\" or \"disk\")".to_owned()),
        },
        "takeback" => lock(&slot.game).takeback(),
        "resign" => lock(&slot.game).resign(),
        "state" => return Some(state_message(&lock(&slot.game))),
        "hint" => {
            search::hint(app, slot);
            return None;
        }
        other => Err(format!(
            "unknown message type '{}' (play, takeback, resign, hint, state)",
            crate::text::printable(other)
        )),
    };
    match result {
        Ok(()) => {
            lock(&slot.game).last_think = None;
            publish(slot);
            let id = lock(&slot.game).id.clone();
            store::save(app, &id);
            search::engine_turn(app, slot);
            clock_watch(app, slot);
            None
        }
        Err(e) => {
            // A move after the flag fell ends the game on time: every page
            // hears of it and the save file keeps it.
            if !was_over && lock(&slot.game).is_over() {
                publish(slot);
                let id = lock(&slot.game).id.clone();
                store::save(app, &id);
            }
            Some(error_message(e))
        }
    }
}

/// Ends the game on time if the side to move's clock ran out, and then
/// tells the pages and saves it.
fn flag_if_out(app: &App, slot: &Slot) {
    let (flagged, id) = {
        let mut g = lock(&slot.game);
        (g.check_time(), g.id.clone())
    };
    if flagged {
        publish(slot);
        store::save(app, &id);
    }
}

/// While a person's clock runs, a timer that ends the game when it runs
/// out (and tells the pages).
fn clock_watch(app: &Arc<App>, slot: &Arc<Slot>) {
    let (left, generation) = {
        let g = lock(&slot.game);
        if g.setup.clock.is_none() || g.is_over() || g.engine_to_move() {
            return;
        }
        (g.remaining(g.game().turn()), g.generation)
    };
    let (app, slot) = (app.clone(), slot.clone());
    tokio::spawn(async move {
        tokio::time::sleep(left + Duration::from_millis(20)).await;
        if lock(&slot.game).generation == generation {
            flag_if_out(&app, &slot);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_offers_the_search_s_elo_range() {
        use crate::search::skill::{MAX_ELO, MIN_ELO};
        assert!(PAGE.contains(&format!("min=\"{MIN_ELO}\" max=\"{MAX_ELO}\"")));
        assert!(!PAGE.contains("MIN_ELO") && !PAGE.contains("MAX_ELO"));
    }

    #[test]
    fn only_own_authorities_are_accepted() {
        let addr: SocketAddr = "127.0.0.1:8960".parse().unwrap();
        assert!(own_authority(addr, "127.0.0.1:8960"));
        assert!(own_authority(addr, "localhost:8960"));
        assert!(own_authority(addr, "[::1]:8960"));
        assert!(!own_authority(addr, "127.0.0.1:8961"));
        assert!(!own_authority(addr, "evil.example:8960"));
        assert!(!own_authority(addr, "127.0.0.1"));
        assert!(!own_authority(addr, "10.0.0.1:8960"));
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
