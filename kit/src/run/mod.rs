//! Running one program on one input as a judge does: stdin fed from
//! memory, stdout and stderr captured, and everything the program starts
//! held to a CPU time limit, a memory limit and an output limit while it
//! runs. The rooms, from the bottom: [`terms`] (the run's vocabulary: its
//! limits, how it ended, the caps and intervals), [`sys`] (the system
//! calls, declared by hand: kit is std only), [`tree`] (the program's
//! descendants read from `/proc`, where no group can be made),
//! [`delegate`] and [`scope`] (which cgroup v2 group kit may use, and a
//! scope asked of systemd where only that gives one), [`cgroup`] (a
//! control group per run: the kernel's own accounting), [`guard`] and
//! [`signals`] (nothing outlives kit), [`spawn`] (starting the program),
//! [`meter`] (a run's figures, from its group or its tree, and its stop),
//! [`supervise`] (the poll loop that watches one run). docs/kit.md says
//! what each way of measuring sees. kit builds on Unix-like systems only.
//!
//! **Time** is CPU time (user + system) of everything the program started:
//! its group's accounted CPU, or, without a group, its live descendants'
//! read every 10 ms plus what kit reaped. A busy machine slows the wall
//! clock of a run, not its CPU time. A program that sleeps or waits uses
//! no CPU, so a wall-clock backstop, [`idle_limit`] (2 x the limit + 1 s),
//! kills it if it is idle then (under 10 ms of CPU in the last second; a
//! program that computes on a starved machine is not idle, and ends at the
//! CPU limit); judges call that an idleness limit. A program that has
//! ended is judged by its exit, however late kit saw it.
//!
//! **Memory**: with a group, the kernel holds the limit (its OOM kill is
//! [`Status::MemoryLimit`]) and the peak is the group's. Without one, the
//! sum of the descendants' resident memory, read at the same checks (over
//! the limit, all is killed at once), and the program's own `ru_maxrss`
//! from `wait4(2)`, which sees the very end of a run a sampler misses. One
//! catch: `ru_maxrss` also holds the peak of the address space the child
//! had before its `exec`, which is ours. We lower that floor first
//! (writing 5 to `/proc/self/clear_refs` resets our peak to our current
//! size), read it after the spawn, and report a figure above the floor as
//! exact ([`Peak::Exact`]) and otherwise only the bound ([`Peak::AtMost`]:
//! a program smaller than `kit` itself, about 2 MiB).
//!
//! **Output**: stdout past the output limit kills the program at once
//! ([`Status::OutputLimit`]); kit keeps no more than the limit, and of
//! stderr a bounded head and tail.
//!
//! The program runs in a process group of its own (and a control group
//! where there is one); all it started is killed at any limit and when the
//! program ends (what it left running in the background).

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::io;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A program and its arguments, as typed after `--`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cmd {
    pub program: OsString,
    pub args: Vec<OsString>,
}

impl Cmd {
    pub fn new(program: impl Into<OsString>) -> Cmd {
        Cmd { program: program.into(), args: Vec::new() }
    }

    pub fn arg(mut self, arg: impl Into<OsString>) -> Cmd {
        self.args.push(arg.into());
        self
    }

    /// `sh -c SCRIPT`: a program in one line of shell.
    pub fn shell(script: impl Into<OsString>) -> Cmd {
        Cmd::new("sh").arg("-c").arg(script)
    }

    /// From words (the first is the program); `None` if there are none.
    pub fn from_words(words: &[OsString]) -> Option<Cmd> {
        let (program, args) = words.split_first()?;
        Some(Cmd { program: program.clone(), args: args.to_vec() })
    }
}

/// The command as a POSIX shell reads it back.
impl fmt::Display for Cmd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&shell_quote(&self.program))?;
        for a in &self.args {
            write!(f, " {}", shell_quote(a))?;
        }
        Ok(())
    }
}

/// One word for a POSIX shell: as is when it is made of harmless
/// characters, else in single quotes.
pub fn shell_quote(word: &OsStr) -> String {
    let text = word.to_string_lossy();
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./=:,+%@".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        text.into_owned()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// What one run produced.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub status: Status,
    /// CPU time, user + system, of the program's whole process tree
    /// (where the system reports it: else the wall time).
    pub cpu: Duration,
    /// Wall-clock time from the start to the exit (within about 1 ms).
    pub wall: Duration,
    /// Peak resident memory: the larger of the program's own peak and the
    /// largest sum over its tree seen (Linux).
    pub peak: Option<Peak>,
}

