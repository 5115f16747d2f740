//! `kit stress`: generated cases, our solver and the user's program on
//! each, until the first disagreement, crash or run over a limit; then the
//! input is shrunk while our solver still accepts it and the program still
//! fails the same way.
//!
//! With `--jobs N`, N cases run at once; the failure reported is still the
//! one with the lowest case number, the one `--jobs 1` finds: a worker
//! takes the case numbers in order, none starts a case above a failure
//! found, and every case below it is finished before the lowest is chosen.
//! Failures by time are the one exception to determinism: they depend on
//! the machine (on CPU time, not on its load), so a candidate that fails by
//! time while shrinking is run again and kept only if it fails again, and
//! the final case is run once more before it is printed.

use crate::compare::{self, Rule};
use crate::error::{Error, Result};
use crate::gen::Source;
use crate::judge::{self, Verdict};
use crate::problems::Problem;
use crate::run::{self, Cmd, Outcome};
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Shrinking stops after this many candidates even if some would still
/// fail (a shrinker that keeps offering equally large inputs).
pub const MAX_TRIES: usize = 20_000;

/// Runs of our solver spent on finding the smallest input for the start-up
/// check.
pub const SMALLEST_TRIES: usize = 300;

/// At most this many jobs (`--jobs`).
pub const MAX_JOBS: usize = 64;

/// What `kit stress` runs.
pub struct Stress<'a> {
    pub problem: &'a dyn Problem,
    /// One profile, or every profile in turn (`--profile all`).
    pub profiles: Vec<&'a str>,
    pub seed: u64,
    /// Our solver.
    pub solver: &'a Cmd,
    /// Cases per profile.
    pub count: u64,
    /// The user's program and its CPU time limit.
    pub cmd: &'a Cmd,
    pub limit: Duration,
    pub out_dir: PathBuf,
    /// Cases run at once.
    pub jobs: usize,
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
}

impl Kind {
    /// A failure by time, which a re-run may not repeat.
    fn by_time(self) -> bool {
        matches!(self, Kind::TimedOut | Kind::Idle)
    }
}

/// One failing input with both runs.
pub struct Failure {
    /// The generated case it comes from.
    pub index: u64,
    pub input: String,
    pub ours: Outcome,
    pub theirs: Outcome,
    pub kind: Kind,
    /// One line: what went wrong.
    pub what: String,
}

/// The program's failure on an input we answered with `ours`, if any.
fn failure(
    ours: &Outcome,
    theirs: &Outcome,
    rule: Rule,
    limit: Duration,
) -> Option<(Kind, String)> {
    let v = judge::verdict(&ours.stdout_text(), theirs, rule, limit);
    match v {
        Verdict::Accepted => None,
        Verdict::WrongAnswer(m) => {
            Some((Kind::Differs, format!("first difference: line {}: {}", m.line + 1, m.detail)))
        }
        Verdict::RuntimeError(status) => Some((
            Kind::Crashed,
            format!("your program failed: {}", judge::runtime_error(status, theirs, "")),
        )),
        Verdict::TimeLimit => Some((Kind::TimedOut, judge::over_limit(&v, theirs, limit))),
        Verdict::IdleLimit => Some((Kind::Idle, judge::over_limit(&v, theirs, limit))),
    }
}

/// The progress display on stderr: one line rewritten in place with `\r`
/// when stderr is a terminal (at most every 100 ms); otherwise (a log) a
/// line every 10 s.
pub struct Progress<'a> {
    err: &'a mut dyn Write,
    live: bool,
    start: Instant,
    shown: Option<Instant>,
    /// Between two lines in a log.
    pub log_every: Duration,
}

