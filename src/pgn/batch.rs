//! The games of a PGN stream scored in parallel, as `tally score` does:
//! the stream is split into games on one thread ([`GameSplitter`]) while
//! the batch before is read and scored on a rayon pool; every game comes
//! back numbered in input order, scored ([`ScoreRecord`]) or with why it
//! could not be. A game longer than [`super::MAX_GAME_BYTES`] is such a
//! game: it is skipped without being kept, so no input makes memory grow.
//! What is printed of each game is the caller's; [`render`] (a batch at
//! once: [`render_batch`]) and [`failure_line`] are the words `tally
//! score` prints them in, and [`score_given`] scores its `--moves` game.

use std::io::{self, BufRead};
use std::sync::mpsc::sync_channel;

use rayon::prelude::*;

use super::{GameSplitter, GameTooLong, PgnGame, read_games};
use crate::referee::{
    GameInput, ScoreError, ScoreRecord, parse_result, score_input, score_input_until,
};
use crate::rules::{EndingKind, Variant};
use crate::scoring::{DrawAdvantage, Scorer, Tables};
use crate::text::printable;

/// Games handed to the thread pool at a time, at most.
const BATCH: usize = 256;

/// Bytes of game text handed to the thread pool at a time, about: with
/// the batches in flight, what bounds the memory a stream takes.
const BATCH_BYTES: usize = 16 << 20;

/// One scorer per variant, all on the same tables.
#[derive(Clone, Debug)]
pub struct Scorers(Vec<Scorer>);

impl Scorers {
    /// Every variant's scorer on `tables`, with `draw_advantage` for sets.
    pub fn new(tables: &Tables, draw_advantage: DrawAdvantage) -> Scorers {
        Scorers(
            Variant::ALL
                .iter()
                .map(|&v| {
                    let mut s = Scorer::with_tables(v, tables.clone());
                    s.set_draw_advantage(draw_advantage);
                    s
                })
                .collect(),
        )
    }

    /// The scorer of `v`.
    pub fn get(&self, v: Variant) -> Option<&Scorer> {
        self.0.iter().find(|s| s.variant() == v)
    }
}

/// One game's raw text, or how long it was when it was too long to read.
type Raw = Result<Vec<u8>, GameTooLong>;

/// What one game came to: the game read and its record, or why it could
/// not be scored.
pub type Scored = Result<(PgnGame, ScoreRecord), ScoreError>;

/// A game of a stream: its number (from 1, in input order) and what it
/// came to.
pub type Numbered = (usize, Scored);

/// How a stream ended.
#[derive(Debug, Default)]
pub struct StreamEnd {
    /// The games read, scored or not.
    pub games: usize,
    /// The read error that cut the stream short, if one did.
    pub error: Option<io::Error>,
}

/// Scores the games of streams.
#[derive(Clone, Copy, Debug)]
pub struct StreamScorer<'a> {
    /// The variant of every game; `None`: each game's `Variant` tag, chess
    /// without one.
    pub variant: Option<Variant>,
    /// Whether every game reads under Chess960 castling (`--chess960`);
    /// without it, the games that say so ([`GameInput::is_chess960`](crate::referee::GameInput::is_chess960)).
    pub chess960: bool,
    /// The scorers.
    pub scorers: &'a Scorers,
    /// The pool that scores.
    pub pool: &'a rayon::ThreadPool,
}

impl StreamScorer<'_> {
    /// Scores every game of a stream, a batch at a time on the pool, while
    /// another thread reads the next batch; `each` gets every batch's
    /// games, numbered from 1 in input order.
    pub fn score_stream(
        &self,
        reader: Box<dyn BufRead + Send>,
        each: &mut dyn FnMut(&[Numbered]),
    ) -> StreamEnd {
        let mut end = StreamEnd::default();
        let (tx, rx) = sync_channel::<io::Result<Vec<Raw>>>(2);
        std::thread::scope(|scope| {
            scope.spawn(move || {
                let mut batch = Vec::with_capacity(BATCH);
                let mut bytes = 0;
                for chunk in GameSplitter::new(reader) {
                    let raw = match chunk {
                        Ok(c) => Ok(c),
                        Err(e) => match GameTooLong::of(&e) {
                            Some(too_long) => Err(too_long),
                            None => {
                                let _ = tx.send(Ok(std::mem::take(&mut batch)));
                                let _ = tx.send(Err(e));
                                return;
                            }
                        },
                    };
                    bytes += raw.as_ref().map_or(0, Vec::len);
                    batch.push(raw);
                    if (batch.len() == BATCH || bytes >= BATCH_BYTES)
                        && tx.send(Ok(std::mem::take(&mut batch))).is_err()
                    {
                        return;
                    }
                    if batch.is_empty() {
                        bytes = 0;
                    }
                }
                if !batch.is_empty() {
                    let _ = tx.send(Ok(batch));
                }
            });
            for batch in rx {
                let batch = match batch {
                    Ok(b) => b,
                    Err(e) => {
                        end.error = Some(e);
                        break;
                    }
                };
                let results: Vec<Vec<Scored>> = self.pool.install(|| {
                    batch
                        .par_iter()
                        .map(|chunk| self.score_chunk(chunk))
                        .collect()
                });
                let numbered: Vec<Numbered> = results
                    .into_iter()
                    .flatten()
                    .map(|scored| {
                        end.games += 1;
                        (end.games, scored)
                    })
                    .collect();
                each(&numbered);
            }
        });
        end
    }

    /// Reads and scores the games of one raw game text.
    fn score_chunk(&self, chunk: &Raw) -> Vec<Scored> {
        let chunk = match chunk {
            Ok(c) => c,
            Err(too_long) => return vec![Err(ScoreError::game(too_long))],
        };
        match read_games(chunk) {
            Ok(games) => games.into_iter().map(|g| self.score_one(g)).collect(),
            Err(reason) => vec![Err(ScoreError::game(reason))],
        }
    }

    fn score_one(&self, mut pgn: PgnGame) -> Scored {
        pgn.input.chess960 |= self.chess960;
        let variant = match (self.variant, &pgn.variant) {
            (Some(v), _) => v,
            (None, None) => Variant::Chess,
            (None, Some(tag)) => tag_variant(tag)?,
        };
        let scorer = self
            .scorers
            .get(variant)
            .ok_or_else(|| ScoreError::game(format!("no scorer for {variant}")))?;
        let record = score_input_until(scorer, &pgn.input, pgn.problem.clone())?;
        record.check_range()?;
        Ok((pgn, record))
    }
}

