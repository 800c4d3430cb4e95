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

/// A sets scorer under a handicap of factor 3 for `weaker`, written out
/// (3 times each default value): mate 6, resignation 6, bare king 3,
/// mutual bare 1.5, stalemate 3, draw 1.5, perpetual check 3, mutual
/// perpetual check 1.5, repetition 1.5.
fn handicapped(weaker: &str, advantage: DrawAdvantage) -> Scorer {
    let mut s = with_rules(
        Variant::Sets,
        &format!(
            "[sets.handicap]\nside = \"{weaker}\"\nmate = 6\nresignation = 6\nbare_king = 3\n\
             mutual_bare = 1.5\nstalemate = 3\ndraw = 1.5\nperpetual_check = 3\n\
             mutual_perpetual_check = 1.5\nrepetition = 1.5\n"
        ),
    );
    s.set_draw_advantage(advantage);
    s
}

#[test]
fn handicap_pays_the_weaker_side_its_values_and_the_stronger_the_table() {
    let black = DrawAdvantage::Black;
    // Fool's mate, Black mates: 6 when Black is the weaker, 2 when White is.
    let mate = "f2f3 e7e5 g2g4 d8h4";
    assert_eq!(
        total(&score_with(&handicapped("black", black), None, mate, None)),
        (0.0, 6.0)
    );
    assert_eq!(
        total(&score_with(&handicapped("white", black), None, mate, None)),
        (0.0, 2.0)
    );
    // Black resigns after 1. e4: White, weaker, gets 6; stronger, 2.
    let r = score_with(&handicapped("white", black), None, "e2e4", WHITE_WINS);
    assert_eq!((kind(&r), total(&r)), (Some("resignation"), (6.0, 0.0)));
    let r = score_with(&handicapped("black", black), None, "e2e4", WHITE_WINS);
    assert_eq!(total(&r), (2.0, 0.0));
    // A claimed bare king by White: 3 weaker, 1 stronger.
    let fen = Some("4k3/8/8/8/8/8/8/n2QK3 w - - 0 1");
    let claim = "d1a1 e8e7 claim";
    let r = score_with(&handicapped("white", black), fen, claim, None);
    assert_eq!((kind(&r), total(&r)), (Some("claim"), (3.0, 0.0)));
    assert_eq!(
        total(&score_with(&handicapped("black", black), fen, claim, None)),
        (1.0, 0.0)
    );
    // Mutual bare kings, White the first barer: 1.5 weaker, 0.5 stronger.
    let fen = Some("8/8/8/8/8/8/2k5/1n1RK3 w - - 0 1");
    let r = score_with(&handicapped("white", black), fen, "d1b1 c2b1", None);
    assert_eq!((kind(&r), total(&r)), (Some("bare_king"), (1.5, 0.0)));
    assert_eq!(
        total(&score_with(
            &handicapped("black", black),
            fen,
            "d1b1 c2b1",
            None
        )),
        (0.5, 0.0)
    );
    // White stalemates Black: 3 weaker, 1 stronger.
    let fen = Some("k7/2K5/8/1Q6/8/8/8/8 w - - 0 1");
    let r = score_with(&handicapped("white", black), fen, "b5b6", None);
    assert_eq!((kind(&r), total(&r)), (Some("stalemate"), (3.0, 0.0)));
    assert_eq!(
        total(&score_with(&handicapped("black", black), fen, "b5b6", None)),
        (1.0, 0.0)
    );
    // Perpetual check by White: 3 weaker, 1 stronger; by Black likewise.
    let (fen, moves) = PERPETUAL_WHITE;
    let r = score_with(&handicapped("white", black), Some(fen), moves, None);
    assert_eq!((kind(&r), total(&r)), (Some("perpetual_check"), (3.0, 0.0)));
    let r = score_with(&handicapped("black", black), Some(fen), moves, None);
    assert_eq!(total(&r), (1.0, 0.0));
    let (fen, moves) = PERPETUAL_BLACK;
    let r = score_with(&handicapped("black", black), Some(fen), moves, None);
    assert_eq!(total(&r), (0.0, 3.0));
    // The knights' dance: Black makes the third occurrence, White gets
    // the repetition: 1.5 weaker, 0.5 stronger.
    let dance = "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8";
    let r = score_with(&handicapped("white", black), None, dance, None);
    assert_eq!((kind(&r), total(&r)), (Some("repetition"), (1.5, 0.0)));
    assert_eq!(
        total(&score_with(&handicapped("black", black), None, dance, None)),
        (0.5, 0.0)
    );
}

