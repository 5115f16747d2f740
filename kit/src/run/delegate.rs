//! Where kit may make its cgroup v2 groups: the delegation its user has.
//!
//! The kernel's no-internal-process rule: a group other than the root
//! that hands controllers down to child groups may hold no process
//! itself. On a desktop, kit runs in a leaf beside its shell
//! (`user@UID.service/app.slice/...scope`, or an SSH login's
//! `session-N.scope`), which therefore cannot hold groups with the
//! `memory` and `pids` controllers. So kit looks, from its own group
//! upwards, for the nearest group that
//!
//! - its user owns (the folder, its `cgroup.procs` and its
//!   `cgroup.subtree_control`: systemd hands these to the user of a
//!   delegated unit, such as `user@UID.service`), and it never climbs past
//!   one it does not own;
//! - lists `memory` and `pids` in `cgroup.controllers`;
//! - hands them down already, or holds no process so that kit may enable
//!   them ([`Plan::Enable`]), or is kit's own group with kit alone in it,
//!   as in a scope asked of systemd for kit ([`Plan::Leaf`]: kit first
//!   moves into a leaf of its own, `kit-PID`, then enables them).
//!
//! The decision is a function of the groups' facts ([`plan`]), read from
//! any root, so that tests lay out a desktop's tree in a temporary folder;
//! [`carry_out`] then makes the writes the plan asks for.
//!
//! Where no such group exists, [`in_a_scope`] asks systemd for one before
//! kit does anything else: `systemd-run --user --scope -p Delegate=yes`
//! runs kit again in a transient scope of its own (as rootless podman and
//! crun ask for theirs), where kit is alone.

use std::fs;
use std::io;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// The controllers a run's group needs (the CPU time is in every group's
/// `cpu.stat`).
pub const NEEDED: [&str; 2] = ["memory", "pids"];

/// What kit reads of one group to decide.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Facts {
    /// Whether kit's user owns the folder, its `cgroup.procs` and its
    /// `cgroup.subtree_control` (root owns all).
    pub owned: bool,
    /// `cgroup.controllers`: what it may hand down.
    pub controllers: Vec<String>,
    /// `cgroup.subtree_control`: what it hands down.
    pub subtree: Vec<String>,
    /// `cgroup.procs`: the processes in it.
    pub procs: Vec<u32>,
}

impl Facts {
    /// The facts of group `dir` for the user `uid`.
    ///
    /// # Errors
    /// The `io::Error` of a file of the group that cannot be read.
    pub fn read(dir: &Path, uid: u32) -> io::Result<Facts> {
        let words = |name: &str| -> io::Result<Vec<String>> {
            let text = fs::read_to_string(dir.join(name))?;
            Ok(text.split_whitespace().map(str::to_string).collect())
        };
        let owner = |path: &Path| fs::metadata(path).map(|m| m.uid());
        let mut owned = uid == 0;
        if !owned {
            owned = true;
            for path in
                [dir.to_path_buf(), dir.join("cgroup.procs"), dir.join("cgroup.subtree_control")]
            {
                owned &= owner(&path)? == uid;
            }
        }
        let procs = words("cgroup.procs")?.iter().filter_map(|p| p.parse().ok()).collect();
        Ok(Facts {
            owned,
            controllers: words("cgroup.controllers")?,
            subtree: words("cgroup.subtree_control")?,
            procs,
        })
    }

    fn has(list: &[String]) -> bool {
        NEEDED.iter().all(|c| list.iter().any(|x| x == c))
    }
}

/// Where kit's run groups go, and what kit must write first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Plan {
    /// Below this group, which hands `memory` and `pids` down already.
    Below(PathBuf),
    /// Below this group, once kit enabled `memory` and `pids` in its
    /// `cgroup.subtree_control` (it holds no process, or is the root).
    Enable(PathBuf),
    /// Below kit's own group, which holds kit alone: kit moves into a
    /// leaf `kit-PID` of it, then enables the controllers.
    Leaf(PathBuf),
}

