//! `extinction`: material by type. Losing every piece of one type loses
//! the game, so the last piece of a type is worth the game, a type down
//! to its last piece is scarce, and a spare king or queen is insurance.
//! There is no check: a king (like a lone queen) is simply a piece that
//! must not be taken, and a fork of two last pieces wins.

use shakmaty::attacks;
use shakmaty::{Bitboard, Board, Color, Role, Square};

use super::super::ResultMargins;
use super::super::mgeg::MgEg;
use super::super::params::*;
use super::{Ctx, VariantEval, attacked_by, counts, pawn_pushes_attacks};

/// Sends the type terms of one side to `add(flat index, weight, count)`
/// (the count negated for the side not to move: `n` is 1 or -1).
pub fn side_terms(
    board: &Board,
    color: Color,
    p: &EvalParams,
    n: i32,
    add: &mut impl FnMut(usize, MgEg, i32),
) {
    let c = counts(board, color);
    // Knights, bishops, rooks: a lone piece of a type is a target.
    for &k in &c[1..4] {
        if k == 1 {
            add(ix::EXT_LAST_PIECE, p.ext_last_piece, n);
        }
    }
    if (1..=3).contains(&c[0]) {
        let i = c[0] as usize - 1;
        add(ix::EXT_LAST_PAWNS + i, p.ext_last_pawns[i], n);
    }
    if c[4] >= 2 {
        add(ix::EXT_SPARE_QUEEN, p.ext_spare_queen, n);
    }
    if c[5] >= 2 {
        add(ix::EXT_SPARE_KING, p.ext_spare_king, n);
    }
    // Last pieces standing where the enemy pawns could hit them next move.
    let enemy_pawns = board.pawns() & board.by_color(!color);
    let pawn_reach = pawn_pushes_attacks(enemy_pawns, !color, board.occupied());
    for (i, r) in Role::ALL.iter().enumerate() {
        if c[i] == 1
            && let Some(sq) = (board.by_role(*r) & board.by_color(color)).first()
            && pawn_reach.contains(sq)
        {
            add(
                ix::EXT_LAST_PIECE_PAWN_THREAT,
                p.ext_last_piece_pawn_threat,
                n,
            );
        }
    }
}

/// The type terms in centipawns for `stm`.
pub fn terms(board: &Board, stm: Color, phase: i32, p: &EvalParams) -> i32 {
    let mut s = MgEg::default();
    let mut add = |_: usize, w: MgEg, n: i32| s += w * n;
    side_terms(board, stm, p, 1, &mut add);
    side_terms(board, !stm, p, -1, &mut add);
    s.taper(phase)
}

/// The squares of `color`'s last pieces: every piece that is the only
/// one of its type.
pub fn last_pieces(board: &Board, color: Color) -> Bitboard {
    let ours = board.by_color(color);
    let mut out = Bitboard::EMPTY;
    for r in Role::ALL {
        let bb = board.by_role(r) & ours;
        if bb.count() == 1 {
            out |= bb;
        }
    }
    out
}

/// Which squares a side attacks, as the threats on last pieces ask it:
/// from the attack sets the base evaluation found ([`Attacks::Known`]), or
/// square by square where none were found ([`Attacks::Lazy`]: the threats
/// ask about a few squares only, the last pieces and the squares that
/// would fork them, so two whole attack maps would cost more).
#[derive(Clone, Copy, Debug)]
pub enum Attacks {
    /// The squares each side attacks, by `Color as usize` ([`attacks_of`]).
    Known([Bitboard; 2]),
    /// Asked of the board for each square.
    Lazy,
}

impl Attacks {
    /// The squares of `squares` that `color` attacks on `board`.
    #[inline]
    pub fn among(&self, board: &Board, color: Color, squares: Bitboard) -> Bitboard {
        match self {
            Attacks::Known(a) => squares & a[color as usize],
            Attacks::Lazy => {
                let occupied = board.occupied();
                let mut out = Bitboard::EMPTY;
                for sq in squares {
                    if board.attacks_to(sq, color, occupied).any() {
                        out.add(sq);
                    }
                }
                out
            }
        }
    }
}

