//! Search: parallel alpha-beta that maximises the expected point margin.
//!
//! A node's value is the margin still to come for the side to move:
//! `value(node) = max over actions a of [margin(award(a)) - value(child)]`,
//! a finished game is worth its ending's award margin, a leaf the
//! evaluator's estimate. Points already banked never enter a value, so table
//! entries stay valid across paths. The search is generic over the rules'
//! position type and driven by three interfaces: the rules ([`Pos`] and the
//! [`Rules`] struct: legal actions, game end), [`Scoring`] (the referee's
//! awards, forwarded to the one implementor, [`Scorer`]) and [`Evaluate`]
//! (with its [`Units`]).
//!
//! Parallelism is Lazy SMP on a rayon pool: every thread searches the same
//! root with its own stack and histories, sharing the transposition table;
//! the main thread reports; the thread that started the search, asleep
//! until the hard time limit, stops them all (module `limits`); helpers
//! beyond the cores take turns (module `turns`); the result is a vote among
//! the threads.
//!
//! With Syzygy endgame tables ([`crate::syzygy`], chess only), the root's
//! actions are first ranked by the tables and only those that hold their
//! result are searched (module `tablebase`), and the threads probe the
//! tables' WDL after captures and pawn moves; a table result is a value of
//! the tablebase band (module `value`).

mod history;
mod limits;
mod memory;
mod params;
mod picker;
mod prefetch;
mod see;
pub mod skill;
mod tablebase;
mod time;
mod tt;
mod turns;
mod value;
mod worker;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

pub use limits::{Budget, Clock, Limits};

/// The most search threads (UCI `Threads`) and the most workers of a
/// batch command.
pub const MAX_THREADS: usize = 256;
/// The largest transposition table, in MiB (UCI `Hash`, `--hash`, a match
/// player's `hash=`).
pub const MAX_HASH_MB: usize = 16384;
pub use memory::Memory;
#[cfg(feature = "spsa")]
pub use params::live;
pub use params::{Tunable, tunables};
pub use see::see_ge;
pub use skill::{Skill, Strength};
pub use tt::{Bound, Tt};
use turns::{Turn, Turns};
pub use value::{
    DECIDED, INFINITE, MATE, MATE_STEP, PROVEN, Score, TB_WIN, is_decided, is_proven, margin_value,
    plies_to_end,
};

use crate::eval::{Evaluate, Units};
use crate::rules::Ending;
use crate::rules::{Action, HistoryEntry, Node, Pos, Rules};
use crate::scoring::{Award, EndAward, EndContext, Immediate, Memo, Scorer};
use params::{VOTE_OFFSET, VOTE_VALUE_CAP};

/// The awards the search maximises: what the referee's scorer provides.
pub trait Scoring: Send + Sync {
    /// The award of an action and the memo after it.
    fn action_award<P: Pos>(
        &self,
        memo: &Memo,
        before: &Node<P>,
        action: Action,
        after: &Node<P>,
    ) -> (Award, Memo);
    /// The award of an ending.
    fn end_award<P: Pos>(
        &self,
        memo: &Memo,
        last: Option<(&Node<P>, Action)>,
        end: &Node<P>,
        ending: &Ending,
    ) -> EndAward;
    /// Whether any action can earn points by itself (skips the award on
    /// the hot path when not).
    fn has_action_awards(&self) -> bool;
    /// Whether a proven checkmate or extinction outranks every estimate
    /// (the decisive band; see the `value` module).
    fn decisive_band(&self) -> bool;
    /// Whether the memo changes future awards and belongs in the key.
    fn memo_in_key(&self) -> bool;
    /// The most a quiet move (no capture, promotion or check) can earn by
    /// itself; widens futility margins.
    fn quiet_award_bound(&self) -> crate::scoring::Points;
    /// What an action earns the moment it is played at `before`, the
    /// ending's awards included (the search result's best action).
    fn immediate<P: Pos>(
        &self,
        rules: &Rules<P>,
        memo: &Memo,
        before: &Node<P>,
        history: &[HistoryEntry],
        action: Action,
    ) -> Immediate;
}

impl Scoring for Scorer {
    #[inline]
    fn action_award<P: Pos>(
        &self,
        memo: &Memo,
        before: &Node<P>,
        action: Action,
        after: &Node<P>,
    ) -> (Award, Memo) {
        Scorer::action_award(self, memo, before, action, after)
    }

    #[inline]
    fn end_award<P: Pos>(
        &self,
        memo: &Memo,
        last: Option<(&Node<P>, Action)>,
        end: &Node<P>,
        ending: &Ending,
    ) -> EndAward {
        Scorer::end_award(self, memo, last, end, ending, &EndContext::default())
    }

    fn has_action_awards(&self) -> bool {
        Scorer::has_action_awards(self)
    }

