//! Saving a shrunk failure: the input as `NAME.in` and our answer beside
//! it as `NAME.out`, ready for `kit judge --dir`.

use super::trial::Failure;
use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// Where a failure was written.
pub struct Saved {
    pub in_path: PathBuf,
    pub out_path: PathBuf,
}

/// Writes `failure` as `DIR/NAME.in` and `DIR/NAME.out`, making `dir` if
/// it is missing.
///
/// # Errors
/// A write error naming the folder or file that cannot be written.
pub fn save(dir: &Path, name: &str, failure: &Failure) -> Result<Saved> {
    let base = dir.join(name);
    let (in_path, out_path) = (base.with_extension("in"), base.with_extension("out"));
    std::fs::create_dir_all(dir).map_err(|e| Error::writing("create", dir.display(), e))?;
    for (path, bytes) in
        [(&in_path, failure.input.as_bytes()), (&out_path, &failure.ours.stdout[..])]
    {
        std::fs::write(path, bytes).map_err(|e| Error::write(path.display(), e))?;
    }
    Ok(Saved { in_path, out_path })
}
