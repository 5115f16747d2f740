//! 集 (波波攒) solver: the value of the game under optimal play. Input,
//! output and exit codes: `HELP`; counts are capped at C = max req.
//!
//! V_0 = 0 and V_k(s) = value of the stage matrix game at s, where a pair
//! of moves that ends the game pays +1 or -1 and any other pair pays
//! (1 - p/100) * V_{k-1}(next state). R > 0 asks for V_R, R = 0 for
//! lim V_k (`solve_table`, `certify`). No clock: the budget counts work,
//! so an input gives the same bytes and exit code on every machine.

use std::fmt;
use std::io::{self, Read, Write};

const BIN: &str = "ji_solver";
/// Largest C tabulated: (C+1)^2 values per table.
const MAX_CAP: i64 = 1000;
/// Largest number of skills solved (a stage game is up to n x n).
const MAX_SKILLS: usize = 64;

fn main() {
    if let Err(failure) = run_main() {
        eprintln!("{}: {}", BIN, failure);
        std::process::exit(failure.exit_code());
    }
}

fn run_main() -> Result<(), Failure> {
    let mut opts = Options::default();
    for arg in std::env::args_os().skip(1) {
        match arg.to_str() {
            Some("--help" | "-h") => {
                return io::stdout().write_all(HELP.as_bytes()).map_err(unwritable);
            }
            Some("--strict") => opts.strict = true,
            Some("--strategy") => opts.strategy = true,
            _ => {
                return Err(Failure::BadArgument(format!(
                    "unknown argument `{}` (try --help)",
                    arg.to_string_lossy()
                )))
            }
        }
    }
    let mut input = Vec::new();
    io::stdin()
        .read_to_end(&mut input)
        .map_err(|e| Failure::Io(format!("cannot read the input: {}", e)))?;
    let mut out = io::stdout().lock();
    let result = solve(&input, &opts, &mut out);
    out.flush().map_err(unwritable)?;
    result
}

fn unwritable(e: io::Error) -> Failure {
    Failure::Io(format!("cannot write the output: {}", e))
}

/// The command-line options (see `HELP`).
#[derive(Default)]
pub struct Options {
    strict: bool,
    strategy: bool,
}

const HELP: &str = "\
ji_solver: value of 集 (波波攒) under optimal play.
input:  n, then n skills `name delta req k beaten_1 .. beaten_k`,
        then `R p` (round limit, 0 = none; draw chance in percent),
        then q and q queries `x y` (counts of A and B, 0..=C = max req),
        separated by any whitespace; what follows the last query is ignored.
output: per query P(A wins) - P(B wins), 9 digits after the point.
  --strategy  after each value, `A: name prob ...` and `B: name prob ...`:
              optimal strategies of the query's first round (6 decimals,
              skills of probability 0 left out).
  --strict    also check the layout: the first deviation is bad input
              `line L column C: ...`. n on line 1, one skill per line, `R p`
              on one, q on one, one query per line; single spaces between
              tokens, none at either end of a line; a newline (LF or CRLF)
              after the last record and nothing after it.
exit:   0 ok, 1 input unreadable or output unwritable, 2 bad input or
        argument, 3 valid but not certified (best values printed).
";

/// Why a run did not end with exit code 0.
#[derive(Debug, PartialEq)]
pub enum Failure {
    /// An unknown command-line argument.
    BadArgument(String),
    /// Bad input: the 1-based line and what is wrong.
    BadInput(usize, String),
    /// Off the layout under `--strict`: line, column, what.
    BadLayout(usize, usize, String),
    /// Valid input, values not certified (the best printed) or too large.
    Uncertified(String),
    /// The input cannot be read or the output cannot be written.
    Io(String),
}

impl Failure {
    /// The process exit code: the one place that maps failures to codes.
    fn exit_code(&self) -> i32 {
        match self {
            Failure::BadArgument(_) | Failure::BadInput(..) | Failure::BadLayout(..) => 2,
            Failure::Uncertified(_) => 3,
            Failure::Io(_) => 1,
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::BadInput(line, what) => write!(f, "line {}: {}", line, what),
            Failure::BadLayout(line, column, what) => {
                write!(f, "line {} column {}: {}", line, column, what)
            }
            Failure::BadArgument(what) | Failure::Uncertified(what) | Failure::Io(what) => {
                f.write_str(what)
            }
        }
    }
}

fn bad<T>(line: usize, what: String) -> Result<T, Failure> {
    Err(Failure::BadInput(line, what))
}

/// Off the layout under `--strict` (the shared block's `strict` lexer).
fn bad_at<T>(line: usize, column: usize, what: String) -> Result<T, Failure> {
    Err(Failure::BadLayout(line, column, what))
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

// ---------------------------------------------------------------- input

/// A draw probability in percent: digits with at most one decimal point
/// (`0`, `0.0`, `2.50`, `100.000`), between 0 and 100.
fn parse_percent(text: &[u8]) -> Option<f64> {
    let digits = text.iter().filter(|c| c.is_ascii_digit()).count();
    let points = text.iter().filter(|&&c| c == b'.').count();
    if digits == 0 || points > 1 || digits + points != text.len() {
        return None;
    }
    std::str::from_utf8(text).ok()?.parse::<f64>().ok()
}

/// The whole input, checked.
struct Problem<'a> {
    variant: Variant<'a>,
    /// R (0: none), 1 - p/100 and C = max req.
    rounds: u64,
    keep: f64,
    cap: i64,
    queries: Vec<(usize, usize)>,
}

