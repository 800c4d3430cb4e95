//! What the search asks of a variant's scoring, computed from its tables:
//! the largest margins that actions and endings can produce (so that the
//! search's units can hold every one of them), and whether a proven win
//! outranks every estimate (the decisive band), whether the memo belongs
//! in the search key, the most a quiet action earns, and the scale of the
//! variant's points (points per pawn).
//!
//! The bounds are sound however large the values: awards saturate at the
//! ends of the [`Points`] range, and so do the bounds.
//!
//! The awards themselves live in the variant modules and `outcome`; this
//! module only bounds them.

use super::tables::Split;
use super::{Points, Scorer, Tables};
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

    /// How many pawns of the variant's scale ([`Scorer::points_per_pawn`])
    /// a pawn of the search's units stands for: one, except where the
    /// evaluation's future points move by many of the scale's pawns per
    /// pawn of material, so that the search's margins in pawns (futility,
    /// razoring, null move, aspiration windows) would meet every pawn of
    /// material as several: wacky (thirty: the fall awards grow with every
    /// capture, and material decides who collects them and who mates) and
    /// stylish (five: the side ahead collects the captures and the mate
    /// awards). Each won its self-play SPRT against the scale's own pawn
    /// by hundreds of Elo (`docs/uci.md`, "Search units").
    pub fn search_pawns(&self) -> i64 {
        match self.variant() {
            Variant::Wacky => 30,
            Variant::Stylish => 5,
            _ => 1,
        }
    }

    /// About how many of the variant's points one pawn of material is
    /// worth, from one value of its table, so that search margins mean the
    /// same in every variant and scale with the table: a tenth of a win's
    /// margin in chess, extinction, sets, dynamic and tiebraker (0.1, 0.1,
    /// 0.2, 10 with the defaults), a 22nd of a rook's mate from afar in
    /// stylish (the specification's one surviving mate value, 110: 5), a
    /// fifth of a check in wacky (1000). Where that value pays nothing, a
    /// tenth of the largest award; always positive.
    pub fn points_per_pawn(&self) -> Points {
        let t = self.tables();
        let (value, pawns) = match self.variant() {
            Variant::Chess => (t.chess.win - t.chess.loss, 10),
            Variant::Extinction => (t.extinction.win - t.extinction.loss, 10),
            Variant::Sets => (t.sets.mate, 10),
            Variant::Dynamic | Variant::Tiebraker => (gap(t.dynamic.mate), 10),
            Variant::Stylish => (t.stylish.mate.rook[1], 22),
            Variant::Wacky => (t.wacky.check, 5),
        };
        let value = if value > Points::ZERO {
            value
        } else {
            self.action_bound().max(self.end_bound())
        };
        Points::from_milli((value.milli() / pawns).max(1))
    }

    /// Whether a proven checkmate or extinction outranks every estimate
    /// (the search's decisive band): when the variant pays by the board
    /// result and, in every phase of the game, a win pays its winner more
    /// than a loss and at least as much as any other ending would. Never
    /// in stylish, which pays by style, nor in wacky, where a mate pays its
    /// award and bonuses, often less than the checks a won position still
    /// collects.
    pub fn decisive_band(&self) -> bool {
        let t = self.tables();
        match self.variant() {
            Variant::Stylish | Variant::Wacky => false,
            Variant::Chess => t.chess.win > t.chess.loss,
            Variant::Extinction => t.extinction.win > t.extinction.loss,
            Variant::Sets => {
                let s = &t.sets;
                // Every other ending pays one side only.
                let others = [
                    s.bare_king,
                    s.mutual_bare,
                    s.stalemate,
                    s.draw,
                    s.perpetual_check,
                    s.mutual_perpetual_check,
                    s.repetition,
                ];
                outranks(s.mate, others.map(Points::abs))
            }
            Variant::Dynamic => dynamic_band(t),
            Variant::Tiebraker => dynamic_band(t) && tiebraker_band(t),
        }
    }

    /// Whether any action can earn points by itself or change what later
    /// awards pay (the memo): stylish and wacky. The search skips the
    /// action award on its hot path otherwise.
    pub fn has_action_awards(&self) -> bool {
        matches!(self.variant(), Variant::Stylish | Variant::Wacky)
    }

    /// Whether the memo's chains change future awards, so that the memo
    /// belongs in the search key: wacky, unless its counter and
    /// combination awards are all zero.
    pub fn memo_in_key(&self) -> bool {
        self.variant() == Variant::Wacky && self.tables().wacky.pays_chains()
    }

    /// The most a quiet action (no capture, promotion or check) can earn by
    /// itself: wacky's distance and castling awards, nothing elsewhere.
    /// Widens the search's futility margins.
    pub fn quiet_award_bound(&self) -> Points {
        match self.variant() {
            Variant::Wacky => self.tables().wacky.quiet_bound(),
            _ => Points::ZERO,
        }
    }
}

