//! Shared by the integration tests: finding fixtures, running a solver on
//! one, and comparing its output with the judge's rule.

#![allow(dead_code)] // each test crate uses a different part of this module

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The solvers: one per `src/bin/*.rs`, sorted.
pub fn binaries() -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(root().join("src/bin"))
        .expect("src/bin exists")
        .filter_map(|e| {
            let path = e.ok()?.path();
            (path.extension()? == "rs").then(|| path.file_stem()?.to_str().map(String::from))?
        })
        .collect();
    names.sort();
    names
}

/// Path of a built binary of this crate.
pub fn exe(bin: &str) -> PathBuf {
    assert_cmd::cargo::cargo_bin(bin)
}

/// One fixture: `<case>.in` with its optional siblings.
#[derive(Debug, Clone)]
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
}

impl Case {
    /// The path relative to the repository root, as a user types it.
    pub fn name(&self) -> String {
        rel(&self.input)
    }
}

pub fn rel(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// All `.in` files below `tests/data/<bin>/`, recursively, sorted, with
/// their siblings. A `.in` without `.out` or `.err` is an error, reported in
/// the returned list of problems.
pub fn cases(bin: &str) -> (Vec<Case>, Vec<String>) {
    let dir = root().join("tests/data").join(bin);
    let mut inputs = Vec::new();
    let mut problems = Vec::new();
    if !dir.is_dir() {
        problems.push(format!(
            "{bin}: no fixture folder {} (every binary needs one)",
            rel(&dir)
        ));
        return (Vec::new(), problems);
    }
    collect_inputs(&dir, &mut inputs);
    inputs.sort();
    if inputs.is_empty() {
        problems.push(format!("{bin}: no .in fixture below {}", rel(&dir)));
    }
    let mut found = Vec::new();
    for input in inputs {
        let sibling = |ext: &str| Some(input.with_extension(ext)).filter(|p| p.is_file());
        let stdout = sibling("out");
        let stderr = sibling("err");
        if stdout.is_none() && stderr.is_none() {
            problems.push(format!("{}: has no .out (nor .err) beside it", rel(&input)));
            continue;
        }
        let code = match sibling("code") {
            Some(p) => match read_text(&p).trim().parse() {
                Ok(c) => c,
                Err(_) => {
                    problems.push(format!("{}: not an exit code", rel(&p)));
                    continue;
                }
            },
            None if stderr.is_some() => 2,
            None => 0,
        };
        let args = sibling("args")
            .map(|p| read_text(&p).split_whitespace().map(String::from).collect())
            .unwrap_or_default();
        found.push(Case {
            input,
            stdout,
            stderr,
            code,
            args,
        });
    }
    (found, problems)
}

fn collect_inputs(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("readable fixture folder") {
        let path = entry.expect("readable entry").path();
        if path.is_dir() {
            collect_inputs(&path, out);
        } else if path.extension().is_some_and(|e| e == "in") {
            out.push(path);
        }
    }
}

pub fn read_text(path: &Path) -> String {
    String::from_utf8_lossy(&fs::read(path).expect("readable fixture")).into_owned()
}

/// What one run produced.
#[derive(Debug, PartialEq, Eq)]
pub struct Run {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// The exit code, `None` when killed by a signal or the time limit.
    pub code: Option<i32>,
    pub timed_out: bool,
}

static SCRATCH: AtomicUsize = AtomicUsize::new(0);

/// Runs `bin` with `args`, feeding `stdin`, in a fresh empty temporary
/// working directory, killing it after `limit`.
pub fn run(bin: &str, args: &[String], stdin: &[u8], limit: Duration) -> Run {
    let dir = std::env::temp_dir().join(format!(
        "judge-sims-{}-{}-{}",
        bin,
        std::process::id(),
        SCRATCH.fetch_add(1, Ordering::Relaxed)
    ));
    fs::create_dir_all(&dir).expect("temporary directory");
    let mut child = Command::new(exe(bin))
        .args(args)
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {bin}: {e}"));
    // Feed stdin from a thread: a solver may write before it has read all.
    let mut pipe = child.stdin.take().expect("stdin pipe");
    let data = stdin.to_vec();
    let feeder = std::thread::spawn(move || {
        use std::io::Write;
        let _ = pipe.write_all(&data); // a solver may stop reading early
    });
    let stdout = drain(child.stdout.take().expect("stdout pipe"));
    let stderr = drain(child.stderr.take().expect("stderr pipe"));
    let start = Instant::now();
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            timed_out = true;
            break child.wait().expect("wait after kill");
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let _ = feeder.join();
    let run = Run {
        stdout: stdout.join().expect("stdout reader"),
        stderr: stderr.join().expect("stderr reader"),
        code: if timed_out { None } else { status.code() },
        timed_out,
    };
    let _ = fs::remove_dir_all(&dir);
    run
}

fn drain<R: std::io::Read + Send + 'static>(mut r: R) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = r.read_to_end(&mut buf);
        buf
    })
}

