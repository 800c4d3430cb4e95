//! One game of `tally serve` as a model: its setup, the game record
//! (Tally's rules), the clocks, Tally's expectation at each of its moves,
//! and the [`GameState`] the page draws. No I/O, no async and none of the
//! server's bookkeeping (searches, pages, timers) here: the server locks a
//! [`ServedGame`] briefly and calls these.
//!
//! Points are the referee's ([`score_game`]) after every change, so the
//! page shows exactly what `tally score` would say for the same actions.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use shakmaty::Color;

use super::protocol::{
    ClockState, DiskPhase, EndingState, GameState, HandicapState, ItemisedAward, Legal, LegalMove,
    PlyState, Think, Totals,
};
use crate::contest::{Format, Rules as ContestRules, Seat};
use crate::pgn::{PgnOut, add_clock, award_comment, game_sans, pgn_of, write_pgn};
use crate::referee::{ScoreRecord, resignation_loses, score_game};
use crate::rules::{Action, AnyGame, Disk, Variant};
use crate::scoring::variants::sets::HandicapGap;
use crate::scoring::{DrawAdvantage, EndContext, Points, Scorer, Tables};
use crate::search::skill::{MAX_ELO, MIN_ELO};
use crate::search::{Limits, Strength};
use crate::with_game;

/// The longest FEN accepted (a legal FEN is under 100 bytes).
pub const MAX_FEN_BYTES: usize = 256;
/// The longest think time per move a page may ask for.
pub const MAX_MOVETIME_MS: u64 = 60_000;
/// The longest clock base a page may ask for (3 hours).
pub const MAX_CLOCK_BASE_MS: u64 = 3 * 3600 * 1000;
/// The most games a contest served in the browser has.
pub const MAX_CONTEST_GAMES: u32 = 100;
/// The shortest clock base (a second: a clock shorter than a network
/// round trip loses before its first move can arrive).
pub const MIN_CLOCK_BASE_MS: u64 = 1000;
/// The largest clock increment (10 minutes).
pub const MAX_CLOCK_INC_MS: u64 = 600_000;
/// The most plies a served game may have: more than any game can last,
/// so that every game ends by its rules. The move-count rule ends a game
/// 100 plies after the last pawn move or capture, and a game has at most
/// 96 pawn moves and 31 captures: 100 · (96 + 31 + 1) = 12,800 plies.
pub const MAX_PLIES: usize = 13_000;

/// Who plays the moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// A person against Tally.
    #[default]
    Engine,
    /// Two people on one screen, Tally as referee.
    People,
}

/// How a game is set up (the JSON a page posts to start one).
#[derive(Clone, Debug, Deserialize, Serialize, Default)]
#[serde(deny_unknown_fields)]
pub struct SetupRequest {
    /// Variant id (default chess).
    pub variant: Option<String>,
    /// `engine` (default) or `people`.
    pub mode: Option<Mode>,
    /// The person's side against Tally: `white` (default) or `black`.
    pub side: Option<String>,
    /// Start FEN (default: the standard position).
    pub fen: Option<String>,
    /// Tally's think time per move, ms (default 1000; ignored on a clock).
    pub movetime: Option<u64>,
    /// A clock: base time, ms.
    pub clock_base: Option<u64>,
    /// A clock: increment per move, ms.
    pub clock_inc: Option<u64>,
    /// Weaker play at this `UCI_Elo`; full strength when absent.
    pub elo: Option<i32>,
    /// Whether special actions are played (default on).
    pub specials: Option<bool>,
    /// Chess960 castling (default off); without a FEN the game starts
    /// from one of the 960 start positions, drawn at random.
    pub chess960: Option<bool>,
    /// Sets: who gets the 1/2 of a plain draw, `black` (default),
    /// `white` or `none` (a contest sets it for each of its games).
    pub draw_advantage: Option<String>,
    /// A contest of several games instead of one: `series:N` or
    /// `tiebreak-match:N` (`,cap=K`), as `tally match --format` reads it.
    pub contest: Option<String>,
    /// A contest: whether a resignation ends it, the resigner losing
    /// (default: as the variant says, on in stylish).
    pub resignation_ends: Option<bool>,
    /// A sets contest: who chose colour for game 1, `first` (default: the
    /// player White in game 1), `second`, or `none`; the other player
    /// holds the draw advantage in every game.
    pub chooser: Option<String>,
    /// Sets against Tally at `elo`: the person's rating. The game is
    /// played with the handicap of the gap between the two ratings (the
    /// handicap table of docs/rules.md) given to the weaker side: the
    /// person when its rating is the lower, else Tally. The weaker side's
    /// values count the table's factor times, it holds the draw advantage,
    /// and the referee and Tally both count so. Equal ratings: no
    /// handicap.
    pub handicap: Option<i32>,
}

/// A checked setup.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    /// The variant.
    pub variant: Variant,
    /// Who plays.
    pub mode: Mode,
    /// The person's side (engine mode).
    pub side: Color,
    /// The start FEN, if not the standard position.
    pub fen: Option<String>,
    /// Tally's think time per move (no clock).
    pub movetime: Duration,
    /// Base and increment, when played on a clock.
    pub clock: Option<(Duration, Duration)>,
    /// `UCI_Elo`, when weakened.
    pub elo: Option<i32>,
    /// Special actions on.
    pub specials: bool,
    /// Chess960 castling.
    pub chess960: bool,
    /// Sets: who gets the 1/2 of a plain draw.
    pub draw_advantage: DrawAdvantage,
    /// Sets against Tally: the person's rating, for the handicap of its
    /// gap to Tally's `elo` ([`Setup::handicap`]).
    pub handicap: Option<i32>,
}

