//! The referee: a game in, points out, for any variant.
//!
//! What lives here: the typed input of a game ([`GameInput`]: a start
//! position, the actions as SAN or action text, clocks, the recorded
//! result), the typed score ([`ScoreRecord`]: per-ply awards with their
//! events, the ending, the outcome award and the totals) with its JSON and
//! table forms, and the two functions that turn one into the other
//! ([`score_input`], and [`score_game`] for a [`Game`] already played).
//! PGN is read in [`crate::pgn`]. Point values and award rules are not
//! here: they are the [`Scorer`]'s, the same one the search uses.
//!
//! Decisions where the specification is silent:
//!
//! - A decisive recorded result on a game the board has not ended is the
//!   loser's resignation; a draw or unknown result there is ignored. When
//!   the board has ended the game (mate, repetition, a move-count rule...)
//!   the board's ending stands whatever the recorded result says.
//! - A decisive result recorded as a loss on time (PGN `Termination "time
//!   forfeit"`, as cutechess and lichess write it) on a game the board has
//!   not ended is scored as the loser's resignation, as the specification
//!   says, and named a time forfeit ([`ScoreRecord::time_forfeit`], and
//!   `time_forfeit` in the outcome award's events).
//! - Chess960 is a way of reading a game, not a variant: a game reads
//!   under Chess960 castling when its input says so (a `Variant
//!   "Chess960"` tag, `--chess960`) or its FEN's castling rights need it
//!   ([`GameInput::is_chess960`]), under whichever variant scores it.
//! - Actions after the board ended the game (a PGN that goes on past a
//!   threefold repetition, which the specification ends automatically) are
//!   not scored; [`ScoreRecord::ignored`] counts them.

use std::fmt;
use std::fmt::Write as _;

use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};
use shakmaty::san::{San, SanPlus};
use shakmaty::{Color, KnownOutcome};

use crate::rules::{
    Action, Ending, EndingKind, Game, Pos, Rules, RulesError, Variant, fen_needs_chess960,
};
use crate::scoring::{Award, AwardItem, EndContext, Events, Memo, Points, Scorer, itemise};
use crate::with_game;

/// One action of a game as it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlyInput {
    /// A move in SAN (from a PGN).
    San(SanPlus),
    /// A UCI move or a special word (`disk`, `swap`, `restore`, `claim`).
    Text(String),
}

impl fmt::Display for PlyInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlyInput::San(s) => write!(f, "{s}"),
            PlyInput::Text(t) => f.write_str(t),
        }
    }
}

/// A game to score: where it starts, what was played, the clocks and the
/// recorded result.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameInput {
    /// The start position (FEN); the standard position when `None`.
    pub fen: Option<String>,
    /// The actions, in order.
    pub plies: Vec<PlyInput>,
    /// The mover's remaining clock time in whole seconds after each ply,
    /// where known (may be shorter than `plies`).
    pub clocks: Vec<Option<u64>>,
    /// The recorded result, if any.
    pub result: Option<KnownOutcome>,
    /// Whether the recorded result is a loss on time (a PGN `Termination`
    /// of `time forfeit`).
    pub time_forfeit: bool,
    /// Whether the game is Chess960 (a PGN `Variant` tag that says so,
    /// `--chess960`); a FEN whose castling rights only Chess960 reads makes
    /// it one too ([`GameInput::is_chess960`]).
    pub chess960: bool,
}

impl GameInput {
    /// A game from a FEN (or the standard position) and a space-separated
    /// list of UCI moves and special words.
    pub fn from_text(fen: Option<&str>, moves: &str) -> GameInput {
        GameInput {
            fen: fen.map(str::to_owned),
            plies: moves
                .split_whitespace()
                .map(|t| PlyInput::Text(t.to_owned()))
                .collect(),
            ..GameInput::default()
        }
    }

