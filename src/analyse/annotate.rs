//! The annotated PGN of `tally analyse --pgn FILE`: [`annotated_pgn`]
//! writes the game back with an evaluation, a clock and the points earned
//! and missed on every ply, in the comment syntax chess GUIs read
//! (`[%eval]`, `[%clk]`).

use std::time::Duration;

use shakmaty::Color;

use super::{Expected, Finish, GameAnalysis, fmt_points, limits_text};
use crate::pgn::{
    PgnGame, PgnOut, PgnPly, award_comment, clock_text, kept_tags, variant_tag, write_pgn,
};
use crate::rules::Ending;
use crate::scoring::Scorer;
use crate::search::Limits;

/// The `[%eval]` text of an expected final margin, from White's side: a
/// proven mate as `#N` / `#-N`, otherwise the margin in pawns of the
/// variant's points (`ppp` points to a pawn), two decimals.
fn eval_text(e: &Expected, ppp: f64) -> String {
    match e.mate {
        Some(m) => format!("#{m}"),
        None => {
            let pawns = e.margin / ppp;
            // No "-0.00" for a margin that rounds to nothing.
            format!("{:.2}", if pawns.abs() < 0.005 { 0.0 } else { pawns })
        }
    }
}

/// The annotated PGN of an analysed game (what `tally analyse --pgn FILE`
/// writes): the game's own tags with Tally as the `Annotator`, an opening
/// comment with the limits, the ending, both totals and the points missed,
/// and on every ply its `[%eval]` (the expected final margin for White in
/// pawns of the variant's points), its `[%clk]` when the game had clocks,
/// what it earned and, when it missed points, the best action and the miss
/// (`big miss` at `big` points or more).
pub fn annotated_pgn(
    scorer: &Scorer,
    g: &PgnGame,
    a: &GameAnalysis,
    finish: &Finish,
    limits: &Limits,
    big: f64,
) -> String {
    let r = &a.record;
    let ppp = scorer.points_per_pawn().as_f64();
    let expected = a.expected();
    let n = a.plies.len();
    let board_end = r
        .ending
        .is_some_and(|e| !matches!(e, Ending::Resignation { .. }));
    let plies = a
        .plies
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut c = String::new();
            // The game's end is the result's to say, as lichess does; a
            // special action is a comment to other tools, with no move to
            // hang an evaluation on.
            let ended_here = board_end && i + 1 == n && n == r.plies.len();
            if let Some(e) = expected.get(i + 1)
                && !ended_here
                && !p.action.is_special()
            {
                c.push_str(&format!("[%eval {}] ", eval_text(e, ppp)));
            }
            if let Some(secs) = g.input.clocks.get(i).copied().flatten() {
                c.push_str(&format!(
                    "[%clk {}] ",
                    clock_text(Duration::from_secs(secs))
                ));
            }
            let mut notes = Vec::new();
            if let Some(award) = award_comment(&p.earned, p.mover) {
                notes.push(award);
            }
            if p.missed > 0.0 {
                notes.push(format!(
                    "best {} {}, played {}",
                    p.best.san, p.best.value, p.played
                ));
                let mut m = format!("missed {}", fmt_points(p.missed).trim_start_matches('+'));
                if p.missed >= big {
                    m.push_str(" (big miss)");
                }
                notes.push(m);
            }
            c.push_str(&notes.join("; "));
            let c = c.trim_end().to_owned();
            PgnPly {
                text: p.san.clone(),
                special: p.action.is_special(),
                comment: (!c.is_empty()).then_some(c),
            }
        })
        .collect();
    let missed = |c: Color| {
        fmt_points(a.missed_by(c))
            .trim_start_matches('+')
            .to_owned()
    };
    let mut intro = format!(
        "tally analyse, {}: {}; points White {} Black {}; missed White {} Black {}; \
         evals: the expected final margin for White in pawns of {} points",
        limits_text(limits),
        finish.how,
        r.total.white,
        r.total.black,
        missed(Color::White),
        missed(Color::Black),
        scorer.points_per_pawn(),
    );
    if finish.against_points {
        intro.push_str("; the result stands whatever the points");
    }
    // The game's own tags, our Annotator in place of any other.
    let mut tags = kept_tags(&g.tags, &["Annotator"]);
    tags.push((
        "Annotator".into(),
        format!("tally analyse ({})", limits_text(limits)),
    ));
    let out = PgnOut {
        tags,
        variant: variant_tag(g.variant.as_deref(), scorer.variant(), r.chess960),
        start_fen: r.start_fen.clone(),
        plies,
        intro: Some(intro),
        result: finish.result.to_owned(),
    };
    write_pgn(&out)
}
