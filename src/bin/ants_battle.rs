//! Ants battle: one attack phase of the Google AI Challenge 2011 "Ants"
//! engine (蚂蚁之战 / アリの戦い).
//!
//! Given the map after the moves, decide which ants die in battle and print
//! the map afterwards.
//!
//! # Input
//! Text lines; blank lines and lines starting with `#` are ignored, every
//! other line is `key value` split at the first space (surrounding blanks and
//! a CR are trimmed):
//! `rows R`, `cols C` (both required, `cols` before the first `m` line),
//! `players P` (2..10, optional), `attackradius2 N` (0..100, default 5),
//! `attack MODE` (`focus` default, `closest`, `support`, `damage`), and R
//! lines `m ROW` of exactly C cells over `.` land, `%` water, `*` food,
//! `a`..`j` ant of player 0..9, `A`..`J` ant on its own hill, `0`..`9` empty
//! hill. Other keys (`score`, `hive`, ...) are ignored. Header lines may come
//! in any order. Ant letters and hill digits must be below `players`.
//!
//! # Output
//! `rows`, `cols`, then `players`, `attackradius2`, `attack` each only if the
//! input had it, then the R `m` lines after the battle: a dead ant becomes
//! `.`, a dead ant on its hill becomes the hill digit.
//!
//! # Rules (the engine `ants.py` wins over prose)
//! The map is a torus. The attack disk D holds the offsets (dr, dc) with
//! 0 < dr^2 + dc^2 <= N; an ant's enemy list has one entry per offset whose
//! wrapped cell holds an ant of another owner, so on small maps one enemy can
//! be listed several times, and an offset wrapping onto the ant itself never
//! counts. The weakness w(a) is the length of the list. Modes: see
//! [`AttackMode`].
//!
//! # Method and complexity
//! Owners live in one byte per cell. Every rule is a sweep "for each offset
//! of D, for each cell", row by row: inner columns go in blocks whose
//! accumulators stay in registers across all offsets, the wrapping edge
//! columns as two contiguous slices per offset; all loops vectorise (AVX2
//! when the CPU has it, checked at run time) and row bands run on worker
//! threads. A tall map is transposed first (the rules are symmetric). Time
//! O(R * C * |D|), |D| <= 316; memory a few bytes per cell.
//!
//! Damage is exact without floating point: a u16 sum T of floor(K / w) over
//! the attackers (K = 55440) bounds K times the damage from below, and it
//! is within w(a) of it; only ants with T < K < T + w(a) are summed exactly
//! (u128, or 512-bit integers: lcm(1..316) * 316 < 2^465).
//!
//! # Limits and exit codes
//! R * C <= 25,000,000 cells, N <= 100, players 2..10. Exit 0 on success,
//! 2 on bad input or a bad argument (one line `ants_battle: line L: what` on
//! stderr), 1 if the output cannot be written. Exit 3 never happens: every
//! battle has an exact result.

use std::fmt;
use std::io::{self, Read, Write};
use std::ops::Range;

const BIN: &str = "ants_battle";
/// Largest map accepted, in cells.
const MAX_CELLS: usize = 25_000_000;
/// Largest squared attack radius accepted (|D| = 316 there).
const MAX_RADIUS2: u64 = 100;
/// Owner byte of a cell without a living ant.
const NO_ANT: u8 = 0xFF;

const HELP: &str = "\
ants_battle: one attack phase of the 2011 Google AI Challenge Ants engine.
Input (stdin): lines `rows R`, `cols C`, optional `players P` (2..10),
  `attackradius2 N` (0..100, default 5), `attack focus|closest|support|damage`,
  then R lines `m ROW` over . % * a-j (ants) A-J (ant on own hill) 0-9 (hill).
  Blank lines and `#` comments are ignored; header lines in any order.
Output (stdout): the normalised header and the map after the battle.
Exit codes: 0 ok, 2 bad input (one stderr line `ants_battle: line L: what`).
";

// ---------------------------------------------------------------- input ----

/// Bad input: a 1-based line number and what is wrong there.
#[derive(Debug, PartialEq, Eq)]
pub struct Failure {
    line: usize,
    what: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.what)
    }
}

fn fail<T>(line: usize, what: impl Into<String>) -> Result<T, Failure> {
    Err(Failure {
        line,
        what: what.into(),
    })
}

/// The attack rule (`attack` key).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttackMode {
    /// Contest rule: an ant with w(a) > 0 dies if an enemy e in its list has
    /// w(e) <= w(a).
    Focus,
    /// For d = 1..N-1 the ants still alive with an enemy at squared toroidal
    /// distance exactly d die together.
    Closest,
    /// Engine code: an ant dies if its enemy list is not empty.
    Support,
    /// Every ant x deals 1/w(x) per list entry; an ant dies at damage >= 1.
    Damage,
}

impl AttackMode {
    fn name(self) -> &'static str {
        match self {
            AttackMode::Focus => "focus",
            AttackMode::Closest => "closest",
            AttackMode::Support => "support",
            AttackMode::Damage => "damage",
        }
    }
}

/// The parsed map, kept as the input's characters (row-major, R * C bytes).
#[derive(Debug)]
pub struct Map {
    rows: usize,
    cols: usize,
    players: Option<u64>,
    radius2: Option<u64>,
    mode: Option<AttackMode>,
    cells: Vec<u8>,
}

/// Printable, shortened form of an input token for error messages.
fn show(bytes: &[u8]) -> String {
    let mut s = String::new();
    for &b in bytes.iter().take(24) {
        if (0x20..0x7f).contains(&b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("\\x{b:02x}"));
        }
    }
    if bytes.len() > 24 {
        s.push_str("...");
    }
    s
}

/// A non-negative decimal integer; huge values saturate (and then fail the
/// range checks), anything else is `None`.
fn parse_count(value: &[u8]) -> Option<u64> {
    if value.is_empty() || !value.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(value.iter().fold(0u64, |n, &d| {
        n.saturating_mul(10).saturating_add(u64::from(d - b'0'))
    }))
}

/// Cell check for one byte: 0 if not a map character, else 1 + the owner
/// of an ant or hill (so 1..=10), or 11 for land, water, food.
fn cell_class(b: u8) -> u8 {
    let (bad, top) = row_check(&[b]);
    if bad {
        0
    } else if top == 0 {
        11
    } else {
        top
    }
}

/// Checks a map row in one branch-free pass (it vectorises): whether some
/// byte is not a map character, and the largest 1 + owner of an ant or hill
/// (0 if none).
#[inline]
fn row_check(row: &[u8]) -> (bool, u8) {
    let mut bad = 0u8;
    let mut top = 0u8;
    for &b in row {
        // `| 0x20` folds A-J onto a-j and leaves digits alone; the plain
        // cells are tested on the byte itself.
        let letter = (b | 0x20).wrapping_sub(b'a');
        let digit = b.wrapping_sub(b'0');
        let (is_letter, is_digit) = (letter < 10, digit < 10);
        let plain = (b == b'.') | (b == b'%') | (b == b'*');
        bad |= (!(is_letter | is_digit | plain)) as u8;
        let owner_letter = if is_letter { letter + 1 } else { 0 };
        let owner_digit = if is_digit { digit + 1 } else { 0 };
        top = top.max(owner_letter | owner_digit);
    }
    (bad != 0, top)
}

/// Owner of a living ant in this cell character, or [`NO_ANT`].
#[inline(always)]
fn ant_owner(b: u8) -> u8 {
    // `| 0x20` folds A-J onto a-j; no other map character lands there.
    let letter = (b | 0x20).wrapping_sub(b'a');
    if letter < 10 {
        letter
    } else {
        NO_ANT
    }
}

/// The character left behind by a dead ant: land, or its hill's digit.
#[inline(always)]
fn dead_char(b: u8) -> u8 {
    let upper = b.wrapping_sub(b'A');
    if upper < 10 {
        upper + b'0'
    } else {
        b'.'
    }
}

