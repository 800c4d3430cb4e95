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
//! - **King buckets**: a net may have 4, 8 or 16 copies of the 768 input
//!   rows ([`Kings`]): each perspective's own king square picks the copy
//!   it reads, and a king on files e-h has the board read mirrored
//!   left-right, so that the king always stands on files a-d
//!   ([`feature_row`], [`kings`]). A net of one bucket without the mirror
//!   ([`Kings::Plain`]) reads the 768 features as they are: every net
//!   before king buckets.
//! - **Hidden layer**: as many neurons per perspective as the net file
//!   says ([`Network::hidden`], 1 ..= [`MAX_HIDDEN`]; `tally train` makes
//!   [`HIDDEN`] unless told otherwise), both perspectives sharing one
//!   weight matrix (the input rows × the width, plus biases). The sum over
//!   a side's active features is its **accumulator** ([`Accumulator`]),
//!   kept from move to move by adding and removing the rows of the pieces
//!   that moved, instead of summing every piece again; when a king changes
//!   bucket or side, that perspective is rebuilt from a per-thread cache
//!   of accumulators by king bucket ([`RefreshCache`]).
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
//! `clamp(acc, 0, QA)² · w` in `i32` sums of [`LANES`] neurons, divides by
//! `QA`, adds the bias and scales by `OUTPUT_SCALE / (QA · QB)`. The loader
//! refuses weights beyond [`MAX_FEATURE_WEIGHT`] and [`MAX_OUTPUT_WEIGHT`]
//! (the trainer clips to them), which bounds every sum: an accumulator of
//! even 64 pieces stays inside `i16`, and no output sum can overflow.
//!
//! The width is the file's, not the build's: the engine pads every row
//! with zeros to a multiple of [`LANES`] (128) neurons, its
//! [`stride`](Network::stride), and every loop runs a runtime count of
//! chunks of [`LANES`]; each chunk is a plain indexed loop over a
//! fixed-size array, which the compiler vectorises (so a net of 128
//! neurons costs what it did when 128 was the build's constant). The zero
//! neurons have no weights and no bias: the function is the net's. No
//! `unsafe` beyond the AVX2 dispatch of `src/simd.rs`.
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
pub mod cache;
pub mod format;
pub mod kings;

use std::sync::Arc;

use shakmaty::{Board, Color, Piece, Square};

use crate::rules::{BoardKind, Variant};

pub use accumulator::Accumulator;
pub use cache::RefreshCache;
pub use format::NetError;
pub use kings::{KingKey, Kings, MAX_KING_BUCKETS};

/// The hidden neurons per perspective of a net `tally train` makes when
/// not told otherwise (`--hidden`), and of every net before the width was
/// read from the file.
pub const HIDDEN: usize = 128;
/// The widest hidden layer a net may have.
pub const MAX_HIDDEN: usize = 2048;
/// Input features per perspective and king bucket: 2 sides × 6 piece
/// types × 64 squares.
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
/// The neurons the loops take at a time, and whose output terms one `i32`
/// sum holds: a net's rows are padded with zeros to a multiple of it
/// ([`Network::stride`]), so every loop is a runtime count of fixed-size
/// chunks that the compiler vectorises.
pub const LANES: usize = 128;

const _: () = assert!(HIDDEN.is_multiple_of(LANES) && MAX_HIDDEN.is_multiple_of(LANES));
// A sum of LANES terms of at most QA² · 127 must fit an i32.
const _: () = assert!(
    LANES as i64 * (QA as i64) * (QA as i64) * (MAX_OUTPUT_WEIGHT as i64) <= i32::MAX as i64
);

/// A chunk of [`LANES`] neurons: the unit every loop of the engine's
/// inference takes at a time.
pub type Lanes = [i16; LANES];

/// The number of chunks the loops of a net of `chunks` chunks run: `C`
/// when it is a specialised count (1, 2 or 4: nets of 128, 256 and 512
/// neurons, whose loops the compiler then unrolls), the runtime count
/// otherwise (`C` = 0).
#[inline(always)]
pub(crate) fn count<const C: usize>(chunks: usize) -> usize {
    if C == 0 { chunks } else { C }
}

/// Calls `$f::<C>($args)` with `C` the specialised chunk count of
/// `$chunks` (1, 2 or 4), or 0 (the runtime count) for any other.
macro_rules! by_chunks {
    ($chunks:expr, $f:ident($($arg:expr),* $(,)?)) => {
        match $chunks {
            1 => $f::<1>($($arg),*),
            2 => $f::<2>($($arg),*),
            4 => $f::<4>($($arg),*),
            _ => $f::<0>($($arg),*),
        }
    };
}
pub(crate) use by_chunks;

