//! Game records: a start position, the actions played and the history, with
//! every ending detected; the repetition classifier and the detector of the
//! endings that need the history, which game records and the search share.

use shakmaty::Color;

use super::RulesError;
use super::action::{Action, ActionList};
use super::ending::{Ending, Repetition, RepetitionKind};
use super::node::{Node, Rules};
use super::pos::Pos;

/// What repetition detection needs to know of each position of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HistoryEntry {
    /// The repetition key ([`Node::key`]).
    pub key: u64,
    /// Whether the action that led here gave check.
    pub check: bool,
    /// Whether the action that led here was a capture or pawn move (no
    /// earlier position can repeat across it).
    pub zeroing: bool,
}

impl HistoryEntry {
    /// The entry of a node reached by `action` (`None` for a start
    /// position, which counts as zeroing: nothing before it is known).
    pub fn of<P: Pos>(node: &Node<P>, action: Option<Action>) -> HistoryEntry {
        HistoryEntry {
            key: node.key,
            check: node.check,
            zeroing: action.is_none_or(|a| a.as_move().is_some_and(|m| m.is_zeroing())),
        }
    }
}

/// The positions of a game so far, oldest first; the last is the current
/// one.
pub type History = Vec<HistoryEntry>;

/// Finds a threefold repetition of the last position of `history` and
/// classifies it (docs/rules.md, "When a game ends").
///
/// `turn` is the side to move in the last position; every action passes the
/// turn, so the mover of each action follows from its distance to the end.
pub fn find_repetition(history: &[HistoryEntry], turn: Color) -> Option<Repetition> {
    find_repetition_after(history, turn, usize::MAX)
}

/// [`find_repetition`], with one earlier occurrence enough when it lies at
/// index `tree_start` or later: a search counts a position that repeats
/// one of its own earlier positions as the repetition it would become if
/// the cycle went on (the same side closes it again, with the same
/// checks), as strong engines do. Before `tree_start` (the game's own
/// positions, the root included), and for the tiebraker's disk and restore
/// (once a game, so no cycle), the full threefold is needed.
/// [`Repetition::projected`] tells the two apart: it is set where no full
/// threefold lies behind the cycle.
pub fn find_repetition_after(
    history: &[HistoryEntry],
    turn: Color,
    tree_start: usize,
) -> Option<Repetition> {
    let n = history.len().checked_sub(1)?;
    let key = history[n].key;
    let mut found = 0;
    let mut first = None;
    let mut full = false;
    let mut j = n;
    // Step back two plies at a time, never across a zeroing action. The
    // span starts at the first occurrence that ends the game (the nearest
    // cycle of the tree, else the second occurrence back); the scan goes on
    // past a cycle of the tree to tell a projection from a full threefold.
    while j >= 2 {
        if history[j].zeroing || history[j - 1].zeroing {
            break;
        }
        j -= 2;
        if history[j].key == key {
            found += 1;
            if found == 2 {
                full = true;
                first.get_or_insert(j);
                break;
            }
            // Two entries back is the one pair of special actions that
            // keeps the key (disk, restore): it happens once a game, so it
            // is no cycle.
            if j >= tree_start && n - j >= 4 {
                first = Some(j);
            }
        }
    }
    let first = first?;
    // The actions of the span are those leading to positions first+1..=n.
    // The action leading to position i was made by the side to move at n if
    // n - i is odd, by the other side if even.
    let mover_of = |i: usize| {
        if (n - i).is_multiple_of(2) {
            !turn
        } else {
            turn
        }
    };
    let mut all_check = [true, true];
    let mut first_check: Option<Color> = None;
    for (i, entry) in history.iter().enumerate().take(n + 1).skip(first + 1) {
        let mover = mover_of(i);
        if entry.check {
            first_check.get_or_insert(mover);
        } else {
            all_check[mover as usize] = false;
        }
    }
    let white = all_check[Color::White as usize];
    let black = all_check[Color::Black as usize];
    let kind = match (white, black) {
        (true, true) => RepetitionKind::Mutual {
            first_check: first_check.unwrap_or(mover_of(first + 1)),
        },
        (true, false) => RepetitionKind::Perpetual { by: Color::White },
        (false, true) => RepetitionKind::Perpetual { by: Color::Black },
        (false, false) => RepetitionKind::Plain,
    };
    Some(Repetition {
        kind,
        third_by: !turn,
        projected: !full,
    })
}