#[test]
fn handicap_mutual_perpetual_check() {
    // Mutual perpetual check, Black's first check: 1.5 when Black is the
    // weaker, 0.5 when White is.
    let rules = Rules::<Chess>::new(Variant::Sets);
    let node = rules.start();
    let ending = Ending::Repetition(Repetition {
        kind: RepetitionKind::Mutual {
            first_check: Color::Black,
        },
        third_by: Color::White,
        projected: false,
    });
    let outcome = |s: &Scorer| {
        let end = s.end_award(
            &Memo::default(),
            None,
            &node,
            &ending,
            &EndContext::default(),
        );
        wb(&end.outcome)
    };
    assert_eq!(
        outcome(&handicapped("black", DrawAdvantage::Black)),
        (0.0, 1.5)
    );
    assert_eq!(
        outcome(&handicapped("white", DrawAdvantage::Black)),
        (0.0, 0.5)
    );
}

#[test]
fn handicap_gives_the_weaker_side_the_draw_advantage() {
    // The 30-move rule: the weaker side gets the draw, 1.5, whatever the
    // draw advantage says (Black's, White's, nobody's).
    let fen = Some("4k3/8/8/8/8/8/8/R3K3 w - - 58 40");
    for a in [
        DrawAdvantage::Black,
        DrawAdvantage::White,
        DrawAdvantage::None,
    ] {
        let r = score_with(&handicapped("white", a), fen, "a1a2 e8e7", None);
        assert_eq!(
            (kind(&r), total(&r)),
            (Some("move_rule"), (1.5, 0.0)),
            "{a:?}"
        );
        let r = score_with(&handicapped("black", a), fen, "a1a2 e8e7", None);
        assert_eq!(total(&r), (0.0, 1.5), "{a:?}");
    }
    // Insufficient material after a passed claim: the same.
    let fen = Some("4k3/8/8/1p6/8/2N5/8/4K3 w - - 0 1");
    let r = score_with(
        &handicapped("white", DrawAdvantage::Black),
        fen,
        "c3b5 e8e7 e1e2",
        None,
    );
    assert_eq!(
        (kind(&r), total(&r)),
        (Some("insufficient_material"), (1.5, 0.0))
    );
}

