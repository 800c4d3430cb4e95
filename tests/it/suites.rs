//! The variant position suites (`positions/suites/<variant>.epd`): in each
//! position the variant's points make a different action best than plain
//! chess would. Every position is searched at its fixed depth (`acd`) with
//! the variant evaluator, one thread and a fresh table, and its best action
//! must be one of `bm` and none of `am`.
//!
//! Line format: the four FEN fields, then EPD operations separated by `;`:
//! `bm` and `am` (UCI moves or special actions, space separated), `acd`
//! (the depth), `moves` (actions played from the FEN before the search, for
//! variant state a FEN cannot hold: a pending bare-king claim, a disk),
//! `hmvc` (the halfmove clock; 0 by default), `id` and `c0` (why; what
//! chess or the base evaluator plays instead).
//! `#` starts a comment line.

use tally::engine::{Engine, EngineOptions};
use tally::rules::Variant;
use tally::search::{Limits, Silent};

/// One suite position.
#[derive(Debug)]
struct Case {
    line: usize,
    id: String,
    fen: String,
    bm: Vec<String>,
    am: Vec<String>,
    moves: Vec<String>,
    depth: i32,
}

/// Splits an EPD line's operations at `;` outside quotes.
fn operations(text: &str) -> Vec<(String, String)> {
    let mut ops = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    for ch in text.chars() {
        match ch {
            '"' => {
                quoted = !quoted;
                current.push(ch);
            }
            ';' if !quoted => {
                ops.push(std::mem::take(&mut current));
            }
            _ => current.push(ch),
        }
    }
    ops.push(current);
    ops.into_iter()
        .filter_map(|op| {
            let op = op.trim();
            let (name, rest) = op.split_once(char::is_whitespace)?;
            Some((name.to_owned(), rest.trim().trim_matches('"').to_owned()))
        })
        .collect()
}

fn parse(text: &str) -> Vec<Case> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.splitn(5, ' ').collect();
        assert!(
            fields.len() == 5,
            "line {}: four FEN fields and operations",
            i + 1
        );
        let placement = fields[..4].join(" ");
        let mut case = Case {
            line: i + 1,
            id: String::new(),
            fen: String::new(),
            bm: Vec::new(),
            am: Vec::new(),
            moves: Vec::new(),
            depth: 0,
        };
        let mut halfmoves = 0;
        for (name, value) in operations(fields[4]) {
            let words = || value.split_whitespace().map(str::to_owned).collect();
            match name.as_str() {
                "bm" => case.bm = words(),
                "am" => case.am = words(),
                "moves" => case.moves = words(),
                "acd" => case.depth = value.parse().expect("acd is a depth"),
                "hmvc" => halfmoves = value.parse().expect("hmvc is a number"),
                "id" => case.id = value,
                "c0" => assert!(!value.is_empty(), "line {}: empty c0", i + 1),
                other => panic!("line {}: unknown operation {other}", i + 1),
            }
        }
        case.fen = format!("{placement} {halfmoves} {}", 1 + halfmoves / 2);
        assert!(case.depth > 0, "line {}: no acd", case.line);
        assert!(
            !case.bm.is_empty() || !case.am.is_empty(),
            "line {}: neither bm nor am",
            case.line
        );
        out.push(case);
    }
    out
}

/// Runs a suite; returns the failures, one line each.
fn run(variant: Variant, text: &str) -> Vec<String> {
    let cases = parse(text);
    assert!(cases.len() >= 10, "{variant}: {} positions", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        let mut engine = Engine::with_options(
            variant,
            EngineOptions {
                threads: 1,
                hash_mb: 16,
                ..EngineOptions::default()
            },
        );
        engine.set_specials(true);
        let moves: Vec<&str> = case.moves.iter().map(String::as_str).collect();
        engine
            .set_position(Some(&case.fen), &moves)
            .unwrap_or_else(|e| panic!("line {} ({}): {e:?}", case.line, case.id));
        let result = engine
            .search(Limits::depth(case.depth), &Silent)
            .expect("search");
        let best = result.best.map(|a| a.to_string()).unwrap_or_default();
        let ok = (case.bm.is_empty() || case.bm.contains(&best)) && !case.am.contains(&best);
        if !ok {
            failures.push(format!(
                "{variant} line {} ({}): played {best}, bm {:?} am {:?}",
                case.line, case.id, case.bm, case.am
            ));
        }
    }
    failures
}

macro_rules! suite {
    ($name:ident, $variant:expr, $file:literal) => {
        #[test]
        fn $name() {
            let text = include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/positions/suites/",
                $file
            ));
            let failures = run($variant, text);
            assert!(failures.is_empty(), "{}", failures.join("\n"));
        }
    };
}

suite!(stylish, Variant::Stylish, "stylish.epd");
suite!(wacky, Variant::Wacky, "wacky.epd");
suite!(extinction, Variant::Extinction, "extinction.epd");
suite!(sets, Variant::Sets, "sets.epd");
suite!(dynamic, Variant::Dynamic, "dynamic.epd");
suite!(tiebraker, Variant::Tiebraker, "tiebraker.epd");

#[test]
fn operations_split_outside_quotes() {
    let ops = operations(r#"bm e2e4 d2d4; acd 4; c0 "a; b"; id "x""#);
    assert_eq!(
        ops,
        [
            ("bm".to_owned(), "e2e4 d2d4".to_owned()),
            ("acd".to_owned(), "4".to_owned()),
            ("c0".to_owned(), "a; b".to_owned()),
            ("id".to_owned(), "x".to_owned()),
        ]
    );
}
