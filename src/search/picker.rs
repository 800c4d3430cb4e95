//! The move picker: hands out a node's actions one at a time, best first,
//! stage by stage, so that the work of a later stage (the exchange
//! evaluation of captures) is only done when the earlier ones did not end
//! the node.
//!
//! The main search's stages, in order:
//!
//! 1. the table's action, before any exchange is evaluated;
//! 2. a sets `claim` (it ends the game at once);
//! 3. good noisy actions: captures that keep material by exchange (the
//!    capture of a last piece in extinction always does) by MVV-LVA, and
//!    queen promotions by the queen's exchange value;
//! 4. the two killers, the newer first;
//! 5. the tiebraker answers to a disk (`swap`, `restore`);
//! 6. quiet moves by history, plus a bonus for taking a piece out of a less
//!    valuable piece's attack to a square out of it;
//! 7. bad captures (losing by exchange), by MVV-LVA;
//! 8. late actions: under-promotions and the `disk`.
//!
//! Quiescence has one stage: captures by MVV-LVA and promotions by the
//! promoted piece's exchange value (queen promotions only, unless every
//! move is searched), other moves last when every move is searched.
//!
//! Scores and stages live in fixed arrays beside the caller's action list:
//! nothing is allocated per node. The table's action is found and handed
//! out before the others get their stages, which a cut-off by it spares. Quiet moves' history is read when their
//! stage begins, so it includes what the searches of the earlier actions
//! learnt.
//!
//! Equal scores: in the main search each pick swaps the picked action with
//! the first one not yet picked and the next pick scans the list in that
//! order (a selection sort); quiescence keeps generation order. Both are
//! the orders the search has always used; changing either changes the
//! search.

use arrayvec::ArrayVec;
use shakmaty::{Board, Color, Move, Role};

use super::history::{Context, History, Threats};
use super::params::{CAPTURE_HISTORY_DIV, ESCAPE_BONUS, MVV_LVA_ATTACKER_DIV, MVV_LVA_VICTIM};
use super::see::{exchange_ok, see_value};
use crate::rules::{Action, ActionList, MAX_ACTIONS, Pos};

/// MVV-LVA for a capture: victim first, then the cheaper attacker.
#[inline]
pub(super) fn mvv_lva(m: Move) -> i32 {
    let victim = match m {
        Move::EnPassant { .. } => see_value(Role::Pawn),
        _ => m.capture().map_or(0, see_value),
    };
    victim * MVV_LVA_VICTIM - see_value(m.role()) / MVV_LVA_ATTACKER_DIV
}

/// Where an action is handed out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// The table's action.
    Table,
    /// A sets claim.
    Claim,
    /// Captures (split into good and bad when this stage begins) and queen
    /// promotions.
    GoodNoisy,
    /// The killers.
    Killers,
    /// Swap and restore.
    Answers,
    /// Quiet moves.
    Quiets,
    /// Captures that lose by exchange.
    BadCaptures,
    /// Under-promotions and the disk.
    Late,
    /// Everything quiescence searches.
    Quiescence,
    /// Never handed out (quiescence leaves it).
    Skip,
}

/// The number of stages, [`Stage::Skip`] included.
const STAGES: usize = 10;

/// The main search's stages, in order.
const MAIN: &[Stage] = &[
    Stage::Table,
    Stage::Claim,
    Stage::GoodNoisy,
    Stage::Killers,
    Stage::Answers,
    Stage::Quiets,
    Stage::BadCaptures,
    Stage::Late,
];

/// Quiescence's stages.
const QUIESCENCE: &[Stage] = &[Stage::Quiescence];

/// How a pick moves the actions it passes over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ties {
    /// The picked action swaps places with the first one not yet picked.
    Swap,
    /// The actions before the picked one move up by one, keeping their
    /// order.
    Stable,
}

/// The pick key of an action of another stage than the current one: below
/// every score (scores are exchange values and bounded histories).
const NOT_IN_STAGE: i32 = i32::MIN;

/// The bits of a pick key that hold the action's place (enough for
/// [`MAX_ACTIONS`]).
const PLACE_BITS: u32 = 9;
const _: () = assert!(MAX_ACTIONS <= 1 << PLACE_BITS);

