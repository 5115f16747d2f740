//! Support for the kit's tests and the repository's (one module, not
//! helpers repeated per test file): fresh temporary folders removed when
//! dropped, executable scripts in them, and CPU hogs that simulate a busy
//! machine.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

static NEXT: AtomicUsize = AtomicUsize::new(0);

/// A new empty folder under the system's temporary directory, unique to
/// this process and call; removed (with its contents) on drop.
pub struct Scratch(PathBuf);

impl Scratch {
    /// # Panics
    /// If the folder cannot be created (no usable temporary directory).
    pub fn new(tag: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!(
            "kit-{tag}-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir)
            .unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
        Scratch(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    /// Writes `text` to `rel` below the folder, creating subfolders.
    ///
    /// # Panics
    /// If the file cannot be written.
    pub fn write(&self, rel: &str, text: &str) -> PathBuf {
        let path = self.0.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create scratch subfolder");
        }
        std::fs::write(&path, text)
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
        path
    }
}

impl Scratch {
    /// Writes an executable script to `rel` (mode 755).
    ///
    /// # Panics
    /// If the file cannot be written.
    #[cfg(unix)]
    pub fn executable(&self, rel: &str, script: &str) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let path = self.write(rel, script);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
            .unwrap_or_else(|e| panic!("cannot chmod {}: {e}", path.display()));
        path
    }
}

/// Busy loops, `count` of them, that keep the machine's cores loaded while
/// they live: a test's way to simulate a busy machine. Each is one `sh`
/// process (no child to leave behind when it is killed) counting to a
/// bound, so none runs for ever even if a test dies without dropping them.
pub struct Hogs(Vec<std::process::Child>);

impl Hogs {
    /// # Panics
    /// If `sh` cannot start.
    pub fn start(count: usize) -> Hogs {
        let hogs = (0..count)
            .map(|_| {
                std::process::Command::new("sh")
                    .args(["-c", "i=0; while [ $i -lt 200000000 ]; do i=$((i+1)); done"])
                    .stdin(std::process::Stdio::null())
                    .stdout(std::process::Stdio::null())
                    .stderr(std::process::Stdio::null())
                    .spawn()
                    .expect("sh starts")
            })
            .collect();
        Hogs(hogs)
    }
}

impl Drop for Hogs {
    fn drop(&mut self) {
        for hog in &mut self.0 {
            let _ = hog.kill();
            let _ = hog.wait();
        }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
