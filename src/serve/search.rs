//! The searches of `tally serve`: Tally's moves, hints and the analyse
//! view. Every search runs on a blocking thread (never on the async
//! runtime) with an engine from the server's pool, under a permit of the
//! server's semaphore (so at most `--max-searches` run at once), and with
//! a stop flag that the game (or the analysing page) sets when the search
//! is no longer wanted.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use axum::extract::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use serde_json::{Value, json};
use shakmaty::Color;
use tokio::sync::mpsc;

use super::{App, MAX_MESSAGE_BYTES, Slot, error_message, lock, publish};
use crate::analyse::{Exact, PositionAnalysis, analyse_position_until, exact_value, immediate};
use crate::engine::{Engine, EngineOptions};
use crate::pgn::read_games;
use crate::referee::score_input;
use crate::rules::Variant;
use crate::scoring::{Award, Scorer};
use crate::search::{Limits, PvLine, Reporter, Silent, Stats, Strength};

/// A search's setting: the position and how to play.
struct Position {
    variant: Variant,
    specials: bool,
    chess960: bool,
    strength: Strength,
    fen: String,
    actions: Vec<String>,
}

/// Runs `work` with an engine set to `pos`, on a blocking thread under a
/// permit; `None` when the permit could not be had or the thread failed.
/// The permit and the count of searches go with the blocking work, not
/// with this future: a caller that stops waiting (a page that closed its
/// request) frees neither before the work ends, so `--max-searches` holds.
async fn with_engine<T: Send + 'static>(
    app: &Arc<App>,
    pos: Position,
    work: impl FnOnce(&mut Engine) -> T + Send + 'static,
) -> Option<T> {
    let permit = app.permits.clone().acquire_owned().await.ok()?;
    let running = Running::new(app.clone(), permit);
    tokio::task::spawn_blocking(move || {
        let app2 = &running.app;
        let pooled = lock(&app2.engines).pop();
        let mut engine = pooled.unwrap_or_else(|| new_engine(app2, pos.variant));
        if engine.variant() != pos.variant {
            engine.set_variant(pos.variant);
        }
        engine.set_multipv(1);
        if engine.options().strength != pos.strength {
            engine.set_strength(pos.strength);
        }
        if engine.options().specials != pos.specials {
            engine.set_specials(pos.specials);
        }
        if engine.options().chess960 != pos.chess960 {
            engine.set_chess960(pos.chess960);
        }
        let moves: Vec<&str> = pos.actions.iter().map(String::as_str).collect();
        let out = match engine.set_position(Some(&pos.fen), &moves) {
            Ok(()) => Some(work(&mut engine)),
            Err(_) => None,
        };
        lock(&app2.engines).push(engine);
        drop(running);
        out
    })
    .await
    .ok()
    .flatten()
}

/// A search under way: counted in the server's status while it lives,
/// holding its permit until it is dropped.
struct Running {
    app: Arc<App>,
    _permit: tokio::sync::OwnedSemaphorePermit,
}

