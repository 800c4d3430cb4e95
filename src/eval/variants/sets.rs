//! `sets`: mate 2, bare king 1 (claimed), stalemate 1 to the stalemating
//! side, perpetual check 1, the 30-move rule and the draw advantage.

use super::super::ResultMargins;
use super::super::variant_weights::VariantWeights;
use super::{Ctx, VariantEval, expected, perpetual, toward_draw};
use crate::scoring::variants::sets::Value;

/// The sets evaluation; `r` are the result margins. A perpetual check pays
/// its giver 1, better than a draw for either side and much better than a
/// loss, so the chances of one may count (`perpetual_per_check`, which
/// sets' shipped weights leave at 0: a side that counts on checks gives
/// material for them, `docs/search.md`).
pub fn value(c: &Ctx, r: ResultMargins) -> i32 {
    let e = expected(c, r);
    let t = &c.tables.sets;
    let ours = c.units.from_points(t.paid_to(Value::PerpetualCheck, c.stm));
    let theirs = c
        .units
        .from_points(t.paid_to(Value::PerpetualCheck, !c.stm));
    e + perpetual(c, e, ours, theirs)
}

/// The sets evaluation.
#[derive(Clone, Copy, Debug)]
pub struct Eval;

impl VariantEval for Eval {
    fn tuned_weights(&self) -> &'static VariantWeights {
        &super::super::tuned::sets::TUNED
    }

    /// Mate either way, each side's mate paying what it pays that side
    /// (under a handicap the weaker side's differs); the draw pays the
    /// side of the draw advantage (the weaker side under a handicap).
    fn margins(&self, c: &Ctx) -> ResultMargins {
        let (u, t) = (c.units, &c.tables.sets);
        let draw = match t.draw_holder(c.draw_advantage) {
            Some(a) if a == c.stm => u.from_points(t.paid_to(Value::Draw, a)),
            Some(a) => -u.from_points(t.paid_to(Value::Draw, a)),
            None => 0,
        };
        ResultMargins {
            win: u.from_points(t.paid_to(Value::Mate, c.stm)),
            draw,
            loss: -u.from_points(t.paid_to(Value::Mate, !c.stm)),
        }
    }

    fn value(&self, c: &Ctx) -> i32 {
        let r = self.margins(c);
        toward_draw(c, value(c, r), r.draw)
    }
}
