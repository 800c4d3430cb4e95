//! `tally score`: the referee on the command line.
//!
//! Scores PGN files or standard input (streamed, split into games, scored
//! in parallel on rayon's pool in batches by [`crate::pgn::batch`], printed
//! in input order) or one
//! game given with `--moves`/`--fen`. Output is a table per game, one line per game
//! (`--summary`), or one JSON object per game and line (`--json`).
//!
//! `--series` scores the games, in order, as one contest between the
//! players of their `White` and `Black` tags ([`PgnContest`]: a series of
//! every game, or `--format`): one line per game with its points and the
//! running sums by player, then the contest's result; with `--json` each
//! game's object as without it and a last line with the totals by name,
//! the winner and why. A game that cannot be scored ends the series with
//! its reason and exit code 1.
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
use crate::contest::pgn::{PgnContest, PgnSettings, ScoredGame};
use crate::contest::{self, Contest, Seat, Why};
use crate::pgn::batch::{
    Format, Numbered, Scorers, StreamScorer, failure_line, render, render_batch, score_given,
};
use crate::pgn::{GameSplitter, GameTooLong, read_games};
use crate::referee::ScoreError;
use crate::rules::Variant;
use crate::scoring::{Points, Tables};
use crate::text::printable;
use crate::variant_args::{OVER_THE_TAG, VariantArgs, variant_help};

/// Arguments of `tally score`.
#[derive(Debug, Args)]
#[command(
    mut_arg("variant", |a| a.help(variant_help(OVER_THE_TAG))),
    mut_arg("draw_advantage", |a| a.help(
        "Sets: who gets 1/2 for a plain draw (black, white or none; default black)",
    )),
)]
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
    /// The variant (over a PGN's Variant tag; without either, chess), the
    /// rules file and the draw advantage (black by default).
    #[command(flatten)]
    pub variant_args: VariantArgs,
    /// Chess960 castling for every game: X-FEN or Shredder-FEN castling
    /// rights, castling as king takes rook (O-O/O-O-O in SAN). Without it,
    /// a game whose Variant tag or FEN says Chess960 is read so.
    #[arg(long)]
    pub chess960: bool,
    /// Sets: score with the handicap of a gap of D Elo (the handicap table
    /// of docs/rules.md): every value paid to the weaker player counts the
    /// table's factor times, and it holds the draw advantage. Needs
    /// --weaker and --weaker-elo.
    #[arg(
        long,
        value_name = "D",
        requires_all = ["weaker", "weaker_elo"],
        conflicts_with = "series"
    )]
    pub handicap: Option<u32>,
    /// With --handicap: the weaker player's rating (`UCI_Elo` scale): the
    /// handicap of a gap depends on it (docs/rules.md, sets, Handicap).
    #[arg(long, value_name = "ELO", requires = "handicap")]
    pub weaker_elo: Option<u32>,
    /// With --handicap: the weaker player's colour, white or black.
    #[arg(long, value_name = "COLOUR", requires = "handicap")]
    pub weaker: Option<String>,
    /// Score the games, in order, as one contest between the two players
    /// of their White and Black tags (the first is White in game 1): a
    /// series of every game (or --format), points summed by player; each
    /// game's points and the running sums, then who won and why (points,
    /// resignation, tiebreak).
    #[arg(long, conflicts_with_all = ["moves", "fen", "result", "summary", "draw_advantage"])]
    pub series: bool,
    /// With --series: the contest's format, series:N or
    /// tiebreak-match:N[,cap=K] (default: a series of every game read).
    #[arg(long, value_name = "FORMAT", requires = "series")]
    pub format: Option<String>,
    /// With --series in sets: the player (a name of the White and Black
    /// tags) who holds the draw advantage in every game, whatever colour;
    /// default: the player Black in game 1 (White in game 1 chose White).
    #[arg(long, value_name = "NAME", requires = "series")]
    pub draw_advantage_player: Option<String>,
    /// With --series: whether a resignation (or a loss on time) ends the
    /// series, the resigning player losing it whatever the sums (on or
    /// off; default: on in stylish, off otherwise).
    #[arg(long, value_name = "ON|OFF", requires = "series")]
    pub resignation_ends: Option<String>,
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
    let variant = args.variant_args.variant;
    let tables = super::rules::tables_with_handicap(
        args.variant_args.rules.as_deref(),
        super::rules::handicap_gap(args.handicap, args.weaker_elo),
        args.weaker.as_deref(),
    )?;
    if args.series {
        if tables.sets.handicap.is_some() {
            return Err(CliError::bad_input(
                "--series: a sets handicap goes with single games (its colour is the weaker player's in each game); score the games one by one",
            ));
        }
        return score_series(args, variant, tables);
    }
    let given = args.variant_args.draw_advantage;
    if let (Some(a), Some(h)) = (given, &tables.sets.handicap)
        && a.color() != Some(h.side)
    {
        return Err(CliError::bad_input(format!(
            "--draw-advantage {}: under the sets handicap the weaker player ({}) holds the draw advantage",
            a.as_str(),
            if h.side == shakmaty::Color::White {
                "white"
            } else {
                "black"
            }
        )));
    }
    let advantage = given.unwrap_or_default();
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
    for path in &input_files(args) {
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

/// The input files of `tally score`: standard input when none is named.
fn input_files(args: &ScoreArgs) -> Vec<PathBuf> {
    if args.files.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        args.files.clone()
    }
}

