//! Evaluation of strategies in the capped game: the best response to a
//! fixed AI (by value iteration for training, exactly by policy iteration
//! with direct linear solves for `e`), the outcomes of two fixed AIs, and
//! the equilibrium (value iteration over the stage games).

use crate::lu;
use crate::model::{Model, Round};
use crate::simplex::matrix_game;
use crate::variant::bits;

/// The equilibrium's sweep cap (it stops at `FINE_SWEEPS.change`; the
/// common variant takes a few dozen sweeps).
const EQUILIBRIUM_SWEEPS: usize = 20_000;
/// With lasting effects (their pairs of lost sets are iterated one at a
/// time), the sweeps of all pairs' states together, at most
/// `EQUILIBRIUM_SWEEPS` a pair: pairs with wins reached only in the limit
/// creep towards ±1 and run to any cap. 20,000 sweeps of k4_a1_b2's 100
/// states; the showcase variant's 2,304 get 868 a pair, a start-up of about
/// 1 s of CPU (16 s with 20,000; bench/RESULTS.md).
const LASTING_EQUILIBRIUM_WORK: usize = 2_000_000;

/// When value iteration stops: no sweep changes a value by more than
/// `change`, or after `max_sweeps` sweeps. A stopping rule, not an error
/// bound: training only ranks individuals with it; `e` solves exactly.
#[derive(Clone, Copy)]
pub struct Tolerance {
    pub change: f64,
    pub max_sweeps: usize,
}

/// Training's best responses: speed first.
pub const TRAIN_SWEEPS: Tolerance = Tolerance { change: 1e-9, max_sweeps: 5_000 };
/// The equilibrium's stage-game iteration, and the start of `e`'s exact
/// policy iteration.
pub const FINE_SWEEPS: Tolerance = Tolerance { change: 1e-13, max_sweeps: 200_000 };
/// Where a variant has lasting effects, value iteration only starts the
/// best responses (training's and `e`'s), for this many sweeps; policy
/// iteration finishes them exactly. Their stalls (draws that last, beside
/// wins reached only in the limit) make value iteration crawl: on
/// k4_a1_b2, 3441 of the 3642 best responses of generations 200 to 300 ran
/// into `TRAIN_SWEEPS`' 5000-sweep cap unconverged (the common variant
/// takes 38 sweeps on average).
pub const LASTING_START: Tolerance = Tolerance { change: 1e-9, max_sweeps: 200 };
/// A probability this small in a chain is the simplex's rounding (the
/// equilibrium's strategies carry some of 5e-17), not a way out: a loop
/// left only through it would make `I − Q` singular in floating point (on
/// the showcase variant, an equilibrium's exploitability of 1e18 came out
/// of one), so `solve_chain` counts it as no way to an end.
const NEGLIGIBLE: f64 = 1e-12;
/// Policy iteration switches a reply only when it gains more than this
/// (a tie must not make it cycle).
const SWITCH_GAIN: f64 = 1e-12;
/// Policy iteration's round cap (it converges in a few rounds; this is a
/// guard against cycling on rounding).
const MAX_POLICY_ROUNDS: usize = 100;

/// One choice at a state, for a side whose opponent is fixed: what the
/// rounds that end pay (`payoff`, probability-weighted), the probability
/// that the round ends (`ends`), and the rounds that go on, `edges[..end]`
/// after the previous choice's.
struct Choice {
    state: usize,
    end: usize,
    payoff: f64,
    ends: f64,
}

/// A round that goes on: its probability and the next state.
struct Edge {
    probability: f64,
    next: usize,
}

/// The choices and edges of the side that replies to a fixed AI, grouped
/// by state in state order.
struct Chain {
    states: usize,
    choices: Vec<Choice>,
    edges: Vec<Edge>,
}

