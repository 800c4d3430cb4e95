//! `stylish` (docs/rules.md, `stylish`): capture, checkmate, promotion and
//! draw awards, with the [`Table`] that holds every one of their point values.
//!
//! What lives here: the award of a move by itself ([`action_award`]:
//! captures and promotions), what a mating move earns on top
//! ([`mate_award`]: the checking piece, double check, discovered mate,
//! coverage, a promoted checker, and the cancelled promotion award), and the
//! draw compensation ([`outcome_award`]). The game is won by whoever has more
//! points; resignation is the referee's business, not a point value.
//!
//! TOML keys of the `[stylish]` section of a rules file (defaults in
//! brackets):
//!
//! - `[stylish.capture]`: one row per capturing piece, each a list of five
//!   values for the captured pawn, bishop, knight, rook and queen, in that
//!   order: `pawn` `[5, 10, 10, 20, 40]`, `minor` (bishop or knight)
//!   `[1, 5, 5, 10, 20]`, `rook` `[1, 5, 5, 10, 17]`, `queen_diagonal`
//!   `[0, 5, 3, 7, 15]`, `queen_orthogonal` `[0, 3, 3, 10, 15]`, `king`
//!   `[3, 10, 10, 20, 50]`.
//! - `[stylish.mate]`: the checking piece's value, `[adjacent, not
//!   adjacent]` for `queen` `[60, 80]`, `rook` `[90, 110]` and `bishop`
//!   `[120, 130]`; one value for `knight` (never adjacent) `[150]` and `pawn`
//!   (always adjacent) `[180]`.
//! - `promoted_mate` `[50]`: added to the value of a checking piece promoted
//!   on the mating move; `discovered` `[50]`; `coverage` `[70]`.
//! - `[stylish.promotion]`: `queen` `[0]`, `rook` `[10]`, `bishop` `[20]`,
//!   `knight` `[20]` (not given when the promoting move mates).
//! - `[stylish.force]`: material for the draw award, `pawn` `[1]`, `knight`
//!   `[3]`, `bishop` `[3]`, `rook` `[5]`, `queen` `[9]`; `max_force` `[39]`: the
//!   force a side starts with; `last_capture` `[50]`: the bare-kings draw
//!   award to the last capturer.

use serde::{Deserialize, Serialize};
use shakmaty::{Bitboard, Board, Color, Move, Role, Square, attacks};

use super::{End, VariantScoring, View};
use crate::rules::{Action, Ending};
use crate::scoring::dump::{Key, key};
use crate::scoring::tables::{exact, largest};
use crate::scoring::{Award, Event, Memo, Points, Tables};

const fn p(n: i64) -> Points {
    Points::whole(n)
}

/// A capture row: points for capturing a pawn, bishop, knight, rook and
/// queen, in that order (the specification's column order).
pub type CaptureRow = [Points; 5];

const fn row(a: i64, b: i64, c: i64, d: i64, e: i64) -> CaptureRow {
    [p(a), p(b), p(c), p(d), p(e)]
}

/// The capture award table (row = capturing piece).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct CaptureTable {
    /// A pawn captures (en passant and capturing promotions included).
    #[serde(deserialize_with = "exact")]
    pub pawn: CaptureRow,
    /// A bishop or a knight captures.
    #[serde(deserialize_with = "exact")]
    pub minor: CaptureRow,
    /// A rook captures.
    #[serde(deserialize_with = "exact")]
    pub rook: CaptureRow,
    /// A queen captures along a diagonal.
    #[serde(deserialize_with = "exact")]
    pub queen_diagonal: CaptureRow,
    /// A queen captures along a rank or file.
    #[serde(deserialize_with = "exact")]
    pub queen_orthogonal: CaptureRow,
    /// A king captures.
    #[serde(deserialize_with = "exact")]
    pub king: CaptureRow,
}

impl Default for CaptureTable {
    fn default() -> CaptureTable {
        CaptureTable {
            pawn: row(5, 10, 10, 20, 40),
            minor: row(1, 5, 5, 10, 20),
            rook: row(1, 5, 5, 10, 17),
            queen_diagonal: row(0, 5, 3, 7, 15),
            queen_orthogonal: row(0, 3, 3, 10, 15),
            king: row(3, 10, 10, 20, 50),
        }
    }
}

impl CaptureTable {
    /// The award for `m` capturing `captured`.
    fn award(&self, m: Move, captured: Role) -> Points {
        match m.from() {
            Some(from) => self.value(m.role(), from, m.to(), captured),
            None => Points::ZERO,
        }
    }

