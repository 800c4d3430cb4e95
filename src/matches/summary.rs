//! The summary of a match as people read it: [`summary_table`] (what
//! `tally match` and `tally match merge` print) and [`one_line`] (the
//! result in one line, for a commit message), with [`progress_line`] and
//! [`stop_note`] for a run in progress; a tournament's standings,
//! crosstable and pairings ([`standings_table`]). The figures are
//! [`Summary`]'s ([`super::stats`]) and [`Standings`]'
//! ([`super::tournament`]); here they are only put in words.

use super::tournament::{ContestTally, Standings};
use super::{EloModel, Experiment, GameRecord, Outcome, Shard, Summary};
use crate::analyse::fmt_points;

/// The value of the tag `name` in a game's PGN.
fn tag(pgn: &str, name: &str) -> Option<String> {
    let prefix = format!("[{name} \"");
    pgn.lines()
        .find_map(|l| l.strip_prefix(&prefix).and_then(|r| r.strip_suffix("\"]")))
        .map(str::to_owned)
}

/// The two players' names from the games' PGN tags, else from the specs.
pub fn names_of(games: &[GameRecord], e: &Experiment) -> [String; 2] {
    if let Some(g) = games.first() {
        let w = tag(&g.pgn, "White");
        let b = tag(&g.pgn, "Black");
        if let (Some(w), Some(b)) = (w, b) {
            return if g.white == 0 { [w, b] } else { [b, w] };
        }
    }
    [e.players[0].clone(), e.players[1].clone()]
}