/// `Σ clamp(a, 0, QA)² · w` over one perspective's neurons, `C` chunks
/// of [`LANES`] ([`count`]): `x · w` fits an i16 (x <= QA = 255, |w| <=
/// MAX_OUTPUT_WEIGHT = 127, which the loader enforces), so each term is an
/// i16 product times x, a dot product of i16 vectors that the compiler
/// makes of multiply and multiply-add-pairs instructions (x86 before AVX2
/// has no 32-bit multiply to do x · x · w), summed in i32 by [`LANES`]
/// neurons.
#[inline(always)]
fn dot<const C: usize>(acc: &[Lanes], weights: &[Lanes]) -> i64 {
    let n = count::<C>(acc.len());
    let mut sum = 0i64;
    for (a, w) in acc[..n].iter().zip(&weights[..n]) {
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

/// The input row of `piece` on `sq` for `persp` whose king reads `key`:
/// the key's bucket's block of [`FEATURES`] rows, the square mirrored when
/// the key says so ([`kings`]). With [`KingKey::PLAIN`] it is
/// [`feature`].
#[inline]
pub fn feature_row(persp: Color, key: KingKey, piece: Piece, sq: Square) -> usize {
    usize::from(key.bucket) * FEATURES + feature(persp, piece, key.square(sq))
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
    /// Weights times [`QB`]: `[side to move, other side]`, each as long as
    /// the net is wide.
    pub weights: [Vec<i16>; 2],
    /// The bias times `QA · QB`.
    pub bias: i32,
}

impl Head {
    /// A layer of `hidden` zero weights and the bias `bias`.
    pub fn zero(hidden: usize, bias: i32) -> Head {
        Head {
            weights: [vec![0; hidden], vec![0; hidden]],
            bias,
        }
    }
}

/// The weights a net is made of, as long as the net is wide (what
/// [`Network::from_weights`] takes and [`Network::weights`] gives).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// The board kind it is for.
    pub board: BoardKind,
    /// The king-bucket layout of its inputs.
    pub kings: Kings,
    /// Hidden neurons per perspective (1 ..= [`MAX_HIDDEN`]).
    pub hidden: usize,
    /// Hidden weights times [`QA`]: `kings.count() · FEATURES` rows of
    /// `hidden`, row [`feature_row`] for a piece.
    pub feature_weights: Vec<i16>,
    /// Hidden biases times [`QA`] (`hidden`).
    pub feature_bias: Vec<i16>,
    /// Output buckets per head (1 ..= [`MAX_BUCKETS`]).
    pub buckets: usize,
    /// Every head's buckets: head `h`'s bucket `b` at `h · buckets + b`.
    pub heads: Vec<Head>,
}

impl Weights {
    /// A plain net (one king bucket, one output bucket) of `hidden`
    /// neurons.
    pub fn plain(
        board: BoardKind,
        hidden: usize,
        feature_weights: Vec<i16>,
        feature_bias: Vec<i16>,
        heads: Vec<Head>,
    ) -> Weights {
        Weights {
            board,
            kings: Kings::Plain,
            hidden,
            feature_weights,
            feature_bias,
            buckets: 1,
            heads,
        }
    }
}

/// A quantised network (see the module documentation).
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    board: BoardKind,
    kings: Kings,
    /// The neurons of the file (1 ..= [`MAX_HIDDEN`]).
    hidden: usize,
    /// Chunks of [`LANES`] per row: `hidden` rounded up, the neurons
    /// beyond `hidden` at zero.
    chunks: usize,
    /// `kings.count() · FEATURES` rows of `chunks` chunks.
    feature_weights: Vec<Lanes>,
    feature_bias: Vec<Lanes>,
    /// Output buckets per head (1 ..= [`MAX_BUCKETS`]).
    buckets: usize,
    /// Every head's buckets: head `h`'s bucket `b` at `h · buckets + b`
    /// (rows of `hidden`).
    heads: Vec<Head>,
    /// The heads' weights in rows of `chunks` chunks: layer `l`'s side `s`
    /// at `(2 l + s) · chunks`.
    out: Vec<Lanes>,
    /// The content hash (FNV-1a, 64 bits, of the weights' bytes): the
    /// net's name.
    hash: u64,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe())
    }
}

