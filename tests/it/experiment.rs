//! The experiment scripts of `experiments/` run end to end at toy sizes
//! (one or two openings, the cheapest levels, a few hundred nodes), with
//! the `tally` built for the tests, and `tally experiment` makes their
//! tables and figures. Fixed nodes and levels: nothing depends on timing.

use std::path::{Path, PathBuf};
use std::process::Command;

fn tally() -> &'static str {
    env!("CARGO_BIN_EXE_tally")
}

fn out_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("tally-experiment-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `experiments/SCRIPT` from the repository's root with `env`, the
/// test's tally and `out` as OUT.
fn script(name: &str, out: &Path, env: &[(&str, &str)]) {
    let root = env!("CARGO_MANIFEST_DIR");
    let status = Command::new("sh")
        .arg(format!("experiments/{name}"))
        .current_dir(root)
        .env("TALLY", tally())
        .env("OUT", out)
        .envs(env.iter().copied())
        .status()
        .expect("sh runs");
    assert!(status.success(), "{name}: {status}");
}

/// `tally experiment ARGS`: its standard output.
fn experiment(args: &[&str]) -> String {
    let out = Command::new(tally())
        .arg("experiment")
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn results(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| {
            let p = e.ok()?.path();
            (p.extension()? == "json").then(|| p.display().to_string())
        })
        .collect();
    v.sort();
    v
}

fn svg_ok(path: &Path) {
    let svg = std::fs::read_to_string(path).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("</svg>"), "{svg}");
}

#[test]
fn the_handicap_measurement_and_fit_run_and_make_their_tables() {
    let out = out_dir("handicap");
    script(
        "sets-gap.sh",
        &out,
        &[("LEVELS", "1000"), ("GAPS", "0 200"), ("OPENINGS", "1")],
    );
    let files = results(&out.join("sets-gap"));
    assert_eq!(files.len(), 2, "{files:?}");
    let svg = out.join("gap.svg");
    let mut args = vec!["gap", "--svg", svg.to_str().unwrap()];
    args.extend(files.iter().map(String::as_str));
    let table = experiment(&args);
    // A header, its rule and one row a gap: level 1000, 2 games each.
    let rows: Vec<&str> = table.lines().collect();
    assert_eq!(rows.len(), 4, "{table}");
    assert!(rows[2].starts_with("| 1000 | 0 | - | 2 |"), "{table}");
    assert!(rows[3].starts_with("| 1000 | 200 | - | 2 |"), "{table}");
    svg_ok(&svg);

    script(
        "sets-handicap-fit.sh",
        &out,
        &[
            ("LEVELS", "1000"),
            ("GAPS", "200"),
            ("GRID", "1 4"),
            ("OPENINGS", "1"),
        ],
    );
    let files = results(&out.join("sets-fit"));
    assert_eq!(files.len(), 2, "{files:?}");
    let svg = out.join("fit.svg");
    let mut args = vec!["fit", "--svg", svg.to_str().unwrap()];
    args.extend(files.iter().map(String::as_str));
    let table = experiment(&args);
    assert!(table.contains("| 1000 | 200 | 1: "), "{table}");
    assert!(table.contains("; 4: "), "{table}");
    svg_ok(&svg);
    // The handicapped runs' points: the weaker player's values are the
    // factor's (a mate pays it 8 at factor 4, a draw 2, ...), so every
    // point it scores at factor 4 is a multiple of a half times 4.
    let json = experiment(&["gap", "--json", &files[1]]);
    let rows: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(rows[0]["factor"], 4.0);
    assert_eq!(rows[0]["margin"]["n"], 2);

    // The confirmation plays the handicap table: its row names the
    // table's factor of the gap.
    script(
        "sets-handicap-confirm.sh",
        &out,
        &[("RUNS", "1000:200:4001:1"), ("OPENINGS", "1")],
    );
    let files = results(&out.join("sets-confirm"));
    assert_eq!(files.len(), 1, "{files:?}");
    let json = experiment(&["gap", "--json", &files[0]]);
    let rows: serde_json::Value = serde_json::from_str(&json).unwrap();
    let factor = tally::scoring::variants::sets::handicap_factor(
        tally::scoring::variants::sets::HandicapGap {
            gap: 200,
            weaker_elo: 1000,
        },
    )
    .unwrap();
    assert_eq!(rows[0]["factor"], factor as f64 / 1000.0);
    assert_eq!(rows[0]["gap"], 200);
    assert_eq!(rows[0]["margin"]["n"], 2);
}

#[test]
fn the_draws_experiment_runs_and_makes_its_table() {
    let out = out_dir("draws");
    script(
        "draws.sh",
        &out,
        &[
            ("LEVELS", "full"),
            ("NODES", "300"),
            ("OPENINGS", "2"),
            ("VARIANTS", "chess dynamic tiebraker"),
        ],
    );
    let files = results(&out.join("draws"));
    assert_eq!(files.len(), 3, "{files:?}");
    let (tied, rule) = (out.join("tied.svg"), out.join("rule.svg"));
    let mut args = vec![
        "draws",
        "--svg",
        tied.to_str().unwrap(),
        "--rule-svg",
        rule.to_str().unwrap(),
    ];
    args.extend(files.iter().map(String::as_str));
    let table = experiment(&args);
    for v in ["chess", "dynamic", "tiebraker"] {
        assert!(
            table.contains(&format!("| full (nodes=300) | {v} | 2 |")),
            "{table}"
        );
    }
    // The disk table pairs tiebraker with dynamic.
    assert!(table.contains("dynamic ties"), "{table}");
    svg_ok(&tied);
    svg_ok(&rule);
}

#[test]
fn the_style_experiment_runs_and_makes_its_table() {
    let out = out_dir("style");
    script(
        "style.sh",
        &out,
        &[("LEVELS", "full"), ("NODES", "300"), ("OPENINGS", "1")],
    );
    let files = results(&out.join("style"));
    assert_eq!(files.len(), 1, "{files:?}");
    let svg = out.join("style.svg");
    let table = experiment(&["style", "--svg", svg.to_str().unwrap(), &files[0]]);
    assert!(table.contains("| variant vs base | 2 |"), "{table}");
    assert!(table.contains("| variant vs chess | 2 |"), "{table}");
    svg_ok(&svg);
}
