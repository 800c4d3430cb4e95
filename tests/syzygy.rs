//! Syzygy endgame tables (`SyzygyPath`) on the small tables shipped in
//! `tests/data/syzygy` (KQvK, KRvK, KPvK, KBvK, KNvK, KRvKR; how they were
//! made is in its README): the probes give python-chess's values, a won
//! KQvK and KRvK are converted to mate at low depth, a capture into the
//! tables enters the search as a table win, the tables are used in chess
//! only, bad paths are refused naming the folder, and a damaged file is no
//! result rather than a crash. No test depends on time.

use std::io::{Cursor, Write};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use tally::engine::{Engine, EngineOptions};
use tally::rules::{Ending, Variant};
use tally::search::{Limits, Score, SearchResult, Silent};
use tally::syzygy::{Tablebases, Wdl};

fn tables_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/syzygy")
}

fn tables() -> Arc<Tablebases> {
    Arc::new(Tablebases::open(tables_dir().to_str().unwrap()).expect("shipped tables"))
}

fn engine(variant: Variant, fen: &str, with_tables: bool) -> Engine {
    let mut e = Engine::with_options(
        variant,
        EngineOptions {
            hash_mb: 8,
            ..EngineOptions::default()
        },
    );
    if with_tables {
        e.set_syzygy(Some(tables()));
    }
    e.set_position(Some(fen), &[]).expect("test position");
    e
}

fn search(e: &mut Engine, depth: i32) -> SearchResult {
    e.search(Limits::depth(depth), &Silent).expect("search")
}

/// WDL (as if after a capture or pawn move) and DTZ as python-chess 1.11.2
/// gives them on the same files, printed by
///
/// ```text
/// python3 -c 'import chess, chess.syzygy
/// tb = chess.syzygy.open_tablebase("tests/data/syzygy")
/// for f in FENS: b = chess.Board(f); print(f, tb.probe_wdl(b), tb.probe_dtz(b))'
/// ```
///
/// (tests/python/syzygy_check.py compares 240 more positions in CI.)
const PYTHON_CHESS: &[(&str, i32, i32)] = &[
    ("8/8/8/4k3/8/8/8/KQ6 w - - 0 1", 2, 17),
    ("8/8/8/8/8/2k5/8/K1Q5 b - - 0 1", -2, -16),
    ("8/8/8/4k3/8/8/8/KR6 w - - 0 1", 2, 29),
    ("8/8/8/4k3/8/8/8/KR6 b - - 0 1", -2, -30),
    ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", 2, 9),
    ("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1", 0, 0),
    ("8/8/8/8/8/4k3/4P3/4K3 w - - 0 1", 0, 0),
    ("8/8/8/8/8/8/k1K5/1R6 b - - 0 1", -2, -14),
    ("r3k3/8/8/8/8/8/8/R3K3 w - - 0 1", 2, 1),
    ("8/8/8/8/8/8/1k6/1r2K2R w - - 0 1", -2, -1),
];

#[test]
fn probes_give_python_chess_values() {
    for &(fen, wdl, dtz) in PYTHON_CHESS {
        let e = engine(Variant::Chess, fen, true);
        let (w, d) = e.tablebase_probe().unwrap_or_else(|| panic!("{fen}"));
        assert_eq!((w as i32, d), (wdl, Some(dtz)), "{fen}");
    }
}

#[test]
fn positions_the_tables_do_not_hold_have_no_result() {
    for fen in [
        // Castling rights: the tables have none.
        "r3k3/8/8/8/8/8/8/R3K3 w Qq - 0 1",
        // KQvKR, not shipped, without a capture that decides it (the
        // prober resolves those through the smaller tables).
        "k7/8/8/8/8/8/6r1/KQ6 w - - 0 1",
        // Too many pieces.
        "4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1",
    ] {
        assert_eq!(
            engine(Variant::Chess, fen, true).tablebase_probe(),
            None,
            "{fen}"
        );
    }
}

/// Plays `fen` out, both sides searching to `depth` with the tables, and
/// returns the ending and the table hits of all the searches.
fn play_out(fen: &str, depth: i32) -> (Option<Ending>, u64, usize) {
    let mut e = engine(Variant::Chess, fen, true);
    let mut hits = 0;
    let mut plies = 0;
    while e.ending().is_none() && plies < 200 {
        let r = search(&mut e, depth);
        hits += r.tbhits;
        let best = r.best.expect("a move").to_string();
        e.play(&best).expect("legal");
        plies += 1;
    }
    (e.ending(), hits, plies)
}

#[test]
fn a_won_kqvk_is_converted_at_low_depth() {
    // DTZ 17: the queen mates within the 50-move rule.
    let (ending, hits, plies) = play_out("8/8/8/4k3/8/8/8/KQ6 w - - 0 1", 3);
    assert!(
        matches!(ending, Some(Ending::Checkmate { winner }) if winner.is_white()),
        "{ending:?} after {plies} plies"
    );
    assert!(hits > 0);
    assert!(plies < 100, "{plies}");
}

