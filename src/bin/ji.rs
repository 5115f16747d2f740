//! 集 (波波攒) trainer: an AI for any variant, trained by a genetic
//! algorithm and kept in an archive, that a person plays against.
//!
//! The file reads top-down: constants, help and failures; input (the
//! variant, with the block shared with `ji_referee` and `ji_solver`);
//! model (the capped game); rules (for people: names, the rules table,
//! screens that fit 80 columns); output (the session and its commands);
//! then the AI, evaluation (exact: direct linear solves), training and the
//! archive; command line. The commands, model, archive format, exit codes
//! and figures: docs/ji_trainer.md.

use std::ffi::OsString;
use std::fmt;
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};

/// The program's name, as its messages begin.
const BIN: &str = "ji";

/// At most this many skills: the stage games grow with n², and a move set
/// is a `u64` bit mask.
const MAX_SKILLS: usize = 32;
/// At most this C (the largest req): the tables and linear systems grow
/// with (C + 1)² states, and `e` solves a dense system over them.
const MAX_CAP: i64 = 30;
/// `t` without a count: about 11 s on the 2-core machine, and enough to
/// pass the 0.02 exploitability goal on the common variant.
const DEFAULT_GENERATIONS: u64 = 3000;
/// The largest count `t` accepts, so that a typo cannot train for hours.
const MAX_GENERATIONS: u64 = 100_000;
/// Weight tables in the population.
const POPULATION: usize = 40;
/// The best tables that pass to the next generation unchanged.
const ELITES: usize = 4;
/// Tournament size of the selection: the fittest of this many.
const TOURNAMENT: usize = 3;
/// Crossover, per state: the child takes the second parent's weights with
/// this probability...
const FROM_OTHER_PARENT: f64 = 0.4;
/// ...or a blend t·A + (1 − t)·B with this one (else the first parent's).
const BLEND: f64 = 0.1;
/// Mutation step sizes; each child draws one, so coarse and fine moves
/// coexist in a generation.
const MUTATION_SCALES: [f64; 5] = [0.3, 0.1, 0.03, 0.01, 0.003];
/// After each mutated state, another one with this probability: a
/// geometric number of states, mean 2.
const MUTATE_ANOTHER: f64 = 0.5;
/// A mutated state is chosen by its local gap with this probability
/// (else uniformly).
const DIRECTED: f64 = 0.5;
/// A mutated weight is set to 0 with this probability, so that a skill can
/// drop out of the mix entirely.
const DROP_OUT: f64 = 0.03;
/// Progress reports per `t` (one line each when stdout is not a terminal).
const REPORTS: u64 = 60;
/// The terminal width every screen fits.
const COLUMNS: usize = 80;
/// The archive's first line: its format and version.
const ARCHIVE_MAGIC: &str = "ji-archive 1";
/// The largest population an archive may hold (a bound on what a corrupt
/// `population` line can make the trainer allocate and score).
const MAX_ARCHIVED: usize = 10_000;
/// Mixed into the seed for the fresh population (the bytes of "ji_train"),
/// so that it and the AI's moves in `p` draw from different streams.
const POPULATION_STREAM: u64 = 0x6A69_5F74_7261_696E;
/// Added to the seed for the AI's moves in `p` (the bytes of "piay").
const PLAY_STREAM: u64 = 0x7069_6179;
/// The stage games' simplex: a reduced cost or pivot entry within this of
/// 0 counts as 0 (the entries are payoffs in [-1, 1], shifted to >= 1).
const SIMPLEX_EPS: f64 = 1e-11;
/// Two ratios of the simplex's ratio test within this are a tie, broken by
/// Bland's rule (the lowest basis index), so that it cannot cycle.
const RATIO_TIE: f64 = 1e-13;
/// The simplex's pivot cap: Bland's rule ends far sooner; a guard only.
const MAX_PIVOTS: usize = 10_000;
/// The equilibrium's sweep cap (it stops at `FINE_SWEEPS.change`; the
/// common variant takes a few dozen sweeps).
const EQUILIBRIUM_SWEEPS: usize = 20_000;

/// When value iteration stops: no sweep changes a value by more than
/// `change`, or after `max_sweeps` sweeps. A stopping rule, not an error
/// bound: training only ranks individuals with it; `e` solves exactly.
#[derive(Clone, Copy)]
struct Tolerance {
    change: f64,
    max_sweeps: usize,
}

/// Training's best responses: speed first.
const TRAIN_SWEEPS: Tolerance = Tolerance { change: 1e-9, max_sweeps: 5_000 };
/// The equilibrium's stage-game iteration, and the start of `e`'s exact
/// policy iteration.
const FINE_SWEEPS: Tolerance = Tolerance { change: 1e-13, max_sweeps: 200_000 };
/// Policy iteration switches a reply only when it gains more than this
/// (a tie must not make it cycle).
const SWITCH_GAIN: f64 = 1e-12;
/// Policy iteration's round cap (it converges in a few rounds; this is a
/// guard against cycling on rounding).
const MAX_POLICY_ROUNDS: usize = 100;

/// The common variant (the seed's table), the default.
const COMMON_VARIANT: &str = "8
集 1 0 0
小防 0 0 0
中防 0 0 0
大防 -1 1 0
小波 -1 1 2 集 中防
中波 -2 2 3 集 小波 小防
大波 -3 3 5 集 小波 小防 中波 中防
黑洞 -5 5 7 集 小波 小防 中波 中防 大波 大防
";

const HELP: &str = "ji: play 集 (波波攒) against an AI trained by a genetic algorithm.
usage:   ji [options]            (then commands on stdin, typed or scripted)
input:   a variant file (--variant), the population archive (--archive),
         and on stdin
output:  the session on stdout; the archive after each `t`
options: --variant FILE  the variant: n, then n skills
                         `name delta req k beaten...` (default: the common
                         variant 集 小防 中防 大防 小波 中波 大波 黑洞)
         --archive FILE  the population archive, read at start, written
                         after `t` (default: ./archive)
         --seed N        seed of the pseudo-random generator (default: the
                         clock)
         --help          print this help and exit
exit:    0 ok, 1 unreadable input or unwritable output, 2 bad input or
         argument, 3 not used (a bad variant or archive file is bad input)
";

const COMMANDS: &str = "commands, one per line (a letter or its word):
  t, train [G]  train G generations (default 3000), save the archive
  p, play       play a game against the AI (Ctrl-D or q ends the game)
  p best        play against the best strategy (an equilibrium)
  r, rules      the rules of the variant
  s, show       the AI's table: P(skill) per state (own 集, other's 集)
  e, eval       exact evaluation of the AI from (0, 0), exploitability
  h, help       this list
  q, quit       quit (so does Ctrl-D)
";

/// `--help`: [`HELP`] with [`COMMANDS`] inside its `input:` section,
/// indented to the text column as the contract's layout asks.
fn help() -> String {
    let (head, tail) = HELP.split_at(HELP.find("output:").unwrap_or(HELP.len()));
    let mut text = head.to_string();
    for line in COMMANDS.lines() {
        text.push_str("         ");
        text.push_str(line);
        text.push('\n');
    }
    text + tail
}

const MOVE_HELP: &str = "type a skill's number, name or alias; r shows the rules, q gives up";

const NOTHING_TO_PLAY: &str = "no skill needs 0 集, so neither side can move at 0 集";

/// Why a session stopped: stderr `ji: {failure}`, exit `exit_code()`
/// (docs/contract.md; `BadInput` also names its file, as ji reads two).
#[derive(Debug, PartialEq, Eq)]
enum Failure {
    /// A bad command-line argument, worded in full; also a variant or
    /// archive file that cannot be read (a bad value of its option).
    BadArgument(String),
    /// A bad variant or archive `file` (the path as given): a bad line, or
    /// (no line) a valid variant beyond the trainer's capacity, worded as
    /// `ji_variant`'s tests expect of all three programs.
    BadInput { file: String, line: Option<usize>, what: String },
    /// Stdin (the commands) cannot be read.
    UnreadableInput(String),
    /// Stdout cannot be written.
    UnwritableOutput(String),
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::BadArgument(what) => f.write_str(what),
            Failure::BadInput { file, line: Some(line), what } => {
                write!(f, "{file}: line {line}: {what}")
            }
            Failure::BadInput { file, line: None, what } => write!(f, "{file}: {what}"),
            Failure::UnreadableInput(e) => write!(f, "cannot read the input: {e}"),
            Failure::UnwritableOutput(e) => write!(f, "cannot write the output: {e}"),
        }
    }
}

impl Failure {
    /// The one mapping from failures to exit codes.
    fn exit_code(&self) -> i32 {
        match self {
            Failure::BadArgument(_) | Failure::BadInput { .. } => 2,
            Failure::UnreadableInput(_) | Failure::UnwritableOutput(_) => 1,
        }
    }
}

/// A bad line of a text whose file is not known yet (the archive reader's
/// errors); `in_file` names it.
#[derive(Debug, PartialEq, Eq)]
struct BadLine {
    line: usize,
    what: String,
}

impl BadLine {
    fn in_file(self, file: &str) -> Failure {
        Failure::BadInput { file: file.to_string(), line: Some(self.line), what: self.what }
    }
}

/// `?` on an `io::Error` is the output's (`ask` catches stdin's).
impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::UnwritableOutput(e.to_string())
    }
}

/// Text safe on a terminal: controls (an arrow key sends ESC [ A) as `\x1b`
/// (C1: `\u{9b}`), non-UTF-8 as U+FFFD, `...` after 40 characters.
fn shown(text: &[u8]) -> String {
    let mut s = String::new();
    for (i, c) in String::from_utf8_lossy(text).chars().enumerate() {
        match c as u32 {
            _ if i == 40 => return s + "...",
            u if u < 0x80 && c.is_control() => s += &format!("\\x{u:02x}"),
            u if c.is_control() => s += &format!("\\u{{{u:x}}}"),
            _ => s.push(c),
        }
    }
    s
}

// ---- input ------------------------------------------------------------------

/// A skill (技能): changes its user's 集 by `delta`, needs `req` 集.
#[derive(Clone, Debug, PartialEq)]
struct Skill {
    name: String,
    delta: i64,
    req: i64,
}

/// A variant (变体): the skills and the "beats" (强于) relation.
#[derive(Clone, Debug, PartialEq)]
struct Variant {
    skills: Vec<Skill>,
    /// `beats[x]` has bit y set when skill x beats skill y.
    beats: Vec<u64>,
}

fn bits(mask: u64) -> impl Iterator<Item = usize> {
    (0..64).filter(move |&i| mask >> i & 1 == 1)
}

impl Variant {
    fn skill_line(&self, x: usize) -> String {
        let s = &self.skills[x];
        let beaten = bits(self.beats[x]).map(|y| format!(" {}", self.skills[y].name));
        let k = self.beats[x].count_ones();
        format!("{} {} {} {k}", s.name, s.delta, s.req) + &beaten.collect::<String>()
    }

    fn text(&self) -> String {
        let lines = (0..self.skills.len()).map(|x| self.skill_line(x) + "\n");
        format!("{}\n", self.skills.len()) + &lines.collect::<String>()
    }
}

