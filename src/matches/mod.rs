//! Engine-versus-engine matches scored in points: `tally match`.
//!
//! What lives here: the match's settings ([`MatchConfig`]: variant, the
//! [`PlayerSpec`]s, a tournament and contests, the time control or fixed
//! limits, openings, game count, concurrency, shard, SPRT), the schedule,
//! the game loop with its clocks and forfeits, and [`run`], which plays
//! the games (and contests) on a rayon pool and hands each finished game
//! to an [`Observer`]. Players are in [`player`], their settings in
//! [`spec`], statistics in [`stats`], a tournament's pairings and
//! standings in [`tournament`] and its Elo in [`ratings`], openings in
//! [`openings`], the results file in [`results`]; the contests' rules are
//! [`crate::contest`]'s. Nothing here prints: `tally match` formats.
//!
//! Decisions:
//!
//! - **Schedule**: game `i` (0-based) plays opening `(i / 2) % openings`,
//!   with player 1 White when `i` is even and Black when it is odd: each
//!   opening is played twice, colours reversed.
//! - **Pairs**: games `2j` and `2j + 1` are pair `j`, one opening with
//!   the colours reversed; the SPRT and its Elo count pairs
//!   ([`stats`]).
//! - **Shards**: shard `K/N` plays the pairs with `j % N == K - 1` (both
//!   games of each, so that every shard has whole pairs for its SPRT)
//!   ([`Shard`], in [`crate::shard`], which datagen shares); `K` and `N`
//!   may come from a cluster's job array. The games of all shards together are exactly
//!   those of one run, so merged results ([`results::merge`]) are the
//!   same experiment.
//! - **Scoring**: every game is scored by the referee ([`score_game`]) with
//!   the match's tables; a player's points are its colour's total. A game
//!   played on a clock passes the remaining clocks to the referee (wacky's
//!   time bonus).
//! - **Chess960**: with [`MatchConfig::chess960`] (on by itself when an
//!   opening's castling rights need it) the games read and write Chess960:
//!   the moves sent to the players are king takes rook, Tally players are
//!   set to it, and external engines are told `UCI_Chess960` (one that
//!   does not offer it cannot be started). Without an opening file the
//!   openings are the 960 start positions in a seeded order
//!   ([`openings::chess960`]).
//! - **Special actions**: allowed in a game only when every player is
//!   Tally with special actions on; an external engine cannot answer a
//!   `disk` with `swap` or `restore`, so against one Tally plays only chess
//!   moves (and scores and evaluates by the variant still).
//! - **Clocks**: with `tc`, each side's clock is measured by the runner
//!   from sending the request to receiving the move. A move that arrives
//!   more than [`MatchConfig::time_margin`] (50 ms by default) after the
//!   clock ran out loses on time; the increment is added after each move.
//!   The PGN gives the mover's clock after every move (`[%clk]`, tenths
//!   of a second), so it reads back to the clocks the referee was given.
//!   No reply within the remaining time (or the move time) plus
//!   [`MatchConfig::hang_timeout`] is a hang; with fixed depth or nodes the
//!   hang timeout alone is the wait.
//! - **Forfeits**: a crash (end of output), a hang, an illegal or
//!   unreadable move, a protocol error, a flood of output (see [`player`])
//!   or a loss on time loses the game for that player, recorded with its
//!   reason ([`Forfeit`]); the game is scored as the forfeiting player's
//!   resignation, and the player is restarted before its next game.
//! - **Stopping**: when `stop` is set (Ctrl-C) the games in progress are
//!   abandoned at their next move (not recorded: a resumed run plays them
//!   again) and no new game starts; every finished game has already been
//!   handed to the observer. When the SPRT reaches a decision no new game
//!   starts; games in progress finish and are recorded.
//! - **Tournaments**: with more than two players, or a
//!   [`MatchConfig::tournament`], the players meet in pairings
//!   ([`Tournament`]: every pair, or the first player against each of the
//!   others), each pairing playing the schedule above between its two
//!   players (*seats* 0 and 1, the lower-numbered player first) over the
//!   same openings. Game `i` of the whole run is slot `i % B` of pairing
//!   `i / B`, where `B` is a pairing's slots rounded up to even, so that
//!   no pair of games straddles two pairings; a two-player match is
//!   pairing 0 alone and its games are numbered as before. A record names
//!   its pairing's players ([`GameRecord::players`]). The SPRT takes two
//!   players. The standings, the crosstable and the Elo of every player
//!   are in [`tournament`].
//! - **Contests**: with [`MatchConfig::contest`] each pairing plays
//!   [`MatchConfig::contests`] contests of that format ([`crate::contest`]),
//!   one after the other in slots of `S` games, `S` the most games a
//!   contest can take (a series' N, a tie-break match's N plus its cap):
//!   game `k` (0-based) of contest `c` is slot `c S + k`, so its opening is
//!   `(slot / 2) % openings` as above, and slots that a contest does not
//!   need (a series ended by a resignation, tie-breaks not played) stay
//!   empty. The contest's first player (White in its game 1) is seat
//!   `c % 2`, so the contests alternate who begins; with colours
//!   alternating within a contest the two games of every pair still play
//!   one opening with the colours reversed. The contest says each game's
//!   variant (`tiebraker` for a tie-break) and, in sets, its draw
//!   advantage (the holder's colour in that game); both players are told
//!   them before the game ([`player::Player::prepare`]) and the referee
//!   scores by them. A contest is one piece of work: its games are played
//!   in order by one worker, contests in parallel; shard `K/N` plays the
//!   contests numbered `j` (over all pairings) with `j % N == K - 1`; a
//!   resumed run replays the recorded games of a contest and plays on
//!   from where it stopped. The SPRT does not run over contests.

pub mod openings;
pub mod player;
pub mod ratings;
pub mod results;
pub mod setup;
pub mod spec;
pub mod stats;
pub mod summary;
pub mod tournament;

use std::collections::VecDeque;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use shakmaty::Color;

use crate::contest::{self, Contest, Seat};
use crate::pgn::{PgnOut, add_clock, award_comment, pgn_of, write_pgn};
use crate::referee::score_game;
use crate::rules::{EndingKind, Game, Pos, Rules, Variant};
use crate::scoring::{DrawAdvantage, EndContext, Points, Scorer, Tables};
use crate::shard::Shard;
use crate::with_game;

/// The most games one run may schedule (its shard's plan is kept whole in
/// memory); a longer experiment is several runs merged.
pub const MAX_GAMES: usize = 10_000_000;

/// The most players of a tournament.
pub const MAX_PLAYERS: usize = 64;

pub use openings::Opening;
pub use player::{Failure, GameSettings, MoveLimits, Player, TallyPlayer, UciPlayer};
pub use spec::{PlayerKind, PlayerSpec};
pub use stats::{EloModel, SprtConfig, SprtDecision, SprtStatus, Summary, summarise};
pub use tournament::Tournament;

