//! Contests in the browser: a series or a tie-break match of several
//! games against Tally or between two people, counted by the library's
//! [`Contest`]. A contest owns its games' ids in order; each game knows
//! its contest and number. When a game of a contest ends, the referee's
//! record of it goes to the contest ([`on_change`]); the page starts the
//! next game (`POST /api/contests/ID/next`) with the colours the contest
//! gives, and every game's state carries the contest's table.
//!
//! Players are the contest's seats: the first player is White in game 1
//! (against Tally, the person or Tally as the setup's side says; between
//! people, "Player 1" and "Player 2").

use std::sync::{Arc, Mutex};

use axum::extract::{Path, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use shakmaty::Color;

use super::game::{Mode, ServedGame, Setup};
use super::protocol::{ContestGame, ContestNext, ContestState};
use super::room::Slot;
use super::{App, error, json_response, lock, open_slot, store};
use crate::contest::{Contest, Decision, GameResult, NextGame, Seat, Why};
use crate::rules::Variant;

/// A contest served: the library's count, the setup its games share, the
/// players' names and the games' ids by number.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct ServedContest {
    /// Its id (12 hex digits, like a game's).
    pub id: String,
    /// The count: rules and games played.
    pub contest: Contest,
    /// The players' names, first seat first.
    pub names: [String; 2],
    /// The setup of game 1 as requested (the games' own setups follow
    /// from it and the contest's next game).
    pub setup: super::game::SetupRequest,
    /// The games' ids, by number from 1.
    pub games: Vec<String>,
}

impl ServedContest {
    /// A new contest of `contest` played as `setup` says for game 1.
    pub fn new(id: String, contest: Contest, setup: &Setup) -> ServedContest {
        let names = match setup.mode {
            Mode::People => ["Player 1".to_owned(), "Player 2".to_owned()],
            Mode::Engine => {
                let tally = match setup.elo {
                    Some(e) => format!("Tally ({e})"),
                    None => "Tally".to_owned(),
                };
                if setup.side == Color::White {
                    ["You".to_owned(), tally]
                } else {
                    [tally, "You".to_owned()]
                }
            }
        };
        ServedContest {
            id,
            contest,
            names,
            setup: setup.to_request(),
            games: Vec::new(),
        }
    }

    /// The seat of the person against Tally (the first player when the
    /// person had White in game 1).
    fn person(&self) -> Seat {
        if self.setup.side.as_deref() == Some("black") {
            Seat::Second
        } else {
            Seat::First
        }
    }

    /// The setup of the contest's game `next`: game 1's setup with the
    /// game's variant, the person's colour in it, the disk of a
    /// tie-break game and the sets draw advantage by colour.
    ///
    /// # Errors
    ///
    /// A setup that no longer checks.
    pub fn setup_of(&self, next: &NextGame) -> Result<Setup, String> {
        let mut request = self.setup.clone();
        request.contest = None;
        request.resignation_ends = None;
        request.chooser = None;
        request.draw_advantage = None;
        let mut setup = request.check()?;
        setup.variant = next.variant;
        setup.specials = setup.specials || next.specials;
        setup.draw_advantage = next.draw_advantage_colour;
        setup.side = if next.white == self.person() {
            Color::White
        } else {
            Color::Black
        };
        Ok(setup)
    }

