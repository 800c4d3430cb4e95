//! The UCI options: their declarations (what `uci` prints) and the parsing
//! and checking of `setoption` values. Applying a value to the engine is the
//! loop's business.
//!
//! Every invalid value is refused the same way: the option keeps its value
//! and the loop prints `info string error: ...`. That covers a spin value
//! that is not an integer or lies outside `min..=max`, a check value other
//! than `true`/`false`, a combo value not among its `var` entries (compared
//! without regard to case), an unknown option name, and a missing value.

use crate::rules::Variant;
use crate::search::skill;
use crate::text::clip;

/// An option's type and limits, as declared in `uci`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// An integer in `min..=max`.
    Spin {
        /// The default.
        default: i64,
        /// The smallest value.
        min: i64,
        /// The largest value.
        max: i64,
    },
    /// `true` or `false`.
    Check(bool),
    /// One of `vars`.
    Combo {
        /// The default.
        default: &'static str,
        /// The choices.
        vars: &'static [&'static str],
    },
    /// An action without a value.
    Button,
    /// Free text (empty by default).
    Text,
}

/// One option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Spec {
    /// The name, as printed; matched without regard to case.
    pub name: &'static str,
    /// Type and limits.
    pub kind: Kind,
}

/// Option names, so the loop matches on constants rather than strings.
pub mod name {
    /// Transposition table size in MiB.
    pub const HASH: &str = "Hash";
    /// Empties the transposition table.
    pub const CLEAR_HASH: &str = "Clear Hash";
    /// Search threads.
    pub const THREADS: &str = "Threads";
    /// Lines reported.
    pub const MULTIPV: &str = "MultiPV";
    /// Milliseconds kept in reserve per move.
    pub const MOVE_OVERHEAD: &str = "Move Overhead";
    /// Whether the GUI may send `go ponder`.
    pub const PONDER: &str = "Ponder";
    /// Whether `info` lines carry `wdl`.
    pub const SHOW_WDL: &str = "UCI_ShowWDL";
    /// What `score cp` counts: pawns (internal units) or the variant's
    /// points.
    pub const SCORE_UNIT: &str = "ScoreUnit";
    /// The board rules (and, for a GUI that lets users pick it, the variant).
    pub const UCI_VARIANT: &str = "UCI_Variant";
    /// The scoring variant of a standard-rules game.
    pub const SCORING: &str = "Scoring";
    /// Whether special actions are accepted and played.
    pub const SPECIAL_ACTIONS: &str = "SpecialActions";
    /// Whether positions and moves are Chess960 (Fischer random): X-FEN
    /// and Shredder-FEN castling rights, castling as king takes rook.
    pub const UCI_CHESS960: &str = "UCI_Chess960";
    /// Who gets the 1/2 point of a plain draw in sets.
    pub const DRAW_ADVANTAGE: &str = "DrawAdvantage";
    /// Variant, base or network evaluation.
    pub const EVAL_MODE: &str = "EvalMode";
    /// The net file of `EvalMode nnue`.
    pub const EVAL_FILE: &str = "EvalFile";
    /// Variant evaluator weights set over the built-in ones (for trying
    /// a change in play).
    pub const EVAL_WEIGHTS: &str = "EvalWeights";
    /// A TOML file of point tables.
    pub const RULES_FILE: &str = "RulesFile";
    /// Whether to play at `UCI_Elo`.
    pub const LIMIT_STRENGTH: &str = "UCI_LimitStrength";
    /// The Elo played at with `UCI_LimitStrength`.
    pub const ELO: &str = "UCI_Elo";
    /// 0 (weakest) to 20 (full strength).
    pub const SKILL_LEVEL: &str = "Skill Level";
    /// The folders of the Syzygy endgame tables, separated as `PATH`'s.
    pub const SYZYGY_PATH: &str = "SyzygyPath";
    /// Positions of as many pieces as the probe limit are probed this many
    /// plies or more from the horizon.
    pub const SYZYGY_PROBE_DEPTH: &str = "SyzygyProbeDepth";
    /// Positions of more pieces are not probed.
    pub const SYZYGY_PROBE_LIMIT: &str = "SyzygyProbeLimit";
    /// Whether a win the 50-move rule turns into a draw counts as a draw.
    pub const SYZYGY_50_MOVE_RULE: &str = "Syzygy50MoveRule";
}

