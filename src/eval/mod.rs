//! Evaluation: the expected future point margin of a position for the side
//! to move, in the search's internal units.
//!
//! The base evaluation ([`base`]) is a classical chess evaluation in
//! centipawns. A win/draw/loss model ([`wdl`]) turns it into probabilities,
//! and the variant's outcome table into expected points: that is the base
//! value ([`EvalMode::Base`], the yardstick). The variant evaluators
//! ([`variants`], one module per variant; [`EvalMode::Variant`], the
//! default) estimate what each variant still pays beyond the board result.
//! [`EvalMode::Nnue`] evaluates chess and extinction boards with a trained
//! network ([`crate::nnue`]) in place of the base evaluation and the
//! extinction terms. All sit behind [`Evaluate`]. Imports `rules`, `nnue`
//! and the point tables of `scoring` only.

pub mod base;
pub mod curve;
pub mod mgeg;
pub mod params;
pub mod trace;
pub mod tuned;
pub mod variant_weights;
pub mod variants;
pub mod wdl;

use std::sync::Arc;

use shakmaty::Color;

use crate::nnue::{Accumulator, Network};
use crate::rules::{BoardKind, Disk, Node, Pos, Variant};
use crate::scoring::{Memo, Points, Scorer, stylish, wacky};
use params::EvalParams;
use variant_weights::{VariantWeights, WeightOverrides};
use wdl::WdlModel;

pub use wdl::Wdl;

/// Anything that estimates the future point margin of a node for the side
/// to move, in internal units (see [`Units`]).
///
/// An evaluator may keep a [`State`](Evaluate::State) per search frame,
/// carried from a node to its children (a net's accumulators): the search
/// takes the root's from [`Evaluate::root_state`], brings each child's up
/// to date with [`Evaluate::child_state`] as it plays an action or a null
/// move, and evaluates with [`Evaluate::evaluate_with`].
pub trait Evaluate<P: Pos>: Send + Sync {
    /// What the evaluator keeps per search frame.
    type State: Clone + Send;

    /// The estimate. Must stay well inside the search's decisive band.
    fn evaluate(&self, node: &Node<P>, memo: &Memo) -> i32;

    /// The state of a node the search starts from.
    fn root_state(&self, node: &Node<P>) -> Self::State;

    /// Sets `child` to the state of `after`, reached from `before` (whose
    /// state is `parent`) by one action or a null move.
    fn child_state(
        &self,
        before: &Node<P>,
        parent: &Self::State,
        after: &Node<P>,
        child: &mut Self::State,
    );

    /// The estimate of a node whose state is `state`: the same value as
    /// [`Evaluate::evaluate`].
    fn evaluate_with(&self, node: &Node<P>, memo: &Memo, state: &Self::State) -> i32 {
        let _ = state;
        self.evaluate(node, memo)
    }

    /// The share (per mille) of a perpetual check's award that the search
    /// counts for one it projects from a position of its tree repeated
    /// once ([`VariantWeights::perpetual_trust`]); all of it by default.
    fn perpetual_trust(&self) -> i32 {
        variant_weights::FULL_TRUST
    }
}

/// Internal score units: 100 per pawn of material in every variant (a pawn
/// is [`Scorer::points_per_pawn`], from the point table), so pruning
/// margins mean the same everywhere, unless the variant's awards
/// are so large that a search path could not hold them: then the units
/// grow coarser until the largest margin of [`Units::PATH_PLIES`] actions
/// and an ending ([`Scorer::action_bound`], [`Scorer::end_bound`]) fits
/// within [`Units::limit`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Units {
    /// Thousandths of a point per 100 units: the scale's pawn times
    /// [`Scorer::search_pawns`].
    ppp_milli: i64,
    /// Thousandths of a point per pawn of the variant's scale
    /// ([`Scorer::points_per_pawn`]): what the evaluator's weights in
    /// thousandths of a pawn are worth ([`Units::pawns`]).
    pawn_milli: i64,
    /// The largest magnitude of a path's margin and of an estimate.
    limit: i32,
    /// The margin of a win where the search's values lie on the value
    /// curve ([`curve`]): the variants whose evaluators return expected
    /// margins and whose actions earn nothing by themselves (sets,
    /// dynamic, tiebraker), with its table. `None`: the values are the
    /// margins.
    curve: Option<&'static curve::Table>,
}

