//! Opening positions for a match, from EPD or PGN.
//!
//! - **EPD**: one position a line: the four FEN fields (placement, side,
//!   castling, en passant), optionally followed by the halfmove and
//!   fullmove numbers, then any operations; `id "..."` names the opening.
//!   Blank lines and lines starting with `#` are skipped.
//! - **PGN**: each game's moves (from its `FEN` tag or the standard
//!   position) are played and the position after them is the opening. The
//!   game then starts from that FEN, so the book moves earn no points and
//!   the per-game counts of the scoring (captures, moves) start from zero,
//!   as after any FEN.
//!
//! - **Chess960**: without a file, [`chess960`] gives the 960 start
//!   positions in a seeded order; an EPD file of Chess960 positions
//!   (X-FEN or Shredder-FEN castling rights) is read as any other.
//!
//! Every opening is checked under the match's variant: it must be a legal
//! position that is not already over.
//!
//! The shipped set, `positions/openings.epd`, is 40 common opening
//! positions eight to ten plies deep, each roughly balanced in chess.
//! Extinction has its own default, `positions/openings-extinction.epd`:
//! the 110 positions of `positions/openings-wide.epd` that stay balanced
//! under extinction rules (some chess openings are lost at once when kings
//! and last pieces can be taken).

use crate::pgn::{GameSplitter, read_games};
use crate::referee::score_input;
use crate::rng::Rng;
use crate::rules::{BoardKind, CHESS960_POSITIONS, Game, RulesError, Variant, chess960_fen};
use crate::scoring::Scorer;
use crate::with_game;

/// The shipped opening set.
pub const SHIPPED: &str = include_str!("../../positions/openings.epd");

/// The shipped opening set for extinction.
pub const SHIPPED_EXTINCTION: &str = include_str!("../../positions/openings-extinction.epd");

/// The openings of `path` (EPD, or PGN by its `.pgn` extension), or the
/// variant's shipped ones when no file is given: what `tally match` and
/// `tally spsa` play from.
///
/// # Errors
///
/// A one-line message for a file that cannot be read or parsed.
pub fn load(path: Option<&std::path::Path>, variant: Variant) -> Result<Vec<Opening>, String> {
    match path {
        None => parse_epd(shipped(variant)),
        Some(path) => {
            let bytes = crate::files::read_input(path)?;
            let is_pgn = path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("pgn"));
            let parsed = if is_pgn {
                parse_pgn(&bytes, variant)
            } else {
                parse_epd(&String::from_utf8_lossy(&bytes))
            };
            let mut parsed = parsed.map_err(|e| format!("{}: {e}", path.display()))?;
            for o in &mut parsed {
                o.origin = format!("{} {}", path.display(), o.origin);
            }
            Ok(parsed)
        }
    }
}

/// The default openings (EPD text) of a variant's matches.
pub fn shipped(variant: Variant) -> &'static str {
    match BoardKind::of(variant) {
        BoardKind::Extinction => SHIPPED_EXTINCTION,
        BoardKind::Standard => SHIPPED,
    }
}

/// The 960 Chess960 start positions in the order `seed` shuffles them
/// (the same order for the same seed on every machine), each labelled
/// with its standard number (`960 #518` is the standard position).
pub fn chess960(seed: u64) -> Vec<Opening> {
    let mut order: Vec<u16> = (0..CHESS960_POSITIONS).collect();
    let mut rng = Rng::new(seed);
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
    order
        .into_iter()
        .filter_map(|n| {
            chess960_fen(n).map(|fen| Opening {
                fen,
                label: format!("960 #{n}"),
                origin: format!("Chess960 position {n}"),
                given: String::new(),
            })
        })
        .collect()
}

/// One opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The start position.
    pub fen: String,
    /// Its name (the EPD `id`, the PGN's `White`/`Black`, or its number).
    pub label: String,
    /// Where it comes from, as an error names it: `line 12` of an EPD
    /// file, `game 3` of a PGN file (after the file's name when it was
    /// read from one).
    pub origin: String,
    /// The FEN fields as the file gives them (before the move numbers an
    /// EPD line may leave out are added), which an error echoes; empty
    /// where the position was not written by a user.
    pub given: String,
}

/// Reads EPD text.
///
/// # Errors
///
/// A message naming the line.
pub fn parse_epd(text: &str) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() < 4 {
            return Err(format!(
                "line {}: expected at least the four FEN fields",
                i + 1
            ));
        }
        let numbers = fields.len() >= 6
            && fields[4].bytes().all(|b| b.is_ascii_digit())
            && fields[5].bytes().all(|b| b.is_ascii_digit());
        let given = fields[..if numbers { 6 } else { 4 }].join(" ");
        let fen = if numbers {
            given.clone()
        } else {
            format!("{given} 0 1")
        };
        let label = line
            .split_once("id \"")
            .and_then(|(_, rest)| rest.split_once('"'))
            .map_or_else(|| format!("#{}", out.len() + 1), |(id, _)| id.to_owned());
        out.push(Opening {
            fen,
            label,
            origin: format!("line {}", i + 1),
            given,
        });
    }
    Ok(out)
}

