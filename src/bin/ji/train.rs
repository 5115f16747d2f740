//! Training: a population of weight tables under a genetic algorithm,
//! each scored exactly against the equilibrium (docs/ji_trainer.md,
//! "Training", says why this fitness).

use crate::eval::{best_response, TRAIN_SWEEPS};
use crate::model::Model;
use crate::rng::{roulette, Rng};
use crate::variant::bits;

/// Weight tables in the population.
pub const POPULATION: usize = 40;
/// The best tables that pass to the next generation unchanged.
const ELITES: usize = 4;
/// Tournament size of the selection: the fittest of this many.
const TOURNAMENT: usize = 3;
/// Crossover, per state: the child takes the second parent's weights with
/// this probability...
const FROM_OTHER_PARENT: f64 = 0.4;
/// ...or a blend t·A + (1 − t)·B with this one (else the first parent's).
const BLEND: f64 = 0.1;
/// Mutation step sizes; each child draws one, so coarse and fine moves
/// coexist in a generation.
const MUTATION_SCALES: [f64; 5] = [0.3, 0.1, 0.03, 0.01, 0.003];
/// After each mutated state, another one with this probability: a
/// geometric number of states, mean 2.
const MUTATE_ANOTHER: f64 = 0.5;
/// A mutated state is chosen by its local gap with this probability
/// (else uniformly).
const DIRECTED: f64 = 0.5;
/// A mutated weight is set to 0 with this probability, so that a skill can
/// drop out of the mix entirely.
const DROP_OUT: f64 = 0.03;
/// Mixed into the seed for the fresh population (the bytes of "ji_train"),
/// so that it and the AI's moves in `p` draw from different streams.
const POPULATION_STREAM: u64 = 0x6A69_5F74_7261_696E;

/// A weight table and its score (higher fitness is better).
#[derive(Clone)]
pub struct Individual {
    pub genes: Vec<f64>,
    pub fitness: f64,
    pub exploitability: f64,
    /// Per state: the best reply's gain over the AI's mix there, with the
    /// equilibrium values as continuation ("local gap").
    pub local: Vec<f64>,
}

impl Individual {
    /// Fitness, given the equilibrium values: -(exploitability + the mean
    /// over states of (a) the best response's gain there + (b) the local
    /// gap). (a) credits states the best response does not visit yet; (b)
    /// is separable by state, as crossover and mutation are.
    pub fn new(model: &Model, value: &[f64], genes: Vec<f64>) -> Individual {
        let ai = model.policy(&genes);
        let br = best_response(model, &ai, TRAIN_SWEEPS);
        let mut local = vec![0.0; model.states];
        let mut sum = 0.0;
        for (s, gap) in local.iter_mut().enumerate() {
            let mut worst = f64::INFINITY;
            for y in bits(model.replies(s)) {
                let mut q = 0.0;
                for x in bits(model.playable[s]) {
                    q += ai[s * model.n + x] * model.payoff(s, x, y, value);
                }
                worst = worst.min(q);
            }
            *gap = (value[s] - worst).max(0.0);
            sum += (br[s] - value[model.swapped(s)]).max(0.0) + *gap;
        }
        let exploitability = br[0] - value[0];
        let fitness = -(exploitability + sum / model.states as f64);
        Individual { genes, fitness, exploitability, local }
    }
}

/// A population of weight tables under a genetic algorithm.
pub struct Trainer {
    /// Sorted best first (`sort`, after every change): `pop[0]` is the AI
    /// that plays, is shown and is evaluated.
    pub pop: Vec<Individual>,
    pub generation: u64,
    pub rng: Rng,
}

impl Trainer {
    /// The uniform AI and random weight tables.
    pub fn fresh(model: &Model, seed: u64) -> Vec<Vec<f64>> {
        let mut rng = Rng::new(seed ^ POPULATION_STREAM);
        let mut pop = vec![vec![1.0; model.genes()]];
        while pop.len() < POPULATION {
            pop.push((0..model.genes()).map(|_| rng.unit()).collect());
        }
        pop
    }

    pub fn new(
        model: &Model,
        value: &[f64],
        pop: Vec<Vec<f64>>,
        generation: u64,
        rng: Rng,
    ) -> Trainer {
        let pop = pop.into_iter().map(|g| Individual::new(model, value, g));
        let mut t = Trainer { pop: pop.collect(), generation, rng };
        t.sort();
        t
    }

    /// Best first; stable, so equal scores keep their order.
    fn sort(&mut self) {
        self.pop.sort_by(|x, y| y.fitness.total_cmp(&x.fitness));
    }

    /// Tournament: the fittest of a few random ones.
    fn select(&mut self) -> usize {
        let mut best = self.rng.below(self.pop.len());
        for _ in 1..TOURNAMENT {
            let c = self.rng.below(self.pop.len());
            if self.pop[c].fitness > self.pop[best].fitness {
                best = c;
            }
        }
        best
    }

    /// One generation: elitism, tournaments, per-state crossover (a state's
    /// weights from a parent or a blend of both), mutation of a few states.
    pub fn step(&mut self, model: &Model, value: &[f64]) {
        let mut next = self.pop[..ELITES.min(self.pop.len())].to_vec();
        while next.len() < self.pop.len() {
            let (pa, pb) = (self.select(), self.select());
            let (mut child, other) = (self.pop[pa].genes.clone(), &self.pop[pb].genes);
            for s in 0..model.states {
                let r = self.rng.unit();
                let (lo, hi) = (model.offset[s], model.offset[s + 1]);
                if r < FROM_OTHER_PARENT {
                    child[lo..hi].copy_from_slice(&other[lo..hi]);
                } else if r < FROM_OTHER_PARENT + BLEND {
                    let t = self.rng.unit();
                    for (c, &o) in child[lo..hi].iter_mut().zip(&other[lo..hi]) {
                        *c = t * *c + (1.0 - t) * o;
                    }
                }
            }
            // Mutation: one scale per child, drawn from several so coarse
            // and fine moves coexist; a geometric number of states, half of
            // them chosen where the parent's local gap is large.
            let sigma = MUTATION_SCALES[self.rng.below(MUTATION_SCALES.len())];
            let gaps = &self.pop[pa].local;
            let total: f64 = gaps.iter().sum();
            loop {
                let s = if total > 0.0 && self.rng.unit() < DIRECTED {
                    roulette(self.rng.unit() * total, gaps.iter().copied().enumerate())
                } else {
                    self.rng.below(model.states)
                };
                for g in &mut child[model.offset[s]..model.offset[s + 1]] {
                    *g = if self.rng.unit() < DROP_OUT {
                        0.0
                    } else {
                        // A sum of three uniforms: a bell on [-1.5, 1.5].
                        let noise = self.rng.unit() + self.rng.unit() + self.rng.unit() - 1.5;
                        (*g + 2.0 * sigma * noise).clamp(0.0, 1.0)
                    };
                }
                if self.rng.unit() >= MUTATE_ANOTHER {
                    break;
                }
            }
            next.push(Individual::new(model, value, child));
        }
        self.pop = next;
        self.sort();
        self.generation += 1;
    }
}
