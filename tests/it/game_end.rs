//! Game end through `tally::rules::Game`, for every ending kind in every
//! variant where it applies: checkmate, stalemate, extinction, threefold
//! repetition (plain, perpetual, mutual perpetual), the move-count rules,
//! insufficient material, the sets bare-king procedure and the tiebraker
//! disk, plus the typed errors for special actions a variant lacks, illegal
//! or unparsable actions and bad FENs.

use shakmaty::{Chess, Color, Position, Role};
use tally::rules::{
    Action, ActionList, Bare, Disk, Ending, EndingKind, Extinction, Game, HistoryEntry, Pos,
    Repetition, RepetitionKind, Rules, RulesError, Variant, find_repetition,
};

/// The variants played on standard chess rules.
const STANDARD_BOARD: [Variant; 6] = [
    Variant::Chess,
    Variant::Stylish,
    Variant::Wacky,
    Variant::Sets,
    Variant::Dynamic,
    Variant::Tiebraker,
];

fn play<P: Pos>(game: &mut Game<P>, moves: &str) {
    for m in moves.split_whitespace() {
        game.play_text(m)
            .unwrap_or_else(|e| panic!("{m} after {:?}: {e}", texts(game.actions())));
    }
}

fn texts(actions: &[Action]) -> Vec<String> {
    actions.iter().map(|a| a.to_string()).collect()
}

/// A standard-board game in `variant` from `fen` (or the start) after
/// `moves`.
fn chess(variant: Variant, fen: Option<&str>, moves: &str) -> Game<Chess> {
    let mut game = Game::new(Rules::new(variant), fen).expect("valid FEN");
    play(&mut game, moves);
    game
}

/// An extinction game from `fen` (or the start) after `moves`.
fn extinction(fen: Option<&str>, moves: &str) -> Game<Extinction> {
    let mut game = Game::new(Rules::new(Variant::Extinction), fen).expect("valid FEN");
    play(&mut game, moves);
    game
}

/// The legal actions now, as sorted text.
fn legal<P: Pos>(game: &Game<P>) -> Vec<String> {
    let mut out = texts(&game.legal_actions());
    out.sort();
    out
}

fn illegal(action: &str, reason: &str) -> RulesError {
    RulesError::IllegalAction {
        action: action.to_owned(),
        reason: reason.to_owned(),
    }
}

const FOOLS_MATE: &str = "f2f3 e7e5 g2g4 d8h4";
const SCHOLARS_MATE: &str = "e2e4 e7e5 f1c4 b8c6 d1h5 g8f6 h5f7";

// ---------------------------------------------------------------------------
// Checkmate and stalemate.

#[test]
fn checkmate_ends_every_standard_board_variant() {
    for v in STANDARD_BOARD {
        let mut game = chess(v, None, FOOLS_MATE);
        assert_eq!(
            game.ending(),
            Some(Ending::Checkmate {
                winner: Color::Black
            }),
            "{v}"
        );
        assert!(game.legal_actions().is_empty(), "{v}");
        assert_eq!(
            game.play_text("a2a3"),
            Err(RulesError::GameOver("checkmate, Black wins".to_owned())),
            "{v}"
        );
        let game = chess(v, None, SCHOLARS_MATE);
        assert_eq!(
            game.ending(),
            Some(Ending::Checkmate {
                winner: Color::White
            }),
            "{v}"
        );
    }
}

#[test]
fn extinction_has_no_check_the_king_is_captured_instead() {
    let mut game = extinction(None, FOOLS_MATE);
    assert_eq!(game.ending(), None);
    assert!(!game.current().check);
    // Mate in chess; here White has all 19 moves, Kf2 into the queen's
    // line included.
    assert_eq!(game.legal_actions().len(), 19);
    assert!(legal(&game).contains(&"e1f2".to_owned()));
    play(&mut game, "a2a3 h4e1");
    assert_eq!(
        game.ending(),
        Some(Ending::Extinction {
            winner: Color::Black
        })
    );
    assert!(game.current().pos.extinct(Color::White));
    assert!(!game.current().pos.extinct(Color::Black));
}

#[test]
fn stalemate_ends_every_standard_board_variant() {
    for v in STANDARD_BOARD {
        let mut game = chess(v, Some("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1"), "f1f7");
        assert_eq!(
            game.ending(),
            Some(Ending::Stalemate {
                stalemated: Color::Black
            }),
            "{v}"
        );
        // The rules offer nothing either: a stalemated player cannot `disk`.
        let mut list = ActionList::new();
        game.rules().legal_actions(game.current(), &mut list);
        assert!(list.is_empty(), "{v}");
        assert_eq!(
            game.play_text("disk"),
            Err(RulesError::GameOver(
                "stalemate, Black has no move".to_owned()
            )),
            "{v}"
        );
    }
}

