//! Running one program on one input: stdin fed from memory, stdout and
//! stderr captured, with its CPU time, wall time and (on Linux) peak memory.
//! A run takes no thread of its own: one `poll(2)` loop in the caller's
//! thread feeds, reads and sees the exit (`supervise`).
//!
//! The time limit is on **CPU time** (user + system, of the program and of
//! the children it waited for), as judges count it: a busy machine slows
//! the wall clock of a run, not its CPU time. A program that sleeps or waits
//! uses no CPU, so a wall-clock backstop, [`idle_limit`] (2 x the limit +
//! 1 s), kills it if it is idle then (under 10 ms of CPU in the last
//! second; a program that computes on a starved machine is not idle, and
//! ends at the CPU limit); judges call that an idleness limit. The program
//! runs in a process group of its own, and the whole group is killed at either
//! limit, when the program ends (what it left running in the background),
//! and when `kit` itself is stopped by SIGTERM, SIGHUP or SIGINT
//! ([`stop_children_on_signals`]).
//!
//! Peak memory comes from `wait4(2)`, declared here by hand (std only): the
//! kernel's `ru_maxrss` of the reaped child costs nothing and sees the very
//! end of the run, whereas sampling `/proc/PID/status` (VmHWM) races with
//! the exit and misses a program that lives for a millisecond, which most
//! do. One catch: `ru_maxrss` also holds the peak of the address space the
//! child had before its `exec`, which is ours (std spawns with vfork), so
//! it is at least our own peak at that moment. We lower that floor first
//! (writing 5 to `/proc/self/clear_refs` resets our peak to our current
//! size), read it after the spawn, and report a figure above the floor as
//! exact ([`Peak::Exact`]) and otherwise only the bound ([`Peak::AtMost`]:
//! a program smaller than `kit` itself, about 2 MiB).

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::io::{self, Read, Write};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
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

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Exited(i32),
    /// Killed by this signal (not by us).
    Signaled(i32),
    /// Killed by us: its CPU time went over the time limit.
    CpuLimit,
    /// Killed by us: past [`idle_limit`] of wall time while using (almost)
    /// no CPU (a program that sleeps or waits for input that never comes).
    IdleLimit,
}

/// The wall-clock backstop of a CPU time limit: 2 x the limit + 1 s.
pub fn idle_limit(limit: Duration) -> Duration {
    limit * 2 + Duration::from_secs(1)
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Status::Exited(c) => write!(f, "exit code {c}"),
            Status::Signaled(s) => match signal_name(s) {
                Some(name) => write!(f, "signal {s} ({name})"),
                None => write!(f, "signal {s}"),
            },
            Status::CpuLimit => f.write_str("killed at the CPU time limit"),
            Status::IdleLimit => f.write_str("killed at the idleness limit"),
        }
    }
}

fn signal_name(sig: i32) -> Option<&'static str> {
    Some(match sig {
        1 => "SIGHUP",
        2 => "SIGINT",
        4 => "SIGILL",
        6 => "SIGABRT",
        7 => "SIGBUS",
        8 => "SIGFPE",
        9 => "SIGKILL",
        11 => "SIGSEGV",
        13 => "SIGPIPE",
        15 => "SIGTERM",
        24 => "SIGXCPU",
        25 => "SIGXFSZ",
        _ => return None,
    })
}

/// What one run produced.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub status: Status,
    /// CPU time, user + system, of the program and of the children it
    /// waited for (where the system reports it: else the wall time).
    pub cpu: Duration,
    /// Wall-clock time from the start to the exit (within about 1 ms).
    pub wall: Duration,
    /// Peak resident memory, where the system reports it (Linux).
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

/// After the program ends (or is killed), how long its pipes may stay open:
/// a program may leave a child behind that holds them (`sh -c 'sleep 99 &'`).
const PIPE_GRACE: Duration = Duration::from_millis(500);

/// Runs `cmd` on `stdin` in `cwd` (the current directory if `None`) and
/// kills it when its CPU time runs over `limit` or its wall time over
/// [`idle_limit`]`(limit)`. An error only when it cannot start.
pub fn run(cmd: &Cmd, stdin: &[u8], limit: Duration, cwd: Option<&Path>) -> io::Result<Outcome> {
    run_with(cmd, stdin, limit, cwd, Memory::Measured)
}

