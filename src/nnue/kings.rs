//! King buckets: which copy of the input weights a perspective reads, by
//! where its own king stands, and whether it reads the board mirrored
//! left-right ([`Kings`], [`KingKey`]).
//!
//! A net of king buckets has one block of [`FEATURES`](super::FEATURES)
//! input rows per bucket. For each perspective, its king's square (seen
//! from that side, so Black's is flipped vertically as its features are)
//! picks the block; when that king stands on files e to h the whole board
//! is read mirrored (files a ↔ h), so the king always stands on files a
//! to d and a layout covers only those 32 squares. The layouts are fixed
//! tables named by an id that the net file records (`format.rs`); each
//! finer one refines the coarser (every bucket of the 8 lies inside one
//! of the 4, every bucket of the 16 inside one of the 8), so a trainer can
//! start a finer net from a coarser one ([`Kings::parent`]).
//!
//! The layouts, for a king on files a to d (after the mirror), ranks seen
//! from its side; a cell is the bucket:
//!
//! ```text
//!            4 buckets      8 buckets      16 buckets
//!            a  b  c  d     a  b  c  d     a  b  c  d
//! rank 7-8   3  3  3  3     7  7  7  7     14 14 15 15
//! rank 5-6   3  3  3  3     7  7  7  7     12 12 13 13
//! rank 4     3  3  3  3     6  6  6  6     10 10 11 11
//! rank 3     3  3  3  3     6  6  6  6      8  8  9  9
//! rank 2     2  2  2  2     4  4  5  5      4  5  6  7
//! rank 1     0  0  1  1     0  1  2  3      0  1  2  3
//! ```
//!
//! Rank 1 is where kings spend most of a game (castled short on g1, read
//! as b1; castled long on c1; at home on e1, read as d1), so it is split
//! finest.
//!
//! **Extinction** may leave a side several kings (a pawn promotes to one)
//! or none (the side has lost). With several, the perspective reads the
//! king nearest its own back rank, and of those the one nearest the a-file
//! (the lowest square seen from its side); with none, bucket 0 unmirrored,
//! as for a king on a1. [`Kings::Plain`] is the net of one bucket without
//! the mirror: every net before king buckets.

use shakmaty::{Bitboard, Board, Color, File, Square};

/// The king-bucket layout of a net (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Kings {
    /// One bucket, no mirror: the input weights of every net before king
    /// buckets.
    #[default]
    Plain,
    /// Four buckets, mirrored: rank 1 in two halves, rank 2, the rest.
    Four,
    /// Eight buckets, mirrored: rank 1 by file, rank 2 in halves, ranks
    /// 3-4, ranks 5-8.
    Eight,
    /// Sixteen buckets, mirrored: ranks 1 and 2 by file, ranks 3, 4, 5-6
    /// and 7-8 in halves.
    Sixteen,
}

/// The most king buckets a layout has.
pub const MAX_KING_BUCKETS: usize = 16;

/// The half-board tables: index `rank · 4 + file` (file a to d), from
/// the king's side.
const FOUR: [u8; 32] = {
    let mut t = [3u8; 32];
    t[0] = 0;
    t[1] = 0;
    t[2] = 1;
    t[3] = 1;
    t[4] = 2;
    t[5] = 2;
    t[6] = 2;
    t[7] = 2;
    t
};

const EIGHT: [u8; 32] = {
    let mut t = [0u8; 32];
    let mut i = 0;
    while i < 32 {
        let (rank, file) = (i / 4, i % 4);
        t[i] = match rank {
            0 => file as u8,
            1 => 4 + (file / 2) as u8,
            2 | 3 => 6,
            _ => 7,
        };
        i += 1;
    }
    t
};

const SIXTEEN: [u8; 32] = {
    let mut t = [0u8; 32];
    let mut i = 0;
    while i < 32 {
        let (rank, file) = (i / 4, i % 4);
        let half = (file / 2) as u8;
        t[i] = match rank {
            0 => file as u8,
            1 => 4 + file as u8,
            2 => 8 + half,
            3 => 10 + half,
            4 | 5 => 12 + half,
            _ => 14 + half,
        };
        i += 1;
    }
    t
};

