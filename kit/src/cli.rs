//! The `kit` command line: `kit gen`, `kit judge`, `kit stress`. The
//! binary's `main` only hands over its arguments and streams, so tests can
//! run any command in-process.

use crate::error::{Error, Result};
use crate::gen::{self, Source};
use crate::judge::{self, Judge, Limits};
use crate::problems::{self, Problem};
use crate::run::{shell_quote, Cmd};
use crate::solver;
use crate::stress::{self, Progress, Stress};
use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

pub const USAGE: &str = "\
kit: seeded generators, a local judge and stress testing for the problems of
this collection (zhuguosha, ants_battle, ji_referee, ji_solver).

usage:
  kit gen PROBLEM [--profile P] [--seed S] [--count N --out DIR [--force]]
                  [--solver PATH]
  kit gen PROBLEM --list
  kit judge PROBLEM [CASE.in]... [--dir DIR]... [--time-limit MS]
                    [--memory-limit MB] [--fail-fast] -- CMD ARGS...
  kit stress PROBLEM [--profile P|all | --gen 'CMD {seed}'] [--seed S]
                     [--count N] [--jobs N] [--keep-going] [--out DIR]
                     [--time-limit MS] [--memory-limit MB] [--solver PATH]
                     -- CMD ARGS...
  kit show PROBLEM CASE.in [--out FILE.html] [--solver PATH]
  kit package PROBLEM --out DIR [--force] [--solver PATH]
  kit COMMAND --help
  kit --version

gen     Seeded inputs, with our solver's answers.
judge   Runs CMD on fixture folders: one verdict per case.
stress  Runs CMD and our solver on generated cases until they disagree, then
        shrinks the input.
show    Writes one self-contained web page that draws a game (a 猪国杀
        replay, an Ants battle, a 集 record or value table) from our
        solver's explain output.
package Writes a Kattis problem package (statement, data, validator,
        submissions) that problemtools' verifyproblem checks.

Time limits are on CPU time (user + system), as judges count them, so that
a busy machine does not change a verdict: TLE is over --time-limit MS of
CPU. A program that sleeps or waits is stopped when it is still idle (under
10 ms of CPU in the last second) past 2 x the limit + 1 s of wall time: ILE
(idleness limit). MLE: a peak resident memory over --memory-limit MB
(default 256). Stopping kit (Ctrl-C, SIGTERM, SIGHUP) stops the program it
runs.

Our solvers are the binaries beside kit (cargo build --release puts them
all in target/release, cargo install --path . all in ~/.cargo/bin), or in
$KIT_SOLVER_DIR, or --solver PATH.

exit codes: 0 all good; 1 judge: a case is not AC, stress: a failure found;
2 usage or set-up error (one line on stderr).
";

pub const GEN_HELP: &str = "\
usage: kit gen PROBLEM [--profile P] [--seed S] [--count N --out DIR [--force]]
                       [--solver PATH]
       kit gen PROBLEM --list

Without --out, one case (case 0) to stdout. With --out DIR, the cases 0..N-1
as DIR/NNNN.in with our solver's answer DIR/NNNN.out; cases already there are
not overwritten unless --force. An input our solver has no answer to (exit 3:
a game that never ends) is drawn again, so every case has an answer. Case i
is the same whatever --count.

  --profile P    the family of inputs (default random); --list shows them
  --seed S       default 1
  --count N      default 1; needs --out
  --out DIR      write the cases there
  --force        overwrite cases already in DIR
  --solver PATH  our solver (default: beside kit, or in $KIT_SOLVER_DIR)
  --list         the profiles, one a line
";

pub const JUDGE_HELP: &str = "\
usage: kit judge PROBLEM [CASE.in]... [--dir DIR]... [--time-limit MS]
                        [--memory-limit MB] [--fail-fast] -- CMD ARGS...

