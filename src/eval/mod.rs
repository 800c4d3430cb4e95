//! Evaluation: the expected future point margin of a position for the side
//! to move, in the search's internal units.
//!
//! The base evaluation ([`base`]) is a classical chess evaluation in
//! centipawns. A win/draw/loss model ([`wdl`]) turns it into probabilities,
//! and the variant's outcome table into expected points: that is the base
//! value ([`EvalMode::Base`], the yardstick). The variant evaluators
//! ([`variants`], one module per variant; [`EvalMode::Variant`], the
//! default) estimate what each variant still pays beyond the board result.
//! Both sit behind [`Evaluate`]. Imports `rules` and the point tables of
//! `scoring` only.

pub mod base;
pub mod params;
pub mod score;
pub mod variants;
pub mod wdl;

use shakmaty::Color;

use crate::rules::{Disk, Node, Pos, Variant};
use crate::scoring::{Memo, Points, Scorer};
use params::MOVE_RULE_DRIFT;

pub use wdl::Wdl;

/// Anything that estimates the future point margin of a node for the side
/// to move, in internal units (see [`Units`]).
pub trait Evaluate<P: Pos>: Send + Sync {
    /// The estimate. Must stay well inside the search's decisive band.
    fn evaluate(&self, node: &Node<P>, memo: &Memo) -> i32;
}

/// Internal score units: 100 per pawn of material in every variant, so
/// pruning margins mean the same everywhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Units {
    /// Thousandths of a point per pawn of material.
    ppp_milli: i64,
}

impl Units {
    /// The units of a scorer's variant.
    pub fn of(scorer: &Scorer) -> Units {
        Units {
            ppp_milli: scorer.points_per_pawn().milli().max(1),
        }
    }

    /// Points in internal units (rounded towards zero, saturating).
    #[inline]
    pub fn from_points(self, p: Points) -> i32 {
        let v = p.milli().saturating_mul(100) / self.ppp_milli;
        v.clamp(-(1 << 28), 1 << 28) as i32
    }

    /// Internal units in points.
    pub fn to_points(self, v: i32) -> f64 {
        f64::from(v) * self.ppp_milli as f64 / 100_000.0
    }
}

/// Which evaluation to use: the base alone, or the variant's own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum EvalMode {
    /// The variant evaluator (the default).
    #[default]
    Variant,
    /// The base evaluation with the win/draw/loss model only.
    Base,
}

/// The margins of the three board results for the side to move, in
/// internal units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResultMargins {
    /// A won game.
    pub win: i32,
    /// A drawn game.
    pub draw: i32,
    /// A lost game.
    pub loss: i32,
}

/// The evaluator of a variant.
#[derive(Clone, Debug)]
pub struct Evaluator {
    variant: Variant,
    scorer: Scorer,
    units: Units,
    mode: EvalMode,
}

impl Evaluator {
    /// The evaluator for a scorer's variant.
    pub fn new(scorer: &Scorer, mode: EvalMode) -> Evaluator {
        Evaluator {
            variant: scorer.variant(),
            scorer: scorer.clone(),
            units: Units::of(scorer),
            mode,
        }
    }

    /// The evaluation mode.
    pub fn mode(&self) -> EvalMode {
        self.mode
    }

    /// The units.
    pub fn units(&self) -> Units {
        self.units
    }

    /// The margins of a win, a draw and a loss for `stm` in `node`, under
    /// the variant's outcome table.
    pub fn result_margins<P: Pos>(&self, node: &Node<P>, memo: &Memo) -> ResultMargins {
        let stm = node.pos.turn();
        let u = self.units;
        let t = self.scorer.tables();
        match self.variant {
            Variant::Chess | Variant::Extinction => {
                let tab = if self.variant == Variant::Chess {
                    &t.chess
                } else {
                    &t.extinction
                };
                let m = u.from_points(tab.win - tab.loss);
                ResultMargins {
                    win: m,
                    draw: 0,
                    loss: -m,
                }
            }
            Variant::Sets => {
                let m = u.from_points(t.sets.mate);
                let d = match self.scorer.draw_advantage().color() {
                    Some(c) if c == stm => u.from_points(t.sets.draw),
                    Some(_) => -u.from_points(t.sets.draw),
                    None => 0,
                };
                ResultMargins {
                    win: m,
                    draw: d,
                    loss: -m,
                }
            }
            Variant::Dynamic => {
                let m = u.from_points(t.dynamic.mate[0] - t.dynamic.mate[1]);
                ResultMargins {
                    win: m,
                    draw: 0,
                    loss: -m,
                }
            }
            Variant::Tiebraker => self.tiebraker_margins(node),
            Variant::Stylish => {
                let mate = u.from_points(Points::whole(110));
                let draw = u.from_points(stylish_draw_margin(node.pos.board(), stm));
                ResultMargins {
                    win: mate,
                    draw,
                    loss: -mate,
                }
            }
            Variant::Wacky => {
                let ours = wacky_win_estimate(node.pos.board(), stm, memo.moves[stm as usize]);
                let theirs = wacky_win_estimate(node.pos.board(), !stm, memo.moves[!stm as usize]);
                ResultMargins {
                    win: u.from_points(ours),
                    draw: 0,
                    loss: -u.from_points(theirs),
                }
            }
        }
    }