impl Plan {
    /// The group the run groups are made in.
    pub fn parent(&self) -> &Path {
        match self {
            Plan::Below(p) | Plan::Enable(p) | Plan::Leaf(p) => p,
        }
    }
}

/// The nearest group from kit's own, `own`, up to the hierarchy's root,
/// `mount`, that can hold kit's run groups, and how; or why none can (the
/// reason of kit's own group, which is what a user can change). `kit` is
/// kit's pid; `facts` reads a group.
///
/// # Errors
/// One line saying why no group will do.
pub fn plan(
    mount: &Path,
    own: &Path,
    kit: u32,
    facts: impl Fn(&Path) -> io::Result<Facts>,
) -> Result<Plan, String> {
    let mut why: Option<String> = None;
    let mut dir = own.to_path_buf();
    loop {
        let f = facts(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let root = dir == mount;
        let refused = if !f.owned {
            Some(format!("{} is not kit's user's", dir.display()))
        } else if let Some(c) = NEEDED.iter().find(|c| !f.controllers.iter().any(|x| x == *c)) {
            Some(format!("the {c} controller is not delegated to {}", dir.display()))
        } else if Facts::has(&f.subtree) && (root || f.procs.is_empty()) {
            return Ok(Plan::Below(dir));
        } else if root || f.procs.is_empty() {
            return Ok(Plan::Enable(dir));
        } else if dir == own && f.procs == [kit] {
            return Ok(Plan::Leaf(dir));
        } else {
            Some(format!(
                "{} holds other processes, so it cannot hold groups with controllers",
                dir.display()
            ))
        };
        let stop = !f.owned || root;
        if let (None, Some(r)) = (&why, refused) {
            why = Some(r);
        }
        match dir.parent() {
            Some(up) if !stop && dir.starts_with(mount) => dir = up.to_path_buf(),
            _ => break,
        }
    }
    let why = why.unwrap_or_else(|| format!("no group below {} will do", mount.display()));
    Err(match dir.as_path() == own {
        true => why,
        false => format!("{why}, nor to a group above it that kit's user owns"),
    })
}

/// The name of kit's own leaf in [`Plan::Leaf`].
pub fn leaf_name(kit: u32) -> String {
    format!("kit-{kit}")
}

/// Makes the writes `plan` asks for: kit (`kit`, with its threads) moved
/// into its leaf, the controllers enabled. Returns the parent of the run
/// groups.
///
/// # Errors
/// The `io::Error` of a write the kernel refused (nothing is left made:
/// kit moved back, its leaf removed).
pub fn carry_out(plan: &Plan, kit: u32) -> io::Result<PathBuf> {
    let parent = plan.parent().to_path_buf();
    let enable = |dir: &Path| {
        let control = dir.join("cgroup.subtree_control");
        let on: String = NEEDED.iter().map(|c| format!("+{c} ")).collect();
        fs::write(&control, on.trim_end()).map_err(|e| {
            let what =
                format!("cannot hand the memory and pids controllers down in {}", dir.display());
            io::Error::new(e.kind(), format!("{what}: {e}"))
        })
    };
    match plan {
        Plan::Below(_) => {}
        Plan::Enable(dir) => enable(dir)?,
        Plan::Leaf(dir) => {
            let leaf = dir.join(leaf_name(kit));
            let made = fs::create_dir(&leaf)
                .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", leaf.display())));
            made?;
            let moved = fs::write(leaf.join("cgroup.procs"), kit.to_string())
                .map_err(|e| {
                    io::Error::new(
                        e.kind(),
                        format!("cannot move kit into {}: {e}", leaf.display()),
                    )
                })
                .and_then(|()| enable(dir));
            if let Err(e) = moved {
                let _ = fs::write(dir.join("cgroup.procs"), kit.to_string());
                let _ = fs::remove_dir(&leaf);
                return Err(e);
            }
            // Should kit be killed, the keeper (started in the leaf now)
            // takes itself out of the leaf and removes it.
            super::guard::keep_leaf(&leaf);
        }
    }
    Ok(parent)
}

/// Undoes [`Plan::Leaf`] once kit's run groups are removed: the
/// controllers handed down no more, kit back in its own group, its leaf
/// removed. Nothing for the other plans.
pub fn undo(plan: &Plan, kit: u32) {
    if let Plan::Leaf(dir) = plan {
        let off: String = NEEDED.iter().map(|c| format!("-{c} ")).collect();
        let _ = fs::write(dir.join("cgroup.subtree_control"), off.trim_end());
        let leaf = dir.join(leaf_name(kit));
        // kit, and the keeper it started there, back in kit's own group.
        let inside = fs::read_to_string(leaf.join("cgroup.procs")).unwrap_or_default();
        let pids = inside.lines().map(str::to_string).chain([kit.to_string()]);
        for pid in pids {
            let _ = fs::write(dir.join("cgroup.procs"), pid);
        }
        if fs::remove_dir(&leaf).is_err() && leaf.exists() {
            eprintln!("kit: cannot remove the control group {}", leaf.display());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scratch::Scratch;

    /// A group of a fake tree: its folder and files, as the kernel shows
    /// them.
    fn group(root: &Path, rel: &str, controllers: &str, subtree: &str, procs: &[u32]) -> PathBuf {
        let dir = root.join(rel);
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("cgroup.controllers"), controllers).unwrap();
        fs::write(dir.join("cgroup.subtree_control"), subtree).unwrap();
        let procs: String = procs.iter().map(|p| format!("{p}\n")).collect();
        fs::write(dir.join("cgroup.procs"), procs).unwrap();
        dir
    }

    /// Facts read from the fake tree, owned by kit's user below `owned`.
    fn reader(owned: PathBuf) -> impl Fn(&Path) -> io::Result<Facts> {
        move |dir: &Path| {
            let mut f = Facts::read(dir, 0)?;
            f.owned = dir.starts_with(&owned);
            Ok(f)
        }
    }

    const KIT: u32 = 700;

    /// A desktop as systemd lays it out: user@1000.service owned by the
    /// user, handing cpu, memory and pids down; kit in a terminal's scope
    /// beside its shell.
    fn desktop(root: &Path, service_subtree: &str) -> (PathBuf, PathBuf) {
        let all = "cpuset cpu io memory pids";
        group(root, "", all, "cpu io memory pids", &[1]);
        group(root, "user.slice", all, "cpu memory pids", &[]);
        group(root, "user.slice/user-1000.slice", "cpu memory pids", "cpu memory pids", &[]);
        let service = group(
            root,
            "user.slice/user-1000.slice/user@1000.service",
            "cpu memory pids",
            service_subtree,
            &[],
        );
        group(root, "user.slice/user-1000.slice/user@1000.service/init.scope", "", "", &[800]);
        let term = group(
            root,
            "user.slice/user-1000.slice/user@1000.service/term.scope",
            "cpu memory pids",
            "",
            &[650, KIT],
        );
        (service, term)
    }

    #[test]
    fn a_desktop_user_gets_groups_below_the_user_service() {
        let s = Scratch::new("delegate");
        let root = s.path().to_path_buf();
        let (service, term) = desktop(&root, "cpu memory pids");
        let got = plan(&root, &term, KIT, reader(service.clone()));
        assert_eq!(got, Ok(Plan::Below(service.clone())));
        // A service that hands nothing down yet, and holds no process:
        // kit enables the controllers there.
        let s = Scratch::new("delegate");
        let root = s.path().to_path_buf();
        let (service, term) = desktop(&root, "");
        let got = plan(&root, &term, KIT, reader(service.clone()));
        assert_eq!(got, Ok(Plan::Enable(service.clone())));
        assert_eq!(carry_out(&got.unwrap(), KIT).unwrap(), service);
        let written = fs::read_to_string(service.join("cgroup.subtree_control")).unwrap();
        assert_eq!(written, "+memory +pids");
    }

    /// An SSH login's session scope is root's: nothing is delegated, and
    /// kit never climbs past a group its user does not own.
    #[test]
    fn a_group_not_owned_is_never_used() {
        let s = Scratch::new("delegate");
        let root = s.path().to_path_buf();
        desktop(&root, "cpu memory pids");
        let session = group(
            &root,
            "user.slice/user-1000.slice/session-3.scope",
            "cpu memory pids",
            "",
            &[640, KIT],
        );
        let nobody = root.join("nothing-is-owned");
        let got = plan(&root, &session, KIT, reader(nobody));
        let why = got.unwrap_err();
        assert!(why.contains("session-3.scope is not kit's user's"), "{why}");
    }

    /// Partial delegation: memory handed to the user's service, pids not.
    #[test]
    fn a_partial_delegation_is_refused_in_one_line() {
        let s = Scratch::new("delegate");
        let root = s.path().to_path_buf();
        let (service, term) = desktop(&root, "cpu memory");
        for dir in [&service, &term] {
            fs::write(dir.join("cgroup.controllers"), "cpu memory").unwrap();
        }
        let why = plan(&root, &term, KIT, reader(service)).unwrap_err();
        assert!(why.starts_with("the pids controller is not delegated to "), "{why}");
        assert!(why.contains("term.scope, nor to a group above it"), "{why}");
        assert_eq!(why.lines().count(), 1);
    }

    /// A scope asked of systemd for kit holds kit alone: kit moves into a
    /// leaf of its own, then enables the controllers for its runs.
    #[test]
    fn kit_alone_in_its_scope_moves_into_a_leaf() {
        let s = Scratch::new("delegate");
        let root = s.path().to_path_buf();
        let (service, _) = desktop(&root, "cpu memory pids");
        let scope = group(
            &root,
            "user.slice/user-1000.slice/user@1000.service/app.slice",
            "cpu memory pids",
            "cpu memory pids",
            &[],
        );
        let scope = group(
            &root,
            &format!("{}/run-u7.scope", scope.strip_prefix(&root).unwrap().display()),
            "cpu memory pids",
            "",
            &[KIT],
        );
        let got = plan(&root, &scope, KIT, reader(service)).unwrap();
        assert_eq!(got, Plan::Leaf(scope.clone()));
        assert_eq!(carry_out(&got, KIT).unwrap(), scope);
        let leaf = scope.join("kit-700");
        assert_eq!(fs::read_to_string(leaf.join("cgroup.procs")).unwrap(), "700");
        assert_eq!(
            fs::read_to_string(scope.join("cgroup.subtree_control")).unwrap(),
            "+memory +pids"
        );
        // In a fake tree the leaf's files are kit's, so only the
        // controllers and the move are undone here.
        undo(&got, KIT);
        assert_eq!(fs::read_to_string(scope.join("cgroup.procs")).unwrap(), "700");
        assert_eq!(
            fs::read_to_string(scope.join("cgroup.subtree_control")).unwrap(),
            "-memory -pids"
        );
    }

    /// Root in the root group (a VM, a container): the root may hold
    /// processes and hand controllers down at once.
    #[test]
    fn root_in_the_root_group_uses_it() {
        let s = Scratch::new("delegate");
        let root = s.path().to_path_buf();
        group(&root, "", "cpu memory pids", "", &[1, KIT]);
        assert_eq!(plan(&root, &root, KIT, reader(root.clone())), Ok(Plan::Enable(root.clone())));
        fs::write(root.join("cgroup.subtree_control"), "memory pids").unwrap();
        assert_eq!(plan(&root, &root, KIT, reader(root.clone())), Ok(Plan::Below(root.clone())));
    }

    /// A leaf that holds other processes, under a parent that is not the
    /// user's: refused, saying why.
    #[test]
    fn a_shared_leaf_without_delegation_above_is_refused() {
        let s = Scratch::new("delegate");
        let root = s.path().to_path_buf();
        group(&root, "", "cpu memory pids", "memory pids", &[1]);
        let leaf = group(&root, "box", "memory pids", "", &[5, KIT]);
        let why = plan(&root, &leaf, KIT, reader(leaf.clone())).unwrap_err();
        assert!(why.contains("box holds other processes"), "{why}");
        assert!(why.ends_with("nor to a group above it that kit's user owns"), "{why}");
    }
}
