//! Turns on the cores for the helper threads of a search.
//!
//! With more search threads than cores, the operating system shares the
//! cores among all of them, and a thread that must act at a given moment
//! (the thread holding the clock, the main search thread) waits behind the
//! others for its turn: with 256 threads on 2 cores, a second or more. So
//! the helpers take turns themselves: at most as many search at once as
//! there are cores besides the main thread's (at least one), each for a
//! slice of nodes before it hands its turn to the helper waiting longest;
//! a waiting helper sleeps. With no more threads than cores nobody waits,
//! and a turn costs one load of a counter per slice.

use std::collections::VecDeque;
use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::Thread;

/// The turns of one search's helper threads.
#[derive(Debug)]
pub(super) struct Turns {
    /// Helpers waiting for a turn (read without the lock).
    waiting: AtomicUsize,
    state: Mutex<State>,
}

#[derive(Debug)]
struct State {
    /// Turns nobody holds.
    free: usize,
    /// The waiting helpers, longest first.
    queue: VecDeque<Waiter>,
    /// Set when the search stops: no more turns, nobody waits.
    closed: bool,
}

#[derive(Debug)]
struct Waiter {
    thread: Thread,
    granted: Arc<AtomicBool>,
}

impl Waiter {
    fn grant(self) {
        self.granted.store(true, Ordering::Release);
        self.thread.unpark();
    }
}

impl Turns {
    /// Turns for helpers beside the main thread: one fewer than the cores
    /// this process may use, at least one.
    pub(super) fn for_this_machine() -> Turns {
        let cores = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
        Turns::new(cores.saturating_sub(1).max(1))
    }

    /// `width` turns (at least one).
    pub(super) fn new(width: usize) -> Turns {
        Turns {
            waiting: AtomicUsize::new(0),
            state: Mutex::new(State {
                free: width.max(1),
                queue: VecDeque::new(),
                closed: false,
            }),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Waits for a turn; `false` once the turns are closed.
    pub(super) fn take(&self) -> bool {
        let granted = {
            let mut s = self.lock();
            if s.closed {
                return false;
            }
            if s.free > 0 {
                s.free -= 1;
                return true;
            }
            self.enqueue(&mut s)
        };
        self.wait(&granted)
    }

    /// Hands the turn held to the helper waiting longest, if any, and waits
    /// for the next one; `false` once the turns are closed.
    pub(super) fn pass(&self) -> bool {
        if self.waiting.load(Ordering::Relaxed) == 0 {
            return true;
        }
        let granted = {
            let mut s = self.lock();
            if s.closed {
                return false;
            }
            let Some(next) = self.dequeue(&mut s) else {
                return true;
            };
            next.grant();
            self.enqueue(&mut s)
        };
        self.wait(&granted)
    }

    /// Gives the turn held back for good.
    pub(super) fn give_back(&self) {
        let mut s = self.lock();
        match self.dequeue(&mut s) {
            Some(next) => next.grant(),
            None => s.free += 1,
        }
    }

    /// No more turns: every waiting helper returns, and so does any later
    /// [`take`](Self::take) or [`pass`](Self::pass).
    pub(super) fn close(&self) {
        let mut s = self.lock();
        s.closed = true;
        for w in s.queue.drain(..) {
            w.thread.unpark();
        }
        self.waiting.store(0, Ordering::Relaxed);
    }

    fn enqueue(&self, s: &mut State) -> Arc<AtomicBool> {
        let granted = Arc::new(AtomicBool::new(false));
        s.queue.push_back(Waiter {
            thread: std::thread::current(),
            granted: granted.clone(),
        });
        self.waiting.store(s.queue.len(), Ordering::Relaxed);
        granted
    }

    fn dequeue(&self, s: &mut State) -> Option<Waiter> {
        let next = s.queue.pop_front();
        self.waiting.store(s.queue.len(), Ordering::Relaxed);
        next
    }

    /// Sleeps until granted a turn (`true`) or closed (`false`).
    fn wait(&self, granted: &AtomicBool) -> bool {
        loop {
            if granted.load(Ordering::Acquire) {
                return true;
            }
            if self.lock().closed {
                return false;
            }
            // A grant or a close after the checks above leaves its unpark
            // token, so this returns at once.
            std::thread::park();
        }
    }
}

/// A turn held, given back when dropped.
pub(super) struct Turn<'a>(pub(super) &'a Turns);

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        self.0.give_back();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU64;

    #[test]
    fn never_more_than_width_at_once_and_everyone_gets_turns() {
        let turns = Turns::new(2);
        let inside = AtomicUsize::new(0);
        let most = AtomicUsize::new(0);
        let slices = AtomicU64::new(0);
        std::thread::scope(|s| {
            for _ in 0..8 {
                s.spawn(|| {
                    assert!(turns.take());
                    let _turn = Turn(&turns);
                    for _ in 0..50 {
                        let n = inside.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(n, Ordering::SeqCst);
                        slices.fetch_add(1, Ordering::SeqCst);
                        inside.fetch_sub(1, Ordering::SeqCst);
                        assert!(turns.pass());
                    }
                });
            }
        });
        assert_eq!(slices.load(Ordering::SeqCst), 8 * 50);
        assert!(most.load(Ordering::SeqCst) <= 2);
        assert_eq!(turns.lock().free, 2);
    }

    #[test]
    fn closing_releases_the_waiters() {
        let turns = Turns::new(1);
        assert!(turns.take());
        std::thread::scope(|s| {
            let waiters: Vec<_> = (0..4).map(|_| s.spawn(|| turns.take())).collect();
            while turns.waiting.load(Ordering::SeqCst) < 4 {
                std::thread::yield_now();
            }
            turns.close();
            for w in waiters {
                assert!(!w.join().unwrap());
            }
        });
        assert!(!turns.take());
    }
}
