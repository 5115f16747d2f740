//! `ji_solver`: its input (a variant, `R p`, `q`, then q lines `x y`), its
//! profiles and their generator, its shrinker, its page.

use super::random::{variant, Shape, SMALL};
use super::variant::Variant;
use crate::compare::Rule;
use crate::error::Result;
use crate::problems::{Problem, Profile};
use crate::rng::Rng;
use std::io::Write;
use std::path::Path;

pub struct JiSolver;

/// The solver's profiles: every step of [`solver`] matches on them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum SolverKind {
    Random,
    Common,
    Cycles,
    InfiniteJi,
    LargeC,
    RoundLimits,
    DrawProb,
    Unlimited,
}

pub(super) const SOLVER_PROFILES: &[Profile] = &[
    Profile {
        name: "random",
        generate: |rng| solver(SolverKind::Random, rng).render(),
        about: "1..8 skills, C <= 8, any round limit and draw probability",
    },
    Profile {
        name: "common",
        generate: |rng| solver(SolverKind::Common, rng).render(),
        about: "the common variant, any round limit and draw probability",
    },
    Profile {
        name: "cycles",
        generate: |rng| solver(SolverKind::Cycles, rng).render(),
        about: "\"beats\" with a planted 3-cycle (mixed strategies)",
    },
    Profile {
        name: "infinite_ji",
        generate: |rng| solver(SolverKind::InfiniteJi, rng).render(),
        about: "无限集 skills; the unlimited game only with a draw chance",
    },
    Profile {
        name: "large_c",
        generate: |rng| solver(SolverKind::LargeC, rng).render(),
        about: "C = 40..200 with 2..4 skills and short round limits",
    },
    Profile {
        name: "round_limits",
        generate: |rng| solver(SolverKind::RoundLimits, rng).render(),
        about: "R = 1..1000 with p = 0: values at every horizon",
    },
    Profile {
        name: "draw_prob",
        generate: |rng| solver(SolverKind::DrawProb, rng).render(),
        about: "draw probabilities 0..100 written as `5`, `2.50`, `100.000`",
    },
    Profile {
        name: "unlimited",
        generate: |rng| solver(SolverKind::Unlimited, rng).render(),
        about: "2..12 skills, R = 0, p = 0 (the unlimited game), every state",
    },
];

#[derive(Clone, Debug, PartialEq)]
pub(super) struct Solve {
    pub(super) variant: Variant,
    pub(super) rounds: u64,
    /// The draw probability as written (a decimal).
    pub(super) p: String,
    pub(super) queries: Vec<(i64, i64)>,
}

impl Solve {
    pub(super) fn render(&self) -> String {
        let mut s = String::new();
        self.variant.render(&mut s);
        s.push_str(&format!("{} {}\n{}\n", self.rounds, self.p, self.queries.len()));
        for (x, y) in &self.queries {
            s.push_str(&format!("{x} {y}\n"));
        }
        s
    }

    pub(super) fn parse(input: &str) -> Option<Solve> {
        let (variant, mut t) = Variant::read(input)?;
        let rounds: u64 = t.next()?.parse().ok()?;
        let p = t.next()?.to_string();
        let digits = p.bytes().all(|c| c.is_ascii_digit() || c == b'.');
        let value: f64 = p.parse().ok()?;
        if !digits || p.matches('.').count() > 1 || !(0.0..=100.0).contains(&value) {
            return None;
        }
        let q: usize = t.next()?.parse().ok()?;
        let cap = variant.cap();
        let mut queries = Vec::new();
        for _ in 0..q {
            let x: i64 = t.next()?.parse().ok()?;
            let y: i64 = t.next()?.parse().ok()?;
            if !(0..=cap).contains(&x) || !(0..=cap).contains(&y) {
                return None;
            }
            queries.push((x, y));
        }
        t.next().is_none().then_some(Solve { variant, rounds, p, queries })
    }
}

