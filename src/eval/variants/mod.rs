//! Variant evaluators: what each variant pays beyond the board result.
//!
//! Each variant has one module with one type, `Eval`, that implements
//! [`VariantEval`]: the margins of the board results under the variant's
//! table, and the expected future point margin for the side to move, in
//! internal units, from a [`Ctx`] (the node, its memo, the base
//! evaluation). [`of`] names each variant's type, the one place the
//! evaluation matches on the variant:
//!
//! - [`chess`]: the base evaluation's centipawns;
//! - [`extinction`]: material by type (the last piece of a type is the
//!   game), threats against a last-of-type piece, spare kings and queens,
//!   the last pawns;
//! - [`stylish`]: capture awards within reach, the style of the mate the
//!   material allows, the draw compensation of the weaker side;
//! - [`wacky`]: the checks still to come (each pays the table's check
//!   award, 5000 by default), a realistic value of a mate (the life and
//!   moves bonuses it can still earn);
//! - [`sets`], [`dynamic`]: the side endings (stalemate, perpetual check,
//!   bare king) each pays;
//! - [`tiebraker`]: the disk's phases, a frozen king.
//!
//! The variants of expected margins drift to the draw near the move-count
//! rule ([`toward_draw`]). Every point value comes from the variant's point table
//! (`Ctx::tables`); every weight lives in
//! [`VariantWeights`] (`Ctx::weights`), those in points as thousandths of a
//! pawn of the variant's scale, so that they scale with the table
//! ([`Units::pawns`]). The helpers here are shared by several
//! variants.

pub mod chess;
pub mod dynamic;
pub mod extinction;
pub mod sets;
pub mod stylish;
pub mod tiebraker;
pub mod wacky;

use std::fmt;

use shakmaty::attacks;
use shakmaty::{Bitboard, Board, Color, Role};

use super::params::EvalParams;
use super::variant_weights::VariantWeights;
use super::wdl::{Wdl, WdlModel};
use super::{ResultMargins, Units};
use crate::rules::{Extra, Variant};
use crate::scoring::{DrawAdvantage, Memo, Tables};

/// What a variant adds to a net's score ([`VariantEval::over_net`]):
/// centipawns for `stm` on `board`.
pub type OverNet = fn(board: &Board, stm: Color, params: &EvalParams) -> i32;

/// What one variant's evaluation adds to the base evaluation: the margins
/// of its board results and its estimate of the points still to come.
pub trait VariantEval: fmt::Debug + Send + Sync {
    /// The margins of a win, a draw and a loss for the side to move under
    /// the variant's point table.
    fn margins(&self, c: &Ctx) -> ResultMargins;

    /// The expected future point margin for the side to move.
    fn value(&self, c: &Ctx) -> i32;

    /// Whether the variant is scored by the board result alone, so that
    /// the base evaluation's centipawns are its value (no outcome table
    /// to weigh them by).
    fn board_result_alone(&self) -> bool {
        false
    }

    /// What the variant adds to a net's score where that score is the
    /// evaluation ([`VariantEval::board_result_alone`]): a function of the
    /// board and the side to move giving centipawns for that side; none by
    /// default. A function, not a method, so that an evaluator keeps it
    /// and the variants without one pay nothing a node.
    fn over_net(&self) -> Option<OverNet> {
        None
    }

    /// The variant's fitted [`VariantWeights`] (`src/eval/tuned/`); the
    /// hand-set ones by default.
    fn tuned_weights(&self) -> &'static VariantWeights {
        &VariantWeights::UNTUNED
    }
}

/// The evaluation of `variant`.
pub fn of(variant: Variant) -> &'static dyn VariantEval {
    match variant {
        Variant::Chess => &chess::Eval,
        Variant::Extinction => &extinction::Eval,
        Variant::Stylish => &stylish::Eval,
        Variant::Wacky => &wacky::Eval,
        Variant::Sets => &sets::Eval,
        Variant::Dynamic => &dynamic::Eval,
        Variant::Tiebraker => &tiebraker::Eval,
    }
}

/// `v` drifting to `draw` (both expected margins) over the last
/// `move_rule_drift` plies before the move-count rule ends the game.
pub fn toward_draw(c: &Ctx, v: i32, draw: i32) -> i32 {
    let rule = c.rule_plies as i32;
    let h = c.halfmoves as i32;
    let drift = c.weights.move_rule_drift.max(1);
    let near = rule - drift;
    if h > near {
        let f = (h - near).min(drift);
        ((i64::from(v) * i64::from(drift - f) + i64::from(draw) * i64::from(f)) / i64::from(drift))
            as i32
    } else {
        v
    }
}