/// Whether a run reports the peak memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Memory {
    /// Exact or bounded ([`Peak`]); spawns are then serialised (see
    /// `spawn`), which costs parallel runs their speed.
    Measured,
    /// `peak` is `None`; runs in other threads proceed at once (`kit
    /// stress --jobs`, which reports no memory).
    Unmeasured,
}

/// [`run`], with or without the peak memory.
pub fn run_with(
    cmd: &Cmd,
    stdin: &[u8],
    limit: Duration,
    cwd: Option<&Path>,
    memory: Memory,
) -> io::Result<Outcome> {
    run_seen(cmd, stdin, limit, cwd, memory, ExitSeen::Pidfd, None)
}

/// [`run`], handing stdout to `sink` chunk by chunk as the program prints
/// it, rather than keeping it in [`Outcome::stdout`] (left empty): for an
/// output larger than [`OUTPUT_CAP`] or than we want to hold (`kit show`
/// reads a 445 MB `ants_battle --explain` so).
pub fn run_streamed(
    cmd: &Cmd,
    stdin: &[u8],
    limit: Duration,
    sink: &mut dyn FnMut(&[u8]),
) -> io::Result<Outcome> {
    run_seen(cmd, stdin, limit, None, Memory::Measured, ExitSeen::Pidfd, Some(sink))
}

/// Where stdout goes when it is not kept ([`run_streamed`]).
type Sink<'a> = &'a mut dyn FnMut(&[u8]);

/// How the exit of a running program is seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ExitSeen {
    /// By a pidfd where the system has them (Linux 5.3), else as by
    /// `Polled`.
    Pidfd,
    /// By a look every millisecond (tests check this path too).
    #[cfg_attr(not(test), allow(dead_code))]
    Polled,
}