    /// Whether the game is read under Chess960 castling: it says so, or
    /// its FEN has castling rights that only Chess960 reads
    /// ([`fen_needs_chess960`]). The variant's board and points are
    /// independent of it.
    pub fn is_chess960(&self) -> bool {
        self.chess960 || self.fen.as_deref().is_some_and(fen_needs_chess960)
    }
}

/// A recorded result as text: `1-0`, `0-1`, `1/2-1/2`, or `*` (none).
///
/// # Errors
///
/// Any other text: a one-line message naming the option `--result`.
pub fn parse_result(text: &str) -> Result<Option<KnownOutcome>, String> {
    match text.trim() {
        "1-0" => Ok(Some(KnownOutcome::Decisive {
            winner: Color::White,
        })),
        "0-1" => Ok(Some(KnownOutcome::Decisive {
            winner: Color::Black,
        })),
        "1/2-1/2" => Ok(Some(KnownOutcome::Draw)),
        "*" => Ok(None),
        other => Err(format!(
            "invalid --result '{other}' (expected 1-0, 0-1, 1/2-1/2 or *)"
        )),
    }
}

/// Why a game could not be scored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoreError {
    /// The 1-based ply at fault, or `None` for the game as a whole (a bad
    /// FEN, an unknown variant tag).
    pub ply: Option<usize>,
    /// The action as written at that ply, with its move number
    /// (`12... Nf6`), when the ply is known.
    pub at: Option<String>,
    /// What is wrong.
    pub reason: String,
}

impl ScoreError {
    /// An error about the whole game.
    pub fn game(reason: impl fmt::Display) -> ScoreError {
        ScoreError {
            ply: None,
            at: None,
            reason: reason.to_string(),
        }
    }
}

impl fmt::Display for ScoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.ply, &self.at) {
            (Some(p), Some(at)) => write!(f, "ply {p} ({at}): {}", self.reason),
            (Some(p), None) => write!(f, "ply {p}: {}", self.reason),
            _ => f.write_str(&self.reason),
        }
    }
}

impl std::error::Error for ScoreError {}

/// One scored ply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlyScore {
    /// The action played.
    pub action: Action,
    /// Who played it.
    pub mover: Color,
    /// The move number it was played at.
    pub fullmove: u32,
    /// What it earned: the action award, plus on the last ply what it
    /// earned by ending the game ([`Scorer::final_ply_award`]).
    pub award: Award,
    /// The award's points event by event.
    pub items: Vec<AwardItem>,
}

/// A scored game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoreRecord {
    /// The variant it was scored under.
    pub variant: Variant,
    /// Whether it was read and played under Chess960 castling.
    pub chess960: bool,
    /// The start position's FEN.
    pub start_fen: String,
    /// Every ply, in order.
    pub plies: Vec<PlyScore>,
    /// How the game ended; `None` while it runs (no outcome award then).
    pub ending: Option<Ending>,
    /// The ending's own award.
    pub outcome: Award,
    /// The outcome award's points event by event.
    pub outcome_items: Vec<AwardItem>,
    /// The sum of every ply's award and the outcome award.
    pub total: Award,
    /// Actions given after the board had ended the game, not scored.
    pub ignored: usize,
    /// Whether the ending is a loss on time: an [`Ending::Resignation`]
    /// (scored as one) of the side whose time ran out.
    pub time_forfeit: bool,
}