/// Whether `color` has a move that attacks two or more of `targets` from
/// a square the other side does not attack (`guarded`, asked only of the
/// squares that would fork): a fork on last pieces. Pawns count by their
/// single pushes.
///
/// Attacks are symmetric, so the squares from which a piece would hit two
/// targets are found from the targets' side, once per piece (a slider's
/// own square no longer blocks after it moves), instead of from every
/// square the piece can reach.
pub fn has_fork(board: &Board, color: Color, targets: Bitboard, guarded: Attacks) -> bool {
    if !targets.more_than_one() {
        return false;
    }
    let occupied = board.occupied();
    let ours = board.by_color(color);
    // Whether one of the fork squares `c` is safe from the other side.
    let safe = |c: Bitboard| c.any() && (c & !guarded.among(board, !color, c)).any();
    let pawns = board.pawns() & ours;
    let step = if color.is_white() { 8 } else { -8 };
    let mut pawn_forks = Bitboard::EMPTY;
    for to in pawns.shift(step) & !occupied {
        if (attacks::pawn_attacks(color, to) & targets).more_than_one() {
            pawn_forks.add(to);
        }
    }
    if safe(pawn_forks) {
        return true;
    }
    // Knights and kings: where a man lands attacks the same squares
    // whatever the board, so the fork squares are found once per role.
    let leapers = [
        (
            board.knights() & ours,
            attacks::knight_attacks as fn(Square) -> Bitboard,
        ),
        (board.kings() & ours, attacks::king_attacks),
    ];
    for (men, hit) in leapers {
        if men.any() {
            let forks = hit_twice(targets, hit) & !ours;
            if men.into_iter().any(|from| safe(hit(from) & forks)) {
                return true;
            }
        }
    }
    for from in (board.bishops() | board.rooks() | board.queens()) & ours {
        let Some(role) = board.role_at(from) else {
            continue;
        };
        let piece = role.of(color);
        let dests = attacks::attacks(from, piece, occupied) & !ours;
        let occ = occupied & !Bitboard::from(from);
        if safe(dests & hit_twice(targets, |t| attacks::attacks(t, piece, occ))) {
            return true;
        }
    }
    false
}

/// The squares that `hit` (the attacks from a target's square) reaches
/// from two or more of `targets`.
#[inline]
fn hit_twice(targets: Bitboard, hit: impl Fn(Square) -> Bitboard) -> Bitboard {
    let (mut once, mut twice) = (Bitboard::EMPTY, Bitboard::EMPTY);
    for t in targets {
        let s = hit(t);
        twice |= once & s;
        once |= s;
    }
    twice
}

/// The threats on last pieces, in centipawns for `stm`: last pieces the
/// side to move can take now (the game), its own last pieces under attack
/// (two at once are hard to save), and forks on last pieces each side has
/// next.
pub fn threats(board: &Board, stm: Color, attacked: Attacks, phase: i32, p: &EvalParams) -> i32 {
    let mut s = MgEg::default();
    threat_terms(board, stm, attacked, p, &mut |_, w, n| s += w * n);
    s.taper(phase)
}

/// Sends the threat terms of [`threats`] to `add(flat index, weight,
/// count)`. `attacked`: the squares each side attacks.
pub fn threat_terms(
    board: &Board,
    stm: Color,
    attacked: Attacks,
    p: &EvalParams,
    add: &mut impl FnMut(usize, MgEg, i32),
) {
    let our_last = last_pieces(board, stm);
    let their_last = last_pieces(board, !stm);
    if attacked.among(board, stm, their_last).any() {
        add(ix::EXT_TAKE_LAST, p.ext_take_last, 1);
        return;
    }
    match attacked.among(board, !stm, our_last).count() {
        0 => {}
        1 => add(ix::EXT_LAST_ATTACKED, p.ext_last_attacked, 1),
        _ => add(ix::EXT_LAST_ATTACKED_TWICE, p.ext_last_attacked_twice, 1),
    }
    if has_fork(board, stm, their_last, attacked) {
        add(ix::EXT_FORK, p.ext_fork, 1);
    }
    if has_fork(board, !stm, our_last, attacked) {
        add(ix::EXT_FORK_THREAT, p.ext_fork_threat, -1);
    }
}

