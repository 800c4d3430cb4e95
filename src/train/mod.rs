//! The network trainer (`tally train`): fits the float weights of Tally's
//! NNUE ([`crate::nnue`]) to self-play data and writes them quantised in
//! the engine's net format.
//!
//! What lives here: the float network and its forward and backward passes
//! ([`Trainer`]), AdamW with a learning-rate schedule ([`Schedule`]) over
//! shuffled mini-batches with gradients computed on every core, the
//! quantisation ([`Trainer::network`]) and the check of the engine's
//! integer inference against the float pass ([`compare`]). The data
//! ([`data`]) and the checkpoints ([`checkpoint`]) have their own modules,
//! as do how a run starts ([`start`]), a whole run of `tally train` with
//! its epochs and report ([`run`]), the margin head ([`head`]) and the
//! options of the command ([`options`]).
//! What does not: the net format and the integer inference
//! ([`crate::nnue`]), the command line (`cli::train`).
//!
//! **The loss.** The float output `o` is a value of `OUTPUT_SCALE · o`
//! internal units; the prediction is `sigmoid(K · OUTPUT_SCALE · o)` and the
//! target `λ · result + (1 - λ) · sigmoid(K · score)`, blending the game's
//! result with the search's score through the same sigmoid (`K` per
//! internal unit, fitted to the data as the tuner fits its own, or given).
//! With `λ = 0` the net learns the search's scores themselves; the loss is
//! the mean squared error.
//!
//! **Sparse first layer.** A position has at most 32 active features of
//! 768, so a sample's gradient touches only those rows of the hidden
//! weights; a batch records which rows it touched, and AdamW updates only
//! those (their moments too), plus the biases and the output layer.
//!
//! **Reproducible.** Batches are drawn by a generator seeded by `--seed`;
//! gradients are summed over fixed chunks of a batch in order, so the same
//! data and options give the same net whatever the number of threads; a
//! checkpoint holds the generator, so a resumed run continues the same
//! sequence.

pub mod checkpoint;
pub mod data;
pub mod head;
pub mod options;
pub mod run;
pub mod start;

use rayon::prelude::*;

use crate::nnue::{
    FEATURES, HIDDEN, Head, MAX_BUCKETS, MAX_FEATURE_WEIGHT, MAX_OUTPUT_WEIGHT, Network,
    OUTPUT_SCALE, QA, QB,
};
use crate::rules::{BoardKind, Variant};
use data::{Sample, splitmix};

/// Samples per gradient chunk (fixed, for reproducible sums).
pub const CHUNK: usize = 512;

/// Internal units per unit of the float output.
const SCALE: f32 = OUTPUT_SCALE as f32;
/// The hidden weights and biases are kept within ±this (the loader's
/// bound, [`MAX_FEATURE_WEIGHT`] / [`QA`]).
pub const CLIP_HIDDEN: f32 = MAX_FEATURE_WEIGHT as f32 / QA as f32;
/// The output weights are kept within ±this ([`MAX_OUTPUT_WEIGHT`] /
/// [`QB`]).
pub const CLIP_OUTPUT: f32 = MAX_OUTPUT_WEIGHT as f32 / QB as f32;
/// The output biases are kept within ±this: with the output weights
/// within [`CLIP_OUTPUT`] the float output stays inside the engine's clamp
/// of a net's value (2^20 internal units), so the quantised net computes
/// what the float pass does, and the bias times `QA · QB` fits an `i32`.
pub const CLIP_OUTPUT_BIAS: f32 = 1000.0;
const _: () = assert!(
    ((2 * HIDDEN) as f32 * CLIP_OUTPUT + CLIP_OUTPUT_BIAS) * (OUTPUT_SCALE as f32)
        < (1u32 << 20) as f32
);
/// The largest learning rate (`--lr`): Adam's step moves a weight by about
/// this much at most, and the weights live within ±2.
pub const MAX_LR: f64 = 1.0;

