//! `extinction`: material by type. Losing every piece of one type loses
//! the game, so the last piece of a type is worth the game, a type down
//! to its last piece is scarce, and a spare king or queen is insurance.
//! There is no check: a king (like a lone queen) is simply a piece that
//! must not be taken, and a fork of two last pieces wins.

use shakmaty::attacks;
use shakmaty::{Bitboard, Board, Color, Role};

use super::super::params::*;
use super::super::score::Score;
use super::{Ctx, attacked_by, counts, pawn_pushes_attacks};

/// The type terms of one side, as a tapered pair.
fn side(board: &Board, color: Color) -> Score {
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

/// The type terms in centipawns for `stm` (White minus Black, turned).
pub fn terms(board: &Board, stm: Color, phase: i32) -> i32 {
    let s = side(board, stm) - side(board, !stm);
    s.taper(phase)
}

/// The squares of `color`'s last pieces: every piece that is the only
/// one of its type.
pub fn last_pieces(board: &Board, color: Color) -> Bitboard {
    let ours = board.by_color(color);
    let mut out = Bitboard::EMPTY;
    for r in Role::ALL {
        let bb = board.by_role(r) & ours;
        if bb.count() == 1 {
            out |= bb;
        }
    }
    out
}

/// The moves of `color` that attack two or more of `targets` from a
/// square the other side does not attack (`guarded`): forks on last
/// pieces. Pawns count by their single pushes.
pub fn forks(board: &Board, color: Color, targets: Bitboard, guarded: Bitboard) -> u32 {
    if !targets.more_than_one() {
        return 0;
    }
    let occupied = board.occupied();
    let ours = board.by_color(color);
    let mut n = 0;
    for from in ours {
        let Some(role) = board.role_at(from) else {
            continue;
        };
        let occ = occupied & !Bitboard::from(from);
        let dests = match role {
            Role::Pawn => {
                let step = if color.is_white() { 8 } else { -8 };
                Bitboard::from(from).shift(step) & !occupied
            }
            _ => attacks::attacks(from, role.of(color), occupied) & !ours,
        };
        for to in dests & !guarded {
            let hits = match role {
                Role::Pawn => attacks::pawn_attacks(color, to),
                _ => attacks::attacks(to, role.of(color), occ),
            };
            if (hits & targets).more_than_one() {
                n += 1;
            }
        }
    }
    n
}

/// The threats on last pieces, in centipawns for `stm`: last pieces the
/// side to move can take now (the game), its own last pieces under attack
/// (two at once are hard to save), and forks on last pieces each side has
/// next.
pub fn threats(board: &Board, stm: Color) -> i32 {
    let our_last = last_pieces(board, stm);
    let their_last = last_pieces(board, !stm);
    let ours = attacked_by(board, stm);
    let theirs = attacked_by(board, !stm);
    if (ours & their_last).any() {
        return EXT_TAKE_LAST;
    }
    let mut v = 0;
    match (theirs & our_last).count() {
        0 => {}
        1 => v += EXT_LAST_ATTACKED,
        _ => v += EXT_LAST_ATTACKED_TWICE,
    }
    let our_forks = forks(board, stm, their_last, theirs);
    let their_forks = forks(board, !stm, our_last, ours);
    if our_forks > 0 {
        v += EXT_FORK;
    }
    if their_forks > 0 {
        v -= EXT_FORK_THREAT;
    }
    v
}

/// The extinction evaluation: the base centipawns with the type terms and
/// the threats on last pieces (extinction is scored 1 / 1/2 / 0, so
/// centipawns are its units).
pub fn value(c: &Ctx) -> i32 {
    c.cp + terms(c.board, c.stm, c.phase) + threats(c.board, c.stm)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;

    fn board(fen: &str) -> Board {
        fen.parse::<Fen>().unwrap().into_setup().board
    }

    #[test]
    fn type_terms() {
        // White has lost a knight (one left), Black has both: Black better.
        let b = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1");
        assert!(terms(&b, Color::White, 24) < 0);
        assert_eq!(terms(&Board::new(), Color::White, 24), 0);
        // A spare king is insurance.
        let b = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNK w kq - 0 1");
        assert!(terms(&b, Color::White, 24) > 0);
    }

    #[test]
    fn last_pieces_and_threats() {
        let start = Board::new();
        let kq = board("3qk3/8/8/8/8/8/8/3QK3 w - - 0 1");
        assert_eq!(last_pieces(&start, Color::White).count(), 2);
        assert_eq!(last_pieces(&kq, Color::Black).count(), 2);
        assert_eq!(threats(&start, Color::White), 0);
        // Nf7 forks the queen on d8 and the king on h8; Black's queen has
        // a fork back (Qd4 hits the king on a1 and the knight).
        let b = board("3q3k/8/8/4N3/8/8/8/K7 w - - 0 1");
        let targets = last_pieces(&b, Color::Black);
        assert_eq!(forks(&b, Color::White, targets, Bitboard::EMPTY), 1);
        assert_eq!(threats(&b, Color::White), EXT_FORK - EXT_FORK_THREAT);
        // A last piece en prise: the side to move takes it and wins.
        let b = board("3qk3/8/8/8/8/8/8/3RK2Q w - - 0 1");
        assert_eq!(threats(&b, Color::White), EXT_TAKE_LAST);
        // The knight on f6 attacks both of Black's last pieces.
        let b = board("4k3/8/5N2/3q4/8/8/8/4K3 b - - 0 1");
        assert!(threats(&b, Color::Black) <= EXT_LAST_ATTACKED_TWICE + EXT_FORK);
    }
}
