//! 集 (波波攒) referee: plays out a recorded game and prints the verdict.
//!
//! The game: two players, A and B, move at the same time each round. Each
//! holds a public count of 集 starting at 0. A skill changes its user's count
//! by `delta` and needs at least `req` 集. If one side's skill beats the
//! other's, that side wins and the game ends; otherwise both deltas apply and
//! play goes on. A variant is a set of skills.
//!
//! Input: the variant (its format is the shared block below, the same in
//! ji_solver and ji), then `r` (1 <= r <= 200000) and r rounds `x y`: the
//! skills A and B play in round t = 1..r. Tokens are read the way `cin`
//! reads them: any ASCII whitespace between them, and whatever follows the
//! last round is ignored. `--strict` also checks the statement's layout
//! (see HELP).
//!
//! A variant may end with lasting effects (`lasting`): a skill that meets
//! a listed skill in a round that goes on takes listed skills from the
//! opponent, who may not play them again.
//!
//! Output, one line: `ILLEGAL A t`, `ILLEGAL B t` or `ILLEGAL AB t` if a
//! player lacks the 集 for its skill in round t, or has lost the skill to a
//! lasting effect (checked before "beats");
//! else `A t` / `B t` for the round in which a skill beats the other; else
//! `CONTINUE a b` with the final counts. Rounds after the verdict are still
//! read (they must name skills) and ignored. `--trace` also writes one line
//! per refereed round to stderr (`trace_round`, docs/contract.md).
//!
//! Exit codes (`Failure::exit_code`, the contract of docs/contract.md): 0
//! verdict printed; 2 bad input or bad argument (one line on stderr:
//! `ji_referee: line L: what is wrong`, with `column C` after L for a
//! --strict deviation); 1 stdin cannot be read or the output not written.
//! Code 3 is never used: every well-formed record has a verdict.
//!
//! Complexity: O(input) time and memory; names are hashed once, each round
//! costs two hash look-ups and one look-up in the "beats" set. Counts are
//! kept in 128 bits, so even r = 2e5 rounds of the largest 64-bit gains
//! cannot overflow.

use std::ffi::OsString;
use std::fmt;
use std::io::{self, Read, Write};

// ---- input ------------------------------------------------------------------

const BIN: &str = "ji_referee";
/// The record's limits, written once: the reader checks them and `HELP`
/// states them (a macro, as `concat!` takes only literals).
macro_rules! limit {
    (max_rounds) => {
        200000
    };
}
/// Largest number of rounds the format allows.
const MAX_ROUNDS: u64 = limit!(max_rounds);

/// Why a run gave no verdict; `Display` words it after `ji_referee: `.
#[derive(Debug, PartialEq, Eq)]
pub enum Failure {
    /// A bad argument: the whole message (exit code 2).
    BadArgument(String),
    /// Bad input: the 1-based line and what is wrong (exit code 2).
    BadInput { line: usize, what: String },
    /// `--strict`: the first deviation from the statement's layout, at a
    /// 1-based line and column (exit code 2).
    BadLayout { line: usize, column: usize, what: String },
    /// Stdin cannot be read: the OS error (exit code 1).
    UnreadableInput(String),
    /// The verdict or the trace cannot be written: the OS error (exit
    /// code 1).
    UnwritableOutput(String),
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::BadArgument(what) => write!(f, "{what}"),
            Failure::BadInput { line, what } => write!(f, "line {line}: {what}"),
            Failure::BadLayout { line, column, what } => {
                write!(f, "line {line} column {column}: {what}")
            }
            Failure::UnreadableInput(e) => write!(f, "cannot read the input: {e}"),
            Failure::UnwritableOutput(e) => write!(f, "cannot write the output: {e}"),
        }
    }
}

impl Failure {
    /// The process exit code: the only mapping from failures to codes.
    fn exit_code(&self) -> i32 {
        match self {
            Failure::BadArgument(_) | Failure::BadInput { .. } | Failure::BadLayout { .. } => 2,
            Failure::UnreadableInput(_) | Failure::UnwritableOutput(_) => 1,
        }
    }
}

fn bad<T>(line: usize, what: String) -> Result<T, Failure> {
    Err(Failure::BadInput { line, what })
}

fn bad_at<T>(line: usize, column: usize, what: String) -> Result<T, Failure> {
    Err(Failure::BadLayout { line, column, what })
}

