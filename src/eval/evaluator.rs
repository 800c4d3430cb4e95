//! The [`Evaluate`] trait the search reads, and its implementor, the
//! [`Evaluator`] of a variant in an [`EvalMode`]: the base evaluation, the
//! variant's own ([`variants`]) or a net, in the variant's [`Units`].

use std::sync::Arc;

use shakmaty::Bitboard;

use super::params::EvalParams;
use super::variant_weights::{self, VariantWeights, WeightOverrides};
use super::variants::{self, OverNet, VariantEval};
use super::wdl::{Wdl, WdlModel};
use super::{EvalMode, ResultMargins, Units, base, curve, net_alone, net_for};
use crate::nnue::{Accumulator, Network, RefreshCache};
use crate::rules::{Node, Pos, Variant};
use crate::scoring::{Memo, Scorer};

/// Anything that estimates the future point margin of a node for the side
/// to move, in internal units (see [`Units`]).
///
/// An evaluator may keep a [`State`](Evaluate::State) per search frame,
/// carried from a node to its children (a net's accumulators): the search
/// takes the root's from [`Evaluate::root_state`], brings each child's up
/// to date with [`Evaluate::child_state`] as it plays an action or a null
/// move, and evaluates with [`Evaluate::evaluate_with`]. Each search
/// thread also keeps one [`Cache`](Evaluate::Cache) of its own (a net's
/// accumulators by king bucket), made by [`Evaluate::cache`] and lent to
/// every [`Evaluate::child_state`] of the thread.
pub trait Evaluate<P: Pos>: Send + Sync {
    /// What the evaluator keeps per search frame.
    type State: Clone + Send;

    /// What the evaluator keeps per search thread.
    type Cache: Send;

    /// The estimate. Must stay well inside the search's decisive band.
    fn evaluate(&self, node: &Node<P>, memo: &Memo) -> i32;

    /// The state of a node the search starts from.
    fn root_state(&self, node: &Node<P>) -> Self::State;

    /// A search thread's cache, empty.
    fn cache(&self) -> Self::Cache;

    /// Sets `child` to the state of `after`, reached from `before` (whose
    /// state is `parent`) by one action or a null move, with the thread's
    /// `cache`.
    fn child_state(
        &self,
        cache: &mut Self::Cache,
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

    /// The margin `m` of a perpetual check the search projects from a
    /// position of its tree repeated once, at the share of it the search
    /// counts ([`Evaluate::perpetual_trust`]).
    #[inline]
    fn projected_perpetual(&self, m: i32) -> i32 {
        let trust = self.perpetual_trust();
        (i64::from(m) * i64::from(trust) / i64::from(variant_weights::FULL_TRUST)) as i32
    }
}

/// The evaluator of a variant.
#[derive(Clone, Debug)]
pub struct Evaluator {
    variant: Variant,
    /// The variant's own evaluation ([`variants::of`]).
    own: &'static dyn VariantEval,
    /// Whether the variant is scored by the board result alone
    /// ([`net_alone`]).
    alone: bool,
    /// What the variant adds to a net's score where it is scored by the
    /// board result alone ([`VariantEval::over_net`]).
    over_net: Option<OverNet>,
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
    /// the base evaluation, see [`missing_net`](super::missing_net)).
    pub fn with_net(scorer: &Scorer, mode: EvalMode, net: Option<Arc<Network>>) -> Evaluator {
        let variant = scorer.variant();
        let net = net_for(variant, mode, net);
        Evaluator {
            variant,
            own: variants::of(variant),
            alone: net_alone(variant),
            over_net: variants::of(variant).over_net(),
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
        let cp = self.breakdown(node.pos.board()).cp_for(node.pos.turn());
        let phase = base::phase(node.pos.board());
        let c = self.ctx(node, memo, (cp, phase), None, self.weights(), self.model());
        self.own.margins(&c)
    }

    /// What the variant evaluation of `node` reads, with the base
    /// evaluation `(cp, phase)` (and the squares each side attacks, where
    /// the base evaluation found them) and the weights given.
    #[inline]
    fn ctx<'a, P: Pos>(
        &'a self,
        node: &'a Node<P>,
        memo: &'a Memo,
        (cp, phase): (i32, i32),
        attacks: Option<[Bitboard; 2]>,
        weights: &'a VariantWeights,
        model: &'a WdlModel,
    ) -> variants::Ctx<'a> {
        variants::Ctx {
            board: node.pos.board(),
            stm: node.pos.turn(),
            check: node.check,
            extra: node.extra,
            halfmoves: node.pos.halfmoves(),
            rule_plies: self.variant.move_rule_plies(),
            memo,
            cp,
            attacks,
            params: self.params,
            phase,
            weights,
            model,
            units: self.units,
            tables: self.scorer.tables(),
            draw_advantage: self.scorer.draw_advantage(),
        }
    }