/// Parses the whole input. Header lines may come in any order except that
/// `cols` must precede the map rows (the engine needs the width first).
pub fn parse(input: &[u8]) -> Result<Map, Failure> {
    let mut rows: Option<(usize, usize)> = None; // (value, line)
    let mut cols: Option<usize> = None;
    let mut players: Option<(u64, usize)> = None;
    let mut radius2 = None;
    let mut mode = None;
    let mut cells: Vec<u8> = Vec::new();
    let mut map_rows = 0usize;
    // first_at_least[k]: first (line, map row) holding an owner >= k - 1.
    let mut first_at_least: [Option<(usize, usize)>; 12] = [None; 12];
    let mut line_no = 0usize;
    let mut pos = 0usize;
    while pos < input.len() {
        line_no += 1;
        let end = match line_end(input, pos, cols) {
            Some(e) => e,
            None => match input[pos..].iter().position(|&b| b == b'\n') {
                Some(k) => pos + k,
                None => input.len(),
            },
        };
        let line = input[pos..end].trim_ascii_compat();
        pos = end + 1;
        if line.is_empty() || line[0] == b'#' {
            continue;
        }
        let (key, value) = match line.iter().position(|&b| b == b' ') {
            Some(k) => (&line[..k], line[k + 1..].trim_ascii_compat()),
            None => {
                return fail(
                    line_no,
                    format!("expected `key value`, found `{}`", show(line)),
                )
            }
        };
        match key {
            b"m" => {
                let c = match cols {
                    Some(c) => c,
                    None => return fail(line_no, "map row before the cols line"),
                };
                if let Some((r, _)) = rows {
                    if map_rows == r {
                        return fail(line_no, format!("more map rows than rows {r}"));
                    }
                }
                if value.len() != c {
                    return fail(
                        line_no,
                        format!("map row has {} cells, expected {c}", value.len()),
                    );
                }
                if cells.len() + c > MAX_CELLS {
                    return fail(line_no, format!("map over the limit of {MAX_CELLS} cells"));
                }
                let (bad, top) = row_check(value);
                if bad {
                    let i = value.iter().position(|&b| cell_class(b) == 0).unwrap_or(0);
                    return fail(
                        line_no,
                        format!(
                            "unknown cell character `{}` in column {}",
                            show(&value[i..i + 1]),
                            i + 1
                        ),
                    );
                }
                for slot in first_at_least.iter_mut().take(top as usize + 1) {
                    if slot.is_none() {
                        *slot = Some((line_no, map_rows));
                    }
                }
                cells.extend_from_slice(value);
                map_rows += 1;
            }
            b"rows" | b"cols" => {
                let name = show(key);
                let n = match parse_count(value) {
                    Some(n) if n >= 1 => n,
                    _ => {
                        return fail(
                            line_no,
                            format!("{name} must be a positive integer, found `{}`", show(value)),
                        )
                    }
                };
                if n > MAX_CELLS as u64 {
                    return fail(
                        line_no,
                        format!("{name} {} over the limit of {MAX_CELLS} cells", show(value)),
                    );
                }
                let n = n as usize;
                if key == b"rows" {
                    if rows.is_some() {
                        return fail(line_no, "duplicate rows line");
                    }
                    if map_rows > n {
                        return fail(line_no, format!("rows {n} but {map_rows} map rows given"));
                    }
                    rows = Some((n, line_no));
                } else {
                    if cols.is_some() {
                        return fail(line_no, "duplicate cols line");
                    }
                    cols = Some(n);
                }
                if let (Some((r, _)), Some(c)) = (rows, cols) {
                    if r.saturating_mul(c) > MAX_CELLS {
                        return fail(
                            line_no,
                            format!("map of {r} x {c} cells over the limit of {MAX_CELLS}"),
                        );
                    }
                }
            }
            b"players" => {
                if players.is_some() {
                    return fail(line_no, "duplicate players line");
                }
                match parse_count(value) {
                    Some(p) if (2..=10).contains(&p) => players = Some((p, line_no)),
                    _ => {
                        return fail(
                            line_no,
                            format!("players must be 2..10, found `{}`", show(value)),
                        )
                    }
                }
            }
            b"attackradius2" => {
                if radius2.is_some() {
                    return fail(line_no, "duplicate attackradius2 line");
                }
                match parse_count(value) {
                    Some(n) if n <= MAX_RADIUS2 => radius2 = Some(n),
                    Some(_) => {
                        return fail(
                            line_no,
                            format!("attackradius2 {} over the limit {MAX_RADIUS2}", show(value)),
                        )
                    }
                    None => {
                        return fail(
                            line_no,
                            format!(
                                "attackradius2 must be an integer 0..{MAX_RADIUS2}, found `{}`",
                                show(value)
                            ),
                        )
                    }
                }
            }
            b"attack" => {
                if mode.is_some() {
                    return fail(line_no, "duplicate attack line");
                }
                mode = Some(match value {
                    b"focus" => AttackMode::Focus,
                    b"closest" => AttackMode::Closest,
                    b"support" => AttackMode::Support,
                    b"damage" => AttackMode::Damage,
                    _ => {
                        return fail(
                            line_no,
                            format!(
                                "unknown attack mode `{}` (focus, closest, support, damage)",
                                show(value)
                            ),
                        )
                    }
                });
            }
            _ => {} // `score`, `hive` and other engine keys play no part here.
        }
    }
    let last = line_no.max(1);
    if input.is_empty() {
        return fail(1, "empty input");
    }
    let (rows, rows_line) = match rows {
        Some(r) => r,
        None => return fail(last, "missing rows line"),
    };
    let cols = match cols {
        Some(c) => c,
        None => return fail(last, "missing cols line"),
    };
    if map_rows != rows {
        return fail(last, format!("{map_rows} map rows, expected {rows}"));
    }
    if let Some((p, p_line)) = players {
        // Owners of ants and hills must be below `players`.
        if let Some((line, row)) = first_at_least[p as usize + 1] {
            let cells_of_row = &cells[row * cols..(row + 1) * cols];
            let b = cells_of_row
                .iter()
                .copied()
                .find(|&b| cell_class(b) != 11 && u64::from(cell_class(b)) > p)
                .unwrap_or(b'?');
            let what = if b.is_ascii_digit() { "hill" } else { "ant" };
            return fail(
                line,
                format!(
                    "{what} `{}` of player {} not below players {p} (line {p_line})",
                    b as char,
                    cell_class(b) - 1
                ),
            );
        }
    }
    let _ = rows_line;
    Ok(Map {
        rows,
        cols,
        players: players.map(|p| p.0),
        radius2,
        mode,
        cells,
    })
}

/// Fast path for the bulk of the input: when the line at `pos` looks like a
/// map row of the known width (`m `, C bytes, then LF, CRLF or the end), its
/// end without scanning for the newline. A row holding a stray newline fails
/// the cell check there, and the caller then reports it on its true line.
#[inline]
fn line_end(input: &[u8], pos: usize, cols: Option<usize>) -> Option<usize> {
    let c = cols?;
    let end = pos + 2 + c;
    if !input[pos..].starts_with(b"m ") || end > input.len() {
        return None;
    }
    // The line's end: the LF (a CR before it is trimmed later) or the input's.
    let line_end = match input.get(end) {
        None | Some(b'\n') => end,
        Some(b'\r') if matches!(input.get(end + 1), None | Some(b'\n')) => end + 1,
        _ => return None,
    };
    if row_check(&input[pos + 2..end]).0 {
        None
    } else {
        Some(line_end.min(input.len()))
    }
}

/// `trim_ascii` is newer than Rust 1.70; this is the same for our blanks.
trait TrimAscii {
    fn trim_ascii_compat(&self) -> &Self;
}

impl TrimAscii for [u8] {
    fn trim_ascii_compat(&self) -> &[u8] {
        let blank = |b: &u8| matches!(*b, b' ' | b'\t' | b'\r');
        let start = self.iter().position(|b| !blank(b)).unwrap_or(self.len());
        let end = self
            .iter()
            .rposition(|b| !blank(b))
            .map_or(start, |k| k + 1);
        &self[start..end.max(start)]
    }
}

