//! 集 (波波攒): the two problems `ji_referee` and `ji_solver`, whose inputs
//! both open with a variant. One room each: `variant` (the variant and its
//! text), `random` (random variants), `referee` and `solver` (each
//! problem's input, profiles, generator, shrinker and page).

mod random;
mod referee;
mod solver;
mod variant;

pub use referee::JiReferee;
pub use solver::JiSolver;

#[cfg(test)]
mod tests;
