//! Evaluation: the expected future point margin of a position for the side
//! to move, in the search's internal units.
//!
//! The base evaluation ([`base`]) is a classical chess evaluation in
//! centipawns. A win/draw/loss model ([`wdl`]) turns it into probabilities,
//! and the variant's outcome table into expected points: that is the base
//! value ([`EvalMode::Base`], the yardstick). The variant evaluators
//! ([`variants`], one module per variant; [`EvalMode::Variant`], the
//! default) estimate what each variant still pays beyond the board result.
//! [`EvalMode::Nnue`] evaluates chess and extinction boards with a trained
//! network ([`crate::nnue`]) in place of the base evaluation and
//! extinction's type terms (its threats on last pieces stay); the default
//! mode reads the net too. All sit behind [`Evaluate`].
//!
//! Where each piece lives: the trait and the [`Evaluator`] in
//! `evaluator.rs`; the search's unit scale ([`Units`]) in `units.rs`; the
//! mode and the choice of net ([`EvalMode`], [`net_for`]) in `mode.rs`; the
//! board results' margins ([`ResultMargins`]) in `margins.rs`, each
//! variant's in its module of [`variants`]. Imports `rules`, `nnue` and the
//! point tables of `scoring` only.
pub mod base;
pub mod curve;
mod evaluator;
mod margins;
pub mod mgeg;
mod mode;
pub mod params;
pub mod trace;
pub mod tuned;
mod units;
pub mod variant_weights;
pub mod variants;
pub mod wdl;

pub use evaluator::{Evaluate, Evaluator};
pub use margins::ResultMargins;
pub use mode::{EvalMode, missing_net, net_alone, net_for};
pub use units::Units;
pub use wdl::Wdl;