/// Parses a variant (module `format`), then checks the trainer's capacity.
/// `file` names the file in errors, `line_base` shifts their lines (the
/// variant inside an archive).
fn parse_variant(text: &[u8], file: &str, line_base: usize) -> Result<Variant, Failure> {
    let at = |line: usize, what: String| BadLine { line: line + line_base, what };
    let mut lx = format::Lexer::new(text);
    let v = format::parse_variant(&mut lx).map_err(|f| at(f.line, f.what).in_file(file))?;
    if let Some(t) = lx.next() {
        let extra = format::show(t.text);
        let what = format!("extra token `{extra}` after the last skill");
        return Err(at(t.line, what).in_file(file));
    }
    let n = v.skills.len();
    let skills: Vec<Skill> = (v.skills.iter())
        .map(|s| Skill {
            name: String::from_utf8_lossy(s.name).into_owned(),
            delta: s.delta,
            req: s.req,
        })
        .collect();
    // A valid variant beyond the trainer's capacity: refused in its own
    // words (the variant is valid, so no line is at fault).
    let beyond = match skills.iter().find(|s| s.req > MAX_CAP) {
        _ if n > MAX_SKILLS => format!("{n} skills: the trainer handles at most {MAX_SKILLS}"),
        Some(s) => format!(
            "skill `{}`: req {} is beyond the trainer's limit C <= {MAX_CAP}",
            s.name, s.req
        ),
        None => {
            let beaten = |x| (0..n as u32).filter(|&y| v.beats(x, y)).map(|y| 1 << y).sum();
            let beats = (0..n as u32).map(beaten).collect();
            return Ok(Variant { skills, beats });
        }
    };
    Err(Failure::BadInput { file: file.to_string(), line: None, what: beyond })
}

/// The block shared with ji_referee and ji_solver: a module (ji has its own
/// `Variant`), not rustfmt's (it stays identical to its master).
#[rustfmt::skip]
mod format {
/// The shared block's failure: line, what.
pub(crate) struct Failure {
    pub(crate) line: usize,
    pub(crate) what: String,
}

fn bad<T>(line: usize, what: String) -> Result<T, Failure> {
    Err(Failure { line, what })
}

/// For --strict, which ji never sets.
fn bad_at<T>(line: usize, column: usize, what: String) -> Result<T, Failure> {
    bad(line, format!("column {}: {}", column, what))
}

// shared: ji-variant begin, master src/bin/ji_referee.rs (edit there, then run scripts/sync-shared)
// The 集 variant format, the same bytes in ji_referee.rs, ji_solver.rs and
// ji.rs (docs/ji.md has the rules). Errors go through the file's `bad` and
// `bad_at`. Lexing as C++ `cin >> std::string`: only ASCII whitespace
// separates tokens (CRLF reads as LF; U+3000 or NO-BREAK SPACE is part of a
// name); a leading UTF-8 BOM is skipped. Numbers as `cin >> long long`: a
// sign, then digits (`+1`, `-0`, `00`); one that does not fit its 64-bit
// field is bad input. Names: valid UTF-8 of 1..=32 bytes, read by position.
// With `strict`, each record is one line with single spaces (--strict).

/// Longest skill name in bytes.
const MAX_NAME_BYTES: usize = 32;
const BOM: &[u8] = b"\xef\xbb\xbf";

/// One token: a slice of the input and its line.
#[derive(Clone, Copy)]
pub(crate) struct Token<'a> {
    pub(crate) text: &'a [u8],
    pub(crate) line: usize,
}

impl Token<'_> {
    /// Rejects the input at this token's line.
    fn fail<T>(&self, what: String) -> Result<T, Failure> {
        bad(self.line, what)
    }
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// Splits the input into tokens without allocating per token.
pub(crate) struct Lexer<'a> {
    buf: &'a [u8],
    /// Where the next token is looked for, and its line.
    pos: usize,
    line: usize,
    /// Line of the last token read: where an unexpected end is reported.
    last: usize,
    /// Check the statement's layout (--strict) in `expect` and `end_record`.
    strict: bool,
    /// The next token starts a record (with --strict: a line).
    fresh: bool,
}

impl<'a> Lexer<'a> {
    pub(crate) fn new(buf: &'a [u8]) -> Self {
        Lexer { buf, pos: 0, line: 1, last: 1, strict: false, fresh: true }
    }

    /// The next token, if any (no layout check).
    pub(crate) fn next(&mut self) -> Option<Token<'a>> {
        if self.pos == 0 && self.buf.starts_with(BOM) {
            self.pos = BOM.len();
        }
        while self.pos < self.buf.len() && is_space(self.buf[self.pos]) {
            if self.buf[self.pos] == b'\n' {
                self.line += 1;
            }
            self.pos += 1;
        }
        if self.pos == self.buf.len() {
            return None;
        }
        let start = self.pos;
        while self.pos < self.buf.len() && !is_space(self.buf[self.pos]) {
            self.pos += 1;
        }
        self.last = self.line;
        Some(Token { text: &self.buf[start..self.pos], line: self.line })
    }

    /// The next token, or a failure naming what was expected (built only
    /// on failure). With --strict, one space must precede it, or none at
    /// the start of a record.
    fn expect<F: Fn() -> String>(&mut self, what: F) -> Result<Token<'a>, Failure> {
        let (gap, line) = (self.pos, self.line);
        let t = match self.next() {
            Some(t) => t,
            None => {
                let what = format!("unexpected end of input: expected {}", what());
                return bad(self.last, what);
            }
        };
        if self.strict {
            let sep = &self.buf[gap..self.pos - t.text.len()];
            let (at, want) = match (self.fresh, sep) {
                (true, []) | (false, [b' ']) => (None, ""),
                (true, _) => (Some(gap), "at the start of the line"),
                (false, [b' ', ..]) => (Some(gap + 1), "after a single space"),
                (false, _) => (Some(gap), "after a single space"),
            };
            if let Some(p) = at {
                let found = self.describe(p);
                return bad_at(
                    line,
                    self.column(p),
                    format!("expected {} {}, found {}", what(), want, found),
                );
            }
        }
        self.fresh = false;
        Ok(t)
    }

    /// Ends a record. With --strict, its line ends here; the `last` one
    /// also ends the input.
    fn end_record(&mut self, last: bool) -> Result<(), Failure> {
        self.fresh = true;
        if !self.strict {
            return Ok(());
        }
        let p = self.pos;
        let eol = self.line_end(p);
        match self.buf.get(p) {
            _ if eol > 0 => {
                self.pos += eol;
                self.line += 1;
            }
            Some(_) => {
                let what = format!("expected the end of the line, found {}", self.describe(p));
                return bad_at(self.line, self.column(p), what);
            }
            None => {
                let what = "expected a newline at the end of the input".to_string();
                return bad_at(self.line, self.column(p), what);
            }
        }
        if last && self.pos < self.buf.len() {
            let what = format!("expected the end of the input, found {}", self.describe(self.pos));
            return bad_at(self.line, 1, what);
        }
        Ok(())
    }

    /// With --strict, an integer token as the statement writes it: digits
    /// without a leading zero, after a `-` if negative; no `+`, no `-0`
    /// (a judge's input validator must refuse `007` as it refuses `7 `).
    fn plain_int(&self, t: &Token<'a>, field: &str) -> Result<(), Failure> {
        let digits = t.text.strip_prefix(b"-").unwrap_or(t.text);
        let padded = digits.len() > 1 && digits[0] == b'0';
        if !self.strict || !(padded || t.text.starts_with(b"+") || t.text == b"-0") {
            return Ok(());
        }
        let p = t.text.as_ptr() as usize - self.buf.as_ptr() as usize;
        let shown = show(t.text);
        let what = format!("{field} `{shown}`: an integer has no leading zero, `+` or `-0`");
        bad_at(t.line, self.column(p), what)
    }

    /// The length of the line end at byte `p`: 1 (LF), 2 (CRLF) or 0.
    fn line_end(&self, p: usize) -> usize {
        match &self.buf[p..] {
            [b'\n', ..] => 1,
            [b'\r', b'\n', ..] => 2,
            _ => 0,
        }
    }

    /// The 1-based column, in characters, of byte `p`.
    fn column(&self, p: usize) -> usize {
        let start = self.buf[..p].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        String::from_utf8_lossy(&self.buf[start..p]).chars().count() + 1
    }

    /// What the input holds at byte `p`, for a --strict message.
    fn describe(&self, p: usize) -> String {
        let rest = &self.buf[p..];
        let what = match rest[0] {
            _ if self.line_end(p) > 0 => "the end of the line",
            b' ' => "a space",
            b'\t' => "a tab",
            b'\r' => "a carriage return (CR)",
            0x0b => "a vertical tab",
            0x0c => "a form feed",
            _ if rest.starts_with(BOM) => "a byte order mark",
            _ => {
                let end = rest.iter().position(|&b| is_space(b)).unwrap_or(rest.len());
                return format!("`{}`", show(&rest[..end]));
            }
        };
        what.to_string()
    }
}

/// A token for a message, the same in every solver: characters as they
/// are, but each byte of a control character or of invalid UTF-8 as `\xNN`;
/// cut after 40 characters with `...`.
pub(crate) fn show(token: &[u8]) -> String {
    let mut s = String::new();
    let mut rest = token;
    let mut count = 0;
    while !rest.is_empty() && count < 40 {
        // The character that starts here, if these bytes are UTF-8.
        let len = match rest[0] {
            0xc0..=0xdf => 2,
            0xe0..=0xef => 3,
            0xf0..=0xf7 => 4,
            _ => 1,
        };
        let text = rest.get(..len).and_then(|b| std::str::from_utf8(b).ok());
        let c = text.and_then(|text| text.chars().next());
        let len = if c.is_some() { len } else { 1 };
        match c {
            Some(c) if !c.is_control() => s.push(c),
            _ => rest[..len].iter().for_each(|b| s += &format!("\\x{:02x}", b)),
        }
        rest = &rest[len..];
        count += 1;
    }
    if !rest.is_empty() {
        s += "...";
    }
    s
}

/// An integer token (a sign, then ASCII digits), clamped past 2^65.
fn parse_int(text: &[u8]) -> Option<i128> {
    let (neg, digits) = match text.first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let mut v: i128 = 0;
    for &d in digits {
        v = (v * 10 + i128::from(d - b'0')).min(1 << 65);
    }
    Some(if neg { -v } else { v })
}

/// A 64-bit integer token.
fn parse_i64(text: &[u8]) -> Option<i64> {
    parse_int(text).and_then(|v| i64::try_from(v).ok())
}

/// A non-negative 64-bit integer token (`-0` is 0).
fn parse_u64(text: &[u8]) -> Option<u64> {
    parse_int(text).and_then(|v| u64::try_from(v).ok())
}

/// A small fast hasher for the name table (names are short byte strings).
#[derive(Default)]
struct FxHasher(u64);

impl std::hash::Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

type FxBuild = std::hash::BuildHasherDefault<FxHasher>;

/// One skill (技能): its name, its change of 集, the least 集 it needs.
pub(crate) struct Skill<'a> {
    pub(crate) name: &'a [u8],
    pub(crate) delta: i64,
    pub(crate) req: i64,
}

/// A variant (变体): the skills, in input order, and "beats".
pub(crate) struct Variant<'a> {
    pub(crate) skills: Vec<Skill<'a>>,
    index: std::collections::HashMap<&'a [u8], u32, FxBuild>,
    /// Pairs (winner, loser), packed as `winner << 32 | loser`.
    beats: std::collections::HashSet<u64, FxBuild>,
}

fn pair(winner: u32, loser: u32) -> u64 {
    (u64::from(winner) << 32) | u64::from(loser)
}

impl<'a> Variant<'a> {
    /// Whether skill `x` beats skill `y` (ids: input positions).
    pub(crate) fn beats(&self, x: u32, y: u32) -> bool {
        self.beats.contains(&pair(x, y))
    }

