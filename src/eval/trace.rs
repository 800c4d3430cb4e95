//! The evaluation as a linear function of its weights, for the tuner: a
//! [`Trace`] holds how many times each pair of [`EvalParams`] counts in a
//! position (middlegame and endgame shares follow from the phase), so
//! that the evaluation is the sum of count times weight, tapered.
//!
//! The counts come from the evaluation's own code ([`base::terms`],
//! [`extinction::side_terms`], [`extinction::threat_terms`]) through a
//! [`Sink`], so the trace cannot drift from the evaluation. Fixed, not
//! traced: the phase weights, the endgame scale of drawish material, the
//! mobility base counts ([`super::params::MOBILITY_BASE`]) and the
//! king-attack weights ([`super::params::KING_ATTACK_WEIGHT`]), which pick
//! an entry of the king-danger table (the entries themselves are traced
//! weights). What does not live here: reading data and fitting
//! (`crate::tune`).

use shakmaty::{Board, Color};

use super::base::{self, Sink, Term};
use super::mgeg::MgEg;
use super::params::{EvalParams, MAX_PHASE, ix};
use super::variants::extinction;

/// How many times each weight counts in one position, for the side to
/// move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trace {
    /// Game phase, 0 (bare) ..= [`MAX_PHASE`].
    pub phase: i32,
    /// Endgame scale of the board terms in 64ths.
    pub eg_scale: i32,
    /// Board terms (scaled in the endgame): flat pair index and count.
    pub board: Vec<(u16, i16)>,
    /// Terms outside the endgame scale (tempo, extinction terms): flat
    /// pair index and count.
    pub plain: Vec<(u16, i16)>,
}

/// Dense counts per flat pair index, for one side of the trace.
struct Counts(Vec<i32>);

impl Sink for Counts {
    fn add(&mut self, _term: Term, color: Color, idx: usize, _w: MgEg, n: i32) {
        self.0[idx] += if color.is_white() { n } else { -n };
    }
}

fn sparse(counts: &[i32], sign: i32) -> Vec<(u16, i16)> {
    counts
        .iter()
        .enumerate()
        .filter(|&(_, &c)| c != 0)
        .map(|(i, &c)| (i as u16, (c * sign).clamp(-32768, 32767) as i16))
        .collect()
}

impl Trace {
    /// The trace of `board` with `turn` to move; with `extinction`, the
    /// extinction terms and threats too.
    pub fn of(board: &Board, turn: Color, extinction: bool) -> Trace {
        let p = EvalParams::DEFAULT;
        let mut counts = Counts(vec![0; ix::COUNT]);
        let attacked = base::terms(board, p, &mut counts);
        let sign = if turn.is_white() { 1 } else { -1 };
        let mut plain = vec![0; ix::COUNT];
        plain[ix::TEMPO] = 1;
        if extinction {
            let mut add = |i: usize, _: MgEg, n: i32| plain[i] += n;
            extinction::side_terms(board, turn, p, 1, &mut add);
            extinction::side_terms(board, !turn, p, -1, &mut add);
            extinction::threat_terms(
                board,
                turn,
                extinction::Attacks::Known(attacked),
                p,
                &mut add,
            );
        }
        Trace {
            phase: base::phase(board),
            eg_scale: base::eg_scale(board),
            board: sparse(&counts.0, sign),
            plain: sparse(&plain, 1),
        }
    }

    /// The evaluation under `pairs` (flat, as [`EvalParams::to_pairs`]),
    /// in centipawns for the side to move, rounded as the evaluation
    /// rounds its board terms: equal to it in chess, within 2 in
    /// extinction (which rounds its three groups apart).
    pub fn evaluate(&self, pairs: &[MgEg]) -> i32 {
        let sum = |terms: &[(u16, i16)]| {
            terms.iter().fold(MgEg::default(), |s, &(i, n)| {
                s + pairs[usize::from(i)] * i32::from(n)
            })
        };
        let mut b = sum(&self.board);
        b.eg = b.eg * self.eg_scale / 64;
        b.taper(self.phase) + sum(&self.plain).taper(self.phase)
    }

    /// The linear coefficients: `(2 * pair + 0 for middlegame, 1 for
    /// endgame, coefficient)`, so that the evaluation is, up to rounding,
    /// the sum of coefficient times flat weight ([`linear_value`] under
    /// [`flat`]).
    pub fn linear(&self) -> Vec<(usize, f64)> {
        let mg = f64::from(self.phase) / f64::from(MAX_PHASE);
        let eg = 1.0 - mg;
        let scale = f64::from(self.eg_scale) / 64.0;
        let mut out = Vec::with_capacity(2 * (self.board.len() + self.plain.len()));
        for (list, s) in [(&self.board, scale), (&self.plain, 1.0)] {
            for &(i, n) in list {
                let (i, n) = (usize::from(i), f64::from(n));
                out.push((2 * i, n * mg));
                out.push((2 * i + 1, n * eg * s));
            }
        }
        out
    }
}

