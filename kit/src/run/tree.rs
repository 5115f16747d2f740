//! The program's process tree as Linux's `/proc` shows it: every process
//! of its process group, with the CPU time and resident memory it has now.
//! A judge counts the whole tree: a wrapper script whose child spins uses
//! the CPU of that child. One scan reads `/proc/PID/stat` of every process
//! on the machine and keeps those whose group is the program's: about
//! 0.6 ms of kit's CPU with 110 processes (docs/kit.md).

use std::time::Duration;

/// The program's group at one moment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sample {
    /// User + system CPU time of the live members and of the children
    /// they waited for.
    pub cpu: Duration,
    /// The sum of their resident memory, in KiB (a page shared by two
    /// members counts twice, as in the sum of their `ps` figures).
    pub rss_kib: u64,
    /// How many members are alive (zombies included).
    pub members: usize,
}

/// The members of process group `pgid`, summed; `None` where there is no
/// `/proc` to read.
#[cfg(target_os = "linux")]
pub fn sample(pgid: u32) -> Option<Sample> {
    use std::fmt::Write as _;
    use std::io::Read;
    use std::sync::OnceLock;
    static UNITS: OnceLock<Option<(u64, u64)>> = OnceLock::new();
    let (ticks, page) =
        (*UNITS.get_or_init(|| Some((super::sys::clock_ticks()?, super::sys::page_size()?))))?;
    let mut total_ticks = 0u64;
    let mut pages = 0u64;
    let mut members = 0;
    let mut stat = String::with_capacity(512);
    let mut path = String::with_capacity(32);
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().filter(|n| n.bytes().all(|b| b.is_ascii_digit())) else {
            continue;
        };
        stat.clear();
        path.clear();
        let _ = write!(path, "/proc/{pid}/stat");
        let Ok(mut file) = std::fs::File::open(&path) else { continue };
        if file.read_to_string(&mut stat).is_err() {
            continue;
        }
        let Some(member) = parse(&stat).filter(|m| m.pgid == pgid) else { continue };
        members += 1;
        total_ticks += member.ticks;
        pages += member.pages;
    }
    Some(Sample {
        cpu: Duration::from_micros(total_ticks.saturating_mul(1_000_000) / ticks),
        rss_kib: pages * page / 1024,
        members,
    })
}

#[cfg(not(target_os = "linux"))]
pub fn sample(_pgid: u32) -> Option<Sample> {
    None
}

/// What one `/proc/PID/stat` line says of its process.
#[derive(Debug, PartialEq, Eq)]
struct Member {
    pgid: u32,
    /// utime + stime + cutime + cstime, in clock ticks.
    ticks: u64,
    /// Resident pages (0 for a zombie).
    pages: u64,
}

/// Fields after the command name, which is in parentheses and may hold
/// anything: state is field 3, pgrp 5, utime, stime, cutime, cstime 14 to
/// 17, rss 24 (proc(5)).
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn parse(stat: &str) -> Option<Member> {
    let after = &stat[stat.rfind(')')? + 1..];
    // One pass over the fields: `nth(k)` skips k fields and takes the next.
    let mut fields = after.split_whitespace();
    let number = |field: Option<&str>| field?.parse::<u64>().ok();
    let zombie = fields.next()? == "Z"; // state, 3
    let pgid = u32::try_from(number(fields.nth(1))?).ok()?; // pgrp, 5
    let mut ticks = number(fields.nth(8))?; // utime, 14
    for _ in 0..3 {
        ticks += number(fields.next())?; // stime, cutime, cstime
    }
    let pages = if zombie { 0 } else { number(fields.nth(6))? }; // rss, 24
    Some(Member { pgid, ticks, pages })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stat_line_gives_group_times_and_pages() {
        let line = "4242 (a (weird) name) R 1 4240 4240 0 -1 4194304 100 0 0 0 \
                    150 25 7 3 20 0 1 0 999 12345678 321 18446744073709551615";
        assert_eq!(parse(line), Some(Member { pgid: 4240, ticks: 185, pages: 321 }));
        let zombie = line.replace(") R ", ") Z ");
        assert_eq!(parse(&zombie).map(|m| m.pages), Some(0));
        assert_eq!(parse("4242 (cut"), None);
    }

    /// Our own group, read as a program's would be: this test process is
    /// in it, with some memory and some CPU.
    #[test]
    #[cfg(target_os = "linux")]
    fn our_own_group_has_us_in_it() {
        let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
        let me = parse(&stat).unwrap();
        let seen = sample(me.pgid).unwrap();
        assert!(seen.members >= 1 && seen.rss_kib > 0, "{seen:?}");
    }
}
