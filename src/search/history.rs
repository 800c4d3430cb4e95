//! History tables: what the search learnt about actions from earlier
//! cut-offs, for move ordering and reductions. Today one table: quiet moves
//! by side, from and to square.

use shakmaty::Color;

use super::params::HISTORY_MAX;
use crate::rules::Action;

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
