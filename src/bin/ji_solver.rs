//! 集 (波波攒) solver: the value of the game under optimal play.
//!
//! The game: two players, A and B, move at the same time each round. Each
//! holds a public count of 集 starting at 0. A skill changes its user's count
//! by `delta` and needs at least `req` 集. If one side's skill beats the
//! other's, that side wins and the game ends; otherwise both deltas apply and
//! play goes on. A variant is a set of skills. Counts are capped at
//! C = max req after every round (excess is lost).
//!
//! Input (whitespace-separated tokens; CRLF reads as LF):
//! - the variant: `n`, then n skills `name delta req k beaten_1 .. beaten_k`
//!   (names: distinct UTF-8 tokens of at most 32 bytes, read by position;
//!   `req >= max(0, -delta)`; "beats" irreflexive and antisymmetric);
//! - `R p`: R >= 0 the round limit (0 = none), p the draw probability in
//!   percent, digits with at most one point (`0`, `2.50`, `100.000`);
//! - `q`, then q queries `x y` with 0 <= x, y <= C.
//!
//! Output: per query one line, P(A wins) - P(B wins) under optimal play from
//! the counts (x, y), with exactly 9 digits after the point (never `-0`).
//!
//! Model: V_0 = 0 and V_k(s) = value of the stage matrix game at s, where a
//! pair of moves that ends the game pays +1 or -1 and any other pair pays
//! (1 - p/100) * V_{k-1}(next state). R > 0 asks for V_R, R = 0 for
//! lim V_k (`solve_table`); slow unlimited games are extrapolated and
//! bracketed by certified bounds (`certify`). Stage games: saddle points,
//! dominance, a 2x2 formula or a simplex, certified by the strategies
//! found (`Stage::mixed`).
//!
//! Exit codes: 0 values printed; 2 bad input or argument (one stderr line
//! `ji_solver: line L: what is wrong`, no output); 3 valid input but values
//! not certified to within 1e-6 (a slow unlimited game, a huge R cut by the
//! time budget, a stage game solved only to within 1e-9): the best values
//! are printed and one stderr line says how far off they may be; or a
//! variant too large to tabulate (no values). 1: the output cannot be
//! written.
//!
//! Complexity: per round one stage game for each of the C(C+1)/2 states
//! x < y (V(y, x) = -V(x, y), V(x, x) = 0), each O(n^2) to build plus a
//! simplex on at most n x n when mixed. Limits: n <= 64, C <= 1000, 2.5 s.

use std::io::{self, Read, Write};
use std::time::{Duration, Instant};

const BIN: &str = "ji_solver";
/// Largest C tabulated: (C+1)^2 values per table.
const MAX_CAP: i64 = 1000;
/// Largest number of skills solved (a stage game is up to n x n).
const MAX_SKILLS: usize = 64;
/// Wall-clock budget for the iteration; past it the best values are printed
/// with exit code 3 (the fuzz limit is 5 s).
const BUDGET: Duration = Duration::from_millis(2500);

fn main() {
    if let Some(arg) = std::env::args_os().nth(1) {
        if arg == "--help" || arg == "-h" {
            print!("{}", HELP);
            return;
        }
        die(
            2,
            format_args!("unknown argument `{}` (try --help)", arg.to_string_lossy()),
        );
    }
    let mut input = Vec::new();
    if let Err(e) = io::stdin().lock().read_to_end(&mut input) {
        die(2, format_args!("cannot read stdin: {}", e));
    }
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let result = solve(&input, &mut out);
    if let Err(e) = out.flush() {
        die(1, format_args!("cannot write stdout: {}", e));
    }
    match result {
        Ok(None) => {}
        Ok(Some(warning)) => die(3, warning),
        // Line 0 is the output failing, not the input.
        Err(f) => die(if f.line == 0 { 1 } else { 2 }, f),
    }
}

/// Ends the run with one stderr line and the exit code.
fn die(code: i32, msg: impl std::fmt::Display) -> ! {
    eprintln!("{}: {}", BIN, msg);
    std::process::exit(code)
}

const HELP: &str = "\
ji_solver: value of 集 (波波攒) under optimal play.
input:  n, then n skills `name delta req k beaten_1 .. beaten_k`,
        then `R p` (round limit, 0 = none; draw chance in percent),
        then q and q queries `x y` (counts of A and B, 0..=C = max req).
output: per query P(A wins) - P(B wins), 9 digits after the point.
exit:   0 ok, 2 bad input or argument, 3 not certified (best values printed).
";

/// Why the input was rejected: the 1-based line and what is wrong.
#[derive(Debug, PartialEq)]
pub struct Failure {
    line: usize,
    msg: String,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Line 0: not about the input (the output could not be written).
        match self.line {
            0 => write!(f, "{}", self.msg),
            line => write!(f, "line {}: {}", line, self.msg),
        }
    }
}

fn fail<T>(line: usize, msg: String) -> Result<T, Failure> {
    Err(Failure { line, msg })
}