fn run_seen(
    cmd: &Cmd,
    stdin: &[u8],
    limit: Duration,
    cwd: Option<&Path>,
    memory: Memory,
    seen: ExitSeen,
    sink: Option<Sink>,
) -> io::Result<Outcome> {
    let mut command = Command::new(&cmd.program);
    command.args(&cmd.args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    if let Some(dir) = cwd {
        command.current_dir(dir);
    }
    #[cfg(unix)]
    {
        // A group of its own, killed as one (its children too).
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }
    let (mut child, floor, start) = match memory {
        Memory::Measured => spawn(&mut command),
        Memory::Unmeasured => {
            let start = Instant::now();
            command.spawn().map(|child| (child, None, start))
        }
    }
    .map_err(|e| hint(cmd, e))?;
    let _registered = group::Running::register(child.id());
    let Supervised { status, usage, wall, stdout, stderr } =
        supervise(&mut child, stdin, start, limit, seen, sink)?;
    let (maxrss, cpu) = match usage {
        Some(u) => (Some(u.peak_kib), u.cpu),
        None => (None, wall),
    };
    let peak = match (memory, maxrss, floor) {
        (Memory::Unmeasured, _, _) | (_, None, _) => None,
        (_, Some(k), Some(f)) if k <= f => Some(Peak::AtMost(f)),
        (_, Some(k), _) => Some(Peak::Exact(k)),
    };
    Ok(Outcome { stdout, stderr, status, cpu, wall, peak })
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

/// At most this much of a program's stdout (and of its stderr) is kept;
/// the rest is read and dropped, so that a program printing without end
/// until the time limit cannot exhaust our memory. (Our largest answer, a
/// 5000x5000 Ants map, is 25 MB.)
pub const OUTPUT_CAP: usize = if cfg!(test) { 1 << 20 } else { 256 << 20 };

/// What the supervision of a running program gathered.
struct Supervised {
    status: Status,
    usage: Option<Usage>,
    /// From the start to the exit (or to the kill).
    wall: Duration,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
}

/// Appends `chunk` to `buf`, as far as [`OUTPUT_CAP`] allows.
fn keep(buf: &mut Vec<u8>, chunk: &[u8]) {
    let room = OUTPUT_CAP.saturating_sub(buf.len()).min(chunk.len());
    buf.extend_from_slice(&chunk[..room]);
}

/// What the system reports of a reaped child.
#[derive(Clone, Copy, Debug)]
struct Usage {
    peak_kib: u64,
    cpu: Duration,
}

/// How often the CPU time of a running program is read.
const CPU_POLL: Duration = Duration::from_millis(10);

/// A program past [`idle_limit`] is idle, and killed, when it gained less
/// than [`IDLE_CPU`] of CPU time in the last [`IDLE_WINDOW`]: a program
/// that computes on a starved machine is not idle, it ends at the CPU limit.
pub const IDLE_WINDOW: Duration = Duration::from_secs(1);
pub const IDLE_CPU: Duration = Duration::from_millis(10);

/// Past this many times [`idle_limit`], a run is stopped whatever it does
/// (a machine so loaded that the program gets almost none of the CPU).
pub const HARD_STOP: u32 = 10;

/// The limits of one running program: its CPU time, read every
/// [`CPU_POLL`], against `limit`; its wall time against [`idle_limit`] while
/// idle, and against [`HARD_STOP`] times that in any case.
struct Limits {
    pid: u32,
    start: Instant,
    limit: Duration,
    backstop: Duration,
    next_cpu_check: Instant,
    cpu: Duration,
    /// The start of the current idleness window and the CPU time then.
    mark: (Instant, Duration),
    /// Whether the last full window was idle.
    idle: bool,
}

impl Limits {
    fn new(pid: u32, start: Instant, limit: Duration) -> Limits {
        Limits {
            pid,
            start,
            limit,
            backstop: idle_limit(limit),
            next_cpu_check: start + CPU_POLL,
            cpu: Duration::ZERO,
            mark: (start, Duration::ZERO),
            idle: false,
        }
    }

    /// The limit the program is over at `now`, if any.
    fn over(&mut self, now: Instant) -> Option<Status> {
        if now >= self.next_cpu_check {
            self.next_cpu_check = now + CPU_POLL;
            if let Some(c) = live_cpu(self.pid) {
                self.cpu = c;
            }
            if self.cpu > self.limit {
                return Some(Status::CpuLimit);
            }
            if now - self.mark.0 >= IDLE_WINDOW {
                self.idle = self.cpu.saturating_sub(self.mark.1) < IDLE_CPU;
                self.mark = (now, self.cpu);
            }
        }
        let wall = now - self.start;
        if wall > self.backstop && self.idle || wall > self.backstop * HARD_STOP {
            return Some(Status::IdleLimit);
        }
        None
    }

    /// How long from `now` until [`Limits::over`] has something new to
    /// look at.
    #[cfg(unix)]
    fn until_next_check(&self, now: Instant) -> Duration {
        self.next_cpu_check.saturating_duration_since(now)
    }
}

/// Kills the program's group (at a limit) and reaps it.
fn stop_at(child: &mut Child) -> io::Result<Option<Usage>> {
    group::kill_group(child.id());
    let (_, usage) = reap(child, true)?.expect("a blocking wait returns the status");
    Ok(usage)
}

/// A program that has ended (or was stopped), reaped.
#[cfg(unix)]
#[derive(Clone, Copy)]
struct Ended {
    status: Status,
    usage: Option<Usage>,
    wall: Duration,
    /// Until when its pipes are still read.
    grace_until: Instant,
}

#[cfg(unix)]
impl Ended {
    /// Also kills what it left running (`sleep 99 &`), whose end closes
    /// the pipes it held.
    fn now(child: &Child, status: Status, usage: Option<Usage>, start: Instant) -> Ended {
        let wall = start.elapsed();
        group::kill_group(child.id());
        Ended { status, usage, wall, grace_until: Instant::now() + PIPE_GRACE }
    }
}

/// Feeds `stdin` to the program and reads its stdout and stderr while it
/// runs, all in this one thread: a `poll(2)` over the three pipes (and,
/// on Linux, over a pidfd that becomes readable at the exit), whose timeout
/// is the next CPU time check. Starting threads per run cost more than many
/// a program's whole run. stdin is written without blocking, as far as the
/// pipe takes it: a program may write before it has read all its input, or
/// never read at all (then the write fails, which is its business). When
/// the program ends (or is killed), its group is killed too and the pipes
/// get [`PIPE_GRACE`] more to reach their end.
#[cfg(unix)]
fn supervise(
    child: &mut Child,
    stdin: &[u8],
    start: Instant,
    limit: Duration,
    seen: ExitSeen,
    mut sink: Option<Sink>,
) -> io::Result<Supervised> {
    use poll::{Pipe, Poll};
    use std::fs::File;
    use std::os::fd::OwnedFd;

    let to_file = |fd: OwnedFd| File::from(fd);
    let mut feed = child.stdin.take().map(|p| to_file(p.into()));
    let mut out = child.stdout.take().map(|p| to_file(p.into()));
    let mut err = child.stderr.take().map(|p| to_file(p.into()));
    let mut rest = stdin;
    if rest.is_empty() {
        feed = None;
    }
    if let Some(f) = &feed {
        if poll::set_nonblocking(f).is_err() {
            // A blocking write could wait for ever on a program that
            // does not read: rather no input than a hang.
            feed = None;
        }
    }
    // Most inputs fit in the pipe at once: written now, without a wait.
    feed_some(&mut feed, &mut rest);
    let exit = match seen {
        ExitSeen::Pidfd => poll::pidfd(child.id()),
        ExitSeen::Polled => None,
    };
    let mut limits = Limits::new(child.id(), start, limit);
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let mut chunk = vec![0u8; 1 << 16];
    let mut ended: Option<Ended> = None;
    let end = loop {
        let now = Instant::now();
        if ended.is_none() {
            if let Some(status) = limits.over(now) {
                let usage = stop_at(child)?;
                ended = Some(Ended::now(child, status, usage, start));
            }
        }
        if let Some(end) = ended {
            // stdin is of no more use; the output pipes may still hold
            // the last of it, for the grace period.
            feed = None;
            if out.is_none() && err.is_none() || now >= end.grace_until {
                break end;
            }
        }
        let timeout = match ended {
            Some(end) => end.grace_until.saturating_duration_since(now),
            // Without a pidfd, the exit is looked for every millisecond
            // (the pipes may close before it, or a grandchild may hold
            // them after it).
            None if exit.is_none() => Duration::from_millis(1),
            None => limits.until_next_check(now),
        };
        let mut set = Poll::new();
        let feed_at = feed.as_ref().map(|f| set.add(f, Pipe::Write));
        let out_at = out.as_ref().map(|f| set.add(f, Pipe::Read));
        let err_at = err.as_ref().map(|f| set.add(f, Pipe::Read));
        let exit_at = match ended {
            None => exit.as_ref().map(|f| set.add(f, Pipe::Read)),
            Some(_) => None,
        };
        if let Err(e) = set.wait(timeout) {
            if ended.is_none() {
                stop_at(child)?;
            }
            return Err(e);
        }
        if feed_at.is_some_and(|k| set.ready(k)) {
            feed_some(&mut feed, &mut rest);
        }
        for (at, pipe, buf) in [(out_at, &mut out, &mut stdout), (err_at, &mut err, &mut stderr)] {
            if at.is_some_and(|k| set.ready(k)) {
                let is_stdout = at == out_at;
                if let Some(f) = pipe.as_mut() {
                    match f.read(&mut chunk) {
                        Ok(0) => *pipe = None,
                        Ok(n) => match sink.as_mut().filter(|_| is_stdout) {
                            Some(sink) => sink(&chunk[..n]),
                            None => keep(buf, &chunk[..n]),
                        },
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        Err(_) => *pipe = None,
                    }
                }
            }
        }
        // With a pidfd, a wait only once it says the program has ended.
        let maybe_ended = match exit_at {
            Some(k) => set.ready(k),
            None => ended.is_none(),
        };
        if maybe_ended {
            if let Some((status, usage)) = reap(child, false)? {
                ended = Some(Ended::now(child, status_of(status), usage, start));
            }
        }
    };
    let Ended { status, usage, wall, .. } = end;
    Ok(Supervised { status, usage, wall, stdout, stderr })
}

/// Writes what the stdin pipe takes now of `rest` (it does not block),
/// and closes the pipe once all is written (the program sees the end of
/// its input) or when the program has closed its end (EPIPE: its
/// business).
#[cfg(unix)]
fn feed_some(feed: &mut Option<std::fs::File>, rest: &mut &[u8]) {
    if let Some(f) = feed.as_mut() {
        match f.write(rest) {
            Ok(n) => *rest = &rest[n..],
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => *rest = &[],
        }
    }
    if rest.is_empty() {
        *feed = None;
    }
}

/// `poll(2)` and the few other calls [`supervise`] needs, declared by hand
/// (std only), as `wait4` is.
#[cfg(unix)]
mod poll {
    use std::fs::File;
    use std::io;
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
    use std::os::raw::{c_int, c_short};
    use std::time::Duration;

    #[cfg(target_os = "linux")]
    type Nfds = std::os::raw::c_ulong;
    #[cfg(not(target_os = "linux"))]
    type Nfds = std::os::raw::c_uint;

    /// `struct pollfd`.
    #[repr(C)]
    struct PollFd {
        fd: c_int,
        events: c_short,
        revents: c_short,
    }

    extern "C" {
        fn poll(fds: *mut PollFd, nfds: Nfds, timeout: c_int) -> c_int;
        fn fcntl(fd: c_int, cmd: c_int, ...) -> c_int;
    }

    const POLLIN: c_short = 0x1;
    const POLLOUT: c_short = 0x4;
    const F_GETFL: c_int = 3;
    const F_SETFL: c_int = 4;
    #[cfg(target_os = "linux")]
    const O_NONBLOCK: c_int = 0o4000;
    #[cfg(not(target_os = "linux"))]
    const O_NONBLOCK: c_int = 0x4;

    /// Which way a pipe is watched.
    pub enum Pipe {
        Read,
        Write,
    }

    /// The set of descriptors of one `poll(2)` call (at most four).
    pub struct Poll {
        fds: [PollFd; 4],
        len: usize,
    }

    impl Poll {
        pub fn new() -> Poll {
            let free = || PollFd { fd: -1, events: 0, revents: 0 };
            Poll { fds: [free(), free(), free(), free()], len: 0 }
        }

        /// Watches `file`; returns its index for [`Poll::ready`].
        pub fn add(&mut self, file: &impl AsRawFd, way: Pipe) -> usize {
            let events = match way {
                Pipe::Read => POLLIN,
                Pipe::Write => POLLOUT,
            };
            self.fds[self.len] = PollFd { fd: file.as_raw_fd(), events, revents: 0 };
            self.len += 1;
            self.len - 1
        }

        /// Waits until one is ready or `timeout` (rounded up to the
        /// millisecond) is over; an interrupted wait is a short one.
        pub fn wait(&mut self, timeout: Duration) -> io::Result<()> {
            let ms = timeout.as_micros().saturating_add(999) / 1000;
            let ms = c_int::try_from(ms).unwrap_or(c_int::MAX);
            // SAFETY: `fds` holds `len` initialised entries, which the
            // call only writes the `revents` of.
            let got = unsafe { poll(self.fds.as_mut_ptr(), self.len as Nfds, ms) };
            if got < 0 {
                let e = io::Error::last_os_error();
                if e.kind() != io::ErrorKind::Interrupted {
                    return Err(e);
                }
            }
            Ok(())
        }

        /// Whether entry `k` is ready: readable, writable, at its end or
        /// in error (the next read or write says which).
        pub fn ready(&self, k: usize) -> bool {
            self.fds[k].revents != 0
        }
    }

    /// Makes writes to `file` return `WouldBlock` rather than wait.
    pub fn set_nonblocking(file: &File) -> io::Result<()> {
        let fd = file.as_raw_fd();
        // SAFETY: fcntl(2) on a descriptor we own; F_GETFL and F_SETFL
        // read and set its flags, no memory of ours.
        let flags = unsafe { fcntl(fd, F_GETFL) };
        if flags < 0 || unsafe { fcntl(fd, F_SETFL, flags | O_NONBLOCK) } < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    /// A descriptor that becomes readable when process `pid` (our unreaped
    /// child, so its pid cannot be reused) has ended: `pidfd_open(2)`,
    /// Linux 5.3; `None` elsewhere, or where it is refused.
    #[cfg(target_os = "linux")]
    pub fn pidfd(pid: u32) -> Option<OwnedFd> {
        use std::os::raw::c_long;
        extern "C" {
            fn syscall(number: c_long, ...) -> c_long;
        }
        /// The number of `pidfd_open` on every Linux architecture.
        const SYS_PIDFD_OPEN: c_long = 434;
        // SAFETY: pidfd_open(pid, 0) takes two integers and returns a new
        // descriptor (ours to close) or -1.
        let fd = unsafe { syscall(SYS_PIDFD_OPEN, pid as c_int, 0 as c_int) };
        let fd = c_int::try_from(fd).ok().filter(|&fd| fd >= 0)?;
        // SAFETY: a fresh descriptor that nothing else owns.
        Some(unsafe { OwnedFd::from_raw_fd(fd) })
    }

    #[cfg(not(target_os = "linux"))]
    pub fn pidfd(_pid: u32) -> Option<OwnedFd> {
        None
    }
}

/// Elsewhere: a thread per pipe, and polling for the exit.
#[cfg(not(unix))]
fn supervise(
    child: &mut Child,
    stdin: &[u8],
    start: Instant,
    limit: Duration,
    _seen: ExitSeen,
    sink: Option<Sink>,
) -> io::Result<Supervised> {
    let mut pipe = child.stdin.take().expect("stdin is piped");
    let data = stdin.to_vec();
    std::thread::spawn(move || {
        let _ = pipe.write_all(&data);
    });
    let stdout = Drain::start(child.stdout.take().expect("stdout is piped"));
    let stderr = Drain::start(child.stderr.take().expect("stderr is piped"));
    let (status, usage) = wait(child, start, limit)?;
    let wall = start.elapsed();
    group::kill_group(child.id());
    let grace = Instant::now() + PIPE_GRACE;
    let mut stdout = stdout.finish(grace);
    if let Some(sink) = sink {
        sink(&stdout);
        stdout.clear();
    }
    Ok(Supervised { status, usage, wall, stdout, stderr: stderr.finish(grace) })
}

/// A thread reading one pipe into a shared buffer until end of file.
#[cfg(not(unix))]
struct Drain {
    buf: std::sync::Arc<std::sync::Mutex<Vec<u8>>>,
    done: std::sync::mpsc::Receiver<()>,
}

#[cfg(not(unix))]
impl Drain {
    fn start<R: Read + Send + 'static>(mut r: R) -> Drain {
        let buf = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let (tx, done) = std::sync::mpsc::channel();
        let shared = std::sync::Arc::clone(&buf);
        std::thread::spawn(move || {
            let mut chunk = [0u8; 1 << 16];
            loop {
                match r.read(&mut chunk) {
                    Ok(0) => break,
                    Ok(n) => keep(&mut shared.lock().expect("drain"), &chunk[..n]),
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(_) => break,
                }
            }
            let _ = tx.send(());
        });
        Drain { buf, done }
    }

    /// Everything read by end of file, or by `deadline` if the pipe stays
    /// open that long.
    fn finish(self, deadline: Instant) -> Vec<u8> {
        let left = deadline.saturating_duration_since(Instant::now());
        let _ = self.done.recv_timeout(left);
        let mut buf = self.buf.lock().expect("drain");
        std::mem::take(&mut *buf)
    }
}

/// Polls for the exit (sleeping 20 us, doubling up to 1 ms) and stops the
/// program at its [`Limits`].
#[cfg(not(unix))]
fn wait(child: &mut Child, start: Instant, limit: Duration) -> io::Result<(Status, Option<Usage>)> {
    let mut nap = Duration::from_micros(20);
    let mut limits = Limits::new(child.id(), start, limit);
    loop {
        if let Some((status, usage)) = reap(child, false)? {
            return Ok((status_of(status), usage));
        }
        if let Some(status) = limits.over(Instant::now()) {
            return Ok((status, stop_at(child)?));
        }
        std::thread::sleep(nap);
        nap = (nap * 2).min(Duration::from_millis(1));
    }
}

/// The CPU time so far of a running process (and of its children that it
/// waited for), from `/proc/PID/stat`.
#[cfg(target_os = "linux")]
fn live_cpu(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name, which is in parentheses and may hold
    // anything: state is field 3; utime, stime, cutime, cstime are 14..17.
    let after = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = after.split_whitespace().collect();
    let mut ticks = 0u64;
    for k in 11..15 {
        ticks += fields.get(k)?.parse::<u64>().ok()?;
    }
    let per_second = group::clock_ticks()?;
    Some(Duration::from_micros(ticks * 1_000_000 / per_second))
}

#[cfg(not(target_os = "linux"))]
fn live_cpu(_pid: u32) -> Option<Duration> {
    None
}

fn status_of(status: ExitStatus) -> Status {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return Status::Signaled(sig);
        }
    }
    Status::Exited(status.code().unwrap_or(-1))
}

