//! The system calls a run needs beyond std, declared by hand (kit is std
//! only), each behind a safe function. The constants are the system's own
//! where it has a call to ask (`sysconf`), else gated by the targets whose
//! headers give that value.

use std::ffi::CStr;
use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::raw::{c_char, c_int, c_long, c_short};
use std::process::ExitStatus;
use std::time::Duration;

use super::terms::Usage;

extern "C" {
    fn wait4(pid: c_int, status: *mut c_int, options: c_int, rusage: *mut Rusage) -> c_int;
    fn kill(pid: c_int, sig: c_int) -> c_int;
    fn signal(signum: c_int, handler: usize) -> usize;
    fn raise(sig: c_int) -> c_int;
    fn poll(fds: *mut PollFd, nfds: Nfds, timeout: c_int) -> c_int;
    fn fcntl(fd: c_int, cmd: c_int, ...) -> c_int;
    fn getppid() -> c_int;
    fn write(fd: c_int, buf: *const u8, count: usize) -> isize;
    fn geteuid() -> u32;
}

pub const SIGHUP: c_int = 1;
pub const SIGINT: c_int = 2;
pub const SIGKILL: c_int = 9;
pub const SIGTERM: c_int = 15;
const SIG_DFL: usize = 0;

// ------------------------------------------------------------ children

/// `struct rusage`: two `struct timeval`s, then 14 longs of which
/// `ru_maxrss` (KiB on Linux) is the first.
#[repr(C)]
struct Rusage {
    utime: [c_long; 2],
    stime: [c_long; 2],
    maxrss: c_long,
    rest: [c_long; 13],
}

/// One process reaped by [`reap`].
pub struct Reaped {
    pub pid: u32,
    pub status: ExitStatus,
    pub usage: Usage,
}

/// Which of our children [`reap`] waits for.
#[derive(Clone, Copy)]
pub enum Whom {
    /// This one.
    Pid(u32),
    /// Any member of this process group (kit is a subreaper, so the
    /// orphans of a program are our children).
    Group(u32),
}

/// `wait4(2)`: a child of ours that has ended, with its usage; `None` if
/// none has (without `block`) or there is none left to wait for.
///
/// # Errors
/// The `io::Error` of `wait4` other than an interruption (retried) or
/// no child left (`None`).
pub fn reap(whom: Whom, block: bool) -> io::Result<Option<Reaped>> {
    use std::os::unix::process::ExitStatusExt;
    const WNOHANG: c_int = 1;
    const ECHILD: i32 = 10;
    let pid = match whom {
        Whom::Pid(p) => p as c_int,
        Whom::Group(g) => -(g as c_int),
    };
    let options = if block { 0 } else { WNOHANG };
    loop {
        let mut status: c_int = 0;
        let mut usage = Rusage { utime: [0; 2], stime: [0; 2], maxrss: 0, rest: [0; 13] };
        // SAFETY: both pointers are to live, properly sized locals that
        // the call only writes. The children waited for are ours and std
        // never waits for them (we do not call `Child::wait`).
        let got = unsafe { wait4(pid, &mut status, options, &mut usage) };
        if got > 0 {
            let time = |tv: [c_long; 2]| {
                let (s, us) = (u64::try_from(tv[0]), u64::try_from(tv[1]));
                Duration::from_secs(s.unwrap_or(0)) + Duration::from_micros(us.unwrap_or(0))
            };
            let usage = Usage {
                peak_kib: u64::try_from(usage.maxrss).unwrap_or(0),
                cpu: time(usage.utime) + time(usage.stime),
            };
            return Ok(Some(Reaped {
                pid: got as u32,
                status: ExitStatus::from_raw(status),
                usage,
            }));
        }
        if got == 0 {
            return Ok(None);
        }
        let err = io::Error::last_os_error();
        match err.raw_os_error() {
            Some(ECHILD) => return Ok(None),
            _ if err.kind() == io::ErrorKind::Interrupted => {}
            _ => return Err(err),
        }
    }
}

