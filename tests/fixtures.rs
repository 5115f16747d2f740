//! The fixture harness: every binary of `src/bin/` on every `.in` below
//! `tests/data/<binary>/`, compared with the sibling `.out` (stdout) and
//! `.err` (stderr, with the exit code of `.code`, default 2) by the judge's
//! rule. A failure lists every failing fixture with a command that
//! reproduces it, the first difference, and the lines around it.
//!
//! A second check per binary feeds each input with CRLF line ends and
//! demands exactly the same stdout, stderr and exit code as with LF.

mod common;

use common::{Case, Rule};
use std::time::Duration;

/// Generous: the test profile is optimised, and the slowest fixture of any
/// solver runs in well under a second.
const LIMIT: Duration = Duration::from_secs(20);

/// One test per binary in each check, so they run in parallel; `CHECKED`
/// lists them for `every_binary_is_checked`.
macro_rules! fixture_tests {
    ($($bin:ident),* $(,)?) => {
        const CHECKED: &[&str] = &[$(stringify!($bin)),*];
        mod matches_expected {
            $(#[test] fn $bin() { super::check_binary(stringify!($bin)); })*
        }
        mod crlf_same_as_lf {
            $(#[test] fn $bin() { super::check_crlf(stringify!($bin)); })*
        }
    };
}

fixture_tests!(ants_battle, ji, ji_referee, ji_solver, zhuguosha);

#[test]
fn every_binary_is_checked() {
    let bins = common::binaries();
    let missing: Vec<&String> = bins.iter().filter(|b| !CHECKED.contains(&b.as_str())).collect();
    assert!(
        missing.is_empty(),
        "binaries without fixture tests: {missing:?}; add them to fixture_tests! in {}",
        file!()
    );
    for bin in CHECKED {
        assert!(
            bins.iter().any(|b| b == bin),
            "{bin} is checked but src/bin/{bin}.rs does not exist"
        );
    }
}

/// Runs one binary on all its fixtures and panics with a report of every
/// failure.
fn check_binary(bin: &str) {
    let (cases, mut problems) = common::cases(bin);
    let rule = common::rule(bin);
    for case in &cases {
        let input = std::fs::read(&case.input).expect("readable .in");
        let run = common::run(bin, &case.args, &input, LIMIT);
        if let Some(report) = judge(bin, case, &run, rule) {
            problems.push(report);
        }
    }
    assert!(
        problems.is_empty(),
        "\n{bin}: {} of {} fixtures failed\n\n{}\n",
        problems.len(),
        cases.len(),
        problems.join("\n")
    );
}

/// The report for one case, or `None` if it passes.
fn judge(bin: &str, case: &Case, run: &common::Run, rule: Rule) -> Option<String> {
    let mut faults = Vec::new();
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    if run.timed_out {
        faults.push(format!("killed after {} s", LIMIT.as_secs()));
    } else if run.code != Some(case.code) {
        let got = run.code.map_or("a signal".to_string(), |c| c.to_string());
        let first = stderr.lines().next().unwrap_or("");
        faults.push(format!("exit code {got}, expected {}; stderr: {first}", case.code));
    }
    if let Some(path) = &case.stdout {
        let expected = common::read_text(path);
        if let Some(m) = common::compare(&expected, &stdout, rule) {
            faults.push(format!(
                "stdout line {}: {}\n{}",
                m.line + 1,
                m.detail,
                common::context(&expected, &stdout, m.line)
            ));
        }
    }
    if let Some(path) = &case.stderr {
        let expected = common::read_text(path);
        if let Some(m) = common::compare(&expected, &stderr, Rule::Exact) {
            faults.push(format!(
                "stderr line {}: {}\n{}",
                m.line + 1,
                m.detail,
                common::context(&expected, &stderr, m.line)
            ));
        }
    }
    if faults.is_empty() {
        return None;
    }
    let place = if case.args.is_empty() { "" } else { "  (run it in an empty directory)" };
    Some(format!(
        "FAIL {}\n  reproduce: {}{place}\n  {}\n",
        case.name(),
        common::repro(bin, case),
        faults.join("\n  ")
    ))
}

/// CRLF line ends change nothing: same stdout, stderr and exit code.
fn check_crlf(bin: &str) {
    let (cases, _) = common::cases(bin);
    let mut problems = Vec::new();
    for case in &cases {
        let lf = std::fs::read(&case.input).expect("readable .in");
        let crlf = to_crlf(&lf);
        // `ants_battle --strict` refuses CR by design (LF line ends are part
        // of its canonical form; fixture strict/carriage_return).
        let lf_only = bin == "ants_battle" && case.args.iter().any(|a| a == "--strict");
        if crlf == lf || lf_only {
            continue;
        }
        let a = common::run(bin, &case.args, &lf, LIMIT);
        let b = common::run(bin, &case.args, &crlf, LIMIT);
        if a != b {
            let what = if a.stdout != b.stdout {
                "stdout"
            } else if a.stderr != b.stderr {
                "stderr"
            } else {
                "exit code"
            };
            problems.push(format!(
                "{}: {what} differs with CRLF line ends\n  LF:   {:?}\n  CRLF: {:?}",
                case.name(),
                first_line_of(&a, what),
                first_line_of(&b, what)
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "\n{bin}: {} of {} fixtures change under CRLF\n\n{}\n",
        problems.len(),
        cases.len(),
        problems.join("\n")
    );
}

fn to_crlf(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() + text.len() / 8);
    for (i, &b) in text.iter().enumerate() {
        if b == b'\n' && (i == 0 || text[i - 1] != b'\r') {
            out.push(b'\r');
        }
        out.push(b);
    }
    out
}

fn first_line_of(run: &common::Run, what: &str) -> String {
    let bytes = match what {
        "stdout" => &run.stdout,
        "stderr" => &run.stderr,
        _ => return format!("{:?}", run.code),
    };
    String::from_utf8_lossy(bytes).lines().next().unwrap_or("").to_string()
}

/// The CRLF conversion itself (the comparison rule's tests are in the
/// kit's library, `kit/src/compare.rs`).
#[test]
fn crlf_conversion_keeps_existing_crlf() {
    assert_eq!(to_crlf(b"a\nb\r\nc"), b"a\r\nb\r\nc");
}
