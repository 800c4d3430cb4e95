//! Perft: counting the action tree through Tally's own rules layer.
//!
//! Counts follow [`Rules::legal_actions`]: special actions count as actions,
//! and a node finished by a position ending (no legal move, extinction, a
//! claim, mutual bare kings) has no children. Endings that need the game's
//! history (repetition, move rules, insufficient material) are not applied,
//! as in every perft. [`perft_divide_until`] can be stopped from another
//! thread.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use super::action::{Action, ActionList};
use super::node::{Node, Rules};
use super::pos::Pos;

/// The number of leaf nodes `depth` plies below `node`.
pub fn perft<P: Pos>(rules: &Rules<P>, node: &Node<P>, depth: u32) -> u64 {
    count(rules, node, depth, None)
}

/// [`perft`], giving up (with a partial count) soon after `stop` is set:
/// it is checked at every node three plies or more above the leaves.
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
                rules.play_light_in_place(&mut child, a);
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
/// Returns the entries in generation order.
pub fn perft_divide<P: Pos>(rules: &Rules<P>, node: &Node<P>, depth: u32) -> Vec<DivideEntry> {
    divide(rules, node, depth, None)
}

/// [`perft_divide`] that gives up soon after `stop` is set (`None` then).
pub fn perft_divide_until<P: Pos>(
    rules: &Rules<P>,
    node: &Node<P>,
    depth: u32,
    stop: &AtomicBool,
) -> Option<Vec<DivideEntry>> {
    let entries = divide(rules, node, depth, Some(stop));
    (!stop.load(Ordering::SeqCst)).then_some(entries)
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
            nodes: count(rules, &rules.play_light(node, action), depth - 1, stop),
        })
        .collect()
}
