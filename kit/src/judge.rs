//! `kit judge`: any program on fixture folders, one verdict per case, by
//! the comparison rule of `cargo test` ([`crate::compare`]).

use crate::cases::{self, Case};
use crate::compare::{self, Mismatch, Rule};
use crate::run::{self, Cmd, Outcome, Status};
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// A judge's verdict on one run.
#[derive(Debug, PartialEq)]
pub enum Verdict {
    Accepted,
    WrongAnswer(Mismatch),
    /// Exit code not 0, or a signal: the run's status.
    RuntimeError(Status),
    TimeLimit,
}

impl Verdict {
    /// The verdicts in the summary's order.
    pub const CODES: [&'static str; 4] = ["AC", "WA", "RE", "TLE"];

    pub fn code(&self) -> &'static str {
        Verdict::CODES[self.index()]
    }

    fn index(&self) -> usize {
        match self {
            Verdict::Accepted => 0,
            Verdict::WrongAnswer(_) => 1,
            Verdict::RuntimeError(_) => 2,
            Verdict::TimeLimit => 3,
        }
    }
}

/// The verdict on `run` against the `expected` stdout: over the limit
/// first, then a failed exit, then the output under `rule`.
pub fn verdict(expected: &str, run: &Outcome, rule: Rule, limit: Duration) -> Verdict {
    if run.status == Status::TimedOut || run.wall > limit {
        return Verdict::TimeLimit;
    }
    if !run.success() {
        return Verdict::RuntimeError(run.status);
    }
    match compare::compare(expected, &run.stdout_text(), rule) {
        Some(m) => Verdict::WrongAnswer(m),
        None => Verdict::Accepted,
    }
}

/// What `kit judge` runs.
pub struct Judge<'a> {
    /// The problem: its comparison rule.
    pub problem: &'a str,
    pub dirs: Vec<PathBuf>,
    pub limit: Duration,
    pub cmd: &'a Cmd,
}

/// The cases a user's program is judged on, and why the others are not
/// (`lonely`: `.in` files with neither `.out` nor `.err`).
pub fn select(all: Vec<Case>, lonely: usize) -> (Vec<Case>, Vec<String>) {
    let (mut no_out, mut with_args, mut with_code) = (lonely, 0, 0);
    let mut judged = Vec::new();
    for case in all {
        if case.stdout.is_none() {
            no_out += 1;
        } else if !case.args.is_empty() {
            with_args += 1;
        } else if case.code != 0 {
            with_code += 1;
        } else {
            judged.push(case);
        }
    }
    let mut skipped = Vec::new();
    let mut note = |n: usize, what: &str| {
        if n > 0 {
            skipped.push(format!(
                "{n} {} {what}",
                if n == 1 { "case" } else { "cases" }
            ));
        }
    };
    note(
        no_out,
        "without .out (bad input: our solver's error message)",
    );
    note(
        with_args,
        "with .args (arguments for our solver, not yours)",
    );
    note(
        with_code,
        "expecting an exit code other than 0 (our solver's convention)",
    );
    (judged, skipped)
}

