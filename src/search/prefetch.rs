//! Memory hints: the one module of Tally that uses `unsafe`.
//!
//! Two hints, neither of which changes a value the program can see: a cache
//! prefetch of a table entry, and huge pages for a large table.
//!
//! ## Prefetch
//!
//! A transposition-table probe is a read from a random place in a table far
//! larger than the processor's caches, so it usually waits for memory.
//! Asking for the entry's cache line as soon as a move is made, before the
//! child node's other work, hides most of that wait: a chess search of 1.5M
//! nodes took about 5 % less CPU time with it (with the one-pass picks
//! beside it), node for node the same search.
//!
//! The standard library offers no safe prefetch: `_mm_prefetch` is an
//! intrinsic that Rust marks `unsafe` unless the calling function enables
//! SSE by attribute. A prefetch never reads or writes memory as far as the
//! program can tell: it is a hint that cannot fault, whatever the address.
//!
//! ## Huge pages
//!
//! The probes of a table of 16 MiB or more land on a different 4 KiB page
//! almost every time, so each one also misses the processor's address
//! translation cache and waits for a page walk, which the prefetch above
//! cannot hide (the prefetch itself waits for it). With 2 MiB pages the
//! same table needs a five-hundredth of the translations. Linux gives a
//! mapping huge pages when asked by `madvise(MADV_HUGEPAGE)` (the default
//! setting of transparent huge pages is "madvise"), before its memory is
//! first written; elsewhere the hint does nothing.
#![allow(unsafe_code)]

/// Asks the processor to bring the cache line of `item` into its caches.
/// A hint only: it changes no value, and does nothing off x86-64.
#[inline(always)]
pub fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let p: *const T = item;
        // SAFETY: prefetching is a hint with no effect on memory or on the
        // program's state, and cannot fault; `p` comes from a reference,
        // so it is a valid address besides.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(p.cast()) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}

/// The size of a huge page on x86-64 and most 64-bit Arm Linux systems.
#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 << 20;

/// Asks the kernel to back the whole huge pages inside the memory of `v`'s
/// reserved capacity with huge pages. Call it before the memory is first
/// written. A hint only: if the kernel declines, nothing changes.
pub fn advise_huge_pages<T>(v: &Vec<T>) {
    #[cfg(target_os = "linux")]
    {
        let start = v.as_ptr() as usize;
        let end = start + v.capacity() * std::mem::size_of::<T>();
        let first = start.next_multiple_of(HUGE_PAGE);
        let last = end - end % HUGE_PAGE;
        if last > first {
            // SAFETY: the range [first, last) lies inside the allocation
            // that `v` owns, and MADV_HUGEPAGE changes how the kernel backs
            // those pages, never their contents; the result is ignored
            // because a refused hint leaves the memory as it was.
            unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    last - first,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = v;
}
