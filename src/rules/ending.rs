//! [`Ending`]: how a game ended, as a typed value the referee and the search
//! match on; [`EndingKind`]: its kind as output and results files name it.

use std::cmp::Ordering;
use std::fmt;

use serde::{Deserialize, Serialize};
use shakmaty::Color;

/// The classification of a threefold repetition (docs/rules.md, "When a
/// game ends").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RepetitionKind {
    /// Neither side checked on every one of its moves in the span.
    Plain,
    /// `by` checked on every one of its moves in the span; the other did not.
    Perpetual {
        /// The checking side.
        by: Color,
    },
    /// Both sides checked on every move of the span.
    Mutual {
        /// The side that gave the first check of the span.
        first_check: Color,
    },
}

/// A threefold repetition: its kind and who made the third occurrence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Repetition {
    /// Plain, perpetual or mutual perpetual check.
    pub kind: RepetitionKind,
    /// The side whose action made the third occurrence.
    pub third_by: Color,
    /// Whether a search projected it from a cycle of its own positions
    /// repeated once, rather than found the full threefold
    /// ([`find_repetition_after`](crate::rules::find_repetition_after));
    /// never in a game.
    pub projected: bool,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// The side to move is checkmated.
    Checkmate {
        /// The mating side.
        winner: Color,
    },
    /// The side to move has no legal move and is not in check.
    Stalemate {
        /// The side without a move.
        stalemated: Color,
    },
    /// Extinction: a side lost every piece of a type.
    Extinction {
        /// The winner (the mover wins a mutual extinction).
        winner: Color,
    },
    /// Sets: the bared player's reply bared the barer.
    MutualBare {
        /// The first barer, who gets 1/2.
        first: Color,
    },
    /// Threefold repetition.
    Repetition(Repetition),
    /// 100 plies (60 in sets) without a capture or pawn move.
    MoveRule,
    /// Insufficient material as the specification defines it.
    InsufficientMaterial,
    /// Sets: the barer claimed.
    Claim {
        /// The claimer, who gets 1.
        claimer: Color,
    },
    /// A decisive result without a board ending (resignation, time).
    Resignation {
        /// The side that did not resign.
        winner: Color,
    },
}

/// The kind of a game's ending, without its sides: what `tally score
/// --json` prints as the ending's `kind` and match results files store.
/// The serde names are the output names ([`EndingKind::name`]); kinds sort
/// by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndingKind {
    /// [`Ending::Checkmate`].
    Checkmate,
    /// [`Ending::Stalemate`].
    Stalemate,
    /// [`Ending::Extinction`].
    Extinction,
    /// [`Ending::MutualBare`].
    BareKing,
    /// A plain threefold repetition.
    Repetition,
    /// A threefold repetition by perpetual check.
    PerpetualCheck,
    /// A threefold repetition by mutual perpetual check.
    MutualPerpetualCheck,
    /// [`Ending::MoveRule`].
    MoveRule,
    /// [`Ending::InsufficientMaterial`].
    InsufficientMaterial,
    /// [`Ending::Claim`].
    Claim,
    /// [`Ending::Resignation`] (and any decisive result without a board
    /// ending).
    Resignation,
    /// A loss on time: an [`Ending::Resignation`] (scored as one) that the
    /// record says was a loss on time. [`Ending::kind`] never gives it.
    TimeForfeit,
}

impl EndingKind {
    /// The kind's output name (`checkmate`, `bare_king`, `time_forfeit`...).
    pub const fn name(self) -> &'static str {
        match self {
            EndingKind::Checkmate => "checkmate",
            EndingKind::Stalemate => "stalemate",
            EndingKind::Extinction => "extinction",
            EndingKind::BareKing => "bare_king",
            EndingKind::Repetition => "repetition",
            EndingKind::PerpetualCheck => "perpetual_check",
            EndingKind::MutualPerpetualCheck => "mutual_perpetual_check",
            EndingKind::MoveRule => "move_rule",
            EndingKind::InsufficientMaterial => "insufficient_material",
            EndingKind::Claim => "claim",
            EndingKind::Resignation => "resignation",
            EndingKind::TimeForfeit => "time_forfeit",
        }
    }
}

impl fmt::Display for EndingKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Ord for EndingKind {
    fn cmp(&self, other: &EndingKind) -> Ordering {
        self.name().cmp(other.name())
    }
}

