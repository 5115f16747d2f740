//! The one command-line contract of the five programs (docs/contract.md),
//! point by point, across all of them: `--help` anywhere prints the help in
//! its layout and exits 0; each message kind has its one wording; the exit
//! codes 1, 2 and 3 mean the same everywhere; no program panics, also not
//! on a non-UTF-8 argument, an unreadable stdin or an unwritable stdout or
//! stderr; and the sources keep the contract's shapes (`Command`,
//! `parse_args`, `Failure`, `solve`, no `eprintln!`, the section order).

mod common;

use assert_cmd::Command;
use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::process::{Output, Stdio};
use std::time::Duration;

/// A guard against a hang only: every run here ends at once.
const LIMIT: Duration = Duration::from_secs(20);

/// The four judge solvers (the fifth program, `ji`, is the trainer).
const JUDGE_SOLVERS: [&str; 4] = ["zhuguosha", "ants_battle", "ji_referee", "ji_solver"];

/// The help's labels, in order, each padded to the column of the text.
const LABELS: [&str; 5] = ["usage:   ", "input:   ", "output:  ", "options: ", "exit:    "];

/// How every help's exit section begins (whitespace aside).
const EXIT_CODES: &str =
    "0 ok, 1 unreadable input or unwritable output, 2 bad input or argument, 3 ";

/// What a program got on stdin.
enum Stdin<'a> {
    Bytes(&'a [u8]),
    /// A directory: reading it fails (EISDIR).
    Unreadable,
}

/// Where a program's stdout or stderr goes.
#[derive(Clone, Copy, PartialEq)]
enum Sink {
    Captured,
    /// `/dev/full`: every write fails (ENOSPC).
    Full,
}

