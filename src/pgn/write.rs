//! Writing PGN: a played game as tags and SAN movetext with a comment per
//! ply, for `tally match` (the games, with their awards) and `tally
//! analyse` (the annotated game).
//!
//! What lives here: [`san`] (one action in SAN, special actions as their
//! word), [`result_text`] (the PGN result of a scored game), [`pgn_of`]
//! (a game's skeleton) and [`write_pgn`]. The conventions, which make the
//! output read back to the same points, are in [`crate::pgn`]; what goes
//! into the comments is the caller's.

use std::time::Duration;

use shakmaty::Color;
use shakmaty::san::San;

use super::{ROSTER, STANDARD_FEN, WRITER_TAGS, action_command, escape_tag, fen_numbering};
use crate::referee::ScoreRecord;
use crate::rules::{Action, Ending, Game, Node, Pos};

/// An action in SAN as played from `before` into `after` (`+` for check,
/// `#` for checkmate); special actions as their word.
pub fn san<P: Pos>(before: &Node<P>, action: Action, after: &Node<P>, mate: bool) -> String {
    match action {
        Action::Move(m) => {
            let mut s = San::from_move(&before.pos, m).to_string();
            if mate {
                s.push('#');
            } else if after.check {
                s.push('+');
            }
            s
        }
        other => other.to_string(),
    }
}

/// The SAN of every action of a game, in order.
pub fn game_sans<P: Pos>(game: &Game<P>) -> Vec<String> {
    let nodes = game.nodes();
    let n = game.actions().len();
    game.actions()
        .iter()
        .enumerate()
        .map(|(i, &a)| {
            let mate = i + 1 == n && matches!(game.ending(), Some(Ending::Checkmate { .. }));
            san(&nodes[i], a, &nodes[i + 1], mate)
        })
        .collect()
}

/// The SAN of `line` (actions as UCI text or special words) played on
/// from where `game` stands, as far as its actions are legal there.
pub fn line_sans(game: &crate::rules::AnyGame, line: &[String]) -> Vec<String> {
    let mut g = game.clone();
    let start = g.actions().len();
    for a in line {
        if g.play_text(a).is_err() {
            break;
        }
    }
    let mut sans = crate::with_game!(&g, |g| game_sans(g));
    sans.split_off(start.min(sans.len()))
}

/// The PGN result of a scored game (see the module docs).
pub fn result_text(record: &ScoreRecord) -> &'static str {
    match record.ending {
        None => "*",
        Some(Ending::Resignation { winner }) => winner_text(Some(winner)),
        Some(_) => {
            let w = record.total.white;
            let b = record.total.black;
            winner_text(match w.cmp(&b) {
                std::cmp::Ordering::Greater => Some(Color::White),
                std::cmp::Ordering::Less => Some(Color::Black),
                std::cmp::Ordering::Equal => None,
            })
        }
    }
}

fn winner_text(w: Option<Color>) -> &'static str {
    match w {
        Some(Color::White) => "1-0",
        Some(Color::Black) => "0-1",
        None => "1/2-1/2",
    }
}

/// One ply of PGN output.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnPly {
    /// The action's text: SAN for a move, the word for a special action.
    pub text: String,
    /// Whether the action is special (written as an `[%action]` comment).
    pub special: bool,
    /// The ply's comment, if any.
    pub comment: Option<String>,
}

/// A game to write as PGN.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnOut {
    /// Tags in order; those of [`WRITER_TAGS`] (any
    /// case) are made by [`write_pgn`] and skipped here.
    pub tags: Vec<(String, String)>,
    /// The `Variant` tag's value (the variant id, or `Chess960`); no tag
    /// when empty.
    pub variant: String,
    /// The start FEN (the standard position when empty); its side to move
    /// and fullmove number number the moves.
    pub start_fen: String,
    /// The plies.
    pub plies: Vec<PgnPly>,
    /// A comment before the first ply (the game's summary), if any.
    pub intro: Option<String>,
    /// The result token (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub result: String,
}

/// A comment as PGN can carry it: no braces, control characters escaped.
fn clean_comment(c: &str) -> String {
    crate::text::printable(c)
        .replace('}', ")")
        .replace('{', "(")
}

