//! [`RefreshCache`]: a search thread's accumulators by king key, so that a
//! king that changes bucket or mirror side costs the pieces that differ
//! from the last board seen with that key, not every piece (the table
//! strong engines call "Finny tables").
//!
//! Each entry holds one perspective's sums under one key
//! ([`KingKey`]) and the board they were computed for. To rebuild that
//! perspective on a new board, the entry is brought up to date by the
//! squares where any piece set differs between its board and the new one
//! (the rows of the pieces gone subtracted, of the pieces come added), and
//! copied out. An entry starts as the empty board, whose sums are the
//! biases; the cache is laid out afresh when it meets another net (by its
//! content hash and shape), so one cache serves any net without giving a
//! wrong sum.
//!
//! What does not live here: the incremental update of a move
//! ([`super::Accumulator::update_cached`] calls [`RefreshCache::refresh`]
//! when a king changes key).

use shakmaty::{Board, Color, Piece, Role};

use super::accumulator::{add_row, sub_row};
use super::{KingKey, Kings, Lanes, Network, feature_row};

/// One perspective's sums under one key, and the board they hold.
#[derive(Clone, Debug)]
struct Entry {
    sums: Vec<Lanes>,
    board: Board,
}

/// A thread's cache of accumulators by perspective and king key (see the
/// module documentation). [`RefreshCache::default`] is empty and lays
/// itself out for the first net it serves.
#[derive(Clone, Debug, Default)]
pub struct RefreshCache {
    /// The net the entries are of: its hash, layout and chunks.
    net: Option<(u64, Kings, usize)>,
    /// Perspective `p`'s entry for key `k` at `p · 2 · buckets +
    /// k.index()`.
    entries: Vec<Entry>,
}

impl RefreshCache {
    /// An empty cache.
    pub fn new() -> RefreshCache {
        RefreshCache::default()
    }

    /// Lays the cache out for `net` unless it already is: every entry the
    /// empty board, its sums the biases.
    fn serve(&mut self, net: &Network) {
        let id = (net.hash(), net.kings(), net.chunks());
        if self.net == Some(id) {
            return;
        }
        let entry = Entry {
            sums: net.padded_bias().to_vec(),
            board: Board::empty(),
        };
        self.entries = vec![entry; 2 * 2 * net.kings().count()];
        self.net = Some(id);
    }

    /// Sets `out` to the sums of `persp` reading `key` on `board`, from the
    /// entry of that key, which then holds `board`.
    ///
    /// # Panics
    ///
    /// When `key` is not one of the net's or `out` is not of its
    /// [`stride`](Network::stride).
    pub fn refresh(
        &mut self,
        net: &Network,
        persp: Color,
        key: KingKey,
        board: &Board,
        out: &mut [i16],
    ) {
        self.refresh_chunks(net, persp, key, board, out.as_chunks_mut().0);
    }

    /// [`RefreshCache::refresh`] into chunks.
    pub(super) fn refresh_chunks(
        &mut self,
        net: &Network,
        persp: Color,
        key: KingKey,
        board: &Board,
        out: &mut [Lanes],
    ) {
        self.serve(net);
        let per_side = 2 * net.kings().count();
        let entry = &mut self.entries[persp as usize * per_side + key.index()];
        for color in Color::ALL {
            for role in Role::ALL {
                let piece = Piece { color, role };
                let (was, is) = (entry.board.by_piece(piece), board.by_piece(piece));
                for sq in was & !is {
                    sub_row::<0>(&mut entry.sums, net.row(feature_row(persp, key, piece, sq)));
                }
                for sq in is & !was {
                    add_row::<0>(&mut entry.sums, net.row(feature_row(persp, key, piece, sq)));
                }
            }
        }
        entry.board = board.clone();
        out.copy_from_slice(&entry.sums);
    }
}
