//! The base evaluation: a classical hand-written chess evaluation in
//! centipawns for the side to move, tapered between middlegame and endgame.
//!
//! Terms: material, piece-square tables, mobility, king safety, pawn
//! structure (doubled, isolated, passed), bishop pair, rooks on open files,
//! tempo, threats. Every weight lives in [`super::params::EvalParams`]; the
//! terms go to a [`Sink`]: the sum ([`Breakdown`]) or the tuner's
//! coefficients ([`super::trace`]), from one code path.

use shakmaty::attacks;
use shakmaty::{Bitboard, Board, Color, File, Rank, Role, Square};

use super::mgeg::MgEg;
use super::params::*;

impl MgEg {
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
    pub material: MgEg,
    /// Piece-square tables.
    pub placement: MgEg,
    /// Mobility.
    pub mobility: MgEg,
    /// King safety.
    pub king_safety: MgEg,
    /// Pawn structure.
    pub pawns: MgEg,
    /// Bishop pair, rooks on open files.
    pub pieces: MgEg,
    /// The side-to-move bonus.
    pub tempo: MgEg,
    /// Game phase, 0 (bare) ..= [`MAX_PHASE`].
    pub phase: i32,
    /// Endgame scale in 64ths: less than 64 where the side ahead cannot
    /// win with what it has (no pawns and at most a minor piece more).
    pub eg_scale: i32,
    /// The squares each side attacks, by `Color as usize` (what
    /// extinction's threats read next).
    pub attacks: [Bitboard; 2],
}

impl Breakdown {
    /// The sum of the terms, White minus Black.
    pub fn total(&self) -> MgEg {
        self.material + self.placement + self.mobility + self.king_safety + self.pawns + self.pieces
    }

    /// The tapered total in centipawns for `turn`, with the tempo bonus.
    pub fn cp_for(&self, turn: Color) -> i32 {
        let mut t = self.total();
        t.eg = t.eg * self.eg_scale / 64;
        let white = t.taper(self.phase);
        let v = if turn.is_white() { white } else { -white };
        v + self.tempo.taper(self.phase)
    }
}

/// A group of terms of the base evaluation ([`Breakdown`]'s fields).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Term {
    /// Material.
    Material,
    /// Piece-square tables.
    Placement,
    /// Mobility.
    Mobility,
    /// King safety.
    KingSafety,
    /// Pawn structure.
    Pawns,
    /// Bishop pair, rooks on files, threats.
    Pieces,
}

/// Where the base evaluation's terms go.
pub trait Sink {
    /// `n` times the weight `w` (the pair at flat index `idx` of the
    /// [`EvalParams`], see [`super::params::ix`]) in `term`, for `color`.
    fn add(&mut self, term: Term, color: Color, idx: usize, w: MgEg, n: i32);
}

