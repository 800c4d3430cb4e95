//! `datagen`: the data format round-trips every kind of position and
//! variant state; a seeded run gives the same bytes on one thread or two
//! and when interrupted and resumed (a torn tail included); the labels are
//! the referee's points; the reader counts what the file holds. Tiny node
//! counts and a few games keep every test fast.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use shakmaty::{Color, EnPassantMode, Position};
use tally::datagen::format::{
    DataGame, EndKind, FILE_HEADER_LEN, FLAG_START, GAME_HEADER_LEN, RECORD_LEN, Reader, Record,
    Wdl, scan,
};
use tally::datagen::read::{SKIP_FLAGS, each_game};
use tally::datagen::stats::{Stats, text_line};
use tally::datagen::{Config, Observer, Outcome, Quiet, Target, run};
use tally::rules::{Action, Bare, Disk, Game, Node, Pos, Rules, Variant};
use tally::scoring::{Memo, Points, Scorer, Tables, margin};
use tally::with_game;

use crate::common::cli;

use cli::{command as tally, stderr, stdout};

fn temp(name: &str) -> PathBuf {
    let p = cli::scratch("datagen").join(name);
    let _ = std::fs::remove_file(&p);
    p
}

/// Every node of a game (from `fen`, through `moves`) with its memo:
/// encoded, decoded and re-created equal.
fn round_trip_game<P: Pos>(rules: Rules<P>, fen: &str, moves: &str) -> Vec<Node<P>> {
    let mut game = Game::new(rules, Some(fen)).expect("fen");
    for m in moves.split_whitespace() {
        game.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    let mut memo = Memo::default();
    for (i, node) in game.nodes().iter().enumerate() {
        let mut r = Record::of(node, &memo).expect("encodable");
        r.score = -1234;
        r.result = Wdl::Loss;
        r.margin = Points::from_milli(-7_500_500);
        r.ply = i as u16;
        r.best = 0x1234;
        let back = Record::decode(&r.encode()).expect("decodes");
        assert_eq!(back, r, "{}", node.fen());
        let again = back.node(&rules).expect("a legal position");
        assert_eq!(
            again.pos.to_setup(EnPassantMode::Always),
            node.pos.to_setup(EnPassantMode::Always)
        );
        assert_eq!(again.extra, node.extra);
        assert_eq!(again.key, node.key, "{}", node.fen());
        assert_eq!(again.search_key(), node.search_key());
        assert_eq!(back.memo, memo);
        if let Some(&a) = game.actions().get(i) {
            memo = memo.after(node, a);
        }
    }
    game.nodes().to_vec()
}

#[test]
fn records_round_trip_standard_positions() {
    let rules = Rules::<shakmaty::Chess>::new(Variant::Chess);
    // Castling rights lost one by one, an en-passant square, a promotion.
    let nodes = round_trip_game(
        rules,
        "r3k2r/1P4p1/8/8/4p3/8/5P2/R3K2R w KQkq - 3 40",
        "f2f4 e4f3 a1a2 h8h7 b7b8q a8b8 e1g1",
    );
    assert_eq!(nodes[1].pos.maybe_ep_square(), Some(shakmaty::Square::F3));
    let start = rules.start();
    round_trip_game(rules, &start.fen(), "e2e4 d7d5 e4d5 c7c5 d5c6");
}

#[test]
fn records_round_trip_extinction_positions() {
    let rules = Rules::<tally::rules::Extinction>::new(Variant::Extinction);
    // Two white kings (one promoted), castling beside the second.
    let nodes = round_trip_game(
        rules,
        "2bqk1nr/1P5p/8/8/8/8/P7/RNBQK2R w KQk - 0 1",
        "b7b8k h7h6 b8a7 h6h5 e1g1",
    );
    let kings = |n: &Node<tally::rules::Extinction>| {
        (n.pos.board().kings() & n.pos.board().by_color(Color::White)).count()
    };
    assert_eq!(kings(&nodes[1]), 2);
    assert_eq!(kings(&nodes[5]), 2);
    // Black has no king at all (over on arrival, still a record).
    round_trip_game(
        rules,
        "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
        "",
    );
    // Kings are captured like any piece: Qxe8 leaves Black without one.
    let nodes = round_trip_game(
        rules,
        "rnbqkbnr/ppppp1pp/8/5p1Q/8/4P3/PPPP1PPP/RNB1KBNR w KQkq - 0 1",
        "h5e8",
    );
    assert!(nodes[1].pos.board().kings().count() == 1);
}

#[test]
fn records_round_trip_disk_states() {
    let rules = Rules::<shakmaty::Chess>::new(Variant::Tiebraker);
    let start = rules.start().fen();
    let offered = round_trip_game(rules, &start, "disk");
    assert_eq!(offered[1].extra.disk, Disk::Offered { by: Color::White });
    let swapped = round_trip_game(rules, &start, "e2e4 disk swap e7e5 g1f3 b8c6");
    assert_eq!(
        swapped[5].extra.disk,
        Disk::Swapped {
            disk: Color::White,
            plies: 2
        }
    );
    let accepted = round_trip_game(rules, &start, "disk e7e5");
    assert_eq!(
        accepted[2].extra.disk,
        Disk::Accepted { disk: Color::White }
    );
    let restored = round_trip_game(rules, &start, "d2d4 disk restore");
    assert_eq!(
        restored[3].extra.disk,
        Disk::Restored {
            first: Color::Black
        }
    );
}

#[test]
fn records_round_trip_bare_king_claims_and_memo() {
    let rules = Rules::<shakmaty::Chess>::new(Variant::Sets);
    let nodes = round_trip_game(rules, "4k3/8/8/8/8/8/3q4/3RK3 w - - 0 1", "d1d2 e8e7 claim");
    let bares: Vec<Bare> = nodes.iter().map(|n| n.extra.bare).collect();
    assert_eq!(
        bares,
        [
            Bare::None,
            Bare::Reply {
                barer: Color::White
            },
            Bare::Claim {
                barer: Color::White
            },
            Bare::Claimed {
                barer: Color::White
            },
        ]
    );
    // Wacky's counters: a chain of recaptures and a run of captures.
    let rules = Rules::<shakmaty::Chess>::new(Variant::Wacky);
    round_trip_game(
        rules,
        "3qk3/8/5n2/3p4/4P3/2N5/8/3QK3 w - - 0 1",
        "e4d5 f6d5 c3d5 d8d5 d1d5 e8e7",
    );
}

#[test]
fn damaged_games_are_refused() {
    let rules = Rules::<shakmaty::Chess>::new(Variant::Chess);
    let start = Record::of(&rules.start(), &Memo::default()).unwrap();
    let game = DataGame {
        variant: Variant::Chess,
        end: EndKind::Checkmate,
        end_side: Some(Color::Black),
        result: Wdl::Loss,
        index: 7,
        total: Points::whole(-1),
        units_milli: 1000,
        start: start.clone(),
        positions: vec![start],
    };
    let bytes = game.encode().unwrap();
    assert_eq!(DataGame::decode(&bytes).unwrap(), game);
    for i in [0, 2, 30, 50, 100] {
        let mut bad = bytes.clone();
        bad[i] ^= 0x40;
        assert!(DataGame::decode(&bad).is_err(), "byte {i}");
    }
}

fn config(variant: Variant, threads: usize) -> Config {
    let mut c = Config::new(variant, Tables::default());
    c.nodes = 150;
    c.random_plies = 6;
    c.seed = 42;
    c.threads = threads;
    c.hash_mb = 1;
    if let Some(v) = c.verify.as_mut() {
        v.nodes = 150;
    }
    c
}

fn generate(c: &Config, target: Target, path: &Path) -> Outcome {
    let stop = AtomicBool::new(false);
    let out = run(c, target, path, &stop, &Quiet).expect("datagen runs");
    assert!(!out.interrupted);
    out
}

#[test]
fn a_seed_gives_the_same_bytes_on_one_thread_or_two() {
    let a = temp("seed-1.tdat");
    let b = temp("seed-2.tdat");
    let c = temp("seed-3.tdat");
    let one = generate(&config(Variant::Chess, 1), Target::Games(3), &a);
    generate(&config(Variant::Chess, 2), Target::Games(3), &b);
    generate(&config(Variant::Chess, 2), Target::Games(3), &c);
    assert_eq!(one.games, 3);
    assert!(one.positions > 0);
    let bytes = std::fs::read(&a).unwrap();
    assert_eq!(bytes, std::fs::read(&b).unwrap());
    assert_eq!(bytes, std::fs::read(&c).unwrap());
    // Another seed, other games.
    let d = temp("seed-4.tdat");
    let mut other = config(Variant::Chess, 2);
    other.seed = 43;
    generate(&other, Target::Games(3), &d);
    assert_ne!(bytes, std::fs::read(&d).unwrap());
    // A soft node limit (a hard cap ten times it): the same bytes for one
    // seed on one thread or two, other games than a fixed count.
    let mut soft = config(Variant::Chess, 1);
    soft.soft_nodes = Some(150);
    soft.nodes = 1500;
    let (e, f) = (temp("seed-soft-1.tdat"), temp("seed-soft-2.tdat"));
    generate(&soft, Target::Games(3), &e);
    soft.threads = 2;
    generate(&soft, Target::Games(3), &f);
    let soft_bytes = std::fs::read(&e).unwrap();
    assert_eq!(soft_bytes, std::fs::read(&f).unwrap());
    assert_ne!(soft_bytes, bytes);
}

#[test]
fn a_soft_node_limit_above_the_hard_cap_is_refused() {
    for (soft, hard, says) in [
        ("600", "500", "above --nodes 500"),
        ("0", "500", "at least 1"),
    ] {
        let path = temp("soft-refused.tdat");
        let out = tally()
            .args(["datagen", "--games", "1", "--quiet", "-o"])
            .arg(&path)
            .args(["--soft-nodes", soft, "--nodes", hard])
            .output()
            .unwrap();
        assert!(!path.exists());
        assert_eq!(out.status.code(), Some(2));
        let err = stderr(&out);
        assert!(
            err.contains(says) && err.trim().lines().count() == 1,
            "{err}"
        );
    }
}

/// Stops the run once `after` games are in the file.
struct StopAfter<'a> {
    stop: &'a AtomicBool,
    after: u64,
}

