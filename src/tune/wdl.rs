//! The fit of the win/draw/loss model ([`crate::eval::wdl`]) to self-play
//! data (`tally tune --fit-wdl`): the two logistic curves, middlegame and bare
//! endgame, that turn a centipawn margin into the chance of a win, chosen
//! to maximise the likelihood of the games' results given the searches'
//! scores.
//!
//! The model: at phase `t` (0 bare .. 1 full material), the win chance of
//! `cp` is `t · σ((cp − c_mg) / w_mg) + (1 − t) · σ((cp − c_eg) / w_eg)`,
//! the loss chance the win chance of `−cp`, the draw the rest. The fit is a
//! deterministic pattern search (each parameter tried one step either way,
//! the step halved when none helps), so the same data gives the same
//! curves.

use std::path::Path;

use rayon::prelude::*;

use super::sigmoid;
use crate::datagen::read::each_game;
use crate::eval::base;
use crate::eval::params::MAX_PHASE;
use crate::eval::wdl::Curve;
use crate::rules::Variant;

/// Scores beyond this many centipawns count as this many (the model's
/// table ends there).
const CP_LIMIT: f64 = 2000.0;

/// One position for the fit, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlSample {
    /// The search's score in centipawns.
    pub cp: f64,
    /// The phase as a share of the full material, 0 ..= 1.
    pub phase: f64,
    /// The game's result: 1 won, 0.5 drawn, 0 lost.
    pub result: f64,
}

/// The model's two curves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlFit {
    /// The curve of full material.
    pub mg: Curve,
    /// The curve of a bare board.
    pub eg: Curve,
}

impl WdlFit {
    /// The win, draw and loss chances of `cp` at `phase` (0 ..= 1).
    pub fn chances(&self, cp: f64, phase: f64) -> (f64, f64, f64) {
        let win_of = |x: f64| {
            phase * sigmoid((x - self.mg.centre) / self.mg.width)
                + (1.0 - phase) * sigmoid((x - self.eg.centre) / self.eg.width)
        };
        let (w, l) = (win_of(cp), win_of(-cp));
        (w, (1.0 - w - l).max(0.0), l)
    }

    /// The mean negative log-likelihood of the samples' results.
    pub fn loss(&self, samples: &[WdlSample]) -> f64 {
        if samples.is_empty() {
            return 0.0;
        }
        let sum: f64 = samples
            .par_chunks(4096)
            .map(|c| {
                c.iter()
                    .map(|s| {
                        let (w, d, l) = self.chances(s.cp, s.phase);
                        let p = if s.result > 0.75 {
                            w
                        } else if s.result < 0.25 {
                            l
                        } else {
                            d
                        };
                        -p.max(1e-9).ln()
                    })
                    .sum::<f64>()
            })
            .collect::<Vec<f64>>()
            .iter()
            .sum();
        sum / samples.len() as f64
    }

    fn get(&self, i: usize) -> f64 {
        [self.mg.centre, self.mg.width, self.eg.centre, self.eg.width][i]
    }

    fn with(&self, i: usize, v: f64) -> WdlFit {
        let mut f = *self;
        match i {
            0 => f.mg.centre = v,
            1 => f.mg.width = v,
            2 => f.eg.centre = v,
            _ => f.eg.width = v,
        }
        f
    }
}

/// The curves that best explain the samples, from `start`: a pattern
/// search with steps from 32 centipawns down to 1/64. Widths stay at 1
/// centipawn or more.
pub fn fit(samples: &[WdlSample], start: WdlFit) -> WdlFit {
    let mut best = start;
    let mut best_loss = best.loss(samples);
    let mut step = 32.0;
    while step >= 1.0 / 64.0 {
        let mut moved = false;
        for i in 0..4 {
            for dir in [1.0, -1.0] {
                let v = best.get(i) + dir * step;
                if i % 2 == 1 && v < 1.0 {
                    continue;
                }
                let cand = best.with(i, v);
                let l = cand.loss(samples);
                if l < best_loss {
                    (best, best_loss, moved) = (cand, l, true);
                    break;
                }
            }
        }
        if !moved {
            step /= 2.0;
        }
    }
    best
}

