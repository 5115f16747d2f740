//! The kernel's own accounting of a run, as DOMjudge's runguard and
//! isolate do it: a control group holds the program and everything it
//! starts, whatever process group or session they move to. Its CPU time
//! counts every process that ever ran in it (reaped by anyone, the kernel
//! included), its memory limit is enforced by the kernel (the OOM killer
//! stops the group at the limit), its peak counts a shared page once and
//! charges memfd and tmpfs pages, a process limit stops a fork bomb, and
//! at the end every process in it is killed (`cgroup.kill`, or frozen then
//! killed).
//!
//! Two layouts: cgroup v2 (a delegated subtree of the unified hierarchy,
//! with the `memory` and `pids` controllers), else cgroup v1 (`cpuacct`,
//! `memory` and `pids` writable, `freezer` if there). Groups are made
//! below kit's own group of each hierarchy, named `kit-PID-K`; one per job
//! slot, emptied and reused (making and removing one costs about 1 ms, a
//! reuse a few writes; a v2 group whose peak cannot be reset serves one
//! run), and removed when kit ends ([`release`], and the
//! keeper of [`super::guard`] if kit is killed).
//!
//! `KIT_CGROUP` chooses: `v2` or `v1` (that layout only), `off` (no group:
//! every descendant followed through `/proc`, [`super::tree`]); unset or
//! `auto`, v2 then v1 then none. A layout that cannot be used is said in
//! one line on stderr, once, and the next one is tried.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use super::delegate::{self, Plan};
use super::guard::{forget_group, keep_group};
use super::sys::kill_pid;
use super::terms::TASK_LIMIT;

/// Bytes a group may hold at the start of a run (page cache charged by
/// the runs before) before kit empties it: about what a small program's
/// own pages are, so that its peak is not mostly another run's.
const LEFT_CHARGED: u64 = 4 << 20;

/// How a run's CPU time and memory are measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Accounting {
    /// A cgroup v2 group per run.
    V2,
    /// Groups in the cgroup v1 `cpuacct`, `memory` and `pids` hierarchies.
    V1,
    /// No group: every descendant of the program followed through `/proc`.
    Tree,
}

impl Accounting {
    /// One line for kit's stderr: what is measured and, for the
    /// fallback, what it cannot see.
    pub fn note(self) -> &'static str {
        match self {
            Accounting::V2 => "kit: measuring with a cgroup v2 per run (cpu, memory, pids)",
            Accounting::V1 => "kit: measuring with a cgroup v1 per run (cpuacct, memory, pids)",
            Accounting::Tree => {
                "kit: measuring without a control group: every descendant is read from \
                 /proc every 10 ms; not seen: the CPU of children the kernel reaps between \
                 two readings, memory a sampler misses or that is in no process's RSS \
                 (memfd, tmpfs), and shared pages count once per process"
            }
        }
    }
}

/// Where the groups of this kit are made: the parent folder in each
/// hierarchy.
#[derive(Clone, Debug)]
enum Layout {
    /// Below `parent`, as the delegation `plan` found.
    V2 {
        parent: PathBuf,
        plan: Plan,
    },
    V1 {
        cpuacct: PathBuf,
        memory: PathBuf,
        pids: PathBuf,
        freezer: Option<PathBuf>,
    },
}

/// The figures of an ended run, from its group.
#[derive(Clone, Copy, Debug)]
pub struct GroupEnd {
    pub cpu: Duration,
    /// The group's peak, in KiB (what it held at the start, the page
    /// cache kit could not empty, included: the kernel's limit counts it).
    pub peak_kib: u64,
    /// The kernel killed a process of the group at the memory limit.
    pub oom: bool,
}