    /// The award for a `capturer` moving from `from` to `to` and taking
    /// `captured` (the queen's row depends on the direction).
    pub fn value(&self, capturer: Role, from: Square, to: Square, captured: Role) -> Points {
        let r = match capturer {
            Role::Pawn => &self.pawn,
            Role::Knight | Role::Bishop => &self.minor,
            Role::Rook => &self.rook,
            Role::Queen => {
                if from.file() == to.file() || from.rank() == to.rank() {
                    &self.queen_orthogonal
                } else {
                    &self.queen_diagonal
                }
            }
            Role::King => &self.king,
        };
        match captured {
            Role::Pawn => r[0],
            Role::Bishop => r[1],
            Role::Knight => r[2],
            Role::Rook => r[3],
            Role::Queen => r[4],
            // A king is never captured in standard chess.
            Role::King => Points::ZERO,
        }
    }
}

/// The checkmate table: the value of a checking piece.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct MateTable {
    /// A checking queen: `[adjacent, not adjacent]`.
    #[serde(deserialize_with = "exact")]
    pub queen: [Points; 2],
    /// A checking rook: `[adjacent, not adjacent]`.
    #[serde(deserialize_with = "exact")]
    pub rook: [Points; 2],
    /// A checking bishop: `[adjacent, not adjacent]`.
    #[serde(deserialize_with = "exact")]
    pub bishop: [Points; 2],
    /// A checking knight (never adjacent).
    pub knight: Points,
    /// A checking pawn (always adjacent).
    pub pawn: Points,
}

impl Default for MateTable {
    fn default() -> MateTable {
        MateTable {
            queen: [p(60), p(80)],
            rook: [p(90), p(110)],
            bishop: [p(120), p(130)],
            knight: p(150),
            pawn: p(180),
        }
    }
}

impl MateTable {
    /// The value of a checking `role`, adjacent to the mated king or not.
    fn value(&self, role: Role, adjacent: bool) -> Points {
        let i = usize::from(!adjacent);
        match role {
            Role::Queen => self.queen[i],
            Role::Rook => self.rook[i],
            Role::Bishop => self.bishop[i],
            Role::Knight => self.knight,
            Role::Pawn => self.pawn,
            // A king never gives check.
            Role::King => Points::ZERO,
        }
    }
}

/// The promotion award, by the piece promoted to.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct PromotionTable {
    /// Promotion to a queen.
    pub queen: Points,
    /// Promotion to a rook.
    pub rook: Points,
    /// Promotion to a bishop.
    pub bishop: Points,
    /// Promotion to a knight.
    pub knight: Points,
}

impl Default for PromotionTable {
    fn default() -> PromotionTable {
        PromotionTable {
            queen: p(0),
            rook: p(10),
            bishop: p(20),
            knight: p(20),
        }
    }
}

impl PromotionTable {
    fn value(&self, role: Role) -> Points {
        match role {
            Role::Queen => self.queen,
            Role::Rook => self.rook,
            Role::Bishop => self.bishop,
            Role::Knight => self.knight,
            Role::Pawn | Role::King => Points::ZERO,
        }
    }
}

/// Material values for the draw award.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct ForceTable {
    /// A pawn.
    pub pawn: Points,
    /// A knight.
    pub knight: Points,
    /// A bishop.
    pub bishop: Points,
    /// A rook.
    pub rook: Points,
    /// A queen.
    pub queen: Points,
}

impl Default for ForceTable {
    fn default() -> ForceTable {
        ForceTable {
            pawn: p(1),
            knight: p(3),
            bishop: p(3),
            rook: p(5),
            queen: p(9),
        }
    }
}

impl ForceTable {
    /// The non-royal material of `color` on `board`.
    fn of(&self, board: &Board, color: Color) -> Points {
        let ours = board.by_color(color);
        let n = |bb: Bitboard| (bb & ours).count() as i64;
        self.pawn * n(board.pawns())
            + self.knight * n(board.knights())
            + self.bishop * n(board.bishops())
            + self.rook * n(board.rooks())
            + self.queen * n(board.queens())
    }
}