    /// The skill a name denotes, if any.
    fn lookup(&self, name: &[u8]) -> Option<u32> {
        self.index.get(name).copied()
    }
}

/// Checks a skill name: 1..=32 bytes of valid UTF-8.
fn check_name(t: &Token<'_>) -> Result<(), Failure> {
    if t.text.len() > MAX_NAME_BYTES {
        let (len, max) = (t.text.len(), MAX_NAME_BYTES);
        let what = format!("skill name `{}` is {} bytes long (at most {})", show(t.text), len, max);
        return t.fail(what);
    }
    match std::str::from_utf8(t.text) {
        Ok(_) => Ok(()),
        Err(_) => t.fail(format!("skill name `{}` is not valid UTF-8", show(t.text))),
    }
}

/// Reads `n` and the n skills, and checks every rule of the format.
pub(crate) fn parse_variant<'a>(lx: &mut Lexer<'a>) -> Result<Variant<'a>, Failure> {
    let t = lx.expect(|| "the number of skills n".to_string())?;
    let n = match (parse_u64(t.text), parse_int(t.text)) {
        (Some(n), _) if n >= 1 => n,
        (None, Some(v)) if v > 0 => {
            return t.fail(format!("n `{}` is beyond 64 bits", show(t.text)))
        }
        (_, Some(_)) => return t.fail("n must be at least 1".to_string()),
        (_, None) => {
            return t.fail(format!("expected the number of skills n, found `{}`", show(t.text)))
        }
    };
    lx.plain_int(&t, "n")?;
    lx.end_record(false)?;
    let mut skills: Vec<Skill<'a>> = Vec::new();
    let mut index = std::collections::HashMap::default();
    // Beaten lists as tokens, resolved once every name is known (a skill
    // may beat one defined after it).
    let mut lists: Vec<(u32, Token<'a>)> = Vec::new();
    let mut lines: Vec<usize> = Vec::new();
    for s in 0..n {
        let what = || format!("skill {} of {}", s + 1, n);
        let name = lx.expect(|| format!("the name of {}", what()))?;
        check_name(&name)?;
        let shown = || show(name.text);
        let int = |t: Token, field: &str, hint: &str| match parse_i64(t.text) {
            Some(v) => Ok(v),
            None => t.fail(format!(
                "skill `{}`: {} `{}` is not a 64-bit integer{}",
                shown(),
                field,
                show(t.text),
                hint
            )),
        };
        let dt = lx.expect(|| format!("the delta of {}", what()))?;
        // A name where delta should be: the previous list was longer.
        let hint = if s > 0 { " (does the previous skill's count k match its list?)" } else { "" };
        let delta = int(dt, "delta", hint)?;
        lx.plain_int(&dt, "delta")?;
        let rt = lx.expect(|| format!("the req of {}", what()))?;
        let req = int(rt, "req", "")?;
        lx.plain_int(&rt, "req")?;
        let least = (-i128::from(delta)).max(0);
        if i128::from(req) < least {
            return rt.fail(format!(
                "skill `{}`: req {} is below its cost (req must be at least max(0, -delta) = {})",
                shown(),
                req,
                least
            ));
        }
        let kt = lx.expect(|| format!("the beaten count k of {}", what()))?;
        let k = match parse_int(kt.text) {
            Some(k) if (0..i128::from(n)).contains(&k) => k,
            Some(k) if k > 0 => {
                let k = parse_u64(kt.text).map_or_else(|| show(kt.text), |k| k.to_string());
                let what = format!(
                    "skill `{}`: beats {} skills but only {} others exist",
                    shown(),
                    k,
                    n - 1
                );
                return kt.fail(what);
            }
            _ => {
                return kt.fail(format!(
                    "skill `{}`: beaten count k `{}` is not a non-negative integer",
                    shown(),
                    show(kt.text)
                ))
            }
        };
        lx.plain_int(&kt, "k")?;
        let id = s as u32;
        for _ in 0..k {
            let b = lx.expect(|| format!("a skill beaten by `{}`", shown()))?;
            lists.push((id, b));
        }
        lx.end_record(false)?;
        if let Some(&first) = index.get(name.text) {
            return name.fail(format!(
                "skill `{}` is defined twice (first on line {})",
                shown(),
                lines[first as usize]
            ));
        }
        index.insert(name.text, id);
        lines.push(name.line);
        skills.push(Skill { name: name.text, delta, req });
    }
    let mut v = Variant { skills, index, beats: std::collections::HashSet::default() };
    for &(w, t) in &lists {
        // Shown only on failure: no allocation per beaten name.
        let wname = || show(v.skills[w as usize].name);
        let l = match v.lookup(t.text) {
            Some(l) => l,
            None => {
                return t.fail(format!(
                    "skill `{}` beats unknown skill `{}`",
                    wname(),
                    show(t.text)
                ))
            }
        };
        if l == w {
            return t.fail(format!("skill `{}` beats itself", wname()));
        }
        if v.beats(l, w) {
            return t.fail(format!(
                "skills `{}` and `{}` beat each other (the relation must be antisymmetric)",
                wname(),
                show(t.text)
            ));
        }
        if !v.beats.insert(pair(w, l)) {
            return t.fail(format!("skill `{}` lists `{}` twice", wname(), show(t.text)));
        }
    }
    Ok(v)
}
// shared: ji-variant end
}

// ---- model ------------------------------------------------------------------

/// A round, seen from the mover.
enum Round {
    Won,
    Lost,
    /// Neither skill beats the other: on to this state.
    Next(usize),
}

/// The capped model: counts 0..=C, state index `own * side + opp`.
struct Model {
    v: Variant,
    n: usize,
    cap: usize,
    side: usize,
    states: usize,
    /// Skills affordable, per capped count.
    afford: Vec<u64>,
    /// Capped count after a skill: `next[count * n + skill]`.
    next: Vec<usize>,
    /// Affordable, undominated skills per state.
    playable: Vec<u64>,
    /// Where each state's weights start in a table.
    offset: Vec<usize>,
    /// Names as printed (`shown`).
    labels: Vec<String>,
    /// ASCII names a person can type.
    aliases: Vec<Option<String>>,
    /// English names, for the skills of the common variant.
    english: Vec<Option<&'static str>>,
}

impl Model {
    fn new(v: Variant) -> Model {
        let n = v.skills.len();
        let cap = v.skills.iter().map(|s| s.req).max().unwrap_or(0) as usize;
        let side = cap + 1;
        let mut afford = vec![0u64; side];
        let mut next = vec![0usize; side * n];
        for c in 0..side {
            for (x, s) in v.skills.iter().enumerate() {
                if s.req <= c as i64 {
                    afford[c] |= 1 << x;
                }
                // "enough for any skill counts as C": the excess is lost.
                let after = (c as i128 + s.delta as i128).clamp(0, cap as i128);
                next[c * n + x] = after as usize;
            }
        }
        let mut m = Model {
            n,
            cap,
            side,
            states: side * side,
            afford,
            next,
            playable: vec![],
            offset: vec![0],
            labels: v.skills.iter().map(|s| shown(s.name.as_bytes())).collect(),
            aliases: aliases(&v),
            english: (v.skills.iter()).map(|s| english(&s.name)).collect(),
            v,
        };
        for s in 0..m.states {
            let p = m.undominated(s / side, s % side);
            m.playable.push(p);
            m.offset.push(m.offset[s] + p.count_ones() as usize);
        }
        m
    }

    fn beats(&self, x: usize, y: usize) -> bool {
        self.v.beats[x] >> y & 1 == 1
    }

    fn counts(&self, s: usize) -> (usize, usize) {
        (s / self.side, s % self.side)
    }

    /// State `s` seen from the opponent.
    fn swapped(&self, s: usize) -> usize {
        let (a, b) = self.counts(s);
        b * self.side + a
    }

    /// The round from `s` where the mover plays `x`, the opponent `y`.
    fn round(&self, s: usize, x: usize, y: usize) -> Round {
        let (a, b) = self.counts(s);
        match (self.beats(x, y), self.beats(y, x)) {
            (true, _) => Round::Won,
            (_, true) => Round::Lost,
            _ => Round::Next(self.next[a * self.n + x] * self.side + self.next[b * self.n + y]),
        }
    }

    /// The mover's payoff of a round, then `value` (mover's view).
    fn payoff(&self, s: usize, x: usize, y: usize, value: &[f64]) -> f64 {
        match self.round(s, x, y) {
            Round::Won => 1.0,
            Round::Lost => -1.0,
            Round::Next(t) => value[t],
        }
    }

    /// Affordable skills that no other affordable skill does at least as
    /// well as against every reply and better against one. Outcomes rank
    /// win, continue (more own 集 better: it allows more), lose; so
    /// dropping a dominated skill keeps the game's value.
    fn undominated(&self, own: usize, opp: usize) -> u64 {
        let rank = |x: usize, z: usize| match (self.beats(x, z), self.beats(z, x)) {
            (true, _) => self.cap as i64 + 2,
            (_, true) => -1,
            _ => self.next[own * self.n + x] as i64,
        };
        let mine = self.afford[own];
        let mut keep = mine;
        for x in bits(mine) {
            for y in bits(mine).filter(|&y| y != x) {
                let (mut ge, mut gt) = (true, false);
                for z in bits(self.afford[opp]) {
                    let (a, b) = (rank(y, z), rank(x, z));
                    ge &= a >= b;
                    gt |= a > b;
                }
                if ge && gt {
                    keep &= !(1 << x);
                    break;
                }
            }
        }
        keep
    }

    fn genes(&self) -> usize {
        self.offset[self.states]
    }
}

// ---- rules ------------------------------------------------------------------

/// Pinyin of the common variant's characters.
const PINYIN: &str = "集ji 小xiao 中zhong 大da 防fang 波bo 黑hei 洞dong";

/// Each skill's alias, its name in pinyin; none for a printable ASCII name,
/// a character outside the table (the number works), or a clash with a name
/// or another alias.
fn aliases(v: &Variant) -> Vec<Option<String>> {
    let spell = |name: &str| -> Option<String> {
        if name.bytes().all(|b| b.is_ascii_graphic()) {
            return None;
        }
        let mut a = String::new();
        for c in name.chars() {
            match PINYIN.split(' ').find_map(|p| p.strip_prefix(c)) {
                Some(p) => a += p,
                None if c.is_ascii_alphanumeric() => a.push(c.to_ascii_lowercase()),
                None => return None,
            }
        }
        Some(a)
    };
    let spelled: Vec<Option<String>> = v.skills.iter().map(|s| spell(&s.name)).collect();
    let clash = |a: &str, me: usize| {
        v.skills.iter().any(|s| s.name.eq_ignore_ascii_case(a))
            || (spelled.iter().enumerate()).any(|(i, b)| i != me && b.as_deref() == Some(a))
    };
    let keep = |(i, a): (usize, &Option<String>)| a.clone().filter(|a| !clash(a, i));
    spelled.iter().enumerate().map(keep).collect()
}

/// English names of the common variant's skills, beside the Chinese one
/// wherever a skill is named (a person who does not read Chinese can
/// still follow a game).
const ENGLISH: [(&str, &str); 8] = [
    ("集", "charge"),
    ("小防", "small shield"),
    ("中防", "medium shield"),
    ("大防", "big shield"),
    ("小波", "small wave"),
    ("中波", "medium wave"),
    ("大波", "big wave"),
    ("黑洞", "black hole"),
];

