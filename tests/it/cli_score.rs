//! `tally score` end to end: the binary on PGN fixtures (positions/score/)
//! and on `--moves`, its output, its errors and its exit codes.

use std::path::PathBuf;
use std::process::{Command, Output};

use crate::common::cli;
use cli::{stderr, stdout, tally};

fn fixture(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("positions/score")
        .join(name)
        .display()
        .to_string()
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
fn a_uci_move_in_a_pgn_is_named_as_one() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let f = dir.join(format!("uci-moves-{}.pgn", std::process::id()));
    std::fs::write(&f, "1. e2e4 e7e5 2. g1f3 *\n").unwrap();
    let o = tally(&["score", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains(
            "illegal move 'g1f3' (a legal move in UCI notation; a PGN's moves are in SAN)"
        ),
        "{err}"
    );
    let _ = std::fs::remove_file(&f);
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
    let save_file = std::env::temp_dir().join(format!("tally-save-file-{}", std::process::id()));
    std::fs::write(&save_file, "not a directory").unwrap();
    let save_file_text = save_file.display().to_string();
    let games = fixture("wacky_clock.pgn");
    let cases: [(&[&str], &str); 13] = [
        (
            &["analyse", "--hash", "99999999", "--depth", "1"],
            "--hash 99999999 is out of range (1 to 16384 MiB)",
        ),
        (
            &[
                "match",
                "-p",
                "name=a hash=99999",
                "-p",
                "name=b",
                "--nodes",
                "100",
            ],
            "hash must be 1 to 16384",
        ),
        (
            &["score", "--threads", "100000", &games],
            "--threads 100000 is out of range (1 to 256)",
        ),
        (
            &["analyse", "--threads", "0", "--depth", "1"],
            "--threads 0 is out of range",
        ),
        (
            &["analyse", "--nodes", "0"],
            "--nodes and --movetime must be at least 1",
        ),
        (
            &[
                "datagen",
                "--threads",
                "999999",
                "--games",
                "1",
                "-o",
                "/dev/null",
            ],
            "--threads 999999 is out of range",
        ),
        (
            &["serve", "--port", "0", "--save", &save_file_text],
            "cannot use it as a directory",
        ),
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
    let _ = std::fs::remove_file(&save_file);
}

#[test]
fn rules_file_overrides_and_errors() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("tally-rules-{}", std::process::id()));
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

/// Runs `tally` with `input` on its standard input.
fn tally_stdin(args: &[&str], input: &[u8]) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_tally"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run tally");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    // Written from a thread: tally may answer before reading it all.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("tally output");
    let _ = writer.join();
    out
}

/// A game longer than 1 MiB (one endless line here) is reported by its
/// number without its text, and the games after it are scored.
#[test]
fn an_endless_game_is_skipped_by_number() {
    let game = b"[White \"a\"]\n\n1. e4 e5 *\n\n";
    let mut pgn = game.to_vec();
    pgn.extend_from_slice(b"[White \"b\"]\n\n1. e4 ");
    pgn.extend(std::iter::repeat_n(b'x', 3 << 20));
    pgn.extend_from_slice(b"\n\n");
    pgn.extend_from_slice(game);
    // A last game of NUL bytes alone, with no newline at all.
    pgn.extend(std::iter::repeat_n(0u8, 2 << 20));
    let o = tally_stdin(&["score", "--summary", "-"], &pgn);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "game 2: 3145749 bytes, more than the 1 MiB a game may take (not read)\n\
         game 4: 2097152 bytes, more than the 1 MiB a game may take (not read)\n"
    );
    let out = stdout(&o);
    assert!(out.contains("game 1: chess a - ?"), "{out}");
    assert!(out.contains("game 3: chess a - ?"), "{out}");
    assert!(out.ends_with("4 games: 2 scored, 2 failed\n"), "{out}");
    // The same as a file.
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("endless-game.pgn");
    std::fs::write(&path, &pgn).expect("write");
    let o = tally(&["score", "--summary", &path.display().to_string()]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stderr(&o).lines().count(), 2, "{}", stderr(&o));
    assert!(stdout(&o).ends_with("4 games: 2 scored, 2 failed\n"));
    let _ = std::fs::remove_file(&path);
}

