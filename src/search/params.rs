//! Every tunable constant of the search, in one place, grouped by what it
//! tunes: limits and bookkeeping, iterative deepening, threads, pruning,
//! reductions and extensions, quiescence, move ordering, time, the table.
//!
//! Plain constants. The ones listed in [`TUNABLES`] are read through
//! [`tuned!`]: in the default build that is the constant itself; a build
//! with the `spsa` feature reads a value that `setoption` may change (one
//! UCI option per tunable, named as the constant), so that `tally spsa` can
//! play builds apart by their options alone. Values are in internal units
//! (100 per pawn) unless said otherwise. Time budgets per move are
//! [`Budget`](super::Budget)'s.

use std::time::Duration;

// Limits and bookkeeping.

/// Deepest ply the search reaches (stack size).
pub const MAX_PLY: usize = 120;
/// Iterative deepening never goes deeper than this.
pub const MAX_DEPTH: i32 = 100;
/// Publish the node count, and check the clock and the node limit, every
/// this many nodes (the stop flag is checked at every node).
pub const CHECK_EVERY: u64 = 1024;
/// An aspiration failure is reported (a bound line) only after this long.
pub const REPORT_BOUND_AFTER: Duration = Duration::from_secs(2);

// Iterative deepening and aspiration windows.

/// Aspiration window half-width at the start, in internal units.
pub const ASPIRATION: i32 = 15;
/// Depth from which aspiration windows are used.
pub const ASPIRATION_DEPTH: i32 = 5;
/// After a failure the half-width grows by `delta / ASPIRATION_GROWTH_DIV
/// + ASPIRATION_GROWTH_ADD`.
pub const ASPIRATION_GROWTH_DIV: i32 = 2;
/// See [`ASPIRATION_GROWTH_DIV`].
pub const ASPIRATION_GROWTH_ADD: i32 = 10;
/// Past this half-width the window opens fully.
pub const ASPIRATION_MAX: i32 = 2000;
/// After each fail-high the root is searched a ply shallower, down to this
/// many plies below the iteration's depth (back to it after a fail-low).
pub const ASPIRATION_FAIL_HIGH_MAX: i32 = 3;

// Threads (Lazy SMP).

/// Helper threads search every depth up to this one.
pub const SMP_SKIP_FROM: i32 = 2;
/// Deeper, helper `id` skips depth `d` when `(d + id) % SMP_SKIP_CYCLE == 0`,
/// so the threads spread over depths.
pub const SMP_SKIP_CYCLE: i32 = 4;
/// The thread vote: a line's weight is `(value - worst value +
/// VOTE_OFFSET)`, capped at [`VOTE_VALUE_CAP`], times its depth.
pub const VOTE_OFFSET: i64 = 20;
/// See [`VOTE_OFFSET`].
pub const VOTE_VALUE_CAP: i64 = 1 << 20;

// Pruning.

/// Reverse futility pruning: deepest depth and margin per ply.
pub const RFP_DEPTH: i32 = 6;
/// See [`RFP_DEPTH`].
pub const RFP_MARGIN: i32 = 80;
/// Extinction: the extra reverse-futility margin of a node whose last
/// piece of a type is attacked.
pub const RFP_THREAT_MARGIN: i32 = 250;

/// Razoring: deepest depth, and the margin `RAZOR_BASE + RAZOR_PER_PLY_SQ
/// * depth²` below alpha from which a node is tried by quiescence alone.
pub const RAZOR_DEPTH: i32 = 3;
/// See [`RAZOR_DEPTH`].
pub const RAZOR_BASE: i32 = 250;
/// See [`RAZOR_DEPTH`].
pub const RAZOR_PER_PLY_SQ: i32 = 150;

/// Null-move pruning: minimum depth.
pub const NULL_MIN_DEPTH: i32 = 3;
/// Null-move reduction: `NULL_BASE + depth / NULL_DIV`.
pub const NULL_BASE: i32 = 3;
/// See [`NULL_BASE`].
pub const NULL_DIV: i32 = 3;
/// The null move is reduced one ply more per this much of static
/// evaluation above beta...
pub const NULL_EVAL_DIV: i32 = 200;
/// ...up to this many plies.
pub const NULL_EVAL_MAX: i32 = 3;

