//! The searches of `tally serve`: Tally's moves, hints and the analyse
//! view. Every search runs on a blocking thread (never on the async
//! runtime) with an engine from the server's pool, under a permit of the
//! server's semaphore (so at most `--max-searches` run at once), and with
//! a stop flag that the game (or the analysing page) sets when the search
//! is no longer wanted. A search thread never waits on a page: the game's
//! reports go through the game's broadcast channel (which drops what a
//! slow page misses) and an analysis's rankings through a latest-value
//! channel.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use axum::extract::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use shakmaty::Color;
use tokio::sync::watch;

use super::protocol::{
    AnalyseEvent, AnalyseRequest, AnalysedPosition, GameEvent, Hint, ItemisedAward,
    PositionRequest, RankedState, Ranking, Think,
};
use super::room::{Slot, close_if_too_large, commit, publish, send};
use super::{App, MAX_MESSAGE_BYTES, lock};
use crate::analyse::{Exact, PositionAnalysis, analyse_position_until, exact_value, immediate};
use crate::engine::{Engine, EngineOptions};
use crate::pgn::{line_sans, read_games};
use crate::referee::score_input;
use crate::rules::{AnyGame, Variant};
use crate::scoring::{DrawAdvantage, Scorer, Tables, itemise};
use crate::search::{Limits, PvLine, Reporter, Silent, Stats, Strength};

/// A search's setting: the position and how to play.
struct Position {
    variant: Variant,
    specials: bool,
    chess960: bool,
    /// Sets: who a plain draw favours.
    draw_advantage: DrawAdvantage,
    /// The point tables (a sets game's handicap).
    tables: Tables,
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
        engine.set_draw_advantage(pos.draw_advantage);
        if engine.options().tables != pos.tables {
            engine.set_tables(pos.tables);
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
    /// The game at the root, for the lines' SAN.
    root: AnyGame,
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
        let pv: Vec<String> = line.pv.iter().take(8).map(|a| a.to_string()).collect();
        let think = Think {
            depth: line.depth,
            nodes: stats.nodes,
            ms: stats.time.as_millis() as u64,
            margin: v.points,
            mate: v.mate,
            final_white_minus_black: self.banked + for_white,
            pv_san: line_sans(&self.root, &pv),
            pv,
        };
        {
            let mut r = lock(&self.slot.room);
            if r.live.generation != self.generation {
                return;
            }
            r.live.think = Some(think.clone());
        }
        self.slot.send(&GameEvent::Think { think });
    }
}

/// Starts Tally's search when it is Tally's turn, a page watches and no
/// search runs; its move is played when it ends, unless the game changed.
pub(super) fn engine_turn(app: &Arc<App>, slot: &Arc<Slot>) {
    let (pos, generation, engine, stop, root, banked) = {
        let mut r = lock(&slot.room);
        if !r.game.engine_to_move() || r.live.thinking || r.live.watchers == 0 {
            return;
        }
        let stop = Arc::new(AtomicBool::new(false));
        r.live.thinking = true;
        r.live.stop = Some(stop.clone());
        r.live.think = None;
        let g = &r.game;
        let t = g.record().total;
        let (fen, actions) = g.position_text();
        let pos = Position {
            variant: g.setup.variant,
            specials: g.setup.specials,
            chess960: g.setup.chess960,
            draw_advantage: g.setup.draw_advantage,
            tables: g.setup.tables(),
            strength: g.strength(),
            fen,
            actions,
        };
        (
            pos,
            r.live.generation,
            g.game().turn(),
            stop,
            g.game().clone(),
            (t.white - t.black).as_f64(),
        )
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
                let mut r = lock(&stream_slot.room);
                if r.live.generation != generation || stop2.load(Ordering::SeqCst) {
                    return None;
                }
                r.game.start_turn_clock();
                r.game.limits()
            };
            publish(&stream_slot);
            let reporter = Stream {
                slot: stream_slot,
                generation,
                exact: Exact::of(e),
                root,
                engine,
                banked,
            };
            e.search_until(limits, &reporter, stop2).ok()
        })
        .await
        .flatten();
        let failed = {
            let mut r = lock(&slot.room);
            if r.live.generation != generation || stop.load(Ordering::SeqCst) {
                return;
            }
            r.live.thinking = false;
            r.live.stop = None;
            r.live.last_search = result.as_ref().map(|r| r.time);
            let expected = r.live.think.as_ref().map(|t| t.final_white_minus_black);
            let played = match result.and_then(|x| x.best) {
                Some(best) => r.game.play(&best.to_string(), Some(expected)).err(),
                None => Some("Tally found no move".to_owned()),
            };
            r.bump();
            played
        };
        if let Some(e) = &failed {
            slot.send(&GameEvent::Error { message: e.clone() });
        }
        commit(&app, &slot).await;
        // A move the game refused (its ply limit) is not searched again and
        // again: the error stands until the game changes.
        if failed.is_none() {
            engine_turn(&app, &slot);
        }
    });
}

