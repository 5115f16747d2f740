//! 集 (波波攒) solver: the value of the game under optimal play.
//!
//! The game: two players, A and B, move at the same time each round. Each
//! holds a public count of 集 starting at 0. A skill changes its user's count
//! by `delta` and needs at least `req` 集. If one side's skill beats the
//! other's, that side wins and the game ends; otherwise both deltas apply and
//! play goes on. A variant is a set of skills. Counts are capped at
//! C = max req after every round (excess is lost).
//!
//! Input (tokens separated by any whitespace, read in order as `cin` would;
//! whatever follows the last query is ignored; `--strict` checks the
//! statement's layout, see HELP):
//! - the variant: `n`, then n skills `name delta req k beaten_1 .. beaten_k`
//!   (names: distinct UTF-8 tokens of at most 32 bytes, read by position;
//!   `req >= max(0, -delta)`; "beats" irreflexive and antisymmetric);
//! - `R p`: R >= 0 the round limit (0 = none), p the draw probability in
//!   percent, digits with at most one point (`0`, `2.50`, `100.000`);
//! - `q`, then q queries `x y` with 0 <= x, y <= C.
//!
//! Output: per query one line, P(A wins) - P(B wins) under optimal play from
//! the counts (x, y), with exactly 9 digits after the point (never `-0`);
//! with `--strategy` two more lines, the optimal mixed strategies.
//!
//! Model: V_0 = 0 and V_k(s) = value of the stage matrix game at s, where a
//! pair of moves that ends the game pays +1 or -1 and any other pair pays
//! (1 - p/100) * V_{k-1}(next state). R > 0 asks for V_R, R = 0 for
//! lim V_k (`solve_table`); slow unlimited games are bracketed by the exact
//! guarantees of stationary strategies (`certify`). Stage games: saddle
//! points, dominance, a 2x2 formula or a simplex, certified by the
//! strategies found (`Stage::mixed`). No clock: every budget counts work,
//! so one input gives the same bytes and exit code on every machine.
//!
//! Exit codes (`Failure::exit_code`): 0 values printed; 2 bad input or
//! argument (one stderr line `ji_solver: line L: what is wrong`, no
//! output); 3 valid input but values not certified to within 1e-6 (the
//! best values are printed and one stderr line says how far off they may
//! be), or a variant too large to tabulate (no values); 1 the input cannot
//! be read or the output cannot be written.
//!
//! Complexity: per round one stage game for each of the C(C+1)/2 states
//! x < y (V(y, x) = -V(x, y), V(x, x) = 0), each O(n^2) to build plus a
//! simplex on at most n x n when mixed. Limits: n <= 64, C <= 1000, and a
//! fixed budget of work (`WORK`).

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};
use std::io::{self, Read, Write};
use std::time::{Duration, Instant};
/// Wall-clock budget (to be replaced).
const BUDGET: Duration = Duration::from_millis(2500);

const BIN: &str = "ji_solver";
/// Longest skill name in bytes (the format's limit).
const MAX_NAME_BYTES: usize = 32;
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
            Some("--help") | Some("-h") => {
                return io::stdout()
                    .write_all(HELP.as_bytes())
                    .map_err(|e| Failure::Io(format!("cannot write the output: {}", e)));
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
        .lock()
        .read_to_end(&mut input)
        .map_err(|e| Failure::Io(format!("cannot read the input: {}", e)))?;
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    // The values are printed even when they are not certified (exit 3).
    let result = solve(&input, &opts, &mut out);
    out.flush()
        .map_err(|e| Failure::Io(format!("cannot write the output: {}", e)))?;
    result
}

/// The command-line options.
#[derive(Default)]
pub struct Options {
    /// `--strict`: check the statement's exact layout too.
    strict: bool,
    /// `--strategy`: print the optimal strategies after each value.
    strategy: bool,
}

const HELP: &str = "\
ji_solver: value of 集 (波波攒) under optimal play.
input:  n, then n skills `name delta req k beaten_1 .. beaten_k`,
        then `R p` (round limit, 0 = none; draw chance in percent),
        then q and q queries `x y` (counts of A and B, 0..=C = max req).
        Tokens are read in order, separated by any whitespace; whatever
        follows the last query is ignored.
output: per query P(A wins) - P(B wins), 9 digits after the point.
options:
  --strategy  after each value two lines `A: name prob ...` and
              `B: name prob ...`: optimal mixed strategies of the query's
              first round (6 decimals; skills of probability 0 left out).
  --strict    also check the statement's layout; the first deviation is
              bad input `line L column C: ...` (C counts bytes):
              n alone on line 1, then one skill per line, `R p` on one
              line, q on one line, one query `x y` per line; tokens
              separated by one space; no space at the start or end of a
              line; no blank line; nothing after the last query; every
              line ends with a newline (CRLF counts as one).
