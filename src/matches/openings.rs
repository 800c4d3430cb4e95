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
use crate::rules::{BoardKind, CHESS960_POSITIONS, Game, Variant, chess960_fen};
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
            let bytes =
                std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let is_pgn = path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("pgn"));
            let parsed = if is_pgn {
                parse_pgn(&bytes, variant)
            } else {
                parse_epd(&String::from_utf8_lossy(&bytes))
            };
            parsed.map_err(|e| format!("{}: {e}", path.display()))
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
        let fen = if numbers {
            fields[..6].join(" ")
        } else {
            format!("{} 0 1", fields[..4].join(" "))
        };
        let label = line
            .split_once("id \"")
            .and_then(|(_, rest)| rest.split_once('"'))
            .map_or_else(|| format!("#{}", out.len() + 1), |(id, _)| id.to_owned());
        out.push(Opening { fen, label });
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
            out.push(Opening { fen, label });
        }
    }
    Ok(out)
}

/// Checks that every opening is a legal, unfinished position of
/// `variant` (read under Chess960 castling or not).
///
/// # Errors
///
/// A message naming the first bad opening.
pub fn validate(openings: &[Opening], variant: Variant, chess960: bool) -> Result<(), String> {
    if openings.is_empty() {
        return Err("no opening positions".to_owned());
    }
    for (i, o) in openings.iter().enumerate() {
        with_game!(crate::rules::AnyRules::of(variant), |rules| {
            let game = Game::new(rules.with_chess960(chess960), Some(&o.fen))
                .map_err(|e| format!("opening {} ({}): {e}", i + 1, o.label))?;
            if let Some(e) = game.ending() {
                return Err(format!(
                    "opening {} ({}) is already over: {}",
                    i + 1,
                    o.label,
                    e.describe()
                ));
            }
        });
    }
    Ok(())
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
    }
}
