//! The base evaluation: a classical hand-written chess evaluation in
//! centipawns for the side to move, tapered between middlegame and endgame.
//!
//! Terms: material, piece-square tables, mobility, king safety, pawn
//! structure (doubled, isolated, passed), bishop pair, rooks on open files,
//! tempo. Every weight lives in [`super::params`].

use shakmaty::attacks;
use shakmaty::{Bitboard, Board, Color, File, Rank, Role, Square};

use super::params::*;
use super::score::Score;

impl Score {
    /// Blends the pair by game phase (0 = bare endgame ..= [`MAX_PHASE`]).
    #[inline]
    pub fn taper(self, phase: i32) -> i32 {
        (self.mg * phase + self.eg * (MAX_PHASE - phase)) / MAX_PHASE
    }
}

/// The evaluation split into its terms, each White minus Black.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Breakdown {
    /// Material.
    pub material: Score,
    /// Piece-square tables.
    pub placement: Score,
    /// Mobility.
    pub mobility: Score,
    /// King safety.
    pub king_safety: Score,
    /// Pawn structure.
    pub pawns: Score,
    /// Bishop pair, rooks on open files.
    pub pieces: Score,
    /// Game phase, 0 (bare) ..= [`MAX_PHASE`].
    pub phase: i32,
    /// Endgame scale in 64ths: less than 64 where the side ahead cannot
    /// win with what it has (no pawns and at most a minor piece more).
    pub eg_scale: i32,
}

impl Breakdown {
    /// The sum of the terms, White minus Black.
    pub fn total(&self) -> Score {
        self.material + self.placement + self.mobility + self.king_safety + self.pawns + self.pieces
    }

    /// The tapered total in centipawns for `turn`, with the tempo bonus.
    pub fn cp_for(&self, turn: Color) -> i32 {
        let mut t = self.total();
        t.eg = t.eg * self.eg_scale / 64;
        let white = t.taper(self.phase);
        let v = if turn.is_white() { white } else { -white };
        v + TEMPO
    }
}

/// Non-pawn material of `color` in pawns (N, B 3, R 5, Q 9).
fn piece_material(board: &Board, color: Color) -> i32 {
    let ours = board.by_color(color);
    let n = |bb: Bitboard| (bb & ours).count() as i32;
    3 * n(board.knights() | board.bishops()) + 5 * n(board.rooks()) + 9 * n(board.queens())
}

/// The endgame scale (64 = full): a side ahead without pawns and with at
/// most a minor piece more than the other rarely wins.
pub fn eg_scale(board: &Board) -> i32 {
    let (w, b) = (
        piece_material(board, Color::White),
        piece_material(board, Color::Black),
    );
    let (strong, diff) = if w >= b {
        (Color::White, w - b)
    } else {
        (Color::Black, b - w)
    };
    if (board.pawns() & board.by_color(strong)).is_empty() && diff <= 3 {
        16
    } else {
        64
    }
}

/// The game phase from the non-pawn material on the board.
#[inline]
pub fn phase(board: &Board) -> i32 {
    let p = board.knights().count() as i32 * PHASE_MINOR
        + board.bishops().count() as i32 * PHASE_MINOR
        + board.rooks().count() as i32 * PHASE_ROOK
        + board.queens().count() as i32 * PHASE_QUEEN;
    p.min(MAX_PHASE)
}

/// Piece-square value of `role` of `color` on `sq`.
#[inline]
fn pst(role: Role, color: Color, sq: Square) -> Score {
    let sq = if color.is_white() {
        sq
    } else {
        sq.flip_vertical()
    };
    PST[role as usize - 1][usize::from(sq)]
}

