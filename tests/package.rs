//! `kit package`: the Kattis problem package of every problem holds the
//! expected files with our answers; its input validator (our solver with
//! `--validate`) agrees with `SOLVER --strict` on the package's data and on
//! mutations of it; bad command lines leave nothing behind; and, where
//! problemtools is installed, `verifyproblem` accepts each package with 0
//! errors and 0 warnings (besides the pending ones named below).

mod common;

use common::solver;

use kit::cli::captured as kit;
use kit::scratch::Scratch;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const PROBLEMS: [&str; 4] = ["zhuguosha", "ants_battle", "ji_referee", "ji_solver"];

/// The package folder's name: problemtools' short name, [a-z0-9]+.
fn short(problem: &str) -> String {
    problem.replace('_', "")
}

/// Writes the package of `problem` below `scratch` with `kit package`.
fn package(problem: &str, scratch: &Scratch) -> PathBuf {
    let dir = scratch.path().join(short(problem));
    let (code, out, err) =
        kit(&["package", problem, "--out", dir.to_str().unwrap(), "--solver", solver(problem)]);
    assert_eq!(code, 0, "kit package {problem}: {err}");
    assert!(out.contains("secret cases"), "{out}");
    dir
}

fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = match fs::read_dir(dir) {
        Ok(entries) => entries
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == ext))
            .collect(),
        Err(_) => Vec::new(),
    };
    found.sort();
    found
}

/// Runs `solver ARGS < input`: the exit code and stdout.
fn run(solver: &str, args: &[&str], input: &[u8]) -> (i32, Vec<u8>) {
    let dir = Scratch::new("package-run");
    let file = dir.path().join("in");
    fs::write(&file, input).unwrap();
    let out = Command::new(solver)
        .args(args)
        .stdin(fs::File::open(&file).unwrap())
        .stderr(Stdio::null())
        .output()
        .unwrap();
    (out.status.code().unwrap_or(-1), out.stdout)
}

#[test]
fn every_package_holds_its_files_with_our_answers() {
    let scratch = Scratch::new("package-files");
    for problem in PROBLEMS {
        let dir = package(problem, &scratch);
        for file in ["problem.yaml", "problem_statement/problem.en.tex"] {
            assert!(dir.join(file).is_file(), "{problem}: no {file}");
        }
        let yaml = fs::read_to_string(dir.join("problem.yaml")).unwrap();
        assert!(yaml.contains("uuid: ") && yaml.contains("license: "), "{problem}: {yaml}");
        let testdata = fs::read_to_string(dir.join("data/testdata.yaml")).unwrap();
        assert_eq!(testdata, "input_validator_flags: --validate\n");
        let source = fs::read(common::root().join(format!("src/bin/{problem}.rs"))).unwrap();
        for copy in [
            format!("submissions/accepted/{problem}.rs"),
            format!("input_validators/strict/{problem}.rs"),
        ] {
            assert_eq!(fs::read(dir.join(&copy)).unwrap(), source, "{problem}: {copy}");
        }
        assert!(
            yaml.lines().any(|l| l == "validation: custom"),
            "{problem}: our output validator is not selected"
        );
        the_output_validator_is_our_rule(problem, &dir);
        assert!(dir.join("submissions/accepted/loose_whitespace.rs").is_file(), "{problem}");
        let wrong = files(&dir.join("submissions/wrong_answer"), "rs");
        assert!(wrong.len() >= 2, "{problem}: {} planted wrong answers", wrong.len());
        for planted in &wrong {
            assert_ne!(fs::read(planted).unwrap(), source, "{}", planted.display());
        }
        let samples = files(&dir.join("data/sample"), "in");
        let secret = files(&dir.join("data/secret"), "in");
        assert!(!samples.is_empty(), "{problem}: no sample");
        assert!(secret.len() >= 50, "{problem}: only {} secret cases", secret.len());
        // Every answer is our solver's output (checked on the small ones:
        // this is a debug build).
        for input in samples.iter().chain(&secret) {
            let bytes = fs::read(input).unwrap();
            if bytes.len() > 100_000 {
                continue;
            }
            let (code, out) = run(solver(problem), &["--strict"], &bytes);
            assert_eq!(code, 0, "{}", input.display());
            assert_eq!(out, fs::read(input.with_extension("ans")).unwrap(), "{}", input.display());
        }
    }
}

