//! The program's descendants as Linux's `/proc` shows them, where no
//! control group can be made ([`super::cgroup`]): every process below the
//! program (by parent links), every member of its process group, and the
//! orphans that kit, a child subreaper, adopted from it, known by the
//! mark the program's environment carries ([`MARK`]): a child that moved
//! to a process group or session of its own, or a double-forked daemon, is
//! still counted, limited and killed. The members are found by walking
//! down the kernel's lists of children (`/proc/PID/task/TID/children`): a
//! few small files per member; where the kernel has no such list, by a scan
//! of `/proc/PID/stat` of every process on the machine (about 0.6 ms of
//! kit's CPU with 110 processes).
//!
//! What it cannot see: the CPU of a child reaped by the kernel (its parent
//! ignores SIGCHLD) or by a parent of the tree between two scans, memory
//! held in no process's resident set (memfd, tmpfs), and a page shared by
//! two members counts twice.

use std::time::Duration;

/// The variable set in each program's environment, `KIT_RUN=PID.N` (kit's
/// pid, the run's number): how an orphan kit adopted is traced back to its
/// run.
pub const MARK: &str = "KIT_RUN";

/// The program's tree at one moment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sample {
    /// User + system CPU time of the live members and of the children
    /// they waited for.
    pub cpu: Duration,
    /// The sum of their resident memory, in KiB (a page shared by two
    /// members counts twice, as in the sum of their `ps` figures).
    pub rss_kib: u64,
    /// The members: live ones, and zombies kit must reap.
    pub members: Vec<Member>,
}

/// What one `/proc/PID/stat` line says of its process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Member {
    pub pid: u32,
    pub ppid: u32,
    pub pgid: u32,
    pub zombie: bool,
    /// utime + stime + cutime + cstime, in clock ticks.
    ticks: u64,
    /// Resident pages (0 for a zombie).
    pages: u64,
}

/// One run's tree: its leader, its mark, and what earlier scans learnt.
pub struct Tree {
    leader: u32,
    kit: u32,
    /// `KIT_RUN=PID.N\0`, as it stands in `/proc/PID/environ`.
    mark: Vec<u8>,
    /// Members of the last scan: one whose parent died since is still one.
    known: Vec<u32>,
    /// Children of kit found not to be this run's (not marked so).
    strangers: Vec<u32>,
}

impl Tree {
    /// The tree of the program `leader`, whose environment holds
    /// `mark_value` as [`MARK`].
    pub fn new(leader: u32, mark_value: &str) -> Tree {
        Tree {
            leader,
            kit: std::process::id(),
            mark: format!("{MARK}={mark_value}\0").into_bytes(),
            known: vec![leader],
            strangers: Vec::new(),
        }
    }

    /// The members now, summed; `None` where there is no `/proc` to read.
    ///
    /// A few `/proc` files per member and quadratic in the members (each
    /// is checked against those found), where the kernel lists children;
    /// elsewhere one file per process of the machine, and O(d P^2) for P
    /// processes whose chains below the program are d deep.
    #[cfg(target_os = "linux")]
    pub fn sample(&mut self) -> Option<Sample> {
        use std::sync::OnceLock;
        static UNITS: OnceLock<Option<(u64, u64)>> = OnceLock::new();
        let (ticks, page) =
            (*UNITS.get_or_init(|| Some((super::sys::clock_ticks()?, super::sys::page_size()?))))?;
        let members = match self.walk() {
            Some(found) => found,
            None => {
                let all = scan()?;
                self.members(&all)
            }
        };
        self.known = members.iter().map(|m| m.pid).collect();
        let total_ticks: u64 = members.iter().map(|m| m.ticks).sum();
        let pages: u64 = members.iter().map(|m| m.pages).sum();
        Some(Sample {
            cpu: Duration::from_micros(total_ticks.saturating_mul(1_000_000) / ticks),
            rss_kib: pages * page / 1024,
            members,
        })
    }

    /// The members found by walking down `/proc/PID/task/TID/children`
    /// from the program and from kit's own children that are this run's:
    /// a few files per member, where a scan of `/proc` reads one per
    /// process of the machine. `None` where the kernel has no such file.
    #[cfg(target_os = "linux")]
    fn walk(&mut self) -> Option<Vec<Member>> {
        use std::sync::OnceLock;
        static HAS_CHILDREN: OnceLock<bool> = OnceLock::new();
        let has = HAS_CHILDREN.get_or_init(|| {
            let me = std::process::id();
            std::path::Path::new(&format!("/proc/{me}/task/{me}/children")).exists()
        });
        if !has {
            return None;
        }
        let mut todo = vec![self.leader];
        for pid in children(self.kit) {
            if pid != self.leader && (self.known.contains(&pid) || self.marked(pid)) {
                todo.push(pid);
            }
        }
        let mut found: Vec<Member> = Vec::new();
        while let Some(pid) = todo.pop() {
            if found.iter().any(|m| m.pid == pid) {
                continue;
            }
            let Some(member) = stat(pid) else { continue };
            found.push(member);
            if !member.zombie {
                todo.extend(children(pid));
            }
        }
        Some(found)
    }

    #[cfg(not(target_os = "linux"))]
    pub fn sample(&mut self) -> Option<Sample> {
        None
    }

