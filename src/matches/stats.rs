//! Match statistics, from player 1's side (the first `--player`).
//!
//! - **Win, draw, loss** come from each game's point margin: a win is a
//!   margin above zero. A forfeit (crash, hang, illegal move, time) is a
//!   loss for the forfeiting player whatever the points.
//! - **Mean points** per player and the **mean margin** are in the
//!   variant's own points (the referee's totals), the margin with a 95 %
//!   interval from the normal approximation (mean ± 1.96 standard
//!   errors).
//! - **Elo per game** from the score (win 1, draw 1/2, loss 0) by the
//!   logistic formula, with a 95 % interval from the score's standard
//!   error mapped through the same formula (trinomial model, every game
//!   taken as independent).
//! - **Pairs**: games `2j` and `2j + 1` play one opening with the colours
//!   reversed; a pair whose two games are both finished scores 0, 1/2, 1,
//!   3/2 or 2 points for player 1, and the counts of the five are the
//!   **pentanomial** (as fishtest and OpenBench count). The two games of a
//!   pair are not independent (the opening favours one side twice), so
//!   the pentanomial is what the SPRT and the pair Elo use: with `n` pairs
//!   and `x` a pair's score fraction (points / 2), `mu` is the mean of `x`
//!   and `var` its (population) variance over the pairs.
//! - **Pair Elo**: `elo(mu)` by the logistic formula, with the 95 %
//!   interval `elo(mu ± 1.96 sqrt(var / n))`. Normalized Elo (nElo, used
//!   by the `normalized` SPRT model) is `(800 / ln 10) (mu - 1/2) /
//!   sqrt(2 var)`, `± 1.96 (800 / ln 10) / sqrt(2 n)`.
//! - **SPRT**: the generalised SPRT on the pentanomial, with the
//!   log-likelihood ratio by the normal approximation
//!   `LLR = n (mu1 - mu0) (2 mu - mu0 - mu1) / (2 var)`, where `mu0`,
//!   `mu1` are the expected pair score fractions under the two hypotheses:
//!   `1 / (1 + 10^(-elo / 400))` for logistic bounds (the default), or
//!   `1/2 + t var^(1/2)` with `t = sqrt(2) elo ln 10 / 800` for
//!   normalized bounds, so that there `LLR = n (t1 - t0)
//!   (2 (mu - 1/2) / sqrt(var) - t0 - t1) / 2`. A count of zero is taken
//!   as 0.001 in the LLR (as fishtest and OpenBench do), so that a sample
//!   without spread (all pairs won) still has a variance. The test accepts
//!   H0 at or below `ln(beta / (1 - alpha))` and H1 at or above
//!   `ln((1 - beta) / alpha)`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{ForfeitKind, GameRecord};

/// The normal quantile of a two-sided 95 % interval.
pub const Z95: f64 = 1.959_964;

/// Normalized Elo per unit of the t-value (`800 / ln 10`).
const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// What a pentanomial count of zero counts as in the LLR.
const EMPTY_COUNT: f64 = 1e-3;

/// The Elo scale of the SPRT's bounds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EloModel {
    /// Logistic Elo, as the summary's Elo.
    #[default]
    Logistic,
    /// Normalized Elo (nElo), independent of the draw rate.
    Normalized,
}

impl EloModel {
    /// Every model.
    pub const ALL: [EloModel; 2] = [EloModel::Logistic, EloModel::Normalized];

    /// The model's name, as in `--sprt` and the JSON summary: `logistic`
    /// or `normalized`.
    pub fn as_str(self) -> &'static str {
        match self {
            EloModel::Logistic => "logistic",
            EloModel::Normalized => "normalized",
        }
    }

    /// The model of a name ([`EloModel::as_str`]), if there is one.
    pub fn from_name(name: &str) -> Option<EloModel> {
        EloModel::ALL.into_iter().find(|m| m.as_str() == name)
    }
}

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
    /// The scale of `elo0` and `elo1`.
    #[serde(default)]
    pub model: EloModel,
    /// Pairs played before the test may decide: with a handful of pairs
    /// the sample variance is near zero and the LLR leaps past a bound.
    #[serde(default)]
    pub min_pairs: usize,
}

