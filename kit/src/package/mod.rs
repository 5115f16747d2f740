//! `kit package PROBLEM --out DIR [--force]`: a Kattis problem package
//! (the legacy format, which Kattis and DOMjudge import, checked by
//! problemtools' `verifyproblem`) for one of our problems.
//!
//! Everything comes from this repository, read when kit runs (the
//! repository root is the folder above kit's own `Cargo.toml`, fixed when
//! kit is built, or `$KIT_REPO`): the hand-written parts from
//! `kit/packages/PROBLEM/` (problem.yaml, problem_statement/, sample/*.in,
//! submissions/), our solver `src/bin/PROBLEM.rs`, the fixtures in
//! `tests/data/PROBLEM/`, and cases drawn from every `kit gen` profile.
//!
//! The package, by room:
//!   problem.yaml, problem_statement/
//!                                   [`statement`]: copied from
//!                                   kit/packages/PROBLEM/
//!   data/sample/, data/secret/      [`data`]: the samples, our fixtures and
//!                                   generated cases, with our answers
//!                                   (`SOLVER --strict`)
//!   input_validators/, data/testdata.yaml, output_validators/
//!                                   [`validators`]: our solver's
//!                                   `--validate`, and kit's comparison rule
//!                                   with the script that builds it
//!   submissions/                    [`submissions`]: our solver as
//!                                   accepted, and the planted ones, whole
//!                                   or written in the [`edit`] language
//!   FILE.zip (--zip)                [`zip`]
//!
//! kit/packages/every_problem/ holds what every package gets: the output
//! validator's template and build script, and planted submissions that
//! edit the `solver-run` block all four solvers share.
//!
//! The package is written into a fresh folder beside DIR and renamed to DIR
//! at the end, so a failure leaves nothing half-written.

mod data;
mod edit;
mod files;
mod statement;
mod submissions;
mod validators;
mod zip;

pub use edit::apply_edit;
pub use zip::write_zip;

use crate::error::{Error, Result};
use crate::problems::Problem;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// `kit package --help`.
pub const HELP: &str = "\
usage: kit package PROBLEM --out DIR [--zip FILE] [--force] [--solver PATH]

Writes a Kattis problem package (legacy format: Kattis, DOMjudge and
problemtools' verifyproblem read it) for PROBLEM to DIR: problem.yaml, the
statement (problem_statement/problem.en.tex), data/sample and data/secret
(our fixtures that pass --strict, and cases from every kit gen profile,
answers from our solver), input_validators/ (our solver with --validate:
exit 42 valid, 43 invalid), output_validators/ (kit judge's comparison
rule in Rust, with a build script that compiles it with rustc: line by
line, case-sensitive, trailing spaces and blank lines forgiven),
submissions/accepted (our solver as pasted) and the planted submissions.
The sources are read from the repository kit was built in (or $KIT_REPO).

  --out DIR      the package folder; it must not exist unless --force
  --zip FILE     also write the package as FILE (a zip of DIR's contents,
                 as DOMjudge imports it)
  --force        replace DIR (and FILE)
  --solver PATH  our solver binary (default: beside kit, or in $KIT_SOLVER_DIR)
";

/// `kit package PROBLEM --out DIR [--zip FILE] [--force]` (the options
/// as `cli::PackageOptions` read them; `solver`: our solver, located).
///
/// # Errors
///
/// Those of [`write`] and [`write_zip`]; FILE existing without `force`
/// (`Error::Usage`); stdout that cannot be written (`Error::Write`; a
/// closed pipe is `Error::ClosedPipe`, quiet).
pub fn command(
    problem: &'static dyn Problem,
    dir: &Path,
    zip: Option<&Path>,
    force: bool,
    solver: &Path,
    out: &mut dyn Write,
) -> Result<()> {
    if let Some(file) = zip {
        if file.exists() && !force {
            return Err(Error::usage(format!(
                "{} already exists: kit package replaces it only with --force",
                file.display()
            )));
        }
    }
    let summary = write(problem, &repo_root(), solver, dir, force)?;
    if let Some(file) = zip {
        write_zip(dir, file)?;
    }
    writeln!(
        out,
        "{}: {} sample and {} secret cases, {} submissions, {} bytes",
        dir.display(),
        summary.samples,
        summary.secret,
        summary.submissions,
        summary.bytes
    )
    .map_err(Error::stdout)
}

/// The repository kit reads its sources from.
pub fn repo_root() -> PathBuf {
    match std::env::var_os("KIT_REPO") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join(".."),
    }
}

