//! Ants battle: one attack phase of the Google AI Challenge 2011 "Ants"
//! engine: which ants die in battle, and the map afterwards. Where the
//! statement and the engine (`ants.py`) disagree, the engine wins.
//!
//! # Input
//! The engine's map file (header lines, then `m ROW` lines): [`HELP`].
//! One reader, [`parse`], takes it as the engine does or, with `--strict`,
//! in its canonical form only.
//!
//! # Output
//! The header, normalised, and the map after the battle (a dead ant
//! becomes `.`, or its hill's digit); `--explain` adds the reasons.
//!
//! # Rules
//! The map is a torus; the attack disk D holds the offsets (dr, dc) with
//! 0 < dr^2 + dc^2 <= N. An ant's enemy list has one entry per offset
//! landing on an ant of another owner (on a small map, several may land on
//! one); its weakness w is the list's length. All deaths are decided on
//! the map before the battle.
//! - [`focus`]: an ant dies if some enemy e in its list has w(e) <= w(a).
//! - [`support`]: an ant dies if its list is not empty (the engine's code
//!   counts no friends, whatever its docstring says).
//! - [`damage`]: each ant x deals 1/w(x) per entry of its list; an ant
//!   dies at a total >= 1, decided exactly.
//! - [`closest`]: for d = 1..N-1, the living ants with a living enemy at
//!   squared toroidal distance exactly d die together.
//!
//! # Method
//! Owners in one byte per cell. A rule is a [`Sweep`] "for each offset,
//! for each cell of a row" in register blocks, compiled plain and for AVX2
//! ([`run_fast`]), or sliding-window sums ([`DiskRows`], `damage`). Tall
//! maps battle as their transpose. One thread unless `--threads` asks.
//!
//! # Sections
//! Top-down: input (the reader), model (the map, the attack disk, and the
//! engine every rule runs on: [`Sweep`], [`Kernel`], bands and threads,
//! [`decide`]), rules, output, `--explain`, command line. Nothing before
//! the rules calls into them.
//!
//! # Complexity and limits
//! Time O(R * C * |D|) with |D| <= 316 ([`MAX_DISK`]); memory a few bytes
//! per cell. R * C <= 25,000,000 ([`MAX_CELLS`]), N <= 100.
//!
//! # Errors
//! One [`Failure`], one stderr line, exit 2 (bad input or argument) or 1
//! (I/O); no exit 3: every battle has an exact result.

use std::ffi::OsString;
use std::fmt;
use std::io::{self, Read, Write};
use std::ops::{Range, RangeInclusive};
use std::sync::Mutex;
use std::thread;

/// Largest map accepted, in cells.
const MAX_CELLS: usize = 25_000_000;
/// The input's limits, written once: the reader checks them and `HELP`
/// states them (macros, as `concat!` takes only literals).
macro_rules! limit {
    (max_radius2) => {
        100
    };
    (default_radius2) => {
        5
    };
    (min_players) => {
        2
    };
    (max_players) => {
        10
    };
}
/// Largest squared attack radius accepted.
const MAX_RADIUS2: u64 = limit!(max_radius2);
/// N without an `attackradius2` line (the engine's default).
const DEFAULT_RADIUS2: u64 = limit!(default_radius2);
/// The `players` line's range; ant letters a-j and hill digits 0-9 name
/// at most 10.
const MIN_PLAYERS: u64 = limit!(min_players);
const MAX_PLAYERS: u64 = limit!(max_players);
/// |D| at [`MAX_RADIUS2`]: the most offsets, list entries and weakness.
const MAX_DISK: usize = 316;
/// Owner byte of a cell without a living ant.
const NO_ANT: u8 = 0xFF;
/// Maps under this many cells: `focus` fills a whole weakness plane (its
/// page faults do not matter) and `--threads auto` takes one thread.
const SMALL_MAP: usize = 1 << 16;

/// Register blocks of [`Sweep::row`] in cells: for u8, 128 beat 64 (focus
/// N = 5: -5% instructions) and 256 spilled; u16 shares fill them at 64.
const FOCUS_BLOCK: usize = 128;
const ENEMY_BLOCK: usize = 128;
const COUNT_BLOCK: usize = 128;
const SHARE_BLOCK: usize = 64;

// ---- input ------------------------------------------------------------------

/// Everything that can go wrong (docs/contract.md).
#[derive(Debug)]
pub enum Failure {
    /// The whole message.
    BadArgument(String),
    /// The 1-based line and what is wrong there.
    BadInput {
        line: usize,
        what: String,
    },
    /// `--strict`: the first deviation from the canonical form, at a
    /// 1-based line and byte column.
    BadLayout {
        line: usize,
        column: usize,
        what: String,
    },
    /// The OS error.
    UnreadableInput(String),
    UnwritableOutput(String),
}

impl Failure {
    fn exit_code(&self) -> i32 {
        match self {
            Failure::BadArgument(_) | Failure::BadInput { .. } | Failure::BadLayout { .. } => 2,
            Failure::UnreadableInput(_) | Failure::UnwritableOutput(_) => 1,
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::BadArgument(what) => write!(f, "{what}"),
            Failure::BadInput { line, what } => write!(f, "line {line}: {what}"),
            Failure::BadLayout { line, column, what } => {
                write!(f, "line {line} column {column}: {what}")
            }
            Failure::UnreadableInput(error) => write!(f, "cannot read the input: {error}"),
            Failure::UnwritableOutput(error) => write!(f, "cannot write the output: {error}"),
        }
    }
}

/// The attack rule (`attack` key): [`focus`] (the contest's), [`closest`],
/// [`support`], [`damage`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttackMode {
    Focus,
    Closest,
    Support,
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
pub struct Map {
    rows: usize,
    cols: usize,
    players: Option<u64>,
    radius2: Option<u64>,
    mode: Option<AttackMode>,
    cells: Vec<u8>,
}

// shared: show begin, master src/shared/show.rs (edit there, then run scripts/sync-shared)
/// A token for a message, the same in every solver: characters as they
/// are, but each byte of a control character or of invalid UTF-8 as `\xNN`;
/// cut after 40 characters with `...`.
pub(crate) fn show(token: &[u8]) -> String {
    let mut s = String::new();
    let mut rest = token;
    for _ in 0..40 {
        // The character that starts here: the shortest UTF-8 prefix.
        let text = (1..5).find_map(|n| std::str::from_utf8(rest.get(..n)?).ok());
        let len = text.map_or(1, str::len).min(rest.len());
        match text.and_then(|t| t.chars().next()) {
            Some(c) if !c.is_control() => s.push(c),
            _ => rest[..len].iter().for_each(|b| s += &format!("\\x{:02x}", b)),
        }
        rest = &rest[len..];
    }
    if !rest.is_empty() {
        s += "...";
    }
    s
}
// shared: show end

/// A non-negative decimal integer; huge values saturate (and then fail the
/// range checks), anything else is `None`.
fn parse_count(value: &[u8]) -> Option<u64> {
    if value.is_empty() || !value.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(value.iter().fold(0u64, |n, &d| n.saturating_mul(10).saturating_add(u64::from(d - b'0'))))
}

/// What [`row_check`] finds in a map row.
#[derive(Clone, Copy)]
struct RowCheck {
    /// Some byte is no map character.
    has_bad_byte: bool,
    /// 1 + the largest owner of an ant or hill in the row (0: none).
    owners: u8,
}

/// Checks a map row in one branch-free (vectorised) pass.
#[inline]
fn row_check(row: &[u8]) -> RowCheck {
    let mut bad = 0u8;
    let mut top = 0u8;
    for &b in row {
        // `| 0x20` folds A-J onto a-j and leaves digits alone; the plain
        // cells are tested on the byte itself.
        let letter = (b | 0x20).wrapping_sub(b'a');
        let digit = b.wrapping_sub(b'0');
        let (is_letter, is_digit) = (letter < 10, digit < 10);
        let plain = (b == b'.') | (b == b'%') | (b == b'*');
        bad |= u8::from(!(is_letter | is_digit | plain));
        let owner_letter = if is_letter { letter + 1 } else { 0 };
        let owner_digit = if is_digit { digit + 1 } else { 0 };
        top = top.max(owner_letter | owner_digit);
    }
    RowCheck { has_bad_byte: bad != 0, owners: top }
}

