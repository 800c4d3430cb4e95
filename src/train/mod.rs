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

use std::ops::Range;

use rayon::prelude::*;

use crate::nnue::{
    FEATURES, Head, Kings, MAX_BUCKETS, MAX_FEATURE_WEIGHT, MAX_HIDDEN, MAX_OUTPUT_WEIGHT, Network,
    OUTPUT_SCALE, QA, QB, Weights,
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
/// The output biases are kept within ±this, so that the bias times `QA ·
/// QB` fits an `i32`.
pub const CLIP_OUTPUT_BIAS: f32 = 1000.0;
/// The float output is held within ±this, as the engine holds a net's
/// value within ±2^20 internal units, so the quantised net computes what
/// the float pass does however wide it is (a net of 128 neurons cannot
/// reach the bound: its outputs stay within ±1,508).
pub const MAX_OUTPUT: f32 = (1u32 << 20) as f32 / SCALE;
/// The largest learning rate (`--lr`): Adam's step moves a weight by about
/// this much at most, and the weights live within ±2.
pub const MAX_LR: f64 = 1.0;

/// The shape of a float net, and where each group of its weights lies in
/// the flat parameter vector: the input rows ([`Shape::rows`] of
/// [`Shape::hidden`], as [`crate::nnue::feature_row`] numbers them), the
/// hidden biases, then per output bucket its weights (side to move first)
/// and its bias.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Hidden neurons per perspective.
    pub hidden: usize,
    /// The king-bucket layout of the inputs.
    pub kings: Kings,
    /// Output buckets.
    pub buckets: usize,
}

impl Shape {
    /// The shape of `net` (its score head).
    pub fn of(net: &Network) -> Shape {
        Shape {
            hidden: net.hidden(),
            kings: net.kings(),
            buckets: net.buckets(),
        }
    }

    /// The input rows: [`FEATURES`] per king bucket.
    pub fn rows(self) -> usize {
        self.kings.count() * FEATURES
    }

    /// Where input row `r` lies.
    #[inline]
    pub fn row(self, r: usize) -> Range<usize> {
        r * self.hidden..(r + 1) * self.hidden
    }

    /// Where the hidden biases start (after the input rows).
    #[inline]
    pub fn bias(self) -> usize {
        self.rows() * self.hidden
    }

    /// The float parameters of one output bucket.
    #[inline]
    fn layer(self) -> usize {
        2 * self.hidden + 1
    }

    /// Where output bucket `b`'s weights start.
    #[inline]
    pub fn out_w(self, b: usize) -> usize {
        self.bias() + self.hidden + b * self.layer()
    }

    /// Where output bucket `b`'s bias is.
    #[inline]
    pub fn out_b(self, b: usize) -> usize {
        self.out_w(b) + 2 * self.hidden
    }

    /// The number of float parameters (one head).
    pub fn len(self) -> usize {
        self.out_w(self.buckets)
    }

    /// Whether there are none (never, for a net).
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }
}

/// Float parameters and the shape they are laid out in.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    /// The shape.
    pub shape: Shape,
    /// The parameters ([`Shape`] says where each lies).
    pub params: Vec<f32>,
}

impl FloatNet {
    /// The float value of a sample in internal units, with `acc` a scratch
    /// buffer.
    pub fn value(&self, s: &Sample, acc: &mut Vec<f32>) -> f32 {
        let sh = self.shape;
        accumulate(sh, &self.params, s, acc);
        output(sh, &self.params, acc, bucket_of(sh.buckets, s)) * SCALE
    }
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
    /// Hidden neurons per perspective (1 ..= [`MAX_HIDDEN`]).
    pub hidden: usize,
    /// The king-bucket layout of the inputs.
    pub kings: Kings,
}

