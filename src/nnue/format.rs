//! The net file: a header (24 bytes in versions 1 and 2, 32 in version
//! 3), then the quantised weights, all little-endian. The layout is
//! documented in `docs/train.md`; this module is its only reader and
//! writer.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `TALLYNNU` |
//! | 8 | 2 | format version (1, 2 or 3) |
//! | 10 | 2 | hidden neurons per perspective `H` (1 ..= [`MAX_HIDDEN`]) |
//! | 12 | 1 | output heads `n` (1 ..= 8; head 0 the score) |
//! | 13 | 1 | board: 0 standard, 1 extinction |
//! | 14 | 1 | output buckets `b`: version 1: 0 (one bucket); version 2: 2 ..= 8; version 3: 1 ..= 8 |
//! | 15 | 1 | reserved (0) |
//! | 16 | 8 | content hash: FNV-1a (64 bits), see below |
//! | 24 | 1 | version 3 only: the king-bucket layout id `L` (1 ..= 3, [`Kings`]) |
//! | 25 | 1 | version 3 only: its king buckets `K` (4, 8 or 16, as `L` has) |
//! | 26 | 6 | version 3 only: reserved (0) |
//! | 24 or 32 | 1536 K H | hidden weights, `i16`, feature by feature (`K` blocks of 768 rows of `H`; `K` = 1 before version 3) |
//! | | 2 H | hidden biases, `i16` |
//! | | n b (4 H + 4) | per head, per bucket: `2 H` output weights `i16` (side to move first), bias `i32` |
//!
//! The hash names the net (`nn-` and its first 12 hex digits) and catches
//! a damaged file. In version 1 it covers every byte after the header; in
//! version 2 the header's bytes 12 to 15 (heads, board, buckets) and then
//! every byte after the header; in version 3 the header's bytes 12 to 15,
//! then 24 to 31 (the king buckets), then every byte after the header. So
//! the same weights read as other heads, buckets or king buckets have
//! another name. A net of one king bucket without the mirror
//! ([`Kings::Plain`]) is written as version 1 (one output bucket) or 2
//! (several), byte for byte as before version 3; a net of king buckets as
//! version 3.

use std::fmt;
use std::path::Path;

use super::kings::MAX_KING_BUCKETS;
use super::{FEATURES, Head, Kings, MAX_BUCKETS, MAX_HEADS, MAX_HIDDEN, Network, Weights};
use crate::rules::BoardKind;

/// The file's first eight bytes.
pub const MAGIC: [u8; 8] = *b"TALLYNNU";
/// The format version of a plain net of one output bucket.
pub const VERSION: u16 = 1;
/// The format version of a plain net of several output buckets.
pub const VERSION_BUCKETS: u16 = 2;
/// The format version of a net of king buckets.
pub const VERSION_KINGS: u16 = 3;
/// Bytes of the header of versions 1 and 2.
pub const HEADER_LEN: usize = 24;
/// Bytes of the header of version 3.
pub const HEADER_LEN_KINGS: usize = 32;

