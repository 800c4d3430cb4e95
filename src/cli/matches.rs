//! `tally match`: engine-versus-engine experiments scored in points (two
//! players, or a tournament of more; single games or contests in each
//! pairing), and `tally match merge` to combine the results of several
//! shards.
//!
//! Output: the summary table on standard output when the run ends (or the
//! summary as JSON with `--json`); a tournament's or contests' summary is
//! the standings, the crosstable and the pairings
//! ([`standings_table`], [`standings_json`]), a plain two-player match's
//! as it always was; every finished game is appended at once
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
use std::sync::atomic::{AtomicU64, Ordering};

use clap::{Args, Subcommand};

use super::CliError;
use super::progress::Progress;
use crate::matches::results;
use crate::matches::setup::{self, RunFiles};
use crate::matches::summary::{
    StandingsHeading, all_names, names_of, progress_line, standings_json, standings_table,
    stop_note, summary_table,
};
use crate::matches::tournament::{self, Tournament};
use crate::matches::{GameRecord, Observer, SprtConfig, Summary, summarise};

/// Arguments of `tally match`.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct MatchArgs {
    /// `merge`: combine result files.
    #[command(subcommand)]
    pub command: Option<MatchCommand>,
    /// The match to play.
    #[command(flatten)]
    pub run: setup::Options,
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
    #[arg(long, short = 'o', alias = "out", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Write every game as PGN here.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
    /// Where an SPRT over these games stands (the state of a running test
    /// started with `--results`): the same SPEC as `tally match --sprt`.
    #[arg(long, value_name = "SPEC")]
    pub sprt: Option<String>,
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

fn play(a: &setup::Options) -> Result<i32, CliError> {
    // Before the openings are read or an engine started.
    if let Some(path) = &a.results {
        super::check_output("--results", path)?;
    }
    if let Some(path) = &a.pgn {
        super::check_output("--pgn", path)?;
    }
    let config = setup::config(a).map_err(bad)?;
    let (files, resumed) = RunFiles::open(&config, a.results.as_deref(), a.pgn.as_deref(), &|w| {
        eprintln!("warning: {w}")
    })
    .map_err(bad)?;
    // Contests take a number of games known only as they are played.
    let todo = config
        .contest
        .is_none()
        .then(|| config.todo(&resumed).len() as u64);
    let stop = super::stop_on_ctrl_c();
    let sink = Sink {
        files,
        progress: Progress::new(todo, !a.quiet && !a.json, "games"),
        done: AtomicU64::new(0),
    };
    let outcome = crate::matches::run(&config, resumed, stop, &sink).map_err(bad)?;
    sink.progress.finish();
    for e in sink.files.errors().iter().take(3) {
        eprintln!("error: {e}");
    }
    if config.is_tournament() {
        let st = tournament::standings(
            &outcome.names,
            &config.pairings(),
            &outcome.games,
            config.contest.as_ref(),
        );
        let (variant, control) = (config.variant.to_string(), config.control.describe());
        let heading = StandingsHeading {
            variant: &variant,
            control: &control,
            shard: config.shard,
            kind: config.tournament.map_or("match", Tournament::as_str),
            contest: config.contest,
            contests: config.contests,
        };
        print_standings(&heading, &st, a.json);
    } else if a.json {
        outln!(
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
    let sprt = m
        .sprt
        .as_deref()
        .map(str::parse::<SprtConfig>)
        .transpose()
        .map_err(bad)?;
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
    if e.is_tournament() {
        if sprt.is_some() {
            return Err(bad(
                "--sprt tests one player against another: these results are a tournament's",
            ));
        }
        let pairings = match &e.tournament {
            Some(kind) => Tournament::parse(kind)
                .map_err(bad)?
                .pairings(e.players.len()),
            None => vec![[0, 1]],
        };
        let names = all_names(&merged.games, e);
        let st = tournament::standings(&names, &pairings, &merged.games, e.contest.as_ref());
        let heading = StandingsHeading {
            variant: &e.variant,
            control: &e.control,
            shard: None,
            kind: e.tournament.as_deref().unwrap_or("match"),
            contest: e.contest,
            contests: e.contests.unwrap_or(0),
        };
        print_standings(&heading, &st, m.json);
        let expected = pairings.len() * e.games;
        if e.contest.is_none() && !m.json && merged.games.len() < expected {
            outln!(
                "({} of the experiment's {expected} games are missing)",
                expected - merged.games.len()
            );
        }
        return Ok(0);
    }
    let names = names_of(&merged.games, e);
    let summary = summarise(&names, &merged.games, sprt.as_ref());
    if m.json {
        outln!("{}", serde_json::to_string(&summary).unwrap_or_default());
    } else {
        let missing = e.games.saturating_sub(merged.games.len());
        print_table(&summary_table(&e.variant, &e.control, None, &summary));
        if missing > 0 {
            outln!(
                "({missing} of the experiment's {} games are missing)",
                e.games
            );
        }
    }
    Ok(0)
}

/// Prints a tournament's standings: as a table, or as one line of JSON.
fn print_standings(heading: &StandingsHeading<'_>, st: &tournament::Standings, json: bool) {
    if json {
        outln!("{}", standings_json(heading, st));
    } else {
        print_table(&standings_table(heading, st));
    }
}

/// Prints a summary table, with a blank line after it on a terminal.
fn print_table(table: &str) {
    out!("{table}");
    if std::io::stdout().is_terminal() {
        outln!();
    }
}
