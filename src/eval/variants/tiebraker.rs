//! `tiebraker`: dynamic scoring with the disk. The result margins follow
//! the disk's phase ([`Eval`]'s `margins`); a frozen (disk)
//! king never moves again, so every check it cannot block or capture is
//! mate, and after an accepted disk compulsory capture-or-check keeps
//! opening lines towards it: the disk holder's king safety is most of what
//! a disk changes.

use shakmaty::attacks;
use shakmaty::{Board, Color};

use super::super::ResultMargins;
use super::super::mgeg::MgEg;
use super::super::variant_weights::VariantWeights;
use super::{
    Ctx, VariantEval, attacked_by, checking_moves, dynamic, expected, perpetual, toward_draw,
};
use crate::rules::Disk;
use crate::scoring::Points;

/// The penalty of a frozen king (centipawns, tapered): where it stands,
/// the checks the enemy has against it, and the enemy's attacks on the
/// squares around it.
pub fn frozen_king(w: &VariantWeights, board: &Board, color: Color) -> MgEg {
    let Some(k) = (board.kings() & board.by_color(color)).first() else {
        return MgEg::default();
    };
    let file = k.file() as i32;
    let mut s = if (2..=5).contains(&file) {
        MgEg::new(w.tb_frozen_central_king_mg, w.tb_frozen_central_king_eg)
    } else {
        MgEg::new(w.tb_frozen_king_mg, w.tb_frozen_king_eg)
    };
    let checks = (checking_moves(board, !color) as i32).min(w.tb_checks_counted);
    s += MgEg::new(w.tb_frozen_check_mg, w.tb_frozen_check_eg) * checks;
    let zone = attacks::king_attacks(k);
    let hits = (zone & attacked_by(board, !color)).count() as i32;
    s += MgEg::new(w.tb_frozen_zone_mg, w.tb_frozen_zone_eg) * hits;
    s
}

/// The tiebraker evaluation; `r` are the phase's result margins.
pub fn value(c: &Ctx, r: ResultMargins) -> i32 {
    let mut cp = c.cp;
    if let Some(holder) = c.extra.disk.disk_holder() {
        let frozen = frozen_king(c.weights, c.board, holder).taper(c.phase);
        cp += if holder == c.stm { frozen } else { -frozen };
    }
    let c = Ctx { cp, ..*c };
    let e = expected(&c, r);
    // Before a disk the scoring is dynamic's, perpetual checks included.
    if matches!(c.extra.disk, Disk::None) {
        e + perpetual(
            &c,
            e,
            dynamic::perpetual_margin(&c, c.stm),
            dynamic::perpetual_margin(&c, !c.stm),
        )
    } else {
        e
    }
}

/// The tiebraker evaluation.
#[derive(Clone, Copy, Debug)]
pub struct Eval;

impl VariantEval for Eval {
    fn tuned_weights(&self) -> &'static VariantWeights {
        &super::super::tuned::tiebraker::TUNED
    }

    /// The margins of the disk's phase (spec section 7): dynamic's before
    /// a disk and in a swap's window, the table's of each phase after.
    fn margins(&self, c: &Ctx) -> ResultMargins {
        let stm = c.stm;
        let u = c.units;
        let t = c.tables;
        let d = &t.dynamic;
        let tb = &t.tiebraker;
        let diff = |s: [Points; 2]| u.from_points(s[0] - s[1]);
        let white_minus_black = |s: [Points; 2]| {
            let m = diff(s);
            if stm.is_white() { m } else { -m }
        };
        let dynamic = ResultMargins {
            win: diff(d.mate),
            draw: white_minus_black(d.draw),
            loss: -diff(d.mate),
        };
        match c.extra.disk {
            Disk::None | Disk::Offered { .. } => dynamic,
            Disk::Swapped { plies, .. } if plies <= Disk::SWAP_WINDOW => dynamic,
            Disk::Swapped { .. } => ResultMargins {
                win: diff(tb.swapped_mate),
                draw: white_minus_black(tb.swapped_draw),
                loss: -diff(tb.swapped_mate),
            },
            Disk::Accepted { disk } => {
                let draw = white_minus_black(tb.accepted_draw);
                if stm == disk {
                    ResultMargins {
                        win: diff(tb.accepted_disk_mates),
                        draw,
                        loss: -diff(tb.accepted_other_mates),
                    }
                } else {
                    ResultMargins {
                        win: diff(tb.accepted_other_mates),
                        draw,
                        loss: -diff(tb.accepted_disk_mates),
                    }
                }
            }
            Disk::Restored { first } => {
                let other = diff(tb.restored_other);
                let restorer_mates = diff(tb.restored_restorer_mates);
                if stm == first {
                    ResultMargins {
                        win: other,
                        draw: other,
                        loss: -restorer_mates,
                    }
                } else {
                    ResultMargins {
                        win: restorer_mates,
                        draw: -other,
                        loss: -other,
                    }
                }
            }
        }
    }

    fn value(&self, c: &Ctx) -> i32 {
        let r = self.margins(c);
        toward_draw(c, value(c, r), r.draw)
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
    fn a_frozen_king_under_fire_costs_more() {
        let w = &VariantWeights::UNTUNED;
        let wing = MgEg::new(w.tb_frozen_king_mg, w.tb_frozen_king_eg);
        let centre = MgEg::new(w.tb_frozen_central_king_mg, w.tb_frozen_central_king_eg);
        let check = MgEg::new(w.tb_frozen_check_mg, w.tb_frozen_check_eg);
        let square = MgEg::new(w.tb_frozen_zone_mg, w.tb_frozen_zone_eg);
        // Castled and out of reach: the wing penalty and nothing else.
        let quiet = board("4k3/8/8/8/8/8/5PPP/6K1 w - - 0 1");
        assert_eq!(frozen_king(w, &quiet, Color::White), wing);
        // In the centre, facing a rook on the open file: every enemy check
        // and every attacked square around the king counts.
        let exposed = board("k3r3/8/8/8/8/8/8/4K3 w - - 0 1");
        let s = frozen_king(w, &exposed, Color::White);
        let checks = checking_moves(&exposed, Color::Black) as i32;
        let zone = (attacks::king_attacks(shakmaty::Square::E1)
            & attacked_by(&exposed, Color::Black))
        .count() as i32;
        assert!(checks > 0 && zone > 0);
        assert_eq!(
            s,
            centre + check * checks.min(w.tb_checks_counted) + square * zone
        );
        assert!(s.mg < centre.mg);
    }
}