/// The pairs an SPRT plays before it may decide, unless `min_pairs=` says.
pub const DEFAULT_MIN_PAIRS: usize = 100;

impl SprtConfig {
    /// The LLR at or below which H0 is accepted.
    pub fn lower(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// The LLR at or above which H1 is accepted.
    pub fn upper(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }
}

impl std::str::FromStr for SprtConfig {
    type Err = String;

    /// Parses `elo0=0,elo1=5[,alpha=0.05,beta=0.05,model=logistic,
    /// min_pairs=100]` (alpha and beta default to 0.05, the model to
    /// logistic, the other model being `normalized`; no decision before
    /// `min_pairs` game pairs).
    fn from_str(s: &str) -> Result<SprtConfig, String> {
        let mut c = SprtConfig {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
            model: EloModel::Logistic,
            min_pairs: DEFAULT_MIN_PAIRS,
        };
        for part in s.split([',', ' ']).filter(|p| !p.is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| format!("--sprt: '{part}' is not key=value"))?;
            if k.trim() == "model" {
                let name = v.trim();
                c.model = EloModel::from_name(name).ok_or_else(|| {
                    format!("--sprt: model={name}: expected logistic or normalized")
                })?;
                continue;
            }
            if k.trim() == "min_pairs" {
                c.min_pairs = v
                    .trim()
                    .parse()
                    .map_err(|_| format!("--sprt: min_pairs={v} is not a whole number of pairs"))?;
                continue;
            }
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

/// Where the SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SprtDecision {
    /// Neither bound reached: play on.
    #[serde(rename = "continue")]
    Continue,
    /// The lower bound reached: H0 (`elo0`) accepted.
    #[serde(rename = "H0")]
    AcceptH0,
    /// The upper bound reached: H1 (`elo1`) accepted.
    #[serde(rename = "H1")]
    AcceptH1,
}

impl SprtDecision {
    /// In words: `H0 accepted`, `H1 accepted` or `continue`.
    pub fn describe(self) -> &'static str {
        match self {
            SprtDecision::Continue => "continue",
            SprtDecision::AcceptH0 => "H0 accepted",
            SprtDecision::AcceptH1 => "H1 accepted",
        }
    }
}

/// The SPRT's state.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SprtStatus {
    /// The settings.
    pub config: SprtConfig,
    /// The log-likelihood ratio.
    pub llr: f64,
    /// The lower bound (accept H0 at or below it).
    pub lower: f64,
    /// The upper bound (accept H1 at or above it).
    pub upper: f64,
    /// Where the test stands.
    pub decision: SprtDecision,
}

/// An Elo estimate with its 95 % interval (bounds may be infinite:
/// `None`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EloInterval {
    /// The estimate.
    pub elo: f64,
    /// The interval's lower bound.
    pub low: Option<f64>,
    /// The interval's upper bound.
    pub high: Option<f64>,
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
    /// Games per ending kind, by [`ending_name`](super::ending_name) (in
    /// alphabetical order).
    pub endings: BTreeMap<&'static str, usize>,
    /// Whole pairs (both games finished) by player 1's points in them: 0,
    /// 1/2, 1, 3/2, 2.
    pub penta: [usize; 5],
    /// Player 1's Elo from the pairs (logistic), `None` without pairs or at
    /// a pair score of 0 or 1.
    pub pair_elo: Option<EloInterval>,
    /// Player 1's normalized Elo from the pairs, `None` without pairs or
    /// spread.
    pub pair_nelo: Option<EloInterval>,
    /// The SPRT, when one runs.
    pub sprt: Option<SprtStatus>,
}

