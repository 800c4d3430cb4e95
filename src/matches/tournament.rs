//! A tournament's shape and its results: how the players meet
//! ([`Tournament`]: round-robin, gauntlet), the contests their games make
//! up ([`contests`]), and the [`Standings`]: every player's games, points,
//! mean margin, wins, draws and losses by points, contests won and Elo,
//! the crosstable in points and each pairing's summary. The figures of a
//! pairing are [`super::stats`]'; the Elo of every player over all the
//! pairings is [`super::ratings`]'. Nothing here prints: the words are
//! [`super::summary`]'s.
//!
//! Decisions:
//!
//! - A player's **points** are the sum over its games of its own points;
//!   its **mean margin** the mean of its points minus its opponent's;
//!   **win, draw, loss** as in a match (by the game's margin, a forfeit a
//!   loss whatever the points; [`super::stats::game_score`]); its
//!   **score** the fraction of its games' points (a win 1, a draw 1/2).
//! - The **standings** rank by Elo, then points; a player without a
//!   rating comes after those with one.
//! - A **contest** counts once it is over; one cut short (an interrupted
//!   run, a shard) is unfinished and counts for nobody.

use std::collections::BTreeMap;

use serde::Serialize;

use super::ratings::{Meeting, ratings};
use super::stats::{Summary, game_score, summarise_refs};
use super::{GameRecord, pairing_names};
use crate::contest::{self, Contest, ContestError, Seat, Why};

/// How a tournament's players meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tournament {
    /// Every player against every other.
    RoundRobin,
    /// The first player against each of the others.
    Gauntlet,
}

impl Tournament {
    /// Both kinds.
    pub const ALL: [Tournament; 2] = [Tournament::RoundRobin, Tournament::Gauntlet];

    /// The kind's name: `round-robin` or `gauntlet`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Tournament::RoundRobin => "round-robin",
            Tournament::Gauntlet => "gauntlet",
        }
    }

    /// The kind a name names.
    ///
    /// # Errors
    ///
    /// A message listing the kinds.
    pub fn parse(name: &str) -> Result<Tournament, String> {
        Tournament::ALL
            .into_iter()
            .find(|t| t.as_str() == name.trim().to_ascii_lowercase())
            .ok_or_else(|| {
                format!(
                    "--tournament '{}': expected round-robin or gauntlet",
                    crate::text::printable(name.trim())
                )
            })
    }

    /// The pairings of `players` players, each its two players by number
    /// (the lower first): every pair in order (0-1, 0-2, ..., 1-2, ...),
    /// or 0 against each other player.
    pub fn pairings(self, players: usize) -> Vec<[usize; 2]> {
        match self {
            Tournament::RoundRobin => (0..players)
                .flat_map(|a| (a + 1..players).map(move |b| [a, b]))
                .collect(),
            Tournament::Gauntlet => (1..players).map(|b| [0, b]).collect(),
        }
    }
}

/// The contests of `games` under `rules`, by their pairing's players and
/// their number in the pairing: each replayed from its recorded games in
/// order (over or not), or why it does not replay (a game missing, a
/// record against the rules).
pub fn contests(
    games: &[GameRecord],
    rules: &contest::Rules,
) -> BTreeMap<([usize; 2], usize), Result<Contest, ContestError>> {
    let mut by_contest: BTreeMap<([usize; 2], usize), Vec<&GameRecord>> = BTreeMap::new();
    for g in games {
        if let Some(c) = g.contest {
            by_contest
                .entry((g.players, c.contest))
                .or_default()
                .push(g);
        }
    }
    by_contest
        .into_iter()
        .map(|(key, mut list)| {
            list.sort_by_key(|g| g.contest.map(|c| c.game));
            let replay = || {
                let mut state = Contest::new(*rules)?;
                for (k, g) in list.iter().enumerate() {
                    let number = g.contest.map_or(0, |c| c.game);
                    if number as usize != k + 1 {
                        return Err(ContestError::Record(format!(
                            "game {} is not on the record",
                            k + 1
                        )));
                    }
                    if let Some(result) = g.contest_result() {
                        state.record(result)?;
                    }
                }
                Ok(state)
            };
            (key, replay())
        })
        .collect()
}

