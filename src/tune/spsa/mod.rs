//! SPSA (simultaneous perturbation stochastic approximation) over the
//! search's tunable constants, the way fishtest tunes Stockfish: every
//! step moves all constants at once by `±c_k` (a random sign each), plays
//! game pairs between the two builds so perturbed, and moves each constant
//! towards the side that won, by `a_k / c_k` times the result times its
//! sign.
//!
//! The schedule is fishtest's: for a run of `N` game pairs, step `k`
//! perturbs by `c_k = c / (k + 1)^γ` and learns at `a_k = a / (A + k +
//! 1)^α`, with `α = 0.602`, `γ = 0.101`, `A = N / 10`; `c` and `a` are set
//! so that the last step perturbs by `c_end` and learns at `r_end ·
//! c_end²` ([`Param::new`]).
//!
//! What lives here: the state of a run ([`State`], saved as JSON between
//! batches so a run resumes) and its arithmetic; playing a run's batches
//! is [`batch`]'s, the arguments and the printing `tally spsa`'s; the
//! constants and their ranges are the search's (`search::tunables`).

pub mod batch;

use serde::{Deserialize, Serialize};

use crate::rng::Rng;

/// The learning rate's decay exponent.
pub const ALPHA: f64 = 0.602;
/// The perturbation's decay exponent.
pub const GAMMA: f64 = 0.101;
/// The learning rate's stability offset `A`, as a share of the run's pairs.
pub const A_SHARE: f64 = 0.1;
/// The state file's format.
pub const FORMAT: u32 = 1;
/// The history keeps one snapshot per this many pairs (and the last).
pub const SNAPSHOT_PAIRS: u64 = 250;

/// One constant being tuned, in option units.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Param {
    /// The UCI option's name.
    pub name: String,
    /// The engine's default.
    pub default: i32,
    /// The smallest value.
    pub min: i32,
    /// The largest value.
    pub max: i32,
    /// The current estimate.
    pub theta: f64,
    /// The perturbation at the run's last step.
    pub c_end: f64,
    /// The learning rate at the run's last step, over `c_end²`.
    pub r_end: f64,
}

impl Param {
    /// A constant starting at its default, with `c_end` the range over
    /// `c_div` (at least one unit) and the given `r_end`.
    pub fn new(name: &str, default: i32, min: i32, max: i32, c_div: f64, r_end: f64) -> Param {
        Param {
            name: name.to_owned(),
            default,
            min,
            max,
            theta: f64::from(default),
            c_end: (f64::from(max - min) / c_div).max(1.0),
            r_end,
        }
    }

    /// The perturbation at step `k` of a run of `total` pairs.
    pub fn c_k(&self, k: u64, total: u64) -> f64 {
        let c = self.c_end * (total.max(1) as f64).powf(GAMMA);
        c / ((k + 1) as f64).powf(GAMMA)
    }

    /// The learning rate at step `k` of a run of `total` pairs.
    pub fn a_k(&self, k: u64, total: u64) -> f64 {
        let big_a = A_SHARE * total as f64;
        let a_end = self.r_end * self.c_end * self.c_end;
        let a = a_end * (big_a + total as f64).powf(ALPHA);
        a / (big_a + (k + 1) as f64).powf(ALPHA)
    }

    /// `x` kept inside the range.
    fn clamp(&self, x: f64) -> f64 {
        x.clamp(f64::from(self.min), f64::from(self.max))
    }

    /// The current estimate, rounded to a whole option value.
    pub fn value(&self) -> i32 {
        self.theta.round() as i32
    }
}

/// The estimates after some pairs, kept for the record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    /// Pairs played so far.
    pub pairs: u64,
    /// The batch's result: the `plus` build's wins less its losses.
    pub result: f64,
    /// Every constant's estimate, in the order of [`State::params`].
    pub theta: Vec<f64>,
}

impl Snapshot {
    /// How many multiples of [`SNAPSHOT_PAIRS`] the run had reached.
    fn stretch(&self) -> u64 {
        self.pairs / SNAPSHOT_PAIRS
    }
}