/// The largest transposition table, in MiB ([`crate::search::MAX_HASH_MB`]).
pub(super) const MAX_HASH_MB: i64 = crate::search::MAX_HASH_MB as i64;
/// The most search threads ([`crate::search::MAX_THREADS`]).
pub(super) const MAX_THREADS: i64 = crate::search::MAX_THREADS as i64;
/// The most lines reported.
pub const MAX_MULTIPV: i64 = 256;
/// The largest move overhead, in milliseconds.
pub const MAX_MOVE_OVERHEAD: i64 = 5000;
/// The largest `SyzygyProbeDepth` (Stockfish's).
pub const MAX_SYZYGY_PROBE_DEPTH: i64 = 100;

/// The `UCI_Variant` entries: every variant id, `chess` first.
const UCI_VARIANTS: &[&str] = &[
    "chess",
    "extinction",
    "stylish",
    "wacky",
    "sets",
    "dynamic",
    "tiebraker",
];
/// The `ScoreUnit` value for internal units (100 per pawn of material).
pub(super) const SCORE_PAWNS: &str = "pawns";
/// The `ScoreUnit` value for the variant's points.
pub(super) const SCORE_POINTS: &str = "points";

/// The `Scoring` entries: the variants played on standard rules.
const SCORINGS: &[&str] = &["chess", "stylish", "wacky", "sets", "dynamic", "tiebraker"];

/// Every option, in the order `uci` prints them.
pub(super) const SPECS: &[Spec] = &[
    Spec {
        name: name::HASH,
        kind: Kind::Spin {
            default: 16,
            min: 1,
            max: MAX_HASH_MB,
        },
    },
    Spec {
        name: name::CLEAR_HASH,
        kind: Kind::Button,
    },
    Spec {
        name: name::THREADS,
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: MAX_THREADS,
        },
    },
    Spec {
        name: name::MULTIPV,
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: MAX_MULTIPV,
        },
    },
    Spec {
        name: name::MOVE_OVERHEAD,
        kind: Kind::Spin {
            default: 30,
            min: 0,
            max: MAX_MOVE_OVERHEAD,
        },
    },
    Spec {
        name: name::PONDER,
        kind: Kind::Check(false),
    },
    Spec {
        name: name::SHOW_WDL,
        kind: Kind::Check(false),
    },
    Spec {
        name: name::SCORE_UNIT,
        kind: Kind::Combo {
            default: SCORE_PAWNS,
            vars: &[SCORE_PAWNS, SCORE_POINTS],
        },
    },
    Spec {
        name: name::UCI_VARIANT,
        kind: Kind::Combo {
            default: "chess",
            vars: UCI_VARIANTS,
        },
    },
    Spec {
        name: name::SCORING,
        kind: Kind::Combo {
            default: "chess",
            vars: SCORINGS,
        },
    },
    Spec {
        name: name::UCI_CHESS960,
        kind: Kind::Check(false),
    },
    Spec {
        name: name::SPECIAL_ACTIONS,
        kind: Kind::Check(false),
    },
    Spec {
        name: name::DRAW_ADVANTAGE,
        kind: Kind::Combo {
            default: "black",
            vars: &["black", "white", "none"],
        },
    },
    Spec {
        name: name::EVAL_MODE,
        kind: Kind::Combo {
            default: "variant",
            vars: &["variant", "untuned", "base", "nnue"],
        },
    },
    Spec {
        name: name::EVAL_FILE,
        kind: Kind::Text,
    },
    Spec {
        name: name::EVAL_WEIGHTS,
        kind: Kind::Text,
    },
    Spec {
        name: name::RULES_FILE,
        kind: Kind::Text,
    },
    Spec {
        name: name::LIMIT_STRENGTH,
        kind: Kind::Check(false),
    },
    Spec {
        name: name::ELO,
        kind: Kind::Spin {
            default: skill::DEFAULT_ELO as i64,
            min: skill::MIN_ELO as i64,
            max: skill::MAX_ELO as i64,
        },
    },
    Spec {
        name: name::SKILL_LEVEL,
        kind: Kind::Spin {
            default: skill::FULL_LEVEL as i64,
            min: 0,
            max: skill::FULL_LEVEL as i64,
        },
    },
    Spec {
        name: name::SYZYGY_PATH,
        kind: Kind::Text,
    },
    Spec {
        name: name::SYZYGY_PROBE_DEPTH,
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: MAX_SYZYGY_PROBE_DEPTH,
        },
    },
    Spec {
        name: name::SYZYGY_PROBE_LIMIT,
        kind: Kind::Spin {
            default: crate::syzygy::MAX_PIECES as i64,
            min: 0,
            max: crate::syzygy::MAX_PIECES as i64,
        },
    },
    Spec {
        name: name::SYZYGY_50_MOVE_RULE,
        kind: Kind::Check(true),
    },
];