// ---------------------------------------------------------------- model ----

/// The battlefield as the rules see it: one owner byte per cell ([`NO_ANT`]
/// where no living ant stands), possibly transposed so that rows are long.
struct Field {
    rows: usize,
    cols: usize,
    owner: Vec<u8>,
    transposed: bool,
}

impl Field {
    /// `scratch` is reused for the owners when it is large enough (the
    /// input buffer: its pages are already mapped, fresh ones cost faults).
    fn new(map: &Map, mut scratch: Vec<u8>) -> Field {
        let (r, c) = (map.rows, map.cols);
        if r <= c {
            // Filled by row bands in parallel (zeroed pages come lazily).
            let mut owner = if scratch.len() >= r * c {
                scratch.truncate(r * c);
                scratch
            } else {
                vec![0u8; r * c]
            };
            let bands = bands(r, c);
            std::thread::scope(|scope| {
                let mut rest = &mut owner[..];
                for band in &bands {
                    let (part, tail) = std::mem::take(&mut rest).split_at_mut(band.len() * c);
                    rest = tail;
                    let chars = &map.cells[band.start * c..band.end * c];
                    let mut fill = move || {
                        for (o, &b) in part.iter_mut().zip(chars) {
                            *o = ant_owner(b);
                        }
                    };
                    if bands.len() == 1 {
                        fill();
                    } else {
                        scope.spawn(fill);
                    }
                }
            });
            return Field {
                rows: r,
                cols: c,
                owner,
                transposed: false,
            };
        }
        // Tall map: work on the transpose, tile by tile for the cache.
        let mut owner = vec![NO_ANT; r * c];
        const TILE: usize = 64;
        for r0 in (0..r).step_by(TILE) {
            for c0 in (0..c).step_by(TILE) {
                for y in r0..(r0 + TILE).min(r) {
                    for x in c0..(c0 + TILE).min(c) {
                        owner[x * r + y] = ant_owner(map.cells[y * c + x]);
                    }
                }
            }
        }
        Field {
            rows: c,
            cols: r,
            owner,
            transposed: true,
        }
    }

    /// Index into the map's characters of a working cell.
    fn map_index(&self, cell: usize) -> usize {
        if self.transposed {
            let (y, x) = (cell / self.cols, cell % self.cols);
            x * self.rows + y
        } else {
            cell
        }
    }

    fn row(&self, r: usize) -> &[u8] {
        &self.owner[r * self.cols..(r + 1) * self.cols]
    }
}

/// Where the deaths of a band of rows go: straight into the map's
/// characters (a row-major map split into bands), or into a list of working
/// cell indices (a transposed map, and `closest`, whose steps must also
/// update the owners). The rules read only the [`Field`], so either way
/// "all deaths are decided on the map before the battle and applied
/// together".
enum Sink<'a> {
    Chars {
        cells: &'a mut [u8],
        row0: usize,
        cols: usize,
    },
    List {
        cells: Vec<u32>,
        cols: usize,
    },
}

impl Sink<'_> {
    /// `flag[c] != 0` marks a death wherever an ant stands; `flag` may be
    /// overwritten.
    #[inline(always)]
    fn row(&mut self, r: usize, flag: &mut [u8], own: &[u8]) {
        match self {
            Sink::Chars { cells, row0, cols } => {
                let c = *cols;
                let chars = &mut cells[(r - *row0) * c..(r - *row0 + 1) * c];
                for ((ch, &f), &me) in chars.iter_mut().zip(flag.iter()).zip(own) {
                    let dies = (f != 0) & (me != NO_ANT);
                    *ch = if dies { dead_char(*ch) } else { *ch };
                }
            }
            Sink::List { cells, cols } => {
                let base = r * *cols;
                for_each_death(flag, own, |c| cells.push((base + c) as u32));
            }
        }
    }
}

/// Row bands for the worker threads: one band on small maps.
fn bands(rows: usize, cols: usize) -> Vec<Range<usize>> {
    let threads = if rows * cols < 1 << 16 {
        1
    } else {
        std::thread::available_parallelism().map_or(1, |n| n.get().min(8))
    };
    let k = threads.min(rows).max(1);
    (0..k).map(|i| rows * i / k..rows * (i + 1) / k).collect()
}

/// Runs `work(band, plane_a, plane_b)` on each band in its own thread, with
/// the band's rows of two per-cell output planes (`b` may be empty).
#[inline(always)]
fn par_planes<T: Send, U: Send>(
    bands: &[Range<usize>],
    cols: usize,
    mut a: &mut [T],
    mut b: &mut [U],
    work: &impl PlaneWork<T, U>,
) {
    let has_b = !b.is_empty();
    std::thread::scope(|scope| {
        for band in bands.iter().cloned() {
            let n = band.len() * cols;
            let (pa, rest) = std::mem::take(&mut a).split_at_mut(n);
            a = rest;
            let (pb, rest) = std::mem::take(&mut b).split_at_mut(if has_b { n } else { 0 });
            b = rest;
            if bands.len() == 1 {
                plane_fast(work, band, pa, pb);
            } else {
                scope.spawn(move || plane_fast(work, band, pa, pb));
            }
        }
    });
}

/// Runs `work(band, sink)` on each band in its own thread and returns the
/// deaths of list sinks (all of them if `cells` is `None`) as working
/// indices, one list per band.
#[inline(always)]
fn par_deaths(field: &Field, cells: Option<&mut [u8]>, work: &impl DeathWork) -> Vec<Vec<u32>> {
    let bands = bands(field.rows, field.cols);
    let cols = field.cols;
    let mut sinks: Vec<Sink> = Vec::new();
    match cells {
        Some(mut chars) if !field.transposed => {
            for band in &bands {
                let (part, rest) = std::mem::take(&mut chars).split_at_mut(band.len() * cols);
                chars = rest;
                sinks.push(Sink::Chars {
                    cells: part,
                    row0: band.start,
                    cols,
                });
            }
        }
        _ => {
            for _ in &bands {
                sinks.push(Sink::List {
                    cells: Vec::new(),
                    cols,
                });
            }
        }
    }
    std::thread::scope(|scope| {
        for (band, sink) in bands.iter().cloned().zip(sinks.iter_mut()) {
            if bands.len() == 1 {
                death_fast(work, band, sink);
            } else {
                scope.spawn(move || death_fast(work, band, sink));
            }
        }
    });
    let mut lists = Vec::new();
    for sink in sinks {
        if let Sink::List { cells, .. } = sink {
            lists.push(cells);
        }
    }
    lists
}

/// Calls `f(c)` for each column with a flag and an ant, scanning eight
/// cells per step (deaths are sparse in most rows and steps).
#[inline(always)]
fn for_each_death(flag: &mut [u8], own: &[u8], mut f: impl FnMut(usize)) {
    for (x, &me) in flag.iter_mut().zip(own) {
        *x = ((*x != 0) & (me != NO_ANT)) as u8;
    }
    // Skip 64-cell stretches without a death with one vectorised test.
    for (j, block) in flag.chunks(64).enumerate() {
        if block.iter().fold(0u8, |m, &x| m | x) == 0 {
            continue;
        }
        for (k, chunk) in block.chunks(8).enumerate() {
            let mut bytes = [0u8; 8];
            if chunk.len() == 8 {
                bytes.copy_from_slice(chunk); // a plain load, no memcpy call
            } else {
                bytes[..chunk.len()].copy_from_slice(chunk);
            }
            let mut word = u64::from_le_bytes(bytes);
            while word != 0 {
                f(j * 64 + k * 8 + word.trailing_zeros() as usize / 8);
                word &= word - 1;
            }
        }
    }
}

/// One offset of the attack disk.
#[derive(Clone, Copy, Debug)]
struct Offset {
    dr: isize,
    dc: isize,
}

