//! The kit on the real problems: `kit gen` is deterministic and every case
//! it emits has our answer; `kit judge` accepts our solvers and reports WA,
//! RE and TLE on planted programs; `kit stress` finds each planted wrong
//! program within seconds and shrinks its input.
//!
//! The kit runs in-process (`kit::cli::main`), with our solvers passed as
//! `--solver` from `CARGO_BIN_EXE_<solver>`. Planted programs are the
//! scripts in `tests/planted/` and copies of our solvers with one rule
//! broken, compiled here with `rustc` from a patch of `src/bin/<solver>.rs`
//! (a patch whose anchor text is gone fails loudly: update it).

mod common;

use common::solver;

use kit::cli::captured as kit;
use kit::scratch::{build_patched, Hogs, Scratch};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const PROBLEMS: [&str; 4] = ["zhuguosha", "ants_battle", "ji_referee", "ji_solver"];

/// This test file's list is the kit's one list of problems.
#[test]
fn the_problems_here_are_the_kits() {
    let names: Vec<&str> = kit::problems::all().iter().map(|p| p.name()).collect();
    assert_eq!(names, PROBLEMS);
}

fn planted(script: &str) -> String {
    common::root().join("tests/planted").join(script).display().to_string()
}

/// One of our solvers with one rule broken: `anchor` (exactly once in
/// `src/bin/<bin>.rs`) becomes `replacement`, or with `into_body`,
/// `replacement` goes right after the first `{` that follows `anchor` (the
/// start of a function's body, whatever its parameters).
struct Patch {
    bin: &'static str,
    anchor: &'static str,
    replacement: &'static str,
    into_body: bool,
}

/// 猪国杀 without 无懈可击: no trick is ever cancelled (and nobody spends a
/// J).
const IGNORES_WUXIE: Patch = Patch {
    bin: "zhuguosha",
    anchor: "fn negated(",
    replacement: "\n        return false; // PLANTED: nothing is ever cancelled\n",
    into_body: true,
};

/// Ants whose `focus` weakness counts an enemy once even when several
/// offsets of the attack disk reach it, which happens on a map smaller
/// than the disk (the statement lists and counts it once per offset): the
/// weakness plane is recomputed naively from distinct enemy cells.
const WRAPPED_ONCE: Patch = Patch {
    bin: "ants_battle",
    anchor: "weakness_plane::<W>(field, disk, &mut weak);",
    replacement: common::ANTS_ENEMY_COUNTED_ONCE,
    into_body: false,
};

/// A 集 referee that loses A's gain in a round where A's count is 0.
const LOSES_AT_ZERO: Patch = Patch {
    bin: "ji_referee",
    anchor: "counts.a += i128::from(sa.delta);",
    replacement: "if counts.a != 0 || sa.delta <= 0 {\n            \
                  counts.a += i128::from(sa.delta); // PLANTED: lost at count 0\n        }",
    into_body: false,
};

/// A 集 referee for which a skill B has lost to a lasting effect stays
/// legal (A's losses still count).
const B_KEEPS_LOST_SKILLS: Patch = Patch {
    bin: "ji_referee",
    anchor: "let short_b = counts.b < i128::from(sb.req) || lost.b[moves.b as usize];",
    replacement: "let short_b = counts.b < i128::from(sb.req); // PLANTED: B keeps lost skills",
    into_body: false,
};

/// A 集 solver that applies the draw chance twice per round.
const DRAWS_TWICE: Patch = Patch {
    bin: "ji_solver",
    anchor: "Game::new(&prob.variant, prob.cap, prob.keep, &lost)",
    replacement: "Game::new(&prob.variant, prob.cap, prob.keep * prob.keep /* PLANTED */, &lost)",
    into_body: false,
};

impl Patch {
    /// Compiles the patched copy in `dir`; returns the executable.
    fn build(&self, dir: &Scratch) -> PathBuf {
        let source = common::root().join("src/bin").join(format!("{}.rs", self.bin));
        build_patched(&source, self.anchor, self.replacement, self.into_body, dir)
    }
}

// ------------------------------------------------------------------ gen --

