//! Point values exist once: a rules file that doubles every stylish and
//! wacky point value doubles what the referee pays, what the evaluator
//! predicts and what the search reports, and leaves the search itself as
//! it was (the same best move, the same tree, values scaled).

use shakmaty::{Color, Position};
use tally::engine::{Engine, EngineOptions};
use tally::eval::variants::{stylish, wacky};
use tally::eval::{EvalMode, Evaluate, Evaluator, Units};
use tally::referee::{GameInput, score_input};
use tally::rules::{Game, Rules, Variant};
use tally::scoring::{Memo, Points, Scorer, Tables};
use tally::search::{Limits, Silent};

/// Every stylish and wacky point value of the specification, doubled (the
/// whole-number factors, wacky's fall step, band thresholds and time units
/// are not point values and stay).
const DOUBLED: &str = r#"
[stylish]
promoted_mate = 100
discovered = 100
coverage = 140
max_force = 78
last_capture = 100

[stylish.capture]
pawn = [10, 20, 20, 40, 80]
minor = [2, 10, 10, 20, 40]
rook = [2, 10, 10, 20, 34]
queen_diagonal = [0, 10, 6, 14, 30]
queen_orthogonal = [0, 6, 6, 20, 30]
king = [6, 20, 20, 40, 100]

[stylish.mate]
queen = [120, 160]
rook = [180, 220]
bishop = [240, 260]
knight = 300
pawn = 360

[stylish.promotion]
queen = 0
rook = 20
bishop = 40
knight = 40

[stylish.force]
pawn = 2
knight = 6
bishop = 6
rook = 10
queen = 18

[wacky]
per_square = 20
capture = 200
en_passant = 2000
fall = 1000
counter = [4000, 7000, 10000, 14000, 20000, 30000, 50000, 70000, 100000, 150000]
counter_step = 50000
combination = [2000, 5000, 8000, 12000, 17000, 24000, 35000, 50000, 70000]
combination_step = 30000
castling = 1000
check = 10000
mate = 50000
life = [[0, 2000], [26, 4000], [36, 6000], [41, 10000], [43, 20000], [44, 40000]]
moves = [[1, 20000], [4, 10000], [10, 7000], [15, 4000], [20, 2000], [30, 1400], [40, 1000]]
time = [[3600, 800000], [600, 100000], [60, 8000], [10, 1200], [1, 100]]
"#;

fn doubled() -> Tables {
    Tables::from_toml(DOUBLED).expect("the doubled rules file")
}

/// Positions of both variants: the bench's and the specification's worked
/// example (a knight promotion that mates for 230).
const POSITIONS: [(Variant, &str); 8] = [
    (
        Variant::Stylish,
        "r1b2rk1/pp1nqppp/2p1p3/3n4/2BP4/2N1PN2/PP3PPP/R2QR1K1 w - - 0 11",
    ),
    (
        Variant::Stylish,
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    ),
    (Variant::Stylish, "4K3/R4Pk1/5p2/3B4/8/8/8/7R w - - 0 1"),
    (Variant::Stylish, "r5k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1"),
    (
        Variant::Wacky,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        Variant::Wacky,
        "r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq - 0 3",
    ),
    (
        Variant::Wacky,
        "2r3k1/pp3ppp/8/3q4/3Q4/8/PP3PPP/2R3K1 w - - 0 1",
    ),
    (Variant::Wacky, "4k3/8/8/8/8/8/3Q2P1/4K3 w - - 0 1"),
];

#[test]
fn the_referee_pays_twice_as_much() {
    let games = [
        // Captures, a recapture chain, castling, checks.
        "e2e4 d7d5 e4d5 d8d5 b1c3 d5a5 g1f3 c8g4 f1e2 b8c6 e1g1 e8c8 d2d4 g4f3 e2f3 c6d4 \
         f3b7 c8b7 d1d4 a5c3 b2c3 d8d4 c3d4",
        // The fool's mate.
        "f2f3 e7e5 g2g4 d8h4",
    ];
    for variant in [Variant::Stylish, Variant::Wacky] {
        let plain = Scorer::new(variant);
        let twice = Scorer::with_tables(variant, doubled());
        for moves in games {
            let a = score_input(&plain, &GameInput::from_text(None, moves)).unwrap();
            let b = score_input(&twice, &GameInput::from_text(None, moves)).unwrap();
            for (pa, pb) in a.plies.iter().zip(&b.plies) {
                assert_eq!(pb.award.white, pa.award.white * 2, "{variant:?} {moves}");
                assert_eq!(pb.award.black, pa.award.black * 2, "{variant:?} {moves}");
            }
            assert_eq!(b.total.white, a.total.white * 2);
            assert_eq!(b.total.black, a.total.black * 2);
            assert!(a.total.white + a.total.black > Points::ZERO);
        }
    }
}

