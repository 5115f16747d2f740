//! `kit judge` against small hostile programs, in each way kit measures:
//! a cgroup v1 group per run (`KIT_CGROUP=v1`: what CI's machines have),
//! a cgroup v2 group (`KIT_CGROUP=v2`, where delegated), and no group
//! (`KIT_CGROUP=off`: every descendant followed through `/proc`). The
//! programs are C, compiled here with `cc`: threads, fork fan-out, a child
//! that leaves the process group, a double-forked `setsid` daemon, short
//! children reaped by the kernel, forked readers of one table, a memfd, a
//! fork bomb, and a kit stopped (SIGSTOP) while its program ends. After
//! every run, nothing is left: no process of the program, no group.
//!
//! A mode this machine lacks prints SKIPPED; under `CI=true` the v1 mode
//! must be there (CI runs as root with the v1 controllers), the v2 mode
//! need not.

mod common;

use kit::scratch::Scratch;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

/// How kit is asked to measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    V1,
    V2,
    Off,
}

impl Mode {
    fn env(self) -> &'static str {
        match self {
            Mode::V1 => "v1",
            Mode::V2 => "v2",
            Mode::Off => "off",
        }
    }
}

impl Mode {
    /// The one line kit says on stderr for this mode.
    fn note(self) -> &'static str {
        match self {
            Mode::V1 => "kit: measuring with a cgroup v1 per run (cpuacct, memory, pids)",
            Mode::V2 => "kit: measuring with a cgroup v2 per run (cpu, memory, pids)",
            Mode::Off => "kit: measuring without a control group: every descendant",
        }
    }
}

/// Copies the answer file named by argv[1] to stdout: the program's
/// correct answer, once its hostile part is done.
const PRELUDE: &str = r#"
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
static void answer(const char *path) {
    FILE *f = fopen(path, "r");
    int c;
    while (f && (c = getc(f)) != EOF) putchar(c);
    fflush(stdout);
}
static void spin(void) { for (;;) {} }
static void burn_ms(long ms) {
    clock_t end = clock() + ms * (CLOCKS_PER_SEC / 1000);
    while (clock() < end) {}
}
"#;

/// One test's folder: the case (our 猪国杀 sample and its answer) and the
/// compiled program.
struct Setup {
    dir: Scratch,
    exe: PathBuf,
    /// Processes of that name before the test (a zombie an earlier,
    /// interrupted run left to an init that does not reap): not this
    /// test's.
    before: Vec<u32>,
}

/// Compiles `body` (after [`PRELUDE`]) as `name`; `None` (SKIPPED) without
/// `cc`.
fn setup(name: &str, body: &str, test: &str) -> Option<Setup> {
    let cc = common::tool_or_skip(&["cc"], test)?;
    let dir = Scratch::new("kit-run");
    let data = common::root().join("tests/data/zhuguosha");
    for ext in ["in", "out"] {
        dir.write(&format!("case.{ext}"), &common::read_text(&data.join(format!("sample.{ext}"))));
    }
    let src = dir.write(&format!("{name}.c"), &format!("{PRELUDE}{body}"));
    let exe = dir.path().join(name);
    let out = Command::new(cc).arg("-O1").arg("-pthread").arg("-o").arg(&exe).arg(&src).output();
    let out = out.expect("cc runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let comm: String = name.chars().take(15).collect();
    let before = processes_named(&comm).iter().map(|m| m.0).collect();
    Some(Setup { dir, exe, before })
}

/// Whether this machine gives kit `mode`; prints SKIPPED when not (and
/// fails under CI=true for v1, which CI's machines have).
fn available(mode: Mode, s: &Setup, test: &str) -> bool {
    if mode == Mode::Off {
        return true;
    }
    let (_, err) = judge_raw(mode, &s.dir.path().join("case.in"), &[], &["true".into()]);
    if !err.contains("kit: no cgroup") {
        return true;
    }
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    if ci && mode == Mode::V1 {
        panic!("{test}: kit cannot make cgroup v1 groups here, and CI must test them: {err}");
    }
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "SKIPPED {test} ({mode:?}): {}", err.trim());
    false
}

fn kit(mode: Mode, args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kit"));
    cmd.args(args).env("KIT_CGROUP", mode.env()).stdin(Stdio::null());
    cmd.output().expect("kit runs")
}