/// Reads the quiet positions of `variant` (as [`super::load`] picks them)
/// with their phase, score and result.
///
/// # Errors
///
/// A file that cannot be opened or read (one line, naming it).
pub fn load_wdl(files: &[impl AsRef<Path>], variant: Variant) -> Result<Vec<WdlSample>, String> {
    let mut out = Vec::new();
    each_game(files, variant, |game, _| {
        for r in game.quiet() {
            let (result, score) = r.mover_view();
            let phase = base::phase(&r.setup.board).clamp(0, MAX_PHASE);
            out.push(WdlSample {
                cp: score.clamp(-CP_LIMIT, CP_LIMIT),
                phase: f64::from(phase) / f64::from(MAX_PHASE),
                result,
            });
        }
    })?;
    Ok(out)
}

/// The generated source file of the fitted model
/// (`src/eval/tuned/wdl.rs`); `origin` says how it was made.
pub fn render_wdl(fit: &WdlFit, origin: &str) -> String {
    let curve = |c: Curve| {
        format!(
            "Curve {{\n    centre: {:.1},\n    width: {:.1},\n}}",
            c.centre, c.width
        )
    };
    format!(
        "//! The win/draw/loss model's curves, generated by `tally tune --fit-wdl`\n\
         //! (see `docs/tune.md`); do not edit by hand.\n//!\n//! {}\n\n\
         use crate::eval::wdl::Curve;\n\n\
         /// The curve of full material.\n\
         pub const MG: Curve = {};\n\n\
         /// The curve of a bare board.\n\
         pub const EG: Curve = {};\n",
        origin.replace('\n', " "),
        curve(fit.mg),
        curve(fit.eg)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Samples whose results follow `truth`: for each score and phase on
    /// a grid, outcomes in the model's proportions.
    fn synthetic(truth: &WdlFit) -> Vec<WdlSample> {
        let mut out = Vec::new();
        for cp in (-900..=900).step_by(25) {
            for ph in [0.0, 0.25, 0.5, 0.75, 1.0] {
                let (w, d, _) = truth.chances(f64::from(cp), ph);
                let n = 200;
                let wins = (w * f64::from(n)).round() as i32;
                let draws = (d * f64::from(n)).round() as i32;
                for k in 0..n {
                    let result = if k < wins {
                        1.0
                    } else if k < wins + draws {
                        0.5
                    } else {
                        0.0
                    };
                    out.push(WdlSample {
                        cp: f64::from(cp),
                        phase: ph,
                        result,
                    });
                }
            }
        }
        out
    }

    #[test]
    fn the_fit_recovers_known_curves() {
        let truth = WdlFit {
            mg: Curve {
                centre: 180.0,
                width: 70.0,
            },
            eg: Curve {
                centre: 340.0,
                width: 110.0,
            },
        };
        let samples = synthetic(&truth);
        let start = WdlFit {
            mg: Curve {
                centre: 230.0,
                width: 85.0,
            },
            eg: Curve {
                centre: 300.0,
                width: 95.0,
            },
        };
        let got = fit(&samples, start);
        assert!(got.loss(&samples) < start.loss(&samples));
        for (g, t) in [(got.mg, truth.mg), (got.eg, truth.eg)] {
            assert!((g.centre - t.centre).abs() < 8.0, "{got:?}");
            assert!((g.width - t.width).abs() < 8.0, "{got:?}");
        }
    }

    #[test]
    fn the_generated_file_is_the_writer_of_its_curves() {
        let text = include_str!("../eval/tuned/wdl.rs");
        let origin = text.lines().nth(3).unwrap().trim_start_matches("//! ");
        let f = WdlFit {
            mg: crate::eval::tuned::wdl::MG,
            eg: crate::eval::tuned::wdl::EG,
        };
        assert_eq!(render_wdl(&f, origin), text);
    }

    #[test]
    fn chances_add_up_and_mirror() {
        let f = WdlFit {
            mg: Curve {
                centre: 200.0,
                width: 80.0,
            },
            eg: Curve {
                centre: 300.0,
                width: 90.0,
            },
        };
        for cp in [-500.0, -50.0, 0.0, 120.0, 800.0] {
            let (w, d, l) = f.chances(cp, 0.4);
            assert!((w + d + l - 1.0).abs() < 1e-9);
            let (w2, _, l2) = f.chances(-cp, 0.4);
            assert!((w - l2).abs() < 1e-12 && (l - w2).abs() < 1e-12);
        }
    }
}
