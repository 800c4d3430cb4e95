//! Search limits and time management: the limits of `go`, the time budget
//! of a move, and the watcher that holds the hard limit.
//!
//! The hard limit is held by the thread that started the search, asleep
//! until then ([`watch`]): the search threads check the clock only while
//! they run, and with more threads than cores the main thread may wait long
//! for its turn on a core. As the helpers beyond the cores take turns
//! (module `turns`), the sleeper wakes to no more running threads than
//! cores and gets one on time.

use std::sync::PoisonError;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::Shared;

/// What bounds a search (UCI `go` parameters).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<i32>,
    /// Maximum nodes (all threads together).
    pub nodes: Option<u64>,
    /// No new iteration once this many nodes were searched (all threads
    /// together); `nodes` stays the hard cap. A soft limit spends the
    /// nodes where a position needs them: an iteration that started is
    /// finished (up to `nodes`), the next one is not begun.
    pub soft_nodes: Option<u64>,
    /// Exact time for this move.
    pub movetime: Option<Duration>,
    /// Search until stopped.
    pub infinite: bool,
    /// Start pondering: no time limit until `ponderhit`.
    pub ponder: bool,
    /// Remaining clock time, `[white, black]`.
    pub time: [Option<Duration>; 2],
    /// Increment per move, `[white, black]`.
    pub inc: [Option<Duration>; 2],
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Stop once a win in at most this many moves is found.
    pub mate: Option<u32>,
    /// Root actions to consider, in this order; all when empty (UCI
    /// `searchmoves`, resolved by the engine facade).
    pub searchmoves: Vec<crate::rules::Action>,
    /// Search even when the game is over by a rule that leaves moves on
    /// the board (repetition, move count, insufficient material): the
    /// client plays on.
    pub play_on: bool,
}

impl Limits {
    /// A fixed-depth search.
    pub fn depth(d: i32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    /// Whether the search runs on a clock (no other bound given).
    pub fn uses_clock(&self) -> bool {
        self.movetime.is_none() && (self.time[0].is_some() || self.time[1].is_some())
    }
}

/// The time budget of one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Stop iterating once this much has passed after an iteration.
    pub soft: Option<Duration>,
    /// Stop at once after this much.
    pub hard: Option<Duration>,
}

impl Budget {
    /// The budget for the side whose clock index is `side` (0 white,
    /// 1 black), keeping `overhead` in reserve for the GUI and the pipe;
    /// without `movestogo`, the clock is shared as if `moves_left` moves
    /// were left.
    pub fn new(limits: &Limits, side: usize, overhead: Duration, moves_left: u32) -> Budget {
        if let Some(mt) = limits.movetime {
            let t = mt.saturating_sub(overhead).max(Duration::from_millis(1));
            return Budget {
                soft: Some(t),
                hard: Some(t),
            };
        }
        // A clock given for the other side only: the mover's counts as
        // empty (it moves at once), not as no clock (a search without end).
        let Some(time) = limits.time[side].or(limits.time[1 - side].map(|_| Duration::ZERO)) else {
            return Budget {
                soft: None,
                hard: None,
            };
        };
        let inc = limits.inc[side].unwrap_or_default();
        let mtg = limits.movestogo.unwrap_or(moves_left).clamp(1, 40);
        // What may be spent at most: never the reserve.
        let usable = time.saturating_sub(overhead);
        let base = usable / mtg + inc.mul_f64(0.8);
        let hard_cap = if mtg == 1 {
            usable.mul_f64(0.9)
        } else {
            usable.mul_f64(0.35)
        };
        let soft = base.min(hard_cap);
        let hard = base.mul_f64(4.0).min(hard_cap);
        let floor = Duration::from_millis(1);
        Budget {
            soft: Some(soft.max(floor)),
            hard: Some(hard.max(floor)),
        }
    }
}

/// A clock started at the search's beginning (or at `ponderhit`).
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    start: Instant,
}

impl Clock {
    /// Starts now.
    pub fn start() -> Clock {
        Clock {
            start: Instant::now(),
        }
    }

    /// Time since start.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}

/// Waits until the search stops, and stops it once `hard` (if any) has
/// passed on the search's clock, never while pondering (the clock restarts
/// at `ponderhit`).
pub(super) fn watch(shared: &Shared, hard: Option<Duration>) {
    let (lock, wake) = &shared.wake;
    let mut guard = lock.lock().unwrap_or_else(PoisonError::into_inner);
    // `stop` and `ponderhit` change their flags before they take the lock
    // to wake this thread, so checking the flags under the lock misses no
    // wake-up.
    while !shared.stop.load(Ordering::SeqCst) {
        let left = hard
            .filter(|_| !shared.pondering.load(Ordering::SeqCst))
            .map(|h| h.saturating_sub(shared.elapsed()));
        guard = match left {
            Some(Duration::ZERO) => {
                drop(guard);
                shared.stop();
                return;
            }
            Some(left) => wake
                .wait_timeout(guard, left)
                .map_or_else(|e| e.into_inner().0, |(g, _)| g),
            None => wake.wait(guard).unwrap_or_else(PoisonError::into_inner),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_other_side_s_clock_alone_is_an_empty_clock() {
        let ms = Duration::from_millis;
        let l = Limits {
            time: [None, Some(ms(1000))],
            ..Limits::default()
        };
        let b = Budget::new(&l, 0, ms(0), 25);
        assert_eq!((b.soft, b.hard), (Some(ms(1)), Some(ms(1))));
        assert_eq!(Budget::new(&l, 1, ms(0), 25).soft, Some(ms(40)));
    }

    #[test]
    fn budgets() {
        let ms = Duration::from_millis;
        let l = Limits {
            movetime: Some(ms(1000)),
            ..Limits::default()
        };
        let b = Budget::new(&l, 0, ms(30), 25);
        assert_eq!(b.hard, Some(ms(970)));
        let l = Limits {
            time: [Some(ms(60_000)), Some(ms(1))],
            inc: [Some(ms(1000)), None],
            ..Limits::default()
        };
        let b = Budget::new(&l, 0, ms(30), 25);
        assert!(b.soft.unwrap() < b.hard.unwrap());
        assert!(b.hard.unwrap() <= ms(60_000 * 4 / 10));
        // Almost no time: still a positive budget, never past the clock.
        let b = Budget::new(&l, 1, ms(30), 25);
        assert_eq!(b.hard, Some(ms(1)));
        assert_eq!(Budget::new(&Limits::depth(5), 0, ms(30), 25).hard, None);
        // A shorter game ahead spends more of the clock a move.
        let l = Limits {
            time: [Some(ms(60_000)), Some(ms(60_000))],
            ..Limits::default()
        };
        let short = Budget::new(&l, 0, ms(0), 15).soft.unwrap();
        let long = Budget::new(&l, 0, ms(0), 25).soft.unwrap();
        assert_eq!(short, ms(4_000));
        assert_eq!(long, ms(2_400));
    }
}