/// The largest score magnitude a pick key holds unchanged: scores stay
/// under about a hundred thousand (histories of ±16,384 per table plus the
/// escape bonus, exchange values of a few thousand times
/// [`MVV_LVA_VICTIM`]); a larger one would be clamped.
const KEY_SCORE_MAX: i32 = (1 << (30 - PLACE_BITS)) - 1;

/// The pick key of `score` at place `i`: the score in the high bits, the
/// place reversed in the low ones, so that the largest key is the best
/// score and, among equal scores, the first place. One maximum over the
/// keys then finds the pick, with no second scan for its place.
#[inline]
fn pick_key(score: i32, i: usize) -> i32 {
    let place = ((1 << PLACE_BITS) - 1 - i) as i32;
    (score.clamp(-KEY_SCORE_MAX, KEY_SCORE_MAX) << PLACE_BITS) | place
}

/// The place a pick key holds (see [`pick_key`]).
#[inline]
fn key_place(key: i32) -> usize {
    (1 << PLACE_BITS) - 1 - (key & ((1 << PLACE_BITS) - 1)) as usize
}

/// A pick key moved to place `i`: its score with the new place.
#[inline]
fn moved_key(key: i32, i: usize) -> i32 {
    if key == NOT_IN_STAGE {
        key
    } else {
        pick_key(key >> PLACE_BITS, i)
    }
}

/// An action's place in the order: its stage, and its score within it.
#[derive(Clone, Copy, Debug)]
struct Entry {
    score: i32,
    stage: Stage,
}

/// A picker's per-action arrays, owned by the caller's frame so that a
/// [`Picker`] is a few words: returned by value, a picker holding them
/// was copied whole (about 4 KiB) at every node.
pub(super) struct PickBuf {
    /// One entry per action, at the same index.
    entries: ArrayVec<Entry, MAX_ACTIONS>,
    /// The current stage's pick keys, at the same index: an action's score
    /// and place ([`pick_key`]) if it is of the stage, [`NOT_IN_STAGE`]
    /// otherwise (set when the stage begins; scores and stages change only
    /// between stages), so a pick is a plain maximum over one array.
    keys: ArrayVec<i32, MAX_ACTIONS>,
}

impl PickBuf {
    /// Empty arrays (nothing is written until a picker fills them).
    #[inline]
    pub fn new() -> PickBuf {
        PickBuf {
            entries: ArrayVec::new(),
            keys: ArrayVec::new(),
        }
    }
}

/// Hands out the actions of one node, best first (see the module header).
pub(super) struct Picker<'a> {
    actions: &'a mut ActionList,
    /// The entries and pick keys of `actions`.
    buf: &'a mut PickBuf,
    /// Whether `keys` holds the stage `order[at]`.
    keys_ready: bool,
    /// Actions not yet handed out, by stage.
    counts: [u16; STAGES],
    order: &'static [Stage],
    /// The current stage's index in `order`.
    at: usize,
    /// The first action not yet handed out.
    next: usize,
    ties: Ties,
    /// Whether every action has its entry: the main search's are made
    /// after the table's action was handed out, which often ends the node
    /// alone.
    classified: bool,
    /// Whether the table's action was found (it is at place 0).
    table_first: bool,
    /// The node's killers, for the entries.
    killers: [Option<Action>; 2],
    /// The stage of the action handed out last.
    last: Stage,
}