fn english(name: &str) -> Option<&'static str> {
    ENGLISH.iter().find(|e| e.0 == name).map(|e| e.1)
}

/// Terminal columns: 2 per East Asian wide character.
fn width(s: &str) -> usize {
    let wide = |c: char| {
        matches!(c as u32, 0x1100..=0x115F | 0x2E80..=0x303E | 0x3041..=0x33FF
            | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xA000..=0xA4CF | 0xAC00..=0xD7A3
            | 0xF900..=0xFAFF | 0xFE30..=0xFE4F | 0xFF00..=0xFF60 | 0xFFE0..=0xFFE6
            | 0x1F300..=0x1F64F | 0x1F900..=0x1F9FF | 0x20000..=0x3FFFD)
    };
    s.chars().map(|c| if wide(c) { 2 } else { 1 }).sum()
}

/// `line` cut at spaces into lines of at most `COLUMNS` columns, each
/// continuation indented two columns past the line's own indent; a word
/// too long for a line is cut where it must be. The screens are laid out
/// to fit; this keeps a long custom skill name from overflowing.
fn wrap(line: &str) -> String {
    if width(line) <= COLUMNS {
        return line.to_string();
    }
    let lead = line.len() - line.trim_start_matches(' ').len();
    let indent = " ".repeat((lead + 2).min(8));
    let mut rows = Vec::new();
    let mut row = " ".repeat(lead);
    let mut fresh = true; // no word on `row` yet
    for word in line[lead..].split(' ') {
        if !fresh && width(&row) + 1 + width(word) > COLUMNS {
            rows.push(std::mem::replace(&mut row, indent.clone()));
            fresh = true;
        }
        if !fresh {
            row.push(' ');
        }
        for c in word.chars() {
            let long = width(&row) + width(c.encode_utf8(&mut [0; 4])) > COLUMNS;
            if long && row.len() > indent.len() {
                rows.push(std::mem::replace(&mut row, indent.clone()));
            }
            row.push(c);
        }
        fresh = false;
    }
    rows.push(row);
    let rows: Vec<&str> = rows.iter().map(|r| r.trim_end()).collect();
    rows.join("\n")
}

/// A writer that wraps every complete line it is given (`wrap`) and
/// passes a partial line through at `flush` (a prompt, a progress line
/// redrawn with `\r`).
struct Fit<W: Write> {
    inner: W,
    pending: Vec<u8>,
}

impl<W: Write> Fit<W> {
    fn new(inner: W) -> Fit<W> {
        Fit { inner, pending: Vec::new() }
    }
}

impl<W: Write> Write for Fit<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(buf);
        while let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=end).collect();
            let text = String::from_utf8_lossy(&line[..end]);
            let row = text.rsplit('\r').next().unwrap_or("");
            let head = &text[..text.len() - row.len()];
            self.inner.write_all(head.as_bytes())?;
            self.inner.write_all(wrap(row).as_bytes())?;
            self.inner.write_all(b"\n")?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.write_all(&self.pending)?;
        self.pending.clear();
        self.inner.flush()
    }
}

const RULES_HEAD: &str = "rules: you and the AI play a skill at the same time. If one beats the
other, its player wins; otherwise both pay or gain 集 (charge) and play
goes on. Both start with 0 集; a skill needs `needs` 集 or more to play.";

impl Model {
    /// A skill as shown: its name, then its English name if it has one.
    fn named(&self, x: usize) -> String {
        match self.english[x] {
            Some(e) => format!("{} {e}", self.labels[x]),
            None => self.labels[x].clone(),
        }
    }

    /// A skill as offered: named, then its alias, the ASCII word to type.
    fn offered(&self, x: usize) -> String {
        match &self.aliases[x] {
            Some(a) => format!("{} ({a})", self.named(x)),
            None => self.named(x),
        }
    }

    /// The skill typed: an exact name first (a name `1` wins over the
    /// number 1), then an alias (any case).
    fn find(&self, word: &str) -> Option<usize> {
        let alias = |a: &Option<String>| a.as_deref().is_some_and(|a| a.eq_ignore_ascii_case(word));
        (self.v.skills.iter().position(|s| s.name == word))
            .or_else(|| self.v.skills.iter().position(|s| s.name == word.trim()))
            .or_else(|| self.aliases.iter().position(alias))
    }

    /// The rules as the seed's table gives them (技能名称, 集的损益, 强于),
    /// with the English name, the alias to type, and the 集 each skill
    /// needs. "Beaten by" (弱于) would not fit 80 columns beside them; it
    /// follows from "beats".
    fn rules(&self) -> String {
        let list = |xs: Vec<usize>| match xs.len() {
            0 => "-".to_string(),
            _ => xs.iter().map(|&x| &*self.labels[x]).collect::<Vec<_>>().join(" "),
        };
        let mut rows = vec![["skill", "type", "集", "needs", "beats"].map(String::from)];
        for (x, s) in self.v.skills.iter().enumerate() {
            let gain = match s.delta {
                d if d > 0 => format!("gains {d}"),
                d => format!("costs {}", -(d as i128)),
            };
            rows.push([
                self.named(x),
                self.aliases[x].clone().unwrap_or_else(|| "-".into()),
                gain,
                s.req.to_string(),
                list((0..self.n).filter(|&y| self.beats(x, y)).collect()),
            ]);
        }
        let mut cols = [0; 5];
        for row in &rows {
            for (w, cell) in cols.iter_mut().zip(row) {
                *w = (*w).max(width(cell));
            }
        }
        let mut text = format!("{RULES_HEAD}\n");
        for row in &rows {
            let cells = row.iter().zip(cols);
            let line: String =
                cells.map(|(c, w)| c.clone() + &" ".repeat(w - width(c) + 2)).collect();
            text = text + line.trim_end() + "\n";
        }
        text
    }
}

// ---- output -----------------------------------------------------------------

/// The variant `--variant` names, or the common one.
fn read_variant(options: &Options) -> Result<Variant, Failure> {
    let Some(file) = &options.variant else {
        return parse_variant(COMMON_VARIANT.as_bytes(), "built-in variant", 0);
    };
    let name = file.display().to_string();
    let text = std::fs::read(file).map_err(|e| unreadable_file("--variant", &name, e))?;
    parse_variant(&text, &name, 0)
}

/// A variant or archive file that cannot be read: a bad value of its option.
fn unreadable_file(option: &str, name: &str, e: io::Error) -> Failure {
    let name = shown(name.as_bytes());
    Failure::BadArgument(format!(
        "bad value '{name}' for {option}: cannot read it: {e} (see --help)"
    ))
}

/// Which ends of the session are a terminal: prompts go to a person who
/// types (`input`); progress is redrawn in place (`output`).
#[derive(Clone, Copy)]
struct Terminal {
    input: bool,
    output: bool,
}

/// A session: the model, its equilibrium, the population, and what the
/// person has seen.
struct Session {
    m: Model,
    /// The equilibrium's values (mover's view) and policy.
    value: Vec<f64>,
    eq_policy: Vec<f64>,
    trainer: Trainer,
    archive: PathBuf,
    play_rng: Rng,
    /// The rules are shown once per run, at the first `p` (and on `r`).
    rules_shown: bool,
}

type Done = Result<(), Failure>;

impl Session {
    /// Reads the archive or draws a population; prints the first screen.
    fn new(variant: Variant, options: &Options, out: &mut impl Write) -> Result<Session, Failure> {
        let m = Model::new(variant);
        let (value, eq_policy) = equilibrium(&m);
        // Without --seed, the clock: a person should not meet the same AI
        // moves in every session. Tests always pass --seed.
        let seed = options.seed.unwrap_or_else(|| {
            let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
            t.map_or(0, |d| d.as_nanos() as u64)
        });
        let name = options.archive.display().to_string();
        let (archive, note) = match std::fs::read(&options.archive) {
            Ok(bytes) => {
                let a = parse_archive(&bytes, &name, &m)?;
                let (g, size) = (a.generation, a.population.len());
                (a, format!("archive '{name}': generation {g}, population {size}"))
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                let a =
                    Archive { generation: 0, rng: Rng(seed), population: Trainer::fresh(&m, seed) };
                let note =
                    format!("no archive '{name}': a fresh random population of {POPULATION}");
                (a, note)
            }
            Err(e) => return Err(unreadable_file("--archive", &name, e)),
        };
        let generation = archive.generation;
        let trainer = Trainer::new(&m, &value, archive.population, generation, archive.rng);
        let (n, c, states) = (m.n, m.cap, m.states);
        writeln!(out, "variant: {n} skills, C = {c}, {states} states\n{note}")?;
        let trained = match generation {
            0 => "the AI is untrained (generation 0)".to_string(),
            g => format!("the AI is trained: generation {g}"),
        };
        let expl = trainer.pop[0].expl.max(0.0);
        writeln!(out, "{trained}; exploitability {expl:.6} (0 is unbeatable)")?;
        let next = if m.afford[0] == 0 {
            format!("nothing to play or train: {NOTHING_TO_PLAY}\nr shows the rules, h lists the commands")
        } else {
            "type t to train the AI, p to play against it, r for the rules, h for help".into()
        };
        writeln!(out, "{next}")?;
        Ok(Session {
            trainer,
            m,
            value,
            eq_policy,
            archive: options.archive.clone(),
            play_rng: Rng(seed.wrapping_add(PLAY_STREAM)),
            rules_shown: false,
        })
    }

    /// The AI that plays: the best of the population (`Trainer.pop[0]`).
    fn best(&self) -> Vec<f64> {
        self.m.policy(&self.trainer.pop[0].genes)
    }

    /// `t G`: trains, reports progress, saves the archive. On a terminal
    /// the progress is one line redrawn in place (with the time left, an
    /// estimate from the clock that only a person sees); otherwise a line
    /// per report, the same bytes on every machine.
    fn train(&mut self, gens: u64, out: &mut impl Write, terminal: Terminal) -> Done {
        if self.m.afford[0] == 0 {
            writeln!(out, "nothing to train: {NOTHING_TO_PLAY}")?;
            return Ok(());
        }
        writeln!(
            out,
            "training {gens} generations; fitness = -(exploitability + mean gap over\n\
             the states): higher is better, 0 is unbeatable"
        )?;
        let started = std::time::Instant::now();
        let mut drawn = started;
        let every = (gens + REPORTS - 1) / REPORTS;
        for i in 1..=gens {
            self.trainer.step(&self.m, &self.value);
            let (g, best) = (self.trainer.generation, &self.trainer.pop[0]);
            let (fitness, expl) = (best.fitness, best.expl.max(0.0));
            let report =
                format!("generation {g}: best fitness {fitness:.6}, exploitability {expl:.6}");
            if !terminal.output {
                if i % every == 0 || i == gens {
                    writeln!(out, "{report}")?;
                }
            } else if i == gens {
                writeln!(out, "\r\x1b[K{report}")?;
            } else if drawn.elapsed().as_millis() >= 100 {
                drawn = std::time::Instant::now();
                let per = started.elapsed().as_secs_f64() / i as f64;
                let left = (per * (gens - i) as f64).ceil() as u64;
                write!(out, "\r\x1b[K{}", progress(i, gens, fitness, expl, left))?;
                out.flush()?;
            }
        }
        let name = self.archive.display();
        match save_archive(&self.archive, &archive_text(&self.m, &self.trainer)) {
            Ok(()) => writeln!(out, "saved '{name}'")?,
            Err(e) => {
                // Not fatal: the previous archive is intact, training may go on.
                let _ = writeln!(io::stderr(), "ji: {name}: cannot save the archive: {e}");
                writeln!(out, "archive NOT saved: {e}")?
            }
        }
        Ok(())
    }