impl<P: Pos> Rules<P> {
    /// The endings of `node` that need the history, in the specification's
    /// order: threefold repetition, the move-count rule, insufficient
    /// material. `history` ends with `node`'s own entry.
    ///
    /// Position endings ([`Rules::position_ending`]: checkmate, stalemate,
    /// extinction...) take precedence over these; [`Rules::ending`] applies
    /// that order. Game records and the search both detect history endings
    /// here, so the two cannot disagree.
    #[inline]
    pub fn history_ending(&self, node: &Node<P>, history: &[HistoryEntry]) -> Option<Ending> {
        self.history_ending_after(node, history, usize::MAX)
    }

    /// [`Rules::history_ending`] for a search whose own positions start at
    /// index `tree_start` of `history` (see [`find_repetition_after`]).
    pub fn history_ending_after(
        &self,
        node: &Node<P>,
        history: &[HistoryEntry],
        tree_start: usize,
    ) -> Option<Ending> {
        let halfmoves = node.pos.halfmoves();
        // A threefold repetition needs four plies without a capture or pawn
        // move: special actions do not count as plies, but a game holds two
        // at most, and the only pair that keeps the key (disk, restore)
        // cannot repeat. So fewer plies need no look at the history.
        if halfmoves >= 4
            && let Some(r) = find_repetition_after(history, node.pos.turn(), tree_start)
        {
            return Some(Ending::Repetition(r));
        }
        if halfmoves >= self.variant().move_rule_plies() {
            return Some(Ending::MoveRule);
        }
        if self.insufficient_material(node) {
            return Some(Ending::InsufficientMaterial);
        }
        None
    }

    /// Every ending of `node` after `history` (which ends with `node`'s
    /// entry): its position ending if it has one, else its history ending.
    pub fn ending(&self, node: &Node<P>, history: &[HistoryEntry]) -> Option<Ending> {
        self.position_ending(node)
            .or_else(|| self.history_ending(node, history))
    }
}

/// A game: the start, the actions and every position, with its ending.
#[derive(Clone, Debug)]
pub struct Game<P: Pos> {
    rules: Rules<P>,
    nodes: Vec<Node<P>>,
    actions: Vec<Action>,
    history: History,
    ending: Option<Ending>,
}

impl<P: Pos> Game<P> {
    /// A new game from the standard position, or from `fen`.
    ///
    /// # Errors
    ///
    /// [`RulesError::InvalidFen`] or [`RulesError::InvalidPosition`].
    pub fn new(rules: Rules<P>, fen: Option<&str>) -> Result<Game<P>, RulesError> {
        let root = match fen {
            None => rules.start(),
            Some(f) => rules.from_fen(f)?,
        };
        Ok(Game::from_node(rules, root))
    }

    /// A new game from a root node.
    pub fn from_node(rules: Rules<P>, root: Node<P>) -> Game<P> {
        let history = vec![HistoryEntry::of(&root, None)];
        let mut game = Game {
            rules,
            nodes: vec![root],
            actions: Vec::new(),
            history,
            ending: None,
        };
        game.ending = game.compute_ending();
        game
    }

    /// The rules.
    pub fn rules(&self) -> Rules<P> {
        self.rules
    }

    /// The current node.
    pub fn current(&self) -> &Node<P> {
        self.nodes.last().expect("a game always has its start node")
    }

    /// The start node.
    pub fn start(&self) -> &Node<P> {
        &self.nodes[0]
    }

    /// Every node, the start first.
    pub fn nodes(&self) -> &[Node<P>] {
        &self.nodes
    }

    /// The actions played.
    pub fn actions(&self) -> &[Action] {
        &self.actions
    }

