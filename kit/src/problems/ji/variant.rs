//! A 集 variant as kit's generators and shrinkers hold it: the skills and
//! who beats whom, the common variant, the text both ways (`n`, then n
//! lines `name delta req k beaten_1 .. beaten_k`), and the simpler variants
//! a shrinker tries.

#[derive(Clone, Debug, PartialEq)]
pub(super) struct Skill {
    pub(super) name: String,
    pub(super) delta: i64,
    pub(super) req: i64,
    /// Indices of the skills this one beats.
    pub(super) beats: Vec<usize>,
}

#[derive(Clone, Debug, PartialEq)]
pub(super) struct Variant {
    pub(super) skills: Vec<Skill>,
}

/// The common variant (README): name, delta, req, beaten names.
pub(super) const COMMON: [(&str, i64, i64, &[&str]); 8] = [
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
    pub(super) fn common() -> Variant {
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

    pub(super) fn index(&self, name: &str) -> Option<usize> {
        self.skills.iter().position(|k| k.name == name)
    }

    /// The variant without skill `i` (and every mention of it).
    pub(super) fn without(&self, i: usize) -> Variant {
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
    pub(super) fn parse<'a>(t: &mut impl Iterator<Item = &'a str>) -> Option<Variant> {
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
    pub(super) fn simpler(&self) -> Vec<Variant> {
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
    pub(super) fn measure(&self) -> (usize, usize, u128, usize) {
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