/// The expected score at an Elo difference.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference of a score fraction; `None` at 0, 1 or outside.
pub fn elo_of(score: f64) -> Option<f64> {
    // `+ 0.0` turns the -0 of an even score into 0.
    (score > 0.0 && score < 1.0).then(|| -400.0 * (1.0 / score - 1.0).log10() + 0.0)
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

/// The pentanomial of `games`: whole pairs (games `2j` and `2j + 1`, any
/// order) counted by player 1's points in them (0, 1/2, 1, 3/2, 2).
pub fn pentanomial(games: &[GameRecord]) -> [usize; 5] {
    pentanomial_refs(&games.iter().collect::<Vec<_>>())
}

/// [`pentanomial`] of games given by reference.
fn pentanomial_refs(games: &[&GameRecord]) -> [usize; 5] {
    let mut halves: BTreeMap<usize, Vec<f64>> = BTreeMap::new();
    for g in games {
        halves.entry(g.index / 2).or_default().push(game_score(g));
    }
    let mut counts = [0; 5];
    for scores in halves.values() {
        if let [a, b] = scores[..] {
            // Points in half points: 0 to 4.
            let k = ((a + b) * 2.0).round() as usize;
            if let Some(c) = counts.get_mut(k) {
                *c += 1;
            }
        }
    }
    counts
}

/// Pairs, mean pair score fraction and its population variance, from
/// (possibly fractional) pentanomial counts; `None` without pairs.
fn pair_moments(counts: &[f64; 5]) -> Option<(f64, f64, f64)> {
    let n: f64 = counts.iter().sum();
    if n <= 0.0 {
        return None;
    }
    let x = |k: usize| k as f64 / 4.0;
    let mean = counts
        .iter()
        .enumerate()
        .map(|(k, c)| c * x(k))
        .sum::<f64>()
        / n;
    let var = counts
        .iter()
        .enumerate()
        .map(|(k, c)| c * (x(k) - mean) * (x(k) - mean))
        .sum::<f64>()
        / n;
    Some((n, mean, var))
}

/// The log-likelihood ratio of a pentanomial sample (see the module
/// docs); 0 without pairs.
pub fn llr(penta: &[usize; 5], c: &SprtConfig) -> f64 {
    if penta.iter().all(|&k| k == 0) {
        return 0.0;
    }
    let counts = penta.map(|k| if k == 0 { EMPTY_COUNT } else { k as f64 });
    let Some((n, mean, var)) = pair_moments(&counts) else {
        return 0.0;
    };
    if var <= 0.0 {
        return 0.0;
    }
    match c.model {
        EloModel::Logistic => {
            let (s0, s1) = (expected_score(c.elo0), expected_score(c.elo1));
            n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
        }
        EloModel::Normalized => {
            let t = |elo: f64| std::f64::consts::SQRT_2 * elo / NELO_PER_T;
            let (t0, t1) = (t(c.elo0), t(c.elo1));
            let t_hat = (mean - 0.5) / var.sqrt();
            n * (t1 - t0) * (2.0 * t_hat - t0 - t1) / 2.0
        }
    }
}

/// The SPRT's state after the pairs `penta`.
pub fn sprt_status(penta: &[usize; 5], c: &SprtConfig) -> SprtStatus {
    let llr = llr(penta, c);
    let (lower, upper) = (c.lower(), c.upper());
    let decision = if penta.iter().sum::<usize>() < c.min_pairs {
        SprtDecision::Continue
    } else if llr <= lower {
        SprtDecision::AcceptH0
    } else if llr >= upper {
        SprtDecision::AcceptH1
    } else {
        SprtDecision::Continue
    };
    SprtStatus {
        config: *c,
        llr,
        lower,
        upper,
        decision,
    }
}

/// Player 1's logistic Elo from the pairs, with its 95 % interval (see
/// the module docs); `None` without pairs or at a score of 0 or 1.
pub fn pair_elo(penta: &[usize; 5]) -> Option<EloInterval> {
    let (n, mean, var) = pair_moments(&penta.map(|k| k as f64))?;
    let half = Z95 * (var / n).sqrt();
    Some(EloInterval {
        elo: elo_of(mean)?,
        low: elo_of(mean - half),
        high: elo_of(mean + half),
    })
}

/// Player 1's normalized Elo from the pairs, with its 95 % interval (see
/// the module docs); `None` without pairs or without spread.
pub fn pair_nelo(penta: &[usize; 5]) -> Option<EloInterval> {
    let (n, mean, var) = pair_moments(&penta.map(|k| k as f64))?;
    if var <= 0.0 {
        return None;
    }
    let elo = NELO_PER_T * (mean - 0.5) / (2.0 * var).sqrt();
    let half = Z95 * NELO_PER_T / (2.0 * n).sqrt();
    Some(EloInterval {
        elo,
        low: Some(elo - half),
        high: Some(elo + half),
    })
}

/// Summarises games (any order) between players named `names`.
pub fn summarise(names: &[String; 2], games: &[GameRecord], sprt: Option<&SprtConfig>) -> Summary {
    summarise_refs(names, &games.iter().collect::<Vec<_>>(), sprt)
}

/// [`summarise`] of games given by reference (a tournament's pairing
/// picked out of all its games).
pub fn summarise_refs(
    names: &[String; 2],
    games: &[&GameRecord],
    sprt: Option<&SprtConfig>,
) -> Summary {
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
        *endings.entry(super::ending_name(g.ending)).or_insert(0) += 1;
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
    let penta = pentanomial_refs(games);
    let sprt = sprt.map(|c| sprt_status(&penta, c));
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
        penta,
        pair_elo: pair_elo(&penta),
        pair_nelo: pair_nelo(&penta),
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
        assert!(elo_of(0.5).unwrap().is_sign_positive());
        assert!((elo_of(expected_score(123.0)).unwrap() - 123.0).abs() < 1e-9);
    }

    #[test]
    fn sprt_parsing() {
        let c: SprtConfig = "elo0=0,elo1=10".parse().unwrap();
        assert_eq!((c.alpha, c.beta), (0.05, 0.05));
        assert_eq!(c.model, EloModel::Logistic);
        let c: SprtConfig = "elo0=0,elo1=2,alpha=0.1,model=normalized".parse().unwrap();
        assert_eq!((c.alpha, c.model), (0.1, EloModel::Normalized));
        assert!("elo0=10,elo1=0".parse::<SprtConfig>().is_err());
        assert!("elo0=0".parse::<SprtConfig>().is_err());
        assert!("elo0=0,elo1=5,gamma=1".parse::<SprtConfig>().is_err());
        assert_eq!(
            "elo0=0,elo1=5,model=bayes".parse::<SprtConfig>(),
            Err("--sprt: model=bayes: expected logistic or normalized".to_owned())
        );
        // ln(0.05 / 0.95) and ln(0.95 / 0.05).
        assert!((c.lower() - (0.05f64 / 0.9).ln()).abs() < 1e-12);
        let c: SprtConfig = "elo0=0,elo1=5".parse().unwrap();
        assert!((c.lower() + 2.944_438_979).abs() < 1e-9);
        assert!((c.upper() - 2.944_438_979).abs() < 1e-9);
    }

    #[test]
    fn kind_names_are_the_serialized_names() {
        for m in EloModel::ALL {
            let json = serde_json::to_string(&m).unwrap();
            assert_eq!(json, format!("\"{}\"", m.as_str()));
            assert_eq!(EloModel::from_name(m.as_str()), Some(m));
        }
        assert_eq!(EloModel::from_name("Logistic"), None);
        for k in [
            ForfeitKind::Crash,
            ForfeitKind::Hang,
            ForfeitKind::Illegal,
            ForfeitKind::Time,
            ForfeitKind::Protocol,
            ForfeitKind::Flood,
        ] {
            let json = serde_json::to_string(&k).unwrap();
            assert_eq!(json, format!("\"{k}\""));
        }
    }

    /// The pentanomial [5, 20, 40, 25, 10]: 100 pairs with score fractions
    /// x = 0, 1/4, 1/2, 3/4, 1.
    ///
    /// - mean: (20/4 + 40/2 + 25·3/4 + 10) / 100 = 53.75 / 100 = 0.5375
    /// - E[x²]: (20/16 + 40/4 + 25·9/16 + 10) / 100 = 35.3125 / 100
    /// - var: 0.353125 - 0.5375² = 0.353125 - 0.28890625 = 0.06421875
    /// - Elo: 400 log10(0.5375 / 0.4625) = 26.1067
    /// - se: sqrt(0.06421875 / 100) = 0.0253414; 1.959964 se = 0.0496683;
    ///   the interval 0.4878317 to 0.5871683 is Elo -8.4570 to 61.1958.
    /// - logistic LLR, elo0 = 0, elo1 = 5: s0 = 0.5, s1 = 1 / (1 +
    ///   10^(-5/400)) = 0.5071951; LLR = 100 (s1 - s0) (2·0.5375 - s0 - s1)
    ///   / (2·0.06421875) = 100 · 0.0071951 · 0.0678049 / 0.1284375 =
    ///   0.379844.
    /// - normalized LLR, elo0 = 0, elo1 = 2: t1 = sqrt(2)·2·ln 10 / 800 =
    ///   0.0081410, t0 = 0; t = 0.0375 / sqrt(0.06421875) = 0.1479790;
    ///   LLR = 100 · 0.0081410 · (2·0.1479790 - 0.0081410) / 2 = 0.117154.
    /// - nElo: 347.4356 · 0.0375 / sqrt(0.1284375) = 36.3546, ± 1.959964
    ///   · 347.4356 / sqrt(200) = 48.1512.
    #[test]
    fn pentanomial_statistics_by_hand() {
        let penta = [5, 20, 40, 25, 10];
        let c: SprtConfig = "elo0=0,elo1=5".parse().unwrap();
        assert!((llr(&penta, &c) - 0.379_844).abs() < 1e-5);
        let e = pair_elo(&penta).unwrap();
        assert!((e.elo - 26.1067).abs() < 1e-3);
        assert!((e.low.unwrap() + 8.4570).abs() < 1e-3);
        assert!((e.high.unwrap() - 61.1958).abs() < 1e-3);
        let c: SprtConfig = "elo0=0,elo1=2,model=normalized".parse().unwrap();
        assert!((llr(&penta, &c) - 0.117_154).abs() < 1e-5);
        let n = pair_nelo(&penta).unwrap();
        assert!((n.elo - 36.3546).abs() < 1e-3);
        assert!((n.high.unwrap() - n.elo - 48.1512).abs() < 1e-3);
        // Mirrored counts: the same LLR magnitude against elo0 = -5,
        // elo1 = 0 with the sign turned, and the Elo negated.
        let mirrored = [10, 25, 40, 20, 5];
        let c: SprtConfig = "elo0=-5,elo1=0".parse().unwrap();
        assert!((llr(&mirrored, &c) + 0.379_844).abs() < 1e-5);
        assert!((pair_elo(&mirrored).unwrap().elo + 26.1067).abs() < 1e-3);
        assert_eq!(sprt_status(&penta, &c).decision, SprtDecision::Continue);
    }

    /// All pairs won: counts of zero are taken as 0.001. With two pairs,
    /// n = 2.004, mean = (0.001 (1/4 + 1/2 + 3/4) + 2) / 2.004 = 0.998752,
    /// E[x²] = (0.001 (1/16 + 1/4 + 9/16) + 2) / 2.004 = 0.998441, var =
    /// 0.998441 - 0.997507 = 0.000934; LLR = 2.004 · 0.0071951 ·
    /// (1.997505 − 1.0071951) / (2 · 0.000934) = 7.6435, past the bound
    /// 2.9444 (one pair gives 1.9169): such a sample decides only once
    /// `min_pairs` pairs are in.
    #[test]
    fn a_sample_without_spread_waits_for_min_pairs() {
        let c: SprtConfig = "elo0=0,elo1=5".parse().unwrap();
        assert_eq!(c.min_pairs, DEFAULT_MIN_PAIRS);
        assert!((llr(&[0, 0, 0, 0, 1], &c) - 1.916_885).abs() < 1e-4);
        let s = sprt_status(&[0, 0, 0, 0, 2], &c);
        assert!((s.llr - 7.643_530).abs() < 1e-4);
        assert_eq!(s.decision, SprtDecision::Continue);
        let c: SprtConfig = "elo0=0,elo1=5,min_pairs=2".parse().unwrap();
        assert_eq!(c.min_pairs, 2);
        let s = sprt_status(&[0, 0, 0, 0, 2], &c);
        assert_eq!(s.decision, SprtDecision::AcceptH1);
        assert_eq!(
            sprt_status(&[2, 0, 0, 0, 0], &c).decision,
            SprtDecision::AcceptH0
        );
        assert_eq!(
            sprt_status(&[1, 0, 0, 0, 0], &c).decision,
            SprtDecision::Continue
        );
        assert!("elo0=0,elo1=5,min_pairs=-1".parse::<SprtConfig>().is_err());
        assert_eq!(llr(&[0; 5], &c), 0.0);
        assert_eq!(pair_elo(&[0, 0, 0, 0, 2]), None);
    }
}