/// A tuning run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// [`FORMAT`].
    pub format: u32,
    /// What the games are (variant, limits, openings): a run resumes only
    /// with the same.
    pub setup: String,
    /// The run's length in game pairs.
    pub total: u64,
    /// Pairs played so far.
    pub done: u64,
    /// The seed of the signs and the openings.
    pub seed: u64,
    /// The constants.
    pub params: Vec<Param>,
    /// The estimates after the first batch to reach each multiple of
    /// [`SNAPSHOT_PAIRS`], and after the last batch.
    pub history: Vec<Snapshot>,
}

/// The two builds of one batch.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// Each constant's sign, +1 or -1.
    pub signs: Vec<f64>,
    /// The perturbation of each constant.
    pub c: Vec<f64>,
    /// The values of the `plus` build (estimate + sign · c, in range).
    pub plus: Vec<i32>,
    /// The values of the `minus` build (estimate - sign · c, in range).
    pub minus: Vec<i32>,
}

impl State {
    /// A fresh run.
    pub fn new(setup: String, total: u64, seed: u64, params: Vec<Param>) -> State {
        State {
            format: FORMAT,
            setup,
            total,
            done: 0,
            seed,
            params,
            history: Vec::new(),
        }
    }

    /// Whether the state is one that a run could have written: the checks
    /// of the command line's flags (a positive finite perturbation and
    /// learning rate, a range that holds the default and the estimate,
    /// at least one constant and one pair) and a history that fits the
    /// constants and the pairs played. A state that passes cannot make
    /// [`State::step`] or [`State::apply`] panic or compute a NaN.
    ///
    /// # Errors
    ///
    /// The first field that fails, named as in the file
    /// (`params[0] RFP_MARGIN: min 200 is above max 160`).
    pub fn check(&self) -> Result<(), String> {
        if self.total == 0 {
            return Err("total: 0 pairs (at least 1)".to_owned());
        }
        if self.done > self.total {
            return Err(format!(
                "done: {} pairs played of a run of {}",
                self.done, self.total
            ));
        }
        if self.params.is_empty() {
            return Err("params: no constant to tune".to_owned());
        }
        for (i, p) in self.params.iter().enumerate() {
            let at = format!("params[{i}] {}", p.name);
            if p.min > p.max {
                return Err(format!("{at}: min {} is above max {}", p.min, p.max));
            }
            if !(p.min..=p.max).contains(&p.default) {
                return Err(format!(
                    "{at}: default {} is outside [{}, {}]",
                    p.default, p.min, p.max
                ));
            }
            let range = f64::from(p.min)..=f64::from(p.max);
            if !range.contains(&p.theta) {
                return Err(format!(
                    "{at}: theta {} is outside [{}, {}]",
                    p.theta, p.min, p.max
                ));
            }
            if !(p.c_end.is_finite() && p.c_end > 0.0) {
                return Err(format!("{at}: c_end {} is not a positive number", p.c_end));
            }
            if !(p.r_end.is_finite() && p.r_end > 0.0) {
                return Err(format!("{at}: r_end {} is not a positive number", p.r_end));
            }
        }
        for (i, h) in self.history.iter().enumerate() {
            let at = format!("history[{i}]");
            if h.pairs > self.done {
                return Err(format!(
                    "{at}: pairs {} is beyond done {}",
                    h.pairs, self.done
                ));
            }
            if !h.result.is_finite() {
                return Err(format!("{at}: result {} is not a number", h.result));
            }
            if h.theta.len() != self.params.len() {
                return Err(format!(
                    "{at}: theta has {} values for {} params",
                    h.theta.len(),
                    self.params.len()
                ));
            }
            if let Some(t) = h.theta.iter().find(|t| !t.is_finite()) {
                return Err(format!("{at}: theta {t} is not a number"));
            }
        }
        Ok(())
    }

    /// Whether every pair is played.
    pub fn finished(&self) -> bool {
        self.done >= self.total
    }

    /// The generator of the batch that starts at pair `done`.
    fn rng(&self, salt: u64) -> Rng {
        Rng::for_game(self.seed ^ salt, self.done)
    }

