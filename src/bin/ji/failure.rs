//! Why a session stops: the one `Failure` type of docs/contract.md, its
//! wording and its exit code.

use std::fmt;
use std::io;

use crate::show::show;

/// Why a session stopped: stderr `ji: {failure}`, exit `exit_code()`
/// (docs/contract.md; `BadInput` also names its file, as ji reads two).
#[derive(Debug, PartialEq, Eq)]
pub enum Failure {
    /// A bad command-line argument, worded in full; also a variant or
    /// archive file that cannot be read (a bad value of its option).
    BadArgument(String),
    /// A bad variant or archive `file` (the path as given): a bad line, or
    /// (no line) a valid variant beyond the trainer's capacity, worded as
    /// `ji_variant`'s tests expect of all three programs.
    BadInput { file: String, line: Option<usize>, what: String },
    /// Stdin (the commands) cannot be read.
    UnreadableInput(String),
    /// Stdout cannot be written.
    UnwritableOutput(String),
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::BadArgument(what) => f.write_str(what),
            Failure::BadInput { file, line: Some(line), what } => {
                write!(f, "{file}: line {line}: {what}")
            }
            Failure::BadInput { file, line: None, what } => write!(f, "{file}: {what}"),
            Failure::UnreadableInput(e) => write!(f, "cannot read the input: {e}"),
            Failure::UnwritableOutput(e) => write!(f, "cannot write the output: {e}"),
        }
    }
}

impl Failure {
    /// The one mapping from failures to exit codes.
    pub fn exit_code(&self) -> i32 {
        match self {
            Failure::BadArgument(_) | Failure::BadInput { .. } => 2,
            Failure::UnreadableInput(_) | Failure::UnwritableOutput(_) => 1,
        }
    }
}

/// A bad line of a text whose file is not known yet (the archive reader's
/// errors); `in_file` names it.
#[derive(Debug, PartialEq, Eq)]
pub struct BadLine {
    pub line: usize,
    pub what: String,
}

impl BadLine {
    pub fn in_file(self, file: &str) -> Failure {
        Failure::BadInput { file: file.to_string(), line: Some(self.line), what: self.what }
    }
}

/// `?` on an `io::Error` is the output's (`ask` catches stdin's).
impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::UnwritableOutput(e.to_string())
    }
}

/// A variant or archive file that cannot be read: a bad value of its option.
pub fn unreadable_file(option: &str, name: &str, e: io::Error) -> Failure {
    let name = show(name.as_bytes());
    Failure::BadArgument(format!(
        "bad value '{name}' for {option}: cannot read it: {e} (see --help)"
    ))
}