    /// Those of `all` that are this run's: the leader, its process group,
    /// known ones, kit's adopted orphans that carry the mark, and all
    /// below them.
    fn members(&mut self, all: &[Member]) -> Vec<Member> {
        let kit = self.kit;
        self.strangers.retain(|p| all.iter().any(|m| m.pid == *p));
        let mut inside: Vec<bool> = Vec::with_capacity(all.len());
        for m in all {
            let seed = m.pid == self.leader
                || m.pgid == self.leader
                || self.known.contains(&m.pid)
                || m.ppid == kit && !m.zombie && self.marked(m.pid);
            inside.push(seed);
        }
        // Down the parent links until nothing is added (a chain of depth d
        // takes d passes; chains are short).
        loop {
            let mut added = false;
            for k in 0..all.len() {
                if !inside[k] {
                    let parent = all[k].ppid;
                    if all.iter().zip(&inside).any(|(p, &i)| i && p.pid == parent) {
                        inside[k] = true;
                        added = true;
                    }
                }
            }
            if !added {
                break;
            }
        }
        all.iter().zip(inside).filter(|(_, i)| *i).map(|(m, _)| *m).collect()
    }

    /// Whether kit's child `pid` carries this run's mark (read once).
    fn marked(&mut self, pid: u32) -> bool {
        if self.strangers.contains(&pid) {
            return false;
        }
        let environ = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
        let ours = environ.split_inclusive(|&b| b == 0).any(|v| v == self.mark.as_slice());
        if !ours {
            self.strangers.push(pid);
        }
        ours
    }
}

/// The children of process `pid`, of all its threads.
#[cfg(target_os = "linux")]
fn children(pid: u32) -> Vec<u32> {
    let mut found = Vec::new();
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else { return found };
    for task in tasks.flatten() {
        if let Ok(text) = std::fs::read_to_string(task.path().join("children")) {
            found.extend(text.split_whitespace().filter_map(|w| w.parse::<u32>().ok()));
        }
    }
    found
}

/// Every process of the machine.
#[cfg(target_os = "linux")]
fn scan() -> Option<Vec<Member>> {
    use std::fmt::Write as _;
    use std::io::Read;
    let mut all = Vec::with_capacity(256);
    let mut stat = String::with_capacity(512);
    let mut path = String::with_capacity(32);
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().filter(|n| n.bytes().all(|b| b.is_ascii_digit())) else {
            continue;
        };
        stat.clear();
        path.clear();
        let _ = write!(path, "/proc/{pid}/stat");
        let Ok(mut file) = std::fs::File::open(&path) else { continue };
        if file.read_to_string(&mut stat).is_err() {
            continue;
        }
        if let Some(member) = parse(&stat) {
            all.push(member);
        }
    }
    Some(all)
}

/// What `/proc/PID/stat` says of process `pid` now; `None` when it is
/// gone (or there is no `/proc`).
pub fn stat(pid: u32) -> Option<Member> {
    parse(&std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?)
}

/// Fields after the command name, which is in parentheses and may hold
/// anything: state is field 3, ppid 4, pgrp 5, utime, stime, cutime,
/// cstime 14 to 17, rss 24 (proc(5)); the pid is before the name.
fn parse(stat: &str) -> Option<Member> {
    let pid = stat.split_whitespace().next()?.parse().ok()?;
    let after = &stat[stat.rfind(')')? + 1..];
    // One pass over the fields: `nth(k)` skips k fields and takes the next.
    let mut fields = after.split_whitespace();
    let number = |field: Option<&str>| field?.parse::<u64>().ok();
    let zombie = fields.next()? == "Z"; // state, 3
    let ppid = u32::try_from(number(fields.next())?).ok()?; // ppid, 4
    let pgid = u32::try_from(number(fields.next())?).ok()?; // pgrp, 5
    let mut ticks = number(fields.nth(8))?; // utime, 14
    for _ in 0..3 {
        ticks += number(fields.next())?; // stime, cutime, cstime
    }
    let pages = if zombie { 0 } else { number(fields.nth(6))? }; // rss, 24
    Some(Member { pid, ppid, pgid, zombie, ticks, pages })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stat_line_gives_parent_group_times_and_pages() {
        let line = "4242 (a (weird) name) R 1 4240 4240 0 -1 4194304 100 0 0 0 \
                    150 25 7 3 20 0 1 0 999 12345678 321 18446744073709551615";
        let want = Member { pid: 4242, ppid: 1, pgid: 4240, zombie: false, ticks: 185, pages: 321 };
        assert_eq!(parse(line), Some(want));
        let zombie = line.replace(") R ", ") Z ");
        assert_eq!(parse(&zombie).map(|m| (m.pages, m.zombie)), Some((0, true)));
        assert_eq!(parse("4242 (cut"), None);
    }

    /// Members by parent links, whatever their group: a child that left
    /// the group, and its own child, are the run's; a stranger is not.
    #[test]
    fn descendants_are_members_whatever_their_group() {
        let m = |pid, ppid, pgid| Member { pid, ppid, pgid, zombie: false, ticks: 1, pages: 1 };
        let all = [m(10, 1, 10), m(11, 10, 11), m(12, 11, 12), m(13, 1, 10), m(20, 1, 20)];
        let mut tree = Tree::new(10, "x");
        tree.kit = 1;
        tree.strangers = vec![20];
        let pids: Vec<u32> = tree.members(&all).iter().map(|m| m.pid).collect();
        assert_eq!(pids, [10, 11, 12, 13]);
    }
}
