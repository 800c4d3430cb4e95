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

use super::CliError;
use super::progress::Progress;
use crate::analyse::annotate::annotated_pgn;
use crate::analyse::json::{game_json, position_json};
use crate::analyse::report::chart::{Labels, Series, file_title};
use crate::analyse::setup;
use crate::analyse::table::position_table;
use crate::analyse::{Finish, analyse_game, analyse_position, player_names};
use crate::engine::Engine;
use crate::pgn::PgnGame;
use crate::referee::score_input;
use crate::search::{Limits, PvLine, Reporter, Stats};

/// Arguments of `tally analyse`.
#[derive(Debug, Args)]
pub struct AnalyseArgs {
    /// What is analysed and how.
    #[command(flatten)]
    pub options: setup::Options,
    /// Print JSON (one object) instead of a table or PGN.
    #[arg(long)]
    pub json: bool,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// Whole-game mode: write the annotated PGN to FILE instead of
    /// standard output.
    #[arg(long, short = 'o', alias = "out", value_name = "FILE")]
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

/// Runs `tally analyse`.
///
/// # Errors
///
/// Bad input (exit code 2): variant, FEN, actions, PGN, limits, files.
pub fn run(args: &AnalyseArgs) -> Result<(), CliError> {
    if let Some(b) = args.big_miss
        && !(b.is_finite() && b > 0.0)
    {
        return Err(CliError::bad_input(format!(
            "--big-miss {b}: give a number of points above 0"
        )));
    }
    let o = &args.options;
    // The outputs of whole-game mode: given elsewhere they would be
    // ignored without a word.
    if !o.whole_game() {
        for (flag, given) in [
            ("-o", args.output.is_some()),
            ("--svg", args.svg.is_some()),
            ("--big-miss", args.big_miss.is_some()),
        ] {
            if given {
                return Err(CliError::bad_input(format!(
                    "{flag} is for whole-game mode (--pgn FILE without --ply); a position's ranking goes to standard output"
                )));
            }
        }
    }
    // Before the game is read or a position analysed: each output can be
    // written, is not the PGN read, and is not another output.
    let outputs: Vec<(&str, &Path)> = [
        ("-o", &args.output),
        ("--svg", &args.svg),
        ("--html", &args.html),
    ]
    .into_iter()
    .filter_map(|(flag, path)| path.as_deref().map(|p| (flag, p)))
    .collect();
    let inputs: Vec<(&str, &Path)> = o
        .pgn
        .iter()
        .filter(|p| p.as_os_str() != "-")
        .map(|p| ("--pgn", p.as_path()))
        .chain(
            o.variant_args
                .rules
                .iter()
                .map(|r| ("--rules", r.as_path())),
        )
        .collect();
    for (i, &(flag, path)) in outputs.iter().enumerate() {
        if path.as_os_str() == "-" {
            return Err(CliError::bad_input(format!(
                "{flag} -: give a file name (without -o the annotated game goes to standard output)"
            )));
        }
        super::check_output(flag, path)?;
        crate::files::check_not_an_input(flag, path, &inputs).map_err(CliError::bad_input)?;
        if let Some((other, _)) = outputs[..i]
            .iter()
            .find(|(_, p)| *p == path || crate::files::same_file(p, path))
        {
            return Err(CliError::bad_input(format!(
                "{other} and {flag} are one file ({}): one would overwrite the other",
                path.display()
            )));
        }
    }
    let setup::Session {
        mut engine,
        limits,
        game,
    } = o.session().map_err(CliError::bad_input)?;
    if let Some(note) = engine.eval_note() {
        eprintln!("note: {note}");
    }
    if let Some(warning) = setup::chess_fallback_warning(o.variant_args.variant, game.as_ref()) {
        eprintln!("warning: {warning}");
    }
    match game {
        Some(g) if o.whole_game() => whole_game(args, &mut engine, &g, &limits),
        game => {
            o.set_ranked(&mut engine, game.as_ref())
                .map_err(CliError::bad_input)?;
            position(args, &mut engine, limits)
        }
    }
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
        outln!("{}", position_json(engine.variant(), &analysis));
    } else {
        out!("{}", position_table(engine.variant(), &analysis));
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
    let record = score_input(&scorer, &g.input)
        .and_then(|r| r.check_range().map(|()| r))
        .map_err(|e| CliError::bad_input(format!("game {}: {e}", args.options.game)))?;
    let total = record.plies.len();
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
    .map_err(|e| CliError::bad_input(format!("game {}: {e}", args.options.game)))?;
    progress.finish();
    if let Some(note) = analysis.ignored_note(args.options.game) {
        eprintln!("{note}");
    }
    let names = player_names(g);
    let finish = Finish::of(&analysis.record, g.tag("Termination"));
    let series = Series::of(&analysis, big, analysis.record.ending.is_some());
    if let Some(svg) = &args.svg {
        let title = file_title(engine.variant(), &names, limits);
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
        None => out!("{text}"),
    }
    Ok(())
}
