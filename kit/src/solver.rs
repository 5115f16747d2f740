//! Where our solvers are: beside the `kit` executable by default
//! (`target/release/kit` uses `target/release/zhuguosha`; `cargo install
//! --path .` installs kit and the solvers together, in one folder), in the
//! folder named by `KIT_SOLVER_DIR`, or exactly the file given with
//! `--solver`.

use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// The environment variable naming a folder that holds our solvers.
pub const DIR_VAR: &str = "KIT_SOLVER_DIR";

/// Our solver for `problem` (its binary has the problem's name), or a
/// message that says how to get it.
///
/// # Errors
/// A usage error when `explicit` is not a file, or our solver is not built
/// where kit looks for it.
pub fn locate(problem: &str, explicit: Option<&Path>) -> Result<PathBuf> {
    if let Some(path) = explicit {
        return if path.is_file() {
            Ok(path.to_path_buf())
        } else {
            Err(Error::usage(format!("--solver {}: no such file", path.display())))
        };
    }
    let file = format!("{problem}{}", std::env::consts::EXE_SUFFIX);
    let (dir, whence) = match std::env::var_os(DIR_VAR) {
        Some(dir) => (PathBuf::from(dir), format!(" (from {DIR_VAR})")),
        None => {
            let exe = std::env::current_exe().map_err(|e| {
                Error::usage(format!("cannot tell where kit itself is ({e}); pass --solver PATH"))
            })?;
            let dir = exe.parent().map(Path::to_path_buf).unwrap_or_default();
            (dir, " (beside kit)".to_string())
        }
    };
    let path = dir.join(file);
    if path.is_file() {
        Ok(path)
    } else {
        Err(Error::usage(format!(
            "our solver {problem} is not at {}{whence}: build them with `cargo build --release` \
             (or pass --solver PATH, or set {DIR_VAR})",
            crate::cases::display(&path)
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scratch::Scratch;

    #[test]
    fn an_explicit_solver_must_exist() {
        let dir = Scratch::new("solver");
        let file = dir.write("mine", "");
        assert_eq!(locate("zhuguosha", Some(&file)).unwrap(), file);
        let missing = dir.path().join("nothing");
        let err = locate("zhuguosha", Some(&missing)).unwrap_err().to_string();
        assert!(err.starts_with("--solver ") && err.ends_with(": no such file"), "{err}");
    }

    #[test]
    fn a_missing_solver_says_how_to_build_it() {
        // The unit test binary lives in target/*/deps, where no solver is.
        let err = locate("no_such_problem", None).unwrap_err().to_string();
        assert!(err.contains("build them with `cargo build --release`"), "{err}");
    }
}