/// p in percent, written in one of the forms the format allows.
pub(super) fn draw_probability(rng: &mut Rng) -> String {
    let hundredths = match rng.below(4) {
        0 => 0,
        1 => rng.range(1, 20) * 100,
        2 => rng.range(1, 10_000),
        _ => *rng.pick(&[50, 250, 1000, 5000, 10_000]),
    };
    let (int, frac) = (hundredths / 100, hundredths % 100);
    match rng.below(3) {
        0 if frac == 0 => format!("{int}"),
        1 => format!("{int}.{frac:02}"),
        2 if frac % 10 == 0 => format!("{int}.{}00", frac / 10),
        _ => format!("{int}.{frac:02}"),
    }
}

pub(super) fn p_value(p: &str) -> f64 {
    p.parse().unwrap_or(0.0)
}

/// An unlimited 无限集 game with little chance of a draw, which can take
/// our solver seconds (and exit 3): the generator and shrinker avoid it.
pub(super) fn slow(s: &Solve) -> bool {
    s.rounds == 0 && p_value(&s.p) < 1.0 && s.variant.infinite()
}

pub(super) fn solver(profile: SolverKind, rng: &mut Rng) -> Solve {
    let shape = match profile {
        SolverKind::Cycles => Shape { n: (3, 8), cycle: true, upset: 0.4, ..SMALL },
        SolverKind::InfiniteJi => Shape { n: (2, 8), infinite: 0.7, ..SMALL },
        SolverKind::LargeC => Shape { n: (2, 4), scale: 3, infinite: 0.0, ..SMALL },
        // As many skills as the certificate's slow cases have, 无限集 often.
        SolverKind::Unlimited => Shape { n: (2, 12), infinite: 0.4, ..SMALL },
        SolverKind::Random
        | SolverKind::Common
        | SolverKind::RoundLimits
        | SolverKind::DrawProb => SMALL,
    };
    let mut variant = match profile {
        SolverKind::Common => Variant::common(),
        SolverKind::Random
        | SolverKind::Cycles
        | SolverKind::InfiniteJi
        | SolverKind::LargeC
        | SolverKind::RoundLimits
        | SolverKind::DrawProb
        | SolverKind::Unlimited => variant(rng, &shape, false),
    };
    if profile == SolverKind::LargeC {
        // One expensive skill (not the free one) sets C; gains stay
        // small, so counts walk through many states.
        let c = rng.range(40, 200);
        let free = variant.skills.iter().position(|k| k.req == 0 && k.delta > 0);
        let others: Vec<usize> = (0..variant.skills.len()).filter(|&i| Some(i) != free).collect();
        let i = *rng.pick(&others);
        variant.skills[i].req = c;
        variant.skills[i].delta = -rng.range(0, c);
    }
    let infinite = variant.skills.iter().any(|k| k.req > (-k.delta).max(0));
    let (rounds, mut p) = match profile {
        SolverKind::RoundLimits => (rng.range(1, 1000) as u64, "0".to_string()),
        SolverKind::DrawProb => (*rng.pick(&[0, 0, 1, 10, 100]), draw_probability(rng)),
        SolverKind::LargeC => (rng.range(1, 20) as u64, draw_probability(rng)),
        SolverKind::Unlimited => (0, "0".to_string()),
        SolverKind::Random | SolverKind::Common | SolverKind::Cycles | SolverKind::InfiniteJi => {
            let r = *rng.pick(&[0, 0, 1, 2, 5, 20, 100, 1000]);
            (r, draw_probability(rng))
        }
    };
    // The unlimited game without draws converges only like 1/k for some
    // 无限集 variants (seconds, exit 3): give those a draw chance.
    if rounds == 0 && infinite && p_value(&p) < 1.0 && profile != SolverKind::Unlimited {
        p = format!("{}", rng.range(1, 50));
    }
    let cap = variant.cap();
    let states = (cap + 1) * (cap + 1);
    let every_state = profile == SolverKind::Unlimited || (states <= 64 && rng.chance(0.5));
    let queries = if every_state {
        (0..=cap).flat_map(|x| (0..=cap).map(move |y| (x, y))).collect()
    } else {
        let q = rng.range(1, 40);
        (0..q).map(|_| (rng.range(0, cap), rng.range(0, cap))).collect()
    };
    Solve { variant, rounds, p, queries }
}