    /// The builds of the batch that starts now.
    pub fn step(&self) -> Step {
        let mut rng = self.rng(0x5eed_5175);
        let mut s = Step {
            signs: Vec::new(),
            c: Vec::new(),
            plus: Vec::new(),
            minus: Vec::new(),
        };
        for p in &self.params {
            let sign = if rng.next_u64() & 1 == 0 { 1.0 } else { -1.0 };
            let c = p.c_k(self.done, self.total);
            s.plus.push(p.clamp(p.theta + sign * c).round() as i32);
            s.minus.push(p.clamp(p.theta - sign * c).round() as i32);
            s.signs.push(sign);
            s.c.push(c);
        }
        s
    }

    /// `count` openings (indices below `available`) for the batch that
    /// starts now.
    pub fn openings(&self, count: usize, available: usize) -> Vec<usize> {
        let mut rng = self.rng(0x0be7_1295);
        (0..count).map(|_| rng.below(available.max(1))).collect()
    }

    /// Learns from a batch of `pairs` game pairs played with `step`, where
    /// the `plus` build won `result` games more than it lost.
    pub fn apply(&mut self, step: &Step, pairs: u64, result: f64) {
        let k = self.done;
        for (i, p) in self.params.iter_mut().enumerate() {
            let a = p.a_k(k, self.total);
            p.theta = p.clamp(p.theta + a / step.c[i] * result * step.signs[i]);
        }
        self.done += pairs;
        self.history.push(Snapshot {
            pairs: self.done,
            result,
            theta: self.params.iter().map(|p| p.theta).collect(),
        });
        self.thin();
    }

    /// Keeps the snapshots that were the first to reach their multiple of
    /// [`SNAPSHOT_PAIRS`], and the last.
    pub fn thin(&mut self) {
        let last = self.history.len().saturating_sub(1);
        let mut seen = None;
        let mut i = 0;
        self.history.retain(|h| {
            let keep = seen != Some(h.stretch()) || i == last;
            seen = Some(h.stretch());
            i += 1;
            keep
        });
    }