/// The responder's chain against a fixed AI: at each state (the AI's 集,
/// the responder's 集, the lost sets), one choice per skill the responder
/// can use (every one, not only the undominated ones), paying P(responder wins) −
/// P(AI wins) for the round.
fn reply_chain(model: &Model, ai: &[f64]) -> Chain {
    let (mut choices, mut edges) = (Vec::new(), Vec::new());
    for s in 0..model.states {
        // Where a side cannot move, the game is decided: one choice.
        if let Some(v) = model.decided(s) {
            let ends = if v == 0.0 { 0.0 } else { 1.0 };
            choices.push(Choice { state: s, end: edges.len(), payoff: -v, ends });
            continue;
        }
        for y in bits(model.replies(s)) {
            let (mut payoff, mut ends) = (0.0, 0.0);
            for x in bits(model.playable[s]).filter(|&x| ai[s * model.n + x] != 0.0) {
                let p = ai[s * model.n + x];
                match model.round(s, x, y) {
                    Round::Won => (payoff, ends) = (payoff - p, ends + p),
                    Round::Lost => (payoff, ends) = (payoff + p, ends + p),
                    Round::Next(next) => edges.push(Edge { probability: p, next }),
                }
            }
            let end = edges.len();
            choices.push(Choice { state: s, end, payoff, ends });
        }
    }
    Chain { states: model.states, choices, edges }
}

/// The best response's values for training: value iteration to `tol`;
/// with lasting effects, exact from `LASTING_START` (`improve`).
pub fn best_response(model: &Model, ai: &[f64], tol: Tolerance) -> Vec<f64> {
    let chain = reply_chain(model, ai);
    match model.variant.lasting() {
        true => improve(model, &chain, &iterate(&chain, LASTING_START)),
        false => iterate(&chain, tol),
    }
}

/// Value iteration from 0 (k-round values, rising to the unlimited game's)
/// until `tol` stops it. A state is worth its best choice.
fn iterate(chain: &Chain, tol: Tolerance) -> Vec<f64> {
    let (choices, edges) = (&chain.choices, &chain.edges);
    let mut value = vec![0.0; chain.states];
    for _ in 0..tol.max_sweeps {
        let mut change: f64 = 0.0;
        let mut e = 0;
        let mut h = 0;
        while h < choices.len() {
            let s = choices[h].state;
            let mut best = f64::NEG_INFINITY;
            while h < choices.len() && choices[h].state == s {
                let mut q = choices[h].payoff;
                while e < choices[h].end {
                    q += edges[e].probability * value[edges[e].next];
                    e += 1;
                }
                best = best.max(q);
                h += 1;
            }
            change = change.max((best - value[s]).abs());
            value[s] = best;
        }
        if change <= tol.change {
            break;
        }
    }
    value
}

/// The exact values of a chain with one choice per state (`pick[s]` is an
/// index into `chain.choices`; `None` where the side has no move, which
/// ends nothing and is worth 0): for each right-hand side `r` (the payoff,
/// per state, of the rounds that end), the expected total, where play that
/// never ends pays 0.
///
/// States from which no round can ever end are worth 0 (that is the rule,
/// not an approximation). On the others, `v = r + Q v` with `Q` the rounds
/// that go on among them: every one of them reaches an end with positive
/// probability, so `I − Q` is nonsingular, and the system is solved
/// directly by Gaussian elimination with partial pivoting (`lu`). The values are
/// exact up to the rounding of that solve (backward stable: a relative
/// error of order n·2⁻⁵³ times the condition number of `I − Q`, which
/// grows with the expected number of rounds). The AI's probabilities are
/// taken to sum to 1 at each state (they do, up to rounding). A
/// probability of at most `NEGLIGIBLE` does not make a state reach an end.
fn solve_chain(
    model: &Model,
    chain: &Chain,
    pick: &[Option<usize>],
    rhs: &[Vec<f64>],
) -> Vec<Vec<f64>> {
    let states = chain.states;
    let start = |h: usize| if h == 0 { 0 } else { chain.choices[h - 1].end };
    let edges = |s: usize| match pick[s] {
        Some(h) => &chain.edges[start(h)..chain.choices[h].end],
        None => &chain.edges[..0],
    };
    // Which states can reach an end: backwards from those that end.
    let mut into: Vec<Vec<usize>> = vec![Vec::new(); states];
    for s in 0..states {
        for e in edges(s).iter().filter(|e| e.probability > NEGLIGIBLE) {
            into[e.next].push(s);
        }
    }
    let ends = |s: usize| pick[s].map_or(0.0, |h| chain.choices[h].ends);
    let mut ending: Vec<usize> = (0..states).filter(|&s| ends(s) > NEGLIGIBLE).collect();
    let mut live = vec![false; states];
    for &s in &ending {
        live[s] = true;
    }
    while let Some(t) = ending.pop() {
        for &s in &into[t] {
            if !live[s] {
                live[s] = true;
                ending.push(s);
            }
        }
    }
    // Lasting effects only add lost skills, so a round stays in its pair
    // of lost sets or goes to one with more lost skills: each pair's
    // states are solved alone, those with the most lost skills first, the
    // pairs they lead to being known by then. Without lasting effects this
    // is one system, as before.
    let mut out = vec![vec![0.0; states]; rhs.len()];
    let block = model.side * model.side;
    let mut row_of = vec![usize::MAX; states];
    for p in model.solve_order() {
        let index: Vec<usize> = (p * block..(p + 1) * block).filter(|&s| live[s]).collect();
        for (i, &s) in index.iter().enumerate() {
            row_of[s] = i;
        }
        // I − Q and the right-hand sides, dense: at most (C + 1)² = 961 rows.
        let n = index.len();
        let mut a = vec![0.0; n * n];
        let mut columns = vec![vec![0.0; n]; rhs.len()];
        for (i, &s) in index.iter().enumerate() {
            for (column, r) in columns.iter_mut().zip(rhs) {
                column[i] = r[s];
            }
            // The diagonal 1 − Q(s, s) is summed from what leaves s (the
            // round ends, or goes to another state), not subtracted from 1:
            // in a slow game Q(s, s) is within 1e-8 of 1, and 1 − Q(s, s)
            // would keep only half of its digits.
            a[i * n + i] = ends(s);
            for e in edges(s) {
                if e.next == s {
                    continue;
                }
                a[i * n + i] += e.probability;
                if !live[e.next] {
                    continue;
                }
                if e.next / block == p {
                    a[i * n + row_of[e.next]] -= e.probability;
                } else {
                    // A pair with more lost skills, solved already.
                    for (column, values) in columns.iter_mut().zip(&out) {
                        column[i] += e.probability * values[e.next];
                    }
                }
            }
        }
        // Singular cannot happen (I − Q is nonsingular): all 0 if it did.
        let solved = lu::solve_all(a, n, &columns).unwrap_or_else(|| vec![vec![0.0; n]; rhs.len()]);
        for (values, x) in out.iter_mut().zip(solved) {
            for (i, &s) in index.iter().enumerate() {
                values[s] = x[i];
            }
        }
    }
    out
}

