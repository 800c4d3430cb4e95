//! Perft through Tally's rules layer against the data files in `positions/`:
//! standard chess, extinction, tiebraker (special actions count) and sets
//! (`claim` counts).
//!
//! One harness reads every file (shakmaty's `id` / `epd` / `perft` format,
//! plus Tally's optional `variant`, `chess960` and `moves` lines) and checks each
//! (position, depth) pair. Counts above [`NODE_LIMIT`] are checked only by the
//! ignored `deep_perft` test (`cargo test --test it perft:: -- --ignored`).

use std::path::PathBuf;

use tally::rules::{Game, MAX_PERFT_DEPTH, Pos, Rules, RulesError, Variant, perft, perft_divide};
use tally::with_game;

/// The largest count the normal run checks.
const NODE_LIMIT: u64 = 3_000_000;

const FILES: [&str; 4] = [
    "standard.perft",
    "extinction.perft",
    "tiebraker.perft",
    "sets.perft",
];

/// The Chess960 files: the published Chess960 suite in chess, and
/// extinction under Chess960 castling against Fairy-Stockfish.
const FILES_960: [&str; 2] = ["chess960.perft", "extinction960.perft"];

/// Every Chess960 file parses to its variant, read as Chess960.
#[test]
fn chess960_files_name_their_variant() {
    for (file, want) in FILES_960
        .into_iter()
        .zip([Variant::Chess, Variant::Extinction])
    {
        let (variant, cases) = load(file);
        assert_eq!(variant, want, "{file}");
        assert!(
            !cases.is_empty() && cases.iter().all(|c| c.chess960),
            "{file}"
        );
    }
}

/// One `perft DEPTH NODES` line with the position it belongs to.
#[derive(Clone, Debug)]
struct Case {
    /// Whether the file reads its FENs and moves under Chess960 castling.
    chess960: bool,
    file: String,
    id: String,
    fen: String,
    moves: Vec<String>,
    depth: u32,
    nodes: u64,
}

/// The variant of a file: its `variant` line, or else its name.
fn variant_from_name(file: &str) -> Variant {
    match file.trim_end_matches(".perft").trim_end_matches("960") {
        "standard" | "chess" => Variant::Chess,
        other => Variant::from_id(other).expect("a variant named by the file"),
    }
}

fn read_positions(file: &str) -> String {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "positions", file]
        .iter()
        .collect();
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Parses one perft file. Panics on any line it does not understand, so a
/// typo cannot silently drop a case.
fn parse(file: &str, text: &str) -> (Variant, Vec<Case>) {
    let mut variant = None;
    let mut chess960 = false;
    let mut cases = Vec::new();
    let mut id = String::new();
    let mut fen: Option<String> = None;
    let mut moves: Vec<String> = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        match key {
            "variant" => {
                assert!(
                    cases.is_empty() && fen.is_none(),
                    "{file}:{}: late variant",
                    n + 1
                );
                variant = Some(Variant::from_id(rest).expect("variant id"));
            }
            "chess960" => {
                assert!(
                    cases.is_empty() && fen.is_none(),
                    "{file}:{}: late chess960",
                    n + 1
                );
                chess960 = true;
            }
            "id" => {
                id = rest.to_owned();
                fen = None;
                moves.clear();
            }
            "epd" => fen = Some(rest.to_owned()),
            "moves" => moves = rest.split_whitespace().map(str::to_owned).collect(),
            "perft" => {
                let (depth, nodes) = rest
                    .split_once(' ')
                    .unwrap_or_else(|| panic!("{file}:{}: perft DEPTH NODES", n + 1));
                cases.push(Case {
                    chess960,
                    file: file.to_owned(),
                    id: id.clone(),
                    fen: fen
                        .clone()
                        .unwrap_or_else(|| panic!("{file}:{}: perft before epd", n + 1)),
                    moves: moves.clone(),
                    depth: depth.trim().parse().expect("depth"),
                    nodes: nodes.trim().parse().expect("node count"),
                });
            }
            _ => panic!("{file}:{}: unknown line '{line}'", n + 1),
        }
    }
    (variant.unwrap_or_else(|| variant_from_name(file)), cases)
}