impl ScoreRecord {
    /// Whether every award and both totals are within the reported range
    /// ([`Points::in_reported_range`]), the totals summed exactly: an
    /// award that saturated, or totals that would, fail the game rather
    /// than print a saturated tie.
    ///
    /// # Errors
    ///
    /// [`ScoreError`] naming the first ply or total out of range.
    pub fn check_range(&self) -> Result<(), ScoreError> {
        let wide = |p: Points| i128::from(p.milli());
        let out = |what: String| {
            ScoreError::game(format!(
                "{what} passes 10^15 points, the most a total may be: \
                 a value of this game is too large (a rules file's, or a clock \
                 time of the PGN that wacky pays for)"
            ))
        };
        let mut sums = [wide(self.outcome.white), wide(self.outcome.black)];
        for (i, p) in self.plies.iter().enumerate() {
            for (k, (side, v)) in [("white", p.award.white), ("black", p.award.black)]
                .into_iter()
                .enumerate()
            {
                if !Points::in_reported_range(wide(v)) {
                    return Err(out(format!("ply {}: {side}'s award", i + 1)));
                }
                sums[k] += wide(v);
            }
        }
        for (side, (sum, v)) in ["white", "black"].into_iter().zip(
            sums.into_iter()
                .zip([self.outcome.white, self.outcome.black]),
        ) {
            if !Points::in_reported_range(sum) || !Points::in_reported_range(wide(v)) {
                return Err(out(format!("{side}'s total")));
            }
        }
        Ok(())
    }

    /// The variant as the output names it: its id, with ` (Chess960)`
    /// for a game read under Chess960 castling.
    pub fn variant_text(&self) -> String {
        if self.chess960 {
            format!("{} (Chess960)", self.variant)
        } else {
            self.variant.to_string()
        }
    }

    /// The ending's kind as the output names it: [`Ending::kind`], or
    /// `time_forfeit` for a loss on time; `None` while the game runs.
    pub fn ending_kind(&self) -> Option<EndingKind> {
        match self.ending {
            Some(Ending::Resignation { .. }) if self.time_forfeit => Some(EndingKind::TimeForfeit),
            ending => ending.map(|e| e.kind()),
        }
    }

    /// The ending in words ([`Ending::describe`], or who lost on time);
    /// `None` while the game runs.
    pub fn ending_text(&self) -> Option<String> {
        match self.ending {
            Some(Ending::Resignation { winner }) if self.time_forfeit => Some(format!(
                "time forfeit, {} lost on time",
                if winner.is_white() { "Black" } else { "White" }
            )),
            ending => ending.map(|e| e.describe()),
        }
    }

    /// The record as one line of JSON, with `game` as its first field when
    /// given.
    pub fn to_json(&self, game: Option<usize>) -> String {
        serde_json::to_string(&JsonRecord { record: self, game })
            .unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
    }

    /// The human form: one row per ply (move number, action, points to
    /// White and Black, events), the ending, the outcome and the totals.
    pub fn to_table(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{:>4}  {:<8} {:<8} {:>10} {:>10}  events",
            "ply", "move", "action", "white", "black"
        );
        for (i, p) in self.plies.iter().enumerate() {
            let number = if p.mover.is_white() {
                format!("{}.", p.fullmove)
            } else {
                format!("{}...", p.fullmove)
            };
            let _ = writeln!(
                s,
                "{:>4}  {:<8} {:<8} {:>10} {:>10}  {}",
                i + 1,
                number,
                p.action.to_string(),
                p.award.white.to_string(),
                p.award.black.to_string(),
                p.award.events
            );
        }
        if self.ignored > 0 {
            let _ = writeln!(s, "({} actions after the end not scored)", self.ignored);
        }
        let ending = self
            .ending_text()
            .unwrap_or_else(|| "none (game still running)".to_owned());
        let _ = writeln!(s, "ending:  {ending}");
        let _ = writeln!(
            s,
            "outcome: white {}, black {}{}",
            self.outcome.white,
            self.outcome.black,
            if self.outcome.events.is_empty() {
                String::new()
            } else {
                format!(" ({})", self.outcome.events)
            }
        );
        let _ = writeln!(
            s,
            "total:   white {}, black {}",
            self.total.white, self.total.black
        );
        s
    }
}

/// How a finished game's winner is decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DecidedBy {
    /// The larger total wins (in chess and extinction, the board result:
    /// 1 against 0); equal totals tie.
    Points,
    /// A resignation: the resigner loses whatever the points (stylish's
    /// rule, which a contest may turn on for any variant).
    Resignation,
}

