//! History tables: what the search learnt about quiet moves from earlier
//! cut-offs, for move ordering and reductions:
//!
//! - the main table, by side, from and to square;
//! - continuation tables, by the piece and target square of the move one
//!   ply (the opponent's reply) and two plies (one's own move) before, and
//!   the piece and target square of the move itself;
//! - the capture table, by moving piece, target square and captured role;
//! - the correction table (not a move history): how far searches found
//!   the static evaluation off, by side to move and pawn structure.
//!
//! A quiet move's score is the sum of the first three; every table pulls its
//! entries towards the bound it is updated with (gravity), so old
//! information fades.

use shakmaty::{Board, Color, Move};

use super::params::{
    CORRECTION_BITS, CORRECTION_GRAIN, CORRECTION_MAX, CORRECTION_WEIGHT_MAX, CORRECTION_WEIGHTS,
    HISTORY_MAX,
};
use crate::rules::Action;

/// Piece-to keys: 2 colours, 6 roles, 64 target squares.
const PIECE_TO: usize = 2 * 6 * 64;

/// The piece-to key of `action` played by `color`: its moving piece and
/// target square (`None` for special actions).
#[inline]
pub fn piece_to(color: Color, action: Action) -> Option<u16> {
    let m = action.as_move()?;
    let piece = (color as usize) * 6 + (m.role() as usize - 1);
    Some((piece * 64 + usize::from(m.to())) as u16)
}

/// What a quiet move's score depends on besides the move: the side to move
/// and the piece-to keys of the moves one and two plies before (`None`
/// after a null move, a special action or at the root).
#[derive(Clone, Copy, Debug)]
pub struct Context {
    /// The side to move.
    pub turn: Color,
    /// The piece-to keys one and two plies back.
    pub prev: [Option<u16>; 2],
}

/// The quiet-move history tables (see the module header).
#[derive(Clone)]
pub struct History {
    table: Vec<i32>,
    /// Continuation tables one and two plies back, by the previous key
    /// then the move's key.
    cont: [Vec<i16>; 2],
    /// Captures by piece-to key and captured role.
    captures: Vec<i16>,
}

impl Default for History {
    fn default() -> History {
        History {
            table: vec![0; 2 * 64 * 64],
            cont: [vec![0; PIECE_TO * PIECE_TO], vec![0; PIECE_TO * PIECE_TO]],
            captures: vec![0; PIECE_TO * 6],
        }
    }
}

/// Pulls `v` by `bonus` towards the bound.
#[inline]
fn gravity(v: i32, bonus: i32) -> i32 {
    let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    v + b - v * b.abs() / HISTORY_MAX
}

impl History {
    #[inline]
    fn index(color: Color, action: Action) -> Option<usize> {
        let m = action.as_move()?;
        let from = usize::from(m.from()?);
        let to = usize::from(m.to());
        Some(((color as usize) * 64 + from) * 64 + to)
    }

    /// The main table's score of a quiet action.
    #[inline]
    pub fn get(&self, color: Color, action: Action) -> i32 {
        Self::index(color, action).map_or(0, |i| self.table[i])
    }

    /// Rewards (`bonus` > 0) or punishes an action in the main table.
    #[inline]
    pub fn update(&mut self, color: Color, action: Action, bonus: i32) {
        if let Some(i) = Self::index(color, action) {
            let v = &mut self.table[i];
            *v = gravity(*v, bonus);
        }
    }

    /// The continuation tables' entries of `action` in `ctx`.
    #[inline]
    fn cont_index(ctx: &Context, action: Action) -> [Option<usize>; 2] {
        let Some(key) = piece_to(ctx.turn, action) else {
            return [None; 2];
        };
        ctx.prev
            .map(|p| p.map(|p| usize::from(p) * PIECE_TO + usize::from(key)))
    }