/// The exit status and peak memory of `child` if it has ended (or, with
/// `block`, once it ends).
#[cfg(target_os = "linux")]
fn reap(child: &mut Child, block: bool) -> io::Result<Option<(ExitStatus, Option<Usage>)>> {
    use std::os::raw::{c_int, c_long};
    use std::os::unix::process::ExitStatusExt;

    /// `struct rusage` of Linux: two `struct timeval`s, then 14 longs of
    /// which `ru_maxrss` (KiB) is the first.
    #[repr(C)]
    struct Rusage {
        utime: [c_long; 2],
        stime: [c_long; 2],
        maxrss: c_long,
        rest: [c_long; 13],
    }
    extern "C" {
        fn wait4(pid: c_int, status: *mut c_int, options: c_int, rusage: *mut Rusage) -> c_int;
    }
    const WNOHANG: c_int = 1;

    let pid = child.id() as c_int;
    let options = if block { 0 } else { WNOHANG };
    loop {
        let mut status: c_int = 0;
        let mut usage = Rusage { utime: [0; 2], stime: [0; 2], maxrss: 0, rest: [0; 13] };
        // SAFETY: `pid` is our own unreaped child (std never waits for it:
        // we do not call its wait methods), and both pointers are to live,
        // properly sized locals that the call only writes.
        let got = unsafe { wait4(pid, &mut status, options, &mut usage) };
        if got == pid {
            let time = |tv: [c_long; 2]| {
                let (s, us) = (u64::try_from(tv[0]), u64::try_from(tv[1]));
                Duration::from_secs(s.unwrap_or(0)) + Duration::from_micros(us.unwrap_or(0))
            };
            let usage = u64::try_from(usage.maxrss)
                .ok()
                .map(|peak_kib| Usage { peak_kib, cpu: time(usage.utime) + time(usage.stime) });
            return Ok(Some((ExitStatus::from_raw(status), usage)));
        }
        if got == 0 {
            return Ok(None);
        }
        let err = io::Error::last_os_error();
        if err.kind() != io::ErrorKind::Interrupted {
            return Err(err);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn reap(child: &mut Child, block: bool) -> io::Result<Option<(ExitStatus, Option<Usage>)>> {
    if block {
        return child.wait().map(|s| Some((s, None)));
    }
    Ok(child.try_wait()?.map(|s| (s, None)))
}

/// Kills the process groups of the running programs when `kit` is stopped
/// by SIGTERM, SIGHUP or SIGINT (`kill`, `timeout`, a closed terminal,
/// Ctrl-C), then dies of that signal as it would have. Call once, from
/// `main`; std only, so the calls are declared by hand, as `wait4` is.
pub fn stop_children_on_signals() {
    group::install();
}

/// The process groups of the programs running now, in a fixed table that a
/// signal handler may read (no lock, no allocation).
#[cfg(unix)]
mod group {
    use std::os::raw::{c_int, c_long};
    use std::sync::atomic::{AtomicI32, AtomicU64, Ordering};

    extern "C" {
        fn kill(pid: c_int, sig: c_int) -> c_int;
        fn signal(signum: c_int, handler: usize) -> usize;
        fn raise(sig: c_int) -> c_int;
        fn sysconf(name: c_int) -> c_long;
    }

    const SIGHUP: c_int = 1;
    const SIGINT: c_int = 2;
    const SIGKILL: c_int = 9;
    const SIGTERM: c_int = 15;
    const SIG_DFL: usize = 0;
    /// `_SC_CLK_TCK` of Linux.
    const SC_CLK_TCK: c_int = 2;

    /// More programs than `kit` ever runs at once (`--jobs` is capped
    /// below this, each job running one program at a time).
    pub const SLOTS: usize = 128;

    /// Process group ids (= the leaders' pids); 0 is a free slot.
    static RUNNING: [AtomicI32; SLOTS] = {
        #[allow(clippy::declare_interior_mutable_const)]
        const FREE: AtomicI32 = AtomicI32::new(0);
        [FREE; SLOTS]
    };

    /// A registered group, removed from the table when dropped.
    pub struct Running(Option<usize>);

    impl Running {
        pub fn register(pid: u32) -> Running {
            let pid = pid as i32;
            let slot = RUNNING.iter().position(|s| {
                s.compare_exchange(0, pid, Ordering::SeqCst, Ordering::SeqCst).is_ok()
            });
            Running(slot)
        }
    }

    impl Drop for Running {
        fn drop(&mut self) {
            if let Some(k) = self.0 {
                RUNNING[k].store(0, Ordering::SeqCst);
            }
        }
    }

    /// SIGKILL to the group led by `pid` (nothing if it is gone).
    pub fn kill_group(pid: u32) {
        // SAFETY: kill(2) with a negative pid signals a process group; it
        // touches no memory of ours.
        unsafe {
            kill(-(pid as c_int), SIGKILL);
        }
    }

    extern "C" fn on_signal(sig: c_int) {
        // Only async-signal-safe calls here: atomic loads, kill, signal,
        // raise.
        for slot in &RUNNING {
            let pid = slot.load(Ordering::SeqCst);
            if pid > 0 {
                // SAFETY: as in `kill` above.
                unsafe {
                    kill(-pid, SIGKILL);
                }
            }
        }
        // SAFETY: back to the default action, then the same signal again:
        // kit ends as a process killed by it (exit status 128 + sig).
        unsafe {
            signal(sig, SIG_DFL);
            raise(sig);
        }
    }

    pub fn install() {
        for sig in [SIGTERM, SIGHUP, SIGINT] {
            let handler: extern "C" fn(c_int) = on_signal;
            // SAFETY: `on_signal` has the C signature of a handler and makes
            // only async-signal-safe calls.
            unsafe {
                signal(sig, handler as usize);
            }
        }
    }

    /// Clock ticks per second, the unit of `/proc/PID/stat`'s times.
    pub fn clock_ticks() -> Option<u64> {
        static TICKS: AtomicU64 = AtomicU64::new(0);
        let known = TICKS.load(Ordering::Relaxed);
        if known > 0 {
            return Some(known);
        }
        // SAFETY: sysconf(3) reads a system constant.
        let ticks = u64::try_from(unsafe { sysconf(SC_CLK_TCK) }).ok()?;
        if ticks == 0 {
            return None;
        }
        TICKS.store(ticks, Ordering::Relaxed);
        Some(ticks)
    }
}

#[cfg(not(unix))]
mod group {
    pub struct Running;

    impl Running {
        pub fn register(_pid: u32) -> Running {
            Running
        }
    }

    pub fn kill_group(_pid: u32) {}

    pub fn install() {}
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    use crate::scratch::sh;

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
            run_seen(cmd, stdin.as_bytes(), limit, None, Memory::Unmeasured, ExitSeen::Polled, None)
                .expect("sh starts")
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
        // sh alone is smaller than this test process: only a bound.
        let small = go(&sh("exit 0"), "", 5000).peak;
        assert!(matches!(small, Some(Peak::AtMost(_))), "{small:?}");
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
