//! The live progress of `kit stress` on stderr: one line rewritten in
//! place with `\r` when stderr is a terminal (at most every 100 ms);
//! otherwise (a log, a pipe) a line every 10 s. What the line says is the
//! caller's: the cases done while searching, the candidates while
//! shrinking.

use std::io::Write;
use std::time::{Duration, Instant};

/// The progress display on stderr.
pub struct Progress<'a> {
    err: &'a mut dyn Write,
    live: bool,
    start: Instant,
    shown: Option<Instant>,
    /// Between two lines in a log.
    pub log_every: Duration,
}

impl<'a> Progress<'a> {
    pub fn new(err: &'a mut dyn Write, live: bool) -> Progress<'a> {
        Progress {
            err,
            live,
            start: Instant::now(),
            shown: None,
            log_every: Duration::from_secs(10),
        }
    }

    /// Since the display was made (the start of the stress run).
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Shows `line()` followed by the time elapsed, if it is time to.
    pub fn tick(&mut self, line: impl FnOnce() -> String) {
        let start = self.start;
        self.show(|| format!("{}, {:.1} s", line(), start.elapsed().as_secs_f64()));
    }

    /// Shows `line()` as it is (a line that says its own times), if it is
    /// time to.
    pub fn show(&mut self, line: impl FnOnce() -> String) {
        let every = if self.live { Duration::from_millis(100) } else { self.log_every };
        let since = self.shown.unwrap_or(self.start);
        if self.shown.is_some() && since.elapsed() < every
            || !self.live && self.start.elapsed() < every
        {
            return;
        }
        self.shown = Some(Instant::now());
        let _ = if self.live {
            write!(self.err, "\r{}\x1b[K", line())
        } else {
            writeln!(self.err, "{}", line())
        };
        let _ = self.err.flush();
    }

    /// Wipes the line on a terminal, before the report goes to stdout.
    pub fn clear(&mut self) {
        if self.live && self.shown.is_some() {
            let _ = write!(self.err, "\r\x1b[K");
            let _ = self.err.flush();
        }
    }
}

/// Cases per second, for progress lines and summaries.
pub fn rate(cases: u64, time: Duration) -> String {
    let secs = time.as_secs_f64();
    if secs <= 0.0 {
        return "- cases/s".to_string();
    }
    format!("{:.1} cases/s", cases as f64 / secs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_goes_to_a_log_as_lines() {
        let mut err = Vec::new();
        let mut p = Progress::new(&mut err, false);
        p.log_every = Duration::ZERO;
        p.tick(|| "stress x: 3/9 cases".to_string());
        p.clear();
        let text = String::from_utf8(err).unwrap();
        assert!(text.starts_with("stress x: 3/9 cases, "), "{text:?}");
        assert!(text.ends_with(" s\n"), "{text:?}");
    }

    #[test]
    fn progress_is_rewritten_in_place_on_a_terminal() {
        let mut err = Vec::new();
        let mut p = Progress::new(&mut err, true);
        p.tick(|| "stress x: 3 cases".to_string());
        p.tick(|| "too soon".to_string());
        p.clear();
        let text = String::from_utf8(err).unwrap();
        assert!(text.starts_with("\rstress x: 3 cases, 0.0 s\x1b[K"), "{text:?}");
        assert!(!text.contains("too soon"));
        assert!(text.ends_with("\r\x1b[K"));
    }

    #[test]
    fn a_line_that_says_its_own_times_is_shown_as_it_is() {
        let mut err = Vec::new();
        let mut p = Progress::new(&mut err, false);
        p.log_every = Duration::ZERO;
        p.show(|| "stress x: shrinking, 0.0 of 60 s".to_string());
        assert_eq!(String::from_utf8(err).unwrap(), "stress x: shrinking, 0.0 of 60 s\n");
    }
}
