//! `chess`: scored 1 / 1/2 / 0 by the board result alone, so the base
//! evaluation's centipawns are its value.

use super::super::ResultMargins;
use super::{Ctx, VariantEval};

/// The chess evaluation.
#[derive(Clone, Copy, Debug)]
pub struct Eval;

impl VariantEval for Eval {
    fn margins(&self, c: &Ctx) -> ResultMargins {
        let t = &c.tables.chess;
        ResultMargins::even(c.units.from_points(t.win - t.loss), 0)
    }

    #[inline]
    fn value(&self, c: &Ctx) -> i32 {
        c.cp
    }

    fn board_result_alone(&self) -> bool {
        true
    }
}
