//! The messages between `tally serve` and its page, as types: what each
//! WebSocket carries in each direction, the state of a game the page
//! draws, and the catalogue of variants. `docs/serve.md` documents them,
//! and the page's JSDoc types (`assets/js/types.js`) mirror them field for
//! field.
//!
//! Incoming messages are enums tagged by `type` that refuse unknown
//! fields and repeated keys; outgoing ones are serialized from these
//! structs only, never built by hand.

use serde::{Deserialize, Serialize};

use crate::referee::Decision;
use crate::scoring::dump::Card;
use crate::scoring::{Award, AwardItem, Points};

use super::game::Mode;

/// A message from a game's page.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum GameRequest {
    /// Play an action for the side to move: a UCI move or a special word.
    Play {
        /// `e2e4`, `e7e8q`, `disk`, ...
        action: String,
    },
    /// Take back the last ply (against Tally, back to the person's turn).
    Takeback,
    /// Resign (the person against Tally; the side to move between people).
    Resign,
    /// Ask for a hint for the side to move.
    Hint,
    /// Ask for the state again.
    State,
}

/// A message from the analyse view.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum AnalyseRequest {
    /// Rank the actions of a position, deepening until stopped.
    Analyse(PositionRequest),
    /// The positions and SAN of a line, to play it out on the board.
    Line(PositionRequest),
    /// Stop the analysis under way.
    Stop,
}

/// A position as the analyse view names it: a variant with a FEN and
/// actions, or a PGN (its first game's last position).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionRequest {
    /// Variant id; the PGN's `Variant` tag when absent, else chess.
    pub variant: Option<String>,
    /// Start FEN (default: the standard position).
    pub fen: Option<String>,
    /// Actions from the FEN, as UCI moves or special words.
    #[serde(default)]
    pub moves: Vec<String>,
    /// A PGN whose first game gives the position.
    pub pgn: Option<String>,
    /// Deepest depth (1 to the server's limit).
    pub depth: Option<i64>,
    /// Chess960 castling.
    pub chess960: Option<bool>,
    /// Whether special actions are ranked (default on).
    pub specials: Option<bool>,
}

/// A message to a game's page.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum GameEvent {
    /// The whole state: on connecting and after every change.
    State {
        /// The state.
        game: Box<GameState>,
    },
    /// Tally's search report while it thinks.
    Think {
        /// The report.
        think: Think,
    },
    /// A hint for the position after `ply` plies.
    Hint(Hint),
    /// Something refused; nothing changed.
    Error {
        /// Why.
        message: String,
    },
}

/// A message to the analyse view.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum AnalyseEvent {
    /// The position an `analyse` request names, before its first ranking.
    Position(AnalysedPosition),
    /// A ranking, after every depth; the last has `done`.
    Analysis(Ranking),
    /// The answer to `line`.
    Line {
        /// SAN of each ply from the start.
        sans: Vec<String>,
        /// The position before the first ply and after each.
        fens: Vec<String>,
    },
    /// Something refused.
    Error {
        /// Why.
        message: String,
    },
}

impl GameEvent {
    /// The message as the socket sends it.
    pub fn to_text(&self) -> String {
        to_text(self)
    }
}

impl AnalyseEvent {
    /// The message as the socket sends it.
    pub fn to_text(&self) -> String {
        to_text(self)
    }
}

fn to_text(v: &impl Serialize) -> String {
    // The types hold plain data; serializing them cannot fail.
    serde_json::to_string(v).unwrap_or_else(|e| {
        format!(
            "{{\"type\":\"error\",\"message\":\"cannot write the message: {}\"}}",
            e.to_string().replace('"', "'")
        )
    })
}

/// Points to each side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Totals {
    /// White's points.
    pub white: Points,
    /// Black's points.
    pub black: Points,
}

/// An award with its points event by event.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ItemisedAward {
    /// The award: `white`, `black`, `events`.
    #[serde(flatten)]
    pub award: Award,
    /// The points of each event, in the order they were paid.
    pub items: Vec<AwardItem>,
}

/// A side, as the messages name it.
pub type Side = &'static str;

