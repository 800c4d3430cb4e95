//! [`Tables`]: every point value of every variant, with the specification's
//! defaults, overridable from a TOML rules file.
//!
//! A rules file has one section per variant, named by its id, and sets any
//! subset of the keys below; unknown keys are errors. Example:
//!
//! ```toml
//! [dynamic]
//! stalemate = [70, 30]
//!
//! [stylish.mate]
//! rook = [90, 120]
//! ```

use std::fmt;
use std::path::Path;

use serde::{Deserialize, Deserializer, Serialize};

use super::{Points, stylish, wacky};

impl<'de> Deserialize<'de> for Points {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Points, D::Error> {
        let x = f64::deserialize(d)?;
        Points::from_f64(x).ok_or_else(|| serde::de::Error::custom("not a finite number of points"))
    }
}

/// Points to the two sides of a split, `[first, second]` as each key says.
pub type Split = [Points; 2];

const fn split(a: i64, b: i64) -> Split {
    [Points::whole(a), Points::whole(b)]
}

/// `chess` and `extinction`: the board result.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct ResultTable {
    /// Points for a win.
    pub win: Points,
    /// Points to each side for a draw.
    pub draw: Points,
    /// Points for a loss.
    pub loss: Points,
}

impl Default for ResultTable {
    fn default() -> ResultTable {
        ResultTable {
            win: Points::whole(1),
            draw: Points::HALF,
            loss: Points::ZERO,
        }
    }
}

/// `sets` (spec section 5).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct SetsTable {
    /// Checkmate, to the mating player.
    pub mate: Points,
    /// Resignation, to the opponent.
    pub resignation: Points,
    /// A claimed bare king, to the barer.
    pub bare_king: Points,
    /// Mutual bare kings, to the first barer.
    pub mutual_bare: Points,
    /// Stalemate, to the stalemating player.
    pub stalemate: Points,
    /// Other draws and the 30-move rule, to the draw-advantage player.
    pub draw: Points,
    /// Perpetual check, to the checking side.
    pub perpetual_check: Points,
    /// Mutual perpetual check, to the side that gave the first check.
    pub mutual_perpetual_check: Points,
    /// Plain threefold repetition, to the opponent of the side that made
    /// the third occurrence.
    pub repetition: Points,
}

impl Default for SetsTable {
    fn default() -> SetsTable {
        SetsTable {
            mate: Points::whole(2),
            resignation: Points::whole(2),
            bare_king: Points::whole(1),
            mutual_bare: Points::HALF,
            stalemate: Points::whole(1),
            draw: Points::HALF,
            perpetual_check: Points::whole(1),
            mutual_perpetual_check: Points::HALF,
            repetition: Points::HALF,
        }
    }
}

/// `dynamic` (spec section 6); each split is `[winner-ish side, other]` as
/// the key says.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct DynamicTable {
    /// Checkmate: `[mating player, mated player]`.
    pub mate: Split,
    /// Stalemate: `[stalemating player, stalemated player]`.
    pub stalemate: Split,
    /// Perpetual check by Black: `[black, white]`.
    pub perpetual_by_black: Split,
    /// Perpetual check by White: `[white, black]`.
    pub perpetual_by_white: Split,
    /// Every other draw, mutual perpetual check included: `[white, black]`.
    pub draw: Split,
}

impl Default for DynamicTable {
    fn default() -> DynamicTable {
        DynamicTable {
            mate: split(100, 0),
            stalemate: split(60, 40),
            perpetual_by_black: split(55, 45),
            perpetual_by_white: split(51, 49),
            draw: split(50, 50),
        }
    }
}

/// `tiebraker` (spec section 7): the splits after a disk. Before a disk,
/// inside the swap window and in the offered phase, the dynamic table
/// applies.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct TiebrakerTable {
    /// Accepted disk, the disk player mates: `[disk player, other]`.
    pub accepted_disk_mates: Split,
    /// Accepted disk, the other player mates: `[other, disk player]`.
    pub accepted_other_mates: Split,
    /// Accepted disk, stalemate: `[stalemating, stalemated]`.
    pub accepted_stalemate: Split,
    /// Accepted disk, perpetual check by the disk player: `[disk player, other]`.
    pub accepted_disk_perpetual: Split,
    /// Accepted disk, every other draw: `[white, black]` (perpetual check
    /// by the other player is scored as in dynamic).
    pub accepted_draw: Split,
    /// After the swap window, a mate by either side: `[mating, mated]`.
    pub swapped_mate: Split,
    /// After the swap window, stalemate: `[stalemating, stalemated]`.
    pub swapped_stalemate: Split,
    /// After the swap window, any perpetual check or other draw:
    /// `[white, black]`.
    pub swapped_draw: Split,
    /// Restored, the restorer mates: `[restorer, first player]`.
    pub restored_restorer_mates: Split,
    /// Restored, the restorer stalemates: `[restorer, first player]`.
    pub restored_restorer_stalemates: Split,
    /// Restored, every other ending: `[first player, restorer]`.
    pub restored_other: Split,
}

