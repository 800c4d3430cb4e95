//! What data files hold (`tally datagen stats`): games and positions per
//! variant, the balance of results, how games ended, flags, and a
//! histogram of the scores; and the text line form (`tally datagen text`).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::format::{
    DataGame, EndKind, FLAG_DECIDED, FLAG_FORCED, FLAG_IN_CHECK, FLAG_SPECIAL, FLAG_TACTICAL,
    Record, Wdl,
};
use crate::rules::Variant;
use crate::scoring::Points;

/// Edges of the score histogram's bins (magnitudes, internal units).
const EDGES: [i32; 9] = [25, 50, 100, 200, 400, 800, 1600, 3200, 6400];

/// Counts for one variant.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VariantStats {
    /// Games.
    pub games: u64,
    /// Searched positions.
    pub positions: u64,
    /// Games by result from White's view: `[loss, draw, win]`.
    pub results: [u64; 3],
    /// Positions by their game's result: `[loss, draw, win]`.
    pub position_results: [u64; 3],
    /// Games by ending.
    pub endings: BTreeMap<EndKind, u64>,
    /// Positions in check, forced, with a decided score, with a tactical
    /// best action, with a special best action.
    pub flags: [u64; 5],
    /// Score histogram: decided losses, the signed bins between the
    /// bin edges (25, 50, 100 ... 6400 units), decided wins.
    pub histogram: Vec<u64>,
    /// Sum of the magnitudes of the games' total margins (thousandths).
    pub abs_margin_milli: i128,
}

/// Counts per variant.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Per variant, in the specification's order.
    pub variants: BTreeMap<Variant, VariantStats>,
}

/// The histogram bin of a score: 0 decided loss, then the bins from
/// "below -6400" to "above 6400", last decided win.
fn bin(r: &Record) -> usize {
    let n = EDGES.len();
    if r.is_decided() {
        return if r.score > 0 { 2 * n + 2 } else { 0 };
    }
    let s = i32::from(r.score);
    let k = EDGES.iter().take_while(|&&e| s.abs() >= e).count();
    // Bins 1..=n+1 hold the negative side (most negative first) and
    // n+1..=2n+1 the positive side; |s| < 25 is the middle bin, n + 1.
    if s < 0 && k > 0 { n + 1 - k } else { n + 1 + k }
}

fn bin_label(i: usize) -> String {
    let n = EDGES.len();
    let e = |k: usize| EDGES[k - 1];
    match i {
        0 => "decided loss".to_owned(),
        i if i == 2 * n + 2 => "decided win".to_owned(),
        1 => format!("<= -{}", e(n)),
        i if i == 2 * n + 1 => format!(">= {}", e(n)),
        i if i == n + 1 => format!("-{0} .. {0}", EDGES[0]),
        i if i < n + 1 => format!("-{} .. -{}", e(n + 2 - i), e(n + 1 - i)),
        i => format!("{} .. {}", e(i - n - 1), e(i - n)),
    }
}

impl Stats {
    /// Adds a game.
    pub fn add(&mut self, g: &DataGame) {
        let v = self.variants.entry(g.variant).or_default();
        if v.histogram.is_empty() {
            v.histogram = vec![0; 2 * EDGES.len() + 3];
        }
        v.games += 1;
        v.positions += g.positions.len() as u64;
        v.results[g.result as usize] += 1;
        v.position_results[g.result as usize] += g.positions.len() as u64;
        *v.endings.entry(g.end).or_default() += 1;
        v.abs_margin_milli += i128::from(g.total.milli()).abs();
        let flags = [
            FLAG_IN_CHECK,
            FLAG_FORCED,
            FLAG_DECIDED,
            FLAG_TACTICAL,
            FLAG_SPECIAL,
        ];
        for r in &g.positions {
            for (count, f) in v.flags.iter_mut().zip(flags) {
                if r.flags & f != 0 {
                    *count += 1;
                }
            }
            v.histogram[bin(r)] += 1;
        }
    }

