//! Chess960 outside the rules: the referee scores hand-built 960 games (a
//! `Variant "Chess960"` tag or a FEN with 960 castling rights, castling
//! both ways in SAN) in chess and wacky with hand-computed totals; the
//! special actions keep their meaning; a Tally-vs-Tally 960 match plays to
//! its end with castling (king takes rook between the players); datagen
//! starts from the 960 positions and its records hold 960 castling rights.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use tally::datagen::format::Reader;
use tally::datagen::{Config, Quiet as DataQuiet, Target};
use tally::matches::{Control, MatchConfig, PlayerSpec, Quiet, openings, run};
use tally::pgn::read_games;
use tally::referee::{ScoreRecord, score_input};
use tally::rules::{Variant, fen_needs_chess960};
use tally::scoring::{Points, Scorer, Tables};

use crate::common::cli;

/// King e1 between rooks b1 and g1 (X-FEN: the outermost rooks).
const FEN_E: &str = "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1";
/// King b1 between rooks a1 and h1 (Shredder-FEN).
const FEN_B: &str = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1";

fn score_pgn(pgn: &str, variant: Variant) -> ScoreRecord {
    let games = read_games(pgn.as_bytes()).expect("readable");
    let g = &games[0];
    assert_eq!(g.problem, None);
    score_input(&Scorer::new(variant), &g.input).unwrap_or_else(|e| panic!("{e}"))
}

fn totals(r: &ScoreRecord) -> (Points, Points) {
    (r.total.white, r.total.black)
}

/// Wacky: castling is the king's 2 squares at A 18 x 10 and 500 (860); a
/// pawn's double step 9 x 10 x 2 (180); a king's step 18 x 10 (180); a
/// resignation pays nothing. Chess: the resignation's 1 and 0.
#[test]
fn the_referee_scores_960_games_castling_both_ways() {
    let a = format!(
        "[Variant \"Chess960\"]\n[FEN \"{FEN_E}\"]\n[SetUp \"1\"]\n\n1. O-O O-O-O 2. a4 h5 1-0\n"
    );
    let chess = score_pgn(&a, Variant::Chess);
    assert!(chess.chess960);
    assert_eq!(totals(&chess), (Points::whole(1), Points::ZERO));
    // The same game under --variant wacky: the tag's Chess960 stands.
    let wacky = score_pgn(&a, Variant::Wacky);
    assert!(wacky.chess960);
    assert_eq!(totals(&wacky), (Points::whole(1040), Points::whole(1040)));
    assert_eq!(wacky.plies[0].award.white, Points::whole(860));
    assert!(
        wacky.plies[0]
            .award
            .events
            .iter()
            .any(|e| e.name() == "castling")
    );
    // O-O-O is castling (king takes rook), not the king's step to c1.
    let b = format!(
        "[Variant \"wacky\"]\n[FEN \"{FEN_B}\"]\n[SetUp \"1\"]\n\n1. O-O-O O-O 2. Kb1 Kh8 0-1\n"
    );
    assert!(fen_needs_chess960(FEN_B));
    let wacky = score_pgn(&b, Variant::Wacky);
    assert!(wacky.chess960, "the FEN's rights make it Chess960");
    let texts: Vec<String> = wacky.plies.iter().map(|p| p.action.to_string()).collect();
    assert_eq!(texts, ["b1a1", "b8h8", "c1b1", "g8h8"]);
    assert_eq!(totals(&wacky), (Points::whole(1040), Points::whole(1040)));
    let chess = score_pgn(&b, Variant::Chess);
    assert_eq!(totals(&chess), (Points::ZERO, Points::whole(1)));
    // Other spellings of the tag; the standard position under it.
    for tag in ["Fischerandom", "chess 960", "CHESS960"] {
        let r = score_pgn(
            &format!("[Variant \"{tag}\"]\n\n1. e4 e5 *\n"),
            Variant::Chess,
        );
        assert!(r.chess960, "{tag}");
        assert_eq!(r.variant, Variant::Chess);
    }
    // Without Chess960 the FEN's 960 rights are dropped: O-O is illegal.
    let games = read_games(format!("[FEN \"{FEN_B}\"]\n\n1. O-O *\n").as_bytes()).unwrap();
    let mut input = games[0].input.clone();
    input.fen = Some(FEN_B.replace("HAha", "-"));
    assert!(score_input(&Scorer::new(Variant::Chess), &input).is_err());
}

