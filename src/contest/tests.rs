//! Contests played game by game through the referee, each result
//! computed by hand from the rules tables (docs/rules.md) and written in
//! the test.

use super::*;
use crate::referee::{GameInput, parse_result, score_input};
use crate::scoring::Scorer;

/// Scholar's mate: `1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#`, White mates.
const SCHOLAR: &str = "e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 h5f7";
/// Fool's mate: `1. f3 e5 2. g4 Qh4#`, Black mates.
const FOOL: &str = "f2f3 e7e5 g2g4 d8h4";
/// `1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8`: a plain threefold
/// repetition.
const DANCE: &str = "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8";
/// Sets: from this FEN a quiet rook move is the 60th ply without a
/// capture or pawn move: the 30-move rule, a draw.
const SETS_DRAW_FEN: &str = "4k3/8/8/8/8/8/8/R3K3 w - - 59 40";

/// Plays `next` with `moves` from `fen` (and a recorded `result`) under
/// the referee, set as the contest says, and records it.
fn play(contest: &mut Contest, fen: Option<&str>, moves: &str, result: &str) -> PlayedGame {
    let next = contest.next().expect("a game comes next");
    let mut scorer = Scorer::new(next.variant);
    scorer.set_draw_advantage(next.draw_advantage_colour);
    let mut input = GameInput::from_text(fen, moves);
    input.result = parse_result(result).unwrap();
    let record = score_input(&scorer, &input).expect("a legal game");
    *contest
        .record(GameResult::of_record(&record, next.white))
        .expect("recorded")
}

fn pts(n: i64) -> Points {
    Points::whole(n)
}

/// Stylish, `series:2` (a resignation ends it by default):
///
/// - game 1, the first player White: Scholar's mate. `Qxf7` is a queen
///   taking a pawn along a diagonal (0) and mates with the queen
///   adjacent to the king (60): first 60, second 0.
/// - game 2, the second player White: `1. e4 d5 2. exd5` (a pawn takes a
///   pawn: 5 to White, the second player), then Black, the first player,
///   resigns (1-0). A stylish resignation pays nothing: second 5.
///
/// Sums: first 60, second 5. The first player resigned: the series ends
/// and the second player wins it, by resignation, with the smaller sum.
#[test]
fn a_resignation_ends_a_stylish_series_and_the_resigner_loses_with_the_larger_sum() {
    let rules = Rules::new(Format::Series { games: 3 }, Variant::Stylish).unwrap();
    assert!(rules.resignation_ends);
    let mut c = Contest::new(rules).unwrap();
    let g1 = play(&mut c, None, SCHOLAR, "1-0");
    assert_eq!((g1.white, g1.points), (Seat::First, [pts(60), pts(0)]));
    assert_eq!(c.next().unwrap().white, Seat::Second);
    let g2 = play(&mut c, None, "e2e4 d7d5 e4d5", "1-0");
    assert_eq!(g2.points, [pts(0), pts(5)]);
    assert_eq!(g2.resigned, Some(Seat::First));
    assert_eq!(g2.ending, Some(EndingKind::Resignation));
    let s = c.standing();
    assert_eq!(s.totals, [pts(60), pts(5)]);
    assert_eq!((s.won, s.tied, s.games), ([1, 1], 0, 2));
    assert_eq!(s.leader(), Some(Seat::First));
    assert_eq!(
        s.decision,
        Some(Decision {
            winner: Some(Seat::Second),
            why: Why::Resignation
        })
    );
    // Over after two of its three games: no game comes next.
    assert_eq!(c.next(), None);
    let more = c.record(GameResult {
        white: Seat::First,
        white_points: pts(1),
        black_points: pts(0),
        ending: Some(EndingKind::Checkmate),
        resigned: None,
    });
    assert_eq!(more.unwrap_err(), ContestError::Over { games: 2 });
}

/// The same two games with the resignation rule switched off: the
/// resignation is scored as stylish scores it (nothing) and the series
/// goes on to game 3, the first player White; a plain repetition there
/// (no capture, equal forces: 0-0) leaves the sums 60-5, and the first
/// player wins on points.
#[test]
fn without_the_switch_a_stylish_resignation_is_only_scored() {
    let mut rules = Rules::new(Format::Series { games: 3 }, Variant::Stylish).unwrap();
    rules.resignation_ends = false;
    let mut c = Contest::new(rules).unwrap();
    play(&mut c, None, SCHOLAR, "1-0");
    play(&mut c, None, "e2e4 d7d5 e4d5", "1-0");
    let next = c.next().expect("the series goes on");
    assert_eq!((next.number, next.white), (3, Seat::First));
    let g3 = play(&mut c, None, DANCE, "*");
    assert_eq!(g3.points, [pts(0), pts(0)]);
    let s = c.standing();
    assert_eq!(s.totals, [pts(60), pts(5)]);
    assert_eq!((s.won, s.tied), ([1, 1], 1));
    assert_eq!(
        s.decision,
        Some(Decision {
            winner: Some(Seat::First),
            why: Why::Points
        })
    );
}

