//! 集 (波波攒): one variant generator for `ji_referee` (the variant, `r`,
//! then r lines `x y`) and `ji_solver` (the variant, `R p`, `q`, then q
//! lines `x y`). A variant is `n`, then n lines
//! `name delta req k beaten_1 .. beaten_k`.

use super::{Problem, Profile};
use crate::compare::Rule;
use crate::error::Result;
use crate::rng::Rng;
use std::io::Write;
use std::path::Path;

pub struct JiReferee;
pub struct JiSolver;

#[derive(Clone, Debug, PartialEq)]
struct Skill {
    name: String,
    delta: i64,
    req: i64,
    /// Indices of the skills this one beats.
    beats: Vec<usize>,
}

#[derive(Clone, Debug, PartialEq)]
struct Variant {
    skills: Vec<Skill>,
}

/// The common variant (README): name, delta, req, beaten names.
const COMMON: [(&str, i64, i64, &[&str]); 8] = [
    ("集", 1, 0, &[]),
    ("小防", 0, 0, &[]),
    ("中防", 0, 0, &[]),
    ("大防", -1, 1, &[]),
    ("小波", -1, 1, &["集", "中防"]),
    ("中波", -2, 2, &["集", "小波", "小防"]),
    ("大波", -3, 3, &["集", "小波", "小防", "中波", "中防"]),
    ("黑洞", -5, 5, &["集", "小波", "小防", "中波", "中防", "大波", "大防"]),
];

impl Variant {
    fn common() -> Variant {
        let index = |name: &str| COMMON.iter().position(|s| s.0 == name).expect("known");
        let skills = COMMON
            .iter()
            .map(|&(name, delta, req, beats)| Skill {
                name: name.to_string(),
                delta,
                req,
                beats: beats.iter().map(|b| index(b)).collect(),
            })
            .collect();
        Variant { skills }
    }

    fn render(&self, s: &mut String) {
        s.push_str(&format!("{}\n", self.skills.len()));
        for k in &self.skills {
            s.push_str(&format!("{} {} {} {}", k.name, k.delta, k.req, k.beats.len()));
            for &b in &k.beats {
                s.push(' ');
                s.push_str(&self.skills[b].name);
            }
            s.push('\n');
        }
    }

    /// Some skill asks more than it costs (无限集: req > max(0, -delta)).
    fn infinite(&self) -> bool {
        self.skills.iter().any(|k| k.req > (-k.delta).max(0))
    }

    /// C, the largest req.
    fn cap(&self) -> i64 {
        self.skills.iter().map(|k| k.req).max().unwrap_or(0)
    }

    fn beats(&self, a: usize, b: usize) -> bool {
        self.skills[a].beats.contains(&b)
    }

    fn index(&self, name: &str) -> Option<usize> {
        self.skills.iter().position(|k| k.name == name)
    }

    /// The variant without skill `i` (and every mention of it).
    fn without(&self, i: usize) -> Variant {
        let mut v = self.clone();
        v.skills.remove(i);
        for k in &mut v.skills {
            k.beats.retain(|&b| b != i);
            for b in &mut k.beats {
                if *b > i {
                    *b -= 1;
                }
            }
        }
        v
    }

