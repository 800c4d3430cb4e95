//! The extinction game of the seed texts (`positions/extinction-seed.pgn`,
//! from `seeds/002_d0832ee0ed5029f3.txt`) replays legally under Tally's
//! extinction rules, its SAN resolved by shakmaty against the `Extinction`
//! position, and after `40. Qxh6` the game is still running: nothing is
//! extinct, Black is to move, and the 1-0 is a resignation.

use std::path::PathBuf;

use shakmaty::san::San;
use shakmaty::{Color, Position};
use tally::rules::{Action, ActionList, Ending, Extinction, Game, Rules, Variant};

fn pgn() -> String {
    let path: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "positions",
        "extinction-seed.pgn",
    ]
    .iter()
    .collect();
    std::fs::read_to_string(path).expect("extinction-seed.pgn")
}

/// The value of a tag pair, e.g. `[Result "1-0"]`.
fn tag(pgn: &str, name: &str) -> Option<String> {
    pgn.lines().find_map(|line| {
        let inner = line.trim().strip_prefix('[')?.strip_suffix(']')?;
        let (key, value) = inner.split_once(' ')?;
        (key == name).then(|| value.trim().trim_matches('"').to_owned())
    })
}

/// The SAN moves of the movetext: tags, comments, move numbers and the
/// result left out.
fn san_moves(pgn: &str) -> Vec<String> {
    let movetext: String = pgn
        .lines()
        .filter(|l| !l.trim_start().starts_with('['))
        .collect::<Vec<_>>()
        .join(" ");
    let mut out = Vec::new();
    let mut in_comment = false;
    for token in movetext.split_whitespace() {
        if in_comment {
            in_comment = !token.ends_with('}');
            continue;
        }
        if token.starts_with('{') {
            in_comment = !token.ends_with('}');
            continue;
        }
        let is_number = token
            .trim_end_matches('.')
            .chars()
            .all(|c| c.is_ascii_digit());
        if is_number || ["1-0", "0-1", "1/2-1/2", "*"].contains(&token) {
            continue;
        }
        out.push(token.to_owned());
    }
    out
}

/// Replays the seed game move by move.
fn replay() -> Game<Extinction> {
    let mut game = Game::new(Rules::<Extinction>::new(Variant::Extinction), None).expect("start");
    for (i, text) in san_moves(&pgn()).iter().enumerate() {
        let san: San = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        let m = san
            .to_move(&game.current().pos)
            .unwrap_or_else(|e| panic!("ply {} {text}: {e}", i + 1));
        assert_eq!(game.ending(), None, "over before ply {} {text}", i + 1);
        game.play(Action::Move(m))
            .unwrap_or_else(|e| panic!("ply {} {text}: {e}", i + 1));
    }
    game
}

#[test]
fn the_pgn_names_the_variant_and_the_result() {
    let pgn = pgn();
    assert_eq!(tag(&pgn, "Variant").as_deref(), Some("Extinction"));
    assert_eq!(tag(&pgn, "Result").as_deref(), Some("1-0"));
    let moves = san_moves(&pgn);
    assert_eq!(moves.len(), 79);
    assert_eq!(moves.first().map(String::as_str), Some("e4"));
    assert_eq!(moves.last().map(String::as_str), Some("Qxh6"));
}

#[test]
fn the_seed_game_replays_and_is_running_after_qxh6() {
    let game = replay();
    assert_eq!(game.actions().len(), 79);
    let node = game.current();
    assert_eq!(game.ending(), None);
    assert_eq!(node.turn(), Color::Black);
    assert!(!node.pos.extinct(Color::White));
    assert!(!node.pos.extinct(Color::Black));
    // The same FEN as fairy-stockfish's after the game's UCI moves.
    assert_eq!(
        node.fen(),
        "5r1k/3nq3/3pp2Q/2p3p1/3b3P/1P1P2p1/P4P2/2R2BNK b - - 0 40"
    );
}

/// Why Black resigned: whatever Black plays, White can make a black type
/// extinct next move.
#[test]
fn black_cannot_avoid_losing_a_type() {
    let game = replay();
    let rules = game.rules();
    let node = game.current();
    let mut replies = ActionList::new();
    rules.legal_actions(node, &mut replies);
    // Fairy-stockfish's `go perft 1` there: 40.
    assert_eq!(replies.len(), 40);
    for reply in replies {
        let after = rules.play(node, reply);
        let mut answers = ActionList::new();
        rules.legal_actions(&after, &mut answers);
        let wins = answers.iter().any(|&a| {
            let next = rules.play(&after, a);
            rules.position_ending(&next)
                == Some(Ending::Extinction {
                    winner: Color::White,
                })
        });
        assert!(wins, "{reply}");
    }
    // Resigning there records a White win.
    let mut resigned = game.clone();
    resigned.resign(Color::Black);
    assert_eq!(
        resigned.ending(),
        Some(Ending::Resignation {
            winner: Color::White
        })
    );
    assert_eq!(resigned.current().pos.turn(), Color::Black);
}