/// The lowest and highest rating a person may give for a handicap.
pub const HANDICAP_RATINGS: std::ops::RangeInclusive<i32> = 0..=4000;

impl SetupRequest {
    /// Checks the request.
    ///
    /// # Errors
    ///
    /// A message naming the bad field.
    pub fn check(&self) -> Result<Setup, String> {
        let variant = match &self.variant {
            None => Variant::Chess,
            Some(v) => Variant::from_id(v).map_err(|e| e.to_string())?,
        };
        let side = match self.side.as_deref() {
            None | Some("white") => Color::White,
            Some("black") => Color::Black,
            Some(_) => return Err("side must be 'white' or 'black'".to_owned()),
        };
        let chess960 = self.chess960.unwrap_or(false);
        let fen = match self.fen.as_deref().map(str::trim) {
            None | Some("") if chess960 => Some(random_chess960_fen()),
            None | Some("") => None,
            Some(f) if f.len() > MAX_FEN_BYTES => {
                return Err(format!("the FEN is longer than {MAX_FEN_BYTES} bytes"));
            }
            Some(f) => Some(f.to_owned()),
        };
        let movetime = self.movetime.unwrap_or(1000);
        if !(1..=MAX_MOVETIME_MS).contains(&movetime) {
            return Err(format!("movetime must be 1 to {MAX_MOVETIME_MS} ms"));
        }
        let clock = match (self.clock_base, self.clock_inc) {
            (None, None) | (Some(0), None | Some(0)) => None,
            (None | Some(0), Some(_)) => {
                return Err("clock_inc needs a clock_base above 0".to_owned());
            }
            (Some(b), inc) => {
                let inc = inc.unwrap_or(0);
                if !(MIN_CLOCK_BASE_MS..=MAX_CLOCK_BASE_MS).contains(&b) || inc > MAX_CLOCK_INC_MS {
                    return Err(format!(
                        "the clock is {MIN_CLOCK_BASE_MS} to {MAX_CLOCK_BASE_MS} ms base and at most {MAX_CLOCK_INC_MS} ms increment"
                    ));
                }
                Some((Duration::from_millis(b), Duration::from_millis(inc)))
            }
        };
        if let Some(e) = self.elo
            && !(MIN_ELO..=MAX_ELO).contains(&e)
        {
            return Err(format!("elo must be {MIN_ELO} to {MAX_ELO}"));
        }
        // A FEN whose castling rights only Chess960 reads plays as
        // Chess960, as everywhere else.
        let chess960 = chess960 || fen.as_deref().is_some_and(crate::rules::fen_needs_chess960);
        let mode = self.mode.unwrap_or_default();
        if let Some(rating) = self.handicap {
            self.check_handicap(variant, mode, rating)?;
        }
        Ok(Setup {
            variant,
            mode,
            side,
            fen,
            movetime: Duration::from_millis(movetime),
            clock,
            elo: self.elo,
            specials: self.specials.unwrap_or(true),
            chess960,
            draw_advantage: match self.draw_advantage.as_deref() {
                None => DrawAdvantage::default(),
                Some(d) => DrawAdvantage::parse(d).map_err(|e| format!("draw_advantage: {e}"))?,
            },
            handicap: self.handicap,
        })
    }

    /// Whether a handicap for a person rated `rating` can be played: sets,
    /// against Tally at a given `elo`, a gap within the handicap table, no
    /// draw advantage of its own (the weaker side holds it), no contest.
    fn check_handicap(&self, variant: Variant, mode: Mode, rating: i32) -> Result<(), String> {
        if variant != Variant::Sets {
            return Err(format!(
                "handicap: a handicap is for sets (the variant is {variant})"
            ));
        }
        if mode != Mode::Engine {
            return Err("handicap: a handicap is for a game against Tally".to_owned());
        }
        if !HANDICAP_RATINGS.contains(&rating) {
            return Err(format!(
                "handicap: the person's rating must be {} to {}",
                HANDICAP_RATINGS.start(),
                HANDICAP_RATINGS.end()
            ));
        }
        let Some(elo) = self.elo else {
            return Err(
                "handicap: give Tally's rating too (elo): the handicap is for the gap between them"
                    .to_owned(),
            );
        };
        crate::scoring::variants::sets::handicap_factor(HandicapGap {
            gap: elo.abs_diff(rating),
            weaker_elo: elo.min(rating).max(0).unsigned_abs(),
        })
        .map_err(|e| format!("handicap: {e}"))?;
        if self.draw_advantage.is_some() {
            return Err(
                "handicap: the weaker side holds the draw advantage (leave out draw_advantage)"
                    .to_owned(),
            );
        }
        if self.contest.is_some() {
            return Err("handicap: a handicap goes with single games, not a contest".to_owned());
        }
        Ok(())
    }