/// (skills, queries, (beats, sum of |numbers|, R, p, name bytes, query
/// counts)): what shrinking lowers.
#[cfg(test)]
pub(super) fn solve_measure(s: &Solve) -> (usize, usize, (usize, u128, u64, usize, usize, i64)) {
    let m = s.variant.measure();
    let p = s.p.len() * 2 + (p_value(&s.p) != 0.0) as usize;
    let counts = s.queries.iter().map(|&(x, y)| x + y).sum();
    (m.0, s.queries.len(), (m.1, m.2, s.rounds, p, m.3, counts))
}

/// `s` with its queries clamped to the variant's C (after a change of it).
pub(super) fn clamped(mut s: Solve) -> Solve {
    let cap = s.variant.cap();
    for q in &mut s.queries {
        *q = (q.0.min(cap), q.1.min(cap));
    }
    s
}

pub(super) fn shrink_solve(s: &Solve) -> Vec<Solve> {
    let mut out = Vec::new();
    let n = s.variant.skills.len();
    for i in (0..n).rev() {
        if n == 1 {
            break;
        }
        out.push(clamped(Solve { variant: s.variant.without(i), ..s.clone() }));
    }
    // Fewer queries: halves, then each single query.
    let q = s.queries.len();
    if q > 1 {
        out.push(Solve { queries: s.queries[..q / 2].to_vec(), ..s.clone() });
        out.push(Solve { queries: s.queries[q / 2..].to_vec(), ..s.clone() });
        for i in 0..q {
            out.push(Solve { queries: vec![s.queries[i]], ..s.clone() });
        }
    }
    for variant in s.variant.simpler() {
        out.push(clamped(Solve { variant, ..s.clone() }));
    }
    // Fewer rounds, a plainer draw probability.
    let mut limits = vec![s.rounds / 2, s.rounds.saturating_sub(1)];
    limits.dedup();
    for r in limits.into_iter().filter(|&r| r >= 1 && r < s.rounds) {
        out.push(Solve { rounds: r, ..s.clone() });
    }
    if s.p.contains('.') {
        out.push(Solve { p: s.p.split('.').next().unwrap_or("0").to_string(), ..s.clone() });
    }
    if s.p != "0" {
        out.push(Solve { p: "0".to_string(), ..s.clone() });
    }
    // Halving the queries' counts.
    if s.queries.iter().any(|&(x, y)| x > 0 || y > 0) {
        out.push(Solve {
            queries: s.queries.iter().map(|&(x, y)| (x / 2, y / 2)).collect(),
            ..s.clone()
        });
    }
    out.retain(|c| !slow(c));
    out
}

impl Problem for JiSolver {
    fn name(&self) -> &'static str {
        "ji_solver"
    }

    /// The values are real numbers printed with 9 digits ("Print 9 digits
    /// after the point"): our fixtures and judge allow 1e-6 (absolute).
    fn rule(&self) -> Rule {
        Rule::Tolerance(1e-6)
    }

    fn profiles(&self) -> &'static [Profile] {
        SOLVER_PROFILES
    }

    fn shrink(&self, input: &str) -> Vec<String> {
        match Solve::parse(input) {
            Some(s) => shrink_solve(&s).iter().map(Solve::render).collect(),
            None => Vec::new(),
        }
    }

    /// `kit show`: the value table ([`crate::pages::ji`]).
    fn page(&self, input: &[u8], solver: &Path, title: &str, page: &mut dyn Write) -> Result<()> {
        crate::pages::ji::solver_page(input, solver, title, page)
    }
}
