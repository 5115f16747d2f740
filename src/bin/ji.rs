//! 集 (波波攒) trainer: an AI for any variant, trained by a genetic
//! algorithm and kept in an archive, that a person plays against. The
//! commands, model, archive format, exit codes and figures: docs/ji_trainer.md.

use std::ffi::OsString;
use std::fmt;
use std::io::{self, BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

const MAX_SKILLS: usize = 32;
const MAX_CAP: i64 = 30;
const DEFAULT_GENERATIONS: u64 = 3000;
const MAX_GENERATIONS: u64 = 100_000;
const POPULATION: usize = 40;
const ELITES: usize = 4;
const TOURNAMENT: usize = 3;
const ARCHIVE_MAGIC: &str = "ji-archive 1";
/// Value iteration's tolerance and sweep cap: training (speed first), `e`.
const TRAIN_SWEEPS: (f64, usize) = (1e-9, 5_000);
const EXACT_SWEEPS: (f64, usize) = (1e-13, 200_000);

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

const HELP: &str = "usage: ji [--variant FILE] [--archive FILE] [--seed N]
  --variant FILE  variant: n, then n skills `name delta req k beaten...`
                  (default: the common variant 集 小防 中防 大防 小波 中波 大波 黑洞)
  --archive FILE  population archive, read at start, written after `t`
                  (default: ./archive)
  --seed N        seed of the pseudo-random generator (default: the clock)
";

const COMMANDS: &str = "commands, one per line (a letter or its word):
  t, train [G]  train the AI G generations (default 3000), then save the archive
  p, play       play a game against the AI (Ctrl-D or q ends the game)
  r, rules      the rules of the variant
  s, show       the AI's table: its probabilities per state (own 集, opponent 集)
  e, eval       exact evaluation of the AI from (0, 0), and its exploitability
  h, help       this list
  q, quit       quit (so does Ctrl-D)
";

const MOVE_HELP: &str = "type a skill's number, name or alias; r shows the rules, q gives up";

const NOTHING_TO_PLAY: &str = "no skill needs 0 集, so neither side can move at 0 集";

/// Why a session stopped: stderr `ji: {failure}`, exit `exit_code()`.
#[derive(Debug, PartialEq, Eq)]
enum Failure {
    /// A text's bad line (1-based) and what is wrong.
    BadInput(usize, String),
    /// Anything else refused, in full: an argument, a file's bad line
    /// (`in_file`), a variant beyond capacity, an unreadable file or stdin.
    Refused(String),
    Io(String),
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::BadInput(line, what) => write!(f, "line {line}: {what}"),
            Failure::Refused(what) => f.write_str(what),
            Failure::Io(e) => write!(f, "cannot write the output: {e}"),
        }
    }
}

impl Failure {
    fn exit_code(&self) -> i32 {
        match self {
            Failure::BadInput(..) | Failure::Refused(_) => 2,
            Failure::Io(_) => 1,
        }
    }

    /// A text's error, in file `file`.
    fn in_file(self, file: &str) -> Failure {
        match self {
            Failure::BadInput(l, what) => Failure::Refused(format!("{file}: line {l}: {what}")),
            other => other,
        }
    }
}

fn bad<T>(line: usize, what: String) -> Result<T, Failure> {
    Err(Failure::BadInput(line, what))
}

fn unreadable(file: &str, e: io::Error) -> Failure {
    Failure::Refused(format!("{file}: cannot read: {e}"))
}

/// `?` on an `io::Error` is the output's (`ask` catches stdin's).
impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::Io(e.to_string())
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

// ---- command line

struct Config {
    variant: Option<PathBuf>,
    archive: PathBuf,
    seed: Option<u64>,
}

