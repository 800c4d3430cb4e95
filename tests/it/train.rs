//! `tally train` end to end: a tiny seeded `tally datagen` file, trained
//! for two epochs, written as a net the engine loads; the same run on
//! other threads, and one interrupted and resumed, write the same bytes;
//! the net plays legal moves over UCI (chess and extinction) and drives
//! `bench --net`, `analyse --net` and `datagen --net`; bad options are one
//! line.

use crate::common::cli;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

use cli::{command, on_data, refused, tally};
use tally::engine::{Engine, EngineOptions};
use tally::rules::{BoardKind, Variant};

fn dir(name: &str) -> PathBuf {
    cli::scratch(&format!("train-{name}"))
}

fn datagen(variant: &str, games: &str, out: &Path) {
    cli::datagen(variant, games, "3", out);
}

fn train(data: &Path, out: &Path, extra: &[&str]) -> Output {
    let args = [&["train", "--batch", "64", "--val", "0.5", "-q"][..], extra].concat();
    on_data(&args, data, Some(out))
}

/// Runs a UCI script through the binary; returns its output.
fn uci(script: &str) -> String {
    let mut child = command()
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn bestmove(out: &str) -> String {
    let line = out
        .lines()
        .rev()
        .find(|l| l.starts_with("bestmove"))
        .unwrap_or_else(|| panic!("no bestmove: {out}"));
    line.split_whitespace().nth(1).unwrap().to_owned()
}

fn legal(variant: Variant, moves: &[&str], action: &str) -> bool {
    let mut e = Engine::with_options(
        variant,
        EngineOptions {
            specials: false,
            ..EngineOptions::default()
        },
    );
    e.set_position(None, moves).unwrap();
    e.legal_actions().iter().any(|a| a.to_string() == action)
}

#[test]
fn trains_a_tiny_generated_file_into_a_net_that_plays() {
    let d = dir("e2e");
    let data = d.join("tiny.tdat");
    datagen("chess", "4", &data);
    let net = d.join("net.tnn");
    let run = train(&data, &net, &["--epochs", "2", "--threads", "2"]);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{run:?}");
    assert!(stdout.contains("training and"), "{stdout}");
    assert!(stdout.contains("K = "), "{stdout}");
    assert!(stdout.contains("epoch 2/2: train loss"), "{stdout}");
    assert!(stdout.contains("validation loss"), "{stdout}");
    assert!(stdout.contains("positions/s on 2 threads"), "{stdout}");
    assert!(
        stdout.contains("integer inference against the float pass on"),
        "{stdout}"
    );
    let loaded = tally::nnue::format::load(&net).unwrap();
    assert_eq!(loaded.board(), BoardKind::Standard);
    assert!(stdout.contains(&format!("wrote {}", loaded.describe())));
    assert!(d.join("net.tnn.ckpt").exists());

    // Threads change nothing.
    let net1 = d.join("net1.tnn");
    let again = train(&data, &net1, &["--epochs", "2", "--threads", "1"]);
    assert!(again.status.success(), "{again:?}");
    assert_eq!(std::fs::read(&net1).unwrap(), std::fs::read(&net).unwrap());

    // The net plays over UCI.
    let moves = ["e2e4", "e7e5"];
    let out = uci(&format!(
        "setoption name EvalFile value {}\nsetoption name EvalMode value nnue\nposition startpos moves {}\ngo depth 4\nquit\n",
        net.display(),
        moves.join(" ")
    ));
    assert!(
        out.contains(&format!("info string net {}", loaded.name())),
        "{out}"
    );
    assert!(!out.contains("error"), "{out}");
    assert!(legal(Variant::Chess, &moves, &bestmove(&out)), "{out}");

    // --init goes on from the net: at a negligible rate the run writes
    // the same net back; a net that cannot be read is one line.
    let init = d.join("init.tnn");
    let net_arg = net.to_str().unwrap();
    let run = train(
        &data,
        &init,
        &[
            "--epochs", "1", "--lr", "1e-12", "--wd", "0", "--init", net_arg,
        ],
    );
    assert!(run.status.success(), "{run:?}");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        stdout.contains(&format!("starting from {}", loaded.describe())),
        "{stdout}"
    );
    assert_eq!(std::fs::read(&init).unwrap(), std::fs::read(&net).unwrap());
    let missing = train(&data, &init, &["--init", "/nonexistent/tally.tnn"]);
    assert_eq!(missing.status.code(), Some(2), "{missing:?}");
    let err = String::from_utf8_lossy(&missing.stderr);
    assert!(err.contains("/nonexistent/tally.tnn"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");

    // Output buckets from the net: a run at a negligible rate starts
    // every bucket as the net's output layer, so it plays the same; the
    // engine loads it and names its buckets; a count beyond 8 is refused.
    let four = d.join("four.tnn");
    let run = train(
        &data,
        &four,
        &[
            "--epochs",
            "1",
            "--lr",
            "1e-12",
            "--wd",
            "0",
            "--init",
            net_arg,
            "--buckets",
            "4",
        ],
    );
    assert!(run.status.success(), "{run:?}");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(stdout.contains("4 output buckets"), "{stdout}");
    let bucketed = tally::nnue::format::load(&four).unwrap();
    assert_eq!((bucketed.buckets(), bucketed.head_count()), (4, 1));
    assert!(bucketed.heads().iter().all(|h| *h == loaded.heads()[0]));
    let out = uci(&format!(
        "setoption name EvalFile value {}
setoption name EvalMode value nnue
position startpos
go depth 3
quit
",
        four.display()
    ));
    assert!(
        out.contains(&format!("info string net {}", bucketed.name()))
            && out.contains("4 output buckets"),
        "{out}"
    );
    let bad = train(&data, &four, &["--buckets", "9"]);
    assert_eq!(bad.status.code(), Some(2), "{bad:?}");

    // bench and analyse take it.
    let bench = tally(&["bench", "2", "--net", net_arg]);
    assert!(bench.status.success(), "{bench:?}");
    assert!(String::from_utf8_lossy(&bench.stdout).contains(" nodes "));
    let analyse = tally(&["analyse", "--depth", "3", "--net", net_arg]);
    assert!(analyse.status.success(), "{analyse:?}");

    // A stylish margin head over the net's body.
    let sty = d.join("sty.tdat");
    datagen("stylish", "2", &sty);
    let with_head = d.join("sty.tnn");
    let run = on_data(
        &[
            "train", "--head", "-v", "stylish", "--val", "0.5", "-q", "--net", net_arg,
        ],
        &sty,
        Some(&with_head),
    );
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{run:?}");
    assert!(stdout.contains("training: mean squared error"), "{stdout}");
    assert!(stdout.contains("margin head (head 1)"), "{stdout}");
    let two = tally::nnue::format::load(&with_head).unwrap();
    assert_eq!(two.heads().len(), 2);
    assert_eq!(two.heads()[0], loaded.heads()[0]);
    // It plays stylish over UCI.
    let out = uci(&format!(
        "setoption name UCI_Variant value stylish\nsetoption name EvalFile value {}\nsetoption name EvalMode value nnue\nposition startpos\ngo depth 3\nquit\n",
        with_head.display()
    ));
    assert!(!out.contains("error"), "{out}");
    assert!(legal(Variant::Stylish, &[], &bestmove(&out)), "{out}");
    // Sets has no margin head; --head needs --net.
    for args in [
        vec![
            "train", "--head", "-v", "sets", "--net", "x", "--data", "x", "-o", "y",
        ],
        vec!["train", "--head", "-v", "stylish", "--data", "x", "-o", "y"],
    ] {
        let bad = tally(&args);
        assert_eq!(bad.status.code(), Some(2), "{args:?}");
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_resumed_run_writes_the_same_net() {
    let d = dir("resume");
    let data = d.join("tiny.tdat");
    datagen("chess", "2", &data);
    let step = ["--schedule", "step", "--step-epochs", "1", "--threads", "1"];
    let straight = d.join("straight.tnn");
    let run = train(&data, &straight, &[&["--epochs", "2"][..], &step].concat());
    assert!(run.status.success(), "{run:?}");
    let resumed = d.join("resumed.tnn");
    let first = train(&data, &resumed, &[&["--epochs", "1"][..], &step].concat());
    assert!(first.status.success(), "{first:?}");
    let second = train(
        &data,
        &resumed,
        &[&["--epochs", "2", "--resume"][..], &step].concat(),
    );
    let stdout = String::from_utf8_lossy(&second.stdout);
    assert!(second.status.success(), "{second:?}");
    assert!(stdout.contains("resuming from"), "{stdout}");
    assert!(!stdout.contains("epoch 1/2"), "{stdout}");
    assert!(stdout.contains("epoch 2/2"), "{stdout}");
    assert_eq!(
        std::fs::read(&resumed).unwrap(),
        std::fs::read(&straight).unwrap()
    );
    // A checkpoint of another run is refused.
    let other = train(
        &data,
        &resumed,
        &[&["--epochs", "3", "--resume", "--seed", "9"][..], &step].concat(),
    );
    refused(
        &other,
        "the checkpoint is of another run",
        "--resume --seed 9",
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn an_extinction_net_plays_extinction() {
    let d = dir("extinction");
    let data = d.join("ext.tdat");
    datagen("extinction", "2", &data);
    let net = d.join("ext.tnn");
    let run = train(&data, &net, &["-v", "extinction", "--epochs", "1"]);
    assert!(run.status.success(), "{run:?}");
    assert_eq!(
        tally::nnue::format::load(&net).unwrap().board(),
        BoardKind::Extinction
    );
    let out = uci(&format!(
        "setoption name UCI_Variant value extinction\nsetoption name EvalFile value {}\nsetoption name EvalMode value nnue\nposition startpos\ngo depth 3\nquit\n",
        net.display()
    ));
    assert!(
        !out.contains("error") && !out.contains("EvalMode nnue:"),
        "{out}"
    );
    assert!(legal(Variant::Extinction, &[], &bestmove(&out)), "{out}");
    // The net plays the data of its next generation (`datagen --net`); its
    // name joins the run's settings.
    let next = d.join("next.tdat");
    let run = command()
        .args(["datagen", "-v", "extinction", "--games", "1", "--nodes"])
        .args(["200", "--seed", "4", "--threads", "1", "--quiet", "--net"])
        .arg(&net)
        .arg("-o")
        .arg(&next)
        .output()
        .unwrap();
    assert!(run.status.success(), "{run:?}");
    let name = tally::nnue::format::load(&net).unwrap().name();
    let stats = tally(&["datagen", "stats", next.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&stats.stdout);
    assert!(text.contains(&format!("net={name}")), "{text}");
    // A net of another board: one line, exit code 2.
    for variant in ["chess", "stylish"] {
        let bad = command()
            .args(["datagen", "-v", variant, "--games", "1", "--net"])
            .arg(&net)
            .arg("-o")
            .arg(d.join("bad.tdat"))
            .output()
            .unwrap();
        refused(&bad, "--net", variant);
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn refuses_bad_options_in_one_line() {
    for args in [
        vec!["train", "-v", "wacky", "--data", "x", "-o", "y"],
        vec!["train", "--wdl", "2", "--data", "x", "-o", "y"],
        vec!["train", "--val", "0.9", "--data", "x", "-o", "y"],
        vec!["train", "--lr", "0", "--data", "x", "-o", "y"],
        vec!["train", "--lr", "2", "--data", "x", "-o", "y"],
        vec!["train", "--k", "1e39", "--data", "x", "-o", "y"],
        vec!["train", "--wd", "3", "--data", "x", "-o", "y"],
        vec!["train", "--epochs", "0", "--data", "x", "-o", "y"],
        vec!["tune", "--epochs", "0", "--data", "x", "-o", "y"],
        vec!["tune", "--lr", "1000", "--data", "x", "-o", "y"],
        vec!["train", "--data", "/nonexistent/tally.tdat", "-o", "y"],
        vec![
            "train",
            "--resume",
            "--data",
            "/nonexistent/tally.tdat",
            "-o",
            "/nonexistent/y",
        ],
    ] {
        let out = tally(&args);
        refused(&out, "", &format!("{args:?}"));
    }
    // --resume without a checkpoint.
    let d = dir("nockpt");
    let data = d.join("tiny.tdat");
    datagen("chess", "1", &data);
    let out = train(&data, &d.join("n.tnn"), &["--resume"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot read") && err.contains("n.tnn.ckpt"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn outputs_are_checked_before_the_data_is_read() {
    let d = dir("outputs");
    // The data does not exist: an output refused first proves the order.
    let data = d.join("absent.tdat");
    let cases: [(&[&str], Option<PathBuf>, &str); 4] = [
        (
            &["train", "--epochs", "1"],
            Some(d.clone()),
            "is a directory",
        ),
        (
            &["train", "--epochs", "1"],
            Some(PathBuf::from("/nonexistent/dir/n.tnn")),
            "/nonexistent/dir",
        ),
        (
            &[
                "train",
                "--epochs",
                "1",
                "--checkpoint",
                "/nonexistent/c.ckpt",
            ],
            Some(d.join("n.tnn")),
            "/nonexistent",
        ),
        (
            &[
                "train",
                "--epochs",
                "1",
                "--checkpoint",
                d.to_str().unwrap(),
            ],
            Some(d.join("n.tnn")),
            "is a directory",
        ),
    ];
    for (args, out, want) in cases {
        let run = on_data(args, &data, out.as_deref());
        let e = cli::stderr(&run);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {e}");
        assert!(
            e.contains(want) && !e.contains("absent.tdat"),
            "{args:?}: {e}"
        );
    }
    // Nothing is left behind by the check.
    assert!(!d.join("n.tnn").exists());
    let _ = std::fs::remove_dir_all(&d);
}

/// The outputs are not the inputs or each other, and a checkpoint is a
/// regular file: refused before anything is read or written.
#[test]
fn outputs_that_would_destroy_an_input_are_refused() {
    let d = dir("same");
    let data = d.join("d.tdat");
    std::fs::copy(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/chess.tdat"),
        &data,
    )
    .unwrap();
    let before = std::fs::read(&data).unwrap();
    let net = d.join("n.tnn");
    let data_arg = data.to_str().unwrap();
    let cases: [(&Path, &[&str], &str); 3] = [
        (&net, &["--checkpoint", data_arg], "--checkpoint"),
        (&data, &[], "-o"),
        (&net, &["--checkpoint", net.to_str().unwrap()], "one file"),
    ];
    for (out, extra, needle) in cases {
        let run = train(&data, out, extra);
        let e = cli::refused(&run, needle, &format!("{extra:?}"));
        assert!(e.contains("would"), "{e}");
    }
    assert_eq!(std::fs::read(&data).unwrap(), before);
    // The checkpoint is written beside itself first: that file is an
    // output too.
    let tmp_named = d.join("c.ckpt.tmp");
    std::fs::copy(&data, &tmp_named).unwrap();
    let ckpt = d.join("c.ckpt");
    let run = train(&tmp_named, &net, &["--checkpoint", ckpt.to_str().unwrap()]);
    cli::refused(&run, "temporary file", "the checkpoint's temporary file");
    assert_eq!(std::fs::read(&tmp_named).unwrap(), before);
    // A head's body net is an input.
    let body = d.join("body.tnn");
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(manifest.join("nets/chess.tnn"), &body).unwrap();
    let body_before = std::fs::read(&body).unwrap();
    let stylish = manifest.join("tests/data/stylish.tdat");
    let b = body.to_str().unwrap();
    let run = tally(&[
        "train",
        "--head",
        "-v",
        "stylish",
        "--net",
        b,
        "--data",
        stylish.to_str().unwrap(),
        "-o",
        b,
    ]);
    cli::refused(&run, "--net", "-o the head's body");
    assert_eq!(std::fs::read(&body).unwrap(), body_before);
    // tune's output is no input either.
    let run = tally(&["tune", "--data", data_arg, "-o", data_arg, "--epochs", "1"]);
    cli::refused(&run, "--data", "tune -o its data");
    assert_eq!(std::fs::read(&data).unwrap(), before);
    let fifo = d.join("ckpt.fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        let run = train(&data, &net, &["--checkpoint", fifo.to_str().unwrap()]);
        cli::refused(&run, "not a regular file", "a FIFO checkpoint");
    }
}