#[test]
fn gen_gives_the_same_bytes_for_the_same_seed() {
    for problem in PROBLEMS {
        let gen = |seed: &str| {
            let (code, out, err) =
                kit(&["gen", problem, "--seed", seed, "--solver", solver(problem)]);
            assert_eq!(code, 0, "{problem}: {err}");
            assert!(out.ends_with('\n') && !out.is_empty(), "{problem}: {out:?}");
            out
        };
        assert_eq!(gen("5"), gen("5"), "{problem}");
        let others: Vec<String> = ["6", "7", "8"].iter().map(|s| gen(s)).collect();
        assert!(others.iter().any(|o| *o != gen("5")), "{problem}: seeds change nothing");
    }
}

#[test]
fn gen_out_writes_the_cases_with_our_answers_and_stdout_is_case_0() {
    let dir = Scratch::new("kit-gen-out");
    for problem in PROBLEMS {
        let out_dir = dir.path().join(problem);
        let d = out_dir.display().to_string();
        let (code, out, err) = kit(&[
            "gen",
            problem,
            "--seed",
            "9",
            "--count",
            "6",
            "--out",
            &d,
            "--solver",
            solver(problem),
        ]);
        assert_eq!(code, 0, "{problem}: {err}");
        assert!(
            out.starts_with(&format!("wrote 6 cases of {problem} profile random seed 9 to ")),
            "{out}"
        );
        let (_, case0, _) = kit(&["gen", problem, "--seed", "9", "--solver", solver(problem)]);
        assert_eq!(std::fs::read_to_string(out_dir.join("0000.in")).unwrap(), case0);
        for i in 0..6 {
            let input = std::fs::read(out_dir.join(format!("{i:04}.in"))).unwrap();
            let answer = std::fs::read(out_dir.join(format!("{i:04}.out"))).unwrap();
            let run = common::run(problem, &[], &input, Duration::from_secs(20));
            assert_eq!(run.code, Some(0), "{problem} case {i}");
            assert_eq!(run.stdout, answer, "{problem} case {i}");
        }
        assert!(!out_dir.join("0006.in").exists());
    }
}

/// Every profile's 猪国杀 games end: our solver exits 0 on each emitted
/// case (a game that never ends is exit 3, and is drawn again).
#[test]
fn every_generated_zhuguosha_game_is_accepted_by_the_solver() {
    let (_, list, _) = kit(&["gen", "zhuguosha", "--list"]);
    let profiles: Vec<&str> = list.lines().map(|l| l.split(' ').next().unwrap()).collect();
    assert!(profiles.len() >= 10, "{list}");
    let dir = Scratch::new("kit-gen-zhu");
    let mut redrawn = 0;
    for profile in profiles {
        let d = dir.path().join(profile).display().to_string();
        let (code, out, err) = kit(&[
            "gen",
            "zhuguosha",
            "--profile",
            profile,
            "--seed",
            "3",
            "--count",
            "15",
            "--out",
            &d,
            "--solver",
            solver("zhuguosha"),
        ]);
        assert_eq!(code, 0, "{profile}: {err}");
        redrawn += out.contains("drawn again") as usize;
        let (cases, problems) = kit::cases::discover(Path::new(&d)).unwrap();
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(cases.len(), 15);
        // `--strict`: also in the statement's exact layout.
        for case in &cases {
            let input = std::fs::read(&case.input).unwrap();
            let strict = ["--strict".to_string()];
            let run = common::run("zhuguosha", &strict, &input, Duration::from_secs(20));
            let err = String::from_utf8_lossy(&run.stderr);
            assert_eq!(run.code, Some(0), "{profile}: {}: {err}", case.name());
        }
    }
    // Random games that never end exist (tests/data/zhuguosha/bad/never_ends_*):
    // some profile met one and drew again.
    assert!(redrawn > 0, "no profile ever drew again");
}

/// Every profile of the 集 problems writes the statement's strict layout:
/// our solvers accept each case under `--strict`.
#[test]
fn every_generated_ji_case_passes_strict() {
    for problem in ["ji_referee", "ji_solver"] {
        let (_, list, _) = kit(&["gen", problem, "--list"]);
        for profile in list.lines().map(|l| l.split(' ').next().unwrap()) {
            for seed in 1..=5u64 {
                let seed = seed.to_string();
                let args = [
                    "gen",
                    problem,
                    "--profile",
                    profile,
                    "--seed",
                    &seed,
                    "--solver",
                    solver(problem),
                ];
                let (code, input, err) = kit(&args);
                assert_eq!(code, 0, "{problem} {profile}: {err}");
                let strict = ["--strict".to_string()];
                let run = common::run(problem, &strict, input.as_bytes(), Duration::from_secs(20));
                let err = String::from_utf8_lossy(&run.stderr);
                assert_eq!(run.code, Some(0), "{problem} {profile} seed {seed}: {err}");
            }
        }
    }
}