/// A directory or a device is refused before anything is read (`/dev/zero`
/// used to grow until allocation failed).
#[test]
fn directories_and_devices_are_refused() {
    let mut cases = vec![(fixture(""), "it is a directory")];
    if cfg!(unix) {
        cases.push(("/dev/zero".to_owned(), "not a regular file or a pipe"));
    }
    for (path, why) in cases {
        let o = tally(&["score", &path]);
        assert_eq!(o.status.code(), Some(2), "{path}");
        assert_eq!(stderr(&o), format!("error: cannot open {path}: {why}\n"));
        assert!(o.stdout.is_empty());
    }
}

/// Games are numbered as python-chess numbers them: game 3 has tags and
/// no movetext (two blank lines end it) and is scored as an empty game, so
/// the broken game is named game 5 (it used to be game 4: game 3's tags
/// ran into game 4's).
#[test]
fn a_game_of_tags_alone_keeps_its_number() {
    let o = tally(&["score", "--json", &fixture("numbering.pgn")]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stderr(&o), "game 5, ply 3 (2. Ke3): illegal move 'Ke3'\n");
    let games = json_lines(&o);
    let numbers: Vec<_> = games.iter().map(|g| g["game"].clone()).collect();
    assert_eq!(numbers, [1, 2, 3, 4, 6]);
    // Game 3: no moves, its Result tag 0-1 is White's resignation.
    assert_eq!(games[2]["plies"], serde_json::json!([]));
    assert_eq!(games[2]["ending"]["kind"], "resignation");
    assert_eq!(games[2]["total"]["black"], 1);
    assert_eq!(games[3]["plies"][0]["action"], "c2c4");
    let o = tally(&["score", "--summary", &fixture("numbering.pgn")]);
    let out = stdout(&o);
    assert!(out.contains("game 3: chess w3 - ? 0 plies"), "{out}");
    assert!(out.contains("game 4: chess w4 - ? 1 plies"), "{out}");
    assert!(out.ends_with("6 games: 5 scored, 1 failed\n"), "{out}");
}

/// Whether `bytes` hold a control character other than tab and newline
/// (C0, DEL, or C1 encoded in UTF-8).
fn has_control(bytes: &[u8]) -> bool {
    bytes
        .iter()
        .any(|&b| (b < 0x20 && b != b'\t' && b != b'\n') || b == 0x7f)
        || bytes
            .windows(2)
            .any(|w| w[0] == 0xc2 && (0x80..0xa0).contains(&w[1]))
}

/// Tags and tokens holding terminal escapes (ESC, BEL, NUL, DEL, C1) are
/// printed escaped, by the summary, the table, the error lines, a file
/// name prefix and the annotated PGN of `tally analyse`; JSON has no raw
/// control either.
#[test]
fn terminal_escapes_never_pass_through() {
    let esc = fixture("escapes.pgn");
    let named = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("e\x1b[31msc.pgn");
    std::fs::copy(&esc, &named).expect("copy");
    let named = named.display().to_string();
    for args in [
        vec!["score", "--summary", &esc],
        vec!["score", &esc],
        vec!["score", "--json", &esc],
        vec!["score", "--summary", &esc, &named],
        vec!["score", "--moves", "e2e4 e7\x1b[31m\u{9b}"],
        vec![
            "analyse", "--pgn", &esc, "--game", "1", "--depth", "1", "-q",
        ],
        vec!["analyse", "--pgn", &esc, "--game", "2", "--depth", "1"],
    ] {
        let o = tally(&args);
        assert!(o.status.code().is_some_and(|c| c <= 2), "{args:?}");
        assert!(!has_control(&o.stdout), "{args:?}: {}", stdout(&o));
        assert!(!has_control(&o.stderr), "{args:?}: {}", stderr(&o));
    }
    let o = tally(&["score", "--summary", &esc]);
    assert!(
        stdout(&o).starts_with(
            "game 1: chess \\x1b]0;pwned\\x07\\x1b[31m - b\\u{9b}31m\\x7f 7 plies, checkmate"
        ),
        "{}",
        stdout(&o)
    );
    assert_eq!(
        stderr(&o),
        "game 2, ply 2: cannot read 'Nf3\\x1b[2J\\x00': not PGN text\n\
         game 3, ply 2: unknown special action 'd\\x1b[5misk' (expected disk, swap, restore or claim)\n"
    );
    let _ = std::fs::remove_file(&named);
}