/// The state of a game, as the page draws it.
#[derive(Clone, Debug, Serialize)]
pub struct GameState {
    /// The game's id.
    pub id: String,
    /// Variant id.
    pub variant: &'static str,
    /// Who plays.
    pub mode: Mode,
    /// The person's side against Tally.
    pub side: Side,
    /// Special actions on.
    pub specials: bool,
    /// Chess960 castling.
    pub chess960: bool,
    /// Tally's `UCI_Elo`, when weakened.
    pub elo: Option<i32>,
    /// Tally's time a move without a clock, ms.
    pub movetime: u64,
    /// The clocks, when played on one.
    pub clock: Option<ClockState>,
    /// The start position.
    pub start_fen: String,
    /// The position now.
    pub fen: String,
    /// The side to move.
    pub turn: Side,
    /// Whether the side to move is in check.
    pub check: bool,
    /// The side whose king is the tiebraker disk.
    pub disk: Option<Side>,
    /// Tiebraker's disk phase (tiebraker only).
    pub phase: Option<DiskPhase>,
    /// Sets: the side a plain draw's 1/2 goes to (none: nobody).
    pub draw_advantage: Option<Side>,
    /// Sets: the handicap played, when there is one.
    pub handicap: Option<HandicapState>,
    /// `playing` or `over`.
    pub status: &'static str,
    /// How the game ended.
    pub ending: Option<EndingState>,
    /// Who won and why, once over.
    pub result: Option<Decision>,
    /// The ending's own award.
    pub outcome: ItemisedAward,
    /// The running totals (the ending's award included once over).
    pub totals: Totals,
    /// Every ply played.
    pub plies: Vec<PlyState>,
    /// What the side to move may play now.
    pub legal: Legal,
    /// Whether it is Tally's turn.
    pub engine_to_move: bool,
    /// Whether Tally is searching now.
    pub thinking: bool,
    /// Tally's latest search report.
    pub think: Option<Think>,
    /// How long Tally's last search took, ms.
    pub search_ms: Option<f64>,
    /// The contest the game is part of, if any.
    pub contest: Option<ContestState>,
}

/// A contest's table, as the page of one of its games shows it. Players
/// are seats: `first` (White in game 1) and `second`.
#[derive(Clone, Debug, Serialize)]
pub struct ContestState {
    /// The contest's id.
    pub id: String,
    /// `series:4`, `tiebreak-match:2,cap=4`.
    pub format: String,
    /// Its rules in one line.
    pub rules: String,
    /// Whether a resignation ends the contest, the resigner losing it
    /// whatever the sums.
    pub resignation_ends: bool,
    /// The players' names, first seat first.
    pub names: [String; 2],
    /// This game's number.
    pub number: u32,
    /// The seat with White in this game.
    pub white: &'static str,
    /// The games counted so far.
    pub games: Vec<ContestGame>,
    /// Every game's id, by number from 1 (the next one's once started).
    pub ids: Vec<String>,
    /// Each player's points summed, first seat first.
    pub totals: [Points; 2],
    /// Games each player won on points.
    pub won: [u32; 2],
    /// Games with equal points.
    pub tied: u32,
    /// The seat ahead on points.
    pub leader: Option<&'static str>,
    /// Whether the contest is over.
    pub over: bool,
    /// Who won it and why, once over.
    pub decision: Option<ContestDecision>,
    /// The next game, while the contest goes on.
    pub next: Option<ContestNext>,
    /// Sets: the seat holding the draw advantage in every game.
    pub draw_advantage: Option<&'static str>,
}

/// The sets handicap of a served game (`handicap` in its setup).
#[derive(Clone, Debug, Serialize)]
pub struct HandicapState {
    /// The person's rating, as given.
    pub rating: i32,
    /// The gap to Tally's `elo`.
    pub gap: u32,
    /// The weaker side's colour.
    pub weaker: Side,
    /// The factor of the weaker side's values (the handicap table's).
    pub factor: Points,
}

/// A counted game of a contest.
#[derive(Clone, Debug, Serialize)]
pub struct ContestGame {
    /// Its number.
    pub number: u32,
    /// Its variant.
    pub variant: &'static str,
    /// Whether it was a tie-break game.
    pub tiebreak: bool,
    /// The seat that had White.
    pub white: &'static str,
    /// Each seat's points, first seat first.
    pub points: [Points; 2],
    /// The seat with more points.
    pub winner: Option<&'static str>,
    /// How it ended.
    pub ending: Option<String>,
    /// The seat that resigned, if one did.
    pub resigned: Option<&'static str>,
}

/// The next game of a contest.
#[derive(Clone, Debug, Serialize)]
pub struct ContestNext {
    /// Its number.
    pub number: u32,
    /// Its variant.
    pub variant: &'static str,
    /// Whether it is a tie-break game.
    pub tiebreak: bool,
    /// The seat with White.
    pub white: &'static str,
    /// Whether it was opened already (its id is in `ids`).
    pub started: bool,
}

