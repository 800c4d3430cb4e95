//! `dynamic`: mate 100-0, stalemate 60-40, perpetual check 55-45 by Black
//! and 51-49 by White.

use shakmaty::Color;

use super::super::ResultMargins;
use super::{Ctx, expected, perpetual};

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
