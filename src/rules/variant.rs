//! The seven variants Tally plays, by id, and the board-rule facts about each.

use std::fmt;
use std::str::FromStr;

use super::RulesError;

/// A variant id, as in the specification and the `UCI_Variant` option.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Variant {
    /// Standard chess, scored 1 / 1/2 / 0.
    #[default]
    Chess,
    /// Extinction chess: no check, lose when a piece type dies out.
    Extinction,
    /// Standard chess with style points.
    Stylish,
    /// Standard chess with Wacky Chess points.
    Wacky,
    /// Standard chess with SETS tournament scoring, a 30-move rule and `claim`.
    Sets,
    /// Standard chess with the 100-point dynamic split.
    Dynamic,
    /// Dynamic scoring plus the disk (`disk`, `swap`, `restore`).
    Tiebraker,
}

impl Variant {
    /// All variants, in the order of the specification's table.
    pub const ALL: [Variant; 7] = [
        Variant::Chess,
        Variant::Extinction,
        Variant::Stylish,
        Variant::Wacky,
        Variant::Sets,
        Variant::Dynamic,
        Variant::Tiebraker,
    ];

    /// The variant's id (`chess`, `extinction`, ...).
    pub const fn id(self) -> &'static str {
        match self {
            Variant::Chess => "chess",
            Variant::Extinction => "extinction",
            Variant::Stylish => "stylish",
            Variant::Wacky => "wacky",
            Variant::Sets => "sets",
            Variant::Dynamic => "dynamic",
            Variant::Tiebraker => "tiebraker",
        }
    }

    /// Every variant's id, in the order of [`Variant::ALL`], separated by
    /// commas: the list that help texts and errors name.
    pub fn id_list() -> String {
        Variant::ALL.map(Variant::id).join(", ")
    }

    /// Parses a variant id. Case-insensitive; `standard` is accepted for
    /// `chess`.
    ///
    /// # Errors
    ///
    /// [`RulesError::UnknownVariant`] for anything else.
    pub fn from_id(s: &str) -> Result<Variant, RulesError> {
        let lower = s.trim().to_ascii_lowercase();
        match lower.as_str() {
            "standard" => Ok(Variant::Chess),
            _ => Variant::ALL
                .into_iter()
                .find(|v| v.id() == lower)
                .ok_or_else(|| RulesError::UnknownVariant(s.trim().to_owned())),
        }
    }

    /// Whether the variant plays on extinction rules (no check, capturable
    /// kings); all others play on standard chess rules.
    pub const fn is_extinction(self) -> bool {
        matches!(self, Variant::Extinction)
    }

    /// Plies without a capture or pawn move that end the game: 100 (the
    /// 50-move rule), 60 in `sets` (the 30-move rule).
    pub const fn move_rule_plies(self) -> u32 {
        match self {
            Variant::Sets => 60,
            _ => 100,
        }
    }

    /// Whether the variant has the tiebraker disk and its special actions.
    pub const fn has_disk(self) -> bool {
        matches!(self, Variant::Tiebraker)
    }

    /// Whether the variant has the sets bare-king `claim`.
    pub const fn has_claim(self) -> bool {
        matches!(self, Variant::Sets)
    }

    /// The special actions the variant has (none but tiebraker's disk,
    /// swap and restore and sets' claim).
    pub const fn special_actions(self) -> &'static [super::Action] {
        use super::Action;
        if self.has_disk() {
            &[Action::Disk, Action::Swap, Action::Restore]
        } else if self.has_claim() {
            &[Action::Claim]
        } else {
            &[]
        }
    }

    /// Whether insufficient material ends the game (every variant but
    /// extinction, where no such rule exists).
    pub const fn has_insufficient_material(self) -> bool {
        !self.is_extinction()
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl FromStr for Variant {
    type Err = RulesError;

    fn from_str(s: &str) -> Result<Variant, RulesError> {
        Variant::from_id(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip() {
        for v in Variant::ALL {
            assert_eq!(Variant::from_id(v.id()).unwrap(), v);
        }
        assert_eq!(Variant::from_id("Standard").unwrap(), Variant::Chess);
        assert_eq!(Variant::from_id(" SETS ").unwrap(), Variant::Sets);
        assert!(matches!(
            Variant::from_id("atomic"),
            Err(RulesError::UnknownVariant(s)) if s == "atomic"
        ));
    }

    #[test]
    fn move_rules() {
        assert_eq!(Variant::Sets.move_rule_plies(), 60);
        assert_eq!(Variant::Chess.move_rule_plies(), 100);
        assert_eq!(Variant::Extinction.move_rule_plies(), 100);
    }
}
