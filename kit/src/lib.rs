//! The judge kit: seeded input generators for every problem (`gen`), a
//! local judge for any program (`judge`), and stress testing that shrinks
//! the failing input (`stress`). The comparison rule here is the one the
//! repository's own tests use. `docs/kit.md` describes it all.

pub mod cases;
pub mod cli;
pub mod compare;
pub mod diagnose;
pub mod error;
pub mod gen;
pub mod ji;
pub mod judge;
pub mod package;
pub mod pages;
pub mod problems;
pub mod rng;
pub mod rules;
pub mod run;
#[cfg(any(test, feature = "test-support"))]
pub mod scratch;
pub mod show;
pub mod solver;
pub mod stress;
