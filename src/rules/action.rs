//! Actions: a chess move or one of the special actions, with their text form.

use std::fmt;
use std::str::FromStr;

use arrayvec::ArrayVec;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Move, Square};

/// One action of a game: a chess move or a special action.
///
/// Special actions are not moves: they never give check, do not advance the
/// halfmove clock and clear the en-passant right.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// A chess move.
    Move(Move),
    /// Tiebraker: replace one's own king with the disk.
    Disk,
    /// Tiebraker: answer a disk by taking the disk oneself.
    Swap,
    /// Tiebraker: answer a disk by removing it.
    Restore,
    /// Sets: take the 1 point for baring the opponent's king.
    Claim,
}

/// The most actions an [`ActionList`] holds: more than any legal position
/// of either rule set has (at most 16 pieces a side), special actions
/// included.
pub const MAX_ACTIONS: usize = 320;

/// A list of actions that never allocates, [`MAX_ACTIONS`] long at most.
pub type ActionList = ArrayVec<Action, MAX_ACTIONS>;

impl Action {
    /// The special actions, in the order they are generated.
    pub const SPECIALS: [Action; 4] = [Action::Disk, Action::Swap, Action::Restore, Action::Claim];

    /// The chess move, if this is one.
    pub const fn as_move(self) -> Option<Move> {
        match self {
            Action::Move(m) => Some(m),
            _ => None,
        }
    }

    /// Whether this is a special action (not a chess move).
    pub const fn is_special(self) -> bool {
        !matches!(self, Action::Move(_))
    }

    /// Whether this is a capture (en passant included).
    pub const fn is_capture(self) -> bool {
        match self {
            Action::Move(m) => m.is_capture(),
            _ => false,
        }
    }

    /// The word of a special action, or `None` for a move.
    pub const fn special_word(self) -> Option<&'static str> {
        match self {
            Action::Move(_) => None,
            Action::Disk => Some("disk"),
            Action::Swap => Some("swap"),
            Action::Restore => Some("restore"),
            Action::Claim => Some("claim"),
        }
    }

    /// What a special action does, in one line for a player (docs/rules.md
    /// has the whole rule); `None` for a move.
    pub const fn special_help(self) -> Option<&'static str> {
        match self {
            Action::Move(_) => None,
            Action::Disk => Some(
                "Tiebraker, once a game, instead of a move when not in check: your king becomes a frozen disk; the opponent then accepts (any move: capture-or-check for both from then on), swaps or restores.",
            ),
            Action::Swap => Some(
                "Answer to a disk: you take the disk (your king freezes) and the first player gets the king back; 20 plies play as dynamic, then capture-or-check for both.",
            ),
            Action::Restore => Some(
                "Answer to a disk: no disk remains and capture is optional; from now on the restorer scores only by mating or stalemating, every other ending goes to the first player.",
            ),
            Action::Claim => Some(
                "Sets: after you bared the opponent's king and they replied without baring yours, end the game with the bare-king award.",
            ),
        }
    }

    /// A compact 16-bit code, unique among the actions of one position:
    /// from (6 bits), to (6 bits), promotion (3 bits); special actions use
    /// codes with from == to, which no move has. 0 means "no action".
    pub fn code(self) -> u16 {
        match self {
            Action::Move(m) => {
                let uci = UciMove::from_move(m, natural_mode(m));
                match uci {
                    UciMove::Normal {
                        from,
                        to,
                        promotion,
                    } => {
                        let p = promotion.map_or(0, |r| r as u16);
                        (u16::from(from) << 6 | u16::from(to)) | (p << 12)
                    }
                    _ => 0,
                }
            }
            // a1a1 is 0 ("none"), so the specials start at b1b1.
            Action::Disk => 1 << 6 | 1,
            Action::Swap => 2 << 6 | 2,
            Action::Restore => 3 << 6 | 3,
            Action::Claim => 4 << 6 | 4,
        }
    }
}

/// The squares and promotion bits of a [`Action::code`]: `(from, to,
/// promotion)`, the promotion being 0 for none, else a role's number.
pub fn code_parts(code: u16) -> (Square, Square, u16) {
    (
        Square::new(u32::from(code >> 6) & 63),
        Square::new(u32::from(code) & 63),
        code >> 12,
    )
}

/// How a move is written when nothing says the game is Chess960: a
/// castling of the standard king and rook as the king's two-square step
/// (`e1g1`), any other castling (only Chess960 has them) as king takes rook
/// (`b1a1`), since the king's step could be a plain king move there.
fn natural_mode(m: Move) -> CastlingMode {
    match m {
        Move::Castle { king, rook }
            if king.file() != shakmaty::File::E
                || !matches!(rook.file(), shakmaty::File::A | shakmaty::File::H) =>
        {
            CastlingMode::Chess960
        }
        _ => CastlingMode::Standard,
    }
}

impl Action {
    /// The UCI text of the action under `mode`: in
    /// [`CastlingMode::Chess960`] every castling is king takes rook
    /// (`e1h1`), as GUIs send and expect it in Chess960 games; in standard
    /// mode as [`Action`]'s `Display`.
    pub fn uci(self, mode: CastlingMode) -> UciText {
        UciText { action: self, mode }
    }
}

/// An action's UCI text under a castling mode ([`Action::uci`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UciText {
    action: Action,
    mode: CastlingMode,
}