#[test]
fn tally_score_reads_960_moves_as_king_takes_rook() {
    let out = cli::command()
        .args(["score", "-v", "wacky", "--json", "--fen"])
        .arg(FEN_B.replace("HAha", "KQkq"))
        .args(["--moves", "b1a1 b8h8 c1b1 g8h8"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", cli::stderr(&out));
    let v: serde_json::Value = serde_json::from_str(cli::stdout(&out).trim()).unwrap();
    assert_eq!(v["chess960"], true);
    assert_eq!(v["total"]["white"], 1040);
    assert_eq!(v["total"]["black"], 1040);
    // --chess960 says so for a game that would read the same either way.
    let out = cli::command()
        .args(["score", "--chess960", "--summary", "--moves", "e2e4"])
        .output()
        .unwrap();
    assert!(cli::stdout(&out).contains("chess (Chess960)"));
}

/// `tally analyse` writes castling as king takes rook in Chess960, even
/// from the standard squares (what a GUI in 960 mode sends back), and
/// `tally perft` reads a FEN with 960 castling rights as Chess960 without
/// being told, as `score` and `analyse` do.
#[test]
fn analyse_and_perft_write_and_read_960_castling() {
    let fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
    let out = cli::command()
        .args([
            "analyse",
            "--chess960",
            "--json",
            "--depth",
            "2",
            "--threads",
            "1",
            "--fen",
            fen,
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", cli::stderr(&out));
    let v: serde_json::Value = serde_json::from_str(cli::stdout(&out).trim()).unwrap();
    let actions: Vec<&str> = v["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["action"].as_str().unwrap())
        .collect();
    for castle in ["e1h1", "e1a1"] {
        assert!(actions.contains(&castle), "{actions:?}");
    }
    for king_step in ["e1g1", "e1c1"] {
        assert!(!actions.contains(&king_step), "{actions:?}");
    }
    let lines = v["actions"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|a| a["pv"].as_array().unwrap());
    assert!(lines.clone().all(|m| m != "e8g8" && m != "e8c8"), "{v}");
    let nodes = |extra: &[&str]| {
        let out = cli::command()
            .args(["perft", "-d", "1", "--fen", FEN_B])
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", cli::stderr(&out));
        cli::stdout(&out).trim().to_owned()
    };
    // King b1, rooks a1 and h1: 16 pawn moves, the king's 1, the h-rook's
    // 5, and castling both ways.
    assert_eq!(nodes(&[]), "Nodes searched: 24");
    assert_eq!(nodes(&["--chess960"]), "Nodes searched: 24");
}

/// The disk replaces the king wherever it stands (here b1): accepted, the
/// king neither moves nor castles; restored, it castles again; swapped,
/// the swapper's king is the frozen one.
#[test]
fn the_special_actions_keep_their_meaning_in_960() {
    let game = |movetext: &str| {
        let pgn =
            format!("[Variant \"tiebraker\"]\n[FEN \"{FEN_B}\"]\n[SetUp \"1\"]\n\n{movetext}\n");
        let g = &read_games(pgn.as_bytes()).unwrap()[0];
        score_input(&Scorer::new(Variant::Tiebraker), &g.input)
    };
    let refused = |movetext: &str, ply: usize| {
        let e = game(movetext).expect_err(movetext);
        assert_eq!(e.ply, Some(ply), "{movetext}: {e}");
        assert!(e.reason.contains("illegal"), "{e}");
    };
    refused("{[%action disk]} 1... a6 2. O-O-O *", 3);
    refused("{[%action disk]} 1... a6 2. O-O *", 3);
    refused("{[%action disk]} 1... a6 2. Kc1 *", 3);
    let restored = game("{[%action disk]} {[%action restore]} 1. O-O-O *").unwrap();
    assert!(restored.chess960);
    assert_eq!(restored.plies[2].action.to_string(), "b1a1");
    refused("{[%action disk]} {[%action swap]} 2. a3 O-O *", 4);
    let swapped = game("{[%action disk]} {[%action swap]} 2. O-O *").unwrap();
    assert_eq!(swapped.plies[2].action.to_string(), "b1h1");
}

fn match_config(openings: Vec<openings::Opening>, games: usize) -> MatchConfig {
    let players = [
        PlayerSpec::parse("name=a").unwrap(),
        PlayerSpec::parse("name=b eval=base").unwrap(),
    ];
    let control = Control {
        nodes: Some(300),
        ..Control::default()
    };
    let mut c = MatchConfig::new(Variant::Chess, players, control, openings);
    c.games = games;
    c.hang_timeout = Duration::from_secs(120);
    c
}

/// White's only legal move is castling with the king on g1 and the rook
/// on h1 (the king stays, the rook goes to f1): f1, f2 and g2 are
/// attacked, h2 is blocked.
#[test]
fn a_960_match_plays_to_the_end_with_castling() {
    let o = openings::parse_epd("k4r2/8/8/8/8/7p/7P/6KR w K - id \"castle\";\n").unwrap();
    let c = match_config(o, 2);
    assert!(c.chess960, "the opening's rights make the match Chess960");
    assert!(c.experiment().chess960);
    let stop = AtomicBool::new(false);
    let out = run(&c, Vec::new(), &stop, &Quiet).expect("match runs");
    assert_eq!(out.games.len(), 2);
    for g in &out.games {
        assert_eq!(g.forfeit, None, "{}", g.ending_text);
        assert!(g.ending.is_some(), "{}", g.ending_text);
        assert_eq!(g.moves[0], "g1h1", "king takes rook");
        assert!(g.pgn.contains("[Variant \"Chess960\"]"), "{}", g.pgn);
        assert!(g.pgn.contains("1. O-O "), "{}", g.pgn);
        // The referee reads the match's PGN back to the same points.
        let again = score_pgn(&g.pgn, Variant::Chess);
        assert!(again.chess960);
        let (w, b) = (again.total.white.as_f64(), again.total.black.as_f64());
        let by_player = if g.white == 0 { [w, b] } else { [b, w] };
        assert_eq!(by_player, g.points);
    }
}

#[test]
fn a_match_from_the_seeded_960_openings_runs_to_the_end() {
    let mut c = match_config(openings::chess960(3), 2);
    c.chess960 = true;
    let stop = AtomicBool::new(false);
    let out = run(&c, Vec::new(), &stop, &Quiet).expect("match runs");
    assert_eq!(out.games.len(), 2);
    let first = &openings::chess960(3)[0];
    for g in &out.games {
        assert_eq!(g.forfeit, None, "{}", g.ending_text);
        assert!(g.ending.is_some(), "{}", g.ending_text);
        assert_eq!(g.start_fen, first.fen, "one opening, colours reversed");
    }
}

#[test]
fn datagen_starts_from_960_positions() {
    let mut c = Config::new(Variant::Chess, Tables::default());
    c.chess960 = true;
    c.nodes = 100;
    c.random_plies = 0;
    c.verify = None;
    c.seed = 5;
    c.hash_mb = 1;
    assert!(c.settings().contains("openings=chess960"));
    let path = cli::scratch("chess960").join("datagen.tdat");
    let _ = std::fs::remove_file(&path);
    let stop = AtomicBool::new(false);
    tally::datagen::run(&c, Target::Games(3), &path, &stop, &DataQuiet).expect("datagen runs");
    let f = std::fs::File::open(&path).unwrap();
    let games: Vec<_> = Reader::new(std::io::BufReader::new(f))
        .unwrap()
        .map(|g| g.unwrap())
        .collect();
    assert_eq!(games.len(), 3);
    let rules = tally::rules::Rules::<shakmaty::Chess>::new(Variant::Chess).with_chess960(true);
    let mut chess960_rights = 0;
    for g in &games {
        let start = g.start.node(&rules).unwrap();
        // The start record is a 960 position: pawns on their ranks, all
        // four castling rights.
        assert!(
            start.fen().contains("/pppppppp/8/8/8/8/PPPPPPPP/"),
            "{}",
            start.fen()
        );
        if fen_needs_chess960(&start.fen()) {
            chess960_rights += 1;
        }
        for r in &g.positions {
            r.node(&rules)
                .expect("every record re-creates its position");
        }
    }
    assert!(
        chess960_rights >= 2,
        "{chess960_rights} of 3 starts off the standard"
    );
}