/// The stylish point table: every value of the `stylish` section of
/// docs/rules.md.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Table {
    /// Capture awards.
    pub capture: CaptureTable,
    /// Checkmate values of the checking pieces.
    pub mate: MateTable,
    /// Added to a checking piece promoted on the mating move.
    pub promoted_mate: Points,
    /// A discovered mate.
    pub discovered: Points,
    /// The coverage bonus of a discovered mate.
    pub coverage: Points,
    /// Promotion awards.
    pub promotion: PromotionTable,
    /// Material values for the draw award.
    pub force: ForceTable,
    /// The force a side starts with (39).
    pub max_force: Points,
    /// The draw award to the last capturer when only the kings, or the
    /// kings and one bishop or knight, remain.
    pub last_capture: Points,
}

impl Default for Table {
    fn default() -> Table {
        Table {
            capture: CaptureTable::default(),
            mate: MateTable::default(),
            promoted_mate: p(50),
            discovered: p(50),
            coverage: p(70),
            promotion: PromotionTable::default(),
            force: ForceTable::default(),
            max_force: p(39),
            last_capture: p(50),
        }
    }
}

impl Table {
    /// The largest magnitude of what one action earns by itself: a
    /// capture award and a promotion award.
    pub fn action_bound(&self) -> Points {
        let c = &self.capture;
        let captures = [
            c.pawn,
            c.minor,
            c.rook,
            c.queen_diagonal,
            c.queen_orthogonal,
            c.king,
        ];
        largest(captures.into_iter().flatten()) + self.promotion_bound()
    }

    /// The largest magnitude of a promotion award.
    fn promotion_bound(&self) -> Points {
        let p = &self.promotion;
        largest([p.queen, p.rook, p.bishop, p.knight])
    }

    /// The largest margin an ending adds: a mate's award (the checking
    /// piece, a promoted checker, discovered mate, coverage, the promotion
    /// award it cancels) or a draw award. A side has at most 15 non-royal
    /// pieces (positions with more than 16 pieces a side are refused), so
    /// its force is at most 15 times the largest force value.
    pub fn end_bound(&self) -> Points {
        let m = &self.mate;
        let checker = largest(
            m.queen
                .into_iter()
                .chain(m.rook)
                .chain(m.bishop)
                .chain([m.knight, m.pawn]),
        );
        let mate = checker
            + self.promoted_mate.abs()
            + self.discovered.abs()
            + self.coverage.abs()
            + self.promotion_bound();
        let f = &self.force;
        let side = largest([f.pawn, f.knight, f.bishop, f.rook, f.queen]) * 15;
        // (theirs - own) + max(0, max_force - own).
        let compensation = side * 3 + self.max_force.abs();
        mate.max(compensation).max(self.last_capture.abs())
    }
}

/// The award of a move by itself: the capture award and the promotion award
/// (the latter is taken back by [`mate_award`] when the move mates).
pub fn action_award(t: &Table, before: View, action: Action) -> Award {
    let mut award = Award::default();
    let Action::Move(m) = action else {
        return award;
    };
    let mover = before.turn;
    if let Some(captured) = m.capture() {
        award.give(mover, t.capture.award(m, captured), Event::Capture);
    }
    if let Some(role) = m.promotion() {
        award.give(mover, t.promotion.value(role), Event::Promotion);
    }
    award
}

/// The square the moved piece lands on as UCI writes the move (the king's
/// destination for castling), and every square a moved piece lands on.
fn landing(m: Move, mover: Color) -> (Square, Bitboard) {
    match m {
        Move::Castle { .. } => {
            let side = m
                .castling_side()
                .unwrap_or(shakmaty::CastlingSide::KingSide);
            let king = side.king_to(mover);
            (
                king,
                Bitboard::from(king) | Bitboard::from(side.rook_to(mover)),
            )
        }
        _ => (m.to(), Bitboard::from(m.to())),
    }
}

/// The squares a move empties: its origin, the pawn taken en passant, both
/// castling origins.
fn vacated(m: Move) -> Bitboard {
    match m {
        Move::Normal { from, .. } => Bitboard::from(from),
        Move::EnPassant { from, to } => {
            Bitboard::from(from) | Bitboard::from(Square::from_coords(to.file(), from.rank()))
        }
        Move::Castle { king, rook } => Bitboard::from(king) | Bitboard::from(rook),
        Move::Put { .. } => Bitboard::EMPTY,
    }
}