/// Reads PGN text: the position after each game's moves.
///
/// # Errors
///
/// A message naming the game that cannot be read or played.
pub fn parse_pgn(text: &[u8], variant: Variant) -> Result<Vec<Opening>, String> {
    let scorer = Scorer::new(variant);
    let mut out = Vec::new();
    for chunk in GameSplitter::new(text) {
        let chunk = chunk.map_err(|e| format!("cannot read: {e}"))?;
        for g in read_games(&chunk)? {
            let n = out.len() + 1;
            if let Some((_, problem)) = &g.problem {
                return Err(format!("game {n}: {problem}"));
            }
            let mut input = g.input.clone();
            input.result = None;
            let record = score_input(&scorer, &input).map_err(|e| format!("game {n}: {e}"))?;
            let moves: Vec<String> = record.plies.iter().map(|p| p.action.to_string()).collect();
            let fen = with_game!(crate::rules::AnyRules::of(variant), |rules| {
                let rules = rules.with_specials(true).with_chess960(record.chess960);
                let mut game = Game::new(rules, Some(&record.start_fen))
                    .map_err(|e| format!("game {n}: {e}"))?;
                for m in &moves {
                    game.play_text(m).map_err(|e| format!("game {n}: {e}"))?;
                }
                game.current().fen()
            });
            let label = match (&g.white, &g.black) {
                (Some(w), Some(b)) if w != "?" || b != "?" => format!("{w} - {b}"),
                _ => format!("#{n}"),
            };
            out.push(Opening {
                fen,
                label,
                origin: format!("game {n}"),
                given: String::new(),
            });
        }
    }
    Ok(out)
}

/// At most this many bad openings are listed in [`validate`]'s message.
pub const BAD_OPENINGS_LISTED: usize = 10;

/// Checks that every opening is a legal, unfinished position of
/// `variant` (read under Chess960 castling or not).
///
/// # Errors
///
/// A message listing the bad openings, each by where it comes from (its
/// file's line or game) and as the file writes it: the first
/// [`BAD_OPENINGS_LISTED`] of them and how many there are, so that a file
/// can be mended in one pass.
pub fn validate(openings: &[Opening], variant: Variant, chess960: bool) -> Result<(), String> {
    if openings.is_empty() {
        return Err("no opening positions".to_owned());
    }
    let mut bad = Vec::new();
    for o in openings {
        if let Some(problem) = problem(o, variant, chess960) {
            bad.push(problem);
        }
    }
    match bad.len() {
        0 => Ok(()),
        1 => Err(bad.remove(0)),
        n => {
            let mut listed: Vec<String> = bad.drain(..).take(BAD_OPENINGS_LISTED).collect();
            if n > BAD_OPENINGS_LISTED {
                listed.push(format!("and {} more", n - BAD_OPENINGS_LISTED));
            }
            Err(format!(
                "{n} of {} openings are bad: {}",
                openings.len(),
                listed.join("; ")
            ))
        }
    }
}