    /// `s`: the best AI's table, a column per skill where they fit 80
    /// columns (the English names under the Chinese ones), else a line per
    /// state.
    fn show(&self, out: &mut impl Write) -> Done {
        let (m, p, g) = (&self.m, self.best(), self.trainer.generation);
        writeln!(out, "best AI, generation {g}: P(skill) per state (own 集, opponent 集)")?;
        let state = |s: usize| {
            let (a, b) = m.counts(s);
            format!("({a}, {b})")
        };
        let first = width(&state(m.states - 1)) + 2;
        let english = |x: usize| m.english[x].unwrap_or("");
        let col = (0..m.n)
            .map(|x| width(&m.labels[x]).max(english(x).split(' ').map(width).max().unwrap_or(0)))
            .fold(6, usize::max)
            + 2;
        if first + m.n * col > COLUMNS {
            for s in 0..m.states {
                let cells: Vec<String> = (bits(m.playable[s]))
                    .map(|x| format!("{} {:.4}", m.named(x), p[s * m.n + x]))
                    .collect();
                writeln!(out, "{}: {}", state(s), cells.join(", "))?;
            }
            return Ok(());
        }
        let pad = |text: &str, w: usize| text.to_string() + &" ".repeat(w - width(text));
        let mut header = vec![pad("state", first)];
        let rows = (0..m.n).map(|x| english(x).split(' ').count()).max().unwrap_or(0);
        for x in 0..m.n {
            header[0] += &pad(&m.labels[x], col);
        }
        for r in 0..rows {
            let mut line = " ".repeat(first);
            for x in 0..m.n {
                line += &pad(english(x).split(' ').nth(r).unwrap_or(""), col);
            }
            if !line.trim().is_empty() {
                header.push(line);
            }
        }
        for line in header {
            writeln!(out, "{}", line.trim_end())?;
        }
        for s in 0..m.states {
            let mut line = pad(&state(s), first);
            for x in 0..m.n {
                let cell = match m.playable[s] >> x & 1 {
                    1 => format!("{:.4}", p[s * m.n + x]),
                    _ => "-".into(),
                };
                line += &pad(&cell, col);
            }
            writeln!(out, "{}", line.trim_end())?;
        }
        Ok(())
    }

    /// `e`: outcomes against two references, and exploitabilities, all by
    /// direct linear solves (`outcomes`, `exact_best_response`).
    fn evaluate(&self, out: &mut impl Write) -> Done {
        let (m, ai, eq) = (&self.m, self.best(), &self.eq_policy);
        let uniform = m.policy(&vec![1.0; m.genes()]);
        let g = self.trainer.generation;
        writeln!(out, "exact evaluation of the best AI (generation {g}) from (0, 0):")?;
        // The game is symmetric, so its value is 0; the equilibrium's
        // value iteration agrees up to its tolerance.
        writeln!(out, "game value at (0, 0): {:.6}", self.value[0].abs())?;
        for (name, opp) in [("uniform AI", &uniform), ("equilibrium", eq)] {
            let o = outcomes(m, &ai, opp);
            let (w, l, d) = (o.win, o.lose, o.draw);
            writeln!(out, "vs {name}: P(win) {w:.6}, P(lose) {l:.6}, P(draw) {d:.6}")?;
        }
        let refs = [("uniform AI's ", &uniform), ("equilibrium's ", eq), ("", &ai)];
        for (name, policy) in refs {
            let br = exact_best_response(m, policy);
            writeln!(out, "{name}exploitability: {:.6}", (br[0] - self.value[0]).max(0.0))?;
        }
        Ok(())
    }

    /// `r`: the rules.
    fn rules(&mut self, out: &mut impl Write) -> Done {
        self.rules_shown = true;
        write!(out, "{}", self.m.rules())?;
        Ok(())
    }

    /// `p`: a game against the best AI (`p best`: the equilibrium) with
    /// real (uncapped) counts; the end of input (Ctrl-D) ends the game, not
    /// the session.
    fn play(
        &mut self,
        opponent: Opponent,
        input: &mut impl BufRead,
        out: &mut impl Write,
        terminal: Terminal,
    ) -> Done {
        if self.m.afford[0] == 0 {
            writeln!(out, "nothing to play: {NOTHING_TO_PLAY}")?;
            return Ok(());
        }
        if !self.rules_shown {
            self.rules(out)?;
        }
        let m = &self.m;
        let g = self.trainer.generation;
        let (ai, who) = match opponent {
            Opponent::Trained => (self.best(), format!("the AI (generation {g})")),
            Opponent::Best => (self.eq_policy.clone(), "the best strategy".to_string()),
        };
        // The game is symmetric, so its value is 0: what best play gets.
        let value = self.value[0].abs();
        writeln!(out, "new game against {who}")?;
        writeln!(out, "the game's value is {value:.6}: with best play, neither side has an edge")?;
        writeln!(out, "{MOVE_HELP}")?;
        let (mut me, mut bot, mut round) = (0i64, 0i64, 0u64);
        let summary = loop {
            round += 1;
            let mine: Vec<usize> = (0..m.n).filter(|&x| m.v.skills[x].req <= me).collect();
            let menu: Vec<String> = (mine.iter().enumerate())
                .map(|(i, &x)| format!("{} {}", i + 1, m.offered(x)))
                .collect();
            let head = format!("round {round}: you {me} 集, AI {bot} 集; you may play:");
            writeln!(out, "{}", listed(&head, &menu))?;
            let x = match read_move(m, &mine, me, input, out, terminal.input)? {
                Some(Move::Play(x)) => x,
                Some(Move::GiveUp) => break format!("you gave up in round {round}: the AI wins"),
                None => break format!("game abandoned in round {round} (end of input): no winner"),
            };
            let y = m.ai_move(&ai, bot, me, &mut self.play_rng);
            let (xs, ys) = (&m.labels[x], &m.labels[y]);
            let result = if m.beats(x, y) {
                format!("you win ({xs} beats {ys})")
            } else if m.beats(y, x) {
                format!("the AI wins ({ys} beats {xs})")
            } else {
                me = me.saturating_add(m.v.skills[x].delta);
                bot = bot.saturating_add(m.v.skills[y].delta);
                "neither beats the other: go on".into()
            };
            writeln!(out, "you: {}, AI: {} -> {result}", m.named(x), m.named(y))?;
            if m.beats(x, y) || m.beats(y, x) {
                let winner = if m.beats(x, y) { "you win" } else { "the AI wins" };
                let rounds = if round == 1 { "round" } else { "rounds" };
                break format!("game over after {round} {rounds}: {winner}");
            }
        };
        writeln!(out, "{summary}. p plays again, h for help")?;
        Ok(())
    }
}

/// The progress line redrawn on a terminal during `t`: at most 77 columns
/// for any count `t` accepts, so it never wraps (a wrapped line cannot be
/// redrawn with `\r`).
fn progress(done: u64, total: u64, fitness: f64, expl: f64, left_secs: u64) -> String {
    let left = match left_secs {
        s if s < 120 => format!("{s} s"),
        s if s < 7200 => format!("{} min", s / 60),
        s => format!("{} h", s / 3600),
    };
    format!("gen {done}/{total}: best fitness {fitness:.6}, exploitability {expl:.6}, {left} left")
}

/// Whom `p` plays against.
#[derive(Clone, Copy)]
enum Opponent {
    /// The best of the population (`p`).
    Trained,
    /// The equilibrium strategy of the capped game, computed by ji itself
    /// (`p best`): no one can beat it on average.
    Best,
}

/// `head`, then `items` separated by commas on lines of at most `COLUMNS`
/// columns, indented two; an item is split only if it cannot fit a line.
fn listed(head: &str, items: &[String]) -> String {
    let mut text = head.to_string();
    let mut line = String::from(" ");
    for (i, item) in items.iter().enumerate() {
        let item = if i + 1 < items.len() { format!("{item},") } else { item.clone() };
        if width(&line) + 1 + width(&item) > COLUMNS && !line.trim().is_empty() {
            text = text + "\n" + &line;
            line = String::from(" ");
        }
        line = line + " " + &item;
    }
    if !line.trim().is_empty() {
        text = text + "\n" + &line;
    }
    text
}

/// A move typed in a game (`None`: the end of input).
enum Move {
    Play(usize),
    GiveUp,
}

/// Reads a move, a line per attempt: a skill's name or alias, `q`, `r`,
/// `h`, then a number in `mine` (the list on screen).
fn read_move(
    m: &Model,
    mine: &[usize],
    me: i64,
    input: &mut impl BufRead,
    out: &mut impl Write,
    prompt: bool,
) -> Result<Option<Move>, Failure> {
    while let Some(line) = ask(input, out, prompt.then_some("your skill> "))? {
        let word = trim(&line);
        let (text, typed) = (std::str::from_utf8(word).unwrap_or(""), shown(word));
        let why = match (m.find(text), Action::parse(word)) {
            _ if word.is_empty() => continue,
            (Some(x), _) if m.v.skills[x].req <= me => return Ok(Some(Move::Play(x))),
            (Some(x), _) => format!("{} needs {} 集, you have {me}", m.named(x), m.v.skills[x].req),
            (None, Some(Action::Quit)) => return Ok(Some(Move::GiveUp)),
            (None, Some(Action::Rules)) => {
                write!(out, "{}", m.rules())?;
                continue;
            }
            (None, Some(Action::Help)) => {
                writeln!(out, "{MOVE_HELP}")?;
                continue;
            }
            _ if word.iter().all(u8::is_ascii_digit) => match text.parse::<usize>() {
                Ok(k) if (1..=mine.len()).contains(&k) => return Ok(Some(Move::Play(mine[k - 1]))),
                _ => format!("{typed} is not a number in the list (1 to {})", mine.len()),
            },
            _ => format!("'{typed}' is not a skill, an alias or a number in the list"),
        };
        writeln!(out, "refused: {why}; try again")?;
    }
    Ok(None)
}

/// A line without ASCII white space at its ends.
fn trim(line: &[u8]) -> &[u8] {
    let text = |b: &u8| !b.is_ascii_whitespace();
    let start = line.iter().position(text).unwrap_or(line.len());
    let end = line.iter().rposition(text).map_or(start, |e| e + 1);
    &line[start..end]
}

/// Prints `prompt` (on a terminal) and reads a line; `None` at the end of
/// input, after which a terminal reads on (Ctrl-D) and gets a newline.
fn ask(
    input: &mut impl BufRead,
    out: &mut impl Write,
    prompt: Option<&str>,
) -> Result<Option<Vec<u8>>, Failure> {
    if let Some(prompt) = prompt {
        write!(out, "{prompt}")?;
    }
    out.flush()?;
    let mut line = Vec::new();
    match input.read_until(b'\n', &mut line) {
        Ok(0) => {
            if prompt.is_some() {
                writeln!(out)?;
            }
            Ok(None)
        }
        Ok(_) => Ok(Some(line)),
        Err(e) => Err(Failure::UnreadableInput(e.to_string())),
    }
}

/// A command of the session (an `Action`, not to be confused with the
/// command line's `Command`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Action {
    Train,
    Play,
    Rules,
    Show,
    Eval,
    Help,
    Quit,
}