fn unwritable(e: io::Error) -> Failure {
    Failure::UnwritableOutput(e.to_string())
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

// shared: ji-variant begin, master src/shared/ji_variant.rs (edit there, then run scripts/sync-shared)
// The 集 variant format, one reading for ji_referee, ji_solver and the
// trainer ji (docs/ji.md has the rules). Errors go through the file's `bad`
// and `bad_at`. Lexing as C++ `cin >> std::string`: only ASCII whitespace
// separates tokens (CRLF reads as LF; U+3000 or NO-BREAK SPACE is part of a
// name); a leading UTF-8 BOM is skipped. Numbers as `cin >> long long`: a
// sign, then digits (`+1`, `-0`, `00`); one that does not fit its 64-bit
// field is bad input. Names: valid UTF-8 of 1..=32 bytes, read by position.
// With `strict`, each record is one line with single spaces (--strict).
// After the skills, an optional section `lasting m` lists lasting effects
// (a skill met by a listed skill in a round that goes on takes a listed
// set of skills from the opponent for the rest of the game); a program
// that does not play them leaves `Lexer::lasting` unset and refuses it.

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
#[derive(Clone)]
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
    /// This program plays lasting effects: `parse_variant` reads the
    /// `lasting` section; unset, it refuses the section (exit 2).
    pub(crate) lasting: bool,
}

impl<'a> Lexer<'a> {
    pub(crate) fn new(buf: &'a [u8]) -> Self {
        Lexer { buf, pos: 0, line: 1, last: 1, strict: false, fresh: true, lasting: false }
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

    /// The next token's text, not consumed.
    fn peek(&self) -> Option<&'a [u8]> {
        self.clone().next().map(|t| t.text)
    }

    /// The next token, or a failure naming what was expected (built only
    /// on failure). With --strict, one space must precede it, or none at
    /// the start of a record.
    fn expect(&mut self, what: &dyn Fn() -> String) -> Result<Token<'a>, Failure> {
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

/// One skill (技能): its name, its change of 集, the least 集 it needs,
/// and the skills it beats as its line lists them (kit rewrites inputs).
pub(crate) struct Skill<'a> {
    pub(crate) name: &'a [u8],
    pub(crate) delta: i64,
    pub(crate) req: i64,
    #[allow(dead_code)] // kit's; the programs ask `beats`
    pub(crate) beaten: Vec<u32>,
}

/// A lasting effect: when `skill`, played by one side, meets `met`, played
/// by the other, in a round that goes on, the other side loses `taken` for
/// the rest of the game (ids: input positions, in the order listed).
#[allow(dead_code)] // the trainer reads the fields; the referee uses `takes`
pub(crate) struct Lasting {
    pub(crate) skill: u32,
    pub(crate) met: u32,
    pub(crate) taken: Vec<u32>,
}

/// A variant (变体): the skills, in input order, "beats", and the lasting
/// effects (none without a `lasting` section).
pub(crate) struct Variant<'a> {
    pub(crate) skills: Vec<Skill<'a>>,
    index: std::collections::HashMap<&'a [u8], u32, FxBuild>,
    /// Pairs (winner, loser), packed as `winner << 32 | loser`.
    beats: std::collections::HashSet<u64, FxBuild>,
    /// One entry per (skill, met) pair, in input order.
    pub(crate) lasting: Vec<Lasting>,
    /// The entry of `lasting` for a pair (skill, met).
    lasting_at: std::collections::HashMap<u64, u32, FxBuild>,
}

fn pair(winner: u32, loser: u32) -> u64 {
    (u64::from(winner) << 32) | u64::from(loser)
}

impl<'a> Variant<'a> {
    /// Whether skill `x` beats skill `y` (ids: input positions).
    pub(crate) fn beats(&self, x: u32, y: u32) -> bool {
        self.beats.contains(&pair(x, y))
    }

