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
  kit gen PROBLEM [--profile P] [--seed S] [--count N --out DIR] [--solver PATH]
  kit gen PROBLEM --list
  kit judge PROBLEM [--dir DIR]... [--time-limit MS] -- CMD ARGS...
  kit stress PROBLEM [--profile P] [--seed S] [--count N] [--out DIR]
                     [--time-limit MS] [--solver PATH] -- CMD ARGS...
  kit show PROBLEM CASE.in [--out FILE.html] [--solver PATH]

gen     Without --out, one case (case 0) to stdout. With --out DIR, the cases
        0..N as DIR/NNNN.in with our solver's answer DIR/NNNN.out. An input
        our solver has no answer to (exit 3: a game that never ends) is
        drawn again, so every case has an answer. Defaults: --profile random --seed 1 --count 1.
        --list shows the profiles.
judge   Runs CMD on every NAME.in that has a NAME.out below each DIR (default
        tests/data/PROBLEM, recursively), in the current directory, and
        compares its stdout by the rule of `cargo test`. One line per case:
        AC, WA (with the first differing line and token and a command that
        reproduces it), RE (exit code or signal) or TLE, the wall time and
        the peak memory; then a summary such as `AC 148/150 (WA 2)`. Cases
        with .args or a .code are for our solver and are not judged.
        Default --time-limit 2000.
stress  Generated cases (the same as `kit gen` with the same profile and
        seed), our solver and CMD on each, up to --count (default 1000);
        stops at the first case where CMD's output differs from ours, CMD
        fails or runs over --time-limit (default 2000 ms). Then shrinks the
        input while our solver accepts it and CMD fails the same way, prints
        it with both outputs and the first difference, and writes it as
        NAME.in and NAME.out (our answer) to --out (default
        stress-failures/PROBLEM), ready for `kit judge --dir`.

Our solvers are the binaries beside kit (cargo build --release puts them
all in target/release), or in $KIT_SOLVER_DIR, or --solver PATH.

exit codes: 0 all good; 1 judge: a case is not AC, stress: a failure found;
2 usage or set-up error (one line on stderr).
";

/// Runs `kit ARGS` (without the program name); returns the exit code.
/// `live`: stderr is a terminal (progress is shown in place).
pub fn main(args: &[OsString], out: &mut dyn Write, err: &mut dyn Write, live: bool) -> i32 {
    match dispatch(args, out, err, live) {
        Ok(true) => 0,
        Ok(false) => 1,
        Err(msg) => {
            let _ = writeln!(err, "kit: {msg}");
            2
        }
    }
}

/// The options that take a value, per command.
const GEN: &[&str] = &["--profile", "--seed", "--count", "--out", "--solver"];
const JUDGE: &[&str] = &["--dir", "--time-limit"];
const STRESS: &[&str] = &[
    "--profile",
    "--seed",
    "--count",
    "--out",
    "--time-limit",
    "--solver",
];

