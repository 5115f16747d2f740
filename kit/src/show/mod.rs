//! `kit show PROBLEM CASE.in [--out FILE.html]`: one self-contained web
//! page (inline CSS and JavaScript, no network) that draws a game: a 猪国杀
//! replay, an Ants battle, a 集 record or value table. The page is built
//! from what our solvers print with their explain flags, so the rules stay
//! in the solvers and the page only draws.
//!
//! Which page a problem has is the problem's business: `kit show` finds the
//! problem in the one registry (`problems::find`) and calls its
//! [`Problem::page`], which builds the page with one of the modules here.
//! Every page is `page.html` with its style, its data (JSON in a
//! `<script type="application/json">`) and its script pasted in
//! ([`write_page`]), written straight to the file: a 45 MB Ants page is
//! never held whole in memory.

pub mod ants;
pub mod ji;
pub mod json;
pub mod zhuguosha;

use crate::error::{Error, Result};
use crate::problems::{self, Problem};
use crate::run::{self, Cmd, Outcome, Status};
use std::ffi::OsString;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// `kit show --help`.
pub const HELP: &str = "\
usage: kit show PROBLEM CASE.in [--out FILE.html] [--solver PATH]

Runs our solver on CASE.in with its explain flag (zhuguosha --trace,
ants_battle --explain, ji_referee --trace, ji_solver --strategy) and writes
one self-contained HTML page (inline CSS and JavaScript, nothing fetched)
that draws the game: a 猪国杀 replay to step through, an Ants battle map with
the weakness picture and each death's reason, a 集 record round by round or
a value table as a heatmap. Default --out: CASE.show.html beside CASE.in.
Open it in any browser; FILE.html#step=N opens a replay at event N.
";

const PAGE: &str = include_str!("page.html");
const STYLE: &str = include_str!("style.css");

/// The CPU time our solver may take for a page (its largest case, a
/// 5000 x 5000 Ants map with `--explain`, takes about 10 s).
pub const SOLVER_LIMIT: Duration = Duration::from_secs(120);

/// Writes the page: the template with its title, style, data and script
/// pasted in. `data` writes the JSON (see [`json`]), in pieces if it likes.
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
    Error::io("cannot write the page", e)
}

/// One run of our solver for a page, through `run.rs` (CPU limit, process
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
        Error::usage(format!("{problem} refused the case (exit {}): {why}", self.code))
    }
}

/// Runs `solver ARGS` on `input`, its stdout kept as text.
pub fn run(solver: &Path, args: &[&str], input: &[u8]) -> Result<Run> {
    let outcome = run::run(&solver_cmd(solver, args), input, SOLVER_LIMIT, None)
        .map_err(|e| Error::io(format!("cannot run {}", solver.display()), e))?;
    let stdout = String::from_utf8_lossy(&outcome.stdout).into_owned();
    finished(solver, outcome, stdout)
}

/// Runs `solver ARGS` on `input`, handing its stdout to `sink` as it comes
/// (nothing of it is kept here).
pub fn run_streamed(
    solver: &Path,
    args: &[&str],
    input: &[u8],
    sink: &mut dyn FnMut(&[u8]),
) -> Result<Run> {
    let outcome = run::run_streamed(&solver_cmd(solver, args), input, SOLVER_LIMIT, sink)
        .map_err(|e| Error::io(format!("cannot run {}", solver.display()), e))?;
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
        other => Err(Error::usage(format!("{}: {other}", solver.display()))),
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

/// The page of `problem` for `input`, in memory (tests and small pages).
pub fn page(problem: &str, input: &[u8], solver: &Path, title: &str) -> Result<String> {
    let mut page = Vec::new();
    find(problem)?.page(input, solver, title, &mut page)?;
    String::from_utf8(page).map_err(|_| Error::usage("the page is not UTF-8"))
}

fn find(problem: &str) -> Result<&'static dyn Problem> {
    problems::find(problem).ok_or_else(|| {
        let names: Vec<&str> = problems::all().iter().map(|p| p.name()).collect();
        Error::usage(format!("unknown problem `{problem}`; the problems: {}", names.join(", ")))
    })
}

/// Where the page goes without `--out`: `CASE.show.html` beside `CASE.in`
/// (`.gitignore` covers `*.show.html`, so no page is left untracked in the
/// repository).
pub fn default_out(case: &Path) -> PathBuf {
    let stem = case.file_stem().unwrap_or_default().to_string_lossy();
    case.with_file_name(format!("{stem}.show.html"))
}

/// `kit show ARGS` (after `show`): writes the page, says where on `out`.
pub fn command(args: &[OsString], out: &mut dyn Write) -> Result<bool> {
    let mut words = Vec::new();
    let (mut page_file, mut solver) = (None, None);
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let arg = arg.to_str().ok_or_else(|| format!("argument {arg:?} is not UTF-8"))?;
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
            _ => (arg, None),
        };
        let mut value = || -> Result<String> {
            match inline.clone() {
                Some(v) => Ok(v),
                None => it
                    .next()
                    .and_then(|v| v.to_str())
                    .map(str::to_string)
                    .ok_or_else(|| Error::usage(format!("{name} needs a value"))),
            }
        };
        match name {
            "--out" => page_file = Some(PathBuf::from(value()?)),
            "--solver" => solver = Some(PathBuf::from(value()?)),
            _ if name.starts_with("--") => {
                return Err(Error::usage(format!(
                    "unknown option `{name}` for show (see `kit --help`)"
                )))
            }
            _ => words.push(arg.to_string()),
        }
    }
    let (problem, case) = match words.as_slice() {
        [p, c] => (find(p)?, Path::new(c)),
        _ => {
            return Err(Error::usage(
                "usage: kit show PROBLEM CASE.in [--out FILE.html] [--solver PATH] (see `kit show --help`)",
            ))
        }
    };
    let input =
        std::fs::read(case).map_err(|e| Error::io(format!("cannot read {}", case.display()), e))?;
    let solver = crate::solver::locate(problem.name(), solver.as_deref())?;
    let name = case.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
    let title = format!("{}: {name}", problem.name());
    let page_file = page_file.unwrap_or_else(|| default_out(case));
    let cannot_write = |e| Error::io(format!("cannot write {}", page_file.display()), e);
    let file = std::fs::File::create(&page_file).map_err(cannot_write)?;
    let mut page = io::BufWriter::with_capacity(1 << 16, file);
    let built = problem.page(&input, &solver, &title, &mut page);
    let flushed = page.flush();
    if let Err(e) = built {
        // No half page is left behind.
        drop(page);
        let _ = std::fs::remove_file(&page_file);
        return Err(e);
    }
    flushed.map_err(cannot_write)?;
    writeln!(out, "wrote {}", page_file.display())?;
    Ok(true)
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