/// The shared block reports through these two (line; line and column).
fn bad<T>(line: usize, what: String) -> Result<T, Failure> {
    fail(line, what)
}

fn bad_at<T>(line: usize, column: usize, what: String) -> Result<T, Failure> {
    fail(line, format!("column {}: {}", column, what))
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
    /// R: the round limit, 0 for none.
    rounds: u64,
    /// 1 - p/100: the chance that an unfinished round is not called off.
    keep: f64,
    /// C = max req: counts are capped at C after every round.
    cap: i64,
    queries: Vec<(usize, usize)>,
}

fn parse_problem(input: &[u8]) -> Result<Problem<'_>, Failure> {
    let mut lx = Lexer::new(input);
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
            let hint = if matches!(rt.text.first(), Some(c) if c.is_ascii_digit() || *c == b'-' || *c == b'+')
            {
                ""
            } else {
                " (does every skill's count k match its list?)"
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
        queries.push((pair[0], pair[1]));
    }
    if let Some(t) = lx.next() {
        return t.fail(format!(
            "unexpected token `{}` after the last of {} queries",
            show(t.text),
            q
        ));
    }
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
    /// C: the cap on counts (the largest req).
    cap: usize,
    /// delta of each skill, in req order.
    delta: Vec<i64>,
    /// usable[c] = number of skills with req <= c.
    usable: Vec<usize>,
    /// outcome[i * n + j]: +1 if skill i beats skill j, -1 if j beats i.
    outcome: Vec<i8>,
    /// 1 - p/100: factor on the value of the state an unfinished round
    /// leads to.
    keep: f64,
}

impl Game {
    fn new(v: &Variant<'_>, cap: i64, keep: f64) -> Game {
        let n = v.skills.len();
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| v.skills[i].req);
        let mut outcome = vec![0i8; n * n];
        for (a, &i) in order.iter().enumerate() {
            for (b, &j) in order.iter().enumerate() {
                if v.beats(i as u32, j as u32) {
                    outcome[a * n + b] = 1;
                } else if v.beats(j as u32, i as u32) {
                    outcome[a * n + b] = -1;
                }
            }
        }
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

    /// The value of the stage game at counts (a, b) given the values `next`
    /// of the states one round later: rows are A's skills, columns B's.
    fn stage_value(&self, a: usize, b: usize, next: &[f64], stage: &mut Stage) -> f64 {
        // "needs at least `req` 集": the usable skills, a prefix by req.
        let (rows, cols) = (self.usable[a], self.usable[b]);
        // Reading (the statement is silent; its referee says "an illegal
        // move that would have won is still ILLEGAL" and "a variant with no
        // req-0 skill gives ILLEGAL AB 1"): a player with no usable skill
        // cannot move and loses; if neither can move, a draw.
        match (rows, cols) {
            (0, 0) => return 0.0,
            (0, _) => return -1.0,
            (_, 0) => return 1.0,
            _ => {}
        }
        let w = self.width();
        stage.m.clear();
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
        stage.value(rows, cols)
    }
}

// ---------------------------------------------------------------- stage game

/// Scratch space and statistics for solving stage (matrix) games.
#[derive(Default)]
struct Stage {
    /// The matrix, row-major; the row player (A) maximises.
    m: Vec<f64>,
    /// What is left of `m` after dominance, and its negated transpose.
    red: Vec<f64>,
    neg_t: Vec<f64>,
    row_on: Vec<bool>,
    col_on: Vec<bool>,
    lp: Simplex,
    /// Largest gap between the certified bounds of any stage game.
    worst_gap: f64,
    /// Error bound of the last value: 0 when it is an entry of the matrix
    /// (saddle point, one row or column left), else a rounding margin plus
    /// the certificate's gap.
    last_error: f64,
}

/// Rounding margin of a certificate x.M_j or M_i.y: a sum of at most 64
/// products of numbers in [-1, 1] with weights summing to 1.
const ROUNDING: f64 = 1e-14;

/// Gap below which a simplex answer is accepted without a second try.
const GAP_OK: f64 = 1e-12;

impl Stage {
    /// The value of the matrix game in `self.m` (rows x cols).
    fn value(&mut self, rows: usize, cols: usize) -> f64 {
        self.last_error = 0.0;
        // Pure saddle point: max of row minima = min of column maxima.
        let m = &self.m;
        let lower = (0..rows)
            .map(|i| {
                m[i * cols..(i + 1) * cols]
                    .iter()
                    .copied()
                    .fold(f64::INFINITY, f64::min)
            })
            .fold(f64::NEG_INFINITY, f64::max);
        let upper = (0..cols)
            .map(|j| {
                (0..rows)
                    .map(|i| m[i * cols + j])
                    .fold(f64::NEG_INFINITY, f64::max)
            })
            .fold(f64::INFINITY, f64::min);
        if upper <= lower {
            return lower;
        }
        let (r, c) = self.reduce(rows, cols);
        if r == 1 {
            return self.red.iter().copied().fold(f64::INFINITY, f64::min);
        }
        if c == 1 {
            return self.red.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        }
        if r == 2 && c == 2 {
            // No dominated row or column is left, so no saddle either: both
            // players mix and the classic formula applies.
            let (p, q, s, t) = (self.red[0], self.red[1], self.red[2], self.red[3]);
            let den = p + t - q - s;
            if den.abs() > 1e-12 {
                // Certified like the simplex: x = (t - s, p - q) / den
                // guarantees lo, y = (t - q, p - s) / den at most hi.
                let (x0, y0) = ((t - s) / den, (t - q) / den);
                let lo = (x0 * p + (1.0 - x0) * s).min(x0 * q + (1.0 - x0) * t);
                let hi = (p * y0 + q * (1.0 - y0)).max(s * y0 + t * (1.0 - y0));
                if (0.0..=1.0).contains(&x0) && (0.0..=1.0).contains(&y0) && lo <= hi {
                    return self.certified(lo, hi).clamp(lower, upper);
                }
            }
        }
        self.mixed(r, c, lower, upper).clamp(lower, upper)
    }