/// A program's peak resident memory, in KiB.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Peak {
    Exact(u64),
    /// Not above this (our own size when it started).
    AtMost(u64),
}

impl fmt::Display for Peak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mib = |k: u64| k as f64 / 1024.0;
        match *self {
            Peak::Exact(k) => write!(f, "{:.1} MiB", mib(k)),
            Peak::AtMost(k) => write!(f, "<={:.1} MiB", mib(k)),
        }
    }
}

impl Outcome {
    /// Exit code 0.
    pub fn success(&self) -> bool {
        self.status == Status::Exited(0)
    }

    /// stdout as text (invalid UTF-8 replaced).
    pub fn stdout_text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }

    /// The first stderr line, for reports.
    pub fn first_stderr_line(&self) -> String {
        let text = String::from_utf8_lossy(&self.stderr);
        text.lines().next().unwrap_or("").trim_end().to_string()
    }

    /// The last `n` non-empty stderr lines (where a Python traceback puts
    /// the error), oldest first.
    pub fn last_stderr_lines(&self, n: usize) -> Vec<String> {
        let text = String::from_utf8_lossy(&self.stderr);
        let lines: Vec<&str> = text.lines().map(str::trim_end).filter(|l| !l.is_empty()).collect();
        let from = lines.len().saturating_sub(n);
        lines[from..].iter().map(|l| l.to_string()).collect()
    }
}

#[cfg(not(unix))]
compile_error!("kit runs programs as a Unix judge does: it builds on Unix-like systems only");

mod cgroup;
mod delegate;
mod guard;
mod meter;
mod scope;
mod signals;
mod spawn;
mod supervise;
mod sys;
mod terms;
mod tree;

pub use cgroup::Accounting;
pub use scope::run_in_a_scope;
pub use terms::{idle_limit, Limits, Status, StderrKept};
pub use terms::{CHECK_EVERY, HARD_STOP, IDLE_CPU, IDLE_WINDOW, OUTPUT_CAP, TASK_LIMIT};
pub use terms::{STDERR_HEAD, STDERR_TAIL};

use cgroup::Group;

/// The errno of a system call the kernel does not have.
const ENOSYS: i32 = 38;
use meter::Meter;
use supervise::{ExitSeen, Supervised, Supervision};
use terms::Sink;

/// Why a run gave no outcome: the program never started, or kit lost
/// track of it after its start.
#[derive(Debug)]
pub enum RunError {
    /// It could not be started: not found (with a hint when `./PROGRAM`
    /// would have been), not executable, `cwd` missing, or its pipes or
    /// process group not set up. Nothing ran.
    Start(io::Error),
    /// It started, and a `poll` or a `wait4` of kit's failed after: what
    /// it started was killed, as far as kit could.
    Lost(io::Error),
}

impl RunError {
    /// kit's error for this failure of `program`'s run.
    pub fn error(self, program: impl fmt::Display) -> crate::error::Error {
        match self {
            RunError::Start(e) => crate::error::Error::start(program, e),
            RunError::Lost(e) => crate::error::Error::lost(program, e),
        }
    }
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Start(e) => write!(f, "cannot start: {e}"),
            RunError::Lost(e) => write!(f, "lost track of it after its start: {e}"),
        }
    }
}

impl std::error::Error for RunError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RunError::Start(e) | RunError::Lost(e) => Some(e),
        }
    }
}

/// Runs `cmd` on `stdin` in `cwd` (the current directory if `None`) and
/// kills it at the first of its `limits` it goes over (a time limit alone
/// converts: `run(cmd, input, Duration::from_secs(2), None)`).
///
/// # Errors
/// [`RunError::Start`] when it cannot start (not found, with a hint when
/// `./PROGRAM` would have been; not executable; `cwd` missing; its pipes
/// or process group not set up); [`RunError::Lost`] when kit lost track
/// of it after its start (a `poll` or `wait4` that failed). Everything the
/// program itself does (a crash, a limit, an unreadable pipe) is in the
/// [`Outcome`].
pub fn run(
    cmd: &Cmd,
    stdin: &[u8],
    limits: impl Into<Limits>,
    cwd: Option<&Path>,
) -> Result<Outcome, RunError> {
    run_with(cmd, stdin, limits, cwd, Memory::Measured)
}

