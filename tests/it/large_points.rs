//! Large point values: every value a rules file may hold keeps the search
//! sound (a proven mate is found and reported at a fixed depth), values
//! outside the documented ranges and arrays of the wrong length are
//! refused with the key and the range, and awards never wrap.

use std::io::Write;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tally::analyse::analyse_position;
use tally::engine::{Engine, EngineOptions};
use tally::eval::Units;
use tally::referee::{GameInput, score_input};
use tally::rules::Variant;
use tally::scoring::{MAX_FACTOR, MAX_MOVES_LIMIT, Points, Scorer, Tables, margin};
use tally::search::{DECIDED, Limits, MATE_STEP, Silent};

use shakmaty::Color;

/// After 1. f3 e5 2. g4, Black mates with Qh4.
const FOOLS_MATE: [&str; 3] = ["f2f3", "e7e5", "g2g4"];

/// Runs `f` on a thread; a run that has not ended after two minutes (the
/// fixed-depth searches here take milliseconds) fails instead of hanging.
fn bounded<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(120))
        .expect("the search never ended")
}

/// A writer the UCI loop can own while the test reads it afterwards.
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

/// Runs a UCI script to the end of its input (a depth-limited search is
/// allowed to finish) and returns the output lines.
fn uci(script: String) -> Vec<String> {
    bounded(move || {
        let out = Capture::default();
        tally::uci::run(std::io::Cursor::new(script.into_bytes()), out.clone());
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        text.lines().map(str::to_owned).collect()
    })
}

/// Writes a rules file under the test's scratch directory.
fn rules_file(name: &str, text: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("large_points");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_owned()
}

/// `go depth 2` after the fool's mate moves under a rules file; returns
/// the output lines.
fn fools_mate_over_uci(scoring: &str, file: &str) -> Vec<String> {
    uci(format!(
        "uci\nsetoption name Scoring value {scoring}\nsetoption name RulesFile value {file}\n\
         position startpos moves {}\ngo depth 2\n",
        FOOLS_MATE.join(" ")
    ))
}

fn assert_mates_at_depth_2(lines: &[String]) {
    assert!(
        !lines.iter().any(|l| l.contains("info string error")),
        "{lines:#?}"
    );
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(
        infos.len(),
        2,
        "one line per depth, no bound lines: {lines:#?}"
    );
    for l in &infos {
        assert!(l.contains("score mate 1") && l.ends_with("pv d8h4"), "{l}");
    }
    assert_eq!(lines.last().map(String::as_str), Some("bestmove d8h4"));
}

#[test]
fn uci_finds_the_mate_when_a_chess_win_pays_5000() {
    let file = rules_file("chess-win-5000.toml", "[chess]\nwin = 5000\n");
    let lines = fools_mate_over_uci("chess", &file);
    assert_mates_at_depth_2(&lines);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string margin +5000 chess award d8h4 5000:0")),
        "{lines:#?}"
    );
}

#[test]
fn uci_finds_the_mate_when_a_dynamic_mate_pays_a_million() {
    let file = rules_file(
        "dynamic-mate-million.toml",
        "[dynamic]\nmate = [1000000, 0]\n",
    );
    let lines = fools_mate_over_uci("dynamic", &file);
    assert_mates_at_depth_2(&lines);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string margin +1000000 dynamic award d8h4 1000000:0")),
        "{lines:#?}"
    );
}

#[test]
fn uci_finds_the_mate_with_the_largest_legal_win() {
    let file = rules_file(
        "chess-win-max.toml",
        "[chess]\nwin = 1000000000\nloss = -1000000000\n",
    );
    assert_mates_at_depth_2(&fools_mate_over_uci("chess", &file));
}

#[test]
fn analyse_ranks_the_mate_first_when_a_win_pays_5000() {
    let a = bounded(|| {
        let mut engine = Engine::with_options(
            Variant::Chess,
            EngineOptions {
                threads: 1,
                hash_mb: 8,
                tables: Tables::from_toml("[chess]\nwin = 5000\n").unwrap(),
                ..EngineOptions::default()
            },
        );
        engine.set_position(None, &FOOLS_MATE).unwrap();
        analyse_position(&mut engine, Limits::depth(3), &Silent).unwrap()
    });
    let top = &a.actions[0];
    assert_eq!(top.action.to_string(), "d8h4");
    let v = top.value.expect("searched");
    assert_eq!(v.mate, Some(1));
    // The margin at the mate (a pawn is a tenth of a win: 500 points).
    assert_eq!(v.points, 5000.0);
    // Every other action is an estimate, far from a decided value.
    for r in &a.actions[1..] {
        let v = r.value.expect("searched");
        assert_eq!(v.mate, None, "{}", r.action);
        assert!(v.points.abs() < 5000.0, "{}: {}", r.action, v.points);
    }
}