    /// The human report.
    pub fn report(&self) -> String {
        let mut s = String::new();
        for (variant, v) in &self.variants {
            let per_game = if v.games > 0 {
                v.positions as f64 / v.games as f64
            } else {
                0.0
            };
            let _ = writeln!(
                s,
                "{variant}: {} games, {} positions ({per_game:.1} per game)",
                v.games, v.positions
            );
            let pct = |n: u64, of: u64| {
                if of == 0 {
                    0.0
                } else {
                    100.0 * n as f64 / of as f64
                }
            };
            let [l, d, w] = v.results;
            let _ = writeln!(
                s,
                "  results (White's view): win {w} ({:.1} %), draw {d} ({:.1} %), loss {l} ({:.1} %)",
                pct(w, v.games),
                pct(d, v.games),
                pct(l, v.games)
            );
            let [pl, pd, pw] = v.position_results;
            let _ = writeln!(s, "  positions by result: win {pw}, draw {pd}, loss {pl}");
            let mean = if v.games > 0 {
                Points::from_wide_milli(v.abs_margin_milli / i128::from(v.games))
            } else {
                Points::ZERO
            };
            let _ = writeln!(s, "  mean |final margin|: {mean} points");
            let endings: Vec<String> = v
                .endings
                .iter()
                .map(|(k, n)| format!("{} {n}", k.name()))
                .collect();
            let _ = writeln!(s, "  endings: {}", endings.join(", "));
            let [check, forced, decided, tactical, special] = v.flags;
            let _ = writeln!(
                s,
                "  positions: in check {check}, forced {forced}, decided score {decided}, \
                 tactical best {tactical}, special best {special}"
            );
            let _ = writeln!(s, "  score (White's view, internal units):");
            let top = v.histogram.iter().copied().max().unwrap_or(0).max(1);
            for (i, &n) in v.histogram.iter().enumerate() {
                let bar = "#".repeat(((n * 40).div_ceil(top)) as usize);
                let _ = writeln!(
                    s,
                    "    {:>16} {n:>10} {:>5.1} % {bar}",
                    bin_label(i),
                    pct(n, v.positions)
                );
            }
        }
        if self.variants.is_empty() {
            s.push_str("no games\n");
        }
        s
    }
}

/// One record as a text line: `FEN | score | result | margin`, the score
/// from White's view in internal units, the result White's (1, 0.5, 0),
/// the margin in points still to come, White's minus Black's.
pub fn text_line(variant: Variant, r: &Record) -> String {
    let result = match r.result {
        Wdl::Win => "1",
        Wdl::Draw => "0.5",
        Wdl::Loss => "0",
    };
    format!("{} | {} | {result} | {}", r.fen(variant), r.score, r.margin)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::rules::Rules;
    use crate::scoring::Memo;
    use shakmaty::Chess;

    fn record(score: i16) -> Record {
        let rules = Rules::<Chess>::new(Variant::Chess);
        let mut r = Record::of(&rules.start(), &Memo::default()).unwrap();
        r.score = score;
        r
    }

    #[test]
    fn bins_are_ordered_and_labelled() {
        let bins: Vec<usize> = [-32000, -6400, -3200, -25, -24, 0, 24, 25, 6400, 31001]
            .into_iter()
            .map(|s| bin(&record(s)))
            .collect();
        assert_eq!(bins, [0, 1, 2, 9, 10, 10, 10, 11, 19, 20]);
        let labels: Vec<String> = (0..2 * EDGES.len() + 3).map(bin_label).collect();
        assert_eq!(labels[0], "decided loss");
        assert_eq!(labels[1], "<= -6400");
        assert_eq!(labels[2], "-6400 .. -3200");
        assert_eq!(labels[9], "-50 .. -25");
        assert_eq!(labels[10], "-25 .. 25");
        assert_eq!(labels[11], "25 .. 50");
        assert_eq!(labels[19], ">= 6400");
        assert_eq!(labels[20], "decided win");
    }
}