/// What a perspective reads: its king's bucket, and whether the board is
/// mirrored (its king on files e to h).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct KingKey {
    /// The bucket: the block of input rows.
    pub bucket: u8,
    /// Whether squares are read with files a ↔ h swapped.
    pub mirror: bool,
}

impl KingKey {
    /// The key of [`Kings::Plain`] and of a side without a king.
    pub const PLAIN: KingKey = KingKey {
        bucket: 0,
        mirror: false,
    };

    /// A dense index of the key (`bucket · 2 + mirror`), below
    /// `2 · buckets`.
    #[inline]
    pub fn index(self) -> usize {
        usize::from(self.bucket) * 2 + usize::from(self.mirror)
    }

    /// `sq` as this key reads it (mirrored or not).
    #[inline]
    pub fn square(self, sq: Square) -> Square {
        if self.mirror {
            sq.flip_horizontal()
        } else {
            sq
        }
    }
}

impl Kings {
    /// Every layout, by id.
    pub const ALL: [Kings; 4] = [Kings::Plain, Kings::Four, Kings::Eight, Kings::Sixteen];

    /// The layout's id in the net file.
    pub fn id(self) -> u8 {
        self as u8
    }

    /// The layout of an id, if there is one.
    pub fn from_id(id: u8) -> Option<Kings> {
        Kings::ALL.get(usize::from(id)).copied()
    }

    /// The layout of `count` buckets (1 is [`Kings::Plain`]), if there is
    /// one.
    pub fn of_count(count: usize) -> Option<Kings> {
        Kings::ALL.into_iter().find(|k| k.count() == count)
    }

    /// The number of buckets.
    pub const fn count(self) -> usize {
        match self {
            Kings::Plain => 1,
            Kings::Four => 4,
            Kings::Eight => 8,
            Kings::Sixteen => 16,
        }
    }

    /// Whether a king on files e to h mirrors the board.
    pub fn mirrored(self) -> bool {
        self != Kings::Plain
    }

