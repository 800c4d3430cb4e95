//! A margin head (`tally train --head stylish|wacky --net BODY`): a
//! second output of a chess net that predicts the points a scoring
//! variant's game will still earn from a position (the record's margin
//! still to come, from the side to move's view), over the net's body as it
//! is (the hidden layer is not trained again: the scoring variants play on
//! the chess board, and the head reads what the chess net sees).
//!
//! The head is linear in the body's activated accumulators, so the fit is
//! a ridge regression solved exactly (normal equations, Cholesky): no
//! learning rate, no epochs, the same data giving the same head. The
//! target is in the variant's internal units ([`crate::eval::Units`]),
//! the units the engine's evaluation of the variant is in; the loss is
//! reported in pawns of the variant's scale, squared.

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::data::{Dataset, Sample, load_with};
use super::{CLIP_OUTPUT, FloatNet, SCALE, accumulate, dequantised};
use crate::eval::Units;
use crate::nnue::{Head, MAX_OUTPUT_WEIGHT, Network, QA, QB, Weights, margin_head};
use crate::rules::{BoardKind, Variant};
use crate::scoring::Scorer;

/// Samples per summed chunk of the normal equations (fixed, for
/// reproducible sums).
const ROWS: usize = 16_384;

/// Reads the quiet positions of `variant` with the points still to come
/// in the variant's internal units (kept in the samples' score), setting
/// `validation` of the games apart as [`super::data::load`] does.
///
/// # Errors
///
/// A file that cannot be opened or read (one line, naming it).
pub fn load_margins(
    files: &[impl AsRef<Path>],
    variant: Variant,
    validation: f64,
    seed: u64,
) -> Result<Dataset, String> {
    let units = Units::of(&Scorer::new(variant));
    load_with(files, variant, validation, seed, |r| {
        let white = units.from_points(r.margin) as f32;
        let (result, _) = r.mover_view();
        let margin = if r.setup.turn.is_white() {
            white
        } else {
            -white
        };
        (result as f32, margin)
    })
}

/// The number of the regression's inputs over `body`: both perspectives'
/// activations and a bias.
fn dim(body: &FloatNet) -> usize {
    2 * body.shape.hidden + 1
}

/// The inputs of the regression for a sample under the float body
/// `body`: SCReLU of the side to move's accumulator, then the other
/// side's, then 1.
fn inputs(body: &FloatNet, s: &Sample) -> Vec<f64> {
    let mut acc = Vec::new();
    accumulate(body.shape, &body.params, s, &mut acc);
    let mut x: Vec<f64> = acc
        .iter()
        .map(|v| {
            let c = f64::from(v.clamp(0.0, 1.0));
            c * c
        })
        .collect();
    x.push(1.0);
    x
}

/// A fitted head in floats: weights (side to move first) and bias, in
/// float output units (internal units / [`crate::nnue::OUTPUT_SCALE`]).
#[derive(Clone, Debug, PartialEq)]
pub struct FloatHead {
    /// `2 · hidden` weights.
    pub weights: Vec<f64>,
    /// The bias.
    pub bias: f64,
}

impl FloatHead {
    /// The head's value of a sample in internal units.
    pub fn value(&self, body: &FloatNet, s: &Sample) -> f64 {
        let x = inputs(body, s);
        let dot: f64 = self.weights.iter().zip(&x).map(|(w, x)| w * x).sum();
        (dot + self.bias) * f64::from(SCALE)
    }

    /// The head quantised as the engine reads it (weights clipped to the
    /// loader's bound).
    pub fn quantised(&self) -> Head {
        let q = |w: f64| -> i16 {
            (w.clamp(-f64::from(CLIP_OUTPUT), f64::from(CLIP_OUTPUT)) * f64::from(QB))
                .round()
                .clamp(-f64::from(MAX_OUTPUT_WEIGHT), f64::from(MAX_OUTPUT_WEIGHT))
                as i16
        };
        let h = self.weights.len() / 2;
        Head {
            weights: [
                self.weights[..h].iter().map(|&w| q(w)).collect(),
                self.weights[h..2 * h].iter().map(|&w| q(w)).collect(),
            ],
            bias: (self.bias * f64::from(QA * QB)).round().clamp(-1e9, 1e9) as i32,
        }
    }
}

