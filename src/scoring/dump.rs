//! The point tables as the TOML a rules file takes (`tally rules`), so that
//! a user can dump them, edit them and load the file with `--rules FILE` or
//! the UCI option `RulesFile`.
//!
//! What lives here: the list of every key of every variant's section with
//! what it pays ([`keys`], the one place those meanings are written for the
//! dump), and the emitter ([`to_toml`], [`rules_file`]) that walks that
//! list over the serialized [`Tables`]. The values themselves come from the
//! tables (their defaults live in `scoring::tables` only); a key is written
//! as a dotted path under its variant's header (`mate.rook = [90, 110]`
//! under `[stylish]`), as `docs/rules.md` names it.

use std::fmt::Write as _;
use std::path::Path;

use super::Tables;
use crate::rules::Variant;

/// A whole rules file: a first line naming what it holds (`variants`, and
/// the file `applied` over the defaults if any), how to use it, and the
/// sections of `variants` in `tables` ([`to_toml`]).
pub fn rules_file(tables: &Tables, variants: &[Variant], applied: Option<&Path>) -> String {
    let mut text = String::new();
    let _ = writeln!(
        text,
        "# Tally rules file: the point tables of {}, {}.",
        match variants {
            [v] => v.id(),
            _ => "every variant",
        },
        match applied {
            Some(path) => format!("the defaults with {} applied", path.display()),
            None => "the defaults".to_owned(),
        }
    );
    text.push_str(HEADER);
    text.push_str(&to_toml(tables, variants));
    text
}

const HEADER: &str = "\
# Edit any value and load the file with --rules FILE (tally score, analyse,
# match) or the UCI option RulesFile; a key left out keeps its default.
# Splits are [first, second] as each key says. Rules and worked examples:
# docs/rules.md.
";

/// One key of a variant's section: its dotted path under the section, and
/// what it pays.
#[derive(Clone, Copy, Debug)]
pub struct Key {
    /// The path under `[variant]`, `mate.rook` for `[stylish.mate] rook`.
    pub path: &'static str,
    /// What the value pays, in a few words.
    pub pays: &'static str,
}

const fn key(path: &'static str, pays: &'static str) -> Key {
    Key { path, pays }
}

const RESULT: &[Key] = &[
    key("win", "a won game, to the winner"),
    key("draw", "a drawn game, to each player"),
    key("loss", "a lost game, to the loser"),
];

const STYLISH: &[Key] = &[
    key(
        "capture.pawn",
        "a pawn captures (en passant and capturing promotions too): [pawn, bishop, knight, rook, queen] captured",
    ),
    key(
        "capture.minor",
        "a bishop or a knight captures: [pawn, bishop, knight, rook, queen] captured",
    ),
    key(
        "capture.rook",
        "a rook captures: [pawn, bishop, knight, rook, queen] captured",
    ),
    key(
        "capture.queen_diagonal",
        "a queen captures along a diagonal: [pawn, bishop, knight, rook, queen] captured",
    ),
    key(
        "capture.queen_orthogonal",
        "a queen captures along a rank or a file: [pawn, bishop, knight, rook, queen] captured",
    ),
    key(
        "capture.king",
        "a king captures: [pawn, bishop, knight, rook, queen] captured",
    ),
    key(
        "mate.queen",
        "checkmate, a queen the checking piece: [adjacent to the mated king, not adjacent]",
    ),
    key(
        "mate.rook",
        "checkmate, a rook the checking piece: [adjacent, not adjacent]",
    ),
    key(
        "mate.bishop",
        "checkmate, a bishop the checking piece: [adjacent, not adjacent]",
    ),
    key(
        "mate.knight",
        "checkmate, a knight the checking piece (never adjacent)",
    ),
    key(
        "mate.pawn",
        "checkmate, a pawn the checking piece (always adjacent)",
    ),
    key(
        "promoted_mate",
        "added to a checking piece promoted on the mating move",
    ),
    key(
        "discovered",
        "a discovered mate: the move opened a checking piece's line",
    ),
    key(
        "coverage",
        "a discovered mate in which the moved piece now attacks a square next to the mated king that was safe",
    ),
    key(
        "promotion.queen",
        "promotion to a queen (not given when the move mates)",
    ),
    key("promotion.rook", "promotion to a rook"),
    key("promotion.bishop", "promotion to a bishop"),
    key("promotion.knight", "promotion to a knight"),
    key("force.pawn", "a pawn's force, for the draw award"),
    key("force.knight", "a knight's force"),
    key("force.bishop", "a bishop's force"),
    key("force.rook", "a rook's force"),
    key("force.queen", "a queen's force"),
    key(
        "max_force",
        "a full set's force: in a draw the weaker side gets (their force - own force) + max(0, max_force - own force)",
    ),
    key(
        "last_capture",
        "a draw with bare kings, or kings and one bishop or knight: to the last capturer",
    ),
];