fn load(file: &str) -> (Variant, Vec<Case>) {
    parse(file, &read_positions(file))
}

/// The count of one case through the rules layer: the epd, then its moves
/// played through a [`Game`] (so they are checked for legality), then perft
/// (split across threads when `parallel`).
fn count<P: Pos>(rules: Rules<P>, case: &Case, parallel: bool) -> u64 {
    let rules = rules.with_chess960(case.chess960);
    let mut game = Game::new(rules, Some(&case.fen))
        .unwrap_or_else(|e| panic!("{} {}: {e}", case.file, case.id));
    for m in &case.moves {
        game.play_text(m)
            .unwrap_or_else(|e| panic!("{} {}: {m}: {e}", case.file, case.id));
    }
    if parallel {
        perft_divide(&rules, game.current(), case.depth)
            .expect("a depth in range")
            .iter()
            .map(|e| e.nodes)
            .sum()
    } else {
        perft(&rules, game.current(), case.depth).expect("a depth in range")
    }
}

fn check(variant: Variant, cases: &[Case], keep: impl Fn(&Case) -> bool, parallel: bool) -> usize {
    let mut checked = 0;
    for case in cases.iter().filter(|c| keep(c)) {
        let got = with_game!(tally::rules::AnyRules::of(variant), |rules| count(
            rules, case, parallel
        ));
        assert_eq!(
            got, case.nodes,
            "{} {} ({variant}) depth {}",
            case.file, case.id, case.depth
        );
        checked += 1;
    }
    checked
}

fn check_file(file: &str) -> usize {
    let (variant, cases) = load(file);
    check(variant, &cases, |c| c.nodes <= NODE_LIMIT, false)
}

#[test]
fn standard_perft() {
    assert_eq!(check_file("standard.perft"), 27);
}

/// The published Chess960 suite: all 960 positions, every depth up to
/// 100,000 nodes (depths 1 to 3, and 4 where small); the rest in
/// `deep_perft`.
#[test]
fn chess960_perft() {
    let (variant, cases) = load(FILES_960[0]);
    let positions: std::collections::HashSet<&str> = cases.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(positions.len(), 960);
    assert_eq!(check(variant, &cases, |c| c.nodes <= 100_000, false), 2887);
}

/// Extinction under Chess960 castling, against Fairy-Stockfish.
#[test]
fn extinction960_perft() {
    let (variant, cases) = load(FILES_960[1]);
    assert_eq!(check(variant, &cases, |_| true, false), 30);
}

/// The scoring variants on the standard board play the Chess960 suite's
/// tree exactly (to depth 2; tiebraker and sets add actions).
#[test]
fn standard_board_variants_share_the_chess960_tree() {
    let (_, cases) = load(FILES_960[0]);
    for variant in [Variant::Stylish, Variant::Wacky, Variant::Dynamic] {
        assert_eq!(check(variant, &cases, |c| c.depth <= 2, false), 1920);
    }
}

#[test]
fn extinction_perft() {
    assert_eq!(check_file("extinction.perft"), 39);
}

#[test]
fn tiebraker_perft() {
    assert_eq!(check_file("tiebraker.perft"), 33);
}

#[test]
fn sets_perft() {
    assert_eq!(check_file("sets.perft"), 12);
}

/// Every file parses to the variant it is named after, with cases in it.
#[test]
fn files_name_their_variant() {
    let expected = [
        Variant::Chess,
        Variant::Extinction,
        Variant::Tiebraker,
        Variant::Sets,
    ];
    for (file, want) in FILES.into_iter().zip(expected) {
        let (variant, cases) = load(file);
        assert_eq!(variant, want, "{file}");
        assert_eq!(variant, variant_from_name(file), "{file}");
        assert!(!cases.is_empty(), "{file}");
    }
}

