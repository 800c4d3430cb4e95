//! The UCI loop driven in-process over a pipe-like reader and a capturing
//! writer: every command, every option, every variant, hostile input.

use std::io::{BufReader, Cursor, Read, Write};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use tally::engine::{Engine, EngineOptions};
use tally::rules::Variant;

/// A reader fed by a channel: blocks until bytes come, ends when the
/// sender is dropped.
struct Pipe {
    rx: Receiver<Vec<u8>>,
    cur: Vec<u8>,
    pos: usize,
}

impl Read for Pipe {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while self.pos == self.cur.len() {
            match self.rx.recv() {
                Ok(v) => {
                    self.cur = v;
                    self.pos = 0;
                }
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.cur.len() - self.pos);
        buf[..n].copy_from_slice(&self.cur[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// A writer whose bytes tests can wait on.
#[derive(Clone, Default)]
struct Capture(Arc<(Mutex<Vec<u8>>, Condvar)>);

impl Write for Capture {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let (m, c) = &*self.0;
        m.lock().unwrap().extend_from_slice(buf);
        c.notify_all();
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Capture {
    fn lines(&self) -> Vec<String> {
        let text = String::from_utf8(self.0.0.lock().unwrap().clone()).unwrap();
        text.lines().map(str::to_owned).collect()
    }
}

/// A running UCI loop.
struct Client {
    tx: Option<Sender<Vec<u8>>>,
    out: Capture,
    seen: usize,
    thread: Option<JoinHandle<()>>,
}

impl Client {
    fn start() -> Client {
        let (tx, rx) = mpsc::channel();
        let out = Capture::default();
        let w = out.clone();
        let reader = BufReader::new(Pipe {
            rx,
            cur: Vec::new(),
            pos: 0,
        });
        let thread = std::thread::spawn(move || tally::uci::run(reader, w));
        Client {
            tx: Some(tx),
            out,
            seen: 0,
            thread: Some(thread),
        }
    }

    fn send(&self, line: &str) {
        self.send_raw(format!("{line}\n").as_bytes());
    }

    fn send_raw(&self, bytes: &[u8]) {
        if let Some(tx) = &self.tx {
            tx.send(bytes.to_vec()).unwrap();
        }
    }

    /// Lines after the last wait, up to and including the first that
    /// matches; panics after `secs` seconds.
    fn wait_for(&mut self, secs: u64, pred: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(secs);
        let (m, c) = &*self.out.0;
        let mut guard = m.lock().unwrap();
        loop {
            let text = String::from_utf8_lossy(&guard[self.seen..]).into_owned();
            let mut consumed = 0;
            let mut lines = Vec::new();
            for piece in text.split_inclusive('\n') {
                if !piece.ends_with('\n') {
                    break;
                }
                consumed += piece.len();
                let line = piece.trim_end_matches('\n').to_owned();
                let hit = pred(&line);
                lines.push(line);
                if hit {
                    self.seen += consumed;
                    return lines;
                }
            }
            let now = Instant::now();
            assert!(
                now < deadline,
                "timed out; output so far:\n{}",
                String::from_utf8_lossy(&guard)
            );
            guard = c.wait_timeout(guard, deadline - now).unwrap().0;
        }
    }

    /// Sends `isready` and returns the lines before `readyok`.
    fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.wait_for(20, |l| l == "readyok");
        lines.pop();
        lines
    }

    /// Runs `go ...` and returns its lines, the bestmove last.
    fn go(&mut self, args: &str) -> Vec<String> {
        self.send(&format!("go {args}"));
        self.wait_for(60, |l| l.starts_with("bestmove"))
    }

    /// Ends the input and waits for the loop to return.
    fn finish(mut self) -> Vec<String> {
        self.tx = None;
        self.thread.take().unwrap().join().unwrap();
        let all = self.out.lines();
        let skip = String::from_utf8_lossy(&self.out.0.0.lock().unwrap()[..self.seen])
            .lines()
            .count();
        all[skip..].to_vec()
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        self.tx = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Runs a whole script to the end of input and returns the output lines.
fn script(input: &str) -> Vec<String> {
    let out = Capture::default();
    tally::uci::run(Cursor::new(input.as_bytes().to_vec()), out.clone());
    out.lines()
}

fn bestmove(lines: &[String]) -> String {
    let l = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("bestmove"))
        .unwrap_or_else(|| panic!("no bestmove in {lines:#?}"));
    l.split_whitespace().nth(1).unwrap().to_owned()
}

fn errors(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string error"))
        .collect()
}

/// Whether `action` is legal for `variant` after `fen` and `moves`.
fn is_legal(
    variant: Variant,
    specials: bool,
    fen: Option<&str>,
    moves: &[&str],
    action: &str,
) -> bool {
    let mut e = Engine::with_options(
        variant,
        EngineOptions {
            specials,
            ..EngineOptions::default()
        },
    );
    e.set_position(fen, moves).unwrap();
    e.legal_actions().iter().any(|a| a.to_string() == action)
}

fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let mut it = line.split_whitespace();
    while let Some(t) = it.next() {
        if t == key {
            return it.next();
        }
    }
    None
}

const OPTION_NAMES: [&str; 24] = [
    "Hash",
    "Clear Hash",
    "Threads",
    "MultiPV",
    "Move Overhead",
    "Ponder",
    "UCI_ShowWDL",
    "ScoreUnit",
    "UCI_Variant",
    "UCI_Chess960",
    "Scoring",
    "SpecialActions",
    "DrawAdvantage",
    "EvalMode",
    "EvalFile",
    "EvalWeights",
    "RulesFile",
    "UCI_LimitStrength",
    "UCI_Elo",
    "Skill Level",
    "SyzygyPath",
    "SyzygyProbeDepth",
    "SyzygyProbeLimit",
    "Syzygy50MoveRule",
];

#[test]
fn handshake_and_ready() {
    let out = script(
        "uci\nisready\nregister later\nregister name x code y\ndebug on\ndebug off\nucinewgame\nisready\nquit\n",
    );
    assert!(out[0].starts_with("id name Tally "));
    assert!(out[1].starts_with("id author "));
    for name in OPTION_NAMES {
        assert!(
            out.iter()
                .any(|l| l.starts_with(&format!("option name {name} type "))),
            "{name} missing"
        );
    }
    let uciok = out.iter().position(|l| l == "uciok").unwrap();
    assert_eq!(uciok, 2 + OPTION_NAMES.len());
    assert_eq!(&out[uciok + 1..], &["readyok", "readyok"]);
}

#[test]
fn every_option_valid_and_invalid() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("tally-uci-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.toml");
    std::fs::write(&good, "[dynamic]\nstalemate = [70, 30]\n").unwrap();
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "[no_such_table]\nx = 1\n").unwrap();
    let mut c = Client::start();
    let valid = [
        ("Hash", "8"),
        ("Threads", "2"),
        ("MultiPV", "2"),
        ("Move Overhead", "50"),
        ("Ponder", "true"),
        ("UCI_ShowWDL", "true"),
        ("UCI_Variant", "chess"),
        ("Scoring", "dynamic"),
        ("SpecialActions", "true"),
        ("DrawAdvantage", "white"),
        ("EvalMode", "base"),
        ("EvalWeights", "perpetual_checks=4, wacky_tempo=0"),
        ("RulesFile", good.to_str().unwrap()),
    ];
    for (name, value) in valid {
        c.send(&format!("setoption name {name} value {value}"));
    }
    c.send("setoption name Clear Hash");
    let lines = c.sync();
    assert!(errors(&lines).is_empty(), "{lines:#?}");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("rules file") && l.contains("loaded"))
    );
    assert!(
        lines
            .iter()
            .any(|l| l.ends_with("evaluator weights set: perpetual_checks=4 wacky_tempo=0")),
        "{lines:#?}"
    );
    c.send("position startpos");
    c.send("d");
    let d = c.sync();
    assert!(
        d.iter()
            .any(|l| l.starts_with("Variant: dynamic") && l.contains("special actions: on")),
        "{d:#?}"
    );
    let go = c.go("depth 4");
    let infos: Vec<&String> = go
        .iter()
        .filter(|l| field(l, "depth") == Some("4"))
        .collect();
    assert_eq!(infos.len(), 2, "MultiPV 2: {go:#?}");
    assert_eq!(field(infos[1], "multipv"), Some("2"));
    // No wdl outside chess and extinction.
    assert!(go.iter().all(|l| !l.contains(" wdl ")));

