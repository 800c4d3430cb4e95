//! The names of the command line's shared options: every command that
//! writes a file takes `--output` (`-o`, with `--out` as an alias); `tune
//! --fit-wdl` (alias `--wdl`) is a switch distinct from `train --wdl`'s
//! weight; `tune`'s default output, a file of the checkout, is refused
//! with a hint where there is none; and `analyse` warns when a game with
//! no `Variant` tag is analysed as chess only because `-v` is missing.

#[path = "common/cli.rs"]
mod cli;

use std::path::Path;

use cli::{command, scratch, stderr, tally};

fn data(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
        .display()
        .to_string()
}

fn game(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("positions/analyse")
        .join(name)
        .display()
        .to_string()
}

/// Runs `tally args` and checks that it succeeds.
fn ok(args: &[&str]) -> String {
    let run = tally(args);
    assert_eq!(run.status.code(), Some(0), "{args:?}: {}", stderr(&run));
    cli::stdout(&run)
}

/// Refused before any work, by the output check that names `FILE` (so the
/// option was read as the output, not refused by the parser).
fn output_refused(args: &[&str], file: &str) {
    let run = tally(args);
    let e = stderr(&run);
    assert_eq!(run.status.code(), Some(2), "{args:?}: {e}");
    assert!(
        e.contains(file) && !e.contains("unexpected argument"),
        "{args:?}: {e}"
    );
}

#[test]
fn output_and_its_alias_out_name_the_written_file_everywhere() {
    let d = scratch("option-names-output");
    for flag in ["--output", "--out", "-o"] {
        let name = flag.trim_start_matches('-');
        // Written files: the text of a data file, an annotated game, a
        // merged results file.
        let text = d.join(format!("{name}.txt"));
        ok(&[
            "datagen",
            "text",
            &data("sets.tdat"),
            flag,
            text.to_str().unwrap(),
        ]);
        let lines = std::fs::read_to_string(&text).unwrap();
        assert!(lines.lines().count() > 10, "{flag}: {lines}");
        let pgn = d.join(format!("{name}.pgn"));
        ok(&[
            "analyse",
            "--pgn",
            &game("tiebraker.pgn"),
            "--depth",
            "1",
            "--threads",
            "1",
            "--quiet",
            flag,
            pgn.to_str().unwrap(),
        ]);
        assert!(std::fs::read_to_string(&pgn).unwrap().contains("[%eval"));
        let results = d.join(format!("{name}-results.json"));
        ok(&[
            "match",
            "-v",
            "sets",
            "-p",
            "name=a hash=8",
            "-p",
            "name=b hash=8 eval=base",
            "--depth",
            "1",
            "--games",
            "2",
            "--quiet",
            "--results",
            results.to_str().unwrap(),
        ]);
        let merged = d.join(format!("{name}-merged.json"));
        ok(&[
            "match",
            "merge",
            results.to_str().unwrap(),
            flag,
            merged.to_str().unwrap(),
        ]);
        assert!(merged.is_file(), "{flag}");
        // Refused at the output check, before any game or data is read.
        for args in [
            &["datagen", "--games", "1"][..],
            &["tune", "--data", "/nonexistent/a.tdat"][..],
            &["tune", "--fit-wdl", "--data", "/nonexistent/a.tdat"][..],
            &["train", "--data", "/nonexistent/a.tdat"][..],
        ] {
            let file = format!("/nonexistent/{name}.out");
            output_refused(&[args, &[flag, &file]].concat(), &file);
        }
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn tune_fit_wdl_is_a_switch_and_wdl_its_alias() {
    let help = ok(&["tune", "--help"]);
    assert!(help.contains("--fit-wdl"), "{help}");
    assert!(help.contains("-o, --output <FILE>"), "{help}");
    let train = ok(&["train", "--help"]);
    assert!(train.contains("-o, --output <FILE>"), "{train}");
    // `--wdl` still reads as the switch (it takes no value) ...
    let file = "/nonexistent/w.rs";
    output_refused(
        &["tune", "--wdl", "--data", "/nonexistent/a.tdat", "-o", file],
        file,
    );
    // ... while train's --wdl is a number.
    let run = tally(&["train", "--wdl", "x", "--data", "a", "-o", "b"]);
    assert_eq!(run.status.code(), Some(2));
    assert!(stderr(&run).contains("--wdl"), "{}", stderr(&run));
}

#[test]
fn tune_default_output_outside_a_checkout_says_where_to_run() {
    let d = scratch("option-names-tune");
    for extra in [&[][..], &["--fit-wdl"][..], &["-v", "stylish"][..]] {
        let run = command()
            .current_dir(&d)
            .arg("tune")
            .args(extra)
            .args(["--data", &data("chess.tdat")])
            .output()
            .unwrap();
        let e = stderr(&run);
        assert_eq!(run.status.code(), Some(2), "{extra:?}: {e}");
        assert!(
            e.contains("no src/eval/tuned here")
                && e.contains("root of a Tally checkout")
                && e.contains("-o FILE"),
            "{extra:?}: {e}"
        );
        assert!(!d.join("src").exists());
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_game_without_variant_tag_or_option_is_analysed_as_chess_with_a_warning() {
    let run = |pgn: &str, extra: &[&str]| {
        let mut args = vec![
            "analyse",
            "--pgn",
            pgn,
            "--ply",
            "2",
            "--depth",
            "1",
            "--threads",
            "1",
            "--quiet",
        ];
        args.extend_from_slice(extra);
        let run = tally(&args);
        assert_eq!(run.status.code(), Some(0), "{args:?}: {}", stderr(&run));
        stderr(&run)
    };
    // positions/analyse/chess.pgn has no Variant tag.
    let untagged = game("chess.pgn");
    let e = run(&untagged, &[]);
    assert!(
        e.contains(
            "warning: the game has no Variant tag and no -v was given: it is analysed as chess"
        ) && e.contains("-v stylish"),
        "{e}"
    );
    for (pgn, extra) in [
        (untagged.as_str(), &["-v", "stylish"][..]),
        (untagged.as_str(), &["-v", "chess"][..]),
        (&game("tiebraker.pgn"), &[][..]),
    ] {
        let e = run(pgn, extra);
        assert!(!e.contains("warning"), "{pgn} {extra:?}: {e}");
    }
    // A position, not a game: nothing to warn of.
    let e = stderr(&tally(&["analyse", "--depth", "1", "--threads", "1"]));
    assert!(!e.contains("warning"), "{e}");
}
