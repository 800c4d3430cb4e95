//! [`Memo`]: what a game remembers that changes future awards.

use shakmaty::{Color, Square};

use crate::rules::{Action, Node, Pos};

/// Per-game scoring memory, updated after every action. It covers only the
/// actions of this game, not what came before its FEN.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Memo {
    /// Who made the last capture of the game (stylish bare-king draws).
    pub last_capturer: Option<Color>,
    /// Pieces captured so far, both sides (wacky's fall multiplier).
    pub captures: u16,
    /// Moves made by each side, indexed by `Color as usize` (`[black,
    /// white]` in shakmaty's order; see [`Memo::moves_of`]) (wacky's moves
    /// bonus).
    pub moves: [u16; 2],
    /// The destination of the previous action if it was a capture (a
    /// capture there continues the counter chain).
    pub last_capture_to: Option<Square>,
    /// Recaptures in the current counter chain: after the n-th recapture of
    /// a chain this is n; 0 after a capture that starts a chain.
    pub counter: u8,
    /// Each side's current combination run, indexed by `Color as usize`
    /// (see [`Memo::run_of`]): the number of
    /// captures in a row by that side with no capture by the opponent in
    /// between; 0 after a non-capturing move of that side.
    pub run: [u8; 2],
}

impl Memo {
    /// Moves made by `color` in this game.
    #[inline]
    pub fn moves_of(&self, color: Color) -> u16 {
        self.moves[color as usize]
    }

    /// `color`'s current combination run.
    #[inline]
    pub fn run_of(&self, color: Color) -> u8 {
        self.run[color as usize]
    }

    /// The memo after `action` is played from `before`.
    #[inline]
    pub fn after<P: Pos>(&self, before: &Node<P>, action: Action) -> Memo {
        let mut m = *self;
        let mover = before.pos.turn();
        let Action::Move(mv) = action else {
            // Special actions are not moves: they break chains like any
            // non-capturing action but are not counted as moves.
            m.last_capture_to = None;
            m.counter = 0;
            m.run[mover as usize] = 0;
            return m;
        };
        m.moves[mover as usize] = m.moves[mover as usize].saturating_add(1);
        if mv.is_capture() {
            let to = mv.to();
            m.last_capturer = Some(mover);
            m.captures = m.captures.saturating_add(1);
            if self.last_capture_to == Some(to) {
                m.counter = self.counter.saturating_add(1);
            } else {
                m.counter = 0;
            }
            m.last_capture_to = Some(to);
            // A run continues when the mover's previous move captured and
            // the opponent's move in between did not.
            let run = self.run[mover as usize];
            m.run[mover as usize] = if run > 0 && self.last_capture_to.is_none() {
                run.saturating_add(1)
            } else {
                1
            };
            m.run[!mover as usize] = 0;
        } else {
            m.last_capture_to = None;
            m.counter = 0;
            m.run[mover as usize] = 0;
        }
        m
    }

    /// The part of the memo that changes future awards independently of
    /// the board, as a key to XOR onto a search key (wacky's chains).
    pub fn chain_key(&self) -> u64 {
        let sq = self.last_capture_to.map_or(64, u64::from);
        let v = sq
            | u64::from(self.counter.min(31)) << 7
            | u64::from(self.run[0].min(31)) << 12
            | u64::from(self.run[1].min(31)) << 17;
        if v == 64 {
            0
        } else {
            // SplitMix64 finaliser: spread the fields over all bits.
            let mut z = v.wrapping_add(0x9e37_79b9_7f4a_7c15);
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Game, Rules, Variant};
    use shakmaty::Chess;

    /// The memo after each action of `moves` from `fen`.
    fn memos(fen: &str, moves: &str) -> Vec<Memo> {
        let rules = Rules::<Chess>::new(Variant::Wacky);
        let mut game = Game::new(rules, Some(fen)).expect("fen");
        let mut memo = Memo::default();
        let mut out = Vec::new();
        for text in moves.split_whitespace() {
            let before = game.current().clone();
            let action = game.play_text(text).expect("legal");
            memo = memo.after(&before, action);
            out.push(memo);
        }
        out
    }

    #[test]
    fn counter_chain_counts_recaptures() {
        // exd5 starts a chain (0), then four recaptures on d5: 1, 2, 3, 4.
        let m = memos(
            "3qk3/8/5n2/3p4/4P3/2N5/8/3QK3 w - - 0 1",
            "e4d5 f6d5 c3d5 d8d5 d1d5 e8e7",
        );
        let chain: Vec<u8> = m.iter().map(|x| x.counter).collect();
        assert_eq!(chain, [0, 1, 2, 3, 4, 0]);
        assert_eq!(m[4].captures, 5);
        assert_eq!(m[4].last_capturer, Some(Color::White));
        assert_eq!(m[5].last_capture_to, None);
        assert_eq!(
            (m[5].moves_of(Color::White), m[5].moves_of(Color::Black)),
            (3, 3)
        );
    }

    #[test]
    fn combination_runs() {
        // White captures, Black moves quietly, White captures again: runs of
        // 1, 2, 3; an opponent's capture resets the run.
        let m = memos(
            "8/p1p1p3/8/7k/8/8/8/R6K w - - 0 1",
            "a1a7 h5h4 a7c7 h4g4 c7e7",
        );
        let runs: Vec<u8> = m.iter().map(|x| x.run_of(Color::White)).collect();
        assert_eq!(runs, [1, 1, 2, 2, 3]);
        // Black recaptures at once: a counter, not a run, and White's run
        // ends.
        let m = memos("4k3/8/8/3p4/4P3/8/8/4K2Q w - - 0 1", "e4d5 e8e7 d5d6 e7d6");
        let runs = |x: &Memo| (x.run_of(Color::White), x.run_of(Color::Black));
        assert_eq!(runs(&m[0]), (1, 0));
        assert_eq!(runs(&m[2]), (0, 0));
        assert_eq!(runs(&m[3]), (0, 1));
        assert_eq!(m[3].counter, 0);
    }
}
