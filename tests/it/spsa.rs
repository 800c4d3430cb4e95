//! `tally spsa` and the `spsa` feature that it tunes: the search's
//! tunable constants declared and set as UCI options, and a short run
//! that saves, resumes and refuses another run's state. The feature's
//! tests run with `cargo test --features spsa --test it spsa::`; without the
//! feature, `tally spsa` explains how to build the engine.

use crate::common::cli;

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;

use cli::{command, stderr, tally};
#[cfg(feature = "spsa")]
use cli::{scratch, stdout};

/// What the engine prints for `commands`, then `quit`; after a `go`, the
/// `quit` waits for the `bestmove`.
fn uci(commands: &[&str]) -> String {
    let mut child = command()
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start tally");
    let mut stdin = child.stdin.take().expect("stdin");
    for c in commands {
        writeln!(stdin, "{c}").expect("write");
    }
    let searching = commands.iter().any(|c| c.starts_with("go"));
    let mut text = String::new();
    let out = BufReader::new(child.stdout.take().expect("stdout"));
    let mut lines = out.lines().map_while(Result::ok);
    if searching {
        for line in lines.by_ref() {
            text += &line;
            text.push('\n');
            if line.starts_with("bestmove") {
                break;
            }
        }
    }
    writeln!(stdin, "quit").expect("write");
    drop(stdin);
    for line in lines {
        text += &line;
        text.push('\n');
    }
    child.wait().expect("tally exits");
    text
}