fn refusal(toml: &str) -> String {
    Tables::from_toml(toml).expect_err(toml).to_string()
}

#[test]
fn a_split_must_be_a_pair() {
    let e = refusal("[dynamic]\nmate = [1, 2, 3]\n");
    assert!(
        e.contains("mate") && e.contains("invalid length 3") && e.contains("a pair"),
        "{e}"
    );
    let e = refusal("[tiebraker]\nswapped_mate = [90]\n");
    assert!(e.contains("swapped_mate") && e.contains("a pair"), "{e}");
    let e = refusal("[stylish.mate]\nrook = [90, 110, 130]\n");
    assert!(e.contains("rook") && e.contains("a pair"), "{e}");
    let e = refusal("[stylish.capture]\nking = [3, 10, 10, 20, 50, 70]\n");
    assert!(e.contains("king") && e.contains("exactly 5 values"), "{e}");
    let e = refusal("[wacky]\nlife = [[0, 1000, 5]]\n");
    assert!(e.contains("life") && e.contains("a pair"), "{e}");
}

#[test]
fn values_beyond_the_documented_ranges_are_refused() {
    let e = refusal("[chess]\nwin = 1000000001\n");
    assert!(
        e.contains("win")
            && e.contains("1000000001 is out of range")
            && e.contains("between -1000000000 and 1000000000"),
        "{e}"
    );
    let e = refusal("[wacky]\ncounter = [2000, -1e12]\n");
    assert!(e.contains("counter") && e.contains("out of range"), "{e}");
    let e = refusal("[wacky.attack]\nking = 1001\n");
    assert!(e.contains("king") && e.contains("from 0 to 1000"), "{e}");
    let e = refusal("[wacky]\nknight_squares = -3\n");
    assert!(
        e.contains("knight_squares") && e.contains("from 0 to 1000"),
        "{e}"
    );
    let e = refusal("[wacky]\nmoves_limit = 10001\n");
    assert!(
        e.contains("moves_limit") && e.contains("from 0 to 10000"),
        "{e}"
    );
    // The ends of the ranges are legal.
    let t = Tables::from_toml(
        "[chess]\nwin = 1e9\nloss = -1e9\n[wacky]\nknight_squares = 1000\nmoves_limit = 10000\n",
    )
    .unwrap();
    assert_eq!(t.chess.win, Points::MAX_VALUE);
    assert_eq!(t.chess.loss, -Points::MAX_VALUE);
}

/// Every value of every table at the largest legal magnitude: `v` for
/// points, `w` for the second value of a split, a loss, a wacky mate (its
/// award is `mate - check`) and the stylish promotion awards (a mate
/// cancels them), the largest factors.
fn extreme(v: Points, w: Points) -> Tables {
    let mut t = Tables::default();
    t.chess.win = v;
    t.chess.draw = v;
    t.chess.loss = w;
    t.extinction = t.chess.clone();
    let s = &mut t.sets;
    for p in [
        &mut s.mate,
        &mut s.resignation,
        &mut s.bare_king,
        &mut s.mutual_bare,
        &mut s.stalemate,
        &mut s.draw,
        &mut s.perpetual_check,
        &mut s.mutual_perpetual_check,
        &mut s.repetition,
    ] {
        *p = v;
    }
    let split = [v, w];
    let d = &mut t.dynamic;
    for p in [
        &mut d.mate,
        &mut d.stalemate,
        &mut d.perpetual_by_black,
        &mut d.perpetual_by_white,
        &mut d.draw,
    ] {
        *p = split;
    }
    let tb = &mut t.tiebraker;
    for p in [
        &mut tb.accepted_disk_mates,
        &mut tb.accepted_other_mates,
        &mut tb.accepted_stalemate,
        &mut tb.accepted_disk_perpetual,
        &mut tb.accepted_draw,
        &mut tb.swapped_mate,
        &mut tb.swapped_stalemate,
        &mut tb.swapped_draw,
        &mut tb.restored_restorer_mates,
        &mut tb.restored_restorer_stalemates,
        &mut tb.restored_other,
    ] {
        *p = split;
    }
    let st = &mut t.stylish;
    let c = &mut st.capture;
    for row in [
        &mut c.pawn,
        &mut c.minor,
        &mut c.rook,
        &mut c.queen_diagonal,
        &mut c.queen_orthogonal,
        &mut c.king,
    ] {
        *row = [v; 5];
    }
    st.mate.queen = [v, v];
    st.mate.rook = [v, v];
    st.mate.bishop = [v, v];
    st.mate.knight = v;
    st.mate.pawn = v;
    st.promoted_mate = v;
    st.discovered = v;
    st.coverage = v;
    st.promotion.queen = w;
    st.promotion.rook = w;
    st.promotion.bishop = w;
    st.promotion.knight = w;
    st.force.pawn = v;
    st.force.knight = v;
    st.force.bishop = v;
    st.force.rook = v;
    st.force.queen = v;
    st.max_force = v;
    st.last_capture = v;
    let second = w;
    let w = &mut t.wacky;
    let f = MAX_FACTOR;
    w.attack = tally::scoring::variants::wacky::Attack {
        pawn: f,
        knight: f,
        bishop: f,
        rook: f,
        queen: f,
        king: f,
    };
    w.defence = tally::scoring::variants::wacky::Defence {
        pawn: f,
        knight: f,
        bishop: f,
        rook: f,
        queen: f,
        king: f,
    };
    w.per_square = v;
    w.knight_squares = f;
    w.capture = v;
    w.en_passant = v;
    w.fall = v;
    w.fall_step = v;
    w.counter = vec![v; 10];
    w.counter_step = v;
    w.combination = vec![v; 9];
    w.combination_step = v;
    w.castling = v;
    w.check = v;
    w.mate = second;
    w.life = vec![(0, v)];
    w.moves_limit = MAX_MOVES_LIMIT;
    w.moves = vec![(0, v)];
    w.time = vec![(1, v)];
    t
}