/// The search limits of a match: a clock, or fixed limits.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Control {
    /// Base time of the clock, when one runs.
    pub base: Option<Duration>,
    /// Increment per move.
    pub inc: Duration,
    /// Fixed depth.
    pub depth: Option<i32>,
    /// Fixed nodes.
    pub nodes: Option<u64>,
    /// Fixed time per move.
    pub movetime: Option<Duration>,
}

impl Control {
    /// Parses a time control `BASE[+INC]` in seconds (`10+0.1`, `60`).
    ///
    /// # Errors
    ///
    /// A message for anything else.
    pub fn parse_tc(text: &str) -> Result<(Duration, Duration), String> {
        let bad = || format!("--tc '{text}': expected BASE[+INC] in seconds, like 10+0.1");
        let secs = |s: &str| -> Result<Duration, String> {
            let v: f64 = s.trim().parse().map_err(|_| bad())?;
            if !v.is_finite() || !(0.0..=1e7).contains(&v) {
                return Err(bad());
            }
            Ok(Duration::from_secs_f64(v))
        };
        let (b, i) = match text.split_once('+') {
            Some((b, i)) => (secs(b)?, secs(i)?),
            None => (secs(text)?, Duration::ZERO),
        };
        if b.is_zero() {
            return Err(format!("--tc '{text}': the base time must be above zero"));
        }
        Ok((b, i))
    }

    /// The control as text (`tc=10+0.1`, `depth=5`, ...).
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(b) = self.base {
            parts.push(format!("tc={}+{}", b.as_secs_f64(), self.inc.as_secs_f64()));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth={d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes={n}"));
        }
        if let Some(m) = self.movetime {
            parts.push(format!("movetime={}", m.as_millis()));
        }
        parts.join(" ")
    }

    /// The PGN `TimeControl` tag value (`10+0.1`, or `-`).
    fn pgn_tag(&self) -> String {
        match self.base {
            Some(b) => format!("{}+{}", b.as_secs_f64(), self.inc.as_secs_f64()),
            None => "-".to_owned(),
        }
    }
}

/// What identifies an experiment: runs and shards with equal experiments
/// can be resumed and merged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Experiment {
    /// The variant id.
    pub variant: String,
    /// The players' specs as given (two, or a tournament's).
    pub players: Vec<String>,
    /// The limits ([`Control::describe`]).
    pub control: String,
    /// The openings: their count and a digest of their FENs.
    pub openings: String,
    /// Games in the whole match (all shards).
    pub games: usize,
    /// The sets draw advantage.
    pub draw_advantage: String,
    /// A digest of the point tables.
    pub tables: String,
    /// Whether the games are Chess960 (written only when they are).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub chess960: bool,
    /// The tournament's kind ([`Tournament::as_str`]), when the run is
    /// one (written only then).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<String>,
    /// The contests' rules, when each pairing plays contests (written
    /// only then).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contest: Option<contest::Rules>,
    /// The contests of each pairing, when it plays contests.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contests: Option<usize>,
    /// The player the sets handicap follows, when it follows one (written
    /// only then).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weaker: Option<usize>,
    /// Whether each opening is played once (written only then).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_reverse: bool,
    /// The sets handicap's values, when the tables hold one (written only
    /// then; the tables' digest says the rest).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handicap: Option<crate::scoring::variants::sets::Handicap>,
}

impl Experiment {
    /// Whether the experiment is a tournament, shown in standings (not
    /// one two-player match).
    pub fn is_tournament(&self) -> bool {
        self.tournament.is_some() || self.contest.is_some() || self.players.len() != 2
    }
}

/// FNV-1a, for digests that must not change between builds.
fn digest(parts: impl IntoIterator<Item = String>) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for b in p.bytes().chain(std::iter::once(0)) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

/// Why a game was forfeited, in kind (written in results files in
/// lower case: `crash`, `hang`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ForfeitKind {
    /// The engine's output ended (it exited or closed its output).
    Crash,
    /// No reply by the deadline.
    Hang,
    /// An illegal or unreadable move.
    Illegal,
    /// The move came after the clock ran out.
    Time,
    /// An answer that breaks the protocol.
    Protocol,
    /// Output beyond the bounds (an endless line, endless lines).
    Flood,
}

impl ForfeitKind {
    /// The kind's name, as in results files.
    pub fn as_str(self) -> &'static str {
        match self {
            ForfeitKind::Crash => "crash",
            ForfeitKind::Hang => "hang",
            ForfeitKind::Illegal => "illegal",
            ForfeitKind::Time => "time",
            ForfeitKind::Protocol => "protocol",
            ForfeitKind::Flood => "flood",
        }
    }

    /// The PGN `Termination` tag of a game lost by this forfeit.
    fn termination(self) -> &'static str {
        match self {
            ForfeitKind::Time => "time forfeit",
            ForfeitKind::Illegal => "rules infraction",
            ForfeitKind::Crash | ForfeitKind::Hang | ForfeitKind::Protocol | ForfeitKind::Flood => {
                "abandoned"
            }
        }
    }
}

impl std::fmt::Display for ForfeitKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How a player forfeited a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Forfeit {
    /// The forfeiting player: 0 for the first, 1 for the second.
    pub player: usize,
    /// The kind of forfeit.
    pub kind: ForfeitKind,
    /// The details.
    pub reason: String,
}

/// The name of a game's ending kind in results files and summaries: the
/// kind's name, or `unfinished`.
pub fn ending_name(ending: Option<EndingKind>) -> &'static str {
    ending.map_or("unfinished", EndingKind::name)
}

/// [`GameRecord::ending`] as results files write it: a kind's name or
/// `unfinished`.
mod ending_serde {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::rules::EndingKind;

    pub fn serialize<S: Serializer>(e: &Option<EndingKind>, s: S) -> Result<S::Ok, S::Error> {
        super::ending_name(*e).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<EndingKind>, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Named {
            Kind(EndingKind),
            Other(String),
        }
        match Named::deserialize(d)? {
            Named::Kind(k) => Ok(Some(k)),
            Named::Other(s) if s == "unfinished" => Ok(None),
            Named::Other(s) => Err(serde::de::Error::custom(format!(
                "unknown ending kind '{}'",
                crate::text::printable(&s)
            ))),
        }
    }
}

