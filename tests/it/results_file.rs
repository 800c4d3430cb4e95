//! The results file's lock and repair, in a test binary of its own.
//!
//! It must be alone: a test in the same process that starts a child
//! process (as the match tests do) gives the child a copy of every open
//! descriptor until it executes its program, and a copy of the results
//! file holds its lock. A reopen right after a close could then be
//! refused, as it once was on CI.

use crate::common::cli;

use tally::matches::Experiment;
use tally::matches::results::{FORMAT, Header, open};

fn header() -> Header {
    Header {
        format: FORMAT,
        experiment: Experiment {
            variant: "chess".into(),
            players: vec!["a".into(), "b".into()],
            control: "depth=1".into(),
            openings: "1 0".into(),
            games: 2,
            draw_advantage: "black".into(),
            tables: "0".into(),
            chess960: false,
            tournament: None,
            contest: None,
            contests: None,
            weaker: None,
            no_reverse: false,
            handicap: None,
        },
        shard: None,
    }
}

#[test]
fn open_repairs_the_end_and_locks() {
    let dir = cli::scratch("results");
    let path = dir.join("r.json");
    // An empty file gets the header, one line.
    std::fs::write(&path, "").unwrap();
    drop(open(&path, &header()).unwrap());
    let text = std::fs::read_to_string(&path).unwrap();
    let line = text.strip_suffix('\n').unwrap().to_string();
    assert!(
        !line.contains('\n') && line.contains("\"type\":\"header\""),
        "{text}"
    );
    // A whole last line without its end is kept and ended.
    std::fs::write(&path, &line).unwrap();
    let opened = open(&path, &header()).unwrap();
    assert_eq!(opened.repaired, None);
    assert_eq!(opened.header, header());
    // A second run is refused while the first holds the file.
    let second = open(&path, &header()).unwrap_err();
    assert!(second.contains("in use by another run"), "{second}");
    drop(opened);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), format!("{line}\n"));
    // A cut last line is removed, with a warning.
    std::fs::write(&path, format!("{line}\n{{\"type\":\"game\",\"ind")).unwrap();
    let opened = open(&path, &header()).unwrap();
    assert!(
        opened
            .repaired
            .as_ref()
            .is_some_and(|w| w.contains("(19 bytes;"))
    );
    assert!(opened.games.is_empty());
    drop(opened);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), format!("{line}\n"));
    // A file that is not a results file is refused and left as it was:
    // neither its last line cut nor an end added.
    for text in ["l1\nl2\nl3\n", "l1\nl2\nl3", "notes"] {
        std::fs::write(&path, text).unwrap();
        let e = open(&path, &header()).unwrap_err();
        assert!(e.contains("line 1: not a match record"), "{e}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