impl Settings {
    /// The shape of the net these settings train.
    pub fn shape(&self) -> Shape {
        Shape {
            hidden: self.hidden,
            kings: self.kings,
            buckets: self.buckets,
        }
    }
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

/// The hidden sums of both perspectives of `s` under `p` into `acc`: the
/// side to move's [`Shape::hidden`], then the other side's.
#[inline]
fn accumulate(sh: Shape, p: &[f32], s: &Sample, acc: &mut Vec<f32>) {
    let h = sh.hidden;
    acc.clear();
    acc.resize(2 * h, 0.0);
    let bias = &p[sh.bias()..sh.bias() + h];
    for (side, a) in acc.chunks_exact_mut(h).enumerate() {
        a.copy_from_slice(bias);
        for r in s.rows(side == 0, sh.kings) {
            for (x, w) in a.iter_mut().zip(&p[sh.row(r)]) {
                *x += w;
            }
        }
    }
}

/// The output bucket of a sample in a net of `buckets` output buckets.
#[inline]
fn bucket_of(buckets: usize, s: &Sample) -> usize {
    crate::nnue::bucket(s.pieces(), buckets)
}

/// The float output of accumulators under `p`, read by output bucket `b`
/// (held within ±[`MAX_OUTPUT`]).
#[inline]
fn output(sh: Shape, p: &[f32], acc: &[f32], b: usize) -> f32 {
    let mut o = p[sh.out_b(b)];
    let w = &p[sh.out_w(b)..sh.out_b(b)];
    for (x, w) in acc.iter().zip(w) {
        let c = x.clamp(0.0, 1.0);
        o += c * c * w;
    }
    o.clamp(-MAX_OUTPUT, MAX_OUTPUT)
}

/// The input row no chunk touched.
const UNTOUCHED: u32 = u32::MAX;

/// A chunk's summed gradient and loss. The input rows are sparse (a
/// position touches at most 64 of them, a chunk a few hundred of the
/// thousands a net of king buckets has): each row touched gets a slot in
/// `rows`. Kept from step to step and cleared row by row, so a step
/// allocates nothing once the first has run.
#[derive(Clone, Debug, Default)]
struct Grad {
    /// The gradient rows of the input rows touched, in slot order.
    rows: Vec<f32>,
    /// Each input row's slot in `rows`, or [`UNTOUCHED`].
    slot: Vec<u32>,
    /// The input rows touched, in slot order.
    touched: Vec<u32>,
    /// The gradient of the parameters from the hidden biases on.
    dense: Vec<f32>,
    /// Scratch: a sample's accumulators.
    acc: Vec<f32>,
    /// Scratch: a perspective's gradient of its sums.
    da: Vec<f32>,
    /// The summed loss.
    loss: f64,
}

impl Grad {
    /// Clears the gradient for a chunk of a net of shape `sh`.
    fn clear(&mut self, sh: Shape) {
        if self.slot.len() == sh.rows() {
            for &r in &self.touched {
                self.slot[r as usize] = UNTOUCHED;
            }
        } else {
            self.slot = vec![UNTOUCHED; sh.rows()];
        }
        self.touched.clear();
        self.rows.clear();
        self.dense.clear();
        self.dense.resize(sh.len() - sh.bias(), 0.0);
        self.da.clear();
        self.da.resize(sh.hidden, 0.0);
        self.loss = 0.0;
    }

    /// The gradient row of input row `r` (`h` wide), made at zero if new.
    #[inline]
    fn row_mut(&mut self, r: usize, h: usize) -> &mut [f32] {
        let mut s = self.slot[r];
        if s == UNTOUCHED {
            s = self.touched.len() as u32;
            self.slot[r] = s;
            self.touched.push(r as u32);
            self.rows.resize(self.rows.len() + h, 0.0);
        }
        let s = s as usize;
        &mut self.rows[s * h..(s + 1) * h]
    }

    /// The gradient row of input row `r`, if the chunk touched it.
    #[inline]
    fn row(&self, r: usize, h: usize) -> Option<&[f32]> {
        let s = self.slot[r];
        (s != UNTOUCHED).then(|| &self.rows[s as usize * h..(s as usize + 1) * h])
    }
}

/// AdamW's constants of a step.
#[derive(Clone, Copy)]
struct Adam {
    lr: f32,
    wd: f32,
    /// The bias corrections `1 - β^t`.
    c1: f32,
    c2: f32,
}

impl Adam {
    const B1: f32 = 0.9;
    const B2: f32 = 0.999;
    const EPS: f32 = 1e-8;

    /// Updates the weights `w` (moments `m`, `v`) by the gradient sums
    /// `g` times `scale`, decaying them when `decay`, within ±`clip`.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn update(
        self,
        w: &mut [f32],
        m: &mut [f32],
        v: &mut [f32],
        g: &[f32],
        scale: f32,
        decay: bool,
        clip: f32,
    ) {
        let (b1, b2) = (Adam::B1, Adam::B2);
        for (((w, m), v), g) in w.iter_mut().zip(m).zip(v).zip(g) {
            let g = g * scale;
            *m = b1 * *m + (1.0 - b1) * g;
            *v = b2 * *v + (1.0 - b2) * g * g;
            let mut x = *w;
            if decay {
                x -= self.lr * self.wd * x;
            }
            x -= self.lr * (*m / self.c1) / ((*v / self.c2).sqrt() + Adam::EPS);
            *w = x.clamp(-clip, clip);
        }
    }
}