/// Where each group of weights starts in the flat parameter vector: the
/// hidden weights, the hidden biases, then per output bucket its weights
/// (side to move first) and its bias.
const FT_W: usize = 0;
const FT_B: usize = FEATURES * HIDDEN;
const OUT_W: usize = FT_B + HIDDEN;
/// The float parameters of one output bucket.
const LAYER: usize = 2 * HIDDEN + 1;

/// Where output bucket `b`'s weights start.
#[inline]
const fn out_w(b: usize) -> usize {
    OUT_W + b * LAYER
}

/// Where output bucket `b`'s bias is.
#[inline]
const fn out_b(b: usize) -> usize {
    out_w(b) + 2 * HIDDEN
}

/// The number of float parameters of a net of `buckets` output buckets
/// (one head).
pub const fn params_len(buckets: usize) -> usize {
    OUT_W + buckets * LAYER
}

/// The output buckets of a parameter vector of `len` floats, if it is one.
pub fn buckets_of_len(len: usize) -> Option<usize> {
    let b = len.checked_sub(OUT_W)? / LAYER;
    (params_len(b) == len && (1..=MAX_BUCKETS).contains(&b)).then_some(b)
}

/// Whether the trainer trains nets on `variant`'s games: chess and
/// extinction, whose searches' scores are in the units a net learns
/// ([`crate::eval::net_alone`]; the scoring variants read a chess net).
pub fn supports(variant: Variant) -> bool {
    crate::eval::net_alone(variant)
}

/// The logistic function.
#[inline]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

#[inline]
fn sigmoid32(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The `K` (per internal unit) for which `sigmoid(K · score)` best
/// predicts the results: a golden-section search over `[1e-4, 0.05]`.
/// `ln 10 / 400` for no samples.
pub fn fit_k(samples: &[Sample]) -> f64 {
    if samples.is_empty() {
        return std::f64::consts::LN_10 / 400.0;
    }
    let f = |k: f64| -> f64 {
        samples
            .par_chunks(CHUNK)
            .map(|c| {
                c.iter()
                    .map(|s| {
                        let d = sigmoid(k * f64::from(s.score)) - f64::from(s.result);
                        d * d
                    })
                    .sum::<f64>()
            })
            .collect::<Vec<f64>>()
            .iter()
            .sum()
    };
    let (mut a, mut b) = (1e-4f64, 0.05f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut c, mut d) = (b - g * (b - a), a + g * (b - a));
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..50 {
        if fc < fd {
            (b, d, fd) = (d, c, fc);
            c = b - g * (b - a);
            fc = f(c);
        } else {
            (a, c, fc) = (c, d, fd);
            d = a + g * (b - a);
            fd = f(d);
        }
    }
    (a + b) / 2.0
}

/// How the learning rate falls over the run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Schedule {
    /// From the rate down to `final_fraction` of it along a half cosine
    /// over every step of the run.
    Cosine {
        /// The last step's share of the rate.
        final_fraction: f64,
    },
    /// The rate times `gamma` after every `every` epochs.
    Step {
        /// Epochs per drop.
        every: u32,
        /// The factor of each drop.
        gamma: f64,
    },
}

/// The training settings.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Passes over the training positions.
    pub epochs: u32,
    /// Positions per mini-batch.
    pub batch: usize,
    /// AdamW's learning rate.
    pub lr: f64,
    /// The schedule of the learning rate.
    pub schedule: Schedule,
    /// AdamW's decoupled weight decay (weights only, not biases).
    pub weight_decay: f64,
    /// The weight of the game result in the target (`--wdl`).
    pub lambda: f64,
    /// The sigmoid's scale per internal unit.
    pub k: f64,
    /// The seed of the initial weights and the batches.
    pub seed: u64,
    /// Output buckets of the net (1 ..= [`MAX_BUCKETS`]).
    pub buckets: usize,
}

