//! `stylish` (docs/rules.md, `stylish`), every number derived by hand in a comment.

use crate::common;

use common::*;
use tally::rules::Variant::Stylish;

/// The first ply's points of a one-move game.
fn first(fen: &str, mv: &str) -> (f64, f64) {
    ply(&score(Stylish, Some(fen), mv), 1)
}

#[test]
fn spec_worked_example() {
    // Rook a7 checks, not adjacent: 110; the pawn unblocked it: +50; g6 was
    // safe and the new knight covers it: +70. The knight promotion (20) is
    // not given: the move mates. 110 + 50 + 70 = 230.
    let r = score(
        Stylish,
        Some("4K3/R4Pk1/5p2/3B4/8/8/8/7R w - - 0 1"),
        "f7f8n",
    );
    assert_eq!(ply(&r, 1), (230.0, 0.0));
    assert_eq!(events(&r, 1), ["mate", "discovered", "coverage"]);
    assert_eq!(r.ending.map(|e| e.kind().name()), Some("checkmate"));
    assert_eq!(total(&r), (230.0, 0.0));
}

#[test]
fn coverage_counts_an_undefended_own_piece_as_safe() {
    // The worked example with an undefended white bishop on g6: the black
    // king could have taken it, so g6 was safe; the new knight defends it:
    // still 110 + 50 + 70 = 230.
    let r = score(
        Stylish,
        Some("4K3/R4Pk1/5pB1/3B4/8/8/8/7R w - - 0 1"),
        "f7f8n",
    );
    assert_eq!(ply(&r, 1), (230.0, 0.0));
    assert_eq!(events(&r, 1), ["mate", "discovered", "coverage"]);
}

#[test]
fn capture_rows() {
    // Pawn takes rook: pawn row, rook column = 20.
    assert_eq!(
        first("4k3/8/8/3r4/4P3/8/8/4K3 w - - 0 1", "e4d5"),
        (20.0, 0.0)
    );
    // En passant is a pawn taking a pawn: 5.
    assert_eq!(
        first("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"),
        (5.0, 0.0)
    );
    // A pawn capturing while promoting uses the pawn row: takes rook 20,
    // plus promotion to queen 0 = 20; to knight 20 + 20 = 40.
    assert_eq!(
        first("3rk3/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8q"),
        (20.0, 0.0)
    );
    assert_eq!(
        first("3rk3/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8n"),
        (40.0, 0.0)
    );
    // Knight takes queen: bishop-or-knight row, queen column = 20.
    assert_eq!(
        first("4k3/8/8/3q4/8/4N3/8/4K3 w - - 0 1", "e3d5"),
        (20.0, 0.0)
    );
    // Bishop takes pawn: 1.
    assert_eq!(
        first("4k3/8/8/3p4/8/8/6B1/4K3 w - - 0 1", "g2d5"),
        (1.0, 0.0)
    );
    // Rook takes queen: 17.
    assert_eq!(
        first("4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1", "d1d5"),
        (17.0, 0.0)
    );
    // Queen takes rook along a diagonal (b3-c4-d5): 7; along a file: 10.
    assert_eq!(
        first("4k3/8/8/3r4/8/1Q6/8/4K3 w - - 0 1", "b3d5"),
        (7.0, 0.0)
    );
    assert_eq!(
        first("4k3/8/8/3r4/8/8/8/3QK3 w - - 0 1", "d1d5"),
        (10.0, 0.0)
    );
    // Queen takes bishop: diagonal 5, orthogonal 3.
    assert_eq!(
        first("4k3/8/8/3b4/8/1Q6/8/4K3 w - - 0 1", "b3d5"),
        (5.0, 0.0)
    );
    assert_eq!(
        first("4k3/8/8/3b4/8/8/8/3QK3 w - - 0 1", "d1d5"),
        (3.0, 0.0)
    );
    // Queen takes pawn: 0 either way.
    assert_eq!(
        first("4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1", "d1d5"),
        (0.0, 0.0)
    );
    // King takes rook: 20.
    assert_eq!(
        first("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", "e1d2"),
        (20.0, 0.0)
    );
    // Black's captures go to Black: rook takes queen 17.
    assert_eq!(
        first("3rk3/8/8/8/8/8/8/3QK3 b - - 0 1", "d8d1"),
        (0.0, 17.0)
    );
}

#[test]
fn promotion_awards() {
    // Not mating (the rook and queen check along the 8th rank, the king
    // escapes): queen 0, rook 10, bishop 20, knight 20.
    let fen = "7k/P7/8/8/8/8/8/K7 w - - 0 1";
    assert_eq!(first(fen, "a7a8q"), (0.0, 0.0));
    assert_eq!(first(fen, "a7a8r"), (10.0, 0.0));
    assert_eq!(first(fen, "a7a8b"), (20.0, 0.0));
    assert_eq!(first(fen, "a7a8n"), (20.0, 0.0));
    let r = score(Stylish, Some(fen), "a7a8r");
    assert_eq!(events(&r, 1), ["promotion"]);
}