// ---------------------------------------------------------------- judge --

/// `kit judge` of our own solver on its fixtures: all AC, also the cases
/// beyond the judge's data. The limit is on CPU time and generous (our
/// slowest fixture takes about 1.1 s), so a loaded machine cannot turn a
/// case into a TLE.
fn judge_ours(problem: &str) {
    let dir = common::root().join("tests/data").join(problem).display().to_string();
    let args = ["judge", problem, "--dir", &dir, "--time-limit", "20000", "--", solver(problem)];
    let (code, out, err) = kit(&args);
    assert_eq!(code, 0, "{problem}: {err}\n{out}");
    let summary = out
        .lines()
        .find(|l| l.starts_with("AC ") && !l.contains(" ms "))
        .unwrap_or_else(|| panic!("no summary: {out}"));
    let (ac, rest) = summary
        .strip_prefix("AC ")
        .and_then(|s| s.split_once('/'))
        .unwrap_or_else(|| panic!("summary {summary:?}"));
    let total = rest.split(';').next().unwrap();
    assert_eq!(ac, total, "{out}");
    if let Some((_, beyond)) = rest.split_once("; beyond the judge's data: ") {
        let (b_ac, b_total) = beyond.split_once('/').unwrap();
        assert_eq!(b_ac, b_total, "{out}");
    }
    let ac: usize = ac.parse().unwrap();
    assert!(ac >= 100, "{problem}: only {ac} cases judged");
    let beyond = out.matches("\n    beyond the judge's data: ").count();
    assert_eq!(verdicts(&out), vec!["AC"; ac + beyond], "{out}");
}

#[test]
fn judge_accepts_our_zhuguosha() {
    judge_ours("zhuguosha");
}

#[test]
fn judge_accepts_our_ants_battle() {
    judge_ours("ants_battle");
}

#[test]
fn judge_accepts_our_ji_referee() {
    judge_ours("ji_referee");
}

/// Also on a busy machine: a CPU hog per core runs meanwhile (bounded,
/// killed at the end); CPU time does not see them.
#[test]
fn judge_accepts_our_ji_solver() {
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let _busy = Hogs::start(cores.min(4));
    judge_ours("ji_solver");
}

/// The case beyond the judge's data is counted apart: a program that
/// always answers MP fails it or not, the summary's counts do not change.
#[test]
fn judge_counts_cases_beyond_the_judges_data_apart() {
    let data = common::root().join("tests/data/zhuguosha/edge");
    let d = data.display().to_string();
    let (code, out, err) = kit(&["judge", "zhuguosha", "--dir", &d, "--", solver("zhuguosha")]);
    assert_eq!(code, 0, "{err}{out}");
    let beyond = std::fs::read_dir(&data)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension().unwrap() == "beyond")
        .count();
    assert!(beyond >= 1);
    let judged = verdicts(&out).len() - beyond;
    assert!(
        out.contains(&format!(
            "\nAC {judged}/{judged}; beyond the judge's data: {beyond}/{beyond}\n"
        )),
        "{out}"
    );
    assert!(out.ends_with(&format!("\n({})\n", kit::judge::BEYOND_MEANS)), "{out}");
}

/// Two 猪国杀 fixtures in a folder of their own.
fn two_cases() -> (Scratch, String) {
    let dir = Scratch::new("kit-judge");
    let data = common::root().join("tests/data/zhuguosha");
    for (from, to) in [("sample", "a"), ("random/0001", "b")] {
        for ext in ["in", "out"] {
            let text = common::read_text(&data.join(format!("{from}.{ext}")));
            dir.write(&format!("{to}.{ext}"), &text);
        }
    }
    let d = dir.path().display().to_string();
    (dir, d)
}

/// The verdict words of the case lines within the judge's data (not
/// followed by a `beyond the judge's data` line), in order.
fn judged_verdicts(out: &str) -> Vec<&str> {
    let lines: Vec<&str> = out.lines().collect();
    let mut v = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if line.starts_with(' ') || !line.contains(" ms ") {
            continue;
        }
        let details = lines[i + 1..].iter().take_while(|l| l.starts_with("    "));
        if !details.clone().any(|l| l.starts_with("    beyond the judge's data: ")) {
            v.push(line.split(' ').next().unwrap());
        }
    }
    v
}

