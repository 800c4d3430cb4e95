//! History tables: what the search learnt about quiet moves from earlier
//! cut-offs, for move ordering and reductions:
//!
//! - the main table, by side, from and to square, and whether the
//!   opponent attacks each of the two squares (a move out of an attack
//!   and one into an attack are told apart);
//! - continuation tables, by the piece and target square of the move one
//!   ply (the opponent's reply) and two plies (one's own move) before, and
//!   the piece and target square of the move itself;
//! - the capture table, by moving piece, target square and captured role;
//! - the correction tables (not a move history): how far searches found
//!   the static evaluation off, by side to move and pawn structure, and
//!   by side to move and the placement of each side's other pieces.
//!
//! A quiet move's score is the sum of the first three; every table pulls its
//! entries towards the bound it is updated with (gravity), so old
//! information fades.

use shakmaty::{Bitboard, Board, Color, Move, Role, attacks};

use super::params::{
    CORRECTION_BITS, CORRECTION_GRAIN, CORRECTION_MAX, CORRECTION_MIX, CORRECTION_MIX_DIV,
    CORRECTION_TABLES, CORRECTION_WEIGHT_MAX, CORRECTION_WEIGHTS, HISTORY_MAX,
};
use crate::rules::{Action, pawn_captures};

/// Piece-to keys: 2 colours, 6 roles, 64 target squares.
const PIECE_TO: usize = 2 * 6 * 64;

/// The piece-to key of `action` played by `color`: its moving piece and
/// target square (`None` for special actions).
#[inline]
pub fn piece_to(color: Color, action: Action) -> Option<u16> {
    Some(move_piece_to(color, action.as_move()?) as u16)
}

/// The piece-to key of move `m` played by `color`.
#[inline]
fn move_piece_to(color: Color, m: Move) -> usize {
    let piece = (color as usize) * 6 + (m.role() as usize - 1);
    piece * 64 + usize::from(m.to())
}

/// What a quiet move's score depends on besides the move: the side to move,
/// the squares the opponent attacks, and the piece-to keys of the moves one
/// and two plies before (`None` after a null move, a special action or at
/// the root).
#[derive(Clone, Copy, Debug)]
pub struct Context {
    /// The side to move.
    pub turn: Color,
    /// The squares the opponent attacks.
    pub threats: Threats,
    /// The piece-to keys one and two plies back.
    pub prev: [Option<u16>; 2],
}

/// The squares one side's pieces attack (pins and checks aside), by the
/// least valuable attacker: each set holds the ones before it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Threats {
    /// Attacked by a pawn.
    pub pawns: Bitboard,
    /// By a pawn, knight or bishop.
    pub minors: Bitboard,
    /// By a pawn, minor piece or rook.
    pub rooks: Bitboard,
    /// By any piece, kings included.
    pub all: Bitboard,
}

impl Threats {
    /// No square attacked.
    pub const NONE: Threats = Threats {
        pawns: Bitboard::EMPTY,
        minors: Bitboard::EMPTY,
        rooks: Bitboard::EMPTY,
        all: Bitboard::EMPTY,
    };

    /// The squares `color`'s pieces attack on `board`.
    pub fn of(board: &Board, color: Color) -> Threats {
        let occupied = board.occupied();
        let ours = board.by_color(color);
        let [west, east] = pawn_captures(board.pawns() & ours, color);
        let by_pawns = west | east;
        let mut minors = by_pawns;
        for sq in board.knights() & ours {
            minors |= attacks::knight_attacks(sq);
        }
        for sq in board.bishops() & ours {
            minors |= attacks::bishop_attacks(sq, occupied);
        }
        let mut rooks = minors;
        for sq in board.rooks() & ours {
            rooks |= attacks::rook_attacks(sq, occupied);
        }
        let mut all = rooks;
        for sq in board.queens() & ours {
            all |= attacks::queen_attacks(sq, occupied);
        }
        for sq in board.kings() & ours {
            all |= attacks::king_attacks(sq);
        }
        Threats {
            pawns: by_pawns,
            minors,
            rooks,
            all,
        }
    }
}