/// The attack disk D: (dr, dc) with 0 < dr^2 + dc^2 <= n.
fn attack_disk(n: u64) -> Vec<Offset> {
    let mut h = 0isize;
    while ((h + 1) * (h + 1)) as u64 <= n {
        h += 1;
    }
    let mut out = Vec::new();
    for dr in -h..=h {
        for dc in -h..=h {
            let d = (dr * dr + dc * dc) as u64;
            if d > 0 && d <= n {
                out.push(Offset { dr, dc });
            }
        }
    }
    out
}

/// Weakness counter: u8 while |D| < 255, else u16 (|D| <= 316).
trait Weakness: Copy + Ord + Default {
    /// Stored for cells without an ant: above every real weakness.
    const SENTINEL: Self;
    fn from_bool(b: bool) -> Self;
    fn plus(self, o: Self) -> Self;
    fn index(self) -> usize;
}

impl Weakness for u8 {
    const SENTINEL: u8 = u8::MAX;
    #[inline(always)]
    fn from_bool(b: bool) -> u8 {
        b as u8
    }
    #[inline(always)]
    fn plus(self, o: u8) -> u8 {
        self.wrapping_add(o)
    }
    #[inline(always)]
    fn index(self) -> usize {
        self as usize
    }
}

impl Weakness for u16 {
    const SENTINEL: u16 = u16::MAX;
    #[inline(always)]
    fn from_bool(b: bool) -> u16 {
        b as u16
    }
    #[inline(always)]
    fn plus(self, o: u16) -> u16 {
        self.wrapping_add(o)
    }
    #[inline(always)]
    fn index(self) -> usize {
        self as usize
    }
}

// ---------------------------------------------------------------- rules ----

/// Scratch of a sweep: the offsets, how far they reach sideways, and per
/// offset the start of its source row shifted by its column offset.
struct Sweep<'a> {
    offsets: &'a [Offset],
    reach: usize,
    starts: Vec<isize>,
}

impl<'a> Sweep<'a> {
    fn new(offsets: &'a [Offset]) -> Sweep<'a> {
        let reach = offsets
            .iter()
            .map(|o| o.dc.unsigned_abs())
            .max()
            .unwrap_or(0);
        Sweep {
            offsets,
            reach,
            starts: Vec::with_capacity(offsets.len()),
        }
    }

    /// Folds `op(acc, my owner, my aux, its owner, its aux)` over every
    /// offset into `acc[c]` for each cell c of row `r` (acc starts at the
    /// default). `aux` is a per-cell plane beside the owners (weakness,
    /// damage share; the owners again when unused).
    ///
    /// Inner columns, whose offsets never wrap sideways, go in blocks of B
    /// cells with the block's accumulators in registers across all offsets;
    /// the `reach` columns at each side (or a whole narrow row) go offset by
    /// offset over the two contiguous pieces of the wrapped source row.
    #[inline(always)]
    fn row<T: Copy, A: Copy + Default, const B: usize>(
        &mut self,
        field: &Field,
        aux: &[T],
        r: usize,
        acc: &mut [A],
        op: impl Fn(A, u8, T, u8, T) -> A + Copy,
    ) {
        let cols = field.cols;
        let own = field.row(r);
        let own_aux = &aux[r * cols..(r + 1) * cols];
        acc.iter_mut().for_each(|a| *a = A::default());
        let reach = self.reach;
        if cols < 2 * reach + B {
            self.range(field, aux, r, 0, cols, acc, op);
            return;
        }
        self.starts.clear();
        for o in self.offsets {
            let s = (r as isize + o.dr).rem_euclid(field.rows as isize);
            self.starts.push(s * cols as isize + o.dc);
        }
        let end = cols - reach;
        let mut x = reach;
        while x < end {
            let x0 = x.min(end - B);
            let mut block = [A::default(); B];
            let me = &own[x0..x0 + B];
            let me_aux = &own_aux[x0..x0 + B];
            for &st in &self.starts {
                let base = (st + x0 as isize) as usize;
                let them = &field.owner[base..base + B];
                let them_aux = &aux[base..base + B];
                let cells = block.iter_mut().zip(me.iter().zip(me_aux));
                for ((a, (&mo, &ma)), (&to, &ta)) in cells.zip(them.iter().zip(them_aux)) {
                    *a = op(*a, mo, ma, to, ta);
                }
            }
            acc[x0..x0 + B].copy_from_slice(&block);
            x = x0 + B;
        }
        self.range(field, aux, r, 0, reach, acc, op);
        self.range(field, aux, r, end, cols, acc, op);
    }

    /// The general path of [`Sweep::row`] for columns lo..hi.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn range<T: Copy, A: Copy>(
        &self,
        field: &Field,
        aux: &[T],
        r: usize,
        lo: usize,
        hi: usize,
        acc: &mut [A],
        op: impl Fn(A, u8, T, u8, T) -> A,
    ) {
        let cols = field.cols;
        let own = field.row(r);
        let own_aux = &aux[r * cols..(r + 1) * cols];
        for o in self.offsets {
            let s = (r as isize + o.dr).rem_euclid(field.rows as isize) as usize;
            // Column x reads column (x + k) mod cols: x + k before `split`,
            // x + k - cols from there on (wrap-around, maybe several times
            // over on a narrow map, which is the engine's multiplicity).
            let k = o.dc.rem_euclid(cols as isize) as usize;
            let split = cols - k;
            let parts = [
                (lo, hi.min(split), lo + k),
                (lo.max(split), hi, lo.max(split) + k - cols),
            ];
            for (a, b, from) in parts {
                if a >= b {
                    continue;
                }
                let n = b - a;
                let from = s * cols + from;
                let them = field.owner[from..from + n].iter().zip(&aux[from..from + n]);
                let mine = own[a..b].iter().zip(&own_aux[a..b]);
                for ((x, (&mo, &ma)), (&to, &ta)) in acc[a..b].iter_mut().zip(mine).zip(them) {
                    *x = op(*x, mo, ma, to, ta);
                }
            }
        }
    }
}

/// "Ants of the same owner never count, in any mode": an enemy is an ant
/// of another owner.
#[inline(always)]
fn is_enemy(me: u8, them: u8) -> bool {
    (them != me) & (them != NO_ANT)
}

/// Weakness of every ant (length of its enemy list, multiplicity included)
/// into `weak` ([`Weakness::SENTINEL`] where no ant stands) and, if `share`
/// is not empty, `shares[w]` of each ant into it (0 where no ant stands).
fn weakness_plane<W: Weakness + Send + Sync>(
    field: &Field,
    disk: &[Offset],
    weak: &mut [W],
    share: &mut [u16],
    shares: &[u16; 317],
) {
    let bands = bands(field.rows, field.cols);
    let work = WeakBand {
        field,
        disk,
        shares,
    };
    par_planes(&bands, field.cols, weak, share, &work);
}

struct WeakBand<'a> {
    field: &'a Field,
    disk: &'a [Offset],
    shares: &'a [u16; 317],
}

impl<W: Weakness + Send + Sync> PlaneWork<W, u16> for WeakBand<'_> {
    #[inline(always)]
    fn run(&self, band: Range<usize>, weak: &mut [W], share: &mut [u16]) {
        let (field, cols) = (self.field, self.field.cols);
        let mut sweep = Sweep::new(self.disk);
        let mut acc = vec![W::default(); cols];
        let row0 = band.start;
        for r in band {
            sweep.row::<u8, W, 128>(field, &field.owner, r, &mut acc, |a, me, _, them, _| {
                a.plus(W::from_bool(is_enemy(me, them)))
            });
            let own = field.row(r);
            let out = (r - row0) * cols..(r - row0 + 1) * cols;
            for ((w, &a), &me) in weak[out.clone()].iter_mut().zip(&acc).zip(own) {
                *w = if me == NO_ANT { W::SENTINEL } else { a };
            }
            if !share.is_empty() {
                for ((s, &a), &me) in share[out].iter_mut().zip(&acc).zip(own) {
                    // The clamp lets the compiler drop the bounds check.
                    let v = self.shares[a.index().min(316)];
                    *s = if me == NO_ANT { 0 } else { v };
                }
            }
        }
    }
}

