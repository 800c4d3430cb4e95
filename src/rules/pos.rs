//! [`Pos`]: what the rules need of a board position, for standard chess
//! (shakmaty's [`Chess`]) and extinction ([`Extinction`]).

use std::fmt::Debug;

use shakmaty::fen::Fen;
use shakmaty::{
    Bitboard, CastlingMode, Chess, Color, EnPassantMode, FromSetup, Move, Position,
    PositionErrorKinds, Setup, Square,
};

use super::RulesError;

/// A board position under one of the two board rule sets.
///
/// Implemented by [`Chess`] (standard rules) and [`Extinction`](super::Extinction). Everything
/// the rules layer needs beyond shakmaty's [`Position`] lives here, so the
/// rest of Tally is generic over this one trait.
pub trait Pos: Position + FromSetup + Clone + Debug + Send + Sync + 'static {
    /// Whether kings are ordinary capturable pieces and check does not exist.
    const KINGS_CAPTURABLE: bool;

    /// Builds a validated position from a setup.
    ///
    /// # Errors
    ///
    /// [`RulesError::InvalidPosition`] when the setup is not a legal position
    /// of this rule set (`fen` is used in the message).
    fn from_setup_checked(setup: Setup, fen: &str) -> Result<Self, RulesError>;

    /// Pieces giving check to the side to move (always empty in extinction).
    fn checkers_bb(&self) -> Bitboard;

    /// Whether the side to move is in check (never in extinction).
    fn in_check(&self) -> bool {
        self.checkers_bb().any()
    }

    /// Whether `color` has lost every piece of some type (extinction only).
    fn extinct(&self, color: Color) -> bool;

    /// The en-passant square as it counts for repetition and hashing: only
    /// when an en-passant capture is legal (standard), or possible at all
    /// (extinction).
    fn key_ep_square(&self) -> Option<Square>;

    /// Plays a move known to be legal, in place.
    fn play_move(&mut self, m: Move) {
        self.play_unchecked(m);
    }

    /// Whether `m` (legal here) gives check.
    fn gives_check(&self, m: Move) -> bool {
        if Self::KINGS_CAPTURABLE {
            return false;
        }
        let mut after = self.clone();
        after.play_unchecked(m);
        after.in_check()
    }

    /// Parses a FEN into a validated position.
    ///
    /// # Errors
    ///
    /// [`RulesError::InvalidFen`] or [`RulesError::InvalidPosition`].
    fn from_fen(fen: &str) -> Result<Self, RulesError> {
        let parsed: Fen = fen.trim().parse().map_err(|e| RulesError::InvalidFen {
            fen: fen.trim().to_owned(),
            reason: format!("{e}"),
        })?;
        Self::from_setup_checked(parsed.into_setup(), fen.trim())
    }

    /// The position as a FEN string.
    fn fen(&self) -> String {
        Fen::from_position(self, EnPassantMode::Legal).to_string()
    }
}

impl Pos for Chess {
    const KINGS_CAPTURABLE: bool = false;

    fn from_setup_checked(setup: Setup, fen: &str) -> Result<Chess, RulesError> {
        Chess::from_setup(setup, CastlingMode::Standard).map_err(|e| RulesError::InvalidPosition {
            fen: fen.to_owned(),
            reason: describe_position_errors(e.kinds()),
        })
    }

    #[inline]
    fn checkers_bb(&self) -> Bitboard {
        self.checkers()
    }

    #[inline]
    fn extinct(&self, _color: Color) -> bool {
        false
    }

    #[inline]
    fn key_ep_square(&self) -> Option<Square> {
        self.legal_ep_square()
    }
}

/// A readable list of what shakmaty found wrong with a setup.
pub(crate) fn describe_position_errors(kinds: PositionErrorKinds) -> String {
    let names = [
        (PositionErrorKinds::EMPTY_BOARD, "empty board"),
        (PositionErrorKinds::MISSING_KING, "a king is missing"),
        (PositionErrorKinds::TOO_MANY_KINGS, "too many kings"),
        (
            PositionErrorKinds::PAWNS_ON_BACKRANK,
            "pawns on a back rank",
        ),
        (
            PositionErrorKinds::INVALID_CASTLING_RIGHTS,
            "invalid castling rights",
        ),
        (
            PositionErrorKinds::INVALID_EP_SQUARE,
            "invalid en-passant square",
        ),
        (
            PositionErrorKinds::OPPOSITE_CHECK,
            "the side not to move is in check",
        ),
        (PositionErrorKinds::IMPOSSIBLE_CHECK, "impossible check"),
        (PositionErrorKinds::TOO_MUCH_MATERIAL, "too much material"),
        (
            PositionErrorKinds::VARIANT,
            "not a position of this variant",
        ),
    ];
    let parts: Vec<&str> = names
        .iter()
        .filter(|(k, _)| kinds.contains(*k))
        .map(|(_, n)| *n)
        .collect();
    if parts.is_empty() {
        "invalid position".to_owned()
    } else {
        parts.join(", ")
    }
}

// The test-only position helper lives here so every module's tests share it.
#[cfg(test)]
pub(crate) fn chess(fen: &str) -> Chess {
    Chess::from_fen(fen).expect("test FEN")
}

#[cfg(test)]
pub(crate) fn extinction(fen: &str) -> super::Extinction {
    super::Extinction::from_fen(fen).expect("test FEN")
}
