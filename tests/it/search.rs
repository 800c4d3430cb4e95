//! Search tests through the engine facade: forced mates and extinctions
//! (move and value), stalemate and repetition handling, the move-count
//! rules, compulsory capture-or-check, special actions when they pay, and
//! bench determinism.

use tally::engine::{Engine, EngineOptions};
use tally::eval::variant_weights::WeightOverrides;
use tally::rules::{Action, Variant};
use tally::search::{Limits, SearchResult, Silent, is_decided, plies_to_end};

fn engine(variant: Variant, fen: &str, moves: &[&str]) -> Engine {
    let mut e = Engine::with_options(
        variant,
        EngineOptions {
            hash_mb: 8,
            ..EngineOptions::default()
        },
    );
    e.set_position(Some(fen), moves).expect("test position");
    e
}

fn search(e: &mut Engine, depth: i32) -> SearchResult {
    e.search(Limits::depth(depth), &Silent).expect("search")
}

fn best(r: &SearchResult) -> String {
    r.best.map(|a| a.to_string()).unwrap_or_default()
}

fn value(r: &SearchResult) -> i32 {
    r.lines[0].value
}

#[test]
fn mate_in_one() {
    let mut e = engine(Variant::Chess, "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", &[]);
    let r = search(&mut e, 4);
    assert_eq!(best(&r), "d1d8");
    assert!(is_decided(value(&r)) && value(&r) > 0);
    assert_eq!(plies_to_end(value(&r)), 1);
}

#[test]
fn mate_in_two_with_sacrifice() {
    let fen = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1";
    let mut e = engine(Variant::Chess, fen, &[]);
    let r = search(&mut e, 6);
    assert_eq!(best(&r), "d5f6");
    assert_eq!(plies_to_end(value(&r)), 3);
    let pv: Vec<String> = r.lines[0].pv.iter().map(|a| a.to_string()).collect();
    assert_eq!(pv, ["d5f6", "g7f6", "c4f7"]);
}

#[test]
fn mated_side_sees_it() {
    // After Nf6+ Black is mated on the next white move whatever it does.
    let fen = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1";
    let mut e = engine(Variant::Chess, fen, &["d5f6"]);
    let r = search(&mut e, 5);
    let v = value(&r);
    assert!(is_decided(v) && v < 0, "{v}");
    assert_eq!(plies_to_end(v), 2);
}

#[test]
fn mate_not_stalemate() {
    // Qc7 stalemates; Qc8 mates.
    let mut e = engine(Variant::Chess, "k7/8/1K6/8/8/8/8/2Q5 w - - 0 1", &[]);
    let r = search(&mut e, 4);
    assert_eq!(best(&r), "c1c8");
    assert_eq!(plies_to_end(value(&r)), 1);
}

#[test]
fn dynamic_mate_is_worth_the_split() {
    // The same mate in dynamic: 100-0 is a margin of 100 points, in the
    // decisive band, one ply away.
    let mut e = engine(Variant::Dynamic, "k7/8/1K6/8/8/8/8/2Q5 w - - 0 1", &[]);
    let r = search(&mut e, 4);
    assert_eq!(best(&r), "c1c8");
    let v = value(&r);
    assert!(is_decided(v));
    let units = e.units();
    // 100 points at 10 points per pawn is 1000 internal units.
    assert_eq!(
        v - (tally::search::MATE - tally::search::MATE_STEP),
        units.from_points(tally::scoring::Points::whole(100))
    );
}

#[test]
fn extinction_in_one() {
    // Black's only queen stands on d3: taking it wins at once.
    let fen = "rnb1kbnr/pppppppp/8/8/8/3q4/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let mut e = engine(Variant::Extinction, fen, &[]);
    let r = search(&mut e, 3);
    assert!(
        ["c2d3", "e2d3"].contains(&best(&r).as_str()),
        "{}",
        best(&r)
    );
    assert!(is_decided(value(&r)) && value(&r) > 0);
    assert_eq!(plies_to_end(value(&r)), 1);
}

