//! The rules of each problem's statement, one catalogue per problem: every
//! rule with a stable short id, the statement's own sentence (quoted as
//! evidence; Chinese for 猪国杀) and one English line (`kit rules
//! PROBLEM`); and which rules one game exercises, read from what our own
//! solver prints with its explain flag ([`exercised`]), so that a
//! disagreement can be laid at a rule's door.
//!
//! The rules stay in the solvers: kit reads their explain output (through
//! the readers of `crate::pages`, the layer below) and names the rule each
//! event shows; where a rule decides *not* to do something and so leaves
//! no event, the solver says so with a rule id of its own (`zhuguosha
//! --trace`'s `rule` lines).

use crate::error::{Error, Result};
use std::collections::BTreeSet;
use std::path::Path;

pub mod ants_battle;
pub mod ji;
pub mod zhuguosha;

/// `kit rules --help`.
pub const HELP: &str = "\
usage: kit rules PROBLEM [--game CASE.in [--rule ID]] [--solver PATH]

Prints the rule catalogue of PROBLEM's statement, one rule a line:
ID<TAB>the statement's own sentence, quoted<TAB>the rule in English.
The ids are stable: `kit show` marks where a rule fires and a diagnosis
names its suspects by them. 集's two programs share one catalogue.

  --game CASE.in  instead, the rules the game CASE.in exercises, one a
                  line: ID<TAB>the lines of our solver's explain output
                  where it fires (0: read from the input alone): the
                  trace of zhuguosha and ji_referee, the explanation of
                  ants_battle, the strategies of ji_solver
  --rule ID       with --game: that explain output whole, each line where
                  rule ID fires after `>> `, the others after 3 spaces
  --solver PATH   our solver (default: beside kit)
";

/// One rule of a statement.
#[derive(Debug, PartialEq, Eq)]
pub struct Rule {
    /// Stable and short, kebab-case: `kill-limit`.
    pub id: &'static str,
    /// The statement's own sentence (or the part of it that makes the
    /// rule), quoted.
    pub statement: &'static str,
    /// The rule in one English line.
    pub english: &'static str,
}

/// The catalogue of the problem called `problem` (kit's name for it, as
/// `kit gen` takes it); `None` for a problem without one.
pub fn catalogue(problem: &str) -> Option<&'static [Rule]> {
    match problem {
        "zhuguosha" => Some(zhuguosha::RULES),
        "ants_battle" => Some(ants_battle::RULES),
        // One game, two programs: the referee and the solver share the
        // statement's rules.
        "ji_referee" | "ji_solver" => Some(ji::RULES),
        _ => None,
    }
}

/// The rule `id` of `problem`'s catalogue.
pub fn find(problem: &str, id: &str) -> Option<&'static Rule> {
    catalogue(problem)?.iter().find(|r| r.id == id)
}

/// The line `kit rules PROBLEM` prints for a problem without a catalogue.
pub fn no_catalogue(problem: &str) -> String {
    format!("{problem} has no rule catalogue")
}

/// One rule at work at one line of our solver's explain output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Firing {
    /// The line of the explain output (1-based) where the rule decides
    /// (for a rule read from the input alone, 0).
    pub line: usize,
    /// The rule's id, from the catalogue.
    pub rule: &'static str,
}

/// The rules one game exercises, and where each fires.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Exercised {
    /// The ids, each once, in id order.
    pub rules: BTreeSet<&'static str>,
    /// Every firing, in line order (a rule may fire many times).
    pub firings: Vec<Firing>,
}

impl Exercised {
    /// The exercised rules of these firings.
    pub fn from_firings(mut firings: Vec<Firing>) -> Exercised {
        firings.sort();
        firings.dedup();
        let rules = firings.iter().map(|f| f.rule).collect();
        Exercised { rules, firings }
    }

    /// The explain-output lines (1-based) where rule `id` fires, in order.
    pub fn lines(&self, id: &str) -> Vec<usize> {
        self.firings.iter().filter(|f| f.rule == id).map(|f| f.line).collect()
    }
}

/// The explain flag our solver for `problem` is run with here.
pub fn explain_flag(problem: &str) -> Option<&'static str> {
    match problem {
        "zhuguosha" | "ji_referee" => Some("--trace"),
        "ants_battle" => Some("--explain"),
        "ji_solver" => Some("--strategy"),
        _ => None,
    }
}

/// Our solver's explain output for one game, and the rules it exercises.
#[derive(Clone, Debug)]
pub struct Explained {
    /// The output the firings' line numbers count: `zhuguosha --trace`'s
    /// and `ji_referee --trace`'s stderr, `ants_battle --explain`'s and
    /// `ji_solver --strategy`'s stdout.
    pub text: String,
    pub exercised: Exercised,
}