impl Units {
    /// The longest search path (in actions) whose margin the units hold.
    pub const PATH_PLIES: u32 = 128;
    /// The limit of a variant with the search's decisive band: the margins
    /// of decided games stay well apart from one another by ply.
    pub const BAND_LIMIT: i32 = 1 << 19;
    /// The limit of a variant without the decisive band.
    pub const LIMIT: i32 = 1 << 27;

    /// The units of a scorer's variant.
    pub fn of(scorer: &Scorer) -> Units {
        let limit = if scorer.decisive_band() {
            Units::BAND_LIMIT
        } else {
            Units::LIMIT
        };
        let path = i128::from(scorer.action_bound().milli()).abs() * i128::from(Units::PATH_PLIES)
            + i128::from(scorer.end_bound().milli()).abs();
        // The least thousandths per pawn that bring the path within the
        // limit (rounded up; both bounds are at most `i64::MAX`, so this
        // fits an `i64`).
        let limit_wide = i128::from(limit);
        let needed = (path * 100 + limit_wide - 1) / limit_wide;
        let needed = i64::try_from(needed).unwrap_or(i64::MAX);
        let pawn_milli = scorer.points_per_pawn().milli().max(1);
        let mut units = Units {
            ppp_milli: pawn_milli.saturating_mul(scorer.search_pawns()).max(needed),
            pawn_milli,
            limit,
            curve: None,
        };
        if !net_alone(scorer.variant()) && !scorer.has_action_awards() {
            // A win is ten pawns of the variant's scale.
            units.curve = Some(curve::Table::of(units.from_points(units.pawns(10_000))));
        }
        units
    }

    /// The search value of the expected margin `m` (outside the decisive
    /// band): `m` itself, or its value on the curve ([`curve::value_of`]).
    #[inline]
    pub fn value_of(self, m: i32) -> i32 {
        match self.curve {
            Some(table) => table.value_of(m),
            None => m,
        }
    }

    /// The expected margin of the search value `v` (outside the decisive
    /// band): the inverse of [`Units::value_of`].
    #[inline]
    pub fn margin_of(self, v: i32) -> i32 {
        match self.curve {
            Some(table) => curve::margin_of(v, table.win()),
            None => v,
        }
    }

    /// `milli_pawns` thousandths of a pawn of the variant's scale, in
    /// points: the evaluator's weights scale with the point table.
    #[inline]
    pub fn pawns(self, milli_pawns: i64) -> Points {
        Points::from_wide_milli(i128::from(self.pawn_milli) * i128::from(milli_pawns) / 1000)
    }

    /// The largest magnitude of a search path's margin (and of an
    /// evaluation) in these units.
    #[inline]
    pub fn limit(self) -> i32 {
        self.limit
    }

    /// Points in internal units (rounded towards zero, saturating).
    #[inline]
    pub fn from_points(self, p: Points) -> i32 {
        let v = match p.milli().checked_mul(100) {
            Some(x) => x / self.ppp_milli,
            None => {
                let x = i128::from(p.milli()) * 100 / i128::from(self.ppp_milli);
                x.clamp(-(1 << 28), 1 << 28) as i64
            }
        };
        v.clamp(-(1 << 28), 1 << 28) as i32
    }

    /// Internal units in points.
    pub fn to_points(self, v: i32) -> f64 {
        f64::from(v) * self.ppp_milli as f64 / 100_000.0
    }
}

/// Which evaluation to use: the base alone, the variant's own, or a
/// network.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum EvalMode {
    /// The default: the variant evaluator over the net of the board where
    /// the net is the default ([`net_by_default`]), over the base
    /// evaluation elsewhere.
    #[default]
    Variant,
    /// The variant evaluator with the hand-set weights, of the base
    /// evaluation and of the variant evaluator, instead of the tuned ones
    /// (for comparison).
    Untuned,
    /// The base evaluation with the win/draw/loss model only.
    Base,
    /// The net of the board kind ([`crate::nnue`]) in every variant: the
    /// whole evaluation in chess and extinction, the centipawns under the
    /// scoring variants' own terms.
    Nnue,
}

impl EvalMode {
    /// Every mode, in the order options list them.
    pub const ALL: [EvalMode; 4] = [
        EvalMode::Variant,
        EvalMode::Untuned,
        EvalMode::Base,
        EvalMode::Nnue,
    ];

    /// The name options take: `variant`, `untuned`, `base` or `nnue`.
    pub const fn name(self) -> &'static str {
        match self {
            EvalMode::Variant => "variant",
            EvalMode::Untuned => "untuned",
            EvalMode::Base => "base",
            EvalMode::Nnue => "nnue",
        }
    }

    /// The mode of a name (any case, surrounding blanks ignored).
    pub fn parse(text: &str) -> Option<EvalMode> {
        let t = text.trim();
        EvalMode::ALL
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(t))
    }
}

