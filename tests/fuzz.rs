//! Property-based fuzzing of every parser of outside input: FEN (all
//! seven variants, Chess960), UCI and SAN actions, PGN, rules files, EPD,
//! the net and data files, `tally serve`'s setups and messages, and UCI
//! command lines. Each property: no panic, a clear error for what is
//! refused, and a round trip where the format has one (print what was
//! read, read it again, get the same).
//!
//! Inputs are drawn by proptest from a fixed seed per test (so a run is
//! repeatable) and bounded so that the whole file takes seconds; a case
//! that ever failed is kept below as a plain regression test. Set
//! `PROPTEST_CASES` for a longer run.

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

use tally::referee::{GameInput, PlyInput, score_input};
use tally::rules::{AnyGame, Variant};
use tally::scoring::{Scorer, Tables};

/// A runner of `cases` cases from a seed fixed by `name`.
fn runner(name: &str, cases: u32) -> TestRunner {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(cases);
    let mut seed = [0u8; 32];
    for (i, b) in name.bytes().enumerate() {
        seed[i % 32] ^= b;
    }
    TestRunner::new_with_rng(
        Config {
            cases,
            failure_persistence: None,
            ..Config::default()
        },
        TestRng::from_seed(RngAlgorithm::ChaCha, &seed),
    )
}

/// Text that looks like the format: pieces of valid inputs, mutated.
fn mutated(samples: &'static [&'static str]) -> impl Strategy<Value = String> {
    (
        prop::sample::select(samples),
        prop::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0..4u8), 0..6),
    )
        .prop_map(|(s, edits)| {
            let mut b = s.as_bytes().to_vec();
            for (at, byte, op) in edits {
                if b.is_empty() {
                    b.push(byte);
                    continue;
                }
                let i = at.index(b.len());
                match op {
                    0 => b[i] = byte,
                    1 => {
                        b.remove(i);
                    }
                    2 => b.insert(i, byte),
                    _ => {
                        let j = at.index(b.len().max(1));
                        b.truncate(i.max(j));
                    }
                }
            }
            String::from_utf8_lossy(&b).into_owned()
        })
}

const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1",
    "4k3/8/8/8/8/8/p7/R3K3 w - - 0 1",
    "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2",
    "7k/8/8/6Q1/8/8/P7/K7 w - - 0 1",
    "8/8/8/8/8/8/8/8 w - - 0 1",
];

#[test]
fn fen_never_panics_and_what_is_read_prints_back_the_same() {
    let mut r = runner("fen", 2000);
    let strategy = (
        prop_oneof![mutated(FENS), "\\PC{0,90}"],
        prop::sample::select(&Variant::ALL[..]),
        any::<bool>(),
    );
    r.run(&strategy, |(fen, variant, chess960)| {
        if let Ok(game) = AnyGame::new_in(variant, true, chess960, Some(&fen)) {
            let printed = game.fen();
            let again = AnyGame::new_in(variant, true, chess960, Some(&printed))
                .map_err(|e| TestCaseError::fail(format!("{printed}: {e}")))?;
            prop_assert_eq!(again.fen(), printed);
        }
        Ok(())
    })
    .unwrap();
}

/// A game of `variant` after the legal actions picked by `picks` (each an
/// index into the legal actions of its position), as far as it goes.
fn played(variant: Variant, chess960: bool, picks: &[prop::sample::Index]) -> AnyGame {
    let fen = chess960.then(|| tally::rules::chess960_fen(518).unwrap_or_default());
    let mut game = AnyGame::new_in(variant, true, chess960, fen.as_deref()).unwrap();
    for p in picks {
        let legal = game.legal_actions();
        if legal.is_empty() || game.ending().is_some() {
            break;
        }
        let text = game.text(legal[p.index(legal.len())]);
        game.play_text(&text).unwrap();
    }
    game
}

#[test]
fn every_legal_action_reads_back_from_its_uci_and_san_text_and_junk_is_refused() {
    let mut r = runner("actions", 300);
    let strategy = (
        prop::sample::select(&Variant::ALL[..]),
        any::<bool>(),
        prop::collection::vec(any::<prop::sample::Index>(), 0..60),
        "\\PC{0,12}",
    );
    r.run(&strategy, |(variant, chess960, picks, junk)| {
        let game = played(variant, chess960, &picks);
        // Junk is refused with an error (or is a legal action's text).
        let mut probe = game.clone();
        if let Ok(a) = probe.play_text(&junk) {
            prop_assert!(game.legal_actions().contains(&a));
        }
        // UCI: every legal action's text plays that action.
        for &a in &game.legal_actions() {
            let mut g = game.clone();
            let text = game.text(a);
            prop_assert_eq!(g.play_text(&text).ok(), Some(a), "{}", text);
        }
        // SAN: the game written as SAN movetext is read back to the same
        // actions by the referee.
        let sans = tally::with_game!(&game, |g| tally::pgn::game_sans(g));
        let input = GameInput {
            fen: Some(game.start_fen()),
            plies: sans
                .iter()
                .zip(game.actions())
                .map(|(s, a)| match a.special_word() {
                    Some(w) => PlyInput::Text(w.to_owned()),
                    None => PlyInput::San(s.parse().expect("SAN the writer wrote")),
                })
                .collect(),
            chess960,
            ..GameInput::default()
        };
        let record = score_input(&Scorer::new(variant), &input)
            .map_err(|e| TestCaseError::fail(format!("{sans:?}: {e}")))?;
        let read: Vec<_> = record.plies.iter().map(|p| p.action).collect();
        prop_assert_eq!(read.as_slice(), game.actions());
        Ok(())
    })
    .unwrap();
}

