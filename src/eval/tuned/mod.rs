//! The weights `tally tune` fitted, one generated file per variant whose
//! centipawn evaluation it fits (see `docs/tune.md`): `chess.rs` (also
//! the scoring variants' board evaluation) and `extinction.rs`; and the
//! win/draw/loss model's curves, `wdl.rs` (`tally tune --wdl`).

pub mod chess;
pub mod extinction;
pub mod wdl;
