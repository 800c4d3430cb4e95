//! Contests of several games between two players, as the seeds play
//! them: a **series** (the stylish seed's "several games, summing
//! points"), a **tie-break match** (the tiebraker seed's `dynamic` games,
//! then `tiebraker` games while the match is tied) and, in `sets`, the
//! draw advantage as a *player's*, carried through the contest whatever
//! colour that player has (the SETS seed's colour choice).
//!
//! What lives here: a contest's rules ([`Rules`], [`Format`]) and its
//! state ([`Contest`]): which game comes next ([`NextGame`]: the variant,
//! who has White, who holds the sets draw advantage, whether it is a
//! tie-break game), a finished game recorded ([`GameResult`] in, the
//! referee's totals by colour and how the game ended; [`PlayedGame`] on
//! the record), the standing and the result ([`Standing`], [`Decision`]).
//! Nothing here plays, scores or prints a game: the match runner, `tally
//! score --series` and the browser app play and score each game (the
//! referee) and tell the contest; the contest counts. A contest read from
//! a PGN's games ([`pgn::PgnContest`], `tally score --series`) scores each
//! game as its contest says. Every type is
//! serde-serialisable; a [`Contest`] read back is replayed game by game,
//! so a saved contest that breaks its rules is refused, not trusted.
//!
//! The rules, as `docs/rules.md` ("Contests") states them:
//!
//! - **Seats**: [`Seat::First`] is the player with White in game 1, the
//!   other [`Seat::Second`]. Colours alternate: the first player has
//!   White in the odd-numbered games. A game may be recorded with the
//!   colours the other way round (a series played by people, read from a
//!   PGN); points still go to the players, and the next game's colours
//!   still follow the game's number.
//! - **Series** (`series:N`, any variant): N games; each player's points
//!   are summed over the games by player, not by colour; the larger sum
//!   wins, equal sums tie the series.
//! - **Resignation**: with [`Rules::resignation_ends`] (on by default in
//!   stylish only, as its seed says: "resigned player loses regardless of
//!   number of points"), a game ended by a resignation (a loss on time or
//!   a forfeit counts as one) ends the contest at once, and the player who
//!   resigned loses it whatever the sums. Without it the resignation is
//!   scored as the variant's rules say and the contest goes on.
//! - **Tie-break match** (`tiebreak-match:N`, cap 4 unless `,cap=K`
//!   says): N games of `dynamic`; if the sums are then equal, games of
//!   `tiebraker` (disk on) follow, colours still alternating, until one
//!   of them ends with unequal points (the sums are then unequal, and the
//!   larger wins: decided by the tie-break) or the cap is played (the
//!   match is tied).
//! - **SETS colour choice**: in a `sets` contest one player chose colour
//!   for game 1 ([`Rules::chooser`]: the first player by default, who
//!   chose White); the other holds the draw advantage (the 1/2 of a plain
//!   draw) in every game, whatever colour they have. With no chooser
//!   nobody holds it.
//! - **Games won, lost and tied** count each game's points: the player
//!   with more points won it.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use shakmaty::Color;

use crate::referee::ScoreRecord;
use crate::rules::{Ending, EndingKind, Variant};
use crate::scoring::{DrawAdvantage, Points};

/// The most games of a contest's format (`series:N`, the `N` of a
/// tie-break match).
pub const MAX_GAMES: u32 = 10_000;

/// The most tie-break games a tie-break match may allow.
pub const MAX_CAP: u32 = 100;

/// The tie-break games of a tie-break match unless its format says.
pub const DEFAULT_CAP: u32 = 4;

/// One of a contest's two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Seat {
    /// The player with White in game 1.
    First,
    /// The player with Black in game 1.
    Second,
}

impl Seat {
    /// Both seats, first first.
    pub const BOTH: [Seat; 2] = [Seat::First, Seat::Second];

    /// The other player.
    #[must_use]
    pub const fn other(self) -> Seat {
        match self {
            Seat::First => Seat::Second,
            Seat::Second => Seat::First,
        }
    }

    /// 0 for the first player, 1 for the second: the index of the
    /// two-element arrays of this module.
    pub const fn index(self) -> usize {
        match self {
            Seat::First => 0,
            Seat::Second => 1,
        }
    }

    /// The seat of an index (0 first, anything else second).
    pub const fn of_index(i: usize) -> Seat {
        if i == 0 { Seat::First } else { Seat::Second }
    }