/// Extinction: no legal move is a draw. Every black piece is walled in by
/// its own pieces or by pawns it cannot take.
#[test]
fn stalemate_in_extinction() {
    let game = extinction(
        Some("qbnkrb2/prprp1p1/PpPpP1P1/1P1P4/8/8/8/RNBQK3 w - - 0 1"),
        "e1f1",
    );
    assert_eq!(
        game.ending(),
        Some(Ending::Stalemate {
            stalemated: Color::Black
        })
    );
    assert!(!game.current().pos.extinct(Color::Black));
    assert!(!game.current().pos.extinct(Color::White));
}

// ---------------------------------------------------------------------------
// Extinction.

#[test]
fn extinction_by_capturing_the_king() {
    let game = extinction(None, "e2e3 f7f6 d1h5 e8f7 h5f7");
    assert_eq!(
        game.ending(),
        Some(Ending::Extinction {
            winner: Color::White
        })
    );
    assert!(game.current().pos.extinct(Color::Black));
    assert!(game.legal_actions().is_empty());
}

/// White's last pawn takes Black's last rook: both sides are extinct and
/// the mover wins, whatever it promotes to.
#[test]
fn mutual_extinction_is_won_by_the_mover() {
    for promotion in ["q", "r", "b", "n", "k"] {
        let game = extinction(
            Some("r3k3/1P1nbqp1/8/8/8/8/8/RNBQK3 w - - 0 1"),
            &format!("b7a8{promotion}"),
        );
        assert!(game.current().pos.extinct(Color::White));
        assert!(game.current().pos.extinct(Color::Black));
        assert_eq!(
            game.ending(),
            Some(Ending::Extinction {
                winner: Color::White
            }),
            "{promotion}"
        );
    }
    // The same with Black moving.
    let game = extinction(Some("rnbqk3/8/8/8/8/8/1p1NBQP1/R3K3 b - - 0 1"), "b2a1q");
    assert_eq!(
        game.ending(),
        Some(Ending::Extinction {
            winner: Color::Black
        })
    );
}

#[test]
fn promoting_the_last_pawn_loses() {
    let game = extinction(Some("r3k3/1P1nbqp1/8/8/8/8/8/RNBQK3 w - - 0 1"), "b7b8q");
    assert!(game.current().pos.extinct(Color::White));
    assert!(!game.current().pos.extinct(Color::Black));
    assert_eq!(
        game.ending(),
        Some(Ending::Extinction {
            winner: Color::Black
        })
    );
}

/// A type absent from the start FEN: over on arrival, judged as if the side
/// not to move had just moved.
#[test]
fn missing_type_in_the_start_fen_is_over_on_arrival() {
    let cases = [
        // Black has no queen: White (to move) wins.
        (
            "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            Color::White,
        ),
        // Black to move and without a queen: Black loses.
        (
            "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
            Color::White,
        ),
        // White to move and without a queen: White loses.
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1",
            Color::Black,
        ),
        // Both extinct: the side to move loses.
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", Color::Black),
        ("4k3/8/8/8/8/8/8/4K3 b - - 0 1", Color::White),
    ];
    for (fen, winner) in cases {
        let mut game = extinction(Some(fen), "");
        assert_eq!(game.ending(), Some(Ending::Extinction { winner }), "{fen}");
        assert!(game.legal_actions().is_empty(), "{fen}");
        assert!(
            matches!(game.play_text("e2e4"), Err(RulesError::GameOver(_))),
            "{fen}"
        );
    }
}

// ---------------------------------------------------------------------------
// Repetition.

/// All seven variants: the start position occurs for the third time after
/// Black's eighth ply.
#[test]
fn threefold_repetition_plain() {
    let shuffle = "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1";
    let want = Some(Ending::Repetition(Repetition {
        kind: RepetitionKind::Plain,
        third_by: Color::Black,
        projected: false,
    }));
    for v in STANDARD_BOARD {
        let mut game = chess(v, None, shuffle);
        assert_eq!(game.ending(), None, "{v}");
        play(&mut game, "f6g8");
        assert_eq!(game.ending(), want, "{v}");
    }
    let mut game = extinction(None, shuffle);
    assert_eq!(game.ending(), None);
    play(&mut game, "f6g8");
    assert_eq!(game.ending(), want);
}

/// The position after 1.e4 (Black to move) is the one that occurs three
/// times first, so White's move makes the third occurrence.
#[test]
fn threefold_repetition_made_by_white() {
    let mut game = chess(
        Variant::Chess,
        None,
        "e2e4 g8f6 g1f3 f6g8 f3g1 g8f6 g1f3 f6g8",
    );
    assert_eq!(game.ending(), None);
    play(&mut game, "f3g1");
    assert_eq!(
        game.ending(),
        Some(Ending::Repetition(Repetition {
            kind: RepetitionKind::Plain,
            third_by: Color::White,
            projected: false,
        }))
    );
    assert_eq!(
        game.ending().map(|e| e.kind()),
        Some(EndingKind::Repetition)
    );
}

