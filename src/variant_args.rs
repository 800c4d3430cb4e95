//! The options that say which game is played or scored, declared once
//! ([`VariantArgs`]: `--variant`, `--rules`, `--draw-advantage`) and
//! flattened into every command that takes them (`tally analyse`,
//! `match`, `datagen`, `score`). Clap parses the variant and the draw
//! advantage ([`parse_variant`], [`parse_draw_advantage`]); a bad value
//! is a [`BadValue`], which the command line says in one line. A command
//! whose `--variant` defaults otherwise words it with [`variant_help`].

use std::fmt;
use std::path::PathBuf;

use crate::rules::Variant;
use crate::scoring::{DrawAdvantage, Tables};

/// `--variant`, `--rules` and `--draw-advantage`, as a command flattens
/// them (`#[command(flatten)]`); the command sets its own defaults and
/// help where they differ (`mut_arg`).
#[derive(Clone, Debug, clap::Args)]
pub struct VariantArgs {
    /// The variant (`-v`): each command says what it is without one.
    #[arg(long, short = 'v', value_parser = parse_variant, help = variant_help(""))]
    pub variant: Option<Variant>,
    /// A TOML rules file overriding any point value of the built-in tables.
    #[arg(long, value_name = "FILE")]
    pub rules: Option<PathBuf>,
    /// Sets: who gets 1/2 for a plain draw (black, white or none).
    #[arg(long, value_name = "SIDE", value_parser = parse_draw_advantage)]
    pub draw_advantage: Option<DrawAdvantage>,
}

impl VariantArgs {
    /// The point tables: `--rules FILE` over the defaults, or the defaults.
    ///
    /// # Errors
    ///
    /// A rules file that cannot be used, one line.
    pub fn tables(&self) -> Result<Tables, String> {
        match &self.rules {
            Some(path) => Tables::from_file(path).map_err(|e| e.to_string()),
            None => Ok(Tables::default()),
        }
    }
}

/// What `--variant` says of a command that reads a PGN's Variant tag
/// (`analyse`, `score`), after the ids ([`variant_help`]).
pub const OVER_THE_TAG: &str = ". Overrides a PGN's Variant tag; without either, chess";

/// The help of `--variant`: "Variant id: " and every variant's id
/// ([`Variant::id_list`]), then `more` (what a command does without it).
pub fn variant_help(more: &str) -> String {
    format!("Variant id: {}{more}", Variant::id_list())
}

/// A bad value of a [`VariantArgs`] option: the message said, one line
/// (clap wraps it, the command line says it alone).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadValue(pub String);

impl fmt::Display for BadValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadValue {}

/// `--variant`'s parser ([`Variant::from_id`]).
///
/// # Errors
///
/// An unknown variant: the value and every variant's id.
pub fn parse_variant(text: &str) -> Result<Variant, BadValue> {
    Variant::from_id(text).map_err(|e| BadValue(e.to_string()))
}

/// `--draw-advantage`'s parser ([`DrawAdvantage::parse`]).
///
/// # Errors
///
/// Neither black, white nor none: the value and the valid ones.
pub fn parse_draw_advantage(text: &str) -> Result<DrawAdvantage, BadValue> {
    DrawAdvantage::parse(text).map_err(BadValue)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_help_and_the_error_name_every_variant() {
        let help = variant_help("");
        let error = parse_variant("atomic").unwrap_err().0;
        for v in Variant::ALL {
            assert!(help.contains(v.id()), "{help}");
            assert!(error.contains(v.id()), "{error}");
        }
        assert!(error.starts_with("unknown variant 'atomic'"), "{error}");
        assert_eq!(parse_variant(" Standard "), Ok(Variant::Chess));
        assert_eq!(parse_draw_advantage("WHITE"), Ok(DrawAdvantage::White));
        assert!(
            parse_draw_advantage("grey")
                .unwrap_err()
                .0
                .contains("'grey'")
        );
    }
}