    /// The seat's name: `first` or `second`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Seat::First => "first",
            Seat::Second => "second",
        }
    }

    /// The player with White in game `number` (from 1): the first in the
    /// odd-numbered games, the second in the even.
    pub const fn white_in(number: u32) -> Seat {
        if number % 2 == 1 {
            Seat::First
        } else {
            Seat::Second
        }
    }

    /// The seat a name names (`first`, `second`), if any.
    pub fn from_name(name: &str) -> Option<Seat> {
        Seat::BOTH.into_iter().find(|s| s.as_str() == name.trim())
    }
}

/// A contest's shape: a series or a tie-break match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Format {
    /// `series:N`: N games of one variant, points summed by player.
    Series {
        /// The games.
        games: u32,
    },
    /// `tiebreak-match:N[,cap=K]`: N games of `dynamic`, then up to
    /// `cap` games of `tiebraker` while the match is tied.
    TiebreakMatch {
        /// The regular games.
        games: u32,
        /// The most tie-break games.
        cap: u32,
    },
}

impl Format {
    /// The regular games (not counting tie-breaks).
    pub const fn games(self) -> u32 {
        match self {
            Format::Series { games } | Format::TiebreakMatch { games, .. } => games,
        }
    }

    /// The most games a contest of this format can take, tie-breaks
    /// included.
    pub const fn max_games(self) -> u32 {
        match self {
            Format::Series { games } => games,
            Format::TiebreakMatch { games, cap } => games + cap,
        }
    }

    /// The variant the format plays, when it fixes one: `dynamic` for a
    /// tie-break match (its tie-breaks are `tiebraker`).
    pub const fn fixed_variant(self) -> Option<Variant> {
        match self {
            Format::Series { .. } => None,
            Format::TiebreakMatch { .. } => Some(Variant::Dynamic),
        }
    }

    /// The format's kind as written: `series` or `tiebreak-match`.
    pub const fn kind(self) -> &'static str {
        match self {
            Format::Series { .. } => "series",
            Format::TiebreakMatch { .. } => "tiebreak-match",
        }
    }
}

impl fmt::Display for Format {
    /// `series:4`, `tiebreak-match:2` (the default cap), or
    /// `tiebreak-match:2,cap=6`: text that [`Format::from_str`] reads back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Format::Series { games } => write!(f, "series:{games}"),
            Format::TiebreakMatch { games, cap } if cap == DEFAULT_CAP => {
                write!(f, "tiebreak-match:{games}")
            }
            Format::TiebreakMatch { games, cap } => write!(f, "tiebreak-match:{games},cap={cap}"),
        }
    }
}

impl FromStr for Format {
    type Err = String;

    /// Reads `series:N` or `tiebreak-match:N[,cap=K]`, N from 1 to
    /// [`MAX_GAMES`], K from 0 to [`MAX_CAP`].
    fn from_str(text: &str) -> Result<Format, String> {
        let shown = crate::text::printable(text.trim());
        let expected = "expected series:N or tiebreak-match:N[,cap=K], like series:4";
        let (kind, rest) = text
            .trim()
            .split_once(':')
            .ok_or_else(|| format!("format '{shown}': {expected}"))?;
        let mut parts = rest.split(',');
        let n = parts.next().unwrap_or_default().trim();
        let games = whole(n, 1, MAX_GAMES)
            .map_err(|why| format!("format '{shown}': the number of games {why}"))?;
        let mut cap = None;
        for part in parts {
            match part.trim().split_once('=') {
                Some(("cap", v)) if kind.trim() == "tiebreak-match" && cap.is_none() => {
                    cap = Some(
                        whole(v.trim(), 0, MAX_CAP)
                            .map_err(|why| format!("format '{shown}': the cap {why}"))?,
                    );
                }
                _ => {
                    return Err(format!(
                        "format '{shown}': '{}' is not a setting of {} (a tie-break match takes cap=K)",
                        crate::text::printable(part.trim()),
                        kind.trim()
                    ));
                }
            }
        }
        match kind.trim() {
            "series" => Ok(Format::Series { games }),
            "tiebreak-match" => Ok(Format::TiebreakMatch {
                games,
                cap: cap.unwrap_or(DEFAULT_CAP),
            }),
            _ => Err(format!("format '{shown}': {expected}")),
        }
    }
}

