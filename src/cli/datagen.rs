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
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use clap::{Args, Subcommand};

use super::CliError;
use super::progress::Progress;
use crate::datagen::read::{FileEnd, each_game_of};
use crate::datagen::setup;
use crate::datagen::stats::{Stats, text_line};
use crate::datagen::{Config, Observer, Target};
use crate::matches::shard_path;

/// Set by Ctrl-C.
static STOP: AtomicBool = AtomicBool::new(false);

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
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// Arguments of a datagen run.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Variant id: chess, extinction, stylish, wacky, sets, dynamic,
    /// tiebraker.
    #[arg(long, short = 'v', default_value = "chess")]
    pub variant: String,
    /// The data file; a `{shard}` in the name becomes K-of-N. An existing
    /// file of the same settings is resumed.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Games in the whole run (all shards).
    #[arg(long, short = 'n', conflicts_with = "positions")]
    pub games: Option<u64>,
    /// Positions in the whole run, split evenly between the shards.
    #[arg(long)]
    pub positions: Option<u64>,
    /// Nodes per move.
    #[arg(long, default_value_t = crate::datagen::DEFAULT_NODES)]
    pub nodes: u64,
    /// Play with this net (from `tally train`; EvalMode nnue) instead of
    /// the built-in evaluation: the data of the net's next generation. A
    /// net of the variant's board (the scoring variants: a chess net).
    #[arg(long, value_name = "FILE")]
    pub net: Option<PathBuf>,
    /// Random plies (chess moves) before the searches start.
    #[arg(long, default_value_t = crate::datagen::DEFAULT_RANDOM_PLIES, value_name = "N")]
    pub random_plies: u32,
    /// Start positions (EPD), one drawn at random per game; default: the
    /// standard position.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Chess960: without --openings, each game starts from one of the 960
    /// start positions (drawn by the seed); castling as Chess960 castles.
    #[arg(long)]
    pub chess960: bool,
    /// The seed: the same seed and settings give the same file.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Games played at once (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Hash table per game, in MiB.
    #[arg(long, default_value_t = 4, value_name = "MB")]
    pub hash: usize,
    /// Nodes of the opening check's search (default: --nodes).
    #[arg(long, value_name = "N")]
    pub verify_nodes: Option<u64>,
    /// Drop an opening whose check scores beyond this, in internal units
    /// (100 a pawn); default 300 where wins are decided on the board (all
    /// but stylish and wacky, where giving it turns the check on).
    #[arg(long, value_name = "UNITS")]
    pub max_opening_score: Option<i32>,
    /// No opening check.
    #[arg(long, conflicts_with = "max_opening_score")]
    pub no_verify: bool,
    /// Win adjudication threshold, in internal units (default 900).
    #[arg(long, value_name = "UNITS")]
    pub win_score: Option<i32>,
    /// Consecutive plies beyond --win-score that adjudicate a win (default
    /// 6; 0 turns win adjudication off).
    #[arg(long, value_name = "N")]
    pub win_plies: Option<u32>,
    /// Draw adjudication threshold, in internal units (default 20).
    #[arg(long, value_name = "UNITS")]
    pub draw_score: Option<i32>,
    /// Consecutive plies within --draw-score that adjudicate a draw
    /// (default 12; 0 turns draw adjudication off).
    #[arg(long, value_name = "N")]
    pub draw_plies: Option<u32>,
    /// The first ply at which draw adjudication may count (default 80).
    #[arg(long, value_name = "PLY")]
    pub draw_after: Option<u32>,
    /// No adjudication: every game ends by the rules.
    #[arg(long)]
    pub no_adjudication: bool,
    /// A TOML rules file overriding any point value of the built-in tables.
    #[arg(long, value_name = "FILE")]
    pub rules: Option<PathBuf>,
    /// Sets: who gets 1/2 for a plain draw (black, white or none).
    #[arg(long, default_value = "black", value_name = "SIDE")]
    pub draw_advantage: String,
    /// Play only shard K of N (game i when i % N == K-1).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// The shard count when the shard index comes from the environment
    /// (SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX).
    #[arg(long, value_name = "N")]
    pub shards: Option<u32>,
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

/// The config and target a run's arguments describe ([`setup::config`]).
///
/// # Errors
///
/// A [`CliError`] (exit code 2) for any bad argument.
pub fn config_of(a: &RunArgs) -> Result<(Config, Target), CliError> {
    setup::config(&setup::Options {
        variant: &a.variant,
        games: a.games,
        positions: a.positions,
        nodes: a.nodes,
        net: a.net.as_deref(),
        random_plies: a.random_plies,
        openings: a.openings.as_deref(),
        seed: a.seed,
        chess960: a.chess960,
        threads: a.threads,
        hash: a.hash,
        verify_nodes: a.verify_nodes,
        max_opening_score: a.max_opening_score,
        no_verify: a.no_verify,
        win_score: a.win_score,
        win_plies: a.win_plies,
        draw_score: a.draw_score,
        draw_plies: a.draw_plies,
        draw_after: a.draw_after,
        no_adjudication: a.no_adjudication,
        rules: a.rules.as_deref(),
        draw_advantage: &a.draw_advantage,
        shard: a.shard.as_deref(),
        shards: a.shards,
    })
    .map_err(bad)
}