    /// The contest as the page of its game `number` shows it.
    pub fn view(&self, number: u32) -> ContestState {
        let standing = self.contest.standing();
        let rules = self.contest.rules();
        let seat = |s: Seat| s.as_str();
        let games = self
            .contest
            .games()
            .iter()
            .map(|g| ContestGame {
                number: g.number,
                variant: g.variant.id(),
                tiebreak: g.tiebreak,
                white: seat(g.white),
                points: g.points,
                winner: g.winner().map(seat),
                ending: g.ending.map(|e| e.to_string()),
                resigned: g.resigned.map(seat),
            })
            .collect();
        let white = Seat::white_in(number.max(1));
        ContestState {
            id: self.id.clone(),
            format: rules.format.to_string(),
            rules: rules.describe(),
            resignation_ends: rules.resignation_ends,
            names: self.names.clone(),
            number,
            white: seat(white),
            games,
            ids: self.games.clone(),
            totals: standing.totals,
            won: standing.won,
            tied: standing.tied,
            leader: standing.leader().map(seat),
            over: self.contest.is_over(),
            decision: standing.decision.map(|d| self.decision_text(d)),
            next: self.contest.next().map(|n| ContestNext {
                number: n.number,
                variant: n.variant.id(),
                tiebreak: n.tiebreak,
                white: seat(n.white),
                started: (n.number as usize) <= self.games.len(),
            }),
            draw_advantage: rules.draw_advantage().map(seat),
        }
    }

    /// A contest's decision with its words.
    fn decision_text(&self, d: Decision) -> super::protocol::ContestDecision {
        let standing = self.contest.standing();
        let name = |s: Seat| self.names[s.index()].as_str();
        // Against Tally the person is "You": "You win", not "You wins".
        let wins = |s: Seat| match name(s) {
            "You" => "You win".to_owned(),
            n => format!("{n} wins"),
        };
        let [a, b] = standing.totals;
        let sums = format!("{} {a}, {} {b}", self.names[0], self.names[1]);
        let text = match (d.winner, d.why) {
            (None, Why::Tiebreak) => format!("Tied after the tie-breaks: {sums}"),
            (None, _) => format!("Tied: {sums}"),
            (Some(w), Why::Resignation) => {
                let n = self.contest.games().last().map_or(0, |g| g.number);
                format!(
                    "{}: {} resigned in game {n}, which loses whatever the points ({sums})",
                    wins(w),
                    name(w.other())
                )
            }
            (Some(w), Why::Tiebreak) => format!("{} on the tie-break: {sums}", wins(w)),
            (Some(w), Why::Points) => format!("{} on points: {sums}", wins(w)),
        };
        super::protocol::ContestDecision {
            winner: d.winner.map(Seat::as_str),
            why: d.why.as_str(),
            text,
        }
    }
}

/// After a change to a game: a finished game of a contest that the
/// contest has not counted yet is counted, and the contest saved.
pub(super) fn on_change(app: &App, slot: &Slot) {
    let Some(contest) = &slot.contest else {
        return;
    };
    let r = lock(&slot.room);
    let Some((_, number)) = r.game.contest.clone() else {
        return;
    };
    if !r.game.is_over() {
        return;
    }
    let record = r.game.record();
    let white_seat = Seat::white_in(number);
    drop(r);
    let mut c = lock(contest);
    if c.contest.games().len() as u32 + 1 != number {
        return;
    }
    if let Err(e) = c.contest.record(GameResult::of_record(&record, white_seat)) {
        eprintln!("warning: contest {}: game {number} not counted: {e}", c.id);
        return;
    }
    store::save_contest(app, &c);
}

/// Opens game `next` of `contest` and answers its state.
fn open_next(app: &Arc<App>, contest: &Arc<Mutex<ServedContest>>, next: &NextGame) -> Response {
    let (setup, cid) = {
        let c = lock(contest);
        match c.setup_of(next) {
            Ok(s) => (s, c.id.clone()),
            Err(e) => return error(StatusCode::BAD_REQUEST, e),
        }
    };
    let id = super::new_id(app);
    let mut game = match ServedGame::new(id.clone(), setup) {
        Ok(g) => g,
        Err(e) => return error(StatusCode::BAD_REQUEST, e),
    };
    game.contest = Some((cid, next.number));
    let slot = Arc::new(Slot::with_contest(game, Some(contest.clone())));
    if let Err(r) = open_slot(app, id.clone(), slot.clone()) {
        return *r;
    }
    // A contest's game is saved from the start (not from its first move,
    // as a lone game is): the contest names it.
    let text = lock(&slot.room).game.to_saved();
    store::save(app, &id, &text);
    {
        let mut c = lock(contest);
        c.games.push(id);
        store::save_contest(app, &c);
    }
    json_response(StatusCode::OK, &slot.state())
}

