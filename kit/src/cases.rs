//! Fixture discovery: every `NAME.in` below a folder, with its siblings
//! `NAME.out` (expected stdout), `NAME.err` (expected stderr line; exit 2
//! implied), `NAME.code` (another exit code), `NAME.args` (arguments) and
//! `NAME.beyond` (the case goes beyond the official judge's data: why).

use crate::error::{Error, Result};
use std::fs;
use std::path::{Path, PathBuf};

/// One fixture: `<case>.in` with its optional siblings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    /// The `.in` file.
    pub input: PathBuf,
    /// Expected stdout (`.out`), if any.
    pub stdout: Option<PathBuf>,
    /// Expected stderr (`.err`), if any: a bad-input or failure case.
    pub stderr: Option<PathBuf>,
    /// Expected exit code: `.code` if present, else 2 with `.err`, else 0.
    pub code: i32,
    /// Command-line arguments from `.args`.
    pub args: Vec<String>,
    /// From `.beyond`: why this case goes beyond the official judge's data
    /// (accepted solutions may differ on it), in one line.
    pub beyond: Option<String>,
}

impl Case {
    /// The `.in` path as a user types it: relative to the current
    /// directory when it lies below it.
    pub fn name(&self) -> String {
        display(&self.input)
    }
}

/// `path` relative to the current directory when it lies below it.
pub fn display(path: &Path) -> String {
    let here = std::env::current_dir().ok();
    here.as_deref().and_then(|h| path.strip_prefix(h).ok()).unwrap_or(path).display().to_string()
}

/// All `.in` files below `dir`, recursively, sorted by path, with their
/// siblings; and the problems found (a `.in` without `.out` or `.err`, a
/// `.code` that is not a number), one message each. An unreadable folder
/// is an error.
///
/// # Errors
/// A read error naming the folder or file that cannot be read.
///
/// Linear in the files below `dir`, plus the sort.
pub fn discover(dir: &Path) -> Result<(Vec<Case>, Vec<String>)> {
    let mut inputs = Vec::new();
    collect_inputs(dir, &mut inputs)?;
    inputs.sort();
    let mut found = Vec::new();
    let mut problems = Vec::new();
    for input in inputs {
        match with_siblings(input)? {
            Ok(case) => found.push(case),
            Err(problem) => problems.push(problem),
        }
    }
    Ok((found, problems))
}

/// The case of one `.in` file, or why it is none (`kit judge CASE.in`).
///
/// # Errors
/// A usage error when `input` is not a file; a read error for a sibling
/// that cannot be read.
pub fn single(input: &Path) -> Result<Case> {
    if !input.is_file() {
        return Err(Error::usage(format!("{}: no such file", display(input))));
    }
    with_siblings(input.to_path_buf())?.map_err(Error::usage)
}

/// `input` with its siblings, or the problem that makes it no case (no
/// `.out` nor `.err`, a `.code` that is not a number).
fn with_siblings(input: PathBuf) -> Result<std::result::Result<Case, String>> {
    let sibling = |ext: &str| Some(input.with_extension(ext)).filter(|p| p.is_file());
    let stdout = sibling("out");
    let stderr = sibling("err");
    if stdout.is_none() && stderr.is_none() {
        return Ok(Err(format!("{}: has no .out (nor .err) beside it", display(&input))));
    }
    let code = match sibling("code") {
        Some(p) => match read_text(&p)?.trim().parse() {
            Ok(c) => c,
            Err(_) => return Ok(Err(format!("{}: not an exit code", display(&p)))),
        },
        None if stderr.is_some() => 2,
        None => 0,
    };
    let args = match sibling("args") {
        Some(p) => read_text(&p)?.split_whitespace().map(String::from).collect(),
        None => Vec::new(),
    };
    let beyond = match sibling("beyond") {
        Some(p) => Some(read_text(&p)?.trim().to_string()),
        None => None,
    };
    Ok(Ok(Case { input, stdout, stderr, code, args, beyond }))
}

fn collect_inputs(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let unreadable = |e| Error::read(display(dir), e);
    for entry in fs::read_dir(dir).map_err(unreadable)? {
        let path = entry.map_err(unreadable)?.path();
        if path.is_dir() {
            collect_inputs(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "in") {
            out.push(path);
        }
    }
    Ok(())
}

/// A text file, invalid UTF-8 replaced (outputs are compared as text).
///
/// # Errors
/// A read error naming `path`.
pub fn read_text(path: &Path) -> Result<String> {
    let bytes = fs::read(path).map_err(|e| Error::read(display(path), e))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scratch::Scratch;

    #[test]
    fn finds_cases_recursively_in_order_with_their_siblings() {
        let dir = Scratch::new("cases");
        dir.write("b.in", "1\n");
        dir.write("b.out", "one\n");
        dir.write("sub/a.in", "2\n");
        dir.write("sub/a.err", "x: line 1: bad\n");
        dir.write("sub/c.in", "3\n");
        dir.write("sub/c.out", "three\n");
        dir.write("sub/c.code", "3\n");
        dir.write("sub/c.args", "--strict  -v\n");
        dir.write("sub/c.beyond", "a rule the judge never tests\n");
        dir.write("lonely.in", "4\n");
        dir.write("notes.txt", "not a case\n");
        let (cases, problems) = discover(dir.path()).expect("readable");
        let names: Vec<String> = cases
            .iter()
            .map(|c| c.input.strip_prefix(dir.path()).unwrap().display().to_string())
            .collect();
        assert_eq!(names, ["b.in", "sub/a.in", "sub/c.in"]);
        assert_eq!(cases[0].code, 0);
        assert!(cases[0].stdout.is_some() && cases[0].stderr.is_none());
        assert_eq!(cases[1].code, 2, ".err implies exit 2");
        assert!(cases[1].stdout.is_none());
        assert_eq!(cases[2].code, 3);
        assert_eq!(cases[2].args, ["--strict", "-v"]);
        assert_eq!(cases[2].beyond.as_deref(), Some("a rule the judge never tests"));
        assert_eq!(cases[0].beyond, None);
        assert_eq!(problems.len(), 1);
        assert!(problems[0].ends_with("lonely.in: has no .out (nor .err) beside it"));
    }

    #[test]
    fn a_bad_code_file_is_a_problem_and_a_missing_folder_an_error() {
        let dir = Scratch::new("cases-code");
        dir.write("a.in", "1\n");
        dir.write("a.out", "1\n");
        dir.write("a.code", "three\n");
        let (cases, problems) = discover(dir.path()).expect("readable");
        assert!(cases.is_empty());
        assert!(problems[0].ends_with("a.code: not an exit code"));
        assert!(discover(&dir.path().join("nowhere")).is_err());
    }

    #[test]
    fn a_single_case_has_its_siblings_or_says_what_is_missing() {
        let dir = Scratch::new("cases-single");
        let input = dir.write("a.in", "1\n");
        let err = single(&input).unwrap_err().to_string();
        assert!(err.ends_with("a.in: has no .out (nor .err) beside it"), "{err}");
        dir.write("a.out", "one\n");
        dir.write("a.beyond", "why\n");
        let case = single(&input).expect("a case");
        assert_eq!(case.stdout, Some(dir.path().join("a.out")));
        assert_eq!(case.beyond.as_deref(), Some("why"));
        let err = single(&dir.path().join("b.in")).unwrap_err().to_string();
        assert!(err.ends_with("b.in: no such file"), "{err}");
    }
}
