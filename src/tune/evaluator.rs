//! The fit of a scoring variant's evaluator (`tally tune -v VARIANT` for
//! stylish, wacky, sets, dynamic and tiebraker): the weights its evaluator
//! reads ([`VariantWeights::fitted`]), its win/draw/loss curves included,
//! chosen so that its value of each quiet self-play position is as close
//! as it can be to the points the game then went on to earn (the record's
//! margin still to come, from the side to move's view).
//!
//! The loss is the mean squared difference in pawns of the variant's scale
//! ([`crate::scoring::Scorer::points_per_pawn`]). The evaluator's value is
//! not linear in its weights (capped counts, a logistic model, a tanh), so
//! the fit is a deterministic pattern search: each weight tried one step
//! either way, every step halved when none helps, four times; the same
//! data gives the same weights. It starts from the hand-set weights.
//! The base evaluation (centipawns and phase) is computed once per
//! position: the weights do not change it.

use std::path::Path;

use rayon::prelude::*;
use shakmaty::Chess;

use crate::datagen::read::each_game;
use crate::eval::variant_weights::VariantWeights;
use crate::eval::wdl::WdlModel;
use crate::eval::{EvalMode, Evaluator};
use crate::rules::{Node, Rules, Variant};
use crate::scoring::{Memo, Scorer};

/// Positions summed per chunk (fixed, for reproducible sums).
const CHUNK: usize = 2048;

/// Halvings of every step before the search stops.
const HALVINGS: u32 = 4;

/// One quiet position of a scoring variant.
#[derive(Clone, Debug)]
pub struct PointSample {
    /// The position.
    pub node: Node<Chess>,
    /// The scoring memo at the position.
    pub memo: Memo,
    /// The base evaluation for the side to move (centipawns) and the game
    /// phase.
    pub base: (i32, i32),
    /// The points the game went on to earn, the side to move's minus the
    /// opponent's.
    pub target: f64,
}

/// The positions [`load_points`] read.
#[derive(Clone, Debug, Default)]
pub struct PointData {
    /// The positions of the fit.
    pub samples: Vec<PointSample>,
    /// The positions of the held-out games.
    pub validation: Vec<PointSample>,
    /// Positions read in games of the variant.
    pub positions: u64,
    /// Records that do not make a legal position (skipped).
    pub bad: u64,
}

/// Whether `tally tune` fits `variant`'s evaluator weights (the scoring
/// variants).
pub fn supports(variant: Variant) -> bool {
    !VariantWeights::fitted(variant).is_empty()
}

/// The evaluator the fit evaluates with: the variant's, with the base
/// evaluation it plays with.
pub fn evaluator(variant: Variant) -> Evaluator {
    Evaluator::new(&Scorer::new(variant), EvalMode::Variant)
}

/// Reads the quiet positions of `variant` (as [`super::load`] picks them,
/// every `holdout`-th game held out) with the points still to come.
///
/// # Errors
///
/// A file that cannot be opened or read (one line, naming it).
pub fn load_points(
    files: &[impl AsRef<Path>],
    variant: Variant,
    holdout: u32,
) -> Result<PointData, String> {
    let rules = Rules::<Chess>::new(variant);
    let ev = evaluator(variant);
    let mut out = PointData::default();
    let pass = each_game(files, variant, |game, at| {
        let held_out = holdout > 0 && at.number.is_multiple_of(u64::from(holdout));
        for r in game.quiet() {
            let Ok(node) = r.node(&rules) else {
                out.bad += 1;
                continue;
            };
            let board = &r.setup.board;
            let bd = ev.breakdown(board);
            let white = r.margin.milli() as f64 / 1000.0;
            let sample = PointSample {
                base: (bd.cp_for(r.setup.turn), bd.phase),
                target: if r.setup.turn.is_white() {
                    white
                } else {
                    -white
                },
                memo: r.memo,
                node,
            };
            if held_out {
                out.validation.push(sample);
            } else {
                out.samples.push(sample);
            }
        }
    })?;
    out.positions = pass.positions;
    Ok(out)
}