/// After c2c4 Black could take en passant, so that position differs from
/// its later repetitions without the right: no threefold after nine plies.
#[test]
fn en_passant_right_is_part_of_the_repetition() {
    let fen = "4k3/8/8/8/3p4/8/2P5/4K3 w - - 0 1";
    let moves = "c2c4 e8d8 e1d1 d8e8 d1e1 e8d8 e1d1 d8e8 d1e1";
    let mut game = chess(Variant::Chess, Some(fen), moves);
    assert_eq!(game.ending(), None);
    play(&mut game, "e8d8");
    assert_eq!(
        game.ending(),
        Some(Ending::Repetition(Repetition {
            kind: RepetitionKind::Plain,
            third_by: Color::Black,
            projected: false,
        }))
    );
}

/// White checks on every move of the span (e8 and e4 against g8 and h7).
#[test]
fn perpetual_check_by_white() {
    let fen = "6k1/5pp1/8/8/8/8/5PPP/4Q1K1 w - - 0 1";
    for v in STANDARD_BOARD {
        let mut game = chess(v, Some(fen), "e1e8 g8h7 e8e4 h7g8 e4e8 g8h7 e8e4 h7g8");
        assert_eq!(game.ending(), None, "{v}");
        play(&mut game, "e4e8");
        assert_eq!(
            game.ending(),
            Some(Ending::Repetition(Repetition {
                kind: RepetitionKind::Perpetual { by: Color::White },
                third_by: Color::White,
                projected: false,
            })),
            "{v}"
        );
        assert_eq!(
            game.ending().map(|e| e.kind().name()),
            Some("perpetual_check")
        );
    }
}

#[test]
fn perpetual_check_by_black() {
    let fen = "4q1k1/5ppp/8/8/8/8/5PP1/6K1 b - - 0 1";
    for v in STANDARD_BOARD {
        let mut game = chess(v, Some(fen), "e8e1 g1h2 e1e5 h2g1 e5e1 g1h2 e1e5 h2g1");
        assert_eq!(game.ending(), None, "{v}");
        play(&mut game, "e5e1");
        assert_eq!(
            game.ending(),
            Some(Ending::Repetition(Repetition {
                kind: RepetitionKind::Perpetual { by: Color::Black },
                third_by: Color::Black,
                projected: false,
            })),
            "{v}"
        );
    }
}

/// Mutual perpetual check, classified on a history. A legal game where
/// every move of both sides gives check and a position repeats needs an
/// unusual construction (an exhaustive search of king and piece against
/// king and piece, and a random search with up to 14 pieces, found no such
/// cycle within 8 plies), so the classifier `Game` uses is driven directly.
/// Every entry after the first occurrence is a check; the first check of the
/// span is by the side that moved first in it.
#[test]
fn mutual_perpetual_check_first_check() {
    let entry = |key, check| HistoryEntry {
        key,
        check,
        zeroing: false,
    };
    // Positions 1..=9; the key of position 1 recurs at 5 and 9. Position 1
    // has Black to move, so the span's first action (to position 2) is
    // Black's.
    let mut history = vec![HistoryEntry {
        key: 100,
        check: false,
        zeroing: true,
    }];
    for (i, key) in [1, 2, 3, 4, 1, 2, 3, 4, 1].into_iter().enumerate() {
        history.push(entry(key, i > 0));
    }
    // After position 9 (White's action) Black is to move.
    assert_eq!(
        find_repetition(&history, Color::Black),
        Some(Repetition {
            kind: RepetitionKind::Mutual {
                first_check: Color::Black
            },
            third_by: Color::White,
            projected: false,
        })
    );
    // One unchecked white action in the span (to position 3): perpetual
    // check by Black.
    history[3].check = false;
    assert_eq!(
        find_repetition(&history, Color::Black),
        Some(Repetition {
            kind: RepetitionKind::Perpetual { by: Color::Black },
            third_by: Color::White,
            projected: false,
        })
    );
    // And the kind's name.
    let mutual = Ending::Repetition(Repetition {
        kind: RepetitionKind::Mutual {
            first_check: Color::White,
        },
        third_by: Color::Black,
        projected: false,
    });
    assert_eq!(mutual.kind().name(), "mutual_perpetual_check");
}

// ---------------------------------------------------------------------------
// Move-count rules.

