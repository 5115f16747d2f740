//! `kit stress`: generated cases, our solver and the user's program on
//! each, until the first disagreement, crash or timeout of the program;
//! then the input is shrunk while our solver still accepts it and the
//! program still fails the same way.

use crate::compare::{self, Rule};
use crate::gen::Source;
use crate::judge::{self, Verdict};
use crate::run::{self, Cmd, Outcome};
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Shrinking stops after this many candidates even if some would still
/// fail (a shrinker that keeps offering equally large inputs).
pub const MAX_TRIES: usize = 20_000;

/// What `kit stress` runs.
pub struct Stress<'a> {
    pub source: Source<'a>,
    pub count: u64,
    /// The user's program and its time limit.
    pub cmd: &'a Cmd,
    pub limit: Duration,
    pub out_dir: PathBuf,
}

/// How the user's program failed on one input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Differs,
    Crashed,
    TimedOut,
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
    match judge::verdict(&ours.stdout_text(), theirs, rule, limit) {
        Verdict::Accepted => None,
        Verdict::WrongAnswer(m) => Some((
            Kind::Differs,
            format!("first difference: line {}: {}", m.line + 1, m.detail),
        )),
        Verdict::RuntimeError(status) => {
            let stderr = theirs.first_stderr_line();
            let said = if stderr.is_empty() {
                String::new()
            } else {
                format!("; stderr: {stderr}")
            };
            Some((
                Kind::Crashed,
                format!("your program failed: {status}{said}"),
            ))
        }
        Verdict::TimeLimit => Some((
            Kind::TimedOut,
            format!("your program ran over {} ms", limit.as_millis()),
        )),
    }
}

/// The one-line progress display on stderr: rewritten in place with `\r`
/// when stderr is a terminal, silent otherwise (a log gets only the result).
pub struct Progress<'a> {
    err: &'a mut dyn Write,
    live: bool,
    start: Instant,
    shown: Option<Instant>,
}

