//! Perft: counting the action tree through Tally's own rules layer.
//!
//! Counts follow [`Rules::legal_actions`]: special actions count as actions,
//! and a node finished by a position ending (no legal move, extinction, a
//! claim, mutual bare kings) has no children. Endings that need the game's
//! history (repetition, move rules, insufficient material) are not applied,
//! as in every perft. [`perft_divide_until`] can be stopped from another
//! thread.
//!
//! Depths are bounded by [`MAX_PERFT_DEPTH`]: the count recurses once per
//! ply, and a tree that deep could not be counted anyway.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use super::action::{Action, ActionList};
use super::error::RulesError;
use super::node::{Node, Rules};
use super::pos::Pos;

/// The deepest perft counted. The count recurses once per ply, so the depth
/// bounds its stack; and from any position with a few moves a side, a tree
/// this deep has more leaves than could be counted (or than fit a `u64`).
pub const MAX_PERFT_DEPTH: u32 = 20;

/// The number of leaf nodes `depth` plies below `node`.
///
/// # Errors
///
/// [`RulesError::PerftTooDeep`] when `depth` is past [`MAX_PERFT_DEPTH`].
pub fn perft<P: Pos>(rules: &Rules<P>, node: &Node<P>, depth: u32) -> Result<u64, RulesError> {
    check_depth(depth)?;
    Ok(count(rules, node, depth, None))
}

fn check_depth(depth: u32) -> Result<(), RulesError> {
    if depth > MAX_PERFT_DEPTH {
        Err(RulesError::PerftTooDeep(depth))
    } else {
        Ok(())
    }
}

/// [`perft`] once the depth is checked, giving up (with a partial count)
/// soon after `stop` is set: it is checked at every node three plies or
/// more above the leaves.
fn count<P: Pos>(rules: &Rules<P>, node: &Node<P>, depth: u32, stop: Option<&AtomicBool>) -> u64 {
    if depth >= 3 && stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
        return 0;
    }
    match depth {
        0 => 1,
        1 => rules.count_actions(node) as u64,
        _ => {
            let mut actions = ActionList::new();
            rules.legal_actions(node, &mut actions);
            let mut total = 0;
            for &a in &actions {
                // One copy of the parent, played in place (as a plain perft
                // copies its position and plays the move on the copy).
                let mut child = node.clone();
                rules.play_perft_in_place(&mut child, a);
                // The last ply counts without a call of its own.
                total += if depth == 2 {
                    rules.count_actions(&child) as u64
                } else {
                    count(rules, &child, depth - 1, stop)
                };
            }
            total
        }
    }
}

/// One root action and the leaf count below it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DivideEntry {
    /// The root action.
    pub action: Action,
    /// Leaves below it at the requested depth.
    pub nodes: u64,
}

/// Perft split by root action, the roots searched in parallel (rayon).
/// Returns the entries in generation order (none at depth 0).
///
/// # Errors
///
/// [`RulesError::PerftTooDeep`] when `depth` is past [`MAX_PERFT_DEPTH`].
pub fn perft_divide<P: Pos>(
    rules: &Rules<P>,
    node: &Node<P>,
    depth: u32,
) -> Result<Vec<DivideEntry>, RulesError> {
    check_depth(depth)?;
    Ok(divide(rules, node, depth, None))
}

/// [`perft_divide`] that gives up soon after `stop` is set (`Ok(None)`
/// then).
///
/// # Errors
///
/// [`RulesError::PerftTooDeep`] when `depth` is past [`MAX_PERFT_DEPTH`].
pub fn perft_divide_until<P: Pos>(
    rules: &Rules<P>,
    node: &Node<P>,
    depth: u32,
    stop: &AtomicBool,
) -> Result<Option<Vec<DivideEntry>>, RulesError> {
    check_depth(depth)?;
    let entries = divide(rules, node, depth, Some(stop));
    Ok((!stop.load(Ordering::SeqCst)).then_some(entries))
}

fn divide<P: Pos>(
    rules: &Rules<P>,
    node: &Node<P>,
    depth: u32,
    stop: Option<&AtomicBool>,
) -> Vec<DivideEntry> {
    if depth == 0 {
        return Vec::new();
    }
    let mut actions = ActionList::new();
    rules.legal_actions(node, &mut actions);
    actions
        .par_iter()
        .map(|&action| DivideEntry {
            action,
            nodes: count(
                rules,
                &{
                    let mut child = node.clone();
                    rules.play_perft_in_place(&mut child, action);
                    child
                },
                depth - 1,
                stop,
            ),
        })
        .collect()
}