/// Whether a run reports the peak memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Memory {
    /// Exact or bounded ([`Peak`]); without a control group, spawns are
    /// then serialised (see `spawn`), which costs parallel runs their
    /// speed.
    Measured,
    /// `peak` is `None` (but at a memory limit); runs in other threads
    /// proceed at once.
    Unmeasured,
}

/// [`run`], with or without the peak memory.
///
/// # Errors
/// As [`run`].
pub fn run_with(
    cmd: &Cmd,
    stdin: &[u8],
    limits: impl Into<Limits>,
    cwd: Option<&Path>,
    memory: Memory,
) -> Result<Outcome, RunError> {
    let limits = limits.into();
    Run { cmd, stdin, limits, cwd, memory, seen: ExitSeen::Pidfd, sink: None }.go()
}

/// [`run`], handing stdout to `sink` chunk by chunk as the program prints
/// it, rather than keeping it in [`Outcome::stdout`] (left empty): for an
/// output larger than [`OUTPUT_CAP`] or than we want to hold (`kit show`
/// reads a 445 MB `ants_battle --explain` so).
///
/// # Errors
/// As [`run`].
pub fn run_streamed(
    cmd: &Cmd,
    stdin: &[u8],
    limits: impl Into<Limits>,
    sink: &mut dyn FnMut(&[u8]),
) -> Result<Outcome, RunError> {
    let limits = limits.into();
    let memory = Memory::Measured;
    Run { cmd, stdin, limits, cwd: None, memory, seen: ExitSeen::Pidfd, sink: Some(sink) }.go()
}

/// One run, as asked.
struct Run<'a, 's> {
    cmd: &'a Cmd,
    stdin: &'a [u8],
    limits: Limits,
    cwd: Option<&'a Path>,
    memory: Memory,
    seen: ExitSeen,
    sink: Option<Sink<'s>>,
}

impl Run<'_, '_> {
    fn go(self) -> Result<Outcome, RunError> {
        let Run { cmd, stdin, limits, cwd, memory, seen, sink } = self;
        // Without a group, the run's mark, by which an orphan kit adopts is
        // known as its own.
        let mark = next_mark();
        let group = cgroup::take(limits.memory_kib);
        let started = match group.as_ref().and_then(Group::birthplace) {
            // Born in its group: no write moves it there, and no
            // parent-death signal is needed (the keeper empties the group
            // should kit die).
            Some(dir) => {
                let program = spawn::Program { program: &cmd.program, args: &cmd.args, cwd };
                let start = Instant::now();
                match spawn::into_group(&program, dir) {
                    // No clone3 (Linux before 5.7): joined by a write.
                    Err(e) if e.raw_os_error() == Some(ENOSYS) => {
                        cgroup::refuse_births();
                        start_command(cmd, cwd, memory, group.as_ref(), &mark)
                    }
                    started => started.map(|s| (s, None, start)),
                }
            }
            None => start_command(cmd, cwd, memory, group.as_ref(), &mark),
        };
        let (child, floor, start) = match started {
            Ok(s) => s,
            Err(e) => {
                if let Some(g) = group {
                    cgroup::give(g);
                }
                return Err(RunError::Start(hint(cmd, e)));
            }
        };
        // Said once the first program has started (a program that cannot
        // start ran nothing to measure).
        say_accounting();
        // Dropped after the run, when the group is dead and reaped. A run
        // in a control group needs no word to the keeper (each a line it
        // reads byte by byte): the keeper empties kit's groups should kit
        // die.
        let _registered = (
            signals::Running::register(child.pid),
            group.is_none().then(|| guard::Kept::new(child.pid)),
        );
        let meter = Meter::new(group, child.pid, &mark);
        let watched = Supervision { child, stdin, start, limits, seen, sink, meter };
        let Supervised {
            status,
            cpu,
            leader_peak_kib,
            tree_peak_kib,
            group_peak_kib,
            wall,
            stdout,
            stderr,
        } = supervise::supervise(watched).map_err(RunError::Lost)?;
        // A figure above our own size at the spawn is the program's (and a
        // tree never read has none).
        let exact = |k: &u64| *k > floor.unwrap_or(0);
        let measured = [leader_peak_kib.filter(exact), Some(tree_peak_kib).filter(exact)];
        let peak = match (memory, group_peak_kib, measured.into_iter().flatten().max()) {
            (_, Some(k), _) if status == Status::MemoryLimit => Some(Peak::Exact(k)),
            (_, _, Some(k)) if status == Status::MemoryLimit => Some(Peak::Exact(k)),
            (Memory::Unmeasured, _, _) => None,
            (Memory::Measured, Some(k), _) => Some(Peak::Exact(k)),
            (Memory::Measured, None, Some(k)) => Some(Peak::Exact(k)),
            (Memory::Measured, None, None) => floor.map(Peak::AtMost),
        };
        Ok(Outcome { stdout, stderr, status, cpu, wall, peak })
    }
}