/// What one run left: exit code, stdout, stderr.
struct Outcome {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// A fresh empty working directory, so that no run (`ji` saves archives)
/// touches the repository.
struct Scratch(PathBuf);

impl Scratch {
    fn new(bin: &str) -> Scratch {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let k = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir =
            std::env::temp_dir().join(format!("judge-sims-cli-{bin}-{}-{k}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temporary directory");
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs `check` for every program in `programs`, and then fails naming
/// each program it failed for (each failure's message is printed as it
/// happens): one run shows every program that breaks the contract.
fn each_program<P: AsRef<str>>(programs: impl IntoIterator<Item = P>, check: impl Fn(&str)) {
    let failed: Vec<String> = programs
        .into_iter()
        .map(|p| p.as_ref().to_string())
        .filter(|bin| std::panic::catch_unwind(AssertUnwindSafe(|| check(bin))).is_err())
        .collect();
    assert!(failed.is_empty(), "failed for {failed:?} (messages above)");
}

/// Runs `bin` and checks what holds for every run: it exits (no signal),
/// and it neither panics nor says so.
fn launch(bin: &str, args: &[OsString], stdin: Stdin, stdout: Sink, stderr: Sink) -> Outcome {
    let dir = Scratch::new(bin);
    let output: Output = match (&stdin, stdout, stderr) {
        (Stdin::Bytes(bytes), Sink::Captured, Sink::Captured) => Command::new(common::exe(bin))
            .args(args)
            .current_dir(&dir.0)
            .write_stdin(bytes.to_vec())
            .timeout(LIMIT)
            .output()
            .expect("run"),
        _ => {
            // assert_cmd pipes every stream: these runs set them by hand.
            let sink = |s: Sink| match s {
                Sink::Captured => Stdio::piped(),
                Sink::Full => Stdio::from(File::create("/dev/full").expect("/dev/full")),
            };
            let mut cmd = std::process::Command::new(common::exe(bin));
            cmd.args(args).current_dir(&dir.0).stdout(sink(stdout)).stderr(sink(stderr));
            let input = match stdin {
                Stdin::Bytes(bytes) => {
                    let path = dir.0.join("stdin");
                    std::fs::write(&path, bytes).expect("scratch stdin");
                    File::open(path).expect("scratch stdin")
                }
                Stdin::Unreadable => File::open(&dir.0).expect("a directory opens for reading"),
            };
            cmd.stdin(Stdio::from(input));
            cmd.output().expect("run")
        }
    };
    let outcome = Outcome {
        code: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    };
    let shown = format!("{bin} {args:?}: stderr {:?}", outcome.stderr);
    assert!(outcome.code.is_some(), "{shown}: killed by a signal");
    assert_ne!(outcome.code, Some(101), "{shown}: exit code 101 is a panic");
    assert!(!outcome.stderr.contains("panicked"), "{shown}");
    assert!(!outcome.stderr.contains("RUST_BACKTRACE"), "{shown}");
    outcome
}

/// Runs `bin` with `args` on `input`, capturing both streams.
fn run(bin: &str, args: &[&str], input: &[u8]) -> Outcome {
    launch(bin, &os(args), Stdin::Bytes(input), Sink::Captured, Sink::Captured)
}

/// Runs `bin` with `args` that need not be UTF-8, on empty stdin.
fn run_os(bin: &str, args: &[OsString]) -> Outcome {
    launch(bin, args, Stdin::Bytes(b""), Sink::Captured, Sink::Captured)
}

fn os(args: &[&str]) -> Vec<OsString> {
    args.iter().map(OsString::from).collect()
}

#[cfg(unix)]
fn not_utf8() -> OsString {
    use std::os::unix::ffi::OsStrExt;
    OsStr::from_bytes(b"--\xff\xfe").to_os_string()
}

/// Exit code `code`, nothing on stdout, and exactly one stderr line, which
/// is `want` (or starts with it when `want` ends in a space).
fn assert_refused(bin: &str, what: &str, run: &Outcome, code: i32, want: &str) {
    let shown = format!("{bin} ({what}): stderr {:?}", run.stderr);
    assert_eq!(run.code, Some(code), "{shown}");
    assert_eq!(run.stdout, "", "{shown}: stdout");
    assert_eq!(run.stderr.matches('\n').count(), 1, "{shown}: one line");
    assert!(run.stderr.ends_with('\n'), "{shown}");
    let line = run.stderr.trim_end_matches('\n');
    if want.ends_with(' ') {
        assert!(line.starts_with(want), "{shown}: want {want:?}...");
        assert!(line.len() > want.len(), "{shown}: nothing after {want:?}");
    } else {
        assert_eq!(line, want, "{shown}");
    }
}

/// The options a program's help lists: the `--name` that opens a line of
/// its options section.
fn listed_options(help: &str) -> Vec<String> {
    let mut in_options = false;
    let mut found = Vec::new();
    for line in help.lines() {
        if LABELS.iter().any(|l| line.starts_with(l)) {
            in_options = line.starts_with("options: ");
        }
        let text = line.get(LABELS[0].len()..).unwrap_or("");
        if in_options && text.starts_with("--") {
            found.push(text.split_whitespace().next().unwrap_or("").to_string());
        }
    }
    found
}

/// The help layout of docs/contract.md: `<bin>: <description>.`, then the
/// labels `usage:`, `input:`, `output:`, `options:`, `exit:` in this order,
/// each once, every other line indented to the text column; the options
/// list `--help`; the exit section gives the one meaning of 0, 1 and 2.
fn check_help_layout(bin: &str, help: &str) {
    let lines: Vec<&str> = help.lines().collect();
    assert!(help.ends_with('\n'), "{bin}: the help ends with a newline");
    let first = lines.first().copied().unwrap_or("");
    assert!(
        first.starts_with(&format!("{bin}: ")) && first.ends_with('.'),
        "{bin}: the first help line is `{bin}: <one-line description>.`, got {first:?}"
    );
    let mut next_label = 0;
    let mut sections: Vec<String> = vec![String::new(); LABELS.len()];
    for line in &lines[1..] {
        if let Some(k) = LABELS.iter().position(|l| line.starts_with(l)) {
            assert_eq!(k, next_label, "{bin}: help label {:?} out of order or repeated", LABELS[k]);
            next_label += 1;
        } else {
            assert!(
                next_label > 0 && line.starts_with(&" ".repeat(LABELS[0].len())),
                "{bin}: a help line that is neither a label nor indented to its text: {line:?}"
            );
        }
        let text = &sections[next_label - 1];
        sections[next_label - 1] = format!("{text} {}", &line[LABELS[0].len()..]);
    }
    assert_eq!(next_label, LABELS.len(), "{bin}: the help lacks {:?}", LABELS.get(next_label));
    let words = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let usage = words(&sections[0]);
    assert!(
        usage.starts_with(&format!("{bin} ")),
        "{bin}: usage starts with the program's name: {usage:?}"
    );
    assert!(
        words(&sections[3]).contains("--help print this help and exit"),
        "{bin}: the options list `--help    print this help and exit`"
    );
    let exit = words(&sections[4]);
    assert!(
        exit.starts_with(EXIT_CODES) && exit.len() > EXIT_CODES.len(),
        "{bin}: the exit section reads `{EXIT_CODES}<meaning of 3>`, got {exit:?}"
    );
}

fn help_of(bin: &str) -> String {
    let out = run(bin, &["--help"], b"");
    assert_eq!(out.code, Some(0), "{bin} --help: {:?}", out.stderr);
    out.stdout
}

#[test]
fn help_has_the_one_layout() {
    each_program(common::binaries(), |bin| {
        check_help_layout(bin, &help_of(bin));
    });
}

#[test]
fn help_anywhere_prints_the_help_and_exits_0() {
    // The options each program is known to have (the ones the contract
    // names), and every option its help lists.
    let known = [
        ("zhuguosha", &["--strict", "--trace"][..]),
        ("ants_battle", &["--explain", "--threads"]),
        ("ji_referee", &["--strict", "--trace"]),
        ("ji_solver", &["--strict", "--strategy"]),
        ("ji", &["--seed", "--variant", "--archive"]),
    ];
    each_program(common::binaries(), |bin| {
        let help = help_of(bin);
        let mut options = listed_options(&help);
        for (name, list) in known {
            if name == bin {
                options.extend(list.iter().map(|o| o.to_string()));
            }
        }
        let mut lines: Vec<Vec<&str>> = vec![
            vec!["-h"],
            vec!["--help", "--no-such-option"],
            vec!["--no-such-option", "--help"],
            vec!["stray", "-h"],
        ];
        for option in &options {
            // Also where `--help` would be an option's value.
            lines.push(vec![option.as_str(), "--help"]);
            lines.push(vec!["--help", option.as_str()]);
        }
        for args in lines {
            let out = run(bin, &args, b"");
            assert_eq!(out.code, Some(0), "{bin} {args:?}: {:?}", out.stderr);
            assert_eq!(out.stdout, help, "{bin} {args:?}: the same help");
            assert_eq!(out.stderr, "", "{bin} {args:?}: stderr");
        }
        #[cfg(unix)]
        {
            let args = [not_utf8(), OsString::from("--help")];
            let out = run_os(bin, &args);
            assert_eq!(out.code, Some(0), "{bin} <non-UTF-8> --help");
            assert_eq!(out.stdout, help);
        }
    });
}

#[test]
fn an_unknown_option_has_one_wording() {
    each_program(common::binaries(), |bin| {
        for (args, bad) in [
            (&["--no-such-option"][..], "--no-such-option"),
            (&["-x"], "-x"),
            (&["--no-such-option", "--other"], "--no-such-option"),
        ] {
            let want = format!("{bin}: unknown option '{bad}' (see --help)");
            assert_refused(bin, "unknown option", &run(bin, args, b""), 2, &want);
        }
    });
}

#[test]
fn an_unexpected_argument_has_one_wording() {
    each_program(common::binaries(), |bin| {
        let want = format!("{bin}: unexpected argument 'stray' (see --help)");
        assert_refused(bin, "stray argument", &run(bin, &["stray"], b""), 2, &want);
    });
}

#[test]
fn an_option_value_is_checked_with_one_wording() {
    for (bin, option, bad) in [("ants_battle", "--threads", "many"), ("ji", "--seed", "x")] {
        let want = format!("{bin}: option '{option}' needs a value (see --help)");
        assert_refused(bin, "missing value", &run(bin, &[option], b""), 2, &want);
        let out = run(bin, &[option, bad], b"");
        let want = format!("{bin}: bad value '{bad}' for {option}: ");
        assert_refused(bin, "bad value", &out, 2, &want);
        assert!(
            out.stderr.trim_end().ends_with(" (see --help)"),
            "{bin}: {:?} ends with ` (see --help)`",
            out.stderr
        );
    }
}

#[test]
#[cfg(unix)]
fn a_non_utf8_argument_is_refused_without_a_panic() {
    each_program(common::binaries(), |bin| {
        let want = format!("{bin}: an argument is not valid UTF-8 (see --help)");
        for args in [vec![not_utf8()], vec![OsString::from("--strict"), not_utf8()]] {
            if args.len() == 2 && !listed_options(&help_of(bin)).iter().any(|o| o == "--strict") {
                continue;
            }
            let out = run_os(bin, &args);
            assert_refused(bin, "non-UTF-8 argument", &out, 2, &want);
        }
    });
}

/// A valid input of `bin` with its arguments: its first fixture that exits
/// 0 with an expected stdout.
fn valid_case(bin: &str) -> (Vec<u8>, Vec<String>) {
    let (cases, _) = common::cases(bin);
    let case = cases
        .iter()
        .find(|c| c.code == 0 && c.stdout.is_some() && c.args.is_empty())
        .or_else(|| cases.iter().find(|c| c.code == 0 && c.stdout.is_some()))
        .unwrap_or_else(|| panic!("{bin}: no fixture with output"));
    let input = std::fs::read(&case.input).expect("fixture");
    (input, case.args.clone())
}

#[test]
fn bad_input_names_its_line() {
    // `ji` is interactive: no commands simply means quit.
    each_program(JUDGE_SOLVERS, |bin| {
        let out = run(bin, &[], b"");
        assert_refused(bin, "empty input", &out, 2, &format!("{bin}: line 1: "));
        let out = run(bin, &[], b"\xff\xfe garbage\n");
        assert_refused(bin, "garbage", &out, 2, &format!("{bin}: line 1: "));
    });
}

/// The line of a bad input or a bad layout: `<bin>: line L: ...` or
/// `<bin>: line L column C: ...`, L and C from 1.
fn is_located(bin: &str, line: &str) -> bool {
    let rest = match line.strip_prefix(&format!("{bin}: line ")) {
        Some(rest) => rest,
        None => return false,
    };
    fn number(s: &str) -> Option<&str> {
        let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
        let n: u64 = s[..end].parse().unwrap_or(0);
        (n >= 1).then(|| &s[end..])
    }
    match number(rest) {
        Some(after) if after.starts_with(": ") => after.len() > 2,
        Some(after) => match after.strip_prefix(" column ").and_then(number) {
            Some(what) => what.starts_with(": ") && what.len() > 2,
            None => false,
        },
        None => false,
    }
}

/// Every expected stderr line of an exit-2 fixture is in one of the
/// contract's wordings.
#[test]
fn every_exit_2_fixture_uses_a_contract_wording() {
    let argument_wordings = [
        "unknown option '",
        "unexpected argument '",
        "option '",
        "bad value '",
        "an argument is not valid UTF-8",
    ];
    each_program(common::binaries(), |bin| {
        let (cases, _) = common::cases(bin);
        for case in cases.iter().filter(|c| c.code == 2) {
            let Some(err) = &case.stderr else { continue };
            let text = common::read_text(err);
            // A trace (`--trace`) may come before the error line.
            let line = text.trim_end().lines().last().unwrap_or("");
            let argument = argument_wordings.iter().any(|w| {
                line.starts_with(&format!("{bin}: {w}")) && line.ends_with(" (see --help)")
            });
            assert!(
                argument || is_located(bin, line),
                "{}: {line:?} is in no wording of docs/contract.md",
                common::rel(err)
            );
        }
    });
}

#[test]
fn a_bad_layout_names_line_and_column_under_strict() {
    each_program(common::binaries(), |bin| {
        if !listed_options(&help_of(bin)).iter().any(|o| o == "--strict") {
            return;
        }
        let (input, args) = valid_case(bin);
        let mut args: Vec<&str> = args.iter().map(String::as_str).collect();
        args.push("--strict");
        let mut shifted = b" ".to_vec();
        shifted.extend_from_slice(&input);
        let out = run(bin, &args, &shifted);
        let want = format!("{bin}: line 1 column 1: ");
        assert_refused(bin, "leading space under --strict", &out, 2, &want);
    });
}

/// Exit code 3 is the same class in every solver that has one: a valid
/// input without an exact answer, with one stderr line. Each such solver
/// has at least one fixture that shows it.
#[test]
fn no_exact_answer_is_exit_3_with_one_line() {
    each_program(["zhuguosha", "ji_solver"], |bin| {
        let (cases, _) = common::cases(bin);
        let case = cases
            .iter()
            .find(|c| c.code == 3)
            .unwrap_or_else(|| panic!("{bin}: no fixture with exit code 3"));
        let input = std::fs::read(&case.input).expect("fixture");
        let args: Vec<&str> = case.args.iter().map(String::as_str).collect();
        let out = run(bin, &args, &input);
        assert_eq!(out.code, Some(3), "{bin}: {:?}", out.stderr);
        assert_eq!(out.stderr.matches('\n').count(), 1, "{bin}: {:?}", out.stderr);
        assert!(out.stderr.starts_with(&format!("{bin}: ")), "{:?}", out.stderr);
        assert!(!is_located(bin, out.stderr.trim_end()), "not bad input");
    });
}

#[test]
#[cfg(unix)]
fn an_unreadable_input_is_exit_1_with_one_wording() {
    each_program(common::binaries(), |bin| {
        let mut out = launch(bin, &[], Stdin::Unreadable, Sink::Captured, Sink::Captured);
        if bin == "ji" {
            // An interactive program greets before it reads its first
            // command; what matters is the exit code and the one line.
            out.stdout.clear();
        }
        let want = format!("{bin}: cannot read the input: ");
        assert_refused(bin, "stdin a directory", &out, 1, &want);
    });
}

#[test]
#[cfg(target_os = "linux")]
fn an_unwritable_output_is_exit_1_with_one_wording() {
    each_program(common::binaries(), |bin| {
        let (input, args) = valid_case(bin);
        let args: Vec<OsString> = args.iter().map(OsString::from).collect();
        let want = format!("{bin}: cannot write the output: ");
        let out = launch(bin, &args, Stdin::Bytes(&input), Sink::Full, Sink::Captured);
        assert_refused(bin, "stdout /dev/full", &out, 1, &want);
        let help = os(&["--help"]);
        let out = launch(bin, &help, Stdin::Bytes(b""), Sink::Full, Sink::Captured);
        assert_refused(bin, "--help to /dev/full", &out, 1, &want);
    });
}

/// `main` writes its one line with `writeln!(io::stderr())` and ignores a
/// failed write, where `eprintln!` would panic (exit 101): the exit code
/// still tells what went wrong.
#[test]
#[cfg(target_os = "linux")]
fn an_unwritable_stderr_changes_no_exit_code() {
    each_program(common::binaries(), |bin| {
        let args = os(&["--no-such-option"]);
        let out = launch(bin, &args, Stdin::Bytes(b""), Sink::Captured, Sink::Full);
        assert_eq!(out.code, Some(2), "{bin}: a bad argument, stderr full");
        if bin != "ji" {
            let out = launch(bin, &[], Stdin::Bytes(b""), Sink::Captured, Sink::Full);
            assert_eq!(out.code, Some(2), "{bin}: empty input, stderr full");
        }
    });
}

/// The text of `bin`'s sources, its unit tests left out.
fn source(bin: &str) -> String {
    common::sources(bin)
        .iter()
        .map(|p| std::fs::read_to_string(p).expect("source"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The code of `text` on one line, as rustfmt's layouts all read: comment
/// lines left out, every run of whitespace one space, no space after `(`
/// and no trailing comma before `)` or `}`.
fn squeezed(text: &str) -> String {
    let code = text.lines().filter(|l| !l.trim_start().starts_with("//"));
    let words: Vec<&str> = code.flat_map(str::split_whitespace).collect();
    words.join(" ").replace("( ", "(").replace(", )", ")").replace(",)", ")").replace(", }", " }")
}

/// The variant names of `enum Failure` in `text`.
fn failure_variants(bin: &str, text: &str) -> Vec<String> {
    let start = text.find("enum Failure {").unwrap_or_else(|| panic!("{bin}: no `enum Failure`"));
    let body = &text[start..];
    let body = &body[..body.find("\n}").expect("enum end")];
    body.lines()
        .skip(1)
        .filter(|l| l.starts_with("    ") && !l.starts_with("     "))
        .map(str::trim_start)
        .filter(|l| l.starts_with(|c: char| c.is_ascii_uppercase()))
        .map(|l| {
            let end = l.find(|c: char| !c.is_ascii_alphanumeric()).unwrap_or(l.len());
            l[..end].to_string()
        })
        .collect()
}

#[test]
fn sources_keep_the_contract_shapes() {
    let names = [
        "BadArgument",
        "BadInput",
        "BadLayout",
        "NoExactAnswer",
        "UnreadableInput",
        "UnwritableOutput",
    ];
    each_program(common::binaries(), |bin| {
        let text = source(bin);
        let flat = squeezed(&text);
        for shape in [
            "enum Command { Help, Run(Options) }",
            "fn parse_args(args: impl Iterator<Item = OsString>) -> Result<Command, Failure>",
            "struct Options {",
            "fn exit_code(&self) -> i32",
            "writeln!(io::stderr()",
        ] {
            assert!(flat.contains(shape), "{bin}: no `{shape}`");
        }
        for variant in failure_variants(bin, &text) {
            assert!(
                names.contains(&variant.as_str()),
                "{bin}: Failure::{variant} is not a contract name {names:?}"
            );
        }
        for name in ["BadArgument", "BadInput", "UnreadableInput", "UnwritableOutput"] {
            let variants = failure_variants(bin, &text);
            assert!(variants.iter().any(|v| v == name), "{bin}: no Failure::{name}");
        }
        // `ji` reads two files, so its `BadInput` also names the file (and
        // has no line for a variant beyond its capacity).
        let bad_input = match bin {
            "ji" => "BadInput { file: String, line: Option<usize>, what: String }",
            _ => "BadInput { line: usize, what: String }",
        };
        assert!(flat.contains(bad_input), "{bin}: no `{bad_input}`");
        for call in ["eprintln!(", "eprint!("] {
            let why = "panics when stderr cannot be written";
            assert!(!flat.contains(call), "{bin}: `{call}` {why}");
        }
    });
    each_program(JUDGE_SOLVERS, |bin| {
        let flat = squeezed(&source(bin));
        let solve = "pub fn solve(input: Vec<u8>, options: &Options, out: &mut impl Write, ";
        let found = flat.find(solve).map(|at| &flat[at + solve.len()..]);
        let tail = found.unwrap_or_else(|| panic!("{bin}: no `{solve}...`"));
        assert!(
            tail.starts_with("trace: &mut impl Write) -> Result<(), Failure>")
                || tail.starts_with("_trace: &mut impl Write) -> Result<(), Failure>"),
            "{bin}: solve ends `trace: &mut impl Write) -> Result<(), Failure>`: {}",
            &tail[..tail.len().min(80)]
        );
    });
}

/// The section lines of a file: `// ---- <name> ` and dashes to column 80.
fn sections(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.starts_with("// ---- "))
        .map(|l| {
            let name = l["// ---- ".len()..].trim_end_matches('-').trim_end();
            assert_eq!(l.chars().count(), 80, "{l:?}: padded to 80 columns");
            assert!(l.ends_with(" -") || l.ends_with("--"), "{l:?}");
            name.to_string()
        })
        .collect()
}

#[test]
fn solver_files_keep_the_section_order() {
    each_program(common::binaries(), |bin| {
        let files = common::sources(bin);
        if files.len() > 1 || files[0].ends_with("main.rs") {
            // `ji` as a folder: its modules are its sections.
            return;
        }
        let text = std::fs::read_to_string(&files[0]).expect("source");
        assert!(text.starts_with("//! "), "{bin}: the module doc comes first");
        let found = sections(&text);
        let fixed = ["input", "model", "rules", "output"];
        let at: Vec<Option<usize>> =
            fixed.iter().map(|n| found.iter().position(|f| f == n)).collect();
        assert!(
            at.iter().all(Option::is_some) && at.windows(2).all(|w| w[0] < w[1]),
            "{bin}: sections {found:?}, want input, model, rules, output, ..., command line"
        );
        assert_eq!(at[0], Some(0), "{bin}: `input` is the first section: {found:?}");
        // The copied shared blocks may close the file, after the command line.
        let own = match found.last().map(String::as_str) {
            Some(last) if last.starts_with("shared blocks") => &found[..found.len() - 1],
            _ => &found[..],
        };
        assert_eq!(
            own.last().map(String::as_str),
            Some("command line"),
            "{bin}: `command line` is the last own section: {found:?}"
        );
        // Extra sections come after `rules`: the solving steps between
        // `rules` and `output`, explanations between `output` and `command line`.
        let rules = at[2].unwrap_or(0);
        assert!(
            found[..rules].iter().all(|f| fixed.contains(&f.as_str())),
            "{bin}: an extra section before `rules`: {found:?}"
        );
    });
}

/// `--validate` (a Kattis input validator, docs/contract.md) agrees with
/// `--strict` on every fixture of every judge solver that has `--strict`:
/// where `--strict` answers (exit 0) or finds no exact answer (exit 3) it
/// exits 42 and writes nothing; where `--strict` refuses the input (exit
/// 2) it exits 43 with the same one line on stderr and nothing on stdout.
/// A solver without `--strict` refuses `--validate` as a bad argument.
#[test]
fn validate_is_strict_with_the_validator_exit_codes() {
    each_program(JUDGE_SOLVERS, |bin| {
        if !listed_options(&help_of(bin)).iter().any(|o| o == "--strict") {
            let want = format!("{bin}: --validate needs --strict, which {bin} lacks (see --help)");
            let (input, _) = valid_case(bin);
            assert_refused(
                bin,
                "--validate without --strict",
                &run(bin, &["--validate"], &input),
                2,
                &want,
            );
            return;
        }
        let (cases, _) = common::cases(bin);
        let mut seen = [0; 3];
        for case in &cases {
            let input = std::fs::read(&case.input).expect("fixture");
            let strict = run(bin, &["--strict"], &input);
            let name = common::rel(&case.input);
            let out = run(bin, &["--validate"], &input);
            assert_eq!(out.stdout, "", "{name}: --validate writes nothing on stdout");
            match strict.code {
                Some(0) | Some(3) => {
                    assert_eq!(out.code, Some(42), "{name}: valid: {:?}", out.stderr);
                    assert_eq!(out.stderr, "", "{name}: valid");
                    seen[strict.code.unwrap_or(0) as usize / 3] += 1;
                }
                Some(2) => {
                    assert_eq!(out.code, Some(43), "{name}: invalid: {:?}", strict.stderr);
                    assert_eq!(out.stderr, strict.stderr, "{name}: --strict's one line");
                    seen[2] += 1;
                }
                code => panic!("{name}: --strict exit {code:?}"),
            }
        }
        assert!(seen[0] > 0 && seen[2] > 0, "{bin}: fixtures both valid and invalid: {seen:?}");
        // Options mix: `--validate` with the program's other options, in
        // either order, still writes nothing.
        let (input, _) = valid_case(bin);
        for option in listed_options(&help_of(bin)) {
            if ["--help", "--validate", "--threads"].contains(&option.as_str()) {
                continue;
            }
            for args in [["--validate", option.as_str()], [option.as_str(), "--validate"]] {
                let out = run(bin, &args, &input);
                assert_eq!(
                    (out.code, out.stdout.as_str(), out.stderr.as_str()),
                    (Some(42), "", ""),
                    "{bin} {args:?}"
                );
            }
        }
    });
    // Exit 3 (no exact answer) is a valid input: the validator accepts it.
    each_program(["zhuguosha", "ji_solver"], |bin| {
        let (cases, _) = common::cases(bin);
        let case = cases.iter().find(|c| c.code == 3).expect("an exit-3 fixture");
        let input = std::fs::read(&case.input).expect("fixture");
        let strict = run(bin, &["--strict"], &input);
        if strict.code == Some(3) {
            assert_eq!(run(bin, &["--validate"], &input).code, Some(42), "{bin}: exit 3 is valid");
        }
    });
}

/// The one way a message shows an input token (docs/contract.md): the
/// same `show` in every program, escaping and cut alike (the marked block
/// `shared: show`, master zhuguosha.rs).
#[test]
fn every_program_shows_a_token_the_same_way() {
    let head = "pub(crate) fn show(token: &[u8]) -> String {";
    let of = |bin: &str| {
        let text = source(bin);
        let start = text.find(head).unwrap_or_else(|| panic!("{bin}: no `{head}`"));
        let end = start + text[start..].find("\n}\n").expect("end of show");
        text[start..end].to_string()
    };
    let master = of("zhuguosha");
    each_program(common::binaries(), |bin| {
        assert!(of(bin) == master, "{bin}: `show` differs from zhuguosha's");
    });
}
