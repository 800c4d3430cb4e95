//! `sets`: the points of each ending, to one player (the other gets 0),
//! from its [`Table`] (the `[sets]` section of the [`Tables`]).

use serde::{Deserialize, Serialize};

use super::{End, VariantScoring, outranks, to};
use crate::rules::{Ending, RepetitionKind};
use crate::scoring::dump::{Key, key};
use crate::scoring::outcome::ending_event;
use crate::scoring::tables::largest;
use crate::scoring::{Award, Event, Points, Tables};

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

/// `sets` (docs/rules.md, `sets`).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
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
        }
    }
}

impl Table {
    /// The largest margin an ending pays (each pays one side only).
    pub fn end_bound(&self) -> Points {
        largest([
            self.mate,
            self.resignation,
            self.bare_king,
            self.mutual_bare,
            self.stalemate,
            self.draw,
            self.perpetual_check,
            self.mutual_perpetual_check,
            self.repetition,
        ])
    }
}

impl VariantScoring for Sets {
    fn outcome_award(&self, t: &Tables, end: &End) -> Award {
        let (ending, draw) = (end.ending, end.draw);
        let t = &t.sets;
        let z = Points::ZERO;
        let ev = ending_event(ending);
        match *ending {
            Ending::Checkmate { winner } => to(winner, [t.mate, z], ev),
            Ending::Resignation { winner } => to(winner, [t.resignation, z], ev),
            Ending::Claim { claimer } => to(claimer, [t.bare_king, z], ev),
            Ending::MutualBare { first } => to(first, [t.mutual_bare, z], ev),
            Ending::Stalemate { stalemated } => to(!stalemated, [t.stalemate, z], ev),
            Ending::Repetition(r) => match r.kind {
                RepetitionKind::Perpetual { by } => to(by, [t.perpetual_check, z], ev),
                RepetitionKind::Mutual { first_check } => {
                    to(first_check, [t.mutual_perpetual_check, z], ev)
                }
                RepetitionKind::Plain => to(!r.third_by, [t.repetition, z], ev),
            },
            Ending::MoveRule | Ending::InsufficientMaterial | Ending::Extinction { .. } => {
                match draw.color() {
                    Some(a) => to(a, [t.draw, z], Event::Draw),
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
    /// only).
    fn decisive_band(&self, t: &Tables) -> bool {
        let s = &t.sets;
        let others = [
            s.bare_king,
            s.mutual_bare,
            s.stalemate,
            s.draw,
            s.perpetual_check,
            s.mutual_perpetual_check,
            s.repetition,
        ];
        outranks(s.mate, others.map(Points::abs))
    }

    fn keys(&self) -> &'static [Key] {
        KEYS
    }

    fn about(&self) -> &'static str {
        "sets: the points of each ending; the other player gets 0"
    }

    /// A hundredth of a point: a GUI's `+1.00` is 1 point (a mate: `+2.00`).
    fn milli_per_cp(&self) -> Option<i64> {
        Some(10)
    }
}