    /// Tiebraker: the result margins depend on the disk's phase (spec
    /// section 7).
    fn tiebraker_margins<P: Pos>(&self, node: &Node<P>) -> ResultMargins {
        let stm = node.pos.turn();
        let u = self.units;
        let t = self.scorer.tables();
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
        match node.extra.disk {
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

    /// The base evaluation as expected points: the centipawn evaluation
    /// through the win/draw/loss model and the variant's result margins,
    /// plus a small share of the centipawns so that a won position still
    /// shows progress.
    pub fn base_value<P: Pos>(&self, node: &Node<P>, memo: &Memo) -> i32 {
        let cp = base::evaluate(node.pos.board(), node.pos.turn());
        if matches!(self.variant, Variant::Chess | Variant::Extinction) {
            return cp;
        }
        let r = self.result_margins(node, memo);
        let w = Wdl::from_cp(cp, base::phase(node.pos.board()));
        w.expect(r) + cp.clamp(-3000, 3000) / 32
    }
}

impl Evaluator {
    /// The variant evaluation: the variant's own estimate of the points
    /// still to come (see [`variants`]), drifting to the draw's points near
    /// the move-count rule.
    pub fn variant_value<P: Pos>(&self, node: &Node<P>, memo: &Memo) -> i32 {
        let board = node.pos.board();
        let stm = node.pos.turn();
        let bd = base::breakdown(board);
        let ctx = variants::Ctx {
            board,
            stm,
            check: node.check,
            extra: node.extra,
            halfmoves: node.pos.halfmoves(),
            rule_plies: self.variant.move_rule_plies(),
            memo,
            cp: bd.cp_for(stm),
            phase: bd.phase,
            units: self.units,
            tables: self.scorer.tables(),
        };
        let (v, draw) = match self.variant {
            Variant::Chess => return ctx.cp,
            Variant::Extinction => return variants::extinction::value(&ctx),
            Variant::Stylish => {
                let v = variants::stylish::value(&ctx);
                let draw = self.units.from_points(stylish_draw_margin(board, stm));
                (v, draw)
            }
            Variant::Wacky => (variants::wacky::value(&ctx), 0),
            Variant::Sets => {
                let r = self.result_margins(node, memo);
                (variants::sets::value(&ctx, r), r.draw)
            }
            Variant::Dynamic => {
                let r = self.result_margins(node, memo);
                (variants::dynamic::value(&ctx, r), r.draw)
            }
            Variant::Tiebraker => {
                let r = self.result_margins(node, memo);
                (variants::tiebraker::value(&ctx, r), r.draw)
            }
        };
        // Near the move-count rule the expected result drifts to the draw.
        let rule = self.variant.move_rule_plies() as i32;
        let h = node.pos.halfmoves() as i32;
        let near = rule - MOVE_RULE_DRIFT;
        if h > near {
            let f = (h - near).min(MOVE_RULE_DRIFT);
            (v * (MOVE_RULE_DRIFT - f) + draw * f) / MOVE_RULE_DRIFT
        } else {
            v
        }
    }
}

impl<P: Pos> Evaluate<P> for Evaluator {
    #[inline]
    fn evaluate(&self, node: &Node<P>, memo: &Memo) -> i32 {
        match self.mode {
            EvalMode::Base => self.base_value(node, memo),
            EvalMode::Variant => self.variant_value(node, memo),
        }
    }
}

/// Non-royal force (P 1, N 3, B 3, R 5, Q 9) of `color`.
pub fn force(board: &shakmaty::Board, color: Color) -> i64 {
    let ours = board.by_color(color);
    let n = |bb: shakmaty::Bitboard| (bb & ours).count() as i64;
    n(board.pawns())
        + 3 * n(board.knights())
        + 3 * n(board.bishops())
        + 5 * n(board.rooks())
        + 9 * n(board.queens())
}

/// The stylish draw compensation margin for `stm` if the game were drawn
/// now: the side with less force gets `(difference) + max(0, 39 - own)`.
pub fn stylish_draw_margin(board: &shakmaty::Board, stm: Color) -> Points {
    let (a, b) = (force(board, stm), force(board, !stm));
    let comp = |own: i64, other: i64| (other - own) + (39 - own).max(0);
    Points::whole(match a.cmp(&b) {
        std::cmp::Ordering::Less => comp(a, b),
        std::cmp::Ordering::Greater => -comp(b, a),
        std::cmp::Ordering::Equal => 0,
    })
}

/// A rough value of a wacky checkmate for `color` now: the mate award and
/// the life bonus at the current material, and the moves bonus assuming ten
/// more moves.
pub fn wacky_win_estimate(board: &shakmaty::Board, color: Color, moves_made: u16) -> Points {
    let life = force(board, color) + 4;
    let rate = match life {
        0..=25 => 1000,
        26..=35 => 2000,
        36..=40 => 3000,
        41..=42 => 5000,
        43 => 10000,
        _ => 20000,
    };
    let m = i64::from(moves_made) + 10;
    let moves_rate = match m {
        40..=49 => 500,
        30..=39 => 700,
        20..=29 => 1000,
        15..=19 => 2000,
        10..=14 => 3500,
        4..=9 => 5000,
        1..=3 => 10000,
        _ => 0,
    };
    Points::whole(25000 + life * rate + (50 - m).max(0) * moves_rate)
}