/// Owner of the ant or hill in a map character, if any.
fn cell_owner(b: u8) -> Option<u8> {
    let check = row_check(&[b]);
    (!check.has_bad_byte && check.owners > 0).then(|| check.owners - 1)
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

/// Returns a `BadInput` at the given line, with a `format!` message.
macro_rules! bail {
    ($line:expr, $($what:tt)*) => {
        return Err(Failure::BadInput { line: $line, what: format!($($what)*) })
    };
}

/// A value read from the input, with its 1-based line for messages.
#[derive(Clone, Copy)]
struct Located<T> {
    value: T,
    line: usize,
}

impl<T> Located<T> {
    fn new(value: T, line: usize) -> Self {
        Located { value, line }
    }
}

/// Refuses a second line with the same header key.
fn once<T>(slot: &Option<T>, line: usize, key: &[u8]) -> Result<(), Failure> {
    if slot.is_some() {
        bail!(line, "duplicate {} line", show(key));
    }
    Ok(())
}

/// The header keys of `--strict`, in their one order: `rows` and `cols`
/// required, the others optional.
const HEADER_KEYS: [&str; 5] = ["rows", "cols", "players", "attackradius2", "attack"];

/// Reads the whole input, as the engine does or, with `strict` (`--strict`,
/// `--validate`), in its canonical form only.
///
/// Leniently, header lines `key value` come in any order except that
/// `cols` must precede the map rows (the engine needs the width first);
/// blanks and a CR around a line, blank lines, `#` lines and other keys
/// (`score`, `hive`) do not matter.
///
/// Strictly, the header is `rows R`, `cols C`, then, each if present and in
/// this order, `players P`, `attackradius2 N`, `attack MODE`; then exactly R
/// lines `m ROW` of exactly C cells. One space between key and value,
/// numbers without leading zeros, every line (the last too) ends with LF;
/// no CR, tab, blank line, `#` line or other key, nothing after the map.
/// The first deviation is reported as `line L column C: ...` (C counts
/// bytes from 1).
///
/// Both readings go through the same lines and the same rules of values,
/// cells and owners; `strict` adds the layout ([`Reader::layout`], before
/// each line is read) and its own words for a refusal. A line that passes
/// the layout check passes the lenient rules too, so what `--strict`
/// accepts reads to the map the lenient reading gives.
pub fn parse(input: &[u8], strict: bool) -> Result<Map, Failure> {
    let mut reader = Reader { input, strict, next_key: 0 };
    if input.is_empty() {
        return Err(reader.refuse(0, "empty input".into()));
    }
    let (mut rows, mut cols) = (None, None);
    let mut players: Option<Located<u64>> = None;
    let (mut radius2, mut mode) = (None, None);
    let mut cells: Vec<u8> = Vec::new();
    let mut map_rows = 0usize;
    // first_owner[o]: the first map row with an ant or hill of a player
    // >= o, to name it if `players` turns out to be o or less.
    let mut first_owner = [None; MAX_PLAYERS as usize + 1];
    // `--strict`: 1 + the highest owner a map row may hold (P precedes
    // the map there).
    let mut strict_top = u8::MAX;
    let (mut line_no, mut pos) = (0usize, 0usize);
    while pos < input.len() {
        line_no += 1;
        let fast = line_end(input, pos, cols);
        let end = fast.unwrap_or_else(|| {
            let rest = input[pos..].iter().position(|&b| b == b'\n');
            rest.map_or(input.len(), |k| pos + k)
        });
        if strict {
            let (rows, cols) = (rows.unwrap_or(0), cols.unwrap_or(0));
            let clean_row = fast.is_some();
            reader.layout(pos, end, Progress { rows, cols, map_rows, clean_row })?;
        }
        let line = trim(&input[pos..end]);
        let start = pos;
        pos = end + 1;
        if line.is_empty() || line[0] == b'#' {
            continue;
        }
        let (key, value) = match line.iter().position(|&b| b == b' ') {
            Some(k) => (&line[..k], trim(&line[k + 1..])),
            None => bail!(line_no, "expected `key value`, found `{}`", show(line)),
        };
        if key == b"m" {
            let c = match cols {
                Some(c) => c,
                None => bail!(line_no, "map row before the cols line"),
            };
            if rows == Some(map_rows) {
                bail!(line_no, "more map rows than rows {map_rows}");
            }
            if value.len() != c {
                bail!(line_no, "map row has {} cells, expected {c}", value.len());
            }
            if cells.len() + c > MAX_CELLS {
                bail!(line_no, "map over the limit of {MAX_CELLS} cells");
            }
            let check = row_check(value);
            if check.has_bad_byte {
                let bad = |&b: &u8| row_check(&[b]).has_bad_byte;
                let i = value.iter().position(bad).unwrap_or(0);
                let ch = show(&value[i..i + 1]);
                bail!(line_no, "unknown cell character `{ch}` in column {}", i + 1);
            }
            // "ant letters and hill digits must be below P": leniently
            // checked at the end (`players` may follow), strictly here.
            if check.owners > strict_top {
                if let Some(players) = players {
                    let (k, what) = not_below_players(value, players);
                    return Err(reader.refuse(start + 2 + k, what));
                }
            }
            for slot in first_owner.iter_mut().take(check.owners as usize) {
                slot.get_or_insert(Located::new(map_rows, line_no));
            }
            cells.extend_from_slice(value);
            map_rows += 1;
            continue;
        }
        // The value's first byte, for `--strict` (whose lines are untrimmed).
        let at = start + key.len() + 1;
        let (name, shown) = (show(key), show(value));
        match key {
            b"rows" | b"cols" => {
                let n = reader.number(at, key, value, 1..=MAX_CELLS as u64, |n| match n {
                    Some(n) if n > MAX_CELLS as u64 => {
                        format!("{name} {shown} over the limit of {MAX_CELLS} cells")
                    }
                    _ => format!("{name} must be a positive integer, found `{shown}`"),
                })? as usize;
                if key == b"rows" {
                    once(&rows, line_no, key)?;
                    if map_rows > n {
                        bail!(line_no, "rows {n} but {map_rows} map rows given");
                    }
                    rows = Some(n);
                } else {
                    once(&cols, line_no, key)?;
                    cols = Some(n);
                }
                if let (Some(r), Some(c)) = (rows, cols) {
                    if r.saturating_mul(c) > MAX_CELLS {
                        let what = format!("map of {r} x {c} cells over the limit of {MAX_CELLS}");
                        return Err(reader.refuse(at, what));
                    }
                }
            }
            b"players" => {
                once(&players, line_no, key)?;
                let range = MIN_PLAYERS..=MAX_PLAYERS;
                let what =
                    |_| format!("players must be {MIN_PLAYERS}..{MAX_PLAYERS}, found `{shown}`");
                let p = reader.number(at, key, value, range, what)?;
                players = Some(Located::new(p, line_no));
                if strict {
                    strict_top = p as u8;
                }
            }
            b"attackradius2" => {
                once(&radius2, line_no, key)?;
                radius2 = Some(reader.number(at, key, value, 0..=MAX_RADIUS2, |n| match n {
                    Some(_) => format!("attackradius2 {shown} over the limit {MAX_RADIUS2}"),
                    None => format!(
                        "attackradius2 must be an integer 0..{MAX_RADIUS2}, found `{shown}`"
                    ),
                })?);
            }
            b"attack" => {
                once(&mode, line_no, key)?;
                use AttackMode::*;
                let known = [Focus, Closest, Support, Damage];
                mode = known.into_iter().find(|m| m.name().as_bytes() == value);
                if mode.is_none() {
                    let all = "focus, closest, support, damage";
                    return Err(reader.refuse(at, format!("unknown attack mode `{shown}` ({all})")));
                }
            }
            _ => {} // `score`, `hive` and other engine keys play no part here.
        }
        if strict && end == input.len() {
            return Err(reader.refuse(end, "no newline at the end of the line".into()));
        }
    }
    if strict {
        reader.layout_at_end(rows.unwrap_or(0), map_rows)?;
    }
    let last = line_no.max(1);
    let (rows, cols) = match (rows, cols) {
        (None, _) => bail!(last, "missing rows line"),
        (_, None) => bail!(last, "missing cols line"),
        (Some(r), Some(c)) => (r, c),
    };
    if map_rows != rows {
        bail!(last, "{map_rows} map rows, expected {rows}");
    }
    if let Some(players) = players {
        if let Some(first) = first_owner[players.value as usize] {
            let row = &cells[first.value * cols..(first.value + 1) * cols];
            let what = not_below_players(row, players).1;
            return Err(Failure::BadInput { line: first.line, what });
        }
    }
    Ok(Map { rows, cols, players: players.map(|p| p.value), radius2, mode, cells })
}

/// Fast path: the end of the line at `pos` if it is a map row of the known
/// width, found without a newline scan (else `None`: the slow path).
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
    if row_check(&input[pos + 2..end]).has_bad_byte {
        None
    } else {
        Some(line_end.min(input.len()))
    }
}

/// Strips blanks and a CR at both ends (`trim_ascii` is newer than 1.70).
fn trim(mut s: &[u8]) -> &[u8] {
    while let [b' ' | b'\t' | b'\r', rest @ ..] = s {
        s = rest;
    }
    while let [rest @ .., b' ' | b'\t' | b'\r'] = s {
        s = rest;
    }
    s
}

/// The first ant or hill in `row` of a player not below P (its index),
/// and the refusal that names it: one wording for both readings.
fn not_below_players(row: &[u8], players: Located<u64>) -> (usize, String) {
    let p = players.value;
    let k = row.iter().position(|&b| cell_owner(b).map(u64::from) >= Some(p)).unwrap_or(0);
    let (b, owner) = (row[k], cell_owner(row[k]).unwrap_or(0));
    let what = if b.is_ascii_digit() { "hill" } else { "ant" };
    let line = players.line;
    (k, format!("{what} `{}` of player {owner} not below players {p} (line {line})", b as char))
}

/// Where [`Reader::layout`]'s line stands: what the lines before it set.
#[derive(Clone, Copy)]
struct Progress {
    /// R and C (0 until their lines).
    rows: usize,
    cols: usize,
    /// Map rows read so far.
    map_rows: usize,
    /// The fast path ([`line_end`]) took the line: `m ` and C cells
    /// without a bad byte.
    clean_row: bool,
}

/// What [`parse`] needs to word a refusal, and `--strict`'s place in
/// the header order.
struct Reader<'a> {
    input: &'a [u8],
    strict: bool,
    /// `--strict`: `HEADER_KEYS[next_key..]` may still come.
    next_key: usize,
}

/// What `--strict` says of a byte that is no cell character.
fn not_a_cell(b: u8) -> String {
    match b {
        b' ' => "a space in a map row".into(),
        b'\r' => "a carriage return (lines end with LF only)".into(),
        _ => format!("unknown cell character `{}`", show(&[b])),
    }
}

/// Returns [`Reader::refuse`]'s failure at byte `$at`, with a `format!`
/// message.
macro_rules! refuse {
    ($reader:expr, $at:expr, $($what:tt)*) => {
        return Err($reader.refuse($at, format!($($what)*)))
    };
}

