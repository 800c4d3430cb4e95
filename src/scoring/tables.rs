//! [`Tables`]: every point value of every variant, with the specification's
//! defaults, overridable from a TOML rules file.
//!
//! A rules file has one section per variant, named by its id, and sets any
//! subset of the keys below; unknown keys are errors, and so are arrays of
//! another length than the key's (a split is a pair). Every point value
//! lies between -10^9 and 10^9 ([`Points::MAX_VALUE`]); wacky's whole-number
//! factors (attacking and defending powers, `knight_squares`) between 0 and
//! [`MAX_FACTOR`], its `moves_limit` between 0 and [`MAX_MOVES_LIMIT`]. A
//! value outside its range is refused, naming the key and the range.
//! A table one of whose wacky products can pass [`Points::MAX_TOTAL`] in
//! a single award is refused too ([`Tables::check`], naming the keys).
//! Awards and totals saturate at the ends of the [`Points`] range rather
//! than wrap (`tally score` fails a game whose totals pass
//! [`Points::MAX_TOTAL`] instead of printing them), and the search's units grow with the largest award (see
//! `Units` in the `eval` module), so every value in range is played
//! soundly. Example:
//!
//! ```toml
//! [dynamic]
//! stalemate = [70, 30]
//!
//! [stylish.mate]
//! rook = [90, 120]
//! ```

use std::fmt;
use std::marker::PhantomData;
use std::path::Path;

use serde::de::{Error as _, IgnoredAny, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};

use super::Points;
use super::variants::{dynamic, result, sets, tiebraker};
use super::variants::{stylish, wacky};

impl<'de> Deserialize<'de> for Points {
    /// A number of points, at most [`Points::MAX_VALUE`] in magnitude.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Points, D::Error> {
        let x = f64::deserialize(d)?;
        // Points count thousandths: a finer value would be rounded away
        // without a word.
        if x.is_finite() && ((x * 1000.0).round() - x * 1000.0).abs() > 1e-6 {
            return Err(D::Error::custom(format!(
                "{x} is finer than the thousandth of a point that points are counted in"
            )));
        }
        match Points::from_f64(x) {
            Some(p) if p.abs() <= Points::MAX_VALUE => Ok(p),
            Some(_) => Err(D::Error::custom(format!(
                "{x} is out of range (a point value lies between -{max} and {max})",
                max = Points::MAX_VALUE
            ))),
            None => Err(D::Error::custom("not a finite number of points")),
        }
    }
}

/// The largest whole-number factor in a rules file (wacky's attacking and
/// defending powers, a knight move's distance).
pub const MAX_FACTOR: i64 = 1000;

/// The largest `moves_limit` of wacky's moves bonus.
pub const MAX_MOVES_LIMIT: i64 = 10_000;

/// A whole number in `0..=max`, or an error naming the range.
fn bounded<'de, D: Deserializer<'de>>(d: D, max: i64) -> Result<i64, D::Error> {
    let v = i64::deserialize(d)?;
    if (0..=max).contains(&v) {
        Ok(v)
    } else {
        Err(D::Error::custom(format!(
            "{v} is out of range (a whole number from 0 to {max})"
        )))
    }
}

/// A whole-number factor, `0..=MAX_FACTOR`.
pub(super) fn factor<'de, D: Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
    bounded(d, MAX_FACTOR)
}

/// Wacky's `moves_limit`, `0..=MAX_MOVES_LIMIT`.
pub(super) fn moves_limit<'de, D: Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
    bounded(d, MAX_MOVES_LIMIT)
}

/// What an array of `n` values is called in errors.
fn shape(n: usize) -> String {
    if n == 2 {
        "a pair [first, second]".to_string()
    } else {
        format!("an array of exactly {n} values")
    }
}

