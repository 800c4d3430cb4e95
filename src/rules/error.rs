//! The typed error of the rules layer.

use std::fmt;

/// What can go wrong when building a position, playing an action or
/// counting the action tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesError {
    /// The variant id is not one of the seven.
    UnknownVariant(String),
    /// The FEN does not parse.
    InvalidFen {
        /// The FEN as given.
        fen: String,
        /// What the parser said.
        reason: String,
    },
    /// The FEN parses but is not a legal position of the variant.
    InvalidPosition {
        /// The FEN as given.
        fen: String,
        /// Why it is refused.
        reason: String,
    },
    /// The text is not an action (neither UCI move nor special word).
    UnparsableAction(String),
    /// The action is well formed but not legal in the position.
    IllegalAction {
        /// The action as given.
        action: String,
        /// Why it is not legal, when more can be said than "illegal".
        reason: String,
    },
    /// The game is already over; no action may follow.
    GameOver(String),
    /// A perft depth past [`MAX_PERFT_DEPTH`](super::MAX_PERFT_DEPTH).
    PerftTooDeep(u32),
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::UnknownVariant(v) => write!(
                f,
                "unknown variant '{v}' (expected one of: {})",
                super::Variant::id_list()
            ),
            RulesError::InvalidFen { fen, reason } => write!(f, "invalid FEN '{fen}': {reason}"),
            RulesError::InvalidPosition { fen, reason } => {
                write!(f, "illegal position '{fen}': {reason}")
            }
            RulesError::UnparsableAction(a) => write!(
                f,
                "cannot parse action '{a}' (expected a UCI move like e2e4 or a word: disk, swap, restore, claim)"
            ),
            RulesError::IllegalAction { action, reason } => {
                if reason.is_empty() {
                    write!(f, "illegal action '{action}'")
                } else {
                    write!(f, "illegal action '{action}': {reason}")
                }
            }
            RulesError::GameOver(why) => write!(f, "the game is over ({why})"),
            RulesError::PerftTooDeep(depth) => write!(
                f,
                "perft depth {depth} is too deep (at most {})",
                super::MAX_PERFT_DEPTH
            ),
        }
    }
}

impl std::error::Error for RulesError {}