/// The switch on in dynamic, `series:2`: game 1, the first player White
/// mates (Scholar's mate): 100-0. Game 2, the second player White plays
/// `1. e4` and Black, the first player, resigns: dynamic pays a
/// resignation as a mate, 100 to the second player. The sums are level
/// (100-100), but the first player resigned: the second wins by
/// resignation. Without the switch (dynamic's default) the series is
/// tied on points.
#[test]
fn the_resignation_switch_works_in_any_variant() {
    let mut rules = Rules::new(Format::Series { games: 2 }, Variant::Dynamic).unwrap();
    assert!(!rules.resignation_ends);
    let games = |rules: Rules| {
        let mut c = Contest::new(rules).unwrap();
        play(&mut c, None, SCHOLAR, "1-0");
        play(&mut c, None, "e2e4", "1-0");
        c
    };
    let off = games(rules);
    assert_eq!(off.standing().totals, [pts(100), pts(100)]);
    assert_eq!(
        off.decision(),
        Some(Decision {
            winner: None,
            why: Why::Points
        })
    );
    rules.resignation_ends = true;
    let on = games(rules);
    assert_eq!(
        on.decision(),
        Some(Decision {
            winner: Some(Seat::Second),
            why: Why::Resignation
        })
    );
}

/// `tiebreak-match:2` (cap 4):
///
/// - game 1, dynamic, the first player White: Fool's mate, Black (the
///   second player) mates: 0-100.
/// - game 2, dynamic, the second player White: Fool's mate, Black (the
///   first player) mates: first 100. The match is tied, 100-100.
/// - game 3, the first tie-break (tiebraker, disk on), the first player
///   White: the knight dance, a plain repetition before any disk: the
///   dynamic table's draw, 50-50. Still tied, 150-150.
/// - game 4, a tie-break, the second player White: Fool's mate, the
///   first player mates: 100-0.
///
/// Sums: first 250, second 150; the first player wins by the tie-break.
/// Games won on points: first 2 (games 2 and 4), second 1, tied 1.
#[test]
fn a_tied_dynamic_match_goes_to_tiebraker_games() {
    let rules = Rules::new(Format::TiebreakMatch { games: 2, cap: 4 }, Variant::Dynamic).unwrap();
    let mut c = Contest::new(rules).unwrap();
    let first = c.next().unwrap();
    assert_eq!(
        (first.variant, first.tiebreak, first.specials),
        (Variant::Dynamic, false, false)
    );
    let g1 = play(&mut c, None, FOOL, "0-1");
    assert_eq!(g1.points, [pts(0), pts(100)]);
    let g2 = play(&mut c, None, FOOL, "0-1");
    assert_eq!((g2.white, g2.points), (Seat::Second, [pts(100), pts(0)]));
    assert_eq!(c.decision(), None);
    let tb = c.next().expect("a tie-break game");
    assert_eq!(
        (tb.number, tb.variant, tb.white, tb.tiebreak, tb.specials),
        (3, Variant::Tiebraker, Seat::First, true, true)
    );
    let g3 = play(&mut c, None, DANCE, "*");
    assert_eq!((g3.tiebreak, g3.points), (true, [pts(50), pts(50)]));
    let tb = c.next().expect("another tie-break");
    assert_eq!((tb.number, tb.white), (4, Seat::Second));
    let g4 = play(&mut c, None, FOOL, "0-1");
    assert_eq!(g4.points, [pts(100), pts(0)]);
    let s = c.standing();
    assert_eq!(s.totals, [pts(250), pts(150)]);
    assert_eq!((s.won, s.tied, s.tiebreaks), ([2, 1], 1, 2));
    assert_eq!(
        s.decision,
        Some(Decision {
            winner: Some(Seat::First),
            why: Why::Tiebreak
        })
    );
    assert_eq!(c.next(), None);
}