/// Who won a finished game, and by what.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Decision {
    /// The winner (`None`: tied on points).
    #[serde(serialize_with = "color_or_null")]
    pub winner: Option<Color>,
    /// What decided it.
    pub by: DecidedBy,
    /// The decision in words: `Black wins on points, 14 to 10, though
    /// mated`.
    pub text: String,
}

fn color_or_null<S: Serializer>(c: &Option<Color>, s: S) -> Result<S::Ok, S::Error> {
    match c {
        Some(c) => s.serialize_str(c.fold_wb("white", "black")),
        None => s.serialize_none(),
    }
}

/// Whether a resignation loses the game whatever the points, by the
/// variant's own rules: stylish ("resigned player loses regardless of
/// number of points").
pub fn resignation_loses(variant: Variant) -> bool {
    variant == Variant::Stylish
}

impl ScoreRecord {
    /// Who won the finished game and why (`None` while it runs): the
    /// larger total, unless `resignation_loses` and a side resigned (or
    /// lost on time), which then loses whatever the points.
    pub fn decision(&self, resignation_loses: bool) -> Option<Decision> {
        let ending = self.ending?;
        let name = |c: Color| c.fold_wb("White", "Black");
        let (w, b) = (self.total.white, self.total.black);
        let score = |c: Color| {
            let (own, other) = c.fold_wb((w, b), (b, w));
            format!("{own} to {other}")
        };
        if let Ending::Resignation { winner } = ending
            && resignation_loses
        {
            let how = if self.time_forfeit {
                "lost on time"
            } else {
                "resigned"
            };
            return Some(Decision {
                winner: Some(winner),
                by: DecidedBy::Resignation,
                text: format!(
                    "{} wins: {} {how}, which loses whatever the points ({})",
                    name(winner),
                    name(!winner),
                    score(winner)
                ),
            });
        }
        let winner = match w.cmp(&b) {
            std::cmp::Ordering::Greater => Some(Color::White),
            std::cmp::Ordering::Less => Some(Color::Black),
            std::cmp::Ordering::Equal => None,
        };
        let text = match (winner, self.variant) {
            (None, _) => format!("Tied on points, {w} to {b}"),
            (Some(c), Variant::Chess | Variant::Extinction) => format!(
                "{} wins ({})",
                name(c),
                self.ending_text().unwrap_or_default()
            ),
            (Some(c), _) => {
                let mated = matches!(ending, Ending::Checkmate { winner } if winner != c);
                format!(
                    "{} wins on points, {}{}",
                    name(c),
                    score(c),
                    if mated { ", though mated" } else { "" }
                )
            }
        };
        Some(Decision {
            winner,
            by: DecidedBy::Points,
            text,
        })
    }
}

struct JsonRecord<'a> {
    record: &'a ScoreRecord,
    game: Option<usize>,
}

struct JsonTotal<'a>(&'a Award);

impl Serialize for JsonTotal<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry("white", &self.0.white)?;
        m.serialize_entry("black", &self.0.black)?;
        m.end()
    }
}

struct JsonEnding<'a>(&'a ScoreRecord, Ending);

impl Serialize for JsonEnding<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry("kind", &self.0.ending_kind())?;
        m.serialize_entry(
            "winner",
            &self.1.winner().map(|c| c.fold_wb("white", "black")),
        )?;
        m.end()
    }
}

struct JsonPly<'a>(&'a PlyScore);

impl Serialize for JsonPly<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let p = self.0;
        let mut m = s.serialize_map(Some(4))?;
        m.serialize_entry("action", &p.action.to_string())?;
        m.serialize_entry("white", &p.award.white)?;
        m.serialize_entry("black", &p.award.black)?;
        m.serialize_entry("events", &p.award.events)?;
        m.end()
    }
}

struct JsonPlies<'a>(&'a [PlyScore]);

impl Serialize for JsonPlies<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for p in self.0 {
            seq.serialize_element(&JsonPly(p))?;
        }
        seq.end()
    }
}

