//! One running program, watched from the caller's thread: a `poll(2)` loop
//! feeds its stdin, reads its stdout and stderr, sees its exit and, every
//! [`CHECK_EVERY`], reads its process tree ([`super::tree`]) against the
//! limits. Starting threads per run cost more than many a program's whole
//! run.
//!
//! Each check: the group's CPU time (live members, plus the orphans kit
//! reaped) against the time limit and the idleness rule; the sum of its
//! resident memory against the memory limit. Each read of stdout: the bytes
//! so far against the output limit. Over any of them, the group is killed at
//! once. When the program ends on its own, its group is killed too (what it
//! left running in the background) and the pipes get [`PIPE_GRACE`] more to
//! reach their end.

use super::{idle_limit, Limits, Sink, Status};
use std::io::{self, Read};
use std::process::{Child, ExitStatus};
use std::time::{Duration, Instant};

/// After the program ends (or is killed), how long its pipes may stay open:
/// a program may leave a child behind that holds them (`sh -c 'sleep 99 &'`).
const PIPE_GRACE: Duration = Duration::from_millis(500);

/// How often the process tree is read. A program that allocates as fast as
/// a machine touches fresh pages (about 2 GB/s) gains some 20 MB between
/// two checks: an endless allocation is stopped within a few MB of a 64 MB
/// limit or more (tests/kit.rs measures it).
pub const CHECK_EVERY: Duration = Duration::from_millis(10);

/// A program past [`idle_limit`] is idle, and killed, when it gained less
/// than [`IDLE_CPU`] of CPU time in the last [`IDLE_WINDOW`]: a program
/// that computes on a starved machine is not idle, it ends at the CPU limit.
pub const IDLE_WINDOW: Duration = Duration::from_secs(1);
pub const IDLE_CPU: Duration = Duration::from_millis(10);

/// Past this many times [`idle_limit`], a run is stopped whatever it does
/// (a machine so loaded that the program gets almost none of the CPU).
pub const HARD_STOP: u32 = 10;

/// At most this much of a program's stdout (and of its stderr) is kept when
/// no output limit is set; the rest is read and dropped, so that a program
/// printing without end cannot exhaust our memory. (Our largest answer, a
/// 5000x5000 Ants map, is 25 MB.)
pub const OUTPUT_CAP: usize = if cfg!(test) { 1 << 20 } else { 256 << 20 };

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

/// What the supervision of a running program gathered.
pub struct Supervised {
    pub status: Status,
    /// The tree's CPU time: user + system.
    pub cpu: Duration,
    /// `ru_maxrss` of the program itself, in KiB, where reported.
    pub leader_peak_kib: Option<u64>,
    /// The largest sum of the tree's resident memory seen, in KiB (0 if
    /// never seen: a run shorter than a check, or no `/proc`).
    pub tree_peak_kib: u64,
    /// From the start to the exit (or to the kill).
    pub wall: Duration,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

/// Appends `chunk` to `buf`, as far as `cap` allows.
fn keep(buf: &mut Vec<u8>, chunk: &[u8], cap: usize) {
    let room = cap.saturating_sub(buf.len()).min(chunk.len());
    buf.extend_from_slice(&chunk[..room]);
}

/// The program's group and what has been seen of it: the limits' side of
/// the supervision.
struct Watch {
    leader: u32,
    start: Instant,
    limits: Limits,
    backstop: Duration,
    next_check: Instant,
    /// The tree's CPU time so far (never decreasing, although a member's
    /// time moves to its parent's when it is reaped).
    cpu: Duration,
    /// Of the orphans kit reaped (with their waited-for children).
    reaped_cpu: Duration,
    tree_peak_kib: u64,
    /// The start of the current idleness window and the CPU time then.
    mark: (Instant, Duration),
    /// Whether the last full window was idle.
    idle: bool,
    /// The program's own end, once reaped.
    end: Option<(ExitStatus, Option<super::Usage>)>,
}

impl Watch {
    fn new(leader: u32, start: Instant, limits: Limits) -> Watch {
        Watch {
            leader,
            start,
            limits,
            backstop: idle_limit(limits.time),
            next_check: start + CHECK_EVERY,
            cpu: Duration::ZERO,
            reaped_cpu: Duration::ZERO,
            tree_peak_kib: 0,
            mark: (start, Duration::ZERO),
            idle: false,
            end: None,
        }
    }

