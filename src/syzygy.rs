//! Syzygy endgame tables (UCI `SyzygyPath`): finding the table files in
//! the folders given, and probing them for a chess position's
//! win/draw/loss (WDL) and distance to zeroing (DTZ), through the
//! `shakmaty-syzygy` crate.
//!
//! What lives here: the tables and their probes, which never fail loudly:
//! a missing table, a position with castling rights or too many pieces, a
//! damaged file (even one that makes the prober panic) are all "no
//! result". What does not: where the search probes and what it does with
//! the result (`search::tablebase` and the worker), the options
//! (`uci::options`, [`crate::engine`]).
//!
//! The tables hold standard chess under the 50-move rule and without
//! castling; the engine uses them only where those are the variant's rules
//! (chess; not sets with its 30-move rule, not the points variants whose
//! endings pay otherwise, not extinction).

use std::any::Any;
use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::Arc;

use shakmaty::{Chess, Position};
use shakmaty_syzygy::Tablebase;

pub use shakmaty_syzygy::Wdl;

/// The most pieces (kings included) of any Syzygy table.
pub const MAX_PIECES: usize = 7;

/// The tables found in the folders of a `SyzygyPath`.
pub struct Tablebases {
    tables: Tablebase<Chess>,
    folders: Vec<PathBuf>,
    files: usize,
    skipped: Vec<String>,
}

impl fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tablebases")
            .field("folders", &self.folders)
            .field("files", &self.files)
            .field("max_pieces", &self.max_pieces())
            .finish_non_exhaustive()
    }
}

/// The folders of a `SyzygyPath` value, separated as the platform
/// separates `PATH` entries (`:` on Unix, `;` on Windows); empty entries
/// are dropped.
pub fn folders_of(path: &str) -> Vec<PathBuf> {
    std::env::split_paths(path)
        .filter(|p| !p.as_os_str().is_empty())
        .collect()
}

impl Tablebases {
    /// The tables in the folders of `path` ([`folders_of`]). A file with a
    /// table's name but a size no table has is skipped and named in
    /// [`Tablebases::skipped`]; other files are ignored. The files are
    /// opened only when first probed.
    ///
    /// # Errors
    ///
    /// One line naming the folder when a folder does not exist, is not a
    /// folder or cannot be listed, or holds no table file at all; and when
    /// `path` names no folder.
    pub fn open(path: &str) -> Result<Tablebases, String> {
        let folders = folders_of(path);
        if folders.is_empty() {
            return Err("no folder given".to_owned());
        }
        let mut tables = Tablebase::new();
        let mut files = 0;
        let mut skipped = Vec::new();
        for folder in &folders {
            let shown = folder.display();
            if !folder.is_dir() {
                return Err(if folder.exists() {
                    format!("{shown} is not a folder")
                } else {
                    format!("no folder {shown}")
                });
            }
            let entries =
                std::fs::read_dir(folder).map_err(|e| format!("cannot list {shown}: {e}"))?;
            let mut found = 0;
            let mut paths: Vec<PathBuf> = entries.filter_map(|e| Some(e.ok()?.path())).collect();
            // The same tables whatever order the folder lists them in.
            paths.sort();
            let skipped_before = skipped.len();
            for file in paths {
                match tables.add_file(&file) {
                    Ok(()) => found += 1,
                    // Not named as a table: not ours to judge.
                    Err(e) if e.kind() == std::io::ErrorKind::InvalidInput => {}
                    Err(e) => skipped.push(format!("{}: {e}", file.display())),
                }
            }
            if found == 0 {
                let why = match skipped.len() - skipped_before {
                    0 => String::new(),
                    n => format!(" ({n} damaged, skipped)"),
                };
                return Err(format!(
                    "no Syzygy table files (.rtbw, .rtbz) in {shown}{why}"
                ));
            }
            files += found;
        }
        Ok(Tablebases {
            tables,
            folders,
            files,
            skipped,
        })
    }

    /// Table files added (WDL and DTZ files each count).
    pub fn files(&self) -> usize {
        self.files
    }

    /// The most pieces (kings included) of the tables found.
    pub fn max_pieces(&self) -> usize {
        self.tables.max_pieces()
    }

    /// The files with a table's name that were not added, each with why.
    pub fn skipped(&self) -> &[String] {
        &self.skipped
    }

    /// The folders searched.
    pub fn folders(&self) -> &[PathBuf] {
        &self.folders
    }