/// The verdict words of each case line, in order.
fn verdicts(out: &str) -> Vec<&str> {
    out.lines()
        .filter(|l| !l.starts_with(' ') && l.contains(" ms "))
        .map(|l| l.split(' ').next().unwrap())
        .collect()
}

#[test]
fn judge_reports_wa_with_the_difference_and_a_reproducing_command() {
    let (_dir, d) = two_cases();
    let mp = planted("always_mp.sh");
    let (code, out, _) = kit(&["judge", "zhuguosha", "--dir", &d, "--", "sh", &mp]);
    assert_eq!(code, 1, "{out}");
    assert_eq!(verdicts(&out), ["WA", "WA"], "{out}");
    let a_in = kit::cases::display(&Path::new(&d).join("a.in"));
    let a_out = kit::cases::display(&Path::new(&d).join("a.out"));
    assert!(
        out.contains(&format!("\n    reproduce: sh {mp} < {a_in} | diff - {a_out}\n")),
        "{out}"
    );
    // The sample's answer is FP (the rebels win): line 1, token 1.
    assert!(out.contains("\n    line 1: token 1: expected `FP`, got `MP`\n"), "{out}");
    assert!(out.ends_with("\nAC 0/2 (WA 2)\n"), "{out}");
}

#[test]
fn judge_reports_re_by_exit_code_and_by_signal() {
    let (_dir, d) = two_cases();
    let (code, out, _) =
        kit(&["judge", "zhuguosha", "--dir", &d, "--", "sh", "-c", "echo bye >&2; exit 4"]);
    assert_eq!(code, 1);
    assert_eq!(verdicts(&out), ["RE", "RE"], "{out}");
    assert!(out.contains("\n    exit code 4; stderr: bye\n"), "{out}");
    let (code, out, _) =
        kit(&["judge", "zhuguosha", "--dir", &d, "--", "sh", &planted("crash.sh")]);
    assert_eq!(code, 1);
    assert!(out.contains("\n    signal 11 (SIGSEGV); stderr: planted crash\n"), "{out}");
    assert!(out.ends_with("\nAC 0/2 (RE 2)\n"), "{out}");
}

#[test]
fn judge_reports_tle_by_cpu_time_and_ile_by_the_wall_clock() {
    let (_dir, d) = two_cases();
    let judge = |script: &str, limit: &str| {
        kit(&[
            "judge",
            "zhuguosha",
            "--dir",
            &d,
            "--time-limit",
            limit,
            "--",
            "sh",
            &planted(script),
        ])
    };
    // 100 ms of CPU before 1200 ms of wall time: a busy loop gets that
    // even on a loaded machine (other tests run CPU hogs meanwhile).
    let (code, out, _) = judge("busy.sh", "100");
    assert_eq!(code, 1);
    assert_eq!(verdicts(&out), ["TLE", "TLE"], "{out}");
    assert!(out.contains(" ms of CPU > 100 ms (wall time "), "{out}");
    assert!(out.ends_with("\nAC 0/2 (TLE 2)\n"), "{out}");
    // Sleeping uses no CPU: the wall-clock backstop (2 x 100 + 1000 ms).
    let (code, out, _) = judge("hang.sh", "100");
    assert_eq!(code, 1);
    assert_eq!(verdicts(&out), ["ILE", "ILE"], "{out}");
    assert!(out.contains("(the idleness limit, 2 x 100 + 1000 ms)"), "{out}");
    assert!(out.ends_with("\nAC 0/2 (ILE 2)\n"), "{out}");
}

/// The number before `what` in `text` (as `1234` in "1234 ms of CPU").
fn figure_before(text: &str, what: &str) -> f64 {
    let at = text.find(what).unwrap_or_else(|| panic!("no `{what}` in {text}"));
    let word = text[..at].trim_end().rsplit(' ').next().unwrap();
    word.parse().unwrap_or_else(|_| panic!("`{word}` before `{what}` in {text}"))
}

