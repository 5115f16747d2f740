//! The output validator of our Kattis packages: a team's output is right
//! when it agrees with the judge's answer under the one comparison rule
//! that `cargo test` and `kit judge` apply (module `compare`): line by
//! line, case-sensitive, CRLF equal to LF, trailing spaces on a line and
//! trailing blank lines ignored, numbers within the problem's tolerance.
//! problemtools' default validator cannot say this: without
//! `space_change_sensitive` it ignores line structure, with it it refuses
//! a trailing space or a CRLF.
//!
//! The Kattis protocol: `compare INPUT JUDGE_ANSWER FEEDBACK_DIR [FLAGS]
//! < TEAM_OUTPUT`; exit 42 for an accepted output, 43 for a wrong one with
//! the first difference in FEEDBACK_DIR/judgemessage.txt; any other exit
//! (an unreadable file) is a judge error. The flags are not read: the rule
//! is fixed in this file.
//!
//! Rust, std only. `kit package` writes this file into each package from
//! its template, kit/packages/every_problem/output_validators/compare/,
//! with `mod compare` replaced by kit/src/compare.rs itself and `RULE` set
//! to the problem's rule: one file, which the `build` script beside it
//! compiles into `run`.

use std::ffi::OsString;
use std::fs;
use std::io::{self, Read};
use std::path::Path;
use std::process::ExitCode;

#[path = "../../../../src/compare.rs"]
#[allow(dead_code)]
mod compare;

use compare::Rule;

/// The problem's rule (`kit package` writes the problem's own).
const RULE: Rule = Rule::Exact;

const ACCEPTED: u8 = 42;
const WRONG_ANSWER: u8 = 43;

fn main() -> ExitCode {
    match validate() {
        Ok(code) => ExitCode::from(code),
        Err(message) => {
            eprintln!("output validator: {message}");
            ExitCode::from(1)
        }
    }
}

/// The verdict on stdin against the judge's answer; `Err`: a judge error.
fn validate() -> Result<u8, String> {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    if args.len() < 3 {
        return Err("usage: compare INPUT JUDGE_ANSWER FEEDBACK_DIR [FLAGS] < TEAM_OUTPUT".into());
    }
    let (answer, feedback) = (Path::new(&args[1]), Path::new(&args[2]));
    let expected =
        fs::read(answer).map_err(|e| format!("cannot read {}: {e}", answer.display()))?;
    let mut team = Vec::new();
    io::stdin().read_to_end(&mut team).map_err(|e| format!("cannot read stdin: {e}"))?;
    // As kit judge reads a program's output: invalid UTF-8 replaced.
    let (expected, team) = (String::from_utf8_lossy(&expected), String::from_utf8_lossy(&team));
    // No let-else: the judge's rustc may be as old as Debian's 1.63.
    let mismatch = match compare::compare(&expected, &team, RULE) {
        None => return Ok(ACCEPTED),
        Some(mismatch) => mismatch,
    };
    let message = format!(
        "line {}: {}\n{}",
        mismatch.line + 1,
        mismatch.detail,
        compare::context(&expected, &team, mismatch.line)
    );
    let file = feedback.join("judgemessage.txt");
    fs::write(&file, message).map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    Ok(WRONG_ANSWER)
}