/// `kit judge zhuguosha CASE --  PROGRAM ARGS` with `extra` options, in
/// `mode`: stdout and stderr.
fn judge_raw(mode: Mode, case: &Path, extra: &[&str], program: &[String]) -> (String, String) {
    let case = case.display().to_string();
    let mut args = vec!["judge", "zhuguosha", &case];
    args.extend(extra);
    args.push("--");
    args.extend(program.iter().map(String::as_str));
    let out = kit(mode, &args);
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (text(&out.stdout), text(&out.stderr))
}

/// What a judged run says: its verdict word and its figures' line.
struct Judged {
    verdict: String,
    line: String,
    stderr: String,
}

/// Judges the set-up program (given `args` after the answer file) and
/// checks that nothing of it, and no group, is left.
fn judge(mode: Mode, s: &Setup, extra: &[&str], args: &[&str]) -> Judged {
    let case = s.dir.path().join("case.in");
    let answer = s.dir.path().join("case.out").display().to_string();
    let mut program = vec![s.exe.display().to_string(), answer];
    program.extend(args.iter().map(|a| a.to_string()));
    let (out, err) = judge_raw(mode, &case, extra, &program);
    nothing_left(s);
    let line = out.lines().next().unwrap_or("").to_string();
    let verdict = line.split_whitespace().next().unwrap_or("").to_string();
    Judged { verdict, line, stderr: err }
}

/// No process runs `exe` (alive or a zombie), and no kit group is left in
/// any hierarchy.
fn nothing_left(s: &Setup) {
    left_behind(s, false);
}

/// [`nothing_left`], but a dead process whose parent is init (a zombie
/// init has not reaped yet: kit, killed, could not) does not count.
fn nothing_running(s: &Setup) {
    left_behind(s, true);
}

fn left_behind(s: &Setup, inits_zombies: bool) {
    let name = s.exe.file_name().unwrap().to_string_lossy().into_owned();
    let comm: String = name.chars().take(15).collect();
    // The kernel may take a moment to reap what init inherited, and the
    // keeper of a killed kit a moment to remove its groups (longer on a
    // busy machine): wait for both, up to 10 s, a bound and not a measure.
    let mut left = Vec::new();
    let mut groups = Vec::new();
    for _ in 0..2000 {
        left = processes_named(&comm);
        left.retain(|m| !s.before.contains(&m.0));
        left.retain(|m| !(inits_zombies && m.1.contains(") Z 1 ")));
        groups = kit_groups(Path::new("/sys/fs/cgroup"), 0);
        if left.is_empty() && groups.is_empty() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(left.is_empty(), "{name} left running: {left:?}");
    assert!(groups.is_empty(), "groups left: {groups:?}");
}

/// The pid and `/proc/PID/stat` line of each process named `comm`.
fn processes_named(comm: &str) -> Vec<(u32, String)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else { continue };
        let (Some(a), Some(b)) = (stat.find('('), stat.rfind(')')) else { continue };
        let pid = stat[..a].trim().parse().unwrap_or(0);
        if &stat[a + 1..b] == comm {
            found.push((pid, stat));
        }
    }
    found
}

/// Folders named `kit-PID-K` whose kit (PID) is gone.
fn kit_groups(dir: &Path, depth: usize) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else { return found };
    for e in entries.flatten() {
        let path = e.path();
        if !e.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        let name = e.file_name().to_string_lossy().into_owned();
        if let Some(pid) = name.strip_prefix("kit-").and_then(|r| r.split('-').next()) {
            if !Path::new("/proc").join(pid).exists() {
                found.push(path);
            }
        } else if depth < 3 {
            found.extend(kit_groups(&path, depth + 1));
        }
    }
    found
}

/// The CPU milliseconds of a judged line (`TLE  512 ms cpu ...`).
fn cpu_ms(line: &str) -> u64 {
    let words: Vec<&str> = line.split_whitespace().collect();
    words.windows(3).find(|w| w[1] == "ms" && w[2] == "cpu").map_or(0, |w| w[0].parse().unwrap())
}