    fn decisive_band(&self) -> bool {
        Scorer::decisive_band(self)
    }

    fn memo_in_key(&self) -> bool {
        Scorer::memo_in_key(self)
    }

    fn quiet_award_bound(&self) -> crate::scoring::Points {
        Scorer::quiet_award_bound(self)
    }

    fn immediate<P: Pos>(
        &self,
        rules: &Rules<P>,
        memo: &Memo,
        before: &Node<P>,
        history: &[HistoryEntry],
        action: Action,
    ) -> Immediate {
        Scorer::immediate(self, rules, memo, before, history, action)
    }
}

/// One line of the search's report: a root action with its value and
/// principal variation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PvLine {
    /// 1-based rank among the root actions.
    pub multipv: usize,
    /// Depth completed.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: i32,
    /// The value in internal units (decisive band included).
    pub value: i32,
    /// Whether the value is only a bound (aspiration failure).
    pub bound: Option<Bound>,
    /// The principal variation, the root action first.
    pub pv: Vec<Action>,
}

impl PvLine {
    /// The value decoded.
    pub fn score(&self) -> Score {
        Score::of(self.value)
    }
}

/// Counters for a report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Per-mille of the table in use.
    pub hashfull: u32,
    /// Positions found in the endgame tables by all threads (the root's
    /// actions ranked, and probes in the search).
    pub tbhits: u64,
}

/// Where the search's progress goes (UCI `info` lines, a progress bar,
/// nowhere).
pub trait Reporter: Send + Sync {
    /// A completed (or bounded) line at some depth.
    fn line(&self, line: &PvLine, stats: &Stats);
}

/// A reporter that discards everything.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Reporter for Silent {
    fn line(&self, _line: &PvLine, _stats: &Stats) {}
}

/// What a search found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchResult {
    /// The action to play (none when the root has no legal action).
    pub best: Option<Action>,
    /// The expected reply.
    pub ponder: Option<Action>,
    /// What the best action earns the moment it is played, the ending's
    /// awards included.
    pub award: Option<Immediate>,
    /// The lines of the last completed depth, best first: as many as the
    /// `MultiPV` asked for (a weakened engine searches more candidates and
    /// keeps only these).
    pub lines: Vec<PvLine>,
    /// The line of the action to play, `best`: the first line, or a
    /// weakened engine's choice among its candidates (which need not be
    /// among `lines`).
    pub played: Option<PvLine>,
    /// Depth completed.
    pub depth: i32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Positions found in the endgame tables by all threads.
    pub tbhits: u64,
    /// Time used.
    pub time: Duration,
}

/// State shared by all threads of a search and by whoever controls it.
#[derive(Debug)]
pub struct Shared {
    /// The transposition table.
    pub tt: Arc<Tt>,
    /// Set to stop the search (see [`Shared::stop`]).
    pub stop: AtomicBool,
    /// A flag of the caller's that stops the search when set (see
    /// [`Shared::with_stop_flag`]).
    outside: Option<Arc<AtomicBool>>,
    /// Set while pondering: the clock does not run (cleared by
    /// [`Shared::ponderhit`]).
    pub pondering: AtomicBool,
    nodes: Vec<AtomicU64>,
    /// Each thread's endgame-table hits, published with its nodes.
    tbhits: Vec<AtomicU64>,
    /// The origin of `clock_from`.
    origin: Instant,
    /// When the search's clock (re)started, in nanoseconds after `origin`:
    /// the search's start, then `ponderhit`.
    clock_from: AtomicU64,
    /// Wakes the clock watcher on `stop` and `ponderhit`.
    wake: (Mutex<()>, Condvar),
    /// The helpers' turns on the cores.
    turns: Turns,
    /// The tables the threads learnt in earlier searches, lent to this one.
    memory: Arc<Memory>,
}

impl Shared {
    /// Shared state for `threads` threads over `tt`.
    pub fn new(tt: Arc<Tt>, threads: usize) -> Shared {
        Shared {
            tt,
            stop: AtomicBool::new(false),
            outside: None,
            pondering: AtomicBool::new(false),
            nodes: (0..threads.max(1)).map(|_| AtomicU64::new(0)).collect(),
            tbhits: (0..threads.max(1)).map(|_| AtomicU64::new(0)).collect(),
            origin: Instant::now(),
            clock_from: AtomicU64::new(0),
            wake: (Mutex::new(()), Condvar::new()),
            turns: Turns::for_this_machine(),
            memory: Arc::new(Memory::default()),
        }
    }

    /// This search borrows the tables kept in `memory` and gives them back
    /// at its end (without it, each search starts from empty tables).
    #[must_use]
    pub fn with_memory(self, memory: Arc<Memory>) -> Shared {
        Shared { memory, ..self }
    }

