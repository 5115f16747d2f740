//! The `kit` executable itself: exit codes, one-line errors, and where it
//! looks for our solvers and fixtures. These need no solver build: a fake
//! solver (a shell script) stands beside a copy of `kit` where one is
//! needed.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn kit() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kit"));
    cmd.env_remove("KIT_SOLVER_DIR");
    cmd
}

fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A fresh folder under the system's temporary directory.
fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kit-cli-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[cfg(unix)]
fn executable(path: &Path, script: &str) {
    use std::os::unix::fs::PermissionsExt;
    write(path, script);
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn help_exits_0_and_names_every_command() {
    let out = kit().arg("--help").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let (stdout, _) = text(&out);
    for usage in [
        "kit gen PROBLEM",
        "kit judge PROBLEM",
        "kit stress PROBLEM",
        "exit codes",
    ] {
        assert!(stdout.contains(usage), "{usage}");
    }
}

#[test]
fn a_usage_error_is_one_stderr_line_and_exit_2() {
    for args in [
        &["frobnicate"][..],
        &["gen"],
        &["gen", "zhuguosha", "--count", "3"],
        &["judge", "zhuguosha"],
        &["stress", "nosuch", "--", "true"],
    ] {
        let out = kit().args(args).output().unwrap();
        let (stdout, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stdout.is_empty(), "{args:?}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("kit: "), "{args:?}: {stderr}");
    }
}

#[test]
fn gen_list_needs_no_solver() {
    let out = kit().args(["gen", "zhuguosha", "--list"]).output().unwrap();
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stdout.starts_with("random "), "{stdout}");
    assert!(stdout.lines().count() >= 10, "{stdout}");
}

#[test]
fn a_missing_solver_says_how_to_build_it() {
    let empty = scratch("nosolver");
    let out = kit()
        .env("KIT_SOLVER_DIR", &empty)
        .args(["gen", "zhuguosha"])
        .output()
        .unwrap();
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr.starts_with("kit: our solver zhuguosha is not at "),
        "{stderr}"
    );
    assert!(
        stderr.contains("(from KIT_SOLVER_DIR): build them with `cargo build --release`"),
        "{stderr}"
    );
    let out = kit()
        .args(["gen", "zhuguosha", "--solver", "/nonexistent/zhuguosha"])
        .output()
        .unwrap();
    assert_eq!(
        text(&out).1,
        "kit: --solver /nonexistent/zhuguosha: no such file\n"
    );
    let _ = std::fs::remove_dir_all(&empty);
}

/// `target/release/kit` uses `target/release/zhuguosha`: a copy of kit
/// with a fake solver beside it uses that one.
#[test]
#[cfg(unix)]
fn the_solver_beside_kit_is_the_default() {
    let dir = scratch("beside");
    let copy = dir.join("kit");
    std::fs::copy(env!("CARGO_BIN_EXE_kit"), &copy).unwrap();
    // Answers every game with a line of its own, so the .out shows who ran.
    executable(
        &dir.join("zhuguosha"),
        "#!/bin/sh\ncat >/dev/null\necho fake solver\n",
    );
    let out_dir = dir.join("cases");
    let out = Command::new(&copy)
        .env_remove("KIT_SOLVER_DIR")
        .args(["gen", "zhuguosha", "--count", "2", "--out"])
        .arg(&out_dir)
        .output()
        .unwrap();
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stdout.starts_with("wrote 2 cases of zhuguosha profile random seed 1 to "),
        "{stdout}"
    );
    for case in ["0000", "0001"] {
        let answer = std::fs::read_to_string(out_dir.join(format!("{case}.out"))).unwrap();
        assert_eq!(answer, "fake solver\n");
        assert!(out_dir.join(format!("{case}.in")).is_file());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Without --dir, `kit judge` reads tests/data/PROBLEM below the current
/// directory, and runs the program there (so `python3 sol.py` works).
#[test]
#[cfg(unix)]
fn judge_defaults_to_tests_data_and_runs_in_the_current_directory() {
    let dir = scratch("judge");
    write(
        &dir.join("tests/data/ji_referee/x/one.in"),
        "1\na 1 0 0\n1\na a\n",
    );
    write(
        &dir.join("tests/data/ji_referee/x/one.out"),
        "CONTINUE 1 1\n",
    );
    write(&dir.join("sol.sh"), "cat >/dev/null\necho CONTINUE 1 1\n");
    let out = kit()
        .current_dir(&dir)
        .args(["judge", "ji_referee", "--", "sh", "sol.sh"])
        .output()
        .unwrap();
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert!(
        lines[0].starts_with("AC ") && lines[0].ends_with("  tests/data/ji_referee/x/one.in"),
        "{stdout}"
    );
    assert_eq!(lines[1], "AC 1/1");
    // Elsewhere, the missing folder is named.
    let out = kit()
        .current_dir(dir.join("tests"))
        .args(["judge", "ji_referee", "--", "true"])
        .output()
        .unwrap();
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr.starts_with("kit: tests/data/ji_referee: no such folder"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