Runs CMD on each CASE.in (with its CASE.out beside it) and on every NAME.in
that has a NAME.out below each DIR (with neither, tests/data/PROBLEM;
recursively), in the current directory, and compares its
stdout with NAME.out by the rule of `cargo test`. One line per case: the
verdict, the CPU and wall times and the peak memory, then for a failure what
went wrong and a command that reproduces it:
  AC   accepted
  WA   wrong answer: the first differing line and token
  RE   exit code not 0 or a signal: the last lines of its stderr
  TLE  over --time-limit MS of CPU time (user + system)
  ILE  idleness limit: idle (under 10 ms of CPU in the last second) past
       2 x the limit + 1 s of wall time: it sleeps or waits
  MLE  peak resident memory over --memory-limit MB
Then a summary such as `AC 148/150 (WA 2)`. Cases with .args or a .code are
for our solver and are not judged. Cases with a NAME.beyond file go beyond
the official judge's data (accepted solutions differ on them): they are
counted apart, as in `AC 195/195; beyond the judge's data: 0/1`, and not in
the exit code.

  CASE.in            one case, with its .out (repeatable)
  --dir DIR          a folder of cases (repeatable)
  --time-limit MS    CPU time per case (default 2000)
  --memory-limit MB  peak resident memory per case, in MiB (default 256)
  --fail-fast        stop at the first case that is not AC
";

pub const STRESS_HELP: &str = "\
usage: kit stress PROBLEM [--profile P|all | --gen 'CMD {seed}'] [--seed S]
                          [--count N] [--jobs N] [--keep-going] [--out DIR]
                          [--time-limit MS] [--memory-limit MB]
                          [--shrink-time S] [--solver PATH] -- CMD ARGS...

Generated cases (the same as `kit gen` with the same profile and seed), our
solver and CMD on each; stops at the first case where CMD's output differs
from ours, CMD fails, or runs over a limit (TLE: --time-limit MS of CPU time;
ILE: idle past 2 x the limit + 1 s of wall time; MLE: a peak resident memory
over --memory-limit MB). Then shrinks the input
while our solver accepts it and CMD fails the same way (a failure by time
must repeat on a second run), prints it with both outputs, the first
difference and the times, and writes it as NAME.in and NAME.out (our
answer) to --out, ready for `kit judge --dir`. Before stressing, CMD is
timed on our smallest input: if it never ends there, waits, or its start-up
alone is over the limit, kit says so and stops.

  --profile P        the family of inputs (default random); all: every
                     profile in turn, --count cases each
  --gen 'CMD {seed}' your generator instead: the shell runs CMD with {seed}
                     replaced by each case's seed (derived from --seed), and
                     what it prints is the input; our solver answers it (an
                     input it has no answer to is drawn again)
  --seed S           default 1
  --count N          cases per profile (default 1000)
  --jobs N           cases run at once (default 1); the failure reported is
                     the lowest case number, the same as with --jobs 1
  --keep-going       go on past failures to the last case: each failing case
                     is shrunk and saved, one line each, then the count per
                     profile; exit 1 if any failed
  --out DIR          default stress-failures/PROBLEM
  --time-limit MS    CPU time per run of CMD (default 2000)
  --memory-limit MB  peak resident memory per run of CMD (default 256)
  --shrink-time S    seconds of wall time to shrink each failing case (default
                     60, so that a run stays interactive); when it is spent,
                     the smallest failing input found so far is reported, and
                     said to be so (0: not shrunk at all)
  --solver PATH      our solver (default: beside kit, or in $KIT_SOLVER_DIR)

Progress goes to stderr: in place on a terminal, else a line every 10 s.
";

/// `kit --version`.
pub const VERSION: &str = concat!("kit ", env!("CARGO_PKG_VERSION"), "\n");

/// Runs `kit ARGS` (without the program name); returns the exit code.
/// `live`: stderr is a terminal (progress is shown in place). The one
/// place where an [`Error`] becomes a line on stderr and an exit code.
pub fn main(args: &[OsString], out: &mut dyn Write, err: &mut dyn Write, live: bool) -> i32 {
    main_as(OsStr::new("kit"), args, out, err, live)
}

/// [`main`] for kit invoked as `program` (its `argv[0]`, such as
/// `./target/release/kit`): the commands kit prints to run again name kit
/// so, and run as shown.
pub fn main_as(
    program: &OsStr,
    args: &[OsString],
    out: &mut dyn Write,
    err: &mut dyn Write,
    live: bool,
) -> i32 {
    let invoked_as = shell_quote(program);
    match dispatch(&invoked_as, args, out, err, live) {
        Ok(true) => 0,
        Ok(false) => 1,
        Err(Error::ClosedPipe) => 0,
        Err(e) => {
            let _ = writeln!(err, "kit: {e}");
            e.exit_code()
        }
    }
}

