//! [`Points`]: exact point values in thousandths.
//!
//! Arithmetic saturates at the ends of the range (about ±9.2 * 10^15
//! points) instead of wrapping, so no total of positive awards can turn
//! negative. Values read from a rules file lie within [`Points::MAX_VALUE`]
//! in magnitude (see the `tables` module), far inside that range.

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A number of points, exact to a thousandth (halves occur in sets).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Points(i64);

impl Points {
    /// Zero points.
    pub const ZERO: Points = Points(0);

    /// `n` whole points.
    pub const fn whole(n: i64) -> Points {
        Points(n.saturating_mul(1000))
    }

    /// A half point.
    pub const HALF: Points = Points(500);

    /// The largest magnitude of a point value in a rules file: 10^9 points.
    pub const MAX_VALUE: Points = Points(1_000_000_000_000);

    /// The largest magnitude of an award or a game's total that is
    /// reported: 10^15 points, well inside the range, so that a value that
    /// saturated is never taken for a total. A rules file whose one award
    /// can pass it is refused (`Tables::from_toml`); a game whose totals
    /// pass it fails to score ([`Points::in_reported_range`]).
    pub const MAX_TOTAL: Points = Points(1_000_000_000_000_000_000);

    /// Whether `milli` (exact, in a wider type) is within
    /// [`Points::MAX_TOTAL`] and, when it has a fraction, within 10^12
    /// points (where a JSON number still prints every digit).
    pub fn in_reported_range(milli: i128) -> bool {
        let a = milli.unsigned_abs();
        a <= Points::MAX_TOTAL.0.unsigned_abs() as u128
            && (a.is_multiple_of(1000) || a < 1_000_000_000_000_000)
    }

    /// From thousandths of a point in a wider type, saturating at the ends
    /// of the range.
    pub fn from_wide_milli(milli: i128) -> Points {
        Points(milli.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64)
    }

    /// The magnitude (saturating).
    pub const fn abs(self) -> Points {
        Points(self.0.saturating_abs())
    }

    /// From thousandths of a point.
    pub const fn from_milli(milli: i64) -> Points {
        Points(milli)
    }

    /// In thousandths of a point.
    pub const fn milli(self) -> i64 {
        self.0
    }

    /// From a decimal value, rounded to the nearest thousandth; `None` for
    /// values that are not finite or too large.
    pub fn from_f64(x: f64) -> Option<Points> {
        let m = (x * 1000.0).round();
        (m.is_finite() && m.abs() < 9.0e15).then_some(Points(m as i64))
    }

    /// As a decimal value.
    pub fn as_f64(self) -> f64 {
        self.0 as f64 / 1000.0
    }

    /// With its sign, as a change reads: `+1.25`, `-3`, `0`.
    pub fn signed(self) -> String {
        if self > Points::ZERO {
            format!("+{self}")
        } else {
            self.to_string()
        }
    }

    /// As a JSON number: an integer when whole, else the shortest decimal.
    pub fn to_json(self) -> serde_json::Value {
        if self.0 % 1000 == 0 {
            serde_json::Value::from(self.0 / 1000)
        } else {
            serde_json::Value::from(self.as_f64())
        }
    }
}

impl serde::Serialize for Points {
    /// An integer when whole, else a decimal number (`0.5`).
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0 % 1000 == 0 {
            s.serialize_i64(self.0 / 1000)
        } else {
            s.serialize_f64(self.as_f64())
        }
    }
}

impl fmt::Display for Points {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let a = self.0.unsigned_abs();
        let (whole, frac) = (a / 1000, a % 1000);
        if frac == 0 {
            write!(f, "{sign}{whole}")
        } else {
            let s = format!("{frac:03}");
            write!(f, "{sign}{whole}.{}", s.trim_end_matches('0'))
        }
    }
}

impl Add for Points {
    type Output = Points;
    fn add(self, o: Points) -> Points {
        Points(self.0.saturating_add(o.0))
    }
}

impl AddAssign for Points {
    fn add_assign(&mut self, o: Points) {
        self.0 = self.0.saturating_add(o.0);
    }
}

impl Sub for Points {
    type Output = Points;
    fn sub(self, o: Points) -> Points {
        Points(self.0.saturating_sub(o.0))
    }
}

impl SubAssign for Points {
    fn sub_assign(&mut self, o: Points) {
        self.0 = self.0.saturating_sub(o.0);
    }
}

impl Neg for Points {
    type Output = Points;
    fn neg(self) -> Points {
        Points(self.0.saturating_neg())
    }
}

impl Mul<i64> for Points {
    type Output = Points;
    fn mul(self, k: i64) -> Points {
        Points(self.0.saturating_mul(k))
    }
}

impl Sum for Points {
    fn sum<I: Iterator<Item = Points>>(iter: I) -> Points {
        iter.fold(Points::ZERO, Add::add)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_and_json() {
        assert_eq!(Points::whole(230).to_string(), "230");
        assert_eq!(Points::HALF.to_string(), "0.5");
        assert_eq!((-Points::from_milli(1250)).to_string(), "-1.25");
        assert_eq!(Points::HALF.to_json(), serde_json::json!(0.5));
        assert_eq!(Points::whole(2).to_json(), serde_json::json!(2));
        assert_eq!(Points::from_f64(0.5), Some(Points::HALF));
        assert_eq!(Points::from_f64(f64::NAN), None);
    }

    #[test]
    fn arithmetic_saturates() {
        let big = Points::from_milli(i64::MAX - 1);
        assert_eq!(big + big, Points::from_milli(i64::MAX));
        assert_eq!(-big - big, Points::from_milli(i64::MIN));
        assert_eq!(big * 3, Points::from_milli(i64::MAX));
        let mut sum = Points::ZERO;
        for _ in 0..20 {
            sum += Points::from_milli(i64::MAX / 8);
        }
        assert!(sum > Points::ZERO);
        assert_eq!(
            Points::from_wide_milli(i128::MAX),
            Points::from_milli(i64::MAX)
        );
        assert_eq!(
            Points::from_milli(i64::MIN).abs(),
            Points::from_milli(i64::MAX)
        );
    }
}
