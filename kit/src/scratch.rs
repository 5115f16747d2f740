//! Support for the kit's tests and the repository's (one module, not
//! helpers repeated per test file): fresh temporary folders removed when
//! dropped, executable scripts in them, and CPU hogs that simulate a busy
//! machine. Test support only: compiled for `cfg(test)` and with the
//! `test-support` feature (the root's dev-dependency), never in kit
//! itself; above `run` (whose own tests do not use it), so any other
//! module's tests may use it.

use crate::run::Cmd;
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

/// A scratch folder stands where a path does (`dir.join`, `&dir`).
impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

/// `sh -c SCRIPT`: a test's program or solver in one line.
pub fn sh(script: &str) -> Cmd {
    Cmd::shell(script)
}

/// Compiles a copy of the Rust program `source` with one change, into
/// `dir`: a planted bug. `anchor` must occur exactly once; it becomes
/// `replacement`, or with `into_body` `replacement` goes right after the
/// first `{` that follows it (the start of a function's body, whatever its
/// parameters). Opt-level 0 compiles fastest; `$RUSTC` or `rustc`.
///
/// # Panics
/// If the anchor is not there exactly once (the program changed: update
/// the patch), or the copy does not compile.
pub fn build_patched(
    source: &Path,
    anchor: &str,
    replacement: &str,
    into_body: bool,
    dir: &Scratch,
) -> PathBuf {
    let text = std::fs::read_to_string(source)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", source.display()));
    assert_eq!(
        text.matches(anchor).count(),
        1,
        "a planted bug needs the text `{anchor}` exactly once in {}; the program changed: \
         update the patch",
        source.display()
    );
    let patched = if into_body {
        let at = text.find(anchor).expect("counted above");
        let brace = at + text[at..].find('{').expect("a body after the anchor") + 1;
        format!("{}{replacement}{}", &text[..brace], &text[brace..])
    } else {
        text.replacen(anchor, replacement, 1)
    };
    let stem = source.file_stem().map_or("planted".into(), |s| s.to_string_lossy());
    let file = dir.write(&format!("{stem}.rs"), &patched);
    let exe = dir.path().join(format!("planted_{stem}"));
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let out = std::process::Command::new(rustc)
        .args(["--edition", "2021", "-C", "opt-level=0", "-A", "warnings", "-o"])
        .arg(&exe)
        .arg(&file)
        .output()
        .expect("rustc runs");
    assert!(
        out.status.success(),
        "the planted {stem} does not compile:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}
