//! What `tally train` does for a net once its options are checked
//! ([`train_and_write`]): read the data, start the trainer
//! ([`super::start`]), run the epochs with a checkpoint after each
//! ([`epochs`]), reporting as it goes ([`Watch`]), write the net and check
//! the engine's integer inference of the written file against the float
//! pass ([`compare`]).

use std::path::{Path, PathBuf};
use std::time::Instant;

use super::data::{Dataset, Sample, load};
use super::start::{RunId, Start, trainer};
use super::{Agreement, Settings, Trainer, checkpoint, compare};
use crate::fit::Watch;
use crate::nnue::format::{load as load_net, save as save_net};
use crate::rules::Variant;

/// A run of `tally train` for a net, its options checked.
#[derive(Clone, Debug)]
pub struct NetRun<'a> {
    /// The variant whose positions are used.
    pub variant: Variant,
    /// The data files.
    pub data: &'a [PathBuf],
    /// The trainer's settings (`K` is the start's, [`Start`]).
    pub settings: Settings,
    /// The share of games set apart for validation.
    pub val: f64,
    /// Whether mirror images are trained on too.
    pub mirror: bool,
    /// The sigmoid's scale as given (else fitted, or the checkpoint's).
    pub k: Option<f64>,
    /// Output buckets as given (else the checkpoint's, the `--init`
    /// net's, or 1).
    pub buckets: Option<u8>,
    /// Hidden neurons as given (else the checkpoint's, the `--init`
    /// net's, or [`crate::nnue::HIDDEN`]).
    pub hidden: Option<u16>,
    /// King buckets as given (else the checkpoint's, the `--init` net's,
    /// or none).
    pub king_buckets: Option<u8>,
    /// Start from this net's weights.
    pub init: Option<&'a Path>,
    /// Restore from the checkpoint.
    pub resume: bool,
    /// The checkpoint written after every epoch.
    pub checkpoint: &'a Path,
    /// Positions on which the written net is checked.
    pub check: usize,
    /// The net file to write.
    pub out: &'a Path,
}

/// Trains `t` on `data` up to `epochs` epochs, writing the checkpoint of
/// the run `digest` to `ckpt` after each and telling `watch` each epoch's
/// losses and the speed.
///
/// # Errors
///
/// A checkpoint that cannot be written, or a loss that is no longer a
/// number (the run diverged; one line).
pub fn epochs(
    t: &mut Trainer,
    data: &Dataset,
    epochs: u32,
    (digest, ckpt): (u64, &Path),
    watch: &mut dyn Watch,
) -> Result<(), String> {
    let n = data.train.len();
    let start_epoch = t.epoch;
    let todo = u64::from(epochs.saturating_sub(start_epoch)) * n as u64;
    watch.begin(Some(todo), "positions");
    let started = Instant::now();
    while t.epoch < epochs {
        let e = t.epoch + 1;
        let before = u64::from(t.epoch - start_epoch) * n as u64;
        let lr = t.current_lr(n);
        let t0 = Instant::now();
        let train_loss = t.epoch(&data.train, |done, loss| {
            watch.at(before + done as u64);
            watch.note(format!("epoch {e} loss {loss:.6}"));
        });
        if !train_loss.is_finite() {
            // The checkpoint of the epoch before stays as it was.
            return Err(format!(
                "training diverged in epoch {e} (train loss {train_loss}): give a smaller --lr (now {}) or --k (now {})",
                t.settings.lr, t.settings.k
            ));
        }
        let speed = n as f64 / t0.elapsed().as_secs_f64().max(1e-9);
        let val = if data.validation.is_empty() {
            "no validation".to_owned()
        } else {
            format!("validation loss {:.6}", t.loss(&data.validation))
        };
        watch.say(&format!(
            "epoch {e}/{epochs}: train loss {train_loss:.6}, {val}, lr {lr:.6}, {speed:.0} positions/s"
        ));
        checkpoint::save(t, digest, ckpt)?;
    }
    watch.end();
    if t.epoch > start_epoch {
        let secs = started.elapsed().as_secs_f64().max(1e-9);
        let done = f64::from(t.epoch - start_epoch) * n as f64;
        watch.say(&format!(
            "trained {done:.0} positions in {secs:.1} s: {:.0} positions/s on {} threads",
            done / secs,
            rayon::current_num_threads()
        ));
    }
    Ok(())
}

