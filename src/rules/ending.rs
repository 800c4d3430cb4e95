//! [`Ending`]: how a game ended, as a typed value the referee and the search
//! match on.

use shakmaty::Color;

/// The classification of a threefold repetition (spec section 1).
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

impl Ending {
    /// The kind's name in `tally score --json` output.
    pub const fn kind(&self) -> &'static str {
        match self {
            Ending::Checkmate { .. } => "checkmate",
            Ending::Stalemate { .. } => "stalemate",
            Ending::Extinction { .. } => "extinction",
            Ending::MutualBare { .. } => "bare_king",
            Ending::Repetition(Repetition {
                kind: RepetitionKind::Plain,
                ..
            }) => "repetition",
            Ending::Repetition(Repetition {
                kind: RepetitionKind::Perpetual { .. },
                ..
            }) => "perpetual_check",
            Ending::Repetition(Repetition {
                kind: RepetitionKind::Mutual { .. },
                ..
            }) => "mutual_perpetual_check",
            Ending::MoveRule => "move_rule",
            Ending::InsufficientMaterial => "insufficient_material",
            Ending::Claim { .. } => "claim",
            Ending::Resignation { .. } => "resignation",
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