/// `kit ARGS...` in-process ([`main`], stderr not a terminal): the exit
/// code, stdout and stderr. Test support.
///
/// # Panics
/// If kit writes something that is not UTF-8.
#[cfg(any(test, feature = "test-support"))]
pub fn captured<S: AsRef<OsStr>>(args: &[S]) -> (i32, String, String) {
    let args: Vec<OsString> = args.iter().map(|a| a.as_ref().to_os_string()).collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = main(&args, &mut out, &mut err, false);
    let text = |b: Vec<u8>| String::from_utf8(b).expect("kit writes UTF-8");
    (code, text(out), text(err))
}

/// The problems' names, from the one list of problems.
fn problem_names() -> String {
    let names: Vec<&str> = problems::all().iter().map(|p| p.name()).collect();
    names.join(", ")
}

/// The words before `--` ask for help.
fn wants_help(args: &[OsString]) -> bool {
    args.iter().take_while(|a| *a != "--").any(|a| a == "--help" || a == "-h")
}

fn dispatch(
    invoked_as: &str,
    args: &[OsString],
    out: &mut dyn Write,
    err: &mut dyn Write,
    live: bool,
) -> Result<bool> {
    let Some(sub) = args.first() else {
        return Err(Error::usage("no command; see `kit --help`"));
    };
    let rest = &args[1..];
    let help = match sub.to_str() {
        Some("-h" | "--help" | "help") => Some(USAGE),
        Some("-V" | "--version") => Some(VERSION),
        Some("gen") if wants_help(rest) => Some(GEN_HELP),
        Some("judge") if wants_help(rest) => Some(JUDGE_HELP),
        Some("stress") if wants_help(rest) => Some(STRESS_HELP),
        Some("show") if wants_help(rest) => Some(crate::show::HELP),
        Some("package") if wants_help(rest) => Some(crate::package::HELP),
        _ => None,
    };
    if let Some(text) = help {
        out.write_all(text.as_bytes())?;
        return Ok(true);
    }
    match sub.to_str() {
        Some("gen") => gen_command(&GenOptions::parse(rest)?, out),
        Some("judge") => judge_command(&JudgeOptions::parse(rest)?, out),
        Some("stress") => stress_command(&StressOptions::parse(rest)?, invoked_as, out, err, live),
        Some("show") => crate::show::show(&show_options(rest)?, out),
        Some("package") => package_command(&PackageOptions::parse(rest)?, out),
        _ => Err(Error::usage(format!(
            "unknown command `{}`; the commands are gen, judge, stress, show, package (see `kit --help`)",
            sub.to_string_lossy()
        ))),
    }
}

// ------------------------------------------------------------ options

/// What one command's words may be: its options that take a value (each
/// at most once, but those in `repeatable`), its flags, and whether a
/// program follows `--`.
struct Spec {
    valued: &'static [&'static str],
    repeatable: &'static [&'static str],
    flags: &'static [&'static str],
    takes_cmd: bool,
}

const GEN: Spec = Spec {
    valued: &["--profile", "--seed", "--count", "--out", "--solver"],
    repeatable: &[],
    flags: &["--list", "--force"],
    takes_cmd: false,
};
const JUDGE: Spec = Spec {
    valued: &["--dir", "--time-limit", "--memory-limit"],
    repeatable: &["--dir"],
    flags: &["--fail-fast"],
    takes_cmd: true,
};
const STRESS: Spec = Spec {
    valued: &[
        "--profile",
        "--seed",
        "--count",
        "--jobs",
        "--out",
        "--time-limit",
        "--memory-limit",
        "--solver",
        "--gen",
        "--shrink-time",
    ],
    repeatable: &[],
    flags: &["--keep-going"],
    takes_cmd: true,
};

const SHOW: Spec =
    Spec { valued: &["--out", "--solver"], repeatable: &[], flags: &[], takes_cmd: false };