/// Whether a net's score is the whole evaluation of `variant`: chess and
/// extinction, the variants scored by the board result alone (whose
/// scores the training data hold in the units a net learns). The scoring
/// variants play on the standard board and read the net's score in place
/// of the base evaluation's centipawns, under their evaluators' own terms
/// ([`variants`]).
pub fn net_alone(variant: Variant) -> bool {
    matches!(variant, Variant::Chess | Variant::Extinction)
}

/// Whether the default evaluation ([`EvalMode::Variant`]) of `variant`
/// reads the net of its board: where the built-in net has won its match
/// against the hand-written evaluation and keeps every suite move
/// (`docs/train.md`, "The built-in nets"): every variant but extinction
/// (its net, on a third of the data, is weaker). In wacky the net's
/// centipawns lost fewer games to Stockfish 2400 than the hand-written
/// evaluation's (self-play margins there are too wide to tell in 200
/// games).
pub fn net_by_default(variant: Variant) -> bool {
    variant != Variant::Extinction
}

/// The net an evaluator of `variant` in `mode` evaluates with, given the
/// net the user loaded (`EvalFile`, `--net`): the loaded one when it is
/// of the variant's board, else the one built into the binary for the
/// board; `None` where the mode reads no net ([`EvalMode::Untuned`],
/// [`EvalMode::Base`], [`EvalMode::Variant`] outside [`net_by_default`])
/// or the board has none. The one place that choice is made: the
/// evaluator, the engine's note and datagen's settings all ask here.
pub fn net_for(
    variant: Variant,
    mode: EvalMode,
    loaded: Option<Arc<Network>>,
) -> Option<Arc<Network>> {
    let reads = match mode {
        EvalMode::Nnue => true,
        EvalMode::Variant => net_by_default(variant),
        EvalMode::Untuned | EvalMode::Base => false,
    };
    if !reads {
        return None;
    }
    let board = BoardKind::of(variant);
    loaded
        .filter(|n| n.board() == board)
        .or_else(|| crate::nnue::embedded(board))
}

/// Why [`EvalMode::Nnue`] finds no net for `variant` given the loaded net
/// `net` (the one built into the binary for the board otherwise), or
/// `None` when it has one.
pub fn missing_net(variant: Variant, net: Option<&Network>) -> Option<String> {
    let board = BoardKind::of(variant);
    match net {
        Some(n) if n.board() == board => None,
        Some(n) if crate::nnue::embedded(board).is_none() => Some(format!(
            "EvalMode nnue: the net {} is for the {} board, {variant} is played on the {} board; the base evaluation is used",
            n.name(),
            n.board().name(),
            board.name()
        )),
        None if crate::nnue::embedded(board).is_none() => Some(format!(
            "EvalMode nnue: no net is loaded for {variant} (set EvalFile); the base evaluation is used"
        )),
        _ => None,
    }
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
    /// The weights of the base evaluation.
    params: &'static EvalParams,
    /// The variant evaluator's weights (fitted in [`EvalMode::Variant`],
    /// hand-set otherwise).
    weights: &'static VariantWeights,
    /// The win/draw/loss model of the weights' curves.
    model: &'static WdlModel,
    /// Weights set over those by [`Evaluator::with_overrides`], with
    /// their model (in place of `weights` and `model`).
    custom: Option<Arc<(VariantWeights, WdlModel)>>,
    /// The net [`EvalMode::Nnue`] evaluates with (only set in that mode,
    /// and of the variant's board kind).
    net: Option<Arc<Network>>,
    /// The net's head that predicts the variant's remaining point margin,
    /// when it has one ([`crate::nnue::margin_head`]): then that head is
    /// the evaluation.
    head: Option<usize>,
}

impl Evaluator {
    /// The evaluator for a scorer's variant (in [`EvalMode::Nnue`], with
    /// the net built into the binary for the board, if any).
    pub fn new(scorer: &Scorer, mode: EvalMode) -> Evaluator {
        Evaluator::with_net(scorer, mode, None)
    }

