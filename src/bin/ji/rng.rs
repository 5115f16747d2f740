//! The pseudo-random generator: splitmix64 (src/shared/splitmix.rs, the
//! module kit's generator imports too), and the draws the trainer makes
//! with it. Its state is saved in the archive, so these draws are part of
//! the archive format: a change here changes what a seed trains.

#[path = "../../shared/splitmix.rs"]
mod splitmix;

pub use splitmix::Rng;

impl Rng {
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
