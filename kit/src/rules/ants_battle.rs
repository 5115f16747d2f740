//! Ants' battle rules: the catalogue and where a battle exercises each,
//! from the input and `ants_battle --explain`.

use super::{Firing, Rule};

/// Every rule of the statement.
pub const RULES: &[Rule] = &[];

/// Where the battle `input` exercises each rule, from `explain` (`ants_battle
/// --explain`'s stdout).
///
/// # Errors
/// An input or explain output that cannot be read, as a message.
pub fn firings(input: &str, explain: &str) -> Result<Vec<Firing>, String> {
    let _ = (input, explain);
    Ok(Vec::new())
}