    /// The evaluator for a scorer's variant; in [`EvalMode::Nnue`] it
    /// evaluates with `net` when the net is of the variant's board kind
    /// (else with the net built into the binary for it, if any; else with
    /// the base evaluation, see [`missing_net`]).
    pub fn with_net(scorer: &Scorer, mode: EvalMode, net: Option<Arc<Network>>) -> Evaluator {
        let variant = scorer.variant();
        let net = net_for(variant, mode, net);
        Evaluator {
            variant,
            scorer: scorer.clone(),
            units: Units::of(scorer),
            mode,
            params: EvalParams::of(variant, mode != EvalMode::Untuned),
            weights: VariantWeights::of(variant, tuned_weights(mode)),
            model: VariantWeights::model(variant, tuned_weights(mode)),
            custom: None,
            head: net
                .as_ref()
                .and_then(|n| crate::nnue::margin_head(variant).filter(|&h| h < n.head_count())),
            net,
        }
    }

    /// The same evaluator with `o` set over its variant weights (no
    /// change when `o` is empty).
    pub fn with_overrides(mut self, o: &WeightOverrides) -> Evaluator {
        if !o.is_empty() {
            let w = o.apply(self.weights);
            self.custom = Some(Arc::new((w, WdlModel::new(w.curves()))));
        }
        self
    }

    /// The variant weights evaluated with.
    fn weights(&self) -> &VariantWeights {
        self.custom.as_ref().map_or(self.weights, |c| &c.0)
    }

    /// The win/draw/loss model of [`Evaluator::weights`].
    fn model(&self) -> &WdlModel {
        self.custom.as_ref().map_or(self.model, |c| &c.1)
    }

    /// The evaluation mode.
    pub fn mode(&self) -> EvalMode {
        self.mode
    }

    /// The net the evaluator evaluates with, if any.
    pub fn net(&self) -> Option<&Network> {
        self.net.as_deref()
    }

    /// The base evaluation of `board`, term by term, under the evaluator's
    /// weights.
    pub fn breakdown(&self, board: &shakmaty::Board) -> base::Breakdown {
        base::breakdown_with(board, self.params)
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
                // A mate is worth about a rook's mate from afar.
                let mate = u.from_points(t.stylish.mate.rook[1]);
                let draw = u.from_points(stylish_draw_margin(&t.stylish, node.pos.board(), stm));
                ResultMargins {
                    win: mate,
                    draw,
                    loss: -mate,
                }
            }
            Variant::Wacky => {
                let (w, board) = (&t.wacky, node.pos.board());
                let to_mate = self.weights().wacky_moves_to_mate;
                let ours = wacky_win_estimate(w, board, stm, memo.moves_of(stm), to_mate);
                let theirs = wacky_win_estimate(w, board, !stm, memo.moves_of(!stm), to_mate);
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
        let cp = self.breakdown(node.pos.board()).cp_for(node.pos.turn());
        if matches!(self.variant, Variant::Chess | Variant::Extinction) {
            return cp;
        }
        let r = self.result_margins(node, memo);
        let w = Wdl::from_cp(cp, base::phase(node.pos.board()));
        w.expect(r) + curve::progress(cp)
    }
}

impl Evaluator {
    /// The variant evaluation: the variant's own estimate of the points
    /// still to come (see [`variants`]), drifting to the draw's points near
    /// the move-count rule.
    pub fn variant_value<P: Pos>(&self, node: &Node<P>, memo: &Memo) -> i32 {
        let bd = self.breakdown(node.pos.board());
        let cp = bd.cp_for(node.pos.turn());
        self.variant_value_at(node, memo, (cp, bd.phase), self.weights(), self.model())
    }