const WACKY: &[Key] = &[
    key("attack.pawn", "attacking power A of a pawn (whole number)"),
    key("attack.knight", "A of a knight"),
    key("attack.bishop", "A of a bishop"),
    key("attack.rook", "A of a rook"),
    key("attack.queen", "A of a queen"),
    key("attack.king", "A of a king"),
    key("defence.pawn", "defending power D of a pawn (whole number)"),
    key("defence.knight", "D of a knight"),
    key("defence.bishop", "D of a bishop"),
    key("defence.rook", "D of a rook"),
    key("defence.queen", "D of a queen"),
    key("defence.king", "D of a king"),
    key(
        "per_square",
        "a move: per_square x A(mover) x squares travelled",
    ),
    key(
        "knight_squares",
        "the squares a knight move counts as (whole number)",
    ),
    key("capture", "a capture: capture x A(capturer) x D(captured)"),
    key("en_passant", "an en-passant capture, on top of the capture"),
    key(
        "fall",
        "every capture: fall x D(captured) x (1 + fall_step x captures earlier in the game)",
    ),
    key(
        "fall_step",
        "the growth of the fall multiplier per earlier capture",
    ),
    key(
        "counter",
        "the n-th recapture of a chain (a capture on the square of the opponent's capture just before): the n-th entry",
    ),
    key(
        "counter_step",
        "added for each recapture past the end of counter",
    ),
    key(
        "combination",
        "the h-th capture of a run of one's own captures, the opponent not capturing between (h >= 2): entry h - 1",
    ),
    key(
        "combination_step",
        "added for each capture past the end of combination",
    ),
    key("castling", "castling"),
    key("check", "a check"),
    key("mate", "a checkmate, in place of check"),
    key(
        "life",
        "the mating player's life bonus: L = material left counted in D; L x the rate of the last [from L, rate] band with from <= L",
    ),
    key(
        "moves_limit",
        "no moves bonus at or above this many moves of the mating player (whole number)",
    ),
    key(
        "moves",
        "the mating player's moves bonus: (moves_limit - m) x the rate of the last [from m, rate] band with from <= m",
    ),
    key(
        "time",
        "the mating player's time bonus, with a clock: the time left cut greedily into [seconds, points] units, in this order",
    ),
];

const SETS: &[Key] = &[
    key("mate", "checkmate, to the mating player"),
    key(
        "resignation",
        "resignation or loss on time, to the opponent",
    ),
    key("bare_king", "a claimed bare king, to the barer"),
    key("mutual_bare", "mutual bare kings, to the first barer"),
    key("stalemate", "stalemate, to the stalemating player"),
    key(
        "draw",
        "any other draw (30-move rule, insufficient material), to the draw-advantage player (--draw-advantage, UCI DrawAdvantage)",
    ),
    key("perpetual_check", "perpetual check, to the checking side"),
    key(
        "mutual_perpetual_check",
        "mutual perpetual check, to the side that gave the first check",
    ),
    key(
        "repetition",
        "threefold repetition without perpetual check, to the opponent of the side that made the third occurrence",
    ),
];

