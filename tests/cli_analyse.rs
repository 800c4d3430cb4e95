//! `tally analyse --pgn` end to end: the binary on the games of
//! `positions/analyse/` at depth 2, and what it writes (the SVG chart, the
//! annotated PGN, the HTML report).

use std::path::PathBuf;
use std::process::{Command, Output};

use tally::referee::pgn::{PgnGame, read_games};
use tally::referee::{ScoreRecord, score_input};
use tally::rules::Variant;
use tally::scoring::Scorer;

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

/// Every `[%eval X]` of a PGN text, in order.
fn evals(pgn: &str) -> Vec<String> {
    pgn.split("[%eval ")
        .skip(1)
        .map(|t| t[..t.find(']').unwrap()].to_owned())
        .collect()
}

/// Reads a PGN text back and scores its first game under `variant`.
fn rescore(pgn: &str, variant: Variant) -> (PgnGame, ScoreRecord) {
    let g = read_games(pgn.as_bytes()).unwrap().remove(0);
    assert!(g.problem.is_none(), "{:?}", g.problem);
    let r = score_input(&Scorer::new(variant), &g.input).unwrap();
    (g, r)
}

#[test]
fn the_annotated_pgn_keeps_the_games_headers_and_adds_lichess_evals() {
    let out = temp("chess.pgn");
    analyse("chess.pgn", &["-o", &out]);
    let text = std::fs::read_to_string(&out).unwrap();
    for tag in [
        r#"[Event "Club <Open> & \"Rapid\""]"#,
        r#"[Site "Town Hall"]"#,
        r#"[Date "2024.05.06"]"#,
        r#"[Round "4"]"#,
        r#"[White "Ann"]"#,
        r#"[Black "Ben"]"#,
        r#"[Result "0-1"]"#,
        r#"[ECO "C50"]"#,
        r#"[Opening "Blackburne Shilling Gambit"]"#,
        r#"[Annotator "tally analyse (depth 2)"]"#,
    ] {
        assert!(text.contains(tag), "{tag} in\n{text}");
    }
    // A chess game without a Variant tag gets none, and no tags of ours.
    assert!(!text.contains("[Variant"), "{text}");
    assert!(!text.contains("Points \""), "{text}");
    // One evaluation per ply but the mate, from White's side: White's
    // 7. Be2 walks into mate in one, so Black mates in one.
    let e = evals(&text);
    assert_eq!(e.len(), 13, "{text}");
    assert_eq!(e[12], "#-1", "{text}");
    for v in &e[..12] {
        let pawns: f64 = v.parse().unwrap_or_else(|_| panic!("{v} in\n{text}"));
        let decimals = v.split('.').nth(1).map(str::len);
        assert_eq!(decimals, Some(2), "{v}");
        assert!(pawns.abs() < 100.0, "{v}");
    }
    assert!(text.contains("Nf3# 0-1"), "{text}");
    let (g, r) = rescore(&text, Variant::Chess);
    assert_eq!(g.white.as_deref(), Some("Ann"));
    assert_eq!((r.plies.len(), r.total.black.as_f64()), (14, 1.0));
}

#[test]
fn scoring_variant_evals_are_the_expected_final_margin_in_pawns() {
    let pgn = temp("time.pgn");
    let json = analyse("stylish-time.pgn", &["-o", &pgn]);
    assert!(json.is_empty());
    let text = std::fs::read_to_string(&pgn).unwrap();
    for tag in [
        r#"[White "Greedy <b>"]"#,
        r#"[Variant "stylish"]"#,
        r#"[Termination "Time forfeit"]"#,
        r#"[Result "0-1"]"#,
    ] {
        assert!(text.contains(tag), "{tag} in\n{text}");
    }
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("White lost on time"), "{text}");
    assert!(flat.contains("the result stands whatever the points"));
    assert!(flat.contains("pawns of 5 points"), "{text}");
    // Clocks stay (wacky's time bonus reads them); awards are plain text.
    assert!(text.contains("{[%eval "), "{text}");
    assert!(text.contains("[%clk 0:02:55]"), "{text}");
    assert!(text.contains("+5 (capture)"), "{text}");
    // Each eval is (points banked before the ply + the played value, from
    // White's side) / 5 points per pawn, as --json has it.
    let j: serde_json::Value =
        serde_json::from_str(&analyse("stylish-time.pgn", &["--json"])).unwrap();
    let plies = j["plies"].as_array().unwrap();
    let mut banked = 0.0;
    let mut want = Vec::new();
    for p in plies {
        let sign = if p["mover"] == "white" { 1.0 } else { -1.0 };
        let margin = banked + sign * p["value"]["points"].as_f64().unwrap();
        want.push(format!("{:.2}", margin / 5.0));
        banked =
            p["cumulative"]["white"].as_f64().unwrap() - p["cumulative"]["black"].as_f64().unwrap();
    }
    assert_eq!(evals(&text), want);
    let (g, r) = rescore(&text, Variant::Stylish);
    assert_eq!(g.input.clocks.first(), Some(&Some(175)));
    assert_eq!(
        (r.total.white.as_f64(), r.total.black.as_f64()),
        (35.0, 8.0)
    );
    assert_eq!(
        g.input.result,
        Some(shakmaty::KnownOutcome::Decisive {
            winner: shakmaty::Color::Black
        })
    );
}

#[test]
fn special_actions_stay_comments_without_an_eval() {
    let out = temp("tiebraker.pgn");
    analyse("tiebraker.pgn", &["-o", &out]);
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("{[%action disk]}"), "{text}");
    assert!(text.contains("[Variant \"tiebraker\"]"), "{text}");
    // disk, a6 (an eval), Re8# (the end).
    assert_eq!(evals(&text).len(), 1, "{text}");
    let (_, r) = rescore(&text, Variant::Tiebraker);
    assert_eq!(
        (r.total.white.as_f64(), r.total.black.as_f64()),
        (90.0, 10.0)
    );
}
