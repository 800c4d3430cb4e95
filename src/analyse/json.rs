//! The JSON of `tally analyse --json`: [`position_json`] for one position
//! ranked, [`game_json`] for a whole game analysed. Field names and order
//! are part of the command's output; tools read them.

use serde_json::{Value as Json, json};
use shakmaty::Color;

use super::{GameAnalysis, PositionAnalysis, RankedAction};
use crate::rules::Variant;
use crate::scoring::{Award, Events};

/// A side as the JSON names it: `white` or `black`.
fn color_name(c: Color) -> &'static str {
    c.fold_wb("white", "black")
}

/// An award: each side's points and the referee's event names.
pub fn award_json(a: &Award) -> Json {
    json!({
        "white": a.white,
        "black": a.black,
        "events": events_json(a.events),
    })
}

/// Event names, as a JSON array.
fn events_json(e: Events) -> Json {
    Json::Array(e.iter().map(|e| Json::from(e.name())).collect())
}

/// One ranked action of a position analysis.
fn ranked_json(a: &PositionAnalysis, r: &RankedAction) -> Json {
    json!({
        "rank": r.rank,
        "action": a.text(r.action),
        "san": r.san,
        "value": r.value,
        "award": award_json(&r.immediate.award),
        "ending": r.immediate.ending.map(|e| e.kind()),
        "outcome": award_json(&r.immediate.outcome),
        "pv": r.pv,
        "depth": r.depth,
    })
}

/// A position analysis (`tally analyse --json` without a whole game): the
/// position, the search's depth, nodes and time, and every action ranked.
pub fn position_json(variant: Variant, a: &PositionAnalysis) -> Json {
    json!({
        "variant": variant.id(),
        "fen": a.fen,
        "turn": color_name(a.turn),
        "depth": a.depth,
        "nodes": a.nodes,
        "time_ms": a.time.as_millis() as u64,
        "actions": a.actions.iter().map(|r| ranked_json(a, r)).collect::<Vec<_>>(),
    })
}

/// A whole-game analysis (`tally analyse --pgn FILE --json`): the game's
/// ending, outcome, totals and points missed, and every ply with what it
/// earned, its value, the best action and what was missed; a miss of
/// `big` points or more is a big miss.
pub fn game_json(variant: Variant, a: &GameAnalysis, big: f64) -> Json {
    let plies: Vec<Json> = a
        .plies
        .iter()
        .map(|p| {
            json!({
                "ply": p.ply,
                "mover": color_name(p.mover),
                "fullmove": p.fullmove,
                "action": a.text(p.action),
                "san": p.san,
                "earned": award_json(&p.earned),
                "value": p.played,
                "best": {
                    "action": a.text(p.best.action),
                    "san": p.best.san,
                    "value": p.best.value,
                },
                "missed": p.missed,
                "big_miss": p.missed >= big && p.missed > 0.0,
                "cumulative": {"white": p.cumulative[0], "black": p.cumulative[1]},
            })
        })
        .collect();
    json!({
        "variant": variant.id(),
        "start_fen": a.record.start_fen,
        "ending": a.record.ending_kind(),
        "outcome": award_json(&a.record.outcome),
        "total": {"white": a.record.total.white, "black": a.record.total.black},
        "missed": {"white": a.missed_by(Color::White), "black": a.missed_by(Color::Black)},
        "nodes": a.nodes,
        "plies": plies,
    })
}
