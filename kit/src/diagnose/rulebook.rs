//! What the diagnosis asks of a problem's rules ([`crate::rules`]): the
//! catalogue, how our solver is run to say which rules a game exercises,
//! and that reading as catalogue indices.

use crate::error::{Error, Result};
use crate::rules::{self, Exercised, Rule};
use crate::run::{self, Cmd, Outcome};

/// How our solver tells, for one problem, which rules a game exercises.
pub struct Rulebook {
    pub problem: &'static str,
    pub rules: &'static [Rule],
    /// The explain flag.
    flag: &'static str,
}

impl Rulebook {
    /// The rulebook of `problem`, `None` without a catalogue.
    pub fn of(problem: &'static str) -> Option<Rulebook> {
        let rules = rules::catalogue(problem).filter(|r| !r.is_empty())?;
        let flag = rules::explain_flag(problem)?;
        Some(Rulebook { problem, rules, flag })
    }

    /// Whether our solver's answer is the same with the explain flag (the
    /// explain output then goes to stderr, and one run gives both).
    pub fn one_run(&self) -> bool {
        matches!(self.problem, "zhuguosha" | "ji_referee")
    }

    /// Our solver with its explain flag.
    pub fn explaining(&self, solver: &Cmd) -> Cmd {
        solver.clone().arg(self.flag)
    }

    /// The rules the game `input` exercises, from our run with the explain
    /// flag (`explained`).
    ///
    /// # Errors
    /// A run error when the explain output cannot be read.
    pub fn exercised(&self, input: &str, explained: &Outcome) -> Result<Exercised> {
        let (stdout, stderr) = (explained.stdout_text(), stderr_text(explained));
        rules::derive(self.problem, input.as_bytes(), &stdout, &stderr)
            .map_err(|e| Error::run(format!("{}'s explain output: {e}", self.problem)))
    }

    /// The explain output the firings' lines count.
    pub fn text(&self, explained: &Outcome) -> String {
        if self.one_run() {
            stderr_text(explained)
        } else {
            explained.stdout_text()
        }
    }

    /// Our run with the explain flag on `input`, when it is not the
    /// answering run itself.
    ///
    /// # Errors
    /// A start error when our solver cannot be started.
    pub fn explain(&self, solver: &Cmd, input: &str) -> Result<Outcome> {
        let limits = run::Limits {
            stderr: run::StderrKept::Whole,
            ..run::Limits::from(crate::gen::OUR_LIMIT)
        };
        run::run_with(
            &self.explaining(solver),
            input.as_bytes(),
            limits,
            None,
            run::Memory::Unmeasured,
        )
        .map_err(|e| e.error(format!("our solver {solver}")))
    }

    /// The catalogue indices of `exercised`'s rules, ascending.
    pub fn indices(&self, exercised: &Exercised) -> Vec<usize> {
        let mut at: Vec<usize> = exercised
            .rules
            .iter()
            .filter_map(|id| self.rules.iter().position(|r| r.id == *id))
            .collect();
        at.sort_unstable();
        at
    }
}

fn stderr_text(run: &Outcome) -> String {
    String::from_utf8_lossy(&run.stderr).into_owned()
}
