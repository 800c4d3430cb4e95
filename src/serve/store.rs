//! `--save DIR`: every game written as PGN (`<id>.pgn`) after each change,
//! atomically (a temporary file renamed over the old one), and read back
//! when the server starts. Without `--save` nothing is written. The file
//! names come from the server's own game ids, never from a request.

use std::fs;
use std::path::Path;
use std::sync::Arc;

use tokio::sync::broadcast;

use super::game::ServedGame;
use super::{App, Slot, lock};

/// The largest saved game read back (a game of the most plies, every ply
/// with its awards and clocks, is far smaller).
const MAX_SAVED_BYTES: u64 = 16 * 1024 * 1024;

/// Whether `id` is one of the server's game ids (12 hex digits).
fn is_id(id: &str) -> bool {
    id.len() == 12 && id.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Writes game `id` under the save directory, if there is one. A failure
/// is reported on stderr; the game goes on.
pub(super) fn save(app: &App, id: &str) {
    let Some(dir) = &app.options.save else {
        return;
    };
    if !is_id(id) {
        return;
    }
    let Some(slot) = app.slot(id) else {
        return;
    };
    // One save of a game at a time, each of the game as it is when its
    // turn comes: the last write is of the latest state.
    let _one_at_a_time = lock(&slot.saving);
    let text = lock(&slot.game).to_saved();
    if let Err(e) = write_atomic(dir, id, &text) {
        eprintln!("warning: cannot save game {id} in {}: {e}", dir.display());
    }
}

fn write_atomic(dir: &Path, id: &str, text: &str) -> std::io::Result<()> {
    let tmp = dir.join(format!(".{id}.pgn.tmp"));
    fs::write(&tmp, text)?;
    fs::rename(&tmp, dir.join(format!("{id}.pgn")))
}

/// Reads the saved games back (at most `--max-games`, newest first).
pub(super) fn load(app: &Arc<App>) {
    let Some(dir) = &app.options.save else {
        return;
    };
    if let Err(e) = fs::create_dir_all(dir) {
        eprintln!("warning: cannot create {}: {e}", dir.display());
        return;
    }
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut files: Vec<(std::time::SystemTime, String, std::path::PathBuf)> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let path = e.path();
            let stem = path.file_stem()?.to_str()?.to_owned();
            let ok = path.extension().is_some_and(|x| x == "pgn") && is_id(&stem);
            let time = e.metadata().ok()?.modified().ok()?;
            ok.then_some((time, stem, path))
        })
        .collect();
    files.sort_by_key(|b| std::cmp::Reverse(b.0));
    let mut games = lock(&app.games);
    for (_, id, path) in files.into_iter().take(app.options.max_games) {
        let too_large = |len: u64| len > MAX_SAVED_BYTES;
        let text = match fs::metadata(&path).map(|m| m.len()) {
            Ok(len) if too_large(len) => {
                eprintln!(
                    "warning: cannot read saved game {}: {len} bytes (at most {MAX_SAVED_BYTES})",
                    path.display()
                );
                continue;
            }
            _ => match fs::read_to_string(&path) {
                Ok(t) if !too_large(t.len() as u64) => t,
                Ok(_) => continue,
                Err(e) => {
                    eprintln!("warning: cannot read saved game {}: {e}", path.display());
                    continue;
                }
            },
        };
        match ServedGame::from_saved(id.clone(), &text) {
            Ok(game) => {
                let (tx, _) = broadcast::channel(64);
                games.insert(id, Arc::new(Slot::new(game, tx)));
            }
            Err(e) => eprintln!("warning: cannot read saved game {}: {e}", path.display()),
        }
    }
}
