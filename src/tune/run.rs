//! What `tally tune` does once its options are checked: read the data,
//! fit, report as it goes ([`Watch`]) and write the generated source
//! file. [`centipawns`]: the epochs of gradient descent over chess's or
//! extinction's weights, keeping those of the epoch with the lowest
//! validation loss; [`points`]: a scoring variant's evaluator weights;
//! [`wdl()`]: the win/draw/loss model's curves.

use std::path::{Path, PathBuf};

use super::evaluator::{
    evaluator, fit_points, fitted_knobs, load_points, point_loss, render_weights,
};
use super::wdl::{WdlFit, fit as fit_wdl, load_wdl, render_wdl};
use super::{Sample, Settings, Tuner, coefficients, fit_k, load, render};
use crate::eval::params::EvalParams;
use crate::eval::variant_weights::VariantWeights;
use crate::eval::wdl;
use crate::fit::Watch;
use crate::rules::Variant;

/// A run of `tally tune`, its options checked.
#[derive(Clone, Debug)]
pub struct Run<'a> {
    /// The variant whose positions are used.
    pub variant: Variant,
    /// The data files.
    pub data: &'a [PathBuf],
    /// Passes over the data (centipawn weights).
    pub epochs: u32,
    /// The tuner's settings (centipawn weights).
    pub settings: Settings,
    /// The sigmoid's scale as given (else fitted).
    pub k: Option<f64>,
    /// Every N-th game held out for the validation loss (0: none).
    pub holdout: u32,
    /// Scoring variants: the weights left at their hand-set values.
    pub keep: &'a [String],
    /// The file to write.
    pub out: &'a Path,
}

/// The data files as the generated file's header names them.
fn files(run: &Run) -> String {
    let files: Vec<String> = run.data.iter().map(|p| p.display().to_string()).collect();
    files.join(" ")
}

/// Writes `text` to the run's output and says so.
fn write(run: &Run, text: String, watch: &mut dyn Watch) -> Result<(), String> {
    let out = run.out;
    std::fs::write(out, text).map_err(|e| format!("{}: {e}", out.display()))?;
    watch.say(&format!("wrote {}", out.display()));
    Ok(())
}

/// The best epoch of a fit ([`epochs`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Best {
    /// Its weights.
    pub params: EvalParams,
    /// Its number (0: the start).
    pub epoch: u32,
    /// Its loss: the validation loss, or the fit's without validation.
    pub loss: f64,
}

/// Runs `epochs` epochs of `tuner` over `samples`, telling `watch` each
/// epoch's losses, and returns the epoch with the lowest validation loss
/// (without validation positions, the last).
pub fn epochs(
    tuner: &mut Tuner,
    samples: &[Sample],
    validation: &[Sample],
    epochs: u32,
    watch: &mut dyn Watch,
) -> Best {
    let val_lin = coefficients(validation);
    let report = |tuner: &Tuner| {
        let l = tuner.loss(samples);
        if validation.is_empty() {
            (format!("loss {l:.6}"), l)
        } else {
            let v = tuner.loss_on(validation, &val_lin);
            (format!("loss {l:.6}, validation {v:.6}"), v)
        }
    };
    let (text, loss) = report(tuner);
    watch.say(&format!("epoch 0: {text}"));
    let mut best = Best {
        params: tuner.params(),
        epoch: 0,
        loss,
    };
    let n = samples.len() as u64;
    watch.begin(Some(n * u64::from(epochs)), "positions");
    for e in 1..=epochs {
        let before = u64::from(e - 1) * n;
        tuner.epoch(samples, |done| watch.at(before + done as u64));
        let (text, l) = report(tuner);
        watch.note(text.clone());
        watch.say(&format!("epoch {e}: {text}"));
        if l < best.loss || validation.is_empty() {
            best = Best {
                params: tuner.params(),
                epoch: e,
                loss: l,
            };
        }
    }
    watch.end();
    best
}