/// The standard data agree with shakmaty's own perft, so a wrong count in
/// the file cannot pass as a Tally bug or hide one.
#[test]
fn standard_data_match_shakmaty() {
    let (_, cases) = load("standard.perft");
    for case in cases.iter().filter(|c| c.nodes <= NODE_LIMIT) {
        let pos: shakmaty::Chess = Pos::from_fen(&case.fen).expect("standard FEN");
        assert_eq!(shakmaty::perft(&pos, case.depth), case.nodes, "{}", case.id);
    }
}

/// Stylish, wacky and dynamic play on the chess move tree exactly; sets too
/// where no side can be bared within the depth.
#[test]
fn standard_board_variants_share_the_chess_tree() {
    let (_, cases) = load("standard.perft");
    for variant in [
        Variant::Stylish,
        Variant::Wacky,
        Variant::Dynamic,
        Variant::Sets,
    ] {
        let checked = check(variant, &cases, |c| c.nodes <= 100_000, false);
        assert_eq!(checked, 22, "{variant}");
    }
}

/// The counts above the node limit, each perft split across threads.
#[test]
#[ignore = "deep perft: the counts above the node limit"]
fn deep_perft() {
    let mut checked = 0;
    for file in FILES {
        let (variant, cases) = load(file);
        checked += check(variant, &cases, |c| c.nodes > NODE_LIMIT, true);
    }
    assert_eq!(checked, 15);
}

/// The Chess960 counts above the normal run's limit (depth 4 of the
/// published suite, about 560 million nodes), each split across threads.
#[test]
#[ignore = "deep perft: Chess960 depth 4"]
fn deep_chess960_perft() {
    let (variant, cases) = load("chess960.perft");
    let checked = check(variant, &cases, |c| c.nodes > 100_000, true);
    assert_eq!(checked, 960 * 4 - 2887);
}

/// Depths past the maximum are refused, by both entry points, before any
/// counting; the maximum itself is counted (here from a mated position,
/// which has no children at any depth).
#[test]
fn depth_is_bounded() {
    let rules: Rules<shakmaty::Chess> = Rules::new(Variant::Chess);
    let mated = Game::new(
        rules,
        Some("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"),
    )
    .expect("FEN");
    let root = Game::new(rules, None).expect("start");
    for game in [&root, &mated] {
        let node = game.current();
        for depth in [MAX_PERFT_DEPTH + 1, 2000, u32::MAX] {
            let err = RulesError::PerftTooDeep(depth);
            assert_eq!(perft(&rules, node, depth), Err(err.clone()));
            assert_eq!(perft_divide(&rules, node, depth), Err(err));
        }
    }
    assert_eq!(perft(&rules, mated.current(), MAX_PERFT_DEPTH), Ok(0));
    assert_eq!(
        perft_divide(&rules, mated.current(), MAX_PERFT_DEPTH),
        Ok(Vec::new())
    );
}

/// `tally perft` refuses a depth past the maximum with one line and exit
/// code 2, with or without `--divide` (it used to overflow the stack and
/// abort).
#[test]
fn cli_refuses_deep_perft() {
    for extra in [&[][..], &["--divide"][..]] {
        for depth in ["2000", "4294967295"] {
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_tally"))
                .args(["perft", "--depth", depth])
                .args(extra)
                .output()
                .expect("run tally");
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{depth} {extra:?}: {err}");
            assert_eq!(
                err,
                format!("error: perft depth {depth} is too deep (at most 20)\n")
            );
            assert!(out.stdout.is_empty());
        }
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tally"))
        .args(["perft", "--depth", "2", "--divide"])
        .output()
        .expect("run tally");
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).ends_with("\nNodes searched: 400\n"));
}