/// Evaluates the board: the full breakdown.
pub fn breakdown(board: &Board) -> Breakdown {
    let mut b = Breakdown {
        phase: phase(board),
        eg_scale: eg_scale(board),
        ..Breakdown::default()
    };
    let occupied = board.occupied();
    // Indexed by `Color as usize` (shakmaty: black 0, white 1).
    let pawn_attacks = [
        pawn_attacks_of(board, Color::Black),
        pawn_attacks_of(board, Color::White),
    ];
    let mut all_attacks = [Bitboard::EMPTY; 2];
    for color in Color::ALL {
        let sign = if color.is_white() { 1 } else { -1 };
        let ours = board.by_color(color);
        let theirs = board.by_color(!color);
        let their_pawn_attacks = pawn_attacks[!color as usize];
        let mut material = Score::default();
        let mut placement = Score::default();
        let mut mobility = Score::default();
        let mut attack_units = 0;
        let mut attackers = 0;
        let mut our_attacks = pawn_attacks[color as usize];
        for k in board.kings() & ours {
            our_attacks |= attacks::king_attacks(k);
        }
        let their_king_zone = board
            .kings()
            .intersect(theirs)
            .into_iter()
            .fold(Bitboard::EMPTY, |z, k| {
                z | attacks::king_attacks(k) | Bitboard::from_square(k)
            });
        for sq in ours {
            let Some(role) = board.role_at(sq) else {
                continue;
            };
            material += MATERIAL[role as usize - 1];
            placement += pst(role, color, sq);
            let att = match role {
                Role::Knight => attacks::knight_attacks(sq),
                Role::Bishop => attacks::bishop_attacks(sq, occupied),
                Role::Rook => attacks::rook_attacks(sq, occupied),
                Role::Queen => attacks::queen_attacks(sq, occupied),
                _ => continue,
            };
            our_attacks |= att;
            let reach = (att & !ours & !their_pawn_attacks).count() as i32;
            let (base, w) = MOBILITY[role as usize - 2];
            mobility += w * (reach - base);
            let hits = (att & their_king_zone).count() as i32;
            if hits > 0 {
                attackers += 1;
                attack_units += hits * KING_ATTACK_WEIGHT[role as usize - 2];
            }
        }
        let mut pieces = Score::default();
        all_attacks[color as usize] = our_attacks;
        if (board.bishops() & ours).more_than_one() {
            pieces += BISHOP_PAIR;
        }
        let our_pawns = board.pawns() & ours;
        let their_pawns = board.pawns() & theirs;
        for sq in board.rooks() & ours {
            let file = Bitboard::from_file(sq.file());
            if (file & our_pawns).is_empty() {
                pieces += if (file & their_pawns).is_empty() {
                    ROOK_OPEN_FILE
                } else {
                    ROOK_SEMI_OPEN_FILE
                };
            }
        }
        // King safety: attackers on the enemy king zone (only with a queen
        // to carry the attack), and our own pawn shield.
        let mut king_safety = Score::default();
        if attackers >= 2 && (board.queens() & ours).any() {
            let u = attack_units.min(KING_DANGER.len() as i32 - 1);
            king_safety += Score::new(KING_DANGER[u as usize], 0);
        }
        for k in board.kings() & ours {
            king_safety += shield(board, color, k);
        }
        b.material += material * sign;
        b.placement += placement * sign;
        b.mobility += mobility * sign;
        b.pieces += pieces * sign;
        b.king_safety += king_safety * sign;
        b.pawns += pawn_structure(board, color) * sign;
    }
    // Threats: enemy pieces our pawns attack, and enemy men we attack that
    // nothing defends.
    for color in Color::ALL {
        let sign = if color.is_white() { 1 } else { -1 };
        let theirs = board.by_color(!color) & !board.kings();
        let mut t = THREAT_BY_PAWN
            * (theirs & !board.pawns() & pawn_attacks[color as usize]).count() as i32;
        t += HANGING
            * (theirs & all_attacks[color as usize] & !all_attacks[!color as usize]).count() as i32;
        b.pieces += t * sign;
    }
    b
}

fn pawn_attacks_of(board: &Board, color: Color) -> Bitboard {
    let pawns = board.pawns() & board.by_color(color);
    if color.is_white() {
        ((pawns & !Bitboard::from_file(File::A)).shift(7))
            | ((pawns & !Bitboard::from_file(File::H)).shift(9))
    } else {
        ((pawns & !Bitboard::from_file(File::A)).shift(-9))
            | ((pawns & !Bitboard::from_file(File::H)).shift(-7))
    }
}

fn shield(board: &Board, color: Color, king: Square) -> Score {
    if king.rank() != color.relative_rank(Rank::First)
        && king.rank() != color.relative_rank(Rank::Second)
    {
        return Score::default();
    }
    let our_pawns = board.pawns() & board.by_color(color);
    let mut files = Bitboard::from_file(king.file());
    if let Some(f) = king.file().offset(-1) {
        files |= Bitboard::from_file(f);
    }
    if let Some(f) = king.file().offset(1) {
        files |= Bitboard::from_file(f);
    }
    let ranks = Bitboard::from_rank(color.relative_rank(Rank::Second))
        | Bitboard::from_rank(color.relative_rank(Rank::Third));
    let n = (our_pawns & files & ranks).count() as i32;
    let mut open = 0;
    for f in [
        king.file().offset(-1),
        Some(king.file()),
        king.file().offset(1),
    ]
    .into_iter()
    .flatten()
    {
        if (our_pawns & Bitboard::from_file(f)).is_empty() {
            open += 1;
        }
    }
    PAWN_SHIELD * n.min(3) + KING_OPEN_FILE * open
}