/// A whole number in `low..=high`, or why not.
fn whole(text: &str, low: u32, high: u32) -> Result<u32, String> {
    match text.parse::<u64>() {
        Ok(n) if (u64::from(low)..=u64::from(high)).contains(&n) => Ok(n as u32),
        Ok(_) => Err(format!("must be {low} to {high}")),
        Err(_) => Err(format!(
            "'{}' is not a whole number",
            crate::text::printable(text)
        )),
    }
}

/// Reads and writes a [`Variant`] by its id.
mod variant_id {
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::rules::Variant;

    pub fn serialize<S: Serializer>(v: &Variant, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(v.id())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Variant, D::Error> {
        let id = String::deserialize(d)?;
        Variant::from_id(&id).map_err(serde::de::Error::custom)
    }
}

/// Reads and writes a game's points: a number, within the referee's
/// range ([`Points::in_reported_range`]).
mod game_points {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::scoring::Points;

    pub fn serialize<S: Serializer>(p: &[Points; 2], s: S) -> Result<S::Ok, S::Error> {
        p.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[Points; 2], D::Error> {
        let [a, b] = <[f64; 2]>::deserialize(d)?;
        let one = |x: f64| {
            Points::from_f64(x)
                .filter(|p| Points::in_reported_range(i128::from(p.milli())))
                .ok_or_else(|| serde::de::Error::custom(format!("{x} is not a game's points")))
        };
        Ok([one(a)?, one(b)?])
    }
}

/// A contest's rules: its format, its variant and the two switches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rules {
    /// Series or tie-break match, and how many games.
    pub format: Format,
    /// The variant of the games (of the regular games in a tie-break
    /// match, which is `dynamic`).
    #[serde(with = "variant_id")]
    pub variant: Variant,
    /// Whether a resignation ends the contest, the resigning player
    /// losing it whatever the sums.
    pub resignation_ends: bool,
    /// In `sets`, who chose colour for game 1 (the other player holds the
    /// draw advantage in every game); `None`: nobody holds it.
    pub chooser: Option<Seat>,
}

impl Rules {
    /// The rules of `format` in `variant` with the defaults: a
    /// resignation ends the contest in stylish only, and the first player
    /// chooses colour (White), so the second holds the sets draw
    /// advantage.
    ///
    /// # Errors
    ///
    /// A tie-break match in another variant than `dynamic`.
    pub fn new(format: Format, variant: Variant) -> Result<Rules, String> {
        let rules = Rules {
            format,
            variant,
            resignation_ends: crate::referee::resignation_loses(variant),
            chooser: Some(Seat::First),
        };
        rules.check()?;
        Ok(rules)
    }

    /// Checks rules built by hand or read back: the format's numbers in
    /// range, a tie-break match in `dynamic`.
    ///
    /// # Errors
    ///
    /// A one-line message.
    pub fn check(&self) -> Result<(), String> {
        let n = self.format.games();
        if !(1..=MAX_GAMES).contains(&n) {
            return Err(format!("a contest has 1 to {MAX_GAMES} games (not {n})"));
        }
        if let Format::TiebreakMatch { cap, .. } = self.format
            && cap > MAX_CAP
        {
            return Err(format!(
                "a tie-break match allows 0 to {MAX_CAP} tie-breaks (not {cap})"
            ));
        }
        if let Some(v) = self.format.fixed_variant()
            && v != self.variant
        {
            return Err(format!(
                "a {} plays {v} (its tie-breaks {}), not {}",
                self.format.kind(),
                Variant::Tiebraker,
                self.variant
            ));
        }
        Ok(())
    }

    /// Who holds the sets draw advantage: the player who did not choose
    /// colour; `None` outside `sets` or without a chooser.
    pub fn draw_advantage(&self) -> Option<Seat> {
        (self.variant == Variant::Sets)
            .then_some(self.chooser)
            .flatten()
            .map(Seat::other)
    }

    /// The draw advantage by colour in a game where `white` has White:
    /// the holder's colour ([`Rules::draw_advantage`]), or none. What the
    /// referee's scorer and the engines are set to for that game.
    pub fn draw_advantage_in(&self, white: Seat) -> DrawAdvantage {
        match self.draw_advantage() {
            Some(holder) if holder == white => DrawAdvantage::White,
            Some(_) => DrawAdvantage::Black,
            None => DrawAdvantage::None,
        }
    }