impl Running {
    fn new(app: Arc<App>, permit: tokio::sync::OwnedSemaphorePermit) -> Running {
        app.searching.fetch_add(1, Ordering::SeqCst);
        Running {
            app,
            _permit: permit,
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.app.searching.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Sets its flag when dropped: a request's future that is dropped (its
/// client went away) stops the work it started.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// A new engine with the server's Threads and Hash.
pub(super) fn new_engine(app: &App, variant: Variant) -> Engine {
    Engine::with_options(
        variant,
        EngineOptions {
            hash_mb: app.options.hash_mb,
            threads: app.options.threads,
            ..EngineOptions::default()
        },
    )
}

/// Streams a game search's lines to the pages watching it.
struct Stream {
    slot: Arc<Slot>,
    generation: u64,
    /// The root's awards in exact points ([`Exact`]).
    exact: Exact,
    engine: Color,
    /// White's points minus Black's so far.
    banked: f64,
}

impl Reporter for Stream {
    fn line(&self, line: &PvLine, stats: &Stats) {
        if line.multipv != 1 {
            return;
        }
        let v = self.exact.value(line);
        let for_white = if self.engine == Color::White {
            v.points
        } else {
            -v.points
        };
        let think = json!({
            "depth": line.depth,
            "nodes": stats.nodes,
            "ms": stats.time.as_millis() as u64,
            "margin": v.points,
            "mate": v.mate,
            "final_white_minus_black": self.banked + for_white,
            "pv": line.pv.iter().take(8).map(|a| a.to_string()).collect::<Vec<_>>(),
        });
        {
            let mut g = lock(&self.slot.game);
            if g.generation != self.generation {
                return;
            }
            g.last_think = Some(think.clone());
        }
        let _ = self
            .slot
            .tx
            .send(json!({ "type": "think", "think": think }).to_string());
    }
}

fn banked(slot: &Slot) -> f64 {
    let g = lock(&slot.game);
    let t = g.record().total;
    (t.white - t.black).as_f64()
}

/// Starts Tally's search when it is Tally's turn, a page watches and no
/// search runs; its move is played when it ends, unless the game changed.
pub(super) fn engine_turn(app: &Arc<App>, slot: &Arc<Slot>) {
    let banked = banked(slot);
    let (pos, generation, engine, stop) = {
        let mut g = lock(&slot.game);
        if !g.engine_to_move() || g.thinking || g.watchers == 0 {
            return;
        }
        let stop = Arc::new(AtomicBool::new(false));
        g.thinking = true;
        g.stop = Some(stop.clone());
        g.last_think = None;
        let (fen, actions) = g.position_text();
        let pos = Position {
            variant: g.setup.variant,
            specials: g.setup.specials,
            chess960: g.setup.chess960,
            strength: g.strength(),
            fen,
            actions,
        };
        (pos, g.generation, g.game().turn(), stop)
    };
    publish(slot);
    let app = app.clone();
    let slot = slot.clone();
    tokio::spawn(async move {
        let stream_slot = slot.clone();
        let stop2 = stop.clone();
        let result = with_engine(&app, pos, move |e| {
            // Tally's clock starts when its search does: the wait for a
            // free search (other games', hints, analyses) is not charged.
            let limits = {
                let mut g = lock(&stream_slot.game);
                if g.generation != generation || stop2.load(Ordering::SeqCst) {
                    return None;
                }
                g.start_turn_clock();
                g.limits()
            };
            publish(&stream_slot);
            let reporter = Stream {
                slot: stream_slot,
                generation,
                exact: Exact::of(e),
                engine,
                banked,
            };
            e.search_until(limits, &reporter, stop2).ok()
        })
        .await
        .flatten();
        let played = {
            let mut g = lock(&slot.game);
            if g.generation != generation || stop.load(Ordering::SeqCst) {
                return;
            }
            g.thinking = false;
            g.stop = None;
            g.last_search = result.as_ref().map(|r| r.time);
            match result.and_then(|r| r.best) {
                Some(best) => g.play(&best.to_string(), true).err(),
                None => Some("Tally found no move".to_owned()),
            }
        };
        let failed = played.is_some();
        if let Some(e) = played {
            let _ = slot.tx.send(error_message(e));
        }
        publish(&slot);
        let id = lock(&slot.game).id.clone();
        super::store::save(&app, &id);
        super::clock_watch(&app, &slot);
        // A move the game refused (its ply limit) is not searched again and
        // again: the error stands until the game changes.
        if !failed {
            engine_turn(&app, &slot);
        }
    });
}

/// A hint for the side to move: the action that scores most after a
/// short full-strength search, sent to the pages as a `hint` message. A
/// hint already on its way for this position is not searched again; one
/// for an earlier position was stopped when the game moved on.
pub(super) fn hint(app: &Arc<App>, slot: &Arc<Slot>) {
    let (pos, generation, limits, stop) = {
        let mut g = lock(&slot.game);
        if g.is_over() || g.engine_to_move() {
            let _ = slot.tx.send(error_message(
                "a hint is for your own turn in a running game",
            ));
            return;
        }
        if g.hinting == Some(g.generation) {
            return;
        }
        let stop = Arc::new(AtomicBool::new(false));
        g.hinting = Some(g.generation);
        g.hint_stop = Some(stop.clone());
        let (fen, actions) = g.position_text();
        let pos = Position {
            variant: g.setup.variant,
            specials: g.setup.specials,
            chess960: g.setup.chess960,
            strength: Strength::default(),
            fen,
            actions,
        };
        let limits = Limits {
            movetime: Some(g.setup.movetime.min(Duration::from_millis(1000))),
            ..Limits::default()
        };
        (pos, g.generation, limits, stop)
    };
    let app = app.clone();
    let slot = slot.clone();
    tokio::spawn(async move {
        let found = with_engine(&app, pos, move |e| {
            if stop.load(Ordering::SeqCst) {
                return None;
            }
            let r = e.search_until(limits, &Silent, stop).ok()?;
            let best = r.best?;
            let (imm, san) = immediate(e, best);
            let value = r.lines.first().map(|l| exact_value(e, l, e.units()));
            Some((best, san, imm, value))
        })
        .await
        .flatten();
        {
            let mut g = lock(&slot.game);
            if g.generation != generation {
                return;
            }
            g.hinting = None;
            g.hint_stop = None;
        }
        let text = match found {
            Some((best, san, imm, value)) => json!({
                "type": "hint",
                "action": best.to_string(),
                "san": san,
                "award": award_json(&imm.total()),
                "margin": value.map(|v| v.points),
                "mate": value.and_then(|v| v.mate),
            })
            .to_string(),
            None => error_message("no hint could be found"),
        };
        let _ = slot.tx.send(text);
    });
}

fn award_json(a: &Award) -> Value {
    json!({
        "white": a.white.to_json(),
        "black": a.black.to_json(),
        "events": a.events.iter().map(|e| e.name()).collect::<Vec<_>>(),
    })
}

/// Deepest analysis depth, and the longest an analysis runs.
const MAX_ANALYSIS_DEPTH: i32 = 40;
const MAX_ANALYSIS_TIME: Duration = Duration::from_secs(60);

/// The position an analyse request names: a variant with a FEN and
/// actions, or a PGN (its first game, up to `ply` actions); Chess960 when
/// it says `chess960`, or the PGN or the FEN does.
fn analysis_position(message: &Value) -> Result<(Position, Vec<String>, Vec<String>), String> {
    let variant = match message.get("variant").and_then(Value::as_str) {
        Some(v) => Variant::from_id(v).map_err(|e| e.to_string())?,
        None => Variant::Chess,
    };
    let mut fen = message
        .get("fen")
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|f| !f.is_empty())
        .map(str::to_owned);
    if fen
        .as_ref()
        .is_some_and(|f| f.len() > super::game::MAX_FEN_BYTES)
    {
        return Err("the FEN is too long".to_owned());
    }
    let flag = |name: &str, default: bool| match message.get(name) {
        None | Some(Value::Null) => Ok(default),
        Some(Value::Bool(b)) => Ok(*b),
        Some(_) => Err(format!("{name} is true or false")),
    };
    let mut chess960 = flag("chess960", false)?;
    // A game's analysis asks with the game's setting; the analyse view's
    // own positions have the special actions.
    let specials = flag("specials", true)?;
    let mut actions: Vec<String> = match message.get("moves") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) => a
            .iter()
            .map(|m| m.as_str().map(str::to_owned).ok_or("moves are strings"))
            .collect::<Result<_, _>>()?,
        Some(_) => return Err("moves is a list of actions".to_owned()),
    };
    if actions.len() > super::game::MAX_PLIES {
        return Err("too many moves".to_owned());
    }
    if let Some(pgn) = message.get("pgn").and_then(Value::as_str) {
        let games = read_games(pgn.as_bytes())?;
        let first = games.first().ok_or("the PGN holds no game")?;
        if let Some((ply, problem)) = &first.problem {
            return Err(format!("the PGN's ply {}: {problem}", ply + 1));
        }
        let mut input = first.input.clone();
        input.chess960 |= chess960;
        let record = score_input(&Scorer::new(variant), &input).map_err(|e| e.to_string())?;
        chess960 = record.chess960;
        fen = Some(record.start_fen.clone());
        actions = record.plies.iter().map(|p| p.action.to_string()).collect();
    }
    let fen = match fen {
        Some(f) => f,
        None => crate::rules::AnyGame::start(variant, true).start_fen(),
    };
    let chess960 = chess960 || crate::rules::fen_needs_chess960(&fen);
    // Check the position now, for a clear error.
    let mut game = crate::rules::AnyGame::new_in(variant, specials, chess960, Some(&fen))
        .map_err(|e| e.to_string())?;
    for (i, a) in actions.iter().enumerate() {
        game.play_text(a)
            .map_err(|e| format!("action {} ('{}'): {e}", i + 1, crate::text::printable(a)))?;
    }
    let sans = crate::with_game!(&game, |g| crate::pgn::game_sans(g));
    let fens = crate::with_game!(&game, |g| g.nodes().iter().map(|n| n.fen()).collect());
    Ok((
        Position {
            variant,
            specials,
            chess960,
            strength: Strength::default(),
            fen,
            actions,
        },
        sans,
        fens,
    ))
}

