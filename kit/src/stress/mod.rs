//! `kit stress`: generated cases, our solver and the user's program on
//! each, until the first disagreement, crash or run over a limit; then the
//! input is shrunk while our solver still accepts it and the program still
//! fails the same way, within a budget, and saved. With `--keep-going`, on
//! past every failure to the last case: each failing case is shrunk and
//! saved, and the failures are counted per profile.
//!
//! Given the seed (and a deterministic program), the case found and its
//! shrunk form are the same every time, whatever `--jobs`. Failures by time
//! are the one exception: they depend on the machine (on CPU time, not on
//! its load), so they are tried twice; and the shrink budget is wall time,
//! so a slow machine may stop shrinking earlier (the report says so).
//!
//! The rooms, each using only those above it in this list:
//! - [`progress`]: the live line on stderr;
//! - [`cases`]: where a profile's cases come from (ours, or `--gen`);
//! - [`trial`]: one input tried on both programs, and how it failed;
//! - [`start_up`]: the program timed on our smallest input, before all;
//! - [`search`]: the cases run `--jobs` at once, the lowest failure first;
//! - [`shrink`]: a failure shrunk within its [`Budget`];
//! - [`save`]: a shrunk failure written as `.in` and `.out`;
//! - [`report`]: what is printed on stdout;
//! - and here, [`stress`]: the run as a whole, in that order.

pub mod cases;
pub mod progress;
pub mod report;
pub mod save;
pub mod search;
pub mod shrink;
pub mod start_up;
pub mod trial;

pub use cases::USER_GEN;
pub use progress::Progress;
pub use search::MAX_JOBS;
pub use shrink::{Budget, SHRINK_TIME};
pub use trial::{Failure, Kind};

use crate::error::Result;
use crate::judge::Limits;
use crate::problems::Problem;
use crate::run::Cmd;
use cases::Cases;
use report::Report;
use save::Saved;
use search::Search;
use shrink::Shrunk;
use std::io::Write;
use std::path::PathBuf;
use trial::Trial;

/// What `kit stress` runs.
pub struct Stress<'a> {
    pub problem: &'a dyn Problem,
    /// One profile, or every profile in turn (`--profile all`); with a
    /// user's generator, [`USER_GEN`].
    pub profiles: Vec<&'a str>,
    pub seed: u64,
    /// Our solver.
    pub solver: &'a Cmd,
    /// Cases per profile.
    pub count: u64,
    /// The user's program and the limits of each of its runs.
    pub cmd: &'a Cmd,
    pub limits: Limits,
    pub out_dir: PathBuf,
    /// Cases run at once.
    pub jobs: usize,
    /// Go on past failures (`--keep-going`).
    pub keep_going: bool,
    /// The user's generator, `CMD {seed}` (`--gen`), instead of our
    /// profiles.
    pub generator: Option<&'a str>,
    /// How kit was invoked (`./target/release/kit`), for the command that
    /// judges the saved cases again.
    pub kit: &'a str,
    /// How long shrinking one failing case may take (`--shrink-time`).
    pub shrink: Budget,
}

impl Stress<'_> {
    fn trial(&self) -> Trial<'_> {
        Trial { problem: self.problem, solver: self.solver, cmd: self.cmd, limits: self.limits }
    }

    fn cases<'s>(&'s self, profile: &'s str) -> Cases<'s> {
        Cases::new(self.problem, profile, self.seed, self.solver, self.generator)
    }

    fn report(&self) -> Report<'_> {
        let judge_again = format!(
            "{} judge {} --dir {} -- {}",
            self.kit,
            self.problem.name(),
            crate::cases::display(&self.out_dir),
            self.cmd
        );
        Report { problem: self.problem, seed: self.seed, out_dir: &self.out_dir, judge_again }
    }

    /// Shrinks `found` within the budget.
    fn shrink(&self, found: Failure, progress: &mut Progress) -> Result<Shrunk> {
        let shrunk = shrink::shrink(&self.trial(), found, self.shrink, progress)?;
        progress.clear();
        Ok(shrunk)
    }

    /// Saves a shrunk failure as `PROFILE-seedS-caseI.in` with our answer
    /// beside it.
    fn save(&self, profile: &str, shrunk: &Shrunk) -> Result<Saved> {
        let name = format!("{profile}-seed{}-case{}", self.seed, shrunk.found.index);
        save::save(&self.out_dir, &name, &shrunk.best)
    }
}

/// `kit stress`: true when the program agrees with ours on every case of
/// every profile. Else the shrunk failure is printed to `out` and written
/// to the folder; with `keep_going`, every failing case is, in a line each,
/// and counted per profile.
///
/// # Errors
/// The errors of drawing a case ([`crate::gen`]), of starting the program,
/// of the start-up check, of saving a failure and of writing to `out`.
///
/// Each case costs one run of ours and one of theirs; a failure adds the
/// shrinker's runs, at most its budget.
pub fn stress(s: &Stress, out: &mut dyn Write, progress: &mut Progress) -> Result<bool> {
    Ok(stress_ended(s, out, progress)?.agreed)
}

