//! `kit judge`: any program on fixture folders, one verdict per case, by
//! the comparison rule of `cargo test` ([`crate::compare`]).

use crate::cases::{self, Case};
use crate::compare::{self, Mismatch, Rule};
use crate::error::{Error, Result};
use crate::run::{self, Cmd, Outcome, Peak, Status};
use std::fmt::Write as _;
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
    /// CPU time of the process tree over the limit.
    TimeLimit,
    /// Wall time over the idleness limit ([`run::idle_limit`]): a program
    /// that sleeps or waits, using little CPU.
    IdleLimit,
    /// The process tree's resident memory over the memory limit (killed
    /// as soon as seen so), or the program's own peak over it at its end.
    MemoryLimit,
    /// stdout over the output limit: killed as soon as it is.
    OutputLimit,
}

impl Verdict {
    /// The verdicts in the summary's order.
    pub const CODES: [&'static str; 7] = ["AC", "WA", "RE", "TLE", "ILE", "MLE", "OLE"];

    pub fn code(&self) -> &'static str {
        Verdict::CODES[self.index()]
    }

    fn index(&self) -> usize {
        match self {
            Verdict::Accepted => 0,
            Verdict::WrongAnswer(_) => 1,
            Verdict::RuntimeError(_) => 2,
            Verdict::TimeLimit => 3,
            Verdict::IdleLimit => 4,
            Verdict::MemoryLimit => 5,
            Verdict::OutputLimit => 6,
        }
    }
}

/// The default memory limit, in MiB (`--memory-limit`).
pub const MEMORY_LIMIT_MB: u64 = 256;

/// The limits a run is judged by, all on the program's whole process tree
/// and all enforced while it runs ([`run::Limits`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// CPU time (user + system); the idleness limit follows from it.
    pub time: Duration,
    /// Resident memory, in MiB (1 MB = 1 MiB, as judges count it).
    pub memory_mb: u64,
    /// stdout, in MiB (`--output-limit`; by default the problem's,
    /// [`crate::problems::Problem::output_limit_mb`]).
    pub output_mb: u64,
}

/// A run held to the limits it is judged by.
impl From<Limits> for run::Limits {
    fn from(l: Limits) -> run::Limits {
        run::Limits {
            time: l.time,
            memory_kib: Some(l.memory_mb.saturating_mul(1024)),
            output_bytes: Some(l.output_mb.saturating_mul(1 << 20)),
            ..run::Limits::from(l.time)
        }
    }
}

impl Limits {
    /// A time limit, the default memory limit and the default output limit
    /// ([`crate::problems::OUTPUT_LIMIT_MB`]).
    pub fn time(time: Duration) -> Limits {
        Limits { time, memory_mb: MEMORY_LIMIT_MB, output_mb: crate::problems::OUTPUT_LIMIT_MB }
    }

    /// The peak of `run` when it is known to be over the memory limit
    /// (a bound only, [`Peak::AtMost`], is never over it; a run the kernel
    /// stopped at the limit wanted more than its peak, which is the limit).
    pub fn over_memory(&self, run: &Outcome) -> Option<u64> {
        let killed = run.status == Status::MemoryLimit;
        match run.peak {
            Some(Peak::Exact(kib)) if kib > self.memory_mb.saturating_mul(1024) || killed => {
                Some(kib)
            }
            _ => None,
        }
    }
}

/// The verdict on `run` against the `expected` stdout: over a limit first
/// (the limit it was killed at; else CPU time over the time limit, peak
/// memory over the memory limit), then a failed exit, then the output under
/// `rule`.
pub fn verdict(expected: &str, run: &Outcome, rule: Rule, limits: &Limits) -> Verdict {
    match run.status {
        Status::IdleLimit => return Verdict::IdleLimit,
        Status::MemoryLimit => return Verdict::MemoryLimit,
        Status::OutputLimit => return Verdict::OutputLimit,
        Status::CpuLimit => return Verdict::TimeLimit,
        _ => {}
    }
    if run.cpu > limits.time {
        return Verdict::TimeLimit;
    }
    if limits.over_memory(run).is_some() {
        return Verdict::MemoryLimit;
    }
    if !run.success() {
        return Verdict::RuntimeError(run.status);
    }
    match compare::compare(expected, &run.stdout_text(), rule) {
        Some(m) => Verdict::WrongAnswer(m),
        None => Verdict::Accepted,
    }
}

/// How many lines of a failed program's stderr a report shows: its last
/// ones, where a Python traceback puts the error.
pub const STDERR_LINES: usize = 5;

