//! 集 (波波攒) trainer: an AI for any variant, trained by a genetic
//! algorithm and kept in an archive, that a person plays against.
//!
//! One module per job, each importing only those before it: `show` (the
//! token quoter), `failure` (why a session stops), `format` (the variant
//! format), `variant` (the trainer's variant and its limits), `names` (what
//! a person reads and types for a skill), `rng`, `model` (the capped game
//! and the AI's table), `simplex` and `lu` (matrix games, linear systems),
//! `eval` (best responses, outcomes, the equilibrium), `train` (the genetic
//! algorithm), `archive` (the population on disk), `screen` (what fits a
//! terminal), `session` (the commands and a game); this file and
//! `command_line` are the command line. `show`, `command_line`, `simplex`,
//! `lu`, the reader in `format` and the generator in `rng` are the shared
//! masters in src/shared/ (docs/contract.md), which the pasted solvers hold
//! copies of. The commands, model, archive format, exit codes and figures:
//! docs/ji_trainer.md.

mod archive;
#[path = "../../shared/command_line.rs"]
mod command_line;
mod eval;
mod failure;
mod format;
#[path = "../../shared/ji_english.rs"]
mod ji_english;
#[path = "../../shared/lu.rs"]
mod lu;
mod model;
mod names;
mod rng;
mod screen;
mod session;
#[path = "../../shared/show.rs"]
mod show;
// The trainer plays the coarse tolerances only; ji_solver's late passes
// use the rest.
#[allow(dead_code)]
#[path = "../../shared/simplex.rs"]
mod simplex;
mod train;
mod variant;

use std::ffi::OsString;
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;

use command_line::{exit_with, parse_args, refused, Command};
use failure::Failure;
use screen::Fit;
use session::{run, Options, Terminal, COMMANDS};
use show::show;

/// The program's name, as its messages begin.
const BIN: &str = "ji";

const HELP: &str = "ji: play 集 (波波攒) against an AI trained by a genetic algorithm.
usage:   ji [options]            (then commands on stdin, typed or scripted)
input:   a variant file (--variant), the population archive (--archive),
         and on stdin
output:  the session on stdout; the archive after each `t`
options: --variant FILE  the variant: n, then n skills
                         `name delta req k beaten...`, then optionally
                         `lasting m` and m lasting effects (default: the
                         common variant 集 小防 中防 大防 小波 中波 大波 黑洞)
         --archive FILE  the population archive, read at start, written
                         after `t` (default: ./archive)
         --seed N        seed of the pseudo-random generator (default: the
                         clock)
         --help          print this help and exit
exit:    0 ok, 1 unreadable input or unwritable output, 2 bad input or
         argument, 3 not used (a bad variant or archive file is bad input)
";

/// `--help`: [`HELP`] with [`COMMANDS`] inside its `input:` section,
/// indented to the text column as the contract's layout asks.
fn help() -> String {
    let (head, tail) = HELP.split_at(HELP.find("output:").unwrap_or(HELP.len()));
    let mut text = head.to_string();
    for line in COMMANDS.lines() {
        text.push_str("         ");
        text.push_str(line);
        text.push('\n');
    }
    text + tail
}

/// The command line's side of [`Options`] (the session's settings).
impl Options {
    /// Sets option `name`, its value taken from `args` (`false`: no such
    /// option). A path (`--variant`, `--archive`) may be any `OsString`,
    /// since a file name need not be UTF-8.
    fn set(&mut self, name: &str, args: &mut std::slice::Iter<OsString>) -> Result<bool, Failure> {
        if !matches!(name, "--variant" | "--archive" | "--seed") {
            return Ok(false);
        }
        let Some(value) = args.next() else {
            return Err(refused(format!("option '{name}' needs a value")));
        };
        match name {
            "--variant" => self.variant = Some(PathBuf::from(value)),
            "--archive" => self.archive = PathBuf::from(value),
            _ => match value.to_str().and_then(|v| v.parse::<u64>().ok()) {
                Some(s) => self.seed = Some(s),
                None => {
                    let v = show(value.to_string_lossy().as_bytes());
                    let why = "not an integer 0..2^64";
                    return Err(refused(format!("bad value '{v}' for --seed: {why}")));
                }
            },
        }
        Ok(true)
    }
}

fn main() {
    let mut out = Fit::new(io::BufWriter::new(io::stdout().lock()));
    let result = match parse_args(std::env::args_os().skip(1)) {
        Ok(Command::Help) => out.write_all(help().as_bytes()).map_err(Failure::from),
        Ok(Command::Run(options)) => {
            let terminal =
                Terminal { input: io::stdin().is_terminal(), output: io::stdout().is_terminal() };
            run(&options, &mut io::stdin().lock(), &mut out, terminal)
        }
        Err(f) => Err(f),
    };
    let result = result.and_then(|()| out.flush().map_err(Failure::from));
    if let Err(f) = result {
        // The session's output goes out before the error line.
        let _ = out.flush();
        exit_with(f);
    }
}

#[cfg(test)]
#[path = "../../../tests/unit/ji.rs"]
mod tests;

#[cfg(test)]
#[path = "../../../tests/unit/ji_lasting.rs"]
mod lasting_tests;
