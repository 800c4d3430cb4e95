//! One self-play game: a random opening checked by a verification search,
//! fixed-node searches through the [`Engine`] facade, adjudication, and
//! the labels (score, result, point margin still to come) from the
//! referee's scoring of the finished game.
//!
//! Everything random comes from the game's own [`Rng`], seeded from the
//! run's seed and the game's index, and every search is single-threaded
//! with a table cleared at the start of the game: a game's bytes depend on
//! nothing else.

use shakmaty::Color;

use super::Config;
use super::format::{
    DataGame, EndKind, FLAG_DECIDED, FLAG_FORCED, FLAG_SPECIAL, FLAG_START, FLAG_TACTICAL,
    FormatError, Record, Wdl, score_of,
};
use crate::engine::Engine;
use crate::referee::score_game;
use crate::rules::{Action, CHESS960_POSITIONS, Ending, Game, Pos, chess960_fen};
use crate::scoring::{EndContext, Memo, Scorer, margin};
use crate::search::{Limits, Silent, is_decided, margin_value};

/// Openings tried per game before the game is skipped.
pub const MAX_ATTEMPTS: u32 = 64;

pub use crate::rng::Rng;

/// What playing one game gave.
#[derive(Debug)]
pub enum Played {
    /// A finished game.
    Game(Box<DataGame>),
    /// No acceptable opening in [`MAX_ATTEMPTS`] tries (or the engine
    /// refused a move, which would be a bug): nothing to write.
    Skipped,
    /// Stopped from outside before the end.
    Aborted,
}

/// How the game loop ended other than by the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Adjudication {
    Win(Color),
    Draw,
}

/// One searched ply.
#[derive(Clone, Copy, Debug)]
struct Ply {
    value: i32,
    best: Action,
    forced: bool,
}

/// Plays game `index` on `engine` (whose settings match `config`).
/// `abort` is asked before every search and ends a search under way.
pub fn play_game(
    engine: &mut Engine,
    config: &Config,
    index: u64,
    abort: &(dyn Fn() -> bool + Sync),
) -> Played {
    match open_game(engine, config, index, abort) {
        None => return Played::Aborted,
        Some(false) => return Played::Skipped,
        Some(true) => {}
    }
    let first = engine.game().actions().len();
    let limits = Limits {
        nodes: Some(config.nodes.max(1)),
        soft_nodes: config.soft_nodes,
        ..Limits::default()
    };
    let mut plies: Vec<Ply> = Vec::new();
    let mut adjudication = None;
    let mut win_run: (Option<Color>, u32) = (None, 0);
    let mut draw_run = 0u32;
    while engine.ending().is_none() {
        if abort() {
            return Played::Aborted;
        }
        let forced = engine.legal_actions().len() == 1;
        let Ok(result) = engine.search_halting(limits.clone(), &Silent, &abort) else {
            return Played::Skipped;
        };
        if abort() {
            return Played::Aborted;
        }
        let Some(best) = result.best else {
            return Played::Skipped;
        };
        // Scores are kept as expected margins, whatever the search's scale.
        let value = result
            .lines
            .first()
            .map_or(0, |l| margin_value(l.value, engine.units()));
        plies.push(Ply {
            value,
            best,
            forced,
        });
        let white = if engine.turn().is_white() {
            value
        } else {
            -value
        };
        if let Some(rule) = config.win {
            let leader = if white >= rule.score {
                Some(Color::White)
            } else if white <= -rule.score {
                Some(Color::Black)
            } else {
                None
            };
            win_run = match leader {
                Some(c) if win_run.0 == Some(c) => (Some(c), win_run.1 + 1),
                Some(c) => (Some(c), 1),
                None => (None, 0),
            };
            if let (Some(c), n) = win_run
                && n >= rule.plies
            {
                adjudication = Some(Adjudication::Win(c));
                break;
            }
        }
        if let Some(rule) = config.draw {
            let ply = first + plies.len() - 1;
            if ply >= rule.after as usize && !is_decided(white) && white.abs() <= rule.score {
                draw_run += 1;
            } else {
                draw_run = 0;
            }
            if draw_run >= rule.plies {
                adjudication = Some(Adjudication::Draw);
                break;
            }
        }
        if engine.play(&best.to_string()).is_err() {
            return Played::Skipped;
        }
    }
    let scorer = engine.scorer();
    let units_milli = engine.units().to_points(100_000).round() as i64;
    let built = crate::with_game!(engine.game().clone(), |g| label(
        g,
        &scorer,
        &plies,
        adjudication
    ));
    match built {
        Ok(mut game) => {
            game.index = index;
            game.units_milli = units_milli;
            Played::Game(Box::new(game))
        }
        Err(_) => Played::Skipped,
    }
}

/// Sets up game `index`'s opening on `engine` (whose settings match
/// `config`): the position its searches start from, drawn from the game's
/// own generator, at most [`MAX_ATTEMPTS`] tries. `Some(true)` when an
/// opening passed, `Some(false)` when none did (the game is skipped),
/// `None` when `abort` said so. `genfens` (UCI) takes its positions from
/// here too.
pub fn open_game(
    engine: &mut Engine,
    config: &Config,
    index: u64,
    abort: &(dyn Fn() -> bool + Sync),
) -> Option<bool> {
    let mut rng = Rng::for_game(config.seed, index);
    for _ in 0..MAX_ATTEMPTS {
        if abort() {
            return None;
        }
        if open(engine, config, &mut rng, abort) {
            return Some(true);
        }
    }
    Some(false)
}