/// The squares each side attacks, by `Color as usize`: what the base
/// evaluation finds on its way ([`Ctx::attacks`]), found again where it
/// did not run.
pub fn attacks_of(board: &Board) -> [Bitboard; 2] {
    [
        attacked_by(board, Color::Black),
        attacked_by(board, Color::White),
    ]
}

/// The extinction evaluation: the base centipawns with the type terms and
/// the threats on last pieces (extinction is scored 1 / 1/2 / 0, so
/// centipawns are its units).
pub fn value(c: &Ctx) -> i32 {
    let attacked = c.attacks.map_or(Attacks::Lazy, Attacks::Known);
    c.cp + terms(c.board, c.stm, c.phase, c.params)
        + threats(c.board, c.stm, attacked, c.phase, c.params)
}

/// The extinction evaluation.
#[derive(Clone, Copy, Debug)]
pub struct Eval;

impl VariantEval for Eval {
    fn margins(&self, c: &Ctx) -> ResultMargins {
        let t = &c.tables.extinction;
        ResultMargins::even(c.units.from_points(t.win - t.loss), 0)
    }

    #[inline]
    fn value(&self, c: &Ctx) -> i32 {
        value(c)
    }

    fn board_result_alone(&self) -> bool {
        true
    }

    /// The threats on last pieces (one en prise, attacked, forked next move).
    fn over_net(&self) -> Option<super::OverNet> {
        Some(threats_over_net)
    }
}

