//! Shared by the integration tests: what is test-specific (where the
//! solvers are, a fresh directory per run, panicking on set-up errors). The
//! fixture discovery, the runner and the judge's comparison rule come from
//! the kit's library, so `cargo test` and `kit judge` apply the same rule.

// Each test crate uses a different part of this module.
#![allow(dead_code, unused_imports)]

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

pub use kit::cases::Case;
pub use kit::compare::{compare, context, judge_lines, Mismatch, Rule};
use kit::run::{Cmd, Status};
use kit::scratch::Scratch;

/// The comparison rule of a binary: its problem's, from the kit's one
/// registry ([`kit::problems::find`]); exact for the programs that are not
/// a judge problem (`ji`).
pub fn rule(bin: &str) -> Rule {
    kit::problems::find(bin).map_or(Rule::Exact, |p| p.rule())
}

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The programs: one per `src/bin/*.rs` file or `src/bin/*/main.rs`
/// folder (as Cargo finds them), sorted.
pub fn binaries() -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(root().join("src/bin"))
        .expect("src/bin exists")
        .filter_map(|e| {
            let path = e.ok()?.path();
            let file = path.extension().is_some_and(|x| x == "rs");
            let folder = path.join("main.rs").is_file();
            if file {
                path.file_stem()?.to_str().map(String::from)
            } else if folder {
                path.file_name()?.to_str().map(String::from)
            } else {
                None
            }
        })
        .collect();
    names.sort();
    names
}

/// The source files of program `bin`: `src/bin/<bin>.rs`, or every `.rs`
/// file of the folder `src/bin/<bin>/`, sorted (`main.rs` first), then the
/// shared masters (src/shared/) those files import with `#[path]`.
pub fn sources(bin: &str) -> Vec<PathBuf> {
    let file = root().join("src/bin").join(format!("{bin}.rs"));
    if file.is_file() {
        return vec![file];
    }
    let folder = root().join("src/bin").join(bin);
    let mut files: Vec<PathBuf> = fs::read_dir(&folder)
        .unwrap_or_else(|e| panic!("{}: {e}", rel(&folder)))
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .collect();
    files.sort_by_key(|p| (p.file_name() != Some("main.rs".as_ref()), p.clone()));
    let mut shared: Vec<PathBuf> = Vec::new();
    for file in &files {
        let text = fs::read_to_string(file).unwrap_or_default();
        for line in text.lines() {
            let Some(path) = line.trim().strip_prefix("#[path = \"") else { continue };
            let path = path.trim_end_matches("\"]");
            let master = file.parent().expect("a folder").join(path);
            if path.contains("shared/") && !shared.contains(&master) {
                shared.push(master);
            }
        }
    }
    shared.sort();
    files.extend(shared);
    files
}

/// Where cargo put our judge solver `problem` for this test run (the
/// `--solver` the kit's tests pass).
pub fn solver(problem: &str) -> &'static str {
    match problem {
        "zhuguosha" => env!("CARGO_BIN_EXE_zhuguosha"),
        "ants_battle" => env!("CARGO_BIN_EXE_ants_battle"),
        "ji_referee" => env!("CARGO_BIN_EXE_ji_referee"),
        "ji_solver" => env!("CARGO_BIN_EXE_ji_solver"),
        _ => panic!("no solver {problem}"),
    }
}

/// Path of a built binary of this crate.
pub fn exe(bin: &str) -> PathBuf {
    assert_cmd::cargo::cargo_bin(bin)
}

pub fn rel(path: &Path) -> String {
    path.strip_prefix(root()).unwrap_or(path).display().to_string()
}

/// All `.in` files below `tests/data/<bin>/`, recursively, sorted, with
/// their siblings. A `.in` without `.out` or `.err`, or a binary without
/// fixtures, is an error, reported in the returned list of problems.
pub fn cases(bin: &str) -> (Vec<Case>, Vec<String>) {
    let dir = root().join("tests/data").join(bin);
    if !dir.is_dir() {
        let problem = format!("{bin}: no fixture folder {} (every binary needs one)", rel(&dir));
        return (Vec::new(), vec![problem]);
    }
    let (found, mut problems) = kit::cases::discover(&dir).expect("readable fixture folder");
    if found.is_empty() && problems.is_empty() {
        problems.push(format!("{bin}: no .in fixture below {}", rel(&dir)));
    }
    (found, problems)
}

