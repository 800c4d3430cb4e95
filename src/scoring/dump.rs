//! The point tables as the TOML a rules file takes (`tally rules`), so that
//! a user can dump them, edit them and load the file with `--rules FILE` or
//! the UCI option `RulesFile`.
//!
//! What lives here: the [`Key`] type and the emitter ([`to_toml`],
//! [`rules_file`]) that walks each variant's keys ([`keys`]) over the
//! serialized [`Tables`]. Every key with what it pays, and what a section
//! holds, is written once, in the variant's scoring
//! ([`variants::VariantScoring::keys`],
//! [`variants::VariantScoring::about`]), beside the awards
//! it describes. The values themselves come from the
//! tables (their defaults live in `scoring::tables` only); a key is written
//! as a dotted path under its variant's header (`mate.rook = [90, 110]`
//! under `[stylish]`), as `docs/rules.md` names it.

use std::fmt::Write as _;
use std::path::Path;

use super::Tables;
use super::variants;
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

/// A key at `path` that pays `pays`.
pub(super) const fn key(path: &'static str, pays: &'static str) -> Key {
    Key { path, pays }
}

/// Every key of `variant`'s section, in the order the dump prints them
/// (the variant's [`variants::VariantScoring::keys`]).
pub fn keys(variant: Variant) -> &'static [Key] {
    variants::of(variant).keys()
}

/// Every key the dump may print for `variant`: [`keys`], then the keys of
/// its optional part, which it prints only where the tables hold them
/// (sets' `[sets.handicap]`).
fn all_keys(variant: Variant) -> impl Iterator<Item = &'static Key> {
    let s = variants::of(variant);
    s.keys().iter().chain(s.optional_keys())
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
        comment(&mut out, variants::of(variant).about());
        let _ = writeln!(out, "[{}]", variant.id());
        let Some(section) = all.get(variant.id()) else {
            continue;
        };
        for k in all_keys(variant) {
            let Some(value) = lookup(section, k.path) else {
                continue;
            };
            comment(&mut out, k.pays);
            let _ = writeln!(out, "{} = {value}", k.path);
        }
    }
    out
}

/// One line of a variant's rules card: a key of its table, what it pays,
/// and its value as a rules file writes it (`[60, 80]`, `0.5`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CardLine {
    /// The key's dotted path ([`Key::path`]).
    pub key: &'static str,
    /// What it pays ([`Key::pays`]).
    pub pays: &'static str,
    /// The value in force.
    pub value: String,
}

/// A variant's scoring in short, for people: what its section holds and
/// every key with its value, read from the tables in force (so a rules
/// file changes it too).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Card {
    /// The variant's id.
    pub variant: &'static str,
    /// What the variant pays ([`variants::VariantScoring::about`]).
    pub about: &'static str,
    /// Its keys, in the dump's order.
    pub lines: Vec<CardLine>,
}

/// The rules card of `variant` under `tables`.
pub fn card(tables: &Tables, variant: Variant) -> Card {
    let all = toml::Value::try_from(tables)
        .unwrap_or_else(|_| toml::Value::Table(toml::Table::default()));
    let lines = all
        .get(variant.id())
        .map(|section| {
            all_keys(variant)
                .filter_map(|k| {
                    lookup(section, k.path).map(|v| CardLine {
                        key: k.path,
                        pays: k.pays,
                        value: v.to_string(),
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    Card {
        variant: variant.id(),
        about: variants::of(variant).about(),
        lines,
    }
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
    fn a_card_holds_every_key_with_the_value_in_force() {
        for v in Variant::ALL {
            let c = card(&Tables::default(), v);
            assert_eq!(c.lines.len(), keys(v).len(), "{v}");
            assert!(!c.about.is_empty());
        }
        let stylish = card(&Tables::default(), Variant::Stylish);
        let rook = stylish.lines.iter().find(|l| l.key == "mate.rook").unwrap();
        assert_eq!(rook.value, "[90, 110]");
        let edited = Tables::from_toml("[sets]\ndraw = 0.25\n").unwrap();
        let sets = card(&edited, Variant::Sets);
        let draw = sets.lines.iter().find(|l| l.key == "draw").unwrap();
        assert_eq!(draw.value, "0.25");
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
    fn a_handicap_is_dumped_with_every_key_and_loads_back() {
        let tables = Tables::from_toml(
            "[sets.handicap]\nside = \"white\"\nmate = 3\nresignation = 3\nbare_king = 1.5\n\
             mutual_bare = 0.75\nstalemate = 1.5\ndraw = 0.75\nperpetual_check = 1.5\n\
             mutual_perpetual_check = 0.75\nrepetition = 0.75\n",
        )
        .unwrap();
        let all = toml::Value::try_from(&tables).unwrap();
        let mut serialized = Vec::new();
        leaves(&all["sets"], "", &mut serialized);
        serialized.sort();
        let mut listed: Vec<String> = all_keys(Variant::Sets).map(|k| k.path.to_owned()).collect();
        listed.sort();
        assert_eq!(listed, serialized);
        let text = to_toml(&tables, &[Variant::Sets]);
        assert!(text.contains("\nhandicap.side = \"white\"\n"), "{text}");
        assert!(text.contains("\nhandicap.draw = 0.75\n"), "{text}");
        assert_eq!(Tables::from_toml(&text).unwrap(), tables);
        assert_eq!(card(&tables, Variant::Sets).lines.len(), listed.len());
        // Without a handicap nothing of it is written.
        let plain = to_toml(&Tables::default(), &[Variant::Sets]);
        assert!(!plain.contains("handicap."), "{plain}");
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