    /// What skill `x` takes from the opponent when it meets skill `met` in
    /// a round that goes on (empty: nothing). (ji_solver does not play
    /// lasting effects yet.)
    #[allow(dead_code)]
    pub(crate) fn takes(&self, x: u32, met: u32) -> &[u32] {
        match self.lasting_at.get(&pair(x, met)) {
            Some(&e) => &self.lasting[e as usize].taken,
            None => &[],
        }
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
    let t = lx.expect(&|| "the number of skills n".to_string())?;
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
        let name = lx.expect(&|| format!("the name of {}", what()))?;
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
        let dt = lx.expect(&|| format!("the delta of {}", what()))?;
        // A name where delta should be: the previous list was longer.
        let hint = if s > 0 { " (does the previous skill's count k match its list?)" } else { "" };
        let delta = int(dt, "delta", hint)?;
        lx.plain_int(&dt, "delta")?;
        let rt = lx.expect(&|| format!("the req of {}", what()))?;
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
        let kt = lx.expect(&|| format!("the beaten count k of {}", what()))?;
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
            let b = lx.expect(&|| format!("a skill beaten by `{}`", shown()))?;
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
        skills.push(Skill { name: name.text, delta, req, beaten: Vec::new() });
    }
    let mut v = Variant {
        skills,
        index,
        beats: std::collections::HashSet::default(),
        lasting: Vec::new(),
        lasting_at: std::collections::HashMap::default(),
    };
    for &(w, t) in &lists {
        // Shown only on failure: no allocation per beaten name.
        let wname = || show(v.skills[w as usize].name);
        let l = known(&v, &t, &|| format!("skill `{}` beats", wname()))?;
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
        v.skills[w as usize].beaten.push(l);
    }
    if lx.peek() == Some(LASTING) {
        parse_lasting(lx, &mut v)?;
    }
    Ok(v)
}

/// The keyword of the lasting-effects section. It stands where every
/// program reads an integer (r, R) or the end of the input, so a variant
/// without it reads exactly as before.
const LASTING: &[u8] = b"lasting";

/// Reads the section `lasting m`, then m effects, one record each:
/// `skill j met_1 .. met_j t taken_1 .. taken_t` (all names of skills).
fn parse_lasting<'a>(lx: &mut Lexer<'a>, v: &mut Variant<'a>) -> Result<(), Failure> {
    let key = lx.expect(&|| "`lasting`".to_string())?;
    if !lx.lasting {
        return key
            .fail("lasting effects (`lasting`) are not supported by this program yet".into());
    }
    let n = v.skills.len() as u64;
    let mt = lx.expect(&|| "the number of lasting effects m".to_string())?;
    let m = match parse_int(mt.text) {
        Some(m) if m >= 1 && m <= i128::from(n) * i128::from(n) => m as u64,
        Some(_) => {
            let what = format!("lasting effects: m `{}` is not in 1..={}", show(mt.text), n * n);
            return mt.fail(what);
        }
        None => {
            let what =
                format!("expected the number of lasting effects m, found `{}`", show(mt.text));
            return mt.fail(what);
        }
    };
    lx.plain_int(&mt, "m")?;
    lx.end_record(false)?;
    // A list of 1..=n names; `field` names it in messages.
    let count = |lx: &mut Lexer<'a>, field: &str, whose: &str| -> Result<u64, Failure> {
        let t = lx.expect(&|| format!("the {field} count of `{whose}`'s lasting effect"))?;
        match parse_int(t.text) {
            Some(c) if c >= 1 && c <= i128::from(n) => {
                lx.plain_int(&t, field)?;
                Ok(c as u64)
            }
            _ => t.fail(format!(
                "lasting effect of `{}`: {} count `{}` is not in 1..={}",
                whose,
                field,
                show(t.text),
                n
            )),
        }
    };
    for e in 0..m {
        let st = lx.expect(&|| format!("the skill of lasting effect {} of {}", e + 1, m))?;
        let skill = known(v, &st, &|| "lasting effect of".to_string())?;
        let whose = show(st.text);
        let mut met = Vec::new();
        for _ in 0..count(lx, "met", &whose)? {
            let t = lx.expect(&|| format!("a skill that `{whose}` meets"))?;
            let y = known(v, &t, &|| format!("lasting effect of `{whose}` meets"))?;
            if v.beats(skill, y) || v.beats(y, skill) {
                return t.fail(format!(
                    "lasting effect of `{}` when it meets `{}`: one beats the other, so that \
                     round never goes on",
                    whose,
                    show(t.text)
                ));
            }
            if v.lasting_at.contains_key(&pair(skill, y)) || met.contains(&y) {
                return t.fail(format!(
                    "lasting effect of `{}` when it meets `{}` is given twice",
                    whose,
                    show(t.text)
                ));
            }
            met.push(y);
        }
        let mut taken = Vec::new();
        for _ in 0..count(lx, "taken", &whose)? {
            let t = lx.expect(&|| format!("a skill that `{whose}` takes"))?;
            let z = known(v, &t, &|| format!("lasting effect of `{whose}` takes"))?;
            if taken.contains(&z) {
                return t.fail(format!(
                    "lasting effect of `{}` takes `{}` twice",
                    whose,
                    show(t.text)
                ));
            }
            taken.push(z);
        }
        lx.end_record(false)?;
        for y in met {
            v.lasting_at.insert(pair(skill, y), v.lasting.len() as u32);
            v.lasting.push(Lasting { skill, met: y, taken: taken.clone() });
        }
    }
    Ok(())
}