const PACKAGE: Spec = Spec {
    valued: &["--out", "--zip", "--solver"],
    repeatable: &[],
    flags: &["--force"],
    takes_cmd: false,
};

/// One word of a command line, handed to a command's options.
enum Word<'w> {
    /// `--name value` or `--name=value`, `name` one of [`Spec::valued`].
    Value(&'w str, &'w str),
    /// One of [`Spec::flags`].
    Flag(&'w str),
    /// A word that is not an option, after the problem's name.
    Extra(&'w str),
}

/// What every command's words hold besides its options.
struct Parsed {
    problem: &'static dyn Problem,
    /// The words after `--` (with [`Spec::takes_cmd`]).
    cmd: Option<Cmd>,
}

/// Reads a command's words by `spec`: the first plain word is the
/// problem, each option goes to `take`, the words after `--` are the
/// program to run.
fn parse(
    args: &[OsString],
    spec: &Spec,
    mut take: impl FnMut(Word) -> Result<()>,
) -> Result<Parsed> {
    let mut problem = None;
    let mut cmd = None;
    let mut given: Vec<&str> = Vec::new();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        let text =
            word.to_str().ok_or_else(|| Error::usage(format!("argument {word:?} is not UTF-8")))?;
        if text == "--" {
            if !spec.takes_cmd {
                return Err(Error::usage("this command takes no program after `--`"));
            }
            let rest: Vec<OsString> = words.by_ref().cloned().collect();
            cmd = Some(Cmd::from_words(&rest).ok_or(Error::usage("no program after `--`"))?);
            break;
        }
        let (name, inline) = match text.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v)),
            _ => (text, None),
        };
        if let Some(&name) = spec.valued.iter().find(|&&n| n == name) {
            let value = match inline {
                Some(v) => v,
                None => words
                    .next()
                    .and_then(|v| v.to_str())
                    .ok_or_else(|| Error::usage(format!("{name} needs a value")))?,
            };
            if given.contains(&name) && !spec.repeatable.contains(&name) {
                return Err(Error::usage(format!("{name} given twice")));
            }
            given.push(name);
            take(Word::Value(name, value))?;
        } else if spec.flags.contains(&name) && inline.is_none() {
            take(Word::Flag(name))?;
        } else if text.starts_with('-') {
            let mut known: Vec<&str> = spec.valued.iter().chain(spec.flags).copied().collect();
            known.sort_unstable();
            return Err(Error::usage(format!(
                "unknown option `{text}`; this command takes {}",
                known.join(" ")
            )));
        } else if problem.is_none() {
            problem = Some(text);
        } else {
            take(Word::Extra(text))?;
        }
    }
    let name =
        problem.ok_or_else(|| Error::usage(format!("which problem? ({})", problem_names())))?;
    if spec.takes_cmd && cmd.is_none() {
        return Err(Error::usage(
            "no program to run: put it after `--`, as in `-- ./a.out` or `-- python3 sol.py`",
        ));
    }
    let problem = problems::find(name).ok_or_else(|| {
        Error::usage(format!("unknown problem `{name}`; the problems: {}", problem_names()))
    })?;
    Ok(Parsed { problem, cmd })
}

/// A word after the problem that is no option: the program goes after `--`.
fn unexpected(word: &str) -> Error {
    Error::usage(format!("unexpected `{word}` (the program to run goes after `--`)"))
}

/// The value of `--name` as a non-negative integer (of 64 bits).
fn number(name: &str, value: &str) -> Result<u64> {
    value.parse().map_err(|_| {
        let digits = !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit());
        Error::usage(if digits {
            format!("{name} `{value}` is too large (at most {})", u64::MAX)
        } else {
            format!("{name} `{value}` is not a non-negative integer")
        })
    })
}

/// The value of `--name` as a number of at least 1.
fn positive(name: &str, value: &str, unit: &str) -> Result<u64> {
    match number(name, value)? {
        0 => Err(Error::usage(format!("{name} must be at least 1{unit}"))),
        n => Ok(n),
    }
}

/// `--time-limit MS`: CPU time per run.
fn time_limit(value: &str) -> Result<Duration> {
    Ok(Duration::from_millis(positive("--time-limit", value, " ms")?))
}

