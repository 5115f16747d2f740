//! Each command's options: what it accepts ([`Spec`]) and the typed
//! options read from its words.

use super::words::{self, parse, parse_with_program, positive, unexpected, Spec, Word};
use crate::error::{Error, Result};
use crate::gen;
use crate::judge::{self, Limits};
use crate::problems::Problem;
use crate::run::Cmd;
use crate::stress;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The default time limit, in ms of CPU.
pub const TIME_LIMIT_MS: u64 = 2000;

/// The words of the three limits judge and stress share (`--time-limit`,
/// `--memory-limit`, `--output-limit`), as read so far.
struct LimitWords {
    time: Duration,
    memory_mb: u64,
    /// `None`: the problem's.
    output_mb: Option<u64>,
}

impl LimitWords {
    fn new() -> LimitWords {
        LimitWords {
            time: Duration::from_millis(TIME_LIMIT_MS),
            memory_mb: judge::MEMORY_LIMIT_MB,
            output_mb: None,
        }
    }

    /// Reads `word` if it is one of the limits: whether it was.
    fn take(&mut self, word: &Word) -> Result<bool> {
        match *word {
            Word::Value("--time-limit", v) => self.time = words::time_limit(v)?,
            Word::Value("--memory-limit", v) => self.memory_mb = words::memory_limit(v)?,
            Word::Value("--output-limit", v) => self.output_mb = Some(words::output_limit(v)?),
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The limits, the output's by default the problem's.
    fn limits(&self, problem: &dyn Problem) -> Limits {
        Limits {
            time: self.time,
            memory_mb: self.memory_mb,
            output_mb: self.output_mb.unwrap_or(problem.output_limit_mb()),
        }
    }
}

/// The profile called `name` of `problem`, or a message listing them.
fn profile(problem: &dyn Problem, name: &str) -> Result<&'static str> {
    Ok(gen::profile(problem, name)?.name)
}

pub const GEN: Spec = Spec {
    valued: &["--profile", "--seed", "--count", "--out", "--solver"],
    repeatable: &[],
    flags: &["--list", "--force"],
    takes_cmd: false,
};
pub const JUDGE: Spec = Spec {
    valued: &["--dir", "--time-limit", "--memory-limit", "--output-limit"],
    repeatable: &["--dir"],
    flags: &["--fail-fast"],
    takes_cmd: true,
};
pub const STRESS: Spec = Spec {
    valued: &[
        "--profile",
        "--seed",
        "--count",
        "--jobs",
        "--out",
        "--time-limit",
        "--memory-limit",
        "--output-limit",
        "--solver",
        "--gen",
        "--shrink-time",
    ],
    repeatable: &[],
    flags: &["--keep-going", "--no-diagnose"],
    takes_cmd: true,
};

pub const DIAGNOSE: Spec = Spec {
    valued: &[
        "--seed",
        "--games",
        "--jobs",
        "--time-limit",
        "--memory-limit",
        "--output-limit",
        "--solver",
    ],
    repeatable: &[],
    flags: &[],
    takes_cmd: true,
};

pub const SHOW: Spec = Spec {
    valued: &["--out", "--solver", "--rule"],
    repeatable: &[],
    flags: &[],
    takes_cmd: false,
};
pub const RULES: Spec = Spec {
    valued: &["--game", "--rule", "--solver"],
    repeatable: &[],
    flags: &[],
    takes_cmd: false,
};
pub const PACKAGE: Spec = Spec {
    valued: &["--out", "--zip", "--solver"],
    repeatable: &[],
    flags: &["--force"],
    takes_cmd: false,
};

/// `kit gen`'s options.
pub struct GenOptions {
    pub problem: &'static dyn Problem,
    /// `--list`: the profiles, no case (the other options are not checked).
    pub list: bool,
    /// `--profile P`, default `random`.
    pub profile: &'static str,
    /// `--seed S`, default 1.
    pub seed: u64,
    /// `--count N`, default 1; more than 1 only with `out`.
    pub count: u64,
    /// `--out DIR`: the cases go there, not to stdout.
    pub out: Option<PathBuf>,
    /// `--force`: overwrite cases in `out`.
    pub force: bool,
    /// `--solver PATH`: our solver, else beside kit ([`crate::solver::locate`]).
    pub solver: Option<PathBuf>,
}

impl GenOptions {
    /// # Errors
    /// A usage error naming the word refused.
    pub fn parse(args: &[OsString]) -> Result<GenOptions> {
        let (mut list, mut force) = (false, false);
        let (mut profile_name, mut seed, mut count) = (None, 1, None);
        let (mut out, mut solver) = (None, None);
        let problem = parse(args, &GEN, |word| {
            match word {
                Word::Value("--profile", v) => profile_name = Some(v.to_string()),
                Word::Value("--seed", v) => seed = words::number("--seed", v)?,
                Word::Value("--count", v) => count = Some(positive("--count", v, "")?),
                Word::Value("--out", v) => out = Some(PathBuf::from(v)),
                Word::Value("--solver", v) => solver = Some(PathBuf::from(v)),
                Word::Flag("--list") => list = true,
                Word::Flag("--force") => force = true,
                Word::Extra(w) => return Err(unexpected(w)),
                other => return Err(words::unhandled(other)),
            }
            Ok(())
        })?;
        let mut options = GenOptions {
            problem,
            list,
            profile: problem.profiles()[0].name,
            seed,
            count: count.unwrap_or(1),
            out,
            force,
            solver,
        };
        if list {
            return Ok(options);
        }
        options.profile = profile(problem, profile_name.as_deref().unwrap_or("random"))?;
        if options.out.is_none() && options.count != 1 {
            return Err(Error::usage(
                "--count needs --out DIR (without --out, one case goes to stdout)",
            ));
        }
        if options.out.is_none() && force {
            return Err(Error::usage("--force needs --out DIR"));
        }
        Ok(options)
    }
}

/// `kit judge`'s options.
pub struct JudgeOptions {
    pub problem: &'static dyn Problem,
    /// `--dir DIR`, repeatable; with no `cases` either: `tests/data/PROBLEM`.
    pub dirs: Vec<PathBuf>,
    /// `CASE.in` words after the problem: single cases.
    pub cases: Vec<PathBuf>,
    /// `--time-limit MS` of CPU per case.
    pub time_limit: Duration,
    /// `--memory-limit MB` of resident memory per case.
    pub memory_limit_mb: u64,
    /// `--output-limit MB` of stdout per case, by default the problem's.
    pub output_limit_mb: u64,
    /// `--fail-fast`: stop at the first case that is not AC.
    pub fail_fast: bool,
    /// The program judged.
    pub cmd: Cmd,
}

impl JudgeOptions {
    /// The limits of each run of the program.
    pub fn limits(&self) -> Limits {
        Limits {
            time: self.time_limit,
            memory_mb: self.memory_limit_mb,
            output_mb: self.output_limit_mb,
        }
    }

