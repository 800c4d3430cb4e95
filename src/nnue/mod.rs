//! Tally's efficiently updatable neural network (NNUE): the board
//! evaluation of chess and extinction, in integers.
//!
//! # The network
//!
//! - **Inputs**: 768 features, one per piece type × colour × square, seen
//!   from each side: for the perspective of `colour`, a piece is "ours" or
//!   "theirs" and its square is flipped vertically for Black, so both
//!   perspectives read the board as White reads it ([`feature`]).
//!   Extinction needs no special case: its extra or missing kings are
//!   king features like any other.
//! - **Hidden layer**: [`HIDDEN`] neurons per perspective, sharing one
//!   weight matrix (768 × [`HIDDEN`] plus biases). The sum over a side's
//!   active features is its **accumulator** ([`Accumulator`]), kept from
//!   move to move by adding and removing the rows of the pieces that
//!   moved, instead of summing every piece again.
//! - **Activation**: SCReLU, `clamp(x, 0, 1)²`.
//! - **Output**: one or more heads, each a weighted sum of the side to
//!   move's activated accumulator followed by the other side's, plus a
//!   bias. Head 0 is the score: [`OUTPUT_SCALE`] times it is the value in
//!   the search's internal units (100 per pawn), the same scale the
//!   search's scores in the training data have, so the win/draw/loss model
//!   reads it as it reads the base evaluation. The file format counts its
//!   heads, so a second head (the scoring variants' remaining point margin)
//!   can be added later without a new format.
//! - **Output buckets**: a net may have up to [`MAX_BUCKETS`] copies of
//!   each head, one per range of the number of pieces on the board
//!   ([`bucket`]): the same hidden layer read by an output layer fitted to
//!   openings, middlegames or endings. A net of one bucket is the plain
//!   net above.
//!
//! # Integers
//!
//! The float weights of the trainer are quantised: the hidden layer's
//! weights and biases times [`QA`] (255) in `i16`, so an accumulator holds
//! `QA` times the float sum; the output weights times [`QB`] (64) in `i16`,
//! the output bias times `QA · QB` in `i32`. The output sums
//! `clamp(acc, 0, QA)² · w` in `i32` sums of [`DOT_CHUNK`] neurons, divides by `QA`, adds the bias
//! and scales by `OUTPUT_SCALE / (QA · QB)`. The loader refuses weights
//! beyond [`MAX_FEATURE_WEIGHT`] and [`MAX_OUTPUT_WEIGHT`] (the trainer clips
//! to them), which bounds every sum: an accumulator of even 64 pieces stays
//! inside `i16`, and no output sum can overflow. The loops are plain
//! indexed loops over fixed-size arrays, which the compiler vectorises; no
//! `unsafe`.
//!
//! # Files
//!
//! [`mod@format`] reads and writes the net file (a small header with the
//! content hash that names the net, then little-endian weights). Nets are
//! built by `tally train` (`docs/train.md`); [`embedded`] gives the
//! nets shipped inside the binary (`nets/`, one per board kind).
//!
//! What does not live here: choosing the evaluation ([`crate::eval`]), the
//! trainer (`train`).

pub mod accumulator;
pub mod format;

use std::sync::Arc;

use shakmaty::{Board, Color, Piece, Square};

use crate::rules::{BoardKind, Variant};

pub use accumulator::Accumulator;
pub use format::NetError;

/// Neurons of the hidden layer per perspective (a multiple of
/// [`DOT_CHUNK`]). A net file of fewer neurons is read with the rest at zero,
/// which computes the same function (see [`Network::hidden`]).
pub const HIDDEN: usize = 128;
/// Input features per perspective: 2 sides × 6 piece types × 64 squares.
pub const FEATURES: usize = 768;
/// The quantisation of the hidden layer (its weights, biases, and the
/// activation's range `0 ..= QA`).
pub const QA: i32 = 255;
/// The quantisation of the output weights.
pub const QB: i32 = 64;
/// Internal units per unit of the float output.
pub const OUTPUT_SCALE: i32 = 400;
/// The largest magnitude of a quantised hidden weight or bias (1.96 in
/// float): 65 of them (64 pieces and the bias) still fit an `i16`.
pub const MAX_FEATURE_WEIGHT: i16 = 500;
/// The largest magnitude of a quantised output weight (1.98 in float).
pub const MAX_OUTPUT_WEIGHT: i16 = 127;
/// The largest output heads a file may have.
pub const MAX_HEADS: usize = 8;
/// The most output buckets a net may have.
pub const MAX_BUCKETS: usize = 8;
/// The neurons whose output terms one `i32` sum holds.
pub const DOT_CHUNK: usize = 128;

