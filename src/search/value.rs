//! Search values: expected point margins in internal units, with a band for
//! decided games so that faster wins rank first.
//!
//! A value is the margin still to come for the side to move. Where the
//! variant's board result decides the game (every variant but `stylish`), a
//! position proven to end in checkmate or extinction gets
//! `±(MATE - ply * MATE_STEP)` on top of its margin: a proven win beats any
//! estimate, a shorter one beats a longer one, and among equally fast wins the
//! points still decide. Values in the band are stored in the table relative
//! to the node (ply added back), as engines do with mate scores.
//!
//! Below the band and above every estimate lies the tablebase band, of the
//! same shape: a position that Syzygy tables (chess only) say is won or
//! lost, `ply` plies from the root, is worth `±(TB_WIN - ply * MATE_STEP)`
//! on top of the margin of the game's end, so a proven mate still outranks
//! it and a sooner table win outranks a later one. It too is stored
//! relative to the node. Both bands are *decided* values
//! ([`is_decided`]: no pruning margin or evaluation correction applies to
//! them); [`is_proven`] is the checkmate band alone.
//! [`Score`] decodes a value for everyone outside the search.

use super::params::MAX_PLY;
use crate::eval::Units;

/// The band's top: a decided game at ply 0.
pub const MATE: i32 = 1 << 30;
/// The band's step per ply.
pub const MATE_STEP: i32 = 1 << 21;
/// Values beyond this (in absolute value) are proven ends of the game
/// (the checkmate and extinction band).
pub const PROVEN: i32 = MATE - (MAX_PLY as i32 + 1) * MATE_STEP;
/// A tablebase win at the root (ply 0): below every proven end, above every
/// estimate.
pub const TB_WIN: i32 = PROVEN - MATE_STEP;
/// Values beyond this (in absolute value) are decided games: proven ends
/// and tablebase results.
pub const DECIDED: i32 = TB_WIN - (MAX_PLY as i32 + 1) * MATE_STEP;
/// Larger than every value.
pub const INFINITE: i32 = MATE + MATE_STEP;

// The units keep every search path's margin (its actions and its ending)
// within `Units::limit`, and every estimate too:
// - a path is never longer than the units assume;
const _: () = assert!(MAX_PLY as u32 <= Units::PATH_PLIES);
// - in the band, a decided game's margin stays within half a step, so
//   decided games of different lengths never overlap and the length is
//   read back exactly (`plies_to_end`);
const _: () = assert!(Units::BAND_LIMIT < MATE_STEP / 2);
// - outside it, a path's margin plus an estimate never reaches the band.
const _: () = assert!(2 * Units::LIMIT < DECIDED);
const _: () = assert!(2 * Units::BAND_LIMIT < DECIDED);
// - the tablebase band lies below the checkmate band's lowest value.
const _: () = assert!(TB_WIN + MATE_STEP / 2 < MATE - MAX_PLY as i32 * MATE_STEP - MATE_STEP / 2);

/// Whether `v` is a decided game: a proven end or a tablebase result.
#[inline]
pub fn is_decided(v: i32) -> bool {
    v.abs() > DECIDED
}

/// Whether `v` is a proven end of the game (checkmate, extinction), not
/// only a tablebase result.
#[inline]
pub fn is_proven(v: i32) -> bool {
    v.abs() > PROVEN
}

/// The value of a tablebase win (`won`) or loss for the side to move of a
/// position `ply` plies from the root; `margin` is the margin of the
/// game's end.
#[inline]
pub fn tablebase(won: bool, ply: usize, margin: i32) -> i32 {
    let band = TB_WIN - ply as i32 * MATE_STEP;
    margin + if won { band } else { -band }
}

/// A search value with its estimate read as an expected margin
/// ([`Units::margin_of`]: the values of some variants lie on a curve); a
/// decided value unchanged.
#[inline]
pub fn margin_value(v: i32, units: Units) -> i32 {
    if is_decided(v) { v } else { units.margin_of(v) }
}

/// Plies to the decided end of a band value, from the node it belongs to.
#[inline]
pub fn plies_to_end(v: i32) -> i32 {
    (MATE - v.abs() + MATE_STEP / 2) / MATE_STEP
}

