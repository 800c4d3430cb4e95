//! `tally train`: fits a net to `tally datagen` files and writes it in the
//! engine's net format. The run lives in [`crate::train::run`] (a net)
//! and [`crate::train::head`] (a margin head); this module reads and checks
//! the arguments, shows the run's report on the terminal and fails (exit
//! code 1) when the written net does not compute what the trainer does.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::CliError;
use super::progress::Terminal;
use crate::fit;
use crate::nnue::margin_head;
use crate::rules::Variant;
use crate::train::data::check_validation;
use crate::train::head::{HeadRun, fit_and_write};
use crate::train::run::{NetRun, train_and_write};
use crate::train::start::checkpoint_path;
use crate::train::{Schedule, Settings, supports};

/// The learning-rate schedules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ScheduleKind {
    /// Half a cosine from --lr down to --lr-final times it.
    Cosine,
    /// --lr times --gamma after every --step-epochs epochs.
    Step,
}

/// Arguments of `tally train`.
#[derive(Debug, Args)]
pub struct TrainArgs {
    /// Data files written by `tally datagen`.
    #[arg(long, required = true, num_args = 1.., value_name = "FILE")]
    pub data: Vec<PathBuf>,
    /// The variant whose positions are used: chess or extinction (the net
    /// is for its board).
    #[arg(long, short = 'v', default_value = "chess")]
    pub variant: String,
    /// The net file to write.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub out: PathBuf,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 10)]
    pub epochs: u32,
    /// Positions per mini-batch.
    #[arg(long, default_value_t = 16384)]
    pub batch: usize,
    /// AdamW's learning rate.
    #[arg(long, default_value_t = 0.001)]
    pub lr: f64,
    /// How the learning rate falls.
    #[arg(long, value_enum, default_value = "cosine")]
    pub schedule: ScheduleKind,
    /// Cosine: the last step's rate as a share of --lr.
    #[arg(long, default_value_t = 0.05)]
    pub lr_final: f64,
    /// Step: epochs between drops.
    #[arg(long, default_value_t = 4)]
    pub step_epochs: u32,
    /// Step: the factor of each drop.
    #[arg(long, default_value_t = 0.3)]
    pub gamma: f64,
    /// AdamW's weight decay (weights, not biases).
    #[arg(long, default_value_t = 0.01)]
    pub wd: f64,
    /// The weight of the game result in the target, 0 ..= 1 (the rest is
    /// the search score through the sigmoid).
    #[arg(long, default_value_t = 0.5)]
    pub wdl: f64,
    /// The sigmoid's scale per internal unit; fitted to the training
    /// positions' scores and results when not given.
    #[arg(long)]
    pub k: Option<f64>,
    /// The share of games set apart for validation, 0 ..= 0.5.
    #[arg(long, default_value_t = 0.05)]
    pub val: f64,
    /// The seed of the initial weights, the validation games and the
    /// batches.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// The checkpoint written after every epoch (default: the output file
    /// with `.ckpt` added).
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Continue from the checkpoint (same data and settings; more
    /// --epochs extend the run).
    #[arg(long)]
    pub resume: bool,
    /// Positions on which the written net is checked against the float
    /// pass.
    #[arg(long, default_value_t = 2000)]
    pub check: usize,
    /// Also train on every position's mirror image (files a and h
    /// swapped), doubling the training set.
    #[arg(long)]
    pub mirror: bool,
    /// Start from this net's weights instead of random ones (a net of the
    /// variant's board; its score head), to go on training a shipped net
    /// on new data.
    #[arg(long, value_name = "FILE", conflicts_with = "head")]
    pub init: Option<PathBuf>,
    /// Output buckets by the number of pieces on the board, 1 ..= 8: each
    /// range of piece counts reads the hidden layer through its own output
    /// layer. With --init from a net of one bucket, every bucket starts as
    /// its output layer. Default: the --init net's, otherwise 1.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=8))]
    pub buckets: Option<u8>,
    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Fit the margin head of a scoring variant (stylish or wacky) over the
    /// body of the chess net given by --net, to the points the variant's
    /// games (-v) went on to earn, and write the net with it; only --data,
    /// --val, --seed, --l2, --threads, --out and --quiet apply.
    #[arg(long, requires = "net")]
    pub head: bool,
    /// The chess net whose body the margin head reads (--head).
    #[arg(long, value_name = "FILE")]
    pub net: Option<PathBuf>,
    /// --head: the ridge penalty per position on each head weight.
    #[arg(long, default_value_t = 1e-4)]
    pub l2: f64,
}

/// Runs `tally train`.
///
/// # Errors
///
/// Bad options, unreadable data, no usable position, a checkpoint of
/// another run, an unwritable output; exit code 1 if the written net does
/// not compute what the trainer does.
pub fn run(args: &TrainArgs) -> Result<i32, CliError> {
    let variant: Variant = args.variant.parse()?;
    // Every output is checked before any data is read.
    super::check_output("-o", &args.out)?;
    if !args.head {
        super::check_output("--checkpoint", &ckpt_of(args))?;
    }
    if args.head {
        if margin_head(variant).is_none() {
            return Err(CliError::bad_input(format!(
                "--head fits the margin head of stylish or wacky, not {variant}"
            )));
        }
        fit::at_least_zero("--l2", args.l2).map_err(CliError::bad_input)?;
        check_validation(args.val).map_err(CliError::bad_input)?;
        let pool = super::worker_pool(args.threads)?;
        return pool.install(|| train_head(args, variant));
    }
    if !supports(variant) {
        return Err(CliError::bad_input(format!(
            "train fits the nets of chess and extinction, not {variant}"
        )));
    }
    fit::Shared {
        result_flag: "--wdl",
        result_weight: args.wdl,
        lr: args.lr,
        k: args.k,
        batch: args.batch,
    }
    .check()
    .map_err(CliError::bad_input)?;
    check_validation(args.val).map_err(CliError::bad_input)?;
    let share = |x: f64| x.is_finite() && (0.0..=1.0).contains(&x);
    if !(share(args.lr_final) && share(args.gamma)) {
        return Err(CliError::bad_input(
            "--lr-final and --gamma must lie between 0 and 1",
        ));
    }
    fit::at_least_zero("--wd", args.wd).map_err(CliError::bad_input)?;
    fit::at_least_one("--step-epochs", u64::from(args.step_epochs)).map_err(CliError::bad_input)?;
    let pool = super::worker_pool(args.threads)?;
    pool.install(|| train(args, variant))
}

/// `tally train --head`: the margin head of a scoring variant over a chess
/// net's body.
fn train_head(args: &TrainArgs, variant: Variant) -> Result<i32, CliError> {
    let Some(body) = &args.net else {
        return Err(CliError::bad_input(
            "--head needs the chess net: --net FILE",
        ));
    };
    let run = HeadRun {
        variant,
        body,
        data: &args.data,
        val: args.val,
        seed: args.seed,
        l2: args.l2,
        check: args.check,
        out: &args.out,
    };
    fit_and_write(&run, &mut |line| println!("{line}")).map_err(CliError::bad_input)?;
    Ok(0)
}

/// The checkpoint of the run ([`checkpoint_path`]).
fn ckpt_of(args: &TrainArgs) -> PathBuf {
    checkpoint_path(&args.out, args.checkpoint.as_deref())
}

/// The trainer's settings the arguments give (`K` is the start's).
fn settings_of(args: &TrainArgs) -> Settings {
    Settings {
        epochs: args.epochs,
        batch: args.batch,
        lr: args.lr,
        schedule: match args.schedule {
            ScheduleKind::Cosine => Schedule::Cosine {
                final_fraction: args.lr_final,
            },
            ScheduleKind::Step => Schedule::Step {
                every: args.step_epochs,
                gamma: args.gamma,
            },
        },
        weight_decay: args.wd,
        lambda: args.wdl,
        k: 0.0,
        seed: args.seed,
        buckets: args.buckets.map_or(1, usize::from),
    }
}

fn train(args: &TrainArgs, variant: Variant) -> Result<i32, CliError> {
    let ckpt = ckpt_of(args);
    let run = NetRun {
        variant,
        data: &args.data,
        settings: settings_of(args),
        val: args.val,
        mirror: args.mirror,
        k: args.k,
        buckets: args.buckets,
        init: args.init.as_deref(),
        resume: args.resume,
        checkpoint: &ckpt,
        check: args.check,
        out: &args.out,
    };
    let a = train_and_write(&run, &mut Terminal::new(!args.quiet)).map_err(CliError::bad_input)?;
    a.check().map_err(|message| CliError { message, code: 1 })?;
    Ok(0)
}