impl Action {
    /// Each action's word; its first letter is its short form.
    const WORDS: [(Action, &'static str); 7] = [
        (Action::Train, "train"),
        (Action::Play, "play"),
        (Action::Rules, "rules"),
        (Action::Show, "show"),
        (Action::Eval, "eval"),
        (Action::Help, "help"),
        (Action::Quit, "quit"),
    ];

    /// The action of a letter or a word. Lower case only: a stray `T` is
    /// not 3000 generations of training.
    fn parse(word: &[u8]) -> Option<Action> {
        let found = (Action::WORDS.iter())
            .find(|(_, w)| word == w.as_bytes() || word == &w.as_bytes()[..1]);
        found.map(|&(action, _)| action)
    }
}

/// A session: commands from `input` until `q` or its end.
fn run(
    options: &Options,
    input: &mut impl BufRead,
    out: &mut impl Write,
    terminal: Terminal,
) -> Done {
    let mut session = Session::new(read_variant(options)?, options, out)?;
    serve(&mut session, input, out, terminal)
}

fn serve(
    session: &mut Session,
    input: &mut impl BufRead,
    out: &mut impl Write,
    terminal: Terminal,
) -> Done {
    while let Some(line) = ask(input, out, terminal.input.then_some("ji> "))? {
        let words: Vec<&[u8]> =
            (line.split(u8::is_ascii_whitespace)).filter(|w| !w.is_empty()).collect();
        let Some(&first) = words.first() else {
            continue;
        };
        let word = shown(first);
        match (Action::parse(first), words.len()) {
            (None, _) => writeln!(out, "unknown command '{word}'; h lists the commands")?,
            (Some(Action::Train), 1) => session.train(DEFAULT_GENERATIONS, out, terminal)?,
            (Some(Action::Train), 2) => {
                match std::str::from_utf8(words[1]).map(|g| g.parse::<u64>()) {
                    Ok(Ok(g)) if (1..=MAX_GENERATIONS).contains(&g) => {
                        session.train(g, out, terminal)?
                    }
                    _ => writeln!(out, "t: G must be an integer 1..={MAX_GENERATIONS}")?,
                }
            }
            (Some(Action::Train), _) => writeln!(out, "t takes at most one number: t [G]")?,
            (Some(Action::Play), 2) if words[1] == b"best" => {
                session.play(Opponent::Best, input, out, terminal)?
            }
            (Some(Action::Play), 2..) => writeln!(out, "p takes nothing or best: p [best]")?,
            (Some(_), 2..) => writeln!(out, "'{word}' takes no argument; h lists the commands")?,
            (Some(Action::Play), _) => session.play(Opponent::Trained, input, out, terminal)?,
            (Some(Action::Rules), _) => session.rules(out)?,
            (Some(Action::Show), _) => session.show(out)?,
            (Some(Action::Eval), _) => session.evaluate(out)?,
            (Some(Action::Help), _) => write!(out, "{COMMANDS}")?,
            (Some(Action::Quit), _) => return Ok(()),
        }
    }
    Ok(())
}

// ---- AI ---------------------------------------------------------------------

/// splitmix64: small, fast, deterministic.
#[derive(Clone, Debug)]
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Roulette wheel: the item whose weight takes `r` (in [0, total)) below
/// 0; the last one if rounding leaves r >= 0.
fn roulette(mut r: f64, items: impl Iterator<Item = (usize, f64)>) -> usize {
    let mut last = 0;
    for (i, w) in items {
        r -= w;
        if r < 0.0 {
            return i;
        }
        last = i;
    }
    last
}

impl Model {
    /// The AI's probabilities (states x n): weights normalised over the
    /// playable skills (all zero: uniform).
    fn policy(&self, genes: &[f64]) -> Vec<f64> {
        let mut p = vec![0.0; self.states * self.n];
        for s in 0..self.states {
            let w = &genes[self.offset[s]..self.offset[s + 1]];
            let sum: f64 = w.iter().sum();
            for (i, x) in bits(self.playable[s]).enumerate() {
                p[s * self.n + x] = if sum > 0.0 { w[i] / sum } else { 1.0 / w.len() as f64 };
            }
        }
        p
    }