fn dispatch(
    args: &[OsString],
    out: &mut dyn Write,
    err: &mut dyn Write,
    live: bool,
) -> Result<bool, String> {
    let io = |e: std::io::Error| format!("cannot write: {e}");
    let Some(sub) = args.first() else {
        return Err("no command; see `kit --help`".to_string());
    };
    let rest = &args[1..];
    match sub.to_str() {
        Some("-h" | "--help" | "help") => {
            out.write_all(USAGE.as_bytes()).map_err(io)?;
            Ok(true)
        }
        Some("gen") => gen_command(&Args::parse(rest, GEN, &["--list"], false)?, out),
        Some("judge") => judge_command(&Args::parse(rest, JUDGE, &[], true)?, out),
        Some("stress") => stress_command(&Args::parse(rest, STRESS, &[], true)?, out, err, live),
        Some("show") => crate::show::command(rest, out),
        _ => Err(format!(
            "unknown command `{}`; the commands are gen, judge, stress, show (see `kit --help`)",
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
        let mut parsed = Args {
            problem: String::new(),
            options: Vec::new(),
            flags: Vec::new(),
            cmd: None,
        };
        let mut problem = None;
        let mut words = args.iter();
        while let Some(word) = words.next() {
            let text = word
                .to_str()
                .ok_or_else(|| format!("argument {word:?} is not UTF-8"))?;
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
                return Err(format!(
                    "unexpected `{text}` (the program to run goes after `--`)"
                ));
            }
        }
        parsed.problem =
            problem.ok_or("which problem? (zhuguosha, ants_battle, ji_referee, ji_solver)")?;
        if wants_cmd && parsed.cmd.is_none() {
            return Err(
                "no program to run: put it after `--`, as in `-- ./a.out` or `-- python3 sol.py`"
                    .to_string(),
            );
        }
        Ok(parsed)
    }

    fn value(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    fn number(&self, name: &str, default: u64) -> Result<u64, String> {
        match self.value(name) {
            None => Ok(default),
            Some(v) => v
                .parse()
                .map_err(|_| format!("{name} `{v}` is not a non-negative integer")),
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
            let names: Vec<&str> = problems::all().iter().map(|p| p.name()).collect();
            format!(
                "unknown problem `{}`; the problems: {}",
                self.problem,
                names.join(", ")
            )
        })
    }

    fn profile(&self, problem: &dyn Problem) -> Result<String, String> {
        let name = self.value("--profile").unwrap_or("random");
        gen::check_profile(problem, name)?;
        Ok(name.to_string())
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
    if a.flags.iter().any(|f| f == "--list") {
        out.write_all(gen::list(problem).as_bytes())
            .map_err(|e| format!("cannot write: {e}"))?;
        return Ok(true);
    }
    let profile = a.profile(problem)?;
    let count = a.count(1)?;
    let dir = a.value("--out").map(PathBuf::from);
    if dir.is_none() && count != 1 {
        return Err("--count needs --out DIR (without --out, one case goes to stdout)".to_string());
    }
    let solver = a.solver(problem)?;
    let src = Source {
        problem,
        profile: &profile,
        seed: a.number("--seed", 1)?,
        solver: &solver,
    };
    gen::gen(&src, count, dir.as_deref(), out)?;
    Ok(true)
}

fn judge_command(a: &Args, out: &mut dyn Write) -> Result<bool, String> {
    let problem = a.problem()?;
    let mut dirs: Vec<PathBuf> = a
        .options
        .iter()
        .filter(|(n, _)| n == "--dir")
        .map(|(_, v)| PathBuf::from(v))
        .collect();
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
        problem: problem.name(),
        dirs,
        limit: a.time_limit()?,
        cmd: a.cmd.as_ref().expect("parsed with a program"),
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
    let profile = a.profile(problem)?;
    let (seed, count, limit) = (a.number("--seed", 1)?, a.count(1000)?, a.time_limit()?);
    let solver = a.solver(problem)?;
    let out_dir = match a.value("--out") {
        Some(d) => PathBuf::from(d),
        None => Path::new("stress-failures").join(problem.name()),
    };
    let s = Stress {
        source: Source {
            problem,
            profile: &profile,
            seed,
            solver: &solver,
        },
        count,
        cmd: a.cmd.as_ref().expect("parsed with a program"),
        limit,
        out_dir,
    };
    stress::stress(&s, out, &mut Progress::new(err, live))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kit(args: &[&str]) -> (i32, String, String) {
        let args: Vec<OsString> = args.iter().map(OsString::from).collect();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = main(&args, &mut out, &mut err, false);
        (
            code,
            String::from_utf8(out).unwrap(),
            String::from_utf8(err).unwrap(),
        )
    }

    fn refused(args: &[&str], message: &str) {
        let (code, out, err) = kit(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty());
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.starts_with("kit: ") && err.contains(message),
            "{args:?}: {err}"
        );
    }

    #[test]
    fn help_lists_the_three_commands() {
        let (code, out, _) = kit(&["--help"]);
        assert_eq!(code, 0);
        for usage in [
            "  kit gen PROBLEM",
            "  kit judge PROBLEM",
            "  kit stress PROBLEM",
        ] {
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
        refused(
            &["gen", "zhuguosha", "--seed", "1", "--seed=2"],
            "--seed given twice",
        );
        refused(&["gen", "zhuguosha", "--", "x"], "takes no program");
        refused(&["judge", "zhuguosha"], "no program to run");
        refused(&["judge", "zhuguosha", "--"], "no program after `--`");
        refused(
            &["stress", "zhuguosha", "--count", "many", "--", "x"],
            "--count `many` is not a non-negative integer",
        );
        refused(
            &["gen", "no_such_problem"],
            "unknown problem `no_such_problem`",
        );
        refused(
            &["gen", "zhuguosha", "--count", "0", "--out", "x"],
            "--count must be at least 1",
        );
        refused(
            &[
                "judge",
                "zhuguosha",
                "--dir",
                ".",
                "--time-limit",
                "0",
                "--",
                "x",
            ],
            "at least 1 ms",
        );
    }

    #[test]
    fn options_take_values_inline_or_next_and_dir_repeats() {
        let words: Vec<OsString> = [
            "p",
            "--dir",
            "a",
            "--dir=b",
            "--time-limit",
            "5",
            "--",
            "prog",
            "--dir",
            "c",
        ]
        .iter()
        .map(OsString::from)
        .collect();
        let a = Args::parse(&words, &["--dir", "--time-limit"], &[], true).unwrap();
        assert_eq!(a.problem, "p");
        let dirs: Vec<&str> = a
            .options
            .iter()
            .filter(|(n, _)| n == "--dir")
            .map(|(_, v)| v.as_str())
            .collect();
        assert_eq!(dirs, ["a", "b"]);
        assert_eq!(a.time_limit().unwrap(), Duration::from_millis(5));
        assert_eq!(a.cmd.unwrap().to_string(), "prog --dir c");
    }
}
