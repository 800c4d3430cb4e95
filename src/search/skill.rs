//! Playing strength below full: the `UCI_LimitStrength`, `UCI_Elo` and
//! `Skill Level` options as a [`Strength`], and the weakened move choice
//! of a [`Skill`].
//!
//! A weakened search looks at a few candidate lines (MultiPV) to a depth
//! and a node count that fall with the strength, then picks among them at
//! random: a candidate's weight is `exp(-loss / temperature)`, where its
//! loss is the value it gives up against the best line, in the search's
//! own internal units (100 per pawn of the variant's scale, so an expected
//! point margin in the scoring variants), and the temperature grows as the
//! strength falls. Small inaccuracies are common, large blunders rare, and
//! a candidate that loses more than the level's bound is never played. A
//! win found by the search (checkmate or extinction in the decisive band)
//! is always played. The choice is a pure function of the lines and a
//! seed, so a caller that seeds it from the position and the game gets the
//! same move every time.
//!
//! The calibration (what each Elo means in depth, nodes and temperature)
//! is the table [`ANCHORS`], measured against Stockfish's own
//! `UCI_LimitStrength`; it lives here rather than in `params` as it is the
//! protocol's promise, not a search tunable. The search itself is
//! untouched: at full strength none of this runs.

use super::{PvLine, Reporter, SearchResult, Stats, is_decided};
use crate::eval::Units;

/// The weakest `UCI_Elo`.
pub const MIN_ELO: i32 = 1000;
/// The strongest `UCI_Elo`.
pub const MAX_ELO: i32 = 2850;
/// From this `UCI_Elo` on, Tally plays at full strength (the last row of
/// [`ANCHORS`], which the Elos below it approach): at 10+0.1 full strength
/// is about as strong as Stockfish 15.1 at this `UCI_Elo`, so a limit above
/// it cannot be played.
pub const FULL_STRENGTH_ELO: i32 = 2400;
/// The `UCI_Elo` default.
pub const DEFAULT_ELO: i32 = 1500;
/// The `Skill Level` of full strength (its default and its top).
pub const FULL_LEVEL: i32 = 20;
/// `UCI_Elo` per `Skill Level` step: level `s` below 20 plays as
/// `MIN_ELO + s * ELO_PER_LEVEL`, so the levels span the limited range.
pub const ELO_PER_LEVEL: i32 = (FULL_STRENGTH_ELO - MIN_ELO) / FULL_LEVEL;
// Every level below full strength is a limited Elo below full strength.
const _: () = assert!(MIN_ELO + (FULL_LEVEL - 1) * ELO_PER_LEVEL < FULL_STRENGTH_ELO);
const _: () = assert!(FULL_STRENGTH_ELO <= MAX_ELO);

/// Candidate lines searched and chosen from.
pub const CANDIDATES: usize = 4;

/// The strength options as set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    /// `UCI_LimitStrength`: play at [`Strength::elo`].
    pub limit: bool,
    /// `UCI_Elo`, used while `limit` is set ([`MIN_ELO`]..=[`MAX_ELO`]).
    pub elo: i32,
    /// `Skill Level`, 0..=20; below 20 it weakens play when `limit` is
    /// not set.
    pub level: i32,
}

impl Default for Strength {
    fn default() -> Strength {
        Strength {
            limit: false,
            elo: DEFAULT_ELO,
            level: FULL_LEVEL,
        }
    }
}

impl Strength {
    /// The Elo played at: `UCI_Elo` with `UCI_LimitStrength`, else the
    /// `Skill Level`'s; `None` at full strength.
    pub fn elo(self) -> Option<i32> {
        if self.limit {
            Some(self.elo.clamp(MIN_ELO, MAX_ELO))
        } else if self.level < FULL_LEVEL {
            Some(MIN_ELO + self.level.max(0) * ELO_PER_LEVEL)
        } else {
            None
        }
    }

    /// The weakened play, `None` at full strength (also a `UCI_Elo` of
    /// [`FULL_STRENGTH_ELO`] or more).
    pub fn skill(self) -> Option<Skill> {
        self.elo().filter(|&e| e < FULL_STRENGTH_ELO).map(Skill::at)
    }
}

