//! Every weight of the base evaluation, in centipawns (middlegame, endgame).

use super::mgeg::MgEg;
use crate::rules::Variant;

const fn s(mg: i32, eg: i32) -> MgEg {
    MgEg::new(mg, eg)
}

/// Phase weight of a knight or bishop.
pub const PHASE_MINOR: i32 = 1;
/// Phase weight of a rook.
pub const PHASE_ROOK: i32 = 2;
/// Phase weight of a queen.
pub const PHASE_QUEEN: i32 = 4;
/// The phase of the full starting material.
pub const MAX_PHASE: i32 = 24;

/// Mobility per role (knight, bishop, rook, queen, king): the number of
/// reachable squares counted as neutral (fixed: the weight per square is
/// [`EvalParams::mobility`]).
pub const MOBILITY_BASE: [i32; 5] = [4, 6, 6, 12, 0];

/// King-attack weight per attacked king-zone square, per role (knight,
/// bishop, rook, queen, king): the index into [`EvalParams::king_danger`]
/// (fixed, not a linear weight).
pub const KING_ATTACK_WEIGHT: [i32; 5] = [2, 2, 3, 5, 0];

/// A field of [`EvalParams`]: a pair or an array of pairs, flattened in
/// order for the tuner.
pub trait Pairs {
    /// The number of pairs.
    const LEN: usize;
    /// Appends the pairs to `out`.
    fn put(&self, out: &mut Vec<MgEg>);
    /// Reads the pairs from `src` (which holds at least [`Pairs::LEN`]).
    fn take(&mut self, src: &mut std::slice::Iter<'_, MgEg>);
}

impl Pairs for MgEg {
    const LEN: usize = 1;
    fn put(&self, out: &mut Vec<MgEg>) {
        out.push(*self);
    }
    fn take(&mut self, src: &mut std::slice::Iter<'_, MgEg>) {
        if let Some(s) = src.next() {
            *self = *s;
        }
    }
}

impl<T: Pairs, const N: usize> Pairs for [T; N] {
    const LEN: usize = T::LEN * N;
    fn put(&self, out: &mut Vec<MgEg>) {
        for t in self {
            t.put(out);
        }
    }
    fn take(&mut self, src: &mut std::slice::Iter<'_, MgEg>) {
        for t in self {
            t.take(src);
        }
    }
}

/// Declares the offset of each field of [`EvalParams`] in the flat list
/// of pairs.
macro_rules! offsets {
    ($acc:expr;) => {
        /// The number of pairs in [`super::EvalParams`].
        pub const COUNT: usize = $acc;
    };
    ($acc:expr; $(#[$m:meta])* $field:ident $name:ident: $ty:ty, $($rest:tt)*) => {
        #[doc = concat!("The flat index of `", stringify!($field), "`.")]
        pub const $name: usize = $acc;
        offsets!($name + <$ty as Pairs>::LEN; $($rest)*);
    };
}

/// Declares [`EvalParams`], its flat layout ([`ix`]) and its field names.
/// How it differs from the other two knob macros: see [`crate::tune`].
macro_rules! eval_params {
    ($($(#[$m:meta])* $field:ident $name:ident: $ty:ty,)*) => {
        /// Every weight of the base evaluation and of the extinction
        /// terms, as middlegame / endgame pairs in centipawns: the vector
        /// the tuner fits. The evaluation reads a `&'static` instance
        /// ([`EvalParams::DEFAULT`]).
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct EvalParams {
            $($(#[$m])* pub $field: $ty,)*
        }

        /// Flat indices of the fields of [`EvalParams`] (in pairs).
        pub mod ix {
            use super::{Pairs, MgEg};
            offsets!(0; $($field $name: $ty,)*);
        }

        impl EvalParams {
            /// The fields' names, flat offsets, lengths and types, in
            /// order.
            pub const FIELDS: &[(&str, usize, usize, &str)] = &[
                $((stringify!($field), ix::$name, <$ty as Pairs>::LEN, stringify!($ty)),)*
            ];

            /// Every pair, in the flat order of [`ix`].
            pub fn to_pairs(&self) -> Vec<MgEg> {
                let mut out = Vec::with_capacity(ix::COUNT);
                $(self.$field.put(&mut out);)*
                out
            }

            /// The parameters from pairs in the flat order of [`ix`]
            /// (missing pairs keep `self`'s values).
            pub fn with_pairs(&self, pairs: &[MgEg]) -> EvalParams {
                let mut p = self.clone();
                let mut it = pairs.iter();
                $(p.$field.take(&mut it);)*
                p
            }
        }
    };
}

eval_params! {
    /// Bonus for having the move (tapered; not scaled with the endgame).
    tempo TEMPO: MgEg,
    /// Material by role (pawn, knight, bishop, rook, queen, king).
    material MATERIAL: [MgEg; 6],
    /// Piece-square tables by role, from White's side (a1 = 0).
    pst PST: [[MgEg; 64]; 6],
    /// Mobility weight per reachable square beyond [`MOBILITY_BASE`], per
    /// role (knight, bishop, rook, queen, king).
    mobility MOBILITY: [MgEg; 5],
    /// Bonus for the attacker by attack units on the king zone (with two
    /// attackers and a queen).
    king_danger KING_DANGER: [MgEg; 24],
    /// Per own pawn in front of a king on its first two ranks (up to three).
    pawn_shield PAWN_SHIELD: MgEg,
    /// A file with none of our pawns next to or under our king.
    king_open_file KING_OPEN_FILE: MgEg,
    /// Two bishops.
    bishop_pair BISHOP_PAIR: MgEg,
    /// A rook on a file with no pawns.
    rook_open_file ROOK_OPEN_FILE: MgEg,
    /// A rook on a file with only enemy pawns.
    rook_semi_open_file ROOK_SEMI_OPEN_FILE: MgEg,
    /// A pawn with no own pawn on the adjacent files.
    isolated ISOLATED: MgEg,
    /// A pawn with an own pawn ahead of it on its file.
    doubled DOUBLED: MgEg,
    /// A passed pawn by its rank from its own side (index 1 = second rank).
    passed PASSED: [MgEg; 8],
    /// Passed pawns from the fourth rank: per square of the enemy king's
    /// distance to the square in front, times (rank - 2).
    passed_king_theirs PASSED_KING_THEIRS: MgEg,
    /// The same for our king's distance, subtracted.
    passed_king_ours PASSED_KING_OURS: MgEg,
    /// An enemy piece (not pawn or king) attacked by one of our pawns.
    threat_by_pawn THREAT_BY_PAWN: MgEg,
    /// An enemy piece or pawn we attack that nothing defends.
    hanging HANGING: MgEg,
    /// Extinction: a side's lone knight, bishop or rook (one capture from
    /// losing the game).
    ext_last_piece EXT_LAST_PIECE: MgEg,
    /// Extinction: one, two or three pawns left.
    ext_last_pawns EXT_LAST_PAWNS: [MgEg; 3],
    /// Extinction: a second queen.
    ext_spare_queen EXT_SPARE_QUEEN: MgEg,
    /// Extinction: a second king.
    ext_spare_king EXT_SPARE_KING: MgEg,
    /// Extinction: a last piece of its type where an enemy pawn push would
    /// attack it.
    ext_last_piece_pawn_threat EXT_LAST_PIECE_PAWN_THREAT: MgEg,
    /// Extinction: the side to move can take a last piece (the game; the
    /// search confirms it).
    ext_take_last EXT_TAKE_LAST: MgEg,
    /// Extinction: one of the side to move's last pieces is attacked (it
    /// must spend its move on it).
    ext_last_attacked EXT_LAST_ATTACKED: MgEg,
    /// Extinction: two or more of the side to move's last pieces are
    /// attacked.
    ext_last_attacked_twice EXT_LAST_ATTACKED_TWICE: MgEg,
    /// Extinction: the side to move has a fork of two last pieces from a
    /// safe square.
    ext_fork EXT_FORK: MgEg,
    /// Extinction: the opponent has such a fork next move.
    ext_fork_threat EXT_FORK_THREAT: MgEg,
}

impl EvalParams {
    /// The hand-set weights (the piece-square tables from a centre-distance
    /// formula), kept for comparison (`EvalMode untuned`).
    pub const UNTUNED: EvalParams = untuned();
    /// The weights chess evaluates with.
    pub const DEFAULT: &'static EvalParams = &super::tuned::chess::TUNED;

    /// The weights `variant` evaluates with: chess and extinction their
    /// tuned sets, or the hand-set weights when `tuned` is false. The
    /// scoring variants keep the hand-set weights: their evaluators'
    /// coefficients were fitted over them, and tuned chess weights put
    /// positional terms above the points of their awards (two suite
    /// positions lose their award moves).
    pub fn of(variant: Variant, tuned: bool) -> &'static EvalParams {
        match (tuned, variant) {
            (true, Variant::Chess) => EvalParams::DEFAULT,
            (true, Variant::Extinction) => &super::tuned::extinction::TUNED,
            _ => &EvalParams::UNTUNED,
        }
    }
}

const fn untuned() -> EvalParams {
    const DANGER: [i32; 24] = [
        0, 0, 4, 9, 16, 25, 36, 49, 64, 81, 100, 120, 140, 160, 180, 200, 220, 240, 255, 270, 285,
        300, 310, 320,
    ];
    let mut king_danger = [s(0, 0); 24];
    let mut i = 0;
    while i < 24 {
        king_danger[i] = s(DANGER[i], 0);
        i += 1;
    }
    EvalParams {
        tempo: s(12, 12),
        material: [
            s(90, 115),
            s(330, 300),
            s(345, 320),
            s(470, 530),
            s(980, 980),
            s(0, 0),
        ],
        pst: build_pst(),
        mobility: [s(5, 4), s(5, 5), s(2, 5), s(1, 3), s(0, 0)],
        king_danger,
        pawn_shield: s(15, 0),
        king_open_file: s(-22, 0),
        bishop_pair: s(30, 50),
        rook_open_file: s(25, 10),
        rook_semi_open_file: s(12, 6),
        isolated: s(-10, -14),
        doubled: s(-8, -20),
        passed: [
            s(0, 0),
            s(2, 8),
            s(5, 12),
            s(10, 22),
            s(22, 42),
            s(40, 70),
            s(65, 110),
            s(0, 0),
        ],
        passed_king_theirs: s(0, 5),
        passed_king_ours: s(0, 2),
        threat_by_pawn: s(45, 35),
        hanging: s(20, 20),
        ext_last_piece: s(-45, -55),
        ext_last_pawns: [s(-160, -200), s(-60, -80), s(-20, -30)],
        ext_spare_queen: s(120, 120),
        ext_spare_king: s(300, 300),
        ext_last_piece_pawn_threat: s(-40, -40),
        ext_take_last: s(900, 900),
        ext_last_attacked: s(-40, -40),
        ext_last_attacked_twice: s(-450, -450),
        ext_fork: s(250, 250),
        ext_fork_threat: s(80, 80),
    }
}

const fn center_distance(sq: usize) -> i32 {
    let f = (sq % 8) as i32;
    let r = (sq / 8) as i32;
    let df = if f < 4 { 3 - f } else { f - 4 };
    let dr = if r < 4 { 3 - r } else { r - 4 };
    if df > dr { df } else { dr }
}

const fn build_pst() -> [[MgEg; 64]; 6] {
    let mut t = [[s(0, 0); 64]; 6];
    let mut sq = 0;
    while sq < 64 {
        let f = (sq % 8) as i32;
        let r = (sq / 8) as i32;
        let c = center_distance(sq); // 0 in the centre .. 3 on the rim
        let central_file = f == 3 || f == 4;
        // Pawns: advance, and hold the centre.
        let pawn_mg = [0, 0, 4, 8, 16, 30, 50, 0][r as usize]
            + if central_file && (r == 3 || r == 4) {
                12
            } else {
                0
            };
        let pawn_eg = [0, 0, 6, 14, 26, 45, 75, 0][r as usize];
        t[0][sq] = s(pawn_mg, pawn_eg);
        t[1][sq] = s(18 - 12 * c, 12 - 9 * c);
        t[2][sq] = s(10 - 6 * c, 8 - 5 * c);
        t[3][sq] = s(
            if r == 6 { 18 } else { 0 } + if central_file { 4 } else { 0 },
            0,
        );
        t[4][sq] = s(4 - 3 * c, 8 - 5 * c);
        // A king belongs behind its pawns on a wing while queens are on.
        let king_mg = match r {
            0 => [12, 24, 10, -20, -25, -15, 26, 14][f as usize],
            1 => [-5, -5, -15, -35, -35, -30, -5, -5][f as usize],
            2 => -45,
            _ => -65,
        };
        t[5][sq] = s(king_mg, 20 - 14 * c);
        sq += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flat_layout_covers_every_field_once() {
        let p = EvalParams::UNTUNED;
        let pairs = p.to_pairs();
        assert_eq!(pairs.len(), ix::COUNT);
        assert_eq!(p.with_pairs(&pairs), p);
        let mut next = 0;
        for &(_, off, len, _) in EvalParams::FIELDS {
            assert_eq!(off, next);
            next += len;
        }
        assert_eq!(next, ix::COUNT);
        assert_eq!(pairs[ix::PST + 64 + 27], p.pst[1][27]);
        assert_eq!(pairs[ix::EXT_FORK], p.ext_fork);
        // A changed pair lands in its field.
        let mut changed = pairs.clone();
        changed[ix::KING_DANGER + 5] = MgEg::new(1, 2);
        assert_eq!(p.with_pairs(&changed).king_danger[5], MgEg::new(1, 2));
    }
}
