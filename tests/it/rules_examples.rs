//! `docs/rules.md` checked against the code: its worked examples, scored
//! by the referee, give the numbers the page states, and its tables show
//! every key of every variant with its default. A change of the scoring
//! that makes the page wrong fails here (update the page with it).

use crate::common;

use common::*;
use tally::referee::{GameInput, score_input};
use tally::rules::Variant::{Chess, Dynamic, Extinction, Stylish, Tiebraker, Wacky};
use tally::scoring::{DrawAdvantage, Scorer, Tables};

const FOOLS_MATE: &str = "f2f3 e7e5 g2g4 d8h4";
const KNIGHT_DANCE: &str = "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8";
const STALEMATE: (&str, &str) = ("7k/8/8/6Q1/8/8/P7/K7 w - - 0 1", "g5g6");
const PERPETUAL: (&str, &str) = (
    "6k1/5pp1/8/8/8/8/8/3Q2K1 w - - 0 1",
    "d1d8 g8h7 d8h4 h7g8 h4d8 g8h7 d8h4 h7g8 h4d8",
);

#[test]
fn chess_and_extinction_examples() {
    assert_eq!(total(&score(Chess, None, FOOLS_MATE)), (0.0, 1.0));
    let queen = score(Extinction, None, "e2e4 e7e5 d1h5 d8g5 h5g5");
    assert_eq!(total(&queen), (1.0, 0.0));
    assert_eq!(queen.ending.map(|e| e.kind().name()), Some("extinction"));
    let king = score(Extinction, None, "e2e4 f7f6 d1h5 a7a6 h5e8");
    assert_eq!(total(&king), (1.0, 0.0));
}

#[test]
fn stylish_examples() {
    let one = |fen: &str, mv: &str| total(&score(Stylish, Some(fen), mv));
    // Knight takes rook (10) and mates from afar (150).
    assert_eq!(
        one("6rk/5rpp/8/6N1/8/8/8/6K1 w - - 0 1", "g5f7"),
        (160.0, 0.0)
    );
    assert_eq!(one("7k/8/5K2/8/8/8/8/6Q1 w - - 0 1", "g1g7"), (60.0, 0.0));
    assert_eq!(
        one("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8"),
        (110.0, 0.0)
    );
    // Promoted mates: 80 + 50, 110 + 50; a knight promotion that does not
    // mate: 20 and a draw without a capture.
    let promote = "7k/4P3/7K/8/8/8/8/8 w - - 0 1";
    assert_eq!(one(promote, "e7e8q"), (130.0, 0.0));
    assert_eq!(one(promote, "e7e8r"), (160.0, 0.0));
    assert_eq!(one(promote, "e7e8n"), (20.0, 0.0));
    // Discovered double check: min(150, 110) + 50.
    let r = score(Stylish, Some("k3N2R/pp6/8/8/8/8/8/7K w - - 0 1"), "e8c7");
    assert_eq!(total(&r), (160.0, 0.0));
    assert_eq!(events(&r, 1), ["double_check", "mate", "discovered"]);
    // Discovered mate with coverage: 110 + 50 + 70.
    assert_eq!(
        one("4K3/R4Pk1/5p2/3B4/8/8/8/7R w - - 0 1", "f7f8n"),
        (230.0, 0.0)
    );
    // Draw compensation: (10 - 0) + (39 - 0) to Black.
    assert_eq!(one(STALEMATE.0, STALEMATE.1), (0.0, 49.0));
    // Last capture: 1 for the pawn, 50 for the last capture.
    assert_eq!(
        one("4k3/8/8/3p4/8/4N3/8/4K3 w - - 0 1", "e3d5"),
        (51.0, 0.0)
    );
}