    /// The AI's move at real counts: "enough for any skill counts as C".
    fn ai_move(&self, policy: &[f64], own: i64, opp: i64, rng: &mut Rng) -> usize {
        let cap = |c: i64| c.min(self.cap as i64) as usize;
        let s = cap(own) * self.side + cap(opp);
        let row = &policy[s * self.n..];
        roulette(rng.unit(), bits(self.playable[s]).map(|x| (x, row[x])))
    }
}

// ---- evaluation -------------------------------------------------------------

/// One choice at a state, for a side whose opponent is fixed: what the
/// rounds that end pay (`payoff`, probability-weighted), the probability
/// that the round ends (`ends`), and the rounds that go on, `edges[..end]`
/// after the previous choice's.
struct Choice {
    state: usize,
    end: usize,
    payoff: f64,
    ends: f64,
}

/// A round that goes on: its probability and the next state.
struct Edge {
    probability: f64,
    next: usize,
}

/// The choices and edges of the side that replies to a fixed AI, grouped
/// by state in state order.
struct Chain {
    states: usize,
    choices: Vec<Choice>,
    edges: Vec<Edge>,
}

/// The responder's chain against a fixed AI: at each state (the AI's 集,
/// the responder's 集), one choice per skill the responder can afford
/// (every one, not only the undominated ones), paying P(responder wins) −
/// P(AI wins) for the round.
fn reply_chain(m: &Model, ai: &[f64]) -> Chain {
    let (mut choices, mut edges) = (Vec::new(), Vec::new());
    for s in 0..m.states {
        for y in bits(m.afford[m.counts(s).1]) {
            let (mut payoff, mut ends) = (0.0, 0.0);
            for x in bits(m.playable[s]).filter(|&x| ai[s * m.n + x] != 0.0) {
                let p = ai[s * m.n + x];
                match m.round(s, x, y) {
                    Round::Won => (payoff, ends) = (payoff - p, ends + p),
                    Round::Lost => (payoff, ends) = (payoff + p, ends + p),
                    Round::Next(next) => edges.push(Edge { probability: p, next }),
                }
            }
            let end = edges.len();
            choices.push(Choice { state: s, end, payoff, ends });
        }
    }
    Chain { states: m.states, choices, edges }
}

/// The best response's values by value iteration (training's estimate).
fn best_response(m: &Model, ai: &[f64], tol: Tolerance) -> Vec<f64> {
    iterate(&reply_chain(m, ai), tol)
}

/// Value iteration from 0 (k-round values, rising to the unlimited game's)
/// until `tol` stops it. A state is worth its best choice.
fn iterate(chain: &Chain, tol: Tolerance) -> Vec<f64> {
    let (choices, edges) = (&chain.choices, &chain.edges);
    let mut v = vec![0.0; chain.states];
    for _ in 0..tol.max_sweeps {
        let mut change: f64 = 0.0;
        let mut e = 0;
        let mut h = 0;
        while h < choices.len() {
            let s = choices[h].state;
            let mut best = f64::NEG_INFINITY;
            while h < choices.len() && choices[h].state == s {
                let mut q = choices[h].payoff;
                while e < choices[h].end {
                    q += edges[e].probability * v[edges[e].next];
                    e += 1;
                }
                best = best.max(q);
                h += 1;
            }
            change = change.max((best - v[s]).abs());
            v[s] = best;
        }
        if change <= tol.change {
            break;
        }
    }
    v
}

/// The exact values of a chain with one choice per state (`pick[s]` is an
/// index into `chain.choices`; `None` where the side has no move, which
/// ends nothing and is worth 0): for each right-hand side `r` (the payoff,
/// per state, of the rounds that end), the expected total, where play that
/// never ends pays 0.
///
/// States from which no round can ever end are worth 0 (that is the rule,
/// not an approximation). On the others, `v = r + Q v` with `Q` the rounds
/// that go on among them: every one of them reaches an end with positive
/// probability, so `I − Q` is nonsingular, and the system is solved
/// directly by Gaussian elimination with partial pivoting. The values are
/// exact up to the rounding of that solve (backward stable: a relative
/// error of order n·2⁻⁵³ times the condition number of `I − Q`, which
/// grows with the expected number of rounds). The AI's probabilities are
/// taken to sum to 1 at each state (they do, up to rounding).
fn solve_chain(chain: &Chain, pick: &[Option<usize>], rhs: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let states = chain.states;
    let start = |h: usize| if h == 0 { 0 } else { chain.choices[h - 1].end };
    let edges = |s: usize| match pick[s] {
        Some(h) => &chain.edges[start(h)..chain.choices[h].end],
        None => &chain.edges[..0],
    };
    // Which states can reach an end: backwards from those that end.
    let mut into: Vec<Vec<usize>> = vec![Vec::new(); states];
    for s in 0..states {
        for e in edges(s).iter().filter(|e| e.probability > 0.0) {
            into[e.next].push(s);
        }
    }
    let ends = |s: usize| pick[s].map_or(0.0, |h| chain.choices[h].ends);
    let mut ending: Vec<usize> = (0..states).filter(|&s| ends(s) > 0.0).collect();
    let mut live = vec![false; states];
    for &s in &ending {
        live[s] = true;
    }
    while let Some(t) = ending.pop() {
        for &s in &into[t] {
            if !live[s] {
                live[s] = true;
                ending.push(s);
            }
        }
    }
    let index: Vec<usize> = (0..states).filter(|&s| live[s]).collect();
    let mut row_of = vec![usize::MAX; states];
    for (i, &s) in index.iter().enumerate() {
        row_of[s] = i;
    }
    // [I − Q | r...], dense: at most 961 rows.
    let (n, k) = (index.len(), rhs.len());
    let w = n + k;
    let mut a = vec![0.0; n * w];
    for (i, &s) in index.iter().enumerate() {
        // The diagonal 1 − Q(s, s) is summed from what leaves s (the round
        // ends, or goes to another state), not subtracted from 1: in a slow
        // game Q(s, s) is within 1e-8 of 1, and 1 − Q(s, s) would keep only
        // half of its digits.
        a[i * w + i] = ends(s);
        for e in edges(s) {
            if e.next == s {
                continue;
            }
            a[i * w + i] += e.probability;
            if live[e.next] {
                a[i * w + row_of[e.next]] -= e.probability;
            }
        }
        for (j, r) in rhs.iter().enumerate() {
            a[i * w + n + j] = r[s];
        }
    }
    for col in 0..n {
        // Partial pivoting: the largest entry of the column below the row.
        let pivot = (col..n)
            .max_by(|&i, &j| a[i * w + col].abs().total_cmp(&a[j * w + col].abs()))
            .unwrap_or(col);
        if pivot != col {
            for j in 0..w {
                a.swap(col * w + j, pivot * w + j);
            }
        }
        let p = a[col * w + col];
        if p == 0.0 {
            continue; // cannot happen: I − Q is nonsingular
        }
        for i in col + 1..n {
            let f = a[i * w + col] / p;
            if f != 0.0 {
                for j in col..w {
                    a[i * w + j] -= f * a[col * w + j];
                }
            }
        }
    }
    let mut out = vec![vec![0.0; states]; k];
    for (j, values) in out.iter_mut().enumerate() {
        let mut x = vec![0.0; n];
        for i in (0..n).rev() {
            let mut sum = a[i * w + n + j];
            for c in i + 1..n {
                sum -= a[i * w + c] * x[c];
            }
            let p = a[i * w + i];
            x[i] = if p == 0.0 { 0.0 } else { sum / p };
        }
        for (i, &s) in index.iter().enumerate() {
            values[s] = x[i];
        }
    }
    out
}

/// The best response's exact values: policy iteration over pure stationary
/// replies, started from value iteration's greedy reply, each reply's
/// values solved directly (`solve_chain`); a reply is switched only where
/// another choice gains more than `SWITCH_GAIN`. The result is the exact
/// value of the reply it ends with (a lower bound on the best response up
/// to rounding), optimal up to a gain of `SWITCH_GAIN` per round.
fn exact_best_response(m: &Model, ai: &[f64]) -> Vec<f64> {
    let chain = reply_chain(m, ai);
    let q = |h: usize, v: &[f64]| {
        let start = if h == 0 { 0 } else { chain.choices[h - 1].end };
        let e = &chain.edges[start..chain.choices[h].end];
        chain.choices[h].payoff + e.iter().map(|e| e.probability * v[e.next]).sum::<f64>()
    };
    // The choices of each state: `choices[first[s]..last[s]]`.
    let (mut first, mut last) = (vec![0; m.states], vec![0; m.states]);
    for (h, c) in chain.choices.iter().enumerate().rev() {
        first[c.state] = h;
    }
    for (h, c) in chain.choices.iter().enumerate() {
        last[c.state] = h + 1;
    }
    let payoffs = |pick: &[Option<usize>]| -> Vec<f64> {
        let payoff = |p: &Option<usize>| p.map_or(0.0, |h| chain.choices[h].payoff);
        pick.iter().map(payoff).collect()
    };
    let estimate = iterate(&chain, FINE_SWEEPS);
    let mut pick: Vec<Option<usize>> = (0..m.states)
        .map(|s| {
            let best = (first[s]..last[s]).map(|h| q(h, &estimate)).fold(f64::MIN, f64::max);
            (first[s]..last[s]).find(|&h| q(h, &estimate) >= best - SWITCH_GAIN)
        })
        .collect();
    let mut v = solve_chain(&chain, &pick, &[payoffs(&pick)]).remove(0);
    for _ in 0..MAX_POLICY_ROUNDS {
        let mut switched = false;
        for s in 0..m.states {
            let Some(here) = pick[s] else { continue };
            let here = q(here, &v);
            if let Some(h) = (first[s]..last[s]).find(|&h| q(h, &v) > here + SWITCH_GAIN) {
                pick[s] = Some(h);
                switched = true;
            }
        }
        if !switched {
            break;
        }
        v = solve_chain(&chain, &pick, &[payoffs(&pick)]).remove(0);
    }
    v
}

/// How a game between two fixed AIs ends from (0, 0).
#[derive(Debug)]
struct Outcomes {
    win: f64,
    lose: f64,
    draw: f64,
}

/// A's outcomes from (0, 0) against B, both fixed: the absorbing Markov
/// chain over capped states, solved exactly (`solve_chain`); play that
/// never ends is a draw, P(draw) = 1 − P(win) − P(lose).
fn outcomes(m: &Model, pa: &[f64], pb: &[f64]) -> Outcomes {
    let (mut choices, mut edges) = (Vec::new(), Vec::new());
    let (mut wins, mut losses) = (vec![0.0; m.states], vec![0.0; m.states]);
    for s in 0..m.states {
        let sb = m.swapped(s);
        for x in bits(m.playable[s]) {
            for y in bits(m.playable[sb]) {
                let p = pa[s * m.n + x] * pb[sb * m.n + y];
                if p == 0.0 {
                    continue;
                }
                match m.round(s, x, y) {
                    Round::Won => wins[s] += p,
                    Round::Lost => losses[s] += p,
                    Round::Next(next) => edges.push(Edge { probability: p, next }),
                }
            }
        }
        choices.push(Choice { state: s, end: edges.len(), payoff: 0.0, ends: wins[s] + losses[s] });
    }
    let chain = Chain { states: m.states, choices, edges };
    let pick: Vec<Option<usize>> = (0..m.states).map(Some).collect();
    let values = solve_chain(&chain, &pick, &[wins, losses]);
    let win = values[0][0].clamp(0.0, 1.0);
    let lose = values[1][0].clamp(0.0, 1.0);
    Outcomes { win, lose, draw: (1.0 - win - lose).max(0.0) }
}

/// Value of the matrix game `a` (rows x cols, rows maximise) and an optimal
/// row strategy, by the simplex method on the shifted game.
fn matrix_game(a: &[f64], rows: usize, cols: usize) -> (f64, Vec<f64>) {
    let shift = 1.0 - a.iter().cloned().fold(f64::INFINITY, f64::min);
    // maximise sum y subject to (A + shift) y <= 1, y >= 0.
    let w = cols + rows + 1;
    let mut t = vec![0.0; (rows + 1) * w];
    for i in 0..rows {
        for j in 0..cols {
            t[i * w + j] = a[i * cols + j] + shift;
        }
        t[i * w + cols + i] = 1.0;
        t[i * w + w - 1] = 1.0;
    }
    t[rows * w..rows * w + cols].fill(-1.0);
    let mut basis: Vec<usize> = (cols..cols + rows).collect();
    for _ in 0..MAX_PIVOTS {
        // Bland's rule: the first improving column, the lowest basis index on ties.
        let Some(enter) = (0..w - 1).find(|&j| t[rows * w + j] < -SIMPLEX_EPS) else {
            break;
        };
        let mut leave: Option<usize> = None;
        for i in (0..rows).filter(|&i| t[i * w + enter] > SIMPLEX_EPS) {
            let r = t[i * w + w - 1] / t[i * w + enter];
            let better = leave.map_or(true, |l| {
                let rl = t[l * w + w - 1] / t[l * w + enter];
                r < rl - RATIO_TIE || (r <= rl + RATIO_TIE && basis[i] < basis[l])
            });
            if better {
                leave = Some(i);
            }
        }
        // Unbounded cannot happen: all entries are >= 1.
        let Some(l) = leave else { break };
        let piv = t[l * w + enter];
        for j in 0..w {
            t[l * w + j] /= piv;
        }
        for i in (0..=rows).filter(|&i| i != l) {
            let f = t[i * w + enter];
            if f != 0.0 {
                for j in 0..w {
                    t[i * w + j] -= f * t[l * w + j];
                }
            }
        }
        basis[l] = enter;
    }
    let total = t[rows * w + w - 1];
    let mut x: Vec<f64> = (0..rows).map(|i| t[rows * w + cols + i].max(0.0)).collect();
    let sum: f64 = x.iter().sum();
    for p in &mut x {
        *p = if sum > 0.0 { *p / sum } else { 1.0 / rows as f64 };
    }
    (if total > 0.0 { 1.0 / total - shift } else { 0.0 }, x)
}

/// The equilibrium of the capped game: value iteration on the stage games
/// (rows: the mover's playable skills, columns: the opponent's affordable
/// ones); by symmetry one table serves both sides. Values and policy.
fn equilibrium(m: &Model) -> (Vec<f64>, Vec<f64>) {
    let mut v = vec![0.0; m.states];
    let mut pol = vec![0.0; m.states * m.n];
    for sweep in 0..=EQUILIBRIUM_SWEEPS {
        let mut change: f64 = 0.0;
        for s in 0..m.states {
            let rows: Vec<usize> = bits(m.playable[s]).collect();
            let cols: Vec<usize> = bits(m.afford[m.counts(s).1]).collect();
            let vs = &v;
            let payoff = |&x: &usize| cols.iter().map(move |&y| m.payoff(s, x, y, vs));
            let mat: Vec<f64> = rows.iter().flat_map(payoff).collect();
            let (val, strat) = matrix_game(&mat, rows.len(), cols.len());
            change = change.max((val - v[s]).abs());
            v[s] = val;
            for (&x, p) in rows.iter().zip(strat) {
                pol[s * m.n + x] = p;
            }
        }
        if change <= FINE_SWEEPS.change || sweep == EQUILIBRIUM_SWEEPS {
            break;
        }
    }
    (v, pol)
}

// ---- training ---------------------------------------------------------------

/// A weight table and its score (higher fitness is better).
#[derive(Clone)]
struct Individual {
    genes: Vec<f64>,
    fitness: f64,
    expl: f64,
    /// Per state: the best reply's gain over the AI's mix there, with the
    /// equilibrium values as continuation ("local gap").
    local: Vec<f64>,
}

impl Individual {
    /// Fitness, given the equilibrium values: -(exploitability + the mean
    /// over states of (a) the best response's gain there + (b) the local
    /// gap). (a) credits states the best response does not visit yet; (b)
    /// is separable by state, as crossover and mutation are.
    fn new(m: &Model, value: &[f64], genes: Vec<f64>) -> Individual {
        let ai = m.policy(&genes);
        let br = best_response(m, &ai, TRAIN_SWEEPS);
        let mut local = vec![0.0; m.states];
        let mut sum = 0.0;
        for (s, gap) in local.iter_mut().enumerate() {
            let mut worst = f64::INFINITY;
            for y in bits(m.afford[m.counts(s).1]) {
                let mut q = 0.0;
                for x in bits(m.playable[s]) {
                    q += ai[s * m.n + x] * m.payoff(s, x, y, value);
                }
                worst = worst.min(q);
            }
            *gap = (value[s] - worst).max(0.0);
            sum += (br[s] - value[m.swapped(s)]).max(0.0) + *gap;
        }
        let expl = br[0] - value[0];
        let fitness = -(expl + sum / m.states as f64);
        Individual { genes, fitness, expl, local }
    }
}

/// A population of weight tables under a genetic algorithm.
struct Trainer {
    /// Sorted best first (`sort`, after every change): `pop[0]` is the AI
    /// that plays, is shown and is evaluated.
    pop: Vec<Individual>,
    generation: u64,
    rng: Rng,
}

impl Trainer {
    /// The uniform AI and random weight tables.
    fn fresh(m: &Model, seed: u64) -> Vec<Vec<f64>> {
        let mut rng = Rng(seed ^ POPULATION_STREAM);
        let mut pop = vec![vec![1.0; m.genes()]];
        while pop.len() < POPULATION {
            pop.push((0..m.genes()).map(|_| rng.unit()).collect());
        }
        pop
    }

    fn new(m: &Model, value: &[f64], pop: Vec<Vec<f64>>, generation: u64, rng: Rng) -> Trainer {
        let pop = pop.into_iter().map(|g| Individual::new(m, value, g));
        let mut t = Trainer { pop: pop.collect(), generation, rng };
        t.sort();
        t
    }

    /// Best first; stable, so equal scores keep their order.
    fn sort(&mut self) {
        self.pop.sort_by(|x, y| y.fitness.total_cmp(&x.fitness));
    }

    /// Tournament: the fittest of a few random ones.
    fn select(&mut self) -> usize {
        let mut best = self.rng.below(self.pop.len());
        for _ in 1..TOURNAMENT {
            let c = self.rng.below(self.pop.len());
            if self.pop[c].fitness > self.pop[best].fitness {
                best = c;
            }
        }
        best
    }

