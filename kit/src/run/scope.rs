//! kit run again in a scope of its own, asked of systemd, where the
//! unified hierarchy has the controllers but no group kit's user owns can
//! hold its run groups ([`super::delegate`]: an SSH login's
//! `session-N.scope` is root's). `systemd-run --user --scope -p
//! Delegate=yes -- kit ARGS` makes a transient scope under the user's
//! `user@UID.service`, owned by the user, and runs kit in it (`--scope`
//! runs the command in the same process: the terminal, stdin and stdout
//! stay kit's), where kit is alone and makes its groups.
//!
//! The first kit waits for the second and exits as it does. The second
//! says on a socket that it started: a `systemd-run` that fails (no user
//! manager, a refused unit) exits without saying so, and the first kit
//! then says so in one line and goes on as it would have, without a
//! scope. Should the first kit die, the second gets SIGTERM (the
//! parent-death signal), which stops its programs as a SIGTERM to kit
//! does.

use std::ffi::OsString;
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, FromRawFd};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::Command;

/// In the second kit's environment: `FD:PID`, the descriptor to say it
/// started on and the pid of the first kit.
const SCOPE: &str = "KIT_SCOPE";

/// Call first in `main`, after the signal handlers: `Some(code)` when kit
/// ran in a scope of its own, as a second kit that exited with `code`
/// (then exit so); `None` to go on (no scope needed or possible, or this
/// is the second kit).
pub fn run_in_a_scope() -> Option<i32> {
    if let Some(told) = std::env::var_os(SCOPE) {
        std::env::remove_var(SCOPE);
        started(&told.to_string_lossy());
        return None;
    }
    let mode = std::env::var("KIT_CGROUP").unwrap_or_default();
    // Help runs no program: not worth a scope.
    let asks_help = std::env::args_os().skip(1).any(|a| a == "--help" || a == "-h");
    if std::env::args_os().len() < 2 || asks_help {
        return None;
    }
    if !matches!(mode.as_str(), "" | "auto" | "v2") || !user_manager() || !wanted() {
        return None;
    }
    let systemd_run = on_path("systemd-run")?;
    let exe = std::env::current_exe().ok()?;
    match in_scope(&systemd_run, &exe, std::env::args_os().skip(1)) {
        Ok(code) => Some(code),
        Err(why) => {
            eprintln!("kit: no scope of its own from systemd ({why}): kit goes on without one");
            None
        }
    }
}

/// Whether the user has a systemd manager to ask (its socket in
/// `$XDG_RUNTIME_DIR`): without one `systemd-run --user` can only fail.
fn user_manager() -> bool {
    let Some(dir) = std::env::var_os("XDG_RUNTIME_DIR") else { return false };
    let dir = PathBuf::from(dir);
    dir.join("systemd/private").exists() || dir.join("bus").exists()
}

/// Whether a scope would help: the unified hierarchy holds `memory` and
/// `pids` at its root, and no group of kit's user's can hold kit's groups
/// now.
fn wanted() -> bool {
    let Some((mount, own)) = super::cgroup::own_v2() else { return false };
    let root = std::fs::read_to_string(mount.join("cgroup.controllers")).unwrap_or_default();
    let at_root = super::delegate::NEEDED.iter().all(|c| root.split_whitespace().any(|x| x == *c));
    let uid = super::sys::euid();
    let read = |dir: &Path| super::delegate::Facts::read(dir, uid);
    at_root && super::delegate::plan(&mount, &own, std::process::id(), read).is_err()
}

/// The second kit: tells the first one it started, and dies with it.
fn started(told: &str) {
    let Some((fd, parent)) = told.split_once(':') else { return };
    let (Ok(fd), Ok(parent)) = (fd.parse::<i32>(), parent.parse::<u32>()) else { return };
    let _ = super::sys::die_with_parent(parent, super::sys::SIGTERM);
    // SAFETY: the descriptor the first kit left open for us, ours alone.
    let mut socket = unsafe { UnixStream::from_raw_fd(fd) };
    let _ = socket.write_all(b"1");
}

/// Runs `exe` with `args` (kit again) through `systemd_run`; its exit
/// code, or why not.
fn in_scope(
    systemd_run: &Path,
    exe: &Path,
    args: impl IntoIterator<Item = OsString>,
) -> Result<i32, String> {
    let (mut ours, theirs) = UnixStream::pair().map_err(|e| e.to_string())?;
    super::sys::set_inherited(theirs.as_raw_fd()).map_err(|e| e.to_string())?;
    let mut child = Command::new(systemd_run)
        .args(["--user", "--scope", "--quiet", "--collect", "-p", "Delegate=yes", "--"])
        .arg(exe)
        .args(args)
        .env(SCOPE, format!("{}:{}", theirs.as_raw_fd(), std::process::id()))
        .spawn()
        .map_err(|e| format!("{}: {e}", systemd_run.display()))?;
    drop(theirs);
    let mut said = [0u8; 1];
    let ran = matches!(ours.read(&mut said), Ok(1));
    let status = child.wait().map_err(|e| e.to_string())?;
    if !ran {
        return Err(format!("systemd-run --user --scope -p Delegate=yes: {status}"));
    }
    use std::os::unix::process::ExitStatusExt;
    if let Some(sig) = status.signal() {
        super::sys::die_of(sig);
    }
    Ok(status.code().unwrap_or(1))
}

/// `name` in a folder of `PATH`, if it is there.
fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(name)).find(|p| p.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scratch::Scratch;

    /// A stand-in for `systemd-run`: `body` run by `sh` with the command
    /// after `--` as its arguments.
    fn fake(s: &Scratch, body: &str) -> PathBuf {
        let path = s.write("systemd-run", &format!("#!/bin/sh\n{body}\n"));
        let run = Command::new("chmod").arg("+x").arg(&path).status().unwrap();
        assert!(run.success());
        path
    }

    fn args(words: &[&str]) -> Vec<OsString> {
        words.iter().map(OsString::from).collect()
    }

    /// A second kit that started (it says so on the socket) gives its
    /// exit code to the first.
    #[test]
    fn the_second_kit_exits_for_the_first() {
        let s = Scratch::new("scope");
        let systemd_run = fake(&s, "while [ \"$1\" != -- ]; do shift; done; shift; exec \"$@\"");
        // bash: dash takes only one-digit descriptors in a redirection.
        let Some(bash) = on_path("bash") else { return };
        let second = "printf 1 >&${KIT_SCOPE%%:*}; exit 7";
        let code = in_scope(&systemd_run, &bash, args(&["-c", second]));
        assert_eq!(code, Ok(7));
    }

    /// A `systemd-run` that fails (no user manager to ask) runs nothing:
    /// the first kit learns it, and says why in one line.
    #[test]
    fn a_failing_systemd_run_is_said_and_kit_goes_on() {
        let s = Scratch::new("scope");
        let systemd_run = fake(&s, "exit 1");
        let why = in_scope(&systemd_run, Path::new("true"), args(&[])).unwrap_err();
        assert!(
            why.starts_with("systemd-run --user --scope -p Delegate=yes: exit status: 1"),
            "{why}"
        );
        assert_eq!(why.lines().count(), 1);
    }
}