/// Reads the problem (`strict`: one record per line, as in `HELP`).
fn parse_problem(input: &[u8], strict: bool) -> Result<Problem<'_>, Failure> {
    let mut lx = Lexer::new(input);
    lx.strict = strict;
    let variant = parse_variant(&mut lx)?;
    let cap = variant.skills.iter().map(|s| s.req).max().unwrap_or(0);
    let rt = lx.expect(|| "the round limit R".to_string())?;
    let rounds = match parse_u64(rt.text) {
        Some(r) => r,
        None if rt.text.iter().all(u8::is_ascii_digit) => {
            return rt.fail(format!(
                "round limit R = {} is out of range (0..={})",
                show(rt.text),
                u64::MAX
            ))
        }
        None => {
            let hint = match rt.text.first() {
                Some(b'0'..=b'9' | b'-' | b'+') => "",
                _ => " (does every skill's count k match its list?)",
            };
            return rt.fail(format!(
                "expected the round limit R (an integer >= 0), found `{}`{}",
                show(rt.text),
                hint
            ));
        }
    };
    let pt = lx.expect(|| "the draw probability p".to_string())?;
    let percent = match parse_percent(pt.text) {
        Some(p) if (0.0..=100.0).contains(&p) => p,
        Some(_) => {
            return pt.fail(format!(
                "draw probability p = {} is out of range (0..=100)",
                show(pt.text)
            ))
        }
        None => {
            return pt.fail(format!(
                "draw probability p `{}` is not a decimal number of percent",
                show(pt.text)
            ))
        }
    };
    lx.end_record(false)?;
    let qt = lx.expect(|| "the number of queries q".to_string())?;
    let q = match parse_u64(qt.text) {
        Some(q) => q,
        None => {
            return qt.fail(format!(
                "expected the number of queries q, found `{}`",
                show(qt.text)
            ))
        }
    };
    lx.end_record(q == 0)?;
    let mut queries = Vec::new();
    for t in 1..=q {
        let mut pair = [0usize; 2];
        for (slot, who) in pair.iter_mut().zip(["x", "y"]) {
            let tok = lx.expect(|| format!("{} of query {} of {}", who, t, q))?;
            match parse_u64(tok.text) {
                Some(v) if v <= cap as u64 => *slot = v as usize,
                _ => {
                    let what = if tok.text.iter().all(u8::is_ascii_digit) {
                        format!("= {} is out of range", show(tok.text))
                    } else {
                        format!("`{}` is not a count of 集", show(tok.text))
                    };
                    return tok.fail(format!("query {}: {} {} (0..={})", t, who, what, cap));
                }
            }
        }
        lx.end_record(t == q)?;
        queries.push((pair[0], pair[1]));
    }
    // Reading: like `cin`, what follows the last query is not read
    // (`--strict` has refused it in `end_record`).
    Ok(Problem {
        variant,
        rounds,
        keep: 1.0 - percent / 100.0,
        cap,
        queries,
    })
}

// ---------------------------------------------------------------- model

/// The game as the solver sees it: skills sorted by req, so that the skills
/// usable with c 集 are a prefix of the list.
struct Game {
    n: usize,
    /// C, the cap on counts.
    cap: usize,
    /// delta of each skill, in req order.
    delta: Vec<i64>,
    /// usable[c] = number of skills with req <= c.
    usable: Vec<usize>,
    /// outcome[i * n + j]: +1 if skill i beats skill j, -1 if j beats i.
    outcome: Vec<i8>,
    /// 1 - p/100: the chance an unfinished round is not called off.
    keep: f64,
    /// The variant's index of each skill.
    order: Vec<usize>,
}

impl Game {
    fn new(v: &Variant<'_>, cap: i64, keep: f64) -> Game {
        let n = v.skills.len();
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| v.skills[i].req);
        let wins = |i: usize, j: usize| i8::from(v.beats(i as u32, j as u32));
        let outcome = order
            .iter()
            .flat_map(|&i| order.iter().map(move |&j| wins(i, j) - wins(j, i)))
            .collect();
        let cap = cap as usize;
        let usable = (0..=cap)
            .map(|c| order.partition_point(|&i| v.skills[i].req <= c as i64))
            .collect();
        Game {
            n,
            cap,
            delta: order.iter().map(|&i| v.skills[i].delta).collect(),
            usable,
            outcome,
            keep,
            order,
        }
    }

    fn width(&self) -> usize {
        self.cap + 1
    }
}

// ---------------------------------------------------------------- rules

impl Game {
    /// "After every round each count becomes min(count + delta, C)": the
    /// count after using skill i with c 集 (never negative: req >= -delta).
    fn next(&self, c: usize, i: usize) -> usize {
        (c as i64)
            .saturating_add(self.delta[i])
            .clamp(0, self.cap as i64) as usize
    }