/// Fits chess's or extinction's centipawn weights and writes them.
///
/// # Errors
///
/// Unreadable data, no quiet position of the variant, an unwritable
/// output (one line).
pub fn centipawns(run: &Run, watch: &mut dyn Watch) -> Result<(), String> {
    let variant = run.variant;
    let loaded = load(run.data, variant, run.holdout)?;
    let (samples, validation) = (loaded.samples, loaded.validation);
    watch.say(&format!(
        "{} quiet positions of {} in {variant} games read, {} of them held out ({} games of other variants skipped)",
        samples.len() + validation.len(),
        loaded.positions,
        validation.len(),
        loaded.other_games
    ));
    if samples.is_empty() {
        return Err(format!("no quiet {variant} position in the data"));
    }
    // The fit starts from the hand-set weights, whatever the build ships,
    // so that the same data and options always give the same file.
    let start = &EvalParams::UNTUNED;
    let s = run.settings.clone();
    let mut tuner = Tuner::new(start, &samples, 0.0, s.clone());
    tuner.k = match run.k {
        Some(k) => k,
        None => fit_k(&samples, tuner.linear(), &tuner.w),
    };
    watch.say(&format!("K = {:.6} per centipawn", tuner.k));
    let best = epochs(&mut tuner, &samples, &validation, run.epochs, watch);
    if !validation.is_empty() {
        watch.say(&format!(
            "kept epoch {}: validation loss {:.6}",
            best.epoch, best.loss
        ));
    }
    let origin = format!(
        "From {} quiet {variant} positions of {}: --epochs {} --batch {} --lr {} --lambda {} --seed {} --holdout {} --l2 {}, K {:.6}, epoch {}.",
        samples.len(),
        files(run),
        run.epochs,
        s.batch,
        s.lr,
        s.lambda,
        s.seed,
        run.holdout,
        s.l2,
        tuner.k,
        best.epoch
    );
    write(run, render(&best.params, &origin), watch)
}

/// Fits a scoring variant's evaluator weights (less those `keep` names)
/// and writes them.
///
/// # Errors
///
/// Unreadable data, no quiet position of the variant, a `keep` name that
/// is no fitted weight, an unwritable output (one line).
pub fn points(run: &Run, watch: &mut dyn Watch) -> Result<(), String> {
    let variant = run.variant;
    let data = load_points(run.data, variant, run.holdout)?;
    watch.say(&format!(
        "{} quiet positions of {} in {variant} games read, {} of them held out{}",
        data.samples.len() + data.validation.len(),
        data.positions,
        data.validation.len(),
        if data.bad > 0 {
            format!(" ({} records that are no legal position skipped)", data.bad)
        } else {
            String::new()
        }
    ));
    if data.samples.is_empty() {
        return Err(format!("no quiet {variant} position in the data"));
    }
    let ev = evaluator(variant);
    // From the hand-set weights, whatever the build ships: the same data
    // gives the same file.
    let start = VariantWeights::UNTUNED;
    let knobs = fitted_knobs(variant, run.keep)?;
    let losses = |w: &VariantWeights| {
        let fit = point_loss(&ev, &data.samples, w);
        if data.validation.is_empty() {
            (fit, None)
        } else {
            (fit, Some(point_loss(&ev, &data.validation, w)))
        }
    };
    let show = |(fit, val): (f64, Option<f64>)| match val {
        Some(v) => format!("loss {fit:.6}, validation {v:.6}"),
        None => format!("loss {fit:.6}"),
    };
    let before = losses(&start);
    watch.say(&format!(
        "hand-set: {} (pawns of the scale, squared)",
        show(before)
    ));
    watch.begin(None, "steps");
    let mut steps = 0u64;
    let fitted = fit_points(&ev, &data.samples, start, &knobs, |_, l| {
        steps += 1;
        watch.at(steps);
        watch.note(format!("loss {l:.6}"));
    });
    watch.end();
    let after = losses(&fitted);
    watch.say(&format!("fitted:   {}", show(after)));
    for &i in &knobs {
        let name = VariantWeights::KNOBS[i].name;
        let (was, now) = (start.source(i), fitted.source(i));
        if was == now {
            watch.say(&format!("  {name:<26} {now}"));
        } else {
            watch.say(&format!("  {name:<26} {was} -> {now}"));
        }
    }
    let val = |v: Option<f64>| v.map_or_else(|| "none".to_owned(), |v| format!("{v:.6}"));
    let keep = if run.keep.is_empty() {
        String::new()
    } else {
        format!(" --keep {}", run.keep.join(","))
    };
    let origin = format!(
        "From {} quiet {variant} positions of {}: --holdout {}{keep}, loss {:.6} -> {:.6}, validation {} -> {}.",
        data.samples.len(),
        files(run),
        run.holdout,
        before.0,
        after.0,
        val(before.1),
        val(after.1)
    );
    write(run, render_weights(variant, &fitted, &origin), watch)
}