impl fmt::Display for UciText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.action, self.mode) {
            (Action::Move(m), CastlingMode::Chess960) => {
                write!(f, "{}", UciMove::from_move(m, CastlingMode::Chess960))
            }
            (other, _) => write!(f, "{other}"),
        }
    }
}

/// Castling is written as the king's two-square step when it is the
/// standard castling, else (Chess960) as king takes rook; see
/// [`Action::uci`] for the text a Chess960 game uses throughout.
impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Move(m) => write!(f, "{}", UciMove::from_move(*m, natural_mode(*m))),
            other => f.write_str(other.special_word().unwrap_or("?")),
        }
    }
}

impl From<Move> for Action {
    fn from(m: Move) -> Action {
        Action::Move(m)
    }
}

/// The text form of an action before it is matched against a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParsedAction {
    /// A UCI move, still to be resolved against a position.
    Uci(UciMove),
    /// A special action.
    Special(Action),
}

/// An action text that is neither a UCI move nor a special word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseActionError(pub String);

impl fmt::Display for ParseActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot parse action '{}'", self.0)
    }
}

impl std::error::Error for ParseActionError {}

impl FromStr for ParsedAction {
    type Err = ParseActionError;

    fn from_str(s: &str) -> Result<ParsedAction, ParseActionError> {
        let t = s.trim();
        match t.to_ascii_lowercase().as_str() {
            "disk" => return Ok(ParsedAction::Special(Action::Disk)),
            "swap" => return Ok(ParsedAction::Special(Action::Swap)),
            "restore" => return Ok(ParsedAction::Special(Action::Restore)),
            "claim" => return Ok(ParsedAction::Special(Action::Claim)),
            _ => {}
        }
        match UciMove::from_ascii(t.as_bytes()) {
            Ok(u @ UciMove::Normal { .. }) => Ok(ParsedAction::Uci(u)),
            _ => Err(ParseActionError(t.to_owned())),
        }
    }
}

impl ParsedAction {
    /// Finds the legal action this text names among `legal`.
    ///
    /// Castling is accepted as king to destination (`e1g1`) or king takes
    /// rook (`e1h1`). Where the king's destination is also a plain king
    /// move (in Chess960), that text is the plain move: the moves are
    /// searched in the order listed, castling last.
    pub fn resolve(self, legal: &[Action]) -> Option<Action> {
        match self {
            ParsedAction::Special(a) => legal.iter().copied().find(|&x| x == a),
            ParsedAction::Uci(u) => legal.iter().copied().find(|&x| match x {
                Action::Move(m) => uci_matches(u, m),
                _ => false,
            }),
        }
    }
}

fn uci_matches(u: UciMove, m: Move) -> bool {
    let UciMove::Normal {
        from,
        to,
        promotion,
    } = u
    else {
        return false;
    };
    match m {
        Move::Normal {
            from: f,
            to: t,
            promotion: p,
            ..
        } => f == from && t == to && p == promotion,
        Move::EnPassant { from: f, to: t } => f == from && t == to && promotion.is_none(),
        Move::Castle { king, rook } => {
            if king != from || promotion.is_some() {
                return false;
            }
            let dest_file = if rook < king {
                shakmaty::File::C
            } else {
                shakmaty::File::G
            };
            to == rook || to == Square::from_coords(dest_file, king.rank())
        }
        Move::Put { .. } => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Position};

    fn legal(pos: &Chess) -> Vec<Action> {
        pos.legal_moves().into_iter().map(Action::Move).collect()
    }

    #[test]
    fn parse_and_print() {
        let pos = Chess::default();
        let acts = legal(&pos);
        let a = "e2e4"
            .parse::<ParsedAction>()
            .unwrap()
            .resolve(&acts)
            .unwrap();
        assert_eq!(a.to_string(), "e2e4");
        assert_eq!(
            "disk".parse::<ParsedAction>().unwrap(),
            ParsedAction::Special(Action::Disk)
        );
        assert_eq!(
            "CLAIM".parse::<ParsedAction>().unwrap(),
            ParsedAction::Special(Action::Claim)
        );
        assert!("e2e9".parse::<ParsedAction>().is_err());
        assert!("0000".parse::<ParsedAction>().is_err());
        assert!("".parse::<ParsedAction>().is_err());
        assert!(
            "e2e5"
                .parse::<ParsedAction>()
                .unwrap()
                .resolve(&acts)
                .is_none()
        );
    }

    #[test]
    fn castling_both_forms() {
        let pos: Chess = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let acts = legal(&pos);
        let a = "e1g1"
            .parse::<ParsedAction>()
            .unwrap()
            .resolve(&acts)
            .unwrap();
        let b = "e1h1"
            .parse::<ParsedAction>()
            .unwrap()
            .resolve(&acts)
            .unwrap();
        assert_eq!(a, b);
        assert!(matches!(a, Action::Move(Move::Castle { .. })));
        assert_eq!(a.to_string(), "e1g1");
        let c = "e1c1"
            .parse::<ParsedAction>()
            .unwrap()
            .resolve(&acts)
            .unwrap();
        assert_eq!(c.to_string(), "e1c1");
    }

    #[test]
    fn codes_unique() {
        let pos: Chess = "r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let mut acts = legal(&pos);
        acts.extend(Action::SPECIALS);
        let mut codes: Vec<u16> = acts.iter().map(|a| a.code()).collect();
        assert!(codes.iter().all(|&c| c != 0));
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), acts.len());
    }
}
