//! `tally tune`: fits the evaluation's weights to `tally datagen` files
//! and writes them as a Rust source file the build includes
//! (`src/eval/tuned/<variant>.rs`). The fitting lives in [`crate::tune`]; this
//! module reads the arguments, reports progress and writes the file.

use std::path::PathBuf;

use clap::Args;

use super::CliError;
use super::progress::Progress;
use crate::eval::params::EvalParams;
use crate::fit;
use crate::rules::Variant;
use rayon::prelude::*;

/// The default weight of the L2 penalty.
const L2: f64 = 0.0;
use crate::eval::variant_weights::VariantWeights;
use crate::eval::wdl;
use crate::tune::evaluator::{
    evaluator, fit_points, fitted_knobs, load_points, point_loss, render_weights,
};
use crate::tune::wdl::{WdlFit, fit as fit_wdl, load_wdl, render_wdl};
use crate::tune::{Settings, Tuner, fit_k, load, render};

/// Arguments of `tally tune`.
#[derive(Debug, Args)]
pub struct TuneArgs {
    /// Data files written by `tally datagen`.
    #[arg(long, required = true, num_args = 1.., value_name = "FILE")]
    pub data: Vec<PathBuf>,
    /// The variant whose positions are used: chess or extinction (their
    /// centipawn weights, by gradient descent), or a scoring variant (its
    /// evaluator's weights and win/draw/loss curves, fitted to the points
    /// the games went on to earn; only --data, --holdout, --threads, --out,
    /// --keep and --quiet apply).
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
    /// Hold out every N-th game for the validation loss (0: none); the
    /// weights written are those of the epoch with the lowest validation
    /// loss.
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
    /// `src/eval/tuned/<variant>.rs`).
    #[arg(long, short = 'o')]
    pub out: Option<PathBuf>,
    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Fit the win/draw/loss model's two curves to the chess games instead
    /// of the weights, and write them (default: `src/eval/tuned/wdl.rs`).
    #[arg(long)]
    pub wdl: bool,
    /// Scoring variants: weights the fit leaves at their hand-set values
    /// (names as `tally tune` prints them, comma-separated or repeated).
    #[arg(long, value_delimiter = ',', value_name = "NAME")]
    pub keep: Vec<String>,
}

/// The file a fit writes: `-o`, or the generated source of `variant`'s
/// weights (the win/draw/loss model's with `--wdl`).
fn out_path(args: &TuneArgs, variant: Variant) -> PathBuf {
    args.out.clone().unwrap_or_else(|| {
        if args.wdl {
            PathBuf::from("src/eval/tuned/wdl.rs")
        } else {
            PathBuf::from(format!("src/eval/tuned/{variant}.rs"))
        }
    })
}

/// Runs `tally tune`.
///
/// # Errors
///
/// Bad options, unreadable data, no usable position, an unwritable output.
pub fn run(args: &TuneArgs) -> Result<i32, CliError> {
    let variant: Variant = args.variant.parse()?;
    fit::Shared {
        result_flag: "--lambda",
        result_weight: args.lambda,
        lr: args.lr,
        k: args.k,
        batch: args.batch,
    }
    .check()
    .map_err(CliError::bad_input)?;
    fit::at_least_zero("--l2", args.l2).map_err(CliError::bad_input)?;
    // Before any data is read.
    super::check_output("-o", &out_path(args, variant))?;
    let pool = super::worker_pool(args.threads)?;
    if args.wdl {
        if variant != Variant::Chess {
            return Err(CliError::bad_input(
                "--wdl fits the model on chess games (the board the scoring variants share)",
            ));
        }
        return pool.install(|| tune_wdl(args));
    }
    if crate::tune::evaluator::supports(variant) {
        return pool.install(|| tune_points(args, variant));
    }
    if !args.keep.is_empty() {
        return Err(CliError::bad_input(
            "--keep names weights of a scoring variant's evaluator (stylish, wacky, sets, dynamic, tiebraker)",
        ));
    }
    pool.install(|| tune(args, variant))
}

