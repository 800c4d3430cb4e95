//! What an analysis starts from, as `tally analyse` words it: the search
//! limits with their defaults ([`limits`]), the variant from the option or
//! the PGN's tag ([`variant_of`]), the position from a FEN and actions
//! ([`set_position`]) or after the first plies of a game
//! ([`moves_to_ply`]). Each error is one line.

use std::time::Duration;

use crate::engine::Engine;
use crate::pgn::variant_of_tag;
use crate::referee::GameInput;
use crate::rules::Variant;
use crate::search::Limits;

/// The search time of a position when no limit is given, in milliseconds:
/// a considered answer, in the time a user waits for one.
pub const DEFAULT_POSITION_MS: u64 = 2000;
/// The search time of each position of a whole game when no limit is
/// given, in milliseconds (up to two searches a ply: a game of 80 plies
/// takes about a minute).
pub const DEFAULT_GAME_MS: u64 = 400;

/// The limits of each search: those given, or without any
/// [`DEFAULT_GAME_MS`] for a whole game and [`DEFAULT_POSITION_MS`] for a
/// position.
///
/// # Errors
///
/// A depth outside 1 to 64.
pub fn limits(
    depth: Option<i32>,
    nodes: Option<u64>,
    movetime_ms: Option<u64>,
    whole_game: bool,
) -> Result<Limits, String> {
    if let Some(d) = depth
        && !(1..=64).contains(&d)
    {
        return Err(format!("--depth {d} is out of range (1 to 64)"));
    }
    let mut limits = Limits {
        depth,
        nodes,
        movetime: movetime_ms.map(Duration::from_millis),
        ..Limits::default()
    };
    if limits.depth.is_none() && limits.nodes.is_none() && limits.movetime.is_none() {
        let ms = if whole_game {
            DEFAULT_GAME_MS
        } else {
            DEFAULT_POSITION_MS
        };
        limits.movetime = Some(Duration::from_millis(ms));
    }
    Ok(limits)
}

/// The variant analysed: the one given, else the one the PGN's `Variant`
/// tag names, else chess.
///
/// # Errors
///
/// An unknown variant id or tag.
pub fn variant_of(given: Option<&str>, tag: Option<&str>) -> Result<Variant, String> {
    match (given, tag) {
        (Some(v), _) => Variant::from_id(v).map_err(|e| e.to_string()),
        (None, Some(tag)) => variant_of_tag(tag)
            .ok_or_else(|| format!("unknown variant '{tag}' in the Variant tag (give --variant)")),
        (None, None) => Ok(Variant::Chess),
    }
}

/// Sets the engine's position: `fen` (the start without one), then
/// `moves`.
///
/// # Errors
///
/// A bad FEN, or the first action that cannot be played (`action N
/// ('text'): why`).
pub fn set_position(engine: &mut Engine, fen: Option<&str>, moves: &[&str]) -> Result<(), String> {
    engine.set_position(fen, moves).map_err(|e| {
        if e.bad_fen {
            e.error.to_string()
        } else {
            format!(
                "action {} ('{}'): {}",
                e.applied + 1,
                moves.get(e.applied).unwrap_or(&""),
                e.error
            )
        }
    })
}

/// The start position and the first `k` actions of game number `game`
/// (its recorded result set aside), to rank the position after them.
///
/// # Errors
///
/// A game that cannot be scored, or one shorter than `k` plies.
pub fn moves_to_ply(
    engine: &mut Engine,
    input: &GameInput,
    k: usize,
    game: usize,
) -> Result<(String, Vec<String>), String> {
    let input = GameInput {
        result: None,
        ..input.clone()
    };
    let record = super::score_for(engine, &input).map_err(|e| format!("game {game}: {e}"))?;
    if k > record.plies.len() {
        return Err(format!(
            "--ply {k}: game {game} has {} plies",
            record.plies.len()
        ));
    }
    let moves = record.plies[..k]
        .iter()
        .map(|p| p.action.to_string())
        .collect();
    Ok((record.start_fen, moves))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_limit_a_position_gets_two_seconds_and_a_game_less_a_ply() {
        let position = limits(None, None, None, false).expect("limits");
        assert_eq!(position.movetime, Some(Duration::from_millis(2000)));
        assert_eq!((position.depth, position.nodes), (None, None));
        let game = limits(None, None, None, true).expect("limits");
        assert_eq!(game.movetime, Some(Duration::from_millis(400)));
        // A limit given replaces the default.
        let deep = limits(Some(9), None, None, true).expect("limits");
        assert_eq!((deep.depth, deep.movetime), (Some(9), None));
        assert_eq!(
            limits(Some(0), None, None, false).unwrap_err(),
            "--depth 0 is out of range (1 to 64)"
        );
    }

    #[test]
    fn the_variant_given_outranks_the_tag() {
        assert_eq!(variant_of(Some("wacky"), Some("sets")), Ok(Variant::Wacky));
        assert_eq!(variant_of(None, None), Ok(Variant::Chess));
        assert!(
            variant_of(None, Some("no such"))
                .unwrap_err()
                .contains("in the Variant tag")
        );
    }
}