/// `--memory-limit MB`: peak resident memory per run, in MiB.
fn memory_limit(value: &str) -> Result<u64> {
    positive("--memory-limit", value, " MB")
}

/// The profile called `name` of `problem`, or a message listing them.
fn profile(problem: &dyn Problem, name: &str) -> Result<&'static str> {
    gen::check_profile(problem, name)?;
    Ok(problem.profiles().iter().find(|p| p.name == name).expect("checked").name)
}

/// The default time limit, in ms of CPU.
const TIME_LIMIT_MS: u64 = 2000;

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
    /// `--solver PATH`: our solver, else beside kit ([`solver::locate`]).
    pub solver: Option<PathBuf>,
}

impl GenOptions {
    pub fn parse(args: &[OsString]) -> Result<GenOptions> {
        let (mut list, mut force) = (false, false);
        let (mut profile_name, mut seed, mut count) = (None, 1, None);
        let (mut out, mut solver) = (None, None);
        let parsed = parse(args, &GEN, |word| {
            match word {
                Word::Value("--profile", v) => profile_name = Some(v.to_string()),
                Word::Value("--seed", v) => seed = number("--seed", v)?,
                Word::Value("--count", v) => count = Some(positive("--count", v, "")?),
                Word::Value("--out", v) => out = Some(PathBuf::from(v)),
                Word::Value("--solver", v) => solver = Some(PathBuf::from(v)),
                Word::Flag("--list") => list = true,
                Word::Flag("--force") => force = true,
                Word::Extra(w) => return Err(unexpected(w)),
                Word::Value(..) | Word::Flag(_) => unreachable!("not in GEN"),
            }
            Ok(())
        })?;
        let problem = parsed.problem;
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
    /// `--memory-limit MB` of peak resident memory per case.
    pub memory_limit_mb: u64,
    /// `--fail-fast`: stop at the first case that is not AC.
    pub fail_fast: bool,
    /// The program judged.
    pub cmd: Cmd,
}

impl JudgeOptions {
    pub fn parse(args: &[OsString]) -> Result<JudgeOptions> {
        let (mut dirs, mut cases) = (Vec::new(), Vec::new());
        let mut limit = Duration::from_millis(TIME_LIMIT_MS);
        let mut memory = judge::MEMORY_LIMIT_MB;
        let mut fail_fast = false;
        let parsed = parse(args, &JUDGE, |word| {
            match word {
                Word::Value("--dir", v) => dirs.push(PathBuf::from(v)),
                Word::Value("--time-limit", v) => limit = time_limit(v)?,
                Word::Value("--memory-limit", v) => memory = memory_limit(v)?,
                Word::Flag("--fail-fast") => fail_fast = true,
                Word::Extra(w) if w.ends_with(".in") => cases.push(PathBuf::from(w)),
                Word::Extra(w) => return Err(unexpected(w)),
                Word::Value(..) | Word::Flag(_) => unreachable!("not in JUDGE"),
            }
            Ok(())
        })?;
        let cmd = parsed.cmd.expect("JUDGE takes a program");
        Ok(JudgeOptions {
            problem: parsed.problem,
            dirs,
            cases,
            time_limit: limit,
            memory_limit_mb: memory,
            fail_fast,
            cmd,
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
    /// `--memory-limit MB` of peak resident memory per run of the program.
    pub memory_limit_mb: u64,
    /// `--solver PATH`: our solver, else beside kit ([`solver::locate`]).
    pub solver: Option<PathBuf>,
    /// `--keep-going`: past every failure, each one shrunk and saved.
    pub keep_going: bool,
    /// `--gen 'CMD {seed}'`: the user's generator instead of our profiles.
    pub generator: Option<String>,
    /// `--shrink-time S` of wall time to shrink each failing case.
    pub shrink_time: Duration,
    /// The program stressed.
    pub cmd: Cmd,
}

impl StressOptions {
    pub fn parse(args: &[OsString]) -> Result<StressOptions> {
        let (mut profile_name, mut seed, mut count, mut jobs) = (None, 1, 1000, 1);
        let (mut out, mut solver, mut generator) = (None, None, None);
        let mut limit = Duration::from_millis(TIME_LIMIT_MS);
        let mut memory = judge::MEMORY_LIMIT_MB;
        let mut keep_going = false;
        let mut shrink_time = stress::SHRINK_TIME;
        let parsed = parse(args, &STRESS, |word| {
            match word {
                Word::Value("--profile", v) => profile_name = Some(v.to_string()),
                Word::Value("--seed", v) => seed = number("--seed", v)?,
                Word::Value("--count", v) => count = positive("--count", v, "")?,
                Word::Value("--jobs", v) => jobs = positive("--jobs", v, "")?,
                Word::Value("--out", v) => out = Some(PathBuf::from(v)),
                Word::Value("--time-limit", v) => limit = time_limit(v)?,
                Word::Value("--memory-limit", v) => memory = memory_limit(v)?,
                Word::Value("--solver", v) => solver = Some(PathBuf::from(v)),
                Word::Value("--gen", v) => generator = Some(v.to_string()),
                Word::Value("--shrink-time", v) => {
                    shrink_time = Duration::from_secs(number("--shrink-time", v)?)
                }
                Word::Flag("--keep-going") => keep_going = true,
                Word::Extra(w) => return Err(unexpected(w)),
                Word::Value(..) | Word::Flag(_) => unreachable!("not in STRESS"),
            }
            Ok(())
        })?;
        let problem = parsed.problem;
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
            time_limit: limit,
            memory_limit_mb: memory,
            solver,
            keep_going,
            generator,
            shrink_time,
            cmd: parsed.cmd.expect("STRESS takes a program"),
        })
    }
}

/// Our solver for `problem`: `--solver PATH`, else beside kit.
fn our_solver(problem: &dyn Problem, explicit: Option<&Path>) -> Result<Cmd> {
    Ok(Cmd::new(solver::locate(problem.name(), explicit)?))
}

/// `kit show`'s options: the problem, one case, `--out`, `--solver`.
fn show_options(args: &[OsString]) -> Result<crate::show::Options> {
    let (mut case, mut page_file, mut solver) = (None, None, None);
    let usage =
        "usage: kit show PROBLEM CASE.in [--out FILE.html] [--solver PATH] (see `kit show --help`)";
    let parsed = parse(args, &SHOW, |word| {
        match word {
            Word::Value("--out", v) => page_file = Some(PathBuf::from(v)),
            Word::Value("--solver", v) => solver = Some(PathBuf::from(v)),
            Word::Extra(w) if case.is_none() => case = Some(PathBuf::from(w)),
            Word::Extra(_) => return Err(Error::usage(usage)),
            Word::Value(..) | Word::Flag(_) => unreachable!("not in SHOW"),
        }
        Ok(())
    })?;
    let case = case.ok_or_else(|| Error::usage(usage))?;
    Ok(crate::show::Options { problem: parsed.problem, case, page_file, solver })
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
    /// `--solver PATH`: our solver, else beside kit ([`solver::locate`]).
    pub solver: Option<PathBuf>,
}

impl PackageOptions {
    pub fn parse(args: &[OsString]) -> Result<PackageOptions> {
        let (mut dir, mut zip, mut solver, mut force) = (None, None, None, false);
        let parsed = parse(args, &PACKAGE, |word| {
            match word {
                Word::Value("--out", v) => dir = Some(PathBuf::from(v)),
                Word::Value("--zip", v) => zip = Some(PathBuf::from(v)),
                Word::Value("--solver", v) => solver = Some(PathBuf::from(v)),
                Word::Flag("--force") => force = true,
                Word::Extra(w) => return Err(Error::usage(format!("unexpected `{w}`"))),
                Word::Value(..) | Word::Flag(_) => unreachable!("not in PACKAGE"),
            }
            Ok(())
        })?;
        let dir = dir.ok_or_else(|| Error::usage("--out DIR is required"))?;
        Ok(PackageOptions { problem: parsed.problem, dir, zip, force, solver })
    }
}

// ------------------------------------------------------------ commands

fn package_command(o: &PackageOptions, out: &mut dyn Write) -> Result<bool> {
    let solver = solver::locate(o.problem.name(), o.solver.as_deref())?;
    crate::package::command(o.problem, &o.dir, o.zip.as_deref(), o.force, &solver, out)?;
    Ok(true)
}

fn gen_command(o: &GenOptions, out: &mut dyn Write) -> Result<bool> {
    if o.list {
        out.write_all(gen::list(o.problem).as_bytes())?;
        return Ok(true);
    }
    let solver = our_solver(o.problem, o.solver.as_deref())?;
    let src = Source { problem: o.problem, profile: o.profile, seed: o.seed, solver: &solver };
    gen::gen(&src, o.count, o.out.as_deref(), o.force, out)?;
    Ok(true)
}

fn judge_command(o: &JudgeOptions, out: &mut dyn Write) -> Result<bool> {
    let mut dirs = o.dirs.clone();
    if dirs.is_empty() && o.cases.is_empty() {
        let default = Path::new("tests/data").join(o.problem.name());
        if !default.is_dir() {
            return Err(Error::usage(format!(
                "{}: no such folder (run kit from the repository's root, or pass --dir DIR)",
                default.display()
            )));
        }
        dirs.push(default);
    }
    let j = Judge {
        rule: o.problem.rule(),
        dirs,
        files: o.cases.clone(),
        limits: Limits { time: o.time_limit, memory_mb: o.memory_limit_mb },
        cmd: &o.cmd,
        fail_fast: o.fail_fast,
    };
    judge::judge(&j, out)
}

fn stress_command(
    o: &StressOptions,
    invoked_as: &str,
    out: &mut dyn Write,
    err: &mut dyn Write,
    live: bool,
) -> Result<bool> {
    let solver = our_solver(o.problem, o.solver.as_deref())?;
    let s = Stress {
        problem: o.problem,
        profiles: o.profiles.clone(),
        seed: o.seed,
        solver: &solver,
        count: o.count,
        cmd: &o.cmd,
        limits: Limits { time: o.time_limit, memory_mb: o.memory_limit_mb },
        out_dir: o.out.clone(),
        jobs: o.jobs,
        keep_going: o.keep_going,
        generator: o.generator.as_deref(),
        kit: invoked_as,
        shrink: stress::Budget::time(o.shrink_time),
    };
    stress::stress(&s, out, &mut Progress::new(err, live))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kit(args: &[&str]) -> (i32, String, String) {
        captured(args)
    }

    fn refused(args: &[&str], message: &str) {
        let (code, out, err) = kit(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty());
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("kit: ") && err.contains(message), "{args:?}: {err}");
    }