/// With no file, or with `-`, the games come from standard input.
#[test]
fn standard_input_is_read_without_a_file() {
    let pgn = std::fs::read(fixture("broken.pgn")).expect("fixture");
    let file = tally(&["score", "--summary", &fixture("broken.pgn")]);
    for args in [
        &["score", "--summary"][..],
        &["score", "--summary", "-"][..],
    ] {
        let o = tally_stdin(args, &pgn);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert_eq!(stdout(&o), stdout(&file), "{args:?}");
        assert_eq!(stderr(&o), stderr(&file), "{args:?}");
    }
    assert!(stdout(&file).ends_with("3 games: 2 scored, 1 failed\n"));
    let o = tally_stdin(&["score"], b"");
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stderr(&o), "no games found\n");
}

/// `Termination "time forfeit"` (cutechess's spelling, and lichess's
/// `Time forfeit`) on a decisive result is named a loss on time, scored as
/// the specification scores a resignation or a loss on time; another
/// termination stays a resignation.
#[test]
fn time_forfeit_is_named_and_scored_as_a_resignation() {
    // (variant, [(white, black)] for games 1 to 3), by hand: game 1 is
    // 1. e4 e5 2. Nf3 Nc6 and White lost on time; games 2 and 3 are
    // 1. d4 d5 and Black lost on time, or resigned.
    let cases: [(&str, [(i64, i64); 3]); 6] = [
        // 1 / 1/2 / 0.
        ("chess", [(0, 1), (1, 0), (1, 0)]),
        // A lost game, the points of the moves alone (none here).
        ("stylish", [(0, 0), (0, 0), (0, 0)]),
        // As a mate by the opponent before any disk: dynamic's 100-0.
        ("tiebraker", [(0, 100), (100, 0), (100, 0)]),
        // Resignation: 2 to the opponent.
        ("sets", [(0, 2), (2, 0), (2, 0)]),
        // 100-0, as a mate by the opponent.
        ("dynamic", [(0, 100), (100, 0), (100, 0)]),
        // No end bonus: the moves alone, A x 10 x squares: pawn double
        // steps 9 x 10 x 2 = 180, knight moves 3 x 10 x 3 = 90.
        ("wacky", [(270, 270), (180, 180), (180, 180)]),
    ];
    for (variant, points) in cases {
        let o = tally(&[
            "score",
            "--json",
            "-v",
            variant,
            &fixture("time_forfeit.pgn"),
        ]);
        assert_eq!(o.status.code(), Some(0), "{variant}: {}", stderr(&o));
        let games = json_lines(&o);
        assert_eq!(games.len(), 3, "{variant}");
        for (g, (white, black)) in games.iter().zip(points) {
            let at = format!("{variant} game {}", g["game"]);
            assert_eq!(g["total"]["white"], white, "{at}");
            assert_eq!(g["total"]["black"], black, "{at}");
        }
        let kinds: Vec<_> = games.iter().map(|g| g["ending"].clone()).collect();
        assert_eq!(
            kinds,
            [
                serde_json::json!({"kind": "time_forfeit", "winner": "black"}),
                serde_json::json!({"kind": "time_forfeit", "winner": "white"}),
                serde_json::json!({"kind": "resignation", "winner": "white"}),
            ],
            "{variant}"
        );
        // The outcome's award is named for what ended the game.
        let events: Vec<_> = games
            .iter()
            .map(|g| g["outcome"]["events"].clone())
            .collect();
        assert_eq!(
            events,
            [
                serde_json::json!(["time_forfeit"]),
                serde_json::json!(["time_forfeit"]),
                serde_json::json!(["resignation"]),
            ],
            "{variant}"
        );
    }
    let o = tally(&["score", "-v", "sets", &fixture("time_forfeit.pgn")]);
    let out = stdout(&o);
    assert!(
        out.contains("ending:  time forfeit, White lost on time\n"),
        "{out}"
    );
    assert!(
        out.contains("ending:  time forfeit, Black lost on time\n"),
        "{out}"
    );
    assert!(out.contains("ending:  Black resigned\n"), "{out}");
    let o = tally(&["score", "--summary", &fixture("time_forfeit.pgn")]);
    assert!(
        stdout(&o).starts_with("game 1: chess a - b 4 plies, time_forfeit: white 0, black 1\n"),
        "{}",
        stdout(&o)
    );
}