    // Invalid values: refused, each with an error, the old value kept.
    let invalid = [
        ("Hash", "0"),
        ("Hash", "999999999"),
        ("Threads", "-1"),
        ("MultiPV", "many"),
        ("Move Overhead", "5001"),
        ("Ponder", "maybe"),
        ("UCI_ShowWDL", ""),
        ("UCI_Variant", "atomic"),
        ("Scoring", "extinction"),
        ("SpecialActions", "1"),
        ("DrawAdvantage", "grey"),
        ("UCI_LimitStrength", "yes"),
        ("UCI_Elo", "999"),
        ("UCI_Elo", "3000"),
        ("Skill Level", "21"),
        ("Skill Level", "-1"),
        ("EvalMode", "neural"),
        ("EvalFile", "/no/such/net.tnn"),
        ("EvalWeights", "wacky_tempo"),
        ("EvalWeights", "no_such_weight=1"),
        ("EvalWeights", "wacky_our_check=-5"),
        ("RulesFile", bad.to_str().unwrap()),
        ("RulesFile", "/no/such/file.toml"),
        ("NoSuchOption", "1"),
    ];
    for (name, value) in invalid {
        c.send(&format!("setoption name {name} value {value}"));
    }
    c.send("setoption name Hash");
    c.send("setoption Hash value 3");
    let lines = c.sync();
    assert_eq!(errors(&lines).len(), invalid.len() + 2, "{lines:#?}");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("RulesFile") && l.contains("kept"))
    );
    assert!(
        lines.iter().any(|l| l.contains("EvalWeights")
            && l.contains("unknown weight 'no_such_weight'")
            && l.ends_with("(kept: perpetual_checks=4 wacky_tempo=0)")),
        "{lines:#?}"
    );
    c.send("d");
    let d = c.sync();
    assert!(d.iter().any(|l| l.starts_with("Variant: dynamic")));
    // MultiPV still 2.
    let go = c.go("depth 3");
    assert!(go.iter().any(|l| field(l, "multipv") == Some("2")));

    // Back to defaults; WDL shows in chess.
    for (name, value) in [
        ("Scoring", "chess"),
        ("MultiPV", "1"),
        ("RulesFile", ""),
        ("RulesFile", "<empty>"),
        ("EvalWeights", "<empty>"),
        ("EvalMode", "variant"),
        ("SpecialActions", "false"),
        ("Threads", "1"),
    ] {
        c.send(&format!("setoption name {name} value {value}"));
    }
    assert!(errors(&c.sync()).is_empty());
    c.send("position startpos moves e2e4");
    let go = c.go("depth 5");
    let last = go
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    let w: Vec<i32> = last
        .split_whitespace()
        .skip_while(|t| *t != "wdl")
        .skip(1)
        .take(3)
        .map(|x| x.parse().unwrap())
        .collect();
    assert_eq!(w.iter().sum::<i32>(), 1000, "{last}");
    assert!(is_legal(
        Variant::Chess,
        false,
        None,
        &["e2e4"],
        &bestmove(&go)
    ));
    drop(c);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_variant_plays_legal_moves() {
    let mut c = Client::start();
    for v in Variant::ALL {
        let set = if v.is_extinction() {
            "setoption name UCI_Variant value extinction".to_owned()
        } else {
            format!("setoption name UCI_Variant value chess\nsetoption name Scoring value {v}")
        };
        c.send(&set);
        c.send("ucinewgame");
        c.send("position startpos moves e2e4 e7e5");
        c.send("d");
        let d = c.sync();
        assert!(
            d.iter().any(|l| l.starts_with(&format!("Variant: {v} "))),
            "{v}: {d:#?}"
        );
        let go = c.go("depth 4");
        let best = bestmove(&go);
        assert!(
            is_legal(v, false, None, &["e2e4", "e7e5"], &best),
            "{v}: {best}"
        );
        let margin = go
            .iter()
            .find(|l| l.starts_with("info string margin"))
            .unwrap();
        assert!(margin.contains(&format!(" {v} award {best} ")), "{margin}");
        assert!(go.iter().any(|l| l.starts_with("info depth 4 ")));
    }
    // A scoring variant picked directly through UCI_Variant wins over Scoring.
    c.send("setoption name Scoring value sets");
    c.send("setoption name UCI_Variant value wacky");
    c.send("d");
    assert!(c.sync().iter().any(|l| l.starts_with("Variant: wacky ")));
    c.send("setoption name UCI_Variant value standard");
    c.send("d");
    assert!(c.sync().iter().any(|l| l.starts_with("Variant: sets ")));
}

#[test]
fn position_errors_keep_what_they_should() {
    let mut c = Client::start();
    c.send("position startpos moves e2e4 e7e5 e2e4 g1f3");
    let lines = c.sync();
    let e = errors(&lines);
    assert_eq!(e.len(), 1);
    assert!(e[0].contains("move 3 'e2e4'"), "{}", e[0]);
    c.send("d");
    let d = c.sync();
    assert!(
        d.iter()
            .any(|l| l == "Fen: rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"),
        "{d:#?}"
    );
    // A bad FEN keeps the previous position.
    for bad in [
        "position fen not/a/fen w - - 0 1",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position fen",
        "position",
        "position moves e2e4",
    ] {
        c.send(bad);
        let lines = c.sync();
        assert_eq!(errors(&lines).len(), 1, "{bad}: {lines:#?}");
        c.send("d");
        assert!(
            c.sync().iter().any(|l| l.ends_with("w KQkq - 0 2")),
            "{bad}"
        );
    }
    // Garbage moves, special words while special actions are off.
    c.send("position startpos moves e2e4 zz9 e7e5");
    assert!(errors(&c.sync())[0].contains("move 2 'zz9'"));
    c.send("setoption name Scoring value tiebraker");
    c.send("position startpos moves disk");
    assert!(errors(&c.sync())[0].contains("move 1 'disk'"));
    // The GUI's board is not the engine's: no move of another position.
    assert_eq!(bestmove(&c.go("depth 3")), "0000");
    c.send("position startpos");
    let best = bestmove(&c.go("depth 3"));
    assert!(is_legal(Variant::Tiebraker, false, None, &[], &best));
    // A FEN with moves.
    c.send("setoption name Scoring value chess");
    c.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1 moves g1f1");
    c.send("d");
    assert!(
        c.sync()
            .iter()
            .any(|l| l == "Fen: 6k1/5ppp/8/8/8/8/5PPP/3R1K2 b - - 1 1")
    );
}

#[test]
fn go_after_a_refused_position_answers_why_and_no_move() {
    for bad in [
        "position fen not/a/fen w - - 0 1",
        "position",
        "position moves e2e4",
        "position startpos moves e2e4 e7e5 e2e4",
    ] {
        let lines = script(&format!(
            "position startpos moves e2e4\n{bad}\ngo depth 2\ngo depth 2\n"
        ));
        let answers: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
        assert_eq!(answers.len(), 2, "{bad}: {lines:#?}");
        assert!(
            answers.iter().all(|l| *l == "bestmove 0000"),
            "{bad}: {lines:#?}"
        );
        let why = lines
            .iter()
            .filter(|l| l.starts_with("info string") && l.contains("refused"))
            .count();
        assert!(why >= 2, "{bad}: {lines:#?}");
        // No count of the old position either.
        let lines = script(&format!("position startpos\n{bad}\ngo perft 1\n"));
        assert!(
            !lines.iter().any(|l| l.starts_with("Nodes searched")),
            "{bad}: {lines:#?}"
        );
        assert!(
            lines
                .last()
                .is_some_and(|l| l.contains("go perft: the last position command was refused")),
            "{bad}: {lines:#?}"
        );
        // A valid position ends it.
        let lines = script(&format!(
            "{bad}\nposition startpos moves e2e4\ngo depth 2\n"
        ));
        let best = bestmove(&lines);
        assert!(
            is_legal(Variant::Chess, false, None, &["e2e4"], &best),
            "{bad}: {best}"
        );
    }
}

/// `go perft` with a negative depth is refused, not counted at depth 0;
/// `go mate N` with no mate ends (at depth 2N + 8), so piped input ends.
#[test]
fn perft_depths_and_a_mate_that_is_not_there() {
    let lines = script("position startpos\ngo perft -1\ngo perft 1\n");
    assert_eq!(
        errors(&lines),
        ["info string error: go perft: depth -1 is out of range 0..10"]
    );
    assert_eq!(lines.last().unwrap(), "Nodes searched: 20");
    let lines = script("position startpos\ngo mate 1\n");
    let depths: Vec<i32> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .filter_map(|l| field(l, "depth")?.parse().ok())
        .collect();
    assert_eq!(depths.iter().max(), Some(&10), "{lines:#?}");
    assert!(is_legal(
        Variant::Chess,
        false,
        None,
        &[],
        &bestmove(&lines)
    ));
    // A mate that is there ends the search at once.
    let lines = script("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\ngo mate 1\n");
    assert_eq!(bestmove(&lines), "a1a8");
}