impl Serialize for JsonRecord<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let r = self.record;
        let mut m = s.serialize_map(None)?;
        if let Some(g) = self.game {
            m.serialize_entry("game", &g)?;
        }
        m.serialize_entry("variant", r.variant.id())?;
        if r.chess960 {
            m.serialize_entry("chess960", &true)?;
        }
        m.serialize_entry("total", &JsonTotal(&r.total))?;
        m.serialize_entry("ending", &r.ending.map(|e| JsonEnding(r, e)))?;
        m.serialize_entry("outcome", &r.outcome)?;
        if r.ignored > 0 {
            m.serialize_entry("ignored_plies", &r.ignored)?;
        }
        m.serialize_entry("plies", &JsonPlies(&r.plies))?;
        m.end()
    }
}

impl Serialize for ScoreRecord {
    /// The JSON object of `tally score --json` (without `game`).
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        JsonRecord {
            record: self,
            game: None,
        }
        .serialize(s)
    }
}

/// Scores a game already played: every action's award, the end awards
/// when the game is over, and the totals, each award with its items (the
/// points of each event, [`itemise`]).
pub fn score_game<P: Pos>(scorer: &Scorer, game: &Game<P>, ctx: &EndContext) -> ScoreRecord {
    let nodes = game.nodes();
    let actions = game.actions();
    let ending = game.ending();
    let mut memo = Memo::default();
    let mut plies = Vec::with_capacity(actions.len());
    for (i, (pair, &action)) in nodes.windows(2).zip(actions).enumerate() {
        let [before, after] = pair else { continue };
        let last = i + 1 == actions.len();
        // The last ply of a finished game shows what the ending pays for
        // it too (a mate), in the same itemised scope, so that an award a
        // mate replaces is itemised as the mate's.
        let ((award, next), items) = itemise(|| {
            let (award, next) = scorer.action_award(&memo, before, action, after);
            let award = match ending {
                Some(e) if last => {
                    let last_ply = scorer.last_ply_award(Some((before, action)), after, &e);
                    scorer.final_ply_award(&award, &last_ply)
                }
                _ => award,
            };
            (award, next)
        });
        memo = next;
        plies.push(PlyScore {
            action,
            mover: before.turn(),
            fullmove: before.pos.fullmoves().get(),
            award,
            items,
        });
    }
    let (outcome, outcome_items) = match ending {
        Some(e) => itemise(|| scorer.outcome_award(&memo, game.current(), &e, ctx)),
        None => (Award::default(), Vec::new()),
    };
    let mut total = Award {
        events: Events::NONE,
        ..outcome
    };
    for p in &plies {
        total.white += p.award.white;
        total.black += p.award.black;
    }
    ScoreRecord {
        variant: scorer.variant(),
        chess960: game.rules().chess960(),
        start_fen: game.start().fen(),
        plies,
        ending,
        outcome,
        outcome_items,
        total,
        ignored: 0,
        time_forfeit: ctx.time_forfeit && matches!(ending, Some(Ending::Resignation { .. })),
    }
}

/// Scores a game given as text: builds it under the scorer's variant,
/// applies the recorded result, and scores it.
///
/// # Errors
///
/// [`ScoreError`] for a bad FEN (no ply) or an action that cannot be
/// read or is not legal (with its ply).
pub fn score_input(scorer: &Scorer, input: &GameInput) -> Result<ScoreRecord, ScoreError> {
    score_input_until(scorer, input, None)
}

/// As [`score_input`], but fails at ply `stop + 1` with `reason` when the
/// game gets that far: how the PGN reader reports a token it could not
/// read, after any earlier error.
pub(crate) fn score_input_until(
    scorer: &Scorer,
    input: &GameInput,
    stop: Option<(usize, String)>,
) -> Result<ScoreRecord, ScoreError> {
    with_game!(crate::rules::AnyRules::of(scorer.variant()), |rules| {
        let rules = rules.with_chess960(input.is_chess960());
        let (game, ignored, ctx) = build(rules, input, stop)?;
        let mut record = score_game(scorer, &game, &ctx);
        record.ignored = ignored;
        Ok(record)
    })
}