/// The same first three games under `tiebreak-match:2,cap=1`: the one
/// tie-break is drawn 50-50, the cap is reached with the match tied at
/// 150-150: a tied match, decided (not) by the tie-break. Under
/// `tiebreak-match:2` with game 2 the knight dance instead (50-50), the
/// second player leads 150-50 after the regular games and wins on
/// points, no tie-break played.
#[test]
fn a_tie_break_match_ends_at_its_cap_or_without_tie_breaks() {
    let capped = "tiebreak-match:2,cap=1".parse::<Format>().unwrap();
    let mut c = Contest::new(Rules::new(capped, Variant::Dynamic).unwrap()).unwrap();
    play(&mut c, None, FOOL, "0-1");
    play(&mut c, None, FOOL, "0-1");
    play(&mut c, None, DANCE, "*");
    assert_eq!(c.standing().totals, [pts(150), pts(150)]);
    assert_eq!(
        c.decision(),
        Some(Decision {
            winner: None,
            why: Why::Tiebreak
        })
    );
    let mut c = Contest::new(
        Rules::new(Format::TiebreakMatch { games: 2, cap: 4 }, Variant::Dynamic).unwrap(),
    )
    .unwrap();
    play(&mut c, None, FOOL, "0-1");
    play(&mut c, None, DANCE, "*");
    assert_eq!(c.standing().totals, [pts(50), pts(150)]);
    assert_eq!(
        c.decision(),
        Some(Decision {
            winner: Some(Seat::Second),
            why: Why::Points
        })
    );
}

/// Sets, `series:2`, the default colour choice: the first player chose
/// White, so the second holds the draw advantage in both games. Each
/// game is the 30-move rule's draw (1/2 to the draw-advantage player):
/// in game 1 the second player is Black and gets 1/2; in game 2 White
/// and gets 1/2 again. Sums: first 0, second 1: the second wins on
/// points. By colour (the draw advantage Black's in both games) each
/// player would have had 1/2.
#[test]
fn a_sets_draw_pays_the_player_holding_the_draw_advantage_in_both_colours() {
    let rules = Rules::new(Format::Series { games: 2 }, Variant::Sets).unwrap();
    assert_eq!(rules.draw_advantage(), Some(Seat::Second));
    let mut c = Contest::new(rules).unwrap();
    let next = c.next().unwrap();
    assert_eq!(next.draw_advantage, Some(Seat::Second));
    assert_eq!(next.draw_advantage_colour, DrawAdvantage::Black);
    let g1 = play(&mut c, Some(SETS_DRAW_FEN), "a1a2", "*");
    assert_eq!(g1.ending, Some(EndingKind::MoveRule));
    assert_eq!(g1.points, [pts(0), Points::HALF]);
    assert_eq!(
        c.next().unwrap().draw_advantage_colour,
        DrawAdvantage::White
    );
    let g2 = play(&mut c, Some(SETS_DRAW_FEN), "a1a2", "*");
    assert_eq!(g2.points, [pts(0), Points::HALF]);
    let s = c.standing();
    assert_eq!(s.totals, [pts(0), pts(1)]);
    assert_eq!((s.won, s.tied), ([0, 2], 0));
    assert_eq!(
        s.decision,
        Some(Decision {
            winner: Some(Seat::Second),
            why: Why::Points
        })
    );
    // The second player chose: the first holds it, White in game 1 and
    // Black in game 2, and takes both halves.
    let mut rules = rules;
    rules.chooser = Some(Seat::Second);
    let mut c = Contest::new(rules).unwrap();
    assert_eq!(
        c.next().unwrap().draw_advantage_colour,
        DrawAdvantage::White
    );
    play(&mut c, Some(SETS_DRAW_FEN), "a1a2", "*");
    play(&mut c, Some(SETS_DRAW_FEN), "a1a2", "*");
    assert_eq!(c.standing().totals, [pts(1), pts(0)]);
    // Nobody chose: nobody holds it, and a draw pays nothing.
    rules.chooser = None;
    let mut c = Contest::new(rules).unwrap();
    assert_eq!(c.next().unwrap().draw_advantage_colour, DrawAdvantage::None);
    play(&mut c, Some(SETS_DRAW_FEN), "a1a2", "*");
    assert_eq!(c.standing().totals, [pts(0), pts(0)]);
}

/// Dynamic, `series:2`: Scholar's mate twice, so White mates in both
/// games: 100-0 and 100-0 by colour, White 200 and Black 0. By player,
/// the first took game 1 (White) and the second game 2 (White): 100-100,
/// a tied series.
#[test]
fn a_series_sums_by_player_not_by_colour() {
    let rules = Rules::new(Format::Series { games: 2 }, Variant::Dynamic).unwrap();
    let mut c = Contest::new(rules).unwrap();
    play(&mut c, None, SCHOLAR, "1-0");
    play(&mut c, None, SCHOLAR, "1-0");
    let s = c.standing();
    assert_eq!(s.totals, [pts(100), pts(100)]);
    assert_eq!((s.won, s.tied), ([1, 1], 0));
    assert_eq!(s.leader(), None);
    assert_eq!(
        s.decision,
        Some(Decision {
            winner: None,
            why: Why::Points
        })
    );
}