/// The nodes of a depth-9 search from the start position after `options`.
#[cfg(feature = "spsa")]
fn nodes_after(options: &[&str]) -> u64 {
    let mut cmds: Vec<&str> = options.to_vec();
    cmds.extend(["position startpos", "go depth 9"]);
    let out = uci(&cmds);
    let line = out
        .lines()
        .rfind(|l| l.starts_with("info depth 9 "))
        .unwrap_or_else(|| panic!("no depth 9 in {out}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words.iter().position(|w| *w == "nodes").expect("nodes");
    words[i + 1].parse().expect("a count")
}

#[cfg(feature = "spsa")]
#[test]
fn the_tunables_are_options_that_change_the_search() {
    let out = uci(&["uci"]);
    assert!(out.contains("option name RFP_MARGIN type spin default 80 min 40 max 160"));
    assert!(out.contains("option name LMR_DIVISOR type spin default 2200 min 1500 max 3500"));
    let refused = uci(&["setoption name RFP_MARGIN value 9999"]);
    assert!(refused.contains("RFP_MARGIN: expected an integer in 40..160"));
    let default = nodes_after(&[]);
    // The default set explicitly searches the same tree; another value
    // another one.
    assert_eq!(
        nodes_after(&["setoption name rfp_margin value 80"]),
        default
    );
    assert_ne!(
        nodes_after(&["setoption name RFP_MARGIN value 160"]),
        default
    );
    assert_ne!(
        nodes_after(&["setoption name LMR_DIVISOR value 3000"]),
        default
    );
}

#[cfg(feature = "spsa")]
#[test]
fn a_run_saves_resumes_and_keeps_to_its_state() {
    let dir = scratch("spsa-run");
    let state = dir.join("run.json");
    let _ = std::fs::remove_file(&state);
    let engine = env!("CARGO_BIN_EXE_tally");
    let args = |pairs: &'static str| -> Vec<&str> {
        vec![
            "spsa",
            "--engine",
            engine,
            "--nodes",
            "300",
            "--pairs",
            pairs,
            "--batch",
            "2",
            "-c",
            "1",
            "--param",
            "RFP_MARGIN",
            "--param",
            "HISTORY_BONUS",
            "--quiet",
            "--state",
        ]
    };
    let mut first = args("4");
    first.extend([state.to_str().unwrap(), "--batches", "1"]);
    let run = tally(&first);
    assert!(run.status.success(), "{}", stderr(&run));
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    assert_eq!(saved["done"], 2);
    assert_eq!(saved["params"].as_array().unwrap().len(), 2);
    assert_eq!(saved["params"][0]["name"], "RFP_MARGIN");
    // Resumed (its options by default): the second batch ends the run.
    let mut again: Vec<&str> = args("4")
        .into_iter()
        .filter(|w| !["--param", "RFP_MARGIN", "HISTORY_BONUS"].contains(w))
        .collect();
    again.push(state.to_str().unwrap());
    let run = tally(&again);
    assert!(run.status.success(), "{}", stderr(&run));
    let out = stdout(&run);
    assert!(out.contains("RFP_MARGIN"), "{out}");
    assert!(out.contains("option.HISTORY_BONUS="), "{out}");
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    assert_eq!(saved["done"], 4);
    assert_eq!(saved["history"].as_array().unwrap().len(), 2);
    // Another length is another run.
    let mut other = args("8");
    other.push(state.to_str().unwrap());
    let run = tally(&other);
    assert_eq!(run.status.code(), Some(2));
    assert!(
        stderr(&run).contains("holds another run"),
        "{}",
        stderr(&run)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_arguments_are_refused() {
    let engine = env!("CARGO_BIN_EXE_tally");
    let run = tally(&["spsa", "--engine", engine, "--state", "x.json"]);
    assert_eq!(run.status.code(), Some(2));
    assert!(stderr(&run).contains("--nodes"), "{}", stderr(&run));
    let run = tally(&[
        "spsa",
        "--engine",
        "/no/such/engine",
        "--state",
        "x.json",
        "--nodes",
        "9",
    ]);
    assert_eq!(run.status.code(), Some(2));
    let e = stderr(&run);
    assert!(
        e.contains("cannot start") && e.contains("/no/such/engine"),
        "{e}"
    );
    // Refused before any game: steps that could not stay finite, sizes
    // beyond memory, a state that is a device or cannot be written.
    let base = ["spsa", "--engine", engine, "--nodes", "9"];
    for (extra, needle) in [
        (
            &["--state", "x.json", "--c-div", "1e-300"][..],
            "--c-div must lie in",
        ),
        (&["--state", "x.json", "--r-end", "1e300"][..], "--r-end in"),
        (
            &["--state", "x.json", "--pairs", "1000000000000"][..],
            "at most",
        ),
        (&["--state", "/dev/zero"][..], "not a regular file"),
        (&["--state", "/no/such/dir/s.json"][..], "--state"),
    ] {
        let run = tally(&[&base[..], extra].concat());
        assert_eq!(run.status.code(), Some(2), "{extra:?}");
        let e = stderr(&run);
        assert!(e.contains(needle), "{extra:?}: {e}");
    }
}

#[cfg(not(feature = "spsa"))]
#[test]
fn the_default_build_declares_no_tunables() {
    assert!(!uci(&["uci"]).contains("RFP_MARGIN"));
    let engine = env!("CARGO_BIN_EXE_tally");
    let run = tally(&[
        "spsa", "--engine", engine, "--state", "x.json", "--nodes", "9",
    ]);
    assert_eq!(run.status.code(), Some(2));
    assert!(stderr(&run).contains("--features spsa"), "{}", stderr(&run));
}

/// A state file of a four-pair run of RFP_MARGIN, with `change` applied
/// to its JSON.
fn state_with(change: impl Fn(&mut serde_json::Value)) -> String {
    let mut v = serde_json::json!({
        "format": 1,
        "setup": "chess nodes 10 openings x params RFP_MARGIN",
        "total": 4,
        "done": 0,
        "seed": 1,
        "params": [{
            "name": "RFP_MARGIN", "default": 80, "min": 40, "max": 160,
            "theta": 80.0, "c_end": 6.0, "r_end": 0.002
        }],
        "history": []
    });
    change(&mut v);
    serde_json::to_string_pretty(&v).unwrap()
}

#[test]
fn a_damaged_state_file_is_refused_with_the_field_named() {
    let dir = cli::scratch("spsa-bad-state");
    let engine = env!("CARGO_BIN_EXE_tally");
    type Change = fn(&mut serde_json::Value);
    let cases: &[(&str, Change, &str)] = &[
        (
            "min-above-max",
            |v| v["params"][0]["min"] = 200.into(),
            "min",
        ),
        (
            "c-end-zero",
            |v| v["params"][0]["c_end"] = 0.0.into(),
            "c_end",
        ),
        (
            "c-end-negative",
            |v| v["params"][0]["c_end"] = (-1.0).into(),
            "c_end",
        ),
        (
            "r-end-negative",
            |v| v["params"][0]["r_end"] = (-0.1).into(),
            "r_end",
        ),
        (
            "r-end-zero",
            |v| v["params"][0]["r_end"] = 0.0.into(),
            "r_end",
        ),
        (
            "default-outside",
            |v| v["params"][0]["default"] = 500.into(),
            "default",
        ),
        (
            "theta-outside",
            |v| v["params"][0]["theta"] = 900.0.into(),
            "theta",
        ),
        (
            "no-params",
            |v| v["params"] = serde_json::json!([]),
            "params",
        ),
        ("done-beyond-total", |v| v["done"] = 9.into(), "done"),
        ("total-zero", |v| v["total"] = 0.into(), "total"),
        (
            "history-theta-length",
            |v| {
                v["done"] = 2.into();
                v["history"] =
                    serde_json::json!([{"pairs": 2, "result": 1.0, "theta": [80.0, 3.0]}]);
            },
            "history",
        ),
        (
            "history-beyond-done",
            |v| v["history"] = serde_json::json!([{"pairs": 2, "result": 1.0, "theta": [80.0]}]),
            "history",
        ),
        (
            "theta-null",
            |v| v["params"][0]["theta"] = serde_json::Value::Null,
            "theta",
        ),
    ];
    for (name, change, field) in cases {
        let path = dir.join(format!("{name}.json"));
        std::fs::write(&path, state_with(change)).unwrap();
        let before = std::fs::read_to_string(&path).unwrap();
        let run = tally(&[
            "spsa",
            "--engine",
            engine,
            "--state",
            path.to_str().unwrap(),
            "--nodes",
            "10",
            "--pairs",
            "4",
            "--batches",
            "1",
        ]);
        let e = stderr(&run);
        assert_eq!(run.status.code(), Some(2), "{name}: {e}");
        assert_eq!(e.trim().lines().count(), 1, "{name}: {e}");
        assert!(
            e.contains(path.to_str().unwrap()) && e.contains(field),
            "{name}: {e}"
        );
        // Refused before anything is written.
        assert_eq!(std::fs::read_to_string(&path).unwrap(), before, "{name}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