/// Futility pruning of quiet moves: deepest depth, base and per-ply margin.
pub const FUTILITY_DEPTH: i32 = 5;
/// See [`FUTILITY_DEPTH`].
pub const FUTILITY_BASE: i32 = 90;
/// See [`FUTILITY_DEPTH`].
pub const FUTILITY_PER_PLY: i32 = 90;

/// Late-move pruning: quiet moves searched at depth d before the rest are
/// skipped is `LMP_BASE + d * d`.
pub const LMP_BASE: usize = 3;
/// Deepest depth for late-move pruning.
pub const LMP_DEPTH: i32 = 6;
/// When the static evaluation is not improving on two plies before, late
/// moves are pruned after this many times fewer quiet moves.
pub const LMP_NOT_IMPROVING_DIV: usize = 2;

/// Static-exchange pruning: deepest depth, and the loss allowed per ply for
/// captures and per ply squared for quiet moves.
pub const SEE_PRUNE_DEPTH: i32 = 6;
/// See [`SEE_PRUNE_DEPTH`].
pub const SEE_CAPTURE_MARGIN: i32 = 90;
/// See [`SEE_PRUNE_DEPTH`].
pub const SEE_QUIET_MARGIN: i32 = 25;

/// Tiebraker: the least remaining depth at which a `disk` is searched.
pub const DISK_MIN_DEPTH: i32 = 4;

// Reductions and extensions.

/// Internal iterative reduction: the depth from which a node without a
/// table move is searched one ply shallower.
pub const IIR_DEPTH: i32 = 4;

/// Late-move reductions: minimum depth and moves searched before reducing.
pub const LMR_DEPTH: i32 = 3;
/// See [`LMR_DEPTH`].
pub const LMR_MOVES: usize = 3;
/// The reduction at depth d after m moves: `LMR_BASE + ln d * ln m /
/// LMR_DIVISOR`, rounded down.
pub const LMR_BASE: f64 = 0.5;
/// See [`LMR_BASE`].
pub const LMR_DIVISOR: f64 = 2.2;
/// A quiet move's history (main and continuation tables together)
/// reduces it one ply less per this much.
pub const LMR_HISTORY_DIV: i32 = 12_000;

/// Singular extensions: the least depth at which the table's action is
/// tested, how much shallower its entry may be, and the margin per ply
/// below its value that the other actions must stay under.
pub const SE_DEPTH: i32 = 7;
/// See [`SE_DEPTH`].
pub const SE_TT_DEPTH: i32 = 3;
/// See [`SE_DEPTH`].
pub const SE_MARGIN: i32 = 2;
/// An action that stays this far below the singular bound as well is
/// extended two plies (not in PV nodes), at most `SE_DOUBLES_MAX` times on
/// a line.
pub const SE_DOUBLE_MARGIN: i32 = 15;
/// See [`SE_DOUBLE_MARGIN`].
pub const SE_DOUBLES_MAX: i32 = 6;

/// Check and singular extensions apply while the ply is below this many
/// times the iteration's depth, so extended sequences cannot run away.
pub const CHECK_EXTENSION_PLIES: i32 = 2;

// Quiescence.

/// Plies below the horizon after which only the static evaluation is
/// returned (guards compulsory capture-or-check and check sequences).
pub const QS_MAX_PLY: i32 = 12;
/// Delta pruning margin in quiescence.
pub const DELTA_MARGIN: i32 = 200;

// Move ordering.

