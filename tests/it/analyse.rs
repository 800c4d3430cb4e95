//! `analyse`: known positions ranked in every variant, with exact
//! immediate awards and values (fixed depth, one thread: deterministic).

use crate::common::analysis;

use analysis::analyse;
use tally::analyse::{PositionAnalysis, RankedAction, analyse_position};
use tally::engine::Engine;
use tally::rules::{Ending, Variant};
use tally::scoring::Event;
use tally::search::{Limits, Silent};

/// The back-rank position: Ra8# and Qd8# both mate.
const BACK_RANK: &str = "6k1/5ppp/8/8/8/8/5PPP/R2Q2K1 w - - 0 1";

fn find<'a>(a: &'a PositionAnalysis, action: &str) -> &'a RankedAction {
    a.actions
        .iter()
        .find(|r| r.action.to_string() == action)
        .unwrap_or_else(|| panic!("{action} not ranked"))
}

fn white(r: &RankedAction) -> f64 {
    r.immediate.award.plus(r.immediate.outcome).white.as_f64()
}

fn value(r: &RankedAction) -> f64 {
    r.value.expect("searched").points
}

#[test]
fn every_legal_action_is_ranked_once() {
    let a = analyse(Variant::Chess, None, 2);
    assert_eq!(a.actions.len(), 20);
    for (i, r) in a.actions.iter().enumerate() {
        assert_eq!(r.rank, i + 1);
        assert!(r.value.is_some());
        assert_eq!(r.pv.first(), Some(&r.action.to_string()));
    }
}

#[test]
fn stylish_knight_mate_ranks_first_with_230() {
    let a = analyse(
        Variant::Stylish,
        Some("4K3/R4Pk1/5p2/3B4/8/8/8/7R w - - 0 1"),
        3,
    );
    let top = &a.actions[0];
    assert_eq!(top.action.to_string(), "f7f8n");
    assert_eq!(top.san, "f8=N#");
    assert_eq!(white(top), 230.0);
    let ev = top.immediate.award.events;
    assert!(
        ev.contains(Event::Mate) && ev.contains(Event::Discovered) && ev.contains(Event::Coverage)
    );
    assert!(!ev.contains(Event::Promotion));
    assert_eq!(value(top), 230.0);
    assert!(matches!(
        top.immediate.ending,
        Some(Ending::Checkmate { .. })
    ));
    // The other promotions: not mates, promotion awards only.
    for (action, award) in [("f7f8b", 20.0), ("f7f8r", 10.0), ("f7f8q", 0.0)] {
        let r = find(&a, action);
        assert!(r.rank > 1, "{action}");
        assert_eq!(white(r), award, "{action}");
        assert!(r.immediate.award.events.contains(Event::Promotion));
        assert!(value(r) < value(top), "{action}");
    }
}

#[test]
fn stylish_rook_mate_is_worth_30_more_than_the_queen_mate() {
    let a = analyse(Variant::Stylish, Some(BACK_RANK), 2);
    let rook = find(&a, "a1a8");
    let queen = find(&a, "d1d8");
    assert_eq!((white(rook), white(queen)), (110.0, 80.0));
    assert_eq!((value(rook), value(queen)), (110.0, 80.0));
    assert!(rook.rank < queen.rank);
    assert_eq!(rook.san, "Ra8#");
}

/// In the variants scored by the board result, both mates come first as
/// mate in 1, worth the variant's win margin.
fn mates_first(variant: Variant, margin: f64) {
    let a = analyse(variant, Some(BACK_RANK), 3);
    let top: Vec<String> = a.actions[..2]
        .iter()
        .map(|r| r.action.to_string())
        .collect();
    assert!(
        top.contains(&"a1a8".to_owned()) && top.contains(&"d1d8".to_owned()),
        "{variant}: {top:?}"
    );
    for r in &a.actions[..2] {
        let v = r.value.expect("searched");
        assert_eq!(v.mate, Some(1), "{variant}");
        assert_eq!(v.points, margin, "{variant}");
        assert_eq!(white(r), margin, "{variant}");
        assert!(
            r.immediate.outcome.events.contains(Event::Mate),
            "{variant}"
        );
    }
    assert!(
        a.actions[2].value.expect("searched").mate.is_none(),
        "{variant}"
    );
}

#[test]
fn chess_mates_first() {
    mates_first(Variant::Chess, 1.0);
}

#[test]
fn dynamic_mates_first() {
    mates_first(Variant::Dynamic, 100.0);
}

#[test]
fn sets_mates_first() {
    mates_first(Variant::Sets, 2.0);
}

#[test]
fn tiebraker_mates_first_and_disk_is_ranked() {
    mates_first(Variant::Tiebraker, 100.0);
    let a = analyse(Variant::Tiebraker, None, 2);
    assert_eq!(a.actions.len(), 21);
    let disk = find(&a, "disk");
    assert_eq!(disk.san, "disk");
    assert!(disk.value.is_some());
    assert!(disk.immediate.award.is_zero());
}

#[test]
fn wacky_capture_ranks_first_with_its_award() {
    let a = analyse(Variant::Wacky, Some("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1"), 3);
    let top = &a.actions[0];
    assert_eq!(top.action.to_string(), "e4d5");
    // Move 9 x 10 x 1, capture 100 x 9 x 1, fall 500 x 1 x 1.0.
    assert_eq!(white(top), 90.0 + 900.0 + 500.0);
    let ev = top.immediate.award.events;
    assert!(ev.contains(Event::Move) && ev.contains(Event::Capture) && ev.contains(Event::Fall));
    assert_eq!(white(find(&a, "e4e5")), 90.0);
}

#[test]
fn extinction_wins_rank_first() {
    let a = analyse(
        Variant::Extinction,
        Some("rb2k3/8/7p/3n3q/4P3/8/8/RBN1K1Q1 w - - 0 1"),
        3,
    );
    let wins: Vec<String> = a
        .actions
        .iter()
        .take_while(|r| r.value.and_then(|v| v.mate) == Some(1))
        .map(|r| r.action.to_string())
        .collect();
    assert_eq!(wins.len(), 2, "{wins:?}");
    assert!(wins.contains(&"e4d5".to_owned()) && wins.contains(&"a1a8".to_owned()));
    let r = find(&a, "e4d5");
    assert_eq!(white(r), 1.0);
    assert_eq!(value(r), 1.0);
    assert!(matches!(
        r.immediate.ending,
        Some(Ending::Extinction { .. })
    ));
}

#[test]
fn finished_positions_are_refused() {
    let mut engine = Engine::new(Variant::Chess);
    engine
        .set_position(Some("R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1"), &[])
        .unwrap();
    assert!(analyse_position(&mut engine, Limits::depth(2), &Silent).is_err());
}

/// A limit that would end the search before depth 1 still lets it
/// complete depth 1: every action is valued there, and a game's analysis
/// values every ply.
#[test]
fn a_search_cut_before_depth_one_still_values_depth_one() {
    let mut engine = Engine::new(Variant::Chess);
    let one_node = Limits {
        nodes: Some(1),
        ..Limits::default()
    };
    let a = analyse_position(&mut engine, one_node.clone(), &Silent).unwrap();
    assert_eq!(a.actions.len(), 20);
    assert!(
        a.actions.iter().all(|r| r.value.is_some() && r.depth == 1),
        "{:?}",
        a.actions
    );
    let input = tally::referee::GameInput::from_text(None, "e2e4 e7e5");
    let g = tally::analyse::analyse_game(&mut engine, &input, &one_node, &mut |_, _| {}, &|| true)
        .unwrap();
    assert_eq!(g.plies.len(), 2);
}