/// A search value decoded: a proven end of the game, or an expected point
/// margin. The one place that reads the decisive band; the protocol and the
/// tools format a `Score`, never a raw value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// A proven decisive end (a checkmate, an extinction: whatever the
    /// variant's decisive band holds) `plies` plies away, won or lost by
    /// the side to move; `margin` is the point margin at that end, in
    /// internal units.
    End {
        /// Whether the side to move wins it.
        won: bool,
        /// Plies to the end.
        plies: i32,
        /// The point margin at the end, in internal units.
        margin: i32,
    },
    /// A tablebase result (chess): won or lost by the side to move, with
    /// best play under the tables' rules; `plies` from the node valued
    /// to the position the tables decided (0 for the root itself).
    Tablebase {
        /// Whether the side to move wins.
        won: bool,
        /// Plies to the position the tables decided.
        plies: i32,
        /// The point margin of the game's end, in internal units.
        margin: i32,
    },
    /// Nothing proven: the expected point margin, in internal units.
    Margin(i32),
}

impl Score {
    /// Decodes a search value (internal units, decisive band included).
    pub fn of(value: i32) -> Score {
        if is_decided(value) && !is_proven(value) {
            let plies = (TB_WIN - value.abs() + MATE_STEP / 2) / MATE_STEP;
            let band = TB_WIN - plies * MATE_STEP;
            let (won, margin) = if value > 0 {
                (true, value - band)
            } else {
                (false, value + band)
            };
            return Score::Tablebase { won, plies, margin };
        }
        if is_proven(value) {
            let plies = plies_to_end(value);
            let band = MATE - plies * MATE_STEP;
            let (won, margin) = if value > 0 {
                (true, value - band)
            } else {
                (false, value + band)
            };
            Score::End { won, plies, margin }
        } else {
            Score::Margin(value)
        }
    }

    /// Moves to a proven end: positive when the side to move wins, negative
    /// when it loses, never 0; `None` when nothing is proven.
    pub fn moves(self) -> Option<i32> {
        match self {
            Score::End { won, plies, .. } => {
                let moves = ((plies + 1) / 2).max(1);
                Some(if won { moves } else { -moves })
            }
            Score::Tablebase { .. } | Score::Margin(_) => None,
        }
    }

    /// The point margin in internal units at the proven end (or the one
    /// the tables promise), or the estimate's search value (its expected
    /// margin where the variant's values are the margins; see
    /// [`Score::margin_in`]).
    pub fn margin(self) -> i32 {
        match self {
            Score::End { margin, .. } | Score::Tablebase { margin, .. } | Score::Margin(margin) => {
                margin
            }
        }
    }

    /// The point margin in internal units: at the proven end (or the one
    /// the tables promise), or the expected margin of the estimate
    /// ([`Units::margin_of`]: the search's values of some variants lie on
    /// a curve).
    pub fn margin_in(self, units: Units) -> i32 {
        match self {
            Score::End { margin, .. } | Score::Tablebase { margin, .. } => margin,
            Score::Margin(v) => units.margin_of(v),
        }
    }

    /// [`Score::margin_in`] in the variant's points.
    pub fn points(self, units: Units) -> f64 {
        units.to_points(self.margin_in(units))
    }
}

/// The value of a decided game for the side to move `ply` plies from the
/// root: `won` says who, `margin` is the ending's award margin.
#[inline]
pub fn decided(won: bool, ply: usize, margin: i32) -> i32 {
    let band = MATE - ply as i32 * MATE_STEP;
    margin + if won { band } else { -band }
}

/// A value as stored in the table (node-relative): both bands step by
/// `MATE_STEP` a ply.
#[inline]
pub fn to_tt(v: i32, ply: usize) -> i32 {
    if v > DECIDED {
        v + ply as i32 * MATE_STEP
    } else if v < -DECIDED {
        v - ply as i32 * MATE_STEP
    } else {
        v
    }
}

