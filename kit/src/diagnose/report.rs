//! What `kit diagnose` prints on stdout: the games played and how the
//! program did; then the suspects, one a line (`suspect K: ID`, the
//! evidence, the statement's sentence), or why there is none; then the
//! smallest failing game with our trace, the lines where the first
//! suspect fires marked.

use super::play::{Answer, Game};
use super::Suspect;
use crate::compare;
use crate::error::{Error, Result};
use crate::problems::Problem;
use crate::rules::{self, Rule};
use crate::stress::shrink::Shrunk;
use std::io::Write;

/// The report of one diagnosis.
pub struct Report<'a> {
    pub problem: &'a dyn Problem,
    pub seed: u64,
}

/// The games played in each part of the diagnosis.
pub struct Counts {
    pub first: usize,
    pub targeted: usize,
    pub near: usize,
}

/// The trace lines shown around the first marked one, at most.
const TRACE_LINES: usize = 60;

fn write(out: &mut dyn Write, text: &str) -> Result<()> {
    out.write_all(text.as_bytes()).map_err(Error::stdout)
}

/// `RE 3, TLE 1`: the failures of `games` that are not wrong answers.
fn set_aside(games: &[Game]) -> (usize, String) {
    let mut kinds: Vec<(&'static str, usize)> = Vec::new();
    for g in games {
        let code = match g.answer {
            Answer::Agrees | Answer::Wrong => continue,
            Answer::Malformed => "malformed",
            Answer::Failed(kind) => kind.code(),
        };
        match kinds.iter_mut().find(|(c, _)| *c == code) {
            Some((_, n)) => *n += 1,
            None => kinds.push((code, 1)),
        }
    }
    let total = kinds.iter().map(|(_, n)| n).sum();
    let said: Vec<String> = kinds.iter().map(|(c, n)| format!("{c} {n}")).collect();
    (total, said.join(", "))
}

impl Report<'_> {
    fn head(&self) -> String {
        format!("diagnose {}", self.problem.name())
    }

    pub fn no_catalogue(&self, out: &mut dyn Write) -> Result<()> {
        let name = self.problem.name();
        write(
            out,
            &format!(
                "{}: {name} has no rule catalogue yet, so kit cannot name the rule a program \
                 misreads (kit stress {name} still finds and shrinks a failing case)\n",
                self.head()
            ),
        )
    }

    pub fn nondeterministic(&self, game: &Game, out: &mut dyn Write) -> Result<()> {
        write(
            out,
            &format!(
                "{}: your program is nondeterministic: two runs of one game (case {} of profile \
                 {}, seed {}) answer differently; a diagnosis needs the same answer every time, \
                 so no rule is named\n",
                self.head(),
                game.index,
                game.profile,
                self.seed
            ),
        )
    }

    /// The first look: how many games, how many the program failed.
    pub fn first_look(&self, games: &[Game], out: &mut dyn Write) -> Result<()> {
        let wrong = games.iter().filter(|g| g.answer == Answer::Wrong).count();
        let (aside, kinds) = set_aside(games);
        let mut text = format!(
            "{}: {} games (seed {}): your program gives a wrong answer in {wrong}",
            self.head(),
            games.len(),
            self.seed
        );
        if aside > 0 {
            text += &format!(", fails otherwise in {aside} ({kinds})");
        }
        text += "\n";
        if aside > 0 && wrong > 0 {
            text += &format!(
                "set aside: the {aside} games without a well-formed answer (a crash, a limit or \
                 malformed output is no rule's misreading); the suspects come from the others\n"
            );
        }
        write(out, &text)
    }

    pub fn agrees(&self, games: usize, out: &mut dyn Write) -> Result<()> {
        write(out, &format!("{}: no disagreement in {games} games: no suspect\n", self.head()))
    }

    pub fn not_a_rule(&self, games: &[Game], out: &mut dyn Write) -> Result<()> {
        let (aside, kinds) = set_aside(games);
        write(
            out,
            &format!(
                "{}: the failure is not a rule's: your program never gave a well-formed wrong \
                 answer; it failed {aside} of {} games otherwise ({kinds}): no suspect (kit \
                 stress {} shows one such case)\n",
                self.head(),
                games.len(),
                self.problem.name()
            ),
        )
    }

    /// The suspects, one a line.
    pub fn suspects(
        &self,
        rules: &[Rule],
        suspects: &[Suspect],
        counts: &Counts,
        out: &mut dyn Write,
    ) -> Result<()> {
        let mut text = format!(
            "then {} targeted games (the profiles where the top suspects fire most) and {} \
             games near the smallest failing one\n",
            counts.targeted, counts.near
        );
        let _ = counts.first;
        let width = suspects.iter().map(|s| s.id.len()).max().unwrap_or(0);
        for s in suspects {
            let t = s.ranked.tally;
            let rule = &rules[s.ranked.rule];
            let tie = suspects.iter().filter(|o| o.ranked.rank == s.ranked.rank).count();
            let tied = if tie > 1 { format!(" (tied, {tie} rules)") } else { String::new() };
            text += &format!(
                "suspect {}: {:width$}  fails {} of {} games where it applies, {} of {} where it \
                 does not{tied}  「{}」\n",
                s.ranked.rank,
                s.id,
                t.fail_fired,
                t.fired(),
                t.fail_not,
                t.not_fired(),
                rule.statement
            );
        }
        if suspects.is_empty() {
            text += "no suspect: no rule fires in the failing games\n";
        }
        write(out, &text)
    }

    /// The smallest failing game, with our trace, the lines where `rule`
    /// fires marked `>`.
    pub fn smallest(
        &self,
        shrunk: &Shrunk,
        game: &Game,
        rule: &Rule,
        out: &mut dyn Write,
    ) -> Result<()> {
        let (ours, theirs) = (game.ours.stdout_text(), game.theirs.stdout_text());
        let trace = &game.explained;
        let marked = game.exercised.lines(rule.id);
        let mut text = format!(
            "smallest failing game (shrunk from {} to {} bytes):\n== input\n{}== our output\n{}\
             == your output\n{}",
            shrunk.found.size,
            game.input.len(),
            game.input,
            ours,
            theirs
        );
        text += &format!("== {}\n", game.what);
        if let Some(m) = compare::compare(&ours, &theirs, self.problem.rule()) {
            text += &compare::context(&ours, &theirs, m.line);
        }
        text += &format!(
            "== our trace ({} lines), `>>` where {} fires ({})\n",
            trace.lines().count(),
            rule.id,
            match marked.len() {
                1 => "1 line".to_string(),
                n => format!("{n} lines"),
            }
        );
        let shown = rules::mark_lines(trace, &marked);
        let lines: Vec<&str> = shown.lines().collect();
        let first = marked.first().copied().unwrap_or(1).max(1);
        let from = first.saturating_sub(TRACE_LINES / 2).max(1);
        let to = (from + TRACE_LINES - 1).min(lines.len());
        if from > 1 {
            text += &format!("   ... ({} lines)\n", from - 1);
        }
        for line in lines.iter().take(to).skip(from - 1) {
            text += line;
            text += "\n";
        }
        if to < lines.len() {
            text += &format!("   ... ({} lines)\n", lines.len() - to);
        }
        write(out, &text)
    }
}