/// 100 plies without a capture or pawn move, counting the FEN's halfmove
/// field (96 here); 60 in sets.
#[test]
fn fifty_move_rule_counts_the_fen_clock() {
    for v in STANDARD_BOARD {
        if v == Variant::Sets {
            continue;
        }
        let mut game = chess(
            v,
            Some("4k3/8/8/8/8/8/8/R3K3 w - - 96 60"),
            "a1a2 e8d8 a2a3",
        );
        assert_eq!(game.ending(), None, "{v}");
        play(&mut game, "d8e8");
        assert_eq!(game.current().pos.halfmoves(), 100);
        assert_eq!(game.ending(), Some(Ending::MoveRule), "{v}");
    }
    // Extinction too.
    let mut game = extinction(
        Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 98 60"),
        "g1f3",
    );
    assert_eq!(game.ending(), None);
    play(&mut game, "g8f6");
    assert_eq!(game.ending(), Some(Ending::MoveRule));
}

#[test]
fn thirty_move_rule_in_sets() {
    let fen = "4k3/8/8/8/8/8/8/R3K3 w - - 56 60";
    let mut game = chess(Variant::Sets, Some(fen), "a1a2 e8d8 a2a3");
    assert_eq!(game.ending(), None);
    play(&mut game, "d8e8");
    assert_eq!(game.current().pos.halfmoves(), 60);
    assert_eq!(game.ending(), Some(Ending::MoveRule));
    // 60 plies are nothing special in chess.
    let game = chess(Variant::Chess, Some(fen), "a1a2 e8d8 a2a3 d8e8");
    assert_eq!(game.ending(), None);
}

#[test]
fn move_rule_details() {
    // Already over on arrival.
    let game = chess(
        Variant::Chess,
        Some("4k3/8/8/8/8/8/8/R3K3 w - - 100 80"),
        "",
    );
    assert_eq!(game.ending(), Some(Ending::MoveRule));
    let game = chess(Variant::Sets, Some("4k3/8/8/8/8/8/8/R3K3 w - - 60 80"), "");
    assert_eq!(game.ending(), Some(Ending::MoveRule));
    // A capture on the 100th ply resets the clock.
    let game = chess(
        Variant::Chess,
        Some("4k3/8/8/8/8/8/p7/R3K3 w - - 99 80"),
        "a1a2",
    );
    assert_eq!(game.current().pos.halfmoves(), 0);
    assert_eq!(game.ending(), None);
    // Checkmate on the 100th ply comes first.
    let game = chess(
        Variant::Chess,
        Some("6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80"),
        "a1a8",
    );
    assert_eq!(game.current().pos.halfmoves(), 100);
    assert_eq!(
        game.ending(),
        Some(Ending::Checkmate {
            winner: Color::White
        })
    );
}

// ---------------------------------------------------------------------------
// Insufficient material.

#[test]
fn insufficient_material_the_three_cases() {
    let insufficient = [
        // King against king, on arrival.
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        // King and bishop, king and knight against a lone king.
        "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/1N2K3 b - - 0 1",
        "4k3/8/8/8/8/8/8/4K1n1 w - - 0 1",
        // Kings and bishops, all on dark squares (c1, e3, f8).
        "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1",
        "4kb2/8/8/8/8/4B3/8/2B1K3 w - - 0 1",
        // ... all on light squares (f1, c8).
        "2b1k3/8/8/8/8/8/8/4KB2 w - - 0 1",
    ];
    let sufficient = [
        // Bishops on both colours (c1 dark, c8 light).
        "2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1",
        // Two knights, knight against knight, bishop against knight, a pawn.
        "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1",
        "4kn2/8/8/8/8/8/8/1N2K3 w - - 0 1",
        "4kn2/8/8/8/8/8/8/2B1K3 w - - 0 1",
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
    ];
    for v in STANDARD_BOARD {
        for fen in insufficient {
            let game = chess(v, Some(fen), "");
            assert_eq!(
                game.ending(),
                Some(Ending::InsufficientMaterial),
                "{v} {fen}"
            );
        }
        for fen in sufficient {
            let game = chess(v, Some(fen), "");
            assert_eq!(game.ending(), None, "{v} {fen}");
        }
        // Reached by a capture: K x R leaves king against king. In sets the
        // capturer is bare too, so no claim procedure starts.
        let game = chess(v, Some("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1"), "e1d2");
        assert_eq!(game.ending(), Some(Ending::InsufficientMaterial), "{v}");
        assert_eq!(game.current().extra.bare, Bare::None, "{v}");
    }
}

/// Extinction has no insufficient-material rule: a lone king there is an
/// extinct side instead.
#[test]
fn extinction_has_no_insufficient_material() {
    assert!(!Variant::Extinction.has_insufficient_material());
    let game = extinction(Some("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1"), "");
    assert_eq!(
        game.ending(),
        Some(Ending::Extinction {
            winner: Color::Black
        })
    );
    let game = extinction(None, "");
    assert!(!game.rules().insufficient_material(game.current()));
}

