//! The 集 variant format (docs/ji.md): the lexer and the one reader of a
//! variant. The master of the marked block `ji-variant`: the trainer imports
//! this module (`bad`, `bad_at`, `Failure` and `show` are the parent's, as
//! they are the file's in a pasted solver); scripts/sync-shared copies the
//! block into src/bin/ji_referee.rs and src/bin/ji_solver.rs.

use super::{bad, bad_at, show, Failure};

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