    /// The help names every problem of the one list.
    #[test]
    fn help_names_every_problem() {
        let names = problem_names();
        assert!(USAGE.contains(&format!("({names})")), "{names}");
    }

    #[test]
    fn help_lists_the_three_commands() {
        let (code, out, _) = kit(&["--help"]);
        assert_eq!(code, 0);
        for usage in ["  kit gen PROBLEM", "  kit judge PROBLEM", "  kit stress PROBLEM"] {
            assert!(out.contains(usage), "{usage}");
        }
    }

    #[test]
    fn version_names_kit_and_its_version() {
        let (code, out, err) = kit(&["--version"]);
        assert_eq!((code, err.as_str()), (0, ""));
        assert_eq!(out, format!("kit {}\n", env!("CARGO_PKG_VERSION")));
        assert_eq!(kit(&["-V"]).1, out);
    }

    #[test]
    fn usage_errors_are_one_line_and_exit_2() {
        refused(&[], "no command");
        refused(&["make"], "unknown command `make`");
        refused(&["gen"], "which problem?");
        refused(&["gen", "x", "y"], "unexpected `y`");
        refused(&["gen", "zhuguosha", "--seed"], "--seed needs a value");
        refused(&["gen", "zhuguosha", "--bogus"], "unknown option `--bogus`");
        refused(&["gen", "zhuguosha", "--seed", "1", "--seed=2"], "--seed given twice");
        refused(&["gen", "zhuguosha", "--", "x"], "takes no program");
        refused(&["judge", "zhuguosha"], "no program to run");
        refused(&["judge", "zhuguosha", "--"], "no program after `--`");
        refused(
            &["stress", "zhuguosha", "--count", "many", "--", "x"],
            "--count `many` is not a non-negative integer",
        );
        refused(&["gen", "no_such_problem"], "unknown problem `no_such_problem`");
        refused(
            &["gen", "zhuguosha", "--seed", "99999999999999999999999"],
            "--seed `99999999999999999999999` is too large (at most 18446744073709551615)",
        );
        refused(&["gen", "zhuguosha", "--seed", "-1"], "--seed `-1` is not a non-negative integer");
        refused(&["gen", "zhuguosha", "--count", "0", "--out", "x"], "--count must be at least 1");
        refused(
            &["judge", "zhuguosha", "--dir", ".", "--time-limit", "0", "--", "x"],
            "at least 1 ms",
        );
    }

