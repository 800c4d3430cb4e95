//! `tiebraker`: dynamic scoring with the disk. The result margins follow
//! the disk's phase (see [`Evaluator::result_margins`]); a frozen (disk)
//! king never moves again, so every check it cannot block or capture is
//! mate, and after an accepted disk compulsory capture-or-check keeps
//! opening lines towards it: the disk holder's king safety is most of what
//! a disk changes.
//!
//! [`Evaluator::result_margins`]: super::super::Evaluator::result_margins

use shakmaty::attacks;
use shakmaty::{Board, Color};

use super::super::ResultMargins;
use super::super::mgeg::MgEg;
use super::super::variant_weights::VariantWeights;
use super::{Ctx, attacked_by, checking_moves, dynamic, expected, perpetual};
use crate::rules::Disk;

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
