//! `tally analyse --pgn` end to end: the binary on the games of
//! `positions/analyse/` at depth 2, and what it writes (the SVG chart, the
//! annotated PGN, the HTML report).

use std::path::PathBuf;

use crate::common::cli;
use cli::tally;

use tally::pgn::{PgnGame, read_games};
use tally::referee::{ScoreRecord, score_input};
use tally::rules::Variant;
use tally::scoring::Scorer;

fn game(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("positions/analyse")
        .join(name)
        .display()
        .to_string()
}

fn temp(name: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("tally-cli-analyse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).display().to_string()
}

/// Runs `tally analyse --pgn GAME --depth 2 --threads 1 --quiet` with
/// `extra` arguments and checks that it succeeds. One thread: the tests
/// compare the values of two runs, which several threads need not repeat.
fn analyse(name: &str, extra: &[&str]) -> String {
    let pgn = game(name);
    let mut args = vec![
        "analyse",
        "--pgn",
        &pgn,
        "--depth",
        "2",
        "--threads",
        "1",
        "--quiet",
    ];
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

/// Checks that `html` is one well-formed document: every element closed in
/// order (void elements and `/>` aside; script and style bodies skipped).
/// Returns the element names in document order.
fn elements(html: &str) -> Vec<String> {
    const VOID: [&str; 5] = ["meta", "br", "img", "input", "link"];
    let mut open: Vec<String> = Vec::new();
    let mut seen = Vec::new();
    let mut rest = html;
    while let Some(i) = rest.find('<') {
        rest = &rest[i..];
        let end = rest.find('>').expect("every tag ends");
        let tag = &rest[1..end];
        rest = &rest[end + 1..];
        if tag.starts_with('!') {
            continue;
        }
        if let Some(name) = tag.strip_prefix('/') {
            let top = open
                .pop()
                .unwrap_or_else(|| panic!("</{name}> closes nothing"));
            assert_eq!(top, name, "</{name}> closes <{top}>");
            continue;
        }
        let name: String = tag
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        assert!(!name.is_empty(), "a tag without a name: <{tag}>");
        seen.push(name.clone());
        if tag.ends_with('/') || VOID.contains(&name.as_str()) {
            continue;
        }
        if name == "script" || name == "style" {
            let close = format!("</{name}>");
            let k = rest.find(&close).expect("raw text ends");
            rest = &rest[k + close.len()..];
            continue;
        }
        open.push(name);
    }
    assert!(open.is_empty(), "left open: {open:?}");
    seen
}

/// The value of every `attr="..."` of the elements that have `marker` in
/// their start tag, in order.
fn attrs(html: &str, marker: &str, attr: &str) -> Vec<String> {
    html.split('<')
        .filter(|t| t.contains(marker))
        .filter_map(|t| {
            let start = t.find(&format!(" {attr}=\""))? + attr.len() + 3;
            Some(t[start..start + t[start..].find('"')?].to_owned())
        })
        .collect()
}

/// Runs the analysis with `--html` and `--json`; returns the page and the
/// JSON.
fn report(name: &str) -> (String, serde_json::Value) {
    let path = temp(&format!("{name}.html"));
    let json = analyse(name, &["--html", &path, "--json"]);
    let page = std::fs::read_to_string(&path).unwrap();
    (page, serde_json::from_str(&json).unwrap())
}

/// The checks every report passes: one self-contained document, a board
/// and a panel for every point of the game, every move in the list.
fn common_checks(page: &str, j: &serde_json::Value) {
    assert!(page.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"));
    let names = elements(page);
    for one in ["html", "head", "body", "main", "script", "style"] {
        assert_eq!(names.iter().filter(|n| *n == one).count(), 1, "<{one}>");
    }
    // Nothing from outside: no addresses, no sources, only local references.
    for outside in ["http:", "https:", "src=", "@import", "//"] {
        assert!(!page.contains(outside), "{outside}");
    }
    assert!(page.split("url(").skip(1).all(|t| t.starts_with('#')));
    assert!(page.split("href=\"").skip(1).all(|t| t.starts_with('#')));
    let plies = j["plies"].as_array().unwrap();
    let n = plies.len();
    let want: Vec<String> = (0..=n).map(|i| i.to_string()).collect();
    assert_eq!(attrs(page, "class=\"board\"", "data-ply"), want);
    assert_eq!(attrs(page, "class=\"info\"", "data-ply"), want);
    assert_eq!(attrs(page, "class=\"mv ", "data-ply"), want[1..]);
    let sans: Vec<String> = plies
        .iter()
        .map(|p| p["san"].as_str().unwrap().to_owned())
        .collect();
    let listed: Vec<String> = page
        .split("<span class=\"san\">")
        .skip(1)
        .map(|t| t[..t.find('<').unwrap()].to_owned())
        .collect();
    assert_eq!(listed, sans);
    // The chart, twice (wide and narrow), each with a position per point.
    let xs = attrs(page, "class=\"chart-view", "data-xs");
    assert_eq!(xs.len(), 2);
    assert!(xs.iter().all(|x| x.split(',').count() == n + 1));
    assert_eq!(page.matches("class=\"cursor\"").count(), 2);
}

#[test]
fn the_html_report_shows_a_loss_on_time_as_a_loss() {
    let (page, j) = report("stylish-time.pgn");
    common_checks(&page, &j);
    assert!(
        page.contains("<title>Greedy &lt;b&gt; – Quick &amp; Co, stylish: tally analyse</title>")
    );
    assert!(!page.contains("Greedy <b>"));
    assert!(page.contains(
        "<span class=\"token\">0-1</span> <strong>White lost on time: Black wins</strong>. \
         Points: White 35, Black 8."
    ));
    assert!(page.contains("White had more points (35 to 8), but the result stands"));
    // The totals: White lost with 35 points, Black won with 8.
    let rows: Vec<&str> = page.split("<tr>").skip(2).collect();
    assert_eq!(rows.len(), 2);
    assert!(
        rows[0].contains("White</span> Greedy &lt;b&gt;"),
        "{}",
        rows[0]
    );
    assert!(rows[0].contains("<td class=\"res lost\">lost</td><td class=\"num\">35</td>"));
    assert!(rows[1].contains("<td class=\"res won\">won</td><td class=\"num\">8</td>"));
    // The awards and their events as the referee names them: 8. Nxb5
    // takes a queen for 20.
    assert!(page.contains("<h2>8.Nxb5 <span class=\"by\">White (Greedy &lt;b&gt;)</span></h2>"));
    assert!(page.contains("<dt>Earned</dt><dd><strong>+20</strong> to White (capture)</dd>"));
    // Every ply says what the best action was and what was given away.
    assert_eq!(page.matches("<dt>Best</dt>").count(), 17);
    assert_eq!(page.matches("<dt>Given away</dt>").count(), 17);
}

#[test]
fn the_html_report_draws_every_variant_board() {
    // Chess: the mate, its check highlight, the last move.
    let (page, j) = report("chess.pgn");
    common_checks(&page, &j);
    assert!(page.contains("Checkmate, Black wins"));
    let last_board = page.split("data-ply=\"14\"").nth(1).unwrap();
    assert!(last_board.contains("url(#tally-check)"));
    // Extinction: a second white king after 1. a8=K, and an unfinished game.
    let (page, j) = report("extinction.pgn");
    common_checks(&page, &j);
    let boards: Vec<&str> = page.split("<svg class=\"board\"").skip(1).collect();
    let white_kings = |b: &str| b[..b.find("</svg>").unwrap()].matches('\u{2654}').count();
    assert_eq!(
        boards.iter().map(|b| white_kings(b)).collect::<Vec<_>>(),
        [1, 2, 1, 1, 1, 1, 1, 1]
    );
    assert!(page.contains("<strong>Game not finished</strong>"));
    // Tiebraker: the disk is a special action, not a board move; the page
    // is safe from a hostile tag.
    let (page, j) = report("tiebraker.pgn");
    common_checks(&page, &j);
    assert_eq!(page.matches("special action, not a board move").count(), 1);
    assert!(page.contains("disk: this king is frozen"));
    assert!(page.contains("&lt;/script&gt;&lt;script&gt;alert(1)"));
    assert_eq!(page.matches("<script>").count(), 1);
    assert!(page.contains("<td class=\"num\">90</td>"));
}

#[test]
fn outputs_are_checked_before_the_game_is_read() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    for (flag, out, want) in [
        ("--html", "/nonexistent/r.html", "/nonexistent"),
        ("--svg", "/nonexistent/r.svg", "/nonexistent"),
        ("-o", "/nonexistent/a.pgn", "/nonexistent"),
        ("--html", dir.to_str().unwrap(), "is a directory"),
    ] {
        let run = tally(&[
            "analyse",
            "--pgn",
            "/nonexistent/g.pgn",
            "--depth",
            "1",
            flag,
            out,
        ]);
        let e = cli::stderr(&run);
        assert_eq!(run.status.code(), Some(2), "{flag} {out}: {e}");
        assert!(
            e.contains(want) && e.contains(flag) && !e.contains("g.pgn"),
            "{flag}: {e}"
        );
    }
}

/// An output that is the PGN read, another output or `-`, and the
/// whole-game outputs given in position mode, are refused before anything
/// is read or written; a game whose totals pass 10^15 is refused as
/// `tally score` refuses it.
#[test]
fn outputs_never_destroy_an_input_and_position_mode_has_none() {
    let pgn = temp("three.pgn");
    std::fs::copy(game("chess.pgn"), &pgn).unwrap();
    let before = std::fs::read(&pgn).unwrap();
    let svg = temp("same.svg");
    let cases: [(&[&str], &str); 6] = [
        (&["-o", &pgn], "is also --pgn"),
        (&["--svg", &pgn], "is also --pgn"),
        (&["--html", &pgn], "is also --pgn"),
        (&["--svg", &svg, "--html", &svg], "are one file"),
        (&["-o", "-"], "give a file name"),
        (&["--ply", "2", "-o", &svg], "whole-game mode"),
    ];
    for (extra, want) in cases {
        let mut args = vec!["analyse", "--pgn", &pgn, "--depth", "1"];
        args.extend_from_slice(extra);
        cli::refused(&tally(&args), want, &format!("{extra:?}"));
    }
    assert_eq!(std::fs::read(&pgn).unwrap(), before);
    assert!(!std::path::Path::new(&svg).exists());
    let fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
    for extra in [["--svg", svg.as_str()], ["--big-miss", "5"]] {
        let mut args = vec!["analyse", "--fen", fen, "--depth", "1"];
        args.extend_from_slice(&extra);
        cli::refused(&tally(&args), "whole-game mode", extra[0]);
    }
    let clk = temp("clk.pgn");
    std::fs::write(
        &clk,
        "[Variant \"wacky\"]\n\n1. f3 e5 2. g4 Qh4# {[%clk 9000000000000:00:00]} 0-1\n",
    )
    .unwrap();
    let run = tally(&["analyse", "-v", "wacky", "--pgn", &clk, "--depth", "1"]);
    cli::refused(&run, "passes 10^15", "a clock worth more than 10^15");
}

#[test]
fn a_game_past_its_repetition_says_so_and_bidi_controls_are_escaped() {
    // Threefold repetition after 4...Ng8 (ply 8); two more moves follow.
    let pgn = temp("bidi-repetition.pgn");
    std::fs::write(
        &pgn,
        "[Event \"Rep\u{202e}eat\"]\n[White \"Ann\u{202e}nnA\"]\n[Black \"B\u{2066}en\u{2069}\u{200f}\"]\n\
         [Result \"*\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 e5 *\n",
    )
    .unwrap();
    let (html, svg, out) = (temp("bidi.html"), temp("bidi.svg"), temp("bidi.pgn"));
    let o = tally(&[
        "analyse", "--pgn", &pgn, "--depth", "1", "--quiet", "--html", &html, "--svg", &svg, "-o",
        &out,
    ]);
    let e = cli::stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{e}");
    assert!(
        e.contains("ended at ply 8") && e.contains("2 later actions"),
        "{e}"
    );
    let bidi = |c: char| matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{061c}');
    for path in [&html, &svg] {
        let text = std::fs::read_to_string(path).unwrap();
        assert!(!text.chars().any(bidi), "{path} holds a bidi control");
        assert!(text.contains("Ann"), "{path}");
    }
}

/// Output to a reader that has gone (`tally analyse | head -1`) ends
/// quietly: no panic, exit code 0.
#[test]
fn a_closed_output_pipe_is_not_a_panic() {
    for args in [
        &["analyse", "--depth", "1", "--threads", "1", "--quiet"][..],
        &["score", "--moves", "e2e4"][..],
    ] {
        let mut child = cli::command()
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
    }
}

/// `--big-miss` is a number of points above 0; a game where one side
/// never moved has missed 0 points, not "-0".
#[test]
fn big_miss_bounds_and_no_negative_zero() {
    let pgn = temp("one-ply.pgn");
    std::fs::write(&pgn, "1. e4 *\n").unwrap();
    for b in ["nan", "inf", "-5", "0"] {
        let out = tally(&[
            "analyse",
            "--pgn",
            &pgn,
            "--depth",
            "1",
            &format!("--big-miss={b}"),
        ]);
        cli::refused(&out, "give a number of points above 0", b);
    }
    let out = tally(&[
        "analyse", "--pgn", &pgn, "--depth", "1", "--json", "--quiet",
    ]);
    let text = cli::stdout(&out);
    assert!(text.contains("\"missed\":{\"black\":0.0,"), "{text}");
    assert!(!text.contains("-0.0"), "{text}");
}