/// Counts what is left of a sequence (to report its full length).
fn rest<'de, A: SeqAccess<'de>>(mut seq: A, read: usize) -> Result<usize, A::Error> {
    let mut n = read;
    while seq.next_element::<IgnoredAny>()?.is_some() {
        n += 1;
    }
    Ok(n)
}

/// Exactly `N` values: an array of another length is an error (the derived
/// array deserializer would drop extra values).
pub(super) fn exact<'de, D, T, const N: usize>(d: D) -> Result<[T; N], D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    struct Exact<T, const N: usize>(PhantomData<T>);

    impl<'de, T: Deserialize<'de>, const N: usize> Visitor<'de> for Exact<T, N> {
        type Value = [T; N];

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(&shape(N))
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<[T; N], A::Error> {
            let mut items = Vec::with_capacity(N);
            while items.len() < N {
                match seq.next_element::<T>()? {
                    Some(x) => items.push(x),
                    None => return Err(A::Error::invalid_length(items.len(), &self)),
                }
            }
            let n = rest(seq, N)?;
            if n != N {
                return Err(A::Error::invalid_length(n, &self));
            }
            items
                .try_into()
                .map_err(|v: Vec<T>| A::Error::invalid_length(v.len(), &self))
        }
    }

    d.deserialize_seq(Exact::<T, N>(PhantomData))
}

/// A list of `[a, b]` pairs, each exactly two values.
pub(super) fn pairs<'de, D, A, B>(d: D) -> Result<Vec<(A, B)>, D::Error>
where
    D: Deserializer<'de>,
    A: Deserialize<'de>,
    B: Deserialize<'de>,
{
    struct Pair<A, B>(A, B);

    impl<'de, A: Deserialize<'de>, B: Deserialize<'de>> Deserialize<'de> for Pair<A, B> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Pair<A, B>, D::Error> {
            struct V<A, B>(PhantomData<(A, B)>);

            impl<'de, A: Deserialize<'de>, B: Deserialize<'de>> Visitor<'de> for V<A, B> {
                type Value = Pair<A, B>;

                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str(&shape(2))
                }

                fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Pair<A, B>, S::Error> {
                    let a = seq
                        .next_element::<A>()?
                        .ok_or_else(|| S::Error::invalid_length(0, &self))?;
                    let b = seq
                        .next_element::<B>()?
                        .ok_or_else(|| S::Error::invalid_length(1, &self))?;
                    let n = rest(seq, 2)?;
                    if n != 2 {
                        return Err(S::Error::invalid_length(n, &self));
                    }
                    Ok(Pair(a, b))
                }
            }

            d.deserialize_seq(V(PhantomData))
        }
    }

    let v = Vec::<Pair<A, B>>::deserialize(d)?;
    Ok(v.into_iter().map(|Pair(a, b)| (a, b)).collect())
}

/// The largest magnitude among `values` (zero for none).
pub(super) fn largest<I: IntoIterator<Item = Points>>(values: I) -> Points {
    values
        .into_iter()
        .map(Points::abs)
        .max()
        .unwrap_or(Points::ZERO)
}

/// Points to the two sides of a split, `[first, second]` as each key says.
pub type Split = [Points; 2];

/// The largest margin among `splits`: `|first - second|`.
pub(super) fn largest_margin<'a, I: IntoIterator<Item = &'a Split>>(splits: I) -> Points {
    largest(splits.into_iter().map(|s| s[0] - s[1]))
}

/// A split of whole points.
pub(super) const fn split(a: i64, b: i64) -> Split {
    [Points::whole(a), Points::whole(b)]
}