    #[test]
    fn the_new_options_are_checked() {
        refused(&["judge", "zhuguosha", "--memory-limit", "0", "--", "x"], "at least 1 MB");
        refused(
            &["stress", "zhuguosha", "--gen", "python3 gen.py", "--", "x"],
            "--gen CMD needs `{seed}` where the case's seed goes",
        );
        refused(
            &["stress", "zhuguosha", "--gen", "g {seed}", "--profile", "all", "--", "x"],
            "--gen makes the cases: it takes no --profile",
        );
        refused(&["judge", "zhuguosha", "a.out", "--", "x"], "unexpected `a.out`");
        let words: Vec<OsString> =
            ["zhuguosha", "a.in", "--memory-limit=64", "b/c.in", "--", "./sol"]
                .iter()
                .map(OsString::from)
                .collect();
        let o = JudgeOptions::parse(&words).unwrap();
        assert_eq!(o.cases, [PathBuf::from("a.in"), PathBuf::from("b/c.in")]);
        assert_eq!((o.memory_limit_mb, o.dirs.len()), (64, 0));
        let words: Vec<OsString> = ["zhuguosha", "--keep-going", "--gen", "g {seed}", "--", "s"]
            .iter()
            .map(OsString::from)
            .collect();
        let o = StressOptions::parse(&words).unwrap();
        assert!(o.keep_going);
        assert_eq!(o.generator.as_deref(), Some("g {seed}"));
        assert_eq!(o.profiles, [stress::USER_GEN]);
        assert_eq!(o.memory_limit_mb, judge::MEMORY_LIMIT_MB);
    }