/// What a variant evaluator reads: the node, its memo, the base
/// evaluation and the weights.
#[derive(Clone, Copy, Debug)]
pub struct Ctx<'a> {
    /// The board.
    pub board: &'a Board,
    /// The side to move.
    pub stm: Color,
    /// Whether the side to move is in check.
    pub check: bool,
    /// The variant state (disk, bare king).
    pub extra: Extra,
    /// Plies since the last capture or pawn move.
    pub halfmoves: u32,
    /// Plies without a capture or pawn move that end the game.
    pub rule_plies: u32,
    /// The game's scoring memory.
    pub memo: &'a Memo,
    /// The base evaluation in centipawns for the side to move.
    pub cp: i32,
    /// The squares each side attacks, by `Color as usize`, where the base
    /// evaluation found them (`None` under a net's score or a given `cp`).
    pub attacks: Option<[Bitboard; 2]>,
    /// The weights of the base evaluation (extinction's terms read theirs
    /// there too).
    pub params: &'static EvalParams,
    /// The game phase, 0 (bare) ..= 24.
    pub phase: i32,
    /// The variant evaluator's weights.
    pub weights: &'a VariantWeights,
    /// The win/draw/loss model of the weights' curves.
    pub model: &'a WdlModel,
    /// The variant's internal units.
    pub units: Units,
    /// The point tables.
    pub tables: &'a Tables,
    /// Who a draw favours in sets.
    pub draw_advantage: DrawAdvantage,
}

/// Counts of each role for one side (pawn .. king).
pub fn counts(board: &Board, color: Color) -> [i32; 6] {
    let ours = board.by_color(color);
    let mut c = [0; 6];
    for (i, r) in Role::ALL.iter().enumerate() {
        c[i] = (board.by_role(*r) & ours).count() as i32;
    }
    c
}

/// Whether `color` has the material to force mate in practice: a queen, a
/// rook, a pawn (it may promote), or bishops on both colours. Bishop and
/// knight can mate in theory, but it takes up to 33 moves of a precision a
/// shallow search does not have (and longer than the sets 30-move rule).
pub fn can_mate(board: &Board, color: Color) -> bool {
    let ours = board.by_color(color);
    if ((board.queens() | board.rooks() | board.pawns()) & ours).any() {
        return true;
    }
    let bishops = board.bishops() & ours;
    (bishops & Bitboard::LIGHT_SQUARES).any() && (bishops & Bitboard::DARK_SQUARES).any()
}

/// The win/draw/loss model ([`Ctx::model`]) for the side to move, with the wins of a side
/// that cannot force mate ([`can_mate`]) turned into draws.
pub fn wdl(c: &Ctx) -> Wdl {
    let mut w = c.model.at(c.cp, c.phase);
    if !can_mate(c.board, c.stm) {
        w.draw += w.win;
        w.win = 0;
    }
    if !can_mate(c.board, !c.stm) {
        w.draw += w.loss;
        w.loss = 0;
    }
    w
}

/// The expected margin under `r` with the model of [`wdl`], plus the small
/// share of the centipawns the base value adds so that a won position
/// still shows progress.
pub fn expected(c: &Ctx, r: ResultMargins) -> i32 {
    wdl(c).expect(r) + super::curve::progress(c.cp)
}

/// The chance (per mille) that `color` can force a perpetual check: it
/// needs a queen, and grows with its checking moves against the enemy
/// king (up to `perpetual_checks`), `perpetual_per_check` each.
pub fn perpetual_chance(w: &VariantWeights, board: &Board, color: Color) -> i32 {
    if (board.queens() & board.by_color(color)).is_empty() {
        return 0;
    }
    let limit = u32::try_from(w.perpetual_checks).unwrap_or(0);
    let checks = checking_moves_up_to(board, color, limit) as i32;
    w.perpetual_per_check * checks
}

/// What the chances of a perpetual check add to an expected margin `e`
/// for the side to move: each side takes its perpetual (worth `ours` or
/// `theirs` to it) when that beats what it expects otherwise.
pub fn perpetual(c: &Ctx, e: i32, ours: i32, theirs: i32) -> i32 {
    // A chance is counted only where its perpetual would pay (counting
    // checks costs a walk over the pieces).
    let gain = match (ours - e).max(0) {
        0 => 0,
        g => g * perpetual_chance(c.weights, c.board, c.stm) / 1000,
    };
    let loss = match (e + theirs).max(0) {
        0 => 0,
        l => l * perpetual_chance(c.weights, c.board, !c.stm) / 1000,
    };
    gain - loss
}

/// Squares `color`'s pawns attack after a single push (a pawn fork next
/// move).
pub fn pawn_pushes_attacks(pawns: Bitboard, color: Color, occupied: Bitboard) -> Bitboard {
    let step = if color.is_white() { 8 } else { -8 };
    let pushed = pawns.shift(step) & !occupied;
    let mut out = Bitboard::EMPTY;
    for sq in pushed {
        out |= attacks::pawn_attacks(color, sq);
    }
    out
}