    /// Builds the stage game at counts (a, b) into `stage.m` given the
    /// values `next` of the states one round later: rows are A's skills,
    /// columns B's. `Err(value)` when a player cannot move.
    fn build_stage(
        &self,
        a: usize,
        b: usize,
        next: &[f64],
        stage: &mut Stage,
    ) -> Result<(usize, usize), f64> {
        // "needs at least `req` 集": the usable skills, a prefix by req.
        let (rows, cols) = (self.usable[a], self.usable[b]);
        // Reading (the statement is silent; its referee says "an illegal
        // move that would have won is still ILLEGAL" and "a variant with no
        // req-0 skill gives ILLEGAL AB 1"): a player with no usable skill
        // cannot move and loses; if neither can move, a draw.
        match (rows, cols) {
            (0, 0) => return Err(0.0),
            (0, _) => return Err(-1.0),
            (_, 0) => return Err(1.0),
            _ => {}
        }
        let w = self.width();
        stage.m.clear();
        stage.work += (rows * cols + 32) as u64;
        for i in 0..rows {
            let row = self.next(a, i) * w;
            let out = &self.outcome[i * self.n..i * self.n + cols];
            // "If one side's skill beats the other's, that side wins and
            // the game ends; otherwise both deltas apply", and the next
            // round is played with probability 1 - p/100.
            for (j, &o) in out.iter().enumerate() {
                stage.m.push(if o != 0 {
                    f64::from(o)
                } else {
                    self.keep * next[row + self.next(b, j)]
                });
            }
        }
        Ok((rows, cols))
    }
}

// ---------------------------------------------------------------- stage game

/// Scratch space for stage (matrix) games.
#[derive(Default)]
struct Stage {
    /// The matrix, row-major; A (rows) maximises.
    m: Vec<f64>,
    /// What is left of `m` after dominance.
    red: Vec<f64>,
    row_on: Vec<bool>,
    col_on: Vec<bool>,
    lp: Simplex,
    /// Largest gap between the certified bounds of any stage game.
    worst_gap: f64,
    /// The last game's maximin row and minimax column; no saddle (then
    /// `red`, `row_on`, `col_on` hold the rest of dominance)?
    pure: (usize, usize),
    reduced: bool,
    /// The best row and column strategies found on `red`.
    best_x: Vec<f64>,
    best_y: Vec<f64>,
    /// See `WORK`.
    work: u64,
    /// Per state, A's (`sure[0]`) or B's strategy of the round the state's
    /// value first became +1 (-1 for B): it leads only to states that got
    /// there earlier, so it wins as a stationary strategy too.
    sure: [Vec<Vec<f64>>; 2],
}

/// Gap below which a simplex answer is accepted without a second try.
const GAP_OK: f64 = 1e-12;

impl Stage {
    /// The value of the matrix game in `m` (rows x cols); leaves what
    /// `strategies` needs.
    fn value(&mut self, rows: usize, cols: usize) -> f64 {
        let m = &self.m;
        // Pure saddle point: max of row minima = min of column maxima.
        let (mut lower, mut upper) = (f64::NEG_INFINITY, f64::INFINITY);
        for (i, row) in m.chunks(cols).enumerate() {
            let v = row.iter().fold(f64::INFINITY, |a, &b| a.min(b));
            if v > lower {
                lower = v;
                self.pure.0 = i;
            }
        }
        for j in 0..cols {
            let v = (0..rows).fold(f64::NEG_INFINITY, |a, i| a.max(m[i * cols + j]));
            if v < upper {
                upper = v;
                self.pure.1 = j;
            }
        }
        self.reduced = upper > lower;
        if !self.reduced {
            return lower;
        }
        // Never a single line left: one row leaves one column, and a 1 x 1
        // rest would be a saddle of `m` (its strategies stay optimal).
        let (r, c) = self.reduce(rows, cols);
        self.mixed(r, c, lower, upper).clamp(lower, upper)
    }

    /// Removes weakly dominated rows and columns (this keeps the value);
    /// leaves the r x c remainder in `red`.
    fn reduce(&mut self, rows: usize, cols: usize) -> (usize, usize) {
        let m = &self.m;
        let (row_on, col_on) = (&mut self.row_on, &mut self.col_on);
        *row_on = vec![true; rows];
        *col_on = vec![true; cols];
        let mut changed = true;
        while changed {
            changed = false;
            // Row i is dominated by row k if it is nowhere better for A.
            for i in 0..rows {
                let le =
                    |k: usize| (0..cols).all(|j| !col_on[j] || m[i * cols + j] <= m[k * cols + j]);
                if row_on[i] && (0..rows).any(|k| k != i && row_on[k] && le(k)) {
                    row_on[i] = false;
                    changed = true;
                }
            }
            for j in 0..cols {
                let ge =
                    |l: usize| (0..rows).all(|i| !row_on[i] || m[i * cols + j] >= m[i * cols + l]);
                if col_on[j] && (0..cols).any(|l| l != j && col_on[l] && ge(l)) {
                    col_on[j] = false;
                    changed = true;
                }
            }
        }
        self.red.clear();
        for i in (0..rows).filter(|&i| row_on[i]) {
            self.red
                .extend((0..cols).filter(|&j| col_on[j]).map(|j| m[i * cols + j]));
        }
        let r = row_on.iter().filter(|&&b| b).count();
        (r, self.red.len() / r)
    }