    /// [`Evaluator::variant_value`] of a node whose base evaluation is
    /// known (`cp` for the side to move, and the phase), under the given
    /// weights and their model: what the fit of the weights tries its
    /// candidates with.
    pub fn variant_value_at<P: Pos>(
        &self,
        node: &Node<P>,
        memo: &Memo,
        (cp, phase): (i32, i32),
        weights: &VariantWeights,
        model: &WdlModel,
    ) -> i32 {
        let board = node.pos.board();
        let stm = node.pos.turn();
        let ctx = variants::Ctx {
            board,
            stm,
            check: node.check,
            extra: node.extra,
            halfmoves: node.pos.halfmoves(),
            rule_plies: self.variant.move_rule_plies(),
            memo,
            cp,
            params: self.params,
            phase,
            weights,
            model,
            units: self.units,
            tables: self.scorer.tables(),
        };
        let (v, draw) = match self.variant {
            Variant::Chess => return ctx.cp,
            Variant::Extinction => return variants::extinction::value(&ctx),
            Variant::Stylish => {
                let v = variants::stylish::value(&ctx);
                let t = &self.scorer.tables().stylish;
                let draw = self.units.from_points(stylish_draw_margin(t, board, stm));
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
        let drift = weights.move_rule_drift.max(1);
        let near = rule - drift;
        if h > near {
            let f = (h - near).min(drift);
            ((i64::from(v) * i64::from(drift - f) + i64::from(draw) * i64::from(f))
                / i64::from(drift)) as i32
        } else {
            v
        }
    }
}

impl Evaluator {
    /// The evaluation of `node` whose net score is `score`: the score
    /// itself in chess and extinction ([`net_alone`]); in the scoring
    /// variants, the variant evaluation with the score in place of the
    /// base evaluation's centipawns.
    #[inline]
    fn over_net_score<P: Pos>(&self, node: &Node<P>, memo: &Memo, score: i32) -> i32 {
        if net_alone(self.variant) {
            return score;
        }
        let phase = base::phase(node.pos.board());
        self.variant_value_at(node, memo, (score, phase), self.weights(), self.model())
    }
}

/// Whether `mode` evaluates with the fitted weights of the variant
/// evaluators (every mode but `untuned` and `base`, the yardsticks).
fn tuned_weights(mode: EvalMode) -> bool {
    !matches!(mode, EvalMode::Untuned | EvalMode::Base)
}

impl<P: Pos> Evaluate<P> for Evaluator {
    /// The net's accumulators (left at zero when no net evaluates).
    type State = Accumulator;

    fn root_state(&self, node: &Node<P>) -> Accumulator {
        match &self.net {
            Some(net) => Accumulator::refresh(net, node.pos.board()),
            None => Accumulator::default(),
        }
    }

    #[inline]
    fn child_state(
        &self,
        before: &Node<P>,
        parent: &Accumulator,
        after: &Node<P>,
        child: &mut Accumulator,
    ) {
        if let Some(net) = &self.net {
            child.update(net, parent, before.pos.board(), after.pos.board());
        }
    }

    #[inline]
    fn evaluate_with(&self, node: &Node<P>, memo: &Memo, state: &Accumulator) -> i32 {
        match &self.net {
            Some(net) => {
                let limit = self.units.limit();
                let v = match self.head {
                    Some(h) => net.output_head(state, node.pos.board(), node.pos.turn(), h),
                    None => {
                        let score = net.output(state, node.pos.board(), node.pos.turn());
                        self.over_net_score(node, memo, score)
                    }
                };
                self.units.value_of(v).clamp(-limit, limit)
            }
            None => self.evaluate(node, memo),
        }
    }

    fn perpetual_trust(&self) -> i32 {
        self.weights().perpetual_trust
    }

    #[inline]
    fn evaluate(&self, node: &Node<P>, memo: &Memo) -> i32 {
        let v = match (self.mode, &self.net) {
            (_, Some(net)) => {
                let acc = Accumulator::refresh(net, node.pos.board());
                match self.head {
                    Some(h) => net.output_head(&acc, node.pos.board(), node.pos.turn(), h),
                    None => {
                        let score = net.output(&acc, node.pos.board(), node.pos.turn());
                        self.over_net_score(node, memo, score)
                    }
                }
            }
            (EvalMode::Base | EvalMode::Nnue, _) => self.base_value(node, memo),
            (EvalMode::Variant | EvalMode::Untuned, _) => self.variant_value(node, memo),
        };
        let limit = self.units.limit();
        self.units.value_of(v).clamp(-limit, limit)
    }
}

/// The stylish draw compensation margin for `stm` if the game were drawn
/// now: the side with less force gets `(difference) + max(0, max_force -
/// own)` (the table's draw award without its bare-kings case).
pub fn stylish_draw_margin(t: &stylish::Table, board: &shakmaty::Board, stm: Color) -> Points {
    match stylish::compensation(t, board) {
        Some((weaker, p)) if weaker == stm => p,
        Some((_, p)) => -p,
        None => Points::ZERO,
    }
}

/// A rough value of a wacky checkmate for `color` now: the mate award and
/// the life bonus at the current material, and the moves bonus assuming
/// `moves_to_mate` more moves.
pub fn wacky_win_estimate(
    t: &wacky::Table,
    board: &shakmaty::Board,
    color: Color,
    moves_made: u16,
    moves_to_mate: i64,
) -> Points {
    let life = t.life(board, color);
    let moves = i64::from(moves_made) + moves_to_mate;
    t.mate + t.life_bonus(life) + t.moves_bonus(moves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;

    fn board(fen: &str) -> shakmaty::Board {
        fen.parse::<Fen>().unwrap().into_setup().board
    }

    #[test]
    fn the_value_curve_serves_the_variants_of_expected_margins() {
        for v in Variant::ALL {
            let units = Units::of(&Scorer::new(v));
            let curved = matches!(v, Variant::Sets | Variant::Dynamic | Variant::Tiebraker);
            // 300 units of margin: the same value without the curve, about
            // a pawn and a half (a win is 1000) on it.
            let value = units.value_of(300);
            if curved {
                assert!((100..200).contains(&value), "{v:?} {value}");
                assert!(units.margin_of(value) <= 300);
                assert!(units.margin_of(value + 1) > 300);
                assert_eq!(units.value_of(-300), -value);
            } else {
                assert_eq!(value, 300, "{v:?}");
                assert_eq!(units.margin_of(-1234), -1234, "{v:?}");
            }
        }
        // The evaluation of a dynamic position is the value of its
        // expected margin.
        let dynamic = Scorer::new(Variant::Dynamic);
        let e = Evaluator::new(&dynamic, EvalMode::Base);
        let rules = crate::rules::Rules::<shakmaty::Chess>::new(Variant::Dynamic);
        let node = rules.from_fen("4k3/8/8/8/8/8/PPPP4/4K3 w - - 0 1").unwrap();
        let memo = Memo::default();
        let margin = e.base_value(&node, &memo);
        assert!(margin > 900, "four pawns up: {margin}");
        assert_eq!(e.evaluate(&node, &memo), e.units().value_of(margin));
        assert!(e.evaluate(&node, &memo) > 300);
    }

    #[test]
    fn predicted_awards_come_from_the_tables() {
        let t = crate::scoring::Tables::default();
        let start = shakmaty::Board::new();
        // Mate 25000, life 43 at 10000, moves bonus at 10 moves: 40 x 3500.
        assert_eq!(
            wacky_win_estimate(&t.wacky, &start, Color::White, 0, 10),
            Points::whole(25_000 + 430_000 + 140_000)
        );
        // White without its queen: force 30 against 39, 9 + (39 - 30).
        let b = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1");
        assert_eq!(
            stylish_draw_margin(&t.stylish, &b, Color::White),
            Points::whole(18)
        );
        assert_eq!(
            stylish_draw_margin(&t.stylish, &b, Color::Black),
            Points::whole(-18)
        );
        // A table with other values predicts other awards.
        let t = crate::scoring::Tables::from_toml(
            "[wacky]\nmate = 1\nlife = [[0, 0]]\nmoves = [[0, 2]]\n[stylish]\nmax_force = 0\n",
        )
        .unwrap();
        assert_eq!(
            wacky_win_estimate(&t.wacky, &start, Color::White, 0, 10),
            Points::whole(1 + 2 * 40)
        );
        assert_eq!(
            stylish_draw_margin(&t.stylish, &b, Color::White),
            Points::whole(9)
        );
    }

    #[test]
    fn the_untuned_mode_evaluates_with_the_hand_set_weights() {
        use shakmaty::Position;
        let memo = Memo::default();
        let rules = crate::rules::Rules::<shakmaty::Chess>::new(Variant::Chess);
        let node = rules
            .from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
            .unwrap();
        let board = node.pos.board();
        let chess = Scorer::new(Variant::Chess);
        let tuned = Evaluator::new(&chess, EvalMode::Base);
        let untuned = Evaluator::new(&chess, EvalMode::Untuned);
        let with = |p: &EvalParams| base::breakdown_with(board, p).cp_for(Color::White);
        assert_eq!(tuned.evaluate(&node, &memo), with(EvalParams::DEFAULT));
        assert_eq!(untuned.evaluate(&node, &memo), with(&EvalParams::UNTUNED));
        assert_eq!(
            untuned.breakdown(board),
            base::breakdown_with(board, &EvalParams::UNTUNED)
        );
        assert_ne!(EvalParams::DEFAULT, &EvalParams::UNTUNED);
        // Extinction reads its own set; the scoring variants the hand-set
        // one (see `EvalParams::of`).
        assert_eq!(
            EvalParams::of(Variant::Extinction, true),
            &tuned::extinction::TUNED
        );
        assert_ne!(&tuned::extinction::TUNED, &EvalParams::UNTUNED);
        for v in [
            Variant::Stylish,
            Variant::Wacky,
            Variant::Sets,
            Variant::Dynamic,
        ] {
            assert_eq!(EvalParams::of(v, true), &EvalParams::UNTUNED);
        }
    }

    #[test]
    fn the_nnue_mode_evaluates_with_a_net_of_the_board() {
        use crate::nnue::tests::random_net;
        use shakmaty::Position;
        let chess_net = Arc::new(random_net(BoardKind::Standard, 21));
        let ext_net = Arc::new(random_net(BoardKind::Extinction, 22));
        let memo = Memo::default();
        let rules = crate::rules::Rules::<shakmaty::Chess>::new(Variant::Chess);
        let node = rules
            .from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
            .unwrap();
        let chess = Scorer::new(Variant::Chess);
        let nnue = Evaluator::with_net(&chess, EvalMode::Nnue, Some(chess_net.clone()));
        assert_eq!(nnue.net().map(Network::name), Some(chess_net.name()));
        let want = chess_net.evaluate(node.pos.board(), Color::White);
        assert_eq!(nnue.evaluate(&node, &memo), want);
        let base = Evaluator::new(&chess, EvalMode::Base).evaluate(&node, &memo);
        assert_ne!(want, base);
        // The default mode reads the net where it is the default; the
        // yardsticks never do.
        let variant = Evaluator::with_net(&chess, EvalMode::Variant, Some(chess_net.clone()));
        assert_eq!(variant.evaluate(&node, &memo), want);
        for mode in [EvalMode::Base, EvalMode::Untuned] {
            assert!(
                Evaluator::with_net(&chess, mode, Some(chess_net.clone()))
                    .net()
                    .is_none()
            );
        }
        let extinction = Scorer::new(Variant::Extinction);
        let e = Evaluator::with_net(&extinction, EvalMode::Variant, Some(ext_net.clone()));
        assert!(e.net().is_none());
        for v in Variant::ALL {
            assert_eq!(
                Evaluator::new(&Scorer::new(v), EvalMode::Variant)
                    .net()
                    .is_some(),
                net_by_default(v),
                "{v}"
            );
            // The evaluator's net is the one `net_for` names, whatever is
            // loaded.
            for mode in EvalMode::ALL {
                for loaded in [None, Some(chess_net.clone()), Some(ext_net.clone())] {
                    let e = Evaluator::with_net(&Scorer::new(v), mode, loaded.clone());
                    assert_eq!(
                        e.net().map(Network::name),
                        net_for(v, mode, loaded).map(|n| n.name()),
                        "{v} {}",
                        mode.name()
                    );
                }
            }
        }
        // A net of the other board, or none: the net built in for the
        // board, so no note of a missing net.
        let built_in = crate::nnue::embedded(BoardKind::Standard).unwrap();
        for loaded in [Some(ext_net.clone()), None] {
            let e = Evaluator::with_net(&chess, EvalMode::Nnue, loaded.clone());
            assert_eq!(e.net().map(Network::name), Some(built_in.name()));
            assert_eq!(
                e.evaluate(&node, &memo),
                built_in.evaluate(node.pos.board(), Color::White)
            );
            assert_eq!(missing_net(Variant::Chess, loaded.as_deref()), None);
        }
        assert_eq!(missing_net(Variant::Chess, Some(&chess_net)), None);
        // A scoring variant: the net's score in place of the base
        // evaluation's centipawns, under the variant evaluator's terms; the
        // same from the accumulators the search keeps.
        let sets = Scorer::new(Variant::Sets);
        let e = Evaluator::with_net(&sets, EvalMode::Nnue, Some(chess_net.clone()));
        assert!(e.net().is_some());
        assert_eq!(missing_net(Variant::Sets, Some(&chess_net)), None);
        let phase = base::phase(node.pos.board());
        let over_net = Evaluator::new(&sets, EvalMode::Variant).variant_value_at(
            &node,
            &memo,
            (want, phase),
            VariantWeights::of(Variant::Sets, true),
            VariantWeights::model(Variant::Sets, true),
        );
        // On the value curve of sets.
        let over_net = e.units().value_of(over_net);
        assert_eq!(e.evaluate(&node, &memo), over_net);
        let state = e.root_state(&node);
        assert_eq!(e.evaluate_with(&node, &memo, &state), over_net);
        assert_ne!(
            over_net,
            Evaluator::new(&sets, EvalMode::Variant).evaluate(&node, &memo)
        );
        // Stylish with a net that has its margin head: the head is the
        // evaluation; without one, the score under the evaluator. (The
        // test net has two heads; a net of head 0 alone has none.)
        let stylish = Scorer::new(Variant::Stylish);
        let with_heads = |heads: Vec<crate::nnue::Head>| {
            Arc::new(
                Network::new(
                    BoardKind::Standard,
                    chess_net.feature_weights().to_vec(),
                    *chess_net.feature_bias(),
                    heads,
                )
                .unwrap(),
            )
        };
        let one = with_heads(vec![chess_net.heads()[0].clone()]);
        let plain = Evaluator::with_net(&stylish, EvalMode::Nnue, Some(one.clone()));
        let h = crate::nnue::margin_head(Variant::Stylish).unwrap();
        let mut margin = chess_net.heads()[0].clone();
        margin.bias += 12_345;
        let two = with_heads(vec![chess_net.heads()[0].clone(), margin]);
        let e = Evaluator::with_net(&stylish, EvalMode::Nnue, Some(two.clone()));
        let acc = Accumulator::refresh(&two, node.pos.board());
        let by_head = two.output_head(&acc, node.pos.board(), Color::White, h);
        assert_ne!(by_head, two.output(&acc, node.pos.board(), Color::White));
        assert_eq!(e.evaluate(&node, &memo), by_head);
        assert_eq!(e.evaluate_with(&node, &memo, &e.root_state(&node)), by_head);
        let score = one.output(&acc, node.pos.board(), Color::White);
        let under = Evaluator::new(&stylish, EvalMode::Variant).variant_value_at(
            &node,
            &memo,
            (score, base::phase(node.pos.board())),
            VariantWeights::of(Variant::Stylish, true),
            VariantWeights::model(Variant::Stylish, true),
        );
        assert_eq!(plain.evaluate(&node, &memo), under);
        // Extinction: its own board's net replaces the whole evaluation.
        let ext = Scorer::new(Variant::Extinction);
        let rules = crate::rules::Rules::<crate::rules::Extinction>::new(Variant::Extinction);
        let node = rules.start();
        let e = Evaluator::with_net(&ext, EvalMode::Nnue, Some(ext_net.clone()));
        assert_eq!(
            e.evaluate(&node, &memo),
            ext_net.evaluate(node.pos.board(), Color::White)
        );
        for m in EvalMode::ALL {
            assert_eq!(
                EvalMode::parse(&format!(" {} ", m.name().to_uppercase())),
                Some(m)
            );
        }
        assert_eq!(EvalMode::parse("neural"), None);
    }

    #[test]
    fn weights_scale_with_the_table() {
        let plain = Units::of(&Scorer::new(Variant::Wacky));
        assert_eq!(plain.pawns(13_800), Points::whole(13_800));
        let twice = Scorer::with_tables(
            Variant::Wacky,
            crate::scoring::Tables::from_toml("[wacky]\ncheck = 10000\n").unwrap(),
        );
        assert_eq!(Units::of(&twice).pawns(13_800), Points::whole(27_600));
        let stylish = Units::of(&Scorer::new(Variant::Stylish));
        assert_eq!(stylish.pawns(24_000), Points::whole(120));
        // The search's pawn: five of the scale's in stylish (25 points),
        // thirty in wacky (30,000 points), whatever the table's check pays.
        assert_eq!(stylish.from_points(Points::whole(25)), 100);
        let sets = Units::of(&Scorer::new(Variant::Sets));
        assert_eq!(sets.from_points(sets.pawns(1000)), 100);
        assert_eq!(plain.from_points(Points::whole(30_000)), 100);
        assert_eq!(plain.from_points(Points::whole(5_000)), 16);
        assert_eq!(Units::of(&twice).from_points(Points::whole(60_000)), 100);
    }

    #[test]
    fn overrides_change_the_weights_evaluated_with() {
        let wacky = Scorer::new(Variant::Wacky);
        let rules = crate::rules::Rules::<shakmaty::Chess>::new(Variant::Wacky);
        // A queen that can check against a bare king.
        let node = rules.from_fen("4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1").unwrap();
        let memo = Memo::default();
        let plain = Evaluator::new(&wacky, EvalMode::Untuned);
        let none = plain.clone().with_overrides(&WeightOverrides::default());
        assert_eq!(none.evaluate(&node, &memo), plain.evaluate(&node, &memo));
        let more = WeightOverrides::parse("wacky_our_check=40000").unwrap();
        let checks = plain.clone().with_overrides(&more);
        assert_eq!(checks.weights().wacky_our_check, 40_000);
        assert!(checks.evaluate(&node, &memo) > plain.evaluate(&node, &memo));
    }
}
