//! The net file round-trips and refuses bad files with one line; the
//! integer output is the formula of the module docs at every width and
//! king-bucket layout; incremental updates (with and without the refresh
//! cache) equal a refresh for every kind of move.

use super::*;
use crate::rng::Rng;
use crate::rules::{Extinction, Node, Pos, Rules, Variant};
use shakmaty::{Chess, Move};

/// Uniform in `-m ..= m`.
fn within(r: &mut Rng, m: i16) -> i16 {
    let span = 2 * usize::try_from(m).unwrap_or(0) + 1;
    (r.below(span) as i64 - i64::from(m)) as i16
}

/// The weights of a net of random values within the loader's bounds:
/// `hidden` neurons, the layout `kings`, `buckets` output buckets and
/// `heads` heads.
pub(crate) fn random_weights(
    board: BoardKind,
    seed: u64,
    hidden: usize,
    kings: Kings,
    buckets: usize,
    heads: usize,
) -> Weights {
    let mut r = Rng::new(seed);
    let feature_weights = (0..kings.count() * FEATURES * hidden)
        .map(|_| within(&mut r, 80))
        .collect();
    let feature_bias = (0..hidden).map(|_| within(&mut r, 200)).collect();
    let heads = (0..heads * buckets)
        .map(|_| Head {
            weights: std::array::from_fn(|_| {
                (0..hidden)
                    .map(|_| within(&mut r, MAX_OUTPUT_WEIGHT))
                    .collect()
            }),
            bias: i32::from(within(&mut r, 20_000)),
        })
        .collect();
    Weights {
        board,
        kings,
        hidden,
        feature_weights,
        feature_bias,
        buckets,
        heads,
    }
}

/// A net of random weights within the loader's bounds: [`HIDDEN`]
/// neurons, plain, two heads of one bucket.
pub(crate) fn random_net(board: BoardKind, seed: u64) -> Network {
    Network::from_weights(random_weights(board, seed, HIDDEN, Kings::Plain, 1, 2)).unwrap()
}

/// A net of random weights of the given shape (two heads).
pub(crate) fn random_shaped(
    board: BoardKind,
    seed: u64,
    hidden: usize,
    kings: Kings,
    buckets: usize,
) -> Network {
    Network::from_weights(random_weights(board, seed, hidden, kings, buckets, 2)).unwrap()
}