/// A wrapper whose child spins is TLE, its child's CPU time counted while
/// it runs (not ILE after the wall-clock backstop, as when only the
/// wrapper's own CPU time was read), as the child run directly.
#[test]
fn judge_counts_the_cpu_time_of_the_whole_process_tree() {
    let (_dir, d) = two_cases();
    let wrapper = planted("spinning_child.sh");
    let (code, out, _) =
        kit(&["judge", "zhuguosha", "--dir", &d, "--time-limit", "300", "--", "sh", &wrapper]);
    assert_eq!(code, 1);
    assert_eq!(verdicts(&out), ["TLE", "TLE"], "{out}");
    assert!(figure_before(&out, "ms of CPU > 300 ms") >= 300.0, "{out}");
    assert!(out.ends_with("\nAC 0/2 (TLE 2)\n"), "{out}");
}

/// An endless allocation is stopped while it runs, near the memory limit:
/// MLE with the peak seen, under twice the limit (the time limit, a
/// minute of CPU, is far away).
#[test]
#[cfg(target_os = "linux")]
fn judge_stops_an_endless_allocation_at_the_memory_limit() {
    let (_dir, d) = two_cases();
    let hog = planted("endless_memory.sh");
    let (code, out, _) = kit(&[
        "judge",
        "zhuguosha",
        "--dir",
        &d,
        "--fail-fast",
        "--memory-limit",
        "64",
        "--time-limit",
        "60000",
        "--",
        "sh",
        &hog,
    ]);
    assert_eq!(code, 1);
    assert_eq!(verdicts(&out), ["MLE"], "{out}");
    assert!(out.contains(" MiB > 64 MiB (killed then)\n"), "{out}");
    let peak = figure_before(&out, "MiB > 64 MiB");
    assert!((64.0..128.0).contains(&peak), "a peak of {peak} MiB: {out}");
}

/// A program that floods stdout is stopped as soon as it is over the
/// output limit (not at the time limit, a minute of CPU away): OLE, by
/// default at the problem's limit (8 MiB for 猪国杀, Kattis's default).
#[test]
fn judge_stops_a_flood_at_the_output_limit() {
    let (_dir, d) = two_cases();
    let flood = planted("flood.sh");
    let judge = |limit: Option<&str>| {
        let mut words = vec!["judge", "zhuguosha", "--dir", &d, "--time-limit", "60000"];
        if let Some(mb) = limit {
            words.extend(["--output-limit", mb]);
        }
        words.extend(["--", "sh", &flood]);
        kit(&words)
    };
    let (code, out, _) = judge(Some("1"));
    assert_eq!(code, 1);
    assert_eq!(verdicts(&out), ["OLE", "OLE"], "{out}");
    assert!(
        out.contains("\n    over the output limit: more than 1 MiB of stdout (killed then"),
        "{out}"
    );
    assert!(out.ends_with("\nAC 0/2 (OLE 2)\n"), "{out}");
    let (_, out, _) = judge(None);
    assert!(out.contains("more than 8 MiB of stdout"), "{out}");
}

#[test]
fn judge_fail_fast_stops_at_the_first_failure() {
    let (_dir, d) = two_cases();
    let mp = planted("always_mp.sh");
    let (code, out, _) = kit(&["judge", "zhuguosha", "--fail-fast", "--dir", &d, "--", "sh", &mp]);
    assert_eq!(code, 1);
    assert_eq!(verdicts(&out), ["WA"], "{out}");
    assert!(
        out.ends_with(
            "\nstopped at the first failure (--fail-fast): 1 case not run\nAC 0/1 (WA 1)\n"
        ),
        "{out}"
    );
}

/// A program right on most cases: the other verdicts and the summary add up.
#[test]
fn judge_counts_a_mostly_right_program() {
    let dir = Scratch::new("kit-judge-wuxie");
    let exe = IGNORES_WUXIE.build(&dir);
    let data = common::root().join("tests/data/zhuguosha").display().to_string();
    let (code, out, _) = kit(&[
        "judge".as_ref(),
        "zhuguosha".as_ref(),
        "--dir".as_ref(),
        data.as_ref(),
        "--".as_ref(),
        exe.as_os_str(),
    ]);
    assert_eq!(code, 1);
    let v = judged_verdicts(&out);
    let count = |word: &str| v.iter().filter(|v| **v == word).count();
    let (ac, wa, re) = (count("AC"), count("WA"), count("RE"));
    assert!(ac > 0 && wa > 0 && ac + wa + re == v.len(), "{out}");
    // Without 无懈可击 some fixture game never ends: its exit 3 is an RE.
    let tail = if re > 0 { format!(", RE {re}") } else { String::new() };
    let summary = format!("\nAC {ac}/{} (WA {wa}{tail})", v.len());
    assert!(out.contains(&summary), "{out}");
    assert!(
        out.matches("\n    exit code 3; stderr: zhuguosha: the game does not end").count() >= re
    );
}

