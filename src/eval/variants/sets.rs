//! `sets`: mate 2, bare king 1 (claimed), stalemate 1 to the stalemating
//! side, perpetual check 1, the 30-move rule and the draw advantage.

use super::super::ResultMargins;
use super::super::variant_weights::VariantWeights;
use super::{Ctx, VariantEval, expected, perpetual, toward_draw};

/// The sets evaluation; `r` are the result margins. A perpetual check pays
/// its giver 1, better than a draw for either side and much better than a
/// loss, so the chances of one may count (`perpetual_per_check`, which
/// sets' shipped weights leave at 0: a side that counts on checks gives
/// material for them, `docs/search.md`).
pub fn value(c: &Ctx, r: ResultMargins) -> i32 {
    let e = expected(c, r);
    let p = c.units.from_points(c.tables.sets.perpetual_check);
    e + perpetual(c, e, p, p)
}

/// The sets evaluation.
#[derive(Clone, Copy, Debug)]
pub struct Eval;

impl VariantEval for Eval {
    fn tuned_weights(&self) -> &'static VariantWeights {
        &super::super::tuned::sets::TUNED
    }

    /// Mate either way; the draw pays the side of the draw advantage.
    fn margins(&self, c: &Ctx) -> ResultMargins {
        let (u, t) = (c.units, &c.tables.sets);
        let draw = match c.draw_advantage.color() {
            Some(a) if a == c.stm => u.from_points(t.draw),
            Some(_) => -u.from_points(t.draw),
            None => 0,
        };
        ResultMargins::even(u.from_points(t.mate), draw)
    }

    fn value(&self, c: &Ctx) -> i32 {
        let r = self.margins(c);
        toward_draw(c, value(c, r), r.draw)
    }
}