/// SIGKILL to the process group `pgid` (nothing if it is gone).
/// Async-signal-safe.
pub fn kill_group(pgid: u32) {
    // SAFETY: kill(2) with a negative pid signals a process group; it
    // touches no memory of ours.
    unsafe {
        kill(-(pgid as c_int), SIGKILL);
    }
}

/// SIGKILL to process `pid` (nothing if it is gone).
pub fn kill_pid(pid: u32) {
    // SAFETY: kill(2) touches no memory of ours.
    unsafe {
        kill(pid as c_int, SIGKILL);
    }
}

/// In a child between fork and exec (async-signal-safe, no allocation):
/// writes "0" to each of `procs`, open `cgroup.procs` files, which moves
/// the writer into their groups.
///
/// # Errors
/// The `io::Error` of the first write that fails (the group is gone, or
/// the writer may not move).
pub fn join_groups(procs: &[c_int]) -> io::Result<()> {
    for &fd in procs {
        // SAFETY: a one-byte buffer that lives through the call.
        if unsafe { write(fd, b"0".as_ptr(), 1) } != 1 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// kit's effective user id, which the groups it may write belong to.
pub fn euid() -> u32 {
    // SAFETY: geteuid(2) reads our own id; it cannot fail.
    unsafe { geteuid() }
}

// ------------------------------------------------------------ signals

/// Handles `sig` by `handler` (a C function that makes only
/// async-signal-safe calls).
pub fn on(sig: c_int, handler: extern "C" fn(c_int)) {
    // SAFETY: `handler` has the C signature of a handler; the caller
    // promises it is async-signal-safe.
    unsafe {
        signal(sig, handler as usize);
    }
}

/// Back to the default action of `sig`, then `sig` again: the process
/// ends as one killed by it. Async-signal-safe.
pub fn die_of(sig: c_int) {
    // SAFETY: signal(2) and raise(3) touch no memory of ours.
    unsafe {
        signal(sig, SIG_DFL);
        raise(sig);
    }
}

// ------------------------------------------------------------ process control

/// `sig` when our parent, `parent`, dies, and an error if it has died
/// already; async-signal-safe, no allocation (for a child between fork
/// and exec). The signal is Linux's `prctl(PR_SET_PDEATHSIG)`; elsewhere
/// only the check.
///
/// # Errors
/// The `io::Error` of `prctl`, or `ESRCH` when `parent` is no longer our
/// parent.
pub fn die_with_parent(parent: u32, sig: c_int) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        const PR_SET_PDEATHSIG: c_int = 1;
        // SAFETY: prctl(2) with integer arguments.
        if unsafe { prctl(PR_SET_PDEATHSIG, sig as c_long, 0, 0, 0) } != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    // The parent may have died before the prctl: then no signal comes.
    // SAFETY: getppid(2) reads our parent.
    if unsafe { getppid() } != parent as c_int {
        return Err(io::Error::from_raw_os_error(3)); // ESRCH
    }
    Ok(())
}

/// Makes this process the reaper of its descendants' orphans (Linux's
/// `PR_SET_CHILD_SUBREAPER`): a program's child whose parent ended stays
/// our child, so [`reap`] sees its end and usage. False where refused or
/// unknown.
#[cfg(target_os = "linux")]
pub fn become_subreaper() -> bool {
    const PR_SET_CHILD_SUBREAPER: c_int = 36;
    // SAFETY: prctl(2) with integer arguments.
    unsafe { prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0 }
}

#[cfg(not(target_os = "linux"))]
pub fn become_subreaper() -> bool {
    false
}

#[cfg(target_os = "linux")]
extern "C" {
    fn prctl(option: c_int, arg2: c_long, arg3: c_long, arg4: c_long, arg5: c_long) -> c_int;
    fn sysconf(name: c_int) -> c_long;
}

/// A `sysconf(3)` value of Linux (its `_SC_*` numbers are Linux's).
#[cfg(target_os = "linux")]
fn sysconf_of(name: c_int) -> Option<u64> {
    // SAFETY: sysconf(3) reads a system constant.
    u64::try_from(unsafe { sysconf(name) }).ok().filter(|&v| v > 0)
}

/// Clock ticks per second, the unit of `/proc/PID/stat`'s times.
#[cfg(target_os = "linux")]
pub fn clock_ticks() -> Option<u64> {
    const SC_CLK_TCK: c_int = 2;
    sysconf_of(SC_CLK_TCK)
}

/// Bytes per page, the unit of `/proc/PID/stat`'s resident size.
#[cfg(target_os = "linux")]
pub fn page_size() -> Option<u64> {
    const SC_PAGESIZE: c_int = 30;
    sysconf_of(SC_PAGESIZE)
}

// ------------------------------------------------------------ pipes

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

const POLLIN: c_short = 0x1;
const POLLOUT: c_short = 0x4;

/// `O_NONBLOCK` where we know it: Linux on the architectures of the
/// generic value, and the BSDs and macOS; `None` elsewhere (then stdin is
/// fed in writes small enough never to block, [`SAFE_WRITE`]).
const O_NONBLOCK: Option<c_int> = if cfg!(all(
    target_os = "linux",
    any(
        target_arch = "x86",
        target_arch = "x86_64",
        target_arch = "arm",
        target_arch = "aarch64",
        target_arch = "riscv64",
        target_arch = "powerpc",
        target_arch = "powerpc64",
        target_arch = "s390x",
        target_arch = "loongarch64"
    )
)) {
    Some(0o4000)
} else if cfg!(any(
    target_os = "macos",
    target_os = "ios",
    target_os = "freebsd",
    target_os = "netbsd",
    target_os = "openbsd",
    target_os = "dragonfly"
)) {
    Some(0x4)
} else {
    None
};

/// A write to a pipe that `poll` calls writable never blocks when it is
/// at most this long (POSIX's smallest `PIPE_BUF`).
pub const SAFE_WRITE: usize = 512;

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
    ///
    /// # Panics
    /// When four descriptors are already watched.
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
    ///
    /// # Errors
    /// The `io::Error` of `poll(2)` other than an interruption.
    pub fn wait(&mut self, timeout: Duration) -> io::Result<()> {
        let ms = timeout.as_micros().saturating_add(999) / 1000;
        let ms = c_int::try_from(ms).unwrap_or(c_int::MAX);
        // SAFETY: `fds` holds `len` initialised entries, which the call
        // only writes the `revents` of.
        let got = unsafe { poll(self.fds.as_mut_ptr(), self.len as Nfds, ms) };
        if got < 0 {
            let e = io::Error::last_os_error();
            if e.kind() != io::ErrorKind::Interrupted {
                return Err(e);
            }
        }
        Ok(())
    }

    /// Whether entry `k` is ready: readable, writable, at its end or in
    /// error (the next read or write says which).
    ///
    /// # Panics
    /// When `k` is not an index [`Poll::add`] returned (four or more).
    pub fn ready(&self, k: usize) -> bool {
        self.fds[k].revents != 0
    }
}