/// A runtime error in words: the status, then the last lines of stderr
/// (on the same line when there is one, else indented by `indent`).
pub fn runtime_error(status: Status, run: &Outcome, indent: &str) -> String {
    let tail = run.last_stderr_lines(STDERR_LINES);
    match tail.len() {
        0 => status.to_string(),
        1 => format!("{status}; stderr: {}", tail[0]),
        n => {
            let mut s = format!("{status}; the last {n} lines of stderr:");
            for line in tail {
                s += &format!("\n{indent}  {line}");
            }
            s
        }
    }
}

/// A run over a limit in words: the times (or the memory, or the output)
/// used.
pub fn over_limit(v: &Verdict, run: &Outcome, limits: &Limits) -> String {
    let (cpu, wall, ms) = (run.cpu.as_millis(), run.wall.as_millis(), limits.time.as_millis());
    if let (Verdict::MemoryLimit, Some(kib)) = (v, limits.over_memory(run)) {
        let killed = if run.status == Status::MemoryLimit { " (killed then)" } else { "" };
        format!(
            "over the memory limit: a peak of {} > {} MiB{killed}",
            Peak::Exact(kib),
            limits.memory_mb
        )
    } else if *v == Verdict::OutputLimit {
        format!(
            "over the output limit: more than {} MiB of stdout (killed then, after {cpu} ms of \
             CPU)",
            limits.output_mb
        )
    } else if *v == Verdict::IdleLimit {
        format!(
            "idle: killed after {wall} ms of wall time (the idleness limit, 2 x {ms} + 1000 ms), \
             having used {cpu} ms of CPU: it sleeps or waits"
        )
    } else {
        format!("over the time limit: {cpu} ms of CPU > {ms} ms (wall time {wall} ms)")
    }
}

/// What `kit judge` runs.
pub struct Judge<'a> {
    /// The problem's comparison rule.
    pub rule: Rule,
    /// Folders of cases, searched recursively.
    pub dirs: Vec<PathBuf>,
    /// Single cases: `.in` files, each with its `.out`.
    pub files: Vec<PathBuf>,
    /// On CPU time (the idleness limit follows from it), memory and output.
    pub limits: Limits,
    pub cmd: &'a Cmd,
    /// Stop at the first case that is not AC.
    pub fail_fast: bool,
}

/// A case the user's program is judged on: the case and the output it
/// should print.
pub struct Judged {
    pub case: Case,
    /// The `.out` beside the case's `.in`.
    pub expected: PathBuf,
}

/// The cases a user's program is judged on, and why the others are not
/// (`lonely`: `.in` files with neither `.out` nor `.err`).
pub fn select(all: Vec<Case>, lonely: usize) -> (Vec<Judged>, Vec<String>) {
    let (mut no_out, mut with_args, mut with_code) = (lonely, 0, 0);
    let mut judged = Vec::new();
    for case in all {
        let Some(expected) = case.stdout.clone() else {
            no_out += 1;
            continue;
        };
        if !case.args.is_empty() {
            with_args += 1;
        } else if case.code != 0 {
            with_code += 1;
        } else {
            judged.push(Judged { case, expected });
        }
    }
    let mut skipped = Vec::new();
    let mut note = |n: usize, what: &str| {
        if n > 0 {
            skipped.push(format!("{n} {} {what}", cases_word(n)));
        }
    };
    note(no_out, "without .out (bad input: our solver's error message)");
    note(with_args, "with .args (arguments for our solver, not yours)");
    note(with_code, "expecting an exit code other than 0 (our solver's convention)");
    (judged, skipped)
}

fn cases_word(n: usize) -> &'static str {
    if n == 1 {
        "case"
    } else {
        "cases"
    }
}

/// What the summary line says of the cases marked `.beyond`.
pub const BEYOND_MEANS: &str = "beyond the judge's data: cases on which the official judge's \
data is silent and accepted solutions differ (each case's .beyond file says why); \
they count neither in the summary nor in the exit code";

/// Runs the program on every judged case, one line each (more on a
/// failure), then the skipped cases and a summary line such as
/// `AC 148/150 (WA 2)`, with the cases beyond the judge's data apart. True
/// when every case within the judge's data is AC. Each case's lines are
/// flushed as it ends.
///
/// # Errors
/// A usage error when a folder is missing or there is no case to judge; a
/// read error for an unreadable case; a start error when the program
/// cannot be started; a write error on `out`.
pub fn judge(j: &Judge, out: &mut dyn Write) -> Result<bool> {
    let (judged, skipped) = find(j)?;
    let mut tally = Tally::default();
    for (k, case) in judged.iter().enumerate() {
        let record = run_case(j, case)?;
        let mut text = describe(&record, j);
        let left = judged.len() - k - 1;
        let stop = j.fail_fast && !record.accepted() && case.case.beyond.is_none() && left > 0;
        if stop {
            let _ = writeln!(
                text,
                "stopped at the first failure (--fail-fast): {left} {} not run",
                cases_word(left)
            );
        }
        tally.add(&record);
        out.write_all(text.as_bytes()).and_then(|()| out.flush()).map_err(Error::stdout)?;
        if stop {
            break;
        }
    }
    out.write_all(tally.closing(&skipped).as_bytes()).map_err(Error::stdout)?;
    Ok(tally.all_accepted())
}

