//! Variant scorings: what each variant pays, bounds and dumps.
//!
//! Each variant has one type that implements [`VariantScoring`]: its
//! awards (an action's, a mate's on its last ply, an ending's), the bounds
//! and the scale the search reads from its table, the keys of its section
//! of a rules file, and how its points are shown as centipawns. [`of`]
//! names each variant's type, the one place the scoring matches on the
//! variant:
//!
//! - [`result`]: chess and extinction, the board result (one type, two
//!   tables);
//! - [`stylish`] and [`wacky`]: their awards (captures, distance, checks,
//!   mates, bonuses) with their types;
//! - [`sets`], [`dynamic`]: the points of each ending;
//! - [`tiebraker`]: dynamic's before a disk, its own splits after one.
//!
//! The point values sit in [`Tables`], one section per variant; each
//! section's type (its defaults and TOML keys) lives beside its scoring
//! (`result::Table`, `sets::Table`, ..., `stylish::Table`), and a scoring
//! reads its own section. What is common to every variant (the event naming an
//! ending, a loss on time named as such, the search's units) stays in the
//! generic code that calls these methods.

pub mod dynamic;
pub mod result;
pub mod sets;
pub mod stylish;
pub mod tiebraker;
pub mod wacky;

use std::fmt;

use shakmaty::{Bitboard, Board, Color};

use super::dump::Key;
use super::tables::Split;
use super::{Award, DrawAdvantage, EndContext, Event, Memo, Points, Tables};
use crate::rules::{Action, Ending, Extra, Node, Pos, Variant};

/// What an outcome award reads: the ending, the node it was reached in,
/// the memo after the last action, the game's context and who a plain draw
/// favours (sets).
#[derive(Clone, Copy)]
pub struct End<'a> {
    /// How the game ended.
    pub ending: &'a Ending,
    /// The node it ended in.
    pub node: View<'a>,
    /// The memo after the last action.
    pub memo: &'a Memo,
    /// The clocks and whether a resignation was a loss on time.
    pub ctx: &'a EndContext,
    /// Who a plain draw favours.
    pub draw: DrawAdvantage,
}

/// What an award reads of a node, whatever the position type of its
/// rules.
#[derive(Clone, Copy, Debug)]
pub struct View<'a> {
    /// The board.
    pub board: &'a Board,
    /// The side to move.
    pub turn: Color,
    /// Whether the side to move is in check.
    pub check: bool,
    /// The variant state (disk, bare king).
    pub extra: Extra,
}

impl<'a> View<'a> {
    /// The view of `node`.
    #[inline]
    pub fn of<P: Pos>(node: &'a Node<P>) -> View<'a> {
        View {
            board: node.pos.board(),
            turn: node.pos.turn(),
            check: node.check,
            extra: node.extra,
        }
    }

    /// The pieces that attack the king of the side to move, as chess counts
    /// its checkers (the scorings that read them are played on chess
    /// rules).
    pub fn checkers(&self) -> Bitboard {
        let board = self.board;
        (board.kings() & board.by_color(self.turn))
            .first()
            .map_or(Bitboard::EMPTY, |king| {
                board.attacks_to(king, !self.turn, board.occupied())
            })
    }
}

/// What one variant's scoring decides: its awards, the bounds and scale
/// the search reads from its table, its rules-file section and its
/// centipawns. Every method reads the variant's own section of `t`.
pub trait VariantScoring: fmt::Debug + Send + Sync {
    /// What `action`, played from `before` to `after`, earns by itself;
    /// `memo` is the memo before it and `next` the one after it. Nothing by
    /// default.
    fn action_award(
        &self,
        t: &Tables,
        memo: &Memo,
        next: &Memo,
        before: View,
        action: Action,
        after: View,
    ) -> Award {
        let _ = (t, memo, next, before, action, after);
        Award::default()
    }

    /// Whether any action can earn points by itself or change what later
    /// awards pay (the memo); the search skips the action award on its hot
    /// path otherwise. No by default.
    fn has_action_awards(&self) -> bool {
        false
    }

    /// What a mating `action`, played from `before` to `end`, earns
    /// because it mates (shown on that ply). Nothing by default.
    fn mate_award(&self, t: &Tables, before: View, action: Action, end: View) -> Award {
        let _ = (t, before, action, end);
        Award::default()
    }