/// `tally score --series`: the games of every input, in order, as one
/// contest (see the module docs).
fn score_series(
    args: &ScoreArgs,
    variant: Option<Variant>,
    tables: Tables,
) -> Result<i32, CliError> {
    let format = args
        .format
        .as_deref()
        .map(str::parse::<contest::Format>)
        .transpose()
        .map_err(|e| CliError::bad_input(format!("--format: {e}")))?;
    let resignation_ends = args
        .resignation_ends
        .as_deref()
        .map(|w| {
            contest::switch(w).ok_or_else(|| {
                CliError::bad_input(format!(
                    "--resignation-ends '{}': expected on or off",
                    printable(w.trim())
                ))
            })
        })
        .transpose()?;
    let mut series = PgnContest::new(
        PgnSettings {
            format,
            variant,
            chess960: args.chess960,
            resignation_ends,
            draw_advantage_player: args.draw_advantage_player.clone(),
        },
        tables,
    );
    let files = input_files(args);
    let several = files.len() > 1;
    let mut readers = Vec::new();
    for path in &files {
        readers.push((path.display().to_string(), open_input(path)?));
    }
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut number = 0;
    for (name, reader) in readers {
        let prefix = if several {
            format!("{}: ", printable(&name))
        } else {
            String::new()
        };
        for chunk in GameSplitter::new(reader) {
            let games = match chunk {
                Ok(text) => read_games(&text).map_err(ScoreError::game),
                Err(e) => match GameTooLong::of(&e) {
                    Some(too_long) => Err(ScoreError::game(too_long)),
                    None => {
                        let _ = out.flush();
                        let e = e.to_string();
                        eprintln!("{prefix}error reading input: {}", printable(&e));
                        return Ok(1);
                    }
                },
            };
            let games = match games {
                Ok(g) => g,
                Err(e) => {
                    let _ = out.flush();
                    eprintln!("{}", failure_line(&prefix, number + 1, &e));
                    return Ok(1);
                }
            };
            for pgn in games {
                number += 1;
                match series.game(pgn) {
                    Ok(Some(game)) => {
                        let names = series.names().cloned().unwrap_or_default();
                        let _ = out.write_all(
                            series_game_text(args.json, number, &names, &game).as_bytes(),
                        );
                    }
                    Ok(None) => {}
                    Err(e) => {
                        let _ = out.flush();
                        eprintln!("{}", failure_line(&prefix, number, &e));
                        return Ok(1);
                    }
                }
            }
        }
    }
    let names = series.names().cloned().unwrap_or_default();
    let ignored = series.ignored();
    let contest = match series.finish() {
        Ok(c) => c,
        Err(e) => {
            let _ = out.flush();
            eprintln!("{e}");
            return Ok(1);
        }
    };
    let result = if args.json {
        series_json(&names, &contest)
    } else {
        series_result_text(&names, &contest, format.is_none())
    };
    let _ = writeln!(out, "{result}");
    let _ = out.flush();
    if ignored > 0 {
        eprintln!(
            "note: the contest ended after {} games; {ignored} later games are not counted",
            contest.games().len()
        );
    }
    Ok(0)
}