fn analysis_json(a: &PositionAnalysis, done: bool) -> Value {
    let actions: Vec<Value> = a
        .actions
        .iter()
        .map(|r| {
            json!({
                "rank": r.rank,
                "action": r.action.to_string(),
                "san": r.san,
                "value": r.value.map(|v| v.points),
                "mate": r.value.and_then(|v| v.mate),
                "award": award_json(&r.immediate.total()),
                "pv": r.pv,
                "depth": r.depth,
            })
        })
        .collect();
    json!({
        "type": "analysis",
        "fen": a.fen,
        "turn": a.turn.fold_wb("white", "black"),
        "depth": a.depth,
        "nodes": a.nodes,
        "done": done,
        "actions": actions,
    })
}

/// The analyse view's connection: `analyse` requests in (each stops the
/// one before), rankings out after every depth until `stop`, the depth
/// limit or the time limit.
pub(super) async fn analyse_socket(
    State(app): State<Arc<App>>,
    ws: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Response {
    let ws = match ws {
        Ok(ws) => ws,
        Err(why) => return super::not_a_socket(&why.body_text()),
    };
    ws.max_message_size(MAX_MESSAGE_BYTES * 4)
        .max_frame_size(MAX_MESSAGE_BYTES * 4)
        .on_upgrade(move |socket| analyse_loop(app, socket))
}

async fn analyse_loop(app: Arc<App>, mut socket: WebSocket) {
    // Each analysis's messages come tagged with its number; only the
    // current one's reach the page: one that a new request replaced (or a
    // refused request ended) says nothing more, not even its last ranking,
    // while one stopped by `stop` still sends its last, done.
    let (tx, mut rx) = mpsc::channel::<(u64, String)>(16);
    let mut stop = Arc::new(AtomicBool::new(false));
    let mut current: u64 = 0;
    loop {
        tokio::select! {
            incoming = socket.recv() => {
                let text = match incoming {
                    Some(Ok(Message::Text(t))) => t,
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(_)) => continue,
                };
                let reply = if text.len() > MAX_MESSAGE_BYTES {
                    Some(error_message(format!("message too large: {} bytes, at most {MAX_MESSAGE_BYTES}", text.len())))
                } else {
                    match serde_json::from_str::<Value>(text.as_str()) {
                        Err(e) => Some(error_message(format!("bad JSON: {e}"))),
                        Ok(m) => match m.get("type").and_then(Value::as_str) {
                            Some("stop") => {
                                stop.store(true, Ordering::SeqCst);
                                None
                            }
                            Some("line") => match analysis_position(&m) {
                                Err(e) => Some(error_message(e)),
                                Ok((_, sans, fens)) => Some(json!({
                                    "type": "line", "sans": sans, "fens": fens,
                                }).to_string()),
                            },
                            Some("analyse") => match analysis_position(&m) {
                                Err(e) => {
                                    stop.store(true, Ordering::SeqCst);
                                    current += 1;
                                    Some(error_message(e))
                                }
                                Ok((pos, sans, fens)) => {
                                    stop.store(true, Ordering::SeqCst);
                                    stop = Arc::new(AtomicBool::new(false));
                                    current += 1;
                                    let position = json!({
                                        "type": "position",
                                        "variant": pos.variant.id(),
                                        "fen": pos.fen,
                                        "moves": pos.actions,
                                        "sans": sans,
                                        "fen_now": fens.last(),
                                    });
                                    let depth = m
                                        .get("depth")
                                        .and_then(Value::as_i64)
                                        .map_or(MAX_ANALYSIS_DEPTH, |d| d.clamp(1, i64::from(MAX_ANALYSIS_DEPTH)) as i32);
                                    tokio::spawn(analyse(app.clone(), pos, depth, stop.clone(), current, tx.clone()));
                                    Some(position.to_string())
                                }
                            },
                            _ => Some(error_message("unknown message type (analyse, line, stop)")),
                        },
                    }
                };
                if let Some(r) = reply
                    && socket.send(Message::Text(r.into())).await.is_err()
                {
                    break;
                }
            }
            Some((id, out)) = rx.recv() => {
                if id == current && socket.send(Message::Text(out.into())).await.is_err() {
                    break;
                }
            }
        }
    }
    stop.store(true, Ordering::SeqCst);
}

