//! `kit gen`: the driver around [`Problem::generate`]. Case `i` of seed `S`
//! is drawn from its own seed, derived from `S` and `i`; if our solver does
//! not accept the input (exit code not 0: a 猪国杀 game that never ends,
//! exit 3), the case is drawn again from a seed derived from `S`, `i` and
//! the attempt. So every emitted case has an answer, the same seed gives the
//! same bytes, and case `i` does not depend on the count asked for.

use crate::error::{Error, Result};
use crate::problems::{Problem, Profile};
use crate::rng::Rng;
use crate::run::{self, Cmd, Outcome, Status};
use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;
use std::time::Duration;

/// Our solver gets this long on a generated input (the largest profiles
/// take well under a second); over it, the input is drawn again.
pub const OUR_LIMIT: Duration = Duration::from_secs(60);

/// Draws in a row that our solver may reject before `kit gen` gives up on
/// a case.
pub const MAX_ATTEMPTS: u32 = 100;

/// Our solvers' exit code for a valid input without an answer.
pub const NO_ANSWER: i32 = 3;

/// The seed of attempt `attempt` at case `index` of seed `seed`: the
/// splitmix64 finaliser applied to each part in turn, so that no two cases
/// share a stretch of their random streams (plain `seed + index` would:
/// splitmix64's state moves by a constant per draw).
pub fn case_seed(seed: u64, index: u64, attempt: u32) -> u64 {
    let mix = |x: u64| Rng::new(x).next_u64();
    mix(mix(mix(seed) ^ index) ^ u64::from(attempt))
}

/// What the cases come from.
pub struct Source<'a> {
    pub problem: &'a dyn Problem,
    pub profile: &'a str,
    pub seed: u64,
    /// Our solver, which answers every case and rejects inputs without one.
    pub solver: &'a Cmd,
}

/// One case that our solver accepted.
pub struct Drawn {
    pub input: String,
    /// Our solver's run on it (exit code 0).
    pub ours: Outcome,
    /// Earlier draws for this case that our solver rejected.
    pub rejected: u32,
}

impl Source<'_> {
    /// Case `index`: the first draw our solver answers. A draw on which it
    /// exits 3 (a valid input without an answer, by the collection's
    /// convention: a 猪国杀 game that never ends) is drawn again; any other
    /// failure (exit 2: the generator wrote bad input; a crash; 60 s) is an
    /// error that names the case, so that a broken generator shows.
    ///
    /// # Errors
    /// A usage error for a profile the problem does not have; a run error
    /// when our solver fails on a draw or answers none of them; a start error
    /// when it cannot be started.
    pub fn draw(&self, index: u64) -> Result<Drawn> {
        let mut last = String::new();
        for attempt in 0..MAX_ATTEMPTS {
            let mut rng = Rng::new(case_seed(self.seed, index, attempt));
            let input = self.problem.generate(self.profile, &mut rng).ok_or_else(|| {
                Error::usage(format!("{} has no profile `{}`", self.problem.name(), self.profile))
            })?;
            let ours = self.answer(&input)?;
            match ours.status {
                Status::Exited(0) => return Ok(Drawn { input, ours, rejected: attempt }),
                Status::Exited(NO_ANSWER) => last = ours.first_stderr_line(),
                status => {
                    return Err(Error::run(format!(
                        "{} profile {} seed {} case {index} (attempt {attempt}): our solver \
                         failed ({status}: {}); a bug in the generator or the solver",
                        self.problem.name(),
                        self.profile,
                        self.seed,
                        ours.first_stderr_line()
                    )))
                }
            }
        }
        Err(Error::run(format!(
            "{} profile {}: our solver found no answer to {MAX_ATTEMPTS} draws in a row for case \
             {index} (the last: {last}); the generator is broken",
            self.problem.name(),
            self.profile
        )))
    }

    /// Our solver's run on `input`.
    ///
    /// # Errors
    /// A start error when our solver cannot be started.
    pub fn answer(&self, input: &str) -> Result<Outcome> {
        answer(self.solver, input)
    }
}

/// The run of our `solver` on `input`.
///
/// # Errors
/// A start error when `solver` cannot be started.
pub fn answer(solver: &Cmd, input: &str) -> Result<Outcome> {
    // No memory figure needed: parallel jobs need not wait for each
    // other's spawn.
    run::run_with(solver, input.as_bytes(), OUR_LIMIT, None, run::Memory::Unmeasured)
        .map_err(|e| e.error(format!("our solver {solver}")))
}

