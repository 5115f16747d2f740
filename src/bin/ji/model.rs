//! The capped game the AI is trained on: counts 0..=C (C the largest req,
//! "enough for any skill counts as C"), the rounds between states, the
//! skills worth playing in each state, and the AI's weight table read as
//! probabilities.

use crate::names::Names;
use crate::rng::{roulette, Rng};
use crate::variant::{bits, Variant};

/// A round, seen from the mover.
pub enum Round {
    Won,
    Lost,
    /// Neither skill beats the other: on to this state.
    Next(usize),
}

/// The capped model: counts 0..=C, state index `own * side + opp`.
pub struct Model {
    pub variant: Variant,
    pub n: usize,
    pub cap: usize,
    pub side: usize,
    pub states: usize,
    /// Skills affordable, per capped count.
    pub afford: Vec<u64>,
    /// Capped count after a skill: `next[count * n + skill]`.
    pub next: Vec<usize>,
    /// Affordable, undominated skills per state.
    pub playable: Vec<u64>,
    /// Where each state's weights start in a table.
    pub offset: Vec<usize>,
    /// What a person reads and types for each skill.
    pub names: Names,
}

impl Model {
    pub fn new(variant: Variant) -> Model {
        let n = variant.skills.len();
        let cap = variant.skills.iter().map(|s| s.req).max().unwrap_or(0) as usize;
        let side = cap + 1;
        let mut afford = vec![0u64; side];
        let mut next = vec![0usize; side * n];
        for c in 0..side {
            for (x, s) in variant.skills.iter().enumerate() {
                if s.req <= c as i64 {
                    afford[c] |= 1 << x;
                }
                // "enough for any skill counts as C": the excess is lost.
                let after = (c as i128 + s.delta as i128).clamp(0, cap as i128);
                next[c * n + x] = after as usize;
            }
        }
        let mut model = Model {
            n,
            cap,
            side,
            states: side * side,
            afford,
            next,
            playable: vec![],
            offset: vec![0],
            names: Names::new(&variant),
            variant,
        };
        for s in 0..model.states {
            let p = model.undominated(s / side, s % side);
            model.playable.push(p);
            model.offset.push(model.offset[s] + p.count_ones() as usize);
        }
        model
    }

    pub fn beats(&self, x: usize, y: usize) -> bool {
        self.variant.beats[x] >> y & 1 == 1
    }

    pub fn counts(&self, s: usize) -> (usize, usize) {
        (s / self.side, s % self.side)
    }

    /// State `s` seen from the opponent.
    pub fn swapped(&self, s: usize) -> usize {
        let (a, b) = self.counts(s);
        b * self.side + a
    }

    /// The round from `s` where the mover plays `x`, the opponent `y`.
    pub fn round(&self, s: usize, x: usize, y: usize) -> Round {
        let (a, b) = self.counts(s);
        match (self.beats(x, y), self.beats(y, x)) {
            (true, _) => Round::Won,
            (_, true) => Round::Lost,
            _ => Round::Next(self.next[a * self.n + x] * self.side + self.next[b * self.n + y]),
        }
    }

    /// The mover's payoff of a round, then `value` (mover's view).
    pub fn payoff(&self, s: usize, x: usize, y: usize, value: &[f64]) -> f64 {
        match self.round(s, x, y) {
            Round::Won => 1.0,
            Round::Lost => -1.0,
            Round::Next(t) => value[t],
        }
    }

    /// Affordable skills that no other affordable skill does at least as
    /// well as against every reply and better against one. Outcomes rank
    /// win, continue (more own 集 better: it allows more), lose; so
    /// dropping a dominated skill keeps the game's value.
    pub fn undominated(&self, own: usize, opp: usize) -> u64 {
        let rank = |x: usize, z: usize| match (self.beats(x, z), self.beats(z, x)) {
            (true, _) => self.cap as i64 + 2,
            (_, true) => -1,
            _ => self.next[own * self.n + x] as i64,
        };
        let mine = self.afford[own];
        let mut keep = mine;
        for x in bits(mine) {
            for y in bits(mine).filter(|&y| y != x) {
                let (mut ge, mut gt) = (true, false);
                for z in bits(self.afford[opp]) {
                    let (a, b) = (rank(y, z), rank(x, z));
                    ge &= a >= b;
                    gt |= a > b;
                }
                if ge && gt {
                    keep &= !(1 << x);
                    break;
                }
            }
        }
        keep
    }

    pub fn genes(&self) -> usize {
        self.offset[self.states]
    }

    /// The AI's probabilities (states x n): weights normalised over the
    /// playable skills (all zero: uniform).
    pub fn policy(&self, genes: &[f64]) -> Vec<f64> {
        let mut p = vec![0.0; self.states * self.n];
        for s in 0..self.states {
            let w = &genes[self.offset[s]..self.offset[s + 1]];
            let sum: f64 = w.iter().sum();
            for (i, x) in bits(self.playable[s]).enumerate() {
                p[s * self.n + x] = if sum > 0.0 { w[i] / sum } else { 1.0 / w.len() as f64 };
            }
        }
        p
    }

    /// The AI's move at real counts: "enough for any skill counts as C".
    pub fn ai_move(&self, policy: &[f64], own: i64, opp: i64, rng: &mut Rng) -> usize {
        let cap = |c: i64| c.min(self.cap as i64) as usize;
        let s = cap(own) * self.side + cap(opp);
        let row = &policy[s * self.n..];
        roulette(rng.unit(), bits(self.playable[s]).map(|x| (x, row[x])))
    }
}
