//! The capped game the AI is trained on: counts 0..=C (C the largest req,
//! "enough for any skill counts as C") and each side's lost set (the pairs
//! of lost sets play can produce, `Variant::losses`), the rounds between
//! states, the skills worth playing in each state, and the AI's weight
//! table read as probabilities.

use std::collections::HashMap;

use crate::names::Names;
use crate::rng::{roulette, Rng};
use crate::variant::{bits, Losses, Variant};

/// A round, seen from the mover.
pub enum Round {
    Won,
    Lost,
    /// Neither skill beats the other: on to this state.
    Next(usize),
}

/// The capped model. A state, seen from the mover, is the pair of lost
/// sets `p` (an index into `losses`) and the two counts: index
/// `p * side² + own * side + opp`, so state 0 is the start (0, 0, nothing
/// lost), and without lasting effects the index is `own * side + opp`.
pub struct Model {
    pub variant: Variant,
    pub n: usize,
    pub cap: usize,
    pub side: usize,
    pub states: usize,
    /// The pairs of lost sets (mover's view), nothing lost first.
    pub losses: Vec<Losses>,
    /// The index of a pair of lost sets in `losses`.
    loss_index: HashMap<Losses, usize>,
    /// The index of each pair seen from the other side.
    swapped_loss: Vec<usize>,
    /// The pair after a round that goes on from pair `p` where the mover
    /// plays x and the opponent y: `next_loss[(p * n + x) * n + y]`.
    next_loss: Vec<u32>,
    /// Skills affordable, per capped count.
    pub afford: Vec<u64>,
    /// Capped count after a skill: `next[count * n + skill]`.
    pub next: Vec<usize>,
    /// Usable (affordable, not lost), undominated skills per state.
    pub playable: Vec<u64>,
    /// Where each state's weights start in a table.
    pub offset: Vec<usize>,
    /// What a person reads and types for each skill.
    pub names: Names,
}

/// What a round leaves the mover, for dominance: ranked win, then going
/// on, then loss. Going on, more own 集, fewer own lost skills and more
/// lost by the opponent are never worse (each allows at least as much for
/// the mover, or as little for the opponent).
#[derive(PartialEq)]
enum Outcome {
    Win,
    Lose,
    Go { own: usize, own_lost: u64, opp_lost: u64 },
}

