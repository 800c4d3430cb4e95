//! A served game with the server's bookkeeping around it: which search
//! runs for it (and the flag that stops it), the pages watching it, the
//! one timer of its clock, and its WebSocket loop.
//!
//! Every change to a game goes the same way ([`commit`]): the game is
//! changed under its lock, stale searches are stopped ([`Room::bump`]),
//! the game is saved (written and synced, with `--save`) and only then is
//! the new state sent to the pages, so a page never shows a ply that a
//! crash could lose.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use tokio::sync::broadcast;

use super::contest::ServedContest;
use super::game::{Activity, ServedGame};
use super::protocol::{GameEvent, GameRequest, GameState, Think};
use super::{App, MAX_MESSAGE_BYTES, SEND_TIMEOUT, lock, search, store};

/// One game with its channel to the pages watching it.
pub(super) struct Slot {
    /// The game and its bookkeeping, under one lock.
    pub room: Mutex<Room>,
    /// The messages to every page of the game, serialized once.
    pub tx: broadcast::Sender<Arc<str>>,
    /// Held while the game is saved and its state sent (one at a time,
    /// so that pages get the states in the order they were saved).
    pub committing: tokio::sync::Mutex<()>,
    /// The contest the game is part of (locked after the room, never
    /// before it).
    pub contest: Option<Arc<Mutex<ServedContest>>>,
}

impl Slot {
    /// A slot for `game`, of no contest.
    pub fn new(game: ServedGame) -> Slot {
        Slot::with_contest(game, None)
    }

    /// A slot for `game` of `contest`.
    pub fn with_contest(game: ServedGame, contest: Option<Arc<Mutex<ServedContest>>>) -> Slot {
        let (tx, _) = broadcast::channel(64);
        Slot {
            room: Mutex::new(Room {
                game,
                live: Live::default(),
            }),
            tx,
            committing: tokio::sync::Mutex::new(()),
            contest,
        }
    }

    /// The state the pages draw, the contest's table included.
    pub fn state(&self) -> GameState {
        let r = lock(&self.room);
        let mut state = r.state();
        if let (Some(c), Some((_, number))) = (&self.contest, &r.game.contest) {
            state.contest = Some(lock(c).view(*number));
        }
        state
    }

    /// The state as the message that carries it.
    pub fn state_event(&self) -> GameEvent {
        GameEvent::State {
            game: Box::new(self.state()),
        }
    }

    /// Sends `event` to every page of the game.
    pub fn send(&self, event: &GameEvent) {
        let _ = self.tx.send(event.to_text().into());
    }
}

/// A game and what the server keeps about it.
pub(super) struct Room {
    /// The game.
    pub game: ServedGame,
    /// The server's bookkeeping.
    pub live: Live,
}

/// What the server keeps about a game besides the game itself.
#[derive(Debug)]
pub(super) struct Live {
    /// Bumped by every change that makes a running search's result stale.
    pub generation: u64,
    /// Whether Tally is searching for this game now.
    pub thinking: bool,
    /// The running search's stop flag.
    pub stop: Option<Arc<AtomicBool>>,
    /// The generation whose hint is being searched, if one is (one at a
    /// time; a change of the game stops it).
    pub hinting: Option<u64>,
    /// The running hint's stop flag.
    pub hint_stop: Option<Arc<AtomicBool>>,
    /// Tally's latest search report, while and after it thinks.
    pub think: Option<Think>,
    /// How long Tally's last search took (its own clock).
    pub last_search: Option<Duration>,
    /// Connections watching the game.
    pub watchers: usize,
    /// When anything last happened (for dropping idle games).
    pub touched: Instant,
    /// The timer that ends the game when the running clock runs out: one
    /// per game, replaced at every change.
    pub timer: Option<tokio::task::AbortHandle>,
}

impl Default for Live {
    fn default() -> Live {
        Live {
            generation: 0,
            thinking: false,
            stop: None,
            hinting: None,
            hint_stop: None,
            think: None,
            last_search: None,
            watchers: 0,
            touched: Instant::now(),
            timer: None,
        }
    }
}

impl Room {
    /// Makes a running search's result stale and stops it: the game
    /// changed (or nobody watches it any more).
    pub fn bump(&mut self) {
        let live = &mut self.live;
        live.generation += 1;
        live.thinking = false;
        live.hinting = None;
        for stop in [live.stop.take(), live.hint_stop.take()]
            .into_iter()
            .flatten()
        {
            stop.store(true, Ordering::SeqCst);
        }
    }