/// Applies deaths given as working cell indices to the map's characters.
fn apply_list(field: &Field, cells: &mut [u8], lists: &[Vec<u32>]) {
    for &cell in lists.iter().flatten() {
        let k = field.map_index(cell as usize);
        cells[k] = dead_char(cells[k]);
    }
}

/// Living ants with at least one enemy among the given offsets (support
/// with all of D; closest with one distance class).
fn ants_with_enemy(field: &Field, offsets: &[Offset], cells: Option<&mut [u8]>) -> Vec<Vec<u32>> {
    par_deaths(field, cells, &EnemyBand { field, offsets })
}

struct EnemyBand<'a> {
    field: &'a Field,
    offsets: &'a [Offset],
}

impl DeathWork for EnemyBand<'_> {
    #[inline(always)]
    fn run(&self, band: Range<usize>, sink: &mut Sink) {
        let field = self.field;
        let mut sweep = Sweep::new(self.offsets);
        let mut flag = vec![0u8; field.cols];
        for r in band {
            sweep.row::<u8, u8, 128>(field, &field.owner, r, &mut flag, |f, me, _, them, _| {
                f | is_enemy(me, them) as u8
            });
            sink.row(r, &mut flag, field.row(r));
        }
    }
}

/// `support` "(what the engine really does): an ant dies if its enemy list
/// is not empty. (The engine's docstring speaks of friends; its code counts
/// none.)"
#[inline(always)]
fn support(field: &Field, disk: &[Offset], cells: &mut [u8]) {
    let list = ants_with_enemy(field, disk, Some(&mut *cells));
    apply_list(field, cells, &list);
}

/// `focus`: "an ant with w(a) = 0 survives; otherwise it dies if some enemy e
/// in its list has w(e) <= w(a)".
fn focus<W: Weakness + Send + Sync>(field: &Field, disk: &[Offset], cells: &mut [u8]) {
    // Zeroed memory comes lazily from the OS; every cell is written below.
    let mut weak = vec![W::default(); field.rows * field.cols];
    weakness_plane::<W>(field, disk, &mut weak, &mut [], &[0; 317]);
    let work = FocusBand {
        field,
        disk,
        weak: &weak,
    };
    let list = par_deaths(field, Some(&mut *cells), &work);
    apply_list(field, cells, &list);
}

struct FocusBand<'a, W> {
    field: &'a Field,
    disk: &'a [Offset],
    weak: &'a [W],
}

impl<W: Weakness + Send + Sync> DeathWork for FocusBand<'_, W> {
    #[inline(always)]
    fn run(&self, band: Range<usize>, sink: &mut Sink) {
        let field = self.field;
        let mut sweep = Sweep::new(self.disk);
        let mut flag = vec![0u8; field.cols];
        for r in band {
            sweep.row::<W, u8, 64>(
                field,
                self.weak,
                r,
                &mut flag,
                |f, me, my_w, them, its_w| {
                    // Empty cells carry SENTINEL weakness, so `its_w <= my_w`
                    // already excludes them; the owner test excludes friends.
                    f | ((them != me) & (its_w <= my_w)) as u8
                },
            );
            sink.row(r, &mut flag, field.row(r));
        }
    }
}

/// `closest`: "for d = 1, 2, ..., N - 1 in order ..., take the ants still
/// alive and join every two enemies whose squared toroidal distance is
/// exactly d. Every connected group of two or more ants dies at once."
///
/// Reading: an ant is in a group of two or more exactly when it has at
/// least one such edge, and the whole group dies; so the dead of step d are
/// the living ants with a living enemy at distance exactly d, and no
/// union-find is needed (a chain a-b-a'-b' dies whole either way). The
/// distance is the toroidal one of the landing cell, which on a small map
/// can be less than the offset's length; offsets landing at distance 0 (on
/// the ant itself) or >= N take no part.
#[inline(always)]
fn closest(field: &mut Field, disk: &[Offset], n: u64, cells: &mut [u8]) {
    let axis = |d: isize, size: usize| {
        let t = d.rem_euclid(size as isize) as usize;
        t.min(size - t) as u64
    };
    let mut by_distance: Vec<(u64, Offset)> = disk
        .iter()
        .map(|&o| {
            let (a, b) = (axis(o.dr, field.rows), axis(o.dc, field.cols));
            (a * a + b * b, o)
        })
        .filter(|&(d, _)| d >= 1 && d < n)
        .collect();
    by_distance.sort_by_key(|&(d, o)| (d, o.dr, o.dc));
    let mut i = 0;
    while i < by_distance.len() {
        let d = by_distance[i].0;
        let j = i + by_distance[i..].iter().take_while(|x| x.0 == d).count();
        let offsets: Vec<Offset> = by_distance[i..j].iter().map(|x| x.1).collect();
        if field.transposed {
            let step = ants_with_enemy(field, &offsets, None);
            for &cell in step.iter().flatten() {
                field.owner[cell as usize] = NO_ANT;
            }
            apply_list(field, cells, &step);
        } else {
            // Deaths go straight to the characters; the owners follow them
            // after the step (no living ant where no ant letter remains).
            ants_with_enemy(field, &offsets, Some(&mut *cells));
            for (o, &ch) in field.owner.iter_mut().zip(cells.iter()) {
                *o = if ant_owner(ch) == NO_ANT { NO_ANT } else { *o };
            }
        }
        i = j;
    }
}

/// Fixed-point unit of the damage filter: 2 * lcm(1..12), below 2^16.
const DAMAGE_UNIT: u16 = 55_440;

/// `damage`: "every ant x with w(x) > 0 deals 1/w(x) to each entry of its
/// enemy list ... An ant dies if the damage it receives is >= 1, computed
/// exactly". The disk is symmetric, so the damage of a is the sum of
/// 1/w(e) over a's own list, one term per offset, and there are w(a) terms.
///
/// Filter: with K = [`DAMAGE_UNIT`], T = sum of floor(K / w(e)) (saturating)
/// satisfies T <= K * damage < T + w(a); T >= K means death, T + w(a) <= K
/// means survival, exact in both directions. Only the rare ants between are
/// summed exactly.
#[inline(always)]
fn damage<W: Weakness + Send + Sync>(field: &Field, disk: &[Offset], cells: &mut [u8]) {
    let cols = field.cols;
    let mut shares = [0u16; 317];
    for (w, s) in shares.iter_mut().enumerate().skip(1) {
        *s = DAMAGE_UNIT / w as u16;
    }
    // Per cell: the weakness, and floor(K / w) of the ant (0: none, w = 0).
    let mut weak = vec![W::default(); field.rows * cols];
    let mut share = vec![0u16; field.rows * cols];
    weakness_plane::<W>(field, disk, &mut weak, &mut share, &shares);
    let work = DamageBand {
        field,
        disk,
        weak: &weak,
        share: &share,
    };
    let list = par_deaths(field, Some(&mut *cells), &work);
    apply_list(field, cells, &list);
}

struct DamageBand<'a, W> {
    field: &'a Field,
    disk: &'a [Offset],
    weak: &'a [W],
    share: &'a [u16],
}

