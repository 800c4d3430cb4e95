//! Question 2: how games end under each scoring ([`rows`]).
//!
//! Each game is one of three ([`Decided`]):
//!
//! - **tied**: both players have the same points;
//! - **by the board**: chess decides it (a mate, a resignation, a forfeit),
//!   and the scoring only says by how much;
//! - **only by a rule the scoring adds**: the points differ although chess
//!   would call the game drawn, or would not have ended it: a bare king
//!   claimed, a stalemate split, a perpetual check split, a repetition's
//!   half point, the sets draw advantage, the move-count rule, a draw
//!   after a tiebraker disk, stylish's draw compensation and capture
//!   points.
//!
//! A stylish mate whose mated side has more points is counted by the
//! board (the board decided the game) and apart, in [`DrawRow::mated_won`].
//! A tiebraker game in which a disk was played is described by its phase
//! ([`Disk`]); "what the disk turns a draw into" pairs each disk game
//! with the dynamic game of the same opening and colours in a run of the
//! same players, limits and openings ([`DiskStats::from_draws`]).

use std::collections::BTreeMap;

use serde::Serialize;

use super::handicap::board_winner;
use super::{Level, Run, Share, fen_turn, markdown};
use crate::matches::{GameRecord, ending_name};
use crate::rules::EndingKind;

/// How a game was decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Decided {
    /// Equal points.
    Tied,
    /// By the board: mate, resignation, forfeit.
    Board,
    /// Only by a rule the scoring adds.
    Rule,
}

/// How `g` was decided.
pub fn decided(g: &GameRecord) -> Decided {
    if g.forfeit.is_none() && (g.points[0] - g.points[1]).abs() < 1e-9 {
        Decided::Tied
    } else if board_winner(g).is_some() {
        Decided::Board
    } else {
        Decided::Rule
    }
}

/// A tiebraker disk's phase after the opponent's reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum Phase {
    /// The opponent played a move.
    Accepted,
    /// The opponent swapped.
    Swapped,
    /// The opponent restored.
    Restored,
    /// The game ended before a reply.
    Pending,
}

/// A disk played in a game: its ply, the seat that played it and the
/// phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Disk {
    /// The ply of the `disk` (0-based).
    pub ply: usize,
    /// The seat (0 or 1) that played it.
    pub seat: usize,
    /// The phase.
    pub phase: Phase,
}

/// The disk of `g`, if one was played.
pub fn disk(g: &GameRecord) -> Option<Disk> {
    let ply = g.moves.iter().position(|m| m == "disk")?;
    let first = fen_turn(&g.start_fen);
    let mover_is_white = (ply % 2 == 0) == (first == shakmaty::Color::White);
    let white = g.white.min(1);
    let seat = if mover_is_white { white } else { 1 - white };
    let phase = match g.moves.get(ply + 1).map(String::as_str) {
        None => Phase::Pending,
        Some("swap") => Phase::Swapped,
        Some("restore") => Phase::Restored,
        Some(_) => Phase::Accepted,
    };
    Some(Disk { ply, seat, phase })
}

/// What the disk games of a run came to.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct DiskStats {
    /// Games with a disk.
    pub played: usize,
    /// Disk games by phase.
    pub phases: BTreeMap<String, usize>,
    /// Disk games the disk player won on points, tied, lost.
    pub disk_player: [usize; 3],
    /// Disk games whose dynamic game (same opening, colours and players)
    /// was tied: the disk player won, tied, lost in them. `None` without
    /// a dynamic run to pair with.
    pub from_draws: Option<[usize; 3]>,
    /// Dynamic games that were tied, of the paired ones (the draws a disk
    /// could have turned).
    pub dynamic_ties: Option<usize>,
}

/// One run's endings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DrawRow {
    /// The variant.
    pub variant: String,
    /// The players' level (the first player's).
    pub level: Level,
    /// Games.
    pub games: usize,
    /// Tied on points.
    pub tied: Share,
    /// Decided by the board.
    pub board: Share,
    /// Decided only by a rule the scoring adds.
    pub rule: Share,
    /// The rule-decided games by ending kind.
    pub rules: BTreeMap<&'static str, usize>,
    /// Games chess would call drawn or not over (not decided by the
    /// board): the draws a scoring may turn.
    pub chess_draws: Share,
    /// Stylish: mates whose mated side won on points, of the mates.
    pub mated_won: Option<Share>,
    /// Tiebraker: the disk.
    pub disk: Option<DiskStats>,
}

/// The row of `run`.
pub fn row(run: &Run, runs: &[Run]) -> DrawRow {
    let games = &run.games;
    let n = games.len();
    let count = |d: Decided| games.iter().filter(|g| decided(g) == d).count();
    let mut rules = BTreeMap::new();
    for g in games.iter().filter(|g| decided(g) == Decided::Rule) {
        let name = if disk(g).is_some() {
            "disk"
        } else {
            ending_name(g.ending)
        };
        *rules.entry(name).or_insert(0) += 1;
    }
    let chess_draws = games.iter().filter(|g| board_winner(g).is_none()).count();
    let mated_won = (run.experiment.variant == "stylish").then(|| {
        let mates: Vec<&GameRecord> = games
            .iter()
            .filter(|g| g.ending == Some(EndingKind::Checkmate))
            .collect();
        let won = mates
            .iter()
            .filter(|g| board_winner(g).is_some_and(|w| g.points[1 - w] > g.points[w] + 1e-9))
            .count();
        Share::new(won, mates.len())
    });
    let disk = (run.experiment.variant == "tiebraker").then(|| disk_stats(run, runs));
    DrawRow {
        variant: run.experiment.variant.clone(),
        level: run.level(0),
        games: n,
        tied: Share::new(count(Decided::Tied), n),
        board: Share::new(count(Decided::Board), n),
        rule: Share::new(count(Decided::Rule), n),
        rules,
        chess_draws: Share::new(chess_draws, n),
        mated_won,
        disk,
    }
}

