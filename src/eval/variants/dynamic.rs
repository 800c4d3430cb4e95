//! `dynamic`: mate 100-0, stalemate 60-40, perpetual check 55-45 by Black
//! and 51-49 by White.

use shakmaty::Color;

use super::super::ResultMargins;
use super::super::variant_weights::VariantWeights;
use super::{Ctx, VariantEval, expected, perpetual, toward_draw};

/// The margin a perpetual check by `color` gives it.
pub fn perpetual_margin(c: &Ctx, color: Color) -> i32 {
    let t = &c.tables.dynamic;
    let s = match color {
        Color::White => t.perpetual_by_white,
        Color::Black => t.perpetual_by_black,
    };
    c.units.from_points(s[0] - s[1])
}

/// The dynamic evaluation; `r` are the result margins. A perpetual check
/// pays Black 55-45 and White 51-49, a lost side's best hope, so the
/// chances of one count.
pub fn value(c: &Ctx, r: ResultMargins) -> i32 {
    let e = expected(c, r);
    e + perpetual(
        c,
        e,
        perpetual_margin(c, c.stm),
        perpetual_margin(c, !c.stm),
    )
}

/// The dynamic evaluation.
#[derive(Clone, Copy, Debug)]
pub struct Eval;

impl VariantEval for Eval {
    fn tuned_weights(&self) -> &'static VariantWeights {
        &super::super::tuned::dynamic::TUNED
    }

    /// Mate 100-0 either way; a draw (50-50) changes nothing.
    fn margins(&self, c: &Ctx) -> ResultMargins {
        let t = &c.tables.dynamic;
        ResultMargins::even(c.units.from_points(t.mate[0] - t.mate[1]), 0)
    }

    fn value(&self, c: &Ctx) -> i32 {
        let r = self.margins(c);
        toward_draw(c, value(c, r), r.draw)
    }
}