#[test]
fn wacky_examples() {
    let r = score(Wacky, None, "e2e4 d7d5 e4d5 d8d5 b1c3 d5e5");
    let plies: Vec<_> = (1..=6).map(|n| ply(&r, n)).collect();
    assert_eq!(
        plies,
        [
            (180.0, 0.0),
            (0.0, 180.0),
            (1490.0, 0.0),
            (0.0, 2880.0),
            (90.0, 0.0),
            (0.0, 5010.0)
        ]
    );
    assert_eq!(total(&r), (1760.0, 8070.0));

    let r = score(Wacky, None, "e2e4 d7d5 e4d5 g8f6 c2c4 f6d5 c4d5 d8d5");
    assert_eq!(ply(&r, 6), (0.0, 1140.0));
    assert_eq!(ply(&r, 7), (7790.0, 0.0));
    assert_eq!(ply(&r, 8), (0.0, 4880.0));

    let r = score(
        Wacky,
        Some("4k3/p6p/8/8/8/8/8/R3K3 w - - 0 1"),
        "a1a7 e8d8 a7h7",
    );
    assert_eq!(ply(&r, 1), (820.0, 0.0));
    assert_eq!(ply(&r, 3), (2090.0, 0.0));
    assert_eq!(events(&r, 3).last(), Some(&"combination"));

    let ep = score(Wacky, Some("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"), "e5d6");
    assert_eq!(total(&ep), (2490.0, 0.0));
    let castle = score(Wacky, Some("4k3/8/8/8/8/8/8/4K2R w K - 0 1"), "e1g1");
    assert_eq!(total(&castle), (860.0, 0.0));

    let r = score(Wacky, None, FOOLS_MATE);
    assert_eq!(ply(&r, 4), (0.0, 25040.0));
    assert_eq!(outcome(&r), (0.0, 910_000.0));
    assert_eq!(total(&r), (270.0, 935_220.0));

    // The same with 1:12:34 left on Black's clock after the mate.
    let mut input = GameInput::from_text(None, FOOLS_MATE);
    input.clocks = vec![None, None, None, Some(72 * 60 + 34)];
    let timed = score_input(&Scorer::new(Wacky), &input).expect("scores");
    assert_eq!(outcome(&timed), (0.0, 910_000.0 + 460_000.0));
}

#[test]
fn sets_examples() {
    let black = sets(DrawAdvantage::Black);
    let s = |fen: Option<&str>, moves: &str| total(&score_with(&black, fen, moves, None));
    assert_eq!(s(None, FOOLS_MATE), (0.0, 2.0));
    assert_eq!(
        s(Some("4k3/8/8/8/8/8/p7/R3K3 w - - 0 1"), "a1a2 e8d7 claim"),
        (1.0, 0.0)
    );
    assert_eq!(
        s(Some("1bk5/1R6/8/8/8/8/8/4K3 w - - 0 1"), "b7b8 c8b8"),
        (0.5, 0.0)
    );
    assert_eq!(s(None, KNIGHT_DANCE), (0.5, 0.0));
    assert_eq!(s(Some(PERPETUAL.0), PERPETUAL.1), (1.0, 0.0));
    assert_eq!(s(Some(STALEMATE.0), STALEMATE.1), (1.0, 0.0));
}

#[test]
fn dynamic_examples() {
    let d = |fen: Option<&str>, moves: &str| total(&score(Dynamic, fen, moves));
    assert_eq!(d(Some(STALEMATE.0), STALEMATE.1), (60.0, 40.0));
    assert_eq!(d(Some(PERPETUAL.0), PERPETUAL.1), (51.0, 49.0));
    assert_eq!(
        d(
            Some("3q2k1/8/8/8/8/8/5PP1/6K1 b - - 0 1"),
            "d8d1 g1h2 d1h5 h2g1 h5d1 g1h2 d1h5 h2g1 h5d1"
        ),
        (45.0, 55.0)
    );
    assert_eq!(d(None, KNIGHT_DANCE), (50.0, 50.0));
}