    /// The command printed to judge the failure again names kit as it was
    /// invoked, so that it runs as shown.
    #[test]
    #[cfg(unix)]
    fn the_hint_names_kit_as_it_was_invoked() {
        let dir = crate::scratch::Scratch::new("cli-hint");
        let ours = dir.executable("ours", "#!/bin/sh\ncat >/dev/null; echo MP\n");
        let failures = dir.path().join("failures");
        let args: Vec<OsString> = ["stress", "zhuguosha", "--count", "1", "--solver"]
            .iter()
            .map(OsString::from)
            .chain([ours.into_os_string(), "--out".into(), failures.clone().into_os_string()])
            .chain(["--", "false"].map(OsString::from))
            .collect();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = main_as(OsStr::new("./target/release/kit"), &args, &mut out, &mut err, false);
        let text = String::from_utf8(out).unwrap();
        assert_eq!(code, 1, "{text}");
        let want = format!(
            "\njudge it again: ./target/release/kit judge zhuguosha --dir {} -- false\n",
            crate::cases::display(&failures)
        );
        assert!(text.ends_with(&want), "{text}");
    }

    #[test]
    fn options_take_values_inline_or_next_and_dir_repeats() {
        let words: Vec<OsString> =
            ["zhuguosha", "--dir", "a", "--dir=b", "--time-limit", "5", "--", "prog", "--dir", "c"]
                .iter()
                .map(OsString::from)
                .collect();
        let o = JudgeOptions::parse(&words).unwrap();
        assert_eq!(o.problem.name(), "zhuguosha");
        assert_eq!(o.dirs, [PathBuf::from("a"), PathBuf::from("b")]);
        assert_eq!(o.time_limit, Duration::from_millis(5));
        assert_eq!(o.cmd.to_string(), "prog --dir c");
    }
}
