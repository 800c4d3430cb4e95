//! `tally rules` end to end: the dump of each variant's tables, a rules
//! file's effect on it, the dump-edit-load round trip through `tally
//! score`, and its errors.

use std::path::PathBuf;

use crate::common::cli;
use cli::{stderr, stdout, tally};

use tally::rules::Variant;
use tally::scoring::Tables;

/// A scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("tally-cli-rules-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The section headers of a dump.
fn headers(text: &str) -> Vec<&str> {
    text.lines().filter(|l| l.starts_with('[')).collect()
}

#[test]
fn every_variant_by_default_or_all() {
    let o = tally(&["rules"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    let expected: Vec<String> = Variant::ALL.iter().map(|v| format!("[{v}]")).collect();
    assert_eq!(headers(&text), expected);
    assert_eq!(Tables::from_toml(&text).unwrap(), Tables::default());
    assert_eq!(stdout(&tally(&["rules", "all"])), text);
}

#[test]
fn one_variant_loads_back() {
    for v in Variant::ALL {
        let o = tally(&["rules", v.id()]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let text = stdout(&o);
        assert_eq!(headers(&text), [format!("[{v}]")], "{text}");
        assert_eq!(Tables::from_toml(&text).unwrap(), Tables::default(), "{v}");
    }
}

#[test]
fn a_rules_file_shows_its_effect() {
    let dir = scratch("effect");
    let file = dir.join("mine.toml");
    std::fs::write(&file, "[dynamic]\nstalemate = [70, 30]\n").unwrap();
    let o = tally(&["rules", "dynamic", "--rules", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("\nstalemate = [70, 30]\n"), "{text}");
    assert!(text.contains("\nmate = [100, 0]\n"), "{text}");
    assert!(text.contains("mine.toml applied"), "{text}");
    assert_eq!(
        Tables::from_toml(&text).unwrap(),
        Tables::from_file(&file).unwrap()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn dump_edit_score() {
    // The user's path: dump stylish, make a rook mate from afar worth 999,
    // score a back-rank mate with the edited file.
    let dir = scratch("edit");
    let dump = stdout(&tally(&["rules", "stylish"]));
    let edited = dump.replace("mate.rook = [90, 110]", "mate.rook = [90, 999]");
    assert_ne!(edited, dump);
    let file = dir.join("stylish.toml");
    std::fs::write(&file, edited).unwrap();
    let score = |rules: Option<&str>| {
        let mut args = vec![
            "score",
            "-v",
            "stylish",
            "--json",
            "--fen",
            "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
            "--moves",
            "a1a8",
        ];
        args.extend(rules.map(|r| ["--rules", r]).into_iter().flatten());
        let o = tally(&args);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        v["total"]["white"].clone()
    };
    assert_eq!(score(None), 110);
    assert_eq!(score(file.to_str()), 999);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let dir = scratch("bad");
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "[sets]\nmat = 3\n").unwrap();
    let missing = dir.join("missing.toml");
    for (args, needle) in [
        (vec!["rules", "styl"], "unknown variant 'styl'"),
        (
            vec!["rules", "sets", "--rules", bad.to_str().unwrap()],
            "line 2, column 1: unknown key",
        ),
        (
            vec!["rules", "--rules", missing.to_str().unwrap()],
            "missing.toml",
        ),
    ] {
        let o = tally(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert!(err.contains(needle), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(stdout(&o).is_empty());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn listed_in_help() {
    let help = stdout(&tally(&["--help"]));
    assert!(
        help.lines().any(|l| l.trim_start().starts_with("rules ")),
        "{help}"
    );
}

#[test]
fn a_handicap_by_gap_and_weaker_rating() {
    use tally::scoring::variants::sets::{HandicapGap, Value, handicap_factor};
    // Black, rated 1400, plays one rated 1800: the rules file pays Black
    // the table's values times the factor of a gap of 400 below 1400.
    let o = tally(&[
        "rules",
        "sets",
        "--handicap",
        "400",
        "--weaker",
        "black",
        "--weaker-elo",
        "1400",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    let t = Tables::from_toml(&text).unwrap();
    let h = t.sets.handicap.as_ref().unwrap();
    assert_eq!(h.side, shakmaty::Color::Black);
    let k = handicap_factor(HandicapGap {
        gap: 400,
        weaker_elo: 1400,
    })
    .unwrap();
    let base = Tables::default();
    assert_eq!(
        h.get(Value::Mate).unwrap().milli(),
        base.sets.base(Value::Mate).milli() * k / 1000
    );
    assert!(
        text.contains("below a weaker player at 1400"),
        "the file says which handicap it holds: {text}"
    );
    // The same gap below 1000 pays more.
    let low = handicap_factor(HandicapGap {
        gap: 400,
        weaker_elo: 1000,
    })
    .unwrap();
    assert!(low > k, "{low} {k}");
    // tally score counts with it: Black mates (fool's mate) below 1000 at
    // a gap of 400, worth twice the factor.
    let o = tally(&[
        "score",
        "-v",
        "sets",
        "--handicap",
        "400",
        "--weaker",
        "black",
        "--weaker-elo",
        "1000",
        "--json",
        "--moves",
        "f2f3 e7e5 g2g4 d8h4",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let black = json["total"]["black"]
        .as_f64()
        .unwrap_or_else(|| panic!("{json}"));
    assert_eq!(black, 2.0 * low as f64 / 1000.0, "{json}");
    // Refused, exit 2: no weaker rating, a gap beyond the table.
    for (args, needle) in [
        (
            vec!["rules", "sets", "--handicap", "200", "--weaker", "black"],
            "--weaker-elo",
        ),
        (
            vec![
                "rules",
                "sets",
                "--handicap",
                "5000",
                "--weaker",
                "black",
                "--weaker-elo",
                "1000",
            ],
            "goes up to",
        ),
    ] {
        let o = tally(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
    }
}
