//! `ji_referee`: its input (a variant, `r`, then r lines `x y`), its
//! profiles and their generator, its shrinker, its page.

use super::random::{add_lasting, variant, Shape, SMALL};
use super::variant::Variant;
use crate::error::Result;
use crate::problems::{Problem, Profile, Shrinkable};
use crate::rng::Rng;
use std::io::Write;
use std::path::Path;

pub struct JiReferee;

/// The referee's profiles: every step of [`referee`] matches on them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum RefereeKind {
    Random,
    Common,
    Cycles,
    InfiniteJi,
    LargeC,
    LongIllegal,
    MaxRounds,
    Lasting,
}

pub(super) const REFEREE_PROFILES: &[Profile] = &[
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
    Profile {
        name: "lasting",
        generate: |rng| referee(RefereeKind::Lasting, rng).render(),
        about: "1..3 lasting effects (mostly breakthroughs): skills lost, then played",
    },
];

#[derive(Clone, Debug, PartialEq)]
pub(super) struct Record {
    pub(super) variant: Variant,
    /// Skill indices of A and B per round.
    pub(super) rounds: Vec<(usize, usize)>,
}

impl Record {
    pub(super) fn render(&self) -> String {
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

    pub(super) fn parse(input: &str) -> Option<Record> {
        let (variant, mut t) = Variant::read(input)?;
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
pub(super) fn record(
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
    // The skills each side has lost to lasting effects: illegal as a
    // skill without its 集 is.
    let mut lost = [vec![false; n], vec![false; n]];
    let mut rounds = Vec::with_capacity(r);
    for t in 1..=r {
        let legal =
            |side: usize, i: usize| v.skills[i].req as i128 <= count[side] && !lost[side][i];
        let (la, ia): (Vec<usize>, Vec<usize>) = (0..n).partition(|&i| legal(0, i));
        let (lb, ib): (Vec<usize>, Vec<usize>) = (0..n).partition(|&i| legal(1, i));
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
        let goes_on =
            legal(0, mv.0) && legal(1, mv.1) && !v.beats(mv.0, mv.1) && !v.beats(mv.1, mv.0);
        count[0] += v.skills[mv.0].delta as i128;
        count[1] += v.skills[mv.1].delta as i128;
        if goes_on {
            for z in v.takes(mv.0, mv.1) {
                lost[1][z] = true;
            }
            for z in v.takes(mv.1, mv.0) {
                lost[0][z] = true;
            }
        }
        rounds.push(mv);
    }
    rounds
}

pub(super) fn referee(profile: RefereeKind, rng: &mut Rng) -> Record {
    let shape = match profile {
        RefereeKind::Cycles => Shape { n: (3, 8), cycle: true, upset: 0.4, ..SMALL },
        RefereeKind::InfiniteJi => Shape { n: (2, 8), infinite: 0.7, ..SMALL },
        RefereeKind::LargeC => Shape { n: (2, 6), scale: 1_000_000_000, ..SMALL },
        RefereeKind::MaxRounds => Shape { n: (4, 8), ..SMALL },
        RefereeKind::Lasting => Shape { n: (2, 6), ..SMALL },
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
        | RefereeKind::MaxRounds
        | RefereeKind::Lasting => variant(rng, &shape, no_free),
    };
    if profile == RefereeKind::Lasting {
        add_lasting(rng, &mut variant, 3);
    }
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
        | RefereeKind::LargeC
        | RefereeKind::Lasting => {
            let r = match profile {
                RefereeKind::Common => rng.range(1, 200),
                RefereeKind::LargeC => rng.range(1, 2000),
                RefereeKind::Random
                | RefereeKind::Cycles
                | RefereeKind::InfiniteJi
                | RefereeKind::LongIllegal
                | RefereeKind::MaxRounds
                | RefereeKind::Lasting => rng.range(1, 60),
            };
            (r as usize, rng.range(1, 2 * r) as usize, (0.05, 0.01))
        }
    };
    let rounds = record(rng, &variant, r, verdict, odds);
    Record { variant, rounds }
}

#[cfg(test)]
pub(super) fn record_measure(r: &Record) -> (usize, usize, (usize, usize, u128, usize)) {
    let m = r.variant.measure();
    (m.0, r.rounds.len(), (0, m.1, m.2, m.3))
}

/// The shrinker's steps, most promising first: fewer rounds (prefixes,
/// then chunks anywhere), fewer skills, then a simpler variant.
impl Shrinkable for Record {
    const STEPS: &'static [fn(&Record) -> Vec<Record>] =
        &[fewer_rounds, fewer_skills, simpler_variants];

    fn parse(text: &str) -> Option<Record> {
        Record::parse(text)
    }

    fn render(&self) -> String {
        Record::render(self)
    }
}

/// Fewer rounds first (the verdict is usually early): prefixes, then
/// chunks of rounds dropped anywhere.
fn fewer_rounds(r: &Record) -> Vec<Record> {
    let mut out = Vec::new();
    let len = r.rounds.len();
    let mut keep = len / 2;
    while keep >= 1 {
        out.push(Record { variant: r.variant.clone(), rounds: r.rounds[..keep].to_vec() });
        keep /= 2;
    }
    if len > 1 {
        out.push(Record { variant: r.variant.clone(), rounds: r.rounds[..len - 1].to_vec() });
        // Halves ... single rounds on short records, only halves and
        // quarters on long ones (each candidate is a whole copy of the
        // record).
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
    out
}

/// Fewer skills: the rounds that used the skill go too, or, if that
/// leaves none, its moves become moves of another skill.
fn fewer_skills(r: &Record) -> Vec<Record> {
    let mut out = Vec::new();
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
    out
}

/// The same rounds in each simpler variant ([`Variant::simpler`]).
fn simpler_variants(r: &Record) -> Vec<Record> {
    r.variant
        .simpler()
        .into_iter()
        .map(|variant| Record { variant, rounds: r.rounds.clone() })
        .collect()
}

impl Problem for JiReferee {
    fn name(&self) -> &'static str {
        "ji_referee"
    }

    fn profiles(&self) -> &'static [Profile] {
        REFEREE_PROFILES
    }

    fn shrink(&self, input: &str) -> Vec<String> {
        crate::problems::shrink::<Record>(input)
    }

    /// `kit show`: the record round by round ([`crate::pages::ji`]).
    fn page(&self, input: &[u8], solver: &Path, title: &str, page: &mut dyn Write) -> Result<()> {
        crate::pages::ji::referee_page(input, solver, title, page)
    }
}