/// Exchange values by role (pawn .. king) for SEE and MVV-LVA.
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 3000];
/// MVV-LVA: `victim * MVV_LVA_VICTIM - attacker / MVV_LVA_ATTACKER_DIV`
/// over exchange values (the victim decides, the attacker breaks ties).
pub const MVV_LVA_VICTIM: i32 = 8;
/// See [`MVV_LVA_VICTIM`].
pub const MVV_LVA_ATTACKER_DIV: i32 = 100;
/// The capture history counts this many times less than MVV-LVA when
/// ordering captures.
pub const CAPTURE_HISTORY_DIV: i32 = 16;
/// Correction history: table size (bits of the pawn-structure hash)...
pub const CORRECTION_BITS: u32 = 14;
/// ...its entries' resolution (fractions of an internal unit)...
pub const CORRECTION_GRAIN: i32 = 256;
/// ...the largest correction learnt, in internal units...
pub const CORRECTION_MAX: i32 = 400;
/// ...and the averaging: a search of depth d weighs `min(d + 1,
/// CORRECTION_WEIGHT_MAX)` out of [`CORRECTION_WEIGHTS`].
pub const CORRECTION_WEIGHT_MAX: i32 = 16;
/// See [`CORRECTION_WEIGHT_MAX`].
pub const CORRECTION_WEIGHTS: i32 = 256;
/// The number of correction tables: pawns, white's pieces, black's
/// pieces, minor pieces, major pieces (`history::Slots`).
pub const CORRECTION_TABLES: usize = 5;
/// The correction added to a static evaluation: each table's average
/// times its weight here, summed, over [`CORRECTION_MIX_DIV`].
pub const CORRECTION_MIX: [i32; CORRECTION_TABLES] = [2, 1, 1, 1, 1];
/// See [`CORRECTION_MIX`].
pub const CORRECTION_MIX_DIV: i32 = 4;
/// History values stay within this bound.
pub const HISTORY_MAX: i32 = 16_384;
/// A cut-off rewards its quiet move (and punishes the quiet moves tried
/// before it) by `depth * depth * HISTORY_BONUS`, at most [`HISTORY_MAX`].
pub const HISTORY_BONUS: i32 = 16;
/// Move ordering: a quiet move that takes an attacked knight or bishop,
/// rook, or queen out of the attack of a less valuable piece to a square
/// no such piece attacks gets this on top of its history.
pub const ESCAPE_BONUS: [i32; 3] = [12_000, 24_000, 40_000];

// Time (within the budget of a move).

/// Without `movestogo`, the clock is shared as if this many moves were
/// left.
pub const TIME_MOVES: u32 = 25;
/// The same in variants whose kings can be taken (extinction), whose games
/// are over in about 20 moves from the opening.
pub const TIME_MOVES_KINGS_CAPTURABLE: u32 = 15;

/// The soft budget's share used when the best action is stable...
pub const TIME_BASE: f64 = 0.5;
/// ...plus this much per recent change of best action...
pub const TIME_PER_CHANGE: f64 = 0.35;
/// ...counting at most this many changes...
pub const TIME_MAX_CHANGES: f64 = 3.0;
/// ...each worth this factor less after every iteration...
pub const TIME_CHANGE_DECAY: f64 = 0.5;
/// ...plus [`TIME_DROP_EXTRA`] when the best value dropped by more than
/// this since the iteration before...
pub const TIME_DROP: i32 = 30;
/// ...see [`TIME_DROP`]...
pub const TIME_DROP_EXTRA: f64 = 0.4;
/// ...all scaled by `TIME_NODES_TOP - TIME_NODES_SLOPE * share`, where
/// `share` is the fraction of the root's nodes spent on the best action:
/// a best action that took most of the effort needs less confirming...
pub const TIME_NODES_TOP: f64 = 1.9;
/// ...see [`TIME_NODES_TOP`]...
pub const TIME_NODES_SLOPE: f64 = 1.3;
/// ...and never more than this share of the soft budget.
pub const TIME_MAX_FACTOR: f64 = 1.5;
/// With a single legal action on a clock, the depth that is enough.
pub const SINGLE_ACTION_DEPTH: i32 = 4;
/// `go mate N` (without `infinite`) gives up at depth `2N +
/// MATE_EXTRA_DEPTH` with no mate in `N` found: far past the `2N - 1`
/// plies a mate in `N` takes, for what pruning and reductions hide.
pub const MATE_EXTRA_DEPTH: i32 = 8;

