//! Where a run's figures come from, and how what it started is stopped
//! and reaped: all that differs between a control group ([`super::cgroup`]:
//! the group's CPU time; the kernel holds the memory limit and kills the
//! group) and the program's process tree ([`super::tree`]: the CPU time of
//! live members plus the orphans kit reaped, the sum of their resident
//! memory, each member killed). The watch of [`super::supervise`] only
//! judges the figures a [`Meter`] reads.

use super::cgroup::{self, Group, GroupEnd};
use super::guard::Kept;
use super::sys::{self, Reaped, Whom};
use super::terms::Usage;
use super::tree::{self, Tree};
use std::io;
use std::process::ExitStatus;
use std::time::Duration;

/// How many pids of a group's members a meter remembers (to reap those
/// that left the program's process group).
const SEEN_CAP: usize = 4096;

/// The figures of a run at one reading.
#[derive(Clone, Copy, Debug, Default)]
pub struct Reading {
    /// CPU time so far of everything the program started.
    pub cpu: Duration,
    /// The tree's resident memory, in KiB (a group's limit is the
    /// kernel's: `None`).
    pub rss_kib: Option<u64>,
}

/// The program's own end, once reaped.
#[derive(Clone, Copy, Debug)]
pub struct End {
    pub status: ExitStatus,
    pub usage: Usage,
}

/// The figures of an ended run, once everything it started is reaped.
pub struct Final {
    /// CPU time as counted at the end: the group's, or the program's own
    /// (with the children it waited for) plus the orphans kit reaped.
    pub cpu: Duration,
    pub end: Option<End>,
    /// The group's end, when the run had one.
    pub group: Option<GroupEnd>,
}

/// One run's source of figures and its stopper.
pub struct Meter {
    leader: u32,
    way: Way,
    end: Option<End>,
    /// Stopped already (a second kill could hit a reused pid).
    stopped: bool,
}

enum Way {
    /// Its control group, and the pids seen in it (at most [`SEEN_CAP`]):
    /// one that left its process group and ended before the end of the
    /// run is kit's to reap.
    Group { group: Group, seen: Vec<u32> },
    /// Its process tree, and the CPU time of the orphans kit reaped (with
    /// their waited-for children). The other process groups its members
    /// moved to are told to the keeper (should kit die, it kills them too)
    /// until the run ends.
    Tree { tree: Tree, reaped_cpu: Duration, groups: Vec<Kept> },
}

impl Meter {
    /// The group's figures if the run has one, else the tree's of the
    /// program `leader` whose environment carries `mark`.
    pub fn new(group: Option<Group>, leader: u32, mark: &str) -> Meter {
        let way = match group {
            Some(group) => Way::Group { group, seen: Vec::new() },
            None => Way::Tree {
                tree: Tree::new(leader, mark),
                reaped_cpu: Duration::ZERO,
                groups: Vec::new(),
            },
        };
        Meter { leader, way, end: None, stopped: false }
    }

    /// The program's end, if reaped.
    pub fn end(&self) -> Option<End> {
        self.end
    }

    /// Reads the figures now (reaping the orphans that ended); `None`
    /// without a `/proc` to read a tree from (then only the idleness rule
    /// stops a program in time).
    ///
    /// # Errors
    /// The `io::Error` of a `wait4` that failed.
    pub fn measure(&mut self) -> io::Result<Option<Reading>> {
        let leader = self.leader;
        let reading = match &mut self.way {
            Way::Group { group, seen } => {
                for pid in group.members() {
                    if seen.len() < SEEN_CAP && !seen.contains(&pid) {
                        seen.push(pid);
                    }
                }
                Reading { cpu: group.cpu(), rss_kib: None }
            }
            Way::Tree { tree, reaped_cpu, groups } => {
                let Some(sample) = tree.sample() else { return Ok(None) };
                for m in &sample.members {
                    let told = m.pgid == leader || groups.iter().any(|g| g.pgid() == m.pgid);
                    if !told && !m.zombie {
                        groups.push(Kept::new(m.pgid));
                    }
                }
                let kit = std::process::id();
                let ended: Vec<u32> = sample
                    .members
                    .iter()
                    .filter(|m| m.zombie && m.ppid == kit)
                    .map(|m| m.pid)
                    .collect();
                let reading =
                    Reading { cpu: *reaped_cpu + sample.cpu, rss_kib: Some(sample.rss_kib) };
                for pid in ended {
                    self.reap(Whom::Pid(pid), false)?;
                }
                return Ok(Some(reading));
            }
        };
        // Orphans of the program's own process group that ended (the
        // group's CPU counts them already).
        self.reap_group(false)?;
        Ok(Some(reading))
    }