/// Why a net could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// Not a net file (too short, wrong magic).
    NotNet(String),
    /// Another format version.
    Version(u16),
    /// A hidden size no net has (none, or more than [`MAX_HIDDEN`]).
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
                "net format version {v} (this Tally reads versions {VERSION} to {VERSION_KINGS})"
            ),
            NetError::Hidden(h) => write!(
                f,
                "the net has {h} hidden neurons (this Tally reads 1 to {MAX_HIDDEN})"
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

/// The length of the header of a net of the layout `kings`.
pub const fn header_len(kings: Kings) -> usize {
    match kings {
        Kings::Plain => HEADER_LEN,
        _ => HEADER_LEN_KINGS,
    }
}

/// The file's length for a net of `hidden` neurons, `layers` output
/// layers (heads times buckets) and the king-bucket layout `kings`.
pub const fn file_len(hidden: usize, layers: usize, kings: Kings) -> usize {
    header_len(kings)
        + 2 * kings.count() * FEATURES * hidden
        + 2 * hidden
        + layers * (4 * hidden + 4)
}

/// The largest file of a net.
pub const MAX_FILE_LEN: usize = HEADER_LEN_KINGS
    + 2 * MAX_KING_BUCKETS * FEATURES * MAX_HIDDEN
    + 2 * MAX_HIDDEN
    + MAX_HEADS * MAX_BUCKETS * (4 * MAX_HIDDEN + 4);

/// The header's bytes 12 to 15: heads, board, buckets (0 for one before
/// version 3), reserved.
fn shape_bytes(heads: usize, board: BoardKind, buckets: usize, kings: Kings) -> [u8; 4] {
    let b = if buckets == 1 && kings == Kings::Plain {
        0
    } else {
        buckets as u8
    };
    [heads as u8, board_byte(board), b, 0]
}

/// The header's bytes 24 to 31 in version 3: layout id, king buckets,
/// reserved.
fn king_bytes(kings: Kings) -> [u8; 8] {
    [kings.id(), kings.count() as u8, 0, 0, 0, 0, 0, 0]
}

/// The content hash of a net with this shape and `body` (the bytes after
/// the header): see the module documentation.
fn content_hash(heads: usize, board: BoardKind, buckets: usize, kings: Kings, body: &[u8]) -> u64 {
    let shape = shape_bytes(heads, board, buckets, kings);
    if kings != Kings::Plain {
        let h = fnv64_on(fnv64(&shape), &king_bytes(kings));
        fnv64_on(h, body)
    } else if buckets == 1 {
        fnv64(body)
    } else {
        fnv64_on(fnv64(&shape), body)
    }
}

/// The content hash of `net`.
pub(super) fn hash_of(net: &Network) -> u64 {
    content_hash(
        net.head_count(),
        net.board(),
        net.buckets(),
        net.kings(),
        &payload(net),
    )
}

/// The bytes after the header: the weights of the net's
/// [`Network::hidden`] neurons.
pub(super) fn payload(net: &Network) -> Vec<u8> {
    let h = net.hidden();
    let len = file_len(h, net.heads().len(), net.kings()) - header_len(net.kings());
    let mut out = Vec::with_capacity(len);
    let put = |out: &mut Vec<u8>, row: &[i16]| {
        for w in row {
            out.extend_from_slice(&w.to_le_bytes());
        }
    };
    for row in 0..net.rows() {
        put(&mut out, net.feature_weights(row));
    }
    put(&mut out, net.feature_bias());
    for head in net.heads() {
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

/// The format version `net` is written in.
pub fn version_of(net: &Network) -> u16 {
    if net.kings() != Kings::Plain {
        VERSION_KINGS
    } else if net.buckets() == 1 {
        VERSION
    } else {
        VERSION_BUCKETS
    }
}

/// The file's bytes.
pub fn write(net: &Network) -> Vec<u8> {
    let body = payload(net);
    let kings = net.kings();
    let mut out = Vec::with_capacity(header_len(kings) + body.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&version_of(net).to_le_bytes());
    out.extend_from_slice(&(net.hidden() as u16).to_le_bytes());
    out.extend_from_slice(&shape_bytes(
        net.head_count(),
        net.board(),
        net.buckets(),
        kings,
    ));
    out.extend_from_slice(&net.hash().to_le_bytes());
    if kings != Kings::Plain {
        out.extend_from_slice(&king_bytes(kings));
    }
    out.extend_from_slice(&body);
    out
}

/// Little-endian `i16`s from `bytes` (an even length).
fn i16s(bytes: &[u8]) -> impl Iterator<Item = i16> + '_ {
    bytes
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
}

/// The king-bucket layout of a version 3 header (`bytes` at least
/// [`HEADER_LEN_KINGS`] long).
fn read_kings(bytes: &[u8]) -> Result<Kings, NetError> {
    let (id, count) = (bytes[24], bytes[25]);
    let kings = match Kings::from_id(id) {
        Some(Kings::Plain) => {
            return Err(NetError::Shape(format!(
                "king-bucket layout 0 in a version {VERSION_KINGS} net (a plain net is version {VERSION} or {VERSION_BUCKETS})"
            )));
        }
        Some(k) => k,
        None => {
            return Err(NetError::Shape(format!(
                "king-bucket layout {id} (this Tally knows 1 to {})",
                Kings::ALL.len() - 1
            )));
        }
    };
    if usize::from(count) != kings.count() {
        return Err(NetError::Shape(format!(
            "{count} king buckets for layout {id}, which has {}",
            kings.count()
        )));
    }
    if let Some(b) = bytes[26..32].iter().find(|&&b| b != 0) {
        return Err(NetError::Shape(format!(
            "reserved bytes 26 to 31 hold {b} (0)"
        )));
    }
    Ok(kings)
}

/// Reads a net from the file's bytes.
///
/// # Errors
///
/// [`NetError`]: not a net, another version or hidden size, a layout
/// this build does not know, a length that disagrees with the header, a
/// hash mismatch, weights out of range.
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
    if !(VERSION..=VERSION_KINGS).contains(&version) {
        return Err(NetError::Version(version));
    }
    let hidden = u16::from_le_bytes([bytes[10], bytes[11]]);
    if hidden == 0 || usize::from(hidden) > MAX_HIDDEN {
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
        (VERSION_BUCKETS, b) if (2..=MAX_BUCKETS as u8).contains(&b) => usize::from(b),
        (VERSION_BUCKETS, b) => {
            return Err(NetError::Shape(format!(
                "{b} output buckets (2 to {MAX_BUCKETS} in version {VERSION_BUCKETS})"
            )));
        }
        (_, b) if (1..=MAX_BUCKETS as u8).contains(&b) => usize::from(b),
        (_, b) => {
            return Err(NetError::Shape(format!(
                "{b} output buckets (1 to {MAX_BUCKETS} in version {VERSION_KINGS})"
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
    let kings = if version == VERSION_KINGS {
        if bytes.len() < HEADER_LEN_KINGS {
            return Err(NetError::NotNet(format!(
                "{} bytes, shorter than a version {VERSION_KINGS} header",
                bytes.len()
            )));
        }
        read_kings(bytes)?
    } else {
        Kings::Plain
    };
    let expected = file_len(h, heads * buckets, kings);
    if bytes.len() != expected {
        return Err(NetError::Size {
            got: bytes.len(),
            expected,
        });
    }
    let mut hash = [0u8; 8];
    hash.copy_from_slice(&bytes[16..24]);
    let body = &bytes[header_len(kings)..];
    if content_hash(heads, board, buckets, kings, body) != u64::from_le_bytes(hash) {
        return Err(NetError::Hash);
    }
    let (rows, rest) = body.split_at(2 * kings.count() * FEATURES * h);
    let (bias, rest) = rest.split_at(2 * h);
    let heads = rest
        .chunks_exact(4 * h + 4)
        .map(|layer| {
            let b = &layer[4 * h..];
            Head {
                weights: [
                    i16s(&layer[..2 * h]).collect(),
                    i16s(&layer[2 * h..4 * h]).collect(),
                ],
                bias: i32::from_le_bytes([b[0], b[1], b[2], b[3]]),
            }
        })
        .collect();
    Network::from_weights(Weights {
        board,
        kings,
        hidden: h,
        feature_weights: i16s(rows).collect(),
        feature_bias: i16s(bias).collect(),
        buckets,
        heads,
    })
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
    let largest = MAX_FILE_LEN as u64;
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
