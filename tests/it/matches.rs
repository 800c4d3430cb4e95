//! `match`: games between two Tally settings, forfeits by a scripted fake
//! UCI engine (tests/fixtures/fake_uci.py, run with python3), shards that
//! merge to the same totals as one run, resuming, and the command line's
//! errors. Fixed depths and one thread: every result is reproducible.
//!
//! No test depends on timing or machine load: no player races a clock
//! (only fakes that sleep past theirs on purpose play on one), engines
//! that answer are given waits they cannot miss (minutes, to start as to
//! move), and only engines that never answer are timed out.

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use tally::contest;
use tally::matches::results::{self, Header};
use tally::matches::{
    Control, ForfeitKind, GameRecord, MatchConfig, PlayerSpec, Quiet, SprtDecision, openings, run,
    summarise,
};
use tally::pgn::read_games;
use tally::referee::score_input;
use tally::rules::{EndingKind, Variant};
use tally::scoring::{DrawAdvantage, Scorer};
use tally::shard::Shard;

fn fake(mode: &str) -> String {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fake_uci.py");
    format!("cmd=python3 arg='{}' arg={mode}", script.display())
}

fn config(variant: Variant, a: &str, b: &str, games: usize, control: Control) -> MatchConfig {
    let openings = openings::parse_epd(openings::SHIPPED).unwrap();
    let players = [PlayerSpec::parse(a).unwrap(), PlayerSpec::parse(b).unwrap()];
    let mut c = MatchConfig::new(variant, players, control, openings);
    c.games = games;
    // Far above any reply of a working engine, however loaded the machine:
    // only an engine that never answers waits this long.
    c.hang_timeout = Duration::from_secs(120);
    c.start_timeout = Duration::from_secs(120);
    c
}

fn depth(d: i32) -> Control {
    Control {
        depth: Some(d),
        ..Control::default()
    }
}

fn play(c: &MatchConfig) -> Vec<GameRecord> {
    let stop = AtomicBool::new(false);
    let out = run(c, Vec::new(), &stop, &Quiet).expect("match runs");
    assert!(!out.interrupted);
    out.games
}

fn temp(name: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("tally-matches-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn two_tally_settings_play_scored_games() {
    let c = config(
        Variant::Stylish,
        "name=tally hash=8",
        "name=base eval=base hash=8",
        4,
        depth(2),
    );
    let games = play(&c);
    assert_eq!(games.len(), 4);
    let scorer = Scorer::new(Variant::Stylish);
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g.index, i);
        assert_eq!(g.opening, i / 2);
        assert_eq!(g.white, i % 2);
        assert!(g.forfeit.is_none());
        assert_ne!(g.ending, None);
        // The PGN reads back to the same points under the referee.
        let pgn = read_games(g.pgn.as_bytes()).unwrap();
        assert_eq!(pgn.len(), 1);
        assert!(pgn[0].problem.is_none());
        assert_eq!(pgn[0].variant.as_deref(), Some("stylish"));
        let record = score_input(&scorer, &pgn[0].input).unwrap();
        let (w, b) = (record.total.white.as_f64(), record.total.black.as_f64());
        let expected = if g.white == 0 { [w, b] } else { [b, w] };
        assert_eq!(g.points, expected);
        assert_eq!(record.plies.len(), g.moves.len());
    }
    let s = summarise(&["tally".into(), "base".into()], &games, None);
    assert_eq!(s.games, 4);
    assert_eq!(s.wins + s.draws + s.losses, 4);
    let total: f64 = games.iter().map(|g| g.points[0]).sum();
    assert!((s.mean_points[0] - total / 4.0).abs() < 1e-9);
    // Deterministic: the same games again.
    assert_eq!(play(&c), games);
}

#[test]
fn games_on_a_clock_record_it_and_read_back_to_the_same_points() {
    // A clock no reply can come near (the players' depths bound their
    // searches): each ply's comment carries the mover's clock after it,
    // and the PGN, clocks included, scores as the match did: in wacky a
    // mate earns the winner's time left.
    let tc = Control {
        base: Some(Duration::from_secs(3000)),
        ..Control::default()
    };
    let mut c = config(
        Variant::Wacky,
        "name=deep hash=8 depth=3",
        "name=shallow hash=8 depth=1",
        4,
        tc,
    );
    // The shipped first opening, and one where White mates in one (Ra8#).
    let mut openings = openings::parse_epd(openings::SHIPPED).unwrap();
    openings.truncate(1);
    openings.extend(openings::parse_epd("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\n").unwrap());
    c.openings = openings;
    let games = play(&c);
    let scorer = Scorer::new(Variant::Wacky);
    for g in &games {
        assert!(g.forfeit.is_none());
        let pgn = read_games(g.pgn.as_bytes()).unwrap();
        let input = &pgn[0].input;
        assert_eq!(input.clocks.len(), g.moves.len());
        // Without an increment each side's clock only runs down.
        for side in 0..2 {
            let readings: Vec<u64> = input
                .clocks
                .iter()
                .skip(side)
                .step_by(2)
                .map(|c| c.expect("a clock on every ply"))
                .collect();
            assert!(readings.windows(2).all(|w| w[1] <= w[0]), "{readings:?}");
            assert!(readings.iter().all(|&t| t <= 3000));
        }
        let record = score_input(&scorer, input).unwrap();
        let (w, b) = (record.total.white.as_f64(), record.total.black.as_f64());
        let expected = if g.white == 0 { [w, b] } else { [b, w] };
        assert_eq!(g.points, expected);
    }
    // A mate earns the winner's time left: the PGN without its clocks
    // scores the winner that much less, split as the rules split it.
    let time_award = |t: u64| {
        t / 3600 * 400_000
            + t % 3600 / 600 * 50_000
            + t % 600 / 60 * 4_000
            + t % 60 / 10 * 600
            + t % 10 * 50
    };
    let mut mates = 0;
    for g in games
        .iter()
        .filter(|g| g.ending == Some(EndingKind::Checkmate))
    {
        mates += 1;
        let mut input = read_games(g.pgn.as_bytes()).unwrap().remove(0).input;
        let left = input.clocks.last().copied().flatten().unwrap();
        let with = score_input(&scorer, &input).unwrap().total;
        input.clocks.clear();
        let without = score_input(&scorer, &input).unwrap().total;
        let gained = (with.white.as_f64() - without.white.as_f64())
            + (with.black.as_f64() - without.black.as_f64());
        assert!(left > 2700, "{left}");
        assert_eq!(gained, time_award(left) as f64);
    }
    assert_eq!(
        mates,
        2,
        "{:?}",
        games.iter().map(|g| g.ending).collect::<Vec<_>>()
    );
}

