//! Analysis: which actions score the most points.
//!
//! What lives here: [`analyse_position`] ranks every legal action of the
//! engine's current position by its expected point margin (a full-width
//! MultiPV: the engine reports as many lines as there are root actions),
//! each with the award it earns at once (broken into events, as the
//! referee scores it) and its principal line; [`analyse_game`] walks a
//! whole game and says, for every ply, what it earned, what the best
//! action was worth and how many points the played one gave away. No
//! printing: `tally analyse` formats (PGN, SVG, JSON, text).
//!
//! Values:
//!
//! - A value is the margin (own points minus the opponent's) that the side
//!   to move can expect from here on, counting the action's own award and
//!   nothing banked before it, in the variant's points
//!   ([`Units::to_points`]).
//! - Where the search proved a checkmate or an extinction (the variants
//!   with a decisive band: not stylish or wacky, whose mates are worth
//!   points like any other award), [`SearchValue::mate`] gives the
//!   moves to it (negative when the side to move is the one mated) and
//!   [`SearchValue::points`] the margin at that end.
//! - Values are exact to the point ([`exact_value`]): the search counts in
//!   internal units (about 300 points each in wacky, so that the longest
//!   path of its largest awards fits), so the line's awards are counted
//!   again in points, as the referee counts them, and only the estimate at
//!   the line's end (nothing, where the line ends the game) comes from the
//!   units. Actions whose lines earn different points are never tied by
//!   rounding, and a line that ends the game is worth its exact margin.
//!
//! Whole-game mode searches each position twice at the given limits: once
//! for the best action and, when the game went another way, once more for
//! the played action alone (UCI `searchmoves`), which is much cheaper than
//! a full-width search per ply. "Missed points" is the best value minus the
//! played value, never below zero; when the played action's own search
//! comes out above the best line's (search instability at low depth) the
//! played action counts as the best and nothing is missed.
//!
//! What the tools make of an analysis lives beside it: [`Finish`] (how the
//! game ended), [`annotate`] (the annotated PGN), [`json`] (the JSON of
//! `tally analyse --json`), [`table`] (its text table) and [`report`] (the HTML report, its boards and
//! the points chart); [`setup`] is what an analysis starts from (limits,
//! variant, position). They print nothing; the callers (`tally analyse`, a
//! web page) choose where each goes.

pub mod annotate;
mod finish;
pub mod json;
pub mod report;
pub mod setup;
pub mod table;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use serde::Serialize;
use shakmaty::{CastlingMode, Color};

use crate::engine::Engine;
use crate::eval::Units;
use crate::pgn::san;
use crate::referee::{GameInput, ScoreError, ScoreRecord, score_input};
use crate::rules::{Action, AnyGame, Ending, Game, Pos, RulesError};
pub use crate::scoring::Immediate;
use crate::scoring::{Award, Memo, Points, Scorer, margin};
use crate::search::{Bound, Limits, PvLine, Reporter, Score};
pub use finish::Finish;

/// A search value in points, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SearchValue {
    /// The expected point margin (for a proven end: the margin at it).
    pub points: f64,
    /// Moves to a proven checkmate or extinction: positive when the side to
    /// move wins, negative when it loses; `None` when nothing is proven.
    pub mate: Option<i32>,
    /// Set when the value is only a bound (a search cut short inside an
    /// aspiration window).
    pub bound: Option<ValueBound>,
}

/// Which bound a [`SearchValue`] is when it is not exact; JSON names it
/// `"lower"` or `"upper"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ValueBound {
    /// The true value is at least this (the search failed high).
    Lower,
    /// The true value is at most this (the search failed low).
    Upper,
}

impl SearchValue {
    /// A search value (internal units, decisive band included) in points.
    pub fn from_units(v: i32, units: Units, bound: Option<Bound>) -> SearchValue {
        let bound = bound.and_then(|b| match b {
            Bound::Lower => Some(ValueBound::Lower),
            Bound::Upper => Some(ValueBound::Upper),
            Bound::Exact => None,
        });
        let score = Score::of(v);
        SearchValue {
            points: score.points(units),
            mate: score.moves(),
            bound,
        }
    }