/// One finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's index in the schedule (0-based).
    pub index: usize,
    /// The opening's index.
    pub opening: usize,
    /// Which player had White (0 or 1).
    pub white: usize,
    /// The start position.
    pub start_fen: String,
    /// The actions played (UCI text and special words).
    pub moves: Vec<String>,
    /// The ending's kind; `None` for a game without one, which results
    /// files name `unfinished` ([`ending_name`]).
    #[serde(with = "ending_serde")]
    pub ending: Option<EndingKind>,
    /// The ending in words.
    pub ending_text: String,
    /// The forfeit, if the game ended by one.
    pub forfeit: Option<Forfeit>,
    /// Each player's points.
    pub points: [f64; 2],
    /// The PGN result.
    pub result: String,
    /// The game in PGN, awards as comments.
    pub pgn: String,
    /// The players of the game's pairing, by their number in the match:
    /// seat 0 (`white`, `points` and a forfeit's `player` count seats),
    /// then seat 1; `[0, 1]` in a two-player match (not written then).
    #[serde(default = "first_pairing", skip_serializing_if = "is_first_pairing")]
    pub players: [usize; 2],
    /// Its place in a contest, when the pairing plays contests.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contest: Option<ContestGame>,
}

fn first_pairing() -> [usize; 2] {
    [0, 1]
}

fn is_first_pairing(p: &[usize; 2]) -> bool {
    *p == [0, 1]
}

/// A game's place in its pairing's contests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContestGame {
    /// The contest, from 0, within the pairing; its first player (White
    /// in its game 1) is seat `contest % 2`.
    pub contest: usize,
    /// The game's number in the contest, from 1.
    pub game: u32,
    /// Whether it was a tie-break game.
    pub tiebreak: bool,
}

impl GameRecord {
    /// The seat (0 or 1) of the contest's first player, for a game of a
    /// contest.
    pub fn contest_first(&self) -> Option<usize> {
        self.contest.map(|c| c.contest % 2)
    }

    /// The game as its contest records it: who had White (by the
    /// contest's seats), the totals by colour, the ending and the side
    /// that resigned (in a match, the one that forfeited). `None` outside
    /// a contest.
    pub fn contest_result(&self) -> Option<contest::GameResult> {
        let first = self.contest_first()?;
        let seat = |s: usize| {
            if s == first {
                Seat::First
            } else {
                Seat::Second
            }
        };
        // A seat is 0 or 1; one misread from a file is taken as 1, not a
        // panic.
        let white = self.white.min(1);
        let points = |s: usize| Points::from_f64(self.points[s]).unwrap_or(Points::ZERO);
        let black = 1 - white;
        let resigned = match self.ending {
            Some(EndingKind::Resignation | EndingKind::TimeForfeit) => Some(match &self.forfeit {
                Some(f) if f.player == white => shakmaty::Color::White,
                Some(_) => shakmaty::Color::Black,
                None if self.result == "1-0" => shakmaty::Color::Black,
                None => shakmaty::Color::White,
            }),
            _ => None,
        };
        Some(contest::GameResult {
            white: seat(white),
            white_points: points(white),
            black_points: points(black),
            ending: self.ending,
            resigned,
        })
    }
}

/// A match's settings.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The variant (of the regular games, in a tie-break match).
    pub variant: Variant,
    /// Whether the games are Chess960: X-FEN castling rights in the start
    /// positions, castling as king takes rook between the players, and
    /// every engine told `UCI_Chess960` (see [`player`]).
    pub chess960: bool,
    /// The players: two, or a tournament's (at most [`MAX_PLAYERS`]).
    pub players: Vec<PlayerSpec>,
    /// How the players meet, when the run is a tournament; `None`: a
    /// two-player match.
    pub tournament: Option<Tournament>,
    /// The contests each pairing plays, when it plays contests.
    pub contest: Option<contest::Rules>,
    /// Contests per pairing (with [`MatchConfig::contest`]).
    pub contests: usize,
    /// The limits.
    pub control: Control,
    /// The openings.
    pub openings: Vec<Opening>,
    /// Games of each pairing (all shards); with contests the contests'
    /// slots count instead ([`MatchConfig::slots`]).
    pub games: usize,
    /// Games played at once.
    pub concurrency: usize,
    /// The shard this run plays.
    pub shard: Option<Shard>,
    /// The SPRT, if any.
    pub sprt: Option<SprtConfig>,
    /// The point tables (the referee's and Tally players').
    pub tables: Tables,
    /// The sets draw advantage (by colour; in a sets contest each game's
    /// follows its holder instead).
    pub draw_advantage: DrawAdvantage,
    /// The player (by number) the sets handicap of the tables follows:
    /// in each game it is given to that player's colour. `None`: the
    /// tables' handicap, if any, stays with its colour.
    pub weaker: Option<usize>,
    /// Each opening played once, colours alternating from one opening to
    /// the next, instead of twice with colours reversed (for players
    /// whose reversed game would repeat the first: the same deterministic
    /// engine on both sides).
    pub no_reverse: bool,
    /// How late a move may arrive after the clock ran out.
    pub time_margin: Duration,
    /// How long past its time an engine may stay silent before it counts
    /// as hung (the whole wait with fixed depth or nodes).
    pub hang_timeout: Duration,
    /// How long an external engine may take over what is not a move:
    /// starting (`uci`, `isready`), `isready` before each game, and giving
    /// its exit status once its output ended.
    pub start_timeout: Duration,
}

/// A piece of a run's work: one game, or one contest (its games in
/// order, from where a resumed record stopped).
#[derive(Clone, Debug)]
enum Unit {
    /// Game `i` of the run.
    Game(usize),
    /// Contest `index` of pairing `pairing`, with the games recorded.
    Contest {
        pairing: usize,
        index: usize,
        state: Contest,
    },
}

/// One game to play: its number in the run, its pairing's players (by
/// seat), the seat with White, the opening, the variant and draw
/// advantage, and its place in a contest.
#[derive(Clone, Copy, Debug)]
struct Board {
    index: usize,
    pairing: usize,
    players: [usize; 2],
    white: usize,
    opening: usize,
    settings: GameSettings,
    contest: Option<ContestGame>,
}

impl MatchConfig {
    /// A config with defaults: 2 games per opening, one game at a time, a
    /// 50 ms time margin, a 30 s hang timeout and a 10 s start timeout;
    /// Chess960 when an opening's castling rights need it
    /// ([`fen_needs_chess960`](crate::rules::fen_needs_chess960)); no
    /// tournament (two players) and no contests.
    pub fn new(
        variant: Variant,
        players: impl Into<Vec<PlayerSpec>>,
        control: Control,
        openings: Vec<Opening>,
    ) -> MatchConfig {
        MatchConfig {
            variant,
            chess960: openings
                .iter()
                .any(|o| crate::rules::fen_needs_chess960(&o.fen)),
            games: openings.len() * 2,
            players: players.into(),
            tournament: None,
            contest: None,
            contests: 0,
            control,
            openings,
            concurrency: 1,
            shard: None,
            sprt: None,
            tables: Tables::default(),
            draw_advantage: DrawAdvantage::Black,
            weaker: None,
            no_reverse: false,
            time_margin: Duration::from_millis(50),
            hang_timeout: Duration::from_secs(30),
            start_timeout: player::START_TIMEOUT,
        }
    }