/// Both 集 statements describe lasting effects (the `lasting` section; the
/// solver's also the queries that name lost skills), so no fixture with the
/// section is marked `.beyond`, and each one that expects an answer without
/// special arguments is package data (as a sample or a secret case); each
/// package has a sample with the section.
#[test]
fn the_lasting_fixtures_are_package_data() {
    let scratch = Scratch::new("package-lasting");
    for (problem, words) in [("ji_referee", &["lasting"][..]), ("ji_solver", &["lasting", "lost"])]
    {
        let dir = package(problem, &scratch);
        let statement = fs::read_to_string(dir.join("problem_statement/problem.en.tex")).unwrap();
        for word in words {
            assert!(statement.contains(&format!("\\texttt{{{word} $")), "{problem}: {word}");
        }
        let mut inputs = files(&dir.join("data/sample"), "in");
        let samples = inputs.len();
        inputs.extend(files(&dir.join("data/secret"), "in"));
        let data: Vec<Vec<u8>> = inputs.iter().map(|f| fs::read(f).unwrap()).collect();
        let lasting = |bytes: &[u8]| String::from_utf8_lossy(bytes).contains("\nlasting ");
        assert!(data[..samples].iter().any(|d| lasting(d)), "{problem}: no lasting sample");
        let (fixtures, _) = common::cases(problem);
        let mut joined = 0;
        for case in fixtures {
            let input = fs::read(&case.input).unwrap();
            if !lasting(&input) {
                continue;
            }
            // Past the statement's five taken sets an answered case is ours
            // alone (.beyond); no other lasting case is marked.
            let answered = case.args.is_empty() && case.code == 0;
            let past = problem == "ji_solver"
                && answered
                && taken_sets(&String::from_utf8_lossy(&input)) > 5;
            let rel = common::rel(&case.input);
            assert_eq!(case.beyond.is_some(), past && answered, "{rel}: .beyond");
            if answered && !past {
                assert!(data.contains(&input), "{rel}: not in the package");
                joined += 1;
            }
        }
        if problem == "ji_referee" {
            assert!(joined >= 7, "{problem}: {joined} lasting fixtures in the package");
        } else {
            for (input, bytes) in inputs.iter().zip(&data) {
                let taken = taken_sets(&String::from_utf8_lossy(bytes));
                assert!(taken <= 5, "{}: {taken} taken sets (the statement: 5)", input.display());
            }
        }
    }
}

/// How many different sets of skills the lasting effects of a 集 input
/// take (0 without the section): after the n skills, `lasting m` and one
/// record per line, `s j met.. t taken..`, as `--strict` lays it out.
fn taken_sets(input: &str) -> usize {
    let mut lines = input.lines();
    let n: usize = lines.next().unwrap().parse().unwrap();
    let mut lines = lines.skip(n);
    let Some(header) = lines.next().filter(|l| l.starts_with("lasting ")) else { return 0 };
    let m: usize = header["lasting ".len()..].parse().unwrap();
    let mut sets: Vec<Vec<&str>> = lines
        .take(m)
        .map(|record| {
            let words: Vec<&str> = record.split(' ').collect();
            let j: usize = words[1].parse().unwrap();
            let mut taken = words[3 + j..].to_vec();
            taken.sort_unstable();
            taken
        })
        .collect();
    sets.sort();
    sets.dedup();
    sets.len()
}

/// An output to judge against our answer, and the verdict that the
/// rule's own words give it (None: whatever `kit judge` says).
struct Variant {
    text: String,
    accepted: Option<bool>,
}

