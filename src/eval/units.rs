//! The search's unit scale: [`Units`], 100 per pawn of the variant's
//! scale, coarser where a variant's awards would overflow a search path;
//! and the value curve ([`super::curve`]) of the variants whose values are
//! expected margins.

use super::curve;
use super::mode::net_alone;
use crate::scoring::{Points, Scorer};

/// Internal score units: 100 per pawn of material in every variant (a pawn
/// is [`Scorer::points_per_pawn`], from the point table), so pruning
/// margins mean the same everywhere, unless the variant's awards
/// are so large that a search path could not hold them: then the units
/// grow coarser until the largest margin of [`Units::PATH_PLIES`] actions
/// and an ending ([`Scorer::action_bound`], [`Scorer::end_bound`]) fits
/// within [`Units::limit`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Units {
    /// Thousandths of a point per 100 units: the scale's pawn times
    /// [`Scorer::search_pawns`].
    ppp_milli: i64,
    /// Thousandths of a point per pawn of the variant's scale
    /// ([`Scorer::points_per_pawn`]): what the evaluator's weights in
    /// thousandths of a pawn are worth ([`Units::pawns`]).
    pawn_milli: i64,
    /// The largest magnitude of a path's margin and of an estimate.
    limit: i32,
    /// The margin of a win where the search's values lie on the value
    /// curve ([`curve`]): the variants whose evaluators return expected
    /// margins and whose actions earn nothing by themselves (sets,
    /// dynamic, tiebraker), with its table. `None`: the values are the
    /// margins.
    curve: Option<&'static curve::Table>,
}

impl Units {
    /// The longest search path (in actions) whose margin the units hold.
    pub const PATH_PLIES: u32 = 128;
    /// The limit of a variant with the search's decisive band: the margins
    /// of decided games stay well apart from one another by ply.
    pub const BAND_LIMIT: i32 = 1 << 19;
    /// The limit of a variant without the decisive band.
    pub const LIMIT: i32 = 1 << 27;

    /// The units of a scorer's variant.
    pub fn of(scorer: &Scorer) -> Units {
        let limit = if scorer.decisive_band() {
            Units::BAND_LIMIT
        } else {
            Units::LIMIT
        };
        let path = i128::from(scorer.action_bound().milli()).abs() * i128::from(Units::PATH_PLIES)
            + i128::from(scorer.end_bound().milli()).abs();
        // The least thousandths per pawn that bring the path within the
        // limit (rounded up; both bounds are at most `i64::MAX`, so this
        // fits an `i64`).
        let limit_wide = i128::from(limit);
        let needed = (path * 100 + limit_wide - 1) / limit_wide;
        let needed = i64::try_from(needed).unwrap_or(i64::MAX);
        let pawn_milli = scorer.points_per_pawn().milli().max(1);
        let mut units = Units {
            ppp_milli: pawn_milli.saturating_mul(scorer.search_pawns()).max(needed),
            pawn_milli,
            limit,
            curve: None,
        };
        if !net_alone(scorer.variant()) && !scorer.has_action_awards() {
            // A win is ten pawns of the variant's scale.
            units.curve = Some(curve::Table::of(units.from_points(units.pawns(10_000))));
        }
        units
    }

    /// The search value of the expected margin `m` (outside the decisive
    /// band): `m` itself, or its value on the curve ([`curve::value_of`]).
    #[inline]
    pub fn value_of(self, m: i32) -> i32 {
        match self.curve {
            Some(table) => table.value_of(m),
            None => m,
        }
    }

    /// The expected margin of the search value `v` (outside the decisive
    /// band): the inverse of [`Units::value_of`].
    #[inline]
    pub fn margin_of(self, v: i32) -> i32 {
        match self.curve {
            Some(table) => curve::margin_of(v, table.win()),
            None => v,
        }
    }

    /// `milli_pawns` thousandths of a pawn of the variant's scale, in
    /// points: the evaluator's weights scale with the point table.
    #[inline]
    pub fn pawns(self, milli_pawns: i64) -> Points {
        Points::from_wide_milli(i128::from(self.pawn_milli) * i128::from(milli_pawns) / 1000)
    }

    /// The largest magnitude of a search path's margin (and of an
    /// evaluation) in these units.
    #[inline]
    pub fn limit(self) -> i32 {
        self.limit
    }

    /// Points in internal units (rounded towards zero, saturating).
    #[inline]
    pub fn from_points(self, p: Points) -> i32 {
        let v = match p.milli().checked_mul(100) {
            Some(x) => x / self.ppp_milli,
            None => {
                let x = i128::from(p.milli()) * 100 / i128::from(self.ppp_milli);
                x.clamp(-(1 << 28), 1 << 28) as i64
            }
        };
        v.clamp(-(1 << 28), 1 << 28) as i32
    }

    /// Whether a unit is worth more than a point, so that awards a few
    /// points apart can round to the same value (wacky's largest awards
    /// make its units about 300 points).
    #[inline]
    pub fn coarse(self) -> bool {
        self.ppp_milli > 100_000
    }

    /// Internal units in points.
    pub fn to_points(self, v: i32) -> f64 {
        f64::from(v) * self.ppp_milli as f64 / 100_000.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    #[test]
    fn weights_scale_with_the_table() {
        let plain = Units::of(&Scorer::new(Variant::Wacky));
        assert_eq!(plain.pawns(13_800), Points::whole(13_800));
        let twice = Scorer::with_tables(
            Variant::Wacky,
            crate::scoring::Tables::from_toml("[wacky]\ncheck = 10000\n").unwrap(),
        );
        assert_eq!(Units::of(&twice).pawns(13_800), Points::whole(27_600));
        let stylish = Units::of(&Scorer::new(Variant::Stylish));
        assert_eq!(stylish.pawns(24_000), Points::whole(120));
        // The search's pawn: five of the scale's in stylish (25 points),
        // thirty in wacky (30,000 points), whatever the table's check pays.
        assert_eq!(stylish.from_points(Points::whole(25)), 100);
        let sets = Units::of(&Scorer::new(Variant::Sets));
        assert_eq!(sets.from_points(sets.pawns(1000)), 100);
        assert_eq!(plain.from_points(Points::whole(30_000)), 100);
        assert_eq!(plain.from_points(Points::whole(5_000)), 16);
        assert_eq!(Units::of(&twice).from_points(Points::whole(60_000)), 100);
    }
}