/// A user's generator (`kit stress --gen 'CMD {seed}'`): the shell runs
/// `CMD` with `{seed}` replaced by the seed of the case ([`case_seed`]),
/// and what it prints is the input. As for our profiles, our solver
/// answers each input, and an input it has no answer to (exit 3) is drawn
/// again with the next attempt's seed.
pub struct Command<'a> {
    /// The command line, with `{seed}` where the seed goes.
    pub template: &'a str,
    pub seed: u64,
    /// Our solver.
    pub solver: &'a Cmd,
}

impl Command<'_> {
    /// The shell command of attempt `attempt` at case `index`.
    pub fn line(&self, index: u64, attempt: u32) -> String {
        self.template.replace("{seed}", &case_seed(self.seed, index, attempt).to_string())
    }

    /// Case `index`: the first draw our solver answers. The generator
    /// failing, or writing an input our solver refuses (exit 2), is an
    /// error that shows the command to run it again.
    ///
    /// # Errors
    /// A run error when the generator fails or writes an input our solver
    /// refuses or answers none of; a start error when `sh` or our solver
    /// cannot be started.
    pub fn draw(&self, index: u64) -> Result<Drawn> {
        let mut last = String::new();
        for attempt in 0..MAX_ATTEMPTS {
            let line = self.line(index, attempt);
            let sh = Cmd::new("sh").arg("-c").arg(&line);
            let made = run::run_with(&sh, b"", OUR_LIMIT, None, run::Memory::Unmeasured)
                .map_err(|e| e.error("sh for --gen"))?;
            if !made.success() {
                return Err(Error::run(format!(
                    "your generator failed on case {index} ({}: {}): {line}",
                    made.status,
                    made.first_stderr_line()
                )));
            }
            let input = made.stdout_text();
            let ours = answer(self.solver, &input)?;
            match ours.status {
                Status::Exited(0) => return Ok(Drawn { input, ours, rejected: attempt }),
                Status::Exited(NO_ANSWER) => last = ours.first_stderr_line(),
                status => {
                    return Err(Error::run(format!(
                        "our solver refuses the input of your generator for case {index} \
                         ({status}: {}): {line}",
                        ours.first_stderr_line()
                    )))
                }
            }
        }
        Err(Error::run(format!(
            "our solver found no answer to {MAX_ATTEMPTS} inputs in a row of your generator for \
             case {index} (the last: {last})"
        )))
    }
}

/// The profile named `name` of `problem`.
///
/// # Errors
/// A usage error listing the problem's profiles when it has none so named.
pub fn profile(problem: &dyn Problem, name: &str) -> Result<&'static Profile> {
    if let Some(profile) = problem.profiles().iter().find(|p| p.name == name) {
        return Ok(profile);
    }
    let names: Vec<&str> = problem.profiles().iter().map(|p| p.name).collect();
    Err(Error::usage(format!(
        "{} has no profile `{name}`; its profiles: {}",
        problem.name(),
        names.join(", ")
    )))
}

/// `kit gen PROBLEM --list`: one line per profile.
pub fn list(problem: &dyn Problem) -> String {
    let width = problem.profiles().iter().map(|p| p.name.len()).max().unwrap_or(0);
    let mut s = String::new();
    for p in problem.profiles() {
        let _ = writeln!(s, "{:width$}  {}", p.name, p.about);
    }
    s
}

