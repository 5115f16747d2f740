//! `kit stress`: generated cases, our solver and the user's program on
//! each, until the first disagreement, crash or run over a limit; then the
//! input is shrunk while our solver still accepts it and the program still
//! fails the same way. With `--keep-going`, on past every failure to the
//! last case: each failing case is shrunk and saved, and the failures are
//! counted per profile. The cases come from one of our profiles, or from
//! the user's own generator (`--gen 'CMD {seed}'`, [`gen::Command`]).
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
use crate::gen::{self, Drawn, Source};
use crate::judge::{self, Limits, Verdict};
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

/// How much longer than the time limit a program slow on our smallest
/// input gets, to tell a slow start-up from one that never ends.
pub const START_UP_GRACE: u32 = 10;

/// The name of the cases of a user's generator where a profile's goes.
pub const USER_GEN: &str = "gen";

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
    fn by_time(self) -> bool {
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

/// The program's failure on an input we answered with `ours`, if any.
fn failure(
    ours: &Outcome,
    theirs: &Outcome,
    rule: Rule,
    limits: &Limits,
) -> Option<(Kind, String)> {
    let v = judge::verdict(&ours.stdout_text(), theirs, rule, limits);
    match v {
        Verdict::Accepted => None,
        Verdict::WrongAnswer(m) => {
            Some((Kind::Differs, format!("first difference: line {}: {}", m.line + 1, m.detail)))
        }
        Verdict::RuntimeError(status) => Some((
            Kind::Crashed,
            format!("your program failed: {}", judge::runtime_error(status, theirs, "")),
        )),
        Verdict::TimeLimit => Some((Kind::TimedOut, judge::over_limit(&v, theirs, limits))),
        Verdict::IdleLimit => Some((Kind::Idle, judge::over_limit(&v, theirs, limits))),
        Verdict::MemoryLimit => Some((Kind::OverMemory, judge::over_limit(&v, theirs, limits))),
        Verdict::OutputLimit => Some((Kind::OverOutput, judge::over_limit(&v, theirs, limits))),
    }
}

/// Where one profile's cases come from.
enum Cases<'s> {
    /// One of our profiles.
    Ours(Source<'s>),
    /// The user's generator.
    Theirs(gen::Command<'s>),
}

impl Cases<'_> {
    fn draw(&self, index: u64) -> Result<Drawn> {
        match self {
            Cases::Ours(src) => src.draw(index),
            Cases::Theirs(command) => command.draw(index),
        }
    }

    /// How to make case `index` again, for the report: the generator's
    /// command line.
    fn made_by(&self, index: u64, drawn: &Drawn) -> Option<String> {
        match self {
            Cases::Ours(_) => None,
            Cases::Theirs(command) => Some(command.line(index, drawn.rejected)),
        }
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
    fn cases<'s>(&'s self, profile: &'s str) -> Cases<'s> {
        match self.generator {
            Some(template) => {
                Cases::Theirs(gen::Command { template, seed: self.seed, solver: self.solver })
            }
            None => Cases::Ours(Source {
                problem: self.problem,
                profile,
                seed: self.seed,
                solver: self.solver,
            }),
        }
    }

    /// Our solver's run on `input`.
    fn answer(&self, input: &str) -> Result<Outcome> {
        gen::answer(self.solver, input)
    }

    fn run_theirs(&self, input: &str) -> Result<Outcome> {
        // The peak memory is measured (for the memory limit): spawns are
        // then one at a time, the runs still in parallel.
        run::run_with(self.cmd, input.as_bytes(), self.limits, None, run::Memory::Measured)
            .map_err(|e| Error::io(format!("cannot start `{}`", self.cmd), e))
    }

    fn rule(&self) -> Rule {
        self.problem.rule()
    }

    /// Case `index`: its failure, if the program fails on it, and how to
    /// make the case again.
    fn try_case(&self, cases: &Cases, index: u64) -> Result<Option<Failure>> {
        let case = cases.draw(index)?;
        let made_by = cases.made_by(index, &case);
        let theirs = self.run_theirs(&case.input)?;
        Ok(failure(&case.ours, &theirs, self.rule(), &self.limits).map(|(kind, what)| Failure {
            index,
            input: case.input,
            ours: case.ours,
            theirs,
            kind,
            what,
            made_by,
        }))
    }

    /// The cases `0..count` on which the program fails, lowest first: only
    /// the first unless `keep_going` (or the first error, such as our
    /// solver failing), running `jobs` cases at once; and the number of
    /// cases run.
    fn find(
        &self,
        cases: &Cases,
        profile: &str,
        progress: &mut Progress,
    ) -> Result<(Vec<Failure>, u64)> {
        let name = self.problem.name();
        let next = AtomicU64::new(0);
        // The lowest case number that stops the search: no case above it
        // starts (a failure without --keep-going, an error).
        let lowest = AtomicU64::new(u64::MAX);
        let (tx, rx) = mpsc::channel();
        let mut results = Vec::new();
        let (mut done, mut failing) = (0u64, 0u64);
        let start = Instant::now();
        std::thread::scope(|scope| {
            for _ in 0..self.jobs.clamp(1, MAX_JOBS) {
                let tx = tx.clone();
                let (next, lowest) = (&next, &lowest);
                scope.spawn(move || loop {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    if index >= self.count || index > lowest.load(Ordering::SeqCst) {
                        break;
                    }
                    let result = self.try_case(cases, index);
                    let stops = match result {
                        Ok(None) => false,
                        Ok(Some(_)) => !self.keep_going,
                        Err(_) => true,
                    };
                    if stops {
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
                        match result {
                            Ok(None) => {}
                            Ok(Some(f)) => {
                                failing += 1;
                                results.push((index, Ok(f)));
                            }
                            Err(e) => results.push((index, Err(e))),
                        }
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                    Err(mpsc::RecvTimeoutError::Disconnected) => break,
                }
                let total = self.count;
                let failing = match (self.keep_going, failing) {
                    (false, _) | (true, 0) => String::new(),
                    (true, n) => format!(", {n} failing"),
                };
                progress.tick(|| {
                    format!(
                        "stress {name} ({profile}): {done}/{total} cases{failing}, {}",
                        rate(done, start.elapsed())
                    )
                });
            }
        });
        results.sort_by_key(|(index, _)| *index);
        let mut failures = Vec::new();
        for (_, result) in results {
            failures.push(result?);
            if !self.keep_going {
                break;
            }
        }
        Ok((failures, done))
    }

    /// Runs the program again on a failure by time: the same failure, or
    /// `None` when this run did not fail that way.
    fn again(&self, f: &Failure) -> Result<Option<Failure>> {
        let theirs = self.run_theirs(&f.input)?;
        Ok(match failure(&f.ours, &theirs, self.rule(), &self.limits) {
            Some((kind, what)) if kind == f.kind => Some(Failure {
                index: f.index,
                input: f.input.clone(),
                ours: f.ours.clone(),
                theirs,
                kind,
                what,
                made_by: f.made_by.clone(),
            }),
            _ => None,
        })
    }

    /// Takes the first of [`Problem::shrink`]'s candidates on which our
    /// solver exits 0 and the program fails the same way (twice, for a
    /// failure by time), until none does. Returns the smallest failure, the
    /// steps taken and the candidates tried.
    fn shrink(
        &self,
        mut best: Failure,
        progress: &mut Progress,
    ) -> Result<(Failure, usize, usize)> {
        let name = self.problem.name();
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
                let ours = self.answer(&candidate)?;
                if !ours.success() {
                    continue; // not a valid case (or a game that never ends)
                }
                let theirs = self.run_theirs(&candidate)?;
                match failure(&ours, &theirs, self.rule(), &self.limits) {
                    Some((kind, what)) if kind == best.kind => {
                        let mut smaller = Failure {
                            index: best.index,
                            input: candidate,
                            ours,
                            theirs,
                            kind,
                            what,
                            made_by: best.made_by.clone(),
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

    /// The smallest input we can reach from case 0 that our solver accepts
    /// (the shrinker's first accepted candidate, again and again, at most
    /// [`SMALLEST_TRIES`] runs of our solver).
    fn smallest(&self, cases: &Cases) -> Result<String> {
        let mut input = cases.draw(0)?.input;
        let mut runs = 0;
        'smaller: while runs < SMALLEST_TRIES {
            for candidate in self.problem.shrink(&input) {
                runs += 1;
                if self.answer(&candidate)?.success() {
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

    /// An error when the program is already over the limit on the smallest
    /// input (the better of two runs), which stressing would only "shrink"
    /// to that input; the error says which: it waits (idle), it never ends
    /// (still running at [`START_UP_GRACE`] times the limit), or its
    /// start-up alone is over the limit.
    fn check_start_up(&self, cases: &Cases) -> Result<()> {
        let input = self.smallest(cases)?;
        let mut best = Duration::MAX;
        let mut idle = true;
        for _ in 0..2 {
            let run = self.run_theirs(&input)?;
            best = best.min(run.cpu);
            if run.cpu <= self.limits.time && run.status != run::Status::IdleLimit {
                return Ok(());
            }
            idle &= run.status == run::Status::IdleLimit;
        }
        let (bytes, ms) = (input.len(), self.limits.time.as_millis());
        if idle {
            return Err(Error::usage(format!(
                "your program waits on our smallest input ({bytes} bytes): idle past the \
                 idleness limit (2 x {ms} + 1000 ms of wall time) with {} ms of CPU; it sleeps, \
                 or waits for input it never gets (it reads stdin to its end?)",
                best.as_millis()
            )));
        }
        let longer = self.limits.time * START_UP_GRACE;
        let cmd = self.cmd;
        let run = run::run_with(cmd, input.as_bytes(), longer, None, run::Memory::Unmeasured)
            .map_err(|e| Error::io(format!("cannot start `{cmd}`"), e))?;
        if matches!(run.status, run::Status::CpuLimit | run::Status::IdleLimit) {
            return Err(Error::usage(format!(
                "your program does not end on our smallest input ({bytes} bytes): still running \
                 after {} ms of CPU, {START_UP_GRACE} x the time limit of {ms} ms; an endless \
                 loop at start-up?",
                run.cpu.as_millis()
            )));
        }
        Err(Error::usage(format!(
            "your program takes {} ms of CPU on our smallest input ({bytes} bytes), over the \
             time limit of {ms} ms: its start-up alone is over the limit; raise --time-limit",
            best.min(run.cpu).as_millis()
        )))
    }

    /// `--dir` of the saved cases, and the command that judges them again.
    fn judge_again(&self) -> String {
        format!(
            "{} judge {} --dir {} -- {}",
            self.kit,
            self.problem.name(),
            display(&self.out_dir),
            self.cmd
        )
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
/// every profile. Else the shrunk failure is printed to `out` and written
/// to the folder; with `keep_going`, every failing case is, in a line each,
/// and counted per profile.
pub fn stress(s: &Stress, out: &mut dyn Write, progress: &mut Progress) -> Result<bool> {
    let name = s.problem.name();
    s.check_start_up(&s.cases(s.profiles[0]))?;
    let (mut failed, mut failed_profiles) = (0u64, 0usize);
    for profile in &s.profiles {
        let cases = s.cases(profile);
        let before = progress.elapsed();
        let (failures, done) = s.find(&cases, profile, progress)?;
        if failures.is_empty() {
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
        }
        if !s.keep_going {
            let found = failures.into_iter().next().expect("one failure");
            let found_after = progress.elapsed() - before;
            let saved = shrink_and_save(s, profile, found, progress)?;
            report(s, profile, &saved, found_after, out)?;
            return Ok(false);
        }
        let mut kinds: Vec<(Kind, usize)> = Vec::new();
        let count = failures.len();
        for found in failures {
            let saved = shrink_and_save(s, profile, found, progress)?;
            let kind = saved.best.kind;
            match kinds.iter_mut().find(|(k, _)| *k == kind) {
                Some((_, n)) => *n += 1,
                None => kinds.push((kind, 1)),
            }
            let made = match &saved.best.made_by {
                Some(line) => format!(" (made by: {line})"),
                None => String::new(),
            };
            writeln!(
                out,
                "case {} (profile {profile}) fails: {}; shrunk {} -> {} bytes: {}{made}",
                saved.index,
                saved.best.what,
                saved.size,
                saved.best.input.len(),
                display(&saved.in_path)
            )?;
        }
        kinds.sort_by_key(|(k, _)| *k as usize);
        let kinds: Vec<String> = kinds.iter().map(|(k, n)| format!("{} {n}", k.code())).collect();
        writeln!(
            out,
            "stress {name}: {count} of {done} cases (profile {profile}, seed {}) fail ({})",
            s.seed,
            kinds.join(", ")
        )?;
        failed += count as u64;
        failed_profiles += 1;
    }
    if failed == 0 {
        return Ok(true);
    }
    let profiles = if s.profiles.len() == 1 {
        String::new()
    } else {
        format!(" in {failed_profiles} of {} profiles", s.profiles.len())
    };
    let cases = if failed == 1 { "case" } else { "cases" };
    writeln!(
        out,
        "stress {name}: {failed} failing {cases}{profiles}, shrunk and saved to {}\n\
         judge them again: {}",
        display(&s.out_dir),
        s.judge_again()
    )?;
    Ok(false)
}

/// A failure shrunk, checked once more and written to the folder.
struct Saved {
    index: u64,
    /// The size of the input as found, what went wrong then and the times.
    size: usize,
    first: String,
    original_times: String,
    best: Failure,
    steps: usize,
    tried: usize,
    shrinking: Duration,
    /// Said when the shrunk case did not fail again.
    note: String,
    in_path: PathBuf,
    out_path: PathBuf,
}

/// Shrinks `found`, checks the result once more and writes it as
/// `PROFILE-seedS-caseI.in` with our answer beside it.
fn shrink_and_save(
    s: &Stress,
    profile: &str,
    found: Failure,
    progress: &mut Progress,
) -> Result<Saved> {
    let (index, size, first) = (found.index, found.input.len(), found.what.clone());
    let original_times = times(&found.theirs);
    let kept = if found.kind.by_time() { Some(found.clone()) } else { None };
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
    Ok(Saved {
        index,
        size,
        first,
        original_times,
        best,
        steps,
        tried,
        shrinking,
        note,
        in_path,
        out_path,
    })
}

/// The report of one failure: what went wrong, the shrunk input with both
/// outputs, the first difference, the command that judges it again.
fn report(
    s: &Stress,
    profile: &str,
    saved: &Saved,
    found_after: Duration,
    out: &mut dyn Write,
) -> Result<()> {
    let name = s.problem.name();
    let Saved { index, size, first, original_times, best, steps, tried, note, .. } = saved;
    let (ours, theirs) = (best.ours.stdout_text(), best.theirs.stdout_text());
    let cases = if *index == 0 { "case" } else { "cases" };
    let mut report = format!(
        "stress {name}: case {index} (profile {profile}, seed {}) fails: {first}\n\
         found after {} {cases} in {:.1} s; shrunk in {steps} steps ({tried} candidates tried, \
         {:.1} s): {size} -> {} bytes\n\
         your program's time: {original_times} on the original; {} on the shrunk case\n{note}",
        s.seed,
        index + 1,
        found_after.as_secs_f64(),
        saved.shrinking.as_secs_f64(),
        best.input.len(),
        times(&best.theirs),
    );
    if let Some(line) = &best.made_by {
        report += &format!("made by your generator: {line}\n");
    }
    let show = |title: String, text: &str| format!("== {title}\n{}", clip(text, 60));
    report += &show(format!("input ({})", display(&saved.in_path)), &best.input);
    report += &show(format!("our output ({})", display(&saved.out_path)), &ours);
    report += &show("your output".to_string(), &theirs);
    report += &format!("== {}\n", best.what);
    if let Some(m) =
        compare::compare(&ours, &theirs, s.rule()).filter(|_| best.kind == Kind::Differs)
    {
        report += &compare::context(&ours, &theirs, m.line);
    }
    report += &format!("judge it again: {}\n", s.judge_again());
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
            limits: Limits::time(Duration::from_millis(limit_ms)),
            out_dir: dir.path().join("failures"),
            jobs,
            keep_going: false,
            generator: None,
            kit: "kit",
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
        };
        adjust(&mut s);
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let result = stress(&s, &mut out, &mut Progress::new(&mut err, false));
        (result, String::from_utf8(out).unwrap(), dir)
    }

    #[test]
    fn a_slow_start_up_is_reported_before_stressing() {
        // About 0.3 s of CPU before it answers (dash counts to 300000 in
        // that, within a factor of 3 on any machine): over the limit of
        // 100 ms, under 10 x that.
        let slow = format!("i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done; {LARGEST}");
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
        assert!(e.contains("10 x the time limit of 100 ms; an endless loop at start-up?"), "{e}");
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