    /// The rules in one line, every setting named: `series:4 stylish,
    /// resignation ends it` (and the chooser in sets).
    pub fn describe(&self) -> String {
        let mut text = format!("{} {}", self.format, self.variant);
        text.push_str(if self.resignation_ends {
            ", resignation ends it"
        } else {
            ", resignation scored"
        });
        if self.variant == Variant::Sets {
            text.push_str(&match self.chooser {
                Some(s) => format!(", {s} player chose colour"),
                None => ", no draw advantage".to_owned(),
            });
        }
        text
    }
}

/// Reads an on/off switch: `on`, `off` (also `true`/`false`,
/// `yes`/`no`), any case; `None` for anything else.
pub fn switch(word: &str) -> Option<bool> {
    match word.trim().to_ascii_lowercase().as_str() {
        "on" | "true" | "yes" => Some(true),
        "off" | "false" | "no" => Some(false),
        _ => None,
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The next game of a contest: what to set up before playing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct NextGame {
    /// Its number in the contest, from 1.
    pub number: u32,
    /// Its variant (`tiebraker` for a tie-break game).
    #[serde(with = "variant_id")]
    pub variant: Variant,
    /// Who has White.
    pub white: Seat,
    /// Whether it is a tie-break game.
    pub tiebreak: bool,
    /// Whether special actions are on (the disk of a tie-break game);
    /// otherwise as the players choose.
    pub specials: bool,
    /// In `sets`, the player who holds the draw advantage.
    pub draw_advantage: Option<Seat>,
    /// The draw advantage by colour, for the game's scorer and engines
    /// ([`Rules::draw_advantage_in`]).
    #[serde(skip)]
    pub draw_advantage_colour: DrawAdvantage,
}

/// A finished game as a contest is told it: who had White, the referee's
/// totals by colour, and how it ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// Who had White.
    pub white: Seat,
    /// White's total.
    pub white_points: Points,
    /// Black's total.
    pub black_points: Points,
    /// The ending's kind; `None` for a game stopped unfinished (scored as
    /// it stands).
    pub ending: Option<EndingKind>,
    /// The colour that resigned (or lost on time, or forfeited), when the
    /// game ended so.
    pub resigned: Option<Color>,
}

impl GameResult {
    /// The result of a scored game in which `white` had White: the
    /// referee's totals and ending, a resignation (or loss on time) by
    /// the side that did not win.
    pub fn of_record(record: &ScoreRecord, white: Seat) -> GameResult {
        GameResult {
            white,
            white_points: record.total.white,
            black_points: record.total.black,
            ending: record.ending_kind(),
            resigned: match record.ending {
                Some(Ending::Resignation { winner }) => Some(!winner),
                _ => None,
            },
        }
    }
}

/// A game on a contest's record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayedGame {
    /// Its number in the contest, from 1.
    pub number: u32,
    /// Its variant.
    #[serde(with = "variant_id")]
    pub variant: Variant,
    /// Whether it was a tie-break game.
    pub tiebreak: bool,
    /// Who had White.
    pub white: Seat,
    /// Each player's points in it, by seat (first, second).
    #[serde(with = "game_points")]
    pub points: [Points; 2],
    /// How it ended; `None` for a game stopped unfinished.
    pub ending: Option<EndingKind>,
    /// The player who resigned (lost on time, forfeited), if one did.
    pub resigned: Option<Seat>,
}

impl PlayedGame {
    /// The player with more points in it; `None` for equal points.
    pub fn winner(&self) -> Option<Seat> {
        let [a, b] = self.points;
        match a.cmp(&b) {
            std::cmp::Ordering::Greater => Some(Seat::First),
            std::cmp::Ordering::Less => Some(Seat::Second),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// The seat with `color` in this game.
    pub fn seat_of(&self, color: Color) -> Seat {
        if color.is_white() {
            self.white
        } else {
            self.white.other()
        }
    }
}

/// Why a contest was won (or tied).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Why {
    /// The sums decided (or were equal).
    Points,
    /// A resignation ended the contest; the resigning player lost.
    Resignation,
    /// The regular games tied; a tie-break game decided (or the cap was
    /// played with the match still tied).
    Tiebreak,
}

impl Why {
    /// The reason's name: `points`, `resignation` or `tiebreak`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Why::Points => "points",
            Why::Resignation => "resignation",
            Why::Tiebreak => "tiebreak",
        }
    }
}