/// A game recorded with the colours the other way round (people who
/// played White twice) still pays its players; the next game's colours
/// follow its number.
#[test]
fn a_game_with_colours_reversed_still_pays_its_players() {
    let rules = Rules::new(Format::Series { games: 3 }, Variant::Dynamic).unwrap();
    let mut c = Contest::new(rules).unwrap();
    play(&mut c, None, SCHOLAR, "1-0");
    let g = *c
        .record(GameResult {
            white: Seat::First,
            white_points: pts(60),
            black_points: pts(40),
            ending: Some(EndingKind::Stalemate),
            resigned: None,
        })
        .unwrap();
    assert_eq!(g.points, [pts(60), pts(40)]);
    assert_eq!(c.standing().totals, [pts(160), pts(40)]);
    assert_eq!(c.next().unwrap().white, Seat::First);
}

#[test]
fn formats_read_and_write_back() {
    for (text, format) in [
        ("series:4", Format::Series { games: 4 }),
        (
            "tiebreak-match:2",
            Format::TiebreakMatch { games: 2, cap: 4 },
        ),
        (
            "tiebreak-match:6,cap=0",
            Format::TiebreakMatch { games: 6, cap: 0 },
        ),
    ] {
        assert_eq!(text.parse::<Format>(), Ok(format));
        assert_eq!(format.to_string(), text);
    }
    assert_eq!(
        " series : 4 ".parse::<Format>(),
        Ok(Format::Series { games: 4 })
    );
    for (bad, why) in [
        ("series", "expected series:N"),
        ("series:0", "must be 1 to 10000"),
        ("series:x", "'x' is not a whole number"),
        ("series:4,cap=2", "'cap=2' is not a setting of series"),
        ("tiebreak-match:4,cap=101", "the cap must be 0 to 100"),
        ("tiebreak-match:4,cap=1,cap=2", "'cap=2' is not a setting"),
        ("league:4", "expected series:N"),
    ] {
        let e = bad.parse::<Format>().unwrap_err();
        assert!(e.contains(why), "{bad}: {e}");
    }
    let e = Rules::new(Format::TiebreakMatch { games: 2, cap: 4 }, Variant::Stylish).unwrap_err();
    assert_eq!(
        e,
        "a tiebreak-match plays dynamic (its tie-breaks tiebraker), not stylish"
    );
}

/// A contest saved as JSON reads back to the same contest; a saved
/// record that breaks the rules (a game after the end, a game out of
/// place, points past the referee's range) is refused.
#[test]
fn a_saved_contest_reads_back_and_a_broken_one_is_refused() {
    let rules = Rules::new(Format::Series { games: 3 }, Variant::Stylish).unwrap();
    let mut c = Contest::new(rules).unwrap();
    play(&mut c, None, SCHOLAR, "1-0");
    play(&mut c, None, "e2e4 d7d5 e4d5", "1-0");
    let json = serde_json::to_string(&c).unwrap();
    assert_eq!(
        json,
        r#"{"rules":{"format":{"kind":"series","games":3},"variant":"stylish","resignation_ends":true,"chooser":"first"},"games":[{"number":1,"variant":"stylish","tiebreak":false,"white":"first","points":[60,0],"ending":"checkmate","resigned":null},{"number":2,"variant":"stylish","tiebreak":false,"white":"second","points":[0,5],"ending":"resignation","resigned":"first"}]}"#
    );
    let back: Contest = serde_json::from_str(&json).unwrap();
    assert_eq!(back, c);
    assert_eq!(back.standing(), c.standing());
    // The resignation rule switched off in the saved rules: game 2 no
    // longer ends it, and the contest reads back as still running.
    let running: Contest = serde_json::from_str(
        &json.replace(r#""resignation_ends":true"#, r#""resignation_ends":false"#),
    )
    .unwrap();
    assert_eq!(running.next().map(|n| n.number), Some(3));
    // Game 1 again after game 2 ended the series.
    let game1 = r#"{"number":1,"variant":"stylish","tiebreak":false,"white":"first","points":[60,0],"ending":"checkmate","resigned":null}"#;
    let over = json.replace("]}", &format!(",{game1}]}}"));
    let e = serde_json::from_str::<Contest>(&over).unwrap_err();
    assert!(e.to_string().contains("over after 2 games"), "{e}");
    let misplaced = json.replace(r#""number":2"#, r#""number":5"#);
    let e = serde_json::from_str::<Contest>(&misplaced).unwrap_err();
    assert!(e.to_string().contains("saved game 5"), "{e}");
    let huge = json.replace("[0,5]", "[0,1e16]");
    let e = serde_json::from_str::<Contest>(&huge).unwrap_err();
    assert!(e.to_string().contains("not a game's points"), "{e}");
    let resigned = json.replace(
        r#""ending":"checkmate","resigned":null"#,
        r#""ending":"checkmate","resigned":"second""#,
    );
    let e = serde_json::from_str::<Contest>(&resigned).unwrap_err();
    assert!(e.to_string().contains("did not end by resignation"), "{e}");
}