/// One group, ready for a run or holding one. What differs between v1
/// and v2 is data here, chosen once in [`Group::make`].
pub struct Group {
    /// Every folder made, one per hierarchy (the first lists the members).
    dirs: Vec<PathBuf>,
    /// The layout's file names and values.
    dialect: &'static Dialect,
    /// The folder of the memory files.
    memory: PathBuf,
    /// How its processes are stopped at once.
    stopper: Stopper,
    /// How swap is held to the memory limit.
    swap: Swap,
    /// `cgroup.procs` of each, open for the child to write itself in.
    attach: Vec<File>,
    /// The folder, open, for a child born in the group (v2: `clone3`
    /// with `CLONE_INTO_CGROUP`).
    birth: Option<File>,
    /// Its counters, kept open: a read or a write of an open file costs a
    /// few microseconds, an open some tens.
    counters: Counters,
    /// The memory limit written now, in bytes (`None`: none).
    memory_limit: Option<u64>,
    /// At the start of the run: OOM kills so far, CPU so far (where the
    /// counter cannot be reset).
    start_ooms: u64,
    start_cpu: Duration,
    /// Its peak cannot be reset: used for one run, then removed.
    single_use: bool,
}

/// The file names and values of one layout.
struct Dialect {
    /// The CPU counter: its file, the key of its line (`None`: a number
    /// alone), and nanoseconds per unit.
    cpu: (&'static str, Option<&'static str>, u64),
    /// Reset by writing 0 (else its value at the start is subtracted).
    cpu_resets: bool,
    peak: &'static str,
    /// Written to the peak file to reset it.
    peak_reset: &'static str,
    /// A kernel may refuse the reset (v2 before Linux 6.12): the group
    /// then serves one run.
    peak_reset_may_fail: bool,
    /// `oom_kill N` is a line of it.
    ooms: &'static str,
    usage: &'static str,
    limit: &'static str,
    /// The limit's value for none.
    unlimited: &'static str,
    /// Emptied of the page cache past [`LEFT_CHARGED`] by a write here.
    force_empty: Option<&'static str>,
}

const V1: Dialect = Dialect {
    cpu: ("cpuacct.usage", None, 1),
    cpu_resets: true,
    peak: "memory.max_usage_in_bytes",
    peak_reset: "0",
    peak_reset_may_fail: false,
    ooms: "memory.oom_control",
    usage: "memory.usage_in_bytes",
    limit: "memory.limit_in_bytes",
    unlimited: "-1",
    force_empty: Some("memory.force_empty"),
};

const V2: Dialect = Dialect {
    cpu: ("cpu.stat", Some("usage_usec"), 1000),
    cpu_resets: false,
    peak: "memory.peak",
    peak_reset: "reset",
    peak_reset_may_fail: true,
    ooms: "memory.events",
    usage: "memory.current",
    limit: "memory.max",
    unlimited: "max",
    force_empty: None,
};

/// How a group's processes are stopped at once, so that none forks
/// between a reading of the members and their kill.
enum Stopper {
    /// `cgroup.kill` (v2): the kernel kills them all.
    Kill(PathBuf),
    /// The v1 freezer's group (its folder), frozen: the processes left
    /// are moved in, killed, then thawed.
    Freeze(PathBuf),
    /// Only SIGKILL to each member seen, round after round (v1 without a
    /// freezer).
    Signals,
}

/// How swap is held to the memory limit (a program swapping past the
/// limit would be slow, not stopped).
enum Swap {
    /// v1's `memory.memsw.limit_in_bytes`, memory + swap, which may never
    /// be below the memory limit: raised first, lowered after.
    Total(PathBuf),
    /// v2's `memory.swap.max`: none with a limit.
    Max(PathBuf),
    /// Not accounted by this kernel.
    None,
}

/// The counter files of a group, open.
struct Counters {
    /// Read at every check.
    cpu: File,
    peak: File,
    ooms: File,
    usage: File,
    /// `pids.current`: tasks in the group (zombies not yet reaped too).
    tasks: File,
}

/// A counter file's text, read from its start (`pread`: no seek, no open).
fn pread(file: &File) -> String {
    use std::os::unix::fs::FileExt;
    let mut buf = [0u8; 512];
    let n = file.read_at(&mut buf, 0).unwrap_or(0);
    String::from_utf8_lossy(&buf[..n]).into_owned()
}

fn pwrite(file: &File, value: &str) -> io::Result<()> {
    use std::os::unix::fs::FileExt;
    file.write_at(value.as_bytes(), 0).map(|_| ())
}

