//! The command line every solver shares: `--help` explains the format and
//! exits 0, an unknown argument is refused with exit 2, empty input is bad
//! input, and every error message has the form `<binary>: <where>: <what>`.

mod common;

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
        for case in cases {
            if let Some(err) = &case.stderr {
                let text = common::read_text(err);
                assert_eq!(text.trim_end().lines().count(), 1, "{}", common::rel(err));
                assert!(
                    text.starts_with(&format!("{bin}: ")),
                    "{}: an error line starts with `{bin}: `",
                    common::rel(err)
                );
            }
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
