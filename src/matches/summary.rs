//! The summary of a match as people read it: [`summary_table`] (what
//! `tally match` and `tally match merge` print) and [`one_line`] (the
//! result in one line, for a commit message), with [`progress_line`] and
//! [`stop_note`] for a run in progress. The figures are
//! [`Summary`]'s ([`super::stats`]); here they are only put in words.

use super::{EloModel, Experiment, GameRecord, Outcome, Shard, Summary};
use crate::analyse::fmt_points;

/// The players' names from the games' PGN tags, else from the specs.
pub fn names_of(games: &[GameRecord], e: &Experiment) -> [String; 2] {
    let tag = |pgn: &str, name: &str| {
        let prefix = format!("[{name} \"");
        pgn.lines()
            .find_map(|l| l.strip_prefix(&prefix).and_then(|r| r.strip_suffix("\"]")))
            .map(str::to_owned)
    };
    if let Some(g) = games.first() {
        let w = tag(&g.pgn, "White");
        let b = tag(&g.pgn, "Black");
        if let (Some(w), Some(b)) = (w, b) {
            return if g.white == 0 { [w, b] } else { [b, w] };
        }
    }
    [e.players[0].clone(), e.players[1].clone()]
}

/// The human summary: the games, each player's wins, draws, losses and
/// mean points, the mean margin, the score and Elo, forfeits, endings, the
/// pentanomial and its Elo, the SPRT, and [`one_line`] last.
pub fn summary_table(variant: &str, control: &str, shard: Option<Shard>, s: &Summary) -> String {
    let mut out = String::new();
    let shard = shard.map_or_else(String::new, |k| format!(", shard {k}"));
    let control = if control.is_empty() {
        "per-player limits"
    } else {
        control
    };
    out.push_str(&format!("{variant}, {control}{shard}: {} games\n", s.games));
    // An engine names itself: its control characters are shown escaped.
    let names = s.names.each_ref().map(|n| crate::text::printable(n));
    let w = names.iter().map(|n| n.len()).max().unwrap_or(6).max(6);
    out.push_str(&format!(
        "{:<w$}  {:>5} {:>5} {:>5}  {:>12}\n",
        "player", "win", "draw", "loss", "mean points"
    ));
    out.push_str(&format!(
        "{:<w$}  {:>5} {:>5} {:>5}  {:>12}\n",
        names[0],
        s.wins,
        s.draws,
        s.losses,
        fmt_points(s.mean_points[0]).trim_start_matches('+')
    ));
    out.push_str(&format!(
        "{:<w$}  {:>5} {:>5} {:>5}  {:>12}\n",
        names[1],
        s.losses,
        s.draws,
        s.wins,
        fmt_points(s.mean_points[1]).trim_start_matches('+')
    ));
    out.push_str(&format!(
        "mean margin of {}: {} ± {} (95 %)\n",
        s.names[0],
        fmt_points(s.mean_margin),
        fmt_points(s.margin_ci95).trim_start_matches('+')
    ));
    let elo = |e: f64| {
        let r = e.round();
        if r == 0.0 {
            "0".to_owned()
        } else {
            format!("{r:+.0}")
        }
    };
    let bound = |b: Option<f64>, inf: &str| b.map_or_else(|| inf.to_owned(), elo);
    out.push_str(&format!(
        "score {:.1} %, Elo {} (95 %: {} to {})\n",
        100.0 * s.score,
        s.elo.map_or_else(|| "n/a".to_owned(), elo),
        bound(s.elo_ci95.0, "-inf"),
        bound(s.elo_ci95.1, "+inf"),
    ));
    for (i, f) in s.forfeits.iter().enumerate() {
        if !f.is_empty() {
            let list: Vec<String> = f.iter().map(|(k, n)| format!("{k} {n}")).collect();
            out.push_str(&format!(
                "forfeits by {}: {}\n",
                s.names[i],
                list.join(", ")
            ));
        }
    }
    if !s.endings.is_empty() {
        let list: Vec<String> = s.endings.iter().map(|(k, n)| format!("{k} {n}")).collect();
        out.push_str(&format!("endings: {}\n", list.join(", ")));
    }
    let pairs: usize = s.penta.iter().sum();
    if pairs > 0 {
        let elo =
            |e: Option<f64>, inf: &str| e.map_or_else(|| inf.to_owned(), |e| format!("{e:+.1}"));
        let interval = s.pair_elo.map_or_else(
            || "n/a".to_owned(),
            |e| {
                format!(
                    "{} (95 %: {} to {})",
                    elo(Some(e.elo), ""),
                    elo(e.low, "-inf"),
                    elo(e.high, "+inf")
                )
            },
        );
        out.push_str(&format!(
            "pairs {pairs}, pentanomial {}: Elo {interval}\n",
            penta_text(&s.penta)
        ));
    }
    if let Some(t) = &s.sprt {
        out.push_str(&format!(
            "SPRT elo0={} elo1={} alpha={} beta={} ({}): LLR {:.2} [{:.2}, {:.2}] {}\n",
            t.config.elo0,
            t.config.elo1,
            t.config.alpha,
            t.config.beta,
            t.config.model.as_str(),
            t.llr,
            t.lower,
            t.upper,
            t.decision.describe()
        ));
    }
    out.push_str(&one_line(s));
    out.push('\n');
    out
}

