//! The transposition table: shared by all search threads without locks.
//!
//! Each entry is two `AtomicU64` words, the key XOR the data and the data,
//! so a torn read (one word from another writer) fails the key check
//! instead of returning garbage. Buckets of four entries fill a cache line.

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};

use super::params::{TT_AGE_WEIGHT, TT_KEEP_DEEPER};

/// The evaluation stored for a node that had none (in check).
pub const NO_EVAL: i32 = i16::MIN as i32;

/// What a stored value bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The value is a lower bound (fail high).
    Lower = 1,
    /// The value is an upper bound (fail low).
    Upper = 2,
    /// The value is exact.
    Exact = 3,
}

impl Bound {
    /// Whether a stored value `v` with this bound settles a search of the
    /// window (`alpha`, `beta`).
    #[inline]
    pub fn cuts(self, v: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => v >= beta,
            Bound::Upper => v <= alpha,
        }
    }

    /// Whether a searched value `v` with this bound says more of the
    /// position than the static evaluation `eval`: exact, or a bound on
    /// the far side of `eval`.
    #[inline]
    pub fn informs(self, v: i32, eval: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => v > eval,
            Bound::Upper => v < eval,
        }
    }
}

/// A probe's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtHit {
    /// The best action's code (0 for none).
    pub action: u16,
    /// The value, node-relative (see the search's score adjustment).
    pub value: i32,
    /// The static evaluation stored with it (clamped to 16 bits).
    pub eval: i16,
    /// The depth it was searched to.
    pub depth: i32,
    /// The bound.
    pub bound: Bound,
}

#[derive(Default)]
struct Entry {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

const BUCKET: usize = 4;

/// Four entries on one cache line: aligned to it, so that a probe reads
/// one line (the one [`Tt::prefetch`] asks for), not parts of two.
#[derive(Default)]
#[repr(C, align(64))]
struct Bucket([Entry; BUCKET]);

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

/// The table.
pub struct Tt {
    buckets: Vec<Bucket>,
    mask: usize,
    generation: AtomicU8,
}

impl std::fmt::Debug for Tt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tt({} entries)", self.buckets.len() * BUCKET)
    }
}

// data layout: action 16 | value 32 | depth 8 | bound 2 | generation 6
// The static eval shares the key word's spare bits: the key check uses the
// upper 48 bits, and the low 16 bits of the first word hold the eval.
#[inline]
fn pack(action: u16, value: i32, depth: i32, bound: Bound, generation: u8) -> u64 {
    u64::from(action)
        | (u64::from(value as u32) << 16)
        | (u64::from(depth.clamp(-1, 127) as i8 as u8) << 48)
        | ((bound as u64) << 56)
        | (u64::from(generation & 63) << 58)
}

const KEY_MASK: u64 = !0xffff;

impl Tt {
    /// A table of about `mb` mebibytes (at least one bucket); a tiny table
    /// if that much memory cannot be had.
    pub fn new(mb: usize) -> Tt {
        Tt::try_new(mb).unwrap_or_else(|_| Tt::with_buckets(4))
    }

    /// A table of about `mb` mebibytes.
    ///
    /// # Errors
    ///
    /// A message when the memory cannot be reserved.
    pub fn try_new(mb: usize) -> Result<Tt, String> {
        Tt::try_new_until(mb, &AtomicBool::new(false))
    }

    /// A table of about `mb` mebibytes, filled a slice at a time so that
    /// another thread can stop a long allocation.
    ///
    /// # Errors
    ///
    /// A message when the memory cannot be reserved, or when `stop` was set
    /// before the table was ready.
    pub fn try_new_until(mb: usize, stop: &AtomicBool) -> Result<Tt, String> {
        let bytes = mb.clamp(1, 1 << 30).saturating_mul(1 << 20);
        let n = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let len = if n.is_power_of_two() {
            n
        } else {
            n.next_power_of_two() / 2
        };
        let mut buckets: Vec<Bucket> = Vec::new();
        buckets
            .try_reserve_exact(len)
            .map_err(|_| format!("cannot allocate {mb} MiB for the hash table"))?;
        super::prefetch::advise_huge_pages(&buckets);
        // Slices of 16 MiB: writing them is what takes the time.
        const SLICE: usize = 1 << 18;
        while buckets.len() < len {
            if stop.load(Ordering::Relaxed) {
                return Err(format!(
                    "stopped while allocating {mb} MiB for the hash table"
                ));
            }
            let n = (len - buckets.len()).min(SLICE);
            buckets.resize_with(buckets.len() + n, Bucket::default);
        }
        Ok(Tt {
            buckets,
            mask: len - 1,
            generation: AtomicU8::new(0),
        })
    }

    fn with_buckets(len: usize) -> Tt {
        let mut buckets = Vec::with_capacity(len);
        buckets.resize_with(len, Bucket::default);
        Tt {
            buckets,
            mask: len - 1,
            generation: AtomicU8::new(0),
        }
    }

