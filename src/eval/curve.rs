//! The value curve: the scale on which the search compares the estimates
//! of the variants whose evaluators return expected points through the
//! win/draw/loss model and whose actions earn nothing by themselves (sets,
//! dynamic, tiebraker).
//!
//! An expected margin saturates: a position three pawns up is worth almost
//! a win's margin, and so is one nine pawns up, while near equality a pawn
//! moves it by a fifth of a win. The search's margins (pruning, aspiration
//! windows, corrections, reductions) are set in pawns of a linear scale,
//! the scale of the chess net's score. Read on the expected margin
//! directly they prune two or three times too much near equality and
//! almost nothing in a won position. So these variants' search values are
//! not the expected margins but the centipawns that the chess model at
//! full material maps to them ([`value_of`], the inverse of [`margin_of`]):
//! with no action awards a search path's margin is its ending's alone, and
//! a monotone change of scale keeps every comparison the search makes. The
//! search puts an ending's margin on the same scale; the reports read the
//! margin back.

use std::sync::{Mutex, PoisonError};

use super::Wdl;

/// The centipawns beyond which an expected margin gains nothing more from
/// the win/draw/loss model and its progress share ([`PROGRESS_DIV`]); the
/// curve goes on as a line of slope 1 there.
pub const KNEE: i32 = 3000;

/// One part in this of the centipawns (up to [`KNEE`]) is added to an
/// expected margin, so that a won position still shows progress.
pub const PROGRESS_DIV: i32 = 32;

/// The share of the centipawns `cp` that an expected margin adds
/// ([`PROGRESS_DIV`]).
#[inline]
pub fn progress(cp: i32) -> i32 {
    cp.clamp(-KNEE, KNEE) / PROGRESS_DIV
}

/// The expected margin of a search value `a >= 0`, where a win pays `win`.
#[inline]
fn positive(a: i32, win: i32) -> i32 {
    let c = a.min(KNEE);
    let w = Wdl::from_cp(c, 24);
    let m = (i64::from(win) * i64::from(w.win - w.loss) / 1000) as i32 + progress(c);
    m.saturating_add(a - c)
}

/// The expected margin (internal units) of the search value `v` (outside
/// the decisive band), where a win pays `win`: what the chess model at full
/// material expects of `v` centipawns. Odd and non-decreasing.
pub fn margin_of(v: i32, win: i32) -> i32 {
    let m = positive(v.saturating_abs(), win);
    if v < 0 { -m } else { m }
}

/// The search value of the expected margin `m`: the largest value in
/// magnitude whose margin ([`margin_of`]) is at most `m` in magnitude, of
/// the sign of `m`. Odd and non-decreasing.
pub fn value_of(m: i32, win: i32) -> i32 {
    let a = m.saturating_abs();
    let top = positive(KNEE, win);
    let v = if a >= top {
        KNEE.saturating_add(a - top)
    } else {
        // positive(lo) <= a < positive(hi) throughout.
        let (mut lo, mut hi) = (0, KNEE);
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if positive(mid, win) <= a {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    };
    if m < 0 { -v } else { v }
}

/// The longest table of values a [`Table`] keeps; a curve whose margins
/// reach further is searched instead (no built-in table comes near).
const TABLE_MAX: i32 = 1 << 16;

/// [`value_of`] for one win's margin, tabled by margin: the evaluators
/// of the curved variants call it at every node, and the search it
/// replaces costs a dozen look-ups of the chess model.
#[derive(PartialEq, Eq)]
pub struct Table {
    /// The margin of a win.
    win: i32,
    /// The value of every margin below the knee's ([`value_of`]), by
    /// margin; empty when there are more than [`TABLE_MAX`].
    values: Box<[i32]>,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "curve::Table(win {})", self.win)
    }
}

impl Table {
    fn new(win: i32) -> Table {
        let top = positive(KNEE, win);
        let values = if (0..=TABLE_MAX).contains(&top) {
            (0..top).map(|m| value_of(m, win)).collect()
        } else {
            Box::default()
        };
        Table { win, values }
    }