/// The judged cases of `j`'s folders and files, and the skipped ones.
fn find(j: &Judge) -> Result<(Vec<Judged>, Vec<String>)> {
    let (mut all, mut lonely) = (Vec::new(), 0);
    for dir in &j.dirs {
        if !dir.is_dir() {
            return Err(Error::usage(format!("{}: no such folder", dir.display())));
        }
        let (found, problems) = cases::discover(dir)?;
        all.extend(found);
        lonely += problems.len();
    }
    for file in &j.files {
        all.push(cases::single(file)?);
    }
    let (judged, skipped) = select(all, lonely);
    if judged.is_empty() {
        let dirs: Vec<String> =
            j.dirs.iter().chain(&j.files).map(|d| d.display().to_string()).collect();
        return Err(Error::usage(format!(
            "no case to judge (a .in with its .out) below {}",
            dirs.join(", ")
        )));
    }
    Ok((judged, skipped))
}

/// One judged case's run and verdict.
pub struct Record<'c> {
    pub judged: &'c Judged,
    pub run: Outcome,
    pub verdict: Verdict,
}

impl Record<'_> {
    fn accepted(&self) -> bool {
        self.verdict == Verdict::Accepted
    }
}

/// Runs `j`'s program on one case and judges its run.
fn run_case<'c>(j: &Judge, judged: &'c Judged) -> Result<Record<'c>> {
    let case = &judged.case;
    let input = std::fs::read(&case.input).map_err(|e| Error::read(case.name(), e))?;
    let expected = cases::read_text(&judged.expected)?;
    let run =
        run::run(j.cmd, &input, j.limits, None).map_err(|e| e.error(format!("`{}`", j.cmd)))?;
    let verdict = verdict(&expected, &run, j.rule, &j.limits);
    Ok(Record { judged, run, verdict })
}

/// A record's lines: the verdict, times, memory and case; on a failure,
/// what failed and how to run it again; a case beyond the judge's data
/// says so.
fn describe(record: &Record, j: &Judge) -> String {
    let (case, run, v) = (&record.judged.case, &record.run, &record.verdict);
    let mut text = String::new();
    let memory = run.peak.map_or(String::new(), |p| p.to_string());
    let _ = writeln!(
        text,
        "{:<3} {:>6} ms cpu {:>6} ms wall {memory:>10}  {}",
        v.code(),
        run.cpu.as_millis(),
        run.wall.as_millis(),
        case.name()
    );
    let reproduce = format!("{} < {}", j.cmd, case.name());
    match v {
        Verdict::Accepted => {}
        Verdict::WrongAnswer(m) => {
            let _ = writeln!(text, "    line {}: {}", m.line + 1, m.detail);
            let want = cases::display(&record.judged.expected);
            let _ = writeln!(text, "    reproduce: {reproduce} | diff - {want}");
        }
        Verdict::RuntimeError(status) => {
            let _ = writeln!(text, "    {}", runtime_error(*status, run, "    "));
            let _ = writeln!(text, "    reproduce: {reproduce}");
        }
        Verdict::TimeLimit | Verdict::IdleLimit | Verdict::MemoryLimit | Verdict::OutputLimit => {
            let _ = writeln!(text, "    {}", over_limit(v, run, &j.limits));
            let _ = writeln!(text, "    reproduce: {reproduce}");
        }
    }
    if let Some(why) = &case.beyond {
        let _ = writeln!(text, "    beyond the judge's data: {why}");
    }
    text
}

/// The verdicts counted: within the judge's data by verdict, beyond it
/// apart.
#[derive(Default)]
struct Tally {
    /// In the order of [`Verdict::CODES`]: AC, WA, RE, TLE, ILE, MLE, OLE.
    counts: [usize; Verdict::CODES.len()],
    beyond_run: usize,
    beyond_ac: usize,
}

impl Tally {
    fn add(&mut self, record: &Record) {
        if record.judged.case.beyond.is_some() {
            self.beyond_run += 1;
            self.beyond_ac += usize::from(record.accepted());
        } else {
            self.counts[record.verdict.index()] += 1;
        }
    }