/// One calibration point: how Tally plays at `elo`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Anchor {
    /// The Elo.
    pub elo: i32,
    /// The deepest iteration.
    pub depth: i32,
    /// The most nodes per move.
    pub nodes: u64,
    /// The temperature of the choice, in internal units.
    pub temperature: i32,
    /// The largest loss ever played, in internal units.
    pub max_loss: i32,
}

/// The calibration, by rising Elo; Elos between two anchors interpolate
/// (nodes geometrically, the rest linearly).
pub const ANCHORS: &[Anchor] = &[
    Anchor {
        elo: 1000,
        depth: 1,
        nodes: 1_000,
        temperature: 170,
        max_loss: 450,
    },
    Anchor {
        elo: 1400,
        depth: 3,
        nodes: 6_300,
        temperature: 102,
        max_loss: 313,
    },
    Anchor {
        elo: 1800,
        depth: 7,
        nodes: 29_000,
        temperature: 52,
        max_loss: 188,
    },
    Anchor {
        elo: 2200,
        depth: 16,
        nodes: 340_000,
        temperature: 11,
        max_loss: 66,
    },
    // Full strength (FULL_STRENGTH_ELO): only the Elos below it, on the way
    // to it, play by this row.
    Anchor {
        elo: 2400,
        depth: 30,
        nodes: 2_000_000,
        temperature: 3,
        max_loss: 25,
    },
];
const _: () = assert!(ANCHORS[ANCHORS.len() - 1].elo == FULL_STRENGTH_ELO);

/// Weakened play at one Elo: the search's limits and the choice.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Skill {
    /// The Elo.
    pub elo: i32,
    /// The deepest iteration.
    pub depth: i32,
    /// The most nodes per move.
    pub nodes: u64,
    /// The temperature of the choice, in internal units.
    pub temperature: f64,
    /// The largest loss ever played, in internal units.
    pub max_loss: i32,
}

impl Skill {
    /// The play at `elo` (clamped to the anchors' range, [`MIN_ELO`] to
    /// the last anchor's).
    pub fn at(elo: i32) -> Skill {
        let top = ANCHORS[ANCHORS.len() - 1].elo;
        let elo = elo.clamp(MIN_ELO, top);
        let upper = ANCHORS
            .iter()
            .position(|a| a.elo >= elo)
            .unwrap_or(ANCHORS.len() - 1)
            .max(1);
        let (a, b) = (ANCHORS[upper - 1], ANCHORS[upper]);
        let t = f64::from(elo - a.elo) / f64::from(b.elo - a.elo);
        let lin = |x: i32, y: i32| f64::from(x) + t * f64::from(y - x);
        let nodes = (a.nodes as f64).ln() + t * ((b.nodes as f64).ln() - (a.nodes as f64).ln());
        Skill {
            elo,
            depth: lin(a.depth, b.depth).round() as i32,
            nodes: nodes.exp().round() as u64,
            temperature: lin(a.temperature, b.temperature),
            max_loss: lin(a.max_loss, b.max_loss).round() as i32,
        }
    }

    /// Picks the action to play among `lines` (best first, as the search
    /// reports them): the index of the chosen line, `None` when there is
    /// none. `seed` decides among candidates; the same lines and seed give
    /// the same choice.
    pub fn choose(&self, lines: &[PvLine], units: Units, seed: u64) -> Option<usize> {
        let best = lines.first()?;
        // A win the search proves is played (a mate in one is never
        // missed).
        if is_decided(best.value) && best.value > 0 {
            return Some(0);
        }
        // Losses on one scale: decided games count as the largest margin,
        // so a decided loss is always the worst and never chosen while a
        // candidate within the bound exists.
        let cap = i64::from(units.limit()) * 2;
        let level = |v: i32| i64::from(v).clamp(-cap, cap);
        let top = level(best.value);
        let weights: Vec<f64> = lines
            .iter()
            .map(|l| {
                let loss = top - level(l.value);
                let usable = !l.pv.is_empty() && loss <= i64::from(self.max_loss);
                if usable {
                    (-(loss as f64) / self.temperature.max(1e-9)).exp()
                } else {
                    0.0
                }
            })
            .collect();
        let total: f64 = weights.iter().sum();
        if total <= 0.0 {
            return Some(0);
        }
        let mut x = unit_interval(seed) * total;
        for (i, w) in weights.iter().enumerate() {
            if x < *w {
                return Some(i);
            }
            x -= w;
        }
        weights.iter().rposition(|w| *w > 0.0)
    }
}