/// The flat weights of `pairs`, as [`Trace::linear`] indexes them: `2 *
/// pair` the middlegame weight, `2 * pair + 1` the endgame one.
pub fn flat(pairs: &[MgEg]) -> Vec<f64> {
    pairs
        .iter()
        .flat_map(|s| [f64::from(s.mg), f64::from(s.eg)])
        .collect()
}

/// The pairs of flat weights ([`flat`]), rounded to whole centipawns.
pub fn pairs_of(w: &[f64]) -> Vec<MgEg> {
    w.chunks(2)
        .map(|c| MgEg::new(c[0].round() as i32, c[1].round() as i32))
        .collect()
}

/// The linear evaluation of coefficients ([`Trace::linear`]) under flat
/// weights ([`flat`]): the sum of coefficient times weight.
#[inline]
pub fn linear_value(lin: &[(usize, f64)], w: &[f64]) -> f64 {
    lin.iter().map(|&(i, c)| c * w[i]).sum()
}

/// Positions of seeded random chess playouts, game after game (each up to
/// `plies` plies, or to mate or stalemate), with the side to move: test
/// material for the trace and the tuner.
#[cfg(test)]
pub(crate) fn random_playouts(mut seed: u64, plies: usize) -> impl Iterator<Item = (Board, Color)> {
    use shakmaty::{Chess, Position};
    let mut pos = Chess::default();
    let mut ply = 0;
    std::iter::from_fn(move || {
        loop {
            let moves = pos.legal_moves();
            if moves.is_empty() || ply == plies {
                pos = Chess::default();
                ply = 0;
                continue;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let m = moves[(seed % moves.len() as u64) as usize];
            pos.play_unchecked(m);
            ply += 1;
            return Some((pos.board().clone(), pos.turn()));
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;

    /// Positions from seeded random playouts of chess, and a few fixed
    /// ones with types down to their last pieces.
    fn positions() -> Vec<(Board, Color)> {
        let mut out: Vec<_> = random_playouts(0x2545_f491_4f6c_dd1d, 120)
            .take(4000)
            .collect();
        for fen in [
            "3q3k/8/8/4N3/8/8/8/K7 w - - 0 1",
            "3qk3/8/8/8/8/8/8/3RK2Q w - - 0 1",
            "4k3/8/5N2/3q4/8/8/8/4K3 b - - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNK w kq - 0 1",
            "4k3/pp6/8/8/8/8/5PPP/4K3 b - - 0 1",
        ] {
            let setup = fen.parse::<Fen>().unwrap().into_setup();
            out.push((setup.board, setup.turn));
        }
        out
    }

    #[test]
    fn the_trace_is_the_chess_evaluation() {
        let pairs = EvalParams::DEFAULT.to_pairs();
        let w = flat(&pairs);
        assert_eq!(pairs_of(&w), pairs);
        let all = positions();
        assert!(all.len() > 2000);
        for (board, turn) in &all {
            let t = Trace::of(board, *turn, false);
            assert_eq!(t.evaluate(&pairs), base::evaluate(board, *turn));
            let linear = linear_value(&t.linear(), &w);
            assert!((linear - f64::from(t.evaluate(&pairs))).abs() < 2.0);
        }
    }

    #[test]
    fn the_trace_is_the_extinction_evaluation() {
        let p = EvalParams::of(crate::rules::Variant::Extinction, true);
        let pairs = p.to_pairs();
        let mut with_terms = 0;
        for (board, turn) in positions() {
            let t = Trace::of(&board, turn, true);
            let phase = base::phase(&board);
            let bd = base::breakdown_with(&board, p);
            // The base evaluation's attacks are the ones found afresh.
            assert_eq!(bd.attacks, extinction::attacks_of(&board));
            let real = bd.cp_for(turn)
                + extinction::terms(&board, turn, phase, p)
                + extinction::threats(
                    &board,
                    turn,
                    extinction::Attacks::Known(bd.attacks),
                    phase,
                    p,
                );
            assert!((t.evaluate(&pairs) - real).abs() <= 2, "{board:?}");
            if t.plain.len() > 1 {
                with_terms += 1;
            }
        }
        assert!(with_terms > 100);
    }

    #[test]
    fn other_weights_give_the_evaluation_under_them() {
        // Double every weight: the board terms double too.
        let p = EvalParams::DEFAULT;
        let doubled: Vec<MgEg> = p.to_pairs().iter().map(|&s| s * 2).collect();
        let q = p.with_pairs(&doubled);
        for (board, turn) in positions().iter().step_by(50) {
            let t = Trace::of(board, *turn, false);
            let real = base::breakdown_with(board, &q).cp_for(*turn);
            assert_eq!(t.evaluate(&doubled), real);
        }
    }
}