/// `[wacky]` with every attacking and defending power 1,000 and `extra`.
fn powers_of_1000(extra: &str) -> String {
    let roles = ["pawn", "knight", "bishop", "rook", "queen", "king"];
    let mut text = format!("[wacky]\n{extra}\n");
    for side in ["attack", "defence"] {
        text += &format!("[wacky.{side}]\n");
        for r in roles {
            text += &format!("{r} = 1000\n");
        }
    }
    text
}

#[test]
fn totals_never_saturate_in_silence() {
    let dir = cli::scratch("saturated-totals");
    let game = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("positions/analyse/chess.pgn");
    let game = game.to_str().unwrap();
    // Every value 10^9: a fall bonus alone is beyond any total, refused
    // on loading with the keys of the product.
    let all = "per_square = 1e9\ncapture = 1e9\nen_passant = 1e9\nfall = 1e9\n\
               fall_step = 1e9\ncastling = 1e9\ncheck = 1e9\nmate = 1e9\n";
    let rules = dir.join("all.toml");
    std::fs::write(&rules, powers_of_1000(all)).unwrap();
    for format in ["--summary", "--json"] {
        let o = tally(&[
            "score",
            "-v",
            "wacky",
            "--rules",
            rules.to_str().unwrap(),
            format,
            game,
        ]);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{format}: {}{e}", stdout(&o));
        assert!(
            e.contains("wacky.fall") && e.contains("wacky.defence"),
            "{e}"
        );
        assert!(stdout(&o).is_empty(), "{}", stdout(&o));
    }
    // Each capture 10^15 points: loads, but the game's totals pass the
    // range, and the game fails in both formats instead of printing a
    // saturated tie.
    let rules = dir.join("capture.toml");
    std::fs::write(&rules, powers_of_1000("capture = 1e9\nfall = 0\n")).unwrap();
    for format in ["--summary", "--json"] {
        let o = tally(&[
            "score",
            "-v",
            "wacky",
            "--rules",
            rules.to_str().unwrap(),
            format,
            game,
        ]);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{format}: {}{e}", stdout(&o));
        assert!(e.contains("game 1") && e.contains("10^15"), "{format}: {e}");
        assert!(!stdout(&o).contains("9223372036854775"), "{}", stdout(&o));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Wacky pays the winner's clock time: a clock no game can have passes
/// the largest total, and the error says what may be too large without
/// blaming a rules file that was not given.
#[test]
fn an_impossible_clock_names_the_clock() {
    let dir = cli::scratch("score-clock");
    let pgn = dir.join("clock.pgn");
    let clk = "{[%clk 9999999999999:00:00]}";
    std::fs::write(
        &pgn,
        format!("[Variant \"wacky\"]\n\n1. f3 {clk} e5 {clk} 2. g4 {clk} Qh4# 0-1\n"),
    )
    .unwrap();
    let out = tally(&["score", "-v", "wacky", pgn.to_str().unwrap()]);
    let text = format!("{}{}", stdout(&out), stderr(&out));
    assert!(text.contains("passes 10^15 points"), "{text}");
    assert!(text.contains("a clock time of the PGN"), "{text}");
    assert!(text.contains("1 games: 0 scored, 1 failed"), "{text}");
}

/// A stylish series of three games between a and b, written as people
/// would: game 1 Scholar's mate by a (a queen adjacent to the king mates:
/// 60; `Qxf7` takes a pawn along a diagonal: 0), game 2 with b White
/// (`exd5`, a pawn taking a pawn: 5) resigned by a, game 3 after the end.
const STYLISH_SERIES: &str = "[White \"a\"]\n[Black \"b\"]\n[Variant \"stylish\"]\n\n\
    1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n\
    [White \"b\"]\n[Black \"a\"]\n[Variant \"stylish\"]\n\n1. e4 d5 2. exd5 1-0\n\n\
    [White \"a\"]\n[Black \"b\"]\n[Variant \"stylish\"]\n\n1. e4 e5 1-0\n";

fn series_file(name: &str, text: &str) -> String {
    let path = cli::scratch("series").join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// a leads 60 to 5 when a resigns game 2: the series ends there and b
/// wins it whatever the points; game 3 is not counted.
#[test]
fn a_series_resigned_in_stylish_goes_to_the_resigner_s_opponent() {
    let file = series_file("stylish.pgn", STYLISH_SERIES);
    let o = tally(&["score", "--series", &file]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "game 1: stylish, a (White) 60, b (Black) 0, checkmate; sums: a 60, b 0\n\
         game 2: stylish, b (White) 5, a (Black) 0, resignation, a resigned; sums: a 60, b 5\n\
         series of 2 games: b wins: a resigned in game 2, whatever the points; sums: a 60, b 5; \
         games won: a 1, b 1, tied 0\n"
    );
    assert!(
        stderr(&o).contains("the contest ended after 2 games; 1 later games are not counted"),
        "{}",
        stderr(&o)
    );
    // JSON: each game's object as without --series, then the result.
    let o = tally(&["score", "--series", &file, "--json"]);
    let lines = json_lines(&o);
    assert_eq!(lines.len(), 3);
    let plain = json_lines(&tally(&["score", &file, "--json"]));
    assert_eq!(lines[..2], plain[..2]);
    assert_eq!(
        lines[2],
        serde_json::json!({"totals": {"a": 60, "b": 5}, "winner": "b", "why": "resignation",
            "games": 2, "won": {"a": 1, "b": 1}, "tied": 0, "tiebreaks": 0, "over": true})
    );
    // Without the rule, game 3 (a White; b resigns at once: nothing for
    // anyone) counts too and a wins on points, 60 to 5.
    let o = tally(&[
        "score",
        "--series",
        &file,
        "--resignation-ends",
        "off",
        "--json",
    ]);
    let last = json_lines(&o).pop().unwrap();
    assert_eq!(last["totals"], serde_json::json!({"a": 60, "b": 5}));
    assert_eq!(
        (&last["winner"], &last["why"]),
        (&serde_json::json!("a"), &serde_json::json!("points"))
    );
    assert_eq!(last["games"], 3);
}

/// Sets, two games that end by the 30-move rule (a quiet rook move from
/// a FEN at 59 plies): the draw's 1/2 goes to the draw-advantage
/// player. By default that is b, Black in game 1 (a chose White): 1/2 as
/// Black in game 1 and 1/2 as White in game 2, b wins 1 to 0. Named a,
/// a takes both halves.
#[test]
fn a_sets_series_pays_the_draw_advantage_to_its_player_in_both_colours() {
    let game = |white: &str, black: &str| {
        format!(
            "[White \"{white}\"]\n[Black \"{black}\"]\n[Variant \"sets\"]\n\
             [FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 59 40\"]\n[SetUp \"1\"]\n\n1. Ra2 1/2-1/2\n\n"
        )
    };
    let file = series_file("sets.pgn", &(game("a", "b") + &game("b", "a")));
    let o = tally(&["score", "--series", &file]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("game 1: sets, a (White) 0, b (Black) 0.5, move_rule; sums: a 0, b 0.5"),
        "{out}"
    );
    assert!(
        out.contains("game 2: sets, b (White) 0.5, a (Black) 0, move_rule; sums: a 0, b 1"),
        "{out}"
    );
    assert!(out.contains("series of 2 games: b wins on points"), "{out}");
    let o = tally(&[
        "score",
        "--series",
        &file,
        "--draw-advantage-player",
        "a",
        "--json",
    ]);
    let lines = json_lines(&o);
    assert_eq!(
        lines[0]["total"],
        serde_json::json!({"white": 0.5, "black": 0})
    );
    assert_eq!(
        lines[1]["total"],
        serde_json::json!({"white": 0, "black": 0.5})
    );
    assert_eq!(lines[2]["totals"], serde_json::json!({"a": 1, "b": 0}));
    assert_eq!(lines[2]["winner"], "a");
    // A name that plays no game, and a colour for a player's advantage.
    let o = tally(&["score", "--series", &file, "--draw-advantage-player", "c"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("'c' is not a player of the series (a and b)"),
        "{}",
        stderr(&o)
    );
    let o = tally(&["score", "--series", &file, "--draw-advantage", "white"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

/// `--format tiebreak-match:2`: Fool's mate in both dynamic games (Black
/// mates: b then a, 100 each), tied 100-100; the tie-break, tiebraker
/// with a White, is Fool's mate again: b 100. b wins by the tie-break,
/// 200 to 100.
#[test]
fn a_tied_match_read_from_a_pgn_goes_to_its_tie_break() {
    let fool = |white: &str, black: &str, variant: &str| {
        format!(
            "[White \"{white}\"]\n[Black \"{black}\"]\n[Variant \"{variant}\"]\n\n\
             1. f3 e5 2. g4 Qh4# 0-1\n\n"
        )
    };
    let text =
        fool("a", "b", "dynamic") + &fool("b", "a", "dynamic") + &fool("a", "b", "tiebraker");
    let file = series_file("tiebreak.pgn", &text);
    let o = tally(&["score", "--series", "--format", "tiebreak-match:2", &file]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("game 3 (tie-break): tiebraker, a (White) 0, b (Black) 100, checkmate; sums: a 100, b 200"),
        "{out}"
    );
    assert!(
        out.contains(
            "tiebreak-match:2 (3 games, 1 tie-breaks): b wins by the tie-break; sums: a 100, b 200"
        ),
        "{out}"
    );
    let o = tally(&[
        "score",
        "--series",
        "--format",
        "tiebreak-match:2",
        &file,
        "--json",
    ]);
    let last = json_lines(&o).pop().unwrap();
    assert_eq!(last["why"], "tiebreak");
    assert_eq!(last["winner"], "b");
    assert_eq!(last["tiebreaks"], 1);
    // Game 3's tag must say tiebraker: a dynamic tag there is refused.
    let wrong = fool("a", "b", "dynamic") + &fool("b", "a", "dynamic") + &fool("a", "b", "dynamic");
    let file = series_file("tiebreak-wrong.pgn", &wrong);
    let o = tally(&["score", "--series", "--format", "tiebreak-match:2", &file]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains(
            "game 3: the Variant tag says 'dynamic', and game 3 of the contest is tiebraker"
        ),
        "{}",
        stderr(&o)
    );
}

#[test]
fn series_errors_are_clear() {
    let stranger = STYLISH_SERIES.replacen("[White \"b\"]", "[White \"c\"]", 1);
    let file = series_file("stranger.pgn", &stranger);
    let o = tally(&["score", "--series", &file]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o).trim(),
        "game 2: 'c' against 'a' is not a game of the series between 'a' and 'b'"
    );
    let untagged = series_file("untagged.pgn", "1. e4 e5 *\n");
    let o = tally(&["score", "--series", &untagged]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("needs its players' names in the White and Black tags"));
    let file = series_file("ok.pgn", STYLISH_SERIES);
    cli::refused(
        &tally(&["score", "--series", "--format", "league:3", &file]),
        "--format: format 'league:3': expected series:N or tiebreak-match:N",
        "a bad format",
    );
    cli::refused(
        &tally(&["score", "--series", "--resignation-ends", "maybe", &file]),
        "--resignation-ends 'maybe': expected on or off",
        "a bad switch",
    );
    let o = tally(&["score", "--series", "--moves", "e2e4"]);
    assert_eq!(o.status.code(), Some(2));
    let o = tally(&["score", "--format", "series:2", &file]);
    assert_eq!(o.status.code(), Some(2), "--format needs --series");
    let o = tally(&["score", "--series", &series_file("empty.pgn", "")]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("no games"), "{}", stderr(&o));
}