/// Starts a contest whose game 1 is `setup`: its first game's state.
pub(super) fn start(app: &Arc<App>, contest: Contest, setup: &Setup) -> Response {
    let Some(next) = contest.next() else {
        return error(StatusCode::BAD_REQUEST, "the contest has no game to play");
    };
    let served = ServedContest::new(super::new_id(app), contest, setup);
    let id = served.id.clone();
    let contest = Arc::new(Mutex::new(served));
    lock(&app.contests).insert(id, contest.clone());
    open_next(app, &contest, &next)
}

/// `POST /api/contests/ID/next`: the contest's next game, opened when
/// the game before it is counted; asked again, the same game.
pub(super) async fn next(State(app): State<Arc<App>>, Path(id): Path<String>) -> Response {
    let Some(contest) = lock(&app.contests).get(&id).cloned() else {
        return no_contest(&id);
    };
    let (next, existing) = {
        let c = lock(&contest);
        let Some(next) = c.contest.next() else {
            return error(
                StatusCode::CONFLICT,
                "the contest is over: no game comes next",
            );
        };
        (next, c.games.get(next.number as usize - 1).cloned())
    };
    if next.number as usize > lock(&contest).games.len() + 1 {
        return error(
            StatusCode::CONFLICT,
            "the contest's game before is not finished",
        );
    }
    if let Some(game) = existing {
        // Game `next` was opened already (a second click, another page).
        return match app.slot(&game) {
            Some(s) => json_response(StatusCode::OK, &s.state()),
            None => super::no_game(&game),
        };
    }
    open_next(&app, &contest, &next)
}

/// `GET /api/contests/ID`: the contest's table.
pub(super) async fn get(State(app): State<Arc<App>>, Path(id): Path<String>) -> Response {
    match lock(&app.contests).get(&id) {
        Some(c) => {
            let c = lock(c);
            json_response(StatusCode::OK, &c.view(c.games.len() as u32))
        }
        None => no_contest(&id),
    }
}

/// `GET /api/contests/ID/pgn`: every game of the contest still kept, in
/// order, each with the contest in its `Event` and its number as `Round`.
pub(super) async fn pgn(State(app): State<Arc<App>>, Path(id): Path<String>) -> Response {
    let Some(contest) = lock(&app.contests).get(&id).cloned() else {
        return no_contest(&id);
    };
    let (ids, names, format, variant) = {
        let c = lock(&contest);
        (
            c.games.clone(),
            c.names.clone(),
            c.contest.rules().format.to_string(),
            c.contest.rules().variant,
        )
    };
    let mut text = String::new();
    for (i, gid) in ids.iter().enumerate() {
        let Some(slot) = app.slot(gid) else {
            continue;
        };
        let number = i as u32 + 1;
        let white = Seat::white_in(number).index();
        let event = format!("tally serve {format} {variant}");
        text.push_str(&lock(&slot.room).game.pgn_as(
            &event,
            &number.to_string(),
            [&names[white], &names[1 - white]],
        ));
        text.push('\n');
    }
    let mut r = (
        [(
            header::CONTENT_TYPE,
            "application/x-chess-pgn; charset=utf-8",
        )],
        text,
    )
        .into_response();
    if let Ok(v) = HeaderValue::from_str(&format!(
        "attachment; filename=\"tally-{}-contest-{id}.pgn\"",
        Variant::id(variant)
    )) {
        r.headers_mut().insert(header::CONTENT_DISPOSITION, v);
    }
    r
}

fn no_contest(id: &str) -> Response {
    error(
        StatusCode::NOT_FOUND,
        format!("no contest '{}' on this server", crate::text::printable(id)),
    )
}
