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
use crate::scoring::Tables;
use crate::scoring::dump::rules_file;

/// Arguments of `tally rules`.
#[derive(Debug, Args)]
pub struct RulesArgs {
    /// Variant id (chess, extinction, stylish, wacky, sets, dynamic,
    /// tiebraker), or all.
    #[arg(value_name = "VARIANT", default_value = "all")]
    pub variant: String,
    /// A TOML rules file to apply over the defaults first, to see its
    /// effect.
    #[arg(long, value_name = "FILE")]
    pub rules: Option<PathBuf>,
}

/// Runs `tally rules`: prints the tables of the chosen variants as TOML.
///
/// # Errors
///
/// An unknown variant or a rules file that cannot be used: a [`CliError`]
/// with exit code 2.
pub fn run(args: &RulesArgs) -> Result<(), CliError> {
    let variants = parse_variants(&args.variant)?;
    let tables = match &args.rules {
        Some(path) => Tables::from_file(path).map_err(CliError::bad_input)?,
        None => Tables::default(),
    };
    let text = rules_file(&tables, &variants, args.rules.as_deref());
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
