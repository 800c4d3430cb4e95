//! The search's memory between moves: each search thread's move-ordering
//! and correction tables ([`Learnt`]) are kept by the engine after a
//! search and lent to the thread of the same number in the next one, as
//! strong engines keep their per-thread data alive from move to move; a
//! new game or variant forgets them.

use std::sync::{Mutex, MutexGuard, PoisonError};

use super::history::{Correction, History};

/// What one search thread learnt (its move-ordering and correction
/// tables), kept for its next search.
#[derive(Clone, Default)]
pub struct Learnt {
    /// The move-ordering tables.
    pub ordering: History,
    /// The correction tables.
    pub correction: Correction,
}

/// The engine's memory between searches: each search thread's `Learnt`
/// tables, by thread number, lent to a search and given back at its end,
/// so that what a search learns helps the next move's. A new game (or a
/// new variant) forgets it ([`Memory::clear`]).
#[derive(Default)]
pub struct Memory {
    threads: Vec<Mutex<Option<Learnt>>>,
}

impl std::fmt::Debug for Memory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Memory")
            .field("threads", &self.threads.len())
            .finish()
    }
}

impl Memory {
    /// A memory for up to `threads` threads, empty.
    pub fn new(threads: usize) -> Memory {
        Memory {
            threads: (0..threads).map(|_| Mutex::new(None)).collect(),
        }
    }

    fn slot(&self, id: usize) -> Option<MutexGuard<'_, Option<Learnt>>> {
        self.threads
            .get(id)
            .map(|m| m.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// Takes thread `id`'s tables (fresh ones when none are kept).
    pub fn take(&self, id: usize) -> Learnt {
        self.slot(id).and_then(|mut s| s.take()).unwrap_or_default()
    }

    /// Keeps thread `id`'s tables for its next search (dropped when the
    /// memory has no place for the thread).
    pub fn put(&self, id: usize, learnt: Learnt) {
        if let Some(mut s) = self.slot(id) {
            *s = Some(learnt);
        }
    }

    /// Forgets everything learnt.
    pub fn clear(&self) {
        for id in 0..self.threads.len() {
            if let Some(mut s) = self.slot(id) {
                *s = None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Board, Color};

    fn slots() -> crate::search::history::Slots {
        Correction::indices(Color::White, &Board::default())
    }

    fn marked(n: i32) -> Learnt {
        let mut l = Learnt::default();
        l.correction.update(slots(), n, 10);
        l
    }

    #[test]
    fn a_thread_gets_back_what_it_gave_until_cleared() {
        let m = Memory::new(2);
        assert_eq!(m.take(0).correction.get(slots()), 0);
        m.put(1, marked(500));
        let kept = m.take(1).correction.get(slots());
        assert!(kept > 0);
        // Taken, it is gone until given back.
        assert_eq!(m.take(1).correction.get(slots()), 0);
        m.put(1, marked(500));
        m.clear();
        assert_eq!(m.take(1).correction.get(slots()), 0);
        // A thread the memory has no place for keeps nothing.
        m.put(5, marked(500));
        assert_eq!(m.take(5).correction.get(slots()), 0);
    }
}