impl Spec {
    /// The `option ...` line of `uci`.
    pub fn declaration(&self) -> String {
        let mut s = format!("option name {} type ", self.name);
        match self.kind {
            Kind::Spin { default, min, max } => {
                return spin_declaration(self.name, default, min, max);
            }
            Kind::Check(d) => s += &format!("check default {d}"),
            Kind::Combo { default, vars } => {
                s += &format!("combo default {default}");
                for v in vars {
                    s += &format!(" var {v}");
                }
            }
            Kind::Button => s += "button",
            Kind::Text => s += "string default <empty>",
        }
        s
    }
}

/// The `option ...` line of `uci` for a spin option.
pub(super) fn spin_declaration(name: &str, default: i64, min: i64, max: i64) -> String {
    format!("option name {name} type spin default {default} min {min} max {max}")
}

/// A checked `setoption` value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Value {
    /// A spin value inside its limits.
    Int(i64),
    /// A check value.
    Bool(bool),
    /// A combo value, spelled as declared.
    Choice(&'static str),
    /// A button press.
    Press,
    /// A string value (`<empty>` and nothing both mean empty).
    Text(String),
}

/// A `setoption` command split into name and value: `name` runs from after
/// `name` to before `value`, the value is the rest of the line (inner
/// spaces kept, outer spaces trimmed). `None` when `name` is missing.
pub(super) fn split_setoption(args: &str) -> Option<(String, Option<String>)> {
    let rest = strip_word(args.trim_start(), "name")?;
    match find_word(rest, "value") {
        Some((before, after)) => Some((collapse(before), Some(after.trim().to_owned()))),
        None => Some((collapse(rest), None)),
    }
}

/// Checks `value` for the option called `name`.
///
/// # Errors
///
/// A one-line message saying why the value (or name) is refused.
pub(super) fn parse(name: &str, value: Option<&str>) -> Result<(&'static Spec, Value), String> {
    let spec = SPECS
        .iter()
        .find(|s| s.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| format!("unknown option '{}'", clip(name)))?;
    let missing = || format!("option {}: a value is needed", spec.name);
    let v = match spec.kind {
        Kind::Button => Value::Press,
        Kind::Text => Value::Text(match value.unwrap_or("") {
            "<empty>" => String::new(),
            other => other.to_owned(),
        }),
        Kind::Spin { min, max, .. } => {
            let text = value.ok_or_else(missing)?;
            let n: i64 = text.parse().map_err(|_| {
                format!(
                    "option {}: '{}' is not an integer (kept the old value)",
                    spec.name,
                    clip(text)
                )
            })?;
            if !(min..=max).contains(&n) {
                return Err(format!(
                    "option {}: {n} is out of range {min}..{max} (kept the old value)",
                    spec.name
                ));
            }
            Value::Int(n)
        }
        Kind::Check(_) => {
            let text = value.ok_or_else(missing)?;
            match text.to_ascii_lowercase().as_str() {
                "true" => Value::Bool(true),
                "false" => Value::Bool(false),
                _ => {
                    return Err(format!(
                        "option {}: '{}' is not true or false (kept the old value)",
                        spec.name,
                        clip(text)
                    ));
                }
            }
        }
        Kind::Combo { vars, .. } => {
            let text = value.ok_or_else(missing)?;
            // `standard` is what some tools call chess.
            let wanted = if spec.name == name::UCI_VARIANT && text.eq_ignore_ascii_case("standard")
            {
                "chess"
            } else {
                text
            };
            let v = vars
                .iter()
                .find(|v| v.eq_ignore_ascii_case(wanted))
                .ok_or_else(|| {
                    format!(
                        "option {}: '{}' is not one of {} (kept the old value)",
                        spec.name,
                        clip(text),
                        vars.join(", ")
                    )
                })?;
            Value::Choice(v)
        }
    };
    Ok((spec, v))
}

/// The variant options' state and how they combine.
///
/// `UCI_Variant` names the board rules a GUI plays by; `Scoring` names the
/// scoring variant of a standard-rules game. The variant played is
/// `Scoring` when `UCI_Variant` is `chess`, and `UCI_Variant` itself
/// otherwise (`extinction`, or a scoring variant picked directly in a GUI
/// that lets users set `UCI_Variant`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct VariantChoice {
    /// The `UCI_Variant` value.
    pub uci_variant: Variant,
    /// The `Scoring` value (never extinction).
    pub scoring: Variant,
}

