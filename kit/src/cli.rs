//! The `kit` command line: `kit gen`, `kit judge`, `kit stress`. The
//! binary's `main` only hands over its arguments and streams, so tests can
//! run any command in-process.

use crate::gen::{self, Source};
use crate::judge::{self, Judge};
use crate::problems::{self, Problem};
use crate::run::Cmd;
use crate::solver;
use crate::stress::{self, Progress, Stress};
use std::ffi::OsString;
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
  kit judge PROBLEM [--dir DIR]... [--time-limit MS] [--fail-fast]
                    -- CMD ARGS...
  kit stress PROBLEM [--profile P|all] [--seed S] [--count N] [--jobs N]
                     [--out DIR] [--time-limit MS] [--solver PATH]
                     -- CMD ARGS...
  kit show PROBLEM CASE.in [--out FILE.html] [--solver PATH]
  kit package PROBLEM --out DIR [--force] [--solver PATH]
  kit COMMAND --help

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
(idleness limit). Stopping kit (Ctrl-C, SIGTERM, SIGHUP) stops the program
it runs.

Our solvers are the binaries beside kit (cargo build --release puts them
all in target/release), or in $KIT_SOLVER_DIR, or --solver PATH.

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
usage: kit judge PROBLEM [--dir DIR]... [--time-limit MS] [--fail-fast]
                        -- CMD ARGS...

Runs CMD on every NAME.in that has a NAME.out below each DIR (default
tests/data/PROBLEM, recursively), in the current directory, and compares its
stdout with NAME.out by the rule of `cargo test`. One line per case: the
verdict, the CPU and wall times and the peak memory, then for a failure what
went wrong and a command that reproduces it:
  AC   accepted
  WA   wrong answer: the first differing line and token
  RE   exit code not 0 or a signal: the last lines of its stderr
  TLE  over --time-limit MS of CPU time (user + system)
  ILE  idleness limit: idle (under 10 ms of CPU in the last second) past
       2 x the limit + 1 s of wall time: it sleeps or waits
Then a summary such as `AC 148/150 (WA 2)`. Cases with .args or a .code are
for our solver and are not judged. Cases with a NAME.beyond file go beyond
the official judge's data (accepted solutions differ on them): they are
counted apart, as in `AC 195/195; beyond the judge's data: 0/1`, and not in
the exit code.

  --dir DIR        a folder of cases (repeatable)
  --time-limit MS  CPU time per case (default 2000)
  --fail-fast      stop at the first case that is not AC
";

pub const STRESS_HELP: &str = "\
usage: kit stress PROBLEM [--profile P|all] [--seed S] [--count N] [--jobs N]
                          [--out DIR] [--time-limit MS] [--solver PATH]
                          -- CMD ARGS...

Generated cases (the same as `kit gen` with the same profile and seed), our
solver and CMD on each; stops at the first case where CMD's output differs
from ours, CMD fails, or runs over a limit (TLE: --time-limit MS of CPU time;
ILE: idle past 2 x the limit + 1 s of wall time). Then shrinks the input
while our solver accepts it and CMD fails the same way (a failure by time
must repeat on a second run), prints it with both outputs, the first
difference and the times, and writes it as NAME.in and NAME.out (our
answer) to --out, ready for `kit judge --dir`. Before stressing, CMD is
timed on our smallest input: if its start-up alone is over the limit, kit
says so and stops.

  --profile P      the family of inputs (default random); all: every
                   profile in turn, --count cases each
  --seed S         default 1
  --count N        cases per profile (default 1000)
  --jobs N         cases run at once (default 1); the failure reported is
                   the lowest case number, the same as with --jobs 1
  --out DIR        default stress-failures/PROBLEM
  --time-limit MS  CPU time per run of CMD (default 2000)
  --solver PATH    our solver (default: beside kit, or in $KIT_SOLVER_DIR)

Progress goes to stderr: in place on a terminal, else a line every 10 s.
";

/// The message of a failed write. A closed pipe (`kit gen ... | head -1`)
/// is [`CLOSED_PIPE`]: kit then ends quietly with exit 0, as Unix tools do.
pub fn write_error(e: std::io::Error) -> String {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        CLOSED_PIPE.to_string()
    } else {
        format!("cannot write: {e}")
    }
}

/// The "error" of a reader that went away.
pub const CLOSED_PIPE: &str = "(stdout closed)";

/// Runs `kit ARGS` (without the program name); returns the exit code.
/// `live`: stderr is a terminal (progress is shown in place).
pub fn main(args: &[OsString], out: &mut dyn Write, err: &mut dyn Write, live: bool) -> i32 {
    match dispatch(args, out, err, live) {
        Ok(true) => 0,
        Ok(false) => 1,
        Err(msg) if msg == CLOSED_PIPE => 0,
        Err(msg) => {
            let _ = writeln!(err, "kit: {msg}");
            2
        }
    }
}