/// The learning rate at `step` of a run of `total` steps, `per_epoch` a
/// epoch.
pub fn learning_rate(s: &Settings, step: u64, per_epoch: u64, total: u64) -> f64 {
    match s.schedule {
        Schedule::Cosine { final_fraction } => {
            let t = step as f64 / total.max(1) as f64;
            let end = s.lr * final_fraction;
            end + (s.lr - end) * (1.0 + (std::f64::consts::PI * t.min(1.0)).cos()) / 2.0
        }
        Schedule::Step { every, gamma } => {
            let epoch = step / per_epoch.max(1);
            let drops = epoch / u64::from(every.max(1));
            s.lr * gamma.powi(drops.min(1000) as i32)
        }
    }
}

/// The float accumulators of a sample: `[side to move, other side]`.
type Accs = [[f32; HIDDEN]; 2];

/// The hidden sums of both perspectives under `p`.
#[inline]
fn accumulate(p: &[f32], s: &Sample) -> Accs {
    let mut acc = [[0f32; HIDDEN]; 2];
    for (side, a) in acc.iter_mut().enumerate() {
        a.copy_from_slice(&p[FT_B..FT_B + HIDDEN]);
        for f in s.features(side == 0) {
            let row = &p[FT_W + f * HIDDEN..FT_W + (f + 1) * HIDDEN];
            for (x, w) in a.iter_mut().zip(row) {
                *x += w;
            }
        }
    }
    acc
}

/// The output bucket of a sample in a net of `buckets` output buckets.
#[inline]
fn bucket_of(buckets: usize, s: &Sample) -> usize {
    crate::nnue::bucket(s.pieces(), buckets)
}

/// The float output of accumulators under `p`, read by output bucket `b`.
#[inline]
fn output(p: &[f32], acc: &Accs, b: usize) -> f32 {
    let mut o = p[out_b(b)];
    for (side, a) in acc.iter().enumerate() {
        let w = &p[out_w(b) + side * HIDDEN..out_w(b) + (side + 1) * HIDDEN];
        for (x, w) in a.iter().zip(w) {
            let c = x.clamp(0.0, 1.0);
            o += c * c * w;
        }
    }
    o
}

/// A chunk's summed gradient and loss.
struct Grad {
    g: Vec<f32>,
    touched: Vec<bool>,
    loss: f64,
}

/// AdamW over mini-batches, and the float network it trains.
#[derive(Clone, Debug)]
pub struct Trainer {
    /// The flat float parameters: hidden weights (feature by feature),
    /// hidden biases, then per output bucket its weights (side to move
    /// first) and bias.
    pub params: Vec<f32>,
    m: Vec<f32>,
    v: Vec<f32>,
    /// AdamW steps taken.
    pub step: u64,
    /// Epochs completed.
    pub epoch: u32,
    rng: u64,
    /// The board kind of the net.
    pub board: BoardKind,
    /// The settings.
    pub settings: Settings,
}

impl Trainer {
    /// A trainer with seeded random weights: hidden weights uniform in
    /// ±0.1 (a position's ~30 features then sum to about ±0.3), output
    /// weights in ±1/√(2·HIDDEN) (the same in every bucket), biases 0.
    /// `settings.buckets` is held within 1 ..= [`MAX_BUCKETS`].
    pub fn new(board: BoardKind, mut settings: Settings) -> Trainer {
        settings.buckets = settings.buckets.clamp(1, MAX_BUCKETS);
        let mut rng = settings.seed ^ 0x005e_ed0f_7a11_u64;
        let mut uniform = |r: f32| {
            let u = (splitmix(&mut rng) >> 40) as f32 / (1u64 << 24) as f32;
            (2.0 * u - 1.0) * r
        };
        let len = params_len(settings.buckets);
        let mut params = vec![0f32; len];
        for w in &mut params[FT_W..FT_B] {
            *w = uniform(0.1);
        }
        let out = 1.0 / (2.0 * HIDDEN as f32).sqrt();
        for w in &mut params[out_w(0)..out_b(0)] {
            *w = uniform(out);
        }
        copy_bucket_zero(&mut params);
        Trainer {
            params,
            m: vec![0.0; len],
            v: vec![0.0; len],
            step: 0,
            epoch: 0,
            rng,
            board,
            settings,
        }
    }