impl Skill {
    /// Plays the choice among `result`'s lines: its best action, the
    /// expected reply and the line played become those of the chosen
    /// line; then only the first `shown` lines (the `MultiPV` asked for)
    /// are kept, as the search ranked them.
    pub fn apply(&self, result: &mut SearchResult, units: Units, seed: u64, shown: usize) {
        let chosen = self
            .choose(&result.lines, units, seed)
            .and_then(|i| result.lines.get(i));
        if let Some(line) = chosen
            && let Some(&best) = line.pv.first()
        {
            result.best = Some(best);
            result.ponder = line.pv.get(1).copied();
            result.played = Some(line.clone());
        }
        result.lines.truncate(shown.max(1));
    }
}

/// A reporter that passes on the first `lines` lines only: a weakened
/// search looks at more candidates than the `MultiPV` asked for.
pub struct Shown<'a> {
    /// Where the lines shown go.
    pub inner: &'a dyn Reporter,
    /// How many lines to show.
    pub lines: usize,
}

impl Reporter for Shown<'_> {
    fn line(&self, line: &PvLine, stats: &Stats) {
        if line.multipv <= self.lines {
            self.inner.line(line, stats);
        }
    }
}

/// The seed of a choice: the position's key and the count of games the
/// engine started, mixed.
pub fn seed(key: u64, games: u64) -> u64 {
    splitmix(key ^ splitmix(games))
}

/// A uniform number in `[0, 1)` from a seed.
fn unit_interval(seed: u64) -> f64 {
    (splitmix(seed) >> 11) as f64 / (1u64 << 53) as f64
}