/// A comment's words for line wrapping, a `[%command ...]` kept whole so
/// that no line break falls inside it.
fn comment_words(c: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    let mut open = false;
    for w in c.split_whitespace() {
        match words.last_mut() {
            Some(last) if open => {
                last.push(' ');
                last.push_str(w);
            }
            _ => words.push(w.to_owned()),
        }
        if w.starts_with("[%") {
            open = true;
        }
        if w.contains(']') {
            open = false;
        }
    }
    words
}

/// Writes a game as PGN text (ending with a blank line).
pub fn write_pgn(game: &PgnOut) -> String {
    let mut out = String::new();
    let find = |name: &str| game.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v);
    for name in ROSTER {
        let v = find(name).map_or("?", |v| v.as_str());
        out.push_str(&format!("[{name} \"{}\"]\n", escape_tag(v)));
    }
    out.push_str(&format!("[Result \"{}\"]\n", game.result));
    if !game.variant.is_empty() {
        out.push_str(&format!("[Variant \"{}\"]\n", escape_tag(&game.variant)));
    }
    let start_fen = match game.start_fen.as_str() {
        "" => STANDARD_FEN,
        fen => fen,
    };
    if start_fen != STANDARD_FEN {
        out.push_str(&format!("[FEN \"{start_fen}\"]\n[SetUp \"1\"]\n"));
    }
    for (n, v) in &game.tags {
        if !ROSTER.contains(&n.as_str()) && !WRITER_TAGS.iter().any(|t| t.eq_ignore_ascii_case(n)) {
            out.push_str(&format!("[{n} \"{}\"]\n", escape_tag(v)));
        }
    }
    out.push('\n');
    let mut tokens: Vec<String> = Vec::new();
    let push_comment = |tokens: &mut Vec<String>, c: &str| {
        let c = clean_comment(c);
        let words = comment_words(&c);
        match words.len() {
            0 => {}
            1 => tokens.push(format!("{{{}}}", words[0])),
            n => {
                tokens.push(format!("{{{}", words[0]));
                tokens.extend(words[1..n - 1].iter().cloned());
                tokens.push(format!("{}}}", words[n - 1]));
            }
        }
    };
    if let Some(c) = &game.intro {
        push_comment(&mut tokens, c);
    }
    let (mut white, first_move) = fen_numbering(start_fen);
    let mut number = first_move.max(1);
    let mut need_number = true;
    for ply in &game.plies {
        if ply.special {
            // No move number for a comment; the next move repeats it.
            push_comment(&mut tokens, &action_command(&ply.text));
            need_number = true;
        } else {
            if white {
                tokens.push(format!("{number}."));
            } else if need_number {
                tokens.push(format!("{number}..."));
            }
            tokens.push(ply.text.clone());
            need_number = false;
        }
        if let Some(c) = &ply.comment {
            push_comment(&mut tokens, c);
            need_number = true;
        }
        if !white {
            number += 1;
        }
        white = !white;
    }
    tokens.push(game.result.clone());
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// The skeleton of a [`PgnOut`] for a game: start, SAN plies without
/// comments, the result of `record`.
pub fn pgn_of<P: Pos>(game: &Game<P>, record: &ScoreRecord) -> PgnOut {
    let start = game.start();
    PgnOut {
        tags: Vec::new(),
        variant: super::variant_tag(Some(record.variant.id()), record.variant, record.chess960),
        start_fen: start.fen(),
        plies: game_sans(game)
            .into_iter()
            .zip(game.actions())
            .map(|(text, a)| PgnPly {
                text,
                special: a.is_special(),
                comment: None,
            })
            .collect(),
        intro: None,
        result: result_text(record).to_owned(),
    }
}

/// A clock reading as PGN's `[%clk]` wants it: `H:MM:SS`, with tenths
/// when the reading has a fraction of a second (`0:00:09.8`); readers
/// that take whole seconds (Tally's own among them) drop them.
pub fn clock_text(left: Duration) -> String {
    let secs = left.as_secs();
    let whole = format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60);
    if left.subsec_nanos() == 0 {
        whole
    } else {
        format!("{whole}.{}", left.subsec_millis() / 100)
    }
}

/// Adds the clock reading `left` (`[%clk ...]`) to a ply's `comment`,
/// after what it already says.
pub fn add_clock(comment: &mut Option<String>, left: Duration) {
    let clock = format!("[%clk {}]", clock_text(left));
    *comment = Some(match comment.take() {
        Some(c) => format!("{c} {clock}"),
        None => clock,
    });
}

