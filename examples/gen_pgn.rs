//! Writes random legal games as PGN to standard output:
//! `cargo run --release --example gen_pgn -- [COUNT] [SEED] > games.pgn`
//! (defaults: 10000 games, seed 42).

#[path = "../benches/support/random_games.rs"]
mod random_games;

fn main() {
    let mut args = std::env::args().skip(1);
    let count = args.next().and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let seed = args.next().and_then(|a| a.parse().ok()).unwrap_or(42);
    print!("{}", random_games::random_pgn(count, seed));
}