// --------------------------------------------------------------- stress --

/// What `kit stress` found: its report and the case written.
struct Found {
    report: String,
    input: String,
    answer: String,
}

/// A `--shrink-time` no test machine spends, however loaded: these tests'
/// shrinking ends at the minimum, not at a clock.
const AMPLE_SHRINK_TIME: &str = "86400";

fn stress_finds(problem: &str, profile: &str, cmd: &[&std::ffi::OsStr]) -> Found {
    let dir = Scratch::new("kit-stress");
    let out_dir = dir.path().join("failures").display().to_string();
    let mut args: Vec<OsString> = [
        "stress",
        problem,
        "--profile",
        profile,
        "--seed",
        "1",
        "--count",
        "300",
        "--out",
        &out_dir,
        "--shrink-time",
        AMPLE_SHRINK_TIME,
        "--no-diagnose",
        "--solver",
        solver(problem),
        "--",
    ]
    .iter()
    .map(OsString::from)
    .collect();
    args.extend(cmd.iter().map(OsString::from));
    let start = Instant::now();
    let (code, report, err) = kit(&args);
    let took = start.elapsed();
    assert_eq!(code, 1, "{problem}: not found\n{report}{err}");
    // Each planted program answers wrongly; none crashes.
    let first = report.lines().next().unwrap_or("");
    assert!(first.contains(" fails: first difference: "), "{report}");
    let (cases, _) = kit::cases::discover(Path::new(&out_dir)).unwrap();
    assert_eq!(cases.len(), 1, "{report}");
    let input = common::read_text(&cases[0].input);
    let answer = common::read_text(cases[0].stdout.as_ref().unwrap());
    // The .out is our answer, and the case is one our solver accepts.
    let run = common::run(problem, &[], input.as_bytes(), Duration::from_secs(20));
    assert_eq!((run.code, run.stdout), (Some(0), answer.clone().into_bytes()), "{report}");
    // Ready for `kit judge --dir`: the planted program fails there too.
    let mut judge: Vec<OsString> =
        ["judge", problem, "--dir", &out_dir, "--"].iter().map(OsString::from).collect();
    judge.extend(cmd.iter().map(OsString::from));
    let (code, judged, _) = kit(&judge);
    assert_eq!(code, 1, "{judged}");
    eprintln!("{problem} ({profile}): found and shrunk in {took:?}\n{report}");
    Found { report, input, answer }
}

/// `n m` of a 猪国杀 input.
fn pigs_and_cards(input: &str) -> (usize, usize) {
    let mut head = input.split_whitespace().map(|t| t.parse::<usize>().unwrap());
    (head.next().unwrap(), head.next().unwrap())
}

#[test]
fn stress_finds_always_mp_and_shrinks_it_to_a_tiny_game() {
    let mp = planted("always_mp.sh");
    let f = stress_finds("zhuguosha", "random", &["sh".as_ref(), mp.as_ref()]);
    let (pigs, cards) = pigs_and_cards(&f.input);
    assert!(pigs <= 3 && cards <= 10, "{pigs} pigs, {cards} cards:\n{}", f.input);
    assert!(f.answer.starts_with("FP\n"), "MP's loss is what it misses: {}", f.answer);
    // Deterministic: the same seed finds and shrinks to the same case.
    let again = stress_finds("zhuguosha", "random", &["sh".as_ref(), mp.as_ref()]);
    assert_eq!(again.input, f.input);
    assert_eq!(again.report.lines().next(), f.report.lines().next());
}

#[test]
fn stress_finds_the_solver_that_ignores_wuxie_and_shrinks_it() {
    let dir = Scratch::new("kit-stress-wuxie");
    let exe = IGNORES_WUXIE.build(&dir);
    let f = stress_finds("zhuguosha", "wuxie", &[exe.as_os_str()]);
    let (pigs, cards) = pigs_and_cards(&f.input);
    assert!(pigs <= 3 && cards <= 10, "{pigs} pigs, {cards} cards:\n{}", f.input);
    // The difference needs a 无懈可击 somewhere (in a hand or the deck).
    assert!(f.input.contains('J'), "{}", f.report);
}

