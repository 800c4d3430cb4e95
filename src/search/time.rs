//! Time management during a search: after each completed iteration the main
//! thread reports what it found, and [`TimeManager`] decides whether another
//! iteration is worth its time (or a limit is reached). The budget itself
//! (how much a move may take) is [`Budget`]'s; the clock checks inside an
//! iteration (the hard limit) stay with the worker.

use std::sync::atomic::Ordering;
use std::time::Duration;

use super::Shared;
use super::limits::{Budget, Limits};
use super::params::*;
use super::value::{self, INFINITE, is_proven};
use crate::rules::Action;

/// What the main thread reports after a completed iteration.
#[derive(Clone, Copy, Debug)]
pub(super) struct Iteration {
    /// The depth completed.
    pub depth: i32,
    /// The best root action.
    pub best: Action,
    /// Its value.
    pub value: i32,
    /// Its value at the iteration before (`-INFINITE` when it had none).
    pub prev_value: i32,
    /// The fraction of the search's nodes spent below the best action.
    pub best_share: f64,
}

/// Decides, iteration by iteration, when a search has thought enough.
#[derive(Clone, Debug)]
pub(super) struct TimeManager {
    budget: Budget,
    root_actions: usize,
    last_best: Option<Action>,
    best_changes: f64,
}

impl TimeManager {
    /// A manager for one search with `budget`, over `root_actions` root
    /// actions.
    pub fn new(budget: Budget, root_actions: usize) -> TimeManager {
        TimeManager {
            budget,
            root_actions,
            last_best: None,
            best_changes: 0.0,
        }
    }

    /// The time after which the search stops at once.
    pub fn hard(&self) -> Option<Duration> {
        self.budget.hard
    }

    /// Whether to stop after the iteration `done`, reported `elapsed` after
    /// the start.
    pub fn stop_after(
        &mut self,
        done: &Iteration,
        limits: &Limits,
        shared: &Shared,
        elapsed: Duration,
    ) -> bool {
        if shared.stop.load(Ordering::Relaxed) {
            return true;
        }
        if let Some(mate) = limits.mate {
            let v = done.value;
            if is_proven(v) && v > 0 && value::plies_to_end(v) < 2 * mate as i32 {
                return true;
            }
        }
        if limits.infinite || shared.pondering.load(Ordering::Relaxed) {
            return false;
        }
        // A mate that is not there is not searched for for ever.
        if let Some(mate) = limits.mate
            && done.depth >= (2 * mate as i32).saturating_add(MATE_EXTRA_DEPTH)
        {
            return true;
        }
        if limits.nodes.is_some_and(|n| shared.nodes() >= n)
            || limits.soft_nodes.is_some_and(|n| shared.nodes() >= n)
        {
            return true;
        }
        // A single legal action: no need to think on a clock.
        if self.root_actions == 1 && limits.uses_clock() && done.depth >= SINGLE_ACTION_DEPTH {
            return true;
        }
        if let Some(soft) = self.budget.soft
            && limits.movetime.is_none()
        {
            // Spend less when the best action stays and its value holds,
            // more when it changes or drops (the next iteration costs about
            // as much as all before it together).
            let best = done.best;
            if self.last_best != Some(best) {
                self.best_changes += 1.0;
            }
            self.last_best = Some(best);
            let drop = done.prev_value - done.value;
            let mut factor = TIME_BASE + TIME_PER_CHANGE * self.best_changes.min(TIME_MAX_CHANGES);
            if drop > TIME_DROP && done.prev_value > -INFINITE {
                factor += TIME_DROP_EXTRA;
            }
            self.best_changes *= TIME_CHANGE_DECAY;
            factor *= node_scale(done.best_share);
            if elapsed >= soft.mul_f64(factor.min(TIME_MAX_FACTOR)) {
                return true;
            }
        }
        false
    }
}