/// Every player's name (a tournament's) from the PGN tags of a game it
/// played, else from its spec.
pub fn all_names(games: &[GameRecord], e: &Experiment) -> Vec<String> {
    (0..e.players.len())
        .map(|k| {
            games
                .iter()
                .find_map(|g| {
                    let seat = g.players.iter().position(|&p| p == k)?;
                    tag(&g.pgn, if seat == g.white { "White" } else { "Black" })
                })
                .unwrap_or_else(|| e.players[k].clone())
        })
        .collect()
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

/// An Elo as the tables show it: whole, signed, `0` without a sign.
fn elo_text(e: f64) -> String {
    let r = e.round();
    if r == 0.0 {
        "0".to_owned()
    } else {
        format!("{r:+.0}")
    }
}

/// Points as the tables show them: no `+`.
fn points_text(p: f64) -> String {
    fmt_points(p).trim_start_matches('+').to_owned()
}

/// Contests as `won-tied-lost`.
fn contests_text(t: &ContestTally) -> String {
    format!("{}-{}-{}", t.won, t.tied, t.lost)
}

/// A tournament's summary as people read it: a heading (variant, limits,
/// shard, the tournament's kind and players, games; the contests' rules),
/// the standings (rank, games, points, mean margin, wins, draws and
/// losses by points, score, contests won-tied-lost, Elo with its 95 %
/// interval), the crosstable in points (each row's points against each
/// column, the games in brackets) and one line per pairing.
pub fn standings_table(heading: &StandingsHeading<'_>, st: &Standings) -> String {
    let mut out = String::new();
    let shard = heading
        .shard
        .map_or_else(String::new, |k| format!(", shard {k}"));
    let control = if heading.control.is_empty() {
        "per-player limits"
    } else {
        heading.control
    };
    out.push_str(&format!(
        "{}, {control}{shard}: {} of {} players, {} games\n",
        heading.variant,
        heading.kind,
        st.standings.len(),
        st.games
    ));
    if let Some(rules) = &heading.contest {
        out.push_str(&format!(
            "contests: {}; {} per pairing\n",
            rules.describe(),
            heading.contests
        ));
    }
    let names: Vec<String> = st
        .standings
        .iter()
        .map(|e| crate::text::printable(&e.name).into_owned())
        .collect();
    let w = names.iter().map(String::len).max().unwrap_or(6).max(6);
    let with_contests = st.standings.iter().any(|e| e.contests.is_some());
    let mut head = format!(
        "{:>4}  {:<w$}  {:>5}  {:>10}  {:>11}  {:>4} {:>4} {:>4}  {:>6}",
        "rank", "player", "games", "points", "mean margin", "win", "draw", "loss", "score"
    );
    if with_contests {
        head.push_str(&format!("  {:>8}", "contests"));
    }
    head.push_str("  Elo (95 %)");
    out.push_str(head.trim_end());
    out.push('\n');
    for (e, name) in st.standings.iter().zip(&names) {
        let mut line = format!(
            "{:>4}  {:<w$}  {:>5}  {:>10}  {:>11}  {:>4} {:>4} {:>4}  {:>5.1}%",
            e.rank,
            name,
            e.games,
            points_text(e.points),
            fmt_points(e.mean_margin),
            e.wins,
            e.draws,
            e.losses,
            100.0 * e.score
        );
        if let Some(t) = &e.contests {
            line.push_str(&format!("  {:>8}", contests_text(t)));
        }
        let elo = match (e.elo, e.elo_low, e.elo_high) {
            (Some(x), Some(lo), Some(hi)) => {
                format!("{} ({} to {})", elo_text(x), elo_text(lo), elo_text(hi))
            }
            _ => "n/a".to_owned(),
        };
        line.push_str(&format!("  {elo}"));
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str("crosstable: each row's points against each column (games)\n");
    let by_number: Vec<String> = st
        .crosstable
        .iter()
        .map(|r| crate::text::printable(&r.name).into_owned())
        .collect();
    let cells: Vec<Vec<String>> = st
        .crosstable
        .iter()
        .map(|row| {
            st.crosstable
                .iter()
                .map(|col| {
                    if col.name == row.name {
                        return "-".to_owned();
                    }
                    row.opponents
                        .iter()
                        .find(|c| c.name == col.name)
                        .map_or_else(String::new, |c| {
                            format!("{} ({})", points_text(c.points), c.games)
                        })
                })
                .collect()
        })
        .collect();
    let cw = cells
        .iter()
        .flatten()
        .map(String::len)
        .chain(by_number.iter().map(String::len))
        .max()
        .unwrap_or(1);
    let nw = by_number.iter().map(String::len).max().unwrap_or(6).max(6);
    let mut head = format!("{:<nw$}", "player");
    for n in &by_number {
        head.push_str(&format!("  {n:>cw$}"));
    }
    out.push_str(head.trim_end());
    out.push('\n');
    for (name, row) in by_number.iter().zip(&cells) {
        let mut line = format!("{name:<nw$}");
        for c in row {
            line.push_str(&format!("  {c:>cw$}"));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    for p in &st.pairings {
        let s = &p.summary;
        let [a, b] = s
            .names
            .each_ref()
            .map(|n| crate::text::printable(n).into_owned());
        let mut line = format!(
            "{a} vs {b}: {} games, {a} {}-{}-{}, mean margin {} ± {}, score {:.1} %",
            s.games,
            s.wins,
            s.draws,
            s.losses,
            fmt_points(s.mean_margin),
            points_text(s.margin_ci95),
            100.0 * s.score
        );
        if let Some([ta, tb]) = &p.contests {
            line.push_str(&format!(
                "; contests {a} {}, {b} {}, tied {}",
                ta.won, tb.won, ta.tied
            ));
            let resigned = ta.won_by_resignation + tb.won_by_resignation;
            let tiebreak = ta.won_by_tiebreak + tb.won_by_tiebreak;
            if resigned > 0 {
                line.push_str(&format!(", {resigned} by resignation"));
            }
            if tiebreak > 0 {
                line.push_str(&format!(", {tiebreak} by tie-break"));
            }
            if let Some(u) = p.unfinished.filter(|&u| u > 0) {
                line.push_str(&format!(", {u} unfinished"));
            }
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// What heads a tournament's summary.
#[derive(Clone, Copy, Debug)]
pub struct StandingsHeading<'a> {
    /// The variant id.
    pub variant: &'a str,
    /// The limits ([`super::Control::describe`]).
    pub control: &'a str,
    /// The shard, if the run is one.
    pub shard: Option<Shard>,
    /// The tournament's kind (`round-robin`, `gauntlet`, or `match` for
    /// two players' contests).
    pub kind: &'a str,
    /// The contests' rules, when the pairings play contests.
    pub contest: Option<crate::contest::Rules>,
    /// Contests of each pairing.
    pub contests: usize,
}

/// A tournament's summary as one line of JSON: `variant`, `control`,
/// `tournament` (the kind), `contest` (the rules) and `contests` (per
/// pairing) when the pairings play contests, then [`Standings`]'
/// `games`, `standings`, `crosstable` and `pairings`.
pub fn standings_json(heading: &StandingsHeading<'_>, st: &Standings) -> String {
    #[derive(serde::Serialize)]
    struct Json<'a> {
        variant: &'a str,
        control: &'a str,
        tournament: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        contest: Option<crate::contest::Rules>,
        #[serde(skip_serializing_if = "Option::is_none")]
        contests: Option<usize>,
        #[serde(flatten)]
        standings: &'a Standings,
    }
    serde_json::to_string(&Json {
        variant: heading.variant,
        control: heading.control,
        tournament: heading.kind,
        contest: heading.contest,
        contests: heading.contest.map(|_| heading.contests),
        standings: st,
    })
    .unwrap_or_default()
}
