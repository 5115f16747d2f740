//! `kit show PROBLEM CASE.in [--out FILE.html]`: one self-contained web
//! page (inline CSS and JavaScript, no network) that draws a game: a 猪国杀
//! replay, an Ants battle, a 集 record or value table. The page is built
//! from what our solvers print with their explain flags, so the rules stay
//! in the solvers and the page only draws.
//!
//! Each page is `page.html` with its style, its data (JSON in a
//! `<script type="application/json">`) and its script pasted in.

pub mod ants;
pub mod ji;
pub mod json;
pub mod zhuguosha;

use json::Json;
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// `kit show --help`.
pub const HELP: &str = "\
usage: kit show PROBLEM CASE.in [--out FILE.html] [--solver PATH]

Runs our solver on CASE.in with its explain flag (zhuguosha --trace,
ants_battle --explain, ji_referee --trace, ji_solver --strategy) and writes
one self-contained HTML page (inline CSS and JavaScript, nothing fetched)
that draws the game: a 猪国杀 replay to step through, an Ants battle map with
the weakness picture and each death's reason, a 集 record round by round or
a value table as a heatmap. Default --out: NAME.html in the current folder.
Open it in any browser; FILE.html#step=N opens a replay at event N.
";

const PAGE: &str = include_str!("page.html");
const STYLE: &str = include_str!("style.css");
const ZHUGUOSHA_JS: &str = include_str!("zhuguosha.js");
const ANTS_JS: &str = include_str!("ants.js");
const JI_JS: &str = include_str!("ji.js");

/// The page for `problem` on input `input`, running `solver` (our solver
/// for that problem).
pub fn page(problem: &str, input: &[u8], solver: &Path, title: &str) -> Result<String, String> {
    let text = String::from_utf8_lossy(input);
    let (data, script) = match problem {
        "zhuguosha" => {
            let run = run(solver, &["--trace"], input)?;
            if run.code != 0 && run.code != 3 {
                return Err(run.refusal(problem));
            }
            let replay = zhuguosha::replay(&text, &run.stdout, &run.stderr, run.code)?;
            (zhuguosha::to_json(&replay), ZHUGUOSHA_JS)
        }
        "ants_battle" => {
            let run = run(solver, &["--explain"], input)?;
            if run.code != 0 {
                return Err(run.refusal(problem));
            }
            (ants::to_json(&ants::battle(&text, &run.stdout)?), ANTS_JS)
        }
        "ji_referee" => {
            let traced = run(solver, &["--trace"], input)?;
            if traced.code == 0 {
                let rounds = ji::rounds(&traced.stderr)?;
                (ji::referee_json(&rounds, &traced.stdout, None), JI_JS)
            } else {
                // A ji_referee without `--trace` (docs/contract.md) refuses
                // it: show the record's moves and the verdict alone.
                let plain = run(solver, &[], input)?;
                if plain.code != 0 {
                    return Err(plain.refusal(problem));
                }
                let rounds = ji::record_rounds(&text, &plain.stdout)?;
                let note = "this ji_referee has no --trace: the counts of 集 are not shown";
                (ji::referee_json(&rounds, &plain.stdout, Some(note)), JI_JS)
            }
        }
        "ji_solver" => {
            let table = ji::table(&text)?;
            let run = run(solver, &["--strategy"], table.every_state_input().as_bytes())?;
            let note = match run.code {
                0 => None,
                3 => Some(format!(
                    "not certified (ji_solver exit 3, best values shown): {}",
                    run.stderr.trim_end()
                )),
                _ => return Err(run.refusal(problem)),
            };
            let cells = ji::cells(&run.stdout);
            let side = table.c + 1;
            if cells.len() != side * side {
                return Err(format!(
                    "ji_solver answered {} of the {} states",
                    cells.len(),
                    side * side
                ));
            }
            (ji::solver_json(&table, &cells, note.as_deref()), JI_JS)
        }
        other => {
            return Err(format!(
                "unknown problem `{other}`; the problems are zhuguosha, ants_battle, ji_referee, ji_solver"
            ))
        }
    };
    Ok(assemble(title, &data, script))
}