/// How a contest came out.
#[derive(Clone, Debug, Serialize)]
pub struct ContestDecision {
    /// The winning seat; none for a tie.
    pub winner: Option<&'static str>,
    /// `points`, `resignation` or `tiebreak`.
    pub why: &'static str,
    /// In words, with the players' names and sums.
    pub text: String,
}

/// The clocks.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct ClockState {
    /// Base time, ms.
    pub base_ms: u64,
    /// Increment, ms.
    pub inc_ms: u64,
    /// White's time left, ms.
    pub white_ms: u64,
    /// Black's time left, ms.
    pub black_ms: u64,
    /// The side whose clock runs (none before the first move and after
    /// the end).
    pub running: Option<Side>,
}

/// Tiebraker's disk phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct DiskPhase {
    /// `none` (no disk yet), `offered`, `accepted`, `swapped` or
    /// `restored`.
    pub phase: &'static str,
    /// The side that played `disk` (the first player).
    pub first: Option<Side>,
    /// The side whose king is the frozen disk now.
    pub frozen: Option<Side>,
    /// In the swap's window, the plies left that play as dynamic.
    pub swap_plies_left: Option<u8>,
    /// Whether capture-or-check binds the side to move now.
    pub compulsory: bool,
}

/// How a game ended.
#[derive(Clone, Debug, Serialize)]
pub struct EndingState {
    /// The ending's kind (`checkmate`, `time_forfeit`, ...).
    pub kind: Option<String>,
    /// The ending in words.
    pub text: Option<String>,
    /// The board's winner (the mating side, the side that did not
    /// resign), if any.
    pub winner: Option<Side>,
}

/// One ply.
#[derive(Clone, Debug, Serialize)]
pub struct PlyState {
    /// 1-based.
    pub n: usize,
    /// Who played it.
    pub mover: Side,
    /// Its move number.
    pub fullmove: u32,
    /// SAN, or the special word.
    pub san: String,
    /// UCI text, or the special word.
    pub action: String,
    /// Whether it is a special action.
    pub special: bool,
    /// The squares a move left and reached (as the board highlights them;
    /// none for a special action).
    pub squares: Option<[String; 2]>,
    /// The position after it.
    pub fen: String,
    /// What it earned.
    pub award: ItemisedAward,
    /// Both totals after it.
    pub running: Totals,
    /// Tally's expected final margin, White minus Black, when Tally
    /// played this ply (from its search).
    pub expected: Option<f64>,
}

/// What the side to move may play.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Legal {
    /// The moves.
    pub moves: Vec<LegalMove>,
    /// The special words legal now.
    pub specials: Vec<&'static str>,
    /// Why fewer moves than the board allows, when a rule limits them
    /// (tiebraker's capture-or-check).
    pub limited: Option<String>,
}

/// A legal move.
#[derive(Clone, Debug, Serialize)]
pub struct LegalMove {
    /// UCI text.
    pub uci: String,
    /// The square it leaves.
    pub from: String,
    /// The square it reaches (the rook's for Chess960 castling).
    pub to: String,
    /// The promotion piece's letter.
    pub promotion: Option<String>,
}

/// Tally's search report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Think {
    /// Depth reached.
    pub depth: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time, ms.
    pub ms: u64,
    /// Tally's expected margin from here, for itself.
    pub margin: f64,
    /// Mate in N (negative: mated), when the search sees one.
    pub mate: Option<i32>,
    /// The expected final margin, White minus Black, points so far
    /// included.
    pub final_white_minus_black: f64,
    /// The line, UCI.
    pub pv: Vec<String>,
    /// The line, SAN.
    pub pv_san: Vec<String>,
}

/// A hint.
#[derive(Clone, Debug, Serialize)]
pub struct Hint {
    /// The position it is for: after this many plies.
    pub ply: usize,
    /// The action, UCI.
    pub action: String,
    /// The action, SAN.
    pub san: String,
    /// What it earns at once.
    pub award: ItemisedAward,
    /// The expected margin for the side to move.
    pub margin: Option<f64>,
    /// Mate in N, when seen.
    pub mate: Option<i32>,
}

