//! Variant state beyond the board that changes what is legal: the tiebraker
//! disk and its phases, and the sets bare-king claim procedure.

use shakmaty::Color;

/// The tiebraker disk (docs/rules.md, `tiebraker`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Disk {
    /// No disk has been played: either side not in check may play `disk`.
    #[default]
    None,
    /// `by` just played `disk`; the opponent must accept (any move), `swap`
    /// or `restore`.
    Offered {
        /// The first player, whose king is the disk.
        by: Color,
    },
    /// The disk was accepted: `disk`'s king is frozen; compulsory
    /// capture-or-check for both sides.
    Accepted {
        /// The disk player.
        disk: Color,
    },
    /// The opponent swapped: `disk` (the swapper) has the frozen king.
    /// `plies` counts the plies played since the swap, saturating at 21;
    /// from the 21st on, compulsory capture-or-check applies to both.
    Swapped {
        /// The swapper, whose king is now the disk.
        disk: Color,
        /// Plies since the swap (saturating at [`Disk::SWAP_WINDOW`] + 1).
        plies: u8,
    },
    /// The opponent restored: no disk remains, capture is optional.
    Restored {
        /// The first player (who played `disk`).
        first: Color,
    },
}

impl Disk {
    /// Plies after a `swap` that play as in `dynamic`.
    pub const SWAP_WINDOW: u8 = 20;

    /// The side whose king is a disk (frozen), if any.
    pub const fn disk_holder(self) -> Option<Color> {
        match self {
            Disk::Offered { by } => Some(by),
            Disk::Accepted { disk } | Disk::Swapped { disk, .. } => Some(disk),
            Disk::None | Disk::Restored { .. } => None,
        }
    }

    /// Whether compulsory capture-or-check applies to the side to move.
    ///
    /// It applies from the accepting move on (an accept is any move in the
    /// `Offered` phase) and after the swap window.
    pub const fn compulsory(self) -> bool {
        match self {
            Disk::Offered { .. } | Disk::Accepted { .. } => true,
            Disk::Swapped { plies, .. } => plies >= Disk::SWAP_WINDOW,
            Disk::None | Disk::Restored { .. } => false,
        }
    }

    /// The disk state after a chess move by `mover`.
    pub fn after_move(self, mover: Color) -> Disk {
        match self {
            Disk::Offered { by } if by != mover => Disk::Accepted { disk: by },
            Disk::Swapped { disk, plies } if plies <= Disk::SWAP_WINDOW => Disk::Swapped {
                disk,
                plies: plies + 1,
            },
            other => other,
        }
    }
}

/// The sets bare-king procedure (docs/rules.md, `sets`, "Bare king").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Bare {
    /// Nothing pending.
    #[default]
    None,
    /// `barer` just left the opponent with a lone king; the bared player
    /// replies next.
    Reply {
        /// The side that bared the other.
        barer: Color,
    },
    /// The bared player replied without baring `barer`; `barer` may now
    /// `claim`.
    Claim {
        /// The side that may claim.
        barer: Color,
    },
    /// The procedure ran and the right is gone (or was never started).
    Done,
    /// The bared player's reply bared the barer: the game is over, 1/2 to
    /// `first`.
    Mutual {
        /// The first barer.
        first: Color,
    },
    /// `barer` claimed: the game is over, 1 to `barer`.
    Claimed {
        /// The claimer.
        barer: Color,
    },
}

impl Bare {
    /// Whether the claim procedure is running (insufficient material does
    /// not end the game meanwhile).
    pub const fn pending(self) -> bool {
        matches!(self, Bare::Reply { .. } | Bare::Claim { .. })
    }
}

/// All variant state of a node beyond the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Extra {
    /// Tiebraker disk state (always `None` elsewhere).
    pub disk: Disk,
    /// Sets bare-king state (always `None` elsewhere).
    pub bare: Bare,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disk_phases() {
        let offered = Disk::Offered { by: Color::White };
        assert!(offered.compulsory());
        assert_eq!(
            offered.after_move(Color::Black),
            Disk::Accepted { disk: Color::White }
        );
        let mut s = Disk::Swapped {
            disk: Color::Black,
            plies: 0,
        };
        for ply in 1..=25u8 {
            let mover = if ply % 2 == 1 {
                Color::White
            } else {
                Color::Black
            };
            s = s.after_move(mover);
            // Plies 1..=20 are played without compulsion: the rule binds
            // the mover of ply 21 on, i.e. once 20 plies have been played.
            let Disk::Swapped { plies, .. } = s else {
                panic!()
            };
            assert_eq!(plies, ply.min(21));
            assert_eq!(s.compulsory(), ply >= 20);
        }
        assert_eq!(
            Disk::Restored {
                first: Color::White
            }
            .disk_holder(),
            None
        );
    }
}