impl PartialOrd for EndingKind {
    fn partial_cmp(&self, other: &EndingKind) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ending {
    /// Whether the board still has moves after this ending: every ending
    /// but checkmate, stalemate and extinction. A GUI that plays by other
    /// rules than Tally's may play on past such an ending (see
    /// [`crate::rules::Game::play_text_past_end`]).
    pub const fn leaves_moves(&self) -> bool {
        !matches!(
            self,
            Ending::Checkmate { .. } | Ending::Stalemate { .. } | Ending::Extinction { .. }
        )
    }

    /// Whether this is a repetition in which a side checked on every one
    /// of its moves: perpetual or mutual perpetual check.
    pub const fn is_perpetual_check(&self) -> bool {
        matches!(
            self,
            Ending::Repetition(Repetition {
                kind: RepetitionKind::Perpetual { .. } | RepetitionKind::Mutual { .. },
                ..
            })
        )
    }

    /// The ending's kind (never [`EndingKind::TimeForfeit`]: the board
    /// does not know clocks).
    pub const fn kind(&self) -> EndingKind {
        match self {
            Ending::Checkmate { .. } => EndingKind::Checkmate,
            Ending::Stalemate { .. } => EndingKind::Stalemate,
            Ending::Extinction { .. } => EndingKind::Extinction,
            Ending::MutualBare { .. } => EndingKind::BareKing,
            Ending::Repetition(Repetition {
                kind: RepetitionKind::Plain,
                ..
            }) => EndingKind::Repetition,
            Ending::Repetition(Repetition {
                kind: RepetitionKind::Perpetual { .. },
                ..
            }) => EndingKind::PerpetualCheck,
            Ending::Repetition(Repetition {
                kind: RepetitionKind::Mutual { .. },
                ..
            }) => EndingKind::MutualPerpetualCheck,
            Ending::MoveRule => EndingKind::MoveRule,
            Ending::InsufficientMaterial => EndingKind::InsufficientMaterial,
            Ending::Claim { .. } => EndingKind::Claim,
            Ending::Resignation { .. } => EndingKind::Resignation,
        }
    }

    /// The winner under the board rules: the mating, extinguishing,
    /// claiming or non-resigning side; `None` for every other ending (the
    /// variant's points decide who did better).
    pub const fn winner(&self) -> Option<Color> {
        match *self {
            Ending::Checkmate { winner }
            | Ending::Extinction { winner }
            | Ending::Resignation { winner } => Some(winner),
            Ending::Claim { claimer } => Some(claimer),
            _ => None,
        }
    }

    /// Whether the game is decided by the board (mate or extinction), the
    /// endings the search reports as `score mate`.
    pub const fn is_decisive_on_board(&self) -> bool {
        matches!(self, Ending::Checkmate { .. } | Ending::Extinction { .. })
    }

    /// A short human description.
    pub fn describe(&self) -> String {
        let c = |c: Color| if c.is_white() { "White" } else { "Black" };
        match *self {
            Ending::Checkmate { winner } => format!("checkmate, {} wins", c(winner)),
            Ending::Stalemate { stalemated } => format!("stalemate, {} has no move", c(stalemated)),
            Ending::Extinction { winner } => format!("extinction, {} wins", c(winner)),
            Ending::MutualBare { first } => format!("mutual bare kings, {} bared first", c(first)),
            Ending::Repetition(r) => match r.kind {
                RepetitionKind::Plain => {
                    format!(
                        "threefold repetition, third occurrence by {}",
                        c(r.third_by)
                    )
                }
                RepetitionKind::Perpetual { by } => format!("perpetual check by {}", c(by)),
                RepetitionKind::Mutual { first_check } => {
                    format!("mutual perpetual check, first check by {}", c(first_check))
                }
            },
            Ending::MoveRule => "move-count rule".to_owned(),
            Ending::InsufficientMaterial => "insufficient material".to_owned(),
            Ending::Claim { claimer } => format!("{} claimed the bare king", c(claimer)),
            Ending::Resignation { winner } => format!("{} resigned", c(!winner)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [EndingKind; 12] = [
        EndingKind::Checkmate,
        EndingKind::Stalemate,
        EndingKind::Extinction,
        EndingKind::BareKing,
        EndingKind::Repetition,
        EndingKind::PerpetualCheck,
        EndingKind::MutualPerpetualCheck,
        EndingKind::MoveRule,
        EndingKind::InsufficientMaterial,
        EndingKind::Claim,
        EndingKind::Resignation,
        EndingKind::TimeForfeit,
    ];

    #[test]
    fn kinds_serialise_by_name_and_sort_by_name() {
        for k in ALL {
            let json = serde_json::to_string(&k).unwrap();
            assert_eq!(json, format!("\"{}\"", k.name()));
            assert_eq!(serde_json::from_str::<EndingKind>(&json).unwrap(), k);
            assert_eq!(k.to_string(), k.name());
        }
        let mut sorted = ALL;
        sorted.sort();
        let names: Vec<&str> = sorted.iter().map(|k| k.name()).collect();
        let mut alphabetical = names.clone();
        alphabetical.sort_unstable();
        assert_eq!(names, alphabetical);
        assert_eq!(
            Ending::MutualBare {
                first: Color::White
            }
            .kind()
            .name(),
            "bare_king"
        );
    }
}
