//! The check before stressing: the user's program timed on our smallest
//! input. A program already over the limit there would only be "shrunk" to
//! that input, so kit says at once which it is: it waits, it never ends,
//! or its start-up alone is over the limit.

use super::cases::Cases;
use super::trial::Trial;
use crate::error::{Error, Result};
use crate::run;
use std::time::Duration;

/// Runs of our solver spent on finding the smallest input for the start-up
/// check.
pub const SMALLEST_TRIES: usize = 300;

/// How much longer than the time limit a program slow on our smallest
/// input gets, to tell a slow start-up from one that never ends: this
/// many times the limit of CPU, within [`run::idle_limit`] of that in wall
/// time (7 s at a 1 s limit), whatever the machine's load.
pub const START_UP_GRACE: u32 = 3;

/// The smallest input we can reach from case 0 that our solver accepts
/// (the shrinker's first accepted candidate, again and again, at most
/// [`SMALLEST_TRIES`] runs of our solver).
fn smallest(t: &Trial, cases: &Cases) -> Result<String> {
    let mut input = cases.draw(0)?.input;
    let mut runs = 0;
    'smaller: while runs < SMALLEST_TRIES {
        for candidate in t.problem.shrink(&input) {
            runs += 1;
            if t.answer(&candidate)?.success() {
                input = candidate;
                continue 'smaller;
            }
            if runs >= SMALLEST_TRIES {
                break;
            }
        }
        break;
    }
    Ok(input)
}

/// An error when the program is already over the limit on the smallest
/// input (the better of two runs); the error says which: it waits (idle),
/// it never ends (still running at [`START_UP_GRACE`] times the limit), or
/// its start-up alone is over the limit.
pub fn check(t: &Trial, cases: &Cases) -> Result<()> {
    let input = smallest(t, cases)?;
    let mut best = Duration::MAX;
    let mut idle = true;
    for _ in 0..2 {
        let run = t.run_theirs(&input)?;
        best = best.min(run.cpu);
        if run.cpu <= t.limits.time && run.status != run::Status::IdleLimit {
            return Ok(());
        }
        idle &= run.status == run::Status::IdleLimit;
    }
    let (bytes, ms) = (input.len(), t.limits.time.as_millis());
    if idle {
        return Err(Error::run(format!(
            "your program waits on our smallest input ({bytes} bytes): idle past the \
             idleness limit (2 x {ms} + 1000 ms of wall time) with {} ms of CPU; it sleeps, \
             or waits for input it never gets (it reads stdin to its end?)",
            best.as_millis()
        )));
    }
    let longer = t.limits.time * START_UP_GRACE;
    let limits = run::Limits { wall: Some(run::idle_limit(longer)), ..run::Limits::from(longer) };
    let cmd = t.cmd;
    let run = run::run_with(cmd, input.as_bytes(), limits, None, run::Memory::Unmeasured)
        .map_err(|e| e.error(format!("`{cmd}`")))?;
    if matches!(run.status, run::Status::CpuLimit | run::Status::IdleLimit) {
        return Err(Error::run(format!(
            "your program does not end on our smallest input ({bytes} bytes): still running \
             after {} ms of CPU and {} ms of wall time ({START_UP_GRACE} x the time limit of \
             {ms} ms of CPU, or {} ms of wall); an endless loop at start-up?",
            run.cpu.as_millis(),
            run.wall.as_millis(),
            run::idle_limit(longer).as_millis()
        )));
    }
    Err(Error::run(format!(
        "your program takes {} ms of CPU on our smallest input ({bytes} bytes), over the \
         time limit of {ms} ms: its start-up alone is over the limit; raise --time-limit",
        best.min(run.cpu).as_millis()
    )))
}
