//! A 集 variant as kit's generators and shrinkers hold it: the skills, who
//! beats whom (each list in its written order), the lasting effects, the
//! common variant, the text both ways (`n`, then n lines `name delta req k
//! beaten_1 .. beaten_k`, then maybe `lasting m` and m effects) and the
//! simpler variants a shrinker tries. Texts are read by the 集 format's one
//! reader ([`crate::ji::read_variant`]).

pub(super) use crate::ji::Effect;
use crate::ji::{effects, lost_sets, read_variant};

#[derive(Clone, Debug, PartialEq)]
pub(super) struct Skill {
    pub(super) name: String,
    pub(super) delta: i64,
    pub(super) req: i64,
    /// Indices of the skills this one beats.
    pub(super) beats: Vec<usize>,
}

/// The most lost sets per side kit lists to check a query's losses (m
/// effects can make 2^m): kit's generators make at most 4; an input with
/// more and a query that names a loss is not one kit shrinks.
pub(super) const MOST_LOST_SETS: usize = 64;

#[derive(Clone, Debug, PartialEq)]
pub(super) struct Variant {
    pub(super) skills: Vec<Skill>,
    /// The `lasting` section's records (none: no section).
    pub(super) lasting: Vec<Effect>,
}

/// The common variant: its one definition, the text every 集 program's
/// tests read.
const COMMON: &str = include_str!("../../../../tests/data/ji_variant/common.txt");

impl Variant {
    pub(super) fn common() -> Variant {
        Variant::read(COMMON).expect("the common variant is valid").0
    }

    /// Reads the variant that opens `input`; `None` if the 集 format's
    /// reader refuses it. The tokens after it come with it.
    pub(super) fn read(input: &str) -> Option<(Variant, impl Iterator<Item = &str>)> {
        let (v, mut lx) = read_variant(input.as_bytes()).ok()?;
        let id = |x: &u32| *x as usize;
        let skills = (v.skills.iter())
            .map(|s| Skill {
                name: String::from_utf8_lossy(s.name).into_owned(),
                delta: s.delta,
                req: s.req,
                beats: s.beaten.iter().map(id).collect(),
            })
            .collect();
        let lasting = effects(&v);
        let rest = std::iter::from_fn(move || lx.next())
            .map(|t| std::str::from_utf8(t.text).unwrap_or(""));
        Some((Variant { skills, lasting }, rest))
    }

    pub(super) fn render(&self, s: &mut String) {
        s.push_str(&format!("{}\n", self.skills.len()));
        for k in &self.skills {
            s.push_str(&format!("{} {} {} {}", k.name, k.delta, k.req, k.beats.len()));
            for &b in &k.beats {
                s.push(' ');
                s.push_str(&self.skills[b].name);
            }
            s.push('\n');
        }
        if !self.lasting.is_empty() {
            s.push_str(&format!("lasting {}\n", self.lasting.len()));
        }
        for e in &self.lasting {
            s.push_str(&self.skills[e.skill].name);
            for list in [&e.met, &e.taken] {
                s.push_str(&format!(" {}", list.len()));
                for &x in list {
                    s.push(' ');
                    s.push_str(&self.skills[x].name);
                }
            }
            s.push('\n');
        }
    }

    /// Some skill asks more than it costs (无限集: req > max(0, -delta)).
    pub(super) fn infinite(&self) -> bool {
        self.skills.iter().any(|k| k.req > (-k.delta).max(0))
    }

    /// C, the largest req.
    pub(super) fn cap(&self) -> i64 {
        self.skills.iter().map(|k| k.req).max().unwrap_or(0)
    }

    pub(super) fn beats(&self, a: usize, b: usize) -> bool {
        self.skills[a].beats.contains(&b)
    }

    /// What skill `x` takes from the opponent when it meets `met` in a
    /// round that goes on (empty: nothing).
    pub(super) fn takes(&self, x: usize, met: usize) -> impl Iterator<Item = usize> + '_ {
        let effect = self.lasting.iter().find(|e| e.skill == x && e.met.contains(&met));
        effect.into_iter().flat_map(|e| e.taken.iter().copied())
    }

    /// The sets of skills a side can have lost (the unions of the taken
    /// lists, ascending ids, the empty set first); `None` past
    /// [`MOST_LOST_SETS`].
    pub(super) fn lost_sets(&self) -> Option<Vec<Vec<usize>>> {
        lost_sets(self.lasting.iter().map(|e| e.taken.as_slice()), MOST_LOST_SETS)
    }

    pub(super) fn index(&self, name: &str) -> Option<usize> {
        self.skills.iter().position(|k| k.name == name)
    }

    /// The variant without skill `i` (and every mention of it).
    pub(super) fn without(&self, i: usize) -> Variant {
        let mut v = self.clone();
        v.skills.remove(i);
        let fix = |list: &mut Vec<usize>| {
            list.retain(|&b| b != i);
            for b in list {
                if *b > i {
                    *b -= 1;
                }
            }
        };
        for k in &mut v.skills {
            fix(&mut k.beats);
        }
        // An effect of the skill goes; one that meets or takes only it too.
        v.lasting.retain(|e| e.skill != i);
        for e in &mut v.lasting {
            e.skill -= usize::from(e.skill > i);
            fix(&mut e.met);
            fix(&mut e.taken);
        }
        v.lasting.retain(|e| !e.met.is_empty() && !e.taken.is_empty());
        v
    }

    /// Candidates with fewer beats, smaller numbers and shorter names, in
    /// that order (fewer skills are the caller's: it must fix the rest of
    /// the input).
    pub(super) fn simpler(&self) -> Vec<Variant> {
        let mut out = self.fewer_effects();
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

    /// Candidates with fewer lasting effects, then effects that meet or
    /// take fewer skills (a list never empty: the section stays valid).
    fn fewer_effects(&self) -> Vec<Variant> {
        let mut out = Vec::new();
        for e in 0..self.lasting.len() {
            let mut v = self.clone();
            v.lasting.remove(e);
            out.push(v);
        }
        for (e, effect) in self.lasting.iter().enumerate() {
            for j in 0..effect.met.len() * usize::from(effect.met.len() > 1) {
                let mut v = self.clone();
                v.lasting[e].met.remove(j);
                out.push(v);
            }
            for j in 0..effect.taken.len() * usize::from(effect.taken.len() > 1) {
                let mut v = self.clone();
                v.lasting[e].taken.remove(j);
                out.push(v);
            }
        }
        out
    }

    /// (skills, beats and lasting names, sum of |numbers|, name bytes):
    /// what shrinking lowers.
    #[cfg(test)]
    pub(super) fn measure(&self) -> (usize, usize, u128, usize) {
        let k = &self.skills;
        let lasting: usize = self.lasting.iter().map(|e| 1 + e.met.len() + e.taken.len()).sum();
        (
            k.len(),
            k.iter().map(|s| s.beats.len()).sum::<usize>() + lasting,
            k.iter().map(|s| s.delta.unsigned_abs() as u128 + s.req as u128).sum(),
            k.iter().map(|s| s.name.len()).sum(),
        )
    }
}

/// `a`, `b`, ..., `z`, `ba`, ...: the plainest distinct names.
pub(super) fn short_name(mut i: usize) -> String {
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