    /// The limit the program is over at `now`, if any.
    fn over(&mut self, now: Instant) -> Option<Status> {
        if now >= self.next_check {
            self.next_check = now + CHECK_EVERY;
            // Orphans reaped first: one that ends in between is then seen
            // as a zombie member now and reaped at the next check.
            let _ = self.reap_orphans(false);
            // Without a `/proc`, no figure until the end: then only the
            // idleness rule stops a program in time.
            if let Some(seen) = super::tree::sample(self.leader) {
                self.cpu = self.cpu.max(self.reaped_cpu + seen.cpu);
                self.tree_peak_kib = self.tree_peak_kib.max(seen.rss_kib);
            }
            if self.limits.memory_kib.is_some_and(|m| self.tree_peak_kib > m) {
                return Some(Status::MemoryLimit);
            }
            if self.cpu > self.limits.time {
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

    /// How long from `now` until [`Watch::over`] has something new to look
    /// at.
    #[cfg(unix)]
    fn until_next_check(&self, now: Instant) -> Duration {
        self.next_check.saturating_duration_since(now)
    }

    /// Reaps what of the group has ended and is ours (the orphans, and the
    /// program if it is still in its group), adding their CPU time; with
    /// `block`, waits until none of the group is left.
    #[cfg(unix)]
    fn reap_orphans(&mut self, block: bool) -> io::Result<()> {
        use super::sys::{reap, Whom};
        while let Some(r) = reap(Whom::Group(self.leader), block)? {
            if r.pid == self.leader {
                self.end = Some((r.status, Some(r.usage)));
            } else {
                self.reaped_cpu += r.usage.cpu;
            }
        }
        Ok(())
    }

    #[cfg(not(unix))]
    fn reap_orphans(&mut self, _block: bool) -> io::Result<()> {
        Ok(())
    }

    /// The program's end if it has ended (or, with `block`, once it ends).
    fn ended(&mut self, child: &mut Child, block: bool) -> io::Result<bool> {
        if self.end.is_none() {
            self.end = reap(child, block)?;
        }
        Ok(self.end.is_some())
    }

    /// Kills the group (and the program, should it have left its group),
    /// reaps the program, then every orphan of the group.
    fn stop(&mut self, child: &mut Child) -> io::Result<()> {
        #[cfg(unix)]
        {
            super::sys::kill_group(self.leader);
            if self.end.is_none() {
                let _ = child.kill();
            }
        }
        #[cfg(not(unix))]
        let _ = child.kill();
        self.ended(child, true)?;
        // The program is reaped by now, so only orphans are left to reap.
        self.reap_orphans(true)
    }

    /// The figures of the ended run.
    fn done(self, status: Status, wall: Duration, stdout: Vec<u8>, stderr: Vec<u8>) -> Supervised {
        let usage = self.end.and_then(|(_, u)| u);
        let cpu = match usage {
            Some(u) => self.cpu.max(u.cpu + self.reaped_cpu),
            None if self.cpu > Duration::ZERO => self.cpu,
            None => wall,
        };
        Supervised {
            status,
            cpu,
            leader_peak_kib: usage.map(|u| u.peak_kib),
            tree_peak_kib: self.tree_peak_kib,
            wall,
            stdout,
            stderr,
        }
    }
}

#[cfg(unix)]
fn reap(child: &mut Child, block: bool) -> io::Result<Option<(ExitStatus, Option<super::Usage>)>> {
    use super::sys::{reap, Whom};
    Ok(reap(Whom::Pid(child.id()), block)?.map(|r| (r.status, Some(r.usage))))
}

#[cfg(not(unix))]
fn reap(child: &mut Child, block: bool) -> io::Result<Option<(ExitStatus, Option<super::Usage>)>> {
    if block {
        return child.wait().map(|s| Some((s, None)));
    }
    Ok(child.try_wait()?.map(|s| (s, None)))
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

/// Feeds `stdin` to the program and reads its stdout and stderr while it
/// runs, all in this one thread: a `poll(2)` over the three pipes (and, on
/// Linux, over a pidfd that becomes readable at the exit), whose timeout
/// is the next check of the tree. stdin is written without blocking, as far
/// as the pipe takes it: a program may write before it has read all its
/// input, or never read at all (then the write fails, which is its
/// business).
#[cfg(unix)]
pub fn supervise(
    child: &mut Child,
    stdin: &[u8],
    start: Instant,
    limits: Limits,
    seen: ExitSeen,
    sink: Option<Sink>,
) -> io::Result<Supervised> {
    use super::sys::{self, Pipe, Poll};
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
    let nonblocking = feed.as_ref().is_some_and(sys::set_nonblocking);
    // Most inputs fit in the pipe at once: written now, without a wait.
    feed_some(&mut feed, &mut rest, nonblocking);
    let exit = match seen {
        ExitSeen::Pidfd => sys::pidfd(child.id()),
        ExitSeen::Polled => None,
    };
    let mut watch = Watch::new(child.id(), start, limits);
    let cap = limits.output_bytes.map_or(OUTPUT_CAP, |l| usize::try_from(l).unwrap_or(usize::MAX));
    let mut stdout = Stdout { kept: Vec::new(), sink, bytes: 0, cap, limit: limits.output_bytes };
    let mut stderr = Vec::new();
    let mut chunk = vec![0u8; 1 << 16];
    // The status and wall time once ended, and until when the pipes are
    // still read.
    let mut ended: Option<(Status, Duration, Instant)> = None;
    let mut over: Option<Status> = None;
    let (status, wall) = loop {
        let now = Instant::now();
        if ended.is_none() {
            over = over.or_else(|| watch.over(now));
            let exited = match watch.end {
                Some((status, _)) if over.is_none() => Some(status_of(status)),
                _ => None,
            };
            if let Some(status) = over.or(exited) {
                let wall = start.elapsed();
                // Also kills what it left running (`sleep 99 &`), whose
                // end closes the pipes it held.
                watch.stop(child)?;
                ended = Some((status, wall, Instant::now() + PIPE_GRACE));
            }
        }
        if let Some((status, wall, grace_until)) = ended {
            // stdin is of no more use; the output pipes may still hold
            // the last of it, for the grace period (not past a limit).
            feed = None;
            if out.is_none() && err.is_none() || now >= grace_until || over.is_some() {
                break (status, wall);
            }
        }
        let timeout = match ended {
            Some((_, _, grace_until)) => grace_until.saturating_duration_since(now),
            // Without a pidfd, the exit is looked for every millisecond
            // (the pipes may close before it, or a grandchild may hold
            // them after it).
            None if exit.is_none() => Duration::from_millis(1),
            None => watch.until_next_check(now),
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
                watch.stop(child)?;
            }
            return Err(e);
        }
        if feed_at.is_some_and(|k| set.ready(k)) {
            feed_some(&mut feed, &mut rest, nonblocking);
        }
        if out_at.is_some_and(|k| set.ready(k)) {
            if let Some(n) = read_some(&mut out, &mut chunk) {
                if stdout.take(&chunk[..n]) && ended.is_none() {
                    over = Some(Status::OutputLimit);
                }
            }
        }
        if err_at.is_some_and(|k| set.ready(k)) {
            if let Some(n) = read_some(&mut err, &mut chunk) {
                keep(&mut stderr, &chunk[..n], OUTPUT_CAP);
            }
        }
        // With a pidfd, a wait only once it says the program has ended.
        let maybe_ended = match exit_at {
            Some(k) => set.ready(k),
            None => ended.is_none(),
        };
        if maybe_ended && ended.is_none() {
            watch.ended(child, false)?;
        }
    };
    Ok(watch.done(status, wall, stdout.kept, stderr))
}

/// Reads what `pipe` has; `None` at its end (then closed) or on nothing.
#[cfg(unix)]
fn read_some(pipe: &mut Option<std::fs::File>, chunk: &mut [u8]) -> Option<usize> {
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
#[cfg(unix)]
fn feed_some(feed: &mut Option<std::fs::File>, rest: &mut &[u8], nonblocking: bool) {
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

/// Elsewhere: a thread per pipe, and polling for the exit (no tree, no
/// output limit before the end).
#[cfg(not(unix))]
pub fn supervise(
    child: &mut Child,
    stdin: &[u8],
    start: Instant,
    limits: Limits,
    _seen: ExitSeen,
    sink: Option<Sink>,
) -> io::Result<Supervised> {
    use std::io::Write;
    let mut pipe = child.stdin.take().expect("stdin is piped");
    let data = stdin.to_vec();
    std::thread::spawn(move || {
        let _ = pipe.write_all(&data);
    });
    let stdout = Drain::start(child.stdout.take().expect("stdout is piped"));
    let stderr = Drain::start(child.stderr.take().expect("stderr is piped"));
    let mut watch = Watch::new(child.id(), start, limits);
    let mut nap = Duration::from_micros(20);
    let status = loop {
        if watch.ended(child, false)? {
            break status_of(watch.end.expect("ended").0);
        }
        if let Some(status) = watch.over(Instant::now()) {
            watch.stop(child)?;
            break status;
        }
        std::thread::sleep(nap);
        nap = (nap * 2).min(Duration::from_millis(1));
    };
    let wall = start.elapsed();
    let grace = Instant::now() + PIPE_GRACE;
    let mut stdout = stdout.finish(grace);
    let status = match limits.output_bytes {
        Some(l) if stdout.len() as u64 > l => Status::OutputLimit,
        _ => status,
    };
    if let Some(sink) = sink {
        sink(&stdout);
        stdout.clear();
    }
    Ok(watch.done(status, wall, stdout, stderr.finish(grace)))
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
                    Ok(n) => keep(&mut shared.lock().expect("drain"), &chunk[..n], OUTPUT_CAP),
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