const PGNS: &[&str] = &[
    "[Event \"x\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n",
    "[Variant \"stylish\"]\n[FEN \"7k/7q/8/1q2q3/2PP4/8/PP1n4/K7 w - - 0 1\"]\n\n1. cxb5 Kg8 2. dxe5 Qb1# *\n",
    "1. e4 {a comment} e5 (1... c5 2. Nf3) 2. Nf3 $1 Nc6 3. Bb5 a6 1/2-1/2\n\n1. d4 d5 *\n",
    "[Variant \"tiebraker\"]\n\n1. e4 e5 2. {[%tally disk]} Nc6 1-0\n",
    "[Termination \"time forfeit\"]\n1. e4 {[%clk 0:00:10]} e5 {[%clk 0:00:09]} 0-1\n",
];

#[test]
fn pgn_never_panics_and_every_game_it_reads_scores_or_says_why() {
    let mut r = runner("pgn", 2000);
    let strategy = (
        prop_oneof![mutated(PGNS), "\\PC{0,200}"],
        prop::sample::select(&Variant::ALL[..]),
    );
    r.run(&strategy, |(text, variant)| {
        if let Ok(games) = tally::pgn::read_games(text.as_bytes()) {
            for g in games {
                match score_input(&Scorer::new(variant), &g.input) {
                    Ok(record) => prop_assert!(record.check_range().is_ok()),
                    Err(e) => prop_assert!(!e.to_string().is_empty()),
                }
            }
        }
        let _ = tally::matches::openings::parse_pgn(text.as_bytes(), variant);
        Ok(())
    })
    .unwrap();
}

#[test]
fn rules_files_never_panic_and_a_loaded_file_dumps_and_loads_back_the_same() {
    let dumps: &'static [&'static str] = Box::leak(
        Variant::ALL
            .iter()
            .map(|v| {
                &*Box::leak(
                    tally::scoring::dump::to_toml(&Tables::default(), &[*v]).into_boxed_str(),
                )
            })
            .collect::<Vec<&'static str>>()
            .into_boxed_slice(),
    );
    let mut r = runner("rules", 2000);
    r.run(&prop_oneof![mutated(dumps), "\\PC{0,80}"], |text| {
        match Tables::from_toml(&text) {
            Ok(tables) => {
                let again = tally::scoring::dump::to_toml(&tables, &Variant::ALL);
                let back = Tables::from_toml(&again)
                    .map_err(|e| TestCaseError::fail(format!("{again}: {e}")))?;
                prop_assert_eq!(back, tables);
            }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
        Ok(())
    })
    .unwrap();
}

#[test]
fn epd_never_panics_and_what_it_reads_is_played_by_the_rules() {
    let epds: &'static [&'static str] = &[
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id \"e4\";\n",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -\n8/8/8/8/8/8/8/K6k w - -\n",
        "# a comment\n\nrk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1\n",
    ];
    let mut r = runner("epd", 2000);
    r.run(&prop_oneof![mutated(epds), "\\PC{0,120}"], |text| {
        if let Ok(openings) = tally::matches::openings::parse_epd(&text) {
            for o in openings {
                prop_assert!(!o.fen.is_empty());
            }
        }
        Ok(())
    })
    .unwrap();
}