/// The options; `None` for `--help`. `OsString`s: a path need not be UTF-8.
fn parse_args(args: &[OsString]) -> Result<Option<Config>, Failure> {
    let mut cfg = Config {
        variant: None,
        archive: PathBuf::from("archive"),
        seed: None,
    };
    let refuse = |what: String| Err(Failure::Refused(what));
    let shown_arg = |a: &OsString| shown(a.to_string_lossy().as_bytes());
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let name = arg.to_str().unwrap_or("");
        if name == "-h" || name == "--help" {
            return Ok(None);
        }
        if !matches!(name, "--variant" | "--archive" | "--seed") {
            let arg = shown_arg(arg);
            return refuse(format!("unknown argument '{arg}' (see --help)"));
        }
        let Some(value) = args.next() else {
            return refuse(format!("{name} needs a value (see --help)"));
        };
        match name {
            "--variant" => cfg.variant = Some(PathBuf::from(value)),
            "--archive" => cfg.archive = PathBuf::from(value),
            _ => match value.to_str().and_then(|v| v.parse::<u64>().ok()) {
                Some(s) => cfg.seed = Some(s),
                None => {
                    let what = format!("--seed '{}' is not an integer 0..2^64", shown_arg(value));
                    return refuse(what);
                }
            },
        }
    }
    Ok(Some(cfg))
}

// ---- variant

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
/// `origin` names the file, `line_base` shifts lines (archive); no more.
fn parse_variant(text: &[u8], origin: &str, line_base: usize) -> Result<Variant, Failure> {
    let at = |line: usize, what: String| Failure::BadInput(line + line_base, what).in_file(origin);
    let mut lx = format::Lexer::new(text);
    let v = format::parse_variant(&mut lx).map_err(|f| at(f.line, f.what))?;
    if let Some(t) = lx.next() {
        let extra = format::show(t.text);
        return Err(at(
            t.line,
            format!("extra token `{extra}` after the last skill"),
        ));
    }
    let n = v.skills.len();
    let skills: Vec<Skill> = (v.skills.iter())
        .map(|s| Skill {
            name: String::from_utf8_lossy(s.name).into_owned(),
            delta: s.delta,
            req: s.req,
        })
        .collect();
    // A valid variant beyond the trainer's capacity: refused in its own words.
    let beyond = match skills.iter().find(|s| s.req > MAX_CAP) {
        _ if n > MAX_SKILLS => format!("{n} skills: the trainer handles at most {MAX_SKILLS}"),
        Some(s) => format!(
            "skill `{}`: req {} is beyond the trainer's limit C <= {MAX_CAP}",
            s.name, s.req
        ),
        None => {
            let beaten = |x| {
                (0..n as u32)
                    .filter(|&y| v.beats(x, y))
                    .map(|y| 1 << y)
                    .sum()
            };
            let beats = (0..n as u32).map(beaten).collect();
            return Ok(Variant { skills, beats });
        }
    };
    Err(Failure::Refused(format!("{origin}: {beyond}")))
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
        Lexer {
            buf,
            pos: 0,
            line: 1,
            last: 1,
            strict: false,
            fresh: true,
        }
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
        Some(Token {
            text: &self.buf[start..self.pos],
            line: self.line,
        })
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
            let what = format!(
                "expected the end of the input, found {}",
                self.describe(self.pos)
            );
            return bad_at(self.line, 1, what);
        }
        Ok(())
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
        let start = self.buf[..p]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
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

/// A token for a message: control characters escaped, cut after 40.
pub(crate) fn show(text: &[u8]) -> String {
    let mut s = String::new();
    for (i, c) in String::from_utf8_lossy(text).chars().enumerate() {
        if i == 40 {
            s.push_str("...");
            break;
        }
        if c.is_control() {
            s.extend(c.escape_default());
        } else {
            s.push(c);
        }
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
        let what = format!(
            "skill name `{}` is {} bytes long (at most {})",
            show(t.text),
            len,
            max
        );
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
            return t.fail(format!(
                "expected the number of skills n, found `{}`",
                show(t.text)
            ))
        }
    };
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
        let hint = if s > 0 {
            " (does the previous skill's count k match its list?)"
        } else {
            ""
        };
        let delta = int(dt, "delta", hint)?;
        let rt = lx.expect(|| format!("the req of {}", what()))?;
        let req = int(rt, "req", "")?;
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
        skills.push(Skill {
            name: name.text,
            delta,
            req,
        });
    }
    let mut v = Variant {
        skills,
        index,
        beats: std::collections::HashSet::default(),
    };
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
            return t.fail(format!(
                "skill `{}` lists `{}` twice",
                wname(),
                show(t.text)
            ));
        }
    }
    Ok(v)
}
// shared: ji-variant end
}