/// Runs the program on every judged case, one line each (more on a
/// failure), then the skipped cases and a summary line such as
/// `AC 148/150 (WA 2)`. True when every case is AC.
pub fn judge(j: &Judge, out: &mut dyn Write) -> Result<bool, String> {
    let (mut all, mut lonely) = (Vec::new(), 0);
    for dir in &j.dirs {
        if !dir.is_dir() {
            return Err(format!("{}: no such folder", dir.display()));
        }
        let (found, problems) = cases::discover(dir).map_err(|e| e.to_string())?;
        all.extend(found);
        lonely += problems.len();
    }
    let (judged, skipped) = select(all, lonely);
    if judged.is_empty() {
        let dirs: Vec<String> = j.dirs.iter().map(|d| d.display().to_string()).collect();
        return Err(format!(
            "no case to judge (a .in with its .out) below {}",
            dirs.join(", ")
        ));
    }
    let rule = compare::rule(j.problem);
    let mut counts = [0usize; 4]; // AC, WA, RE, TLE
    let io = |e: std::io::Error| format!("cannot write: {e}");
    for case in &judged {
        let input = std::fs::read(&case.input).map_err(|e| format!("{}: {e}", case.name()))?;
        let expected_path = case.stdout.as_ref().expect("selected cases have a .out");
        let expected = cases::read_text(expected_path).map_err(|e| e.to_string())?;
        let run = run::run(j.cmd, &input, j.limit, None)
            .map_err(|e| format!("cannot start `{}`: {e}", j.cmd))?;
        let v = verdict(&expected, &run, rule, j.limit);
        let time = if v == Verdict::TimeLimit {
            format!(">{}", j.limit.as_millis())
        } else {
            run.wall.as_millis().to_string()
        };
        let memory = run.peak.map_or(String::new(), |p| p.to_string());
        writeln!(
            out,
            "{:<3} {time:>6} ms {memory:>10}  {}",
            v.code(),
            case.name()
        )
        .map_err(io)?;
        let reproduce = format!("{} < {}", j.cmd, case.name());
        match &v {
            Verdict::Accepted => {}
            Verdict::WrongAnswer(m) => {
                writeln!(out, "    line {}: {}", m.line + 1, m.detail).map_err(io)?;
                let want = cases::display(expected_path);
                writeln!(out, "    reproduce: {reproduce} | diff - {want}").map_err(io)?;
            }
            Verdict::RuntimeError(status) => {
                let stderr = run.first_stderr_line();
                let said = if stderr.is_empty() {
                    String::new()
                } else {
                    format!("; stderr: {stderr}")
                };
                writeln!(out, "    {status}{said}").map_err(io)?;
                writeln!(out, "    reproduce: {reproduce}").map_err(io)?;
            }
            Verdict::TimeLimit => {
                writeln!(out, "    killed after {} ms", j.limit.as_millis()).map_err(io)?;
                writeln!(out, "    reproduce: {reproduce}").map_err(io)?;
            }
        }
        let k = ["AC", "WA", "RE", "TLE"]
            .iter()
            .position(|c| *c == v.code());
        counts[k.expect("a known verdict")] += 1;
        out.flush().map_err(io)?;
    }
    if !skipped.is_empty() {
        writeln!(out, "not judged: {}", skipped.join(", ")).map_err(io)?;
    }
    writeln!(out, "{}", summary(counts)).map_err(io)?;
    Ok(counts[0] == judged.len())
}

