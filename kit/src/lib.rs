//! The judge kit: seeded input generators for every problem (`gen`), a
//! local judge for any program (`judge`), and stress testing that shrinks
//! the failing input (`stress`). The comparison rule here is the one the
//! repository's own tests use.

pub mod cases;
pub mod compare;
pub mod problems;
pub mod rng;
pub mod run;
pub mod scratch;
