//! The documentation cannot drift from the engine: every relative link
//! and `#anchor` of README.md and docs/*.md resolves (GitHub's anchor
//! rules), every option docs/uci.md's tables name is in the `uci` answer
//! with the type, default and range stated, every option the docs set
//! (`option.NAME=`, `setoption name NAME`) exists, and the numbers the
//! docs state of the engine's scales are the engine's.

use crate::common::cli;

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::PathBuf;
use std::process::Stdio;

use tally::rules::Variant;
use tally::scoring::Scorer;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// README.md, docs/*.md and the other Markdown files the docs link to
/// (positions/README.md, tests/data/README.md).
fn markdown_files() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md"), root().join("positions/README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

/// The text outside fenced code blocks, line by line (a fenced line is
/// empty, so line numbers stay).
fn prose(text: &str) -> Vec<String> {
    let mut fence: Option<&str> = None;
    text.lines()
        .map(|line| {
            let t = line.trim_start();
            let marker = ["```", "~~~"].into_iter().find(|m| t.starts_with(m));
            match (fence, marker) {
                (None, Some(m)) => {
                    fence = Some(m);
                    String::new()
                }
                (Some(f), Some(m)) if f == m => {
                    fence = None;
                    String::new()
                }
                (Some(_), _) => String::new(),
                (None, None) => line.to_owned(),
            }
        })
        .collect()
}

/// GitHub's anchor of a heading's text: inline code and emphasis marks
/// and link targets dropped, lower case, every character but letters,
/// digits, `-`, `_` and spaces removed, spaces turned to `-`.
fn slug(heading: &str) -> String {
    // `[text](target)` reads as its text.
    let mut text = String::new();
    let mut rest = heading;
    while let Some(open) = rest.find("](") {
        let close = rest[open..].find(')').map_or(rest.len(), |c| open + c + 1);
        text.push_str(&rest[..open]);
        rest = &rest[close..];
    }
    text.push_str(rest);
    text.trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown file: its headings' slugs, a repeated one
/// numbered `-1`, `-2`... as GitHub numbers them.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = BTreeSet::new();
    for line in prose(text) {
        let t = line.trim_start();
        let level = t.chars().take_while(|&c| c == '#').count();
        if !(1..=6).contains(&level) || !t[level..].starts_with(' ') {
            continue;
        }
        let base = slug(&t[level..]);
        let n = seen.entry(base.clone()).or_insert(0);
        out.insert(if *n == 0 {
            base.clone()
        } else {
            format!("{base}-{n}")
        });
        *n += 1;
    }
    out
}

/// The targets of the inline links `[text](target)` of a line, code spans
/// left out.
fn links(line: &str) -> Vec<String> {
    let mut plain = String::new();
    for (i, part) in line.split('`').enumerate() {
        // Odd parts are inside a code span: keep brackets' shape only.
        if i % 2 == 0 {
            plain.push_str(part);
        } else {
            plain.push('x');
        }
    }
    let mut out = Vec::new();
    let mut rest = plain.as_str();
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let end = after.find(')').unwrap_or(after.len());
        let target = after[..end].split_whitespace().next().unwrap_or("");
        out.push(target.to_owned());
        rest = &after[end..];
    }
    out
}

