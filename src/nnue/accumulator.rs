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

use arrayvec::ArrayVec;
use shakmaty::{Board, Color, Piece, Role, Square};

use super::{HIDDEN, Network, feature};
use crate::simd::multiversion;

/// The most features added (or removed) that [`Accumulator::update`]
/// applies as changes; beyond, it refreshes.
pub const MAX_DELTA: usize = 4;

/// The hidden layer's sums (times `QA`): one row of [`HIDDEN`] per
/// perspective, indexed by colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    v: [[i16; HIDDEN]; 2],
}

impl Default for Accumulator {
    fn default() -> Accumulator {
        Accumulator {
            v: [[0; HIDDEN]; 2],
        }
    }
}

/// `acc += row` (wrapping: the loader's bounds keep real positions exact).
#[inline]
fn add_row(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for i in 0..HIDDEN {
        acc[i] = acc[i].wrapping_add(row[i]);
    }
}

/// `acc -= row`.
#[inline]
fn sub_row(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for i in 0..HIDDEN {
        acc[i] = acc[i].wrapping_sub(row[i]);
    }
}

/// `acc = parent + add - sub`, one pass (a quiet move).
#[inline]
fn add_sub(
    acc: &mut [i16; HIDDEN],
    parent: &[i16; HIDDEN],
    add: &[i16; HIDDEN],
    sub: &[i16; HIDDEN],
) {
    for i in 0..HIDDEN {
        acc[i] = parent[i].wrapping_add(add[i]).wrapping_sub(sub[i]);
    }
}

/// `acc = parent + add - sub - sub2`, one pass (a capture).
#[inline]
fn add_sub_sub(
    acc: &mut [i16; HIDDEN],
    parent: &[i16; HIDDEN],
    add: &[i16; HIDDEN],
    sub: &[i16; HIDDEN],
    sub2: &[i16; HIDDEN],
) {
    for i in 0..HIDDEN {
        acc[i] = parent[i]
            .wrapping_add(add[i])
            .wrapping_sub(sub[i])
            .wrapping_sub(sub2[i]);
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

impl Accumulator {
    /// The sums of one perspective.
    #[inline]
    pub fn side(&self, persp: Color) -> &[i16; HIDDEN] {
        &self.v[persp as usize]
    }

    /// The accumulators of `board`: the biases plus the row of every
    /// piece, for both perspectives.
    pub fn refresh(net: &Network, board: &Board) -> Accumulator {
        let mut acc = Accumulator {
            v: [*net.feature_bias(); 2],
        };
        for (sq, piece) in board.iter() {
            acc.add_piece(net, piece, sq);
        }
        acc
    }

    /// Adds `piece` on `sq` (both perspectives).
    #[inline]
    pub fn add_piece(&mut self, net: &Network, piece: Piece, sq: Square) {
        for persp in Color::ALL {
            add_row(
                &mut self.v[persp as usize],
                &net.feature_weights()[feature(persp, piece, sq)],
            );
        }
    }

    /// Removes `piece` from `sq` (both perspectives).
    #[inline]
    pub fn remove_piece(&mut self, net: &Network, piece: Piece, sq: Square) {
        for persp in Color::ALL {
            sub_row(
                &mut self.v[persp as usize],
                &net.feature_weights()[feature(persp, piece, sq)],
            );
        }
    }

    /// Sets `self` to the accumulators of `after`, from `parent`, the
    /// accumulators of `before` (a move, a special action or a null move
    /// apart): the parent's sums with the changed pieces added and
    /// removed.
    #[inline]
    pub fn update(&mut self, net: &Network, parent: &Accumulator, before: &Board, after: &Board) {
        update(self, net, parent, before, after);
    }
}

multiversion! {
    /// [`Accumulator::update`].
    fn update(
        child: &mut Accumulator,
        net: &Network,
        parent: &Accumulator,
        before: &Board,
        after: &Board,
    ) {
        let Some((added, removed)) = delta(before, after) else {
            *child = Accumulator::refresh(net, after);
            return;
        };
        let rows = |persp: Color, (piece, sq): (Piece, Square)| {
            &net.feature_weights()[feature(persp, piece, sq)]
        };
        for persp in Color::ALL {
            let i = persp as usize;
            let (acc, base) = (&mut child.v[i], &parent.v[i]);
            match (added.as_slice(), removed.as_slice()) {
                (&[a], &[r, r2]) => {
                    add_sub_sub(acc, base, rows(persp, a), rows(persp, r), rows(persp, r2));
                }
                (&[a, ..], &[r, ..]) => {
                    add_sub(acc, base, rows(persp, a), rows(persp, r));
                    for &a in &added[1..] {
                        add_row(acc, rows(persp, a));
                    }
                    for &r in &removed[1..] {
                        sub_row(acc, rows(persp, r));
                    }
                }
                _ => {
                    *acc = *base;
                    for &a in &added {
                        add_row(acc, rows(persp, a));
                    }
                    for &r in &removed {
                        sub_row(acc, rows(persp, r));
                    }
                }
            }
        }
    }
}