// ---- model

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

// ---- for people

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

const RULES_HEAD: &str = "rules: you and the AI play a skill at the same time. If one beats the
other, its player wins; otherwise both pay or gain 集 and play goes on.
Both start with 0 集; a skill can be played only with `needs` 集 or more.";

impl Model {
    fn named(&self, x: usize) -> String {
        match &self.aliases[x] {
            Some(a) => format!("{} ({a})", self.labels[x]),
            None => self.labels[x].clone(),
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

    /// The rules as the seed's table gives them, with the 集 each skill needs
    /// (an alias column would not fit 80 columns).
    fn rules(&self) -> String {
        let list = |xs: Vec<usize>| match xs.len() {
            0 => "-".to_string(),
            _ => xs
                .iter()
                .map(|&x| &*self.labels[x])
                .collect::<Vec<_>>()
                .join(" "),
        };
        let mut rows = vec![["skill", "集", "needs", "beats", "beaten by"].map(String::from)];
        for (x, s) in self.v.skills.iter().enumerate() {
            let gain = match s.delta {
                d if d > 0 => format!("gains {d}"),
                d => format!("costs {}", -(d as i128)),
            };
            rows.push([
                self.labels[x].clone(),
                gain,
                s.req.to_string(),
                list((0..self.n).filter(|&y| self.beats(x, y)).collect()),
                list((0..self.n).filter(|&y| self.beats(y, x)).collect()),
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
            let line: String = cells
                .map(|(c, w)| c.clone() + &" ".repeat(w - width(c) + 2))
                .collect();
            text = text + line.trim_end() + "\n";
        }
        text
    }
}

// ---- AI

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
                p[s * self.n + x] = if sum > 0.0 {
                    w[i] / sum
                } else {
                    1.0 / w.len() as f64
                };
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
// ---- evaluation

/// Best response to a fixed AI: per state (AI, responder), P(responder
/// wins) - P(AI wins); it may play every skill it can afford.
fn best_response(m: &Model, ai: &[f64], sweeps: (f64, usize)) -> Vec<f64> {
    let (mut heads, mut edges) = (Vec::new(), Vec::new());
    for s in 0..m.states {
        for y in bits(m.afford[m.counts(s).1]) {
            let mut c = 0.0;
            for x in bits(m.playable[s]).filter(|&x| ai[s * m.n + x] != 0.0) {
                let p = ai[s * m.n + x];
                match m.round(s, x, y) {
                    Round::Won => c -= p,
                    Round::Lost => c += p,
                    Round::Next(t) => edges.push((p, t)),
                }
            }
            heads.push((s, edges.len(), c));
        }
    }
    iterate(m.states, &heads, &edges, sweeps)
}

/// Value iteration from 0 (k-round values, rising to the unlimited game's)
/// until no sweep moves more than `tol`. Heads: per state and choice (state,
/// end of its edges, payoff of the rounds that end); edges: (probability,
/// next state) of those that go on. A state is worth its best choice.
fn iterate(
    states: usize,
    heads: &[(usize, usize, f64)],
    edges: &[(f64, usize)],
    (tol, max_sweeps): (f64, usize),
) -> Vec<f64> {
    let mut v = vec![0.0; states];
    for _ in 0..max_sweeps {
        let mut change: f64 = 0.0;
        let mut e = 0;
        let mut h = 0;
        while h < heads.len() {
            let s = heads[h].0;
            let mut best = f64::NEG_INFINITY;
            while h < heads.len() && heads[h].0 == s {
                let (_, end, c) = heads[h];
                let mut q = c;
                while e < end {
                    q += edges[e].0 * v[edges[e].1];
                    e += 1;
                }
                best = best.max(q);
                h += 1;
            }
            change = change.max((best - v[s]).abs());
            v[s] = best;
        }
        if change <= tol {
            break;
        }
    }
    v
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
    const EPS: f64 = 1e-11;
    for _ in 0..10_000 {
        // Bland's rule: the first improving column, the lowest basis index on ties.
        let Some(enter) = (0..w - 1).find(|&j| t[rows * w + j] < -EPS) else {
            break;
        };
        let mut leave: Option<usize> = None;
        for i in (0..rows).filter(|&i| t[i * w + enter] > EPS) {
            let r = t[i * w + w - 1] / t[i * w + enter];
            let better = leave.map_or(true, |l| {
                let rl = t[l * w + w - 1] / t[l * w + enter];
                r < rl - 1e-13 || (r <= rl + 1e-13 && basis[i] < basis[l])
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
        *p = if sum > 0.0 {
            *p / sum
        } else {
            1.0 / rows as f64
        };
    }
    (
        if total > 0.0 {
            1.0 / total - shift
        } else {
            0.0
        },
        x,
    )
}

/// The equilibrium of the capped game: value iteration on the stage games
/// (rows: the mover's playable skills, columns: the opponent's affordable
/// ones); by symmetry one table serves both sides. Values and policy.
fn equilibrium(m: &Model) -> (Vec<f64>, Vec<f64>) {
    const MAX_SWEEPS: usize = 20_000;
    let mut v = vec![0.0; m.states];
    let mut pol = vec![0.0; m.states * m.n];
    for sweep in 0..=MAX_SWEEPS {
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
        if change <= EXACT_SWEEPS.0 || sweep == MAX_SWEEPS {
            break;
        }
    }
    (v, pol)
}

/// (P(A wins), P(B wins), P(draw)) from (0, 0) for two fixed policies, by
/// value iteration as for best responses; play that never ends is a draw.
fn outcomes(m: &Model, pa: &[f64], pb: &[f64]) -> (f64, f64, f64) {
    let (mut wins, mut losses, mut edges) = (Vec::new(), Vec::new(), Vec::new());
    for s in 0..m.states {
        let (sb, mut win, mut lose) = (m.swapped(s), 0.0, 0.0);
        for x in bits(m.playable[s]) {
            for y in bits(m.playable[sb]) {
                let p = pa[s * m.n + x] * pb[sb * m.n + y];
                if p == 0.0 {
                    continue;
                }
                match m.round(s, x, y) {
                    Round::Won => win += p,
                    Round::Lost => lose += p,
                    Round::Next(t) => edges.push((p, t)),
                }
            }
        }
        wins.push((s, edges.len(), win));
        losses.push((s, edges.len(), lose));
    }
    let pw = iterate(m.states, &wins, &edges, EXACT_SWEEPS)[0].clamp(0.0, 1.0);
    let pl = iterate(m.states, &losses, &edges, EXACT_SWEEPS)[0].clamp(0.0, 1.0);
    (pw, pl, (1.0 - pw - pl).max(0.0))
}

// ---- training

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
        Individual {
            genes,
            fitness,
            expl,
            local,
        }
    }
}

/// A population of weight tables under a genetic algorithm.
struct Trainer {
    pop: Vec<Individual>,
    generation: u64,
    rng: Rng,
}

impl Trainer {
    /// The uniform AI and random weight tables.
    fn fresh(m: &Model, seed: u64) -> Vec<Vec<f64>> {
        let mut rng = Rng(seed ^ 0x6A69_5F74_7261_696E);
        let mut pop = vec![vec![1.0; m.genes()]];
        while pop.len() < POPULATION {
            pop.push((0..m.genes()).map(|_| rng.unit()).collect());
        }
        pop
    }

    fn new(m: &Model, value: &[f64], pop: Vec<Vec<f64>>, generation: u64, rng: Rng) -> Trainer {
        let pop = pop.into_iter().map(|g| Individual::new(m, value, g));
        let mut t = Trainer {
            pop: pop.collect(),
            generation,
            rng,
        };
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
                if r < 0.4 {
                    child[lo..hi].copy_from_slice(&other[lo..hi]);
                } else if r < 0.5 {
                    let t = self.rng.unit();
                    for (c, &o) in child[lo..hi].iter_mut().zip(&other[lo..hi]) {
                        *c = t * *c + (1.0 - t) * o;
                    }
                }
            }
            // Mutation: one scale per child, drawn from several so coarse
            // and fine moves coexist; a geometric number of states, half of
            // them chosen where the parent's local gap is large.
            let sigma = [0.3, 0.1, 0.03, 0.01, 0.003][self.rng.below(5)];
            let gaps = &self.pop[pa].local;
            let total: f64 = gaps.iter().sum();
            loop {
                let s = if total > 0.0 && self.rng.unit() < 0.5 {
                    roulette(self.rng.unit() * total, gaps.iter().copied().enumerate())
                } else {
                    self.rng.below(m.states)
                };
                for g in &mut child[m.offset[s]..m.offset[s + 1]] {
                    *g = if self.rng.unit() < 0.03 {
                        0.0 // lets a skill drop out of the mix entirely
                    } else {
                        let noise = self.rng.unit() + self.rng.unit() + self.rng.unit() - 1.5;
                        (*g + 2.0 * sigma * noise).clamp(0.0, 1.0)
                    };
                }
                if self.rng.unit() >= 0.5 {
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

// ---- archive

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
fn parse_archive(text: &[u8], file: &str, m: &Model) -> Result<(u64, Rng, Vec<Vec<f64>>), Failure> {
    let text = match std::str::from_utf8(text) {
        Ok(t) => t,
        Err(e) => {
            let at = e.valid_up_to();
            let line = 1 + text[..at].iter().filter(|&&b| b == b'\n').count();
            return bad(line, format!("not UTF-8 text (byte {at})"));
        }
    };
    let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
    // Line `l`; lines are read in order, so a missing one ends the archive.
    let line = |l: usize| -> Result<&str, Failure> {
        let end = || Failure::BadInput(l, "archive ends early (truncated?)".into());
        lines.get(l - 1).copied().ok_or_else(end)
    };
    // The value of line l if it reads `key value`.
    let field = |l: usize, key: &str| line(l).map(|t| t.strip_prefix(key));
    let expected = |l: usize, what: &str| Failure::BadInput(l, format!("expected '{what}'"));
    if line(1)? != ARCHIVE_MAGIC {
        return bad(1, format!("not a ji archive (expected '{ARCHIVE_MAGIC}')"));
    }
    let n = (field(2, "variant ")?.and_then(|r| r.trim().parse::<usize>().ok()))
        .filter(|n| (1..=MAX_SKILLS).contains(n))
        .ok_or_else(|| expected(2, "variant N"))?;
    let mut vt = format!("{n}\n");
    for l in 3..3 + n {
        vt = vt + line(l)? + "\n";
    }
    let v = parse_variant(vt.as_bytes(), file, 1)?;
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
        return bad(2, format!("archive is for another variant ({why})"));
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
    if dims.len() != 2 || dims[0] < 1 || dims[0] > 10_000 || dims[1] != states {
        let what = format!("expected 'population P {states}' with 1 <= P <= 10000");
        return bad(l, what);
    }
    let mut pop = Vec::new();
    for i in 0..dims[0] {
        l += 1;
        if line(l)? != format!("individual {i}") {
            return Err(expected(l, &format!("individual {i}")));
        }
        let mut genes = Vec::new();
        for st in 0..states {
            l += 1;
            let mut it = line(l)?.split(' ');
            let (a, b) = m.counts(st);
            if it.next() != Some(&a.to_string()) || it.next() != Some(&b.to_string()) {
                return bad(l, format!("expected the weights of state {a} {b}"));
            }
            let start = genes.len();
            for w in it {
                match w.parse::<f64>() {
                    Ok(x) if x.is_finite() && x >= 0.0 => genes.push(x),
                    _ => return bad(l, format!("bad weight '{}'", shown(w.as_bytes()))),
                }
            }
            let (want, found) = (m.offset[st + 1] - m.offset[st], genes.len() - start);
            if found != want {
                let what = format!("state {a} {b} needs {want} weights, found {found}");
                return bad(l, what);
            }
        }
        pop.push(genes);
    }
    l += 1;
    if line(l)? != "end" {
        return Err(expected(l, "end"));
    }
    if l < lines.len() {
        return bad(l + 1, "text after 'end'".into());
    }
    Ok((generation, rng, pop))
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

// ---- commands

/// The variant `--variant` names, or the common one.
fn read_variant(cfg: &Config) -> Result<Variant, Failure> {
    let Some(file) = &cfg.variant else {
        return parse_variant(COMMON_VARIANT.as_bytes(), "built-in variant", 0);
    };
    let origin = file.display().to_string();
    let text = std::fs::read(file).map_err(|e| unreadable(&origin, e))?;
    parse_variant(&text, &origin, 0)
}

struct Session {
    m: Model,
    value: Vec<f64>,
    eq_policy: Vec<f64>,
    trainer: Trainer,
    archive: PathBuf,
    play_rng: Rng,
}

type Done = Result<(), Failure>;

impl Session {
    /// Reads the archive or draws a population; prints the first screen.
    fn new(variant: Variant, cfg: &Config, out: &mut impl Write) -> Result<Session, Failure> {
        let m = Model::new(variant);
        let (value, eq_policy) = equilibrium(&m);
        let seed = cfg.seed.unwrap_or_else(|| {
            let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
            t.map_or(0, |d| d.as_nanos() as u64)
        });
        let name = cfg.archive.display().to_string();
        let (generation, rng, pop, note) = match std::fs::read(&cfg.archive) {
            Ok(bytes) => {
                let (g, r, p) = parse_archive(&bytes, &name, &m).map_err(|f| f.in_file(&name))?;
                let note = format!("archive '{name}': generation {g}, population {}", p.len());
                (g, r, p, note)
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                let note =
                    format!("no archive '{name}': a fresh random population of {POPULATION}");
                (0, Rng(seed), Trainer::fresh(&m, seed), note)
            }
            Err(e) => return Err(unreadable(&name, e)),
        };
        let trainer = Trainer::new(&m, &value, pop, generation, rng);
        let (n, c, states) = (m.n, m.cap, m.states);
        writeln!(out, "variant: {n} skills, C = {c}, {states} states\n{note}")?;
        let trained = match generation {
            0 => "the AI is untrained (generation 0)".to_string(),
            g => format!("the AI is trained: generation {g}"),
        };
        let expl = trainer.pop[0].expl.max(0.0);
        writeln!(out, "{trained}; exploitability {expl:.6} (0 is unbeatable)")?;
        let next = if m.afford[0] == 0 {
            format!("nothing to play or train: {NOTHING_TO_PLAY}; r shows the rules")
        } else {
            "type t to train the AI, p to play against it, r for the rules, h for help".into()
        };
        writeln!(out, "{next}")?;
        Ok(Session {
            trainer,
            m,
            value,
            eq_policy,
            archive: cfg.archive.clone(),
            play_rng: Rng(seed.wrapping_add(0x7069_6179)),
        })
    }

    fn best(&self) -> Vec<f64> {
        self.m.policy(&self.trainer.pop[0].genes)
    }

    /// `t G`: trains, prints about 60 progress lines, saves the archive.
    fn train(&mut self, gens: u64, out: &mut impl Write) -> Done {
        if self.m.afford[0] == 0 {
            writeln!(out, "nothing to train: {NOTHING_TO_PLAY}")?;
            return Ok(());
        }
        for i in 1..=gens {
            self.trainer.step(&self.m, &self.value);
            if i % ((gens + 59) / 60) == 0 || i == gens {
                let (g, best) = (self.trainer.generation, &self.trainer.pop[0]);
                let (fitness, expl) = (best.fitness, best.expl.max(0.0));
                writeln!(
                    out,
                    "generation {g}: best fitness {fitness:.6}, exploitability {expl:.6}"
                )?;
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

    /// `s`: the best AI's table.
    fn show(&self, out: &mut impl Write) -> Done {
        let (m, p, g) = (&self.m, self.best(), self.trainer.generation);
        writeln!(
            out,
            "best AI, generation {g}: P(skill) per state (own 集, opponent 集)"
        )?;
        for s in 0..m.states {
            let (a, b) = m.counts(s);
            write!(out, "({a}, {b}):")?;
            for x in bits(m.playable[s]) {
                write!(out, " {} {:.4}", m.labels[x], p[s * m.n + x])?;
            }
            writeln!(out)?;
        }
        Ok(())
    }

    /// `e`: outcomes against two references; exploitabilities.
    fn evaluate(&self, out: &mut impl Write) -> Done {
        let (m, ai, eq) = (&self.m, self.best(), &self.eq_policy);
        let uniform = m.policy(&vec![1.0; m.genes()]);
        writeln!(out, "game value at (0, 0): {:.6}", self.value[0].abs())?;
        for (name, opp) in [("uniform AI", &uniform), ("equilibrium", eq)] {
            let (w, l, d) = outcomes(m, &ai, opp);
            writeln!(
                out,
                "vs {name}: P(win) {w:.6}, P(lose) {l:.6}, P(draw) {d:.6}"
            )?;
        }
        let refs = [
            ("uniform AI's ", &uniform),
            ("equilibrium's ", eq),
            ("", &ai),
        ];
        for (name, policy) in refs {
            let br = best_response(m, policy, EXACT_SWEEPS);
            writeln!(
                out,
                "{name}exploitability: {:.6}",
                (br[0] - self.value[0]).max(0.0)
            )?;
        }
        Ok(())
    }

    /// `p`: a game against the best AI with real (uncapped) counts; the end
    /// of input (Ctrl-D) ends the game, not the session.
    fn play(&mut self, input: &mut impl BufRead, out: &mut impl Write, tty: bool) -> Done {
        let m = &self.m;
        if m.afford[0] == 0 {
            writeln!(out, "nothing to play: {NOTHING_TO_PLAY}")?;
            return Ok(());
        }
        let g = self.trainer.generation;
        write!(out, "{}", m.rules())?;
        writeln!(out, "new game against the AI (generation {g})\n{MOVE_HELP}")?;
        let ai = self.best();
        let (mut me, mut bot, mut round) = (0i64, 0i64, 0u64);
        let summary = loop {
            round += 1;
            let mine: Vec<usize> = (0..m.n).filter(|&x| m.v.skills[x].req <= me).collect();
            let menu: Vec<String> = (mine.iter().enumerate())
                .map(|(i, &x)| format!("{} {}", i + 1, m.named(x)))
                .collect();
            let menu = menu.join(", ");
            writeln!(
                out,
                "round {round}: you {me} 集, AI {bot} 集; you may play: {menu}"
            )?;
            let x = match read_move(m, &mine, me, input, out, tty)? {
                Some(Move::Play(x)) => x,
                Some(Move::GiveUp) => break format!("you gave up in round {round}: the AI wins"),
                None => break format!("game abandoned in round {round} (end of input): no winner"),
            };
            let y = m.ai_move(&ai, bot, me, &mut self.play_rng);
            let (xs, ys) = (&m.labels[x], &m.labels[y]);
            let (why, winner) = if m.beats(x, y) {
                (format!("{xs} beats {ys}"), "you win")
            } else if m.beats(y, x) {
                (format!("{ys} beats {xs}"), "the AI wins")
            } else {
                me = me.saturating_add(m.v.skills[x].delta);
                bot = bot.saturating_add(m.v.skills[y].delta);
                ("neither beats the other".into(), "go on")
            };
            writeln!(out, "you: {xs}, AI: {ys} -> {why}: {winner}")?;
            if winner != "go on" {
                let rounds = if round == 1 { "round" } else { "rounds" };
                break format!("game over after {round} {rounds}: {winner}");
            }
        };
        writeln!(out, "{summary}. p plays again, h for help")?;
        Ok(())
    }
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
    tty: bool,
) -> Result<Option<Move>, Failure> {
    while let Some(line) = ask(input, out, tty.then_some("your skill> "))? {
        let word = trim(&line);
        let (text, typed) = (std::str::from_utf8(word).unwrap_or(""), shown(word));
        let why = match (m.find(text), command(word)) {
            _ if word.is_empty() => continue,
            (Some(x), _) if m.v.skills[x].req <= me => return Ok(Some(Move::Play(x))),
            (Some(x), _) => format!(
                "{} needs {} 集, you have {me}",
                m.labels[x], m.v.skills[x].req
            ),
            (None, Some(b'q')) => return Ok(Some(Move::GiveUp)),
            (None, Some(b'r')) => {
                write!(out, "{}", m.rules())?;
                continue;
            }
            (None, Some(b'h')) => {
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
        Err(e) => Err(Failure::Refused(format!("cannot read the commands: {e}"))),
    }
}

/// A command's letter, for the letter or the word. Lower case only: a stray
/// `T` is not 3000 generations of training.
fn command(word: &[u8]) -> Option<u8> {
    const WORDS: [&str; 7] = ["train", "play", "rules", "show", "eval", "help", "quit"];
    let found = WORDS
        .iter()
        .find(|c| word == c.as_bytes() || word == &c.as_bytes()[..1]);
    found.map(|c| c.as_bytes()[0])
}

/// A session: commands from `input` until `q` or its end.
fn run(cfg: &Config, input: &mut impl BufRead, out: &mut impl Write, tty: bool) -> Done {
    let mut session = Session::new(read_variant(cfg)?, cfg, out)?;
    serve(&mut session, input, out, tty)
}

fn serve(session: &mut Session, input: &mut impl BufRead, out: &mut impl Write, tty: bool) -> Done {
    while let Some(line) = ask(input, out, tty.then_some("ji> "))? {
        let words: Vec<&[u8]> = (line.split(u8::is_ascii_whitespace))
            .filter(|w| !w.is_empty())
            .collect();
        let Some(&first) = words.first() else {
            continue;
        };
        let word = shown(first);
        match (command(first), words.len()) {
            (None, _) => writeln!(out, "unknown command '{word}'; h lists the commands")?,
            (Some(b't'), 1) => session.train(DEFAULT_GENERATIONS, out)?,
            (Some(b't'), 2) => match std::str::from_utf8(words[1]).map(|g| g.parse::<u64>()) {
                Ok(Ok(g)) if (1..=MAX_GENERATIONS).contains(&g) => session.train(g, out)?,
                _ => writeln!(out, "t: G must be an integer 1..={MAX_GENERATIONS}")?,
            },
            (Some(b't'), _) => writeln!(out, "t takes at most one number: t [G]")?,
            (Some(_), 2..) => writeln!(out, "'{word}' takes no argument; h lists the commands")?,
            (Some(b'p'), _) => session.play(input, out, tty)?,
            (Some(b'r'), _) => write!(out, "{}", session.m.rules())?,
            (Some(b's'), _) => session.show(out)?,
            (Some(b'e'), _) => session.evaluate(out)?,
            (Some(b'h'), _) => write!(out, "{COMMANDS}")?,
            (Some(_), _) => return Ok(()),
        }
    }
    Ok(())
}

fn main() {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    let mut out = io::BufWriter::new(io::stdout().lock());
    let result = match parse_args(&args) {
        Ok(None) => write!(out, "{HELP}{COMMANDS}").map_err(Failure::from),
        Ok(Some(cfg)) => {
            let tty = io::stdin().is_terminal();
            run(&cfg, &mut io::stdin().lock(), &mut out, tty)
        }
        Err(f) => Err(f),
    };
    let result = result.and_then(|()| out.flush().map_err(Failure::from));
    if let Err(f) = result {
        let _ = out.flush();
        // A failed stderr cannot be reported anywhere: ignore it, no panic.
        let _ = writeln!(io::stderr(), "ji: {f}");
        std::process::exit(f.exit_code());
    }
}

#[cfg(test)]
#[path = "../../tests/unit/ji.rs"]
mod tests;
