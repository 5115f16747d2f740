//! splitmix64, the seeded generator of kit (test data) and of the trainer
//! (whose archive saves its state): the same seed gives the same numbers on
//! every machine, unlike std's `RandomState`. Both import this module and
//! add their own draws; no pasted solver needs it, so it has no copy.

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

    /// The state (`Rng::new` of it goes on with the same numbers), as the
    /// trainer's archive keeps it.
    pub fn state(&self) -> u64 {
        self.0
    }
}