impl Outcome {
    /// `self` is at least as good as `other` for the mover.
    fn at_least(&self, other: &Outcome) -> bool {
        match (self, other) {
            (Outcome::Win, _) | (_, Outcome::Lose) => true,
            (Outcome::Lose, _) | (_, Outcome::Win) => false,
            (
                Outcome::Go { own, own_lost, opp_lost },
                Outcome::Go { own: o, own_lost: ol, opp_lost: pl },
            ) => own >= o && own_lost & !ol == 0 && pl & !opp_lost == 0,
        }
    }
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
        let losses = variant.losses.clone();
        let loss_index: HashMap<Losses, usize> =
            losses.iter().enumerate().map(|(p, &l)| (l, p)).collect();
        // The pairs are closed under swapping the sides (`reachable_losses`).
        let swap = |l: &Losses| loss_index.get(&l.swapped()).copied().unwrap_or(0);
        let swapped_loss = losses.iter().map(swap).collect();
        let mut next_loss = vec![0u32; losses.len() * n * n];
        for (p, l) in losses.iter().enumerate() {
            for x in bits(!l.own).take_while(|&x| x < n) {
                for y in bits(!l.opp).take_while(|&y| y < n) {
                    let after = Losses {
                        own: l.own | variant.takes(y, x),
                        opp: l.opp | variant.takes(x, y),
                    };
                    // Every pair a round can produce is in `losses`
                    // (`reachable_losses`); a winning round takes nothing.
                    let q = loss_index.get(&after).copied().unwrap_or(p);
                    next_loss[(p * n + x) * n + y] = q as u32;
                }
            }
        }
        let mut model = Model {
            n,
            cap,
            side,
            states: losses.len() * side * side,
            losses,
            loss_index,
            swapped_loss,
            next_loss,
            afford,
            next,
            playable: vec![],
            offset: vec![0],
            names: Names::new(&variant),
            variant,
        };
        for s in 0..model.states {
            let p = model.undominated(s);
            model.playable.push(p);
            model.offset.push(model.offset[s] + p.count_ones() as usize);
        }
        model
    }

    pub fn beats(&self, x: usize, y: usize) -> bool {
        self.variant.beats[x] >> y & 1 == 1
    }

    /// The counts of state `s`: (mover's, opponent's).
    pub fn counts(&self, s: usize) -> (usize, usize) {
        let c = s % (self.side * self.side);
        (c / self.side, c % self.side)
    }

    /// The lost sets of state `s` (mover's view).
    pub fn lost(&self, s: usize) -> Losses {
        self.losses[s / (self.side * self.side)]
    }

    /// The state with these capped counts and lost sets (mover's view), if
    /// the table has it.
    pub fn state(&self, own: usize, opp: usize, lost: Losses) -> Option<usize> {
        let p = *self.loss_index.get(&lost)?;
        Some((p * self.side + own) * self.side + opp)
    }

    /// State `s` seen from the opponent.
    pub fn swapped(&self, s: usize) -> usize {
        let (a, b) = self.counts(s);
        let p = self.swapped_loss[s / (self.side * self.side)];
        (p * self.side + b) * self.side + a
    }

    /// The skills the mover may play at `s`: affordable and not lost.
    pub fn usable(&self, s: usize) -> u64 {
        self.afford[self.counts(s).0] & !self.lost(s).own
    }

    /// The skills the opponent may play at `s`.
    pub fn replies(&self, s: usize) -> u64 {
        self.afford[self.counts(s).1] & !self.lost(s).opp
    }

    /// The round from `s` where the mover plays `x`, the opponent `y`.
    pub fn round(&self, s: usize, x: usize, y: usize) -> Round {
        let (a, b) = self.counts(s);
        match (self.beats(x, y), self.beats(y, x)) {
            (true, _) => Round::Won,
            (_, true) => Round::Lost,
            _ => {
                let p = s / (self.side * self.side);
                let q = self.next_loss[(p * self.n + x) * self.n + y] as usize;
                let counts = self.next[a * self.n + x] * self.side + self.next[b * self.n + y];
                Round::Next(q * self.side * self.side + counts)
            }
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

    /// Usable skills that no other usable skill does at least as well as
    /// against every reply and better against one (`Outcome`'s ranking);
    /// so dropping a dominated skill keeps the game's value.
    fn undominated(&self, s: usize) -> u64 {
        let outcome = |x: usize, z: usize| match self.round(s, x, z) {
            Round::Won => Outcome::Win,
            Round::Lost => Outcome::Lose,
            Round::Next(t) => {
                let lost = self.lost(t);
                Outcome::Go { own: self.counts(t).0, own_lost: lost.own, opp_lost: lost.opp }
            }
        };
        let mine = self.usable(s);
        let mut keep = mine;
        for x in bits(mine) {
            for y in bits(mine).filter(|&y| y != x) {
                let (mut ge, mut gt) = (true, false);
                for z in bits(self.replies(s)) {
                    let (a, b) = (outcome(y, z), outcome(x, z));
                    let at_least = a.at_least(&b);
                    ge &= at_least;
                    gt |= at_least && a != b;
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

    /// The AI's move at real counts and lost sets (the AI's view): "enough
    /// for any skill counts as C".
    pub fn ai_move(
        &self,
        policy: &[f64],
        own: i64,
        opp: i64,
        lost: Losses,
        rng: &mut Rng,
    ) -> usize {
        let cap = |c: i64| c.min(self.cap as i64) as usize;
        // Every pair of lost sets play can reach is in the table.
        let s = self.state(cap(own), cap(opp), lost).unwrap_or(0);
        let row = &policy[s * self.n..];
        roulette(rng.unit(), bits(self.playable[s]).map(|x| (x, row[x])))
    }
}