impl<'a> Picker<'a> {
    #[inline]
    fn empty(
        actions: &'a mut ActionList,
        buf: &'a mut PickBuf,
        order: &'static [Stage],
        ties: Ties,
    ) -> Picker<'a> {
        buf.entries.clear();
        buf.keys.clear();
        Picker {
            actions,
            buf,
            keys_ready: false,
            counts: [0; STAGES],
            order,
            at: 0,
            next: 0,
            ties,
            classified: false,
            table_first: false,
            killers: [None; 2],
            last: Stage::Skip,
        }
    }

    #[inline]
    fn push(&mut self, stage: Stage, score: i32) {
        self.buf.entries.push(Entry { score, stage });
        self.buf.keys.push(NOT_IN_STAGE);
        self.counts[stage as usize] += 1;
    }

    /// A picker for a main-search node over its legal `actions`, with the
    /// table's action code (0 for none) and the node's killers. The table's
    /// action is handed out first; the others get their stages only when
    /// it did not end the node, and quiet moves are scored when their stage
    /// begins (see [`Picker::next`]).
    #[inline]
    pub fn new(
        actions: &'a mut ActionList,
        buf: &'a mut PickBuf,
        table: u16,
        killers: [Option<Action>; 2],
    ) -> Picker<'a> {
        let mut picker = Picker::empty(actions, buf, MAIN, Ties::Swap);
        picker.killers = killers;
        if table != 0
            && let Some(i) = picker.actions.iter().position(|a| a.code() == table)
        {
            // Where picking it would put it (it is the only one of its
            // stage): the first place, swapped with the action there.
            picker.actions.swap(0, i);
            picker.table_first = true;
        }
        picker
    }

    /// Gives every action its stage and score: the table's action (at
    /// place 0, already handed out) its own stage, the others theirs.
    fn classify(&mut self) {
        let killers = self.killers;
        for i in 0..self.actions.len() {
            let a = self.actions[i];
            let (stage, score) = if i == 0 && self.table_first {
                (Stage::Table, 0)
            } else {
                match a {
                    Action::Claim => (Stage::Claim, 0),
                    Action::Disk => (Stage::Late, 0),
                    Action::Swap | Action::Restore => (Stage::Answers, 0),
                    Action::Move(m) => {
                        if m.is_capture() {
                            (Stage::GoodNoisy, mvv_lva(m))
                        } else if let Some(p) = m.promotion() {
                            if p == Role::Queen {
                                (Stage::GoodNoisy, see_value(p))
                            } else {
                                (Stage::Late, 0)
                            }
                        } else if killers[0] == Some(a) {
                            (Stage::Killers, 1)
                        } else if killers[1] == Some(a) {
                            (Stage::Killers, 0)
                        } else {
                            (Stage::Quiets, 0)
                        }
                    }
                }
            };
            self.push(stage, score);
        }
        if self.table_first {
            self.counts[Stage::Table as usize] -= 1;
        }
        self.classified = true;
    }

    /// A picker for a quiescence node over `actions` (its captures and
    /// promotions, or all its legal actions): captures and queen
    /// promotions, and with `all_moves` every other move too. Special
    /// actions are never searched there.
    #[inline]
    pub fn quiescence(
        actions: &'a mut ActionList,
        buf: &'a mut PickBuf,
        all_moves: bool,
    ) -> Picker<'a> {
        let mut picker = Picker::empty(actions, buf, QUIESCENCE, Ties::Stable);
        picker.classified = true;
        for i in 0..picker.actions.len() {
            let (stage, score) = match picker.actions[i] {
                Action::Move(m)
                    if all_moves || m.is_capture() || m.promotion() == Some(Role::Queen) =>
                {
                    let score = if m.is_capture() {
                        mvv_lva(m)
                    } else {
                        m.promotion().map_or(0, see_value)
                    };
                    (Stage::Quiescence, score)
                }
                _ => (Stage::Skip, 0),
            };
            picker.push(stage, score);
        }
        picker
    }

    /// The next action, or `None` once every action was handed out.
    /// `board` is the node's and `ctx` its side to move and previous
    /// moves (for exchanges, evaluated when the captures' stage begins);
    /// `history` scores the quiet moves in `ctx` when their stage begins.
    pub fn next<P: Pos>(
        &mut self,
        board: &Board,
        history: &History,
        ctx: &Context,
    ) -> Option<Action> {
        if !self.classified {
            if self.table_first && self.next == 0 {
                self.next = 1;
                self.last = Stage::Table;
                return Some(self.actions[0]);
            }
            self.classify();
        }
        loop {
            let stage = *self.order.get(self.at)?;
            if self.counts[stage as usize] > 0 {
                if !self.keys_ready {
                    self.load_keys(stage);
                }
                if let Some(i) = self.best() {
                    return Some(self.take(i));
                }
                self.counts[stage as usize] = 0;
            }
            self.at += 1;
            self.keys_ready = false;
            match self.order.get(self.at) {
                Some(Stage::GoodNoisy) => {
                    self.split_captures::<P>(board, ctx.turn);
                    self.score_captures(history, ctx);
                }
                Some(Stage::Quiets) => self.score_quiets(history, ctx),
                _ => {}
            }
        }
    }

    /// Whether the action handed out last is one of the node's killers:
    /// known by its stage, except for the table's action, which may be
    /// one too.
    #[inline]
    pub fn last_is_killer(&self, action: Action) -> bool {
        match self.last {
            Stage::Killers => true,
            Stage::Table => self.killers.contains(&Some(action)),
            _ => false,
        }
    }

    /// Sets the pick keys of the actions not yet handed out for `stage`.
    #[inline]
    fn load_keys(&mut self, stage: Stage) {
        let n = self.next;
        for (j, (k, e)) in self.buf.keys[n..]
            .iter_mut()
            .zip(&self.buf.entries[n..])
            .enumerate()
        {
            *k = if e.stage == stage {
                pick_key(e.score, n + j)
            } else {
                NOT_IN_STAGE
            };
        }
        self.keys_ready = true;
    }

    /// The first of the best-scored actions not yet handed out in the
    /// current stage: the largest key (a loop the compiler vectorises),
    /// whose low bits are its place.
    #[inline]
    fn best(&self) -> Option<usize> {
        let top = self.buf.keys[self.next..]
            .iter()
            .fold(NOT_IN_STAGE, |m, &k| m.max(k));
        (top != NOT_IN_STAGE).then(|| key_place(top))
    }

    /// Hands out the action at `i`.
    #[inline]
    fn take(&mut self, i: usize) -> Action {
        let n = self.next;
        match self.ties {
            Ties::Swap => {
                self.actions.swap(n, i);
                self.buf.entries.swap(n, i);
                self.buf.keys.swap(n, i);
                self.buf.keys[i] = moved_key(self.buf.keys[i], i);
            }
            Ties::Stable => {
                self.actions[n..=i].rotate_right(1);
                self.buf.entries[n..=i].rotate_right(1);
                self.buf.keys[n..=i].rotate_right(1);
                for j in n + 1..=i {
                    self.buf.keys[j] = moved_key(self.buf.keys[j], j);
                }
            }
        }
        self.last = self.buf.entries[n].stage;
        self.counts[self.last as usize] -= 1;
        self.next += 1;
        self.actions[n]
    }

    /// Scores the quiet moves not yet handed out by the history in `ctx`,
    /// and by whether they take an attacked piece to safety.
    fn score_quiets(&mut self, history: &History, ctx: &Context) {
        let scorer = history.quiet_scorer(ctx);
        for j in self.next..self.actions.len() {
            if self.buf.entries[j].stage == Stage::Quiets {
                let a = self.actions[j];
                self.buf.entries[j].score = scorer.score(a) + escape_bonus(&ctx.threats, a);
            }
        }
    }

    /// Adds the capture history to the captures' MVV-LVA.
    fn score_captures(&mut self, history: &History, ctx: &Context) {
        for j in self.next..self.actions.len() {
            if matches!(
                self.buf.entries[j].stage,
                Stage::GoodNoisy | Stage::BadCaptures
            ) && let Action::Move(m) = self.actions[j]
                && m.is_capture()
            {
                self.buf.entries[j].score += history.capture(ctx.turn, m) / CAPTURE_HISTORY_DIV;
            }
        }
    }

    /// Moves the captures that lose by exchange to the bad captures.
    fn split_captures<P: Pos>(&mut self, board: &Board, turn: Color) {
        for j in self.next..self.actions.len() {
            if self.buf.entries[j].stage == Stage::GoodNoisy
                && let Action::Move(m) = self.actions[j]
                && m.is_capture()
                && !exchange_ok::<P>(board, turn, m, 0)
            {
                self.buf.entries[j].stage = Stage::BadCaptures;
                self.counts[Stage::GoodNoisy as usize] -= 1;
                self.counts[Stage::BadCaptures as usize] += 1;
            }
        }
    }
}