    /// The experiment this config runs.
    pub fn experiment(&self) -> Experiment {
        Experiment {
            variant: self.variant.id().to_owned(),
            players: self.players.iter().map(|p| p.text.clone()).collect(),
            control: self.control.describe(),
            openings: format!(
                "{} {}",
                self.openings.len(),
                digest(self.openings.iter().map(|o| o.fen.clone()))
            ),
            games: self.slots(),
            draw_advantage: self.draw_advantage.as_str().to_owned(),
            tables: digest([format!("{:?}", self.tables)]),
            chess960: self.chess960,
            tournament: self.tournament.map(|t| t.as_str().to_owned()),
            contest: self.contest,
            contests: self.contest.map(|_| self.contests),
            weaker: self.weaker,
            no_reverse: self.no_reverse,
            handicap: self.tables.sets.handicap.clone(),
        }
    }

    /// Whether the run is shown as a tournament (standings, crosstable):
    /// a tournament or contests, not one plain two-player match.
    pub fn is_tournament(&self) -> bool {
        self.tournament.is_some() || self.contest.is_some()
    }

    /// The pairings, each its two players by number (seat 0 first): `[0,
    /// 1]` alone without a tournament.
    pub fn pairings(&self) -> Vec<[usize; 2]> {
        match self.tournament {
            None => vec![[0, 1]],
            Some(t) => t.pairings(self.players.len()),
        }
    }

    /// The game slots of one contest: the most games it can take.
    fn contest_slots(&self) -> Option<usize> {
        self.contest.map(|r| r.format.max_games() as usize)
    }

    /// The game slots of each pairing: its games, or its contests' slots.
    pub fn slots(&self) -> usize {
        match self.contest_slots() {
            Some(s) => s.saturating_mul(self.contests),
            None => self.games,
        }
    }

    /// A pairing's span of game numbers: its slots rounded up to even.
    fn block(&self) -> usize {
        let s = self.slots();
        s.saturating_add(s % 2)
    }

    /// The pairing and the slot within it of game `i`.
    pub fn locate(&self, i: usize) -> (usize, usize) {
        match self.block() {
            0 => (0, i),
            b => (i / b, i % b),
        }
    }

    /// The opening index and the White seat (0 or 1, the player itself in
    /// a two-player match) of game `i` (see the module docs).
    pub fn plan(&self, i: usize) -> (usize, usize) {
        let (_, slot) = self.locate(i);
        let per_opening = if self.no_reverse { 1 } else { 2 };
        let opening = (slot / per_opening) % self.openings.len().max(1);
        let white = match self.contest_slots() {
            Some(s) if s > 0 => (slot / s + slot % s) % 2,
            _ => slot % 2,
        };
        (opening, white)
    }

    /// The contests of the run that this run's shard plays, as (pairing,
    /// contest within it).
    fn shard_contests(&self) -> Vec<(usize, usize)> {
        let pairings = self.pairings().len();
        (0..pairings * self.contests)
            .filter(|&j| self.shard.is_none_or(|s| s.contains_unit(j)))
            .map(|j| (j / self.contests, j % self.contests))
            .collect()
    }

    /// The games this run plays (its shard), in order; with contests,
    /// every slot of its contests (the most they can take).
    pub fn schedule(&self) -> Vec<usize> {
        let block = self.block();
        match self.contest_slots() {
            None => {
                let slots = self.slots();
                (0..self.pairings().len() * block)
                    .filter(|&i| i % block.max(1) < slots)
                    .filter(|&i| self.shard.is_none_or(|s| s.contains(i)))
                    .collect()
            }
            Some(s) => self
                .shard_contests()
                .into_iter()
                .flat_map(|(p, c)| (0..s).map(move |k| p * block + c * s + k))
                .collect(),
        }
    }

    /// The games of [`MatchConfig::schedule`] that `resumed` lacks, in
    /// order.
    pub fn todo(&self, resumed: &[GameRecord]) -> VecDeque<usize> {
        let done: std::collections::HashSet<usize> = resumed.iter().map(|g| g.index).collect();
        self.schedule()
            .into_iter()
            .filter(|i| !done.contains(i))
            .collect()
    }

    /// The work of a run that resumes `resumed`: the games it lacks, or
    /// the contests not over, each with its recorded games replayed.
    ///
    /// # Errors
    ///
    /// A recorded contest that does not replay under the contest's rules.
    fn units(&self, resumed: &[GameRecord]) -> Result<VecDeque<Unit>, String> {
        let Some(rules) = self.contest else {
            return Ok(self.todo(resumed).into_iter().map(Unit::Game).collect());
        };
        let pairings = self.pairings();
        let recorded = tournament::contests(resumed, &rules);
        let mut units = VecDeque::new();
        for (p, c) in self.shard_contests() {
            let state = match recorded.get(&(pairings[p], c)) {
                None => Contest::new(rules).map_err(|e| e.to_string())?,
                Some(Ok(state)) => state.clone(),
                Some(Err(e)) => {
                    return Err(format!(
                        "contest {} of pairing {} does not replay: {e}",
                        c + 1,
                        p + 1
                    ));
                }
            };
            if !state.is_over() {
                units.push_back(Unit::Contest {
                    pairing: p,
                    index: c,
                    state,
                });
            }
        }
        Ok(units)
    }

    /// Whether games allow special actions (see the module docs): every
    /// player is Tally with special actions on.
    pub fn specials(&self) -> bool {
        self.players
            .iter()
            .all(|p| matches!(p.kind, PlayerKind::Tally { specials: true, .. }))
    }

    /// Search threads one game uses at a time (one player thinks at once).
    pub fn threads_per_game(&self) -> usize {
        self.players.iter().map(|p| p.threads).max().unwrap_or(1)
    }