/// The skill a name token denotes, or a failure: `<what> unknown skill`
/// (`what` is built only on failure: no allocation per name).
fn known(v: &Variant<'_>, t: &Token<'_>, what: &dyn Fn() -> String) -> Result<u32, Failure> {
    match v.lookup(t.text) {
        Some(x) => Ok(x),
        None => t.fail(format!("{} unknown skill `{}`", what(), show(t.text))),
    }
}
// shared: ji-variant end

/// Reads `r`, the number of rounds, and ends its record.
fn read_round_count(lx: &mut Lexer<'_>) -> Result<u64, Failure> {
    let rt = lx.expect(&|| "the number of rounds r".to_string())?;
    let r = match (parse_u64(rt.text), parse_int(rt.text)) {
        (Some(r), _) if (1..=MAX_ROUNDS).contains(&r) => r,
        (_, Some(_)) => {
            let what = format!("r = {} is out of range (1..={})", show(rt.text), MAX_ROUNDS);
            return rt.fail(what);
        }
        (_, None) => {
            // A name where r should be: usually some count k was too small.
            let hint = match rt.text.first() {
                Some(c) if c.is_ascii_digit() || *c == b'-' || *c == b'+' => "",
                _ => " (does every skill's count k match its list?)",
            };
            let what =
                format!("expected the number of rounds r, found `{}`{}", show(rt.text), hint);
            return rt.fail(what);
        }
    };
    lx.plain_int(&rt, "r")?;
    lx.end_record(false)?;
    Ok(r)
}

/// The skills A and B play in round `t` of `r`.
#[derive(Clone, Copy)]
struct Moves {
    a: u32,
    b: u32,
}

/// Reads round `t` of `r`: two known skill names, one record.
// Inlined into the rounds loop (as is `play_round`): left to the compiler,
// the loop costs about 3% more instructions (callgrind, 200000 rounds).
#[inline(always)]
fn read_round(lx: &mut Lexer<'_>, v: &Variant<'_>, t: u64, r: u64) -> Result<Moves, Failure> {
    let xt = lx.expect(&|| format!("A's skill in round {t} of {r}"))?;
    let yt = lx.expect(&|| format!("B's skill in round {t} of {r}"))?;
    // "The rounds after the verdict are still in the input (possibly
    // illegal ones): read and ignore them." Reading: an unknown name,
    // there too, is bad input (no such move exists), not ILLEGAL.
    let mut ids = [0u32; 2];
    for (id, (tok, who)) in ids.iter_mut().zip([(xt, "A"), (yt, "B")]) {
        *id = match v.lookup(tok.text) {
            Some(i) => i,
            None => {
                let name = show(tok.text);
                return tok.fail(format!("round {t}: unknown skill `{name}` for {who}"));
            }
        };
    }
    let [a, b] = ids;
    let moves = Moves { a, b };
    lx.end_record(t == r)?;
    Ok(moves)
}

// ---- model ------------------------------------------------------------------

/// The players' counts of 集; 128 bits so that no sum of 2e5 64-bit deltas
/// overflows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Counts {
    a: i128,
    b: i128,
}

/// The skills each side has lost to lasting effects (by skill id), and
/// those taken in the round last refereed (for the trace).
struct Lost {
    a: Vec<bool>,
    b: Vec<bool>,
    now_a: Vec<u32>,
    now_b: Vec<u32>,
}

impl Lost {
    fn none(n: usize) -> Lost {
        Lost { a: vec![false; n], b: vec![false; n], now_a: Vec::new(), now_b: Vec::new() }
    }
}

/// Who lacked the 集 for its skill, or played a skill it had lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Offender {
    A,
    B,
    Both,
}

impl Offender {
    /// As the output and the trace name it.
    fn name(self) -> &'static str {
        match self {
            Offender::A => "A",
            Offender::B => "B",
            Offender::Both => "AB",
        }
    }
}