/// A hint for the side to move: the action that scores most after a
/// short full-strength search, sent to the pages as a `hint` message
/// naming the position (its ply count) it is for. A hint already on its
/// way for this position is not searched again; one for an earlier
/// position was stopped when the game moved on.
pub(super) fn hint(app: &Arc<App>, slot: &Arc<Slot>) {
    let (pos, generation, limits, stop, ply) = {
        let mut r = lock(&slot.room);
        if r.game.is_over() || r.game.engine_to_move() {
            drop(r);
            slot.send(&GameEvent::Error {
                message: "a hint is for your own turn in a running game".to_owned(),
            });
            return;
        }
        if r.live.hinting == Some(r.live.generation) {
            return;
        }
        let stop = Arc::new(AtomicBool::new(false));
        r.live.hinting = Some(r.live.generation);
        r.live.hint_stop = Some(stop.clone());
        let g = &r.game;
        let (fen, actions) = g.position_text();
        let ply = actions.len();
        let pos = Position {
            variant: g.setup.variant,
            specials: g.setup.specials,
            chess960: g.setup.chess960,
            draw_advantage: g.setup.draw_advantage,
            tables: g.setup.tables(),
            strength: Strength::default(),
            fen,
            actions,
        };
        let limits = Limits {
            movetime: Some(g.setup.movetime.min(Duration::from_millis(1000))),
            ..Limits::default()
        };
        (pos, r.live.generation, limits, stop, ply)
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
            let ((imm, san), items) = itemise(|| immediate(e, best));
            let value = r.lines.first().map(|l| exact_value(e, l, e.units()));
            Some(Hint {
                ply,
                action: best.to_string(),
                san,
                award: ItemisedAward {
                    award: imm.total(),
                    items,
                },
                margin: value.map(|v| v.points),
                mate: value.and_then(|v| v.mate),
            })
        })
        .await
        .flatten();
        {
            let mut r = lock(&slot.room);
            if r.live.generation != generation {
                return;
            }
            r.live.hinting = None;
            r.live.hint_stop = None;
        }
        slot.send(&match found {
            Some(h) => GameEvent::Hint(h),
            None => GameEvent::Error {
                message: "no hint could be found".to_owned(),
            },
        });
    });
}

/// Deepest analysis depth.
const MAX_ANALYSIS_DEPTH: i32 = 40;

/// A position the analyse view asked for, checked: the search's setting,
/// the SAN and FEN of its line, and what the page is told of it.
struct Asked {
    pos: Position,
    sans: Vec<String>,
    fens: Vec<String>,
    note: Option<String>,
}