/// The best response's exact values: policy iteration over pure stationary
/// replies, started from value iteration's greedy reply, each reply's
/// values solved directly (`solve_chain`); a reply is switched only where
/// another choice gains more than `SWITCH_GAIN`. The result is the exact
/// value of the reply it ends with (a lower bound on the best response up
/// to rounding), optimal up to a gain of `SWITCH_GAIN` per round.
pub fn exact_best_response(model: &Model, ai: &[f64]) -> Vec<f64> {
    let chain = reply_chain(model, ai);
    let start = if model.variant.lasting() { LASTING_START } else { FINE_SWEEPS };
    improve(model, &chain, &iterate(&chain, start))
}

/// Policy iteration from the greedy reply to `estimate` (above).
fn improve(model: &Model, chain: &Chain, estimate: &[f64]) -> Vec<f64> {
    let q = |h: usize, value: &[f64]| {
        let start = if h == 0 { 0 } else { chain.choices[h - 1].end };
        let e = &chain.edges[start..chain.choices[h].end];
        chain.choices[h].payoff + e.iter().map(|e| e.probability * value[e.next]).sum::<f64>()
    };
    // The choices of each state: `choices[first[s]..last[s]]`.
    let (mut first, mut last) = (vec![0; model.states], vec![0; model.states]);
    for (h, c) in chain.choices.iter().enumerate().rev() {
        first[c.state] = h;
    }
    for (h, c) in chain.choices.iter().enumerate() {
        last[c.state] = h + 1;
    }
    let payoffs = |pick: &[Option<usize>]| -> Vec<f64> {
        let payoff = |p: &Option<usize>| p.map_or(0.0, |h| chain.choices[h].payoff);
        pick.iter().map(payoff).collect()
    };
    let mut pick: Vec<Option<usize>> = (0..model.states)
        .map(|s| {
            let best = (first[s]..last[s]).map(|h| q(h, estimate)).fold(f64::MIN, f64::max);
            (first[s]..last[s]).find(|&h| q(h, estimate) >= best - SWITCH_GAIN)
        })
        .collect();
    let mut value = solve_chain(model, chain, &pick, &[payoffs(&pick)]).remove(0);
    for _ in 0..MAX_POLICY_ROUNDS {
        let mut switched = false;
        for s in 0..model.states {
            let Some(here) = pick[s] else { continue };
            let here = q(here, &value);
            if let Some(h) = (first[s]..last[s]).find(|&h| q(h, &value) > here + SWITCH_GAIN) {
                pick[s] = Some(h);
                switched = true;
            }
        }
        if !switched {
            break;
        }
        value = solve_chain(model, chain, &pick, &[payoffs(&pick)]).remove(0);
    }
    value
}