    /// # Errors
    /// A usage error naming the word refused.
    pub fn parse(args: &[OsString]) -> Result<JudgeOptions> {
        let (mut dirs, mut cases) = (Vec::new(), Vec::new());
        let mut limits = LimitWords::new();
        let mut fail_fast = false;
        let parsed = parse_with_program(args, &JUDGE, |word| {
            if limits.take(&word)? {
                return Ok(());
            }
            match word {
                Word::Value("--dir", v) => dirs.push(PathBuf::from(v)),
                Word::Flag("--fail-fast") => fail_fast = true,
                Word::Extra(w) if w.ends_with(".in") => cases.push(PathBuf::from(w)),
                Word::Extra(w) => return Err(unexpected(w)),
                other => return Err(words::unhandled(other)),
            }
            Ok(())
        })?;
        let limits = limits.limits(parsed.problem);
        Ok(JudgeOptions {
            problem: parsed.problem,
            dirs,
            cases,
            time_limit: limits.time,
            memory_limit_mb: limits.memory_mb,
            output_limit_mb: limits.output_mb,
            fail_fast,
            cmd: parsed.cmd,
        })
    }
}

/// `kit stress`'s options.
pub struct StressOptions {
    pub problem: &'static dyn Problem,
    /// `--profile P` (default `random`), or every profile (`all`).
    pub profiles: Vec<&'static str>,
    /// `--seed S`, default 1.
    pub seed: u64,
    /// `--count N` cases per profile, default 1000.
    pub count: u64,
    /// `--jobs N` cases at once, default 1.
    pub jobs: usize,
    /// `--out DIR`, default `stress-failures/PROBLEM`.
    pub out: PathBuf,
    /// `--time-limit MS` of CPU per run of the program.
    pub time_limit: Duration,
    /// `--memory-limit MB` of resident memory per run of the program.
    pub memory_limit_mb: u64,
    /// `--output-limit MB` of stdout per run, by default the problem's.
    pub output_limit_mb: u64,
    /// `--solver PATH`: our solver, else beside kit ([`crate::solver::locate`]).
    pub solver: Option<PathBuf>,
    /// `--keep-going`: past every failure, each one shrunk and saved.
    pub keep_going: bool,
    /// `--gen 'CMD {seed}'`: the user's generator instead of our profiles.
    pub generator: Option<String>,
    /// `--shrink-time S` of wall time to shrink each failing case.
    pub shrink_time: Duration,
    /// `--no-diagnose`: no diagnosis after a wrong answer.
    pub no_diagnose: bool,
    /// The program stressed.
    pub cmd: Cmd,
}

impl StressOptions {
    /// The limits of each run of the program.
    pub fn limits(&self) -> Limits {
        Limits {
            time: self.time_limit,
            memory_mb: self.memory_limit_mb,
            output_mb: self.output_limit_mb,
        }
    }