/// Makes writes to `file` return `WouldBlock` rather than wait; false
/// where we do not know how (then write at most [`SAFE_WRITE`] bytes when
/// `poll` says the pipe is writable).
pub fn set_nonblocking(file: &File) -> bool {
    const F_GETFL: c_int = 3;
    const F_SETFL: c_int = 4;
    let Some(flag) = O_NONBLOCK else { return false };
    let fd = file.as_raw_fd();
    // SAFETY: fcntl(2) on a descriptor we own; F_GETFL and F_SETFL read and
    // set its flags, no memory of ours.
    let flags = unsafe { fcntl(fd, F_GETFL) };
    flags >= 0 && unsafe { fcntl(fd, F_SETFL, flags | flag) } >= 0
}

// ------------------------------------------------------------ clone3

#[cfg(target_os = "linux")]
extern "C" {
    fn syscall(number: c_long, ...) -> c_long;
    fn pipe2(fds: *mut c_int, flags: c_int) -> c_int;
    fn dup2(old: c_int, new: c_int) -> c_int;
    fn close(fd: c_int) -> c_int;
    fn setpgid(pid: c_int, pgid: c_int) -> c_int;
    fn sigprocmask(how: c_int, set: *const u64, old: *mut u64) -> c_int;
    fn chdir(path: *const c_char) -> c_int;
    fn execve(path: *const c_char, argv: *const *const c_char, envp: *const *const c_char)
        -> c_int;
    fn read(fd: c_int, buf: *mut u8, count: usize) -> isize;
    fn _exit(code: c_int) -> !;
}