impl<'a> Progress<'a> {
    pub fn new(err: &'a mut dyn Write, live: bool) -> Progress<'a> {
        Progress {
            err,
            live,
            start: Instant::now(),
            shown: None,
            log_every: Duration::from_secs(10),
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Shows `line()` followed by the time elapsed, if it is time to.
    fn tick(&mut self, line: impl FnOnce() -> String) {
        let every = if self.live { Duration::from_millis(100) } else { self.log_every };
        let since = self.shown.unwrap_or(self.start);
        if self.shown.is_some() && since.elapsed() < every
            || !self.live && self.start.elapsed() < every
        {
            return;
        }
        self.shown = Some(Instant::now());
        let secs = self.start.elapsed().as_secs_f64();
        let _ = if self.live {
            write!(self.err, "\r{}, {secs:.1} s\x1b[K", line())
        } else {
            writeln!(self.err, "{}, {secs:.1} s", line())
        };
        let _ = self.err.flush();
    }

    fn clear(&mut self) {
        if self.live && self.shown.is_some() {
            let _ = write!(self.err, "\r\x1b[K");
            let _ = self.err.flush();
        }
    }
}

/// Cases per second, for progress lines and summaries.
fn rate(cases: u64, time: Duration) -> String {
    let secs = time.as_secs_f64();
    if secs <= 0.0 {
        return "- cases/s".to_string();
    }
    format!("{:.1} cases/s", cases as f64 / secs)
}

impl Stress<'_> {
    fn source<'s>(&'s self, profile: &'s str) -> Source<'s> {
        Source { problem: self.problem, profile, seed: self.seed, solver: self.solver }
    }

    fn run_theirs(&self, input: &str) -> Result<Outcome> {
        // No memory figure in stress reports: runs in parallel need not
        // wait for each other's spawn.
        run::run_with(self.cmd, input.as_bytes(), self.limit, None, run::Memory::Unmeasured)
            .map_err(|e| Error::io(format!("cannot start `{}`", self.cmd), e))
    }

    fn rule(&self) -> Rule {
        self.problem.rule()
    }

    /// Case `index` of `src`: its failure, if the program fails on it.
    fn try_case(&self, src: &Source, index: u64) -> Result<Option<Failure>> {
        let case = src.draw(index)?;
        let theirs = self.run_theirs(&case.input)?;
        Ok(failure(&case.ours, &theirs, self.rule(), self.limit).map(|(kind, what)| Failure {
            index,
            input: case.input,
            ours: case.ours,
            theirs,
            kind,
            what,
        }))
    }

    /// The first of the cases `0..count` of `profile` on which the program
    /// fails (or the first error, such as our solver failing), running
    /// `jobs` cases at once; and the number of cases run.
    pub fn find(&self, profile: &str, progress: &mut Progress) -> Result<(Option<Failure>, u64)> {
        let src = self.source(profile);
        let name = self.problem.name();
        let next = AtomicU64::new(0);
        // The lowest case number that failed so far: no case above it starts.
        let lowest = AtomicU64::new(u64::MAX);
        let (tx, rx) = mpsc::channel();
        let mut first: Option<(u64, Result<Failure>)> = None;
        let mut done = 0u64;
        let start = Instant::now();
        std::thread::scope(|scope| {
            for _ in 0..self.jobs.clamp(1, MAX_JOBS) {
                let tx = tx.clone();
                let (src, next, lowest) = (&src, &next, &lowest);
                scope.spawn(move || loop {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    if index >= self.count || index > lowest.load(Ordering::SeqCst) {
                        break;
                    }
                    let result = self.try_case(src, index);
                    if !matches!(result, Ok(None)) {
                        lowest.fetch_min(index, Ordering::SeqCst);
                    }
                    if tx.send((index, result)).is_err() {
                        break;
                    }
                });
            }
            drop(tx);
            loop {
                match rx.recv_timeout(Duration::from_millis(100)) {
                    Ok((index, result)) => {
                        done += 1;
                        let failed = match result {
                            Ok(None) => None,
                            Ok(Some(f)) => Some(Ok(f)),
                            Err(e) => Some(Err(e)),
                        };
                        if let Some(r) = failed {
                            if first.as_ref().map_or(true, |(i, _)| index < *i) {
                                first = Some((index, r));
                            }
                        }
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                    Err(mpsc::RecvTimeoutError::Disconnected) => break,
                }
                let total = self.count;
                progress.tick(|| {
                    format!(
                        "stress {name} ({profile}): {done}/{total} cases, {}",
                        rate(done, start.elapsed())
                    )
                });
            }
        });
        match first {
            None => Ok((None, done)),
            Some((_, Ok(f))) => Ok((Some(f), done)),
            Some((_, Err(e))) => Err(e),
        }
    }

    /// Runs the program again on a failure by time: the same failure, or
    /// `None` when this run did not fail that way.
    fn again(&self, f: &Failure) -> Result<Option<Failure>> {
        let theirs = self.run_theirs(&f.input)?;
        Ok(match failure(&f.ours, &theirs, self.rule(), self.limit) {
            Some((kind, what)) if kind == f.kind => Some(Failure {
                index: f.index,
                input: f.input.clone(),
                ours: f.ours.clone(),
                theirs,
                kind,
                what,
            }),
            _ => None,
        })
    }

    /// Takes the first of [`Problem::shrink`]'s candidates on which our
    /// solver exits 0 and the program fails the same way (twice, for a
    /// failure by time), until none does. Returns the smallest failure, the
    /// steps taken and the candidates tried.
    pub fn shrink(
        &self,
        mut best: Failure,
        progress: &mut Progress,
    ) -> Result<(Failure, usize, usize)> {
        let name = self.problem.name();
        let src = self.source("");
        let mut seen = HashSet::new();
        seen.insert(fingerprint(&best.input));
        let (mut steps, mut tried) = (0, 0);
        'smaller: loop {
            for candidate in self.problem.shrink(&best.input) {
                if tried >= MAX_TRIES {
                    break 'smaller;
                }
                if !seen.insert(fingerprint(&candidate)) {
                    continue;
                }
                tried += 1;
                progress.tick(|| {
                    format!(
                        "stress {name}: shrinking, {steps} steps, {tried} tried, {} bytes",
                        best.input.len()
                    )
                });
                let ours = src.answer(&candidate)?;
                if !ours.success() {
                    continue; // not a valid case (or a game that never ends)
                }
                let theirs = self.run_theirs(&candidate)?;
                match failure(&ours, &theirs, self.rule(), self.limit) {
                    Some((kind, what)) if kind == best.kind => {
                        let mut smaller = Failure {
                            index: best.index,
                            input: candidate,
                            ours,
                            theirs,
                            kind,
                            what,
                        };
                        if kind.by_time() {
                            match self.again(&smaller)? {
                                Some(confirmed) => smaller = confirmed,
                                None => continue, // noise: it failed once
                            }
                        }
                        best = smaller;
                        steps += 1;
                        continue 'smaller;
                    }
                    _ => {}
                }
            }
            break;
        }
        Ok((best, steps, tried))
    }

    /// The smallest input we can reach from case 0 of `profile` that our
    /// solver accepts (the shrinker's first accepted candidate, again and
    /// again, at most [`SMALLEST_TRIES`] runs of our solver).
    fn smallest(&self, profile: &str) -> Result<String> {
        let src = self.source(profile);
        let mut input = src.draw(0)?.input;
        let mut runs = 0;
        'smaller: while runs < SMALLEST_TRIES {
            for candidate in self.problem.shrink(&input) {
                runs += 1;
                if src.answer(&candidate)?.success() {
                    input = candidate;
                    continue 'smaller;
                }
                if runs >= SMALLEST_TRIES {
                    break;
                }
            }
            break;
        }
        Ok(input)
    }

    /// An error when the program's time on the smallest input (the better
    /// of two runs) is already over the limit: its start-up alone, which
    /// stressing would only "shrink" to the smallest input.
    pub fn check_start_up(&self, profile: &str) -> Result<()> {
        let input = self.smallest(profile)?;
        let mut best = Duration::MAX;
        for _ in 0..2 {
            let run = self.run_theirs(&input)?;
            best = best.min(run.cpu);
            if run.cpu <= self.limit && run.status != run::Status::IdleLimit {
                return Ok(());
            }
        }
        Err(Error::usage(format!(
            "your program takes {} ms of CPU on our smallest input ({} bytes), over the time \
             limit of {} ms: its start-up alone is over the limit; raise --time-limit",
            best.as_millis(),
            input.len(),
            self.limit.as_millis()
        )))
    }
}

/// FNV-1a: remembers the candidates tried without keeping them.
fn fingerprint(text: &str) -> u64 {
    text.bytes()
        .fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// The times of one run, for the report: `2310 ms CPU, 2402 ms wall`.
fn times(run: &Outcome) -> String {
    format!("{} ms CPU, {} ms wall", run.cpu.as_millis(), run.wall.as_millis())
}

/// `kit stress`: true when the program agrees with ours on every case of
/// every profile; else the shrunk failure is printed to `out` and written
/// to the folder.
pub fn stress(s: &Stress, out: &mut dyn Write, progress: &mut Progress) -> Result<bool> {
    let name = s.problem.name();
    s.check_start_up(s.profiles[0])?;
    for profile in &s.profiles {
        let before = progress.elapsed();
        let (found, done) = s.find(profile, progress)?;
        let Some(found) = found else {
            progress.clear();
            let took = progress.elapsed() - before;
            writeln!(
                out,
                "stress {name}: {done} cases (profile {profile}, seed {}), your program agrees \
                 with ours on all ({:.1} s, {})",
                s.seed,
                took.as_secs_f64(),
                rate(done, took)
            )?;
            continue;
        };
        report(s, profile, found, before, out, progress)?;
        return Ok(false);
    }
    Ok(true)
}

/// Shrinks `found`, checks the result once more, writes it and prints the
/// report.
fn report(
    s: &Stress,
    profile: &str,
    found: Failure,
    before: Duration,
    out: &mut dyn Write,
    progress: &mut Progress,
) -> Result<()> {
    let name = s.problem.name();
    let (index, size, first) = (found.index, found.input.len(), found.what.clone());
    let original_times = times(&found.theirs);
    let found_after = progress.elapsed() - before;
    let kept = if found.kind.by_time() {
        Some(Failure {
            index: found.index,
            input: found.input.clone(),
            ours: found.ours.clone(),
            theirs: found.theirs.clone(),
            kind: found.kind,
            what: found.what.clone(),
        })
    } else {
        None
    };
    let shrink_start = progress.elapsed();
    let (mut best, steps, tried) = s.shrink(found, progress)?;
    let shrinking = progress.elapsed() - shrink_start;
    // The final case, once more: a failure by time must show again.
    let mut note = String::new();
    if best.kind.by_time() {
        match s.again(&best)? {
            Some(confirmed) => best = confirmed,
            None => {
                note = format!(
                    "note: the shrunk case ({} bytes) did not fail again on a re-run; \
                     shown is the case as first found\n",
                    best.input.len()
                );
                best = kept.expect("kept for failures by time");
            }
        }
    }
    progress.clear();
    let base = s.out_dir.join(format!("{profile}-seed{}-case{index}", s.seed));
    let (in_path, out_path) = (base.with_extension("in"), base.with_extension("out"));
    std::fs::create_dir_all(&s.out_dir)
        .map_err(|e| Error::io(format!("cannot create {}", s.out_dir.display()), e))?;
    for (path, bytes) in [(&in_path, best.input.as_bytes()), (&out_path, &best.ours.stdout[..])] {
        std::fs::write(path, bytes)
            .map_err(|e| Error::io(format!("cannot write {}", path.display()), e))?;
    }
    let (ours, theirs) = (best.ours.stdout_text(), best.theirs.stdout_text());
    let cases = if index == 0 { "case" } else { "cases" };
    let mut report = format!(
        "stress {name}: case {index} (profile {profile}, seed {}) fails: {first}\n\
         found after {} {cases} in {:.1} s; shrunk in {steps} steps ({tried} candidates tried, \
         {:.1} s): {size} -> {} bytes\n\
         your program's time: {original_times} on the original; {} on the shrunk case\n{note}",
        s.seed,
        index + 1,
        found_after.as_secs_f64(),
        shrinking.as_secs_f64(),
        best.input.len(),
        times(&best.theirs),
    );
    let show = |title: String, text: &str| format!("== {title}\n{}", clip(text, 60));
    report += &show(format!("input ({})", display(&in_path)), &best.input);
    report += &show(format!("our output ({})", display(&out_path)), &ours);
    report += &show("your output".to_string(), &theirs);
    report += &format!("== {}\n", best.what);
    if let Some(m) =
        compare::compare(&ours, &theirs, s.rule()).filter(|_| best.kind == Kind::Differs)
    {
        report += &compare::context(&ours, &theirs, m.line);
    }
    report +=
        &format!("judge it again: kit judge {name} --dir {} -- {}\n", display(&s.out_dir), s.cmd);
    Ok(out.write_all(report.as_bytes())?)
}

fn display(path: &Path) -> String {
    crate::cases::display(path)
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

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use crate::problems::largest::{Largest, LARGEST};
    use crate::scratch::sh;
    use crate::scratch::Scratch;

    /// Right except that it does not see the digit 7.
    const BLIND_TO_7: &str = r#"read n; read xs
m=0; for x in $xs; do [ "$x" = 7 ] && continue; [ "$x" -gt "$m" ] && m=$x; done; echo "$m""#;

    fn stress_text(script: &str, seed: u64, count: u64) -> (bool, String, Scratch) {
        stress_with(script, seed, count, 1, 5000)
    }

    fn stress_with(
        script: &str,
        seed: u64,
        count: u64,
        jobs: usize,
        limit_ms: u64,
    ) -> (bool, String, Scratch) {
        let solver = sh(LARGEST);
        let cmd = sh(script);
        let dir = Scratch::new("stress");
        let s = Stress {
            problem: &Largest,
            profiles: vec!["random"],
            seed,
            solver: &solver,
            count,
            cmd: &cmd,
            limit: Duration::from_millis(limit_ms),
            out_dir: dir.path().join("failures"),
            jobs,
        };
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let ok = stress(&s, &mut out, &mut Progress::new(&mut err, false)).expect("stress runs");
        assert!(err.is_empty(), "no progress output when stderr is not a terminal");
        (ok, String::from_utf8(out).unwrap(), dir)
    }

    #[test]
    fn a_right_program_agrees_on_every_case() {
        let (ok, text, _dir) = stress_text(LARGEST, 1, 30);
        assert!(ok);
        assert!(
            text.starts_with("stress largest: 30 cases (profile random, seed 1), your program agrees with ours on all ("),
            "{text}"
        );
    }

    #[test]
    fn a_wrong_program_is_found_and_shrunk_to_the_smallest_input() {
        let (ok, text, dir) = stress_text(BLIND_TO_7, 1, 200);
        assert!(!ok);
        let first = text.lines().next().unwrap();
        assert!(first.starts_with("stress largest: case "), "{text}");
        // One digit 7 is the smallest input on which it goes wrong.
        let failures = dir.path().join("failures");
        let files: Vec<_> =
            std::fs::read_dir(&failures).unwrap().map(|e| e.unwrap().path()).collect();
        assert_eq!(files.len(), 2, "{files:?}");
        assert_eq!(written(&dir), "1\n7\n");
        let input = files.iter().find(|p| p.extension().unwrap() == "in").unwrap();
        assert_eq!(std::fs::read_to_string(input.with_extension("out")).unwrap(), "7\n");
        assert!(
            text.contains("== first difference: line 1: token 1: expected `7`, got `0`\n"),
            "{text}"
        );
        assert!(text.contains("\n== your output\n0\n"), "{text}");
        assert!(text.contains(" -> 4 bytes\n"), "{text}");
        // The same seed finds and shrinks the same case.
        let (_, again, dir2) = stress_text(BLIND_TO_7, 1, 200);
        let head = |t: &str| t.lines().next().unwrap().split(" fails").next().unwrap().to_string();
        assert_eq!(head(&text), head(&again));
        assert_eq!(written(&dir), written(&dir2));
    }

    /// The `.in` file stress wrote.
    fn written(dir: &Scratch) -> String {
        let input = std::fs::read_dir(dir.path().join("failures"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.extension().unwrap() == "in")
            .expect("a .in written");
        std::fs::read_to_string(input).unwrap()
    }

    #[test]
    fn a_crash_is_a_failure_and_stays_a_crash_while_shrinking() {
        // Crashes on inputs with a 9; otherwise right.
        let crashing = "read n; read xs; for x in $xs; do [ $x = 9 ] && exit 5; done
m=0; for x in $xs; do [ $x -gt $m ] && m=$x; done; echo $m";
        let (ok, text, dir) = stress_text(crashing, 2, 200);
        assert!(!ok, "{text}");
        assert!(text.contains("== your program failed: exit code 5\n"), "{text}");
        // Seed 2 fails first on a case of more than four digits: every
        // other digit shrinks to 0, but dropping one would leave n = 4,
        // which our solver rejects, so shrinking stops at five.
        assert_eq!(written(&dir), "5\n0 0 0 9 0\n");
    }

    #[test]
    fn jobs_find_the_same_lowest_failing_case() {
        let (_, one, dir1) = stress_with(BLIND_TO_7, 1, 200, 1, 5000);
        for jobs in [2, 5] {
            let (ok, many, dir) = stress_with(BLIND_TO_7, 1, 200, jobs, 5000);
            assert!(!ok);
            assert_eq!(one.lines().next(), many.lines().next(), "--jobs {jobs}");
            assert_eq!(written(&dir1), written(&dir));
        }
        let (ok, text, _) = stress_with(LARGEST, 1, 30, 3, 5000);
        assert!(ok);
        assert!(text.starts_with("stress largest: 30 cases"), "{text}");
    }

    #[test]
    fn a_failure_by_time_that_does_not_repeat_is_not_kept_while_shrinking() {
        // Busy (over the limit) on every other run, whatever the input: a
        // timeout by chance. No candidate fails twice in a row.
        let dir = Scratch::new("stress-flaky");
        let counter = dir.path().join("runs");
        let flaky = format!(
            "n=$(cat {c} 2>/dev/null || echo 0); echo $((n+1)) > {c}
[ $((n % 2)) = 0 ] && while :; do :; done
{LARGEST}",
            c = counter.display()
        );
        let (ok, text, _) = stress_with(&flaky, 1, 5, 1, 150);
        assert!(!ok, "{text}");
        assert!(text.contains("fails: over the time limit: "), "{text}");
        assert!(text.contains("; shrunk in 0 steps ("), "{text}");
        assert!(text.contains("\nyour program's time: "), "{text}");
    }

    #[test]
    fn a_slow_start_up_is_reported_before_stressing() {
        let solver = sh(LARGEST);
        let slow = sh(&format!("while :; do :; done; {LARGEST}"));
        let dir = Scratch::new("stress-start-up");
        let s = Stress {
            problem: &Largest,
            profiles: vec!["random"],
            seed: 1,
            solver: &solver,
            count: 10,
            cmd: &slow,
            limit: Duration::from_millis(100),
            out_dir: dir.path().join("failures"),
            jobs: 1,
        };
        let mut err = Vec::new();
        let e = stress(&s, &mut Vec::new(), &mut Progress::new(&mut err, false))
            .unwrap_err()
            .to_string();
        assert!(e.contains("its start-up alone is over the limit"), "{e}");
        assert!(e.contains(" ms of CPU on our smallest input ("), "{e}");
    }

    #[test]
    fn progress_goes_to_a_log_as_lines() {
        let mut err = Vec::new();
        let mut p = Progress::new(&mut err, false);
        p.log_every = Duration::ZERO;
        p.tick(|| "stress x: 3/9 cases".to_string());
        p.clear();
        let text = String::from_utf8(err).unwrap();
        assert!(text.starts_with("stress x: 3/9 cases, "), "{text:?}");
        assert!(text.ends_with(" s\n"), "{text:?}");
    }

    #[test]
    fn progress_is_rewritten_in_place_on_a_terminal() {
        let mut err = Vec::new();
        let mut p = Progress::new(&mut err, true);
        p.tick(|| "stress x: 3 cases".to_string());
        p.tick(|| "too soon".to_string());
        p.clear();
        let text = String::from_utf8(err).unwrap();
        assert!(text.starts_with("\rstress x: 3 cases, 0.0 s\x1b[K"), "{text:?}");
        assert!(!text.contains("too soon"));
        assert!(text.ends_with("\r\x1b[K"));
    }
}