#[test]
fn the_largest_legal_values_keep_every_margin_inside_the_band() {
    let max = Points::MAX_VALUE;
    for (v, w) in [
        (max, -max),
        (-max, max),
        (max, max),
        (Points::whole(1), Points::ZERO),
    ] {
        let tables = extreme(v, w);
        for variant in Variant::ALL {
            let scorer = Scorer::with_tables(variant, tables.clone());
            let units = Units::of(&scorer);
            let action = i64::from(units.from_points(scorer.action_bound()));
            let end = i64::from(units.from_points(scorer.end_bound()));
            let path = action * i64::from(Units::PATH_PLIES) + end;
            assert!(
                path <= i64::from(units.limit()),
                "{variant:?} {v} {w}: a path of {path} units"
            );
            if scorer.decisive_band() {
                // A decided game's margin stays within half a step of its
                // band, so decided games of different lengths never meet.
                assert!(i64::from(units.limit()) < i64::from(MATE_STEP / 2));
            } else {
                // A path's margin and an estimate never reach the band.
                assert!(2 * i64::from(units.limit()) < i64::from(DECIDED));
            }
        }
    }
}

/// A small deterministic generator (64-bit LCG).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % n
    }
}

/// A random legal game of at most `plies` actions.
fn random_game(variant: Variant, seed: u64, plies: usize) -> String {
    let mut engine = Engine::with_options(
        variant,
        EngineOptions {
            threads: 1,
            hash_mb: 1,
            ..EngineOptions::default()
        },
    );
    engine.set_position(None, &[]).unwrap();
    let mut rng = Lcg(seed);
    let mut moves = Vec::new();
    while moves.len() < plies && engine.ending().is_none() {
        let legal = engine.legal_actions();
        let a = legal[rng.below(legal.len())].to_string();
        engine.play(&a).unwrap();
        moves.push(a);
    }
    moves.join(" ")
}

#[test]
fn awards_stay_within_their_bounds_and_never_wrap() {
    let max = Points::MAX_VALUE;
    for (v, w) in [(max, -max), (-max, max), (max, max)] {
        let tables = extreme(v, w);
        let positive = v > Points::ZERO && w > Points::ZERO;
        for variant in Variant::ALL {
            let scorer = Scorer::with_tables(variant, tables.clone());
            for seed in 0..4 {
                let moves = random_game(variant, seed, 300);
                let r = score_input(&scorer, &GameInput::from_text(None, &moves)).unwrap();
                let last = r.plies.len();
                for (i, p) in r.plies.iter().enumerate() {
                    let m = margin(&p.award, p.mover).abs();
                    let bound = if i + 1 == last {
                        scorer.action_bound() + scorer.end_bound()
                    } else {
                        scorer.action_bound()
                    };
                    assert!(m <= bound, "{variant:?} seed {seed} ply {}: {m}", i + 1);
                    if positive {
                        assert!(p.award.white >= Points::ZERO && p.award.black >= Points::ZERO);
                    }
                }
                let white = margin(&r.outcome, Color::White).abs();
                assert!(white <= scorer.end_bound(), "{variant:?} seed {seed}");
                if positive {
                    // All values positive: no total can turn negative.
                    assert!(
                        r.total.white >= Points::ZERO && r.total.black >= Points::ZERO,
                        "{variant:?} seed {seed}: {:?}",
                        r.total
                    );
                }
            }
        }
    }
}