impl Reader<'_> {
    /// A refusal about byte `at` of the input: `line L: ...`, or under
    /// `--strict` `line L column C: ...` (both counted only here, on the
    /// way out).
    #[cold]
    fn refuse(&self, at: usize, what: String) -> Failure {
        let before = &self.input[..at];
        let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
        if !self.strict {
            return Failure::BadInput { line, what };
        }
        let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |k| k + 1);
        Failure::BadLayout { line, column: at - line_start + 1, what }
    }

    /// A header value at byte `at`: a number in `range`. `lenient` words
    /// the refusal (given the number, if any); `--strict` says it its own
    /// way and also refuses a leading zero (`0` itself is fine). Huge
    /// values saturate and fall outside the range.
    fn number(
        &self,
        at: usize,
        key: &[u8],
        value: &[u8],
        range: RangeInclusive<u64>,
        lenient: impl FnOnce(Option<u64>) -> String,
    ) -> Result<u64, Failure> {
        let n = parse_count(value);
        let leading_zero = self.strict && value.len() > 1 && value[0] == b'0';
        match n {
            Some(n) if range.contains(&n) && !leading_zero => Ok(n),
            _ if !self.strict => Err(self.refuse(at, lenient(n))),
            None => refuse!(self, at, "expected a number, found `{}`", show(value)),
            Some(_) if leading_zero => refuse!(self, at, "leading zero in `{}`", show(value)),
            Some(n) => {
                let (lo, hi) = (range.start(), range.end());
                refuse!(self, at, "{} must be {lo}..{hi}, found {n}", show(key))
            }
        }
    }

    /// `--strict`: the layout of the line `input[pos..end]`, before it is
    /// read: a header line in its place with one space and a value without
    /// blanks (the value itself is checked as it is read), or the next of
    /// the R map rows, exactly `m ROW` and LF.
    fn layout(&mut self, pos: usize, end: usize, so_far: Progress) -> Result<(), Failure> {
        let line = &self.input[pos..end];
        let split = line.iter().position(|&b| b == b' ').unwrap_or(line.len());
        let key = &line[..split];
        if so_far.map_rows > 0 || (key == b"m" && self.next_key >= 2) {
            return self.map_row_layout(pos, end, so_far);
        }
        if line.is_empty() {
            refuse!(self, pos, "blank line");
        }
        let known = HEADER_KEYS.iter().position(|k| k.as_bytes() == key);
        let order = "the header is rows, cols, then players, attackradius2, attack if present";
        match known {
            Some(i) if i == self.next_key || (self.next_key >= 2 && i > self.next_key) => {
                self.next_key = i + 1
            }
            _ if self.next_key < 2 => {
                let want = HEADER_KEYS[self.next_key];
                refuse!(self, pos, "expected the `{want}` line, found `{}`", show(line))
            }
            Some(_) => {
                refuse!(self, pos, "`{}` line out of order or repeated ({order})", show(key))
            }
            None => refuse!(self, pos, "unknown header line `{}` ({order})", show(line)),
        }
        if split == line.len() || split + 1 == line.len() {
            refuse!(self, pos + line.len(), "missing value after `{}`", show(key));
        }
        let value = &line[split + 1..];
        if let Some(k) = value.iter().position(|&b| matches!(b, b' ' | b'\t' | b'\r')) {
            let (what, why) = match value[k] {
                b' ' => ("a space", "one space between key and value, none after"),
                b'\t' => ("a tab", "one space between key and value, none after"),
                _ => ("a carriage return", "lines end with LF only"),
            };
            refuse!(self, pos + split + 1 + k, "{what} in the `{}` line ({why})", show(key));
        }
        Ok(())
    }

    /// `--strict`: map row `so_far.map_rows + 1`, exactly `m ROW` and LF
    /// (its owners are checked as it is read).
    #[inline]
    fn map_row_layout(&self, pos: usize, end: usize, so_far: Progress) -> Result<(), Failure> {
        let Progress { rows, cols, map_rows: r, clean_row } = so_far;
        if r == rows {
            let line = show(&self.input[pos..end]);
            refuse!(self, pos, "nothing may follow the last map row, found `{line}`");
        }
        if clean_row && end == pos + 2 + cols && end < self.input.len() {
            return Ok(());
        }
        self.row_refusal(pos, end, so_far)
    }

    /// `--strict`: what is wrong with the map row, first thing first.
    #[cold]
    fn row_refusal(&self, pos: usize, end: usize, so_far: Progress) -> Result<(), Failure> {
        let Progress { rows, cols, map_rows: r, .. } = so_far;
        let line = &self.input[pos..end];
        if !line.starts_with(b"m ") {
            let found = show(line);
            refuse!(self, pos, "expected map row {} of {rows} (`m ROW`), found `{found}`", r + 1);
        }
        let (row, cells) = (pos + 2, &line[2..]);
        let bad = |&b: &u8| row_check(&[b]).has_bad_byte;
        if let Some(k) = cells.iter().position(bad) {
            refuse!(self, row + k, "{}", not_a_cell(cells[k]));
        }
        if cells.len() != cols {
            let at = row + cells.len().min(cols);
            refuse!(self, at, "map row has {} cells, expected {cols}", cells.len());
        }
        if end == self.input.len() {
            refuse!(self, end, "no newline at the end of the last map row");
        }
        Ok(())
    }

    /// `--strict`: the input ended after every line passed; what is missing.
    fn layout_at_end(&self, rows: usize, map_rows: usize) -> Result<(), Failure> {
        let end = self.input.len();
        if self.next_key < 2 {
            let want = HEADER_KEYS[self.next_key];
            refuse!(self, end, "the input ends before the `{want}` line");
        }
        if map_rows == 0 {
            refuse!(self, end, "the input ends before the first of {rows} map rows");
        }
        if map_rows < rows {
            refuse!(self, end, "the input ends after {map_rows} of {rows} map rows");
        }
        Ok(())
    }
}

// ---- model ------------------------------------------------------------------

impl Map {
    /// N: the `attackradius2` line's, or the engine's default.
    fn radius2(&self) -> u64 {
        self.radius2.unwrap_or(DEFAULT_RADIUS2)
    }

    /// The `attack` line's mode, or the engine's default, focus.
    fn mode(&self) -> AttackMode {
        self.mode.unwrap_or(AttackMode::Focus)
    }
}

/// One offset of the attack disk.
#[derive(Clone, Copy)]
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

/// Weakness counter: u8 while |D| < 255, else u16; no overflow.
trait Weakness:
    Copy + Ord + Default + From<u8> + Into<usize> + std::ops::Add<Output = Self> + Send + Sync
{
    /// Stored for cells without an ant: above every real weakness.
    const SENTINEL: Self;
    fn sat(self, o: Self) -> Self;
}

macro_rules! weakness {
    ($($t:ty),*) => {$(
        impl Weakness for $t {
            const SENTINEL: $t = <$t>::MAX;
            fn sat(self, o: $t) -> $t {
                self.saturating_add(o)
            }
        }
    )*};
}
weakness!(u8, u16);

/// The battlefield as the rules see it: one owner byte per cell ([`NO_ANT`]
/// where no living ant stands).
struct Field {
    rows: usize,
    cols: usize,
    owner: Vec<u8>,
    /// Row bands: one job each for [`run_jobs`].
    bands: Vec<Range<usize>>,
}

impl Field {
    /// `scratch` (the input: its pages are mapped, fresh ones cost faults)
    /// holds the owners if large enough.
    fn new(map: &Map, mut scratch: Vec<u8>, threads: usize) -> Field {
        let (r, c) = (map.rows, map.cols);
        let mut owner = if scratch.len() >= r * c {
            scratch.truncate(r * c);
            scratch
        } else {
            vec![0u8; r * c] // zeroed pages come lazily, touched by the bands
        };
        let bands = bands(r, threads);
        let jobs = bands.iter().cloned().zip(split_rows(&mut owner, &bands, c));
        run_jobs(jobs.collect(), |(band, part): (Range<usize>, &mut [u8])| {
            let chars = &map.cells[band.start * c..band.end * c];
            for (o, &b) in part.iter_mut().zip(chars) {
                *o = ant_owner(b);
            }
        });
        Field { rows: r, cols: c, owner, bands }
    }

    fn row(&self, r: usize) -> &[u8] {
        &self.owner[r * self.cols..(r + 1) * self.cols]
    }
}

// The model's engine, which every rule runs on: sweeps, bands, threads. A
// rule is a kernel over a band of rows, sweeping offsets and cells; bands
// run on threads; `decide` runs a death pass on the bands.

/// A sweep's offsets and their sideways reach.
struct Sweep<'a> {
    field: &'a Field,
    offsets: &'a [Offset],
    reach: usize,
    /// Per offset, where the current row reads.
    starts: Vec<SourceStart>,
}

/// Where offset (dr, dc) reads for row r: row r + dr's start plus dc in
/// the owners and in `aux` (rows taken mod their count), and dc mod cols.
#[derive(Clone, Copy)]
struct SourceStart {
    owner: isize,
    aux: isize,
    shift: usize,
}