    /// The contest the request asks for, if any: its rules, checked.
    ///
    /// # Errors
    ///
    /// A message naming the bad field.
    pub fn contest_rules(&self, variant: Variant) -> Result<Option<ContestRules>, String> {
        let Some(format) = &self.contest else {
            if self.resignation_ends.is_some() || self.chooser.is_some() {
                return Err("resignation_ends and chooser belong to a contest".to_owned());
            }
            return Ok(None);
        };
        let format: Format = format.parse().map_err(|e| format!("contest: {e}"))?;
        if format.max_games() > MAX_CONTEST_GAMES {
            return Err(format!(
                "contest: a served contest has at most {MAX_CONTEST_GAMES} games, tie-breaks included"
            ));
        }
        // A tie-break match plays dynamic: an unnamed variant is that.
        let variant = match format.fixed_variant() {
            Some(v) if self.variant.is_none() => v,
            _ => variant,
        };
        let mut rules = ContestRules::new(format, variant).map_err(|e| format!("contest: {e}"))?;
        if let Some(r) = self.resignation_ends {
            rules.resignation_ends = r;
        }
        if let Some(c) = &self.chooser {
            rules.chooser = match c.as_str() {
                "none" => None,
                name => Some(Seat::from_name(name).ok_or_else(|| {
                    format!(
                        "chooser must be 'first', 'second' or 'none', not '{}'",
                        crate::text::printable(name)
                    )
                })?),
            };
        }
        if self.draw_advantage.is_some() {
            return Err(
                "draw_advantage is the contest's to set in each game (give chooser)".to_owned(),
            );
        }
        rules.check().map_err(|e| format!("contest: {e}"))?;
        Ok(Some(rules))
    }
}

/// One of the 960 start positions, drawn by the clock.
fn random_chess960_fen() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let n = crate::rng::Rng::new(nanos).below(usize::from(crate::rules::CHESS960_POSITIONS));
    u16::try_from(n)
        .ok()
        .and_then(crate::rules::chess960_fen)
        .unwrap_or_else(|| crate::pgn::STANDARD_FEN.to_owned())
}

impl Setup {
    /// The request that gives this setup back (what a saved game keeps).
    pub fn to_request(&self) -> SetupRequest {
        SetupRequest {
            variant: Some(self.variant.id().to_owned()),
            mode: Some(self.mode),
            side: Some(color_name(self.side).to_owned()),
            fen: self.fen.clone(),
            movetime: Some(self.movetime.as_millis() as u64),
            clock_base: self.clock.map(|c| c.0.as_millis() as u64),
            clock_inc: self.clock.map(|c| c.1.as_millis() as u64),
            elo: self.elo,
            specials: Some(self.specials),
            chess960: Some(self.chess960),
            draw_advantage: (self.variant == Variant::Sets && self.handicap.is_none())
                .then(|| self.draw_advantage.as_str().to_owned()),
            handicap: self.handicap,
            ..SetupRequest::default()
        }
    }

    /// The handicap played, if any: the gap between the person's rating
    /// and Tally's `elo` below the lower of the two, and the weaker side's
    /// colour (the person's when its rating is the lower). Equal ratings:
    /// none.
    pub fn handicap(&self) -> Option<(HandicapGap, Color)> {
        let (rating, elo) = (self.handicap?, self.elo?);
        let g = HandicapGap {
            gap: elo.abs_diff(rating),
            weaker_elo: elo.min(rating).max(0).unsigned_abs(),
        };
        let weaker = if rating < elo { self.side } else { !self.side };
        (g.gap > 0).then_some((g, weaker))
    }

    /// The point tables of the game: the defaults, with the handicap
    /// given to the weaker side when there is one.
    pub fn tables(&self) -> Tables {
        let tables = Tables::default();
        match self.handicap() {
            Some((g, weaker)) => tables.clone().with_handicap(g, weaker).unwrap_or(tables),
            None => tables,
        }
    }
}

fn color_name(c: Color) -> &'static str {
    c.fold_wb("white", "black")
}

/// A served game.
#[derive(Debug)]
pub struct ServedGame {
    /// Its id (the URL names it).
    pub id: String,
    /// Its setup.
    pub setup: Setup,
    game: AnyGame,
    /// The side that lost on time, if one did.
    time_loss: Option<Color>,
    /// Remaining clock time, indexed by `Color as usize`.
    clocks: [Duration; 2],
    /// The clocks when each ply's turn began (by ply), which a take-back
    /// puts back.
    clocks_before: Vec<[Duration; 2]>,
    /// When the side to move's turn began; `None` before the first ply:
    /// the clocks start with the first move, not when the game is made
    /// (a page may open it later), so the first move is not timed.
    turn_started: Option<Instant>,
    /// Tally's expected final margin (White minus Black) when it played
    /// each ply, by ply; `None` for the person's plies.
    expected: Vec<Option<f64>>,
    /// When the game was made, ms since the Unix epoch.
    pub created_ms: u64,
    /// The contest it is a game of, and its number there.
    pub contest: Option<(String, u32)>,
}

/// A game as the list of games shows it.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// Its id.
    pub id: String,
    /// Variant id.
    pub variant: &'static str,
    /// White's name (`You`, `Tally`, `White`).
    pub white: String,
    /// Black's name.
    pub black: String,
    /// Plies played.
    pub plies: usize,
    /// `playing` or `over`.
    pub status: &'static str,
    /// The result in words, once over.
    pub result: Option<String>,
    /// When it was made, ms since the Unix epoch.
    pub created_ms: u64,
}

/// Now, in ms since the Unix epoch.
fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// What the server adds to a game's state: Tally's search.
#[derive(Clone, Debug, Default)]
pub struct Activity {
    /// Whether Tally is searching now.
    pub thinking: bool,
    /// Its latest report.
    pub think: Option<Think>,
    /// How long its last search took.
    pub last_search: Option<Duration>,
}

impl ServedGame {
    /// A new game.
    ///
    /// # Errors
    ///
    /// A bad FEN.
    pub fn new(id: String, setup: Setup) -> Result<ServedGame, String> {
        let game = AnyGame::new_in(
            setup.variant,
            setup.specials,
            setup.chess960,
            setup.fen.as_deref(),
        )
        .map_err(|e| e.to_string())?;
        let base = setup.clock.map_or(Duration::ZERO, |c| c.0);
        Ok(ServedGame {
            id,
            setup,
            game,
            time_loss: None,
            clocks: [base; 2],
            clocks_before: Vec::new(),
            turn_started: None,
            expected: Vec::new(),
            created_ms: now_ms(),
            contest: None,
        })
    }

