//! The variant as the trainer holds it: skills with owned names, the
//! "beats" relation and the lasting effects as bit masks, read by the
//! shared reader (`format`), with the trainer's own capacity limits; and
//! the pairs of lost sets that lasting effects can produce.

use std::path::Path;

use crate::failure::{unreadable_file, BadLine, Failure};
use crate::format;
use crate::show::show;

/// At most this many skills: the stage games grow with n², and a move set
/// is a `u64` bit mask.
pub const MAX_SKILLS: usize = 32;
/// At most this C (the largest req): the tables and linear systems grow
/// with (C + 1)² states, and `e` solves a dense system over them.
pub const MAX_CAP: i64 = 30;
/// At most this many states in the AI's table: (C + 1)² pairs of counts
/// times the pairs of lost sets (one pair without lasting effects). Every
/// command sweeps every state: a generation of training costs about 0.2 ms
/// of CPU a state with lasting effects (the showcase variant's 2,304: 0.45
/// s; 4,096: 0.9 s; bench/RESULTS.md), so a generation stays under a
/// second.
pub const MAX_STATES: usize = 4096;

/// The common variant (the seed's table), the default.
pub const COMMON_VARIANT: &str = include_str!("../../../tests/data/ji_variant/common.txt");

/// A skill (技能): changes its user's 集 by `delta`, needs `req` 集.
#[derive(Clone, Debug, PartialEq)]
pub struct Skill {
    pub name: String,
    pub delta: i64,
    pub req: i64,
}

/// A variant (变体): the skills, the "beats" (强于) relation and the
/// lasting effects.
#[derive(Clone, Debug, PartialEq)]
pub struct Variant {
    pub skills: Vec<Skill>,
    /// `beats[x]` has bit y set when skill x beats skill y.
    pub beats: Vec<u64>,
    /// `takes[x * n + y]`: the skills x takes from the opponent for the
    /// rest of the game when it meets y in a round that goes on (all 0
    /// without a `lasting` section).
    pub takes: Vec<u64>,
    /// The pairs of lost sets play can produce, nothing lost first
    /// (`reachable_losses`); one pair without lasting effects.
    pub losses: Vec<Losses>,
}

/// The skills each side has lost to lasting effects (bit x: skill x),
/// seen from one side: its own, then its opponent's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Losses {
    pub own: u64,
    pub opp: u64,
}

impl Losses {
    /// Nothing lost.
    pub const NONE: Losses = Losses { own: 0, opp: 0 };

    /// The same losses seen from the other side.
    pub fn swapped(self) -> Losses {
        Losses { own: self.opp, opp: self.own }
    }
}

/// The positions of the set bits of `mask` (a set of skills), lowest first.
pub fn bits(mask: u64) -> impl Iterator<Item = usize> {
    (0..64).filter(move |&i| mask >> i & 1 == 1)
}

impl Variant {
    pub fn skill_line(&self, x: usize) -> String {
        let s = &self.skills[x];
        let beaten = bits(self.beats[x]).map(|y| format!(" {}", self.skills[y].name));
        let k = self.beats[x].count_ones();
        format!("{} {} {} {k}", s.name, s.delta, s.req) + &beaten.collect::<String>()
    }

    /// Whether the variant has lasting effects (a `lasting` section).
    pub fn lasting(&self) -> bool {
        self.takes.iter().any(|&t| t != 0)
    }

    /// What skill `x` takes from the opponent when it meets `y` in a round
    /// that goes on.
    pub fn takes(&self, x: usize, y: usize) -> u64 {
        self.takes[x * self.skills.len() + y]
    }

    /// The `lasting` section's records, one per (skill, met) pair that
    /// takes something, in variant order (the taken names too).
    pub fn lasting_lines(&self) -> Vec<String> {
        let n = self.skills.len();
        let name = |x: usize| &self.skills[x].name;
        let mut lines = Vec::new();
        for x in 0..n {
            for y in (0..n).filter(|&y| self.takes(x, y) != 0) {
                let t = self.takes(x, y);
                let taken: String = bits(t).map(|z| format!(" {}", name(z))).collect();
                lines.push(format!("{} 1 {} {}{taken}", name(x), name(y), t.count_ones()));
            }
        }
        lines
    }

    /// The variant in the format (`lasting` section included), as the
    /// archive stores it.
    pub fn text(&self) -> String {
        let lines = (0..self.skills.len()).map(|x| self.skill_line(x) + "\n");
        let mut text = format!("{}\n", self.skills.len()) + &lines.collect::<String>();
        let lasting = self.lasting_lines();
        if !lasting.is_empty() {
            text += &format!("lasting {}\n", lasting.len());
            text.extend(lasting.iter().map(|l| l.clone() + "\n"));
        }
        text
    }