impl Observer for StopAfter<'_> {
    fn written(&self, games: u64, _positions: u64) {
        if games >= self.after {
            self.stop.store(true, Ordering::SeqCst);
        }
    }
}

#[test]
fn interrupted_and_torn_runs_resume_to_the_same_bytes() {
    let c = config(Variant::Chess, 2);
    let full = temp("full.tdat");
    generate(&c, Target::Games(4), &full);
    let whole = std::fs::read(&full).unwrap();

    // Interrupted after the first game (as Ctrl-C does), then resumed.
    let part = temp("part.tdat");
    let stop = AtomicBool::new(false);
    let out = run(
        &c,
        Target::Games(4),
        &part,
        &stop,
        &StopAfter {
            stop: &stop,
            after: 1,
        },
    )
    .unwrap();
    assert!(out.interrupted);
    assert!(out.games >= 1 && out.games < 4);
    let scanned = scan(&part).unwrap();
    assert_eq!(scanned.games, out.games);
    assert_eq!(scanned.torn, 0);
    let resumed = generate(&c, Target::Games(4), &part);
    assert_eq!(resumed.resumed_games, out.games);
    assert_eq!(std::fs::read(&part).unwrap(), whole);

    // A tail cut in the middle of a game: cut off, then played again.
    let torn = temp("torn.tdat");
    let cut = whole.len() - 100;
    std::fs::write(&torn, &whole[..cut]).unwrap();
    let s = scan(&torn).unwrap();
    assert!(s.torn > 0);
    assert_eq!(s.games, 3);
    let out = generate(&c, Target::Games(4), &torn);
    assert!(out.torn_bytes > 0);
    assert_eq!(out.resumed_games, 3);
    assert_eq!(std::fs::read(&torn).unwrap(), whole);

    // An empty file (killed before its header) starts afresh.
    let empty = temp("empty.tdat");
    std::fs::write(&empty, b"").unwrap();
    generate(&c, Target::Games(4), &empty);
    assert_eq!(std::fs::read(&empty).unwrap(), whole);

    // A larger target extends a finished file.
    let three = temp("three.tdat");
    generate(&c, Target::Games(3), &three);
    generate(&c, Target::Games(4), &three);
    assert_eq!(std::fs::read(&three).unwrap(), whole);

    // A finished run run again adds nothing.
    let out = generate(&c, Target::Games(4), &full);
    assert_eq!((out.games, out.resumed_games), (4, 4));
    assert_eq!(std::fs::read(&full).unwrap(), whole);

    // Other settings never append to the file.
    let mut other = c.clone();
    other.nodes = 151;
    let stop = AtomicBool::new(false);
    let e = run(&other, Target::Games(4), &full, &stop, &Quiet).unwrap_err();
    assert!(e.contains("other settings"), "{e}");
}