    /// The names of White and Black: the person and Tally (with its
    /// strength), or two people.
    pub fn names(&self) -> [String; 2] {
        let s = &self.setup;
        let tally = match s.elo {
            Some(e) => format!("Tally ({e})"),
            None => "Tally".to_owned(),
        };
        match s.mode {
            Mode::People => ["White".to_owned(), "Black".to_owned()],
            Mode::Engine if s.side == Color::White => ["You".to_owned(), tally],
            Mode::Engine => [tally, "You".to_owned()],
        }
    }

    /// The game as the list of games shows it.
    pub fn summary(&self) -> Summary {
        let [white, black] = self.names();
        let record = self.record();
        Summary {
            id: self.id.clone(),
            variant: self.setup.variant.id(),
            white,
            black,
            plies: self.game.actions().len(),
            status: if self.is_over() { "over" } else { "playing" },
            result: record
                .decision(resignation_loses(self.setup.variant))
                .map(|d| d.text),
            created_ms: self.created_ms,
        }
    }

    /// The setup of a rematch: the same game with the person's colour
    /// reversed, from the same start position (a random Chess960 one
    /// included).
    pub fn rematch_setup(&self) -> Setup {
        let mut s = self.setup.clone();
        s.side = !s.side;
        if s.fen.is_none() && s.chess960 {
            s.fen = Some(self.game.start_fen());
        }
        s
    }

    /// Restarts the running turn's clock now: Tally's turn is timed from
    /// when its search starts, not from when it waited for a free one.
    pub fn start_turn_clock(&mut self) {
        if self.turn_started.is_some() && !self.is_over() {
            self.turn_started = Some(Instant::now());
        }
    }

    /// The game record.
    pub fn game(&self) -> &AnyGame {
        &self.game
    }

    /// Whether the game is over (by the board, a resignation or the clock).
    pub fn is_over(&self) -> bool {
        self.game.ending().is_some()
    }

    /// Whether it is Tally's turn in a running game.
    pub fn engine_to_move(&self) -> bool {
        self.setup.mode == Mode::Engine && !self.is_over() && self.game.turn() != self.setup.side
    }

    /// How long the running turn has taken on its clock (zero before the
    /// first move).
    fn turn_time(&self) -> Duration {
        self.turn_started.map_or(Duration::ZERO, |t| t.elapsed())
    }

    /// The side whose clock runs: the side to move of a game that has
    /// begun and is not over.
    fn clock_running(&self) -> Option<Color> {
        (self.turn_started.is_some() && !self.is_over()).then(|| self.game.turn())
    }

    /// The remaining time of `color` now (its running turn counted).
    pub fn remaining(&self, color: Color) -> Duration {
        let left = self.clocks[color as usize];
        if self.clock_running() == Some(color) {
            left.saturating_sub(self.turn_time())
        } else {
            left
        }
    }

    /// Ends the game on time if the side to move's clock ran out; whether
    /// it did.
    pub fn check_time(&mut self) -> bool {
        if self.setup.clock.is_none() || self.is_over() {
            return false;
        }
        let mover = self.game.turn();
        if self.remaining(mover) > Duration::ZERO {
            return false;
        }
        self.clocks[mover as usize] = Duration::ZERO;
        with_game!(&mut self.game, |g| g.resign(mover));
        self.time_loss = Some(mover);
        true
    }

    /// Plays an action (UCI move or special word) for the side to move;
    /// `by_engine` when Tally plays it, with the final margin it expected
    /// (White minus Black).
    ///
    /// # Errors
    ///
    /// Why not: not this side's turn, the game is over, the action is not
    /// legal (with the rules' reason).
    pub fn play(&mut self, text: &str, by_engine: Option<Option<f64>>) -> Result<Action, String> {
        if self.check_time() {
            return Err("the game is over: the clock ran out".to_owned());
        }
        if let Some(e) = self.game.ending() {
            return Err(format!("the game is over ({})", self.ending_text(e)));
        }
        if by_engine.is_none() && self.engine_to_move() {
            return Err("it is Tally's turn: wait for its move".to_owned());
        }
        if self.game.actions().len() >= MAX_PLIES {
            return Err(format!("a served game has at most {MAX_PLIES} plies"));
        }
        let mover = self.game.turn();
        let before = self.clocks;
        let action = self.game.play_text(text).map_err(|e| e.to_string())?;
        self.clocks_before.push(before);
        if let Some((_, inc)) = self.setup.clock
            && self.turn_started.is_some()
        {
            let i = mover as usize;
            self.clocks[i] = self.clocks[i].saturating_sub(self.turn_time()) + inc;
        }
        self.turn_started = Some(Instant::now());
        self.expected.push(by_engine.flatten());
        Ok(action)
    }

    /// Resigns for `loser` (the person in engine mode, the side to move
    /// between people).
    ///
    /// # Errors
    ///
    /// When the game is already over.
    pub fn resign(&mut self) -> Result<(), String> {
        if self.is_over() {
            return Err("the game is already over".to_owned());
        }
        let loser = match self.setup.mode {
            Mode::Engine => self.setup.side,
            Mode::People => self.game.turn(),
        };
        self.charge_turn();
        with_game!(&mut self.game, |g| g.resign(loser));
        Ok(())
    }

    /// Counts the running turn's time on its clock (the game stops here).
    fn charge_turn(&mut self) {
        if self.setup.clock.is_some() {
            let i = self.game.turn() as usize;
            self.clocks[i] = self.clocks[i].saturating_sub(self.turn_time());
        }
        if self.turn_started.is_some() {
            self.turn_started = Some(Instant::now());
        }
    }