/// A player's contests: played to the end, won, tied and lost, and the
/// wins that a resignation or a tie-break decided.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ContestTally {
    /// Contests over.
    pub played: usize,
    /// Won.
    pub won: usize,
    /// Tied.
    pub tied: usize,
    /// Lost.
    pub lost: usize,
    /// Won because the opponent resigned.
    pub won_by_resignation: usize,
    /// Won by a tie-break game.
    pub won_by_tiebreak: usize,
}

impl ContestTally {
    fn add(&mut self, mine: Seat, decision: contest::Decision) {
        self.played += 1;
        match decision.winner {
            None => self.tied += 1,
            Some(w) if w == mine => {
                self.won += 1;
                match decision.why {
                    Why::Resignation => self.won_by_resignation += 1,
                    Why::Tiebreak => self.won_by_tiebreak += 1,
                    Why::Points => {}
                }
            }
            Some(_) => self.lost += 1,
        }
    }
}

/// One player's line of the standings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Entry {
    /// Its place, from 1.
    pub rank: usize,
    /// Its name.
    pub name: String,
    /// Games played.
    pub games: usize,
    /// Points won, summed over its games.
    pub points: f64,
    /// Mean points per game.
    pub mean_points: f64,
    /// Mean margin per game (its points minus its opponent's).
    pub mean_margin: f64,
    /// Games won by points (and forfeits of the opponent).
    pub wins: usize,
    /// Games with equal points.
    pub draws: usize,
    /// Games lost.
    pub losses: usize,
    /// Score fraction (a win 1, a draw 1/2).
    pub score: f64,
    /// Elo over all pairings, centred at 0 ([`super::ratings`]); `None`
    /// without games or when the pairings played do not connect every
    /// player.
    pub elo: Option<f64>,
    /// The 95 % interval's lower bound.
    pub elo_low: Option<f64>,
    /// The 95 % interval's upper bound.
    pub elo_high: Option<f64>,
    /// Its contests, when the pairings play contests.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contests: Option<ContestTally>,
    /// Its number among the players (the order of `--player`).
    #[serde(skip)]
    pub number: usize,
}

/// What one player did against one opponent.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Cell {
    /// The opponent.
    pub name: String,
    /// Games between them.
    pub games: usize,
    /// The player's points against this opponent.
    pub points: f64,
    /// The opponent's points against the player.
    pub opponent_points: f64,
    /// The player's wins.
    pub wins: usize,
    /// Draws.
    pub draws: usize,
    /// The player's losses.
    pub losses: usize,
    /// The player's contests against this opponent, when they play some.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contests: Option<ContestTally>,
}

/// A row of the crosstable: a player and its opponents, in the order of
/// the players.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CrossRow {
    /// The player.
    pub name: String,
    /// Each opponent it was paired with.
    pub opponents: Vec<Cell>,
}

/// A pairing's summary, with its contests.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Pairing {
    /// The match statistics of its games, from its first player's side.
    pub summary: Summary,
    /// Each player's contests (first, second), when it plays contests.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contests: Option<[ContestTally; 2]>,
    /// Contests begun and not over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unfinished: Option<usize>,
}

/// A tournament's results.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standings {
    /// Games counted.
    pub games: usize,
    /// The players, best first.
    pub standings: Vec<Entry>,
    /// The crosstable, a row per player in the players' order.
    pub crosstable: Vec<CrossRow>,
    /// Each pairing, in the order they are played.
    pub pairings: Vec<Pairing>,
}

/// Each player's sums over its games.
#[derive(Clone, Copy, Debug, Default)]
struct Sums {
    games: usize,
    points: f64,
    opponent: f64,
    score: f64,
    wins: usize,
    draws: usize,
    losses: usize,
}

impl Sums {
    /// Adds a game in which the player had `mine` and the opponent
    /// `theirs`, and scored `score` (1, 1/2, 0).
    fn add(&mut self, mine: f64, theirs: f64, score: f64) {
        self.games += 1;
        self.points += mine;
        self.opponent += theirs;
        self.score += score;
        if score == 1.0 {
            self.wins += 1;
        } else if score == 0.0 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }
}

