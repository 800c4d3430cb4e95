//! `tally analyse`: every legal action ranked by expected point margin, or
//! a whole game annotated with the points won and given away.
//!
//! Position mode (`--fen`/`--moves`, or `--pgn FILE --ply K`): a table of
//! every legal action, best first, with its value, what it earns at once
//! (points and events) and its principal line; `--json` prints one JSON
//! object instead. Whole-game mode (`--pgn FILE` without `--ply`): the
//! annotated PGN (to `--output` or standard output; one JSON object with
//! `--json`), with `--html FILE` the report to read in a browser
//! ([`crate::analyse::report`]) and with `--svg FILE` the chart of both
//! players' points ([`crate::analyse::report::chart`]).
//! [`crate::analyse::Finish`] says how the game ended for all three.
//! Without a limit a position is searched for
//! [`DEFAULT_POSITION_MS`](crate::analyse::setup::DEFAULT_POSITION_MS) and
//! each position of a whole game for
//! [`DEFAULT_GAME_MS`](crate::analyse::setup::DEFAULT_GAME_MS), on every core
//! unless `--threads` says. A progress bar on standard error appears after
//! a second unless `--quiet` or `--json`.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Args;

use super::progress::Progress;
use super::{CliError, open_input};
use crate::analyse::annotate::annotated_pgn;
use crate::analyse::json::{game_json, position_json};
use crate::analyse::report::chart::{Labels, Series};
use crate::analyse::setup;
use crate::analyse::table::position_table;
use crate::analyse::{Finish, analyse_game, analyse_position, limits_text, player_names};
use crate::engine::{Engine, EngineOptions};
use crate::eval::EvalMode;
use crate::pgn::{PgnGame, nth_game};
use crate::referee::score_input;
use crate::scoring::{DrawAdvantage, Tables};
use crate::search::{Limits, PvLine, Reporter, Stats};