/// Tally against the fake engine in `mode`: both games forfeited by the
/// fake, by `kind`, with `reason` in the details.
fn forfeits(mode: &str, control: Control, kind: ForfeitKind, reason: &str) {
    let mut c = config(
        Variant::Chess,
        "name=tally hash=8 depth=1",
        &fake(mode),
        2,
        control,
    );
    if mode == "hang" {
        // The fake never replies: the wait is all this test measures.
        c.hang_timeout = Duration::from_secs(1);
    }
    // One game at a time for a crash or a flood: the second game needs the
    // restarted engine; two at once elsewhere, to save the waits.
    c.concurrency = if matches!(mode, "crash" | "flood" | "longline") {
        1
    } else {
        2
    };
    let games = play(&c);
    assert_eq!(games.len(), 2);
    for g in &games {
        let f = g
            .forfeit
            .as_ref()
            .unwrap_or_else(|| panic!("{mode}: no forfeit"));
        assert_eq!(f.player, 1, "{mode}: {f:?}");
        assert_eq!(f.kind, kind, "{mode}");
        assert!(f.reason.contains(reason), "{mode}: {}", f.reason);
        assert_eq!(g.ending, Some(EndingKind::Resignation));
        assert_eq!(g.points, [1.0, 0.0]);
        assert!(g.pgn.contains("forfeits"));
    }
    let s = summarise(&["tally".into(), format!("fake-{mode}")], &games, None);
    assert_eq!((s.wins, s.draws, s.losses), (2, 0, 0));
    assert_eq!(s.forfeits[1].get(&kind), Some(&2));
    assert!(s.forfeits[0].is_empty());
}

#[test]
fn a_crashing_engine_loses_and_is_restarted() {
    forfeits(
        "crash",
        depth(1),
        ForfeitKind::Crash,
        "crashed: the engine exited (exit status: 3)",
    );
}

#[test]
fn a_hanging_engine_loses() {
    forfeits("hang", depth(1), ForfeitKind::Hang, "no reply within 1.0 s");
}

/// An engine's control characters (its name, its illegal move) are kept
/// out of the summary table, the records and the PGN: shown escaped.
#[test]
fn an_engines_control_characters_are_escaped() {
    let mut c = config(
        Variant::Chess,
        "name=tally hash=8 depth=1",
        &fake("control"),
        2,
        depth(1),
    );
    c.concurrency = 1;
    let stop = AtomicBool::new(false);
    let out = run(&c, Vec::new(), &stop, &Quiet).expect("match runs");
    assert_eq!(out.names[1], "evil\\x1b[31mred\\x07");
    let table = tally::matches::summary::summary_table("chess", "depth 1", None, &out.summary);
    for text in out
        .games
        .iter()
        .flat_map(|g| [g.pgn.clone(), g.forfeit.as_ref().unwrap().reason.clone()])
        .chain([table])
    {
        assert!(!text.contains(['\x1b', '\x07']), "{text:?}");
    }
    let f = out.games[0].forfeit.as_ref().unwrap();
    assert!(
        f.reason.starts_with("illegal move '\\x1b[2Je2e4'"),
        "{}",
        f.reason
    );
}

/// Tally's own players keep the match's wait and stop as an engine's
/// process does: a search past the hang timeout forfeits, and Ctrl-C
/// (the stop flag) ends a search under way.
#[test]
fn a_tally_player_keeps_the_wait_and_the_stop() {
    let mut c = config(
        Variant::Chess,
        "name=deep hash=8 depth=64",
        "name=quick hash=8 depth=1",
        2,
        depth(64),
    );
    c.hang_timeout = Duration::from_secs(1);
    c.concurrency = 2;
    for g in play(&c) {
        let f = g.forfeit.as_ref().expect("the deep search forfeits");
        assert_eq!((f.player, f.kind), (0, ForfeitKind::Hang), "{f:?}");
        assert!(f.reason.contains("no reply within 1.0 s"), "{}", f.reason);
    }
    // With no deadline in sight, only the stop ends the games.
    c.hang_timeout = Duration::from_secs(100_000);
    let stop = AtomicBool::new(false);
    let out = std::thread::scope(|s| {
        let running = s.spawn(|| run(&c, Vec::new(), &stop, &Quiet).expect("match runs"));
        std::thread::sleep(Duration::from_millis(300));
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        running.join().unwrap()
    });
    assert!(out.interrupted);
    assert!(out.games.is_empty());
}

/// A run's games are bounded: a number beyond any experiment is refused
/// before its plan is made, and none is refused.
#[test]
fn the_games_of_a_run_are_bounded() {
    let mut c = config(Variant::Chess, "name=a", "name=b", 2, depth(1));
    assert_eq!(c.check(2, false), Ok(()));
    c.games = tally::matches::MAX_GAMES + 1;
    let e = c.check(2, false).unwrap_err();
    assert_eq!(e, "--games 10000001: at most 10000000 games in a run");
    c.games = 0;
    assert!(c.check(2, false).unwrap_err().contains("no games"));
    // What is left to play skips the resumed games.
    c.games = 6;
    let mut resumed = play(&{
        let mut r = c.clone();
        r.games = 2;
        r
    });
    resumed.retain(|g| g.index == 1);
    assert_eq!(Vec::from(c.todo(&resumed)), [0, 2, 3, 4, 5]);
}

#[test]
fn an_illegal_move_loses() {
    forfeits(
        "illegal",
        depth(1),
        ForfeitKind::Illegal,
        "illegal move 'a1a1'",
    );
}

/// The reason of the first game's forfeit, which must be an illegal move
/// (the `variant` and `drawadv` fakes answer with what they were told).
fn illegal_reason(c: &MatchConfig) -> String {
    let games = play(c);
    let f = games[0].forfeit.as_ref().expect("a forfeit");
    assert_eq!(f.kind, ForfeitKind::Illegal, "{}", f.reason);
    f.reason.clone()
}

#[test]
fn an_engine_that_lists_the_scoring_variant_is_told_it() {
    // The fake answers with the UCI_Variant value it was given (as an
    // illegal move): the scoring variant when it lists it, unless the
    // player's settings name one; nothing for a variant it does not list.
    for (variant, setting, told) in [
        (Variant::Stylish, "", "stylish"),
        (Variant::Sets, "", "chess"),
        (Variant::Chess, "", "chess"),
        (Variant::Stylish, " option.UCI_Variant=chess", "chess"),
    ] {
        let fake = format!("{}{setting}", fake("variant"));
        let c = config(variant, "name=tally hash=8 depth=1", &fake, 1, depth(1));
        let reason = illegal_reason(&c);
        assert!(
            reason.contains(&format!("'told-{told}'")),
            "{variant}{setting}: {reason}"
        );
    }
}

