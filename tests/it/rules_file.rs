//! Rules files are whatever a user names: their content never appears in
//! an error (only the file, the line and column, the kind of problem), and
//! files that are not plain files are refused without being opened or read
//! beyond a limit. Over UCI (`RulesFile`), through `Tables::from_file` and
//! on the command line (`--rules`).

use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::mpsc;
use std::time::Duration;

use tally::scoring::Tables;

const MAX_RULES_FILE: u64 = Tables::MAX_FILE;

const SECRET: &str = "s3cr3t-hunter2";

/// A fresh directory for one test's files.
fn dir(test: &str) -> PathBuf {
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("tally-rules-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The UCI loop's output for `setoption name RulesFile value PATH` for
/// each path, then `isready`; fails after a minute instead of hanging.
fn uci(paths: &[&Path]) -> Vec<String> {
    let mut input = String::new();
    for p in paths {
        input.push_str(&format!("setoption name RulesFile value {}\n", p.display()));
    }
    input.push_str("isready\n");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        #[derive(Clone, Default)]
        struct Sink(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);
        impl std::io::Write for Sink {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let sink = Sink::default();
        tally::uci::run(Cursor::new(input.into_bytes()), sink.clone());
        let text = String::from_utf8_lossy(&sink.0.lock().unwrap()).into_owned();
        let _ = tx.send(text);
    });
    let text = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("the UCI loop did not answer");
    text.lines().map(str::to_owned).collect()
}

/// The error of `Tables::from_file`.
fn error(path: &Path) -> String {
    Tables::from_file(path).unwrap_err().to_string()
}

#[test]
fn errors_name_file_position_and_kind_never_the_content() {
    let d = dir("secrets");
    let cases = [
        (
            "a.env",
            format!("PASSWORD=\"{SECRET}\"\n"),
            "line 1, column 1: unknown key",
        ),
        (
            "b.env",
            format!("API_KEY={SECRET}\n"),
            "line 1, column 9: not valid TOML",
        ),
        (
            "c.toml",
            format!("[stylish]\ncapture = \"{SECRET}\"\n"),
            "line 2, column 11: value of the wrong type",
        ),
        (
            "d.toml",
            format!("# {SECRET}\n[dynamic]\n{SECRET} = 1\n"),
            "line 3, column 1: unknown key",
        ),
    ];
    let mut paths = Vec::new();
    for (name, text, want) in &cases {
        let path = d.join(name);
        std::fs::write(&path, text).unwrap();
        assert_eq!(error(&path), format!("{}: {want}", path.display()));
        paths.push(path);
    }
    let refs: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
    let out = uci(&refs);
    assert_eq!(out.len(), cases.len() + 1, "{out:#?}");
    for (line, (path, (_, _, want))) in out.iter().zip(paths.iter().zip(&cases)) {
        assert_eq!(
            line,
            &format!(
                "info string error: option RulesFile: {}: {want} (kept the default tables)",
                path.display()
            )
        );
    }
    // The command line says the same, on one line, and fails.
    let cli = Command::new(env!("CARGO_BIN_EXE_tally"))
        .args(["analyse", "--depth", "1", "--rules"])
        .arg(&paths[0])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&cli.stderr);
    assert!(!cli.status.success());
    assert_eq!(
        stderr.trim(),
        format!(
            "error: {}: line 1, column 1: unknown key",
            paths[0].display()
        )
    );
    assert!(!String::from_utf8_lossy(&cli.stdout).contains(SECRET));
}

#[cfg(target_os = "linux")]
#[test]
fn system_files_are_not_echoed() {
    let passwd = Path::new("/etc/passwd");
    let first = std::fs::read_to_string(passwd)
        .ok()
        .and_then(|t| t.lines().next().map(str::to_owned));
    let environ = Path::new("/proc/self/environ");
    let out = uci(&[passwd, environ]);
    let all = out.join("\n");
    if let Some(first) = first.filter(|l| !l.is_empty()) {
        assert!(!all.contains(&first), "{all}");
    }
    for (_, value) in std::env::vars() {
        assert!(value.len() < 8 || !all.contains(&value), "{all}");
    }
    // /proc files claim a size of 0: refused.
    let n = std::fs::read(environ).unwrap().len();
    assert_eq!(
        error(environ),
        format!("/proc/self/environ: {n} bytes read where the file claims 0: not a plain file")
    );
}

#[cfg(unix)]
#[test]
fn fifos_devices_and_directories_are_refused_unopened() {
    let d = dir("special");
    let fifo = d.join("fifo");
    let _ = std::fs::remove_file(&fifo);
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    let zero = Path::new("/dev/zero");
    let mut cases = vec![
        (zero.to_path_buf(), "a special file, not a regular file"),
        (d.clone(), "a directory, not a regular file"),
    ];
    if made {
        cases.push((fifo.clone(), "a FIFO, not a regular file"));
    }
    for (path, want) in &cases {
        assert_eq!(error(path), format!("{}: {want}", path.display()));
    }
    let refs: Vec<&Path> = cases.iter().map(|(p, _)| p.as_path()).collect();
    let out = uci(&refs);
    assert_eq!(out.last().map(String::as_str), Some("readyok"), "{out:#?}");
    assert_eq!(out.len(), cases.len() + 1, "{out:#?}");
}

#[test]
fn large_and_non_utf8_files_are_refused() {
    let d = dir("large");
    let big = d.join("big.toml");
    std::fs::write(&big, vec![b'#'; MAX_RULES_FILE as usize + 1]).unwrap();
    assert_eq!(
        error(&big),
        format!("{}: larger than {MAX_RULES_FILE} bytes", big.display())
    );
    let latin = d.join("latin.toml");
    std::fs::write(&latin, b"# caf\xe9\n").unwrap();
    assert_eq!(
        error(&latin),
        format!("{}: line 1, column 6: not UTF-8 text", latin.display())
    );
    let good = d.join("good.toml");
    std::fs::write(&good, "[dynamic]\nstalemate = [70, 30]\n").unwrap();
    assert!(Tables::from_file(&good).is_ok());
}