impl<W: Weakness + Send + Sync> DeathWork for DamageBand<'_, W> {
    #[inline(always)]
    fn run(&self, band: Range<usize>, sink: &mut Sink) {
        let (field, cols, weak) = (self.field, self.field.cols, self.weak);
        let mut sweep = Sweep::new(self.disk);
        let mut acc = vec![0u16; cols];
        let mut flag = vec![0u8; cols];
        let mut maybe = vec![0u8; cols];
        for r in band {
            sweep.row::<u16, u16, 32>(field, self.share, r, &mut acc, |t, me, _, them, its| {
                // An all-ones mask for enemies (empty cells carry share 0).
                t.saturating_add(its & 0u16.wrapping_sub((them != me) as u16))
            });
            let mine = &weak[r * cols..(r + 1) * cols];
            let own = field.row(r);
            let unit = u32::from(DAMAGE_UNIT);
            // Ants between the bounds: T < K < T + w(a).
            let between = |total: u16, w: W, me: u8| {
                let high = u32::from(total) + w.index() as u32 > unit;
                (me != NO_ANT) & (total < DAMAGE_UNIT) & high
            };
            let mut unsure = 0u8;
            let cells = flag.iter_mut().zip(maybe.iter_mut());
            for ((f, m), (&total, (&w, &me))) in cells.zip(acc.iter().zip(mine.iter().zip(own))) {
                *f = (total >= DAMAGE_UNIT) as u8;
                *m = between(total, w, me) as u8;
                unsure |= *m;
            }
            if unsure != 0 {
                for_each_death(&mut maybe, own, |c| {
                    flag[c] = exact_damage_reaches_one(field, self.disk, weak, r, c) as u8;
                });
            }
            sink.row(r, &mut flag, own);
        }
    }
}

/// Exact test of sum(1/w(e)) >= 1 over the enemy list of the ant at (r, c),
/// grouping the terms by denominator.
fn exact_damage_reaches_one<W: Weakness>(
    field: &Field,
    disk: &[Offset],
    weak: &[W],
    r: usize,
    c: usize,
) -> bool {
    let me = field.owner[r * field.cols + c];
    let mut count = [0u64; 317];
    for &o in disk {
        let s = (r as isize + o.dr).rem_euclid(field.rows as isize) as usize;
        let x = (c as isize + o.dc).rem_euclid(field.cols as isize) as usize;
        let cell = s * field.cols + x;
        if is_enemy(me, field.owner[cell]) {
            count[weak[cell].index()] += 1;
        }
    }
    reaches_one(&count)
}

/// sum over w of count[w] / w >= 1, exactly (count[0] is ignored). Most
/// lists have few distinct denominators whose lcm fits in 128 bits; the
/// general case uses 512-bit integers, as lcm(1..316) * 316 < 2^465.
fn reaches_one(count: &[u64]) -> bool {
    let present = || count.iter().enumerate().skip(1).filter(|x| *x.1 > 0);
    let mut lcm = 1u128;
    let mut small = true;
    for (w, _) in present() {
        let w = w as u128;
        let next = lcm / gcd128(lcm, w) * w;
        if next >= 1 << 100 {
            small = false;
            break;
        }
        lcm = next;
    }
    if small {
        // Each part is below 2^100 and there are at most 316 terms.
        let sum: u128 = present()
            .map(|(w, &k)| lcm / w as u128 * u128::from(k))
            .sum();
        return sum >= lcm;
    }
    reaches_one_big(count)
}

/// [`reaches_one`] with 512-bit integers only.
fn reaches_one_big(count: &[u64]) -> bool {
    let present = || count.iter().enumerate().skip(1).filter(|x| *x.1 > 0);
    let mut lcm = Big::from(1);
    for (w, _) in present() {
        let (_, rem) = lcm.div_small(w as u64);
        lcm.mul_small(w as u64 / gcd(rem, w as u64));
    }
    let mut sum = Big::from(0);
    for (w, &k) in present() {
        let (mut part, _) = lcm.div_small(w as u64);
        part.mul_small(k);
        sum.add(&part);
    }
    sum >= lcm
}