/// The mean squared error, in pawns of the variant's scale squared, of the
/// evaluator's values under `weights` against the points to come.
pub fn point_loss(ev: &Evaluator, samples: &[PointSample], weights: &VariantWeights) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let model = WdlModel::new(weights.curves());
    let units = ev.units();
    let pawn = units.pawns(1000).milli().max(1) as f64 / 1000.0;
    let limit = units.limit();
    let sums: Vec<f64> = samples
        .par_chunks(CHUNK)
        .map(|chunk| {
            chunk
                .iter()
                .map(|s| {
                    let v = ev
                        .variant_value_at(&s.node, &s.memo, s.base, weights, &model)
                        .clamp(-limit, limit);
                    let d = (units.to_points(v) - s.target) / pawn;
                    d * d
                })
                .sum::<f64>()
        })
        .collect();
    sums.iter().sum::<f64>() / samples.len() as f64
}

/// The weights among `knobs` (indices into [`VariantWeights::KNOBS`])
/// that best predict the samples' points, from `start`; `progress` hears
/// each improvement (the weights and their loss).
pub fn fit_points(
    ev: &Evaluator,
    samples: &[PointSample],
    start: VariantWeights,
    knobs: &[usize],
    mut progress: impl FnMut(&VariantWeights, f64),
) -> VariantWeights {
    let mut best = start;
    let mut best_loss = point_loss(ev, samples, &best);
    let mut scale = 1.0;
    let mut halvings = 0;
    while halvings <= HALVINGS {
        let mut moved = false;
        for &i in knobs {
            let k = VariantWeights::KNOBS[i];
            let mut step = k.step * scale;
            if k.integral {
                step = step.round().max(1.0);
            }
            for dir in [1.0, -1.0] {
                let v = best.get(i) + dir * step;
                if v < k.floor {
                    continue;
                }
                let mut cand = best;
                cand.set(i, v);
                if cand == best {
                    continue;
                }
                let l = point_loss(ev, samples, &cand);
                if l < best_loss {
                    (best, best_loss, moved) = (cand, l, true);
                    progress(&best, best_loss);
                    break;
                }
            }
        }
        if !moved {
            scale /= 2.0;
            halvings += 1;
        }
    }
    best
}

/// The generated source file of `variant`'s fitted weights
/// (`src/eval/tuned/<variant>.rs`): the weights its evaluator reads, the
/// others left to the hand-set ones; `origin` says how it was made.
pub fn render_weights(variant: Variant, w: &VariantWeights, origin: &str) -> String {
    let mut out = format!(
        "//! Weights of the {variant} evaluator, generated by `tally tune -v {variant}`\n\
         //! (see `docs/tune.md`); do not edit by hand.\n//!\n//! {}\n\n\
         use crate::eval::variant_weights::VariantWeights;\n\n\
         /// The weights the {variant} evaluator reads, as fitted (the others keep their\n\
         /// hand-set values).\n\
         #[rustfmt::skip]\n\
         pub const TUNED: VariantWeights = VariantWeights {{\n",
        origin.replace('\n', " ")
    );
    for i in VariantWeights::fitted(variant) {
        out.push_str(&format!(
            "    {}: {},\n",
            VariantWeights::KNOBS[i].name,
            w.source(i)
        ));
    }
    out.push_str("    ..VariantWeights::UNTUNED\n};\n");
    out
}

