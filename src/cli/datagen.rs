//! `tally datagen`: self-play data for tuning and training; `tally datagen
//! stats` and `tally datagen text` to read it.
//!
//! A run plays games at fixed nodes per move on every core and appends
//! each finished game, whole and in game order, to the output file (format
//! in `docs/datagen.md`). A progress bar on standard error shows positions
//! per second (unless `--quiet`). Ctrl-C stops cleanly: games in progress
//! are dropped, every written game is whole, the exit code is 130; running
//! the same command again resumes (a torn last game is cut off first). A
//! second Ctrl-C exits at once.
//!
//! On a cluster, give every task the same arguments with `{shard}` in the
//! output name; the shard comes from `--shard K/N` or the job array, as in
//! `tally match`.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use clap::{Args, Subcommand};

use super::CliError;
use super::progress::Progress;
use crate::datagen::read::{FilesEnd, each_game_of_files};
use crate::datagen::setup;
use crate::datagen::stats::{Stats, text_line};
use crate::datagen::{Observer, Target};
use crate::matches::shard_path;

/// Arguments of `tally datagen`.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct DatagenArgs {
    /// `stats` or `text`: read data files.
    #[command(subcommand)]
    pub command: Option<DatagenCommand>,
    /// The run.
    #[command(flatten)]
    pub run: RunArgs,
}

/// Subcommands of `tally datagen`.
#[derive(Debug, Subcommand)]
pub enum DatagenCommand {
    /// Games and positions per variant, results, endings, flags and a
    /// histogram of the scores.
    Stats(StatsArgs),
    /// Every searched position as a text line: FEN | score | result |
    /// margin.
    Text(TextArgs),
}

/// Arguments of `tally datagen stats`.
#[derive(Debug, Args)]
pub struct StatsArgs {
    /// Data files written by `tally datagen`.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

/// Arguments of `tally datagen text`.
#[derive(Debug, Args)]
pub struct TextArgs {
    /// Data files written by `tally datagen`.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Write the lines here instead of standard output.
    #[arg(long, short = 'o', alias = "out", value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// Arguments of a datagen run.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// What to play and where to write it.
    #[command(flatten)]
    pub options: setup::Options,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// Runs `tally datagen` (or `stats`, `text`); returns the exit code.
///
/// # Errors
///
/// Bad arguments or an unusable file: exit code 2.
pub fn run(args: &DatagenArgs) -> Result<i32, CliError> {
    match &args.command {
        Some(DatagenCommand::Stats(s)) => stats(s),
        Some(DatagenCommand::Text(t)) => text(t),
        None => generate(&args.run),
    }
}

fn bad(e: impl std::fmt::Display) -> CliError {
    CliError::bad_input(e)
}

/// Moves the progress bar.
struct Bar {
    progress: Progress,
    target: Target,
    started: Instant,
    base: AtomicU64,
}

impl Observer for Bar {
    fn started(&self, _games: u64, positions: u64) {
        self.base.store(positions, Ordering::Relaxed);
    }

    fn written(&self, games: u64, positions: u64) {
        let rate = (positions - self.base.load(Ordering::Relaxed)) as f64
            / self.started.elapsed().as_secs_f64().max(1e-3);
        let (done, line) = self.target.progress(games, positions, rate);
        self.progress.set(done);
        self.progress.message(line);
    }
}

fn generate(a: &RunArgs) -> Result<i32, CliError> {
    let Some(output) = &a.options.output else {
        return Err(bad("give the data file: --output FILE"));
    };
    // Before the openings are read or a game is played.
    super::check_output("--output", output)?;
    let (config, target) = setup::config(&a.options).map_err(bad)?;
    let path = shard_path(output, config.shard);
    let (len, unit) = target.of_shard(&config);
    let stop = super::stop_on_ctrl_c();
    let bar = Bar {
        progress: Progress::new(Some(len), !a.quiet, unit),
        target,
        started: Instant::now(),
        base: AtomicU64::new(0),
    };
    let outcome = crate::datagen::run(&config, target, &path, stop, &bar).map_err(bad)?;
    bar.progress.finish();
    let secs = bar.started.elapsed().as_secs_f64().max(1e-3);
    let new_positions = outcome.positions - bar.base.load(Ordering::Relaxed);
    for note in outcome.notes() {
        eprintln!("{note}");
    }
    outln!(
        "{}",
        outcome.report(&path, new_positions, secs, config.threads)
    );
    if outcome.interrupted {
        eprintln!("interrupted: finished games are written; run the same command again to resume");
        return Ok(130);
    }
    Ok(0)
}

/// The exit code of `stats` and `text` for a damaged or cut-short file,
/// after what was read before the damage: that of `tune` and `train`,
/// which refuse such a file (docs/datagen.md).
const EXIT_DAMAGED: i32 = super::EXIT_BAD_INPUT;

/// Says where a file is damaged.
fn damaged(e: &str) {
    eprintln!("error: {e}");
}

/// The exit code of reading files: 0, or [`EXIT_DAMAGED`].
fn code_of(end: FilesEnd) -> i32 {
    if end.damaged { EXIT_DAMAGED } else { 0 }
}

fn stats(a: &StatsArgs) -> Result<i32, CliError> {
    let mut all = Stats::default();
    let end = each_game_of_files(
        &a.files,
        |path, settings| {
            outln!("{}: {}", path.display(), crate::text::printable(settings));
        },
        damaged,
        |g| {
            all.add(g);
            ControlFlow::Continue(())
        },
    );
    out!("{}", all.report());
    Ok(code_of(end))
}

fn text(a: &TextArgs) -> Result<i32, CliError> {
    if let Some(out) = &a.output {
        let inputs: Vec<(&str, &std::path::Path)> =
            a.files.iter().map(|f| ("an input", f.as_path())).collect();
        crate::files::check_not_an_input("--output", out, &inputs).map_err(bad)?;
    }
    let sink: Box<dyn Write> = match &a.output {
        Some(p) => Box::new(
            File::create(p).map_err(|e| bad(format!("cannot create {}: {e}", p.display())))?,
        ),
        None => Box::new(std::io::stdout().lock()),
    };
    let mut out = BufWriter::new(sink);
    let end = each_game_of_files(
        &a.files,
        |_, _| {},
        damaged,
        |g| {
            for r in &g.positions {
                if writeln!(out, "{}", text_line(g.variant, r)).is_err() {
                    return ControlFlow::Break(());
                }
            }
            ControlFlow::Continue(())
        },
    );
    // A closed pipe (stopped): the reader has what it wanted.
    if !end.stopped
        && let Err(e) = out.flush()
    {
        return Err(bad(format!("cannot write: {e}")));
    }
    Ok(code_of(end))
}