/// `kit gen`: case 0 to `out`, or with `dir` the cases `0..count` as
/// `NNNN.in` and our answers `NNNN.out` there, and a summary line to `out`.
/// Files already in `dir` with those names are an error unless `force`.
///
/// # Errors
/// A usage error when a case file exists without `force`; a write error
/// for a file or folder; the errors of [`Source::draw`].
pub fn gen(
    src: &Source,
    count: u64,
    dir: Option<&Path>,
    force: bool,
    out: &mut dyn Write,
) -> Result<()> {
    let Some(dir) = dir else {
        let case = src.draw(0)?;
        return out.write_all(case.input.as_bytes()).map_err(Error::stdout);
    };
    let digits = count.saturating_sub(1).to_string().len().max(4);
    if !force {
        let taken = (0..count)
            .flat_map(|i| ["in", "out"].map(|ext| dir.join(format!("{i:0digits$}.{ext}"))));
        if let Some(path) = taken.into_iter().find(|p| p.exists()) {
            return Err(Error::usage(format!(
                "{} already exists: kit gen does not overwrite cases without --force",
                crate::cases::display(&path)
            )));
        }
    }
    std::fs::create_dir_all(dir).map_err(|e| Error::writing("create", dir.display(), e))?;
    let mut rejected = 0;
    for i in 0..count {
        let case = src.draw(i)?;
        rejected += case.rejected;
        for (ext, bytes) in [("in", case.input.as_bytes()), ("out", &case.ours.stdout[..])] {
            let path = dir.join(format!("{i:0digits$}.{ext}"));
            std::fs::write(&path, bytes).map_err(|e| Error::write(path.display(), e))?;
        }
    }
    let last = count.saturating_sub(1);
    let redrawn = match rejected {
        0 => String::new(),
        1 => "; 1 input without an answer was drawn again".to_string(),
        n => format!("; {n} inputs without an answer were drawn again"),
    };
    let (cases, files) = if count == 1 {
        ("1 case".to_string(), format!("{:0digits$}.in", 0))
    } else {
        (format!("{count} cases"), format!("{:0digits$}.in .. {last:0digits$}.in", 0))
    };
    writeln!(
        out,
        "wrote {cases} of {} profile {} seed {} to {}: {files} with our answers in .out{redrawn}",
        src.problem.name(),
        src.profile,
        src.seed,
        crate::cases::display(dir),
    )
    .map_err(Error::stdout)?;
    Ok(())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use crate::problems::largest::{Largest, LARGEST};
    use crate::scratch::{sh, Scratch};

    fn source<'a>(profile: &'a str, seed: u64, solver: &'a Cmd) -> Source<'a> {
        Source { problem: &Largest, profile, seed, solver }
    }

    #[test]
    fn derived_seeds_differ_by_case_and_attempt() {
        let seeds =
            [case_seed(1, 0, 0), case_seed(1, 1, 0), case_seed(1, 0, 1), case_seed(2, 0, 0)];
        for (i, a) in seeds.iter().enumerate() {
            for b in &seeds[i + 1..] {
                assert_ne!(a, b);
            }
        }
        assert_eq!(case_seed(1, 5, 2), case_seed(1, 5, 2));
    }

    #[test]
    fn rejected_draws_are_drawn_again_and_every_case_is_answered() {
        let solver = sh(LARGEST);
        let src = source("random", 7, &solver);
        let dir = Scratch::new("gen");
        let mut out = Vec::new();
        gen(&src, 40, Some(dir.path()), false, &mut out).expect("gen");
        let mut rejected = 0;
        for i in 0..40u64 {
            let input = std::fs::read_to_string(dir.path().join(format!("{i:04}.in"))).unwrap();
            let answer = std::fs::read_to_string(dir.path().join(format!("{i:04}.out"))).unwrap();
            let digits: Vec<u32> =
                input.split_whitespace().skip(1).map(|t| t.parse().unwrap()).collect();
            assert_ne!(digits.len(), 4, "an input our solver rejects was kept: {input:?}");
            assert_eq!(answer, format!("{}\n", digits.iter().max().unwrap()));
            let drawn = src.draw(i).unwrap();
            assert_eq!(drawn.input, input, "case {i} is the same when drawn alone");
            rejected += drawn.rejected;
        }
        // n = 4 is one draw in eight: some case of forty needed a redraw.
        assert!(rejected > 0);
        let summary = String::from_utf8(out).unwrap();
        assert!(summary.starts_with("wrote 40 cases of largest profile random seed 7 to "));
        assert!(summary.contains(": 0000.in .. 0039.in with our answers in .out; "), "{summary}");
        assert!(summary
            .trim_end()
            .ends_with(&format!("{rejected} inputs without an answer were drawn again")));
    }

    #[test]
    fn the_same_seed_gives_the_same_bytes_and_stdout_gets_case_0() {
        let solver = sh(LARGEST);
        let run = |seed| {
            let mut out = Vec::new();
            gen(&source("random", seed, &solver), 1, None, false, &mut out).expect("gen");
            String::from_utf8(out).unwrap()
        };
        assert_eq!(run(3), run(3));
        assert_eq!(run(3), source("random", 3, &solver).draw(0).unwrap().input);
        let others: Vec<String> = (4..12).map(run).collect();
        assert!(others.iter().any(|o| *o != run(3)));
    }

    #[test]
    fn existing_cases_are_kept_without_force_and_one_case_is_singular() {
        let solver = sh(LARGEST);
        let src = source("random", 7, &solver);
        let dir = Scratch::new("gen-force");
        let mut out = Vec::new();
        gen(&src, 1, Some(dir.path()), false, &mut out).expect("gen");
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("wrote 1 case of largest"), "{text}");
        assert!(text.contains(": 0000.in with our answers"), "{text}");
        dir.write("0000.in", "mine\n");
        let err = gen(&src, 3, Some(dir.path()), false, &mut Vec::new()).unwrap_err().to_string();
        assert!(
            err.ends_with(
                "0000.in already exists: kit gen does not overwrite cases without --force"
            ),
            "{err}"
        );
        assert!(!dir.path().join("0001.in").exists());
        gen(&src, 3, Some(dir.path()), true, &mut Vec::new()).expect("forced");
        assert_ne!(std::fs::read_to_string(dir.path().join("0000.in")).unwrap(), "mine\n");
    }

    #[test]
    fn a_closed_pipe_ends_quietly() {
        struct Closed;
        impl Write for Closed {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::ErrorKind::BrokenPipe.into())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let solver = sh(LARGEST);
        let err = gen(&source("random", 1, &solver), 1, None, false, &mut Closed).unwrap_err();
        assert!(matches!(err, Error::ClosedPipe), "{err}");
    }

    #[test]
    fn a_generator_our_solver_always_rejects_is_reported() {
        let solver = sh(LARGEST);
        let err = source("four", 1, &solver).draw(0).err().expect("rejected").to_string();
        assert!(
            err.contains("our solver found no answer to 100 draws in a row for case 0"),
            "{err}"
        );
        assert!(err.contains("(the last: largest: no answer for n = 4)"), "{err}");
    }

    #[test]
    fn bad_input_from_the_generator_is_an_error_not_a_redraw() {
        let solver =
            sh("read n; [ $n -gt 5 ] && { echo 'largest: line 1: too many' >&2; exit 2; }; echo 0");
        let src = source("random", 1, &solver);
        let errors: Vec<String> =
            (0..20).filter_map(|i| src.draw(i).err().map(|e| e.to_string())).collect();
        assert!(!errors.is_empty(), "n > 5 is drawn in some of 20 cases");
        let err = &errors[0];
        assert!(err.starts_with("largest profile random seed 1 case "), "{err}");
        assert!(
            err.contains("our solver failed (exit code 2: largest: line 1: too many)"),
            "{err}"
        );
    }

    #[test]
    fn a_users_generator_gets_the_seed_and_is_drawn_again_like_ours() {
        let solver = sh(LARGEST);
        // The seed's first n digits, n its last digit (4 in one case of 10).
        let gen = Command {
            template: "s={seed}; n=$(expr $s : '.*\\(.\\)$'); [ $n = 0 ] && n=1; echo $n; \
                       echo $s | cut -c1-$n | sed 's/./& /g; s/ $//'",
            seed: 5,
            solver: &solver,
        };
        assert_eq!(gen.line(2, 1), gen.template.replace("{seed}", &case_seed(5, 2, 1).to_string()));
        let mut rejected = 0;
        for i in 0..30 {
            let drawn = gen.draw(i).expect("drawn");
            assert_ne!(drawn.input.lines().next(), Some("4"), "{}", drawn.input);
            assert!(drawn.ours.success());
            rejected += drawn.rejected;
        }
        assert!(rejected > 0, "one seed in ten ends in 4");
        let broken = Command { template: "echo x; exit 9", seed: 1, solver: &solver };
        let err = broken.draw(0).err().expect("fails").to_string();
        assert!(err.starts_with("your generator failed on case 0 (exit code 9: )"), "{err}");
        let bad = Command {
            template: "echo 2; echo 1",
            seed: 1,
            solver: &sh("echo 'largest: line 2: too few digits' >&2; exit 2"),
        };
        let err = bad.draw(0).err().expect("refused").to_string();
        assert!(err.contains("our solver refuses the input of your generator"), "{err}");
        assert!(err.ends_with("largest: line 2: too few digits): echo 2; echo 1"), "{err}");
    }

    #[test]
    fn profiles_are_listed_and_checked() {
        assert_eq!(
            list(&Largest),
            "random  1 to 8 digits\nfour    always 4 digits (never accepted)\n"
        );
        assert_eq!(
            profile(&Largest, "four").map(|p| p.about).ok(),
            Some("always 4 digits (never accepted)")
        );
        let err = profile(&Largest, "big").err().map(|e| e.to_string());
        assert_eq!(
            err.as_deref(),
            Some("largest has no profile `big`; its profiles: random, four")
        );
    }
}
