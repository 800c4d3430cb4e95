//! [`Accumulator`]: the hidden layer's sums for both perspectives, built
//! from a board ([`Accumulator::refresh`]) or carried from a parent
//! position through the pieces a move changed ([`Accumulator::update`]).
//!
//! A move changes few features: a quiet move removes one and adds one, a
//! capture removes two, a promotion removes the pawn and adds the new
//! piece, castling moves two pieces, en passant removes a pawn off the
//! destination square, and extinction's king captures are captures like
//! any other. [`Accumulator::update`] finds them all the same way, by
//! comparing the two boards (the squares where a role's or white's set
//! differs, then the piece on each before and after), so no move kind can
//! be forgotten; it refreshes when more than [`MAX_DELTA`] features change
//! (no move does).
//!
//! In a net of king buckets ([`super::kings`]) a perspective whose king
//! changes bucket or mirror side reads other rows for every piece: that
//! perspective is rebuilt, from a [`RefreshCache`] where the search keeps
//! one (the cached sums of its last board with that key, plus the pieces
//! that differ), from its pieces otherwise; the other perspective is
//! updated as usual.
//!
//! Every loop runs over the net's [`chunks`](Network::chunks) of
//! [`LANES`] neurons, each a fixed-size loop that the compiler vectorises;
//! the count is a constant in the copies made for nets of 128, 256 and
//! 512 neurons (so that the compiler unrolls them, as it did when 128 was
//! the build's width), the net's at run time for any other width.

use arrayvec::ArrayVec;
use shakmaty::{Board, Color, Piece, Role, Square};

use super::{
    KingKey, Kings, LANES, Lanes, Network, RefreshCache, by_chunks, count, feature, feature_row,
};
use crate::simd::multiversion;

/// The most features added (or removed) that [`Accumulator::update`]
/// applies as changes; beyond, it refreshes.
pub const MAX_DELTA: usize = 4;

/// The hidden layer's sums (times `QA`): the net's
/// [`chunks`](Network::chunks) of [`LANES`] neurons per perspective, in
/// the order of `Color as usize`. The neurons beyond the net's width hold
/// zero.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Accumulator {
    v: Vec<Lanes>,
}

// The row operations below run over `C` chunks (see `count`): a constant
// for the widths of 128, 256 and 512 neurons, whose loops the compiler
// unrolls, the rows' length otherwise. Each chunk is a fixed-size loop the
// compiler vectorises; it computes into a local array, stored whole, so
// that the compiler need not check at run time whether the sums overlap
// the rows (they never do, but the sums live on the heap, where it cannot
// tell).

/// `acc += row` (wrapping: the loader's bounds keep real positions exact).
#[inline(always)]
pub(super) fn add_row<const C: usize>(acc: &mut [Lanes], row: &[Lanes]) {
    let n = count::<C>(acc.len());
    for (a, r) in acc[..n].iter_mut().zip(&row[..n]) {
        let mut t = *a;
        for i in 0..LANES {
            t[i] = t[i].wrapping_add(r[i]);
        }
        *a = t;
    }
}

/// `acc -= row`.
#[inline(always)]
pub(super) fn sub_row<const C: usize>(acc: &mut [Lanes], row: &[Lanes]) {
    let n = count::<C>(acc.len());
    for (a, r) in acc[..n].iter_mut().zip(&row[..n]) {
        let mut t = *a;
        for i in 0..LANES {
            t[i] = t[i].wrapping_sub(r[i]);
        }
        *a = t;
    }
}

/// `acc = parent + add - sub`, one pass (a quiet move).
#[inline(always)]
fn add_sub<const C: usize>(acc: &mut [Lanes], parent: &[Lanes], add: &[Lanes], sub: &[Lanes]) {
    let n = count::<C>(acc.len());
    let rows = parent[..n].iter().zip(&add[..n]).zip(&sub[..n]);
    for (a, ((p, x), s)) in acc[..n].iter_mut().zip(rows) {
        let mut t = [0; LANES];
        for i in 0..LANES {
            t[i] = p[i].wrapping_add(x[i]).wrapping_sub(s[i]);
        }
        *a = t;
    }
}