// ---------------------------------------------------------------------------
// Sets: the bare king.

const BARE_FEN: &str = "4k3/8/8/8/8/8/3n4/3RK3 w - - 0 1";

#[test]
fn sets_bare_king_reply_then_claim() {
    let mut game = chess(Variant::Sets, Some(BARE_FEN), "d1d2");
    assert_eq!(
        game.current().extra.bare,
        Bare::Reply {
            barer: Color::White
        }
    );
    assert_eq!(game.ending(), None);
    assert_eq!(legal(&game), ["e8e7", "e8f7", "e8f8"]);
    play(&mut game, "e8f8");
    assert_eq!(
        game.current().extra.bare,
        Bare::Claim {
            barer: Color::White
        }
    );
    let actions = game.legal_actions();
    assert_eq!(actions.len(), 19);
    assert_eq!(actions.last(), Some(&Action::Claim));
    play(&mut game, "claim");
    assert_eq!(
        game.ending(),
        Some(Ending::Claim {
            claimer: Color::White
        })
    );
    assert_eq!(game.ending().and_then(|e| e.winner()), Some(Color::White));
    assert!(game.legal_actions().is_empty());
    assert!(matches!(
        game.play_text("d2d3"),
        Err(RulesError::GameOver(_))
    ));
}

#[test]
fn sets_a_move_instead_of_the_claim_loses_the_right() {
    let mut game = chess(Variant::Sets, Some(BARE_FEN), "d1d2 e8f8 d2d3");
    assert_eq!(game.current().extra.bare, Bare::Done);
    assert_eq!(game.ending(), None);
    play(&mut game, "f8e8");
    assert!(!game.legal_actions().contains(&Action::Claim));
    assert_eq!(
        game.play_text("claim"),
        Err(illegal("claim", "'claim' is not allowed in this position"))
    );
}

#[test]
fn sets_mutual_bare_kings() {
    let mut game = chess(
        Variant::Sets,
        Some("7K/8/8/8/8/3k4/3n4/3R4 w - - 0 1"),
        "d1d2",
    );
    assert_eq!(
        game.current().extra.bare,
        Bare::Reply {
            barer: Color::White
        }
    );
    play(&mut game, "d3d2");
    // Mutual bare comes before insufficient material (king against king).
    assert_eq!(
        game.ending(),
        Some(Ending::MutualBare {
            first: Color::White
        })
    );
    assert_eq!(game.ending().map(|e| e.kind().name()), Some("bare_king"));
    // In chess the same moves end by insufficient material.
    let game = chess(
        Variant::Chess,
        Some("7K/8/8/8/8/3k4/3n4/3R4 w - - 0 1"),
        "d1d2 d3d2",
    );
    assert_eq!(game.ending(), Some(Ending::InsufficientMaterial));
}

/// K+N v K right after the baring capture: no draw while the reply and the
/// claim are pending; once the right passes, insufficient material ends it.
#[test]
fn sets_insufficient_material_waits_for_the_claim() {
    let fen = "4k3/8/8/8/8/8/5r2/3NK3 w - - 0 1";
    let mut game = chess(Variant::Sets, Some(fen), "d1f2");
    assert_eq!(game.ending(), None);
    play(&mut game, "e8d7");
    assert_eq!(game.ending(), None);
    assert!(game.legal_actions().contains(&Action::Claim));
    let mut claimed = game.clone();
    play(&mut claimed, "claim");
    assert_eq!(
        claimed.ending(),
        Some(Ending::Claim {
            claimer: Color::White
        })
    );
    play(&mut game, "f2e4");
    assert_eq!(game.current().extra.bare, Bare::Done);
    assert_eq!(game.ending(), Some(Ending::InsufficientMaterial));
    // Chess draws at once.
    let game = chess(Variant::Chess, Some(fen), "d1f2");
    assert_eq!(game.ending(), Some(Ending::InsufficientMaterial));
}

#[test]
fn sets_checkmate_on_the_baring_move_comes_first() {
    let game = chess(
        Variant::Sets,
        Some("k7/1n6/1K6/8/8/8/8/7Q w - - 0 1"),
        "h1b7",
    );
    assert_eq!(
        game.ending(),
        Some(Ending::Checkmate {
            winner: Color::White
        })
    );
}

#[test]
fn sets_no_claim_for_a_side_bare_from_the_start() {
    let game = chess(
        Variant::Sets,
        Some("4k3/8/8/8/8/8/8/2Q1K3 w - - 0 1"),
        "c1c2 e8d8",
    );
    assert_eq!(game.current().extra.bare, Bare::None);
    assert!(!game.legal_actions().contains(&Action::Claim));
    assert_eq!(game.ending(), None);
}

// ---------------------------------------------------------------------------
// Tiebraker: the disk.