impl<'a> Sweep<'a> {
    fn new(field: &'a Field, offsets: &'a [Offset]) -> Sweep<'a> {
        let reach = offsets.iter().map(|o| o.dc.unsigned_abs()).max().unwrap_or(0);
        Sweep { field, offsets, reach, starts: Vec::with_capacity(offsets.len()) }
    }

    /// Folds `op(acc, my owner, my aux, its owner, its aux)` over every
    /// offset into `acc[c]` for each cell c of row `r`. `aux`: a plane, or
    /// a ring of m rows (row v in row v mod m). Inner columns go in blocks
    /// of B cells; the `reach` columns at each side in [`Sweep::range`].
    #[inline(always)]
    fn row<T: Copy, A: Copy + Default, const B: usize>(
        &mut self,
        aux: &[T],
        r: usize,
        acc: &mut [A],
        op: impl Fn(A, u8, T, u8, T) -> A + Copy,
    ) {
        let (field, cols) = (self.field, self.field.cols);
        let own = field.row(r);
        let m = (aux.len() / cols) as isize;
        let own_aux = &aux[r % m as usize * cols..][..cols];
        acc.iter_mut().for_each(|a| *a = A::default());
        self.starts.clear();
        for o in self.offsets {
            let (v, c) = (r as isize + o.dr, cols as isize);
            let (s, a) = (v.rem_euclid(field.rows as isize), v.rem_euclid(m));
            let k = o.dc.rem_euclid(c) as usize;
            self.starts.push(SourceStart { owner: s * c + o.dc, aux: a * c + o.dc, shift: k });
        }
        let reach = self.reach;
        if cols < 2 * reach + B {
            self.range(aux, r, 0..cols, acc, op);
            return;
        }
        let end = cols - reach;
        let mut x = reach;
        while x < end {
            let x0 = x.min(end - B);
            let mut block = [A::default(); B];
            let me = &own[x0..x0 + B];
            let me_aux = &own_aux[x0..x0 + B];
            for &SourceStart { owner: st, aux: sa, .. } in &self.starts {
                let (base, b) = ((st + x0 as isize) as usize, (sa + x0 as isize) as usize);
                // SAFETY: st = s * cols + dc, s < rows, sa = a * cols + dc,
                // a < m, |dc| <= reach <= x0 <= cols - reach - B: base..+B
                // is in row s of the owners, b..+B in row a of `aux`.
                let them = unsafe { field.owner.get_unchecked(base..base + B) };
                let them_aux = unsafe { aux.get_unchecked(b..b + B) };
                let cells = block.iter_mut().zip(me.iter().zip(me_aux));
                for ((a, (&mo, &ma)), (&to, &ta)) in cells.zip(them.iter().zip(them_aux)) {
                    *a = op(*a, mo, ma, to, ta);
                }
            }
            acc[x0..x0 + B].copy_from_slice(&block);
            x = x0 + B;
        }
        self.range(aux, r, 0..reach, acc, op);
        self.range(aux, r, end..cols, acc, op);
    }

    /// The general path of [`Sweep::row`], for some columns of row `r`. Not
    /// inlined (that was a fifth of the compile time): it takes only the
    /// edge columns of a wide map, or the whole of a small one.
    #[inline(never)]
    fn range<T: Copy, A: Copy>(
        &self,
        aux: &[T],
        r: usize,
        columns: Range<usize>,
        acc: &mut [A],
        op: impl Fn(A, u8, T, u8, T) -> A,
    ) {
        let (field, cols, lo, hi) = (self.field, self.field.cols, columns.start, columns.end);
        let own = field.row(r);
        let own_aux = &aux[r % (aux.len() / cols) * cols..][..cols];
        for (start, o) in self.starts.iter().zip(self.offsets) {
            let (st, sa, k) = (start.owner, start.aux, start.shift);
            let (st, sa) = ((st - o.dc) as usize, (sa - o.dc) as usize);
            // Column x reads column (x + k) mod cols: x + k before `split`,
            // x + k - cols from there on.
            let split = cols - k;
            let parts =
                [(lo, hi.min(split), lo + k), (lo.max(split), hi, lo.max(split) + k - cols)];
            for (a, b, from) in parts {
                if a >= b {
                    continue;
                }
                let n = b - a;
                let (f, from) = (sa + from, st + from);
                let them = field.owner[from..from + n].iter().zip(&aux[f..f + n]);
                let mine = own[a..b].iter().zip(&own_aux[a..b]);
                for ((x, (&mo, &ma)), (&to, &ta)) in acc[a..b].iter_mut().zip(mine).zip(them) {
                    *x = op(*x, mo, ma, to, ta);
                }
            }
        }
    }
}

/// Where a band's deaths go: the map characters of its rows.
struct Sink<'a> {
    chars: &'a mut [u8],
    /// The map row of the first row of `chars`.
    first_row: usize,
}

impl Sink<'_> {
    /// `flag[c] != 0` marks a death wherever an ant stands.
    #[inline(always)]
    fn row(&mut self, r: usize, flag: &[u8], own: &[u8]) {
        let (c, r) = (own.len(), r - self.first_row);
        let chars = &mut self.chars[r * c..(r + 1) * c];
        for ((ch, &f), &me) in chars.iter_mut().zip(flag).zip(own) {
            let dies = (f != 0) & (me != NO_ANT);
            *ch = if dies { dead_char(*ch) } else { *ch };
        }
    }
}

/// Calls `f(c)` for each column with a flag and an ant (deaths are sparse).
#[inline(always)]
fn for_each_death(flag: &mut [u8], own: &[u8], mut f: impl FnMut(usize)) {
    for (x, &me) in flag.iter_mut().zip(own) {
        *x = u8::from((*x != 0) & (me != NO_ANT));
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

/// Most threads of `--threads auto`, and of `--threads N`.
const MAX_AUTO_THREADS: usize = 8;
const MAX_THREADS: usize = 64;

/// `--threads auto`: one on small maps, else the CPUs available (from
/// cgroup files), at most [`MAX_AUTO_THREADS`].
fn threads_for(cells: usize) -> usize {
    if cells < SMALL_MAP {
        return 1;
    }
    let cpus = std::thread::available_parallelism();
    cpus.map_or(1, |n| n.get().min(MAX_AUTO_THREADS))
}

/// `threads` bands of consecutive rows (fewer if there are fewer rows).
fn bands(rows: usize, threads: usize) -> Vec<Range<usize>> {
    let k = threads.min(rows).max(1);
    (0..k).map(|i| rows * i / k..rows * (i + 1) / k).collect()
}

/// Cuts a per-cell plane into each band's rows (empty parts if it is empty).
fn split_rows<'a, T>(
    mut plane: &'a mut [T],
    bands: &[Range<usize>],
    cols: usize,
) -> Vec<&'a mut [T]> {
    let cols = if plane.is_empty() { 0 } else { cols };
    let mut cut = |band: &Range<usize>| {
        let (part, rest) = std::mem::take(&mut plane).split_at_mut(band.len() * cols);
        plane = rest;
        part
    };
    bands.iter().map(&mut cut).collect()
}

/// Runs `work` once on every job, on the calling thread and on up to
/// `jobs.len() - 1` worker threads.
fn run_jobs<J: Send>(jobs: Vec<J>, work: impl Fn(J) + Sync) {
    let helpers = jobs.len().saturating_sub(1);
    run_jobs_with(jobs, helpers, work);
}

/// Threads only buy speed: the calling thread drains the queue too, so a
/// thread the OS refuses changes no result and panics nothing.
fn run_jobs_with<J: Send>(jobs: Vec<J>, helpers: usize, work: impl Fn(J) + Sync) {
    let queue = Mutex::new(jobs);
    let drain = || loop {
        // A poisoned lock means a worker panicked; `scope` re-raises that.
        let job = queue.lock().unwrap_or_else(|e| e.into_inner()).pop();
        match job {
            Some(job) => work(job),
            None => return,
        }
    };
    drain_on_threads(helpers, &drain);
}

/// Runs `drain` here and on up to `helpers` threads. Not generic: std's
/// thread code is compiled once, not once per kind of job.
fn drain_on_threads(helpers: usize, drain: &(dyn Fn() + Sync)) {
    thread::scope(|scope| {
        for _ in 0..helpers {
            if thread::Builder::new().spawn_scoped(scope, drain).is_err() {
                break;
            }
        }
        drain();
    });
}

/// Work that [`run_fast`] compiles twice, plain and for AVX2: a band's
/// share of a pass, or a kernel that several bands share.
trait Kernel<J>: Sync {
    fn run(&self, job: J);
}

/// Runs `work` compiled for AVX2 where the CPU has it (`run` is inlined
/// down to the inner loops). Not inlined: each caller's codegen unit got
/// its own copies (2.5 times the compile time).
#[inline(never)]
fn run_fast<J, K: Kernel<J>>(work: &K, job: J) {
    #[cfg(target_arch = "x86_64")]
    {
        if is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has just been found to support AVX2.
            unsafe { run_avx2(work, job) };
            return;
        }
    }
    work.run(job)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn run_avx2<J, K: Kernel<J>>(work: &K, job: J) {
    work.run(job)
}

/// A band's rows of a pass that decides deaths, and where they go.
struct DeathJob<'a> {
    band: Range<usize>,
    sink: Sink<'a>,
}

/// Runs a death pass over all bands; the deaths go to the map's characters.
fn decide<K>(field: &Field, cells: &mut [u8], work: &K)
where
    K: for<'c> Kernel<DeathJob<'c>>,
{
    let (bands, cols) = (&field.bands, field.cols);
    let sinks = split_rows(cells, bands, cols).into_iter().zip(bands);
    let jobs = sinks.map(|(chars, band)| DeathJob {
        band: band.clone(),
        sink: Sink { chars, first_row: band.start },
    });
    run_jobs(jobs.collect(), |job| run_fast(work, job));
}

// ---- rules ------------------------------------------------------------------