    /// The value for ranking: a proven win above every estimate, a faster
    /// one first; a proven loss below every estimate, a slower one first.
    pub fn rank_key(&self) -> (i32, f64) {
        match self.mate {
            Some(m) if m > 0 => (2000 - m, self.points),
            Some(m) => (-2000 - m, self.points),
            None => (0, self.points),
        }
    }
}

impl std::fmt::Display for SearchValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let points = fmt_points(self.points);
        match self.mate {
            Some(m) if m > 0 => write!(f, "mate in {m} ({points})"),
            Some(m) => write!(f, "mated in {} ({points})", -m),
            None => f.write_str(&points),
        }
    }
}

/// The players' names of a PGN game, White first, made safe to print
/// ([`crate::text::printable`]); `White` and `Black` where a tag is missing.
pub fn player_names(game: &crate::pgn::PgnGame) -> [String; 2] {
    let name = |tag: &Option<String>, or: &str| {
        crate::text::printable(tag.as_deref().unwrap_or(or)).into_owned()
    };
    [name(&game.white, "White"), name(&game.black, "Black")]
}

/// Search limits as text, as the reports name them: `depth 8`, `2000
/// nodes`, `100 ms`, joined with commas.
pub fn limits_text(l: &Limits) -> String {
    let mut parts = Vec::new();
    if let Some(d) = l.depth {
        parts.push(format!("depth {d}"));
    }
    if let Some(n) = l.nodes {
        parts.push(format!("{n} nodes"));
    }
    if let Some(m) = l.movetime {
        parts.push(format!("{} ms", m.as_millis()));
    }
    parts.join(", ")
}

/// A signed point value with up to three decimals, trailing zeros dropped.
pub fn fmt_points(p: f64) -> String {
    let s = format!("{p:+.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.').to_owned();
    if s == "-0" || s == "+0" {
        "0".to_owned()
    } else {
        s
    }
}

/// One root action of a ranked position.
#[derive(Clone, Debug, PartialEq)]
pub struct RankedAction {
    /// 1-based rank; actions the search did not reach come last.
    pub rank: usize,
    /// The action.
    pub action: Action,
    /// The action in SAN (the word for a special action).
    pub san: String,
    /// Its value, `None` if the search stopped before reaching it.
    pub value: Option<SearchValue>,
    /// What it earns at once.
    pub immediate: Immediate,
    /// The principal line, the action first (UCI text).
    pub pv: Vec<String>,
    /// The depth the value comes from.
    pub depth: i32,
}

/// A ranked position.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionAnalysis {
    /// The position (FEN).
    pub fen: String,
    /// The side to move.
    pub turn: Color,
    /// Every legal action, best first.
    pub actions: Vec<RankedAction>,
    /// The depth completed.
    pub depth: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time spent.
    pub time: Duration,
    /// How actions are written: castling as king takes rook in Chess960.
    pub castling: CastlingMode,
}

impl PositionAnalysis {
    /// `action` in UCI text, castling as the position's rules write it.
    pub fn text(&self, action: Action) -> String {
        action.uci(self.castling).to_string()
    }
}

/// Why an analysis could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnalyseError {
    /// The game is over: nothing to rank.
    GameOver(String),
    /// The rules refused something (a bad `searchmoves` entry).
    Rules(RulesError),
    /// The game could not be scored.
    Score(ScoreError),
    /// The limits ended a search before its first depth: nothing valued
    /// (at this ply of a game, counted from 1).
    Unsearched(usize),
}

impl std::fmt::Display for AnalyseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AnalyseError::GameOver(e) => write!(f, "the game is over ({e}): nothing to analyse"),
            AnalyseError::Rules(e) => write!(f, "{e}"),
            AnalyseError::Score(e) => write!(f, "{e}"),
            AnalyseError::Unsearched(ply) => write!(
                f,
                "ply {ply}: the limits ended the search before depth 1, so no action has a value: give more --nodes or --movetime"
            ),
        }
    }
}

impl std::error::Error for AnalyseError {}

impl From<RulesError> for AnalyseError {
    fn from(e: RulesError) -> AnalyseError {
        AnalyseError::Rules(e)
    }
}