/// Outputs that differ from `answer` in whitespace, case or line
/// structure only, and (for a tolerance) in a number's last digits.
fn variants(answer: &str, rule: common::Rule) -> Vec<Variant> {
    let is = |text: String, accepted: Option<bool>| Variant { text, accepted };
    let loose: String = answer.lines().map(|l| format!("{l}  \r\n")).collect();
    let (lower, upper) = (answer.to_ascii_lowercase(), answer.to_ascii_uppercase());
    let cased = |text: &str| (text != answer).then_some(false);
    let many_lines = answer.lines().count() > 1;
    let mut out = vec![
        is(answer.to_string(), Some(true)),
        is(format!("{loose}\r\n\n"), Some(true)),
        is(lower.clone(), cased(&lower)),
        is(upper.clone(), cased(&upper)),
        is(answer.split_whitespace().collect::<Vec<_>>().join(" "), many_lines.then_some(false)),
        is(answer.replace('\n', "\n\n"), many_lines.then_some(false)),
        is(answer.replacen(' ', "  ", 1), None),
        is(answer.trim_end().to_string(), Some(true)),
        is(String::new(), Some(false)),
    ];
    if let common::Rule::Tolerance(t) = rule {
        for (delta, accepted) in [(t / 2.0, true), (t * 2.0, false)] {
            let shifted: Vec<String> = answer
                .split_whitespace()
                .map(|v| v.parse::<f64>().map_or(v.to_string(), |x| format!("{:.9}", x + delta)))
                .collect();
            out.push(is(shifted.join("\n"), Some(accepted)));
        }
    }
    out
}

/// The package's output validator, built by its own build script as a
/// judge builds it, gives exactly `kit judge`'s verdict on our answers
/// and on variants of them (42 the same, 43 and a judge message not):
/// forgiving trailing spaces, CRLF and blank lines at the end, never case
/// or line structure.
fn the_output_validator_is_our_rule(problem: &str, dir: &Path) {
    let scratch = Scratch::new("package-output-validator");
    let build = scratch.path().join("compare");
    fs::create_dir(&build).unwrap();
    for file in ["build", "compare.rs"] {
        fs::copy(dir.join("output_validators/compare").join(file), build.join(file)).unwrap();
    }
    let built = Command::new("./build").current_dir(&build).output().unwrap();
    assert!(built.status.success(), "{problem}: the validator does not build: {built:?}");
    let rule = common::rule(problem);
    let (mut accepted, mut rejected) = (0, 0);
    let cases = files(&dir.join("data/secret"), "ans");
    for ans in cases.iter().take(12) {
        let answer = fs::read_to_string(ans).unwrap();
        for variant in variants(&answer, rule) {
            let team = variant.text;
            let feedback = scratch.path().join("feedback");
            let _ = fs::remove_dir_all(&feedback);
            fs::create_dir(&feedback).unwrap();
            let output = scratch.path().join("team.out");
            fs::write(&output, &team).unwrap();
            let code = Command::new(build.join("run"))
                .arg(ans.with_extension("in"))
                .arg(ans)
                .arg(&feedback)
                .stdin(fs::File::open(&output).unwrap())
                .status()
                .unwrap()
                .code();
            let message = fs::read_to_string(feedback.join("judgemessage.txt")).unwrap_or_default();
            let judged = common::compare(&answer, &team, rule);
            if let Some(accepted) = variant.accepted {
                assert_eq!(judged.is_none(), accepted, "{problem}: kit judge on\n{team}");
            }
            match judged {
                None => {
                    assert_eq!(code, Some(42), "{problem}: refused:\n{team}\n{message}");
                    accepted += 1;
                }
                Some(m) => {
                    assert_eq!(code, Some(43), "{problem}: accepted:\n{team}");
                    assert!(message.starts_with(&format!("line {}: ", m.line + 1)), "{message}");
                    rejected += 1;
                }
            }
        }
    }
    // Each case: at least ours and the loose one accepted, the empty
    // output refused.
    assert!(accepted >= 2 * cases.len().min(12), "{problem}: {accepted} accepted");
    assert!(rejected >= cases.len().min(12), "{problem}: {rejected} rejected");
}

/// The mutations verifyproblem tries, and a few more: each must be
/// refused by the validator exactly when `--strict` refuses it.
fn mutations(text: &[u8]) -> Vec<Vec<u8>> {
    let s = String::from_utf8_lossy(text).to_string();
    let mut out = vec![
        s.replacen(' ', "  ", 1),
        s.replacen('\n', " \n", 1),
        s.replacen('\n', "\n\n", 1),
        format!("{s}junk"),
        format!("0{s}"),
        s.trim_end().to_string(),
        s.replacen('\n', "\r\n", 1),
        s.replacen(' ', "\t", 1),
    ];
    if let Some(k) = s.find(|c: char| c.is_ascii_digit()) {
        out.push(format!("{}00{}", &s[..k], &s[k..]));
    }
    if let Some(k) = s.find('.') {
        let digits = s[k + 1..].find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len() - k - 1);
        let end = k + 1 + digits;
        out.push(format!("{}0{}", &s[..end], &s[end..]));
    }
    out.into_iter().map(String::into_bytes).collect()
}