/// How a recorded game ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// A player lacked the 集 for its skill in this round.
    Illegal { who: Offender, round: u64 },
    /// A's skill beat B's in this round.
    AWins { round: u64 },
    /// B's skill beat A's in this round.
    BWins { round: u64 },
    /// No round decided: the final counts.
    Continue(Counts),
}

// ---- rules ------------------------------------------------------------------

/// Referees round `round`: the verdict if it decides the game, else `None`
/// and `counts` moved on by both deltas, `lost` by the lasting effects (in
/// place: the hot loop).
#[inline(always)]
fn play_round(
    v: &Variant<'_>,
    moves: Moves,
    counts: &mut Counts,
    lost: &mut Lost,
    round: u64,
) -> Option<Verdict> {
    let (sa, sb) = (&v.skills[moves.a as usize], &v.skills[moves.b as usize]);
    // "Legality of both moves is checked before "beats": an illegal
    // move that would have won is still ILLEGAL. A count equal to req is
    // legal." (With no req-0 skill, round 1 is ILLEGAL AB.) A skill taken
    // by a lasting effect is illegal in the same way, for the rest of the
    // game.
    let short_a = counts.a < i128::from(sa.req) || lost.a[moves.a as usize];
    let short_b = counts.b < i128::from(sb.req) || lost.b[moves.b as usize];
    let who = match (short_a, short_b) {
        (true, true) => Some(Offender::Both),
        (true, false) => Some(Offender::A),
        (false, true) => Some(Offender::B),
        (false, false) => None,
    };
    if let Some(who) = who {
        Some(Verdict::Illegal { who, round })
    } else if v.beats(moves.a, moves.b) {
        Some(Verdict::AWins { round })
    } else if v.beats(moves.b, moves.a) {
        Some(Verdict::BWins { round })
    } else {
        // "Deltas apply only when the round continues."
        counts.a += i128::from(sa.delta);
        counts.b += i128::from(sb.delta);
        if !v.lasting.is_empty() {
            take(v, moves, lost);
        }
        None
    }
}

/// The lasting effects of a round that went on, both at once: A's skill
/// meeting B's takes skills from B, B's meeting A's from A. A skill
/// already lost is not taken again (nor traced).
fn take(v: &Variant<'_>, moves: Moves, lost: &mut Lost) {
    lost.now_a.clear();
    lost.now_b.clear();
    for &z in v.takes(moves.a, moves.b) {
        if !std::mem::replace(&mut lost.b[z as usize], true) {
            lost.now_b.push(z);
        }
    }
    for &z in v.takes(moves.b, moves.a) {
        if !std::mem::replace(&mut lost.a[z as usize], true) {
            lost.now_a.push(z);
        }
    }
}

// ---- output -----------------------------------------------------------------

/// Reads a whole record, referees it and writes the verdict line (and with
/// `--trace` one line per refereed round to `trace`).
pub fn solve(
    input: Vec<u8>,
    options: &Options,
    out: &mut impl Write,
    trace: &mut impl Write,
) -> Result<(), Failure> {
    let mut lx = Lexer::new(&input);
    lx.strict = options.strict;
    lx.lasting = true;
    let v = parse_variant(&mut lx)?;
    let r = read_round_count(&mut lx)?;
    let mut verdict: Option<Verdict> = None;
    let mut counts = Counts { a: 0, b: 0 };
    let mut lost = Lost::none(v.skills.len());
    for t in 1..=r {
        let moves = read_round(&mut lx, &v, t, r)?;
        if verdict.is_some() {
            continue;
        }
        let before = counts;
        verdict = play_round(&v, moves, &mut counts, &mut lost, t);
        if options.trace {
            let end = verdict.unwrap_or(Verdict::Continue(counts));
            trace_round(trace, &v, t, moves, before, end).map_err(unwritable)?;
            if verdict.is_none() {
                trace_taken(trace, &v, t, &lost).map_err(unwritable)?;
            }
        }
    }
    // Whatever follows the r-th round is ignored, as `cin` would (--strict
    // has refused it in `end_record`).
    let verdict = verdict.unwrap_or(Verdict::Continue(counts));
    write_verdict(out, verdict).map_err(unwritable)
}