    /// Takes back the last ply, or against Tally back to the person's
    /// last turn, in a game still running; the clocks show again what they
    /// showed when that turn began.
    ///
    /// # Errors
    ///
    /// When nothing was played.
    pub fn takeback(&mut self) -> Result<(), String> {
        if self.is_over() {
            return Err("the game is over: a finished game is not taken back".to_owned());
        }
        let mut actions: Vec<String> = self.game.actions().iter().map(|a| a.to_string()).collect();
        if actions.is_empty() {
            return Err("nothing to take back".to_owned());
        }
        actions.pop();
        let mut game = self.replay(&actions)?;
        if self.setup.mode == Mode::Engine && game.turn() != self.setup.side && !actions.is_empty()
        {
            actions.pop();
            game = self.replay(&actions)?;
        }
        if let Some(&clocks) = self.clocks_before.get(actions.len()) {
            self.clocks = clocks;
        }
        self.clocks_before.truncate(actions.len());
        self.expected.truncate(actions.len());
        self.game = game;
        self.time_loss = None;
        self.turn_started = (!actions.is_empty()).then(Instant::now);
        Ok(())
    }

    fn replay(&self, actions: &[String]) -> Result<AnyGame, String> {
        let s = &self.setup;
        let mut g = AnyGame::new_in(s.variant, s.specials, s.chess960, s.fen.as_deref())
            .map_err(|e| e.to_string())?;
        for a in actions {
            g.play_text(a).map_err(|e| e.to_string())?;
        }
        Ok(g)
    }

    /// The game's context for the end awards: the clocks (wacky's time
    /// bonus) and whether it was lost on time.
    fn end_context(&self) -> EndContext {
        EndContext {
            clock_secs: self.setup.clock.map(|_| {
                [
                    self.remaining(Color::Black).as_secs(),
                    self.remaining(Color::White).as_secs(),
                ]
            }),
            time_forfeit: self.time_loss.is_some(),
        }
    }

    /// The referee's score of the game so far.
    pub fn record(&self) -> ScoreRecord {
        let mut scorer = Scorer::with_tables(self.setup.variant, self.setup.tables());
        scorer.set_draw_advantage(self.setup.draw_advantage);
        let ctx = self.end_context();
        with_game!(&self.game, |g| score_game(&scorer, g, &ctx))
    }

    fn ending_text(&self, e: crate::rules::Ending) -> String {
        self.record().ending_text().unwrap_or_else(|| e.describe())
    }

    /// The engine's search limits for its move now.
    pub fn limits(&self) -> Limits {
        match self.setup.clock {
            None => Limits {
                movetime: Some(self.setup.movetime),
                ..Limits::default()
            },
            Some((_, inc)) => Limits {
                // Limits index White first.
                time: [
                    Some(self.remaining(Color::White)),
                    Some(self.remaining(Color::Black)),
                ],
                inc: [Some(inc), Some(inc)],
                ..Limits::default()
            },
        }
    }

    /// The strength Tally plays at.
    pub fn strength(&self) -> Strength {
        match self.setup.elo {
            None => Strength::default(),
            Some(elo) => Strength {
                limit: true,
                elo,
                ..Strength::default()
            },
        }
    }

    /// The start FEN and the actions, as text.
    pub fn position_text(&self) -> (String, Vec<String>) {
        (
            self.game.start_fen(),
            self.game.actions().iter().map(|a| a.to_string()).collect(),
        )
    }

    /// The game as an annotated PGN: every ply's award in its comment,
    /// on a clock each side's time left after its last ply (`[%clk]`, what
    /// the referee reads for wacky's time award), the setup in `Tally*`
    /// tags.
    pub fn pgn(&self) -> String {
        let s = &self.setup;
        let (white, black) = match s.mode {
            Mode::People => ("Person", "Person"),
            Mode::Engine if s.side == Color::White => ("Person", "Tally"),
            Mode::Engine => ("Tally", "Person"),
        };
        self.pgn_as("tally serve", "", [white, black])
    }

    /// [`ServedGame::pgn`] with the `Event`, the `Round` (none when empty)
    /// and the players' names given.
    pub fn pgn_as(&self, event: &str, round: &str, names: [&str; 2]) -> String {
        let record = self.record();
        let mut out: PgnOut = with_game!(&self.game, |g| pgn_of(g, &record));
        for (ply, p) in out.plies.iter_mut().zip(&record.plies) {
            ply.comment = award_comment(&p.award, p.mover);
        }
        if self.setup.clock.is_some() {
            for color in [Color::White, Color::Black] {
                let last = record.plies.iter().rposition(|p| p.mover == color);
                if let Some(ply) = last.and_then(|i| out.plies.get_mut(i)) {
                    add_clock(&mut ply.comment, self.remaining(color));
                }
            }
        }
        out.tags.push(("Event".into(), event.into()));
        if !round.is_empty() {
            out.tags.push(("Round".into(), round.into()));
        }
        out.tags.push(("White".into(), names[0].into()));
        out.tags.push(("Black".into(), names[1].into()));
        if let Some(text) = record.ending_text() {
            out.tags.push(("Termination".into(), text));
        }
        out.tags.push((
            "TallyScore".into(),
            format!("white {} black {}", record.total.white, record.total.black),
        ));
        write_pgn(&out)
    }

