//! Reading data files for fitting: the games of one variant from many
//! files, in order, and the filter that keeps the quiet positions a static
//! evaluation can learn from. The tuner (`tally tune`) and the trainer
//! (`tally train`) both read through here.

use std::io::BufReader;
use std::path::{Path, PathBuf};

use super::format::{
    DataGame, FLAG_DECIDED, FLAG_FORCED, FLAG_IN_CHECK, FLAG_SPECIAL, FLAG_START, FLAG_TACTICAL,
    Reader, Record,
};
use crate::rules::Variant;

/// Flags that make a position unfit for fitting a static evaluation: in
/// check, forced, a decided score, a tactical or special best action, or
/// the start record.
pub const SKIP_FLAGS: u8 =
    FLAG_IN_CHECK | FLAG_FORCED | FLAG_DECIDED | FLAG_TACTICAL | FLAG_SPECIAL | FLAG_START;

/// Where a game lies: its number among the variant's games, the index of
/// its file in the list, and its ordinal among all the games of that file
/// (every variant counted).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GamePlace {
    /// The game's number among the games of the variant read, from 1.
    pub number: u64,
    /// The file's index in the list given.
    pub file: usize,
    /// The game's ordinal in its file, from 0.
    pub ordinal: u64,
}

/// The totals of a pass over data files.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pass {
    /// Games of the variant.
    pub games: u64,
    /// Positions in those games.
    pub positions: u64,
    /// Games of other variants, skipped.
    pub other_games: u64,
}

impl DataGame {
    /// The positions a static evaluation can be fitted to (no flag of
    /// [`SKIP_FLAGS`]).
    pub fn quiet(&self) -> impl Iterator<Item = &Record> {
        self.positions.iter().filter(|r| r.flags & SKIP_FLAGS == 0)
    }
}

/// Calls `f` with each game of `variant` in the data files, in order, and
/// where it lies.
///
/// # Errors
///
/// A file that cannot be opened or read (one line, naming it).
pub fn each_game(
    files: &[impl AsRef<Path>],
    variant: Variant,
    mut f: impl FnMut(&DataGame, GamePlace),
) -> Result<Pass, String> {
    let mut pass = Pass::default();
    for (file, path) in files.iter().enumerate() {
        let path = path.as_ref();
        let name = path.display();
        let open = super::format::open_data(path)?;
        let reader = Reader::new(BufReader::new(open)).map_err(|e| format!("{name}: {e}"))?;
        for (ordinal, game) in reader.enumerate() {
            let game = game.map_err(|e| format!("{name}: {e}"))?;
            if game.variant != variant {
                pass.other_games += 1;
                continue;
            }
            pass.games += 1;
            pass.positions += game.positions.len() as u64;
            f(
                &game,
                GamePlace {
                    number: pass.games,
                    file,
                    ordinal: ordinal as u64,
                },
            );
        }
    }
    Ok(pass)
}

/// How reading one data file to its end went (after its games were
/// handed on).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileEnd {
    /// Every game was read.
    Whole,
    /// The reader stopped (it had what it wanted).
    Stopped,
    /// The file is damaged or cut short here: the games before were read.
    Damaged(String),
}

/// Calls `f` with each game of one data file, every variant, in order,
/// after `settings` with the file's settings line; `f` may stop the
/// reading. What `tally datagen stats` and `text` read.
///
/// # Errors
///
/// A file that cannot be opened or has no valid header (one line, naming
/// it).
pub fn each_game_of(
    path: &Path,
    settings: impl FnOnce(&str),
    mut f: impl FnMut(&DataGame) -> std::ops::ControlFlow<()>,
) -> Result<FileEnd, String> {
    let open = super::format::open_data(path)?;
    let mut reader =
        Reader::new(BufReader::new(open)).map_err(|e| format!("{}: {e}", path.display()))?;
    settings(reader.settings());
    loop {
        match reader.next_game() {
            Ok(Some(g)) => {
                if f(&g).is_break() {
                    return Ok(FileEnd::Stopped);
                }
            }
            Ok(None) => return Ok(FileEnd::Whole),
            Err(e) => return Ok(FileEnd::Damaged(format!("{}: {e}", path.display()))),
        }
    }
}

/// How reading several data files went ([`each_game_of_files`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FilesEnd {
    /// Whether some file was damaged or cut short.
    pub damaged: bool,
    /// Whether the reader stopped (it had what it wanted).
    pub stopped: bool,
}

/// [`each_game_of`] over `files` in order until `f` stops: `settings` is
/// told each file's path and settings line, `damaged` where a file is
/// damaged (its games before the damage were read) or cannot be read at
/// all; either way the next file is read on.
pub fn each_game_of_files(
    files: &[PathBuf],
    mut settings: impl FnMut(&Path, &str),
    mut damaged: impl FnMut(&str),
    mut f: impl FnMut(&DataGame) -> std::ops::ControlFlow<()>,
) -> FilesEnd {
    let mut end = FilesEnd::default();
    for path in files {
        let read =
            each_game_of(path, |s| settings(path, s), &mut f).unwrap_or_else(FileEnd::Damaged);
        match read {
            FileEnd::Whole => {}
            FileEnd::Stopped => {
                end.stopped = true;
                break;
            }
            FileEnd::Damaged(e) => {
                damaged(&e);
                end.damaged = true;
            }
        }
    }
    end
}