    /// The base evaluation as expected points: the centipawn evaluation
    /// through the win/draw/loss model and the variant's result margins,
    /// plus a small share of the centipawns so that a won position still
    /// shows progress.
    pub fn base_value<P: Pos>(&self, node: &Node<P>, memo: &Memo) -> i32 {
        let bd = self.breakdown(node.pos.board());
        let cp = bd.cp_for(node.pos.turn());
        if self.alone {
            return cp;
        }
        let c = self.ctx(
            node,
            memo,
            (cp, bd.phase),
            None,
            self.weights(),
            self.model(),
        );
        let w = Wdl::from_cp(cp, bd.phase);
        w.expect(self.own.margins(&c)) + curve::progress(cp)
    }

    /// The variant evaluation: the variant's own estimate of the points
    /// still to come (see [`variants`]), drifting to the draw's points near
    /// the move-count rule.
    pub fn variant_value<P: Pos>(&self, node: &Node<P>, memo: &Memo) -> i32 {
        let bd = self.breakdown(node.pos.board());
        let cp = bd.cp_for(node.pos.turn());
        let base = (cp, bd.phase);
        let c = self.ctx(
            node,
            memo,
            base,
            Some(bd.attacks),
            self.weights(),
            self.model(),
        );
        self.own.value(&c)
    }

    /// [`Evaluator::variant_value`] of a node whose base evaluation is
    /// known (`cp` for the side to move, and the phase), under the given
    /// weights and their model: what the fit of the weights tries its
    /// candidates with.
    pub fn variant_value_at<P: Pos>(
        &self,
        node: &Node<P>,
        memo: &Memo,
        base: (i32, i32),
        weights: &VariantWeights,
        model: &WdlModel,
    ) -> i32 {
        self.own
            .value(&self.ctx(node, memo, base, None, weights, model))
    }

    /// The evaluation of `node` whose net score is `score`: the score
    /// itself in chess, with the threats on last pieces in extinction
    /// ([`net_alone`], [`VariantEval::over_net`]); in the scoring
    /// variants, the variant evaluation with the score in place of the
    /// base evaluation's centipawns.
    #[inline]
    fn over_net_score<P: Pos>(&self, node: &Node<P>, memo: &Memo, score: i32) -> i32 {
        if self.alone {
            return match self.over_net {
                Some(add) => score + add(node.pos.board(), node.pos.turn(), self.params),
                None => score,
            };
        }
        let phase = base::phase(node.pos.board());
        self.variant_value_at(node, memo, (score, phase), self.weights(), self.model())
    }

