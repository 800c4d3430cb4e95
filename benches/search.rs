//! Search throughput: one fixed-depth search per variant, from the first
//! `tally bench` position of that variant with at least 20 legal actions
//! (a middlegame, not an ending of a few nodes), one thread, a 16 MiB
//! table cleared before each search (as `tally bench` searches; the
//! clearing is not timed). Criterion's throughput is in nodes, so its
//! "elements/s" is the search's nodes per second; the node count itself is
//! `tally bench`'s business (the search signature).

use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tally::engine::{Engine, EngineOptions};
use tally::rules::Variant;
use tally::search::{Limits, Silent};

/// The depth searched.
const DEPTH: i32 = 7;

fn search(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    let positions = tally::bench::positions().expect("bench positions");
    for variant in Variant::ALL {
        let options = EngineOptions {
            hash_mb: 16,
            threads: 1,
            ..EngineOptions::default()
        };
        let mut engine = Engine::with_options(variant, options);
        let found = positions
            .iter()
            .filter(|(v, _)| *v == variant)
            .any(|(_, fen)| {
                engine.set_position(Some(fen), &[]).is_ok() && engine.legal_actions().len() >= 20
            });
        if !found {
            continue;
        }
        let run = |engine: &mut Engine| {
            engine
                .search(Limits::depth(DEPTH), &Silent)
                .expect("search")
                .nodes
        };
        engine.clear_hash();
        let nodes = run(&mut engine);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{}-d{DEPTH}", variant.id()), |b| {
            b.iter_custom(|iters| {
                let mut time = Duration::ZERO;
                for _ in 0..iters {
                    engine.clear_hash();
                    let started = Instant::now();
                    std::hint::black_box(run(&mut engine));
                    time += started.elapsed();
                }
                time
            });
        });
    }
    group.finish();
}

criterion_group!(benches, search);
criterion_main!(benches);
