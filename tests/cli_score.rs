//! `tally score` end to end: the binary on PGN fixtures (positions/score/)
//! and on `--moves`, its output, its errors and its exit codes.

use std::path::PathBuf;
use std::process::{Command, Output};

fn tally(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tally"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run tally")
}

fn fixture(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("positions/score")
        .join(name)
        .display()
        .to_string()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn json_lines(o: &Output) -> Vec<serde_json::Value> {
    stdout(o)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect()
}

#[test]
fn spec_example_json() {
    let o = tally(&[
        "score",
        "--variant",
        "stylish",
        "--fen",
        "4K3/R4Pk1/5p2/3B4/8/8/8/7R w - - 0 1",
        "--moves",
        "f7f8n",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = &json_lines(&o)[0];
    assert_eq!(v["variant"], "stylish");
    assert_eq!(v["total"]["white"], 230);
    assert_eq!(v["total"]["black"], 0);
    assert_eq!(v["ending"]["kind"], "checkmate");
    assert_eq!(v["ending"]["winner"], "white");
    assert_eq!(v["plies"][0]["action"], "f7f8n");
    assert_eq!(v["plies"][0]["white"], 230);
    assert_eq!(
        v["plies"][0]["events"],
        serde_json::json!(["mate", "discovered", "coverage"])
    );
    assert_eq!(v["outcome"]["white"], 0);
}

#[test]
fn table_output() {
    let o = tally(&["score", "-v", "wacky", "--moves", "e2e4 e7e5"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    // Two double steps, 9 x 10 x 2 = 180 each.
    assert!(out.contains("e2e4"), "{out}");
    assert!(out.contains("total:   white 180, black 180"), "{out}");
}

#[test]
fn halves_are_json_numbers() {
    // Sets, a plain draw by repetition made by Black: 1/2 to White.
    let o = tally(&[
        "score",
        "-v",
        "sets",
        "--json",
        "--moves",
        "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8",
    ]);
    let v = &json_lines(&o)[0];
    assert_eq!(v["total"]["white"], 0.5);
    assert_eq!(v["ending"]["kind"], "repetition");
    assert_eq!(v["ending"]["winner"], serde_json::Value::Null);
}

#[test]
fn draw_advantage_settings() {
    // K+N v K after Nxb5, the claim passed: a plain draw.
    let run = |side: &str| {
        let o = tally(&[
            "score",
            "-v",
            "sets",
            "--json",
            "--draw-advantage",
            side,
            "--fen",
            "4k3/8/8/1p6/8/2N5/8/4K3 w - - 0 1",
            "--moves",
            "c3b5 e8e7 e1e2",
        ]);
        let v = json_lines(&o)[0].clone();
        (v["total"]["white"].clone(), v["total"]["black"].clone())
    };
    assert_eq!(run("black"), (0.into(), 0.5.into()));
    assert_eq!(run("white"), (0.5.into(), 0.into()));
    assert_eq!(run("none"), (0.into(), 0.into()));
    let o = tally(&["score", "--draw-advantage", "grey", "--moves", "e2e4"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn broken_game_in_the_middle() {
    let o = tally(&["score", "--json", &fixture("broken.pgn")]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("game 2, ply 3 (2. Ke3): illegal move 'Ke3'"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    let games = json_lines(&o);
    assert_eq!(games.len(), 2);
    assert_eq!(games[0]["game"], 1);
    assert_eq!(games[0]["total"]["black"], 1);
    assert_eq!(games[1]["game"], 3);
    // 1-0 on an unfinished game: Black resigned.
    assert_eq!(games[1]["ending"]["kind"], "resignation");
    assert_eq!(games[1]["ending"]["winner"], "white");
}

#[test]
fn malformed_games_are_named_and_the_rest_scored() {
    let o = tally(&["score", "--summary", &fixture("malformed.pgn")]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    for line in [
        "game 1, ply 3: cannot read 'Nf9' as a move",
        "game 2, ply 2: special action 'disk' must be written as a comment: {[%action disk]}",
        "game 3: unknown variant 'Atomic' in the Variant tag",
        "game 4, ply 2 (1... --): null moves",
        "game 6: malformed PGN: unterminated comment",
    ] {
        assert!(err.contains(line), "missing '{line}' in:\n{err}");
    }
    assert!(stdout(&o).contains("game 5: chess"), "{}", stdout(&o));
    // With --variant the Atomic tag is overridden and game 3 is scored.
    let o = tally(&[
        "score",
        "--summary",
        "-v",
        "chess",
        &fixture("malformed.pgn"),
    ]);
    assert!(stdout(&o).contains("game 3: chess"));
}

#[test]
fn pgn_special_actions_tags_and_variant() {
    let o = tally(&["score", "--json", &fixture("tiebraker.pgn")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let games = json_lines(&o);
    // Disk accepted, the disk player mates: 90-10.
    assert_eq!(games[0]["variant"], "tiebraker");
    assert_eq!(games[0]["plies"][0]["action"], "disk");
    assert_eq!(
        (
            games[0]["total"]["white"].clone(),
            games[0]["total"]["black"].clone()
        ),
        (90.into(), 10.into())
    );
    // Disk restored, the restorer mates: 80-20.
    assert_eq!(games[1]["plies"][1]["action"], "restore");
    assert_eq!(
        (
            games[1]["total"]["white"].clone(),
            games[1]["total"]["black"].clone()
        ),
        (80.into(), 20.into())
    );
}

#[test]
fn pgn_clock_gives_time_bonus() {
    let o = tally(&["score", "--json", &fixture("wacky_clock.pgn")]);
    let v = &json_lines(&o)[0];
    // Life 430000 + moves 480000 + time (0:10:05 = 50000 + 5 x 50) 50250.
    assert_eq!(v["outcome"]["black"], 960_250);
    assert_eq!(
        v["outcome"]["events"],
        serde_json::json!(["life", "moves", "time"])
    );
    // Scored as chess (overriding the tag), the same game is 0-1.
    let o = tally(&[
        "score",
        "--json",
        "-v",
        "chess",
        &fixture("wacky_clock.pgn"),
    ]);
    assert_eq!(json_lines(&o)[0]["total"]["black"], 1);
}

#[test]
fn bad_arguments_exit_2_with_one_line() {
    let cases: [(&[&str], &str); 6] = [
        (
            &["score", "-v", "atomic", "--moves", "e2e4"],
            "unknown variant 'atomic'",
        ),
        (&["score", "--moves", "e2e4 e2e4"], "ply 2"),
        (
            &["score", "--moves", "claim"],
            "'claim' does not exist in chess",
        ),
        (
            &["score", "-v", "tiebraker", "--moves", "e2e4 swap"],
            "'swap' is not allowed",
        ),
        (
            &["score", "--fen", "not a fen", "--moves", ""],
            "invalid FEN",
        ),
        (&["score", "no/such/file.pgn"], "cannot open"),
    ];
    for (args, needle) in cases {
        let o = tally(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn rules_file_overrides_and_errors() {
    let dir = std::env::temp_dir().join(format!("tally-rules-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.toml");
    std::fs::write(&good, "[stylish.mate]\nrook = [90, 120]\n").unwrap();
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "[stylish]\ncoverge = 80\n").unwrap();
    let args = |rules: &str| {
        vec![
            "score".to_owned(),
            "-v".into(),
            "stylish".into(),
            "--json".into(),
            "--rules".into(),
            rules.to_owned(),
            "--fen".into(),
            "4K3/R4Pk1/5p2/3B4/8/8/8/7R w - - 0 1".into(),
            "--moves".into(),
            "f7f8n".into(),
        ]
    };
    // Rook not adjacent now 120: 120 + 50 + 70 = 240.
    let good_args = args(&good.display().to_string());
    let o = tally(&good_args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(json_lines(&o)[0]["total"]["white"], 240);
    let bad_args = args(&bad.display().to_string());
    let o = tally(&bad_args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    // The key is named by its place, never quoted (a rules file may be
    // any file).
    assert!(
        err.contains("bad.toml: line 2, column 1: unknown key") && !err.contains("coverge"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn empty_and_garbage_never_panic() {
    let o = tally(&["score", &fixture("empty.pgn")]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stderr(&o).contains("no games found"));
    let o = tally(&["score", "--json", &fixture("garbage.pgn")]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(!stderr(&o).contains("panicked"));
    let o = tally(&["score"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn actions_after_the_end_are_not_scored() {
    // Fool's mate, then one more move: the game ended at ply 4.
    let o = tally(&["score", "--json", "--moves", "f2f3 e7e5 g2g4 d8h4 e1f2"]);
    assert_eq!(o.status.code(), Some(0));
    let v = &json_lines(&o)[0];
    assert_eq!(v["plies"].as_array().map(Vec::len), Some(4));
    assert_eq!(v["ignored_plies"], 1);
    assert!(stderr(&o).contains("not scored"));
}