    /// Whether the program has ended (or, with `block`, once it ends).
    ///
    /// # Errors
    /// The `io::Error` of a `wait4` that failed.
    pub fn ended(&mut self, block: bool) -> io::Result<bool> {
        if self.end.is_none() {
            self.reap(Whom::Pid(self.leader), block)?;
        }
        Ok(self.end.is_some())
    }

    /// Reaps one of our children (or, with `block`, once one ends): the
    /// program's own end, or an orphan's CPU time. Whether one was.
    fn reap(&mut self, whom: Whom, block: bool) -> io::Result<bool> {
        let reaped = sys::reap(whom, block)?;
        Ok(reaped.map(|r| self.reaped(r)).is_some())
    }

    fn reaped(&mut self, r: Reaped) {
        if r.pid == self.leader {
            self.end = Some(End { status: r.status, usage: r.usage });
        } else if let Way::Tree { reaped_cpu, .. } = &mut self.way {
            *reaped_cpu += r.usage.cpu;
        }
    }

    /// Reaps what of the program's process group has ended and is ours
    /// (its orphans, and the program if it is still in its group); with
    /// `block`, waits until none of the group is left.
    fn reap_group(&mut self, block: bool) -> io::Result<()> {
        while self.reap(Whom::Group(self.leader), block)? {}
        Ok(())
    }

    /// Kills everything the program started, then reaps the program and
    /// every orphan kit adopted from it (once: a second call does nothing).
    ///
    /// # Errors
    /// The `io::Error` of a `wait4` that failed.
    pub fn stop(&mut self) -> io::Result<()> {
        if std::mem::replace(&mut self.stopped, true) {
            return Ok(());
        }
        sys::kill_group(self.leader);
        if self.end.is_none() {
            sys::kill_pid(self.leader);
        }
        if matches!(self.way, Way::Tree { .. }) {
            self.stop_tree()?;
            self.ended(true)?;
            return self.reap_group(true);
        }
        // The program reaped first: most groups are empty then, and one
        // read says so.
        self.ended(true)?;
        let mut strays = Vec::new();
        if let Way::Group { group, seen } = &mut self.way {
            strays = std::mem::take(seen);
            if !group.is_empty() {
                strays.extend(group.kill_all());
            }
        }
        self.reap_group(true)?;
        self.reap_strays(&strays)
    }

    /// Kills the tree's members, round after round (a member may fork
    /// between a reading and the kill), reaping those kit adopted, until
    /// none is left (bounded: a member in uninterruptible sleep may
    /// outlive SIGKILL a while).
    fn stop_tree(&mut self) -> io::Result<()> {
        let kit = std::process::id();
        for round in 0..2000 {
            let Way::Tree { tree, .. } = &mut self.way else { break };
            let Some(sample) = tree.sample() else { break };
            for m in sample.members.iter().filter(|m| !m.zombie) {
                sys::kill_pid(m.pid);
            }
            for m in sample.members.iter().filter(|m| m.zombie && m.ppid == kit) {
                self.reap(Whom::Pid(m.pid), true)?;
            }
            let left = sample.members.iter().any(|m| !m.zombie || m.ppid != kit);
            if !left || round == 1999 {
                break;
            }
            std::thread::sleep(Duration::from_micros(if round < 20 { 50 } else { 1000 }));
        }
        Ok(())
    }

    /// Reaps those of `pids` (a killed group's processes) that kit adopted:
    /// each, once its parent is gone, is kit's child (a zombie by now) or
    /// gone.
    fn reap_strays(&mut self, pids: &[u32]) -> io::Result<()> {
        let (kit, leader) = (std::process::id(), self.leader);
        for &pid in pids.iter().filter(|&&p| p != leader) {
            // Bounded: a zombie whose parent is still exiting is handed
            // on to kit shortly.
            for _ in 0..1000 {
                match tree::stat(pid) {
                    Some(m) if m.ppid == kit => {
                        self.reap(Whom::Pid(pid), true)?;
                        break;
                    }
                    Some(m) if m.zombie => std::thread::sleep(Duration::from_micros(100)),
                    _ => break,
                }
            }
        }
        Ok(())
    }

    /// The figures of the stopped run; its group goes back to the pool.
    pub fn finish(self) -> Final {
        let end = self.end;
        match self.way {
            Way::Group { mut group, .. } => {
                let figures = group.end();
                cgroup::give(group);
                Final { cpu: figures.cpu, end, group: Some(figures) }
            }
            Way::Tree { reaped_cpu, .. } => {
                let own = end.map_or(Duration::ZERO, |e| e.usage.cpu);
                Final { cpu: own + reaped_cpu, end, group: None }
            }
        }
    }
}
