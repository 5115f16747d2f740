//! The problem's hand-written description: `problem.yaml` and
//! `problem_statement/`, copied as they are from kit/packages/PROBLEM/.

use super::files::{copy_tree, put, read};
use super::Sources;
use crate::error::{Error, Result};
use std::path::Path;

/// The line of problem.yaml that makes a judge run our output validator.
const CUSTOM_VALIDATION: &str = "validation: custom";

/// Writes problem.yaml and problem_statement/ below `root`.
///
/// # Errors
///
/// A file that cannot be read or written (`Error::Read`, `Error::Write`),
/// or a problem.yaml without the `validation: custom` line
/// (`Error::Package`: a judge would then ignore our output validator, and
/// verifyproblem errs).
pub fn write(sources: &Sources, root: &Path) -> Result<()> {
    let yaml_path = sources.content.join("problem.yaml");
    let yaml = read(&yaml_path)?;
    if !yaml.lines().any(|line| line.trim_end() == CUSTOM_VALIDATION) {
        return Err(Error::package(format!(
            "{}: no `{CUSTOM_VALIDATION}` line, so a judge would not run the package's \
             output validator",
            yaml_path.display()
        )));
    }
    put(&root.join("problem.yaml"), yaml.as_bytes())?;
    copy_tree(&sources.content.join("problem_statement"), &root.join("problem_statement"))
}