#[test]
fn the_validator_agrees_with_strict_on_the_data_and_on_mutations() {
    let scratch = Scratch::new("package-validator");
    for problem in PROBLEMS {
        let dir = package(problem, &scratch);
        let solver = solver(problem);
        let mut inputs = files(&dir.join("data/sample"), "in");
        inputs.extend(files(&dir.join("data/secret"), "in"));
        let mut checked = 0;
        for (k, input) in inputs.iter().enumerate() {
            let bytes = fs::read(input).unwrap();
            if bytes.len() > 100_000 {
                continue;
            }
            assert_eq!(run(solver, &["--validate"], &bytes).0, 42, "{}", input.display());
            // Mutations of every fifth case: enough to meet every kind.
            if k % 5 != 0 {
                continue;
            }
            for mutated in mutations(&bytes) {
                let (strict, _) = run(solver, &["--strict"], &mutated);
                let (validate, out) = run(solver, &["--validate"], &mutated);
                let expected = if strict == 0 || strict == 3 { 42 } else { 43 };
                assert_eq!(
                    validate,
                    expected,
                    "{problem}: --strict exit {strict} but --validate {validate} on a mutation \
                     of {}:\n{}",
                    input.display(),
                    String::from_utf8_lossy(&mutated)
                );
                assert!(out.is_empty(), "--validate wrote to stdout");
                checked += 1;
            }
        }
        assert!(checked >= 50, "{problem}: only {checked} mutations");
    }
}