fn tiebraker(fen: Option<&str>, moves: &str) -> Game<Chess> {
    chess(Variant::Tiebraker, fen, moves)
}

#[test]
fn disk_is_not_allowed_in_check() {
    let mut game = tiebraker(None, "e2e4 f7f6 d1h5");
    assert!(game.current().check);
    assert!(!game.legal_actions().contains(&Action::Disk));
    assert_eq!(
        game.play_text("disk"),
        Err(illegal("disk", "'disk' is not allowed in this position"))
    );
    // Out of check it is.
    play(&mut game, "g7g6");
    assert!(game.legal_actions().contains(&Action::Disk));
}

#[test]
fn disk_accept_swap_restore() {
    let game = tiebraker(None, "g1f3 disk");
    assert_eq!(
        game.current().extra.disk,
        Disk::Offered { by: Color::Black }
    );
    assert_eq!(game.current().turn(), Color::White);
    // Special actions keep the halfmove clock and advance the move number
    // after Black.
    assert_eq!(game.current().pos.halfmoves(), 1);
    assert_eq!(game.current().pos.fullmoves().get(), 2);
    // The answer: one of White's 22 moves after 1.Nf3 (accepting), swap or
    // restore; no second disk.
    let actions = game.legal_actions();
    assert_eq!(actions.len(), 24);
    assert_eq!(&actions[22..], &[Action::Swap, Action::Restore]);

    let accepted = tiebraker(None, "g1f3 disk e2e4");
    assert_eq!(
        accepted.current().extra.disk,
        Disk::Accepted { disk: Color::Black }
    );
    assert_eq!(accepted.current().turn(), Color::Black);

    let swapped = tiebraker(None, "g1f3 disk swap");
    assert_eq!(
        swapped.current().extra.disk,
        Disk::Swapped {
            disk: Color::White,
            plies: 0
        }
    );
    assert_eq!(swapped.current().turn(), Color::Black);

    let restored = tiebraker(None, "g1f3 disk restore");
    assert_eq!(
        restored.current().extra.disk,
        Disk::Restored {
            first: Color::Black
        }
    );
    // The turn passes back to the first player.
    assert_eq!(restored.current().turn(), Color::Black);
    assert_eq!(restored.current().extra.disk.disk_holder(), None);

    // White's disk.
    let game = tiebraker(None, "disk");
    assert_eq!(
        game.current().extra.disk,
        Disk::Offered { by: Color::White }
    );
    assert_eq!(game.current().turn(), Color::Black);
    let game = tiebraker(None, "disk swap");
    assert_eq!(
        game.current().extra.disk,
        Disk::Swapped {
            disk: Color::Black,
            plies: 0
        }
    );
    assert_eq!(game.current().turn(), Color::White);
}

#[test]
fn disk_clears_the_en_passant_right() {
    let game = tiebraker(None, "e2e4 a7a6 e4e5 d7d5");
    assert_eq!(game.current().key_ep, Some(shakmaty::Square::D6));
    let game = tiebraker(None, "e2e4 a7a6 e4e5 d7d5 disk");
    assert_eq!(game.current().pos.maybe_ep_square(), None);
    assert_eq!(game.current().key_ep, None);
}

/// The disk king neither moves nor castles, after an accept (White's
/// disk) and after a swap (Black's king).
#[test]
fn frozen_king_cannot_move_or_castle() {
    let fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
    // Before the disk: 16 pawn moves, 5 rook moves, Kd1, Kf1, two castlings,
    // and disk.
    assert_eq!(tiebraker(Some(fen), "").legal_actions().len(), 26);
    let mut game = tiebraker(Some(fen), "disk a7a6");
    let actions = game.legal_actions();
    assert_eq!(actions.len(), 21);
    assert!(
        actions
            .iter()
            .all(|a| a.as_move().is_some_and(|m| m.role() != Role::King))
    );
    let frozen = "not a legal move here (a frozen king, or capture-or-check is compulsory)";
    assert_eq!(game.play_text("e1g1"), Err(illegal("e1g1", frozen)));
    assert_eq!(game.play_text("e1d1"), Err(illegal("e1d1", frozen)));
    // Black's own king still moves.
    play(&mut game, "a2a3");
    assert!(legal(&game).contains(&"e8d8".to_owned()));

    // After a swap Black's king is the frozen one.
    let mut game = tiebraker(Some(fen), "disk swap");
    assert_eq!(game.legal_actions().len(), 25);
    play(&mut game, "a2a3");
    let black = legal(&game);
    assert_eq!(black.len(), 21);
    assert!(!black.iter().any(|m| m.starts_with("e8")));
}