    /// Removes weakly dominated rows and columns until none is left (this
    /// keeps the value); leaves the r x c remainder in `self.red`.
    fn reduce(&mut self, rows: usize, cols: usize) -> (usize, usize) {
        let m = &self.m;
        self.row_on.clear();
        self.row_on.resize(rows, true);
        self.col_on.clear();
        self.col_on.resize(cols, true);
        let (row_on, col_on) = (&mut self.row_on, &mut self.col_on);
        let mut changed = true;
        while changed {
            changed = false;
            for i in 0..rows {
                if !row_on[i] {
                    continue;
                }
                let dominated = (0..rows).any(|k| {
                    k != i
                        && row_on[k]
                        && (0..cols).all(|j| !col_on[j] || m[i * cols + j] <= m[k * cols + j])
                });
                if dominated {
                    row_on[i] = false;
                    changed = true;
                }
            }
            for j in 0..cols {
                if !col_on[j] {
                    continue;
                }
                let dominated = (0..cols).any(|l| {
                    l != j
                        && col_on[l]
                        && (0..rows).all(|i| !row_on[i] || m[i * cols + j] >= m[i * cols + l])
                });
                if dominated {
                    col_on[j] = false;
                    changed = true;
                }
            }
        }
        self.red.clear();
        for i in (0..rows).filter(|&i| row_on[i]) {
            for j in (0..cols).filter(|&j| col_on[j]) {
                self.red.push(m[i * cols + j]);
            }
        }
        let r = row_on.iter().filter(|&&b| b).count();
        (r, self.red.len() / r)
    }

    /// A mixed stage game (r x c in `self.red`): simplex, then certified by
    /// the strategies found. The row strategy x guarantees at least
    /// min_j x.M_j and the column strategy y at most max_i M_i.y, so the
    /// value lies between; a wide gap triggers the transposed problem and
    /// Bland's rule, and the tightest bounds win. `lower` and `upper` (the
    /// pure-strategy bounds) stand in for a bound no attempt found.
    fn mixed(&mut self, r: usize, c: usize, lower: f64, upper: f64) -> f64 {
        let mut lo = f64::NEG_INFINITY;
        let mut hi = f64::INFINITY;
        for attempt in 0..4 {
            let transposed = attempt % 2 == 1;
            let bland = attempt >= 2;
            let ok = if transposed {
                // The column player's game: -M^T, rows and roles swapped.
                let red = &self.red;
                self.neg_t.clear();
                self.neg_t
                    .extend((0..c).flat_map(|j| (0..r).map(move |i| -red[i * c + j])));
                self.lp.solve(&self.neg_t, c, r, bland)
            } else {
                self.lp.solve(&self.red, r, c, bland)
            };
            if ok {
                // Row strategy of the original game and column strategy.
                let (xs, ys) = if transposed {
                    (&self.lp.y, &self.lp.x)
                } else {
                    (&self.lp.x, &self.lp.y)
                };
                let m = &self.red;
                let mut low = f64::INFINITY;
                for j in 0..c {
                    low = low.min((0..r).map(|i| xs[i] * m[i * c + j]).sum::<f64>());
                }
                let mut high = f64::NEG_INFINITY;
                for i in 0..r {
                    high = high.max((0..c).map(|j| m[i * c + j] * ys[j]).sum::<f64>());
                }
                lo = lo.max(low);
                hi = hi.min(high);
            }
            if hi - lo <= GAP_OK {
                break;
            }
        }
        if !lo.is_finite() {
            lo = lower;
        }
        if !hi.is_finite() {
            hi = upper;
        }
        if hi < lo {
            // Crossed bounds are rounding noise.
            self.last_error = ROUNDING;
            return 0.5 * (lo + hi);
        }
        self.certified(lo, hi)
    }