#[test]
fn a_won_krvk_is_converted_at_low_depth() {
    // DTZ 29 with Black to move: a long way to the edge for the rook.
    let (ending, hits, plies) = play_out("8/8/8/4k3/8/8/8/KR6 b - - 0 1", 3);
    assert!(
        matches!(ending, Some(Ending::Checkmate { winner }) if winner.is_white()),
        "{ending:?} after {plies} plies"
    );
    assert!(hits > 0);
    assert!(plies < 100, "{plies}");
}

#[test]
fn the_mate_itself_is_found_and_shown() {
    // Mate in 2 in KRvK: the search finds it among the winning moves and
    // says so, where it would otherwise show the table win.
    let mut e = engine(Variant::Chess, "k7/8/2K5/8/8/8/8/1R6 w - - 0 1", true);
    let r = search(&mut e, 5);
    assert_eq!(r.lines[0].score().moves(), Some(2), "{:?}", r.lines[0]);
    assert!(r.tbhits > 0);
    // Farther from mate, the table win is shown.
    let mut e = engine(Variant::Chess, "8/8/8/4k3/8/8/8/KR6 w - - 0 1", true);
    let r = search(&mut e, 3);
    assert!(
        matches!(
            r.lines[0].score(),
            Score::Tablebase {
                won: true,
                plies: 0,
                ..
            }
        ),
        "{:?}",
        r.lines[0]
    );
}

#[test]
fn the_root_keeps_only_actions_that_hold_the_result() {
    // KQvK: every queen move that hangs the queen, and the stalemate, is
    // dropped; a lost side keeps every move.
    let mut e = engine(Variant::Chess, "k7/8/1K6/8/8/8/7Q/8 w - - 0 1", true);
    for depth in 1..=4 {
        let r = search(&mut e, depth);
        let mut after = engine(Variant::Chess, "k7/8/1K6/8/8/8/7Q/8 w - - 0 1", true);
        after.play(&r.best.unwrap().to_string()).unwrap();
        let (wdl, _) = after.tablebase_probe().unwrap_or((Wdl::Loss, None));
        assert_eq!(wdl, Wdl::Loss, "depth {depth}: {:?}", r.best);
        assert!(after.ending().is_none_or(|e| e.winner().is_some()));
    }
}

#[test]
fn a_capture_into_the_tables_enters_the_search_as_a_table_win() {
    // KQvKR (no table of its own): the queen takes the rook into KQvK,
    // which the search probes one ply down.
    let fen = "k7/8/8/8/8/8/1r6/KQ6 w - - 0 1";
    let mut e = engine(Variant::Chess, fen, true);
    let r = search(&mut e, 2);
    assert_eq!(r.best.map(|a| a.to_string()).as_deref(), Some("b1b2"));
    assert!(
        matches!(
            r.lines[0].score(),
            Score::Tablebase {
                won: true,
                plies: 1,
                ..
            }
        ),
        "{:?}",
        r.lines[0]
    );
    assert!(r.tbhits > 0);
    // Without tables, an estimate.
    let mut e = engine(Variant::Chess, fen, false);
    let r = search(&mut e, 2);
    assert!(matches!(r.lines[0].score(), Score::Margin(_)));
    assert_eq!(r.tbhits, 0);
}

#[test]
fn the_tables_are_used_in_chess_only() {
    let fen = "8/8/8/4k3/8/8/8/KQ6 w - - 0 1";
    assert!(engine(Variant::Chess, fen, true).uses_tablebases());
    for v in [
        Variant::Sets,
        Variant::Stylish,
        Variant::Wacky,
        Variant::Dynamic,
        Variant::Tiebraker,
        Variant::Extinction,
    ] {
        let mut e = engine(v, fen, true);
        assert!(!e.uses_tablebases(), "{v}");
        assert_eq!(e.tablebase_probe(), None, "{v}");
        assert_eq!(search(&mut e, 2).tbhits, 0, "{v}");
    }
}

/// A writer the UCI loop can own while the test reads it.
#[derive(Clone, Default)]
struct Capture(Arc<Mutex<Vec<u8>>>);

