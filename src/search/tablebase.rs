//! The endgame tables at the root: before a search of a chess position
//! the tables know, each root action is ranked by the distance to zeroing
//! (DTZ) of the position it leads to, and only the actions of the best
//! rank are searched. All the actions that keep a win within the 50-move
//! rule share that rank, so the search still chooses among them (a mate
//! it finds is played; the rank only forbids throwing the win away); so
//! do all the actions that keep a draw. Where the game's clock or a
//! repetition since the last capture or pawn move makes the 50-move rule
//! close, the sooner conversions rank first, so that the win is converted
//! in time. Without DTZ tables the actions are ranked by the WDL of the
//! positions they lead to.
//!
//! What the search does with the tables below the root (WDL probes after
//! captures and pawn moves) is in the worker; the tables themselves are
//! [`crate::syzygy`].

use super::value::tablebase;
use super::{Scoring, SearchJob};
use crate::eval::Evaluate;
use crate::rules::{Action, Ending, HistoryEntry, Node, Pos};
use crate::syzygy::{Probing, Wdl, chess_of};
use shakmaty::Position;

/// The rank of a win that holds under the 50-move rule; the scale on
/// which ranks close to the rule sort.
const MAX_DTZ: i32 = 1 << 18;

/// The root's actions that hold the tables' result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Ranking {
    /// The actions kept, in the root's order, each with the value a line
    /// starting with it shows while its search proves no checkmate: a
    /// table win or loss, a draw, or a win or loss the 50-move rule
    /// turns into a draw (a few units above or below it).
    pub kept: Vec<(Action, i32)>,
    /// The positions probed to rank them (counted as table hits).
    pub probes: u64,
    /// Whether the search is still to probe the tables: only where DTZ
    /// tables were missing and the root is won, so that WDL probes lead
    /// the search to the win. Otherwise the ranking has done the tables'
    /// work, and the search looks for the mate.
    pub probe_in_search: bool,
}

/// What playing `action` at the root leads to, from the root mover's view:
/// an ending of the game, or a position to probe.
enum After<P> {
    /// A checkmate given (`true`) or a drawn ending.
    Ends(bool),
    /// The position reached, its action a capture or pawn move or not.
    Pos(Node<P>),
}

/// Ranks `job`'s root actions with the tables, when the root is a chess
/// position within them; `None` when it is not, or when a probe fails
/// (then the search goes on without a ranking).
pub(super) fn rank_root<P, S, E>(job: &SearchJob<P, S, E>) -> Option<Ranking>
where
    P: Pos,
    S: Scoring,
    E: Evaluate<P>,
{
    let probing = job.tablebases.as_ref()?;
    let root = chess_of(&job.root.pos)?;
    if root.board().occupied().count() > probing.limit || root.castles().any() {
        return None;
    }
    let mover = job.root.pos.turn();
    let after: Vec<(Action, After<P>)> = job
        .root_actions
        .iter()
        .map(|&action| {
            let child = job.rules.play(&job.root, action);
            let mut history = job.history.clone();
            history.push(HistoryEntry::of(&child, Some(action)));
            let after = match job.rules.ending(&child, &history) {
                Some(ending) => After::Ends(Ending::winner(&ending) == Some(mover)),
                None => After::Pos(child),
            };
            (action, after)
        })
        .collect();
    let ranked = by_dtz(job, probing, &after).or_else(|| by_wdl(probing, &after))?;
    let best = ranked.ranks.iter().map(|&(r, _)| r).max()?;
    let kept: Vec<(Action, i32)> = after
        .iter()
        .zip(&ranked.ranks)
        .filter(|(_, (r, _))| *r == best)
        .map(|((a, _), &(_, shown))| (*a, shown))
        .collect();
    let won = kept.first().is_some_and(|&(_, shown)| shown > 0);
    Some(Ranking {
        kept,
        probes: ranked.probes,
        probe_in_search: !ranked.by_dtz && won,
    })
}

/// Each action's rank and shown value, by one kind of table.
struct Ranked {
    ranks: Vec<(i32, i32)>,
    probes: u64,
    by_dtz: bool,
}

/// The DTZ of a position just reached by a capture or pawn move, of WDL
/// `wdl`, in plies (as the tables count it for the ply before).
fn dtz_before_zeroing(wdl: Wdl) -> i32 {
    match wdl {
        Wdl::Win => 1,
        Wdl::CursedWin => 101,
        Wdl::Draw => 0,
        Wdl::BlessedLoss => -101,
        Wdl::Loss => -1,
    }
}

/// Whether a position of the game since its last capture or pawn move
/// occurred twice (`history` ends with the root).
fn repeated_since_zeroing(history: &[HistoryEntry]) -> bool {
    let start = history.iter().rposition(|e| e.zeroing).unwrap_or(0);
    let window = &history[start..];
    window
        .iter()
        .enumerate()
        .any(|(i, e)| window[..i].iter().any(|f| f.key == e.key))
}