/// AdamW over mini-batches, and the float network it trains.
#[derive(Clone, Debug)]
pub struct Trainer {
    /// The flat float parameters, laid out as [`Trainer::shape`] says.
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
    /// The chunks' gradients, kept between steps.
    grads: Vec<Grad>,
}

impl Trainer {
    /// A trainer with seeded random weights: hidden weights uniform in
    /// ±0.1 (a position's ~30 features then sum to about ±0.3), output
    /// weights in ±1/√(2·hidden) (the same in every bucket), biases 0.
    /// `settings.buckets` is held within 1 ..= [`MAX_BUCKETS`] and
    /// `settings.hidden` within 1 ..= [`MAX_HIDDEN`].
    pub fn new(board: BoardKind, mut settings: Settings) -> Trainer {
        settings.buckets = settings.buckets.clamp(1, MAX_BUCKETS);
        settings.hidden = settings.hidden.clamp(1, MAX_HIDDEN);
        let sh = settings.shape();
        let mut rng = settings.seed ^ 0x005e_ed0f_7a11_u64;
        let mut uniform = |r: f32| {
            let u = (splitmix(&mut rng) >> 40) as f32 / (1u64 << 24) as f32;
            (2.0 * u - 1.0) * r
        };
        let len = sh.len();
        let mut params = vec![0f32; len];
        for w in &mut params[..sh.bias()] {
            *w = uniform(0.1);
        }
        let out = 1.0 / (2.0 * sh.hidden as f32).sqrt();
        for w in &mut params[sh.out_w(0)..sh.out_b(0)] {
            *w = uniform(out);
        }
        for b in 1..sh.buckets {
            params.copy_within(sh.out_w(0)..sh.out_w(1), sh.out_w(b));
        }
        Trainer {
            params,
            m: vec![0.0; len],
            v: vec![0.0; len],
            step: 0,
            epoch: 0,
            rng,
            board,
            settings,
            grads: Vec::new(),
        }
    }

    /// The shape of the net it trains.
    pub fn shape(&self) -> Shape {
        self.settings.shape()
    }