const _: () = assert!(HIDDEN.is_multiple_of(DOT_CHUNK) && HIDDEN > 0);
// A sum of DOT_CHUNK terms of at most QA² · 127 must fit an i32.
const _: () = assert!(
    DOT_CHUNK as i64 * (QA as i64) * (QA as i64) * (MAX_OUTPUT_WEIGHT as i64) <= i32::MAX as i64
);

crate::simd::multiversion! {
    /// `Σ clamp(a, 0, QA)² · w` over one perspective's neurons: `x · w`
    /// fits an i16 (x <= QA = 255, |w| <= MAX_OUTPUT_WEIGHT = 127, which
    /// the loader enforces), so each term is an i16 product times x, a dot
    /// product of i16 vectors that the compiler makes of multiply and
    /// multiply-add-pairs instructions (x86 before AVX2 has no 32-bit
    /// multiply to do x · x · w), summed in i32 by [`DOT_CHUNK`] neurons.
    fn dot(acc: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i64 {
        let mut sum = 0i64;
        for (a, w) in acc.chunks_exact(DOT_CHUNK).zip(weights.chunks_exact(DOT_CHUNK)) {
            let part: i32 = a
                .iter()
                .zip(w)
                .map(|(&a, &w)| {
                    let x = a.clamp(0, QA as i16);
                    i32::from(x.wrapping_mul(w)) * i32::from(x)
                })
                .sum();
            sum += i64::from(part);
        }
        sum
    }
}

/// The feature of `piece` on `sq` for the perspective of `persp`: its
/// side (0 ours, 1 theirs), its type and its square, flipped vertically
/// for Black.
#[inline]
pub fn feature(persp: Color, piece: Piece, sq: Square) -> usize {
    let sq = if persp.is_white() {
        sq
    } else {
        sq.flip_vertical()
    };
    let side = usize::from(piece.color != persp);
    side * 384 + (piece.role as usize - 1) * 64 + usize::from(sq)
}

/// The output bucket of a board with `pieces` pieces (kings included) in a
/// net of `buckets` buckets: the 2 to 32 pieces of a game split into
/// `buckets` ranges of about equal width (for 8: 2-5 pieces read bucket 0,
/// 6-9 bucket 1, ..., 30-32 bucket 7). Extinction's boards of fewer or
/// more pieces read the first or the last.
#[inline]
pub fn bucket(pieces: usize, buckets: usize) -> usize {
    (pieces.saturating_sub(2) * buckets / 31).min(buckets.max(1) - 1)
}

/// An output layer (a head, in one bucket): weights for the side to
/// move's activated accumulator, then the other side's, and a bias.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Head {
    /// Weights times [`QB`]: `[side to move, other side]`.
    pub weights: [[i16; HIDDEN]; 2],
    /// The bias times `QA · QB`.
    pub bias: i32,
}

/// A quantised network (see the module documentation).
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    board: BoardKind,
    feature_weights: Vec<[i16; HIDDEN]>,
    feature_bias: [i16; HIDDEN],
    /// Output buckets per head (1 ..= [`MAX_BUCKETS`]).
    buckets: usize,
    /// Every head's buckets: head `h`'s bucket `b` at `h · buckets + b`.
    heads: Vec<Head>,
    /// The neurons the weights use (1 ..= [`HIDDEN`]): those from here on
    /// are zero, and the file holds only these.
    hidden: usize,
    /// The content hash (FNV-1a, 64 bits, of the weights' bytes): the
    /// net's name.
    hash: u64,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe())
    }
}

impl Network {
    /// A network of one output bucket with the given weights (its hash
    /// computed).
    ///
    /// # Errors
    ///
    /// [`NetError`] when the weights are out of the loader's bounds, there
    /// are not [`FEATURES`] rows or the heads are none or too many.
    pub fn new(
        board: BoardKind,
        feature_weights: Vec<[i16; HIDDEN]>,
        feature_bias: [i16; HIDDEN],
        heads: Vec<Head>,
    ) -> Result<Network, NetError> {
        Network::with_buckets(board, feature_weights, feature_bias, 1, heads)
    }

