//! kit's hostile battery in a virtual machine with the unified hierarchy
//! (cgroup v2), the layout of current desktops, which CI's machines (v1)
//! do not have. One boot: qemu (TCG, no KVM) with the machine's own
//! kernel package, driven by virtme-ng, over this machine's own file
//! system, so that this very test executable and the kit built beside it
//! run in the guest as they are. Inside, the executable runs its ignored
//! `guest_battery` test, which judges every hostile program
//! (tests/planted/, C from tests/planted/c/) with `kit judge` in each
//! scenario and prints one `kit-vm:` line per check, which the host reads:
//!
//! - `root`: kit as root, its groups below the root group;
//! - `delegated`: kit as the user `nobody` in a leaf of a tree laid out as
//!   systemd lays out a user's (`user.slice/user-UID.slice/user@UID.service`
//!   owned by the user with `cpu`, `memory` and `pids` available, kit and
//!   its "shell" in `user@UID.service/term.scope`, which holds processes);
//! - `scope`: kit as `nobody` alone in a scope of the user's
//!   (`user@UID.service/app.slice/run-kit.scope`), as `systemd-run --user
//!   --scope -p Delegate=yes` starts it, for the checks only a group
//!   passes and SIGKILL;
//! - `session`: kit as `nobody` in a login's `session-1.scope` (root's, as
//!   for an SSH login) with the user's own `systemd --user` running, where
//!   kit asks it for a scope (`systemd-run --user --scope`): without a
//!   system manager in this guest that fails, and kit must say so in one
//!   line and judge without a group. (systemd as the guest's init, which
//!   would let it succeed, does not boot usably under virtme-ng here: see
//!   docs/kit.md.)
//!
//! In the first three: the verdict a judge gives, and kit's one stderr
//! line saying that it measures with a cgroup v2 group (as `nobody`:
//! naming that group, below `user@UID.service`). In all four: nothing of
//! the program and no group left after each run, also when kit is killed
//! by SIGKILL in the middle of one.
//!
//! Time limits are set for the guest's speed: under TCG programs run
//! several times slower than here. A machine without virtme-ng, qemu or a
//! kernel image prints SKIPPED; so does one whose VM does not start.
//! Under `CI=true` both fail (`.ci/run` installs them, and sets
//! `KIT_VM_VNG`).

mod common;

use kit::scratch::Scratch;
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::io::{Read, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The user the non-root scenarios run as (`nobody`).
const USER: u32 = 65534;

/// Where the cgroup v2 hierarchy is mounted in the guest.
const CGROUP: &str = "/sys/fs/cgroup";

/// The scenarios, in the order the guest runs them.
const SCENARIOS: [&str; 4] = ["root", "delegated", "scope", "session"];

/// The scenarios to run: all, or the one `KIT_VM_ONLY` names (by hand).
fn scenarios() -> Vec<&'static str> {
    let only = std::env::var("KIT_VM_ONLY").unwrap_or_default();
    SCENARIOS.into_iter().filter(|s| only.is_empty() || only == *s).collect()
}

/// The prefix of every line the guest reports on.
const MARK: &str = "kit-vm:";

/// One hostile program and the verdict a judge gives it.
struct Hostile {
    /// The check's name, in the guest's report.
    name: &'static str,
    program: Program,
    /// `kit judge` options: the limits.
    options: &'static [&'static str],
    verdict: &'static str,
}