#[test]
fn mate_table() {
    // Queen b7, adjacent to a8, guarded by Kb6: 60.
    assert_eq!(first("k7/7Q/1K6/8/8/8/8/8 w - - 0 1", "h7b7"), (60.0, 0.0));
    // Queen h8 along the 8th rank, not adjacent: 80.
    assert_eq!(first("k7/8/1K6/8/8/8/7Q/8 w - - 0 1", "h2h8"), (80.0, 0.0));
    // Rook f8 next to g8, guarded by Ba3: 90.
    assert_eq!(
        first("6k1/6pp/8/8/8/B7/8/K4R2 w - - 0 1", "f1f8"),
        (90.0, 0.0)
    );
    // Back-rank rook e8, not adjacent: 110.
    assert_eq!(
        first("6k1/5ppp/8/8/8/8/8/K3R3 w - - 0 1", "e1e8"),
        (110.0, 0.0)
    );
    // Bishop g7 next to h8, guarded by Kf6, g8 covered by Ne7: 120.
    assert_eq!(
        first("7k/4N2p/5K1B/8/8/8/8/8 w - - 0 1", "h6g7"),
        (120.0, 0.0)
    );
    // Bishop d4 on the long diagonal, not adjacent: 130.
    assert_eq!(
        first("6bk/7p/8/8/8/4B3/8/2K5 w - - 0 1", "e3d4"),
        (130.0, 0.0)
    );
    // Smothered mate by the knight on f7: 150.
    assert_eq!(
        first("6rk/6pp/8/6N1/8/8/8/K7 w - - 0 1", "g5f7"),
        (150.0, 0.0)
    );
    // Pawn g7, guarded by Kf6: 180.
    assert_eq!(
        first("6bk/7p/5KP1/8/8/8/8/8 w - - 0 1", "g6g7"),
        (180.0, 0.0)
    );
}

#[test]
fn promoted_checker_and_cancelled_promotion() {
    // a8=R mates along the 8th rank: rook not adjacent 110, promoted on the
    // mating move +50 = 160; the rook promotion award (10) is taken back.
    let r = score(Stylish, Some("7k/P5pp/8/8/8/8/8/K7 w - - 0 1"), "a7a8r");
    assert_eq!(ply(&r, 1), (160.0, 0.0));
    assert_eq!(events(&r, 1), ["mate", "promoted_mate"]);
}

#[test]
fn double_check_and_discovered_without_coverage() {
    // Nh4-g6: the knight checks (150) and uncovers the rook h1 (not
    // adjacent, 110): double check takes the smaller, 110; discovered +50.
    // The knight on g6 attacks none of g8, g7, h7: no coverage. 160.
    let r = score(Stylish, Some("6rk/6p1/8/8/7N/8/8/K6R w - - 0 1"), "h4g6");
    assert_eq!(ply(&r, 1), (160.0, 0.0));
    assert_eq!(events(&r, 1), ["double_check", "mate", "discovered"]);
}

#[test]
fn draw_formula() {
    // Stalemate, White has a queen (9), Black nothing (0): Black gets
    // (9 - 0) + max(0, 39 - 0) = 48.
    let r = score(Stylish, Some("k7/2K5/8/1Q6/8/8/8/8 w - - 0 1"), "b5b6");
    assert_eq!(r.ending.map(|e| e.kind().name()), Some("stalemate"));
    assert_eq!(outcome(&r), (0.0, 48.0));
    assert_eq!(total(&r), (0.0, 48.0));
    // Bxb5 leaves two light-squared bishops against a king: insufficient
    // material but not the bare-kings exception. Bishop takes knight 5 to
    // White; Black (force 0 against 6) gets 6 + 39 = 45.
    let r = score(Stylish, Some("7k/8/8/1n6/8/3B4/8/4KB2 w - - 0 1"), "d3b5");
    assert_eq!(
        r.ending.map(|e| e.kind().name()),
        Some("insufficient_material")
    );
    assert_eq!(outcome(&r), (0.0, 45.0));
    assert_eq!(total(&r), (5.0, 45.0));
    // Equal forces: no award (the knights dance back to the start, the
    // third occurrence ends the game).
    let r = score(Stylish, None, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8");
    assert_eq!(r.ending.map(|e| e.kind().name()), Some("repetition"));
    assert_eq!(total(&r), (0.0, 0.0));
}

#[test]
fn last_capture_50() {
    // Bxb5 leaves K+B v K: White made the last capture: 50, plus the
    // capture 5 = 55.
    let r = score(Stylish, Some("7k/8/8/1n6/8/3B4/8/4K3 w - - 0 1"), "d3b5");
    assert_eq!(outcome(&r), (50.0, 0.0));
    assert_eq!(total(&r), (55.0, 0.0));
    // Black's king takes the last pawn: K+N v K, Black made the last
    // capture: 50 + king takes pawn 3 = 53.
    let r = score(Stylish, Some("8/8/8/8/8/6k1/6P1/K1N5 b - - 0 1"), "g3g2");
    assert_eq!(total(&r), (0.0, 53.0));
    // Bare kings from the FEN, no capture in this game: nobody gets 50.
    let r = score(Stylish, Some("7k/8/8/8/8/8/8/4K3 w - - 0 1"), "");
    assert_eq!(
        r.ending.map(|e| e.kind().name()),
        Some("insufficient_material")
    );
    assert_eq!(total(&r), (0.0, 0.0));
}

#[test]
fn resignation_keeps_points() {
    // e4xd5: pawn takes pawn 5; then White resigns. The resignation pays
    // nothing: the totals stand, the ending says who won.
    let r = score_with(
        &tally::scoring::Scorer::new(Stylish),
        None,
        "e2e4 d7d5 e4d5",
        BLACK_WINS,
    );
    assert_eq!(r.ending.map(|e| e.kind().name()), Some("resignation"));
    assert_eq!(total(&r), (5.0, 0.0));
    assert!(
        r.outcome
            .events
            .contains(tally::scoring::Event::Resignation)
    );
}
