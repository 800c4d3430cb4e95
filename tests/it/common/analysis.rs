//! The position analysis the `analyse` tests share: a fresh engine of one
//! thread and a small table, so that a fixed depth gives the same answer
//! every time.
#![allow(dead_code)]

use tally::analyse::{PositionAnalysis, analyse_position};
use tally::engine::{Engine, EngineOptions};
use tally::rules::Variant;
use tally::search::{Limits, Silent};

/// Every legal action of `fen` (the start without one) ranked under
/// `variant` by a search of `depth`, on one thread with an 8 MiB table.
pub fn analyse(variant: Variant, fen: Option<&str>, depth: i32) -> PositionAnalysis {
    let mut engine = engine(variant, fen);
    analyse_position(&mut engine, Limits::depth(depth), &Silent).expect("analysis")
}

/// A fresh engine of one thread and an 8 MiB table at `fen` (the start
/// without one).
pub fn engine(variant: Variant, fen: Option<&str>) -> Engine {
    let mut engine = Engine::with_options(
        variant,
        EngineOptions {
            threads: 1,
            hash_mb: 8,
            ..EngineOptions::default()
        },
    );
    engine.set_position(fen, &[]).expect("position");
    engine
}