// Transposition table.

/// A bound from the current search does not replace an entry of the same
/// position more than this much deeper.
pub const TT_KEEP_DEEPER: i32 = 3;
/// Replacement: an entry's worth is its depth less this much per search
/// since it was written.
pub const TT_AGE_WEIGHT: i32 = 8;

// Endgame tables.

/// A table result goes into the transposition table this much deeper than
/// the node that probed it: it holds whatever the depth.
pub const TB_STORE_EXTRA_DEPTH: i32 = 6;
/// A win (loss) that the 50-move rule turns into a draw is worth a draw
/// and this many units (less), so the search keeps the better of two
/// draws.
pub const TB_NEAR_DRAW: i32 = 2;

// Tuning (SPSA).

/// One constant a tuner may move: its name (the UCI option's, in a build
/// with the `spsa` feature), its default and its range, in the option's
/// whole units (a fractional constant counts in thousandths).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tunable {
    /// The constant's name.
    pub name: &'static str,
    /// Its value in option units.
    pub default: i32,
    /// The smallest value a tuner may set.
    pub min: i32,
    /// The largest.
    pub max: i32,
}

/// A constant's value as a whole number of option units: integers as they
/// are, fractions in thousandths.
pub trait Fixed: Copy {
    /// The value in option units.
    fn to_fixed(self) -> i32;
    /// The value of `units` option units.
    #[cfg_attr(not(feature = "spsa"), allow(dead_code))]
    fn from_fixed(units: i32) -> Self;
}

impl Fixed for i32 {
    fn to_fixed(self) -> i32 {
        self
    }
    fn from_fixed(units: i32) -> i32 {
        units
    }
}

impl Fixed for f64 {
    fn to_fixed(self) -> i32 {
        (self * 1000.0).round() as i32
    }
    fn from_fixed(units: i32) -> f64 {
        f64::from(units) / 1000.0
    }
}

/// Declares the tunable constants: [`TUNABLES`], and in a build with the
/// `spsa` feature the live values behind [`tuned!`].
macro_rules! tunables {
    ($($name:ident: $min:expr, $max:expr;)*) => {
        /// Every constant a tuner may move, in option units.
        pub fn tunables() -> Vec<Tunable> {
            vec![$(Tunable {
                name: stringify!($name),
                default: Fixed::to_fixed($name),
                min: $min,
                max: $max,
            }),*]
        }

        /// The live values of the tunable constants (a build with the
        /// `spsa` feature): [`UNSET`](live::UNSET) until an option sets one.
        /// They are the process's: every search in it reads them, so a
        /// tuner plays builds apart as separate processes.
        #[cfg(feature = "spsa")]
        pub mod live {
            use std::sync::atomic::{AtomicI32, Ordering};

            /// A value no option has set: the constant holds.
            pub const UNSET: i32 = i32::MIN;

            $(
                #[allow(missing_docs)]
                pub static $name: AtomicI32 = AtomicI32::new(UNSET);
            )*

            /// The live value of `cell`, or `default` when unset.
            #[inline]
            pub fn get<T: super::Fixed>(cell: &AtomicI32, default: T) -> T {
                match cell.load(Ordering::Relaxed) {
                    UNSET => default,
                    v => T::from_fixed(v),
                }
            }

            /// Sets the tunable called `name` (any case) to `units`;
            /// `false` when there is no such tunable.
            pub fn set(name: &str, units: i32) -> bool {
                $(
                    if name.eq_ignore_ascii_case(stringify!($name)) {
                        $name.store(units, Ordering::Relaxed);
                        return true;
                    }
                )*
                false
            }
        }
    };
}