/// The weights `variant`'s fit moves: those its evaluator reads, less the
/// ones `keep` names (`tally tune --keep`).
///
/// # Errors
///
/// A name that is not a weight of the variant's evaluator: a one-line
/// message listing its weights.
pub fn fitted_knobs(variant: Variant, keep: &[String]) -> Result<Vec<usize>, String> {
    let fitted = VariantWeights::fitted(variant);
    let name = |i: usize| VariantWeights::KNOBS[i].name;
    for k in keep {
        if !fitted.iter().any(|&i| name(i) == k.trim()) {
            let names: Vec<&str> = fitted.iter().map(|&i| name(i)).collect();
            return Err(format!(
                "--keep {k}: not a weight of the {variant} evaluator (its weights: {})",
                names.join(", ")
            ));
        }
    }
    Ok(fitted
        .into_iter()
        .filter(|&i| !keep.iter().any(|k| k.trim() == name(i)))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scoring::Points;
    use shakmaty::Position;

    #[test]
    fn the_generated_files_are_the_writer_of_their_weights() {
        let files = [
            (Variant::Stylish, include_str!("../eval/tuned/stylish.rs")),
            (Variant::Wacky, include_str!("../eval/tuned/wacky.rs")),
            (Variant::Sets, include_str!("../eval/tuned/sets.rs")),
            (Variant::Dynamic, include_str!("../eval/tuned/dynamic.rs")),
            (
                Variant::Tiebraker,
                include_str!("../eval/tuned/tiebraker.rs"),
            ),
        ];
        for (variant, text) in files {
            let origin = text.lines().nth(3).unwrap().trim_start_matches("//! ");
            let w = VariantWeights::of(variant, true);
            assert_eq!(render_weights(variant, w, origin), text, "{variant}");
        }
    }

    /// Positions of `fen`s with targets the evaluator under `truth` gives
    /// them.
    fn labelled(
        ev: &Evaluator,
        variant: Variant,
        fens: &[&str],
        truth: &VariantWeights,
    ) -> Vec<PointSample> {
        let rules = Rules::<Chess>::new(variant);
        let model = WdlModel::new(truth.curves());
        fens.iter()
            .map(|fen| {
                let node = rules.from_fen(fen).unwrap();
                let memo = Memo::default();
                let bd = ev.breakdown(node.pos.board());
                let base = (bd.cp_for(node.turn()), bd.phase);
                let v = ev.variant_value_at(&node, &memo, base, truth, &model);
                PointSample {
                    target: ev.units().to_points(v),
                    node,
                    memo,
                    base,
                }
            })
            .collect()
    }

    const FENS: [&str; 12] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 7",
        "4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/3Q4/4K3 b - - 0 1",
        "6k1/5ppp/8/8/8/8/5PPP/3Q2K1 w - - 0 1",
        "6k1/8/8/8/8/8/5PPP/3Q2K1 b - - 0 1",
        "r3k3/8/8/8/8/8/5PPP/6K1 w - - 0 1",
        "4k3/pp6/8/8/8/8/PPP5/4K2R w - - 0 1",
        "2r3k1/5ppp/8/8/3N4/8/5PPP/2R3K1 b - - 0 1",
        "3qk3/8/8/3p4/4P3/8/8/3QK3 w - - 0 1",
        "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1",
    ];

    #[test]
    fn the_fit_recovers_a_known_weight() {
        // Sets: positions labelled by the hand-set weights with the
        // perpetual check's chance per checking move doubled; the fit of
        // that one weight from the hand-set start finds it again.
        let variant = Variant::Sets;
        let ev = evaluator(variant);
        let i = VariantWeights::KNOBS
            .iter()
            .position(|k| k.name == "perpetual_per_check")
            .unwrap();
        let mut truth = VariantWeights::UNTUNED;
        truth.set(i, 80.0);
        let samples = labelled(&ev, variant, &FENS, &truth);
        let start = VariantWeights::UNTUNED;
        assert!(point_loss(&ev, &samples, &start) > 0.0);
        assert_eq!(point_loss(&ev, &samples, &truth), 0.0);
        let got = fit_points(&ev, &samples, start, &[i], |_, _| {});
        assert_eq!(got.get(i), 80.0);
        assert_eq!(point_loss(&ev, &samples, &got), 0.0);
    }

    #[test]
    fn the_fit_moves_the_curves_towards_the_data() {
        // Stylish: labels from a model with a narrower full-material curve
        // (wins come sooner); the fit of the curves lowers the loss and
        // moves the width the right way.
        let variant = Variant::Stylish;
        let ev = evaluator(variant);
        let mut truth = VariantWeights::UNTUNED;
        truth.wdl_mg_centre = 150.0;
        truth.wdl_mg_width = 60.0;
        let samples = labelled(&ev, variant, &FENS, &truth);
        let start = VariantWeights::UNTUNED;
        let knobs: Vec<usize> = (0..2).collect();
        let mut heard = 0;
        let got = fit_points(&ev, &samples, start, &knobs, |_, _| heard += 1);
        assert!(heard > 0);
        assert!(point_loss(&ev, &samples, &got) < point_loss(&ev, &samples, &start) / 4.0);
        assert!(got.wdl_mg_centre < start.wdl_mg_centre, "{got:?}");
    }

    #[test]
    fn the_loss_is_in_pawns_of_the_variant() {
        // One position, valued v by the hand-set weights, labelled one
        // pawn of the scale above it: a loss of exactly 1.
        let variant = Variant::Dynamic;
        let ev = evaluator(variant);
        let mut samples = labelled(&ev, variant, &FENS[..1], &VariantWeights::UNTUNED);
        let pawn = ev.units().pawns(1000);
        assert!(pawn > Points::ZERO);
        samples[0].target += pawn.milli() as f64 / 1000.0;
        let l = point_loss(&ev, &samples, &VariantWeights::UNTUNED);
        assert!((l - 1.0).abs() < 1e-3, "{l}");
    }
}