const DYNAMIC: &[Key] = &[
    key("mate", "checkmate or resignation: [winner, loser]"),
    key(
        "stalemate",
        "stalemate: [stalemating player, stalemated player]",
    ),
    key(
        "perpetual_by_black",
        "perpetual check by Black: [black, white]",
    ),
    key(
        "perpetual_by_white",
        "perpetual check by White: [white, black]",
    ),
    key(
        "draw",
        "every other draw, mutual perpetual check included: [white, black]",
    ),
];

const TIEBRAKER: &[Key] = &[
    key(
        "accepted_disk_mates",
        "accepted disk, the disk player mates: [disk player, other]",
    ),
    key(
        "accepted_other_mates",
        "accepted disk, the other player mates: [other, disk player]",
    ),
    key(
        "accepted_stalemate",
        "accepted disk, stalemate: [stalemating, stalemated]",
    ),
    key(
        "accepted_disk_perpetual",
        "accepted disk, perpetual check by the disk player: [disk player, other] (by the other player: as in dynamic)",
    ),
    key(
        "accepted_draw",
        "accepted disk, every other draw: [white, black]",
    ),
    key(
        "swapped_mate",
        "swapped, from the 21st ply on, a mate by either side: [mating, mated]",
    ),
    key(
        "swapped_stalemate",
        "swapped, from the 21st ply on, stalemate: [stalemating, stalemated]",
    ),
    key(
        "swapped_draw",
        "swapped, from the 21st ply on, any perpetual check or other draw: [white, black]",
    ),
    key(
        "restored_restorer_mates",
        "restored, the restorer mates: [restorer, first player]",
    ),
    key(
        "restored_restorer_stalemates",
        "restored, the restorer stalemates: [restorer, first player]",
    ),
    key(
        "restored_other",
        "restored, every other ending, draws included: [first player, restorer]",
    ),
];

/// Every key of `variant`'s section, in the order the dump prints them.
pub fn keys(variant: Variant) -> &'static [Key] {
    match variant {
        Variant::Chess | Variant::Extinction => RESULT,
        Variant::Stylish => STYLISH,
        Variant::Wacky => WACKY,
        Variant::Sets => SETS,
        Variant::Dynamic => DYNAMIC,
        Variant::Tiebraker => TIEBRAKER,
    }
}

/// What a variant's section holds, for the comment above its header.
fn about(variant: Variant) -> &'static str {
    match variant {
        Variant::Chess => "chess: the result of the game",
        Variant::Extinction => "extinction: the result of the game",
        Variant::Stylish => "stylish: captures, stylish mates, under-promotion, draw compensation",
        Variant::Wacky => {
            "wacky: every move, capture, chain and check, and the mating player's end bonuses"
        }
        Variant::Sets => "sets: the points of each ending; the other player gets 0",
        Variant::Dynamic => "dynamic: 100-point splits",
        Variant::Tiebraker => {
            "tiebraker: the splits after a disk; before it, while it is offered and for 20 plies after a swap, [dynamic] applies"
        }
    }
}

/// The sections of `variants` in `tables` as rules-file TOML, each key
/// with a comment saying what it pays.
pub fn to_toml(tables: &Tables, variants: &[Variant]) -> String {
    // Serializing plain structs of numbers and lists cannot fail; an empty
    // table would only leave the keys out, never panic.
    let all = toml::Value::try_from(tables)
        .unwrap_or_else(|_| toml::Value::Table(toml::Table::default()));
    let mut out = String::new();
    for &variant in variants {
        out.push('\n');
        comment(&mut out, about(variant));
        let _ = writeln!(out, "[{}]", variant.id());
        let Some(section) = all.get(variant.id()) else {
            continue;
        };
        for k in keys(variant) {
            let Some(value) = lookup(section, k.path) else {
                continue;
            };
            comment(&mut out, k.pays);
            let _ = writeln!(out, "{} = {value}", k.path);
        }
    }
    out
}

/// The value at a dotted `path` under `section`.
fn lookup<'a>(section: &'a toml::Value, path: &str) -> Option<&'a toml::Value> {
    path.split('.').try_fold(section, |v, part| v.get(part))
}

