//! `dynamic` and `tiebraker` (docs/rules.md, their sections): the
//! 100-point splits, every number derived by hand in a comment.

use crate::common;

use common::*;
use shakmaty::{Chess, Color};
use tally::rules::{Ending, Repetition, RepetitionKind, Rules, Variant};
use tally::scoring::{EndContext, Event, Memo, Scorer};

fn kind(r: &tally::referee::ScoreRecord) -> Option<&'static str> {
    r.ending.map(|e| e.kind().name())
}

/// Back-rank mate: Re1-e8 mates the king on g8 behind its pawns; a7 is a
/// spare black pawn for tempo.
const BACK_RANK: &str = "6k1/p4ppp/8/8/8/8/8/K3R3 w - - 0 1";
const BACK_RANK_BLACK: &str = "6k1/p4ppp/8/8/8/8/8/K3R3 b - - 0 1";

#[test]
fn dynamic_splits() {
    // Mate: 100-0 to the mater.
    let r = score(Variant::Dynamic, Some(BACK_RANK), "e1e8");
    assert_eq!(total(&r), (100.0, 0.0));
    // Resignation: 100-0 to the opponent.
    let r = score_with(&Scorer::new(Variant::Dynamic), None, "e2e4", BLACK_WINS);
    assert_eq!(total(&r), (0.0, 100.0));
    // Stalemate: 60 to the stalemating player, 40 to the stalemated.
    let r = score(
        Variant::Dynamic,
        Some("k7/2K5/8/1Q6/8/8/8/8 w - - 0 1"),
        "b5b6",
    );
    assert_eq!(total(&r), (60.0, 40.0));
    // Perpetual check by White 51-49, by Black 55-45 for Black.
    let r = score(Variant::Dynamic, Some(PERPETUAL_WHITE.0), PERPETUAL_WHITE.1);
    assert_eq!(kind(&r), Some("perpetual_check"));
    assert_eq!(total(&r), (51.0, 49.0));
    let r = score(Variant::Dynamic, Some(PERPETUAL_BLACK.0), PERPETUAL_BLACK.1);
    assert_eq!(total(&r), (45.0, 55.0));
    // Other draws 50-50: plain repetition, insufficient material.
    let r = score(
        Variant::Dynamic,
        None,
        "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8",
    );
    assert_eq!(total(&r), (50.0, 50.0));
    let r = score(
        Variant::Dynamic,
        Some("7k/8/8/1n6/8/3B4/8/4K3 w - - 0 1"),
        "d3b5",
    );
    assert_eq!(kind(&r), Some("insufficient_material"));
    assert_eq!(total(&r), (50.0, 50.0));
    // Mutual perpetual check is a draw: 50-50 (built directly).
    let rules = Rules::<Chess>::new(Variant::Dynamic);
    let ending = Ending::Repetition(Repetition {
        kind: RepetitionKind::Mutual {
            first_check: Color::White,
        },
        third_by: Color::Black,
        projected: false,
    });
    let end = Scorer::new(Variant::Dynamic).end_award(
        &Memo::default(),
        None,
        &rules.start(),
        &ending,
        &EndContext::default(),
    );
    assert_eq!(wb(&end.outcome), (50.0, 50.0));
}

#[test]
fn tiebraker_without_disk_is_dynamic() {
    let r = score(
        Variant::Tiebraker,
        Some(PERPETUAL_BLACK.0),
        PERPETUAL_BLACK.1,
    );
    assert_eq!(total(&r), (45.0, 55.0));
    let r = score(Variant::Tiebraker, Some(BACK_RANK), "e1e8");
    assert_eq!(total(&r), (100.0, 0.0));
}

#[test]
fn a_resignation_in_every_phase_is_named_a_resignation() {
    // Before a disk, with a disk offered, inside the swap window and after
    // an accept: scored as a mate by the opponent (100-0 to Black), named
    // a resignation, not a mate.
    for moves in ["a1b1", "disk", "disk swap", "disk swap a1b1", "disk a7a6"] {
        let r = score_with(
            &Scorer::new(Variant::Tiebraker),
            Some(BACK_RANK),
            moves,
            BLACK_WINS,
        );
        assert_eq!(kind(&r), Some("resignation"), "{moves}");
        assert_eq!(wb(&r.outcome), (0.0, 100.0), "{moves}");
        assert_eq!(
            r.outcome.events.iter().collect::<Vec<_>>(),
            [Event::Resignation],
            "{moves}"
        );
    }
}

