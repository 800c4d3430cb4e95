//! `chess` and `extinction`: scored by the board result alone (1 / 1/2 / 0
//! by default), each from its own [`Table`] (the `[chess]` and
//! `[extinction]` sections of the [`Tables`]); one type serves both.

use serde::{Deserialize, Serialize};

use super::{End, VariantScoring, to};
use crate::scoring::dump::{Key, key};
use crate::scoring::outcome::ending_event;
use crate::scoring::{Award, Points, Tables};

/// A variant scored by the board result: which table it reads and what
/// its section says it holds.
#[derive(Clone, Copy, Debug)]
pub struct BoardResult {
    table: fn(&Tables) -> &Table,
    about: &'static str,
}

/// The scoring of `chess`.
pub const CHESS: BoardResult = BoardResult {
    table: chess,
    about: "chess: the result of the game",
};

/// The scoring of `extinction`.
pub const EXTINCTION: BoardResult = BoardResult {
    table: extinction,
    about: "extinction: the result of the game",
};

fn chess(t: &Tables) -> &Table {
    &t.chess
}

fn extinction(t: &Tables) -> &Table {
    &t.extinction
}

const KEYS: &[Key] = &[
    key("win", "a won game, to the winner"),
    key("draw", "a drawn game, to each player"),
    key("loss", "a lost game, to the loser"),
];

/// `chess` and `extinction`: the board result.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Table {
    /// Points for a win.
    pub win: Points,
    /// Points to each side for a draw.
    pub draw: Points,
    /// Points for a loss.
    pub loss: Points,
}

impl Default for Table {
    fn default() -> Table {
        Table {
            win: Points::whole(1),
            draw: Points::HALF,
            loss: Points::ZERO,
        }
    }
}

impl Table {
    /// The largest margin an ending pays: a win against a loss (a draw
    /// pays both sides alike).
    pub fn end_bound(&self) -> Points {
        (self.win - self.loss).abs()
    }
}

impl VariantScoring for BoardResult {
    /// The win to the winner and the loss to the loser, the draw to each
    /// player.
    fn outcome_award(&self, t: &Tables, end: &End) -> Award {
        let ending = end.ending;
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