/// `acc = parent + add - sub - sub2`, one pass (a capture).
#[inline(always)]
fn add_sub_sub<const C: usize>(
    acc: &mut [Lanes],
    parent: &[Lanes],
    add: &[Lanes],
    sub: &[Lanes],
    sub2: &[Lanes],
) {
    let n = count::<C>(acc.len());
    let rows = parent[..n]
        .iter()
        .zip(&add[..n])
        .zip(&sub[..n])
        .zip(&sub2[..n]);
    for (a, (((p, x), s), s2)) in acc[..n].iter_mut().zip(rows) {
        let mut t = [0; LANES];
        for i in 0..LANES {
            t[i] = p[i]
                .wrapping_add(x[i])
                .wrapping_sub(s[i])
                .wrapping_sub(s2[i]);
        }
        *a = t;
    }
}

/// The pieces a move changed between two boards: `(added, removed)`, or
/// `None` when more than [`MAX_DELTA`] of either changed.
pub type Delta = (
    ArrayVec<(Piece, Square), MAX_DELTA>,
    ArrayVec<(Piece, Square), MAX_DELTA>,
);

/// The pieces that differ between `before` and `after`, square by square
/// (a square differs where a role's or white's set does).
#[inline]
pub fn delta(before: &Board, after: &Board) -> Option<Delta> {
    let mut added = ArrayVec::new();
    let mut removed = ArrayVec::new();
    let changed = Role::ALL
        .iter()
        .fold(before.white() ^ after.white(), |c, &role| {
            c | (before.by_role(role) ^ after.by_role(role))
        });
    for sq in changed {
        if let Some(piece) = before.piece_at(sq) {
            removed.try_push((piece, sq)).ok()?;
        }
        if let Some(piece) = after.piece_at(sq) {
            added.try_push((piece, sq)).ok()?;
        }
    }
    Some((added, removed))
}

/// Sets `out` to the sums of `persp` reading `key` on `board`: the biases
/// plus the row of every piece.
pub(super) fn refresh_side(
    net: &Network,
    persp: Color,
    key: KingKey,
    board: &Board,
    out: &mut [Lanes],
) {
    out.copy_from_slice(net.padded_bias());
    for (sq, piece) in board.iter() {
        add_row::<0>(out, net.row(feature_row(persp, key, piece, sq)));
    }
}

impl Accumulator {
    /// The sums of one perspective: the net's
    /// [`stride`](Network::stride) neurons (empty in an accumulator of no
    /// net, [`Accumulator::default`]).
    #[inline]
    pub fn side(&self, persp: Color) -> &[i16] {
        self.chunks(persp).as_flattened()
    }

    /// Both perspectives' sums in chunks of [`LANES`], in the order of
    /// `Color as usize` (Black's first, as shakmaty numbers the colours).
    #[inline]
    pub(super) fn all_chunks(&self) -> &[Lanes] {
        &self.v
    }

    /// The sums of one perspective in chunks of [`LANES`].
    #[inline]
    pub(super) fn chunks(&self, persp: Color) -> &[Lanes] {
        self.chunks_in::<0>(persp)
    }

    /// [`Accumulator::chunks`] of an accumulator of `C` chunks a side
    /// ([`count`]).
    #[inline(always)]
    fn chunks_in<const C: usize>(&self, persp: Color) -> &[Lanes] {
        let k = count::<C>(self.v.len() / 2);
        &self.v[persp as usize * k..(persp as usize + 1) * k]
    }

    /// The sums of one perspective, to write.
    #[inline]
    fn chunks_mut(&mut self, persp: Color) -> &mut [Lanes] {
        self.chunks_mut_in::<0>(persp)
    }

    /// [`Accumulator::chunks_mut`] of an accumulator of `C` chunks a side.
    #[inline(always)]
    fn chunks_mut_in<const C: usize>(&mut self, persp: Color) -> &mut [Lanes] {
        let k = count::<C>(self.v.len() / 2);
        &mut self.v[persp as usize * k..(persp as usize + 1) * k]
    }

    /// Sizes the sums for `net` (a no-op once they are).
    #[inline]
    fn fit(&mut self, net: &Network) {
        let len = 2 * net.chunks();
        if self.v.len() != len {
            self.v.clear();
            self.v.resize(len, [0; LANES]);
        }
    }