/// How the stop factor scales with the best action's share of the nodes:
/// a best action that took most of the effort needs less confirming.
fn node_scale(best_share: f64) -> f64 {
    TIME_NODES_TOP - TIME_NODES_SLOPE * best_share.clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::search::{MATE, MATE_STEP, Tt};

    const SOFT: Duration = Duration::from_millis(1000);

    fn clock_limits() -> Limits {
        Limits {
            time: [Some(Duration::from_secs(60)), Some(Duration::from_secs(60))],
            ..Limits::default()
        }
    }

    fn manager(root_actions: usize) -> TimeManager {
        let budget = Budget {
            soft: Some(SOFT),
            hard: Some(SOFT * 4),
        };
        TimeManager::new(budget, root_actions)
    }

    /// The best action's share of the nodes that leaves the time unscaled.
    const NEUTRAL_SHARE: f64 = (TIME_NODES_TOP - 1.0) / TIME_NODES_SLOPE;

    fn done(depth: i32, best: Action, value: i32, prev_value: i32) -> Iteration {
        Iteration {
            depth,
            best,
            value,
            prev_value,
            best_share: NEUTRAL_SHARE,
        }
    }

    #[test]
    fn a_best_action_that_took_most_nodes_stops_sooner() {
        let shared = Shared::new(Arc::new(Tt::new(1)), 1);
        let limits = clock_limits();
        let a = Action::Disk;
        let stable = TIME_BASE + TIME_PER_CHANGE;
        let at = |share: f64| SOFT.mul_f64(stable * node_scale(share));
        let iteration = |share| Iteration {
            best_share: share,
            ..done(1, a, 0, -INFINITE)
        };
        for share in [0.2, NEUTRAL_SHARE, 0.95] {
            let mut tm = manager(20);
            let before = at(share).mul_f64(0.99);
            assert!(!tm.stop_after(&iteration(share), &limits, &shared, before));
            let mut tm = manager(20);
            let after = at(share).mul_f64(1.01);
            assert!(tm.stop_after(&iteration(share), &limits, &shared, after));
        }
        assert!(at(0.95) < at(NEUTRAL_SHARE) && at(NEUTRAL_SHARE) < at(0.2));
    }

    #[test]
    fn a_stable_best_action_stops_sooner_than_a_changing_one() {
        let shared = Shared::new(Arc::new(Tt::new(1)), 1);
        let limits = clock_limits();
        let ms = Duration::from_millis;
        let (a, b) = (Action::Disk, Action::Swap);
        let mut tm = manager(20);
        // The first best action counts as a change: 0.85 of the soft time.
        assert!(!tm.stop_after(&done(1, a, 0, -INFINITE), &limits, &shared, ms(840)));
        // It stays: 0.675.
        assert!(!tm.stop_after(&done(2, a, 0, 0), &limits, &shared, ms(670)));
        assert!(tm.stop_after(&done(3, a, 0, 0), &limits, &shared, ms(600)));
        // A new best action buys time again, a value drop more.
        let mut tm = manager(20);
        assert!(!tm.stop_after(&done(1, a, 0, -INFINITE), &limits, &shared, ms(800)));
        assert!(!tm.stop_after(&done(2, b, -50, 0), &limits, &shared, ms(1300)));
        assert!(tm.stop_after(&done(3, b, -50, -50), &limits, &shared, ms(1300)));
        // The hard limit is the budget's.
        assert_eq!(tm.hard(), Some(SOFT * 4));
    }

    #[test]
    fn limits_other_than_time() {
        let shared = Shared::new(Arc::new(Tt::new(1)), 1);
        let a = Action::Disk;
        let zero = Duration::ZERO;
        // One legal action on a clock: depth 4 is enough.
        let mut tm = manager(1);
        assert!(!tm.stop_after(&done(3, a, 0, 0), &clock_limits(), &shared, zero));
        assert!(tm.stop_after(&done(4, a, 0, 0), &clock_limits(), &shared, zero));
        // `go mate 2`: a win in 3 plies is found, one in 5 is not yet.
        let mate = Limits {
            mate: Some(2),
            infinite: true,
            ..Limits::default()
        };
        let won_in = |plies: i32| MATE - plies * MATE_STEP;
        let mut tm = manager(20);
        assert!(!tm.stop_after(&done(5, a, won_in(5), 0), &mate, &shared, zero));
        assert!(tm.stop_after(&done(5, a, won_in(3), 0), &mate, &shared, zero));
        // No mate in 2 found: with `infinite` the search goes on; without,
        // it ends at depth 2 * 2 + MATE_EXTRA_DEPTH.
        let last = 4 + MATE_EXTRA_DEPTH;
        assert!(!tm.stop_after(&done(last, a, 0, 0), &mate, &shared, zero));
        let mate = Limits {
            infinite: false,
            ..mate
        };
        assert!(!tm.stop_after(&done(last - 1, a, 0, 0), &mate, &shared, zero));
        assert!(tm.stop_after(&done(last, a, 0, 0), &mate, &shared, zero));
        // Infinite: only the stop flag ends it.
        let infinite = Limits {
            infinite: true,
            ..Limits::default()
        };
        assert!(!tm.stop_after(&done(30, a, 0, 0), &infinite, &shared, SOFT * 100));
        shared.stop();
        assert!(tm.stop_after(&done(30, a, 0, 0), &infinite, &shared, zero));
    }
}
