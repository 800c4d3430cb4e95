//! One search thread: iterative deepening, aspiration windows, principal
//! variation search, quiescence, pruning and reductions, and the endgame
//! tables' WDL probes. The order of a node's actions is the picker's
//! (`picker.rs`); whether to start another iteration is the time manager's
//! (`time.rs`); which root actions are searched where the tables hold the
//! root is the tables' ranking (`tablebase.rs`).

use std::sync::atomic::Ordering;
use std::time::Duration;

use super::history::{Context, Correction, History, Slots, Threats, piece_to};
use super::limits::Budget;
use super::memory::Learnt;
use super::params::*;
use super::picker::{PickBuf, Picker};
use super::see::{exchange_ok, see_ge, see_value, takes_last};
use super::tablebase::Ranking;
use super::time::{Iteration, TimeManager};
use super::tt::{Bound, NO_EVAL, TtHit};
use super::value::{self, INFINITE, decided, from_tt, is_decided, is_proven, to_tt};
use super::{PvLine, Reporter, Scoring, SearchJob, Shared, Stats, ThreadResult};
use crate::eval::Evaluate;
use crate::rules::{
    Action, ActionList, CheckSquares, Disk, Ending, HistoryEntry, Node, Pos, code_parts,
};
use crate::scoring::{Memo, margin};
use crate::syzygy::{Wdl, chess_of};
use shakmaty::{Move, Position, Role};

#[derive(Clone, Debug)]
struct RootMove {
    action: Action,
    value: i32,
    prev_value: i32,
    pv: Vec<Action>,
    seldepth: i32,
    bound: Option<Bound>,
    /// Nodes searched below this action since the search began.
    nodes: u64,
    /// Where the units are coarser than a point ([`crate::eval::Units::coarse`]), the
    /// action's own award to its mover in thousandths of a point, else 0:
    /// of two lines of equal value the one that earns more ranks first.
    tie: i64,
    /// The value the endgame tables give the action at the root, shown
    /// in place of the search's while that proves no checkmate.
    shown: Option<i32>,
}

struct Frame<P, T> {
    node: Node<P>,
    /// The evaluator's state of the node (a net's accumulators).
    state: T,
    memo: Memo,
    /// The action that led here (`None` at the root and after a null move).
    action: Option<Action>,
    /// That action's piece-to key for the continuation history.
    piece_to: Option<u16>,
    eval: i32,
    killers: [Option<Action>; 2],
    /// The action a singular-extension search of this node leaves out.
    excluded: Option<Action>,
    /// The squares the opponent attacks, for the history; set once the
    /// node's actions are searched (the root's when the worker starts).
    threats: Threats,
    /// Double singular extensions on the line to this node.
    doubles: i32,
    /// The node's entries in the correction tables, found (and asked into
    /// the cache) when the node is made.
    slots: Slots,
}

/// Whether `m` gives check in `pos`, by its check squares, found the
/// first time they are asked for.
#[inline]
fn gives_check_by<P: Pos>(pos: &P, squares: &mut Option<CheckSquares>, m: Move) -> bool {
    pos.gives_check_by(squares.get_or_insert_with(|| pos.check_squares()), m)
}

/// Late-move reduction by depth and move number.
fn lmr_table() -> Vec<[i32; 64]> {
    let (base, divisor) = (tuned!(LMR_BASE), tuned!(LMR_DIVISOR));
    (0..64)
        .map(|d| {
            let mut row = [0; 64];
            for (m, r) in row.iter_mut().enumerate() {
                if d > 0 && m > 0 {
                    *r = (base + (d as f64).ln() * (m as f64).ln() / divisor) as i32;
                }
            }
            row
        })
        .collect()
}

pub(super) struct Worker<'a, P: Pos, S: Scoring, E: Evaluate<P>> {
    job: &'a SearchJob<P, S, E>,
    shared: &'a Shared,
    reporter: &'a dyn Reporter,
    id: usize,
    /// The main thread's time keeping; `None` in a helper.
    time: Option<TimeManager>,
    stack: Vec<Frame<P, E::State>>,
    /// The evaluator's cache of this thread ([`Evaluate::cache`]).
    cache: E::Cache,
    /// The keys of the game's positions and of the line searched so far
    /// (repetitions, the fifty-move rule).
    line_keys: Vec<HistoryEntry>,
    pv: Vec<Vec<Action>>,
    /// The move-ordering tables (quiet, capture and continuation history).
    ordering: History,
    correction: Correction,
    lmr: Vec<[i32; 64]>,
    nodes: u64,
    seldepth: i32,
    root_moves: Vec<RootMove>,
    stopped: bool,
    band: bool,
    awards: bool,
    quiet_margin: i32,
    root_depth: i32,
    memo_key: bool,
    /// Positions found in the endgame tables.
    tbhits: u64,
    /// The most pieces of a position the search probes the tables for (0:
    /// it does not probe).
    tb_limit: usize,
}

/// `action`'s own award at the root to its mover, in thousandths of a
/// point.
fn root_award<P: Pos, S: Scoring, E: Evaluate<P>>(job: &SearchJob<P, S, E>, action: Action) -> i64 {
    let child = job.rules.play(&job.root, action);
    let (award, _) = job
        .scorer
        .action_award(&job.root_memo, &job.root, action, &child);
    margin(&award, job.root.pos.turn()).milli()
}

impl<'a, P: Pos, S: Scoring, E: Evaluate<P>> Worker<'a, P, S, E> {
    pub(super) fn new(
        job: &'a SearchJob<P, S, E>,
        shared: &'a Shared,
        id: usize,
        reporter: &'a dyn Reporter,
        budget: Option<Budget>,
        learnt: Learnt,
        ranking: Option<&Ranking>,
    ) -> Self {
        let root_state = job.evaluator.root_state(&job.root);
        let stack = (0..MAX_PLY + 2)
            .map(|_| Frame {
                node: job.root.clone(),
                state: root_state.clone(),
                memo: job.root_memo,
                action: None,
                piece_to: None,
                eval: 0,
                killers: [None; 2],
                excluded: None,
                threats: Threats::of(job.root.pos.board(), !job.root.pos.turn()),
                doubles: 0,
                slots: Correction::indices(job.root.pos.turn(), job.root.pos.board()),
            })
            .collect();
        let coarse = job.units.coarse() && job.scorer.has_action_awards();
        // The tables' ranking keeps the actions that hold their result.
        let root_actions: Vec<(Action, Option<i32>)> = match ranking {
            Some(r) => r.kept.iter().map(|&(a, v)| (a, Some(v))).collect(),
            None => job.root_actions.iter().map(|&a| (a, None)).collect(),
        };
        let root_count = root_actions.len();
        let root_moves = root_actions
            .into_iter()
            .map(|(action, shown)| RootMove {
                action,
                value: -INFINITE,
                prev_value: -INFINITE,
                pv: vec![action],
                seldepth: 0,
                bound: None,
                nodes: 0,
                tie: if coarse { root_award(job, action) } else { 0 },
                shown,
            })
            .collect();
        let tb_limit = match (&job.tablebases, ranking) {
            (Some(p), None) => p.limit,
            (Some(p), Some(r)) if r.probe_in_search => p.limit,
            _ => 0,
        };
        // The root's probes count once, as the main thread's.
        let tbhits = ranking.filter(|_| id == 0).map_or(0, |r| r.probes);
        Worker {
            job,
            shared,
            reporter,
            id,
            time: budget.map(|b| TimeManager::new(b, root_count)),
            stack,
            cache: job.evaluator.cache(),
            line_keys: job.history.clone(),
            pv: vec![Vec::new(); MAX_PLY + 2],
            ordering: learnt.ordering,
            correction: learnt.correction,
            lmr: lmr_table(),
            nodes: 0,
            seldepth: 0,
            root_moves,
            stopped: false,
            band: job.scorer.decisive_band(),
            awards: job.scorer.has_action_awards(),
            quiet_margin: job.units.from_points(job.scorer.quiet_award_bound()),
            root_depth: 1,
            memo_key: job.scorer.memo_in_key(),
            tbhits,
            tb_limit,
        }
    }

