//! Match statistics, from player 1's side (the first `--player`).
//!
//! - **Win, draw, loss** come from each game's point margin: a win is a
//!   margin above zero. A forfeit (crash, hang, illegal move, time) is a
//!   loss for the forfeiting player whatever the points.
//! - **Mean points** per player and the **mean margin** are in the
//!   variant's own points (the referee's totals), the margin with a 95 %
//!   interval from the normal approximation (mean ± 1.96 standard
//!   errors).
//! - **Elo** from the score (win 1, draw 1/2, loss 0) by the logistic
//!   formula, with a 95 % interval from the score's standard error mapped
//!   through the same formula (trinomial model; the pairs of games on one
//!   opening are treated as independent games).
//! - **SPRT**: the generalised SPRT on the trinomial score, with the
//!   log-likelihood ratio approximated as in fishtest:
//!   `LLR = N (s1 - s0) (2 s - s0 - s1) / (2 var)`, where `s0`, `s1` are
//!   the expected scores at `elo0`, `elo1` and `var` the per-game score
//!   variance; the test stops below `ln(beta / (1 - alpha))` (H0) or above
//!   `ln((1 - beta) / alpha)` (H1).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{ForfeitKind, GameRecord};

/// The normal quantile of a two-sided 95 % interval.
pub const Z95: f64 = 1.959_964;

/// SPRT settings.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtConfig {
    /// Elo of the null hypothesis.
    pub elo0: f64,
    /// Elo of the alternative.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

impl std::str::FromStr for SprtConfig {
    type Err = String;

    /// Parses `elo0=0,elo1=5,alpha=0.05,beta=0.05` (alpha and beta default
    /// to 0.05).
    fn from_str(s: &str) -> Result<SprtConfig, String> {
        let mut c = SprtConfig {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
        };
        for part in s.split([',', ' ']).filter(|p| !p.is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| format!("--sprt: '{part}' is not key=value"))?;
            let v: f64 = v
                .trim()
                .parse()
                .map_err(|_| format!("--sprt: {k}={v} is not a number"))?;
            match k.trim() {
                "elo0" => c.elo0 = v,
                "elo1" => c.elo1 = v,
                "alpha" => c.alpha = v,
                "beta" => c.beta = v,
                other => return Err(format!("--sprt: unknown key '{other}'")),
            }
        }
        if !c.elo0.is_finite() || !c.elo1.is_finite() {
            return Err("--sprt needs elo0= and elo1=".to_owned());
        }
        if c.elo0 >= c.elo1 {
            return Err("--sprt: elo0 must be below elo1".to_owned());
        }
        if !(0.0 < c.alpha && c.alpha < 0.5 && 0.0 < c.beta && c.beta < 0.5) {
            return Err("--sprt: alpha and beta must lie between 0 and 0.5".to_owned());
        }
        Ok(c)
    }
}

/// The SPRT's state.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SprtStatus {
    /// The settings.
    pub config: SprtConfig,
    /// The log-likelihood ratio.
    pub llr: f64,
    /// The lower bound (accept H0 below it).
    pub lower: f64,
    /// The upper bound (accept H1 above it).
    pub upper: f64,
    /// `"H0"`, `"H1"` or `"continue"`.
    pub decision: &'static str,
}

/// A match's summary.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// The players' names.
    pub names: [String; 2],
    /// Games counted.
    pub games: usize,
    /// Player 1's wins.
    pub wins: usize,
    /// Draws.
    pub draws: usize,
    /// Player 1's losses.
    pub losses: usize,
    /// Player 1's score fraction (win 1, draw 1/2).
    pub score: f64,
    /// Mean points per game of each player.
    pub mean_points: [f64; 2],
    /// Mean margin of player 1 (its points minus player 2's).
    pub mean_margin: f64,
    /// Half-width of the 95 % interval of the mean margin.
    pub margin_ci95: f64,
    /// Player 1's Elo difference, `None` at a score of 0 or 1 (or no game).
    pub elo: Option<f64>,
    /// The 95 % interval of the Elo difference (bounds may be infinite:
    /// `None`).
    pub elo_ci95: (Option<f64>, Option<f64>),
    /// Forfeits per player, by reason kind.
    pub forfeits: [BTreeMap<ForfeitKind, usize>; 2],
    /// Games per ending kind.
    pub endings: BTreeMap<String, usize>,
    /// The SPRT, when one runs.
    pub sprt: Option<SprtStatus>,
}

/// The expected score at an Elo difference.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference of a score fraction; `None` at 0, 1 or outside.
pub fn elo_of(score: f64) -> Option<f64> {
    (score > 0.0 && score < 1.0).then(|| -400.0 * (1.0 / score - 1.0).log10())
}

/// Player 1's result of a game: 1, 1/2 or 0.
pub fn game_score(g: &GameRecord) -> f64 {
    if let Some(f) = &g.forfeit {
        return if f.player == 0 { 0.0 } else { 1.0 };
    }
    let m = g.points[0] - g.points[1];
    if m > 1e-9 {
        1.0
    } else if m < -1e-9 {
        0.0
    } else {
        0.5
    }
}

