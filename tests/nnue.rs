//! The net in the search: a search whose accumulators are updated move by
//! move (and carried over null moves) visits the same nodes and finds the
//! same line and value as one that sums every piece afresh at every
//! evaluation, in chess and in extinction.

use std::sync::Arc;
use std::time::Duration;

use shakmaty::Chess;
use tally::eval::{EvalMode, Evaluate, Evaluator, Units};
use tally::nnue::{FEATURES, HIDDEN, Head, Network};
use tally::rules::{BoardKind, Extinction, Game, Node, Pos, Rules, Variant};
use tally::scoring::{Memo, Scorer};
use tally::search::{Limits, SearchJob, SearchResult, Shared, Silent, Tt, search};

/// A net whose weights follow a formula (varied enough to rank moves).
fn formula_net(board: BoardKind) -> Arc<Network> {
    let rows = (0..FEATURES)
        .map(|f| std::array::from_fn(|j| ((f * 7 + j * 13) % 61) as i16 - 30))
        .collect();
    let head = Head {
        weights: std::array::from_fn(|s| {
            std::array::from_fn(|j| ((s * 5 + j * 3) % 41) as i16 - 20)
        }),
        bias: 100,
    };
    Arc::new(Network::new(board, rows, [40; HIDDEN], vec![head]).unwrap())
}

/// The evaluator with no state: every evaluation refreshes.
struct Refresh(Evaluator);

impl<P: Pos> Evaluate<P> for Refresh {
    type State = ();

    fn evaluate(&self, node: &Node<P>, memo: &Memo) -> i32 {
        self.0.evaluate(node, memo)
    }

    fn root_state(&self, _node: &Node<P>) {}

    fn child_state(&self, _: &Node<P>, _: &(), _: &Node<P>, _: &mut ()) {}
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

fn same_search<P: Pos>(variant: Variant, fens: &[&str], depth: i32) {
    let rules = Rules::<P>::new(variant);
    let scorer = Scorer::new(variant);
    let net = formula_net(BoardKind::of(variant));
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
    same_search::<Chess>(
        Variant::Chess,
        &[
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/pPp3pp/8/3pP3/8/8/PpP3PP/R3K2R w KQkq d6 0 1",
            "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        ],
        6,
    );
}

#[test]
fn incremental_accumulators_search_as_refreshed_ones_in_extinction() {
    same_search::<Extinction>(
        Variant::Extinction,
        &[
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "2bqk1nr/1P5p/8/8/8/8/P6p/RNBQK2R w KQk - 0 1",
        ],
        5,
    );
}