#[test]
fn handicap_table_rules_files_load_and_follow_the_table() {
    use tally::scoring::Tables;
    use tally::scoring::variants::sets::{HANDICAP_TABLE, HandicapGap, Value, handicap_factor};
    let base = Tables::default();
    for level in HANDICAP_TABLE {
        for row in level.rows {
            let g = HandicapGap {
                gap: row.gap,
                weaker_elo: level.weaker_elo,
            };
            for weaker in [Color::White, Color::Black] {
                let t = base.clone().with_handicap(g, weaker).unwrap();
                // What `tally rules sets --handicap D` prints loads back to
                // the same tables.
                let text = tally::scoring::dump::to_toml(&t, &[Variant::Sets]);
                let loaded = Tables::from_toml(&text).unwrap();
                assert_eq!(loaded, t, "{g}");
                let h = loaded.sets.handicap.as_ref().unwrap();
                assert_eq!(h.side, weaker);
                for v in Value::ALL {
                    // Each value is the table's times the row's factor, to
                    // the thousandth.
                    let want = base.sets.base(v).milli() * row.factor_milli / 1000;
                    assert_eq!(h.get(v).unwrap().milli(), want, "{g} {}", v.name());
                    assert_eq!(loaded.sets.paid_to(v, weaker).milli(), want);
                    assert_eq!(loaded.sets.paid_to(v, !weaker), base.sets.base(v));
                }
            }
            assert_eq!(handicap_factor(g).unwrap(), row.factor_milli);
        }
        // Rising gaps, factors that never fall, from 1 at no gap; between
        // two rows the factor lies between theirs; beyond the last row, no
        // handicap.
        let rows = level.rows;
        assert_eq!((rows[0].gap, rows[0].factor_milli), (0, 1000));
        let at = |gap| {
            handicap_factor(HandicapGap {
                gap,
                weaker_elo: level.weaker_elo,
            })
        };
        for w in rows.windows(2) {
            assert!(w[0].gap < w[1].gap && w[0].factor_milli <= w[1].factor_milli);
            let mid = at((w[0].gap + w[1].gap) / 2).unwrap();
            assert!(w[0].factor_milli <= mid && mid <= w[1].factor_milli);
        }
        assert!(at(rows[rows.len() - 1].gap + 1).is_err());
    }
    // Rising levels; below the first and above the last, their factors.
    for w in HANDICAP_TABLE.windows(2) {
        assert!(w[0].weaker_elo < w[1].weaker_elo);
    }
    let (first, last) = (HANDICAP_TABLE[0], HANDICAP_TABLE[HANDICAP_TABLE.len() - 1]);
    let k = |gap, weaker_elo| handicap_factor(HandicapGap { gap, weaker_elo }).unwrap();
    assert_eq!(k(200, first.weaker_elo - 400), first.rows[1].factor_milli);
    assert_eq!(k(200, last.weaker_elo + 400), last.rows[1].factor_milli);
    // Between two levels, geometric by rating: halfway, the geometric mean
    // of the two levels' factors (to the thousandth).
    let (a, b) = (HANDICAP_TABLE[0], HANDICAP_TABLE[1]);
    let mid = (a.weaker_elo + b.weaker_elo) / 2;
    let want = ((a.rows[1].factor_milli * b.rows[1].factor_milli) as f64).sqrt();
    assert!((k(a.rows[1].gap, mid) as f64 - want).abs() <= 1.0);
    // Between two levels, a gap beyond either level's rows is refused,
    // naming the weaker player's own rating.
    let reach = a.rows[a.rows.len() - 1]
        .gap
        .min(b.rows[b.rows.len() - 1].gap);
    assert!(
        handicap_factor(HandicapGap {
            gap: reach,
            weaker_elo: mid
        })
        .is_ok()
    );
    let e = handicap_factor(HandicapGap {
        gap: reach + 1,
        weaker_elo: mid,
    })
    .unwrap_err();
    let want = format!("for a weaker player at {mid} the handicap table goes up to {reach} Elo");
    assert!(e.contains(&want), "{e}");
    // docs/rules.md gives the same table: a header `| weaker's rating |
    // 0 | 200 | ...` of gaps, then a row a level, `-` where a level stops.
    let doc = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/rules.md"));
    let lines: Vec<&str> = doc
        .lines()
        .skip_while(|l| *l != "### Handicap")
        .skip_while(|l| !l.starts_with("| weaker's rating"))
        .take_while(|l| l.starts_with('|'))
        .collect();
    let cells = |l: &str| -> Vec<String> {
        l.trim_matches('|')
            .split('|')
            .map(|c| c.trim().to_owned())
            .collect()
    };
    let gaps: Vec<u32> = cells(lines[0])[1..]
        .iter()
        .map(|c| c.trim_start_matches("gap ").parse().unwrap())
        .collect();
    assert_eq!(lines.len(), 2 + HANDICAP_TABLE.len(), "{lines:?}");
    for (level, line) in HANDICAP_TABLE.iter().zip(&lines[2..]) {
        let c = cells(line);
        assert_eq!(c[0], level.weaker_elo.to_string(), "{line}");
        for (gap, cell) in gaps.iter().zip(&c[1..]) {
            let want = match level.rows.iter().find(|r| r.gap == *gap) {
                Some(r) => (r.factor_milli as f64 / 1000.0).to_string(),
                None => "-".to_owned(),
            };
            assert_eq!(*cell, want, "{line}, gap {gap}");
        }
        // Every row of the level is a column of the doc's table.
        assert!(level.rows.iter().all(|r| gaps.contains(&r.gap)), "{line}");
    }
}

#[test]
fn inconsistent_handicaps_are_refused() {
    use tally::scoring::Tables;
    // A value below the table's.
    let e = Tables::from_toml("[sets.handicap]\nside = \"black\"\ndraw = 0.25\n").unwrap_err();
    assert!(
        e.0.contains("sets.handicap.draw = 0.25 is below sets.draw = 0.5"),
        "{e}"
    );
    // A value above the weaker side's mate.
    let e = Tables::from_toml("[sets.handicap]\nside = \"black\"\nstalemate = 2.5\n").unwrap_err();
    assert!(e.0.contains("above the weaker player's mate (2)"), "{e}");
    // No side, an unknown side, an unknown key.
    assert!(Tables::from_toml("[sets.handicap]\ndraw = 1\n").is_err());
    assert!(Tables::from_toml("[sets.handicap]\nside = \"red\"\n").is_err());
    assert!(Tables::from_toml("[sets.handicap]\nside = \"white\"\nwin = 3\n").is_err());
    // A handicap given twice; a factor below 1; a gap beyond the table.
    let t = Tables::from_toml("[sets.handicap]\nside = \"black\"\n").unwrap();
    let g = |gap| tally::scoring::variants::sets::HandicapGap {
        gap,
        weaker_elo: 1000,
    };
    assert!(t.with_handicap(g(200), Color::Black).is_err());
    assert!(
        Tables::default()
            .with_handicap_factor(999, Color::Black)
            .is_err()
    );
    assert!(
        Tables::default()
            .with_handicap(g(100_000), Color::Black)
            .is_err()
    );
}
