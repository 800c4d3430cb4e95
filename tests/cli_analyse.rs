//! `tally analyse --pgn` end to end: the binary on the games of
//! `positions/analyse/` at depth 2, and what it writes (the SVG chart, the
//! annotated PGN, the HTML report).

use std::path::PathBuf;
use std::process::{Command, Output};

fn tally(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tally"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run tally")
}

fn game(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("positions/analyse")
        .join(name)
        .display()
        .to_string()
}

fn temp(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("tally-cli-analyse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).display().to_string()
}

/// Runs `tally analyse --pgn GAME --depth 2 --quiet` with `extra`
/// arguments and checks that it succeeds.
fn analyse(name: &str, extra: &[&str]) -> String {
    let pgn = game(name);
    let mut args = vec!["analyse", "--pgn", &pgn, "--depth", "2", "--quiet"];
    args.extend_from_slice(extra);
    let o = tally(&args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn the_chart_is_titled_for_what_it_draws_and_marks_a_loss_on_time() {
    let svg = temp("time.svg");
    analyse(
        "stylish-time.pgn",
        &["--svg", &svg, "-o", &temp("time.pgn")],
    );
    let chart = std::fs::read_to_string(&svg).unwrap();
    assert!(chart.contains("cumulative points"), "{chart}");
    assert!(!chart.contains("points per ply"));
    assert!(chart.contains("0-1: White lost on time, though ahead on points"));
    assert!(chart.contains("Greedy &lt;b&gt; (White) points"));
}