/// How a hostile program is run.
enum Program {
    /// tests/planted/c/NAME.c, compiled on the host, given the answer
    /// file and then these arguments.
    C(&'static str, &'static [&'static str]),
    /// tests/planted/NAME, run by `sh`.
    Planted(&'static str),
    /// A shell command (`sh -c`).
    Shell(&'static str),
}

/// The battery: each program with limits that give the guest room (a CPU
/// limit is what the program reaches in any case; a memory case has a
/// time limit far enough not to come first under TCG).
const BATTERY: &[Hostile] = &[
    Hostile { name: "answers", program: Program::C("answers", &[]), options: &[], verdict: "AC" },
    Hostile {
        name: "always_mp",
        program: Program::Planted("always_mp.sh"),
        options: &[],
        verdict: "WA",
    },
    Hostile {
        name: "exit_code",
        program: Program::Shell("cat >/dev/null; exit 4"),
        options: &[],
        verdict: "RE",
    },
    Hostile { name: "crash", program: Program::Planted("crash.sh"), options: &[], verdict: "RE" },
    Hostile {
        name: "busy",
        program: Program::Planted("busy.sh"),
        options: &["--time-limit", "300"],
        verdict: "TLE",
    },
    Hostile {
        name: "hang",
        program: Program::Planted("hang.sh"),
        // `sh` and `sleep` starting take about 100 ms of CPU under TCG.
        options: &["--time-limit", "1000"],
        verdict: "ILE",
    },
    Hostile {
        name: "spinning_child",
        program: Program::Planted("spinning_child.sh"),
        options: &["--time-limit", "300"],
        verdict: "TLE",
    },
    Hostile {
        name: "endless_memory",
        program: Program::Planted("endless_memory.sh"),
        options: &["--memory-limit", "32", "--time-limit", "60000"],
        verdict: "MLE",
    },
    Hostile {
        name: "flood",
        program: Program::Planted("flood.sh"),
        options: &["--output-limit", "1", "--time-limit", "60000"],
        verdict: "OLE",
    },
    Hostile {
        name: "threads",
        program: Program::C("threads", &[]),
        options: &["--time-limit", "300"],
        verdict: "TLE",
    },
    Hostile {
        name: "setpgid",
        program: Program::C("setpgid", &[]),
        options: &["--time-limit", "1000"],
        verdict: "AC",
    },
    Hostile {
        name: "setpgid_waited",
        program: Program::C("setpgid", &["wait"]),
        options: &["--time-limit", "1000"],
        verdict: "TLE",
    },
    Hostile {
        name: "setsid",
        program: Program::C("setsid", &[]),
        options: &["--time-limit", "1000"],
        verdict: "AC",
    },
    Hostile {
        name: "setsid_waited",
        program: Program::C("setsid", &["wait"]),
        options: &["--time-limit", "1000"],
        verdict: "TLE",
    },
    // Only a group sees these three as a judge does (the fallback: AC,
    // MLE, AC).
    Hostile {
        name: "sigchld",
        program: Program::C("sigchld", &[]),
        options: &["--time-limit", "500"],
        verdict: "TLE",
    },
    Hostile {
        name: "shared",
        program: Program::C("shared", &[]),
        options: &["--memory-limit", "100", "--time-limit", "20000"],
        verdict: "AC",
    },
    Hostile {
        name: "memfd",
        program: Program::C("memfd", &[]),
        options: &["--memory-limit", "100", "--time-limit", "20000"],
        verdict: "MLE",
    },
    Hostile {
        name: "bomb",
        program: Program::C("bomb", &[]),
        options: &["--time-limit", "300"],
        verdict: "TLE",
    },
];

/// The checks beside the battery, in each scenario: kit stopped past the
/// idleness limit (SIGSTOP) while its program ends, kit killed (SIGKILL)
/// while a daemon of its program spins, and `kit stress --jobs 2` (two
/// groups at once).
const OTHER_CHECKS: [&str; 3] = ["suspended", "killed", "stress"];

/// The checks of the `session` scenario (a login's scope, root's, where
/// `systemd-run` fails).
const SESSION_CHECKS: [&str; 2] = ["scope_refused", "killed"];

/// The checks of the `scope` scenario (kit alone in a scope of the
/// user's, as `systemd-run --user --scope` gives it): those only a group
/// judges as a judge does, and SIGKILL.
const SCOPE_CHECKS: [&str; 5] = ["answers", "sigchld", "shared", "memfd", "killed"];

/// The names of the checks of `scenario`.
fn checks(scenario: &str) -> Vec<&'static str> {
    match scenario {
        "session" => return SESSION_CHECKS.to_vec(),
        "scope" => return SCOPE_CHECKS.to_vec(),
        _ => {}
    }
    BATTERY.iter().map(|h| h.name).chain(OTHER_CHECKS).collect()
}

/// The C programs the battery compiles.
const C_PROGRAMS: [&str; 8] =
    ["answers", "threads", "setpgid", "setsid", "sigchld", "shared", "memfd", "bomb"];

// ---------------------------------------------------------------- host

/// Boots the VM once and reads the guest's report: every check of every
/// scenario passed.
#[test]
fn hostile_battery_in_a_v2_vm() {
    let test = "hostile_battery_in_a_v2_vm";
    let Some(vm) = Vm::find(test) else { return };
    let Some(cc) = common::tool_or_skip(&["cc"], test) else { return };
    let dir = prepare(&cc);
    let started = Instant::now();
    let boot = vm.boot(&dir);
    let took = started.elapsed();
    // (A line may follow the test harness's own words on the same line.)
    let report: Vec<&str> =
        boot.stdout.lines().filter_map(|l| l.find(MARK).map(|at| &l[at..])).collect();
    if !report.iter().any(|l| l.starts_with(&format!("{MARK} guest started"))) {
        let why = format!(
            "the VM did not start ({}); its stderr ends:\n{}",
            boot.status,
            tail(&boot.stderr, 20)
        );
        skip_or_fail(test, &why);
        return;
    }
    let mut missing = Vec::new();
    for scenario in scenarios() {
        for name in checks(scenario) {
            let ok = format!("{MARK} ok {scenario} {name} (");
            if !report.iter().any(|l| l.starts_with(&ok)) {
                missing.push(format!("{scenario} {name}"));
            }
        }
    }
    let failed: Vec<&&str> = report.iter().filter(|l| l.contains(" FAIL ")).collect();
    // The guest's whole stdout: a failure's details follow its line.
    let whole = format!(
        "{}\n(the VM ended: {}; its stderr ends:\n{})",
        boot.stdout,
        boot.status,
        tail(&boot.stderr, 40)
    );
    assert!(failed.is_empty() && missing.is_empty(), "not passed: {missing:?}\n{whole}");
    // Straight to stderr: the checks' times are worth seeing in a passing
    // run.
    let _ = writeln!(
        std::io::stderr(),
        "{test}: every check passed in the VM, booted and run in {:.0} s:\n{}",
        took.as_secs_f64(),
        report.join("\n")
    );
}

/// The last `n` lines of `text`.
fn tail(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// SKIPPED with `why` on stderr, or a failure under `CI=true`.
fn skip_or_fail(test: &str, why: &str) {
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{test}: {why}\n(CI must run this test: .ci/run installs what it needs)");
    }
    let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {why}");
}

/// What boots the guest: virtme-ng's `vng` and a kernel image.
struct Vm {
    vng: PathBuf,
    kernel: PathBuf,
}

impl Vm {
    /// virtme-ng (`KIT_VM_VNG`, else `vng` on PATH), qemu, and a kernel
    /// (`KIT_VM_KERNEL`, else the newest `/boot/vmlinuz-*`); `None`
    /// (SKIPPED, or a failure in CI) when one is missing.
    fn find(test: &str) -> Option<Vm> {
        let vng = match std::env::var_os("KIT_VM_VNG") {
            Some(path) => PathBuf::from(path),
            None => common::tool_or_skip(&["vng"], test)?,
        };
        if !vng.is_file() {
            skip_or_fail(test, &format!("no virtme-ng at {}", vng.display()));
            return None;
        }
        common::tool_or_skip(&["qemu-system-x86_64"], test)?;
        let kernel = match std::env::var_os("KIT_VM_KERNEL") {
            Some(path) => Some(PathBuf::from(path)),
            None => std::fs::read_dir("/boot").ok().and_then(|entries| {
                let mut images: Vec<PathBuf> = entries
                    .flatten()
                    .map(|e| e.path())
                    .filter(|p| p.to_string_lossy().contains("/vmlinuz-"))
                    .collect();
                images.sort();
                images.pop()
            }),
        };
        let Some(kernel) = kernel.filter(|k| k.is_file()) else {
            skip_or_fail(test, "no kernel image (/boot/vmlinuz-*, or KIT_VM_KERNEL)");
            return None;
        };
        Some(Vm { vng, kernel })
    }

    /// Boots the guest, which runs this executable's `guest_battery` with
    /// `dir` (the compiled programs and the case); its output, and how it
    /// ended. The whole boot is bounded (a hung guest is killed).
    fn boot(&self, dir: &Scratch) -> Boot {
        let exe = std::env::current_exe().expect("this test's executable");
        let exec = format!(
            "env KIT_VM_DIR={} KIT_VM_ONLY={} {} --exact guest_battery --ignored --nocapture \
             --test-threads=1",
            dir.path().display(),
            std::env::var("KIT_VM_ONLY").unwrap_or_default(),
            exe.display()
        );
        // vng runs virtme-run, its sibling, from PATH.
        let bin = self.vng.parent().unwrap_or(Path::new("."));
        let path = std::env::var_os("PATH").unwrap_or_default();
        let paths = std::iter::once(bin.to_path_buf()).chain(std::env::split_paths(&path));
        let path = std::env::join_paths(paths).expect("a PATH");
        use std::os::unix::process::CommandExt;
        let mut child = Command::new(&self.vng)
            .arg("--run")
            .arg(&self.kernel)
            // KVM stops right after `Probing EDD` on our machines. The
            // guest's root lays out the users' trees, whoever runs this.
            .args(["--disable-kvm", "--user", "root", "--cpus", "2", "--memory", "1G"])
            // The kernel's log on stderr: a failure shows how it ends (an
            // OOM kill, a panic).
            .args(["--verbose", "--exec", &exec])
            .env("PATH", path)
            .current_dir(common::root())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()
            .expect("vng starts");
        let stdout = drain(child.stdout.take());
        let stderr = drain(child.stderr.take());
        // A bound, not a measure: a boot takes about 30 s, the battery a
        // few minutes under TCG on a busy machine.
        let status = match wait_bounded(&mut child, Duration::from_secs(900)) {
            Some(s) => s.to_string(),
            None => {
                let _ = Command::new("kill")
                    .args(["-KILL", "--", &format!("-{}", child.id())])
                    .status();
                let _ = child.wait();
                "killed after 900 s".to_string()
            }
        };
        let text = |h: std::thread::JoinHandle<Vec<u8>>| {
            String::from_utf8_lossy(&h.join().unwrap_or_default()).into_owned()
        };
        Boot { status, stdout: text(stdout), stderr: text(stderr) }
    }
}

/// A boot's output.
struct Boot {
    status: String,
    stdout: String,
    stderr: String,
}

/// Reads a pipe to its end on a thread of its own.
fn drain(pipe: Option<impl Read + Send + 'static>) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_end(&mut bytes);
        }
        bytes
    })
}