/// Analysis number `id` of a connection: its messages go to `tx` tagged
/// with it.
async fn analyse(
    app: Arc<App>,
    pos: Position,
    max_depth: i32,
    stop: Arc<AtomicBool>,
    id: u64,
    tx: mpsc::Sender<(u64, String)>,
) {
    let started = Instant::now();
    let stop2 = stop.clone();
    let tx2 = tx.clone();
    let out = with_engine(&app, pos, move |e| {
        let mut last = None;
        for depth in 1..=max_depth {
            let left = MAX_ANALYSIS_TIME.saturating_sub(started.elapsed());
            if stop2.load(Ordering::SeqCst) || left.is_zero() {
                break;
            }
            let limits = Limits {
                depth: Some(depth),
                movetime: Some(left),
                ..Limits::default()
            };
            match analyse_position_until(e, limits, &Silent, stop2.clone()) {
                Ok(a) => {
                    if stop2.load(Ordering::SeqCst) {
                        // Stopped inside this depth: the last complete
                        // ranking stands unless this one went deeper.
                        if last
                            .as_ref()
                            .is_none_or(|l: &PositionAnalysis| a.depth > l.depth)
                        {
                            last = Some(a);
                        }
                        break;
                    }
                    let reached = a.depth;
                    let _ = tx2.blocking_send((id, analysis_json(&a, false).to_string()));
                    last = Some(a);
                    if reached < depth {
                        break;
                    }
                }
                Err(err) => return Err(err.to_string()),
            }
        }
        Ok(last)
    })
    .await;
    let text = match out {
        Some(Ok(Some(a))) => analysis_json(&a, true).to_string(),
        Some(Ok(None)) => json!({"type": "analysis", "done": true, "actions": []}).to_string(),
        Some(Err(e)) => error_message(e),
        None => error_message("the analysis could not run"),
    };
    let _ = tx.send((id, text)).await;
}