/// `[a,b,c,d,e]`.
fn penta_text(penta: &[usize; 5]) -> String {
    let counts: Vec<String> = penta.iter().map(usize::to_string).collect();
    format!("[{}]", counts.join(","))
}

/// The result in one line, for a commit message: `Elo 12.3 +- 8.1 (95%),
/// LLR 2.96 [-2.94, 2.94] H1 accepted, 1234 games, penta [a,b,c,d,e]`
/// (normalized Elo when the SPRT's bounds are; the games are those of
/// whole pairs, which the figures count).
pub fn one_line(s: &Summary) -> String {
    let normalized = s
        .sprt
        .as_ref()
        .is_some_and(|t| t.config.model == EloModel::Normalized);
    let (label, estimate) = if normalized {
        ("nElo", s.pair_nelo)
    } else {
        ("Elo", s.pair_elo)
    };
    let mut parts = vec![match estimate {
        None => format!("{label} n/a"),
        Some(e) => {
            let half = match (e.low, e.high) {
                (Some(l), Some(h)) => format!("{:.1}", (h - l) / 2.0),
                _ => "inf".to_owned(),
            };
            format!("{label} {:.1} +- {half} (95%)", e.elo)
        }
    }];
    if let Some(t) = &s.sprt {
        parts.push(format!(
            "LLR {:.2} [{:.2}, {:.2}] {}",
            t.llr,
            t.lower,
            t.upper,
            t.decision.describe()
        ));
    }
    let pairs: usize = s.penta.iter().sum();
    parts.push(format!("{} games", 2 * pairs));
    parts.push(format!("penta {}", penta_text(&s.penta)));
    parts.join(", ")
}

/// The running score after a game, for a progress bar: wins, draws,
/// losses, the mean margin, the Elo and the SPRT's LLR.
pub fn progress_line(s: &Summary) -> String {
    let elo = s.elo.map_or_else(|| "-".to_owned(), |e| format!("{e:+.0}"));
    let llr = s
        .sprt
        .as_ref()
        .map_or_else(String::new, |t| format!(" LLR {:.2}", t.llr));
    format!(
        "{}-{}-{} margin {} Elo {elo}{llr}",
        s.wins,
        s.draws,
        s.losses,
        fmt_points(s.mean_margin)
    )
}

/// Why a run stopped before its schedule was done, if it did: Ctrl-C or
/// the SPRT.
pub fn stop_note(outcome: &Outcome) -> Option<String> {
    if outcome.interrupted {
        Some(
            "interrupted: finished games are written; run the same command again to resume"
                .to_owned(),
        )
    } else {
        outcome.sprt_stop.as_ref().map(|s| {
            format!(
                "stopped early by the SPRT: {} at game {} (LLR {:.2}); the games then in play \
                 finished and are counted above",
                s.status.decision.describe(),
                s.games,
                s.status.llr
            )
        })
    }
}
