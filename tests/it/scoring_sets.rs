//! `sets` (docs/rules.md, `sets`), every number derived by hand in a comment.

use crate::common;

use common::*;
use shakmaty::Chess;
use shakmaty::Color;
use tally::rules::{Ending, Repetition, RepetitionKind, Rules, Variant};
use tally::scoring::{DrawAdvantage, EndContext, Memo, Scorer};

fn kind(r: &tally::referee::ScoreRecord) -> Option<&'static str> {
    r.ending.map(|e| e.kind().name())
}

#[test]
fn mate_and_resignation() {
    // Fool's mate: 2 to Black.
    let r = score(Variant::Sets, None, "f2f3 e7e5 g2g4 d8h4");
    assert_eq!(total(&r), (0.0, 2.0));
    // Black resigns after 1. e4: 2 to White.
    let r = score_with(&Scorer::new(Variant::Sets), None, "e2e4", WHITE_WINS);
    assert_eq!(kind(&r), Some("resignation"));
    assert_eq!(total(&r), (2.0, 0.0));
}

#[test]
fn bare_king_claim() {
    // Qxa1 bares Black; Black replies; White claims: 1 to White.
    let r = score(
        Variant::Sets,
        Some("4k3/8/8/8/8/8/8/n2QK3 w - - 0 1"),
        "d1a1 e8e7 claim",
    );
    assert_eq!(kind(&r), Some("claim"));
    assert_eq!(total(&r), (1.0, 0.0));
}

#[test]
fn mutual_bare_half() {
    // Rxb1 bares Black; Kxb1 bares White at once: 1/2 to the first barer.
    let r = score(
        Variant::Sets,
        Some("8/8/8/8/8/8/2k5/1n1RK3 w - - 0 1"),
        "d1b1 c2b1",
    );
    assert_eq!(kind(&r), Some("bare_king"));
    assert_eq!(total(&r), (0.5, 0.0));
}

#[test]
fn passed_claim_then_draw_advantage() {
    // Nxb5 bares Black; Black replies; White moves instead of claiming: the
    // right is gone, and K+N v K is now insufficient material, a plain draw:
    // 1/2 to the draw-advantage player.
    let fen = Some("4k3/8/8/1p6/8/2N5/8/4K3 w - - 0 1");
    let moves = "c3b5 e8e7 e1e2";
    let r = score_with(&sets(DrawAdvantage::Black), fen, moves, None);
    assert_eq!(kind(&r), Some("insufficient_material"));
    assert_eq!(total(&r), (0.0, 0.5));
    let r = score_with(&sets(DrawAdvantage::White), fen, moves, None);
    assert_eq!(total(&r), (0.5, 0.0));
    let r = score_with(&sets(DrawAdvantage::None), fen, moves, None);
    assert_eq!(total(&r), (0.0, 0.0));
    // While the claim is pending the game goes on.
    let r = score(Variant::Sets, fen, "c3b5 e8e7");
    assert_eq!(r.ending, None);
}

#[test]
fn stalemate_one() {
    // Qb6 stalemates Black: 1 to White.
    let r = score(
        Variant::Sets,
        Some("k7/2K5/8/1Q6/8/8/8/8 w - - 0 1"),
        "b5b6",
    );
    assert_eq!(kind(&r), Some("stalemate"));
    assert_eq!(total(&r), (1.0, 0.0));
}

#[test]
fn thirty_move_rule() {
    // The FEN's halfmove clock is 58: two quiet plies reach 60, a draw; the
    // draw advantage (Black by default) gets 1/2.
    let r = score(
        Variant::Sets,
        Some("4k3/8/8/8/8/8/8/R3K3 w - - 58 40"),
        "a1a2 e8e7",
    );
    assert_eq!(kind(&r), Some("move_rule"));
    assert_eq!(total(&r), (0.0, 0.5));
    // The same plies in chess do not end the game (100 plies there).
    let r = score(
        Variant::Chess,
        Some("4k3/8/8/8/8/8/8/R3K3 w - - 58 40"),
        "a1a2 e8e7",
    );
    assert_eq!(r.ending, None);
}

#[test]
fn perpetual_check() {
    let r = score(Variant::Sets, Some(PERPETUAL_WHITE.0), PERPETUAL_WHITE.1);
    assert_eq!(kind(&r), Some("perpetual_check"));
    assert_eq!(total(&r), (1.0, 0.0));
    let r = score(Variant::Sets, Some(PERPETUAL_BLACK.0), PERPETUAL_BLACK.1);
    assert_eq!(kind(&r), Some("perpetual_check"));
    assert_eq!(total(&r), (0.0, 1.0));
}

#[test]
fn plain_repetition_loser() {
    // The knights go out and back twice: the start position's third
    // occurrence is made by Black's 8th ply: Black loses, White gets 1/2.
    let r = score(
        Variant::Sets,
        None,
        "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8",
    );
    assert_eq!(kind(&r), Some("repetition"));
    assert_eq!(total(&r), (0.5, 0.0));
    // From 1. e4 with Black to move, the knights dance again: now White's
    // 8th ply makes the third occurrence: White loses, Black gets 1/2.
    let e4 = Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    let r = score(Variant::Sets, e4, "g8f6 g1f3 f6g8 f3g1 g8f6 g1f3 f6g8 f3g1");
    assert_eq!(kind(&r), Some("repetition"));
    assert_eq!(total(&r), (0.0, 0.5));
}

#[test]
fn mutual_perpetual_to_first_checker() {
    // Built directly: mutual perpetual check whose first check was
    // Black's: 1/2 to Black.
    let rules = Rules::<Chess>::new(Variant::Sets);
    let node = rules.start();
    let ending = Ending::Repetition(Repetition {
        kind: RepetitionKind::Mutual {
            first_check: Color::Black,
        },
        third_by: Color::White,
        projected: false,
    });
    let end = Scorer::new(Variant::Sets).end_award(
        &Memo::default(),
        None,
        &node,
        &ending,
        &EndContext::default(),
    );
    assert_eq!(wb(&end.outcome), (0.0, 0.5));
}