/// The quiet-move history tables (see the module header).
#[derive(Clone)]
pub struct History {
    /// The main table; `i16` holds every value (gravity keeps them within
    /// ±[`HISTORY_MAX`]), and half the bytes stay in cache better.
    table: Vec<i16>,
    /// Continuation tables one and two plies back, by the previous key
    /// then the move's key.
    cont: [Vec<i16>; 2],
    /// Captures by piece-to key and captured role.
    captures: Vec<i16>,
}

impl Default for History {
    fn default() -> History {
        History {
            table: vec![0; 2 * 4 * 64 * 64],
            cont: [vec![0; PIECE_TO * PIECE_TO], vec![0; PIECE_TO * PIECE_TO]],
            captures: vec![0; PIECE_TO * 6],
        }
    }
}

/// Pulls `v` by `bonus` towards the bound. From within ±[`HISTORY_MAX`],
/// the result stays within it (the tables keep `i16`s).
#[inline]
fn gravity(v: i32, bonus: i32) -> i32 {
    let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    v + b - v * b.abs() / HISTORY_MAX
}

impl History {
    /// The main table's entries of one side to move: 4 threat cases, 64
    /// from and 64 to squares.
    const SIDE: usize = 4 * 64 * 64;

    /// The main table's entry of `m` within its side's part, where the
    /// opponent attacks `attacked` (`None` for a move from no square).
    #[inline]
    fn side_index(attacked: Bitboard, m: Move) -> Option<usize> {
        let from = m.from()?;
        let to = m.to();
        let threat = usize::from(attacked.contains(from)) * 2 + usize::from(attacked.contains(to));
        Some((threat * 64 + usize::from(from)) * 64 + usize::from(to))
    }

    #[inline]
    fn index(ctx: &Context, action: Action) -> Option<usize> {
        let i = Self::side_index(ctx.threats.all, action.as_move()?)?;
        Some((ctx.turn as usize) * Self::SIDE + i)
    }

    /// The main table's score of a quiet action in `ctx`.
    #[inline]
    pub fn get(&self, ctx: &Context, action: Action) -> i32 {
        Self::index(ctx, action).map_or(0, |i| i32::from(self.table[i]))
    }

    /// Rewards (`bonus` > 0) or punishes an action in the main table.
    #[inline]
    pub fn update(&mut self, ctx: &Context, action: Action, bonus: i32) {
        if let Some(i) = Self::index(ctx, action) {
            let v = &mut self.table[i];
            *v = gravity(i32::from(*v), bonus) as i16;
        }
    }

    /// The continuation tables' entries of `action` in `ctx`.
    #[inline]
    fn cont_index(ctx: &Context, action: Action) -> [Option<usize>; 2] {
        let Some(key) = piece_to(ctx.turn, action) else {
            return [None; 2];
        };
        ctx.prev
            .map(|p| p.map(|p| usize::from(p) * PIECE_TO + usize::from(key)))
    }

    /// The full score of a quiet action in `ctx`: main and continuation
    /// tables together.
    #[inline]
    pub fn quiet(&self, ctx: &Context, action: Action) -> i32 {
        self.quiet_scorer(ctx).score(action)
    }

