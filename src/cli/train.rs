//! `tally train`: fits a net to `tally datagen` files and writes it in the
//! engine's net format. The options and their checks live in
//! [`crate::train::options`], the run in [`crate::train::run`] (a net) and
//! [`crate::train::head`] (a margin head); this module checks the outputs,
//! shows the run's report on the terminal and fails (exit code 1) when the
//! written net does not compute what the trainer does.

use clap::Args;

use super::CliError;
use super::progress::Terminal;
use crate::rules::Variant;
use crate::train::head::fit_and_write;
use crate::train::options::Options;
use crate::train::run::train_and_write;

/// Arguments of `tally train`.
#[derive(Debug, Args)]
pub struct TrainArgs {
    /// The run.
    #[command(flatten)]
    pub options: Options,
}

/// Runs `tally train`.
///
/// # Errors
///
/// Bad options, unreadable data, no usable position, a checkpoint of
/// another run, an unwritable output; exit code 1 if the written net does
/// not compute what the trainer does.
pub fn run(args: &TrainArgs) -> Result<i32, CliError> {
    let o = &args.options;
    let variant: Variant = o.variant.parse()?;
    // Every output is checked before any data is read.
    super::check_output("-o", &o.out)?;
    if !o.head {
        super::check_output("--checkpoint", &o.checkpoint())?;
    }
    o.check(variant).map_err(CliError::bad_input)?;
    let pool = super::worker_pool(o.threads)?;
    if o.head {
        return pool.install(|| train_head(o, variant));
    }
    pool.install(|| train(o, variant))
}

/// `tally train --head`: the margin head of a scoring variant over a chess
/// net's body.
fn train_head(o: &Options, variant: Variant) -> Result<i32, CliError> {
    let run = o.head_run(variant).map_err(CliError::bad_input)?;
    fit_and_write(&run, &mut |line| outln!("{line}")).map_err(CliError::bad_input)?;
    Ok(0)
}

fn train(o: &Options, variant: Variant) -> Result<i32, CliError> {
    let ckpt = o.checkpoint();
    let run = o.net_run(variant, &ckpt);
    let a = train_and_write(&run, &mut Terminal::new(!o.quiet)).map_err(CliError::bad_input)?;
    a.check().map_err(|message| CliError { message, code: 1 })?;
    Ok(0)
}