#[test]
fn an_engine_that_offers_draw_advantage_is_told_the_matchs() {
    // The fake answers with the DrawAdvantage value it was given: the
    // match's (black by default), unless the player's settings name one.
    for (advantage, setting, told) in [
        (None, "", "black"),
        (Some(DrawAdvantage::White), "", "white"),
        (
            Some(DrawAdvantage::None),
            " option.DrawAdvantage=black",
            "black",
        ),
    ] {
        let fake = format!("{}{setting}", fake("drawadv"));
        let mut c = config(
            Variant::Sets,
            "name=tally hash=8 depth=1",
            &fake,
            1,
            depth(1),
        );
        if let Some(a) = advantage {
            c.draw_advantage = a;
        }
        let reason = illegal_reason(&c);
        assert!(
            reason.contains(&format!("'told-{told}'")),
            "{advantage:?}{setting}: {reason}"
        );
    }
}

#[test]
fn a_chess960_match_tells_engines_uci_chess960_and_refuses_one_without_it() {
    // The fake answers with the UCI_Chess960 value it was given: true in
    // a Chess960 match, nothing in another, the spec's own when it sets it.
    for (chess960, setting, told) in [
        (true, "", "true"),
        (false, "", "unset"),
        (true, " option.UCI_Chess960=false", "false"),
    ] {
        let fake = format!("{}{setting}", fake("chess960"));
        let mut c = config(
            Variant::Chess,
            "name=tally hash=8 depth=1",
            &fake,
            1,
            depth(1),
        );
        c.chess960 = chess960;
        let reason = illegal_reason(&c);
        assert!(
            reason.contains(&format!("'told-{told}'")),
            "{chess960}{setting}: {reason}"
        );
    }
    // An engine that does not offer the option cannot start a 960 match.
    let mut c = config(Variant::Chess, "name=tally", &fake("illegal"), 1, depth(1));
    c.chess960 = true;
    let stop = AtomicBool::new(false);
    let e = run(&c, Vec::new(), &stop, &Quiet).expect_err("refused");
    assert!(e.contains("does not offer UCI_Chess960"), "{e}");
}

#[test]
fn an_engine_flooding_its_output_loses_and_is_restarted() {
    // Endless `info` lines, then one endless line: each forfeits at once
    // (the memory held stays bounded), and the next game gets a fresh
    // engine.
    forfeits(
        "flood",
        depth(1),
        ForfeitKind::Flood,
        "flooded its output: more than 100000 lines written in answer to one request",
    );
    forfeits(
        "longline",
        depth(1),
        ForfeitKind::Flood,
        "flooded its output: a line longer than 64 KiB",
    );
}

#[test]
fn output_that_is_not_utf8_is_read() {
    // `id author J\xfcrgen` at the start and `info string caf\xe9` before
    // the move: the engine starts, and its move is read (and refused as
    // illegal), not taken for a crash.
    forfeits(
        "latin1",
        depth(1),
        ForfeitKind::Illegal,
        "illegal move 'a1a1'",
    );
}

#[test]
fn a_reply_after_the_clock_loses_on_time() {
    // Two fakes that sleep past their whole clock: in each game White, the
    // first to move, loses on time. No player has to beat the clock (a
    // loaded machine can hold up any reply for seconds); only the fakes'
    // lateness is measured, and a slower machine only adds to it.
    let tc = Control {
        base: Some(Duration::from_secs(1)),
        ..Control::default()
    };
    let mut c = config(Variant::Chess, &fake("slow"), &fake("slow"), 2, tc);
    c.concurrency = 2;
    let games = play(&c);
    assert_eq!(games.len(), 2);
    for g in &games {
        let f = g.forfeit.as_ref().expect("a forfeit");
        assert_eq!(f.player, g.white, "{f:?}");
        assert_eq!(f.kind, ForfeitKind::Time, "{f:?}");
        assert!(f.reason.starts_with("lost on time: "), "{f:?}");
        assert!(f.reason.ends_with(" s used with 1.000 s left"), "{f:?}");
        assert!(g.moves.is_empty());
        assert_eq!(g.ending, Some(EndingKind::Resignation));
    }
    let s = summarise(&["a".into(), "b".into()], &games, None);
    assert_eq!((s.wins, s.draws, s.losses), (1, 0, 1));
}