    /// A network of `buckets` output buckets: `heads` holds every head's
    /// buckets, head `h`'s bucket `b` at `h · buckets + b`.
    ///
    /// # Errors
    ///
    /// As [`Network::new`], and when `buckets` is not 1 ..=
    /// [`MAX_BUCKETS`] or does not divide the layers given.
    pub fn with_buckets(
        board: BoardKind,
        feature_weights: Vec<[i16; HIDDEN]>,
        feature_bias: [i16; HIDDEN],
        buckets: usize,
        heads: Vec<Head>,
    ) -> Result<Network, NetError> {
        Network::with_width(board, feature_weights, feature_bias, buckets, heads, HIDDEN)
    }

    /// A network as [`Network::with_buckets`] whose weights use only the
    /// first `hidden` neurons (the rest must be zero): a net file of that
    /// width.
    ///
    /// # Errors
    ///
    /// As [`Network::with_buckets`], and when `hidden` is not 1 ..=
    /// [`HIDDEN`] or a weight beyond it is not zero.
    pub fn with_width(
        board: BoardKind,
        feature_weights: Vec<[i16; HIDDEN]>,
        feature_bias: [i16; HIDDEN],
        buckets: usize,
        heads: Vec<Head>,
        hidden: usize,
    ) -> Result<Network, NetError> {
        let mut net = Network {
            board,
            feature_weights,
            feature_bias,
            buckets,
            heads,
            hidden,
            hash: 0,
        };
        net.check()?;
        net.hash = format::hash_of(&net);
        Ok(net)
    }

    /// Checks the shape and the bounds of the weights.
    fn check(&self) -> Result<(), NetError> {
        if self.feature_weights.len() != FEATURES {
            return Err(NetError::Shape(format!(
                "{} feature rows, expected {FEATURES}",
                self.feature_weights.len()
            )));
        }
        if self.buckets == 0 || self.buckets > MAX_BUCKETS {
            return Err(NetError::Shape(format!(
                "{} output buckets (1 to {MAX_BUCKETS})",
                self.buckets
            )));
        }
        if !self.heads.len().is_multiple_of(self.buckets) {
            return Err(NetError::Shape(format!(
                "{} output layers for {} buckets",
                self.heads.len(),
                self.buckets
            )));
        }
        let heads = self.head_count();
        if heads == 0 || heads > MAX_HEADS {
            return Err(NetError::Shape(format!("{heads} heads (1 to {MAX_HEADS})")));
        }
        if self.hidden == 0 || self.hidden > HIDDEN {
            return Err(NetError::Hidden(
                u16::try_from(self.hidden).unwrap_or(u16::MAX),
            ));
        }
        let beyond_zero = self
            .feature_weights
            .iter()
            .chain(std::iter::once(&self.feature_bias))
            .chain(self.heads.iter().flat_map(|h| h.weights.iter()))
            .all(|row| row[self.hidden..].iter().all(|&w| w == 0));
        if !beyond_zero {
            return Err(NetError::Shape(format!(
                "a weight of a neuron beyond the net's {}",
                self.hidden
            )));
        }
        let hidden_ok = self
            .feature_weights
            .iter()
            .chain(std::iter::once(&self.feature_bias))
            .flatten()
            .all(|w| w.unsigned_abs() <= MAX_FEATURE_WEIGHT.unsigned_abs());
        if !hidden_ok {
            return Err(NetError::Range(format!(
                "a hidden weight beyond ±{MAX_FEATURE_WEIGHT}"
            )));
        }
        let out_ok = self
            .heads
            .iter()
            .flat_map(|h| h.weights.iter().flatten())
            .all(|w| w.unsigned_abs() <= MAX_OUTPUT_WEIGHT.unsigned_abs());
        if !out_ok {
            return Err(NetError::Range(format!(
                "an output weight beyond ±{MAX_OUTPUT_WEIGHT}"
            )));
        }
        Ok(())
    }

    /// The board kind it was trained for.
    pub fn board(&self) -> BoardKind {
        self.board
    }

    /// Hidden weights times [`QA`]: one row of [`HIDDEN`] per feature
    /// ([`FEATURES`] rows).
    pub fn feature_weights(&self) -> &[[i16; HIDDEN]] {
        &self.feature_weights
    }

    /// Hidden biases times [`QA`].
    pub fn feature_bias(&self) -> &[i16; HIDDEN] {
        &self.feature_bias
    }

    /// Every head's output layers, head `h`'s bucket `b` at `h ·
    /// buckets + b` (at least one head; head 0 is the score).
    pub fn heads(&self) -> &[Head] {
        &self.heads
    }

    /// The number of heads (each of [`Network::buckets`] layers).
    pub fn head_count(&self) -> usize {
        self.heads.len() / self.buckets
    }

