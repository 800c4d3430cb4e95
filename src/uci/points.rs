//! Points of the game so far (from the referee) and the award of one more
//! action, for `d`, `eval` and the closing `info string` of a search.

use shakmaty::Position;

use crate::engine::AnyGame;
use crate::referee::score_game;
use crate::rules::{Action, Game, Pos};
use crate::scoring::{Award, EndContext, Memo, Points, Scorer};

/// The scoring memo after the game's actions.
pub(super) fn memo<P: Pos>(game: &Game<P>) -> Memo {
    game.nodes()
        .iter()
        .zip(game.actions())
        .fold(Memo::default(), |m, (node, &a)| m.after(node, a))
}

/// The scoring memo of either kind of game.
pub(super) fn memo_any(game: &AnyGame) -> Memo {
    match game {
        AnyGame::Standard(g) => memo(g),
        AnyGame::Extinction(g) => memo(g),
    }
}

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
        assert_eq!(so_far(&g, &scorer), (Points::ZERO, Points::ZERO));
        let mate = g
            .legal_actions()
            .into_iter()
            .find(|a| a.to_string() == "d8h4")
            .unwrap();
        let any = AnyGame::Standard(g.clone());
        let award = award_of(&any, &scorer, &memo_any(&any), mate).unwrap();
        assert_eq!(award.black, Points::whole(1));
        g.play(mate).unwrap();
        assert_eq!(so_far(&g, &scorer), (Points::ZERO, Points::whole(1)));
    }

    #[test]
    fn wacky_mate_replaces_check() {
        let rules = Rules::<Chess>::new(Variant::Wacky);
        let mut g = Game::new(rules, None).unwrap();
        for m in ["f2f3", "e7e5", "g2g4"] {
            g.play_text(m).unwrap();
        }
        let scorer = Scorer::new(Variant::Wacky);
        let any = AnyGame::Standard(g.clone());
        let mate = g
            .legal_actions()
            .into_iter()
            .find(|a| a.to_string() == "d8h4")
            .unwrap();
        let award = award_of(&any, &scorer, &memo_any(&any), mate).unwrap();
        let (white, black) = so_far(&g, &scorer);
        g.play(mate).unwrap();
        let (white2, black2) = so_far(&g, &scorer);
        // The award is exactly what the referee adds for the mating ply.
        assert_eq!((award.white, award.black), (white2 - white, black2 - black));
        assert!(!award.events.contains(crate::scoring::Event::Check));
    }
}