/// What is wrong with one opening, if anything: named by its origin and
/// label, the position echoed as given.
fn problem(o: &Opening, variant: Variant, chess960: bool) -> Option<String> {
    let name = if o.label.starts_with('#') {
        o.origin.clone()
    } else {
        format!("{} ({})", o.origin, o.label)
    };
    let shown = if o.given.is_empty() { &o.fen } else { &o.given };
    with_game!(crate::rules::AnyRules::of(variant), |rules| {
        match Game::new(rules.with_chess960(chess960), Some(&o.fen)) {
            Err(RulesError::InvalidFen { reason, .. }) => {
                Some(format!("{name}: invalid FEN '{shown}': {reason}"))
            }
            Err(RulesError::InvalidPosition { reason, .. }) => {
                Some(format!("{name}: illegal position '{shown}': {reason}"))
            }
            Err(e) => Some(format!("{name}: {e}")),
            Ok(game) => game
                .ending()
                .map(|e| format!("{name} is already over: {}", e.describe())),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_set_is_valid_in_every_variant() {
        let o = parse_epd(SHIPPED).unwrap();
        assert!(o.len() >= 20, "{}", o.len());
        for v in Variant::ALL {
            validate(&o, v, false).unwrap();
        }
    }

    #[test]
    fn extinction_has_its_own_balanced_set() {
        let o = parse_epd(shipped(Variant::Extinction)).unwrap();
        assert!(o.len() >= 100, "{}", o.len());
        validate(&o, Variant::Extinction, false).unwrap();
        // Without the chess opening that extinction wins at once:
        // 1. e4 e5 2. Nf3 Nc6 3. d4 exd4 4. Nxd4 Nf6, where Nxc6 leaves
        // Black's last knight and queen on one diagonal or file.
        let lost = "r1bqkb1r/pppp1ppp/2n2n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq -";
        assert!(SHIPPED.contains(lost));
        assert!(!o.iter().any(|x| x.fen.starts_with(lost)));
        for v in Variant::ALL {
            let expected = if v.is_extinction() {
                SHIPPED_EXTINCTION
            } else {
                SHIPPED
            };
            assert_eq!(shipped(v), expected);
        }
    }

    #[test]
    fn chess960_openings_are_seeded_and_all_there() {
        let a = chess960(7);
        assert_eq!(a.len(), 960);
        assert_eq!(a, chess960(7));
        assert_ne!(a, chess960(8));
        let mut fens: Vec<&str> = a.iter().map(|o| o.fen.as_str()).collect();
        fens.sort_unstable();
        fens.dedup();
        assert_eq!(fens.len(), 960);
        let standard = a.iter().find(|o| o.label == "960 #518").unwrap();
        assert_eq!(standard.fen, SHIPPED_START);
        for v in Variant::ALL {
            validate(&a, v, true).unwrap();
        }
    }

    const SHIPPED_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn epd_forms() {
        let o = parse_epd(
            "# comment\n\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id \"e4\";\n8/8/8/8/8/8/8/K6k w - - 3 40\n",
        )
        .unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[0].label, "e4");
        assert!(o[0].fen.ends_with(" b KQkq - 0 1"));
        assert_eq!(o[1].fen, "8/8/8/8/8/8/8/K6k w - - 3 40");
        assert!(parse_epd("8/8 w\n").is_err());
    }

    #[test]
    fn pgn_openings() {
        let o = parse_pgn(
            b"[White \"Ruy\"]\n[Black \"Lopez\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 *\n\n1. d4 d5 *\n",
            Variant::Chess,
        )
        .unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[0].label, "Ruy - Lopez");
        assert!(
            o[0].fen
                .starts_with("r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b")
        );
        assert!(parse_pgn(b"1. e4 e5 2. Ke3 *\n", Variant::Chess).is_err());
        assert_eq!(
            (o[0].origin.as_str(), o[1].origin.as_str()),
            ("game 1", "game 2")
        );
    }

    /// Every bad opening is named by its file line, as the file writes it
    /// (not with the move numbers the reader adds), and the good ones are
    /// not named.
    #[test]
    fn bad_openings_are_named_by_line_as_written() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
        let text = format!(
            "# a comment\n\n{start}\n{start} e9 id \"bad ep\";\n\
             rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 3 7\n\
             7k/5QQ1/8/8/8/8/8/K7 b - -\n"
        )
        .replace("KQkq - e9", "KQkq e9");
        let o = parse_epd(&text).unwrap();
        assert_eq!(o.len(), 4);
        let origins: Vec<&str> = o.iter().map(|x| x.origin.as_str()).collect();
        assert_eq!(origins, ["line 3", "line 4", "line 5", "line 6"]);
        let e = validate(&o, Variant::Chess, false).unwrap_err();
        assert!(e.starts_with("3 of 4 openings are bad: "), "{e}");
        assert!(
            e.contains(&format!("line 4 (bad ep): invalid FEN '{}'", o[1].given)),
            "{e}"
        );
        assert!(o[1].given.ends_with("KQkq e9"), "{}", o[1].given);
        assert!(!e.contains("e9 0 1"), "{e}");
        assert!(e.contains("line 5: invalid FEN '"), "{e}");
        assert!(e.contains("- 3 7'"), "{e}");
        assert!(e.contains("line 6 is already over: "), "{e}");
        assert!(!e.contains("line 3"), "{e}");
        // One bad opening: its own message, no count.
        let e = validate(&o[..2], Variant::Chess, false).unwrap_err();
        assert!(e.starts_with("line 4 (bad ep): invalid FEN"), "{e}");
        // Many: the first ten and how many more.
        let many: Vec<Opening> = std::iter::repeat_n(o[2].clone(), 25).collect();
        let e = validate(&many, Variant::Chess, false).unwrap_err();
        assert!(e.starts_with("25 of 25 openings are bad: "), "{e}");
        assert_eq!(e.matches("invalid FEN").count(), BAD_OPENINGS_LISTED);
        assert!(e.ends_with("; and 15 more"), "{e}");
    }

    /// A file's openings are named after it.
    #[test]
    fn a_file_names_its_openings() {
        let dir = std::env::temp_dir().join(format!("tally-openings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("few.epd");
        std::fs::write(&path, "\n8/8/8/8/8/8/8/8 w - -\n").unwrap();
        let o = load(Some(&path), Variant::Chess).unwrap();
        assert_eq!(o[0].origin, format!("{} line 2", path.display()));
        let e = validate(&o, Variant::Chess, false).unwrap_err();
        assert!(
            e.starts_with(&format!("{} line 2: ", path.display())),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