    /// A mixed stage game (r x c in `red`) by simplex, certified by its
    /// strategies: x guarantees min_j x.M_j, y at most max_i M_i.y; a wide
    /// gap tries the transposed game and Bland's rule. `lower`, `upper`
    /// (pure bounds) stand in for a bound no attempt found.
    fn mixed(&mut self, r: usize, c: usize, lower: f64, upper: f64) -> f64 {
        let (mut lo, mut hi) = (f64::NEG_INFINITY, f64::INFINITY);
        self.best_x.clear();
        self.best_y.clear();
        for attempt in 0..4 {
            let transposed = attempt % 2 == 1;
            let bland = attempt >= 2;
            let ok = if transposed {
                let neg_t = neg_transpose(&self.red, r, c);
                self.lp.solve(&neg_t, c, r, bland, &mut self.work)
            } else {
                self.lp.solve(&self.red, r, c, bland, &mut self.work)
            };
            if ok {
                let (xs, ys) = if transposed {
                    (&self.lp.y, &self.lp.x)
                } else {
                    (&self.lp.x, &self.lp.y)
                };
                let m = &self.red;
                let col = |j: usize| (0..r).map(|i| xs[i] * m[i * c + j]).sum::<f64>();
                let row = |i: usize| (0..c).map(|j| m[i * c + j] * ys[j]).sum::<f64>();
                let low = (0..c).map(col).fold(f64::INFINITY, f64::min);
                let high = (0..r).map(row).fold(f64::NEG_INFINITY, f64::max);
                if low > lo {
                    lo = low;
                    self.best_x.clone_from(xs);
                }
                if high < hi {
                    hi = high;
                    self.best_y.clone_from(ys);
                }
            }
            if hi - lo <= GAP_OK {
                break;
            }
        }
        lo = if lo.is_finite() { lo } else { lower };
        hi = if hi.is_finite() { hi } else { upper };
        // The value is in [lo, hi] (if crossed: rounding noise).
        self.worst_gap = self.worst_gap.max(hi - lo);
        0.5 * (lo + hi)
    }

    /// Optimal strategies of the game in `m`, into `best_x`, `best_y`: pure
    /// at a saddle, else those of what dominance left (optimal in `m` too).
    fn strategies(&mut self, rows: usize, cols: usize) {
        self.value(rows, cols);
        let (mut x, mut y) = (vec![0.0; rows], vec![0.0; cols]);
        if self.reduced {
            x = expand(&self.row_on, &self.best_x);
            y = expand(&self.col_on, &self.best_y);
        }
        // A saddle, or no simplex attempt succeeded (never seen).
        if x.iter().sum::<f64>() == 0.0 {
            x[self.pure.0] = 1.0;
        }
        if y.iter().sum::<f64>() == 0.0 {
            y[self.pure.1] = 1.0;
        }
        self.best_x = x;
        self.best_y = y;
    }
}

/// The column player's view of the r x c game `m`: -M^T (c x r).
fn neg_transpose(m: &[f64], r: usize, c: usize) -> Vec<f64> {
    (0..c)
        .flat_map(|j| (0..r).map(move |i| -m[i * c + j]))
        .collect()
}

/// A strategy on the lines `on` that dominance left, on all lines.
fn expand(on: &[bool], best: &[f64]) -> Vec<f64> {
    let mut it = best.iter().copied();
    let pick = |&o: &bool| if o { it.next().unwrap_or(0.0) } else { 0.0 };
    on.iter().map(pick).collect()
}

/// A dense simplex for matrix games, with its scratch space.
#[derive(Default)]
struct Simplex {
    tab: Vec<f64>,
    basis: Vec<usize>,
    /// After `solve`: the row and the column player's optimal strategies.
    x: Vec<f64>,
    y: Vec<f64>,
}

