//! The files the commands name: an output checked before a long run
//! starts ([`check_output`]), so that it is not lost at its last step, and
//! an input opened for reading ([`open_input`]: a file or a pipe, `-` for
//! standard input). Errors are one line naming the file.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

/// Checks, before a command reads or computes anything, that `path` can
/// be written as its output `flag`, so that a long run is not lost at its
/// last step: not a directory; an existing file that may be opened for
/// writing (nothing is written or truncated); or a new file in an
/// existing directory where it can be created (it is created and removed
/// again). A device or a FIFO is taken as it is (`/dev/null`). A path with
/// a `{shard}` placeholder has its directory checked.
///
/// # Errors
///
/// A one-line message naming the flag, the path and what is wrong.
pub fn check_output(flag: &str, path: &Path) -> Result<(), String> {
    let fail = |why: String| Err(format!("{flag} {}: {why}", path.display()));
    let sharded = path.to_string_lossy().contains("{shard}");
    if !sharded {
        match std::fs::metadata(path) {
            Ok(m) if m.is_dir() => return fail("is a directory".to_owned()),
            Ok(m) if m.is_file() => {
                return match std::fs::OpenOptions::new().append(true).open(path) {
                    Ok(_) => Ok(()),
                    Err(e) => fail(format!("cannot be written ({e})")),
                };
            }
            Ok(_) => return Ok(()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return fail(format!("cannot be written ({e})")),
        }
    }
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    match std::fs::metadata(parent) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => return fail(format!("{} is not a directory", parent.display())),
        Err(_) => return fail(format!("there is no directory {}", parent.display())),
    }
    if sharded {
        return Ok(());
    }
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
    {
        Ok(file) => {
            drop(file);
            let _ = std::fs::remove_file(path);
            Ok(())
        }
        Err(e) => fail(format!("cannot be created ({e})")),
    }
}

/// Opens an input file for reading, buffered; `-` is standard input.
///
/// Regular files and pipes are read; a directory or a device (`/dev/zero`
/// never ends) is refused.
///
/// # Errors
///
/// A file that cannot be opened or is neither a regular file nor a pipe:
/// a one-line message naming it.
pub fn open_input(path: &Path) -> Result<Box<dyn BufRead + Send>, String> {
    if path.as_os_str() == "-" {
        return Ok(Box::new(BufReader::new(io::stdin())));
    }
    let cannot = |why: &dyn std::fmt::Display| format!("cannot open {}: {why}", path.display());
    let file = File::open(path).map_err(|e| cannot(&e))?;
    let kind = file.metadata().map_err(|e| cannot(&e))?.file_type();
    #[cfg(unix)]
    let pipe = {
        use std::os::unix::fs::FileTypeExt;
        kind.is_fifo() || kind.is_socket()
    };
    #[cfg(not(unix))]
    let pipe = false;
    if kind.is_dir() {
        return Err(cannot(&"it is a directory"));
    }
    if !kind.is_file() && !pipe {
        return Err(cannot(&"not a regular file or a pipe"));
    }
    Ok(Box::new(BufReader::with_capacity(1 << 16, file)))
}

/// The most bytes [`read_input`] reads: far beyond any openings or results
/// file, short of the memory a machine has.
pub const MAX_INPUT_BYTES: u64 = 1 << 30;

/// Reads a whole input file ([`open_input`]: a regular file or a pipe, not
/// a device) of at most [`MAX_INPUT_BYTES`].
///
/// # Errors
///
/// A one-line message naming the file: it cannot be opened or read, or it
/// is longer than the bound.
pub fn read_input(path: &Path) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    let input = open_input(path)?;
    input
        .take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(format!(
            "cannot read {}: longer than {} MiB",
            path.display(),
            MAX_INPUT_BYTES >> 20
        ));
    }
    Ok(bytes)
}

/// Refuses an output `out` (the option `out_flag`) that is one of the
/// `inputs` (each with the option, or words, that name it): creating it
/// would destroy what is to be read.
///
/// # Errors
///
/// The one-line message naming both.
pub fn check_not_an_input(
    out_flag: &str,
    out: &Path,
    inputs: &[(&str, &Path)],
) -> Result<(), String> {
    match inputs.iter().find(|(_, input)| same_file(out, input)) {
        Some((flag, _)) => Err(format!(
            "{out_flag} {} is also {flag}: writing it would destroy what is to be read",
            out.display()
        )),
        None => Ok(()),
    }
}

/// Whether two paths name one file (the same file system object, through
/// links or different spellings); false when either cannot be looked up.
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (std::fs::metadata(a), std::fs::metadata(b)) {
            (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        matches!(
            (std::fs::canonicalize(a), std::fs::canonicalize(b)),
            (Ok(x), Ok(y)) if x == y
        )
    }
}
