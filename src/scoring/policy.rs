//! What the search asks of a variant's scoring, computed from its tables:
//! the largest margins that actions and endings can produce (so that the
//! search's units can hold every one of them), and whether a proven win
//! outranks every estimate (the decisive band).
//!
//! The bounds are sound however large the values: awards saturate at the
//! ends of the [`Points`] range, and so do the bounds.
//!
//! The awards themselves live in the variant modules and `outcome`; this
//! module only bounds them.

use super::{Points, Scorer};
use crate::rules::Variant;

impl Scorer {
    /// The largest magnitude of the margin one action earns by itself
    /// ([`Scorer::action_award`]) under the tables (saturating).
    pub fn action_bound(&self) -> Points {
        let t = self.tables();
        match self.variant() {
            Variant::Stylish => t.stylish.action_bound(),
            Variant::Wacky => t.wacky.action_bound(),
            _ => Points::ZERO,
        }
    }

    /// The largest magnitude of the margin an ending adds (its last-ply
    /// part and its outcome award; wacky's time bonus excluded, as the
    /// search plays without a clock; saturating).
    pub fn end_bound(&self) -> Points {
        let t = self.tables();
        match self.variant() {
            Variant::Chess => t.chess.end_bound(),
            Variant::Extinction => t.extinction.end_bound(),
            Variant::Stylish => t.stylish.end_bound(),
            Variant::Wacky => t.wacky.end_bound(),
            Variant::Sets => t.sets.end_bound(),
            Variant::Dynamic => t.dynamic.end_bound(),
            Variant::Tiebraker => t.dynamic.end_bound().max(t.tiebraker.end_bound()),
        }
    }

    /// Whether a proven checkmate or extinction outranks every estimate
    /// (the search's decisive band): not in stylish, which pays by style,
    /// nor in wacky, where a mate pays its award and bonuses, often less
    /// than the checks a won position still collects.
    pub fn decisive_band(&self) -> bool {
        !matches!(self.variant(), Variant::Stylish | Variant::Wacky)
    }
}
