//! Engine-against-engine experiments read back: the tables and charts of
//! `tally experiment`, computed from the results files of `tally match`
//! (docs/experiments.md).
//!
//! Every question reads the same records: the games of one or more runs
//! (a run is one experiment, [`Experiment`], its shards merged), with
//! each player's level read from its settings ([`Level`]). What each
//! question counts:
//!
//! - [`handicap`]: the sets points of a weaker and a stronger player,
//!   each with its 95 % interval, by level and gap, with or without a
//!   handicap; and the factor that evens a gap out ([`handicap::fit`]);
//! - [`draws`]: how games end under each scoring: tied on points, decided
//!   by the board (mate, resignation), or only by a rule the scoring adds
//!   (bare king, stalemate split, perpetual split, the draw advantage, the
//!   disk), and tiebraker's disk;
//! - [`style`]: in stylish, the mated side winning on points, and what one
//!   player's evaluation does against another's.
//!
//! Intervals are 95 %: a mean's is the normal one (1.96 standard errors),
//! a share's Wilson's. [`chart`] draws the SVG figures with plotters.

pub mod chart;
pub mod draws;
pub mod handicap;
pub mod style;

use std::fmt;
use std::path::Path;

use crate::matches::results;
use crate::matches::{Experiment, GameRecord};

/// The 97.5 % quantile of the normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// One experiment's games, its shards merged (each game once).
#[derive(Clone, Debug)]
pub struct Run {
    /// The experiment.
    pub experiment: Experiment,
    /// Its games, by index.
    pub games: Vec<GameRecord>,
}

impl Run {
    /// The level of player `i` ([`Level::of`]).
    pub fn level(&self, i: usize) -> Level {
        self.experiment
            .players
            .get(i)
            .map_or(Level::Full(String::new()), |p| {
                Level::of(p, &self.experiment.control)
            })
    }

    /// The name of player `i`: its `name=`, else `player N`.
    pub fn name(&self, i: usize) -> String {
        let spec = self.experiment.players.get(i).map_or("", String::as_str);
        setting(spec, "name").unwrap_or_else(|| format!("player {}", i + 1))
    }
}

/// Reads results files and merges the shards of each experiment: one
/// [`Run`] per experiment, in the order each first appears.
///
/// # Errors
///
/// A file that cannot be read.
pub fn load(paths: &[&Path]) -> Result<Vec<Run>, String> {
    let mut runs: Vec<Run> = Vec::new();
    for p in paths {
        let (header, games) = results::read(p)?;
        let i = match runs.iter().position(|r| r.experiment == header.experiment) {
            Some(i) => i,
            None => {
                runs.push(Run {
                    experiment: header.experiment,
                    games: Vec::new(),
                });
                runs.len() - 1
            }
        };
        let run = &mut runs[i];
        for g in games {
            if !run.games.iter().any(|h| h.index == g.index) {
                run.games.push(g);
            }
        }
    }
    let mut out = Vec::new();
    for mut r in runs {
        r.games.sort_by_key(|g| g.index);
        out.extend(r.pairings());
    }
    Ok(out)
}

impl Run {
    /// The run as two-player runs: itself when it is one, else one per
    /// pairing of its tournament (its two players, its games, in the
    /// order the pairings first appear).
    pub fn pairings(self) -> Vec<Run> {
        if self.experiment.players.len() <= 2 {
            return vec![self];
        }
        let mut pairs: Vec<[usize; 2]> = Vec::new();
        for g in &self.games {
            if !pairs.contains(&g.players) {
                pairs.push(g.players);
            }
        }
        pairs
            .into_iter()
            .map(|p| {
                let mut experiment = self.experiment.clone();
                experiment.players = p
                    .iter()
                    .map(|&i| self.experiment.players.get(i).cloned().unwrap_or_default())
                    .collect();
                Run {
                    experiment,
                    games: self
                        .games
                        .iter()
                        .filter(|g| g.players == p)
                        .cloned()
                        .collect(),
                }
            })
            .collect()
    }
}

/// The value of `key=` in a player's settings (words as `tally match -p`
/// reads them; the key without regard to case).
pub fn setting(spec: &str, key: &str) -> Option<String> {
    spec.split_whitespace().find_map(|w| {
        let w = w.trim_matches(|c| c == '"' || c == '\'');
        let (k, v) = w.split_once('=')?;
        k.eq_ignore_ascii_case(key).then(|| v.to_owned())
    })
}

/// A player's strength in an experiment: a `UCI_Elo` level, or full
/// strength under the run's (or its own) limits.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// `UCI_LimitStrength` on at this `UCI_Elo`.
    Elo(i32),
    /// Full strength, with its limits in words (`nodes=20000`).
    Full(String),
}

impl Level {
    /// The level of a player's settings `spec` in a run of `control`.
    pub fn of(spec: &str, control: &str) -> Level {
        let limited = setting(spec, "option.UCI_LimitStrength")
            .is_some_and(|v| matches!(v.to_ascii_lowercase().as_str(), "true" | "on" | "1"));
        if limited && let Some(e) = setting(spec, "option.UCI_Elo").and_then(|v| v.parse().ok()) {
            return Level::Elo(e);
        }
        let own = setting(spec, "nodes").map(|n| format!("nodes={n}"));
        Level::Full(own.unwrap_or_else(|| control.to_owned()))
    }