/// Appends `text` as `#` comment lines of at most 78 columns.
fn comment(out: &mut String, text: &str) {
    let mut line = String::from("#");
    for word in text.split_whitespace() {
        if line.len() > 1 && line.len() + 1 + word.len() > 78 {
            out.push_str(&line);
            out.push('\n');
            line = String::from("#");
        }
        line.push(' ');
        line.push_str(word);
    }
    out.push_str(&line);
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::{GameInput, score_input};
    use crate::scoring::{Points, Scorer};

    /// Every leaf (a value that is not a table) under `v`, as dotted paths.
    fn leaves(v: &toml::Value, prefix: &str, out: &mut Vec<String>) {
        match v {
            toml::Value::Table(t) => {
                for (k, child) in t {
                    let path = if prefix.is_empty() {
                        k.clone()
                    } else {
                        format!("{prefix}.{k}")
                    };
                    leaves(child, &path, out);
                }
            }
            _ => out.push(prefix.to_owned()),
        }
    }

    #[test]
    fn every_key_is_listed_once() {
        let all = toml::Value::try_from(Tables::default()).unwrap();
        for v in Variant::ALL {
            let mut serialized = Vec::new();
            leaves(&all[v.id()], "", &mut serialized);
            serialized.sort();
            let mut listed: Vec<String> = keys(v).iter().map(|k| k.path.to_owned()).collect();
            listed.sort();
            assert_eq!(listed, serialized, "{v}: the key list and the table differ");
        }
    }

    #[test]
    fn each_dump_loads_back_to_the_same_tables() {
        let defaults = Tables::default();
        for v in Variant::ALL {
            let text = to_toml(&defaults, &[v]);
            assert!(text.contains(&format!("\n[{}]\n", v.id())), "{text}");
            let loaded = Tables::from_toml(&text).unwrap_or_else(|e| panic!("{v}: {e}\n{text}"));
            assert_eq!(loaded, defaults, "{v}");
        }
        let text = to_toml(&defaults, &Variant::ALL);
        assert_eq!(Tables::from_toml(&text).unwrap(), defaults);
    }

    #[test]
    fn changed_tables_round_trip() {
        // Halves, thousandths, negative and longer lists: the dump writes
        // what the tables hold, not the defaults.
        let tables = Tables::from_toml(
            "[chess]\ndraw = 0.375\n\
             [stylish.mate]\nrook = [95, 111.5]\n\
             [wacky]\ncounter = [1, 2, 3]\nlife = [[0, 7], [10, 8.25]]\nknight_squares = 4\n\
             [wacky.attack]\nqueen = 2\n\
             [sets]\ndraw = 0.001\n\
             [dynamic]\nstalemate = [70, 30]\n\
             [tiebraker]\nrestored_other = [99, 1]\n",
        )
        .unwrap();
        assert_ne!(tables, Tables::default());
        let text = to_toml(&tables, &Variant::ALL);
        assert!(text.contains("\nmate.rook = [95, 111.5]\n"), "{text}");
        assert_eq!(Tables::from_toml(&text).unwrap(), tables);
    }

    #[test]
    fn an_edited_dump_takes_effect() {
        let text = to_toml(&Tables::default(), &[Variant::Stylish]);
        let edited = text.replace("mate.rook = [90, 110]", "mate.rook = [90, 999]");
        assert_ne!(edited, text);
        let scorer = Scorer::with_tables(Variant::Stylish, Tables::from_toml(&edited).unwrap());
        // A back-rank mate by a rook, not adjacent to the king.
        let input = GameInput::from_text(Some("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"), "a1a8");
        let before = score_input(&Scorer::new(Variant::Stylish), &input).unwrap();
        let after = score_input(&scorer, &input).unwrap();
        assert_eq!(before.total.white, Points::whole(110));
        assert_eq!(after.total.white, Points::whole(999));
    }

    #[test]
    fn comments_name_every_key_and_stay_short() {
        let text = to_toml(&Tables::default(), &Variant::ALL);
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            assert!(line.len() <= 78 || !line.starts_with('#'), "{line}");
            if !line.starts_with('#') && line.contains(" = ") {
                assert!(lines[i - 1].starts_with('#'), "no comment above {line}");
            }
        }
    }
}
