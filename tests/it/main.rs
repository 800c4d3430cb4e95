//! Tally's integration tests, as one test binary: each module is what was
//! a file of its own under `tests/` (one link of the crate instead of one
//! per file). Run one module with `cargo test --test it MODULE::`, e.g.
//! `cargo test --test it serve::`; the `spsa` feature's tests with
//! `cargo test --features spsa --test it spsa::`.
//!
//! `common` holds the helpers the modules share: scoring a game
//! (`common`), the analysis engine (`common::analysis`) and running the
//! `tally` binary (`common::cli`).

mod common;

mod analyse;
mod analyse_exact;
mod chess960;
mod cli_analyse;
mod cli_rules;
mod cli_score;
mod datagen;
mod docs;
mod experiment;
mod extinction_reference;
mod fuzz;
mod game_end;
mod large_points;
mod matches;
mod nnue;
mod option_names;
mod perft;
mod results_file;
mod rules_examples;
mod rules_file;
mod scoring_board;
mod scoring_sets;
mod scoring_split;
mod scoring_stylish;
mod scoring_wacky;
mod search;
mod seed_game;
mod serve;
mod spsa;
mod strength;
mod suites;
mod syzygy;
mod tables_consistency;
mod train;
mod tune;
mod uci;
