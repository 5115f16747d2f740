//! The file operations the package's rooms share, each error naming the
//! path and what kit was doing to it.

use crate::error::{Error, Result};
use std::fs::{self, DirEntry};
use std::path::{Path, PathBuf};

/// A text file of the repository.
///
/// # Errors
/// `Error::Read` naming the path, when it cannot be read or is not UTF-8.
pub fn read(path: &Path) -> Result<String> {
    fs::read_to_string(path).map_err(|e| Error::read(path.display(), e))
}

/// A file's bytes.
///
/// # Errors
/// `Error::Read` naming the path, when it cannot be read.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>> {
    fs::read(path).map_err(|e| Error::read(path.display(), e))
}

/// Writes `bytes` to `path`, creating its folders.
///
/// # Errors
/// `Error::Write` naming the folder (`create`) or the file, when either
/// cannot be made.
pub fn put(path: &Path, bytes: &[u8]) -> Result<()> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).map_err(|e| Error::writing("create", parent.display(), e))?;
    }
    fs::write(path, bytes).map_err(|e| Error::write(path.display(), e))
}

/// Copies the file `from` to `to`, creating `to`'s folders.
///
/// # Errors
/// `Error::Read` naming `from`, or `Error::Write` naming `to` or a folder
/// of it ([`put`]).
pub fn copy_file(from: &Path, to: &Path) -> Result<()> {
    put(to, &read_bytes(from)?)
}

/// Copies the folder `from` to `to`, below it all.
///
/// # Errors
/// The first `Error::Read` or `Error::Write` of [`entries`] and
/// [`copy_file`], naming its path; what was copied before it stays.
///
/// Linear in the bytes below `from`; recursion as deep as its folders.
pub fn copy_tree(from: &Path, to: &Path) -> Result<()> {
    for entry in entries(from)? {
        let path = entry.path();
        let target = to.join(entry.file_name());
        if path.is_dir() {
            copy_tree(&path, &target)?;
        } else {
            copy_file(&path, &target)?;
        }
    }
    Ok(())
}

/// The entries of the folder `dir`, in the system's order.
///
/// # Errors
/// `Error::Read` naming `dir`, when it cannot be listed.
pub fn entries(dir: &Path) -> Result<Vec<DirEntry>> {
    let unreadable = |e| Error::read(dir.display(), e);
    fs::read_dir(dir).map_err(unreadable)?.map(|entry| entry.map_err(unreadable)).collect()
}

/// The files directly in `dir`, sorted; none if it does not exist.
///
/// # Errors
/// `Error::Read` naming `dir`, when it exists but cannot be listed.
pub fn sorted_files(dir: &Path) -> Result<Vec<PathBuf>> {
    if !dir.is_dir() {
        return Ok(Vec::new());
    }
    let mut files: Vec<PathBuf> =
        entries(dir)?.iter().map(DirEntry::path).filter(|path| path.is_file()).collect();
    files.sort();
    Ok(files)
}

/// The bytes of every file below `dir`.
///
/// # Errors
/// `Error::Read` naming the folder or file whose listing or metadata
/// cannot be read.
pub fn tree_bytes(dir: &Path) -> Result<u64> {
    let mut total = 0;
    for entry in entries(dir)? {
        let path = entry.path();
        let meta = entry.metadata().map_err(|e| Error::read(path.display(), e))?;
        total += if meta.is_dir() { tree_bytes(&path)? } else { meta.len() };
    }
    Ok(total)
}

/// Makes `path` executable (rwxr-xr-x), as a build script must be.
///
/// # Errors
/// `Error::Write` (`make executable`) naming `path`, when its mode cannot
/// be set.
pub fn make_executable(path: &Path) -> Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(path, fs::Permissions::from_mode(0o755))
            .map_err(|e| Error::writing("make executable", path.display(), e))?;
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

/// Whether `path` is executable by its owner (never, off Unix).
///
/// # Errors
/// `Error::Read` naming `path`, when its metadata cannot be read.
pub fn is_executable(path: &Path) -> Result<bool> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let meta = fs::metadata(path).map_err(|e| Error::read(path.display(), e))?;
        Ok(meta.permissions().mode() & 0o100 != 0)
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        Ok(false)
    }
}
