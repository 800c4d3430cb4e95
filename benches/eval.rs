//! Evaluator throughput: evaluations per second, per variant.
//!
//! The positions are the children of `tally bench`'s positions of each
//! variant (every legal action played once), evaluated with a fresh memo;
//! criterion's throughput is in evaluations. The variant evaluators run in
//! every variant, the base evaluation (`EvalMode::Base`) in chess.

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use shakmaty::Chess;
use tally::eval::{EvalMode, Evaluate, Evaluator};
use tally::rules::{ActionList, Extinction, Node, Pos, Rules, Variant};
use tally::scoring::{Memo, Scorer};

/// The bench positions of `variant` and their children.
fn nodes<P: Pos>(rules: Rules<P>, variant: Variant) -> Vec<Node<P>> {
    let mut out = Vec::new();
    for (v, fen) in tally::bench::positions().expect("bench positions") {
        if v != variant {
            continue;
        }
        let root = rules.from_fen(&fen).expect("bench FEN");
        let mut actions = ActionList::new();
        rules.legal_actions(&root, &mut actions);
        for &a in &actions {
            out.push(rules.play(&root, a));
        }
        out.push(root);
    }
    out
}

fn bench<P: Pos>(group: &mut BenchmarkGroup<'_, WallTime>, variant: Variant, mode: EvalMode) {
    let rules = Rules::<P>::new(variant).with_specials(true);
    let nodes = nodes(rules, variant);
    let evaluator = Evaluator::new(&Scorer::new(variant), mode);
    let memo = Memo::default();
    group.throughput(Throughput::Elements(nodes.len() as u64));
    let name = match mode {
        EvalMode::Variant => variant.id().to_owned(),
        other => format!("{}-{}", variant.id(), other.name()),
    };
    group.bench_function(name, |b| {
        b.iter(|| {
            nodes
                .iter()
                .map(|n| i64::from(evaluator.evaluate(std::hint::black_box(n), &memo)))
                .sum::<i64>()
        });
    });
}

fn eval(c: &mut Criterion) {
    let mut group = c.benchmark_group("eval");
    group.sample_size(20);
    for variant in Variant::ALL {
        if variant.is_extinction() {
            bench::<Extinction>(&mut group, variant, EvalMode::Variant);
        } else {
            bench::<Chess>(&mut group, variant, EvalMode::Variant);
        }
    }
    bench::<Chess>(&mut group, Variant::Chess, EvalMode::Base);
    group.finish();
}

criterion_group!(benches, eval);
criterion_main!(benches);