/// Opens `dir/name` for reading, and writing too with `write` (or, with
/// `or_read_only`, for reading alone where writing is refused).
fn open(dir: &Path, name: &str, write: bool, or_read_only: bool) -> io::Result<File> {
    let path = dir.join(name);
    let opened = OpenOptions::new().read(true).write(write).open(&path);
    let opened = match opened {
        Err(_) if write && or_read_only => File::open(&path),
        opened => opened,
    };
    opened.map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))
}

/// The accounting of this kit, chosen at its first run: the first group is
/// made then (and kept in the pool).
pub fn accounting() -> Accounting {
    static CHOSEN: OnceLock<Accounting> = OnceLock::new();
    *CHOSEN.get_or_init(|| {
        let want = std::env::var("KIT_CGROUP").unwrap_or_default();
        let tries: &[Accounting] = match want.as_str() {
            "off" | "none" | "tree" => &[],
            "v1" => &[Accounting::V1],
            "v2" => &[Accounting::V2],
            _ => &[Accounting::V2, Accounting::V1],
        };
        for &mode in tries {
            let made = layout(mode).and_then(|l| match Group::make(&l, 0) {
                Ok(group) => Ok((group, l)),
                Err(e) => {
                    l.undo();
                    Err(e)
                }
            });
            match made {
                Ok((group, l)) => {
                    *LAYOUT.lock().unwrap_or_else(|e| e.into_inner()) = Some(l);
                    give(group);
                    return mode;
                }
                // Auto mode says nothing of a v2 that is not delegated here
                // (the scope's own line, if it asked systemd, has said so),
                // nor of v1 hierarchies the machine does not have (a v2-only
                // desktop): only why v1 hierarchies that exist are unusable.
                Err(e)
                    if want == "v2"
                        || want == "v1"
                        || (mode == Accounting::V1 && e.kind() != io::ErrorKind::NotFound) =>
                {
                    let name = if mode == Accounting::V2 { "v2" } else { "v1" };
                    eprintln!("kit: no cgroup {name} group: {e}");
                }
                Err(_) => {}
            }
        }
        Accounting::Tree
    })
}

static LAYOUT: Mutex<Option<Layout>> = Mutex::new(None);
/// The kernel has no `clone3` into a group (before Linux 5.7): children
/// join their group by a write to `cgroup.procs`.
static BIRTHS_REFUSED: AtomicBool = AtomicBool::new(false);

/// Children are not born in their groups any more (the kernel refused).
pub fn refuse_births() {
    BIRTHS_REFUSED.store(true, Ordering::Relaxed);
}
/// Groups ready for a run.
static POOL: Mutex<Vec<Group>> = Mutex::new(Vec::new());
/// Groups made so far (the next one's number).
static MADE: Mutex<usize> = Mutex::new(1);

/// A group for one run (from the pool, or a new one), ready for
/// `memory_kib`; `None` without groups, or if none can be made or
/// prepared now (said once; the run then follows its tree).
pub fn take(memory_kib: Option<u64>) -> Option<Group> {
    if accounting() == Accounting::Tree {
        return None;
    }
    // One whose memory limit is the run's if there is one: `kit stress`
    // alternates our solver's runs (no limit) and the program's, and a
    // new limit costs two or three writes.
    let pooled = {
        let mut pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
        let limit = memory_kib.map(|k| k.saturating_mul(1024));
        let same = pool.iter().rposition(|g| g.memory_limit == limit);
        same.map(|k| pool.swap_remove(k)).or_else(|| pool.pop())
    };
    let group = match pooled {
        Some(g) => Ok(g),
        None => {
            let layout = LAYOUT.lock().unwrap_or_else(|e| e.into_inner()).clone()?;
            let k = {
                let mut made = MADE.lock().unwrap_or_else(|e| e.into_inner());
                *made += 1;
                *made - 1
            };
            Group::make(&layout, k)
        }
    };
    let ready = group.and_then(|mut g| match g.ready(memory_kib) {
        Ok(()) => Ok(g),
        Err(e) => {
            g.remove();
            Err(e)
        }
    });
    match ready {
        Ok(g) => Some(g),
        Err(e) => {
            static SAID: OnceLock<()> = OnceLock::new();
            SAID.get_or_init(|| eprintln!("kit: cannot use a control group for a run: {e}"));
            None
        }
    }
}