#[test]
fn the_scale_and_the_policy_follow_the_tables() {
    for variant in [Variant::Stylish, Variant::Wacky] {
        let plain = Scorer::new(variant);
        let twice = Scorer::with_tables(variant, doubled());
        assert_eq!(twice.points_per_pawn(), plain.points_per_pawn() * 2);
        assert_eq!(twice.action_bound(), plain.action_bound() * 2);
        assert_eq!(twice.end_bound(), plain.end_bound() * 2);
        assert_eq!(twice.quiet_award_bound(), plain.quiet_award_bound() * 2);
        assert_eq!(twice.decisive_band(), plain.decisive_band());
        assert_eq!(twice.memo_in_key(), plain.memo_in_key());
        // The internal units are the same number of points per pawn of
        // the variant's scale.
        let (up, ut) = (Units::of(&plain), Units::of(&twice));
        assert_eq!(ut.to_points(100), 2.0 * up.to_points(100));
        assert_eq!(
            ut.from_points(plain.quiet_award_bound() * 2),
            up.from_points(plain.quiet_award_bound())
        );
    }
}

#[test]
fn the_evaluator_predicts_twice_as_much() {
    let t1 = Tables::default();
    let t2 = doubled();
    for (variant, fen) in POSITIONS {
        let rules = Rules::<shakmaty::Chess>::new(variant);
        let game = Game::new(rules, Some(fen)).unwrap();
        let node = game.current();
        let board = node.pos.board();
        for color in [Color::White, Color::Black] {
            match variant {
                Variant::Stylish => assert_eq!(
                    stylish::draw_margin(&t2.stylish, board, color),
                    stylish::draw_margin(&t1.stylish, board, color) * 2,
                    "{fen}"
                ),
                _ => {
                    for moves in [0, 7, 30] {
                        assert_eq!(
                            wacky::win_estimate(&t2.wacky, board, color, moves, 10),
                            wacky::win_estimate(&t1.wacky, board, color, moves, 10) * 2,
                            "{fen}"
                        );
                    }
                }
            }
        }
        let memo = Memo::default();
        for mode in [EvalMode::Variant, EvalMode::Base] {
            let e1 = Evaluator::new(&Scorer::new(variant), mode);
            let e2 = Evaluator::new(&Scorer::with_tables(variant, t2.clone()), mode);
            let (v1, v2) = (e1.evaluate(node, &memo), e2.evaluate(node, &memo));
            // The same internal value: twice the points.
            assert_eq!(v1, v2, "{variant:?} {mode:?} {fen}");
            assert_eq!(e2.units().to_points(v2), 2.0 * e1.units().to_points(v1));
            let (r1, r2) = (
                e1.result_margins(node, &memo),
                e2.result_margins(node, &memo),
            );
            assert_eq!(r1, r2, "{variant:?} {fen}");
        }
    }
}

fn search(variant: Variant, tables: Tables, fen: &str, depth: i32) -> (String, i32, u64, Units) {
    let mut engine = Engine::with_options(
        variant,
        EngineOptions {
            threads: 1,
            hash_mb: 8,
            tables,
            ..EngineOptions::default()
        },
    );
    engine.set_position(Some(fen), &[]).unwrap();
    let r = engine.search(Limits::depth(depth), &Silent).unwrap();
    let best = r.best.expect("a move").to_string();
    (best, r.lines[0].value, r.nodes, engine.units())
}

#[test]
fn the_search_plays_the_same_and_reports_twice_the_points() {
    for (variant, fen) in POSITIONS {
        let depth = if variant == Variant::Stylish { 5 } else { 4 };
        let (m1, v1, n1, u1) = search(variant, Tables::default(), fen, depth);
        let (m2, v2, n2, u2) = search(variant, doubled(), fen, depth);
        assert_eq!(m1, m2, "{variant:?} {fen}");
        assert_eq!((v1, n1), (v2, n2), "{variant:?} {fen}: the same tree");
        assert_eq!(u2.to_points(v2), 2.0 * u1.to_points(v1), "{fen}");
    }
}
