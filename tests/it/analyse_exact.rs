//! Exact points in analysis: the search counts in internal units (about
//! 300 points each in wacky), yet every mate in one is valued at its award
//! to the point and the mates rank by their awards, in wacky and stylish,
//! on positions with several mates in one found by seeded random games;
//! a search of several lines (a GUI's MultiPV) puts the mate that earns
//! most first and reports its exact margin.

use crate::common::analysis;
use shakmaty::fen::Fen;
use shakmaty::{Chess, EnPassantMode, Position};

use analysis::analyse;
use tally::analyse::{Exact, RankedAction};
use tally::datagen::play::Rng;
use tally::rules::{Ending, Variant};
use tally::search::{Limits, Silent};

/// Positions of seeded random games where the side to move has at least
/// two mates in one, the first `count` of them.
fn positions_with_mates(count: usize) -> Vec<String> {
    let mut found = Vec::new();
    for game in 0..20_000 {
        let mut rng = Rng::for_game(64, game);
        let mut pos = Chess::default();
        for _ in 0..200 {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.is_insufficient_material() {
                break;
            }
            let mates = moves
                .iter()
                .filter(|m| pos.clone().play(**m).is_ok_and(|p| p.is_checkmate()))
                .count();
            if mates >= 2 {
                found.push(Fen::from_position(&pos, EnPassantMode::Legal).to_string());
                break;
            }
            let m = moves[rng.below(moves.len())];
            pos = pos.play(m).expect("legal");
        }
        if found.len() == count {
            break;
        }
    }
    assert_eq!(found.len(), count, "too few positions with mates");
    found
}

/// Whether `r` mates at once: its line is the action alone, ending the game
/// in checkmate.
fn mates_at_once(r: &RankedAction) -> bool {
    r.pv.len() == 1 && matches!(r.immediate.ending, Some(Ending::Checkmate { .. }))
}

#[test]
fn mates_in_one_are_valued_at_their_awards_and_ranked_by_them() {
    let positions = positions_with_mates(12);
    let mut differing = 0;
    for variant in [Variant::Wacky, Variant::Stylish] {
        for fen in &positions {
            let a = analyse(variant, Some(fen.as_str()), 2);
            let mates: Vec<&RankedAction> = a.actions.iter().filter(|r| mates_at_once(r)).collect();
            assert!(mates.len() >= 2, "{variant} {fen}: {} mates", mates.len());
            for r in &mates {
                let award = r.immediate.margin(a.turn).as_f64();
                let value = r.value.expect("searched").points;
                assert_eq!(
                    value, award,
                    "{variant} {fen}: {} valued {value}, earns {award}",
                    r.san
                );
            }
            // Ranked by award: a mate never stands below one that earns less.
            for pair in mates.windows(2) {
                let (hi, lo) = (pair[0], pair[1]);
                let (h, l) = (hi.immediate.margin(a.turn), lo.immediate.margin(a.turn));
                assert!(
                    h >= l,
                    "{variant} {fen}: {} ({h}) above {} ({l})",
                    hi.san,
                    lo.san
                );
                differing += usize::from(h != l);
            }
        }
    }
    // Not vacuous: mates whose awards differ were ranked.
    assert!(
        differing >= 5,
        "{differing} pairs of mates with different awards"
    );
}

#[test]
fn the_five_wacky_mates_rank_by_their_awards_to_the_point() {
    let a = analyse(
        Variant::Wacky,
        Some("3k4/R6Q/8/8/1K4P1/8/6r1/2R5 w - - 3 41"),
        3,
    );
    let mates: Vec<(String, f64)> = a
        .actions
        .iter()
        .filter(|r| mates_at_once(r))
        .map(|r| (r.san.clone(), r.value.expect("searched").points))
        .collect();
    let names: Vec<&str> = mates.iter().map(|(s, _)| s.as_str()).collect();
    assert_eq!(&names[..3], ["Qd7#", "Qe7#", "Ra8#"]);
    let values: Vec<f64> = mates.iter().map(|(_, v)| *v).collect();
    assert_eq!(
        values,
        [539_040.0, 539_030.0, 539_020.0, 539_010.0, 539_010.0]
    );
}

/// A line for each mate in one, the search restricted to them
/// (`searchmoves`), as a GUI's MultiPV asks: the first line and the action
/// played is the mate that earns most, and its line's exact value is its
/// award, in wacky (units of about 300 points) on every generated position
/// and the five mates of the example.
#[test]
fn several_lines_put_the_mate_that_earns_most_first() {
    let mut fens = positions_with_mates(12);
    fens.push("3k4/R6Q/8/8/1K4P1/8/6r1/2R5 w - - 3 41".to_owned());
    let mut differing = 0;
    for fen in &fens {
        let a = analyse(Variant::Wacky, Some(fen.as_str()), 2);
        let mates: Vec<&RankedAction> = a.actions.iter().filter(|r| mates_at_once(r)).collect();
        let most = mates
            .iter()
            .map(|r| r.immediate.margin(a.turn))
            .max()
            .expect("mates");
        differing += usize::from(mates.iter().any(|r| r.immediate.margin(a.turn) != most));
        let mut engine = analysis::engine(Variant::Wacky, Some(fen.as_str()));
        engine.set_multipv(mates.len());
        let limits = Limits {
            searchmoves: mates.iter().map(|r| r.action).collect(),
            ..Limits::depth(2)
        };
        let exact = Exact::of(&engine);
        let result = engine.search(limits, &Silent).expect("search");
        let best = result.best.expect("a best action");
        let played = mates.iter().find(|r| r.action == best).expect("a mate");
        assert_eq!(
            played.immediate.margin(a.turn),
            most,
            "{fen}: {}",
            played.san
        );
        let line = result.lines.first().expect("a line");
        assert_eq!(exact.value(line).points, most.as_f64(), "{fen}");
    }
    assert!(
        differing >= 3,
        "{differing} positions with mates of different awards"
    );
}