exit:   0 ok, 1 input unreadable or output unwritable, 2 bad input or
        argument, 3 valid but not certified (best values printed).
";

/// Why a run did not end with exit code 0.
#[derive(Debug, PartialEq)]
pub enum Failure {
    /// An unknown command-line argument (exit code 2).
    BadArgument(String),
    /// Bad input: the 1-based line and what is wrong (exit code 2).
    BadInput(usize, String),
    /// Input off the statement's layout under `--strict`: 1-based line,
    /// 1-based byte column and what is wrong (exit code 2).
    BadLayout(usize, usize, String),
    /// Valid input whose values are not certified to within 1e-6, or too
    /// large to tabulate (exit code 3); the best values were printed.
    Uncertified(String),
    /// The input cannot be read or the output cannot be written (exit 1).
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
                write!(f, "{}", what)
            }
        }
    }
}

fn bad<T>(line: usize, what: String) -> Result<T, Failure> {
    Err(Failure::BadInput(line, what))
}

/// The variant block's former name for `bad` (to go once the shared block
/// calls `bad`).
fn fail<T>(line: usize, what: String) -> Result<T, Failure> {
    bad(line, what)
}

// ---------------------------------------------------------------- tokens

/// One whitespace-free token: a slice of the input and its line.
#[derive(Clone, Copy)]
struct Token<'a> {
    text: &'a [u8],
    line: usize,
}

impl Token<'_> {
    /// Rejects the input at this token's line.
    fn fail<T>(&self, msg: String) -> Result<T, Failure> {
        fail(self.line, msg)
    }
}

/// Splits the input on ASCII whitespace (CR is whitespace, so CRLF reads as
/// LF) without allocating per token.
struct Lexer<'a> {
    buf: &'a [u8],
    pos: usize,
    line: usize,
    /// Line of the last token read: where an unexpected end is reported.
    last: usize,
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

impl<'a> Lexer<'a> {
    fn new(buf: &'a [u8]) -> Self {
        Lexer {
            buf,
            pos: 0,
            line: 1,
            last: 1,
        }
    }

    fn next(&mut self) -> Option<Token<'a>> {
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

    /// The next token, or a failure naming what was expected.
    /// `what` is only built on failure: no allocation per token.
    fn expect<F: FnOnce() -> String>(&mut self, what: F) -> Result<Token<'a>, Failure> {
        match self.next() {
            Some(t) => Ok(t),
            None => fail(
                self.last,
                format!("unexpected end of input: expected {}", what()),
            ),
        }
    }
}

/// A token as printable one-line text: invalid UTF-8 and control
/// characters are escaped, long tokens are cut.
fn show(text: &[u8]) -> String {
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

/// A decimal integer with an optional sign; `None` if malformed or beyond
/// 64 bits.
fn parse_i64(text: &[u8]) -> Option<i64> {
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
        v = v * 10 + i128::from(d - b'0');
        if v > i128::from(i64::MAX) + 1 {
            return None;
        }
    }
    let v = if neg { -v } else { v };
    i64::try_from(v).ok()
}

/// A non-negative integer written with digits only.
fn parse_u64(text: &[u8]) -> Option<u64> {
    if text.is_empty() || !text.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let mut v: u64 = 0;
    for &d in text {
        v = v.checked_mul(10)?.checked_add(u64::from(d - b'0'))?;
    }
    Some(v)
}

// ---------------------------------------------------------------- variant

/// A small fast hasher for the name table (names are short byte strings).
#[derive(Default)]
struct FxHasher(u64);

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

type FxBuild = BuildHasherDefault<FxHasher>;

/// One skill (技能): its name, its change of the user's 集, the least 集
/// it needs.
struct Skill<'a> {
    name: &'a [u8],
    delta: i64,
    req: i64,
}

/// A variant (变体): the skills and the "beats" relation.
struct Variant<'a> {
    skills: Vec<Skill<'a>>,
    /// Pairs (winner, loser), packed as `winner << 32 | loser`.
    beats: HashSet<u64, FxBuild>,
}

fn pair(winner: u32, loser: u32) -> u64 {
    (u64::from(winner) << 32) | u64::from(loser)
}

impl<'a> Variant<'a> {
    fn beats(&self, x: u32, y: u32) -> bool {
        self.beats.contains(&pair(x, y))
    }
}

