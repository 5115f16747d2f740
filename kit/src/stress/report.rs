//! What `kit stress` prints on stdout: a line per profile the program
//! agrees on; for a failure, the shrunk input with both outputs, the first
//! difference, the times and the command that judges it again (with
//! `--keep-going`, a line per failure, a count per profile and a total).

use super::progress::rate;
use super::save::Saved;
use super::shrink::Shrunk;
use super::trial::{times, Kind};
use crate::cases::display;
use crate::compare;
use crate::error::{Error, Result};
use crate::problems::Problem;
use std::io::Write;
use std::path::Path;
use std::time::Duration;

/// The report of one stress run.
pub struct Report<'a> {
    pub problem: &'a dyn Problem,
    pub seed: u64,
    /// Where the failures are saved.
    pub out_dir: &'a Path,
    /// The command that judges the saved cases again.
    pub judge_again: String,
}

impl Report<'_> {
    /// The program agreed on all `done` cases of `profile`, in `took`.
    pub fn agrees(
        &self,
        profile: &str,
        done: u64,
        took: Duration,
        out: &mut dyn Write,
    ) -> Result<()> {
        writeln!(
            out,
            "stress {}: {done} cases (profile {profile}, seed {}), your program agrees \
             with ours on all ({:.1} s, {})",
            self.problem.name(),
            self.seed,
            took.as_secs_f64(),
            rate(done, took)
        )
        .map_err(Error::stdout)?;
        Ok(())
    }

    /// The one failure of a run without `--keep-going`: what went wrong,
    /// the shrunk input with both outputs, the first difference, the
    /// command that judges it again.
    pub fn failure(
        &self,
        profile: &str,
        shrunk: &Shrunk,
        saved: &Saved,
        found_after: Duration,
        out: &mut dyn Write,
    ) -> Result<()> {
        let name = self.problem.name();
        let Shrunk { found, best, steps, tried, .. } = shrunk;
        let (ours, theirs) = (best.ours.stdout_text(), best.theirs.stdout_text());
        let cases = if found.index == 0 { "case" } else { "cases" };
        let mut report = format!(
            "stress {name}: case {} (profile {profile}, seed {}) fails: {}\n\
             found after {} {cases} in {:.1} s; shrunk in {steps} steps ({tried} candidates \
             tried, {:.1} s): {} -> {} bytes\n",
            found.index,
            self.seed,
            found.what,
            found.index + 1,
            found_after.as_secs_f64(),
            shrunk.took.as_secs_f64(),
            found.size,
            best.input.len(),
        );
        if let Some(stop) = shrunk.stopped {
            report += &format!(
                "shrinking stopped at the budget ({}) with candidates left: shown is the \
                 smallest failing input found so far\n",
                stop.said()
            );
        }
        report += &format!(
            "your program's time: {} on the original; {} on the shrunk case\n",
            found.times,
            times(&best.theirs)
        );
        if let Some(size) = shrunk.unconfirmed {
            report += &format!(
                "note: the shrunk case ({size} bytes) did not fail again on a re-run; \
                 shown is the case as first found\n"
            );
        }
        if let Some(line) = &best.made_by {
            report += &format!("made by your generator: {line}\n");
        }
        let show = |title: String, text: &str| format!("== {title}\n{}", clip(text, 60));
        report += &show(format!("input ({})", display(&saved.in_path)), &best.input);
        report += &show(format!("our output ({})", display(&saved.out_path)), &ours);
        report += &show("your output".to_string(), &theirs);
        report += &format!("== {}\n", best.what);
        if let Some(m) = compare::compare(&ours, &theirs, self.problem.rule())
            .filter(|_| best.kind == Kind::Differs)
        {
            report += &compare::context(&ours, &theirs, m.line);
        }
        report += &format!("judge it again: {}\n", self.judge_again);
        out.write_all(report.as_bytes()).map_err(Error::stdout)
    }

    /// One failure of a run with `--keep-going`, in a line.
    pub fn failure_line(
        &self,
        profile: &str,
        shrunk: &Shrunk,
        saved: &Saved,
        out: &mut dyn Write,
    ) -> Result<()> {
        let best = &shrunk.best;
        let made = match &best.made_by {
            Some(line) => format!(" (made by: {line})"),
            None => String::new(),
        };
        let stopped = match shrunk.stopped {
            Some(stop) => format!(" (stopped at the budget: {})", stop.said()),
            None => String::new(),
        };
        writeln!(
            out,
            "case {} (profile {profile}) fails: {}; shrunk {} -> {} bytes{stopped}: {}{made}",
            shrunk.found.index,
            best.what,
            shrunk.found.size,
            best.input.len(),
            display(&saved.in_path)
        )
        .map_err(Error::stdout)?;
        Ok(())
    }

    /// With `--keep-going`: `count` of the `done` cases of `profile` failed,
    /// `kinds` of them each way.
    pub fn profile_failures(
        &self,
        profile: &str,
        count: usize,
        done: u64,
        kinds: &[(Kind, usize)],
        out: &mut dyn Write,
    ) -> Result<()> {
        let mut kinds = kinds.to_vec();
        kinds.sort_by_key(|(k, _)| *k as usize);
        let kinds: Vec<String> = kinds.iter().map(|(k, n)| format!("{} {n}", k.code())).collect();
        writeln!(
            out,
            "stress {}: {count} of {done} cases (profile {profile}, seed {}) fail ({})",
            self.problem.name(),
            self.seed,
            kinds.join(", ")
        )
        .map_err(Error::stdout)?;
        Ok(())
    }

    /// With `--keep-going`, at the end: `failed` cases in `failed_profiles`
    /// of `profiles` profiles failed.
    pub fn all_failures(
        &self,
        failed: u64,
        failed_profiles: usize,
        profiles: usize,
        out: &mut dyn Write,
    ) -> Result<()> {
        let in_profiles = if profiles == 1 {
            String::new()
        } else {
            format!(" in {failed_profiles} of {profiles} profiles")
        };
        let cases = if failed == 1 { "case" } else { "cases" };
        writeln!(
            out,
            "stress {}: {failed} failing {cases}{in_profiles}, shrunk and saved to {}\n\
             judge them again: {}",
            self.problem.name(),
            display(self.out_dir),
            self.judge_again
        )
        .map_err(Error::stdout)?;
        Ok(())
    }
}

/// At most `max` lines of `text`, and how many more there are.
fn clip(text: &str, max: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut s: String = lines.iter().take(max).map(|l| format!("{l}\n")).collect();
    if lines.len() > max {
        s += &format!("... ({} more lines)\n", lines.len() - max);
    }
    s
}
