//! `tally rules`: the point tables in force, printed as the TOML a rules
//! file takes, so that a user can dump them, edit them and load the file
//! with `--rules FILE` or the UCI option `RulesFile`.
//!
//! The emitter and the list of every key with what it pays are
//! [`crate::scoring::dump`]'s; here are the arguments and the printing.

use std::io::Write as _;
use std::path::PathBuf;

use clap::Args;

use super::CliError;
use crate::rules::Variant;
use crate::scoring::dump::rules_file;
use crate::scoring::variants::sets::HandicapGap;
use crate::scoring::{Points, Tables};

/// Arguments of `tally rules`.
#[derive(Debug, Args)]
pub struct RulesArgs {
    /// A variant id, or all.
    #[arg(value_name = "VARIANT", default_value = "all", help = format!("Variant id ({}), or all", Variant::id_list()))]
    pub variant: String,
    /// A TOML rules file to apply over the defaults first, to see its
    /// effect.
    #[arg(long, value_name = "FILE")]
    pub rules: Option<PathBuf>,
    /// Sets: the handicap of a gap of D Elo between the players (the
    /// handicap table of docs/rules.md): every value paid to the weaker
    /// player is multiplied by the table's factor, and it holds the draw
    /// advantage. Needs --weaker and --weaker-elo.
    #[arg(long, value_name = "D", requires_all = ["weaker", "weaker_elo"])]
    pub handicap: Option<u32>,
    /// With --handicap: the weaker player's rating (`UCI_Elo` scale): the
    /// handicap of a gap depends on it (docs/rules.md, sets, Handicap).
    #[arg(long, value_name = "ELO", requires = "handicap")]
    pub weaker_elo: Option<u32>,
    /// Sets: a handicap of your own: every value paid to the weaker player
    /// multiplied by K (at least 1, to the thousandth), in place of the
    /// table's factor of a gap. Needs --weaker.
    #[arg(
        long,
        value_name = "K",
        requires = "weaker",
        conflicts_with = "handicap"
    )]
    pub handicap_factor: Option<String>,
    /// With --handicap: the weaker player's colour, white or black.
    #[arg(long, value_name = "COLOUR")]
    pub weaker: Option<String>,
}

/// A colour named on the command line: `white` or `black`.
///
/// # Errors
///
/// Anything else, naming the option.
pub fn parse_colour(option: &str, text: &str) -> Result<shakmaty::Color, CliError> {
    match text.trim().to_ascii_lowercase().as_str() {
        "white" => Ok(shakmaty::Color::White),
        "black" => Ok(shakmaty::Color::Black),
        _ => Err(CliError::bad_input(format!(
            "{option} '{}': expected white or black",
            crate::text::printable(text.trim())
        ))),
    }
}

/// The tables of `--rules FILE` (the defaults without one) with the sets
/// handicap of `--handicap D` below `--weaker-elo E` for `--weaker
/// COLOUR`, when given.
///
/// # Errors
///
/// A rules file that cannot be used, a bad colour, a gap beyond the
/// handicap table, or a handicap given twice.
pub fn tables_with_handicap(
    rules: Option<&std::path::Path>,
    handicap: Option<HandicapGap>,
    weaker: Option<&str>,
) -> Result<Tables, CliError> {
    let tables = match rules {
        Some(path) => Tables::from_file(path).map_err(CliError::bad_input)?,
        None => Tables::default(),
    };
    match (handicap, weaker) {
        (Some(g), Some(w)) => {
            let side = parse_colour("--weaker", w)?;
            tables
                .with_handicap(g, side)
                .map_err(|e| CliError::bad_input(format!("--handicap {}: {e}", g.gap)))
        }
        (Some(_), None) => Err(CliError::bad_input("--handicap needs --weaker")),
        _ => Ok(tables),
    }
}

/// `--handicap D --weaker-elo E` as a [`HandicapGap`], if given.
pub fn handicap_gap(gap: Option<u32>, weaker_elo: Option<u32>) -> Option<HandicapGap> {
    Some(HandicapGap {
        gap: gap?,
        weaker_elo: weaker_elo?,
    })
}

/// Runs `tally rules`: prints the tables of the chosen variants as TOML.
///
/// # Errors
///
/// An unknown variant or a rules file that cannot be used: a [`CliError`]
/// with exit code 2.
pub fn run(args: &RulesArgs) -> Result<(), CliError> {
    let variants = parse_variants(&args.variant)?;
    let any = args.handicap.is_some() || args.handicap_factor.is_some();
    if any && variants != [Variant::Sets] {
        return Err(CliError::bad_input(
            "--handicap is a sets handicap: give tally rules sets --handicap D --weaker COLOUR",
        ));
    }
    if args.weaker.is_some() && !any {
        return Err(CliError::bad_input(
            "--weaker goes with --handicap D or --handicap-factor K",
        ));
    }
    let gap = handicap_gap(args.handicap, args.weaker_elo);
    let mut tables = tables_with_handicap(args.rules.as_deref(), gap, args.weaker.as_deref())?;
    if let (Some(k), Some(w)) = (&args.handicap_factor, &args.weaker) {
        let side = parse_colour("--weaker", w)?;
        let factor = k
            .trim()
            .parse::<f64>()
            .ok()
            .and_then(Points::from_f64)
            .filter(|p| {
                (p.milli() as f64 - k.trim().parse::<f64>().unwrap_or(0.0) * 1000.0).abs() < 1e-6
            })
            .ok_or_else(|| {
                CliError::bad_input(format!(
                    "--handicap-factor '{}': expected a number, to the thousandth",
                    crate::text::printable(k.trim())
                ))
            })?;
        tables = tables
            .with_handicap_factor(factor.milli(), side)
            .map_err(|e| CliError::bad_input(format!("--handicap-factor: {e}")))?;
    }
    let mut text = rules_file(&tables, &variants, args.rules.as_deref());
    if let (Some(g), Some(h)) = (gap, &tables.sets.handicap) {
        let k = crate::scoring::variants::sets::handicap_factor(g).unwrap_or(1000);
        let colour = if h.side == shakmaty::Color::White {
            "white"
        } else {
            "black"
        };
        text.push_str(&format!(
            "# The handicap of {g}: every value paid to the\n\
             # weaker player ({colour}) is the table's times {}, and it holds the\n\
             # draw advantage (docs/rules.md, sets, Handicap).\n",
            Points::from_milli(k)
        ));
    }
    let stdout = std::io::stdout();
    let _ = stdout.lock().write_all(text.as_bytes());
    Ok(())
}

/// The variants `VARIANT` names: one id, or `all`.
fn parse_variants(text: &str) -> Result<Vec<Variant>, CliError> {
    if text.trim().eq_ignore_ascii_case("all") {
        return Ok(Variant::ALL.to_vec());
    }
    Variant::from_id(text).map(|v| vec![v]).map_err(|_| {
        let ids: Vec<&str> = Variant::ALL.iter().map(|v| v.id()).collect();
        CliError::bad_input(format!(
            "unknown variant '{}' (expected all, {})",
            text.trim(),
            ids.join(", ")
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_names() {
        assert_eq!(parse_variants("all").unwrap(), Variant::ALL);
        assert_eq!(parse_variants("Stylish").unwrap(), [Variant::Stylish]);
        assert_eq!(parse_variants("standard").unwrap(), [Variant::Chess]);
        let e = parse_variants("styl").unwrap_err();
        assert_eq!(e.code, crate::cli::EXIT_BAD_INPUT);
        assert!(e.message.contains("'styl'") && e.message.contains("all, chess"));
    }
}