/// The options that take a value, per command.
const GEN: &[&str] = &["--profile", "--seed", "--count", "--out", "--solver"];
const JUDGE: &[&str] = &["--dir", "--time-limit"];
const STRESS: &[&str] =
    &["--profile", "--seed", "--count", "--jobs", "--out", "--time-limit", "--solver"];

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
    args: &[OsString],
    out: &mut dyn Write,
    err: &mut dyn Write,
    live: bool,
) -> Result<bool, String> {
    let Some(sub) = args.first() else {
        return Err("no command; see `kit --help`".to_string());
    };
    let rest = &args[1..];
    let help = match sub.to_str() {
        Some("-h" | "--help" | "help") => Some(USAGE),
        Some("gen") if wants_help(rest) => Some(GEN_HELP),
        Some("judge") if wants_help(rest) => Some(JUDGE_HELP),
        Some("stress") if wants_help(rest) => Some(STRESS_HELP),
        Some("show") if wants_help(rest) => Some(crate::show::HELP),
        Some("package") if wants_help(rest) => Some(crate::package::HELP),
        _ => None,
    };
    if let Some(text) = help {
        out.write_all(text.as_bytes()).map_err(write_error)?;
        return Ok(true);
    }
    match sub.to_str() {
        Some("gen") => gen_command(&Args::parse(rest, GEN, &["--list", "--force"], false)?, out),
        Some("judge") => judge_command(&Args::parse(rest, JUDGE, &["--fail-fast"], true)?, out),
        Some("stress") => stress_command(&Args::parse(rest, STRESS, &[], true)?, out, err, live),
        Some("show") => crate::show::command(rest, out),
        Some("package") => crate::package::command(rest, out).map(|()| true).map_err(|e| match e {
            crate::error::Error::ClosedPipe => CLOSED_PIPE.to_string(),
            e => e.to_string(),
        }),
        _ => Err(format!(
            "unknown command `{}`; the commands are gen, judge, stress, show, package (see `kit --help`)",
            sub.to_string_lossy()
        )),
    }
}

/// One command's arguments: the problem, `--name value` options (also
/// `--name=value`), flags, and the words after `--`.
struct Args {
    problem: String,
    options: Vec<(String, String)>,
    flags: Vec<String>,
    cmd: Option<Cmd>,
}

impl Args {
    fn parse(
        args: &[OsString],
        valued: &[&str],
        flags: &[&str],
        wants_cmd: bool,
    ) -> Result<Args, String> {
        let mut parsed =
            Args { problem: String::new(), options: Vec::new(), flags: Vec::new(), cmd: None };
        let mut problem = None;
        let mut words = args.iter();
        while let Some(word) = words.next() {
            let text = word.to_str().ok_or_else(|| format!("argument {word:?} is not UTF-8"))?;
            if text == "--" {
                if !wants_cmd {
                    return Err("this command takes no program after `--`".to_string());
                }
                let rest: Vec<OsString> = words.by_ref().cloned().collect();
                parsed.cmd = Some(Cmd::from_words(&rest).ok_or("no program after `--`")?);
                break;
            }
            let (name, inline) = match text.split_once('=') {
                Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
                _ => (text, None),
            };
            if valued.contains(&name) {
                let value = match inline {
                    Some(v) => v,
                    None => words
                        .next()
                        .and_then(|v| v.to_str())
                        .ok_or_else(|| format!("{name} needs a value"))?
                        .to_string(),
                };
                if name != "--dir" && parsed.value(name).is_some() {
                    return Err(format!("{name} given twice"));
                }
                parsed.options.push((name.to_string(), value));
            } else if flags.contains(&name) && inline.is_none() {
                parsed.flags.push(name.to_string());
            } else if text.starts_with('-') {
                let mut known: Vec<&str> = valued.iter().chain(flags).copied().collect();
                known.sort_unstable();
                return Err(format!(
                    "unknown option `{text}`; this command takes {}",
                    known.join(" ")
                ));
            } else if problem.is_none() {
                problem = Some(text.to_string());
            } else {
                return Err(format!("unexpected `{text}` (the program to run goes after `--`)"));
            }
        }
        parsed.problem = problem.ok_or_else(|| format!("which problem? ({})", problem_names()))?;
        if wants_cmd && parsed.cmd.is_none() {
            return Err(
                "no program to run: put it after `--`, as in `-- ./a.out` or `-- python3 sol.py`"
                    .to_string(),
            );
        }
        Ok(parsed)
    }

    fn value(&self, name: &str) -> Option<&str> {
        self.options.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    fn number(&self, name: &str, default: u64) -> Result<u64, String> {
        match self.value(name) {
            None => Ok(default),
            Some(v) => v.parse().map_err(|_| format!("{name} `{v}` is not a non-negative integer")),
        }
    }

    fn count(&self, default: u64) -> Result<u64, String> {
        match self.number("--count", default)? {
            0 => Err("--count must be at least 1".to_string()),
            n => Ok(n),
        }
    }

    fn problem(&self) -> Result<&'static dyn Problem, String> {
        problems::find(&self.problem).ok_or_else(|| {
            format!("unknown problem `{}`; the problems: {}", self.problem, problem_names())
        })
    }

