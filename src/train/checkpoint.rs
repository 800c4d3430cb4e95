//! Training checkpoints: the float weights, AdamW's moments, the step and
//! epoch counts, the batch generator and `K`, written after every epoch
//! so that `tally train --resume` continues where a run stopped.
//!
//! Little-endian: magic `TALLYCKP` (8), version `u16` (2; version 1, of
//! the builds before king buckets, is read as the same layout with byte
//! 14 zero), hidden size `u16`, board `u8` (0 standard, 1 extinction),
//! output buckets `u8` (0 for one), the king-bucket layout id `u8` (0
//! plain, [`Kings`]), 1 reserved byte, epochs done `u32`, 4 reserved
//! bytes, steps `u64`, generator `u64`, `K` `f64`, the run's digest `u64`
//! (what must not change between the run and its resumption: variant,
//! data, seed, validation share, batch, `--wdl`, the net's shape), then
//! the weights, the first and the second moments (`f32` each, as many as
//! the net has weights), and an FNV-1a hash of everything before it. A
//! checkpoint is written to a temporary file and renamed, so a run killed
//! while writing keeps the previous one.

use std::path::Path;

use super::{Shape, Trainer};
use crate::nnue::format::fnv64;
use crate::nnue::{Kings, MAX_BUCKETS, MAX_HIDDEN};
use crate::rules::BoardKind;

/// The file's first eight bytes.
pub const MAGIC: [u8; 8] = *b"TALLYCKP";
/// The format version written.
pub const VERSION: u16 = 2;
/// The version of the builds before king buckets, still read.
pub const VERSION_PLAIN: u16 = 1;
const HEADER_LEN: usize = 56;

/// The file's length for a net of shape `sh`.
fn file_len(sh: Shape) -> usize {
    HEADER_LEN + 3 * 4 * sh.len() + 8
}

/// What a checkpoint holds.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// The board kind of the net.
    pub board: BoardKind,
    /// The shape of the net.
    pub shape: Shape,
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
    let sh = t.shape();
    let mut out = Vec::with_capacity(file_len(sh));
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(sh.hidden as u16).to_le_bytes());
    out.push(u8::from(t.board == BoardKind::Extinction));
    out.push(if sh.buckets == 1 { 0 } else { sh.buckets as u8 });
    out.extend_from_slice(&[sh.kings.id(), 0]);
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
    let smallest = Shape {
        hidden: 1,
        kings: Kings::Plain,
        buckets: 1,
    };
    let largest = Shape {
        hidden: MAX_HIDDEN,
        kings: Kings::Sixteen,
        buckets: MAX_BUCKETS,
    };
    let (least, most) = (file_len(smallest), file_len(largest));
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
    let version = u16::from_le_bytes([b[8], b[9]]);
    let hidden = usize::from(u16::from_le_bytes([b[10], b[11]]));
    let kings = Kings::from_id(b[14]).filter(|_| version == VERSION || b[14] == 0);
    let (Some(kings), true, true) = (
        kings,
        version == VERSION || version == VERSION_PLAIN,
        (1..=MAX_HIDDEN).contains(&hidden),
    ) else {
        return Err(format!(
            "{name}: checkpoint version {version} with {hidden} hidden neurons and king-bucket layout {} (this Tally reads versions {VERSION_PLAIN} and {VERSION}, 1 to {MAX_HIDDEN} neurons, layouts 0 to {})",
            b[14],
            Kings::ALL.len() - 1
        ));
    };
    let buckets = usize::from(b[13]).max(1);
    let shape = Shape {
        hidden,
        kings,
        buckets,
    };
    let len = file_len(shape);
    if buckets > MAX_BUCKETS || b.len() != len {
        return Err(format!(
            "{name}: not a checkpoint of this Tally ({} bytes, {buckets} output buckets)",
            b.len()
        ));
    }
    if fnv64(&b[..len - 8]) != u64_at(&b, len - 8) {
        return Err(format!("{name}: the checkpoint is damaged (hash mismatch)"));
    }
    let floats: Vec<f32> = b[HEADER_LEN..len - 8]
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let mut parts = floats.chunks_exact(shape.len()).map(<[f32]>::to_vec);
    let mut next = || parts.next().unwrap_or_default();
    Ok(State {
        board: if b[12] == 1 {
            BoardKind::Extinction
        } else {
            BoardKind::Standard
        },
        shape,
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