const O_CLOEXEC: c_int = 0o2000000;
const F_DUPFD_CLOEXEC: c_int = 1030;

/// A pipe, both ends closed on exec and numbered 3 or above (so that the
/// child's `dup2` onto 0, 1 and 2 never overwrites one of them).
///
/// # Errors
/// The `io::Error` of `pipe2(2)` or `fcntl(2)`.
#[cfg(target_os = "linux")]
pub fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    use std::os::fd::FromRawFd;
    let mut fds = [0 as c_int; 2];
    // SAFETY: `fds` has room for the two descriptors pipe2 writes.
    if unsafe { pipe2(fds.as_mut_ptr(), O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    for fd in &mut fds {
        if *fd < 3 {
            // SAFETY: fcntl(2) and close(2) on the descriptor just made.
            let high = unsafe { fcntl(*fd, F_DUPFD_CLOEXEC, 3 as c_int) };
            unsafe { close(*fd) };
            *fd = high;
        }
    }
    if fds.iter().any(|&fd| fd < 0) {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: two fresh descriptors that nothing else owns.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// What a child started by [`clone_into`] does before its `exec`, all
/// made before the clone.
pub struct Child<'a> {
    pub path: &'a CStr,
    /// Null-terminated.
    pub argv: &'a [*const c_char],
    /// Null-terminated.
    pub envp: &'a [*const c_char],
    pub cwd: Option<&'a CStr>,
    /// Its stdin, stdout and stderr.
    pub stdio: [&'a OwnedFd; 3],
    /// Where it writes the errno of what failed before or in its `exec`.
    pub report: &'a OwnedFd,
}

/// `struct clone_args` of Linux (its first eleven fields, version 2).
#[repr(C)]
struct CloneArgs {
    flags: u64,
    pidfd: u64,
    child_tid: u64,
    parent_tid: u64,
    exit_signal: u64,
    stack: u64,
    stack_size: u64,
    tls: u64,
    set_tid: u64,
    set_tid_size: u64,
    cgroup: u64,
}

/// Starts `child` as a copy of kit (fork semantics: its own memory),
/// born in the cgroup v2 group whose folder `group` is open: `clone3(2)`
/// with `CLONE_INTO_CGROUP` (Linux 5.7) and `CLONE_PIDFD`. Its pid and
/// pidfd.
///
/// # Errors
/// The `io::Error` of `clone3` (`ENOSYS` before Linux 5.7 or 5.3).
#[cfg(target_os = "linux")]
pub fn clone_into(group: &File, child: &Child) -> io::Result<(u32, Option<OwnedFd>)> {
    use std::os::fd::FromRawFd;
    /// The number of `clone3` on every Linux architecture.
    const SYS_CLONE3: c_long = 435;
    const CLONE_PIDFD: u64 = 0x1000;
    const CLONE_INTO_CGROUP: u64 = 0x2_0000_0000;
    /// SIGCHLD on the architectures kit is built for (not Alpha, MIPS or
    /// SPARC).
    const SIGCHLD: u64 = 17;
    let mut pidfd: c_int = -1;
    let args = CloneArgs {
        flags: CLONE_PIDFD | CLONE_INTO_CGROUP,
        pidfd: &mut pidfd as *mut c_int as u64,
        child_tid: 0,
        parent_tid: 0,
        exit_signal: SIGCHLD,
        stack: 0,
        stack_size: 0,
        tls: 0,
        set_tid: 0,
        set_tid_size: 0,
        cgroup: group.as_raw_fd() as u64,
    };
    // SAFETY: `args` is a valid clone_args of the size given; without
    // CLONE_VM the child runs on its own copy of our memory, and makes
    // only async-signal-safe calls before it execs or exits.
    let pid =
        unsafe { syscall(SYS_CLONE3, &args as *const CloneArgs, std::mem::size_of::<CloneArgs>()) };
    if pid < 0 {
        return Err(io::Error::last_os_error());
    }
    if pid == 0 {
        // SAFETY: in the child, see above.
        unsafe { exec_child(child) }
    }
    // SAFETY: the kernel wrote a fresh pidfd, ours alone, or left -1.
    let pidfd = (pidfd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(pidfd) });
    Ok((pid as u32, pidfd))
}

/// The child's side of [`clone_into`]: its pipes as 0, 1 and 2, a process
/// group of its own, SIGPIPE back to its default and no signal blocked
/// (as std does), its folder, then `exec`; on a failure, its errno to
/// `report` and exit 127.
///
/// # Safety
/// Only in a child of [`clone_into`], before anything else.
#[cfg(target_os = "linux")]
unsafe fn exec_child(c: &Child) -> ! {
    const SIGPIPE: c_int = 13;
    const SIG_SETMASK: c_int = 2;
    let fail = |report: c_int| -> ! {
        let errno = io::Error::last_os_error().raw_os_error().unwrap_or(0);
        write(report, errno.to_ne_bytes().as_ptr(), 4);
        _exit(127)
    };
    let report = c.report.as_raw_fd();
    for (k, fd) in c.stdio.iter().enumerate() {
        if dup2(fd.as_raw_fd(), k as c_int) < 0 {
            fail(report);
        }
    }
    setpgid(0, 0);
    signal(SIGPIPE, SIG_DFL);
    let none = [0u64; 16];
    sigprocmask(SIG_SETMASK, none.as_ptr(), std::ptr::null_mut());
    if let Some(dir) = c.cwd {
        if chdir(dir.as_ptr()) != 0 {
            fail(report);
        }
    }
    execve(c.path.as_ptr(), c.argv.as_ptr(), c.envp.as_ptr());
    fail(report)
}

/// The errno a child wrote to its report pipe before it died, or `None`
/// at the pipe's end (its `exec` closed it: it started).
pub fn read_errno(report: &OwnedFd) -> Option<i32> {
    let mut buf = [0u8; 4];
    let mut got = 0;
    while got < 4 {
        // SAFETY: reads into the rest of a live local buffer.
        let n = unsafe { read(report.as_raw_fd(), buf[got..].as_mut_ptr(), 4 - got) };
        match n {
            0 => return None,
            n if n > 0 => got += n as usize,
            _ if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted => {}
            _ => return None,
        }
    }
    Some(i32::from_ne_bytes(buf))
}

/// Lets `fd` pass to the programs kit starts (clears its close-on-exec
/// flag).
///
/// # Errors
/// The `io::Error` of `fcntl(2)`.
pub fn set_inherited(fd: c_int) -> io::Result<()> {
    const F_GETFD: c_int = 1;
    const F_SETFD: c_int = 2;
    const FD_CLOEXEC: c_int = 1;
    // SAFETY: fcntl(2) on a descriptor the caller holds; F_GETFD and
    // F_SETFD read and set its flags, no memory of ours.
    let flags = unsafe { fcntl(fd, F_GETFD) };
    if flags < 0 || unsafe { fcntl(fd, F_SETFD, flags & !FD_CLOEXEC) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// A descriptor that becomes readable when process `pid` (our unreaped
/// child, so its pid cannot be reused) has ended: `pidfd_open(2)`, Linux
/// 5.3; `None` elsewhere, or where it is refused.
#[cfg(target_os = "linux")]
pub fn pidfd(pid: u32) -> Option<OwnedFd> {
    use std::os::fd::FromRawFd;
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