/// Applies one attack phase to the map's characters with `threads` row
/// bands (which do not change the result).
pub fn battle(map: &mut Map, scratch: Vec<u8>, threads: usize) {
    let (n, mode) = (map.radius2(), map.mode());
    let disk = attack_disk(n);
    if disk.is_empty() || map.rows * map.cols == 1 {
        return; // "N = 0, or a 1x1 map: nobody fights."
    }
    if map.rows > map.cols {
        // A tall map battles as its transpose (the rules are symmetric),
        // so that rows stay long.
        let (rows, cols) = (map.rows, map.cols);
        map.cells = transpose(&map.cells, rows, cols);
        (map.rows, map.cols) = (cols, rows);
        battle(map, scratch, threads);
        map.cells = transpose(&map.cells, cols, rows);
        (map.rows, map.cols) = (rows, cols);
        return;
    }
    let mut field = Field::new(map, scratch, threads);
    // "All deaths are decided on the map before the battle and applied
    // together": the rules read only `field`, deaths go to the characters.
    let (field, disk, cells) = (&mut field, &disk[..], &mut map.cells[..]);
    let small = disk.len() < u8::MAX as usize; // w <= |D| stays below u8's SENTINEL
    match mode {
        AttackMode::Focus if small => focus::<u8>(field, disk, cells),
        AttackMode::Focus => focus::<u16>(field, disk, cells),
        AttackMode::Damage if small => damage::<u8>(field, disk, cells),
        AttackMode::Damage => damage::<u16>(field, disk, cells),
        AttackMode::Support => support(field, disk, cells),
        AttackMode::Closest => closest(field, disk, n, cells),
    }
}

/// The cells of a `rows` x `cols` map transposed, tile by tile for the
/// cache.
fn transpose(cells: &[u8], rows: usize, cols: usize) -> Vec<u8> {
    /// Side of a tile: 64 source rows of 64 bytes stay in L1.
    const TILE: usize = 64;
    let mut out = vec![0; cells.len()];
    for r0 in (0..rows).step_by(TILE) {
        for c0 in (0..cols).step_by(TILE) {
            for y in r0..(r0 + TILE).min(rows) {
                for x in c0..(c0 + TILE).min(cols) {
                    out[x * rows + y] = cells[y * cols + x];
                }
            }
        }
    }
    out
}

/// "Ants of the same owner never count, in any mode". With [`NO_ANT`] =
/// 0xFF, `them ^ me` as i8 is > 0 only for an enemy: one compare.
#[inline(always)]
fn is_enemy(me: u8, them: u8) -> bool {
    ((them ^ me) as i8) > 0
}

/// `focus`: "an ant with w(a) = 0 survives; otherwise it dies if some enemy e
/// in its list has w(e) <= w(a)".
fn focus<W: Weakness>(field: &Field, disk: &[Offset], cells: &mut [u8]) {
    // Big maps: a band keeps only the 2H + 1 weakness rows around its row
    // (a fresh page costs ~2 us); unit tests use this ring on all maps.
    let mut weak = Vec::new();
    if !cfg!(test) && field.owner.len() < SMALL_MAP {
        weak = vec![W::default(); field.rows * field.cols];
        weakness_plane::<W>(field, disk, &mut weak);
    }
    let work = FocusBand { field, disk, weak: &weak };
    decide(field, cells, &work);
}

struct FocusBand<'a, W> {
    field: &'a Field,
    disk: &'a [Offset],
    weak: &'a [W],
}

impl<W: Weakness> Kernel<DeathJob<'_>> for FocusBand<'_, W> {
    #[inline(always)]
    fn run(&self, DeathJob { band, mut sink }: DeathJob) {
        let (field, cols) = (self.field, self.field.cols);
        let mut sweep = Sweep::new(field, self.disk);
        let mut flag = vec![0u8; cols];
        let h = self.disk.last().map_or(0, |o| o.dr); // the reach
        let m = if self.weak.is_empty() { 2 * h + 1 } else { 0 };
        let mut ring = vec![W::default(); m as usize * cols];
        let (mut acc, mut next) = (vec![W::default(); cols], band.start as isize - h);
        for r in band {
            while next <= r as isize + h && m > 0 {
                let s = next.rem_euclid(field.rows as isize) as usize;
                let slot = next.rem_euclid(m) as usize * cols;
                count_enemies(&mut sweep, s, &mut acc);
                put_weak(field.row(s), &acc, &mut ring[slot..]);
                next += 1;
            }
            let weak = if m > 0 { &ring } else { self.weak };
            sweep.row::<W, u8, FOCUS_BLOCK>(weak, r, &mut flag, |f, me, my_w, them, its_w| {
                // Empty cells carry SENTINEL weakness, so `its_w <= my_w`
                // already excludes them; the owner test excludes friends.
                f | u8::from((them != me) & (its_w <= my_w))
            });
            sink.row(r, &flag, field.row(r));
        }
    }
}

/// `support` "(what the engine really does): an ant dies if its enemy list
/// is not empty. (The engine's docstring speaks of friends; its code counts
/// none.)"
fn support(field: &Field, disk: &[Offset], cells: &mut [u8]) {
    let offsets = disk;
    decide(field, cells, &EnemyBand { field, offsets });
}

/// Kills the ants with an enemy among the offsets (support: all of D;
/// closest: one distance).
struct EnemyBand<'a> {
    field: &'a Field,
    offsets: &'a [Offset],
}

impl Kernel<DeathJob<'_>> for EnemyBand<'_> {
    #[inline(always)]
    fn run(&self, DeathJob { band, mut sink }: DeathJob) {
        let field = self.field;
        let mut sweep = Sweep::new(field, self.offsets);
        let mut flag = vec![0u8; field.cols];
        for r in band {
            sweep.row::<u8, u8, ENEMY_BLOCK>(&field.owner, r, &mut flag, |f, me, _, them, _| {
                f | u8::from(is_enemy(me, them))
            });
            sink.row(r, &flag, field.row(r));
        }
    }
}

/// `closest`: "for d = 1, 2, ..., N - 1 in order ..., take the ants still
/// alive and join every two enemies whose squared toroidal distance is
/// exactly d. Every connected group of two or more ants dies at once."
///
/// An ant is in a group of 2+ exactly when it has such an edge: the dead
/// of step d are the living ants with a living enemy at distance d. The
/// distance is the landing cell's (on a small map maybe not the offset's).
#[inline(always)]
fn closest(field: &mut Field, disk: &[Offset], n: u64, cells: &mut [u8]) {
    for d in 1..n {
        let distance = |o: &&Offset| torus_distance(field.rows, field.cols, o) == d;
        let offsets: Vec<Offset> = disk.iter().filter(distance).copied().collect();
        if offsets.is_empty() {
            continue;
        }
        let offsets = &offsets;
        decide(field, cells, &EnemyBand { field, offsets });
        // The next step sees only the ants still alive.
        for (o, &ch) in field.owner.iter_mut().zip(cells.iter()) {
            *o = if ant_owner(ch) == NO_ANT { NO_ANT } else { *o };
        }
    }
}

/// Squared toroidal distance from a cell to where `o` lands on a map of
/// `rows` x `cols` (per axis min(|delta|, size - |delta|)).
fn torus_distance(rows: usize, cols: usize, o: &Offset) -> u64 {
    let axis = |d: isize, size: usize| {
        let t = d.rem_euclid(size as isize) as usize;
        t.min(size - t) as u64
    };
    let (a, b) = (axis(o.dr, rows), axis(o.dc, cols));
    a * a + b * b
}

/// Fixed-point unit of the damage filter: 2 * lcm(1..12), so 1/w is exact
/// for small w, and below 2^16 for u16 lanes.
const DAMAGE_UNIT: u16 = 55_440;

/// [`damage`] takes sliding windows when |D| exceeds this many offsets per
/// owner (measured at 4 players: a gain at N = 25, a loss at N = 1 and 5).
const WINDOWS_PER_OWNER: usize = 12;

/// The window ring of [`DiskRows`] may take as many lanes as the map has
/// cells, or this many on smaller maps.
const WINDOW_RING_CELLS: usize = 1 << 22;

/// `damage`: "every ant x with w(x) > 0 deals 1/w(x) to each entry of its
/// enemy list ... An ant dies if the damage it receives is >= 1, computed
/// exactly". D is symmetric: a receives 1/w(e) per entry e of its own
/// list. With K = [`DAMAGE_UNIT`], T = sum of floor(K / w(e)) has T <= K *
/// damage < T + w(a): only the rare ants with T < K < T + w(a) are summed
/// exactly.
#[inline(always)]
fn damage<W: Weakness>(field: &Field, disk: &[Offset], cells: &mut [u8]) {
    // Windows if they pay (their cost grows with the owners, the sweep's
    // with |D|) and their ring stays small.
    let p = field.owner.iter().fold(0, |m, &o| m.max(o.wrapping_add(1))) as usize;
    let h = disk.iter().map(|o| o.dc).max().unwrap_or(0) as usize;
    let ring = (2 * h + 1) * (h + 1) * p * field.cols;
    let room = ring <= field.owner.len().max(WINDOW_RING_CELLS);
    let work = DamageBand {
        field,
        disk,
        shares: std::array::from_fn(|w| DAMAGE_UNIT.checked_div(w as u16).unwrap_or(0)),
        window_owners: if disk.len() > WINDOWS_PER_OWNER * p && room { p as u8 } else { 0 },
        weak: std::marker::PhantomData::<W>,
    };
    decide(field, cells, &work);
}

struct DamageBand<'a, W> {
    field: &'a Field,
    disk: &'a [Offset],
    /// floor(K / w) for each w (0 for w = 0).
    shares: [u16; MAX_DISK + 1],
    /// 0: both passes sweep the disk; else both sum it by sliding windows
    /// ([`DiskRows`]) with planes for owners 0..window_owners.
    window_owners: u8,
    weak: std::marker::PhantomData<W>,
}