/// Starts `cmd` by std's `Command`, in a process group of its own that
/// dies with kit, moved into `group` if any (by writes to its
/// `cgroup.procs` between the fork and the exec), else marked with
/// `mark`; returns it, the floor of its peak memory (see `spawn`) and its
/// start time.
fn start_command(
    cmd: &Cmd,
    cwd: Option<&Path>,
    memory: Memory,
    group: Option<&Group>,
    mark: &str,
) -> io::Result<(spawn::Started, Option<u64>, Instant)> {
    use std::os::unix::process::CommandExt;
    let mut command = Command::new(&cmd.program);
    command.args(&cmd.args).stdin(Stdio::piped()).stdout(Stdio::piped());
    command.stderr(Stdio::piped());
    if let Some(dir) = cwd {
        command.current_dir(dir);
    }
    if group.is_none() {
        command.env(tree::MARK, mark);
    }
    // A process group of its own, killed as one (its children too).
    command.process_group(0);
    guard::prepare(&mut command);
    if let Some(g) = group {
        let fds = g.attach_fds();
        // SAFETY: between fork and exec: write(2) on descriptors we
        // hold open, no allocation (`fds` was made before the fork).
        unsafe {
            command.pre_exec(move || sys::join_groups(&fds));
        }
    }
    // With a group, the peak is the group's: no floor to read.
    let (child, floor, start) = match (memory, group) {
        (Memory::Measured, None) => spawn(&mut command)?,
        _ => {
            let start = Instant::now();
            (command.spawn()?, None, start)
        }
    };
    Ok((spawn::Started::from(child), floor, start))
}

/// `PID.N`: kit's pid and the run's number, unique on the machine while
/// kit lives.
fn next_mark() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static RUNS: AtomicU64 = AtomicU64::new(0);
    format!("{}.{}", std::process::id(), RUNS.fetch_add(1, Ordering::Relaxed))
}

/// Says once per kit, on stderr, how it measures its runs (for the
/// fallback, what that misses).
fn say_accounting() {
    use std::sync::OnceLock;
    static SAID: OnceLock<()> = OnceLock::new();
    SAID.get_or_init(|| eprintln!("{}", cgroup::said()));
}

/// How this kit measures its runs (chosen at the first call).
pub fn accounting() -> Accounting {
    cgroup::accounting()
}

/// Removes the control groups kit made for its runs: call once no program
/// runs any more (`main` does, at the end).
pub fn release_groups() {
    cgroup::release();
}

/// A program that is not found gets a hint when a file of that name is in
/// the current folder (`-- sol` for `-- ./sol`).
fn hint(cmd: &Cmd, e: io::Error) -> io::Error {
    let program = Path::new(&cmd.program);
    let bare = program.components().count() == 1;
    if e.kind() == io::ErrorKind::NotFound && bare && program.is_file() {
        let dotted = Path::new(".").join(program);
        return io::Error::new(
            e.kind(),
            format!("{e}; did you mean {}?", shell_quote(dotted.as_os_str())),
        );
    }
    e
}

/// Starts the child; returns it, our own peak memory after the start (the
/// floor of its `ru_maxrss`, Linux) and the start time.
#[cfg(target_os = "linux")]
fn spawn(command: &mut Command) -> io::Result<(Child, Option<u64>, Instant)> {
    // One spawn at a time: another thread's reset between our spawn and
    // our reading of the floor would make the floor too low.
    use std::sync::Mutex;
    static SPAWN: Mutex<()> = Mutex::new(());
    let _one = SPAWN.lock().unwrap_or_else(|e| e.into_inner());
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    let start = Instant::now();
    let child = command.spawn()?;
    Ok((child, own_peak_kib(), start))
}