#[test]
fn net_and_data_files_never_panic_on_damaged_bytes() {
    let net = tally::nnue::embedded_bytes(tally::rules::BoardKind::Standard)
        .expect("a built-in net")
        .to_vec();
    // A version-3 net (king buckets, a width not a multiple of the
    // engine's chunks), small enough that edits reach every part.
    let kings = {
        use tally::nnue::{FEATURES, Head, Kings, Network, Weights};
        let hidden = 3;
        let w = Weights {
            kings: Kings::Four,
            buckets: 2,
            ..Weights::plain(
                tally::rules::BoardKind::Standard,
                hidden,
                (0..4 * FEATURES * hidden)
                    .map(|i| (i % 41) as i16 - 20)
                    .collect(),
                vec![7; hidden],
                vec![Head::zero(hidden, 5), Head::zero(hidden, -5)],
            )
        };
        tally::nnue::format::write(&Network::from_weights(w).unwrap())
    };
    let header = tally::datagen::format::encode_file_header("variant=chess nodes=5000");
    let mut r = runner("files", 1000);
    let strategy = (
        prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..8),
        any::<prop::sample::Index>(),
        prop::collection::vec(any::<u8>(), 0..300),
    );
    r.run(&strategy, |(edits, cut, tail)| {
        // A net: a few bytes changed (anywhere, or in the header), or cut
        // short; one that reads evaluates.
        for original in [&net, &kings] {
            for header_only in [false, true] {
                let mut bytes = original.clone();
                for (at, b) in &edits {
                    let i = at.index(if header_only { 32 } else { bytes.len() });
                    bytes[i] = *b;
                }
                if let Ok(n) = tally::nnue::format::read(&bytes) {
                    let _ = n.evaluate(&shakmaty::Board::new(), shakmaty::Color::White);
                }
                let _ = tally::nnue::format::read(&bytes[..cut.index(bytes.len())]);
            }
        }
        // A data file: its header, then anything.
        let mut data = header.clone();
        data.extend_from_slice(&tail);
        for (at, b) in &edits {
            let i = at.index(data.len());
            data[i] = *b;
        }
        if let Ok(mut reader) = tally::datagen::format::Reader::new(&data[..]) {
            for _ in 0..64 {
                match reader.next_game() {
                    Ok(Some(_)) => {}
                    Ok(None) | Err(_) => break,
                }
            }
        }
        Ok(())
    })
    .unwrap();
}

#[test]
fn serve_setups_and_messages_never_panic_and_refusals_say_why() {
    use tally::serve::game::SetupRequest;
    use tally::serve::protocol::{AnalyseRequest, GameRequest};
    let samples: &'static [&'static str] = &[
        r#"{"variant":"stylish","mode":"engine","side":"black","movetime":200,"elo":1400}"#,
        r#"{"variant":"tiebraker","mode":"people","clock_base":60000,"clock_inc":1000,"specials":true}"#,
        r#"{"fen":"rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1","chess960":true}"#,
        r#"{"type":"play","action":"e2e4"}"#,
        r#"{"type":"analyse","variant":"sets","fen":"4k3/8/8/8/8/8/p7/R3K3 w - - 0 1","moves":["a1a2"],"depth":3}"#,
        r#"{"type":"line","pgn":"1. e4 e5","chess960":false}"#,
        r#"{"type":"takeback"}"#,
    ];
    let mut r = runner("serve", 3000);
    r.run(&prop_oneof![mutated(samples), "\\PC{0,60}"], |text| {
        if let Ok(request) = serde_json::from_str::<SetupRequest>(&text)
            && let Err(e) = request.check()
        {
            prop_assert!(!e.is_empty());
        }
        let _ = serde_json::from_str::<GameRequest>(&text);
        let _ = serde_json::from_str::<AnalyseRequest>(&text);
        Ok(())
    })
    .unwrap();
}

#[test]
fn uci_lines_never_panic_and_every_line_is_read() {
    let words: &'static [&'static str] = &[
        "uci",
        "isready",
        "ucinewgame",
        "position",
        "startpos",
        "fen",
        "moves",
        "e2e4",
        "e7e5",
        "disk",
        "swap",
        "setoption",
        "name",
        "value",
        "UCI_Variant",
        "Scoring",
        "stylish",
        "tiebraker",
        "MultiPV",
        "3",
        "-1",
        "Hash",
        "1",
        "go",
        "depth",
        "1",
        "nodes",
        "200",
        "perft",
        "2",
        "d",
        "eval",
        "stop",
        "8/8/8/8/8/8/8/K6k",
        "w",
        "-",
        "0",
        "x",
        "",
    ];
    let mut r = runner("uci", 200);
    let strategy = prop::collection::vec(
        prop::collection::vec(prop::sample::select(words), 0..8),
        1..12,
    );
    r.run(&strategy, |lines| {
        let mut text = String::new();
        for l in &lines {
            // A search is bounded so that the run stays short: any `go`
            // gets a small node limit too.
            let line = l.join(" ");
            if line.contains("go") {
                text.push_str(&format!("{line} nodes 200\n"));
            } else {
                text.push_str(&line);
                text.push('\n');
            }
        }
        text.push_str("isready\nquit\n");
        let out = Shared::default();
        tally::uci::run(std::io::Cursor::new(text.into_bytes()), out.clone());
        let out = String::from_utf8_lossy(&out.0.lock().unwrap()).into_owned();
        prop_assert!(out.contains("readyok"), "{}", out);
        Ok(())
    })
    .unwrap();
}

/// Output shared with the UCI loop's thread.
#[derive(Clone, Default)]
struct Shared(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Found by `uci_lines_never_panic_and_every_line_is_read`: a perft with
/// another field ran, and the `isready` after it got no `readyok`.
#[test]
fn a_perft_with_another_field_leaves_isready_answered() {
    let out = Shared::default();
    let text = "go perft 0 nodes 200\n\nisready\nquit\n";
    tally::uci::run(std::io::Cursor::new(text.as_bytes().to_vec()), out.clone());
    let out = String::from_utf8_lossy(&out.0.lock().unwrap()).into_owned();
    assert!(out.contains("readyok"), "{out}");
}
