//! A seeded PRNG: splitmix64 (src/shared/splitmix.rs, the module the
//! trainer's generator imports too), and the draws kit's generators make
//! with it.

// The trainer's archive needs `state`; kit does not.
#[allow(dead_code)]
#[path = "../../src/shared/splitmix.rs"]
mod splitmix;

pub use splitmix::Rng;

impl Rng {
    /// Uniform in `0..n`.
    ///
    /// # Panics
    /// If `n` is 0.
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "Rng::below(0)");
        // Multiply-shift: unbiased enough for test data, no division.
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    /// Uniform in `0..n`, as an index.
    ///
    /// # Panics
    /// If `n` is 0.
    pub fn index(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }

    /// Uniform in `lo..=hi`.
    ///
    /// # Panics
    /// If `lo > hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        assert!(lo <= hi, "Rng::range({lo}, {hi})");
        lo + self.below((hi - lo) as u64 + 1) as i64
    }

    /// True with probability `p` (0.0..=1.0).
    pub fn chance(&mut self, p: f64) -> bool {
        ((self.next_u64() >> 11) as f64 / (1u64 << 53) as f64) < p
    }

    /// One element of a non-empty slice.
    ///
    /// # Panics
    /// If `items` is empty.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }

    /// An index drawn with probability proportional to `weights[i]`.
    ///
    /// # Panics
    /// If the weights are empty or all zero.
    pub fn weighted(&mut self, weights: &[u32]) -> usize {
        let total: u64 = weights.iter().map(|&w| w as u64).sum();
        let mut x = self.below(total);
        for (i, &w) in weights.iter().enumerate() {
            if x < w as u64 {
                return i;
            }
            x -= w as u64;
        }
        unreachable!("x < total")
    }

    /// Fisher-Yates shuffle.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_numbers() {
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
    }

    #[test]
    fn splitmix64_reference_value() {
        // First output of splitmix64 seeded with 0 (published test vector).
        assert_eq!(Rng::new(0).next_u64(), 0xe220_a839_7b1d_cdaf);
    }

    #[test]
    fn range_stays_inside_and_reaches_both_ends() {
        let mut r = Rng::new(1);
        let draws: Vec<i64> = (0..1000).map(|_| r.range(-2, 2)).collect();
        assert!(draws.iter().all(|d| (-2..=2).contains(d)));
        assert!(draws.contains(&-2) && draws.contains(&2));
    }
}