impl fmt::Display for Why {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How a finished contest came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decision {
    /// The winner; `None` for a tied contest.
    pub winner: Option<Seat>,
    /// Why.
    pub why: Why,
}

/// Where a contest stands: the sums, the games won and tied, and, once it
/// is over, the decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Standing {
    /// Games played.
    pub games: u32,
    /// Each player's points summed over the games, by seat.
    pub totals: [Points; 2],
    /// Games each player won on points, by seat (a player's losses are
    /// the other's wins).
    pub won: [u32; 2],
    /// Games with equal points.
    pub tied: u32,
    /// Tie-break games played.
    pub tiebreaks: u32,
    /// The decision, once the contest is over.
    pub decision: Option<Decision>,
}

impl Standing {
    /// The player ahead on points; `None` when level.
    pub fn leader(&self) -> Option<Seat> {
        let [a, b] = self.totals;
        match a.cmp(&b) {
            std::cmp::Ordering::Greater => Some(Seat::First),
            std::cmp::Ordering::Less => Some(Seat::Second),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// Games `seat` lost on points.
    pub fn lost(&self, seat: Seat) -> u32 {
        self.won[seat.other().index()]
    }
}

/// Why a game could not be recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ContestError {
    /// The contest is over: no game comes next.
    Over {
        /// The games it took.
        games: u32,
    },
    /// A game's points are beyond the referee's range.
    Points,
    /// A resignation recorded on a game whose ending is not one.
    Resignation,
    /// Rules that do not hold ([`Rules::check`]).
    Rules(String),
    /// A saved game that does not follow the game before it.
    Record(String),
}

impl fmt::Display for ContestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ContestError::Over { games } => {
                write!(f, "the contest is over after {games} games")
            }
            ContestError::Points => f.write_str("a game's points are beyond 10^15"),
            ContestError::Resignation => f.write_str(
                "a resignation is recorded on a game that did not end by resignation or on time",
            ),
            ContestError::Rules(why) | ContestError::Record(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for ContestError {}

/// A contest: its rules and the games played so far.
///
/// Serialised as its rules and games; read back, the games are recorded
/// again one by one ([`Contest::record`]), so a record that breaks the
/// rules is refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Saved")]
pub struct Contest {
    rules: Rules,
    games: Vec<PlayedGame>,
}

/// A contest as saved, before it is replayed.
#[derive(Deserialize)]
struct Saved {
    rules: Rules,
    games: Vec<PlayedGame>,
}

impl TryFrom<Saved> for Contest {
    type Error = ContestError;

    fn try_from(saved: Saved) -> Result<Contest, ContestError> {
        let mut contest = Contest::new(saved.rules)?;
        for g in saved.games {
            let Some(next) = contest.next() else {
                return Err(ContestError::Over {
                    games: contest.games.len() as u32,
                });
            };
            if (g.number, g.variant, g.tiebreak) != (next.number, next.variant, next.tiebreak) {
                return Err(ContestError::Record(format!(
                    "saved game {} ({}{}) is not the contest's game {} ({}{})",
                    g.number,
                    g.variant,
                    if g.tiebreak { ", tie-break" } else { "" },
                    next.number,
                    next.variant,
                    if next.tiebreak { ", tie-break" } else { "" },
                )));
            }
            let colour = |seat: Seat| {
                if seat == g.white {
                    Color::White
                } else {
                    Color::Black
                }
            };
            contest.record(GameResult {
                white: g.white,
                white_points: g.points[g.white.index()],
                black_points: g.points[g.white.other().index()],
                ending: g.ending,
                resigned: g.resigned.map(colour),
            })?;
        }
        Ok(contest)
    }
}

impl Contest {
    /// A contest under `rules`, no game played.
    ///
    /// # Errors
    ///
    /// Rules that do not hold ([`Rules::check`]).
    pub fn new(rules: Rules) -> Result<Contest, ContestError> {
        rules.check().map_err(ContestError::Rules)?;
        Ok(Contest {
            rules,
            games: Vec::new(),
        })
    }

    /// A contest under `rules` with `results` recorded in order.
    ///
    /// # Errors
    ///
    /// As [`Contest::new`] and [`Contest::record`].
    pub fn with_games(
        rules: Rules,
        results: impl IntoIterator<Item = GameResult>,
    ) -> Result<Contest, ContestError> {
        let mut contest = Contest::new(rules)?;
        for r in results {
            contest.record(r)?;
        }
        Ok(contest)
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The games recorded, in order.
    pub fn games(&self) -> &[PlayedGame] {
        &self.games
    }

    /// The next game, or `None` once the contest is over.
    pub fn next(&self) -> Option<NextGame> {
        if self.decision().is_some() {
            return None;
        }
        let number = self.games.len() as u32 + 1;
        let tiebreak = number > self.rules.format.games();
        let white = Seat::white_in(number);
        Some(NextGame {
            number,
            variant: if tiebreak {
                Variant::Tiebraker
            } else {
                self.rules.variant
            },
            white,
            tiebreak,
            specials: tiebreak,
            draw_advantage: self.rules.draw_advantage(),
            draw_advantage_colour: self.rules.draw_advantage_in(white),
        })
    }

    /// Whether the contest is over.
    pub fn is_over(&self) -> bool {
        self.decision().is_some()
    }

    /// Records the next game's result.
    ///
    /// # Errors
    ///
    /// The contest is over, a total is beyond the referee's range, or a
    /// resignation is recorded on a game that ended otherwise.
    pub fn record(&mut self, result: GameResult) -> Result<&PlayedGame, ContestError> {
        let next = self.next().ok_or(ContestError::Over {
            games: self.games.len() as u32,
        })?;
        let in_range = |p: Points| Points::in_reported_range(i128::from(p.milli()));
        if !in_range(result.white_points) || !in_range(result.black_points) {
            return Err(ContestError::Points);
        }
        let resigned_ending = matches!(
            result.ending,
            Some(EndingKind::Resignation | EndingKind::TimeForfeit)
        );
        if result.resigned.is_some() != resigned_ending {
            return Err(ContestError::Resignation);
        }
        let mut points = [Points::ZERO; 2];
        points[result.white.index()] = result.white_points;
        points[result.white.other().index()] = result.black_points;
        let white = result.white;
        self.games.push(PlayedGame {
            number: next.number,
            variant: next.variant,
            tiebreak: next.tiebreak,
            white,
            points,
            ending: result.ending,
            resigned: result
                .resigned
                .map(|c| if c.is_white() { white } else { white.other() }),
        });
        Ok(&self.games[self.games.len() - 1])
    }

    /// The sums and counts so far, with the decision once over.
    pub fn standing(&self) -> Standing {
        let mut s = Standing {
            games: self.games.len() as u32,
            totals: [Points::ZERO; 2],
            won: [0; 2],
            tied: 0,
            tiebreaks: 0,
            decision: self.decision(),
        };
        for g in &self.games {
            s.totals[0] += g.points[0];
            s.totals[1] += g.points[1];
            match g.winner() {
                Some(w) => s.won[w.index()] += 1,
                None => s.tied += 1,
            }
            s.tiebreaks += u32::from(g.tiebreak);
        }
        s
    }

    /// The decision, once the contest is over (see the module docs).
    pub fn decision(&self) -> Option<Decision> {
        if self.rules.resignation_ends
            && let Some(loser) = self.games.iter().find_map(|g| g.resigned)
        {
            return Some(Decision {
                winner: Some(loser.other()),
                why: Why::Resignation,
            });
        }
        let played = self.games.len() as u32;
        let regular = self.rules.format.games();
        if played < regular {
            return None;
        }
        let mut totals = [Points::ZERO; 2];
        for g in &self.games {
            totals[0] += g.points[0];
            totals[1] += g.points[1];
        }
        let leader = match totals[0].cmp(&totals[1]) {
            std::cmp::Ordering::Greater => Some(Seat::First),
            std::cmp::Ordering::Less => Some(Seat::Second),
            std::cmp::Ordering::Equal => None,
        };
        match self.rules.format {
            Format::Series { .. } => Some(Decision {
                winner: leader,
                why: Why::Points,
            }),
            Format::TiebreakMatch { cap, .. } => {
                if played == regular && leader.is_some() {
                    Some(Decision {
                        winner: leader,
                        why: Why::Points,
                    })
                } else if leader.is_some() || played >= regular + cap {
                    let why = if played == regular {
                        Why::Points
                    } else {
                        Why::Tiebreak
                    };
                    Some(Decision {
                        winner: leader,
                        why,
                    })
                } else {
                    None
                }
            }
        }
    }
}

pub mod pgn;

#[cfg(test)]
mod tests;
