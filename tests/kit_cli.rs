//! The `kit` executable itself (a binary of this package, built from
//! kit/src/main.rs): exit codes, one-line errors, and where it looks for
//! our solvers and fixtures. These need no solver build: a fake
//! solver (a shell script) stands beside a copy of `kit` where one is
//! needed.

use kit::scratch::Scratch;
use std::process::{Command, Output, Stdio};

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

#[test]
fn help_exits_0_and_names_every_command() {
    let out = kit().arg("--help").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let (stdout, _) = text(&out);
    for usage in ["kit gen PROBLEM", "kit judge PROBLEM", "kit stress PROBLEM", "exit codes"] {
        assert!(stdout.contains(usage), "{usage}");
    }
}

#[test]
fn version_names_kit_and_its_version() {
    let out = kit().arg("--version").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    // kit's own version (kit/Cargo.toml), not this package's.
    assert_eq!(text(&out).0, kit::cli::VERSION);
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
    let empty = Scratch::new("cli-nosolver");
    let out =
        kit().env("KIT_SOLVER_DIR", empty.path()).args(["gen", "zhuguosha"]).output().unwrap();
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr.starts_with("kit: our solver zhuguosha is not at "), "{stderr}");
    assert!(
        stderr.contains("(from KIT_SOLVER_DIR): build them with `cargo build --release`"),
        "{stderr}"
    );
    let out =
        kit().args(["gen", "zhuguosha", "--solver", "/nonexistent/zhuguosha"]).output().unwrap();
    assert_eq!(text(&out).1, "kit: --solver /nonexistent/zhuguosha: no such file\n");
}

/// `target/release/kit` uses `target/release/zhuguosha`: a copy of kit
/// with a fake solver beside it uses that one.
#[test]
#[cfg(unix)]
fn the_solver_beside_kit_is_the_default() {
    let dir = Scratch::new("cli-beside");
    let copy = dir.path().join("kit");
    std::fs::copy(env!("CARGO_BIN_EXE_kit"), &copy).unwrap();
    // Answers every game with a line of its own, so the .out shows who ran.
    dir.executable("zhuguosha", "#!/bin/sh\ncat >/dev/null\necho fake solver\n");
    let out_dir = dir.path().join("cases");
    let mut command = Command::new(&copy);
    command.env_remove("KIT_SOLVER_DIR").args(["gen", "zhuguosha", "--count", "2", "--out"]);
    command.arg(&out_dir);
    // Linux's "text file busy" (`ErrorKind::ExecutableFileBusy` is newer
    // than the kit's Rust 1.70).
    const ETXTBSY: i32 = 26;
    // A process another test thread forks while `copy` was still open for
    // writing holds it open until its own exec: "text file busy" for a
    // moment. Try again after it.
    let out = (0..100)
        .map(|_| command.output())
        .find(|run| {
            let busy = matches!(run, Err(e) if e.raw_os_error() == Some(ETXTBSY));
            if busy {
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            !busy
        })
        .expect("the copy of kit stays busy")
        .unwrap();
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stdout.starts_with("wrote 2 cases of zhuguosha profile random seed 1 to "), "{stdout}");
    for case in ["0000", "0001"] {
        let answer = std::fs::read_to_string(out_dir.join(format!("{case}.out"))).unwrap();
        assert_eq!(answer, "fake solver\n");
        assert!(out_dir.join(format!("{case}.in")).is_file());
    }
}

/// The command `kit stress` prints to judge a failure again names kit as
/// it was invoked (here by its full path), so that it runs as shown.
#[test]
#[cfg(unix)]
fn the_judge_again_hint_names_kit_as_invoked() {
    let dir = Scratch::new("cli-hint");
    let ours = dir.executable("ours", "#!/bin/sh\ncat >/dev/null\necho MP\n");
    let failures = dir.path().join("failures");
    let out = kit()
        .args(["stress", "zhuguosha", "--count", "1", "--solver"])
        .arg(&ours)
        .arg("--out")
        .arg(&failures)
        .args(["--", "false"])
        .output()
        .unwrap();
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let hint = stdout.lines().last().unwrap_or("");
    let want = format!("judge it again: {} judge zhuguosha --dir ", env!("CARGO_BIN_EXE_kit"));
    assert!(hint.starts_with(&want) && hint.ends_with(" -- false"), "{stdout}");
}

/// Without --dir, `kit judge` reads tests/data/PROBLEM below the current
/// directory, and runs the program there (so `python3 sol.py` works).
#[test]
#[cfg(unix)]
fn judge_defaults_to_tests_data_and_runs_in_the_current_directory() {
    let dir = Scratch::new("cli-judge");
    dir.write("tests/data/ji_referee/x/one.in", "1\na 1 0 0\n1\na a\n");
    dir.write("tests/data/ji_referee/x/one.out", "CONTINUE 1 1\n");
    dir.write("sol.sh", "cat >/dev/null\necho CONTINUE 1 1\n");
    let out = kit()
        .current_dir(dir.path())
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
        .current_dir(dir.path().join("tests"))
        .args(["judge", "ji_referee", "--", "true"])
        .output()
        .unwrap();
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr.starts_with("kit: tests/data/ji_referee: no such folder"), "{stderr}");
}

