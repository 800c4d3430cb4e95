//! `wacky` (docs/rules.md, `wacky`), every number derived by hand in a comment.

use crate::common;

use common::*;
use tally::referee::{GameInput, score_input};
use tally::rules::Variant::Wacky;
use tally::scoring::{EndContext, Scorer};

#[test]
fn distances_and_castling() {
    let r = score(
        Wacky,
        None,
        "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1 d8e7 d1e1 a8b8",
    );
    // Pawn double step: A 9 x 10 x 2 = 180 (both sides).
    assert_eq!(ply(&r, 1), (180.0, 0.0));
    assert_eq!(ply(&r, 2), (0.0, 180.0));
    // Knight: A 3 x 10 x 3 = 90.
    assert_eq!(ply(&r, 3), (90.0, 0.0));
    assert_eq!(ply(&r, 4), (0.0, 90.0));
    // Bishop f1-c4, 3 squares: 3 x 10 x 3 = 90.
    assert_eq!(ply(&r, 5), (90.0, 0.0));
    // Castling: the king's 2 squares, 18 x 10 x 2 = 360, + 500 = 860.
    assert_eq!(ply(&r, 7), (860.0, 0.0));
    assert_eq!(events(&r, 7), ["move", "castling"]);
    // Queen 1 square: 1 x 10 x 1 = 10.
    assert_eq!(ply(&r, 8), (0.0, 10.0));
    assert_eq!(ply(&r, 9), (10.0, 0.0));
    // Rook 1 square: 2 x 10 x 1 = 20.
    assert_eq!(ply(&r, 10), (0.0, 20.0));
    // King 1 square: 18 x 10 = 180.
    let r = score(Wacky, None, "e2e4 e7e5 e1e2");
    assert_eq!(ply(&r, 3), (180.0, 0.0));
}

#[test]
fn captures_fall_and_counter_chain() {
    let fen = "3qk3/8/5n2/3p4/4P3/2N5/8/3QK3 w - - 0 1";
    let r = score(Wacky, Some(fen), "e4d5 f6d5 c3d5 d8d5 d1d5");
    // exd5 starts the chain: move 9x10x1 = 90, capture 100x9x1 = 900, fall
    // 500x1x1.0 = 500: 1490.
    assert_eq!(ply(&r, 1), (1490.0, 0.0));
    assert_eq!(events(&r, 1), ["move", "capture", "fall"]);
    // Nxd5, 1st recapture: move 3x10x3 = 90, capture 100x3x1 = 300, fall
    // 500x1x1.5 = 750, counter 2000: 3140.
    assert_eq!(ply(&r, 2), (0.0, 3140.0));
    assert_eq!(events(&r, 2), ["move", "capture", "fall", "counter"]);
    // Nxd5, 2nd: 90 + 100x3x3 = 900 + 500x3x2.0 = 3000 + 3500: 7490.
    assert_eq!(ply(&r, 3), (7490.0, 0.0));
    // Qxd5 (3 squares), 3rd: 1x10x3 = 30 + 100x1x3 = 300 + 500x3x2.5 =
    // 3750 + 5000: 9080.
    assert_eq!(ply(&r, 4), (0.0, 9080.0));
    // Qxd5 (4 squares), 4th: 40 + 100x1x9 = 900 + 500x9x3.0 = 13500 +
    // 7000: 21440.
    assert_eq!(ply(&r, 5), (21440.0, 0.0));
    assert_eq!(total(&r), (1490.0 + 7490.0 + 21440.0, 3140.0 + 9080.0));
    assert_eq!(r.ending, None);
}

#[test]
fn counter_past_the_schedule() {
    // With a one-entry schedule the 2nd recapture is past its end:
    // 2000 + 25000 = 27000, the 3rd 52000, the 4th 77000.
    let scorer = with_rules(Wacky, "[wacky]\ncounter = [2000]\n");
    let fen = "3qk3/8/5n2/3p4/4P3/2N5/8/3QK3 w - - 0 1";
    let r = score_with(&scorer, Some(fen), "e4d5 f6d5 c3d5 d8d5 d1d5", None);
    assert_eq!(ply(&r, 2), (0.0, 3140.0));
    assert_eq!(ply(&r, 3), (7490.0 - 3500.0 + 27000.0, 0.0));
    assert_eq!(ply(&r, 4), (0.0, 9080.0 - 5000.0 + 52000.0));
    assert_eq!(ply(&r, 5), (21440.0 - 7000.0 + 77000.0, 0.0));
    // The default schedule past its 10th step: 75000 + 25000 per step.
    let t = Scorer::new(Wacky).tables().wacky.clone();
    assert_eq!(t.counter_award(1), pts(2000.0));
    assert_eq!(t.counter_award(10), pts(75000.0));
    assert_eq!(t.counter_award(11), pts(100_000.0));
    assert_eq!(t.counter_award(12), pts(125_000.0));
    assert_eq!(t.combination_award(2), pts(1000.0));
    assert_eq!(t.combination_award(10), pts(35000.0));
    assert_eq!(t.combination_award(11), pts(50000.0));
    assert_eq!(t.combination_award(12), pts(65000.0));
}

