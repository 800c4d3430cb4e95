//! Limited strength through the engine facade: a weakened engine plays
//! other moves than full strength in some positions, always legal ones,
//! never one that gives up more than its level's bound (no hanging queen),
//! the same move for the same position and game, and whole games in every
//! variant. No test depends on time: the weakened search is bounded by its
//! own depth and node caps.

use tally::engine::{Engine, EngineOptions};
use tally::rules::Variant;
use tally::search::skill::{MIN_ELO, Skill};
use tally::search::{Limits, SearchResult, Silent, Strength};

fn at_elo(elo: i32) -> Strength {
    Strength {
        limit: true,
        elo,
        ..Strength::default()
    }
}

fn engine(variant: Variant, strength: Strength) -> Engine {
    Engine::with_options(
        variant,
        EngineOptions {
            hash_mb: 4,
            strength,
            ..EngineOptions::default()
        },
    )
}

/// A search with no limit of its own: a weakened engine stops at its caps.
fn think(e: &mut Engine) -> SearchResult {
    e.search(Limits::default(), &Silent).expect("search")
}

fn best(r: &SearchResult) -> String {
    r.best.map(|a| a.to_string()).unwrap_or_default()
}

/// The bench positions: every variant, openings to endgames.
fn positions() -> Vec<(Variant, String)> {
    tally::bench::positions().expect("bench positions")
}

#[test]
fn weak_play_differs_but_stays_legal_and_bounded() {
    let skill = Skill::at(MIN_ELO);
    let mut differ = 0;
    let mut total = 0;
    for (variant, fen) in positions() {
        let mut full = engine(variant, Strength::default());
        full.set_position(Some(&fen), &[]).unwrap();
        let strong = full.search(Limits::depth(5), &Silent).unwrap();
        let level0 = Strength {
            level: 0,
            ..Strength::default()
        };
        let mut weak = engine(variant, level0);
        for game in 0..4 {
            weak.new_game();
            weak.set_position(Some(&fen), &[]).unwrap();
            let r = think(&mut weak);
            let chosen = r.best.expect("a move");
            assert!(weak.legal_actions().contains(&chosen), "{fen}: {chosen}");
            // The weakened search stays within its caps...
            assert!(r.depth <= skill.depth, "{fen}: depth {}", r.depth);
            // ... keeps only the one line MultiPV asks for...
            assert_eq!(r.lines.len(), 1, "{fen}: {} lines", r.lines.len());
            // ... and plays one of its lines, within the bound of the best.
            let line = r
                .played
                .as_ref()
                .unwrap_or_else(|| panic!("{fen}: no line played"));
            assert_eq!(line.pv.first(), Some(&chosen), "{fen}");
            assert!(
                r.lines[0].value - line.value <= skill.max_loss,
                "{fen} game {game}: {chosen} loses {}",
                r.lines[0].value - line.value
            );
            total += 1;
            differ += usize::from(Some(chosen) != strong.best);
        }
    }
    // Weaker, not random: some moves differ, and many agree.
    assert!(differ > total / 5, "{differ} of {total} differ");
    assert!(differ < total * 9 / 10, "{differ} of {total} differ");
}

#[test]
fn same_position_and_game_same_move() {
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let mut moves = Vec::new();
    for _ in 0..2 {
        let mut e = engine(Variant::Chess, at_elo(1200));
        let mut these = Vec::new();
        for _ in 0..6 {
            e.new_game();
            e.set_position(Some(fen), &[]).unwrap();
            these.push(best(&think(&mut e)));
        }
        moves.push(these);
    }
    assert_eq!(moves[0], moves[1]);
    // Different games choose differently somewhere.
    assert!(moves[0].iter().any(|m| *m != moves[0][0]), "{:?}", moves[0]);
}

#[test]
fn weakest_never_hangs_its_queen() {
    // The black queen on d4 is attacked by the pawn on c3; every safe
    // square is a queen move.
    let fen = "rnb1kbnr/pppp1ppp/8/4p3/3q4/2P2N2/PP1PPPPP/RNBQKB1R b KQkq - 0 4";
    let mut e = engine(Variant::Chess, at_elo(MIN_ELO));
    for _ in 0..40 {
        e.new_game();
        e.set_position(Some(fen), &[]).unwrap();
        let m = best(&think(&mut e));
        assert!(m.starts_with("d4"), "{m}");
    }
}

#[test]
fn weakest_mates_in_one() {
    let fen = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";
    let mut e = engine(Variant::Chess, at_elo(MIN_ELO));
    for _ in 0..20 {
        e.new_game();
        e.set_position(Some(fen), &[]).unwrap();
        assert_eq!(best(&think(&mut e)), "d1d8");
    }
}

#[test]
fn full_strength_is_untouched() {
    // The Elo and a level of 20 change nothing while the limit is off.
    let idle = Strength {
        limit: false,
        elo: 1000,
        level: 20,
    };
    for (variant, fen) in positions().into_iter().take(6) {
        let mut a = engine(variant, Strength::default());
        let mut b = engine(variant, idle);
        a.set_position(Some(&fen), &[]).unwrap();
        b.set_position(Some(&fen), &[]).unwrap();
        let (ra, rb) = (
            a.search(Limits::depth(5), &Silent).unwrap(),
            b.search(Limits::depth(5), &Silent).unwrap(),
        );
        assert_eq!((ra.best, ra.nodes, ra.lines), (rb.best, rb.nodes, rb.lines));
    }
}

#[test]
fn weak_games_in_every_variant() {
    for variant in Variant::ALL {
        for elo in [MIN_ELO, 1600] {
            let mut e = engine(variant, at_elo(elo));
            e.new_game();
            for ply in 0..40 {
                if e.ending().is_some() {
                    break;
                }
                let r = think(&mut e);
                let m = r
                    .best
                    .unwrap_or_else(|| panic!("{variant} ply {ply}: no move"));
                assert!(e.legal_actions().contains(&m), "{variant} ply {ply}: {m}");
                e.play(&m.to_string()).unwrap();
            }
        }
    }
}
