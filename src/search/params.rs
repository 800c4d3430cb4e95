//! Every tunable constant of the search, in one place.

/// Deepest ply the search reaches (stack size).
pub const MAX_PLY: usize = 120;
/// Iterative deepening never goes deeper than this.
pub const MAX_DEPTH: i32 = 100;

/// Aspiration window half-width at the start, in internal units.
pub const ASPIRATION: i32 = 30;
/// Depth from which aspiration windows are used.
pub const ASPIRATION_DEPTH: i32 = 5;

/// Null-move pruning: minimum depth and base reduction.
pub const NULL_MIN_DEPTH: i32 = 3;
/// Null-move reduction: `NULL_BASE + depth / NULL_DIV`.
pub const NULL_BASE: i32 = 3;
/// See [`NULL_BASE`].
pub const NULL_DIV: i32 = 4;

/// Reverse futility pruning: deepest depth and margin per ply.
pub const RFP_DEPTH: i32 = 6;
/// See [`RFP_DEPTH`].
pub const RFP_MARGIN: i32 = 80;

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

/// Late-move reductions: minimum depth and moves searched before reducing.
pub const LMR_DEPTH: i32 = 3;
/// See [`LMR_DEPTH`].
pub const LMR_MOVES: usize = 3;

/// Quiescence: plies below the horizon after which only the static
/// evaluation is returned (guards compulsory capture-or-check and check
/// sequences).
pub const QS_MAX_PLY: i32 = 12;
/// Delta pruning margin in quiescence.
pub const DELTA_MARGIN: i32 = 200;

/// Tiebraker: the least remaining depth at which a `disk` is searched.
pub const DISK_MIN_DEPTH: i32 = 4;

/// Publish the node count, and check the clock and the node limit, every
/// this many nodes (the stop flag is checked at every node).
pub const CHECK_EVERY: u64 = 1024;
/// History values stay within this bound.
pub const HISTORY_MAX: i32 = 16_384;

/// Internal iterative reduction: the depth from which a node without a
/// table move is searched one ply shallower.
pub const IIR_DEPTH: i32 = 4;

/// Static-exchange pruning: deepest depth, and the loss allowed per ply for
/// captures and per ply squared for quiet moves.
pub const SEE_PRUNE_DEPTH: i32 = 6;
/// See [`SEE_PRUNE_DEPTH`].
pub const SEE_CAPTURE_MARGIN: i32 = 90;
/// See [`SEE_PRUNE_DEPTH`].
pub const SEE_QUIET_MARGIN: i32 = 25;