/// How a stress run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ended {
    /// The program agreed on every case.
    pub agreed: bool,
    /// Some failure was a wrong answer (not a crash or a limit): a
    /// misread rule may be the cause.
    pub wrong_answer: bool,
}

/// [`stress`], saying how it ended.
///
/// # Errors
/// As [`stress`]'s.
pub fn stress_ended(s: &Stress, out: &mut dyn Write, progress: &mut Progress) -> Result<Ended> {
    let (trial, report) = (s.trial(), s.report());
    let mut wrong_answer = false;
    start_up::check(&trial, &s.cases(s.profiles[0]))?;
    let (mut failed, mut failed_profiles) = (0u64, 0usize);
    for profile in &s.profiles {
        let cases = s.cases(profile);
        let search = Search {
            trial: &trial,
            cases: &cases,
            profile,
            count: s.count,
            jobs: s.jobs,
            keep_going: s.keep_going,
        };
        let before = progress.elapsed();
        let found = search.find(progress)?;
        let count = found.failures.len();
        let mut failures = found.failures.into_iter();
        let Some(first) = failures.next() else {
            progress.clear();
            report.agrees(profile, found.done, progress.elapsed() - before, out)?;
            continue;
        };
        if !s.keep_going {
            let found_after = progress.elapsed() - before;
            let shrunk = s.shrink(first, progress)?;
            let saved = s.save(profile, &shrunk)?;
            report.failure(profile, &shrunk, &saved, found_after, out)?;
            let wrong_answer = shrunk.best.kind == Kind::Differs;
            return Ok(Ended { agreed: false, wrong_answer });
        }
        let mut kinds: Vec<(Kind, usize)> = Vec::new();
        for failure in std::iter::once(first).chain(failures) {
            let shrunk = s.shrink(failure, progress)?;
            let saved = s.save(profile, &shrunk)?;
            let kind = shrunk.best.kind;
            wrong_answer |= kind == Kind::Differs;
            match kinds.iter_mut().find(|(k, _)| *k == kind) {
                Some((_, n)) => *n += 1,
                None => kinds.push((kind, 1)),
            }
            report.failure_line(profile, &shrunk, &saved, out)?;
        }
        report.profile_failures(profile, count, found.done, &kinds, out)?;
        failed += count as u64;
        failed_profiles += 1;
    }
    if failed == 0 {
        return Ok(Ended { agreed: true, wrong_answer });
    }
    report.all_failures(failed, failed_profiles, s.profiles.len(), out)?;
    Ok(Ended { agreed: false, wrong_answer })
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use crate::problems::largest::{Largest, LARGEST};
    use crate::scratch::sh;
    use crate::scratch::Scratch;
    use shrink::MAX_TRIES;
    use std::time::Duration;

    /// A shrink budget no test machine spends, however loaded: the
    /// shrinking of these tests ends at the minimum, not at a clock.
    const AMPLE: Budget = Budget { time: Duration::from_secs(24 * 3600), candidates: MAX_TRIES };

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
            limits: Limits::time(Duration::from_millis(limit_ms)),
            out_dir: dir.path().join("failures"),
            jobs,
            keep_going: false,
            generator: None,
            kit: "kit",
            shrink: AMPLE,
        };
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let mut progress = Progress::new(&mut err, false);
        // No line in the log however long a loaded machine takes (a line
        // every 10 s would make the check below depend on the wall clock).
        progress.log_every = Duration::from_secs(24 * 3600);
        let ok = stress(&s, &mut out, &mut progress).expect("stress runs");
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

    /// `kit stress` with `program` as the user's program on the toy
    /// problem (seed 1, `count` cases, a time limit of `limit_ms`),
    /// changed by `adjust`: its result (or error), stdout and folder.
    fn stress_by(
        program: &str,
        count: u64,
        limit_ms: u64,
        adjust: impl FnOnce(&mut Stress),
    ) -> (Result<bool>, String, Scratch) {
        let solver = sh(LARGEST);
        let cmd = sh(program);
        let dir = Scratch::new("stress-by");
        let mut s = Stress {
            problem: &Largest,
            profiles: vec!["random"],
            seed: 1,
            solver: &solver,
            count,
            cmd: &cmd,
            limits: Limits::time(Duration::from_millis(limit_ms)),
            out_dir: dir.path().join("failures"),
            jobs: 1,
            keep_going: false,
            generator: None,
            kit: "kit",
            shrink: AMPLE,
        };
        adjust(&mut s);
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let result = stress(&s, &mut out, &mut Progress::new(&mut err, false));
        (result, String::from_utf8(out).unwrap(), dir)
    }

    #[test]
    fn a_slow_start_up_is_reported_before_stressing() {
        // About 0.2 s of CPU before it answers (dash counts to 200000 in
        // that): over the limit of 100 ms, under 3 x that.
        let slow = format!("i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; {LARGEST}");
        let (result, _, _) = stress_by(&slow, 10, 100, |_| {});
        let e = result.expect_err("refused").to_string();
        assert!(e.contains("its start-up alone is over the limit"), "{e}");
        assert!(e.contains(" ms of CPU on our smallest input ("), "{e}");
    }

    #[test]
    fn an_endless_program_at_start_up_is_reported_as_such() {
        let (result, _, _) = stress_by(&format!("while :; do :; done; {LARGEST}"), 10, 100, |_| {});
        let e = result.expect_err("refused").to_string();
        assert!(e.starts_with("your program does not end on our smallest input ("), "{e}");
        assert!(e.contains("3 x the time limit of 100 ms of CPU, or 1600 ms of wall)"), "{e}");
    }

    #[test]
    fn a_program_that_waits_at_start_up_is_reported_as_such() {
        let (result, _, _) = stress_by("exec sleep 30", 10, 100, |_| {});
        let e = result.expect_err("refused").to_string();
        assert!(e.starts_with("your program waits on our smallest input ("), "{e}");
        assert!(e.contains("idle past the idleness limit (2 x 100 + 1000 ms"), "{e}");
    }

    #[test]
    fn keep_going_shrinks_and_saves_every_failure_and_counts_them() {
        let (result, text, dir) = stress_by(BLIND_TO_7, 60, 5000, |s| s.keep_going = true);
        assert!(!result.expect("runs"), "{text}");
        let lines: Vec<&str> = text.lines().collect();
        let failing: Vec<&&str> = lines.iter().filter(|l| l.starts_with("case ")).collect();
        assert!(failing.len() > 1, "{text}");
        for line in &failing {
            assert!(line.contains(" (profile random) fails: first difference: "), "{line}");
            assert!(line.contains("; shrunk ") && line.contains(" bytes: "), "{line}");
            assert!(line.contains(&crate::cases::display(&dir.path().join("failures"))));
        }
        let n = failing.len();
        assert!(
            text.contains(&format!(
                "\nstress largest: {n} of 60 cases (profile random, seed 1) fail (WA {n})\n"
            )),
            "{text}"
        );
        assert!(text.contains(&format!("stress largest: {n} failing cases, shrunk and saved to ")));
        assert!(text.contains("\njudge them again: kit judge largest --dir "), "{text}");
        let saved = std::fs::read_dir(dir.path().join("failures")).unwrap().count();
        assert_eq!(saved, 2 * n, "a .in and a .out per failure");
        // Without --keep-going, the first of them alone.
        let (result, first, _) = stress_by(BLIND_TO_7, 60, 5000, |_| {});
        assert!(!result.unwrap());
        let case = failing[0].split(" (").next().unwrap().trim_start_matches("case ");
        assert!(first.starts_with(&format!("stress largest: case {case} (profile random")));
    }

    #[test]
    fn a_users_generator_makes_the_cases_and_is_named_in_the_report() {
        // Always the digits 7 and 1: the program blind to 7 fails at once.
        let (result, text, dir) =
            stress_by(BLIND_TO_7, 5, 5000, |s| s.generator = Some("echo 2; echo 7 1 # {seed}"));
        assert!(!result.expect("runs"), "{text}");
        assert!(text.starts_with("stress largest: case 0 (profile random, seed 1) fails: "));
        assert!(text.contains("\nmade by your generator: echo 2; echo 7 1 # "), "{text}");
        assert_eq!(written(&dir), "1\n7\n", "shrunk as a generated case would be");
        let (result, text, _) =
            stress_by(LARGEST, 5, 5000, |s| s.generator = Some("echo 1; echo {seed} | cut -c1"));
        assert!(result.expect("runs"), "{text}");
        assert!(text
            .starts_with("stress largest: 5 cases (profile random, seed 1), your program agrees"));
    }

    #[test]
    fn the_hint_judges_again_with_kit_as_invoked() {
        let (_, text, dir) = stress_by(BLIND_TO_7, 200, 5000, |s| s.kit = "./target/release/kit");
        let want = format!(
            "judge it again: ./target/release/kit judge largest --dir {} -- sh -c ",
            crate::cases::display(&dir.path().join("failures"))
        );
        assert!(text.contains(&want), "{text}");
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn a_peak_over_the_memory_limit_is_a_failure() {
        let hog = format!(
            "dd if=/dev/zero of=/dev/null bs=160M count=1 iflag=fullblock 2>/dev/null; {LARGEST}"
        );
        let (result, text, _) = stress_by(&hog, 3, 5000, |s| s.limits.memory_mb = 100);
        assert!(!result.expect("runs"), "{text}");
        assert!(text.contains(" fails: over the memory limit: a peak of "), "{text}");
        let (result, text, _) = stress_by(&hog, 3, 5000, |_| {});
        assert!(result.expect("runs"), "256 MiB is enough: {text}");
    }

    /// `3\n7 1 2\n` shrunk for [`BLIND_TO_7`] within `budget`, with the
    /// progress lines it showed (a line for each candidate).
    fn shrink_712(budget: Budget) -> (Shrunk, String) {
        let (solver, cmd) = (sh(LARGEST), sh(BLIND_TO_7));
        let limits = Limits::time(Duration::from_secs(5));
        let t = Trial { problem: &Largest, solver: &solver, cmd: &cmd, limits };
        let input = "3\n7 1 2\n".to_string();
        let ours = t.answer(&input).unwrap();
        let theirs = t.run_theirs(&input).unwrap();
        let fault = t.fault(&ours, &theirs).expect("blind to the 7");
        let (kind, what) = (fault.kind, fault.what);
        let found = Failure { index: 0, input, ours, theirs, kind, what, made_by: None };
        let mut err = Vec::new();
        let mut progress = Progress::new(&mut err, false);
        progress.log_every = Duration::ZERO;
        let shrunk = shrink::shrink(&t, found, budget, &mut progress).unwrap();
        (shrunk, String::from_utf8(err).unwrap())
    }

    #[test]
    fn shrinking_stops_at_its_budget_with_the_smallest_failing_input_so_far() {
        // The candidates in the shrinker's order: `2\n1 2\n` (passes),
        // `2\n7 2\n` (fails: kept), then `1\n2\n`, ... Two candidates are
        // the budget: it stops at the one kept so far.
        let (cut, log) = shrink_712(Budget { time: AMPLE.time, candidates: 2 });
        assert_eq!(cut.best.input, "2\n7 2\n");
        assert_eq!((cut.steps, cut.tried), (1, 2));
        assert_eq!(cut.stopped, Some(shrink::Stop::Candidates(2)));
        assert_eq!(cut.found.size, 8);
        // A line per candidate: its number and size, the smallest failing
        // input so far against the original, the time against the budget.
        let lines: Vec<&str> = log.lines().collect();
        assert_eq!(lines.len(), 2, "{log}");
        for (line, want) in lines.iter().zip([
            "stress largest: shrinking case 0: candidate 1 (6 bytes), smallest failing 8 of 8 bytes, ",
            "stress largest: shrinking case 0: candidate 2 (6 bytes), smallest failing 8 of 8 bytes, ",
        ]) {
            assert!(line.starts_with(want) && line.ends_with(" of 86400 s"), "{line}");
        }
        // An ample budget ends at the minimum, and says nothing of a budget.
        let (full, _) = shrink_712(AMPLE);
        assert_eq!(full.best.input, "1\n7\n");
        assert_eq!(full.stopped, None);
        // Nothing left to try is no cut: the minimum, with a budget of as
        // many candidates as it took, is not "stopped".
        let (exact, _) = shrink_712(Budget { time: AMPLE.time, candidates: full.tried });
        assert_eq!((exact.best.input.as_str(), exact.stopped), ("1\n7\n", None));
    }

    #[test]
    fn a_shrink_time_of_0_reports_the_case_as_found_and_says_it_was_cut() {
        let zero = Budget::time(Duration::ZERO);
        let (shrunk, log) = shrink_712(zero);
        assert_eq!((shrunk.best.input.as_str(), shrunk.tried), ("3\n7 1 2\n", 0));
        assert_eq!(shrunk.stopped, Some(shrink::Stop::Time(Duration::ZERO)));
        assert!(log.is_empty(), "no candidate tried: {log}");
        // In the report, and in --keep-going's line.
        let (result, text, dir) = stress_by(BLIND_TO_7, 200, 5000, |s| s.shrink = zero);
        assert!(!result.unwrap(), "{text}");
        assert!(text.contains("; shrunk in 0 steps (0 candidates tried, "), "{text}");
        assert!(
            text.contains(
                "\nshrinking stopped at the budget (--shrink-time 0 s) with candidates left: \
                 shown is the smallest failing input found so far\n"
            ),
            "{text}"
        );
        let size = written(&dir).len();
        assert!(text.contains(&format!(": {size} -> {size} bytes\n")), "{text}");
        let (_, text, _) = stress_by(BLIND_TO_7, 60, 5000, |s| {
            s.shrink = zero;
            s.keep_going = true;
        });
        assert!(text.contains(" bytes (stopped at the budget: --shrink-time 0 s): "), "{text}");
    }
}