    /// The state of the game alone (its contest's table is the slot's:
    /// [`Slot::state`]).
    pub fn state(&self) -> GameState {
        self.game.state(&Activity {
            thinking: self.live.thinking,
            think: self.live.think.clone(),
            last_search: self.live.last_search,
        })
    }
}

/// Sends the game's state to every page (no change to save: Tally
/// started thinking).
pub(super) fn publish(slot: &Slot) {
    slot.send(&slot.state_event());
}

/// After a change to the game: saves it (`--save`; written and synced)
/// and then sends its state to every page, and resets its clock's timer.
pub(super) async fn commit(app: &Arc<App>, slot: &Arc<Slot>) {
    let _one_at_a_time = slot.committing.lock().await;
    let saved = {
        let mut r = lock(&slot.room);
        r.live.touched = Instant::now();
        let saved = app.options.save.is_some() && !r.game.game().actions().is_empty();
        saved.then(|| (r.game.id.clone(), r.game.to_saved()))
    };
    let (app2, slot2) = (app.clone(), slot.clone());
    let _ = tokio::task::spawn_blocking(move || {
        if let Some((id, text)) = saved {
            store::save(&app2, &id, &text);
        }
        // A finished game of a contest is counted (and the contest saved)
        // before the pages hear of it.
        super::contest::on_change(&app2, &slot2);
    })
    .await;
    slot.send(&slot.state_event());
    clock_watch(app, slot);
}

/// A page's connection to one game: its messages in, the game's updates
/// out. When the last page goes, a running search stops. A page that
/// reads nothing for [`SEND_TIMEOUT`] is dropped.
pub(super) async fn watch(app: Arc<App>, slot: Arc<Slot>, mut socket: WebSocket) {
    let mut updates = slot.tx.subscribe();
    lock(&slot.room).live.watchers += 1;
    flag_if_out(&app, &slot).await;
    let first = slot.state_event().to_text();
    if send(&mut socket, first).await {
        search::engine_turn(&app, &slot);
        clock_watch(&app, &slot);
        loop {
            tokio::select! {
                incoming = socket.recv() => {
                    let reply = match incoming {
                        Some(Ok(Message::Text(text))) => handle(&app, &slot, text.as_str()).await,
                        Some(Ok(Message::Binary(_))) => Some(error("send JSON text messages, not binary")),
                        Some(Ok(Message::Close(_))) | None => break,
                        Some(Err(e)) => {
                            close_if_too_large(&mut socket, &e).await;
                            break;
                        }
                        Some(Ok(_)) => None,
                    };
                    if let Some(r) = reply
                        && !send(&mut socket, r.to_text()).await
                    {
                        break;
                    }
                }
                update = updates.recv() => {
                    let text = match update {
                        Ok(text) => text.to_string(),
                        // Missed messages: the state now says it all.
                        Err(broadcast::error::RecvError::Lagged(_)) => {
                            slot.state_event().to_text()
                        }
                        Err(broadcast::error::RecvError::Closed) => break,
                    };
                    if !send(&mut socket, text).await {
                        break;
                    }
                }
            }
        }
    }
    leave(&slot);
}

/// Writes `text` to the page within [`SEND_TIMEOUT`]; whether it was.
pub(super) async fn send(socket: &mut WebSocket, text: String) -> bool {
    matches!(
        tokio::time::timeout(SEND_TIMEOUT, socket.send(Message::Text(text.into()))).await,
        Ok(Ok(()))
    )
}

/// A message past the socket's bound ends the connection: with the close
/// code that says so (1009), where the socket can still send it.
pub(super) async fn close_if_too_large(socket: &mut WebSocket, e: &axum::Error) {
    if e.to_string().contains("too long") {
        let frame = CloseFrame {
            code: 1009,
            reason: format!("a message is at most {MAX_MESSAGE_BYTES} bytes").into(),
        };
        let _ = tokio::time::timeout(SEND_TIMEOUT, socket.send(Message::Close(Some(frame)))).await;
    }
}

/// A page left: the last one leaving stops Tally's search (it starts
/// again when a page comes back).
fn leave(slot: &Slot) {
    let mut r = lock(&slot.room);
    r.live.watchers = r.live.watchers.saturating_sub(1);
    if r.live.watchers == 0 && r.live.thinking {
        r.bump();
    }
}

fn error(text: impl Into<String>) -> GameEvent {
    GameEvent::Error {
        message: text.into(),
    }
}

