//! `tally score`: the referee on the command line.
//!
//! Scores PGN files or standard input (streamed, split into games, scored
//! in parallel on rayon's pool in batches by [`crate::pgn::batch`], printed
//! in input order) or one
//! game given with `--moves`/`--fen`. Output is a table per game, one line per game
//! (`--summary`), or one JSON object per game and line (`--json`).
//!
//! Errors: a bad argument (variant, rules file, draw advantage, `--moves`,
//! `--fen`, an unreadable file) is one line and exit code 2, before
//! anything is scored. A game that cannot be scored is reported on stderr
//! as `game N, ply K (move): reason` (prefixed by the file name when there
//! are several files) while every other game is scored; the exit code is
//! then 1. Untrusted text (tags, tokens, file names) is printed through
//! [`printable`], so no control character reaches the terminal. A game longer than 1 MiB
//! ([`MAX_GAME_BYTES`](crate::pgn::MAX_GAME_BYTES)) is such a
//! game: it is skipped without being kept, so no input (an endless line,
//! a stream of zero bytes on a pipe) makes memory grow; a directory or a
//! device named as a file is refused.

use std::io::{self, BufRead, Write};
use std::path::PathBuf;

use clap::Args;

use super::{CliError, open_input};
use crate::pgn::batch::{
    Format, Numbered, Scorers, StreamScorer, failure_line, render, render_batch, score_given,
};
use crate::rules::Variant;
use crate::scoring::{DrawAdvantage, Tables};
use crate::text::printable;

/// Arguments of `tally score`.
#[derive(Debug, Args)]
pub struct ScoreArgs {
    /// PGN files to score, in order ("-", or no file at all, reads
    /// standard input). A game longer than 1 MiB is reported as failed and
    /// skipped.
    #[arg(value_name = "PGN")]
    pub files: Vec<PathBuf>,
    /// Score one game given as actions instead: UCI moves and special
    /// words (disk, swap, restore, claim), space separated.
    #[arg(long, conflicts_with = "files")]
    pub moves: Option<String>,
    /// Start position of the --moves game (FEN); the standard position by
    /// default.
    #[arg(long, conflicts_with = "files")]
    pub fen: Option<String>,
    /// Recorded result of the --moves game (1-0, 0-1, 1/2-1/2, *); a
    /// decisive result on an unfinished game is a resignation.
    #[arg(long, conflicts_with = "files")]
    pub result: Option<String>,
    /// Variant id: chess, extinction, stylish, wacky, sets, dynamic,
    /// tiebraker. Overrides a PGN's Variant tag; without either, chess.
    #[arg(long, short = 'v')]
    pub variant: Option<String>,
    /// Chess960 castling for every game: X-FEN or Shredder-FEN castling
    /// rights, castling as king takes rook (O-O/O-O-O in SAN). Without it,
    /// a game whose Variant tag or FEN says Chess960 is read so.
    #[arg(long)]
    pub chess960: bool,
    /// A TOML rules file overriding any point value of the built-in tables.
    #[arg(long, value_name = "FILE")]
    pub rules: Option<PathBuf>,
    /// Sets: who gets 1/2 for a plain draw (black, white or none).
    #[arg(long, default_value = "black", value_name = "SIDE")]
    pub draw_advantage: String,
    /// One JSON object per game and line.
    #[arg(long)]
    pub json: bool,
    /// One line per game (number, players, ending, totals) instead of the
    /// per-ply table.
    #[arg(long, conflicts_with = "json")]
    pub summary: bool,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
}

/// Runs `tally score`; returns the exit code.
///
/// # Errors
///
/// Bad arguments: a [`CliError`] with exit code 2.
pub fn run(args: &ScoreArgs) -> Result<i32, CliError> {
    let variant = args.variant.as_deref().map(Variant::from_id).transpose()?;
    let tables = match &args.rules {
        Some(path) => Tables::from_file(path).map_err(CliError::bad_input)?,
        None => Tables::default(),
    };
    let advantage = DrawAdvantage::parse(&args.draw_advantage).map_err(CliError::bad_input)?;
    let scorers = Scorers::new(&tables, advantage);
    let format = if args.json {
        Format::Json
    } else if args.summary {
        Format::Summary
    } else {
        Format::Table
    };
    if args.moves.is_some() || args.fen.is_some() || args.result.is_some() {
        return score_moves(args, variant.unwrap_or_default(), &scorers, format);
    }
    let pool = super::worker_pool(args.threads)?;
    let mut inputs: Vec<(String, Box<dyn BufRead + Send>)> = Vec::new();
    let stdin = [PathBuf::from("-")];
    let files = if args.files.is_empty() {
        &stdin[..]
    } else {
        &args.files[..]
    };
    for path in files {
        inputs.push((path.display().to_string(), open_input(path)?));
    }
    let several = inputs.len() > 1;
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut failed = false;
    for (name, reader) in inputs {
        let prefix = if several {
            format!("{}: ", printable(&name))
        } else {
            String::new()
        };
        let scorer = StreamScorer {
            variant,
            chess960: args.chess960,
            scorers: &scorers,
            pool: &pool,
        };
        let mut games_failed = 0;
        let end = scorer.score_stream(reader, &mut |games| {
            games_failed += write_games(&mut out, games, format, &prefix, &pool);
        });
        if let Some(e) = &end.error {
            let e = e.to_string();
            eprintln!("{prefix}error reading input: {}", printable(&e));
        }
        failed |= games_failed > 0 || end.error.is_some();
        if end.games == 0 && end.error.is_none() {
            eprintln!("{prefix}no games found");
        } else if format != Format::Json {
            let _ = writeln!(
                out,
                "{prefix}{} games: {} scored, {} failed",
                end.games,
                end.games - games_failed,
                games_failed
            );
        }
    }
    let _ = out.flush();
    Ok(i32::from(failed))
}

fn score_moves(
    args: &ScoreArgs,
    variant: Variant,
    scorers: &Scorers,
    format: Format,
) -> Result<i32, CliError> {
    let scorer = scorers
        .get(variant)
        .ok_or_else(|| CliError::bad_input(format!("no scorer for {variant}")))?;
    let record = score_given(
        scorer,
        args.fen.as_deref(),
        args.moves.as_deref().unwrap_or(""),
        args.result.as_deref(),
        args.chess960,
    )
    .map_err(CliError::bad_input)?;
    let mut text = String::new();
    render(&mut text, format, 1, "", None, &record);
    if record.ignored > 0 {
        eprintln!(
            "note: the game ended at ply {}; {} later actions were not scored",
            record.plies.len(),
            record.ignored
        );
    }
    out!("{text}");
    Ok(0)
}

/// Writes a batch of scored games in their order, rendered in parallel on
/// `pool`; says why on standard error for each that failed, and returns
/// how many did.
fn write_games(
    out: &mut impl Write,
    games: &[Numbered],
    format: Format,
    prefix: &str,
    pool: &rayon::ThreadPool,
) -> usize {
    let texts = render_batch(games, format, prefix, pool);
    let mut failed = 0;
    for ((number, scored), text) in games.iter().zip(&texts) {
        if let Err(e) = scored {
            failed += 1;
            eprintln!("{}", failure_line(prefix, *number, e));
        }
        let _ = out.write_all(text.as_bytes());
    }
    failed
}
