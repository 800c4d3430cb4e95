//! The weights of the variant evaluators ([`super::variants`]) and the
//! win/draw/loss curves they read: one [`VariantWeights`] per scoring
//! variant, hand-set ([`VariantWeights::UNTUNED`]) or fitted by `tally
//! tune -v VARIANT` to the points self-play games went on to earn (the
//! generated files `super::tuned::<variant>`, see `docs/tune.md`).
//!
//! Weights in points are thousandths of a pawn of the variant's scale
//! ([`Units::pawns`](super::Units::pawns)), so that they scale with the
//! point table; the rest are centipawns, per-mille shares or counts, as
//! each field says.

use once_cell::sync::Lazy;

use crate::text::clip;

use super::wdl::{Curve, WdlModel};
use crate::rules::Variant;

/// The share (per mille) of [`VariantWeights::perpetual_trust`] that
/// counts a projected perpetual check in full, as a full threefold.
pub const FULL_TRUST: i32 = 1000;

/// A weight's type, as the fit sees it: a number it can step.
pub trait Knob: Copy {
    /// Whether the weight takes whole values only.
    const INTEGRAL: bool;
    /// The value as a float.
    fn to_f64(self) -> f64;
    /// The weight of a float (rounded to the nearest whole value where
    /// [`Knob::INTEGRAL`]).
    fn from_f64(v: f64) -> Self;
    /// The value as a Rust literal, for the generated files.
    fn source(self) -> String;
}

impl Knob for i32 {
    const INTEGRAL: bool = true;
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
    fn from_f64(v: f64) -> i32 {
        v.round() as i32
    }
    fn source(self) -> String {
        self.to_string()
    }
}

impl Knob for i64 {
    const INTEGRAL: bool = true;
    fn to_f64(self) -> f64 {
        self as f64
    }
    fn from_f64(v: f64) -> i64 {
        v.round() as i64
    }
    fn source(self) -> String {
        self.to_string()
    }
}

impl Knob for f64 {
    const INTEGRAL: bool = false;
    fn to_f64(self) -> f64 {
        self
    }
    fn from_f64(v: f64) -> f64 {
        v
    }
    fn source(self) -> String {
        // The shortest text that reads back as the same number, with a
        // decimal point.
        format!("{self:?}")
    }
}

/// How the fit treats one weight of [`VariantWeights`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KnobInfo {
    /// The field's name.
    pub name: &'static str,
    /// The first step of the pattern search.
    pub step: f64,
    /// The least value the fit may give it.
    pub floor: f64,
    /// Whether it takes whole values only.
    pub integral: bool,
    /// The variants whose evaluators read it: what `tally tune -v VARIANT`
    /// fits ([`VariantWeights::fitted`]). Given with the weight in
    /// `variant_weights!`, so a variant's weights are named by the
    /// compiler, never by their names.
    pub variants: &'static [Variant],
}

/// The scoring variants (all but chess and extinction, which evaluate in
/// centipawns): every one reads the win/draw/loss curves and the drift to
/// the draw near the move-count rule.
const SCORING: &[Variant] = &[
    Variant::Stylish,
    Variant::Wacky,
    Variant::Sets,
    Variant::Dynamic,
    Variant::Tiebraker,
];

/// The variants scored by their endings' sides (sets, dynamic,
/// tiebraker): they read the perpetual-check chances too.
const SIDE_ENDING: &[Variant] = &[Variant::Sets, Variant::Dynamic, Variant::Tiebraker];

/// Stylish alone.
const STYLISH: &[Variant] = &[Variant::Stylish];

/// Wacky alone.
const WACKY: &[Variant] = &[Variant::Wacky];

/// Tiebraker alone.
const TIEBRAKER: &[Variant] = &[Variant::Tiebraker];

