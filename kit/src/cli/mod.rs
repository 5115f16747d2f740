//! The `kit` command line. The binary's `main` only hands over its
//! arguments and streams, so tests can run any command in-process. The
//! rooms: [`commands`] (the one table of commands: name, help, options,
//! run), [`options`] (each command's typed options), [`words`] (the one
//! reader of a command's words).

pub mod commands;
pub mod options;
mod words;

pub use options::{DiagnoseOptions, GenOptions, JudgeOptions, PackageOptions, StressOptions};

use crate::error::{Error, Result};
use crate::problems;
use crate::run::shell_quote;
use commands::{Context, COMMANDS};
use std::ffi::{OsStr, OsString};
use std::io::Write;

/// `kit --help`: the commands of the table, their synopses and what each
/// does, then what kit measures.
pub fn usage() -> String {
    let mut text = format!(
        "kit: seeded generators, a local judge and stress testing for the problems of\n\
         this collection ({}).\n\nusage:\n",
        problems::names()
    );
    for c in &COMMANDS {
        text += &c.synopsis();
    }
    text += "  kit COMMAND --help\n  kit --version\n\n";
    for c in &COMMANDS {
        let about = c.about.replace('\n', "\n        ");
        text += &format!("{:<8}{about}\n", c.name);
    }
    text += "\n";
    text += commands::VERDICTS;
    text += "\n";
    text += commands::NOT_A_SANDBOX;
    text += "\n";
    text += ENDING;
    text
}

const ENDING: &str = "\
Our solvers are the binaries beside kit (cargo build --release puts them
all in target/release, cargo install --path . all in ~/.cargo/bin), or in
$KIT_SOLVER_DIR, or --solver PATH.

exit codes: 0 all good; 1 judge: a case is not AC, stress: a failure found;
2 usage or set-up error (one line on stderr).
";

/// `kit --version`.
pub const VERSION: &str = concat!("kit ", env!("CARGO_PKG_VERSION"), "\n");

/// Runs `kit ARGS` (without the program name); returns the exit code.
/// `live`: stderr is a terminal (progress is shown in place). The one
/// place where an [`Error`] becomes a line on stderr and an exit code.
pub fn main(args: &[OsString], out: &mut dyn Write, err: &mut dyn Write, live: bool) -> i32 {
    main_as(OsStr::new("kit"), args, out, err, live)
}

/// [`main`] for kit invoked as `program` (its `argv[0]`, such as
/// `./target/release/kit`): the commands kit prints to run again name kit
/// so, and run as shown.
pub fn main_as(
    program: &OsStr,
    args: &[OsString],
    out: &mut dyn Write,
    err: &mut dyn Write,
    live: bool,
) -> i32 {
    let invoked_as = shell_quote(program);
    let mut cx = Context { invoked_as: &invoked_as, out, err, live };
    match dispatch(args, &mut cx) {
        Ok(true) => 0,
        Ok(false) => 1,
        Err(Error::ClosedPipe) => 0,
        Err(e) => {
            let _ = writeln!(cx.err, "kit: {e}");
            e.exit_code()
        }
    }
}

/// `kit ARGS...` in-process ([`main`], stderr not a terminal): the exit
/// code, stdout and stderr. Test support.
///
/// # Panics
/// If kit writes something that is not UTF-8.
#[cfg(any(test, feature = "test-support"))]
pub fn captured<S: AsRef<OsStr>>(args: &[S]) -> (i32, String, String) {
    let args: Vec<OsString> = args.iter().map(|a| a.as_ref().to_os_string()).collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = main(&args, &mut out, &mut err, false);
    let text = |b: Vec<u8>| String::from_utf8(b).expect("kit writes UTF-8");
    (code, text(out), text(err))
}

/// The words before `--` ask for help.
fn wants_help(args: &[OsString]) -> bool {
    args.iter().take_while(|a| *a != "--").any(|a| a == "--help" || a == "-h")
}