/// One game of a series: its JSON object as `tally score --json` writes
/// it, or a line with each player's points in it and the running sums.
fn series_game_text(json: bool, number: usize, names: &[String; 2], game: &ScoredGame) -> String {
    if json {
        return format!("{}\n", game.record.to_json(Some(number)));
    }
    let g = &game.played;
    let name = |seat: Seat| printable(&names[seat.index()]).into_owned();
    let (white, black) = (g.white, g.white.other());
    let ending = match (g.resigned, g.ending) {
        (Some(r), Some(kind)) => format!("{kind}, {} resigned", name(r)),
        (None, Some(kind)) => kind.to_string(),
        (_, None) => "unfinished".to_owned(),
    };
    let tiebreak = if g.tiebreak { " (tie-break)" } else { "" };
    let [a, b] = game.standing.totals;
    format!(
        "game {number}{tiebreak}: {}, {} (White) {}, {} (Black) {}, {ending}; sums: {} {a}, {} {b}\n",
        g.variant,
        name(white),
        g.points[white.index()],
        name(black),
        g.points[black.index()],
        name(Seat::First),
        name(Seat::Second),
    )
}

/// The contest's result in words: what was played, who won and why (or
/// who leads, unfinished), the sums and the games won.
fn series_result_text(names: &[String; 2], contest: &Contest, plain: bool) -> String {
    let s = contest.standing();
    let name = |seat: Seat| printable(&names[seat.index()]).into_owned();
    let [a, b] = s.totals;
    let what = if plain {
        format!("series of {} games", s.games)
    } else {
        let tiebreaks = if s.tiebreaks > 0 {
            format!(", {} tie-breaks", s.tiebreaks)
        } else {
            String::new()
        };
        format!("{} ({} games{tiebreaks})", contest.rules().format, s.games)
    };
    let sums = format!("{} {a}, {} {b}", name(Seat::First), name(Seat::Second));
    let verdict = match s.decision {
        None => match s.leader() {
            Some(l) => format!("unfinished, {} leads", name(l)),
            None => "unfinished, level".to_owned(),
        },
        Some(d) => match (d.winner, d.why) {
            (Some(w), Why::Resignation) => {
                let game = contest
                    .games()
                    .iter()
                    .find(|g| g.resigned.is_some())
                    .map_or(0, |g| g.number);
                format!(
                    "{} wins: {} resigned in game {game}, whatever the points",
                    name(w),
                    name(w.other())
                )
            }
            (Some(w), Why::Tiebreak) => format!("{} wins by the tie-break", name(w)),
            (Some(w), Why::Points) => format!("{} wins on points", name(w)),
            (None, Why::Tiebreak) => "tied after the tie-breaks".to_owned(),
            (None, _) => "tied on points".to_owned(),
        },
    };
    format!(
        "{what}: {verdict}; sums: {sums}; games won: {} {}, {} {}, tied {}",
        name(Seat::First),
        s.won[0],
        name(Seat::Second),
        s.won[1],
        s.tied
    )
}

/// The last line of `tally score --series --json`: `totals` and `won` by
/// player name, `winner` (a name, or null for a tie or an unfinished
/// contest), `why` (`points`, `resignation`, `tiebreak`; null while
/// unfinished), and `games`, `tied`, `tiebreaks`, `over`.
fn series_json(names: &[String; 2], contest: &Contest) -> String {
    /// Two values by player name, in seat order.
    struct ByName<'a, T>(&'a [String; 2], [T; 2]);

    impl<T: serde::Serialize> serde::Serialize for ByName<'_, T> {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeMap;
            let mut m = s.serialize_map(Some(2))?;
            for (name, v) in self.0.iter().zip(&self.1) {
                m.serialize_entry(name, v)?;
            }
            m.end()
        }
    }

    #[derive(serde::Serialize)]
    struct Json<'a> {
        totals: ByName<'a, Points>,
        winner: Option<&'a str>,
        why: Option<Why>,
        games: u32,
        won: ByName<'a, u32>,
        tied: u32,
        tiebreaks: u32,
        over: bool,
    }

    let s = contest.standing();
    let decision = s.decision;
    serde_json::to_string(&Json {
        totals: ByName(names, s.totals),
        winner: decision
            .and_then(|d| d.winner)
            .map(|w| names[w.index()].as_str()),
        why: decision.map(|d| d.why),
        games: s.games,
        won: ByName(names, s.won),
        tied: s.tied,
        tiebreaks: s.tiebreaks,
        over: decision.is_some(),
    })
    .unwrap_or_default()
}