    /// The evaluation of `node`, from the net's accumulators `state` of it
    /// where the search keeps them (refreshed here otherwise): the one
    /// path of [`Evaluate::evaluate`] and [`Evaluate::evaluate_with`].
    #[inline]
    fn value<P: Pos>(&self, node: &Node<P>, memo: &Memo, state: Option<&Accumulator>) -> i32 {
        let v = match &self.net {
            Some(net) => {
                let (board, turn) = (node.pos.board(), node.pos.turn());
                let refreshed;
                let acc = match state {
                    Some(acc) => acc,
                    None => {
                        refreshed = Accumulator::refresh(net, board);
                        &refreshed
                    }
                };
                match self.head {
                    Some(h) => net.output_head(acc, board, turn, h),
                    None => self.over_net_score(node, memo, net.output(acc, board, turn)),
                }
            }
            None => match self.mode {
                EvalMode::Base | EvalMode::Nnue => self.base_value(node, memo),
                EvalMode::Variant | EvalMode::Untuned => self.variant_value(node, memo),
            },
        };
        let limit = self.units.limit();
        self.units.value_of(v).clamp(-limit, limit)
    }
}

/// Whether `mode` evaluates with the fitted weights of the variant
/// evaluators (every mode but `untuned` and `base`, the yardsticks).
fn tuned_weights(mode: EvalMode) -> bool {
    !matches!(mode, EvalMode::Untuned | EvalMode::Base)
}

impl<P: Pos> Evaluate<P> for Evaluator {
    /// The net's accumulators (empty when no net evaluates).
    type State = Accumulator;

    /// The net's accumulators by king bucket ([`RefreshCache`]).
    type Cache = RefreshCache;

    fn root_state(&self, node: &Node<P>) -> Accumulator {
        match &self.net {
            Some(net) => Accumulator::refresh(net, node.pos.board()),
            None => Accumulator::default(),
        }
    }

    fn cache(&self) -> RefreshCache {
        RefreshCache::new()
    }

    #[inline]
    fn child_state(
        &self,
        cache: &mut RefreshCache,
        before: &Node<P>,
        parent: &Accumulator,
        after: &Node<P>,
        child: &mut Accumulator,
    ) {
        if let Some(net) = &self.net {
            child.update_cached(net, parent, before.pos.board(), after.pos.board(), cache);
        }
    }

    #[inline]
    fn evaluate(&self, node: &Node<P>, memo: &Memo) -> i32 {
        self.value(node, memo, None)
    }

    #[inline]
    fn evaluate_with(&self, node: &Node<P>, memo: &Memo, state: &Accumulator) -> i32 {
        self.value(node, memo, Some(state))
    }

    fn perpetual_trust(&self) -> i32 {
        self.weights().perpetual_trust
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{missing_net, tuned};
    use crate::rules::BoardKind;
    use shakmaty::Color;

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
        // Extinction: the net's score and the threats on last pieces (here
        // White takes Black's last queen), in either mode.
        let extinction = Scorer::new(Variant::Extinction);
        let rules = crate::rules::Rules::<crate::rules::Extinction>::new(Variant::Extinction);
        let ext_node = rules.from_fen("3qk3/8/8/8/8/8/8/3RK2Q w - - 0 1").unwrap();
        let board = ext_node.pos.board();
        let threats = variants::extinction::threats(
            board,
            Color::White,
            variants::extinction::Attacks::Known(variants::extinction::attacks_of(board)),
            base::phase(board),
            EvalParams::of(Variant::Extinction, true),
        );
        assert!(threats > 0);
        let want_ext = ext_net.evaluate(board, Color::White) + threats;
        for mode in [EvalMode::Variant, EvalMode::Nnue] {
            let e = Evaluator::with_net(&extinction, mode, Some(ext_net.clone()));
            assert_eq!(e.net().map(Network::name), Some(ext_net.name()));
            assert_eq!(e.evaluate(&ext_node, &memo), e.units().value_of(want_ext));
        }
        for v in Variant::ALL {
            assert!(
                Evaluator::new(&Scorer::new(v), EvalMode::Variant)
                    .net()
                    .is_some(),
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
                Network::from_weights(crate::nnue::Weights {
                    heads,
                    ..chess_net.weights()
                })
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
