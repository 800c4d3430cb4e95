//! `tiebraker`: dynamic scoring with the disk. Before a disk, while one is
//! offered and in a swap's window, dynamic's splits apply (this type
//! delegates to [`dynamic`]); after it, the splits of each
//! phase in its [`Table`] (the `[tiebraker]` section of the [`Tables`]).

use serde::{Deserialize, Serialize};
use shakmaty::Color;

use super::dynamic::{self, band};
use super::{End, VariantScoring, gap, outranks, to};
use crate::rules::{Disk, Ending, RepetitionKind};
use crate::scoring::dump::{Key, key};
use crate::scoring::outcome::ending_event;
use crate::scoring::tables::{Split, exact, largest_margin, split};
use crate::scoring::{Award, Points, Tables};

/// The tiebraker scoring.
#[derive(Clone, Copy, Debug)]
pub struct Tiebraker;

const KEYS: &[Key] = &[
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

/// Whether a win outranks every other ending in the phases after a disk.
fn disk_band(t: &Tables) -> bool {
    let (tb, d) = (&t.tiebraker, &t.dynamic);
    let swapped = outranks(
        gap(tb.swapped_mate),
        [tb.swapped_stalemate, tb.swapped_draw].map(|s| gap(s).abs()),
    );
    // After an accepted disk a perpetual check by the other player is
    // scored as in dynamic.
    let accepted_others = [
        tb.accepted_stalemate,
        tb.accepted_disk_perpetual,
        tb.accepted_draw,
        d.perpetual_by_black,
        d.perpetual_by_white,
    ]
    .map(|s| gap(s).abs());
    let accepted = outranks(gap(tb.accepted_disk_mates), accepted_others)
        && outranks(gap(tb.accepted_other_mates), accepted_others);
    // Restored: the first player wins with `restored_other` (which every
    // ending but the restorer's mate and stalemate pays it); the restorer
    // wins with its mate.
    let (other, mates, stalemates) = (
        gap(tb.restored_other),
        gap(tb.restored_restorer_mates),
        gap(tb.restored_restorer_stalemates),
    );
    let restored = outranks(other, [-mates, -stalemates]) && outranks(mates, [stalemates, -other]);
    swapped && accepted && restored
}

/// `tiebraker` (docs/rules.md, `tiebraker`): the splits after a disk. Before a disk,
/// inside the swap window and in the offered phase, the dynamic table
/// applies.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Table {
    /// Accepted disk, the disk player mates: `[disk player, other]`.
    #[serde(deserialize_with = "exact")]
    pub accepted_disk_mates: Split,
    /// Accepted disk, the other player mates: `[other, disk player]`.
    #[serde(deserialize_with = "exact")]
    pub accepted_other_mates: Split,
    /// Accepted disk, stalemate: `[stalemating, stalemated]`.
    #[serde(deserialize_with = "exact")]
    pub accepted_stalemate: Split,
    /// Accepted disk, perpetual check by the disk player: `[disk player, other]`.
    #[serde(deserialize_with = "exact")]
    pub accepted_disk_perpetual: Split,
    /// Accepted disk, every other draw: `[white, black]` (perpetual check
    /// by the other player is scored as in dynamic).
    #[serde(deserialize_with = "exact")]
    pub accepted_draw: Split,
    /// After the swap window, a mate by either side: `[mating, mated]`.
    #[serde(deserialize_with = "exact")]
    pub swapped_mate: Split,
    /// After the swap window, stalemate: `[stalemating, stalemated]`.
    #[serde(deserialize_with = "exact")]
    pub swapped_stalemate: Split,
    /// After the swap window, any perpetual check or other draw:
    /// `[white, black]`.
    #[serde(deserialize_with = "exact")]
    pub swapped_draw: Split,
    /// Restored, the restorer mates: `[restorer, first player]`.
    #[serde(deserialize_with = "exact")]
    pub restored_restorer_mates: Split,
    /// Restored, the restorer stalemates: `[restorer, first player]`.
    #[serde(deserialize_with = "exact")]
    pub restored_restorer_stalemates: Split,
    /// Restored, every other ending: `[first player, restorer]`.
    #[serde(deserialize_with = "exact")]
    pub restored_other: Split,
}