fn pawn_structure(board: &Board, color: Color) -> Score {
    let ours = board.pawns() & board.by_color(color);
    let theirs = board.pawns() & board.by_color(!color);
    let mut s = Score::default();
    for sq in ours {
        let file = sq.file();
        let file_bb = Bitboard::from_file(file);
        let mut adjacent = Bitboard::EMPTY;
        if let Some(f) = file.offset(-1) {
            adjacent |= Bitboard::from_file(f);
        }
        if let Some(f) = file.offset(1) {
            adjacent |= Bitboard::from_file(f);
        }
        if (ours & adjacent).is_empty() {
            s += ISOLATED;
        }
        // Doubled: another own pawn ahead on the same file.
        let ahead = ahead_mask(color, sq);
        if (ours & file_bb & ahead).any() {
            s += DOUBLED;
        }
        if (theirs & (file_bb | adjacent) & ahead).is_empty() {
            let r = color.fold_wb(sq.rank(), sq.rank().flip_vertical()) as usize;
            s += PASSED[r];
            // In the endgame the kings' distances to the square in front
            // decide races.
            if r >= 3
                && let Some(front) = sq.offset(if color.is_white() { 8 } else { -8 })
            {
                let dist = |c: Color| {
                    (board.kings() & board.by_color(c))
                        .first()
                        .map_or(7, |k| k.distance(front) as i32)
                };
                let w = r as i32 - 2;
                s += Score::new(
                    0,
                    (dist(!color) * PASSED_KING_THEIRS - dist(color) * PASSED_KING_OURS) * w,
                );
            }
        }
    }
    s
}

/// Squares strictly ahead of `sq` (towards the promotion rank) for `color`.
#[inline]
fn ahead_mask(color: Color, sq: Square) -> Bitboard {
    let r = sq.rank() as u32;
    if color.is_white() {
        if r >= 7 {
            Bitboard::EMPTY
        } else {
            Bitboard(!0u64 << (8 * (r + 1)))
        }
    } else if r == 0 {
        Bitboard::EMPTY
    } else {
        Bitboard(!0u64 >> (8 * (8 - r)))
    }
}

/// The evaluation in centipawns for the side to move.
#[inline]
pub fn evaluate(board: &Board, turn: Color) -> i32 {
    breakdown(board).cp_for(turn)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;

    fn board(fen: &str) -> (Board, Color) {
        let f: Fen = fen.parse().unwrap();
        let s = f.into_setup();
        (s.board, s.turn)
    }

    #[test]
    fn symmetric_start() {
        let (b, t) = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let bd = breakdown(&b);
        assert_eq!(bd.total(), Score::default());
        assert_eq!(bd.cp_for(t), TEMPO);
        assert_eq!(bd.phase, MAX_PHASE);
    }

    #[test]
    fn mirror_is_negation() {
        let (b, _) = board("r1bqk2r/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R1BQKB1R w KQkq - 0 1");
        let mirrored = b.clone().into_mirrored();
        assert_eq!(
            evaluate(&b, Color::White),
            evaluate(&mirrored, Color::Black)
        );
    }

    #[test]
    fn mobility_counts_enemy_pawn_attacks() {
        // The knight on e4 loses the squares the black pawns on c6/f6 hit
        // (d5, b5, e5, g5), not the squares its own pawns hit.
        let (b, _) = board("4k3/8/2p2p2/8/4N3/8/3P4/4K3 w - - 0 1");
        let (free, _) = board("4k3/8/8/8/4N3/8/3P4/4K3 w - - 0 1");
        assert!(breakdown(&b).mobility.mg < breakdown(&free).mobility.mg);
    }

    #[test]
    fn material_counts() {
        let (b, _) = board("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
        assert!(evaluate(&b, Color::White) > 800);
        assert!(evaluate(&b, Color::Black) < -800);
        let (b, _) = board("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
        assert!(evaluate(&b, Color::White) > 80);
    }

    #[test]
    fn passed_pawn_bonus_grows() {
        let (b5, _) = board("4k3/8/8/4P3/8/8/8/4K3 w - - 0 1");
        let (b7, _) = board("4k3/4P3/8/8/8/8/8/4K3 w - - 0 1");
        assert!(evaluate(&b7, Color::White) > evaluate(&b5, Color::White));
    }
}
