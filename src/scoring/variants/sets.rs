//! `sets`: the points of each ending, to one player (the other gets 0),
//! from its [`Table`] (the `[sets]` section of the [`Tables`]), and the
//! handicap: the values that pay the weaker player ([`Handicap`], the
//! `[sets.handicap]` section), and the handicap table that gives them for
//! a gap of D Elo below a weaker player's rating ([`HANDICAP_TABLE`],
//! [`Handicap::for_gap`]).

use std::fmt;

use serde::{Deserialize, Serialize};
use shakmaty::Color;

use super::{End, VariantScoring, outranks, to};

use crate::rules::{Ending, RepetitionKind};
use crate::scoring::dump::{Key, key};
use crate::scoring::outcome::ending_event;
use crate::scoring::tables::largest;
use crate::scoring::{Award, DrawAdvantage, Event, Points, Tables};

/// The field of `$s` that holds the value `$v` (a [`Table`]'s or a
/// [`Handicap`]'s: both name the nine values alike), read, or borrowed with
/// `&mut` after a `;`.
macro_rules! value_field {
    ($s:expr, $v:expr) => {
        value_field!($s, $v;)
    };
    ($s:expr, $v:expr; $($r:tt)*) => {
        match $v {
            Value::Mate => $($r)* $s.mate,
            Value::Resignation => $($r)* $s.resignation,
            Value::BareKing => $($r)* $s.bare_king,
            Value::MutualBare => $($r)* $s.mutual_bare,
            Value::Stalemate => $($r)* $s.stalemate,
            Value::Draw => $($r)* $s.draw,
            Value::PerpetualCheck => $($r)* $s.perpetual_check,
            Value::MutualPerpetualCheck => $($r)* $s.mutual_perpetual_check,
            Value::Repetition => $($r)* $s.repetition,
        }
    };
}

/// The sets scoring.
#[derive(Clone, Copy, Debug)]
pub struct Sets;

const KEYS: &[Key] = &[
    key("mate", "checkmate, to the mating player"),
    key(
        "resignation",
        "resignation or loss on time, to the opponent",
    ),
    key("bare_king", "a claimed bare king, to the barer"),
    key("mutual_bare", "mutual bare kings, to the first barer"),
    key("stalemate", "stalemate, to the stalemating player"),
    key(
        "draw",
        "any other draw (30-move rule, insufficient material), to the draw-advantage player (--draw-advantage, UCI DrawAdvantage)",
    ),
    key("perpetual_check", "perpetual check, to the checking side"),
    key(
        "mutual_perpetual_check",
        "mutual perpetual check, to the side that gave the first check",
    ),
    key(
        "repetition",
        "threefold repetition without perpetual check, to the opponent of the side that made the third occurrence",
    ),
];

/// The keys of `[sets.handicap]`, written when the table has one.
const HANDICAP_KEYS: &[Key] = &[
    key(
        "handicap.side",
        "the handicapped (weaker) player's colour, white or black: the values below pay it in place of those above, and it holds the draw advantage (a match or a game in tally serve sets the colour for each game)",
    ),
    key("handicap.mate", "checkmate, to the weaker player"),
    key(
        "handicap.resignation",
        "resignation or loss on time, to the weaker player",
    ),
    key(
        "handicap.bare_king",
        "a claimed bare king, to the weaker player",
    ),
    key(
        "handicap.mutual_bare",
        "mutual bare kings, to the weaker player as the first barer",
    ),
    key("handicap.stalemate", "stalemate, to the weaker player"),
    key(
        "handicap.draw",
        "any other draw, to the weaker player (it holds the draw advantage)",
    ),
    key(
        "handicap.perpetual_check",
        "perpetual check, to the weaker player",
    ),
    key(
        "handicap.mutual_perpetual_check",
        "mutual perpetual check, to the weaker player as the first checker",
    ),
    key(
        "handicap.repetition",
        "threefold repetition without perpetual check, to the weaker player",
    ),
];