/// Waits for `child` at most `limit`; `None` if it still runs.
fn wait_bounded(child: &mut Child, limit: Duration) -> Option<std::process::ExitStatus> {
    let start = Instant::now();
    while start.elapsed() < limit {
        if let Ok(Some(status)) = child.try_wait() {
            return Some(status);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    None
}

/// The guest's folder: the C programs compiled (`kv_NAME`) and the case
/// (our 猪国杀 sample and its answer), in the host's /tmp, which the
/// guest sees.
fn prepare(cc: &Path) -> Scratch {
    let dir = Scratch::new("kit-vm");
    let data = common::root().join("tests/data/zhuguosha");
    for ext in ["in", "out"] {
        dir.write(&format!("case.{ext}"), &common::read_text(&data.join(format!("sample.{ext}"))));
    }
    let sources = common::root().join("tests/planted/c");
    for name in C_PROGRAMS {
        let out = Command::new(cc)
            .args(["-O1", "-pthread", "-o"])
            .arg(dir.path().join(format!("kv_{name}")))
            .arg(sources.join(format!("{name}.c")))
            .output()
            .expect("cc runs");
        assert!(out.status.success(), "{name}.c: {}", String::from_utf8_lossy(&out.stderr));
    }
    dir
}

// --------------------------------------------------------------- guest

/// Inside the guest only (the host test boots it to run this): as root,
/// the `root` scenario, then the user's tree laid out and this executable
/// again as `nobody` in its leaf for the `delegated` scenario.
#[test]
#[ignore = "runs inside the virtual machine that hostile_battery_in_a_v2_vm boots"]
fn guest_battery() {
    let Some(dir) = std::env::var_os("KIT_VM_DIR").map(PathBuf::from) else {
        println!("guest_battery runs only in the VM that hostile_battery_in_a_v2_vm boots");
        return;
    };
    if let Ok(scenario) = std::env::var("KIT_VM_SCENARIO") {
        return battery(&scenario, &dir);
    }
    let controllers = std::fs::read_to_string(format!("{CGROUP}/cgroup.controllers"));
    let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
    println!(
        "{MARK} guest started (kernel {}, cgroup v2 controllers: {})",
        kernel.trim(),
        controllers.as_deref().unwrap_or("none").trim()
    );
    let wanted = scenarios();
    if wanted.contains(&"root") {
        battery("root", &dir);
    }
    // The session's tree is the delegated one's, and more.
    let started = Instant::now();
    let result = delegated(&dir, wanted.contains(&"delegated"));
    report("delegated", "setup", result, started);
    if wanted.contains(&"scope") {
        let started = Instant::now();
        let result = scope(&dir);
        report("scope", "setup", result, started);
    }
    if wanted.contains(&"session") {
        let started = Instant::now();
        let result = session(&dir);
        report("session", "setup", result, started);
    }
}

/// Lays out the user's tree as systemd does, moves this process (the
/// user's "shell") into its leaf `term.scope`, and runs the battery there
/// as `nobody` (if `run`).
fn delegated(dir: &Path, run: bool) -> Result<(), String> {
    let user = format!("{CGROUP}/user.slice/user-{USER}.slice/user@{USER}.service");
    let on = "+cpu +memory +pids";
    write(&format!("{CGROUP}/cgroup.subtree_control"), on)?;
    mkdir(&format!("{CGROUP}/user.slice"))?;
    write(&format!("{CGROUP}/user.slice/cgroup.subtree_control"), on)?;
    mkdir(&format!("{CGROUP}/user.slice/user-{USER}.slice"))?;
    write(&format!("{CGROUP}/user.slice/user-{USER}.slice/cgroup.subtree_control"), on)?;
    // systemd's Delegate=yes: the folder and the files that move
    // processes and hand controllers down belong to the user; the user's
    // manager makes the scopes below, the user's own.
    for group in [user.clone(), format!("{user}/term.scope")] {
        mkdir(&group)?;
        for file in ["", "/cgroup.procs", "/cgroup.threads", "/cgroup.subtree_control"] {
            chown(&format!("{group}{file}"))?;
        }
    }
    write(&format!("{user}/term.scope/cgroup.procs"), &std::process::id().to_string())?;
    if run {
        as_user("delegated", dir)?;
    }
    Ok(())
}

/// The scope `systemd-run --user --scope -p Delegate=yes` would make:
/// below the user's `app.slice`, the user's.
fn scope_group() -> String {
    format!("{CGROUP}/user.slice/user-{USER}.slice/user@{USER}.service/app.slice/run-kit.scope")
}

/// The scope a user's manager gives (`app.slice/run-kit.scope`, the
/// user's, the controllers handed down to it), and the battery as
/// `nobody` with each kit moved alone into it first.
fn scope(dir: &Path) -> Result<(), String> {
    let user = format!("{CGROUP}/user.slice/user-{USER}.slice/user@{USER}.service");
    let on = "+cpu +memory +pids";
    write(&format!("{user}/cgroup.subtree_control"), on)?;
    let slice = format!("{user}/app.slice");
    for group in [slice.clone(), scope_group()] {
        mkdir(&group)?;
        for file in ["", "/cgroup.procs", "/cgroup.threads", "/cgroup.subtree_control"] {
            chown(&format!("{group}{file}"))?;
        }
    }
    write(&format!("{slice}/cgroup.subtree_control"), on)?;
    as_user("scope", dir)
}

/// The user's own service manager (`systemd --user`) started in
/// `user@UID.service/init.scope`, and this process moved into a login's
/// `session-1.scope`, root's (as logind makes for an SSH login): no group
/// of the user's is above it, so kit asks the manager for a scope. With
/// no system manager in this guest (virtme-ng's init is PID 1), the user's
/// manager cannot move kit out of root's group, and `systemd-run` fails:
/// kit says so in one line and judges without a group.
fn session(dir: &Path) -> Result<(), String> {
    let slice = format!("{CGROUP}/user.slice/user-{USER}.slice");
    let init = format!("{slice}/user@{USER}.service/init.scope");
    mkdir(&init)?;
    for file in ["", "/cgroup.procs", "/cgroup.threads", "/cgroup.subtree_control"] {
        chown(&format!("{init}{file}"))?;
    }
    // `systemd --user` runs only where systemd booted, which it tells by
    // this folder; the user's runtime folder is logind's to make.
    mkdir("/run/systemd/system")?;
    let runtime = format!("/run/user/{USER}");
    mkdir(&runtime)?;
    chown(&runtime)?;
    use std::os::unix::process::CommandExt;
    let _manager = Command::new("sh")
        .arg("-c")
        .arg(format!("echo $$ > {init}/cgroup.procs && exec /lib/systemd/systemd --user"))
        .env("XDG_RUNTIME_DIR", &runtime)
        .env("HOME", "/tmp")
        .uid(USER)
        .gid(USER)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start systemd --user: {e}"))?;
    let private = format!("{runtime}/systemd/private");
    wait_for(|| Path::new(&private).exists(), 120)
        .map_err(|e| format!("systemd --user: no {private}: {e}"))?;
    mkdir(&format!("{slice}/session-1.scope"))?;
    write(&format!("{slice}/session-1.scope/cgroup.procs"), &std::process::id().to_string())?;
    as_user("session", dir)
}

fn chown(path: &str) -> Result<(), String> {
    let out = Command::new("chown").arg(format!("{USER}:{USER}")).arg(path).output();
    match out {
        Ok(o) if o.status.success() => Ok(()),
        _ => Err(format!("cannot chown {path}")),
    }
}

/// This executable's `guest_battery` as `nobody`, for `scenario`, to its
/// end (bounded).
fn as_user(scenario: &str, dir: &Path) -> Result<(), String> {
    use std::os::unix::process::CommandExt;
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut child = Command::new(exe)
        .args(["--exact", "guest_battery", "--ignored", "--nocapture", "--test-threads=1"])
        .env("KIT_VM_SCENARIO", scenario)
        .env("KIT_VM_DIR", dir)
        .env("HOME", "/tmp")
        .env("USER", "nobody")
        .env("XDG_RUNTIME_DIR", format!("/run/user/{USER}"))
        .uid(USER)
        .gid(USER)
        .spawn()
        .map_err(|e| format!("cannot start the battery as {USER}: {e}"))?;
    match wait_bounded(&mut child, Duration::from_secs(600)) {
        Some(s) if s.success() => Ok(()),
        Some(s) => Err(format!("the {scenario} battery ended: {s}")),
        None => {
            let _ = child.kill();
            Err(format!("the {scenario} battery ran over 600 s"))
        }
    }
}

fn mkdir(path: &str) -> Result<(), String> {
    std::fs::create_dir_all(path).map_err(|e| format!("cannot make {path}: {e}"))
}

fn write(path: &str, value: &str) -> Result<(), String> {
    std::fs::write(path, value).map_err(|e| format!("cannot write {value} to {path}: {e}"))
}

/// Runs every check of `scenario`, each reported in a line.
fn battery(scenario: &str, dir: &Path) {
    let guest = Guest { scenario: scenario.to_string(), dir: dir.to_path_buf() };
    if scenario == "session" {
        guest.check("scope_refused", || guest.scope_refused());
        guest.check("killed", || guest.killed());
        return;
    }
    if scenario == "scope" {
        for hostile in BATTERY.iter().filter(|h| SCOPE_CHECKS.contains(&h.name)) {
            guest.check(hostile.name, || guest.judge_hostile(hostile));
        }
        guest.check("killed", || guest.killed());
        return;
    }
    // Without a group nothing bounds a fork bomb's processes (the VM would
    // crawl to the end of kit's bound): it runs only where kit has one.
    let answers = guest.program(&Program::C("answers", &[]));
    let grouped =
        guest.judge(&[], &answers).is_ok_and(|r| guest.measured_with_v2(&r.stderr).is_ok());
    for hostile in BATTERY {
        if hostile.name == "bomb" && !grouped {
            let why = "not run: kit measures without a group here, and nothing would bound it";
            report(scenario, hostile.name, Err(why.into()), Instant::now());
            continue;
        }
        guest.check(hostile.name, || guest.judge_hostile(hostile));
    }
    guest.check("suspended", || guest.suspended());
    guest.check("killed", || guest.killed());
    guest.check("stress", || guest.stress());
}

/// Prints a check's outcome: `kit-vm: ok SCENARIO NAME (T s)`, or
/// `kit-vm: FAIL SCENARIO NAME: why`.
fn report(scenario: &str, name: &str, result: Result<(), String>, started: Instant) {
    let took = started.elapsed().as_secs_f64();
    match result {
        Ok(()) => println!("{MARK} ok {scenario} {name} ({took:.1} s)"),
        Err(why) => {
            let why = why.replace('\n', "\n    ");
            println!("{MARK} FAIL {scenario} {name} ({took:.1} s): {why}");
        }
    }
}

/// One scenario's checks in the guest.
struct Guest {
    scenario: String,
    dir: PathBuf,
}

/// What `kit` said and how it ended.
struct KitRun {
    stdout: String,
    stderr: String,
}

impl Guest {
    /// Runs `check`, catching its panics (an assertion) as a failure.
    fn check(&self, name: &str, check: impl FnOnce() -> Result<(), String>) {
        let started = Instant::now();
        let result =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(check)).unwrap_or_else(|e| {
                let text = e
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()));
                Err(format!("panicked: {}", text.unwrap_or_default()))
            });
        report(&self.scenario, name, result, started);
    }

    fn path(&self, name: &str) -> String {
        self.dir.join(name).display().to_string()
    }

    /// The argv of a hostile program.
    fn program(&self, program: &Program) -> Vec<String> {
        let planted = |s: &str| common::root().join("tests/planted").join(s);
        match program {
            Program::C(name, args) => {
                let mut argv = vec![self.path(&format!("kv_{name}")), self.path("case.out")];
                argv.extend(args.iter().map(|a| a.to_string()));
                argv
            }
            Program::Planted(script) => vec!["sh".into(), planted(script).display().to_string()],
            Program::Shell(command) => vec!["sh".into(), "-c".into(), command.to_string()],
        }
    }

    /// `kit judge zhuguosha case.in OPTIONS -- PROGRAM`, bounded.
    fn judge(&self, options: &[&str], program: &[String]) -> Result<KitRun, String> {
        let case = self.path("case.in");
        let mut args = vec!["judge", "zhuguosha", &case];
        args.extend(options);
        args.push("--");
        args.extend(program.iter().map(String::as_str));
        self.kit(&args)
    }

    /// kit with `args`, with no `KIT_CGROUP`; in the `scope` scenario,
    /// moved first into the scope (alone there, as `systemd-run --scope`
    /// starts it).
    fn kit_command(&self, args: &[&str]) -> Command {
        let kit = env!("CARGO_BIN_EXE_kit");
        let mut cmd = if self.scenario == "scope" {
            let mut sh = Command::new("sh");
            let join = format!("echo $$ > {}/cgroup.procs && exec \"$0\" \"$@\"", scope_group());
            sh.args(["-c", &join, kit]);
            sh
        } else {
            Command::new(kit)
        };
        cmd.args(args).env_remove("KIT_CGROUP");
        cmd
    }

    /// kit with `args`, measuring as it chooses (no `KIT_CGROUP`: what a
    /// user gets), bounded by 5 minutes.
    fn kit(&self, args: &[&str]) -> Result<KitRun, String> {
        let mut child = self
            .kit_command(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("kit does not start: {e}"))?;
        let stdout = drain(child.stdout.take());
        let stderr = drain(child.stderr.take());
        if wait_bounded(&mut child, Duration::from_secs(300)).is_none() {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("kit {args:?} ran over 300 s"));
        }
        let text = |h: std::thread::JoinHandle<Vec<u8>>| {
            String::from_utf8_lossy(&h.join().unwrap_or_default()).into_owned()
        };
        Ok(KitRun { stdout: text(stdout), stderr: text(stderr) })
    }

    /// kit's line saying how it measures: the one such line, a cgroup v2
    /// group, named (below the user's service) when kit is not root.
    fn measured_with_v2(&self, stderr: &str) -> Result<(), String> {
        let said: Vec<&str> = stderr.lines().filter(|l| l.starts_with("kit: measuring")).collect();
        if said.len() != 1 || !said[0].starts_with("kit: measuring with a cgroup v2") {
            return Err(format!("not one cgroup v2 line on stderr:\n{stderr}"));
        }
        let own = format!("user@{USER}.service");
        if self.scenario != "root" && !said[0].contains(&own) {
            return Err(format!("the line does not name kit's group below {own}: {}", said[0]));
        }
        Ok(())
    }

    fn judge_hostile(&self, hostile: &Hostile) -> Result<(), String> {
        let before = Snapshot::take();
        let run = self.judge(hostile.options, &self.program(&hostile.program))?;
        let line = run.stdout.lines().next().unwrap_or("");
        let verdict = line.split_whitespace().next().unwrap_or("");
        let mut problems = String::new();
        if verdict != hostile.verdict {
            let _ = write!(problems, "{verdict}, not {}: {}", hostile.verdict, run.stdout);
        }
        if let Err(e) = self.measured_with_v2(&run.stderr) {
            let _ = writeln!(problems, "{e}");
        } else if run.stderr.lines().count() != 1 {
            let _ = writeln!(problems, "more than kit's one line on stderr:\n{}", run.stderr);
        }
        if let Err(e) = before.nothing_left() {
            let _ = writeln!(problems, "{e}");
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems)
        }
    }

    /// The `session` scenario: `systemd-run` fails, kit says so in one
    /// line and judges without a group (AC), leaving nothing.
    fn scope_refused(&self) -> Result<(), String> {
        let before = Snapshot::take();
        let run = self.judge(&[], &self.program(&Program::C("answers", &[])))?;
        let own = std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
        let whole = format!("{}{}(in {})", run.stdout, run.stderr, own.trim());
        if !run.stdout.starts_with("AC ") {
            return Err(format!("not AC: {whole}"));
        }
        let lines: Vec<&str> = run.stderr.lines().collect();
        let refused = "kit: no scope of its own from systemd (systemd-run --user --scope";
        let fallback = "kit: measuring without a control group";
        let said =
            lines.len() == 2 && lines[0].starts_with(refused) && lines[1].starts_with(fallback);
        if !said {
            return Err(format!("not the refusal and the fallback's line:\n{whole}"));
        }
        before.nothing_left()
    }

    /// kit stopped (SIGSTOP) past the idleness limit while its program
    /// ends: resumed, it judges the program by its exit (AC).
    fn suspended(&self) -> Result<(), String> {
        let before = Snapshot::take();
        let (case, answers, answer) =
            (self.path("case.in"), self.path("kv_answers"), self.path("case.out"));
        // The program answers after 2 s of sleep.
        let args =
            ["judge", "zhuguosha", &case, "--time-limit", "1000", "--", &answers, &answer, "2"];
        let child = self
            .kit_command(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("kit does not start: {e}"))?;
        let pid = child.id().to_string();
        // Until the program runs (kit is then watching it).
        wait_for(|| processes().values().any(|p| p.comm == "kv_answers"), 30)?;
        signal("STOP", &pid)?;
        // Past the idleness limit of a 1000 ms limit (2 x 1000 + 1000 ms),
        // and past the program's end.
        std::thread::sleep(Duration::from_millis(5000));
        signal("CONT", &pid)?;
        let out = child.wait_with_output().map_err(|e| e.to_string())?;
        let stdout = String::from_utf8_lossy(&out.stdout);
        if !stdout.starts_with("AC ") {
            return Err(format!("not AC: {stdout}"));
        }
        self.measured_with_v2(&String::from_utf8_lossy(&out.stderr))?;
        before.nothing_left()
    }

    /// kit killed by SIGKILL (no handler runs) while the program sleeps
    /// and its double-forked daemon spins: nothing of either is left, and
    /// no group (the keeper's work).
    fn killed(&self) -> Result<(), String> {
        let before = Snapshot::take();
        let case = self.path("case.in");
        let exe = self.path("kv_setsid");
        let answer = self.path("case.out");
        let args =
            ["judge", "zhuguosha", &case, "--time-limit", "60000", "--", &exe, &answer, "wait"];
        let mut child = self
            .kit_command(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("kit does not start: {e}"))?;
        // Until the program and its daemon run.
        let running = || processes().values().filter(|p| p.comm == "kv_setsid").count() >= 2;
        wait_for(running, 30)?;
        // Then kit reads its group at least once.
        std::thread::sleep(Duration::from_millis(500));
        child.kill().map_err(|e| e.to_string())?;
        let _ = child.wait();
        before.nothing_left()
    }

    /// `kit stress --jobs 2` with our solver as the program: two groups at
    /// once, no difference found, one line on stderr.
    fn stress(&self) -> Result<(), String> {
        let before = Snapshot::take();
        let solver = common::solver("zhuguosha");
        let out = std::env::temp_dir().join(format!("kit-vm-stress-{}", self.scenario));
        let out = out.display().to_string();
        let args = [
            "stress",
            "zhuguosha",
            "--count",
            "2",
            "--jobs",
            "2",
            "--out",
            &out,
            "--solver",
            solver,
            "--",
            solver,
        ];
        let run = self.kit(&args)?;
        if !run.stdout.contains("agrees with ours on all") {
            return Err(format!("stress did not agree:\n{}\n{}", run.stdout, run.stderr));
        }
        self.measured_with_v2(&run.stderr)?;
        before.nothing_left()
    }
}