/// How the engine's game writes castling: king takes rook in Chess960.
fn castling_of(engine: &Engine) -> CastlingMode {
    if engine.game().chess960() {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    }
}

/// `action` in UCI text as the engine's game writes it.
fn action_text(engine: &Engine, action: Action) -> String {
    engine.game().text(action)
}

/// What `action` earns when played now in `game`, and its SAN.
fn immediate_in<P: Pos>(
    scorer: &Scorer,
    memo: Memo,
    game: &Game<P>,
    action: Action,
) -> (Immediate, String) {
    if !game.legal_actions().contains(&action) {
        return (Immediate::default(), action.to_string());
    }
    let rules = game.rules();
    let before = game.current();
    let imm = scorer.immediate(&rules, &memo, before, game.history(), action);
    let after = rules.play(before, action);
    let mate = matches!(imm.ending, Some(Ending::Checkmate { .. }));
    (imm, san(before, action, &after, mate))
}

/// The value of a searched line in exact points: the referee's awards of
/// the line's actions, in points, plus what the search's value holds
/// beyond the same awards in internal units (the estimate at the line's
/// end; nothing where the line ends the game). The line's value as the
/// search gave it where its actions cannot be replayed.
pub fn exact_value(engine: &Engine, line: &PvLine, units: Units) -> SearchValue {
    Exact::with_units(engine, units).value(line)
}

/// What [`exact_value`] needs of the engine at a search's root, kept apart
/// from it: for a reporter or a callback that outlives the borrow (the UCI
/// loop's margin line, `tally serve`'s thinking stream).
#[derive(Clone, Debug)]
pub struct Exact {
    scorer: Scorer,
    memo: Memo,
    game: AnyGame,
    units: Units,
}

impl Exact {
    /// The engine's current position, in its units.
    pub fn of(engine: &Engine) -> Exact {
        Exact::with_units(engine, engine.units())
    }

    fn with_units(engine: &Engine, units: Units) -> Exact {
        Exact {
            scorer: engine.scorer(),
            memo: engine.memo(),
            game: engine.game().clone(),
            units,
        }
    }

    /// [`exact_value`] of a line searched from this position.
    pub fn value(&self, line: &PvLine) -> SearchValue {
        let searched = SearchValue::from_units(line.value, self.units, line.bound);
        let exact = crate::with_game!(&self.game, |g| exact_points(
            &self.scorer,
            self.memo,
            g,
            line,
            self.units
        ));
        match exact {
            Some(points) => SearchValue { points, ..searched },
            None => searched,
        }
    }
}

/// [`exact_value`]'s points, from the side to move at `game`'s end.
fn exact_points<P: Pos>(
    scorer: &Scorer,
    mut memo: Memo,
    game: &Game<P>,
    line: &PvLine,
    units: Units,
) -> Option<f64> {
    let mut game = game.clone();
    let rules = game.rules();
    // The line's awards from the root's mover: exact, and as the search
    // counted them.
    let mut exact = Points::ZERO;
    let mut counted: i64 = 0;
    for (i, &action) in line.pv.iter().enumerate() {
        let before = game.current().clone();
        let mover = before.pos.turn();
        let imm = scorer.immediate(&rules, &memo, &before, game.history(), action);
        let after = rules.play(&before, action);
        let (award, next) = scorer.action_award(&memo, &before, action, &after);
        let (own, searched) = (imm.margin(mover), units.from_points(margin(&award, mover)));
        if i % 2 == 0 {
            exact += own;
            counted += i64::from(searched);
        } else {
            exact -= own;
            counted -= i64::from(searched);
        }
        memo = next;
        game.play(action).ok()?;
        if game.ending().is_some() {
            // The line ends the game here: its value is its awards (and
            // a line that goes on past the end cannot be replayed).
            return (i + 1 == line.pv.len()).then(|| exact.as_f64());
        }
    }
    let score = Score::of(line.value);
    let rest = i32::try_from(i64::from(score.margin()) - counted).ok()?;
    let rest = match score {
        Score::End { .. } | Score::Tablebase { .. } => units.to_points(rest),
        Score::Margin(_) => units.to_points(units.margin_of(rest)),
    };
    Some(exact.as_f64() + rest)
}