/// The position an analyse request names: a variant with a FEN and
/// actions, or a PGN (its first game, all its actions) whose `Variant`
/// tag names the variant when the request does not; Chess960 when it
/// says `chess960`, or the PGN or the FEN does.
fn analysis_position(request: &PositionRequest) -> Result<Asked, String> {
    let mut note = None;
    let pgn = match &request.pgn {
        Some(text) if !text.trim().is_empty() => {
            let games = read_games(text.as_bytes())?;
            Some(games.into_iter().next().ok_or("the PGN holds no game")?)
        }
        _ => None,
    };
    let tag = pgn.as_ref().and_then(|g| g.variant.as_deref());
    let variant = crate::analyse::setup::variant_of(request.variant.as_deref(), tag)?;
    if let (Some(_), Some(tag)) = (&request.variant, tag)
        && crate::pgn::variant_of_tag(tag).is_some_and(|t| t != variant)
    {
        note = Some(format!(
            "the PGN's Variant tag says '{}'; analysed as {variant}, as chosen",
            crate::text::printable(tag)
        ));
    }
    let mut fen = request
        .fen
        .as_deref()
        .map(str::trim)
        .filter(|f| !f.is_empty())
        .map(str::to_owned);
    if fen
        .as_ref()
        .is_some_and(|f| f.len() > super::game::MAX_FEN_BYTES)
    {
        return Err("the FEN is too long".to_owned());
    }
    let mut chess960 = request.chess960.unwrap_or(false);
    // A game's analysis asks with the game's setting; the analyse view's
    // own positions have the special actions.
    let specials = request.specials.unwrap_or(true);
    let mut actions = request.moves.clone();
    if actions.len() > super::game::MAX_PLIES {
        return Err("too many moves".to_owned());
    }
    if let Some(first) = &pgn {
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
        None => AnyGame::start(variant, true).start_fen(),
    };
    let chess960 = chess960 || crate::rules::fen_needs_chess960(&fen);
    // Check the position now, for a clear error.
    let mut game =
        AnyGame::new_in(variant, specials, chess960, Some(&fen)).map_err(|e| e.to_string())?;
    for (i, a) in actions.iter().enumerate() {
        game.play_text(a)
            .map_err(|e| format!("action {} ('{}'): {e}", i + 1, crate::text::printable(a)))?;
    }
    let sans = crate::with_game!(&game, |g| crate::pgn::game_sans(g));
    let fens = crate::with_game!(&game, |g| g.nodes().iter().map(|n| n.fen()).collect());
    Ok(Asked {
        pos: Position {
            variant,
            specials,
            chess960,
            draw_advantage: DrawAdvantage::default(),
            tables: Tables::default(),
            strength: Strength::default(),
            fen,
            actions,
        },
        sans,
        fens,
        note,
    })
}

/// A ranking as the page reads it.
fn ranking(e: &Engine, a: &PositionAnalysis, done: bool) -> Ranking {
    let actions = a
        .actions
        .iter()
        .map(|r| {
            let ((imm, _), items) = itemise(|| immediate(e, r.action));
            RankedState {
                rank: r.rank,
                action: r.action.to_string(),
                san: r.san.clone(),
                value: r.value.map(|v| v.points),
                mate: r.value.and_then(|v| v.mate),
                award: ItemisedAward {
                    award: imm.total(),
                    items,
                },
                pv_san: line_sans(e.game(), &r.pv),
                pv: r.pv.clone(),
                depth: r.depth,
            }
        })
        .collect();
    Ranking {
        fen: a.fen.clone(),
        turn: a.turn.fold_wb("white", "black"),
        depth: a.depth,
        nodes: a.nodes,
        done,
        actions,
    }
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
    super::upgrade(ws).on_upgrade(move |socket| analyse_loop(app, socket))
}

/// The latest message of the analysis under way: its number (a message of
/// an analysis that a new request replaced is never sent) and the text.
type Latest = (u64, Option<String>);