    /// The `UCI_Elo`, if limited.
    pub fn elo(&self) -> Option<i32> {
        match self {
            Level::Elo(e) => Some(*e),
            Level::Full(_) => None,
        }
    }
}

impl serde::Serialize for Level {
    /// As its text: `1400`, `full (nodes=20000)`.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Level::Elo(e) => write!(f, "{e}"),
            Level::Full(limits) => write!(f, "full ({limits})"),
        }
    }
}

/// A mean with its 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Mean {
    /// The mean.
    pub mean: f64,
    /// Half the interval's width.
    pub ci: f64,
    /// The values counted.
    pub n: usize,
}

impl Mean {
    /// The mean of `values` and its normal 95 % interval (no width below
    /// two values).
    pub fn of(values: &[f64]) -> Mean {
        let n = values.len();
        if n == 0 {
            return Mean {
                mean: 0.0,
                ci: 0.0,
                n,
            };
        }
        let nf = n as f64;
        let mean = values.iter().sum::<f64>() / nf;
        let ci = if n > 1 {
            let var = values.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (nf - 1.0);
            Z95 * (var / nf).sqrt()
        } else {
            0.0
        };
        Mean { mean, ci, n }
    }

    /// The interval's bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (self.mean - self.ci, self.mean + self.ci)
    }

    /// Whether `x` lies in the interval.
    pub fn covers(&self, x: f64) -> bool {
        let (lo, hi) = self.bounds();
        lo <= x && x <= hi
    }
}

impl fmt::Display for Mean {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ± {}", num(self.mean), num(self.ci))
    }
}

/// A share of games with its Wilson 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Share {
    /// The games counted.
    pub count: usize,
    /// Out of.
    pub of: usize,
    /// The interval's lower bound (a fraction).
    pub low: f64,
    /// The interval's upper bound.
    pub high: f64,
}

impl Share {
    /// `count` out of `of`.
    pub fn new(count: usize, of: usize) -> Share {
        if of == 0 {
            return Share {
                count,
                of,
                low: 0.0,
                high: 1.0,
            };
        }
        let (k, n) = (count as f64, of as f64);
        let p = k / n;
        let z2 = Z95 * Z95;
        let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
        Share {
            count,
            of,
            low: (centre - half).max(0.0),
            high: (centre + half).min(1.0),
        }
    }

    /// The share, a fraction (0 of 0 games: 0).
    pub fn value(&self) -> f64 {
        if self.of == 0 {
            0.0
        } else {
            self.count as f64 / self.of as f64
        }
    }
}

impl fmt::Display for Share {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:.1} % ({:.1}-{:.1})",
            100.0 * self.value(),
            100.0 * self.low,
            100.0 * self.high
        )
    }
}

/// A number as the tables show it: three decimals, trailing zeros dropped.
pub fn num(x: f64) -> String {
    let s = format!("{x:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    match s {
        "-0" => "0".to_owned(),
        s => s.to_owned(),
    }
}

/// A markdown table: a header row and the rows, cells as given.
pub fn markdown(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut out = format!("| {} |\n", header.join(" | "));
    out.push_str(&format!(
        "|{}\n",
        header.iter().map(|_| "---|").collect::<String>()
    ));
    for r in rows {
        out.push_str(&format!("| {} |\n", r.join(" | ")));
    }
    out
}

/// The side (`Color`) that moves first in a FEN.
pub fn fen_turn(fen: &str) -> shakmaty::Color {
    match fen.split_whitespace().nth(1) {
        Some("b") => shakmaty::Color::Black,
        _ => shakmaty::Color::White,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intervals() {
        let m = Mean::of(&[1.0, 2.0, 3.0, 4.0]);
        assert!((m.mean - 2.5).abs() < 1e-12);
        // sd = sqrt(5/3), se = sd / 2, 1.96 se.
        assert!((m.ci - Z95 * (5.0f64 / 3.0).sqrt() / 2.0).abs() < 1e-12);
        assert!(m.covers(2.0) && !m.covers(5.0));
        let s = Share::new(0, 10);
        assert_eq!(s.low, 0.0);
        assert!((s.high - 0.2775).abs() < 1e-3, "{s:?}");
        let s = Share::new(50, 100);
        assert!((s.low - 0.4038).abs() < 1e-3 && (s.high - 0.5962).abs() < 1e-3);
        assert_eq!(num(0.5), "0.5");
        assert_eq!(num(-0.0001), "0");
        assert_eq!(num(2.0), "2");
    }

    #[test]
    fn levels() {
        let spec = "name=w1000 option.UCI_LimitStrength=true option.UCI_Elo=1000";
        assert_eq!(Level::of(spec, "nodes=1000000"), Level::Elo(1000));
        assert_eq!(setting(spec, "name").as_deref(), Some("w1000"));
        assert_eq!(
            Level::of("name=a", "nodes=20000"),
            Level::Full("nodes=20000".into())
        );
        assert_eq!(
            Level::Full("nodes=20000".into()).to_string(),
            "full (nodes=20000)"
        );
    }
}