/// Arguments of `tally analyse`.
#[derive(Debug, Args)]
pub struct AnalyseArgs {
    /// Variant id: chess, extinction, stylish, wacky, sets, dynamic,
    /// tiebraker. Overrides a PGN's Variant tag; without either, chess.
    #[arg(long, short = 'v')]
    pub variant: Option<String>,
    /// Chess960 castling: X-FEN or Shredder-FEN castling rights, castling
    /// as king takes rook. A FEN, or a PGN whose Variant tag or FEN, says
    /// Chess960 is read so without it.
    #[arg(long)]
    pub chess960: bool,
    /// The position to rank (FEN); the standard position by default.
    #[arg(long, conflicts_with = "pgn")]
    pub fen: Option<String>,
    /// Actions to play before ranking (UCI moves and special words, space
    /// separated).
    #[arg(long, conflicts_with = "pgn")]
    pub moves: Option<String>,
    /// A PGN file. With --ply: rank the position after that many plies of
    /// game --game. Without: analyse the whole game (annotated PGN, --html,
    /// --svg).
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Which game of the PGN file (1-based).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub game: usize,
    /// With --pgn: rank the position after this many plies instead of
    /// analysing the whole game.
    #[arg(long, value_name = "K", requires = "pgn")]
    pub ply: Option<usize>,
    /// Search depth per position. Without --depth, --movetime or --nodes:
    /// 2000 ms for a position, 400 ms for each position of a whole game.
    #[arg(long)]
    pub depth: Option<i32>,
    /// Search time per position, in milliseconds.
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Search nodes per position.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Search threads (default: one per core; 1 with --depth or --nodes
    /// alone gives the same answer every time).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Hash table size in MiB.
    #[arg(long, default_value_t = 64, value_name = "MB")]
    pub hash: usize,
    /// Evaluator: variant, untuned, base or nnue (default: nnue with --net, else
    /// variant).
    #[arg(long)]
    pub eval: Option<String>,
    /// The net of the nnue evaluator (a `tally train` file).
    #[arg(long, value_name = "FILE")]
    pub net: Option<PathBuf>,
    /// A TOML rules file overriding any point value of the built-in tables.
    #[arg(long, value_name = "FILE")]
    pub rules: Option<PathBuf>,
    /// Sets: who gets 1/2 for a plain draw (black, white or none).
    #[arg(long, default_value = "black", value_name = "SIDE")]
    pub draw_advantage: String,
    /// Print JSON (one object) instead of a table or PGN.
    #[arg(long)]
    pub json: bool,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// Whole-game mode: write the annotated PGN to FILE instead of
    /// standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Whole-game mode: draw both players' cumulative points and the
    /// expected final margin to an SVG file.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Whole-game mode: write a self-contained HTML report to FILE: the
    /// board at every move (arrow keys or a click on a move step through
    /// it), what each move earned and why, the best alternative and the
    /// points given away, the points chart, the result. Opens in any
    /// browser, offline.
    #[arg(long, value_name = "FILE", requires = "pgn", conflicts_with = "ply")]
    pub html: Option<PathBuf>,
    /// Whole-game mode: missed points that count as a big miss (marked on
    /// the chart, the five largest; "big miss" in the PGN and the report);
    /// default: two pawns' worth in the variant's points.
    #[arg(long, value_name = "POINTS")]
    pub big_miss: Option<f64>,
}

fn read_pgn_game(path: &Path, n: usize) -> Result<PgnGame, CliError> {
    nth_game(open_input(path)?, n, &path.display().to_string()).map_err(CliError::bad_input)
}

/// Runs `tally analyse`.
///
/// # Errors
///
/// Bad input (exit code 2): variant, FEN, actions, PGN, limits, files.
pub fn run(args: &AnalyseArgs) -> Result<(), CliError> {
    // Before the game is read or a position analysed.
    for (flag, path) in [
        ("-o", &args.output),
        ("--svg", &args.svg),
        ("--html", &args.html),
    ] {
        if let Some(path) = path {
            super::check_output(flag, path)?;
        }
    }
    let game_mode = args.pgn.is_some() && args.ply.is_none();
    let limits = setup::limits(args.depth, args.nodes, args.movetime, game_mode)
        .map_err(CliError::bad_input)?;
    let tables = match &args.rules {
        Some(path) => Tables::from_file(path).map_err(CliError::bad_input)?,
        None => Tables::default(),
    };
    let advantage = DrawAdvantage::parse(&args.draw_advantage).map_err(CliError::bad_input)?;
    let eval_mode = match &args.eval {
        Some(text) => EvalMode::parse(text).ok_or_else(|| {
            CliError::bad_input(format!(
                "--eval '{}': expected variant, untuned, base or nnue",
                text.trim()
            ))
        })?,
        None if args.net.is_some() => EvalMode::Nnue,
        None => EvalMode::Variant,
    };
    let net = match &args.net {
        Some(path) => Some(std::sync::Arc::new(
            crate::nnue::format::load(path).map_err(CliError::bad_input)?,
        )),
        None => None,
    };
    let threads = args.threads.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    if threads == 0 || args.hash == 0 {
        return Err(CliError::bad_input(
            "--threads and --hash must be at least 1",
        ));
    }
    let pgn = match &args.pgn {
        Some(path) => Some(read_pgn_game(path, args.game)?),
        None => None,
    };
    let variant = setup::variant_of(
        args.variant.as_deref(),
        pgn.as_ref().and_then(|g| g.variant.as_deref()),
    )
    .map_err(CliError::bad_input)?;
    let options = EngineOptions {
        hash_mb: args.hash,
        threads,
        specials: true,
        chess960: args.chess960
            || args
                .fen
                .as_deref()
                .is_some_and(crate::rules::fen_needs_chess960),
        draw_advantage: advantage,
        eval_mode,
        net,
        tables,
        ..EngineOptions::default()
    };
    let mut engine = Engine::with_options(variant, options);
    if let Some(note) = engine.eval_note() {
        eprintln!("note: {note}");
    }
    match (pgn, args.ply) {
        (Some(g), None) => whole_game(args, &mut engine, &g, &limits),
        (Some(g), Some(k)) => {
            let (fen, moves) = setup::moves_to_ply(&mut engine, &g.input, k, args.game)
                .map_err(CliError::bad_input)?;
            let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
            set(&mut engine, Some(&fen), &moves)?;
            position(args, &mut engine, limits)
        }
        (None, _) => {
            let moves: Vec<&str> = args
                .moves
                .as_deref()
                .unwrap_or("")
                .split_whitespace()
                .collect();
            set(&mut engine, args.fen.as_deref(), &moves)?;
            position(args, &mut engine, limits)
        }
    }
}

fn set(engine: &mut Engine, fen: Option<&str>, moves: &[&str]) -> Result<(), CliError> {
    setup::set_position(engine, fen, moves).map_err(CliError::bad_input)
}

/// Shows the depth reached on the progress bar.
struct DepthReporter(Arc<Progress>);

impl Reporter for DepthReporter {
    fn line(&self, line: &PvLine, stats: &Stats) {
        if line.multipv == 1 {
            self.0
                .message(format!("depth {} ({} nodes)", line.depth, stats.nodes));
        }
    }
}

fn position(args: &AnalyseArgs, engine: &mut Engine, limits: Limits) -> Result<(), CliError> {
    let progress = Arc::new(Progress::new(None, !args.quiet && !args.json, ""));
    progress.message("searching".to_owned());
    let reporter = DepthReporter(progress.clone());
    let analysis = analyse_position(engine, limits, &reporter).map_err(CliError::bad_input)?;
    progress.finish();
    if args.json {
        println!("{}", position_json(engine.variant(), &analysis));
    } else {
        print!("{}", position_table(engine.variant(), &analysis));
    }
    Ok(())
}

fn whole_game(
    args: &AnalyseArgs,
    engine: &mut Engine,
    g: &PgnGame,
    limits: &Limits,
) -> Result<(), CliError> {
    let scorer = engine.scorer();
    let big = args
        .big_miss
        .unwrap_or(2.0 * scorer.points_per_pawn().as_f64());
    let progress = Progress::new(None, !args.quiet && !args.json, "plies");
    let total = score_input(&scorer, &g.input)
        .map_err(|e| CliError::bad_input(format!("game {}: {e}", args.game)))?
        .plies
        .len();
    let progress = {
        drop(progress);
        Progress::new(Some(total as u64), !args.quiet && !args.json, "plies")
    };
    let analysis = analyse_game(
        engine,
        &g.input,
        limits,
        &mut |done, _| progress.set(done as u64),
        &|| true,
    )
    .map_err(|e| CliError::bad_input(format!("game {}: {e}", args.game)))?;
    progress.finish();
    let record = &analysis.record;
    if record.ignored > 0 {
        let why = record
            .ending
            .map_or_else(String::new, |e| format!(" ({})", e.describe()));
        eprintln!(
            "note: game {} ended at ply {}{why}; {} later actions were not analysed",
            args.game,
            record.plies.len(),
            record.ignored
        );
    }
    let names = player_names(g);
    let finish = Finish::of(&analysis.record, g.tag("Termination"));
    let series = Series::of(&analysis, big, analysis.record.ending.is_some());
    if let Some(svg) = &args.svg {
        let title = format!(
            "{}: {} - {} ({}), cumulative points",
            engine.variant(),
            names[0],
            names[1],
            limits_text(limits)
        );
        let labels = Labels {
            names: [&names[0], &names[1]],
            title: &title,
            big,
            finish: &finish,
        };
        crate::analyse::report::chart::draw(svg, &analysis, &series, &labels)
            .map_err(CliError::bad_input)?;
    }
    if let Some(path) = &args.html {
        let page = crate::analyse::report::page(&analysis, g, engine.variant(), limits, big)
            .map_err(CliError::bad_input)?;
        fs::write(path, page)
            .map_err(|e| CliError::bad_input(format!("cannot write {}: {e}", path.display())))?;
    }
    let text = if args.json {
        format!("{}\n", game_json(scorer.variant(), &analysis, big))
    } else {
        annotated_pgn(&scorer, g, &analysis, &finish, limits, big)
    };
    match &args.output {
        Some(path) => fs::write(path, text)
            .map_err(|e| CliError::bad_input(format!("cannot write {}: {e}", path.display())))?,
        None => print!("{text}"),
    }
    Ok(())
}