/// The position of an `analyse` request.
#[derive(Clone, Debug, Serialize)]
pub struct AnalysedPosition {
    /// Variant id.
    pub variant: &'static str,
    /// The start FEN.
    pub fen: String,
    /// The actions from it.
    pub moves: Vec<String>,
    /// Their SAN.
    pub sans: Vec<String>,
    /// The position analysed.
    pub fen_now: String,
    /// Chess960 castling.
    pub chess960: bool,
    /// Whether special actions are ranked.
    pub specials: bool,
    /// A word on how the request was read (a PGN's `Variant` tag that the
    /// chosen variant overrode).
    pub note: Option<String>,
}

/// A ranking of every legal action.
#[derive(Clone, Debug, Serialize)]
pub struct Ranking {
    /// The position.
    pub fen: String,
    /// The side to move.
    pub turn: Side,
    /// Depth completed.
    pub depth: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// Whether this is the last ranking of the analysis.
    pub done: bool,
    /// The actions, best first.
    pub actions: Vec<RankedState>,
}

/// One ranked action.
#[derive(Clone, Debug, Serialize)]
pub struct RankedState {
    /// 1-based rank.
    pub rank: usize,
    /// UCI text or special word.
    pub action: String,
    /// SAN.
    pub san: String,
    /// Expected margin for the side to move (none: not searched).
    pub value: Option<f64>,
    /// Mate in N, when seen.
    pub mate: Option<i32>,
    /// What it earns at once (the ending's award included).
    pub award: ItemisedAward,
    /// The line, UCI.
    pub pv: Vec<String>,
    /// The line, SAN.
    pub pv_san: Vec<String>,
    /// Depth of the value.
    pub depth: i32,
}

/// Every variant as the page offers it: its rules card and special
/// actions.
#[derive(Clone, Debug, Serialize)]
pub struct Catalogue {
    /// The variants, in the server's order.
    pub variants: Vec<VariantInfo>,
    /// The weakest `UCI_Elo` Tally plays at.
    pub min_elo: i32,
    /// The strongest.
    pub max_elo: i32,
    /// The default variant of New game.
    pub default_variant: &'static str,
}

/// One variant of the catalogue.
#[derive(Clone, Debug, Serialize)]
pub struct VariantInfo {
    /// Its id.
    pub id: &'static str,
    /// Its scoring in short.
    pub card: Card,
    /// Its special actions with what each does.
    pub specials: Vec<SpecialInfo>,
    /// Whether a resignation loses whatever the points.
    pub resignation_loses: bool,
}

/// A special action of a variant.
#[derive(Clone, Debug, Serialize)]
pub struct SpecialInfo {
    /// Its word.
    pub action: &'static str,
    /// What it does, in one line.
    pub help: &'static str,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(text: &str) -> Result<GameRequest, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }

    #[test]
    fn requests_are_typed_and_refuse_what_they_do_not_know() {
        assert_eq!(
            game(r#"{"type":"play","action":"e2e4"}"#),
            Ok(GameRequest::Play {
                action: "e2e4".into()
            })
        );
        assert_eq!(game(r#"{"type":"takeback"}"#), Ok(GameRequest::Takeback));
        assert!(game(r#"{"type":"fly"}"#).unwrap_err().contains("fly"));
        assert!(game(r#"{"type":"play"}"#).unwrap_err().contains("action"));
        assert!(
            game(r#"{"type":"play","action":"e2e4","x":1}"#)
                .unwrap_err()
                .contains('x')
        );
        // A repeated key is refused, the tag's too: the last one does not
        // silently win.
        assert!(game(r#"{"type":"state","type":"resign"}"#).is_err());
        assert!(game(r#"{"type":"play","action":"e2e4","action":"d2d4"}"#).is_err());
        let a: Result<AnalyseRequest, _> =
            serde_json::from_str(r#"{"type":"analyse","variant":"sets","moves":["e2e4"]}"#);
        assert!(matches!(a, Ok(AnalyseRequest::Analyse(p)) if p.moves == ["e2e4"]));
        let bad: Result<AnalyseRequest, _> =
            serde_json::from_str(r#"{"type":"analyse","fen":"x","fen":"y"}"#);
        assert!(bad.is_err());
    }

    #[test]
    fn events_carry_their_type() {
        let e = GameEvent::Error {
            message: "no".into(),
        };
        assert_eq!(e.to_text(), r#"{"type":"error","message":"no"}"#);
        let l = AnalyseEvent::Line {
            sans: vec!["e4".into()],
            fens: vec![],
        };
        assert_eq!(l.to_text(), r#"{"type":"line","sans":["e4"],"fens":[]}"#);
    }
}