/// The ridge regression of the samples' scores (internal units) on the
/// activations of `body`: `l2` times the number of samples is added to
/// the diagonal of every weight (not the bias).
///
/// # Errors
///
/// No sample, or normal equations that are not positive definite (only
/// with `l2` 0 and inputs that never vary).
pub fn fit_head(body: &FloatNet, samples: &[Sample], l2: f64) -> Result<FloatHead, String> {
    if samples.is_empty() {
        return Err("no position to fit the head on".to_owned());
    }
    let n = dim(body);
    let parts: Vec<(Vec<f64>, Vec<f64>)> = samples
        .par_chunks(ROWS)
        .map(|chunk| {
            let mut a = vec![0f64; n * n];
            let mut b = vec![0f64; n];
            for s in chunk {
                let x = inputs(body, s);
                let y = f64::from(s.score) / f64::from(SCALE);
                for (i, &xi) in x.iter().enumerate() {
                    if xi == 0.0 {
                        continue;
                    }
                    b[i] += xi * y;
                    let row = &mut a[i * n..(i + 1) * n];
                    for (r, xj) in row.iter_mut().zip(&x) {
                        *r += xi * xj;
                    }
                }
            }
            (a, b)
        })
        .collect();
    let mut a = vec![0f64; n * n];
    let mut b = vec![0f64; n];
    for (pa, pb) in parts {
        for (x, y) in a.iter_mut().zip(&pa) {
            *x += y;
        }
        for (x, y) in b.iter_mut().zip(&pb) {
            *x += y;
        }
    }
    let ridge = l2 * samples.len() as f64;
    for i in 0..n - 1 {
        a[i * n + i] += ridge;
    }
    let w = solve_bounded(&a, &b, n, f64::from(CLIP_OUTPUT))?;
    Ok(FloatHead {
        weights: w[..n - 1].to_vec(),
        bias: w[n - 1],
    })
}

/// Solves the normal equations `a x = b` (`n × n`, row-major) with every
/// weight but the last (the bias) within `±bound`, the range the engine's
/// integer head holds: a weight the unbounded solution puts beyond it is
/// held at the bound and the others are solved again with its share
/// taken out, until none is beyond (an active-set pass that only adds).
///
/// # Errors
///
/// Equations that are not positive definite.
fn solve_bounded(a: &[f64], b: &[f64], n: usize, bound: f64) -> Result<Vec<f64>, String> {
    let mut held: Vec<Option<f64>> = vec![None; n];
    loop {
        let free: Vec<usize> = (0..n).filter(|&i| held[i].is_none()).collect();
        let m = free.len();
        let mut sub = vec![0f64; m * m];
        let mut rhs = vec![0f64; m];
        for (r, &i) in free.iter().enumerate() {
            for (c, &j) in free.iter().enumerate() {
                sub[r * m + c] = a[i * n + j];
            }
            rhs[r] = b[i]
                - (0..n)
                    .filter_map(|j| held[j].map(|v| a[i * n + j] * v))
                    .sum::<f64>();
        }
        let x = solve_spd(&mut sub, &rhs, m)?;
        let mut out: Vec<f64> = held.iter().map(|h| h.unwrap_or(0.0)).collect();
        let mut beyond = false;
        for (r, &i) in free.iter().enumerate() {
            out[i] = x[r];
            if i != n - 1 && x[r].abs() > bound {
                held[i] = Some(bound.copysign(x[r]));
                beyond = true;
            }
        }
        if !beyond {
            return Ok(out);
        }
    }
}

/// Solves `a x = b` for a symmetric positive definite `n × n` matrix `a`
/// (row-major; overwritten by its Cholesky factor).
///
/// # Errors
///
/// A matrix that is not positive definite.
// Triangular solves read clearest with the indices of the formulas.
#[allow(clippy::needless_range_loop)]
fn solve_spd(a: &mut [f64], b: &[f64], n: usize) -> Result<Vec<f64>, String> {
    // a = L Lᵀ, L in the lower triangle.
    for j in 0..n {
        let mut d = a[j * n + j];
        for k in 0..j {
            d -= a[j * n + k] * a[j * n + k];
        }
        if d <= 0.0 || !d.is_finite() {
            return Err("the head's normal equations are singular (give --l2 above 0)".to_owned());
        }
        let d = d.sqrt();
        a[j * n + j] = d;
        for i in j + 1..n {
            let mut v = a[i * n + j];
            for k in 0..j {
                v -= a[i * n + k] * a[j * n + k];
            }
            a[i * n + j] = v / d;
        }
    }
    // L y = b, then Lᵀ x = y.
    let mut y = vec![0f64; n];
    for i in 0..n {
        let mut v = b[i];
        for k in 0..i {
            v -= a[i * n + k] * y[k];
        }
        y[i] = v / a[i * n + i];
    }
    let mut x = vec![0f64; n];
    for i in (0..n).rev() {
        let mut v = y[i];
        for k in i + 1..n {
            v -= a[k * n + i] * x[k];
        }
        x[i] = v / a[i * n + i];
    }
    Ok(x)
}