/// What `action` earns when played now in the engine's position, and its
/// SAN.
pub fn immediate(engine: &Engine, action: Action) -> (Immediate, String) {
    let scorer = engine.scorer();
    let memo = engine.memo();
    crate::with_game!(engine.game(), |g| immediate_in(&scorer, memo, g, action))
}

/// Ranks every legal action of the engine's current position by expected
/// point margin, searching to `limits` with as many lines as actions.
/// Special actions are allowed (the engine's own tools always allow them).
/// The engine's MultiPV setting is changed.
///
/// # Errors
///
/// [`AnalyseError::GameOver`] when the position has no legal action.
pub fn analyse_position(
    engine: &mut Engine,
    limits: Limits,
    reporter: &dyn Reporter,
) -> Result<PositionAnalysis, AnalyseError> {
    if !engine.options().specials {
        engine.set_specials(true);
    }
    analyse_position_until(engine, limits, reporter, Arc::new(AtomicBool::new(false)))
}

/// [`analyse_position`] that ends soon after `stop` is set, with the
/// ranking of the last depth completed, and keeps the engine's setting of
/// the special actions (a served game's analysis ranks the actions its
/// game has).
///
/// # Errors
///
/// As [`analyse_position`].
pub fn analyse_position_until(
    engine: &mut Engine,
    limits: Limits,
    reporter: &dyn Reporter,
    stop: Arc<AtomicBool>,
) -> Result<PositionAnalysis, AnalyseError> {
    if let Some(e) = engine.ending() {
        return Err(AnalyseError::GameOver(e.describe()));
    }
    let legal = engine.legal_actions();
    if legal.is_empty() {
        return Err(AnalyseError::GameOver("no legal action".to_owned()));
    }
    engine.set_multipv(legal.len());
    let result = engine.search_until(limits, reporter, stop)?;
    let units = engine.units();
    let mut actions: Vec<RankedAction> = Vec::with_capacity(legal.len());
    for line in &result.lines {
        let Some(&action) = line.pv.first() else {
            continue;
        };
        // Depth 0: the search's pick when depth 1 was cut short, unvalued.
        if line.depth == 0 || actions.iter().any(|r| r.action == action) {
            continue;
        }
        let (imm, text) = immediate(engine, action);
        actions.push(RankedAction {
            rank: 0,
            action,
            san: text,
            value: Some(exact_value(engine, line, units)),
            immediate: imm,
            pv: line.pv.iter().map(|&a| action_text(engine, a)).collect(),
            depth: line.depth,
        });
    }
    // The search ranks by value; ties and bounds keep its order. Actions it
    // did not reach (stopped early) follow in generation order.
    actions.sort_by(|a, b| {
        let ka = a.value.map(|v| v.rank_key());
        let kb = b.value.map(|v| v.rank_key());
        kb.partial_cmp(&ka).unwrap_or(std::cmp::Ordering::Equal)
    });
    for &action in &legal {
        if !actions.iter().any(|r| r.action == action) {
            let (imm, text) = immediate(engine, action);
            actions.push(RankedAction {
                rank: 0,
                action,
                san: text,
                value: None,
                immediate: imm,
                pv: vec![action_text(engine, action)],
                depth: 0,
            });
        }
    }
    for (i, r) in actions.iter_mut().enumerate() {
        r.rank = i + 1;
    }
    Ok(PositionAnalysis {
        fen: engine.fen(),
        turn: engine.turn(),
        actions,
        depth: result.depth,
        nodes: result.nodes,
        time: result.time,
        castling: castling_of(engine),
    })
}

/// The best action of a position, as a whole-game analysis found it.
#[derive(Clone, Debug, PartialEq)]
pub struct BestAction {
    /// The action.
    pub action: Action,
    /// The action in SAN.
    pub san: String,
    /// Its value.
    pub value: SearchValue,
}