/// Every variant's table.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Tables {
    /// `chess`.
    pub chess: result::Table,
    /// `extinction`.
    pub extinction: result::Table,
    /// `stylish`.
    pub stylish: stylish::Table,
    /// `wacky`.
    pub wacky: wacky::Table,
    /// `sets`.
    pub sets: sets::Table,
    /// `dynamic`.
    pub dynamic: dynamic::Table,
    /// `tiebraker`.
    pub tiebraker: tiebraker::Table,
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
        let tables: Tables = toml::from_str(text)
            .map_err(|e| TablesError(e.to_string().trim().replace('\n', " ")))?;
        tables.check()?;
        Ok(tables)
    }

    /// Whether every award the tables make fits the reported range: a
    /// product of values (wacky's) that can pass [`Points::MAX_TOTAL`] in
    /// one award would saturate, so it is refused; whether wacky's bands
    /// (`life`, `moves`) start in rising order; and whether a sets handicap
    /// fits its table (`sets::Table::check_handicap`).
    ///
    /// # Errors
    ///
    /// [`TablesError`] naming the keys of the product.
    pub fn check(&self) -> Result<(), TablesError> {
        self.sets.check_handicap().map_err(TablesError)?;
        if let Some(key) = self.wacky.unordered_bands() {
            return Err(TablesError(format!(
                "wacky.{key}: each band must start above the one before it"
            )));
        }
        match self.wacky.oversized_product() {
            Some((keys, v)) => Err(TablesError(format!(
                "{keys} can reach {v} points in one award, beyond 10^15 \
                 (the most a total may be): make one of them smaller"
            ))),
            None => Ok(()),
        }
    }

    /// The tables with the sets handicap of `g` given to the weaker
    /// player, `weaker` ([`sets::Handicap::for_gap`], over the sets values
    /// in force).
    ///
    /// # Errors
    ///
    /// A gap beyond the handicap table, or tables that hold a handicap
    /// already (from a rules file).
    pub fn with_handicap(
        self,
        g: sets::HandicapGap,
        weaker: shakmaty::Color,
    ) -> Result<Tables, TablesError> {
        let k = sets::handicap_factor(g).map_err(TablesError)?;
        self.with_handicap_factor(k, weaker)
    }

    /// The tables with a sets handicap that multiplies every value paid to
    /// the weaker player, `weaker`, by `factor_milli` thousandths (at
    /// least 1000: a handicap raises the weaker player's values).
    ///
    /// # Errors
    ///
    /// A factor below 1, or tables that hold a handicap already.
    pub fn with_handicap_factor(
        mut self,
        factor_milli: i64,
        weaker: shakmaty::Color,
    ) -> Result<Tables, TablesError> {
        if factor_milli < 1000 {
            return Err(TablesError(format!(
                "a handicap factor of {} is below 1: a handicap raises the weaker player's values",
                Points::from_milli(factor_milli)
            )));
        }
        if self.sets.handicap.is_some() {
            return Err(TablesError(
                "the rules file holds a sets handicap already: give the handicap once (the file's [sets.handicap] or --handicap)"
                    .to_owned(),
            ));
        }
        self.sets.handicap = Some(sets::Handicap::with_factor(
            factor_milli,
            weaker,
            &self.sets,
        ));
        self.check()?;
        Ok(self)
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
        // Finer than a thousandth: refused, not rounded to nothing.
        let e = Tables::from_toml("[sets]\ndraw = 0.0004\n").unwrap_err();
        assert!(e.0.contains("finer than the thousandth"), "{e}");
        assert!(Tables::from_toml("[sets]\ndraw = 0.125\n").is_ok());
        assert!(Tables::from_toml("[sets]\ndraw = 0.1\n").is_ok());
        // Bands out of order would be read wrongly: refused.
        let e = Tables::from_toml("[wacky]\nlife = [[50, 5], [0, 1000]]\n").unwrap_err();
        assert_eq!(
            e.0,
            "wacky.life: each band must start above the one before it"
        );
        let e = Tables::from_toml("[wacky]\nmoves = [[1, 5], [1, 1000]]\n").unwrap_err();
        assert_eq!(
            e.0,
            "wacky.moves: each band must start above the one before it"
        );
        assert!(Tables::from_toml("[wacky]\nlife = [[0, 5], [50, 1000]]\n").is_ok());
    }
}