/// What a mating move earns because it mates, played from `before` to
/// `end`: the smallest value among the checking pieces (plus
/// `promoted_mate` for one promoted on this move), `discovered` and
/// `coverage` where they apply, minus the promotion award that
/// [`action_award`] gave (the promotion award is not given for a mate).
pub fn mate_award(t: &Table, before: View, action: Action, end: View) -> Award {
    let mut award = Award::default();
    let Action::Move(m) = action else {
        return award;
    };
    let mater = before.turn;
    let board = end.board;
    let Some(king) = (board.kings() & board.by_color(!mater)).first() else {
        return award;
    };
    let checkers = end.checkers();
    let (dest, landed) = landing(m, mater);
    let around = attacks::king_attacks(king);

    let mut best: Option<(Points, bool)> = None;
    for sq in checkers {
        let Some(role) = board.role_at(sq) else {
            continue;
        };
        let mut value = t.mate.value(role, around.contains(sq));
        let promoted = m.is_promotion() && sq == m.to();
        if promoted {
            value += t.promoted_mate;
        }
        if best.is_none_or(|(b, _)| value < b) {
            best = Some((value, promoted));
        }
    }
    let Some((value, promoted)) = best else {
        return award;
    };
    if promoted {
        award.give(mater, value - t.promoted_mate, Event::Mate);
        award.give(mater, t.promoted_mate, Event::PromotedMate);
    } else {
        award.give(mater, value, Event::Mate);
    }
    if checkers.more_than_one() {
        award.events.add(Event::DoubleCheck);
    }

    // A checker that did not move itself and attacks the king only through
    // a square the move emptied.
    let emptied = vacated(m) & !board.occupied();
    let occupied_before = board.occupied() | emptied;
    let discovered = (checkers & !landed).into_iter().any(|sq| {
        board
            .piece_at(sq)
            .is_some_and(|pc| !attacks::attacks(sq, pc, occupied_before).contains(king))
    });
    if discovered {
        award.give(mater, t.discovered, Event::Discovered);
        let was = before.board;
        let safe = around
            .into_iter()
            .filter(|&sq| {
                was.color_at(sq) != Some(!mater)
                    && was.attacks_to(sq, mater, was.occupied()).is_empty()
            })
            .fold(Bitboard::EMPTY, |acc, sq| acc | Bitboard::from(sq));
        let covers = board.piece_at(dest).map_or(Bitboard::EMPTY, |pc| {
            attacks::attacks(dest, pc, board.occupied())
        });
        if (covers & safe).any() {
            award.give(mater, t.coverage, Event::Coverage);
        }
    }
    if let Some(role) = m.promotion() {
        let cancelled = t.promotion.value(role);
        award.give(mater, -cancelled, Event::Mate);
    }
    award
}

/// The stylish draw award (docs/rules.md, `stylish`, "Draws") for a draw
/// reached in `end`; nothing for other endings (a mate pays on its move, a resignation decides the game
/// whatever the points).
pub fn outcome_award(t: &Table, memo: &Memo, end: View, ending: &Ending) -> Award {
    match ending {
        Ending::Stalemate { .. }
        | Ending::Repetition(_)
        | Ending::MoveRule
        | Ending::InsufficientMaterial => draw_award(t, memo, end.board),
        Ending::Resignation { .. } => Award::split(Points::ZERO, Points::ZERO, Event::Resignation),
        _ => Award::default(),
    }
}

/// The draw award on `board`: compensation for the side with less force,
/// or the last-capture award when only kings and at most one minor piece
/// remain.
pub fn draw_award(t: &Table, memo: &Memo, board: &Board) -> Award {
    let mut award = Award::default();
    let others = board.occupied() & !board.kings();
    let minors = board.bishops() | board.knights();
    if others.is_empty() || (others.count() == 1 && (others & minors).any()) {
        if let Some(c) = memo.last_capturer {
            award.give(c, t.last_capture, Event::LastCapture);
        }
        return award;
    }
    if let Some((weaker, points)) = compensation(t, board) {
        award.give(weaker, points, Event::Draw);
    }
    award
}

/// The draw compensation on `board` (the draw award when more than the
/// kings and one minor piece remain): the side with less force and its
/// points, `(theirs - own) + max(0, max_force - own)`; `None` when the
/// forces are equal.
pub fn compensation(t: &Table, board: &Board) -> Option<(Color, Points)> {
    let white = t.force.of(board, Color::White);
    let black = t.force.of(board, Color::Black);
    let (weaker, own, theirs) = match white.cmp(&black) {
        std::cmp::Ordering::Less => (Color::White, white, black),
        std::cmp::Ordering::Greater => (Color::Black, black, white),
        std::cmp::Ordering::Equal => return None,
    };
    let lack = (t.max_force - own).max(Points::ZERO);
    Some((weaker, theirs - own + lack))
}