#[test]
fn the_sprt_counts_pairs_and_stops_the_match() {
    // Tally against a fake that loses every game (an illegal move): every
    // pair is won, 2 points. The LLR over pairs (elo0=0, elo1=5, zero
    // counts taken as 0.001) is 1.92 after one pair and 7.64 after two,
    // above ln(0.95 / 0.05) = 2.94: with min_pairs=2 the match stops after
    // 4 of 40 games.
    let mut c = config(
        Variant::Chess,
        "name=tally hash=8",
        &fake("illegal"),
        40,
        depth(1),
    );
    c.sprt = Some("elo0=0,elo1=5,min_pairs=2".parse().unwrap());
    let stop = AtomicBool::new(false);
    let out = run(&c, Vec::new(), &stop, &Quiet).unwrap();
    let stopped = out.sprt_stop.as_ref().expect("the SPRT stops the match");
    assert_eq!(stopped.status.decision, SprtDecision::AcceptH1);
    assert_eq!(out.games.len(), 4);
    // One game at a time: the stop came with the last game, nothing after.
    assert_eq!(stopped.games, 4);
    assert_eq!(stopped.status, *out.summary.sprt.as_ref().unwrap());
    assert_eq!(out.summary.penta, [0, 0, 0, 0, 2]);
    let t = out.summary.sprt.as_ref().unwrap();
    assert_eq!(t.decision, SprtDecision::AcceptH1);
    assert!((t.llr - 7.6435).abs() < 1e-3, "{}", t.llr);
    // The command line prints it in one line.
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fake_uci.py");
    let engine = format!("cmd=python3 arg='{}' arg=illegal", script.display());
    let (code, out, err) = tally(&[
        "match",
        "-p",
        "name=tally hash=8",
        "-p",
        &engine,
        "--depth",
        "1",
        "--games",
        "40",
        "--concurrency",
        "1",
        "--sprt",
        "elo0=0,elo1=5,min_pairs=2",
        "--quiet",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("stopped early by the SPRT: H1 accepted at game 4 (LLR 7.64)"),
        "{err}"
    );
    assert!(
        out.lines().any(|l| l
            == "Elo n/a, LLR 7.64 [-2.94, 2.94] H1 accepted, 4 games, penta [0,0,0,0,2]"),
        "{out}"
    );
    assert!(
        out.contains("pairs 2, pentanomial [0,0,0,0,2]: Elo n/a"),
        "{out}"
    );
}

#[test]
fn shards_merge_to_the_same_totals_as_one_run() {
    let c = config(
        Variant::Dynamic,
        "name=a hash=8",
        "name=b eval=base hash=8",
        6,
        depth(2),
    );
    let all = play(&c);
    let mut paths = Vec::new();
    for k in 1..=3 {
        let mut s = c.clone();
        s.shard = Some(Shard::new(k, 3).unwrap());
        let games = play(&s);
        assert_eq!(games.len(), 2);
        let header = Header {
            format: results::FORMAT,
            experiment: s.experiment(),
            shard: s.shard,
        };
        let path = temp(&format!("shard-{k}.json"));
        results::write(&path, &header, &games).unwrap();
        paths.push(path);
    }
    let refs: Vec<&std::path::Path> = paths.iter().map(PathBuf::as_path).collect();
    let merged = results::merge(&refs).unwrap();
    assert_eq!(merged.duplicates, 0);
    assert_eq!(merged.header.experiment, c.experiment());
    assert_eq!(merged.games, all);
    let names = ["a".to_owned(), "b".to_owned()];
    assert_eq!(
        summarise(&names, &merged.games, None),
        summarise(&names, &all, None)
    );
    // Another experiment does not merge.
    let mut other = c.clone();
    other.games = 8;
    let header = Header {
        format: results::FORMAT,
        experiment: other.experiment(),
        shard: None,
    };
    let path = temp("other.json");
    results::write(&path, &header, &[]).unwrap();
    let mut refs = refs.clone();
    refs.push(&path);
    assert!(results::merge(&refs).is_err());
}

#[test]
fn a_resumed_run_plays_only_what_is_missing() {
    let c = config(
        Variant::Chess,
        "name=a hash=8",
        "name=b hash=8 eval=base",
        4,
        depth(1),
    );
    let all = play(&c);
    let stop = AtomicBool::new(false);
    let out = run(&c, all[..2].to_vec(), &stop, &Quiet).unwrap();
    assert_eq!(out.games, all);
    // Stopped before starting: nothing new, nothing lost.
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let out = run(&c, all[..1].to_vec(), &stop, &Quiet).unwrap();
    assert_eq!(out.games, all[..1].to_vec());
    assert!(out.interrupted);
}

#[test]
fn results_files_survive_a_cut_short_line() {
    let c = config(
        Variant::Chess,
        "name=a hash=8",
        "name=b hash=8",
        2,
        depth(1),
    );
    let games = play(&c);
    let header = Header {
        format: results::FORMAT,
        experiment: c.experiment(),
        shard: None,
    };
    let path = temp("cut.json");
    results::write(&path, &header, &games).unwrap();
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str("{\"type\":\"game\",\"index\":");
    std::fs::write(&path, text).unwrap();
    let (h, read) = results::read(&path).unwrap();
    assert_eq!(h, header);
    assert_eq!(read, games);
}

#[test]
fn a_cut_last_line_is_removed_before_new_games_follow_it() {
    let r = temp("torn.json");
    let _ = std::fs::remove_file(&r);
    let (code, _, err) = depth_one_match("chess", "4", &r, &[]);
    assert_eq!(code, 0, "{err}");
    // Keep the header and games 0 and 1, and half of game 2's line: as if
    // the run had been killed while writing it.
    let text = std::fs::read_to_string(&r).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5);
    let cut = format!(
        "{}\n{}\n{}\n{}",
        lines[0],
        lines[1],
        lines[2],
        &lines[3][..lines[3].len() / 2]
    );
    std::fs::write(&r, cut).unwrap();
    // Resuming removes the cut line (with a warning) and plays games 2
    // and 3 again; the file then reads whole, resumes and merges.
    let (code, _, err) = depth_one_match("chess", "4", &r, &[]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.starts_with("warning: ") && err.contains("removed a cut-short last line"),
        "{err}"
    );
    let (_, games) = results::read(&r).unwrap();
    let mut indices: Vec<usize> = games.iter().map(|g| g.index).collect();
    indices.sort_unstable();
    assert_eq!(indices, [0, 1, 2, 3]);
    let (code, out, err) = depth_one_match("chess", "4", &r, &[]);
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "{err}");
    assert!(out.contains("4 games"), "{out}");
    let (code, out, err) = tally(&["match", "merge", r.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("4 games"), "{out}");
    assert!(!out.contains("LLR"), "{out}");
    // Where an SPRT over the file's games stands, as a running test would
    // print it.
    let spec = ["--sprt", "elo0=0,elo1=10"];
    let (code, out, err) = tally(&[&["match", "merge", r.to_str().unwrap()][..], &spec].concat());
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("SPRT elo0=0 elo1=10") && out.contains("LLR"),
        "{out}"
    );
}

#[test]
fn a_results_file_in_use_is_refused() {
    let r = temp("locked.json");
    let _ = std::fs::remove_file(&r);
    let (code, _, err) = depth_one_match("chess", "2", &r, &[]);
    assert_eq!(code, 0, "{err}");
    let before = std::fs::read(&r).unwrap();
    // Another run holds the file.
    let held = std::fs::File::open(&r).unwrap();
    held.lock().unwrap();
    let (code, _, err) = depth_one_match("chess", "2", &r, &[]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("in use by another run"), "{err}");
    assert_eq!(std::fs::read(&r).unwrap(), before);
    drop(held);
    let (code, _, err) = depth_one_match("chess", "2", &r, &[]);
    assert_eq!(code, 0, "{err}");
}

/// Whether process `pid` is running (a zombie is not).
#[cfg(unix)]
fn running(pid: u32) -> bool {
    if std::path::Path::new("/proc/self").exists() {
        // Linux: the state follows the command's closing parenthesis.
        return std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
            !stat
                .rsplit(')')
                .next()
                .unwrap_or("")
                .trim_start()
                .starts_with('Z')
        });
    }
    Command::new("kill")
        .args(["-0", &pid.to_string()])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[cfg(unix)]