/// The rules the game `input` of `problem` exercises: our `solver` run on
/// it with its explain flag ([`explain_flag`]), its output read by
/// [`derive()`].
///
/// # Errors
/// As [`explain`]'s.
pub fn exercised(problem: &str, input: &[u8], solver: &Path) -> Result<Exercised> {
    Ok(explain(problem, input, solver)?.exercised)
}

/// [`exercised`], with the explain output its line numbers count.
///
/// # Errors
/// A usage error for a problem without a catalogue; the errors of running
/// our solver (a run error when it refuses the input); a run error when its
/// explain output cannot be read.
pub fn explain(problem: &str, input: &[u8], solver: &Path) -> Result<Explained> {
    let flag = explain_flag(problem)
        .filter(|_| catalogue(problem).is_some())
        .ok_or_else(|| Error::usage(no_catalogue(problem)))?;
    let run = crate::pages::page::run(solver, &[flag], input)?;
    // 3: a 猪国杀 game that never ends still has its trace.
    if run.code != 0 && !(run.code == 3 && problem == "zhuguosha") {
        return Err(run.refusal(problem));
    }
    let exercised = derive(problem, input, &run.stdout, &run.stderr)
        .map_err(|e| Error::run(format!("{problem}'s explain output: {e}")))?;
    let text = if matches!(problem, "zhuguosha" | "ji_referee") { run.stderr } else { run.stdout };
    Ok(Explained { text, exercised })
}

/// `text` with the lines of `marked` (1-based, in order, as
/// [`Exercised::lines`] gives them) flagged: each line of `text` after `>> `
/// if marked, else after three spaces, so that a report can show where a
/// rule fires in a trace.
pub fn mark_lines(text: &str, marked: &[usize]) -> String {
    let mut out = String::with_capacity(text.len() + 3 * text.lines().count());
    for (k, line) in text.lines().enumerate() {
        out += if marked.binary_search(&(k + 1)).is_ok() { ">> " } else { "   " };
        out += line;
        out.push('\n');
    }
    out
}

/// The rules exercised by the game `input`, from what our solver printed
/// with its explain flag (`stdout`, `stderr`): a pure function, the whole
/// of [`exercised`] but the run.
///
/// # Errors
/// What cannot be read, as a message.
pub fn derive(
    problem: &str,
    input: &[u8],
    stdout: &str,
    stderr: &str,
) -> std::result::Result<Exercised, String> {
    let text = String::from_utf8_lossy(input);
    let firings = match problem {
        "zhuguosha" => zhuguosha::firings(&text, stderr)?,
        "ants_battle" => ants_battle::firings(&text, stdout)?,
        "ji_referee" => ji::referee_firings(input, stderr)?,
        "ji_solver" => ji::solver_firings(input, stdout)?,
        _ => return Err(no_catalogue(problem)),
    };
    Ok(Exercised::from_firings(firings))
}

/// `kit rules PROBLEM --game CASE.in`'s lines: `ID<TAB>L1 L2 ...`, one
/// exercised rule a line, in id order.
pub fn exercised_listing(exercised: &Exercised) -> String {
    let mut text = String::new();
    for id in &exercised.rules {
        let lines: Vec<String> = exercised.lines(id).iter().map(|l| l.to_string()).collect();
        text += &format!("{id}\t{}\n", lines.join(" "));
    }
    text
}

