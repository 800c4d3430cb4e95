//! Search tests: the threads, the stop flag, the clock and the vote, driven
//! at this level so a test can hold the shared state (the facade keeps it).

use std::sync::Arc;
use std::sync::mpsc;
use std::time::Duration;

use shakmaty::Chess;

use super::*;
use crate::eval::{EvalMode, Evaluator};
use crate::rules::{Game, Variant};

/// A job for the start position of chess under `limits`.
fn job(limits: Limits) -> SearchJob<Chess, Scorer, Evaluator> {
    let rules = Rules::<Chess>::new(Variant::Chess);
    let game = Game::from_node(rules, rules.start());
    let scorer = Scorer::new(Variant::Chess);
    SearchJob {
        rules,
        evaluator: Evaluator::new(&scorer, EvalMode::Variant),
        units: Units::of(&scorer),
        scorer,
        root: game.current().clone(),
        root_memo: Memo::default(),
        history: game.history().to_vec(),
        root_actions: game.legal_actions().to_vec(),
        limits,
        multipv: 1,
        overhead: Duration::ZERO,
        tablebases: None,
    }
}

/// Runs a search on its own thread, failing after a minute rather than
/// hanging the test run.
fn search_with_watchdog(
    job: SearchJob<Chess, Scorer, Evaluator>,
    shared: Arc<Shared>,
    threads: usize,
    reporter: Arc<dyn Reporter>,
) -> SearchResult {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("pool");
        let _ = tx.send(search(&job, &shared, &pool, threads, &*reporter));
    });
    rx.recv_timeout(Duration::from_secs(60))
        .expect("the search did not end")
}

/// A reporter that keeps the main thread until the search is stopped, as
/// a main thread that gets no turn on a core would be kept.
struct Stuck(Arc<Shared>);

