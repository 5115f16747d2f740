//! The 集 variant format, read by its master src/shared/ji_variant.rs
//! (the reader ji_referee and ji_solver hold a copy of), with the errors
//! that reader reports through `bad` and `bad_at`; `variant::parse_variant`
//! calls it and builds the trainer's own `Variant`.

/// The shared block's failure: line, what.
pub(crate) struct Failure {
    pub(crate) line: usize,
    pub(crate) what: String,
}

fn bad<T>(line: usize, what: String) -> Result<T, Failure> {
    Err(Failure { line, what })
}

/// For --strict, which ji never sets.
fn bad_at<T>(line: usize, column: usize, what: String) -> Result<T, Failure> {
    bad(line, format!("column {}: {}", column, what))
}

// The reader quotes tokens with the shared `show`, as in every solver.
use crate::show::show;

#[path = "../../shared/ji_variant.rs"]
mod ji_variant;

pub(crate) use ji_variant::*;