impl Default for TiebrakerTable {
    fn default() -> TiebrakerTable {
        TiebrakerTable {
            accepted_disk_mates: split(90, 10),
            accepted_other_mates: split(100, 0),
            accepted_stalemate: split(60, 40),
            accepted_disk_perpetual: split(50, 50),
            accepted_draw: split(50, 50),
            swapped_mate: split(90, 10),
            swapped_stalemate: split(60, 40),
            swapped_draw: split(50, 50),
            restored_restorer_mates: split(80, 20),
            restored_restorer_stalemates: split(60, 40),
            restored_other: split(100, 0),
        }
    }
}

/// Every variant's table.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Tables {
    /// `chess`.
    pub chess: ResultTable,
    /// `extinction`.
    pub extinction: ResultTable,
    /// `stylish`.
    pub stylish: stylish::Table,
    /// `wacky`.
    pub wacky: wacky::Table,
    /// `sets`.
    pub sets: SetsTable,
    /// `dynamic`.
    pub dynamic: DynamicTable,
    /// `tiebraker`.
    pub tiebraker: TiebrakerTable,
}

/// A rules file that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TablesError(pub String);

impl fmt::Display for TablesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TablesError {}

impl Tables {
    /// Parses a rules file's text: the defaults with the file's values
    /// over them.
    ///
    /// # Errors
    ///
    /// [`TablesError`] naming the key and line of the first problem.
    pub fn from_toml(text: &str) -> Result<Tables, TablesError> {
        toml::from_str(text).map_err(|e| TablesError(e.to_string().trim().replace('\n', " ")))
    }

    /// Reads a rules file.
    ///
    /// # Errors
    ///
    /// [`TablesError`] naming the file, and the key for bad content.
    pub fn from_file(path: &Path) -> Result<Tables, TablesError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| TablesError(format!("{}: {e}", path.display())))?;
        Tables::from_toml(&text).map_err(|e| TablesError(format!("{}: {}", path.display(), e.0)))
    }
}

/// Who gets the 1/2 point of a plain draw in sets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DrawAdvantage {
    /// Black (the default).
    #[default]
    Black,
    /// White.
    White,
    /// Nobody.
    None,
}

impl DrawAdvantage {
    /// Parses `black`, `white` or `none`.
    ///
    /// # Errors
    ///
    /// A message listing the valid values.
    pub fn parse(s: &str) -> Result<DrawAdvantage, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "black" => Ok(DrawAdvantage::Black),
            "white" => Ok(DrawAdvantage::White),
            "none" => Ok(DrawAdvantage::None),
            other => Err(format!(
                "invalid draw advantage '{other}' (expected black, white or none)"
            )),
        }
    }

    /// The side with the advantage.
    pub fn color(self) -> Option<shakmaty::Color> {
        match self {
            DrawAdvantage::Black => Some(shakmaty::Color::Black),
            DrawAdvantage::White => Some(shakmaty::Color::White),
            DrawAdvantage::None => None,
        }
    }

    /// The option value (`black`, `white`, `none`).
    pub fn as_str(self) -> &'static str {
        match self {
            DrawAdvantage::Black => "black",
            DrawAdvantage::White => "white",
            DrawAdvantage::None => "none",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_and_errors() {
        let t =
            Tables::from_toml("[dynamic]\nstalemate = [70, 30]\n[sets]\ndraw = 0.25\n").unwrap();
        assert_eq!(t.dynamic.stalemate, split(70, 30));
        assert_eq!(t.dynamic.mate, split(100, 0));
        assert_eq!(t.sets.draw, Points::from_milli(250));
        let e = Tables::from_toml("[dynamic]\nstalmate = [70, 30]\n").unwrap_err();
        assert!(e.0.contains("stalmate"), "{e}");
        let e = Tables::from_toml("[sets]\nmate = \"two\"\n").unwrap_err();
        assert!(e.0.contains("mate"), "{e}");
        assert!(Tables::from_toml("[nonsense]\n").is_err());
    }
}