/// Rows of `width` padded with zeros to rows of `chunks` chunks.
fn padded(flat: &[i16], width: usize, chunks: usize) -> Vec<Lanes> {
    let mut out = Vec::with_capacity(flat.len() / width.max(1) * chunks);
    for row in flat.chunks_exact(width.max(1)) {
        for c in 0..chunks {
            let mut lanes = [0; LANES];
            let part = row.get(c * LANES..).unwrap_or(&[]);
            let n = part.len().min(LANES);
            lanes[..n].copy_from_slice(&part[..n]);
            out.push(lanes);
        }
    }
    out
}

impl Network {
    /// A network of these weights (its hash computed).
    ///
    /// # Errors
    ///
    /// [`NetError`] when the shape is impossible (a width of 0 or beyond
    /// [`MAX_HIDDEN`], rows of another length or number than the width
    /// and layout say, no heads or too many, output buckets not 1 ..=
    /// [`MAX_BUCKETS`] or not dividing the layers) or the weights are out
    /// of the loader's bounds.
    pub fn from_weights(w: Weights) -> Result<Network, NetError> {
        check(&w)?;
        let chunks = w.hidden.div_ceil(LANES);
        let out = padded(
            &w.heads
                .iter()
                .flat_map(|h| h.weights.iter().flatten().copied())
                .collect::<Vec<i16>>(),
            w.hidden,
            chunks,
        );
        let mut net = Network {
            board: w.board,
            kings: w.kings,
            hidden: w.hidden,
            chunks,
            feature_weights: padded(&w.feature_weights, w.hidden, chunks),
            feature_bias: padded(&w.feature_bias, w.hidden, chunks),
            buckets: w.buckets,
            heads: w.heads,
            out,
            hash: 0,
        };
        net.hash = format::hash_of(&net);
        Ok(net)
    }

    /// The net's weights (rows as long as the net is wide).
    pub fn weights(&self) -> Weights {
        let mut feature_weights = Vec::with_capacity(self.rows() * self.hidden);
        for r in 0..self.rows() {
            feature_weights.extend_from_slice(self.feature_weights(r));
        }
        Weights {
            board: self.board,
            kings: self.kings,
            hidden: self.hidden,
            feature_weights,
            feature_bias: self.feature_bias().to_vec(),
            buckets: self.buckets,
            heads: self.heads.clone(),
        }
    }

    /// The board kind it was trained for.
    pub fn board(&self) -> BoardKind {
        self.board
    }

    /// The king-bucket layout of its inputs.
    pub fn kings(&self) -> Kings {
        self.kings
    }

    /// The input rows: [`FEATURES`] per king bucket.
    pub fn rows(&self) -> usize {
        self.kings.count() * FEATURES
    }

    /// Hidden weights times [`QA`] of input row `row` ([`feature_row`]),
    /// as long as the net is wide.
    ///
    /// # Panics
    ///
    /// When `row` is not below [`Network::rows`].
    pub fn feature_weights(&self, row: usize) -> &[i16] {
        &self.row(row).as_flattened()[..self.hidden]
    }

    /// Hidden biases times [`QA`], as long as the net is wide.
    pub fn feature_bias(&self) -> &[i16] {
        &self.feature_bias.as_flattened()[..self.hidden]
    }

    /// Input row `row` in [`Network::chunks`] chunks.
    #[inline]
    pub(crate) fn row(&self, row: usize) -> &[Lanes] {
        self.row_in::<0>(row)
    }

    /// [`Network::row`] of a net of `C` chunks ([`count`]).
    #[inline(always)]
    pub(crate) fn row_in<const C: usize>(&self, row: usize) -> &[Lanes] {
        let k = count::<C>(self.chunks);
        &self.feature_weights[row * k..(row + 1) * k]
    }

