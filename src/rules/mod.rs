//! Rules: legality and game end for the seven variants.
//!
//! This layer knows positions ([`Pos`]: standard chess on shakmaty's
//! [`Chess`](shakmaty::Chess), extinction on our own [`Extinction`]),
//! actions ([`Action`]: moves and the special actions), the variant state that
//! changes legality ([`Extra`]: the tiebraker disk, the sets bare-king claim),
//! search nodes ([`Node`]), game records ([`Game`], and [`AnyGame`] over both
//! board kinds), endings ([`Ending`]), perft and the Chess960 start
//! positions ([`chess960_fen`]). It imports nothing else of Tally's: points live in `scoring`.

mod action;
mod any;
mod chess960;
mod ending;
mod error;
mod extinction;
mod extra;
mod game;
mod key;
mod node;
mod perft;
mod pos;
mod variant;

pub use action::{
    Action, ActionList, MAX_ACTIONS, ParseActionError, ParsedAction, UciText, code_parts,
};
pub use any::{AnyGame, AnyRules, BoardKind, OnBoard};
pub use chess960::{CHESS960_POSITIONS, chess960_fen, fen_needs_chess960};
pub use ending::{Ending, EndingKind, Repetition, RepetitionKind};
pub use error::RulesError;
pub use extinction::Extinction;
pub use extra::{Bare, Disk, Extra};
pub use game::{Game, History, HistoryEntry, find_repetition, find_repetition_after};
pub use key::{disk_key, extra_key, position_key};
pub use node::{Node, Rules};
pub use perft::{DivideEntry, MAX_PERFT_DEPTH, perft, perft_divide, perft_divide_until};
pub use pos::{CheckSquares, Pos, pawn_captures};
pub use variant::Variant;