    /// Checks the settings: two players (or a tournament of two to
    /// [`MAX_PLAYERS`]), limits given, the SPRT on two players' games,
    /// openings valid, the cores not oversubscribed (unless
    /// `oversubscribe`).
    ///
    /// # Errors
    ///
    /// A one-line message.
    pub fn check(&self, cores: usize, oversubscribe: bool) -> Result<(), String> {
        let n = self.players.len();
        if self.tournament.is_none() && n != 2 {
            return Err(format!(
                "a match has two players (got {n}): more make a tournament (--tournament)"
            ));
        }
        if !(2..=MAX_PLAYERS).contains(&n) {
            return Err(format!(
                "a tournament has 2 to {MAX_PLAYERS} players (got {n})"
            ));
        }
        if self.sprt.is_some() && n != 2 {
            return Err(format!(
                "--sprt tests one player against another: give exactly two --player (got {n})"
            ));
        }
        if self.sprt.is_some() && self.contest.is_some() {
            return Err(
                "--sprt tests games, not contests: leave out --format to run an SPRT".to_owned(),
            );
        }
        let c = &self.control;
        let own = |p: &PlayerSpec| p.depth.is_some() || p.nodes.is_some() || p.movetime.is_some();
        if c.base.is_none()
            && c.depth.is_none()
            && c.nodes.is_none()
            && c.movetime.is_none()
            && !self.players.iter().all(own)
        {
            return Err("no limits: give --tc, --depth, --nodes or --movetime".to_owned());
        }
        if let Some(rules) = &self.contest {
            rules.check()?;
            if rules.variant != self.variant {
                return Err(format!(
                    "the contests are {} and the match {}",
                    rules.variant, self.variant
                ));
            }
            if self.contests == 0 {
                return Err("no contests to play (0 contests)".to_owned());
            }
        } else if self.games == 0 {
            return Err("no games to play (--games 0)".to_owned());
        }
        if !self.is_tournament() && self.games > MAX_GAMES {
            return Err(format!(
                "--games {}: at most {MAX_GAMES} games in a run",
                self.games
            ));
        }
        let total = self.pairings().len().saturating_mul(self.block());
        if total > MAX_GAMES {
            return Err(format!(
                "{total} games: at most {MAX_GAMES} games in a run (pairings x games)"
            ));
        }
        if self.concurrency == 0 {
            return Err("--concurrency must be at least 1".to_owned());
        }
        openings::validate(&self.openings, self.variant, self.chess960)?;
        let need = self.concurrency * self.threads_per_game();
        if need > cores && !oversubscribe {
            return Err(format!(
                "{} games at once x {} threads = {need} threads on {cores} cores: lower --concurrency or pass --oversubscribe",
                self.concurrency,
                self.threads_per_game()
            ));
        }
        Ok(())
    }

    fn start_player(&self, i: usize) -> Result<Box<dyn Player>, String> {
        let spec = &self.players[i];
        match spec.kind {
            PlayerKind::Tally { .. } => Ok(Box::new(
                TallyPlayer::new(
                    spec,
                    self.variant,
                    self.specials(),
                    &self.tables,
                    self.draw_advantage,
                )
                .with_chess960(self.chess960),
            )),
            PlayerKind::Uci { .. } => Ok(Box::new(UciPlayer::start(
                spec,
                self.variant,
                self.chess960,
                self.draw_advantage,
                self.start_timeout,
            )?)),
        }
    }

    /// What player `pi` (its number in the match), on the move with colour
    /// `ci` (0 White, 1 Black), is asked: the limits (its own, else the
    /// match's, and the clocks) and how long its reply may take before it
    /// counts as hung.
    fn move_request(
        &self,
        pi: usize,
        clocks: Option<[Duration; 2]>,
        ci: usize,
    ) -> (MoveLimits, Duration) {
        let c = &self.control;
        let spec = &self.players[pi];
        let limits = MoveLimits {
            time: clocks,
            inc: [c.inc, c.inc],
            depth: spec.depth.or(c.depth),
            nodes: spec.nodes.or(c.nodes),
            movetime: spec.movetime.or(c.movetime),
        };
        let wait = match (clocks, limits.movetime) {
            (Some(t), _) => t[ci] + self.hang_timeout,
            (None, Some(m)) => m + self.hang_timeout,
            (None, None) => self.hang_timeout,
        };
        (limits, wait)
    }

    /// Charges a move that took `used` to a clock showing `left`: takes
    /// the time and adds the increment, or, when the move came more than
    /// the time margin after the clock ran out, empties the clock and
    /// gives the loss on time's reason.
    fn charge(&self, left: &mut Duration, used: Duration) -> Result<(), String> {
        if used > *left + self.time_margin {
            let reason = format!(
                "lost on time: {:.3} s used with {:.3} s left",
                used.as_secs_f64(),
                left.as_secs_f64()
            );
            *left = Duration::ZERO;
            return Err(reason);
        }
        *left = left.saturating_sub(used) + self.control.inc;
        Ok(())
    }

    /// The settings of a game outside contests, between `players` (by
    /// number, by seat) with seat `white` White: the match's variant and
    /// draw advantage, and the handicap's colour when it follows a player.
    fn settings(&self, players: [usize; 2], white: usize) -> GameSettings {
        GameSettings {
            variant: self.variant,
            draw_advantage: self.draw_advantage,
            handicap: self.weaker.map(|w| {
                if players[white.min(1)] == w {
                    Color::White
                } else {
                    Color::Black
                }
            }),
        }
    }

    /// The settings of a contest's next game: its variant, and in sets its
    /// draw advantage by colour (the match's otherwise).
    fn contest_settings(&self, next: &contest::NextGame) -> GameSettings {
        GameSettings {
            variant: next.variant,
            draw_advantage: if next.variant == Variant::Sets {
                next.draw_advantage_colour
            } else {
                self.draw_advantage
            },
            handicap: None,
        }
    }

    /// The referee of a game played under `settings`.
    fn scorer(&self, settings: &GameSettings) -> Scorer {
        let mut tables = self.tables.clone();
        if let Some(side) = settings.handicap {
            tables.sets = tables.sets.with_handicap_side(side);
        }
        let mut s = Scorer::with_tables(settings.variant, tables);
        s.set_draw_advantage(settings.draw_advantage);
        s
    }
}

/// Told about every finished game, in the order they finish (calls never
/// overlap).
pub trait Observer: Sync {
    /// A game finished; `summary` covers every game so far of its pairing
    /// (resumed ones included).
    fn game_done(&self, game: &GameRecord, summary: &Summary);
}

/// An observer that does nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Quiet;

impl Observer for Quiet {
    fn game_done(&self, _game: &GameRecord, _summary: &Summary) {}
}

/// What a run came to.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The players' names, by number.
    pub names: Vec<String>,
    /// Every game (resumed and new), by index.
    pub games: Vec<GameRecord>,
    /// The summary of the first pairing's games: every game of a
    /// two-player match.
    pub summary: Summary,
    /// Whether the run stopped on `stop` before its schedule was done.
    pub interrupted: bool,
    /// Where the SPRT stopped the run, if it did.
    pub sprt_stop: Option<SprtStop>,
}

/// The moment the SPRT stopped a run: the games finished then and the
/// test's state. The games already in play finish after it and count in
/// the run's summary, so the final LLR may stand a little either side of
/// the bound that stopped the run; the decision is this one, as in
/// fishtest.
#[derive(Clone, Debug, PartialEq)]
pub struct SprtStop {
    /// Games finished (resumed ones included) when a bound was reached.
    pub games: usize,
    /// The test at that moment.
    pub status: SprtStatus,
}

/// The players' names: as started, a name equal to an earlier one made
/// distinct by its number (` (2)` for the second player).
fn distinct(mut names: Vec<String>) -> Vec<String> {
    for k in 1..names.len() {
        while names[..k].contains(&names[k]) {
            names[k].push_str(&format!(" ({})", k + 1));
        }
    }
    names
}