#[test]
fn every_relative_link_and_anchor_resolves() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for file in markdown_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        let name = file.strip_prefix(root()).unwrap().display().to_string();
        for (n, line) in prose(&text).iter().enumerate() {
            for target in links(line) {
                if target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                checked += 1;
                let (path, anchor) = match target.split_once('#') {
                    Some((p, a)) => (p, Some(a)),
                    None => (target.as_str(), None),
                };
                let dest = if path.is_empty() {
                    file.clone()
                } else {
                    file.parent().unwrap().join(path)
                };
                let at = format!("{name}:{}: ({target})", n + 1);
                if !dest.exists() {
                    broken.push(format!("{at}: no file {}", dest.display()));
                    continue;
                }
                if let Some(anchor) = anchor {
                    let is_md = dest.extension().is_some_and(|e| e == "md");
                    let found =
                        is_md && anchors(&std::fs::read_to_string(&dest).unwrap()).contains(anchor);
                    if !found {
                        broken.push(format!("{at}: no heading #{anchor}"));
                    }
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    assert!(checked > 50, "only {checked} links found");
}

#[test]
fn github_anchor_rules() {
    assert_eq!(
        slug(" A PGN as one contest: `tally score --series`"),
        "a-pgn-as-one-contest-tally-score---series"
    );
    assert_eq!(
        slug(" Syzygy endgame tables (issue 102; SPRT to run)"),
        "syzygy-endgame-tables-issue-102-sprt-to-run"
    );
    assert_eq!(slug(" The build: PGO and LTO"), "the-build-pgo-and-lto");
    let a = anchors("# Top\n## Same\n```\n## Not a heading\n```\n## Same\n#nope\n");
    assert_eq!(a.into_iter().collect::<Vec<_>>(), ["same", "same-1", "top"]);
    assert_eq!(
        links("see [`a`](a.md#b), `[c](d)` and [e](https://x.org) [f](g.md \"t\")"),
        ["a.md#b", "https://x.org", "g.md"]
    );
}

/// The `option name ...` lines of the `uci` answer, by lower-case name:
/// the rest of the line after the name (`type spin default 16 min 1 max
/// 16384`).
fn uci_options() -> BTreeMap<String, (String, String)> {
    let mut child = cli::command()
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"uci\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("uciok"), "{text}");
    text.lines()
        .filter_map(|l| l.strip_prefix("option name "))
        .map(|l| {
            let (name, rest) = l.split_once(" type ").unwrap();
            (name.to_lowercase(), (name.to_owned(), rest.to_owned()))
        })
        .collect()
}

/// The rows of the Markdown tables that follow `heading` (up to the next
/// heading), as cells.
fn table_rows(text: &str, heading: &str) -> Vec<Vec<String>> {
    let lines = prose(text);
    let start = lines
        .iter()
        .position(|l| l.trim() == heading)
        .unwrap_or_else(|| panic!("no heading {heading}"));
    lines[start + 1..]
        .iter()
        .take_while(|l| !l.starts_with('#'))
        .filter(|l| l.starts_with('|') && !l.starts_with("|---"))
        .map(|l| {
            l.trim()
                .trim_matches('|')
                .split(" | ")
                .map(|c| c.trim().to_owned())
                .collect()
        })
        .collect()
}

fn unquote(cell: &str) -> &str {
    cell.trim().trim_matches('`')
}

#[test]
fn uci_md_options_are_the_uci_answers() {
    let options = uci_options();
    let text = std::fs::read_to_string(root().join("docs/uci.md")).unwrap();
    let rows = table_rows(&text, "## Options");
    let mut documented = BTreeSet::new();
    for row in &rows[1..] {
        let name = unquote(&row[0]);
        let (exact, answer) = options
            .get(&name.to_lowercase())
            .unwrap_or_else(|| panic!("docs/uci.md names {name}, which uci does not offer"));
        assert_eq!(name, exact, "the option's spelling");
        documented.insert(name.to_lowercase());
        // The type, the range and the default the table states.
        let (kind, default) = (row[1].as_str(), unquote(&row[2]));
        let mut words = kind.split_whitespace();
        let ty = words.next().unwrap();
        assert!(answer.starts_with(ty), "{name}: {kind} against {answer}");
        match ty {
            "spin" => {
                let (min, max) = words.next().unwrap().split_once("..").unwrap();
                assert_eq!(
                    answer,
                    &format!("spin default {default} min {min} max {max}"),
                    "{name}"
                );
            }
            "check" => assert_eq!(answer, &format!("check default {default}"), "{name}"),
            "string" => {
                assert_eq!(default, "empty", "{name}");
                assert_eq!(answer, "string default <empty>", "{name}");
            }
            "button" => assert_eq!(answer, "button", "{name}"),
            "combo" => {
                assert!(
                    answer.starts_with(&format!("combo default {default} var")),
                    "{name}: {answer}"
                );
                // A listed set of values (`combo pawns/points`) is the whole set.
                if let Some(values) = words.next() {
                    let vars: Vec<&str> = answer.split(" var ").skip(1).collect();
                    assert_eq!(values.split('/').collect::<Vec<_>>(), vars, "{name}");
                }
            }
            other => panic!("{name}: type {other}"),
        }
    }
    let missing: Vec<&String> = options
        .keys()
        .filter(|k| !documented.contains(*k))
        .collect();
    assert!(
        missing.is_empty(),
        "options uci offers that docs/uci.md's table omits: {missing:?}"
    );
    // The variant table's values: every variant id, as the combos list
    // them.
    let vars = |name: &str| -> Vec<String> {
        options[name]
            .1
            .split(" var ")
            .skip(1)
            .map(str::to_owned)
            .collect()
    };
    let ids: Vec<String> = Variant::ALL.iter().map(|v| v.to_string()).collect();
    assert_eq!(vars("uci_variant"), ids);
    assert_eq!(
        vars("scoring"),
        ids.iter()
            .filter(|v| *v != "extinction")
            .cloned()
            .collect::<Vec<_>>()
    );
}

#[test]
fn every_option_the_docs_set_exists() {
    let options = uci_options();
    let mut unknown = Vec::new();
    let mut seen = 0;
    for file in markdown_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        let name = file.strip_prefix(root()).unwrap().display().to_string();
        for (n, line) in text.lines().enumerate() {
            let mut found: Vec<&str> = Vec::new();
            for part in line.split("option.").skip(1) {
                if let Some((opt, _)) = part.split_once('=') {
                    found.push(opt);
                }
            }
            for part in line.split("setoption name ").skip(1) {
                if let Some((opt, _)) = part.split_once(" value") {
                    found.push(opt);
                }
            }
            for opt in found {
                // Placeholders (`option.NAME=VALUE`) and the tunable
                // build's constants (docs/search.md) are not the default
                // build's.
                if opt == "NAME"
                    || opt
                        .chars()
                        .any(|c| !(c.is_alphanumeric() || c == '_' || c == ' '))
                {
                    continue;
                }
                seen += 1;
                if !options.contains_key(&opt.to_lowercase()) {
                    unknown.push(format!("{name}:{}: {opt}", n + 1));
                }
            }
        }
    }
    assert!(seen > 20, "{seen}");
    assert!(
        unknown.is_empty(),
        "options uci does not offer:\n{}",
        unknown.join("\n")
    );
}

/// The number of a cell (`25`, `30,000`, `0.2`).
fn number(cell: &str) -> f64 {
    let digits: String = cell
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == ',')
        .filter(|&c| c != ',')
        .collect();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("not a number: {cell}"))
}