#[test]
fn shards_partition_the_games_and_positions_targets_are_exact() {
    let c = config(Variant::Chess, 2);
    let all = temp("shard-all.tdat");
    generate(&c, Target::Games(3), &all);
    let mut indices = Vec::new();
    for k in 1..=2 {
        let mut s = c.clone();
        s.shard = Some(tally::shard::Shard::new(k, 2).unwrap());
        let p = temp(&format!("shard-{k}.tdat"));
        generate(&s, Target::Games(3), &p);
        let f = std::fs::File::open(&p).unwrap();
        for g in Reader::new(std::io::BufReader::new(f)).unwrap() {
            indices.push(g.unwrap().index);
        }
    }
    indices.sort_unstable();
    assert_eq!(indices, [0, 1, 2]);
    // A positions target stops at the first game that reaches it, the same
    // on any number of threads.
    let a = temp("pos-1.tdat");
    let b = temp("pos-2.tdat");
    let out = generate(&config(Variant::Chess, 1), Target::Positions(60), &a);
    generate(&config(Variant::Chess, 2), Target::Positions(60), &b);
    assert!(out.positions >= 60);
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let games = read_all(&a);
    let without_last: usize = games[..games.len() - 1]
        .iter()
        .map(|g| g.positions.len())
        .sum();
    assert!(without_last < 60);
}