/// A quiet move's bonus for taking a piece out of an attack by a less
/// valuable one (a queen attacked by a rook or less, a rook by a minor
/// piece or a pawn, a knight or bishop by a pawn) to a square no such
/// piece attacks.
#[inline]
fn escape_bonus(threats: &Threats, action: Action) -> i32 {
    let Action::Move(m) = action else { return 0 };
    let Some(from) = m.from() else { return 0 };
    let (by, bonus) = match m.role() {
        Role::Queen => (threats.rooks, ESCAPE_BONUS[2]),
        Role::Rook => (threats.minors, ESCAPE_BONUS[1]),
        Role::Knight | Role::Bishop => (threats.pawns, ESCAPE_BONUS[0]),
        _ => return 0,
    };
    if by.contains(from) && !by.contains(m.to()) {
        bonus
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Extinction, Node, Rules, Variant};
    use shakmaty::{Chess, Position};

    use crate::rng::Rng;

    /// The main search's order before stages: every action scored at once
    /// on one scale, then a selection sort that swaps each pick forward.
    fn reference_main<P: Pos>(
        actions: &ActionList,
        table: u16,
        killers: [Option<Action>; 2],
        history: &History,
        board: &Board,
        ctx: &Context,
    ) -> Vec<Action> {
        let turn = ctx.turn;
        let score = |a: Action| -> i32 {
            if table != 0 && a.code() == table {
                return 1 << 30;
            }
            match a {
                Action::Claim => 1 << 25,
                Action::Disk => -(1 << 21),
                Action::Swap | Action::Restore => 1 << 18,
                Action::Move(m) => {
                    if m.is_capture() {
                        let good = exchange_ok::<P>(board, turn, m, 0);
                        let base = if good { 1 << 22 } else { -(1 << 20) };
                        base + mvv_lva(m)
                    } else if let Some(p) = m.promotion() {
                        if p == Role::Queen {
                            (1 << 22) + see_value(p)
                        } else {
                            -(1 << 21)
                        }
                    } else if killers[0] == Some(a) {
                        (1 << 20) + 1
                    } else if killers[1] == Some(a) {
                        1 << 20
                    } else {
                        history.get(ctx, a) + escape_bonus(&ctx.threats, a)
                    }
                }
            }
        };
        let mut actions = actions.clone();
        let mut scores: Vec<i32> = actions.iter().map(|&a| score(a)).collect();
        for idx in 0..actions.len() {
            let mut bi = idx;
            for j in idx + 1..actions.len() {
                if scores[j] > scores[bi] {
                    bi = j;
                }
            }
            actions.swap(idx, bi);
            scores.swap(idx, bi);
        }
        actions.to_vec()
    }

    /// Quiescence's order before stages: filter, score, stable sort.
    fn reference_quiescence(actions: &ActionList, all_moves: bool) -> Vec<Action> {
        let mut list: Vec<(i32, Action)> = actions
            .iter()
            .filter(|a| match a {
                Action::Move(m) => {
                    all_moves || m.is_capture() || m.promotion() == Some(Role::Queen)
                }
                _ => false,
            })
            .map(|&a| {
                let s = match a {
                    Action::Move(m) if m.is_capture() => mvv_lva(m),
                    Action::Move(m) => m.promotion().map_or(0, see_value),
                    _ => 0,
                };
                (s, a)
            })
            .collect();
        list.sort_by_key(|e| std::cmp::Reverse(e.0));
        list.into_iter().map(|(_, a)| a).collect()
    }

    fn drain<P: Pos>(
        mut picker: Picker<'_>,
        board: &Board,
        ctx: &Context,
        history: &History,
    ) -> Vec<Action> {
        let mut out = Vec::new();
        while let Some(a) = picker.next::<P>(board, history, ctx) {
            out.push(a);
        }
        out
    }

    /// Every node of the tree `plies` deep under each FEN.
    fn nodes<P: Pos>(rules: Rules<P>, fens: &[&str], plies: usize) -> Vec<Node<P>> {
        let mut out = Vec::new();
        let mut frontier: Vec<Node<P>> = fens.iter().map(|f| rules.from_fen(f).unwrap()).collect();
        for _ in 0..=plies {
            let mut next = Vec::new();
            for node in frontier {
                let mut actions = ActionList::new();
                rules.legal_actions(&node, &mut actions);
                next.extend(actions.iter().map(|&a| rules.play(&node, a)));
                out.push(node);
            }
            frontier = next;
        }
        out
    }

    /// The stages hand out exactly the order of one scale and a selection
    /// sort (main search), and of a stable sort (quiescence), whatever the
    /// table action, killers and history.
    fn same_order_as_one_scale<P: Pos>(rules: Rules<P>, fens: &[&str], plies: usize) {
        let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
        let mut checked = 0;
        for node in nodes(rules, fens, plies) {
            let mut actions = ActionList::new();
            rules.legal_actions(&node, &mut actions);
            // The picker does not check legality: add special actions now
            // and then, to order them too.
            for special in Action::SPECIALS {
                if rng.below(4) == 0 {
                    actions.push(special);
                }
            }
            if actions.is_empty() {
                continue;
            }
            let turn = node.pos.turn();
            let board = node.pos.board();
            let ctx = Context {
                turn,
                threats: Threats::of(board, !turn),
                prev: [None; 2],
            };
            let mut history = History::default();
            for _ in 0..rng.below(40) {
                let a = actions[rng.below(actions.len())];
                let bonus = rng.below(8000) as i32 - 4000;
                history.update(&ctx, a, bonus);
            }
            let pick = |rng: &mut Rng| match rng.below(3) {
                0 => None,
                _ => Some(actions[rng.below(actions.len())]),
            };
            let killers = [pick(&mut rng), pick(&mut rng)];
            let table = match rng.below(3) {
                0 => 0,
                1 => actions[rng.below(actions.len())].code(),
                _ => rng.next_u64() as u16,
            };
            let expected = reference_main::<P>(&actions, table, killers, &history, board, &ctx);
            let mut list = actions.clone();
            let mut buf = PickBuf::new();
            let picker = Picker::new(&mut list, &mut buf, table, killers);
            assert_eq!(
                drain::<P>(picker, board, &ctx, &history),
                expected,
                "{}",
                node.fen()
            );
            for all_moves in [false, true] {
                let expected = reference_quiescence(&actions, all_moves);
                let mut list = actions.clone();
                let mut buf = PickBuf::new();
                let picker = Picker::quiescence(&mut list, &mut buf, all_moves);
                assert_eq!(
                    drain::<P>(picker, board, &ctx, &history),
                    expected,
                    "{}",
                    node.fen()
                );
            }
            checked += 1;
        }
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn pick_keys_order_by_score_then_first_place() {
        let scores = [
            -90_000,
            -1,
            0,
            0,
            7,
            40_000,
            89_000,
            -KEY_SCORE_MAX,
            KEY_SCORE_MAX,
        ];
        for (a, &sa) in scores.iter().enumerate() {
            assert_eq!(key_place(pick_key(sa, a)), a);
            assert_eq!(key_place(pick_key(sa, MAX_ACTIONS - 1)), MAX_ACTIONS - 1);
            assert_eq!(moved_key(pick_key(sa, a), 300), pick_key(sa, 300));
            for (b, &sb) in scores.iter().enumerate() {
                let by_key = pick_key(sa, a).cmp(&pick_key(sb, b));
                let by_rule = sa.cmp(&sb).then(b.cmp(&a));
                assert_eq!(by_key, by_rule, "{sa}@{a} against {sb}@{b}");
            }
            assert!(pick_key(sa, a) > NOT_IN_STAGE);
        }
        assert_eq!(moved_key(NOT_IN_STAGE, 5), NOT_IN_STAGE);
    }

    #[test]
    fn stages_keep_the_order_of_one_scale_in_chess() {
        same_order_as_one_scale(
            Rules::<Chess>::new(Variant::Chess),
            &[
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
                "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            ],
            2,
        );
    }

    #[test]
    fn stages_keep_the_order_of_one_scale_in_extinction() {
        same_order_as_one_scale(
            Rules::<Extinction>::new(Variant::Extinction),
            &[
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                "4k3/1P6/2p5/3n4/8/8/6p1/3QK2R w K - 0 1",
                "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            ],
            2,
        );
    }

    /// A rook and king against a king and pawn, white to move: the node,
    /// its legal actions and a context without threats or previous moves.
    fn rook_and_king() -> (Node<Chess>, ActionList, Context) {
        let rules = Rules::<Chess>::new(Variant::Chess);
        let node = rules.from_fen("4k3/8/8/8/3p4/8/8/R3K3 w - - 0 1").unwrap();
        let mut actions = ActionList::new();
        rules.legal_actions(&node, &mut actions);
        let ctx = Context {
            turn: node.pos.turn(),
            threats: Threats::NONE,
            prev: [None; 2],
        };
        (node, actions, ctx)
    }

    #[test]
    fn quiet_moves_are_scored_by_the_history_when_their_stage_begins() {
        let (node, actions, ctx) = rook_and_king();
        let board = node.pos.board();
        let find = |uci: &str| *actions.iter().find(|a| a.to_string() == uci).unwrap();
        let (a1a2, e1e2) = (find("a1a2"), find("e1e2"));
        let mut history = History::default();
        history.update(&ctx, a1a2, 1000);
        let mut list = actions.clone();
        let mut buf = PickBuf::new();
        let mut picker = Picker::new(&mut list, &mut buf, e1e2.code(), [None; 2]);
        // The table move comes first; meanwhile the history changes.
        assert_eq!(picker.next::<Chess>(board, &history, &ctx), Some(e1e2));
        let king_move = find("e1d1");
        history.update(&ctx, king_move, 4000);
        assert_eq!(picker.next::<Chess>(board, &history, &ctx), Some(king_move));
        assert_eq!(picker.next::<Chess>(board, &history, &ctx), Some(a1a2));
    }

    #[test]
    fn the_picker_knows_which_actions_are_killers() {
        let (node, actions, ctx) = rook_and_king();
        let board = node.pos.board();
        let find = |uci: &str| *actions.iter().find(|a| a.to_string() == uci).unwrap();
        let (a1a4, e1d2) = (find("a1a4"), find("e1d2"));
        let history = History::default();
        // One killer is also the table's action.
        for table in [0, a1a4.code(), e1d2.code()] {
            let mut list = actions.clone();
            let mut buf = PickBuf::new();
            let mut picker = Picker::new(&mut list, &mut buf, table, [Some(a1a4), Some(e1d2)]);
            let mut killers = Vec::new();
            while let Some(a) = picker.next::<Chess>(board, &history, &ctx) {
                if picker.last_is_killer(a) {
                    killers.push(a);
                }
            }
            killers.sort_by_key(|a| a.code());
            let mut want = vec![a1a4, e1d2];
            want.sort_by_key(|a| a.code());
            assert_eq!(killers, want, "table {table}");
        }
    }

    #[test]
    fn quiet_moves_out_of_a_lesser_attack_gain() {
        let rules = Rules::<Chess>::new(Variant::Chess);
        // The e4 knight is attacked by the d5 pawn, the a1 queen by the a8
        // rook; the b2 knight is not attacked.
        let node = rules
            .from_fen("r3k3/8/8/3p4/4N3/8/1N6/Q3K3 w - - 0 1")
            .unwrap();
        let threats = Threats::of(node.pos.board(), Color::Black);
        let mut actions = ActionList::new();
        rules.legal_actions(&node, &mut actions);
        let bonus = |uci: &str| {
            let a = *actions.iter().find(|a| a.to_string() == uci).unwrap();
            escape_bonus(&threats, a)
        };
        assert_eq!(bonus("e4c3"), ESCAPE_BONUS[0]);
        assert_eq!(bonus("e4f6"), ESCAPE_BONUS[0]);
        assert_eq!(bonus("b2c4"), 0);
        assert_eq!(bonus("b2d3"), 0);
        assert_eq!(bonus("a1b1"), ESCAPE_BONUS[2]);
        // Along the file the queen stays in the rook's attack.
        assert_eq!(bonus("a1a2"), 0);
        assert_eq!(bonus("e1f1"), 0);
    }

    #[test]
    fn mvv_lva_takes_the_most_valuable_victim_with_the_least_valuable_attacker() {
        let rules = Rules::<Chess>::new(Variant::Chess);
        let node = rules
            .from_fen("4k3/8/8/3q4/2P3r1/4N3/8/4K3 w - - 0 1")
            .unwrap();
        let mut actions = ActionList::new();
        rules.legal_actions(&node, &mut actions);
        let mut buf = PickBuf::new();
        let mut picker = Picker::quiescence(&mut actions, &mut buf, false);
        let order: Vec<String> = std::iter::from_fn(|| {
            let ctx = Context {
                turn: node.pos.turn(),
                threats: Threats::NONE,
                prev: [None; 2],
            };
            picker.next::<Chess>(node.pos.board(), &History::default(), &ctx)
        })
        .map(|a| a.to_string())
        .collect();
        assert_eq!(order, ["c4d5", "e3d5", "e3g4"].map(String::from));
    }
}
