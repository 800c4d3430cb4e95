//! `tally tune`: fits the evaluation's weights to `tally datagen` files
//! and writes them as a Rust source file the build includes
//! (`src/eval/tuned.rs`). The fitting lives in [`crate::tune`]; this
//! module reads the arguments, reports progress and writes the file.

use std::path::PathBuf;

use clap::Args;

use super::CliError;
use super::progress::Progress;
use crate::eval::params::EvalParams;
use crate::rules::Variant;
use crate::tune::{Settings, Tuner, fit_k, load, render, supports};

/// Arguments of `tally tune`.
#[derive(Debug, Args)]
pub struct TuneArgs {
    /// Data files written by `tally datagen`.
    #[arg(long, required = true, num_args = 1.., value_name = "FILE")]
    pub data: Vec<PathBuf>,
    /// The variant whose positions are used: chess or extinction.
    #[arg(long, short = 'v', default_value = "chess")]
    pub variant: String,
    /// Passes over the data.
    #[arg(long, default_value_t = 10)]
    pub epochs: u32,
    /// Positions per mini-batch.
    #[arg(long, default_value_t = 16384)]
    pub batch: usize,
    /// Adam's step size, in centipawns.
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
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// The generated source file to write.
    #[arg(long, short = 'o', default_value = "src/eval/tuned.rs")]
    pub out: PathBuf,
    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// Runs `tally tune`.
///
/// # Errors
///
/// Bad options, unreadable data, no usable position, an unwritable output.
pub fn run(args: &TuneArgs) -> Result<i32, CliError> {
    let variant: Variant = args.variant.parse()?;
    if !supports(variant) {
        return Err(CliError::bad_input(format!(
            "tune fits the centipawn evaluation of chess and extinction, not {variant}"
        )));
    }
    if !(0.0..=1.0).contains(&args.lambda) {
        return Err(CliError::bad_input("--lambda must lie between 0 and 1"));
    }
    if !(args.lr.is_finite() && args.lr > 0.0) {
        return Err(CliError::bad_input("--lr must be a positive number"));
    }
    if let Some(k) = args.k
        && !(k.is_finite() && k > 0.0)
    {
        return Err(CliError::bad_input("--k must be a positive number"));
    }
    if args.batch == 0 {
        return Err(CliError::bad_input("--batch must be at least 1"));
    }
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = args.threads {
        pool = pool.num_threads(n.max(1));
    }
    let pool = pool
        .build()
        .map_err(|e| CliError::bad_input(format!("threads: {e}")))?;
    pool.install(|| tune(args, variant))
}

fn tune(args: &TuneArgs, variant: Variant) -> Result<i32, CliError> {
    let loaded = load(&args.data, variant).map_err(CliError::bad_input)?;
    let samples = loaded.samples;
    println!(
        "{} quiet positions of {} in {variant} games read ({} games of other variants skipped)",
        samples.len(),
        loaded.positions,
        loaded.other_games
    );
    if samples.is_empty() {
        return Err(CliError::bad_input(format!(
            "no quiet {variant} position in the data"
        )));
    }
    let start = EvalParams::DEFAULT;
    let settings = Settings {
        batch: args.batch,
        lr: args.lr,
        lambda: args.lambda,
        seed: args.seed,
    };
    let mut tuner = Tuner::new(start, &samples, 0.0, settings);
    tuner.k = match args.k {
        Some(k) => k,
        None => fit_k(&samples, tuner.linear(), &tuner.w),
    };
    println!("K = {:.6} per centipawn", tuner.k);
    println!("epoch 0: loss {:.6}", tuner.loss(&samples));
    let total = samples.len() as u64 * u64::from(args.epochs);
    let bar = Progress::new(Some(total), !args.quiet, "positions");
    for e in 1..=args.epochs {
        let before = u64::from(e - 1) * samples.len() as u64;
        tuner.epoch(&samples, |done| bar.set(before + done as u64));
        let l = tuner.loss(&samples);
        bar.message(format!("loss {l:.6}"));
        bar.println(&format!("epoch {e}: loss {l:.6}"));
    }
    bar.finish();
    let files: Vec<String> = args.data.iter().map(|p| p.display().to_string()).collect();
    let origin = format!(
        "From {} quiet {variant} positions of {}: --epochs {} --batch {} --lr {} --lambda {} --seed {}, K {:.6}.",
        samples.len(),
        files.join(" "),
        args.epochs,
        args.batch,
        args.lr,
        args.lambda,
        args.seed,
        tuner.k
    );
    let text = render(&tuner.params(), &origin);
    std::fs::write(&args.out, text)
        .map_err(|e| CliError::bad_input(format!("{}: {e}", args.out.display())))?;
    println!("wrote {}", args.out.display());
    Ok(0)
}