    /// A trainer whose weights start as `net`'s (dequantised, head 0),
    /// its moments at zero: a run that goes on from a shipped net with
    /// new data (`tally train --init`). A net of one bucket starts every
    /// one of `settings.buckets` as its output layer, and a net of fewer
    /// than [`HIDDEN`] neurons grows random hidden weights for the others
    /// (their output weights zero), so the trainer starts with the net's
    /// function.
    ///
    /// # Errors
    ///
    /// A one-line message when `net` is for another board, or has several
    /// buckets but not `settings.buckets`.
    pub fn from_net(
        board: BoardKind,
        settings: Settings,
        net: &Network,
    ) -> Result<Trainer, String> {
        if net.board() != board {
            return Err(format!(
                "{} is a net for the {} board, not the {} board",
                net.name(),
                net.board().name(),
                board.name()
            ));
        }
        let mut t = Trainer::new(board, settings);
        let buckets = t.settings.buckets;
        if net.buckets() != 1 && net.buckets() != buckets {
            return Err(format!(
                "{} has {} output buckets, not {buckets}",
                net.name(),
                net.buckets()
            ));
        }
        let mut p = dequantised(net);
        p.resize(params_len(buckets), 0.0);
        if net.buckets() == 1 {
            copy_bucket_zero(&mut p);
        }
        // A narrower net's missing neurons start with the fresh trainer's
        // random hidden weights and zero output weights: the function is
        // the net's, and the new neurons have gradients to learn from.
        for f in 0..FEATURES {
            let row = FT_W + f * HIDDEN;
            p[row + net.hidden()..row + HIDDEN]
                .copy_from_slice(&t.params[row + net.hidden()..row + HIDDEN]);
        }
        t.params = p;
        Ok(t)
    }

    /// The float value of a sample in internal units.
    pub fn evaluate(&self, s: &Sample) -> f32 {
        let p = &self.params;
        output(p, &accumulate(p, s), bucket_of(self.settings.buckets, s)) * SCALE
    }

    /// The target of a sample.
    #[inline]
    fn target(&self, s: &Sample) -> f32 {
        let l = self.settings.lambda as f32;
        let k = self.settings.k as f32;
        l * s.result + (1.0 - l) * sigmoid32(k * s.score)
    }

    /// The mean loss over `samples` (0 for none).
    pub fn loss(&self, samples: &[Sample]) -> f64 {
        if samples.is_empty() {
            return 0.0;
        }
        let k = self.settings.k as f32;
        let parts: Vec<f64> = samples
            .par_chunks(CHUNK)
            .map(|c| {
                c.iter()
                    .map(|s| {
                        let d = sigmoid32(k * self.evaluate(s)) - self.target(s);
                        f64::from(d * d)
                    })
                    .sum::<f64>()
            })
            .collect();
        parts.iter().sum::<f64>() / samples.len() as f64
    }