impl<W: Weakness> Kernel<DeathJob<'_>> for DamageBand<'_, W> {
    #[inline(always)]
    fn run(&self, DeathJob { band, mut sink }: DeathJob) {
        let (field, cols, disk) = (self.field, self.field.cols, self.disk);
        let mut sweep = Sweep::new(field, disk);
        let (mut acc, mut count) = (vec![0u16; cols], vec![W::default(); cols]);
        let mut flag = vec![0u8; cols];
        let mut maybe = vec![0u8; cols];
        // Rings of the 2H + 1 rows of weakness and floor(K / w) around row
        // r, as in `focus`.
        let h = disk.last().map_or(0, |o| o.dr);
        let m = 2 * h as usize + 1;
        let (mut weak, mut share) = (vec![W::default(); m * cols], vec![0u16; m * cols]);
        let mut next = band.start as isize - h;
        let mut enemies = DiskRows::new(field, disk, self.window_owners, next);
        let mut sums = DiskRows::new(field, disk, self.window_owners, band.start as isize);
        for r in band {
            while next <= r as isize + h {
                let s = next.rem_euclid(field.rows as isize) as usize;
                let slot = next.rem_euclid(m as isize) as usize * cols..;
                if self.window_owners > 0 {
                    enemies.next(&[], &mut count);
                } else {
                    count_enemies(&mut sweep, s, &mut count);
                }
                put_weak(field.row(s), &count, &mut weak[slot.clone()]);
                for ((s, &a), &me) in share[slot].iter_mut().zip(&count).zip(field.row(s)) {
                    // The clamp lets the compiler drop the bounds check.
                    let w: usize = a.into();
                    let v = self.shares[w.min(MAX_DISK)];
                    *s = if me == NO_ANT { 0 } else { v };
                }
                next += 1;
            }
            if self.window_owners > 0 {
                // Saturated at 2^16 - 1 >= K, like the sweep: the same
                // answer to T >= K and, when T < K, the same T.
                sums.next(&share, &mut acc);
            } else {
                sweep.row::<u16, u16, SHARE_BLOCK>(&share, r, &mut acc, |t, me, _, them, its| {
                    // An all-ones mask for enemies (empty cells carry share 0).
                    t.saturating_add(its & 0u16.wrapping_sub(u16::from(them != me)))
                });
            }
            let mine = &weak[r % m * cols..][..cols];
            let own = field.row(r);
            let mut unsure = 0u8;
            let cells = flag.iter_mut().zip(maybe.iter_mut());
            for ((f, m), (&total, (&w, &me))) in cells.zip(acc.iter().zip(mine.iter().zip(own))) {
                *f = u8::from(total >= DAMAGE_UNIT);
                // The ants between the bounds, T < K < T + w(a).
                let high = u32::from(total) + Into::<usize>::into(w) as u32 > DAMAGE_UNIT.into();
                *m = u8::from((me != NO_ANT) & (total < DAMAGE_UNIT) & high);
                unsure |= *m;
            }
            if unsure != 0 {
                for_each_death(&mut maybe, own, |c| {
                    flag[c] = u8::from(exact_damage_reaches_one(field, disk, &weak, r, c));
                });
            }
            sink.row(r, &flag, own);
        }
    }
}

/// Disk sums by sliding windows, row after row: e[c] = sum of `value` (1
/// if empty) over D + (0, 0) around (r, c) but its owner's cells,
/// saturated. Per owner, a source row's windows |dc| <= k grow by two
/// columns per k; a target row adds its 2H + 1 windows.
struct DiskRows<'a, L> {
    field: &'a Field,
    /// The largest |dc| of the disk at |dr| = 0..=H (H its reach).
    half_width: Vec<usize>,
    /// Per (source row mod 2H + 1, owner, k = 0..H): the owner's window
    /// sums |dc| <= k in that source row.
    windows: Vec<L>,
    /// The source row being grown, with H wrapped columns at each side.
    padded: Vec<L>,
    /// Per owner, the starts of the 2H + 1 windows a target row adds.
    sums_from: Vec<usize>,
    /// Owners 0..owners have planes.
    owners: usize,
    /// The next source row (virtual: not reduced mod rows).
    next_source: isize,
    first_target: isize,
}

/// Lanes per register block of [`DiskRows`] (128 and 512 were slower).
const WINDOW_BLOCK: usize = 256;

/// Extra lanes between rows of [`DiskRows`]: rows 4 KB apart would share
/// L1 sets.
const WINDOW_ROW_SKEW: usize = 32;

impl<'a, L: Weakness> DiskRows<'a, L> {
    /// Sums for the target rows from `first_target` on, with planes for
    /// owners 0..owners.
    fn new(field: &'a Field, disk: &[Offset], owners: u8, first_target: isize) -> Self {
        let reach = disk.iter().map(|o| o.dc).max().unwrap_or(0) as usize;
        let mut half_width = vec![0; reach + 1];
        for o in disk.iter().filter(|o| o.dr >= 0) {
            let d = o.dr as usize;
            half_width[d] = half_width[d].max(o.dc.unsigned_abs());
        }
        let h = reach;
        let stride =
            (field.cols + WINDOW_BLOCK - 1) / WINDOW_BLOCK * WINDOW_BLOCK + WINDOW_ROW_SKEW;
        let lanes = (2 * h + 1) * (h + 1) * owners as usize * stride;
        DiskRows {
            field,
            half_width,
            windows: vec![L::default(); lanes],
            padded: vec![L::default(); stride + 2 * h],
            sums_from: Vec::new(),
            owners: owners.into(),
            next_source: first_target - h as isize,
            first_target,
        }
    }

    /// The next row's sums into `e`; `value`: a ring of rows, or empty.
    fn next(&mut self, value: &[L], e: &mut [L]) {
        #[cfg(target_arch = "x86_64")]
        {
            if is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has just been found to support AVX2.
                unsafe { self.next_avx2(value, e) };
                return;
            }
        }
        self.next_inline(value, e)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn next_avx2(&mut self, value: &[L], e: &mut [L]) {
        self.next_inline(value, e)
    }

    /// The body of [`DiskRows::next`], inlined into its [`Kernel`].
    #[inline(always)]
    fn next_inline(&mut self, value: &[L], e: &mut [L]) {
        let (field, cols, p) = (self.field, self.field.cols, self.owners);
        let h = self.half_width.len() - 1;
        let stride = self.padded.len() - 2 * h;
        let start = self.first_target - h as isize;
        // The row of `windows` for source row s, owner o, half-width k.
        let slot = |s: isize, o, k| (((s - start) as usize % (2 * h + 1)) * p + o) * (h + 1) + k;
        loop {
            let s = self.next_source;
            self.next_source += 1;
            let sr = s.rem_euclid(field.rows as isize) as usize;
            let (row, pad) = (field.row(sr), &mut self.padded);
            for o in 0..p {
                let mid = pad[h..h + cols].iter_mut().zip(row);
                if value.is_empty() {
                    mid.for_each(|(x, &me)| *x = L::from(u8::from(me == o as u8)));
                } else {
                    let v = s.rem_euclid((value.len() / cols) as isize) as usize;
                    let vals = value[v * cols..].iter();
                    for ((x, &me), &v) in mid.zip(vals) {
                        *x = if me == o as u8 { v } else { L::default() };
                    }
                }
                for i in 0..h {
                    // Wrap, several times over on a narrow map.
                    pad[i] = pad[h + (i + cols * h - h) % cols];
                    pad[h + cols + i] = pad[h + i % cols];
                }
                // Window k is window k - 1 plus two columns.
                let at = slot(s, o, 0) * stride;
                let grown = &mut self.windows[at..at + (h + 1) * stride];
                grown[..stride].copy_from_slice(&pad[h..h + stride]);
                for k in 1..=h {
                    let (done, next) = grown.split_at_mut(k * stride);
                    let sides = pad[h - k..].iter().zip(&pad[h + k..]);
                    let last = done[(k - 1) * stride..].iter().zip(sides);
                    for (n, (&w, (&a, &b))) in next[..stride].iter_mut().zip(last) {
                        *n = w.sat(a).sat(b);
                    }
                }
            }
            // The target row t is complete once source row t + H is grown.
            let t = s - h as isize;
            if t < self.first_target {
                continue;
            }
            self.sums_from.clear();
            for o in 0..p {
                for d in -(h as isize)..=h as isize {
                    let k = self.half_width[d.unsigned_abs()];
                    self.sums_from.push(slot(t + d, o, k) * stride);
                }
            }
            let own = field.row(t.rem_euclid(field.rows as isize) as usize);
            for x in (0..cols).step_by(WINDOW_BLOCK) {
                let mut sum = [L::default(); WINDOW_BLOCK];
                for (o, from) in self.sums_from.chunks(2 * h + 1).enumerate() {
                    let mut part = [L::default(); WINDOW_BLOCK];
                    for &f in from {
                        let window = &self.windows[f + x..f + x + WINDOW_BLOCK];
                        for (a, &b) in part.iter_mut().zip(window) {
                            *a = a.sat(b);
                        }
                    }
                    for ((e, &a), &me) in sum.iter_mut().zip(&part).zip(&own[x..]) {
                        *e = e.sat(if me == o as u8 { L::default() } else { a });
                    }
                }
                let n = WINDOW_BLOCK.min(cols - x);
                e[x..x + n].copy_from_slice(&sum[..n]);
            }
            return;
        }
    }
}

