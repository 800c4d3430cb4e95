//! `chess` and `extinction`: the board result, 1 / 1/2 / 0, derived by
//! hand in comments.

use crate::common;

use common::*;
use tally::rules::Variant;
use tally::scoring::Scorer;

fn kind(r: &tally::referee::ScoreRecord) -> Option<&'static str> {
    r.ending.map(|e| e.kind().name())
}

#[test]
fn chess_results() {
    // Fool's mate: 0-1.
    let r = score(Variant::Chess, None, "f2f3 e7e5 g2g4 d8h4");
    assert_eq!(total(&r), (0.0, 1.0));
    // Repetition: 1/2 each.
    let r = score(
        Variant::Chess,
        None,
        "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8",
    );
    assert_eq!(total(&r), (0.5, 0.5));
    // Resignation: 1-0; a draw result on a running game is ignored.
    let r = score_with(&Scorer::new(Variant::Chess), None, "e2e4", WHITE_WINS);
    assert_eq!(total(&r), (1.0, 0.0));
    let r = score_with(
        &Scorer::new(Variant::Chess),
        None,
        "e2e4",
        Some(shakmaty::KnownOutcome::Draw),
    );
    assert_eq!(r.ending, None);
    assert_eq!(total(&r), (0.0, 0.0));
    // A running game: no outcome.
    let r = score(Variant::Chess, None, "e2e4 e7e5");
    assert_eq!(r.ending, None);
}

// Both sides have one piece of each type in these positions.

#[test]
fn extinction_king_captured() {
    // Rxe8 takes Black's only king: Black is extinct, White wins 1-0.
    let r = score(
        Variant::Extinction,
        Some("rnbqk3/7p/8/8/8/8/4R2P/1NBQK3 w - - 0 1"),
        "e2e8",
    );
    assert_eq!(kind(&r), Some("extinction"));
    assert_eq!(total(&r), (1.0, 0.0));
}

#[test]
fn extinction_last_pawn_promoted_loses() {
    // g8=Q uses up White's only pawn: White is extinct, Black is not:
    // Black wins.
    let r = score(
        Variant::Extinction,
        Some("rnbqk3/6P1/7p/8/8/8/8/RNBQK3 w - - 0 1"),
        "g7g8q",
    );
    assert_eq!(kind(&r), Some("extinction"));
    assert_eq!(total(&r), (0.0, 1.0));
}

#[test]
fn extinction_mutual_won_by_mover() {
    // gxh8=Q takes Black's only knight with White's only pawn: both are
    // extinct, the mover (White) wins.
    let r = score(
        Variant::Extinction,
        Some("r1bqk2n/6P1/7p/8/8/8/8/RNBQK3 w - - 0 1"),
        "g7h8q",
    );
    assert_eq!(kind(&r), Some("extinction"));
    assert_eq!(
        r.ending.and_then(|e| e.winner()),
        Some(shakmaty::Color::White)
    );
    assert_eq!(total(&r), (1.0, 0.0));
}