pub fn read_text(path: &Path) -> String {
    kit::cases::read_text(path).expect("readable fixture")
}

/// What one run produced (what the tests compare between runs: no times).
#[derive(Debug, PartialEq, Eq)]
pub struct Run {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// The exit code, `None` when killed by a signal or the time limit.
    pub code: Option<i32>,
    pub timed_out: bool,
}

/// Runs `bin` with `args`, feeding `stdin`, in a fresh empty temporary
/// working directory, killing it after `limit`.
pub fn run(bin: &str, args: &[String], stdin: &[u8], limit: Duration) -> Run {
    let dir = Scratch::new(bin);
    let cmd = Cmd { program: exe(bin).into(), args: args.iter().map(Into::into).collect() };
    let out = kit::run::run(&cmd, stdin, limit, Some(dir.path()))
        .unwrap_or_else(|e| panic!("cannot start {bin}: {e}"));
    Run {
        code: match out.status {
            Status::Exited(c) => Some(c),
            // (A time limit alone: never a memory or output limit here.)
            Status::Signaled(_)
            | Status::CpuLimit
            | Status::IdleLimit
            | Status::MemoryLimit
            | Status::OutputLimit => None,
        },
        timed_out: matches!(out.status, Status::CpuLimit | Status::IdleLimit),
        stdout: out.stdout,
        stderr: out.stderr,
    }
}

/// The shell command that runs `bin` with `args` on the file `input`.
pub fn run_command(bin: &str, args: &[String], input: &str) -> String {
    let args = if args.is_empty() { String::new() } else { format!(" -- {}", args.join(" ")) };
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

/// The external program `name` (Chromium, tmux, verifyproblem, ...) that
/// test `test` needs, found on PATH. Without it the test is skipped with a
/// note on stderr, so that `cargo test` passes on a bare machine (a Rust
/// toolchain only); in CI (`CI=true`, where `.ci/run` installs the tools)
/// a missing tool fails the test instead.
pub fn tool_or_skip(names: &[&str], test: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    for name in names {
        for dir in std::env::split_paths(&path) {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return Some(candidate);
            }
        }
    }
    let wanted = names.join(" or ");
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!(
            "{test}: {wanted} is not installed, and CI must run this test (.ci/run installs it)"
        );
    }
    // Straight to the process's stderr, not `eprintln!`: the test harness
    // captures the macros' output of a passing test, and a skip must show.
    use std::io::Write as _;
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED {test}: {wanted} is not installed (CI installs it; see .ci/run)"
    );
    None
}

/// A planted misreading of Ants (tests/kit.rs stresses it, tests/diagnose.rs
/// names its rule): put after `weakness_plane::<W>(field, disk, &mut weak);`
/// in `ants_battle.rs`, the weakness plane is recomputed naively from
/// distinct enemy cells, so an enemy reached by several offsets of the
/// attack disk (a map smaller than the disk) counts once.
pub const ANTS_ENEMY_COUNTED_ONCE: &str = "weakness_plane::<W>(field, disk, &mut weak);
    // PLANTED: an enemy reached by several offsets counts once.
    let (rows, cols) = (field.rows as isize, field.cols as isize);
    for r in 0..rows {
        for c in 0..cols {
            let me = field.owner[(r * cols + c) as usize];
            if me == NO_ANT {
                continue;
            }
            let mut cells: Vec<isize> = Vec::new();
            for o in disk {
                let at = (r + o.dr).rem_euclid(rows) * cols + (c + o.dc).rem_euclid(cols);
                if is_enemy(me, field.owner[at as usize]) && !cells.contains(&at) {
                    cells.push(at);
                }
            }
            weak[(r * cols + c) as usize] = W::from(cells.len() as u8);
        }
    }";