    /// The full score of a quiet action in `ctx`: main and continuation
    /// tables together.
    #[inline]
    pub fn quiet(&self, ctx: &Context, action: Action) -> i32 {
        let mut score = self.get(ctx.turn, action);
        for (table, i) in self.cont.iter().zip(Self::cont_index(ctx, action)) {
            if let Some(i) = i {
                score += i32::from(table[i]);
            }
        }
        score
    }

    #[inline]
    fn capture_index(color: Color, m: Move) -> Option<usize> {
        let key = piece_to(color, Action::Move(m))?;
        let victim = m.capture()? as usize - 1;
        Some(usize::from(key) * 6 + victim)
    }

    /// The capture table's score of capture `m` by `color` (0 for other
    /// moves).
    #[inline]
    pub fn capture(&self, color: Color, m: Move) -> i32 {
        Self::capture_index(color, m).map_or(0, |i| i32::from(self.captures[i]))
    }

    /// Rewards (`bonus` > 0) or punishes capture `m` by `color`.
    #[inline]
    pub fn update_capture(&mut self, color: Color, m: Move, bonus: i32) {
        if let Some(i) = Self::capture_index(color, m) {
            self.captures[i] = gravity(i32::from(self.captures[i]), bonus) as i16;
        }
    }

    /// Rewards (`bonus` > 0) or punishes a quiet action in `ctx`, in every
    /// table.
    #[inline]
    pub fn update_quiet(&mut self, ctx: &Context, action: Action, bonus: i32) {
        self.update(ctx.turn, action, bonus);
        for (table, i) in self.cont.iter_mut().zip(Self::cont_index(ctx, action)) {
            if let Some(i) = i {
                table[i] = gravity(i32::from(table[i]), bonus) as i16;
            }
        }
    }
}

/// Correction history: how far searches found the static evaluation off,
/// by side to move and pawn structure, to correct later evaluations of
/// positions with the same pawns.
#[derive(Clone)]
pub struct Correction {
    /// Averages in 1/[`CORRECTION_GRAIN`] of an internal unit.
    table: Vec<i32>,
}

impl Default for Correction {
    fn default() -> Correction {
        Correction {
            table: vec![0; 2 << CORRECTION_BITS],
        }
    }
}

impl Correction {
    #[inline]
    fn index(color: Color, board: &Board) -> usize {
        let pawns = board.pawns();
        let white = u64::from(pawns & board.white());
        let black = u64::from(pawns & board.black());
        let h =
            white.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ black.wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
        ((color as usize) << CORRECTION_BITS) | (h >> (64 - CORRECTION_BITS)) as usize
    }

    /// The correction to add to a static evaluation, in internal units.
    #[inline]
    pub fn get(&self, color: Color, board: &Board) -> i32 {
        self.table[Self::index(color, board)] / CORRECTION_GRAIN
    }

    /// Moves the average towards `diff` (search value less static
    /// evaluation), more for deeper searches.
    #[inline]
    pub fn update(&mut self, color: Color, board: &Board, diff: i32, depth: i32) {
        let v = &mut self.table[Self::index(color, board)];
        let w = (depth + 1).clamp(1, CORRECTION_WEIGHT_MAX);
        let target = diff.clamp(-CORRECTION_MAX, CORRECTION_MAX) * CORRECTION_GRAIN;
        *v = (*v * (CORRECTION_WEIGHTS - w) + target * w) / CORRECTION_WEIGHTS;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position};

    fn find(fen: &str, uci: &str) -> shakmaty::Move {
        let p: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        p.legal_moves()
            .into_iter()
            .find(|m| m.to_uci(CastlingMode::Standard).to_string() == uci)
            .unwrap()
    }

    #[test]
    fn history_gravity() {
        let a = Action::Move(find("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "h1h5"));
        let mut h = History::default();
        for _ in 0..100 {
            h.update(Color::White, a, 4000);
        }
        assert!(h.get(Color::White, a) <= HISTORY_MAX);
        assert!(h.get(Color::White, a) > HISTORY_MAX / 2);
        assert_eq!(h.get(Color::Black, a), 0);
    }
}
