//! `extinction`: material by type. Losing every piece of one type loses
//! the game, so the last piece of a type is worth the game, a type down
//! to its last piece is scarce, and a spare king or queen is insurance.
//! There is no check: a king (like a lone queen) is simply a piece that
//! must not be taken, and a fork of two last pieces wins.

use shakmaty::attacks;
use shakmaty::{Bitboard, Board, Color, Role};

use super::super::ResultMargins;
use super::super::mgeg::MgEg;
use super::super::params::*;
use super::{Ctx, VariantEval, attacked_by, counts, pawn_pushes_attacks};

/// Sends the type terms of one side to `add(flat index, weight, count)`
/// (the count negated for the side not to move: `n` is 1 or -1).
pub fn side_terms(
    board: &Board,
    color: Color,
    p: &EvalParams,
    n: i32,
    add: &mut impl FnMut(usize, MgEg, i32),
) {
    let c = counts(board, color);
    // Knights, bishops, rooks: a lone piece of a type is a target.
    for &k in &c[1..4] {
        if k == 1 {
            add(ix::EXT_LAST_PIECE, p.ext_last_piece, n);
        }
    }
    if (1..=3).contains(&c[0]) {
        let i = c[0] as usize - 1;
        add(ix::EXT_LAST_PAWNS + i, p.ext_last_pawns[i], n);
    }
    if c[4] >= 2 {
        add(ix::EXT_SPARE_QUEEN, p.ext_spare_queen, n);
    }
    if c[5] >= 2 {
        add(ix::EXT_SPARE_KING, p.ext_spare_king, n);
    }
    // Last pieces standing where the enemy pawns could hit them next move.
    let enemy_pawns = board.pawns() & board.by_color(!color);
    let pawn_reach = pawn_pushes_attacks(enemy_pawns, !color, board.occupied());
    for (i, r) in Role::ALL.iter().enumerate() {
        if c[i] == 1
            && let Some(sq) = (board.by_role(*r) & board.by_color(color)).first()
            && pawn_reach.contains(sq)
        {
            add(
                ix::EXT_LAST_PIECE_PAWN_THREAT,
                p.ext_last_piece_pawn_threat,
                n,
            );
        }
    }
}

/// The type terms in centipawns for `stm`.
pub fn terms(board: &Board, stm: Color, phase: i32, p: &EvalParams) -> i32 {
    let mut s = MgEg::default();
    let mut add = |_: usize, w: MgEg, n: i32| s += w * n;
    side_terms(board, stm, p, 1, &mut add);
    side_terms(board, !stm, p, -1, &mut add);
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
pub fn threats(board: &Board, stm: Color, phase: i32, p: &EvalParams) -> i32 {
    let mut s = MgEg::default();
    threat_terms(board, stm, p, &mut |_, w, n| s += w * n);
    s.taper(phase)
}

/// Sends the threat terms of [`threats`] to `add(flat index, weight,
/// count)`.
pub fn threat_terms(
    board: &Board,
    stm: Color,
    p: &EvalParams,
    add: &mut impl FnMut(usize, MgEg, i32),
) {
    let our_last = last_pieces(board, stm);
    let their_last = last_pieces(board, !stm);
    let ours = attacked_by(board, stm);
    let theirs = attacked_by(board, !stm);
    if (ours & their_last).any() {
        add(ix::EXT_TAKE_LAST, p.ext_take_last, 1);
        return;
    }
    match (theirs & our_last).count() {
        0 => {}
        1 => add(ix::EXT_LAST_ATTACKED, p.ext_last_attacked, 1),
        _ => add(ix::EXT_LAST_ATTACKED_TWICE, p.ext_last_attacked_twice, 1),
    }
    let our_forks = forks(board, stm, their_last, theirs);
    let their_forks = forks(board, !stm, our_last, ours);
    if our_forks > 0 {
        add(ix::EXT_FORK, p.ext_fork, 1);
    }
    if their_forks > 0 {
        add(ix::EXT_FORK_THREAT, p.ext_fork_threat, -1);
    }
}

/// The extinction evaluation: the base centipawns with the type terms and
/// the threats on last pieces (extinction is scored 1 / 1/2 / 0, so
/// centipawns are its units).
pub fn value(c: &Ctx) -> i32 {
    c.cp + terms(c.board, c.stm, c.phase, c.params) + threats(c.board, c.stm, c.phase, c.params)
}

/// The extinction evaluation.
#[derive(Clone, Copy, Debug)]
pub struct Eval;

impl VariantEval for Eval {
    fn margins(&self, c: &Ctx) -> ResultMargins {
        let t = &c.tables.extinction;
        ResultMargins::even(c.units.from_points(t.win - t.loss), 0)
    }

    #[inline]
    fn value(&self, c: &Ctx) -> i32 {
        value(c)
    }

    fn board_result_alone(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;

    /// The hand-set weights: the signs these tests expect are theirs.
    const P: &EvalParams = &EvalParams::UNTUNED;

    fn board(fen: &str) -> Board {
        fen.parse::<Fen>().unwrap().into_setup().board
    }

    #[test]
    fn type_terms() {
        // White has lost a knight (one left), Black has both: Black better.
        let b = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1");
        assert!(terms(&b, Color::White, 24, P) < 0);
        assert_eq!(terms(&Board::new(), Color::White, 24, P), 0);
        // A spare king is insurance.
        let b = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNK w kq - 0 1");
        assert!(terms(&b, Color::White, 24, P) > 0);
    }

    #[test]
    fn last_pieces_and_threats() {
        let start = Board::new();
        let kq = board("3qk3/8/8/8/8/8/8/3QK3 w - - 0 1");
        assert_eq!(last_pieces(&start, Color::White).count(), 2);
        assert_eq!(last_pieces(&kq, Color::Black).count(), 2);
        assert_eq!(threats(&start, Color::White, 24, P), 0);
        // Nf7 forks the queen on d8 and the king on h8; Black's queen has
        // a fork back (Qd4 hits the king on a1 and the knight).
        let b = board("3q3k/8/8/4N3/8/8/8/K7 w - - 0 1");
        let targets = last_pieces(&b, Color::Black);
        assert_eq!(forks(&b, Color::White, targets, Bitboard::EMPTY), 1);
        let p = P;
        let fork = (p.ext_fork - p.ext_fork_threat).mg;
        assert_eq!(threats(&b, Color::White, 3, P), fork);
        // A last piece en prise: the side to move takes it and wins.
        let b = board("3qk3/8/8/8/8/8/8/3RK2Q w - - 0 1");
        assert_eq!(threats(&b, Color::White, 20, P), p.ext_take_last.mg);
        // The knight on f6 attacks both of Black's last pieces.
        let b = board("4k3/8/5N2/3q4/8/8/8/4K3 b - - 0 1");
        let twice = (p.ext_last_attacked_twice + p.ext_fork).mg;
        assert!(threats(&b, Color::Black, 0, P) <= twice);
    }
}
