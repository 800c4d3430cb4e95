//! Scoring: the points each action and each ending earn, per variant.
//!
//! One [`Scorer`] serves the referee (`tally score`) and the search alike.
//! Every point value sits in one table per variant ([`Tables`]), with the
//! specification's numbers as defaults and a TOML file to override any of
//! them. This module imports only `rules`.
//!
//! Awards come in three parts, so the search never needs to know whether a
//! move mates when it plays it:
//!
//! - [`Scorer::action_award`]: what an action earns by itself (captures,
//!   distance, checks, promotions...), and the updated per-game [`Memo`];
//! - [`EndAward::last_ply`]: what the last action earns because it ended the
//!   game (a stylish mate, wacky's mate in place of check), shown on that
//!   ply by the referee;
//! - [`EndAward::outcome`]: the ending's own award (draw compensation, the
//!   dynamic split, sets points, wacky's end bonuses...).
//!
//! What each variant pays, bounds and dumps is its scoring's
//! ([`variants::VariantScoring`], one type per variant, named by
//! [`variants::of`]); the [`Scorer`] holds the variant's and asks it.

mod award;
mod bounds;
pub mod dump;
mod memo;
mod outcome;
mod points;
mod tables;
pub mod variants;

pub use award::{Award, AwardItem, EndAward, Event, Events, Immediate, itemise};
pub use memo::Memo;
pub use points::Points;
pub use tables::{DrawAdvantage, MAX_FACTOR, MAX_MOVES_LIMIT, Tables, TablesError};

use shakmaty::Color;

use crate::rules::{Action, Ending, HistoryEntry, Node, Pos, Rules, Variant};
use variants::{VariantScoring, View};

/// What the end of a game may need beyond the board: the clocks, and
/// whether a resignation was a loss on time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EndContext {
    /// Remaining clock time in whole seconds, indexed by `Color as usize`
    /// (`[black, white]` in shakmaty's order; see [`EndContext::clock`]),
    /// when the game was played with a clock (wacky's time bonus); `None`
    /// otherwise.
    pub clock_secs: Option<[u64; 2]>,
    /// Whether a [`Ending::Resignation`] ending this game is a loss on
    /// time: scored as the resignation, its award named
    /// [`Event::TimeForfeit`] instead of [`Event::Resignation`].
    pub time_forfeit: bool,
}

impl EndContext {
    /// `color`'s remaining clock time in whole seconds, if known.
    pub fn clock(&self, color: Color) -> Option<u64> {
        self.clock_secs.map(|c| c[color as usize])
    }
}

/// The scorer of one variant: its tables and settings.
#[derive(Clone, Debug)]
pub struct Scorer {
    variant: Variant,
    scoring: &'static dyn VariantScoring,
    tables: Tables,
    draw_advantage: DrawAdvantage,
}

impl Scorer {
    /// The scorer of `variant` with the specification's tables.
    pub fn new(variant: Variant) -> Scorer {
        Scorer::with_tables(variant, Tables::default())
    }

    /// The scorer of `variant` with the given tables.
    pub fn with_tables(variant: Variant, tables: Tables) -> Scorer {
        Scorer {
            variant,
            scoring: variants::of(variant),
            tables,
            draw_advantage: DrawAdvantage::Black,
        }
    }

    /// Sets the sets draw advantage (who gets 1/2 for a plain draw).
    pub fn set_draw_advantage(&mut self, a: DrawAdvantage) {
        self.draw_advantage = a;
    }

    /// The sets draw advantage.
    pub fn draw_advantage(&self) -> DrawAdvantage {
        self.draw_advantage
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The variant's scoring ([`variants::of`]).
    pub fn scoring(&self) -> &'static dyn VariantScoring {
        self.scoring
    }

    /// The tables.
    pub fn tables(&self) -> &Tables {
        &self.tables
    }

