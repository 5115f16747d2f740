//! The one error type of kit. Every command returns `Result<_, Error>`;
//! `cli::main` alone turns an `Error` into a line on stderr and an exit
//! code, so a closed pipe or a usage slip is decided in one place.
//!
//! An error is typed by what failed (reading, writing, starting a
//! program, a program's run, a package, a page, the command line) and
//! names the path or program it failed on. There is no blanket conversion
//! from `io::Error` or `String`: each `?` says which of them it is.

use std::fmt;
use std::io;

/// What went wrong, by kind. Each kind has one exit code
/// ([`Error::exit_code`]) and one wording ([`fmt::Display`]).
#[derive(Debug)]
pub enum Error {
    /// A bad command line, or a set-up that cannot work (an unknown
    /// problem, a missing solver, a folder that exists without --force):
    /// exit 2, the message said as is.
    Usage(String),
    /// A file or folder could not be read: `cannot read PATH: why`.
    Read { path: String, source: io::Error },
    /// A file or folder could not be written, created or replaced (the
    /// `action`): `cannot write PATH: why`.
    Write { action: &'static str, path: String, source: io::Error },
    /// A program could not be started: `cannot start PROGRAM: why`.
    Start { program: String, source: io::Error },
    /// A program started, and kit lost track of it after (a wait or a
    /// poll of kit's failed): `lost track of PROGRAM after its start:
    /// why`.
    Lost { program: String, source: io::Error },
    /// A program ran and failed in a way that stops the command (our
    /// solver refused a case, a generator failed): the message names the
    /// program and the case.
    Run(String),
    /// A package cannot be made of what it is given (its statement edits,
    /// its size): the message names the file.
    Package(String),
    /// A page cannot be made (no page for the problem, a page that is not
    /// text).
    Page(String),
    /// stdout's reader went away (`kit gen ... | head -1`): kit ends
    /// quietly with exit 0, as Unix tools do.
    ClosedPipe,
}

/// kit's result type.
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// A usage or set-up error with this message.
    pub fn usage(message: impl Into<String>) -> Error {
        Error::Usage(message.into())
    }

    /// `path` could not be read.
    pub fn read(path: impl fmt::Display, source: io::Error) -> Error {
        Error::Read { path: path.to_string(), source }
    }

    /// `path` could not be written.
    pub fn write(path: impl fmt::Display, source: io::Error) -> Error {
        Error::writing("write", path, source)
    }

    /// `path` could not be changed by `action` (`create`, `replace`, ...).
    pub fn writing(action: &'static str, path: impl fmt::Display, source: io::Error) -> Error {
        Error::Write { action, path: path.to_string(), source }
    }

    /// kit's stdout could not be written; a broken pipe is
    /// [`Error::ClosedPipe`].
    pub fn stdout(source: io::Error) -> Error {
        if source.kind() == io::ErrorKind::BrokenPipe {
            Error::ClosedPipe
        } else {
            Error::write("stdout", source)
        }
    }

    /// `program` could not be started.
    pub fn start(program: impl fmt::Display, source: io::Error) -> Error {
        Error::Start { program: program.to_string(), source }
    }

    /// kit lost track of `program` after its start.
    pub fn lost(program: impl fmt::Display, source: io::Error) -> Error {
        Error::Lost { program: program.to_string(), source }
    }

    /// A program's run that stops the command, with this message.
    pub fn run(message: impl Into<String>) -> Error {
        Error::Run(message.into())
    }

    /// A package that cannot be made, with this message.
    pub fn package(message: impl Into<String>) -> Error {
        Error::Package(message.into())
    }

    /// A page that cannot be made, with this message.
    pub fn page(message: impl Into<String>) -> Error {
        Error::Page(message.into())
    }

    /// The exit code of kit when this error ends it.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::ClosedPipe => 0,
            _ => 2,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Usage(message)
            | Error::Run(message)
            | Error::Package(message)
            | Error::Page(message) => f.write_str(message),
            Error::Read { path, source } => write!(f, "cannot read {path}: {source}"),
            Error::Write { action, path, source } => write!(f, "cannot {action} {path}: {source}"),
            Error::Start { program, source } => write!(f, "cannot start {program}: {source}"),
            Error::Lost { program, source } => {
                write!(f, "lost track of {program} after its start: {source}")
            }
            Error::ClosedPipe => f.write_str("(stdout closed)"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Read { source, .. }
            | Error::Write { source, .. }
            | Error::Start { source, .. }
            | Error::Lost { source, .. } => Some(source),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_broken_pipe_is_quiet_and_other_errors_say_what() {
        let pipe = Error::stdout(io::Error::from(io::ErrorKind::BrokenPipe));
        assert!(matches!(pipe, Error::ClosedPipe));
        assert_eq!(pipe.exit_code(), 0);
        let denied = || io::Error::from(io::ErrorKind::PermissionDenied);
        let full = Error::stdout(denied());
        assert_eq!(full.exit_code(), 2);
        assert!(full.to_string().starts_with("cannot write stdout: "), "{full}");
        assert!(Error::read("a.in", denied()).to_string().starts_with("cannot read a.in: "));
        let created = Error::writing("create", "out", denied()).to_string();
        assert!(created.starts_with("cannot create out: "), "{created}");
        let started = Error::start("`sol`", denied()).to_string();
        assert!(started.starts_with("cannot start `sol`: "), "{started}");
        let lost = Error::lost("`sol`", denied()).to_string();
        assert!(lost.starts_with("lost track of `sol` after its start: "), "{lost}");
        assert_eq!(Error::usage("which problem?").to_string(), "which problem?");
    }
}
