//! The one reader of every command's words: options by a [`Spec`] (each
//! command's, in [`super::options`]), the problem, the program after `--`.

use crate::error::{Error, Result};
use crate::problems;
use crate::problems::Problem;
use crate::run::Cmd;
use std::ffi::OsString;
use std::time::Duration;

/// What one command's words may be: its options that take a value (each
/// at most once, but those in `repeatable`), its flags, and whether a
/// program follows `--`.
pub struct Spec {
    pub valued: &'static [&'static str],
    pub repeatable: &'static [&'static str],
    pub flags: &'static [&'static str],
    pub takes_cmd: bool,
}

/// One word of a command line, handed to a command's options.
pub enum Word<'w> {
    /// `--name value` or `--name=value`, `name` one of [`Spec::valued`].
    Value(&'w str, &'w str),
    /// One of [`Spec::flags`].
    Flag(&'w str),
    /// A word that is not an option, after the problem's name.
    Extra(&'w str),
}

/// What the words of a command that runs a program hold besides its
/// options.
pub struct WithProgram {
    pub problem: &'static dyn Problem,
    /// The words after `--`.
    pub cmd: Cmd,
}

/// Reads the words of a command without a program by `spec`: the first
/// plain word is the problem, each option goes to `take`.
///
/// # Errors
/// A usage error for a word `spec` does not allow, a missing or unknown
/// problem, or what `take` refuses.
pub fn parse(
    args: &[OsString],
    spec: &Spec,
    take: impl FnMut(Word) -> Result<()>,
) -> Result<&'static dyn Problem> {
    let (name, _) = read(args, spec, take)?;
    problems::named(name)
}

/// Reads the words of a command that runs a program by `spec` (one with
/// [`Spec::takes_cmd`]), as [`parse`] does; the words after `--` are the
/// program.
///
/// # Errors
/// As [`parse`]'s, and a usage error when no program follows `--`.
pub fn parse_with_program(
    args: &[OsString],
    spec: &Spec,
    take: impl FnMut(Word) -> Result<()>,
) -> Result<WithProgram> {
    let (name, cmd) = read(args, spec, take)?;
    let cmd = cmd.ok_or_else(|| {
        Error::usage(
            "no program to run: put it after `--`, as in `-- ./a.out` or `-- python3 sol.py`",
        )
    })?;
    Ok(WithProgram { problem: problems::named(name)?, cmd })
}

/// The problem's name and the program, if any, of a command's words; the
/// options handed to `take`.
fn read<'a>(
    args: &'a [OsString],
    spec: &Spec,
    mut take: impl FnMut(Word) -> Result<()>,
) -> Result<(&'a str, Option<Cmd>)> {
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
        problem.ok_or_else(|| Error::usage(format!("which problem? ({})", problems::names())))?;
    Ok((name, cmd))
}

/// An option of a command's [`Spec`] that its options do not read: our
/// mistake, said as such rather than a panic (the command table's tests
/// give every option of every command, and reach none).
pub fn unhandled(word: Word) -> Error {
    let (Word::Value(name, _) | Word::Flag(name) | Word::Extra(name)) = word;
    Error::usage(format!("kit does not read its own option `{name}` here (a bug of kit)"))
}

/// A word after the problem that is no option: the program goes after `--`.
pub fn unexpected(word: &str) -> Error {
    Error::usage(format!("unexpected `{word}` (the program to run goes after `--`)"))
}

/// The value of `--name` as a non-negative integer (of 64 bits).
///
/// # Errors
/// A usage error naming the option when `value` is not a number.
pub fn number(name: &str, value: &str) -> Result<u64> {
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
///
/// # Errors
/// A usage error naming the option when `value` is not a number or is 0.
pub fn positive(name: &str, value: &str, unit: &str) -> Result<u64> {
    match number(name, value)? {
        0 => Err(Error::usage(format!("{name} must be at least 1{unit}"))),
        n => Ok(n),
    }
}

/// `--time-limit MS`: CPU time per run.
///
/// # Errors
/// A usage error when `value` is not a positive number of milliseconds.
pub fn time_limit(value: &str) -> Result<Duration> {
    Ok(Duration::from_millis(positive("--time-limit", value, " ms")?))
}

/// `--memory-limit MB`: resident memory per run, in MiB.
///
/// # Errors
/// A usage error when `value` is not a positive number of MB.
pub fn memory_limit(value: &str) -> Result<u64> {
    positive("--memory-limit", value, " MB")
}

/// `--output-limit MB`: stdout per run, in MiB.
///
/// # Errors
/// A usage error when `value` is not a positive number of MB.
pub fn output_limit(value: &str) -> Result<u64> {
    positive("--output-limit", value, " MB")
}