fn gcd128(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// Unsigned 512-bit integer, little-endian limbs; callers keep values small
/// enough that nothing overflows (see [`reaches_one`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Big([u64; 8]);

impl Big {
    fn from(v: u64) -> Big {
        let mut l = [0u64; 8];
        l[0] = v;
        Big(l)
    }

    fn mul_small(&mut self, m: u64) {
        let mut carry = 0u128;
        for limb in self.0.iter_mut() {
            let t = *limb as u128 * m as u128 + carry;
            *limb = t as u64;
            carry = t >> 64;
        }
        debug_assert_eq!(carry, 0);
    }

    fn div_small(&self, d: u64) -> (Big, u64) {
        let mut q = [0u64; 8];
        let mut rem = 0u128;
        for i in (0..8).rev() {
            let cur = (rem << 64) | self.0[i] as u128;
            q[i] = (cur / d as u128) as u64;
            rem = cur % d as u128;
        }
        (Big(q), rem as u64)
    }

    fn add(&mut self, o: &Big) {
        let mut carry = 0u64;
        for (a, &b) in self.0.iter_mut().zip(&o.0) {
            let (s1, c1) = a.overflowing_add(b);
            let (s2, c2) = s1.overflowing_add(carry);
            *a = s2;
            carry = (c1 | c2) as u64;
        }
        debug_assert_eq!(carry, 0);
    }
}

impl PartialOrd for Big {
    fn partial_cmp(&self, o: &Big) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}

impl Ord for Big {
    fn cmp(&self, o: &Big) -> std::cmp::Ordering {
        self.0.iter().rev().cmp(o.0.iter().rev())
    }
}

/// Applies one attack phase to the map's characters.
pub fn battle(map: &mut Map, scratch: Vec<u8>) {
    let n = map.radius2.unwrap_or(5);
    let mode = map.mode.unwrap_or(AttackMode::Focus);
    let disk = attack_disk(n);
    if disk.is_empty() || map.rows * map.cols == 1 {
        return; // "N = 0, or a 1x1 map: nobody fights."
    }
    let mut field = Field::new(map, scratch);
    // "All deaths are decided on the map before the battle and applied
    // together": the rules read only `field`, deaths go to the characters.
    rules(mode, n, &disk, &mut field, &mut map.cells);
}

/// A band's share of a pass that fills per-cell planes.
trait PlaneWork<T, U>: Sync {
    fn run(&self, band: Range<usize>, a: &mut [T], b: &mut [U]);
}

/// A band's share of a pass that decides deaths.
trait DeathWork: Sync {
    fn run(&self, band: Range<usize>, sink: &mut Sink);
}

// Band work runs compiled for AVX2 where the CPU has it: `run` is inlined
// down to the inner loops, which then use 32-byte vectors.

#[inline(always)]
fn plane_fast<T, U, K: PlaneWork<T, U>>(work: &K, band: Range<usize>, a: &mut [T], b: &mut [U]) {
    #[cfg(target_arch = "x86_64")]
    {
        if is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has just been found to support AVX2.
            unsafe { plane_avx2(work, band, a, b) };
            return;
        }
    }
    work.run(band, a, b)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn plane_avx2<T, U, K: PlaneWork<T, U>>(
    work: &K,
    band: Range<usize>,
    a: &mut [T],
    b: &mut [U],
) {
    work.run(band, a, b)
}

#[inline(always)]
fn death_fast<K: DeathWork>(work: &K, band: Range<usize>, sink: &mut Sink) {
    #[cfg(target_arch = "x86_64")]
    {
        if is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has just been found to support AVX2.
            unsafe { death_avx2(work, band, sink) };
            return;
        }
    }
    work.run(band, sink)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn death_avx2<K: DeathWork>(work: &K, band: Range<usize>, sink: &mut Sink) {
    work.run(band, sink)
}

#[inline(always)]
fn rules(mode: AttackMode, n: u64, disk: &[Offset], field: &mut Field, cells: &mut [u8]) {
    let small = disk.len() < u8::MAX as usize;
    match mode {
        AttackMode::Focus if small => focus::<u8>(field, disk, cells),
        AttackMode::Focus => focus::<u16>(field, disk, cells),
        AttackMode::Damage if small => damage::<u8>(field, disk, cells),
        AttackMode::Damage => damage::<u16>(field, disk, cells),
        AttackMode::Support => support(field, disk, cells),
        AttackMode::Closest => closest(field, disk, n, cells),
    }
}

// --------------------------------------------------------------- output ----

/// Writes the normalised header and the map.
pub fn write_map(map: &Map, out: &mut impl Write) -> io::Result<()> {
    writeln!(out, "rows {}\ncols {}", map.rows, map.cols)?;
    if let Some(p) = map.players {
        writeln!(out, "players {p}")?;
    }
    if let Some(n) = map.radius2 {
        writeln!(out, "attackradius2 {n}")?;
    }
    if let Some(m) = map.mode {
        writeln!(out, "attack {}", m.name())?;
    }
    let mut line = Vec::with_capacity(map.cols + 3);
    for row in map.cells.chunks(map.cols) {
        line.clear();
        line.extend_from_slice(b"m ");
        line.extend_from_slice(row);
        line.push(b'\n');
        out.write_all(&line)?;
    }
    Ok(())
}

/// Everything that can go wrong in [`solve`].
#[derive(Debug)]
pub enum SolveError {
    Input(Failure),
    Output(io::Error),
}

/// Parses `input`, resolves the battle and writes the map to `out`.
pub fn solve<W: Write>(input: &[u8], out: &mut W) -> Result<(), SolveError> {
    solve_owned(input.to_vec(), out)
}

/// [`solve`] that reuses the input buffer as scratch memory.
pub fn solve_owned<W: Write>(input: Vec<u8>, out: &mut W) -> Result<(), SolveError> {
    let mut map = parse(&input).map_err(SolveError::Input)?;
    battle(&mut map, input);
    write_map(&map, out).map_err(SolveError::Output)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(a) = args.first() {
        if a == "--help" || a == "-h" {
            print!("{HELP}");
            return;
        }
        eprintln!("{BIN}: unexpected argument `{a}` (only --help)");
        std::process::exit(2);
    }
    let mut input = Vec::new();
    if let Err(e) = io::stdin().lock().read_to_end(&mut input) {
        eprintln!("{BIN}: line 1: cannot read input: {e}");
        std::process::exit(2);
    }
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let result =
        solve_owned(input, &mut out).and_then(|()| out.flush().map_err(SolveError::Output));
    match result {
        Ok(()) => {}
        Err(SolveError::Input(f)) => {
            eprintln!("{BIN}: {f}");
            std::process::exit(2);
        }
        Err(SolveError::Output(e)) => {
            eprintln!("{BIN}: cannot write output: {e}");
            std::process::exit(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(input: &str) -> Result<String, Failure> {
        let mut out = Vec::new();
        match solve(input.as_bytes(), &mut out) {
            Ok(()) => Ok(String::from_utf8(out).unwrap()),
            Err(SolveError::Input(f)) => Err(f),
            Err(SolveError::Output(e)) => panic!("output error {e}"),
        }
    }

    /// The map rows of the output, without the `m ` prefix.
    fn rows_after(input: &str) -> Vec<String> {
        run(input)
            .unwrap()
            .lines()
            .filter_map(|l| l.strip_prefix("m ").map(str::to_string))
            .collect()
    }

    fn battle_of(mode: &str, r2: u32, rows: &[&str]) -> Vec<String> {
        let mut text = format!(
            "rows {}\ncols {}\nattackradius2 {r2}\nattack {mode}\n",
            rows.len(),
            rows[0].len()
        );
        for r in rows {
            text.push_str(&format!("m {r}\n"));
        }
        rows_after(&text)
    }

    fn err(input: &str) -> String {
        run(input).unwrap_err().to_string()
    }

    #[test]
    fn one_on_one_both_die_in_focus() {
        let got = battle_of("focus", 5, &[".....", ".ab..", "....."]);
        assert_eq!(got, [".....", ".....", "....."]);
    }

    #[test]
    fn sandwich_kills_only_the_middle() {
        let got = battle_of("focus", 5, &[".......", ".a.b.a.", "......."]);
        assert_eq!(got[1], ".a...a.");
    }

    #[test]
    fn three_players_all_die_when_all_in_range() {
        let got = battle_of("focus", 5, &["......", ".a.b..", "..c...", "......"]);
        assert!(got.iter().all(|r| r.chars().all(|c| c == '.')), "{got:?}");
    }

    #[test]
    fn a_dead_ant_on_its_hill_leaves_the_hill_digit() {
        let got = battle_of("focus", 5, &["......", ".Ab...", "......", "......"]);
        assert_eq!(got[1], ".0....");
    }

    #[test]
    fn water_food_and_hills_never_change() {
        let got = battle_of("support", 5, &["%*0.", "a1b.", "....", "...."]);
        assert_eq!(got, ["%*0.", ".1..", "....", "...."]);
    }

    #[test]
    fn radius_zero_and_one_cell_maps_have_no_battle() {
        assert_eq!(battle_of("focus", 0, &["ab", "ba"]), ["ab", "ba"]);
        assert_eq!(battle_of("support", 100, &["a"]), ["a"]);
        assert_eq!(battle_of("damage", 100, &["A"]), ["A"]);
    }

    #[test]
    fn multiplicity_counts_an_enemy_twice_on_a_narrow_map() {
        // 1 x 2 map, r2 = 1: offsets (0,-1) and (0,1) both land on the
        // other cell, so each ant's list holds its enemy twice; (+-1, 0)
        // land on the ant itself and never count.
        let map = Map {
            rows: 1,
            cols: 2,
            players: None,
            radius2: Some(1),
            mode: None,
            cells: b"ab".to_vec(),
        };
        let field = Field::new(&map, Vec::new());
        let disk = attack_disk(1);
        let mut weak = vec![0u8; 2];
        weakness_plane::<u8>(&field, &disk, &mut weak, &mut [], &[0; 317]);
        assert_eq!(weak, [2, 2]);
    }

    #[test]
    fn torus_multiplicity_example() {
        // The fixture `torus_multiplicity`: on a 2 x 4 map the lone `b`
        // of the first row is listed twice by each `a` and dies.
        let got = battle_of("focus", 5, &["..ba", ".b.a"]);
        assert_eq!(got, ["....", "...a"]);
    }

    #[test]
    fn support_kills_every_ant_with_an_enemy() {
        let got = battle_of("support", 1, &["......", ".ab.a.", "......"]);
        assert_eq!(got[1], "....a.");
    }

    #[test]
    fn damage_of_exactly_one_kills() {
        // r2 = 1, 2 x 2 block: each ant has two enemies of weakness 2:
        // 1/2 + 1/2 = 1.
        let got = battle_of("damage", 1, &["....", ".ab.", ".ba.", "...."]);
        assert_eq!(got[1], "....");
        assert_eq!(got[2], "....");
    }

    #[test]
    fn damage_below_one_spares() {
        // `b` has one enemy whose weakness is 2: damage 1/2.
        let got = battle_of("damage", 1, &[".....", ".bab.", "....."]);
        assert_eq!(got[1], ".b.b.");
    }

    #[test]
    fn closest_fights_below_r2_but_not_at_r2() {
        // r2 = 5: `a`..`b` at distance 4 fight, `c`..`d` at 5 do not.
        let got = battle_of(
            "closest",
            5,
            &[
                "..........",
                ".a.b......",
                "..........",
                "......c...",
                "........d.",
            ],
        );
        assert_eq!(got[1], "..........");
        assert_eq!(got[3], "......c...");
        assert_eq!(got[4], "........d.");
    }

    #[test]
    fn closest_chain_links_friends_through_enemies() {
        // a-b-a at distance 1 form one group: all three die at d = 1, and
        // the far `b` (distance 4 from the right `a`) survives because its
        // enemy is gone before d = 4.
        let got = battle_of("closest", 5, &["..........", ".aba.b....", ".........."]);
        assert_eq!(got[1], ".....b....");
    }

    #[test]
    fn closest_nearer_pairs_fight_first() {
        // b is at 1 from a and at 4 from c: a and b die at d = 1, c lives.
        let got = battle_of("closest", 5, &[".........", ".ab.c....", "........."]);
        assert_eq!(got[1], "....c....");
    }

    #[test]
    fn transposed_maps_give_the_same_battle() {
        let rows = ["a.b.", "bba.", ".ab.", "a..b", "b.a.", ".bb.", "aa.b"];
        let cols: Vec<String> = (0..4)
            .map(|c| rows.iter().map(|r| r.as_bytes()[c] as char).collect())
            .collect();
        let col_refs: Vec<&str> = cols.iter().map(String::as_str).collect();
        for mode in ["focus", "support", "damage", "closest"] {
            for r2 in [1, 2, 5, 10, 25] {
                let tall = battle_of(mode, r2, &rows);
                let wide = battle_of(mode, r2, &col_refs);
                for (c, col) in wide.iter().enumerate() {
                    let from_tall: String = tall.iter().map(|r| r.as_bytes()[c] as char).collect();
                    assert_eq!(&from_tall, col, "{mode} r2={r2}");
                }
            }
        }
    }

    #[test]
    fn header_is_normalised_and_optional_keys_stay_out() {
        let out = run("# c\n\nattack damage\ncols 2\nm ..\nrows 1\nscore 3\n").unwrap();
        assert_eq!(out, "rows 1\ncols 2\nattack damage\nm ..\n");
        let out = run("rows 1\ncols 2\nattackradius2 007\nplayers 10\nm ab\n").unwrap();
        assert_eq!(out, "rows 1\ncols 2\nplayers 10\nattackradius2 7\nm ..\n");
    }

    #[test]
    fn crlf_input_gives_the_same_output() {
        let lf = "rows 2\ncols 3\nplayers 2\nm ab.\nm ...\n";
        assert_eq!(run(&lf.replace('\n', "\r\n")).unwrap(), run(lf).unwrap());
        let bad = "rows 1\r\ncols 2\r\nm a\r\n";
        assert_eq!(err(bad), "line 3: map row has 1 cells, expected 2");
    }

    #[test]
    fn bad_inputs_name_their_line() {
        assert_eq!(err(""), "line 1: empty input");
        assert_eq!(
            err("rows 2\ncols 2\nm ..\nm .\n"),
            "line 4: map row has 1 cells, expected 2"
        );
        assert_eq!(
            err("rows 2\ncols 2\nm ..\n"),
            "line 3: 1 map rows, expected 2"
        );
        assert_eq!(
            err("rows 1\ncols 2\nm ..\nm ..\n"),
            "line 4: more map rows than rows 1"
        );
        assert_eq!(
            err("rows 1\ncols 2\nm .x\n"),
            "line 3: unknown cell character `x` in column 2"
        );
        assert!(err("players 2\nrows 1\ncols 2\nm .c\n").starts_with("line 4: ant `c`"));
        assert!(err("rows 1\ncols 2\nm .5\nplayers 4\n").starts_with("line 3: hill `5`"));
        assert!(err("rows 1\ncols 2\nplayers 1\n").starts_with("line 3: players"));
        assert!(err("rows 1\ncols 2\nplayers 11\n").starts_with("line 3: players"));
        assert!(err("attackradius2 -1\n").starts_with("line 1: attackradius2"));
        assert!(err("attackradius2 x\n").starts_with("line 1: attackradius2"));
        assert!(err("attackradius2 101\n").contains("over the limit"));
        assert!(err("attack nearest\n").starts_with("line 1: unknown attack mode"));
        assert_eq!(
            err("rows 1\nm ..\ncols 2\n"),
            "line 2: map row before the cols line"
        );
        assert_eq!(err("cols 2\nm ..\n"), "line 2: missing rows line");
        assert_eq!(err("rows 2\n"), "line 1: missing cols line");
        assert!(err("rows 5001\ncols 5000\n").contains("over the limit"));
        assert!(err("rows 99999999999999999999999\n").contains("over the limit"));
        assert!(err("rows 0\n").contains("positive"));
        assert!(err("rows\n").contains("key value"));
        assert!(err("rows 1\nrows 1\n").contains("duplicate"));
    }

    #[test]
    fn players_may_exceed_the_owners_present() {
        let out = run("rows 1\ncols 3\nplayers 10\nm a.b\n").unwrap();
        assert!(out.ends_with("m ...\n"), "{out}");
    }

    #[test]
    fn big_numbers_divide_and_multiply_back() {
        let mut x = Big::from(1);
        for w in 2..=316u64 {
            x.mul_small(w);
            if x.0[7] != 0 {
                break;
            }
        }
        let (q, r) = x.div_small(97);
        let mut back = q;
        back.mul_small(97);
        back.add(&Big::from(r));
        assert_eq!(back, x);
        assert!(Big::from(3) < Big::from(4));
    }

    #[test]
    fn exact_sums_decide_ties() {
        let mut count = [0u64; 317];
        count[3] = 3;
        assert!(reaches_one(&count) && reaches_one_big(&count));
        count[3] = 2;
        count[4] = 1;
        assert!(!reaches_one(&count) && !reaches_one_big(&count));
        count[12] = 1; // 2/3 + 1/4 + 1/12 = 1
        assert!(reaches_one(&count) && reaches_one_big(&count));
        let mut count = [0u64; 317];
        count[313] = 313; // a prime: 313/313
        assert!(reaches_one(&count));
        count[313] = 312;
        assert!(!reaches_one(&count));
    }

    #[test]
    fn the_wide_path_agrees_with_the_narrow_one() {
        // Many distinct prime denominators push the lcm past 2^100; compare
        // with floating point only where the margin is wide, and the 512-bit
        // path with the 128-bit one where both apply.
        let mut seed = 7u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            seed >> 33
        };
        for _ in 0..2000 {
            let mut count = [0u64; 317];
            let terms = 1 + next() % 60;
            for _ in 0..terms {
                count[1 + (next() % 316) as usize] += 1;
            }
            let f: f64 = count
                .iter()
                .enumerate()
                .skip(1)
                .map(|(w, &k)| k as f64 / w as f64)
                .sum();
            let exact = reaches_one(&count);
            assert_eq!(exact, reaches_one_big(&count));
            if (f - 1.0).abs() > 1e-9 {
                assert_eq!(exact, f >= 1.0, "{count:?}");
            }
        }
    }

    #[test]
    fn the_damage_filter_matches_exact_sums_at_radius_100() {
        // Dense 3-player map at r2 = 100: every ant's received damage,
        // computed exactly term by term, decides its fate.
        let (rows, cols) = (23usize, 29usize);
        let mut seed = 11u64;
        let mut cells = Vec::new();
        for _ in 0..rows * cols {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let x = (seed >> 40) % 10;
            cells.push(if x < 3 { b'a' + x as u8 } else { b'.' });
        }
        let mut map = Map {
            rows,
            cols,
            players: None,
            radius2: Some(100),
            mode: Some(AttackMode::Damage),
            cells: cells.clone(),
        };
        let field = Field::new(&map, Vec::new());
        let disk = attack_disk(100);
        assert_eq!(disk.len(), 316);
        let mut weak = vec![0u16; rows * cols];
        weakness_plane::<u16>(&field, &disk, &mut weak, &mut [], &[0; 317]);
        battle(&mut map, Vec::new());
        for r in 0..rows {
            for c in 0..cols {
                let me = field.owner[r * cols + c];
                if me == NO_ANT {
                    continue;
                }
                let dies = exact_damage_reaches_one(&field, &disk, &weak, r, c);
                let dead = map.cells[r * cols + c] == b'.';
                assert_eq!(dies, dead, "cell {r},{c}");
            }
        }
    }

    #[test]
    fn row_check_finds_bad_bytes_and_owners() {
        assert_eq!(row_check(b".%*"), (false, 0));
        assert_eq!(row_check(b"aJ9"), (false, 10));
        assert_eq!(row_check(b"k"), (true, 0));
        assert!(row_check(b"\x0e").0); // `| 0x20` would make it '.'
        assert!(row_check(b"K").0);
        assert_eq!(cell_class(b'c'), 3);
    }
}