/// Moves the progress bar.
struct Bar {
    progress: Progress,
    target: Target,
    started: Instant,
    base: std::sync::Mutex<u64>,
}

impl Observer for Bar {
    fn started(&self, _games: u64, positions: u64) {
        if let Ok(mut b) = self.base.lock() {
            *b = positions;
        }
    }

    fn written(&self, games: u64, positions: u64) {
        let base = self.base.lock().map_or(0, |b| *b);
        let rate = (positions - base) as f64 / self.started.elapsed().as_secs_f64().max(1e-3);
        match self.target {
            Target::Games(_) => {
                self.progress.set(games);
                self.progress
                    .message(format!("{positions} positions, {rate:.0} positions/s"));
            }
            Target::Positions(_) => {
                self.progress.set(positions);
                self.progress
                    .message(format!("{games} games, {rate:.0} positions/s"));
            }
        }
    }
}

fn generate(a: &RunArgs) -> Result<i32, CliError> {
    let Some(output) = &a.output else {
        return Err(bad("give the data file: --output FILE"));
    };
    // Before the openings are read or a game is played.
    super::check_output("--output", output)?;
    let (config, target) = config_of(a)?;
    let path = shard_path(output, config.shard);
    let (len, unit) = match target {
        Target::Games(g) => (config.shard_games(g), "games"),
        Target::Positions(p) => (
            p.div_ceil(config.shard.map_or(1, |s| u64::from(s.count))),
            "positions",
        ),
    };
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    let bar = Bar {
        progress: Progress::new(Some(len), !a.quiet, unit),
        target,
        started: Instant::now(),
        base: std::sync::Mutex::new(0),
    };
    let outcome = crate::datagen::run(&config, target, &path, &STOP, &bar).map_err(bad)?;
    bar.progress.finish();
    let secs = bar.started.elapsed().as_secs_f64().max(1e-3);
    let new_positions = outcome.positions - bar.base.lock().map_or(0, |b| *b);
    if outcome.torn_bytes > 0 {
        eprintln!(
            "note: cut off a torn last game ({} bytes) before resuming",
            outcome.torn_bytes
        );
    }
    if outcome.skipped > 0 {
        eprintln!(
            "note: {} games skipped (no opening passed the check in {} tries)",
            outcome.skipped,
            crate::datagen::play::MAX_ATTEMPTS
        );
    }
    println!(
        "{}: {} games, {} positions ({} new positions, {:.0} positions/s on {} threads)",
        path.display(),
        outcome.games,
        outcome.positions,
        new_positions,
        new_positions as f64 / secs,
        config.threads
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

/// The exit code of reading one file: 0, or [`EXIT_DAMAGED`] after saying
/// where it is damaged.
fn end_code(end: FileEnd) -> i32 {
    match end {
        FileEnd::Damaged(e) => {
            eprintln!("error: {e}");
            EXIT_DAMAGED
        }
        FileEnd::Whole | FileEnd::Stopped => 0,
    }
}

fn stats(a: &StatsArgs) -> Result<i32, CliError> {
    let mut all = Stats::default();
    let mut code = 0;
    for path in &a.files {
        let end = each_game_of(
            path,
            |settings| println!("{}: {settings}", path.display()),
            |g| {
                all.add(g);
                ControlFlow::Continue(())
            },
        )
        .map_err(bad)?;
        code = code.max(end_code(end));
    }
    print!("{}", all.report());
    Ok(code)
}

fn text(a: &TextArgs) -> Result<i32, CliError> {
    let sink: Box<dyn Write> = match &a.output {
        Some(p) => Box::new(
            File::create(p).map_err(|e| bad(format!("cannot create {}: {e}", p.display())))?,
        ),
        None => Box::new(std::io::stdout().lock()),
    };
    let mut out = BufWriter::new(sink);
    let mut code = 0;
    for path in &a.files {
        let end = each_game_of(
            path,
            |_| {},
            |g| {
                for r in &g.positions {
                    if writeln!(out, "{}", text_line(g.variant, r)).is_err() {
                        return ControlFlow::Break(());
                    }
                }
                ControlFlow::Continue(())
            },
        )
        .map_err(bad)?;
        if end == FileEnd::Stopped {
            // A closed pipe: the reader has what it wanted.
            return Ok(code);
        }
        code = code.max(end_code(end));
    }
    if let Err(e) = out.flush() {
        return Err(bad(format!("cannot write: {e}")));
    }
    Ok(code)
}
