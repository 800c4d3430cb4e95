//! The evaluation tuner (`tally tune`): fits the weights of
//! [`EvalParams`] to self-play data by gradient descent on the squared
//! error between `sigmoid(K · eval)` and a target that blends the game's
//! result with the search's score.
//!
//! What lives here: loading quiet positions from `tally datagen` files
//! ([`load`]), fitting `K` ([`fit_k`]), the Adam optimiser over shuffled
//! mini-batches with parallel gradients ([`Tuner`]), and the writer of the
//! generated source file ([`render`]); a whole run of `tally tune`, its
//! epochs and its report ([`run`]). What does not: the evaluation and
//! its trace ([`crate::eval::trace`]), the data format
//! ([`crate::datagen::format`]), the command line (`cli::tune`).
//!
//! Reproducibility: the batches are drawn from a generator seeded by
//! `--seed`, and gradients are summed over fixed chunks in order, so the
//! same data and options give the same weights whatever the number of
//! threads.
//!
//! # The three tuners and their knob macros
//!
//! Each tuner fits one kind of constant, declared once by its own macro
//! that generates the struct (or list), its defaults and what the tuner
//! needs to step each constant. They stay three because the constants
//! differ in kind: vectors of middlegame/endgame pairs with a gradient,
//! mixed scalars with a step and a floor, and whole numbers read live
//! through atomics in a separate build.
//!
//! | Macro | Declares | Tuner | Each constant carries |
//! |---|---|---|---|
//! | `eval_params!` (`eval/params.rs`) | [`EvalParams`] (base evaluation, extinction terms) and its flat layout [`ix`] | `tally tune -v chess` / `extinction`: Adam on a sigmoid of the evaluation (here) | a name and a type of [`MgEg`] pairs (its length) |
//! | `variant_weights!` (`eval/variant_weights.rs`) | [`VariantWeights`](crate::eval::variant_weights::VariantWeights), its hand-set values and [`KNOBS`](crate::eval::variant_weights::VariantWeights::KNOBS) | `tally tune -v` a scoring variant: a pattern search on the points ([`evaluator`]) | a type, a hand-set value, a first step, a floor and the variants that read it |
//! | `tunables!` (`search/params.rs`) | [`tunables`](crate::search::tunables) and, with the `spsa` feature, the live values behind `tuned!` | `tally spsa`: SPSA in engine-versus-engine games ([`spsa`]) | a name (the constant itself) and a range |

pub mod evaluator;
pub mod run;
pub mod spsa;
pub mod wdl;

use std::path::Path;

use rayon::prelude::*;

use crate::datagen::read::each_game;
use crate::eval::mgeg::MgEg;
use crate::eval::params::{EvalParams, ix};
use crate::eval::trace::{self, Trace};
use crate::rules::Variant;

/// Samples summed per gradient chunk (fixed, for reproducible sums).
const CHUNK: usize = 1024;

/// One training position, from the side to move's view.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The evaluation's counts.
    pub trace: Trace,
    /// The game's result: 1 won, 0.5 drawn, 0 lost.
    pub result: f64,
    /// The search's score in centipawns.
    pub score: f64,
}

/// What [`load`] read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Loaded {
    /// The quiet positions for the fit.
    pub samples: Vec<Sample>,
    /// The quiet positions of the held-out games (for the validation loss).
    pub validation: Vec<Sample>,
    /// Positions read in games of the variant.
    pub positions: u64,
    /// Games of other variants, skipped.
    pub other_games: u64,
}

/// Whether the tuner fits `variant`'s evaluation (the centipawn ones).
pub fn supports(variant: Variant) -> bool {
    matches!(variant, Variant::Chess | Variant::Extinction)
}

