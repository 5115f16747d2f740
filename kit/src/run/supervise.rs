//! One running program, watched from the caller's thread: a [`Poller`]
//! whose every step is one `poll(2)` that feeds its stdin, reads its
//! stdout and stderr, sees its exit and, every [`CHECK_EVERY`], reads its
//! figures against the limits. Starting threads per run cost more than
//! many a program's whole run.
//!
//! The figures come from the run's control group ([`super::cgroup`]: its
//! CPU time; the kernel holds the memory limit) or, without one, from its
//! process tree ([`super::tree`]: the CPU time of live members plus the
//! orphans kit reaped, the sum of their resident memory). Each read of
//! stdout: the bytes so far against the output limit. Over any limit,
//! everything the program started is killed at once. When the program
//! ends on its own, the rest is killed too (what it left running in the
//! background) and the pipes get [`PIPE_GRACE`] more to reach their end.
//! A program that has ended is judged by its exit and its CPU time: the
//! idleness rule is only for one still running (kit itself may have been
//! stopped a long while, Ctrl-Z, before it saw the exit).

use super::cgroup::{Group, GroupEnd};
use super::tree::Tree;
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

/// At most this much of a program's stdout is kept when no output limit is
/// set; the rest is read and dropped, so that a program printing without
/// end cannot exhaust our memory. (Our largest answer, a 5000x5000 Ants
/// map, is 25 MB.)
pub const OUTPUT_CAP: usize = if cfg!(test) { 1 << 20 } else { 256 << 20 };

/// Of stderr, the first [`STDERR_HEAD`] bytes (its first line, for
/// reports) and the last [`STDERR_TAIL`] (where a traceback ends) are
/// kept, whatever is written; what is between is counted and dropped.
pub const STDERR_HEAD: usize = 4 << 10;
pub const STDERR_TAIL: usize = 60 << 10;

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

/// Appends `chunk` to `buf`, as far as `cap` allows.
fn keep(buf: &mut Vec<u8>, chunk: &[u8], cap: usize) {
    let room = cap.saturating_sub(buf.len()).min(chunk.len());
    buf.extend_from_slice(&chunk[..room]);
}

/// stderr kept bounded: its head and its tail.
#[derive(Default)]
struct Tail {
    head: Vec<u8>,
    /// The last bytes: at most 2 x [`STDERR_TAIL`], cut back to
    /// [`STDERR_TAIL`] when full (each byte moved at most once).
    tail: Vec<u8>,
    /// Bytes dropped from the front of `tail`.
    cut: u64,
}