/// The margin of a split for its first side.
fn gap(s: Split) -> Points {
    s[0] - s[1]
}

/// Whether a win's margin `win` is positive and at least each of `others`,
/// the winner's margins in the other endings.
fn outranks<const N: usize>(win: Points, others: [Points; N]) -> bool {
    win > Points::ZERO && others.iter().all(|&o| win >= o)
}

/// The dynamic table (and tiebraker before a disk and in the swap window).
fn dynamic_band(t: &Tables) -> bool {
    let d = &t.dynamic;
    let others = [
        d.stalemate,
        d.perpetual_by_black,
        d.perpetual_by_white,
        d.draw,
    ];
    outranks(gap(d.mate), others.map(|s| gap(s).abs()))
}

/// The tiebraker phases after a disk.
fn tiebraker_band(t: &Tables) -> bool {
    let (tb, d) = (&t.tiebraker, &t.dynamic);
    let swapped = outranks(
        gap(tb.swapped_mate),
        [tb.swapped_stalemate, tb.swapped_draw].map(|s| gap(s).abs()),
    );
    // After an accepted disk a perpetual check by the other player is
    // scored as in dynamic.
    let accepted_others = [
        tb.accepted_stalemate,
        tb.accepted_disk_perpetual,
        tb.accepted_draw,
        d.perpetual_by_black,
        d.perpetual_by_white,
    ]
    .map(|s| gap(s).abs());
    let accepted = outranks(gap(tb.accepted_disk_mates), accepted_others)
        && outranks(gap(tb.accepted_other_mates), accepted_others);
    // Restored: the first player wins with `restored_other` (which every
    // ending but the restorer's mate and stalemate pays it); the restorer
    // wins with its mate.
    let (other, mates, stalemates) = (
        gap(tb.restored_other),
        gap(tb.restored_restorer_mates),
        gap(tb.restored_restorer_stalemates),
    );
    let restored = outranks(other, [-mates, -stalemates]) && outranks(mates, [stalemates, -other]);
    swapped && accepted && restored
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scorer(variant: Variant, toml: &str) -> Scorer {
        Scorer::with_tables(variant, Tables::from_toml(toml).unwrap())
    }

    #[test]
    fn default_bounds() {
        for v in Variant::ALL {
            let s = Scorer::new(v);
            let result_scored = !matches!(v, Variant::Stylish | Variant::Wacky);
            assert_eq!(s.decisive_band(), result_scored, "{v:?}");
            assert_eq!(s.has_action_awards(), !result_scored, "{v:?}");
            assert_eq!(s.memo_in_key(), v == Variant::Wacky, "{v:?}");
        }
        // Castling: the king's two squares at 18 x 10 each and 500.
        assert_eq!(
            Scorer::new(Variant::Wacky).quiet_award_bound(),
            Points::whole(860)
        );
        assert_eq!(
            Scorer::new(Variant::Stylish).quiet_award_bound(),
            Points::ZERO
        );
    }

    #[test]
    fn bounds_follow_the_tables() {
        // A win that pays no more than a loss, or less than another ending,
        // does not outrank every estimate.
        assert!(!scorer(Variant::Chess, "[chess]\nwin = 0\n").decisive_band());
        assert!(!scorer(Variant::Sets, "[sets]\nstalemate = 3\n").decisive_band());
        assert!(!scorer(Variant::Dynamic, "[dynamic]\ndraw = [120, 0]\n").decisive_band());
        let swapped = "[tiebraker]\nswapped_stalemate = [95, 5]\n";
        assert!(scorer(Variant::Dynamic, swapped).decisive_band());
        assert!(!scorer(Variant::Tiebraker, swapped).decisive_band());
        let restored = "[tiebraker]\nrestored_restorer_stalemates = [90, 10]\n";
        assert!(!scorer(Variant::Tiebraker, restored).decisive_band());
        // Without chain awards the memo stays out of the key.
        let no_chains = "[wacky]\ncounter = []\ncounter_step = 0\ncombination = [0]\n\
                         combination_step = 0\n";
        assert!(!scorer(Variant::Wacky, no_chains).memo_in_key());
        // The quiet bound follows the distance and castling values.
        let w = scorer(Variant::Wacky, "[wacky]\ncastling = 0\nper_square = 20\n");
        // The king's two castling squares: 18 x 20 x 2; a bishop's seven: 3 x 20 x 7.
        assert_eq!(w.quiet_award_bound(), Points::whole(720));
        let w = scorer(
            Variant::Wacky,
            "[wacky]\ncastling = -1000\nper_square = -5\n",
        );
        assert_eq!(w.quiet_award_bound(), Points::ZERO);
    }
}
