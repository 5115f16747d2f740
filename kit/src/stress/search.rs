//! The search for failing cases among `0..count`, `jobs` at once. The
//! failure reported first is still the one with the lowest case number,
//! the one `--jobs 1` finds: a worker takes the case numbers in order,
//! none starts a case above a failure found, and every case below it is
//! finished before the lowest is chosen.

use super::cases::Cases;
use super::progress::{rate, Progress};
use super::trial::{Failure, Trial};
use crate::error::Result;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// At most this many jobs (`--jobs`).
pub const MAX_JOBS: usize = 64;

/// How one profile is searched.
pub struct Search<'a> {
    pub trial: &'a Trial<'a>,
    pub cases: &'a Cases<'a>,
    /// The profile's name, for the progress line.
    pub profile: &'a str,
    /// The cases are `0..count`.
    pub count: u64,
    /// Cases run at once.
    pub jobs: usize,
    /// On past every failure (`--keep-going`), else stop at the first.
    pub keep_going: bool,
}

/// What a search found.
pub struct Found {
    /// The failing cases, lowest first: only the first unless
    /// `keep_going`.
    pub failures: Vec<Failure>,
    /// The cases run.
    pub done: u64,
}

impl Search<'_> {
    /// Case `index`: its failure, if the program fails on it, and how to
    /// make the case again.
    fn try_case(&self, index: u64) -> Result<Option<Failure>> {
        let case = self.cases.draw(index)?;
        let made_by = self.cases.made_by(index, &case);
        self.trial.try_input(index, case.input, case.ours, made_by)
    }

    /// The cases on which the program fails (or the first error, such as
    /// our solver failing), with the progress shown meanwhile.
    ///
    /// # Errors
    /// The first error of a draw or a run (a generator or solver that fails,
    /// a program that cannot be started); the workers stop at it.
    pub fn find(&self, progress: &mut Progress) -> Result<Found> {
        let name = self.trial.problem.name();
        let next = AtomicU64::new(0);
        // The lowest case number that stops the search: no case above it
        // starts (a failure without --keep-going, an error).
        let lowest = AtomicU64::new(u64::MAX);
        let (tx, rx) = mpsc::channel();
        let mut results = Vec::new();
        let (mut done, mut failing) = (0u64, 0u64);
        let start = Instant::now();
        std::thread::scope(|scope| {
            for _ in 0..self.jobs.clamp(1, MAX_JOBS) {
                let tx = tx.clone();
                let (next, lowest) = (&next, &lowest);
                scope.spawn(move || loop {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    if index >= self.count || index > lowest.load(Ordering::SeqCst) {
                        break;
                    }
                    let result = self.try_case(index);
                    let stops = match result {
                        Ok(None) => false,
                        Ok(Some(_)) => !self.keep_going,
                        Err(_) => true,
                    };
                    if stops {
                        lowest.fetch_min(index, Ordering::SeqCst);
                    }
                    if tx.send((index, result)).is_err() {
                        break;
                    }
                });
            }
            drop(tx);
            loop {
                match rx.recv_timeout(Duration::from_millis(100)) {
                    Ok((index, result)) => {
                        done += 1;
                        match result {
                            Ok(None) => {}
                            Ok(Some(f)) => {
                                failing += 1;
                                results.push((index, Ok(f)));
                            }
                            Err(e) => results.push((index, Err(e))),
                        }
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                    Err(mpsc::RecvTimeoutError::Disconnected) => break,
                }
                let total = self.count;
                let failing = match (self.keep_going, failing) {
                    (false, _) | (true, 0) => String::new(),
                    (true, n) => format!(", {n} failing"),
                };
                let profile = self.profile;
                progress.tick(|| {
                    format!(
                        "stress {name} ({profile}): {done}/{total} cases{failing}, {}",
                        rate(done, start.elapsed())
                    )
                });
            }
        });
        results.sort_by_key(|(index, _)| *index);
        let mut failures = Vec::new();
        for (_, result) in results {
            failures.push(result?);
            if !self.keep_going {
                break;
            }
        }
        Ok(Found { failures, done })
    }
}