    /// The summed gradient and loss of the samples `idx`.
    fn chunk_grad(&self, samples: &[Sample], idx: &[u32]) -> Grad {
        let p = &self.params;
        let k = self.settings.k as f32;
        let mut g = Grad {
            g: vec![0.0; p.len()],
            touched: vec![false; FEATURES],
            loss: 0.0,
        };
        for &i in idx {
            let s = &samples[i as usize];
            let acc = accumulate(p, s);
            let b = bucket_of(self.settings.buckets, s);
            let pred = sigmoid32(k * output(p, &acc, b) * SCALE);
            let diff = pred - self.target(s);
            g.loss += f64::from(diff * diff);
            // d loss / d output.
            let d = 2.0 * diff * pred * (1.0 - pred) * k * SCALE;
            g.g[out_b(b)] += d;
            for (side, a) in acc.iter().enumerate() {
                let ow = out_w(b) + side * HIDDEN;
                let mut da = [0f32; HIDDEN];
                for j in 0..HIDDEN {
                    let x = a[j];
                    let c = x.clamp(0.0, 1.0);
                    g.g[ow + j] += d * c * c;
                    if x > 0.0 && x < 1.0 {
                        da[j] = d * p[ow + j] * 2.0 * x;
                    }
                }
                for (gb, x) in g.g[FT_B..FT_B + HIDDEN].iter_mut().zip(&da) {
                    *gb += x;
                }
                for f in s.features(side == 0) {
                    g.touched[f] = true;
                    let row = &mut g.g[FT_W + f * HIDDEN..FT_W + (f + 1) * HIDDEN];
                    for (gw, x) in row.iter_mut().zip(&da) {
                        *gw += x;
                    }
                }
            }
        }
        g
    }

    /// One AdamW step on the samples `idx` at learning rate `lr`; returns
    /// their summed loss.
    fn step(&mut self, samples: &[Sample], idx: &[u32], lr: f64) -> f64 {
        let parts: Vec<Grad> = idx
            .par_chunks(CHUNK)
            .map(|c| self.chunk_grad(samples, c))
            .collect();
        let mut parts = parts.into_iter();
        let Some(mut sum) = parts.next() else {
            return 0.0;
        };
        for p in parts {
            sum.loss += p.loss;
            for f in 0..FEATURES {
                if p.touched[f] {
                    sum.touched[f] = true;
                    let r = FT_W + f * HIDDEN..FT_W + (f + 1) * HIDDEN;
                    for (a, b) in sum.g[r.clone()].iter_mut().zip(&p.g[r]) {
                        *a += b;
                    }
                }
            }
            for (a, b) in sum.g[FT_B..].iter_mut().zip(&p.g[FT_B..]) {
                *a += b;
            }
        }
        self.step += 1;
        let scale = 1.0 / idx.len() as f32;
        let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
        let c1 = 1.0 - b1.powi(self.step.min(1 << 20) as i32);
        let c2 = 1.0 - b2.powi(self.step.min(1 << 20) as i32);
        let (lr, wd) = (lr as f32, self.settings.weight_decay as f32);
        let mut adam = |range: std::ops::Range<usize>, decay: bool, clip: f32| {
            for i in range {
                let g = sum.g[i] * scale;
                let m = b1 * self.m[i] + (1.0 - b1) * g;
                let v = b2 * self.v[i] + (1.0 - b2) * g * g;
                self.m[i] = m;
                self.v[i] = v;
                let mut w = self.params[i];
                if decay {
                    w -= lr * wd * w;
                }
                w -= lr * (m / c1) / ((v / c2).sqrt() + eps);
                self.params[i] = w.clamp(-clip, clip);
            }
        };
        for f in 0..FEATURES {
            if sum.touched[f] {
                adam(
                    FT_W + f * HIDDEN..FT_W + (f + 1) * HIDDEN,
                    true,
                    CLIP_HIDDEN,
                );
            }
        }
        adam(FT_B..OUT_W, false, CLIP_HIDDEN);
        for b in 0..self.settings.buckets {
            adam(out_w(b)..out_b(b), true, CLIP_OUTPUT);
            adam(out_b(b)..out_b(b) + 1, false, CLIP_OUTPUT_BIAS);
        }
        sum.loss
    }

    /// Batches per epoch over `n` samples.
    pub fn batches_per_epoch(&self, n: usize) -> u64 {
        n.div_ceil(self.settings.batch.max(1)) as u64
    }