/// Plies of a game the report analyses at this depth and node bound each
/// (a quick look: the report is for reading the game back).
const REPORT_DEPTH: i32 = 6;
const REPORT_NODES: u64 = 30_000;

/// The HTML report of a finished game (the report of `tally analyse --pgn
/// FILE --html`), its plies analysed at a small fixed depth; it stops
/// when the request is dropped (the page went away).
pub(super) async fn report(
    app: &Arc<App>,
    variant: Variant,
    pgn: String,
) -> Result<String, String> {
    let start = crate::rules::AnyGame::start(variant, true).start_fen();
    // The game's PGN says whether it is Chess960 (analyse_game reads it).
    let pos = Position {
        variant,
        specials: true,
        chess960: false,
        strength: Strength::default(),
        fen: start,
        actions: Vec::new(),
    };
    let stop = Arc::new(AtomicBool::new(false));
    let _stop_when_dropped = StopOnDrop(stop.clone());
    with_engine(app, pos, move |engine| {
        let games = read_games(pgn.as_bytes())?;
        let g = games.first().ok_or("no game to report")?;
        let limits = Limits {
            depth: Some(REPORT_DEPTH),
            nodes: Some(REPORT_NODES),
            ..Limits::default()
        };
        let analysis =
            crate::analyse::analyse_game(engine, &g.input, &limits, &mut |_, _| {}, &|| {
                !stop.load(Ordering::SeqCst)
            })
            .map_err(|e| e.to_string())?;
        let big = 2.0 * engine.scorer().points_per_pawn().as_f64();
        crate::analyse::report::page(&analysis, g, variant, &limits, big)
    })
    .await
    .unwrap_or_else(|| Err("the report could not be made".to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc as std_mpsc;

    fn app(max_searches: usize) -> Arc<App> {
        let options = super::super::ServeOptions {
            hash_mb: 1,
            max_searches,
            ..Default::default()
        };
        Arc::new(App {
            permits: Arc::new(tokio::sync::Semaphore::new(max_searches)),
            addr: "127.0.0.1:0".parse().unwrap(),
            games: Default::default(),
            engines: Default::default(),
            searching: Default::default(),
            ids: Default::default(),
            options,
        })
    }

    fn start() -> Position {
        Position {
            variant: Variant::Chess,
            specials: false,
            chess960: false,
            strength: Strength::default(),
            fen: crate::rules::AnyGame::start(Variant::Chess, false).start_fen(),
            actions: Vec::new(),
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_search_whose_caller_went_away_holds_its_permit_until_it_ends() {
        let app = app(1);
        let (started_tx, started) = std_mpsc::channel::<()>();
        let (release, released) = std_mpsc::channel::<()>();
        let caller = tokio::spawn({
            let app = app.clone();
            async move {
                with_engine(&app, start(), move |_| {
                    started_tx.send(()).unwrap();
                    released.recv().unwrap();
                })
                .await
            }
        });
        tokio::task::spawn_blocking(move || started.recv().unwrap())
            .await
            .unwrap();
        // The caller goes away (a page closed its request) while the work
        // runs: the work still counts and still holds the one permit.
        caller.abort();
        let _ = caller.await;
        assert_eq!(app.searching.load(Ordering::SeqCst), 1);
        assert_eq!(app.permits.available_permits(), 0);
        release.send(()).unwrap();
        // Both are given back when the work ends.
        let deadline = Instant::now() + Duration::from_secs(60);
        while app.searching.load(Ordering::SeqCst) != 0 || app.permits.available_permits() != 1 {
            assert!(Instant::now() < deadline, "the permit was not given back");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert_eq!(
            lock(&app.engines).len(),
            1,
            "the engine went back to the pool"
        );
    }

    #[test]
    fn dropping_the_guard_stops_the_work() {
        let flag = Arc::new(AtomicBool::new(false));
        drop(StopOnDrop(flag.clone()));
        assert!(flag.load(Ordering::SeqCst));
    }
}