    /// Shared state that also stops when `stop`, a flag of the caller's,
    /// is set (the main thread looks at it as often as at the clock). The
    /// search never sets it.
    pub fn with_stop_flag(tt: Arc<Tt>, threads: usize, stop: Arc<AtomicBool>) -> Shared {
        Shared {
            outside: Some(stop),
            ..Shared::new(tt, threads)
        }
    }

    /// Whether the caller's flag is set.
    fn stopped_outside(&self) -> bool {
        self.outside
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// Time on the search's clock: since the search started, or since
    /// `ponderhit`.
    pub fn elapsed(&self) -> Duration {
        let from = Duration::from_nanos(self.clock_from.load(Ordering::SeqCst));
        self.origin.elapsed().saturating_sub(from)
    }

    /// Starts the clock again from now.
    fn restart_clock(&self) {
        let now = u64::try_from(self.origin.elapsed().as_nanos()).unwrap_or(u64::MAX);
        self.clock_from.store(now, Ordering::SeqCst);
    }

    /// The opponent played the expected move: pondering ends and the clock
    /// starts from now.
    pub fn ponderhit(&self) {
        self.restart_clock();
        self.pondering.store(false, Ordering::SeqCst);
        self.wake_watcher();
    }

    fn wake_watcher(&self) {
        let _guard = self.wake.0.lock().unwrap_or_else(PoisonError::into_inner);
        self.wake.1.notify_all();
    }

    /// Nodes searched so far by all threads.
    pub fn nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }

    /// Endgame-table hits so far by all threads.
    pub fn tbhits(&self) -> u64 {
        self.tbhits.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }

    /// Asks every thread to stop.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
        self.wake_watcher();
        self.turns.close();
    }
}

/// Stops the search when dropped.
struct StopOnDrop<'a>(&'a Shared);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// Everything one search needs.
pub struct SearchJob<P: Pos, S: Scoring, E: Evaluate<P>> {
    /// The rules (with special actions on or off).
    pub rules: Rules<P>,
    /// The scorer.
    pub scorer: S,
    /// The evaluator.
    pub evaluator: E,
    /// Internal units of the variant.
    pub units: Units,
    /// The root node.
    pub root: Node<P>,
    /// The memo after the game's actions so far.
    pub root_memo: Memo,
    /// The game's repetition history, the root last.
    pub history: Vec<HistoryEntry>,
    /// The root actions to search (searchmoves applied); empty when the
    /// root is finished.
    pub root_actions: Vec<Action>,
    /// Limits.
    pub limits: Limits,
    /// Number of principal variations to report (at least 1).
    pub multipv: usize,
    /// Time kept in reserve for the GUI and the pipe.
    pub overhead: Duration,
    /// The endgame tables to probe, where they hold the variant's rules
    /// (chess); `None` searches as without tables.
    pub tablebases: Option<crate::syzygy::Probing>,
}

/// The time budget of `job`'s search, for its side to move: computed once
/// a search, for the watcher's hard limit and the main thread's
/// `TimeManager`.
fn budget_of<P, S, E>(job: &SearchJob<P, S, E>) -> Budget
where
    P: Pos,
    S: Scoring,
    E: Evaluate<P>,
{
    let side = usize::from(!job.root.pos.turn().is_white());
    let moves_left = if P::KINGS_CAPTURABLE {
        params::TIME_MOVES_KINGS_CAPTURABLE
    } else {
        params::TIME_MOVES
    };
    Budget::new(&job.limits, side, job.overhead, moves_left)
}

/// Runs a search on `threads` threads of `pool` and returns its result,
/// with the best action's award. The calling thread blocks until the
/// search ends (by its limits or by `shared.stop`).
pub fn search<P, S, E>(
    job: &SearchJob<P, S, E>,
    shared: &Shared,
    pool: &rayon::ThreadPool,
    threads: usize,
    reporter: &dyn Reporter,
) -> SearchResult
where
    P: Pos,
    S: Scoring,
    E: Evaluate<P>,
{
    let mut result = search_unawarded(job, shared, pool, threads, reporter);
    result.award = award_of(job, result.best);
    result
}

/// What `action` earns at `job`'s root the moment it is played, the
/// ending's awards included ([`SearchResult::award`]).
pub fn award_of<P, S, E>(job: &SearchJob<P, S, E>, action: Option<Action>) -> Option<Immediate>
where
    P: Pos,
    S: Scoring,
    E: Evaluate<P>,
{
    action.map(|a| {
        job.scorer
            .immediate(&job.rules, &job.root_memo, &job.root, &job.history, a)
    })
}

