//! Hostile input: every solver is fed mutations of its own fixtures
//! (truncated, lines deleted, duplicated or swapped, tokens replaced by
//! garbage or by huge and negative numbers, random bytes, empty input).
//! Whatever the verdict, a solver must not panic (exit 101), die by a
//! signal, or run over 5 s, and a non-zero exit must come with exactly one
//! non-empty line on stderr.
//!
//! Deterministic: the seed is fixed, so a failure reproduces. Each failing
//! input is saved under the system's temporary directory and named in the
//! report.

mod common;

use kit::rng::Rng;
use std::time::Duration;

const LIMIT: Duration = Duration::from_secs(5);
/// Mutated inputs per binary; with a few ms per run this stays at seconds.
const RUNS: usize = 80;
const SEED: u64 = 0x5eed_2026;

macro_rules! fuzz_tests {
    ($($bin:ident),* $(,)?) => {
        $(#[test] fn $bin() { fuzz(stringify!($bin)); })*
    };
}

fuzz_tests!(ants_battle, ji, ji_referee, ji_solver, zhuguosha);

/// Uniform in `0..n`; `n` must be positive.
fn below(rng: &mut Rng, n: usize) -> usize {
    rng.below(n as u64) as usize
}

/// Tokens that break parsers: out of range, wrong type, odd bytes.
const GARBAGE: &[&str] = &[
    "",
    "x",
    "-1",
    "0",
    "-0",
    "+5",
    "1e3",
    "0.5",
    "NaN",
    "99999999999999999999",
    "9223372036854775807",
    "-9223372036854775808",
    "18446744073709551616",
    "4294967296",
    "2147483648",
    "1000000000",
    "-1000000",
    "１",
    "\u{0}",
    "\t",
    "%%%",
    "m",
    "rows",
    "集",
];

fn mutate(input: &[u8], rng: &mut Rng) -> Vec<u8> {
    let lines: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
    let join = |ls: Vec<&[u8]>| ls.join(&b'\n');
    match below(rng, 9) {
        0 => input[..below(rng, input.len() + 1)].to_vec(),
        1 => {
            let mut ls = lines.clone();
            ls.remove(below(rng, ls.len()));
            join(ls)
        }
        2 => {
            let mut ls = lines.clone();
            let i = below(rng, ls.len());
            ls.insert(i, lines[i]);
            join(ls)
        }
        3 => {
            let mut ls = lines.clone();
            let (i, j) = (below(rng, ls.len()), below(rng, ls.len()));
            ls.swap(i, j);
            join(ls)
        }
        4 | 5 => replace_token(input, GARBAGE[below(rng, GARBAGE.len())].as_bytes(), rng),
        6 => {
            let huge = match below(rng, 4) {
                0 => format!("{}", rng.next_u64()),
                1 => format!("-{}", rng.next_u64() % 1_000_000_000),
                2 => format!("{}", 1u64 << (below(rng, 40) + 20)),
                _ => format!("{}", below(rng, 2000)),
            };
            replace_token(input, huge.as_bytes(), rng)
        }
        7 => {
            let mut out = input.to_vec();
            for _ in 0..=below(rng, 8) {
                let at = below(rng, out.len() + 1);
                out.insert(at, rng.next_u64() as u8);
            }
            out
        }
        _ => Vec::new(),
    }
}

/// Replaces one whitespace-separated token, chosen at random.
fn replace_token(input: &[u8], with: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut starts = Vec::new();
    for (i, &b) in input.iter().enumerate() {
        let prev_space = i == 0 || input[i - 1].is_ascii_whitespace();
        if !b.is_ascii_whitespace() && prev_space {
            starts.push(i);
        }
    }
    if starts.is_empty() {
        return with.to_vec();
    }
    let start = starts[below(rng, starts.len())];
    let end =
        input[start..].iter().position(u8::is_ascii_whitespace).map_or(input.len(), |k| start + k);
    [&input[..start], with, &input[end..]].concat()
}

fn fuzz(bin: &str) {
    let (mut cases, _) = common::cases(bin);
    if bin == "ji" {
        // A `t` line asks the trainer for real work: with its count mutated
        // away it trains the default 3000 generations (~10 s), which is
        // what the user asked for, not a hang. Mutate the other sessions.
        cases.retain(|c| !common::read_text(&c.input).lines().any(|l| l.starts_with('t')));
    }
    assert!(!cases.is_empty(), "{bin} has no fixtures to mutate");
    let mut rng = Rng::new(SEED ^ bin.bytes().fold(0u64, |h, b| h.wrapping_mul(31) ^ u64::from(b)));
    let keep = std::env::temp_dir().join("judge-sims-fuzz");
    let mut failures = Vec::new();
    for k in 0..RUNS {
        let case = &cases[below(&mut rng, cases.len())];
        let original = std::fs::read(&case.input).expect("readable .in");
        let input = mutate(&original, &mut rng);
        let run = common::run(bin, &case.args, &input, LIMIT);
        let stderr = String::from_utf8_lossy(&run.stderr);
        let fault = if run.timed_out {
            Some(format!("ran over {} s", LIMIT.as_secs()))
        } else {
            match run.code {
                None => Some("killed by a signal".to_string()),
                Some(101) => Some(format!("panicked: {}", stderr.trim())),
                Some(0) => None,
                Some(code) => {
                    let mut lines: Vec<&str> = stderr.lines().collect();
                    // A trace is a log before the one error line.
                    if case.args.iter().any(|a| a == "--trace") {
                        lines.drain(..lines.len().saturating_sub(1));
                    }
                    match lines.as_slice() {
                        [line] if !line.trim().is_empty() => None,
                        _ => Some(format!(
                            "exit {code} with {} stderr lines (one expected): {:?}",
                            lines.len(),
                            stderr
                        )),
                    }
                }
            }
        };
        if let Some(fault) = fault {
            std::fs::create_dir_all(&keep).expect("fuzz folder");
            let saved = keep.join(format!("{bin}-{k}.in"));
            std::fs::write(&saved, &input).expect("save failing input");
            failures.push(format!(
                "{fault}\n  mutated from {}\n  reproduce: {}",
                case.name(),
                common::run_command(bin, &case.args, &saved.display().to_string())
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "\n{bin}: {} of {RUNS} mutated inputs failed\n\n{}\n",
        failures.len(),
        failures.join("\n\n")
    );
}