/// Reads the quiet positions of `variant` from data files: not in check,
/// not forced, not decided, a quiet best action, not a start record.
/// With `holdout` N above 0, every N-th game of the variant (counted
/// across the files in order) goes to [`Loaded::validation`] instead: whole
/// games, so that the validation loss does not see positions of the games
/// it is fitted on.
///
/// # Errors
///
/// A file that cannot be opened or read (one line, naming it).
pub fn load(files: &[impl AsRef<Path>], variant: Variant, holdout: u32) -> Result<Loaded, String> {
    let extinction = variant == Variant::Extinction;
    let mut out = Loaded::default();
    let pass = each_game(files, variant, |game, at| {
        let held_out = holdout > 0 && at.number.is_multiple_of(u64::from(holdout));
        for r in game.quiet() {
            let (result, score) = r.mover_view();
            let into = if held_out {
                &mut out.validation
            } else {
                &mut out.samples
            };
            into.push(Sample {
                trace: Trace::of(&r.setup.board, r.setup.turn, extinction),
                result,
                score,
            });
        }
    })?;
    (out.positions, out.other_games) = (pass.positions, pass.other_games);
    Ok(out)
}

/// The logistic function.
#[inline]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The flat weights of `p` ([`trace::flat`]).
pub fn weights_of(p: &EvalParams) -> Vec<f64> {
    trace::flat(&p.to_pairs())
}

/// The parameters of flat weights (rounded to whole centipawns,
/// [`trace::pairs_of`]).
pub fn params_of(w: &[f64]) -> EvalParams {
    EvalParams::UNTUNED.with_pairs(&trace::pairs_of(w))
}

/// The linear coefficients of each sample's trace ([`Trace::linear`]).
pub fn coefficients(samples: &[Sample]) -> Vec<Vec<(usize, f64)>> {
    samples.par_iter().map(|s| s.trace.linear()).collect()
}

/// The mean squared error of `sigmoid(k · eval)` against `target(sample)`.
pub fn loss(
    samples: &[Sample],
    lin: &[Vec<(usize, f64)>],
    w: &[f64],
    k: f64,
    target: impl Fn(&Sample) -> f64 + Sync,
) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let parts: Vec<f64> = samples
        .par_chunks(CHUNK)
        .zip(lin.par_chunks(CHUNK))
        .map(|(s, l)| {
            s.iter()
                .zip(l)
                .map(|(s, l)| {
                    let d = sigmoid(k * trace::linear_value(l, w)) - target(s);
                    d * d
                })
                .sum::<f64>()
        })
        .collect();
    parts.iter().sum::<f64>() / samples.len() as f64
}

/// The `K` that fits the evaluation under `w` best to the game results:
/// a golden-section search over `[1e-4, 0.1]` (per centipawn).
pub fn fit_k(samples: &[Sample], lin: &[Vec<(usize, f64)>], w: &[f64]) -> f64 {
    let f = |k: f64| loss(samples, lin, w, k, |s| s.result);
    let (mut a, mut b) = (1e-4f64, 0.1f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - g * (b - a);
    let mut d = a + g * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..60 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = f(d);
        }
    }
    (a + b) / 2.0
}

/// The largest step size (`--lr`), in centipawns: a step moves a weight
/// by about this much at most.
pub const MAX_LR: f64 = 100.0;
/// Every weight is kept within ±this many centipawns while it is fitted,
/// so that a fit gone wrong cannot write values the evaluation's sums
/// would overflow on.
pub const MAX_WEIGHT: f64 = 10_000.0;

/// The tuning settings.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Samples per mini-batch.
    pub batch: usize,
    /// Adam's step size, in centipawns.
    pub lr: f64,
    /// The weight of the game result in the target (the rest is the
    /// search score through the same sigmoid).
    pub lambda: f64,
    /// The shuffling seed.
    pub seed: u64,
    /// The weight of an L2 penalty on each weight's distance from its
    /// starting value (0 for none): it keeps the weights that few
    /// positions see (a knight on h8) near their start.
    pub l2: f64,
}

