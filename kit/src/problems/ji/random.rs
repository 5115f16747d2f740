//! Random variants: the names a variant may use and the knobs of a draw,
//! shared by both 集 problems' generators.

use super::variant::{Effect, Skill, Variant};
use crate::rng::Rng;

/// Names as the format allows them: words, CJK, numbers, emoji.
pub(super) const NAME_POOL: &[&str] = &[
    "集", "小防", "中防", "大防", "小波", "中波", "大波", "黑洞", "1", "-1", "0", "1e3", "0x10",
    "🔥", "🛡️", "💥", "a", "b", "K", "D", "P", "attack", "defend", "charge", "mirror", "x_y",
    "波波", "攒", "%", "!", "->", "++",
];

pub(super) fn names(rng: &mut Rng, n: usize) -> Vec<String> {
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
pub(super) struct Shape {
    /// Skill count.
    pub(super) n: (i64, i64),
    /// Largest |delta| and largest base cost.
    pub(super) scale: i64,
    /// Chance that a spending skill asks more than it costs (无限集).
    pub(super) infinite: f64,
    /// Chance that a pair of skills has a winner.
    pub(super) density: f64,
    /// Chance that the cheaper skill of a pair is the one that wins.
    pub(super) upset: f64,
    /// Plant a 3-cycle in "beats".
    pub(super) cycle: bool,
}

/// A random variant; at least one req-0 skill that gains (so that play
/// can go on) unless `no_free`.
pub(super) fn variant(rng: &mut Rng, shape: &Shape, no_free: bool) -> Variant {
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
    let mut v = Variant { skills, lasting: Vec::new() };
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

pub(super) const SMALL: Shape =
    Shape { n: (1, 8), scale: 5, infinite: 0.15, density: 0.4, upset: 0.2, cycle: false };

/// Adds 1..=`most` lasting effects to `v`, valid by construction: a record's
/// skill meets only skills it neither beats nor is beaten by, each (skill,
/// met) pair once, taken lists without repeats. Most are breakthroughs
/// (the effect takes the skill it meets, as a breakthrough takes the
/// defence); the others take any few skills.
pub(super) fn add_lasting(rng: &mut Rng, v: &mut Variant, most: i64) {
    let n = v.skills.len();
    for _ in 0..rng.range(1, most) {
        let skill = rng.index(n);
        let listed = |v: &Variant, y: usize| {
            v.lasting.iter().any(|e| e.skill == skill && e.met.contains(&y))
        };
        let mut free: Vec<usize> =
            (0..n).filter(|&y| !v.beats(skill, y) && !v.beats(y, skill) && !listed(v, y)).collect();
        if free.is_empty() {
            continue;
        }
        rng.shuffle(&mut free);
        let (met, taken) = if rng.chance(0.6) {
            (vec![free[0]], vec![free[0]])
        } else {
            let mut all: Vec<usize> = (0..n).collect();
            rng.shuffle(&mut all);
            let met = free[..rng.range(1, free.len().min(3) as i64) as usize].to_vec();
            (met, all[..rng.range(1, n.min(3) as i64) as usize].to_vec())
        };
        // A record right after one of the same skill and taken list would
        // read back as one record: write it as one.
        match v.lasting.last_mut() {
            Some(last) if last.skill == skill && last.taken == taken => last.met.extend(met),
            _ => v.lasting.push(Effect { skill, met, taken }),
        }
    }
}