/// The disk is still the king for mate: after Rh1+ the frozen king cannot
/// step aside.
#[test]
fn frozen_king_can_be_mated() {
    let game = tiebraker(Some("4k2r/8/8/3p4/4P3/8/8/R3K3 w - - 0 1"), "disk h8h1");
    assert_eq!(
        game.ending(),
        Some(Ending::Checkmate {
            winner: Color::Black
        })
    );
}

#[test]
fn compulsory_capture_or_check_after_accept() {
    let fen = "4k2r/8/8/3p4/4P3/8/8/R3K3 w - - 0 1";
    // Without a disk Black has 5 king moves, 9 rook moves, d4, dxe4 and
    // disk.
    assert_eq!(tiebraker(Some(fen), "a1a2").legal_actions().len(), 17);
    // The accepting player: capture (dxe4) or check (Rh1+), or swap, restore.
    let game = tiebraker(Some(fen), "disk");
    assert_eq!(legal(&game), ["d5e4", "h8h1", "restore", "swap"]);
    // No capture for White after dxe4: any rook move.
    let game = tiebraker(Some(fen), "disk d5e4");
    assert_eq!(game.legal_actions().len(), 10);
    // Ra4 attacks e4; Black has no capture and moves freely; then the disk
    // player must take (Rxe4) or check (Ra8+, Rd4+).
    let game = tiebraker(Some(fen), "disk d5e4 a1a4 e8d8");
    assert_eq!(legal(&game), ["a4a8", "a4d4", "a4e4"]);
}

/// Swap, then 20 plies in which both sides could capture and do not: the
/// compulsory rule starts with ply 21, not before.
#[test]
fn compulsory_capture_or_check_after_the_swap_window() {
    let fen = "4k2r/8/8/3p4/4P3/8/8/R3K3 w - - 0 1";
    let plies = [
        "a1a2", "h8h7", "a2a3", "h7h8", "a3a1", "h8h7", "a1a2", "h7h8", "a2a3", "h8h7", "a3a1",
        "h7h8", "a1a2", "h8h7", "a2a3", "h7h8", "a3a1", "h8h7", "a1a2", "h7h8",
    ];
    let mut game = tiebraker(Some(fen), "disk swap");
    for (n, ply) in plies.iter().enumerate() {
        let Disk::Swapped { disk, plies: done } = game.current().extra.disk else {
            panic!("swapped")
        };
        assert_eq!(disk, Color::Black);
        assert_eq!(usize::from(done), n);
        assert!(!game.current().extra.disk.compulsory(), "ply {}", n + 1);
        // A quiet move is legal inside the window.
        assert!(legal(&game).contains(&(*ply).to_owned()), "ply {}", n + 1);
        play(&mut game, ply);
        assert_eq!(game.ending(), None);
    }
    // Ply 21 (White): capture (exd5) or check (Ra8+) only.
    assert!(game.current().extra.disk.compulsory());
    assert_eq!(legal(&game), ["a2a8", "e4d5"]);
}

#[test]
fn at_most_one_disk_per_game() {
    for answer in ["restore", "swap", "a7a6"] {
        let mut game = tiebraker(None, &format!("disk {answer}"));
        for ply in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            assert!(
                !game.legal_actions().contains(&Action::Disk),
                "{answer} {ply}"
            );
            assert_eq!(
                game.play_text("disk"),
                Err(illegal("disk", "'disk' is not allowed in this position")),
                "{answer}"
            );
            play(&mut game, ply);
        }
    }
}

/// The same placement and side to move with and without a disk are
/// different positions for repetition.
#[test]
fn disk_changes_the_repetition_key() {
    let fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
    // Placement P (Ra1, Ke1, Ke8, White to move) at plies 0 and 4.
    let mut game = tiebraker(Some(fen), "a1a2 e8d8 a2a1 d8e8");
    let before = game.current().key;
    // disk; accept; a rook triangle brings P back, now with a white disk.
    play(&mut game, "disk e8d8 a1a2 d8e8 a2a3 e8d8 a3a1 d8e8");
    assert_eq!(
        game.current().pos.board(),
        chess(Variant::Chess, Some(fen), "").current().pos.board()
    );
    assert_eq!(game.current().turn(), Color::White);
    assert_ne!(game.current().key, before);
    // Third placement, first with the disk: no repetition.
    assert_eq!(game.ending(), None);
    play(&mut game, "a1a2 e8d8 a2a1 d8e8");
    assert_eq!(game.ending(), None);
    // With the disk in every occurrence, Ra1/Kd8 with Black to move (plies
    // 11, 15, 19) is the first to occur three times.
    play(&mut game, "a1a2 e8d8 a2a1");
    assert_eq!(
        game.ending(),
        Some(Ending::Repetition(Repetition {
            kind: RepetitionKind::Plain,
            third_by: Color::White,
            projected: false,
        }))
    );
}

