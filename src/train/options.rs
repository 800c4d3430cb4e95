//! The options of a `tally train` run as its command line words them
//! ([`Options`]): their checks ([`Options::check`]) and the runs they
//! describe, a net's ([`Options::net_run`]) or a margin head's
//! ([`Options::head_run`]).

use std::path::{Path, PathBuf};

use super::data::check_validation;
use super::head::HeadRun;
use super::run::NetRun;
use super::start::checkpoint_path;
use super::{MAX_LR, Schedule, Settings, supports};
use crate::fit;
use crate::nnue::{HIDDEN, Kings, margin_head};
use crate::rules::Variant;
use crate::variant_args::parse_variant;

/// The learning-rate schedules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ScheduleKind {
    /// Half a cosine from --lr down to --lr-final times it.
    Cosine,
    /// --lr times --gamma after every --step-epochs epochs.
    Step,
}

/// The options of `tally train`, whose `--help` these comments are
/// (`quiet` is the command's: the progress bar).
#[derive(Clone, Debug, clap::Args)]
pub struct Options {
    /// Data files written by `tally datagen`.
    #[arg(long, required = true, num_args = 1.., value_name = "FILE")]
    pub data: Vec<PathBuf>,
    /// The variant whose positions are used: chess or extinction (the net
    /// is for its board).
    #[arg(long, short = 'v', value_parser = parse_variant, default_value = "chess")]
    pub variant: Variant,
    /// The net file to write.
    #[arg(long = "output", short = 'o', alias = "out", value_name = "FILE")]
    pub out: PathBuf,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 10)]
    pub epochs: u32,
    /// Positions per mini-batch.
    #[arg(long, default_value_t = 16384)]
    pub batch: usize,
    /// AdamW's learning rate (above 0, at most 1).
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
    /// swapped), doubling the training set. A net of king buckets reads
    /// a position and its mirror alike already, so for it this only
    /// repeats each position (as a second epoch would).
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
    /// Hidden neurons per perspective, 1 ..= 2048 (the engine computes
    /// them in chunks of 128, so use multiples of 128: 128, 256, 512).
    /// With --init from a narrower net, the new neurons start with small
    /// random input weights and zero output weights. Default: the --init
    /// net's, otherwise 128.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=2048))]
    pub hidden: Option<u16>,
    /// King buckets: 1 (none, the board read as it is) or 4, 8 or 16
    /// (each perspective's king square picks a copy of the input
    /// weights, the board mirrored left-right when that king is on files
    /// e-h; the layouts are in docs/train.md). With --init from a net of
    /// one bucket, or of fewer that these refine, every bucket starts as
    /// the net's. Default: the --init net's, otherwise 1.
    #[arg(long, value_name = "N")]
    pub king_buckets: Option<u8>,
    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Fit the margin head of a scoring variant (stylish or wacky) over the
    /// body of the chess net given by --net, to the points the variant's
    /// games (-v) went on to earn, and write the net with it; only --data,
    /// --val, --seed, --l2, --threads, --output and --quiet apply.
    #[arg(long, requires = "net")]
    pub head: bool,
    /// The chess net whose body the margin head reads (--head).
    #[arg(long, value_name = "FILE")]
    pub net: Option<PathBuf>,
    /// --head: the ridge penalty per position on each head weight.
    #[arg(long, default_value_t = 1e-4)]
    pub l2: f64,
}

impl Options {
    /// The checkpoint of the run ([`checkpoint_path`]).
    pub fn checkpoint(&self) -> PathBuf {
        checkpoint_path(&self.out, self.checkpoint.as_deref())
    }

    /// Checks the options of a run on `variant`'s positions: a head's
    /// (`--head`) or a net's.
    ///
    /// # Errors
    ///
    /// A one-line message for the first bad option.
    pub fn check(&self, variant: Variant) -> Result<(), String> {
        if self.head {
            if margin_head(variant).is_none() {
                return Err(format!(
                    "--head fits the margin head of stylish or wacky, not {variant}"
                ));
            }
            fit::at_least_zero("--l2", self.l2)?;
            return check_validation(self.val);
        }
        if !supports(variant) {
            return Err(format!(
                "train fits the nets of chess and extinction, not {variant}"
            ));
        }
        fit::Shared {
            result_flag: "--wdl",
            result_weight: self.wdl,
            lr: self.lr,
            max_lr: MAX_LR,
            k: self.k,
            batch: self.batch,
        }
        .check()?;
        check_validation(self.val)?;
        let share = |x: f64| x.is_finite() && (0.0..=1.0).contains(&x);
        if !(share(self.lr_final) && share(self.gamma)) {
            return Err("--lr-final and --gamma must lie between 0 and 1".to_owned());
        }
        if !(0.0..=1.0).contains(&self.wd) {
            return Err("--wd must lie between 0 and 1".to_owned());
        }
        if self.epochs == 0 {
            return Err("--epochs must be at least 1".to_owned());
        }
        if let Some(k) = self.king_buckets
            && Kings::of_count(usize::from(k)).is_none()
        {
            return Err(format!("--king-buckets must be 1, 4, 8 or 16, not {k}"));
        }
        fit::at_least_one("--step-epochs", u64::from(self.step_epochs))
    }

    /// The trainer's settings (`K` is the start's).
    pub fn settings(&self) -> Settings {
        Settings {
            epochs: self.epochs,
            batch: self.batch,
            lr: self.lr,
            schedule: match self.schedule {
                ScheduleKind::Cosine => Schedule::Cosine {
                    final_fraction: self.lr_final,
                },
                ScheduleKind::Step => Schedule::Step {
                    every: self.step_epochs,
                    gamma: self.gamma,
                },
            },
            weight_decay: self.wd,
            lambda: self.wdl,
            k: 0.0,
            seed: self.seed,
            buckets: self.buckets.map_or(1, usize::from),
            hidden: self.hidden.map_or(HIDDEN, usize::from),
            kings: self.kings(),
        }
    }

    /// The king-bucket layout given (plain when none or not a layout;
    /// [`Options::check`] refuses the latter).
    pub fn kings(&self) -> Kings {
        self.king_buckets
            .and_then(|k| Kings::of_count(usize::from(k)))
            .unwrap_or_default()
    }

    /// The net's run on `variant`'s positions, its checkpoint `checkpoint`
    /// ([`Options::checkpoint`]).
    pub fn net_run<'a>(&'a self, variant: Variant, checkpoint: &'a Path) -> NetRun<'a> {
        NetRun {
            variant,
            data: &self.data,
            settings: self.settings(),
            val: self.val,
            mirror: self.mirror,
            k: self.k,
            buckets: self.buckets,
            hidden: self.hidden,
            king_buckets: self.king_buckets,
            init: self.init.as_deref(),
            resume: self.resume,
            checkpoint,
            check: self.check,
            out: &self.out,
        }
    }

    /// The margin head's run of `variant` over the chess net `--net`.
    ///
    /// # Errors
    ///
    /// No `--net`.
    pub fn head_run(&self, variant: Variant) -> Result<HeadRun<'_>, String> {
        let Some(body) = &self.net else {
            return Err("--head needs the chess net: --net FILE".to_owned());
        };
        Ok(HeadRun {
            variant,
            body,
            data: &self.data,
            val: self.val,
            seed: self.seed,
            l2: self.l2,
            check: self.check,
            out: &self.out,
        })
    }
}