    fn profile(&self, problem: &dyn Problem) -> Result<String, String> {
        let name = self.value("--profile").unwrap_or("random");
        gen::check_profile(problem, name)?;
        Ok(name.to_string())
    }

    fn flag(&self, name: &str) -> bool {
        self.flags.iter().any(|f| f == name)
    }

    fn solver(&self, problem: &dyn Problem) -> Result<Cmd, String> {
        let explicit = self.value("--solver").map(Path::new);
        Ok(Cmd::new(solver::locate(problem.name(), explicit)?))
    }

    fn time_limit(&self) -> Result<Duration, String> {
        match self.number("--time-limit", 2000)? {
            0 => Err("--time-limit must be at least 1 ms".to_string()),
            ms => Ok(Duration::from_millis(ms)),
        }
    }
}

fn gen_command(a: &Args, out: &mut dyn Write) -> Result<bool, String> {
    let problem = a.problem()?;
    if a.flag("--list") {
        out.write_all(gen::list(problem).as_bytes()).map_err(write_error)?;
        return Ok(true);
    }
    let profile = a.profile(problem)?;
    let count = a.count(1)?;
    let dir = a.value("--out").map(PathBuf::from);
    if dir.is_none() && count != 1 {
        return Err("--count needs --out DIR (without --out, one case goes to stdout)".to_string());
    }
    if dir.is_none() && a.flag("--force") {
        return Err("--force needs --out DIR".to_string());
    }
    let solver = a.solver(problem)?;
    let src = Source { problem, profile: &profile, seed: a.number("--seed", 1)?, solver: &solver };
    gen::gen(&src, count, dir.as_deref(), a.flag("--force"), out)?;
    Ok(true)
}

fn judge_command(a: &Args, out: &mut dyn Write) -> Result<bool, String> {
    let problem = a.problem()?;
    let mut dirs: Vec<PathBuf> =
        a.options.iter().filter(|(n, _)| n == "--dir").map(|(_, v)| PathBuf::from(v)).collect();
    if dirs.is_empty() {
        let default = Path::new("tests/data").join(problem.name());
        if !default.is_dir() {
            return Err(format!(
                "{}: no such folder (run kit from the repository's root, or pass --dir DIR)",
                default.display()
            ));
        }
        dirs.push(default);
    }
    let j = Judge {
        rule: problem.rule(),
        dirs,
        limit: a.time_limit()?,
        cmd: a.cmd.as_ref().expect("parsed with a program"),
        fail_fast: a.flag("--fail-fast"),
    };
    judge::judge(&j, out)
}

fn stress_command(
    a: &Args,
    out: &mut dyn Write,
    err: &mut dyn Write,
    live: bool,
) -> Result<bool, String> {
    let problem = a.problem()?;
    let profiles: Vec<&str> = match a.value("--profile") {
        Some("all") => problem.profiles().iter().map(|p| p.name).collect(),
        _ => {
            let name = a.profile(problem)?;
            let known = problem.profiles().iter().find(|p| p.name == name);
            vec![known.expect("checked").name]
        }
    };
    let (seed, count, limit) = (a.number("--seed", 1)?, a.count(1000)?, a.time_limit()?);
    let jobs = match a.number("--jobs", 1)? {
        0 => return Err("--jobs must be at least 1".to_string()),
        n if n > stress::MAX_JOBS as u64 => {
            return Err(format!("--jobs must be at most {}", stress::MAX_JOBS))
        }
        n => n as usize,
    };
    let solver = a.solver(problem)?;
    let out_dir = match a.value("--out") {
        Some(d) => PathBuf::from(d),
        None => Path::new("stress-failures").join(problem.name()),
    };
    let s = Stress {
        problem,
        profiles,
        seed,
        solver: &solver,
        count,
        cmd: a.cmd.as_ref().expect("parsed with a program"),
        limit,
        out_dir,
        jobs,
    };
    stress::stress(&s, out, &mut Progress::new(err, live))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::scratch::kit;

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
        refused(&["gen", "zhuguosha", "--count", "0", "--out", "x"], "--count must be at least 1");
        refused(
            &["judge", "zhuguosha", "--dir", ".", "--time-limit", "0", "--", "x"],
            "at least 1 ms",
        );
    }

    #[test]
    fn options_take_values_inline_or_next_and_dir_repeats() {
        let words: Vec<OsString> =
            ["p", "--dir", "a", "--dir=b", "--time-limit", "5", "--", "prog", "--dir", "c"]
                .iter()
                .map(OsString::from)
                .collect();
        let a = Args::parse(&words, &["--dir", "--time-limit"], &[], true).unwrap();
        assert_eq!(a.problem, "p");
        let dirs: Vec<&str> =
            a.options.iter().filter(|(n, _)| n == "--dir").map(|(_, v)| v.as_str()).collect();
        assert_eq!(dirs, ["a", "b"]);
        assert_eq!(a.time_limit().unwrap(), Duration::from_millis(5));
        assert_eq!(a.cmd.unwrap().to_string(), "prog --dir c");
    }
}