#[test]
fn the_pawn_worths_docs_state_are_the_engines() {
    // docs/analyse.md's table: the pawn of `[%eval]` and --big-miss, and
    // the pawn of the search's units (`score cp 100` under ScoreUnit
    // pawns).
    let text = std::fs::read_to_string(root().join("docs/analyse.md")).unwrap();
    let rows = table_rows(&text, "### A pawn's worth");
    let mut variants = BTreeSet::new();
    for row in &rows[1..] {
        for id in row[0].split(", ") {
            let v = Variant::from_id(unquote(id)).unwrap();
            variants.insert(v.to_string());
            let scorer = Scorer::new(v);
            let pawn = scorer.points_per_pawn().as_f64();
            assert_eq!(number(&row[1]), pawn, "{v}: {row:?}");
            assert_eq!(
                number(&row[2]),
                pawn * scorer.search_pawns() as f64,
                "{v}: {row:?}"
            );
        }
    }
    assert_eq!(variants.len(), Variant::ALL.len(), "{variants:?}");
    // docs/uci.md's statement of the search's pawn in stylish and wacky.
    let uci = std::fs::read_to_string(root().join("docs/uci.md")).unwrap();
    let units = |v: Variant| {
        let s = Scorer::new(v);
        s.points_per_pawn().as_f64() * s.search_pawns() as f64
    };
    assert_eq!(units(Variant::Stylish), 25.0);
    assert_eq!(units(Variant::Wacky), 30_000.0);
    assert!(uci.contains("it is five of them (25 points)"));
    assert!(uci.contains("thirty\n  (30,000 points"));
}

#[test]
fn the_options_the_gui_page_sets_per_variant_exist() {
    // docs/gui.md's table: for each variant the UCI options and values a
    // GUI sets; each option exists and each value is one it takes.
    let options = uci_options();
    let text = std::fs::read_to_string(root().join("docs/gui.md")).unwrap();
    let rows = table_rows(&text, "## Options per variant");
    assert!(rows.len() > Variant::ALL.len(), "{rows:?}");
    for row in &rows[1..] {
        let id = unquote(&row[0]);
        Variant::from_id(id).unwrap();
        for setting in row[1].split(", ") {
            let setting = unquote(setting);
            if setting == "nothing" {
                continue;
            }
            let (name, value) = setting.split_once(" = ").unwrap();
            let (_, answer) = &options[&name.to_lowercase()];
            assert!(
                answer.split(" var ").skip(1).any(|v| v == value),
                "{id}: {setting} against {answer}"
            );
            if name == "Scoring" || name == "UCI_Variant" {
                assert_eq!(value, id, "{row:?}");
            }
        }
    }
}

#[test]
fn tally_in_a_terminal_says_what_to_type_and_on_a_pipe_nothing() {
    // In a terminal: the hint the README quotes.
    let hint = tally::cli::terminal_hint(true).unwrap();
    assert!(
        hint.contains("type `uci`") && hint.contains("`quit`"),
        "{hint}"
    );
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    assert!(readme.contains(hint), "README.md should quote: {hint}");
    assert_eq!(tally::cli::terminal_hint(false), None);
    // On a pipe (a GUI): nothing but the UCI answers, on either stream.
    for args in [&[][..], &["uci"][..]] {
        let mut child = cli::command()
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(b"isready\nquit\n")
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            "readyok\n",
            "{args:?}"
        );
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{args:?}");
    }
}

#[test]
fn positions_readme_names_every_file() {
    let readme = std::fs::read_to_string(root().join("positions/README.md")).unwrap();
    let mut folders = vec![root().join("positions")];
    let mut missing = Vec::new();
    while let Some(dir) = folders.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
                continue;
            }
            let name = path.file_name().unwrap().to_str().unwrap().to_owned();
            if name != "README.md" && !readme.contains(&format!("`{name}`")) {
                missing.push(path.strip_prefix(root()).unwrap().display().to_string());
            }
        }
    }
    missing.sort();
    assert!(missing.is_empty(), "positions/README.md omits {missing:?}");
}

#[test]
fn the_readme_states_cargo_tomls_rust_version() {
    let cargo = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let version = cargo
        .lines()
        .find_map(|l| l.strip_prefix("rust-version = "))
        .unwrap()
        .trim_matches('"');
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    assert!(
        readme.contains(&format!("Rust](https://rustup.rs) {version} or newer")),
        "README.md should say Rust {version}"
    );
}
