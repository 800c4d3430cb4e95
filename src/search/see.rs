//! Static exchange evaluation: whether a move keeps material once every
//! capture on its target square is played out, cheapest attacker first.
//! Move ordering and pruning both ask it; in extinction a capture of the
//! opponent's last piece of a type wins outright, whatever the exchange.

use shakmaty::attacks;
use shakmaty::{Bitboard, Board, Color, Move, Role, Square};

use super::params::SEE_VALUE;
use crate::rules::Pos;

/// The exchange value of a role.
#[inline]
pub fn see_value(role: Role) -> i32 {
    SEE_VALUE[role as usize - 1]
}

fn attackers_to(board: &Board, sq: Square, occupied: Bitboard) -> Bitboard {
    let rooks = board.rooks() | board.queens();
    let bishops = board.bishops() | board.queens();
    (attacks::rook_attacks(sq, occupied) & rooks)
        | (attacks::bishop_attacks(sq, occupied) & bishops)
        | (attacks::knight_attacks(sq) & board.knights())
        | (attacks::king_attacks(sq) & board.kings())
        | (attacks::pawn_attacks(Color::White, sq) & board.pawns() & board.black())
        | (attacks::pawn_attacks(Color::Black, sq) & board.pawns() & board.white())
}

/// Whether the static exchange on the move's target square gains at least
/// `threshold` for the mover (castling and specials count as 0).
pub fn see_ge(board: &Board, turn: Color, m: Move, threshold: i32) -> bool {
    let (from, to, captured) = match m {
        Move::Normal {
            from,
            to,
            capture,
            promotion,
            ..
        } => {
            if promotion.is_some() {
                return 0 >= threshold || capture.is_some();
            }
            (from, to, capture.map_or(0, see_value))
        }
        Move::EnPassant { .. } => return 0 >= threshold - see_value(Role::Pawn),
        _ => return 0 >= threshold,
    };
    let mut swap = captured - threshold;
    if swap < 0 {
        return false;
    }
    let Some(mover) = board.role_at(from) else {
        return false;
    };
    swap = see_value(mover) - swap;
    if swap <= 0 {
        return true;
    }
    let mut occupied = board.occupied() ^ Bitboard::from_square(from) ^ Bitboard::from_square(to);
    let mut stm = turn;
    let mut attackers = attackers_to(board, to, occupied) & occupied;
    let mut result = true;
    let diag = board.bishops() | board.queens();
    let orth = board.rooks() | board.queens();
    loop {
        stm = !stm;
        attackers &= occupied;
        let ours = attackers & board.by_color(stm);
        if ours.is_empty() {
            break;
        }
        result = !result;
        // Least valuable attacker.
        let mut next = None;
        for role in Role::ALL {
            let bb = ours & board.by_role(role);
            if let Some(sq) = bb.first() {
                next = Some((role, sq));
                break;
            }
        }
        let Some((role, sq)) = next else { break };
        if role == Role::King {
            // The king may only take last.
            return if (attackers & board.by_color(!stm)).any() {
                !result
            } else {
                result
            };
        }
        swap = see_value(role) - swap;
        if swap < i32::from(result) {
            break;
        }
        occupied ^= Bitboard::from_square(sq);
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
            attackers |= attacks::bishop_attacks(to, occupied) & diag;
        }
        if matches!(role, Role::Rook | Role::Queen) {
            attackers |= attacks::rook_attacks(to, occupied) & orth;
        }
    }
    result
}

/// Whether `m` takes the opponent's last piece of a type: in extinction,
/// a win at once.
#[inline]
pub(super) fn takes_last<P: Pos>(board: &Board, turn: Color, m: Move) -> bool {
    P::KINGS_CAPTURABLE
        && m.capture()
            .is_some_and(|victim| (board.by_role(victim) & board.by_color(!turn)).count() == 1)
}

/// Whether a move keeps at least `threshold` by static exchange; a move
/// that takes a last piece in extinction always does.
#[inline]
pub(super) fn exchange_ok<P: Pos>(board: &Board, turn: Color, m: Move, threshold: i32) -> bool {
    takes_last::<P>(board, turn, m) || see_ge(board, turn, m, threshold)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Extinction;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position};

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    fn find(p: &Chess, uci: &str) -> Move {
        p.legal_moves()
            .into_iter()
            .find(|m| m.to_uci(CastlingMode::Standard).to_string() == uci)
            .unwrap()
    }

    fn setup(fen: &str) -> (Board, Color) {
        let s = fen.parse::<Fen>().unwrap().into_setup();
        (s.board, s.turn)
    }

    #[test]
    fn see_basics() {
        // Pawn takes a defended knight: wins 320 - 100.
        let p = pos("4k3/8/3p4/4n3/3P4/8/8/4K3 w - - 0 1");
        let m = find(&p, "d4e5");
        assert!(see_ge(p.board(), p.turn(), m, 200));
        assert!(!see_ge(p.board(), p.turn(), m, 250));
        // Queen takes a pawn defended by a pawn: loses.
        let p = pos("4k3/8/3p4/4p3/8/8/4Q3/4K3 w - - 0 1");
        let m = find(&p, "e2e5");
        assert!(!see_ge(p.board(), p.turn(), m, 0));
        // Rook takes an undefended rook.
        let p = pos("4k3/8/8/4r3/8/8/8/4RK2 w - - 0 1");
        assert!(see_ge(p.board(), p.turn(), find(&p, "e1e5"), 500));
    }

    #[test]
    fn a_last_piece_is_worth_any_exchange_in_extinction() {
        // The queen takes Black's only knight, which a pawn defends.
        let fen = "4k3/8/2p5/3n4/8/8/8/3QK3 w - - 0 1";
        let (board, turn) = setup(fen);
        let m = find(&pos(fen), "d1d5");
        assert!(!see_ge(&board, turn, m, 0));
        assert!(takes_last::<Extinction>(&board, turn, m));
        assert!(exchange_ok::<Extinction>(&board, turn, m, 0));
        // Chess knows no last pieces: the exchange decides.
        assert!(!takes_last::<Chess>(&board, turn, m));
        assert!(!exchange_ok::<Chess>(&board, turn, m, 0));
        // With a second knight the exchange decides in extinction too.
        let fen = "4k3/8/2p5/3n4/8/8/7n/3QK3 w - - 0 1";
        let (board, turn) = setup(fen);
        let m = find(&pos(fen), "d1d5");
        assert!(!takes_last::<Extinction>(&board, turn, m));
        assert!(!exchange_ok::<Extinction>(&board, turn, m, 0));
    }
}