fn tune_points(args: &TuneArgs, variant: Variant) -> Result<i32, CliError> {
    let data = load_points(&args.data, variant, args.holdout).map_err(CliError::bad_input)?;
    println!(
        "{} quiet positions of {} in {variant} games read, {} of them held out{}",
        data.samples.len() + data.validation.len(),
        data.positions,
        data.validation.len(),
        if data.bad > 0 {
            format!(" ({} records that are no legal position skipped)", data.bad)
        } else {
            String::new()
        }
    );
    if data.samples.is_empty() {
        return Err(CliError::bad_input(format!(
            "no quiet {variant} position in the data"
        )));
    }
    let ev = evaluator(variant);
    // From the hand-set weights, whatever the build ships: the same data
    // gives the same file.
    let start = VariantWeights::UNTUNED;
    let knobs = fitted_knobs(variant, &args.keep).map_err(CliError::bad_input)?;
    let losses = |w: &VariantWeights| {
        let fit = point_loss(&ev, &data.samples, w);
        if data.validation.is_empty() {
            (fit, None)
        } else {
            (fit, Some(point_loss(&ev, &data.validation, w)))
        }
    };
    let show = |(fit, val): (f64, Option<f64>)| match val {
        Some(v) => format!("loss {fit:.6}, validation {v:.6}"),
        None => format!("loss {fit:.6}"),
    };
    let before = losses(&start);
    println!("hand-set: {} (pawns of the scale, squared)", show(before));
    let bar = Progress::new(None, !args.quiet, "steps");
    let mut steps = 0u64;
    let fitted = fit_points(&ev, &data.samples, start, &knobs, |_, l| {
        steps += 1;
        bar.set(steps);
        bar.message(format!("loss {l:.6}"));
    });
    bar.finish();
    let after = losses(&fitted);
    println!("fitted:   {}", show(after));
    for &i in &knobs {
        let name = VariantWeights::KNOBS[i].name;
        let (was, now) = (start.source(i), fitted.source(i));
        if was == now {
            println!("  {name:<26} {now}");
        } else {
            println!("  {name:<26} {was} -> {now}");
        }
    }
    let files: Vec<String> = args.data.iter().map(|p| p.display().to_string()).collect();
    let val = |v: Option<f64>| v.map_or_else(|| "none".to_owned(), |v| format!("{v:.6}"));
    let keep = if args.keep.is_empty() {
        String::new()
    } else {
        format!(" --keep {}", args.keep.join(","))
    };
    let origin = format!(
        "From {} quiet {variant} positions of {}: --holdout {}{keep}, loss {:.6} -> {:.6}, validation {} -> {}.",
        data.samples.len(),
        files.join(" "),
        args.holdout,
        before.0,
        after.0,
        val(before.1),
        val(after.1)
    );
    let out = out_path(args, variant);
    std::fs::write(&out, render_weights(variant, &fitted, &origin))
        .map_err(|e| CliError::bad_input(format!("{}: {e}", out.display())))?;
    println!("wrote {}", out.display());
    Ok(0)
}

fn tune_wdl(args: &TuneArgs) -> Result<i32, CliError> {
    let samples = load_wdl(&args.data, Variant::Chess).map_err(CliError::bad_input)?;
    if samples.is_empty() {
        return Err(CliError::bad_input("no quiet chess position in the data"));
    }
    println!("{} quiet chess positions read", samples.len());
    let start = WdlFit {
        mg: wdl::UNTUNED[0],
        eg: wdl::UNTUNED[1],
    };
    let before = start.loss(&samples);
    let fitted = fit_wdl(&samples, start);
    let after = fitted.loss(&samples);
    let show = |c: wdl::Curve| format!("centre {:.1} cp, width {:.1} cp", c.centre, c.width);
    println!("hand-set: log-loss {before:.6}");
    println!("fitted:   log-loss {after:.6}");
    println!("full material: {}", show(fitted.mg));
    println!("bare board:    {}", show(fitted.eg));
    let files: Vec<String> = args.data.iter().map(|p| p.display().to_string()).collect();
    let origin = format!(
        "From {} quiet chess positions of {}: log-loss {before:.6} -> {after:.6}.",
        samples.len(),
        files.join(" ")
    );
    let out = out_path(args, Variant::Chess);
    std::fs::write(&out, render_wdl(&fitted, &origin))
        .map_err(|e| CliError::bad_input(format!("{}: {e}", out.display())))?;
    println!("wrote {}", out.display());
    Ok(0)
}