    /// # Errors
    /// A usage error naming the word refused, or a profile the problem lacks.
    pub fn parse(args: &[OsString]) -> Result<StressOptions> {
        let (mut profile_name, mut seed, mut count, mut jobs) = (None, 1, 1000, 1);
        let (mut out, mut solver, mut generator) = (None, None, None);
        let mut limits = LimitWords::new();
        let (mut keep_going, mut no_diagnose) = (false, false);
        let mut shrink_time = stress::SHRINK_TIME;
        let parsed = parse_with_program(args, &STRESS, |word| {
            if limits.take(&word)? {
                return Ok(());
            }
            match word {
                Word::Value("--profile", v) => profile_name = Some(v.to_string()),
                Word::Value("--seed", v) => seed = words::number("--seed", v)?,
                Word::Value("--count", v) => count = positive("--count", v, "")?,
                Word::Value("--jobs", v) => jobs = positive("--jobs", v, "")?,
                Word::Value("--out", v) => out = Some(PathBuf::from(v)),
                Word::Value("--solver", v) => solver = Some(PathBuf::from(v)),
                Word::Value("--gen", v) => generator = Some(v.to_string()),
                Word::Value("--shrink-time", v) => {
                    shrink_time = Duration::from_secs(words::number("--shrink-time", v)?)
                }
                Word::Flag("--keep-going") => keep_going = true,
                Word::Flag("--no-diagnose") => no_diagnose = true,
                Word::Extra(w) => return Err(unexpected(w)),
                other => return Err(words::unhandled(other)),
            }
            Ok(())
        })?;
        let problem = parsed.problem;
        let limits = limits.limits(problem);
        let profiles = match (profile_name.as_deref(), &generator) {
            (Some(_), Some(_)) => {
                return Err(Error::usage(
                    "--gen makes the cases: it takes no --profile (the profiles are ours)",
                ))
            }
            (None, Some(_)) => vec![stress::USER_GEN],
            (Some("all"), None) => problem.profiles().iter().map(|p| p.name).collect(),
            (name, None) => vec![profile(problem, name.unwrap_or("random"))?],
        };
        if generator.as_deref().is_some_and(|g| !g.contains("{seed}")) {
            return Err(Error::usage(
                "--gen CMD needs `{seed}` where the case's seed goes, as in --gen 'python3 gen.py {seed}'",
            ));
        }
        if jobs > stress::MAX_JOBS as u64 {
            return Err(Error::usage(format!("--jobs must be at most {}", stress::MAX_JOBS)));
        }
        Ok(StressOptions {
            problem,
            profiles,
            seed,
            count,
            jobs: jobs as usize,
            out: out.unwrap_or_else(|| Path::new("stress-failures").join(problem.name())),
            time_limit: limits.time,
            memory_limit_mb: limits.memory_mb,
            output_limit_mb: limits.output_mb,
            solver,
            keep_going,
            generator,
            shrink_time,
            no_diagnose,
            cmd: parsed.cmd,
        })
    }
}

/// `kit diagnose`'s options.
pub struct DiagnoseOptions {
    pub problem: &'static dyn Problem,
    /// `--seed S`, default 1.
    pub seed: u64,
    /// `--games N` of the first look, default [`crate::diagnose::GAMES`].
    pub games: u64,
    /// `--jobs N` games at once, default 1.
    pub jobs: usize,
    /// The limits of each run of the program (`--time-limit`,
    /// `--memory-limit`, `--output-limit`).
    pub limits: Limits,
    /// `--solver PATH`: our solver, else beside kit ([`crate::solver::locate`]).
    pub solver: Option<PathBuf>,
    /// The program diagnosed.
    pub cmd: Cmd,
}

impl DiagnoseOptions {
    /// # Errors
    /// A usage error naming the word refused.
    pub fn parse(args: &[OsString]) -> Result<DiagnoseOptions> {
        let (mut seed, mut games, mut jobs, mut solver) = (1, crate::diagnose::GAMES, 1, None);
        let mut limits = LimitWords::new();
        let parsed = parse_with_program(args, &DIAGNOSE, |word| {
            if limits.take(&word)? {
                return Ok(());
            }
            match word {
                Word::Value("--seed", v) => seed = words::number("--seed", v)?,
                Word::Value("--games", v) => games = positive("--games", v, "")?,
                Word::Value("--jobs", v) => jobs = positive("--jobs", v, "")?,
                Word::Value("--solver", v) => solver = Some(PathBuf::from(v)),
                Word::Extra(w) => return Err(unexpected(w)),
                other => return Err(words::unhandled(other)),
            }
            Ok(())
        })?;
        if jobs > stress::MAX_JOBS as u64 {
            return Err(Error::usage(format!("--jobs must be at most {}", stress::MAX_JOBS)));
        }
        Ok(DiagnoseOptions {
            problem: parsed.problem,
            seed,
            games,
            jobs: jobs as usize,
            limits: limits.limits(parsed.problem),
            solver,
            cmd: parsed.cmd,
        })
    }
}

/// `kit show`'s options: the problem, one case, `--out`, `--solver`,
/// `--rule` (an id of the problem's catalogue).
///
/// # Errors
/// A usage error naming the word refused.
pub fn show_options(args: &[OsString]) -> Result<crate::show::Options> {
    let (mut case, mut page_file, mut solver, mut rule) = (None, None, None, None);
    let usage = "usage: kit show PROBLEM CASE.in [--out FILE.html] [--solver PATH] [--rule ID] \
                 (see `kit show --help`)";
    let problem = parse(args, &SHOW, |word| {
        match word {
            Word::Value("--out", v) => page_file = Some(PathBuf::from(v)),
            Word::Value("--solver", v) => solver = Some(PathBuf::from(v)),
            Word::Value("--rule", v) => rule = Some(v.to_string()),
            Word::Extra(w) if case.is_none() => case = Some(PathBuf::from(w)),
            Word::Extra(_) => return Err(Error::usage(usage)),
            other => return Err(words::unhandled(other)),
        }
        Ok(())
    })?;
    let case = case.ok_or_else(|| Error::usage(usage))?;
    if let Some(id) = &rule {
        if crate::rules::find(problem.name(), id).is_none() {
            return Err(Error::usage(match crate::rules::catalogue(problem.name()) {
                Some(_) => format!(
                    "--rule {id}: no such rule of {} (see `kit rules {}`)",
                    problem.name(),
                    problem.name()
                ),
                None => format!("--rule: {}", crate::rules::no_catalogue(problem.name())),
            }));
        }
    }
    Ok(crate::show::Options { problem, case, page_file, solver, rule })
}

/// `kit rules`'s options.
pub struct RulesOptions {
    pub problem: &'static dyn Problem,
    /// `--game CASE.in`: the rules this game exercises, not the catalogue.
    pub game: Option<PathBuf>,
    /// `--rule ID` (with `--game`): the explain output, ID's lines marked.
    pub rule: Option<&'static str>,
    /// `--solver PATH`: our solver, else beside kit ([`crate::solver::locate`]).
    pub solver: Option<PathBuf>,
}

impl RulesOptions {
    /// # Errors
    /// A usage error naming the word refused.
    pub fn parse(args: &[OsString]) -> Result<RulesOptions> {
        let (mut game, mut solver, mut rule) = (None, None, None);
        let problem = parse(args, &RULES, |word| {
            match word {
                Word::Value("--game", v) => game = Some(PathBuf::from(v)),
                Word::Value("--rule", v) => rule = Some(v.to_string()),
                Word::Value("--solver", v) => solver = Some(PathBuf::from(v)),
                Word::Extra(w) => return Err(Error::usage(format!("unexpected `{w}`"))),
                other => return Err(words::unhandled(other)),
            }
            Ok(())
        })?;
        let rule = match rule {
            None => None,
            Some(_) if game.is_none() => {
                return Err(Error::usage("--rule ID marks a game's lines: it needs --game CASE.in"))
            }
            Some(id) => {
                Some(crate::rules::find(problem.name(), &id).map(|r| r.id).ok_or_else(|| {
                    Error::usage(format!(
                        "--rule {id}: no such rule of {} (see `kit rules {}`)",
                        problem.name(),
                        problem.name()
                    ))
                })?)
            }
        };
        Ok(RulesOptions { problem, game, rule, solver })
    }
}

/// `kit package`'s options.
pub struct PackageOptions {
    pub problem: &'static dyn Problem,
    /// `--out DIR`: the package folder (its last name the short name).
    pub dir: PathBuf,
    /// `--zip FILE`: the package also as a zip (DOMjudge's import).
    pub zip: Option<PathBuf>,
    /// `--force`: replace DIR (and FILE) if they exist.
    pub force: bool,
    /// `--solver PATH`: our solver, else beside kit ([`crate::solver::locate`]).
    pub solver: Option<PathBuf>,
}

impl PackageOptions {
    /// # Errors
    /// A usage error naming the word refused.
    pub fn parse(args: &[OsString]) -> Result<PackageOptions> {
        let (mut dir, mut zip, mut solver, mut force) = (None, None, None, false);
        let problem = parse(args, &PACKAGE, |word| {
            match word {
                Word::Value("--out", v) => dir = Some(PathBuf::from(v)),
                Word::Value("--zip", v) => zip = Some(PathBuf::from(v)),
                Word::Value("--solver", v) => solver = Some(PathBuf::from(v)),
                Word::Flag("--force") => force = true,
                Word::Extra(w) => return Err(Error::usage(format!("unexpected `{w}`"))),
                other => return Err(words::unhandled(other)),
            }
            Ok(())
        })?;
        let dir = dir.ok_or_else(|| Error::usage("--out DIR is required"))?;
        Ok(PackageOptions { problem, dir, zip, force, solver })
    }
}