    /// The award of `action`, played from `before` to `after`, and the memo
    /// after it. Does not include what the action earns by ending the game
    /// (see [`Scorer::end_award`]).
    pub fn action_award<P: Pos>(
        &self,
        memo: &Memo,
        before: &Node<P>,
        action: Action,
        after: &Node<P>,
    ) -> (Award, Memo) {
        let next = memo.after(before, action);
        let award = self.scoring.action_award(
            &self.tables,
            memo,
            &next,
            View::of(before),
            action,
            View::of(after),
        );
        (award, next)
    }

    /// What the final ply of a finished game shows: its action award plus
    /// the [`EndAward::last_ply`] part, with the events of awards that the
    /// ending replaced taken out (stylish: the promotion award of a mating
    /// promotion; wacky: the check award, which the mate award replaces).
    pub fn final_ply_award(&self, action: &Award, last_ply: &Award) -> Award {
        let mut award = action.plus(*last_ply);
        if last_ply.events.contains(Event::Mate)
            && let Some(replaced) = self.scoring.replaced_by_mate()
        {
            award.rename_event(replaced, Event::Mate);
        }
        award
    }

    /// What `action` earns the moment it is played from `before` (reached
    /// after `history`, which ends with `before`'s entry, with `memo`), as
    /// the referee shows that ply: its own award and, when it ends the
    /// game, what the ending pays for that ply
    /// ([`Scorer::final_ply_award`]) and the ending's own award. In a game
    /// over already (by a rule the client does not apply, which plays on)
    /// it earns its own award only, as in a new game.
    pub fn immediate<P: Pos>(
        &self,
        rules: &Rules<P>,
        memo: &Memo,
        before: &Node<P>,
        history: &[HistoryEntry],
        action: Action,
    ) -> Immediate {
        let after = rules.play(before, action);
        let (award, next) = self.action_award(memo, before, action, &after);
        let mut imm = Immediate {
            award,
            ..Immediate::default()
        };
        if rules.ending(before, history).is_some() {
            return imm;
        }
        let mut history = history.to_vec();
        history.push(HistoryEntry::of(&after, Some(action)));
        if let Some(ending) = rules.ending(&after, &history) {
            let end = self.end_award(
                &next,
                Some((before, action)),
                &after,
                &ending,
                &EndContext::default(),
            );
            imm = Immediate {
                award: self.final_ply_award(&award, &end.last_ply),
                ending: Some(ending),
                outcome: end.outcome,
            };
        }
        imm
    }

    /// The awards for an ending reached in `end`. `last` is the node before
    /// the last action and the action, when the game has one (a FEN that is
    /// over on arrival has none); `memo` is the memo after the last action.
    pub fn end_award<P: Pos>(
        &self,
        memo: &Memo,
        last: Option<(&Node<P>, Action)>,
        end: &Node<P>,
        ending: &Ending,
        ctx: &EndContext,
    ) -> EndAward {
        EndAward {
            last_ply: self.last_ply_award(last, end, ending),
            outcome: self.outcome_award(memo, end, ending, ctx),
        }
    }

    /// [`EndAward::last_ply`]: what the last action earns because it
    /// ended the game so (a mate's award).
    pub fn last_ply_award<P: Pos>(
        &self,
        last: Option<(&Node<P>, Action)>,
        end: &Node<P>,
        ending: &Ending,
    ) -> Award {
        match (ending, last) {
            (Ending::Checkmate { .. }, Some((before, action))) => {
                self.scoring
                    .mate_award(&self.tables, View::of(before), action, View::of(end))
            }
            _ => Award::default(),
        }
    }

    /// [`EndAward::outcome`]: the ending's own award.
    pub fn outcome_award<P: Pos>(
        &self,
        memo: &Memo,
        end: &Node<P>,
        ending: &Ending,
        ctx: &EndContext,
    ) -> Award {
        outcome::outcome_award(self, memo, View::of(end), ending, ctx)
    }
}

/// The margin of `award` for `color`: its points minus the opponent's.
#[inline]
pub fn margin(award: &Award, color: Color) -> Points {
    award.points(color) - award.points(!color)
}