/// Exact test of sum(1/w(e)) >= 1 over the enemy list of the ant at (r, c);
/// `weak`: a ring of m rows (row v in row v mod m).
fn exact_damage_reaches_one<W: Weakness>(
    field: &Field,
    disk: &[Offset],
    weak: &[W],
    r: usize,
    c: usize,
) -> bool {
    let (rows, cols) = (field.rows as isize, field.cols as isize);
    let (r, c) = (r as isize, c as isize);
    let me = field.owner[(r * cols + c) as usize];
    let h = disk.last().map_or(0, |o| o.dr); // the disk's reach, either axis
    let inside = r >= h && r + h < rows && c >= h && c + h < cols;
    let wrap = |v: isize, n| if inside { v } else { v.rem_euclid(n) }; // no division
    let m = (weak.len() / field.cols) as isize;
    let mut enemies = Vec::with_capacity(disk.len());
    for o in disk {
        let (y, x) = (r + o.dr, wrap(c + o.dc, cols));
        if is_enemy(me, field.owner[(wrap(y, rows) * cols + x) as usize]) {
            enemies.push(weak[(y.rem_euclid(m) * cols + x) as usize].into());
        }
    }
    reaches_one(&damage_terms(enemies.into_iter()))
}

/// The damage of `count` list entries of one weakness: count / weakness.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct DamageTerm {
    weakness: u64,
    count: u64,
}

/// The damage 1/w(e) per list entry as terms, each weakness once, in order
/// of first appearance.
fn damage_terms(weaks: impl Iterator<Item = usize>) -> Vec<DamageTerm> {
    let (mut count, mut seen) = ([0u16; MAX_DISK + 1], Vec::with_capacity(MAX_DISK + 1));
    for w in weaks {
        if count[w] == 0 {
            seen.push(w);
        }
        count[w] += 1;
    }
    let term = |&w: &usize| DamageTerm { weakness: w as u64, count: count[w].into() };
    seen.iter().map(term).collect()
}

/// Largest lcm of the denominators that [`reaches_one`] sums in 128 bits:
/// each of at most [`MAX_DISK`] parts stays below it, so does their sum.
const LCM_LIMIT_128: u128 = 1 << 100;

/// sum of count / weakness over the terms >= 1, exactly: in 128 bits if
/// the lcm allows, else in 512 (lcm(1..316) * 316 < 2^465).
fn reaches_one(terms: &[DamageTerm]) -> bool {
    let mut lcm = 1u128;
    for &DamageTerm { weakness: w, .. } in terms {
        // gcd(lcm, w) = gcd(lcm mod w, w): one wide division, then 64 bits.
        let next = lcm * (w / gcd((lcm % u128::from(w)) as u64, w)) as u128;
        if next >= LCM_LIMIT_128 {
            return reaches_one_big(terms);
        }
        lcm = next;
    }
    // Each part is below the limit and there are at most 316 terms.
    let part = |t: &DamageTerm| lcm / u128::from(t.weakness) * u128::from(t.count);
    let sum: u128 = terms.iter().map(part).sum();
    sum >= lcm
}

/// [`reaches_one`] with 512-bit integers only.
fn reaches_one_big(terms: &[DamageTerm]) -> bool {
    let damage = fraction(terms);
    damage.numerator >= damage.denominator
}

/// An exact sum of damage terms (not in lowest terms).
struct Fraction {
    numerator: Big,
    /// The lcm of the terms' weaknesses.
    denominator: Big,
}

/// The sum of count / weakness over the terms.
fn fraction(terms: &[DamageTerm]) -> Fraction {
    let mut lcm = Big::from(1);
    for &DamageTerm { weakness: w, .. } in terms {
        let (_, rem) = lcm.div_small(w);
        lcm.mul_small(w / gcd(rem, w));
    }
    let mut sum = Big::from(0);
    for &DamageTerm { weakness, count } in terms {
        let (mut part, _) = lcm.div_small(weakness);
        part.mul_small(count);
        sum.add(&part);
    }
    Fraction { numerator: sum, denominator: lcm }
}

impl fmt::Display for Big {
    /// Decimal, in base-10^19 parts.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (mut x, mut parts) = (*self, Vec::new());
        loop {
            let (q, part) = x.div_small(10_000_000_000_000_000_000);
            parts.push(part);
            x = q;
            if x == Big::from(0) {
                break;
            }
        }
        write!(f, "{}", parts.pop().unwrap_or(0))?;
        parts.iter().rev().try_for_each(|p| write!(f, "{p:019}"))
    }
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// Unsigned 512-bit integer, most significant limb first (the derived
/// order is the numeric one); [`reaches_one`] keeps it from overflowing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Big {
    limbs: [u64; 8],
}

impl Big {
    fn from(v: u64) -> Big {
        let mut limbs = [0u64; 8];
        limbs[7] = v;
        Big { limbs }
    }

    fn mul_small(&mut self, m: u64) {
        let mut carry = 0u128;
        for limb in self.limbs.iter_mut().rev() {
            let t = *limb as u128 * m as u128 + carry;
            *limb = t as u64;
            carry = t >> 64;
        }
        debug_assert_eq!(carry, 0);
    }

    /// (quotient, remainder) of the division by `d` > 0.
    fn div_small(&self, d: u64) -> (Big, u64) {
        let mut q = [0u64; 8];
        let mut rem = 0u128;
        for (q, &limb) in q.iter_mut().zip(&self.limbs) {
            let cur = (rem << 64) | limb as u128;
            *q = (cur / d as u128) as u64;
            rem = cur % d as u128;
        }
        (Big { limbs: q }, rem as u64)
    }

    fn add(&mut self, o: &Big) {
        let mut carry = 0u128;
        for (a, &b) in self.limbs.iter_mut().zip(&o.limbs).rev() {
            let t = *a as u128 + b as u128 + carry;
            *a = t as u64;
            carry = t >> 64;
        }
        debug_assert_eq!(carry, 0);
    }
}

/// Each ant's weakness into `weak` (SENTINEL where no ant stands).
fn weakness_plane<W: Weakness>(field: &Field, disk: &[Offset], weak: &mut [W]) {
    let (bands, cols) = (&field.bands, field.cols);
    let jobs = bands.iter().cloned().zip(split_rows(weak, bands, cols));
    let jobs = jobs.map(|(band, weak)| WeakJob { band, weak });
    run_jobs(jobs.collect(), |job| run_fast(&WeakBand { field, disk }, job));
}

/// Fills the weakness plane, band by band.
struct WeakBand<'a> {
    field: &'a Field,
    disk: &'a [Offset],
}

/// A band's rows and its part of the weakness plane.
struct WeakJob<'a, W> {
    band: Range<usize>,
    weak: &'a mut [W],
}

impl<W: Weakness> Kernel<WeakJob<'_, W>> for WeakBand<'_> {
    #[inline(always)]
    fn run(&self, WeakJob { band, weak }: WeakJob<W>) {
        let (field, cols) = (self.field, self.field.cols);
        let (mut sweep, mut acc) = (Sweep::new(field, self.disk), vec![W::default(); cols]);
        for r in band.clone() {
            count_enemies(&mut sweep, r, &mut acc);
            put_weak(field.row(r), &acc, &mut weak[(r - band.start) * cols..]);
        }
    }
}

/// Enemies in the disk of each cell of row r.
fn count_enemies<W: Weakness>(sweep: &mut Sweep, r: usize, acc: &mut [W]) {
    run_fast(&CountEnemies, (sweep, r, acc));
}

/// [`count_enemies`] as a [`Kernel`], not inlined in each band.
struct CountEnemies;

impl<W: Weakness> Kernel<(&mut Sweep<'_>, usize, &mut [W])> for CountEnemies {
    #[inline(always)]
    fn run(&self, (sweep, r, acc): (&mut Sweep, usize, &mut [W])) {
        let owner = &sweep.field.owner;
        sweep.row::<u8, W, COUNT_BLOCK>(owner, r, acc, |a, me, _, them, _| {
            a + W::from(u8::from(is_enemy(me, them)))
        });
    }
}

/// Enemy counts into `weak`, SENTINEL where no ant stands.
#[inline(always)]
fn put_weak<W: Weakness>(own: &[u8], acc: &[W], weak: &mut [W]) {
    for ((w, &a), &me) in weak.iter_mut().zip(acc).zip(own) {
        *w = if me == NO_ANT { W::SENTINEL } else { a };
    }
}

// ---- output -----------------------------------------------------------------

/// Parses `input` (then reused as scratch), resolves the battle and
/// writes the map, and the reasons if asked, to `out`; there is no trace.
pub fn solve(
    input: Vec<u8>,
    options: &Options,
    out: &mut impl Write,
    _trace: &mut impl Write,
) -> Result<(), Failure> {
    let mut map = parse(&input, options.strict)?;
    let before = if options.explain { map.cells.clone() } else { Vec::new() };
    let threads = match options.threads {
        0 => threads_for(map.rows * map.cols),
        n => n,
    };
    battle(&mut map, input, threads);
    let mut written = write_map(&map, out);
    if options.explain {
        written = written.and_then(|()| explain(&before, &map, out));
    }
    written.map_err(unwritable)
}

fn unwritable(e: io::Error) -> Failure {
    Failure::UnwritableOutput(e.to_string())
}

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

// ---- explain ----------------------------------------------------------------