    /// The event of an action's award that the mate award replaces on the
    /// mating ply (taken out of the ply's events). None by default.
    fn replaced_by_mate(&self) -> Option<Event> {
        None
    }

    /// The award of the ending `end` describes.
    fn outcome_award(&self, t: &Tables, end: &End) -> Award;

    /// The largest magnitude of the margin one action earns by itself
    /// (saturating). Zero by default.
    fn action_bound(&self, t: &Tables) -> Points {
        let _ = t;
        Points::ZERO
    }

    /// The largest magnitude of the margin an ending adds, its mate award
    /// included (saturating; a clock's bonus excluded, as the search plays
    /// without one).
    fn end_bound(&self, t: &Tables) -> Points;

    /// How many pawns of the variant's scale a pawn of the search's units
    /// stands for (see `Scorer::search_pawns`). One by default.
    fn search_pawns(&self) -> i64 {
        1
    }

    /// One value of the table and how many pawns of material it is worth,
    /// the scale of the variant's points (see `Scorer::points_per_pawn`).
    fn pawn_scale(&self, t: &Tables) -> (Points, i64);

    /// Whether a proven win outranks every estimate in every phase of the
    /// game (see `Scorer::decisive_band`).
    fn decisive_band(&self, t: &Tables) -> bool;

    /// Whether the memo changes future awards, so that it belongs in the
    /// search key. No by default.
    fn memo_in_key(&self, t: &Tables) -> bool {
        let _ = t;
        false
    }

    /// The most a quiet action (no capture, promotion or check) earns by
    /// itself. Zero by default.
    fn quiet_award_bound(&self, t: &Tables) -> Points {
        let _ = t;
        Points::ZERO
    }

    /// Every key of the variant's section of a rules file, in the order
    /// the dump prints them.
    fn keys(&self) -> &'static [Key];

    /// Keys of an optional part of the section (sets' handicap), written
    /// after [`VariantScoring::keys`] when the tables hold them. None by
    /// default.
    fn optional_keys(&self) -> &'static [Key] {
        &[]
    }

    /// What the variant's section holds, for the comment above its header.
    fn about(&self) -> &'static str;

    /// Thousandths of a point per centipawn when scores are shown in the
    /// variant's points; `None` where they stay in pawns (a game result).
    fn milli_per_cp(&self) -> Option<i64>;
}

/// The scoring of `variant`.
pub fn of(variant: Variant) -> &'static dyn VariantScoring {
    match variant {
        Variant::Chess => &result::CHESS,
        Variant::Extinction => &result::EXTINCTION,
        Variant::Stylish => &stylish::Stylish,
        Variant::Wacky => &wacky::Wacky,
        Variant::Sets => &sets::Sets,
        Variant::Dynamic => &dynamic::Dynamic,
        Variant::Tiebraker => &tiebraker::Tiebraker,
    }
}

/// An award of `s[0]` to `first` and `s[1]` to the other side.
fn to(first: Color, s: Split, event: Event) -> Award {
    match first {
        Color::White => Award::split(s[0], s[1], event),
        Color::Black => Award::split(s[1], s[0], event),
    }
}

/// The margin of a split for its first side.
fn gap(s: Split) -> Points {
    s[0] - s[1]
}

/// Whether a win's margin `win` is positive and at least each of `others`,
/// the winner's margins in the other endings.
fn outranks<const N: usize>(win: Points, others: [Points; N]) -> bool {
    win > Points::ZERO && others.iter().all(|&o| win >= o)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Game, Rules};
    use shakmaty::Chess;

    #[test]
    fn checkers_are_chess_checkers() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1",
            "4k3/8/8/8/8/8/4r3/4K2b w - - 0 1",
            "4k3/8/5N2/8/8/8/8/4R1K1 b - - 0 1",
            "8/8/8/8/8/5k2/6P1/7K b - - 0 1",
        ] {
            let game = Game::new(Rules::<Chess>::new(Variant::Stylish), Some(fen)).expect(fen);
            let node = game.current();
            assert_eq!(View::of(node).checkers(), node.pos.checkers_bb(), "{fen}");
        }
    }

    #[test]
    fn each_variant_has_its_own_section() {
        for v in Variant::ALL {
            let s = of(v);
            assert!(s.about().starts_with(&format!("{}: ", v.id())), "{v}");
            assert!(!s.keys().is_empty(), "{v}");
        }
    }
}
