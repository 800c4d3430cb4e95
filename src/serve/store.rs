//! `--save DIR`: every game that has begun written as PGN (`<id>.pgn`)
//! after each change and read back when the server starts. Without
//! `--save` nothing is written. The file names come from the server's own
//! game ids, never from a request.
//!
//! A save is crash-safe and follows no link: the text goes to a new
//! temporary file of a random name (created, never opened if it exists,
//! and not through a link), is synced, and is renamed over `<id>.pgn`;
//! then the directory is synced. A dropped game's file is removed. At
//! start, links and files that are not saved games are left alone, and
//! what was not loaded is said.

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::contest::ServedContest;
use super::game::ServedGame;
use super::room::Slot;
use super::{App, lock};

/// The largest saved game read back (a game of the most plies, every ply
/// with its awards and clocks, is far smaller).
const MAX_SAVED_BYTES: u64 = 16 * 1024 * 1024;

/// Whether `id` is one of the server's game ids (12 hex digits).
fn is_id(id: &str) -> bool {
    id.len() == 12 && id.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Writes game `id`'s saved `text` under the save directory, if there is
/// one. A failure is reported on stderr; the game goes on.
pub(super) fn save(app: &App, id: &str, text: &str) {
    let Some(dir) = &app.options.save else {
        return;
    };
    if !is_id(id) {
        return;
    }
    if let Err(e) = write_atomic(dir, &format!("{id}.pgn"), text) {
        eprintln!("warning: cannot save game {id} in {}: {e}", dir.display());
    }
}

/// The file of contest `id`.
fn contest_file(id: &str) -> String {
    format!("{id}.contest.json")
}

/// Writes a contest (its count, players, setup and games' ids) under the
/// save directory, if there is one, as the games are written.
pub(super) fn save_contest(app: &App, contest: &ServedContest) {
    let Some(dir) = &app.options.save else {
        return;
    };
    if !is_id(&contest.id) {
        return;
    }
    let written = serde_json::to_string(contest)
        .map_err(std::io::Error::other)
        .and_then(|text| write_atomic(dir, &contest_file(&contest.id), &text));
    if let Err(e) = written {
        eprintln!(
            "warning: cannot save contest {} in {}: {e}",
            contest.id,
            dir.display()
        );
    }
}

/// Removes game `id`'s saved file, if there is one (the game was dropped).
pub(super) fn remove(app: &App, id: &str) {
    let Some(dir) = &app.options.save else {
        return;
    };
    if !is_id(id) {
        return;
    }
    match fs::remove_file(dir.join(format!("{id}.pgn"))) {
        Ok(()) => sync_dir(dir),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => eprintln!("warning: cannot remove saved game {id}: {e}"),
    }
}

/// A temporary file name in `dir` no other process can have guessed.
fn temporary(dir: &Path, name: &str) -> PathBuf {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write(name.as_bytes());
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    dir.join(format!(".{name}.{:016x}.tmp", h.finish()))
}

/// Opens a new file for writing: never an existing file, never through a
/// link.
fn create_new(path: &Path) -> std::io::Result<fs::File> {
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o644);
        #[cfg(target_os = "linux")]
        options.custom_flags(libc::O_NOFOLLOW);
    }
    options.open(path)
}

fn write_atomic(dir: &Path, name: &str, text: &str) -> std::io::Result<()> {
    let target = dir.join(name);
    if fs::symlink_metadata(&target).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(std::io::Error::other(format!(
            "{} is a link; a save never follows one (remove it)",
            target.display()
        )));
    }
    let tmp = temporary(dir, name);
    let written = create_new(&tmp).and_then(|mut f| {
        f.write_all(text.as_bytes())?;
        f.sync_all()
    });
    let renamed = written.and_then(|()| fs::rename(&tmp, &target));
    if renamed.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    renamed?;
    sync_dir(dir);
    Ok(())
}

/// Syncs a directory's entries (a rename in it, a removal) to disk.
fn sync_dir(dir: &Path) {
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
}

