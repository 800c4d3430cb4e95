//! The net in the search: a search whose accumulators are updated move by
//! move (and carried over null moves, refreshed from the thread's cache
//! when a king changes bucket) visits the same nodes and finds the same
//! line and value as one that sums every piece afresh at every
//! evaluation, in chess and in extinction, for plain nets and wide nets of
//! king buckets.

use std::sync::Arc;
use std::time::Duration;

use shakmaty::Chess;
use tally::eval::{EvalMode, Evaluate, Evaluator, Units};
use tally::nnue::{FEATURES, HIDDEN, Head, Kings, Network, Weights};
use tally::rules::{BoardKind, Extinction, Game, Node, Pos, Rules, Variant};
use tally::scoring::{Memo, Scorer};
use tally::search::{Limits, SearchJob, SearchResult, Shared, Silent, Tt, search};

/// A net whose weights follow a formula (varied enough to rank moves),
/// of `hidden` neurons and the king-bucket layout `kings`.
fn formula_net(board: BoardKind, hidden: usize, kings: Kings) -> Arc<Network> {
    let rows = (0..kings.count() * FEATURES)
        .flat_map(|f| (0..hidden).map(move |j| ((f * 7 + j * 13) % 61) as i16 - 30))
        .collect();
    let head = Head {
        weights: std::array::from_fn(|s| {
            (0..hidden)
                .map(|j| ((s * 5 + j * 3) % 41) as i16 - 20)
                .collect()
        }),
        bias: 100,
    };
    let w = Weights {
        kings,
        ..Weights::plain(board, hidden, rows, vec![40; hidden], vec![head])
    };
    Arc::new(Network::from_weights(w).unwrap())
}

/// The evaluator with no state: every evaluation refreshes.
struct Refresh(Evaluator);

impl<P: Pos> Evaluate<P> for Refresh {
    type State = ();
    type Cache = ();

    fn evaluate(&self, node: &Node<P>, memo: &Memo) -> i32 {
        self.0.evaluate(node, memo)
    }

    fn root_state(&self, _node: &Node<P>) {}

    fn cache(&self) {}

    fn child_state(&self, _: &mut (), _: &Node<P>, _: &(), _: &Node<P>, _: &mut ()) {}
}

fn run<P: Pos, E: Evaluate<P>>(
    rules: Rules<P>,
    fen: &str,
    evaluator: E,
    depth: i32,
) -> SearchResult {
    let scorer = Scorer::new(rules.variant());
    let game = Game::new(rules, Some(fen)).unwrap();
    let job = SearchJob {
        rules,
        evaluator,
        units: Units::of(&scorer),
        scorer,
        root: game.current().clone(),
        root_memo: Memo::default(),
        history: game.history().to_vec(),
        root_actions: game.legal_actions().to_vec(),
        limits: Limits::depth(depth),
        multipv: 1,
        overhead: Duration::ZERO,
        tablebases: None,
    };
    let shared = Shared::new(Arc::new(Tt::new(4)), 1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    search(&job, &shared, &pool, 1, &Silent)
}

fn same_search<P: Pos>(variant: Variant, net: &Arc<Network>, fens: &[&str], depth: i32) {
    let rules = Rules::<P>::new(variant);
    let scorer = Scorer::new(variant);
    for fen in fens {
        let nnue = Evaluator::with_net(&scorer, EvalMode::Nnue, Some(net.clone()));
        assert!(nnue.net().is_some());
        let refresh = Refresh(nnue.clone());
        let a = run(rules, fen, nnue, depth);
        let b = run(rules, fen, refresh, depth);
        assert_eq!(a.nodes, b.nodes, "{fen}");
        assert_eq!(a.best, b.best, "{fen}");
        assert_eq!(a.lines[0].value, b.lines[0].value, "{fen}");
        assert_eq!(a.lines[0].pv, b.lines[0].pv, "{fen}");
    }
}

#[test]
fn incremental_accumulators_search_as_refreshed_ones_in_chess() {
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/pPp3pp/8/3pP3/8/8/PpP3PP/R3K2R w KQkq d6 0 1",
        "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    ];
    let net = formula_net(BoardKind::Standard, HIDDEN, Kings::Plain);
    same_search::<Chess>(Variant::Chess, &net, &fens, 6);
    // Kings that walk across buckets and sides: an ending.
    let wide = formula_net(BoardKind::Standard, 256, Kings::Sixteen);
    let ending = "8/2k5/3p4/8/4P3/8/2K5/8 w - - 0 1";
    same_search::<Chess>(Variant::Chess, &wide, &[fens[1], ending], 6);
}

#[test]
fn incremental_accumulators_search_as_refreshed_ones_in_extinction() {
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "2bqk1nr/1P5p/8/8/8/8/P6p/RNBQK2R w KQk - 0 1",
    ];
    let net = formula_net(BoardKind::Extinction, HIDDEN, Kings::Plain);
    same_search::<Extinction>(Variant::Extinction, &net, &fens, 5);
    let wide = formula_net(BoardKind::Extinction, 512, Kings::Four);
    same_search::<Extinction>(Variant::Extinction, &wide, &fens, 4);
}