/// `--explain` ([`HELP`]): recomputed ant by ant on the map `before` the
/// battle, in O(ants * |D|); the battle only says who died.
fn explain(before: &[u8], map: &Map, out: &mut impl Write) -> io::Result<()> {
    let (rows, cols, n) = (map.rows, map.cols, map.radius2());
    let disk = attack_disk(n);
    let owner: Vec<u8> = before.iter().map(|&b| ant_owner(b)).collect();
    let (ri, ci) = (rows as isize, cols as isize);
    let land = |i: usize, o: &Offset| {
        let (r, c) = ((i / cols) as isize + o.dr, (i % cols) as isize + o.dc);
        r.rem_euclid(ri) as usize * cols + c.rem_euclid(ci) as usize
    };
    // The enemy list of the ant in cell i, as cells, one per offset.
    let list = |i: usize| -> Vec<usize> {
        let cells = disk.iter().map(|o| land(i, o));
        cells.filter(|&j| is_enemy(owner[i], owner[j])).collect()
    };
    let weak: Vec<usize> = (0..owner.len()).map(|i| list(i).len()).collect();
    writeln!(out, "explain")?;
    for r in 0..rows {
        let row = (r * cols..(r + 1) * cols).map(|i| match (owner[i], weak[i]) {
            (NO_ANT, _) => '.',
            (_, w @ 0..=9) => (b'0' + w as u8) as char,
            _ => '+',
        });
        writeln!(out, "w {}", row.collect::<String>())?;
    }
    // closest: the step d at which each ant died (0: alive), replayed.
    let mut step = vec![0u64; owner.len()];
    let mode = map.mode();
    for d in (1..n).filter(|_| mode == AttackMode::Closest) {
        let at_d: Vec<&Offset> =
            disk.iter().filter(|o| torus_distance(rows, cols, o) == d).collect();
        let alive = |i: usize| owner[i] != NO_ANT && step[i] == 0;
        let fights = |i: usize| {
            at_d.iter().any(|o| alive(land(i, o)) && is_enemy(owner[i], owner[land(i, o)]))
        };
        let dying: Vec<usize> = (0..owner.len()).filter(|&i| alive(i) && fights(i)).collect();
        dying.into_iter().for_each(|i| step[i] = d);
    }
    let died = |&i: &usize| owner[i] != NO_ANT && ant_owner(map.cells[i]) == NO_ANT;
    for i in (0..owner.len()).filter(died) {
        let (enemies, w) = (list(i), weak[i]);
        write!(out, "dead {} {} {} ", i / cols, i % cols, owner[i])?;
        match mode {
            AttackMode::Focus => {
                // The enemy of least weakness; on ties the first cell.
                let e = enemies.iter().copied().min_by_key(|&e| (weak[e], e));
                let (e, ew) = e.map_or((0, 0), |e| (e, weak[e]));
                writeln!(out, "focus by {} {} w={w} enemy_w={ew}", e / cols, e % cols)
            }
            AttackMode::Support => writeln!(out, "support enemies={w}"),
            AttackMode::Closest => writeln!(out, "closest d={}", step[i]),
            AttackMode::Damage => {
                let terms = damage_terms(enemies.iter().map(|&e| weak[e]));
                let damage = fraction(&terms);
                let (mut num, mut den) = (damage.numerator, damage.denominator);
                // Lowest terms: the lcm's primes are those of the w.
                let divides_a_weakness = |p: &u64| terms.iter().any(|t| t.weakness % p == 0);
                for p in (2..=MAX_DISK as u64).filter(divides_a_weakness) {
                    while let ((a, 0), (b, 0)) = (num.div_small(p), den.div_small(p)) {
                        (num, den) = (a, b);
                    }
                }
                writeln!(out, "damage {num}/{den}")
            }
        }?;
    }
    Ok(())
}

// ---- command line -----------------------------------------------------------

const BIN: &str = "ants_battle";

const HELP: &str = concat!(
    "\
ants_battle: one attack phase of the 2011 Google AI Challenge Ants engine.
usage:   ants_battle [options] < input
input:   `rows R`, `cols C`, optional `players P` (",
    limit!(min_players),
    "..",
    limit!(max_players),
    "), `attackradius2 N`
         (0..",
    limit!(max_radius2),
    ", default ",
    limit!(default_radius2),
    "), `attack focus|closest|support|damage` (any
         order, `cols` before the map), R lines `m ROW` over . % * a-j (ants)
         A-J (ant on its hill) 0-9 (hill); blank and `#` lines are skipped
output:  the normalised header and the map after the battle
options: --strict     also demand the canonical form, and stop at the first
                      deviation with `line L column C: ...` (C counts bytes
                      from 1): `rows`, `cols`, then `players`,
                      `attackradius2`, `attack` if present, in this order,
                      each once; one space after the key; numbers without
                      leading zeros; the R `m` rows, C cells each; every
                      line ends with LF (no CR); no blank, `#` or other
                      line, nothing after the map
         --threads N  N (1..64) row bands on threads, or `auto` (the CPUs,
                      at most 8); default 1: no thread is started
         --explain    then `explain`, `w ROW` per row (. no ant, weakness
                      0-9, + for 10+), per dead ant `dead ROW COL OWNER WHY`
                      (0-based), WHY `focus by R C w=W enemy_w=E` (its least
                      weak enemy, first cell on ties), `damage NUM/DEN`
                      (lowest terms), `closest d=D` or `support enemies=W`
         --validate   as --strict, writing nothing: exit 42 if the input is
                      valid, 43 and the line if not (a Kattis input validator)
         --help       print this help and exit
exit:    0 ok, 1 unreadable input or unwritable output, 2 bad input or
         argument, 3 not used
"
);

/// The options, one field each.
#[derive(Debug, PartialEq, Eq)]
pub struct Options {
    /// `--strict`: the input must be in its canonical form ([`parse`]).
    pub strict: bool,
    /// `--threads N`: row bands (and threads); 0 for `auto`.
    threads: usize,
    /// `--explain`: the battle's reasons after the map.
    explain: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options { strict: false, threads: 1, explain: false }
    }
}

impl Options {
    /// Sets option `name`, its value from `args` (`false`: no such option).
    fn set(&mut self, name: &str, args: &mut std::slice::Iter<OsString>) -> Result<bool, Failure> {
        match name {
            "--strict" => self.strict = true,
            "--explain" => self.explain = true,
            "--threads" => {
                let none = || refused("option '--threads' needs a value".into());
                let value = args.next().ok_or_else(none)?;
                let value = value.to_str().ok_or_else(not_utf8)?;
                self.threads = match (value, value.parse()) {
                    ("auto", _) => 0,
                    (_, Ok(n)) if (1..=MAX_THREADS).contains(&n) => n,
                    _ => {
                        let why = "not 1..64 or auto";
                        return Err(refused(format!("bad value '{value}' for --threads: {why}")));
                    }
                };
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}

// shared: command-line begin, master src/shared/command_line.rs (edit there, then run scripts/sync-shared)

/// What the command line asks for.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Command {
    Help,
    Run(Options),
}

/// `--help` anywhere wins; else `Options::set` takes each name in turn.
pub(crate) fn parse_args(args: impl Iterator<Item = OsString>) -> Result<Command, Failure> {
    let args: Vec<_> = args.collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        return Ok(Command::Help);
    }
    let mut options = Options::default();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let name = arg.to_str().ok_or_else(not_utf8)?;
        let what = match options.set(name, &mut args)? {
            true => continue,
            // A lone `-` is an argument.
            false if name.len() > 1 && name.starts_with('-') => "unknown option",
            false => "unexpected argument",
        };
        return Err(refused(format!("{what} '{name}'")));
    }
    Ok(Command::Run(options))
}

pub(crate) fn refused(what: String) -> Failure {
    Failure::BadArgument(what + " (see --help)")
}

fn not_utf8() -> Failure {
    refused("an argument is not valid UTF-8".into())
}

/// Not `eprintln!`, which panics if stderr is closed.
pub(crate) fn exit_with(failure: Failure) -> ! {
    let _ = writeln!(io::stderr(), "{}: {}", BIN, failure);
    std::process::exit(failure.exit_code())
}
// shared: command-line end

// shared: solver-run begin, master src/shared/solver_run.rs (edit there, then run scripts/sync-shared)

/// `--validate`'s exit codes, a Kattis input validator's: valid, invalid.
const VALID: i32 = 42;
const INVALID: i32 = 43;

fn main() {
    match run(std::env::args_os().skip(1)) {
        Ok(0) => {}
        Ok(code) => std::process::exit(code),
        Err(failure) => exit_with(failure),
    }
}

/// The help, or stdin through `solve` to stdout; the exit code.
fn run(args: impl Iterator<Item = OsString>) -> Result<i32, Failure> {
    let (validate, args): (Vec<_>, Vec<_>) = args.partition(|a| a == "--validate");
    let validate = !validate.is_empty();
    let mut options = match parse_args(args.into_iter())? {
        Command::Help => {
            let mut out = io::stdout();
            out.write_all(HELP.as_bytes()).and_then(|()| out.flush()).map_err(unwritable)?;
            return Ok(0);
        }
        Command::Run(options) => options,
    };
    if validate && !options.set("--strict", &mut [].iter())? {
        return Err(refused(format!("--validate needs --strict, which {} lacks", BIN)));
    }
    let mut input = Vec::new();
    let read = io::stdin().lock().read_to_end(&mut input);
    read.map_err(|e| Failure::UnreadableInput(e.to_string()))?;
    // One type for both ends, so that `solve` is compiled once: stdout and
    // stderr, or nowhere for `--validate`.
    let (stdout, stderr): (Box<dyn Write>, Box<dyn Write>) = match validate {
        true => (Box::new(io::sink()), Box::new(io::sink())),
        false => (Box::new(io::stdout().lock()), Box::new(io::stderr().lock())),
    };
    let (solved, flushed) = {
        let mut out = io::BufWriter::with_capacity(1 << 16, stdout);
        let mut trace = io::BufWriter::new(stderr);
        let solved = solve(input, &options, &mut out, &mut trace);
        // Both go out before the error line (exit 3 may follow an answer).
        (solved, trace.flush().and(out.flush()))
    };
    if validate {
        return match solved {
            Err(failure) if failure.exit_code() == 2 => {
                let _ = writeln!(io::stderr(), "{}: {}", BIN, failure);
                Ok(INVALID)
            }
            Err(failure) if failure.exit_code() != 3 => Err(failure),
            _ => Ok(VALID),
        };
    }
    solved?;
    flushed.map_err(unwritable)?;
    Ok(0)
}
// shared: solver-run end

#[cfg(test)]
#[path = "../../tests/unit/ants_battle.rs"]
mod tests;