#[test]
fn go_limits() {
    let mut c = Client::start();
    // Mate in one, found and reported as such.
    c.send("position fen r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
    let go = c.go("mate 1");
    assert_eq!(bestmove(&go), "h5f7");
    assert!(go.iter().any(|l| l.contains("score mate 1 ")), "{go:#?}");
    let margin = go
        .iter()
        .find(|l| l.starts_with("info string margin"))
        .unwrap();
    assert_eq!(margin, "info string margin +1 chess award h5f7 1:0 mate");
    // Wacky counts in units of about 300 points, yet of five mates in one
    // (539,010 to 539,040 points) on five lines the one that earns most
    // comes first and is played, and the margin is its award to the point.
    let wacky = script(
        "setoption name UCI_Variant value wacky\n\
         setoption name MultiPV value 5\n\
         position fen 3k4/R6Q/8/8/1K4P1/8/6r1/2R5 w - - 3 41\n\
         go depth 3 searchmoves h7h8 h7g8 a7a8 h7e7 h7d7\n",
    );
    assert_eq!(bestmove(&wacky), "h7d7");
    let depth3: Vec<&String> = wacky
        .iter()
        .filter(|l| l.starts_with("info depth 3 "))
        .collect();
    let firsts: Vec<&str> = depth3
        .iter()
        .filter_map(|l| l.split(" pv ").nth(1))
        .collect();
    assert_eq!(
        firsts,
        ["h7d7", "h7e7", "a7a8", "h7h8", "h7g8"],
        "{wacky:#?}"
    );
    assert!(
        wacky
            .iter()
            .any(|l| l.starts_with("info string margin +539040 wacky award h7d7 539040:0 ")),
        "{wacky:#?}"
    );
    // Depth, nodes, searchmoves.
    c.send("position startpos");
    let go = c.go("depth 3");
    assert!(go.iter().any(|l| l.starts_with("info depth 3 ")));
    assert!(!go.iter().any(|l| l.starts_with("info depth 4 ")));
    let go = c.go("nodes 2000");
    let nodes: u64 = go
        .iter()
        .filter_map(|l| field(l, "nodes"))
        .map(|n| n.parse().unwrap())
        .max()
        .unwrap_or(0);
    assert!(nodes <= 2000 + 2048, "{nodes}");
    let go = c.go("searchmoves a2a3 h2h4 depth 5");
    let best = bestmove(&go);
    assert!(best == "a2a3" || best == "h2h4", "{best}");
    let go = c.go("searchmoves e2e5 depth 2");
    assert_eq!(errors(&go).len(), 2, "{go:#?}");
    // Clocks: every form is answered with a legal move on its own (how
    // fast is measured by tests/python/timing.py, not here: a test must not
    // depend on the machine's load).
    for args in [
        "wtime 1000 btime 1000 winc 10 binc 10",
        "wtime 300 btime 5000 movestogo 1",
        "wtime -20 btime 100",
        "wtime 500 btime 500 winc 0 binc 0 movestogo 40",
        "movetime 300",
    ] {
        let go = c.go(args);
        assert!(
            is_legal(Variant::Chess, false, None, &[], &bestmove(&go)),
            "{args}"
        );
    }
    // Bad numbers are reported, the rest still counts.
    let go = c.go("depth x nodes 500 bogus");
    assert_eq!(errors(&go).len(), 2);
}

#[test]
fn infinite_stop_ponder_and_isready_during_search() {
    let mut c = Client::start();
    c.send("position startpos moves d2d4");
    c.send("go infinite");
    c.wait_for(10, |l| l.starts_with("info depth 3 "));
    // isready is answered while the search runs; no bestmove yet.
    let lines = c.sync();
    assert!(!lines.iter().any(|l| l.starts_with("bestmove")));
    std::thread::sleep(Duration::from_millis(100));
    c.send("stop");
    let lines = c.wait_for(10, |l| l.starts_with("bestmove"));
    assert!(is_legal(
        Variant::Chess,
        false,
        None,
        &["d2d4"],
        &bestmove(&lines)
    ));
    // A second stop prints nothing more.
    c.send("stop");
    assert!(!c.sync().iter().any(|l| l.starts_with("bestmove")));

    // Ponder, then ponderhit: the clock starts at ponderhit.
    c.send("position startpos moves e2e4 e7e5");
    c.send("go ponder wtime 3000 btime 3000");
    std::thread::sleep(Duration::from_millis(300));
    assert!(!c.sync().iter().any(|l| l.starts_with("bestmove")));
    c.send("ponderhit");
    let lines = c.wait_for(10, |l| l.starts_with("bestmove"));
    assert!(is_legal(
        Variant::Chess,
        false,
        None,
        &["e2e4", "e7e5"],
        &bestmove(&lines)
    ));
    // Ponder, then stop (a ponder miss).
    c.send("go ponder wtime 3000 btime 3000");
    std::thread::sleep(Duration::from_millis(100));
    c.send("stop");
    c.wait_for(10, |l| l.starts_with("bestmove"));
    // go while searching: the first search ends with its bestmove first.
    c.send("go infinite");
    c.send("go depth 2");
    let lines = c.wait_for(10, |l| l.starts_with("bestmove"));
    assert!(lines.iter().filter(|l| l.starts_with("bestmove")).count() == 1);
    c.wait_for(10, |l| l.starts_with("bestmove"));
    // quit during a search: bestmove, then the loop returns.
    c.send("go infinite");
    c.wait_for(10, |l| l.starts_with("info depth 2 "));
    c.send("quit");
    let rest = c.finish();
    assert_eq!(rest.iter().filter(|l| l.starts_with("bestmove")).count(), 1);
}

#[test]
fn end_of_input_stops_open_searches_and_finishes_limited_ones() {
    let out = script("position startpos\ngo depth 6\n");
    assert!(out.iter().any(|l| l.starts_with("info depth 6 ")));
    assert_eq!(out.last().map(|l| l.starts_with("bestmove")), Some(true));
    let mut c = Client::start();
    c.send("go infinite");
    c.wait_for(10, |l| l.starts_with("info depth 1 "));
    let rest = c.finish();
    assert!(rest.iter().any(|l| l.starts_with("bestmove")));
}

#[test]
fn finished_positions() {
    let cases = [
        // Checkmate, stalemate: chess.
        (
            "chess",
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            "checkmate",
        ),
        ("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "stalemate"),
        // A type missing in the FEN: over on arrival.
        (
            "extinction",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1",
            "extinction",
        ),
    ];
    for (variant, fen, why) in cases {
        let out = script(&format!(
            "setoption name UCI_Variant value {variant}\nposition fen {fen}\ngo wtime 1000 btime 1000\ngo infinite\n"
        ));
        let n = out.len();
        assert!(
            out[n - 4].starts_with("info string the game is over: ") && out[n - 4].contains(why),
            "{out:#?}"
        );
        assert_eq!(out[n - 3], "bestmove 0000");
        assert_eq!(out[n - 1], "bestmove 0000");
    }
}

#[test]
fn tally_endings_unknown_to_the_gui_play_on() {
    let rep = "position startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8";
    // Special actions off: the GUI's game goes on, so does Tally.
    let mut c = Client::start();
    c.send(rep);
    let go = c.go("depth 3");
    assert!(
        go.iter()
            .any(|l| l.contains("threefold repetition") && l.contains("plays on")),
        "{go:#?}"
    );
    assert!(is_legal(Variant::Chess, false, None, &[], &bestmove(&go)));
    c.send(&format!("{rep} e2e4 e7e5"));
    c.send("d");
    let d = c.sync();
    assert!(d.iter().any(|l| l.contains("plays on")));
    assert!(
        d.iter()
            .any(|l| l == "Fen: rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 6"),
        "{d:#?}"
    );
    // Insufficient material before the moves: the restarted position is
    // over too, so each move is played past it (an answer for the wrong
    // side once came of refusing them). Black to move after the three.
    c.send("position fen 8/8/8/6b1/4K3/8/k7/8 w - - 0 90 moves e4d4 g5f4 d4e4");
    c.send("d");
    let d = c.sync();
    assert!(errors(&d).is_empty(), "{d:#?}");
    assert_eq!(d.iter().filter(|l| l.contains("plays on")).count(), 1);
    assert!(
        d.iter()
            .any(|l| l.starts_with("Fen: 8/8/8/8/4Kb2/8/k7/8 b ")),
        "{d:#?}"
    );
    let go = c.go("depth 3");
    assert!(errors(&go).is_empty(), "{go:#?}");
    assert!(
        chess_legal("8/8/8/8/4Kb2/8/k7/8 b - - 0 1", &bestmove(&go)),
        "{go:#?}"
    );
    // A move not on the board is refused all the same.
    c.send("position fen 8/8/8/6b1/4K3/8/k7/8 w - - 0 90 moves e4d4 g5g3 d4e4");
    let e = c.sync();
    assert!(errors(&e)[0].contains("move 2 'g5g3'"), "{e:#?}");
    // Sets' 30-move rule.
    c.send("setoption name Scoring value sets");
    c.send("position fen 8/8/4k3/8/8/3K4/8/R7 w - - 60 80");
    let go = c.go("depth 3");
    assert!(go.iter().any(|l| l.contains("move-count rule")), "{go:#?}");
    assert!(is_legal(
        Variant::Sets,
        false,
        Some("8/8/4k3/8/8/3K4/8/R7 w - - 0 80"),
        &[],
        &bestmove(&go)
    ));
    // Special actions on: the client knows the variant's endings.
    c.send("setoption name Scoring value chess");
    c.send("setoption name SpecialActions value true");
    c.send(rep);
    let go = c.go("depth 3");
    assert_eq!(bestmove(&go), "0000");
    assert!(
        go.iter()
            .any(|l| l.contains("the game is over: threefold repetition"))
    );
    c.send(&format!("{rep} e2e4"));
    let e = c.sync();
    assert!(errors(&e)[0].contains("move 9 'e2e4'"), "{e:#?}");
}

#[test]
fn special_actions_when_enabled() {
    let mut c = Client::start();
    c.send("setoption name Scoring value tiebraker");
    c.send("setoption name SpecialActions value true");
    c.send("position startpos moves e2e4 disk");
    c.send("d");
    let d = c.sync();
    assert!(errors(&d).is_empty(), "{d:#?}");
    assert!(
        d.iter().any(|l| l.starts_with("Disk: offered by Black")),
        "{d:#?}"
    );
    assert!(d.iter().any(|l| l.contains(" | d | ")));
    let best = bestmove(&c.go("depth 3"));
    assert!(
        is_legal(Variant::Tiebraker, true, None, &["e2e4", "disk"], &best),
        "{best}"
    );
    c.send("position startpos moves e2e4 disk swap");
    assert!(errors(&c.sync()).is_empty());
    // Sets: a claim after baring the king.
    c.send("setoption name Scoring value sets");
    // K+N cannot mate: the claim's 1 point beats a draw.
    let fen = "8/8/4k3/8/8/2p1K3/8/1N6 w - - 0 1";
    c.send(&format!("position fen {fen} moves b1c3 e6d6"));
    c.send("d");
    let d = c.sync();
    assert!(
        d.iter()
            .any(|l| l.starts_with("Bare king: White may claim")),
        "{d:#?}"
    );
    let go = c.go("depth 3");
    assert_eq!(bestmove(&go), "claim", "{go:#?}");
    c.send(&format!("position fen {fen} moves b1c3 e6d6 claim"));
    let go = c.go("depth 3");
    assert_eq!(bestmove(&go), "0000");
    assert!(go.iter().any(|l| l.contains("claimed")), "{go:#?}");
}

#[test]
fn display_eval_perft_bench() {
    let mut c = Client::start();
    c.send("setoption name Scoring value dynamic");
    c.send("position startpos moves e2e4 d7d5 e4d5");
    c.send("d");
    let d = c.sync();
    for prefix in [
        "Fen: rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2",
        "Key: ",
        "Variant: dynamic (rules: standard, special actions: off)",
        "Side to move: Black",
        "Legal actions: 28 (3 plies played)",
        "Ending: none",
        "Points so far: White 0 Black 0",
    ] {
        assert!(d.iter().any(|l| l.starts_with(prefix)), "{prefix}: {d:#?}");
    }
    assert!(
        d.iter()
            .any(|l| l == " | r | n | b | q | k | b | n | r | 8")
    );
    c.send("eval");
    let e = c.sync();
    for prefix in [
        "     Material |    90",
        "Phase: 24 of 24",
        "Base evaluation: ",
        "Expected margin: -",
    ] {
        assert!(e.iter().any(|l| l.starts_with(prefix)), "{prefix}: {e:#?}");
    }
    c.send("position startpos");
    c.send("go perft 3");
    let p = c.wait_for(30, |l| l.starts_with("Nodes searched"));
    assert_eq!(p.last().unwrap(), "Nodes searched: 8902");
    assert_eq!(p.len(), 22);
    assert!(p.contains(&"e2e4: 600".to_owned()));
    c.send("setoption name UCI_Variant value extinction");
    c.send("position fen rnb1kbnr/pppppppp/8/8/8/3q4/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    c.send("go perft 2");
    let p = c.wait_for(30, |l| l.starts_with("Nodes searched"));
    assert_eq!(p.last().unwrap(), "Nodes searched: 707");
    c.send("go perft 11");
    assert_eq!(errors(&c.sync()).len(), 1);
    c.send("bench 1");
    let b = c.wait_for(60, |l| l.ends_with(" nps"));
    let last = b.last().unwrap();
    let parts: Vec<&str> = last.split(' ').collect();
    assert_eq!(parts.len(), 4, "{last}");
    assert!(parts[0].parse::<u64>().unwrap() > 0);
    assert_eq!(parts[1], "nodes");
    assert_eq!(
        b.iter()
            .filter(|l| l.starts_with("info string position"))
            .count(),
        tally::bench::positions().unwrap().len()
    );
    c.send("bench 0");
    assert_eq!(errors(&c.sync()).len(), 1);
}

/// A small deterministic generator for hostile bytes.
fn noise(seed: u64, n: usize) -> Vec<u8> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

#[test]
fn hostile_input() {
    let mut c = Client::start();
    // Random bytes, with and without newlines.
    let mut junk = noise(0x9e37_79b9_7f4a_7c15, 200_000);
    // Keep words that would be real commands out of the noise.
    for b in &mut junk {
        if b.is_ascii_alphabetic() {
            *b = b'#';
        }
    }
    c.send_raw(&junk);
    c.send_raw(b"\n\xff\xfe\xfd garbage \x00\x01\n");
    for line in [
        "",
        "   ",
        "xyzzy",
        "go go go depth 2",
        "setoption",
        "setoption name",
        "position startpos moves",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e2e4 e7e5 e1e8",
        "go perft x",
        "go searchmoves",
        "debug maybe",
        "bench x",
        "joho debug on",
    ] {
        c.send(line);
    }
    // A 1 MB line is read and refused as an unknown command; a 2 MB one is
    // skipped unread.
    let mut long = vec![b'a'; 1_000_000];
    long.push(b'\n');
    c.send_raw(&long);
    let mut longer = b"position startpos moves ".to_vec();
    longer.extend(std::iter::repeat_n(b"e2e4 ".as_slice(), 400_000).flatten());
    longer.push(b'\n');
    c.send_raw(&longer);
    // `go searchmoves` without a move is refused with the second bestmove,
    // `0000` (the first ended `go go go`; `go perft x` starts nothing).
    c.send("stop");
    let mut lines = c.wait_for(20, |l| l.starts_with("bestmove"));
    if lines.iter().filter(|l| l.starts_with("bestmove")).count() < 2 {
        lines.extend(c.wait_for(20, |l| l.starts_with("bestmove")));
    }
    lines.extend(c.sync());
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove")).count(),
        2
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("unknown command 'aaaaaaaa"))
    );
    assert!(lines.iter().any(|l| l.contains("a line of 2000024 bytes")));
    assert!(lines.iter().any(|l| l.contains("move 3 'e1e8'")));
    assert!(lines.iter().all(|l| l.len() < 400), "a long echo");
    // The last position was refused: no move until a valid one comes,
    // then legal moves again.
    assert_eq!(bestmove(&c.go("depth 4")), "0000");
    c.send("position startpos moves e2e4 e7e5");
    let best = bestmove(&c.go("depth 4"));
    assert!(is_legal(
        Variant::Chess,
        false,
        None,
        &["e2e4", "e7e5"],
        &best
    ));
    c.send("position startpos moves e2e4");
    let go = c.go("wtime 500 btime 500");
    assert!(
        is_legal(Variant::Chess, false, None, &["e2e4"], &bestmove(&go)),
        "{go:#?}"
    );
    c.send("quit");
    c.finish();
}

#[test]
fn more_threads_than_cores_keep_to_the_clock_and_stop() {
    let mut c = Client::start();
    c.send("setoption name Threads value 256");
    c.send("position startpos moves e2e4");
    assert!(errors(&c.sync()).is_empty());
    for go in ["movetime 100", "wtime 100 btime 100", "nodes 5000"] {
        let best = bestmove(&c.go(go));
        assert!(
            is_legal(Variant::Chess, false, None, &["e2e4"], &best),
            "{go}: {best}"
        );
    }
    c.send("go infinite");
    c.wait_for(60, |l| l.starts_with("info depth 1 "));
    c.send("stop");
    let best = bestmove(&c.wait_for(60, |l| l.starts_with("bestmove")));
    assert!(is_legal(Variant::Chess, false, None, &["e2e4"], &best));
}

#[test]
fn long_work_answers_isready_and_stops() {
    let mut c = Client::start();
    // The deepest perft would run for days: isready is answered meanwhile,
    // and stop ends it.
    c.send("go perft 10");
    c.send("isready");
    c.wait_for(60, |l| l == "readyok");
    c.send("stop");
    let p = c.wait_for(60, |l| l.starts_with("info string"));
    assert_eq!(p, ["info string go perft 10 stopped"]);
    // Lines after long work wait for it, in order; isready does not: it
    // is answered at once, before the work that the stop after it ends.
    c.send("bench 20");
    c.send("position startpos moves e2e4");
    c.send("d");
    c.send("isready");
    c.send("stop");
    let b = c.wait_for(60, |l| l.starts_with("Fen: "));
    let ready = b.iter().position(|l| l == "readyok");
    let stopped = b.iter().position(|l| l == "info string bench 20 stopped");
    assert!(ready.is_some() && ready < stopped, "{b:#?}");
    assert!(
        b.last()
            .unwrap()
            .starts_with("Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b"),
        "{b:#?}"
    );
    // Beyond the maxima: refused.
    c.send("go perft 11");
    c.send("bench 21");
    let e = c.sync();
    assert_eq!(errors(&e).len(), 2, "{e:#?}");
    // A new table: readyok once it is there, and what follows after it.
    c.send("setoption name Hash value 2");
    c.send("isready");
    c.send("go depth 3");
    let go = c.wait_for(60, |l| l.starts_with("bestmove"));
    let ready = go.iter().position(|l| l == "readyok");
    assert!(ready.is_some() && ready < Some(go.len() - 1), "{go:#?}");
    assert!(errors(&go).is_empty(), "{go:#?}");
    // A large table takes a while to fill: quit does not wait for it. (Not
    // the largest: a test must not take most of the machine's memory.)
    c.send("setoption name Hash value 2048");
    c.send("quit");
    c.finish();
}

#[test]
fn long_work_finishes_at_the_end_of_input() {
    let out = script("position startpos\ngo perft 2\nd\n");
    let nodes = out.iter().position(|l| l == "Nodes searched: 400");
    let fen = out.iter().position(|l| l.starts_with("Fen: "));
    assert!(nodes.is_some() && nodes < fen, "{out:#?}");
}

#[test]
fn impossible_en_passant_squares_and_castling_rights_are_ignored() {
    let cases = [
        (
            "chess",
            "r3k2r/1P4p1/8/2n2Pp1/8/8/1p4P1/R3K2R w KQkq g6 0 1",
            "en-passant square g6 ignored: no pawn can have just passed it",
            "r3k2r/1P4p1/8/2n2Pp1/8/8/1p4P1/R3K2R w KQkq - 0 1",
        ),
        (
            "extinction",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",
            "en-passant square e6 ignored: no pawn can have just passed it",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ),
        (
            "chess",
            "4k3/8/8/8/8/8/8/R3K3 w KQkq - 0 1",
            "castling rights without their king and rook at home ignored",
            "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1",
        ),
        (
            "extinction",
            "rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
            "castling rights without their king and rook at home ignored",
            "rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQq - 0 1",
        ),
    ];
    for (variant, fen, note, kept) in cases {
        let mut c = Client::start();
        c.send(&format!("setoption name UCI_Variant value {variant}"));
        c.send(&format!("position fen {fen}"));
        c.send("d");
        let d = c.sync();
        assert_eq!(d[0], format!("info string warning: position: {note}"));
        assert!(errors(&d).is_empty(), "{d:#?}");
        assert!(d.contains(&format!("Fen: {kept}")), "{d:#?}");
        let best = bestmove(&c.go("depth 3"));
        let v = Variant::from_id(variant).unwrap();
        assert!(is_legal(v, false, Some(kept), &[], &best), "{best}");
    }
    // What cannot be played is still refused, the position kept.
    let mut c = Client::start();
    c.send("position fen 8/8/8/8/8/8/8/8 w - - 0 1");
    c.send("position fen k7/8/8/8/8/8/8/K6P w - e3 0 1");
    let e = c.sync();
    assert_eq!(errors(&e).len(), 2, "{e:#?}");
}

/// Whether `mv` is a legal chess move (UCI notation) in `fen`.
fn chess_legal(fen: &str, mv: &str) -> bool {
    use shakmaty::{CastlingMode, Chess, Position, fen::Fen, uci::UciMove};
    let pos: Chess = fen
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    mv.parse::<UciMove>()
        .ok()
        .and_then(|m| m.to_move(&pos).ok())
        .is_some_and(|m| pos.is_legal(m))
}

#[test]
fn positions_over_only_by_rules_the_gui_does_not_apply_get_a_legal_move() {
    let cases = [
        (
            "chess",
            "8/8/4k3/8/8/3BK3/8/8 w - - 0 1",
            "insufficient material",
        ),
        (
            "chess",
            "8/8/4k3/8/8/3K4/8/R7 w - - 100 80",
            "move-count rule",
        ),
        (
            "chess",
            "8/8/4k3/8/8/3K4/8/R7 b - - 150 80",
            "move-count rule",
        ),
        (
            "sets",
            "8/8/4k3/8/8/3K4/8/R7 w - - 60 80",
            "move-count rule",
        ),
        (
            "dynamic",
            "8/8/4k3/8/8/3BK3/8/8 b - - 0 1",
            "insufficient material",
        ),
    ];
    for (variant, fen, why) in cases {
        let mut c = Client::start();
        c.send(&format!("setoption name Scoring value {variant}"));
        c.send(&format!("position fen {fen}"));
        let go = c.go("depth 3");
        let over: Vec<&String> = go.iter().filter(|l| l.contains(" over")).collect();
        assert_eq!(over.len(), 1, "{variant} {fen}: {go:#?}");
        assert!(
            over[0].contains(why) && over[0].contains("plays on"),
            "{go:#?}"
        );
        let best = bestmove(&go);
        assert!(chess_legal(fen, &best), "{variant} {fen}: {best}");
        assert!(errors(&go).is_empty(), "{go:#?}");
    }
}

/// The `score` of the last `info depth` line of multipv `n`.
fn last_score(lines: &[String], n: u32) -> String {
    let l = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth") && l.contains(&format!(" multipv {n} ")))
        .unwrap_or_else(|| panic!("no info line in {lines:#?}"));
    let at = l.find(" score ").unwrap() + 7;
    l[at..]
        .split_whitespace()
        .take(2)
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn scores_in_points_and_proven_mates() {
    // Ra8 mates; stylish pays 110 for a rook's mate from afar: 4.4 of
    // the search's pawns of 25 points.
    let fen = "position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    let mut c = Client::start();
    c.send("setoption name Scoring value stylish");
    c.send(fen);
    let go = c.go("depth 3");
    assert_eq!(last_score(&go, 1), "cp 440", "{go:#?}");
    c.send("setoption name ScoreUnit value points");
    let go = c.go("depth 3");
    assert_eq!(last_score(&go, 1), "cp 110", "{go:#?}");
    // Sets: hundredths of a point; the mate is proven, so it is a mate.
    c.send("setoption name Scoring value sets");
    c.send(fen);
    c.send("setoption name MultiPV value 2");
    let go = c.go("depth 3");
    assert_eq!(last_score(&go, 1), "mate 1", "{go:#?}");
    assert!(last_score(&go, 2).starts_with("cp "), "{go:#?}");
    // Chess: a mate whatever the unit.
    c.send("setoption name Scoring value chess");
    c.send(fen);
    let go = c.go("depth 3");
    assert_eq!(last_score(&go, 1), "mate 1", "{go:#?}");
    // Mated: a negative mate (Kb8 forced, then Rh8#).
    c.send("setoption name MultiPV value 1");
    c.send("setoption name ScoreUnit value pawns");
    c.send("position fen k7/8/1K6/8/8/8/8/7R b - - 0 1");
    let go = c.go("depth 4");
    assert_eq!(last_score(&go, 1), "mate -1", "{go:#?}");
    c.send("setoption name ScoreUnit value centipawns");
    let e = c.sync();
    assert_eq!(
        e,
        [
            "info string error: option ScoreUnit: 'centipawns' is not one of pawns, points (kept the old value)"
        ]
    );
}

#[test]
fn echoed_input_has_no_raw_control_characters() {
    let lines = script(concat!(
        "position startpos moves \x1b[2J\n",
        "position startpos moves e2e4 e7\x1b[31m\0\n",
        "position fen \x1b[2J x\n",
        "setoption name \x1b]0;x\x07 value 3\n",
        "setoption name Scoring value \x1b[2J\n",
        "setoption name RulesFile value /nonexistent/\x1b]0;x\x07\n",
        "go searchmoves \x1b[2J\0 depth 1\n",
        "\x1b[2J debug on\n",
        "\x1b[2J\n",
        "bench \x1b[2J\n",
        "go depth \x1b[2J\n",
        "go perft \x1b[2J\n",
        "isready\n",
    ));
    assert!(lines.len() > 10, "{lines:#?}");
    for l in &lines {
        assert!(
            !l.contains(['\x1b', '\0', '\x07', '\r']),
            "raw control character in {l:?}"
        );
    }
    assert!(lines.iter().any(|l| l.contains("'\\x1b[2J'")), "{lines:#?}");
    assert!(
        lines.iter().any(|l| l.contains("e7\\x1b[31m\\x00")),
        "{lines:#?}"
    );
}

#[test]
fn a_stop_behind_waiting_lines_stops_the_work_they_start() {
    let mut c = Client::start();
    // `bench 20` waits behind the perft; the stop after it stops the perft
    // and then the bench that the waiting line starts (isready is answered
    // before either ends).
    c.send("go perft 10");
    c.send("bench 20");
    c.send("isready");
    c.send("stop");
    let lines = c.wait_for(60, |l| l == "info string bench 20 stopped");
    assert_eq!(
        lines,
        [
            "readyok",
            "info string go perft 10 stopped",
            "info string bench 20 stopped"
        ]
    );
    c.send("quit");
    c.finish();
}

/// One `info depth` line: its depth, rank, score as a number that orders
/// like the search's values, and first move.
fn multipv_entry(line: &str) -> (u32, u32, i64, String) {
    let depth = field(line, "depth").unwrap().parse().unwrap();
    let rank = field(line, "multipv").unwrap().parse().unwrap();
    let n: i64 = line
        .split_whitespace()
        .skip_while(|t| *t != "score")
        .nth(2)
        .unwrap()
        .parse()
        .unwrap();
    // A mate outranks every `cp`; a shorter one ranks first, a longer
    // mate against first among the lost.
    let value = match field(line, "score") {
        Some("cp") => n,
        Some("mate") if n > 0 => 1_000_000_000 - n,
        Some("mate") => -1_000_000_000 - n,
        other => panic!("score {other:?} in {line}"),
    };
    (depth, rank, value, field(line, "pv").unwrap().to_owned())
}

/// The positions of the MultiPV test: the start, kiwipete and two more
/// perft positions, every 15th wide opening and the first two of every
/// suite (their FENs only).
fn multipv_positions() -> Vec<String> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/positions");
    let fen = |epd: &str| {
        let f: Vec<&str> = epd.split_whitespace().take(4).collect();
        format!("{} 0 1", f.join(" "))
    };
    let mut out = vec![
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_owned(),
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".to_owned(),
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1".to_owned(),
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8".to_owned(),
    ];
    let wide = std::fs::read_to_string(format!("{dir}/openings-wide.epd")).unwrap();
    out.extend(wide.lines().step_by(15).map(fen));
    let mut suites: Vec<_> = std::fs::read_dir(format!("{dir}/suites"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    suites.sort();
    for s in suites {
        let text = std::fs::read_to_string(s).unwrap();
        out.extend(
            text.lines()
                .filter(|l| !l.trim().is_empty())
                .take(2)
                .map(fen),
        );
    }
    out
}

/// `lines` lines at depth 5 on `threads` threads in `variant`: every
/// iteration printed has its lines best first, and `bestmove` is the first
/// move of the last line 1 printed.
fn lines_best_first(variant: Variant, threads: usize, lines: usize) {
    let mut c = Client::start();
    if variant.is_extinction() {
        c.send("setoption name UCI_Variant value extinction");
    } else {
        c.send(&format!("setoption name Scoring value {variant}"));
    }
    c.send(&format!("setoption name MultiPV value {lines}"));
    c.send(&format!("setoption name Threads value {threads}"));
    let mut searched = 0;
    for fen in multipv_positions() {
        c.send("ucinewgame");
        c.send(&format!("position fen {fen}"));
        let go = c.go("depth 5");
        assert!(errors(&go).is_empty(), "{variant} {fen}: {go:#?}");
        let best = bestmove(&go);
        let infos: Vec<_> = go
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .map(|l| multipv_entry(l))
            .collect();
        if best == "0000" {
            // Over before it starts (a piece type already missing in
            // extinction, say): nothing to rank.
            assert!(infos.is_empty(), "{variant} {fen}: {go:#?}");
            continue;
        }
        searched += 1;
        let mut iterations: Vec<Vec<&(u32, u32, i64, String)>> = Vec::new();
        for e in &infos {
            if e.1 == 1 {
                iterations.push(Vec::new());
            }
            iterations.last_mut().unwrap().push(e);
        }
        assert!(!iterations.is_empty(), "{variant} {fen}: {go:#?}");
        for it in &iterations {
            for (k, e) in it.iter().enumerate() {
                assert_eq!(e.1 as usize, k + 1, "{variant} {fen}: {go:#?}");
                assert_eq!(e.0, it[0].0, "{variant} {fen}: {go:#?}");
                if k > 0 {
                    assert!(
                        e.2 <= it[k - 1].2,
                        "{variant} {fen}: depth {} line {} above line {}: {go:#?}",
                        e.0,
                        k + 1,
                        k
                    );
                }
            }
        }
        let last = iterations.last().unwrap();
        assert!(threads > 1 || last[0].0 == 5, "{variant} {fen}: {go:#?}");
        assert_eq!(best, last[0].3, "{variant} {fen}: {go:#?}");
    }
    assert!(
        searched >= 15,
        "{variant}: only {searched} positions searched"
    );
}

#[test]
fn multipv_lines_are_best_first_in_chess() {
    lines_best_first(Variant::Chess, 1, 3);
}

#[test]
fn multipv_lines_are_best_first_in_extinction() {
    lines_best_first(Variant::Extinction, 1, 3);
}

#[test]
fn multipv_lines_are_best_first_in_stylish() {
    lines_best_first(Variant::Stylish, 1, 3);
}

#[test]
fn multipv_lines_are_best_first_in_wacky() {
    lines_best_first(Variant::Wacky, 1, 3);
}

#[test]
fn multipv_lines_are_best_first_in_sets() {
    lines_best_first(Variant::Sets, 1, 3);
}

#[test]
fn multipv_lines_are_best_first_in_dynamic() {
    lines_best_first(Variant::Dynamic, 1, 3);
}

#[test]
fn multipv_lines_are_best_first_in_tiebraker() {
    lines_best_first(Variant::Tiebraker, 1, 3);
}

/// On several threads another thread's line can be played: it is printed
/// again before `bestmove`. With several lines the main thread's ranking,
/// the one printed, stands.
#[test]
fn bestmove_is_the_last_line_1_printed_on_threads() {
    for lines in [1, 3] {
        lines_best_first(Variant::Stylish, 3, lines);
        lines_best_first(Variant::Chess, 3, lines);
    }
}

#[test]
fn strength_options_declared() {
    let out = script("uci\n");
    for decl in [
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default 1500 min 1000 max 2850",
        "option name Skill Level type spin default 20 min 0 max 20",
    ] {
        assert!(out.iter().any(|l| l == decl), "{decl}: {out:#?}");
    }
}

#[test]
fn weakened_search_keeps_to_its_caps_and_shows_multipv_lines_asked() {
    // Skill Level 0 searches 4 candidate lines to depth 1 whatever `go`
    // asks, reports only the MultiPV lines asked for, and plays a legal
    // move; UCI_LimitStrength off with Skill Level 20 is full strength.
    let mut c = Client::start();
    c.send("setoption name Skill Level value 0");
    c.send("position startpos moves e2e4 e7e5");
    let go = c.go("depth 6");
    let infos: Vec<&String> = go.iter().filter(|l| l.starts_with("info depth")).collect();
    assert!(!infos.is_empty(), "{go:#?}");
    assert!(
        infos.iter().all(|l| field(l, "depth") == Some("1")),
        "{go:#?}"
    );
    assert!(
        infos.iter().all(|l| field(l, "multipv") == Some("1")),
        "{go:#?}"
    );
    let mv = bestmove(&go);
    assert!(
        is_legal(Variant::Chess, false, None, &["e2e4", "e7e5"], &mv),
        "{mv}"
    );
    c.send("setoption name MultiPV value 2");
    let go = c.go("depth 6");
    assert!(
        go.iter().any(|l| field(l, "multipv") == Some("2")),
        "{go:#?}"
    );
    assert!(
        go.iter().all(|l| field(l, "multipv") != Some("3")),
        "{go:#?}"
    );
    // UCI_Elo alone does nothing; with UCI_LimitStrength it overrides the
    // level (1600 searches deeper than depth 1).
    c.send("setoption name Skill Level value 20");
    c.send("setoption name MultiPV value 1");
    c.send("setoption name UCI_Elo value 1600");
    let go = c.go("depth 3");
    assert!(go.iter().any(|l| field(l, "depth") == Some("3")), "{go:#?}");
    c.send("setoption name Skill Level value 0");
    c.send("setoption name UCI_LimitStrength value true");
    let go = c.go("depth 3");
    assert!(go.iter().any(|l| field(l, "depth") == Some("2")), "{go:#?}");
    // From 2400 on a limit is full strength: the same search, node for
    // node, as without it.
    let nodes = |go: &[String]| {
        go.iter()
            .rev()
            .find_map(|l| field(l, "nodes").map(str::to_owned))
    };
    c.send("setoption name UCI_Elo value 2850");
    c.send("ucinewgame");
    let limited = c.go("depth 5");
    c.send("setoption name UCI_LimitStrength value false");
    c.send("setoption name Skill Level value 20");
    c.send("ucinewgame");
    let full = c.go("depth 5");
    assert!(nodes(&full).is_some(), "{full:#?}");
    assert_eq!(nodes(&limited), nodes(&full), "{limited:#?}");
    assert_eq!(limited.last(), full.last());
    let errs: Vec<String> = c
        .sync()
        .into_iter()
        .filter(|l| l.contains("error"))
        .collect();
    assert!(errs.is_empty(), "{errs:?}");
}

/// A small net of the standard board whose weights follow a formula (the
/// trainer's nets are tested in `tests/train.rs`).
fn formula_net(path: &std::path::Path) -> String {
    use tally::nnue::{FEATURES, HIDDEN, Head, Network, Weights};
    let rows = (0..FEATURES)
        .flat_map(|f| (0..HIDDEN).map(move |j| ((f * 7 + j * 13) % 61) as i16 - 30))
        .collect();
    let head = Head {
        weights: std::array::from_fn(|s| {
            (0..HIDDEN)
                .map(|j| ((s * 5 + j * 3) % 41) as i16 - 20)
                .collect()
        }),
        bias: 100,
    };
    let net = Network::from_weights(Weights::plain(
        tally::rules::BoardKind::Standard,
        HIDDEN,
        rows,
        vec![40; HIDDEN],
        vec![head],
    ))
    .unwrap();
    tally::nnue::format::save(&net, path).unwrap();
    net.name()
}

#[test]
fn eval_mode_nnue_and_eval_file() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("tally-uci-nnue-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("net.tnn");
    let name = formula_net(&path);
    let not_a_net = dir.join("not-a-net.tnn");
    std::fs::write(&not_a_net, b"TALLYDAT and more").unwrap();
    let mut c = Client::start();
    // No net loaded: the one built in, named.
    c.send("setoption name EvalMode value nnue");
    let lines = c.sync();
    assert!(
        lines.iter().any(
            |l| l.starts_with("info string EvalMode nnue: the built-in net nn-")
                && l.contains("(standard board, ")
        ),
        "{lines:#?}"
    );
    assert!(errors(&lines).is_empty());
    // A bad file: one error line, nothing loaded.
    c.send(&format!(
        "setoption name EvalFile value {}",
        not_a_net.display()
    ));
    let lines = c.sync();
    assert_eq!(errors(&lines).len(), 1, "{lines:#?}");
    assert!(lines[0].contains("not a Tally net") && lines[0].contains("no net loaded"));
    // The net: loaded, named, used by eval and the search.
    c.send(&format!("setoption name EvalFile value {}", path.display()));
    let lines = c.sync();
    assert_eq!(
        lines,
        [format!(
            "info string net {name} (standard board, {} hidden, 1 head) loaded from {}",
            tally::nnue::HIDDEN,
            path.display()
        )]
    );
    c.send("position startpos moves e2e4 e7e5 g1f3");
    c.send("eval");
    let lines = c.sync();
    assert!(
        lines
            .iter()
            .any(|l| l.contains(&format!("(nnue {name} evaluation,"))),
        "{lines:#?}"
    );
    let go = c.go("depth 5");
    assert!(is_legal(
        Variant::Chess,
        false,
        None,
        &["e2e4", "e7e5", "g1f3"],
        &bestmove(&go)
    ));
    // The loaded net is not of extinction's board: its built-in net.
    c.send("setoption name UCI_Variant value extinction");
    let lines = c.sync();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("the built-in net nn-") && l.contains("(extinction board, ")),
        "{lines:#?}"
    );
    c.send("position startpos");
    let go = c.go("depth 3");
    assert!(is_legal(
        Variant::Extinction,
        false,
        None,
        &[],
        &bestmove(&go)
    ));
    // An empty EvalFile unloads it.
    c.send("setoption name UCI_Variant value chess");
    c.send("setoption name EvalFile value <empty>");
    let lines = c.sync();
    assert!(
        lines.last().unwrap().contains("the built-in net nn-"),
        "{lines:#?}"
    );
    drop(c);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_search_names_its_evaluation_first_and_when_it_changes() {
    let out = script(
        "go depth 1\ngo depth 1\nsetoption name EvalMode value base\ngo depth 1\n\
         setoption name UCI_Variant value extinction\ngo depth 1\n\
         setoption name EvalMode value variant\ngo depth 1\n",
    );
    let named: Vec<&str> = out
        .iter()
        .filter_map(|l| l.strip_prefix("info string evaluation "))
        .collect();
    // The first search names the built-in chess net; the second, the same
    // evaluation, says nothing; the base evaluation is named once, in
    // chess and in extinction alike; then extinction's own.
    assert_eq!(named.len(), 3, "{out:#?}");
    assert!(named[0].starts_with("variant nn-"), "{}", named[0]);
    assert_eq!(named[1], "base");
    assert!(named[2].starts_with("variant"), "{}", named[2]);
    assert_eq!(out.iter().filter(|l| l.starts_with("bestmove")).count(), 5);
}

/// `UCI_Chess960`: a Chess960 FEN (Shredder-FEN or X-FEN rights), castling
/// as king takes rook in and out, `go perft` and `d` in 960 notation; in
/// extinction too. Off, the same FEN's castling rights are dropped.
#[test]
fn chess960_positions_and_castling() {
    let fen = "rk2r3/pppbqppp/2n2n2/8/8/2N2N2/PPPBQPPP/RK2R3 w EAea - 0 1";
    let lines = script(&format!(
        "uci\nsetoption name UCI_Chess960 value true\nposition fen {fen} moves b1a1 b8e8\n\
         d\ngo perft 1\nposition fen {fen}\ngo depth 2 searchmoves b1e1\nisready\n"
    ));
    assert!(
        lines
            .iter()
            .any(|l| l == "option name UCI_Chess960 type check default false")
    );
    assert!(errors(&lines).is_empty(), "{lines:#?}");
    // b1a1: the king to c1, the rook to d1; b8e8: the king to g8, the rook to f8.
    assert!(
        lines
            .iter()
            .any(|l| l == "Fen: r4rk1/pppbqppp/2n2n2/8/8/2N2N2/PPPBQPPP/2KRR3 w - - 2 2"),
        "{lines:#?}"
    );
    assert_eq!(bestmove(&lines), "b1e1");
    // Depth 1 after both castlings: no castling is left.
    assert!(
        lines.iter().any(|l| l == "Nodes searched: 36"),
        "{lines:#?}"
    );

    let lines = script(&format!(
        "uci\nsetoption name UCI_Chess960 value true\nposition fen {fen}\ngo perft 1\nisready\n"
    ));
    assert!(lines.iter().any(|l| l == "b1a1: 1") && lines.iter().any(|l| l == "b1e1: 1"));
    assert!(
        lines.iter().any(|l| l == "Nodes searched: 42"),
        "{lines:#?}"
    );

    // The same FEN without UCI_Chess960: the rights are dropped with a note.
    let lines = script(&format!("uci\nposition fen {fen}\ngo perft 1\nisready\n"));
    assert!(
        lines.iter().any(|l| l == "Nodes searched: 40"),
        "{lines:#?}"
    );

    // Extinction: castling through attack, written king takes rook.
    let ext = "r4kr1/ppp1bppp/2nq1n2/3p4/3P4/2NQ1N1b/PPP1BP1P/R4K1R w KQkq - 0 1";
    let lines = script(&format!(
        "uci\nsetoption name UCI_Variant value extinction\nsetoption name UCI_Chess960 value true\n\
         position fen {ext}\ngo perft 1\nposition fen {ext} moves f1h1\ngo perft 1\nisready\n"
    ));
    assert!(errors(&lines).is_empty(), "{lines:#?}");
    assert!(lines.iter().any(|l| l == "f1h1: 1") && lines.iter().any(|l| l == "f1a1: 1"));
    assert!(
        lines.iter().any(|l| l == "Nodes searched: 37"),
        "{lines:#?}"
    );
    assert!(
        lines.iter().any(|l| l == "Nodes searched: 45"),
        "{lines:#?}"
    );
}

/// What a GUI's board and the engine's must agree on: a change of rules
/// keeps the position where it holds, says so where it does not, and a
/// `position` that is not what the GUI meant is refused.
#[test]
fn the_engine_s_position_stays_the_gui_s() {
    // A change of scoring keeps the position: Black is to move.
    let out = script(
        "position startpos moves e2e4 e7e5 g1f3\nsetoption name Scoring value sets\ngo depth 2\n",
    );
    let m = bestmove(&out);
    assert!(
        is_legal(Variant::Sets, true, None, &["e2e4", "e7e5", "g1f3"], &m),
        "{m}: {out:#?}"
    );
    assert!(errors(&out).is_empty(), "{out:#?}");
    // Extinction without a white king is no chess position: the change of
    // variant says so, and go plays no move of another board.
    let out = script(
        "setoption name UCI_Variant value extinction\nposition fen 4k3/8/8/8/8/8/8/Q7 w - - 0 1\nsetoption name UCI_Variant value chess\ngo depth 2\n",
    );
    assert!(
        out.iter()
            .any(|l| l.contains("does not hold under the new")),
        "{out:#?}"
    );
    assert_eq!(bestmove(&out), "0000", "{out:#?}");
    // Moves without the word `moves`.
    let out = script("position startpos e2e4\ngo depth 1\n");
    assert_eq!(errors(&out).len(), 1, "{out:#?}");
    assert_eq!(bestmove(&out), "0000", "{out:#?}");
    // A refused FEN is echoed clipped, not whole.
    let long = "x".repeat(100_000);
    let out = script(&format!("position fen {long}\ngo depth 1\n"));
    assert!(
        out.iter().all(|l| l.len() < 1000),
        "an echo of 100,000 bytes"
    );
    assert_eq!(bestmove(&out), "0000");
}

#[test]
fn a_search_always_completes_its_first_depth_and_ends() {
    // One node: still a move searched to depth 1, the free queen taken.
    let out = script("position fen 4k3/8/8/8/8/8/3q4/4K3 w - - 0 1\ngo nodes 1\n");
    assert_eq!(bestmove(&out), "e1d2", "{out:#?}");
    // A clock for the side not to move only: the mover's counts as empty,
    // and the search ends (at the end of input too).
    let out = script("position startpos\ngo btime 1000\n");
    let m = bestmove(&out);
    assert!(is_legal(Variant::Chess, false, None, &[], &m), "{m}");
    // An option during a search ends it first, whichever option it is.
    let mut c = Client::start();
    c.send("position startpos");
    c.send("go infinite");
    c.send("setoption name MultiPV value 3");
    let b = c.wait_for(60, |l| l.starts_with("bestmove"));
    assert!(errors(&b).is_empty(), "{b:#?}");
    c.send("quit");
    c.finish();
}

/// `isready` is answered at once during a perft that would run for days,
/// even behind a waiting `d`; the `d` runs after `stop` ends the perft.
#[test]
fn isready_is_answered_at_once_behind_lines_that_wait_for_a_perft() {
    let mut c = Client::start();
    c.send("position startpos");
    c.send("go perft 10");
    c.send("d");
    c.send("isready");
    // Only readyok: the perft cannot have ended, and `d` waits for it.
    assert_eq!(c.wait_for(60, |l| l == "readyok"), ["readyok"]);
    c.send("isready");
    assert_eq!(c.wait_for(60, |l| l == "readyok"), ["readyok"]);
    c.send("stop");
    let rest = c.wait_for(60, |l| l.starts_with("Fen: "));
    assert_eq!(rest[0], "info string go perft 10 stopped", "{rest:#?}");
    assert!(
        rest.last()
            .unwrap()
            .starts_with("Fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w")
    );
    c.send("quit");
    c.finish();
}

/// A `go` with a field twice, a field without its value, or `perft`
/// beside other fields is refused whole: no perft, no search (`bestmove
/// 0000`, which a GUI waits for).
#[test]
fn go_with_a_repeated_or_valueless_field_is_refused() {
    let mut c = Client::start();
    c.send("position startpos");
    // As reported: `wtime` took the last `perft` as its value, and perft
    // 10 ran. Had it run, isready would still be answered at once (above)
    // and the quit below would print that it stopped.
    c.send("go perft 3 perft 10 wtime perft 5");
    let lines = c.sync();
    assert_eq!(
        lines,
        ["info string error: go: perft is given more than once; refused, nothing runs"]
    );
    for (args, why) in [
        ("wtime perft 5", "wtime needs a value (found 'perft')"),
        ("depth 3 depth 4", "depth is given more than once"),
        ("wtime 100 btime", "btime needs a value (found nothing)"),
        ("infinite infinite", "infinite is given more than once"),
        ("searchmoves depth 2", "searchmoves needs at least one move"),
        (
            "perft 2 depth 3",
            "perft takes no other field (found depth)",
        ),
        ("perft", "perft needs a value (found nothing)"),
    ] {
        c.send(&format!("go {args}"));
        let lines = c.sync();
        let error = format!("info string error: go: {why}; refused");
        assert!(lines[0].starts_with(&error), "{args}: {lines:#?}");
        // With `perft` among the words it was a perft; otherwise a search.
        let answer = if args.contains("perft") {
            vec![]
        } else {
            vec!["bestmove 0000"]
        };
        assert_eq!(&lines[1..], answer, "{args}: {lines:#?}");
    }
    // A refused go during a search ends the search first, as any go does.
    c.send("go infinite");
    c.wait_for(20, |l| l.starts_with("info depth 1 "));
    c.send("go depth 1 depth 2");
    let lines = c.wait_for(20, |l| l == "bestmove 0000");
    let moves: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(moves.len(), 2, "{lines:#?}");
    assert_ne!(moves[0], "bestmove 0000");
    // The well-formed ones still run.
    c.send("go perft 2");
    assert_eq!(
        c.wait_for(60, |l| l.starts_with("Nodes searched"))
            .last()
            .unwrap(),
        "Nodes searched: 400"
    );
    c.send("quit");
    let rest = c.finish();
    assert!(rest.is_empty(), "{rest:#?}");
}

/// The FENs of `genfens` lines, checked to be legal chess positions.
fn genfens_fens(lines: &[String]) -> Vec<String> {
    let fens: Vec<String> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("info string genfens "))
        .map(str::to_owned)
        .collect();
    for fen in &fens {
        let mut e = Engine::new(Variant::Chess);
        e.set_position(Some(fen), &[])
            .unwrap_or_else(|err| panic!("{fen}: {}", err.error));
        assert!(!e.legal_actions().is_empty(), "{fen}");
        // OpenBench turns each into EPD from its six fields.
        assert_eq!(fen.split(' ').count(), 6, "{fen}");
    }
    fens
}

/// `genfens N seed S book None|FILE`, as OpenBench asks for openings:
/// N legal positions, the same for the same seed, other ones for another,
/// a book's positions as the start, and bad words refused clearly.
#[test]
fn genfens_as_openbench_reads_it() {
    // At the end of the input the work finishes (a quit would stop it).
    let run = |cmd: &str| script(&format!("{cmd}\n"));
    let a = run("genfens 6 seed 11 book None");
    let fens = genfens_fens(&a);
    assert_eq!(fens.len(), 6, "{a:#?}");
    assert_eq!(a.len(), 6, "only genfens lines: {a:#?}");
    assert_eq!(run("genfens 6 seed 11 book None"), a);
    // The first positions of a longer run are the same (game i's opening).
    assert_eq!(genfens_fens(&run("genfens 3 seed 11 book None")), fens[..3]);
    assert_ne!(genfens_fens(&run("genfens 6 seed 12 book None")), fens);
    // Eight random plies by default, as in datagen; fewer when asked.
    assert!(fens.iter().all(|f| f.ends_with(" 5")), "{fens:#?}");
    let two = genfens_fens(&run("genfens 3 seed 11 book None random-plies 2 no-verify"));
    assert!(two.iter().all(|f| f.ends_with(" 2")), "{two:#?}");
    // A book: its positions are where the random plies start.
    let dir = std::env::temp_dir().join(format!("tally-genfens-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let book = dir.join("book.epd");
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -";
    std::fs::write(&book, format!("{kiwipete} id \"kiwipete\";\n")).unwrap();
    let from_book = genfens_fens(&run(&format!(
        "genfens 2 seed 3 book {} random-plies 0 no-verify",
        book.display()
    )));
    assert_eq!(
        from_book,
        [format!("{kiwipete} 0 1"), format!("{kiwipete} 0 1")]
    );
    let played = genfens_fens(&run(&format!(
        "genfens 2 seed 3 book {} random-plies 1 no-verify",
        book.display()
    )));
    assert!(
        played
            .iter()
            .all(|f| f.starts_with("r3k2r/") && f.contains(" b ")),
        "{played:#?}"
    );
    // Bad words and a bad book: one clear error, no positions.
    for (cmd, error) in [
        ("genfens", "genfens: expected 'genfens N"),
        (
            "genfens x seed 1",
            "genfens: the count 'x' is not a whole number",
        ),
        (
            "genfens 5 seed 1 book None bogus",
            "genfens: unknown word 'bogus'",
        ),
        (
            "genfens 5 seed 1 seed 2",
            "genfens: seed is given more than once",
        ),
        (
            "genfens 5 seed 1 book /no/such/book.epd",
            "/no/such/book.epd",
        ),
    ] {
        let out = run(cmd);
        assert_eq!(out.len(), 1, "{cmd}: {out:#?}");
        assert!(out[0].starts_with("info string error: "), "{cmd}: {out:#?}");
        assert!(out[0].contains(error), "{cmd}: {out:#?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// genfens is long work: isready is answered during it and stop ends it
/// with a line OpenBench does not take for a position.
#[test]
fn genfens_answers_isready_and_stops() {
    let mut c = Client::start();
    c.send("genfens 100000000 seed 1 book None");
    c.wait_for(60, |l| l.starts_with("info string genfens "));
    c.send("isready");
    let lines = c.wait_for(60, |l| l == "readyok");
    genfens_fens(&lines);
    c.send("stop");
    let lines = c.wait_for(60, |l| l.starts_with("info string stopped genfens after "));
    assert!(
        lines.last().unwrap().ends_with(" of 100000000 positions"),
        "{lines:#?}"
    );
    genfens_fens(&lines);
    c.send("quit");
    c.finish();
}

/// The `tally` binary.
fn binary(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_tally"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run tally")
}

fn stdout_lines(o: &std::process::Output) -> Vec<String> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Arguments that are UCI commands run in order, each to its end, as
/// OpenBench runs `genfens` and `bench` (`quit` right after them stops
/// nothing); subcommands stay subcommands.
#[test]
fn arguments_that_are_uci_commands_run_in_order() {
    let genfens = binary(&["genfens 4 seed 9 book None", "quit"]);
    assert!(genfens.status.success());
    let lines = stdout_lines(&genfens);
    assert_eq!(lines, script("genfens 4 seed 9 book None\n"));
    assert_eq!(genfens_fens(&lines).len(), 4);
    // Each argument one command; an argument of several lines, each.
    let perft = binary(&["position startpos moves e2e4", "go perft 2\nd", "quit"]);
    let lines = stdout_lines(&perft);
    let nodes = lines.iter().position(|l| l == "Nodes searched: 600");
    let fen = lines.iter().position(|l| l.starts_with("Fen: "));
    assert!(nodes.is_some() && nodes < fen, "{lines:#?}");
    // An open-ended search is stopped by the next command, a limited one
    // finishes.
    let go = binary(&["go infinite", "go depth 3", "isready"]);
    let lines = stdout_lines(&go);
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove")).count(),
        2
    );
    assert!(lines.iter().any(|l| l.starts_with("info depth 3 ")));
    assert_eq!(lines.last().unwrap(), "readyok");
    // `uci` with more arguments: UCI; alone it is the subcommand (stdin).
    let uci = binary(&["uci", "isready", "quit"]);
    let lines = stdout_lines(&uci);
    assert!(lines.contains(&"uciok".to_owned()) && lines.last().unwrap() == "readyok");
    // The UCI bench (OpenBench's form for a net set by EvalFile) and the
    // subcommand agree on the node count.
    let uci_bench = binary(&[
        "setoption name EvalMode value nnue",
        "setoption name EvalFile value nets/chess.tnn",
        "bench 2",
        "quit",
    ]);
    let last = stdout_lines(&uci_bench).pop().unwrap();
    let sub_bench = binary(&["bench", "2", "--net", "nets/chess.tnn"]);
    let sub_last = stdout_lines(&sub_bench).pop().unwrap();
    let nodes = |l: &str| l.split(' ').next().unwrap().parse::<u64>().unwrap();
    assert_eq!(nodes(&last), nodes(&sub_last), "{last} / {sub_last}");
    assert!(last.ends_with(" nps"), "{last}");
    // A mistyped subcommand is still clap's error, with its suggestion.
    let typo = binary(&["bnech"]);
    assert_eq!(typo.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&typo.stderr).contains("'bench'"));
    let uci_help = binary(&["uci", "--help"]);
    assert!(uci_help.status.success());
    assert!(String::from_utf8_lossy(&uci_help.stdout).contains("Usage: tally uci"));
    // --help says how.
    let help = stdout_lines(&binary(&["--help"])).join("\n");
    assert!(
        help.contains("bench") && help.contains("UCI commands as arguments"),
        "{help}"
    );
}
