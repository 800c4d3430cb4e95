//! The table of `tally analyse` in position mode: every legal action,
//! best first, with its value, what it earns at once (points and events)
//! and its principal line.

use super::PositionAnalysis;
use crate::rules::Variant;

/// The ranked actions of a position analysis as a text table, under two
/// lines naming the position, the search's depth, nodes and time.
pub fn position_table(variant: Variant, a: &PositionAnalysis) -> String {
    let mut s = format!(
        "{} {} to move: {}\ndepth {}, {} nodes, {:.2} s; values are the expected point margin for {}\n",
        variant,
        if a.turn.is_white() { "White" } else { "Black" },
        a.fen,
        a.depth,
        a.nodes,
        a.time.as_secs_f64(),
        if a.turn.is_white() { "White" } else { "Black" },
    );
    s.push_str(&format!(
        "{:>4}  {:<8} {:<8} {:>20}  {:<14} {:<28} {}\n",
        "rank", "action", "san", "value", "award", "events", "line"
    ));
    for r in &a.actions {
        let value = r
            .value
            .map_or_else(|| "(not searched)".to_owned(), |v| v.to_string());
        let all = r.immediate.total();
        let mut events = all.events.to_string();
        if let Some(e) = r.immediate.ending {
            events = if events.is_empty() {
                format!("[{}]", e.kind())
            } else {
                format!("{events} [{}]", e.kind())
            };
        }
        s.push_str(&format!(
            "{:>4}  {:<8} {:<8} {:>20}  {:<14} {:<28} {}\n",
            r.rank,
            a.text(r.action),
            r.san,
            value,
            all.share_text(a.turn, "opp"),
            events,
            r.pv.join(" ")
        ));
    }
    s
}