/// The template with its parts pasted in.
pub fn assemble(title: &str, data: &Json, script: &str) -> String {
    let mut json = String::new();
    data.write(&mut json);
    let title = title.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    let part = |marker: &str| match marker {
        "TITLE" | "HEADING" => title.as_str(),
        "STYLE" => STYLE,
        "DATA" => json.as_str(),
        "SCRIPT" => script,
        _ => "",
    };
    // One pass over the template, so that no pasted part is scanned again.
    let mut page = String::with_capacity(PAGE.len() + json.len() + script.len() + STYLE.len());
    let mut rest = PAGE;
    while let Some((before, after)) = rest.split_once("{{") {
        let (marker, after) = after.split_once("}}").unwrap_or((after, ""));
        page.push_str(before);
        page.push_str(part(marker));
        rest = after;
    }
    page.push_str(rest);
    page
}

/// One run of a solver.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    fn refusal(&self, problem: &str) -> String {
        let why = self.stderr.lines().last().unwrap_or("").trim();
        format!("{problem} refused the case (exit {}): {why}", self.code)
    }
}

fn run(solver: &Path, args: &[&str], input: &[u8]) -> Result<Run, String> {
    let cannot = |e: std::io::Error| format!("cannot run {}: {e}", solver.display());
    let mut child = Command::new(solver)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(cannot)?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let input = input.to_vec();
    // Feed stdin on its own thread: the solver may fill its pipes first.
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let output = child.wait_with_output().map_err(cannot)?;
    let _ = feeder.join();
    Ok(Run {
        // A signal has no code: say -1.
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    })
}

/// `kit show ARGS` (after `show`): writes the page, says where on `out`.
pub fn command(args: &[OsString], out: &mut dyn Write) -> Result<bool, String> {
    let mut words = Vec::new();
    let (mut page_file, mut solver) = (None, None);
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let arg = arg.to_str().ok_or_else(|| format!("argument {arg:?} is not UTF-8"))?;
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
            _ => (arg, None),
        };
        let mut value = || -> Result<String, String> {
            match inline.clone() {
                Some(v) => Ok(v),
                None => it
                    .next()
                    .and_then(|v| v.to_str())
                    .map(str::to_string)
                    .ok_or(format!("{name} needs a value")),
            }
        };
        match name {
            "--out" => page_file = Some(PathBuf::from(value()?)),
            "--solver" => solver = Some(PathBuf::from(value()?)),
            _ if name.starts_with("--") => {
                return Err(format!("unknown option `{name}` for show (see `kit --help`)"))
            }
            _ => words.push(arg.to_string()),
        }
    }
    let (problem, case) = match words.as_slice() {
        [p, c] => (p.as_str(), Path::new(c)),
        _ => return Err("usage: kit show PROBLEM CASE.in [--out FILE.html] [--solver PATH] (see `kit show --help`)".to_string()),
    };
    if !["zhuguosha", "ants_battle", "ji_referee", "ji_solver"].contains(&problem) {
        return Err(format!(
            "unknown problem `{problem}`; the problems are zhuguosha, ants_battle, ji_referee, ji_solver"
        ));
    }
    let input = std::fs::read(case).map_err(|e| format!("cannot read {}: {e}", case.display()))?;
    let solver = crate::solver::locate(problem, solver.as_deref()).map_err(|e| e.to_string())?;
    let title =
        format!("{problem}: {}", case.file_name().map(|n| n.to_string_lossy()).unwrap_or_default());
    let html = page(problem, &input, &solver, &title)?;
    let page_file = page_file.unwrap_or_else(|| {
        let stem = case.file_stem().unwrap_or_default().to_string_lossy();
        PathBuf::from(format!("{stem}.html"))
    });
    std::fs::write(&page_file, html)
        .map_err(|e| format!("cannot write {}: {e}", page_file.display()))?;
    writeln!(out, "wrote {}", page_file.display()).map_err(|e| format!("cannot write: {e}"))?;
    Ok(true)
}
