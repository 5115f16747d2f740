//! The command line of every program (docs/contract.md): `--help`
//! anywhere, each option taken by the including program's `Options::set`,
//! one wording for a refused argument, the exit line. The master of the
//! marked block `command-line`: the trainer imports this module (its
//! `Options`, `Failure` and `BIN` are the parent's); scripts/sync-shared
//! copies the block into the four pasted solvers.
//!
//! # Errors
//! `parse_args` returns `Failure::BadArgument` (exit 2) for an argument
//! that is not UTF-8, an unknown option, an unexpected argument, or what
//! the program's `Options::set` refuses; the message ends `(see --help)`.
//! (The block's own comments stay short: every pasted file carries them.)

use std::ffi::OsString;
use std::io::{self, Write};

use super::{Failure, Options, BIN};

// shared: command-line begin, master src/shared/command_line.rs (edit there, then run scripts/sync-shared)

/// What the command line asks for.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Command {
    Help,
    Run(Options),
}

/// `--help` anywhere wins; else `Options::set` takes each name in turn.
pub(crate) fn parse_args(args: impl Iterator<Item = OsString>) -> Result<Command, Failure> {
    let args: Vec<_> = args.collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        return Ok(Command::Help);
    }
    let mut options = Options::default();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let name = arg.to_str().ok_or_else(not_utf8)?;
        let what = match options.set(name, &mut args)? {
            true => continue,
            // A lone `-` is an argument.
            false if name.len() > 1 && name.starts_with('-') => "unknown option",
            false => "unexpected argument",
        };
        return Err(refused(format!("{what} '{name}'")));
    }
    Ok(Command::Run(options))
}

pub(crate) fn refused(what: String) -> Failure {
    Failure::BadArgument(what + " (see --help)")
}

fn not_utf8() -> Failure {
    refused("an argument is not valid UTF-8".into())
}

/// Not `eprintln!`, which panics if stderr is closed.
pub(crate) fn exit_with(failure: Failure) -> ! {
    let _ = writeln!(io::stderr(), "{}: {}", BIN, failure);
    std::process::exit(failure.exit_code())
}
// shared: command-line end
