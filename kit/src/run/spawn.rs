//! Starting a program. Two ways:
//!
//! - **std's `Command`**, with the child's set-up between its fork and its
//!   exec (its parent-death signal, and in cgroup v1 the writes to
//!   `cgroup.procs` that move it into its groups);
//! - **`clone3(2)` with `CLONE_INTO_CGROUP`** (Linux 5.7) for a cgroup v2
//!   group: the child is born in its group, so no `cgroup.procs` write
//!   moves it (each such move takes a lock that every fork, exec and exit
//!   on the machine waits for, and waits for an RCU grace period itself),
//!   and `CLONE_PIDFD` hands its pidfd over at once. kit is std only, so
//!   the call and the child's few calls before `exec` are declared by hand
//!   (`sys`); the child makes only async-signal-safe calls on memory made
//!   before the clone.
//!
//! Both give a [`Started`] program: its pid and pipes.

use super::sys;
use std::ffi::{CString, OsStr, OsString};
use std::fs::File;
use std::io;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::Child;

/// A program that has started: its pid (its process group's id too), the
/// pipes to its stdin, stdout and stderr, and its pidfd if the start gave
/// one.
pub struct Started {
    pub pid: u32,
    pub stdin: Option<File>,
    pub stdout: Option<File>,
    pub stderr: Option<File>,
    pub pidfd: Option<OwnedFd>,
}

impl From<Child> for Started {
    /// std's child, whose pipes we take (std never waits for it: kit
    /// reaps its children itself).
    fn from(mut child: Child) -> Started {
        let file = |fd: OwnedFd| File::from(fd);
        Started {
            pid: child.id(),
            stdin: child.stdin.take().map(|p| file(p.into())),
            stdout: child.stdout.take().map(|p| file(p.into())),
            stderr: child.stderr.take().map(|p| file(p.into())),
            pidfd: None,
        }
    }
}

/// What [`into_group`] starts.
pub struct Program<'a> {
    pub program: &'a OsStr,
    pub args: &'a [OsString],
    pub cwd: Option<&'a Path>,
}

/// Starts `p` in a process group of its own, born in the cgroup v2 group
/// whose folder `group` is open (`clone3` with `CLONE_INTO_CGROUP`), its
/// stdin, stdout and stderr piped to us.
///
/// # Errors
/// `NotFound` when the program is not found on `PATH`; the `io::Error`
/// of a pipe, of `clone3` (before Linux 5.7: `ENOSYS`; a group kit may
/// not use), or of the child's `exec` or `chdir`.
pub fn into_group(p: &Program, group: &File) -> io::Result<Started> {
    let path = resolve(p.program)?;
    let c = |s: &OsStr| {
        CString::new(s.as_bytes()).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))
    };
    let path = c(path.as_os_str())?;
    let mut words = vec![c(p.program)?];
    for a in p.args {
        words.push(c(a)?);
    }
    let mut env = Vec::new();
    for (k, v) in std::env::vars_os() {
        let mut pair = k;
        pair.push("=");
        pair.push(v);
        env.push(c(&pair)?);
    }
    let cwd = p.cwd.map(|d| c(d.as_os_str())).transpose()?;
    let argv = pointers(&words);
    let envp = pointers(&env);
    let (stdin_r, stdin_w) = sys::pipe()?;
    let (stdout_r, stdout_w) = sys::pipe()?;
    let (stderr_r, stderr_w) = sys::pipe()?;
    let (report_r, report_w) = sys::pipe()?;
    let child = sys::Child {
        path: &path,
        argv: &argv,
        envp: &envp,
        cwd: cwd.as_deref(),
        stdio: [&stdin_r, &stdout_w, &stderr_w],
        report: &report_w,
    };
    let (pid, pidfd) = sys::clone_into(group, &child)?;
    drop((stdin_r, stdout_w, stderr_w, report_w));
    // The child's exec closes its end of the report pipe: nothing read
    // means it started; else the errno of what failed.
    if let Some(errno) = sys::read_errno(&report_r) {
        let _ = sys::reap(sys::Whom::Pid(pid), true);
        return Err(io::Error::from_raw_os_error(errno));
    }
    Ok(Started {
        pid,
        stdin: Some(File::from(stdin_w)),
        stdout: Some(File::from(stdout_r)),
        stderr: Some(File::from(stderr_r)),
        pidfd,
    })
}

/// A null-terminated array of pointers to `words`.
fn pointers(words: &[CString]) -> Vec<*const std::os::raw::c_char> {
    let mut p: Vec<_> = words.iter().map(|w| w.as_ptr()).collect();
    p.push(std::ptr::null());
    p
}

/// The file `exec` runs for `program`: as given when it names a path,
/// else the first executable file of that name in a folder of `PATH`
/// (as `execvp` looks).
fn resolve(program: &OsStr) -> io::Result<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    if program.as_bytes().contains(&b'/') {
        return Ok(PathBuf::from(program));
    }
    let path = std::env::var_os("PATH").unwrap_or_else(|| "/usr/local/bin:/usr/bin:/bin".into());
    let runnable = |p: &Path| {
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| runnable(p))
        .ok_or_else(|| io::Error::from(io::ErrorKind::NotFound))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    /// A program born in a v2 group: where this machine has a unified
    /// hierarchy kit may make a group in (root, a hybrid mount without
    /// controllers will do), `cat /proc/self/cgroup` reads its group.
    #[test]
    fn a_program_is_born_in_its_group() {
        let Some((mount, own)) = super::super::cgroup::own_v2() else { return };
        let dir = own.join(format!("kit-spawn-test-{}", std::process::id()));
        if std::fs::create_dir(&dir).is_err() {
            eprintln!("SKIPPED a_program_is_born_in_its_group: no v2 group here");
            return;
        }
        let group = File::open(&dir).unwrap();
        let args = [OsString::from("/proc/self/cgroup")];
        let p = Program { program: OsStr::new("cat"), args: &args, cwd: None };
        let started = into_group(&p, &group);
        let mut text = String::new();
        if let Ok(s) = &started {
            s.stdout.as_ref().unwrap().read_to_string(&mut text).unwrap();
            let _ = sys::reap(sys::Whom::Pid(s.pid), true);
        }
        // A program that is not there, or that cannot run, is an error.
        let p = Program { program: OsStr::new("kit-no-such-program"), args: &[], cwd: None };
        let missing = into_group(&p, &group).err().map(|e| e.kind());
        let p = Program { program: OsStr::new("/proc/self/cgroup"), args: &[], cwd: None };
        let denied = into_group(&p, &group).err().map(|e| e.kind());
        drop(started);
        let _ = std::fs::remove_dir(&dir);
        let want = format!("0::/{}", dir.strip_prefix(&mount).unwrap().display());
        assert!(text.lines().any(|l| l == want), "{text}");
        assert_eq!(missing, Some(io::ErrorKind::NotFound));
        assert_eq!(denied, Some(io::ErrorKind::PermissionDenied));
    }
}