impl Reporter for Stuck {
    fn line(&self, _line: &PvLine, _stats: &Stats) {
        while !self.0.stop.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

#[test]
fn the_clock_holds_while_the_main_thread_is_kept_from_it() {
    let limits = Limits {
        movetime: Some(Duration::from_millis(1)),
        ..Limits::default()
    };
    let shared = Arc::new(Shared::new(Arc::new(Tt::new(1)), 2));
    let reporter = Arc::new(Stuck(shared.clone()));
    let r = search_with_watchdog(job(limits), shared.clone(), 2, reporter);
    assert!(shared.stop.load(Ordering::SeqCst));
    let best = r.best.expect("a best action");
    assert!(job(Limits::default()).root_actions.contains(&best));
}

#[test]
fn a_soft_node_limit_ends_the_search_between_iterations() {
    let run = |limits: Limits| {
        let shared = Arc::new(Shared::new(Arc::new(Tt::new(1)), 1));
        search_with_watchdog(job(limits), shared, 1, Arc::new(Silent))
    };
    let soft = run(Limits {
        soft_nodes: Some(20_000),
        nodes: Some(10_000_000),
        ..Limits::default()
    });
    assert!(
        soft.nodes >= 20_000 && soft.nodes < 10_000_000,
        "{}",
        soft.nodes
    );
    // It stopped after a whole iteration: a search to that depth is the
    // same search, node for node.
    let fixed = run(Limits::depth(soft.depth));
    assert_eq!((fixed.nodes, fixed.best), (soft.nodes, soft.best));
    // The hard cap still holds within an iteration.
    let capped = run(Limits {
        soft_nodes: Some(20_000),
        nodes: Some(20_000),
        ..Limits::default()
    });
    assert!(capped.nodes <= 20_000 + 64, "{}", capped.nodes);
}

#[test]
fn a_stopped_search_completes_depth_one_and_no_more() {
    let shared = Arc::new(Shared::new(Arc::new(Tt::new(1)), 4));
    shared.stop();
    let r = search_with_watchdog(job(Limits::default()), shared, 4, Arc::new(Silent));
    // The main thread's answer is searched (depth 1, the same nodes as a
    // search to depth 1), and it goes no deeper.
    assert_eq!(r.depth, 1);
    let one = search_with_watchdog(
        job(Limits::depth(1)),
        Arc::new(Shared::new(Arc::new(Tt::new(1)), 1)),
        1,
        Arc::new(Silent),
    );
    assert_eq!((r.nodes, r.best), (one.nodes, one.best));
    let best = r.best.expect("a best action");
    assert!(job(Limits::default()).root_actions.contains(&best));
}

#[test]
fn many_more_threads_than_cores_stop_on_the_clock() {
    let limits = Limits {
        movetime: Some(Duration::from_millis(50)),
        ..Limits::default()
    };
    let shared = Arc::new(Shared::new(Arc::new(Tt::new(1)), 64));
    let r = search_with_watchdog(job(limits), shared.clone(), 64, Arc::new(Silent));
    assert!(shared.stop.load(Ordering::SeqCst));
    assert!(r.best.is_some());
}

#[test]
fn pondering_ignores_the_clock_until_ponderhit() {
    let limits = Limits {
        movetime: Some(Duration::from_millis(1)),
        ponder: true,
        ..Limits::default()
    };
    let shared = Arc::new(Shared::new(Arc::new(Tt::new(1)), 2));
    shared.pondering.store(true, Ordering::SeqCst);
    let (tx, rx) = mpsc::channel();
    let (s, j) = (shared.clone(), job(limits));
    std::thread::spawn(move || {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .expect("pool");
        let _ = tx.send(search(&j, &s, &pool, 2, &Silent));
    });
    // Still pondering after many times the move time: no result yet.
    assert!(rx.recv_timeout(Duration::from_millis(50)).is_err());
    assert!(!shared.stop.load(Ordering::SeqCst));
    shared.ponderhit();
    let r = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("ponderhit starts the clock");
    assert!(r.best.is_some());
}

#[test]
fn the_callers_flag_stops_a_search_and_is_never_set_by_it() {
    let flag = Arc::new(AtomicBool::new(false));
    let tt = Arc::new(Tt::new(1));
    let shared = Arc::new(Shared::with_stop_flag(tt.clone(), 1, flag.clone()));
    let r = search_with_watchdog(job(Limits::depth(2)), shared, 1, Arc::new(Silent));
    assert_eq!(r.depth, 2);
    assert!(!flag.load(Ordering::SeqCst));
    flag.store(true, Ordering::SeqCst);
    let shared = Arc::new(Shared::with_stop_flag(tt, 1, flag));
    let endless = Limits {
        infinite: true,
        ..Limits::default()
    };
    let r = search_with_watchdog(job(endless), shared, 1, Arc::new(Silent));
    assert!(r.best.is_some());
}

/// A thread's result: one line led by `best`, worth `value`, at `depth`.
fn thread(best: Action, value: i32, depth: i32) -> ThreadResult {
    ThreadResult {
        lines: vec![PvLine {
            multipv: 1,
            depth,
            seldepth: depth,
            value,
            bound: None,
            pv: vec![best, Action::Restore],
        }],
        depth,
    }
}

fn voted(results: Vec<ThreadResult>) -> (Option<Action>, i32, i32) {
    let shared = Shared::new(Arc::new(Tt::new(1)), 4);
    let r = vote(results, &shared, Clock::start(), 1, &Silent);
    (r.best, r.lines[0].value, r.depth)
}

/// Keeps the lines reported.
#[derive(Default)]
struct Record(std::sync::Mutex<Vec<PvLine>>);

impl Reporter for Record {
    fn line(&self, line: &PvLine, _stats: &Stats) {
        self.0.lock().unwrap().push(line.clone());
    }
}

#[test]
fn the_vote_follows_depth_and_value() {
    let (a, b) = (Action::Disk, Action::Swap);
    // Alone, the main thread decides.
    assert_eq!(voted(vec![thread(a, 10, 8)]), (Some(a), 10, 8));
    // Two deeper helpers agree on another action: it wins.
    assert_eq!(
        voted(vec![thread(a, 10, 8), thread(b, 30, 9), thread(b, 25, 9)]),
        (Some(b), 30, 9)
    );
    // A shallower helper cannot outvote the main thread's depth.
    assert_eq!(
        voted(vec![thread(a, 10, 9), thread(b, 30, 8), thread(b, 30, 8)]),
        (Some(a), 10, 9)
    );
    // A proven win beats any estimate, whatever the depth.
    let won = MATE - 3 * MATE_STEP;
    assert_eq!(
        voted(vec![thread(a, 10, 12), thread(b, won, 4)]),
        (Some(b), won, 4)
    );
    // No thread finished: nothing to play.
    let shared = Shared::new(Arc::new(Tt::new(1)), 1);
    assert_eq!(
        vote(Vec::new(), &shared, Clock::start(), 1, &Silent).best,
        None
    );
}

#[test]
fn a_helpers_line_that_wins_the_vote_is_reported_again() {
    let (a, b) = (Action::Disk, Action::Swap);
    let shared = Shared::new(Arc::new(Tt::new(1)), 4);
    let results = || vec![thread(a, 10, 8), thread(b, 30, 9), thread(b, 25, 9)];
    let record = Record::default();
    let r = vote(results(), &shared, Clock::start(), 1, &record);
    assert_eq!(r.best, Some(b));
    assert_eq!(*record.0.lock().unwrap(), r.lines);
    // The main thread's own line was reported by it already.
    let record = Record::default();
    let r = vote(vec![thread(a, 10, 8)], &shared, Clock::start(), 1, &record);
    assert_eq!(r.best, Some(a));
    assert!(record.0.lock().unwrap().is_empty());
    // With several lines the main thread's ranking, reported, stands.
    let r = vote(results(), &shared, Clock::start(), 3, &record);
    assert_eq!((r.best, r.depth), (Some(a), 8));
    assert!(record.0.lock().unwrap().is_empty());
}
