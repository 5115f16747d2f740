//! The pseudo-random generator: kit's splitmix64 (the block below is a
//! copy of kit/src/rng.rs's, kept identical by scripts/sync-shared), and
//! the draws the trainer makes with it. Its state is saved in the archive,
//! so these draws are part of the archive format: a change here changes
//! what a seed trains.

// shared: splitmix begin, master kit/src/rng.rs (edit there, then run scripts/sync-shared)
/// splitmix64 (Steele, Lea, Flood 2014): one u64 of state.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}
// shared: splitmix end

impl Rng {
    /// The state, as the archive's `rng` line keeps it (`Rng::new` of it
    /// goes on with the same numbers).
    pub fn state(&self) -> u64 {
        self.0
    }

    /// Uniform in [0, 1), from the top 53 bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform in `0..n` by the remainder (slightly biased for a huge `n`,
    /// harmless for a population of 40): not kit's multiply-shift
    /// `Rng::index`, since every archive's stream was drawn with this one.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Roulette wheel: the item whose weight takes `r` (in [0, total)) below
/// 0; the last one if rounding leaves r >= 0.
pub fn roulette(mut r: f64, items: impl Iterator<Item = (usize, f64)>) -> usize {
    let mut last = 0;
    for (i, w) in items {
        r -= w;
        if r < 0.0 {
            return i;
        }
        last = i;
    }
    last
}