/// Back to the pool, emptied (the caller killed its processes). A group
/// whose peak cannot be reset (v2 before Linux 6.12) is removed instead.
pub fn give(group: Group) {
    if group.single_use {
        return group.remove();
    }
    POOL.lock().unwrap_or_else(|e| e.into_inner()).push(group);
}

/// Removes the pooled groups, and undoes what kit changed to make them
/// (its own leaf): call when kit is done running programs.
pub fn release() {
    let groups = std::mem::take(&mut *POOL.lock().unwrap_or_else(|e| e.into_inner()));
    for g in groups {
        g.remove();
    }
    if let Some(layout) = LAYOUT.lock().unwrap_or_else(|e| e.into_inner()).take() {
        layout.undo();
    }
}

impl Layout {
    /// Undoes what was changed to make groups here.
    fn undo(&self) {
        if let Layout::V2 { plan, .. } = self {
            delegate::undo(plan, std::process::id());
        }
    }

    /// Where the groups are made, for kit's line on how it measures.
    fn place(&self) -> &Path {
        match self {
            Layout::V2 { parent, .. } => parent,
            Layout::V1 { memory, .. } => memory,
        }
    }
}

/// kit's one line on how it measures (for v2, below which group).
pub fn said() -> String {
    let mode = accounting();
    let layout = LAYOUT.lock().unwrap_or_else(|e| e.into_inner());
    match (mode, layout.as_ref()) {
        (Accounting::V2, Some(l)) => format!("{} below {}", mode.note(), l.place().display()),
        _ => mode.note().to_string(),
    }
}

/// The folders for `mode` below kit's own groups, from `/proc/self/mounts`
/// and `/proc/self/cgroup`.
fn layout(mode: Accounting) -> io::Result<Layout> {
    let mounts = fs::read_to_string("/proc/self/mounts")?;
    let own = fs::read_to_string("/proc/self/cgroup")?;
    let missing = |what: &str| io::Error::new(io::ErrorKind::NotFound, what.to_string());
    match mode {
        Accounting::V2 => {
            let mount = v2_mount(&mounts).ok_or_else(|| missing("no cgroup2 mount"))?;
            let path = own
                .lines()
                .find_map(|l| l.strip_prefix("0::"))
                .ok_or_else(|| missing("kit is in no cgroup2 group"))?;
            let own = mount.join(path.trim_start_matches('/'));
            let (kit, uid) = (std::process::id(), super::sys::euid());
            let read = |dir: &Path| delegate::Facts::read(dir, uid);
            let plan = delegate::plan(&mount, &own, kit, read)
                .map_err(|why| io::Error::new(io::ErrorKind::PermissionDenied, why))?;
            let parent = delegate::carry_out(&plan, kit)?;
            Ok(Layout::V2 { parent, plan })
        }
        _ => {
            let find = |c: &str| -> Option<PathBuf> {
                let mount = mounts.lines().find_map(|l| {
                    let f: Vec<&str> = l.split_whitespace().collect();
                    let has = f.len() > 3 && f[2] == "cgroup" && f[3].split(',').any(|o| o == c);
                    has.then(|| PathBuf::from(f[1]))
                })?;
                let path = own.lines().find_map(|l| {
                    let mut parts = l.splitn(3, ':');
                    let (_, names, path) = (parts.next()?, parts.next()?, parts.next()?);
                    names.split(',').any(|n| n == c).then_some(path)
                })?;
                Some(mount.join(path.trim_start_matches('/')))
            };
            let need = |c: &str| find(c).ok_or_else(|| missing(&format!("no v1 {c} hierarchy")));
            Ok(Layout::V1 {
                cpuacct: need("cpuacct")?,
                memory: need("memory")?,
                pids: need("pids")?,
                freezer: find("freezer"),
            })
        }
    }
}