/// `AC 148/150 (WA 1, TLE 1)`: the failures in the order WA, RE, TLE.
pub fn summary(counts: [usize; 4]) -> String {
    let total: usize = counts.iter().sum();
    let failures: Vec<String> = Verdict::CODES[1..]
        .iter()
        .zip(&counts[1..])
        .filter(|(_, &n)| n > 0)
        .map(|(c, n)| format!("{c} {n}"))
        .collect();
    if failures.is_empty() {
        format!("AC {}/{total}", counts[0])
    } else {
        format!("AC {}/{total} ({})", counts[0], failures.join(", "))
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use crate::gen::tests::sh;
    use crate::scratch::Scratch;

    fn judge_text(dir: &Scratch, script: &str, limit_ms: u64) -> (bool, String) {
        let cmd = sh(script);
        let j = Judge {
            problem: "largest",
            dirs: vec![dir.path().to_path_buf()],
            limit: Duration::from_millis(limit_ms),
            cmd: &cmd,
        };
        let mut out = Vec::new();
        let ok = judge(&j, &mut out).expect("judged");
        (ok, String::from_utf8(out).unwrap())
    }

    fn folder() -> Scratch {
        let dir = Scratch::new("judge");
        dir.write("a/1.in", "3\n1 9 2\n");
        dir.write("a/1.out", "9\n");
        dir.write("a/2.in", "1\n0\n");
        dir.write("a/2.out", "0\n");
        dir.write("bad.in", "x\n");
        dir.write("bad.err", "largest: line 1: bad\n");
        dir.write("flag.in", "1\n1\n");
        dir.write("flag.out", "1\n");
        dir.write("flag.args", "--strict\n");
        dir.write("lonely.in", "2\n1 2\n");
        dir
    }

    #[test]
    fn a_right_program_is_all_ac_and_skipped_cases_are_named() {
        let dir = folder();
        let (ok, text) = judge_text(&dir, crate::gen::tests::LARGEST, 5000);
        assert!(ok, "{text}");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4, "{text}");
        assert!(
            lines[0].starts_with("AC ") && lines[0].ends_with("a/1.in"),
            "{text}"
        );
        assert!(
            lines[1].starts_with("AC ") && lines[1].ends_with("a/2.in"),
            "{text}"
        );
        assert!(
            lines[2].starts_with("not judged: 2 cases without .out"),
            "{text}"
        );
        assert!(lines[2].contains("1 case with .args"), "{text}");
        assert_eq!(lines[3], "AC 2/2");
        #[cfg(target_os = "linux")]
        assert!(lines[0].contains(" MiB "), "{text}");
    }

    #[test]
    fn wa_names_the_line_and_token_and_how_to_reproduce() {
        let dir = folder();
        let (ok, text) = judge_text(&dir, "echo 9", 5000);
        assert!(!ok);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("AC "), "{text}");
        assert!(
            lines[1].starts_with("WA ") && lines[1].ends_with("a/2.in"),
            "{text}"
        );
        assert_eq!(lines[2], "    line 1: token 1: expected `0`, got `9`");
        let want = format!(
            "    reproduce: sh -c 'echo 9' < {} | diff - {}",
            crate::cases::display(&dir.path().join("a/2.in")),
            crate::cases::display(&dir.path().join("a/2.out"))
        );
        assert_eq!(lines[3], want);
        assert_eq!(*lines.last().unwrap(), "AC 1/2 (WA 1)");
    }

    #[test]
    fn re_shows_the_exit_code_or_signal_and_tle_the_limit() {
        let dir = folder();
        let (ok, text) = judge_text(
            &dir,
            "read n; [ $n = 3 ] && { echo boom >&2; exit 7; }; kill -SEGV $$",
            5000,
        );
        assert!(!ok);
        assert!(text.contains("\n    exit code 7; stderr: boom\n"), "{text}");
        assert!(text.contains("\n    signal 11 (SIGSEGV)\n"), "{text}");
        assert!(text.ends_with("AC 0/2 (RE 2)\n"), "{text}");
        let (ok, text) = judge_text(&dir, "read n; [ $n = 3 ] && exec sleep 5; echo 0", 300);
        assert!(!ok);
        assert!(text.starts_with("TLE   >300 ms"), "{text}");
        assert!(text.contains("\n    killed after 300 ms\n"), "{text}");
        assert!(text.ends_with("AC 1/2 (TLE 1)\n"), "{text}");
    }

    #[test]
    fn a_program_that_cannot_start_or_no_cases_is_an_error() {
        let dir = folder();
        let cmd = Cmd::new("/nonexistent/kit-no-such-program");
        let mut j = Judge {
            problem: "largest",
            dirs: vec![dir.path().to_path_buf()],
            limit: Duration::from_secs(1),
            cmd: &cmd,
        };
        let err = judge(&j, &mut Vec::new()).unwrap_err();
        assert!(
            err.starts_with("cannot start `/nonexistent/kit-no-such-program`"),
            "{err}"
        );
        j.dirs = vec![dir.path().join("nothing")];
        assert!(judge(&j, &mut Vec::new())
            .unwrap_err()
            .ends_with("nothing: no such folder"));
    }

    #[test]
    fn the_summary_lists_failures_in_order() {
        assert_eq!(summary([148, 2, 0, 0]), "AC 148/150 (WA 2)");
        assert_eq!(summary([1, 1, 1, 1]), "AC 1/4 (WA 1, RE 1, TLE 1)");
        assert_eq!(summary([3, 0, 0, 0]), "AC 3/3");
    }
}
