//! `wacky`: the awards still to come. A check pays 5000 (by default), so
//! the checks a side can give (now and later, against an exposed king) are
//! worth more than most material; a mate pays 25000 plus the life and moves
//! bonuses, which are large only for a fast mate with material left, so the
//! value of a win is estimated from the material a side can expect to keep
//! and the moves it can expect to need. Every point value comes from the
//! table, every weight in thousandths of a pawn of the variant's scale
//! ([`Units::pawns`](super::super::Units::pawns)).

use shakmaty::Color;

use shakmaty::Board;

use super::super::ResultMargins;
use super::super::variant_weights::VariantWeights;
use super::{Ctx, VariantEval, checking_moves_up_to, toward_draw, wdl};
use crate::scoring::Points;
use crate::scoring::variants::wacky;

/// The checks still to come, in points for the side to move: each
/// checking move a side has against the enemy king now (up to
/// `wacky_checks_counted`) stands for checks it will give later, worth
/// more to the side to move (it gives the first one).
pub fn checks(c: &Ctx) -> Points {
    let w = c.weights;
    let limit = u32::try_from(w.wacky_checks_counted.max(0)).unwrap_or(u32::MAX);
    let ours = i64::from(checking_moves_up_to(c.board, c.stm, limit));
    let theirs = i64::from(checking_moves_up_to(c.board, !c.stm, limit));
    c.units
        .pawns(ours * w.wacky_our_check - theirs * w.wacky_their_check)
}

/// What material is worth in future points for the side to move: a
/// saturating function of the base evaluation (a side that is well ahead
/// gives checks, captures and mates at will), larger in the endgame, where
/// a queen against a bare king checks on every move.
pub fn material(c: &Ctx) -> Points {
    let w = c.weights;
    let x = f64::from(c.cp.clamp(-3000, 3000)) / f64::from(w.wacky_cp_scale.max(1));
    let full =
        w.wacky_material_eg - (w.wacky_material_eg - w.wacky_material_mg) * i64::from(c.phase) / 24;
    c.units.pawns((x.tanh() * full as f64) as i64)
}

/// The checks a dominant side collects until the game ends: with a queen
/// against a king with no queen and little to block with, it checks on
/// almost every move, until the move-count rule ends the game, and each of
/// its pawns that can still move resets that rule once more. The value of
/// such a position for `color`, in points (0 when it does not dominate).
pub fn spam(c: &Ctx, color: Color) -> Points {
    let b = c.board;
    let ours = b.by_color(color);
    let theirs = b.by_color(!color);
    if (b.queens() & ours).is_empty() || (b.queens() & theirs).any() {
        return Points::ZERO;
    }
    let t = &c.tables.wacky;
    let n = |bb: shakmaty::Bitboard| (bb & theirs).count() as i64;
    let defence = n(b.knights()) * t.defence.knight
        + n(b.bishops()) * t.defence.bishop
        + n(b.rooks()) * t.defence.rook;
    // At most a rook's worth of pieces to block with.
    if defence > t.defence.rook {
        return Points::ZERO;
    }
    let step = if color.is_white() { 8 } else { -8 };
    let fuel = ((b.pawns() & ours).shift(step) & !b.occupied()).count() as i64;
    let clock = (i64::from(c.rule_plies) - i64::from(c.halfmoves)).max(0) / 2;
    let moves = (clock + fuel * i64::from(c.rule_plies) / 2).min(c.weights.wacky_spam_moves);
    c.units.pawns(c.weights.wacky_spam_per_move * moves)
}

/// The wacky evaluation: the future points of material, the checks to
/// come (a dominant side's for the rest of the game), the mates to come
/// (their award and bonuses by each side's chance of mating), and the side
/// to move's initiative. A mate the search sees is counted exactly.
pub fn value(c: &Ctx) -> i32 {
    let u = c.units;
    let spam = spam(c, c.stm) - spam(c, !c.stm);
    u.from_points(material(c) + checks(c) + spam + mates(c) + u.pawns(c.weights.wacky_tempo))
}

/// A rough value of a wacky checkmate for `color` now: the mate award and
/// the life bonus at the current material, and the moves bonus assuming
/// `moves_to_mate` more moves.
pub fn win_estimate(
    t: &wacky::Table,
    board: &Board,
    color: Color,
    moves_made: u16,
    moves_to_mate: i64,
) -> Points {
    let life = t.life(board, color);
    let moves = i64::from(moves_made) + moves_to_mate;
    t.mate + t.life_bonus(life) + t.moves_bonus(moves)
}

