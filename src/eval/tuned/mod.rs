//! The weights `tally tune` fitted, one generated file per variant (see
//! `docs/tune.md`): `chess.rs` (also the scoring variants' board
//! evaluation) and `extinction.rs`, the centipawn evaluation's weights;
//! `stylish.rs`, `wacky.rs`, `sets.rs`, `dynamic.rs` and `tiebraker.rs`,
//! the weights of the variant evaluators
//! ([`VariantWeights`](super::variant_weights::VariantWeights)); and the
//! chess win/draw/loss model's curves, `wdl.rs` (`tally tune --fit-wdl`).

pub mod chess;
pub mod dynamic;
pub mod extinction;
pub mod sets;
pub mod stylish;
pub mod tiebraker;
pub mod wacky;
pub mod wdl;