/// One analysed ply of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct PlyAnalysis {
    /// 1-based ply number.
    pub ply: usize,
    /// Who played it.
    pub mover: Color,
    /// The move number.
    pub fullmove: u32,
    /// The action played.
    pub action: Action,
    /// The action in SAN.
    pub san: String,
    /// What it earned (the referee's award for the ply).
    pub earned: Award,
    /// The played action's value.
    pub played: SearchValue,
    /// The best action found.
    pub best: BestAction,
    /// Points given away: best value minus played value, never negative.
    pub missed: f64,
    /// Each side's points after this ply, `[white, black]` (the outcome
    /// award included on the last ply).
    pub cumulative: [f64; 2],
}

/// A whole game, analysed.
#[derive(Clone, Debug, PartialEq)]
pub struct GameAnalysis {
    /// The referee's score of the game.
    pub record: ScoreRecord,
    /// Every ply.
    pub plies: Vec<PlyAnalysis>,
    /// Nodes searched in all.
    pub nodes: u64,
    /// How actions are written: castling as king takes rook in Chess960.
    pub castling: CastlingMode,
}

/// What the analysis expects of the rest of the game at one point of it,
/// from White's side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Expected {
    /// The expected final point margin, White minus Black: the points
    /// banked so far plus the searched value of what is still to come.
    pub margin: f64,
    /// Moves to a proven checkmate or extinction from this point: positive
    /// when White delivers it, negative when Black does; `None` when none
    /// is proven or the game has just ended.
    pub mate: Option<i32>,
}

impl GameAnalysis {
    /// `action` in UCI text, castling as the game's rules write it.
    pub fn text(&self, action: Action) -> String {
        action.uci(self.castling).to_string()
    }

    /// The note that game number `game` ended before its last recorded
    /// action, if it did: at which ply, how, and how many actions were
    /// not analysed.
    pub fn ignored_note(&self, game: usize) -> Option<String> {
        let record = &self.record;
        if record.ignored == 0 {
            return None;
        }
        let why = record
            .ending
            .map_or_else(String::new, |e| format!(" ({})", e.describe()));
        Some(format!(
            "note: game {game} ended at ply {}{why}; {} later actions were not analysed",
            record.plies.len(),
            record.ignored
        ))
    }

    /// Points missed by `color` over the game.
    pub fn missed_by(&self, color: Color) -> f64 {
        self.plies
            .iter()
            .filter(|p| p.mover == color)
            .map(|p| p.missed)
            // From +0: a float sum of nothing is -0, printed "-0.0".
            .fold(0.0, |a, b| a + b)
    }

    /// The expected final margin before the first ply (the best value of
    /// the start position) and after every ply (the points banked before
    /// it plus the played action's value, which counts the action's own
    /// award): `plies.len() + 1` entries, empty for a game without plies.
    /// The last entry is the search's view of the final position, not
    /// the result: an outcome the board did not bring (a loss on time) is
    /// in [`PlyAnalysis::cumulative`] only.
    pub fn expected(&self) -> Vec<Expected> {
        let Some(first) = self.plies.first() else {
            return Vec::new();
        };
        let white = |mover: Color, v: f64| if mover.is_white() { v } else { -v };
        let mut out = Vec::with_capacity(self.plies.len() + 1);
        let best = first.best.value;
        out.push(Expected {
            margin: white(first.mover, best.points),
            mate: best
                .mate
                .map(|m| if first.mover.is_white() { m } else { -m }),
        });
        let mut banked = 0.0;
        for p in &self.plies {
            // Moves to the end from the position after the ply: the
            // mover's own count less the ply just played when it wins; the
            // opponent's count (the same number) when it loses.
            let mate = p.played.mate.and_then(|m| {
                let (mover_wins, n) = if m > 0 { (true, m - 1) } else { (false, -m) };
                (n > 0).then_some(if mover_wins == p.mover.is_white() {
                    n
                } else {
                    -n
                })
            });
            out.push(Expected {
                margin: banked + white(p.mover, p.played.points),
                mate,
            });
            banked = p.cumulative[0] - p.cumulative[1];
        }
        out
    }
}

