//! Zobrist keys: shakmaty's piece, turn, castling and en-passant values, plus
//! our own for the variant state, updated incrementally on the hot path.

use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{CastlingSide, Color, Move, Square};

use super::extra::{Bare, Disk, Extra};
use super::pos::Pos;

/// The repetition key of a position from scratch: placement, side to move,
/// castling rights and the en-passant square as [`Pos::key_ep_square`]
/// counts it. The disk (tiebraker) is added by [`disk_key`].
pub fn position_key<P: Pos>(pos: &P) -> u64 {
    let mut k: u64 = 0;
    for (sq, piece) in pos.board().iter() {
        k ^= Zobrist64::zobrist_for_piece(sq, piece).0;
    }
    if pos.turn() == Color::White {
        k ^= Zobrist64::zobrist_for_white_turn().0;
    }
    for color in Color::ALL {
        for side in CastlingSide::ALL {
            if pos.castles().has(color, side) {
                k ^= Zobrist64::zobrist_for_castling_right(color, side).0;
            }
        }
    }
    if let Some(sq) = pos.key_ep_square() {
        k ^= Zobrist64::zobrist_for_en_passant_file(sq.file()).0;
    }
    k
}

/// Updates a position key for the move `m` played from `before` to `after`.
///
/// `before_ep` is the en-passant square that `before`'s key holds (its
/// [`Pos::key_ep_square`]); the function returns the new key and the new
/// en-passant square, so callers never compute one twice.
#[inline]
pub fn update_position_key<P: Pos>(
    key: u64,
    before: &P,
    before_ep: Option<Square>,
    m: Move,
    after: &P,
) -> (u64, Option<Square>) {
    let us = before.turn();
    let mut k = key ^ Zobrist64::zobrist_for_white_turn().0;
    let z = |sq: Square, p: shakmaty::Piece| Zobrist64::zobrist_for_piece(sq, p).0;
    match m {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => {
            k ^= z(from, role.of(us));
            k ^= z(to, promotion.unwrap_or(role).of(us));
            if let Some(c) = capture {
                k ^= z(to, c.of(!us));
            }
        }
        Move::EnPassant { from, to } => {
            k ^= z(from, us.pawn());
            k ^= z(to, us.pawn());
            k ^= z(Square::from_coords(to.file(), from.rank()), (!us).pawn());
        }
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_queen_side(rook < king);
            k ^= z(king, us.king());
            k ^= z(rook, us.rook());
            k ^= z(
                Square::from_coords(side.king_to_file(), king.rank()),
                us.king(),
            );
            k ^= z(
                Square::from_coords(side.rook_to_file(), rook.rank()),
                us.rook(),
            );
        }
        Move::Put { role, to } => {
            k ^= z(to, role.of(us));
        }
    }
    let (cb, ca) = (before.castles(), after.castles());
    if cb.castling_rights() != ca.castling_rights() {
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if cb.has(color, side) != ca.has(color, side) {
                    k ^= Zobrist64::zobrist_for_castling_right(color, side).0;
                }
            }
        }
    }
    if let Some(sq) = before_ep {
        k ^= Zobrist64::zobrist_for_en_passant_file(sq.file()).0;
    }
    let after_ep = if after.maybe_ep_square().is_some() {
        after.key_ep_square()
    } else {
        None
    };
    if let Some(sq) = after_ep {
        k ^= Zobrist64::zobrist_for_en_passant_file(sq.file()).0;
    }
    (k, after_ep)
}

/// The key of a null move's position (the other side to move, nothing
/// else changed but the en-passant square), from the key of the position
/// before, `key`, and the en-passant squares the two keys hold.
#[inline]
pub fn null_move_key(key: u64, before_ep: Option<Square>, after_ep: Option<Square>) -> u64 {
    let ep =
        |sq: Option<Square>| sq.map_or(0, |sq| Zobrist64::zobrist_for_en_passant_file(sq.file()).0);
    key ^ Zobrist64::zobrist_for_white_turn().0 ^ ep(before_ep) ^ ep(after_ep)
}

/// A fixed pseudo-random value for index `i` (SplitMix64), for the keys
/// shakmaty has no table for.
const fn mix(i: u64) -> u64 {
    let mut z = i
        .wrapping_add(0x9e37_79b9_7f4a_7c15)
        .wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The part of the repetition key that says whose king is a disk.
#[inline]
pub fn disk_key(disk: Disk) -> u64 {
    match disk.disk_holder() {
        None => 0,
        Some(Color::White) => mix(1),
        Some(Color::Black) => mix(2),
    }
}

/// The variant state that changes future legality or awards but is not part
/// of the repetition key: the disk phase and its window counter, and the
/// sets bare-king state. XOR it onto a repetition key for the search key.
#[inline]
pub fn extra_key(extra: &Extra) -> u64 {
    let disk = match extra.disk {
        Disk::None => 0,
        Disk::Offered { by } => mix(16 + by as u64),
        Disk::Accepted { disk } => mix(32 + disk as u64),
        Disk::Swapped { disk, plies } => mix(64 + 2 * u64::from(plies) + disk as u64),
        Disk::Restored { first } => mix(160 + first as u64),
    };
    let bare = match extra.bare {
        Bare::None => 0,
        Bare::Reply { barer } => mix(200 + barer as u64),
        Bare::Claim { barer } => mix(210 + barer as u64),
        Bare::Done => mix(220),
        Bare::Mutual { first } => mix(230 + first as u64),
        Bare::Claimed { barer } => mix(240 + barer as u64),
    };
    disk ^ bare
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::pos::{chess, extinction};
    use shakmaty::Position;

    fn check_incremental<P: Pos>(start: P, depth: u32) {
        let key = position_key(&start);
        let ep = start.key_ep_square();
        walk(&start, key, ep, depth);
        fn walk<P: Pos>(pos: &P, key: u64, ep: Option<Square>, depth: u32) {
            assert_eq!(key, position_key(pos), "{}", pos.fen());
            if depth == 0 {
                return;
            }
            for m in pos.legal_moves() {
                let mut after = pos.clone();
                after.play_unchecked(m);
                let (k, e) = update_position_key(key, pos, ep, m, &after);
                walk(&after, k, e, depth - 1);
            }
        }
    }

    #[test]
    fn incremental_matches_scratch() {
        check_incremental(
            chess("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
            3,
        );
        check_incremental(chess("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"), 4);
        check_incremental(
            extinction("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
            3,
        );
    }

    #[test]
    fn shakmaty_agrees_for_chess() {
        let pos = chess("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
        let theirs: Zobrist64 = pos.zobrist_hash(shakmaty::EnPassantMode::Legal);
        assert_eq!(theirs.0, position_key(&pos));
    }

    #[test]
    fn extra_keys_differ() {
        let a = Extra::default();
        let mut b = a;
        b.disk = Disk::Swapped {
            disk: Color::White,
            plies: 3,
        };
        let mut c = b;
        c.disk = Disk::Swapped {
            disk: Color::White,
            plies: 4,
        };
        assert_ne!(extra_key(&a), extra_key(&b));
        assert_ne!(extra_key(&b), extra_key(&c));
    }
}
