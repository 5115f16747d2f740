//! The command table: each command's name, what it does in one line, its
//! help, its options ([`Spec`]) and what runs it. `kit --help`, `kit
//! COMMAND --help`, the check of its words and the dispatch all read this
//! one table, so none can name a command or an option the others lack.

use super::options::{
    self, DiagnoseOptions, GenOptions, JudgeOptions, PackageOptions, RulesOptions, StressOptions,
};
use super::words::Spec;
use crate::diagnose::{self, Diagnose, Finding};
use crate::error::{Error, Result};
use crate::gen::{self, Source};
use crate::judge::{self, Judge};
use crate::problems::Problem;
use crate::run::Cmd;
use crate::solver;
use crate::stress::{self, Progress, Stress};
use std::ffi::OsString;
use std::io::Write;
use std::path::Path;

/// Where a command writes, and how kit was invoked.
pub struct Context<'a> {
    /// `kit` as the user typed it, for the commands kit prints.
    pub invoked_as: &'a str,
    pub out: &'a mut dyn Write,
    pub err: &'a mut dyn Write,
    /// stderr is a terminal (progress in place).
    pub live: bool,
}

/// One command of kit.
pub struct Command {
    pub name: &'static str,
    /// One line (or a few) for `kit --help`.
    pub about: &'static str,
    /// `kit NAME --help`: its usage lines first (the synopsis `kit --help`
    /// shows), then a blank line and the rest, in pieces joined as they are.
    pub help: &'static [&'static str],
    /// The words it takes.
    pub spec: &'static Spec,
    pub run: fn(&[OsString], &mut Context) -> Result<bool>,
}

impl Command {
    /// Its help, whole.
    pub fn help_text(&self) -> String {
        self.help.concat()
    }

    /// The usage lines of its help (up to the first blank line), as `kit
    /// --help` lists them: indented by two, `usage: ` dropped.
    pub fn synopsis(&self) -> String {
        let help = self.help_text();
        let head = help.split("\n\n").next().unwrap_or("");
        let mut lines = String::new();
        for line in head.lines() {
            let line = line.strip_prefix("usage: ").unwrap_or(line);
            // "       kit gen ..." (an alternative form) lines up with the first.
            let line = line.strip_prefix("       ").unwrap_or(line);
            lines += &format!("  {line}\n");
        }
        lines
    }
}