/// The variant a PGN `Variant` tag names.
fn tag_variant(tag: &str) -> Result<Variant, ScoreError> {
    super::variant_of_tag(tag).ok_or_else(|| {
        ScoreError::game(format!(
            "unknown variant '{tag}' in the Variant tag (give --variant to score it anyway)"
        ))
    })
}

/// How `tally score` shows a scored game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The per-ply table after a heading.
    Table,
    /// One line: number, players, plies, ending, totals.
    Summary,
    /// One JSON object a line.
    Json,
}

/// Appends scored game `number` to `out` in `format`, each line after
/// `prefix` (the file's name when there are several), its players from
/// `pgn` when it came from one; untrusted text is made printable.
pub fn render(
    out: &mut String,
    format: Format,
    number: usize,
    prefix: &str,
    pgn: Option<&PgnGame>,
    record: &ScoreRecord,
) {
    let players = pgn
        .map(|g| {
            format!(
                "{} - {}",
                printable(g.white.as_deref().unwrap_or("?")),
                printable(g.black.as_deref().unwrap_or("?"))
            )
        })
        .unwrap_or_default();
    match format {
        Format::Json => {
            out.push_str(&record.to_json(Some(number)));
            out.push('\n');
        }
        Format::Summary => {
            let ending = record.ending_kind().map_or("running", EndingKind::name);
            out.push_str(&format!(
                "{prefix}game {number}: {} {players} {} plies, {ending}: white {}, black {}\n",
                record.variant_text(),
                record.plies.len(),
                record.total.white,
                record.total.black
            ));
        }
        Format::Table => {
            out.push_str(&format!(
                "{prefix}game {number}: {} {players}\nstart:   {}\n",
                record.variant_text(),
                record.start_fen
            ));
            out.push_str(&record.to_table());
            out.push('\n');
        }
    }
}

/// The line that says why game `number` could not be scored, after
/// `prefix`: `game N, ply K (move): why` or `game N: why`.
pub fn failure_line(prefix: &str, number: usize, e: &ScoreError) -> String {
    let sep = if e.ply.is_some() { "," } else { ":" };
    let e = e.to_string();
    format!("{prefix}game {number}{sep} {}", printable(&e))
}

/// Each game of a batch rendered as [`render`] does, in parallel on
/// `pool`, in the batch's order; a game that could not be scored is an
/// empty text (its [`failure_line`] is the caller's to tell).
pub fn render_batch(
    games: &[Numbered],
    format: Format,
    prefix: &str,
    pool: &rayon::ThreadPool,
) -> Vec<String> {
    pool.install(|| {
        games
            .par_iter()
            .map(|(number, scored)| {
                let mut text = String::new();
                if let Ok((pgn, record)) = scored {
                    render(&mut text, format, *number, prefix, Some(pgn), record);
                }
                text
            })
            .collect()
    })
}

/// Scores the one game of `tally score --moves`: `moves` from `fen` (the
/// standard position without one), its recorded `result` if given, under
/// `scorer`, its totals checked.
///
/// # Errors
///
/// A bad result, the first action that cannot be played (`--moves: ply K
/// (move): why`), or a game that cannot be scored.
pub fn score_given(
    scorer: &Scorer,
    fen: Option<&str>,
    moves: &str,
    result: Option<&str>,
    chess960: bool,
) -> Result<ScoreRecord, String> {
    let mut input = GameInput::from_text(fen, moves);
    input.chess960 = chess960;
    input.result = result.map(parse_result).transpose()?.flatten();
    score_input(scorer, &input)
        .and_then(|r| r.check_range().map(|()| r))
        .map_err(|e| match e.ply {
            Some(_) => format!("--moves: {e}"),
            None => e.to_string(),
        })
}
