//! The results file: JSON Lines, so that every finished game is one
//! appended line and nothing played is lost when a run stops.
//!
//! The first line is the [`Header`] (`{"type":"header",...}`: the format
//! version, the [`Experiment`] and the shard), every further line one
//! [`GameRecord`] (`{"type":"game",...}`). A last line cut short (a run
//! killed while writing) is ignored when reading. A run given an existing
//! file checks that the experiment is the same and skips the games already
//! in it (resume); `tally match merge` combines the files of several
//! shards into one ([`merge`]).

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{Experiment, GameRecord, Shard};

/// The format version written in headers.
pub const FORMAT: u32 = 1;

/// The first line of a results file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// Format version ([`FORMAT`]).
    pub format: u32,
    /// What is being measured.
    pub experiment: Experiment,
    /// The shard this file holds, `None` for all games.
    pub shard: Option<Shard>,
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum Line {
    Header(Header),
    Game(Box<GameRecord>),
}

/// Reads a results file: its header and games (in file order).
///
/// # Errors
///
/// A one-line message: the file cannot be read, has no header, or a line
/// (other than a cut-short last one) is not a record.
pub fn read(path: &Path) -> Result<(Header, Vec<GameRecord>), String> {
    let f = File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let mut header = None;
    let mut games = Vec::new();
    let lines: Vec<String> = BufReader::new(f)
        .lines()
        .collect::<Result<_, _>>()
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let last = lines.iter().rposition(|l| !l.trim().is_empty());
    for (i, text) in lines.iter().enumerate() {
        if text.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Line>(text) {
            Ok(Line::Header(h)) if header.is_none() => header = Some(h),
            Ok(Line::Header(_)) => {
                return Err(format!(
                    "{}: line {}: a second header",
                    path.display(),
                    i + 1
                ));
            }
            Ok(Line::Game(g)) => games.push(*g),
            Err(_) if Some(i) == last && header.is_some() => {}
            Err(e) => {
                return Err(format!(
                    "{}: line {}: not a match record: {e}",
                    path.display(),
                    i + 1
                ));
            }
        }
    }
    let header =
        header.ok_or_else(|| format!("{}: not a results file (no header)", path.display()))?;
    if header.format != FORMAT {
        return Err(format!(
            "{}: results format {} (this Tally reads {FORMAT})",
            path.display(),
            header.format
        ));
    }
    Ok((header, games))
}

/// A results file open for appending.
#[derive(Debug)]
pub struct Writer {
    file: File,
}

impl Writer {
    /// Creates `path` with `header` (replacing any file there).
    ///
    /// # Errors
    ///
    /// A message if it cannot be written.
    pub fn create(path: &Path, header: &Header) -> Result<Writer, String> {
        let mut file =
            File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        let line = serde_json::to_string(&Line::Header(header.clone()))
            .map_err(|e| format!("cannot write the header: {e}"))?;
        writeln!(file, "{line}").map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        Ok(Writer { file })
    }

    /// Opens an existing file to append to.
    ///
    /// # Errors
    ///
    /// A message if it cannot be opened.
    pub fn append_to(path: &Path) -> Result<Writer, String> {
        let mut file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        // A line cut short by a killed run must not glue onto the next.
        let _ = writeln!(file);
        Ok(Writer { file })
    }

    /// Appends one game (flushed at once).
    ///
    /// # Errors
    ///
    /// A message if it cannot be written.
    pub fn game(&mut self, g: &GameRecord) -> Result<(), String> {
        let line = serde_json::to_string(&Line::Game(Box::new(g.clone())))
            .map_err(|e| format!("cannot write a game: {e}"))?;
        writeln!(self.file, "{line}")
            .and_then(|()| self.file.flush())
            .map_err(|e| format!("cannot write the results file: {e}"))
    }
}

/// Merged result files.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    /// The common header (no shard).
    pub header: Header,
    /// Every game once, by index.
    pub games: Vec<GameRecord>,
    /// Games found in more than one file (the first one is kept).
    pub duplicates: usize,
}

/// Combines result files of one experiment.
///
/// # Errors
///
/// A message if a file cannot be read or belongs to another experiment.
pub fn merge(paths: &[&Path]) -> Result<Merged, String> {
    let mut header: Option<Header> = None;
    let mut games: Vec<GameRecord> = Vec::new();
    let mut duplicates = 0;
    let mut seen = std::collections::HashSet::new();
    for p in paths {
        let (h, gs) = read(p)?;
        match &header {
            None => {
                header = Some(Header {
                    shard: None,
                    ..h.clone()
                });
            }
            Some(first) if first.experiment != h.experiment => {
                return Err(format!(
                    "{} is another experiment than {} (variant, players, limits, openings and games must match)",
                    p.display(),
                    paths[0].display()
                ));
            }
            Some(_) => {}
        }
        for g in gs {
            if seen.insert(g.index) {
                games.push(g);
            } else {
                duplicates += 1;
            }
        }
    }
    let header = header.ok_or_else(|| "nothing to merge".to_owned())?;
    games.sort_by_key(|g| g.index);
    Ok(Merged {
        header,
        games,
        duplicates,
    })
}

/// Writes a whole results file.
///
/// # Errors
///
/// A message if it cannot be written.
pub fn write(path: &Path, header: &Header, games: &[GameRecord]) -> Result<(), String> {
    let mut w = Writer::create(path, header)?;
    for g in games {
        w.game(g)?;
    }
    Ok(())
}