/// What a written package holds.
#[derive(Debug, Default)]
pub struct Summary {
    pub samples: usize,
    pub secret: usize,
    pub submissions: usize,
    pub bytes: u64,
}

/// Writes the package of `problem` to `dir` (replacing it if `force`),
/// from the repository at `repo`, answering with `solver`. About one run
/// of our solver per case (two per generated case).
///
/// # Errors
///
/// A usage error (`Error::Usage`) for a `dir` that exists without
/// `force`, whose name is not a short name ([a-z0-9]+) or whose folder does
/// not exist; `Error::Write` when the package's folder cannot be made,
/// removed or renamed; else the first error of a room (a source that
/// cannot be read, a file that cannot be written, a stale `.edit`, a
/// sample without an answer, our solver over a limit: `Error::Read`,
/// `Write`, `Package`, `Start` or `Run`), after which nothing is left
/// behind.
pub fn write(
    problem: &dyn Problem,
    repo: &Path,
    solver: &Path,
    dir: &Path,
    force: bool,
) -> Result<Summary> {
    if dir.exists() && !force {
        return Err(Error::usage(format!(
            "{} already exists: kit package replaces it only with --force",
            dir.display()
        )));
    }
    let file_name = dir
        .file_name()
        .ok_or_else(|| Error::usage(format!("--out {}: not a folder name", dir.display())))?;
    // problemtools takes the folder's name as the problem's short name,
    // which must be [a-z0-9]+ (`ants_battle` is refused: use `antsbattle`).
    let short = file_name.to_string_lossy();
    if short.is_empty() || !short.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()) {
        return Err(Error::usage(format!(
            "--out {}: the folder's name is the problem's short name, which must be \
             lowercase letters and digits only (such as {})",
            dir.display(),
            problem.name().replace('_', "")
        )));
    }
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    // The package is written beside DIR: its folder must exist (said of
    // --out, not of the temporary folder kit would make there).
    if !parent.is_dir() {
        return Err(Error::usage(format!(
            "--out {}: the folder {} does not exist",
            dir.display(),
            parent.display()
        )));
    }
    let temp =
        parent.join(format!(".{}.kit-package-{}", file_name.to_string_lossy(), std::process::id()));
    let _ = fs::remove_dir_all(&temp);
    fs::create_dir(&temp).map_err(|e| Error::writing("create", temp.display(), e))?;
    let built = build(problem, repo, solver, &temp);
    let summary = match built {
        Ok(summary) => summary,
        Err(e) => {
            let _ = fs::remove_dir_all(&temp);
            return Err(e);
        }
    };
    if dir.exists() {
        fs::remove_dir_all(dir).map_err(|e| Error::writing("replace", dir.display(), e))?;
    }
    fs::rename(&temp, dir).map_err(|e| {
        let _ = fs::remove_dir_all(&temp);
        Error::write(dir.display(), e)
    })?;
    Ok(summary)
}

/// What a package is made from: the problem's part of the repository.
struct Sources<'a> {
    /// The repository's root.
    repo: &'a Path,
    /// The problem's name, also our solver's.
    name: &'static str,
    /// kit/packages/PROBLEM/: the hand-written parts.
    content: PathBuf,
    /// src/bin/PROBLEM.rs: our solver's source, as pasted.
    solver: String,
}

/// Fills the empty folder `root` with the package, room by room.
fn build(problem: &dyn Problem, repo: &Path, solver: &Path, root: &Path) -> Result<Summary> {
    let name = problem.name();
    let sources = Sources {
        repo,
        name,
        content: repo.join("kit/packages").join(name),
        solver: files::read(&repo.join("src/bin").join(format!("{name}.rs")))?,
    };
    statement::write(&sources, root)?;
    // Submissions before data: a broken .edit fails before any solver runs.
    let submissions = submissions::write(&sources, root)?;
    validators::write(&sources, problem.rule(), root)?;
    let cases = data::write(problem, &sources, solver, root)?;
    Ok(Summary {
        samples: cases.samples,
        secret: cases.secret,
        submissions,
        bytes: files::tree_bytes(root)?,
    })
}
