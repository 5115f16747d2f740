//! Shrinking one failing case: the first of [`Problem::shrink`]'s
//! candidates on which our solver exits 0 and the program fails the same
//! way is kept, and the shrinker asked again, until no candidate fails or
//! the [`Budget`] is spent; then the smallest failing input found so far
//! is the result, and says that it was cut short.
//!
//! A failure by time must repeat on a second run of a candidate to be kept
//! (a timeout by chance would lead the shrinking astray), and the final
//! case is run once more; if it does not fail again, the case as first
//! found is the result, with a note.
//!
//! [`Problem::shrink`]: crate::problems::Problem::shrink

use super::progress::Progress;
use super::trial::{times, Failure, Trial};
use crate::error::Result;
use std::collections::HashSet;
use std::time::{Duration, Instant};

/// The candidates one failing case's shrinking tries at most, whatever
/// the time (a shrinker that keeps offering equally large inputs).
pub const MAX_TRIES: usize = 20_000;

/// The default `--shrink-time`: far more than a wrong answer needs (the
/// planted programs of tests/kit.rs shrink in 0.8 s at most, measured on
/// 2026-12-02), and a minute, so that a stress run stays interactive when
/// each candidate runs to the time limit (a TLE case took 1,100 s to
/// shrink without a budget).
pub const SHRINK_TIME: Duration = Duration::from_secs(60);

/// How long shrinking one failing case may go on. The time is wall time,
/// looked at before each candidate: a candidate started is finished (by a
/// failure by time, in at most two runs to the time limit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// `--shrink-time`.
    pub time: Duration,
    /// Candidates tried at most.
    pub candidates: usize,
}

impl Budget {
    /// A budget of `time`, and [`MAX_TRIES`] candidates.
    pub fn time(time: Duration) -> Budget {
        Budget { time, candidates: MAX_TRIES }
    }

    /// What is spent after `took` and `tried` candidates, if anything.
    fn spent(&self, took: Duration, tried: usize) -> Option<Stop> {
        if took >= self.time {
            Some(Stop::Time(self.time))
        } else if tried >= self.candidates {
            Some(Stop::Candidates(self.candidates))
        } else {
            None
        }
    }
}

impl Default for Budget {
    fn default() -> Budget {
        Budget::time(SHRINK_TIME)
    }
}

/// The part of the budget that stopped shrinking while candidates were
/// left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    Time(Duration),
    Candidates(usize),
}

impl Stop {
    /// For the report: `--shrink-time 60 s`, `20000 candidates`.
    pub fn said(self) -> String {
        match self {
            Stop::Time(time) => format!("--shrink-time {} s", time.as_secs_f64()),
            Stop::Candidates(n) => format!("{n} candidates"),
        }
    }
}

/// The case as first found, before shrinking.
pub struct AsFound {
    /// The generated case it comes from.
    pub index: u64,
    pub size: usize,
    /// What went wrong on it.
    pub what: String,
    /// The program's times on it.
    pub times: String,
}

/// A failure shrunk.
pub struct Shrunk {
    pub found: AsFound,
    /// The smallest failing input (for a failure by time, one that failed
    /// again on the last run).
    pub best: Failure,
    /// Candidates kept, and tried.
    pub steps: usize,
    pub tried: usize,
    /// Wall time spent shrinking.
    pub took: Duration,
    /// Set when the budget stopped shrinking with candidates left: `best`
    /// is then the smallest so far, not the end.
    pub stopped: Option<Stop>,
    /// The size of the shrunk case when it did not fail again on its last
    /// run (a failure by time): `best` is then the case as first found.
    pub unconfirmed: Option<usize>,
}

/// Shrinks `found` within `budget`, with the progress shown meanwhile.
///
/// # Errors
/// The errors of running ours or theirs on a candidate.
///
/// At most the budget's candidates, each two runs (a failure by time one
/// more to confirm it).
pub fn shrink(
    t: &Trial,
    found: Failure,
    budget: Budget,
    progress: &mut Progress,
) -> Result<Shrunk> {
    let name = t.problem.name();
    let as_found = AsFound {
        index: found.index,
        size: found.input.len(),
        what: found.what.clone(),
        times: times(&found.theirs),
    };
    // A failure by time (every smaller case kept has the same kind) falls
    // back to the case as found if the last one does not fail again.
    let kept = if found.kind.by_time() { Some(found.clone()) } else { None };
    let start = Instant::now();
    let mut best = found;
    let mut seen = HashSet::new();
    seen.insert(fingerprint(&best.input));
    let (mut steps, mut tried, mut stopped) = (0, 0, None);
    'smaller: loop {
        for candidate in t.problem.shrink(&best.input) {
            if !seen.insert(fingerprint(&candidate)) {
                continue;
            }
            let took = start.elapsed();
            stopped = budget.spent(took, tried);
            if stopped.is_some() {
                break 'smaller;
            }
            tried += 1;
            let (index, size, best_size) = (as_found.index, as_found.size, best.input.len());
            progress.show(|| {
                format!(
                    "stress {name}: shrinking case {index}: candidate {tried} ({} bytes), \
                     smallest failing {best_size} of {size} bytes, {:.1} of {} s",
                    candidate.len(),
                    took.as_secs_f64(),
                    budget.time.as_secs_f64()
                )
            });
            let ours = t.answer(&candidate)?;
            if !ours.success() {
                continue; // not a valid case (or a game that never ends)
            }
            match t.try_input(best.index, candidate, ours, best.made_by.clone())? {
                Some(mut smaller) if smaller.kind == best.kind => {
                    if smaller.kind.by_time() {
                        match t.again(&smaller)? {
                            Some(confirmed) => smaller = confirmed,
                            None => continue, // noise: it failed once
                        }
                    }
                    best = smaller;
                    steps += 1;
                    continue 'smaller;
                }
                _ => {}
            }
        }
        break;
    }
    let took = start.elapsed();
    // The final case, once more: a failure by time must show again.
    let mut unconfirmed = None;
    if let Some(kept) = kept {
        match t.again(&best)? {
            Some(confirmed) => best = confirmed,
            None => {
                unconfirmed = Some(best.input.len());
                best = kept;
            }
        }
    }
    Ok(Shrunk { found: as_found, best, steps, tried, took, stopped, unconfirmed })
}

/// FNV-1a: remembers the candidates tried without keeping them.
fn fingerprint(text: &str) -> u64 {
    text.bytes()
        .fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}