    /// Reads a variant from the tokens; `None` if it breaks a rule.
    fn parse<'a>(t: &mut impl Iterator<Item = &'a str>) -> Option<Variant> {
        let n: usize = t.next()?.parse().ok()?;
        if n == 0 {
            return None;
        }
        let mut raw = Vec::new();
        for _ in 0..n {
            let name = t.next()?;
            let delta: i64 = t.next()?.parse().ok()?;
            let req: i64 = t.next()?.parse().ok()?;
            let k: usize = t.next()?.parse().ok()?;
            if name.len() > 32 || k >= n || req < 0 || req < delta.checked_neg()? {
                return None;
            }
            let beaten: Vec<&str> = (0..k).map(|_| t.next()).collect::<Option<_>>()?;
            raw.push((name, delta, req, beaten));
        }
        let names: Vec<&str> = raw.iter().map(|r| r.0).collect();
        let mut skills = Vec::new();
        for (i, (name, delta, req, beaten)) in raw.iter().enumerate() {
            if names[..i].contains(name) {
                return None;
            }
            let beats: Vec<usize> =
                beaten.iter().map(|b| names.iter().position(|x| x == b)).collect::<Option<_>>()?;
            let mut sorted = beats.clone();
            sorted.sort_unstable();
            sorted.dedup();
            if sorted.len() != beats.len() || beats.contains(&i) {
                return None;
            }
            skills.push(Skill { name: name.to_string(), delta: *delta, req: *req, beats });
        }
        let v = Variant { skills };
        let n = v.skills.len();
        let antisymmetric = (0..n).all(|a| v.skills[a].beats.iter().all(|&b| !v.beats(b, a)));
        antisymmetric.then_some(v)
    }

    /// Candidates with fewer beats, smaller numbers and shorter names, in
    /// that order (fewer skills are the caller's: it must fix the rest of
    /// the input).
    fn simpler(&self) -> Vec<Variant> {
        let mut out = Vec::new();
        for (i, k) in self.skills.iter().enumerate() {
            for j in 0..k.beats.len() {
                let mut v = self.clone();
                v.skills[i].beats.remove(j);
                out.push(v);
            }
        }
        for (i, k) in self.skills.iter().enumerate() {
            if k.delta != 0 {
                // Halving |delta| keeps req >= max(0, -delta).
                let mut v = self.clone();
                v.skills[i].delta = k.delta / 2;
                out.push(v);
            }
            let req = (k.req / 2).max(0).max(-k.delta);
            if req < k.req {
                let mut v = self.clone();
                v.skills[i].req = req;
                out.push(v);
            }
        }
        let short: Vec<String> = (0..self.skills.len()).map(short_name).collect();
        let bytes = |v: &Variant| v.skills.iter().map(|k| k.name.len()).sum::<usize>();
        let mut v = self.clone();
        for (k, name) in v.skills.iter_mut().zip(short) {
            k.name = name;
        }
        if bytes(&v) < bytes(self) {
            out.push(v);
        }
        out
    }

    /// (skills, beats, sum of |numbers|, name bytes): what shrinking lowers.
    #[cfg(test)]
    fn measure(&self) -> (usize, usize, u128, usize) {
        let k = &self.skills;
        (
            k.len(),
            k.iter().map(|s| s.beats.len()).sum(),
            k.iter().map(|s| s.delta.unsigned_abs() as u128 + s.req as u128).sum(),
            k.iter().map(|s| s.name.len()).sum(),
        )
    }
}

/// `a`, `b`, ..., `z`, `ba`, ...: the plainest distinct names.
fn short_name(mut i: usize) -> String {
    let mut s = Vec::new();
    loop {
        s.push(b'a' + (i % 26) as u8);
        i /= 26;
        if i == 0 {
            break;
        }
    }
    s.reverse();
    String::from_utf8(s).expect("ASCII")
}

/// Names as the format allows them: words, CJK, numbers, emoji.
const NAME_POOL: &[&str] = &[
    "集", "小防", "中防", "大防", "小波", "中波", "大波", "黑洞", "1", "-1", "0", "1e3", "0x10",
    "🔥", "🛡️", "💥", "a", "b", "K", "D", "P", "attack", "defend", "charge", "mirror", "x_y",
    "波波", "攒", "%", "!", "->", "++",
];