/// `sets` (docs/rules.md, `sets`).
#[derive(Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Table {
    /// Checkmate, to the mating player.
    pub mate: Points,
    /// Resignation, to the opponent.
    pub resignation: Points,
    /// A claimed bare king, to the barer.
    pub bare_king: Points,
    /// Mutual bare kings, to the first barer.
    pub mutual_bare: Points,
    /// Stalemate, to the stalemating player.
    pub stalemate: Points,
    /// Other draws and the 30-move rule, to the draw-advantage player.
    pub draw: Points,
    /// Perpetual check, to the checking side.
    pub perpetual_check: Points,
    /// Mutual perpetual check, to the side that gave the first check.
    pub mutual_perpetual_check: Points,
    /// Plain threefold repetition, to the opponent of the side that made
    /// the third occurrence.
    pub repetition: Points,
    /// The handicap, if any: the values that pay the weaker player.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub handicap: Option<Handicap>,
}

/// Written as derived, but without the handicap while there is none: the
/// digest of a match's tables (its results file's header) reads this, so
/// a table without a handicap keeps the digest it always had.
impl fmt::Debug for Table {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("Table");
        d.field("mate", &self.mate)
            .field("resignation", &self.resignation)
            .field("bare_king", &self.bare_king)
            .field("mutual_bare", &self.mutual_bare)
            .field("stalemate", &self.stalemate)
            .field("draw", &self.draw)
            .field("perpetual_check", &self.perpetual_check)
            .field("mutual_perpetual_check", &self.mutual_perpetual_check)
            .field("repetition", &self.repetition);
        if let Some(h) = &self.handicap {
            d.field("handicap", h);
        }
        d.finish()
    }
}

impl Default for Table {
    fn default() -> Table {
        Table {
            mate: Points::whole(2),
            resignation: Points::whole(2),
            bare_king: Points::whole(1),
            mutual_bare: Points::HALF,
            stalemate: Points::whole(1),
            draw: Points::HALF,
            perpetual_check: Points::whole(1),
            mutual_perpetual_check: Points::HALF,
            repetition: Points::HALF,
            handicap: None,
        }
    }
}

impl Table {
    /// The value of `v` in the table itself (what pays a player who is
    /// not handicapped).
    pub fn base(&self, v: Value) -> Points {
        value_field!(self, v)
    }

    /// What `v` pays `to`: the handicap's value when `to` is the
    /// handicapped side and the handicap sets it, else the table's.
    #[inline]
    pub fn paid_to(&self, v: Value, to: Color) -> Points {
        match &self.handicap {
            Some(h) if h.side == to => h.get(v).unwrap_or_else(|| self.base(v)),
            _ => self.base(v),
        }
    }

    /// Who a plain draw pays: the handicapped side under a handicap (the
    /// weaker player holds the draw advantage), else `a`'s colour.
    #[inline]
    pub fn draw_holder(&self, a: DrawAdvantage) -> Option<Color> {
        match &self.handicap {
            Some(h) => Some(h.side),
            None => a.color(),
        }
    }

    /// The table with the handicap, if any, given to `side` (a match and
    /// a served game give it to the weaker player's colour in each game).
    #[must_use]
    pub fn with_handicap_side(&self, side: Color) -> Table {
        let mut t = self.clone();
        if let Some(h) = &mut t.handicap {
            h.side = side;
        }
        t
    }

    /// Every value either side can be paid (the table's and the
    /// handicap's).
    fn all_values(&self) -> impl Iterator<Item = Points> + '_ {
        Value::ALL
            .into_iter()
            .flat_map(move |v| [Color::White, Color::Black].map(|c| self.paid_to(v, c)))
    }

    /// The largest margin an ending pays (each pays one side only).
    pub fn end_bound(&self) -> Points {
        largest(self.all_values())
    }

    /// Whether the handicap fits the table: it raises the weaker side's
    /// values (none below the table's), and no ending pays the weaker side
    /// more than its mate.
    ///
    /// # Errors
    ///
    /// A message naming the key and both values.
    pub fn check_handicap(&self) -> Result<(), String> {
        let Some(h) = &self.handicap else {
            return Ok(());
        };
        let mate = self.paid_to(Value::Mate, h.side);
        for v in Value::ALL {
            let Some(x) = h.get(v) else { continue };
            let base = self.base(v);
            if x < base {
                return Err(format!(
                    "sets.handicap.{name} = {x} is below sets.{name} = {base}: a handicap raises the weaker player's values",
                    name = v.name()
                ));
            }
            if v != Value::Mate && v != Value::Resignation && x > mate {
                return Err(format!(
                    "sets.handicap.{name} = {x} is above the weaker player's mate ({mate}): no ending may pay it more than a mate",
                    name = v.name()
                ));
            }
        }
        Ok(())
    }
}