/// `kit judge` of the set-up program in each of `modes` this machine has,
/// with `options`: the verdict is `want`.
fn expect_verdict(s: &Setup, test: &str, modes: &[Mode], options: &[&str], want: &str) {
    in_modes(test, s, modes, |mode| {
        let j = judge(mode, s, options, &[]);
        assert_eq!(j.verdict, want, "{mode:?}: {}", j.line);
    });
}

/// Runs `check` in each mode this machine has.
fn in_modes(test: &str, s: &Setup, modes: &[Mode], check: impl Fn(Mode)) {
    for &mode in modes {
        if available(mode, s, test) {
            check(mode);
        }
    }
}

const ALL: [Mode; 3] = [Mode::V1, Mode::V2, Mode::Off];
const GROUPS: [Mode; 2] = [Mode::V1, Mode::V2];

/// Four spinning threads: their CPU is the program's, over the limit.
#[test]
fn threads_count() {
    let body = r#"
static void *run(void *a) { spin(); return a; }
int main(void) {
    pthread_t t;
    for (int i = 0; i < 3; i++) pthread_create(&t, 0, run, 0);
    spin();
}"#;
    let Some(s) = setup("kr_threads", body, "threads_count") else { return };
    in_modes("threads_count", &s, &ALL, |mode| {
        let j = judge(mode, &s, &["--time-limit", "300"], &[]);
        assert_eq!(j.verdict, "TLE", "{mode:?}: {}", j.line);
        assert!(cpu_ms(&j.line) >= 300, "{mode:?}: {}", j.line);
    });
}

/// A child that moves to a process group of its own and spins: killed at
/// the end of a run that answered (AC), and counted in a run that waits
/// for it (TLE, not an idle program).
#[test]
fn a_child_that_leaves_the_process_group_is_followed() {
    let body = r#"
int main(int argc, char **argv) {
    if (fork() == 0) { setpgid(0, 0); spin(); }
    if (argc > 2) wait(0);
    answer(argv[1]);
    return 0;
}"#;
    killed_at_the_end_and_counted("kr_setpgid", body, "setpgid");
}

/// A double-forked `setsid` daemon that spins: killed at the end, and its
/// CPU counted while the program sleeps.
#[test]
fn a_setsid_daemon_is_followed() {
    let body = r#"
int main(int argc, char **argv) {
    if (fork() == 0) {
        setsid();
        if (fork() == 0) spin();
        _exit(0);
    }
    wait(0);
    if (argc > 2) sleep(30);
    answer(argv[1]);
    return 0;
}"#;
    killed_at_the_end_and_counted("kr_setsid", body, "setsid");
}

/// A program whose spinning descendant escapes its process group: AC when
/// it answers and ends (the descendant killed then), TLE when, given one
/// more argument, it waits while the descendant spins (its CPU counted,
/// not an idle program), in every way of measuring.
fn killed_at_the_end_and_counted(name: &str, body: &str, test: &str) {
    let Some(s) = setup(name, body, test) else { return };
    in_modes(test, &s, &ALL, |mode| {
        let j = judge(mode, &s, &["--time-limit", "300"], &[]);
        assert_eq!(j.verdict, "AC", "{mode:?}: {}", j.line);
        let j = judge(mode, &s, &["--time-limit", "300"], &["wait"]);
        assert_eq!(j.verdict, "TLE", "{mode:?}: {}", j.line);
    });
}

/// 200 children of 10 ms of CPU each, reaped by the kernel (SIGCHLD
/// ignored): 2 s of CPU in all, over a 500 ms limit. Only a group sees
/// it (the fallback says so on stderr, once).
#[test]
fn short_children_reaped_by_the_kernel_count() {
    let body = r#"
int main(int argc, char **argv) {
    signal(SIGCHLD, SIG_IGN);
    for (int i = 0; i < 200; i++) {
        if (fork() == 0) { burn_ms(10); _exit(0); }
        wait(0);
    }
    answer(argv[1]);
    return 0;
}"#;
    let Some(s) = setup("kr_sigchld", body, "sigchld") else { return };
    expect_verdict(&s, "sigchld", &GROUPS, &["--time-limit", "500"], "TLE");
    let j = judge(Mode::Off, &s, &["--time-limit", "500"], &[]);
    let notes: Vec<&str> =
        j.stderr.lines().filter(|l| l.contains("without a control group")).collect();
    assert_eq!(notes.len(), 1, "{}", j.stderr);
    assert!(notes[0].contains("the kernel reaps"), "{}", notes[0]);
}