    /// Scores the quiet actions of one node in `ctx`: the same values as
    /// [`History::quiet`], with the context's table rows found once.
    #[inline]
    pub fn quiet_scorer(&self, ctx: &Context) -> QuietScorer<'_> {
        let side = (ctx.turn as usize) * Self::SIDE;
        let row = |t: usize| {
            ctx.prev[t].map(|p| {
                let start = usize::from(p) * PIECE_TO;
                &self.cont[t][start..start + PIECE_TO]
            })
        };
        QuietScorer {
            main: &self.table[side..side + Self::SIDE],
            cont: [row(0), row(1)],
            attacked: ctx.threats.all,
            turn: ctx.turn,
        }
    }

    #[inline]
    fn capture_index(color: Color, m: Move) -> Option<usize> {
        let key = piece_to(color, Action::Move(m))?;
        let victim = m.capture()? as usize - 1;
        Some(usize::from(key) * 6 + victim)
    }

    /// The capture table's score of capture `m` by `color` (0 for other
    /// moves).
    #[inline]
    pub fn capture(&self, color: Color, m: Move) -> i32 {
        Self::capture_index(color, m).map_or(0, |i| i32::from(self.captures[i]))
    }

    /// Rewards (`bonus` > 0) or punishes capture `m` by `color`.
    #[inline]
    pub fn update_capture(&mut self, color: Color, m: Move, bonus: i32) {
        if let Some(i) = Self::capture_index(color, m) {
            self.captures[i] = gravity(i32::from(self.captures[i]), bonus) as i16;
        }
    }

    /// Rewards (`bonus` > 0) or punishes a quiet action in `ctx`, in every
    /// table.
    #[inline]
    pub fn update_quiet(&mut self, ctx: &Context, action: Action, bonus: i32) {
        self.update(ctx, action, bonus);
        for (table, i) in self.cont.iter_mut().zip(Self::cont_index(ctx, action)) {
            if let Some(i) = i {
                table[i] = gravity(i32::from(table[i]), bonus) as i16;
            }
        }
    }
}

/// [`History::quiet`] for the actions of one node: the main table's part
/// of its side to move and the continuation tables' rows of its previous
/// moves.
pub struct QuietScorer<'a> {
    main: &'a [i16],
    cont: [Option<&'a [i16]>; 2],
    attacked: Bitboard,
    turn: Color,
}

impl QuietScorer<'_> {
    /// The full score of quiet `action`: main and continuation tables
    /// together.
    #[inline]
    pub fn score(&self, action: Action) -> i32 {
        let Some(m) = action.as_move() else { return 0 };
        let mut score =
            History::side_index(self.attacked, m).map_or(0, |i| i32::from(self.main[i]));
        let key = move_piece_to(self.turn, m);
        for row in self.cont.iter().flatten() {
            score += i32::from(row[key]);
        }
        score
    }
}

/// Correction history: how far searches found the static evaluation off,
/// by side to move and a part of the position (the pawn structure, each
/// side's pieces, both sides' minor or major pieces), to correct later
/// evaluations of positions that share that part.
#[derive(Clone)]
pub struct Correction {
    /// One table per [`Slots`] entry, by side to move and a hash of its
    /// part; averages in 1/[`CORRECTION_GRAIN`] of an internal unit.
    tables: [Vec<i32>; CORRECTION_TABLES],
}

/// A node's entry in each correction table: the pawn table, white's and
/// black's piece tables, the minor-piece and major-piece tables.
pub type Slots = [usize; CORRECTION_TABLES];

impl Default for Correction {
    fn default() -> Correction {
        Correction {
            tables: std::array::from_fn(|_| vec![0; 2 << CORRECTION_BITS]),
        }
    }
}

/// Multipliers that spread bitboards over a hash.
const MIX: [u64; 6] = [
    0x9e37_79b9_7f4a_7c15,
    0xc2b2_ae3d_27d4_eb4f,
    0x1656_67b1_9e37_79f9,
    0xd6e8_feb8_6659_fd93,
    0xa076_1d64_78bd_642f,
    0xe703_7ed1_a0b4_28db,
];

impl Correction {
    /// A table index from the side to move and a hash.
    #[inline]
    fn slot(turn: Color, h: u64) -> usize {
        ((turn as usize) << CORRECTION_BITS) | (h >> (64 - CORRECTION_BITS)) as usize
    }

    /// The entries of every table for `turn` to move on `board` (a node's,
    /// to read and later update). The minor and major tables hash both
    /// sides' pieces of those roles with the kings.
    #[inline]
    pub fn indices(turn: Color, board: &Board) -> Slots {
        let hash = |set: Bitboard, i: usize| u64::from(set).wrapping_mul(MIX[i]);
        let pawns = board.pawns();
        let pawn = hash(pawns & board.white(), 0) ^ hash(pawns & board.black(), 1);
        let roles = |ours: Bitboard, roles: &[Role]| {
            roles.iter().fold(0u64, |h, &r| {
                h ^ hash(
                    board.by_role(r) & ours,
                    1 + r as usize - Role::Knight as usize,
                )
            })
        };
        const PIECES: [Role; 5] = [
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
            Role::King,
        ];
        let both =
            |rs: &[Role]| roles(board.white(), rs) ^ roles(board.black(), rs).rotate_left(32);
        [
            Self::slot(turn, pawn),
            Self::slot(turn, roles(board.white(), &PIECES)),
            Self::slot(turn, roles(board.black(), &PIECES)),
            Self::slot(turn, both(&[Role::Knight, Role::Bishop, Role::King])),
            Self::slot(turn, both(&[Role::Rook, Role::Queen, Role::King])),
        ]
    }