#[test]
fn accept() {
    // White plays disk, Black accepts with a7a6, White (the disk player)
    // mates: 90-10.
    let r = score(Variant::Tiebraker, Some(BACK_RANK), "disk a7a6 e1e8");
    assert_eq!(kind(&r), Some("checkmate"));
    assert_eq!(total(&r), (90.0, 10.0));
    // Black plays disk, White accepts by mating: the other player mates,
    // 100-0.
    let r = score(Variant::Tiebraker, Some(BACK_RANK_BLACK), "disk e1e8");
    assert_eq!(total(&r), (100.0, 0.0));
    // After an accept, the disk player (White) resigns: a mate by the other
    // player in this phase, 100-0 to Black.
    let r = score_with(
        &Scorer::new(Variant::Tiebraker),
        Some(BACK_RANK),
        "disk a7a6",
        BLACK_WINS,
    );
    assert_eq!(kind(&r), Some("resignation"));
    assert_eq!(total(&r), (0.0, 100.0));
}

#[test]
fn swap_window() {
    // White disk, Black swaps (Black's king is now the disk), White mates
    // on the first ply of the window: scored as in dynamic, 100-0.
    let r = score(Variant::Tiebraker, Some(BACK_RANK), "disk swap e1e8");
    assert_eq!(total(&r), (100.0, 0.0));
    // The same mate on ply 21 after the swap (twenty plies of king and pawn
    // moves first, no position repeating as the pawns advance): 90-10.
    let fen = "6k1/ppp2ppp/8/8/8/8/8/4R2K w - - 0 1";
    let window = "h1h2 a7a6 h2h1 a6a5 h1h2 a5a4 h2h1 a4a3 h1h2 b7b6 h2h1 b6b5 h1h2 b5b4 \
                  h2h1 b4b3 h1h2 c7c6 h2h1 c6c5";
    let r = score(
        Variant::Tiebraker,
        Some(fen),
        &format!("disk swap {window} e1e8"),
    );
    assert_eq!(r.plies.len(), 23);
    assert_eq!(kind(&r), Some("checkmate"));
    assert_eq!(total(&r), (90.0, 10.0));
    // Without the window's last two plies White mates on ply 19 after the
    // swap, inside the window: dynamic, 100-0.
    let short = window.rsplitn(3, ' ').nth(2).unwrap_or("");
    let r = score(
        Variant::Tiebraker,
        Some(fen),
        &format!("disk swap {short} e1e8"),
    );
    assert_eq!(r.plies.len(), 21);
    assert_eq!(total(&r), (100.0, 0.0));
}

#[test]
fn restore() {
    // Black plays disk, White restores; the turn goes back to Black, who
    // plays a7a6; White (the restorer) mates: 80-20.
    let r = score(
        Variant::Tiebraker,
        Some(BACK_RANK_BLACK),
        "disk restore a7a6 e1e8",
    );
    assert_eq!(total(&r), (80.0, 20.0));
    // White plays disk, Black restores, White's king must go to a2, and
    // Qc3 stalemates it: the restorer stalemates, 60-40 for Black.
    let r = score(
        Variant::Tiebraker,
        Some("8/8/8/8/1q6/8/2k5/K7 w - - 0 1"),
        "disk restore a1a2 b4c3",
    );
    assert_eq!(kind(&r), Some("stalemate"));
    assert_eq!(total(&r), (40.0, 60.0));
    // White plays disk, Black restores, White (the first player) mates:
    // every other ending gives 100 to the first player.
    let r = score(Variant::Tiebraker, Some(BACK_RANK), "disk restore e1e8");
    assert_eq!(total(&r), (100.0, 0.0));
}