    /// The repetition history, the current position last.
    pub fn history(&self) -> &[HistoryEntry] {
        &self.history
    }

    /// How the game ended, or `None` while it runs.
    pub fn ending(&self) -> Option<Ending> {
        self.ending
    }

    /// The legal actions now (none once the game is over).
    pub fn legal_actions(&self) -> ActionList {
        let mut out = ActionList::new();
        if self.ending.is_none() {
            self.rules.legal_actions(self.current(), &mut out);
        }
        out
    }

    /// Plays an action after checking that it is legal.
    ///
    /// # Errors
    ///
    /// [`RulesError::GameOver`] after the end, [`RulesError::IllegalAction`]
    /// for an action not legal now.
    pub fn play(&mut self, action: Action) -> Result<(), RulesError> {
        if let Some(e) = self.ending {
            return Err(RulesError::GameOver(e.describe()));
        }
        if !self.legal_actions().contains(&action) {
            return Err(RulesError::IllegalAction {
                action: action.to_string(),
                reason: String::new(),
            });
        }
        self.push(action);
        Ok(())
    }

    /// Parses an action text (UCI move or special word) and plays it.
    ///
    /// # Errors
    ///
    /// As [`Game::play`], plus [`RulesError::UnparsableAction`].
    pub fn play_text(&mut self, text: &str) -> Result<Action, RulesError> {
        if let Some(e) = self.ending {
            return Err(RulesError::GameOver(e.describe()));
        }
        self.parse_and_push(text)
    }

    /// [`Game::play_text`] past an ending that leaves moves on the board
    /// ([`Ending::leaves_moves`]: repetition, the move-count rule,
    /// insufficient material...), for a GUI whose rules have not ended the
    /// game; the ending is then that of the new position, if any.
    ///
    /// # Errors
    ///
    /// As [`Game::play_text`]; [`RulesError::GameOver`] only after
    /// checkmate, stalemate or extinction.
    pub fn play_text_past_end(&mut self, text: &str) -> Result<Action, RulesError> {
        if let Some(e) = self.ending.filter(|e| !e.leaves_moves()) {
            return Err(RulesError::GameOver(e.describe()));
        }
        self.parse_and_push(text)
    }

    fn parse_and_push(&mut self, text: &str) -> Result<Action, RulesError> {
        let action = self.rules.parse_action(self.current(), text)?;
        self.push(action);
        Ok(action)
    }

    fn push(&mut self, action: Action) {
        let next = self.rules.play(self.current(), action);
        self.history.push(HistoryEntry::of(&next, Some(action)));
        self.nodes.push(next);
        self.actions.push(action);
        self.ending = self.compute_ending();
    }

    /// Records a resignation by `loser` (a decisive result without a board
    /// ending). Ignored once the game is over.
    pub fn resign(&mut self, loser: Color) {
        if self.ending.is_none() {
            self.ending = Some(Ending::Resignation { winner: !loser });
        }
    }

