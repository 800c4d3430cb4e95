//! `tally match`: engine-versus-engine experiments scored in points, and
//! `tally match merge` to combine the results of several shards.
//!
//! Output: the summary table on standard output when the run ends (or the
//! summary as JSON with `--json`); every finished game is appended at once
//! to `--results` (JSON Lines, resumable) and `--pgn`; a progress bar on
//! standard error (unless `--quiet`/`--json`). Ctrl-C stops the run
//! cleanly: games in progress are dropped, finished ones are all written,
//! the summary is printed and the exit code is 130; run the same command
//! again to resume. A second Ctrl-C exits at once.
//!
//! Running on a cluster: give every task the same arguments and a results
//! file of its own, and let the shard come from the job array (or give
//! `--shard K/N`); a `{shard}` in `--results` or `--pgn` becomes `K-of-N`:
//!
//! ```text
//! # SLURM: sbatch --array=1-8 job.sh, job.sh running
//! tally match --variant stylish --player "name=a" --player "name=b eval=base" \
//!   --tc 10+0.1 --games 800 --results 'res-{shard}.json' --quiet
//! # Kubernetes indexed job with 8 completions: add --shards 8
//! # then, anywhere:
//! tally match merge res-*.json -o all.json --pgn all.pgn
//! ```

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use clap::{Args, Subcommand};

use super::CliError;
use super::progress::Progress;
use crate::matches::results;
use crate::matches::setup::{self, RunFiles};
use crate::matches::summary::{names_of, progress_line, stop_note, summary_table};
use crate::matches::{GameRecord, MatchConfig, Observer, Summary, summarise};

/// Set by Ctrl-C.
static STOP: AtomicBool = AtomicBool::new(false);

/// Arguments of `tally match`.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct MatchArgs {
    /// `merge`: combine result files.
    #[command(subcommand)]
    pub command: Option<MatchCommand>,
    /// The match to play.
    #[command(flatten)]
    pub run: RunArgs,
}

/// Subcommands of `tally match`.
#[derive(Debug, Subcommand)]
pub enum MatchCommand {
    /// Combine the result files of one experiment's shards (or runs) into
    /// one, and print its summary.
    Merge(MergeArgs),
}

/// Arguments of `tally match merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Result files to combine (JSON Lines written by `tally match
    /// --results`).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Write the combined results file here.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Write every game as PGN here.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of a match run.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Variant id: chess, extinction, stylish, wacky, sets, dynamic,
    /// tiebraker.
    #[arg(long, short = 'v', default_value = "chess")]
    pub variant: String,
    /// Chess960: without --openings the openings are the 960 start
    /// positions in the order --seed shuffles them (1920 games unless
    /// --games says); every engine gets UCI_Chess960 and castling goes as
    /// king takes rook. On by itself for openings with Chess960 castling
    /// rights.
    #[arg(long)]
    pub chess960: bool,
    /// The seed of the Chess960 openings' order.
    #[arg(long, default_value_t = 1, requires = "chess960")]
    pub seed: u64,
    /// A player, twice: key=value words. Tally: name=, eval=variant|untuned|base|nnue,
    /// hash=, threads=, specials=on|off, depth=, nodes=, movetime=,
    /// option.NAME=VALUE. An external UCI engine: cmd=PROGRAM (arg=...
    /// repeatable), name=, option.NAME=VALUE (sent as setoption), threads=,
    /// hash=, depth=, nodes=, movetime=. Quote values with spaces.
    #[arg(long = "player", short = 'p', value_name = "SPEC")]
    pub players: Vec<String>,
    /// Time control BASE[+INC] in seconds per side, like 10+0.1.
    #[arg(long, value_name = "TC")]
    pub tc: Option<String>,
    /// Fixed search depth per move.
    #[arg(long)]
    pub depth: Option<i32>,
    /// Fixed nodes per move.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Fixed time per move, in milliseconds.
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Openings: an EPD file (one position a line) or a PGN file (the
    /// position after each game's moves); default: the shipped
    /// positions/openings.epd (40 openings), for extinction
    /// positions/openings-extinction.epd (110 openings balanced under its
    /// rules).
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Games in the whole match (all shards); default: every opening twice,
    /// colours reversed.
    #[arg(long, short = 'n')]
    pub games: Option<usize>,
    /// Games played at once (default: cores / threads per game).
    #[arg(long, short = 'c')]
    pub concurrency: Option<usize>,
    /// Allow more search threads in all than cores.
    #[arg(long)]
    pub oversubscribe: bool,
    /// Append every finished game as PGN (awards as comments) to FILE; a
    /// `{shard}` in the name becomes K-of-N.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Results file (JSON Lines): every finished game is appended; an
    /// existing file of the same experiment is resumed (a cut-short last
    /// line is removed first); one run at a time may use a file (it is
    /// locked); a `{shard}` in the name becomes K-of-N.
    #[arg(long, value_name = "FILE")]
    pub results: Option<PathBuf>,
    /// Stop early on a sequential probability ratio test over the game
    /// pairs (pentanomial): elo0=E0,elo1=E1[,alpha=0.05,beta=0.05,
    /// model=logistic|normalized,min_pairs=100] (the bounds' Elo scale,
    /// logistic by default; no decision before min_pairs game pairs).
    #[arg(long, value_name = "SPEC")]
    pub sprt: Option<String>,
    /// Play only shard K of N: the game pairs j (games 2j and 2j+1, one
    /// opening) with j % N == K-1.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// The shard count when the shard index comes from the environment
    /// (SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX).
    #[arg(long, value_name = "N")]
    pub shards: Option<u32>,
    /// Print the summary as JSON (no progress bar).
    #[arg(long)]
    pub json: bool,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// A TOML rules file overriding any point value of the built-in tables.
    #[arg(long, value_name = "FILE")]
    pub rules: Option<PathBuf>,
    /// Sets: who gets 1/2 for a plain draw (black, white or none).
    #[arg(long, default_value = "black", value_name = "SIDE")]
    pub draw_advantage: String,
    /// How late a move may arrive after its clock ran out, in milliseconds.
    #[arg(long, default_value_t = 50, value_name = "MS")]
    pub time_margin: u64,
    /// Seconds past its time an engine may stay silent before it counts as
    /// hung (the whole wait with fixed depth or nodes); also its time to
    /// start, at least 10 s.
    #[arg(long, default_value_t = 30.0, value_name = "SECS")]
    pub hang_timeout: f64,
}