fn read_all(path: &Path) -> Vec<DataGame> {
    let f = std::fs::File::open(path).unwrap();
    Reader::new(std::io::BufReader::new(f))
        .unwrap()
        .map(|g| g.unwrap())
        .collect()
}

/// Checks a game's labels against the scorer: between consecutive
/// records, the margin falls by exactly the award of the action played;
/// the start record holds the total; the result is its sign.
fn check_labels<P: Pos>(rules: Rules<P>, scorer: &Scorer, g: &DataGame) {
    assert_eq!(g.start.flags & FLAG_START, FLAG_START);
    assert_eq!(g.start.margin, g.total);
    assert_eq!(g.result, Wdl::of_margin(g.total));
    for pair in g.positions.windows(2) {
        let [a, b] = pair else { unreachable!() };
        assert_eq!(a.result, g.result);
        assert_eq!(b.ply, a.ply + 1);
        let before = a.node(&rules).unwrap();
        let mut legal = tally::rules::ActionList::new();
        rules.legal_actions(&before, &mut legal);
        let action: Action = *legal
            .iter()
            .find(|x| x.code() == a.best)
            .expect("the best action is legal");
        let after = rules.play(&before, action);
        let rebuilt = b.node(&rules).unwrap();
        assert_eq!(after.key, rebuilt.key);
        assert_eq!(after.extra, rebuilt.extra);
        let (award, memo) = scorer.action_award(&a.memo, &before, action, &after);
        assert_eq!(memo, b.memo);
        assert_eq!(a.margin - b.margin, margin(&award, Color::White));
    }
}

#[test]
fn labels_are_the_referees_points() {
    for variant in [
        Variant::Wacky,
        Variant::Stylish,
        Variant::Sets,
        Variant::Extinction,
    ] {
        let path = temp(&format!("labels-{variant}.tdat"));
        let mut c = config(variant, 2);
        c.nodes = 100;
        generate(&c, Target::Games(2), &path);
        let scorer = Scorer::new(variant);
        for g in read_all(&path) {
            assert_eq!(g.variant, variant);
            with_game!(tally::rules::AnyRules::of(variant), |rules| check_labels(
                rules, &scorer, &g
            ));
        }
    }
}

