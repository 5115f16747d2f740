//! What every page shares, below the problem registry (a page builder
//! imports only this, `json`, `run` and `error`): the template and its
//! pasting ([`write_page`]), our solver's run through `run/`, and a line
//! splitter for output read as it comes.

use super::json;
use crate::error::{Error, Result};
use crate::run::{self, Cmd, Outcome, Status};
use std::io::{self, Write};
use std::path::Path;
use std::time::Duration;

const PAGE: &str = include_str!("page.html");
const STYLE: &str = include_str!("style.css");

/// The CPU time our solver may take for a page (its largest case, a
/// 5000 x 5000 Ants map with `--explain`, takes about 10 s).
pub const SOLVER_LIMIT: Duration = Duration::from_secs(120);

/// Writes the page: the template with its title, style, data and script
/// pasted in. `data` writes the JSON (see [`json`]), in pieces if it likes.
///
/// # Errors
/// The first write error of `page`.
pub fn write_page(
    page: &mut dyn Write,
    title: &str,
    script: &str,
    data: &mut dyn FnMut(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let title = title.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    let mut rest = PAGE;
    while let Some((before, after)) = rest.split_once("{{") {
        let (marker, after) = after.split_once("}}").unwrap_or((after, ""));
        page.write_all(before.as_bytes())?;
        match marker {
            "TITLE" | "HEADING" => page.write_all(title.as_bytes())?,
            "STYLE" => page.write_all(STYLE.as_bytes())?,
            "DATA" => data(page)?,
            "SCRIPT" => page.write_all(script.as_bytes())?,
            _ => {}
        }
        rest = after;
    }
    page.write_all(rest.as_bytes())
}

/// [`write_page`] with `data` as the page's data.
///
/// # Errors
/// A write error naming the page.
pub fn write_json_page(
    page: &mut dyn Write,
    title: &str,
    script: &str,
    data: &json::Json,
) -> Result<()> {
    let mut text = String::new();
    data.write(&mut text);
    write_page(page, title, script, &mut |out| out.write_all(text.as_bytes())).map_err(written)
}

/// A failed write of the page.
pub fn written(e: io::Error) -> Error {
    Error::write("the page", e)
}

/// One run of our solver for a page, through `run/` (CPU limit, process
/// group, peak memory).
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// The error for a case the solver refused (or could not finish).
    pub fn refusal(&self, problem: &str) -> Error {
        let why = self.stderr.lines().last().unwrap_or("").trim();
        Error::run(format!("{problem} refused the case (exit {}): {why}", self.code))
    }
}

/// Our solver's limits: [`SOLVER_LIMIT`], and all of its stderr kept (a
/// trace is written there).
fn limits() -> run::Limits {
    run::Limits { stderr: run::StderrKept::Whole, ..run::Limits::from(SOLVER_LIMIT) }
}

/// Runs `solver ARGS` on `input`, its stdout kept as text.
///
/// # Errors
/// A start error when `solver` cannot be started; a run error when it dies
/// of a signal or a limit.
pub fn run(solver: &Path, args: &[&str], input: &[u8]) -> Result<Run> {
    let outcome = run::run(&solver_cmd(solver, args), input, limits(), None)
        .map_err(|e| e.error(solver.display()))?;
    let stdout = String::from_utf8_lossy(&outcome.stdout).into_owned();
    finished(solver, outcome, stdout)
}

/// Runs `solver ARGS` on `input`, handing its stdout to `sink` as it comes
/// (nothing of it is kept here).
///
/// # Errors
/// As [`run()`]'s.
pub fn run_streamed(
    solver: &Path,
    args: &[&str],
    input: &[u8],
    sink: &mut dyn FnMut(&[u8]),
) -> Result<Run> {
    let outcome = run::run_streamed(&solver_cmd(solver, args), input, limits(), sink)
        .map_err(|e| e.error(solver.display()))?;
    finished(solver, outcome, String::new())
}

fn solver_cmd(solver: &Path, args: &[&str]) -> Cmd {
    args.iter().fold(Cmd::new(solver.as_os_str()), |cmd, a| cmd.arg(*a))
}

/// A run that ended with an exit code (a signal or a limit is an error).
fn finished(solver: &Path, outcome: Outcome, stdout: String) -> Result<Run> {
    let stderr = String::from_utf8_lossy(&outcome.stderr).into_owned();
    match outcome.status {
        Status::Exited(code) => Ok(Run { code, stdout, stderr }),
        other => Err(Error::run(format!("{}: {other}", solver.display()))),
    }
}

/// Splits a stream into lines (without `\n` or `\r`) as its chunks come:
/// only a line cut by a chunk's end is copied.
pub struct Lines<F: FnMut(&[u8])> {
    partial: Vec<u8>,
    line: F,
}

impl<F: FnMut(&[u8])> Lines<F> {
    pub fn new(line: F) -> Self {
        Lines { partial: Vec::new(), line }
    }

    pub fn feed(&mut self, mut chunk: &[u8]) {
        while let Some(end) = chunk.iter().position(|&b| b == b'\n') {
            if self.partial.is_empty() {
                (self.line)(trim_cr(&chunk[..end]));
            } else {
                self.partial.extend_from_slice(&chunk[..end]);
                (self.line)(trim_cr(&self.partial));
                self.partial.clear();
            }
            chunk = &chunk[end + 1..];
        }
        self.partial.extend_from_slice(chunk);
    }

    /// The last line, if the stream did not end with a newline.
    pub fn finish(mut self) {
        if !self.partial.is_empty() {
            (self.line)(trim_cr(&self.partial));
        }
    }
}

fn trim_cr(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\r").unwrap_or(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_the_same_however_the_stream_is_cut() {
        let text = b"a\r\nbb\n\nccc\nd";
        let expected: Vec<&[u8]> = vec![b"a", b"bb", b"", b"ccc", b"d"];
        for size in 1..=text.len() {
            let mut got: Vec<Vec<u8>> = Vec::new();
            let mut lines = Lines::new(|line: &[u8]| got.push(line.to_vec()));
            for chunk in text.chunks(size) {
                lines.feed(chunk);
            }
            lines.finish();
            assert_eq!(got, expected, "chunks of {size}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_streamed_run_hands_over_all_of_stdout_and_keeps_none() {
        // 2 MB: more than a pipe holds, and than the kept output's cap
        // in tests (1 MiB).
        let (mut bytes, mut lines) = (0, 0);
        let mut sink = |chunk: &[u8]| {
            bytes += chunk.len();
            lines += chunk.iter().filter(|&&b| b == b'\n').count();
        };
        let sh = Path::new("/bin/sh");
        let run = run_streamed(sh, &["-c", "seq 1 300000; echo done >&2"], b"", &mut sink).unwrap();
        assert_eq!((run.code, run.stdout.as_str(), run.stderr.as_str()), (0, "", "done\n"));
        assert_eq!((bytes, lines), (1_988_895, 300_000));
    }
}