#[test]
fn combination_run() {
    let fen = "8/p1p1p3/8/7k/8/8/8/R6K w - - 0 1";
    let r = score(Wacky, Some(fen), "a1a7 h5h4 a7c7 h4g4 c7e7");
    // Rxa7 (6 squares): 2x10x6 = 120 + 100x2x1 = 200 + fall 500: 820.
    assert_eq!(ply(&r, 1), (820.0, 0.0));
    // King move: 180.
    assert_eq!(ply(&r, 2), (0.0, 180.0));
    // Rxc7, 2nd hit: 40 + 200 + 500x1x1.5 = 750 + 1000: 1990.
    assert_eq!(ply(&r, 3), (1990.0, 0.0));
    assert_eq!(events(&r, 3), ["move", "capture", "fall", "combination"]);
    // Rxe7, 3rd hit: 40 + 200 + 500x1x2.0 = 1000 + 2500: 3740.
    assert_eq!(ply(&r, 5), (3740.0, 0.0));
    // With a one-entry schedule the 3rd hit is past its end: 1000 + 15000.
    let scorer = with_rules(Wacky, "[wacky]\ncombination = [1000]\n");
    let r = score_with(&scorer, Some(fen), "a1a7 h5h4 a7c7 h4g4 c7e7", None);
    assert_eq!(ply(&r, 5), (3740.0 - 2500.0 + 16000.0, 0.0));
}

#[test]
fn en_passant_and_check() {
    let r = score(Wacky, None, "e2e4 a7a6 e4e5 d7d5 e5d6");
    // exd6 e.p.: move 90 + capture 900 + en passant 1000 + fall 500 = 2490.
    assert_eq!(ply(&r, 5), (2490.0, 0.0));
    assert_eq!(events(&r, 5), ["move", "capture", "en_passant", "fall"]);
    // Qh5+ (4 squares): 40 + check 5000 = 5040.
    let r = score(Wacky, None, "e2e4 f7f6 d1h5");
    assert_eq!(ply(&r, 3), (5040.0, 0.0));
    assert_eq!(events(&r, 3), ["move", "check"]);
}

#[test]
fn mate_and_end_bonuses() {
    let r = score(Wacky, None, "f2f3 e7e5 g2g4 d8h4");
    // f3 90, e5 180, g4 180; Qh4# (4 squares): 40 + 25000 (check plus mate).
    assert_eq!(ply(&r, 1), (90.0, 0.0));
    assert_eq!(ply(&r, 4), (0.0, 25040.0));
    assert_eq!(events(&r, 4), ["move", "mate"]);
    // Life: Black has everything, 8 + 6 + 6 + 10 + 9 + 4 = 43, rate
    // 10000: 430000. Moves: 2, rate 10000: (50 - 2) x 10000 = 480000. No
    // clock, no time bonus. 910000.
    assert_eq!(outcome(&r), (0.0, 910_000.0));
    assert_eq!(total(&r), (270.0, 180.0 + 25040.0 + 910_000.0));
    // With a clock: Black's last clock 0:10:05 = 605 s: one 10-minute block
    // 50000 and five seconds 250: 50250 more.
    let mut input = GameInput::from_text(None, "f2f3 e7e5 g2g4 d8h4");
    input.clocks = vec![Some(590), Some(599), Some(580), Some(605)];
    let r = score_input(&Scorer::new(Wacky), &input).unwrap();
    assert_eq!(outcome(&r), (0.0, 960_250.0));
}

#[test]
fn bonus_tables() {
    let t = Scorer::new(Wacky).tables().wacky.clone();
    // Life L x rate: 25 x 1000, 26 x 2000, 40 x 3000, 41 x 5000, 43 x
    // 10000, 44 x 20000.
    assert_eq!(t.life_bonus(25), pts(25_000.0));
    assert_eq!(t.life_bonus(26), pts(52_000.0));
    assert_eq!(t.life_bonus(40), pts(120_000.0));
    assert_eq!(t.life_bonus(41), pts(205_000.0));
    assert_eq!(t.life_bonus(43), pts(430_000.0));
    assert_eq!(t.life_bonus(44), pts(880_000.0));
    // Moves (50 - m) x rate: 49 -> 500, 40 -> 5000, 39 -> 7700, 20 ->
    // 30000, 19 -> 62000, 10 -> 140000, 9 -> 205000, 4 -> 230000, 3 ->
    // 470000, 50 -> 0.
    for (m, b) in [
        (49, 500.0),
        (40, 5000.0),
        (39, 7700.0),
        (20, 30000.0),
        (19, 62000.0),
        (10, 140_000.0),
        (9, 205_000.0),
        (4, 230_000.0),
        (3, 470_000.0),
        (50, 0.0),
        (80, 0.0),
    ] {
        assert_eq!(t.moves_bonus(m), pts(b), "m = {m}");
    }
    // Time 1:23:45 = 5025 s: 400000 + 2 x 50000 + 3 x 4000 + 4 x 600 + 5 x
    // 50 = 514650.
    assert_eq!(t.time_bonus(5025), pts(514_650.0));
}

#[test]
fn no_end_bonus_without_mate() {
    // Resignation: no end bonus, only the e4 move (180).
    let r = score_with(&Scorer::new(Wacky), None, "e2e4", BLACK_WINS);
    assert_eq!(r.ending.map(|e| e.kind().name()), Some("resignation"));
    assert_eq!(outcome(&r), (0.0, 0.0));
    assert_eq!(total(&r), (180.0, 0.0));
    // A draw by repetition: no outcome award; eight knight moves of 90.
    let r = score(Wacky, None, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8");
    assert_eq!(outcome(&r), (0.0, 0.0));
    assert_eq!(total(&r), (360.0, 360.0));
    // A position that is mate on arrival was not mated in this game.
    let r = score(
        Wacky,
        Some("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"),
        "",
    );
    assert_eq!(r.ending.map(|e| e.kind().name()), Some("checkmate"));
    assert_eq!(total(&r), (0.0, 0.0));
    let _ = EndContext::default();
}