fn dispatch(args: &[OsString], cx: &mut Context) -> Result<bool> {
    let Some(sub) = args.first() else {
        return Err(Error::usage("no command; see `kit --help`"));
    };
    let rest = &args[1..];
    match sub.to_str() {
        Some("-h" | "--help" | "help") => {
            cx.out.write_all(usage().as_bytes()).map_err(Error::stdout)?;
            return Ok(true);
        }
        Some("-V" | "--version") => {
            cx.out.write_all(VERSION.as_bytes()).map_err(Error::stdout)?;
            return Ok(true);
        }
        _ => {}
    }
    let Some(command) = sub.to_str().and_then(commands::find) else {
        return Err(Error::usage(format!(
            "unknown command `{}`; the commands are {} (see `kit --help`)",
            sub.to_string_lossy(),
            commands::names()
        )));
    };
    if wants_help(rest) {
        cx.out.write_all(command.help_text().as_bytes()).map_err(Error::stdout)?;
        return Ok(true);
    }
    (command.run)(rest, cx)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;
    use std::time::Duration;

    fn kit(args: &[&str]) -> (i32, String, String) {
        captured(args)
    }

    fn refused(args: &[&str], message: &str) {
        let (code, out, err) = kit(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty());
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("kit: ") && err.contains(message), "{args:?}: {err}");
    }

    /// The help names every problem of the one list.
    #[test]
    fn help_names_every_problem() {
        let names = problems::names();
        assert!(usage().contains(&format!("({names})")), "{names}");
    }

    #[test]
    fn help_lists_every_command_of_the_table_with_its_options() {
        let (code, out, _) = kit(&["--help"]);
        assert_eq!(code, 0);
        for c in &COMMANDS {
            assert!(out.contains(&format!("\n  kit {} PROBLEM", c.name)), "{}", c.name);
            assert!(out.contains(&format!("\n{:<8}", c.name)), "{}", c.name);
            // Every option of the command is in its synopsis there.
            for option in c.spec.valued.iter().chain(c.spec.flags) {
                assert!(c.synopsis().contains(option), "kit {} {option}", c.name);
            }
        }
        assert!(out.contains("[--zip FILE]"), "{out}");
        for code in crate::judge::Verdict::CODES {
            assert!(out.contains(&format!("\n  {code:<4} ")), "{code}: {out}");
        }
    }

    /// Every option in a command's spec is in its help, and every option
    /// its help lists is in its spec.
    #[test]
    fn each_commands_help_and_options_agree() {
        for c in &COMMANDS {
            let help = c.help_text();
            let (code, out, _) = kit(&[c.name, "--help"]);
            assert_eq!((code, out.as_str()), (0, help.as_str()));
            let spec: Vec<&str> = c.spec.valued.iter().chain(c.spec.flags).copied().collect();
            for option in &spec {
                assert!(c.synopsis().contains(option), "kit {} {option}", c.name);
            }
            // The options its synopsis names and its option lines list (the
            // prose may name another command's, as `kit judge --dir`).
            let option_lines = help.lines().filter(|l| l.trim_start().starts_with("--"));
            let listed: String = option_lines.map(|l| l.trim_start()).collect::<Vec<_>>().join(" ");
            let both = c.synopsis() + " " + &listed;
            for word in both.split(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '-')) {
                let option = word.starts_with("--") && word.len() > 2;
                assert!(!option || spec.contains(&word), "kit {}: {word} in its help", c.name);
            }
        }
    }

    /// Every option of every command's spec is read by its options: none
    /// reaches the error that says kit forgot one.
    #[test]
    fn every_option_of_the_table_is_read() {
        for c in &COMMANDS {
            for option in c.spec.valued.iter().chain(c.spec.flags) {
                let mut words = vec!["zhuguosha", option];
                if c.spec.valued.contains(option) {
                    words.push("1");
                }
                if c.spec.takes_cmd {
                    words.extend(["--", "true"]);
                }
                let words: Vec<OsString> = words.iter().map(OsString::from).collect();
                // Read only (running would write files).
                let read = match c.name {
                    "gen" => GenOptions::parse(&words).map(drop),
                    "judge" => JudgeOptions::parse(&words).map(drop),
                    "stress" => StressOptions::parse(&words).map(drop),
                    "show" => options::show_options(&words).map(drop),
                    "diagnose" => DiagnoseOptions::parse(&words).map(drop),
                    "rules" => options::RulesOptions::parse(&words).map(drop),
                    "package" => PackageOptions::parse(&words).map(drop),
                    other => panic!("a new command, {other}: read its options here"),
                };
                if let Err(e) = read {
                    assert!(
                        !e.to_string().contains("a bug of kit"),
                        "kit {} {option}: {e}",
                        c.name
                    );
                }
            }
        }
    }

    #[test]
    fn version_names_kit_and_its_version() {
        let (code, out, err) = kit(&["--version"]);
        assert_eq!((code, err.as_str()), (0, ""));
        assert_eq!(out, format!("kit {}\n", env!("CARGO_PKG_VERSION")));
        assert_eq!(kit(&["-V"]).1, out);
    }

    #[test]
    fn usage_errors_are_one_line_and_exit_2() {
        refused(&[], "no command");
        refused(&["make"], "unknown command `make`");
        refused(&["gen"], "which problem?");
        refused(&["gen", "x", "y"], "unexpected `y`");
        refused(&["gen", "zhuguosha", "--seed"], "--seed needs a value");
        refused(&["gen", "zhuguosha", "--bogus"], "unknown option `--bogus`");
        refused(&["gen", "zhuguosha", "--seed", "1", "--seed=2"], "--seed given twice");
        refused(&["gen", "zhuguosha", "--", "x"], "takes no program");
        refused(&["judge", "zhuguosha"], "no program to run");
        refused(&["judge", "zhuguosha", "--"], "no program after `--`");
        refused(
            &["stress", "zhuguosha", "--count", "many", "--", "x"],
            "--count `many` is not a non-negative integer",
        );
        refused(&["gen", "no_such_problem"], "unknown problem `no_such_problem`");
        refused(
            &["gen", "zhuguosha", "--seed", "99999999999999999999999"],
            "--seed `99999999999999999999999` is too large (at most 18446744073709551615)",
        );
        refused(&["gen", "zhuguosha", "--seed", "-1"], "--seed `-1` is not a non-negative integer");
        refused(&["gen", "zhuguosha", "--count", "0", "--out", "x"], "--count must be at least 1");
        refused(
            &["judge", "zhuguosha", "--dir", ".", "--time-limit", "0", "--", "x"],
            "at least 1 ms",
        );
    }

    #[test]
    fn the_new_options_are_checked() {
        refused(&["judge", "zhuguosha", "--memory-limit", "0", "--", "x"], "at least 1 MB");
        refused(
            &["stress", "zhuguosha", "--gen", "python3 gen.py", "--", "x"],
            "--gen CMD needs `{seed}` where the case's seed goes",
        );
        refused(
            &["stress", "zhuguosha", "--gen", "g {seed}", "--profile", "all", "--", "x"],
            "--gen makes the cases: it takes no --profile",
        );
        refused(&["judge", "zhuguosha", "a.out", "--", "x"], "unexpected `a.out`");
        let words: Vec<OsString> =
            ["zhuguosha", "a.in", "--memory-limit=64", "b/c.in", "--", "./sol"]
                .iter()
                .map(OsString::from)
                .collect();
        let o = JudgeOptions::parse(&words).unwrap();
        assert_eq!(o.cases, [PathBuf::from("a.in"), PathBuf::from("b/c.in")]);
        assert_eq!((o.memory_limit_mb, o.dirs.len()), (64, 0));
        let words: Vec<OsString> = ["zhuguosha", "--keep-going", "--gen", "g {seed}", "--", "s"]
            .iter()
            .map(OsString::from)
            .collect();
        let o = StressOptions::parse(&words).unwrap();
        assert!(o.keep_going);
        assert_eq!(o.generator.as_deref(), Some("g {seed}"));
        assert_eq!(o.profiles, [crate::stress::USER_GEN]);
        assert_eq!(o.memory_limit_mb, crate::judge::MEMORY_LIMIT_MB);
        assert_eq!(o.output_limit_mb, crate::problems::OUTPUT_LIMIT_MB);
        let words: Vec<OsString> =
            ["ants_battle", "--output-limit", "3", "--", "s"].iter().map(OsString::from).collect();
        assert_eq!(JudgeOptions::parse(&words).unwrap().output_limit_mb, 3);
        let default: Vec<OsString> =
            ["ants_battle", "--", "s"].iter().map(OsString::from).collect();
        assert_eq!(JudgeOptions::parse(&default).unwrap().output_limit_mb, 64);
        refused(&["judge", "zhuguosha", "--output-limit", "0", "--", "x"], "at least 1 MB");
    }

    /// The command printed to judge the failure again names kit as it was
    /// invoked, so that it runs as shown.
    #[test]
    #[cfg(unix)]
    fn the_hint_names_kit_as_it_was_invoked() {
        let dir = crate::scratch::Scratch::new("cli-hint");
        let ours = dir.executable("ours", "#!/bin/sh\ncat >/dev/null; echo MP\n");
        let failures = dir.path().join("failures");
        let args: Vec<OsString> = ["stress", "zhuguosha", "--count", "1", "--solver"]
            .iter()
            .map(OsString::from)
            .chain([ours.into_os_string(), "--out".into(), failures.clone().into_os_string()])
            .chain(["--", "false"].map(OsString::from))
            .collect();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = main_as(OsStr::new("./target/release/kit"), &args, &mut out, &mut err, false);
        let text = String::from_utf8(out).unwrap();
        assert_eq!(code, 1, "{text}");
        let want = format!(
            "\njudge it again: ./target/release/kit judge zhuguosha --dir {} -- false\n",
            crate::cases::display(&failures)
        );
        assert!(text.ends_with(&want), "{text}");
    }

    #[test]
    fn options_take_values_inline_or_next_and_dir_repeats() {
        let words: Vec<OsString> =
            ["zhuguosha", "--dir", "a", "--dir=b", "--time-limit", "5", "--", "prog", "--dir", "c"]
                .iter()
                .map(OsString::from)
                .collect();
        let o = JudgeOptions::parse(&words).unwrap();
        assert_eq!(o.problem.name(), "zhuguosha");
        assert_eq!(o.dirs, [PathBuf::from("a"), PathBuf::from("b")]);
        assert_eq!(o.time_limit, Duration::from_millis(5));
        assert_eq!(o.cmd.to_string(), "prog --dir c");
    }
}
