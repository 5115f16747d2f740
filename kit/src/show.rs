//! `kit show PROBLEM CASE.in [--out FILE.html]`: one self-contained web
//! page (inline CSS and JavaScript, no network) that draws a game: a 猪国杀
//! replay, an Ants battle, a 集 record or value table. The page is built
//! from what our solvers print with their explain flags, so the rules stay
//! in the solvers and the page only draws.
//!
//! Which page a problem has is the problem's business: `kit show` finds the
//! problem in the one registry (`problems::named`) and calls its
//! [`Problem::page`], which builds the page with the builders of
//! [`crate::pages`], a layer below the registry. The page is written
//! straight to the file: a 45 MB Ants page is never held whole in memory.

use crate::error::{Error, Result};
use crate::problems::{self, Problem};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// `kit show --help`.
pub const HELP: &str = "\
usage: kit show PROBLEM CASE.in [--out FILE.html] [--solver PATH] [--rule ID]

Runs our solver on CASE.in with its explain flag (zhuguosha --trace,
ants_battle --explain, ji_referee --trace, ji_solver --strategy) and writes
one self-contained HTML page (inline CSS and JavaScript, nothing fetched)
that draws the game: a 猪国杀 replay to step through, an Ants battle map with
the weakness picture and each death's reason, a 集 record round by round or
a value table as a heatmap. Default --out: CASE.show.html beside CASE.in.
Open it in any browser; FILE.html#step=N opens a replay at event N.
A 猪国杀 replay names at each event the rules of the statement that fire
there (their ids: `kit rules zhuguosha`).

  --rule ID  a 猪国杀 replay marks the events where rule ID fires, quotes
             the rule, and steps from one mark to the next with n / p
";

/// The page of `problem` for `input`, in memory (tests and small pages).
///
/// # Errors
/// A page error for a problem without a page or a page that is not
/// UTF-8; the errors of the problem's page builder (our solver refusing the
/// case, say).
pub fn page(problem: &str, input: &[u8], solver: &Path, title: &str) -> Result<String> {
    let mut page = Vec::new();
    problems::named(problem)?.page(input, solver, title, &mut page)?;
    String::from_utf8(page).map_err(|_| Error::page("the page is not UTF-8"))
}

/// [`page`] with the events where rule `rule` fires marked (only 猪国杀's
/// replay marks rules, [`Problem::marked_page`]).
///
/// # Errors
/// As [`page`]'s; a usage error for a rule not in the catalogue or a
/// problem whose page marks none.
pub fn marked_page(
    problem: &str,
    input: &[u8],
    solver: &Path,
    title: &str,
    rule: &str,
) -> Result<String> {
    let mut page = Vec::new();
    problems::named(problem)?.marked_page(input, solver, title, rule, &mut page)?;
    String::from_utf8(page).map_err(|_| Error::page("the page is not UTF-8"))
}

/// Where the page goes without `--out`: `CASE.show.html` beside `CASE.in`
/// (`.gitignore` covers `*.show.html`, so no page is left untracked in the
/// repository).
pub fn default_out(case: &Path) -> PathBuf {
    let stem = case.file_stem().unwrap_or_default().to_string_lossy();
    case.with_file_name(format!("{stem}.show.html"))
}

/// `kit show`'s options, as typed (read by `cli`).
pub struct Options {
    pub problem: &'static dyn Problem,
    pub case: PathBuf,
    /// `--out FILE.html` (default: [`default_out`]).
    pub page_file: Option<PathBuf>,
    /// `--solver PATH` (default: found as for every command).
    pub solver: Option<PathBuf>,
    /// `--rule ID`: the rule whose events the page marks.
    pub rule: Option<String>,
}

/// Writes the page of `options.case`, says where on `out`.
///
/// # Errors
/// A read error for the case, a write error for the page file (no half page
/// is left) or stdout; the errors of [`page`]'s builders.
pub fn show(options: &Options, out: &mut dyn Write) -> Result<bool> {
    let (problem, case) = (options.problem, options.case.as_path());
    let input = std::fs::read(case).map_err(|e| Error::read(case.display(), e))?;
    let solver = crate::solver::locate(problem.name(), options.solver.as_deref())?;
    let name = case.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
    let title = format!("{}: {name}", problem.name());
    let page_file = options.page_file.clone().unwrap_or_else(|| default_out(case));
    let cannot_write = |e| Error::write(page_file.display(), e);
    let file = std::fs::File::create(&page_file).map_err(cannot_write)?;
    let mut page = io::BufWriter::with_capacity(1 << 16, file);
    let built = match &options.rule {
        None => problem.page(&input, &solver, &title, &mut page),
        Some(rule) => problem.marked_page(&input, &solver, &title, rule, &mut page),
    };
    let flushed = page.flush();
    if let Err(e) = built {
        // No half page is left behind.
        drop(page);
        let _ = std::fs::remove_file(&page_file);
        return Err(e);
    }
    flushed.map_err(cannot_write)?;
    writeln!(out, "wrote {}", page_file.display()).map_err(Error::stdout)?;
    Ok(true)
}
