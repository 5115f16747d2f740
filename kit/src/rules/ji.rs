//! 集's rules: the catalogue (one for the referee and the solver) and where
//! a game exercises each.

use super::{Firing, Rule};

/// Every rule of the statement.
pub const RULES: &[Rule] = &[];

/// Where the refereed game `input` exercises each rule, from `trace`
/// (`ji_referee --trace`'s stderr).
///
/// # Errors
/// An input or trace that cannot be read, as a message.
pub fn referee_firings(input: &[u8], trace: &str) -> Result<Vec<Firing>, String> {
    let _ = (input, trace);
    Ok(Vec::new())
}

/// Where the solved game `input` exercises each rule (`ji_solver
/// --strategy`'s stdout in `strategy`).
///
/// # Errors
/// An input that cannot be read, as a message.
pub fn solver_firings(input: &[u8], strategy: &str) -> Result<Vec<Firing>, String> {
    let _ = (input, strategy);
    Ok(Vec::new())
}