#[test]
fn extinction_king_capture() {
    // No check in extinction: the white king walked next to the queen and
    // is simply taken.
    let fen = "rnb1kbnr/pppppppp/8/8/8/3q4/PPPPKPPP/RNBQ1BNR b kq - 0 1";
    let mut e = engine(Variant::Extinction, fen, &[]);
    let r = search(&mut e, 2);
    assert_eq!(best(&r), "d3e2");
    assert_eq!(plies_to_end(value(&r)), 1);
}

#[test]
fn extinction_in_three() {
    // d4-d5 forks Black's only knight and only bishop: whatever Black
    // does, one of them is taken on the third ply.
    let fen = "r2qk3/pppp1ppp/2n1b3/8/3P4/8/PPP2PPP/RNBQK3 w Qq - 0 1";
    let mut e = engine(Variant::Extinction, fen, &[]);
    let r = search(&mut e, 5);
    assert_eq!(best(&r), "d4d5");
    let v = value(&r);
    assert!(is_decided(v) && v > 0);
    assert_eq!(plies_to_end(v), 3);
}

#[test]
fn extinction_missing_type_is_over() {
    // Black lacks a queen and rooks: the game is over on arrival.
    let fen = "4k3/pppppppp/8/1n5b/8/8/PPPPPPPP/R1BQKBNR w KQ - 0 1";
    let mut e = engine(Variant::Extinction, fen, &[]);
    let r = search(&mut e, 3);
    assert_eq!(r.best, None);
}

#[test]
fn repetition_saves_the_lost_side() {
    // K+Q v K: Black completes a threefold repetition with b7a8 and draws.
    let moves = ["a1b1", "a8b7", "b1a1", "b7a8", "a1b1", "a8b7", "b1a1"];
    let mut e = engine(Variant::Chess, "k7/8/8/8/8/8/7Q/K7 w - - 0 1", &moves);
    let r = search(&mut e, 5);
    assert_eq!(best(&r), "b7a8");
    assert_eq!(value(&r), 0);
}

#[test]
fn winning_side_avoids_repetition() {
    // White to move at the second occurrence of a position whose repeat
    // White could complete: K+Q v K is won, so White plays on.
    let moves = ["a1b1", "a8b7", "b1a1", "b7a8", "a1b1", "a8b7"];
    let mut e = engine(Variant::Chess, "k7/8/8/8/8/8/7Q/K7 w - - 0 1", &moves);
    let r = search(&mut e, 5);
    assert_ne!(best(&r), "b1a1");
    assert!(value(&r) > 300);
}

/// Sets: Black, two knights down, has a perpetual check (Qh4+ Kg1 Qe1+
/// Kh2, every White move forced). The search projects it from the first
/// repetition of its own positions and counts `perpetual_trust` of its
/// award (1 point to the checker): all of it at 1000, none at sets'
/// default 0. Once the cycle has been played, going round it again makes
/// the root's position a third time: a perpetual check for certain,
/// counted in full.
#[test]
fn sets_counts_a_projected_perpetual_check_by_its_trust() {
    let fen = "6k1/ppp3pp/8/Q7/8/NN6/PPPP2PK/4q3 b - - 0 1";
    let run = |trust: Option<&str>, moves: &[&str]| {
        let mut e = engine(Variant::Sets, fen, moves);
        if let Some(t) = trust {
            e.set_weights(WeightOverrides::parse(t).unwrap());
        }
        let r = search(&mut e, 8);
        (best(&r), e.units().margin_of(value(&r)))
    };
    let point = |m: i32| m * 5; // 100 units a pawn, 0.2 points a pawn
    let (full_move, full) = run(Some("perpetual_trust=1000"), &[]);
    assert_eq!(full_move, "e1h4");
    assert!((point(80)..=point(100)).contains(&full), "trusted: {full}");
    let (none_move, none) = run(None, &[]);
    assert_eq!(none_move, "e1h4");
    assert!(none.abs() <= point(20), "not trusted: {none}");
    let cycle = ["e1h4", "h2g1", "h4e1", "g1h2"];
    let (played_move, played) = run(None, &cycle);
    assert_eq!(played_move, "e1h4");
    assert!(
        (point(80)..=point(100)).contains(&played),
        "played: {played}"
    );
}

