//! PGN, read and written: games in files for the referee (`tally score`),
//! `tally analyse` (a game in, the annotated game out) and `tally match`
//! (the games played, with their awards).
//!
//! What lives here: reading ([`read`]: a byte stream split into games, each
//! game's tags, moves, clocks and result), writing ([`write`](mod@write): SAN, the
//! result of a scored game, tags and wrapped movetext), and what both sides
//! share: tag names and escaping, the `Variant` tag, the start position
//! (`FEN` and `SetUp`) and the comment form of a special action. Scoring is
//! the referee's ([`crate::referee`]); what goes into a comment is the
//! caller's.
//!
//! Tally's notation, written by [`write`](mod@write) and read back by [`read`] to the
//! same points:
//!
//! - **Special actions** are comment commands: `{[%action disk]}` (also
//!   `swap`, `restore`, `claim`; [`action_command`] makes one) stands for
//!   one ply, played where the comment stands. `pgn-reader` silently drops
//!   movetext tokens that are not SAN, so a bare `disk` token cannot be
//!   used; the reader reports it as an error naming the comment form. A
//!   ply's own comment follows the action's.
//! - **Clocks**: `[%clk H:MM:SS]` (fractions allowed, dropped) in the
//!   comment after a ply is the mover's remaining time after it.
//! - **Tags**: the seven-tag roster comes first (`?` for a missing one),
//!   then `Result`, `Variant`, `FEN` and `SetUp`, which the writer owns,
//!   then the others in order. `FEN` gives the start position (read with or
//!   without `SetUp`; written with `SetUp "1"` when the game does not start
//!   from [`STANDARD_FEN`]). `Variant` names the variant
//!   ([`variant_of_tag`]; a command-line variant overrides it) and is not
//!   written for a chess game without one. A `Variant` of `Chess960` (or
//!   another spelling, [`is_chess960_tag`]) reads the game under Chess960
//!   castling whatever variant scores it, as does a `FEN` whose castling
//!   rights only Chess960 reads; castling is SAN's `O-O` and `O-O-O`
//!   either way. A Chess960 game of chess is written `Chess960`, one of
//!   another variant with its id (its FEN says Chess960). `Result` is used when the
//!   movetext has no result token; `Termination "time forfeit"` (any case)
//!   makes a decisive result a loss on time. Tag values are written as one
//!   line of printing characters ([`escape_tag`]).
//! - **Results**: the result of a game the board ended is the variant's
//!   winner by points (the board result in chess and extinction); a game
//!   without a board ending (a forfeit: crash, time, illegal move,
//!   resignation) is won by the side that did not forfeit, which the
//!   referee reads as the loser's resignation. A game still running is `*`.
//! - **Comments** are written without braces inside (`}` becomes `)`) and
//!   lines are wrapped at 79 characters, never inside a `[%...]` command.
//! - **Numbering**: every game that has tags or movetext counts, in file
//!   order, as python-chess counts them (see [`read::GameSplitter`]).
//! - **Malformed movetext**: a token that is not SAN, a move number, a
//!   result, a NAG or an annotation symbol (`+-`, `=`, `N`, `e.p.`, ...)
//!   fails the game at the ply where it stands; so does an unterminated
//!   comment or tag.

pub mod batch;
pub mod read;
pub mod write;

pub use read::{
    GameSplitter, GameTooLong, MAX_GAME_BYTES, PgnGame, nth_game, parse_clock, read_games,
};
pub use write::{
    PgnOut, PgnPly, add_clock, award_comment, clock_text, game_sans, line_sans, pgn_of,
    result_text, san, write_pgn,
};

use crate::rules::Variant;

/// The standard start position's FEN.
pub const STANDARD_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The tags the writer makes itself, from the game: a caller's tags of
/// these names (any case) are not written.
pub const WRITER_TAGS: [&str; 4] = ["Result", "Variant", "FEN", "SetUp"];

/// The seven-tag roster, written first and in this order (without
/// `Result`, which follows them).
const ROSTER: [&str; 6] = ["Event", "Site", "Date", "Round", "White", "Black"];

/// The comment command of a special action: `[%action WORD]`.
const ACTION: &[u8] = b"action";

/// The words of the special actions, as an `[%action]` command names them.
const SPECIAL_WORDS: [&str; 4] = ["disk", "swap", "restore", "claim"];

/// A special action's comment command, `[%action disk]` for `disk`: the
/// body of the comment that stands for the action in movetext.
pub fn action_command(word: &str) -> String {
    format!("[%{} {word}]", String::from_utf8_lossy(ACTION))
}

/// A tag value as PGN writes it: controls escaped (a tag is one line of
/// printing characters), then backslashes and quotes.
pub fn escape_tag(v: &str) -> String {
    crate::text::printable(v)
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
}