    fn compute_ending(&self) -> Option<Ending> {
        self.rules.ending(self.current(), &self.history)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;
    use shakmaty::{Chess, Position};

    #[test]
    fn position_endings_outrank_history_endings() {
        // Stalemate with king and bishop against king: insufficient
        // material too, but stalemate comes first.
        let rules = Rules::<Chess>::new(Variant::Dynamic);
        let game = Game::new(rules, Some("k7/8/1K6/4B3/8/8/8/8 b - - 0 1")).unwrap();
        let (node, history) = (game.current(), game.history());
        assert_eq!(
            rules.history_ending(node, history),
            Some(Ending::InsufficientMaterial)
        );
        let stalemate = Some(Ending::Stalemate {
            stalemated: Color::Black,
        });
        assert_eq!(rules.ending(node, history), stalemate);
        assert_eq!(game.ending(), stalemate);
    }

    #[test]
    fn a_game_ends_where_the_detector_says() {
        let rules = Rules::<Chess>::new(Variant::Chess);
        let mut game = Game::new(rules, None).unwrap();
        for m in [
            "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
        ] {
            assert_eq!(rules.history_ending(game.current(), game.history()), None);
            assert_eq!(game.ending(), None);
            game.play_text(m).unwrap();
        }
        let third = Some(Ending::Repetition(Repetition {
            kind: RepetitionKind::Plain,
            third_by: Color::Black,
            projected: false,
        }));
        assert_eq!(rules.history_ending(game.current(), game.history()), third);
        assert_eq!(game.ending(), third);
        // A search whose tree holds the second occurrence finds the full
        // threefold behind it: no projection.
        let (node, history) = (game.current(), game.history());
        assert_eq!(rules.history_ending_after(node, history, 3), third);
        // Without the first occurrence, the cycle of the tree is projected.
        let projected = Some(Ending::Repetition(Repetition {
            kind: RepetitionKind::Plain,
            third_by: Color::Black,
            projected: true,
        }));
        assert_eq!(
            rules.history_ending_after(node, &history[3..], 1),
            projected
        );
        assert_eq!(rules.history_ending(node, &history[3..]), None);
    }

    #[test]
    fn a_search_counts_a_repetition_of_its_own_positions_at_once() {
        // White checks back and forth, Black's king steps back and forth:
        // after 4 plies the start position is back, for the first time.
        let rules = Rules::<Chess>::new(Variant::Sets);
        let mut game = Game::new(rules, Some("6k1/5pp1/8/8/8/3Q4/5PPP/6K1 w - - 4 1")).unwrap();
        for m in ["d3d8", "g8h7", "d8d3", "h7g8"] {
            game.play_text(m).unwrap();
        }
        let (node, history) = (game.current(), game.history());
        assert_eq!(rules.history_ending(node, history), None);
        // The first occurrence is the game's own (index 0): a search from
        // there (its root at index 0, its positions from 1) needs a third.
        assert_eq!(rules.history_ending_after(node, history, 1), None);
        // A search rooted before it counts the cycle as the perpetual
        // check it becomes if repeated, closed by the same side.
        let game_before = {
            let mut g = Game::new(rules, Some("7k/5pp1/8/8/8/3Q4/5PPP/5K2 w - - 4 1")).unwrap();
            for m in ["f1g1", "h8g8", "d3d8", "g8h7", "d8d3", "h7g8"] {
                g.play_text(m).unwrap();
            }
            g
        };
        let perpetual = Some(Ending::Repetition(Repetition {
            kind: RepetitionKind::Perpetual { by: Color::White },
            third_by: Color::Black,
            projected: true,
        }));
        let (node, history) = (game_before.current(), game_before.history());
        assert_eq!(history[2].key, node.key);
        assert_eq!(rules.history_ending(node, history), None);
        assert_eq!(rules.history_ending_after(node, history, 1), perpetual);
        assert_eq!(rules.history_ending_after(node, history, 3), None);
    }

    #[test]
    fn a_disk_and_its_restore_are_no_cycle_for_the_search() {
        let rules = Rules::<Chess>::new(Variant::Tiebraker);
        let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 6 4";
        let mut game = Game::new(rules, Some(fen)).unwrap();
        for a in ["f3g1", "disk", "restore"] {
            game.play_text(a).unwrap();
        }
        // The position after the first move is back, inside the search.
        let (node, history) = (game.current(), game.history());
        assert_eq!(history[1].key, node.key);
        assert!(node.pos.halfmoves() >= 4);
        assert_eq!(rules.history_ending_after(node, history, 1), None);
    }

    #[test]
    fn disk_and_restore_repeat_a_position_without_a_ply() {
        // The one pair of actions that keeps the key spends no halfmove:
        // the position repeats with the clock at 0, once per game.
        let rules = Rules::<Chess>::new(Variant::Tiebraker);
        let mut game = Game::new(rules, None).unwrap();
        game.play_text("disk").unwrap();
        game.play_text("restore").unwrap();
        assert_eq!(game.history()[0].key, game.history()[2].key);
        assert_eq!(game.current().pos.halfmoves(), 0);
        assert_eq!(game.ending(), None);
        assert!(!game.legal_actions().contains(&Action::Disk));
    }
}