    /// The correction to add to a static evaluation of the node whose
    /// [`Correction::indices`] are given, in internal units: the tables'
    /// averages weighed by [`CORRECTION_MIX`].
    #[inline]
    pub fn get(&self, slots: Slots) -> i32 {
        let sum: i32 = (0..CORRECTION_TABLES)
            .map(|t| CORRECTION_MIX[t] * self.tables[t][slots[t]])
            .sum();
        sum / (CORRECTION_GRAIN * CORRECTION_MIX_DIV)
    }

    /// Asks the processor for the entries at `slots` (a hint: nothing is
    /// read), so that [`Correction::get`] soon after finds them cached.
    #[inline]
    pub fn prefetch(&self, slots: Slots) {
        for (table, &i) in self.tables.iter().zip(&slots) {
            super::prefetch::prefetch(&table[i]);
        }
    }

    /// Moves every table's average at the given indices towards `diff`
    /// (search value less static evaluation), more for deeper searches.
    #[inline]
    pub fn update(&mut self, slots: Slots, diff: i32, depth: i32) {
        let weight = (depth + 1).clamp(1, CORRECTION_WEIGHT_MAX);
        let target = diff.clamp(-CORRECTION_MAX, CORRECTION_MAX) * CORRECTION_GRAIN;
        for (table, &i) in self.tables.iter_mut().zip(&slots) {
            let v = &mut table[i];
            *v = (*v * (CORRECTION_WEIGHTS - weight) + target * weight) / CORRECTION_WEIGHTS;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position};

    fn find(fen: &str, uci: &str) -> shakmaty::Move {
        let p: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        p.legal_moves()
            .into_iter()
            .find(|m| m.to_uci(CastlingMode::Standard).to_string() == uci)
            .unwrap()
    }

    fn board(fen: &str) -> Board {
        fen.parse::<Fen>().unwrap().into_setup().board
    }

    #[test]
    fn corrections_are_shared_by_what_positions_have_in_common() {
        let learnt = board("r3k3/pp3ppp/2n5/8/8/2N5/PP3PPP/R3K3 w - - 0 1");
        let mut c = Correction::default();
        for _ in 0..2_000 {
            c.update(Correction::indices(Color::White, &learnt), 120, 20);
        }
        // Each table has learnt about 120 for this position; `mix` weighs
        // what the pawn, white, black, minor and major tables hold.
        let mix = |learnt: [i32; CORRECTION_TABLES]| {
            (0..CORRECTION_TABLES)
                .map(|t| CORRECTION_MIX[t] * learnt[t])
                .sum::<i32>()
                / CORRECTION_MIX_DIV
        };
        let near = |got: i32, want: i32| (got - want).abs() <= 2;
        assert!(near(
            c.get(Correction::indices(Color::White, &learnt)),
            mix([120; 5])
        ));
        // The other side to move reads other entries.
        assert_eq!(c.get(Correction::indices(Color::Black, &learnt)), 0);
        // White's knight elsewhere: the pawn, black piece and major tables
        // agree.
        let white_moved = board("r3k3/pp3ppp/2n5/8/8/8/PP1N1PPP/R3K3 w - - 0 1");
        assert!(near(
            c.get(Correction::indices(Color::White, &white_moved)),
            mix([120, 0, 120, 0, 120])
        ));
        // Both sides' knights elsewhere: the pawn and major tables.
        let both_moved = board("r3k3/pp1n1ppp/8/8/8/8/PP1N1PPP/R3K3 w - - 0 1");
        assert!(near(
            c.get(Correction::indices(Color::White, &both_moved)),
            mix([120, 0, 0, 0, 120])
        ));
        // A rook elsewhere: the pawn, black piece and minor tables.
        let rook_moved = board("r3k3/pp3ppp/2n5/8/8/2N5/PP3PPP/1R2K3 w - - 0 1");
        assert!(near(
            c.get(Correction::indices(Color::White, &rook_moved)),
            mix([120, 0, 120, 120, 0])
        ));
        // Other pawns, the same pieces: every table but the pawns'.
        let pawn_moved = board("r3k3/pp3ppp/2n5/8/8/2N4P/PP3PP1/R3K3 w - - 0 1");
        assert!(near(
            c.get(Correction::indices(Color::White, &pawn_moved)),
            mix([0, 120, 120, 120, 120])
        ));
    }

    #[test]
    fn history_gravity() {
        let a = Action::Move(find("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "h1h5"));
        let ctx = |turn, threats| Context {
            turn,
            threats,
            prev: [None; 2],
        };
        let white = ctx(Color::White, Threats::NONE);
        let mut h = History::default();
        for _ in 0..100 {
            h.update(&white, a, 4000);
        }
        assert!(h.get(&white, a) <= HISTORY_MAX);
        assert!(h.get(&white, a) > HISTORY_MAX / 2);
        assert_eq!(h.get(&ctx(Color::Black, Threats::NONE), a), 0);
        // The same move out of an attack, or into one, is another entry.
        let attacked = |sq| Threats {
            all: Bitboard::from_square(sq),
            ..Threats::NONE
        };
        let from = ctx(Color::White, attacked(shakmaty::Square::H1));
        let to = ctx(Color::White, attacked(shakmaty::Square::H5));
        assert_eq!(h.get(&from, a), 0);
        assert_eq!(h.get(&to, a), 0);
        h.update(&to, a, -4000);
        assert!(h.get(&to, a) < 0);
        assert!(h.get(&white, a) > HISTORY_MAX / 2);
    }

    #[test]
    fn gravity_stays_within_the_bound() {
        // The tables keep `i16`s: from any value within the bound, any
        // bonus (clamped to it) leaves the value within it.
        let steps = [1, 2, 3, 7, 100, 4_095, 8_191, 16_383, 16_384, 20_000];
        let values = (-HISTORY_MAX..=HISTORY_MAX)
            .step_by(97)
            .chain([-HISTORY_MAX, HISTORY_MAX]);
        for v in values {
            for b in steps.iter().flat_map(|&b| [b, -b]) {
                let w = gravity(v, b);
                assert!((-HISTORY_MAX..=HISTORY_MAX).contains(&w), "{v} {b} -> {w}");
            }
        }
        const { assert!(HISTORY_MAX <= i16::MAX as i32) };
    }

    #[test]
    fn attacked_squares() {
        let b = board("4k3/8/8/3p4/8/8/8/R3K2N w - - 0 1");
        let by_black = Threats::of(&b, Color::Black).all;
        // The d5 pawn takes on c4 and e4; the king covers its neighbours.
        let expect: Bitboard = ["c4", "e4", "d8", "f8", "d7", "e7", "f7"]
            .iter()
            .map(|s| s.parse::<shakmaty::Square>().unwrap())
            .collect();
        assert_eq!(by_black, expect);
        let white = Threats::of(&b, Color::White);
        let by_white = white.all;
        // Only the knight is a minor piece; nothing is a pawn.
        assert_eq!(white.pawns, Bitboard::EMPTY);
        assert_eq!(white.minors, attacks::knight_attacks(shakmaty::Square::H1));
        assert!(white.rooks.contains(shakmaty::Square::A8));
        assert!(!white.rooks.contains(shakmaty::Square::E2));
        // The rook along the first rank up to its king and up the a-file,
        // the knight on h1, the king around e1.
        for s in ["a8", "a2", "b1", "d1", "g3", "f2", "d2", "e2", "f1"] {
            assert!(by_white.contains(s.parse().unwrap()), "{s}");
        }
        assert!(!by_white.contains(shakmaty::Square::G1));
        assert!(!by_white.contains(shakmaty::Square::C4));
    }
}
