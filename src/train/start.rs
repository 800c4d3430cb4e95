//! How a training run starts: what identifies it for resuming
//! ([`RunId::digest`]), where its checkpoint goes ([`checkpoint_path`]),
//! and its trainer ([`trainer`]): fresh with a fitted or given `K`, from
//! a net's weights (`--init`), or restored from the checkpoint
//! (`--resume`) when that is of the same run.

use std::path::{Path, PathBuf};

use super::data::Dataset;
use super::{Settings, Trainer, checkpoint, fit_k};
use crate::nnue::format::{fnv64, load as load_net};
use crate::rules::{BoardKind, Variant};

/// What identifies a run for resuming: the variant, the data files (names
/// and sizes), the seed, the validation share, the batch, `--wdl`,
/// `--buckets`, `--hidden`, `--king-buckets`, `--mirror` and the `--init`
/// net's content.
#[derive(Clone, Copy, Debug)]
pub struct RunId<'a> {
    /// The variant.
    pub variant: Variant,
    /// The seed.
    pub seed: u64,
    /// The validation share.
    pub val: f64,
    /// Positions per mini-batch.
    pub batch: usize,
    /// The weight of the result in the target.
    pub wdl: f64,
    /// Output buckets as given.
    pub buckets: Option<u8>,
    /// Hidden neurons as given.
    pub hidden: Option<u16>,
    /// King buckets as given.
    pub king_buckets: Option<u8>,
    /// Whether mirror images are trained on too.
    pub mirror: bool,
    /// The starting net.
    pub init: Option<&'a Path>,
    /// The data files.
    pub data: &'a [PathBuf],
}

impl RunId<'_> {
    /// The run's digest, kept in its checkpoint.
    pub fn digest(&self) -> u64 {
        let mut text = format!(
            "variant={} seed={} val={} batch={} wdl={}",
            self.variant, self.seed, self.val, self.batch, self.wdl
        );
        if let Some(b) = self.buckets.filter(|&b| b != 1) {
            text.push_str(&format!(" buckets={b}"));
        }
        // Absent at the defaults, so that the runs before these options
        // resume.
        if let Some(h) = self
            .hidden
            .filter(|&h| usize::from(h) != crate::nnue::HIDDEN)
        {
            text.push_str(&format!(" hidden={h}"));
        }
        if let Some(k) = self.king_buckets.filter(|&k| k != 1) {
            text.push_str(&format!(" kings={k}"));
        }
        if self.mirror {
            text.push_str(" mirror");
        }
        if let Some(init) = self.init {
            // The starting net by its content, so a run resumes only from it.
            // Read as a net is (a regular file or a pipe, bounded); the
            // loader says what is wrong with one that cannot be read.
            let hash = crate::files::read_input(init).map_or(0, |b| fnv64(&b));
            text.push_str(&format!(" init={hash:016x}"));
        }
        for p in self.data {
            let len = std::fs::metadata(p).map_or(0, |m| m.len());
            text.push_str(&format!(" data={}:{len}", p.display()));
        }
        fnv64(text.as_bytes())
    }
}

/// The checkpoint of a run writing `out`: `given`, or `out` with `.ckpt`
/// added.
pub fn checkpoint_path(out: &Path, given: Option<&Path>) -> PathBuf {
    given.map_or_else(
        || {
            let mut p = out.as_os_str().to_owned();
            p.push(".ckpt");
            PathBuf::from(p)
        },
        Path::to_path_buf,
    )
}

/// How a run's trainer starts.
#[derive(Clone, Copy, Debug)]
pub struct Start<'a> {
    /// Whether `--buckets` was given (else the checkpoint's or the
    /// `--init` net's count is kept).
    pub buckets_given: bool,
    /// Whether `--hidden` was given (else the checkpoint's or the `--init`
    /// net's width is kept).
    pub hidden_given: bool,
    /// Whether `--king-buckets` was given (else the checkpoint's or the
    /// `--init` net's layout is kept).
    pub kings_given: bool,
    /// `K` as given (else fitted, or the checkpoint's).
    pub k: Option<f64>,
    /// Restore from this checkpoint (`--resume`).
    pub resume: Option<&'a Path>,
    /// The run's digest ([`RunId::digest`]).
    pub digest: u64,
    /// Start from this net's weights (`--init`).
    pub init: Option<&'a Path>,
}

/// A fresh trainer of `variant`'s board, or the checkpoint's; `say` is
/// told where it starts from ("resuming from ...", "starting from ...").
///
/// # Errors
///
/// A one-line message: a checkpoint that cannot be read or is of another
/// run, a starting net that cannot be read or used.
pub fn trainer(
    variant: Variant,
    mut settings: Settings,
    start: &Start,
    data: &Dataset,
    say: &mut dyn FnMut(String),
) -> Result<Trainer, String> {
    let board = BoardKind::of(variant);
    if let Some(ckpt) = start.resume {
        let state = checkpoint::load(ckpt)?;
        if !start.buckets_given {
            settings.buckets = state.shape.buckets;
        }
        if !start.hidden_given {
            settings.hidden = state.shape.hidden;
        }
        if !start.kings_given {
            settings.kings = state.shape.kings;
        }
        if state.digest != start.digest || state.board != board || state.shape != settings.shape() {
            return Err(format!(
                "{}: the checkpoint is of another run (variant, data, --seed, --val, --batch, --wdl, --mirror, --buckets, --hidden, --king-buckets or --init differ)",
                ckpt.display()
            ));
        }
        settings.k = start.k.unwrap_or(state.k);
        say(format!(
            "resuming from {} after epoch {}",
            ckpt.display(),
            state.epoch
        ));
        return Trainer::restore(board, settings, state);
    }
    settings.k = match start.k {
        Some(k) => k,
        None => fit_k(&data.train),
    };
    match start.init {
        Some(path) => {
            let net = load_net(path)?;
            if !start.buckets_given {
                settings.buckets = net.buckets();
            }
            if !start.hidden_given {
                settings.hidden = net.hidden();
            }
            if !start.kings_given {
                settings.kings = net.kings();
            }
            let t = Trainer::from_net(board, settings, &net).map_err(|e| format!("--init: {e}"))?;
            say(format!("starting from {}", net.describe()));
            Ok(t)
        }
        None => Ok(Trainer::new(board, settings)),
    }
}