impl<'a> Progress<'a> {
    pub fn new(err: &'a mut dyn Write, live: bool) -> Progress<'a> {
        Progress {
            err,
            live,
            start: Instant::now(),
            shown: None,
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Shows `line()` followed by the time elapsed, at most every 100 ms.
    fn tick(&mut self, line: impl FnOnce() -> String) {
        let recent = |t: &Instant| t.elapsed() < Duration::from_millis(100);
        if !self.live || self.shown.as_ref().is_some_and(recent) {
            return;
        }
        self.shown = Some(Instant::now());
        let secs = self.start.elapsed().as_secs_f64();
        let _ = write!(self.err, "\r{}, {secs:.1} s\x1b[K", line());
        let _ = self.err.flush();
    }

    fn clear(&mut self) {
        if self.live && self.shown.is_some() {
            let _ = write!(self.err, "\r\x1b[K");
            let _ = self.err.flush();
        }
    }
}

impl Stress<'_> {
    fn run_theirs(&self, input: &str) -> Result<Outcome, String> {
        run::run(self.cmd, input.as_bytes(), self.limit, None)
            .map_err(|e| format!("cannot start `{}`: {e}", self.cmd))
    }

    fn rule(&self) -> Rule {
        compare::rule(self.source.problem.name())
    }

    /// The first of the cases `0..count` on which the program fails.
    pub fn find(&self, progress: &mut Progress) -> Result<Option<Failure>, String> {
        let name = self.source.problem.name();
        for index in 0..self.count {
            progress.tick(|| format!("stress {name}: {index} cases"));
            let case = self.source.draw(index)?;
            let theirs = self.run_theirs(&case.input)?;
            if let Some((kind, what)) = failure(&case.ours, &theirs, self.rule(), self.limit) {
                return Ok(Some(Failure {
                    index,
                    input: case.input,
                    ours: case.ours,
                    theirs,
                    kind,
                    what,
                }));
            }
        }
        Ok(None)
    }

    /// Takes the first of [`Problem::shrink`]'s candidates on which our
    /// solver exits 0 and the program fails the same way, until none does.
    /// Returns the smallest failure, the steps taken and the candidates
    /// tried.
    ///
    /// [`Problem::shrink`]: crate::problems::Problem::shrink
    pub fn shrink(
        &self,
        mut best: Failure,
        progress: &mut Progress,
    ) -> Result<(Failure, usize, usize), String> {
        let name = self.source.problem.name();
        let mut seen = HashSet::new();
        seen.insert(fingerprint(&best.input));
        let (mut steps, mut tried) = (0, 0);
        'smaller: loop {
            for candidate in self.source.problem.shrink(&best.input) {
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
                let ours = self.source.answer(&candidate)?;
                if !ours.success() {
                    continue; // not a valid case (or a game that never ends)
                }
                let theirs = self.run_theirs(&candidate)?;
                match failure(&ours, &theirs, self.rule(), self.limit) {
                    Some((kind, what)) if kind == best.kind => {
                        best = Failure {
                            index: best.index,
                            input: candidate,
                            ours,
                            theirs,
                            kind,
                            what,
                        };
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
}

/// FNV-1a: remembers the candidates tried without keeping them.
fn fingerprint(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// `kit stress`: true when the program agrees with ours on every case;
/// else the shrunk failure is printed to `out` and written to the folder.
pub fn stress(s: &Stress, out: &mut dyn Write, progress: &mut Progress) -> Result<bool, String> {
    let io = |e: std::io::Error| format!("cannot write: {e}");
    let src = &s.source;
    let name = src.problem.name();
    let Some(found) = s.find(progress)? else {
        progress.clear();
        writeln!(
            out,
            "stress {name}: {} cases (profile {}, seed {}), your program agrees with ours on all ({:.1} s)",
            s.count,
            src.profile,
            src.seed,
            progress.elapsed().as_secs_f64()
        )
        .map_err(io)?;
        return Ok(true);
    };
    let (index, size, first) = (found.index, found.input.len(), found.what.clone());
    let found_after = progress.elapsed();
    let (best, steps, tried) = s.shrink(found, progress)?;
    let shrinking = progress.elapsed() - found_after;
    progress.clear();
    let base = s
        .out_dir
        .join(format!("{}-seed{}-case{index}", src.profile, src.seed));
    let (in_path, out_path) = (base.with_extension("in"), base.with_extension("out"));
    std::fs::create_dir_all(&s.out_dir)
        .map_err(|e| format!("cannot create {}: {e}", s.out_dir.display()))?;
    for (path, bytes) in [
        (&in_path, best.input.as_bytes()),
        (&out_path, &best.ours.stdout[..]),
    ] {
        std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let (ours, theirs) = (best.ours.stdout_text(), best.theirs.stdout_text());
    let cases = if index == 0 { "case" } else { "cases" };
    let mut report = format!(
        "stress {name}: case {index} (profile {}, seed {}) fails: {first}\n\
         found after {} {cases} in {:.1} s; shrunk in {steps} steps ({tried} candidates tried, \
         {:.1} s): {size} -> {} bytes\n",
        src.profile,
        src.seed,
        index + 1,
        found_after.as_secs_f64(),
        shrinking.as_secs_f64(),
        best.input.len()
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
    report += &format!(
        "judge it again: kit judge {name} --dir {} -- {}\n",
        display(&s.out_dir),
        s.cmd
    );
    out.write_all(report.as_bytes()).map_err(io)?;
    Ok(false)
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
    use crate::gen::tests::{sh, Largest, LARGEST};
    use crate::scratch::Scratch;

    /// Right except that it does not see the digit 7.
    const BLIND_TO_7: &str = r#"read n; read xs
m=0; for x in $xs; do [ "$x" = 7 ] && continue; [ "$x" -gt "$m" ] && m=$x; done; echo "$m""#;

    fn stress_text(script: &str, seed: u64, count: u64) -> (bool, String, Scratch) {
        let solver = sh(LARGEST);
        let cmd = sh(script);
        let dir = Scratch::new("stress");
        let s = Stress {
            source: Source {
                problem: &Largest,
                profile: "random",
                seed,
                solver: &solver,
            },
            count,
            cmd: &cmd,
            limit: Duration::from_secs(5),
            out_dir: dir.path().join("failures"),
        };
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let ok = stress(&s, &mut out, &mut Progress::new(&mut err, false)).expect("stress runs");
        assert!(
            err.is_empty(),
            "no progress output when stderr is not a terminal"
        );
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
        let files: Vec<_> = std::fs::read_dir(&failures)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert_eq!(files.len(), 2, "{files:?}");
        assert_eq!(written(&dir), "1\n7\n");
        let input = files
            .iter()
            .find(|p| p.extension().unwrap() == "in")
            .unwrap();
        assert_eq!(
            std::fs::read_to_string(input.with_extension("out")).unwrap(),
            "7\n"
        );
        assert!(
            text.contains("== first difference: line 1: token 1: expected `7`, got `0`\n"),
            "{text}"
        );
        assert!(text.contains("\n== your output\n0\n"), "{text}");
        assert!(text.contains(" -> 4 bytes\n"), "{text}");
        // The same seed finds and shrinks the same case.
        let (_, again, dir2) = stress_text(BLIND_TO_7, 1, 200);
        let head = |t: &str| {
            t.lines()
                .next()
                .unwrap()
                .split(" fails")
                .next()
                .unwrap()
                .to_string()
        };
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
        assert!(
            text.contains("== your program failed: exit code 5\n"),
            "{text}"
        );
        // Seed 2 fails first on a case of more than four digits: every
        // other digit shrinks to 0, but dropping one would leave n = 4,
        // which our solver rejects, so shrinking stops at five.
        assert_eq!(written(&dir), "5\n0 0 0 9 0\n");
    }

    #[test]
    fn progress_is_rewritten_in_place_on_a_terminal() {
        let mut err = Vec::new();
        let mut p = Progress::new(&mut err, true);
        p.tick(|| "stress x: 3 cases".to_string());
        p.tick(|| "too soon".to_string());
        p.clear();
        let text = String::from_utf8(err).unwrap();
        assert!(
            text.starts_with("\rstress x: 3 cases, 0.0 s\x1b[K"),
            "{text:?}"
        );
        assert!(!text.contains("too soon"));
        assert!(text.ends_with("\r\x1b[K"));
    }
}