impl Sink for Breakdown {
    #[inline(always)]
    fn add(&mut self, term: Term, color: Color, _idx: usize, w: MgEg, n: i32) {
        let v = w * if color.is_white() { n } else { -n };
        match term {
            Term::Material => self.material += v,
            Term::Placement => self.placement += v,
            Term::Mobility => self.mobility += v,
            Term::KingSafety => self.king_safety += v,
            Term::Pawns => self.pawns += v,
            Term::Pieces => self.pieces += v,
        }
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

/// The piece-square table square of `color`'s man on `sq` (White's side).
#[inline]
fn pst_square(color: Color, sq: Square) -> usize {
    usize::from(if color.is_white() {
        sq
    } else {
        sq.flip_vertical()
    })
}

/// Evaluates the board with the default weights: the full breakdown.
#[inline]
pub fn breakdown(board: &Board) -> Breakdown {
    breakdown_with(board, EvalParams::DEFAULT)
}

/// Evaluates the board with the weights `p`: the full breakdown.
pub fn breakdown_with(board: &Board, p: &EvalParams) -> Breakdown {
    let mut b = Breakdown {
        tempo: p.tempo,
        phase: phase(board),
        eg_scale: eg_scale(board),
        ..Breakdown::default()
    };
    b.attacks = terms(board, p, &mut b);
    b
}

/// Sends every term of the base evaluation of `board` under the weights
/// `p` to `sink` (everything but the tempo, the phase and the endgame
/// scale); returns the squares each side attacks, by `Color as usize`.
pub fn terms<S: Sink>(board: &Board, p: &EvalParams, sink: &mut S) -> [Bitboard; 2] {
    let occupied = board.occupied();
    // Indexed by `Color as usize` (shakmaty: black 0, white 1).
    let pawn_attacks = [
        pawn_attacks_of(board, Color::Black),
        pawn_attacks_of(board, Color::White),
    ];
    let mut all_attacks = [Bitboard::EMPTY; 2];
    for color in Color::ALL {
        let ours = board.by_color(color);
        let theirs = board.by_color(!color);
        let their_pawn_attacks = pawn_attacks[!color as usize];
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
        // By role, so that no square asks which man stands on it.
        for role in Role::ALL {
            let men = board.by_role(role) & ours;
            if men.is_empty() {
                continue;
            }
            let r = role as usize - 1;
            sink.add(
                Term::Material,
                color,
                ix::MATERIAL + r,
                p.material[r],
                men.count() as i32,
            );
            for sq in men {
                let psq = pst_square(color, sq);
                sink.add(
                    Term::Placement,
                    color,
                    ix::PST + 64 * r + psq,
                    p.pst[r][psq],
                    1,
                );
            }
            if matches!(role, Role::Pawn | Role::King) {
                continue;
            }
            let m = role as usize - 2;
            for sq in men {
                let att = match role {
                    Role::Knight => attacks::knight_attacks(sq),
                    Role::Bishop => attacks::bishop_attacks(sq, occupied),
                    Role::Rook => attacks::rook_attacks(sq, occupied),
                    _ => attacks::queen_attacks(sq, occupied),
                };
                our_attacks |= att;
                let reach = (att & !ours & !their_pawn_attacks).count() as i32;
                sink.add(
                    Term::Mobility,
                    color,
                    ix::MOBILITY + m,
                    p.mobility[m],
                    reach - MOBILITY_BASE[m],
                );
                let hits = (att & their_king_zone).count() as i32;
                if hits > 0 {
                    attackers += 1;
                    attack_units += hits * KING_ATTACK_WEIGHT[m];
                }
            }
        }
        all_attacks[color as usize] = our_attacks;
        if (board.bishops() & ours).more_than_one() {
            sink.add(Term::Pieces, color, ix::BISHOP_PAIR, p.bishop_pair, 1);
        }
        let our_pawns = board.pawns() & ours;
        let their_pawns = board.pawns() & theirs;
        for sq in board.rooks() & ours {
            let file = Bitboard::from_file(sq.file());
            if (file & our_pawns).is_empty() {
                if (file & their_pawns).is_empty() {
                    sink.add(Term::Pieces, color, ix::ROOK_OPEN_FILE, p.rook_open_file, 1);
                } else {
                    sink.add(
                        Term::Pieces,
                        color,
                        ix::ROOK_SEMI_OPEN_FILE,
                        p.rook_semi_open_file,
                        1,
                    );
                }
            }
        }
        // King safety: attackers on the enemy king zone (only with a queen
        // to carry the attack), and our own pawn shield.
        if attackers >= 2 && (board.queens() & ours).any() {
            let u = attack_units.min(p.king_danger.len() as i32 - 1) as usize;
            sink.add(
                Term::KingSafety,
                color,
                ix::KING_DANGER + u,
                p.king_danger[u],
                1,
            );
        }
        for k in board.kings() & ours {
            shield(board, color, k, p, sink);
        }
        pawn_structure(board, color, p, sink);
    }
    // Threats: enemy pieces our pawns attack, and enemy men we attack that
    // nothing defends.
    for color in Color::ALL {
        let theirs = board.by_color(!color) & !board.kings();
        let by_pawn = (theirs & !board.pawns() & pawn_attacks[color as usize]).count() as i32;
        sink.add(
            Term::Pieces,
            color,
            ix::THREAT_BY_PAWN,
            p.threat_by_pawn,
            by_pawn,
        );
        let hanging =
            (theirs & all_attacks[color as usize] & !all_attacks[!color as usize]).count() as i32;
        sink.add(Term::Pieces, color, ix::HANGING, p.hanging, hanging);
    }
    all_attacks
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

fn shield<S: Sink>(board: &Board, color: Color, king: Square, p: &EvalParams, sink: &mut S) {
    if king.rank() != color.relative_rank(Rank::First)
        && king.rank() != color.relative_rank(Rank::Second)
    {
        return;
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
    let t = Term::KingSafety;
    sink.add(t, color, ix::PAWN_SHIELD, p.pawn_shield, n.min(3));
    sink.add(t, color, ix::KING_OPEN_FILE, p.king_open_file, open);
}

fn pawn_structure<S: Sink>(board: &Board, color: Color, p: &EvalParams, sink: &mut S) {
    let ours = board.pawns() & board.by_color(color);
    let theirs = board.pawns() & board.by_color(!color);
    let t = Term::Pawns;
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
            sink.add(t, color, ix::ISOLATED, p.isolated, 1);
        }
        // Doubled: another own pawn ahead on the same file.
        let ahead = ahead_mask(color, sq);
        if (ours & file_bb & ahead).any() {
            sink.add(t, color, ix::DOUBLED, p.doubled, 1);
        }
        if (theirs & (file_bb | adjacent) & ahead).is_empty() {
            let r = color.fold_wb(sq.rank(), sq.rank().flip_vertical()) as usize;
            sink.add(t, color, ix::PASSED + r, p.passed[r], 1);
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
                let (theirs, ours) = (p.passed_king_theirs, p.passed_king_ours);
                sink.add(t, color, ix::PASSED_KING_THEIRS, theirs, dist(!color) * w);
                sink.add(t, color, ix::PASSED_KING_OURS, ours, -dist(color) * w);
            }
        }
    }
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
        assert_eq!(bd.total(), MgEg::default());
        assert_eq!(bd.cp_for(t), EvalParams::DEFAULT.tempo.mg);
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
        let (b5, _) = board("k7/8/8/4P3/8/8/8/4K3 w - - 0 1");
        let (b7, _) = board("k7/4P3/8/8/8/8/8/4K3 w - - 0 1");
        assert!(evaluate(&b7, Color::White) > evaluate(&b5, Color::White));
    }
}