#[test]
fn tiebraker_examples() {
    let scorer = Scorer::new(Tiebraker);
    let t = |moves: &str, result| total(&score_with(&scorer, None, moves, result));
    assert_eq!(t("e2e4 e7e5 disk b8c6", WHITE_WINS), (90.0, 10.0));
    assert_eq!(t("e2e4 e7e5 disk b8c6", BLACK_WINS), (0.0, 100.0));
    assert_eq!(t("e2e4 e7e5 disk restore", BLACK_WINS), (20.0, 80.0));
    assert_eq!(t("e2e4 e7e5 disk restore", WHITE_WINS), (100.0, 0.0));
    // Accepting is a move under capture-or-check: Black can capture.
    let refused = score_input(&scorer, &GameInput::from_text(None, "e2e4 d7d5 disk g8f6"));
    assert_eq!(refused.map_err(|e| e.ply), Err(Some(4)));
    assert_eq!(t("e2e4 d7d5 disk d5e4", None), (0.0, 0.0));
}

/// The cells of a Markdown table row, trimmed.
fn cells(line: &str) -> Vec<&str> {
    let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
    inner.split('|').map(str::trim).collect()
}

/// The first `code` span of a cell.
fn code(cell: &str) -> Option<&str> {
    let start = cell.find('`')? + 1;
    let len = cell[start..].find('`')?;
    Some(&cell[start..start + len])
}

/// A table cell's value as TOML (`[60, 80]`, `0.5`, `150`).
fn toml_value(text: &str) -> toml::Value {
    let doc: toml::Table = toml::from_str(&format!("v = {text}"))
        .unwrap_or_else(|e| panic!("docs/rules.md: '{text}' is not a TOML value: {e}"));
    doc["v"].clone()
}

/// Every `TOML key` column of docs/rules.md, read with the value beside it
/// (the `default` column after it, or the cells after it as a list, as in
/// the stylish capture and mate tables), must name a key of the variant
/// whose section it is in and show its default; and every key of every
/// table must be on the page.
#[test]
fn the_page_shows_every_key_with_its_default() {
    let page = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/rules.md"));
    let defaults = toml::Value::try_from(Tables::default()).expect("tables serialize");
    let mut variant: Option<String> = None;
    let mut columns: Vec<String> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    for line in page.lines() {
        if let Some(h) = line.strip_prefix("## ") {
            variant = code(h).map(str::to_owned);
            continue;
        }
        if !line.starts_with('|') {
            columns.clear();
            continue;
        }
        let row = cells(line);
        if columns.is_empty() {
            columns = row.iter().map(|c| c.to_string()).collect();
            continue;
        }
        if row.iter().all(|c| c.starts_with("---")) {
            continue;
        }
        let Some(v) = variant.as_deref() else {
            continue;
        };
        for (k, header) in columns.iter().enumerate() {
            if !header.contains("TOML key") {
                continue;
            }
            let Some(key) = row.get(k).and_then(|c| code(c)) else {
                continue;
            };
            let shown = if columns.get(k + 1).map(String::as_str) == Some("default") {
                toml_value(&row[k + 1].replace('`', ""))
            } else {
                let rest: Vec<&str> = row[k + 1..].iter().copied().filter(|c| *c != "-").collect();
                match rest.as_slice() {
                    [one] => toml_value(one),
                    many => toml_value(&format!("[{}]", many.join(", "))),
                }
            };
            let actual = key
                .split('.')
                .try_fold(&defaults[v], |t, part| t.get(part))
                .unwrap_or_else(|| panic!("docs/rules.md: `{key}` is no key of [{v}]"));
            assert_eq!(&shown, actual, "docs/rules.md: [{v}] {key}");
            seen.push(format!("{v}.{key}"));
        }
    }
    let mut missing = Vec::new();
    for v in tally::rules::Variant::ALL {
        let section = &defaults[v.id()];
        let mut stack = vec![(String::new(), section)];
        while let Some((path, value)) = stack.pop() {
            match value {
                toml::Value::Table(t) => stack.extend(t.iter().map(|(k, child)| {
                    let p = if path.is_empty() {
                        k.clone()
                    } else {
                        format!("{path}.{k}")
                    };
                    (p, child)
                })),
                _ => {
                    let full = format!("{v}.{path}");
                    if !seen.contains(&full) {
                        missing.push(full);
                    }
                }
            }
        }
    }
    assert!(missing.is_empty(), "docs/rules.md lacks {missing:?}");
}
