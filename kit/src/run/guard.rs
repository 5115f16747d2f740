//! Nothing a run started outlives kit, even when kit is killed by SIGKILL
//! (which no handler sees) or a test harness dies. Three parts:
//!
//! - **The program** gets SIGKILL when kit dies: `PR_SET_PDEATHSIG`, set in
//!   the child before `exec` ([`prepare`]). The kernel sends it when the
//!   *thread* that spawned the child ends; a run spawns and supervises its
//!   program in one call of one thread (`kit stress --jobs` too: each worker
//!   thread runs its program to the end before it takes the next case), so
//!   that thread lives as long as the program.
//! - **Its descendants** (a wrapper script's child) do not inherit that
//!   setting. A keeper process, one per kit, holds the read end of a pipe
//!   whose only writer is kit; kit tells it each group it starts and ends.
//!   When kit dies, by whatever signal, the pipe reads end of file and the
//!   keeper kills the groups still listed, then exits. It is a `sh` loop of
//!   builtins only, in a group of its own (Ctrl-C to kit's group does not
//!   stop it before its work), ignoring SIGINT, SIGTERM and SIGHUP.
//! - **Orphans**: kit is a child subreaper (Linux), so a descendant whose
//!   parent ended becomes kit's child rather than init's: kit reaps it,
//!   counting its CPU time, and its pid stays ours until then.

use std::io::Write;
use std::process::{ChildStdin, Command, Stdio};
use std::sync::{Mutex, OnceLock};

/// Sets up `command` so that its process dies with kit, and makes kit the
/// reaper of the orphans of what it runs (once).
pub fn prepare(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    static SUBREAPER: OnceLock<bool> = OnceLock::new();
    SUBREAPER.get_or_init(super::sys::become_subreaper);
    let kit = std::process::id();
    // SAFETY: the closure runs between fork and exec, where only
    // async-signal-safe calls may be made: prctl and getppid, no
    // allocation (an error is made from a raw code).
    unsafe {
        command.pre_exec(move || super::sys::die_with_parent(kit, super::sys::SIGKILL));
    }
}

/// The keeper's program: a list of process groups, `+ PGID` adds,
/// `- PGID` removes, and one of control groups, `c DIR` adds, `u DIR`
/// removes; `l DIR` names kit's own leaf (cgroup v2, [`super::delegate`]),
/// where the keeper itself runs. At the end of its input it kills the
/// process groups left, then empties (thawed, every process killed) and
/// removes the control groups left (bounded: five seconds of tries each,
/// for a busy machine), then the leaf: the controllers handed down no
/// more in its parent, the keeper moved there, the leaf removed.
const KEEPER: &str = "trap '' INT TERM HUP
g=' '
c=' '
l=''
while read -r op pg; do
  case $op in
    +) g=\"$g$pg \" ;;
    -) case $g in *\" $pg \"*) g=\"${g%% $pg *} ${g#* $pg }\" ;; esac ;;
    c) c=\"$c$pg \" ;;
    l) l=\"$pg\" ;;
    u) case $c in *\" $pg \"*) c=\"${c%% $pg *} ${c#* $pg }\" ;; esac ;;
  esac
done
for pg in $g; do kill -s KILL -- \"-$pg\" 2>/dev/null; done
for d in $c; do
  [ -f \"$d/freezer.state\" ] && echo THAWED > \"$d/freezer.state\"
  n=0
  while [ -d \"$d\" ] && [ $n -lt 500 ]; do
    while read -r p; do kill -s KILL \"$p\" 2>/dev/null; done < \"$d/cgroup.procs\"
    rmdir \"$d\" 2>/dev/null || sleep 0.01
    n=$((n+1))
  done
done
if [ -n \"$l\" ]; then
  echo '-memory -pids' > \"${l%/*}/cgroup.subtree_control\"
  echo $$ > \"${l%/*}/cgroup.procs\"
  rmdir \"$l\"
fi 2>/dev/null
";

/// The pipe to the keeper, started at the first run; `None` if it could
/// not start (then only the program itself dies with kit).
fn keeper() -> Option<&'static Mutex<ChildStdin>> {
    static KEEPER_IN: OnceLock<Option<Mutex<ChildStdin>>> = OnceLock::new();
    KEEPER_IN
        .get_or_init(|| {
            use std::os::unix::process::CommandExt;
            let mut child = Command::new("sh")
                .arg("-c")
                .arg(KEEPER)
                .stdin(Stdio::piped())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .process_group(0)
                .spawn()
                .ok()?;
            child.stdin.take().map(Mutex::new)
        })
        .as_ref()
}

/// One line to the keeper, in one write (the pipe is unbuffered).
fn tell(line: std::fmt::Arguments) {
    if let Some(pipe) = keeper() {
        let line = line.to_string();
        let mut pipe = pipe.lock().unwrap_or_else(|e| e.into_inner());
        let _ = pipe.write_all(line.as_bytes());
    }
}

/// A control group folder for the keeper to empty and remove should kit
/// die before it does ([`forget_group`] when kit removed it).
pub fn keep_group(dir: &std::path::Path) {
    tell(format_args!("c {}\n", dir.display()));
}

/// kit's own leaf, which the keeper leaves and removes should kit die.
pub fn keep_leaf(dir: &std::path::Path) {
    tell(format_args!("l {}\n", dir.display()));
}

pub fn forget_group(dir: &std::path::Path) {
    tell(format_args!("u {}\n", dir.display()));
}

/// A group the keeper knows of, until dropped (after the group was killed
/// and its leader reaped, so that its number is not reused yet).
pub struct Kept(u32);

impl Kept {
    pub fn new(pgid: u32) -> Kept {
        tell(format_args!("+ {pgid}\n"));
        Kept(pgid)
    }

    pub fn pgid(&self) -> u32 {
        self.0
    }
}

impl Drop for Kept {
    fn drop(&mut self) {
        tell(format_args!("- {}\n", self.0));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The keeper's list, run by `sh` on a script of messages: what it
    /// would kill at the end.
    #[test]
    fn the_keeper_kills_the_groups_left_at_the_end() {
        let script = KEEPER
            .replace("kill -s KILL -- \"-$pg\" 2>/dev/null", "echo $pg")
            .replace("[ -f", "echo $d; [ -f");
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!(
                "printf '+ 11\\n+ 2\\nc /no/a\\n+ 123\\nc /no/b\\n- 2\\n- 7\\n+ 5\\n- 11\\nu /no/a\\n' \
                 | {{ {script} }}"
            ))
            .output()
            .unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout), "123\n5\n/no/b\n");
    }
}
