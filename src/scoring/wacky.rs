//! `wacky` (spec section 3): distance, capture, chain, check and end bonuses.
//!
//! Placeholder until the referee lands: no awards yet.

use serde::Deserialize;
use shakmaty::Color;

use super::{Award, EndContext, Memo};
use crate::rules::{Action, Ending, Node, Pos};

/// The wacky point table.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Table {}

/// The award of a move by itself.
pub fn action_award<P: Pos>(
    _t: &Table,
    _memo: &Memo,
    _next: &Memo,
    _before: &Node<P>,
    _action: Action,
    _after: &Node<P>,
) -> Award {
    Award::default()
}

/// What a mating move earns beyond its check award.
pub fn mate_award(_t: &Table, _winner: Color) -> Award {
    Award::default()
}

/// The outcome award.
pub fn outcome_award<P: Pos>(
    _t: &Table,
    _memo: &Memo,
    _end: &Node<P>,
    _ending: &Ending,
    _ctx: &EndContext,
) -> Award {
    Award::default()
}
