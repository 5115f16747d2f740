//! One module per problem: what the kit knows of it (its comparison rule,
//! its generator profiles and its shrinker), and the one list of problems.

use crate::compare::Rule;
use crate::error::{Error, Result};
use crate::rng::Rng;
use std::io::Write;
use std::path::Path;

pub mod ants_battle;
pub mod ji;
#[cfg(any(test, feature = "test-support"))]
pub mod largest;
pub mod zhuguosha;

/// A named family of generated inputs, for `kit gen PROBLEM --list`, with
/// its generator: a profile cannot be listed without one.
pub struct Profile {
    pub name: &'static str,
    /// One line: what the profile stresses.
    pub about: &'static str,
    /// One input, in the statement's strict format (single spaces, no
    /// trailing spaces, a final newline). The same `rng` state gives the
    /// same text.
    pub generate: fn(&mut Rng) -> String,
}

/// Kattis's default output limit, in MiB: a problem's unless its package
/// sets another ([`Problem::output_limit_mb`]).
pub const OUTPUT_LIMIT_MB: u64 = 8;

/// What the kit knows of one problem. Inputs and outputs are text.
pub trait Problem: Sync {
    /// The problem's name on the command line, which is also our solver's
    /// binary name.
    fn name(&self) -> &'static str;

    /// How a program's stdout is compared with our answer: token for token
    /// unless the problem's output is approximate.
    fn rule(&self) -> Rule {
        Rule::Exact
    }

    /// The profiles, the default (`random`) first.
    fn profiles(&self) -> &'static [Profile];

    /// One input of the profile called `name` ([`Profile::generate`]);
    /// `None` when the problem has no such profile (never another one).
    fn generate(&self, name: &str, rng: &mut Rng) -> Option<String> {
        let profile = self.profiles().iter().find(|p| p.name == name)?;
        Some((profile.generate)(rng))
    }

    /// Inputs smaller than `input` (fewer pigs, cards, ants, skills,
    /// rounds...), each still valid, most promising first. The shrinker
    /// keeps the first candidate on which the program still fails and asks
    /// again, until no candidate fails.
    fn shrink(&self, input: &str) -> Vec<String>;

    /// The output limit of `kit judge` and `kit stress` by default, in MiB:
    /// the limit of the problem's Kattis package (`limits: output:` in its
    /// problem.yaml), [`OUTPUT_LIMIT_MB`] unless it says otherwise.
    fn output_limit_mb(&self) -> u64 {
        OUTPUT_LIMIT_MB
    }

    /// `kit show`: writes to `page` the web page of the game `input`,
    /// drawn from what our `solver` prints with its explain flag (the page
    /// builders are in kit/src/pages/). `title` heads the page.
    fn page(&self, input: &[u8], solver: &Path, title: &str, page: &mut dyn Write) -> Result<()> {
        let _ = (input, solver, title, page);
        Err(Error::page(format!("kit show has no page for {}", self.name())))
    }

    /// `kit show --rule ID`: [`Problem::page`] with the events where rule
    /// `rule` of the problem's catalogue (`crate::rules`) fires marked.
    /// Only 猪国杀's replay marks rules.
    fn marked_page(
        &self,
        input: &[u8],
        solver: &Path,
        title: &str,
        rule: &str,
        page: &mut dyn Write,
    ) -> Result<()> {
        let _ = (input, solver, title, rule, page);
        Err(Error::usage(format!(
            "kit show --rule: only the 猪国杀 replay marks rules, not {}'s page",
            self.name()
        )))
    }
}

/// An input as the shrinker sees it: read from text, written back, and
/// made smaller by a list of steps. Each problem's [`Problem::shrink`] is
/// [`shrink`] over its own input type.
pub trait Shrinkable: Sized + 'static {
    /// The steps, most promising first: each gives its candidates (smaller
    /// inputs, still valid), most promising first.
    const STEPS: &'static [fn(&Self) -> Vec<Self>];

    /// The input of `text`, `None` when it is not a valid one.
    fn parse(text: &str) -> Option<Self>;

    /// The input as text, in the statement's strict format.
    fn render(&self) -> String;
}

/// The candidates of [`Problem::shrink`]: `input` read as a `T` (none
/// when it is not valid), then the candidates of each of `T`'s steps in
/// order, written back as text.
///
/// Linear in the candidates' total size: each is a whole copy of the input.
pub fn shrink<T: Shrinkable>(input: &str) -> Vec<String> {
    let Some(input) = T::parse(input) else {
        return Vec::new();
    };
    T::STEPS.iter().flat_map(|step| step(&input)).map(|c| c.render()).collect()
}

/// Every problem, in the order `kit gen --help` lists them.
pub fn all() -> &'static [&'static dyn Problem] {
    &[&zhuguosha::Zhuguosha, &ants_battle::AntsBattle, &ji::JiReferee, &ji::JiSolver]
}