/// One searched line's action and value.
fn best_of(
    engine: &mut Engine,
    limits: Limits,
) -> Result<Option<(Action, SearchValue, u64)>, RulesError> {
    let units = engine.units();
    let r = engine.search(limits, &crate::search::Silent)?;
    // Depth 0: the search's pick when depth 1 was cut short, unvalued.
    Ok(r.lines.first().filter(|l| l.depth > 0).and_then(|l| {
        l.pv.first()
            .map(|&a| (a, exact_value(engine, l, units), r.nodes))
    }))
}

/// Scores a game with the engine's scorer, read under Chess960 castling
/// when the engine is set to it or the game is Chess960
/// ([`GameInput::is_chess960`]); in the latter case the engine is set to
/// Chess960 too, so that it reads the game's positions as the referee did.
///
/// # Errors
///
/// The referee's [`ScoreError`].
pub fn score_for(engine: &mut Engine, input: &GameInput) -> Result<ScoreRecord, ScoreError> {
    let mut input = input.clone();
    input.chess960 |= engine.options().chess960;
    let record = score_input(&engine.scorer(), &input)?;
    if record.chess960 && !engine.options().chess960 {
        engine.set_chess960(true);
    }
    Ok(record)
}

/// Analyses every ply of a game: scores it with the referee, then
/// searches each position before a ply to `limits` (see the module docs).
/// `progress` is called after each ply with `(done, total)`; returning
/// `false` from `keep_going` stops early (the plies so far are returned).
///
/// # Errors
///
/// [`AnalyseError::Score`] when the game cannot be scored (bad FEN,
/// illegal action), [`AnalyseError::Rules`] if a position cannot be set.
pub fn analyse_game(
    engine: &mut Engine,
    input: &GameInput,
    limits: &Limits,
    progress: &mut dyn FnMut(usize, usize),
    keep_going: &dyn Fn() -> bool,
) -> Result<GameAnalysis, AnalyseError> {
    engine.set_specials(true);
    engine.set_multipv(1);
    let record = score_for(engine, input).map_err(AnalyseError::Score)?;
    let texts: Vec<String> = record.plies.iter().map(|p| p.action.to_string()).collect();
    let n = texts.len();
    let mut plies = Vec::with_capacity(n);
    let mut cumulative = [0.0f64; 2];
    let mut nodes = 0;
    for (i, p) in record.plies.iter().enumerate() {
        if !keep_going() {
            break;
        }
        let moves: Vec<&str> = texts[..i].iter().map(String::as_str).collect();
        engine
            .set_position(Some(&record.start_fen), &moves)
            .map_err(|e| AnalyseError::Rules(e.error))?;
        let (_, played_san) = immediate(engine, p.action);
        let best = best_of(engine, limits.clone())?;
        let Some((best_action, best_value, n1)) = best else {
            return Err(AnalyseError::Unsearched(i + 1));
        };
        nodes += n1;
        let (played, best) = if best_action == p.action {
            (best_value, (best_action, best_value))
        } else {
            let only = Limits {
                searchmoves: vec![p.action],
                ..limits.clone()
            };
            let played = match best_of(engine, only)? {
                Some((_, v, n2)) => {
                    nodes += n2;
                    v
                }
                None => best_value,
            };
            if played.rank_key() > best_value.rank_key() {
                (played, (p.action, played))
            } else {
                (played, (best_action, best_value))
            }
        };
        let (_, best_san) = immediate(engine, best.0);
        let missed = if best.0 == p.action {
            0.0
        } else {
            (best.1.points - played.points).max(0.0)
        };
        cumulative[0] += p.award.white.as_f64();
        cumulative[1] += p.award.black.as_f64();
        if i + 1 == n {
            cumulative[0] += record.outcome.white.as_f64();
            cumulative[1] += record.outcome.black.as_f64();
        }
        plies.push(PlyAnalysis {
            ply: i + 1,
            mover: p.mover,
            fullmove: p.fullmove,
            action: p.action,
            san: played_san,
            earned: p.award,
            played,
            best: BestAction {
                action: best.0,
                san: best_san,
                value: best.1,
            },
            missed,
            cumulative: [cumulative[0], cumulative[1]],
        });
        progress(i + 1, n);
    }
    Ok(GameAnalysis {
        record,
        plies,
        nodes,
        castling: castling_of(engine),
    })
}