/// `--trace`: `round T X Y A B RESULT` (docs/contract.md, "Trace formats"),
/// with the skills' names as the input spells them, the counts before the
/// round, and how it ends (`Continue`: the game goes on with these counts).
fn trace_round(
    trace: &mut impl Write,
    v: &Variant<'_>,
    round: u64,
    moves: Moves,
    before: Counts,
    end: Verdict,
) -> io::Result<()> {
    write!(trace, "round {round} ")?;
    trace.write_all(v.skills[moves.a as usize].name)?;
    trace.write_all(b" ")?;
    trace.write_all(v.skills[moves.b as usize].name)?;
    write!(trace, " {} {} ", before.a, before.b)?;
    match end {
        Verdict::Continue(after) => writeln!(trace, "next {} {}", after.a, after.b),
        Verdict::Illegal { who, .. } => writeln!(trace, "ILLEGAL {}", who.name()),
        Verdict::AWins { .. } => writeln!(trace, "A"),
        Verdict::BWins { .. } => writeln!(trace, "B"),
    }
}

/// `--trace`, after a round that went on and took skills: `taken T W S..`,
/// the skills S taken from W (`A` or `B`) for the rest of the game.
fn trace_taken(trace: &mut impl Write, v: &Variant<'_>, round: u64, lost: &Lost) -> io::Result<()> {
    for (who, now) in [("A", &lost.now_a), ("B", &lost.now_b)] {
        if now.is_empty() {
            continue;
        }
        write!(trace, "taken {round} {who}")?;
        for &z in now.iter() {
            trace.write_all(b" ")?;
            trace.write_all(v.skills[z as usize].name)?;
        }
        writeln!(trace)?;
    }
    Ok(())
}

/// The one output line.
fn write_verdict(out: &mut impl Write, verdict: Verdict) -> io::Result<()> {
    match verdict {
        Verdict::Illegal { who, round } => writeln!(out, "ILLEGAL {} {}", who.name(), round),
        Verdict::AWins { round } => writeln!(out, "A {round}"),
        Verdict::BWins { round } => writeln!(out, "B {round}"),
        Verdict::Continue(counts) => writeln!(out, "CONTINUE {} {}", counts.a, counts.b),
    }
}

// ---- command line -----------------------------------------------------------

const HELP: &str = concat!(
    "\
ji_referee: referee one recorded game of 集 (波波攒).
usage:   ji_referee [options] < record
input:   n, then n skills `name delta req k beaten_1 .. beaten_k`, then
         optionally `lasting m` and m lasting effects `skill j met_1 .. met_j
         t taken_1 .. taken_t` (skill meeting a met skill in a round that
         goes on takes the taken skills from the opponent for the rest of
         the game; playing one is then illegal), then r
         (1..=",
    limit!(max_rounds),
    ") and r lines `x y` (the skills A and B play). Tokens:
         any ASCII whitespace between them (CRLF = LF; U+3000 or a no-break
         space is part of a name); `+1`, `-0`, `007` are numbers; a leading
         byte order mark is skipped; whatever follows the r-th round is
         ignored.
output:  `ILLEGAL A|B|AB t` (a skill short of 集 or taken), `A t`, `B t`
         (round t decides), or
         `CONTINUE a b` (the final counts of 集).
options: --strict    also check the statement's layout, and stop at the first
                     deviation with `line L column C: ...` (exit 2): n on
                     line 1; one line per skill; r on its own line; one line
                     per round; single spaces between tokens, none at either
                     end of a line; integers without a leading zero, `+` or
                     `-0`; a newline (LF or CRLF) after the last round and
                     nothing after it.
         --trace     also write one line per refereed round to stderr, up
                     to and including the round that decides: `round T X Y
                     A B RESULT`, where X and Y are the skills A and B play,
                     A and B their counts before the round, and RESULT `next
                     A' B'` (the counts after it), `A` or `B` (that side's
                     skill wins) or `ILLEGAL A|B|AB`; after a round that
                     takes skills, `taken T W S..` (skills S taken from W).
         --validate  as --strict, writing nothing: exit 42 if the record is
                     valid, 43 and the line if not (a Kattis input validator)
         --help      print this help and exit
exit:    0 ok, 1 unreadable input or unwritable output, 2 bad input or
         argument, 3 not used (every well-formed record has a verdict).
"
);

/// The options, one field each.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// `--strict`: check the statement's layout too.
    pub strict: bool,
    /// `--trace`: one stderr line per refereed round.
    pub trace: bool,
}

impl Options {
    /// Sets option `name`; `false` if there is none.
    fn set(&mut self, name: &str, _: &mut std::slice::Iter<OsString>) -> Result<bool, Failure> {
        match name {
            "--strict" => self.strict = true,
            "--trace" => self.trace = true,
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
#[path = "../../tests/unit/ji_referee.rs"]
mod tests;