#[test]
fn fifty_move_rule_is_a_draw() {
    // 98 plies without capture or pawn move: no mate in one, so the game
    // is drawn after Black's reply whatever White does.
    let mut e = engine(Variant::Chess, "7k/8/8/8/8/8/8/KQ6 w - - 98 1", &[]);
    let r = search(&mut e, 6);
    assert_eq!(value(&r), 0);
}

#[test]
fn thirty_move_rule_in_sets() {
    // Sets ends after 60 plies: the draw gives 1/2 to Black (the default
    // draw advantage), so White's margin is -1/2 = -250 internal units (a
    // point is 500 at 0.2 points per pawn), a search value on the curve of
    // sets. K+R v K has no mate or stalemate in one here.
    let mut e = engine(Variant::Sets, "7k/8/8/8/8/8/8/KR6 w - - 58 1", &[]);
    let r = search(&mut e, 6);
    assert_eq!(value(&r), e.units().value_of(-250));
}

#[test]
fn sets_stalemate_beats_the_move_rule() {
    // With the queen White can stalemate at once: 1 point for the
    // stalemating side beats the -1/2 of the coming 30-move draw.
    let mut e = engine(Variant::Sets, "7k/8/8/8/8/8/8/KQ6 w - - 58 1", &[]);
    let r = search(&mut e, 4);
    assert_eq!(value(&r), e.units().value_of(500));
    e.play(&best(&r)).unwrap();
    assert!(matches!(
        e.ending(),
        Some(tally::rules::Ending::Stalemate { .. })
    ));
}

#[test]
fn sets_claim_with_bishop() {
    // White's king takes the last black pawn and bares the king; after
    // Black's reply, claiming (1 point) beats K+B v K, a dead draw worth
    // -1/2 to White.
    let mut e = engine(
        Variant::Sets,
        "8/8/8/4k3/8/3p4/3BK3/8 w - - 0 1",
        &["e2d3", "e5d5"],
    );
    let r = search(&mut e, 4);
    assert_eq!(r.best, Some(Action::Claim));
    assert_eq!(value(&r), e.units().value_of(500));
}

#[test]
fn no_special_actions_when_off() {
    let mut e = Engine::with_options(
        Variant::Sets,
        EngineOptions {
            specials: false,
            hash_mb: 8,
            ..EngineOptions::default()
        },
    );
    e.set_position(Some("8/8/8/4k3/8/3p4/3BK3/8 w - - 0 1"), &["e2d3", "e5d5"])
        .unwrap();
    let r = search(&mut e, 4);
    assert!(matches!(r.best, Some(Action::Move(_))));
}

#[test]
fn tiebraker_capture_or_check_is_obeyed() {
    // After White's disk is accepted, both sides must capture or check
    // whenever a capture exists; the engine's moves comply.
    let mut e = engine(
        Variant::Tiebraker,
        "r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R w KQkq - 1 3",
        &["disk"],
    );
    for _ in 0..6 {
        if e.ending().is_some() {
            break;
        }
        let legal = e.legal_actions();
        let r = search(&mut e, 3);
        let a = r.best.expect("a move");
        assert!(legal.contains(&a));
        let any_capture = legal.iter().any(|x| x.is_capture());
        e.play(&a.to_string()).unwrap();
        if let Action::Move(m) = a
            && any_capture
            && !m.is_capture()
        {
            let check = e.game().in_check();
            assert!(check, "{a} neither captures nor checks");
        }
    }
}

