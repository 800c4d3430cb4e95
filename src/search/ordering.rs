//! Move ordering: static exchange evaluation, MVV-LVA, killers and history.

use shakmaty::attacks;
use shakmaty::{Bitboard, Board, Color, Move, Role, Square};

use super::params::{HISTORY_MAX, MVV_LVA_ATTACKER_DIV, MVV_LVA_VICTIM, SEE_VALUE};
use crate::rules::Action;

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

/// MVV-LVA for a capture: victim first, then the cheaper attacker.
#[inline]
pub fn mvv_lva(m: Move) -> i32 {
    let victim = match m {
        Move::EnPassant { .. } => see_value(Role::Pawn),
        _ => m.capture().map_or(0, see_value),
    };
    victim * MVV_LVA_VICTIM - see_value(m.role()) / MVV_LVA_ATTACKER_DIV
}

/// Quiet-move history, indexed by side, from and to square, with gravity.
#[derive(Clone)]
pub struct History {
    table: Vec<i32>,
}

impl Default for History {
    fn default() -> History {
        History {
            table: vec![0; 2 * 64 * 64],
        }
    }
}

impl History {
    #[inline]
    fn index(color: Color, action: Action) -> Option<usize> {
        let m = action.as_move()?;
        let from = usize::from(m.from()?);
        let to = usize::from(m.to());
        Some(((color as usize) * 64 + from) * 64 + to)
    }

    /// The score of a quiet action.
    #[inline]
    pub fn get(&self, color: Color, action: Action) -> i32 {
        Self::index(color, action).map_or(0, |i| self.table[i])
    }

    /// Rewards (`bonus` > 0) or punishes an action, pulling towards the
    /// bound so old information fades.
    #[inline]
    pub fn update(&mut self, color: Color, action: Action, bonus: i32) {
        if let Some(i) = Self::index(color, action) {
            let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
            let v = &mut self.table[i];
            *v += b - *v * b.abs() / HISTORY_MAX;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
    fn history_gravity() {
        let p = pos("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        let a = Action::Move(find(&p, "h1h5"));
        let mut h = History::default();
        for _ in 0..100 {
            h.update(Color::White, a, 4000);
        }
        assert!(h.get(Color::White, a) <= HISTORY_MAX);
        assert!(h.get(Color::White, a) > HISTORY_MAX / 2);
        assert_eq!(h.get(Color::Black, a), 0);
    }
}
