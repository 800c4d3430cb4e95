//! `tally bench [DEPTH]`: the search signature and a speed figure.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use clap::Args;

use super::CliError;
use crate::engine::EngineOptions;
use crate::eval::EvalMode;

/// Arguments of `tally bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Search depth for every position.
    #[arg(default_value_t = crate::bench::DEFAULT_DEPTH)]
    pub depth: i32,
    /// Evaluate with this net (EvalMode nnue): the positions of its board
    /// kind's variant (chess or extinction) use it, the others the base
    /// evaluation.
    #[arg(long, value_name = "FILE")]
    pub net: Option<PathBuf>,
}

/// Runs the bench: a line per position on stderr, then the total as the
/// last line on stdout: `<nodes> nodes <nps> nps`.
///
/// # Errors
///
/// A depth out of range.
pub fn run(args: &BenchArgs) -> Result<(), CliError> {
    let max = crate::bench::MAX_DEPTH;
    if !(1..=max).contains(&args.depth) {
        return Err(CliError::bad_input(format!(
            "bench depth {} is out of range (1 to {max})",
            args.depth
        )));
    }
    let mut options = EngineOptions::default();
    if let Some(path) = &args.net {
        let net = crate::nnue::format::load(path).map_err(CliError::bad_input)?;
        eprintln!("net {}", net.describe());
        options.eval_mode = EvalMode::Nnue;
        options.net = Some(Arc::new(net));
    }
    let never = Arc::new(AtomicBool::new(false));
    let (nodes, time) = crate::bench::run_with(args.depth, &options, &never, |i, line| {
        eprintln!("{}", line.describe(i));
    })
    .map_err(|e| CliError {
        message: e,
        code: 1,
    })?
    .unwrap_or_default();
    let nps = (nodes as f64 / time.as_secs_f64().max(1e-9)) as u64;
    eprintln!("time {:.3} s", time.as_secs_f64());
    outln!("{nodes} nodes {nps} nps");
    Ok(())
}
