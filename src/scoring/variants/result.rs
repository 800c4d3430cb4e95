//! `chess` and `extinction`: scored by the board result alone (1 / 1/2 / 0
//! by default), each from its own section of the [`Tables`] (`[chess]`,
//! `[extinction]`); one type serves both.

use super::{VariantScoring, View, to};
use crate::rules::Ending;
use crate::scoring::dump::{Key, key};
use crate::scoring::outcome::ending_event;
use crate::scoring::tables::ResultTable;
use crate::scoring::{Award, DrawAdvantage, EndContext, Memo, Points, Tables};

/// A variant scored by the board result: which table it reads and what
/// its section says it holds.
#[derive(Clone, Copy, Debug)]
pub struct Scoring {
    table: fn(&Tables) -> &ResultTable,
    about: &'static str,
}

/// The scoring of `chess`.
pub const CHESS: Scoring = Scoring {
    table: chess,
    about: "chess: the result of the game",
};

/// The scoring of `extinction`.
pub const EXTINCTION: Scoring = Scoring {
    table: extinction,
    about: "extinction: the result of the game",
};

fn chess(t: &Tables) -> &ResultTable {
    &t.chess
}

fn extinction(t: &Tables) -> &ResultTable {
    &t.extinction
}

const KEYS: &[Key] = &[
    key("win", "a won game, to the winner"),
    key("draw", "a drawn game, to each player"),
    key("loss", "a lost game, to the loser"),
];

impl VariantScoring for Scoring {
    /// The win to the winner and the loss to the loser, the draw to each
    /// player.
    fn outcome_award(
        &self,
        t: &Tables,
        _memo: &Memo,
        _end: View,
        ending: &Ending,
        _ctx: &EndContext,
        _draw: DrawAdvantage,
    ) -> Award {
        let t = (self.table)(t);
        match ending.winner() {
            Some(w) => to(w, [t.win, t.loss], ending_event(ending)),
            None => Award::split(t.draw, t.draw, ending_event(ending)),
        }
    }

    fn end_bound(&self, t: &Tables) -> Points {
        (self.table)(t).end_bound()
    }

    /// A tenth of a win's margin (0.1 with the defaults).
    fn pawn_scale(&self, t: &Tables) -> (Points, i64) {
        let t = (self.table)(t);
        (t.win - t.loss, 10)
    }

    /// When a win pays more than a loss.
    fn decisive_band(&self, t: &Tables) -> bool {
        let t = (self.table)(t);
        t.win > t.loss
    }

    fn keys(&self) -> &'static [Key] {
        KEYS
    }

    fn about(&self) -> &'static str {
        self.about
    }

    /// None: the points are a game result, and the scores stay in pawns.
    fn milli_per_cp(&self) -> Option<i64> {
        None
    }
}
