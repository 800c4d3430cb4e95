//! The net file round-trips and refuses bad files with one line; the
//! integer output is the formula of the module docs; incremental updates
//! equal a refresh for every kind of move.

use super::*;
use crate::rng::Rng;
use crate::rules::{Action, Extinction, Node, Pos, Rules, Variant};
use shakmaty::{Chess, Move};

/// Uniform in `-m ..= m`.
fn within(r: &mut Rng, m: i16) -> i16 {
    let span = 2 * usize::try_from(m).unwrap_or(0) + 1;
    (r.below(span) as i64 - i64::from(m)) as i16
}

/// A net of random weights within the loader's bounds.
pub(crate) fn random_net(board: BoardKind, seed: u64) -> Network {
    let mut r = Rng::new(seed);
    let rows = (0..FEATURES)
        .map(|_| std::array::from_fn(|_| within(&mut r, 80)))
        .collect();
    let bias = std::array::from_fn(|_| within(&mut r, 200));
    let heads = (0..2)
        .map(|_| Head {
            weights: std::array::from_fn(|_| {
                std::array::from_fn(|_| within(&mut r, MAX_OUTPUT_WEIGHT))
            }),
            bias: i32::from(within(&mut r, 20_000)),
        })
        .collect();
    Network::new(board, rows, bias, heads).unwrap()
}

