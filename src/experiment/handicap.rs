//! Question 1: the sets points of a weaker and a stronger Tally, by level
//! and gap ([`rows`]), and the handicap factor that evens a gap out
//! ([`fit`]).
//!
//! A run counts when it is a sets match between two `UCI_Elo` levels; the
//! weaker player is the one with the lower `UCI_Elo` (the first player at
//! equal levels). A run with a handicap (its results file names the
//! handicap's values) has the factor its weaker player's mate was
//! multiplied by; a run without one has none (the default values, the
//! draw advantage by colour).

use serde::Serialize;
use shakmaty::Color;

use super::{Level, Mean, Run, Share, markdown, num};
use crate::matches::GameRecord;
use crate::rules::EndingKind;
use crate::scoring::Points;

/// One run's points, from the weaker player's side and the stronger's.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GapRow {
    /// The weaker player's `UCI_Elo`.
    pub level: i32,
    /// The gap: the stronger's `UCI_Elo` minus the weaker's.
    pub gap: i32,
    /// The handicap's factor (the weaker player's mate over 2), `None`
    /// without a handicap.
    pub factor: Option<f64>,
    /// The weaker player's name.
    pub weaker: String,
    /// The stronger player's name.
    pub stronger: String,
    /// The weaker player's points per game.
    pub weaker_points: Mean,
    /// The stronger player's points per game.
    pub stronger_points: Mean,
    /// The stronger player's margin per game (its points minus the
    /// weaker's): 0 is even.
    pub margin: Mean,
    /// Games the stronger player mated in (or won by resignation).
    pub stronger_mates: Share,
    /// Games the weaker player mated in (or won by resignation).
    pub weaker_mates: Share,
}

impl GapRow {
    /// Whether the interval of the margin covers 0 (an even game).
    pub fn even(&self) -> bool {
        self.margin.covers(0.0)
    }
}

/// The seat (0 or 1) that won `g` on the board (mate, resignation, a
/// forfeit), if any.
pub fn board_winner(g: &GameRecord) -> Option<usize> {
    if let Some(f) = &g.forfeit {
        return Some(1 - f.player.min(1));
    }
    let decisive = matches!(
        g.ending,
        Some(
            EndingKind::Checkmate
                | EndingKind::Resignation
                | EndingKind::TimeForfeit
                | EndingKind::Extinction
        )
    );
    if !decisive {
        return None;
    }
    let white = g.white.min(1);
    match g.result.as_str() {
        "1-0" => Some(white),
        "0-1" => Some(1 - white),
        _ => None,
    }
}

/// The factor of a handicap: its weaker player's mate over the default
/// mate (2).
fn factor_of(run: &Run) -> Option<f64> {
    let h = run.experiment.handicap.as_ref()?;
    Some(h.mate.unwrap_or(Points::whole(2)).as_f64() / 2.0)
}

/// The row of `run`, when it is a sets match between two `UCI_Elo`
/// levels with games played.
pub fn row(run: &Run) -> Option<GapRow> {
    if run.experiment.variant != "sets" || run.experiment.players.len() != 2 {
        return None;
    }
    let (a, b) = (run.level(0).elo()?, run.level(1).elo()?);
    // The weaker seat: the lower Elo, else the one the handicap follows,
    // else the first.
    let w = match (a.cmp(&b), run.experiment.weaker) {
        (std::cmp::Ordering::Less, _) => 0,
        (std::cmp::Ordering::Greater, _) => 1,
        (std::cmp::Ordering::Equal, Some(w)) => w.min(1),
        (std::cmp::Ordering::Equal, None) => 0,
    };
    let s = 1 - w;
    let games: Vec<&GameRecord> = run.games.iter().collect();
    let n = games.len();
    if n == 0 {
        return None;
    }
    let pts = |seat: usize| -> Vec<f64> { games.iter().map(|g| g.points[seat]).collect() };
    let margins: Vec<f64> = games.iter().map(|g| g.points[s] - g.points[w]).collect();
    let mates = |seat: usize| {
        games
            .iter()
            .filter(|g| board_winner(g) == Some(seat))
            .count()
    };
    let elos = [a, b];
    Some(GapRow {
        level: elos[w],
        gap: elos[s] - elos[w],
        factor: factor_of(run),
        weaker: run.name(w),
        stronger: run.name(s),
        weaker_points: Mean::of(&pts(w)),
        stronger_points: Mean::of(&pts(s)),
        margin: Mean::of(&margins),
        stronger_mates: Share::new(mates(s), n),
        weaker_mates: Share::new(mates(w), n),
    })
}

/// The rows of every sets run between two levels, by level, gap and
/// factor.
pub fn rows(runs: &[Run]) -> Vec<GapRow> {
    let mut rows: Vec<GapRow> = runs.iter().filter_map(row).collect();
    rows.sort_by(|x, y| {
        (x.level, x.gap)
            .cmp(&(y.level, y.gap))
            .then(x.factor.unwrap_or(0.0).total_cmp(&y.factor.unwrap_or(0.0)))
    });
    rows
}

