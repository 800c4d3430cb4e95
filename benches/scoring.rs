//! Referee throughput: games per second on 10,000 random legal games.
//!
//! The PGN is generated in memory with a fixed seed
//! (`support/random_games.rs`, the same generator as
//! `examples/gen_pgn`). Each benchmark reads every game with the PGN
//! reader and scores it under one variant, in parallel as `tally score`
//! does; criterion's throughput is in games.

#[path = "support/random_games.rs"]
mod random_games;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rayon::prelude::*;
use tally::pgn::{GameSplitter, read_games};
use tally::referee::score_input;
use tally::rules::Variant;
use tally::scoring::Scorer;

const GAMES: usize = 10_000;

fn scoring(c: &mut Criterion) {
    let pgn = random_games::random_pgn(GAMES, 42);
    let chunks: Vec<Vec<u8>> = GameSplitter::new(pgn.as_bytes())
        .filter_map(Result::ok)
        .collect();
    assert_eq!(chunks.len(), GAMES);
    let mut group = c.benchmark_group("score");
    group.throughput(Throughput::Elements(GAMES as u64));
    group.sample_size(10);
    for variant in [Variant::Chess, Variant::Stylish, Variant::Wacky] {
        let scorer = Scorer::new(variant);
        group.bench_function(variant.id(), |b| {
            b.iter(|| {
                let scored: usize = chunks
                    .par_iter()
                    .map(|chunk| {
                        read_games(chunk)
                            .map(|games| {
                                games
                                    .iter()
                                    .filter(|g| score_input(&scorer, &g.input).is_ok())
                                    .count()
                            })
                            .unwrap_or(0)
                    })
                    .sum();
                assert_eq!(scored, GAMES);
            });
        });
    }
    group.finish();
}

criterion_group!(benches, scoring);
criterion_main!(benches);