/// Adam over shuffled mini-batches.
#[derive(Clone, Debug)]
pub struct Tuner {
    /// The current flat weights.
    pub w: Vec<f64>,
    /// The starting weights (the L2 penalty's centre).
    w0: Vec<f64>,
    /// The fitted scale of the sigmoid.
    pub k: f64,
    settings: Settings,
    m: Vec<f64>,
    v: Vec<f64>,
    t: i32,
    rng: u64,
    lin: Vec<Vec<(usize, f64)>>,
}

impl Tuner {
    /// A tuner from `start` over `samples` with the sigmoid scale `k`.
    pub fn new(start: &EvalParams, samples: &[Sample], k: f64, settings: Settings) -> Tuner {
        let w = weights_of(start);
        let n = w.len();
        Tuner {
            w0: w.clone(),
            w,
            k,
            rng: settings.seed ^ 0x9e37_79b9_7f4a_7c15,
            settings,
            m: vec![0.0; n],
            v: vec![0.0; n],
            t: 0,
            lin: coefficients(samples),
        }
    }

    /// The linear coefficients of the samples (in their order).
    pub fn linear(&self) -> &[Vec<(usize, f64)>] {
        &self.lin
    }

    /// The target of a sample.
    pub fn target(&self, s: &Sample) -> f64 {
        let l = self.settings.lambda;
        l * s.result + (1.0 - l) * sigmoid(self.k * s.score)
    }

    /// The loss over `samples` (the samples the tuner was made with)
    /// under the current weights.
    pub fn loss(&self, samples: &[Sample]) -> f64 {
        self.loss_on(samples, &self.lin)
    }

    /// The loss over other samples (the validation set), given their
    /// linear coefficients ([`Trace::linear`]).
    pub fn loss_on(&self, samples: &[Sample], lin: &[Vec<(usize, f64)>]) -> f64 {
        let (l, k) = (self.settings.lambda, self.k);
        loss(samples, lin, &self.w, k, |s| {
            l * s.result + (1.0 - l) * sigmoid(k * s.score)
        })
    }