/// The rows as a markdown table.
pub fn table(rows: &[GapRow]) -> String {
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            vec![
                r.level.to_string(),
                r.gap.to_string(),
                r.factor.map_or_else(|| "-".to_owned(), num),
                r.margin.n.to_string(),
                r.weaker_points.to_string(),
                r.stronger_points.to_string(),
                r.margin.to_string(),
                format!("{:.1} %", 100.0 * r.weaker_mates.value()),
                format!("{:.1} %", 100.0 * r.stronger_mates.value()),
                if r.even() { "yes" } else { "no" }.to_owned(),
            ]
        })
        .collect();
    markdown(
        &[
            "weaker Elo",
            "gap D",
            "factor",
            "games",
            "weaker's points",
            "stronger's points",
            "margin (stronger)",
            "weaker mates",
            "stronger mates",
            "even",
        ],
        &cells,
    )
}

/// The factor that evens one gap out: where the margin, read between the
/// grid's factors, crosses 0.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Fit {
    /// The weaker player's level.
    pub level: i32,
    /// The gap.
    pub gap: i32,
    /// Each factor tried and the stronger player's margin at it.
    pub tried: Vec<(f64, Mean)>,
    /// The factor of margin 0, geometric between the two factors around
    /// it; `None` when the margin does not change sign over the grid.
    pub factor: Option<f64>,
    /// Where the even factor lies when the grid does not reach it:
    /// `above` (every margin positive) or `below` (every one negative).
    pub beyond: Option<&'static str>,
}

/// The even factor of each level and gap of the handicapped rows.
pub fn fit(rows: &[GapRow]) -> Vec<Fit> {
    let mut fits: Vec<Fit> = Vec::new();
    for r in rows {
        let Some(k) = r.factor else { continue };
        match fits
            .iter_mut()
            .find(|f| f.level == r.level && f.gap == r.gap)
        {
            Some(f) => f.tried.push((k, r.margin)),
            None => fits.push(Fit {
                level: r.level,
                gap: r.gap,
                tried: vec![(k, r.margin)],
                factor: None,
                beyond: None,
            }),
        }
    }
    for f in &mut fits {
        f.tried.sort_by(|a, b| a.0.total_cmp(&b.0));
        f.factor = crossing(&f.tried);
        if f.factor.is_none() && !f.tried.is_empty() {
            f.beyond = if f.tried.iter().all(|(_, m)| m.mean > 0.0) {
                Some("above")
            } else if f.tried.iter().all(|(_, m)| m.mean < 0.0) {
                Some("below")
            } else {
                None
            };
        }
    }
    fits
}

/// The factor where the margins of `tried` (by rising factor) first go
/// from positive to not positive, geometric between the two factors: the
/// margin taken as linear in the factor's logarithm between them.
fn crossing(tried: &[(f64, Mean)]) -> Option<f64> {
    if let Some((k, _)) = tried.iter().find(|(_, m)| m.mean == 0.0) {
        return Some(*k);
    }
    tried.windows(2).find_map(|w| {
        let ((k0, m0), (k1, m1)) = (w[0], w[1]);
        (m0.mean > 0.0 && m1.mean <= 0.0).then(|| {
            let t = m0.mean / (m0.mean - m1.mean);
            (k0.ln() + t * (k1.ln() - k0.ln())).exp()
        })
    })
}

/// The fits as a markdown table.
pub fn fit_table(fits: &[Fit]) -> String {
    let cells: Vec<Vec<String>> = fits
        .iter()
        .map(|f| {
            let tried = f
                .tried
                .iter()
                .map(|(k, m)| format!("{}: {m}", num(*k)))
                .collect::<Vec<_>>()
                .join("; ");
            let even = match (f.factor, f.beyond) {
                (Some(k), _) => num(k),
                (None, Some(side)) => format!("{side} the grid"),
                (None, None) => "-".to_owned(),
            };
            vec![f.level.to_string(), f.gap.to_string(), tried, even]
        })
        .collect();
    markdown(
        &[
            "weaker Elo",
            "gap D",
            "factor: stronger's margin (95 %)",
            "even factor",
        ],
        &cells,
    )
}

/// The colour of the weaker seat `w` in game `g`.
pub fn weaker_colour(g: &GameRecord, w: usize) -> Color {
    if g.white.min(1) == w {
        Color::White
    } else {
        Color::Black
    }
}

/// Which levels the rows cover, for the charts' series.
pub fn levels(rows: &[GapRow]) -> Vec<Level> {
    let mut v: Vec<Level> = rows.iter().map(|r| Level::Elo(r.level)).collect();
    v.sort();
    v.dedup();
    v
}
