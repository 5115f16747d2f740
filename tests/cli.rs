//! The command line every solver shares: `--help` explains the format and
//! exits 0, an unknown or non-UTF-8 argument is refused with exit 2, empty
//! input is bad input, and every error message has the form
//! `<binary>: <where>: <what>`. The exit codes mean the same everywhere: 2
//! bad input, 3 a valid input without an exact answer, 1 an unwritable
//! stdout.

mod common;

use assert_cmd::Command;
use predicates::prelude::*;
use std::time::Duration;

const LIMIT: Duration = Duration::from_secs(10);

fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// Exit code 2 and one stderr line `<bin>: ...`.
fn assert_bad_input(bin: &str, run: &common::Run) {
    assert_eq!(run.code, Some(2), "{bin}: exit code");
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(err.lines().count(), 1, "{bin}: stderr {err:?}");
    assert!(
        err.starts_with(&format!("{bin}: ")),
        "{bin}: stderr {err:?}"
    );
}

#[test]
fn help_prints_the_format_and_exits_0() {
    for bin in common::binaries() {
        for flag in ["--help", "-h"] {
            let run = common::run(&bin, &args(&[flag]), b"", LIMIT);
            assert_eq!(run.code, Some(0), "{bin} {flag}: exit code");
            let text = String::from_utf8_lossy(&run.stdout);
            assert!(
                text.lines().count() >= 3,
                "{bin} {flag}: expected a few lines of format, got {text:?}"
            );
        }
    }
}

#[test]
fn an_unknown_argument_is_refused_with_one_line() {
    for bin in common::binaries() {
        let run = common::run(&bin, &args(&["--no-such-flag"]), b"", LIMIT);
        assert_bad_input(&bin, &run);
    }
}

#[test]
#[cfg(unix)]
fn a_non_utf8_argument_is_refused_without_a_panic() {
    use std::os::unix::ffi::OsStrExt;
    let arg = std::ffi::OsStr::from_bytes(b"--\xff\xfe");
    for bin in common::binaries() {
        Command::new(common::exe(&bin))
            .arg(arg)
            .write_stdin("")
            .timeout(LIMIT)
            .assert()
            .code(2)
            .stderr(predicate::str::starts_with(format!("{bin}: ")))
            .stderr(predicate::str::contains("panicked").not())
            .stderr(predicate::function(|e: &str| e.lines().count() == 1));
    }
}

/// Exit code 3 is the same class in every solver that has one: a valid
/// input without an exact answer, with one stderr line. Each such solver
/// has at least one fixture that shows it.
#[test]
fn no_exact_answer_is_exit_3_where_a_solver_has_it() {
    for bin in ["zhuguosha", "ji_solver"] {
        let (cases, _) = common::cases(bin);
        let case = cases
            .iter()
            .find(|c| c.code == 3)
            .unwrap_or_else(|| panic!("{bin}: no fixture with exit code 3"));
        Command::new(common::exe(bin))
            .args(&case.args)
            .pipe_stdin(&case.input)
            .expect("fixture")
            .timeout(LIMIT)
            .assert()
            .code(3)
            .stderr(predicate::str::starts_with(format!("{bin}: ")))
            .stderr(predicate::function(|e: &str| e.lines().count() == 1));
    }
}

#[test]
fn empty_input_is_bad_input() {
    // `ji` is interactive: no commands simply means quit.
    for bin in common::binaries().into_iter().filter(|b| b != "ji") {
        let run = common::run(&bin, &[], b"", LIMIT);
        assert_bad_input(&bin, &run);
    }
}

#[test]
fn every_expected_error_names_its_binary() {
    for bin in common::binaries() {
        let (cases, _) = common::cases(&bin);
        // A trace (`--trace`) writes its log to stderr before any error
        // line: a traced run that succeeds has no error line, one that
        // fails ends with it.
        for case in cases.into_iter().filter(|c| c.stderr.is_some()) {
            let err = case.stderr.as_ref().expect("filtered");
            let traced = case.args.iter().any(|a| a == "--trace");
            if traced && case.code == 0 {
                continue;
            }
            let text = common::read_text(err);
            let lines: Vec<&str> = text.trim_end().lines().collect();
            if !traced {
                assert_eq!(lines.len(), 1, "{}", common::rel(err));
            }
            assert!(
                lines
                    .last()
                    .is_some_and(|l| l.starts_with(&format!("{bin}: "))),
                "{}: an error line starts with `{bin}: `",
                common::rel(err)
            );
        }
    }
}

#[test]
#[cfg(target_os = "linux")]
fn an_unwritable_output_is_exit_1_with_one_line() {
    use std::process::{Command, Stdio};
    for bin in common::binaries() {
        let (cases, _) = common::cases(&bin);
        let case = cases
            .iter()
            .find(|c| c.stdout.is_some() && c.code == 0)
            .expect("a case with output");
        let dir =
            std::env::temp_dir().join(format!("judge-sims-full-{bin}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temporary directory");
        let out = Command::new(common::exe(&bin))
            .args(&case.args)
            .current_dir(&dir)
            .stdin(std::fs::File::open(&case.input).expect("fixture"))
            .stdout(std::fs::File::create("/dev/full").expect("/dev/full"))
            .stderr(Stdio::piped())
            .output()
            .expect("run");
        let _ = std::fs::remove_dir_all(&dir);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{bin}: stderr {err:?}");
        assert_eq!(err.lines().count(), 1, "{bin}: stderr {err:?}");
        assert!(err.starts_with(&format!("{bin}: ")), "{bin}: {err:?}");
    }
}
