//! The package sources of kit/packages/ that are not machinery: every
//! planted submission (`.edit` on our solver, or a whole `.rs`; those of
//! kit/packages/every_problem/ too) applies, compiles and gives the verdict
//! of its folder on our own cases; the statement's samples are strict
//! inputs. The packages themselves (assembled, and checked by
//! problemtools) are tested where `kit package` is.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use kit::rng::Rng;

/// The problems whose package content lives here.
const PROBLEMS: [&str; 3] = ["ants_battle", "ji_referee", "ji_solver"];

fn package(problem: &str) -> PathBuf {
    common::root().join("kit/packages").join(problem)
}

/// One `<<<< find` / `==== replace` / `>>>>` block of an `.edit` file.
struct Block {
    find: String,
    replace: String,
}

/// The blocks of an `.edit` file, in order (lines outside blocks are
/// comments).
fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut lines = text.split_inclusive('\n');
    while let Some(line) = lines.next() {
        if line != "<<<< find\n" {
            continue;
        }
        let (mut find, mut replace) = (String::new(), String::new());
        for line in lines.by_ref() {
            if line == "==== replace\n" {
                break;
            }
            find.push_str(line);
        }
        for line in lines.by_ref() {
            if line == ">>>>\n" {
                break;
            }
            replace.push_str(line);
        }
        // The newline before `==== replace` and `>>>>` ends the text (kit
        // package's reading, decisions.md): it is not part of it.
        let (find, replace) = (find.strip_suffix('\n'), replace.strip_suffix('\n'));
        let (find, replace) = (find.unwrap_or_default(), replace.unwrap_or_default());
        out.push(Block { find: find.to_string(), replace: replace.to_string() });
    }
    out
}

/// Our solver with the edit applied; panics unless each find text occurs
/// exactly once.
fn apply(problem: &str, edit: &Path) -> String {
    let mut source = common::read_text(&common::root().join(format!("src/bin/{problem}.rs")));
    let blocks = blocks(&common::read_text(edit));
    assert!(!blocks.is_empty(), "{}: no `<<<< find` block", common::rel(edit));
    for b in blocks {
        let n = source.matches(&b.find).count();
        assert_eq!(n, 1, "{}: the find text occurs {n} times:\n{}", common::rel(edit), b.find);
        source = source.replacen(&b.find, &b.replace, 1);
    }
    source
}

/// Compiles `source` into `dir` (opt-level 1: quick to build, fast enough
/// for our small cases).
fn compile(source: &str, name: &str, dir: &Path) -> PathBuf {
    let file = dir.join(format!("{name}.rs"));
    fs::write(&file, source).unwrap();
    let exe = dir.join(name);
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let status = Command::new(rustc)
        .args(["-C", "opt-level=1", "--crate-type", "bin", "--edition", "2021", "-A", "warnings"])
        .arg("-o")
        .arg(&exe)
        .arg(&file)
        .status()
        .expect("rustc runs");
    assert!(status.success(), "{name}: does not compile");
    exe
}

/// stdout of `exe` on `input` (None: a non-zero exit).
fn output_of(exe: &Path, input: &[u8]) -> Option<Vec<u8>> {
    use std::io::Write;
    let mut child = Command::new(exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the submission starts");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("the submission ends");
    let _ = feeder.join();
    out.status.success().then_some(out.stdout)
}

/// Our cases of `problem` with an answer (exit 0), as the package would
/// take them: the statement's samples, every fixture that `--strict`
/// accepts, then `seeds` seeds of every small kit profile.
fn cases(problem: &str, seeds: u64) -> Vec<Vec<u8>> {
    let (fixtures, _) = common::cases(problem);
    let samples = files(&package(problem).join("sample"), "in");
    let mut out: Vec<Vec<u8>> = samples.iter().map(|f| fs::read(f).unwrap()).collect();
    for case in fixtures.iter().filter(|c| c.args.is_empty() && c.code == 0) {
        let input = fs::read(&case.input).unwrap();
        let strict = common::run(problem, &["--strict".into()], &input, Duration::from_secs(20));
        if strict.code == Some(0) {
            out.push(input);
        }
    }
    let kit = kit::problems::find(problem).unwrap();
    for p in kit.profiles().iter().filter(|p| !p.name.starts_with("big")) {
        for seed in 1..=seeds {
            let input = (p.generate)(&mut Rng::new(seed)).into_bytes();
            let run = common::run(problem, &[], &input, Duration::from_secs(20));
            if run.code == Some(0) {
                out.push(input);
            }
        }
    }
    out
}

/// Our answer and a submission's agree by the problem's rule.
fn agrees(problem: &str, ours: &[u8], theirs: &[u8]) -> bool {
    let (ours, theirs) = (String::from_utf8_lossy(ours), String::from_utf8_lossy(theirs));
    let rule = common::rule(problem);
    common::compare(&ours, &theirs, rule).is_none()
}

fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = fs::read_dir(dir)
        .map(|d| d.filter_map(|e| Some(e.ok()?.path())).collect())
        .unwrap_or_default();
    out.retain(|p| p.extension().is_some_and(|x| x == ext));
    out.sort();
    out
}