fn tune(args: &TuneArgs, variant: Variant) -> Result<i32, CliError> {
    let loaded = load(&args.data, variant, args.holdout).map_err(CliError::bad_input)?;
    let (samples, validation) = (loaded.samples, loaded.validation);
    println!(
        "{} quiet positions of {} in {variant} games read, {} of them held out ({} games of other variants skipped)",
        samples.len() + validation.len(),
        loaded.positions,
        validation.len(),
        loaded.other_games
    );
    if samples.is_empty() {
        return Err(CliError::bad_input(format!(
            "no quiet {variant} position in the data"
        )));
    }
    // The fit starts from the hand-set weights, whatever the build ships,
    // so that the same data and options always give the same file.
    let start = &EvalParams::UNTUNED;
    let settings = Settings {
        batch: args.batch,
        lr: args.lr,
        lambda: args.lambda,
        seed: args.seed,
        l2: args.l2,
    };
    let mut tuner = Tuner::new(start, &samples, 0.0, settings);
    tuner.k = match args.k {
        Some(k) => k,
        None => fit_k(&samples, tuner.linear(), &tuner.w),
    };
    println!("K = {:.6} per centipawn", tuner.k);
    let val_lin: Vec<_> = validation.par_iter().map(|s| s.trace.linear()).collect();
    let report = |tuner: &Tuner| {
        let l = tuner.loss(&samples);
        if validation.is_empty() {
            (format!("loss {l:.6}"), l)
        } else {
            let v = tuner.loss_on(&validation, &val_lin);
            (format!("loss {l:.6}, validation {v:.6}"), v)
        }
    };
    let (text, mut best_loss) = report(&tuner);
    println!("epoch 0: {text}");
    let (mut best, mut best_epoch) = (tuner.params(), 0);
    let total = samples.len() as u64 * u64::from(args.epochs);
    let bar = Progress::new(Some(total), !args.quiet, "positions");
    for e in 1..=args.epochs {
        let before = u64::from(e - 1) * samples.len() as u64;
        tuner.epoch(&samples, |done| bar.set(before + done as u64));
        let (text, l) = report(&tuner);
        bar.message(text.clone());
        bar.println(&format!("epoch {e}: {text}"));
        if l < best_loss || validation.is_empty() {
            (best, best_epoch, best_loss) = (tuner.params(), e, l);
        }
    }
    bar.finish();
    if !validation.is_empty() {
        println!("kept epoch {best_epoch}: validation loss {best_loss:.6}");
    }
    let files: Vec<String> = args.data.iter().map(|p| p.display().to_string()).collect();
    let origin = format!(
        "From {} quiet {variant} positions of {}: --epochs {} --batch {} --lr {} --lambda {} --seed {} --holdout {} --l2 {}, K {:.6}, epoch {best_epoch}.",
        samples.len(),
        files.join(" "),
        args.epochs,
        args.batch,
        args.lr,
        args.lambda,
        args.seed,
        args.holdout,
        args.l2,
        tuner.k
    );
    let text = render(&best, &origin);
    let out = out_path(args, variant);
    std::fs::write(&out, text)
        .map_err(|e| CliError::bad_input(format!("{}: {e}", out.display())))?;
    println!("wrote {}", out.display());
    Ok(0)
}
