//! Search tests.

use std::sync::Arc;

use super::*;

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
    let r = vote(results, &shared, Clock::start());
    (r.best, r.lines[0].value, r.depth)
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
    assert_eq!(vote(Vec::new(), &shared, Clock::start()).best, None);
}