/// Output lines under the usual judge rule: CRLF equals LF, trailing
/// spaces on a line and trailing blank lines are ignored.
pub fn judge_lines(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text.split('\n').map(str::trim_end).collect();
    while lines.last() == Some(&"") {
        lines.pop();
    }
    lines
}

/// How one binary's stdout is compared with the expected file.
#[derive(Clone, Copy, Debug)]
pub enum Rule {
    /// Token for token, after the judge's line normalisation.
    Exact,
    /// Numbers may differ by this much (absolute); other tokens exactly.
    Tolerance(f64),
}

/// The comparison rule of each binary.
pub fn rule(bin: &str) -> Rule {
    match bin {
        "ji_solver" => Rule::Tolerance(1e-6),
        _ => Rule::Exact,
    }
}

/// Where the first difference is: 0-based line and token, with a reason.
pub struct Mismatch {
    pub line: usize,
    pub detail: String,
}

/// Compares `actual` with `expected` under `rule`; `None` when they agree.
pub fn compare(expected: &str, actual: &str, rule: Rule) -> Option<Mismatch> {
    let (exp, act) = (judge_lines(expected), judge_lines(actual));
    for i in 0..exp.len().max(act.len()) {
        let (e, a) = match (exp.get(i), act.get(i)) {
            (Some(e), Some(a)) => (*e, *a),
            (Some(_), None) => {
                return Some(Mismatch {
                    line: i,
                    detail: format!(
                        "output ends after {} lines, {} expected",
                        act.len(),
                        exp.len()
                    ),
                })
            }
            (None, _) => {
                return Some(Mismatch {
                    line: i,
                    detail: format!("{} lines, only {} expected", act.len(), exp.len()),
                })
            }
        };
        if let Some(detail) = compare_line(e, a, rule) {
            return Some(Mismatch { line: i, detail });
        }
    }
    None
}

fn compare_line(expected: &str, actual: &str, rule: Rule) -> Option<String> {
    if expected == actual {
        return None;
    }
    let tolerance = match rule {
        Rule::Exact => None,
        Rule::Tolerance(t) => Some(t),
    };
    let (mut exp, mut act) = (expected.split_whitespace(), actual.split_whitespace());
    for k in 1.. {
        match (exp.next(), act.next()) {
            (None, None) => break,
            (Some(e), Some(a)) => {
                let close = match (tolerance, e.parse::<f64>(), a.parse::<f64>()) {
                    (Some(t), Ok(x), Ok(y)) => (x - y).abs() <= t,
                    _ => e == a,
                };
                if !close {
                    return Some(format!("token {k}: expected `{e}`, got `{a}`"));
                }
            }
            (Some(e), None) => return Some(format!("token {k}: expected `{e}`, line ends")),
            (None, Some(a)) => return Some(format!("token {k}: unexpected `{a}`")),
        }
    }
    // Same tokens: only the spacing differs, which a judge does not forgive
    // for exact outputs.
    match rule {
        Rule::Exact => Some("same tokens, different spacing".to_string()),
        Rule::Tolerance(_) => None,
    }
}

/// A few lines of context around line `at` of both texts, marked.
pub fn context(expected: &str, actual: &str, at: usize) -> String {
    let (exp, act) = (judge_lines(expected), judge_lines(actual));
    let from = at.saturating_sub(2);
    let to = (at + 3).min(exp.len().max(act.len()));
    let mut s = String::new();
    for i in from..to {
        let mark = if i == at { ">" } else { " " };
        let e = exp.get(i).copied().unwrap_or("<none>");
        let a = act.get(i).copied().unwrap_or("<none>");
        if e == a {
            let _ = writeln!(s, "  {mark} {:>4}   {}", i + 1, clip(e));
        } else {
            let _ = writeln!(s, "  {mark} {:>4} - {}", i + 1, clip(e));
            let _ = writeln!(s, "  {mark} {:>4} + {}", i + 1, clip(a));
        }
    }
    s
}

fn clip(line: &str) -> String {
    const MAX: usize = 160;
    if line.chars().count() <= MAX {
        line.to_string()
    } else {
        let head: String = line.chars().take(MAX).collect();
        format!("{head}... ({} chars)", line.chars().count())
    }
}

/// The shell command that runs `bin` with `args` on the file `input`.
pub fn run_command(bin: &str, args: &[String], input: &str) -> String {
    let args = if args.is_empty() {
        String::new()
    } else {
        format!(" -- {}", args.join(" "))
    };
    format!("cargo run -q --release --bin {bin}{args} < {input}")
}

/// The shell command that reproduces a case by hand.
pub fn repro(bin: &str, case: &Case) -> String {
    let run = run_command(bin, &case.args, &case.name());
    match (&case.stdout, &case.stderr) {
        (Some(out), _) => format!("{run} | diff - {}", rel(out)),
        (None, Some(err)) => format!("{run} 2>&1 >/dev/null | diff - {}", rel(err)),
        (None, None) => run,
    }
}
