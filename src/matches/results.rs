//! The results file: JSON Lines, so that every finished game is one
//! appended line and nothing played is lost when a run stops.
//!
//! The first line is the [`Header`] (`{"type":"header",...}`: the format
//! version, the [`Experiment`] and the shard), every further line one
//! [`GameRecord`] (`{"type":"game",...}`), written whole in one write. A
//! last line cut short (a run killed while writing) is ignored when
//! reading. A run given an existing file ([`open`]) takes an exclusive
//! lock on it (a second run on the same file is refused), repairs a cut
//! last line (removes it, with a warning) so that new games never follow
//! a broken line, checks that the experiment is the same and skips the
//! games already in it (resume); `tally match merge` combines the files of
//! several shards into one ([`merge`]).

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Write};
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
    Header(Box<Header>),
    Game(Box<GameRecord>),
}

/// Reads a results file: its header and games (in file order).
///
/// # Errors
///
/// A one-line message: the file cannot be read, has no header, or a line
/// (other than a cut-short last one) is not a record.
pub fn read(path: &Path) -> Result<(Header, Vec<GameRecord>), String> {
    let bytes = crate::files::read_input(path)?;
    parse(&bytes, path)
}

/// Parses the text of the results file at `path` (see [`read`]).
fn parse(bytes: &[u8], path: &Path) -> Result<(Header, Vec<GameRecord>), String> {
    // Lossily: a line cut inside a character must not spoil the others.
    let text = String::from_utf8_lossy(bytes);
    let mut header = None;
    let mut games = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    let last = lines.iter().rposition(|l| !l.trim().is_empty());
    for (i, text) in lines.iter().enumerate() {
        if text.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Line>(text) {
            Ok(Line::Header(h)) if header.is_none() => header = Some(*h),
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

/// A results file opened for a run by [`open`].
#[derive(Debug)]
pub struct Opened {
    /// The file, locked, ready to append to.
    pub writer: Writer,
    /// The file's header: the one given, for a new file.
    pub header: Header,
    /// The games already in the file.
    pub games: Vec<GameRecord>,
    /// A warning when a cut-short last line was removed.
    pub repaired: Option<String>,
}

/// Where a cut-short last line starts in `bytes` (the start of the last
/// non-blank line when that line is not a record), if there is one; the
/// header line is never cut.
fn torn_tail(bytes: &[u8]) -> Option<usize> {
    let end = bytes.iter().rposition(|b| !b.is_ascii_whitespace())? + 1;
    let start = bytes[..end]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    if start == 0 {
        return None;
    }
    let whole = std::str::from_utf8(&bytes[start..end])
        .ok()
        .is_some_and(|l| serde_json::from_str::<Line>(l).is_ok());
    (!whole).then_some(start)
}

/// Opens the results file of a run: creates it with `header` when it is
/// missing or empty; otherwise reads its header and games, removing a
/// cut-short last line first. The file stays locked (exclusively) while
/// the returned writer lives.
///
/// # Errors
///
/// A one-line message: another run holds the file, or it cannot be read,
/// repaired or written, or it is not a results file.
pub fn open(path: &Path, header: &Header) -> Result<Opened, String> {
    let shown = path.display();
    let mut file = OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .open(path)
        .map_err(|e| format!("cannot open {shown}: {e}"))?;
    match file.try_lock() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => {
            return Err(format!(
                "{shown} is in use by another run (locked): give each run its own --results file"
            ));
        }
        // A file system without locks: go on unlocked.
        Err(TryLockError::Error(e)) if e.kind() == std::io::ErrorKind::Unsupported => {}
        Err(TryLockError::Error(e)) => return Err(format!("cannot lock {shown}: {e}")),
    }
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {shown}: {e}"))?;
    let mut writer = Writer { file };
    if bytes.iter().all(u8::is_ascii_whitespace) {
        writer.write_line(&Line::Header(Box::new(header.clone())))?;
        return Ok(Opened {
            writer,
            header: header.clone(),
            games: Vec::new(),
            repaired: None,
        });
    }
    // Read before anything is written: a file that is not a results file
    // is refused as it is.
    let (header, games) = parse(&bytes, path)?;
    let mut repaired = None;
    if let Some(start) = torn_tail(&bytes) {
        writer
            .file
            .set_len(start as u64)
            .map_err(|e| format!("cannot repair {shown}: {e}"))?;
        repaired = Some(format!(
            "{shown}: removed a cut-short last line ({} bytes; a run was stopped while writing it)",
            bytes.len() - start
        ));
    } else if bytes.last() != Some(&b'\n') {
        // A whole last line without its end: end it, so the next does not
        // glue onto it.
        writer
            .file
            .write_all(b"\n")
            .map_err(|e| format!("cannot write {shown}: {e}"))?;
    }
    Ok(Opened {
        writer,
        header,
        games,
        repaired,
    })
}

impl Writer {
    /// Creates `path` with `header` (replacing any file there).
    ///
    /// # Errors
    ///
    /// A message if it cannot be written.
    pub fn create(path: &Path, header: &Header) -> Result<Writer, String> {
        let file =
            File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        let mut w = Writer { file };
        w.write_line(&Line::Header(Box::new(header.clone())))?;
        Ok(w)
    }

    /// Writes one line whole, in one write, and flushes it.
    fn write_line(&mut self, line: &Line) -> Result<(), String> {
        let mut text =
            serde_json::to_string(line).map_err(|e| format!("cannot write a record: {e}"))?;
        text.push('\n');
        self.file
            .write_all(text.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|e| format!("cannot write the results file: {e}"))
    }

    /// Appends one game (flushed at once).
    ///
    /// # Errors
    ///
    /// A message if it cannot be written.
    pub fn game(&mut self, g: &GameRecord) -> Result<(), String> {
        self.write_line(&Line::Game(Box::new(g.clone())))
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