/// A stored value seen from `ply` plies below the root.
#[inline]
pub fn from_tt(v: i32, ply: usize) -> i32 {
    if v > DECIDED {
        v - ply as i32 * MATE_STEP
    } else if v < -DECIDED {
        v + ply as i32 * MATE_STEP
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn band() {
        let v = decided(true, 5, 1000);
        assert!(is_decided(v));
        assert_eq!(plies_to_end(v), 5);
        let l = decided(false, 4, -1000);
        assert!(is_decided(l));
        assert_eq!(plies_to_end(l), 4);
        assert!(decided(true, 3, 0) > decided(true, 5, 900_000));
        assert_eq!(from_tt(to_tt(v, 3), 3), v);
        assert_eq!(plies_to_end(to_tt(v, 3)), 2);
        assert!(!is_decided(1 << 28));
        assert!(INFINITE > decided(true, 0, 1 << 20));
    }

    #[test]
    fn tablebase_band() {
        // Below every proven end, above every estimate, a sooner win
        // first; stored relative to the node.
        let won = tablebase(true, 3, 100);
        assert!(is_decided(won) && !is_proven(won));
        assert!(tablebase(true, 0, Units::BAND_LIMIT) < decided(true, MAX_PLY, -Units::BAND_LIMIT));
        assert!(tablebase(true, MAX_PLY, -Units::BAND_LIMIT) > 2 * Units::LIMIT);
        assert!(is_decided(tablebase(true, MAX_PLY, -Units::BAND_LIMIT)));
        assert!(tablebase(true, 2, -100) > won);
        assert_eq!(from_tt(to_tt(won, 3), 3), won);
        assert_eq!(to_tt(won, 3), tablebase(true, 0, 100));
        assert_eq!(from_tt(to_tt(-won, 3), 3), -won);
        assert_eq!(
            Score::of(won),
            Score::Tablebase {
                won: true,
                plies: 3,
                margin: 100
            }
        );
        assert_eq!(
            Score::of(tablebase(false, 0, -100)),
            Score::Tablebase {
                won: false,
                plies: 0,
                margin: -100
            }
        );
        assert_eq!(Score::of(won).moves(), None);
        assert_eq!(Score::of(won).margin(), 100);
        assert!(is_proven(decided(true, MAX_PLY, -Units::BAND_LIMIT)));
    }

    #[test]
    fn scores() {
        assert_eq!(Score::of(35), Score::Margin(35));
        assert_eq!(Score::of(-DECIDED), Score::Margin(-DECIDED));
        // Won in 3 moves (5 plies) with a margin of 100 units.
        let won = Score::of(decided(true, 5, 100));
        assert_eq!(
            won,
            Score::End {
                won: true,
                plies: 5,
                margin: 100
            }
        );
        assert_eq!((won.moves(), won.margin()), (Some(3), 100));
        let lost = Score::of(decided(false, 4, -100));
        assert_eq!((lost.moves(), lost.margin()), (Some(-2), -100));
        assert_eq!(Score::of(-(MATE - MATE_STEP)).moves(), Some(-1));
        assert_eq!(Score::of(MATE).moves(), Some(1));
        assert_eq!(Score::of(1 << 28).moves(), None);
    }

    #[test]
    fn margins_on_the_value_curve() {
        use crate::rules::Variant;
        use crate::scoring::Scorer;
        let dynamic = Units::of(&Scorer::new(Variant::Dynamic));
        let chess = Units::of(&Scorer::new(Variant::Chess));
        // An estimate of dynamic is read through the curve; a proven end
        // keeps its margin; chess values are their margins.
        let v = 250;
        assert_eq!(margin_value(v, dynamic), dynamic.margin_of(v));
        assert_ne!(dynamic.margin_of(v), v);
        assert_eq!(Score::of(v).margin_in(dynamic), dynamic.margin_of(v));
        let won = decided(true, 5, 1000);
        assert_eq!(margin_value(won, dynamic), won);
        assert_eq!(Score::of(won).margin_in(dynamic), 1000);
        assert_eq!(Score::of(won).points(dynamic), 100.0);
        assert_eq!(margin_value(v, chess), v);
        assert_eq!(Score::of(v).points(chess), 0.25);
    }
}