/// [`search`] without the award: for a caller that may play another
/// action than the best (limited strength) and asks [`award_of`] for the
/// one it chose, so the award is computed once.
pub fn search_unawarded<P, S, E>(
    job: &SearchJob<P, S, E>,
    shared: &Shared,
    pool: &rayon::ThreadPool,
    threads: usize,
    reporter: &dyn Reporter,
) -> SearchResult
where
    P: Pos,
    S: Scoring,
    E: Evaluate<P>,
{
    let clock = Clock::start();
    shared.restart_clock();
    shared.tt.new_search();
    if job.root_actions.is_empty() {
        return SearchResult::default();
    }
    let threads = threads.clamp(1, shared.nodes.len());
    let budget = budget_of(job);
    // The root's actions ranked by the tables, once for every thread.
    let ranking = tablebase::rank_root(job);
    let ranking = ranking.as_ref();
    let hard = budget.hard.filter(|_| !job.limits.infinite);
    let mut results: Vec<Option<ThreadResult>> = vec![None; threads];
    // The jobs go to the pool; this thread, running already, holds the
    // clock meanwhile (a thread started now would wait behind the workers
    // for its first turn on a core).
    pool.in_place_scope(|s| {
        for (id, slot) in results.iter_mut().enumerate() {
            s.spawn(move |_| {
                // A helper waits for its turn; one starting after the stop
                // has nothing to add.
                let _turn = if id > 0 {
                    if !shared.turns.take() || shared.stop.load(Ordering::Relaxed) {
                        return;
                    }
                    Some(Turn(&shared.turns))
                } else {
                    None
                };
                // The main thread's end stops the others and the watcher,
                // even should it panic.
                let _end = (id == 0).then(|| StopOnDrop(shared));
                // Only the main thread keeps time.
                let budget = (id == 0).then_some(budget);
                let learnt = shared.memory.take(id);
                let mut w = worker::Worker::new(job, shared, id, reporter, budget, learnt, ranking);
                *slot = Some(w.iterate());
                shared.memory.put(id, w.into_learnt());
            });
        }
        limits::watch(shared, hard);
    });
    let results: Vec<ThreadResult> = results.into_iter().flatten().collect();
    vote(results, shared, clock, job.multipv, reporter)
}

/// What one thread found.
#[derive(Clone, Debug)]
struct ThreadResult {
    lines: Vec<PvLine>,
    depth: i32,
}

/// Combines the threads' results: the deepest, best-scoring line wins a
/// vote weighted by depth and value. With several lines the main thread's
/// ranking, the one reported, stands. A line of another thread that wins
/// is reported again, so that the last line 1 reported is the move played.
fn vote(
    results: Vec<ThreadResult>,
    shared: &Shared,
    clock: Clock,
    multipv: usize,
    reporter: &dyn Reporter,
) -> SearchResult {
    let nodes = shared.nodes();
    let tbhits = shared.tbhits();
    let time = clock.elapsed();
    let Some(main) = results.first() else {
        return SearchResult::default();
    };
    let mut chosen = main;
    if results.len() > 1 && multipv <= 1 {
        let min = results
            .iter()
            .filter_map(|r| r.lines.first().map(|l| l.value))
            .min()
            .unwrap_or(0);
        let mut votes: Vec<(Action, i64)> = Vec::new();
        for r in &results {
            if let Some(l) = r.lines.first()
                && let Some(&a) = l.pv.first()
            {
                let w = (i64::from(l.value) - i64::from(min) + VOTE_OFFSET).min(VOTE_VALUE_CAP)
                    * i64::from(r.depth.max(1));
                match votes.iter_mut().find(|(x, _)| *x == a) {
                    Some((_, v)) => *v += w,
                    None => votes.push((a, w)),
                }
            }
        }
        let best_vote = votes.iter().max_by_key(|(_, v)| *v).map(|(a, _)| *a);
        for r in &results {
            let Some(l) = r.lines.first() else { continue };
            let cl = chosen.lines.first();
            let decisive_better = is_decided(l.value) && cl.is_some_and(|c| l.value > c.value);
            let voted = best_vote == l.pv.first().copied()
                && r.depth >= chosen.depth
                && cl.is_some_and(|c| best_vote != c.pv.first().copied() || l.value > c.value);
            if decisive_better || voted {
                chosen = r;
            }
        }
    }
    if !std::ptr::eq(chosen, main) {
        let stats = Stats {
            nodes,
            time: shared.elapsed(),
            hashfull: shared.tt.hashfull(),
            tbhits,
        };
        for l in &chosen.lines {
            reporter.line(l, &stats);
        }
    }
    let first = chosen.lines.first();
    SearchResult {
        best: first.and_then(|l| l.pv.first().copied()),
        ponder: first.and_then(|l| l.pv.get(1).copied()),
        award: None,
        lines: chosen.lines.clone(),
        played: first.cloned(),
        depth: chosen.depth,
        nodes,
        tbhits,
        time,
    }
}

#[cfg(test)]
mod tests;