/// How a game between two fixed AIs ends from (0, 0).
#[derive(Debug)]
pub struct Outcomes {
    pub win: f64,
    pub lose: f64,
    pub draw: f64,
}

/// A's outcomes from (0, 0) against B, both fixed: the absorbing Markov
/// chain over capped states, solved exactly (`solve_chain`); play that
/// never ends is a draw, P(draw) = 1 − P(win) − P(lose).
pub fn outcomes(model: &Model, pa: &[f64], pb: &[f64]) -> Outcomes {
    let (mut choices, mut edges) = (Vec::new(), Vec::new());
    let (mut wins, mut losses) = (vec![0.0; model.states], vec![0.0; model.states]);
    for s in 0..model.states {
        let sb = model.swapped(s);
        match model.decided(s) {
            Some(v) if v > 0.0 => wins[s] = 1.0,
            Some(v) if v < 0.0 => losses[s] = 1.0,
            _ => {}
        }
        for x in bits(model.playable[s]).filter(|_| model.decided(s).is_none()) {
            for y in bits(model.playable[sb]) {
                let p = pa[s * model.n + x] * pb[sb * model.n + y];
                if p == 0.0 {
                    continue;
                }
                match model.round(s, x, y) {
                    Round::Won => wins[s] += p,
                    Round::Lost => losses[s] += p,
                    Round::Next(next) => edges.push(Edge { probability: p, next }),
                }
            }
        }
        choices.push(Choice { state: s, end: edges.len(), payoff: 0.0, ends: wins[s] + losses[s] });
    }
    let chain = Chain { states: model.states, choices, edges };
    let pick: Vec<Option<usize>> = (0..model.states).map(Some).collect();
    let values = solve_chain(model, &chain, &pick, &[wins, losses]);
    let win = values[0][0].clamp(0.0, 1.0);
    let lose = values[1][0].clamp(0.0, 1.0);
    Outcomes { win, lose, draw: (1.0 - win - lose).max(0.0) }
}

/// The equilibrium of the capped game: value iteration on the stage games
/// (rows: the mover's playable skills, columns: the opponent's usable
/// ones); by symmetry one table serves both sides. Values and policy.
/// Lasting effects only add lost skills, so the pairs of lost sets are
/// iterated one at a time, those with the most lost skills first (the
/// pairs a round leads to are done by then); without them there is one.
pub fn equilibrium(model: &Model) -> (Vec<f64>, Vec<f64>) {
    let mut value = vec![0.0; model.states];
    let mut policy = vec![0.0; model.states * model.n];
    let block = model.side * model.side;
    for p in model.solve_order() {
        let layer = p * block..(p + 1) * block;
        let cap = match model.variant.lasting() {
            true => (LASTING_EQUILIBRIUM_WORK / model.states).min(EQUILIBRIUM_SWEEPS),
            false => EQUILIBRIUM_SWEEPS,
        };
        for sweep in 0..=cap {
            let mut change: f64 = 0.0;
            for s in layer.clone() {
                let rows: Vec<usize> = bits(model.playable[s]).collect();
                if let Some(v) = model.decided(s) {
                    // Whatever the mover plays: uniform over what it may play.
                    value[s] = v;
                    for &x in &rows {
                        policy[s * model.n + x] = 1.0 / rows.len() as f64;
                    }
                    continue;
                }
                let cols: Vec<usize> = bits(model.replies(s)).collect();
                let vs = &value;
                let payoff = |&x: &usize| cols.iter().map(move |&y| model.payoff(s, x, y, vs));
                let mat: Vec<f64> = rows.iter().flat_map(payoff).collect();
                let (val, strat) = matrix_game(&mat, rows.len(), cols.len());
                change = change.max((val - value[s]).abs());
                value[s] = val;
                for (&x, p) in rows.iter().zip(strat) {
                    policy[s * model.n + x] = p;
                }
            }
            if change <= FINE_SWEEPS.change || sweep == cap {
                break;
            }
        }
    }
    (value, policy)
}