/// One value of the sets table (a key of `[sets]` and of
/// `[sets.handicap]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// `mate`.
    Mate,
    /// `resignation`.
    Resignation,
    /// `bare_king`.
    BareKing,
    /// `mutual_bare`.
    MutualBare,
    /// `stalemate`.
    Stalemate,
    /// `draw`.
    Draw,
    /// `perpetual_check`.
    PerpetualCheck,
    /// `mutual_perpetual_check`.
    MutualPerpetualCheck,
    /// `repetition`.
    Repetition,
}

impl Value {
    /// Every value, in the order of the table.
    pub const ALL: [Value; 9] = [
        Value::Mate,
        Value::Resignation,
        Value::BareKing,
        Value::MutualBare,
        Value::Stalemate,
        Value::Draw,
        Value::PerpetualCheck,
        Value::MutualPerpetualCheck,
        Value::Repetition,
    ];

    /// The key's name.
    pub const fn name(self) -> &'static str {
        match self {
            Value::Mate => "mate",
            Value::Resignation => "resignation",
            Value::BareKing => "bare_king",
            Value::MutualBare => "mutual_bare",
            Value::Stalemate => "stalemate",
            Value::Draw => "draw",
            Value::PerpetualCheck => "perpetual_check",
            Value::MutualPerpetualCheck => "mutual_perpetual_check",
            Value::Repetition => "repetition",
        }
    }
}

/// A colour as a rules file writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
enum Side {
    White,
    Black,
}

fn side_de<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Color, D::Error> {
    Ok(match Side::deserialize(d)? {
        Side::White => Color::White,
        Side::Black => Color::Black,
    })
}

fn side_ser<S: serde::Serializer>(c: &Color, s: S) -> Result<S::Ok, S::Error> {
    match c {
        Color::White => Side::White,
        Color::Black => Side::Black,
    }
    .serialize(s)
}

/// `[sets.handicap]`: the weaker player's colour and the values that pay
/// it in place of the table's (a key left out pays what the table pays).
/// The weaker player holds the draw advantage.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Handicap {
    /// The handicapped (weaker) player's colour.
    #[serde(deserialize_with = "side_de", serialize_with = "side_ser")]
    pub side: Color,
    /// Checkmate, to the weaker player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mate: Option<Points>,
    /// Resignation, to the weaker player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resignation: Option<Points>,
    /// A claimed bare king, to the weaker player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bare_king: Option<Points>,
    /// Mutual bare kings, to the weaker player as the first barer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mutual_bare: Option<Points>,
    /// Stalemate, to the weaker player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stalemate: Option<Points>,
    /// Other draws, to the weaker player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw: Option<Points>,
    /// Perpetual check, to the weaker player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub perpetual_check: Option<Points>,
    /// Mutual perpetual check, to the weaker player as the first checker.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mutual_perpetual_check: Option<Points>,
    /// Plain repetition, to the weaker player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repetition: Option<Points>,
}

/// A handicap asked for by two ratings (`UCI_Elo`): the gap between the
/// players and the weaker player's own rating. The factor depends on both:
/// the same gap costs a weak player more than a stronger one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandicapGap {
    /// The gap between the players' ratings, in Elo.
    pub gap: u32,
    /// The weaker player's rating.
    pub weaker_elo: u32,
}

impl fmt::Display for HandicapGap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a gap of {} Elo below a weaker player at {}",
            self.gap, self.weaker_elo
        )
    }
}

/// One row of a level of the handicap table: a gap in `UCI_Elo` and the
/// factor that multiplies every value paid to the weaker player at that
/// gap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandicapRow {
    /// The gap between the players' ratings, in Elo.
    pub gap: u32,
    /// The weaker player's factor, in thousandths (1000: the table's own
    /// values).
    pub factor_milli: i64,
}

/// One level of the handicap table: the weaker player's rating and the
/// factor of each gap, fitted at that rating.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandicapLevel {
    /// The weaker player's rating (`UCI_Elo`) of the fit.
    pub weaker_elo: u32,
    /// The factor by gap, from a gap of 0 (factor 1) up.
    pub rows: &'static [HandicapRow],
}

const fn row(gap: u32, factor_milli: i64) -> HandicapRow {
    HandicapRow { gap, factor_milli }
}