/// What extinction adds to its net's score: the threats on last pieces,
/// which a net trained on quiet positions knows little of. The type terms
/// are the net's own business.
fn threats_over_net(board: &Board, stm: Color, params: &EvalParams) -> i32 {
    let phase = super::super::base::phase(board);
    threats(board, stm, Attacks::Lazy, phase, params)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;

    /// The hand-set weights: the signs these tests expect are theirs.
    const P: &EvalParams = &EvalParams::UNTUNED;

    fn board(fen: &str) -> Board {
        fen.parse::<Fen>().unwrap().into_setup().board
    }

    #[test]
    fn type_terms() {
        // White has lost a knight (one left), Black has both: Black better.
        let b = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1");
        assert!(terms(&b, Color::White, 24, P) < 0);
        assert_eq!(terms(&Board::new(), Color::White, 24, P), 0);
        // A spare king is insurance.
        let b = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNK w kq - 0 1");
        assert!(terms(&b, Color::White, 24, P) > 0);
    }

    #[test]
    fn last_pieces_and_threats() {
        let start = Board::new();
        let kq = board("3qk3/8/8/8/8/8/8/3QK3 w - - 0 1");
        assert_eq!(last_pieces(&start, Color::White).count(), 2);
        assert_eq!(last_pieces(&kq, Color::Black).count(), 2);
        assert_eq!(
            threats(
                &start,
                Color::White,
                Attacks::Known(attacks_of(&start)),
                24,
                P
            ),
            0
        );
        // Nf7 forks the queen on d8 and the king on h8; Black's queen has
        // a fork back (Qd4 hits the king on a1 and the knight).
        let b = board("3q3k/8/8/4N3/8/8/8/K7 w - - 0 1");
        let targets = last_pieces(&b, Color::Black);
        assert!(has_fork(
            &b,
            Color::White,
            targets,
            Attacks::Known([Bitboard::EMPTY; 2])
        ));
        let p = P;
        let fork = (p.ext_fork - p.ext_fork_threat).mg;
        assert_eq!(
            threats(&b, Color::White, Attacks::Known(attacks_of(&b)), 3, P),
            fork
        );
        // A last piece en prise: the side to move takes it and wins.
        let b = board("3qk3/8/8/8/8/8/8/3RK2Q w - - 0 1");
        assert_eq!(
            threats(&b, Color::White, Attacks::Known(attacks_of(&b)), 20, P),
            p.ext_take_last.mg
        );
        // The knight on f6 attacks both of Black's last pieces.
        let b = board("4k3/8/5N2/3q4/8/8/8/4K3 b - - 0 1");
        let twice = (p.ext_last_attacked_twice + p.ext_fork).mg;
        assert!(threats(&b, Color::Black, Attacks::Known(attacks_of(&b)), 0, P) <= twice);
    }

    /// [`has_fork`] by the definition: every move of every piece, and the
    /// targets its new square attacks.
    fn fork_by_moves(board: &Board, color: Color, targets: Bitboard, guarded: Bitboard) -> bool {
        let occupied = board.occupied();
        let ours = board.by_color(color);
        ours.into_iter().any(|from| {
            let role = board.role_at(from).unwrap();
            let occ = occupied & !Bitboard::from(from);
            let dests = match role {
                Role::Pawn => {
                    let step = if color.is_white() { 8 } else { -8 };
                    Bitboard::from(from).shift(step) & !occupied
                }
                _ => attacks::attacks(from, role.of(color), occupied) & !ours,
            };
            (dests & !guarded).into_iter().any(|to| {
                let hits = match role {
                    Role::Pawn => attacks::pawn_attacks(color, to),
                    _ => attacks::attacks(to, role.of(color), occ),
                };
                (hits & targets).more_than_one()
            })
        })
    }

    #[test]
    fn forks_found_from_the_targets_are_the_moves_forks() {
        use crate::rng::Rng;
        use crate::rules::{ActionList, Extinction, Rules, Variant};
        use shakmaty::Position;
        let rules = Rules::<Extinction>::new(Variant::Extinction);
        let mut rng = Rng::new(0x5eed_f04c);
        let (mut checked, mut found) = (0, 0);
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 0 1",
            "3qk3/1p3p2/2n1b3/8/3N4/8/2P2P2/2BQK2R w K - 0 1",
        ] {
            for _ in 0..40 {
                let mut node = rules.from_fen(fen).unwrap();
                for _ in 0..rng.below(60) {
                    let mut actions = ActionList::new();
                    if rules.generate(&node, &mut actions).is_some() {
                        break;
                    }
                    node = rules.play(&node, actions[rng.below(actions.len())]);
                }
                let board = node.pos.board();
                for color in Color::ALL {
                    // The threats ask the board square by square as the
                    // attack sets answer.
                    let known = Attacks::Known(attacks_of(board));
                    assert_eq!(
                        threats(board, color, Attacks::Lazy, 12, P),
                        threats(board, color, known, 12, P),
                        "{board:?} {color:?}"
                    );
                    let theirs = board.by_color(!color);
                    // The evaluation's targets, then any of the other
                    // side's men, guarded as in the evaluation or not.
                    let some = Bitboard(theirs.0 & rng.next_u64());
                    for targets in [last_pieces(board, !color), some, theirs] {
                        let known = Attacks::Known(attacks_of(board));
                        let none = Attacks::Known([Bitboard::EMPTY; 2]);
                        let guarded = attacked_by(board, !color);
                        for (attacks, guarded) in [
                            (known, guarded),
                            (Attacks::Lazy, guarded),
                            (none, Bitboard::EMPTY),
                        ] {
                            let want = fork_by_moves(board, color, targets, guarded);
                            assert_eq!(
                                has_fork(board, color, targets, attacks),
                                want,
                                "{board:?} {color:?} {targets:?} {attacks:?}"
                            );
                            checked += 1;
                            found += usize::from(want);
                        }
                    }
                }
            }
        }
        assert_eq!(checked, 3 * 40 * 2 * 3 * 3);
        // Both answers were seen often.
        assert!(found > 100 && checked - found > 100, "{found} of {checked}");
    }
}
