//! Points of the game so far and the award of one more action, for `d`,
//! `eval` and the closing `info string` of a search.
//!
//! [`tally`] sums the scorer's awards over the game's plies (and the ending's
//! awards once the game is over). It is the one place to switch to the
//! referee module once that lands.

use shakmaty::Position;

use crate::engine::AnyGame;
use crate::rules::{Action, Game, Pos};
use crate::scoring::{Award, EndContext, Memo, Points, Scorer};

/// The game's points so far and the memo after its last action.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Tally {
    /// White's points.
    pub white: Points,
    /// Black's points.
    pub black: Points,
    /// The scoring memo after the last action.
    pub memo: Memo,
}

/// Sums every action's award, and the ending's awards if the game is over.
pub(super) fn tally<P: Pos>(game: &Game<P>, scorer: &Scorer) -> Tally {
    let nodes = game.nodes();
    let mut t = Tally::default();
    let mut total = Award::default();
    for (i, &action) in game.actions().iter().enumerate() {
        let (award, next) = scorer.action_award(&t.memo, &nodes[i], action, &nodes[i + 1]);
        total = total.plus(award);
        t.memo = next;
    }
    if let Some(ending) = game.ending() {
        let n = nodes.len();
        let last = game
            .actions()
            .last()
            .map(|&a| (&nodes[n.saturating_sub(2)], a));
        let end = scorer.end_award(
            &t.memo,
            last,
            game.current(),
            &ending,
            &EndContext::default(),
        );
        total = total.plus(end.total());
    }
    t.white = total.white;
    t.black = total.black;
    t
}

/// The game's points so far (see [`tally`]).
pub(super) fn tally_any(game: &AnyGame, scorer: &Scorer) -> Tally {
    match game {
        AnyGame::Standard(g) => tally(g, scorer),
        AnyGame::Extinction(g) => tally(g, scorer),
    }
}

/// What `action` earns if played now, `memo` being the game's memo (from
/// [`tally`]): its own award, plus the ending's awards if it ends the game.
/// `None` if it is not legal.
pub(super) fn award_of(
    game: &AnyGame,
    scorer: &Scorer,
    memo: &Memo,
    action: Action,
) -> Option<Award> {
    match game {
        AnyGame::Standard(g) => award_in(g, scorer, memo, action),
        AnyGame::Extinction(g) => award_in(g, scorer, memo, action),
    }
}

fn award_in<P: Pos>(game: &Game<P>, scorer: &Scorer, memo: &Memo, action: Action) -> Option<Award> {
    let mut after = game.clone();
    after.play(action).ok()?;
    let before = game.current();
    let node = after.current();
    let (award, next) = scorer.action_award(memo, before, action, node);
    let end = after.ending().map_or_else(Award::default, |e| {
        scorer
            .end_award(
                &next,
                Some((before, action)),
                node,
                &e,
                &EndContext::default(),
            )
            .total()
    });
    Some(award.plus(end))
}

/// The side to move in a game.
pub(super) fn turn(game: &AnyGame) -> shakmaty::Color {
    match game {
        AnyGame::Standard(g) => g.current().pos.turn(),
        AnyGame::Extinction(g) => g.current().pos.turn(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Rules, Variant};
    use shakmaty::Chess;

    #[test]
    fn chess_mate_counts() {
        let rules = Rules::<Chess>::new(Variant::Chess);
        let mut g = Game::new(rules, None).unwrap();
        for m in ["f2f3", "e7e5", "g2g4"] {
            g.play_text(m).unwrap();
        }
        let scorer = Scorer::new(Variant::Chess);
        assert_eq!(tally(&g, &scorer).white, Points::ZERO);
        let mate = g
            .legal_actions()
            .into_iter()
            .find(|a| a.to_string() == "d8h4")
            .unwrap();
        let any = AnyGame::Standard(g.clone());
        let memo = tally_any(&any, &scorer).memo;
        let award = award_of(&any, &scorer, &memo, mate).unwrap();
        assert_eq!(award.black, Points::whole(1));
        g.play(mate).unwrap();
        let t = tally(&g, &scorer);
        assert_eq!((t.white, t.black), (Points::ZERO, Points::whole(1)));
    }
}
