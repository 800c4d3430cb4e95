//! `tally bench [DEPTH]`: the search signature and a speed figure.

use clap::Args;

use super::CliError;

/// Arguments of `tally bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Search depth for every position.
    #[arg(default_value_t = crate::bench::DEFAULT_DEPTH)]
    pub depth: i32,
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
    let (nodes, time) = crate::bench::run(args.depth, |i, line| {
        eprintln!("{}", line.describe(i));
    })
    .map_err(|e| CliError {
        message: e,
        code: 1,
    })?;
    let nps = (nodes as f64 / time.as_secs_f64().max(1e-9)) as u64;
    eprintln!("time {:.3} s", time.as_secs_f64());
    println!("{nodes} nodes {nps} nps");
    Ok(())
}