/// Checks a skill name token: length, UTF-8, no Unicode whitespace.
fn check_name(t: &Token<'_>) -> Result<(), Failure> {
    if t.text.len() > MAX_NAME_BYTES {
        return t.fail(format!(
            "skill name `{}` is {} bytes long (at most {})",
            show(t.text),
            t.text.len(),
            MAX_NAME_BYTES
        ));
    }
    match std::str::from_utf8(t.text) {
        Err(_) => t.fail(format!("skill name `{}` is not valid UTF-8", show(t.text))),
        Ok(s) if s.chars().any(char::is_whitespace) => {
            t.fail(format!("skill name `{}` contains whitespace", show(t.text)))
        }
        Ok(_) => Ok(()),
    }
}

/// Reads `n` and the n skills, and checks every rule of the format.
fn parse_variant<'a>(lx: &mut Lexer<'a>) -> Result<Variant<'a>, Failure> {
    let t = lx.expect(|| "the number of skills n".to_string())?;
    let n = match parse_u64(t.text) {
        Some(n) if n >= 1 => n,
        Some(_) => return t.fail("n must be at least 1".to_string()),
        None => {
            return t.fail(format!(
                "expected the number of skills n, found `{}`",
                show(t.text)
            ))
        }
    };
    let mut skills: Vec<Skill<'a>> = Vec::new();
    let mut index: HashMap<&'a [u8], u32, FxBuild> = HashMap::default();
    // Beaten lists as tokens, resolved once every name is known (a skill
    // may beat one defined after it).
    let mut lists: Vec<(u32, Token<'a>)> = Vec::new();
    let mut lines: Vec<usize> = Vec::new();
    for s in 0..n {
        let what = || format!("skill {} of {}", s + 1, n);
        let name = lx.expect(|| format!("the name of {}", what()))?;
        check_name(&name)?;
        let int = |t: Token, field: &str, hint: &str| match parse_i64(t.text) {
            Some(v) => Ok(v),
            None => t.fail(format!(
                "skill `{}`: {} `{}` is not a 64-bit integer{}",
                show(name.text),
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
                show(name.text),
                req,
                least
            ));
        }
        let kt = lx.expect(|| format!("the beaten count k of {}", what()))?;
        let k = match parse_u64(kt.text) {
            Some(k) if k < n => k,
            Some(k) => {
                return kt.fail(format!(
                    "skill `{}`: beats {} skills but only {} others exist",
                    show(name.text),
                    k,
                    n - 1
                ))
            }
            None => {
                return kt.fail(format!(
                    "skill `{}`: beaten count k `{}` is not a non-negative integer",
                    show(name.text),
                    show(kt.text)
                ))
            }
        };
        let id = s as u32;
        for _ in 0..k {
            let b = lx.expect(|| format!("a skill beaten by `{}`", show(name.text)))?;
            lists.push((id, b));
        }
        if let Some(&first) = index.get(name.text) {
            return name.fail(format!(
                "skill `{}` is defined twice (first on line {})",
                show(name.text),
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
    let mut beats: HashSet<u64, FxBuild> = HashSet::default();
    for &(w, t) in &lists {
        // Shown only on failure: no allocation per beaten name.
        let wname = || show(skills[w as usize].name);
        let l = match index.get(t.text) {
            Some(&l) => l,
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
        if !beats.insert(pair(w, l)) {
            return t.fail(format!(
                "skill `{}` lists `{}` twice",
                wname(),
                show(t.text)
            ));
        }
        if beats.contains(&pair(l, w)) {
            return t.fail(format!(
                "skills `{}` and `{}` beat each other (the relation must be antisymmetric)",
                wname(),
                show(t.text)
            ));
        }
    }
    Ok(Variant { skills, beats })
}

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

/// Reads the problem, solves it and prints one value per query. The values
/// are written even when they are not certified (`Failure::Uncertified`).
pub fn solve<W: Write>(input: &[u8], opts: &Options, out: &mut W) -> Result<(), Failure> {
    let start = Instant::now();
    let prob = parse_problem(input)?;
    let _ = opts;
    let n = prob.variant.skills.len();
    if prob.cap > MAX_CAP || n > MAX_SKILLS {
        return Err(Failure::Uncertified(format!(
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
    out.write_all(text.as_bytes())
        .map_err(|e| Failure::Io(format!("cannot write the output: {}", e)))?;
    match warning {
        Some(why) => Err(Failure::Uncertified(why)),
        None => Ok(()),
    }
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
#[path = "../../tests/unit/ji_solver.rs"]
mod tests;
