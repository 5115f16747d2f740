//! Running one program on one input: stdin fed from memory, stdout and
//! stderr captured, killed after a wall-clock limit, with the wall time and
//! (on Linux) the peak memory.
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
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A program and its arguments, as typed after `--`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cmd {
    pub program: OsString,
    pub args: Vec<OsString>,
}

impl Cmd {
    pub fn new(program: impl Into<OsString>) -> Cmd {
        Cmd {
            program: program.into(),
            args: Vec::new(),
        }
    }

    pub fn arg(mut self, arg: impl Into<OsString>) -> Cmd {
        self.args.push(arg.into());
        self
    }

    /// From words (the first is the program); `None` if there are none.
    pub fn from_words(words: &[OsString]) -> Option<Cmd> {
        let (program, args) = words.split_first()?;
        Some(Cmd {
            program: program.clone(),
            args: args.to_vec(),
        })
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
    /// Killed by us at the time limit.
    TimedOut,
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Status::Exited(c) => write!(f, "exit code {c}"),
            Status::Signaled(s) => match signal_name(s) {
                Some(name) => write!(f, "signal {s} ({name})"),
                None => write!(f, "signal {s}"),
            },
            Status::TimedOut => f.write_str("time limit"),
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
#[derive(Debug)]
pub struct Outcome {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub status: Status,
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
}

/// After the program ends (or is killed), how long its pipes may stay open:
/// a program may leave a child behind that holds them (`sh -c 'sleep 99 &'`).
const PIPE_GRACE: Duration = Duration::from_millis(500);

/// Runs `cmd` on `stdin` in `cwd` (the current directory if `None`) and
/// kills it when it runs over `limit`. An error only when it cannot start.
pub fn run(cmd: &Cmd, stdin: &[u8], limit: Duration, cwd: Option<&Path>) -> io::Result<Outcome> {
    let mut command = Command::new(&cmd.program);
    command
        .args(&cmd.args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(dir) = cwd {
        command.current_dir(dir);
    }
    let (mut child, floor, start) = spawn(&mut command)?;
    // Feed stdin from a thread: a program may write before it has read all,
    // or never read at all (then the write fails, which is its business).
    let mut pipe = child.stdin.take().expect("stdin is piped");
    let data = stdin.to_vec();
    std::thread::spawn(move || {
        let _ = pipe.write_all(&data);
    });
    let stdout = Drain::start(child.stdout.take().expect("stdout is piped"));
    let stderr = Drain::start(child.stderr.take().expect("stderr is piped"));
    let (status, maxrss) = wait(&mut child, start, limit)?;
    let wall = start.elapsed();
    let peak = match (maxrss, floor) {
        (Some(k), Some(f)) if k <= f => Some(Peak::AtMost(f)),
        (Some(k), _) => Some(Peak::Exact(k)),
        (None, _) => None,
    };
    let grace = Instant::now() + PIPE_GRACE;
    Ok(Outcome {
        stdout: stdout.finish(grace),
        stderr: stderr.finish(grace),
        status,
        wall,
        peak,
    })
}

/// Starts the child; returns it, our own peak memory after the start (the
/// floor of its `ru_maxrss`, Linux) and the start time.
#[cfg(target_os = "linux")]
fn spawn(command: &mut Command) -> io::Result<(Child, Option<u64>, Instant)> {
    // One spawn at a time: another thread's reset between our spawn and
    // our reading of the floor would make the floor too low.
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

/// A thread reading one pipe into a shared buffer until end of file.
struct Drain {
    buf: Arc<Mutex<Vec<u8>>>,
    done: mpsc::Receiver<()>,
}

impl Drain {
    fn start<R: Read + Send + 'static>(mut r: R) -> Drain {
        let buf = Arc::new(Mutex::new(Vec::new()));
        let (tx, done) = mpsc::channel();
        let shared = Arc::clone(&buf);
        std::thread::spawn(move || {
            let mut chunk = [0u8; 1 << 16];
            loop {
                match r.read(&mut chunk) {
                    Ok(0) => break,
                    Ok(n) => {
                        let mut buf = shared.lock().expect("drain");
                        let room = OUTPUT_CAP.saturating_sub(buf.len()).min(n);
                        buf.extend_from_slice(&chunk[..room]);
                    }
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

/// Polls for the exit (sleeping 20 us, doubling up to 1 ms), kills at the
/// limit.
fn wait(child: &mut Child, start: Instant, limit: Duration) -> io::Result<(Status, Option<u64>)> {
    let mut nap = Duration::from_micros(20);
    loop {
        if let Some((status, peak)) = reap(child, false)? {
            return Ok((status_of(status), peak));
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let (_, peak) = reap(child, true)?.expect("a blocking wait returns the status");
            return Ok((Status::TimedOut, peak));
        }
        std::thread::sleep(nap);
        nap = (nap * 2).min(Duration::from_millis(1));
    }
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
fn reap(child: &mut Child, block: bool) -> io::Result<Option<(ExitStatus, Option<u64>)>> {
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
        let mut usage = Rusage {
            utime: [0; 2],
            stime: [0; 2],
            maxrss: 0,
            rest: [0; 13],
        };
        // SAFETY: `pid` is our own unreaped child (std never waits for it:
        // we do not call its wait methods), and both pointers are to live,
        // properly sized locals that the call only writes.
        let got = unsafe { wait4(pid, &mut status, options, &mut usage) };
        if got == pid {
            let peak = u64::try_from(usage.maxrss).ok();
            return Ok(Some((ExitStatus::from_raw(status), peak)));
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
fn reap(child: &mut Child, block: bool) -> io::Result<Option<(ExitStatus, Option<u64>)>> {
    if block {
        return child.wait().map(|s| Some((s, None)));
    }
    Ok(child.try_wait()?.map(|s| (s, None)))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn sh(script: &str) -> Cmd {
        Cmd::new("sh").arg("-c").arg(script)
    }

    fn go(cmd: &Cmd, stdin: &str, limit_ms: u64) -> Outcome {
        run(cmd, stdin.as_bytes(), Duration::from_millis(limit_ms), None).expect("sh starts")
    }

    #[test]
    fn captures_stdout_stderr_and_the_exit_code() {
        let o = go(
            &sh("read x; echo \"got $x\"; echo oops >&2; exit 3"),
            "42\n",
            5000,
        );
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
    fn a_program_over_the_limit_is_killed() {
        let t = Instant::now();
        let o = go(&sh("exec sleep 10"), "", 200);
        assert_eq!(o.status, Status::TimedOut);
        assert!(o.wall >= Duration::from_millis(200));
        assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    }

    #[test]
    fn a_grandchild_holding_the_pipes_does_not_hang_the_run() {
        let t = Instant::now();
        let o = go(&sh("sleep 10 & echo started"), "", 5000);
        assert!(o.success());
        assert_eq!(o.stdout, b"started\n");
        assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    }

    #[test]
    fn a_program_that_never_reads_its_input_still_runs() {
        let big = "x".repeat(1 << 20);
        let o = go(&sh("echo done"), &big, 5000);
        assert!(o.success());
        assert_eq!(o.stdout, b"done\n");
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
    fn commands_print_as_a_shell_reads_them() {
        let cmd = Cmd::new("python3").arg("my sol.py").arg("it's").arg("-x=1");
        assert_eq!(cmd.to_string(), r"python3 'my sol.py' 'it'\''s' -x=1");
    }
}