    /// The current estimates as `option.NAME=VALUE` words, for a
    /// `tally match` player.
    pub fn options(&self) -> String {
        self.params
            .iter()
            .map(|p| format!("option.{}={}", p.name, p.value()))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(params: Vec<Param>) -> State {
        State::new("chess nodes=1000".to_owned(), 1000, 7, params)
    }

    #[test]
    fn the_schedule_ends_at_c_end_and_r_end() {
        let p = Param::new("X", 100, 0, 200, 20.0, 0.002);
        assert_eq!(p.c_end, 10.0);
        assert!((p.c_k(999, 1000) - 10.0).abs() < 1e-9);
        assert!((p.a_k(999, 1000) - 0.002 * 100.0).abs() < 1e-9);
        // Both decay: the first step perturbs and learns the most.
        assert!(p.c_k(0, 1000) > p.c_k(500, 1000));
        assert!(p.a_k(0, 1000) > p.a_k(500, 1000));
        // c_0 = c_end · N^γ: 10 · 1000^0.101.
        assert!((p.c_k(0, 1000) - 10.0 * 1000f64.powf(0.101)).abs() < 1e-9);
        // A small range still perturbs by one unit.
        assert_eq!(Param::new("Y", 16, 8, 20, 20.0, 0.002).c_end, 1.0);
    }

    #[test]
    fn a_step_perturbs_both_ways_within_the_range() {
        let s = run(vec![
            Param::new("A", 100, 0, 200, 20.0, 0.002),
            Param::new("B", 5, 0, 200, 20.0, 0.002),
        ]);
        let step = s.step();
        for i in 0..2 {
            assert!(step.signs[i] == 1.0 || step.signs[i] == -1.0);
            let p = &s.params[i];
            assert!((p.min..=p.max).contains(&step.plus[i]));
            assert!((p.min..=p.max).contains(&step.minus[i]));
        }
        // A: 100 ± c_0 (c_0 = 10 · 1000^0.101, about 20.1).
        let want = (100.0 + step.signs[0] * step.c[0]).round() as i32;
        assert_eq!(step.plus[0], want);
        assert_eq!(step.plus[0] + step.minus[0], 200);
        // B near its minimum: the low side is clamped to 0.
        assert!(step.plus[1].min(step.minus[1]) == 0);
        // The same state gives the same step; another batch another one.
        assert_eq!(s.step(), step);
    }

    #[test]
    fn apply_moves_towards_the_winner() {
        let mut s = run(vec![Param::new("A", 100, 0, 200, 20.0, 0.002)]);
        let step = s.step();
        let a = s.params[0].a_k(0, 1000);
        s.apply(&step, 4, 3.0);
        let moved = s.params[0].theta - 100.0;
        // theta += a_k / c_k · result · sign.
        assert!((moved - a / step.c[0] * 3.0 * step.signs[0]).abs() < 1e-9);
        assert_eq!(moved.signum(), step.signs[0]);
        assert_eq!(s.done, 4);
        assert_eq!(s.history[0].theta, vec![s.params[0].theta]);
        // A draw-level batch learns nothing.
        let before = s.params[0].theta;
        let step = s.step();
        s.apply(&step, 4, 0.0);
        assert_eq!(s.params[0].theta, before);
        assert!(!s.finished());
        // The first batch and the last.
        let pairs: Vec<u64> = s.history.iter().map(|h| h.pairs).collect();
        assert_eq!(pairs, vec![4, 8]);
    }

    #[test]
    fn the_history_keeps_one_snapshot_a_stretch_and_the_last() {
        let mut s = run(vec![Param::new("A", 100, 0, 200, 20.0, 0.002)]);
        for _ in 0..200 {
            let step = s.step();
            s.apply(&step, 4, 1.0);
        }
        let pairs: Vec<u64> = s.history.iter().map(|h| h.pairs).collect();
        assert_eq!(pairs, vec![4, 252, 500, 752, 800]);
        assert_eq!(s.history.last().unwrap().theta, vec![s.params[0].theta]);
    }

    #[test]
    fn estimates_stay_in_range() {
        let mut s = run(vec![Param::new("A", 10, 8, 12, 20.0, 0.5)]);
        for _ in 0..50 {
            let step = s.step();
            // Always reward the plus side hugely.
            s.apply(&step, 1, 100.0 * step.signs[0]);
        }
        assert_eq!(s.params[0].theta, 12.0);
        assert_eq!(s.options(), "option.A=12");
    }

    #[test]
    fn openings_are_seeded() {
        let s = run(vec![]);
        let a = s.openings(8, 100);
        assert_eq!(a, s.openings(8, 100));
        assert!(a.iter().all(|&i| i < 100));
        let mut t = s.clone();
        t.done = 8;
        assert_ne!(t.openings(8, 100), a);
    }

    #[test]
    fn a_run_passes_its_own_checks_and_a_broken_range_does_not() {
        let mut s = run(vec![Param::new("A", 100, 0, 200, 20.0, 0.002)]);
        assert_eq!(s.check(), Ok(()));
        let step = s.step();
        s.apply(&step, 4, 3.0);
        assert_eq!(s.check(), Ok(()));
        let mut t = s.clone();
        t.params[0].min = 300;
        assert!(t.check().unwrap_err().contains("params[0] A: min 300"));
        let mut t = s.clone();
        t.params[0].c_end = f64::NAN;
        assert!(t.check().unwrap_err().contains("c_end"));
        let mut t = s.clone();
        t.history[0].theta.push(1.0);
        assert!(t.check().unwrap_err().contains("history[0]"));
    }

    #[test]
    fn state_round_trips_through_json() {
        let mut s = run(vec![Param::new("A", 100, 0, 200, 20.0, 0.002)]);
        let step = s.step();
        s.apply(&step, 2, -1.0);
        let text = serde_json::to_string(&s).unwrap();
        let back: State = serde_json::from_str(&text).unwrap();
        assert_eq!(back, s);
    }
}
