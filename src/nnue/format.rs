//! The net file: a 24-byte header, then the quantised weights, all
//! little-endian. The layout is documented in `docs/train.md`; this module
//! is its only reader and writer.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `TALLYNNU` |
//! | 8 | 2 | format version (1 or 2) |
//! | 10 | 2 | hidden neurons per perspective `H` (1 ..= the build's `HIDDEN`; a narrower net is read with the others at zero) |
//! | 12 | 1 | output heads `n` (1 ..= 8; head 0 the score) |
//! | 13 | 1 | board: 0 standard, 1 extinction |
//! | 14 | 1 | version 2: output buckets `b` (2 ..= 8); version 1: 0 (one bucket) |
//! | 15 | 1 | reserved (0) |
//! | 16 | 8 | content hash: FNV-1a (64 bits), see below |
//! | 24 | 1536 H | hidden weights, `i16`, feature by feature (768 rows of `H`) |
//! | | 2 H | hidden biases, `i16` |
//! | | n b (4 H + 4) | per head, per bucket: `2 H` output weights `i16` (side to move first), bias `i32` |
//!
//! The hash names the net (`nn-` and its first 12 hex digits) and catches
//! a damaged file. In version 1 it covers every byte after the header; in
//! version 2 the header's bytes 12 to 15 (heads, board, buckets) and then
//! every byte after the header, so the same weights read as other heads
//! or buckets have another name. A net of one bucket is written as
//! version 1.

use std::fmt;
use std::path::Path;

use super::{FEATURES, HIDDEN, Head, MAX_BUCKETS, MAX_HEADS, Network};
use crate::rules::BoardKind;

/// The file's first eight bytes.
pub const MAGIC: [u8; 8] = *b"TALLYNNU";
/// The format version of a net of one output bucket.
pub const VERSION: u16 = 1;
/// The format version of a net of several output buckets.
pub const VERSION_BUCKETS: u16 = 2;
/// Bytes of the header.
pub const HEADER_LEN: usize = 24;

/// Why a net could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// Not a net file (too short, wrong magic).
    NotNet(String),
    /// Another format version.
    Version(u16),
    /// A hidden size this build cannot hold (none, or more than
    /// [`HIDDEN`]).
    Hidden(u16),
    /// The file's length disagrees with its header.
    Size {
        /// Bytes in the file.
        got: usize,
        /// Bytes the header promises.
        expected: usize,
    },
    /// The header's fields are impossible.
    Shape(String),
    /// Weights beyond the bounds that keep the integer sums exact.
    Range(String),
    /// The content hash does not match the weights.
    Hash,
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::NotNet(s) => write!(f, "not a Tally net: {s}"),
            NetError::Version(v) => write!(
                f,
                "net format version {v} (this Tally reads versions {VERSION} and {VERSION_BUCKETS})"
            ),
            NetError::Hidden(h) => write!(
                f,
                "the net has {h} hidden neurons (this Tally reads 1 to {HIDDEN})"
            ),
            NetError::Size { got, expected } => write!(
                f,
                "wrong size: {got} bytes, the header describes {expected} (a damaged or cut file)"
            ),
            NetError::Shape(s) => write!(f, "bad net header: {s}"),
            NetError::Range(s) => write!(f, "the net's weights are out of range: {s}"),
            NetError::Hash => write!(f, "content hash mismatch (the file is damaged)"),
        }
    }
}

impl std::error::Error for NetError {}

/// FNV-1a (64 bits).
pub fn fnv64(bytes: &[u8]) -> u64 {
    fnv64_on(0xcbf2_9ce4_8422_2325, bytes)
}

/// FNV-1a (64 bits) going on from the state `h` over `bytes`.
fn fnv64_on(h: u64, bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(h, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// The file's length for a net of `hidden` neurons and `layers` output
/// layers (heads times buckets).
pub const fn file_len(hidden: usize, layers: usize) -> usize {
    HEADER_LEN + 2 * FEATURES * hidden + 2 * hidden + layers * (4 * hidden + 4)
}

/// The header's bytes 12 to 15: heads, board, buckets (0 for one),
/// reserved.
fn shape_bytes(heads: usize, board: BoardKind, buckets: usize) -> [u8; 4] {
    let b = if buckets == 1 { 0 } else { buckets as u8 };
    [heads as u8, board_byte(board), b, 0]
}

/// The content hash of a net with this shape and `body` (the bytes after
/// the header): see the module documentation.
fn content_hash(heads: usize, board: BoardKind, buckets: usize, body: &[u8]) -> u64 {
    if buckets == 1 {
        fnv64(body)
    } else {
        fnv64_on(fnv64(&shape_bytes(heads, board, buckets)), body)
    }
}

/// The content hash of `net`.
pub(super) fn hash_of(net: &Network) -> u64 {
    content_hash(net.head_count(), net.board, net.buckets, &payload(net))
}

/// The bytes after the header: the weights of the net's first
/// [`Network::hidden`] neurons.
pub(super) fn payload(net: &Network) -> Vec<u8> {
    let h = net.hidden;
    let mut out = Vec::with_capacity(file_len(h, net.heads.len()) - HEADER_LEN);
    let put = |out: &mut Vec<u8>, row: &[i16; HIDDEN]| {
        for w in &row[..h] {
            out.extend_from_slice(&w.to_le_bytes());
        }
    };
    for row in &net.feature_weights {
        put(&mut out, row);
    }
    put(&mut out, &net.feature_bias);
    for head in &net.heads {
        for row in &head.weights {
            put(&mut out, row);
        }
        out.extend_from_slice(&head.bias.to_le_bytes());
    }
    out
}

fn board_byte(b: BoardKind) -> u8 {
    match b {
        BoardKind::Standard => 0,
        BoardKind::Extinction => 1,
    }
}

/// The file's bytes.
pub fn write(net: &Network) -> Vec<u8> {
    let body = payload(net);
    let mut out = Vec::with_capacity(HEADER_LEN + body.len());
    let version = if net.buckets == 1 {
        VERSION
    } else {
        VERSION_BUCKETS
    };
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&(net.hidden as u16).to_le_bytes());
    out.extend_from_slice(&shape_bytes(net.head_count(), net.board, net.buckets));
    out.extend_from_slice(&net.hash.to_le_bytes());
    out.extend_from_slice(&body);
    out
}

/// Little-endian `i16`s from `bytes` (an even length).
fn i16s(bytes: &[u8]) -> impl Iterator<Item = i16> + '_ {
    bytes
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
}

