//! One running program, watched from the caller's thread: a [`Poller`]
//! whose every step is one `poll(2)` that feeds its stdin, reads its
//! stdout and stderr, sees its exit and, every [`CHECK_EVERY`], has its
//! [`Watch`] judge the figures its [`Meter`] reads against the limits.
//! Starting threads per run cost more than many a program's whole run.
//!
//! Each read of stdout: the bytes so far against the output limit. Over
//! any limit, everything the program started is killed at once. When the
//! program ends on its own, the rest is killed too (what it left running
//! in the background) and the pipes get [`PIPE_GRACE`] more to reach their
//! end. A program that has ended is judged by its exit and its CPU time:
//! the idleness rule is only for one still running (kit itself may have
//! been stopped a long while, Ctrl-Z, before it saw the exit).

use super::meter::{Final, Meter};
use super::spawn::Started;
use super::terms::{idle_limit, Limits, Sink, Status, StderrKept};
use super::terms::{CHECK_EVERY, HARD_STOP, IDLE_CPU, IDLE_WINDOW, OUTPUT_CAP, PIPE_GRACE};
use super::terms::{STDERR_HEAD, STDERR_TAIL};
use std::fs::File;
use std::io::{self, Read};
use std::os::fd::OwnedFd;
use std::process::ExitStatus;
use std::time::{Duration, Instant};

/// How the exit of a running program is seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitSeen {
    /// By a pidfd where the system has them (Linux 5.3), else as by
    /// `Polled`.
    Pidfd,
    /// By a look every millisecond (tests check this path too).
    #[cfg_attr(not(test), allow(dead_code))]
    Polled,
}

/// A started program to watch to its end.
pub struct Supervision<'i, 's> {
    pub child: Started,
    pub stdin: &'i [u8],
    /// When it was started.
    pub start: Instant,
    pub limits: Limits,
    pub seen: ExitSeen,
    /// Where its stdout goes, if not kept.
    pub sink: Option<Sink<'s>>,
    pub meter: Meter,
}

/// What the supervision of a running program gathered.
pub struct Supervised {
    pub status: Status,
    /// CPU time, user + system, of everything the program started.
    pub cpu: Duration,
    /// `ru_maxrss` of the program itself, in KiB, where reported.
    pub leader_peak_kib: Option<u64>,
    /// The largest sum of the tree's resident memory seen, in KiB (0 if
    /// never seen: a run shorter than a check, or no `/proc`).
    pub tree_peak_kib: u64,
    /// The control group's peak, in KiB, when the run had one.
    pub group_peak_kib: Option<u64>,
    /// From the start to the exit (or to the kill).
    pub wall: Duration,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

/// Runs a started program to its end under [`Poller`]: stdin fed, stdout
/// and stderr read, the figures (from its meter) against its limits.
///
/// # Errors
/// kit lost track of the program: a `poll` or a `wait4` that failed
/// (everything it started is killed first, as far as kit can).
pub fn supervise(s: Supervision) -> io::Result<Supervised> {
    let watch = Watch::new(s.start, s.limits, s.meter);
    let mut poller = Poller::new(s.child, s.stdin, watch, s.seen, s.sink);
    let (status, wall) = loop {
        match poller.step() {
            Ok(Some(end)) => break end,
            Ok(None) => {}
            Err(e) => {
                if poller.ending.is_none() {
                    let _ = poller.watch.meter.stop();
                }
                return Err(e);
            }
        }
    };
    let Poller { watch, stdout, stderr, .. } = poller;
    Ok(watch.done(status, wall, stdout.kept, stderr.finish()))
}

/// Appends `chunk` to `buf`, as far as `cap` allows.
fn keep(buf: &mut Vec<u8>, chunk: &[u8], cap: usize) {
    let room = cap.saturating_sub(buf.len()).min(chunk.len());
    buf.extend_from_slice(&chunk[..room]);
}

/// stderr kept bounded: its head and its tail, or (`whole`) as far as
/// [`OUTPUT_CAP`].
#[derive(Default)]
struct Tail {
    whole: bool,
    head: Vec<u8>,
    /// The last bytes: at most 2 x [`STDERR_TAIL`], cut back to
    /// [`STDERR_TAIL`] when full (each byte moved at most once).
    tail: Vec<u8>,
    /// Bytes dropped from the front of `tail`.
    cut: u64,
}

impl Tail {
    fn take(&mut self, mut chunk: &[u8]) {
        if self.whole {
            return keep(&mut self.head, chunk, OUTPUT_CAP);
        }
        let room = STDERR_HEAD.saturating_sub(self.head.len()).min(chunk.len());
        self.head.extend_from_slice(&chunk[..room]);
        chunk = &chunk[room..];
        if chunk.len() > STDERR_TAIL {
            self.cut += (self.tail.len() + chunk.len() - STDERR_TAIL) as u64;
            self.tail.clear();
            chunk = &chunk[chunk.len() - STDERR_TAIL..];
        }
        self.tail.extend_from_slice(chunk);
        if self.tail.len() > 2 * STDERR_TAIL {
            let drop = self.tail.len() - STDERR_TAIL;
            self.cut += drop as u64;
            self.tail.drain(..drop);
        }
    }