/// Sends `signal` (a name) to `pid` with `kill`.
fn signal(signal: &str, pid: &str) -> Result<(), String> {
    let ok = Command::new("kill").args(["-s", signal, pid]).status().is_ok_and(|s| s.success());
    if ok {
        Ok(())
    } else {
        Err(format!("kill -s {signal} {pid} failed"))
    }
}

/// Waits until `done`, at most `seconds` (a bound, not a measure).
fn wait_for(done: impl Fn() -> bool, seconds: u64) -> Result<(), String> {
    let start = Instant::now();
    while !done() {
        if start.elapsed() > Duration::from_secs(seconds) {
            return Err(format!("not there after {seconds} s"));
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    Ok(())
}

/// A process as `/proc/PID/stat` tells it.
#[derive(Clone, Debug)]
struct Process {
    comm: String,
    state: char,
    ppid: u32,
}

/// Every process but the kernel's threads, by pid.
fn processes() -> std::collections::BTreeMap<u32, Process> {
    let mut found = std::collections::BTreeMap::new();
    let Ok(entries) = std::fs::read_dir("/proc") else { return found };
    for entry in entries.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else { continue };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else { continue };
        let (Some(a), Some(b)) = (stat.find('('), stat.rfind(')')) else { continue };
        let rest: Vec<&str> = stat[b + 1..].split_whitespace().collect();
        let state = rest.first().and_then(|s| s.chars().next()).unwrap_or('?');
        let ppid = rest.get(1).and_then(|s| s.parse().ok()).unwrap_or(0);
        if pid == 2 || ppid == 2 {
            continue;
        }
        found.insert(pid, Process { comm: stat[a + 1..b].to_string(), state, ppid });
    }
    found
}

/// Every folder of the cgroup v2 hierarchy.
fn groups(dir: &Path, found: &mut BTreeSet<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        if e.file_type().is_ok_and(|t| t.is_dir()) {
            found.insert(e.path());
            groups(&e.path(), found);
        }
    }
}

