//! `submissions/`: our solver as the accepted one, and the planted
//! submissions of kit/packages/PROBLEM/submissions/VERDICT/ and
//! kit/packages/every_problem/submissions/VERDICT/, each a whole `NAME.rs`
//! copied or a `NAME.edit` applied to our solver ([`apply_edit`]).

use super::edit::apply_edit;
use super::files::{copy_file, put, read, sorted_files};
use super::Sources;
use crate::error::{Error, Result};
use std::path::Path;

/// The verdict folders a planted submission may sit in.
const VERDICTS: [&str; 4] = ["wrong_answer", "time_limit_exceeded", "run_time_error", "accepted"];

/// Writes the submissions below `root`; returns how many.
///
/// # Errors
///
/// A file that cannot be read or written (`Error::Read`, `Error::Write`),
/// or an `.edit` that does not apply to our solver (`Error::Package`, the
/// file named).
pub fn write(sources: &Sources, root: &Path) -> Result<usize> {
    let name = sources.name;
    put(&root.join(format!("submissions/accepted/{name}.rs")), sources.solver.as_bytes())?;
    let mut count = 1;
    let every_problem = sources.repo.join("kit/packages/every_problem/submissions");
    for verdict in VERDICTS {
        let mut planted = sorted_files(&sources.content.join("submissions").join(verdict))?;
        planted.extend(sorted_files(&every_problem.join(verdict))?);
        let target = root.join("submissions").join(verdict);
        for file in planted {
            let file_name = file.file_name().unwrap_or_default().to_string_lossy().to_string();
            if let Some(stem) = file_name.strip_suffix(".edit") {
                let planted = apply_edit(&sources.solver, &read(&file)?)
                    .map_err(|e| Error::package(format!("{}: {e}", file.display())))?;
                put(&target.join(format!("{stem}.rs")), planted.as_bytes())?;
            } else {
                copy_file(&file, &target.join(&file_name))?;
            }
            count += 1;
        }
    }
    Ok(count)
}