    /// The table of the curve where a win pays `win`, made once for
    /// each `win` a process meets and kept for its life.
    pub fn of(win: i32) -> &'static Table {
        static TABLES: Mutex<Vec<&'static Table>> = Mutex::new(Vec::new());
        let mut tables = TABLES.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(t) = tables.iter().find(|t| t.win == win) {
            return t;
        }
        let t: &'static Table = Box::leak(Box::new(Table::new(win)));
        tables.push(t);
        t
    }

    /// The margin of a win.
    pub fn win(&self) -> i32 {
        self.win
    }

    /// [`value_of`] of `m` for this table's win.
    #[inline]
    pub fn value_of(&self, m: i32) -> i32 {
        let a = m.saturating_abs();
        match self.values.get(a as usize) {
            Some(&v) => {
                if m < 0 {
                    -v
                } else {
                    v
                }
            }
            None => value_of(m, self.win),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WIN: i32 = 1000;

    /// Asserts that `f` is odd and non-decreasing over `range`.
    fn odd_and_non_decreasing(f: impl Fn(i32) -> i32, range: std::ops::RangeInclusive<i32>) {
        let mut last = i32::MIN;
        for x in range {
            let y = f(x);
            assert_eq!(f(-x), -y, "not odd at {x}");
            assert!(y >= last, "not monotone at {x}");
            last = y;
        }
    }

    #[test]
    fn odd_and_monotone() {
        assert_eq!(margin_of(0, WIN), 0);
        assert_eq!(value_of(0, WIN), 0);
        odd_and_non_decreasing(|v| margin_of(v, WIN), -4000..=4000);
        odd_and_non_decreasing(|m| value_of(m, WIN), -1500..=1500);
    }

    #[test]
    fn inverse_within_a_step() {
        for m in -1200..=1200 {
            let v = value_of(m, WIN);
            // The value's margin is at most m in magnitude, and the next
            // value's is beyond it.
            assert!(margin_of(v, WIN).abs() <= m.abs(), "m {m} v {v}");
            let next = v + m.signum();
            if m != 0 {
                assert!(margin_of(next, WIN).abs() > m.abs(), "m {m} v {v}");
            }
        }
        // Values the curve maps one to one come back exactly.
        for v in [0, 50, 150, 300, 800, 2999, 3000, 5000, -70, -4000] {
            assert_eq!(
                margin_of(value_of(margin_of(v, WIN), WIN), WIN),
                margin_of(v, WIN)
            );
        }
    }

    #[test]
    fn shape() {
        // Saturates towards the win's margin, then grows by the progress
        // share, then by a line past the knee.
        let top = margin_of(KNEE, WIN);
        assert!(top > WIN && top <= WIN + KNEE / PROGRESS_DIV);
        assert_eq!(margin_of(KNEE + 100, WIN), top + 100);
        assert_eq!(value_of(top + 100, WIN), KNEE + 100);
        // A pawn up is worth less than a fifth of a win, three pawns more
        // than half.
        assert!(margin_of(100, WIN) < WIN / 5);
        assert!(margin_of(300, WIN) > WIN / 2);
        // Saturating inputs do not overflow.
        assert!(margin_of(i32::MAX, WIN) > 0);
        assert!(value_of(i32::MIN, WIN) < 0);
    }

    #[test]
    fn the_table_gives_the_values_of_the_search() {
        for win in [WIN, 1, 37, 2500, 40_000] {
            let t = Table::of(win);
            assert_eq!(t.win(), win);
            assert!(std::ptr::eq(t, Table::of(win)));
            let top = margin_of(KNEE, win);
            for m in (-top - 50..=top + 50).chain([i32::MIN, i32::MAX, -i32::MAX]) {
                assert_eq!(t.value_of(m), value_of(m, win), "win {win} m {m}");
            }
        }
        // Too long to table: searched.
        let huge = Table::of(1 << 20);
        assert!(huge.values.is_empty());
        assert_eq!(huge.value_of(12_345), value_of(12_345, 1 << 20));
    }
}