async fn analyse_loop(app: Arc<App>, mut socket: WebSocket) {
    // Each analysis writes its rankings into a latest-value channel: the
    // search thread never waits for the page, and a slow page gets the
    // newest ranking, skipping those it had no time for. One stopped by
    // `stop` still sends its last, done; one a new request replaced (or a
    // refused request ended) says nothing more.
    let (tx, mut rx) = watch::channel::<Latest>((0, None));
    let mut stop = Arc::new(AtomicBool::new(false));
    let mut current: u64 = 0;
    loop {
        tokio::select! {
            incoming = socket.recv() => {
                let text = match incoming {
                    Some(Ok(Message::Text(t))) => t,
                    Some(Ok(Message::Close(_))) | None => break,
                    Some(Err(e)) => {
                        close_if_too_large(&mut socket, &e).await;
                        break;
                    }
                    Some(Ok(_)) => continue,
                };
                let reply = if text.len() > MAX_MESSAGE_BYTES {
                    Some(error(format!("message too large: {} bytes, at most {MAX_MESSAGE_BYTES}", text.len())))
                } else {
                    match serde_json::from_str::<AnalyseRequest>(text.as_str()) {
                        Err(e) => Some(error(format!("bad message: {e} (types: analyse, line, stop)"))),
                        Ok(AnalyseRequest::Stop) => {
                            stop.store(true, Ordering::SeqCst);
                            None
                        }
                        Ok(AnalyseRequest::Line(request)) => Some(match analysis_position(&request) {
                            Err(e) => error(e),
                            Ok(asked) => AnalyseEvent::Line { sans: asked.sans, fens: asked.fens },
                        }),
                        Ok(AnalyseRequest::Analyse(request)) => {
                            stop.store(true, Ordering::SeqCst);
                            current += 1;
                            match analysis_position(&request) {
                                Err(e) => Some(error(e)),
                                Ok(asked) => {
                                    stop = Arc::new(AtomicBool::new(false));
                                    let position = AnalysedPosition {
                                        variant: asked.pos.variant.id(),
                                        fen: asked.pos.fen.clone(),
                                        moves: asked.pos.actions.clone(),
                                        sans: asked.sans,
                                        fen_now: asked.fens.last().cloned().unwrap_or_default(),
                                        chess960: asked.pos.chess960,
                                        specials: asked.pos.specials,
                                        note: asked.note,
                                    };
                                    let depth = request
                                        .depth
                                        .map_or(MAX_ANALYSIS_DEPTH, |d| d.clamp(1, i64::from(MAX_ANALYSIS_DEPTH)) as i32);
                                    tokio::spawn(analyse(app.clone(), asked.pos, depth, stop.clone(), current, tx.clone()));
                                    Some(AnalyseEvent::Position(position))
                                }
                            }
                        }
                    }
                };
                if let Some(r) = reply
                    && !send(&mut socket, r.to_text()).await
                {
                    break;
                }
            }
            changed = rx.changed() => {
                if changed.is_err() {
                    break;
                }
                let (id, text) = rx.borrow_and_update().clone();
                if let Some(text) = text
                    && id == current
                    && !send(&mut socket, text).await
                {
                    break;
                }
            }
        }
    }
    stop.store(true, Ordering::SeqCst);
}

fn error(message: impl Into<String>) -> AnalyseEvent {
    AnalyseEvent::Error {
        message: message.into(),
    }
}

/// Analysis number `id` of a connection: its rankings go to `tx` tagged
/// with it. It ends at `max_depth`, at `stop`, or after the server's
/// `--max-analysis-time`, whatever the page does.
async fn analyse(
    app: Arc<App>,
    pos: Position,
    max_depth: i32,
    stop: Arc<AtomicBool>,
    id: u64,
    tx: watch::Sender<Latest>,
) {
    let started = Instant::now();
    let most = app.options.max_analysis_time;
    let stop2 = stop.clone();
    let tx2 = tx.clone();
    let out = with_engine(&app, pos, move |e| {
        let mut last = None;
        for depth in 1..=max_depth {
            let left = most.saturating_sub(started.elapsed());
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
                    let text = AnalyseEvent::Analysis(ranking(e, &a, false)).to_text();
                    tx2.send_replace((id, Some(text)));
                    last = Some(a);
                    if reached < depth {
                        break;
                    }
                }
                Err(err) => return Err(err.to_string()),
            }
        }
        Ok(last.map(|a| ranking(e, &a, true)))
    })
    .await;
    let event = match out {
        Some(Ok(Some(r))) => AnalyseEvent::Analysis(r),
        Some(Ok(None)) => AnalyseEvent::Analysis(Ranking {
            fen: String::new(),
            turn: "white",
            depth: 0,
            nodes: 0,
            done: true,
            actions: Vec::new(),
        }),
        Some(Err(e)) => error(e),
        None => error("the analysis could not run"),
    };
    tx.send_replace((id, Some(event.to_text())));
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
        draw_advantage: DrawAdvantage::default(),
        tables: Tables::default(),
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
        Arc::new(App::new(options, "127.0.0.1:0".parse().unwrap()))
    }

    fn start() -> Position {
        Position {
            variant: Variant::Chess,
            specials: false,
            chess960: false,
            draw_advantage: DrawAdvantage::default(),
            tables: Tables::default(),
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