#[test]
fn bad_command_lines_are_one_line_and_leave_nothing() {
    let scratch = Scratch::new("package-bad");
    let out = |name: &str| scratch.path().join(name).to_str().unwrap().to_string();
    let refused = |args: &[&str], wanted: &str| {
        let (code, stdout, err) = kit(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(stdout.is_empty());
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(wanted), "{args:?}: {err}");
    };
    refused(&["package", "no_such_problem", "--out", &out("x")], "unknown problem");
    refused(&["package", "zhuguosha"], "--out DIR is required");
    let ants = solver("ants_battle");
    refused(
        &["package", "ants_battle", "--out", &out("ants_battle"), "--solver", ants],
        "short name",
    );
    let pigs = solver("zhuguosha");
    // A missing parent is said of --out, never of kit's temporary folder.
    let missing = out("missing/zhuguosha");
    refused(&["package", "zhuguosha", "--out", &missing, "--solver", pigs], "does not exist");
    let (_, _, err) = kit(&["package", "zhuguosha", "--out", &missing, "--solver", pigs]);
    assert!(err.contains(&format!("--out {missing}")), "{err}");
    assert!(!err.contains(".zhuguosha.kit-package-"), "{err}");
    let taken = scratch.write("zhuguosha/keep", "mine");
    refused(
        &["package", "zhuguosha", "--out", &out("zhuguosha"), "--solver", solver("zhuguosha")],
        "already exists",
    );
    assert_eq!(fs::read_to_string(&taken).unwrap(), "mine");
    // Nothing half-written beside the folders: only what the test made.
    let left: Vec<String> = fs::read_dir(scratch.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    assert_eq!(left, ["zhuguosha"]);
    // --force replaces the folder as a whole.
    let (code, _, err) = kit(&[
        "package",
        "zhuguosha",
        "--out",
        &out("zhuguosha"),
        "--force",
        "--solver",
        solver("zhuguosha"),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(!taken.exists());
    assert!(scratch.path().join("zhuguosha/problem.yaml").is_file());
}

/// Warnings that verifyproblem still gives and that wait for a fix
/// elsewhere (see docs/kit.md, "kit package"): (problem, text). Remove an
/// entry as soon as its warning is gone: the test then insists on it.
const PENDING: &[(&str, &str)] = &[];

#[test]
fn verifyproblem_accepts_every_package() {
    let Some(verifyproblem) =
        common::tool_or_skip(&["verifyproblem"], "verifyproblem_accepts_every_package")
    else {
        return;
    };
    let scratch = Scratch::new("package-verify");
    for problem in PROBLEMS {
        let dir = package(problem, &scratch);
        let run = Command::new(&verifyproblem).arg(&dir).output().unwrap();
        let log = String::from_utf8_lossy(&run.stdout).to_string()
            + &String::from_utf8_lossy(&run.stderr);
        let errors: Vec<&str> = log.lines().filter(|l| l.starts_with("ERROR")).collect();
        assert!(errors.is_empty(), "{problem}: verifyproblem:\n{log}");
        let warnings: Vec<&str> = log
            .lines()
            .filter(|l| l.starts_with("WARNING"))
            .filter(|l| !PENDING.iter().any(|(p, w)| *p == problem && l.contains(w)))
            .collect();
        assert!(warnings.is_empty(), "{problem}: verifyproblem warns:\n{log}");
        assert!(log.contains(&format!("{} tested:", short(problem))), "{log}");
        // Our output validator forgives loose whitespace, never a change
        // of case or line structure alone (which problemtools' default
        // validator would accept).
        let strict = match problem {
            "zhuguosha" => "no_empty_hand_lines",
            "ants_battle" => "upper_case_map",
            "ji_referee" => "lower_case_verdict",
            _ => "values_on_one_line",
        };
        for (planted, verdict) in [("accepted/loose_whitespace", "AC"), (strict, "WA")] {
            let line = log.lines().find(|l| l.contains(&format!("{planted}.rs (Rust)")));
            let line = line.unwrap_or_else(|| panic!("{problem}: {planted} not judged:\n{log}"));
            assert!(line.contains(&format!("OK: {verdict}")), "{problem}: {line}");
        }
    }
}

#[test]
fn zip_holds_every_file_of_the_package() {
    let scratch = Scratch::new("package-zip");
    let dir = scratch.path().join("jireferee");
    let zip = scratch.path().join("jireferee.zip");
    let args = |force: bool| {
        let mut a = vec!["package", "ji_referee", "--out", dir.to_str().unwrap()];
        a.extend(["--zip", zip.to_str().unwrap(), "--solver", solver("ji_referee")]);
        if force {
            a.push("--force");
        }
        a.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let (code, _, err) = kit(&args(false));
    assert_eq!(code, 0, "{err}");
    let bytes = fs::read(&zip).unwrap();
    assert!(bytes.starts_with(b"PK\x03\x04"));
    // The end record counts the entries: every file below the folder.
    let end = &bytes[bytes.len() - 22..];
    assert!(end.starts_with(b"PK\x05\x06"));
    let entries = u16::from_le_bytes([end[10], end[11]]) as usize;
    fn count(dir: &Path) -> usize {
        fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .map(|p| if p.is_dir() { count(&p) } else { 1 })
            .sum()
    }
    assert_eq!(entries, count(&dir));
    // Each file's bytes are in the archive (stored, not compressed).
    let statement = fs::read(dir.join("problem_statement/problem.en.tex")).unwrap();
    assert!(bytes.windows(statement.len()).any(|w| w == statement.as_slice()));
    // The build script stays executable (a judge runs it): its central
    // entry (46 bytes before its last name) holds the mode rwxr-xr-x.
    let name = b"output_validators/compare/build";
    let at = bytes.windows(name.len()).rposition(|w| w == name).unwrap() - 46;
    assert_eq!(&bytes[at..at + 4], b"PK\x01\x02");
    let external = u32::from_le_bytes(bytes[at + 38..at + 42].try_into().unwrap());
    assert_eq!(external >> 16, 0o100755);
    // Existing zip without --force: refused, untouched; with --force: the same bytes.
    assert_eq!(kit(&args(false)).0, 2);
    assert_eq!(kit(&args(true)).0, 0);
    assert_eq!(fs::read(&zip).unwrap(), bytes);
}

#[test]
fn a_planted_edit_that_no_longer_applies_stops_kit_and_writes_nothing() {
    // A repository of one problem whose .edit's find text is not in the
    // solver (as after a solver edit that moved it).
    let repo = Scratch::new("package-repo");
    let root = common::root();
    let source = fs::read_to_string(root.join("src/bin/zhuguosha.rs")).unwrap();
    repo.write("src/bin/zhuguosha.rs", &source);
    for file in ["problem.yaml", "problem_statement/problem.en.tex", "sample/1-statement.in"] {
        let text = fs::read_to_string(root.join("kit/packages/zhuguosha").join(file)).unwrap();
        repo.write(&format!("kit/packages/zhuguosha/{file}"), &text);
    }
    repo.write("tests/data/zhuguosha/none.txt", "");
    repo.write(
        "kit/packages/zhuguosha/submissions/wrong_answer/stale.edit",
        "# stale\n<<<< find\nno such text in the solver\n==== replace\nx\n>>>>\n",
    );
    let out = Scratch::new("package-out");
    let dir = out.path().join("zhuguosha");
    let problem = kit::problems::find("zhuguosha").unwrap();
    let solver = Path::new(solver("zhuguosha"));
    let err = kit::package::write(problem, repo.path(), solver, &dir, false).unwrap_err();
    assert_eq!(err.exit_code(), 2);
    let text = err.to_string();
    assert!(text.contains("stale.edit") && text.contains("occurs 0 times"), "{text}");
    assert_eq!(fs::read_dir(out.path()).unwrap().count(), 0, "something was left behind");
    // The same repository without the stale file gives a package.
    fs::remove_file(repo.path().join("kit/packages/zhuguosha/submissions/wrong_answer/stale.edit"))
        .unwrap();
    let summary = kit::package::write(problem, repo.path(), solver, &dir, false).unwrap();
    // One sample, no fixture, the generated cases; the accepted solution.
    assert_eq!((summary.samples, summary.submissions), (1, 1));
    assert_eq!(summary.secret, files(&dir.join("data/secret"), "in").len());
    assert!(files(&dir.join("data/secret"), "in")
        .iter()
        .all(|f| { f.file_name().unwrap().to_string_lossy().starts_with("gen-") }));
    // A problem.yaml that would leave our output validator unused stops kit.
    let yaml = repo.path().join("kit/packages/zhuguosha/problem.yaml");
    let text = fs::read_to_string(&yaml).unwrap().replace("validation: custom\n", "");
    fs::write(&yaml, text).unwrap();
    let again = out.path().join("again");
    let err = kit::package::write(problem, repo.path(), solver, &again, false).unwrap_err();
    assert!(err.to_string().contains("no `validation: custom` line"), "{err}");
    assert!(!again.exists());
}

/// Both statement renderers that a judge runs accept every statement:
/// problem2pdf writes a PDF, and problem2html a page that headless Chromium
/// opens, showing the problem's id, its samples and, for 猪国杀, the cards'
/// Chinese names (as text, beside the English ones).
#[test]
fn statements_render_as_pdf_and_as_a_page_chromium_opens() {
    let test = "statements_render_as_pdf_and_as_a_page_chromium_opens";
    let (Some(pdf), Some(html), Some(chromium)) = (
        common::tool_or_skip(&["problem2pdf"], test),
        common::tool_or_skip(&["problem2html"], test),
        common::tool_or_skip(&["chromium", "chromium-browser", "google-chrome"], test),
    ) else {
        return;
    };
    let scratch = Scratch::new("package-statements");
    for problem in PROBLEMS {
        let dir = package(problem, &scratch);
        let out = scratch.path().join(format!("{}.pdf", short(problem)));
        let run = Command::new(&pdf).arg("-q").arg("-o").arg(&out).arg(&dir).output().unwrap();
        assert!(run.status.success(), "{problem}: problem2pdf: {run:?}");
        let head = fs::read(&out).unwrap();
        assert!(head.starts_with(b"%PDF-"), "{problem}: no PDF");
        let site = scratch.path().join(format!("{}_html", short(problem)));
        let run = Command::new(&html).arg("-q").arg("-d").arg(&site).arg(&dir).output().unwrap();
        assert!(run.status.success(), "{problem}: problem2html: {run:?}");
        let profile = scratch.path().join(format!("chromium-{problem}"));
        let dom = Command::new(&chromium)
            .args(["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"])
            .args(["--disable-background-networking", "--disable-component-update"])
            .arg("--disable-sync")
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg("--dump-dom")
            .arg(format!("file://{}", site.join("index.html").display()))
            .stderr(Stdio::null())
            .output()
            .unwrap();
        let dom = String::from_utf8_lossy(&dom.stdout);
        assert!(dom.contains(&format!("Problem ID: {}", short(problem))), "{problem}: {dom}");
        assert!(dom.contains("Sample Input 1"), "{problem}: no sample on the page");
        if problem == "zhuguosha" {
            assert!(dom.contains("无懈可击"), "猪国杀's page lacks the Chinese card names");
        }
    }
}
