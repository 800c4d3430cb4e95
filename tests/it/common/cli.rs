//! Running the `tally` binary from the command-line tests: its output,
//! its streams as text, scratch folders, and the seeded `datagen`, `tune`
//! and `train` runs that the data tests share.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `tally` binary as a command in the crate's root, for a test to add
/// arguments, paths or pipes to.
pub fn command() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tally"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

/// Runs `tally` with `args` in the crate's root.
pub fn tally(args: &[&str]) -> Output {
    command().args(args).output().expect("run tally")
}

/// A fresh scratch folder named after the test and this process.
pub fn scratch(name: &str) -> PathBuf {
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("tally-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("scratch folder");
    d
}

/// Writes `games` self-play games of `variant` at 200 nodes, one thread,
/// seed `seed`, to `out`; panics with the run if it fails.
pub fn datagen(variant: &str, games: &str, seed: &str, out: &Path) {
    let run = command()
        .args(["datagen", "-v", variant, "--games", games, "--nodes", "200"])
        .args(["--seed", seed, "--threads", "1", "--quiet", "-o"])
        .arg(out)
        .output()
        .expect("run tally datagen");
    assert!(run.status.success(), "{run:?}");
}

/// Runs `tally ARGS --data DATA`, with `-o OUT` when given: the shape of
/// every `tune` and `train` run.
pub fn on_data(args: &[&str], data: &Path, out: Option<&Path>) -> Output {
    let mut c = command();
    c.args(args).arg("--data").arg(data);
    if let Some(out) = out {
        c.arg("-o").arg(out);
    }
    c.output().expect("run tally")
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Asserts that a run was refused as bad input: exit code 2 and one line
/// on standard error containing `needle` (`what` says which run in a
/// failure); returns that line.
pub fn refused(o: &Output, needle: &str, what: &str) -> String {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{what}: {err}");
    assert_eq!(err.lines().count(), 1, "{what}: {err}");
    assert!(err.contains(needle), "{what}: {err}");
    err
}