#[test]
fn stress_finds_the_ants_that_count_a_wrapped_enemy_once() {
    let dir = Scratch::new("kit-stress-ants");
    let exe = WRAPPED_ONCE.build(&dir);
    let f = stress_finds("ants_battle", "tiny_torus", &[exe.as_os_str()]);
    let value =
        |key: &str| f.input.lines().find_map(|l| l.strip_prefix(key)?.trim().parse::<u64>().ok());
    let (rows, cols) = (value("rows ").unwrap(), value("cols ").unwrap());
    let ants = f
        .input
        .lines()
        .filter_map(|l| l.strip_prefix("m "))
        .flat_map(str::chars)
        .filter(char::is_ascii_alphabetic)
        .count();
    let r2 = value("attackradius2 ").unwrap_or(5);
    eprintln!("ants shrunk to {rows}x{cols}, {ants} ants, r2 = {r2}");
    // The miscount needs a map smaller than the attack disk.
    let reach = (r2 as f64).sqrt() as u64;
    assert!(rows <= 2 * reach || cols <= 2 * reach, "{}", f.report);
    assert!(rows * cols <= 36 && ants <= 6, "{}", f.report);
}

#[test]
fn stress_finds_the_referee_that_loses_a_round_at_count_0() {
    let dir = Scratch::new("kit-stress-ji");
    let exe = LOSES_AT_ZERO.build(&dir);
    let f = stress_finds("ji_referee", "random", &[exe.as_os_str()]);
    // n, n skill lines, r, r rounds: one record per line.
    let lines: Vec<&str> = f.input.lines().collect();
    let skills: usize = lines[0].parse().unwrap();
    let rounds: usize = lines[skills + 1].parse().unwrap();
    eprintln!("ji_referee shrunk to {skills} skills, {rounds} rounds");
    assert!(skills <= 3 && rounds <= 3, "{}", f.report);
}

#[test]
fn stress_finds_the_referee_whose_b_keeps_lost_skills_and_shrinks_it() {
    let dir = Scratch::new("kit-stress-lasting");
    let exe = B_KEEPS_LOST_SKILLS.build(&dir);
    let f = stress_finds("ji_referee", "lasting", &[exe.as_os_str()]);
    // n, n skill lines, `lasting m`, m effects, r, r rounds.
    let lines: Vec<&str> = f.input.lines().collect();
    let skills: usize = lines[0].parse().unwrap();
    let effects: usize = lines[skills + 1].strip_prefix("lasting ").unwrap().parse().unwrap();
    let rounds: usize = lines[skills + 2 + effects].parse().unwrap();
    eprintln!("ji_referee shrunk to {skills} skills, {effects} effects, {rounds} rounds");
    // The bug needs one effect that takes a skill and a round that plays it.
    assert!(skills <= 3 && effects == 1 && rounds <= 2, "{}", f.report);
    assert!(f.answer.starts_with("ILLEGAL"), "{}", f.report);
}

/// The `lasting` profiles are stressed as the others: our programs agree
/// with themselves on every case (each case is judged by running ours).
#[test]
fn stress_runs_the_lasting_profiles() {
    for problem in ["ji_referee", "ji_solver"] {
        let ours = solver(problem);
        let args = ["stress", problem, "--profile", "lasting", "--count", "60", "--solver", ours];
        let (code, out, err) = kit(&[&args[..], &["--", ours]].concat());
        assert_eq!(code, 0, "{out}{err}");
        let want = format!("stress {problem}: 60 cases (profile lasting, seed 1), your program agrees with ours on all (");
        assert!(out.starts_with(&want), "{out}");
    }
}

#[test]
fn stress_finds_the_solver_that_applies_the_draw_chance_twice() {
    let dir = Scratch::new("kit-stress-jis");
    let exe = DRAWS_TWICE.build(&dir);
    let f = stress_finds("ji_solver", "draw_prob", &[exe.as_os_str()]);
    // n, n skill lines, `R p`, q, q queries: one record per line.
    let lines: Vec<&str> = f.input.lines().collect();
    let skills: usize = lines[0].parse().unwrap();
    let (rounds, percent) = lines[skills + 1].split_once(' ').unwrap();
    let queries: usize = lines[skills + 2].parse().unwrap();
    eprintln!(
        "ji_solver shrunk to {skills} skills, R = {rounds}, p = {percent}, {queries} queries"
    );
    assert!(skills <= 3 && queries <= 2, "{}", f.report);
    // The planted bug needs a draw chance and a second round.
    assert!(percent.parse::<f64>().unwrap() > 0.0, "{}", f.report);
    assert_ne!(rounds, "1", "{}", f.report);
}

