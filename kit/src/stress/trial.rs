//! One input tried: our solver's answer, the user's program's run under
//! the limits, and how the program failed by the judge's verdict, if it
//! did. A failure by time depends on the machine (on CPU time, not on its
//! load), so such a failure is tried again ([`Trial::again`]) before it is
//! trusted.

use crate::compare::Rule;
use crate::error::Result;
use crate::gen;
use crate::judge::{self, Limits, Verdict};
use crate::problems::Problem;
use crate::run::{self, Cmd, Outcome};

/// The problem, our solver, and the user's program with the limits of each
/// of its runs.
pub struct Trial<'a> {
    pub problem: &'a dyn Problem,
    pub solver: &'a Cmd,
    pub cmd: &'a Cmd,
    pub limits: Limits,
}

/// How the user's program failed on one input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Differs,
    Crashed,
    /// Over the CPU time limit.
    TimedOut,
    /// Over the idleness limit.
    Idle,
    /// Over the memory limit.
    OverMemory,
    /// Over the output limit.
    OverOutput,
}

impl Kind {
    /// A failure by time, which a re-run may not repeat.
    pub fn by_time(self) -> bool {
        matches!(self, Kind::TimedOut | Kind::Idle)
    }

    /// The judge's verdict for it (`WA`, `RE`, ...).
    pub fn code(self) -> &'static str {
        match self {
            Kind::Differs => "WA",
            Kind::Crashed => "RE",
            Kind::TimedOut => "TLE",
            Kind::Idle => "ILE",
            Kind::OverMemory => "MLE",
            Kind::OverOutput => "OLE",
        }
    }
}

/// How the program failed on one input, in a line.
pub struct Fault {
    pub kind: Kind,
    /// One line: what went wrong.
    pub what: String,
}

/// One failing input with both runs.
#[derive(Clone)]
pub struct Failure {
    /// The generated case it comes from.
    pub index: u64,
    pub input: String,
    pub ours: Outcome,
    pub theirs: Outcome,
    pub kind: Kind,
    /// One line: what went wrong.
    pub what: String,
    /// The command line of the user's generator that made the case.
    pub made_by: Option<String>,
}

impl Trial<'_> {
    pub fn rule(&self) -> Rule {
        self.problem.rule()
    }

    /// Our solver's run on `input`.
    ///
    /// # Errors
    /// A start error when our solver cannot be started.
    pub fn answer(&self, input: &str) -> Result<Outcome> {
        gen::answer(self.solver, input)
    }

    /// The user's program's run on `input`, under the limits.
    ///
    /// # Errors
    /// A start error naming the program when it cannot be started.
    pub fn run_theirs(&self, input: &str) -> Result<Outcome> {
        // The peak memory is measured (for the memory limit): spawns are
        // then one at a time, the runs still in parallel.
        run::run_with(self.cmd, input.as_bytes(), self.limits, None, run::Memory::Measured)
            .map_err(|e| e.error(format!("`{}`", self.cmd)))
    }

    /// The program's failure on an input we answered with `ours`, if any.
    pub fn fault(&self, ours: &Outcome, theirs: &Outcome) -> Option<Fault> {
        let limits = &self.limits;
        let v = judge::verdict(&ours.stdout_text(), theirs, self.rule(), limits);
        let (kind, what) = match v {
            Verdict::Accepted => return None,
            Verdict::WrongAnswer(m) => {
                (Kind::Differs, format!("first difference: line {}: {}", m.line + 1, m.detail))
            }
            Verdict::RuntimeError(status) => (
                Kind::Crashed,
                format!("your program failed: {}", judge::runtime_error(status, theirs, "")),
            ),
            Verdict::TimeLimit => (Kind::TimedOut, judge::over_limit(&v, theirs, limits)),
            Verdict::IdleLimit => (Kind::Idle, judge::over_limit(&v, theirs, limits)),
            Verdict::MemoryLimit => (Kind::OverMemory, judge::over_limit(&v, theirs, limits)),
            Verdict::OutputLimit => (Kind::OverOutput, judge::over_limit(&v, theirs, limits)),
        };
        Some(Fault { kind, what })
    }

    /// Runs the program on `input` (the case `index`, answered by us with
    /// `ours`, made by `made_by`): its failure, if it fails.
    ///
    /// # Errors
    /// A start error when the program cannot be started.
    pub fn try_input(
        &self,
        index: u64,
        input: String,
        ours: Outcome,
        made_by: Option<String>,
    ) -> Result<Option<Failure>> {
        let theirs = self.run_theirs(&input)?;
        Ok(self.fault(&ours, &theirs).map(|Fault { kind, what }| Failure {
            index,
            input,
            ours,
            theirs,
            kind,
            what,
            made_by,
        }))
    }

    /// Runs the program again on a failure by time: the same failure, or
    /// `None` when this run did not fail that way.
    ///
    /// # Errors
    /// A start error when the program cannot be started.
    pub fn again(&self, f: &Failure) -> Result<Option<Failure>> {
        let again = self.try_input(f.index, f.input.clone(), f.ours.clone(), f.made_by.clone())?;
        Ok(again.filter(|g| g.kind == f.kind))
    }
}

/// The times of one run, for the report: `2310 ms CPU, 2402 ms wall`.
pub fn times(run: &Outcome) -> String {
    format!("{} ms CPU, {} ms wall", run.cpu.as_millis(), run.wall.as_millis())
}
