//! `dynamic`: 100-point splits of each ending, from its [`Table`] (the
//! `[dynamic]` section of the [`Tables`]); tiebraker scores by them before
//! a disk.

use serde::{Deserialize, Serialize};
use shakmaty::Color;

use super::{End, VariantScoring, gap, outranks, to};
use crate::rules::{Ending, RepetitionKind};
use crate::scoring::dump::{Key, key};
use crate::scoring::outcome::ending_event;
use crate::scoring::tables::{Split, exact, largest_margin, split};
use crate::scoring::{Award, Event, Points, Tables};

/// The dynamic scoring.
#[derive(Clone, Copy, Debug)]
pub struct Dynamic;

const KEYS: &[Key] = &[
    key("mate", "checkmate or resignation: [winner, loser]"),
    key(
        "stalemate",
        "stalemate: [stalemating player, stalemated player]",
    ),
    key(
        "perpetual_by_black",
        "perpetual check by Black: [black, white]",
    ),
    key(
        "perpetual_by_white",
        "perpetual check by White: [white, black]",
    ),
    key(
        "draw",
        "every other draw, mutual perpetual check included: [white, black]",
    ),
];

/// Dynamic's award for `ending`, named `ev` (tiebraker scores a
/// resignation as a mate and keeps its name).
pub(super) fn award(t: &Table, ending: &Ending, ev: Event) -> Award {
    match *ending {
        Ending::Checkmate { winner } | Ending::Resignation { winner } => to(winner, t.mate, ev),
        Ending::Stalemate { stalemated } => to(!stalemated, t.stalemate, ev),
        Ending::Repetition(r) => match r.kind {
            RepetitionKind::Perpetual { by: Color::Black } => {
                to(Color::Black, t.perpetual_by_black, ev)
            }
            RepetitionKind::Perpetual { by: Color::White } => {
                to(Color::White, t.perpetual_by_white, ev)
            }
            _ => to(Color::White, t.draw, ev),
        },
        // Extinction, claims and bare kings do not occur on these rules;
        // like every other ending they count as draws.
        _ => to(Color::White, t.draw, ev),
    }
}

/// Whether a mate outranks every other ending of the dynamic table (and
/// of tiebraker before a disk and in the swap window).
pub(super) fn band(t: &Table) -> bool {
    let others = [
        t.stalemate,
        t.perpetual_by_black,
        t.perpetual_by_white,
        t.draw,
    ];
    outranks(gap(t.mate), others.map(|s| gap(s).abs()))
}

/// `dynamic` (docs/rules.md, `dynamic`); each split is `[winner-ish side, other]` as
/// the key says.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Table {
    /// Checkmate: `[mating player, mated player]`.
    #[serde(deserialize_with = "exact")]
    pub mate: Split,
    /// Stalemate: `[stalemating player, stalemated player]`.
    #[serde(deserialize_with = "exact")]
    pub stalemate: Split,
    /// Perpetual check by Black: `[black, white]`.
    #[serde(deserialize_with = "exact")]
    pub perpetual_by_black: Split,
    /// Perpetual check by White: `[white, black]`.
    #[serde(deserialize_with = "exact")]
    pub perpetual_by_white: Split,
    /// Every other draw, mutual perpetual check included: `[white, black]`.
    #[serde(deserialize_with = "exact")]
    pub draw: Split,
}

impl Default for Table {
    fn default() -> Table {
        Table {
            mate: split(100, 0),
            stalemate: split(60, 40),
            perpetual_by_black: split(55, 45),
            perpetual_by_white: split(51, 49),
            draw: split(50, 50),
        }
    }
}

impl Table {
    /// The largest margin an ending pays.
    pub fn end_bound(&self) -> Points {
        largest_margin([
            &self.mate,
            &self.stalemate,
            &self.perpetual_by_black,
            &self.perpetual_by_white,
            &self.draw,
        ])
    }
}

impl VariantScoring for Dynamic {
    fn outcome_award(&self, t: &Tables, end: &End) -> Award {
        award(&t.dynamic, end.ending, ending_event(end.ending))
    }

    fn end_bound(&self, t: &Tables) -> Points {
        t.dynamic.end_bound()
    }

    /// A tenth of a mate's margin (10 with the defaults).
    fn pawn_scale(&self, t: &Tables) -> (Points, i64) {
        (gap(t.dynamic.mate), 10)
    }

    fn decisive_band(&self, t: &Tables) -> bool {
        band(&t.dynamic)
    }

    fn keys(&self) -> &'static [Key] {
        KEYS
    }

    fn about(&self) -> &'static str {
        "dynamic: 100-point splits"
    }

    /// A point: a GUI's `+1.00` is 100 points.
    fn milli_per_cp(&self) -> Option<i64> {
        Some(1000)
    }
}