impl Simplex {
    /// Solves the matrix game `a` (r x c, rows maximise): with B = a +
    /// shift > 0, max sum(y) s.t. B y <= 1, y >= 0; `y` and `x` (the dual,
    /// from the slacks' costs) become the strategies. Tiny pivots are
    /// refused (they can be off by far more than rounding); `bland` takes
    /// the smallest index instead of the steepest cost.
    fn solve(&mut self, a: &[f64], r: usize, c: usize, bland: bool, work: &mut u64) -> bool {
        const COST_EPS: f64 = 1e-11;
        const PIVOT_EPS: f64 = 1e-9;
        let Simplex { tab, basis, x, y } = self;
        let shift = 1.0 - a.iter().copied().fold(f64::INFINITY, f64::min);
        let w = c + r + 1;
        tab.clear();
        tab.resize((r + 1) * w, 0.0);
        for i in 0..r {
            for j in 0..c {
                tab[i * w + j] = a[i * c + j] + shift;
            }
            tab[i * w + c + i] = 1.0;
            tab[i * w + w - 1] = 1.0;
        }
        for j in 0..c {
            tab[r * w + j] = -1.0;
        }
        basis.clear();
        basis.extend(c..c + r);
        for _ in 0..50 * (r + c) + 100 {
            let obj = &tab[r * w..r * w + w - 1];
            let mut enter = usize::MAX;
            let mut best = -COST_EPS;
            for (j, &d) in obj.iter().enumerate() {
                if d < best {
                    enter = j;
                    if bland {
                        break;
                    }
                    best = d;
                }
            }
            if enter == usize::MAX {
                // Optimal: y from the basis, x from the slacks' costs.
                y.clear();
                y.resize(c, 0.0);
                for i in 0..r {
                    if basis[i] < c {
                        y[basis[i]] = tab[i * w + w - 1].max(0.0);
                    }
                }
                x.clear();
                x.extend((0..r).map(|i| tab[r * w + c + i].max(0.0)));
                let (sx, sy): (f64, f64) = (x.iter().sum(), y.iter().sum());
                x.iter_mut().for_each(|v| *v /= sx);
                y.iter_mut().for_each(|v| *v /= sy);
                return sx > 0.0 && sy > 0.0;
            }
            let mut leave = usize::MAX;
            let mut ratio = f64::INFINITY;
            for i in 0..r {
                let t = tab[i * w + enter];
                if t > PIVOT_EPS {
                    let q = tab[i * w + w - 1] / t;
                    // Ties: Bland's smallest index, else the largest pivot.
                    let better = leave == usize::MAX
                        || if (q - ratio).abs() <= 1e-12 * ratio.max(1.0) {
                            if bland {
                                basis[i] < basis[leave]
                            } else {
                                t > tab[leave * w + enter]
                            }
                        } else {
                            q < ratio
                        };
                    if better {
                        leave = i;
                        ratio = q.min(ratio);
                    }
                }
            }
            if leave == usize::MAX {
                return false;
            }
            *work += ((r + 1) * w) as u64;
            let p = tab[leave * w + enter];
            for v in &mut tab[leave * w..(leave + 1) * w] {
                *v /= p;
            }
            tab[leave * w + enter] = 1.0;
            for k in (0..=r).filter(|&k| k != leave) {
                let f = tab[k * w + enter];
                if f != 0.0 {
                    for j in 0..w {
                        let v = tab[leave * w + j];
                        tab[k * w + j] -= f * v;
                    }
                    tab[k * w + enter] = 0.0;
                }
            }
            basis[leave] = enter;
        }
        false
    }
}

// ---------------------------------------------------------------- iteration

/// The budget of work (`Stage::work`: stage-game entries built plus 32
/// each, tableau entries and linear-system steps): about 2 s here.
const WORK: u64 = 300_000_000;

impl Game {
    /// One round: `new` = T(`old`) on the states a < b, mirrored; V(a, a) =
    /// 0. The largest change, or `None` when out of work (`new` partial).
    fn sweep(&self, old: &[f64], new: &mut [f64], stage: &mut Stage) -> Option<f64> {
        let w = self.width();
        let mut change: f64 = 0.0;
        for a in 0..w {
            new[a * w + a] = 0.0;
            for b in a + 1..w {
                if stage.work > WORK {
                    return None;
                }
                let v = match self.build_stage(a, b, old, stage) {
                    Ok((rows, cols)) => stage.value(rows, cols),
                    Err(v) => v,
                };
                let moves = self.usable[a] > 0 && self.usable[b] > 0;
                if moves && v.abs() == 1.0 && old[a * w + b].abs() != 1.0 {
                    self.note_sure_win(a, b, v, stage);
                }
                change = change.max((v - old[a * w + b]).abs());
                new[a * w + b] = v;
                new[b * w + a] = -v;
            }
        }
        Some(change)
    }

    /// Keeps the winner's strategy of the stage game just solved at (a, b),
    /// of value v = +1 or -1, for (a, b) and for the mirrored (b, a).
    fn note_sure_win(&self, a: usize, b: usize, v: f64, stage: &mut Stage) {
        let w = self.width();
        if stage.sure[0].is_empty() {
            stage.sure = [vec![Vec::new(); w * w], vec![Vec::new(); w * w]];
        }
        stage.strategies(self.usable[a], self.usable[b]);
        let who = usize::from(v < 0.0);
        let won = [&stage.best_x, &stage.best_y][who];
        stage.sure[who][a * w + b] = won.clone();
        stage.sure[1 - who][b * w + a] = won.clone();
    }
}

/// A change that counts as converged; the sweeps before `certify` is tried
/// (then at every doubling); the width of bounds it must reach.
const STILL: f64 = 1e-13;
const CERTIFY_FROM: u64 = 256;
const CERTIFIED: f64 = 1e-7;