/// The mean squared error of `value` against the samples' scores, in
/// pawns (100 internal units) squared; 0 for no sample.
pub fn mse(samples: &[Sample], value: impl Fn(&Sample) -> f64 + Sync) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let parts: Vec<f64> = samples
        .par_chunks(ROWS)
        .map(|c| {
            c.iter()
                .map(|s| {
                    let d = (value(s) - f64::from(s.score)) / 100.0;
                    d * d
                })
                .sum()
        })
        .collect();
    parts.iter().sum::<f64>() / samples.len() as f64
}

/// `body` with `head` as `variant`'s margin head ([`margin_head`]): in
/// its place when the net has one, appended when it is the next.
///
/// # Errors
///
/// A net of another board than the standard one, a variant without a
/// margin head, or a head index beyond the next (the heads before it must
/// be there first).
pub fn with_head(body: &Network, variant: Variant, head: Head) -> Result<Network, String> {
    let Some(index) = margin_head(variant) else {
        return Err(format!(
            "{variant} has no margin head (stylish and wacky do)"
        ));
    };
    if body.board() != BoardKind::Standard {
        return Err(format!(
            "the net {} is for the {} board; {variant} is played on the standard board",
            body.name(),
            body.board().name()
        ));
    }
    // The head reads the hidden layer alone: the same layer in every
    // output bucket.
    let buckets = body.buckets();
    let count = body.head_count();
    let mut heads = body.heads().to_vec();
    match index.cmp(&count) {
        std::cmp::Ordering::Less => {
            heads[index * buckets..(index + 1) * buckets].fill(head);
        }
        std::cmp::Ordering::Equal => heads.extend(std::iter::repeat_n(head, buckets)),
        std::cmp::Ordering::Greater => {
            return Err(format!(
                "the net {} has {count} head{}; {variant}'s margin head is head {index}, so the heads before it come first (stylish's is 1)",
                body.name(),
                if count == 1 { "" } else { "s" }
            ));
        }
    }
    Network::from_weights(Weights {
        heads,
        ..body.weights()
    })
    .map_err(|e| e.to_string())
}

/// The float parameters of `net`'s body (its hidden layer, and its head 0
/// which the margin head does not read).
pub fn body_params(net: &Network) -> FloatNet {
    dequantised(net)
}

/// The largest difference, in internal units, between the engine's
/// integer inference of head `index` of `net` and the float fit `head`
/// over the body weights `p`, on the first `n` of `samples`: the check of
/// a written head.
pub fn largest_difference(
    net: &Network,
    index: usize,
    head: &FloatHead,
    body: &FloatNet,
    samples: &[Sample],
    n: usize,
) -> f64 {
    samples
        .iter()
        .take(n)
        .map(|s| {
            let board = s.board();
            let acc = crate::nnue::Accumulator::refresh(net, &board);
            let int = f64::from(net.output_head(&acc, &board, s.turn(), index));
            (int - head.value(body, s)).abs()
        })
        .fold(0.0, f64::max)
}

/// A margin head to fit and write (`tally train --head`).
#[derive(Clone, Copy, Debug)]
pub struct HeadRun<'a> {
    /// The scoring variant whose head is fitted.
    pub variant: Variant,
    /// The chess net whose body the head reads.
    pub body: &'a Path,
    /// The data files.
    pub data: &'a [PathBuf],
    /// The share of games set apart for validation.
    pub val: f64,
    /// The seed of the validation games.
    pub seed: u64,
    /// The ridge penalty per position on each head weight.
    pub l2: f64,
    /// Positions on which the written head is checked.
    pub check: usize,
    /// The net file to write.
    pub out: &'a Path,
}

