//! [`Rng`]: the one seeded generator of Tally (splitmix64), for
//! self-play openings, SPSA's signs and the tests' random positions and
//! nets. Imports nothing of ours.

/// A small deterministic generator (SplitMix64): the same seed gives the
/// same numbers on every machine and build.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`.
    pub const fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The generator of game `index` of a run seeded with `seed`.
    pub fn for_game(seed: u64, index: u64) -> Rng {
        let mut a = Rng(seed);
        let mut b = Rng(index ^ 0x632b_e59b_d9b4_e019);
        Rng(a.next_u64() ^ b.next_u64().rotate_left(17))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_below_stay_below() {
        let mut r = Rng::for_game(1, 2);
        assert!((0..1000).all(|_| r.below(7) < 7));
        assert_ne!(
            Rng::for_game(1, 2).next_u64(),
            Rng::for_game(1, 3).next_u64()
        );
    }
}