/// The table of values, the table whose stage games are the query's first
/// round (for `--strategy`: V_{R-1} for R > 0, the values for R = 0), and
/// a warning if the values are not certified.
fn solve_table(game: &Game, rounds: u64) -> (Vec<f64>, Vec<f64>, Option<String>) {
    let w = game.width();
    let mut stage = Stage::default();
    let (mut old, mut new) = (vec![0.0; w * w], vec![0.0; w * w]);
    // What all later rounds can add, per unit of the last change: keep +
    // keep^2 + ... (T is a keep-contraction in the sup norm); infinite at
    // keep = 1.
    let tail = game.keep / (1.0 - game.keep);
    let mut done: u64 = 0;
    let mut last = f64::INFINITY;
    // The largest change of rounds 1, 2, 4, 8, ...
    let mut changes: Vec<f64> = Vec::new();
    let mut note = String::new();
    let warning = loop {
        if rounds > 0 && done == rounds {
            break None;
        }
        let change = game.sweep(&old, &mut new, &mut stage);
        if rounds == 0 && (change.is_none() || done >= CERTIFY_FROM && done.is_power_of_two()) {
            match certify(game, &old, &mut stage) {
                Some((mid, width)) if width <= CERTIFIED => {
                    // Bounds from exact best replies: the stage games'
                    // accuracy no longer matters.
                    stage.worst_gap = 0.0;
                    old = mid;
                    break None;
                }
                Some((_, width)) => note = format!("; certified bounds {:.1e} wide", width),
                None => {}
            }
        }
        let change = match change {
            Some(c) => c,
            None => {
                break Some(format!(
                    "out of work after {} rounds: the last one moved the values by {:.1e}{}",
                    done, last, note
                ))
            }
        };
        std::mem::swap(&mut old, &mut new);
        done += 1;
        last = change;
        // A fixed point stays fixed; else the rounds left can add at most
        // change * min(left, tail).
        let left = if rounds > 0 {
            (rounds - done) as f64
        } else {
            f64::INFINITY
        };
        if change == 0.0 || change * left.min(tail) < 1e-12 {
            break None;
        }
        // Else (p = 0): a change below 1e-13 shrinking geometrically (rate
        // rho over the second half of the rounds), so that the rest,
        // change * rho / (1 - rho), is small too; 1/k values go on.
        if done.is_power_of_two() {
            changes.push(change);
        }
        if change < STILL && done >= 8 && left > 1e6 {
            // Round 2^j <= done / 2, whose change is changes[j].
            let j = 63 - (done / 2).leading_zeros();
            let rho = (change / changes[j as usize]).powf(1.0 / (done - (1 << j)) as f64);
            if rho < 1.0 && change * rho / (1.0 - rho) < 1e-9 {
                break None;
            }
        }
    };
    // Out of work, `new` is partial: then, and for R = 0, the stage games
    // of the values printed.
    let cont = if rounds > 0 && warning.is_none() {
        new
    } else {
        old.clone()
    };
    let worst = stage.worst_gap;
    let warning = warning.or_else(|| {
        (worst > 1e-9).then(|| format!("a stage game was solved only to within {:.1e}", worst))
    });
    (old, cont, warning)
}

// ---------------------------------------------------------------- certify

/// Largest table certified (dense linear systems).
const MAX_CERTIFY_STATES: usize = 484;

const MARGIN: f64 = 1e-9;

const PASSES: usize = 24;
const TILT: f64 = 1e-9;

/// Certified bounds on the unlimited game's values: the midpoints and the
/// largest width, or `None`. Soundness: against A's stationary x, B faces
/// a Markov decision process whose optimum low(s) (`reply_value`; a game
/// that never ends counts 0) A guarantees; B's y holds it to high(s). The
/// game is recursive: its value (Everett 1957) is lim V_k (Mertens and
/// Neyman 1981), the answer, so it lies in [low, high]; V(b, a) = -V(a, b).
/// Strategies: the stage games' at `table`, then alternately at the
/// midpoints and each player's own bound, with a hint of discount (TILT)
/// so that staying never ties with a rare move that ends the game.
fn certify(game: &Game, table: &[f64], stage: &mut Stage) -> Option<(Vec<f64>, f64)> {
    let w = game.width();
    if w * w > MAX_CERTIFY_STATES {
        return None;
    }
    let (mut low, mut high) = (vec![-1.0f64; w * w], vec![1.0f64; w * w]);
    let mut cont = table.to_vec();
    let mut best = None;
    for pass in 0..PASSES {
        let mut strat = [Vec::new(), Vec::new()];
        for (who, list) in strat.iter_mut().enumerate() {
            let src = match (pass % 2, who) {
                (0, _) => &cont,
                (_, 0) => &high,
                _ => &low,
            };
            let tilted: Vec<f64> = src.iter().map(|v| v * (1.0 - TILT)).collect();
            for s in 0..w * w {
                if let Ok((r, c)) = game.build_stage(s / w, s % w, &tilted, stage) {
                    stage.strategies(r, c);
                }
                let own = [&stage.best_x, &stage.best_y][who];
                let sure = stage.sure[who].get(s).filter(|x| !x.is_empty());
                list.push(sure.unwrap_or(own).clone());
            }
        }
        let (l, el) = game.reply_value(&strat[0], false, &mut stage.work)?;
        let (h, eh) = game.reply_value(&strat[1], true, &mut stage.work)?;
        for s in 0..w * w {
            low[s] = low[s].max(l[s] - el);
            high[s] = high[s].min(h[s] + eh);
        }
        let mut width: f64 = 0.0;
        for s in 0..w * w {
            let t = (s % w) * w + s / w;
            let lo = (low[s].max(-high[t]) - MARGIN).max(-1.0);
            let hi = (high[s].min(-low[t]) + MARGIN).min(1.0);
            if lo > hi {
                return None; // Inconsistent: never certify.
            }
            width = width.max(hi - lo);
            cont[s] = 0.5 * (lo + hi);
        }
        best = Some((cont.clone(), width));
        if width <= CERTIFIED {
            break;
        }
    }
    best
}

