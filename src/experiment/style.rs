//! Question 3: what style costs, in stylish ([`rows`]): one player (the
//! first of a run, Tally's variant evaluation) against another (the base
//! evaluator, or Tally playing chess), in points and in games won: the
//! margin, the games won on points, the mates given and taken, and how
//! often the mated side won on points.

use serde::Serialize;

use super::handicap::board_winner;
use super::{Level, Mean, Run, Share, markdown};
use crate::rules::EndingKind;

/// One stylish run, from its first player's side.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StyleRow {
    /// The level (the first player's).
    pub level: Level,
    /// The first player's name.
    pub first: String,
    /// The second player's name.
    pub second: String,
    /// The first player's margin per game.
    pub margin: Mean,
    /// The first player's points per game.
    pub points: Mean,
    /// The second player's points per game.
    pub opponent_points: Mean,
    /// Games the first player won on points, tied, lost.
    pub won_tied_lost: [usize; 3],
    /// The first player's score on points (a win 1, a tie 1/2).
    pub score: f64,
    /// Games in which the first player mated.
    pub mates_given: Share,
    /// Games in which the first player was mated.
    pub mates_taken: Share,
    /// Mates whose mated side won on points, of the mates.
    pub mated_won: Share,
}

/// The row of `run`, when it is a stylish run between two players.
pub fn row(run: &Run) -> Option<StyleRow> {
    let e = &run.experiment;
    if e.variant != "stylish" || e.players.len() != 2 {
        return None;
    }
    let games = &run.games;
    let n = games.len();
    let margins: Vec<f64> = games.iter().map(|g| g.points[0] - g.points[1]).collect();
    let mut wtl = [0; 3];
    for m in &margins {
        let k = if *m > 1e-9 {
            0
        } else if *m < -1e-9 {
            2
        } else {
            1
        };
        wtl[k] += 1;
    }
    let mate = |seat: usize| {
        games
            .iter()
            .filter(|g| g.ending == Some(EndingKind::Checkmate) && board_winner(g) == Some(seat))
            .count()
    };
    let mates: Vec<_> = games
        .iter()
        .filter(|g| g.ending == Some(EndingKind::Checkmate))
        .collect();
    let mated_won = mates
        .iter()
        .filter(|g| board_winner(g).is_some_and(|w| g.points[1 - w] > g.points[w] + 1e-9))
        .count();
    let pts = |s: usize| games.iter().map(|g| g.points[s]).collect::<Vec<f64>>();
    Some(StyleRow {
        level: run.level(0),
        first: run.name(0),
        second: run.name(1),
        margin: Mean::of(&margins),
        points: Mean::of(&pts(0)),
        opponent_points: Mean::of(&pts(1)),
        won_tied_lost: wtl,
        score: if n == 0 {
            0.5
        } else {
            (wtl[0] as f64 + 0.5 * wtl[1] as f64) / n as f64
        },
        mates_given: Share::new(mate(0), n),
        mates_taken: Share::new(mate(1), n),
        mated_won: Share::new(mated_won, mates.len()),
    })
}

/// The rows of every stylish run between two players, by level.
pub fn rows(runs: &[Run]) -> Vec<StyleRow> {
    let mut rows: Vec<StyleRow> = runs.iter().filter_map(row).collect();
    rows.sort_by(|a, b| {
        super::draws::level_key(&a.level)
            .cmp(&super::draws::level_key(&b.level))
            .then(a.second.cmp(&b.second))
    });
    rows
}

/// The rows as a markdown table.
pub fn table(rows: &[StyleRow]) -> String {
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            vec![
                r.level.to_string(),
                format!("{} vs {}", r.first, r.second),
                r.margin.n.to_string(),
                r.margin.to_string(),
                format!(
                    "{}-{}-{} ({:.1} %)",
                    r.won_tied_lost[0],
                    r.won_tied_lost[1],
                    r.won_tied_lost[2],
                    100.0 * r.score
                ),
                r.mates_given.to_string(),
                r.mates_taken.to_string(),
                r.mated_won.to_string(),
            ]
        })
        .collect();
    markdown(
        &[
            "level",
            "pairing",
            "games",
            "margin of the first (95 %)",
            "won-tied-lost on points (score)",
            "mates given",
            "mates taken",
            "mated side won on points",
        ],
        &cells,
    )
}
