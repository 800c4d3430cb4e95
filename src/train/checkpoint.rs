//! Training checkpoints: the float weights, AdamW's moments, the step and
//! epoch counts, the batch generator and `K`, written after every epoch
//! so that `tally train --resume` continues where a run stopped.
//!
//! Little-endian: magic `TALLYCKP` (8), version `u16` (1), hidden size
//! `u16`, board `u8` (0 standard, 1 extinction), output buckets `u8` (0
//! for one), 2 reserved bytes, epochs
//! done `u32`, 4 reserved bytes, steps `u64`, generator `u64`, `K` `f64`,
//! the run's digest `u64` (what must not change between the run and its
//! resumption: variant, data, seed, validation share, batch, `--wdl`),
//! then the weights, the first and the second moments (`f32` each, as
//! many as the net has weights), and an FNV-1a hash of everything before
//! it. A checkpoint is written to a temporary file and renamed, so a run
//! killed while writing keeps the previous one.

use std::path::Path;

use super::{Trainer, params_len};
use crate::nnue::format::fnv64;
use crate::nnue::{HIDDEN, MAX_BUCKETS};
use crate::rules::BoardKind;

/// The file's first eight bytes.
pub const MAGIC: [u8; 8] = *b"TALLYCKP";
/// The format version.
pub const VERSION: u16 = 1;
const HEADER_LEN: usize = 56;

/// The file's length for a net of `buckets` output buckets.
const fn file_len(buckets: usize) -> usize {
    HEADER_LEN + 3 * 4 * params_len(buckets) + 8
}

/// What a checkpoint holds.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// The board kind of the net.
    pub board: BoardKind,
    /// Output buckets of the net.
    pub buckets: usize,
    /// Epochs completed.
    pub epoch: u32,
    /// AdamW steps taken.
    pub step: u64,
    /// The batch generator.
    pub rng: u64,
    /// The sigmoid's scale.
    pub k: f64,
    /// The run's digest.
    pub digest: u64,
    /// The weights.
    pub params: Vec<f32>,
    /// The first moments.
    pub m: Vec<f32>,
    /// The second moments.
    pub v: Vec<f32>,
}

/// The file a checkpoint at `path` is written to before it is renamed
/// over `path`.
pub fn temporary(path: &std::path::Path) -> std::path::PathBuf {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    std::path::PathBuf::from(tmp)
}

/// Writes the trainer's state to `path` (through [`temporary`]).
///
/// # Errors
///
/// A one-line message when the file cannot be written.
pub fn save(t: &Trainer, digest: u64, path: &Path) -> Result<(), String> {
    let buckets = t.settings.buckets;
    let mut out = Vec::with_capacity(file_len(buckets));
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(HIDDEN as u16).to_le_bytes());
    out.push(u8::from(t.board == BoardKind::Extinction));
    out.push(if buckets == 1 { 0 } else { buckets as u8 });
    out.extend_from_slice(&[0; 2]);
    out.extend_from_slice(&t.epoch.to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&t.step.to_le_bytes());
    out.extend_from_slice(&t.rng().to_le_bytes());
    out.extend_from_slice(&t.settings.k.to_le_bytes());
    out.extend_from_slice(&digest.to_le_bytes());
    let (m, v) = t.moments();
    for x in t.params.iter().chain(m).chain(v) {
        out.extend_from_slice(&x.to_le_bytes());
    }
    let h = fnv64(&out);
    out.extend_from_slice(&h.to_le_bytes());
    let tmp = temporary(path);
    std::fs::write(&tmp, &out)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| format!("cannot write the checkpoint {}: {e}", path.display()))
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut x = [0u8; 8];
    x.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(x)
}

/// Reads a checkpoint.
///
/// # Errors
///
/// A one-line message naming the file: unreadable, not a checkpoint of
/// this build (magic, version, hidden size, length) or damaged (hash).
pub fn load(path: &Path) -> Result<State, String> {
    let name = path.display();
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read {name}: {e}"))?;
    let (least, most) = (file_len(1), file_len(MAX_BUCKETS));
    if !(least as u64..=most as u64).contains(&meta.len()) {
        return Err(format!(
            "{name}: not a checkpoint of this Tally ({} bytes, expected {least} to {most})",
            meta.len()
        ));
    }
    let b = std::fs::read(path).map_err(|e| format!("cannot read {name}: {e}"))?;
    if b.len() < least || b[0..8] != MAGIC {
        return Err(format!("{name}: not a Tally training checkpoint"));
    }
    let buckets = usize::from(b[13]).max(1);
    let len = file_len(buckets);
    if buckets > MAX_BUCKETS || b.len() != len {
        return Err(format!(
            "{name}: not a checkpoint of this Tally ({} bytes, {buckets} output buckets)",
            b.len()
        ));
    }
    let version = u16::from_le_bytes([b[8], b[9]]);
    let hidden = u16::from_le_bytes([b[10], b[11]]);
    if version != VERSION || usize::from(hidden) != HIDDEN {
        return Err(format!(
            "{name}: checkpoint version {version} with {hidden} hidden neurons (this Tally writes version {VERSION} with {HIDDEN})"
        ));
    }
    if fnv64(&b[..len - 8]) != u64_at(&b, len - 8) {
        return Err(format!("{name}: the checkpoint is damaged (hash mismatch)"));
    }
    let floats: Vec<f32> = b[HEADER_LEN..len - 8]
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let mut parts = floats
        .chunks_exact(params_len(buckets))
        .map(<[f32]>::to_vec);
    let mut next = || parts.next().unwrap_or_default();
    Ok(State {
        board: if b[12] == 1 {
            BoardKind::Extinction
        } else {
            BoardKind::Standard
        },
        buckets,
        epoch: u32::from_le_bytes([b[16], b[17], b[18], b[19]]),
        step: u64_at(&b, 24),
        rng: u64_at(&b, 32),
        k: f64::from_bits(u64_at(&b, 40)),
        digest: u64_at(&b, 48),
        params: next(),
        m: next(),
        v: next(),
    })
}
