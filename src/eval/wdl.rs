//! The win/draw/loss model: from a centipawn evaluation to the probability
//! of each board result for the side to move.

use once_cell::sync::Lazy;

use super::ResultMargins;

/// Probabilities of a win, a draw and a loss, in thousandths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wdl {
    /// Win, per mille.
    pub win: i32,
    /// Draw, per mille.
    pub draw: i32,
    /// Loss, per mille.
    pub loss: i32,
}

/// Centipawns covered by the lookup table on each side of zero.
const RANGE: i32 = 2000;

/// One logistic curve of the model: the win chance of a margin of `cp`
/// centipawns is `1 / (1 + exp((centre - cp) / width))`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Curve {
    /// The margin at which a win is as likely as not.
    pub centre: f64,
    /// The curve's width: larger, more draws at the same margin.
    pub width: f64,
}

/// The hand-set curves, full material and bare board (endgames are drawn
/// more often at the same margin); `tally tune --fit-wdl` fits others
/// (`super::tuned::wdl`).
pub const UNTUNED: [Curve; 2] = [
    Curve {
        centre: 230.0,
        width: 85.0,
    },
    Curve {
        centre: 300.0,
        width: 95.0,
    },
];

/// A win/draw/loss model: the win chance per mille of every centipawn
/// margin within 2000 either side of zero, by two curves (full material and a bare
/// board) blended by the game phase.
#[derive(Clone, Debug, PartialEq)]
pub struct WdlModel {
    /// Win chance per mille by centipawns, full material (index 0) and a
    /// bare board (index 1).
    win: [Vec<i32>; 2],
}

impl WdlModel {
    /// The model of two curves, full material and bare board.
    pub fn new(curves: [Curve; 2]) -> WdlModel {
        let table = |c: Curve| -> Vec<i32> {
            (-RANGE..=RANGE)
                .map(|cp| {
                    let x = (c.centre - f64::from(cp)) / c.width;
                    (1000.0 / (1.0 + x.exp())).round() as i32
                })
                .collect()
        };
        WdlModel {
            win: curves.map(table),
        }
    }

    /// The chances of `cp` at game phase `phase` (0 ..= 24).
    pub fn at(&self, cp: i32, phase: i32) -> Wdl {
        let idx = |v: i32| (v.clamp(-RANGE, RANGE) + RANGE) as usize;
        let t = phase.clamp(0, 24);
        let blend = |v: i32| -> i32 {
            let mg = self.win[0][idx(v)];
            let eg = self.win[1][idx(v)];
            (mg * t + eg * (24 - t)) / 24
        };
        let win = blend(cp);
        let loss = blend(-cp);
        Wdl {
            win,
            draw: (1000 - win - loss).max(0),
            loss,
        }
    }
}

/// The model of chess (`super::tuned::wdl`): what the base evaluation and
/// the UCI's `wdl` read.
static CHESS: Lazy<WdlModel> =
    Lazy::new(|| WdlModel::new([super::tuned::wdl::MG, super::tuned::wdl::EG]));

impl Wdl {
    /// The chess model (`super::tuned::wdl`) for `cp` at game phase `phase` (0 ..=
    /// 24).
    pub fn from_cp(cp: i32, phase: i32) -> Wdl {
        CHESS.at(cp, phase)
    }

    /// The expected margin under `r`, in the same units as `r`.
    pub fn expect(self, r: ResultMargins) -> i32 {
        let sum = i64::from(self.win) * i64::from(r.win)
            + i64::from(self.draw) * i64::from(r.draw)
            + i64::from(self.loss) * i64::from(r.loss);
        (sum / 1000) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_and_monotone() {
        let z = Wdl::from_cp(0, 24);
        assert_eq!(z.win, z.loss);
        assert!(z.draw > 700);
        let mut last = -1;
        for cp in (-1500..=1500).step_by(50) {
            let w = Wdl::from_cp(cp, 12);
            assert!(w.win >= last);
            assert_eq!(w.win + w.draw + w.loss, 1000);
            last = w.win;
        }
        assert!(Wdl::from_cp(1000, 24).win > 990);
    }
}