/// The names a config's players show before any is started.
pub fn default_names(config: &MatchConfig) -> Vec<String> {
    distinct(
        config
            .players
            .iter()
            .map(PlayerSpec::default_name)
            .collect(),
    )
}

/// The names of a pairing's two players, by seat.
pub fn pairing_names(names: &[String], players: [usize; 2]) -> [String; 2] {
    players.map(|p| {
        names
            .get(p)
            .cloned()
            .unwrap_or_else(|| format!("player {}", p + 1))
    })
}

/// The summary of the games of the pairing `players` among `games`.
pub fn pairing_summary(
    names: &[String],
    games: &[GameRecord],
    players: [usize; 2],
    sprt: Option<&SprtConfig>,
) -> Summary {
    let mine: Vec<&GameRecord> = games.iter().filter(|g| g.players == players).collect();
    stats::summarise_refs(&pairing_names(names, players), &mine, sprt)
}

/// Plays the match: every game of the schedule not in `resumed` (with
/// contests, every contest not over), on `config.concurrency` threads of a
/// rayon pool.
///
/// # Errors
///
/// A one-line message when a player cannot be started, the threads
/// cannot be created, or a resumed contest does not replay.
pub fn run(
    config: &MatchConfig,
    resumed: Vec<GameRecord>,
    stop: &AtomicBool,
    observer: &dyn Observer,
) -> Result<Outcome, String> {
    let pending = config.units(&resumed)?;
    let workers = config.concurrency.clamp(1, pending.len().max(1));
    let mut teams: Vec<Vec<Box<dyn Player>>> = Vec::new();
    if !pending.is_empty() {
        for _ in 0..workers {
            let team = (0..config.players.len())
                .map(|i| config.start_player(i))
                .collect::<Result<Vec<_>, _>>()?;
            teams.push(team);
        }
    }
    let names = match teams.first() {
        Some(team) => distinct(team.iter().map(|p| p.name().to_owned()).collect()),
        None => default_names(config),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(workers)
        .thread_name(|i| format!("tally-match-{i}"))
        .build()
        .map_err(|e| format!("cannot start the match threads: {e}"))?;
    let shared = Shared {
        config,
        pairings: config.pairings(),
        names: &names,
        queue: Mutex::new(pending),
        records: Mutex::new(resumed),
        halt: AtomicBool::new(false),
        cut: AtomicBool::new(false),
        decided: Mutex::new(None),
        stop,
        observer,
    };
    pool.scope(|s| {
        for mut team in teams {
            let shared = &shared;
            s.spawn(move |_| {
                loop {
                    if stop.load(Ordering::Relaxed) || shared.halt.load(Ordering::Relaxed) {
                        break;
                    }
                    let next = shared.queue.lock().ok().and_then(|mut q| q.pop_front());
                    let Some(unit) = next else { break };
                    if !shared.play_unit(unit, &mut team) {
                        shared.cut.store(true, Ordering::Relaxed);
                        break;
                    }
                }
            });
        }
    });
    let Shared {
        pairings,
        queue,
        records,
        cut,
        decided,
        ..
    } = shared;
    let mut games = records.into_inner().unwrap_or_default();
    games.sort_by_key(|g| g.index);
    let summary = pairing_summary(&names, &games, pairings[0], config.sprt.as_ref());
    let sprt_stop = decided.into_inner().unwrap_or_default();
    let left = queue.into_inner().map(|q| !q.is_empty()).unwrap_or(true);
    Ok(Outcome {
        interrupted: sprt_stop.is_none()
            && stop.load(Ordering::Relaxed)
            && (left || cut.into_inner()),
        names,
        games,
        summary,
        sprt_stop,
    })
}

/// What the workers of a run share.
struct Shared<'a> {
    config: &'a MatchConfig,
    pairings: Vec<[usize; 2]>,
    names: &'a [String],
    queue: Mutex<VecDeque<Unit>>,
    records: Mutex<Vec<GameRecord>>,
    /// The SPRT decided: no new game starts.
    halt: AtomicBool,
    /// A piece of work was stopped part way.
    cut: AtomicBool,
    decided: Mutex<Option<SprtStop>>,
    stop: &'a AtomicBool,
    observer: &'a dyn Observer,
}

impl Shared<'_> {
    /// Plays a piece of work with `team` (every player, by number);
    /// false when it was stopped part way.
    fn play_unit(&self, unit: Unit, team: &mut [Box<dyn Player>]) -> bool {
        let config = self.config;
        match unit {
            Unit::Game(index) => {
                let (pairing, _) = config.locate(index);
                let (opening, white) = config.plan(index);
                let board = Board {
                    index,
                    pairing,
                    players: self.pairings[pairing],
                    white,
                    opening,
                    settings: config.settings(self.pairings[pairing], white),
                    contest: None,
                };
                match play_one(config, &board, team, self.names, self.stop) {
                    Some(rec) => {
                        self.finish(rec);
                        true
                    }
                    None => false,
                }
            }
            Unit::Contest {
                pairing,
                index,
                mut state,
            } => {
                let first = index % 2;
                let slots = config.contest_slots().unwrap_or(1);
                while let Some(next) = state.next() {
                    if self.stop.load(Ordering::Relaxed) {
                        return false;
                    }
                    let game = pairing * config.block() + index * slots + next.number as usize - 1;
                    let board = Board {
                        index: game,
                        pairing,
                        players: self.pairings[pairing],
                        white: if next.white == Seat::First {
                            first
                        } else {
                            1 - first
                        },
                        opening: config.plan(game).0,
                        settings: config.contest_settings(&next),
                        contest: Some(ContestGame {
                            contest: index,
                            game: next.number,
                            tiebreak: next.tiebreak,
                        }),
                    };
                    let Some(rec) = play_one(config, &board, team, self.names, self.stop) else {
                        return false;
                    };
                    let recorded = rec.contest_result().map(|r| state.record(r).map(|_| ()));
                    self.finish(rec);
                    // Points past the referee's range end the contest
                    // here, unfinished.
                    if !matches!(recorded, Some(Ok(()))) {
                        break;
                    }
                }
                true
            }
        }
    }

    /// Records a finished game, runs the SPRT and tells the observer.
    fn finish(&self, rec: GameRecord) {
        let config = self.config;
        let Ok(mut all) = self.records.lock() else {
            return;
        };
        all.push(rec);
        let Some(rec) = all.last() else { return };
        let summary = pairing_summary(self.names, &all, rec.players, config.sprt.as_ref());
        if let Some(status) = &summary.sprt
            && status.decision != SprtDecision::Continue
            && !self.halt.swap(true, Ordering::Relaxed)
            && let Ok(mut d) = self.decided.lock()
        {
            *d = Some(SprtStop {
                games: all.len(),
                status: status.clone(),
            });
        }
        self.observer.game_done(rec, &summary);
    }
}