    /// The midpoint of certified bounds [lo, hi] on the value, recorded
    /// with its error bound.
    fn certified(&mut self, lo: f64, hi: f64) -> f64 {
        self.worst_gap = self.worst_gap.max(hi - lo);
        self.last_error = ROUNDING + (hi - lo);
        0.5 * (lo + hi)
    }
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
    /// Solves the matrix game `a` (r x c, the row player maximises): with
    /// B = a + shift > 0, maximise sum(y) subject to B y <= 1, y >= 0. On
    /// success `y` holds the column strategy and `x` (from the reduced
    /// costs of the slacks, the dual) the row strategy, both normalised.
    /// Pivots below a tolerance are refused (a tiny pivot can be off by far
    /// more than rounding); `bland` picks the smallest index (no cycling)
    /// instead of the steepest reduced cost.
    fn solve(&mut self, a: &[f64], r: usize, c: usize, bland: bool) -> bool {
        const COST_EPS: f64 = 1e-11;
        const PIVOT_EPS: f64 = 1e-9;
        let Simplex { tab, basis, x, y } = self;
        let lowest = a.iter().copied().fold(f64::INFINITY, f64::min);
        let shift = 1.0 - lowest;
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
        let limit = 50 * (r + c) + 100;
        let mut optimal = false;
        for _ in 0..limit {
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
                optimal = true;
                break;
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
            let p = tab[leave * w + enter];
            for v in &mut tab[leave * w..(leave + 1) * w] {
                *v /= p;
            }
            tab[leave * w + enter] = 1.0;
            for k in 0..=r {
                if k == leave {
                    continue;
                }
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
        if !optimal {
            return false;
        }
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
        if !(sx > 0.0 && sy > 0.0) {
            return false;
        }
        x.iter_mut().for_each(|v| *v /= sx);
        y.iter_mut().for_each(|v| *v /= sy);
        true
    }
}

// ---------------------------------------------------------------- iteration

impl Game {
    /// One round of value iteration: `new` = T(`old`) on every state a < b,
    /// mirrored to b > a; V(a, a) = 0 (the stage game there is symmetric).
    /// Returns the largest change and the largest error bound of a stage
    /// value, or `None` if the deadline passed.
    fn sweep(
        &self,
        old: &[f64],
        new: &mut [f64],
        stage: &mut Stage,
        deadline: Instant,
    ) -> Option<(f64, f64)> {
        let w = self.width();
        let mut change: f64 = 0.0;
        // With keep < 1 every entry keep * V is rounded too.
        let mut error: f64 = if self.keep < 1.0 { 2.3e-16 } else { 0.0 };
        // Look at the clock every few stage games (every one when they are
        // large): a sweep of a big table can outlast the budget.
        let every = if self.n > 16 { 1 } else { 64 };
        if Instant::now() > deadline {
            return None;
        }
        let mut count = 0usize;
        for a in 0..w {
            new[a * w + a] = 0.0;
            for b in a + 1..w {
                count += 1;
                if count % every == 0 && Instant::now() > deadline {
                    return None;
                }
                let v = self.stage_value(a, b, old, stage);
                change = change.max((v - old[a * w + b]).abs());
                error = error.max(stage.last_error);
                new[a * w + b] = v;
                new[b * w + a] = -v;
            }
        }
        Some((change, error))
    }
}

/// Changes below this count as converged for the unlimited game.
const STILL: f64 = 1e-13;

/// Computes the table of values; returns it with a warning if it is not
/// certified.
fn solve_table(game: &Game, rounds: u64, start: Instant) -> (Vec<f64>, Option<String>) {
    let w = game.width();
    // Unlimited play keeps a fifth of the budget for `certify`.
    let deadline = start + if rounds == 0 { BUDGET * 4 / 5 } else { BUDGET };
    let mut stage = Stage::default();
    let mut old = vec![0.0; w * w];
    let mut new = vec![0.0; w * w];
    let keep = game.keep;
    // What all later rounds can add, per unit of the last change:
    // keep + keep^2 + ... (T is a keep-contraction in the sup norm).
    let tail = if keep < 1.0 {
        keep / (1.0 - keep)
    } else {
        f64::INFINITY
    };
    let mut done: u64 = 0;
    let mut last = f64::INFINITY;
    // Unlimited play: the last tables at rounds 2^j, to extrapolate from.
    let mut snaps: Vec<(u64, Vec<f64>)> = Vec::new();
    // The largest change of rounds 1, 2, 4, 8, ...
    let mut changes: Vec<f64> = Vec::new();
    // How far the table may be from the exact V_k: T is nonexpansive, so
    // the stage games' error bounds add up at most.
    let mut drift = 0.0;
    let warning = loop {
        if rounds > 0 && done == rounds {
            break None;
        }
        let change = match game.sweep(&old, &mut new, &mut stage, deadline) {
            Some((c, e)) => {
                drift += e;
                c
            }
            None if rounds > 0 => {
                break Some(format!(
                    "stopped after {} of {} rounds (time budget); the values still moved by {:.1e} in the last round",
                    done, rounds, last
                ));
            }
            None => {
                let reached = old.clone();
                let note = extrapolate(&mut old, &snaps, done, last);
                match certify(game, &reached, drift, &mut old, &mut stage, start + BUDGET) {
                    Some(width) if width <= CERTIFIED => break None,
                    Some(width) => {
                        break Some(format!("{}; certified bounds {:.1e} wide", note, width))
                    }
                    None => break Some(note),
                }
            }
        };
        std::mem::swap(&mut old, &mut new);
        done += 1;
        last = change;
        if rounds == 0 && done >= 64 && done.is_power_of_two() {
            if snaps.len() == 4 {
                snaps.remove(0);
            }
            snaps.push((done, old.clone()));
            // Slow so far: try to certify the extrapolated limit now (at
            // most 64 sweeps' cost per doubling) rather than at the budget.
            if done >= 1 << 14 {
                let mut est = old.clone();
                extrapolate(&mut est, &snaps, done, last);
                if let Some(width) = certify(game, &old, drift, &mut est, &mut stage, deadline) {
                    if width <= CERTIFIED {
                        old = est;
                        break None;
                    }
                }
            }
        }
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
        // No such bound (p = 0 and R = 0 or huge; a modest R is played
        // out): "iterate until the largest change is below 1e-13", and only
        // if the changes shrink geometrically, at a rate rho measured over
        // the second half of the rounds (a short window is swamped by
        // rounding near 1e-13), so that the rest, change * rho / (1 - rho),
        // is small too. Values like 1/k have changes like 1/k^2: a change
        // of 1e-13 still leaves ~1e-7; they go on to `extrapolate`.
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
    let worst = stage.worst_gap;
    let warning = warning.or_else(|| {
        (worst > 1e-9).then(|| format!("a stage game was solved only to within {:.1e}", worst))
    });
    (old, warning)
}

/// The unlimited game did not converge in time (some 无限集 variants
/// approach their limit only like 1/k: a player wins with probability
/// 1 - eps by mixing in a rare move). Replaces `table` by the limit
/// extrapolated from the tables at rounds k, 2k, 4k (a power law
/// V_k = v + c k^-a makes the differences over doubled horizons geometric:
/// their sum is added) and returns the warning: how far the values still
/// moved, and the spread of two successive extrapolations as an estimate of
/// the error. Not a certificate: `certify` may bound it.
fn extrapolate(table: &mut [f64], snaps: &[(u64, Vec<f64>)], done: u64, last: f64) -> String {
    let head = format!(
        "not converged after {} rounds (time budget): the values still moved by {:.1e} per round",
        done, last
    );
    let limit = |s: &[(u64, Vec<f64>)]| -> Vec<f64> {
        let (a, b, c) = (&s[0].1, &s[1].1, &s[2].1);
        (0..c.len())
            .map(|i| {
                let (d1, d2) = (b[i] - a[i], c[i] - b[i]);
                if d1 == 0.0 || d2 == 0.0 || d1 * d2 < 0.0 || d2.abs() >= d1.abs() {
                    return c[i];
                }
                let r = d2 / d1;
                (c[i] + d2 * r / (1.0 - r)).clamp(-1.0, 1.0)
            })
            .collect()
    };
    if snaps.len() < 3 {
        return format!("{}; printed the last values", head);
    }
    let k = snaps.len();
    let best = limit(&snaps[k - 3..]);
    let spread = if k >= 4 {
        let prev = limit(&snaps[k - 4..k - 1]);
        best.iter()
            .zip(&prev)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max)
    } else {
        f64::INFINITY
    };
    let moved = best
        .iter()
        .zip(table.iter())
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    table.copy_from_slice(&best);
    format!(
        "{}; printed the limit extrapolated from rounds {}, {}, {} (it differs from round {} by up to {:.1e}; estimated error {:.1e})",
        head,
        snaps[k - 3].0,
        snaps[k - 2].0,
        snaps[k - 1].0,
        done,
        moved,
        spread
    )
}

/// How far below the estimate `certify` starts, so that T(u) >= u can hold
/// despite the stage values' rounding margins.
const SLACK: f64 = 1e-8;

/// First extra step when `certify` lowers a state again.
const STEP: f64 = 1e-10;

/// Width of certified bounds accepted as an answer (the judge's tolerance).
const CERTIFIED: f64 = 1e-6;

/// Certified bounds on lim V_k from the table `reached` of some round K
/// (within `drift` of the exact V_K) and an estimate `est` of the limit.
/// T is monotone, so u <= V_K and T(u) >= u give, by induction,
/// V_k = T^(k-K)(V_K) >= T^(k-K)(u) >= u for every k >= K; and as A and B
/// are alike (V_k(b, a) = -V_k(a, b) exactly), w(a, b) = -u(b, a) >= V_k.
/// So every V_k with k >= K lies in [u, w], and so does the limit (or, if
/// it did not exist, every limit point). u starts at
/// min(V_K, est) - SLACK - drift and is lowered to min(u, T(u)), with T(u)
/// taken at its certified lower bound, until T(u) >= u. On success `est`
/// is clamped into [u, w] and the largest width w - u is returned; `None`
/// if no such u was found in time.
fn certify(
    game: &Game,
    reached: &[f64],
    drift: f64,
    est: &mut [f64],
    stage: &mut Stage,
    deadline: Instant,
) -> Option<f64> {
    let w = game.width();
    let mut u: Vec<f64> = reached
        .iter()
        .zip(est.iter())
        .map(|(&v, &e)| (v.min(e) - SLACK - drift).max(-1.0))
        .collect();
    // With keep < 1 the matrix entries keep * u are rounded as well.
    let entry_error = if game.keep < 1.0 { 1e-15 } else { 0.0 };
    let mut next = vec![0.0; w * w];
    // How often each state was lowered: the step grows with it.
    let mut hits = vec![0i32; w * w];
    for _ in 0..64 {
        let mut holds = true;
        for a in 0..w {
            if Instant::now() > deadline {
                return None;
            }
            for b in 0..w {
                // Every state: u is not antisymmetric.
                let v = game.stage_value(a, b, &u, stage);
                let t = v - stage.last_error - entry_error;
                let s = a * w + b;
                if t < u[s] && u[s] > -1.0 {
                    holds = false;
                }
                next[s] = t.max(-1.0);
            }
        }
        if stage.worst_gap > 1e-10 {
            return None;
        }
        if holds {
            let mut width: f64 = 0.0;
            for a in 0..w {
                for b in 0..w {
                    let (lo, hi) = (u[a * w + b], -u[b * w + a]);
                    width = width.max(hi - lo);
                    est[a * w + b] = est[a * w + b].max(lo).min(hi);
                }
            }
            return Some(width);
        }
        // Lower the states where T(u) < u, by a step that doubles each
        // time the same state is hit: a state that only leads back to
        // itself never gains the rounding margin (it ends at -1, a bound
        // that always holds).
        for ((x, &t), h) in u.iter_mut().zip(&next).zip(hits.iter_mut()) {
            if t < *x {
                *x = (t - STEP * (f64::powi(2.0, *h) - 1.0)).max(-1.0);
                *h += 1;
            }
        }
    }
    None
}

// ---------------------------------------------------------------- output

/// Reads the problem, solves it and prints one value per query. `Ok(Some)`
/// carries the warning of an uncertified answer (exit code 3).
pub fn solve<W: Write>(input: &[u8], out: &mut W) -> Result<Option<String>, Failure> {
    let start = Instant::now();
    let prob = parse_problem(input)?;
    let n = prob.variant.skills.len();
    if prob.cap > MAX_CAP || n > MAX_SKILLS {
        return Ok(Some(format!(
            "the variant is too large to solve here (n = {}, C = {}; limits n <= {}, C <= {})",
            n, prob.cap, MAX_SKILLS, MAX_CAP
        )));
    }
    let game = Game::new(&prob.variant, prob.cap, prob.keep);
    let (table, warning) = solve_table(&game, prob.rounds, start);
    let w = game.width();
    let mut text = String::new();
    for &(x, y) in &prob.queries {
        text.push_str(&format_value(table[x * w + y]));
        text.push('\n');
    }
    out.write_all(text.as_bytes()).map_err(|e| Failure {
        line: 0,
        msg: format!("cannot write the values: {}", e),
    })?;
    Ok(warning)
}

/// Exactly 9 digits after the point; `-0.000000000` becomes `0.000000000`.
fn format_value(v: f64) -> String {
    let s = format!("{:.9}", v.clamp(-1.0, 1.0));
    if s == "-0.000000000" {
        "0.000000000".to_string()
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const COMMON: &str = "8
集 1 0 0
小防 0 0 0
中防 0 0 0
大防 -1 1 0
小波 -1 1 2 集 中防
中波 -2 2 3 集 小波 小防
大波 -3 3 5 集 小波 小防 中波 中防
黑洞 -5 5 7 集 小波 小防 中波 中防 大波 大防
";

    fn run(input: &str) -> Result<(String, Option<String>), Failure> {
        let mut out = Vec::new();
        let warning = solve(input.as_bytes(), &mut out)?;
        Ok((String::from_utf8(out).unwrap(), warning))
    }

    fn values(input: &str) -> Vec<f64> {
        let (out, warning) = run(input).unwrap();
        assert_eq!(warning, None);
        out.lines().map(|l| l.parse().unwrap()).collect()
    }

    fn err(input: &str) -> String {
        run(input).unwrap_err().to_string()
    }

    fn all_states(c: usize) -> String {
        let mut s = format!("{}\n", (c + 1) * (c + 1));
        for a in 0..=c {
            for b in 0..=c {
                s.push_str(&format!("{} {}\n", a, b));
            }
        }
        s
    }

    fn game_of(text: &str, keep: f64) -> Game {
        let v = parse_variant(&mut Lexer::new(text.as_bytes())).unwrap();
        let cap = v.skills.iter().map(|s| s.req).max().unwrap();
        Game::new(&v, cap, keep)
    }

    fn game_value(m: &[f64], rows: usize, cols: usize) -> f64 {
        let mut st = Stage {
            m: m.to_vec(),
            ..Stage::default()
        };
        st.value(rows, cols)
    }

    #[test]
    fn rock_paper_scissors_is_fair() {
        let rps = [0.0, -1.0, 1.0, 1.0, 0.0, -1.0, -1.0, 1.0, 0.0];
        assert!(game_value(&rps, 3, 3).abs() < 1e-12);
        // Skew-symmetric with unequal stakes: still value 0.
        let weighted = [0.0, -1.0, 2.0, 1.0, 0.0, -1.0, -2.0, 1.0, 0.0];
        assert!(game_value(&weighted, 3, 3).abs() < 1e-12);
    }

    #[test]
    fn diagonal_games_have_harmonic_values() {
        // diag(d_1..d_k) with d_i > 0 has value 1 / sum(1/d_i).
        let d3 = [1.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 3.0];
        assert!((game_value(&d3, 3, 3) - 6.0 / 11.0).abs() < 1e-12);
        let mut d4 = vec![0.0; 16];
        for (i, d) in [1.0, 2.0, 4.0, 8.0].iter().enumerate() {
            d4[i * 4 + i] = *d;
        }
        assert!((game_value(&d4, 4, 4) - 8.0 / 15.0).abs() < 1e-12);
    }

    #[test]
    fn simplex_returns_optimal_strategies() {
        let d3 = [1.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 3.0];
        let mut lp = Simplex::default();
        for bland in [false, true] {
            assert!(lp.solve(&d3, 3, 3, bland));
            // Both players play i with probability proportional to 1/d_i.
            for (i, want) in [6.0 / 11.0, 3.0 / 11.0, 2.0 / 11.0].iter().enumerate() {
                assert!((lp.x[i] - want).abs() < 1e-12 && (lp.y[i] - want).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn small_games_saddle_dominance_and_2x2() {
        // Pure saddle at (row 1, col 0): value 2.
        assert_eq!(game_value(&[1.0, 5.0, 2.0, 3.0], 2, 2), 2.0);
        // 2x2 mixed: (3*1 - (-1)(-2)) / (3 + 1 + 1 + 2) = 1/7.
        assert!((game_value(&[3.0, -1.0, -2.0, 1.0], 2, 2) - 1.0 / 7.0).abs() < 1e-15);
        // Matching pennies plus a dominated third row.
        let m = [1.0, -1.0, -1.0, 1.0, -2.0, -2.0];
        assert!(game_value(&m, 3, 2).abs() < 1e-15);
        // Degenerate: all equal.
        assert_eq!(game_value(&[0.5; 9], 3, 3), 0.5);
    }

    #[test]
    fn common_variant_two_rounds() {
        let v = values(&format!("{}2 0\n4\n1 0\n2 0\n2 1\n4 3\n", COMMON));
        let want = [1.0 / 3.0, 2.0 / 3.0, 2.0 / 7.0, 1.0 / 5.0];
        for (a, b) in v.iter().zip(want) {
            assert!((a - b).abs() < 1e-9, "{} vs {}", a, b);
        }
    }

    #[test]
    fn common_variant_unlimited_value() {
        let v = values(&format!("{}0 0\n2\n1 0\n0 1\n", COMMON));
        assert!((v[0] - 0.633334348).abs() < 1e-9);
        assert_eq!(v[0], -v[1]);
    }

    #[test]
    fn full_tables_are_antisymmetric_without_mirroring() {
        // Solve every state (not only x < y) and check V(a, a) = 0 and
        // V(b, a) = -V(a, b): the mirroring in `sweep` is then sound.
        for (text, keep) in [(COMMON, 1.0), (COMMON, 0.99), (TOY, 1.0), (TOY, 0.5)] {
            let game = game_of(text, keep);
            let w = game.width();
            let mut old = vec![0.0; w * w];
            let mut stage = Stage::default();
            for _ in 0..30 {
                let mut new = vec![0.0; w * w];
                for a in 0..w {
                    for b in 0..w {
                        new[a * w + b] = game.stage_value(a, b, &old, &mut stage);
                    }
                }
                old = new;
                for a in 0..w {
                    assert!(old[a * w + a].abs() < 1e-12);
                    for b in 0..w {
                        assert!((old[a * w + b] + old[b * w + a]).abs() < 1e-12);
                    }
                }
            }
        }
    }

    const TOY: &str = "4
集 1 0 0
小防 0 0 0
无限波 0 1 1 集
黑洞 -3 3 3 集 小防 无限波
";

    #[test]
    fn p100_equals_one_round() {
        let q = all_states(5);
        let a = values(&format!("{}1 0\n{}", COMMON, q));
        let b = values(&format!("{}0 100\n{}", COMMON, q));
        let c = values(&format!("{}7 100.000\n{}", COMMON, q));
        assert_eq!(a, b);
        assert_eq!(a, c);
    }

    #[test]
    fn cap_loses_excess() {
        let v = "3\n大集 3 0 0\n防 -1 1 0\n波 -2 2 1 大集\n5 0\n2\n2 0\n0 2\n";
        assert_eq!(values(v), vec![1.0, -1.0]);
    }

    #[test]
    fn no_usable_skill_loses() {
        // Only skill needs 1: at (1, 0) B cannot move; at (0, 0) neither.
        let v = "2\nx -1 1 0\ny 0 1 0\n3 0\n3\n1 0\n0 0\n0 1\n";
        assert_eq!(values(v), vec![1.0, 0.0, -1.0]);
    }

    #[test]
    fn output_has_nine_digits_and_no_negative_zero() {
        assert_eq!(format_value(-1e-12), "0.000000000");
        assert_eq!(format_value(-0.0), "0.000000000");
        assert_eq!(format_value(2.0 / 3.0), "0.666666667");
        assert_eq!(format_value(-1.0), "-1.000000000");
    }

    #[test]
    fn slow_unlimited_game_is_extrapolated_and_bounded() {
        // V_k(1, 0) = 1 - c/k: A wins by mixing in a rare 集. The printed
        // limit is 1 whether or not the bounds got narrow enough in time
        // for exit code 0.
        let (out, warning) = run(&format!("{}0 0\n2\n1 0\n0 1\n", TOY)).unwrap();
        let v: Vec<f64> = out.lines().map(|l| l.parse().unwrap()).collect();
        assert!((v[0] - 1.0).abs() < 1e-6 && v[1] == -v[0], "{:?}", v);
        if let Some(w) = warning {
            assert!(w.contains("not converged"), "{}", w);
        }
    }

    #[test]
    fn slower_unlimited_game_reports_exit_3() {
        let v = "8\n集 1 0 0\n小防 0 0 0\n中防 0 0 0\n无限波 0 1 1 集\n小波 -1 2 2 集 中防\n\
                 中波 -2 4 3 集 小波 小防\n大波 -3 7 4 集 小波 小防 中波\n\
                 黑洞 -5 10 7 集 小波 小防 中波 中防 大波 无限波\n0 0\n1\n0 1\n";
        let (out, warning) = run(v).unwrap();
        assert!(out.trim().parse::<f64>().unwrap() < -0.9999);
        let w = warning.unwrap();
        assert!(
            w.contains("not converged") && w.contains("extrapolated"),
            "{}",
            w
        );
    }

    #[test]
    fn certify_brackets_the_common_value() {
        let game = game_of(COMMON, 1.0);
        let w = game.width();
        let (mut old, mut new) = (vec![0.0; w * w], vec![0.0; w * w]);
        let mut stage = Stage::default();
        let far = Instant::now() + Duration::from_secs(60);
        for _ in 0..60 {
            game.sweep(&old, &mut new, &mut stage, far).unwrap();
            std::mem::swap(&mut old, &mut new);
        }
        let mut est = old.clone();
        let width = certify(&game, &old, 1e-12, &mut est, &mut stage, far).unwrap();
        assert!(width < 1e-7, "{}", width);
        assert!((est[w] - 0.633334348).abs() < 1e-9);
    }

    #[test]
    fn parses_percent_forms() {
        assert_eq!(parse_percent(b"0.0"), Some(0.0));
        assert_eq!(parse_percent(b"2.50"), Some(2.5));
        assert_eq!(parse_percent(b"100.000"), Some(100.0));
        assert_eq!(parse_percent(b"1e2"), None);
        assert_eq!(parse_percent(b"-1"), None);
        assert_eq!(parse_percent(b"1.2.3"), None);
        assert_eq!(parse_percent(b"."), None);
    }

    #[test]
    fn rejects_bad_input() {
        let q = "1\n0 0\n";
        let c = COMMON;
        for (input, want) in [
            (String::new(), "line 1: unexpected end of input: expected the number of skills n"),
            (
                format!("2\na 0 0 1 b\nb 0 0 1 a\n1 0\n{}", q),
                "line 3: skills `b` and `a` beat each other (the relation must be antisymmetric)",
            ),
            (
                format!("1\na -3 2 0\n1 0\n{}", q),
                "line 2: skill `a`: req 2 is below its cost (req must be at least max(0, -delta) = 3)",
            ),
            (
                format!("1\na 0 0 1 a\n1 0\n{}", q),
                "line 2: skill `a`: beats 1 skills but only 0 others exist",
            ),
            (
                format!("{}1 100.5\n{}", c, q),
                "line 10: draw probability p = 100.5 is out of range (0..=100)",
            ),
            (
                format!("{}1 -1\n{}", c, q),
                "line 10: draw probability p `-1` is not a decimal number of percent",
            ),
            (
                format!("{}-1 0\n{}", c, q),
                "line 10: expected the round limit R (an integer >= 0), found `-1`",
            ),
            (format!("{}1 0\n1\n6 0\n", c), "line 12: query 1: x = 6 is out of range (0..=5)"),
            (
                format!("{}1 0\n2\n1 1\n", c),
                "line 12: unexpected end of input: expected x of query 2 of 2",
            ),
            (
                format!("{}1 0\n1\n1 1 1\n", c),
                "line 12: unexpected token `1` after the last of 1 queries",
            ),
        ] {
            assert_eq!(err(&input), want);
        }
    }
}