/// The committed samples (`tests/data/`: the first games of the seeded
/// runs the shipped weights, nets and evaluators were fitted on, see
/// `tests/data/README.md`) still read, hold what they held when written,
/// and their labels are the referee's points under today's rules.
#[test]
fn the_committed_samples_read_and_their_labels_are_the_referees() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    for (variant, games, positions) in [
        (Variant::Chess, 16, 2419),
        (Variant::Extinction, 40, 1935),
        (Variant::Stylish, 8, 1222),
        (Variant::Wacky, 4, 1642),
        (Variant::Sets, 8, 622),
        (Variant::Dynamic, 8, 933),
        (Variant::Tiebraker, 8, 606),
    ] {
        let all = read_all(&data.join(format!("{variant}.tdat")));
        assert_eq!(all.len(), games, "{variant}");
        let held: usize = all.iter().map(|g| g.positions.len()).sum();
        assert_eq!(held, positions, "{variant}");
        let scorer = Scorer::new(variant);
        for g in &all {
            assert_eq!(g.variant, variant);
            with_game!(tally::rules::AnyRules::of(variant), |rules| check_labels(
                rules, &scorer, g
            ));
        }
    }
}

#[test]
fn the_reader_counts_what_the_file_holds() {
    let path = temp("stats.tdat");
    let out = generate(&config(Variant::Dynamic, 2), Target::Games(3), &path);
    let games = read_all(&path);
    let mut stats = Stats::default();
    for g in &games {
        stats.add(g);
    }
    let v = &stats.variants[&Variant::Dynamic];
    assert_eq!(v.games, 3);
    assert_eq!(v.positions, out.positions);
    assert_eq!(v.results.iter().sum::<u64>(), 3);
    assert_eq!(v.position_results.iter().sum::<u64>(), out.positions);
    assert_eq!(v.histogram.iter().sum::<u64>(), out.positions);
    assert_eq!(v.endings.values().sum::<u64>(), 3);
    let report = stats.report();
    assert!(report.starts_with(&format!("dynamic: 3 games, {} positions", out.positions)));
    // The text form: one line a position, four fields, a FEN that reads.
    let lines: Vec<String> = games
        .iter()
        .flat_map(|g| g.positions.iter().map(|r| text_line(g.variant, r)))
        .collect();
    assert_eq!(lines.len() as u64, out.positions);
    for l in &lines {
        let fields: Vec<&str> = l.split(" | ").collect();
        assert_eq!(fields.len(), 4, "{l}");
        assert!(shakmaty::Chess::from_fen(fields[0]).is_ok(), "{l}");
        assert!(fields[1].parse::<i16>().is_ok());
        assert!(["1", "0.5", "0"].contains(&fields[2]));
    }
}

#[test]
fn the_fitting_reader_walks_one_variants_games_across_files() {
    let (a, b) = (temp("read-a.tdat"), temp("read-b.tdat"));
    generate(&config(Variant::Chess, 1), Target::Games(2), &a);
    // The second file holds another variant's games between the chess
    // ones, by concatenating the games of two runs under one header.
    let c = temp("read-c.tdat");
    let d = temp("read-d.tdat");
    generate(&config(Variant::Dynamic, 1), Target::Games(1), &c);
    generate(&config(Variant::Chess, 1), Target::Games(1), &d);
    let header_len = |p: &Path| {
        let mut f = std::fs::File::open(p).unwrap();
        tally::datagen::format::read_file_header(&mut f).unwrap().1
    };
    let mut bytes = std::fs::read(&c).unwrap();
    bytes.extend_from_slice(&std::fs::read(&d).unwrap()[header_len(&d)..]);
    std::fs::write(&b, &bytes).unwrap();

    let chess_a = read_all(&a);
    let mut seen = Vec::new();
    let pass = each_game(&[&a, &b], Variant::Chess, |g, at| {
        let quiet: Vec<&Record> = g.quiet().collect();
        assert!(quiet.iter().all(|r| r.flags & SKIP_FLAGS == 0));
        let skipped = g.positions.iter().filter(|r| r.flags & SKIP_FLAGS != 0);
        assert_eq!(quiet.len() + skipped.count(), g.positions.len());
        seen.push((at, g.index));
    })
    .unwrap();
    let places: Vec<(u64, usize, u64)> = seen
        .iter()
        .map(|(p, _)| (p.number, p.file, p.ordinal))
        .collect();
    assert_eq!(places, [(1, 0, 0), (2, 0, 1), (3, 1, 1)]);
    assert_eq!(pass.games, 3);
    assert_eq!(pass.other_games, 1);
    let positions: usize =
        chess_a.iter().map(|g| g.positions.len()).sum::<usize>() + read_all(&d)[0].positions.len();
    assert_eq!(pass.positions, positions as u64);
    assert!(each_game(&[temp("absent.tdat")], Variant::Chess, |_, _| ()).is_err());
}