/// The disk games of a tiebraker run, paired with the games of the
/// dynamic run of the same players, limits and openings, if one is
/// loaded.
fn disk_stats(run: &Run, runs: &[Run]) -> DiskStats {
    let mut s = DiskStats::default();
    let e = &run.experiment;
    let dynamic = runs.iter().find(|r| {
        let d = &r.experiment;
        d.variant == "dynamic"
            && d.players == e.players
            && d.control == e.control
            && d.openings == e.openings
            && d.no_reverse == e.no_reverse
    });
    let mut from_draws = [0; 3];
    let mut ties = 0;
    for g in &run.games {
        let paired = dynamic.and_then(|d| d.games.iter().find(|h| h.index == g.index));
        let tied_there = paired.is_some_and(|h| decided(h) == Decided::Tied);
        ties += usize::from(tied_there);
        let Some(d) = disk(g) else { continue };
        s.played += 1;
        *s.phases
            .entry(format!("{:?}", d.phase).to_lowercase())
            .or_insert(0) += 1;
        let m = g.points[d.seat] - g.points[1 - d.seat];
        let k = if m > 1e-9 {
            0
        } else if m < -1e-9 {
            2
        } else {
            1
        };
        s.disk_player[k] += 1;
        if tied_there {
            from_draws[k] += 1;
        }
    }
    if dynamic.is_some() {
        s.from_draws = Some(from_draws);
        s.dynamic_ties = Some(ties);
    }
    s
}

/// The rows of every run, by level then variant (in the order chess,
/// sets, dynamic, tiebraker, stylish, then any other).
pub fn rows(runs: &[Run]) -> Vec<DrawRow> {
    let order = |v: &str| {
        ["chess", "sets", "dynamic", "tiebraker", "stylish"]
            .iter()
            .position(|x| *x == v)
            .unwrap_or(9)
    };
    let mut rows: Vec<DrawRow> = runs.iter().map(|r| row(r, runs)).collect();
    rows.sort_by(|a, b| {
        level_key(&a.level)
            .cmp(&level_key(&b.level))
            .then(order(&a.variant).cmp(&order(&b.variant)))
    });
    rows
}

/// Levels in rising strength: the `UCI_Elo` levels, then full strength.
pub fn level_key(l: &Level) -> (u8, i32, String) {
    match l {
        Level::Elo(e) => (0, *e, String::new()),
        Level::Full(s) => (1, 0, s.clone()),
    }
}

/// The rows as a markdown table, and the chess draw share beside each
/// scoring's tied share at the same level (the claim: fewer draws).
pub fn table(rows: &[DrawRow]) -> String {
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let chess = rows
                .iter()
                .find(|c| c.variant == "chess" && c.level == r.level)
                .map(|c| c.tied);
            let fewer = match chess {
                Some(c) if r.variant != "chess" => {
                    if r.tied.high < c.low {
                        "yes".to_owned()
                    } else if r.tied.low > c.high {
                        "more".to_owned()
                    } else {
                        "not shown".to_owned()
                    }
                }
                _ => "-".to_owned(),
            };
            let rules = r
                .rules
                .iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", ");
            vec![
                r.level.to_string(),
                r.variant.clone(),
                r.games.to_string(),
                r.tied.to_string(),
                r.board.to_string(),
                r.rule.to_string(),
                if rules.is_empty() {
                    "-".to_owned()
                } else {
                    rules
                },
                fewer,
            ]
        })
        .collect();
    markdown(
        &[
            "level",
            "scoring",
            "games",
            "tied on points",
            "decided by the board",
            "decided only by a scoring rule",
            "the rules that decided",
            "fewer draws than chess",
        ],
        &cells,
    )
}

/// The tiebraker rows' disks as a markdown table.
pub fn disk_table(rows: &[DrawRow]) -> String {
    let cells: Vec<Vec<String>> = rows
        .iter()
        .filter_map(|r| {
            let d = r.disk.as_ref()?;
            let phases = d
                .phases
                .iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", ");
            let wtl = |x: [usize; 3]| format!("{}-{}-{}", x[0], x[1], x[2]);
            Some(vec![
                r.level.to_string(),
                r.games.to_string(),
                Share::new(d.played, r.games).to_string(),
                if phases.is_empty() {
                    "-".to_owned()
                } else {
                    phases
                },
                wtl(d.disk_player),
                match (d.dynamic_ties, d.from_draws) {
                    (Some(t), Some(x)) => format!(
                        "{t} dynamic ties; disk in {}: {}",
                        x.iter().sum::<usize>(),
                        wtl(x)
                    ),
                    _ => "-".to_owned(),
                },
            ])
        })
        .collect();
    markdown(
        &[
            "level",
            "games",
            "disk played",
            "reply",
            "disk player won-tied-lost",
            "from the dynamic draws (same opening): won-tied-lost",
        ],
        &cells,
    )
}