/// The move number text of the action at a node (`12.` or `12...`).
fn move_number<P: Pos>(node: &crate::rules::Node<P>) -> String {
    let n = node.pos.fullmoves().get();
    if node.turn().is_white() {
        format!("{n}. ")
    } else {
        format!("{n}... ")
    }
}

fn resolve<P: Pos>(
    rules: &Rules<P>,
    node: &crate::rules::Node<P>,
    ply: &PlyInput,
) -> Result<Action, String> {
    match ply {
        PlyInput::Text(t) => rules.parse_action(node, t).map_err(|e| e.to_string()),
        PlyInput::San(sp) => {
            if sp.san == San::Null {
                return Err("null moves ('--') are not actions of any variant".to_owned());
            }
            let moves = rules.legal_moves(node);
            match sp.san.find_move(&moves) {
                Ok(&m) => Ok(Action::Move(m)),
                Err(shakmaty::san::SanError::AmbiguousSan) => Err(format!("ambiguous move '{sp}'")),
                Err(_) => {
                    let over = moves.is_empty();
                    Err(if over {
                        format!("illegal move '{sp}': the game is over")
                    } else if rules.parse_action(node, &sp.to_string()).is_ok() {
                        // g1f3: a legal UCI move that SAN reads as a pawn's.
                        format!(
                            "illegal move '{sp}' (a legal move in UCI notation; a PGN's moves are in SAN)"
                        )
                    } else {
                        format!("illegal move '{sp}'")
                    })
                }
            }
        }
    }
}

