//! `tally bench`: fixed positions from `positions/bench.txt`, every
//! variant, one thread, 16 MiB hash, a new game before each position, to a
//! fixed depth. The node count is the search's signature.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::engine::{Engine, EngineOptions};
use crate::rules::Variant;
use crate::search::{Limits, Silent};

/// The default depth of `tally bench`.
pub const DEFAULT_DEPTH: i32 = 9;

/// The deepest bench (`tally bench` and UCI `bench`): already hours on a
/// fast machine.
pub const MAX_DEPTH: i32 = 20;

/// The bench positions, as shipped.
pub const POSITIONS: &str = include_str!("../positions/bench.txt");

/// One position's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchLine {
    /// The variant.
    pub variant: Variant,
    /// The FEN.
    pub fen: String,
    /// Nodes searched.
    pub nodes: u64,
    /// The best action found.
    pub best: String,
}

impl BenchLine {
    /// The line printed for the `i`-th position (0-based) by `tally bench`
    /// and the UCI `bench` command.
    pub fn describe(&self, i: usize) -> String {
        format!(
            "position {:>2}: {:<10} {:>10} nodes  bestmove {:<7} {}",
            i + 1,
            self.variant.id(),
            self.nodes,
            self.best,
            self.fen
        )
    }
}

/// The bench positions: `(variant, fen)`, skipping comments and blank lines.
///
/// # Errors
///
/// A message naming the line, if the shipped file is malformed.
pub fn positions() -> Result<Vec<(Variant, String)>, String> {
    let mut out = Vec::new();
    for (i, line) in POSITIONS.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (v, fen) = line
            .split_once(' ')
            .ok_or_else(|| format!("bench.txt line {}: expected '<variant> <FEN>'", i + 1))?;
        let variant = Variant::from_id(v).map_err(|e| format!("bench.txt line {}: {e}", i + 1))?;
        out.push((variant, fen.trim().to_owned()));
    }
    Ok(out)
}

/// Runs the bench at `depth`, calling `each` after every position; returns
/// the total nodes and the time spent searching.
///
/// # Errors
///
/// A message if a shipped position cannot be set up.
pub fn run(depth: i32, each: impl FnMut(usize, &BenchLine)) -> Result<(u64, Duration), String> {
    let never = Arc::new(AtomicBool::new(false));
    run_until(depth, &never, each).map(|r| r.unwrap_or_default())
}

/// [`run`] that gives up soon after `stop` is set from another thread
/// (`Ok(None)` then).
///
/// # Errors
///
/// As [`run`].
pub fn run_until(
    depth: i32,
    stop: &Arc<AtomicBool>,
    each: impl FnMut(usize, &BenchLine),
) -> Result<Option<(u64, Duration)>, String> {
    run_with(depth, &EngineOptions::default(), stop, each)
}

/// [`run_until`] with the evaluation settings of `options` (its
/// `eval_mode` and `net`; the bench's own hash and threads): the bench of
/// `tally bench --net FILE`.
///
/// # Errors
///
/// As [`run`].
pub fn run_with(
    depth: i32,
    options: &EngineOptions,
    stop: &Arc<AtomicBool>,
    mut each: impl FnMut(usize, &BenchLine),
) -> Result<Option<(u64, Duration)>, String> {
    let mut total = 0;
    let mut time = Duration::ZERO;
    for (i, (variant, fen)) in positions()?.into_iter().enumerate() {
        let options = EngineOptions {
            hash_mb: 16,
            threads: 1,
            eval_mode: options.eval_mode,
            net: options.net.clone(),
            ..EngineOptions::default()
        };
        let mut engine = Engine::with_options(variant, options);
        engine.new_game();
        engine
            .set_position(Some(&fen), &[])
            .map_err(|e| format!("bench position {}: {}", i + 1, e.error))?;
        let started = Instant::now();
        let result = engine
            .search_until(Limits::depth(depth), &Silent, stop.clone())
            .map_err(|e| format!("bench position {}: {e}", i + 1))?;
        if stop.load(Ordering::SeqCst) {
            return Ok(None);
        }
        time += started.elapsed();
        total += result.nodes;
        each(
            i,
            &BenchLine {
                variant,
                fen,
                nodes: result.nodes,
                best: result
                    .best
                    .map_or_else(|| "(none)".to_owned(), |a| a.to_string()),
            },
        );
    }
    Ok(Some((total, time)))
}
