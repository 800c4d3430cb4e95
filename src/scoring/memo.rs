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
    /// Moves made by each side, `[white, black]` (wacky's moves bonus).
    pub moves: [u16; 2],
    /// The destination of the previous action if it was a capture (a
    /// capture there continues the counter chain).
    pub last_capture_to: Option<Square>,
    /// Recaptures in the current counter chain: after the n-th recapture of
    /// a chain this is n; 0 after a capture that starts a chain.
    pub counter: u8,
    /// Each side's current combination run, `[white, black]`: the number of
    /// captures in a row by that side with no capture by the opponent in
    /// between; 0 after a non-capturing move of that side.
    pub run: [u8; 2],
}

impl Memo {
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