#[test]
fn the_file_round_trips() {
    for board in BoardKind::ALL {
        let net = random_net(board, 7);
        let bytes = format::write(&net);
        assert_eq!(bytes.len(), format::file_len(HIDDEN, 2, Kings::Plain));
        assert_eq!(&bytes[0..8], b"TALLYNNU");
        let back = format::read(&bytes).unwrap();
        assert_eq!(back, net);
        assert_eq!(back.hash(), format::fnv64(&bytes[format::HEADER_LEN..]));
        assert_eq!(back.board(), board);
        assert!(back.name().starts_with("nn-") && back.name().len() == 15);
        // The name is the content's: another net, another name.
        assert_ne!(random_net(board, 8).name(), net.name());
    }
    let dir = std::env::temp_dir().join(format!("tally-nnue-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("net.tnn");
    let net = random_net(BoardKind::Standard, 1);
    format::save(&net, &path).unwrap();
    assert_eq!(format::load(&path).unwrap(), net);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `w` with every neuron from `hidden` on cut off.
fn narrowed(w: &Weights, hidden: usize) -> Weights {
    let cut = |rows: &[i16]| -> Vec<i16> {
        rows.chunks_exact(w.hidden)
            .flat_map(|r| r[..hidden].iter().copied())
            .collect()
    };
    Weights {
        hidden,
        feature_weights: cut(&w.feature_weights),
        feature_bias: w.feature_bias[..hidden].to_vec(),
        heads: w
            .heads
            .iter()
            .map(|h| Head {
                weights: [
                    h.weights[0][..hidden].to_vec(),
                    h.weights[1][..hidden].to_vec(),
                ],
                bias: h.bias,
            })
            .collect(),
        ..w.clone()
    }
}

/// `w` with zero neurons added up to `hidden`.
fn widened(w: &Weights, hidden: usize) -> Weights {
    let pad = |rows: &[i16]| -> Vec<i16> {
        rows.chunks_exact(w.hidden)
            .flat_map(|r| {
                r.iter()
                    .copied()
                    .chain(std::iter::repeat_n(0, hidden - w.hidden))
            })
            .collect()
    };
    Weights {
        hidden,
        feature_weights: pad(&w.feature_weights),
        feature_bias: pad(&w.feature_bias),
        heads: w
            .heads
            .iter()
            .map(|h| Head {
                weights: [pad(&h.weights[0]), pad(&h.weights[1])],
                bias: h.bias,
            })
            .collect(),
        ..w.clone()
    }
}

/// Boards of every phase, for evaluating nets on.
const FENS: [&str; 5] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 5 4",
    "2r3k1/5ppp/8/8/3N4/8/5PPP/2R3K1 b - - 0 1",
    "4k3/8/8/3n4/4P3/8/8/1K6 w - - 0 1",
    "r3k2r/pPp3pp/8/3pP3/8/8/PpP3PP/R3K2R b KQkq - 0 1",
];

fn board_of(fen: &str) -> shakmaty::Board {
    fen.parse::<shakmaty::fen::Fen>()
        .unwrap()
        .into_setup()
        .board
}

#[test]
fn a_net_of_any_width_is_computed_as_one_padded_with_zero_neurons() {
    for (hidden, kings) in [
        (1, Kings::Plain),
        (64, Kings::Plain),
        (200, Kings::Four),
        (256, Kings::Plain),
        (384, Kings::Eight),
    ] {
        let w = random_weights(BoardKind::Standard, 11, hidden, kings, 2, 2);
        let net = Network::from_weights(w.clone()).unwrap();
        assert_eq!(net.hidden(), hidden);
        assert_eq!(net.stride(), hidden.div_ceil(LANES) * LANES);
        assert!(net.describe().contains(&format!("{hidden} hidden")));
        // The file holds only its neurons, and reads back as the same net.
        let bytes = format::write(&net);
        assert_eq!(bytes.len(), format::file_len(hidden, 4, kings));
        assert_eq!(u16::from_le_bytes([bytes[10], bytes[11]]), hidden as u16);
        let back = format::read(&bytes).unwrap();
        assert_eq!(back, net);
        assert_eq!(back.weights(), w);
        assert_eq!(format::write(&back), bytes);
        // The same function as a wider net of the same weights and zero
        // neurons (whose file, and so name, differ), and as a narrower one
        // without the last neuron where that neuron is silent.
        let wide = Network::from_weights(widened(&w, hidden + LANES)).unwrap();
        assert_ne!(wide.name(), net.name());
        for fen in FENS {
            let board = board_of(fen);
            for turn in Color::ALL {
                assert_eq!(wide.evaluate(&board, turn), net.evaluate(&board, turn));
            }
        }
        if hidden > 1 {
            let mut silent = w.clone();
            for h in &mut silent.heads {
                h.weights[0][hidden - 1] = 0;
                h.weights[1][hidden - 1] = 0;
            }
            let a = Network::from_weights(silent.clone()).unwrap();
            let b = Network::from_weights(narrowed(&silent, hidden - 1)).unwrap();
            let board = board_of(FENS[1]);
            assert_eq!(
                a.evaluate(&board, Color::White),
                b.evaluate(&board, Color::White)
            );
        }
    }
    // Rows of another width than the net's are refused.
    let mut w = random_weights(BoardKind::Standard, 3, 128, Kings::Plain, 1, 1);
    w.heads[0].weights[1].push(0);
    let e = Network::from_weights(w).unwrap_err();
    assert!(e.to_string().contains("129 weights for 128"), "{e}");
    let mut w = random_weights(BoardKind::Standard, 3, 128, Kings::Four, 1, 1);
    w.feature_weights.truncate(FEATURES * 128);
    let e = Network::from_weights(w).unwrap_err();
    assert!(e.to_string().contains("expected 3072 rows of 128"), "{e}");
}

/// Rewrites the hash after a change to the weights.
fn rehash(bytes: &mut [u8]) {
    let h = format::fnv64(&bytes[format::HEADER_LEN..]);
    bytes[16..24].copy_from_slice(&h.to_le_bytes());
}

#[test]
fn bad_files_are_refused_with_one_line() {
    let good = format::write(&random_net(BoardKind::Standard, 3));
    let refuse = |bytes: &[u8]| -> String {
        let e = format::read(bytes).expect_err("refused").to_string();
        assert!(!e.contains('\n'), "{e}");
        e
    };
    assert!(refuse(&[]).contains("shorter than the header"));
    assert!(refuse(b"TALLYDAT").contains("not a Tally net"));
    let mut b = good.clone();
    b[0] = b'X';
    assert!(refuse(&b).contains("wrong magic"));
    let mut b = good.clone();
    b[8] = 9;
    assert_eq!(
        refuse(&b),
        "net format version 9 (this Tally reads versions 1 to 3)"
    );
    let mut b = good.clone();
    let wide = MAX_HIDDEN as u16 + 16;
    b[10..12].copy_from_slice(&wide.to_le_bytes());
    assert!(refuse(&b).contains(&format!("{wide} hidden neurons")));
    let mut b = good.clone();
    b[10..12].copy_from_slice(&(HIDDEN as u16 * 2).to_le_bytes());
    assert!(refuse(&b).contains("wrong size"));
    b[10..12].copy_from_slice(&0u16.to_le_bytes());
    assert!(refuse(&b).contains("0 hidden neurons"));
    let mut b = good.clone();
    b[10..12].copy_from_slice(&(HIDDEN as u16 / 2).to_le_bytes());
    assert!(refuse(&b).contains("wrong size"));
    let mut b = good.clone();
    b[12] = 0;
    assert!(refuse(&b).contains("0 heads"));
    let mut b = good.clone();
    b[13] = 7;
    assert!(refuse(&b).contains("board byte 7"));
    // The reserved byte 15: part of the name, so never read under it.
    let mut b = good.clone();
    b[15] = 1;
    assert!(refuse(&b).contains("reserved byte 15"), "{}", refuse(&b));
    // Cut short, or longer than the header says, or told of fewer heads.
    assert!(refuse(&good[..good.len() - 1]).contains("wrong size"));
    let mut b = good.clone();
    b.push(0);
    assert!(refuse(&b).contains("wrong size"));
    let mut b = good.clone();
    b[12] = 1;
    assert!(refuse(&b).contains("wrong size"));
    // One flipped bit in the weights.
    let mut b = good.clone();
    b[1000] ^= 4;
    assert_eq!(refuse(&b), "content hash mismatch (the file is damaged)");
    // Weights that would overflow the integer sums, hash and all correct.
    let mut b = good.clone();
    b[format::HEADER_LEN..format::HEADER_LEN + 2].copy_from_slice(&2000i16.to_le_bytes());
    rehash(&mut b);
    assert!(refuse(&b).contains("hidden weight beyond"));
    let mut b = good.clone();
    let out = format::HEADER_LEN + 2 * FEATURES * HIDDEN + 2 * HIDDEN;
    b[out..out + 2].copy_from_slice(&(-200i16).to_le_bytes());
    rehash(&mut b);
    assert!(refuse(&b).contains("output weight beyond"));
    // Every cut of the file is refused, none panics.
    for len in (0..good.len()).step_by(997) {
        assert!(format::read(&good[..len]).is_err());
    }
    // Files: missing, a directory, too large to be a net.
    let dir = std::env::temp_dir().join(format!("tally-nnue-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let e = format::load(&dir.join("missing.tnn")).unwrap_err();
    assert!(e.starts_with("cannot read"), "{e}");
    let e = format::load(&dir).unwrap_err();
    assert!(e.contains("not a regular file"), "{e}");
    let big = dir.join("big.tnn");
    let f = std::fs::File::create(&big).unwrap();
    f.set_len(format::MAX_FILE_LEN as u64 + 1).unwrap();
    let e = format::load(&big).unwrap_err();
    assert!(e.contains("a net has at most"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The input row of `piece` on `sq` for `persp` in a net of `kings`,
/// straight from the docs: the perspective's own king (its lowest square
/// seen from its side) picks the bucket and, on files e-h, the mirror.
fn row_by_hand(
    kings: Kings,
    board: &shakmaty::Board,
    persp: Color,
    piece: Piece,
    sq: Square,
) -> usize {
    let seen = |s: Square| usize::from(s) ^ if persp.is_white() { 0 } else { 56 };
    let king = board
        .iter()
        .filter(|(_, p)| p.role == shakmaty::Role::King && p.color == persp)
        .map(|(s, _)| seen(s))
        .min();
    let (bucket, mirror) = match king {
        Some(k) if kings.mirrored() => {
            let key = kings.key_of_square(Square::new(k as u32));
            (usize::from(key.bucket), k % 8 >= 4)
        }
        _ => (0, false),
    };
    let side = usize::from(piece.color != persp);
    let sq = seen(sq) ^ if mirror { 7 } else { 0 };
    bucket * FEATURES + side * 384 + (piece.role as usize - 1) * 64 + sq
}

#[test]
fn the_output_is_the_quantised_formula() {
    for (hidden, kings, buckets) in [
        (HIDDEN, Kings::Plain, 1),
        (256, Kings::Four, 2),
        (512, Kings::Sixteen, 8),
        (72, Kings::Eight, 3),
    ] {
        let net = random_shaped(BoardKind::Standard, 11, hidden, kings, buckets);
        for fen in FENS {
            let board = board_of(fen);
            let acc = Accumulator::refresh(&net, &board);
            let layer = bucket(board.occupied().count(), buckets);
            for stm in Color::ALL {
                for head in 0..2 {
                    // The same sums in wide integers, straight from the docs.
                    let h = &net.heads()[head * buckets + layer];
                    let mut sum: i64 = 0;
                    for (side, w) in [stm, !stm].into_iter().zip(&h.weights) {
                        let mut a: Vec<i64> =
                            net.feature_bias().iter().map(|&b| i64::from(b)).collect();
                        for (sq, piece) in board.iter() {
                            let row =
                                net.feature_weights(row_by_hand(kings, &board, side, piece, sq));
                            for (x, r) in a.iter_mut().zip(row) {
                                *x += i64::from(*r);
                            }
                        }
                        assert_eq!(a.len(), hidden);
                        for (x, w) in a.iter().zip(w) {
                            let c = x.clamp(&0, &255);
                            sum += c * c * i64::from(*w);
                        }
                    }
                    let want = (sum / 255 + i64::from(h.bias)) * 400 / (255 * 64);
                    assert_eq!(
                        i64::from(net.output_head(&acc, &board, stm, head)),
                        want,
                        "{hidden} {kings:?} {fen}"
                    );
                }
            }
        }
    }
    // Every neuron at the activation's top and every output weight at its
    // largest: the sum (2 · 512 · 255² · 127) is beyond an i32, its
    // chunks are not.
    let board = shakmaty::Board::new();
    for hidden in [HIDDEN, 512] {
        let top = Network::from_weights(Weights::plain(
            BoardKind::Standard,
            hidden,
            vec![0; FEATURES * hidden],
            vec![300; hidden],
            vec![Head {
                weights: [
                    vec![MAX_OUTPUT_WEIGHT; hidden],
                    vec![MAX_OUTPUT_WEIGHT; hidden],
                ],
                bias: 0,
            }],
        ))
        .unwrap();
        let acc = Accumulator::refresh(&top, &board);
        let sum = 2 * hidden as i64 * 255 * 255 * 127;
        assert_eq!(
            i64::from(top.output(&acc, &board, Color::White)),
            sum / 255 * 400 / (255 * 64)
        );
    }
    // A net of biases only: the output bias alone, scaled.
    let zero = Network::from_weights(Weights::plain(
        BoardKind::Standard,
        HIDDEN,
        vec![0; FEATURES * HIDDEN],
        vec![0; HIDDEN],
        vec![Head::zero(HIDDEN, 255 * 64 / 4)],
    ))
    .unwrap();
    assert_eq!(zero.evaluate(&board, Color::White), 100);
    // The start position is symmetric: both sides see the same sums.
    let net = random_net(BoardKind::Standard, 11);
    let acc = Accumulator::refresh(&net, &board);
    assert_eq!(acc.side(Color::White), acc.side(Color::Black));
}

/// The kinds of move a game exercised.
#[derive(Default, Debug)]
struct Kinds {
    quiet: u32,
    capture: u32,
    promotion: u32,
    castle: u32,
    en_passant: u32,
    king_capture: u32,
    /// Moves after which a perspective's king read another bucket.
    king_bucket: u32,
    /// Moves after which a perspective's king changed mirror side.
    king_mirror: u32,
}

/// Random games from `fens` evaluated by `net`: after every move the
/// updated accumulators equal a refresh, with and without a refresh cache
/// (one cache for all the games, so its entries hold boards of long ago
/// and of other games), and a null move changes nothing.
fn incremental_matches_refresh<P: Pos>(
    variant: Variant,
    net: &Network,
    fens: &[&str],
    games: usize,
    seed: u64,
) -> Kinds {
    let rules = Rules::<P>::new(variant);
    let mut r = Rng::new(seed);
    let mut kinds = Kinds::default();
    let mut cache = RefreshCache::new();
    for g in 0..games {
        let mut node: Node<P> = rules.from_fen(fens[g % fens.len()]).unwrap();
        let mut acc = Accumulator::refresh(net, node.pos.board());
        let mut cached = acc.clone();
        for _ in 0..120 {
            let moves = rules.legal_moves(&node);
            if moves.is_empty() || node.pos.extinct(node.pos.turn()) {
                break;
            }
            // Prefer the rarer kinds so that every game shows them.
            let special: Vec<&Move> = moves
                .iter()
                .filter(|m| m.is_castle() || m.is_en_passant() || m.is_promotion())
                .collect();
            let m = if special.is_empty() || r.below(3) != 0 {
                moves[r.below(moves.len())]
            } else {
                *special[r.below(special.len())]
            };
            match m {
                Move::Castle { .. } => kinds.castle += 1,
                Move::EnPassant { .. } => kinds.en_passant += 1,
                Move::Normal {
                    promotion: Some(_), ..
                } => kinds.promotion += 1,
                Move::Normal {
                    capture: Some(shakmaty::Role::King),
                    ..
                } => {
                    kinds.king_capture += 1;
                }
                Move::Normal {
                    capture: Some(_), ..
                } => kinds.capture += 1,
                _ => kinds.quiet += 1,
            }
            let child = rules.play_move(&node, m);
            let (before, after) = (node.pos.board(), child.pos.board());
            for persp in Color::ALL {
                let (was, is) = (net.king_key(persp, before), net.king_key(persp, after));
                kinds.king_bucket += u32::from(was.bucket != is.bucket);
                kinds.king_mirror += u32::from(was.mirror != is.mirror);
            }
            let want = Accumulator::refresh(net, after);
            let mut next = Accumulator::default();
            next.update(net, &acc, before, after);
            assert_eq!(next, want, "{} after {m:?}", node.fen());
            let mut next_cached = Accumulator::default();
            next_cached.update_cached(net, &cached, before, after, &mut cache);
            assert_eq!(next_cached, want, "{} after {m:?} (cache)", node.fen());
            if let Some(null) = rules.play_null(&child) {
                let mut same = Accumulator::default();
                same.update(net, &next, after, null.pos.board());
                assert_eq!(same, next);
                same.update_cached(net, &next, after, null.pos.board(), &mut cache);
                assert_eq!(same, next);
            }
            node = child;
            acc = next;
            cached = next_cached;
        }
    }
    kinds
}

#[test]
fn the_portable_loops_compute_what_the_avx2_ones_do() {
    use shakmaty::Position as _;
    // On a CPU without AVX2 both runs take the portable forms.
    let fens = [
        "r3k2r/pPp3pp/8/3pP3/8/8/PpP3PP/R3K2R w KQkq d6 0 1",
        "r3k2r/1P4p1/8/8/4p3/8/5P2/R3K2R w KQkq - 3 40",
    ];
    let outputs = |net: &Network| {
        let rules = Rules::<Chess>::new(Variant::Chess);
        let mut r = Rng::new(3);
        let mut seen = Vec::new();
        let mut cache = RefreshCache::new();
        for fen in fens {
            let mut node: Node<Chess> = rules.from_fen(fen).unwrap();
            let mut acc = Accumulator::refresh(net, node.pos.board());
            for _ in 0..60 {
                let moves = rules.legal_moves(&node);
                if moves.is_empty() {
                    break;
                }
                let child = rules.play_move(&node, moves[r.below(moves.len())]);
                let mut next = Accumulator::default();
                next.update_cached(net, &acc, node.pos.board(), child.pos.board(), &mut cache);
                for head in 0..2 {
                    let board = child.pos.board();
                    seen.push(net.output_head(&next, board, child.pos.turn(), head));
                }
                seen.push(i32::from(next.side(Color::White)[7]));
                node = child;
                acc = next;
            }
        }
        seen
    };
    for net in [
        random_net(BoardKind::Standard, 21),
        random_shaped(BoardKind::Standard, 22, 256, Kings::Sixteen, 8),
    ] {
        let fast = outputs(&net);
        assert!(fast.len() > 200);
        assert_eq!(crate::simd::portable(|| outputs(&net)), fast);
    }
}

#[test]
fn incremental_updates_equal_a_refresh_in_chess() {
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        // Castling both ways, en passant at once, promotions a move away.
        "r3k2r/pPp3pp/8/3pP3/8/8/PpP3PP/R3K2R w KQkq d6 0 1",
        "r3k2r/1P4p1/8/8/4p3/8/5P2/R3K2R w KQkq - 3 40",
        // Kings in the open, free to cross the d/e line and the ranks.
        "8/2k5/8/3p4/4P3/8/2K5/8 w - - 0 1",
    ];
    let plain = random_net(BoardKind::Standard, 5);
    let k = incremental_matches_refresh::<Chess>(Variant::Chess, &plain, &fens, 24, 5);
    assert!(
        k.quiet > 0 && k.capture > 0 && k.promotion > 0 && k.castle > 0 && k.en_passant > 0,
        "{k:?}"
    );
    let portable = crate::simd::portable(|| {
        incremental_matches_refresh::<Chess>(Variant::Chess, &plain, &fens, 4, 6)
    });
    assert!(portable.quiet > 0, "{portable:?}");
    for (hidden, kings, seed) in [
        (256, Kings::Four, 7),
        (128, Kings::Eight, 8),
        (512, Kings::Sixteen, 9),
        (200, Kings::Sixteen, 10),
    ] {
        let net = random_shaped(BoardKind::Standard, seed, hidden, kings, 8);
        let k = incremental_matches_refresh::<Chess>(Variant::Chess, &net, &fens, 16, seed);
        assert!(
            k.king_bucket > 10 && k.king_mirror > 10 && k.castle > 0 && k.promotion > 0,
            "{kings:?} {k:?}"
        );
    }
}

#[test]
fn incremental_updates_equal_a_refresh_in_extinction() {
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        // Two white kings, castling, pawns about to promote (to a king too).
        "2bqk1nr/1P5p/8/8/8/8/P6p/RNBQK2R w KQk - 0 1",
        "r3k2r/pPp3pp/8/3pP3/8/8/PpP3PP/R3K2R w KQkq d6 0 1",
        "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
        // Two kings a side in the open, one of them en prise.
        "8/1k3k2/8/3K4/8/8/1K6/8 w - - 0 1",
    ];
    for (net, seed) in [
        (random_net(BoardKind::Extinction, 9), 9),
        (
            random_shaped(BoardKind::Extinction, 12, 256, Kings::Eight, 4),
            12,
        ),
    ] {
        let k =
            incremental_matches_refresh::<Extinction>(Variant::Extinction, &net, &fens, 24, seed);
        assert!(
            k.king_capture > 0 && k.promotion > 0 && k.castle > 0 && k.en_passant > 0,
            "{k:?}"
        );
        if net.kings() != Kings::Plain {
            assert!(k.king_bucket > 10 && k.king_mirror > 10, "{k:?}");
        }
    }
}

#[test]
fn the_cache_gives_a_refreshs_sums_and_lays_itself_out_for_each_net() {
    // Two nets of other shapes served by one cache in turn, on boards far
    // apart: every answer is the perspective's refresh.
    let nets = [
        random_shaped(BoardKind::Standard, 31, 256, Kings::Four, 1),
        random_shaped(BoardKind::Standard, 32, 128, Kings::Sixteen, 2),
        random_shaped(BoardKind::Standard, 33, 256, Kings::Four, 1),
    ];
    let mut cache = RefreshCache::new();
    for round in 0..3 {
        for (i, net) in nets.iter().enumerate() {
            for fen in FENS.iter().cycle().skip(round + i).take(FENS.len()) {
                let board = board_of(fen);
                let want = Accumulator::refresh(net, &board);
                for persp in Color::ALL {
                    let key = net.king_key(persp, &board);
                    let mut out = vec![0; net.stride()];
                    cache.refresh(net, persp, key, &board, &mut out);
                    assert_eq!(out, want.side(persp), "{fen}");
                }
            }
        }
    }
    // A side without a king (extinction's end) reads bucket 0 unmirrored.
    let net = &nets[0];
    let board = board_of("8/8/8/3p4/4P3/8/8/1K6 w - - 0 1");
    let acc = Accumulator::refresh(net, &board);
    assert_eq!(net.king_key(Color::Black, &board), KingKey::PLAIN);
    let mut out = vec![0; net.stride()];
    cache.refresh(net, Color::Black, KingKey::PLAIN, &board, &mut out);
    assert_eq!(out, acc.side(Color::Black));
}

#[test]
fn a_net_of_king_buckets_reads_a_position_and_its_mirror_alike() {
    let net = random_shaped(BoardKind::Standard, 41, 128, Kings::Eight, 4);
    let plain = random_net(BoardKind::Standard, 41);
    let mut differs = false;
    for fen in FENS {
        let board = board_of(fen);
        let mut mirrored = board.clone();
        mirrored.flip_horizontal();
        for turn in Color::ALL {
            assert_eq!(
                net.evaluate(&board, turn),
                net.evaluate(&mirrored, turn),
                "{fen}"
            );
            differs |= plain.evaluate(&board, turn) != plain.evaluate(&mirrored, turn);
        }
    }
    assert!(differs);
}

#[test]
fn every_built_in_net_loads_as_its_boards_net() {
    for board in BoardKind::ALL {
        let bytes = embedded_bytes(board).expect("a net for every board");
        let net = format::read(bytes).unwrap();
        assert_eq!(net.board(), board);
        assert_eq!(embedded(board).unwrap().name(), net.name());
        // Read and written back byte for byte, in its version (1 or 2).
        assert_eq!(format::write(&net), bytes);
        assert_eq!(net.kings(), Kings::Plain);
    }
}

#[test]
fn output_buckets_split_the_piece_counts_evenly() {
    // Eight buckets: 2-5 pieces, 6-9, ..., 26-29, 30-32.
    let eight: Vec<usize> = (2..=32).map(|n| bucket(n, 8)).collect();
    assert_eq!(&eight[..5], &[0, 0, 0, 0, 1]);
    assert_eq!(&eight[24..], &[6, 6, 6, 6, 7, 7, 7]);
    for buckets in 1..=MAX_BUCKETS {
        let used: std::collections::BTreeSet<usize> =
            (2..=32).map(|n| bucket(n, buckets)).collect();
        assert_eq!(used, (0..buckets).collect(), "{buckets}");
        // Never decreasing with the pieces; odd counts stay in range.
        assert!((2..32).all(|n| bucket(n, buckets) <= bucket(n + 1, buckets)));
        assert_eq!(bucket(0, buckets), 0);
        assert_eq!(bucket(40, buckets), buckets - 1);
    }
}

/// A net of zero weights with `buckets` buckets whose bucket `b` outputs
/// `100 · (b + 1)` internal units.
fn bias_only(buckets: usize) -> Network {
    let heads = (0..buckets as i32)
        .map(|b| Head::zero(HIDDEN, 255 * 64 / 4 * (b + 1)))
        .collect();
    Network::from_weights(Weights {
        buckets,
        heads,
        ..Weights::plain(
            BoardKind::Standard,
            HIDDEN,
            vec![0; FEATURES * HIDDEN],
            vec![0; HIDDEN],
            Vec::new(),
        )
    })
    .unwrap()
}

#[test]
fn a_bucketed_net_reads_the_bucket_of_its_piece_count() {
    let net = bias_only(4);
    let value = |fen: &str| {
        let b: shakmaty::fen::Fen = fen.parse().unwrap();
        net.evaluate(&b.as_setup().board, Color::White)
    };
    // 32 pieces: bucket 3; 12: bucket 1; 3: bucket 0.
    assert_eq!(
        value(shakmaty::fen::Fen::default().to_string().as_str()),
        400
    );
    assert_eq!(value("r3k2r/pp4pp/8/8/8/8/PP4PP/R3K2R w - - 0 1"), 200);
    assert_eq!(value("4k3/8/8/8/8/8/8/3QK3 w - - 0 1"), 100);
    assert_eq!(
        net.describe(),
        format!(
            "{} (standard board, {HIDDEN} hidden, 1 head, 4 output buckets)",
            net.name()
        )
    );
}

#[test]
fn a_bucketed_net_round_trips_and_its_shape_is_part_of_its_name() {
    let w = random_weights(BoardKind::Standard, 5, HIDDEN, Kings::Plain, 4, 2);
    let net = Network::from_weights(w.clone()).unwrap();
    assert_eq!((net.head_count(), net.buckets()), (2, 4));
    let bytes = format::write(&net);
    assert_eq!(bytes.len(), format::file_len(HIDDEN, 8, Kings::Plain));
    assert_eq!(
        u16::from_le_bytes([bytes[8], bytes[9]]),
        format::VERSION_BUCKETS
    );
    assert_eq!((bytes[12], bytes[14]), (2, 4));
    assert_eq!(format::read(&bytes).unwrap(), net);
    // The same weights as 4 heads of 2 buckets, or 8 heads of one: other
    // names.
    let other = Network::from_weights(Weights {
        buckets: 2,
        ..w.clone()
    })
    .unwrap();
    let plain = Network::from_weights(Weights {
        buckets: 1,
        ..w.clone()
    })
    .unwrap();
    assert_ne!(other.name(), net.name());
    assert_ne!(plain.name(), net.name());
    assert_eq!(format::write(&plain)[8], 1);
    // A changed shape byte is refused, never read as another net.
    let refused = |at: usize, v: u8| {
        let mut b = bytes.clone();
        b[at] = v;
        format::read(&b).unwrap_err().to_string()
    };
    assert!(refused(14, 1).contains("1 output buckets"));
    assert!(refused(14, 9).contains("9 output buckets"));
    assert!(refused(14, 2).contains("wrong size"));
    assert!(refused(12, 4).contains("wrong size"));
    assert!(refused(12, 1).contains("wrong size"));
    assert!(refused(15, 0x80).contains("reserved byte 15"));
    // A version-1 file with a bucket byte.
    let mut b = format::write(&plain);
    b[14] = 4;
    assert!(
        format::read(&b)
            .unwrap_err()
            .to_string()
            .contains("buckets byte 4")
    );
    // Layers that no bucket count divides.
    let e = Network::from_weights(Weights {
        buckets: 4,
        heads: vec![bias_only(1).heads()[0].clone(); 6],
        ..w
    })
    .unwrap_err();
    assert!(
        e.to_string().contains("6 output layers for 4 buckets"),
        "{e}"
    );
}

#[test]
fn a_net_of_king_buckets_is_version_3_and_its_layout_is_part_of_its_name() {
    for kings in [Kings::Four, Kings::Eight, Kings::Sixteen] {
        for buckets in [1, 8] {
            let w = random_weights(BoardKind::Standard, 6, 256, kings, buckets, 1);
            let net = Network::from_weights(w.clone()).unwrap();
            let bytes = format::write(&net);
            assert_eq!(bytes.len(), format::file_len(256, buckets, kings));
            assert_eq!(
                u16::from_le_bytes([bytes[8], bytes[9]]),
                format::VERSION_KINGS
            );
            assert_eq!(
                (bytes[14], bytes[24], usize::from(bytes[25])),
                (buckets as u8, kings.id(), kings.count())
            );
            let back = format::read(&bytes).unwrap();
            assert_eq!(back, net);
            assert_eq!(format::write(&back), bytes);
            assert!(
                net.describe().ends_with(&format!(
                    "256 hidden, 1 head{}, {} king buckets mirrored)",
                    if buckets == 1 {
                        String::new()
                    } else {
                        format!(", {buckets} output buckets")
                    },
                    kings.count()
                )),
                "{}",
                net.describe()
            );
        }
    }
    // The same weights read as another layout or none: another name.
    let w = random_weights(BoardKind::Standard, 7, 128, Kings::Four, 4, 1);
    let four = Network::from_weights(w.clone()).unwrap();
    let mut as_plain = w.clone();
    as_plain.kings = Kings::Plain;
    as_plain.feature_weights.truncate(FEATURES * 128);
    let mut first_block = w;
    first_block.feature_weights.truncate(FEATURES * 128);
    let plain = Network::from_weights(as_plain).unwrap();
    assert_ne!(plain.name(), four.name());
    assert_eq!(format::version_of(&plain), format::VERSION_BUCKETS);
    assert!(Network::from_weights(first_block).is_err());
    // Refusals, each one line naming what is wrong.
    let bytes = format::write(&four);
    let refused = |at: usize, v: u8| {
        let mut b = bytes.clone();
        b[at] = v;
        let e = format::read(&b).unwrap_err().to_string();
        assert!(!e.contains('\n'), "{e}");
        e
    };
    assert!(refused(24, 0).contains("king-bucket layout 0 in a version 3 net"));
    assert!(refused(24, 9).contains("king-bucket layout 9 (this Tally knows 1 to 3)"));
    assert!(refused(25, 8).contains("8 king buckets for layout 1, which has 4"));
    assert!(refused(24, 2).contains("8 king buckets") || refused(24, 2).contains("4 king buckets"));
    assert!(refused(29, 1).contains("reserved bytes 26 to 31"));
    assert!(refused(14, 0).contains("0 output buckets (1 to 8 in version 3)"));
    assert!(refused(14, 2).contains("wrong size"));
    // Every byte of the king header is named by the hash.
    let mut b = bytes.clone();
    b[24] = 3;
    b[25] = 16;
    assert!(
        format::read(&b)
            .unwrap_err()
            .to_string()
            .contains("wrong size")
    );
    let mut b = bytes.clone();
    b[40] ^= 1;
    assert_eq!(format::read(&b).unwrap_err(), NetError::Hash);
    // A version-3 header cut short.
    assert!(
        format::read(&bytes[..28])
            .unwrap_err()
            .to_string()
            .contains("shorter than a version 3 header")
    );
    // A plain file claiming version 3.
    let mut b = format::write(&plain);
    b[8] = 3;
    assert!(format::read(&b).is_err());
    for len in (0..bytes.len()).step_by(9973) {
        assert!(format::read(&bytes[..len]).is_err());
    }
}