/// Plays `board` between its players (taken from `team` by number) and
/// records it; `None` when `stop` is set (or the opening is missing or
/// not a position of the rules).
fn play_one(
    config: &MatchConfig,
    board: &Board,
    team: &mut [Box<dyn Player>],
    names: &[String],
    stop: &AtomicBool,
) -> Option<GameRecord> {
    let specials = config.specials();
    let [a, b] = team.get_disjoint_mut(board.players).ok()?;
    let mut seats: [&mut dyn Player; 2] = [a.as_mut(), b.as_mut()];
    with_game!(
        crate::rules::AnyRules::of(board.settings.variant),
        |rules| play_on(
            rules.with_specials(specials).with_chess960(config.chess960),
            config,
            board,
            &mut seats,
            names,
            stop
        )
    )
}

fn forfeit_of(player: usize, f: &Failure) -> Forfeit {
    let kind = match f {
        Failure::Crash(_) => ForfeitKind::Crash,
        Failure::Hang(_) => ForfeitKind::Hang,
        Failure::Flood(_) => ForfeitKind::Flood,
        Failure::Protocol(_) | Failure::Interrupted => ForfeitKind::Protocol,
    };
    Forfeit {
        player,
        kind,
        reason: crate::text::printable(&f.to_string()).into_owned(),
    }
}

/// A game played out: the game at its end (a forfeit scored as the
/// forfeiting player's resignation), its start, the actions played, the
/// clocks left (`[white, black]`, when a clock ran) and, action by action,
/// the mover's clock after it (empty without a clock), and the forfeit
/// that ended it, if one did.
struct Played<P: Pos> {
    game: Game<P>,
    start_fen: String,
    moves: Vec<String>,
    clocks: Option<[Duration; 2]>,
    clock_after: Vec<Duration>,
    forfeit: Option<Forfeit>,
}

/// Plays `board` and records it; `None` when `stop` is set (or the
/// opening is missing or not a position of the rules).
fn play_on<P: Pos>(
    rules: Rules<P>,
    config: &MatchConfig,
    board: &Board,
    seats: &mut [&mut dyn Player; 2],
    names: &[String],
    stop: &AtomicBool,
) -> Option<GameRecord> {
    let opening = config.openings.get(board.opening)?;
    let played = play_game(rules, config, &opening.fen, board, seats, stop)?;
    let scorer = config.scorer(&board.settings);
    Some(record_game(config, &scorer, board, opening, names, played))
}

/// The game driver: plays a game from `fen`, seat `board.white` with
/// White, both players told the game's settings first, to its board
/// ending or the first forfeit (see the module docs), which ends it as the
/// forfeiting player's resignation and restarts that player. `None` when
/// `stop` is set or `fen` is not a position of the rules.
fn play_game<P: Pos>(
    rules: Rules<P>,
    config: &MatchConfig,
    fen: &str,
    board: &Board,
    seats: &mut [&mut dyn Player; 2],
    stop: &AtomicBool,
) -> Option<Played<P>> {
    let white = board.white;
    let mut game = Game::new(rules, Some(fen)).ok()?;
    let start_fen = game.start().fen();
    let mut moves: Vec<String> = Vec::new();
    let mut forfeit: Option<Forfeit> = None;
    for (p, player) in seats.iter_mut().enumerate() {
        match player
            .prepare(&board.settings)
            .and_then(|()| player.new_game())
        {
            Ok(()) => {}
            Err(Failure::Interrupted) => return None,
            Err(f) => {
                forfeit = Some(forfeit_of(p, &f));
                break;
            }
        }
    }
    // Clocks by colour: [white, black].
    let mut clocks = config.control.base.map(|b| [b, b]);
    let mut clock_after = Vec::new();
    while forfeit.is_none() && game.ending().is_none() {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let side = game.current().turn();
        let ci = usize::from(!side.is_white());
        let pi = if side.is_white() { white } else { 1 - white };
        let (limits, wait) = config.move_request(board.players[pi], clocks, ci);
        let started = Instant::now();
        let reply = seats[pi].play(&start_fen, &moves, &limits, wait, stop);
        let used = started.elapsed();
        let text = match reply {
            Ok(t) => t,
            Err(Failure::Interrupted) => return None,
            Err(f) => {
                forfeit = Some(forfeit_of(pi, &f));
                break;
            }
        };
        if let Some(t) = clocks.as_mut()
            && let Err(reason) = config.charge(&mut t[ci], used)
        {
            forfeit = Some(Forfeit {
                player: pi,
                kind: ForfeitKind::Time,
                reason,
            });
            break;
        }
        match game.play_text(&text) {
            Ok(a) => {
                moves.push(game.rules().text(a).to_string());
                if let Some(t) = clocks {
                    clock_after.push(t[ci]);
                }
            }
            Err(e) => {
                forfeit = Some(Forfeit {
                    player: pi,
                    kind: ForfeitKind::Illegal,
                    reason: crate::text::printable(&format!("illegal move '{text}': {e}"))
                        .into_owned(),
                });
            }
        }
    }
    if let Some(f) = &forfeit {
        let loser = if f.player == white {
            Color::White
        } else {
            Color::Black
        };
        game.resign(loser);
        // A failed restart shows up as a forfeit in the next game.
        let _ = seats[f.player].restart();
    }
    Some(Played {
        game,
        start_fen,
        moves,
        clocks,
        clock_after,
        forfeit,
    })
}