fn build<P: Pos>(
    rules: Rules<P>,
    input: &GameInput,
    stop: Option<(usize, String)>,
) -> Result<(Game<P>, usize, EndContext), ScoreError> {
    let mut game = Game::new(rules, input.fen.as_deref()).map_err(ScoreError::game)?;
    let mut clocks: [Option<u64>; 2] = [None, None];
    let mut ignored = 0;
    for (i, ply) in input.plies.iter().enumerate() {
        if game.ending().is_some() {
            ignored = input.plies.len() - i;
            break;
        }
        let node = game.current();
        let at = || Some(format!("{}{ply}", move_number(node)));
        if let Some((k, reason)) = &stop
            && *k == i
        {
            return Err(ScoreError {
                ply: Some(i + 1),
                at: None,
                reason: reason.clone(),
            });
        }
        let mover = node.turn();
        let action = resolve(&rules, node, ply).map_err(|reason| ScoreError {
            ply: Some(i + 1),
            at: at(),
            reason,
        })?;
        let at_text = at();
        game.play(action).map_err(|e: RulesError| ScoreError {
            ply: Some(i + 1),
            at: at_text,
            reason: e.to_string(),
        })?;
        if let Some(c) = input.clocks.get(i).copied().flatten() {
            clocks[mover as usize] = Some(c);
        }
    }
    // A token the reader could not read, after every ply that could be
    // played: the game is malformed even if it ended before that token.
    if let Some((k, reason)) = stop {
        return Err(ScoreError {
            ply: Some(k + 1),
            at: None,
            reason,
        });
    }
    if let Some(KnownOutcome::Decisive { winner }) = input.result {
        game.resign(!winner);
    }
    let ctx = EndContext {
        clock_secs: (clocks != [None, None]).then(|| clocks.map(|c| c.unwrap_or(0))),
        time_forfeit: input.time_forfeit && input.result.is_some_and(|r| r.winner().is_some()),
    };
    Ok((game, ignored, ctx))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn time_forfeit(moves: &str, result: KnownOutcome) -> ScoreRecord {
        let mut input = GameInput::from_text(None, moves);
        input.result = Some(result);
        input.time_forfeit = true;
        score_input(&Scorer::new(Variant::Chess), &input).expect("a legal game")
    }

    fn decide(variant: Variant, moves: &str, result: Option<KnownOutcome>) -> Decision {
        let mut input = GameInput::from_text(None, moves);
        input.result = result;
        let r = score_input(&Scorer::new(variant), &input).expect("a legal game");
        r.decision(resignation_loses(variant))
            .expect("a finished game")
    }

    #[test]
    fn a_decision_names_the_winner_on_points_and_the_resignation_rule() {
        let white_wins = Some(KnownOutcome::Decisive {
            winner: Color::White,
        });
        // Stylish fool's mate: Black mates with the queen next to the king
        // (h4 is not adjacent to e1: 80), Black 80 to 0.
        let d = decide(Variant::Stylish, "f2f3 e7e5 g2g4 d8h4", None);
        assert_eq!((d.winner, d.by), (Some(Color::Black), DecidedBy::Points));
        assert_eq!(d.text, "Black wins on points, 80 to 0");
        // 1. e4 d5 2. exd5 (a pawn takes a pawn: 5) and Black resigns:
        // White wins, on points and by the rule alike.
        let d = decide(Variant::Stylish, "e2e4 d7d5 e4d5", white_wins);
        assert_eq!(
            (d.winner, d.by),
            (Some(Color::White), DecidedBy::Resignation)
        );
        // 1. e4 d5 2. Bb5+ c6?? ... White resigns after Black took the
        // bishop with the pawn (c6xb5: pawn takes bishop, 10): Black has
        // 10, White 0; White resigned, Black wins by the rule.
        let d = decide(
            Variant::Stylish,
            "e2e4 d7d5 f1b5 c7c6 a2a3 c6b5",
            Some(KnownOutcome::Decisive {
                winner: Color::Black,
            }),
        );
        assert_eq!(d.winner, Some(Color::Black));
        assert!(d.text.contains("White resigned"), "{}", d.text);
        // In dynamic a resignation scores as a mate, 100 to 0, on points.
        let d = decide(Variant::Dynamic, "e2e4", white_wins);
        assert_eq!((d.winner, d.by), (Some(Color::White), DecidedBy::Points));
        assert_eq!(d.text, "White wins on points, 100 to 0");
        // A chess draw ties.
        let d = decide(
            Variant::Chess,
            "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8",
            None,
        );
        assert_eq!(d.winner, None);
        assert_eq!(d.text, "Tied on points, 0.5 to 0.5");
    }

    #[test]
    fn the_winner_on_points_may_have_been_mated() {
        // Stylish, from a composed position: White's pawns take two queens
        // (a pawn takes a queen: 40 each), then Black's queen mates on b1,
        // next to the king (60). White 80, Black 60.
        let input = GameInput::from_text(
            Some("7k/7q/8/1q2q3/2PP4/8/PP1n4/K7 w - - 0 1"),
            "c4b5 h8g8 d4e5 h7b1",
        );
        let r = score_input(&Scorer::new(Variant::Stylish), &input).unwrap();
        let d = r.decision(true).unwrap();
        assert_eq!(d.winner, Some(Color::White));
        assert_eq!(d.text, "White wins on points, 80 to 60, though mated");
    }

    /// A loss on time is named only where the recorded result decides the
    /// game: the board's own ending stands, and a draw result is ignored.
    #[test]
    fn time_forfeit_only_on_a_decisive_result() {
        let black = KnownOutcome::Decisive {
            winner: Color::Black,
        };
        let r = time_forfeit("e2e4", black);
        assert_eq!(r.ending_kind(), Some(EndingKind::TimeForfeit));
        assert_eq!(
            r.ending_text().as_deref(),
            Some("time forfeit, White lost on time")
        );
        let mate = time_forfeit("f2f3 e7e5 g2g4 d8h4", black);
        assert_eq!(mate.ending_kind(), Some(EndingKind::Checkmate));
        assert!(!mate.time_forfeit);
        let draw = time_forfeit("e2e4", KnownOutcome::Draw);
        assert_eq!((draw.ending_kind(), draw.time_forfeit), (None, false));
    }
}
