//! `data/`: the test cases, each input with our answer. Samples first
//! (`data/sample/NN-NAME`: kit/packages/PROBLEM/sample/*.in in sorted
//! order, each must have an answer), then the secret cases
//! (`data/secret/`): our fixtures (`fixture-PATH`, found by
//! [`cases::discover`]), then cases drawn from every `kit gen` profile
//! (`gen-PROFILE-I`). No input twice in the package (verifyproblem warns of
//! identical inputs): a sample that is also a fixture stays a sample.
//!
//! Every answer (`.ans`) is our solver's stdout with `--strict`, run through
//! [`run`] under the judge's limits, so a case outside the strict format,
//! or one our own solver could not answer on the judge, never enters.

use super::files::{put, read_bytes, sorted_files};
use super::Sources;
use crate::cases;
use crate::error::{Error, Result};
use crate::gen::{self, Source};
use crate::judge::MEMORY_LIMIT_MB;
use crate::problems::Problem;
use crate::rng::Rng;
use crate::run::{self, Cmd, Memory, Status};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Generated cases per profile, and the input size over which a profile
/// gives one case only, and over which a case is left out (Ants' 5000x5000
/// map is 25 MB: too big to ship in a package that every submission runs).
const CASES_PER_PROFILE: u64 = 3;
const BIG_INPUT: usize = 1 << 20;
const MAX_INPUT: usize = 8 << 20;

/// How many cases of each kind the package holds.
pub struct Counts {
    pub samples: usize,
    pub secret: usize,
}

/// Writes data/sample/ and data/secret/ below `root`, answering with our
/// `solver`. Each case costs one run of our solver (two for a generated
/// one: `kit gen`'s draw, then `--strict`).
///
/// # Errors
///
/// A file that cannot be read or written (`Error::Read`, `Error::Write`
/// naming it), our solver that cannot start (`Error::Start`) or goes over
/// a limit (`Error::Run`), a sample without an answer or a generator our
/// solver keeps refusing (`Error::Package`).
pub fn write(
    problem: &dyn Problem,
    sources: &Sources,
    solver: &Path,
    root: &Path,
) -> Result<Counts> {
    let mut data = Data::new(problem, solver);
    let samples = data.samples(sources, &root.join("data/sample"))?;
    let secret = root.join("data/secret");
    let fixtures = data.fixtures(sources, &secret)?;
    let generated = data.generated(problem, solver, &secret)?;
    Ok(Counts { samples, secret: fixtures + generated })
}

/// The cases written so far, and how our solver answers.
struct Data {
    /// `SOLVER --strict`.
    strict: Cmd,
    /// The judge's: kit gen's time for our solver, the default memory
    /// limit, the problem's output limit.
    limits: run::Limits,
    /// Every input in the package (or refused as a fixture).
    seen: HashSet<Vec<u8>>,
}

impl Data {
    fn new(problem: &dyn Problem, solver: &Path) -> Data {
        let limits = run::Limits {
            memory_kib: Some(MEMORY_LIMIT_MB << 10),
            output_bytes: Some(problem.output_limit_mb() << 20),
            ..run::Limits::from(gen::OUR_LIMIT)
        };
        Data { strict: Cmd::new(solver).arg("--strict"), limits, seen: HashSet::new() }
    }

    /// The statement's samples, numbered in sorted order (a `N-` prefix of
    /// the file's name dropped); each must have an answer.
    fn samples(&mut self, sources: &Sources, dir: &Path) -> Result<usize> {
        let files = sorted_files(&sources.content.join("sample"))?;
        for (k, file) in files.iter().enumerate() {
            let stem = file.file_stem().unwrap_or_default().to_string_lossy().to_string();
            let name = match stem.split_once('-') {
                Some((n, rest)) if n.bytes().all(|b| b.is_ascii_digit()) => rest.to_string(),
                _ => stem,
            };
            let input = read_bytes(file)?;
            self.seen.insert(input.clone());
            if !self.add(&dir.join(format!("{:02}-{name}", k + 1)), &input)? {
                return Err(Error::package(format!(
                    "sample {} is not --strict-valid with an answer (exit 0)",
                    file.display()
                )));
            }
        }
        Ok(files.len())
    }