/// The stylish scoring.
#[derive(Clone, Copy, Debug)]
pub struct Stylish;

const KEYS: &[Key] = &[
    key(
        "capture.pawn",
        "a pawn captures (en passant and capturing promotions too): [pawn, bishop, knight, rook, queen] captured",
    ),
    key(
        "capture.minor",
        "a bishop or a knight captures: [pawn, bishop, knight, rook, queen] captured",
    ),
    key(
        "capture.rook",
        "a rook captures: [pawn, bishop, knight, rook, queen] captured",
    ),
    key(
        "capture.queen_diagonal",
        "a queen captures along a diagonal: [pawn, bishop, knight, rook, queen] captured",
    ),
    key(
        "capture.queen_orthogonal",
        "a queen captures along a rank or a file: [pawn, bishop, knight, rook, queen] captured",
    ),
    key(
        "capture.king",
        "a king captures: [pawn, bishop, knight, rook, queen] captured",
    ),
    key(
        "mate.queen",
        "checkmate, a queen the checking piece: [adjacent to the mated king, not adjacent]",
    ),
    key(
        "mate.rook",
        "checkmate, a rook the checking piece: [adjacent, not adjacent]",
    ),
    key(
        "mate.bishop",
        "checkmate, a bishop the checking piece: [adjacent, not adjacent]",
    ),
    key(
        "mate.knight",
        "checkmate, a knight the checking piece (never adjacent)",
    ),
    key(
        "mate.pawn",
        "checkmate, a pawn the checking piece (always adjacent)",
    ),
    key(
        "promoted_mate",
        "added to a checking piece promoted on the mating move",
    ),
    key(
        "discovered",
        "a discovered mate: the move opened a checking piece's line",
    ),
    key(
        "coverage",
        "a discovered mate in which the moved piece now attacks a square next to the mated king that was safe",
    ),
    key(
        "promotion.queen",
        "promotion to a queen (not given when the move mates)",
    ),
    key("promotion.rook", "promotion to a rook"),
    key("promotion.bishop", "promotion to a bishop"),
    key("promotion.knight", "promotion to a knight"),
    key("force.pawn", "a pawn's force, for the draw award"),
    key("force.knight", "a knight's force"),
    key("force.bishop", "a bishop's force"),
    key("force.rook", "a rook's force"),
    key("force.queen", "a queen's force"),
    key(
        "max_force",
        "a full set's force: in a draw the weaker side gets (their force - own force) + max(0, max_force - own force)",
    ),
    key(
        "last_capture",
        "a draw with bare kings, or kings and one bishop or knight: to the last capturer",
    ),
];

impl VariantScoring for Stylish {
    fn action_award(
        &self,
        t: &Tables,
        _memo: &Memo,
        _next: &Memo,
        before: View,
        action: Action,
        _after: View,
    ) -> Award {
        action_award(&t.stylish, before, action)
    }

    fn has_action_awards(&self) -> bool {
        true
    }

    fn mate_award(&self, t: &Tables, before: View, action: Action, end: View) -> Award {
        mate_award(&t.stylish, before, action, end)
    }

    /// The promotion award of a mating promotion.
    fn replaced_by_mate(&self) -> Option<Event> {
        Some(Event::Promotion)
    }

    fn outcome_award(&self, t: &Tables, end: &End) -> Award {
        outcome_award(&t.stylish, end.memo, end.node, end.ending)
    }

    fn action_bound(&self, t: &Tables) -> Points {
        t.stylish.action_bound()
    }

    fn end_bound(&self, t: &Tables) -> Points {
        t.stylish.end_bound()
    }

    /// Five: the side ahead collects the captures and the mate awards.
    fn search_pawns(&self) -> i64 {
        5
    }

    /// A 22nd of a rook's mate from afar (the specification's one
    /// surviving mate value, 110: 5).
    fn pawn_scale(&self, t: &Tables) -> (Points, i64) {
        (t.stylish.mate.rook[1], 22)
    }

    /// Never: stylish pays by style.
    fn decisive_band(&self, _t: &Tables) -> bool {
        false
    }

    fn keys(&self) -> &'static [Key] {
        KEYS
    }

    fn about(&self) -> &'static str {
        "stylish: captures, stylish mates, under-promotion, draw compensation"
    }

    /// A point: a GUI's `+1.00` is 100 points.
    fn milli_per_cp(&self) -> Option<i64> {
        Some(1000)
    }
}