#[test]
fn every_command_has_its_own_help() {
    for (command, usage) in [
        ("gen", "usage: kit gen PROBLEM"),
        ("judge", "usage: kit judge PROBLEM"),
        ("stress", "usage: kit stress PROBLEM"),
    ] {
        for args in [&[command, "--help"][..], &[command, "zhuguosha", "-h", "--", "x"]] {
            let out = kit().args(args).output().unwrap();
            let (stdout, stderr) = text(&out);
            assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
            assert!(stdout.starts_with(usage), "{args:?}: {stdout}");
        }
    }
    // After `--`, --help is the program's own argument.
    let out = kit()
        .args(["judge", "zhuguosha", "--dir", "/nonexistent", "--", "x", "--help"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// `kit gen ... | head -1`: the reader goes away; kit ends quietly.
#[test]
#[cfg(unix)]
fn a_closed_stdout_ends_gen_quietly() {
    let dir = Scratch::new("cli-pipe");
    // A big case (a 2000 x 2000 map) that does not fit in the pipe, from a
    // fake solver that answers at once.
    let solver = dir.executable("ants_battle", "#!/bin/sh\ncat >/dev/null\necho ok\n");
    let mut child = kit()
        .args(["gen", "ants_battle", "--profile", "big", "--solver"])
        .arg(&solver)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // closed before kit writes
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    // Only the line on how kit measures the solver's run.
    let stderr = text(&out).1;
    let said: Vec<&str> = stderr.lines().filter(|l| !l.starts_with("kit: measuring ")).collect();
    assert!(said.is_empty(), "{stderr}");
}

#[test]
#[cfg(unix)]
fn a_program_in_the_current_folder_gets_a_hint() {
    let dir = Scratch::new("cli-hint");
    dir.write("tests/data/ji_referee/one.in", "1\na 1 0 0\n1\na a\n");
    dir.write("tests/data/ji_referee/one.out", "CONTINUE 1 1\n");
    dir.executable("sol", "#!/bin/sh\necho CONTINUE 1 1\n");
    let out =
        kit().current_dir(dir.path()).args(["judge", "ji_referee", "--", "sol"]).output().unwrap();
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr.starts_with("kit: cannot start `sol`: "), "{stderr}");
    assert!(stderr.trim_end().ends_with("did you mean ./sol?"), "{stderr}");
}

/// Whether process `pid` is gone (or a zombie nobody has reaped yet).
#[cfg(target_os = "linux")]
fn gone(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat.rsplit(')').next().is_some_and(|rest| rest.trim_start().starts_with('Z')),
    }
}

/// SIGTERM, SIGHUP and SIGINT to kit stop the program it runs, and its
/// children.
#[test]
#[cfg(target_os = "linux")]
fn stopping_kit_stops_the_program_it_runs() {
    for signal in ["TERM", "HUP", "INT"] {
        let dir = Scratch::new("cli-signal");
        dir.write("cases/one.in", "1\n");
        dir.write("cases/one.out", "1\n");
        let pids = dir.path().join("pids");
        // The program and a child of its own, both sleeping: record their
        // pids, then wait.
        let hang = dir.write(
            "hang.sh",
            &format!(
                "sleep 300 & echo $$ $! > {p}.tmp; mv {p}.tmp {p}; wait\n",
                p = pids.display()
            ),
        );
        let mut child = kit()
            .args(["judge", "zhuguosha", "--time-limit", "100000", "--dir"])
            .arg(dir.path().join("cases"))
            .arg("--")
            .arg("sh")
            .arg(&hang)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Bounded waits (not timed assertions): at most 60 s each.
        let mut recorded = String::new();
        for _ in 0..6000 {
            if let Ok(text) = std::fs::read_to_string(&pids) {
                recorded = text;
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let programs: Vec<&str> = recorded.split_whitespace().collect();
        assert_eq!(programs.len(), 2, "the program never started: {recorded:?}");
        let status = Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let end = child.wait().unwrap();
        use std::os::unix::process::ExitStatusExt;
        assert!(end.signal().is_some(), "SIG{signal}: kit ended by {end:?}");
        for pid in &programs {
            let mut dead = false;
            for _ in 0..6000 {
                if gone(pid) {
                    dead = true;
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            if !dead {
                let _ = Command::new("kill").args(["-KILL", pid]).status();
            }
            assert!(dead, "SIG{signal}: process {pid} outlived kit");
        }
    }
}

/// Waits (bounded: at most 60 s, not a timed assertion) until `file`
/// holds at least `count` pids; returns them.
#[cfg(target_os = "linux")]
fn recorded_pids(file: &std::path::Path, count: usize) -> Vec<String> {
    let mut pids = Vec::new();
    for _ in 0..6000 {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        // Whole lines only: a line being written is not yet counted.
        let whole = text.rfind('\n').map_or("", |end| &text[..end]);
        pids = whole.split_whitespace().map(str::to_string).collect();
        if pids.len() >= count {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert!(pids.len() >= count, "the programs never started: {pids:?}");
    pids
}

/// Whether every process of `pids` is gone, waiting (bounded) for the
/// kernel; what is left is killed, so that a failure leaves nothing.
#[cfg(target_os = "linux")]
fn all_gone(pids: &[String]) -> Vec<String> {
    let mut left = Vec::new();
    for pid in pids {
        let dead = (0..6000).any(|_| {
            let dead = gone(pid);
            if !dead {
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            dead
        });
        if !dead {
            let _ = Command::new("kill").args(["-KILL", pid]).status();
            left.push(pid.clone());
        }
    }
    left
}

/// A program that records its pid and its child's (a wrapper whose child
/// spins), then waits for it; the pids go to `pids` as one line.
#[cfg(target_os = "linux")]
fn wrapper_with_a_spinning_child(dir: &Scratch, pids: &std::path::Path) -> std::path::PathBuf {
    dir.write(
        "wrapper.sh",
        &format!(
            "cat >/dev/null\nsh -c 'while :; do :; done' &\necho $$ $! >> {}\nwait\n",
            pids.display()
        ),
    )
}

/// SIGKILL of kit runs no handler of kit's, yet neither the program it
/// judges nor that program's child outlives it: the program dies with its
/// parent (PR_SET_PDEATHSIG), the child is killed by kit's keeper.
#[test]
#[cfg(target_os = "linux")]
fn a_program_and_its_child_die_with_a_killed_kit() {
    let dir = Scratch::new("cli-sigkill");
    dir.write("cases/one.in", "1\n");
    dir.write("cases/one.out", "1\n");
    let pids = dir.path().join("pids");
    let wrapper = wrapper_with_a_spinning_child(&dir, &pids);
    let mut child = kit()
        .args(["judge", "zhuguosha", "--time-limit", "100000", "--dir"])
        .arg(dir.path().join("cases"))
        .arg("--")
        .arg("sh")
        .arg(&wrapper)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let programs = recorded_pids(&pids, 2);
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    assert_eq!(all_gone(&programs), Vec::<String>::new(), "outlived kit -9");
}

/// The same under `kit stress --jobs 2`: two programs at once, each run
/// from a worker thread, each with a child; all four die with kit.
#[test]
#[cfg(target_os = "linux")]
fn programs_of_parallel_jobs_die_with_a_killed_kit() {
    let dir = Scratch::new("cli-sigkill-jobs");
    let ours = dir.executable("ours", "#!/bin/sh\ncat >/dev/null\necho MP\n");
    let pids = dir.path().join("pids");
    let calls = dir.path().join("calls");
    // Fast on kit's start-up check (its first run), then a wrapper whose
    // child spins on every case.
    let wrapper = wrapper_with_a_spinning_child(&dir, &pids);
    let program = dir.write(
        "program.sh",
        &format!(
            "echo x >> {calls}\n[ $(wc -l < {calls}) -le 1 ] && {{ cat >/dev/null; echo MP; exit 0; }}\n\
             exec sh {wrapper}\n",
            calls = calls.display(),
            wrapper = wrapper.display()
        ),
    );
    let mut child = kit()
        .args(["stress", "zhuguosha", "--jobs", "2", "--time-limit", "100000", "--solver"])
        .arg(&ours)
        .arg("--out")
        .arg(dir.path().join("failures"))
        .arg("--")
        .arg("sh")
        .arg(&program)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let programs = recorded_pids(&pids, 4);
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    assert_eq!(all_gone(&programs), Vec::<String>::new(), "outlived kit -9 under --jobs 2");
}

/// Under a flood of output, kit holds no more than the output limit: its
/// own peak memory (measured by kit's runner, as kit runs any program)
/// stays far below what it would keep of an unbounded flood.
#[test]
#[cfg(target_os = "linux")]
fn kits_memory_under_a_flood_is_bounded_by_the_output_limit() {
    use kit::run::{run, Cmd, Peak};
    let dir = Scratch::new("cli-flood");
    dir.write("cases/one.in", "1\n");
    dir.write("cases/one.out", "1\n");
    let cmd = Cmd::new(env!("CARGO_BIN_EXE_kit"))
        .arg("judge")
        .arg("zhuguosha")
        .arg("--output-limit")
        .arg("16")
        .arg("--time-limit")
        .arg("60000")
        .arg("--dir")
        .arg(dir.path().join("cases"))
        .arg("--")
        .arg("yes");
    let o = run(&cmd, b"", std::time::Duration::from_secs(120), None).unwrap();
    let text = o.stdout_text();
    assert!(text.starts_with("OLE "), "{text}");
    match o.peak {
        // kit itself (a few MiB) and the 16 MiB it keeps.
        Some(Peak::Exact(kib)) => assert!(kib < 40 * 1024, "kit's peak: {kib} KiB"),
        other => panic!("{other:?}"),
    }
}