/// A ply's award as comment text: `white +5 black 0 (capture)`-style, or
/// `None` for a ply that earned nothing. Points are from `mover`'s side:
/// `+N` to the mover, and the opponent's share when it has one.
pub fn award_comment(award: &crate::scoring::Award, mover: Color) -> Option<String> {
    if award.is_zero() && award.events.is_empty() {
        return None;
    }
    let mut s = award.share_text(mover, "opponent");
    if !award.events.is_empty() {
        s.push_str(&format!(" ({})", award.events.joined(" ")));
    }
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::read_games;
    use crate::referee::{score_game, score_input};
    use crate::rules::{Rules, Variant};
    use crate::scoring::{EndContext, Scorer};
    use shakmaty::Chess;

    #[test]
    fn clock_readings_are_written_as_pgn_wants_them() {
        let ms = Duration::from_millis;
        assert_eq!(clock_text(Duration::from_secs(3725)), "1:02:05");
        assert_eq!(clock_text(ms(9_850)), "0:00:09.8");
        assert_eq!(clock_text(ms(59_999)), "0:00:59.9");
        assert_eq!(clock_text(ms(40)), "0:00:00.0");
        assert_eq!(clock_text(Duration::ZERO), "0:00:00");
        // Tally's reader takes the whole seconds back.
        assert_eq!(
            crate::pgn::parse_clock(clock_text(ms(9_850)).as_bytes()),
            Some(9)
        );
    }

    #[test]
    fn special_actions_and_comments_read_back() {
        let rules = Rules::<Chess>::new(Variant::Tiebraker).with_specials(true);
        let mut game = Game::new(rules, None).unwrap();
        for m in ["e2e4", "disk", "swap", "e7e5", "d2d4"] {
            game.play_text(m).unwrap();
        }
        let scorer = Scorer::new(Variant::Tiebraker);
        let record = score_game(&scorer, &game, &EndContext::default());
        let mut out = pgn_of(&game, &record);
        out.plies[3].comment = Some("a {braced} comment".to_owned());
        out.tags.push(("White".into(), "A \"quoted\" name".into()));
        let text = write_pgn(&out);
        assert!(text.contains("{[%action disk]}"), "{text}");
        assert!(text.contains("[White \"A \\\"quoted\\\" name\"]"), "{text}");
        assert!(text.lines().all(|l| l.len() <= 79));
        let games = read_games(text.as_bytes()).unwrap();
        assert_eq!(games.len(), 1);
        assert!(games[0].problem.is_none(), "{:?}", games[0].problem);
        let again = score_input(&scorer, &games[0].input).unwrap();
        let actions: Vec<String> = again.plies.iter().map(|p| p.action.to_string()).collect();
        assert_eq!(actions, ["e2e4", "disk", "swap", "e7e5", "d2d4"]);
        assert_eq!(result_text(&record), "*");
    }

    #[test]
    fn commands_in_comments_are_never_broken_across_lines() {
        assert_eq!(
            comment_words("[%eval 0.35] [%clk 0:01:00] best  Nf3 [%eval #-2]"),
            [
                "[%eval 0.35]",
                "[%clk 0:01:00]",
                "best",
                "Nf3",
                "[%eval #-2]"
            ]
        );
        let rules = Rules::<Chess>::new(Variant::Chess);
        let mut game = Game::new(rules, None).unwrap();
        game.play_text("e2e4").unwrap();
        let record = score_game(&Scorer::new(Variant::Chess), &game, &EndContext::default());
        let mut out = pgn_of(&game, &record);
        // Whatever stands before them, the commands stay on one line.
        out.plies[0].comment = Some("[%eval 0.35] [%clk 0:00:09]".to_owned());
        for n in 1..80 {
            out.intro = Some("x".repeat(n));
            let text = write_pgn(&out);
            assert!(text.contains("[%eval 0.35]"), "{text}");
            assert!(text.contains("[%clk 0:00:09]"), "{text}");
        }
    }

    #[test]
    fn sans() {
        let rules = Rules::<Chess>::new(Variant::Chess);
        let mut game = Game::new(rules, None).unwrap();
        for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
            game.play_text(m).unwrap();
        }
        assert_eq!(game_sans(&game), ["f3", "e5", "g4", "Qh4#"]);
        let record = score_game(&Scorer::new(Variant::Chess), &game, &EndContext::default());
        assert_eq!(result_text(&record), "0-1");
    }
}