    /// Our fixtures of the problem that expect an answer (exit 0), without
    /// special arguments (`.args`) or readings beyond the official judge's
    /// (`.beyond`), without CR (zhuguosha --strict accepts CRLF, which
    /// verifyproblem warns of), under [`MAX_INPUT`].
    fn fixtures(&mut self, sources: &Sources, dir: &Path) -> Result<usize> {
        let folder = sources.repo.join("tests/data").join(sources.name);
        // A fixture without .out nor .err is kit judge's to report.
        let (found, _) = cases::discover(&folder)?;
        let mut count = 0;
        for case in found {
            if !case.args.is_empty() || case.beyond.is_some() || case.code != 0 {
                continue;
            }
            let input = read_bytes(&case.input)?;
            if input.len() > MAX_INPUT || input.contains(&b'\r') || !self.seen.insert(input.clone())
            {
                continue;
            }
            let relative = case.input.strip_prefix(&folder).unwrap_or(&case.input);
            let flat = relative.with_extension("").to_string_lossy().replace(['/', '\\'], "-");
            count += usize::from(self.add(&dir.join(format!("fixture-{flat}")), &input)?);
        }
        Ok(count)
    }

    /// Cases 0..[`CASES_PER_PROFILE`] of every profile, seed 1: the same
    /// draws as `kit gen`. One case of a profile whose input is over
    /// [`BIG_INPUT`], none over [`MAX_INPUT`].
    fn generated(&mut self, problem: &dyn Problem, solver: &Path, dir: &Path) -> Result<usize> {
        let cmd = Cmd::new(solver);
        let mut count = 0;
        for profile in problem.profiles() {
            let source = Source { problem, profile: profile.name, seed: 1, solver: &cmd };
            for index in 0..CASES_PER_PROFILE {
                // A first draw bigger than the cap needs no solver run.
                let mut rng = Rng::new(gen::case_seed(1, index, 0));
                let first = problem.generate(profile.name, &mut rng).unwrap_or_default();
                if first.len() > MAX_INPUT {
                    break;
                }
                let input = source.draw(index)?.input.into_bytes();
                if !self.seen.insert(input.clone()) {
                    continue;
                }
                let case = dir.join(format!("gen-{}-{index}", profile.name));
                count += usize::from(self.add(&case, &input)?);
                if input.len() > BIG_INPUT {
                    break;
                }
            }
        }
        Ok(count)
    }

    /// Writes `case.in` and `case.ans` when our solver answers `input`
    /// under `--strict`: whether it did (exit 0; any other exit code: an
    /// input outside the strict format, or one without an answer).
    ///
    /// # Errors
    ///
    /// Our solver cannot start (`Error::Start`), dies of a signal or goes
    /// over a limit (`Error::Run`, naming the case); a file that cannot be
    /// written (`Error::Write`).
    fn add(&self, case: &Path, input: &[u8]) -> Result<bool> {
        let solver = PathBuf::from(&self.strict.program);
        let run = run::run_with(&self.strict, input, self.limits, None, Memory::Unmeasured)
            .map_err(|e| e.error(format!("our solver {}", solver.display())))?;
        match run.status {
            Status::Exited(0) => {
                put(&case.with_extension("in"), input)?;
                put(&case.with_extension("ans"), &run.stdout)?;
                Ok(true)
            }
            Status::Exited(_) => Ok(false),
            status => Err(Error::run(format!(
                "our solver {} --strict on the package's {}.in: {status} ({}); a case it \
                 cannot answer on the judge",
                solver.display(),
                case.file_name().unwrap_or_default().to_string_lossy(),
                run.first_stderr_line()
            ))),
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::Data;
    use crate::error::Error;
    use crate::problems::largest::Largest;
    use crate::scratch::Scratch;

    /// Our solver's exit code decides whether a case enters; a solver
    /// killed (here by a signal) stops kit, naming the case, and leaves no
    /// file of it.
    #[test]
    fn a_case_enters_with_exit_0_and_a_killed_solver_is_an_error() {
        let dir = Scratch::new("package-data");
        let answers = dir.executable("answers", "#!/bin/sh\ncat >/dev/null\necho 7\n");
        let refuses = dir.executable("refuses", "#!/bin/sh\nexit 2\n");
        let killed = dir.executable("killed", "#!/bin/sh\nkill -9 $$\n");
        let case = dir.path().join("out/gen-x-0");
        assert!(Data::new(&Largest, &answers).add(&case, b"1 7\n").unwrap());
        assert_eq!(std::fs::read(case.with_extension("ans")).unwrap(), b"7\n");
        let other = dir.path().join("out/gen-y-0");
        assert!(!Data::new(&Largest, &refuses).add(&other, b"1 7\n").unwrap());
        let err = Data::new(&Largest, &killed).add(&other, b"1 7\n").unwrap_err();
        assert!(matches!(err, Error::Run(_)), "{err}");
        assert!(err.to_string().contains("gen-y-0.in: signal 9"), "{err}");
        assert!(!other.with_extension("in").exists() && !other.with_extension("ans").exists());
    }
}
