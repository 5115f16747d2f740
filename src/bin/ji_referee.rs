//! 集 (波波攒) referee: plays out a recorded game and prints the verdict.
//!
//! The game: two players, A and B, move at the same time each round. Each
//! holds a public count of 集 starting at 0. A skill changes its user's count
//! by `delta` and needs at least `req` 集. If one side's skill beats the
//! other's, that side wins and the game ends; otherwise both deltas apply and
//! play goes on. A variant is a set of skills.
//!
//! Input (whitespace-separated tokens; newlines are whitespace):
//! - the variant: `n`, then n skills `name delta req k beaten_1 .. beaten_k`.
//!   `name` is a UTF-8 token of at most 32 bytes without whitespace (it may
//!   look like a number: tokens are read by position); names are distinct.
//!   `req >= max(0, -delta)` (`req > -delta` is the 无限集 rule). "Beats"
//!   must be irreflexive and antisymmetric, not necessarily transitive.
//! - `r` (1 <= r <= 200000), then r lines `x y`: the skills A and B play in
//!   round t = 1..r.
//!
//! Output, one line: `ILLEGAL A t`, `ILLEGAL B t` or `ILLEGAL AB t` if a
//! player lacks the 集 for its skill in round t (checked before "beats");
//! else `A t` / `B t` for the round in which a skill beats the other; else
//! `CONTINUE a b` with the final counts. Rounds after the verdict are still
//! read (they must be well-formed) and ignored.
//!
//! Exit codes: 0 verdict printed; 2 bad input or bad argument (one line on
//! stderr: `ji_referee: line L: what is wrong`). Code 3 is never used: every
//! well-formed record has a verdict. 1: the output cannot be written.
//!
//! Complexity: O(input) time and memory; names are hashed once, each round
//! costs two hash look-ups and one look-up in the "beats" set. Counts are
//! kept in 128 bits, so even r = 2e5 rounds of the largest 64-bit gains
//! cannot overflow.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::io::{self, Read, Write};

const BIN: &str = "ji_referee";
/// Longest skill name in bytes (the format's limit).
const MAX_NAME_BYTES: usize = 32;
/// Largest number of rounds the format allows.
const MAX_ROUNDS: u64 = 200_000;

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
    if let Err(f) = solve(&input, &mut out) {
        // Line 0 is the output failing, not the input.
        die(if f.line == 0 { 1 } else { 2 }, f);
    }
    if let Err(e) = out.flush() {
        die(1, format_args!("cannot write stdout: {}", e));
    }
}

/// Ends the run with one stderr line and the exit code (2: bad input, 1:
/// the output cannot be written).
fn die(code: i32, msg: impl std::fmt::Display) -> ! {
    eprintln!("{}: {}", BIN, msg);
    std::process::exit(code)
}

const HELP: &str = "\
ji_referee: referee one game of 集 (波波攒).
input:  n, then n skills `name delta req k beaten_1 .. beaten_k`,
        then r (1..=200000) and r lines `x y` (the skills A and B play).
output: `ILLEGAL A|B|AB t`, `A t`, `B t` (round t decides), or
        `CONTINUE a b` (final counts of 集).
exit:   0 ok, 2 bad input or argument (one line on stderr), 1 output failed.
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
    index: HashMap<&'a [u8], u32, FxBuild>,
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

    /// The skill a token names, if any.
    fn lookup(&self, t: &Token<'a>) -> Option<u32> {
        self.index.get(t.text).copied()
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
    Ok(Variant {
        skills,
        index,
        beats,
    })
}

// ---------------------------------------------------------------- referee

/// How a recorded game ends.
#[derive(Debug, PartialEq)]
enum Verdict {
    /// A player lacked the 集 for its skill: (A short, B short, round).
    Illegal(bool, bool, u64),
    /// A's skill beat B's in this round.
    AWins(u64),
    /// B's skill beat A's in this round.
    BWins(u64),
    /// No round decided: the final counts.
    Continue(i128, i128),
}

