//! Points of the game so far (from the referee) and the award of one more
//! action, for `d`, `eval` and the closing `info string` of a search.

use crate::referee::score_game;
use crate::rules::{Action, AnyGame, Game, Pos};
use crate::scoring::{Award, EndContext, Memo, Points, Scorer};

/// The game's points so far, `(white, black)`, as the referee counts them:
/// every action's award, and the ending's once the game is over.
pub(super) fn so_far<P: Pos>(game: &Game<P>, scorer: &Scorer) -> (Points, Points) {
    let record = score_game(scorer, game, &EndContext::default());
    (record.total.white, record.total.black)
}

/// What `action` earns if played now, `memo` being the game's memo: its
/// own award, plus the ending's awards if it ends the game (as the referee
/// shows a final ply, with the outcome added). `None` if it is not legal.
pub(super) fn award_of(
    game: &AnyGame,
    scorer: &Scorer,
    memo: &Memo,
    action: Action,
) -> Option<Award> {
    crate::with_game!(game, |g| award_in(g, scorer, memo, action))
}

fn award_in<P: Pos>(game: &Game<P>, scorer: &Scorer, memo: &Memo, action: Action) -> Option<Award> {
    if game.ending().is_some() {
        // Over by a rule the client does not apply, which plays on: the
        // action's own award, as in a new game.
        let before = game.current();
        let node = game.rules().play(before, action);
        return Some(scorer.action_award(memo, before, action, &node).0);
    }
    let mut after = game.clone();
    after.play(action).ok()?;
    let before = game.current();
    let node = after.current();
    let (award, next) = scorer.action_award(memo, before, action, node);
    Some(match after.ending() {
        Some(e) => {
            let end = scorer.end_award(
                &next,
                Some((before, action)),
                node,
                &e,
                &EndContext::default(),
            );
            scorer.final_ply_award(&award, &end).plus(end.outcome)
        }
        None => award,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Engine;
    use crate::rules::Variant;
    use crate::scoring::Event;

    /// The award `award_of` gives the move `mv` after `moves`, and the
    /// points the referee adds when it is played.
    fn both(variant: Variant, moves: &[&str], mv: &str) -> (Award, (Points, Points)) {
        let mut e = Engine::new(variant);
        e.set_position(None, moves).unwrap();
        let scorer = e.scorer();
        let action = e
            .legal_actions()
            .into_iter()
            .find(|a| a.to_string() == mv)
            .unwrap();
        let award = award_of(e.game(), &scorer, &e.memo(), action).unwrap();
        let AnyGame::Standard(before) = e.game().clone() else {
            panic!("standard rules")
        };
        e.play(mv).unwrap();
        let AnyGame::Standard(after) = e.game() else {
            panic!("standard rules")
        };
        let (w0, b0) = so_far(&before, &scorer);
        let (w1, b1) = so_far(after, &scorer);
        (award, (w1 - w0, b1 - b0))
    }

    #[test]
    fn chess_mate_counts() {
        let (award, added) = both(Variant::Chess, &["f2f3", "e7e5", "g2g4"], "d8h4");
        assert_eq!((award.white, award.black), (Points::ZERO, Points::whole(1)));
        assert_eq!(added, (Points::ZERO, Points::whole(1)));
    }

    #[test]
    fn wacky_mate_replaces_check() {
        let (award, added) = both(Variant::Wacky, &["f2f3", "e7e5", "g2g4"], "d8h4");
        assert_eq!((award.white, award.black), added);
        assert!(award.events.contains(Event::Mate));
        assert!(!award.events.contains(Event::Check));
    }
}