    /// The accumulators of `board`: the biases plus the row of every
    /// piece, for both perspectives.
    pub fn refresh(net: &Network, board: &Board) -> Accumulator {
        let mut acc = Accumulator::default();
        acc.fit(net);
        for persp in Color::ALL {
            let key = net.king_key(persp, board);
            refresh_side(net, persp, key, board, acc.chunks_mut(persp));
        }
        acc
    }

    /// Sets `self` to the accumulators of `after`, from `parent`, the
    /// accumulators of `before` (a move, a special action or a null move
    /// apart): the parent's sums with the changed pieces added and
    /// removed. A perspective whose king changed bucket or side is summed
    /// afresh ([`Accumulator::update_cached`] takes it from a cache).
    #[inline]
    pub fn update(&mut self, net: &Network, parent: &Accumulator, before: &Board, after: &Board) {
        update(self, net, parent, before, after, None);
    }

    /// [`Accumulator::update`], a perspective whose king changed bucket or
    /// side rebuilt from `cache` ([`RefreshCache::refresh`]): the same
    /// sums.
    #[inline]
    pub fn update_cached(
        &mut self,
        net: &Network,
        parent: &Accumulator,
        before: &Board,
        after: &Board,
        cache: &mut RefreshCache,
    ) {
        update(self, net, parent, before, after, Some(cache));
    }
}

/// Brings `acc` from `base` by the pieces `added` and `removed`, whose rows
/// `rows` gives.
#[inline(always)]
fn apply<'a, const C: usize>(
    acc: &mut [Lanes],
    base: &[Lanes],
    (added, removed): &Delta,
    rows: impl Fn((Piece, Square)) -> &'a [Lanes],
) {
    match (added.as_slice(), removed.as_slice()) {
        (&[a], &[r, r2]) => {
            add_sub_sub::<C>(acc, base, rows(a), rows(r), rows(r2));
        }
        (&[a, ..], &[r, ..]) => {
            add_sub::<C>(acc, base, rows(a), rows(r));
            for &a in &added[1..] {
                add_row::<C>(acc, rows(a));
            }
            for &r in &removed[1..] {
                sub_row::<C>(acc, rows(r));
            }
        }
        _ => {
            acc.copy_from_slice(base);
            for &a in added {
                add_row::<C>(acc, rows(a));
            }
            for &r in removed {
                sub_row::<C>(acc, rows(r));
            }
        }
    }
}

/// [`update`] over `C` chunks ([`count`]).
#[inline(always)]
fn update_in<const C: usize>(
    child: &mut Accumulator,
    net: &Network,
    parent: &Accumulator,
    before: &Board,
    after: &Board,
    mut cache: Option<&mut RefreshCache>,
) {
    let Some(delta) = delta(before, after) else {
        *child = Accumulator::refresh(net, after);
        return;
    };
    child.fit(net);
    if net.kings() == Kings::Plain {
        for persp in Color::ALL {
            let rows = |(piece, sq): (Piece, Square)| net.row_in::<C>(feature(persp, piece, sq));
            let (acc, base) = (
                child.chunks_mut_in::<C>(persp),
                parent.chunks_in::<C>(persp),
            );
            apply::<C>(acc, base, &delta, rows);
        }
        return;
    }
    for persp in Color::ALL {
        let key = net.king_key(persp, after);
        if key != net.king_key(persp, before) {
            let out = child.chunks_mut(persp);
            match cache.as_deref_mut() {
                Some(c) => c.refresh_chunks(net, persp, key, after, out),
                None => refresh_side(net, persp, key, after, out),
            }
            continue;
        }
        let rows =
            |(piece, sq): (Piece, Square)| net.row_in::<C>(feature_row(persp, key, piece, sq));
        let (acc, base) = (
            child.chunks_mut_in::<C>(persp),
            parent.chunks_in::<C>(persp),
        );
        apply::<C>(acc, base, &delta, rows);
    }
}

multiversion! {
    /// [`Accumulator::update`] and [`Accumulator::update_cached`].
    fn update(
        child: &mut Accumulator,
        net: &Network,
        parent: &Accumulator,
        before: &Board,
        after: &Board,
        cache: Option<&mut RefreshCache>,
    ) {
        by_chunks!(net.chunks(), update_in(child, net, parent, before, after, cache))
    }
}
