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

use serde::{Deserialize, Deserializer};

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
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
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
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
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
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
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
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
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
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
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

    /// The largest rules file read, in bytes (1 MiB; every table in full
    /// takes a few kilobytes).
    pub const MAX_FILE: u64 = 1 << 20;

    /// Reads a rules file: a regular file of UTF-8 TOML, at most
    /// [`Tables::MAX_FILE`] bytes.
    ///
    /// The file may be anything a user names (`/etc/passwd`, a `.env`,
    /// `/proc/self/environ`, a FIFO), so nothing of its content is ever
    /// quoted: errors name the file, the line and column, and the kind of
    /// problem. A FIFO, a device or a directory is refused unopened, and a
    /// file whose content does not match its size (as those of `/proc`
    /// claim 0) is refused unread beyond the limit.
    ///
    /// # Errors
    ///
    /// [`TablesError`] naming the file and what is wrong, in one line.
    pub fn from_file(path: &Path) -> Result<Tables, TablesError> {
        let fail = |what: String| TablesError(format!("{}: {what}", path.display()));
        let text = read_rules_file(path).map_err(fail)?;
        // The typed parse first, for an error that quotes nothing; then the
        // parse of record (which cannot fail on the syntax any more).
        if let Err(e) = toml::from_str::<Tables>(&text) {
            return Err(fail(describe_toml_error(&text, &e)));
        }
        Tables::from_toml(&text).map_err(|e| fail(e.0))
    }
}

/// The text of a rules file, or what is wrong with it (never its content).
fn read_rules_file(path: &Path) -> Result<String, String> {
    use std::io::Read;
    // The path's metadata, before opening: opening a FIFO would block.
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err(not_regular(&meta));
    }
    if meta.len() > Tables::MAX_FILE {
        return Err(format!("larger than {} bytes", Tables::MAX_FILE));
    }
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    // What was opened, should the path have changed meanwhile.
    let meta = file.metadata().map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err(not_regular(&meta));
    }
    let mut bytes = Vec::new();
    file.take(Tables::MAX_FILE + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > Tables::MAX_FILE {
        return Err(format!("larger than {} bytes", Tables::MAX_FILE));
    }
    if bytes.len() as u64 != meta.len() {
        return Err(format!(
            "{} bytes read where the file claims {}: not a plain file",
            bytes.len(),
            meta.len()
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let (line, column) = line_and_column(&String::from_utf8_lossy(&e.into_bytes()[..at]), at);
        format!("line {line}, column {column}: not UTF-8 text")
    })
}

/// What kind of file `meta` describes, when not a regular one.
fn not_regular(meta: &std::fs::Metadata) -> String {
    let t = meta.file_type();
    let kind = if t.is_dir() {
        "a directory"
    } else if is_fifo(&t) {
        "a FIFO"
    } else {
        "a special file"
    };
    format!("{kind}, not a regular file")
}

#[cfg(unix)]
fn is_fifo(t: &std::fs::FileType) -> bool {
    std::os::unix::fs::FileTypeExt::is_fifo(t)
}

#[cfg(not(unix))]
fn is_fifo(_: &std::fs::FileType) -> bool {
    false
}

/// The 1-based line and column (in characters) of byte `at` of `text`.
fn line_and_column(text: &str, at: usize) -> (usize, usize) {
    let before = text.get(..at.min(text.len())).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[start..].chars().count() + 1)
}

/// A TOML error as its position and kind, quoting nothing of `text`: the
/// library's messages quote keys and values, its display whole lines.
fn describe_toml_error(text: &str, e: &toml::de::Error) -> String {
    let at = e
        .span()
        .map(|s| {
            let (line, column) = line_and_column(text, s.start);
            format!("line {line}, column {column}: ")
        })
        .unwrap_or_default();
    let message = e.message();
    let kind = if text.parse::<toml::Table>().is_err() {
        "not valid TOML"
    } else if message.starts_with("unknown field") || message.starts_with("unknown variant") {
        "unknown key"
    } else if message.starts_with("invalid type") {
        "value of the wrong type"
    } else if message.starts_with("invalid length") {
        "array of the wrong length"
    } else if message.starts_with("missing field") {
        "missing key"
    } else if message.contains(['`', '"', '\'']) {
        "invalid value"
    } else {
        // Tally's own words (`Points`' "not a finite number of points").
        message
    };
    format!("{at}{kind}")
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