impl Default for Table {
    fn default() -> Table {
        Table {
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

impl Table {
    /// The largest margin an ending after a disk pays (before a disk the
    /// dynamic table's).
    pub fn end_bound(&self) -> Points {
        largest_margin([
            &self.accepted_disk_mates,
            &self.accepted_other_mates,
            &self.accepted_stalemate,
            &self.accepted_disk_perpetual,
            &self.accepted_draw,
            &self.swapped_mate,
            &self.swapped_stalemate,
            &self.swapped_draw,
            &self.restored_restorer_mates,
            &self.restored_restorer_stalemates,
            &self.restored_other,
        ])
    }
}

impl VariantScoring for Tiebraker {
    /// The split of the disk's phase in `end`; a resignation counts as a
    /// mate by the opponent in that phase, its award still named a
    /// resignation.
    fn outcome_award(&self, t: &Tables, end: &End) -> Award {
        let (tb, d) = (&t.tiebraker, &t.dynamic);
        let ev = ending_event(end.ending);
        let ending = match *end.ending {
            Ending::Resignation { winner } => Ending::Checkmate { winner },
            other => other,
        };
        match end.node.extra.disk {
            Disk::None | Disk::Offered { .. } => dynamic::award(d, &ending, ev),
            Disk::Swapped { plies, .. } if plies <= Disk::SWAP_WINDOW => {
                dynamic::award(d, &ending, ev)
            }
            Disk::Swapped { .. } => match ending {
                Ending::Checkmate { winner } => to(winner, tb.swapped_mate, ev),
                Ending::Stalemate { stalemated } => to(!stalemated, tb.swapped_stalemate, ev),
                _ => to(Color::White, tb.swapped_draw, ev),
            },
            Disk::Accepted { disk } => match ending {
                Ending::Checkmate { winner } if winner == disk => {
                    to(winner, tb.accepted_disk_mates, ev)
                }
                Ending::Checkmate { winner } => to(winner, tb.accepted_other_mates, ev),
                Ending::Stalemate { stalemated } => to(!stalemated, tb.accepted_stalemate, ev),
                Ending::Repetition(r) => match r.kind {
                    RepetitionKind::Perpetual { by } if by == disk => {
                        to(disk, tb.accepted_disk_perpetual, ev)
                    }
                    RepetitionKind::Perpetual { .. } => dynamic::award(d, &ending, ev),
                    _ => to(Color::White, tb.accepted_draw, ev),
                },
                _ => to(Color::White, tb.accepted_draw, ev),
            },
            Disk::Restored { first } => {
                let restorer = !first;
                match ending {
                    Ending::Checkmate { winner } if winner == restorer => {
                        to(restorer, tb.restored_restorer_mates, ev)
                    }
                    Ending::Stalemate { stalemated } if stalemated == first => {
                        to(restorer, tb.restored_restorer_stalemates, ev)
                    }
                    _ => to(first, tb.restored_other, ev),
                }
            }
        }
    }

    fn end_bound(&self, t: &Tables) -> Points {
        dynamic::Dynamic.end_bound(t).max(t.tiebraker.end_bound())
    }

    /// Dynamic's.
    fn pawn_scale(&self, t: &Tables) -> (Points, i64) {
        dynamic::Dynamic.pawn_scale(t)
    }

    /// Dynamic's band, and every phase after a disk outranked by its wins.
    fn decisive_band(&self, t: &Tables) -> bool {
        band(&t.dynamic) && disk_band(t)
    }

    fn keys(&self) -> &'static [Key] {
        KEYS
    }

    fn about(&self) -> &'static str {
        "tiebraker: the splits after a disk; before it, while it is offered and for 20 plies after a swap, [dynamic] applies"
    }

    /// Dynamic's.
    fn milli_per_cp(&self) -> Option<i64> {
        dynamic::Dynamic.milli_per_cp()
    }
}