    /// One pass over `samples` in a fresh shuffled order; `on_batch` is
    /// told the samples done and their mean loss so far. Returns the mean
    /// training loss of the epoch.
    pub fn epoch(&mut self, samples: &[Sample], mut on_batch: impl FnMut(usize, f64)) -> f64 {
        let mut order: Vec<u32> = (0..samples.len() as u32).collect();
        for i in (1..order.len()).rev() {
            let j = (splitmix(&mut self.rng) % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        let per_epoch = self.batches_per_epoch(samples.len());
        let total = per_epoch * u64::from(self.settings.epochs.max(1));
        let (mut done, mut loss) = (0, 0.0);
        for idx in order.chunks(self.settings.batch.max(1)) {
            let lr = learning_rate(&self.settings, self.step, per_epoch, total);
            loss += self.step(samples, idx, lr);
            done += idx.len();
            on_batch(done, loss / done as f64);
        }
        self.epoch += 1;
        if done == 0 { 0.0 } else { loss / done as f64 }
    }

    /// The learning rate of the next step over `n` samples.
    pub fn current_lr(&self, n: usize) -> f64 {
        let per_epoch = self.batches_per_epoch(n);
        let total = per_epoch * u64::from(self.settings.epochs.max(1));
        learning_rate(&self.settings, self.step, per_epoch, total)
    }

    /// The quantised net of the current weights.
    ///
    /// # Errors
    ///
    /// None in practice (the weights are clipped to the loader's bounds);
    /// a [`crate::nnue::NetError`] message otherwise.
    pub fn network(&self) -> Result<Network, String> {
        let p = &self.params;
        let q = |x: f32, scale: i32, max: i16| -> i16 {
            (x * scale as f32)
                .round()
                .clamp(-f32::from(max), f32::from(max)) as i16
        };
        let rows = (0..FEATURES)
            .map(|f| std::array::from_fn(|j| q(p[FT_W + f * HIDDEN + j], QA, MAX_FEATURE_WEIGHT)))
            .collect();
        let bias = std::array::from_fn(|j| q(p[FT_B + j], QA, MAX_FEATURE_WEIGHT));
        let buckets = self.settings.buckets;
        let heads = (0..buckets)
            .map(|b| Head {
                weights: std::array::from_fn(|side| {
                    std::array::from_fn(|j| {
                        q(p[out_w(b) + side * HIDDEN + j], QB, MAX_OUTPUT_WEIGHT)
                    })
                }),
                bias: (f64::from(p[out_b(b)]) * f64::from(QA * QB))
                    .round()
                    .clamp(-1e9, 1e9) as i32,
            })
            .collect();
        Network::with_buckets(self.board, rows, bias, buckets, heads).map_err(|e| e.to_string())
    }

    /// The generator's state (for checkpoints).
    pub fn rng(&self) -> u64 {
        self.rng
    }

    /// The optimiser's moments (for checkpoints): `(m, v)`.
    pub fn moments(&self) -> (&[f32], &[f32]) {
        (&self.m, &self.v)
    }

    /// A trainer continued from a checkpoint's state.
    pub fn restore(
        board: BoardKind,
        settings: Settings,
        state: checkpoint::State,
    ) -> Result<Trainer, String> {
        let len = params_len(settings.buckets);
        if state.params.len() != len || state.m.len() != len || state.v.len() != len {
            return Err("the checkpoint holds another number of weights".to_owned());
        }
        Ok(Trainer {
            params: state.params,
            m: state.m,
            v: state.v,
            step: state.step,
            epoch: state.epoch,
            rng: state.rng,
            board,
            settings,
        })
    }
}

/// The agreement of a quantised net with the float pass.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Agreement {
    /// Positions compared.
    pub positions: usize,
    /// The largest difference between the engine's integer value and the
    /// trained float value, internal units: the quantisation error.
    pub max: f64,
    /// The mean of that difference.
    pub mean: f64,
    /// The largest difference between the engine's integer value and the
    /// float pass over the quantised weights: the integer arithmetic's
    /// own error (its truncations), [`ARITHMETIC_TOLERANCE`] at most
    /// unless the two passes compute different functions.
    pub arithmetic: f64,
}

/// The most the integer inference may differ from the float pass over the
/// same (quantised) weights: the final division truncates (under 1 unit),
/// the division by `QA` and float rounding add a few hundredths.
pub const ARITHMETIC_TOLERANCE: f64 = 1.5;

impl Agreement {
    /// Whether the integer inference computes what the float pass does
    /// over the same weights ([`ARITHMETIC_TOLERANCE`]).
    ///
    /// # Errors
    ///
    /// How far apart the two are (one line).
    pub fn check(&self) -> Result<(), String> {
        // A difference that is not a number (a net of NaN weights) fails
        // too: `!(x <= bound)`.
        if !(self.arithmetic <= ARITHMETIC_TOLERANCE && self.mean.is_finite()) {
            return Err(format!(
                "the engine's inference differs from the trainer's by {:.2} internal units on the same weights (at most {ARITHMETIC_TOLERANCE} expected)",
                self.arithmetic
            ));
        }
        Ok(())
    }
}

/// Copies output bucket 0's weights and bias to every other bucket.
fn copy_bucket_zero(p: &mut [f32]) {
    let buckets = buckets_of_len(p.len()).unwrap_or(1);
    for b in 1..buckets {
        p.copy_within(out_w(0)..out_w(1), out_w(b));
    }
}

/// The float parameters that `net`'s integers stand for (its score head,
/// every bucket).
pub fn dequantised(net: &Network) -> Vec<f32> {
    let mut p = vec![0f32; params_len(net.buckets())];
    let qa = QA as f32;
    for (f, row) in net.feature_weights().iter().enumerate() {
        for (j, &w) in row.iter().enumerate() {
            p[FT_W + f * HIDDEN + j] = f32::from(w) / qa;
        }
    }
    for (j, &b) in net.feature_bias().iter().enumerate() {
        p[FT_B + j] = f32::from(b) / qa;
    }
    for (b, head) in net.heads()[..net.buckets()].iter().enumerate() {
        for (side, ws) in head.weights.iter().enumerate() {
            for (j, &w) in ws.iter().enumerate() {
                p[out_w(b) + side * HIDDEN + j] = f32::from(w) / QB as f32;
            }
        }
        p[out_b(b)] = (f64::from(head.bias) / f64::from(QA * QB)) as f32;
    }
    p
}

/// Compares the engine's integer inference of `net` (from the board, as
/// the engine evaluates) with the float forward pass of `trainer` and with
/// the float pass over `net`'s own weights, on every sample.
pub fn compare(trainer: &Trainer, net: &Network, samples: &[Sample]) -> Agreement {
    let q = dequantised(net);
    let diffs: Vec<(f64, f64)> = samples
        .par_iter()
        .map(|s| {
            let int = f64::from(net.evaluate(&s.board(), s.turn()));
            let float = f64::from(trainer.evaluate(s));
            let same =
                f64::from(output(&q, &accumulate(&q, s), bucket_of(net.buckets(), s)) * SCALE);
            ((int - float).abs(), (int - same).abs())
        })
        .collect();
    let n = diffs.len();
    Agreement {
        positions: n,
        max: diffs.iter().map(|d| d.0).fold(0.0, nan_max),
        mean: if n == 0 {
            0.0
        } else {
            diffs.iter().map(|d| d.0).sum::<f64>() / n as f64
        },
        arithmetic: diffs.iter().map(|d| d.1).fold(0.0, nan_max),
    }
}

/// The larger of two differences; NaN when either is (`f64::max` would
/// drop it, and a NaN difference must not pass as agreement).
fn nan_max(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.max(b)
    }
}

#[cfg(test)]
mod tests;