/// The verdicts of `kit judge` and `kit stress`, and how each is measured.
pub const VERDICTS: &str = "\
Verdicts, all on the program's whole process tree (every process of its
process group), watched every 10 ms while it runs and killed at once at a
limit:
  AC   accepted: exit code 0, stdout equal to the answer by the rule of
       `cargo test` (line by line, case-sensitive)
  WA   wrong answer: the first differing line and token
  RE   runtime error: exit code not 0, or a signal; the last lines of its
       stderr
  TLE  time limit: CPU time (user + system, of everything it started,
       ended or not) over --time-limit MS
  ILE  idleness limit: still running, idle (under 10 ms of CPU in the last
       second) past 2 x the limit + 1 s of wall time: it sleeps or waits
  MLE  memory limit: over --memory-limit MB: its control group's limit,
       held by the kernel; without a group (KIT_CGROUP=off, or none can
       be made), the sum of its processes' resident memory, or its own
       peak at its end
  OLE  output limit: stdout over --output-limit MB (by default the
       problem's package limit: 8 MB, as Kattis; ants_battle 64 MB)
";

/// What kit is not: a judge's sandbox.
pub const NOT_A_SANDBOX: &str = "\
kit is no sandbox: it runs your own program as you, with no security
boundary (a judge's sandbox also confines files, network and system calls).
Nothing it starts outlives it, even if kit is killed (SIGKILL included).
";

const GEN_HELP: &str = "\
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

const JUDGE_HELP: &str = "\
usage: kit judge PROBLEM [CASE.in]... [--dir DIR]... [--time-limit MS]
                         [--memory-limit MB] [--output-limit MB] [--fail-fast]
                         -- CMD ARGS...

Runs CMD on each CASE.in (with its CASE.out beside it) and on every NAME.in
that has a NAME.out below each DIR (with neither, tests/data/PROBLEM;
recursively), in the current directory, and compares its
stdout with NAME.out by the rule of `cargo test`. One line per case: the
verdict, the CPU and wall times and the peak memory, then for a failure what
went wrong and a command that reproduces it.

";

const JUDGE_HELP_END: &str = "
Then a summary such as `AC 148/150 (WA 2)`, the failures in the order WA,
RE, TLE, ILE, MLE, OLE. Cases with .args or a .code are for our solver and
are not judged. Cases with a NAME.beyond file go beyond the official judge's
data (accepted solutions differ on them): they are counted apart, as in
`AC 195/195; beyond the judge's data: 0/1`, and not in the exit code.

  CASE.in            one case, with its .out (repeatable)
  --dir DIR          a folder of cases (repeatable)
  --time-limit MS    CPU time per case (default 2000)
  --memory-limit MB  resident memory per case, in MiB (default 256)
  --output-limit MB  stdout per case, in MiB (default: the problem's)
  --fail-fast        stop at the first case that is not AC
";

const STRESS_HELP: &str = "\
usage: kit stress PROBLEM [--profile P|all | --gen 'CMD {seed}'] [--seed S]
                          [--count N] [--jobs N] [--keep-going] [--out DIR]
                          [--time-limit MS] [--memory-limit MB]
                          [--output-limit MB] [--shrink-time S]
                          [--no-diagnose] [--solver PATH] -- CMD ARGS...

Generated cases (the same as `kit gen` with the same profile and seed), our
solver and CMD on each; stops at the first case where CMD's output differs
from ours, CMD fails, or runs over a limit (the verdicts of `kit judge`,
below). Then shrinks the input while our solver accepts it and CMD fails the
same way (a failure by time must repeat on a second run), prints it with
both outputs, the first difference and the times, and writes it as NAME.in
and NAME.out (our answer) to --out, ready for `kit judge --dir`. Before
stressing, CMD is timed on our smallest input: if it never ends there,
waits, or its start-up alone is over the limit, kit says so and stops.

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
  --memory-limit MB  resident memory per run of CMD (default 256)
  --output-limit MB  stdout per run of CMD (default: the problem's)
  --shrink-time S    seconds of wall time to shrink each failing case (default
                     60, so that a run stays interactive); when it is spent,
                     the smallest failing input found so far is reported, and
                     said to be so (0: not shrunk at all)
  --solver PATH      our solver (default: beside kit, or in $KIT_SOLVER_DIR)
  --no-diagnose      after a wrong answer, no diagnosis (by default kit then
                     runs `kit diagnose` with the same seed, limits and jobs:
                     the rule of the statement CMD most likely misreads)

Progress goes to stderr: in place on a terminal, else a line every 10 s.

";

const DIAGNOSE_HELP: &str = "\
usage: kit diagnose PROBLEM [--seed S] [--games N] [--jobs N] [--time-limit MS]
                            [--memory-limit MB] [--output-limit MB]
                            [--solver PATH] -- CMD ARGS...

Names the rule of the statement that CMD most likely misreads. Plays N
generated games (every profile in turn) with our solver, which also says
which rules of the statement each game exercises (`kit rules PROBLEM` lists
them), and with CMD; ranks the rules by how CMD's wrong answers line up with
them (spectrum-based fault localization: DStar, then Ochiai); confirms the
top suspects with targeted games (more of the profiles where each fires
most, and the games one step smaller than the smallest failing game, which
it shrinks as kit stress does); and prints the suspects, one a line:

  suspect K: ID  fails A of B games where it applies, C of D where it does not  「sentence」

(rules with equal evidence share K), then the smallest failing game with
our trace, the lines where suspect 1 fires marked `>`. A crash, a limit or
malformed output is no rule's: those games are set aside (no suspect if
there is nothing else); a program that answers one game two ways is said
to be nondeterministic, and no rule is named. Exit 0 when CMD agrees on
every game, else 1.

  --seed S           default 1
  --games N          games of the first look (default 300)
  --jobs N           games played at once (default 1); the same result
  --time-limit MS    CPU time per run of CMD (default 2000)
  --memory-limit MB  resident memory per run of CMD (default 256)
  --output-limit MB  stdout per run of CMD (default: the problem's)
  --solver PATH      our solver (default: beside kit, or in $KIT_SOLVER_DIR)
";

/// Every command, in the order `kit --help` lists them.
pub const COMMANDS: [Command; 7] = [
    Command {
        name: "gen",
        about: "Seeded inputs, with our solver's answers.",
        help: &[GEN_HELP],
        spec: &options::GEN,
        run: |args, cx| gen_command(&GenOptions::parse(args)?, cx.out),
    },
    Command {
        name: "judge",
        about: "Runs CMD on fixture folders: one verdict per case.",
        help: &[JUDGE_HELP, VERDICTS, JUDGE_HELP_END],
        spec: &options::JUDGE,
        run: |args, cx| judge_command(&JudgeOptions::parse(args)?, cx.out),
    },
    Command {
        name: "stress",
        about: "Runs CMD and our solver on generated cases until they disagree, then\n\
                shrinks the input.",
        help: &[STRESS_HELP, VERDICTS],
        spec: &options::STRESS,
        run: |args, cx| stress_command(&StressOptions::parse(args)?, cx),
    },
    Command {
        name: "diagnose",
        about: "Plays many games with CMD and our solver and names the rule of the\n\
                statement CMD most likely misreads, with the evidence.",
        help: &[DIAGNOSE_HELP],
        spec: &options::DIAGNOSE,
        run: |args, cx| diagnose_command(&DiagnoseOptions::parse(args)?, cx),
    },
    Command {
        name: "show",
        about: "Writes one self-contained web page that draws a game (a 猪国杀\n\
                replay, an Ants battle, a 集 record or value table) from our\n\
                solver's explain output.",
        help: &[crate::show::HELP],
        spec: &options::SHOW,
        run: |args, cx| crate::show::show(&options::show_options(args)?, cx.out),
    },
    Command {
        name: "rules",
        about: "Prints the statement's rules, one a line (id, the statement's sentence,\n\
                English), or which of them a game exercises.",
        help: &[crate::rules::HELP],
        spec: &options::RULES,
        run: |args, cx| rules_command(&RulesOptions::parse(args)?, cx.out),
    },
    Command {
        name: "package",
        about: "Writes a Kattis problem package (statement, data, validator,\n\
                submissions) that problemtools' verifyproblem checks.",
        help: &[crate::package::HELP],
        spec: &options::PACKAGE,
        run: |args, cx| package_command(&PackageOptions::parse(args)?, cx.out),
    },
];

/// The command called `name`.
pub fn find(name: &str) -> Option<&'static Command> {
    COMMANDS.iter().find(|c| c.name == name)
}

/// The names of the commands, for a message.
pub fn names() -> String {
    let names: Vec<&str> = COMMANDS.iter().map(|c| c.name).collect();
    names.join(", ")
}

/// Our solver for `problem`: `--solver PATH`, else beside kit.
fn our_solver(problem: &dyn Problem, explicit: Option<&Path>) -> Result<Cmd> {
    Ok(Cmd::new(solver::locate(problem.name(), explicit)?))
}

fn package_command(o: &PackageOptions, out: &mut dyn Write) -> Result<bool> {
    let solver = solver::locate(o.problem.name(), o.solver.as_deref())?;
    crate::package::command(o.problem, &o.dir, o.zip.as_deref(), o.force, &solver, out)?;
    Ok(true)
}

fn rules_command(o: &RulesOptions, out: &mut dyn Write) -> Result<bool> {
    let name = o.problem.name();
    let text = match &o.game {
        None => crate::rules::listing(
            crate::rules::catalogue(name)
                .ok_or_else(|| Error::usage(crate::rules::no_catalogue(name)))?,
        ),
        Some(game) => {
            let input = std::fs::read(game).map_err(|e| Error::read(game.display(), e))?;
            let solver = solver::locate(name, o.solver.as_deref())?;
            let explained = crate::rules::explain(name, &input, &solver)?;
            match o.rule {
                None => crate::rules::exercised_listing(&explained.exercised),
                Some(id) => {
                    crate::rules::mark_lines(&explained.text, &explained.exercised.lines(id))
                }
            }
        }
    };
    out.write_all(text.as_bytes()).map_err(Error::stdout)?;
    Ok(true)
}

fn gen_command(o: &GenOptions, out: &mut dyn Write) -> Result<bool> {
    if o.list {
        out.write_all(gen::list(o.problem).as_bytes()).map_err(Error::stdout)?;
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
        limits: o.limits(),
        cmd: &o.cmd,
        fail_fast: o.fail_fast,
    };
    judge::judge(&j, out)
}

fn diagnose_command(o: &DiagnoseOptions, cx: &mut Context) -> Result<bool> {
    let solver = our_solver(o.problem, o.solver.as_deref())?;
    let d = Diagnose {
        problem: o.problem,
        seed: o.seed,
        solver: &solver,
        cmd: &o.cmd,
        limits: o.limits,
        games: o.games,
        jobs: o.jobs,
    };
    let finding = diagnose::diagnose(&d, cx.out, &mut Progress::new(cx.err, cx.live))?;
    Ok(matches!(finding, Finding::Agrees { .. }))
}

fn stress_command(o: &StressOptions, cx: &mut Context) -> Result<bool> {
    let solver = our_solver(o.problem, o.solver.as_deref())?;
    let s = Stress {
        problem: o.problem,
        profiles: o.profiles.clone(),
        seed: o.seed,
        solver: &solver,
        count: o.count,
        cmd: &o.cmd,
        limits: o.limits(),
        out_dir: o.out.clone(),
        jobs: o.jobs,
        keep_going: o.keep_going,
        generator: o.generator.as_deref(),
        kit: cx.invoked_as,
        shrink: stress::Budget::time(o.shrink_time),
    };
    let ended = stress::stress_ended(&s, cx.out, &mut Progress::new(cx.err, cx.live))?;
    if ended.wrong_answer && !o.no_diagnose {
        // Which rule: the diagnosis, on our profiles with the same seed.
        cx.out.write_all(b"\n").map_err(Error::stdout)?;
        let d = Diagnose {
            problem: o.problem,
            seed: o.seed,
            solver: &solver,
            cmd: &o.cmd,
            limits: o.limits(),
            games: diagnose::GAMES,
            jobs: o.jobs,
        };
        diagnose::diagnose(&d, cx.out, &mut Progress::new(cx.err, cx.live))?;
    }
    Ok(ended.agreed)
}