/// The handicap table: the factor of the weaker player's values by the
/// weaker player's rating and the gap, each level fitted to matches
/// between Tally's strength levels and confirmed by fresh ones
/// (docs/experiments.md, question 1; docs/rules.md, sets, Handicap). At
/// 1000: 3.5 to the power D / 200 up to 400, and at 600 no more than at
/// 400; at 1400: 2.2 at 200 and 3.2 at 400. Wider gaps (600 at 1400, 800
/// at 1000) were not evened by any factor tried, and have no row.
///
/// Within a level the factor is interpolated geometrically between two
/// gaps; between two levels, geometrically by the weaker player's rating
/// (the ln of the factor linear in the rating); a weaker player below the
/// first level takes the first level's factors and one above the last the
/// last's. A gap beyond a level's last row has no handicap.
pub const HANDICAP_TABLE: &[HandicapLevel] = &[
    HandicapLevel {
        weaker_elo: 1000,
        rows: &[
            row(0, 1000),
            row(200, 3500),
            row(400, 12250),
            row(600, 12250),
        ],
    },
    HandicapLevel {
        weaker_elo: 1400,
        rows: &[row(0, 1000), row(200, 2200), row(400, 3200)],
    },
];

impl HandicapLevel {
    /// The widest gap this level has a factor for.
    fn reach(&self) -> u32 {
        self.rows[self.rows.len() - 1].gap
    }

    /// The factor of a gap of `gap` Elo (at most [`HandicapLevel::reach`])
    /// at this level, in thousandths: a row's own, or geometric between
    /// the rows around it (unrounded).
    fn factor(&self, gap: u32) -> f64 {
        let rows = self.rows;
        let i = rows
            .iter()
            .position(|r| r.gap >= gap)
            .unwrap_or(rows.len() - 1);
        let row = rows[i];
        if row.gap <= gap || i == 0 {
            return row.factor_milli as f64;
        }
        let below = rows[i - 1];
        let t = f64::from(gap - below.gap) / f64::from(row.gap - below.gap);
        log_between(below.factor_milli as f64, row.factor_milli as f64, t)
    }
}

/// The point `t` of the way from `a` to `b` on a log scale.
fn log_between(a: f64, b: f64, t: f64) -> f64 {
    (a.ln() + t * (b.ln() - a.ln())).exp()
}

/// The weaker player's factor for `g`, in thousandths, from
/// [`HANDICAP_TABLE`] (interpolated as it says, rounded to the
/// thousandth).
///
/// # Errors
///
/// A gap beyond the table's last row at the weaker player's level (at
/// either level around it).
pub fn handicap_factor(g: HandicapGap) -> Result<i64, String> {
    let table = HANDICAP_TABLE;
    let above = table
        .iter()
        .position(|l| l.weaker_elo >= g.weaker_elo)
        .unwrap_or(table.len() - 1);
    let level = table[above];
    // The level of the weaker player's rating, or the two around it.
    let below = if level.weaker_elo <= g.weaker_elo || above == 0 {
        level
    } else {
        table[above - 1]
    };
    let reach = below.reach().min(level.reach());
    if g.gap > reach {
        return Err(format!(
            "a handicap for a gap of {} Elo: for a weaker player at {} the handicap table goes up to {reach} Elo",
            g.gap, g.weaker_elo
        ));
    }
    if below == level {
        return Ok(level.factor(g.gap).round() as i64);
    }
    let t =
        f64::from(g.weaker_elo - below.weaker_elo) / f64::from(level.weaker_elo - below.weaker_elo);
    Ok(log_between(below.factor(g.gap), level.factor(g.gap), t).round() as i64)
}

/// `x` times `factor_milli` thousandths, to the nearest thousandth of a
/// point (halves away from zero).
fn scaled(x: Points, factor_milli: i64) -> Points {
    let p = i128::from(x.milli()) * i128::from(factor_milli);
    let r = if p >= 0 {
        (p + 500) / 1000
    } else {
        (p - 500) / 1000
    };
    Points::from_wide_milli(r)
}

impl Handicap {
    /// The handicap of `g` for the weaker player, with `side`, over
    /// `table`: every value paid to the weaker player is the table's times
    /// [`handicap_factor`] (a mate, a draw, ... all count that many times),
    /// and it holds the draw advantage.
    ///
    /// # Errors
    ///
    /// A gap beyond the handicap table.
    pub fn for_gap(g: HandicapGap, side: Color, table: &Table) -> Result<Handicap, String> {
        Ok(Handicap::with_factor(handicap_factor(g)?, side, table))
    }