    fn next_random(&mut self) -> u64 {
        // splitmix64
        self.rng = self.rng.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// One pass over the samples in a fresh shuffled order; `on_batch`
    /// is told the samples done so far.
    pub fn epoch(&mut self, samples: &[Sample], mut on_batch: impl FnMut(usize)) {
        let mut order: Vec<usize> = (0..samples.len()).collect();
        for i in (1..order.len()).rev() {
            let j = (self.next_random() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        let batch = self.settings.batch.max(1);
        let mut done = 0;
        for idx in order.chunks(batch) {
            self.step(samples, idx);
            done += idx.len();
            on_batch(done);
        }
    }

    /// One Adam step on the samples `idx`.
    fn step(&mut self, samples: &[Sample], idx: &[usize]) {
        let (w, k, lin) = (&self.w, self.k, &self.lin);
        let n = w.len();
        let parts: Vec<Vec<f64>> = idx
            .par_chunks(CHUNK)
            .map(|chunk| {
                let mut g = vec![0.0; n];
                for &i in chunk {
                    let l = &lin[i];
                    let s = sigmoid(k * trace::linear_value(l, w));
                    let d = 2.0 * (s - self.target(&samples[i])) * s * (1.0 - s) * k;
                    for &(j, c) in l {
                        g[j] += d * c;
                    }
                }
                g
            })
            .collect();
        let mut grad = vec![0.0; n];
        for p in &parts {
            for (g, x) in grad.iter_mut().zip(p) {
                *g += x;
            }
        }
        let scale = 1.0 / idx.len() as f64;
        let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8f64);
        self.t += 1;
        let c1 = 1.0 - b1.powi(self.t);
        let c2 = 1.0 - b2.powi(self.t);
        let (lr, l2) = (self.settings.lr, self.settings.l2);
        let moments = self.m.iter_mut().zip(self.v.iter_mut());
        let grads = grad.iter().zip(&self.w0);
        for ((w, (g, w0)), (m, v)) in self.w.iter_mut().zip(grads).zip(moments) {
            let g = g * scale + l2 * (*w - w0);
            *m = b1 * *m + (1.0 - b1) * g;
            *v = b2 * *v + (1.0 - b2) * g * g;
            *w = (*w - lr * (*m / c1) / ((*v / c2).sqrt() + eps)).clamp(-MAX_WEIGHT, MAX_WEIGHT);
        }
    }

    /// The current weights as parameters.
    pub fn params(&self) -> EvalParams {
        params_of(&self.w)
    }
}

/// The generated source file of `p`: `src/eval/tuned/<variant>.rs`,
/// holding `pub const TUNED: EvalParams`. `origin` says how it was made (one
/// line, written in its header).
pub fn render(p: &EvalParams, origin: &str) -> String {
    let pairs = p.to_pairs();
    let mut out = String::new();
    out.push_str("//! Tuned evaluation weights, generated by `tally tune` (see\n");
    out.push_str("//! `docs/tune.md`); do not edit by hand.\n//!\n");
    out.push_str(&format!("//! {}\n\n", origin.replace('\n', " ")));
    out.push_str("use crate::eval::mgeg::MgEg;\nuse crate::eval::params::EvalParams;\n\n");
    out.push_str("const fn s(mg: i32, eg: i32) -> MgEg {\n    MgEg::new(mg, eg)\n}\n\n");
    out.push_str("/// The weights `tally tune` fitted.\n");
    out.push_str("#[rustfmt::skip]\npub const TUNED: EvalParams = EvalParams {\n");
    for &(name, off, len, ty) in EvalParams::FIELDS {
        let dims: Vec<usize> = ty
            .split(';')
            .skip(1)
            .filter_map(|d| d.trim().trim_end_matches(']').trim().parse().ok())
            .collect();
        let vals = &pairs[off..off + len];
        out.push_str(&format!("    {name}: {},\n", nested(vals, &dims)));
    }
    out.push_str("};\n");
    out
}

/// `vals` as a Rust expression of nested arrays, `dims` innermost first.
fn nested(vals: &[MgEg], dims: &[usize]) -> String {
    match dims.split_last() {
        None => format!("s({}, {})", vals[0].mg, vals[0].eg),
        Some((&outer, inner)) => {
            let size = vals.len() / outer.max(1);
            let items: Vec<String> = vals.chunks(size.max(1)).map(|c| nested(c, inner)).collect();
            if inner.is_empty() && items.len() > 8 {
                let rows: Vec<String> = items.chunks(8).map(|r| r.join(", ")).collect();
                format!("[\n        {},\n    ]", rows.join(",\n        "))
            } else {
                format!("[{}]", items.join(", "))
            }
        }
    }
}

/// The number of flat weights.
pub const WEIGHTS: usize = 2 * ix::COUNT;

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions from seeded random playouts (every third ply).
    fn traces(n: usize) -> Vec<Trace> {
        crate::eval::trace::random_playouts(0x1234_5678_9abc_def1, 100)
            .step_by(3)
            .map(|(board, turn)| Trace::of(&board, turn, false))
            .take(n)
            .collect()
    }

    /// `n` positions labelled by the weights `w` through the sigmoid of
    /// scale `k` (result and score alike).
    fn labelled(n: usize, w: &[f64], k: f64) -> Vec<Sample> {
        traces(n)
            .into_iter()
            .map(|trace| {
                let e = trace::linear_value(&trace.linear(), w);
                Sample {
                    trace,
                    result: sigmoid(k * e),
                    score: e,
                }
            })
            .collect()
    }

    #[test]
    fn the_tuner_recovers_known_weights() {
        // Label positions with a known weight vector through the sigmoid,
        // start from material perturbed by 60 cp, and fit.
        let truth = EvalParams::UNTUNED;
        let tw = weights_of(&truth);
        let k = 0.004;
        let samples = labelled(6000, &tw, k);
        let mut start = truth.clone();
        for (i, m) in start.material.iter_mut().take(5).enumerate() {
            let d = if i % 2 == 0 { 60 } else { -60 };
            *m += MgEg::new(d, -d);
        }
        let settings = Settings {
            batch: 256,
            lr: 2.0,
            lambda: 1.0,
            seed: 7,
            l2: 0.0,
        };
        let mut tuner = Tuner::new(&start, &samples, k, settings);
        let before = tuner.loss(&samples);
        for _ in 0..40 {
            tuner.epoch(&samples, |_| {});
        }
        let after = tuner.loss(&samples);
        assert!(after < before / 20.0, "{before} -> {after}");
        let got = tuner.params();
        for r in 0..5 {
            let (g, t) = (got.material[r], truth.material[r]);
            assert!((g.mg - t.mg).abs() <= 15, "{r}: {g:?} vs {t:?}");
            assert!((g.eg - t.eg).abs() <= 15, "{r}: {g:?} vs {t:?}");
        }
        // The fitted K of exact labels is the labelling K.
        let kk = fit_k(&samples, tuner.linear(), &tw);
        assert!((kk - k).abs() < 1e-4, "{kk}");
    }

    #[test]
    fn the_l2_penalty_holds_weights_at_their_start() {
        // The same fit as above, with a penalty far above the data's
        // gradients: the material stays where it started.
        let truth = EvalParams::UNTUNED;
        let tw = weights_of(&truth);
        let k = 0.004;
        let samples = labelled(2000, &tw, k);
        let mut start = truth.clone();
        start.material[1] += MgEg::new(60, -60);
        let fit = |l2: f64| {
            let settings = Settings {
                batch: 256,
                lr: 2.0,
                lambda: 1.0,
                seed: 7,
                l2,
            };
            let mut tuner = Tuner::new(&start, &samples, k, settings);
            for _ in 0..20 {
                tuner.epoch(&samples, |_| {});
            }
            tuner.params().material[1]
        };
        let (free, held) = (fit(0.0), fit(1.0));
        assert!((free.mg - truth.material[1].mg).abs() < 30, "{free:?}");
        assert!((held.mg - start.material[1].mg).abs() <= 3, "{held:?}");
        assert!((held.eg - start.material[1].eg).abs() <= 3, "{held:?}");
    }

    #[test]
    fn a_step_of_any_size_keeps_the_weights_bounded() {
        let truth = EvalParams::UNTUNED;
        let k = 0.004;
        let samples = labelled(500, &weights_of(&truth), k);
        let mut start = truth.clone();
        start.material[1] += MgEg::new(60, -60);
        let settings = Settings {
            batch: 256,
            lr: 1e30,
            lambda: 1.0,
            seed: 7,
            l2: 0.0,
        };
        let mut tuner = Tuner::new(&start, &samples, k, settings);
        tuner.epoch(&samples, |_| {});
        assert!(tuner.w.iter().all(|w| w.abs() <= MAX_WEIGHT));
        assert!(tuner.w.iter().any(|w| w.abs() == MAX_WEIGHT));
        assert!(tuner.loss(&samples).is_finite());
    }

    #[test]
    fn the_generated_file_is_the_writer_of_its_weights() {
        let files = [
            (
                include_str!("../eval/tuned/chess.rs"),
                &crate::eval::tuned::chess::TUNED,
            ),
            (
                include_str!("../eval/tuned/extinction.rs"),
                &crate::eval::tuned::extinction::TUNED,
            ),
        ];
        for (text, weights) in files {
            let origin = text.lines().nth(3).unwrap().trim_start_matches("//! ");
            assert_eq!(render(weights, origin), text);
        }
        // Every weight survives the trip through the flat weights.
        let p = EvalParams::UNTUNED;
        assert_eq!(params_of(&weights_of(&p)), p);
    }
}