/// The record builder: `board` as played from `opening`, scored by the
/// referee (with the clocks left, when a clock ran), and its PGN: the
/// tags (in a tournament, `Event` names the pairing and `Round` the
/// game's place: pairing.game, or pairing.contest.game), the awards as
/// comments and the ending with the totals in the last comment.
fn record_game<P: Pos>(
    config: &MatchConfig,
    scorer: &Scorer,
    board: &Board,
    opening: &Opening,
    names: &[String],
    played: Played<P>,
) -> GameRecord {
    let (index, white) = (board.index, board.white);
    let names = pairing_names(names, board.players);
    let Played {
        game,
        start_fen,
        moves,
        clocks,
        clock_after,
        forfeit,
    } = played;
    let ctx = EndContext {
        clock_secs: clocks.map(|t| {
            let mut by_color = [0; 2];
            by_color[Color::White as usize] = t[0].as_secs();
            by_color[Color::Black as usize] = t[1].as_secs();
            by_color
        }),
        time_forfeit: forfeit
            .as_ref()
            .is_some_and(|f| f.kind == ForfeitKind::Time),
    };
    let record = score_game(scorer, &game, &ctx);
    let (wp, bp) = (record.total.white.as_f64(), record.total.black.as_f64());
    let points = if white == 0 { [wp, bp] } else { [bp, wp] };
    let ending_text = match (&forfeit, record.ending) {
        (Some(f), _) => format!("{} forfeits: {}", names[f.player], f.reason),
        (None, Some(e)) => e.describe(),
        (None, None) => "unfinished".to_owned(),
    };
    let mut pgn = pgn_of(&game, &record);
    for (i, (ply, score)) in pgn.plies.iter_mut().zip(&record.plies).enumerate() {
        ply.comment = award_comment(&score.award, score.mover);
        if let Some(&left) = clock_after.get(i) {
            add_clock(&mut ply.comment, left);
        }
    }
    append_comment(
        &mut pgn,
        format!(
            "{ending_text}; total: White {} Black {}",
            record.total.white, record.total.black
        ),
    );
    let termination = forfeit.as_ref().map_or("normal", |f| f.kind.termination());
    let (event, round) = if config.is_tournament() {
        let (_, slot) = config.locate(index);
        let format = config
            .contest
            .map_or_else(String::new, |r| format!(", {}", r.format));
        let round = match board.contest {
            Some(c) => format!("{}.{}.{}", board.pairing + 1, c.contest + 1, c.game),
            None => format!("{}.{}", board.pairing + 1, slot + 1),
        };
        (
            format!(
                "tally match ({}{format}): {} vs {}",
                config.variant, names[0], names[1]
            ),
            round,
        )
    } else {
        (
            format!("tally match ({})", config.variant),
            (index + 1).to_string(),
        )
    };
    pgn.tags = vec![
        ("Event".into(), event),
        ("Site".into(), "tally".into()),
        ("Round".into(), round),
        ("White".into(), names[white].clone()),
        ("Black".into(), names[1 - white].clone()),
        ("TimeControl".into(), config.control.pgn_tag()),
        ("Termination".into(), termination.into()),
        ("Opening".into(), opening.label.clone()),
        ("WhitePoints".into(), record.total.white.to_string()),
        ("BlackPoints".into(), record.total.black.to_string()),
    ];
    GameRecord {
        index,
        opening: board.opening,
        white,
        start_fen,
        moves,
        ending: record.ending.map(|e| e.kind()),
        ending_text,
        forfeit,
        points,
        result: pgn.result.clone(),
        pgn: write_pgn(&pgn),
        players: board.players,
        contest: board.contest,
    }
}

/// Adds `text` to the comment after the last ply (before the moves when
/// there is none).
fn append_comment(pgn: &mut PgnOut, text: String) {
    match pgn.plies.last_mut() {
        Some(last) => {
            last.comment = Some(match last.comment.take() {
                Some(c) => format!("{c}; {text}"),
                None => text,
            });
        }
        None => pgn.intro = Some(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endings_are_written_by_name_and_read_back() {
        #[derive(Debug, PartialEq, Serialize, Deserialize)]
        struct E {
            #[serde(with = "ending_serde")]
            ending: Option<EndingKind>,
        }
        for (e, json) in [
            (Some(EndingKind::BareKing), r#"{"ending":"bare_king"}"#),
            (
                Some(EndingKind::TimeForfeit),
                r#"{"ending":"time_forfeit"}"#,
            ),
            (None, r#"{"ending":"unfinished"}"#),
        ] {
            assert_eq!(serde_json::to_string(&E { ending: e }).unwrap(), json);
            assert_eq!(serde_json::from_str::<E>(json).unwrap(), E { ending: e });
        }
        let bad = serde_json::from_str::<E>(r#"{"ending":"nap"}"#).unwrap_err();
        assert!(
            bad.to_string().contains("unknown ending kind 'nap'"),
            "{bad}"
        );
    }

    #[test]
    fn shards_partition_the_schedule() {
        let specs = [
            PlayerSpec::parse("depth=1").unwrap(),
            PlayerSpec::parse("depth=1 eval=base").unwrap(),
        ];
        let openings = openings::parse_epd(openings::SHIPPED).unwrap();
        let mut c = MatchConfig::new(Variant::Chess, specs, Control::default(), openings);
        c.games = 11;
        let mut all: Vec<usize> = Vec::new();
        for k in 1..=3 {
            c.shard = Some(Shard::new(k, 3).unwrap());
            all.extend(c.schedule());
        }
        all.sort_unstable();
        assert_eq!(all, (0..11).collect::<Vec<_>>());
        // Whole pairs: pairs 0 and 3 in shard 1 of 3.
        c.shard = Some(Shard::new(1, 3).unwrap());
        assert_eq!(c.schedule(), [0, 1, 6, 7]);
        assert_eq!(c.plan(0), (0, 0));
        assert_eq!(c.plan(1), (0, 1));
        assert_eq!(c.plan(5), (2, 1));
    }

    #[test]
    fn time_controls() {
        let (b, i) = Control::parse_tc("10+0.1").unwrap();
        assert_eq!(b, Duration::from_secs(10));
        assert_eq!(i, Duration::from_millis(100));
        assert_eq!(Control::parse_tc("60").unwrap().1, Duration::ZERO);
        assert!(Control::parse_tc("0+1").is_err());
        assert!(Control::parse_tc("-5").is_err());
        assert!(Control::parse_tc("ten").is_err());
    }

    #[test]
    fn move_requests_and_clocks() {
        let specs = [
            PlayerSpec::parse("depth=3").unwrap(),
            PlayerSpec::parse("movetime=200").unwrap(),
        ];
        let control = Control {
            base: Some(Duration::from_secs(10)),
            inc: Duration::from_millis(100),
            nodes: Some(5000),
            ..Control::default()
        };
        let mut c = MatchConfig::new(Variant::Chess, specs, control, Vec::new());
        c.hang_timeout = Duration::from_secs(30);
        let clocks = Some([Duration::from_secs(7), Duration::from_secs(4)]);
        // Own limits first, then the match's; the wait is the mover's
        // clock (by colour) plus the hang timeout.
        let (go, wait) = c.move_request(0, clocks, 1);
        assert_eq!(
            (go.depth, go.nodes, go.movetime),
            (Some(3), Some(5000), None)
        );
        assert_eq!(go.time, clocks);
        assert_eq!(go.inc, [Duration::from_millis(100); 2]);
        assert_eq!(wait, Duration::from_secs(34));
        // Without a clock: the move time plus the hang timeout, or the
        // hang timeout alone.
        let (go, wait) = c.move_request(1, None, 0);
        assert_eq!(go.movetime, Some(Duration::from_millis(200)));
        assert_eq!(wait, Duration::from_millis(30_200));
        assert_eq!(c.move_request(0, None, 0).1, Duration::from_secs(30));
        // A move within the margin is charged and gets the increment; one
        // past it empties the clock.
        let mut left = Duration::from_millis(1000);
        assert_eq!(c.charge(&mut left, Duration::from_millis(1040)), Ok(()));
        assert_eq!(left, Duration::from_millis(100));
        let mut left = Duration::from_millis(1000);
        assert_eq!(
            c.charge(&mut left, Duration::from_millis(1051)),
            Err("lost on time: 1.051 s used with 1.000 s left".to_owned())
        );
        assert_eq!(left, Duration::ZERO);
    }
}