    /// The head, a line saying how much was cut if any, the tail.
    fn finish(mut self) -> Vec<u8> {
        if self.tail.len() > STDERR_TAIL {
            let drop = self.tail.len() - STDERR_TAIL;
            self.cut += drop as u64;
            self.tail.drain(..drop);
        }
        if self.cut > 0 {
            let note = format!("\n[kit: {} bytes of stderr not kept]\n", self.cut);
            self.head.extend_from_slice(note.as_bytes());
        }
        self.head.extend_from_slice(&self.tail);
        self.head
    }
}

/// The idleness rule's window: since when, and the CPU time then.
#[derive(Clone, Copy)]
struct Window {
    since: Instant,
    cpu: Duration,
}

/// The limits' side of the supervision: the figures its meter reads,
/// judged against the limits.
struct Watch {
    start: Instant,
    limits: Limits,
    backstop: Duration,
    next_check: Instant,
    meter: Meter,
    /// The CPU time so far (never decreasing, although in a tree a
    /// member's time moves to its parent's when it is reaped).
    cpu: Duration,
    tree_peak_kib: u64,
    window: Window,
    /// Whether the last full window was idle.
    idle: bool,
}

impl Watch {
    fn new(start: Instant, limits: Limits, meter: Meter) -> Watch {
        Watch {
            start,
            limits,
            backstop: idle_limit(limits.time),
            next_check: start + CHECK_EVERY,
            meter,
            cpu: Duration::ZERO,
            tree_peak_kib: 0,
            window: Window { since: start, cpu: Duration::ZERO },
            idle: false,
        }
    }

    /// The limit the program is over at `now`, if any.
    fn over(&mut self, now: Instant) -> io::Result<Option<Status>> {
        if now >= self.next_check {
            self.next_check = now + CHECK_EVERY;
            if let Some(reading) = self.meter.measure()? {
                self.cpu = self.cpu.max(reading.cpu);
                self.tree_peak_kib = self.tree_peak_kib.max(reading.rss_kib.unwrap_or(0));
            }
            if self.limits.memory_kib.is_some_and(|m| self.tree_peak_kib > m) {
                return Ok(Some(Status::MemoryLimit));
            }
            if self.cpu > self.limits.time {
                return Ok(Some(Status::CpuLimit));
            }
            if now - self.window.since >= IDLE_WINDOW {
                self.idle = self.cpu.saturating_sub(self.window.cpu) < IDLE_CPU;
                self.window = Window { since: now, cpu: self.cpu };
            }
        }
        let wall = now - self.start;
        let past_wall = self.limits.wall.is_some_and(|w| wall > w);
        if wall > self.backstop && self.idle || wall > self.backstop * HARD_STOP || past_wall {
            // Only a program still running is idle: one whose exit kit has
            // not seen yet (kit was stopped) is judged by that exit.
            if !self.meter.ended(false)? {
                return Ok(Some(Status::IdleLimit));
            }
        }
        Ok(None)
    }

    /// How long from `now` until [`Watch::over`] has something new to look
    /// at.
    fn until_next_check(&self, now: Instant) -> Duration {
        self.next_check.saturating_duration_since(now)
    }

