//! Random legal games as PGN, for the scoring bench and `examples/gen_pgn`.
//!
//! A tiny xorshift generator with a fixed seed makes the same file every
//! time. Moves are uniform among legal moves, with captures preferred half
//! of the time so that games end (mate, material, repetition) rather than
//! run to the cap; unfinished games get a decisive result (a resignation)
//! or `*`; every fourth game carries `[%clk]` comments.

use std::fmt::Write as _;

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, Position};
use tally::rules::{Action, Ending, Game, Rules, Variant};

/// Xorshift64*.
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed (0 is replaced).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    /// The next value.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A value below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// `count` random games as one PGN text.
pub fn random_pgn(count: usize, seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let rules = Rules::<Chess>::new(Variant::Chess);
    let mut out = String::new();
    for g in 0..count {
        let Ok(mut game) = Game::new(rules, None) else {
            continue;
        };
        let mut text = String::new();
        let mut clock = [900u64, 900u64];
        let clocks = g % 4 == 0;
        while game.ending().is_none() && game.actions().len() < 160 {
            let legal = game.legal_actions();
            let captures: Vec<Action> = legal.iter().copied().filter(|a| a.is_capture()).collect();
            let pick = if !captures.is_empty() && rng.below(2) == 0 {
                captures[rng.below(captures.len())]
            } else {
                legal[rng.below(legal.len())]
            };
            let node = game.current();
            let Action::Move(m) = pick else { break };
            let turn = node.turn();
            if turn == Color::White {
                let _ = write!(text, "{}. ", node.pos.fullmoves());
            }
            let san = SanPlus::from_move(node.pos.clone(), m);
            let _ = write!(text, "{san} ");
            if clocks {
                let c = &mut clock[turn as usize];
                *c = c.saturating_sub(rng.below(20) as u64);
                let _ = write!(text, "{{[%clk 0:{:02}:{:02}]}} ", *c / 60, *c % 60);
            }
            if game.play(pick).is_err() {
                break;
            }
        }
        let result = match game.ending() {
            Some(Ending::Checkmate {
                winner: Color::White,
            }) => "1-0",
            Some(Ending::Checkmate {
                winner: Color::Black,
            }) => "0-1",
            Some(_) => "1/2-1/2",
            None => ["1-0", "0-1", "*"][rng.below(3)],
        };
        let _ = writeln!(
            out,
            "[Event \"random {}\"]\n[Site \"?\"]\n[White \"xorshift\"]\n[Black \"xorshift\"]\n[Result \"{result}\"]\n",
            g + 1
        );
        let _ = writeln!(out, "{text}{result}\n");
    }
    out
}