/// Sets up an opening: a start position, random plies, the verification
/// search. Returns whether it is playable.
fn open(
    engine: &mut Engine,
    config: &Config,
    rng: &mut Rng,
    abort: &(dyn Fn() -> bool + Sync),
) -> bool {
    engine.new_game();
    let drawn;
    let fen = if !config.openings.is_empty() {
        Some(config.openings[rng.below(config.openings.len())].as_str())
    } else if config.chess960 {
        let n = rng.below(usize::from(CHESS960_POSITIONS));
        drawn = u16::try_from(n).ok().and_then(chess960_fen);
        drawn.as_deref()
    } else {
        None
    };
    if engine.set_position(fen, &[]).is_err() {
        return false;
    }
    for _ in 0..config.random_plies {
        if engine.ending().is_some() {
            return false;
        }
        let moves: Vec<Action> = engine
            .legal_actions()
            .into_iter()
            .filter(|a| !a.is_special())
            .collect();
        if moves.is_empty() {
            return false;
        }
        let pick = moves[rng.below(moves.len())];
        if engine.play(&pick.to_string()).is_err() {
            return false;
        }
    }
    if engine.ending().is_some() {
        return false;
    }
    if let Some(v) = config.verify {
        let limits = Limits {
            nodes: Some(v.nodes.max(1)),
            ..Limits::default()
        };
        let Ok(r) = engine.search_halting(limits, &Silent, abort) else {
            return false;
        };
        let value = r
            .lines
            .first()
            .map_or(0, |l| margin_value(l.value, engine.units()));
        if value.abs() > v.max_score {
            return false;
        }
    }
    true
}

/// The finished game as data: every searched position with its score,
/// the game's result and the points still to come, scored by the referee.
fn label<P: Pos>(
    mut game: Game<P>,
    scorer: &Scorer,
    plies: &[Ply],
    adjudication: Option<Adjudication>,
) -> Result<DataGame, FormatError> {
    if let Some(Adjudication::Win(winner)) = adjudication {
        game.resign(!winner);
    }
    let ctx = EndContext::default();
    let scored = score_game(scorer, &game, &ctx);
    let nodes = game.nodes();
    let actions = game.actions();
    let mut memos = Vec::with_capacity(nodes.len());
    memos.push(Memo::default());
    for (node, &a) in nodes.iter().zip(actions) {
        let next = memos.last().copied().unwrap_or_default().after(node, a);
        memos.push(next);
    }
    let (end, end_side, outcome) = match (adjudication, game.ending()) {
        (Some(Adjudication::Draw), _) => {
            // Scored as the move-count draw the rules would give here.
            let memo = memos.last().copied().unwrap_or_default();
            let last = nodes
                .len()
                .checked_sub(2)
                .and_then(|i| Some((&nodes[i], *actions.get(i)?)));
            let award = scorer.end_award(&memo, last, game.current(), &Ending::MoveRule, &ctx);
            (
                EndKind::AdjudicatedDraw,
                None,
                margin(&award.outcome, Color::White),
            )
        }
        (_, Some(e)) => {
            let (kind, side) = EndKind::of_ending(&e);
            (kind, side, margin(&scored.outcome, Color::White))
        }
        (_, None) => return Err(FormatError::Corrupt("the game did not end".to_owned())),
    };
    // Points still to come before each ply: that ply's award and all
    // later ones, and the ending's.
    let mut to_come = vec![outcome; scored.plies.len() + 1];
    for (k, p) in scored.plies.iter().enumerate().rev() {
        to_come[k] = to_come[k + 1] + margin(&p.award, Color::White);
    }
    let total = to_come[0];
    let result = Wdl::of_margin(total);
    let first = nodes
        .len()
        .checked_sub(plies.len() + usize::from(adjudication.is_none()))
        .ok_or_else(|| FormatError::Corrupt("more searches than plies".to_owned()))?;
    let mut start = Record::of(&nodes[0], &memos[0])?;
    start.flags |= FLAG_START;
    start.result = result;
    start.margin = total;
    let mut positions = Vec::with_capacity(plies.len());
    for (k, ply) in plies.iter().enumerate() {
        let p = first + k;
        let node = &nodes[p];
        let mut r = Record::of(node, &memos[p])?;
        r.score = score_of(ply.value, node.pos.turn());
        r.result = result;
        r.margin = to_come.get(p).copied().unwrap_or(outcome);
        r.best = ply.best.code();
        r.ply = u16::try_from(p).unwrap_or(u16::MAX);
        if ply.forced {
            r.flags |= FLAG_FORCED;
        }
        if r.is_decided() {
            r.flags |= FLAG_DECIDED;
        }
        if ply.best.is_capture() || ply.best.as_move().is_some_and(|m| m.is_promotion()) {
            r.flags |= FLAG_TACTICAL;
        }
        if ply.best.is_special() {
            r.flags |= FLAG_SPECIAL;
        }
        positions.push(r);
    }
    Ok(DataGame {
        variant: scorer.variant(),
        end,
        end_side,
        result,
        index: 0,
        total,
        units_milli: 0,
        start,
        positions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rng_is_fixed() {
        let mut r = Rng::for_game(1, 2);
        let a: Vec<u64> = (0..3).map(|_| r.next_u64()).collect();
        let mut r = Rng::for_game(1, 2);
        let b: Vec<u64> = (0..3).map(|_| r.next_u64()).collect();
        assert_eq!(a, b);
        assert_ne!(Rng::for_game(1, 3).next_u64(), a[0]);
        assert_ne!(Rng::for_game(2, 2).next_u64(), a[0]);
        let mut r = Rng::for_game(7, 7);
        assert!((0..1000).all(|_| r.below(3) < 3));
    }
}
