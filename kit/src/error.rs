//! The one error type of kit. Every command returns `Result<_, Error>`;
//! `cli::main` alone turns an `Error` into a line on stderr and an exit
//! code, so a closed pipe or a usage slip is decided in one place.

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
    /// A file, folder or program could not be read, written or started:
    /// exit 2, `what` names the thing (`cannot write my-cases/0001.in`).
    Io { what: String, source: io::Error },
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

    /// An I/O error on `what` (a broken pipe is [`Error::ClosedPipe`]).
    pub fn io(what: impl Into<String>, source: io::Error) -> Error {
        if source.kind() == io::ErrorKind::BrokenPipe {
            Error::ClosedPipe
        } else {
            Error::Io { what: what.into(), source }
        }
    }

    /// The exit code of kit when this error ends it.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Usage(_) | Error::Io { .. } => 2,
            Error::ClosedPipe => 0,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Usage(message) => f.write_str(message),
            Error::Io { what, source } => write!(f, "{what}: {source}"),
            Error::ClosedPipe => f.write_str("(stdout closed)"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// A failed write to stdout (the only unnamed stream kit writes).
impl From<io::Error> for Error {
    fn from(source: io::Error) -> Error {
        Error::io("cannot write", source)
    }
}

/// A usage message (while some code still words its errors as strings).
impl From<String> for Error {
    fn from(message: String) -> Error {
        Error::Usage(message)
    }
}

impl From<&str> for Error {
    fn from(message: &str) -> Error {
        Error::Usage(message.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_broken_pipe_is_quiet_and_other_errors_say_what() {
        let pipe: Error = io::Error::from(io::ErrorKind::BrokenPipe).into();
        assert!(matches!(pipe, Error::ClosedPipe));
        assert_eq!(pipe.exit_code(), 0);
        let full = Error::io("cannot write a.in", io::Error::from(io::ErrorKind::PermissionDenied));
        assert_eq!(full.exit_code(), 2);
        assert!(full.to_string().starts_with("cannot write a.in: "), "{full}");
        assert_eq!(Error::usage("which problem?").to_string(), "which problem?");
    }
}
