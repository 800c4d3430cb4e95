//! Chess960 (Fischer random) start positions and castling rights: the 960
//! back ranks by their standard numbers ([`chess960_fen`]), and whether a
//! FEN's castling rights can only be read as Chess960
//! ([`fen_needs_chess960`]). Castling itself is [`Rules::with_chess960`](super::Rules::with_chess960)'s.

use shakmaty::fen::Fen;
use shakmaty::{Castles, CastlingMode};

/// How many Chess960 start positions there are.
pub const CHESS960_POSITIONS: u16 = 960;

/// The back rank of Chess960 start position `index` (0 to 959, the
/// standard numbering: 518 is the standard position), White's pieces as
/// FEN letters from the a-file to the h-file.
///
/// The number is read as digits of mixed base: the light-squared bishop
/// (b, d, f or h), the dark-squared bishop (a, c, e or g), the queen on
/// one of the six squares left, the two knights on two of the five left
/// (ten ways, in the order of [`KNIGHTS`]); the rook, king and rook fill
/// the last three squares in that order.
fn back_rank(index: u16) -> Option<[char; 8]> {
    if index >= CHESS960_POSITIONS {
        return None;
    }
    let mut n = usize::from(index);
    let mut rank = [' '; 8];
    rank[2 * (n % 4) + 1] = 'B';
    n /= 4;
    rank[2 * (n % 4)] = 'B';
    n /= 4;
    let place = |rank: &mut [char; 8], k: usize, piece: char| {
        if let Some(sq) = rank.iter().enumerate().filter(|(_, c)| **c == ' ').nth(k) {
            let at = sq.0;
            rank[at] = piece;
        }
    };
    place(&mut rank, n % 6, 'Q');
    n /= 6;
    let (a, b) = KNIGHTS[n];
    // The second knight first, so that the first one's count of free
    // squares still holds.
    place(&mut rank, b, 'N');
    place(&mut rank, a, 'N');
    for piece in ['R', 'K', 'R'] {
        place(&mut rank, 0, piece);
    }
    Some(rank)
}

/// The ten placements of two knights on five free squares, by the free
/// squares' order, numbered as in the standard numbering.
const KNIGHTS: [(usize, usize); 10] = [
    (0, 1),
    (0, 2),
    (0, 3),
    (0, 4),
    (1, 2),
    (1, 3),
    (1, 4),
    (2, 3),
    (2, 4),
    (3, 4),
];

/// The FEN of Chess960 start position `index` (0 to 959, the standard
/// numbering), castling rights in X-FEN (`KQkq`); `None` past 959.
pub fn chess960_fen(index: u16) -> Option<String> {
    let white: String = back_rank(index)?.iter().collect();
    let black = white.to_ascii_lowercase();
    Some(format!(
        "{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w KQkq - 0 1"
    ))
}

/// Whether `fen` has castling rights that only a Chess960 reading keeps
/// (a king off the e-file, a rook off the corner, a Shredder-FEN file
/// letter naming another rook): such a position plays as Chess960. A FEN
/// that cannot be read is not.
pub fn fen_needs_chess960(fen: &str) -> bool {
    let Ok(parsed) = fen.trim().parse::<Fen>() else {
        return false;
    };
    let setup = parsed.into_setup();
    let rights = |mode| match Castles::from_setup(&setup, mode) {
        Ok(c) | Err(c) => c.castling_rights(),
    };
    rights(CastlingMode::Chess960) != rights(CastlingMode::Standard)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Rules, Variant};
    use shakmaty::{Chess, Position};

    #[test]
    fn the_standard_numbering() {
        let rank = |i| back_rank(i).map(|r| r.iter().collect::<String>());
        assert_eq!(rank(518).as_deref(), Some("RNBQKBNR"));
        assert_eq!(rank(0).as_deref(), Some("BBQNNRKR"));
        assert_eq!(rank(959).as_deref(), Some("RKRNNQBB"));
        assert_eq!(rank(1).as_deref(), Some("BQNBNRKR"));
        assert_eq!(rank(960), None);
        assert_eq!(
            chess960_fen(518).as_deref(),
            Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
        );
        // Every number gives a different position, legal under Chess960
        // with all four castlings' rights.
        let rules = Rules::<Chess>::new(Variant::Chess).with_chess960(true);
        let mut seen = std::collections::HashSet::new();
        for i in 0..CHESS960_POSITIONS {
            let fen = chess960_fen(i).unwrap();
            let node = rules.from_fen(&fen).unwrap();
            assert_eq!(node.pos.castles().castling_rights().count(), 4, "{fen}");
            assert!(seen.insert(fen));
        }
    }

    #[test]
    fn castling_rights_only_chess960_reads() {
        assert!(fen_needs_chess960(&chess960_fen(0).unwrap()));
        assert!(!fen_needs_chess960(&chess960_fen(518).unwrap()));
        assert!(fen_needs_chess960(
            "rk2r3/pppbqppp/2n2n2/8/8/2N2N2/PPPBQPPP/RK2R3 w EAea - 0 1"
        ));
        // Shredder-FEN letters of the corner rooks are standard rights.
        assert!(!fen_needs_chess960("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1"));
        // A king on e1 castling with a rook on g1 is Chess960's.
        assert!(fen_needs_chess960("4k3/8/8/8/8/8/8/4K1R1 w G - 0 1"));
        assert!(!fen_needs_chess960("8/8/8/8/8/8/8/K6k w - - 0 1"));
        assert!(!fen_needs_chess960("not a fen"));
    }
}