#[test]
fn tiebraker_disk_where_it_pays() {
    // After 1.c4 c5 2.Nc3 Nc6 3.g3 e6 4.Bg2 Nf6 5.Nf3 d5 White's disk
    // leaves Black two bad answers: accepting makes 5...dxc4 compulsory at
    // once (Nb5 and Qd2 ideas win material back with interest), and a swap
    // freezes Black's own king for twenty plies while White's comes back
    // and castles. The search plays the disk and expects far more from it
    // than from the best chess move.
    let fen = "r1bqkb1r/pp3ppp/2n1pn2/2pp4/2P5/2N2NP1/PP1PPPBP/R1BQK2R w KQkq - 0 1";
    let mut e = engine(Variant::Tiebraker, fen, &[]);
    e.set_specials(true);
    let r = search(&mut e, 6);
    assert_eq!(r.best, Some(Action::Disk));
    // The same position with the disk taken away: the best chess move.
    let mut chess_only = engine(Variant::Tiebraker, fen, &[]);
    chess_only.set_specials(false);
    let q = search(&mut chess_only, 6);
    assert!(matches!(q.best, Some(Action::Move(_))));
    // Worth clearly more: at least five points of the 100 a game pays
    // (the fitted evaluator expects 9.7, the hand-set one over 10).
    let u = e.units();
    let gain = u.to_points(value(&r)) - u.to_points(value(&q));
    assert!(gain >= 5.0, "disk gains only {gain} points");
}

#[test]
fn tiebraker_no_disk_from_the_start() {
    // In the opening position a disk only freezes one's own king (the
    // opponent accepts with any move and has nothing to capture): no disk.
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let mut e = engine(Variant::Tiebraker, start, &[]);
    e.set_specials(true);
    let r = search(&mut e, 6);
    assert!(matches!(r.best, Some(Action::Move(_))), "{:?}", r.best);
}

#[test]
fn finished_root_has_no_move() {
    let mut e = engine(Variant::Chess, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", &[]);
    let r = search(&mut e, 3);
    assert_eq!(r.best, None);
}

#[test]
fn bench_is_deterministic() {
    let a = tally::bench::run(4, |_, _| {}).unwrap().0;
    let b = tally::bench::run(4, |_, _| {}).unwrap().0;
    assert_eq!(a, b);
    assert!(a > 1000);
}

#[test]
fn searchmoves_restricts_the_root() {
    let mut e = engine(Variant::Chess, "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", &[]);
    let texts = ["g1f1".to_owned(), "h2h3".to_owned(), "e2e4".to_owned()];
    let (moves, refused) = e.resolve_searchmoves(&texts, false);
    assert_eq!(refused, ["e2e4"]);
    let limits = Limits {
        depth: Some(3),
        searchmoves: moves,
        ..Limits::default()
    };
    let r = e.search(limits, &Silent).unwrap();
    assert!(["g1f1", "h2h3"].contains(&best(&r).as_str()));
    // An action of another position is refused.
    let start = Engine::new(Variant::Chess);
    let (e2e4, _) = start.resolve_searchmoves(&texts[2..], false);
    let bad = Limits {
        depth: Some(3),
        searchmoves: e2e4,
        ..Limits::default()
    };
    assert!(e.search(bad, &Silent).is_err());
}

#[test]
fn node_limit_stops() {
    let mut e = engine(
        Variant::Chess,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        &[],
    );
    let limits = Limits {
        nodes: Some(5000),
        ..Limits::default()
    };
    let r = e.search(limits, &Silent).unwrap();
    assert!(r.best.is_some());
    assert!(r.nodes < 5000 + 2048, "{}", r.nodes);
}

#[test]
fn two_threads_find_the_mate() {
    let mut e = Engine::with_options(
        Variant::Chess,
        EngineOptions {
            threads: 2,
            hash_mb: 8,
            ..EngineOptions::default()
        },
    );
    let fen = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1";
    e.set_position(Some(fen), &[]).unwrap();
    let r = search(&mut e, 7);
    assert_eq!(best(&r), "d5f6");
    assert_eq!(plies_to_end(value(&r)), 3);
}

#[test]
fn stop_ends_an_infinite_search() {
    use std::sync::Arc;
    use std::sync::mpsc;
    let mut e = engine(
        Variant::Chess,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        &[],
    );
    let (tx, rx) = mpsc::channel();
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    e.go(
        limits,
        Arc::new(Silent),
        Box::new(move |r| tx.send(r.best).unwrap()),
    )
    .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(100));
    assert!(e.is_searching());
    e.stop();
    // A generous watchdog only: how fast a stop lands is measured by
    // tests/python/timing.py, since a loaded machine may delay any thread.
    let best = rx.recv_timeout(std::time::Duration::from_secs(60)).unwrap();
    assert!(best.is_some());
}