    /// Output buckets per head.
    pub fn buckets(&self) -> usize {
        self.buckets
    }

    /// The hidden neurons per perspective that the net's file holds; this
    /// build computes [`HIDDEN`], the others at zero.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The content hash.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The net's name: `nn-` and the first 12 hex digits of its hash.
    pub fn name(&self) -> String {
        format!("nn-{:012x}", self.hash >> 16)
    }

    /// One line on the net: name, board, size.
    pub fn describe(&self) -> String {
        let heads = self.head_count();
        let buckets = if self.buckets == 1 {
            String::new()
        } else {
            format!(", {} output buckets", self.buckets)
        };
        format!(
            "{} ({} board, {} hidden, {} head{}{buckets})",
            self.name(),
            self.board.name(),
            self.hidden,
            heads,
            if heads == 1 { "" } else { "s" }
        )
    }

    /// The value of head `head` (internal units, for the side to move
    /// `stm`) from accumulators that hold `board`, whose piece count picks
    /// the bucket. Head 0 for a head the net lacks.
    #[inline]
    pub fn output_head(&self, acc: &Accumulator, board: &Board, stm: Color, head: usize) -> i32 {
        let head = if head < self.head_count() { head } else { 0 };
        let b = bucket(board.occupied().count(), self.buckets);
        let h = &self.heads[head * self.buckets + b];
        // `x · w` fits an i16 (x <= QA = 255, |w| <= MAX_OUTPUT_WEIGHT =
        // 127, which the loader enforces), so each term is an i16 product
        // times x: a dot product of i16 vectors, which the compiler makes
        // of multiply-add-pairs instructions (x86's SSE2 has no 32-bit
        // multiply to do x · x · w).
        let sum = dot(acc.side(stm), &h.weights[0]) + dot(acc.side(!stm), &h.weights[1]);
        let raw = sum / i64::from(QA) + i64::from(h.bias);
        let v = raw * i64::from(OUTPUT_SCALE) / i64::from(QA * QB);
        v.clamp(-(1 << 20), 1 << 20) as i32
    }

    /// The score (head 0) in internal units for `stm`.
    #[inline]
    pub fn output(&self, acc: &Accumulator, board: &Board, stm: Color) -> i32 {
        self.output_head(acc, board, stm, 0)
    }

    /// The score of a board for `stm`, summing every piece afresh.
    pub fn evaluate(&self, board: &Board, stm: Color) -> i32 {
        self.output(&Accumulator::refresh(self, board), board, stm)
    }
}

/// The head of a chess net that predicts `variant`'s remaining point
/// margin (`tally train --head`): 1 for stylish, 2 for wacky; the other
/// variants have none (sets, dynamic and tiebraker read the score head
/// under their evaluators).
pub fn margin_head(variant: Variant) -> Option<usize> {
    match variant {
        Variant::Stylish => Some(1),
        Variant::Wacky => Some(2),
        _ => None,
    }
}

/// The nets built into the binary, one per board kind: `nets/chess.tnn`
/// (the standard board: chess and the scoring variants) and
/// `nets/extinction.tnn`, trained by `tally train` on Tally's self-play
/// (see `docs/train.md`, which gives the commands that made them).
/// `EvalMode nnue` uses them when no `EvalFile` of the board is loaded.
/// A build may embed another chess net: `make EVALFILE=NET` (the build
/// script, `build.rs`, names the file).
pub fn embedded_bytes(board: BoardKind) -> Option<&'static [u8]> {
    match board {
        BoardKind::Standard => Some(include_bytes!(env!("TALLY_CHESS_NET"))),
        BoardKind::Extinction => Some(include_bytes!("../../nets/extinction.tnn")),
    }
}

/// The nets built into the binary, parsed once.
static EMBEDDED: once_cell::sync::Lazy<[Option<Arc<Network>>; 2]> =
    once_cell::sync::Lazy::new(|| {
        BoardKind::ALL.map(|board| {
            embedded_bytes(board)
                .and_then(|b| format::read(b).ok())
                .filter(|n| n.board == board)
                .map(Arc::new)
        })
    });

/// The net built into the binary for `board`, if there is one (a damaged
/// one is `None`; a test checks that every shipped net loads).
pub fn embedded(board: BoardKind) -> Option<Arc<Network>> {
    let i = BoardKind::ALL.iter().position(|b| *b == board)?;
    EMBEDDED[i].clone()
}

#[cfg(test)]
pub(crate) mod tests;