/// `kit rules PROBLEM`'s lines: `ID<TAB>sentence<TAB>English`, one rule a
/// line, in catalogue order.
pub fn listing(rules: &[Rule]) -> String {
    rules.iter().map(|r| format!("{}\t{}\t{}\n", r.id, r.statement, r.english)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROBLEMS: [&str; 4] = ["zhuguosha", "ants_battle", "ji_referee", "ji_solver"];

    #[test]
    fn every_catalogue_has_unique_kebab_case_ids_and_one_line_fields() {
        for problem in PROBLEMS {
            let rules = catalogue(problem).unwrap();
            assert!(rules.len() >= 20, "{problem}: {} rules", rules.len());
            let mut seen = BTreeSet::new();
            for r in rules {
                assert!(seen.insert(r.id), "{problem}: {} twice", r.id);
                let kebab =
                    r.id.split('-')
                        .all(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_lowercase()));
                assert!(kebab, "{problem}: id {:?}", r.id);
                for field in [r.statement, r.english] {
                    assert!(!field.trim().is_empty(), "{problem}: {}", r.id);
                    assert!(!field.contains(['\t', '\n', '\r']), "{problem}: {}: {field:?}", r.id);
                    assert!(!field.contains("  "), "{problem}: {}: {field:?}", r.id);
                }
                assert!(r.english.is_ascii() || r.english.contains(|c: char| !c.is_ascii()));
                assert_eq!(find(problem, r.id), Some(r));
            }
        }
        assert_eq!(catalogue("ji_referee"), catalogue("ji_solver"));
        assert_eq!(catalogue("largest"), None);
        assert_eq!(find("zhuguosha", "no-such-rule"), None);
    }

    /// 猪国杀's sentences are quoted in Chinese, the others' in English.
    #[test]
    fn zhuguosha_quotes_its_statement_in_chinese() {
        for r in zhuguosha::RULES {
            assert!(!r.statement.is_ascii(), "{}", r.id);
        }
    }

    #[test]
    fn the_listing_is_one_rule_a_line_with_three_tab_separated_fields() {
        let rules = catalogue("zhuguosha").unwrap();
        let text = listing(rules);
        assert_eq!(text.lines().count(), rules.len());
        for (line, r) in text.lines().zip(rules) {
            assert_eq!(line.split('\t').collect::<Vec<_>>(), [r.id, r.statement, r.english]);
        }
    }

    #[test]
    fn firings_are_sorted_and_deduplicated_and_give_each_rules_lines() {
        let f = |line, rule| Firing { line, rule };
        let e =
            Exercised::from_firings(vec![f(9, "b"), f(2, "a"), f(9, "b"), f(4, "b"), f(0, "c")]);
        assert_eq!(e.rules.iter().copied().collect::<Vec<_>>(), ["a", "b", "c"]);
        assert_eq!(e.lines("b"), [4, 9]);
        assert_eq!(e.lines("c"), [0]);
        assert!(e.lines("d").is_empty());
        let text = exercised_listing(&e);
        assert_eq!(text, "a\t2\nb\t4 9\nc\t0\n");
    }

    #[test]
    fn marked_lines_are_flagged_and_the_others_indented_alike() {
        let text = "turn 1\ndraw 1 K K\nplay 1 K on 2\n";
        assert_eq!(mark_lines(text, &[2, 3]), "   turn 1\n>> draw 1 K K\n>> play 1 K on 2\n");
        assert_eq!(mark_lines(text, &[]).lines().count(), 3);
    }

    #[test]
    fn a_problem_without_a_catalogue_says_so() {
        assert_eq!(explain_flag("largest"), None);
        let err = derive("largest", b"", "", "").unwrap_err();
        assert_eq!(err, "largest has no rule catalogue");
        let err = exercised("largest", b"", Path::new("/bin/true")).unwrap_err();
        assert_eq!(err.to_string(), "largest has no rule catalogue");
    }

    /// Every id a derivation names is in its catalogue: each string literal
    /// of a derivation's code (after its catalogue) is a rule id, unless it
    /// is one of the words of the explain output it reads.
    #[test]
    fn the_derivations_name_only_ids_of_their_catalogues() {
        let sources: [(&str, &str, &[&str]); 3] = [
            (
                "zhuguosha",
                include_str!("zhuguosha.rs"),
                &[
                    "turn", "draw", "play", "reveal", "ZP", "FP", "MP", "mark", "unmark", "J", "F",
                    "N", "W", "K", "P", "Z", "against", "answer", "damage", "peach", "death",
                    "rule", "end", "negate", "reward", "penalty", "1",
                ],
            ),
            (
                "ants_battle",
                include_str!("ants_battle.rs"),
                &[
                    "attackradius2",
                    "attack",
                    "m ",
                    "w ",
                    "dead ",
                    "w=",
                    "enemy_w=",
                    "1/1",
                    "focus",
                    "damage",
                    "closest",
                    "support",
                ],
            ),
            (
                "ji_referee",
                include_str!("ji.rs"),
                &["taken", "round", "next", "A", "B", "lost", "0.000000000"],
            ),
        ];
        for (problem, source, words) in sources {
            let code = &source[source.find("\n];\n").expect("the catalogue's end")..];
            let code = &code[..code.find("#[cfg(test)]").unwrap_or(code.len())];
            let literals = code.split('"').skip(1).step_by(2);
            let idish =
                |l: &&str| !l.is_empty() && l.bytes().all(|b| b.is_ascii_lowercase() || b == b'-');
            let strays: Vec<&str> = literals
                .filter(idish)
                .filter(|l| !words.contains(l) && *l != problem && find(problem, l).is_none())
                .collect();
            assert!(strays.is_empty(), "{problem}: no rules: {strays:?}");
        }
    }
}