    /// The tables this thread learnt, for its next search.
    pub(super) fn into_learnt(self) -> Learnt {
        Learnt {
            ordering: self.ordering,
            correction: self.correction,
        }
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    /// Iterative deepening to the limits; returns this thread's result.
    pub(super) fn iterate(&mut self) -> ThreadResult {
        let limits = &self.job.limits;
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let multipv = self.job.multipv.clamp(1, self.root_moves.len());
        let mut completed: Vec<PvLine> = Vec::new();
        let mut completed_depth = 0;
        for depth in 1..=max_depth {
            // Helper threads skip some depths so the threads spread out.
            if self.id > 0
                && depth > SMP_SKIP_FROM
                && (depth + self.id as i32) % SMP_SKIP_CYCLE == 0
            {
                continue;
            }
            self.root_depth = depth;
            for rm in &mut self.root_moves {
                rm.prev_value = rm.value;
            }
            for pv_idx in 0..multipv {
                self.seldepth = 0;
                self.search_pv_index(depth, pv_idx);
                if self.stopped {
                    break;
                }
                // Sort the searched part: best first; among several lines,
                // of equal values the larger own award where the units
                // round awards (one line ranks by value alone: its other
                // actions have no exact values to tie).
                let ties = multipv > 1;
                let rank =
                    |rm: &RootMove| std::cmp::Reverse((rm.value, if ties { rm.tie } else { 0 }));
                self.root_moves[pv_idx..].sort_by_key(rank);
                // A line can come out above the lines before it: its move
                // was only proven below them by a null-window search, which
                // prunes more than this line's full window. The lines so far
                // are ranked again, so that line 1 is the best.
                self.root_moves[..=pv_idx].sort_by_key(rank);
            }
            if self.stopped {
                break;
            }
            completed_depth = depth;
            completed = self.lines(depth, multipv);
            if self.is_main() {
                let stats = self.stats();
                for l in &completed {
                    self.reporter.line(l, &stats);
                }
                let best = &self.root_moves[0];
                let done = Iteration {
                    depth,
                    best: best.action,
                    value: best.value,
                    prev_value: best.prev_value,
                    best_share: best.nodes as f64 / self.nodes.max(1) as f64,
                };
                let elapsed = self.shared.elapsed();
                if self
                    .time
                    .as_mut()
                    .is_some_and(|t| t.stop_after(&done, &self.job.limits, self.shared, elapsed))
                {
                    break;
                }
            } else if self.shared.stop.load(Ordering::Relaxed) {
                break;
            }
        }
        if self.is_main() {
            self.wait_while_infinite();
        }
        if completed.is_empty() {
            // Not even depth 1 completed (a helper thread, or a position
            // the main thread found over): the first ordered action.
            completed = self.lines(0, 1);
        }
        self.publish_nodes();
        ThreadResult {
            lines: completed,
            depth: completed_depth,
        }
    }

    fn lines(&self, depth: i32, multipv: usize) -> Vec<PvLine> {
        self.root_moves
            .iter()
            .take(multipv)
            .enumerate()
            .map(|(i, rm)| PvLine {
                multipv: i + 1,
                depth,
                seldepth: rm.seldepth.max(depth),
                // A line not searched yet keeps its last value; one never
                // searched (depth 1 cut short) has none: 0, not the lost
                // bound that would read as being mated. The tables' value
                // of the action stands until the search proves a mate.
                value: match (rm.value, rm.prev_value, rm.shown) {
                    (v, _, _) if v != -INFINITE && is_proven(v) => v,
                    (_, _, Some(shown)) => shown,
                    (v, _, _) if v != -INFINITE => v,
                    (_, p, _) if p != -INFINITE => p,
                    _ => 0,
                },
                bound: rm.bound,
                pv: rm.pv.clone(),
            })
            .collect()
    }

    fn stats(&self) -> Stats {
        self.publish_nodes();
        Stats {
            nodes: self.shared.nodes(),
            time: self.shared.elapsed(),
            hashfull: self.shared.tt.hashfull(),
            tbhits: self.shared.tbhits(),
        }
    }

    fn publish_nodes(&self) {
        if let Some(n) = self.shared.nodes.get(self.id) {
            n.store(self.nodes, Ordering::Relaxed);
        }
        if let Some(n) = self.shared.tbhits.get(self.id) {
            n.store(self.tbhits, Ordering::Relaxed);
        }
    }

    fn wait_while_infinite(&mut self) {
        while (self.job.limits.infinite || self.shared.pondering.load(Ordering::Relaxed))
            && !self.shared.stop.load(Ordering::Relaxed)
        {
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// Checks at every node: the stop flag; periodically, the published
    /// node count, a helper's turn, and for the main thread the caller's
    /// stop flag, the clock and the node limit.
    #[inline]
    fn check_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        // At every node (one load of a flag that stays in the cache), so
        // that every thread ends within a node of the stop, not a slice.
        if self.shared.stop.load(Ordering::Relaxed) {
            return self.halt();
        }
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            self.publish_nodes();
            // A helper's slice ends: it hands its turn on if another waits.
            if !self.is_main() && !self.shared.turns.pass() {
                self.stopped = true;
                return true;
            }
            if self.is_main() && self.shared.stopped_outside() {
                return self.halt();
            }
            if self.is_main() {
                let pondering = self.shared.pondering.load(Ordering::Relaxed);
                if !pondering
                    && !self.job.limits.infinite
                    && self
                        .time
                        .as_ref()
                        .and_then(TimeManager::hard)
                        .is_some_and(|h| self.shared.elapsed() >= h)
                {
                    return self.halt();
                }
            }
        }
        if self.is_main()
            && let Some(limit) = self.job.limits.nodes
            && !self.job.limits.infinite
            && self.nodes >= limit
        {
            return self.halt();
        }
        false
    }

    /// The search is to stop (a stop, the clock, the node limit): every
    /// thread is told, and this one stops, except the main thread before
    /// its first depth is complete: a move is always one searched to
    /// depth 1 (a few hundred nodes), never the first one generated.
    fn halt(&mut self) -> bool {
        if !self.shared.stop.load(Ordering::Relaxed) {
            self.shared.stop();
        }
        if self.is_main() && self.root_depth <= 1 {
            return false;
        }
        self.stopped = true;
        true
    }

    /// Searches root line `pv_idx` at `depth` with aspiration windows.
    fn search_pv_index(&mut self, depth: i32, pv_idx: usize) {
        let prev = self.root_moves[pv_idx].prev_value;
        let mut delta = tuned!(ASPIRATION);
        let (mut alpha, mut beta) =
            if depth >= ASPIRATION_DEPTH && prev > -INFINITE && !is_decided(prev) {
                (prev - delta, prev + delta)
            } else {
                (-INFINITE, INFINITE)
            };
        // After a fail-high the root is searched shallower: the move
        // that beat the window is usually confirmed there, and sooner.
        let mut fails_high = 0;
        loop {
            let v = self.search_root((depth - fails_high).max(1), alpha, beta, pv_idx);
            if self.stopped {
                return;
            }
            if v <= alpha {
                fails_high = 0;
                beta = (alpha + beta) / 2;
                alpha = (v - delta).max(-INFINITE);
                self.root_moves[pv_idx].bound = Some(Bound::Upper);
                self.report_bound(depth, pv_idx);
            } else if v >= beta {
                fails_high = (fails_high + 1).min(ASPIRATION_FAIL_HIGH_MAX);
                beta = (v + delta).min(INFINITE);
                self.root_moves[pv_idx].bound = Some(Bound::Lower);
                self.report_bound(depth, pv_idx);
            } else {
                self.root_moves[pv_idx].bound = None;
                return;
            }
            delta += delta / ASPIRATION_GROWTH_DIV + ASPIRATION_GROWTH_ADD;
            if delta > ASPIRATION_MAX {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }

    /// Reports a line whose window failed. Only with one line: among
    /// several, a bound would stand beside exact values it may not rank
    /// with; they are reported together, ranked, once the depth is done.
    fn report_bound(&self, depth: i32, pv_idx: usize) {
        let rm = &self.root_moves[pv_idx];
        // Where the tables' value is shown, the search's bound is not one
        // of it (until a mate).
        let tables_shown = rm.shown.is_some() && !is_proven(rm.value);
        if self.is_main()
            && !tables_shown
            && self.job.multipv.min(self.root_moves.len()) <= 1
            && self.shared.elapsed() > REPORT_BOUND_AFTER
        {
            let line = PvLine {
                multipv: pv_idx + 1,
                depth,
                seldepth: self.seldepth,
                value: rm.value,
                bound: rm.bound,
                pv: rm.pv.clone(),
            };
            self.reporter.line(&line, &self.stats());
        }
    }

    /// The root: searches the moves from `pv_idx` on (earlier lines are
    /// excluded), in the order of the last iteration.
    fn search_root(&mut self, depth: i32, mut alpha: i32, beta: i32, pv_idx: usize) -> i32 {
        let mut best = -INFINITE;
        let n = self.root_moves.len();
        for i in pv_idx..n {
            let action = self.root_moves[i].action;
            if i > pv_idx && action == Action::Disk && depth < DISK_MIN_DEPTH {
                self.root_moves[i].value = -INFINITE;
                continue;
            }
            let nodes_before = self.nodes;
            let m = self.make(0, action);
            let child = &self.stack[1].node;
            let ext = i32::from(child.check);
            let new_depth = depth - 1 + ext;
            let v = if i == pv_idx {
                m - self.search::<true>(new_depth, m - beta, m - alpha, 1, false)
            } else {
                let mut v = m - self.search::<false>(new_depth, m - alpha - 1, m - alpha, 1, true);
                // A root move that beats alpha is searched again with the
                // full window, so its value and line are exact.
                if v > alpha && !self.stopped {
                    v = m - self.search::<true>(new_depth, m - beta, m - alpha, 1, false);
                }
                v
            };
            self.unmake();
            self.root_moves[i].nodes += self.nodes - nodes_before;
            if self.stopped {
                return best;
            }
            let rm = &mut self.root_moves[i];
            if i == pv_idx || v > alpha {
                rm.value = v;
                rm.seldepth = self.seldepth;
                let mut pv = vec![action];
                pv.extend_from_slice(&self.pv[1]);
                rm.pv = pv;
            } else {
                rm.value = -INFINITE;
            }
            if v > best {
                best = v;
            }
            if v > alpha {
                alpha = v;
                if v >= beta {
                    break;
                }
            }
        }
        best
    }

    /// Plays `action` from the node at `ply` into `ply + 1`; returns the
    /// award margin for the mover in internal units and the award's memo.
    #[inline]
    fn make(&mut self, ply: usize, action: Action) -> i32 {
        let rules = self.job.rules;
        let (parent, child) = self.stack.split_at_mut(ply + 1);
        let from = &parent[ply];
        let to = &mut child[0];
        rules.play_into(&from.node, action, &mut to.node);
        if !self.memo_key {
            // The key is the board's alone: ask for the table's bucket now,
            // so that memory answers while the net's accumulator is updated.
            self.shared.tt.prefetch(to.node.search_key());
        }
        to.slots = Correction::indices(to.node.pos.turn(), to.node.pos.board());
        self.correction.prefetch(to.slots);
        self.job.evaluator.child_state(
            &mut self.cache,
            &from.node,
            &from.state,
            &to.node,
            &mut to.state,
        );
        to.action = Some(action);
        to.piece_to = piece_to(from.node.pos.turn(), action);
        to.doubles = from.doubles;
        let m = if self.awards {
            let (award, memo) = self
                .job
                .scorer
                .action_award(&from.memo, &from.node, action, &to.node);
            to.memo = memo;
            self.job
                .units
                .from_points(margin(&award, from.node.pos.turn()))
        } else {
            to.memo = from.memo;
            0
        };
        self.line_keys
            .push(HistoryEntry::of(&to.node, Some(action)));
        if self.memo_key {
            self.shared.tt.prefetch(self.key(ply + 1));
        }
        m
    }

    #[inline]
    fn unmake(&mut self) {
        self.line_keys.pop();
    }

    /// The search key of the node at `ply`.
    #[inline]
    fn key(&self, ply: usize) -> u64 {
        let f = &self.stack[ply];
        let k = f.node.search_key();
        if self.memo_key {
            k ^ f.memo.chain_key()
        } else {
            k
        }
    }

    /// The value of an ending reached at `ply`, for its side to move.
    fn end_value(&self, ply: usize, ending: &Ending) -> i32 {
        let f = &self.stack[ply];
        let last = match (ply, f.action) {
            (p, Some(a)) if p > 0 => Some((&self.stack[p - 1].node, a)),
            _ => None,
        };
        let award = self
            .job
            .scorer
            .end_award(&f.memo, last, &f.node, ending)
            .total();
        let stm = f.node.pos.turn();
        let mut m = self.job.units.from_points(margin(&award, stm));
        if let Ending::Repetition(r) = ending
            && r.projected
            && ending.is_perpetual_check()
        {
            // A perpetual check projected from a cycle the search repeated
            // once: the defender may leave it beyond the horizon.
            m = self.job.evaluator.projected_perpetual(m);
        }
        if self.band && ending.is_decisive_on_board() {
            decided(ending.winner() == Some(stm), ply, m)
        } else {
            self.job.units.value_of(m)
        }
    }

    fn static_eval(&self, ply: usize) -> i32 {
        let f = &self.stack[ply];
        self.job.evaluator.evaluate_with(&f.node, &f.memo, &f.state)
    }

    /// The static estimate of the node at `ply`: the table's when it
    /// stored one, else the evaluator's.
    fn node_eval(&self, ply: usize, tt: Option<TtHit>) -> i32 {
        match tt.map(|hit| i32::from(hit.eval)) {
            Some(e) if e != NO_EVAL => e,
            _ => self.static_eval(ply),
        }
    }

    /// `raw`, a static evaluation of the node at `ply`, corrected by what
    /// searches learnt of its side to move and pawn structure.
    #[inline]
    fn corrected(&self, ply: usize, raw: i32) -> i32 {
        self.correct(self.stack[ply].slots, raw)
    }

    /// `raw` corrected by the correction tables' entries at `slots`.
    #[inline]
    fn correct(&self, slots: Slots, raw: i32) -> i32 {
        let c = self.correction.get(slots);
        (raw + c).clamp(-value::DECIDED + 1, value::DECIDED - 1)
    }

    /// Null-move pruning, not in pawn endings (zugzwang) nor right after
    /// another null move (no action led here): the opponent moves twice,
    /// and if a reduced search still fails high, so does the node. Returns
    /// the node's value then. The further the static `eval` is above
    /// `beta`, the more the null move's search is reduced.
    fn null_move(
        &mut self,
        depth: i32,
        beta: i32,
        eval: i32,
        ply: usize,
        cut: bool,
    ) -> Option<i32> {
        let frame = &self.stack[ply];
        let node = &frame.node;
        let non_pawn = node.pos.us() & !node.pos.board().pawns() & !node.pos.board().kings();
        if !non_pawn.any() || frame.action.is_none() {
            return None;
        }
        let null = self.job.rules.play_null(node)?;
        let r = NULL_BASE
            + depth / NULL_DIV
            + ((eval - beta) / tuned!(NULL_EVAL_DIV)).min(NULL_EVAL_MAX);
        let (memo, doubles) = (frame.memo, frame.doubles);
        let next = &mut self.stack[ply + 1];
        next.node = null;
        next.slots = Correction::indices(next.node.pos.turn(), next.node.pos.board());
        self.correction.prefetch(next.slots);
        next.memo = memo;
        next.doubles = doubles;
        next.action = None;
        next.piece_to = None;
        self.line_keys.push(HistoryEntry {
            key: next.node.key,
            check: false,
            zeroing: true,
        });
        self.shared.tt.prefetch(self.key(ply + 1));
        let (parent, child) = self.stack.split_at_mut(ply + 1);
        self.job.evaluator.child_state(
            &mut self.cache,
            &parent[ply].node,
            &parent[ply].state,
            &child[0].node,
            &mut child[0].state,
        );
        let v = -self.search::<false>(depth - r, -beta, -beta + 1, ply + 1, !cut);
        self.line_keys.pop();
        if self.stopped {
            return Some(0);
        }
        (v >= beta).then_some(if is_decided(v) { beta } else { v })
    }

    /// The late-move table's reduction at `depth` after `searched` moves,
    /// one ply less in PV nodes: what every late move starts from.
    #[inline]
    fn table_reduction<const PV: bool>(&self, depth: i32, searched: usize) -> i32 {
        self.lmr[depth.min(63) as usize][searched.min(63)] - i32::from(PV)
    }

    /// The late-move reduction of quiet `action` at `ply` and `depth`
    /// after `searched` others (before clamping to the depth left).
    fn reduction<const PV: bool>(
        &self,
        ply: usize,
        depth: i32,
        searched: usize,
        is_killer: bool,
        improving: bool,
        action: Action,
    ) -> i32 {
        let mut r = self.table_reduction::<PV>(depth, searched);
        r -= i32::from(is_killer);
        r += i32::from(!improving);
        r -= self.ordering.quiet(&self.context(ply), action) / tuned!(LMR_HISTORY_DIV);
        r
    }

    /// A quiet move cut the node at `ply` off: it becomes the first killer,
    /// and the history rewards it and punishes the quiet moves `tried`
    /// before it.
    fn reward_quiet_cutoff(&mut self, ply: usize, action: Action, depth: i32, tried: &[Action]) {
        let ctx = self.context(ply);
        let f = &mut self.stack[ply];
        if f.killers[0] != Some(action) {
            f.killers[1] = f.killers[0];
            f.killers[0] = Some(action);
        }
        let bonus = history_bonus(depth);
        self.ordering.update_quiet(&ctx, action, bonus);
        for &q in tried {
            self.ordering.update_quiet(&ctx, q, -bonus);
        }
    }

    /// An action cut the node at `ply` off: the capture history rewards
    /// it if it is a capture, and punishes the captures `tried` before it.
    fn reward_capture_cutoff(&mut self, ply: usize, action: Action, depth: i32, tried: &[Action]) {
        let turn = self.stack[ply].node.pos.turn();
        let bonus = history_bonus(depth);
        if let Action::Move(m) = action
            && m.is_capture()
        {
            self.ordering.update_capture(turn, m, bonus);
        }
        for &c in tried {
            if let Action::Move(m) = c {
                self.ordering.update_capture(turn, m, -bonus);
            }
        }
    }

    /// Sets the squares the opponent attacks at `ply`, for its history
    /// context.
    #[inline]
    fn set_threats(&mut self, ply: usize) {
        let pos = &self.stack[ply].node.pos;
        self.stack[ply].threats = Threats::of(pos.board(), !pos.turn());
    }

    /// The history context of the node at `ply`: its side to move, the
    /// squares the opponent attacks and the two moves before it.
    #[inline]
    fn context(&self, ply: usize) -> Context {
        Context {
            turn: self.stack[ply].node.pos.turn(),
            threats: self.stack[ply].threats,
            prev: [
                self.stack[ply].piece_to,
                ply.checked_sub(1).and_then(|p| self.stack[p].piece_to),
            ],
        }
    }

    /// Principal variation search. `cut`: the node is expected to fail
    /// high (a late move's reply, a null move's, and alternately down the
    /// first moves from there); never in a PV node.
    fn search<const PV: bool>(
        &mut self,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        cut: bool,
    ) -> i32 {
        if depth <= 0 || ply >= MAX_PLY {
            return self.quiescence(alpha, beta, ply, 0);
        }
        self.nodes += 1;
        self.pv[ply].clear();
        if self.check_stop() {
            return 0;
        }
        if ply as i32 > self.seldepth {
            self.seldepth = ply as i32;
        }
        // Killers belong to a ply and are shared by its sibling nodes; the
        // grandchildren's are this node's own business.
        self.stack[ply + 2].killers = [None; 2];
        let rules = self.job.rules;
        // An extinction threat (a last piece attacked) is not check: the
        // node keeps its static evaluation and most pruning, with wider
        // margins, and the evaluation carries the danger.
        let in_check = self.stack[ply].node.check;
        let threat = P::KINGS_CAPTURABLE && !in_check && self.stack[ply].node.pos.threatened();

        // Endings that need the history come first (the table knows
        // nothing of them); position endings (mate, stalemate...) take
        // precedence over them, as in `Rules::ending`. A position that
        // repeats one of the search's own counts as the repetition (plain
        // or perpetual) it would become.
        let node = &self.stack[ply].node;
        if let Some(ending) =
            rules.history_ending_after(node, &self.line_keys, self.job.history.len())
        {
            let ending = rules.position_ending_full(node).unwrap_or(ending);
            return self.end_value(ply, &ending);
        }

        // Mate-distance pruning in the decisive band.
        if self.band {
            let worst = -(value::MATE - ply as i32 * value::MATE_STEP) - value::MATE_STEP / 2;
            let best = value::MATE - (ply as i32 + 1) * value::MATE_STEP + value::MATE_STEP / 2;
            alpha = alpha.max(worst);
            beta = beta.min(best);
            if alpha >= beta {
                return alpha;
            }
        }

        // A singular-extension search of this node: every action but one,
        // at reduced depth; its result is not the node's and is not kept.
        let excluded = self.stack[ply].excluded;
        let key = self.key(ply);
        let tt = self.shared.tt.probe(key);
        let mut tt_action = 0u16;
        let mut tt_value = 0;
        if let Some(hit) = tt {
            tt_action = hit.action;
            tt_value = from_tt(hit.value, ply);
            if !PV
                && excluded.is_none()
                && hit.depth >= depth
                && hit.bound.cuts(tt_value, alpha, beta)
            {
                // A quiet table action that cuts the node is rewarded as
                // if it had been searched to the cut-off.
                if tt_value >= beta
                    && let Some(a) = quiet_of_code(&self.stack[ply].node.pos, tt_action)
                {
                    self.set_threats(ply);
                    let ctx = self.context(ply);
                    self.ordering.update_quiet(&ctx, a, history_bonus(depth));
                }
                return tt_value;
            }
        }

        // The endgame tables, after a capture or pawn move: a result that
        // settles the window ends the node (and goes to the table); in a
        // PV node one that does not bounds its value.
        let mut tb_floor = -INFINITE;
        let mut tb_ceiling = INFINITE;
        if self.tb_limit > 0
            && ply > 0
            && excluded.is_none()
            && let Some((v, bound)) = self.probe_tablebase(ply, depth)
        {
            if bound.cuts(v, alpha, beta) {
                self.shared.tt.store(
                    key,
                    0,
                    to_tt(v, ply),
                    NO_EVAL,
                    (depth + TB_STORE_EXTRA_DEPTH).min(MAX_DEPTH),
                    bound,
                );
                return v;
            }
            if PV {
                if bound == Bound::Lower {
                    tb_floor = v;
                    alpha = alpha.max(v);
                } else {
                    tb_ceiling = v;
                }
            }
        }

        // Position endings (mate, stalemate, extinction...) are never
        // stored, so a table hit above was not one. The actions are
        // generated after the pruning below, which often ends the node,
        // unless only they can tell whether it has a move (stalemate).
        let mut actions = ActionList::new();
        let node = &self.stack[ply].node;
        let generated = !rules.surely_has_move(node);
        let ending = if generated {
            rules.generate(node, &mut actions)
        } else {
            rules.position_ending(node, true)
        };
        if let Some(ending) = ending {
            return self.end_value(ply, &ending);
        }

        let raw_eval = if in_check {
            NO_EVAL
        } else {
            self.node_eval(ply, tt)
        };
        // The correction tables' entries of this node: read now, updated
        // once it is searched.
        let slots = self.stack[ply].slots;
        let eval = if in_check {
            -INFINITE
        } else {
            self.correct(slots, raw_eval)
        };
        self.stack[ply].eval = eval;
        let improving = ply >= 2 && !in_check && eval > self.stack[ply - 2].eval;

        let node = &self.stack[ply].node;
        let compulsory = rules.variant().has_disk() && node.extra.disk.compulsory();
        let risky = compulsory
            || node.extra.bare.pending()
            || matches!(node.extra.disk, Disk::Offered { .. });
        if !PV && !in_check && !is_decided(beta) && !risky && excluded.is_none() {
            // Reverse futility pruning.
            let rfp_margin = tuned!(RFP_MARGIN) * (depth - i32::from(improving))
                + if threat { RFP_THREAT_MARGIN } else { 0 };
            if depth <= RFP_DEPTH && eval - rfp_margin >= beta {
                // Half way back to beta: the static eval is trusted only
                // that far (it measured +9.5 Elo over returning `eval`).
                return (eval + beta) / 2;
            }
            // Razoring: far below alpha at shallow depth, only captures can
            // save the node; if quiescence agrees, it fails low. Not in
            // extinction, where it did not pay (a last piece lost to a
            // quiet move is beyond quiescence), nor where actions earn
            // points (quiescence prunes captures by material alone).
            if depth <= RAZOR_DEPTH
                && !P::KINGS_CAPTURABLE
                && !self.awards
                && eval
                    + self.quiet_margin
                    + tuned!(RAZOR_BASE)
                    + tuned!(RAZOR_PER_PLY_SQ) * depth * depth
                    <= alpha
            {
                let v = self.quiescence(alpha - 1, alpha, ply, 0);
                if self.stopped {
                    return 0;
                }
                if v < alpha {
                    return v;
                }
            }
            // Under a threat the opponent would take the piece.
            if depth >= NULL_MIN_DEPTH
                && !threat
                && eval >= beta
                && let Some(v) = self.null_move(depth, beta, eval, ply, cut)
            {
                return v;
            }
        }

        if !generated && let Some(ending) = rules.generate(&self.stack[ply].node, &mut actions) {
            // Not reached: the node was known to have a move.
            return self.end_value(ply, &ending);
        }

        // Internal iterative reduction: without a table move this node was
        // never searched well; search it shallower first.
        let depth = if depth >= IIR_DEPTH && tt_action == 0 {
            depth - 1
        } else {
            depth
        };

        // Whether the table's action is to be tested for a singular
        // extension (below): its entry is a lower bound searched deep
        // enough, of a value not decided.
        let singular_test = tt.is_some_and(|hit| {
            depth >= SE_DEPTH
                && excluded.is_none()
                && hit.depth >= depth - SE_TT_DEPTH
                && hit.bound != Bound::Upper
                && !is_decided(tt_value)
                && (ply as i32) < CHECK_EXTENSION_PLIES * self.root_depth
        });

        let turn = self.stack[ply].node.pos.turn();
        let killers = self.stack[ply].killers;
        let mut buf = PickBuf::new();
        let mut picker = Picker::new(&mut actions, &mut buf, tt_action, killers);
        self.set_threats(ply);
        let ctx = self.context(ply);

        let original_alpha = alpha;
        let mut best = tb_floor;
        let mut best_action: Option<Action> = None;
        let mut searched = 0usize;
        let mut quiets_tried = ActionList::new();
        let mut captures_tried = ActionList::new();
        // Found when pruning first asks whether a quiet move checks.
        let mut check_squares: Option<CheckSquares> = None;
        while let Some(action) =
            picker.next::<P>(self.stack[ply].node.pos.board(), &self.ordering, &ctx)
        {
            // A disk changes the rest of the game; a shallow search only
            // sees the compulsory captures it forces, not their price.
            if action == Action::Disk && depth < DISK_MIN_DEPTH {
                continue;
            }
            if Some(action) == excluded {
                continue;
            }
            let quiet = is_quiet(action);
            let is_killer = picker.last_is_killer(action);

            // Captures that lose material by exchange, at shallow depth.
            if !PV
                && !in_check
                && !quiet
                && !self.awards
                && best > -value::DECIDED
                && depth <= SEE_PRUNE_DEPTH
                && let Action::Move(m) = action
                && m.is_capture()
                && !exchange_ok::<P>(
                    self.stack[ply].node.pos.board(),
                    turn,
                    m,
                    -tuned!(SEE_CAPTURE_MARGIN) * depth,
                )
            {
                continue;
            }
            // Shallow-depth pruning of late quiet moves that do not check.
            if !PV && !in_check && quiet && best > -value::DECIDED && !risky {
                let lmp = (LMP_BASE + (depth * depth) as usize)
                    / if improving { 1 } else { LMP_NOT_IMPROVING_DIV };
                let late = depth <= LMP_DEPTH && searched >= lmp;
                let futile = depth <= FUTILITY_DEPTH
                    && !is_killer
                    && !threat
                    && eval
                        + self.quiet_margin
                        + tuned!(FUTILITY_BASE)
                        + tuned!(FUTILITY_PER_PLY) * depth
                        <= alpha;
                if (late || futile)
                    && let Action::Move(m) = action
                    && !gives_check_by(&self.stack[ply].node.pos, &mut check_squares, m)
                {
                    continue;
                }
                // Quiet moves that leave the moved piece to be taken.
                if depth <= SEE_PRUNE_DEPTH
                    && searched > 0
                    && let Action::Move(m) = action
                    && !see_ge(
                        self.stack[ply].node.pos.board(),
                        turn,
                        m,
                        -tuned!(SEE_QUIET_MARGIN) * depth * depth,
                    )
                    && !gives_check_by(&self.stack[ply].node.pos, &mut check_squares, m)
                {
                    continue;
                }
            }

            // Singular extension: when the table's action, searched deep
            // enough to be a lower bound, is the only one that comes near
            // its value, it is searched a ply deeper; when another action
            // also beats beta, the node is cut (multi-cut); when only the
            // table's value beats beta, or at a cut node, the action is
            // searched a ply less. Far below, outside PV nodes, it is
            // extended twice, a bounded number of times on a line.
            let mut singular = 0;
            if singular_test && action.code() == tt_action {
                let s_beta = tt_value - SE_MARGIN * depth;
                self.stack[ply].excluded = Some(action);
                let v = self.search::<false>((depth - 1) / 2, s_beta - 1, s_beta, ply, cut);
                self.stack[ply].excluded = None;
                if self.stopped {
                    return 0;
                }
                if v < s_beta {
                    singular = if !PV
                        && v < s_beta - SE_DOUBLE_MARGIN
                        && self.stack[ply].doubles < SE_DOUBLES_MAX
                    {
                        2
                    } else {
                        1
                    };
                } else if s_beta >= beta {
                    return s_beta;
                } else if tt_value >= beta || cut {
                    singular = -1;
                }
            }

            let m = self.make(ply, action);
            if singular == 2 {
                self.stack[ply + 1].doubles += 1;
            }
            let gives_check = {
                let n = &self.stack[ply + 1].node;
                n.check || (P::KINGS_CAPTURABLE && n.pos.threatened())
            };
            // Check extensions, for checks that do not lose material by
            // exchange (the disk always), bounded so such sequences cannot
            // run away.
            let ext = if singular != 0 {
                singular
            } else {
                i32::from(
                    self.stack[ply + 1].node.check
                        && (ply as i32) < CHECK_EXTENSION_PLIES * self.root_depth
                        && (self.awards
                            || action.as_move().is_none_or(|mv| {
                                see_ge(self.stack[ply].node.pos.board(), turn, mv, 0)
                            })),
                )
            };
            let new_depth = depth - 1 + ext;
            let mut v;
            if searched == 0 {
                v = m - self.search::<PV>(new_depth, m - beta, m - alpha, ply + 1, !PV && !cut);
            } else {
                // Late-move reductions: for quiet moves by the table and
                // the history; for captures that lose material by
                // exchange (where captures earn no points) by the table;
                // a ply less for moves that check (or threaten extinction).
                let late = depth >= LMR_DEPTH && searched >= LMR_MOVES && !in_check;
                let r = if late && quiet {
                    self.reduction::<PV>(ply, depth, searched, is_killer, improving, action)
                        + i32::from(cut)
                } else if late
                    && !self.awards
                    && let Action::Move(mv) = action
                    && mv.is_capture()
                    && !see_ge(self.stack[ply].node.pos.board(), turn, mv, 0)
                {
                    self.table_reduction::<PV>(depth, searched)
                } else {
                    0
                }
                .saturating_sub(i32::from(gives_check))
                .min(new_depth - 1)
                .max(0);
                let child_cut = r > 0 || !cut;
                v = m - self.search::<false>(
                    new_depth - r,
                    m - alpha - 1,
                    m - alpha,
                    ply + 1,
                    child_cut,
                );
                if v > alpha && r > 0 && !self.stopped {
                    v = m - self.search::<false>(
                        new_depth,
                        m - alpha - 1,
                        m - alpha,
                        ply + 1,
                        !cut,
                    );
                }
                if PV && v > alpha && v < beta && !self.stopped {
                    v = m - self.search::<true>(new_depth, m - beta, m - alpha, ply + 1, false);
                }
            }
            self.unmake();
            if self.stopped {
                return 0;
            }
            searched += 1;
            if v > best {
                best = v;
                if v > alpha {
                    best_action = Some(action);
                    if PV {
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        head[ply].clear();
                        head[ply].push(action);
                        head[ply].extend_from_slice(&tail[0]);
                    }
                    alpha = v;
                    if v >= beta {
                        if quiet {
                            self.reward_quiet_cutoff(ply, action, depth, &quiets_tried);
                        }
                        self.reward_capture_cutoff(ply, action, depth, &captures_tried);
                        break;
                    }
                }
            }
            if quiet {
                let _ = quiets_tried.try_push(action);
            } else if action.as_move().is_some_and(|m| m.is_capture()) {
                let _ = captures_tried.try_push(action);
            }
        }
        if excluded.is_some() {
            // The node's value without one of its actions is no value of
            // the node: neither the table nor the correction learns it.
            return if searched == 0 { alpha } else { best };
        }
        if searched == 0 {
            // Every action was pruned: fall back to the static estimate.
            return if eval > -INFINITE {
                eval.min(alpha)
            } else {
                alpha
            };
        }
        // A table loss or draw bounds the value from above.
        let best = best.min(tb_ceiling);
        // A table win that no action beat is still a floor: the node is
        // worth at least it.
        let bound = if best >= beta || (best_action.is_none() && best == tb_floor) {
            Bound::Lower
        } else if best > original_alpha && PV {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // Every reply to a quiet move failed low: the move was good, and
        // the parent's history rewards it.
        if bound == Bound::Upper
            && ply >= 1
            && let Some(prev) = self.stack[ply].action
            && is_quiet(prev)
        {
            let ctx = self.context(ply - 1);
            self.ordering.update_quiet(&ctx, prev, history_bonus(depth));
        }
        // The static evaluation was off: learn by how much, unless the
        // bound says nothing of it or a noisy move decided.
        if !in_check
            && !is_decided(best)
            && best_action.is_none_or(is_quiet)
            && bound.informs(best, eval)
        {
            self.correction.update(slots, best - raw_eval, depth);
        }
        self.shared.tt.store(
            key,
            best_action.map_or(0, Action::code),
            to_tt(best, ply),
            raw_eval,
            depth,
            bound,
        );
        best
    }

    /// The endgame tables' WDL of the node at `ply`, `depth` plies from
    /// the horizon, as a value and the bound it is: a win a lower bound
    /// (a faster win may be found), a loss an upper one, a draw exact (a
    /// win or loss the 50-move rule turns into a draw, with
    /// `Syzygy50MoveRule`, a draw by 2 units). `None` unless the node was
    /// reached by a capture or pawn move, has no castling rights and few
    /// enough pieces (exactly the limit only `SyzygyProbeDepth` plies or
    /// more from the horizon), and the tables answer; `None` too where the
    /// game is over (checkmate, stalemate...), which the search values
    /// itself.
    fn probe_tablebase(&mut self, ply: usize, depth: i32) -> Option<(i32, Bound)> {
        let probing = self.job.tablebases.as_ref()?;
        let node = &self.stack[ply].node;
        let pos = chess_of(&node.pos)?;
        let pieces = pos.board().occupied().count();
        if pos.halfmoves() != 0
            || pieces > self.tb_limit
            || (pieces == self.tb_limit && depth < probing.depth)
            || pos.castles().any()
        {
            return None;
        }
        if self.job.rules.position_ending_full(node).is_some() {
            return None;
        }
        let wdl = probing.tables.wdl(pos)?;
        self.tbhits += 1;
        let draw = self.job.units.value_of(0);
        Some(match (wdl, probing.rule50) {
            (Wdl::Win, _) | (Wdl::CursedWin, false) => {
                (value::tablebase(true, ply, probing.win), Bound::Lower)
            }
            (Wdl::Loss, _) | (Wdl::BlessedLoss, false) => {
                (value::tablebase(false, ply, -probing.win), Bound::Upper)
            }
            (Wdl::CursedWin, true) => (draw + TB_NEAR_DRAW, Bound::Exact),
            (Wdl::BlessedLoss, true) => (draw - TB_NEAR_DRAW, Bound::Exact),
            (Wdl::Draw, _) => (draw, Bound::Exact),
        })
    }

    /// Quiescence: captures and promotions (all evasions in check; all
    /// legal actions when capture-or-check is compulsory).
    ///
    /// Results go to the table at depth 0 from the horizon's first ply and
    /// at depth -1 deeper (where extinction threats and the checks of a
    /// forced side are no longer searched), so a deeper result never
    /// answers for the first ply.
    fn quiescence(&mut self, mut alpha: i32, beta: i32, ply: usize, qply: i32) -> i32 {
        self.nodes += 1;
        self.pv[ply].clear();
        if self.check_stop() {
            return 0;
        }
        if ply as i32 > self.seldepth {
            self.seldepth = ply as i32;
        }
        let tt_depth = if qply == 0 { 0 } else { -1 };
        let key = self.key(ply);
        let tt = self.shared.tt.probe(key);
        if let Some(hit) = tt
            && hit.depth >= tt_depth
        {
            let v = from_tt(hit.value, ply);
            if hit.bound.cuts(v, alpha, beta) {
                return v;
            }
        }
        let original_alpha = alpha;
        let rules = self.job.rules;
        let node = &self.stack[ply].node;
        // An extinction threat counts as check only at the horizon's first
        // ply: deeper, quiescence stands pat as usual.
        let in_check = node.check || (P::KINGS_CAPTURABLE && qply == 0 && node.pos.threatened());
        let compulsory = rules.variant().has_disk() && node.extra.disk.compulsory();

        // In check, or bound by capture-or-check: every legal action (and
        // mate or stalemate detection); otherwise captures and queen
        // promotions only, generated once the node does not stand pat.
        let mut actions = ActionList::new();
        let full = in_check || compulsory;
        if full {
            if let Some(ending) = rules.generate(node, &mut actions) {
                return self.end_value(ply, &ending);
            }
        } else if let Some(ending) = rules.position_ending(node, true) {
            return self.end_value(ply, &ending);
        }
        if ply >= MAX_PLY || qply >= QS_MAX_PLY {
            return self.static_eval(ply);
        }
        let forced = compulsory && !in_check && actions.iter().any(|a| a.is_capture());
        let eval = if in_check {
            NO_EVAL
        } else {
            self.node_eval(ply, tt)
        };
        let stand_pat = if in_check || forced {
            -INFINITE
        } else {
            let corrected = self.corrected(ply, eval);
            // The table's value, where its bound says the position is
            // better or worse than the evaluation says, is the better guess.
            match tt.map(|hit| (from_tt(hit.value, ply), hit.bound)) {
                Some((v, bound)) if !is_decided(v) && bound.informs(v, corrected) => v,
                _ => corrected,
            }
        };
        if stand_pat >= beta {
            return stand_pat;
        }
        if stand_pat > alpha {
            alpha = stand_pat;
        }
        // Captures and promotions only now: most nodes stand pat above.
        if !full {
            rules.noisy_actions(node, &mut actions);
        }
        let turn = node.pos.turn();
        // Bound to capture or check, the side to move may not stand pat;
        // its checks are searched at the horizon's first ply only, where a
        // check is the usual way out of a forced capture (deeper they make
        // the compulsory tree explode).
        let all_moves = in_check || (forced && qply == 0);
        let mut buf = PickBuf::new();
        let mut picker = Picker::quiescence(&mut actions, &mut buf, all_moves);
        let ctx = Context {
            turn,
            // Quiet moves are ordered only where all moves are searched.
            threats: if all_moves {
                Threats::of(node.pos.board(), !turn)
            } else {
                Threats::NONE
            },
            prev: [None; 2],
        };
        let mut best = stand_pat;
        let mut best_action = None;
        while let Some(action) =
            picker.next::<P>(self.stack[ply].node.pos.board(), &self.ordering, &ctx)
        {
            // Skip captures that lose material, and hopeless ones.
            let board = self.stack[ply].node.pos.board();
            if !in_check
                && !forced
                && let Action::Move(m) = action
                && !takes_last::<P>(board, turn, m)
            {
                if m.is_capture() && !see_ge(board, turn, m, 0) {
                    continue;
                }
                let gain = m.capture().map_or(0, see_value) + m.promotion().map_or(0, see_value);
                if stand_pat + gain + tuned!(DELTA_MARGIN) + self.quiet_margin <= alpha {
                    continue;
                }
            }
            let m = self.make(ply, action);
            let v = m - self.quiescence(m - beta, m - alpha, ply + 1, qply + 1);
            self.unmake();
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    best_action = Some(action);
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(action);
                    head[ply].extend_from_slice(&tail[0]);
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        if best == -INFINITE {
            // In check or forced, with every action searched: best is set.
            // Reaching here means nothing was searched; use the estimate.
            return self.static_eval(ply);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            key,
            best_action.map_or(0, Action::code),
            to_tt(best, ply),
            eval,
            tt_depth,
            bound,
        );
        best
    }
}

/// The history's reward for a cut-off at `depth`.
#[inline]
fn history_bonus(depth: i32) -> i32 {
    (depth * depth * tuned!(HISTORY_BONUS)).min(HISTORY_MAX)
}

/// The quiet move of table code `code` in `pos`, if the code is one: a
/// piece of the side to move going to an empty square, no promotion,
/// castling or en passant. (A stale or colliding code gives a move that
/// may be illegal; it only feeds the history.)
fn quiet_of_code<P: Pos>(pos: &P, code: u16) -> Option<Action> {
    let (from, to, promotion) = code_parts(code);
    if code == 0 || promotion != 0 {
        return None;
    }
    let board = pos.board();
    let role = board.role_at(from)?;
    if !board.by_color(pos.turn()).contains(from)
        || board.occupied().contains(to)
        || (role == Role::Pawn && from.file() != to.file())
        || (role == Role::King && from.distance(to) > 1)
    {
        return None;
    }
    Some(Action::Move(Move::Normal {
        role,
        from,
        capture: None,
        to,
        promotion: None,
    }))
}

#[inline]
fn is_quiet(a: Action) -> bool {
    match a {
        Action::Move(m) => !m.is_capture() && m.promotion().is_none(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{EvalMode, Evaluator, Units};
    use crate::rules::{Rules, Variant};
    use crate::scoring::Scorer;
    use crate::search::{Limits, Silent, Tt};
    use std::sync::Arc;

    fn job<P: Pos>(variant: Variant, fen: &str) -> SearchJob<P, Scorer, Evaluator> {
        let rules = Rules::<P>::new(variant);
        let scorer = Scorer::new(variant);
        let root = rules.from_fen(fen).unwrap();
        let mut actions = ActionList::new();
        rules.legal_actions(&root, &mut actions);
        SearchJob {
            rules,
            evaluator: Evaluator::new(&scorer, EvalMode::Variant),
            units: Units::of(&scorer),
            scorer,
            history: vec![HistoryEntry::of(&root, None)],
            root,
            root_memo: Memo::default(),
            root_actions: actions.to_vec(),
            limits: Limits::default(),
            multipv: 1,
            overhead: Duration::ZERO,
            tablebases: None,
        }
    }

    /// Extinction: an attacked last piece (here the queen, by a pawn) is
    /// no check; far above beta, reverse futility still cuts the node.
    #[test]
    fn an_extinction_threat_far_above_beta_is_cut_by_reverse_futility() {
        let job = job::<crate::rules::Extinction>(
            Variant::Extinction,
            "rnbqk3/pp3ppp/8/2p3N1/2BQ4/8/PPP2PPP/RNB2RK1 w - - 0 1",
        );
        assert!(job.root.pos.threatened());
        let shared = Shared::new(Arc::new(Tt::new(1)), 1);
        let mut w = Worker::new(
            &job,
            &shared,
            0,
            &Silent,
            Some(crate::search::budget_of(&job)),
            Learnt::default(),
            None,
        );
        let v = w.search::<false>(1, -501, -500, 0, false);
        assert!(v >= -500, "{v}");
        assert_eq!(w.nodes, 1);
    }

    /// A table code gives back its quiet move, and nothing for captures,
    /// promotions, castling, en passant or the opponent's pieces.
    #[test]
    fn table_codes_give_back_quiet_moves_only() {
        let job = job::<shakmaty::Chess>(
            Variant::Chess,
            "r3k2r/1P3ppp/8/3pP3/8/8/5PPP/R3K2R w KQkq d6 0 1",
        );
        let pos = &job.root.pos;
        let (mut quiet, mut other) = (0, 0);
        for &a in &job.root_actions {
            let decoded = quiet_of_code(pos, a.code());
            if is_quiet(a) && !a.as_move().is_some_and(|m| m.is_castle()) {
                assert_eq!(decoded, Some(a), "{a}");
                quiet += 1;
            } else {
                assert_eq!(decoded, None, "{a}");
                other += 1;
            }
        }
        // Castling both ways, en passant, Ra1xa8, b7b8 and b7xa8 (four
        // promotions each).
        assert_eq!(other, 2 + 1 + 1 + 4 + 4, "{other}");
        assert!(quiet > 20);
        // An opponent's piece: the black rook's a8a7.
        let code = (u16::from(shakmaty::Square::A8) << 6) | u16::from(shakmaty::Square::A7);
        assert_eq!(quiet_of_code(pos, code), None);
        assert_eq!(quiet_of_code(pos, 0), None);
    }

    /// Killers belong to a ply: playing another move into the ply keeps
    /// them for the sibling, and a node clears its grandchildren's.
    #[test]
    fn killers_are_shared_by_siblings_and_cleared_two_plies_down() {
        let job = job::<shakmaty::Chess>(
            Variant::Chess,
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        );
        let shared = Shared::new(Arc::new(Tt::new(1)), 1);
        let mut w = Worker::new(
            &job,
            &shared,
            0,
            &Silent,
            Some(crate::search::budget_of(&job)),
            Learnt::default(),
            None,
        );
        let (first, second) = (job.root_actions[0], job.root_actions[1]);
        w.make(0, first);
        w.stack[1].killers = [Some(first), None];
        w.unmake();
        w.make(0, second);
        assert_eq!(w.stack[1].killers, [Some(first), None]);
        w.stack[3].killers = [Some(second), Some(first)];
        w.search::<false>(1, -INFINITE, INFINITE, 1, false);
        assert_eq!(w.stack[3].killers, [None; 2]);
        w.unmake();
    }

    /// A singular-extension search leaves one action out: here the rook's
    /// capture of the queen, so the node's value without it is a rook
    /// down, not a queen up; and that value never reaches the table.
    #[test]
    fn an_excluded_search_skips_its_action_and_stores_nothing() {
        let job = job::<shakmaty::Chess>(Variant::Chess, "k7/8/8/3q4/8/8/8/K2R4 w - - 0 1");
        let capture = *job
            .root_actions
            .iter()
            .find(|a| a.as_move().is_some_and(|m| m.is_capture()))
            .unwrap();
        let shared = Shared::new(Arc::new(Tt::new(1)), 1);
        let mut w = Worker::new(
            &job,
            &shared,
            0,
            &Silent,
            Some(crate::search::budget_of(&job)),
            Learnt::default(),
            None,
        );
        w.stack[0].excluded = Some(capture);
        let without = w.search::<true>(3, -INFINITE, INFINITE, 0, false);
        assert!(shared.tt.probe(w.key(0)).is_none());
        w.stack[0].excluded = None;
        let with = w.search::<true>(3, -INFINITE, INFINITE, 0, false);
        // Without the capture White stays a queen against a rook down
        // (about -190 at this depth, where the check that loses the rook
        // is not extended); with it, a rook up.
        assert!(without < -100, "{without}");
        assert!(with > 200, "{with}");
        assert_eq!(
            shared.tt.probe(w.key(0)).map(|h| h.action),
            Some(capture.code())
        );
    }
}