/// The problem called `name`, if any.
pub fn find(name: &str) -> Option<&'static dyn Problem> {
    all().iter().copied().find(|p| p.name() == name)
}

/// The problem called `name`, or a usage error that lists the problems.
///
/// # Errors
/// A usage error listing the problems.
pub fn named(name: &str) -> Result<&'static dyn Problem> {
    find(name)
        .ok_or_else(|| Error::usage(format!("unknown problem `{name}`; the problems: {}", names())))
}

/// The problems' names, from the one list of problems: `a, b, c`.
pub fn names() -> String {
    let names: Vec<&str> = all().iter().map(|p| p.name()).collect();
    names.join(", ")
}

/// The lines of `text` after the checks every strict format shares: a
/// final newline, no CR, no empty line, no leading or
/// trailing space, single spaces between tokens.
#[cfg(test)]
fn strict_lines(text: &str) -> Vec<&str> {
    assert!(text.ends_with('\n'), "no final newline");
    assert!(!text.contains('\r') && !text.contains('\t'));
    let lines: Vec<&str> = text[..text.len() - 1].split('\n').collect();
    for line in &lines {
        assert!(!line.is_empty(), "empty line");
        assert!(!line.starts_with(' ') && !line.ends_with(' '), "edge space: {line:?}");
        assert!(!line.contains("  "), "double space: {line:?}");
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_ji_solver_has_a_tolerance() {
        assert_eq!(find("ji_solver").unwrap().rule(), Rule::Tolerance(1e-6));
        for name in ["zhuguosha", "ants_battle", "ji_referee"] {
            assert_eq!(find(name).unwrap().rule(), Rule::Exact);
        }
    }

    /// The output limits are the packages' (`output:` under `limits:` in
    /// problem.yaml, else Kattis's default): Ants, whose 5000 x 5000 map is
    /// 25 MB of output, has 64.
    #[test]
    fn the_output_limits_are_the_packages() {
        let packages = Path::new(env!("CARGO_MANIFEST_DIR")).join("packages");
        for problem in all() {
            let yaml = std::fs::read_to_string(packages.join(problem.name()).join("problem.yaml"))
                .expect("every problem has a package");
            let set = yaml.lines().find_map(|l| l.trim().strip_prefix("output:"));
            let want = set.map_or(OUTPUT_LIMIT_MB, |v| v.trim().parse().expect("a number"));
            assert_eq!(problem.output_limit_mb(), want, "{}", problem.name());
        }
        assert_eq!(find("ants_battle").unwrap().output_limit_mb(), 64);
    }

    #[test]
    fn an_unknown_profile_has_no_input() {
        for problem in all() {
            assert_eq!(problem.generate("no_such_profile", &mut Rng::new(1)), None);
            assert_eq!(problem.profiles()[0].name, "random");
        }
    }

    /// FNV-1a, 64 bits: a digest that is the same everywhere.
    fn fnv1a(bytes: &[u8]) -> u64 {
        bytes
            .iter()
            .fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
    }

    #[test]
    fn generated_bytes_are_pinned() {
        // The benchmark's inputs (max_deck, big, max_rounds) and users'
        // saved seeds are these bytes, on every machine: a change of a
        // generator must be deliberate (then update the digests).
        let pinned = [
            ("zhuguosha", "random", 0xee2c_c689_e5ab_fb8b),
            ("zhuguosha", "max_deck", 0x2631_50aa_82f6_b736),
            ("ants_battle", "random", 0xbd41_3cbf_0a61_6122),
            ("ants_battle", "big", 0x345e_5bac_d21e_8219),
            ("ji_referee", "random", 0x0486_d271_889c_9ee2),
            ("ji_referee", "max_rounds", 0x02b8_1129_9ee0_5502),
            ("ji_solver", "random", 0x34a7_358f_663e_4167),
        ];
        for (problem, profile, digest) in pinned {
            let text = find(problem).unwrap().generate(profile, &mut Rng::new(1)).unwrap();
            assert_eq!(fnv1a(text.as_bytes()), digest, "{problem} {profile}");
        }
    }

    #[test]
    fn shrink_candidates_are_pinned() {
        // The shrinker's candidates, in order, on three inputs of every
        // profile (but the big maps): a refactoring of a shrinker keeps
        // them byte for byte (a change must be deliberate).
        for (problem, digest) in
            [("zhuguosha", 0x2376_0fe2_69a5_b538), ("ants_battle", 0x3dbf_e280_ab7c_b54b)]
        {
            let problem = find(problem).unwrap();
            let mut all = String::new();
            for profile in problem.profiles().iter().filter(|p| !p.name.starts_with("big")) {
                for seed in 1..=3 {
                    let text = (profile.generate)(&mut Rng::new(seed));
                    all += &problem.shrink(&text).join("\0");
                }
            }
            assert_eq!(fnv1a(all.as_bytes()), digest, "{}", problem.name());
        }
    }
}