/// Runs `tally match` (or `tally match merge`); returns the exit code.
///
/// # Errors
///
/// Bad arguments or a player that cannot be started: exit code 2.
pub fn run(args: &MatchArgs) -> Result<i32, CliError> {
    match &args.command {
        Some(MatchCommand::Merge(m)) => merge(m),
        None => play(&args.run),
    }
}

fn bad(e: impl std::fmt::Display) -> CliError {
    CliError::bad_input(e)
}

/// The config a run's arguments describe ([`setup::config`]).
///
/// # Errors
///
/// A [`CliError`] (exit code 2) for any bad argument.
pub fn config_of(a: &RunArgs) -> Result<MatchConfig, CliError> {
    setup::config(&setup::Options {
        variant: &a.variant,
        players: &a.players,
        tc: a.tc.as_deref(),
        depth: a.depth,
        nodes: a.nodes,
        movetime: a.movetime,
        openings: a.openings.as_deref(),
        chess960: a.chess960,
        seed: a.seed,
        games: a.games,
        concurrency: a.concurrency,
        oversubscribe: a.oversubscribe,
        rules: a.rules.as_deref(),
        draw_advantage: &a.draw_advantage,
        sprt: a.sprt.as_deref(),
        shard: a.shard.as_deref(),
        shards: a.shards,
        time_margin: a.time_margin,
        hang_timeout: a.hang_timeout,
    })
    .map_err(bad)
}

/// Writes each finished game to the run's files and moves the progress
/// bar.
struct Sink {
    files: RunFiles,
    progress: Progress,
    done: AtomicU64,
}

impl Observer for Sink {
    fn game_done(&self, game: &GameRecord, summary: &Summary) {
        self.files.write(game);
        let n = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        self.progress.set(n);
        self.progress.message(progress_line(summary));
    }
}

fn play(a: &RunArgs) -> Result<i32, CliError> {
    // Before the openings are read or an engine started.
    if let Some(path) = &a.results {
        super::check_output("--results", path)?;
    }
    if let Some(path) = &a.pgn {
        super::check_output("--pgn", path)?;
    }
    let config = config_of(a)?;
    let (files, resumed) = RunFiles::open(&config, a.results.as_deref(), a.pgn.as_deref(), &|w| {
        eprintln!("warning: {w}")
    })
    .map_err(bad)?;
    let todo = config
        .schedule()
        .iter()
        .filter(|i| !resumed.iter().any(|g: &GameRecord| g.index == **i))
        .count();
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    let sink = Sink {
        files,
        progress: Progress::new(Some(todo as u64), !a.quiet && !a.json, "games"),
        done: AtomicU64::new(0),
    };
    let outcome = crate::matches::run(&config, resumed, &STOP, &sink).map_err(bad)?;
    sink.progress.finish();
    for e in sink.files.errors().iter().take(3) {
        eprintln!("error: {e}");
    }
    if a.json {
        println!(
            "{}",
            serde_json::to_string(&outcome.summary).unwrap_or_default()
        );
    } else {
        print_table(&summary_table(
            &config.variant.to_string(),
            &config.control.describe(),
            config.shard,
            &outcome.summary,
        ));
    }
    if let Some(n) = stop_note(&outcome) {
        eprintln!("{n}");
    }
    Ok(if outcome.interrupted { 130 } else { 0 })
}

fn merge(m: &MergeArgs) -> Result<i32, CliError> {
    let paths: Vec<&Path> = m.files.iter().map(PathBuf::as_path).collect();
    let merged = results::merge(&paths).map_err(bad)?;
    if let Some(out) = &m.output {
        results::write(out, &merged.header, &merged.games).map_err(bad)?;
    }
    if let Some(p) = &m.pgn {
        let text: String = merged.games.iter().map(|g| g.pgn.as_str()).collect();
        std::fs::write(p, text).map_err(|e| bad(format!("cannot write {}: {e}", p.display())))?;
    }
    if merged.duplicates > 0 {
        eprintln!(
            "note: {} games appeared in more than one file; the first was kept",
            merged.duplicates
        );
    }
    let e = &merged.header.experiment;
    let names = names_of(&merged.games, e);
    let summary = summarise(&names, &merged.games, None);
    if m.json {
        println!("{}", serde_json::to_string(&summary).unwrap_or_default());
    } else {
        let missing = e.games.saturating_sub(merged.games.len());
        print_table(&summary_table(&e.variant, &e.control, None, &summary));
        if missing > 0 {
            println!(
                "({missing} of the experiment's {} games are missing)",
                e.games
            );
        }
    }
    Ok(0)
}

/// Prints a summary table, with a blank line after it on a terminal.
fn print_table(table: &str) {
    print!("{table}");
    if std::io::stdout().is_terminal() {
        println!();
    }
}