/// The squares `color` attacks (every piece; kings and pawns included).
pub fn attacked_by(board: &Board, color: Color) -> Bitboard {
    let occupied = board.occupied();
    let mut out = Bitboard::EMPTY;
    for sq in board.by_color(color) {
        if let Some(pc) = board.piece_at(sq) {
            out |= attacks::attacks(sq, pc, occupied);
        }
    }
    out
}

/// The number of direct checking moves `color` has against the enemy king
/// (pseudo-legal: pins, discovered checks and the mover's own king are
/// ignored); pawn pushes and pawn captures included.
pub fn checking_moves(board: &Board, color: Color) -> u32 {
    checking_moves_up_to(board, color, u32::MAX)
}

/// [`checking_moves`], counted only up to `limit` (queens first):
/// `checking_moves(board, color).min(limit)`.
pub fn checking_moves_up_to(board: &Board, color: Color, limit: u32) -> u32 {
    let Some(king) = (board.kings() & board.by_color(!color)).first() else {
        return 0;
    };
    let occupied = board.occupied();
    let ours = board.by_color(color);
    let theirs = board.by_color(!color);
    let targets = !ours;
    let diag_checks = attacks::bishop_attacks(king, occupied) & targets;
    let orth_checks = attacks::rook_attacks(king, occupied) & targets;
    let mut n = 0;
    for from in board.queens() & ours {
        n += (attacks::queen_attacks(from, occupied) & (diag_checks | orth_checks)).count() as u32;
        if n >= limit {
            return limit;
        }
    }
    for from in board.rooks() & ours {
        n += (attacks::rook_attacks(from, occupied) & orth_checks).count() as u32;
    }
    for from in board.bishops() & ours {
        n += (attacks::bishop_attacks(from, occupied) & diag_checks).count() as u32;
    }
    if n >= limit {
        return limit;
    }
    let knight_checks = attacks::knight_attacks(king) & targets;
    for from in board.knights() & ours {
        n += (attacks::knight_attacks(from) & knight_checks).count() as u32;
    }
    let pawns = board.pawns() & ours;
    let pawn_checks = attacks::pawn_attacks(!color, king);
    let step = if color.is_white() { 8 } else { -8 };
    n += (pawns.shift(step) & !occupied & pawn_checks).count() as u32;
    // A capture that checks lands on a checking square the enemy holds.
    for to in pawn_checks & theirs {
        n += (attacks::pawn_attacks(!color, to) & pawns).count() as u32;
    }
    n.min(limit)
}

/// The flight squares of `color`'s king: the squares around it that hold
/// no piece of its own and that the other side does not attack (`None`
/// without a king).
pub fn flight_squares(board: &Board, color: Color) -> Option<Bitboard> {
    let king = (board.kings() & board.by_color(color)).first()?;
    let attacked = attacked_by(board, !color);
    Some(attacks::king_attacks(king) & !board.by_color(color) & !attacked)
}