    /// The figures of the ended run (its meter stopped).
    fn done(self, status: Status, wall: Duration, stdout: Vec<u8>, stderr: Vec<u8>) -> Supervised {
        let Final { cpu: measured, end, group } = self.meter.finish();
        let cpu = match self.cpu.max(measured) {
            zero if zero == Duration::ZERO && end.is_none() => wall,
            cpu => cpu,
        };
        // The kernel's OOM killer stopped a process of the group: a memory
        // limit, whatever the program did after.
        let oom = group.is_some_and(|g| g.oom);
        let status = match status {
            Status::Exited(_) | Status::Signaled(_) | Status::IdleLimit if oom => {
                Status::MemoryLimit
            }
            _ => status,
        };
        Supervised {
            status,
            cpu,
            leader_peak_kib: end.map(|e| e.usage.peak_kib),
            tree_peak_kib: self.tree_peak_kib,
            group_peak_kib: group.map(|g| g.peak_kib),
            wall,
            stdout,
            stderr,
        }
    }
}

fn status_of(status: ExitStatus) -> Status {
    use std::os::unix::process::ExitStatusExt;
    match status.signal() {
        Some(sig) => Status::Signaled(sig),
        None => Status::Exited(status.code().unwrap_or(-1)),
    }
}

/// Where a program's stdout goes: kept (as far as the output limit, or
/// [`OUTPUT_CAP`], allows) or handed to a sink; counted against the limit.
struct Stdout<'s> {
    kept: Vec<u8>,
    sink: Option<Sink<'s>>,
    bytes: u64,
    cap: usize,
    limit: Option<u64>,
}

impl Stdout<'_> {
    /// Takes `chunk`; true if the output is now over the limit.
    fn take(&mut self, chunk: &[u8]) -> bool {
        self.bytes += chunk.len() as u64;
        match self.sink.as_mut() {
            Some(sink) => sink(chunk),
            None => keep(&mut self.kept, chunk, self.cap),
        }
        self.limit.is_some_and(|l| self.bytes > l)
    }
}

/// The program's end as the poller saw it: how it ended, its wall time,
/// and until when its pipes are still read.
#[derive(Clone, Copy)]
struct Ending {
    status: Status,
    wall: Duration,
    grace_until: Instant,
}

/// One run under watch: its pipes, its figures, and whether it has ended.
/// [`Poller::step`] waits for the next event once and handles it.
pub struct Poller<'i, 's> {
    watch: Watch,
    feed: Option<File>,
    /// What of stdin is still to be written.
    rest: &'i [u8],
    nonblocking: bool,
    out: Option<File>,
    err: Option<File>,
    /// A pidfd of the program, readable once it has ended.
    exit: Option<OwnedFd>,
    stdout: Stdout<'s>,
    stderr: Tail,
    chunk: Vec<u8>,
    /// A limit it went over (the output limit is seen while reading).
    over: Option<Status>,
    ending: Option<Ending>,
}

impl<'i, 's> Poller<'i, 's> {
    /// Takes the program's pipes; stdin is written without blocking, as
    /// far as the pipe takes it: a program may write before it has read
    /// all its input, or never read at all (then the write fails, which
    /// is its business).
    fn new(
        child: Started,
        stdin: &'i [u8],
        watch: Watch,
        seen: ExitSeen,
        sink: Option<Sink<'s>>,
    ) -> Poller<'i, 's> {
        use super::sys;
        let Started { pid, stdin: mut feed, stdout: out, stderr: err, pidfd } = child;
        let mut rest = stdin;
        if rest.is_empty() {
            feed = None;
        }
        let nonblocking = feed.as_ref().is_some_and(sys::set_nonblocking);
        // Most inputs fit in the pipe at once: written now, without a wait.
        feed_some(&mut feed, &mut rest, nonblocking);
        let exit = match seen {
            ExitSeen::Pidfd => pidfd.or_else(|| sys::pidfd(pid)),
            ExitSeen::Polled => None,
        };
        let limits = watch.limits;
        let cap =
            limits.output_bytes.map_or(OUTPUT_CAP, |l| usize::try_from(l).unwrap_or(usize::MAX));
        Poller {
            watch,
            feed,
            rest,
            nonblocking,
            out,
            err,
            exit,
            stdout: Stdout { kept: Vec::new(), sink, bytes: 0, cap, limit: limits.output_bytes },
            stderr: Tail { whole: limits.stderr == StderrKept::Whole, ..Tail::default() },
            chunk: vec![0u8; 1 << 16],
            over: None,
            ending: None,
        }
    }