#[cfg(not(target_os = "linux"))]
fn spawn(command: &mut Command) -> io::Result<(Child, Option<u64>, Instant)> {
    let start = Instant::now();
    Ok((command.spawn()?, None, start))
}

/// VmHWM of `/proc/self/status`, in KiB.
#[cfg(target_os = "linux")]
fn own_peak_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Stops the programs running now when kit is stopped by SIGTERM, SIGHUP
/// or SIGINT, then dies of that signal as it would have. Call once, from
/// `main`.
pub fn stop_children_on_signals() {
    signals::install();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Cmd {
        Cmd::shell(script)
    }

    /// Whether this process measures by control groups (then the kernel
    /// holds the memory limit, and every peak is exact).
    fn grouped() -> bool {
        accounting() != Accounting::Tree
    }

    fn go(cmd: &Cmd, stdin: &str, limit_ms: u64) -> Outcome {
        run(cmd, stdin.as_bytes(), Duration::from_millis(limit_ms), None).expect("sh starts")
    }

    #[test]
    fn captures_stdout_stderr_and_the_exit_code() {
        let o = go(&sh("read x; echo \"got $x\"; echo oops >&2; exit 3"), "42\n", 5000);
        assert_eq!(o.stdout, b"got 42\n");
        assert_eq!(o.first_stderr_line(), "oops");
        assert_eq!(o.status, Status::Exited(3));
        assert!(!o.success());
    }

    #[test]
    fn a_signal_is_reported_as_such() {
        let o = go(&sh("kill -SEGV $$"), "", 5000);
        assert_eq!(o.status, Status::Signaled(11));
        assert_eq!(o.status.to_string(), "signal 11 (SIGSEGV)");
    }

    #[test]
    fn a_program_over_the_cpu_limit_is_killed() {
        let o = go(&sh("while :; do :; done"), "", 200);
        assert_eq!(o.status, Status::CpuLimit);
        assert!(o.cpu > Duration::from_millis(200), "{:?}", o.cpu);
    }

    /// The CPU time of a child that nobody waited for yet counts while it
    /// runs: a shell whose child spins is over the limit as the child is.
    #[test]
    #[cfg(target_os = "linux")]
    fn the_cpu_time_of_the_whole_tree_counts() {
        let o = go(&sh("sh -c 'while :; do :; done'; echo never"), "", 200);
        assert_eq!(o.status, Status::CpuLimit);
        assert!(o.cpu > Duration::from_millis(200), "{:?}", o.cpu);
        // An orphan's too (its parent gone): it stays in the group.
        let o = go(&sh("(sh -c 'while :; do :; done' &); sleep 30"), "", 200);
        assert_eq!(o.status, Status::CpuLimit, "{:?}", o.cpu);
    }

    /// stdout over the output limit stops the program at once, and no more
    /// than the limit is kept.
    #[test]
    fn a_flood_is_stopped_at_the_output_limit() {
        let limits =
            Limits { output_bytes: Some(100_000), ..Limits::from(Duration::from_secs(60)) };
        let o = run(&sh("exec yes"), b"", limits, None).unwrap();
        assert_eq!(o.status, Status::OutputLimit);
        assert_eq!(o.stdout.len(), 100_000);
        assert_eq!(o.status.to_string(), "killed at the output limit");
    }

    /// The tree's memory over the limit stops it while it runs.
    #[test]
    #[cfg(target_os = "linux")]
    fn the_tree_over_the_memory_limit_is_stopped_at_once() {
        let limits = Limits { memory_kib: Some(32 << 10), ..Limits::from(Duration::from_secs(60)) };
        // awk holds 64 MiB while its child sleeps: only a reading while it
        // runs sees it (the program, sh, is small).
        let cmd =
            sh("awk 'BEGIN { s = \"x\"; for (i = 0; i < 26; i++) s = s s; system(\"sleep 30\") }'");
        let o = run(&cmd, b"", limits, None).unwrap();
        assert_eq!(o.status, Status::MemoryLimit, "{:?}", o.peak);
        // The kernel stops a group at its limit; a sampler sees it past.
        let least = if grouped() { 30 << 10 } else { (32 << 10) + 1 };
        assert!(matches!(o.peak, Some(Peak::Exact(k)) if k >= least), "{:?}", o.peak);
    }

    #[test]
    fn a_sleeping_program_is_killed_at_the_idleness_limit() {
        let o = go(&sh("exec sleep 10"), "", 100);
        assert_eq!(o.status, Status::IdleLimit);
        assert!(o.wall >= idle_limit(Duration::from_millis(100)));
        assert!(o.cpu < Duration::from_millis(100), "{:?}", o.cpu);
        assert_eq!(idle_limit(Duration::from_millis(100)).as_millis(), 1200);
    }

    /// Starved (here: sleeping most of the time, as on a loaded machine),
    /// a program that computes is not idle past the backstop: it goes on
    /// until its CPU time is over the limit.
    #[test]
    fn a_program_that_computes_slowly_is_not_idle() {
        let slow = "while :; do i=0; while [ $i -lt 3000 ]; do i=$((i+1)); done; sleep 0.05; done";
        let o = go(&sh(slow), "", 100);
        assert_eq!(o.status, Status::CpuLimit, "{:?} {:?}", o.cpu, o.wall);
    }

    #[test]
    fn cpu_time_counts_the_children_waited_for() {
        // The shell waits for its busy child: their CPU time is the run's.
        let o = go(&sh("i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done"), "", 20_000);
        assert!(o.success(), "{:?}", o.status);
        assert!(o.cpu > Duration::ZERO, "{:?}", o.cpu);
    }

    #[test]
    fn a_missing_program_in_the_current_folder_gets_a_hint() {
        let here = std::env::current_dir().unwrap();
        let name = std::fs::read_dir(&here)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.is_file())
            .expect("a file in the package folder");
        let bare = name.file_name().unwrap().to_os_string();
        let err = run(&Cmd::new(bare.clone()), b"", Duration::from_secs(1), None).unwrap_err();
        let want = format!("did you mean ./{}?", bare.to_string_lossy());
        assert!(err.to_string().ends_with(&want), "{err}");
    }

    #[test]
    fn the_last_stderr_lines_are_kept_for_reports() {
        let o = go(&sh("for i in 1 2 3 4 5 6 7; do echo line $i >&2; done; exit 1"), "", 5000);
        assert_eq!(o.last_stderr_lines(5), ["line 3", "line 4", "line 5", "line 6", "line 7"]);
        assert_eq!(o.first_stderr_line(), "line 1");
    }

    /// What the program leaves running goes with it: its process group is
    /// killed when it exits, so a grandchild holding the pipes cannot
    /// keep the run waiting either.
    #[test]
    #[cfg(target_os = "linux")]
    fn a_grandchild_left_behind_is_killed_with_the_program() {
        let o = go(&sh("sleep 30 & echo $!"), "", 5000);
        assert!(o.success());
        let pid = o.stdout_text().trim().to_string();
        let mut gone = false;
        // A bounded wait for the kernel to reap it (init adopts it).
        for _ in 0..5000 {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"));
            if stat
                .map_or(true, |s| s.rsplit(')').next().unwrap_or("").trim_start().starts_with('Z'))
            {
                gone = true;
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        assert!(gone, "sleep {pid} outlived the run");
    }

    /// A stderr flood is kept as its head and its tail, the cut said:
    /// kit holds a bounded amount whatever the program writes.
    #[test]
    fn stderr_is_kept_as_a_bounded_head_and_tail() {
        let flood = "echo first >&2; yes spam | head -c 30000000 >&2; echo last >&2";
        let o = go(&sh(flood), "", 20_000);
        assert!(o.success(), "{:?}", o.status);
        assert!(o.stderr.len() <= STDERR_HEAD + STDERR_TAIL + 100, "{}", o.stderr.len());
        assert_eq!(o.first_stderr_line(), "first");
        assert!(o.last_stderr_lines(1) == ["last"], "{:?}", o.last_stderr_lines(2));
        let cut = 30_000_000 + 11 - (STDERR_HEAD + STDERR_TAIL);
        let note = format!("[kit: {cut} bytes of stderr not kept]");
        assert!(String::from_utf8_lossy(&o.stderr).contains(&note));
    }

    #[test]
    fn a_program_that_never_reads_its_input_still_runs() {
        let big = "x".repeat(1 << 20);
        let o = go(&sh("echo done"), &big, 5000);
        assert!(o.success());
        assert_eq!(o.stdout, b"done\n");
    }

    /// stdin is fed while the output is read: `cat` writes back before it
    /// has read all of an input far larger than a pipe holds.
    #[test]
    fn a_program_that_writes_before_reading_all_gets_all_of_it() {
        let big: String = (0..100_000).map(|k| format!("{k}\n")).collect();
        let o = go(&sh("echo first; cat; echo last >&2"), &big, 10_000);
        assert!(o.success(), "{:?}", o.status);
        assert_eq!(o.stdout, format!("first\n{big}").into_bytes());
        assert_eq!(o.stderr, b"last\n");
    }

    /// The path taken without a pidfd (before Linux 5.3, other systems)
    /// gives the same outcomes.
    #[test]
    fn without_a_pidfd_the_outcomes_are_the_same() {
        let polled = |cmd: &Cmd, stdin: &str, limit_ms: u64| {
            let limit = Duration::from_millis(limit_ms);
            let limits = Limits::from(limit);
            let stdin = stdin.as_bytes();
            let memory = Memory::Unmeasured;
            let seen = ExitSeen::Polled;
            Run { cmd, stdin, limits, cwd: None, memory, seen, sink: None }.go().expect("sh starts")
        };
        let o = polled(&sh("read x; echo \"got $x\"; echo oops >&2; exit 3"), "42\n", 5000);
        assert_eq!((o.stdout.as_slice(), o.stderr.as_slice()), (&b"got 42\n"[..], &b"oops\n"[..]));
        assert_eq!(o.status, Status::Exited(3));
        let big: String = (0..100_000).map(|k| format!("{k}\n")).collect();
        let o = polled(&sh("echo first; cat"), &big, 10_000);
        assert_eq!(o.stdout, format!("first\n{big}").into_bytes());
        assert_eq!(polled(&sh("kill -SEGV $$"), "", 5000).status, Status::Signaled(11));
        assert_eq!(polled(&sh("while :; do :; done"), "", 200).status, Status::CpuLimit);
    }

    #[test]
    fn output_beyond_the_cap_is_read_and_dropped() {
        let o = go(&sh("head -c 3000000 /dev/zero"), "", 10_000);
        assert!(o.success(), "{:?}", o.status);
        assert_eq!(o.stdout.len(), OUTPUT_CAP);
    }

    #[test]
    fn a_missing_program_is_an_error() {
        let cmd = Cmd::new("/nonexistent/kit-no-such-program");
        assert!(run(&cmd, b"", Duration::from_secs(1), None).is_err());
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn peak_memory_is_the_childs() {
        // dd's one 256 MiB block buffer is allocated and filled: more than
        // this test process holds (its size is the floor).
        let o = go(
            &sh("exec dd if=/dev/zero of=/dev/null bs=256M count=1 iflag=fullblock 2>/dev/null"),
            "",
            10_000,
        );
        assert!(o.success(), "{:?}", o.status);
        match o.peak {
            Some(Peak::Exact(kib)) => {
                assert!((256 * 1024..1024 * 1024).contains(&kib), "{kib} KiB")
            }
            other => panic!("{other:?}"),
        }
        // sh alone is smaller than this test process: only a bound, but
        // from a group, which holds nothing else.
        let small = go(&sh("exit 0"), "", 5000).peak;
        match small {
            Some(Peak::Exact(k)) if grouped() => assert!(k < 8 << 10, "{k} KiB"),
            Some(Peak::AtMost(_)) if !grouped() => {}
            other => panic!("{other:?}"),
        }
        assert_eq!(Peak::AtMost(2048).to_string(), "<=2.0 MiB");
        assert_eq!(Peak::Exact(1536).to_string(), "1.5 MiB");
    }

    #[test]
    fn an_unmeasured_run_has_no_peak_but_its_times() {
        let cmd = sh("echo hi");
        let o = run_with(&cmd, b"", Duration::from_secs(5), None, Memory::Unmeasured).unwrap();
        assert!(o.success());
        assert_eq!(o.stdout, b"hi\n");
        assert_eq!(o.peak, None);
    }

    #[test]
    fn commands_print_as_a_shell_reads_them() {
        let cmd = Cmd::new("python3").arg("my sol.py").arg("it's").arg("-x=1");
        assert_eq!(cmd.to_string(), r"python3 'my sol.py' 'it'\''s' -x=1");
    }
}
