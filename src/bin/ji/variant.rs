//! The variant as the trainer holds it: skills with owned names and the
//! "beats" relation as bit masks, read by the shared reader (`format`),
//! with the trainer's own capacity limits.

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

/// The common variant (the seed's table), the default.
pub const COMMON_VARIANT: &str = include_str!("../../../tests/data/ji_variant/common.txt");

/// A skill (技能): changes its user's 集 by `delta`, needs `req` 集.
#[derive(Clone, Debug, PartialEq)]
pub struct Skill {
    pub name: String,
    pub delta: i64,
    pub req: i64,
}

/// A variant (变体): the skills and the "beats" (强于) relation.
#[derive(Clone, Debug, PartialEq)]
pub struct Variant {
    pub skills: Vec<Skill>,
    /// `beats[x]` has bit y set when skill x beats skill y.
    pub beats: Vec<u64>,
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

    pub fn text(&self) -> String {
        let lines = (0..self.skills.len()).map(|x| self.skill_line(x) + "\n");
        format!("{}\n", self.skills.len()) + &lines.collect::<String>()
    }
}

/// Parses a variant (module `format`), then checks the trainer's capacity.
/// `file` names the file in errors, `line_base` shifts their lines (the
/// variant inside an archive).
pub fn parse_variant(text: &[u8], file: &str, line_base: usize) -> Result<Variant, Failure> {
    let at = |line: usize, what: String| BadLine { line: line + line_base, what };
    let mut lx = format::Lexer::new(text);
    let parsed = format::parse_variant(&mut lx).map_err(|f| at(f.line, f.what).in_file(file))?;
    if let Some(t) = lx.next() {
        let extra = show(t.text);
        let what = format!("extra token `{extra}` after the last skill");
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
            return Ok(Variant { skills, beats });
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