#[test]
fn the_command_line_generates_and_reads() {
    let path = temp("cli-{shard}.tdat");
    let out = tally()
        .args(["datagen", "-v", "sets", "--games", "2", "--nodes", "100"])
        .args([
            "--random-plies",
            "4",
            "--seed",
            "9",
            "--threads",
            "2",
            "--quiet",
        ])
        .args(["--shard", "1/1", "-o"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let file = path.with_file_name("cli-1-of-1.tdat");
    assert!(file.exists());
    let stats = tally()
        .args(["datagen", "stats"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(stats.status.success());
    let text = stdout(&stats);
    assert!(text.contains("sets: 2 games"), "{text}");
    let lines = tally()
        .args(["datagen", "text"])
        .arg(&file)
        .output()
        .unwrap();
    let n = stdout(&lines).lines().count();
    assert_eq!(n as u64, scan(&file).unwrap().positions);

    // Bad input: one line, exit code 2.
    for args in [
        vec!["datagen", "-o", "x.tdat"],
        vec!["datagen", "--games", "1"],
        vec!["datagen", "-v", "atomic", "--games", "1", "-o", "x.tdat"],
        vec!["datagen", "--games", "1", "--shard", "3/2", "-o", "x.tdat"],
        vec!["datagen", "stats", "Cargo.toml"],
    ] {
        let out = tally().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}

/// A run for a number of positions whose every game is skipped ends with
/// an error instead of trying for ever; a run for a number of games just
/// counts them.
#[test]
fn a_positions_run_that_cannot_write_ends() {
    // Every random ply of this opening ends the game by the fifty-move
    // rule, so no game starts.
    let fifty = "4k3/8/8/8/8/8/8/R3K3 w - - 99 80";
    let mut c = config(Variant::Chess, 2);
    c.openings = tally::datagen::load_openings(fifty, Variant::Chess).unwrap();
    c.random_plies = 1;
    c.verify = None;
    let stop = AtomicBool::new(false);
    let path = temp("stuck.tdat");
    let e = run(&c, Target::Positions(100), &path, &stop, &Quiet).unwrap_err();
    assert!(e.starts_with("200 games in a row skipped"), "{e}");
    let out = generate(&c, Target::Games(3), &temp("stuck-games.tdat"));
    assert_eq!((out.games, out.skipped), (0, 3));
}

#[test]
fn openings_come_from_the_file_and_lopsided_ones_are_dropped() {
    let text = tally::matches::openings::SHIPPED;
    let openings = tally::datagen::load_openings(text, Variant::Chess).unwrap();
    assert_eq!(openings.len(), 40);
    let mut c = config(Variant::Chess, 2);
    c.openings = openings.clone();
    c.random_plies = 0;
    let path = temp("openings.tdat");
    generate(&c, Target::Games(2), &path);
    for g in read_all(&path) {
        let fen = g.start.fen(Variant::Chess);
        assert!(openings.contains(&fen), "{fen}");
        assert_eq!(g.positions[0].ply, 0);
    }
    // A check no position passes: every game is skipped, nothing written.
    if let Some(v) = c.verify.as_mut() {
        v.max_score = -1;
    }
    let path = temp("lopsided.tdat");
    let out = generate(&c, Target::Games(2), &path);
    assert_eq!((out.games, out.skipped), (0, 2));
    // An opening already over is refused with its line.
    let e = tally::datagen::load_openings("7k/5QQ1/8/8/8/8/8/K7 b - - 0 1", Variant::Chess)
        .unwrap_err();
    assert!(e.contains("line 1") && e.contains("over"), "{e}");
}

/// An openings file with a Latin-1 byte in a comment is read, as `tally
/// match` reads it.
#[test]
fn an_openings_file_need_not_be_utf8() {
    let d = cli::scratch("datagen-latin1");
    let epd = d.join("o.epd");
    let mut text = b"# caf\xe9\n".to_vec();
    text.extend_from_slice(b"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n");
    std::fs::write(&epd, text).unwrap();
    let run = tally()
        .args([
            "datagen",
            "-v",
            "chess",
            "--games",
            "1",
            "--nodes",
            "200",
            "--threads",
            "1",
        ])
        .arg("--openings")
        .arg(&epd)
        .arg("-o")
        .arg(d.join("out.tdat"))
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", stderr(&run));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn the_output_is_checked_before_any_game_is_played() {
    let d = cli::scratch("datagen-outputs");
    for (out, want) in [
        (d.to_str().unwrap(), "is a directory"),
        ("/nonexistent/x.tdat", "/nonexistent"),
    ] {
        let run = tally()
            .args(["datagen", "-v", "chess", "--games", "2", "--nodes", "200"])
            .args(["--openings", "/nonexistent/o.epd", "-o", out])
            .output()
            .unwrap();
        let e = stderr(&run);
        assert_eq!(run.status.code(), Some(2), "{out}: {e}");
        assert!(e.contains(want) && !e.contains("o.epd"), "{out}: {e}");
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// The four readers of a data file on `file`: `stats`, `text`, `tune` and
/// `train` (their outputs in `dir`), each as (name, exit code, stderr),
/// each given at most a minute (a reader that blocks fails).
fn readers(file: &Path, dir: &Path) -> Vec<(&'static str, Option<i32>, String)> {
    let f = file.to_str().unwrap();
    let tuned = dir.join("t.rs");
    let net = dir.join("n.tnn");
    let runs: [(&str, Vec<&str>); 4] = [
        ("stats", vec!["datagen", "stats", f]),
        ("text", vec!["datagen", "text", f]),
        (
            "tune",
            vec!["tune", "--data", f, "-o", tuned.to_str().unwrap()],
        ),
        (
            "train",
            vec![
                "train",
                "--data",
                f,
                "--epochs",
                "1",
                "-o",
                net.to_str().unwrap(),
            ],
        ),
    ];
    runs.into_iter()
        .map(|(name, args)| {
            let mut child = tally()
                .args(&args)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            let mut waited = 0;
            let status = loop {
                if let Some(s) = child.try_wait().unwrap() {
                    break s;
                }
                if waited > 600 {
                    let _ = child.kill();
                    panic!("{name} on {f} never ended");
                }
                std::thread::sleep(std::time::Duration::from_millis(100));
                waited += 1;
            };
            let mut e = String::new();
            std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut e).unwrap();
            (name, status.code(), e)
        })
        .collect()
}

/// `stats` and `text` read every file they can: one that is missing or
/// not a data file is reported and the rest are read; an output that is
/// one of the inputs is refused before anything is written.
#[test]
fn data_readers_go_on_past_a_file_they_cannot_read() {
    let dir = cli::scratch("datagen-readers");
    let good = dir.join("good.tdat");
    cli::datagen("chess", "2", "5", &good);
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "not data").unwrap();
    let missing = dir.join("missing.tdat");
    let one = stdout(&cli::tally(&["datagen", "stats", good.to_str().unwrap()]));
    let games = |report: &str| {
        report
            .lines()
            .find(|l| l.starts_with("chess: "))
            .map(str::to_owned)
    };
    let out = cli::tally(&[
        "datagen",
        "stats",
        good.to_str().unwrap(),
        missing.to_str().unwrap(),
        notes.to_str().unwrap(),
        good.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let e = stderr(&out);
    assert_eq!(e.lines().count(), 2, "{e}");
    assert!(e.contains("missing.tdat") && e.contains("notes.txt"), "{e}");
    // Both copies of the good file are counted: twice its games.
    let both = stdout(&out);
    let (one, both) = (games(&one).unwrap(), games(&both).unwrap());
    let count = |l: &str| -> u64 { l.split_whitespace().find_map(|w| w.parse().ok()).unwrap() };
    assert_eq!(count(&both), 2 * count(&one), "{one} / {both}");
    // An output that is an input, however spelled, is refused untouched.
    let before = std::fs::read(&good).unwrap();
    let spelled = dir.join(".").join("good.tdat");
    let out = cli::tally(&[
        "datagen",
        "text",
        good.to_str().unwrap(),
        "-o",
        spelled.to_str().unwrap(),
    ]);
    cli::refused(&out, "is also an input", "text -o its input");
    assert_eq!(std::fs::read(&good).unwrap(), before);
    // A device as the openings file is refused, not read to the end.
    let out = cli::tally(&[
        "datagen",
        "-n",
        "1",
        "-o",
        dir.join("zero.tdat").to_str().unwrap(),
        "--openings",
        "/dev/zero",
    ]);
    cli::refused(&out, "not a regular file or a pipe", "openings /dev/zero");
}

#[test]
fn damaged_data_files_say_where_and_whether_a_run_repairs_them() {
    let dir = cli::scratch("datagen-damaged");
    let good = dir.join("good.tdat");
    cli::datagen("chess", "2", "5", &good);
    let whole = std::fs::read(&good).unwrap();
    let h = FILE_HEADER_LEN + usize::from(u16::from_le_bytes([whole[10], whole[11]]));
    let n = usize::from(u16::from_le_bytes([whole[h + 6], whole[h + 7]]));
    let second = h + GAME_HEADER_LEN + RECORD_LEN * (1 + n);
    let mut flipped = whole.clone();
    flipped[h + GAME_HEADER_LEN + 3] ^= 0x10;
    let joined = [whole.clone(), whole.clone()].concat();
    let mut garbage = whole[..h].to_vec();
    garbage.extend_from_slice(&[0x55; 300]);
    let cut = whole[..whole.len() - 10].to_vec();
    let cases: [(&str, Vec<u8>, String, bool); 4] = [
        ("flipped", flipped, format!("game 1 (at byte {h})"), false),
        (
            "joined",
            joined,
            format!("game 3 (at byte {})", whole.len()),
            false,
        ),
        ("garbage", garbage, format!("game 1 (at byte {h})"), false),
        ("cut", cut, format!("game 2 (at byte {second})"), true),
    ];
    for (name, bytes, place, repairable) in cases {
        let path = dir.join(format!("{name}.tdat"));
        std::fs::write(&path, bytes).unwrap();
        for (reader, code, e) in readers(&path, &dir) {
            assert_eq!(code, Some(2), "{reader} on {name}: {e}");
            assert!(e.contains(&place), "{reader} on {name}: {e}");
            assert_eq!(
                e.contains("repairs it"),
                repairable,
                "{reader} on {name}: {e}"
            );
        }
    }
    // A header of a variant this Tally does not have.
    let path = dir.join("nosuch.tdat");
    let settings = String::from_utf8_lossy(&whole[FILE_HEADER_LEN..h])
        .replace("variant=chess", "variant=nosuch");
    std::fs::write(&path, tally::datagen::format::encode_file_header(&settings)).unwrap();
    for (reader, code, e) in readers(&path, &dir) {
        assert_eq!(code, Some(2), "{reader} on nosuch: {e}");
        assert!(e.contains("nosuch"), "{reader}: {e}");
    }
    // A FIFO with no writer is refused, not waited on.
    let fifo = dir.join("fifo.tdat");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        for (reader, code, e) in readers(&fifo, &dir) {
            assert_eq!(code, Some(2), "{reader} on a FIFO: {e}");
            assert!(e.contains("not a regular file"), "{reader}: {e}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
