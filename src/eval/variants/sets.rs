//! `sets`: mate 2, bare king 1 (claimed), stalemate 1 to the stalemating
//! side, perpetual check 1, the 30-move rule and the draw advantage.

use super::super::ResultMargins;
use super::{Ctx, expected, perpetual};

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