/// Declares [`VariantWeights`], its hand-set values and its knobs: each
/// weight with its type, hand-set value, first search step, floor and the
/// variants that read it (`for VARIANTS`, a `&[Variant]`). How it differs
/// from the other two knob macros: see [`crate::tune`].
macro_rules! variant_weights {
    ($($(#[$m:meta])* $field:ident: $ty:ty = $value:expr, step $step:expr, floor $floor:expr, for $variants:expr;)*) => {
        /// The weights of the variant evaluators (every scoring variant
        /// reads those of its own evaluator, see
        /// [`VariantWeights::fitted`]) and the win/draw/loss curves their
        /// expected results come from.
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub struct VariantWeights {
            $($(#[$m])* pub $field: $ty,)*
        }

        impl VariantWeights {
            /// The hand-set weights (read off a few hundred self-play
            /// games), kept for comparison (`EvalMode untuned`).
            pub const UNTUNED: VariantWeights = VariantWeights {
                $($field: $value,)*
            };

            /// Every weight, in field order, with its search step and
            /// floor.
            pub const KNOBS: &[KnobInfo] = &[
                $(KnobInfo {
                    name: stringify!($field),
                    step: $step,
                    floor: $floor,
                    integral: <$ty as Knob>::INTEGRAL,
                    variants: $variants,
                },)*
            ];

            /// The value of the `i`-th weight of [`VariantWeights::KNOBS`].
            pub fn get(&self, i: usize) -> f64 {
                let values = [$(Knob::to_f64(self.$field),)*];
                values.get(i).copied().unwrap_or(f64::NAN)
            }

            /// Sets the `i`-th weight of [`VariantWeights::KNOBS`] (rounded
            /// where it takes whole values).
            pub fn set(&mut self, i: usize, v: f64) {
                let mut k = 0usize;
                $(
                    if k == i {
                        self.$field = Knob::from_f64(v);
                    }
                    k += 1;
                )*
                debug_assert!(i < k);
            }

            /// The `i`-th weight as a Rust literal.
            pub fn source(&self, i: usize) -> String {
                let mut k = 0usize;
                $(
                    if k == i {
                        return Knob::source(self.$field);
                    }
                    k += 1;
                )*
                debug_assert!(i < k);
                String::new()
            }
        }
    };
}

variant_weights! {
    /// The win chance's curve at full material: the centipawn margin at
    /// which a win is as likely as not.
    wdl_mg_centre: f64 = 230.0, step 16.0, floor 0.0, for SCORING;
    /// Its width (larger: more draws at the same margin).
    wdl_mg_width: f64 = 85.0, step 16.0, floor 1.0, for SCORING;
    /// The curve of a bare board: its centre.
    wdl_eg_centre: f64 = 300.0, step 16.0, floor 0.0, for SCORING;
    /// Its width.
    wdl_eg_width: f64 = 95.0, step 16.0, floor 1.0, for SCORING;
    /// Plies before the move-count rule over which the expected result
    /// drifts to the draw's points.
    move_rule_drift: i32 = 20, step 4.0, floor 1.0, for SCORING;
    /// Sets, dynamic, tiebraker: the chance (per mille) of a perpetual
    /// check per checking move a side with a queen has against the enemy
    /// king.
    perpetual_per_check: i32 = 40, step 8.0, floor 0.0, for SIDE_ENDING;
    /// Checking moves counted for `perpetual_per_check`.
    perpetual_checks: i32 = 4, step 1.0, floor 1.0, for SIDE_ENDING;
    /// Sets, dynamic, tiebraker: the share (per mille) of a perpetual
    /// check's award (mutual or not) that the search counts for one it
    /// projects, a position of its tree repeated once with checks (a full
    /// threefold counts in full). The defender may leave such a cycle
    /// beyond the horizon, and a side that counts on it gives material for
    /// checks that run out.
    perpetual_trust: i32 = FULL_TRUST, step 100.0, floor 0.0, for SIDE_ENDING;
    /// Stylish: what a side with a queen is expected to mate for (120
    /// points at the default 5 per pawn: the mean award of Tally's mates in
    /// self-play, captures and bonuses on the mating move included, was 123
    /// over 103 mates).
    sty_mate_with_queen: i64 = 24_000, step 2000.0, floor 0.0, for STYLISH;
    /// Stylish: the same for a side whose strongest piece is a rook (125
    /// points; 127 over 55 mates).
    sty_mate_with_rook: i64 = 25_000, step 2000.0, floor 0.0, for STYLISH;
    /// Stylish: the same for a side with minor pieces and pawns only (160
    /// points; 162 over 23 mates).
    sty_mate_with_minors: i64 = 32_000, step 2000.0, floor 0.0, for STYLISH;
    /// Stylish: the share (per mille) of the best capture award in the
    /// side to move's reach counted (it takes it more often than not).
    sty_capture_ours: i64 = 600, step 100.0, floor 0.0, for STYLISH;
    /// Stylish: the share (per mille) of the opponent's best capture award
    /// counted against the side to move.
    sty_capture_theirs: i64 = 300, step 100.0, floor 0.0, for STYLISH;
    /// Tiebraker: a frozen king on the wing (centipawns, middlegame).
    tb_frozen_king_mg: i32 = -80, step 16.0, floor -1000.0, for TIEBRAKER;
    /// The same, endgame.
    tb_frozen_king_eg: i32 = -40, step 16.0, floor -1000.0, for TIEBRAKER;
    /// Tiebraker: a frozen king in the centre (files c to f), middlegame.
    tb_frozen_central_king_mg: i32 = -160, step 16.0, floor -1000.0, for TIEBRAKER;
    /// The same, endgame.
    tb_frozen_central_king_eg: i32 = -60, step 16.0, floor -1000.0, for TIEBRAKER;
    /// Tiebraker: per checking move the enemy has against a frozen king (a
    /// check it cannot step out of), middlegame.
    tb_frozen_check_mg: i32 = -45, step 8.0, floor -1000.0, for TIEBRAKER;
    /// The same, endgame.
    tb_frozen_check_eg: i32 = -35, step 8.0, floor -1000.0, for TIEBRAKER;
    /// Tiebraker: checking moves counted against a frozen king.
    tb_checks_counted: i32 = 6, step 1.0, floor 1.0, for TIEBRAKER;
    /// Tiebraker: per square around a frozen king the enemy attacks,
    /// middlegame.
    tb_frozen_zone_mg: i32 = -20, step 4.0, floor -1000.0, for TIEBRAKER;
    /// The same, endgame.
    tb_frozen_zone_eg: i32 = -15, step 4.0, floor -1000.0, for TIEBRAKER;
    /// Wacky: future points of a won position (the saturation of the
    /// material term) in the middlegame.
    wacky_material_mg: i64 = 105_000, step 16000.0, floor 0.0, for WACKY;
    /// The same in a bare endgame.
    wacky_material_eg: i64 = 270_000, step 32000.0, floor 0.0, for WACKY;
    /// Wacky: the base evaluation (centipawns) at which the material term
    /// reaches three quarters of its saturation (tanh 1).
    wacky_cp_scale: i32 = 300, step 50.0, floor 10.0, for WACKY;
    /// Wacky: the value per checking move the side to move has now.
    wacky_our_check: i64 = 13_800, step 2000.0, floor 0.0, for WACKY;
    /// Wacky: the value per checking move the opponent has (against us).
    wacky_their_check: i64 = 2_800, step 1000.0, floor 0.0, for WACKY;
    /// Wacky: checking moves counted, per side.
    wacky_checks_counted: i64 = 6, step 1.0, floor 1.0, for WACKY;
    /// Wacky: the side to move's initiative (it moves, checks and captures
    /// first).
    wacky_tempo: i64 = 14_000, step 2000.0, floor -100000.0, for WACKY;
    /// Wacky: the share (per mille) of the expected mate awards and
    /// bonuses added to the evaluation (the material term already holds
    /// part of it).
    wacky_mate_share: i64 = 500, step 100.0, floor 0.0, for WACKY;
    /// Wacky: the moves a side is expected to need before it mates (for
    /// the moves bonus of a mate to come).
    wacky_moves_to_mate: i64 = 10, step 2.0, floor 0.0, for WACKY;
    /// Wacky: what a dominant queen collects per move (a check, less the
    /// moves the king walks away for).
    wacky_spam_per_move: i64 = 4_000, step 1000.0, floor 0.0, for WACKY;
    /// Wacky: the most moves of domination counted.
    wacky_spam_moves: i64 = 250, step 50.0, floor 0.0, for WACKY;
}

impl VariantWeights {
    /// The largest value `EvalWeights` may give the `i`-th weight: a
    /// hundred times its hand-set size, or 1,000 where that is smaller.
    /// Far beyond any sensible trial, and small enough that the
    /// evaluators' sums of such weights cannot overflow.
    pub fn ceiling(i: usize) -> f64 {
        (100.0 * VariantWeights::UNTUNED.get(i).abs()).max(1000.0)
    }

    /// The win/draw/loss curves, full material and bare board.
    pub fn curves(&self) -> [Curve; 2] {
        [
            Curve {
                centre: self.wdl_mg_centre,
                width: self.wdl_mg_width,
            },
            Curve {
                centre: self.wdl_eg_centre,
                width: self.wdl_eg_width,
            },
        ]
    }

    /// The indices in [`VariantWeights::KNOBS`] of the weights `variant`'s
    /// evaluator reads (their [`KnobInfo::variants`]), in field order: what
    /// `tally tune -v VARIANT` fits and writes. None for chess and
    /// extinction, which evaluate in centipawns.
    pub fn fitted(variant: Variant) -> Vec<usize> {
        VariantWeights::KNOBS
            .iter()
            .enumerate()
            .filter(|(_, k)| k.variants.contains(&variant))
            .map(|(i, _)| i)
            .collect()
    }

    /// The weights `variant` evaluates with: its fitted set, or the
    /// hand-set one when `tuned` is false (chess and extinction read none).
    pub fn of(variant: Variant, tuned: bool) -> &'static VariantWeights {
        if !tuned {
            return &VariantWeights::UNTUNED;
        }
        super::variants::of(variant).tuned_weights()
    }

    /// The win/draw/loss model of [`VariantWeights::of`]'s curves.
    pub fn model(variant: Variant, tuned: bool) -> &'static WdlModel {
        static MODELS: Lazy<Vec<WdlModel>> = Lazy::new(|| {
            Variant::ALL
                .iter()
                .flat_map(|&v| {
                    [false, true].map(|t| WdlModel::new(VariantWeights::of(v, t).curves()))
                })
                .collect()
        });
        let i = Variant::ALL.iter().position(|&v| v == variant).unwrap_or(0);
        &MODELS[2 * i + usize::from(tuned)]
    }
}

/// Weights set by hand over a variant's own ([`VariantWeights::of`]): the
/// `EvalWeights` option, for trying a change in play (`tally match`
/// players differ by it) before it goes into the tables. Written as
/// `name=value` pairs, separated by spaces or commas, with the names of
/// [`VariantWeights::KNOBS`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WeightOverrides(Vec<(usize, f64)>);

// The values are finite ([`WeightOverrides::parse`]), so equality is an
// equivalence.
impl Eq for WeightOverrides {}

impl WeightOverrides {
    /// The overrides of `text` (empty: none). An unknown name, a value
    /// that is not a finite number or is below the weight's floor, or a
    /// pair without `=` is an error naming it (what it echoes of `text`
    /// passed through [`clip`]).
    pub fn parse(text: &str) -> Result<WeightOverrides, String> {
        let mut out = Vec::new();
        for pair in text.split([' ', ',']).filter(|p| !p.is_empty()) {
            let Some((name, value)) = pair.split_once('=') else {
                return Err(format!("expected name=value, got '{}'", clip(pair)));
            };
            let i = VariantWeights::KNOBS
                .iter()
                .position(|k| k.name == name)
                .ok_or_else(|| format!("unknown weight '{}'", clip(name)))?;
            let v: f64 = value
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| format!("weight {name}: '{}' is not a number", clip(value)))?;
            let floor = VariantWeights::KNOBS[i].floor;
            if v < floor {
                return Err(format!("weight {name}: {v} is below its floor {floor}"));
            }
            let ceiling = VariantWeights::ceiling(i);
            if v > ceiling {
                return Err(format!("weight {name}: {v} is above its ceiling {ceiling}"));
            }
            out.retain(|&(j, _)| j != i);
            out.push((i, v));
        }
        Ok(WeightOverrides(out))
    }

    /// Whether no weight is set.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `base` with the set weights replaced.
    pub fn apply(&self, base: &VariantWeights) -> VariantWeights {
        let mut w = *base;
        for &(i, v) in &self.0 {
            w.set(i, v);
        }
        w
    }
}

impl std::fmt::Display for WeightOverrides {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let pairs: Vec<String> = self
            .0
            .iter()
            .map(|&(i, v)| format!("{}={v}", VariantWeights::KNOBS[i].name))
            .collect();
        f.write_str(&pairs.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_knob_reads_and_writes_its_own_field() {
        let base = VariantWeights::UNTUNED;
        for (i, k) in VariantWeights::KNOBS.iter().enumerate() {
            let mut w = base;
            let v = base.get(i) + 3.0;
            w.set(i, v);
            assert_eq!(w.get(i), v, "{}", k.name);
            // No other knob moved.
            for j in (0..VariantWeights::KNOBS.len()).filter(|&j| j != i) {
                assert_eq!(
                    w.get(j),
                    base.get(j),
                    "{} moved {}",
                    k.name,
                    VariantWeights::KNOBS[j].name
                );
            }
            assert!(base.get(i) >= k.floor, "{} starts below its floor", k.name);
            assert!(
                base.get(i) <= VariantWeights::ceiling(i),
                "{} starts above its ceiling",
                k.name
            );
        }
        assert!(base.get(VariantWeights::KNOBS.len()).is_nan());
        assert_eq!(base.source(0), "230.0");
        let drift = VariantWeights::KNOBS
            .iter()
            .position(|k| k.name == "move_rule_drift")
            .unwrap();
        assert_eq!(base.source(drift), "20");
        assert!(VariantWeights::KNOBS[drift].integral);
        assert!(!VariantWeights::KNOBS[0].integral);
    }

    #[test]
    fn each_variant_fits_the_weights_its_evaluator_reads() {
        let names = |v| -> Vec<&'static str> {
            VariantWeights::fitted(v)
                .into_iter()
                .map(|i| VariantWeights::KNOBS[i].name)
                .collect()
        };
        assert!(names(Variant::Chess).is_empty());
        assert!(names(Variant::Extinction).is_empty());
        let sty = names(Variant::Stylish);
        assert!(sty.contains(&"wdl_mg_centre") && sty.contains(&"sty_capture_ours"));
        assert!(
            !sty.iter()
                .any(|n| n.starts_with("wacky_") || n.starts_with("tb_"))
        );
        let tb = names(Variant::Tiebraker);
        assert!(tb.contains(&"perpetual_checks") && tb.contains(&"tb_frozen_zone_eg"));
        assert!(!tb.iter().any(|n| n.starts_with("sty_")));
        assert_eq!(names(Variant::Sets), names(Variant::Dynamic));
        // Every weight is read by some variant.
        for (i, k) in VariantWeights::KNOBS.iter().enumerate() {
            assert!(
                Variant::ALL
                    .iter()
                    .any(|&v| VariantWeights::fitted(v).contains(&i)),
                "{} is read by no variant",
                k.name
            );
        }
    }

    /// The weights each variant fits, by name: those its weights were
    /// fitted with when the knobs were chosen by name prefixes (`wdl_`,
    /// `move_rule_drift` and the variant's own), so that `tally tune -v`
    /// fits the same weights as before the tags.
    #[test]
    fn each_variant_fits_exactly_its_listed_weights() {
        let names = |v| -> Vec<&'static str> {
            VariantWeights::fitted(v)
                .into_iter()
                .map(|i| VariantWeights::KNOBS[i].name)
                .collect()
        };
        for (v, expected) in [
            (
                Variant::Stylish,
                &[
                    "wdl_mg_centre",
                    "wdl_mg_width",
                    "wdl_eg_centre",
                    "wdl_eg_width",
                    "move_rule_drift",
                    "sty_mate_with_queen",
                    "sty_mate_with_rook",
                    "sty_mate_with_minors",
                    "sty_capture_ours",
                    "sty_capture_theirs",
                ][..],
            ),
            (
                Variant::Wacky,
                &[
                    "wdl_mg_centre",
                    "wdl_mg_width",
                    "wdl_eg_centre",
                    "wdl_eg_width",
                    "move_rule_drift",
                    "wacky_material_mg",
                    "wacky_material_eg",
                    "wacky_cp_scale",
                    "wacky_our_check",
                    "wacky_their_check",
                    "wacky_checks_counted",
                    "wacky_tempo",
                    "wacky_mate_share",
                    "wacky_moves_to_mate",
                    "wacky_spam_per_move",
                    "wacky_spam_moves",
                ][..],
            ),
            (
                Variant::Sets,
                &[
                    "wdl_mg_centre",
                    "wdl_mg_width",
                    "wdl_eg_centre",
                    "wdl_eg_width",
                    "move_rule_drift",
                    "perpetual_per_check",
                    "perpetual_checks",
                    "perpetual_trust",
                ][..],
            ),
            (
                Variant::Dynamic,
                &[
                    "wdl_mg_centre",
                    "wdl_mg_width",
                    "wdl_eg_centre",
                    "wdl_eg_width",
                    "move_rule_drift",
                    "perpetual_per_check",
                    "perpetual_checks",
                    "perpetual_trust",
                ][..],
            ),
            (
                Variant::Tiebraker,
                &[
                    "wdl_mg_centre",
                    "wdl_mg_width",
                    "wdl_eg_centre",
                    "wdl_eg_width",
                    "move_rule_drift",
                    "perpetual_per_check",
                    "perpetual_checks",
                    "perpetual_trust",
                    "tb_frozen_king_mg",
                    "tb_frozen_king_eg",
                    "tb_frozen_central_king_mg",
                    "tb_frozen_central_king_eg",
                    "tb_frozen_check_mg",
                    "tb_frozen_check_eg",
                    "tb_checks_counted",
                    "tb_frozen_zone_mg",
                    "tb_frozen_zone_eg",
                ][..],
            ),
        ] {
            assert_eq!(names(v), expected, "{v}");
        }
    }

    #[test]
    fn the_models_follow_their_curves() {
        for v in Variant::ALL {
            for tuned in [false, true] {
                let w = VariantWeights::of(v, tuned);
                assert_eq!(
                    *VariantWeights::model(v, tuned),
                    WdlModel::new(w.curves()),
                    "{v} {tuned}"
                );
            }
        }
    }

    #[test]
    fn overrides_replace_the_weights_they_name() {
        let o = WeightOverrides::parse("wacky_our_check=4000, wacky_tempo=-5 wacky_our_check=3000")
            .unwrap();
        let w = o.apply(&VariantWeights::UNTUNED);
        assert_eq!(w.wacky_our_check, 3000);
        assert_eq!(w.wacky_tempo, -5);
        assert_eq!(
            w.wacky_their_check,
            VariantWeights::UNTUNED.wacky_their_check
        );
        // The last setting of a weight counts, written last.
        assert_eq!(o.to_string(), "wacky_tempo=-5 wacky_our_check=3000");
        assert!(WeightOverrides::parse("  ").unwrap().is_empty());
        for (bad, says) in [
            ("wacky_nothing=1", "unknown weight 'wacky_nothing'"),
            ("wacky_tempo", "expected name=value"),
            ("wacky_tempo=x", "'x' is not a number"),
            ("wacky_tempo=inf", "is not a number"),
            ("wacky_our_check=-1", "below its floor"),
            ("wacky_tempo=1e300", "above its ceiling 1400000"),
        ] {
            let err = WeightOverrides::parse(bad).unwrap_err();
            assert!(err.contains(says), "{bad}: {err}");
        }
    }
}