#[test]
fn a_hung_engine_dies_when_the_match_is_killed() {
    use std::time::Instant;
    let pidfile = temp("hung.pid");
    let _ = std::fs::remove_file(&pidfile);
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fake_uci.py");
    let engine = format!(
        "cmd=python3 arg='{}' arg=hang arg='{}'",
        script.display(),
        pidfile.display()
    );
    let mut run = Command::new(env!("CARGO_BIN_EXE_tally"))
        .args([
            "match",
            "-p",
            "name=a hash=8",
            "-p",
            &engine,
            "--depth",
            "1",
            "--games",
            "2",
            "--concurrency",
            "1",
            "--hang-timeout",
            "3600",
            "--quiet",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // The fake writes its process id when it starts to hang (on its first
    // `go`). The bounds below are generous: they only end a broken test.
    let started = Instant::now();
    let pid = loop {
        if let Ok(text) = std::fs::read_to_string(&pidfile) {
            break text.trim().parse::<u32>().unwrap();
        }
        if started.elapsed() > Duration::from_secs(120) {
            let _ = run.kill();
            panic!("the fake engine never started to hang");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(running(pid));
    run.kill().unwrap(); // SIGKILL: no destructor runs.
    run.wait().unwrap();
    let killed = Instant::now();
    while running(pid) && killed.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(50));
    }
    let orphaned = running(pid);
    if orphaned {
        let _ = Command::new("kill")
            .args(["-KILL", &pid.to_string()])
            .status();
    }
    assert!(!orphaned, "the hung engine {pid} outlived its match");
}

fn tally(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tally"))
        .args(args)
        .output()
        .expect("tally runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `tally match` at depth 1 between the variant evaluator and the base,
/// its results in `results`, with `extra` arguments.
fn depth_one_match(
    variant: &str,
    games: &str,
    results: &std::path::Path,
    extra: &[&str],
) -> (i32, String, String) {
    let mut args = vec![
        "match",
        "-v",
        variant,
        "-p",
        "name=a hash=8",
        "-p",
        "name=b hash=8 eval=base",
        "--depth",
        "1",
        "--games",
        games,
        "--quiet",
        "--results",
        results.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    tally(&args)
}

#[test]
fn command_line_match_and_merge() {
    let r1 = temp("cli-1.json");
    let r2 = temp("cli-2.json");
    let all = temp("cli-all.json");
    for (k, r) in [("1/2", &r1), ("2/2", &r2)] {
        let (code, out, err) = depth_one_match("sets", "4", r, &["--shard", k]);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("2 games"), "{out}");
    }
    let (code, out, err) = tally(&[
        "match",
        "merge",
        r1.to_str().unwrap(),
        r2.to_str().unwrap(),
        "-o",
        all.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let s: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(s["games"], 4);
    let (_, games) = results::read(&all).unwrap();
    assert_eq!(
        games.iter().map(|g| g.index).collect::<Vec<_>>(),
        [0, 1, 2, 3]
    );
    // Running shard 1 again resumes: nothing new to play.
    let (code, out, _) = tally(&[
        "match",
        "-v",
        "sets",
        "-p",
        "name=a hash=8",
        "-p",
        "name=b hash=8 eval=base",
        "--depth",
        "1",
        "--games",
        "4",
        "--shard",
        "1/2",
        "--quiet",
        "--results",
        r1.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("2 games"), "{out}");
}

#[test]
fn command_line_errors_are_one_line_and_exit_2() {
    for args in [
        vec![
            "match",
            "-p",
            "depth=1",
            "-p",
            "cmd=/nonexistent/engine",
            "--depth",
            "1",
        ],
        vec!["match", "-p", "depth=1", "--depth", "1"],
        vec!["match", "-p", "depth=1", "-p", "colour=red", "--depth", "1"],
        vec!["match", "-p", "x=1"],
        vec!["match", "-p", "a", "-p", "b", "--tc", "fast"],
        vec![
            "match", "-p", "name=a", "-p", "name=b", "--depth", "1", "--shard", "3/2",
        ],
        vec![
            "match",
            "-p",
            "name=a",
            "-p",
            "name=b",
            "--depth",
            "1",
            "--openings",
            "/nonexistent.epd",
        ],
        vec![
            "match",
            "-p",
            "name=a threads=2",
            "-p",
            "name=b",
            "--depth",
            "1",
            "--concurrency",
            "64",
        ],
        vec!["match", "merge", "/nonexistent.json"],
        vec![
            "match",
            "merge",
            "/nonexistent.json",
            "--sprt",
            "elo0=0,elo=10",
        ],
        vec!["analyse", "--fen", "not a fen"],
        vec!["analyse", "--moves", "e2e4 e2e4"],
        vec!["analyse", "--depth", "0"],
        vec!["analyse", "--pgn", "/nonexistent.pgn"],
    ] {
        let (code, _, err) = tally(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error"), "{args:?}: {err}");
    }
}

#[test]
fn command_line_analyse_json_and_whole_game() {
    let (code, out, err) = tally(&[
        "analyse",
        "-v",
        "stylish",
        "--fen",
        "4K3/R4Pk1/5p2/3B4/8/8/8/7R w - - 0 1",
        "--depth",
        "2",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let j: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(j["actions"][0]["action"], "f7f8n");
    assert_eq!(j["actions"][0]["award"]["white"], 230);
    assert_eq!(j["actions"][0]["value"]["points"], 230.0);
    // A whole game: annotated PGN that reads back, and an SVG chart.
    let pgn = temp("game.pgn");
    std::fs::write(
        &pgn,
        "[White \"A\"]\n[Black \"B\"]\n[Variant \"stylish\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n",
    )
    .unwrap();
    let svg = temp("game.svg");
    let annotated = temp("annotated.pgn");
    let (code, _, err) = tally(&[
        "analyse",
        "--pgn",
        pgn.to_str().unwrap(),
        "--depth",
        "2",
        "--svg",
        svg.to_str().unwrap(),
        "-o",
        annotated.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&annotated).unwrap();
    assert!(text.contains("[Variant \"stylish\"]"));
    assert!(text.contains("Qxf7#"));
    assert!(text.contains("missed"), "{text}");
    let games = read_games(text.as_bytes()).unwrap();
    let record = score_input(&Scorer::new(Variant::Stylish), &games[0].input).unwrap();
    // Qxf7#: an adjacent queen mates (60); a queen takes a pawn for 0.
    assert_eq!(record.total.white.as_f64(), 60.0);
    let chart = std::fs::read_to_string(&svg).unwrap();
    assert!(chart.starts_with("<svg") && chart.contains("A (White)"));
}

#[test]
fn extinction_matches_default_to_the_extinction_openings() {
    let r = temp("cli-extinction.json");
    let (code, _, err) = depth_one_match("extinction", "2", &r, &[]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&r).unwrap();
    let header = text.lines().next().unwrap();
    // The experiment names its openings by count and digest.
    assert!(header.contains("\"openings\":\"110 "), "{header}");
    let first = openings::parse_epd(openings::SHIPPED_EXTINCTION).unwrap()[0]
        .fen
        .clone();
    assert!(text.contains(&first), "{text}");
}

#[test]
fn outputs_are_checked_before_any_game_is_played() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    for (flag, out, want) in [
        ("--results", "/nonexistent/r.jsonl", "/nonexistent"),
        ("--pgn", "/nonexistent/g.pgn", "/nonexistent"),
        ("--pgn", dir.to_str().unwrap(), "is a directory"),
    ] {
        let run = Command::new(env!("CARGO_BIN_EXE_tally"))
            .args(["match", "-p", "name=a", "-p", "name=b", "--depth", "1"])
            .args(["--openings", "/nonexistent/o.epd", flag, out, "--quiet"])
            .output()
            .unwrap();
        let e = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{flag} {out}: {e}");
        assert!(
            e.contains(want) && e.contains(flag) && !e.contains("o.epd"),
            "{flag}: {e}"
        );
    }
}

/// The three players of the tournament tests, by depth.
const THREE: [&str; 6] = [
    "-p",
    "name=a depth=1",
    "-p",
    "name=b depth=2",
    "-p",
    "name=c depth=3",
];

/// `tally match ARGS --json` and its one JSON object.
fn json_run(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["match"];
    all.extend_from_slice(args);
    all.push("--json");
    let (code, out, err) = tally(&all);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(out.trim()).expect("one JSON object")
}

/// Checks a tournament's JSON against its results file: every player's
/// games, points, wins, draws and losses are the sums of its games; the
/// crosstable's cells are the pairings' sums, each seen from both
/// sides; the Elo are centred, ranked, and at their maximum likelihood
/// (each player's expected points, with the virtual draw of every
/// pairing, equal its points).
fn check_standings(j: &serde_json::Value, games: &[GameRecord], names: &[&str]) {
    let num = |name: &str| names.iter().position(|n| *n == name).unwrap();
    let standings = j["standings"].as_array().unwrap();
    assert_eq!(standings.len(), names.len());
    let mut elo = vec![0.0; names.len()];
    for e in standings {
        let p = num(e["name"].as_str().unwrap());
        let mine: Vec<(&GameRecord, usize)> = games
            .iter()
            .filter_map(|g| g.players.iter().position(|&x| x == p).map(|s| (g, s)))
            .collect();
        assert_eq!(e["games"], mine.len());
        let points: f64 = mine.iter().map(|(g, s)| g.points[*s]).sum();
        assert!((e["points"].as_f64().unwrap() - points).abs() < 1e-9);
        let wins = mine
            .iter()
            .filter(|(g, s)| g.points[*s] > g.points[1 - s])
            .count();
        assert_eq!(e["wins"], wins, "{e}");
        let score =
            (e["wins"].as_f64().unwrap() + e["draws"].as_f64().unwrap() / 2.0) / mine.len() as f64;
        assert!((e["score"].as_f64().unwrap() - score).abs() < 1e-12);
        elo[p] = e["elo"].as_f64().unwrap();
    }
    let ranked: Vec<f64> = standings
        .iter()
        .map(|e| e["elo"].as_f64().unwrap())
        .collect();
    assert!(ranked.windows(2).all(|w| w[0] >= w[1]), "{ranked:?}");
    assert!(elo.iter().sum::<f64>().abs() < 1e-5, "{elo:?}");
    for row in j["crosstable"].as_array().unwrap() {
        let p = num(row["name"].as_str().unwrap());
        for cell in row["opponents"].as_array().unwrap() {
            let q = num(cell["name"].as_str().unwrap());
            let between: Vec<&GameRecord> = games
                .iter()
                .filter(|g| g.players == [p, q] || g.players == [q, p])
                .collect();
            assert_eq!(cell["games"], between.len());
            let seat = |g: &GameRecord| usize::from(g.players[1] == p);
            let mine: f64 = between.iter().map(|g| g.points[seat(g)]).sum();
            let theirs: f64 = between.iter().map(|g| g.points[1 - seat(g)]).sum();
            assert!((cell["points"].as_f64().unwrap() - mine).abs() < 1e-9);
            assert!((cell["opponent_points"].as_f64().unwrap() - theirs).abs() < 1e-9);
        }
    }
    // The likelihood's maximum: sum over opponents of (games + 1)
    // E(elo_p - elo_q) equals the points (wins + draws / 2 + 1/2 each).
    for p in 0..names.len() {
        let mut expected = 0.0;
        let mut scored = 0.0;
        for row in j["crosstable"].as_array().unwrap() {
            if num(row["name"].as_str().unwrap()) != p {
                continue;
            }
            for cell in row["opponents"].as_array().unwrap() {
                let q = num(cell["name"].as_str().unwrap());
                let n = cell["games"].as_f64().unwrap() + 1.0;
                expected += n * tally::matches::stats::expected_score(elo[p] - elo[q]);
                scored +=
                    cell["wins"].as_f64().unwrap() + cell["draws"].as_f64().unwrap() / 2.0 + 0.5;
            }
        }
        assert!((expected - scored).abs() < 1e-5, "{p}: {expected} {scored}");
    }
}

#[test]
fn a_round_robin_of_three_gives_standings_and_a_crosstable() {
    let r = temp("round-robin.json");
    let pgn = temp("round-robin.pgn");
    let _ = std::fs::remove_file(&r);
    let _ = std::fs::remove_file(&pgn);
    let mut args = vec!["-v", "stylish"];
    args.extend_from_slice(&THREE);
    args.extend_from_slice(&["--tournament", "round-robin", "--games", "4"]);
    let (rs, ps) = (r.to_str().unwrap(), pgn.to_str().unwrap());
    let mut with_files = args.clone();
    with_files.extend_from_slice(&["--results", rs, "--pgn", ps]);
    let j = json_run(&with_files);
    let (header, mut games) = results::read(&r).unwrap();
    games.sort_by_key(|g| g.index);
    assert_eq!(header.experiment.tournament.as_deref(), Some("round-robin"));
    assert_eq!(games.len(), 12);
    assert_eq!(j["tournament"], "round-robin");
    assert_eq!(j["games"], 12);
    for e in j["standings"].as_array().unwrap() {
        assert_eq!(e["games"], 8, "3 players, 4 games a pairing: 8 each");
    }
    check_standings(&j, &games, &["a", "b", "c"]);
    // Each pairing plays the two-player match's schedule: a-b's games
    // are those of `tally match -p a -p b --games 4`, move for move.
    let pair = |p: [usize; 2]| -> Vec<(usize, Vec<String>, [f64; 2])> {
        games
            .iter()
            .filter(|g| g.players == p)
            .map(|g| (g.white, g.moves.clone(), g.points))
            .collect()
    };
    let c = config(
        Variant::Stylish,
        "name=a depth=1",
        "name=b depth=2",
        4,
        Control::default(),
    );
    let ab: Vec<_> = play(&c)
        .into_iter()
        .map(|g| (g.white, g.moves, g.points))
        .collect();
    assert_eq!(pair([0, 1]), ab);
    // The PGN names each game's pairing and place.
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(
        text.matches("[Event \"tally match (stylish): a vs c\"]")
            .count(),
        4
    );
    assert!(text.contains("[Round \"3.4\"]"), "b vs c's fourth game");
    // The text summary: the standings, the crosstable, the pairings.
    let (code, out, err) = tally(&[&["match"][..], &args, &["--quiet"]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("stylish, per-player limits: round-robin of 3 players, 12 games\n"),
        "{out}"
    );
    assert!(
        out.contains("crosstable: each row's points against each column (games)"),
        "{out}"
    );
    assert!(out.contains("\nb vs c: 4 games, b "), "{out}");
}

#[test]
fn a_gauntlet_pairs_the_first_player_with_each_other() {
    let mut args = vec!["-v", "stylish"];
    args.extend_from_slice(&THREE);
    args.extend_from_slice(&["--tournament", "gauntlet", "--games", "4", "--results"]);
    let r = temp("gauntlet.json");
    let _ = std::fs::remove_file(&r);
    args.push(r.to_str().unwrap());
    let j = json_run(&args);
    let (_, games) = results::read(&r).unwrap();
    assert_eq!(games.len(), 8);
    let games_of = |name: &str| {
        j["standings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["name"] == name)
            .unwrap()["games"]
            .clone()
    };
    assert_eq!(
        (games_of("a"), games_of("b"), games_of("c")),
        (8.into(), 4.into(), 4.into())
    );
    // b and c never meet: each has a alone in the crosstable.
    let row = |k: usize| j["crosstable"][k]["opponents"].as_array().unwrap().len();
    assert_eq!((row(0), row(1), row(2)), (2, 1, 1));
    check_standings(&j, &games, &["a", "b", "c"]);
    // Every game is one of a's.
    assert!(games.iter().all(|g| g.players[0] == 0));
}

#[test]
fn tournament_shards_merge_to_the_unsharded_run() {
    let mut base = vec!["-v", "dynamic"];
    base.extend_from_slice(&THREE);
    base.extend_from_slice(&["--games", "4", "--quiet"]);
    let all = json_run(&base);
    let mut paths = Vec::new();
    for k in ["1/3", "2/3", "3/3"] {
        let r = temp(&format!("rr-shard-{}.json", &k[..1]));
        let _ = std::fs::remove_file(&r);
        let mut args = base.clone();
        args.extend_from_slice(&["--shard", k, "--results", r.to_str().unwrap()]);
        json_run(&args);
        paths.push(r);
    }
    let mut merge = vec!["merge"];
    merge.extend(paths.iter().map(|p| p.to_str().unwrap()));
    let merged = json_run(&merge);
    assert_eq!(merged, all);
    // The same for contests: a series of 2 in each pairing, 3 each,
    // sharded by contest.
    let mut base = vec!["-v", "stylish"];
    base.extend_from_slice(&THREE);
    base.extend_from_slice(&["--format", "series:2", "--contests", "3", "--quiet"]);
    let all = json_run(&base);
    let mut merge = vec!["merge".to_owned()];
    for k in ["1/2", "2/2"] {
        let r = temp(&format!("series-shard-{}.json", &k[..1]));
        let _ = std::fs::remove_file(&r);
        let mut args = base.clone();
        args.extend_from_slice(&["--shard", k, "--results", r.to_str().unwrap()]);
        json_run(&args);
        merge.push(r.to_str().unwrap().to_owned());
    }
    let merge: Vec<&str> = merge.iter().map(String::as_str).collect();
    assert_eq!(json_run(&merge), all);
}

/// Contests in a two-player match: every contest replays from its
/// recorded games to the figures of the summary, colours alternate
/// within it and its first player alternates between contests; a run cut
/// in the middle of a contest resumes it and plays the same games.
#[test]
fn a_match_of_stylish_series_counts_contests_and_resumes_one_cut_short() {
    let rules =
        contest::Rules::new(contest::Format::Series { games: 4 }, Variant::Stylish).unwrap();
    let mut c = config(
        Variant::Stylish,
        "name=a depth=1",
        "name=b depth=2",
        0,
        Control::default(),
    );
    c.contest = Some(rules);
    c.contests = 4;
    let games = play(&c);
    let contests = tally::matches::tournament::contests(&games, &rules);
    assert_eq!(contests.len(), 4);
    let mut won = [0, 0];
    for ((_, index), state) in &contests {
        let state = state.as_ref().unwrap();
        let decision = state.decision().expect("every contest over");
        let first = index % 2;
        if let Some(w) = decision.winner {
            won[if w == contest::Seat::First {
                first
            } else {
                1 - first
            }] += 1;
        }
        for g in state.games() {
            // Game k of contest c: the first player is White in the odd
            // games; the first player is seat c % 2.
            let white_first = g.number % 2 == 1;
            assert_eq!(g.white == contest::Seat::First, white_first);
        }
        // The sums by player are the games' points.
        let mine: f64 = games
            .iter()
            .filter(|g| g.contest.map(|x| x.contest) == Some(*index))
            .map(|g| g.points[first])
            .sum();
        assert_eq!(state.standing().totals[0].as_f64(), mine);
    }
    let st = tally::matches::tournament::standings(
        &["a".to_owned(), "b".to_owned()],
        &[[0, 1]],
        &games,
        Some(&rules),
    );
    let tally_of = |name: &str| {
        st.standings
            .iter()
            .find(|e| e.name == name)
            .unwrap()
            .contests
            .unwrap()
    };
    assert_eq!((tally_of("a").won, tally_of("b").won), (won[0], won[1]));
    // Cut after the first game of the third contest: the resumed run
    // plays the rest of it and the fourth, to the same games.
    let cut: Vec<GameRecord> = games
        .iter()
        .filter(|g| {
            g.contest
                .is_some_and(|x| x.contest < 2 || (x.contest == 2 && x.game == 1))
        })
        .cloned()
        .collect();
    assert!(cut.len() < games.len());
    let stop = AtomicBool::new(false);
    let out = run(&c, cut, &stop, &Quiet).unwrap();
    assert_eq!(out.games, games);
}

/// Two identical players play each opening's two games alike with the
/// colours reversed, so each pairing of regular games ties: every
/// tie-break match goes on to its game 3, a tiebraker tie-break (with
/// the first player White), as the contest's rules say.
#[test]
fn tied_dynamic_matches_go_to_tiebraker_games() {
    let r = temp("tiebreak.json");
    let pgn = temp("tiebreak.pgn");
    let _ = std::fs::remove_file(&r);
    let _ = std::fs::remove_file(&pgn);
    let (code, out, err) = tally(&[
        "match",
        "-p",
        "name=x depth=2",
        "-p",
        "name=y depth=2",
        "--format",
        "tiebreak-match:2",
        "--contests",
        "2",
        "--quiet",
        "--results",
        r.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("dynamic, per-player limits: match of 2 players"),
        "{out}"
    );
    assert!(
        out.contains("contests: tiebreak-match:2 dynamic, resignation scored; 2 per pairing"),
        "{out}"
    );
    let (_, games) = results::read(&r).unwrap();
    for c in 0..2 {
        let of: Vec<&GameRecord> = games
            .iter()
            .filter(|g| g.contest.is_some_and(|x| x.contest == c))
            .collect();
        let regular: f64 = of
            .iter()
            .filter(|g| !g.contest.unwrap().tiebreak)
            .map(|g| g.points[0] - g.points[1])
            .sum();
        assert_eq!(regular, 0.0, "contest {c}: the regular games tie");
        let third = of
            .iter()
            .find(|g| g.contest.unwrap().game == 3)
            .expect("a tie-break game");
        assert!(third.contest.unwrap().tiebreak);
        assert!(third.pgn.contains("[Variant \"tiebraker\"]"));
        assert_eq!(third.white, c % 2, "the contest's first player is White");
    }
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.contains("[Round \"1.2.3\"]"), "{text}");
}

/// A sets series in a match: each game is scored with the draw advantage
/// of the player who holds it (the second of the contest, Black in its
/// game 1), by colour in that game: the PGN re-scored so gives the
/// recorded points.
#[test]
fn a_sets_contest_scores_each_game_with_its_holder_s_draw_advantage() {
    let rules = contest::Rules::new(contest::Format::Series { games: 2 }, Variant::Sets).unwrap();
    let mut c = config(
        Variant::Sets,
        "name=a depth=1",
        "name=b depth=1 eval=base",
        0,
        Control::default(),
    );
    c.contest = Some(rules);
    c.contests = 4;
    let games = play(&c);
    assert_eq!(games.len(), 8);
    for g in &games {
        let first = g.contest_first().unwrap();
        let holder = 1 - first;
        let advantage = if g.white == holder {
            DrawAdvantage::White
        } else {
            DrawAdvantage::Black
        };
        let mut scorer = Scorer::new(Variant::Sets);
        scorer.set_draw_advantage(advantage);
        let pgn = read_games(g.pgn.as_bytes()).unwrap();
        let record = score_input(&scorer, &pgn[0].input).unwrap();
        let (w, b) = (record.total.white.as_f64(), record.total.black.as_f64());
        let expected = if g.white == 0 { [w, b] } else { [b, w] };
        assert_eq!(g.points, expected, "game {}", g.index);
    }
}

#[test]
fn tournament_and_contest_errors_are_one_line_and_exit_2() {
    let three = |extra: &[&'static str]| {
        let mut v = vec!["match", "--depth", "1"];
        v.extend_from_slice(&THREE);
        v.extend_from_slice(extra);
        v
    };
    let two = |extra: &[&'static str]| {
        let mut v = vec!["match", "-p", "name=a", "-p", "name=b", "--depth", "1"];
        v.extend_from_slice(extra);
        v
    };
    for (args, want) in [
        (
            three(&["--sprt", "elo0=0,elo1=5"]),
            "--sprt tests one player against another",
        ),
        (
            two(&["--format", "series:2", "--sprt", "elo0=0,elo1=5"]),
            "--sprt tests games, not contests",
        ),
        (
            three(&["--tournament", "swiss"]),
            "expected round-robin or gauntlet",
        ),
        (
            two(&["--format", "league:2"]),
            "--format: format 'league:2'",
        ),
        (
            two(&["--format", "tiebreak-match:2", "-v", "stylish"]),
            "a tiebreak-match plays dynamic",
        ),
        (
            two(&["--format", "series:2", "--colour-chooser", "first"]),
            "only sets has a draw advantage",
        ),
        (
            two(&[
                "-v",
                "sets",
                "--format",
                "series:2",
                "--colour-chooser",
                "third",
            ]),
            "expected first, second or none",
        ),
        (
            two(&[
                "-v",
                "sets",
                "--format",
                "series:2",
                "--draw-advantage",
                "white",
            ]),
            "use --colour-chooser",
        ),
        (
            two(&["--format", "series:2", "--resignation-ends", "maybe"]),
            "expected on or off",
        ),
        (
            two(&["--format", "series:4", "--games", "6"]),
            "give a multiple of 4",
        ),
        (
            vec!["match", "-p", "name=a", "--depth", "1"],
            "give two --player for a match",
        ),
    ] {
        let (code, _, err) = tally(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
    // clap's own: --contests without --format.
    let (code, _, err) = tally(&two(&["--contests", "2"]));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--format"), "{err}");
}

/// In a sets contest an engine is told each game's draw advantage: the
/// fake is the second player, the holder (the first chose White), so it
/// is told black for game 1 (its colour there) and white for game 2.
/// It answers with what it was told (an illegal move, a forfeit each
/// time, which does not end a sets series).
#[test]
fn an_engine_in_a_sets_contest_is_told_each_game_s_draw_advantage() {
    let rules = contest::Rules::new(contest::Format::Series { games: 2 }, Variant::Sets).unwrap();
    let mut c = config(
        Variant::Sets,
        "name=tally hash=8 depth=1",
        &fake("drawadv"),
        0,
        depth(1),
    );
    c.contest = Some(rules);
    c.contests = 1;
    let games = play(&c);
    let told: Vec<(usize, String)> = games
        .iter()
        .map(|g| {
            let reason = &g.forfeit.as_ref().expect("the fake forfeits").reason;
            (g.white, reason.clone())
        })
        .collect();
    assert_eq!(told.len(), 2);
    assert_eq!(told[0].0, 0);
    assert!(told[0].1.contains("'told-black'"), "{told:?}");
    assert_eq!(told[1].0, 1);
    assert!(told[1].1.contains("'told-white'"), "{told:?}");
}
