//! `ji_solver`: its input (a variant, `R p`, `q`, then q lines `x y`, each
//! maybe followed by `lost i a_1 .. a_i j b_1 .. b_j`: the skills A and B
//! have lost to lasting effects), its profiles and their generator, its
//! shrinker, its page.

use super::random::{add_lasting, variant, Shape, SMALL};
use super::variant::Variant;
use crate::compare::Rule;
use crate::error::Result;
use crate::ji::lost_clause;
use crate::problems::{Problem, Profile, Shrinkable};
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
    Lasting,
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
    Profile {
        name: "lasting",
        generate: |rng| solver(SolverKind::Lasting, rng).render(),
        about: "1..2 lasting effects, queries with lost skills (`lost`)",
    },
];

/// One query: the counts of A and B, and the skills each has lost.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Query {
    pub(super) x: i64,
    pub(super) y: i64,
    pub(super) lost: [Vec<usize>; 2],
}

impl Query {
    pub(super) fn at(x: i64, y: i64) -> Query {
        Query { x, y, lost: Default::default() }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub(super) struct Solve {
    pub(super) variant: Variant,
    pub(super) rounds: u64,
    /// The draw probability as written (a decimal).
    pub(super) p: String,
    pub(super) queries: Vec<Query>,
}

impl Solve {
    pub(super) fn render(&self) -> String {
        let mut s = String::new();
        self.variant.render(&mut s);
        s.push_str(&format!("{} {}\n{}\n", self.rounds, self.p, self.queries.len()));
        let names = |set: &Vec<usize>| -> Vec<&str> {
            set.iter().map(|&z| self.variant.skills[z].name.as_str()).collect()
        };
        for q in &self.queries {
            let lost = lost_clause(&names(&q.lost[0]), &names(&q.lost[1]));
            s.push_str(&format!("{} {}{lost}\n", q.x, q.y));
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
        let sets = variant.lost_sets();
        let mut t = t.peekable();
        let mut queries = Vec::new();
        for _ in 0..q {
            let x: i64 = t.next()?.parse().ok()?;
            let y: i64 = t.next()?.parse().ok()?;
            if !(0..=cap).contains(&x) || !(0..=cap).contains(&y) {
                return None;
            }
            let mut query = Query::at(x, y);
            if t.peek() == Some(&"lost") {
                t.next();
                for side in &mut query.lost {
                    let k: usize = t.next()?.parse().ok()?;
                    *side = (0..k).map(|_| variant.index(t.next()?)).collect::<Option<_>>()?;
                    side.sort_unstable();
                    if !sets.as_ref()?.contains(side) {
                        return None;
                    }
                }
            }
            queries.push(query);
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
        SolverKind::Lasting => Shape { n: (2, 6), ..SMALL },
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
        | SolverKind::Unlimited
        | SolverKind::Lasting => variant(rng, &shape, false),
    };
    if profile == SolverKind::Lasting {
        add_lasting(rng, &mut variant, 2);
    }
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
        SolverKind::Random
        | SolverKind::Common
        | SolverKind::Cycles
        | SolverKind::InfiniteJi
        | SolverKind::Lasting => {
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
    let mut queries: Vec<Query> = if every_state {
        (0..=cap).flat_map(|x| (0..=cap).map(move |y| Query::at(x, y))).collect()
    } else {
        let q = rng.range(1, 40);
        (0..q).map(|_| Query::at(rng.range(0, cap), rng.range(0, cap))).collect()
    };
    if profile == SolverKind::Lasting {
        // Each query with lost sets each side can have: the empty one
        // (nothing lost yet) as often as any other.
        let sets = variant.lost_sets().unwrap_or_else(|| vec![Vec::new()]);
        for q in &mut queries {
            q.lost = [rng.pick(&sets).clone(), rng.pick(&sets).clone()];
        }
    }
    Solve { variant, rounds, p, queries }
}

/// (skills, queries, (beats and lasting names, sum of |numbers|, R, p,
/// name bytes, query counts, lost names)): what shrinking lowers.
#[cfg(test)]
pub(super) type SolveMeasure = (usize, usize, (usize, u128, u64, usize, usize, i64, usize));

#[cfg(test)]
pub(super) fn solve_measure(s: &Solve) -> SolveMeasure {
    let m = s.variant.measure();
    let p = s.p.len() * 2 + (p_value(&s.p) != 0.0) as usize;
    let counts = s.queries.iter().map(|q| q.x + q.y).sum();
    let lost = s.queries.iter().map(|q| q.lost[0].len() + q.lost[1].len()).sum();
    (m.0, s.queries.len(), (m.1, m.2, s.rounds, p, m.3, counts, lost))
}

/// `s` after a change of its variant: the queries clamped to its C, and a
/// lost set it can no longer cause (an effect or a skill gone) emptied.
pub(super) fn clamped(mut s: Solve) -> Solve {
    let cap = s.variant.cap();
    let sets = s.variant.lost_sets().unwrap_or_default();
    for q in &mut s.queries {
        q.x = q.x.min(cap);
        q.y = q.y.min(cap);
        for side in &mut q.lost {
            if !sets.contains(side) {
                side.clear();
            }
        }
    }
    s
}

/// The shrinker's steps, most promising first: fewer skills, fewer
/// queries, a simpler variant, fewer rounds, a plainer draw probability,
/// then smaller queries. No step gives a [`slow`] game.
impl Shrinkable for Solve {
    const STEPS: &'static [fn(&Solve) -> Vec<Solve>] = &[
        fewer_skills,
        fewer_queries,
        simpler_variants,
        fewer_rounds,
        plainer_draw,
        smaller_queries,
    ];

    fn parse(text: &str) -> Option<Solve> {
        Solve::parse(text)
    }

    fn render(&self) -> String {
        Solve::render(self)
    }
}

/// `candidates` without the [`slow`] ones.
fn quick(mut candidates: Vec<Solve>) -> Vec<Solve> {
    candidates.retain(|c| !slow(c));
    candidates
}

/// Each skill dropped, with it the queries' lost skills that name it.
fn fewer_skills(s: &Solve) -> Vec<Solve> {
    let mut out = Vec::new();
    let n = s.variant.skills.len();
    for i in (0..n).rev() {
        if n == 1 {
            break;
        }
        // The queries' lost skills without i, by their new ids (`clamped`
        // empties a set the smaller variant cannot cause).
        let mut fewer = Solve { variant: s.variant.without(i), ..s.clone() };
        for side in fewer.queries.iter_mut().flat_map(|q| q.lost.iter_mut()) {
            side.retain(|&z| z != i);
            side.iter_mut().for_each(|z| *z -= usize::from(*z > i));
        }
        out.push(clamped(fewer));
    }
    quick(out)
}

/// Fewer queries: halves, then each single query.
fn fewer_queries(s: &Solve) -> Vec<Solve> {
    let mut out = Vec::new();
    let q = s.queries.len();
    if q > 1 {
        out.push(Solve { queries: s.queries[..q / 2].to_vec(), ..s.clone() });
        out.push(Solve { queries: s.queries[q / 2..].to_vec(), ..s.clone() });
        for i in 0..q {
            out.push(Solve { queries: vec![s.queries[i].clone()], ..s.clone() });
        }
    }
    quick(out)
}

/// The same queries in each simpler variant ([`Variant::simpler`]).
fn simpler_variants(s: &Solve) -> Vec<Solve> {
    quick(
        s.variant
            .simpler()
            .into_iter()
            .map(|variant| clamped(Solve { variant, ..s.clone() }))
            .collect(),
    )
}

/// Half the round limit, and one round fewer.
fn fewer_rounds(s: &Solve) -> Vec<Solve> {
    let mut limits = vec![s.rounds / 2, s.rounds.saturating_sub(1)];
    limits.dedup();
    let fewer = limits.into_iter().filter(|&r| r >= 1 && r < s.rounds);
    quick(fewer.map(|r| Solve { rounds: r, ..s.clone() }).collect())
}

/// The draw probability without its decimals, then 0.
fn plainer_draw(s: &Solve) -> Vec<Solve> {
    let mut out = Vec::new();
    if s.p.contains('.') {
        out.push(Solve { p: s.p.split('.').next().unwrap_or("0").to_string(), ..s.clone() });
    }
    if s.p != "0" {
        out.push(Solve { p: "0".to_string(), ..s.clone() });
    }
    quick(out)
}

/// Halving the queries' counts, then nothing lost.
fn smaller_queries(s: &Solve) -> Vec<Solve> {
    let mut out = Vec::new();
    if s.queries.iter().any(|q| q.x > 0 || q.y > 0) {
        let half = |q: &Query| Query { x: q.x / 2, y: q.y / 2, ..q.clone() };
        out.push(Solve { queries: s.queries.iter().map(half).collect(), ..s.clone() });
    }
    if s.queries.iter().any(|q| q.lost != Query::at(0, 0).lost) {
        let found = |q: &Query| Query::at(q.x, q.y);
        out.push(Solve { queries: s.queries.iter().map(found).collect(), ..s.clone() });
    }
    quick(out)
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
        crate::problems::shrink::<Solve>(input)
    }

    /// `kit show`: the value table ([`crate::pages::ji`]).
    fn page(&self, input: &[u8], solver: &Path, title: &str, page: &mut dyn Write) -> Result<()> {
        crate::pages::ji::solver_page(input, solver, title, page)
    }
}