    /// The biases in [`Network::chunks`] chunks.
    #[inline]
    pub(crate) fn padded_bias(&self) -> &[Lanes] {
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

    /// The hidden neurons per perspective: the file's width.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The neurons the engine computes per perspective: the width rounded
    /// up to a multiple of [`LANES`], the others at zero (the length of an
    /// accumulator's side).
    pub fn stride(&self) -> usize {
        self.chunks * LANES
    }

    /// The chunks of [`LANES`] neurons the engine computes per
    /// perspective.
    #[inline]
    pub fn chunks(&self) -> usize {
        self.chunks
    }

    /// What `persp` reads on `board` ([`Kings::key`]).
    #[inline]
    pub fn king_key(&self, persp: Color, board: &Board) -> KingKey {
        self.kings.key(persp, board)
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
        let kings = if self.kings == Kings::Plain {
            String::new()
        } else {
            format!(", {} king buckets mirrored", self.kings.count())
        };
        format!(
            "{} ({} board, {} hidden, {} head{}{buckets}{kings})",
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
        let layer = head * self.buckets + bucket(board.occupied().count(), self.buckets);
        let sum = output_sum(self, acc, stm, layer);
        let raw = sum / i64::from(QA) + i64::from(self.heads[layer].bias);
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

/// The output layer `layer`'s weighted sum of `acc`'s activations, `stm`'s
/// first, over `C` chunks ([`count`]).
#[inline(always)]
fn layer_sum<const C: usize>(net: &Network, acc: &Accumulator, stm: Color, layer: usize) -> i64 {
    let k = count::<C>(net.chunks);
    let weights = &net.out[2 * layer * k..(2 * layer + 2) * k];
    let (ours, theirs) = weights.split_at(k);
    let all = acc.all_chunks();
    // Accumulators of another net (none in the engine) read as zero.
    if all.len() != 2 * k {
        return 0;
    }
    let (white, black) = (&all[k..2 * k], &all[..k]);
    let (a, b) = if stm.is_white() {
        (white, black)
    } else {
        (black, white)
    };
    dot::<C>(a, ours) + dot::<C>(b, theirs)
}

crate::simd::multiversion! {
    /// [`layer_sum`] for the net's chunk count, the count a constant for
    /// the widths of 128, 256 and 512 neurons (one dispatch per
    /// evaluation).
    fn output_sum(net: &Network, acc: &Accumulator, stm: Color, layer: usize) -> i64 {
        by_chunks!(net.chunks, layer_sum(net, acc, stm, layer))
    }
}

/// Checks the shape and the bounds of the weights.
fn check(w: &Weights) -> Result<(), NetError> {
    if w.hidden == 0 || w.hidden > MAX_HIDDEN {
        return Err(NetError::Hidden(
            u16::try_from(w.hidden).unwrap_or(u16::MAX),
        ));
    }
    let rows = w.kings.count() * FEATURES;
    if w.feature_weights.len() != rows * w.hidden {
        return Err(NetError::Shape(format!(
            "{} hidden weights, expected {rows} rows of {}",
            w.feature_weights.len(),
            w.hidden
        )));
    }
    if w.feature_bias.len() != w.hidden {
        return Err(NetError::Shape(format!(
            "{} hidden biases for {} neurons",
            w.feature_bias.len(),
            w.hidden
        )));
    }
    if w.buckets == 0 || w.buckets > MAX_BUCKETS {
        return Err(NetError::Shape(format!(
            "{} output buckets (1 to {MAX_BUCKETS})",
            w.buckets
        )));
    }
    if !w.heads.len().is_multiple_of(w.buckets) {
        return Err(NetError::Shape(format!(
            "{} output layers for {} buckets",
            w.heads.len(),
            w.buckets
        )));
    }
    let heads = w.heads.len() / w.buckets;
    if heads == 0 || heads > MAX_HEADS {
        return Err(NetError::Shape(format!("{heads} heads (1 to {MAX_HEADS})")));
    }
    if let Some(h) = w
        .heads
        .iter()
        .flat_map(|h| h.weights.iter())
        .find(|row| row.len() != w.hidden)
    {
        return Err(NetError::Shape(format!(
            "an output layer of {} weights for {} neurons",
            h.len(),
            w.hidden
        )));
    }
    let hidden_ok = w
        .feature_weights
        .iter()
        .chain(&w.feature_bias)
        .all(|x| x.unsigned_abs() <= MAX_FEATURE_WEIGHT.unsigned_abs());
    if !hidden_ok {
        return Err(NetError::Range(format!(
            "a hidden weight beyond ±{MAX_FEATURE_WEIGHT}"
        )));
    }
    let out_ok = w
        .heads
        .iter()
        .flat_map(|h| h.weights.iter().flatten())
        .all(|x| x.unsigned_abs() <= MAX_OUTPUT_WEIGHT.unsigned_abs());
    if !out_ok {
        return Err(NetError::Range(format!(
            "an output weight beyond ±{MAX_OUTPUT_WEIGHT}"
        )));
    }
    Ok(())
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