/// One message from a page; the direct reply, if any (updates go to
/// every page through the channel).
async fn handle(app: &Arc<App>, slot: &Arc<Slot>, text: &str) -> Option<GameEvent> {
    if text.len() > MAX_MESSAGE_BYTES {
        return Some(error(format!(
            "message too large: {} bytes, at most {MAX_MESSAGE_BYTES}",
            text.len()
        )));
    }
    let request: GameRequest = match serde_json::from_str(text) {
        Ok(r) => r,
        Err(e) => {
            return Some(error(format!(
                "bad message: {e} (types: play, takeback, resign, hint, state)"
            )));
        }
    };
    let (result, was_over) = {
        let mut r = lock(&slot.room);
        let was_over = r.game.is_over();
        let result = match &request {
            GameRequest::Play { action } if action.len() > 16 => {
                Err("an action is a UCI move or a special word".to_owned())
            }
            GameRequest::Play { action } => r.game.play(action, None).map(|_| ()),
            GameRequest::Takeback => r.game.takeback(),
            GameRequest::Resign => r.game.resign(),
            GameRequest::State => {
                drop(r);
                return Some(slot.state_event());
            }
            GameRequest::Hint => {
                drop(r);
                search::hint(app, slot);
                return None;
            }
        };
        if result.is_ok() {
            r.bump();
            r.live.think = None;
        }
        (result, was_over)
    };
    match result {
        Ok(()) => {
            commit(app, slot).await;
            search::engine_turn(app, slot);
            None
        }
        Err(e) => {
            // A move after the flag fell ends the game on time: every page
            // hears of it and the save file keeps it.
            let flagged = {
                let mut r = lock(&slot.room);
                let now_over = !was_over && r.game.is_over();
                if now_over {
                    r.bump();
                }
                now_over
            };
            if flagged {
                commit(app, slot).await;
            }
            Some(error(e))
        }
    }
}

/// Ends the game on time if the side to move's clock ran out, and then
/// saves it and tells the pages.
pub(super) async fn flag_if_out(app: &Arc<App>, slot: &Arc<Slot>) {
    let flagged = {
        let mut r = lock(&slot.room);
        let flagged = r.game.check_time();
        if flagged {
            r.bump();
        }
        flagged
    };
    if flagged {
        commit(app, slot).await;
    }
}

/// The game's one clock timer: while a person's clock runs, ends the game
/// when it runs out. Replaces the timer before it (a change of the game
/// changes when the clock runs out).
pub(super) fn clock_watch(app: &Arc<App>, slot: &Arc<Slot>) {
    let mut r = lock(&slot.room);
    if let Some(old) = r.live.timer.take() {
        old.abort();
    }
    let g = &r.game;
    if g.setup.clock.is_none() || g.is_over() || g.engine_to_move() {
        return;
    }
    let left = g.remaining(g.game().turn());
    let (app, slot2) = (app.clone(), slot.clone());
    let task = tokio::spawn(async move {
        tokio::time::sleep(left + Duration::from_millis(20)).await;
        // On a task of its own, so that a change replacing this timer
        // meanwhile cannot cut the save and the message short.
        tokio::spawn(async move { flag_if_out(&app, &slot2).await });
    });
    r.live.timer = Some(task.abort_handle());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serve::ServeOptions;
    use crate::serve::game::SetupRequest;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_game_has_one_clock_timer_however_often_it_changes() {
        let app = Arc::new(App::new(
            ServeOptions::default(),
            "127.0.0.1:0".parse().unwrap(),
        ));
        let setup: SetupRequest =
            serde_json::from_str(r#"{"mode":"people","clock_base":10800000}"#).unwrap();
        let game = ServedGame::new("000000000001".into(), setup.check().unwrap()).unwrap();
        let slot = Arc::new(Slot::new(game));
        let before = tokio::runtime::Handle::current()
            .metrics()
            .num_alive_tasks();
        // A three-hour clock changed a thousand times (a move and its
        // take-back, again and again): one timer sleeps, not a thousand.
        for _ in 0..500 {
            lock(&slot.room).game.play("e2e4", None).unwrap();
            clock_watch(&app, &slot);
            lock(&slot.room).game.takeback().unwrap();
            clock_watch(&app, &slot);
        }
        // Aborted timers are gone once the runtime has polled them.
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let alive = tokio::runtime::Handle::current()
                .metrics()
                .num_alive_tasks();
            if alive <= before + 1 {
                break;
            }
            assert!(Instant::now() < deadline, "{alive} tasks alive");
            tokio::task::yield_now().await;
        }
        assert!(lock(&slot.room).live.timer.is_some());
    }
}