/// The standings of the tournament whose players are `names` and whose
/// pairings are `pairings`, over `games` (any order); with `rules`, the
/// pairings play contests of those rules.
pub fn standings(
    names: &[String],
    pairings: &[[usize; 2]],
    games: &[GameRecord],
    rules: Option<&contest::Rules>,
) -> Standings {
    let players = names.len();
    // Per player, and per (player, opponent).
    let mut sums = vec![Sums::default(); players];
    let mut cells: BTreeMap<(usize, usize), Sums> = BTreeMap::new();
    for g in games {
        let [a, b] = g.players;
        if a >= players || b >= players {
            continue;
        }
        let s = game_score(g);
        let [pa, pb] = g.points;
        sums[a].add(pa, pb, s);
        sums[b].add(pb, pa, 1.0 - s);
        cells.entry((a, b)).or_default().add(pa, pb, s);
        cells.entry((b, a)).or_default().add(pb, pa, 1.0 - s);
    }
    // Contests: per player, and per (player, opponent).
    let mut tallies: Option<Vec<ContestTally>> =
        rules.map(|_| vec![ContestTally::default(); players]);
    let mut pair_tallies: BTreeMap<(usize, usize), ContestTally> = BTreeMap::new();
    let mut unfinished: BTreeMap<[usize; 2], usize> = BTreeMap::new();
    if let (Some(rules), Some(t)) = (rules, tallies.as_mut()) {
        for ((pair, index), state) in contests(games, rules) {
            let decision = state.as_ref().ok().and_then(Contest::decision);
            let Some(decision) = decision else {
                *unfinished.entry(pair).or_default() += 1;
                continue;
            };
            let first = index % 2;
            for (k, &p) in pair.iter().enumerate() {
                if p >= players {
                    continue;
                }
                let mine = if k == first {
                    Seat::First
                } else {
                    Seat::Second
                };
                t[p].add(mine, decision);
                pair_tallies
                    .entry((p, pair[1 - k]))
                    .or_default()
                    .add(mine, decision);
            }
        }
    }
    let meetings: Vec<Meeting> = pairings
        .iter()
        .filter_map(|&[a, b]| {
            cells.get(&(a, b)).map(|c| Meeting {
                players: [a, b],
                games: c.games as f64,
                score: c.score,
            })
        })
        .collect();
    let elo = ratings(players, &meetings);
    let mut entries: Vec<Entry> = (0..players)
        .map(|i| {
            let s = sums[i];
            let n = s.games.max(1) as f64;
            Entry {
                rank: 0,
                name: names[i].clone(),
                games: s.games,
                points: s.points,
                mean_points: if s.games == 0 { 0.0 } else { s.points / n },
                mean_margin: if s.games == 0 {
                    0.0
                } else {
                    (s.points - s.opponent) / n
                },
                wins: s.wins,
                draws: s.draws,
                losses: s.losses,
                score: if s.games == 0 { 0.5 } else { s.score / n },
                elo: elo[i].map(|e| e.elo),
                elo_low: elo[i].and_then(|e| e.low),
                elo_high: elo[i].and_then(|e| e.high),
                contests: tallies.as_ref().map(|t| t[i]),
                number: i,
            }
        })
        .collect();
    entries.sort_by(|x, y| {
        let elo = |e: &Entry| e.elo.unwrap_or(f64::NEG_INFINITY);
        elo(y)
            .total_cmp(&elo(x))
            .then(y.points.total_cmp(&x.points))
            .then(x.number.cmp(&y.number))
    });
    for (k, e) in entries.iter_mut().enumerate() {
        e.rank = k + 1;
    }
    let crosstable = (0..players)
        .map(|i| CrossRow {
            name: names[i].clone(),
            opponents: (0..players)
                .filter(|&j| j != i && pairings.iter().any(|p| *p == [i, j] || *p == [j, i]))
                .map(|j| {
                    let c = cells.get(&(i, j)).copied().unwrap_or_default();
                    Cell {
                        name: names[j].clone(),
                        games: c.games,
                        points: c.points,
                        opponent_points: c.opponent,
                        wins: c.wins,
                        draws: c.draws,
                        losses: c.losses,
                        contests: rules
                            .map(|_| pair_tallies.get(&(i, j)).copied().unwrap_or_default()),
                    }
                })
                .collect(),
        })
        .collect();
    let pairings = pairings
        .iter()
        .map(|&pair| {
            let mine: Vec<&GameRecord> = games.iter().filter(|g| g.players == pair).collect();
            let [a, b] = pair;
            Pairing {
                summary: summarise_refs(&pairing_names(names, pair), &mine, None),
                contests: rules.map(|_| {
                    [(a, b), (b, a)].map(|k| pair_tallies.get(&k).copied().unwrap_or_default())
                }),
                unfinished: rules.map(|_| unfinished.get(&pair).copied().unwrap_or(0)),
            }
        })
        .collect();
    Standings {
        games: games.len(),
        standings: entries,
        crosstable,
        pairings,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{EndingKind, Variant};

    fn game(index: usize, players: [usize; 2], white: usize, points: [f64; 2]) -> GameRecord {
        GameRecord {
            index,
            opening: 0,
            white,
            start_fen: String::new(),
            moves: Vec::new(),
            ending: Some(EndingKind::Checkmate),
            ending_text: String::new(),
            forfeit: None,
            points,
            result: "*".to_owned(),
            pgn: String::new(),
            players,
            contest: None,
        }
    }

    #[test]
    fn pairings_of_each_kind() {
        assert_eq!(
            Tournament::RoundRobin.pairings(4),
            [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
        );
        assert_eq!(Tournament::Gauntlet.pairings(4), [[0, 1], [0, 2], [0, 3]]);
        assert_eq!(Tournament::parse(" Gauntlet"), Ok(Tournament::Gauntlet));
        assert!(
            Tournament::parse("swiss")
                .unwrap_err()
                .contains("round-robin or gauntlet")
        );
    }

    /// A round-robin of three, two games a pairing (points by seat):
    ///
    /// - a-b: 10-4 (a wins), 3-3 (a draw);
    /// - a-c: 0-7 (c wins), 5-1 (a wins);
    /// - b-c: 2-2 (a draw), 6-0 (b wins).
    ///
    /// a: 4 games, 18 points against 15, margin +3/4, 2-1-1, score
    /// 2.5/4. b: 15 against 15, margin 0, 1-2-1, score 1/2. c: 10 against
    /// 13, margin -3/4, 1-1-2, score 1.5/4. With the virtual draw each
    /// pairing has 3 games: a-b 2-1, a-c 1.5-1.5, b-c 2-1. b scores
    /// exactly half, so by symmetry b is 0 and a and c mirror each other
    /// at ±x, where a's expected points equal its 3.5: `3 E(x) + 3 E(2x)
    /// = 3.5`, x = 39.090.
    #[test]
    fn standings_and_crosstable_by_hand() {
        let names = ["a", "b", "c"].map(str::to_owned);
        let games = [
            game(0, [0, 1], 0, [10.0, 4.0]),
            game(1, [0, 1], 1, [3.0, 3.0]),
            game(2, [0, 2], 0, [0.0, 7.0]),
            game(3, [0, 2], 1, [5.0, 1.0]),
            game(4, [1, 2], 0, [2.0, 2.0]),
            game(5, [1, 2], 1, [6.0, 0.0]),
        ];
        let st = standings(&names, &Tournament::RoundRobin.pairings(3), &games, None);
        assert_eq!(st.games, 6);
        let order: Vec<&str> = st.standings.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(order, ["a", "b", "c"]);
        let line = |e: &Entry| {
            (
                e.games,
                e.points,
                e.mean_margin,
                (e.wins, e.draws, e.losses),
                e.score,
            )
        };
        assert_eq!(line(&st.standings[0]), (4, 18.0, 0.75, (2, 1, 1), 0.625));
        assert_eq!(line(&st.standings[1]), (4, 15.0, 0.0, (1, 2, 1), 0.5));
        assert_eq!(line(&st.standings[2]), (4, 10.0, -0.75, (1, 1, 2), 0.375));
        let elo: Vec<f64> = st.standings.iter().map(|e| e.elo.unwrap()).collect();
        assert!((elo[0] - 39.090).abs() < 1e-3, "{elo:?}");
        assert!(elo[1].abs() < 1e-9, "{elo:?}");
        assert!((elo[2] + 39.090).abs() < 1e-3, "{elo:?}");
        let a = &st.standings[0];
        assert!(
            (a.elo_high.unwrap() - a.elo.unwrap() - (a.elo.unwrap() - a.elo_low.unwrap())).abs()
                < 1e-5
        );
        // The crosstable: a against b, 13 points to 7; b against a, 7 to
        // 13; c against b, 2 to 8.
        let cell = |row: usize, col: &str| {
            st.crosstable[row]
                .opponents
                .iter()
                .find(|c| c.name == col)
                .cloned()
                .unwrap()
        };
        let ab = cell(0, "b");
        assert_eq!(
            (
                ab.games,
                ab.points,
                ab.opponent_points,
                ab.wins,
                ab.draws,
                ab.losses
            ),
            (2, 13.0, 7.0, 1, 1, 0)
        );
        let ba = cell(1, "a");
        assert_eq!((ba.points, ba.opponent_points, ba.losses), (7.0, 13.0, 1));
        let cb = cell(2, "b");
        assert_eq!(
            (cb.points, cb.opponent_points, cb.draws, cb.losses),
            (2.0, 8.0, 1, 1)
        );
        assert_eq!(st.pairings.len(), 3);
        assert_eq!(
            st.pairings[2].summary.names,
            ["b".to_owned(), "c".to_owned()]
        );
        assert_eq!(st.pairings[2].summary.wins, 1);
        // A gauntlet of the same games keeps a's pairings only: b and c
        // have no row entry for each other.
        let g = standings(&names, &Tournament::Gauntlet.pairings(3), &games[..4], None);
        assert_eq!(g.crosstable[1].opponents.len(), 1);
        assert_eq!(g.standings.iter().find(|e| e.name == "a").unwrap().games, 4);
    }

    /// Two series:2 of stylish between a and b. Contest 0 (a first): 60-0
    /// and then 0-5 with a resigning: b wins by resignation. Contest 1 (b
    /// first, White in its game 1): 30-20 for b, then 10-10: b wins on
    /// points, 40-30.
    #[test]
    fn contests_are_replayed_and_counted() {
        let rules =
            contest::Rules::new(contest::Format::Series { games: 2 }, Variant::Stylish).unwrap();
        let mut g0 = game(0, [0, 1], 0, [60.0, 0.0]);
        let mut g1 = game(1, [0, 1], 1, [0.0, 5.0]);
        g1.ending = Some(EndingKind::Resignation);
        g1.result = "1-0".to_owned();
        g1.forfeit = Some(super::super::Forfeit {
            player: 0,
            kind: super::super::ForfeitKind::Crash,
            reason: String::new(),
        });
        let mut g2 = game(2, [0, 1], 1, [20.0, 30.0]);
        let mut g3 = game(3, [0, 1], 0, [10.0, 10.0]);
        for (g, c, k) in [
            (&mut g0, 0, 1),
            (&mut g1, 0, 2),
            (&mut g2, 1, 1),
            (&mut g3, 1, 2),
        ] {
            g.contest = Some(super::super::ContestGame {
                contest: c,
                game: k,
                tiebreak: false,
            });
        }
        let games = [g0, g1, g2, g3];
        let replayed = contests(&games, &rules);
        let first = replayed[&([0, 1], 0)].as_ref().unwrap();
        assert_eq!(
            first.decision(),
            Some(contest::Decision {
                winner: Some(Seat::Second),
                why: Why::Resignation
            })
        );
        let second = replayed[&([0, 1], 1)].as_ref().unwrap();
        // Contest 1's first player is b (seat 1): b has 30 + 10.
        assert_eq!(
            second.standing().totals,
            [
                crate::scoring::Points::whole(40),
                crate::scoring::Points::whole(30)
            ]
        );
        let names = ["a", "b"].map(str::to_owned);
        let st = standings(&names, &[[0, 1]], &games, Some(&rules));
        let b = st.standings.iter().find(|e| e.name == "b").unwrap();
        assert_eq!(
            b.contests,
            Some(ContestTally {
                played: 2,
                won: 2,
                tied: 0,
                lost: 0,
                won_by_resignation: 1,
                won_by_tiebreak: 0
            })
        );
        assert_eq!(st.pairings[0].unfinished, Some(0));
        // Game 2 of contest 1 missing: that contest is unfinished.
        let st = standings(&names, &[[0, 1]], &games[..3], Some(&rules));
        assert_eq!(st.pairings[0].unfinished, Some(1));
        assert_eq!(st.standings[0].contests.unwrap().played, 1);
    }
}
