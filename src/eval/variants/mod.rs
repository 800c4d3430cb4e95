//! Variant evaluators: what each variant pays beyond the board result.
//!
//! Each function returns a correction, in internal units for the side to
//! move, that the [`Evaluator`](super::Evaluator) adds to (or folds into)
//! the base value:
//!
//! - extinction: material by type (the last piece of a type is the game),
//!   insurance from spare kings and queens, the last pawns;
//! - stylish: capture awards within reach (pawns and kings take big pieces
//!   for big points, a queen takes for almost nothing), the style of the
//!   mate the material allows;
//! - wacky: the move's own award (a check is 5000, a king step 180), which
//!   the side to move collects next;
//! - sets, dynamic, tiebraker: the approach of the move-count rule (the
//!   expected result drifts to the draw's points), a frozen disk king.
//!
//! Every weight lives in [`super::params`] or in the variant's point table.

use shakmaty::attacks;
use shakmaty::{Bitboard, Board, Color, Role, Square};

use super::base::Score;
use super::params::*;
use crate::scoring::{Points, stylish};

/// Counts of each role for one side (pawn .. king).
fn counts(board: &Board, color: Color) -> [i32; 6] {
    let ours = board.by_color(color);
    let mut c = [0; 6];
    for (i, r) in Role::ALL.iter().enumerate() {
        c[i] = (board.by_role(*r) & ours).count() as i32;
    }
    c
}

/// Extinction: the type terms of one side, as a tapered pair.
fn extinction_side(board: &Board, color: Color) -> Score {
    let c = counts(board, color);
    let mut s = Score::default();
    // Knights, bishops, rooks: a lone piece of a type is a target.
    for &n in &c[1..4] {
        if n == 1 {
            s += EXT_LAST_PIECE;
        }
    }
    s += match c[0] {
        1 => EXT_LAST_PAWNS[0],
        2 => EXT_LAST_PAWNS[1],
        3 => EXT_LAST_PAWNS[2],
        _ => Score::default(),
    };
    if c[4] >= 2 {
        s += EXT_SPARE_QUEEN;
    }
    if c[5] >= 2 {
        s += EXT_SPARE_KING;
    }
    // Last pieces standing where the enemy pawns could hit them next move.
    let enemy_pawns = board.pawns() & board.by_color(!color);
    let pawn_reach = pawn_pushes_attacks(enemy_pawns, !color, board.occupied());
    for (i, r) in Role::ALL.iter().enumerate() {
        if c[i] == 1
            && let Some(sq) = (board.by_role(*r) & board.by_color(color)).first()
            && pawn_reach.contains(sq)
        {
            s += EXT_LAST_PIECE_PAWN_THREAT;
        }
    }
    s
}

/// Squares enemy pawns attack after a single push (a pawn fork next move).
fn pawn_pushes_attacks(pawns: Bitboard, color: Color, occupied: Bitboard) -> Bitboard {
    let step = if color.is_white() { 8 } else { -8 };
    let pushed = pawns.shift(step) & !occupied;
    let mut out = Bitboard::EMPTY;
    for sq in pushed {
        out |= attacks::pawn_attacks(color, sq);
    }
    out
}

/// Extinction's correction in centipawns for `stm`.
pub fn extinction(board: &Board, stm: Color, phase: i32) -> i32 {
    let s = extinction_side(board, stm) - extinction_side(board, !stm);
    s.taper(phase)
}

/// Stylish: the best capture award `color` could take now, and how much
/// capture award its pawns and king aim at (enemy pieces they attack).
pub fn stylish_captures(t: &stylish::Table, board: &Board, color: Color) -> Points {
    let occupied = board.occupied();
    let ours = board.by_color(color);
    let theirs = board.by_color(!color) & !board.kings();
    let mut best = Points::ZERO;
    for from in ours {
        let Some(role) = board.role_at(from) else {
            continue;
        };
        let att = match role {
            Role::Pawn => attacks::pawn_attacks(color, from),
            Role::Knight => attacks::knight_attacks(from),
            Role::Bishop => attacks::bishop_attacks(from, occupied),
            Role::Rook => attacks::rook_attacks(from, occupied),
            Role::Queen => attacks::queen_attacks(from, occupied),
            Role::King => attacks::king_attacks(from),
        };
        for to in att & theirs {
            let Some(victim) = board.role_at(to) else {
                continue;
            };
            let p = t.capture.value(role, from, to, victim);
            if p > best {
                best = p;
            }
        }
    }
    best
}