impl Write for Capture {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn uci(input: &str) -> Vec<String> {
    let out = Capture::default();
    tally::uci::run(Cursor::new(input.as_bytes().to_vec()), out.clone());
    let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
    text.lines().map(str::to_owned).collect()
}

#[test]
fn uci_options_and_tbhits() {
    let dir = tables_dir();
    let dir = dir.display();
    let sep = if cfg!(windows) { ";" } else { ":" };
    let lines = uci(&format!(
        "setoption name SyzygyPath value {dir}\n\
         setoption name SyzygyPath value /no/such/folder{sep}{dir}\n\
         setoption name SyzygyProbeLimit value 8\n\
         setoption name SyzygyProbeDepth value 0\n\
         setoption name Syzygy50MoveRule value maybe\n\
         position fen 8/8/8/4k3/8/8/8/KQ6 w - - 0 1\n\
         go depth 3\n"
    ));
    let has = |s: &str| lines.iter().any(|l| l == s);
    assert!(
        has(&format!(
            "info string found 12 Syzygy table files (up to 4 pieces) in {dir}"
        )),
        "{lines:#?}"
    );
    assert!(
        has(&format!(
            "info string error: option SyzygyPath: no folder /no/such/folder (kept {dir})"
        )),
        "{lines:#?}"
    );
    assert!(has(
        "info string error: option SyzygyProbeLimit: 8 is out of range 0..7 (kept the old value)"
    ));
    assert!(has(
        "info string error: option SyzygyProbeDepth: 0 is out of range 1..100 (kept the old value)"
    ));
    assert!(has(
        "info string error: option Syzygy50MoveRule: 'maybe' is not true or false (kept the old value)"
    ));
    let info: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert!(!info.is_empty());
    for l in &info {
        let hits: u64 = l
            .split(" tbhits ")
            .nth(1)
            .and_then(|r| r.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no tbhits in {l}"));
        assert!(hits > 0, "{l}");
        assert!(l.contains(" score cp 20000 "), "{l}");
    }
    // No path, no tbhits: the lines are as without the option.
    let lines = uci("position fen 8/8/8/4k3/8/8/8/KQ6 w - - 0 1\ngo depth 2\n");
    assert!(
        lines
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .all(|l| !l.contains("tbhits"))
    );
    // A folder without tables, and a file, are refused by name.
    let here = env!("CARGO_MANIFEST_DIR");
    let lines = uci(&format!(
        "setoption name SyzygyPath value {here}/src\nsetoption name SyzygyPath value {here}/Cargo.toml\n"
    ));
    assert!(has_line(
        &lines,
        &format!(
            "info string error: option SyzygyPath: no Syzygy table files (.rtbw, .rtbz) in {here}/src (no tables)"
        )
    ));
    assert!(has_line(
        &lines,
        &format!(
            "info string error: option SyzygyPath: {here}/Cargo.toml is not a folder (no tables)"
        )
    ));
}

fn has_line(lines: &[String], s: &str) -> bool {
    lines.iter().any(|l| l == s) || panic!("no '{s}' in {lines:#?}")
}

/// A scratch folder of its own for a test (removed at the end).
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("tally-syzygy-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn damaged_tables_are_no_result_not_a_crash() {
    let scratch = Scratch::new("damaged");
    let dir = &scratch.0;
    for name in ["KRvK.rtbw", "KRvK.rtbz", "KQvK.rtbz", "KPvK.rtbw"] {
        std::fs::copy(tables_dir().join(name), dir.join(name)).unwrap();
    }
    // KQvK.rtbw: the right size, nothing but noise (a bad magic number).
    let size = std::fs::metadata(tables_dir().join("KQvK.rtbw"))
        .unwrap()
        .len();
    let noise: Vec<u8> = (0..size).map(|i| (i * 7919 % 251) as u8).collect();
    std::fs::write(dir.join("KQvK.rtbw"), noise).unwrap();
    // KPvK.rtbz: its header, then noise.
    let mut damaged = std::fs::read(tables_dir().join("KPvK.rtbz")).unwrap();
    for (i, b) in damaged.iter_mut().enumerate().skip(8) {
        *b = (i * 31 % 256) as u8;
    }
    std::fs::write(dir.join("KPvK.rtbz"), damaged).unwrap();
    // KNvK.rtbw: a size no table has.
    std::fs::write(dir.join("KNvK.rtbw"), b"not a table").unwrap();
    let tables = Tablebases::open(dir.to_str().unwrap()).expect("the good files");
    // The noise of the right size is added (and fails when probed).
    assert_eq!(tables.files(), 6);
    assert_eq!(tables.skipped().len(), 1);
    assert!(
        tables.skipped()[0].contains("KNvK.rtbw"),
        "{:?}",
        tables.skipped()
    );
    let tables = Arc::new(tables);
    let probe = |fen: &str| {
        let mut e = engine(Variant::Chess, fen, false);
        e.set_syzygy(Some(tables.clone()));
        let probe = e.tablebase_probe();
        let r = search(&mut e, 4);
        assert!(r.best.is_some(), "{fen}");
        probe
    };
    // The good table answers; the damaged ones give nothing, and the
    // searches run as without them.
    assert_eq!(
        probe("8/8/8/4k3/8/8/8/KR6 w - - 0 1"),
        Some((Wdl::Win, Some(29)))
    );
    assert_eq!(probe("8/8/8/4k3/8/8/8/KQ6 w - - 0 1"), None);
    // KPvK's WDL is whole; its DTZ file may give nothing or nonsense, never
    // a crash, in a probe or in a search that ranks the root with it.
    for fen in [
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        "7k/8/8/8/8/8/P7/K7 w - - 0 1",
        "7k/8/8/8/3P4/8/8/K7 w - - 0 1",
        "7k/8/8/8/8/8/4P3/K7 b - - 0 1",
        "7k/8/8/8/8/6P1/8/K7 w - - 0 1",
        "7k/1P6/8/8/8/8/8/K7 w - - 0 1",
        "k7/8/8/8/8/8/7P/7K w - - 0 1",
        "8/8/8/8/8/5k2/4P3/4K3 b - - 0 1",
    ] {
        let _ = probe(fen);
    }
}