#[test]
fn the_file_round_trips() {
    for board in BoardKind::ALL {
        let net = random_net(board, 7);
        let bytes = format::write(&net);
        assert_eq!(bytes.len(), format::file_len(HIDDEN, 2));
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

/// `net`'s weights with every neuron from `hidden` on set to zero.
pub(crate) fn narrowed(
    net: &Network,
    hidden: usize,
) -> (Vec<[i16; HIDDEN]>, [i16; HIDDEN], Vec<Head>) {
    let cut = |row: &[i16; HIDDEN]| std::array::from_fn(|j| if j < hidden { row[j] } else { 0 });
    let rows = net.feature_weights().iter().map(cut).collect();
    let heads = net
        .heads()
        .iter()
        .map(|h| Head {
            weights: [cut(&h.weights[0]), cut(&h.weights[1])],
            bias: h.bias,
        })
        .collect();
    (rows, cut(net.feature_bias()), heads)
}

#[test]
fn a_narrower_net_is_read_with_its_other_neurons_at_zero() {
    let full = random_net(BoardKind::Standard, 11);
    let h = HIDDEN / 2;
    let (rows, bias, heads) = narrowed(&full, h);
    let narrow =
        Network::with_width(BoardKind::Standard, rows.clone(), bias, 1, heads.clone(), h).unwrap();
    assert_eq!(narrow.hidden(), h);
    assert!(narrow.describe().contains(&format!("{h} hidden")));
    // The file holds only its neurons, and reads back as the same net.
    let bytes = format::write(&narrow);
    assert_eq!(bytes.len(), format::file_len(h, 2));
    assert_eq!(u16::from_le_bytes([bytes[10], bytes[11]]), h as u16);
    let back = format::read(&bytes).unwrap();
    assert_eq!(back, narrow);
    assert_eq!(format::write(&back), bytes);
    // The same function as the full-width net of the same weights (whose
    // file, and so name, differ).
    let padded =
        Network::with_buckets(BoardKind::Standard, rows.clone(), bias, 1, heads.clone()).unwrap();
    assert_ne!(padded.name(), narrow.name());
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 5 4",
    ] {
        let setup = fen.parse::<shakmaty::fen::Fen>().unwrap().into_setup();
        for turn in [Color::White, Color::Black] {
            assert_eq!(
                back.evaluate(&setup.board, turn),
                padded.evaluate(&setup.board, turn)
            );
        }
    }
    // A weight beyond the width is refused.
    let mut wide = rows;
    wide[5][h] = 1;
    let e = Network::with_width(BoardKind::Standard, wide, bias, 1, heads, h).unwrap_err();
    assert!(e.to_string().contains("beyond the net's"), "{e}");
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
        "net format version 9 (this Tally reads versions 1 and 2)"
    );
    let mut b = good.clone();
    let wide = HIDDEN as u16 + 16;
    b[10..12].copy_from_slice(&wide.to_le_bytes());
    assert!(refuse(&b).contains(&format!("{wide} hidden neurons")));
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
    f.set_len(1 << 30).unwrap();
    let e = format::load(&big).unwrap_err();
    assert!(e.contains("a net has at most"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_output_is_the_quantised_formula() {
    let net = random_net(BoardKind::Standard, 11);
    let board = shakmaty::Board::new();
    let acc = Accumulator::refresh(&net, &board);
    for stm in Color::ALL {
        for head in 0..2 {
            // The same sums in wide integers, straight from the docs.
            let h = &net.heads()[head];
            let mut sum: i64 = 0;
            for (side, w) in [stm, !stm].into_iter().zip(&h.weights) {
                let mut a: Vec<i64> = net.feature_bias().iter().map(|&b| i64::from(b)).collect();
                for (sq, piece) in board.iter() {
                    let row = &net.feature_weights()[feature(side, piece, sq)];
                    for (x, r) in a.iter_mut().zip(row) {
                        *x += i64::from(*r);
                    }
                }
                for (x, w) in a.iter().zip(w) {
                    let c = x.clamp(&0, &255);
                    sum += c * c * i64::from(*w);
                }
            }
            let want = (sum / 255 + i64::from(h.bias)) * 400 / (255 * 64);
            assert_eq!(i64::from(net.output_head(&acc, &board, stm, head)), want);
        }
    }
    // Every neuron at the activation's top and every output weight at its
    // largest: the sum (2 · 128 · 255² · 127) is beyond an i32, its
    // chunks are not.
    let top = Network::new(
        BoardKind::Standard,
        vec![[0; HIDDEN]; FEATURES],
        [300; HIDDEN],
        vec![Head {
            weights: [[MAX_OUTPUT_WEIGHT; HIDDEN]; 2],
            bias: 0,
        }],
    )
    .unwrap();
    let acc = Accumulator::refresh(&top, &board);
    let sum = 2 * HIDDEN as i64 * 255 * 255 * 127;
    assert_eq!(
        i64::from(top.output(&acc, &board, Color::White)),
        sum / 255 * 400 / (255 * 64)
    );
    // A net of biases only: the output bias alone, scaled.
    let zero = Network::new(
        BoardKind::Standard,
        vec![[0; HIDDEN]; FEATURES],
        [0; HIDDEN],
        vec![Head {
            weights: [[0; HIDDEN]; 2],
            bias: 255 * 64 / 4,
        }],
    )
    .unwrap();
    assert_eq!(zero.evaluate(&board, Color::White), 100);
    // The start position is symmetric: both sides see the same sums.
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
}

/// Random games from `fens`: after every move the updated accumulators
/// equal a refresh (and a null move changes nothing).
fn incremental_matches_refresh<P: Pos>(
    variant: Variant,
    fens: &[&str],
    games: usize,
    seed: u64,
) -> Kinds {
    let rules = Rules::<P>::new(variant);
    let net = random_net(BoardKind::of(variant), seed);
    let mut r = Rng::new(seed);
    let mut kinds = Kinds::default();
    for g in 0..games {
        let mut node: Node<P> = rules.from_fen(fens[g % fens.len()]).unwrap();
        let mut acc = Accumulator::refresh(&net, node.pos.board());
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
            let child = rules.play(&node, Action::Move(m));
            let mut next = Accumulator::default();
            next.update(&net, &acc, node.pos.board(), child.pos.board());
            assert_eq!(
                next,
                Accumulator::refresh(&net, child.pos.board()),
                "{} after {m:?}",
                node.fen()
            );
            if let Some(null) = rules.play_null(&child) {
                let mut same = Accumulator::default();
                same.update(&net, &next, child.pos.board(), null.pos.board());
                assert_eq!(same, next);
            }
            node = child;
            acc = next;
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
        for fen in fens {
            let mut node: Node<Chess> = rules.from_fen(fen).unwrap();
            let mut acc = Accumulator::refresh(net, node.pos.board());
            for _ in 0..60 {
                let moves = rules.legal_moves(&node);
                if moves.is_empty() {
                    break;
                }
                let child = rules.play(&node, Action::Move(moves[r.below(moves.len())]));
                let mut next = Accumulator::default();
                next.update(net, &acc, node.pos.board(), child.pos.board());
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
    let net = random_net(BoardKind::Standard, 21);
    let fast = outputs(&net);
    assert!(fast.len() > 200);
    assert_eq!(crate::simd::portable(|| outputs(&net)), fast);
}

#[test]
fn incremental_updates_equal_a_refresh_in_chess() {
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        // Castling both ways, en passant at once, promotions a move away.
        "r3k2r/pPp3pp/8/3pP3/8/8/PpP3PP/R3K2R w KQkq d6 0 1",
        "r3k2r/1P4p1/8/8/4p3/8/5P2/R3K2R w KQkq - 3 40",
    ];
    let k = incremental_matches_refresh::<Chess>(Variant::Chess, &fens, 24, 5);
    let portable =
        crate::simd::portable(|| incremental_matches_refresh::<Chess>(Variant::Chess, &fens, 4, 6));
    assert!(portable.quiet > 0, "{portable:?}");
    assert!(
        k.quiet > 0 && k.capture > 0 && k.promotion > 0 && k.castle > 0 && k.en_passant > 0,
        "{k:?}"
    );
}

#[test]
fn incremental_updates_equal_a_refresh_in_extinction() {
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        // Two white kings, castling, pawns about to promote (to a king too).
        "2bqk1nr/1P5p/8/8/8/8/P6p/RNBQK2R w KQk - 0 1",
        "r3k2r/pPp3pp/8/3pP3/8/8/PpP3PP/R3K2R w KQkq d6 0 1",
        "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
    ];
    let k = incremental_matches_refresh::<Extinction>(Variant::Extinction, &fens, 24, 9);
    assert!(
        k.king_capture > 0 && k.promotion > 0 && k.castle > 0 && k.en_passant > 0,
        "{k:?}"
    );
}

#[test]
fn every_built_in_net_loads_as_its_boards_net() {
    for board in BoardKind::ALL {
        let bytes = embedded_bytes(board).expect("a net for every board");
        let net = format::read(bytes).unwrap();
        assert_eq!(net.board(), board);
        assert_eq!(embedded(board).unwrap().name(), net.name());
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
        .map(|b| Head {
            weights: [[0; HIDDEN]; 2],
            bias: 255 * 64 / 4 * (b + 1),
        })
        .collect();
    Network::with_buckets(
        BoardKind::Standard,
        vec![[0; HIDDEN]; FEATURES],
        [0; HIDDEN],
        buckets,
        heads,
    )
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
    let mut r = Rng::new(5);
    let rows: Vec<[i16; HIDDEN]> = (0..FEATURES)
        .map(|_| std::array::from_fn(|_| within(&mut r, 80)))
        .collect();
    let bias = std::array::from_fn(|_| within(&mut r, 200));
    let layers: Vec<Head> = (0..8)
        .map(|_| Head {
            weights: std::array::from_fn(|_| {
                std::array::from_fn(|_| within(&mut r, MAX_OUTPUT_WEIGHT))
            }),
            bias: i32::from(within(&mut r, 20_000)),
        })
        .collect();
    let net =
        Network::with_buckets(BoardKind::Standard, rows.clone(), bias, 4, layers.clone()).unwrap();
    assert_eq!((net.head_count(), net.buckets()), (2, 4));
    let bytes = format::write(&net);
    assert_eq!(bytes.len(), format::file_len(HIDDEN, 8));
    assert_eq!(
        u16::from_le_bytes([bytes[8], bytes[9]]),
        format::VERSION_BUCKETS
    );
    assert_eq!((bytes[12], bytes[14]), (2, 4));
    assert_eq!(format::read(&bytes).unwrap(), net);
    // The same weights as 4 heads of 2 buckets, or 8 heads of one: other
    // names.
    let other =
        Network::with_buckets(BoardKind::Standard, rows.clone(), bias, 2, layers.clone()).unwrap();
    let plain = Network::new(BoardKind::Standard, rows, bias, layers).unwrap();
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
    let e = Network::with_buckets(
        BoardKind::Standard,
        vec![[0; HIDDEN]; FEATURES],
        [0; HIDDEN],
        4,
        vec![bias_only(1).heads()[0].clone(); 6],
    )
    .unwrap_err();
    assert!(
        e.to_string().contains("6 output layers for 4 buckets"),
        "{e}"
    );
}