/// One reply to a fixed strategy: its payoff now (for the replier, who
/// minimises), whether it can never end the game, its transitions.
type Reply = (f64, bool, Vec<(usize, f64)>);

impl Game {
    /// A's values when the replier (A if `a_replies`) best answers the
    /// stationary `strat`, by policy iteration, and their error bound. Z:
    /// where the replier can stay forever; there it may "stop" (worth 0).
    /// Stopping on Z, every policy ends (one linear system), and strict
    /// improvements keep that; at the end v <= payoff + E[v(next)] and
    /// v <= 0 on Z, so v + payoff so far is a submartingale: v is optimal.
    fn reply_value(
        &self,
        strat: &[Vec<f64>],
        a_replies: bool,
        work: &mut u64,
    ) -> Option<(Vec<f64>, f64)> {
        let w = self.width();
        let ns = w * w;
        let sign = if a_replies { -1.0 } else { 1.0 };
        let mut replies: Vec<Vec<Reply>> = vec![Vec::new(); ns];
        let mut fixed = vec![0.0; ns];
        for s in 0..ns {
            let (a, b) = (s / w, s % w);
            let (rows, cols) = (self.usable[a], self.usable[b]);
            if rows == 0 || cols == 0 {
                // As in `build_stage`: who cannot move loses.
                fixed[s] = sign * f64::from(i8::from(cols == 0) - i8::from(rows == 0));
                continue;
            }
            // LP noise (1e-16) is no rare move.
            let kept: f64 = strat[s].iter().filter(|&&p| p > 1e-12).sum();
            for k in 0..if a_replies { rows } else { cols } {
                let mut reply: Reply = (0.0, self.keep == 1.0, Vec::new());
                for (l, &p) in strat[s].iter().enumerate().filter(|e| *e.1 > 1e-12) {
                    let p = p / kept;
                    let (i, j) = if a_replies { (k, l) } else { (l, k) };
                    match self.outcome[i * self.n + j] {
                        0 => reply
                            .2
                            .push((self.next(a, i) * w + self.next(b, j), self.keep * p)),
                        o => {
                            reply.0 += sign * p * f64::from(o);
                            reply.1 = false;
                        }
                    }
                }
                replies[s].push(reply);
            }
        }
        let mut z: Vec<bool> = replies.iter().map(|r| !r.is_empty()).collect();
        let mut changed = true;
        while changed {
            changed = false;
            for s in 0..ns {
                let keeps = |r: &Reply| r.1 && r.2.iter().all(|e| z[e.0]);
                if z[s] && !replies[s].iter().any(keeps) {
                    z[s] = false;
                    changed = true;
                }
            }
        }
        const STOP: usize = usize::MAX;
        let mut policy: Vec<usize> = z.iter().map(|&y| if y { STOP } else { 0 }).collect();
        let mut v = fixed.clone();
        for _ in 0..200 {
            // Evaluate: v = payoff + P v on the states that play on.
            let (mut live, mut index) = (Vec::new(), vec![usize::MAX; ns]);
            for s in (0..ns).filter(|&s| !replies[s].is_empty() && policy[s] != STOP) {
                index[s] = live.len();
                live.push(s);
            }
            let m = live.len();
            // Right sides: payoffs, and 1 (expected rounds, which bound
            // how rounding adds up).
            let mut sys = vec![0.0; m * (m + 2)];
            for (k, (row, &s)) in sys.chunks_mut(m + 2).zip(&live).enumerate() {
                let r = &replies[s][policy[s]];
                row[k] += 1.0;
                row[m] = r.0;
                row[m + 1] = 1.0;
                for &(t, p) in &r.2 {
                    match index[t] {
                        usize::MAX => row[m] += p * fixed[t],
                        i => row[i] -= p,
                    }
                }
            }
            *work += (m * m * m / 3) as u64;
            let x = gauss(&mut sys, m)?;
            for s in 0..ns {
                // `fixed` is 0 where the replier stops.
                v[s] = x.get(index[s]).map_or(fixed[s], |e| e[0]);
            }
            let rounds = x.iter().fold(1.0f64, |t, e| t.max(e[1]));
            let mut residual: f64 = 0.0;
            // Improve: a strictly better reply, or stopping.
            let mut stable = true;
            for s in 0..ns {
                let mut best = (v[s] - IMPROVES, policy[s]);
                if z[s] {
                    residual = residual.max(v[s]);
                    if 0.0 < best.0 {
                        best = (0.0, STOP);
                    }
                }
                for (a, r) in replies[s].iter().enumerate() {
                    let q = r.0 + r.2.iter().map(|&(t, p)| p * v[t]).sum::<f64>();
                    let off = if a == policy[s] {
                        (q - v[s]).abs()
                    } else {
                        v[s] - q
                    };
                    residual = residual.max(off);
                    if q < best.0 {
                        best = (q, a);
                    }
                }
                stable &= best.1 == policy[s];
                policy[s] = best.1;
            }
            if stable {
                let error = residual * rounds;
                return Some((v.iter().map(|&x| sign * x).collect(), error));
            }
        }
        None
    }
}

