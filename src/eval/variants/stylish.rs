//! `stylish`: capture awards within reach (pawns and kings take big pieces
//! for big points, a queen takes for almost nothing), the draw
//! compensation of the weaker side, the mate's value.

use shakmaty::attacks;
use shakmaty::{Board, Color, Role};

use super::super::variant_weights::VariantWeights;
use super::super::{ResultMargins, Units, stylish_draw_margin};
use super::{Ctx, expected};
use crate::scoring::{Points, stylish};

/// The best capture award `color` could take now.
pub fn best_capture(t: &stylish::Table, board: &Board, color: Color) -> Points {
    let occupied = board.occupied();
    let ours = board.by_color(color);
    let theirs = board.by_color(!color) & !board.kings();
    let mut best = Points::ZERO;
    for from in ours {
        let Some(role) = board.role_at(from) else {
            continue;
        };
        let att = match role {
            Role::Pawn => attacks::pawn_attacks(color, from),
            Role::Knight => attacks::knight_attacks(from),
            Role::Bishop => attacks::bishop_attacks(from, occupied),
            Role::Rook => attacks::rook_attacks(from, occupied),
            Role::Queen => attacks::queen_attacks(from, occupied),
            Role::King => attacks::king_attacks(from),
        };
        for to in att & theirs {
            let Some(victim) = board.role_at(to) else {
                continue;
            };
            let p = t.capture.value(role, from, to, victim);
            if p > best {
                best = p;
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

/// The stylish evaluation.
pub fn value(c: &Ctx) -> i32 {
    let u = c.units;
    let t = &c.tables.stylish;
    let r = ResultMargins {
        win: u.from_points(mate_value(c.weights, u, c.board, c.stm)),
        draw: u.from_points(stylish_draw_margin(t, c.board, c.stm)),
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
    fn mate_value_by_strongest_piece() {
        let u = Units::of(&crate::scoring::Scorer::new(crate::rules::Variant::Stylish));
        let w = |fen| mate_value(&VariantWeights::UNTUNED, u, &board(fen), Color::White);
        // The default scale is 5 points per pawn.
        assert_eq!(w("4k3/8/8/8/8/8/8/R2QK3 w - - 0 1"), Points::whole(120));
        assert_eq!(w("4k3/8/8/8/8/8/8/R3K1N1 w - - 0 1"), Points::whole(125));
        assert_eq!(w("4k3/8/8/8/8/8/4P3/4KBN1 w - - 0 1"), Points::whole(160));
    }
}
