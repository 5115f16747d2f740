//! One module per problem: its generator profiles and its shrinker.

use crate::rng::Rng;

pub mod ants_battle;
pub mod ji;
pub mod zhuguosha;

/// A named family of generated inputs, for `kit gen PROBLEM --list`.
pub struct Profile {
    pub name: &'static str,
    /// One line: what the profile stresses.
    pub about: &'static str,
}

/// What the kit knows of one problem. Inputs and outputs are text.
pub trait Problem: Sync {
    /// The problem's name on the command line, which is also our solver's
    /// binary name.
    fn name(&self) -> &'static str;

    /// The profiles, the default (`random`) first.
    fn profiles(&self) -> &'static [Profile];

    /// One input of `profile`, in the statement's strict format (single
    /// spaces, no trailing spaces, a final newline). The same `rng` state
    /// gives the same text. `profile` is one of `profiles()`.
    fn generate(&self, profile: &str, rng: &mut Rng) -> String;

    /// Inputs smaller than `input` (fewer pigs, cards, ants, skills,
    /// rounds...), each still valid, most promising first. The shrinker
    /// keeps the first candidate on which the program still fails and asks
    /// again, until no candidate fails.
    fn shrink(&self, input: &str) -> Vec<String>;
}

/// Every problem, in the order `kit gen --help` lists them.
pub fn all() -> &'static [&'static dyn Problem] {
    &[
        &zhuguosha::Zhuguosha,
        &ants_battle::AntsBattle,
        &ji::JiReferee,
        &ji::JiSolver,
    ]
}

/// The problem called `name`, if any.
pub fn find(name: &str) -> Option<&'static dyn Problem> {
    all().iter().copied().find(|p| p.name() == name)
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
        assert!(
            !line.starts_with(' ') && !line.ends_with(' '),
            "edge space: {line:?}"
        );
        assert!(!line.contains("  "), "double space: {line:?}");
    }
    lines
}