    /// A trainer whose weights start as `net`'s (dequantised, head 0),
    /// its moments at zero: a run that goes on from a shipped net with
    /// new data (`tally train --init`). The net may be smaller than
    /// `settings` ask: a net of one output bucket starts every one of
    /// `settings.buckets` as its output layer; every king bucket starts as
    /// the net's bucket that holds its squares (its only one for a plain
    /// net); and a net of fewer hidden neurons grows random input weights
    /// for the others, their output weights zero. So the trainer starts
    /// with the net's function, except that a layout of king buckets
    /// mirrors the board for a king on files e to h, which a plain net
    /// does not: there a perspective starts as the net's on the mirrored
    /// board.
    ///
    /// # Errors
    ///
    /// A one-line message when `net` is for another board, has several
    /// output buckets but not `settings.buckets`, more hidden neurons than
    /// `settings.hidden`, or king buckets that `settings.kings` does not
    /// refine.
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
        let sh = t.shape();
        if net.buckets() != 1 && net.buckets() != sh.buckets {
            return Err(format!(
                "{} has {} output buckets, not {}",
                net.name(),
                net.buckets(),
                sh.buckets
            ));
        }
        if net.hidden() > sh.hidden {
            return Err(format!(
                "{} has {} hidden neurons, more than the {} of the run (--hidden)",
                net.name(),
                net.hidden(),
                sh.hidden
            ));
        }
        let parents = (0..sh.kings.count())
            .map(|b| sh.kings.parent(net.kings(), b))
            .collect::<Option<Vec<usize>>>()
            .ok_or_else(|| {
                format!(
                    "{} has {} king buckets, which the run's {} do not refine (--king-buckets)",
                    net.name(),
                    net.kings().count(),
                    sh.kings.count()
                )
            })?;
        let old = dequantised(net);
        let (osh, oh, h) = (old.shape, net.hidden(), sh.hidden);
        let p = &mut t.params;
        // A narrower net's missing neurons keep the fresh trainer's random
        // input weights and get zero output weights: the function is the
        // net's, and the new neurons have gradients to learn from.
        for (b, &parent) in parents.iter().enumerate() {
            for f in 0..FEATURES {
                let to = sh.row(b * FEATURES + f).start;
                p[to..to + oh].copy_from_slice(&old.params[osh.row(parent * FEATURES + f)]);
            }
        }
        p[sh.bias()..sh.bias() + oh].copy_from_slice(&old.params[osh.bias()..osh.bias() + oh]);
        for b in 0..sh.buckets {
            let ob = if net.buckets() == 1 { 0 } else { b };
            for side in 0..2 {
                let to = sh.out_w(b) + side * h;
                let from = osh.out_w(ob) + side * oh;
                p[to..to + h].fill(0.0);
                p[to..to + oh].copy_from_slice(&old.params[from..from + oh]);
            }
            p[sh.out_b(b)] = old.params[osh.out_b(ob)];
        }
        Ok(t)
    }

    /// The float value of a sample in internal units.
    pub fn evaluate(&self, s: &Sample) -> f32 {
        let sh = self.shape();
        let mut acc = Vec::new();
        accumulate(sh, &self.params, s, &mut acc);
        output(sh, &self.params, &acc, bucket_of(sh.buckets, s)) * SCALE
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
        let sh = self.shape();
        let parts: Vec<f64> = samples
            .par_chunks(CHUNK)
            .map(|c| {
                let mut acc = Vec::new();
                c.iter()
                    .map(|s| {
                        accumulate(sh, &self.params, s, &mut acc);
                        let o = output(sh, &self.params, &acc, bucket_of(sh.buckets, s));
                        let d = sigmoid32(k * (o * SCALE)) - self.target(s);
                        f64::from(d * d)
                    })
                    .sum::<f64>()
            })
            .collect();
        parts.iter().sum::<f64>() / samples.len() as f64
    }

    /// Sums into `g` the gradient and loss of the samples `idx`.
    fn chunk_grad(&self, g: &mut Grad, samples: &[Sample], idx: &[u32]) {
        let sh = self.shape();
        let (h, base) = (sh.hidden, sh.bias());
        let p = &self.params;
        let k = self.settings.k as f32;
        g.clear(sh);
        let mut acc = std::mem::take(&mut g.acc);
        let mut da = std::mem::take(&mut g.da);
        for &i in idx {
            let s = &samples[i as usize];
            accumulate(sh, p, s, &mut acc);
            let b = bucket_of(sh.buckets, s);
            let pred = sigmoid32(k * output(sh, p, &acc, b) * SCALE);
            let diff = pred - self.target(s);
            g.loss += f64::from(diff * diff);
            // d loss / d output.
            let d = 2.0 * diff * pred * (1.0 - pred) * k * SCALE;
            g.dense[sh.out_b(b) - base] += d;
            for (side, a) in acc.chunks_exact(h).enumerate() {
                let ow = sh.out_w(b) + side * h;
                da.fill(0.0);
                let gw = &mut g.dense[ow - base..ow - base + h];
                for j in 0..h {
                    let x = a[j];
                    let c = x.clamp(0.0, 1.0);
                    gw[j] += d * c * c;
                    if x > 0.0 && x < 1.0 {
                        da[j] = d * p[ow + j] * 2.0 * x;
                    }
                }
                for (gb, x) in g.dense[..h].iter_mut().zip(&da) {
                    *gb += x;
                }
                for r in s.rows(side == 0, sh.kings) {
                    for (gw, x) in g.row_mut(r, h).iter_mut().zip(&da) {
                        *gw += x;
                    }
                }
            }
        }
        g.acc = acc;
        g.da = da;
    }

    /// One AdamW step on the samples `idx` at learning rate `lr`; returns
    /// their summed loss.
    fn step(&mut self, samples: &[Sample], idx: &[u32], lr: f64) -> f64 {
        let chunks = idx.len().div_ceil(CHUNK);
        if chunks == 0 {
            return 0.0;
        }
        let mut grads = std::mem::take(&mut self.grads);
        if grads.len() < chunks {
            grads.resize_with(chunks, Grad::default);
        }
        grads[..chunks]
            .par_iter_mut()
            .zip(idx.par_chunks(CHUNK))
            .for_each(|(g, c)| self.chunk_grad(g, samples, c));
        let parts = &grads[..chunks];
        let sh = self.shape();
        let (h, base) = (sh.hidden, sh.bias());
        let loss = parts.iter().map(|g| g.loss).fold(0.0, |a, b| a + b);
        let mut dense = parts[0].dense.clone();
        for g in &parts[1..] {
            for (a, b) in dense.iter_mut().zip(&g.dense) {
                *a += b;
            }
        }
        self.step += 1;
        let scale = 1.0 / idx.len() as f32;
        let t = self.step.min(1 << 20) as i32;
        let adam = Adam {
            lr: lr as f32,
            wd: self.settings.weight_decay as f32,
            c1: 1.0 - Adam::B1.powi(t),
            c2: 1.0 - Adam::B2.powi(t),
        };
        // The input rows any chunk touched, in order, each summed over the
        // chunks in order (a chunk that did not touch it adds nothing).
        let mut rows: Vec<u32> = parts
            .iter()
            .flat_map(|g| g.touched.iter().copied())
            .collect();
        rows.sort_unstable();
        rows.dedup();
        let mut sum = vec![0f32; h];
        for r in rows {
            let r = r as usize;
            let mut first = true;
            for g in parts {
                if let Some(x) = g.row(r, h) {
                    if first {
                        sum.copy_from_slice(x);
                        first = false;
                    } else {
                        for (a, b) in sum.iter_mut().zip(x) {
                            *a += b;
                        }
                    }
                }
            }
            let at = sh.row(r);
            adam.update(
                &mut self.params[at.clone()],
                &mut self.m[at.clone()],
                &mut self.v[at],
                &sum,
                scale,
                true,
                CLIP_HIDDEN,
            );
        }
        let mut group = |range: Range<usize>, decay: bool, clip: f32| {
            let g = &dense[range.start - base..range.end - base];
            adam.update(
                &mut self.params[range.clone()],
                &mut self.m[range.clone()],
                &mut self.v[range],
                g,
                scale,
                decay,
                clip,
            );
        };
        group(base..base + h, false, CLIP_HIDDEN);
        for b in 0..sh.buckets {
            group(sh.out_w(b)..sh.out_b(b), true, CLIP_OUTPUT);
            group(sh.out_b(b)..sh.out_b(b) + 1, false, CLIP_OUTPUT_BIAS);
        }
        self.grads = grads;
        loss
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
        let sh = self.shape();
        let h = sh.hidden;
        let q = |x: f32, scale: i32, max: i16| -> i16 {
            (x * scale as f32)
                .round()
                .clamp(-f32::from(max), f32::from(max)) as i16
        };
        let hidden = |x: &f32| q(*x, QA, MAX_FEATURE_WEIGHT);
        let heads = (0..sh.buckets)
            .map(|b| Head {
                weights: std::array::from_fn(|side| {
                    let at = sh.out_w(b) + side * h;
                    p[at..at + h]
                        .iter()
                        .map(|&w| q(w, QB, MAX_OUTPUT_WEIGHT))
                        .collect()
                }),
                bias: (f64::from(p[sh.out_b(b)]) * f64::from(QA * QB))
                    .round()
                    .clamp(-1e9, 1e9) as i32,
            })
            .collect();
        Network::from_weights(Weights {
            board: self.board,
            kings: sh.kings,
            hidden: h,
            feature_weights: p[..sh.bias()].iter().map(hidden).collect(),
            feature_bias: p[sh.bias()..sh.bias() + h].iter().map(hidden).collect(),
            buckets: sh.buckets,
            heads,
        })
        .map_err(|e| e.to_string())
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
    ///
    /// # Errors
    ///
    /// A checkpoint of another number of weights than `settings` describe.
    pub fn restore(
        board: BoardKind,
        settings: Settings,
        state: checkpoint::State,
    ) -> Result<Trainer, String> {
        let len = settings.shape().len();
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
            grads: Vec::new(),
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

/// The float parameters that `net`'s integers stand for (its score head,
/// every bucket), in its shape.
pub fn dequantised(net: &Network) -> FloatNet {
    let shape = Shape::of(net);
    let h = shape.hidden;
    let mut p = vec![0f32; shape.len()];
    let qa = QA as f32;
    for r in 0..shape.rows() {
        for (x, &w) in p[shape.row(r)].iter_mut().zip(net.feature_weights(r)) {
            *x = f32::from(w) / qa;
        }
    }
    for (j, &b) in net.feature_bias().iter().enumerate() {
        p[shape.bias() + j] = f32::from(b) / qa;
    }
    for (b, head) in net.heads()[..net.buckets()].iter().enumerate() {
        for (side, ws) in head.weights.iter().enumerate() {
            for (j, &w) in ws.iter().enumerate() {
                p[shape.out_w(b) + side * h + j] = f32::from(w) / QB as f32;
            }
        }
        p[shape.out_b(b)] = (f64::from(head.bias) / f64::from(QA * QB)) as f32;
    }
    FloatNet { shape, params: p }
}

/// Compares the engine's integer inference of `net` (from the board, as
/// the engine evaluates) with the float forward pass of `trainer` and with
/// the float pass over `net`'s own weights, on every sample.
pub fn compare(trainer: &Trainer, net: &Network, samples: &[Sample]) -> Agreement {
    let q = dequantised(net);
    let diffs: Vec<(f64, f64)> = samples
        .par_iter()
        .map_init(Vec::new, |acc, s| {
            let int = f64::from(net.evaluate(&s.board(), s.turn()));
            let float = f64::from(trainer.evaluate(s));
            let same = f64::from(q.value(s, acc));
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