/// Fits `run`'s margin head over its body's hidden layer and writes the
/// net with it; `say` is told what was read, the errors of the fit, what
/// was written and the check of the integer inference against the fit.
///
/// # Errors
///
/// A one-line message: a body that cannot be read or is not of the
/// standard board, unreadable data, no quiet position, a fit or a file
/// that fails.
pub fn fit_and_write(run: &HeadRun, say: &mut dyn FnMut(String)) -> Result<(), String> {
    let variant = run.variant;
    let body = crate::nnue::format::load(run.body)?;
    if body.board() != BoardKind::Standard {
        return Err(format!(
            "--net: {} is a net for the {} board; {variant} is played on the standard board",
            body.name(),
            body.board().name()
        ));
    }
    // The head's place in the net is checked before any data is read.
    let silent = Head::zero(body.hidden(), 0);
    with_head(&body, variant, silent)?;
    let data = load_margins(run.data, variant, run.val, run.seed)?;
    say(format!(
        "{} training and {} validation positions (quiet) of {} in {} {variant} games read",
        data.train.len(),
        data.validation.len(),
        data.positions,
        data.games
    ));
    if data.train.is_empty() {
        return Err(format!("no quiet {variant} position in the data"));
    }
    let p = body_params(&body);
    let started = std::time::Instant::now();
    let head = fit_head(&p, &data.train, run.l2)?;
    let secs = started.elapsed().as_secs_f64();
    for (name, samples) in [("training", &data.train), ("validation", &data.validation)] {
        if samples.is_empty() {
            continue;
        }
        let none = mse(samples, |_| 0.0);
        let fitted = mse(samples, |s| head.value(&p, s));
        say(format!(
            "{name}: mean squared error {fitted:.4} pawns² (predicting no points to come: {none:.4})"
        ));
    }
    let net = with_head(&body, variant, head.quantised())?;
    let index = margin_head(variant).unwrap_or(0);
    let check = if data.validation.is_empty() {
        &data.train
    } else {
        &data.validation
    };
    let worst = largest_difference(&net, index, &head, &p, check, run.check);
    crate::nnue::format::save(&net, run.out)?;
    say(format!(
        "fitted in {secs:.1} s; wrote {} with {variant}'s margin head (head {index}) to {}",
        net.describe(),
        run.out.display()
    ));
    say(format!(
        "integer inference of the head against the float fit: largest difference {worst:.1} internal units"
    ));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::{Accumulator, HIDDEN};
    use shakmaty::Color;
    use shakmaty::fen::Fen;

    /// A small net with seeded weights (hidden rows varied enough that the
    /// activations of different boards differ).
    fn net() -> Network {
        let mut state = 7u64;
        let mut next = || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((state >> 33) % 121) as i16 - 60
        };
        let rows = (0..crate::nnue::FEATURES * HIDDEN)
            .map(|_| next())
            .collect();
        let head = Head {
            weights: [vec![1; HIDDEN], vec![-1; HIDDEN]],
            bias: 0,
        };
        Network::from_weights(Weights::plain(
            BoardKind::Standard,
            HIDDEN,
            rows,
            vec![40; HIDDEN],
            vec![head],
        ))
        .unwrap()
    }

    fn samples(p: &FloatNet, truth: &FloatHead) -> Vec<Sample> {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1",
            "2r3k1/5ppp/8/8/3N4/8/5PPP/2R3K1 b - - 0 1",
            "3qk3/8/8/3p4/4P3/8/8/3QK3 w - - 0 1",
            "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1",
            "r3k2r/pPp3pp/8/3pP3/8/8/PpP3PP/R3K2R b KQkq - 0 1",
        ];
        let mut out = Vec::new();
        for fen in fens {
            let setup = fen.parse::<Fen>().unwrap().into_setup();
            for turn in Color::ALL {
                let s = Sample::new(&setup.board, turn, 0.5, 0.0);
                let y = truth.value(p, &s) as f32;
                out.push(Sample::new(&setup.board, turn, 0.5, y));
            }
        }
        out
    }

    /// The body, its float parameters, the samples labelled by a head
    /// whose only non-zero weights are `(3, w3)` and `(HIDDEN + 7, w7)`
    /// (bias 0.1), and the head fitted to them.
    fn fitted(w3: f64, w7: f64) -> (Network, FloatNet, Vec<Sample>, FloatHead) {
        let body = net();
        let p = body_params(&body);
        let mut weights = vec![0f64; 2 * HIDDEN];
        weights[3] = w3;
        weights[HIDDEN + 7] = w7;
        let truth = FloatHead { weights, bias: 0.1 };
        let data = samples(&p, &truth);
        let got = fit_head(&p, &data, 1e-7).unwrap();
        (body, p, data, got)
    }

    /// The engine's integer value and the float head's, per sample, with
    /// `head` as stylish's head over `body`.
    fn int_and_float(
        body: &Network,
        p: &FloatNet,
        head: &FloatHead,
        samples: &[Sample],
    ) -> Vec<(f64, f64)> {
        let net = with_head(body, Variant::Stylish, head.quantised()).unwrap();
        let index = margin_head(Variant::Stylish).unwrap();
        samples
            .iter()
            .map(|s| {
                let board = s.board();
                let acc = Accumulator::refresh(&net, &board);
                let int = f64::from(net.output_head(&acc, &board, s.turn(), index));
                (int, head.value(p, s))
            })
            .collect()
    }

    #[test]
    fn the_fit_recovers_a_head_the_data_follow() {
        // A head with a few non-zero weights: more samples than those
        // weights vary with are needed for an exact recovery, so check the
        // predictions, not the weights.
        let (_, p, data, got) = fitted(0.5, -0.25);
        let err = mse(&data, |s| got.value(&p, s));
        assert!(err < 1e-4, "{err}");
        let zero = mse(&data, |_| 0.0);
        assert!(zero > 1e-3, "{zero}");
    }

    #[test]
    fn the_fit_keeps_every_weight_within_what_the_engine_holds() {
        // A target far beyond what weights within the bound can reach: the
        // unbounded solution would overshoot them; the bounded one holds
        // some at the bound, keeps the rest inside, and still follows the
        // target better than predicting nothing.
        let (body, p, data, got) = fitted(160.0, -100.0);
        let bound = f64::from(CLIP_OUTPUT);
        assert!(got.weights.iter().all(|w| w.abs() <= bound + 1e-12));
        assert!(got.weights.iter().any(|w| w.abs() > bound - 1e-9));
        let err = mse(&data, |s| got.value(&p, s));
        assert!(err < mse(&data, |_| 0.0), "{err}");
        // What the engine computes is then the float fit, to the
        // quantisation's steps (which grow with the weights: within 1 %).
        for (int, float) in int_and_float(&body, &p, &got, &data) {
            assert!(
                (int - float).abs() < 8.0 + 0.01 * float.abs(),
                "{int} {float}"
            );
        }
    }

    #[test]
    fn the_quantised_head_is_what_the_engine_computes() {
        let body = net();
        let p = body_params(&body);
        let mut weights = vec![0f64; 2 * HIDDEN];
        for (i, w) in weights.iter_mut().enumerate() {
            *w = ((i % 9) as f64 - 4.0) / 8.0;
        }
        let head = FloatHead {
            weights,
            bias: -0.3,
        };
        let net = with_head(&body, Variant::Stylish, head.quantised()).unwrap();
        assert_eq!(net.heads().len(), 2);
        assert_eq!(net.heads()[0], body.heads()[0]);
        for (int, float) in int_and_float(&body, &p, &head, &samples(&p, &head)) {
            // The output weights' steps of 1/64 and the truncations.
            assert!((int - float).abs() < 8.0, "{int} {float}");
        }
        // Replacing the head keeps the count; wacky's head comes after
        // stylish's, not before.
        let again = with_head(&net, Variant::Stylish, head.quantised()).unwrap();
        assert_eq!(again.heads().len(), 2);
        assert!(with_head(&body, Variant::Wacky, head.quantised()).is_err());
        let both = with_head(&net, Variant::Wacky, head.quantised()).unwrap();
        assert_eq!(both.heads().len(), 3);
        assert!(with_head(&body, Variant::Sets, head.quantised()).is_err());
        // Over a net of output buckets the head is the same in each.
        let score = |bias| Head {
            weights: [vec![1; HIDDEN], vec![-1; HIDDEN]],
            bias,
        };
        let bucketed = Network::from_weights(Weights {
            buckets: 4,
            heads: (0..4).map(|b| score(b * 1000)).collect(),
            ..body.weights()
        })
        .unwrap();
        let both = with_head(&bucketed, Variant::Stylish, head.quantised()).unwrap();
        assert_eq!((both.buckets(), both.head_count()), (4, 2));
        assert_eq!(both.heads()[..4], bucketed.heads()[..4]);
        assert!(both.heads()[4..].iter().all(|h| *h == head.quantised()));
    }

    #[test]
    fn the_solver_solves() {
        // [[4, 2], [2, 3]] x = [2, 5]: x = [-0.5, 2].
        let mut a = vec![4.0, 2.0, 2.0, 3.0];
        let x = solve_spd(&mut a, &[2.0, 5.0], 2).unwrap();
        assert!(
            (x[0] + 0.5).abs() < 1e-12 && (x[1] - 2.0).abs() < 1e-12,
            "{x:?}"
        );
        let mut singular = vec![1.0, 1.0, 1.0, 1.0];
        assert!(solve_spd(&mut singular, &[1.0, 1.0], 2).is_err());
    }
}