/// Where the unified hierarchy is mounted, from `/proc/self/mounts`.
fn v2_mount(mounts: &str) -> Option<PathBuf> {
    mounts
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .find(|f| f.len() > 2 && f[2] == "cgroup2")
        .map(|f| PathBuf::from(f[1]))
}

/// The unified hierarchy's mount and kit's own group in it.
pub fn own_v2() -> Option<(PathBuf, PathBuf)> {
    let mount = v2_mount(&fs::read_to_string("/proc/self/mounts").ok()?)?;
    let own = fs::read_to_string("/proc/self/cgroup").ok()?;
    let path = own.lines().find_map(|l| l.strip_prefix("0::"))?;
    let own = mount.join(path.trim_start_matches('/'));
    Some((mount, own))
}

fn write(path: &Path, value: &str) -> io::Result<()> {
    let mut f = OpenOptions::new().write(true).open(path)?;
    f.write_all(value.as_bytes())
        .map_err(|e| io::Error::new(e.kind(), format!("{value} to {}: {e}", path.display())))
}

fn read(path: &Path) -> io::Result<String> {
    fs::read_to_string(path)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))
}

/// A number alone in a file, or after `key ` on one of its lines.
fn number(text: &str, key: Option<&str>) -> u64 {
    let value = match key {
        None => Some(text.trim()),
        Some(k) => text.lines().find_map(|l| l.strip_prefix(k)?.strip_prefix(' ')),
    };
    value.and_then(|v| v.trim().parse().ok()).unwrap_or(0)
}

impl Group {
    /// Makes group number `k` in every hierarchy of `layout` (nothing is
    /// left if one fails).
    fn make(layout: &Layout, k: usize) -> io::Result<Group> {
        let name = format!("kit-{}-{k}", std::process::id());
        let parents: Vec<&PathBuf> = match layout {
            Layout::V2 { parent, .. } => vec![parent],
            Layout::V1 { cpuacct, memory, pids, freezer } => {
                let mut p = vec![cpuacct, memory, pids];
                p.extend(freezer);
                p
            }
        };
        let mut dirs = Vec::new();
        let made = (|| -> io::Result<Group> {
            for parent in parents {
                let dir = parent.join(&name);
                fs::create_dir(&dir)
                    .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", dir.display())))?;
                keep_group(&dir);
                dirs.push(dir);
            }
            // A program joins the freezer's group only when it is stopped
            // with processes left (a move is the dearest write of a run).
            let mut attach = Vec::new();
            for dir in dirs.iter().take(3) {
                attach.push(open(dir, "cgroup.procs", true, false)?);
            }
            let birth = match layout {
                Layout::V2 { .. } => Some(File::open(&dirs[0])?),
                Layout::V1 { .. } => None,
            };
            // The folders of the CPU, memory and pids files.
            let (dialect, cpu, memory, tasks) = match layout {
                Layout::V1 { .. } => (&V1, &dirs[0], &dirs[1], &dirs[2]),
                Layout::V2 { .. } => (&V2, &dirs[0], &dirs[0], &dirs[0]),
            };
            write(&tasks.join("pids.max"), &TASK_LIMIT.to_string())?;
            let stopper = match layout {
                Layout::V2 { .. } => Stopper::Kill(dirs[0].join("cgroup.kill")),
                Layout::V1 { freezer: Some(_), .. } => Stopper::Freeze(dirs[3].clone()),
                Layout::V1 { freezer: None, .. } => Stopper::Signals,
            };
            let swap = match layout {
                Layout::V2 { .. } => Swap::Max(memory.join("memory.swap.max")),
                Layout::V1 { .. } => match memory.join("memory.memsw.limit_in_bytes") {
                    total if total.exists() => Swap::Total(total),
                    _ => Swap::None,
                },
            };
            let counters = Counters {
                cpu: open(cpu, dialect.cpu.0, dialect.cpu_resets, false)?,
                // Written to reset it, through this open file only (v2:
                // read-only before Linux 6.12).
                peak: open(memory, dialect.peak, true, dialect.peak_reset_may_fail)?,
                ooms: open(memory, dialect.ooms, false, false)?,
                usage: open(memory, dialect.usage, false, false)?,
                tasks: open(tasks, "pids.current", false, false)?,
            };
            Ok(Group {
                memory: memory.clone(),
                dirs: dirs.clone(),
                dialect,
                stopper,
                swap,
                attach,
                birth,
                counters,
                memory_limit: None,
                start_ooms: 0,
                start_cpu: Duration::ZERO,
                single_use: false,
            })
        })();
        if made.is_err() {
            for dir in dirs.iter().rev() {
                let _ = fs::remove_dir(dir);
                forget_group(dir);
            }
        }
        made
    }