    /// The pairs of lost sets play can produce from nothing lost, breadth
    /// first (so nothing lost comes first), at most `most` of them (`None`
    /// beyond). A round where one side plays x and the other y, both not
    /// lost, neither beating the other, adds what y takes meeting x to the
    /// first side's set and what x takes meeting y to the other's. 集 is not
    /// followed: a pair that needs a skill no count reaches is built too, as
    /// the table has count pairs that play never reaches. So every pair a
    /// real game (uncapped counts) can reach is here. The set is symmetric:
    /// a pair's swap is reached by the swapped play.
    pub fn reachable_losses(&self, most: usize) -> Option<Vec<Losses>> {
        let n = self.skills.len();
        let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        // The rounds that take something: (x, y) played, neither beating.
        let taking: Vec<(usize, usize)> = (0..n)
            .flat_map(|x| (0..n).map(move |y| (x, y)))
            .filter(|&(x, y)| self.takes(x, y) | self.takes(y, x) != 0)
            .filter(|&(x, y)| self.beats[x] >> y & 1 == 0 && self.beats[y] >> x & 1 == 0)
            .collect();
        let mut found = vec![Losses::NONE];
        let mut seen: std::collections::HashSet<Losses> = found.iter().copied().collect();
        let mut next = 0;
        while next < found.len() {
            let l = found[next];
            next += 1;
            let free = |x: usize, lost: u64| (all & !lost) >> x & 1 == 1;
            for &(x, y) in taking.iter().filter(|&&(x, y)| free(x, l.own) && free(y, l.opp)) {
                let after = Losses { own: l.own | self.takes(y, x), opp: l.opp | self.takes(x, y) };
                if seen.insert(after) {
                    found.push(after);
                    if found.len() > most {
                        return None;
                    }
                }
            }
        }
        Some(found)
    }
}

/// Parses a variant (module `format`), then checks the trainer's capacity.
/// `file` names the file in errors, `line_base` shifts their lines (the
/// variant inside an archive).
pub fn parse_variant(text: &[u8], file: &str, line_base: usize) -> Result<Variant, Failure> {
    let at = |line: usize, what: String| BadLine { line: line + line_base, what };
    let mut lx = format::Lexer::new(text);
    lx.lasting = true;
    let parsed = format::parse_variant(&mut lx).map_err(|f| at(f.line, f.what).in_file(file))?;
    if let Some(t) = lx.next() {
        let extra = show(t.text);
        let last = if parsed.lasting.is_empty() { "skill" } else { "lasting effect" };
        let what = format!("extra token `{extra}` after the last {last}");
        return Err(at(t.line, what).in_file(file));
    }
    let n = parsed.skills.len();
    let skills: Vec<Skill> = (parsed.skills.iter())
        .map(|s| Skill {
            name: String::from_utf8_lossy(s.name).into_owned(),
            delta: s.delta,
            req: s.req,
        })
        .collect();
    // A valid variant beyond the trainer's capacity: refused in its own
    // words (the variant is valid, so no line is at fault).
    let beyond = match skills.iter().find(|s| s.req > MAX_CAP) {
        _ if n > MAX_SKILLS => format!("{n} skills: the trainer handles at most {MAX_SKILLS}"),
        Some(s) => format!(
            "skill `{}`: req {} is beyond the trainer's limit C <= {MAX_CAP}",
            s.name, s.req
        ),
        None => {
            let beaten = |x| (0..n as u32).filter(|&y| parsed.beats(x, y)).map(|y| 1 << y).sum();
            let beats = (0..n as u32).map(beaten).collect();
            let taken = |x: u32, y: u32| parsed.takes(x, y).iter().map(|&z| 1u64 << z).sum();
            let takes = (0..n as u32).flat_map(|x| (0..n as u32).map(move |y| taken(x, y)));
            let mut v = Variant { skills, beats, takes: takes.collect(), losses: vec![] };
            let counts = (v.skills.iter().map(|s| s.req).max().unwrap_or(0) as usize + 1).pow(2);
            let most = MAX_STATES / counts;
            match v.reachable_losses(most) {
                Some(losses) => {
                    v.losses = losses;
                    return Ok(v);
                }
                None => format!(
                    "lasting effects: the AI's table would need at least {} states ((C + 1)² = \
                     {counts} pairs of counts x at least {} pairs of lost sets): the trainer \
                     handles at most {MAX_STATES}",
                    counts * (most + 1),
                    most + 1
                ),
            }
        }
    };
    Err(Failure::BadInput { file: file.to_string(), line: None, what: beyond })
}

/// The variant `--variant` names (`file`), or the common one.
pub fn read_variant(file: Option<&Path>) -> Result<Variant, Failure> {
    let Some(file) = file else {
        return parse_variant(COMMON_VARIANT.as_bytes(), "built-in variant", 0);
    };
    let name = file.display().to_string();
    let text = std::fs::read(file).map_err(|e| unreadable_file("--variant", &name, e))?;
    parse_variant(&text, &name, 0)
}