/// Ranks by DTZ: a win that holds under the 50-move rule ranks
/// `MAX_DTZ` whatever its length (sooner ones first only where the rule
/// is close or a position repeated); a draw 0; a loss `-MAX_DTZ`, or
/// higher where the rule may still save it.
fn by_dtz<P, S, E>(
    job: &SearchJob<P, S, E>,
    probing: &Probing,
    after: &[(Action, After<P>)],
) -> Option<Ranked>
where
    P: Pos,
    S: Scoring,
    E: Evaluate<P>,
{
    let root = chess_of(&job.root.pos)?;
    let clock = i32::try_from(root.halfmoves()).unwrap_or(i32::MAX);
    let repeated = repeated_since_zeroing(&job.history);
    let bound = if probing.rule50 { MAX_DTZ / 2 - 100 } else { 1 };
    let mut probes = 0;
    let mut ranks = Vec::with_capacity(after.len());
    for (_, a) in after {
        let dtz = match a {
            After::Ends(true) => 1,
            After::Ends(false) => 0,
            After::Pos(child) => {
                let pos = chess_of(&child.pos)?;
                let dtz = if pos.halfmoves() == 0 {
                    dtz_before_zeroing(-probing.tables.wdl(pos)?)
                } else {
                    let d = -probing.tables.dtz(pos)?;
                    d + d.signum()
                };
                probes += 1;
                dtz
            }
        };
        let rank = if dtz > 0 {
            if dtz.saturating_add(clock) <= 99 && !repeated {
                MAX_DTZ
            } else {
                MAX_DTZ / 2 - dtz.saturating_add(clock).min(MAX_DTZ / 4)
            }
        } else if dtz < 0 {
            if (-dtz).saturating_mul(2).saturating_add(clock) < 100 {
                -MAX_DTZ
            } else {
                -MAX_DTZ / 2 + (-dtz).saturating_add(clock).min(MAX_DTZ / 4)
            }
        } else {
            0
        };
        let shown = if rank >= bound {
            tablebase(true, 0, probing.win)
        } else if rank > 0 {
            near_draw(rank)
        } else if rank == 0 {
            0
        } else if rank > -bound {
            -near_draw(-rank)
        } else {
            tablebase(false, 0, -probing.win)
        };
        ranks.push((rank, shown));
    }
    Some(Ranked {
        ranks,
        probes,
        by_dtz: true,
    })
}

/// The value shown for a win the 50-move rule turns into a draw, of rank
/// `rank` (below `MAX_DTZ / 2 - 100`): 1 to 49 units, more the nearer it
/// is to a win that holds.
fn near_draw(rank: i32) -> i32 {
    ((rank - (MAX_DTZ / 2 - 200)).max(3) * 100) / 200
}

/// Ranks by the WDL of the positions reached (as if each had just been
/// reached by a capture or pawn move: what WDL tables hold).
fn by_wdl<P: Pos>(probing: &Probing, after: &[(Action, After<P>)]) -> Option<Ranked> {
    let mut probes = 0;
    let mut ranks = Vec::with_capacity(after.len());
    for (_, a) in after {
        let wdl = match a {
            After::Ends(true) => Wdl::Win,
            After::Ends(false) => Wdl::Draw,
            After::Pos(child) => {
                probes += 1;
                -probing.tables.wdl(chess_of(&child.pos)?)?
            }
        };
        let rank = match wdl {
            Wdl::Loss => -MAX_DTZ,
            Wdl::BlessedLoss => -MAX_DTZ + 101,
            Wdl::Draw => 0,
            Wdl::CursedWin => MAX_DTZ - 101,
            Wdl::Win => MAX_DTZ,
        };
        let shown = match (wdl, probing.rule50) {
            (Wdl::Win, _) | (Wdl::CursedWin, false) => tablebase(true, 0, probing.win),
            (Wdl::Loss, _) | (Wdl::BlessedLoss, false) => tablebase(false, 0, -probing.win),
            (Wdl::CursedWin, true) => 2,
            (Wdl::BlessedLoss, true) => -2,
            (Wdl::Draw, _) => 0,
        };
        ranks.push((rank, shown));
    }
    Some(Ranked {
        ranks,
        probes,
        by_dtz: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zeroing_dtz_and_repetitions() {
        assert_eq!(dtz_before_zeroing(Wdl::Win), 1);
        assert_eq!(dtz_before_zeroing(Wdl::BlessedLoss), -101);
        let entry = |key, zeroing| HistoryEntry {
            key,
            check: false,
            zeroing,
        };
        // 1 2 3 2: a repetition; a capture after it forgets it.
        let mut h = vec![
            entry(1, true),
            entry(2, false),
            entry(3, false),
            entry(2, false),
        ];
        assert!(repeated_since_zeroing(&h));
        h.push(entry(4, true));
        assert!(!repeated_since_zeroing(&h));
        assert!(near_draw(MAX_DTZ / 2 - 101) < 50 && near_draw(MAX_DTZ / 2 - 101) > 0);
        assert_eq!(near_draw(1), 1);
    }
}