/// Reads the saved games back: at most `--max-games`, newest first, and
/// says on stderr how many were not loaded and why.
pub(super) fn load(app: &Arc<App>) {
    let Some(dir) = &app.options.save else {
        return;
    };
    if let Err(e) = fs::create_dir_all(dir) {
        eprintln!("warning: cannot create {}: {e}", dir.display());
        return;
    }
    load_contests(app, dir);
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut files: Vec<(std::time::SystemTime, String, PathBuf)> = Vec::new();
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        let Some(stem) = path
            .file_stem()
            .and_then(|s| s.to_str())
            .filter(|s| is_id(s))
        else {
            continue;
        };
        if path.extension().is_none_or(|x| x != "pgn") {
            continue;
        }
        match fs::symlink_metadata(&path) {
            Ok(m) if m.file_type().is_symlink() => {
                eprintln!(
                    "warning: {} is a link, not a saved game: not loaded",
                    path.display()
                );
            }
            Ok(m) if m.is_file() => {
                let time = m.modified().unwrap_or(std::time::UNIX_EPOCH);
                files.push((time, stem.to_owned(), path));
            }
            _ => {}
        }
    }
    files.sort_by_key(|b| std::cmp::Reverse(b.0));
    let over = files.len().saturating_sub(app.options.max_games);
    let mut unreadable = 0;
    let mut games = lock(&app.games);
    for (_, id, path) in files.into_iter().take(app.options.max_games) {
        match read(&path).and_then(|text| ServedGame::from_saved(id.clone(), &text)) {
            Ok(game) => {
                let contest = game
                    .contest
                    .as_ref()
                    .and_then(|(cid, _)| lock(&app.contests).get(cid).cloned());
                games.insert(id, Arc::new(Slot::with_contest(game, contest)));
            }
            Err(e) => {
                unreadable += 1;
                eprintln!("warning: cannot read saved game {}: {e}", path.display());
            }
        }
    }
    if over > 0 {
        eprintln!(
            "note: {over} older saved game(s) in {} not loaded: --max-games keeps {} (the newest); they stay on disk",
            dir.display(),
            app.options.max_games
        );
    }
    if unreadable > 0 {
        eprintln!("note: {unreadable} saved game(s) could not be read (above)");
    }
}

/// A saved file's text, refused past [`MAX_SAVED_BYTES`].
fn read(path: &Path) -> Result<String, String> {
    let len = fs::metadata(path).map_err(|e| e.to_string())?.len();
    if len > MAX_SAVED_BYTES {
        return Err(format!("{len} bytes (at most {MAX_SAVED_BYTES})"));
    }
    let text = fs::read_to_string(path).map_err(|e| e.to_string())?;
    if text.len() as u64 > MAX_SAVED_BYTES {
        return Err(format!("more than {MAX_SAVED_BYTES} bytes"));
    }
    Ok(text)
}

/// Reads the saved contests back (every `<id>.contest.json`); a file that
/// is not one, or whose games break its rules, is reported and left.
fn load_contests(app: &App, dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut contests = lock(&app.contests);
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        let Some(id) = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(".contest.json"))
            .filter(|s| is_id(s))
        else {
            continue;
        };
        if fs::symlink_metadata(&path).is_ok_and(|m| !m.is_file()) {
            eprintln!("warning: {} is not a file: not loaded", path.display());
            continue;
        }
        let read = read(&path).and_then(|text| {
            serde_json::from_str::<ServedContest>(&text).map_err(|e| e.to_string())
        });
        match read {
            Ok(c) if c.id == id => {
                contests.insert(id.to_owned(), Arc::new(std::sync::Mutex::new(c)));
            }
            Ok(_) => eprintln!(
                "warning: {} names another contest: not loaded",
                path.display()
            ),
            Err(e) => eprintln!("warning: cannot read saved contest {}: {e}", path.display()),
        }
    }
}