    /// The WDL of `pos` as if it had just been reached by a capture or a
    /// pawn move (its halfmove clock at 0); `None` without a result (no
    /// table, castling rights, a damaged file).
    pub fn wdl(&self, pos: &Chess) -> Option<Wdl> {
        if pos.castles().any() {
            return None;
        }
        guarded(|| self.tables.probe_wdl_after_zeroing(pos).ok())
    }

    /// The DTZ of `pos` in plies (positive when the side to move wins, 0 in
    /// a draw; possibly one ply more than the shortest, as the tables
    /// round it); `None` without a result.
    pub fn dtz(&self, pos: &Chess) -> Option<i32> {
        if pos.castles().any() {
            return None;
        }
        guarded(|| {
            self.tables
                .probe_dtz(pos)
                .ok()
                .map(|d| d.ignore_rounding().0)
        })
    }
}

/// `probe()`, with a panic inside the prober (a damaged file it did not
/// expect) taken as no result.
fn guarded<T>(probe: impl FnOnce() -> Option<T>) -> Option<T> {
    catch_unwind(AssertUnwindSafe(probe)).ok().flatten()
}

/// `pos` as a standard chess position, where the rules' position type is
/// shakmaty's `Chess` (not in extinction).
#[inline]
pub fn chess_of<P: Any>(pos: &P) -> Option<&Chess> {
    (pos as &dyn Any).downcast_ref::<Chess>()
}

/// The tables a search probes, and how (the `Syzygy*` options).
#[derive(Clone, Debug)]
pub struct Probing {
    /// The tables.
    pub tables: Arc<Tablebases>,
    /// Positions of at most this many pieces (kings included) are probed:
    /// the smaller of `SyzygyProbeLimit` and the tables' largest.
    pub limit: usize,
    /// Positions of exactly `limit` pieces are probed in the search only
    /// this many plies or more from its horizon (`SyzygyProbeDepth`).
    pub depth: i32,
    /// Whether a win the 50-move rule frustrates counts as a draw
    /// (`Syzygy50MoveRule`).
    pub rule50: bool,
    /// The margin of a won game's end for the winner, in the search's
    /// internal units (what a table win is worth beyond its band).
    pub win: i32,
}

/// The `Syzygy*` option values.
#[derive(Clone, Debug)]
pub struct SyzygyOptions {
    /// The tables of `SyzygyPath` (`None`: none).
    pub tables: Option<Arc<Tablebases>>,
    /// `SyzygyProbeDepth`.
    pub probe_depth: i32,
    /// `SyzygyProbeLimit`.
    pub probe_limit: usize,
    /// `Syzygy50MoveRule`.
    pub rule50: bool,
}

impl Default for SyzygyOptions {
    fn default() -> SyzygyOptions {
        SyzygyOptions {
            tables: None,
            probe_depth: 1,
            probe_limit: MAX_PIECES,
            rule50: true,
        }
    }
}

impl PartialEq for SyzygyOptions {
    fn eq(&self, other: &SyzygyOptions) -> bool {
        let same_tables = match (&self.tables, &other.tables) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (a, b) => a.is_none() && b.is_none(),
        };
        same_tables
            && self.probe_depth == other.probe_depth
            && self.probe_limit == other.probe_limit
            && self.rule50 == other.rule50
    }
}

impl SyzygyOptions {
    /// What a search probes, a won game's end being worth `win` to the
    /// winner: `None` without tables or with a probe limit of 0.
    pub fn probing(&self, win: i32) -> Option<Probing> {
        let tables = self.tables.clone()?;
        let limit = self.probe_limit.min(tables.max_pieces());
        (limit > 0).then_some(Probing {
            tables,
            limit,
            depth: self.probe_depth,
            rule50: self.rule50,
            win,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_split_as_path_entries() {
        let sep = if cfg!(windows) { ";" } else { ":" };
        let folders = folders_of(&format!("a{sep}{sep}b c"));
        assert_eq!(folders, vec![PathBuf::from("a"), PathBuf::from("b c")]);
        assert!(folders_of("").is_empty());
    }

    #[test]
    fn a_missing_folder_is_named() {
        let e = Tablebases::open("/no/such/folder").unwrap_err();
        assert_eq!(e, "no folder /no/such/folder");
        assert_eq!(Tablebases::open("").unwrap_err(), "no folder given");
    }

    #[test]
    fn only_chess_positions_are_chess() {
        let chess = Chess::default();
        assert!(chess_of(&chess).is_some());
        assert!(chess_of(&crate::rules::Extinction::default()).is_none());
    }
}