    /// The table of the half-board, `None` for [`Kings::Plain`].
    fn table(self) -> Option<&'static [u8; 32]> {
        match self {
            Kings::Plain => None,
            Kings::Four => Some(&FOUR),
            Kings::Eight => Some(&EIGHT),
            Kings::Sixteen => Some(&SIXTEEN),
        }
    }

    /// The key of a king on `sq`, seen from its own side (rank 1 its back
    /// rank).
    #[inline]
    pub fn key_of_square(self, sq: Square) -> KingKey {
        let Some(table) = self.table() else {
            return KingKey::PLAIN;
        };
        let mirror = sq.file() >= File::E;
        let file = if mirror {
            7 - usize::from(sq.file())
        } else {
            usize::from(sq.file())
        };
        KingKey {
            bucket: table[usize::from(sq.rank()) * 4 + file],
            mirror,
        }
    }

    /// The key of `persp` on `board`: its king's (the lowest one seen from
    /// its side when it has several; [`KingKey::PLAIN`] when it has none).
    #[inline]
    pub fn key(self, persp: Color, board: &Board) -> KingKey {
        if self == Kings::Plain {
            return KingKey::PLAIN;
        }
        let ours: Bitboard = board.kings() & board.by_color(persp);
        let seen = if persp.is_white() {
            ours
        } else {
            ours.flip_vertical()
        };
        seen.first()
            .map_or(KingKey::PLAIN, |sq| self.key_of_square(sq))
    }

    /// The bucket of `coarse` that bucket `bucket` of this layout lies in,
    /// when this layout refines `coarse` (each of its buckets inside one
    /// of `coarse`'s, and both mirrored alike or `coarse` plain); `None`
    /// otherwise.
    pub fn parent(self, coarse: Kings, bucket: usize) -> Option<usize> {
        if coarse == Kings::Plain {
            return (bucket < self.count()).then_some(0);
        }
        if self == Kings::Plain {
            return None;
        }
        let mut found = None;
        for sq in Square::ALL.into_iter().filter(|s| s.file() < File::E) {
            if usize::from(self.key_of_square(sq).bucket) != bucket {
                continue;
            }
            let up = usize::from(coarse.key_of_square(sq).bucket);
            match found {
                None => found = Some(up),
                Some(f) if f == up => {}
                Some(_) => return None,
            }
        }
        found
    }

    /// Its name in `tally train --king-buckets` and in a net's description:
    /// the bucket count.
    pub fn name(self) -> String {
        self.count().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Piece, Rank, Role};

    #[test]
    fn every_layout_uses_each_of_its_buckets_and_the_finer_refine_the_coarser() {
        for k in Kings::ALL {
            let used: std::collections::BTreeSet<u8> = Square::ALL
                .into_iter()
                .map(|sq| k.key_of_square(sq).bucket)
                .collect();
            assert_eq!(used.len(), k.count(), "{k:?}");
            assert_eq!(used.last().copied(), Some(k.count() as u8 - 1));
            assert_eq!(Kings::from_id(k.id()), Some(k));
            assert_eq!(Kings::of_count(k.count()), Some(k));
            for b in 0..k.count() {
                assert_eq!(k.parent(Kings::Plain, b), Some(0));
                assert_eq!(k.parent(k, b), Some(b));
            }
        }
        assert_eq!(Kings::from_id(4), None);
        assert_eq!(Kings::of_count(2), None);
        // 16 inside 8 inside 4; never the other way.
        let parents = |fine: Kings, coarse: Kings| -> Option<Vec<usize>> {
            (0..fine.count()).map(|b| fine.parent(coarse, b)).collect()
        };
        assert_eq!(
            parents(Kings::Sixteen, Kings::Eight).unwrap(),
            [0, 1, 2, 3, 4, 4, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7]
        );
        assert_eq!(
            parents(Kings::Eight, Kings::Four).unwrap(),
            [0, 0, 1, 1, 2, 2, 3, 3]
        );
        assert!(parents(Kings::Sixteen, Kings::Four).is_some());
        assert_eq!(parents(Kings::Four, Kings::Eight), None);
        assert_eq!(parents(Kings::Plain, Kings::Four), None);
    }

    #[test]
    fn a_king_on_files_e_to_h_mirrors_and_black_sees_its_side() {
        let k = Kings::Eight;
        // e1 reads as d1 mirrored, g1 as b1, c1 as itself.
        assert_eq!(
            k.key_of_square(Square::E1),
            KingKey {
                bucket: 3,
                mirror: true
            }
        );
        assert_eq!(
            k.key_of_square(Square::G1),
            KingKey {
                bucket: 1,
                mirror: true
            }
        );
        assert_eq!(
            k.key_of_square(Square::C1),
            KingKey {
                bucket: 2,
                mirror: false
            }
        );
        let board = Board::new();
        // Both kings at home: each side's e1.
        assert_eq!(k.key(Color::White, &board), k.key_of_square(Square::E1));
        assert_eq!(k.key(Color::Black, &board), k.key_of_square(Square::E1));
        assert_eq!(Kings::Plain.key(Color::White, &board), KingKey::PLAIN);
        // Extinction: no king, or two (the one nearest the back rank, then
        // the a-file, from the side's own view).
        let mut b = Board::empty();
        assert_eq!(k.key(Color::White, &b), KingKey::PLAIN);
        let king = |color| Piece {
            color,
            role: Role::King,
        };
        b.set_piece_at(Square::G3, king(Color::White));
        b.set_piece_at(Square::B5, king(Color::White));
        b.set_piece_at(Square::H7, king(Color::Black));
        b.set_piece_at(Square::A2, king(Color::Black));
        assert_eq!(k.key(Color::White, &b), k.key_of_square(Square::G3));
        assert_eq!(k.key(Color::Black, &b), k.key_of_square(Square::H2));
        assert_eq!(
            Square::from_coords(File::H, Rank::Second),
            Square::H7.flip_vertical()
        );
    }
}
