//! `tally tune`: fits the evaluation's weights to `tally datagen` files
//! and writes them as a Rust source file the build includes
//! (`src/eval/tuned/<variant>.rs`). The run lives in [`crate::tune::run`];
//! this module reads and checks the arguments and shows the run's report
//! on the terminal.

use std::path::PathBuf;

use clap::Args;

use super::CliError;
use super::progress::Terminal;
use crate::fit;
use crate::rules::Variant;
use crate::tune::Settings;
use crate::tune::run::{Run, centipawns, points, wdl};
use crate::variant_args::parse_variant;

/// The default weight of the L2 penalty.
const L2: f64 = 0.0;

/// Arguments of `tally tune`.
#[derive(Debug, Args)]
pub struct TuneArgs {
    /// Data files written by `tally datagen`.
    #[arg(long, required = true, num_args = 1.., value_name = "FILE")]
    pub data: Vec<PathBuf>,
    /// The variant whose positions are used: chess or extinction (their
    /// centipawn weights, by gradient descent), or a scoring variant (its
    /// evaluator's weights and win/draw/loss curves, fitted to the points
    /// the games went on to earn; only --data, --holdout, --threads, --output,
    /// --keep and --quiet apply).
    #[arg(long, short = 'v', value_parser = parse_variant, default_value = "chess")]
    pub variant: Variant,
    /// Passes over the data.
    #[arg(long, default_value_t = 10)]
    pub epochs: u32,
    /// Positions per mini-batch.
    #[arg(long, default_value_t = 16384)]
    pub batch: usize,
    /// Adam's step size, in centipawns (above 0, at most 100).
    #[arg(long, default_value_t = 1.0)]
    pub lr: f64,
    /// The weight of the game result in the target, 0 ..= 1 (the rest is
    /// the search score).
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f64,
    /// The sigmoid's scale per centipawn; fitted to the results when not
    /// given.
    #[arg(long)]
    pub k: Option<f64>,
    /// The shuffling seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Hold out every N-th game for the validation loss (0: none; 1, every
    /// game, is refused); the weights written are those of the epoch with
    /// the lowest validation loss.
    #[arg(long, default_value_t = 10, value_name = "N")]
    pub holdout: u32,
    /// The weight of the L2 penalty on each weight's distance from its
    /// starting value.
    #[arg(long, default_value_t = L2)]
    pub l2: f64,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// The generated source file to write (default:
    /// `src/eval/tuned/<variant>.rs`, which exists only in the root of a
    /// Tally checkout: elsewhere give -o).
    #[arg(long, short = 'o', alias = "out", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Fit the win/draw/loss model's two curves to the chess games instead
    /// of the weights, and write them (default: `src/eval/tuned/wdl.rs`).
    /// A switch of what is fitted, not `tally train --wdl`'s weight of the
    /// result (that is --lambda here).
    #[arg(long = "fit-wdl", alias = "wdl")]
    pub fit_wdl: bool,
    /// Scoring variants: weights the fit leaves at their hand-set values
    /// (names as `tally tune` prints them, comma-separated or repeated).
    #[arg(long, value_delimiter = ',', value_name = "NAME")]
    pub keep: Vec<String>,
}

/// The folder of the generated sources, relative to a checkout's root.
const TUNED_DIR: &str = "src/eval/tuned";

/// The file a fit writes: `-o`, or the generated source of `variant`'s
/// weights (the win/draw/loss model's with `--fit-wdl`).
fn out_path(args: &TuneArgs, variant: Variant) -> PathBuf {
    args.output.clone().unwrap_or_else(|| {
        if args.fit_wdl {
            PathBuf::from(format!("{TUNED_DIR}/wdl.rs"))
        } else {
            PathBuf::from(format!("{TUNED_DIR}/{variant}.rs"))
        }
    })
}

/// Refuses the default output where it cannot be written: it is a file of
/// Tally's source tree, relative to the current folder, so outside the
/// root of a checkout there is no `src/eval/tuned` to write it to.
///
/// # Errors
///
/// The message saying where to run the command, or to give `-o`.
fn check_default_output(args: &TuneArgs, out: &std::path::Path) -> Result<(), CliError> {
    if args.output.is_some() || std::path::Path::new(TUNED_DIR).is_dir() {
        return Ok(());
    }
    Err(CliError::bad_input(format!(
        "the default output {} is a source file of Tally's checkout, and there is no {TUNED_DIR} here: \
         run tally tune in the root of a Tally checkout (then cargo build --release), or give -o FILE",
        out.display()
    )))
}

/// Runs `tally tune`.
///
/// # Errors
///
/// Bad options, unreadable data, no usable position, an unwritable output.
pub fn run(args: &TuneArgs) -> Result<i32, CliError> {
    let variant = args.variant;
    fit::Shared {
        result_flag: "--lambda",
        result_weight: args.lambda,
        lr: args.lr,
        max_lr: crate::tune::MAX_LR,
        k: args.k,
        batch: args.batch,
    }
    .check()
    .map_err(CliError::bad_input)?;
    fit::at_least_zero("--l2", args.l2).map_err(CliError::bad_input)?;
    fit::at_least_one("--epochs", u64::from(args.epochs)).map_err(CliError::bad_input)?;
    if args.holdout == 1 {
        return Err(CliError::bad_input(
            "--holdout 1 holds out every game, leaving none to fit: give 0 (none) or 2 or more",
        ));
    }
    // Before any data is read.
    check_default_output(args, &out_path(args, variant))?;
    super::check_output("-o", &out_path(args, variant))?;
    let inputs: Vec<(&str, &std::path::Path)> =
        args.data.iter().map(|d| ("--data", d.as_path())).collect();
    crate::files::check_not_an_input("-o", &out_path(args, variant), &inputs)
        .map_err(CliError::bad_input)?;
    let pool = super::worker_pool(args.threads)?;
    let out = out_path(args, variant);
    let run = Run {
        variant,
        data: &args.data,
        epochs: args.epochs,
        settings: Settings {
            batch: args.batch,
            lr: args.lr,
            lambda: args.lambda,
            seed: args.seed,
            l2: args.l2,
        },
        k: args.k,
        holdout: args.holdout,
        keep: &args.keep,
        out: &out,
    };
    let fit = if args.fit_wdl {
        if variant != Variant::Chess {
            return Err(CliError::bad_input(
                "--fit-wdl fits the model on chess games (the board the scoring variants share)",
            ));
        }
        wdl
    } else if crate::tune::evaluator::supports(variant) {
        points
    } else if args.keep.is_empty() {
        centipawns
    } else {
        return Err(CliError::bad_input(
            "--keep names weights of a scoring variant's evaluator (stylish, wacky, sets, dynamic, tiebraker)",
        ));
    };
    pool.install(|| fit(&run, &mut Terminal::new(!args.quiet)))
        .map_err(CliError::bad_input)?;
    Ok(0)
}
