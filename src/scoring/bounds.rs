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
//! Each variant's values come from its scoring ([`VariantScoring`](super::variants::VariantScoring)), beside
//! its awards; this module asks for them and adds what every variant
//! shares (a scale that is never zero).

use super::{Points, Scorer};

impl Scorer {
    /// The largest magnitude of the margin one action earns by itself
    /// ([`Scorer::action_award`]) under the tables (saturating).
    pub fn action_bound(&self) -> Points {
        self.scoring().action_bound(self.tables())
    }

    /// The largest magnitude of the margin an ending adds (its last-ply
    /// part and its outcome award; wacky's time bonus excluded, as the
    /// search plays without a clock; saturating).
    pub fn end_bound(&self) -> Points {
        self.scoring().end_bound(self.tables())
    }

    /// How many pawns of the variant's scale ([`Scorer::points_per_pawn`])
    /// a pawn of the search's units stands for: one, except where the
    /// evaluation's future points move by many of the scale's pawns per
    /// pawn of material, so that the search's margins in pawns (futility,
    /// razoring, null move, aspiration windows) would meet every pawn of
    /// material as several: wacky (thirty) and stylish (five). Each won its
    /// self-play SPRT against the scale's own pawn by hundreds of Elo
    /// (`docs/uci.md`, "Search units").
    pub fn search_pawns(&self) -> i64 {
        self.scoring().search_pawns()
    }

    /// About how many of the variant's points one pawn of material is
    /// worth, from one value of its table
    /// ([`VariantScoring::pawn_scale`](super::variants::VariantScoring::pawn_scale)), so that search margins mean the
    /// same in every variant and scale with the table. Where that value
    /// pays nothing, a tenth of the largest award; always positive.
    pub fn points_per_pawn(&self) -> Points {
        let (value, pawns) = self.scoring().pawn_scale(self.tables());
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
        self.scoring().decisive_band(self.tables())
    }

    /// Whether any action can earn points by itself or change what later
    /// awards pay (the memo): stylish and wacky. The search skips the
    /// action award on its hot path otherwise.
    pub fn has_action_awards(&self) -> bool {
        self.scoring().has_action_awards()
    }

    /// Whether the memo's chains change future awards, so that the memo
    /// belongs in the search key: wacky, unless its counter and
    /// combination awards are all zero.
    pub fn memo_in_key(&self) -> bool {
        self.scoring().memo_in_key(self.tables())
    }

    /// The most a quiet action (no capture, promotion or check) can earn by
    /// itself: wacky's distance and castling awards, nothing elsewhere.
    /// Widens the search's futility margins.
    pub fn quiet_award_bound(&self) -> Points {
        self.scoring().quiet_award_bound(self.tables())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;
    use crate::scoring::Tables;

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
