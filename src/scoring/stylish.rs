//! `stylish` (spec section 2): capture, mate, promotion and draw awards.
//!
//! Placeholder until the referee lands: no awards yet.

use serde::Deserialize;

use super::{Award, Memo};
use crate::rules::{Action, Ending, Node, Pos};

/// The stylish point table.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Table {}

/// The award of a move by itself.
pub fn action_award<P: Pos>(
    _t: &Table,
    _memo: &Memo,
    _before: &Node<P>,
    _action: Action,
    _after: &Node<P>,
) -> Award {
    Award::default()
}

/// The award of a mating move.
pub fn mate_award<P: Pos>(_t: &Table, _before: &Node<P>, _action: Action, _end: &Node<P>) -> Award {
    Award::default()
}

/// The outcome award.
pub fn outcome_award<P: Pos>(_t: &Table, _memo: &Memo, _end: &Node<P>, _ending: &Ending) -> Award {
    Award::default()
}