tunables! {
    ASPIRATION: 10, 80;
    RFP_MARGIN: 40, 160;
    RAZOR_BASE: 100, 500;
    RAZOR_PER_PLY_SQ: 50, 300;
    NULL_EVAL_DIV: 100, 400;
    FUTILITY_BASE: 30, 200;
    FUTILITY_PER_PLY: 40, 180;
    SEE_CAPTURE_MARGIN: 40, 180;
    SEE_QUIET_MARGIN: 10, 60;
    LMR_BASE: 0, 1500;
    LMR_DIVISOR: 1500, 3500;
    LMR_HISTORY_DIV: 4000, 24000;
    DELTA_MARGIN: 80, 400;
    HISTORY_BONUS: 8, 32;
}

/// A tunable constant's value: the constant in the default build, its
/// live value (set by a UCI option) in a build with the `spsa` feature.
#[cfg(not(feature = "spsa"))]
macro_rules! tuned {
    ($name:ident) => {
        $crate::search::params::$name
    };
}

/// A tunable constant's value: the constant in the default build, its
/// live value (set by a UCI option) in a build with the `spsa` feature.
#[cfg(feature = "spsa")]
macro_rules! tuned {
    ($name:ident) => {
        $crate::search::params::live::get(
            &$crate::search::params::live::$name,
            $crate::search::params::$name,
        )
    };
}

pub(crate) use tuned;

#[cfg(test)]
mod tests {
    use super::*;

    /// Every tunable's default lies inside its range, and the names are
    /// distinct.
    #[test]
    fn tunables_ranges_hold_their_defaults() {
        let all = tunables();
        assert!(all.len() >= 10);
        for t in &all {
            assert!(t.min <= t.default && t.default <= t.max, "{t:?}");
            assert!(t.min < t.max, "{t:?}");
        }
        for (i, a) in all.iter().enumerate() {
            assert!(all[i + 1..].iter().all(|b| b.name != a.name));
        }
        let lmr = all.iter().find(|t| t.name == "LMR_DIVISOR").unwrap();
        assert_eq!(lmr.default, 2200);
        assert_eq!(f64::from_fixed(lmr.default), LMR_DIVISOR);
    }

    /// What the search assumes of its constants; a tuner must keep it.
    #[test]
    #[allow(clippy::assertions_on_constants)]
    fn invariants_a_tuner_must_keep() {
        // Divisors and cycles.
        assert!(ASPIRATION_GROWTH_DIV > 0 && NULL_DIV > 0 && LMR_HISTORY_DIV > 0);
        assert!(LMP_NOT_IMPROVING_DIV > 0 && NULL_EVAL_DIV > 0 && CAPTURE_HISTORY_DIV > 0);
        assert!(CORRECTION_GRAIN > 0 && CORRECTION_WEIGHT_MAX < CORRECTION_WEIGHTS);
        assert!(CORRECTION_MIX_DIV > 0 && CORRECTION_MIX.iter().all(|&w| w >= 0));
        assert!(SMP_SKIP_CYCLE > 0 && CHECK_EVERY > 0 && MVV_LVA_ATTACKER_DIV > 0);
        assert!(LMR_DIVISOR > 0.0);
        // Exchange values rise with the role; the victim decides MVV-LVA,
        // the attacker only breaks ties.
        assert!(SEE_VALUE.windows(2).all(|w| w[0] < w[1]));
        let min_step = SEE_VALUE.windows(2).map(|w| w[1] - w[0]).min().unwrap();
        assert!(min_step * MVV_LVA_VICTIM > SEE_VALUE[5] / MVV_LVA_ATTACKER_DIV);
        // A singular-extension search, at (depth - 1) / 2, is a full node
        // search: quiescence would not leave the table's action out.
        assert!((SE_DEPTH - 1) / 2 >= 1 && SE_MARGIN > 0 && SE_TT_DEPTH >= 0);
        // The stack holds every ply the search reaches.
        assert!(MAX_DEPTH as usize <= MAX_PLY);
        // Time shares stay positive and bounded.
        assert!(0.0 < TIME_BASE && TIME_BASE <= TIME_MAX_FACTOR);
        assert!((0.0..1.0).contains(&TIME_CHANGE_DECAY));
    }
}