    /// Resets the counters and sets the memory limit for a new run.
    fn ready(&mut self, memory_kib: Option<u64>) -> io::Result<()> {
        let limit = memory_kib.map(|k| k.saturating_mul(1024));
        let d = self.dialect;
        if self.memory_limit != limit {
            let value = limit.map_or(d.unlimited.to_string(), |b| b.to_string());
            let raising = limit.unwrap_or(u64::MAX) > self.memory_limit.unwrap_or(u64::MAX);
            if let (Swap::Total(total), true) = (&self.swap, raising) {
                write(total, &value)?;
            }
            write(&self.memory.join(d.limit), &value)?;
            match &self.swap {
                Swap::Total(total) if !raising => write(total, &value)?,
                Swap::Max(max) => {
                    let _ = write(max, if limit.is_some() { "0" } else { "max" });
                }
                _ => {}
            }
            self.memory_limit = limit;
        }
        let c = &self.counters;
        // The page cache the last runs left charged here goes first once
        // it is more than a little (emptying costs some 75 us), so that
        // each run's peak starts from (almost) nothing.
        if let Some(empty) = d.force_empty {
            if number(&pread(&c.usage), None) > LEFT_CHARGED {
                let _ = write(&self.memory.join(empty), "0");
            }
        }
        match pwrite(&c.peak, d.peak_reset) {
            // The group then serves this one run (see `give`).
            Err(_) if d.peak_reset_may_fail => self.single_use = true,
            reset => reset?,
        }
        self.start_cpu = Duration::ZERO;
        if d.cpu_resets {
            pwrite(&c.cpu, "0")?;
        } else {
            self.start_cpu = self.cpu();
        }
        self.start_ooms = number(&pread(&self.counters.ooms), Some("oom_kill"));
        Ok(())
    }

    /// The folder a child may be born in (`clone3`), where the layout and
    /// the kernel allow it.
    pub fn birthplace(&self) -> Option<&File> {
        self.birth.as_ref().filter(|_| !BIRTHS_REFUSED.load(Ordering::Relaxed))
    }

    /// The descriptors the child writes "0" to, between fork and exec, to
    /// join the group.
    pub fn attach_fds(&self) -> Vec<i32> {
        use std::os::fd::AsRawFd;
        self.attach.iter().map(|f| f.as_raw_fd()).collect()
    }

    /// The group's CPU time so far in this run.
    pub fn cpu(&mut self) -> Duration {
        let (_, key, unit) = self.dialect.cpu;
        let total = number(&pread(&self.counters.cpu), key).saturating_mul(unit);
        Duration::from_nanos(total).saturating_sub(self.start_cpu)
    }

    /// Whether no task is in the group (nor a zombie of it unreaped).
    pub fn is_empty(&self) -> bool {
        number(&pread(&self.counters.tasks), None) == 0
    }

    /// The pids in the group now.
    pub fn members(&self) -> Vec<u32> {
        let procs = self.dirs[0].join("cgroup.procs");
        fs::read_to_string(procs)
            .map(|t| t.lines().filter_map(|l| l.trim().parse().ok()).collect())
            .unwrap_or_default()
    }