/// The processes and groups before a run.
/// A group of a unit `systemd --user` starts on its own (a socket, a
/// service or a slice, such as `app.slice/dbus.socket` when `systemd-run`
/// knocks at the user's bus): the manager's, never kit's, whose groups are
/// `kit-*` and whose scope from `systemd-run` is a `.scope`.
fn systemds_own(group: &Path) -> bool {
    let unit = group.extension().and_then(|e| e.to_str());
    matches!(unit, Some("socket" | "service" | "slice"))
}

struct Snapshot {
    pids: BTreeSet<u32>,
    groups: BTreeSet<PathBuf>,
}

impl Snapshot {
    fn take() -> Snapshot {
        let mut all = BTreeSet::new();
        groups(Path::new(CGROUP), &mut all);
        Snapshot { pids: processes().into_keys().collect(), groups: all }
    }

    /// No process started since (alive, or a zombie of any parent but init,
    /// which reaps when it can), and no group made since: after a bounded
    /// wait for the kernel and kit's keeper to finish.
    fn nothing_left(&self) -> Result<(), String> {
        let mut left = Vec::new();
        let mut made = Vec::new();
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(20) {
            left = processes()
                .into_iter()
                .filter(|(pid, p)| {
                    !self.pids.contains(pid)
                        && *pid != std::process::id()
                        && !(p.state == 'Z' && p.ppid == 1)
                })
                .collect::<Vec<_>>();
            let mut now = BTreeSet::new();
            groups(Path::new(CGROUP), &mut now);
            made = now.difference(&self.groups).filter(|g| !systemds_own(g)).cloned().collect();
            if left.is_empty() && made.is_empty() {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Err(format!("left after 20 s: processes {left:?}, groups {made:?}"))
    }
}