    /// Once it has ended (or was stopped at a limit) and its pipes are
    /// read: how it ended and its wall time.
    fn step(&mut self) -> io::Result<Option<(Status, Duration)>> {
        use super::sys::{Pipe, Poll};
        let now = Instant::now();
        if self.ending.is_none() {
            if self.over.is_none() {
                self.over = self.watch.over(now)?;
            }
            let exited = match self.watch.meter.end() {
                Some(end) if self.over.is_none() => Some(status_of(end.status)),
                _ => None,
            };
            if let Some(status) = self.over.or(exited) {
                let wall = self.watch.start.elapsed();
                // Also kills what it left running (`sleep 99 &`), whose
                // end closes the pipes it held.
                self.watch.meter.stop()?;
                self.ending =
                    Some(Ending { status, wall, grace_until: Instant::now() + PIPE_GRACE });
            }
        }
        if let Some(e) = self.ending {
            // stdin is of no more use; the output pipes may still hold
            // the last of it, for the grace period (not past a limit).
            self.feed = None;
            let drained = self.out.is_none() && self.err.is_none();
            if drained || now >= e.grace_until || self.over.is_some() {
                return Ok(Some((e.status, e.wall)));
            }
        }
        let timeout = match self.ending {
            Some(e) => e.grace_until.saturating_duration_since(now),
            // Without a pidfd, the exit is looked for every millisecond
            // (the pipes may close before it, or a grandchild may hold
            // them after it).
            None if self.exit.is_none() => Duration::from_millis(1),
            None => self.watch.until_next_check(now),
        };
        let mut set = Poll::new();
        let feed_at = self.feed.as_ref().map(|f| set.add(f, Pipe::Write));
        let out_at = self.out.as_ref().map(|f| set.add(f, Pipe::Read));
        let err_at = self.err.as_ref().map(|f| set.add(f, Pipe::Read));
        let exit_at = match self.ending {
            None => self.exit.as_ref().map(|f| set.add(f, Pipe::Read)),
            Some(_) => None,
        };
        set.wait(timeout)?;
        if feed_at.is_some_and(|k| set.ready(k)) {
            feed_some(&mut self.feed, &mut self.rest, self.nonblocking);
        }
        if out_at.is_some_and(|k| set.ready(k)) {
            if let Some(n) = read_some(&mut self.out, &mut self.chunk) {
                if self.stdout.take(&self.chunk[..n]) && self.ending.is_none() {
                    self.over = Some(Status::OutputLimit);
                }
            }
        }
        if err_at.is_some_and(|k| set.ready(k)) {
            if let Some(n) = read_some(&mut self.err, &mut self.chunk) {
                self.stderr.take(&self.chunk[..n]);
            }
        }
        // With a pidfd, a wait only once it says the program has ended.
        let maybe_ended = match exit_at {
            Some(k) => set.ready(k),
            None => self.ending.is_none(),
        };
        if maybe_ended && self.ending.is_none() {
            self.watch.meter.ended(false)?;
        }
        Ok(None)
    }
}

/// Reads what `pipe` has; `None` at its end (then closed) or on nothing.
fn read_some(pipe: &mut Option<File>, chunk: &mut [u8]) -> Option<usize> {
    let f = pipe.as_mut()?;
    match f.read(chunk) {
        Ok(0) => *pipe = None,
        Ok(n) => return Some(n),
        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
        Err(_) => *pipe = None,
    }
    None
}

/// Writes what the stdin pipe takes now of `rest` (it does not block:
/// the pipe is non-blocking, or the write is small enough for a pipe
/// `poll` calls writable), and closes the pipe once all is written (the
/// program sees the end of its input) or when the program has closed its
/// end (EPIPE: its business).
fn feed_some(feed: &mut Option<File>, rest: &mut &[u8], nonblocking: bool) {
    use std::io::Write;
    if let Some(f) = feed.as_mut() {
        let most = if nonblocking { rest.len() } else { rest.len().min(super::sys::SAFE_WRITE) };
        match f.write(&rest[..most]) {
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