impl Default for VariantChoice {
    fn default() -> VariantChoice {
        VariantChoice {
            uci_variant: Variant::Chess,
            scoring: Variant::Chess,
        }
    }
}

impl VariantChoice {
    /// The variant played.
    pub fn variant(self) -> Variant {
        if self.uci_variant == Variant::Chess {
            self.scoring
        } else {
            self.uci_variant
        }
    }
}

/// `s` without a leading `word` (followed by whitespace or the end).
fn strip_word<'a>(s: &'a str, word: &str) -> Option<&'a str> {
    let rest = s.strip_prefix(word)?;
    (rest.is_empty() || rest.starts_with(char::is_whitespace)).then_some(rest)
}

/// Splits `s` around the first whitespace-delimited `word`.
fn find_word<'a>(s: &'a str, word: &str) -> Option<(&'a str, &'a str)> {
    let mut start = 0;
    for token in s.split_whitespace() {
        let at = start + s[start..].find(token)?;
        let end = at + token.len();
        if token == word {
            return Some((&s[..at], &s[end..]));
        }
        start = end;
    }
    None
}

/// Whitespace runs as single spaces, trimmed.
fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_names_and_values() {
        assert_eq!(
            split_setoption("name Move  Overhead value 100"),
            Some(("Move Overhead".into(), Some("100".into())))
        );
        assert_eq!(
            split_setoption("name Clear Hash"),
            Some(("Clear Hash".into(), None))
        );
        assert_eq!(
            split_setoption("name RulesFile value /tmp/a  b.toml "),
            Some(("RulesFile".into(), Some("/tmp/a  b.toml".into())))
        );
        assert_eq!(split_setoption("Hash value 3"), None);
        assert_eq!(
            split_setoption("name RulesFile value"),
            Some(("RulesFile".into(), Some(String::new())))
        );
    }

    #[test]
    fn values_checked() {
        assert_eq!(parse("hash", Some("64")).unwrap().1, Value::Int(64));
        assert!(parse("Hash", Some("0")).is_err());
        assert!(parse("Hash", Some("x")).is_err());
        assert!(parse("Hash", None).is_err());
        assert_eq!(
            parse("UCI_Variant", Some("Standard")).unwrap().1,
            Value::Choice("chess")
        );
        assert!(parse("Scoring", Some("extinction")).is_err());
        assert_eq!(parse("ponder", Some("TRUE")).unwrap().1, Value::Bool(true));
        assert!(parse("Ponder", Some("yes")).is_err());
        assert_eq!(
            parse("RulesFile", Some("<empty>")).unwrap().1,
            Value::Text(String::new())
        );
        assert!(parse("Nope", Some("1")).is_err());
    }

    #[test]
    fn declarations() {
        let lines: Vec<String> = SPECS.iter().map(Spec::declaration).collect();
        assert!(
            lines.contains(&"option name Hash type spin default 16 min 1 max 16384".to_owned())
        );
        assert!(lines.contains(&"option name Clear Hash type button".to_owned()));
        assert!(
            lines.contains(&"option name UCI_LimitStrength type check default false".to_owned())
        );
        assert!(
            lines.contains(
                &"option name UCI_Elo type spin default 1500 min 1000 max 2850".to_owned()
            )
        );
        assert!(
            lines.contains(&"option name Skill Level type spin default 20 min 0 max 20".to_owned())
        );
        assert!(lines.contains(
            &"option name UCI_Variant type combo default chess var chess var extinction var stylish var wacky var sets var dynamic var tiebraker"
                .to_owned()
        ));
        // Stockfish's names, types and defaults.
        for line in [
            "option name SyzygyPath type string default <empty>",
            "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
            "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
            "option name Syzygy50MoveRule type check default true",
        ] {
            assert!(lines.contains(&line.to_owned()), "{line}");
        }
    }

    #[test]
    fn variant_choice() {
        let mut c = VariantChoice::default();
        assert_eq!(c.variant(), Variant::Chess);
        c.scoring = Variant::Sets;
        assert_eq!(c.variant(), Variant::Sets);
        c.uci_variant = Variant::Extinction;
        assert_eq!(c.variant(), Variant::Extinction);
        c.uci_variant = Variant::Wacky;
        assert_eq!(c.variant(), Variant::Wacky);
    }
}