    /// The game as `--save` writes it: the annotated PGN with the setup,
    /// the actions, the clocks and a resignation in `Tally*` tags, which
    /// [`ServedGame::from_saved`] reads back.
    pub fn to_saved(&self) -> String {
        let setup = serde_json::to_string(&self.setup.to_request()).unwrap_or_default();
        let (_, actions) = self.position_text();
        let loser = match self.game.ending() {
            Some(crate::rules::Ending::Resignation { winner }) => color_name(!winner),
            _ => "",
        };
        let tags = [
            ("TallySetup", setup),
            ("TallyActions", actions.join(" ")),
            ("TallyLoser", loser.to_owned()),
            ("TallyTimeLoss", self.time_loss.is_some().to_string()),
            ("TallyCreated", self.created_ms.to_string()),
            (
                "TallyContest",
                self.contest
                    .as_ref()
                    .map_or_else(String::new, |(id, n)| format!("{id} {n}")),
            ),
            (
                "TallyExpected",
                self.expected
                    .iter()
                    .map(|e| e.map_or_else(|| "-".to_owned(), |x| format!("{x:.3}")))
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
            (
                "TallyClocks",
                format!(
                    "{} {}",
                    self.remaining(Color::White).as_millis(),
                    self.remaining(Color::Black).as_millis()
                ),
            ),
        ];
        let mut text = String::new();
        for (k, v) in tags {
            text.push_str(&format!("[{k} \"{}\"]\n", crate::pgn::escape_tag(&v)));
        }
        text.push_str(&self.pgn());
        text
    }

    /// A game saved by [`ServedGame::to_saved`].
    ///
    /// # Errors
    ///
    /// A message when the text is not such a game.
    pub fn from_saved(id: String, text: &str) -> Result<ServedGame, String> {
        let games = crate::pgn::read_games(text.as_bytes())?;
        let pgn = games.first().ok_or("no game in the file")?;
        let tag = |k: &str| pgn.tag(k).ok_or(format!("no {k} tag"));
        let request: SetupRequest =
            serde_json::from_str(tag("TallySetup")?).map_err(|e| e.to_string())?;
        let mut game = ServedGame::new(id, request.check()?)?;
        for a in tag("TallyActions")?.split_whitespace() {
            game.game.play_text(a).map_err(|e| e.to_string())?;
        }
        let mut clocks = tag("TallyClocks")?
            .split_whitespace()
            .map(|t| t.parse::<u64>().map(Duration::from_millis));
        if let (Some(Ok(w)), Some(Ok(b))) = (clocks.next(), clocks.next()) {
            game.clocks[Color::White as usize] = w;
            game.clocks[Color::Black as usize] = b;
        }
        // The clocks of earlier turns are not saved: a take-back after a
        // restart keeps the saved ones.
        let plies = game.game.actions().len();
        game.clocks_before = vec![game.clocks; plies];
        if let Some(ms) = pgn.tag("TallyCreated").and_then(|t| t.parse().ok()) {
            game.created_ms = ms;
        }
        game.contest = pgn.tag("TallyContest").and_then(|t| {
            let (id, n) = t.split_once(' ')?;
            Some((id.to_owned(), n.parse().ok()?))
        });
        // Tally's expectations (older saves have none).
        game.expected = pgn
            .tag("TallyExpected")
            .unwrap_or("")
            .split_whitespace()
            .map(|t| t.parse::<f64>().ok().filter(|x| x.is_finite()))
            .chain(std::iter::repeat(None))
            .take(plies)
            .collect();
        let loser = match pgn.tag("TallyLoser") {
            Some("white") => Some(Color::White),
            Some("black") => Some(Color::Black),
            _ => None,
        };
        if let Some(l) = loser {
            with_game!(&mut game.game, |g| g.resign(l));
            if pgn.tag("TallyTimeLoss") == Some("true") {
                game.time_loss = Some(l);
            }
        }
        // A game that had begun goes on with its clock running from now
        // (the time the server was down is not charged).
        if !game.game.actions().is_empty() {
            game.turn_started = Some(Instant::now());
        }
        Ok(game)
    }

    /// The state the page draws, with the server's `activity`.
    pub fn state(&self, activity: &Activity) -> GameState {
        let record = self.record();
        let (sans, fens) = with_game!(&self.game, |g| (
            game_sans(g),
            g.nodes()
                .iter()
                .skip(1)
                .map(|n| n.fen())
                .collect::<Vec<_>>()
        ));
        let mut running = Totals::default();
        let plies: Vec<PlyState> = record
            .plies
            .iter()
            .zip(sans)
            .zip(fens)
            .enumerate()
            .map(|(i, ((p, san), fen))| {
                running.white += p.award.white;
                running.black += p.award.black;
                let action = self.game.text(p.action);
                let squares = match p.action {
                    Action::Move(_) => Some([action[0..2].to_owned(), action[2..4].to_owned()]),
                    _ => None,
                };
                PlyState {
                    n: i + 1,
                    mover: color_name(p.mover),
                    fullmove: p.fullmove,
                    san,
                    special: p.action.is_special(),
                    squares,
                    action,
                    fen,
                    award: ItemisedAward {
                        award: p.award,
                        items: p.items.clone(),
                    },
                    running,
                    expected: self.expected.get(i).copied().flatten(),
                }
            })
            .collect();
        let over = self.is_over();
        let s = &self.setup;
        let clock = s.clock.map(|(base, inc)| ClockState {
            base_ms: base.as_millis() as u64,
            inc_ms: inc.as_millis() as u64,
            white_ms: self.remaining(Color::White).as_millis() as u64,
            black_ms: self.remaining(Color::Black).as_millis() as u64,
            running: self.clock_running().map(color_name),
        });
        let ending = record.ending.map(|e| EndingState {
            kind: record.ending_kind().map(|k| k.to_string()),
            text: record.ending_text(),
            winner: e.winner().map(color_name),
        });
        let disk = with_game!(&self.game, |g| g.current().extra.disk);
        GameState {
            id: self.id.clone(),
            variant: s.variant.id(),
            mode: s.mode,
            side: color_name(s.side),
            specials: s.specials,
            chess960: s.chess960,
            elo: s.elo,
            movetime: s.movetime.as_millis() as u64,
            clock,
            start_fen: self.game.start_fen(),
            fen: self.game.fen(),
            turn: color_name(self.game.turn()),
            check: self.game.in_check(),
            disk: disk.disk_holder().map(color_name),
            phase: (s.variant == Variant::Tiebraker).then(|| disk_phase(disk)),
            draw_advantage: (s.variant == Variant::Sets)
                .then(|| {
                    s.tables()
                        .sets
                        .draw_holder(s.draw_advantage)
                        .map(color_name)
                })
                .flatten(),
            handicap: s.handicap().map(|(g, weaker)| HandicapState {
                rating: s.handicap.unwrap_or_default(),
                gap: g.gap,
                weaker: color_name(weaker),
                factor: Points::from_milli(
                    crate::scoring::variants::sets::handicap_factor(g).unwrap_or(1000),
                ),
            }),
            status: if over { "over" } else { "playing" },
            ending,
            result: record.decision(resignation_loses(s.variant)),
            outcome: ItemisedAward {
                award: record.outcome,
                items: record.outcome_items.clone(),
            },
            totals: Totals {
                white: record.total.white,
                black: record.total.black,
            },
            plies,
            legal: if over {
                Legal::default()
            } else {
                self.legal(disk)
            },
            engine_to_move: self.engine_to_move(),
            thinking: activity.thinking,
            think: activity.think.clone(),
            search_ms: activity.last_search.map(|d| d.as_secs_f64() * 1000.0),
            contest: None,
        }
    }

    /// What the side to move may play, and why fewer moves than the board
    /// allows when tiebraker's capture-or-check binds.
    fn legal(&self, disk: Disk) -> Legal {
        let legal = self.game.legal_actions();
        let moves: Vec<LegalMove> = legal
            .iter()
            .filter(|a| !a.is_special())
            .map(|&a| {
                let t = self.game.text(a);
                LegalMove {
                    from: t[0..2].to_owned(),
                    to: t[2..4].to_owned(),
                    promotion: t.get(4..5).map(str::to_owned),
                    uci: t,
                }
            })
            .collect();
        let bound =
            disk.compulsory() && !self.game.in_check() && legal.iter().any(|a| a.is_capture());
        Legal {
            moves,
            specials: legal.iter().filter_map(|a| a.special_word()).collect(),
            limited: bound.then(|| {
                "capture-or-check: a capture is available, so only captures and checks may be played"
                    .to_owned()
            }),
        }
    }
}

/// Tiebraker's disk phase as the page shows it.
fn disk_phase(disk: Disk) -> DiskPhase {
    let side = |c: Color| Some(color_name(c));
    let (phase, first, swap_plies_left) = match disk {
        Disk::None => ("none", None, None),
        Disk::Offered { by } => ("offered", side(by), None),
        Disk::Accepted { disk } => ("accepted", side(disk), None),
        Disk::Swapped { disk, plies } => (
            "swapped",
            side(!disk),
            Some(Disk::SWAP_WINDOW.saturating_sub(plies)).filter(|&n| n > 0),
        ),
        Disk::Restored { first } => ("restored", side(first), None),
    };
    DiskPhase {
        phase,
        first,
        frozen: disk.disk_holder().map(color_name),
        swap_plies_left,
        compulsory: disk.compulsory(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn setup(json: &str) -> Setup {
        serde_json::from_str::<SetupRequest>(json)
            .unwrap()
            .check()
            .unwrap()
    }

    /// The state of `g` as the page reads it.
    fn state(g: &ServedGame) -> Value {
        serde_json::to_value(g.state(&Activity::default())).unwrap()
    }

    /// A served game of the setup `json`.
    fn served(json: &str) -> ServedGame {
        ServedGame::new("t".into(), setup(json)).unwrap()
    }

    #[test]
    fn a_bad_setup_names_its_field() {
        let bad = |j: &str| {
            serde_json::from_str::<SetupRequest>(j)
                .map_err(|e| e.to_string())
                .and_then(|r| r.check())
                .unwrap_err()
        };
        assert!(bad(r#"{"variant":"nope"}"#).contains("nope"));
        assert!(bad(r#"{"side":"red"}"#).contains("side"));
        assert!(bad(r#"{"movetime":0}"#).contains("movetime"));
        assert!(bad(r#"{"elo":5}"#).contains("elo"));
        assert!(bad(r#"{"colour":"white"}"#).contains("colour"));
        // An increment is never dropped without a word with its clock.
        for j in [
            r#"{"clock_base":0,"clock_inc":99999999999}"#,
            r#"{"clock_inc":1000}"#,
        ] {
            assert_eq!(bad(j), "clock_inc needs a clock_base above 0", "{j}");
        }
        assert!(bad(r#"{"clock_base":1000,"clock_inc":99999999999}"#).contains("increment"));
    }

    #[test]
    fn people_play_both_sides_and_totals_match_the_referee() {
        let mut g = served(r#"{"variant":"stylish","mode":"people"}"#);
        for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
            g.play(m, None).unwrap();
        }
        let s = state(&g);
        assert_eq!(s["status"], "over");
        let r = g.record();
        assert_eq!(s["totals"]["black"], r.total.black.to_json());
        assert_eq!(s["plies"][3]["san"], "Qh4#");
        assert!(g.play("e2e4", None).unwrap_err().contains("over"));
    }

    #[test]
    fn tally_s_clock_starts_with_its_search_and_a_saved_game_s_clock_runs_again() {
        let secs = Duration::from_secs;
        let mut g = served(r#"{"side":"white","clock_base":60000,"clock_inc":0}"#);
        g.play("e2e4", None).unwrap();
        assert!(g.engine_to_move());
        // Tally waited 30 s for a free search: not charged.
        g.turn_started = Some(Instant::now() - secs(30));
        assert!(g.remaining(Color::Black) <= secs(30));
        g.start_turn_clock();
        assert!(g.remaining(Color::Black) > secs(59));
        assert_eq!(g.limits().time[1].map(|t| t > secs(59)), Some(true));
        // Saved and read back, the side to move's clock runs on.
        let back = ServedGame::from_saved("t".into(), &g.to_saved()).unwrap();
        assert_eq!(state(&back)["clock"]["running"], "black");
        // Before the first move it does not.
        let fresh = served(r#"{"mode":"people","clock_base":60000}"#);
        let back = ServedGame::from_saved("t".into(), &fresh.to_saved()).unwrap();
        assert_eq!(state(&back)["clock"]["running"], Value::Null);
    }

    #[test]
    fn a_take_back_puts_the_clocks_back_and_a_loss_on_time_stands() {
        let mut g = served(r#"{"mode":"people","clock_base":60000,"clock_inc":1000}"#);
        let secs = Duration::from_secs;
        let ago = |d: Duration| Some(Instant::now() - d);
        // No clock runs before the first move, however long the game
        // waits for it: White's first move is free.
        assert_eq!(state(&g)["clock"]["running"], Value::Null);
        assert_eq!(g.remaining(Color::White), secs(60));
        g.play("e2e4", None).unwrap();
        assert_eq!(g.clocks, [secs(60), secs(60)]);
        assert_eq!(state(&g)["clock"]["running"], "black");
        // Black thinks 10 s over e7e5 (the turn's start set back, not
        // waited for), then White's flag falls.
        g.turn_started = ago(secs(10));
        g.play("e7e5", None).unwrap();
        let black = g.remaining(Color::Black);
        assert!(black <= secs(51) && black > secs(50), "{black:?}");
        g.turn_started = ago(secs(61));
        assert!(g.check_time());
        assert!(g.is_over());
        assert!(g.play("g1f3", None).unwrap_err().contains("over"));
        // A finished game is not taken back (the loss on time stands).
        assert!(g.takeback().unwrap_err().contains("over"));
        assert!(g.is_over());
        // Before the flag falls, a take-back gives Black's turn back with
        // the minute it had then, White's too.
        let mut g = served(r#"{"mode":"people","clock_base":60000,"clock_inc":1000}"#);
        g.play("e2e4", None).unwrap();
        g.turn_started = ago(secs(10));
        g.play("e7e5", None).unwrap();
        g.turn_started = ago(secs(30));
        g.takeback().unwrap();
        assert_eq!(g.clocks, [secs(60), secs(60)]);
        assert!(!g.check_time());
        g.play("e7e5", None).unwrap();
        assert!(!g.check_time(), "White's clock came back");
        assert!(g.remaining(Color::White) > secs(59));
        g.play("g1f3", None).unwrap();
        assert_eq!(g.clocks_before.len(), 3);
        // Back to the start: the clocks stop until a first move again.
        for _ in 0..3 {
            g.takeback().unwrap();
        }
        assert_eq!(g.turn_started, None);
        assert_eq!(g.clocks, [secs(60), secs(60)]);
    }

    #[test]
    fn a_game_on_a_clock_scores_from_its_pgn_as_served() {
        // Wacky pays a mate's winner for the time left: the PGN carries
        // the clocks, so the referee scores it as the page did.
        let mut g =
            served(r#"{"variant":"wacky","mode":"people","clock_base":600000,"clock_inc":0}"#);
        for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
            g.play(m, None).unwrap();
        }
        let served = g.record().total;
        let pgn = crate::pgn::read_games(g.pgn().as_bytes())
            .unwrap()
            .remove(0);
        let scorer = Scorer::new(Variant::Wacky);
        let read = crate::referee::score_input(&scorer, &pgn.input)
            .unwrap()
            .total;
        assert_eq!(read, served);
        // Without the clocks Black, who mated, scores less.
        let mut input = pgn.input.clone();
        input.clocks.clear();
        let without = crate::referee::score_input(&scorer, &input).unwrap().total;
        assert!(without.black < read.black, "{without:?} {read:?}");
        assert_eq!(without.white, read.white);
    }

    #[test]
    fn takeback_against_tally_returns_to_the_persons_turn() {
        let mut g = ServedGame::new("t".into(), setup(r#"{"variant":"chess"}"#)).unwrap();
        g.play("e2e4", None).unwrap();
        assert!(g.engine_to_move());
        assert!(g.play("e7e5", None).unwrap_err().contains("Tally's turn"));
        g.play("e7e5", Some(Some(0.25))).unwrap();
        g.takeback().unwrap();
        assert_eq!(g.game().actions().len(), 0);
        assert!(g.takeback().is_err());
    }

    #[test]
    fn an_illegal_action_says_why_and_changes_nothing() {
        let mut g = ServedGame::new("t".into(), setup(r#"{"mode":"people"}"#)).unwrap();
        let e = g.play("e2e5", None).unwrap_err();
        assert!(e.contains("illegal"), "{e}");
        let e = g.play("disk", None).unwrap_err();
        assert!(e.contains("disk"), "{e}");
        assert!(g.game().actions().is_empty());
    }
}