    /// Kills every process of the group and waits (bounded) until none is
    /// left; returns the pids it saw, for the caller to reap its own.
    pub fn kill_all(&mut self) -> Vec<u32> {
        let mut seen = Vec::new();
        // Bounded: 2000 rounds of at most 1 ms, then whatever is left is
        // said (a process in uninterruptible sleep outlives SIGKILL).
        for round in 0..2000 {
            let members = self.members();
            if members.is_empty() {
                return seen;
            }
            for &pid in &members {
                if !seen.contains(&pid) {
                    seen.push(pid);
                }
            }
            if round % 50 == 0 {
                self.stop_at_once();
            }
            for &pid in &members {
                kill_pid(pid);
            }
            std::thread::sleep(Duration::from_micros(if round < 20 { 50 } else { 1000 }));
        }
        eprintln!("kit: processes of {} outlived SIGKILL", self.dirs[0].display());
        seen
    }

    /// Every process of the group killed at once, as far as the layout
    /// allows.
    fn stop_at_once(&self) {
        match &self.stopper {
            Stopper::Kill(kill) => {
                let _ = write(kill, "1");
            }
            Stopper::Freeze(dir) => {
                // Frozen, nothing forks between the reading and the kill;
                // thawed, the killed die. Each process left is moved into
                // the frozen group, round after round until none is
                // outside (a process frozen forks no more).
                let state = dir.join("freezer.state");
                let _ = write(&state, "FROZEN");
                let frozen = dir.join("cgroup.procs");
                for _ in 0..100 {
                    let inside = read(&frozen).unwrap_or_default();
                    let inside: Vec<&str> = inside.lines().collect();
                    let members = self.members();
                    let outside: Vec<u32> = members
                        .into_iter()
                        .filter(|p| !inside.contains(&p.to_string().as_str()))
                        .collect();
                    if outside.is_empty() {
                        break;
                    }
                    for pid in outside {
                        let _ = write(&frozen, &pid.to_string());
                    }
                }
                for _ in 0..100 {
                    if read(&state).map_or(true, |s| s.trim() != "FREEZING") {
                        break;
                    }
                    std::thread::sleep(Duration::from_micros(100));
                }
                for pid in self.members() {
                    kill_pid(pid);
                }
                let _ = write(&state, "THAWED");
            }
            Stopper::Signals => {}
        }
    }

    /// The figures of the run, once its processes are gone.
    pub fn end(&mut self) -> GroupEnd {
        let peak = number(&pread(&self.counters.peak), None) / 1024;
        let ooms = number(&pread(&self.counters.ooms), Some("oom_kill"));
        GroupEnd { cpu: self.cpu(), peak_kib: peak, oom: ooms > self.start_ooms }
    }

    /// Removes the group's folders (emptied first).
    pub fn remove(mut self) {
        if !self.members().is_empty() {
            self.kill_all();
        }
        drop(std::mem::take(&mut self.attach));
        drop(self.birth.take());
        for dir in self.dirs.iter().rev() {
            let mut gone = false;
            // A group whose last process is still exiting is busy a moment.
            for _ in 0..200 {
                if fs::remove_dir(dir).is_ok() || !dir.exists() {
                    gone = true;
                    break;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
            if gone {
                forget_group(dir);
            } else {
                eprintln!("kit: cannot remove the control group {}", dir.display());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scratch::Scratch;

    /// A group that cannot be made (here: folders that are no control
    /// groups, so the files a group has are missing) is an error that
    /// names the file, and leaves no folder behind.
    #[test]
    fn a_group_that_cannot_be_made_leaves_nothing() {
        let s = Scratch::new("cgroup");
        let dir = |name: &str| {
            let d = s.path().join(name);
            fs::create_dir(&d).unwrap();
            d
        };
        let layout = Layout::V1 {
            cpuacct: dir("cpuacct"),
            memory: dir("memory"),
            pids: dir("pids"),
            freezer: Some(dir("freezer")),
        };
        let err = Group::make(&layout, 7).err().expect("no group in plain folders");
        let name = format!("kit-{}-7", std::process::id());
        assert!(err.to_string().contains(&name), "{err}");
        for h in ["cpuacct", "memory", "pids", "freezer"] {
            assert!(!s.path().join(h).join(&name).exists(), "{h}/{name} left");
        }
    }
}