/// Wacky: whether `color` (to move) has a checking move available, seen
/// from attack tables (pieces that reach a square that checks the king).
pub fn wacky_check_available(board: &Board, color: Color) -> bool {
    let Some(king) = (board.kings() & board.by_color(!color)).first() else {
        return false;
    };
    let occupied = board.occupied();
    let ours = board.by_color(color);
    let targets = !ours;
    let knight_checks = attacks::knight_attacks(king);
    let diag_checks = attacks::bishop_attacks(king, occupied);
    let orth_checks = attacks::rook_attacks(king, occupied);
    for from in ours & (board.knights() | board.bishops() | board.rooks() | board.queens()) {
        let reach = match board.role_at(from) {
            Some(Role::Knight) => attacks::knight_attacks(from) & knight_checks,
            Some(Role::Bishop) => attacks::bishop_attacks(from, occupied) & diag_checks,
            Some(Role::Rook) => attacks::rook_attacks(from, occupied) & orth_checks,
            Some(Role::Queen) => {
                attacks::queen_attacks(from, occupied) & (diag_checks | orth_checks)
            }
            _ => Bitboard::EMPTY,
        };
        if (reach & targets).any() {
            return true;
        }
    }
    // Pawn pushes that check.
    let step = if color.is_white() { 8 } else { -8 };
    let pushed = (board.pawns() & ours).shift(step) & !occupied;
    (pushed & attacks::pawn_attacks(!color, king)).any()
}

/// Tiebraker: a frozen (disk) king that never castled sits in the centre
/// for the rest of the game.
pub fn frozen_king(board: &Board, color: Color) -> Score {
    let Some(k) = (board.kings() & board.by_color(color)).first() else {
        return Score::default();
    };
    let file = k.file() as i32;
    if (2..=5).contains(&file) {
        TB_FROZEN_CENTRAL_KING
    } else {
        TB_FROZEN_KING
    }
}

/// Distance of `sq` to the nearest corner (a helper for mating terms).
#[allow(dead_code)]
fn corner_distance(sq: Square) -> i32 {
    let f = sq.file() as i32;
    let r = sq.rank() as i32;
    f.min(7 - f) + r.min(7 - r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;

    fn board(fen: &str) -> Board {
        fen.parse::<Fen>().unwrap().into_setup().board
    }

    #[test]
    fn extinction_type_terms() {
        // White has lost a knight (one left), Black has both: Black better.
        let b = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1");
        assert!(extinction(&b, Color::White, 24) < 0);
        assert_eq!(extinction(&Board::new(), Color::White, 24), 0);
        // A spare king is insurance.
        let b = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNK w kq - 0 1");
        assert!(extinction(&b, Color::White, 24) > 0);
    }

    #[test]
    fn wacky_checks_seen() {
        let b = board("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        assert!(wacky_check_available(&b, Color::White));
        let b = board("4k3/8/8/8/8/8/8/4K2N w - - 0 1");
        assert!(!wacky_check_available(&b, Color::White));
        let b = board("4k3/8/8/3P4/8/8/8/4K3 w - - 0 1");
        assert!(!wacky_check_available(&b, Color::White));
        let b = board("4k3/8/3P4/8/8/8/8/4K3 w - - 0 1");
        assert!(wacky_check_available(&b, Color::White));
    }

    #[test]
    fn stylish_best_capture() {
        let t = stylish::Table::default();
        // A pawn attacks a queen: 40 points within reach.
        let b = board("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1");
        assert_eq!(stylish_captures(&t, &b, Color::White), Points::whole(40));
        assert_eq!(stylish_captures(&t, &b, Color::Black), Points::whole(0));
    }
}