/// Three forked readers of one 96 MiB table: 96 MiB once, within a
/// 200 MiB limit.
#[test]
fn shared_pages_count_once() {
    let body = r#"
int main(int argc, char **argv) {
    size_t n = (size_t)96 << 20;
    char *t = malloc(n);
    memset(t, 1, n);
    for (int i = 0; i < 3; i++) {
        if (fork() == 0) {
            long sum = 0;
            for (size_t k = 0; k < n; k += 4096) sum += t[k];
            usleep(300000);
            _exit(sum == 0);
        }
    }
    while (wait(0) > 0) {}
    answer(argv[1]);
    return 0;
}"#;
    let Some(s) = setup("kr_shared", body, "shared") else { return };
    expect_verdict(&s, "shared", &GROUPS, &["--memory-limit", "200"], "AC");
}

/// 300 MiB written to a memfd (in no process's resident set): over a
/// 200 MiB limit.
#[test]
fn memory_in_a_memfd_counts() {
    let body = r#"
int main(int argc, char **argv) {
    int fd = memfd_create("table", 0);
    static char block[1 << 20];
    memset(block, 1, sizeof block);
    for (int i = 0; i < 300; i++) {
        if (write(fd, block, sizeof block) != sizeof block) return 1;
    }
    answer(argv[1]);
    return 0;
}"#;
    let Some(s) = setup("kr_memfd", body, "memfd") else { return };
    expect_verdict(&s, "memfd", &GROUPS, &["--memory-limit", "200"], "MLE");
}

/// A fork bomb stops at the task limit, and all of it goes.
#[test]
fn a_fork_bomb_is_contained() {
    let body = r#"
int main(void) {
    for (;;) fork();
}"#;
    let Some(s) = setup("kr_bomb", body, "bomb") else { return };
    expect_verdict(&s, "bomb", &GROUPS, &["--time-limit", "300"], "TLE");
}

/// kit stopped (SIGSTOP) past the idleness limit while its program ends:
/// on SIGCONT, the program is judged by its exit (AC), not as idle.
#[test]
fn a_suspended_kit_judges_by_the_exit() {
    let body = r#"
int main(int argc, char **argv) {
    usleep(200000);
    answer(argv[1]);
    return 0;
}"#;
    let Some(s) = setup("kr_suspended", body, "suspended") else { return };
    in_modes("suspended", &s, &ALL, |mode| {
        let case = s.dir.path().join("case.in").display().to_string();
        let answer = s.dir.path().join("case.out").display().to_string();
        let exe = s.exe.display().to_string();
        let child = Command::new(env!("CARGO_BIN_EXE_kit"))
            .args(["judge", "zhuguosha", &case, "--time-limit", "100", "--", &exe, &answer])
            .env("KIT_CGROUP", mode.env())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("kit runs");
        let pid = child.id().to_string();
        std::thread::sleep(Duration::from_millis(50));
        let signal = |sig: &str| {
            let ok = Command::new("kill").args(["-s", sig, &pid]).status().unwrap().success();
            assert!(ok, "kill -s {sig}");
        };
        signal("STOP");
        // Past the idleness limit of a 100 ms limit (2 x 100 + 1000 ms).
        std::thread::sleep(Duration::from_millis(1500));
        signal("CONT");
        let out = child.wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.starts_with("AC "), "{mode:?}: {text}");
        nothing_left(&s);
    });
}

/// A program that only answers.
const JUST_ANSWERS: &str = r#"
int main(int argc, char **argv) {
    answer(argv[1]);
    return 0;
}"#;