/// The variant a `Variant` tag names: a variant id (any case), and chess
/// for an empty tag, `Standard`, `Normal`, `From Position` or a Chess960
/// name ([`is_chess960_tag`]); `None` for any other.
pub fn variant_of_tag(tag: &str) -> Option<Variant> {
    match tag.trim().to_ascii_lowercase().as_str() {
        "" | "from position" | "normal" => Some(Variant::Chess),
        _ if is_chess960_tag(tag) => Some(Variant::Chess),
        _ => Variant::from_id(tag).ok(),
    }
}

/// The spellings of Chess960 in a `Variant` tag, lower case.
const CHESS960_TAGS: [&str; 5] = [
    "chess960",
    "chess 960",
    "fischerandom",
    "fischerrandom",
    "fischer random",
];

/// Whether a `Variant` tag says the game is Chess960: `Chess960`, `Chess
/// 960`, `Fischerandom`, `FischerRandom` or `Fischer Random`, any case.
/// Such a game reads under Chess960 castling under any variant.
pub fn is_chess960_tag(tag: &str) -> bool {
    CHESS960_TAGS.contains(&tag.trim().to_ascii_lowercase().as_str())
}

/// The `Variant` tag to write for a game of `variant` (Chess960 or not)
/// whose own tag (as read) was `read`: the game's own spelling when it
/// names `variant` (and Chess960 as the game is), nothing for a chess
/// game that had none, `Chess960` for a Chess960 game of chess, else the
/// variant id (a Chess960 game of another variant says so by its FEN's
/// castling rights). Empty means no tag.
pub fn variant_tag(read: Option<&str>, variant: Variant, chess960: bool) -> String {
    let chess960_chess = chess960 && variant == Variant::Chess;
    match read {
        Some(t) if variant_of_tag(t) == Some(variant) && is_chess960_tag(t) == chess960_chess => {
            t.to_owned()
        }
        _ if chess960_chess => "Chess960".to_owned(),
        None if variant == Variant::Chess => String::new(),
        _ => variant.id().to_owned(),
    }
}

/// The tags of a game read back, in order, less those the writer makes
/// ([`WRITER_TAGS`]) and those named in `dropped` (any case): the tags to
/// pass on when the game is written again.
pub fn kept_tags(tags: &[(String, String)], dropped: &[&str]) -> Vec<(String, String)> {
    let gone = |name: &str| {
        WRITER_TAGS
            .iter()
            .chain(dropped)
            .any(|t| t.eq_ignore_ascii_case(name))
    };
    tags.iter().filter(|(n, _)| !gone(n)).cloned().collect()
}

/// The side to move first and the first fullmove number of a FEN (White
/// and 1 where the FEN does not say).
fn fen_numbering(fen: &str) -> (bool, u32) {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    (
        fields.get(1).is_none_or(|s| *s != "b"),
        fields.get(5).and_then(|n| n.parse().ok()).unwrap_or(1),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_shared_by_reading_and_writing() {
        assert_eq!(action_command("disk"), "[%action disk]");
        assert_eq!(variant_of_tag(" From Position"), Some(Variant::Chess));
        assert_eq!(variant_of_tag("Standard"), Some(Variant::Chess));
        assert_eq!(variant_of_tag("Wacky"), Some(Variant::Wacky));
        assert_eq!(variant_of_tag("crazyhouse"), None);
        assert_eq!(variant_tag(Some("Wacky"), Variant::Wacky, false), "Wacky");
        assert_eq!(variant_tag(Some("chess"), Variant::Sets, false), "sets");
        assert_eq!(variant_tag(None, Variant::Chess, false), "");
        assert_eq!(variant_tag(None, Variant::Stylish, false), "stylish");
        for t in ["Chess960", "chess 960", "Fischerandom", "FISCHER RANDOM"] {
            assert!(is_chess960_tag(t), "{t}");
            assert_eq!(variant_of_tag(t), Some(Variant::Chess));
        }
        assert!(!is_chess960_tag("chess") && !is_chess960_tag("wacky960"));
        assert_eq!(variant_tag(None, Variant::Chess, true), "Chess960");
        assert_eq!(
            variant_tag(Some("Fischerandom"), Variant::Chess, true),
            "Fischerandom"
        );
        assert_eq!(
            variant_tag(Some("Chess960"), Variant::Chess, false),
            "chess"
        );
        assert_eq!(variant_tag(Some("Chess960"), Variant::Wacky, true), "wacky");
        let tags = [("fen", "x"), ("Event", "e"), ("Annotator", "a")]
            .map(|(n, v)| (n.to_owned(), v.to_owned()));
        assert_eq!(
            kept_tags(&tags, &["annotator"]),
            [("Event".to_owned(), "e".to_owned())]
        );
        assert_eq!(fen_numbering(STANDARD_FEN), (true, 1));
        assert_eq!(fen_numbering("8/8/8/8/8/8/8/K6k b - - 0 12"), (false, 12));
        assert_eq!(fen_numbering(""), (true, 1));
    }
}
