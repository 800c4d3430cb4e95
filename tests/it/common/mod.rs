//! Helpers shared by the scoring tests: score a game given as FEN and
//! action text under a variant, and read its numbers; the analysis engine
//! ([`analysis`]) and the `tally` binary ([`cli`]) the other modules share.
#![allow(dead_code)]

pub mod analysis;
pub mod cli;

use shakmaty::{Color, KnownOutcome};
use tally::referee::{GameInput, ScoreRecord, score_input};
use tally::rules::Variant;
use tally::scoring::{Award, DrawAdvantage, Event, Points, Scorer, Tables};

/// Scores `moves` from `fen` (or the start) under `variant`.
pub fn score(variant: Variant, fen: Option<&str>, moves: &str) -> ScoreRecord {
    score_with(&Scorer::new(variant), fen, moves, None)
}

/// Scores with a given scorer and recorded result.
pub fn score_with(
    scorer: &Scorer,
    fen: Option<&str>,
    moves: &str,
    result: Option<KnownOutcome>,
) -> ScoreRecord {
    let mut input = GameInput::from_text(fen, moves);
    input.result = result;
    match score_input(scorer, &input) {
        Ok(r) => r,
        Err(e) => panic!("{fen:?} {moves}: {e}"),
    }
}

/// A scorer for sets with a draw advantage.
pub fn sets(advantage: DrawAdvantage) -> Scorer {
    let mut s = Scorer::new(Variant::Sets);
    s.set_draw_advantage(advantage);
    s
}

/// A scorer from a TOML rules text.
pub fn with_rules(variant: Variant, toml: &str) -> Scorer {
    Scorer::with_tables(variant, Tables::from_toml(toml).expect("rules"))
}

/// Whole points (or a decimal like 0.5) as [`Points`].
pub fn pts(x: f64) -> Points {
    Points::from_f64(x).expect("points")
}

/// `(white, black)` of an award, as f64.
pub fn wb(a: &Award) -> (f64, f64) {
    (a.white.as_f64(), a.black.as_f64())
}

/// `(white, black)` of ply `n` (1-based).
pub fn ply(r: &ScoreRecord, n: usize) -> (f64, f64) {
    wb(&r.plies[n - 1].award)
}

/// The event names of ply `n` (1-based).
pub fn events(r: &ScoreRecord, n: usize) -> Vec<&'static str> {
    r.plies[n - 1]
        .award
        .events
        .iter()
        .map(Event::name)
        .collect()
}

/// `(white, black)` totals.
pub fn total(r: &ScoreRecord) -> (f64, f64) {
    wb(&r.total)
}

/// `(white, black)` of the outcome award.
pub fn outcome(r: &ScoreRecord) -> (f64, f64) {
    wb(&r.outcome)
}

/// White wins.
pub const WHITE_WINS: Option<KnownOutcome> = Some(KnownOutcome::Decisive {
    winner: Color::White,
});

/// Black wins.
pub const BLACK_WINS: Option<KnownOutcome> = Some(KnownOutcome::Decisive {
    winner: Color::Black,
});

/// White's queen checks from c2 and c8 while Black's king goes h7-h8 and
/// back: the position after ply 2 recurs after plies 6 and 10.
pub const PERPETUAL_WHITE: (&str, &str) = (
    "8/6pk/7p/8/8/8/8/3Q2K1 w - - 0 1",
    "d1c2 h7h8 c2c8 h8h7 c8c2 h7h8 c2c8 h8h7 c8c2 h7h8",
);

/// The same, colours reversed.
pub const PERPETUAL_BLACK: (&str, &str) = (
    "3q2k1/8/8/8/8/7P/6PK/8 b - - 0 1",
    "d8c7 h2h1 c7c1 h1h2 c1c7 h2h1 c7c1 h1h2 c1c7 h2h1",
);