/// Trains the net of `run`, writes it and returns how the written net's
/// integer inference agrees with the float pass (the caller judges it
/// with [`Agreement::check`]).
///
/// # Errors
///
/// Unreadable data, no quiet position of the variant, a checkpoint of
/// another run, a starting net that cannot be used, an unwritable
/// checkpoint or net (one line).
pub fn train_and_write(run: &NetRun, watch: &mut dyn Watch) -> Result<Agreement, String> {
    let variant = run.variant;
    let s = &run.settings;
    let mut data = load(run.data, variant, run.val, s.seed)?;
    if run.mirror {
        data.add_mirrors();
    }
    watch.say(&format!(
        "{} training and {} validation positions (quiet) of {} in {} {variant} games read ({} games of other variants skipped)",
        data.train.len(),
        data.validation.len(),
        data.positions,
        data.games,
        data.other_games
    ));
    if data.train.is_empty() {
        return Err(format!(
            "no quiet {variant} position to train on in the data"
        ));
    }
    let digest = RunId {
        variant,
        seed: s.seed,
        val: run.val,
        batch: s.batch,
        wdl: s.lambda,
        buckets: run.buckets,
        hidden: run.hidden,
        king_buckets: run.king_buckets,
        mirror: run.mirror,
        init: run.init,
        data: run.data,
    }
    .digest();
    let start = Start {
        buckets_given: run.buckets.is_some(),
        hidden_given: run.hidden.is_some(),
        kings_given: run.king_buckets.is_some(),
        k: run.k,
        resume: run.resume.then_some(run.checkpoint),
        digest,
        init: run.init,
    };
    let mut t = trainer(variant, s.clone(), &start, &data, &mut |line| {
        watch.say(&line);
    })?;
    let kings = t.settings.kings;
    watch.say(&format!(
        "K = {:.6} per internal unit, {} hidden neurons per side, {} output bucket{}{}",
        t.settings.k,
        t.settings.hidden,
        t.settings.buckets,
        if t.settings.buckets == 1 { "" } else { "s" },
        if kings == crate::nnue::Kings::Plain {
            String::new()
        } else {
            format!(", {} king buckets mirrored", kings.count())
        }
    ));
    epochs(&mut t, &data, s.epochs, (digest, run.checkpoint), watch)?;
    let net = t.network()?;
    save_net(&net, run.out)?;
    // What the engine will load, checked against the float pass.
    let loaded = load_net(run.out)?;
    watch.say(&format!(
        "wrote {} to {}",
        loaded.describe(),
        run.out.display()
    ));
    let sample: Vec<Sample> = data
        .validation
        .iter()
        .chain(&data.train)
        .take(run.check)
        .copied()
        .collect();
    let a = compare(&t, &loaded, &sample);
    watch.say(&format!(
        "integer inference against the float pass on {} positions: largest difference {:.1} internal units (mean {:.2}); against the quantised weights in float: {:.2}",
        a.positions, a.max, a.mean, a.arithmetic
    ));
    Ok(a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fit::Recorder;
    use crate::train::Schedule;

    #[test]
    fn a_run_reports_its_epochs_and_resumes_where_its_checkpoint_left_off() {
        let dir = std::env::temp_dir().join(format!("tally-train-run-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (out, ckpt) = (dir.join("n.nnue"), dir.join("n.ckpt"));
        let data = [Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/extinction.tdat")];
        let run = |epochs: u32, resume: bool| {
            let run = NetRun {
                variant: Variant::Extinction,
                data: &data,
                settings: Settings {
                    epochs,
                    batch: 256,
                    lr: 0.001,
                    schedule: Schedule::Cosine {
                        final_fraction: 0.05,
                    },
                    weight_decay: 0.01,
                    lambda: 0.5,
                    k: 0.0,
                    seed: 2,
                    buckets: 1,
                    hidden: crate::nnue::HIDDEN,
                    kings: crate::nnue::Kings::Plain,
                },
                val: 0.25,
                mirror: false,
                k: None,
                buckets: None,
                hidden: None,
                king_buckets: None,
                init: None,
                resume,
                checkpoint: &ckpt,
                check: 50,
                out: &out,
            };
            let mut watch = Recorder::default();
            let agreement = train_and_write(&run, &mut watch).unwrap();
            agreement.check().unwrap();
            assert_eq!(agreement.positions, 50);
            watch
        };
        let first = run(1, false);
        let second = run(2, true);
        let _ = std::fs::remove_dir_all(&dir);
        let said = |w: &Recorder, start: &str| -> Vec<bool> {
            w.lines
                .iter()
                .filter(|(l, _)| l.starts_with(start))
                .map(|(_, up)| *up)
                .collect()
        };
        // Each run's bar covers the epochs it trains, one line each under
        // it, then the speed and the net written after it.
        for (w, epoch) in [(&first, "epoch 1/1:"), (&second, "epoch 2/2:")] {
            assert_eq!(said(w, epoch), [true], "{:?}", w.lines);
            assert_eq!(said(w, "trained "), [false]);
            assert_eq!(said(w, "wrote "), [false]);
            assert_eq!(w.bars.len(), 1);
            assert_eq!(w.counts.last().copied(), w.bars[0].0);
        }
        // The second run trains only its second epoch, over as many
        // positions as the first did.
        assert_eq!(second.bars, first.bars);
        assert_eq!(said(&second, "epoch 1/"), Vec::<bool>::new());
        let resumed = format!("resuming from {} after epoch 1", ckpt.display());
        assert_eq!(said(&second, &resumed), [false]);
    }
}
