//! [`MgEg`]: a middlegame / endgame pair of centipawn values (not to be
//! taken for `search::Score`, a decoded search value), the unit of
//! every weight in [`super::params`]. Plain arithmetic only: tapering by game
//! phase belongs to the base evaluation ([`super::base`]), which owns the
//! phase. Imports nothing, so `params` and `base` both build on it.

/// A middlegame / endgame pair of centipawn values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MgEg {
    /// Middlegame value.
    pub mg: i32,
    /// Endgame value.
    pub eg: i32,
}

impl MgEg {
    /// A pair.
    pub const fn new(mg: i32, eg: i32) -> MgEg {
        MgEg { mg, eg }
    }
}

impl std::ops::Add for MgEg {
    type Output = MgEg;
    #[inline]
    fn add(self, o: MgEg) -> MgEg {
        MgEg::new(self.mg + o.mg, self.eg + o.eg)
    }
}

impl std::ops::AddAssign for MgEg {
    #[inline]
    fn add_assign(&mut self, o: MgEg) {
        self.mg += o.mg;
        self.eg += o.eg;
    }
}

impl std::ops::Sub for MgEg {
    type Output = MgEg;
    #[inline]
    fn sub(self, o: MgEg) -> MgEg {
        MgEg::new(self.mg - o.mg, self.eg - o.eg)
    }
}

impl std::ops::Mul<i32> for MgEg {
    type Output = MgEg;
    #[inline]
    fn mul(self, k: i32) -> MgEg {
        MgEg::new(self.mg * k, self.eg * k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The top-level `use` lines of a source file.
    fn imports(text: &str) -> Vec<&str> {
        text.lines().filter(|l| l.starts_with("use ")).collect()
    }

    #[test]
    fn weights_build_on_pairs_not_on_the_evaluation() {
        // `params` may use the pair type and the variant names (to pick a
        // variant's weights) and nothing else of Tally's; the pair type
        // uses nothing at all: no cycle through `base`.
        for line in imports(include_str!("params.rs")) {
            assert!(
                ["use super::mgeg::MgEg;", "use crate::rules::Variant;"].contains(&line),
                "{line}"
            );
        }
        assert_eq!(imports(include_str!("mgeg.rs")), Vec::<&str>::new());
        assert_eq!(
            MgEg::new(3, -2) + MgEg::new(1, 1) - MgEg::new(0, 4),
            MgEg::new(4, -5)
        );
        assert_eq!(MgEg::new(2, 3) * 3, MgEg::new(6, 9));
    }
}