fn names(rng: &mut Rng, n: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    while out.len() < n {
        let name = if rng.chance(0.5) {
            rng.pick(NAME_POOL).to_string()
        } else {
            let len = rng.range(1, 6);
            (0..len).map(|_| (b'a' + rng.below(26) as u8) as char).collect()
        };
        if !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

/// The knobs of one variant draw.
struct Shape {
    /// Skill count.
    n: (i64, i64),
    /// Largest |delta| and largest base cost.
    scale: i64,
    /// Chance that a spending skill asks more than it costs (无限集).
    infinite: f64,
    /// Chance that a pair of skills has a winner.
    density: f64,
    /// Chance that the cheaper skill of a pair is the one that wins.
    upset: f64,
    /// Plant a 3-cycle in "beats".
    cycle: bool,
}

/// A random variant; at least one req-0 skill that gains (so that play
/// can go on) unless `no_free`.
fn variant(rng: &mut Rng, shape: &Shape, no_free: bool) -> Variant {
    let n = rng.range(shape.n.0, shape.n.1) as usize;
    let names = names(rng, n);
    let mut skills: Vec<Skill> = names
        .into_iter()
        .map(|name| {
            let delta = if rng.chance(0.35) {
                rng.range(0, shape.scale.min(3))
            } else {
                -rng.range(0, shape.scale)
            };
            let mut req = (-delta).max(0);
            if req > 0 && rng.chance(shape.infinite) {
                req += rng.range(1, shape.scale.clamp(1, 3));
            }
            if delta >= 0 && rng.chance(0.2) {
                req = rng.range(0, shape.scale);
            }
            Skill { name, delta, req, beats: Vec::new() }
        })
        .collect();
    if !no_free {
        skills[0].delta = rng.range(1, shape.scale.clamp(1, 3));
        skills[0].req = 0;
    } else {
        for k in &mut skills {
            k.req = k.req.max(1);
        }
    }
    // Beats: the costlier skill usually wins a pair.
    for a in 0..n {
        for b in a + 1..n {
            if rng.chance(shape.density) {
                let a_costlier = skills[a].req >= skills[b].req;
                let (w, l) = if a_costlier != rng.chance(shape.upset) { (a, b) } else { (b, a) };
                skills[w].beats.push(l);
            }
        }
    }
    if shape.cycle && n >= 3 {
        // a beats b beats c beats a, replacing whatever those pairs had.
        let mut three: Vec<usize> = (0..n).collect();
        rng.shuffle(&mut three);
        let (a, b, c) = (three[0], three[1], three[2]);
        for &(x, y) in &[(a, b), (b, c), (c, a)] {
            skills[y].beats.retain(|&z| z != x);
            if !skills[x].beats.contains(&y) {
                skills[x].beats.push(y);
            }
        }
    }
    for k in &mut skills {
        rng.shuffle(&mut k.beats);
    }
    let mut v = Variant { skills };
    // The free skill somewhere in the list, not always first.
    let j = rng.below(n as u64) as usize;
    v.skills.swap(0, j);
    for k in &mut v.skills {
        for b in &mut k.beats {
            *b = if *b == 0 {
                j
            } else if *b == j {
                0
            } else {
                *b
            };
        }
    }
    v
}

const SMALL: Shape =
    Shape { n: (1, 8), scale: 5, infinite: 0.15, density: 0.4, upset: 0.2, cycle: false };

// ------------------------------------------------------------ referee

/// The referee's profiles: every step of [`referee`] matches on them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RefereeKind {
    Random,
    Common,
    Cycles,
    InfiniteJi,
    LargeC,
    LongIllegal,
    MaxRounds,
}

const REFEREE_PROFILES: &[Profile] = &[
    Profile {
        name: "random",
        generate: |rng| referee(RefereeKind::Random, rng).render(),
        about: "1..8 skills, short records (1..60 rounds), sometimes no free skill",
    },
    Profile {
        name: "common",
        generate: |rng| referee(RefereeKind::Common, rng).render(),
        about: "the common variant, records of 1..200 rounds",
    },
    Profile {
        name: "cycles",
        generate: |rng| referee(RefereeKind::Cycles, rng).render(),
        about: "\"beats\" with a planted 3-cycle (not transitive)",
    },
    Profile {
        name: "infinite_ji",
        generate: |rng| referee(RefereeKind::InfiniteJi, rng).render(),
        about: "无限集 skills (req > -delta): legality differs from cost",
    },
    Profile {
        name: "large_c",
        generate: |rng| referee(RefereeKind::LargeC, rng).render(),
        about: "gains up to 1e9 and req up to 1e18: counts beyond 32 bits",
    },
    Profile {
        name: "long_illegal",
        generate: |rng| referee(RefereeKind::LongIllegal, rng).render(),
        about: "records of 1,000..200,000 rounds with an illegal move late in them",
    },
    Profile {
        name: "max_rounds",
        generate: |rng| referee(RefereeKind::MaxRounds, rng).render(),
        about: "r = 200,000 legal rounds where nobody wins: every round is played (the benchmark)",
    },
];

#[derive(Clone, Debug, PartialEq)]
struct Record {
    variant: Variant,
    /// Skill indices of A and B per round.
    rounds: Vec<(usize, usize)>,
}

impl Record {
    fn render(&self) -> String {
        let mut s = String::new();
        self.variant.render(&mut s);
        s.push_str(&format!("{}\n", self.rounds.len()));
        let k = &self.variant.skills;
        for &(a, b) in &self.rounds {
            s.push_str(&k[a].name);
            s.push(' ');
            s.push_str(&k[b].name);
            s.push('\n');
        }
        s
    }

    fn parse(input: &str) -> Option<Record> {
        let mut t = input.split_whitespace();
        let variant = Variant::parse(&mut t)?;
        let r: usize = t.next()?.parse().ok()?;
        if !(1..=200_000).contains(&r) {
            return None;
        }
        let rounds = (0..r)
            .map(|_| Some((variant.index(t.next()?)?, variant.index(t.next()?)?)))
            .collect::<Option<_>>()?;
        t.next().is_none().then_some(Record { variant, rounds })
    }
}

/// A record of `r` rounds. Before round `verdict` both play legal moves:
/// with chance `win` any legal pair, else a pair where nobody wins (if
/// there is one; at or above C spending moves first, so that counts come
/// back to where illegal moves exist), and with chance `slip` anything.
/// In round `verdict` (or the first one after it where a side has an
/// illegal move) one side plays an illegal move; after it, anything.
fn record(
    rng: &mut Rng,
    v: &Variant,
    r: usize,
    mut verdict: usize,
    odds: (f64, f64),
) -> Vec<(usize, usize)> {
    let (win, slip) = odds;
    let n = v.skills.len();
    let cap = v.cap() as i128;
    let mut count = [0i128; 2];
    let mut rounds = Vec::with_capacity(r);
    for t in 1..=r {
        let (la, ia): (Vec<usize>, Vec<usize>) =
            (0..n).partition(|&i| v.skills[i].req as i128 <= count[0]);
        let (lb, ib): (Vec<usize>, Vec<usize>) =
            (0..n).partition(|&i| v.skills[i].req as i128 <= count[1]);
        if t == verdict && ia.is_empty() && ib.is_empty() {
            verdict += 1;
        }
        let any = |rng: &mut Rng| rng.below(n as u64) as usize;
        let mv = if t > verdict || la.is_empty() || lb.is_empty() || rng.chance(slip) {
            (any(rng), any(rng))
        } else if t == verdict {
            let a_wrong = !ia.is_empty() && (ib.is_empty() || rng.chance(0.5));
            if a_wrong {
                (*rng.pick(&ia), *rng.pick(&lb))
            } else {
                (*rng.pick(&la), *rng.pick(&ib))
            }
        } else {
            let thrift = |legal: &[usize], c: i128| -> Vec<usize> {
                let spend: Vec<usize> =
                    legal.iter().copied().filter(|&i| v.skills[i].delta < 0).collect();
                if c >= cap && !spend.is_empty() {
                    spend
                } else {
                    legal.to_vec()
                }
            };
            let quiet_pairs = |pa: &[usize], pb: &[usize]| -> Vec<(usize, usize)> {
                pa.iter()
                    .flat_map(|&a| pb.iter().map(move |&b| (a, b)))
                    .filter(|&(a, b)| !v.beats(a, b) && !v.beats(b, a))
                    .collect()
            };
            let mut quiet = quiet_pairs(&thrift(&la, count[0]), &thrift(&lb, count[1]));
            if quiet.is_empty() {
                quiet = quiet_pairs(&la, &lb);
            }
            if quiet.is_empty() || rng.chance(win) {
                (*rng.pick(&la), *rng.pick(&lb))
            } else {
                *rng.pick(&quiet)
            }
        };
        count[0] += v.skills[mv.0].delta as i128;
        count[1] += v.skills[mv.1].delta as i128;
        rounds.push(mv);
    }
    rounds
}

fn referee(profile: RefereeKind, rng: &mut Rng) -> Record {
    let shape = match profile {
        RefereeKind::Cycles => Shape { n: (3, 8), cycle: true, upset: 0.4, ..SMALL },
        RefereeKind::InfiniteJi => Shape { n: (2, 8), infinite: 0.7, ..SMALL },
        RefereeKind::LargeC => Shape { n: (2, 6), scale: 1_000_000_000, ..SMALL },
        RefereeKind::MaxRounds => Shape { n: (4, 8), ..SMALL },
        RefereeKind::Random | RefereeKind::Common | RefereeKind::LongIllegal => SMALL,
    };
    let no_free = profile == RefereeKind::Random && rng.chance(0.05);
    let mut variant = match profile {
        RefereeKind::Common => Variant::common(),
        RefereeKind::Random
        | RefereeKind::Cycles
        | RefereeKind::InfiniteJi
        | RefereeKind::LargeC
        | RefereeKind::LongIllegal
        | RefereeKind::MaxRounds => variant(rng, &shape, no_free),
    };
    if profile == RefereeKind::LargeC {
        // A few requirements up to 1e18, and gains of 1e9 per round.
        for k in &mut variant.skills {
            if k.req > 0 && rng.chance(0.3) {
                k.req = rng.range(k.req, 1_000_000_000_000_000_000);
            }
        }
        for k in &mut variant.skills {
            if k.req == 0 {
                k.delta = rng.range(1, 1_000_000_000);
            }
        }
    }
    // Rounds, the round of the planted illegal move (past the end: none),
    // and the odds of a winning pair and of a random move per round.
    let (r, verdict, odds) = match profile {
        RefereeKind::LongIllegal => {
            let r = if rng.chance(0.2) { 200_000 } else { rng.range(1000, 20_000) };
            (r as usize, rng.range(r / 2, r) as usize, (0.0, 0.0))
        }
        RefereeKind::MaxRounds => (200_000, 200_001, (0.0, 0.0)),
        RefereeKind::Random
        | RefereeKind::Common
        | RefereeKind::Cycles
        | RefereeKind::InfiniteJi
        | RefereeKind::LargeC => {
            let r = match profile {
                RefereeKind::Common => rng.range(1, 200),
                RefereeKind::LargeC => rng.range(1, 2000),
                RefereeKind::Random
                | RefereeKind::Cycles
                | RefereeKind::InfiniteJi
                | RefereeKind::LongIllegal
                | RefereeKind::MaxRounds => rng.range(1, 60),
            };
            (r as usize, rng.range(1, 2 * r) as usize, (0.05, 0.01))
        }
    };
    let rounds = record(rng, &variant, r, verdict, odds);
    Record { variant, rounds }
}

#[cfg(test)]
fn record_measure(r: &Record) -> (usize, usize, (usize, usize, u128, usize)) {
    let m = r.variant.measure();
    (m.0, r.rounds.len(), (0, m.1, m.2, m.3))
}

fn shrink_record(r: &Record) -> Vec<Record> {
    let mut out = Vec::new();
    let len = r.rounds.len();
    // Fewer rounds first (the verdict is usually early): keep a prefix.
    let mut keep = len / 2;
    while keep >= 1 {
        out.push(Record { variant: r.variant.clone(), rounds: r.rounds[..keep].to_vec() });
        keep /= 2;
    }
    if len > 1 {
        out.push(Record { variant: r.variant.clone(), rounds: r.rounds[..len - 1].to_vec() });
        // Then drop chunks of rounds anywhere: halves ... single rounds on
        // short records, only halves and quarters on long ones (each
        // candidate is a whole copy of the record).
        let smallest = if len <= 400 { 1 } else { len / 4 };
        let mut chunk = len / 2;
        while chunk >= smallest.max(1) {
            let mut start = 0;
            while start < len {
                let end = (start + chunk).min(len);
                if end - start < len {
                    let mut s = r.clone();
                    s.rounds.drain(start..end);
                    out.push(s);
                }
                start = end;
            }
            chunk /= 2;
        }
    }
    // Fewer skills: the rounds that used the skill go too, or, if that
    // leaves none, its moves become moves of another skill.
    let n = r.variant.skills.len();
    for i in (0..n).rev() {
        if n == 1 {
            break;
        }
        let fix = |x: usize| if x > i { x - 1 } else { x };
        let mut rounds: Vec<(usize, usize)> = r
            .rounds
            .iter()
            .filter(|&&(a, b)| a != i && b != i)
            .map(|&(a, b)| (fix(a), fix(b)))
            .collect();
        if rounds.is_empty() {
            let other = |x: usize| if x == i { 0 } else { fix(x) };
            rounds = r.rounds.iter().map(|&(a, b)| (other(a), other(b))).collect();
        }
        out.push(Record { variant: r.variant.without(i), rounds });
    }
    for variant in r.variant.simpler() {
        out.push(Record { variant, rounds: r.rounds.clone() });
    }
    out
}

impl Problem for JiReferee {
    fn name(&self) -> &'static str {
        "ji_referee"
    }

    fn profiles(&self) -> &'static [Profile] {
        REFEREE_PROFILES
    }

    fn shrink(&self, input: &str) -> Vec<String> {
        match Record::parse(input) {
            Some(r) => shrink_record(&r).iter().map(Record::render).collect(),
            None => Vec::new(),
        }
    }

    /// `kit show`: the record round by round ([`crate::show::ji`]).
    fn page(&self, input: &[u8], solver: &Path, title: &str, page: &mut dyn Write) -> Result<()> {
        crate::show::ji::referee_page(input, solver, title, page)
    }
}