    /// The handicap that multiplies every value of `table` paid to the
    /// weaker player, `side`, by `factor_milli` thousandths.
    pub fn with_factor(factor_milli: i64, side: Color, table: &Table) -> Handicap {
        let mut h = Handicap::new(side);
        for v in Value::ALL {
            h.set(v, scaled(table.base(v), factor_milli));
        }
        h
    }

    /// A handicap of `side` that sets no value (the draw advantage only).
    pub fn new(side: Color) -> Handicap {
        Handicap {
            side,
            mate: None,
            resignation: None,
            bare_king: None,
            mutual_bare: None,
            stalemate: None,
            draw: None,
            perpetual_check: None,
            mutual_perpetual_check: None,
            repetition: None,
        }
    }

    /// The value the handicap sets for `v`, if it sets one.
    pub fn get(&self, v: Value) -> Option<Points> {
        value_field!(self, v)
    }

    /// Sets the value of `v`.
    pub fn set(&mut self, v: Value, x: Points) {
        *value_field!(self, v; &mut) = Some(x);
    }
}

impl VariantScoring for Sets {
    fn outcome_award(&self, t: &Tables, end: &End) -> Award {
        let (ending, draw) = (end.ending, end.draw);
        let t = &t.sets;
        let z = Points::ZERO;
        let ev = ending_event(ending);
        // Each ending pays one side: `v`'s value for that side.
        let pay = |side: Color, v: Value, ev: Event| to(side, [t.paid_to(v, side), z], ev);
        match *ending {
            Ending::Checkmate { winner } => pay(winner, Value::Mate, ev),
            Ending::Resignation { winner } => pay(winner, Value::Resignation, ev),
            Ending::Claim { claimer } => pay(claimer, Value::BareKing, ev),
            Ending::MutualBare { first } => pay(first, Value::MutualBare, ev),
            Ending::Stalemate { stalemated } => pay(!stalemated, Value::Stalemate, ev),
            Ending::Repetition(r) => match r.kind {
                RepetitionKind::Perpetual { by } => pay(by, Value::PerpetualCheck, ev),
                RepetitionKind::Mutual { first_check } => {
                    pay(first_check, Value::MutualPerpetualCheck, ev)
                }
                RepetitionKind::Plain => pay(!r.third_by, Value::Repetition, ev),
            },
            Ending::MoveRule | Ending::InsufficientMaterial | Ending::Extinction { .. } => {
                match t.draw_holder(draw) {
                    Some(a) => pay(a, Value::Draw, Event::Draw),
                    None => Award::split(z, z, Event::Draw),
                }
            }
        }
    }

    fn end_bound(&self, t: &Tables) -> Points {
        t.sets.end_bound()
    }

    /// A tenth of a mate (0.2 with the defaults).
    fn pawn_scale(&self, t: &Tables) -> (Points, i64) {
        (t.sets.mate, 10)
    }

    /// When a mate pays more than any other ending (each pays one side
    /// only), to either side (under a handicap: the smaller mate above
    /// every other value of both sides).
    fn decisive_band(&self, t: &Tables) -> bool {
        let s = &t.sets;
        let sides = [Color::White, Color::Black];
        let others = [
            Value::BareKing,
            Value::MutualBare,
            Value::Stalemate,
            Value::Draw,
            Value::PerpetualCheck,
            Value::MutualPerpetualCheck,
            Value::Repetition,
        ];
        let mate = sides.map(|c| s.paid_to(Value::Mate, c)).into_iter().min();
        let largest_other = others
            .into_iter()
            .flat_map(|v| sides.map(|c| s.paid_to(v, c).abs()))
            .max()
            .unwrap_or(Points::ZERO);
        outranks(mate.unwrap_or(Points::ZERO), [largest_other])
    }

    fn keys(&self) -> &'static [Key] {
        KEYS
    }

    fn optional_keys(&self) -> &'static [Key] {
        HANDICAP_KEYS
    }

    fn about(&self) -> &'static str {
        "sets: the points of each ending; the other player gets 0"
    }

    /// A hundredth of a point: a GUI's `+1.00` is 1 point (a mate: `+2.00`).
    fn milli_per_cp(&self) -> Option<i64> {
        Some(10)
    }
}
