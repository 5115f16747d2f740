//! When kit itself is stopped by SIGTERM, SIGHUP or SIGINT (`kill`,
//! `timeout`, a closed terminal, Ctrl-C): the process groups of the
//! programs running now are killed, then kit dies of that signal as it
//! would have. The groups are in a fixed table that a signal handler may
//! read (no lock, no allocation). SIGKILL runs no handler: for that,
//! see [`super::guard`].

use super::sys;
use std::os::raw::c_int;
use std::sync::atomic::{AtomicI32, Ordering};

/// More programs than `kit` ever runs at once (`--jobs` is capped below
/// this, each job running one program at a time).
pub const SLOTS: usize = 128;

/// Process group ids (= the leaders' pids); 0 is a free slot.
static RUNNING: [AtomicI32; SLOTS] = {
    #[allow(clippy::declare_interior_mutable_const)]
    const FREE: AtomicI32 = AtomicI32::new(0);
    [FREE; SLOTS]
};

/// A registered group, removed from the table when dropped.
pub struct Running(Option<usize>);

impl Running {
    pub fn register(pgid: u32) -> Running {
        let pgid = pgid as i32;
        let slot = RUNNING
            .iter()
            .position(|s| s.compare_exchange(0, pgid, Ordering::SeqCst, Ordering::SeqCst).is_ok());
        Running(slot)
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(k) = self.0 {
            RUNNING[k].store(0, Ordering::SeqCst);
        }
    }
}

extern "C" fn on_signal(sig: c_int) {
    // Only async-signal-safe calls here: atomic loads, kill, signal, raise.
    for slot in &RUNNING {
        let pgid = slot.load(Ordering::SeqCst);
        if pgid > 0 {
            sys::kill_group(pgid as u32);
        }
    }
    sys::die_of(sig);
}

/// Installs the handlers; once, from `main`.
pub fn install() {
    for sig in [sys::SIGTERM, sys::SIGHUP, sys::SIGINT] {
        sys::on(sig, on_signal);
    }
}