#[test]
fn every_wrong_answer_is_rejected_on_some_case_and_runs_clean() {
    let dir = kit::scratch::Scratch::new("package_content");
    for problem in PROBLEMS {
        let cases = cases(problem, 3);
        let answers: Vec<Vec<u8>> = cases
            .iter()
            .map(|c| common::run(problem, &[], c, Duration::from_secs(20)).stdout)
            .collect();
        let edits = files(&package(problem).join("submissions/wrong_answer"), "edit");
        assert!(edits.len() >= 2, "{problem}: at least two planted wrong answers");
        for edit in edits {
            let name = edit.file_stem().unwrap().to_str().unwrap();
            let exe = compile(&apply(problem, &edit), name, dir.path());
            let mut rejected = 0;
            for (input, ours) in cases.iter().zip(&answers) {
                // A wrong answer, not a crash: it must give some output.
                let theirs = output_of(&exe, input).unwrap_or_else(|| panic!("{name} fails"));
                rejected += usize::from(!agrees(problem, ours, &theirs));
            }
            assert!(rejected > 0, "{problem}/{name}: accepted on all {} cases", cases.len());
        }
    }
}

#[test]
fn every_planted_accepted_edit_agrees_on_every_case() {
    let dir = kit::scratch::Scratch::new("package_content_ac");
    let every_problem = common::root().join("kit/packages/every_problem/submissions/accepted");
    for problem in PROBLEMS {
        let mut edits = files(&package(problem).join("submissions/accepted"), "edit");
        edits.extend(files(&every_problem, "edit"));
        assert!(!edits.is_empty(), "{problem}: loose_whitespace.edit applies to every problem");
        let cases = cases(problem, 2);
        for edit in edits {
            let name = format!("{problem}_{}", edit.file_stem().unwrap().to_str().unwrap());
            let exe = compile(&apply(problem, &edit), &name, dir.path());
            for input in &cases {
                let ours = common::run(problem, &[], input, Duration::from_secs(20)).stdout;
                let theirs = output_of(&exe, input).unwrap_or_else(|| panic!("{name} fails"));
                assert_ne!(ours, theirs, "{name}: not a planted variant");
                assert!(agrees(problem, &ours, &theirs), "{name}: rejected");
            }
        }
    }
}

#[test]
fn the_all_pairs_battle_is_right_on_small_maps() {
    let dir = kit::scratch::Scratch::new("package_content_tle");
    let file = package("ants_battle").join("submissions/time_limit_exceeded/all_pairs.rs");
    let exe = compile(&common::read_text(&file), "all_pairs", dir.path());
    // Small maps only: it is quadratic in the ants (a 200x200 fixture
    // takes seconds).
    for input in cases("ants_battle", 5).into_iter().filter(|c| c.len() < 20_000) {
        let ours = common::run("ants_battle", &[], &input, Duration::from_secs(20)).stdout;
        let theirs = output_of(&exe, &input).expect("all_pairs answers");
        assert!(agrees("ants_battle", &ours, &theirs), "{}", String::from_utf8_lossy(&input));
    }
}

#[test]
fn the_samples_are_strict_and_the_yaml_has_a_fixed_uuid() {
    for problem in PROBLEMS {
        let samples = files(&package(problem).join("sample"), "in");
        assert!(samples.len() >= 2, "{problem}: samples");
        for sample in samples {
            let input = fs::read(&sample).unwrap();
            let run = common::run(problem, &["--strict".into()], &input, Duration::from_secs(20));
            assert_eq!(run.code, Some(0), "{}", common::rel(&sample));
        }
        let yaml = common::read_text(&package(problem).join("problem.yaml"));
        let uuid = yaml.lines().find_map(|l| l.strip_prefix("uuid: ")).expect("a uuid line");
        assert_eq!(uuid.len(), 36, "{uuid}");
        assert!(yaml.contains("\nlicense: ") && yaml.contains("\nrights_owner: "));
        let tex = package(problem).join("problem_statement/problem.en.tex");
        // After the comments and macros (the referee defines \zh first).
        let tex = common::read_text(&tex);
        assert!(tex.lines().any(|l| l.starts_with("\\problemname{")), "{problem}");
    }
}