/// Fits the win/draw/loss model's two curves to the chess games and
/// writes them.
///
/// # Errors
///
/// Unreadable data, no quiet chess position, an unwritable output (one
/// line).
pub fn wdl(run: &Run, watch: &mut dyn Watch) -> Result<(), String> {
    let samples = load_wdl(run.data, Variant::Chess)?;
    if samples.is_empty() {
        return Err("no quiet chess position in the data".to_owned());
    }
    watch.say(&format!("{} quiet chess positions read", samples.len()));
    let start = WdlFit {
        mg: wdl::UNTUNED[0],
        eg: wdl::UNTUNED[1],
    };
    let before = start.loss(&samples);
    let fitted = fit_wdl(&samples, start);
    let after = fitted.loss(&samples);
    let show = |c: wdl::Curve| format!("centre {:.1} cp, width {:.1} cp", c.centre, c.width);
    watch.say(&format!("hand-set: log-loss {before:.6}"));
    watch.say(&format!("fitted:   log-loss {after:.6}"));
    watch.say(&format!("full material: {}", show(fitted.mg)));
    watch.say(&format!("bare board:    {}", show(fitted.eg)));
    let origin = format!(
        "From {} quiet chess positions of {}: log-loss {before:.6} -> {after:.6}.",
        samples.len(),
        files(run)
    );
    write(run, render_wdl(&fitted, &origin), watch)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fit::Recorder;

    /// The loss a line of `key` reports (`epoch 2: loss 0.1, validation
    /// 0.2` with key `validation `).
    fn number_after(line: &str, key: &str) -> f64 {
        let at = line.find(key).unwrap_or_else(|| panic!("{line}")) + key.len();
        line[at..]
            .split([',', ' '])
            .next()
            .unwrap()
            .parse()
            .unwrap()
    }

    #[test]
    fn the_epoch_of_the_lowest_validation_loss_is_the_one_written() {
        let dir = std::env::temp_dir().join(format!("tally-tune-run-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("chess.rs");
        let data = [Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/chess.tdat")];
        // A large step: the validation loss is lowest before the last epoch.
        let run = Run {
            variant: Variant::Chess,
            data: &data,
            epochs: 4,
            settings: Settings {
                batch: 64,
                lr: 8.0,
                lambda: 0.5,
                seed: 0,
                l2: 0.0,
            },
            k: None,
            holdout: 3,
            keep: &[],
            out: &out,
        };
        let mut watch = Recorder::default();
        centipawns(&run, &mut watch).unwrap();
        let text = std::fs::read_to_string(&out).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        let lines = &watch.lines;
        // One bar over the four epochs of the training positions,
        // counted up to its total.
        let read = &lines[0].0;
        let training = number_after(read, "") - number_after(read, "games read, ");
        let total = 4 * training as u64;
        assert_eq!(watch.bars, [(Some(total), "positions".to_owned())]);
        assert!(watch.counts.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(watch.counts.last(), Some(&total));
        // Epoch 0 before the bar, the others under it.
        let epochs: Vec<&(String, bool)> = lines
            .iter()
            .filter(|(l, _)| l.starts_with("epoch "))
            .collect();
        assert_eq!(epochs.len(), 5, "{lines:?}");
        assert!(!epochs[0].1 && epochs[1..].iter().all(|(_, up)| *up));
        let val: Vec<f64> = epochs
            .iter()
            .map(|(l, _)| number_after(l, "validation "))
            .collect();
        let best = (0..5).fold(0, |b, e| if val[e] < val[b] { e } else { b });
        assert!(best > 0 && best < 4, "{lines:?}");
        let kept = lines
            .iter()
            .find(|(l, _)| l.starts_with("kept epoch"))
            .unwrap();
        assert_eq!(
            kept.0,
            format!("kept epoch {best}: validation loss {:.6}", val[best])
        );
        assert!(!kept.1);
        assert!(text.contains(&format!(", epoch {best}.")), "{text}");
        assert_eq!(lines.last().unwrap().0, format!("wrote {}", out.display()));
    }
}