impl Tail {
    fn take(&mut self, mut chunk: &[u8]) {
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

/// Where a run's figures come from.
pub enum Meter {
    /// Its control group, and the pids seen in it (at most
    /// [`SEEN_CAP`]): one that left its process group and ended before the
    /// end of the run is kit's to reap.
    Group { group: Group, seen: Vec<u32> },
    /// Its process tree, and the CPU time of the orphans kit reaped (with
    /// their waited-for children).
    Tree { tree: Tree, reaped_cpu: Duration },
}

impl Meter {
    /// The group's figures if the run has one, else the tree's of the
    /// program `leader` whose environment carries `mark`.
    pub fn new(group: Option<Group>, leader: u32, mark: &str) -> Meter {
        match group {
            Some(group) => Meter::Group { group, seen: Vec::new() },
            None => Meter::Tree { tree: Tree::new(leader, mark), reaped_cpu: Duration::ZERO },
        }
    }
}

/// How many pids of a group's members [`Meter::Group`] remembers.
const SEEN_CAP: usize = 4096;

/// The program's own end, once reaped.
#[derive(Clone, Copy)]
struct End {
    status: ExitStatus,
    usage: Option<super::Usage>,
}

/// The idleness rule's window: since when, and the CPU time then.
#[derive(Clone, Copy)]
struct Window {
    since: Instant,
    cpu: Duration,
}

/// The program and what has been seen of it: the limits' side of the
/// supervision.
struct Watch {
    leader: u32,
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
    end: Option<End>,
}

impl Watch {
    fn new(leader: u32, start: Instant, limits: Limits, meter: Meter) -> Watch {
        Watch {
            leader,
            start,
            limits,
            backstop: idle_limit(limits.time),
            next_check: start + CHECK_EVERY,
            meter,
            cpu: Duration::ZERO,
            tree_peak_kib: 0,
            window: Window { since: start, cpu: Duration::ZERO },
            idle: false,
            end: None,
        }
    }

    /// Reads the figures now: the group's CPU time, or the tree's CPU time
    /// and memory (then reaping the tree's orphans that ended).
    fn measure(&mut self) -> io::Result<()> {
        match &mut self.meter {
            Meter::Group { group, seen } => {
                self.cpu = self.cpu.max(group.cpu());
                for pid in group.members() {
                    if seen.len() < SEEN_CAP && !seen.contains(&pid) {
                        seen.push(pid);
                    }
                }
                // Orphans of the program's own process group that ended
                // (the group's CPU counts them already).
                self.reap_group(false)?;
            }
            Meter::Tree { tree, reaped_cpu } => {
                // Without a `/proc`, no figure until the end: then only
                // the idleness rule stops a program in time.
                let Some(seen) = tree.sample() else { return Ok(()) };
                self.cpu = self.cpu.max(*reaped_cpu + seen.cpu);
                self.tree_peak_kib = self.tree_peak_kib.max(seen.rss_kib);
                let kit = std::process::id();
                for m in seen.members.iter().filter(|m| m.zombie && m.ppid == kit) {
                    self.reap_pid(m.pid, false)?;
                }
            }
        }
        Ok(())
    }

    /// The limit the program is over at `now`, if any.
    fn over(&mut self, now: Instant, child: &mut Child) -> io::Result<Option<Status>> {
        if now >= self.next_check {
            self.next_check = now + CHECK_EVERY;
            self.measure()?;
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
            if !self.ended(child, false)? {
                return Ok(Some(Status::IdleLimit));
            }
        }
        Ok(None)
    }

    /// How long from `now` until [`Watch::over`] has something new to look
    /// at.
    #[cfg(unix)]
    fn until_next_check(&self, now: Instant) -> Duration {
        self.next_check.saturating_duration_since(now)
    }

    /// Reaps our child `pid` if it has ended (or, with `block`, once it
    /// ends): the program's own end, or an orphan's CPU time.
    #[cfg(unix)]
    fn reap_pid(&mut self, pid: u32, block: bool) -> io::Result<bool> {
        use super::sys::{reap, Whom};
        Ok(reap(Whom::Pid(pid), block)?.map(|r| self.reaped(r)).is_some())
    }

    #[cfg(unix)]
    fn reaped(&mut self, r: super::sys::Reaped) {
        if r.pid == self.leader {
            self.end = Some(End { status: r.status, usage: Some(r.usage) });
        } else if let Meter::Tree { reaped_cpu, .. } = &mut self.meter {
            *reaped_cpu += r.usage.cpu;
        }
    }

    /// Reaps what of the program's process group has ended and is ours
    /// (its orphans, and the program if it is still in its group); with
    /// `block`, waits until none of the group is left.
    #[cfg(unix)]
    fn reap_group(&mut self, block: bool) -> io::Result<()> {
        use super::sys::{reap, Whom};
        while let Some(r) = reap(Whom::Group(self.leader), block)? {
            self.reaped(r);
        }
        Ok(())
    }

    #[cfg(not(unix))]
    fn reap_group(&mut self, _block: bool) -> io::Result<()> {
        Ok(())
    }

    #[cfg(not(unix))]
    fn reap_pid(&mut self, _pid: u32, _block: bool) -> io::Result<bool> {
        Ok(false)
    }

    /// Whether the program has ended (or, with `block`, once it ends).
    fn ended(&mut self, child: &mut Child, block: bool) -> io::Result<bool> {
        if self.end.is_none() {
            self.end = reap(child, block)?;
        }
        Ok(self.end.is_some())
    }

    /// Kills everything the program started, then reaps the program and
    /// every orphan kit adopted from it.
    fn stop(&mut self, child: &mut Child) -> io::Result<()> {
        #[cfg(unix)]
        {
            super::sys::kill_group(self.leader);
            if self.end.is_none() {
                let _ = child.kill();
            }
            if let Meter::Group { .. } = self.meter {
                // The program reaped first: most groups are empty then, and
                // one read says so.
                self.ended(child, true)?;
            }
            match &mut self.meter {
                Meter::Group { group, seen } => {
                    let mut strays = std::mem::take(seen);
                    if !group.is_empty() {
                        strays.extend(group.kill_all());
                    }
                    self.reap_group(true)?;
                    self.reap_strays(&strays)?;
                }
                Meter::Tree { .. } => self.stop_tree(child)?,
            }
        }
        #[cfg(not(unix))]
        {
            let _ = child.kill();
            self.ended(child, true)?;
        }
        Ok(())
    }

    /// Kills the tree's members, round after round (a member may fork
    /// between a reading and the kill), reaping those kit adopted, until
    /// none is left (bounded: a member in uninterruptible sleep may
    /// outlive SIGKILL a while).
    #[cfg(unix)]
    fn stop_tree(&mut self, child: &mut Child) -> io::Result<()> {
        let kit = std::process::id();
        for round in 0..2000 {
            let Meter::Tree { tree, .. } = &mut self.meter else { break };
            let Some(seen) = tree.sample() else { break };
            let live: Vec<u32> = seen.members.iter().filter(|m| !m.zombie).map(|m| m.pid).collect();
            for &pid in &live {
                super::sys::kill_pid(pid);
            }
            let ours: Vec<u32> =
                seen.members.iter().filter(|m| m.zombie && m.ppid == kit).map(|m| m.pid).collect();
            for pid in ours {
                self.reap_pid(pid, true)?;
            }
            let left = seen.members.iter().any(|m| !m.zombie || m.ppid != kit);
            if !left || round == 1999 {
                break;
            }
            std::thread::sleep(Duration::from_micros(if round < 20 { 50 } else { 1000 }));
        }
        self.ended(child, true)?;
        self.reap_group(true)
    }

    /// Reaps those of `pids` (a killed group's processes) that kit adopted:
    /// each, once its parent is gone, is kit's child (a zombie by now) or
    /// gone.
    #[cfg(unix)]
    fn reap_strays(&mut self, pids: &[u32]) -> io::Result<()> {
        let (kit, leader) = (std::process::id(), self.leader);
        for &pid in pids.iter().filter(|&&p| p != leader) {
            // Bounded: a zombie whose parent is still exiting is handed
            // on to kit shortly.
            for _ in 0..1000 {
                let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"));
                let state = stat.ok().and_then(|s| {
                    let mut after = s[s.rfind(')')? + 1..].split_whitespace();
                    let zombie = after.next()? == "Z";
                    Some((zombie, after.next()?.parse::<u32>().ok()?))
                });
                match state {
                    Some((_, parent)) if parent == kit => {
                        self.reap_pid(pid, true)?;
                        break;
                    }
                    Some((true, _)) => std::thread::sleep(Duration::from_micros(100)),
                    _ => break,
                }
            }
        }
        Ok(())
    }

    /// The figures of the ended run; its group goes back to the pool.
    fn done(self, status: Status, wall: Duration, stdout: Vec<u8>, stderr: Vec<u8>) -> Supervised {
        let usage = self.end.and_then(|e| e.usage);
        let (measured, group_end) = match self.meter {
            Meter::Group { mut group, .. } => {
                let end = group.end();
                super::cgroup::give(group);
                (end.cpu, Some(end))
            }
            Meter::Tree { reaped_cpu, .. } => {
                (usage.map_or(Duration::ZERO, |u| u.cpu + reaped_cpu), None)
            }
        };
        let cpu = match self.cpu.max(measured) {
            zero if zero == Duration::ZERO && usage.is_none() => wall,
            cpu => cpu,
        };
        // The kernel's OOM killer stopped a process of the group: a memory
        // limit, whatever the program did after.
        let status = match (group_end, status) {
            (
                Some(GroupEnd { oom: true, .. }),
                Status::Exited(_) | Status::Signaled(_) | Status::IdleLimit,
            ) => Status::MemoryLimit,
            _ => status,
        };
        Supervised {
            status,
            cpu,
            leader_peak_kib: usage.map(|u| u.peak_kib),
            tree_peak_kib: self.tree_peak_kib,
            group_peak_kib: group_end.map(|g| g.peak_kib),
            wall,
            stdout,
            stderr,
        }
    }
}

#[cfg(unix)]
fn reap(child: &mut Child, block: bool) -> io::Result<Option<End>> {
    use super::sys::{reap, Whom};
    Ok(reap(Whom::Pid(child.id()), block)?.map(|r| End { status: r.status, usage: Some(r.usage) }))
}

#[cfg(not(unix))]
fn reap(child: &mut Child, block: bool) -> io::Result<Option<End>> {
    let status = if block { Some(child.wait()?) } else { child.try_wait()? };
    Ok(status.map(|status| End { status, usage: None }))
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

/// The program's end as the poller saw it: how it ended, its wall time,
/// and until when its pipes are still read.
#[cfg(unix)]
#[derive(Clone, Copy)]
struct Ending {
    status: Status,
    wall: Duration,
    grace_until: Instant,
}

/// One run under watch: its pipes, its figures, and whether it has ended.
/// [`Poller::step`] waits for the next event once and handles it.
#[cfg(unix)]
pub struct Poller<'c, 'i, 's> {
    child: &'c mut Child,
    watch: Watch,
    feed: Option<std::fs::File>,
    /// What of stdin is still to be written.
    rest: &'i [u8],
    nonblocking: bool,
    out: Option<std::fs::File>,
    err: Option<std::fs::File>,
    /// A pidfd of the program, readable once it has ended.
    exit: Option<std::os::fd::OwnedFd>,
    stdout: Stdout<'s>,
    stderr: Tail,
    chunk: Vec<u8>,
    /// A limit it went over (the output limit is seen while reading).
    over: Option<Status>,
    ending: Option<Ending>,
}

#[cfg(unix)]
impl<'c, 'i, 's> Poller<'c, 'i, 's> {
    /// Takes the program's pipes; stdin is written without blocking, as
    /// far as the pipe takes it: a program may write before it has read
    /// all its input, or never read at all (then the write fails, which
    /// is its business).
    fn new(
        child: &'c mut Child,
        stdin: &'i [u8],
        watch: Watch,
        seen: ExitSeen,
        sink: Option<Sink<'s>>,
    ) -> Poller<'c, 'i, 's> {
        use super::sys;
        use std::fs::File;
        use std::os::fd::OwnedFd;
        let to_file = |fd: OwnedFd| File::from(fd);
        let mut feed = child.stdin.take().map(|p| to_file(p.into()));
        let out = child.stdout.take().map(|p| to_file(p.into()));
        let err = child.stderr.take().map(|p| to_file(p.into()));
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
        let limits = watch.limits;
        let cap =
            limits.output_bytes.map_or(OUTPUT_CAP, |l| usize::try_from(l).unwrap_or(usize::MAX));
        Poller {
            child,
            watch,
            feed,
            rest,
            nonblocking,
            out,
            err,
            exit,
            stdout: Stdout { kept: Vec::new(), sink, bytes: 0, cap, limit: limits.output_bytes },
            stderr: Tail::default(),
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
                self.over = self.watch.over(now, self.child)?;
            }
            let exited = match self.watch.end {
                Some(end) if self.over.is_none() => Some(status_of(end.status)),
                _ => None,
            };
            if let Some(status) = self.over.or(exited) {
                let wall = self.watch.start.elapsed();
                // Also kills what it left running (`sleep 99 &`), whose
                // end closes the pipes it held.
                self.watch.stop(self.child)?;
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
        if let Err(e) = set.wait(timeout) {
            if self.ending.is_none() {
                self.watch.stop(self.child)?;
            }
            return Err(e);
        }
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
            self.watch.ended(self.child, false)?;
        }
        Ok(None)
    }
}

/// Runs `child` to its end under [`Poller`]: stdin fed, stdout and stderr
/// read, the figures (from `meter`) against `limits`.
#[cfg(unix)]
pub fn supervise(
    child: &mut Child,
    stdin: &[u8],
    start: Instant,
    limits: Limits,
    seen: ExitSeen,
    sink: Option<Sink>,
    meter: Meter,
) -> io::Result<Supervised> {
    let watch = Watch::new(child.id(), start, limits, meter);
    let mut poller = Poller::new(child, stdin, watch, seen, sink);
    let (status, wall) = loop {
        if let Some(end) = poller.step()? {
            break end;
        }
    };
    let Poller { watch, stdout, stderr, .. } = poller;
    Ok(watch.done(status, wall, stdout.kept, stderr.finish()))
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
    meter: Meter,
) -> io::Result<Supervised> {
    use std::io::Write;
    let mut pipe = child.stdin.take().expect("stdin is piped");
    let data = stdin.to_vec();
    std::thread::spawn(move || {
        let _ = pipe.write_all(&data);
    });
    let stdout = Drain::start(child.stdout.take().expect("stdout is piped"));
    let stderr = Drain::start(child.stderr.take().expect("stderr is piped"));
    let mut watch = Watch::new(child.id(), start, limits, meter);
    let mut nap = Duration::from_micros(20);
    let status = loop {
        if watch.ended(child, false)? {
            break status_of(watch.end.expect("ended").status);
        }
        if let Some(status) = watch.over(Instant::now(), child)? {
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