/// Strict improvement needed to change a reply (more than rounding).
const IMPROVES: f64 = 1e-14;

/// Solves the m x m system `sys` (rows: m coefficients, two right sides)
/// by Gaussian elimination with partial pivoting.
fn gauss(sys: &mut [f64], m: usize) -> Option<Vec<[f64; 2]>> {
    let w = m + 2;
    for c in 0..m {
        let p = (c..m).max_by(|&i, &j| sys[i * w + c].abs().total_cmp(&sys[j * w + c].abs()))?;
        if sys[p * w + c].abs() < 1e-300 {
            return None;
        }
        for k in 0..w {
            sys.swap(c * w + k, p * w + k);
        }
        for i in c + 1..m {
            let f = sys[i * w + c] / sys[c * w + c];
            if f != 0.0 {
                for k in c..w {
                    sys[i * w + k] -= f * sys[c * w + k];
                }
            }
        }
    }
    let mut x = vec![[0.0; 2]; m];
    for c in (0..m).rev() {
        for r in 0..2 {
            let s: f64 = (c + 1..m).map(|k| sys[c * w + k] * x[k][r]).sum();
            x[c][r] = (sys[c * w + m + r] - s) / sys[c * w + c];
        }
    }
    Some(x)
}

// ---------------------------------------------------------------- output

/// Reads the problem, solves it and prints one value per query. The values
/// are written even when they are not certified (`Failure::Uncertified`).
pub fn solve<W: Write>(input: &[u8], opts: &Options, out: &mut W) -> Result<(), Failure> {
    let prob = parse_problem(input, opts.strict)?;
    let n = prob.variant.skills.len();
    if prob.cap > MAX_CAP || n > MAX_SKILLS {
        return Err(Failure::Uncertified(format!(
            "the variant is too large to solve here (n = {}, C = {}; limits n <= {}, C <= {})",
            n, prob.cap, MAX_SKILLS, MAX_CAP
        )));
    }
    let game = Game::new(&prob.variant, prob.cap, prob.keep);
    let (table, cont, warning) = solve_table(&game, prob.rounds);
    let w = game.width();
    let mut text = String::new();
    let mut stage = Stage::default();
    for &(x, y) in &prob.queries {
        text.push_str(&format_value(table[x * w + y]));
        text.push('\n');
        if opts.strategy {
            // The query's first round (see `solve_table`).
            let (mut xs, mut ys) = (Vec::new(), Vec::new());
            if let Ok((r, c)) = game.build_stage(x, y, &cont, &mut stage) {
                stage.strategies(r, c);
                xs = round_strategy(&stage.best_x, &stage.m, c);
                ys = round_strategy(&stage.best_y, &neg_transpose(&stage.m, r, c), r);
            }
            for (who, units) in [("A:", xs), ("B:", ys)] {
                // ` name prob` per skill of positive probability, in the
                // variant's order.
                let mut shown: Vec<(usize, i64)> = game.order.iter().copied().zip(units).collect();
                shown.sort_unstable();
                text.push_str(who);
                for (skill, u) in shown.into_iter().filter(|e| e.1 > 0) {
                    let name = String::from_utf8_lossy(prob.variant.skills[skill].name);
                    text.push_str(&format!(" {} {}.{:06}", name, u / 1_000_000, u % 1_000_000));
                }
                text.push('\n');
            }
        }
    }
    out.write_all(text.as_bytes()).map_err(unwritable)?;
    match warning {
        Some(why) => Err(Failure::Uncertified(why)),
        None => Ok(()),
    }
}

/// A strategy of the rows' player of `m` (`cols` columns) in millionths
/// summing to 10^6: rounded down, the rest on the likeliest skill, then
/// single units move while that raises the player's guarantee.
fn round_strategy(probs: &[f64], m: &[f64], cols: usize) -> Vec<i64> {
    let mut units: Vec<i64> = probs.iter().map(|p| (p * 1e6).floor() as i64).collect();
    let top = (0..units.len()).fold(0, |b, k| if probs[k] > probs[b] { k } else { b });
    units[top] += 1_000_000 - units.iter().sum::<i64>();
    let worth = |u: &[i64]| {
        let pay = |l: usize| {
            (0..u.len())
                .map(|k| u[k] as f64 * m[k * cols + l])
                .sum::<f64>()
        };
        (0..cols).map(pay).fold(f64::INFINITY, f64::min)
    };
    let k = units.len();
    loop {
        let mut best = (worth(&units), 0, 0);
        for (from, to) in (0..k * k).map(|e| (e / k, e % k)) {
            if units[from] > 0 {
                units[from] -= 1;
                units[to] += 1;
                let g = worth(&units);
                if g > best.0 {
                    best = (g, from, to);
                }
                units[from] += 1;
                units[to] -= 1;
            }
        }
        if best.1 == best.2 {
            return units;
        }
        units[best.1] -= 1;
        units[best.2] += 1;
    }
}

/// Exactly 9 digits after the point; `-0.000000000` becomes `0.000000000`.
fn format_value(v: f64) -> String {
    format!("{:.9}", v.clamp(-1.0, 1.0)).replace("-0.000000000", "0.000000000")
}

#[cfg(test)]
#[path = "../../tests/unit/ji_solver.rs"]
mod tests;