/// Reads a net from the file's bytes.
///
/// # Errors
///
/// [`NetError`]: not a net, another version or hidden size, a length that
/// disagrees with the header, a hash mismatch, weights out of range.
pub fn read(bytes: &[u8]) -> Result<Network, NetError> {
    if bytes.len() < HEADER_LEN {
        return Err(NetError::NotNet(format!(
            "{} bytes, shorter than the header",
            bytes.len()
        )));
    }
    if bytes[0..8] != MAGIC {
        return Err(NetError::NotNet("wrong magic".to_owned()));
    }
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    if version != VERSION && version != VERSION_BUCKETS {
        return Err(NetError::Version(version));
    }
    let hidden = u16::from_le_bytes([bytes[10], bytes[11]]);
    if hidden == 0 || usize::from(hidden) > HIDDEN {
        return Err(NetError::Hidden(hidden));
    }
    let h = usize::from(hidden);
    let heads = usize::from(bytes[12]);
    if heads == 0 || heads > MAX_HEADS {
        return Err(NetError::Shape(format!("{heads} heads (1 to {MAX_HEADS})")));
    }
    let board = match bytes[13] {
        0 => BoardKind::Standard,
        1 => BoardKind::Extinction,
        b => return Err(NetError::Shape(format!("board byte {b}"))),
    };
    let buckets = match (version, bytes[14]) {
        (VERSION, 0) => 1,
        (VERSION, b) => {
            return Err(NetError::Shape(format!(
                "buckets byte {b} in a version {VERSION} net (0)"
            )));
        }
        (_, b) if (2..=MAX_BUCKETS as u8).contains(&b) => usize::from(b),
        (_, b) => {
            return Err(NetError::Shape(format!(
                "{b} output buckets (2 to {MAX_BUCKETS} in version {VERSION_BUCKETS})"
            )));
        }
    };
    // Reserved: 0. It is part of the name (docs/train.md), so a file with
    // another value is not the net of that name.
    if bytes[15] != 0 {
        return Err(NetError::Shape(format!(
            "reserved byte 15 is {} (0)",
            bytes[15]
        )));
    }
    let expected = file_len(h, heads * buckets);
    if bytes.len() != expected {
        return Err(NetError::Size {
            got: bytes.len(),
            expected,
        });
    }
    let mut hash = [0u8; 8];
    hash.copy_from_slice(&bytes[16..24]);
    let body = &bytes[HEADER_LEN..];
    if content_hash(heads, board, buckets, body) != u64::from_le_bytes(hash) {
        return Err(NetError::Hash);
    }
    // Rows of `h` weights, each padded with zeros to `HIDDEN`.
    let row = |bytes: &[u8]| {
        let mut row = [0i16; HIDDEN];
        for (w, v) in row.iter_mut().zip(i16s(bytes)) {
            *w = v;
        }
        row
    };
    let (rows, rest) = body.split_at(2 * FEATURES * h);
    let (bias, rest) = rest.split_at(2 * h);
    let feature_weights = rows.chunks_exact(2 * h).map(row).collect();
    let heads = rest
        .chunks_exact(4 * h + 4)
        .map(|layer| {
            let b = &layer[4 * h..];
            Head {
                weights: [row(&layer[..2 * h]), row(&layer[2 * h..4 * h])],
                bias: i32::from_le_bytes([b[0], b[1], b[2], b[3]]),
            }
        })
        .collect();
    Network::with_width(board, feature_weights, row(bias), buckets, heads, h)
}

/// Reads a net file.
///
/// # Errors
///
/// A one-line message naming the file: it cannot be read, is larger than
/// any net, or [`read`] refuses it.
pub fn load(path: &Path) -> Result<Network, String> {
    let name = path.display();
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read {name}: {e}"))?;
    if !meta.is_file() {
        return Err(format!("cannot read {name}: not a regular file"));
    }
    let largest = file_len(HIDDEN, MAX_HEADS * MAX_BUCKETS) as u64;
    if meta.len() > largest {
        return Err(format!(
            "{name}: not a Tally net of this build ({} bytes, a net has at most {largest})",
            meta.len()
        ));
    }
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {name}: {e}"))?;
    read(&bytes).map_err(|e| format!("{name}: {e}"))
}

/// Writes a net file.
///
/// # Errors
///
/// A one-line message naming the file when it cannot be written.
pub fn save(net: &Network, path: &Path) -> Result<(), String> {
    std::fs::write(path, write(net)).map_err(|e| format!("cannot write {}: {e}", path.display()))
}
