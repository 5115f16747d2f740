//! The words of a run, which every room of `run/` speaks: the limits a
//! program is held to, how its run ended, what the system reports of a
//! reaped process, and the caps and intervals of the watch. A leaf: it
//! uses no other room, and they all use it.

use std::fmt;
use std::time::Duration;

/// The limits one run is held to while it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// CPU time of the process tree; the idleness limit follows from it.
    pub time: Duration,
    /// The tree's resident memory, in KiB; `None`: not watched.
    pub memory_kib: Option<u64>,
    /// Bytes of stdout; `None`: no limit (then at most [`OUTPUT_CAP`] is
    /// kept).
    pub output_bytes: Option<u64>,
    /// Wall time, a backstop tighter than [`idle_limit`] for a check that
    /// must end soon whatever the machine's load: past it a program still
    /// running is stopped as at the idleness limit. `None`: none.
    pub wall: Option<Duration>,
    /// What of stderr is kept.
    pub stderr: StderrKept,
}

/// What of a program's stderr a run keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StderrKept {
    /// Its first [`STDERR_HEAD`] and last [`STDERR_TAIL`] bytes, the cut
    /// said: a program's messages, for reports, whatever it writes.
    HeadAndTail,
    /// All of it, as far as [`OUTPUT_CAP`]: our solvers' traces, which
    /// `kit show` replays.
    Whole,
}

/// A time limit alone.
impl From<Duration> for Limits {
    fn from(time: Duration) -> Limits {
        Limits {
            time,
            memory_kib: None,
            output_bytes: None,
            wall: None,
            stderr: StderrKept::HeadAndTail,
        }
    }
}

/// The wall-clock backstop of a CPU time limit: 2 x the limit + 1 s.
pub fn idle_limit(limit: Duration) -> Duration {
    limit * 2 + Duration::from_secs(1)
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
    /// Killed by us: the resident memory of its tree went over the limit.
    MemoryLimit,
    /// Killed by us: its stdout went over the output limit.
    OutputLimit,
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
            Status::MemoryLimit => f.write_str("killed at the memory limit"),
            Status::OutputLimit => f.write_str("killed at the output limit"),
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

/// What the system reports of a reaped process (`wait4(2)`).
#[derive(Clone, Copy, Debug)]
pub struct Usage {
    /// `ru_maxrss`: its peak resident memory (and that of the children it
    /// waited for), in KiB.
    pub peak_kib: u64,
    /// User + system CPU time, its own and its waited-for children's.
    pub cpu: Duration,
}

/// Where stdout goes when it is not kept (`run_streamed`).
pub type Sink<'a> = &'a mut dyn FnMut(&[u8]);

/// How often a run's figures are read. A program that allocates as fast
/// as a machine touches fresh pages (about 2 GB/s) gains some 20 MB
/// between two checks: an endless allocation is stopped within a few MB of
/// a 64 MB limit or more (tests/kit.rs measures it).
pub const CHECK_EVERY: Duration = Duration::from_millis(10);

/// A program past [`idle_limit`] is idle, and killed, when it gained less
/// than [`IDLE_CPU`] of CPU time in the last [`IDLE_WINDOW`]: a program
/// that computes on a starved machine is not idle, it ends at the CPU limit.
pub const IDLE_WINDOW: Duration = Duration::from_secs(1);
pub const IDLE_CPU: Duration = Duration::from_millis(10);

/// Past this many times [`idle_limit`], a run is stopped whatever it does
/// (a machine so loaded that the program gets almost none of the CPU).
pub const HARD_STOP: u32 = 10;

/// After the program ends (or is killed), how long its pipes may stay open:
/// a program may leave a child behind that holds them (`sh -c 'sleep 99 &'`).
pub const PIPE_GRACE: Duration = Duration::from_millis(500);

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

/// Most tasks (processes and threads) a run in a control group may have
/// at once: a fork bomb stops here, while a program with a thread per
/// core, or a shell script's pipeline, is far below it.
pub const TASK_LIMIT: u32 = 512;