// ------------------------------------------------------------- solver

/// The solver's profiles: every step of [`solver`] matches on them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SolverKind {
    Random,
    Common,
    Cycles,
    InfiniteJi,
    LargeC,
    RoundLimits,
    DrawProb,
    Unlimited,
}

const SOLVER_PROFILES: &[Profile] = &[
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
struct Solve {
    variant: Variant,
    rounds: u64,
    /// The draw probability as written (a decimal).
    p: String,
    queries: Vec<(i64, i64)>,
}

impl Solve {
    fn render(&self) -> String {
        let mut s = String::new();
        self.variant.render(&mut s);
        s.push_str(&format!("{} {}\n{}\n", self.rounds, self.p, self.queries.len()));
        for (x, y) in &self.queries {
            s.push_str(&format!("{x} {y}\n"));
        }
        s
    }

    fn parse(input: &str) -> Option<Solve> {
        let mut t = input.split_whitespace();
        let variant = Variant::parse(&mut t)?;
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
fn draw_probability(rng: &mut Rng) -> String {
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

fn p_value(p: &str) -> f64 {
    p.parse().unwrap_or(0.0)
}

/// An unlimited 无限集 game with little chance of a draw, which can take
/// our solver seconds (and exit 3): the generator and shrinker avoid it.
fn slow(s: &Solve) -> bool {
    s.rounds == 0 && p_value(&s.p) < 1.0 && s.variant.infinite()
}

fn solver(profile: SolverKind, rng: &mut Rng) -> Solve {
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
fn solve_measure(s: &Solve) -> (usize, usize, (usize, u128, u64, usize, usize, i64)) {
    let m = s.variant.measure();
    let p = s.p.len() * 2 + (p_value(&s.p) != 0.0) as usize;
    let counts = s.queries.iter().map(|&(x, y)| x + y).sum();
    (m.0, s.queries.len(), (m.1, m.2, s.rounds, p, m.3, counts))
}

/// `s` with its queries clamped to the variant's C (after a change of it).
fn clamped(mut s: Solve) -> Solve {
    let cap = s.variant.cap();
    for q in &mut s.queries {
        *q = (q.0.min(cap), q.1.min(cap));
    }
    s
}

fn shrink_solve(s: &Solve) -> Vec<Solve> {
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

    /// `kit show`: the value table ([`crate::show::ji`]).
    fn page(&self, input: &[u8], solver: &Path, title: &str, page: &mut dyn Write) -> Result<()> {
        crate::show::ji::solver_page(input, solver, title, page)
    }
}

#[cfg(test)]
mod tests {
    use super::super::strict_lines;
    use super::*;

    /// The kit's copy of the common variant is byte for byte the
    /// repository's one definition (the file our 集 programs' tests read).
    #[test]
    fn the_common_variant_is_the_one_definition() {
        let mut text = String::new();
        Variant::common().render(&mut text);
        assert_eq!(text, include_str!("../../../tests/data/ji_variant/common.txt"));
    }

    /// The variant's lines: `n`, then n lines of 4 + k tokens. Returns the
    /// line index after the variant.
    fn check_variant(lines: &[&str]) -> usize {
        let n: usize = lines[0].parse().unwrap();
        for line in &lines[1..=n] {
            let t: Vec<&str> = line.split(' ').collect();
            let k: usize = t[3].parse().unwrap();
            assert_eq!(t.len(), 4 + k, "{line}");
            assert!(t[0].len() <= 32);
            let (delta, req): (i64, i64) = (t[1].parse().unwrap(), t[2].parse().unwrap());
            assert!(req >= 0 && req >= -delta, "{line}");
        }
        n + 1
    }

    fn check_referee(text: &str) -> Record {
        let lines = strict_lines(text);
        let i = check_variant(&lines);
        let r: usize = lines[i].parse().unwrap();
        assert_eq!(lines.len(), i + 1 + r);
        assert!(lines[i + 1..].iter().all(|l| l.split(' ').count() == 2));
        let rec = Record::parse(text).expect("valid record");
        assert_eq!(rec.render(), text);
        rec
    }

    fn check_solver(text: &str) -> Solve {
        let lines = strict_lines(text);
        let i = check_variant(&lines);
        assert_eq!(lines[i].split(' ').count(), 2);
        let q: usize = lines[i + 1].parse().unwrap();
        assert_eq!(lines.len(), i + 2 + q);
        assert!(lines[i + 2..].iter().all(|l| l.split(' ').count() == 2));
        let s = Solve::parse(text).expect("valid solver input");
        assert_eq!(s.render(), text);
        s
    }

    #[test]
    fn same_seed_same_bytes_and_strict_format() {
        for p in REFEREE_PROFILES {
            // Records of up to 200,000 rounds: a few seeds are enough.
            let long = p.name.starts_with("long") || p.name.starts_with("max");
            for seed in 0..if long { 3 } else { 20 } {
                let a = JiReferee.generate(p.name, &mut Rng::new(seed)).unwrap();
                assert_eq!(a, JiReferee.generate(p.name, &mut Rng::new(seed)).unwrap());
                check_referee(&a);
            }
        }
        for p in SOLVER_PROFILES {
            for seed in 0..30 {
                let a = JiSolver.generate(p.name, &mut Rng::new(seed)).unwrap();
                assert_eq!(a, JiSolver.generate(p.name, &mut Rng::new(seed)).unwrap());
                let s = check_solver(&a);
                assert!(s.variant.cap() <= 1000 && s.variant.skills.len() <= 64);
            }
        }
    }

    #[test]
    fn the_common_variant_is_the_readme_one() {
        let mut s = String::new();
        Variant::common().render(&mut s);
        assert!(s.starts_with("8\n集 1 0 0\n小防 0 0 0\n"));
        assert!(s.ends_with("\n黑洞 -5 5 7 集 小波 小防 中波 中防 大波 大防\n"));
    }

    #[test]
    fn profiles_have_their_corners() {
        for seed in 0..30 {
            let v = referee(RefereeKind::Cycles, &mut Rng::new(seed)).variant;
            let n = v.skills.len();
            let cycle = (0..n).any(|a| {
                (0..n).any(|b| (0..n).any(|c| v.beats(a, b) && v.beats(b, c) && v.beats(c, a)))
            });
            assert!(cycle, "seed {seed}");
            let r = referee(RefereeKind::LargeC, &mut Rng::new(seed)).variant;
            assert!(r.skills.iter().any(|k| k.delta >= 1 && k.req == 0));
            let s = solver(SolverKind::RoundLimits, &mut Rng::new(seed));
            assert!((1..=1000).contains(&s.rounds) && s.p == "0");
            let c = solver(SolverKind::LargeC, &mut Rng::new(seed)).variant.cap();
            assert!((40..=200).contains(&c));
        }
        let infinite = (0..30).any(|seed| {
            let v = solver(SolverKind::InfiniteJi, &mut Rng::new(seed)).variant;
            v.skills.iter().any(|k| k.delta < 0 && k.req > -k.delta)
        });
        assert!(infinite);
    }

    #[test]
    fn max_rounds_plays_every_round() {
        for seed in 0..2 {
            let rec = referee(RefereeKind::MaxRounds, &mut Rng::new(seed));
            assert_eq!(rec.rounds.len(), 200_000);
            let v = &rec.variant;
            let mut count = [0i128; 2];
            for &(a, b) in &rec.rounds {
                assert!(v.skills[a].req as i128 <= count[0]);
                assert!(v.skills[b].req as i128 <= count[1]);
                assert!(!v.beats(a, b) && !v.beats(b, a));
                count[0] += v.skills[a].delta as i128;
                count[1] += v.skills[b].delta as i128;
            }
        }
    }

    #[test]
    fn shrink_candidates_are_valid_and_smaller() {
        for p in REFEREE_PROFILES
            .iter()
            .filter(|p| !p.name.starts_with("long") && !p.name.starts_with("max"))
        {
            for seed in 0..5 {
                let text = JiReferee.generate(p.name, &mut Rng::new(seed)).unwrap();
                let m = record_measure(&Record::parse(&text).unwrap());
                for c in JiReferee.shrink(&text) {
                    assert!(record_measure(&check_referee(&c)) < m, "{c}");
                }
            }
        }
        for p in SOLVER_PROFILES {
            for seed in 0..5 {
                let text = JiSolver.generate(p.name, &mut Rng::new(seed)).unwrap();
                let m = solve_measure(&Solve::parse(&text).unwrap());
                for c in JiSolver.shrink(&text) {
                    assert!(solve_measure(&check_solver(&c)) < m, "{c}");
                }
            }
        }
    }

    #[test]
    fn shrinking_reaches_one_skill() {
        let mut text = JiReferee.generate("common", &mut Rng::new(1)).unwrap();
        while let Some(next) = JiReferee.shrink(&text).into_iter().next() {
            text = next;
        }
        assert_eq!(text, "1\na 0 0 0\n1\na a\n");
        let mut text = JiSolver.generate("cycles", &mut Rng::new(1)).unwrap();
        while let Some(next) = JiSolver.shrink(&text).into_iter().next() {
            text = next;
        }
        let s = Solve::parse(&text).unwrap();
        assert_eq!((s.variant.skills.len(), s.queries.len()), (1, 1));
    }
}