// ---------------------------------------------------------------------------
// Errors.

#[test]
fn special_actions_in_variants_without_them() {
    for v in Variant::ALL {
        for word in ["disk", "swap", "restore", "claim"] {
            let exists = match word {
                "claim" => v.has_claim(),
                _ => v.has_disk(),
            };
            let reason = if exists {
                format!("'{word}' is not allowed in this position")
            } else {
                format!("'{word}' does not exist in {v}")
            };
            // `disk` is allowed at the start in tiebraker.
            if v == Variant::Tiebraker && word == "disk" {
                continue;
            }
            let result = tally::with_game!(tally::rules::AnyRules::of(v), |rules| {
                let mut game = Game::new(rules, None).expect("start");
                game.play_text(word)
            });
            assert_eq!(result, Err(illegal(word, &reason)), "{v} {word}");
        }
    }
    // Through `Game::play` the action is simply not among the legal ones.
    let mut game = tiebraker(None, "");
    assert_eq!(game.play(Action::Claim), Err(illegal("claim", "")));
    let mut game = chess(Variant::Chess, None, "");
    assert_eq!(game.play(Action::Disk), Err(illegal("disk", "")));
    assert_eq!(game.actions().len(), 0);
}

#[test]
fn illegal_and_unparsable_actions() {
    for v in Variant::ALL {
        tally::with_game!(tally::rules::AnyRules::of(v), |rules| {
            let mut game = Game::new(rules, None).expect("start");
            assert_eq!(game.play_text("e2e5"), Err(illegal("e2e5", "")), "{v}");
            assert_eq!(game.play_text("e7e5"), Err(illegal("e7e5", "")), "{v}");
            for junk in ["xyz", "", "e2", "e2e9", "0000", "disks"] {
                assert_eq!(
                    game.play_text(junk),
                    Err(RulesError::UnparsableAction(junk.to_owned())),
                    "{v} '{junk}'"
                );
            }
            assert!(game.actions().is_empty());
            assert_eq!(
                game.play_text(" e2e4 ").map(|a| a.to_string()),
                Ok("e2e4".to_owned())
            );
        });
    }
}

#[test]
fn bad_fens_are_typed_errors() {
    for v in Variant::ALL {
        tally::with_game!(tally::rules::AnyRules::of(v), |rules| {
            for fen in [
                "not a fen",
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            ] {
                let err = Game::new(rules, Some(fen)).expect_err(fen);
                assert!(
                    matches!(&err, RulesError::InvalidFen { fen: f, .. } if f == fen),
                    "{v} {fen}: {err:?}"
                );
            }
            for fen in [
                "8/8/8/8/8/8/8/8 w - - 0 1",
                "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",
                "P3k3/8/8/8/8/8/8/4K3 w K - 0 1",
            ] {
                let err = Game::new(rules, Some(fen)).expect_err(fen);
                assert!(
                    matches!(&err, RulesError::InvalidPosition { fen: f, .. } if f == fen),
                    "{v} {fen}: {err:?}"
                );
            }
            // Playable once an impossible castling right or en-passant
            // square is dropped: read leniently.
            for fen in [
                "4k3/8/8/8/8/8/8/4K3 w K - 0 1",
                "4k3/8/8/8/8/8/8/4K3 w - e3 0 1",
            ] {
                let game = Game::new(rules, Some(fen)).expect(fen);
                assert_eq!(game.start().fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "{v}");
            }
        });
    }
    // Exact reasons for extinction's own validation.
    let rules = Rules::<Extinction>::new(Variant::Extinction);
    assert_eq!(
        Game::new(rules, Some("P3k3/8/8/8/8/8/8/4K3 w - - 0 1")).err(),
        Some(RulesError::InvalidPosition {
            fen: "P3k3/8/8/8/8/8/8/4K3 w - - 0 1".to_owned(),
            reason: "pawns on a back rank".to_owned(),
        })
    );
    assert_eq!(
        Game::new(rules, Some("8/8/8/8/8/8/8/8 w - - 0 1")).err(),
        Some(RulesError::InvalidPosition {
            fen: "8/8/8/8/8/8/8/8 w - - 0 1".to_owned(),
            reason: "empty board".to_owned(),
        })
    );
    // Standard rules need exactly one king a side; extinction does not.
    assert!(matches!(
        Game::new(
            Rules::<Chess>::new(Variant::Chess),
            Some("4k3/8/8/8/8/8/P7/K3K3 w - - 0 1")
        ),
        Err(RulesError::InvalidPosition { .. })
    ));
    assert!(Game::new(rules, Some("4k3/8/8/8/8/8/P7/K3K3 w - - 0 1")).is_ok());
    assert_eq!(
        Variant::from_id("atomic"),
        Err(RulesError::UnknownVariant("atomic".to_owned()))
    );
}