/// The mates still to come: the chance of each side mating (the
/// win/draw/loss model, no wins without mating material) times what that
/// mate would pay now, weighted by `wacky_mate_share` per mille (the
/// material term already holds part of it). A side that only counts
/// checks walks into mates that cost it far more.
pub fn mates(c: &Ctx) -> Points {
    let w = wdl(c);
    let t = &c.tables.wacky;
    let to_mate = c.weights.wacky_moves_to_mate;
    let ours = win_estimate(t, c.board, c.stm, c.memo.moves_of(c.stm), to_mate);
    let theirs = win_estimate(t, c.board, !c.stm, c.memo.moves_of(!c.stm), to_mate);
    let milli = i128::from(ours.milli()) * i128::from(w.win)
        - i128::from(theirs.milli()) * i128::from(w.loss);
    Points::from_wide_milli(milli / 1000 * i128::from(c.weights.wacky_mate_share) / 1000)
}

/// The wacky evaluation.
#[derive(Clone, Copy, Debug)]
pub struct Eval;

impl VariantEval for Eval {
    fn tuned_weights(&self) -> &'static VariantWeights {
        &super::super::tuned::wacky::TUNED
    }

    /// Each side's mate at the estimate of [`win_estimate`]; a draw pays
    /// nothing.
    fn margins(&self, c: &Ctx) -> ResultMargins {
        let (t, to_mate) = (&c.tables.wacky, c.weights.wacky_moves_to_mate);
        let ours = win_estimate(t, c.board, c.stm, c.memo.moves_of(c.stm), to_mate);
        let theirs = win_estimate(t, c.board, !c.stm, c.memo.moves_of(!c.stm), to_mate);
        ResultMargins {
            win: c.units.from_points(ours),
            draw: 0,
            loss: -c.units.from_points(theirs),
        }
    }

    fn value(&self, c: &Ctx) -> i32 {
        toward_draw(c, value(c), 0)
    }
}
#[cfg(test)]
mod tests {
    use super::super::tests::ctx;
    use super::*;
    use crate::scoring::{Memo, Tables};

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn a_dominant_queen_collects_checks_until_the_rule() {
        let t = Tables::default();
        let m = Memo::default();
        // Queen and a pawn that can still move against a bare king: the
        // clock's 50 moves and one reset's 50 more.
        let c = ctx("4k3/8/8/8/8/8/6PQ/6K1 w - - 0 1", &t, &m);
        assert_eq!(
            spam(&c, Color::White),
            c.units.pawns(c.weights.wacky_spam_per_move * 100)
        );
        assert_eq!(spam(&c, Color::Black), Points::ZERO);
        // Late on the clock, with the pawn blocked: the moves left only.
        let c = ctx("4k3/8/8/8/8/6p1/6PQ/6K1 w - - 80 60", &t, &m);
        assert_eq!(
            spam(&c, Color::White),
            c.units.pawns(c.weights.wacky_spam_per_move * 10)
        );
        // A rook and a knight defend: no domination.
        let c = ctx("3rk3/8/8/8/8/5n2/6PQ/6K1 w - - 0 1", &t, &m);
        assert_eq!(spam(&c, Color::White), Points::ZERO);
    }

    #[test]
    fn checks_and_material_are_symmetric() {
        let t = Tables::default();
        let m = Memo::default();
        let c = ctx(START, &t, &m);
        assert_eq!(checks(&c), Points::ZERO);
        assert_eq!(material(&Ctx { cp: 0, ..c }), Points::ZERO);
        let up = material(&Ctx { cp: 300, ..c });
        assert_eq!(material(&Ctx { cp: -300, ..c }), -up);
        assert!(up > c.units.pawns(c.weights.wacky_material_mg / 2));
    }

    #[test]
    fn mates_to_come_follow_the_material() {
        let t = Tables::default();
        let m = Memo::default();
        // Equal material at the start: no one is expected to mate more.
        let c = ctx(START, &t, &m);
        assert_eq!(mates(&Ctx { cp: 0, ..c }), Points::ZERO);
        // A queen up: White expects a mate worth most of its award and
        // bonuses, Black the same loss.
        let c = ctx("4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1", &t, &m);
        let ours = mates(&c);
        let w = c.weights;
        let win = win_estimate(&t.wacky, c.board, Color::White, 0, w.wacky_moves_to_mate);
        assert!(ours > Points::from_milli(win.milli() * w.wacky_mate_share / 2000));
        assert!(ours <= Points::from_milli(win.milli() * w.wacky_mate_share / 1000));
        let c = ctx("4k3/8/8/8/8/8/3Q4/4K3 b - - 0 1", &t, &m);
        assert_eq!(mates(&c), -ours);
        // Two knights cannot force mate: no mate is expected.
        let c = ctx("4k3/8/8/8/8/8/8/1N2K1N1 w - - 0 1", &t, &m);
        assert_eq!(mates(&c), Points::ZERO);
    }
}