/// The log-likelihood ratio of a trinomial sample (see the module docs).
pub fn llr(n: f64, mean: f64, var: f64, c: &SprtConfig) -> f64 {
    if n < 1.0 || var <= 0.0 {
        return 0.0;
    }
    let s0 = expected_score(c.elo0);
    let s1 = expected_score(c.elo1);
    n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
}

/// Summarises games (any order) between players named `names`.
pub fn summarise(names: &[String; 2], games: &[GameRecord], sprt: Option<&SprtConfig>) -> Summary {
    let n = games.len();
    let nf = n as f64;
    let mut wins = 0;
    let mut draws = 0;
    let mut losses = 0;
    let mut sum_points = [0.0; 2];
    let mut margins = Vec::with_capacity(n);
    let mut scores = Vec::with_capacity(n);
    let mut forfeits: [BTreeMap<ForfeitKind, usize>; 2] = Default::default();
    let mut endings = BTreeMap::new();
    for g in games {
        let s = game_score(g);
        scores.push(s);
        if s == 1.0 {
            wins += 1;
        } else if s == 0.0 {
            losses += 1;
        } else {
            draws += 1;
        }
        sum_points[0] += g.points[0];
        sum_points[1] += g.points[1];
        margins.push(g.points[0] - g.points[1]);
        if let Some(f) = &g.forfeit
            && let Some(m) = forfeits.get_mut(f.player)
        {
            *m.entry(f.kind).or_insert(0) += 1;
        }
        *endings.entry(g.ending.clone()).or_insert(0) += 1;
    }
    let mean = |v: &[f64]| {
        if v.is_empty() {
            0.0
        } else {
            v.iter().sum::<f64>() / nf
        }
    };
    let var = |v: &[f64], m: f64| {
        if v.len() < 2 {
            0.0
        } else {
            v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (nf - 1.0)
        }
    };
    let mean_margin = mean(&margins);
    let margin_ci95 = if n > 1 {
        Z95 * (var(&margins, mean_margin) / nf).sqrt()
    } else {
        0.0
    };
    let score = if n == 0 { 0.5 } else { mean(&scores) };
    let score_var = var(&scores, score);
    let se = (score_var / nf.max(1.0)).sqrt();
    let elo = if n == 0 { None } else { elo_of(score) };
    let lo = score - Z95 * se;
    let hi = score + Z95 * se;
    let elo_ci95 = if n == 0 {
        (None, None)
    } else {
        (elo_of(lo), elo_of(hi))
    };
    let sprt = sprt.map(|c| {
        // The population variance, as the LLR formula wants.
        let pop_var = if n == 0 {
            0.0
        } else {
            scores
                .iter()
                .map(|x| (x - score) * (x - score))
                .sum::<f64>()
                / nf
        };
        let llr = llr(nf, score, pop_var, c);
        let lower = (c.beta / (1.0 - c.alpha)).ln();
        let upper = ((1.0 - c.beta) / c.alpha).ln();
        let decision = if llr <= lower {
            "H0"
        } else if llr >= upper {
            "H1"
        } else {
            "continue"
        };
        SprtStatus {
            config: *c,
            llr,
            lower,
            upper,
            decision,
        }
    });
    Summary {
        names: names.clone(),
        games: n,
        wins,
        draws,
        losses,
        score,
        mean_points: [
            if n == 0 { 0.0 } else { sum_points[0] / nf },
            if n == 0 { 0.0 } else { sum_points[1] / nf },
        ],
        mean_margin,
        margin_ci95,
        elo,
        elo_ci95,
        forfeits,
        endings,
        sprt,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_formula() {
        assert!((expected_score(0.0) - 0.5).abs() < 1e-12);
        assert!((elo_of(0.75).unwrap() - 190.848).abs() < 1e-3);
        assert_eq!(elo_of(1.0), None);
        assert_eq!(elo_of(0.0), None);
        assert!((elo_of(expected_score(123.0)).unwrap() - 123.0).abs() < 1e-9);
    }

    #[test]
    fn sprt_parsing_and_llr() {
        let c: SprtConfig = "elo0=0,elo1=10".parse().unwrap();
        assert_eq!(c.alpha, 0.05);
        assert!("elo0=10,elo1=0".parse::<SprtConfig>().is_err());
        assert!("elo0=0".parse::<SprtConfig>().is_err());
        assert!("elo0=0,elo1=5,gamma=1".parse::<SprtConfig>().is_err());
        // A sample scoring exactly at elo1's expectation favours H1.
        let s1 = expected_score(10.0);
        assert!(llr(1000.0, s1, 0.2, &c) > 0.0);
        let s0 = expected_score(0.0);
        assert!(llr(1000.0, s0, 0.2, &c) < 0.0);
        // Halfway: zero.
        assert!(llr(1000.0, (s0 + s1) / 2.0, 0.2, &c).abs() < 1e-9);
    }
}