/// SplitMix64's output function: a well-mixed 64-bit value.
fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;
    use crate::scoring::Scorer;
    use crate::search::{MATE, MATE_STEP};

    fn units() -> Units {
        Units::of(&Scorer::new(Variant::Chess))
    }

    /// Lines with these values, best first (one distinct action each).
    fn lines(values: &[i32]) -> Vec<PvLine> {
        let actions = crate::rules::AnyGame::start(Variant::Chess, false).legal_actions();
        values
            .iter()
            .zip(actions)
            .enumerate()
            .map(|(i, (&value, a))| PvLine {
                multipv: i + 1,
                depth: 3,
                seldepth: 3,
                value,
                bound: None,
                pv: vec![a],
            })
            .collect()
    }

    /// How often each line is chosen over `n` seeds.
    fn histogram(skill: &Skill, ls: &[PvLine], n: u64) -> Vec<u64> {
        let mut h = vec![0; ls.len()];
        for s in 0..n {
            h[skill.choose(ls, units(), seed(s, 7)).unwrap()] += 1;
        }
        h
    }

    #[test]
    fn strength_options() {
        assert_eq!(Strength::default().elo(), None);
        assert_eq!(Strength::default().skill(), None);
        let level0 = Strength {
            level: 0,
            ..Strength::default()
        };
        assert_eq!(level0.elo(), Some(MIN_ELO));
        let level19 = Strength {
            level: 19,
            ..Strength::default()
        };
        assert_eq!(level19.elo(), Some(MIN_ELO + 19 * ELO_PER_LEVEL));
        // UCI_LimitStrength wins over the level.
        let both = Strength {
            limit: true,
            elo: 1700,
            level: 0,
        };
        assert_eq!(both.elo(), Some(1700));
        // From FULL_STRENGTH_ELO on a limit is full strength; below it,
        // every level and Elo is weakened.
        let at = |elo| Strength {
            limit: true,
            elo,
            level: FULL_LEVEL,
        };
        assert_eq!(at(FULL_STRENGTH_ELO).skill(), None);
        assert_eq!(at(MAX_ELO).skill(), None);
        assert_eq!(at(99_999).elo(), Some(MAX_ELO));
        assert!(at(FULL_STRENGTH_ELO - 1).skill().is_some());
        assert!(level19.skill().is_some());
    }

    #[test]
    fn anchors_rise_and_interpolate() {
        for w in ANCHORS.windows(2) {
            assert!(w[0].elo < w[1].elo);
            assert!(w[0].depth <= w[1].depth && w[0].nodes <= w[1].nodes);
            assert!(w[0].temperature >= w[1].temperature && w[0].max_loss >= w[1].max_loss);
        }
        let top = ANCHORS[ANCHORS.len() - 1].elo;
        assert_eq!(ANCHORS[0].elo, MIN_ELO);
        // The limited range reaches full strength.
        assert!(top == FULL_STRENGTH_ELO && FULL_STRENGTH_ELO <= MAX_ELO);
        for a in ANCHORS {
            let s = Skill::at(a.elo);
            assert_eq!(
                (s.depth, s.nodes, s.max_loss),
                (a.depth, a.nodes, a.max_loss)
            );
            assert!((s.temperature - f64::from(a.temperature)).abs() < 1e-9);
        }
        // Halfway between the first two anchors: nodes geometrically.
        let (a, b) = (ANCHORS[0], ANCHORS[1]);
        let mid = Skill::at((a.elo + b.elo) / 2);
        let half = |x: i32, y: i32| f64::from(x + y) / 2.0;
        assert_eq!(mid.depth, half(a.depth, b.depth).round() as i32);
        assert_eq!(mid.max_loss, half(a.max_loss, b.max_loss).round() as i32);
        assert_eq!(
            mid.nodes,
            ((a.nodes * b.nodes) as f64).sqrt().round() as u64
        );
        assert!((mid.temperature - half(a.temperature, b.temperature)).abs() < 1e-9);
        assert_eq!(Skill::at(0), Skill::at(MIN_ELO));
        assert_eq!(Skill::at(9999), Skill::at(top));
    }

    #[test]
    fn same_seed_same_choice() {
        let ls = lines(&[50, 20, 0, -30]);
        let s = Skill::at(MIN_ELO);
        for k in 0..50 {
            let a = s.choose(&ls, units(), seed(k, 1));
            assert_eq!(a, s.choose(&ls, units(), seed(k, 1)));
        }
        assert_eq!(s.choose(&[], units(), 1), None);
        assert_eq!(s.choose(&ls[..1], units(), 1), Some(0));
    }

    #[test]
    fn small_losses_common_large_ones_never() {
        // 40 units below the best is chosen often at the weakest, less
        // often at the strongest; 600 below never.
        let ls = lines(&[0, -40, -120, -600]);
        let weak = histogram(&Skill::at(MIN_ELO), &ls, 2000);
        assert!(
            weak[0] > weak[1] && weak[1] > weak[2] && weak[2] > 0,
            "{weak:?}"
        );
        assert!(weak[1] > 500, "{weak:?}");
        assert_eq!(weak[3], 0);
        let strong = histogram(&Skill::at(FULL_STRENGTH_ELO - 1), &ls, 2000);
        assert!(strong[0] > 1200, "{strong:?}");
        assert!(strong[1] < weak[1] && strong[2] < weak[2] / 2, "{strong:?}");
        assert_eq!(strong[3], 0);
    }

    #[test]
    fn wins_are_played_and_losses_avoided() {
        let mate_in_1 = MATE - MATE_STEP;
        let ls = lines(&[mate_in_1, 30, 20, 0]);
        assert_eq!(histogram(&Skill::at(MIN_ELO), &ls, 300)[0], 300);
        // Being mated is worse than any estimate.
        let ls = lines(&[10, 0, -MATE + 2 * MATE_STEP]);
        assert_eq!(histogram(&Skill::at(MIN_ELO), &ls, 300)[2], 0);
        // Every line lost: the longest resistance or another, never none.
        let ls = lines(&[-MATE + 8 * MATE_STEP, -MATE + 2 * MATE_STEP]);
        let h = histogram(&Skill::at(MIN_ELO), &ls, 100);
        assert_eq!(h.iter().sum::<u64>(), 100);
    }
}