    fn all_accepted(&self) -> bool {
        self.counts[0] == self.counts.iter().sum::<usize>()
    }

    /// The lines after the cases': those not judged, the summary, and what
    /// "beyond the judge's data" means when some were.
    fn closing(&self, skipped: &[String]) -> String {
        let mut text = String::new();
        if !skipped.is_empty() {
            let _ = writeln!(text, "not judged: {}", skipped.join(", "));
        }
        text += &summary(self.counts);
        if self.beyond_run > 0 {
            let _ = write!(
                text,
                "; beyond the judge's data: {}/{}\n({BEYOND_MEANS})",
                self.beyond_ac, self.beyond_run
            );
        }
        text.push('\n');
        text
    }
}

/// `AC 148/150 (WA 1, TLE 1)`: the failures in the order WA, RE, TLE, ILE,
/// MLE, OLE. `counts` in the order of [`Verdict::CODES`] (those left out are 0).
///
/// # Panics
/// If `counts` is empty.
pub fn summary(counts: impl AsRef<[usize]>) -> String {
    let counts = counts.as_ref();
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
    use crate::scratch::sh;
    use crate::scratch::Scratch;

    fn judge_text(dir: &Scratch, script: &str, limit_ms: u64) -> (bool, String) {
        judge_with(dir, script, limit_ms, false)
    }

    fn judge_with(dir: &Scratch, script: &str, limit_ms: u64, fail_fast: bool) -> (bool, String) {
        let cmd = sh(script);
        let j = Judge {
            rule: Rule::Exact,
            dirs: vec![dir.path().to_path_buf()],
            files: Vec::new(),
            limits: Limits::time(Duration::from_millis(limit_ms)),
            cmd: &cmd,
            fail_fast,
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
        let (ok, text) = judge_text(&dir, crate::problems::largest::LARGEST, 5000);
        assert!(ok, "{text}");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4, "{text}");
        assert!(lines[0].starts_with("AC ") && lines[0].ends_with("a/1.in"), "{text}");
        assert!(lines[1].starts_with("AC ") && lines[1].ends_with("a/2.in"), "{text}");
        assert!(lines[2].starts_with("not judged: 2 cases without .out"), "{text}");
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
        assert!(lines[1].starts_with("WA ") && lines[1].ends_with("a/2.in"), "{text}");
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
    fn re_shows_the_exit_code_or_signal_and_the_last_stderr_lines() {
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
        let traceback =
            "for i in 1 2 3 4 5 6; do echo \"frame $i\" >&2; done; echo 'ValueError: x' >&2; exit 1";
        let (_, text) = judge_text(&dir, traceback, 5000);
        assert!(
            text.contains(
                "\n    exit code 1; the last 5 lines of stderr:\n      frame 3\n      frame 4\n      \
                 frame 5\n      frame 6\n      ValueError: x\n    reproduce: "
            ),
            "{text}"
        );
    }

    #[test]
    fn tle_is_on_cpu_time_and_gives_the_time_used() {
        let dir = folder();
        let busy = "read n; [ $n = 3 ] && while :; do :; done; echo 0";
        let (ok, text) = judge_text(&dir, busy, 300);
        assert!(!ok);
        assert!(text.starts_with("TLE "), "{text}");
        assert!(text.contains(" ms of CPU > 300 ms (wall time "), "{text}");
        assert!(text.ends_with("AC 1/2 (TLE 1)\n"), "{text}");
    }

    #[test]
    fn a_sleeping_program_is_ile_not_tle() {
        let dir = folder();
        let (ok, text) = judge_text(&dir, "read n; [ $n = 3 ] && exec sleep 5; echo 0", 100);
        assert!(!ok);
        assert!(text.starts_with("ILE "), "{text}");
        assert!(
            text.contains("idle: killed after 1")
                && text.contains("(the idleness limit, 2 x 100 + 1000 ms)"),
            "{text}"
        );
        assert!(text.ends_with("AC 1/2 (ILE 1)\n"), "{text}");
    }

    #[test]
    fn fail_fast_stops_at_the_first_failure() {
        let dir = folder();
        let (ok, text) = judge_with(&dir, "echo 5", 5000, true);
        assert!(!ok);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("WA "), "{text}");
        assert!(
            text.contains("\nstopped at the first failure (--fail-fast): 1 case not run\n"),
            "{text}"
        );
        assert!(text.ends_with("\nAC 0/1 (WA 1)\n"), "{text}");
    }

    #[test]
    fn cases_beyond_the_judges_data_are_counted_apart() {
        let dir = folder();
        dir.write("a/2.beyond", "n = 1: the judge's data has n >= 2\n");
        // Right except on the case beyond the judge's data.
        let (ok, text) = judge_text(&dir, "read n; read x; [ $n = 1 ] && echo 7 || echo 9", 5000);
        assert!(ok, "a failure beyond the judge's data is not a failure: {text}");
        assert!(
            text.contains("\n    beyond the judge's data: n = 1: the judge's data has n >= 2\n"),
            "{text}"
        );
        assert!(
            text.contains("\nAC 1/1; beyond the judge's data: 0/1\n(beyond the judge's data: "),
            "{text}"
        );
    }

    #[test]
    fn a_program_that_cannot_start_or_no_cases_is_an_error() {
        let dir = folder();
        let cmd = Cmd::new("/nonexistent/kit-no-such-program");
        let mut j = Judge {
            rule: Rule::Exact,
            dirs: vec![dir.path().to_path_buf()],
            files: Vec::new(),
            limits: Limits::time(Duration::from_secs(1)),
            cmd: &cmd,
            fail_fast: false,
        };
        let err = judge(&j, &mut Vec::new()).unwrap_err().to_string();
        assert!(err.starts_with("cannot start `/nonexistent/kit-no-such-program`"), "{err}");
        j.dirs = vec![dir.path().join("nothing")];
        assert!(judge(&j, &mut Vec::new())
            .unwrap_err()
            .to_string()
            .ends_with("nothing: no such folder"));
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn a_peak_over_the_memory_limit_is_mle() {
        let dir = folder();
        // dd's one 160 MiB block, filled: over a limit of 100 MiB, under
        // 256 (and above this test process's size, the floor of a figure).
        let hog =
            "dd if=/dev/zero of=/dev/null bs=160M count=1 iflag=fullblock 2>/dev/null; echo 0";
        let j = |memory_mb, cmd: &Cmd| {
            let j = Judge {
                rule: Rule::Exact,
                dirs: Vec::new(),
                files: vec![dir.path().join("a/2.in")],
                limits: Limits { memory_mb, ..Limits::time(Duration::from_secs(10)) },
                cmd,
                fail_fast: false,
            };
            let mut out = Vec::new();
            let ok = judge(&j, &mut out).expect("judged");
            (ok, String::from_utf8(out).unwrap())
        };
        let cmd = sh(hog);
        let (ok, text) = j(100, &cmd);
        assert!(!ok, "{text}");
        assert!(text.starts_with("MLE "), "{text}");
        assert!(text.contains("\n    over the memory limit: a peak of "), "{text}");
        assert!(text.contains(" MiB > 100 MiB (killed then)\n"), "{text}");
        assert!(text.ends_with("AC 0/1 (MLE 1)\n"), "{text}");
        let (ok, text) = j(256, &cmd);
        assert!(ok, "{text}");
        assert_eq!(text.lines().last(), Some("AC 1/1"));
    }

    #[test]
    fn one_case_file_is_judged_alone() {
        let dir = folder();
        let cmd = sh("echo 9");
        let j = Judge {
            rule: Rule::Exact,
            dirs: Vec::new(),
            files: vec![dir.path().join("a/1.in")],
            limits: Limits::time(Duration::from_secs(5)),
            cmd: &cmd,
            fail_fast: false,
        };
        let mut out = Vec::new();
        assert!(judge(&j, &mut out).expect("judged"));
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.lines().count(), 2, "{text}");
        assert!(text.starts_with("AC ") && text.contains("a/1.in\n"), "{text}");
        let lonely = Judge { files: vec![dir.path().join("lonely.in")], ..j };
        let err = judge(&lonely, &mut Vec::new()).unwrap_err().to_string();
        assert!(err.ends_with("lonely.in: has no .out (nor .err) beside it"), "{err}");
    }

    #[test]
    fn the_summary_lists_failures_in_order() {
        assert_eq!(summary([148, 2, 0, 0, 0]), "AC 148/150 (WA 2)");
        assert_eq!(summary([1, 1, 1, 1, 1]), "AC 1/5 (WA 1, RE 1, TLE 1, ILE 1)");
        assert_eq!(summary([3, 0, 0, 0, 0]), "AC 3/3");
        assert_eq!(summary([1, 0, 0, 0, 0, 2]), "AC 1/3 (MLE 2)");
        assert_eq!(summary([0, 0, 0, 1, 0, 0, 1]), "AC 0/2 (TLE 1, OLE 1)");
        assert_eq!(Verdict::OutputLimit.code(), "OLE");
    }
}
