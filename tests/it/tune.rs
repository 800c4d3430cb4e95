//! `tally tune` end to end: a tiny seeded `tally datagen` file, loaded,
//! fitted for an epoch and written as a generated source file; the same
//! for a scoring variant's evaluator weights; and a fit on the committed
//! sample of real extinction self-play (`tests/data/`).

use crate::common::cli;

use std::path::Path;

use cli::{datagen, on_data, refused, tally};

fn dir(name: &str) -> std::path::PathBuf {
    cli::scratch(&format!("tune-{name}"))
}

#[test]
fn tunes_a_tiny_generated_file() {
    let d = dir("e2e");
    let data = d.join("tiny.tdat");
    let out = d.join("tuned.rs");
    datagen("chess", "3", "3", &data);
    let fit = |threads: &str, out: &Path| {
        on_data(
            &[
                "tune",
                "--epochs",
                "2",
                "--batch",
                "32",
                "--threads",
                threads,
                "-q",
            ],
            &data,
            Some(out),
        )
    };
    let run = fit("2", &out);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{run:?}");
    assert!(stdout.contains("quiet positions of"), "{stdout}");
    assert!(stdout.contains("K = "), "{stdout}");
    assert!(stdout.contains("epoch 2: loss"), "{stdout}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("pub const TUNED: EvalParams = EvalParams {"));
    assert!(text.contains("--epochs 2 --batch 32"));
    // The same run gives the same file, whatever the threads.
    let out1 = d.join("tuned1.rs");
    assert!(fit("1", &out1).status.success());
    assert_eq!(std::fs::read_to_string(&out1).unwrap(), text);
    // Every second game held out: a validation loss per epoch, and the
    // weights of the best epoch are the ones written.
    let held = on_data(
        &[
            "tune",
            "--epochs",
            "3",
            "--batch",
            "32",
            "--holdout",
            "2",
            "--l2",
            "1e-6",
            "-q",
        ],
        &data,
        Some(&d.join("held.rs")),
    );
    let stdout = String::from_utf8_lossy(&held.stdout);
    assert!(held.status.success(), "{held:?}");
    assert!(stdout.contains("of them held out"), "{stdout}");
    assert!(stdout.contains("epoch 3: loss"), "{stdout}");
    assert!(stdout.contains(", validation "), "{stdout}");
    assert!(stdout.contains("kept epoch "), "{stdout}");
    let text = std::fs::read_to_string(d.join("held.rs")).unwrap();
    assert!(text.contains("--holdout 2 --l2 0.000001"), "{text}");
    // The win/draw/loss model: both log-losses, the curves, a file that
    // builds on `Curve`; fitted on chess games only.
    let wdl = on_data(&["tune", "--wdl"], &data, Some(&d.join("wdl.rs")));
    let stdout = String::from_utf8_lossy(&wdl.stdout);
    assert!(wdl.status.success(), "{wdl:?}");
    assert!(stdout.contains("hand-set: log-loss"), "{stdout}");
    assert!(stdout.contains("bare board:    centre"), "{stdout}");
    let text = std::fs::read_to_string(d.join("wdl.rs")).unwrap();
    assert!(text.contains("pub const MG: Curve = Curve {"), "{text}");
    let ext = on_data(&["tune", "--wdl", "-v", "extinction"], &data, None);
    assert_eq!(ext.status.code(), Some(2));
    // Extinction games are skipped when tuning chess; no quiet position is
    // an error.
    let bad = on_data(&["tune", "-v", "extinction"], &data, Some(&d.join("x.rs")));
    refused(&bad, "no quiet extinction position", "tune -v extinction");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn refuses_bad_options_in_one_line() {
    for args in [
        vec!["tune", "-v", "wacky", "--data", "x"],
        vec!["tune", "--lambda", "2", "--data", "x"],
        vec!["tune", "--l2=-1", "--data", "x"],
        vec!["tune", "--data", "/nonexistent/tally.tdat"],
        vec!["tune", "--holdout", "1", "--data", "x"],
    ] {
        let out = tally(&args);
        refused(&out, "", &format!("{args:?}"));
    }
}

#[test]
fn fits_a_scoring_variants_evaluator() {
    let d = dir("points");
    let data = d.join("sets.tdat");
    datagen("sets", "4", "5", &data);
    let fit = |threads: &str, out: &Path| {
        on_data(
            &[
                "tune",
                "-v",
                "sets",
                "--holdout",
                "2",
                "-q",
                "--threads",
                threads,
            ],
            &data,
            Some(out),
        )
    };
    let out = d.join("sets.rs");
    let run = fit("2", &out);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{run:?}");
    assert!(stdout.contains("of them held out"), "{stdout}");
    assert!(stdout.contains("hand-set: loss "), "{stdout}");
    assert!(stdout.contains("fitted:   loss "), "{stdout}");
    assert!(stdout.contains("perpetual_per_check"), "{stdout}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.contains("pub const TUNED: VariantWeights = VariantWeights {"),
        "{text}"
    );
    assert!(text.contains("    wdl_mg_centre: "), "{text}");
    assert!(text.contains("..VariantWeights::UNTUNED"), "{text}");
    // Sets reads no stylish weight, so its file sets none.
    assert!(!text.contains("sty_"), "{text}");
    // The same data gives the same file, whatever the threads.
    let out1 = d.join("sets1.rs");
    assert!(fit("1", &out1).status.success());
    assert_eq!(std::fs::read_to_string(&out1).unwrap(), text);
    // --keep leaves the weights it names at their hand-set values, says so
    // in the file, and refuses a name the evaluator does not read.
    let kept = d.join("kept.rs");
    let run = on_data(
        &[
            "tune",
            "-v",
            "sets",
            "--holdout",
            "2",
            "-q",
            "--keep",
            "wdl_mg_centre,wdl_mg_width",
            "--keep",
            "move_rule_drift",
        ],
        &data,
        Some(&kept),
    );
    assert!(run.status.success(), "{run:?}");
    let text = std::fs::read_to_string(&kept).unwrap();
    for line in [
        "    wdl_mg_centre: 230.0,",
        "    wdl_mg_width: 85.0,",
        "    move_rule_drift: 20,",
    ] {
        assert!(text.contains(line), "{line}: {text}");
    }
    assert!(
        text.contains("--keep wdl_mg_centre,wdl_mg_width,move_rule_drift"),
        "{text}"
    );
    let bad = on_data(
        &["tune", "-v", "sets", "--keep", "sty_capture_ours"],
        &data,
        None,
    );
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("not a weight of the sets evaluator"), "{err}");
    // No stylish game in a file of sets games: one line, exit code 2.
    let none = on_data(&["tune", "-v", "stylish"], &data, Some(&d.join("x.rs")));
    refused(&none, "no quiet stylish position", "tune -v stylish");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn fits_the_committed_extinction_sample() {
    let d = dir("sample");
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/extinction.tdat");
    let out = d.join("extinction.rs");
    let run = on_data(
        &[
            "tune",
            "-v",
            "extinction",
            "--epochs",
            "3",
            "--batch",
            "64",
            "--holdout",
            "4",
            "-q",
        ],
        &data,
        Some(&out),
    );
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{run:?}");
    assert!(
        stdout.contains("quiet positions of 1935 in extinction games read"),
        "{stdout}"
    );
    // The loss on the training games falls from the hand-set weights'.
    let loss = |epoch: u32| -> f64 {
        let key = format!("epoch {epoch}: loss ");
        let at = stdout.find(&key).unwrap_or_else(|| panic!("{stdout}")) + key.len();
        stdout[at..]
            .split([',', ' ', '\n'])
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    assert!(loss(3) < loss(0), "{stdout}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("quiet extinction positions of"), "{text}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn the_output_is_checked_before_the_data_is_read() {
    let d = cli::scratch("tune-outputs");
    let data = d.join("absent.tdat");
    for (args, out, want) in [
        (
            &["tune"][..],
            Path::new("/nonexistent/t.rs"),
            "/nonexistent",
        ),
        (&["tune"][..], d.as_path(), "is a directory"),
        (
            &["tune", "--wdl"][..],
            Path::new("/nonexistent/w.rs"),
            "/nonexistent",
        ),
        (
            &["tune", "-v", "wacky"][..],
            Path::new("/nonexistent/w.rs"),
            "/nonexistent",
        ),
    ] {
        let run = on_data(args, &data, Some(out));
        let e = cli::stderr(&run);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {e}");
        assert!(
            e.contains(want) && !e.contains("absent.tdat"),
            "{args:?}: {e}"
        );
    }
    let _ = std::fs::remove_dir_all(&d);
}
