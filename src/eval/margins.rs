//! The margins of the three board results ([`ResultMargins`]) under a
//! variant's point table; each variant computes its own
//! ([`super::variants::VariantEval::margins`]).

/// The margins of the three board results for the side to move, in
/// internal units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResultMargins {
    /// A won game.
    pub win: i32,
    /// A drawn game.
    pub draw: i32,
    /// A lost game.
    pub loss: i32,
}

impl ResultMargins {
    /// A win worth `win`, a loss worth as much the other way, and a draw
    /// worth `draw`.
    pub const fn even(win: i32, draw: i32) -> ResultMargins {
        ResultMargins {
            win,
            draw,
            loss: -win,
        }
    }
}