/// A layout that cannot be used (asked for by name: v2 where it is not
/// delegated, as here and on CI's machines): one line saying why, the
/// fallback's note, and the run judged all the same, nothing left.
#[test]
fn a_group_that_cannot_be_made_falls_back_in_one_line() {
    let Some(s) = setup("kr_fallback", JUST_ANSWERS, "fallback") else { return };
    let j = judge(Mode::V2, &s, &[], &[]);
    assert_eq!(j.verdict, "AC", "{}", j.line);
    let refused = j.stderr.lines().filter(|l| l.starts_with("kit: no cgroup v2 group: ")).count();
    if refused == 0 {
        // v2 is delegated here: nothing to fall back from; the one line
        // names the group kit's groups are made below.
        assert_eq!(j.stderr.lines().count(), 1, "{}", j.stderr);
        assert!(j.stderr.starts_with(&format!("{} below /", Mode::V2.note())), "{}", j.stderr);
        return;
    }
    assert_eq!(refused, 1, "{}", j.stderr);
    assert_eq!(j.stderr.lines().count(), 2, "{}", j.stderr);
    assert!(j.stderr.contains("without a control group"), "{}", j.stderr);
}

/// Every command that runs a program says once, in one line on stderr,
/// how it measures: judge, stress (two jobs), gen, show and package, in
/// each mode this machine has.
#[test]
fn every_command_says_its_accounting_once() {
    let Some(s) = setup("kr_said", JUST_ANSWERS, "said") else { return };
    let ours = common::solver("zhuguosha");
    let case = s.dir.path().join("case.in").display().to_string();
    let answer = s.dir.path().join("case.out").display().to_string();
    let exe = s.exe.display().to_string();
    in_modes("said", &s, &[Mode::V1, Mode::V2, Mode::Off], |mode| {
        let out =
            |name: &str| s.dir.path().join(format!("{name}-{}", mode.env())).display().to_string();
        // A package's folder is named as the problem is: letters and digits.
        let package = s.dir.path().join(format!("pkg{}", mode.env())).display().to_string();
        let (stress, page) = (out("stress"), out("page.html"));
        let commands: [Vec<&str>; 5] = [
            vec!["judge", "zhuguosha", &case, "--", &exe, &answer],
            vec![
                "stress",
                "zhuguosha",
                "--count",
                "4",
                "--jobs",
                "2",
                "--out",
                &stress,
                "--solver",
                ours,
                "--",
                ours,
            ],
            vec!["gen", "zhuguosha", "--seed", "1", "--solver", ours],
            vec!["show", "zhuguosha", &case, "--out", &page, "--solver", ours],
            vec!["package", "zhuguosha", "--out", &package, "--solver", ours],
        ];
        for args in &commands {
            let run = kit(mode, args);
            let err = String::from_utf8_lossy(&run.stderr);
            assert!(run.status.success(), "{mode:?} {args:?}: {err}");
            let said: Vec<&str> = err.lines().filter(|l| l.starts_with("kit: measuring")).collect();
            assert_eq!(said.len(), 1, "{mode:?} {args:?}: {err}");
            assert!(said[0].starts_with(mode.note()), "{mode:?} {args:?}: {err}");
            if args[0] == "judge" {
                assert_eq!(err.lines().count(), 1, "{mode:?}: {err}");
            }
        }
        nothing_left(&s);
    });
}

/// kit killed by SIGKILL (no handler runs) while a double-forked daemon of
/// its program spins: the keeper kills it and removes the groups.
#[test]
fn a_daemon_goes_when_kit_is_killed() {
    let body = r#"
int main(int argc, char **argv) {
    if (fork() == 0) {
        setsid();
        if (fork() == 0) spin();
        _exit(0);
    }
    wait(0);
    sleep(30);
    answer(argv[1]);
    return 0;
}"#;
    let Some(s) = setup("kr_killed", body, "killed") else { return };
    in_modes("killed", &s, &ALL, |mode| {
        let case = s.dir.path().join("case.in").display().to_string();
        let answer = s.dir.path().join("case.out").display().to_string();
        let exe = s.exe.display().to_string();
        let mut child = Command::new(env!("CARGO_BIN_EXE_kit"))
            .args(["judge", "zhuguosha", &case, "--time-limit", "60000", "--", &exe, &answer])
            .env("KIT_CGROUP", mode.env())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("kit runs");
        // Until the program and its daemon run (then kit reads its tree at
        // least once).
        let comm = "kr_killed";
        for _ in 0..400 {
            if processes_named(comm).len() >= s.before.len() + 2 {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        std::thread::sleep(Duration::from_millis(100));
        child.kill().unwrap();
        child.wait().unwrap();
        nothing_running(&s);
    });
}