/// [`checking_moves`] of `color` against a king with at most one flight
/// square (a net a check may close); 0 otherwise.
pub fn cornered_checks(board: &Board, color: Color) -> u32 {
    match flight_squares(board, !color) {
        Some(f) if f.count() <= 1 => checking_moves(board, color),
        _ => 0,
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::scoring::Points;
    use shakmaty::fen::Fen;

    fn board(fen: &str) -> Board {
        fen.parse::<Fen>().unwrap().into_setup().board
    }

    /// A context for `fen` (its board leaked for the test's lifetime), with
    /// the base evaluation and the wacky units.
    pub(crate) fn ctx<'a>(fen: &str, tables: &'a Tables, memo: &'a Memo) -> Ctx<'a> {
        let setup = fen.parse::<Fen>().unwrap().into_setup();
        let board: &'static Board = Box::leak(Box::new(setup.board));
        let bd = super::super::base::breakdown(board);
        Ctx {
            board,
            stm: setup.turn,
            check: false,
            extra: Extra::default(),
            halfmoves: setup.halfmoves,
            rule_plies: 100,
            memo,
            cp: bd.cp_for(setup.turn),
            attacks: Some(bd.attacks),
            params: EvalParams::DEFAULT,
            phase: bd.phase,
            weights: &VariantWeights::UNTUNED,
            model: VariantWeights::model(crate::rules::Variant::Wacky, false),
            units: Units::of(&crate::scoring::Scorer::new(crate::rules::Variant::Wacky)),
            tables,
            draw_advantage: DrawAdvantage::default(),
        }
    }

    #[test]
    fn perpetual_chances_need_a_queen() {
        let w = &VariantWeights::UNTUNED;
        let b = board("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1");
        assert_eq!(perpetual_chance(w, &b, Color::White), 0);
        // The queen on d1 checks from d8 only (the pawns shelter g8).
        let b = board("6k1/5ppp/8/8/8/8/5PPP/3Q2K1 w - - 0 1");
        assert_eq!(perpetual_chance(w, &b, Color::White), w.perpetual_per_check);
        // An open king: the checks are counted up to the cap.
        let b = board("6k1/8/8/8/8/8/5PPP/3Q2K1 w - - 0 1");
        assert_eq!(
            perpetual_chance(w, &b, Color::White),
            w.perpetual_per_check * w.perpetual_checks
        );
    }

    #[test]
    fn without_mating_material_wins_become_draws() {
        let t = Tables::default();
        let m = Memo::default();
        // Two knights up: the base evaluation says winning, the model draws.
        let c = ctx("7k/8/8/8/8/8/8/KNN5 w - - 0 1", &t, &m);
        assert!(c.cp > 400);
        let w = wdl(&c);
        assert_eq!((w.win, w.draw + w.loss), (0, 1000));
    }

    #[test]
    fn mating_material() {
        let white = |fen| can_mate(&board(fen), Color::White);
        assert!(white("k7/8/8/8/8/8/8/K6R w - - 0 1"));
        assert!(white("k7/8/8/8/8/8/7P/K7 w - - 0 1"));
        assert!(white("k7/8/8/8/8/8/8/K4BB1 w - - 0 1"));
        assert!(!white("k7/8/8/8/8/8/8/K4NN1 w - - 0 1"));
        assert!(!white("k7/8/8/8/8/8/8/K4BN1 w - - 0 1"));
        assert!(!white("k7/8/8/8/8/8/8/K3B1B1 w - - 0 1"));
        assert!(!white("k7/8/8/8/8/8/8/K7 w - - 0 1"));
    }

    #[test]
    fn checking_moves_counted() {
        // The rook checks from a8 only (its own king stands on e1).
        assert_eq!(
            checking_moves(&board("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), Color::White),
            1
        );
        assert_eq!(
            checking_moves(&board("4k3/8/8/8/8/8/8/4K2N w - - 0 1"), Color::White),
            0
        );
        assert_eq!(
            checking_moves(&board("4k3/8/8/3P4/8/8/8/4K3 w - - 0 1"), Color::White),
            0
        );
        // A pawn push to d7 checks; so does the capture on f7.
        assert_eq!(
            checking_moves(&board("4k3/5n2/3P2P1/8/8/8/8/4K3 w - - 0 1"), Color::White),
            2
        );
        // A queen in the open: many checks.
        assert_eq!(
            checking_moves(&board("4k3/8/8/8/8/8/8/3QK3 w - - 0 1"), Color::White),
            5
        );
        // Counted up to a limit: the count, capped.
        for fen in [
            "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
            "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQK2R w KQkq - 0 1",
            "4k3/5n2/3P2P1/8/8/8/8/4K3 w - - 0 1",
            "3k4/2P1P3/1N3N2/8/1B6/8/Q2R4/4K3 w - - 0 1",
            "4K3/8/8/8/8/2q5/5p1p/1n1k2r1 b - - 0 1",
        ] {
            let b = board(fen);
            for color in Color::ALL {
                let all = checking_moves(&b, color);
                for limit in 0..=all + 2 {
                    assert_eq!(
                        checking_moves_up_to(&b, color, limit),
                        all.min(limit),
                        "{fen}"
                    );
                }
            }
        }
    }

    #[test]
    fn predicted_awards_come_from_the_tables() {
        let t = crate::scoring::Tables::default();
        let start = shakmaty::Board::new();
        // Mate 25000, life 43 at 10000, moves bonus at 10 moves: 40 x 3500.
        assert_eq!(
            wacky::win_estimate(&t.wacky, &start, Color::White, 0, 10),
            Points::whole(25_000 + 430_000 + 140_000)
        );
        // White without its queen: force 30 against 39, 9 + (39 - 30).
        let b = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1");
        assert_eq!(
            stylish::draw_margin(&t.stylish, &b, Color::White),
            Points::whole(18)
        );
        assert_eq!(
            stylish::draw_margin(&t.stylish, &b, Color::Black),
            Points::whole(-18)
        );
        // A table with other values predicts other awards.
        let t = crate::scoring::Tables::from_toml(
            "[wacky]\nmate = 1\nlife = [[0, 0]]\nmoves = [[0, 2]]\n[stylish]\nmax_force = 0\n",
        )
        .unwrap();
        assert_eq!(
            wacky::win_estimate(&t.wacky, &start, Color::White, 0, 10),
            Points::whole(1 + 2 * 40)
        );
        assert_eq!(
            stylish::draw_margin(&t.stylish, &b, Color::White),
            Points::whole(9)
        );
    }
}