    /// One generation: elitism, tournaments, per-state crossover (a state's
    /// weights from a parent or a blend of both), mutation of a few states.
    fn step(&mut self, m: &Model, value: &[f64]) {
        let mut next = self.pop[..ELITES.min(self.pop.len())].to_vec();
        while next.len() < self.pop.len() {
            let (pa, pb) = (self.select(), self.select());
            let (mut child, other) = (self.pop[pa].genes.clone(), &self.pop[pb].genes);
            for s in 0..m.states {
                let r = self.rng.unit();
                let (lo, hi) = (m.offset[s], m.offset[s + 1]);
                if r < FROM_OTHER_PARENT {
                    child[lo..hi].copy_from_slice(&other[lo..hi]);
                } else if r < FROM_OTHER_PARENT + BLEND {
                    let t = self.rng.unit();
                    for (c, &o) in child[lo..hi].iter_mut().zip(&other[lo..hi]) {
                        *c = t * *c + (1.0 - t) * o;
                    }
                }
            }
            // Mutation: one scale per child, drawn from several so coarse
            // and fine moves coexist; a geometric number of states, half of
            // them chosen where the parent's local gap is large.
            let sigma = MUTATION_SCALES[self.rng.below(MUTATION_SCALES.len())];
            let gaps = &self.pop[pa].local;
            let total: f64 = gaps.iter().sum();
            loop {
                let s = if total > 0.0 && self.rng.unit() < DIRECTED {
                    roulette(self.rng.unit() * total, gaps.iter().copied().enumerate())
                } else {
                    self.rng.below(m.states)
                };
                for g in &mut child[m.offset[s]..m.offset[s + 1]] {
                    *g = if self.rng.unit() < DROP_OUT {
                        0.0
                    } else {
                        // A sum of three uniforms: a bell on [-1.5, 1.5].
                        let noise = self.rng.unit() + self.rng.unit() + self.rng.unit() - 1.5;
                        (*g + 2.0 * sigma * noise).clamp(0.0, 1.0)
                    };
                }
                if self.rng.unit() >= MUTATE_ANOTHER {
                    break;
                }
            }
            next.push(Individual::new(m, value, child));
        }
        self.pop = next;
        self.sort();
        self.generation += 1;
    }
}

// ---- archive ----------------------------------------------------------------

/// The archive text: see docs/ji_trainer.md ("Archive format").
fn archive_text(m: &Model, t: &Trainer) -> String {
    let (g, rng, size, states) = (t.generation, t.rng.0, t.pop.len(), m.states);
    let mut s = format!("{ARCHIVE_MAGIC}\nvariant {}generation {g}\n", m.v.text());
    s += &format!("rng {rng:016x}\npopulation {size} {states}\n");
    for (i, ind) in t.pop.iter().enumerate() {
        s += &format!("individual {i}\n");
        for st in 0..m.states {
            let (a, b) = m.counts(st);
            s += &format!("{a} {b}");
            for g in &ind.genes[m.offset[st]..m.offset[st + 1]] {
                s += &format!(" {g}");
            }
            s += "\n";
        }
    }
    s + "end\n"
}

/// Reads an archive: (generation, rng, population), refusing a corrupt one
/// or one for another variant. The caller adds the file to errors.
fn parse_archive(text: &[u8], file: &str, m: &Model) -> Result<Archive, Failure> {
    read_archive(text, file, m).map_err(|e| match e {
        ArchiveError::Line(bad) => bad.in_file(file),
        ArchiveError::Variant(failure) => failure,
    })
}

/// What an archive holds besides the variant.
struct Archive {
    generation: u64,
    rng: Rng,
    population: Vec<Vec<f64>>,
}

/// A bad archive line, or a bad variant inside it (already in its file).
enum ArchiveError {
    Line(BadLine),
    Variant(Failure),
}

impl From<BadLine> for ArchiveError {
    fn from(bad: BadLine) -> ArchiveError {
        ArchiveError::Line(bad)
    }
}

fn read_archive(text: &[u8], file: &str, m: &Model) -> Result<Archive, ArchiveError> {
    fn refuse<T>(line: usize, what: String) -> Result<T, ArchiveError> {
        Err(ArchiveError::Line(BadLine { line, what }))
    }
    let text = match std::str::from_utf8(text) {
        Ok(t) => t,
        Err(e) => {
            let at = e.valid_up_to();
            let line = 1 + text[..at].iter().filter(|&&b| b == b'\n').count();
            return refuse(line, format!("not UTF-8 text (byte {at})"));
        }
    };
    let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
    // Line `l`; lines are read in order, so a missing one ends the archive.
    let line = |l: usize| -> Result<&str, BadLine> {
        let end = || BadLine { line: l, what: "archive ends early (truncated?)".into() };
        lines.get(l - 1).copied().ok_or_else(end)
    };
    // The value of line l if it reads `key value`.
    let field = |l: usize, key: &str| line(l).map(|t| t.strip_prefix(key));
    let expected = |l: usize, what: &str| BadLine { line: l, what: format!("expected '{what}'") };
    if line(1)? != ARCHIVE_MAGIC {
        return refuse(1, format!("not a ji archive (expected '{ARCHIVE_MAGIC}')"));
    }
    let n = (field(2, "variant ")?.and_then(|r| r.trim().parse::<usize>().ok()))
        .filter(|n| (1..=MAX_SKILLS).contains(n))
        .ok_or_else(|| expected(2, "variant N"))?;
    let mut vt = format!("{n}\n");
    for l in 3..3 + n {
        vt = vt + line(l)? + "\n";
    }
    let v = parse_variant(vt.as_bytes(), file, 1).map_err(ArchiveError::Variant)?;
    if v != m.v {
        let why = if v.skills.len() != m.n {
            format!("{} skills, this variant has {}", v.skills.len(), m.n)
        } else {
            let i = (0..m.n)
                .find(|&i| v.skills[i] != m.v.skills[i] || v.beats[i] != m.v.beats[i])
                .unwrap_or(0);
            let (there, here) = (v.skill_line(i), m.v.skill_line(i));
            format!("skill {} is '{there}' there, '{here}' here", i + 1)
        };
        return refuse(2, format!("archive is for another variant ({why})"));
    }
    let mut l = 3 + n;
    let generation = (field(l, "generation ")?.and_then(|r| r.parse::<u64>().ok()))
        .ok_or_else(|| expected(l, "generation G"))?;
    l += 1;
    let hex = field(l, "rng ")?.and_then(|r| u64::from_str_radix(r, 16).ok());
    let rng = Rng(hex.ok_or_else(|| expected(l, "rng HEX"))?);
    l += 1;
    let dims: Vec<usize> = match field(l, "population ")? {
        Some(r) => r.split(' ').filter_map(|x| x.parse().ok()).collect(),
        None => vec![],
    };
    let states = m.states;
    if dims.len() != 2 || dims[0] < 1 || dims[0] > MAX_ARCHIVED || dims[1] != states {
        let what = format!("expected 'population P {states}' with 1 <= P <= {MAX_ARCHIVED}");
        return refuse(l, what);
    }
    let mut pop = Vec::new();
    for i in 0..dims[0] {
        l += 1;
        if line(l)? != format!("individual {i}") {
            return Err(expected(l, &format!("individual {i}")).into());
        }
        let mut genes = Vec::new();
        for st in 0..states {
            l += 1;
            let mut it = line(l)?.split(' ');
            let (a, b) = m.counts(st);
            if it.next() != Some(&a.to_string()) || it.next() != Some(&b.to_string()) {
                return refuse(l, format!("expected the weights of state {a} {b}"));
            }
            let start = genes.len();
            for w in it {
                match w.parse::<f64>() {
                    Ok(x) if x.is_finite() && x >= 0.0 => genes.push(x),
                    _ => return refuse(l, format!("bad weight '{}'", shown(w.as_bytes()))),
                }
            }
            let (want, found) = (m.offset[st + 1] - m.offset[st], genes.len() - start);
            if found != want {
                let what = format!("state {a} {b} needs {want} weights, found {found}");
                return refuse(l, what);
            }
        }
        pop.push(genes);
    }
    l += 1;
    if line(l)? != "end" {
        return Err(expected(l, "end").into());
    }
    if l < lines.len() {
        return refuse(l + 1, "text after 'end'".into());
    }
    Ok(Archive { generation, rng, population: pop })
}

/// Writes the archive atomically (a synced temporary file renamed over the
/// old one), so that a failure at any point leaves the previous one whole.
fn save_archive(path: &Path, text: &str) -> io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

// ---- command line -----------------------------------------------------------

/// The options, one field each.
#[derive(Debug, PartialEq, Eq)]
struct Options {
    /// `--variant FILE`: the variant (default: the common variant).
    variant: Option<PathBuf>,
    /// `--archive FILE`: the population archive.
    archive: PathBuf,
    /// `--seed N`: the generator's seed (default: the clock).
    seed: Option<u64>,
}

impl Default for Options {
    fn default() -> Options {
        Options { variant: None, archive: PathBuf::from("archive"), seed: None }
    }
}

impl Options {
    /// Sets option `name`, its value taken from `args` (`false`: no such
    /// option). A path (`--variant`, `--archive`) may be any `OsString`,
    /// since a file name need not be UTF-8.
    fn set(&mut self, name: &str, args: &mut std::slice::Iter<OsString>) -> Result<bool, Failure> {
        if !matches!(name, "--variant" | "--archive" | "--seed") {
            return Ok(false);
        }
        let Some(value) = args.next() else {
            return Err(refused(format!("option '{name}' needs a value")));
        };
        match name {
            "--variant" => self.variant = Some(PathBuf::from(value)),
            "--archive" => self.archive = PathBuf::from(value),
            _ => match value.to_str().and_then(|v| v.parse::<u64>().ok()) {
                Some(s) => self.seed = Some(s),
                None => {
                    let v = shown(value.to_string_lossy().as_bytes());
                    let why = "not an integer 0..2^64";
                    return Err(refused(format!("bad value '{v}' for --seed: {why}")));
                }
            },
        }
        Ok(true)
    }
}

// shared: command-line begin, master src/bin/zhuguosha.rs (edit there, then run scripts/sync-shared)

/// What the command line asks for.
#[derive(Debug, PartialEq, Eq)]
enum Command {
    Help,
    Run(Options),
}

/// `--help` anywhere wins; else `Options::set` takes each name in turn.
fn parse_args(args: impl Iterator<Item = OsString>) -> Result<Command, Failure> {
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

fn refused(what: String) -> Failure {
    Failure::BadArgument(what + " (see --help)")
}

fn not_utf8() -> Failure {
    refused("an argument is not valid UTF-8".into())
}

/// Not `eprintln!`, which panics if stderr is closed.
fn exit_with(failure: Failure) -> ! {
    let _ = writeln!(io::stderr(), "{}: {}", BIN, failure);
    std::process::exit(failure.exit_code())
}
// shared: command-line end

extern "C" {
    /// POSIX `isatty` (std only: declared by hand, as the C library has it).
    fn isatty(fd: i32) -> i32;
}

/// Whether file descriptor `fd` (0 stdin, 1 stdout) is a terminal.
fn is_terminal(fd: i32) -> bool {
    // SAFETY: isatty only inspects the descriptor; any value is allowed.
    unsafe { isatty(fd) == 1 }
}

fn main() {
    let mut out = Fit::new(io::BufWriter::new(io::stdout().lock()));
    let result = match parse_args(std::env::args_os().skip(1)) {
        Ok(Command::Help) => out.write_all(help().as_bytes()).map_err(Failure::from),
        Ok(Command::Run(options)) => {
            let terminal = Terminal { input: is_terminal(0), output: is_terminal(1) };
            run(&options, &mut io::stdin().lock(), &mut out, terminal)
        }
        Err(f) => Err(f),
    };
    let result = result.and_then(|()| out.flush().map_err(Failure::from));
    if let Err(f) = result {
        // The session's output goes out before the error line.
        let _ = out.flush();
        exit_with(f);
    }
}

#[cfg(test)]
#[path = "../../tests/unit/ji.rs"]
mod tests;
