//! Perft speed, in one run: standard chess through Tally's rules layer
//! (`Rules<Chess>`) against shakmaty's own perft on the same positions, and
//! extinction through Tally (`Rules<Extinction>`) on the same positions.
//!
//! Throughput is leaf nodes per second. Run with `cargo bench --bench perft`;
//! the targets are Tally standard >= 0.9x shakmaty and Tally extinction
//! >= 0.7x shakmaty standard.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use shakmaty::Chess;
use tally::rules::{Extinction, Pos, Rules, Variant, perft};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// (name, FEN, depth, standard count, extinction count)
const CASES: [(&str, &str, u32, u64, u64); 4] = [
    ("start", START, 4, 197_281, 197_742),
    ("start", START, 5, 4_865_609, 4_896_744),
    ("kiwipete", KIWIPETE, 3, 97_862, 98_456),
    ("kiwipete", KIWIPETE, 4, 4_085_603, 4_183_740),
];

fn perft_bench(c: &mut Criterion) {
    let chess_rules = Rules::<Chess>::new(Variant::Chess);
    let extinction_rules = Rules::<Extinction>::new(Variant::Extinction);
    let mut group = c.benchmark_group("perft");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    for (name, fen, depth, standard, extinction) in CASES {
        let id = format!("{name}-{depth}");
        let pos: Chess = Pos::from_fen(fen).expect("standard FEN");
        let chess_node = chess_rules.root(pos.clone());
        let extinction_node = extinction_rules.from_fen(fen).expect("extinction FEN");
        // The benches must count what they claim.
        assert_eq!(shakmaty::perft(&pos, depth), standard, "{id}");
        assert_eq!(
            perft(&chess_rules, &chess_node, depth),
            Ok(standard),
            "{id}"
        );
        assert_eq!(
            perft(&extinction_rules, &extinction_node, depth),
            Ok(extinction),
            "{id}"
        );

        group.throughput(Throughput::Elements(standard));
        group.bench_function(BenchmarkId::new("shakmaty", &id), |b| {
            b.iter(|| shakmaty::perft(black_box(&pos), depth))
        });
        group.bench_function(BenchmarkId::new("tally-chess", &id), |b| {
            b.iter(|| perft(&chess_rules, black_box(&chess_node), depth))
        });
        group.throughput(Throughput::Elements(extinction));
        group.bench_function(BenchmarkId::new("tally-extinction", &id), |b| {
            b.iter(|| perft(&extinction_rules, black_box(&extinction_node), depth))
        });
    }
    group.finish();
}

criterion_group!(benches, perft_bench);
criterion_main!(benches);
