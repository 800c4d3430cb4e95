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
    let variant = o.variant;
    // Every output is checked before any data is read: writable, not an
    // input or the other output, and a checkpoint a regular file (it is
    // renamed into place).
    super::check_output("-o", &o.out)?;
    let mut outputs = vec![("-o", o.out.clone())];
    if !o.head {
        let ckpt = o.checkpoint();
        super::check_output("--checkpoint", &ckpt)?;
        if std::fs::metadata(&ckpt).is_ok_and(|m| !m.is_file()) {
            return Err(CliError::bad_input(format!(
                "--checkpoint {}: not a regular file (a checkpoint is written beside it and renamed over it)",
                ckpt.display()
            )));
        }
        let tmp = crate::train::checkpoint::temporary(&ckpt);
        outputs.push(("--checkpoint", ckpt));
        outputs.push(("the checkpoint's temporary file", tmp));
    }
    let inputs: Vec<(&str, &std::path::Path)> = o
        .data
        .iter()
        .map(|d| ("--data", d.as_path()))
        .chain(o.init.iter().map(|i| ("--init", i.as_path())))
        .chain(o.net.iter().map(|n| ("--net", n.as_path())))
        .collect();
    for (out_flag, out) in &outputs {
        crate::files::check_not_an_input(out_flag, out, &inputs).map_err(CliError::bad_input)?;
    }
    for (i, (a_flag, a)) in outputs.iter().enumerate() {
        for (b_flag, b) in &outputs[i + 1..] {
            if a == b || crate::files::same_file(a, b) {
                return Err(CliError::bad_input(format!(
                    "{a_flag} and {b_flag} are one file ({}): one would overwrite the other",
                    a.display()
                )));
            }
        }
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