/// Reads a whole record, referees it and writes the verdict line.
pub fn solve<W: Write>(input: &[u8], out: &mut W) -> Result<(), Failure> {
    let mut lx = Lexer::new(input);
    let v = parse_variant(&mut lx)?;
    let rt = lx.expect(|| "the number of rounds r".to_string())?;
    let r = match parse_u64(rt.text) {
        Some(r) if (1..=MAX_ROUNDS).contains(&r) => r,
        Some(r) => return rt.fail(format!("r = {} is out of range (1..={})", r, MAX_ROUNDS)),
        None => {
            // A name where r should be: usually some count k was too small.
            let hint = if matches!(rt.text.first(), Some(c) if c.is_ascii_digit() || *c == b'-' || *c == b'+')
            {
                ""
            } else {
                " (does every skill's count k match its list?)"
            };
            return rt.fail(format!(
                "expected the number of rounds r, found `{}`{}",
                show(rt.text),
                hint
            ));
        }
    };
    let mut verdict: Option<Verdict> = None;
    // Counts of 集; 128 bits so that no sum of 2e5 64-bit deltas overflows.
    let (mut a, mut b): (i128, i128) = (0, 0);
    for t in 1..=r {
        let xt = lx.expect(|| format!("A's skill in round {} of {}", t, r))?;
        let yt = lx.expect(|| format!("B's skill in round {} of {}", t, r))?;
        // "The rounds after the verdict are still in the input (possibly
        // illegal ones): read and ignore them." Reading: an unknown name,
        // there too, is bad input (no such move exists), not ILLEGAL.
        let mut ids = [0u32; 2];
        for (id, (tok, who)) in ids.iter_mut().zip([(xt, "A"), (yt, "B")]) {
            *id = match v.lookup(&tok) {
                Some(i) => i,
                None => {
                    let name = show(tok.text);
                    return tok.fail(format!("round {}: unknown skill `{}` for {}", t, name, who));
                }
            };
        }
        let [x, y] = ids;
        if verdict.is_some() {
            continue;
        }
        let (sx, sy) = (&v.skills[x as usize], &v.skills[y as usize]);
        // "Legality of both moves is checked before "beats": an illegal
        // move that would have won is still ILLEGAL. A count equal to req is
        // legal." (With no req-0 skill, round 1 is ILLEGAL AB.)
        let short_a = a < i128::from(sx.req);
        let short_b = b < i128::from(sy.req);
        if short_a || short_b {
            verdict = Some(Verdict::Illegal(short_a, short_b, t));
        } else if v.beats(x, y) {
            verdict = Some(Verdict::AWins(t));
        } else if v.beats(y, x) {
            verdict = Some(Verdict::BWins(t));
        } else {
            // "Deltas apply only when the round continues."
            a += i128::from(sx.delta);
            b += i128::from(sy.delta);
        }
    }
    if let Some(t) = lx.next() {
        return t.fail(format!(
            "unexpected token `{}` after the last of {} rounds",
            show(t.text),
            r
        ));
    }
    let verdict = verdict.unwrap_or(Verdict::Continue(a, b));
    let written = match verdict {
        Verdict::Illegal(sa, sb, t) => {
            let who = match (sa, sb) {
                (true, true) => "AB",
                (true, false) => "A",
                _ => "B",
            };
            writeln!(out, "ILLEGAL {} {}", who, t)
        }
        Verdict::AWins(t) => writeln!(out, "A {}", t),
        Verdict::BWins(t) => writeln!(out, "B {}", t),
        Verdict::Continue(a, b) => writeln!(out, "CONTINUE {} {}", a, b),
    };
    written.map_err(|e| Failure {
        line: lx.line,
        msg: format!("cannot write the verdict: {}", e),
    })
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

    fn run(input: &str) -> Result<String, Failure> {
        let mut out = Vec::new();
        solve(input.as_bytes(), &mut out)?;
        Ok(String::from_utf8(out).unwrap())
    }

    fn common(rounds: &str) -> String {
        let n = rounds.lines().filter(|l| !l.trim().is_empty()).count();
        run(&format!("{}{}\n{}", COMMON, n, rounds)).unwrap()
    }

    fn err(input: &str) -> String {
        run(input).unwrap_err().to_string()
    }

    #[test]
    fn small_wave_beats_ji_after_saving() {
        assert_eq!(common("集 集\n小波 集\n"), "A 2\n");
    }

    #[test]
    fn small_wave_beats_mid_defence_not_small() {
        assert_eq!(common("集 集\n小波 小防\n"), "CONTINUE 0 1\n");
        assert_eq!(common("集 集\n小波 中防\n"), "A 2\n");
        assert_eq!(common("集 集\n集 集\n小防 中波\n"), "B 3\n");
        assert_eq!(common("集 集\n集 集\n中防 中波\n"), "CONTINUE 2 0\n");
    }

    #[test]
    fn legality_before_beats() {
        assert_eq!(common("小波 集\n"), "ILLEGAL A 1\n");
        assert_eq!(common("集 小波\n"), "ILLEGAL B 1\n");
        assert_eq!(common("大防 黑洞\n"), "ILLEGAL AB 1\n");
    }

    #[test]
    fn count_equal_to_req_is_legal() {
        assert_eq!(
            common("集 集\n集 集\n中波 大防\n大防 小防\n"),
            "ILLEGAL A 4\n"
        );
    }

    #[test]
    fn rounds_after_verdict_are_ignored_but_checked() {
        assert_eq!(common("集 集\n小波 集\n黑洞 黑洞\n"), "A 2\n");
        let e = err(&format!("{}3\n集 集\n小波 集\n黑洞 无\n", COMMON));
        assert_eq!(e, "line 13: round 3: unknown skill `无` for B");
    }

    #[test]
    fn big_counts_do_not_overflow() {
        let big = format!("2\ng {} 0 0\nw 0 0 0\n3\ng g\ng g\ng w\n", i64::MAX);
        let expect = format!(
            "CONTINUE {} {}\n",
            3 * i128::from(i64::MAX),
            2 * i128::from(i64::MAX)
        );
        assert_eq!(run(&big).unwrap(), expect);
    }

    #[test]
    fn numeric_names_parse_by_position() {
        let v = "3\n1 1 0 0\n2 0 0 0\n-1 -1 1 1 1\n3\n1 2\n-1 1\n2 2\n";
        assert_eq!(run(v).unwrap(), "A 2\n");
    }

    #[test]
    fn crlf_same_as_lf() {
        let lf = format!("{}2\n集 集\n小波 集\n", COMMON);
        let crlf = lf.replace('\n', "\r\n");
        assert_eq!(run(&lf).unwrap(), run(&crlf).unwrap());
        assert_eq!(
            err("2\na 0 0 1 b\nb 0 0 1 a\n"),
            err("2\r\na 0 0 1 b\r\nb 0 0 1 a\r\n")
        );
    }

    #[test]
    fn rejects_malformed_variants() {
        assert_eq!(
            err(""),
            "line 1: unexpected end of input: expected the number of skills n"
        );
        assert_eq!(err("0\n"), "line 1: n must be at least 1");
        assert_eq!(
            err("x\n"),
            "line 1: expected the number of skills n, found `x`"
        );
        assert_eq!(
            err("2\na 0 0 1 c\nb 0 0 0\n1\na b\n"),
            "line 2: skill `a` beats unknown skill `c`"
        );
        assert_eq!(
            err("2\na 0 0 0\na 0 0 0\n1\na a\n"),
            "line 3: skill `a` is defined twice (first on line 2)"
        );
        assert_eq!(
            err("2\na 0 0 1 a\nb 0 0 0\n1\na b\n"),
            "line 2: skill `a` beats itself"
        );
        assert_eq!(
            err("2\na 0 0 1 b\nb 0 0 1 a\n1\na b\n"),
            "line 3: skills `b` and `a` beat each other (the relation must be antisymmetric)"
        );
        assert_eq!(
            err("1\na -2 1 0\n1\na a\n"),
            "line 2: skill `a`: req 1 is below its cost (req must be at least max(0, -delta) = 2)"
        );
        assert_eq!(
            err("1\na 0 -1 0\n1\na a\n"),
            "line 2: skill `a`: req -1 is below its cost (req must be at least max(0, -delta) = 0)"
        );
        assert_eq!(
            err("2\na 0 0 2 b b\nb 0 0 0\n"),
            "line 2: skill `a`: beats 2 skills but only 1 others exist"
        );
        assert_eq!(
            err("3\na 0 0 1 b c\nb 0 0 0\nc 0 0 0\n"),
            "line 3: skill `c`: delta `b` is not a 64-bit integer (does the previous skill's count k match its list?)"
        );
        assert_eq!(
            err("3\na 0 0 2 b b\nb 0 0 0\nc 0 0 0\n1\na a\n"),
            "line 2: skill `a` lists `b` twice"
        );
        assert_eq!(
            err("1\na 99999999999999999999 0 0\n"),
            "line 2: skill `a`: delta `99999999999999999999` is not a 64-bit integer"
        );
        let long = "x".repeat(33);
        assert_eq!(
            err(&format!("1\n{} 0 0 0\n", long)),
            format!(
                "line 2: skill name `{}` is 33 bytes long (at most 32)",
                long
            )
        );
        assert_eq!(
            err("1\na\u{3000}b 0 0 0\n"),
            "line 2: skill name `a\u{3000}b` contains whitespace"
        );
        assert!(
            run("1\n\u{1F525}\u{1F525} 0 0 0\n1\n\u{1F525}\u{1F525} \u{1F525}\u{1F525}\n").is_ok()
        );
    }

    #[test]
    fn rejects_bad_rounds() {
        for (rounds, want) in [
            ("0\n", "line 10: r = 0 is out of range (1..=200000)"),
            (
                "200001\n",
                "line 10: r = 200001 is out of range (1..=200000)",
            ),
            (
                "2\n集 集\n",
                "line 11: unexpected end of input: expected A's skill in round 2 of 2",
            ),
            (
                "1\n集 集\n集\n",
                "line 12: unexpected token `集` after the last of 1 rounds",
            ),
            ("1\n集 波\n", "line 11: round 1: unknown skill `波` for B"),
        ] {
            assert_eq!(err(&format!("{}{}", COMMON, rounds)), want);
        }
    }

    #[test]
    fn no_free_skill_is_illegal_for_both() {
        assert_eq!(run("1\nx -1 1 0\n1\nx x\n").unwrap(), "ILLEGAL AB 1\n");
    }
}
