//! Tally: a UCI chess engine for scoring variants.
//!
//! Tally plays seven variants in which a game's result is a number of points,
//! and its search maximises the expected final point margin. The layers go
//! one way:
//!
//! - [`rules`]: positions, actions, game end, perft (imports nothing of ours);
//! - [`scoring`]: points per action and per ending, one table per variant;
//! - [`referee`]: a whole game in, per-ply awards, outcome and totals out
//!   (`tally score`, `match` and `analyse`);
//! - [`pgn`]: games in PGN, read for the referee and written by the tools;
//! - `eval`: the expected future point margin of a position, and [`nnue`]:
//!   the network that evaluates chess and extinction boards in
//!   `EvalMode nnue`;
//! - `search`: alpha-beta over the three, and [`syzygy`]: the endgame
//!   tables it probes in chess (`SyzygyPath`);
//! - [`contest`]: contests of several games (a series, a tie-break match,
//!   the sets colour choice): which game comes next and what the games
//!   played came to, over the referee's totals (`tally match --format`,
//!   `tally score --series`, the browser app);
//! - [`analyse`] and [`matches`](mod@matches): the analysis and experiment
//!   tools (`tally analyse`, `tally match`), over the engine facade and the
//!   referee, with what they make for people (the annotated PGN, the JSON,
//!   the HTML report with its boards and chart, the match summary and a
//!   tournament's standings);
//!   [`datagen`]: self-play
//!   data for tuning and training (`tally datagen`); [`tune`] and
//!   [`train`]: the evaluation tuner and the net trainer; [`shard`]: one
//!   slice of a run's games, how `tally match` and `tally datagen` share a
//!   cluster's job array;
//! - [`uci`] and the command line: protocol and commands (each subcommand
//!   its arguments, calls into the modules above and the printing);
//! - [`text`]: untrusted text made safe to print, and [`rng`]: the one
//!   seeded generator (both import nothing of ours).

pub mod analyse;
pub mod bench;
pub mod cli;
pub mod contest;
pub mod datagen;
pub mod engine;
pub mod eval;
pub mod experiment;
pub mod files;
pub mod fit;
pub mod matches;
pub mod nnue;
pub mod pgn;
pub mod referee;
pub mod rng;
pub mod rules;
pub mod scoring;
pub mod search;
pub mod serve;
pub mod shard;
mod simd;
pub mod syzygy;
pub mod text;
pub mod train;
pub mod tune;
pub mod uci;
pub mod variant_args;
