//! `stylish`: capture awards within reach (pawns and kings take big pieces
//! for big points, a queen takes for almost nothing), the draw
//! compensation of the weaker side, the mate's value.

use shakmaty::attacks;
use shakmaty::{Bitboard, Board, Color, File, Role};

use super::super::variant_weights::VariantWeights;
use super::super::{ResultMargins, Units};
use super::{Ctx, VariantEval, expected, toward_draw};
use crate::scoring::Points;
use crate::scoring::variants::stylish;

/// The best capture award `color` could take now.
pub fn best_capture(t: &stylish::Table, board: &Board, color: Color) -> Points {
    let occupied = board.occupied();
    let ours = board.by_color(color);
    let theirs = board.by_color(!color) & !board.kings();
    if theirs.is_empty() {
        return Points::ZERO;
    }
    let mut best = Points::ZERO;
    // A pawn's award does not depend on its squares: the pawns' attacks
    // at once.
    let pawns = board.pawns() & ours;
    let (west, east) = (Bitboard::from_file(File::A), Bitboard::from_file(File::H));
    let pawn_reach = if color.is_white() {
        (pawns & !west).shift(7) | (pawns & !east).shift(9)
    } else {
        (pawns & !west).shift(-9) | (pawns & !east).shift(-7)
    } & theirs;
    for to in pawn_reach {
        if let Some(victim) = board.role_at(to) {
            best = best.max(t.capture.value(Role::Pawn, to, to, victim));
        }
    }
    for role in [
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ] {
        for from in board.by_role(role) & ours {
            let att = attacks::attacks(from, role.of(color), occupied) & theirs;
            for victim in [
                Role::Pawn,
                Role::Knight,
                Role::Bishop,
                Role::Rook,
                Role::Queen,
            ] {
                for to in att & board.by_role(victim) {
                    let p = t.capture.value(role, from, to, victim);
                    if p > best {
                        best = p;
                    }
                }
            }
        }
    }
    best
}

/// What a mate by `color` is expected to pay, by the strongest piece it
/// has: the mean award of the mates Tally gives in self-play (the search
/// picks the most stylish mate it sees, so a side with a queen does not
/// mate for a queen's 60 or 80), on the variant's scale.
pub fn mate_value(w: &VariantWeights, units: Units, board: &Board, color: Color) -> Points {
    let ours = board.by_color(color);
    units.pawns(if (board.queens() & ours).any() {
        w.sty_mate_with_queen
    } else if (board.rooks() & ours).any() {
        w.sty_mate_with_rook
    } else {
        w.sty_mate_with_minors
    })
}

/// The stylish draw compensation margin for `stm` if the game were drawn
/// now: the side with less force gets `(difference) + max(0, max_force -
/// own)` (the table's draw award without its bare-kings case).
pub fn draw_margin(t: &stylish::Table, board: &Board, stm: Color) -> Points {
    match stylish::compensation(t, board) {
        Some((weaker, p)) if weaker == stm => p,
        Some((_, p)) => -p,
        None => Points::ZERO,
    }
}

/// The stylish evaluation, given the margin of a draw now (`draw`, from
/// [`draw_margin`]).
pub fn value(c: &Ctx, draw: i32) -> i32 {
    let u = c.units;
    let t = &c.tables.stylish;
    let r = ResultMargins {
        win: u.from_points(mate_value(c.weights, u, c.board, c.stm)),
        draw,
        loss: -u.from_points(mate_value(c.weights, u, c.board, !c.stm)),
    };
    let mut v = expected(c, r);
    let ours = u.from_points(best_capture(t, c.board, c.stm));
    let theirs = u.from_points(best_capture(t, c.board, !c.stm));
    // The side to move takes its best capture more often than the other
    // side gets to take its own.
    let share = |units: i32, per_mille: i64| (i64::from(units) * per_mille / 1000) as i32;
    v += share(ours, c.weights.sty_capture_ours) - share(theirs, c.weights.sty_capture_theirs);
    v
}

/// The stylish evaluation.
#[derive(Clone, Copy, Debug)]
pub struct Eval;

impl VariantEval for Eval {
    fn tuned_weights(&self) -> &'static VariantWeights {
        &super::super::tuned::stylish::TUNED
    }

    /// A mate is worth about a rook's mate from afar; a draw, the weaker
    /// side's compensation.
    fn margins(&self, c: &Ctx) -> ResultMargins {
        let (u, t) = (c.units, &c.tables.stylish);
        let draw = u.from_points(draw_margin(t, c.board, c.stm));
        ResultMargins::even(u.from_points(t.mate.rook[1]), draw)
    }

    fn value(&self, c: &Ctx) -> i32 {
        let draw = c
            .units
            .from_points(draw_margin(&c.tables.stylish, c.board, c.stm));
        toward_draw(c, value(c, draw), draw)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;

    fn board(fen: &str) -> Board {
        fen.parse::<Fen>().unwrap().into_setup().board
    }

    #[test]
    fn best_capture_in_reach() {
        let t = stylish::Table::default();
        // A pawn attacks a queen: 40 points within reach.
        let b = board("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1");
        assert_eq!(best_capture(&t, &b, Color::White), Points::whole(40));
        assert_eq!(best_capture(&t, &b, Color::Black), Points::whole(0));
    }

    #[test]
    fn best_capture_is_the_best_of_every_capture() {
        // Every piece's every capture, one at a time.
        fn reference(t: &stylish::Table, board: &Board, color: Color) -> Points {
            let theirs = board.by_color(!color) & !board.kings();
            let mut best = Points::ZERO;
            for from in board.by_color(color) {
                let pc = board.piece_at(from).unwrap();
                for to in attacks::attacks(from, pc, board.occupied()) & theirs {
                    let victim = board.role_at(to).unwrap();
                    best = best.max(t.capture.value(pc.role, from, to, victim));
                }
            }
            best
        }
        let t = stylish::Table::default();
        for fen in [
            "4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1",
            "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
            "r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 10",
            "1r2k3/P6P/1q4b1/p1p5/1P1Pn3/8/3Q1p2/R3K2r w - - 0 1",
            "8/8/8/8/8/8/8/K1k5 w - - 0 1",
        ] {
            let b = board(fen);
            for color in [Color::White, Color::Black] {
                assert_eq!(
                    best_capture(&t, &b, color),
                    reference(&t, &b, color),
                    "{fen}"
                );
            }
        }
    }

    #[test]
    fn mate_value_by_strongest_piece() {
        let u = Units::of(&crate::scoring::Scorer::new(crate::rules::Variant::Stylish));
        let w = |fen| mate_value(&VariantWeights::UNTUNED, u, &board(fen), Color::White);
        // The default scale is 5 points per pawn.
        assert_eq!(w("4k3/8/8/8/8/8/8/R2QK3 w - - 0 1"), Points::whole(120));
        assert_eq!(w("4k3/8/8/8/8/8/8/R3K1N1 w - - 0 1"), Points::whole(125));
        assert_eq!(w("4k3/8/8/8/8/8/4P3/4KBN1 w - - 0 1"), Points::whole(160));
    }
}