    /// Every entry, bucket by bucket.
    fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.buckets.iter().flat_map(|b| &b.0)
    }

    /// Size in mebibytes.
    pub fn size_mb(&self) -> usize {
        (self.buckets.len() * std::mem::size_of::<Bucket>()) >> 20
    }

    /// Empties the table.
    pub fn clear(&self) {
        for e in self.entries() {
            e.key_xor_data.store(0, Ordering::Relaxed);
            e.data.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: entries from older searches become replaceable.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    /// The bucket of `key`.
    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        &self.buckets[(key as usize) & self.mask]
    }

    /// Asks the processor to fetch `key`'s bucket into its caches, so
    /// that a probe soon after finds it there (a hint: nothing is read).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        super::prefetch::prefetch(self.bucket(key));
    }

    /// Looks up `key`.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        for e in &self.bucket(key).0 {
            let data = e.data.load(Ordering::Relaxed);
            let k = e.key_xor_data.load(Ordering::Relaxed) ^ data;
            if data != 0 && (k & KEY_MASK) == (key & KEY_MASK) {
                let bound = match (data >> 56) & 3 {
                    1 => Bound::Lower,
                    2 => Bound::Upper,
                    3 => Bound::Exact,
                    _ => return None,
                };
                return Some(TtHit {
                    action: data as u16,
                    value: (data >> 16) as u32 as i32,
                    eval: (k & 0xffff) as u16 as i16,
                    depth: i32::from((data >> 48) as u8 as i8),
                    bound,
                });
            }
        }
        None
    }

    /// Stores a result, replacing the entry of the same key, else the
    /// shallowest or oldest entry of the bucket.
    #[inline]
    pub fn store(&self, key: u64, action: u16, value: i32, eval: i32, depth: i32, bound: Bound) {
        let generation = self.generation.load(Ordering::Relaxed) & 63;
        let bucket = self.bucket(key);
        let mut victim = &bucket.0[0];
        let mut worst = i32::MAX;
        for e in &bucket.0 {
            let data = e.data.load(Ordering::Relaxed);
            let k = e.key_xor_data.load(Ordering::Relaxed) ^ data;
            if data == 0 || (k & KEY_MASK) == (key & KEY_MASK) {
                // Keep a known best action when the new result has none.
                let action = if action == 0 && data != 0 {
                    data as u16
                } else {
                    action
                };
                if data != 0 && bound != Bound::Exact {
                    let old_depth = i32::from((data >> 48) as u8 as i8);
                    let old_gen = ((data >> 58) & 63) as u8;
                    if old_gen == generation && old_depth > depth + TT_KEEP_DEEPER {
                        return;
                    }
                }
                write(e, key, action, value, eval, depth, bound, generation);
                return;
            }
            let age = i32::from(generation.wrapping_sub(((data >> 58) & 63) as u8) & 63);
            let score = i32::from((data >> 48) as u8 as i8) - TT_AGE_WEIGHT * age;
            if score < worst {
                worst = score;
                victim = e;
            }
        }
        write(victim, key, action, value, eval, depth, bound, generation);
    }

    /// Per-mille of entries used by the current search (sampled).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed) & 63;
        let n = (self.buckets.len() * BUCKET).min(1000);
        let used = self
            .entries()
            .take(n)
            .filter(|e| {
                let d = e.data.load(Ordering::Relaxed);
                d != 0 && ((d >> 58) & 63) as u8 == generation
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

/// Writes a result into entry `e`.
#[allow(clippy::too_many_arguments)]
#[inline]
fn write(
    e: &Entry,
    key: u64,
    action: u16,
    value: i32,
    eval: i32,
    depth: i32,
    bound: Bound,
    generation: u8,
) {
    let data = pack(action, value, depth, bound, generation);
    let ev = u64::from(eval.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16 as u16);
    e.key_xor_data
        .store(((key & KEY_MASK) | ev) ^ data, Ordering::Relaxed);
    e.data.store(data, Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bound_informs_only_on_the_far_side_of_the_evaluation() {
        assert!(Bound::Exact.informs(10, 10));
        assert!(Bound::Lower.informs(11, 10));
        assert!(!Bound::Lower.informs(10, 10));
        assert!(!Bound::Lower.informs(9, 10));
        assert!(Bound::Upper.informs(9, 10));
        assert!(!Bound::Upper.informs(10, 10));
        assert!(!Bound::Upper.informs(11, 10));
    }

    #[test]
    fn store_and_probe() {
        let tt = Tt::new(1);
        let key = 0x1234_5678_9abc_def0;
        assert!(tt.probe(key).is_none());
        tt.store(key, 77, -1_000_000_000, -35, 9, Bound::Exact);
        let hit = tt.probe(key).unwrap();
        assert_eq!(hit.action, 77);
        assert_eq!(hit.value, -1_000_000_000);
        assert_eq!(hit.eval, -35);
        assert_eq!(hit.depth, 9);
        assert_eq!(hit.bound, Bound::Exact);
        assert!(tt.probe(key ^ (1 << 40)).is_none());
        tt.clear();
        assert!(tt.probe(key).is_none());
    }

    #[test]
    fn impossible_size_is_an_error() {
        assert!(Tt::try_new(usize::MAX >> 10).is_err());
        assert!(Tt::new(usize::MAX >> 10).size_mb() <= 1);
    }

    #[test]
    fn a_stopped_allocation_is_an_error() {
        let e = Tt::try_new_until(64, &AtomicBool::new(true)).unwrap_err();
        assert_eq!(e, "stopped while allocating 64 MiB for the hash table");
        assert_eq!(
            Tt::try_new_until(64, &AtomicBool::new(false)).map(|t| t.size_mb()),
            Ok(64)
        );
    }

    #[test]
    fn sizes() {
        assert_eq!(Tt::new(16).size_mb(), 16);
        assert!(Tt::new(3).size_mb() <= 3);
    }
}
