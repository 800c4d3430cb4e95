//! `tally experiment`: the tables and figures of engine-against-engine
//! experiments, read from the results files of `tally match` (the
//! questions of docs/experiments.md; the counting is
//! [`crate::experiment`]'s).
//!
//! Each subcommand reads any number of results files (the shards of one
//! experiment are merged, several experiments each give their rows) and
//! prints a markdown table, or with `--json` one JSON line of its rows;
//! `--svg FILE` draws its figure.

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};

use super::CliError;
use crate::experiment::{self, chart, draws, handicap, style};

/// Arguments of `tally experiment`.
#[derive(Debug, Args)]
pub struct ExperimentArgs {
    /// The question.
    #[command(subcommand)]
    pub command: ExperimentCommand,
}

/// The questions `tally experiment` answers.
#[derive(Debug, Subcommand)]
pub enum ExperimentCommand {
    /// Sets points of a weaker and a stronger UCI_Elo level, each with its
    /// 95 % interval, by level and gap (with or without a handicap).
    Gap(Files),
    /// The handicap factor that evens each gap out, from runs at several
    /// factors (tally rules sets --handicap-factor K).
    Fit(Files),
    /// How games end under each scoring: tied, decided by the board, or
    /// only by a rule the scoring adds; tiebraker's disk.
    Draws(DrawsFiles),
    /// Stylish: the first player's margin, games won, mates given and
    /// taken, and the mated side winning on points.
    Style(Files),
}

/// Results files and the outputs.
#[derive(Debug, Args)]
pub struct Files {
    /// Results files (JSON Lines of tally match --results).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Draw the figure to this SVG file.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// One JSON line of the rows instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// `tally experiment draws`: results files and two figures.
#[derive(Debug, Args)]
pub struct DrawsFiles {
    /// The files and the figure of the tied games.
    #[command(flatten)]
    pub files: Files,
    /// Draw the figure of the games decided only by a scoring rule here.
    #[arg(long, value_name = "FILE")]
    pub rule_svg: Option<PathBuf>,
}

/// Runs `tally experiment`.
///
/// # Errors
///
/// A file that cannot be read or written: exit code 2.
pub fn run(args: &ExperimentArgs) -> Result<(), CliError> {
    match &args.command {
        ExperimentCommand::Gap(f) => {
            let rows = handicap::rows(&load(f)?);
            let figure = if rows.iter().all(|r| r.factor.is_some()) {
                chart::confirm(&rows)
            } else {
                chart::gap(&rows)
            };
            finish(f, &rows, &handicap::table(&rows), &figure)
        }
        ExperimentCommand::Fit(f) => {
            let fits = handicap::fit(&handicap::rows(&load(f)?));
            finish(f, &fits, &handicap::fit_table(&fits), &chart::fit(&fits))
        }
        ExperimentCommand::Draws(d) => {
            let rows = draws::rows(&load(&d.files)?);
            let text = format!("{}\n{}", draws::table(&rows), draws::disk_table(&rows));
            let tied = chart::draws(&rows, "Games tied on points, by scoring and level", |r| {
                r.tied
            });
            finish(&d.files, &rows, &text, &tied)?;
            if let Some(path) = &d.rule_svg {
                let fig = chart::draws(
                    &rows,
                    "Games decided only by a rule the scoring adds",
                    |r| r.rule,
                );
                write_svg(path, &fig)?;
            }
            Ok(())
        }
        ExperimentCommand::Style(f) => {
            let rows = style::rows(&load(f)?);
            finish(f, &rows, &style::table(&rows), &chart::style(&rows))
        }
    }
}

fn load(f: &Files) -> Result<Vec<experiment::Run>, CliError> {
    let paths: Vec<&Path> = f.files.iter().map(PathBuf::as_path).collect();
    experiment::load(&paths).map_err(CliError::bad_input)
}

/// Prints the table (or the rows as JSON) and draws the figure when asked.
fn finish<T: serde::Serialize>(
    f: &Files,
    rows: &T,
    table: &str,
    figure: &chart::Figure,
) -> Result<(), CliError> {
    if f.json {
        outln!("{}", serde_json::to_string(rows).unwrap_or_default());
    } else {
        out!("{table}");
    }
    if let Some(path) = &f.svg {
        write_svg(path, figure)?;
    }
    Ok(())
}

fn write_svg(path: &Path, figure: &chart::Figure) -> Result<(), CliError> {
    let svg = chart::draw(figure).map_err(CliError::bad_input)?;
    std::fs::write(path, svg)
        .map_err(|e| CliError::bad_input(format!("cannot write {}: {e}", path.display())))
}