/// `--shrink-time 0`: the budget is spent before the first candidate, so
/// the case is reported and saved as found, and the report says why.
#[test]
fn stress_with_no_shrink_time_reports_the_case_as_found_and_says_so() {
    let mp = planted("always_mp.sh");
    let dir = Scratch::new("kit-stress-budget");
    let out_dir = dir.path().join("failures").display().to_string();
    let (code, report, err) = kit(&[
        "stress",
        "zhuguosha",
        "--shrink-time",
        "0",
        "--no-diagnose",
        "--out",
        &out_dir,
        "--solver",
        solver("zhuguosha"),
        "--",
        "sh",
        &mp,
    ]);
    assert_eq!(code, 1, "{report}{err}");
    assert!(report.starts_with("stress zhuguosha: case 0 (profile random, seed 1) fails: "));
    assert!(report.contains("; shrunk in 0 steps (0 candidates tried, "), "{report}");
    assert!(
        report.contains(
            "\nshrinking stopped at the budget (--shrink-time 0 s) with candidates left: \
             shown is the smallest failing input found so far\n"
        ),
        "{report}"
    );
    // Saved as found: case 0 of `kit gen` with the same seed.
    let (_, case0, _) = kit(&["gen", "zhuguosha", "--seed", "1", "--solver", solver("zhuguosha")]);
    let (cases, _) = kit::cases::discover(Path::new(&out_dir)).unwrap();
    assert_eq!(common::read_text(&cases[0].input), case0);
    let size = case0.len();
    assert!(report.contains(&format!(": {size} -> {size} bytes\n")), "{report}");
}

#[test]
fn stress_with_our_own_solver_agrees_everywhere() {
    let (code, out, err) = kit(&[
        "stress",
        "zhuguosha",
        "--count",
        "40",
        "--solver",
        solver("zhuguosha"),
        "--",
        solver("zhuguosha"),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("stress zhuguosha: 40 cases (profile random, seed 1), your program agrees with ours on all ("), "{out}");
}

/// `--jobs 2` reports the same (lowest) failing case as `--jobs 1`, and
/// shrinks it to the same input.
#[test]
fn stress_jobs_find_the_same_case_as_one_job() {
    let mp = planted("always_mp.sh");
    let run = |jobs: &str| {
        let dir = Scratch::new("kit-stress-jobs");
        let out_dir = dir.path().join("failures").display().to_string();
        let (code, report, err) = kit(&[
            "stress",
            "zhuguosha",
            "--seed",
            "4",
            "--count",
            "100",
            "--jobs",
            jobs,
            "--out",
            &out_dir,
            "--shrink-time",
            AMPLE_SHRINK_TIME,
            "--no-diagnose",
            "--solver",
            solver("zhuguosha"),
            "--",
            "sh",
            &mp,
        ]);
        assert_eq!(code, 1, "{report}{err}");
        let (cases, _) = kit::cases::discover(Path::new(&out_dir)).unwrap();
        let input = common::read_text(&cases[0].input);
        (report.lines().next().unwrap().to_string(), input)
    };
    assert_eq!(run("1"), run("2"));
}

/// `--profile all`: every profile in turn, `--count` cases each.
#[test]
fn stress_profile_all_runs_every_profile() {
    let (_, list, _) = kit(&["gen", "zhuguosha", "--list"]);
    let profiles: Vec<&str> = list.lines().map(|l| l.split(' ').next().unwrap()).collect();
    let (code, out, err) = kit(&[
        "stress",
        "zhuguosha",
        "--profile",
        "all",
        "--count",
        "2",
        "--jobs",
        "2",
        "--solver",
        solver("zhuguosha"),
        "--",
        solver("zhuguosha"),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), profiles.len(), "{out}");
    for (line, profile) in lines.iter().zip(&profiles) {
        let want = format!("stress zhuguosha: 2 cases (profile {profile}, seed 1), your program agrees with ours on all (");
        assert!(line.starts_with(&want), "{line}");
    }
}
